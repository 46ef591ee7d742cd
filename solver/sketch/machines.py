"""Placing one machine: ranking its positions, keeping those whose inputs can reach a network,
and standing it there with every input routed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from models.catalog import PortSpec
from models.geometry import Cell
from models.layout import MachinePlacement

from ..placements import Placement
from .orders import greedy_feeding, takers_left
from .ports import (ORPHAN, finish_output, input_options, join_input, new_supply_color, record_input, remove_stub,
                    reservoir_policy)
from .routing import boxes_in, can_enter, has_exit
from .state import Context, Net, Piece, State

@dataclass
class Candidate:
    """A position of the machine to place, scored (lower is better)."""

    placement: Placement
    direct: dict[int, int]     # port index -> network it joins port to port (its output's cell is covered)
    score: float


class OptionCache:
    """input_options and new-supply colours of one machine in one state, computed once per port."""

    def __init__(self, ctx: Context, state: State, machine: int) -> None:
        self.ctx, self.state, self.machine = ctx, state, machine
        self._options: dict[PortSpec, dict[int, float]] = {}
        self._supply: dict[PortSpec, str | None] = {}

    def options(self, spec: PortSpec) -> dict[int, float]:
        if spec not in self._options:
            self._options[spec] = input_options(self.ctx, self.state, self.machine, spec)
        return self._options[spec]

    def new_supply(self, spec: PortSpec) -> str | None:
        if spec not in self._supply:
            self._supply[spec] = new_supply_color(self.ctx, self.state, spec)
        return self._supply[spec]


def _check_position(ctx: Context, state: State, cache: OptionCache, placement: Placement) -> dict[int, int] | None:
    """Port-to-port joins if the machine may stand here (cells free, ports facing usable cells), else None."""
    direct: dict[int, int] = {}
    for cell in placement.cells:
        if state.is_empty(cell):
            continue
        pieces = state.pieces.get(cell, ())
        if cell in state.reserved or cell in state.tanks or not pieces or any(len(p.sides) != 1 for p in pieces):
            return None
        for piece in pieces:   # (an output's stub, a fixed supply pipe's end, or both: each meets an input here)
            side = next(iter(piece.sides))
            port = next((i for i, p in enumerate(placement.ports) if p.slot == (cell, side) and p.spec.is_input),
                        None)
            if port is None or piece.net not in cache.options(placement.ports[port].spec):
                return None
            direct[port] = piece.net
    if boxes_in(ctx, state, set(placement.cells)):
        return None
    for i, port in enumerate(placement.ports):
        if i in direct:
            continue
        facing = ctx.board.neighbour(*port.slot)
        if facing is None or facing in state.machine_at or facing in placement.cells or facing in state.blocked:
            return None
        if facing in state.reserved:
            return None
        if facing in state.tanks:
            tank = state.tanks[facing]
            if ctx.hex or not port.spec.is_input or tank.net not in cache.options(port.spec):
                return None
        elif facing in state.pieces:
            side = ctx.opposite[port.slot[1]]
            pieces = state.pieces[facing]
            if side in set().union(*(p.sides for p in pieces)):
                return None
            if not port.spec.is_input and not ctx.fits(pieces + (Piece(-1, frozenset({side})),)):
                return None
        elif (ctx.hex or not port.spec.is_input) and not has_exit(ctx, state, facing, set(placement.cells)):
            return None  # a pipe could never leave the facing cell
    return direct


def _distance_map(ctx: Context, state: State, net: int) -> dict[Cell, int]:
    """Pipes needed (roughly) from each free cell to reach the network: BFS over free cells."""
    sources = [c for c, ps in state.pieces.items() if any(p.net == net and not p.frozen for p in ps)]
    if not ctx.hex:
        sources += [c for c, t in state.tanks.items() if t.net == net]
    dist = {c: 0 for c in sources}
    frontier = list(sources)
    while frontier:
        nxt = []
        for cell in frontier:
            for _, other in ctx.steps[cell]:
                if other is not None and other not in dist and state.is_empty(other):
                    dist[other] = dist[cell] + 1
                    nxt.append(other)
        frontier = nxt
    return dist


def _input_estimate(ctx: Context, state: State, cache: OptionCache, spec: PortSpec, facing: Cell | None,
                    maps: dict[int, dict[Cell, int]]) -> float:
    """Rough cost of connecting an input whose port faces `facing`: distance to its best option."""
    best = 20.0
    if facing is None:
        return best
    if cache.new_supply(spec) and state.is_empty(facing):
        best = ctx.costs.new_supply
    for net, pen in cache.options(spec).items():
        if net not in maps:
            maps[net] = _distance_map(ctx, state, net)
        d = maps[net].get(facing)
        if d is not None:
            best = min(best, d + pen)
    return best


def _output_estimate(ctx: Context, state: State, spec: PortSpec, facing: Cell | None, rest: list[str],
                     expected: list[frozenset[str]], maps: dict[int, dict[Cell, int]]) -> float:
    """Rough cost of an output: nothing if a later machine may take it or a reservoir is left for it,
    else the distance to a network of its colour that it may join."""
    if facing is None or not state.is_empty(facing):
        return 0.5
    colors = frozenset(spec.colors)
    # a fixed reservoir no output reaches yet draws the machines that can fill it (QA: 14 machines --optional with
    # one fixed output reservoir scored 12 where 64 without it: the one orange output was piped across the board)
    waiting = [net for net, other in enumerate(state.nets) if other.waits_for_port
               and (other.kind == "black" if spec.is_black else other.kind == "product" and other.colors & colors)]
    if waiting:
        for net in waiting:
            if net not in maps:
                maps[net] = _distance_map(ctx, state, net)
        return ORPHAN + min(maps[net].get(facing, 10.0) for net in waiting)
    if spec.is_black or takers_left(ctx, rest, colors, spec.amount or 0):
        return 0.0
    if reservoir_policy(ctx, state, colors, expected)[0] is not None:
        return 0.0
    best = 10.0
    for net, other in enumerate(state.nets):
        if other.kind == "product" and (other.reservoir or other.demand) and other.colors & colors:
            if net not in maps:
                maps[net] = _distance_map(ctx, state, net)
            best = min(best, maps[net].get(facing, 10.0) + 1.0)
    return best


def rank_positions(ctx: Context, state: State, machine: int, placements: list[Placement],
                   rest: list[str] = ()) -> list[Candidate]:
    """Legal positions of a machine, best first: short estimated routes for its ports, plus noise.

    `rest`: the machines still to place after this one (they may take its outputs).
    """
    maps: dict[int, dict[Cell, int]] = {}
    cache = OptionCache(ctx, state, machine)
    rest = list(rest)
    expected = greedy_feeding(ctx.table, rest, [(n.colors, n.spare) for n in state.nets if n.stub is not None])[0]
    expected += [n.colors for n in state.nets if n.stub is not None and not takers_left(ctx, rest, n.colors, n.spare)]
    out: list[Candidate] = []
    for placement in placements:
        direct = _check_position(ctx, state, cache, placement)
        if direct is None:
            continue
        score = 0.0
        for i, port in enumerate(placement.ports):
            facing = ctx.board.neighbour(*port.slot)
            if i in direct:
                score += ctx.costs.pending - 1.0
            elif port.spec.is_input:
                score += _input_estimate(ctx, state, cache, port.spec, facing, maps)
            else:
                score += _output_estimate(ctx, state, port.spec, facing, rest, expected, maps)
        if ctx.costs.compact:
            facing = {ctx.board.neighbour(*port.slot) for port in placement.ports}
            around = {o for c in placement.cells for _, o in ctx.steps[c]
                      if o is not None and o not in facing and o not in placement.cells and state.is_empty(o)}
            score += ctx.costs.compact * len(around)
        out.append(Candidate(placement, direct, score + ctx.rng.random() * ctx.costs.noise))
    out.sort(key=lambda c: c.score)
    return out


def _attachable(ctx: Context, state: State, cell: Cell, nets: dict[int, float]) -> bool:
    """Whether a pipe could end in `cell` by joining one of `nets` (a pipe of it, or a square tank)."""
    tank = state.tanks.get(cell)
    if tank is not None:   # (hex: only a fixed tank nothing joins yet, through its one opening: routing.py)
        return tank.net in nets and (not ctx.hex or nets[tank.net] < 0)
    return any(p.net in nets and not p.frozen for p in state.pieces.get(cell, ()))


def inputs_reachable(ctx: Context, state: State, cache: OptionCache, candidate: Candidate) -> bool:
    """Whether every input of a candidate position can still reach something it may join once the
    machine stands there: a flood fill from its facing cell with the body and other ports' cells closed.

    Distances in rank_positions are measured before the machine stands, so a
    machine may wall in its own input (against the border, a pillar, its own
    output); this catches that before any routing is tried.
    """
    placement = candidate.placement
    facings = {i: ctx.board.neighbour(*port.slot) for i, port in enumerate(placement.ports)}
    body = set(placement.cells)
    for i, port in enumerate(placement.ports):
        if i in candidate.direct or not port.spec.is_input:
            continue
        nets = cache.options(port.spec)
        supply = cache.new_supply(port.spec) is not None
        start = facings[i]
        closed = body | {c for j, c in facings.items() if j != i} | set(state.machine_at) | state.blocked
        if _attachable(ctx, state, start, nets) or (supply and not ctx.hex and state.is_empty(start)):
            continue
        seen, todo, found = {start}, [start], False
        while todo and not found:
            cell = todo.pop()
            for _, other, back in ctx.moves[cell]:
                if other in seen or other in closed:
                    continue
                seen.add(other)
                if _attachable(ctx, state, other, nets) or (supply and state.is_empty(other)):
                    found = True
                    break
                if can_enter(ctx, state, other, back):
                    todo.append(other)
        if not found:
            return False
    return True


def viable_positions(ctx: Context, state: State, machine: int, ranked: list[Candidate], limit: int,
                     over: Callable[[], bool] = lambda: False):
    """The best `limit` ranked positions whose inputs can all still reach a network, found before `over()` (out
    of time or stopped: each test floods the board, and on a 40 x 40 custom board 5 700 positions an input could
    reach from none took one sketch attempt 40 s, and a 10 s solve ended at 18 s)."""
    cache = OptionCache(ctx, state, machine)
    taken = 0
    for candidate in ranked:
        if taken >= limit or over():
            return
        if inputs_reachable(ctx, state, cache, candidate):
            taken += 1
            yield candidate


def _wanted(later: frozenset[str] | None, inputs: list, k: int) -> frozenset[str] | None:
    """The colours inputs still to route may want from a supply: the machine's inputs but the k-th, and `later`,
    those of the machines still to place (None where those are not known)."""
    if later is None:
        return None
    return later.union(c for j, (spec, _) in enumerate(inputs) if j != k for c in spec.colors)


def place_machine(ctx: Context, state: State, machine_id: str, candidate: Candidate,
                  rest: list[str] | None = None) -> State | None:
    """A copy of `state` with the machine placed and every input routed, or None if a route fails.

    Outputs stay as stubs (end products get their reservoir at once); inputs are
    routed in random order, each one's facing cell reserved until its turn. If
    one input cannot be routed, the placement is tried once more with that input
    first, since an earlier sibling's pipe is the usual obstacle. `rest`, where known: the machines still to
    place, whose inputs (and this machine's other ones) may want a supply colour (`join_input`).
    """
    stood = _stand(ctx, state, machine_id, candidate)
    inputs = [(port.spec, (ctx.board.neighbour(*port.slot), ctx.opposite[port.slot[1]]))
              for i, port in enumerate(candidate.placement.ports) if port.spec.is_input and i not in candidate.direct]
    ctx.rng.shuffle(inputs)
    later = None if rest is None else frozenset(c for m in rest for colors, _ in ctx.table[m][0] for c in colors)
    for retry in (False, True):
        new = stood.copy()
        failed = next((k for k, (spec, start) in enumerate(inputs)
                       if not join_input(ctx, new, len(state.machines), spec, start, _wanted(later, inputs, k))),
                      None)
        if failed is None:
            break
        if retry or failed == 0:
            return None
        inputs.insert(0, inputs.pop(failed))
    for net, other in enumerate(new.nets):
        if other.kind == "black" and other.stub is not None and len(state.machines) in other.producers:
            if not finish_output(ctx, new, net):
                return None
    return new


def _stand(ctx: Context, state: State, machine_id: str, candidate: Candidate) -> State:
    """A copy of `state` with the machine standing: port-to-port joins made, outputs as stubs,
    the facing cells of its other inputs reserved."""
    new = state.copy()
    placement = candidate.placement
    index = len(new.machines)
    new.machines.append(MachinePlacement(machine_id, placement.anchor, placement.rotation))
    for port, net in candidate.direct.items():
        remove_stub(new, net, placement.ports[port].slot[0])
        record_input(new.nets[net], index, placement.ports[port].spec)
    for cell in placement.cells:
        new.machine_at[cell] = index
    for i, port in enumerate(placement.ports):
        if i in candidate.direct:
            continue
        facing = ctx.board.neighbour(*port.slot)
        assert facing is not None
        start = (facing, ctx.opposite[port.slot[1]])
        if port.spec.is_input:
            if new.is_empty(facing):
                new.reserved[facing] = start
            continue
        kind = "black" if port.spec.is_black else "product"
        new.nets.append(Net(kind, frozenset(port.spec.colors), producers={index}, offer=port.spec.amount or 0, stub=start))
        new.pieces[facing] = new.pieces.get(facing, ()) + (Piece(len(new.nets) - 1, frozenset({start[1]})),)
    return new
