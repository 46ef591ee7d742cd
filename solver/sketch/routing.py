"""Pipes: whether waiting ports stay reachable, Dijkstra routes from a port, and laying them.
"""
from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, replace

from models.geometry import Cell
from models.layout import Tile

from .state import Context, Piece, Slot, State, Tank

#: extra route cost for sharing a cell with another network's pipe (it can no longer branch there)
CROSS_COST = 0.3
#: extra route cost for crossing a cell where an output still waits for its connection
STUB_CROSS_COST = 2.0


# -- keeping waiting ports reachable ------------------------------------------------
def is_waiting(state: State, cell: Cell) -> bool:
    """A cell where a port still waits for its connection (an input's reserved cell or an output's stub)."""
    return cell in state.reserved or any(len(p.sides) == 1 and not p.frozen for p in state.pieces.get(cell, ()))


def can_enter(ctx: Context, state: State, cell: Cell, side: str) -> bool:
    """Whether a new pipe could enter `cell` through `side` and leave it again (free, or a crossing fits)."""
    if cell in state.machine_at or cell in state.blocked or cell in state.tanks or cell in state.reserved:
        return False
    here = state.pieces.get(cell, ())
    if not here:
        return True
    used = set().union(*(p.sides for p in here))
    if side in used:
        return False
    for out, _, _ in ctx.moves[cell]:
        if out != side and out not in used:
            grown = here + (Piece(-1, frozenset((side, out))),)
            if ctx.fits(grown) and ctx.stubs_can_grow(cell, grown):
                return True
    return False


def has_exit(ctx: Context, state: State, cell: Cell, closed: set[Cell]) -> bool:
    """Whether a pipe could still leave `cell` through a free side into a cell not in `closed`."""
    used = set().union(*(p.sides for p in state.pieces.get(cell, ())))
    return any(side not in used and other not in closed and can_enter(ctx, state, other, back)
               for side, other, back in ctx.moves[cell])


def network_open(ctx: Context, state: State, net: int) -> bool:
    """Whether a new pipe could still join the network: a square tank or a pipe of it with a way in."""
    for cell, tank in state.tanks.items():
        if tank.net == net and not ctx.hex and has_exit(ctx, state, cell, set()):
            return True
    for cell, here in state.pieces.items():
        used = set().union(*(p.sides for p in here))
        for i, p in enumerate(here):
            if p.net != net or p.frozen:
                continue
            for side, other, back in ctx.moves[cell]:
                if side not in used and can_enter(ctx, state, other, back):
                    if ctx.fits(here[:i] + (replace(p, sides=p.sides | {side}),) + here[i + 1:]):
                        return True
    return False


def supplies_open(ctx: Context, state: State, rest: list[str]) -> bool:
    """Every colour that inputs still to place may need from a supply has a container left to place,
    or a supply network they can still reach (a walled-in container would end that colour)."""
    for colors in {c for m in rest for c, _ in ctx.table[m][0]}:
        if any(ctx.supply_available(state, c) for c in colors if c in ctx.ruleset.colors):
            continue
        nets = [i for i, n in enumerate(state.nets) if n.kind == "supply" and n.colors & colors]
        if nets and not any(network_open(ctx, state, i) for i in nets):
            return False
    return True


def boxes_in(ctx: Context, state: State, cells: set[Cell], own: Cell | None = None) -> bool:
    """Whether filling `cells` would leave a neighbouring waiting port with no way out."""
    for cell in cells:
        for _, other in ctx.steps[cell]:
            if other is not None and other != own and other not in cells and is_waiting(state, other):
                if not has_exit(ctx, state, other, cells):
                    return True
    return False


# -- routing -------------------------------------------------------------------
@dataclass
class Route:
    """Pipes from a port's facing cell to where it joins: its steps and how it ends."""

    steps: list[tuple[Cell, str, str]]          # (cell, entered side, left side)
    end: Cell
    end_side: str
    target: int | None                          # network joined; None: a new tank at `end`


def _terminal(ctx: Context, state: State, cell: Cell, side: str, targets: dict[int, float],
              new_tank: float | None, own: Cell, tank_at_start: bool) -> tuple[float, int | None] | None:
    """Cheapest way to finish a route that enters `cell` through `side`, or None."""
    best: tuple[float, int | None] | None = None
    tank = state.tanks.get(cell)
    if tank is not None:   # (a hex tank opens on one side only: a fixed one nothing joins yet, through it)
        if tank.net in targets and (not ctx.hex or (tank.side == side and targets[tank.net] < 0)):
            best = (targets[tank.net], tank.net)
        return best
    pieces = state.pieces.get(cell, ())
    if pieces and cell not in state.reserved:
        used = set().union(*(p.sides for p in pieces))
        if side not in used:
            for i, p in enumerate(pieces):
                if p.frozen or p.net not in targets or (best is not None and targets[p.net] >= best[0]):
                    continue
                grown = pieces[:i] + (replace(p, sides=p.sides | {side}),) + pieces[i + 1:]
                if ctx.fits(grown):
                    best = (targets[p.net], p.net)
    elif new_tank is not None and not pieces and cell not in state.machine_at and cell not in state.blocked:
        if (cell not in state.reserved and cell != own) or (cell == own and tank_at_start):
            if (best is None or new_tank < best[0]) and not boxes_in(ctx, state, {cell}, own):
                best = (new_tank, None)
    return best


def route(ctx: Context, state: State, start: Slot, targets: dict[int, float], new_tank: float | None,
          tank_at_start: bool = True) -> Route | None:
    """Dijkstra from a port's facing cell (entered from the port's side) to the cheapest finish.

    `targets` maps the networks the port may join to an extra cost; `new_tank`
    is the extra cost of ending on a new tank in a free cell (None: not allowed),
    which may be the facing cell itself only if `tank_at_start`.
    """
    own = start[0]
    closed = set(state.machine_at) | state.blocked | (set(state.reserved) - {own})
    pieces, tanks, hug = state.pieces, state.tanks, ctx.costs.hug
    counter = itertools.count()
    heap = [(0.0, next(counter), start)]
    dist = {start: 0.0}
    parent: dict[Slot, tuple[Slot, str] | None] = {start: None}
    done: set[Slot] = set()
    best: tuple[float, Slot, int | None] | None = None
    # the cheapest extra a finish may add: below 0 where a network must be joined (ports.ORPHAN), so a nearer
    # finish does not end the search before the farther, cheaper one is reached
    least_extra = min([0.0, *targets.values(), *([new_tank] if new_tank is not None else [])])
    while heap:
        g, _, (cell, side) = heapq.heappop(heap)
        if best is not None and g + least_extra >= best[0]:
            break
        if (cell, side) in done:
            continue
        done.add((cell, side))
        finish = _terminal(ctx, state, cell, side, targets, new_tank, own, tank_at_start)
        if finish is not None and (best is None or g + finish[0] < best[0]):
            best = (g + finish[0], (cell, side), finish[1])
        if cell in closed or cell in tanks:
            continue
        here = pieces.get(cell, ())
        extra = 1.0
        if here:
            extra += CROSS_COST
            if any(len(p.sides) == 1 and not p.frozen for p in here):
                extra += STUB_CROSS_COST
        if hug:
            extra += hug * sum(1 for _, o, _ in ctx.moves[cell] if state.is_empty(o))
        cost = g + extra
        for out, other, back in ctx.moves[cell]:
            if out == side or other in closed:
                continue
            if here:  # crossing: the connector rules decide
                grown = here + (Piece(-1, frozenset((side, out))),)
                if not ctx.fits(grown) or not ctx.stubs_can_grow(cell, grown):
                    continue
            nxt = (other, back)
            if cost < dist.get(nxt, float("inf")):
                dist[nxt] = cost
                parent[nxt] = ((cell, side), out)
                heapq.heappush(heap, (cost, next(counter), nxt))
    if best is None:
        return None
    steps: list[tuple[Cell, str, str]] = []
    link = parent[best[1]]
    while link is not None:
        (cell, side), out = link
        steps.append((cell, side, out))
        link = parent[(cell, side)]
    steps.reverse()
    return Route(steps, best[1][0], best[1][1], best[2])


def _add_piece(ctx: Context, state: State, cell: Cell, net: int, sides: frozenset[str]) -> bool:
    """Lay a new pipe of `net` in `cell`, if the cell's connector rules allow it."""
    pieces = state.pieces.get(cell, ()) + (Piece(net, sides),)
    if not ctx.fits(pieces):
        return False
    state.pieces[cell] = pieces
    return True


def _grow_piece(ctx: Context, state: State, cell: Cell, net: int, side: str) -> bool:
    """Add `side` to a pipe of `net` in `cell` (a straight becomes a T, a stub a pipe)."""
    pieces = state.pieces.get(cell, ())
    for i, p in enumerate(pieces):
        if p.net == net and not p.frozen:
            grown = pieces[:i] + (replace(p, sides=p.sides | {side}),) + pieces[i + 1:]
            if ctx.fits(grown):
                state.pieces[cell] = grown
                if len(p.sides) == 1:  # a waiting output's stub (or a supply's open end): connected now
                    state.nets[net].stub, state.nets[net].open_end = None, False
                return True
    return False


def _add_tank(state: State, cell: Cell, kind: str, net: int, color: str | None, side: str | None) -> None:
    """Place a new tank (and remember it as a tile of the result)."""
    state.tanks[cell] = Tank(kind, net, color, side)
    state.new_tiles.append(Tile(kind=kind, cell=cell, color=color, side=side))
    if kind in ("output", "end"):
        state.nets[net].reservoir = True


def apply_route(ctx: Context, state: State, found: Route, net: int, tank: tuple[str, str | None] | None) -> bool:
    """Lay the route's pipes as part of `net`; `tank` (kind, colour) when it ends on a new tank."""
    seen: set[Cell] = set()
    for cell, side, out in found.steps:
        if cell in seen or not _add_piece(ctx, state, cell, net, frozenset((side, out))):
            return False  # the route crossed itself: give this position up
        seen.add(cell)
    if found.target is None:
        assert tank is not None
        if found.end in seen:
            return False
        _add_tank(state, found.end, tank[0], net, tank[1], found.end_side if ctx.hex else None)
    elif found.end in state.pieces and found.end not in state.tanks:
        if not _grow_piece(ctx, state, found.end, net, found.end_side):
            return False
    return True
