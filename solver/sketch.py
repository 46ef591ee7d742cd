"""A fast randomised sketch: a complete legal layout of all machines, without CP-SAT.

CP-SAT is good at improving a complete layout and slow at finding the first
one for 8-10 machines, so this module builds that first layout the way a
player does, in pure Python, and hands it to the rule checker before
returning it:

1. Order. Machines are placed one at a time in a feeding order (producers
   first). Unless an order is given, random permutations are scored by a greedy
   feeding: few output colours left for the three output reservoirs, many
   chained input points, machines with many ports early.
2. Placement. Every free position of the next machine is scored by how far its
   inputs' facing cells are from the networks they may join (BFS over free
   cells) and whether its outputs will find a taker or a reservoir, plus noise;
   the best few are tried with real routing.
3. Routing. Each input is routed by Dijkstra over (cell, entering side) states
   to the cheapest of its options: an output nobody takes yet (chain bonus), a
   machine-fed network with spare quantity, the colour's supply network, or a
   new supply container while the limit allows. Routes pass through free cells
   and cross other networks where the connector rules let a cell hold several
   pipes; they end by branching off a pipe of the target network, on a square
   container (which opens wherever something reaches it), or on a new tank.
   Inputs only join networks whose producers are placed and feed nothing back,
   so feeds stay acyclic; networks never merge by accident, because pipes open
   only along their route and every port's facing cell belongs to its network.
4. Outputs wait as one-sided stubs in their facing cell for a consumer (routed
   to it, facing it, or port to port). An end product gets its end-product
   reservoir at once; a coloured output no later machine can take gets an
   output reservoir, or joins a machine-fed network of its colour when the
   three reservoirs are needed by other colours. No tank or machine may take
   the last way out of a cell where a port still waits.
5. Search. Positions are explored depth first with a small budget (a dead end
   goes back a machine or two); when the budget is spent, the sketch restarts
   with another order and other random preferences until the time limit.

Hex (Funner) differences come from the ruleset: a tank has one opening, so a
supply tank (and an output reservoir that others must share) stands one pipe
away from its first port, leaving a pipe to branch from. A `fixed` layout is
kept exactly: its pipes are never extended (new pipes may cross them) and its
square tanks may take more connections; its machines' loose ports (e.g. fixed
machines without tiles) are connected first.
"""
from __future__ import annotations

import heapq
import itertools
import random
import time
from collections import Counter
from dataclasses import dataclass, field, replace

from models.board import Board
from models.catalog import Catalog, PortSpec
from models.check import check_layout
from models.geometry import Cell
from models.layout import Layout, MachinePlacement, Tile
from models.networks import connect
from models.rulesets import Ruleset

from .placements import Placement, machine_placements

Slot = tuple[Cell, str]  # (cell, side): a port's facing cell and the side it is entered from

#: extra route cost for sharing a cell with another network's pipe (it can no longer branch there)
CROSS_COST = 0.3
#: extra route cost for crossing a cell where an output still waits for its connection
STUB_CROSS_COST = 2.0
#: how many candidate positions of one machine are tried with real routing
TRIED_PLACEMENTS = 12
#: positions of one machine whose continuation is searched before going back further
BRANCHING = 2
#: placements (each with its routing) one attempt may try, per machine to place
ATTEMPT_BUDGET = 20


# -- state ---------------------------------------------------------------------
@dataclass(frozen=True)
class Piece:
    """One pipe in one cell; a one-sided piece is an output's stub waiting for a connection."""

    net: int
    sides: frozenset[str]
    frozen: bool = False  # from `fixed`: kept exactly, never extended


@dataclass(frozen=True)
class Tank:
    kind: str             # supply | output | end
    net: int
    color: str | None
    side: str | None      # hex: the one opening


@dataclass
class Net:
    """What the connection rules need to know about one network."""

    kind: str                          # supply | product | black | dead
    colors: frozenset[str]
    producers: set[int] = field(default_factory=set)
    consumers: set[int] = field(default_factory=set)
    offer: int = 0                     # output amounts
    demand: int = 0                    # machine-fed input amounts
    reservoir: bool = False            # has an output or end-product reservoir
    stub: Slot | None = None           # an output that still waits: its facing cell and side

    def copy(self) -> "Net":
        return replace(self, producers=set(self.producers), consumers=set(self.consumers))

    @property
    def spare(self) -> int:
        return self.offer - self.demand


@dataclass
class State:
    """Everything placed so far. Cheap to copy: pieces are immutable tuples."""

    machines: list[MachinePlacement]
    machine_at: dict[Cell, int]
    tanks: dict[Cell, Tank]
    pieces: dict[Cell, tuple[Piece, ...]]
    nets: list[Net]
    blocked: set[Cell]                 # cells of a fixed diagonal tile
    reserved: dict[Cell, Slot] = field(default_factory=dict)  # facing cells of inputs not routed yet
    new_tiles: list[Tile] = field(default_factory=list)       # tanks added (pipes are read from pieces)
    #: inputs of fixed machines that face an empty cell: (machine, port, facing slot), routed first
    loose_inputs: list[tuple[int, PortSpec, Slot]] = field(default_factory=list)

    def copy(self) -> "State":
        return State(list(self.machines), dict(self.machine_at), dict(self.tanks), dict(self.pieces),
                     [n.copy() for n in self.nets], self.blocked, dict(self.reserved), list(self.new_tiles),
                     list(self.loose_inputs))

    def is_empty(self, cell: Cell) -> bool:
        return (cell not in self.machine_at and cell not in self.tanks and cell not in self.pieces
                and cell not in self.blocked and cell not in self.reserved)

    def count_tanks(self, kind: str) -> int:
        return sum(1 for t in self.tanks.values() if t.kind == kind)


@dataclass
class Costs:
    """Preferences between an input's options, in pipe units; jittered per attempt."""

    pending: float = 0.0      # an output nobody takes yet (chain bonus, and it saves a reservoir)
    product: float = 0.5      # a machine-fed network with spare quantity
    supply: float = 2.5       # the colour's supply network
    new_supply: float = 3.5   # a new supply container (its cost 1 included)
    tank: float = 1.0         # an output or end-product reservoir
    noise: float = 1.5        # random spread added to position scores
    hug: float = 0.0          # route cost per free neighbour of a pipe cell (keeps open areas whole)
    compact: float = 0.0      # position cost per free cell touching the machine


Flow = tuple[frozenset[str], int]  # colours and amount of a port


def port_table(catalog: Catalog, ids: list[str]) -> dict[str, tuple[list[Flow], list[Flow]]]:
    """Per machine: its inputs (largest first) and its coloured outputs, as (colours, amount)."""
    table = {}
    for m in ids:
        machine = catalog[m]
        inputs = sorted(((frozenset(p.colors), p.amount or 0) for p in machine.inputs), key=lambda f: -f[1])
        outputs = [(frozenset(p.colors), p.amount or 0) for p in machine.outputs if not p.is_black]
        table[m] = (inputs, outputs)
    return table


@dataclass
class Context:
    """The fixed facts of one sketch: rules, board geometry and limits."""

    ruleset: Ruleset
    board: Board
    catalog: Catalog
    table: dict[str, tuple[list[Flow], list[Flow]]]
    rng: random.Random
    costs: Costs
    supply_allowed: dict[str, int]     # per colour
    supply_any: int                    # extra containers of any colour
    output_limit: int
    end_limit: int | None

    def __post_init__(self) -> None:
        geometry = self.ruleset.geometry
        self.sides = geometry.sides
        self.opposite = {s: geometry.opposite(s) for s in self.sides}
        self.hex = self.ruleset.oriented_tanks
        self.steps = {c: [(s, self.board.neighbour(c, s)) for s in self.sides] for c in self.board.cells}
        #: per cell: (side, neighbour across it, the side it is entered from) for playable neighbours
        self.moves = {c: [(s, o, self.opposite[s]) for s, o in steps if o is not None] for c, steps in self.steps.items()}

    # -- connector rules ---------------------------------------------------------
    def fits(self, pieces: tuple[Piece, ...]) -> bool:
        """Whether these pipes may share one cell (disjoint sides, the ruleset's connector limits)."""
        rules = self.ruleset
        if len(pieces) == 1:
            return rules.x_splitter_available or len(pieces[0].sides) != 4
        if len(pieces) > rules.max_pipes_per_cell:
            return False
        used: set[str] = set()
        for p in pieces:
            if used & p.sides:
                return False
            used |= p.sides
            if len(pieces) > 1 and len(p.sides) > rules.multi_pipe_max_sides:
                return False
            if not rules.x_splitter_available and len(p.sides) == 4:
                return False
        return True

    def stubs_can_grow(self, cell: Cell, pieces: tuple[Piece, ...]) -> bool:
        """Every waiting stub in the cell still has a side to continue through."""
        used = set().union(*(p.sides for p in pieces))
        for i, p in enumerate(pieces):
            if len(p.sides) != 1 or p.frozen:
                continue
            if not any(other is not None and side not in used
                       and self.fits(pieces[:i] + (replace(p, sides=p.sides | {side}),) + pieces[i + 1:])
                       for side, other in self.steps[cell]):
                return False
        return True

    def supply_available(self, state: State, color: str) -> bool:
        """Whether one more supply container of `color` stays within the limit (bonus machines included)."""
        counts = Counter(t.color for t in state.tanks.values() if t.kind == "supply")
        if counts[color] < self.supply_allowed.get(color, 0):
            return True
        excess = sum(max(0, n - self.supply_allowed.get(c, 0)) for c, n in counts.items())
        return excess < self.supply_any


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
    if tank is not None:
        if not ctx.hex and tank.net in targets:
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
    while heap:
        g, _, (cell, side) = heapq.heappop(heap)
        if best is not None and g >= best[0]:
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
                if len(p.sides) == 1:  # a waiting output's stub: that output is connected now
                    state.nets[net].stub = None
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


# -- joining ports to networks ---------------------------------------------------
def fed_from(state: State, machines: set[int]) -> set[int]:
    """The machines given and every machine they feed, directly or through others."""
    if not any(n.producers & machines and n.consumers for n in state.nets):
        return set(machines)  # the usual case: a new machine feeds nobody yet
    edges: dict[int, set[int]] = {}
    for net in state.nets:
        for p in net.producers:
            edges.setdefault(p, set()).update(net.consumers)
    seen, todo = set(machines), list(machines)
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def input_options(ctx: Context, state: State, machine: int, spec: PortSpec) -> dict[int, float]:
    """Networks an input may join (colour, quantity, no feeding loop), with their preference cost."""
    amount = spec.amount or 0
    colors = set(spec.colors)
    below = fed_from(state, {machine})
    out: dict[int, float] = {}
    for i, net in enumerate(state.nets):
        if not net.colors & colors:
            continue
        if net.kind == "supply":
            out[i] = ctx.costs.supply
        elif net.kind == "product" and not net.producers & below and net.spare >= amount:
            waiting = net.demand == 0 and not net.reservoir
            out[i] = ctx.costs.pending if waiting else ctx.costs.product
    return out


def _new_supply_color(ctx: Context, state: State, spec: PortSpec) -> str | None:
    """A colour of the input for which one more supply container is allowed, or None."""
    available = [c for c in spec.colors if c in ctx.ruleset.colors and ctx.supply_available(state, c)]
    return available[0] if available else None


def join_input(ctx: Context, state: State, machine: int, spec: PortSpec, start: Slot) -> bool:
    """Route one input from its facing cell to the cheapest network it may join."""
    targets = input_options(ctx, state, machine, spec)
    color = _new_supply_color(ctx, state, spec)
    state.reserved.pop(start[0], None)
    # a hex tank opens on one side only: right at the port it would leave nothing for the
    # colour's other inputs to branch from, so it goes one pipe away at least
    found = route(ctx, state, start, targets, ctx.costs.new_supply if color else None, tank_at_start=not ctx.hex)
    if found is None:
        return False
    if found.target is None:
        assert color is not None
        state.nets.append(Net("supply", frozenset({color})))
        net = len(state.nets) - 1
        if not apply_route(ctx, state, found, net, ("supply", color)):
            return False
    else:
        net = found.target
        if not apply_route(ctx, state, found, net, None):
            return False
    _record_input(state.nets[net], machine, spec)
    return True


def _record_input(net: Net, machine: int, spec: PortSpec) -> None:
    """Bookkeeping of an input joining a network: colours narrow, machine-fed demand grows."""
    net.colors = net.colors & set(spec.colors)
    net.consumers.add(machine)
    if net.kind != "supply":
        net.demand += spec.amount or 0


def _remove_stub(state: State, net: int) -> Slot:
    """Take a waiting output's stub off the board (to route it, or to cover it port to port)."""
    stub = state.nets[net].stub
    assert stub is not None
    cell = stub[0]
    rest = tuple(p for p in state.pieces[cell] if not (p.net == net and len(p.sides) == 1))
    if rest:
        state.pieces[cell] = rest
    else:
        del state.pieces[cell]
    state.nets[net].stub = None
    return stub


def reservoir_policy(ctx: Context, state: State, colors: frozenset[str], expected: list[frozenset[str]]
                     ) -> tuple[float | None, bool]:
    """Extra cost of a new output reservoir for an output of `colors` (None: none left for it),
    and whether it may stand right at the port.

    Reservoirs are only three: while other colours still expected to need one
    (`expected`) have none, an output whose colour already has a reservoir
    network must join it. On hex a reservoir that others of its colour must
    join stands one pipe away, since its single opening leaves nothing to
    branch from.
    """
    free = ctx.output_limit - state.count_tanks("output")
    if free <= 0:
        return None, True
    held = [n.colors for n in state.nets if n.kind == "product" and n.reservoir]
    lacking = {min(c) for c in expected if not any(c & h for h in held) and not c & colors}
    at_port = not (ctx.hex and any(c & colors for c in expected))
    if any(h & colors for h in held):
        return (None if free <= len(lacking) else ctx.costs.tank + 2.0), at_port
    return ctx.costs.tank, at_port


def finish_output(ctx: Context, state: State, net_id: int, expected: list[frozenset[str]] = ()) -> bool:
    """Connect a waiting output: to a new reservoir while the stock lasts, else into a network of its colour.

    `expected`: colours of the other outputs that will need a reservoir.
    """
    net = state.nets[net_id]
    at_port = True
    if net.kind == "black":
        new_tank = ctx.costs.tank if ctx.end_limit is None or state.count_tanks("end") < ctx.end_limit else None
        targets: dict[int, float] = {}
    else:
        new_tank, at_port = reservoir_policy(ctx, state, net.colors, list(expected))
        # only networks that are already legal on their own (a consumer or a reservoir), and no
        # loop: none of their consumers may feed this output's machine
        targets = {i: ctx.costs.product for i, other in enumerate(state.nets)
                   if i != net_id and other.kind == "product" and other.colors & net.colors
                   and (other.demand or other.reservoir) and not fed_from(state, other.consumers) & net.producers}
    start = _remove_stub(state, net_id)
    found = route(ctx, state, start, targets, new_tank, at_port)
    if found is None:
        return False
    if found.target is None:
        return apply_route(ctx, state, found, net_id, ("end" if net.kind == "black" else "output", None))
    if not apply_route(ctx, state, found, found.target, None):
        return False
    joined = state.nets[found.target]
    joined.producers |= net.producers
    joined.offer += net.offer
    joined.colors &= net.colors
    net.kind = "dead"
    return True


# -- placing machines ----------------------------------------------------------
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
            self._supply[spec] = _new_supply_color(self.ctx, self.state, spec)
        return self._supply[spec]


def _check_position(ctx: Context, state: State, cache: OptionCache, placement: Placement) -> dict[int, int] | None:
    """Port-to-port joins if the machine may stand here (cells free, ports facing usable cells), else None."""
    direct: dict[int, int] = {}
    for cell in placement.cells:
        if state.is_empty(cell):
            continue
        pieces = state.pieces.get(cell, ())
        if cell in state.reserved or cell in state.tanks or len(pieces) != 1 or len(pieces[0].sides) != 1:
            return None
        net_id = pieces[0].net
        side = next(iter(pieces[0].sides))
        port = next((i for i, p in enumerate(placement.ports) if p.slot == (cell, side) and p.spec.is_input), None)
        if port is None or net_id not in cache.options(placement.ports[port].spec):
            return None
        direct[port] = net_id
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
    if spec.is_black or _takers_left(ctx, rest, colors, spec.amount or 0):
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
    expected += [n.colors for n in state.nets if n.stub is not None and not _takers_left(ctx, rest, n.colors, n.spare)]
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
    if tank is not None:
        return not ctx.hex and tank.net in nets
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


def viable_positions(ctx: Context, state: State, machine: int, ranked: list[Candidate], limit: int):
    """The best `limit` ranked positions whose inputs can all still reach a network."""
    cache = OptionCache(ctx, state, machine)
    taken = 0
    for candidate in ranked:
        if taken >= limit:
            return
        if inputs_reachable(ctx, state, cache, candidate):
            taken += 1
            yield candidate


def place_machine(ctx: Context, state: State, machine_id: str, candidate: Candidate) -> State | None:
    """A copy of `state` with the machine placed and every input routed, or None if a route fails.

    Outputs stay as stubs (end products get their reservoir at once); inputs are
    routed in random order, each one's facing cell reserved until its turn. If
    one input cannot be routed, the placement is tried once more with that input
    first, since an earlier sibling's pipe is the usual obstacle.
    """
    stood = _stand(ctx, state, machine_id, candidate)
    inputs = [(port.spec, (ctx.board.neighbour(*port.slot), ctx.opposite[port.slot[1]]))
              for i, port in enumerate(candidate.placement.ports) if port.spec.is_input and i not in candidate.direct]
    ctx.rng.shuffle(inputs)
    for retry in (False, True):
        new = stood.copy()
        failed = next((k for k, (spec, start) in enumerate(inputs)
                       if not join_input(ctx, new, len(state.machines), spec, start)), None)
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
        _remove_stub(new, net)
        _record_input(new.nets[net], index, placement.ports[port].spec)
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


# -- order -------------------------------------------------------------------------
def greedy_feeding(table: dict[str, tuple[list[Flow], list[Flow]]], order: list[str], waiting: list[Flow]
                   ) -> tuple[list[frozenset[str]], int]:
    """Feed each input from the earliest fitting output: (colours of outputs left untaken, points chained).

    `waiting` are outputs already standing (colours, spare amount); only new outputs count as untaken.
    """
    spare = [[colors, amount, True] for colors, amount in waiting]
    chained = 0
    for mid in order:
        inputs, outputs = table[mid]
        for colors, amount in inputs:
            chosen = None
            for w in spare:
                if w[1] >= amount and w[0] & colors and (chosen is None or (w[2], w[1]) < (chosen[2], chosen[1])):
                    chosen = w
            if chosen is not None:
                chosen[1] -= amount
                chosen[2] = True
                chained += amount
        spare += [[colors, amount, False] for colors, amount in outputs]
    return [w[0] for w in spare if not w[2]], chained


def _order_quality(table: dict[str, tuple[list[Flow], list[Flow]]], order: list[str], waiting: list[Flow]
                   ) -> tuple[int, int, int, int]:
    """(colours needing a reservoir, outputs left untaken, -chained points, lateness of many-port
    machines): smaller is better; machines with many ports are hard to fit on a crowded board."""
    left, chained = greedy_feeding(table, order, waiting)
    lateness = sum(i * (len(table[m][0]) + len(table[m][1])) for i, m in enumerate(order))
    return len({min(c) for c in left}), len(left), -chained, lateness


def feeding_orders(table: dict[str, tuple[list[Flow], list[Flow]]], ids: list[str], waiting: list[Flow],
                   rng: random.Random, count: int = 8, tries: int = 60) -> list[list[str]]:
    """A few good feeding orders: random permutations improved by swaps, best first."""
    scored: dict[tuple[str, ...], tuple[int, int, int, int]] = {}
    for _ in range(tries):
        order = list(ids)
        rng.shuffle(order)
        quality = _order_quality(table, order, waiting)
        for _ in range(len(order) * 3):  # a short hill climb on adjacent swaps
            i = rng.randrange(max(1, len(order) - 1))
            swapped = order[:i] + order[i + 1:i + 2] + order[i:i + 1] + order[i + 2:]
            q = _order_quality(table, swapped, waiting)
            if q <= quality:
                order, quality = swapped, q
        scored[tuple(order)] = quality
    best = sorted(scored, key=lambda o: scored[o])[:count]
    return [list(o) for o in best]


# -- fixed part, limits and result ---------------------------------------------
def import_fixed(fixed: Layout | None) -> State:
    """The fixed layout as sketch state: its pipes and tanks frozen, its networks known."""
    state = State([], {}, {}, {}, [], set())
    if fixed is None:
        return state
    conn = connect(fixed)
    for net in conn.networks:
        kind = "supply" if net.supplies else "black" if net.colors == {"black"} else "product" if net.outputs else "dead"
        state.nets.append(Net(
            kind, frozenset(net.colors or ()),
            producers={fixed.ports[i].machine for i in net.outputs},
            consumers={fixed.ports[i].machine for i in net.inputs},
            offer=sum(fixed.ports[i].spec.amount or 0 for i in net.outputs),
            demand=0 if kind == "supply" else sum(fixed.ports[i].spec.amount or 0 for i in net.inputs),
            reservoir=bool(net.output_tanks or net.end_tanks),
        ))
    for i, pipe in enumerate(fixed.pipes):
        tile = fixed.tiles[pipe.tile]
        if tile.kind == "diagonal":
            state.blocked.update(cell for cell, _ in pipe.ends)
            continue
        piece = Piece(conn.network_of[("pipe", i)], frozenset(tile.sides or ()), frozen=True)
        state.pieces[tile.cell] = state.pieces.get(tile.cell, ()) + (piece,)
    for i, tile in enumerate(fixed.tiles):
        if tile.kind in ("supply", "output", "end"):
            state.tanks[tile.cell] = Tank(tile.kind, conn.network_of[("tank", i)], tile.color, tile.side)
    state.machines = list(fixed.machines)
    state.machine_at = dict(fixed.machine_cells)
    _adopt_loose_ports(fixed, conn, state)
    return state


def _adopt_loose_ports(fixed: Layout, conn, state: State) -> None:
    """Ports of fixed machines that face an empty cell: outputs wait as stubs, inputs are routed first.

    This lets `fixed` hold machines that must stay where they are while their
    pipes and tanks are laid anew (Funner machines never move).
    """
    geometry = fixed.ruleset.geometry
    ports = [(fixed.ports[loose.node[1]], loose) for loose in conn.loose_ends if loose.node[0] == "port"]
    ports.sort(key=lambda pair: pair[0].spec.is_input)  # outputs first: their stubs may share a cell
    for port, loose in ports:
        facing = fixed.board.neighbour(loose.cell, loose.side)
        if facing is None or facing in state.machine_at or facing in state.tanks or facing in state.blocked:
            continue
        start = (facing, geometry.opposite(loose.side))
        here = state.pieces.get(facing, ())
        if start[1] in set().union(*(p.sides for p in here)):
            continue
        if port.spec.is_input:
            if not here:
                state.reserved.setdefault(facing, start)
            state.loose_inputs.append((port.machine, port.spec, start))
            continue
        net_id = conn.network_of[loose.node]
        net = state.nets[net_id]
        net.kind = "black" if port.spec.is_black else "product"
        net.stub = start
        state.pieces[facing] = here + (Piece(net_id, frozenset({start[1]})),)


def supply_limits(ruleset: Ruleset, catalog: Catalog, ids: list[str]) -> tuple[dict[str, int], int]:
    """Supply containers allowed per colour, and extra ones of any colour, once all `ids` stand."""
    bonus = Counter(catalog[m].bonus_supply for m in ids) if ruleset.bonus_supply else Counter()
    return {c: ruleset.supply_per_color + bonus[c] for c in ruleset.colors}, bonus["any"]


def to_layout(ctx: Context, state: State, fixed: Layout | None) -> Layout | None:
    """The layout of the state (fixed tiles first, unchanged), or None if a pipe is unfinished."""
    pipes: list[Tile] = []
    for cell in sorted(state.pieces):
        for piece in state.pieces[cell]:
            if piece.frozen:
                continue
            if len(piece.sides) < 2:
                return None
            sides = tuple(sorted(piece.sides, key=ctx.sides.index))
            pipes.append(Tile(kind="pipe", cell=cell, sides=sides))
    old = fixed.tiles if fixed is not None else ()
    options = dict(fixed.options) if fixed is not None else {}
    return Layout(ctx.ruleset, ctx.board, ctx.catalog, tuple(state.machines), tuple(old) + tuple(state.new_tiles) + tuple(pipes), options)


# -- the sketch ------------------------------------------------------------------
@dataclass
class Attempt:
    """How one attempt ended, for statistics: the layout, or where it failed."""

    layout: Layout | None
    failure: str | None = None   # "place <id>", "outputs", "check: <rules>", "time"


def _takers_left(ctx: Context, rest: list[str], colors: frozenset[str], spare: int) -> bool:
    """Whether a machine still to place has an input that an output of `colors` with `spare` could feed."""
    return any(colors & c and a <= spare for m in rest for c, a in ctx.table[m][0])


def finish_waiting(ctx: Context, state: State, rest: list[str]) -> bool:
    """Connect every waiting output that no machine in `rest` could take."""
    done = [i for i, net in enumerate(state.nets) if net.stub is not None and not _takers_left(ctx, rest, net.colors, net.spare)]
    waiting = [(n.colors, n.spare) for n in state.nets if n.stub is not None]
    future, _ = greedy_feeding(ctx.table, rest, waiting)
    for i in done:
        expected = future + [state.nets[j].colors for j in done if j != i and state.nets[j].stub is not None]
        if not finish_output(ctx, state, i, expected):
            return False
    return True


@dataclass
class _Search:
    """Budget and outcome bookkeeping of one attempt's depth-first search."""

    budget: int                       # machine placements (with their routing) still allowed
    deadline: float
    failure: str = "time"
    depth: int = -1                   # deepest machine index that failed (its failure is reported)

    def fail(self, depth: int, reason: str) -> None:
        if depth >= self.depth:
            self.depth, self.failure = depth, reason


def _extend(ctx: Context, state: State, order: list[str], k: int, placements: dict[str, list[Placement]],
            fixed: Layout | None, search: _Search) -> Layout | None:
    """Place order[k:] depth first: each machine's best positions in turn, at most BRANCHING that
    work out per machine, so a dead end goes back a machine or two instead of starting over."""
    if k == len(order):
        layout = to_layout(ctx, state, fixed)
        if layout is None:
            search.fail(k, "unfinished pipe")
            return None
        result = check_layout(layout)
        if not result.legal:
            search.fail(k, "check: " + ",".join(sorted({v.rule for v in result.violations})))
            return None
        return layout
    mid, rest = order[k], order[k + 1:]
    index = len(state.machines)
    tried = 0
    ranked = rank_positions(ctx, state, index, placements[mid], rest)
    for candidate in viable_positions(ctx, state, index, ranked, TRIED_PLACEMENTS):
        if search.budget <= 0 or time.monotonic() > search.deadline:
            return None
        search.budget -= 1
        placed = place_machine(ctx, state, mid, candidate)
        if placed is None:
            search.fail(k, f"place {mid}")
            continue
        if not finish_waiting(ctx, placed, rest):
            search.fail(k, "outputs")
            continue
        if not supplies_open(ctx, placed, rest):
            search.fail(k, "supply walled in")
            continue
        layout = _extend(ctx, placed, order, k + 1, placements, fixed, search)
        if layout is not None:
            return layout
        tried += 1
        if tried >= BRANCHING:
            break
    search.fail(k, f"place {mid}")
    return None


def attempt(ctx: Context, base: State, order: list[str], placements: dict[str, list[Placement]],
            fixed: Layout | None, deadline: float) -> Attempt:
    """One randomised construction in `order`; never returns an illegal layout."""
    search = _Search(ATTEMPT_BUDGET * max(1, len(order)), deadline)
    state = base
    if base.loose_inputs or any(n.stub is not None for n in base.nets):
        state = connect_loose(ctx, base, order)
        if state is None:
            return Attempt(None, "fixed ports")
    layout = _extend(ctx, state, order, 0, placements, fixed, search)
    return Attempt(layout, None if layout is not None else search.failure)


def connect_loose(ctx: Context, base: State, order: list[str]) -> State | None:
    """Route the fixed machines' loose inputs (random order), end products and unwanted outputs."""
    state = base.copy()
    loose, state.loose_inputs = list(state.loose_inputs), []
    ctx.rng.shuffle(loose)
    for machine, spec, start in loose:
        if not join_input(ctx, state, machine, spec, start):
            return None
    for i, net in enumerate(state.nets):
        if net.kind == "black" and net.stub is not None and not finish_output(ctx, state, i):
            return None
    return state if finish_waiting(ctx, state, order) else None


def _jittered_costs(rng: random.Random) -> Costs:
    """Preferences for a restart: each attempt weighs chaining, supply and compactness a bit differently."""
    supply = rng.uniform(1.0, 4.0)
    return Costs(pending=0.0, product=rng.uniform(0.0, 1.0), supply=supply,
                 new_supply=supply + rng.uniform(0.5, 2.0), tank=1.0, noise=rng.uniform(0.5, 3.0),
                 hug=rng.choice((0.0, 0.0, 0.1)), compact=rng.choice((0.0, 0.3, 0.6)))


def sketch_attempts(ruleset: Ruleset, board: Board, catalog: Catalog, machine_ids: list[str], seed: int = 0,
                    time_limit: float = 5.0, fixed: Layout | None = None, order: list[str] | None = None):
    """Attempts until one is legal or time runs out (yields every Attempt, for statistics)."""
    deadline = time.monotonic() + time_limit
    fixed_ids = set(fixed.machine_ids) if fixed is not None else set()
    todo = [m for m in dict.fromkeys(machine_ids) if m not in fixed_ids]
    placements = {m: machine_placements(ruleset, board, catalog[m]) for m in todo}
    if any(not p for p in placements.values()):
        return
    base = import_fixed(fixed)
    all_ids = list(fixed_ids) + todo
    allowed, any_colour = supply_limits(ruleset, catalog, all_ids)
    end_limit = fixed.options.get("end_limit") if fixed is not None else None
    end_limit = ruleset.end_limit if end_limit is None else end_limit
    rng = random.Random(seed)
    waiting = [(n.colors, n.spare) for n in base.nets if n.kind == "product" and n.spare > 0]
    table = port_table(catalog, todo)
    orders = feeding_orders(table, todo, waiting, rng)
    if order:
        given = [m for m in dict.fromkeys(order) if m in placements]
        orders.insert(0, given + [m for m in todo if m not in given])
    for k in itertools.count():
        if time.monotonic() > deadline:
            return
        ctx = Context(ruleset, board, catalog, table, random.Random(rng.random()),
                      Costs() if k == 0 else _jittered_costs(rng), allowed, any_colour,
                      ruleset.output_limit, end_limit)
        chosen = orders[k] if k < len(orders) else rng.choice(orders)
        yield attempt(ctx, base, chosen, placements, fixed, deadline)


def sketch_layout(ruleset: Ruleset, board: Board, catalog: Catalog, machine_ids: list[str], seed: int = 0,
                  time_limit: float = 5.0, fixed: Layout | None = None, order: list[str] | None = None) -> Layout | None:
    """A legal layout with every machine of `machine_ids` (and all of `fixed`, unchanged), or None.

    `order` is a feeding order to try first (sources first, e.g. topology_bound's);
    the result has passed models.check.check_layout.
    """
    for result in sketch_attempts(ruleset, board, catalog, machine_ids, seed, time_limit, fixed, order):
        if result.layout is not None:
            return result.layout
    return None


def best_sketch(ruleset: Ruleset, board: Board, catalog: Catalog, machine_ids: list[str], seed: int = 0,
                time_limit: float = 3.0, fixed: Layout | None = None, order: list[str] | None = None,
                first_within: float | None = None) -> Layout | None:
    """The highest-scoring of the legal sketches found within `time_limit`.

    One sketch takes a fraction of a second and their scores spread widely (the
    chain bonus depends on which outputs the random order happens to chain), so
    the rest of a small budget is better spent on more sketches than on none.
    `first_within`: give up early when no legal sketch has appeared by then.
    """
    start = time.monotonic()
    best: tuple[int, Layout] | None = None
    for result in sketch_attempts(ruleset, board, catalog, machine_ids, seed, time_limit, fixed, order):
        if result.layout is not None:
            score = check_layout(result.layout).score.total
            if best is None or score > best[0]:
                best = (score, result.layout)
        elif best is None and first_within is not None and time.monotonic() - start > first_within:
            break
    return None if best is None else best[1]
