"""The sketch's data: pieces, tanks, networks and the state of a layout in progress,
the fixed facts of one sketch (Context), and conversion from a fixed layout and to a result.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace

from models.board import Board
from models.catalog import Catalog, PortSpec
from models.geometry import Cell
from models.layout import Layout, MachinePlacement, Tile
from models.networks import connect
from models.rulesets import Ruleset
from models.stock import SupplyStock

Slot = tuple[Cell, str]  # (cell, side): a port's facing cell and the side it is entered from
#: a fixed machine's input still to route: (the machine's index, its port, the slot facing it)
LooseInput = tuple[int, PortSpec, Slot]


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
    open_end: bool = False             # a fixed supply pipe's end waits for an input (a one-sided piece)

    def copy(self) -> Net:
        # spelled out: dataclasses.replace re-reads the fields on every call, and every state copy copies each net
        return Net(self.kind, self.colors, set(self.producers), set(self.consumers), self.offer, self.demand,
                   self.reservoir, self.stub, self.open_end)

    @property
    def waits_for_port(self) -> bool:
        """A --fixed tank's network no port has joined yet (a container nothing drinks from or a supply pipe's open
        end, a reservoir nothing fills): the layout is illegal until one does (ports.ORPHAN)."""
        if self.kind == "supply":
            return not self.consumers or self.open_end
        return self.reservoir and not self.producers

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
    loose_inputs: list[LooseInput] = field(default_factory=list)

    def copy(self) -> State:
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
    supply: SupplyStock                # the containers the player may lay
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
        return self.supply.room_for(counts, color)


# -- fixed part, limits and result ---------------------------------------------
def import_fixed(fixed: Layout | None, extendable: bool = False) -> State:
    """The fixed layout as sketch state: its pipes and tanks frozen, its networks known.

    `extendable` pipes may be branched off (a straight becoming a T, say), as a
    player may do between rounds for the price of the new piece; `to_layout` then
    writes every pipe from the state, not from `fixed`.
    """
    state = State([], {}, {}, {}, [], set())
    if fixed is None:
        return state
    conn = connect(fixed)
    for net in conn.networks:
        kind = ("supply" if net.supplies else "black" if net.colors == {"black"} or net.end_tanks
                else "product" if net.outputs or net.output_tanks else "dead")
        # a fixed output reservoir no output reaches yet takes any colour (RULES 2: its network's)
        colors = net.colors if net.colors is not None or kind != "product" else set(fixed.ruleset.colors)
        state.nets.append(Net(
            kind, frozenset(colors or ()),
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
        piece = Piece(conn.network_of[("pipe", i)], frozenset(tile.sides or ()), frozen=not extendable)
        state.pieces[tile.cell] = state.pieces.get(tile.cell, ()) + (piece,)
    for i, tile in enumerate(fixed.tiles):
        if tile.kind in ("supply", "output", "end"):
            state.tanks[tile.cell] = Tank(tile.kind, conn.network_of[("tank", i)], tile.color, tile.side)
    state.machines = list(fixed.machines)
    state.machine_at = dict(fixed.machine_cells)
    _adopt_loose_ports(fixed, conn, state)
    _adopt_loose_pipes(fixed, conn, state)
    return state


def _adopt_loose_ports(fixed: Layout, conn, state: State) -> None:
    """Ports of fixed machines that face an empty cell: outputs wait as stubs, inputs are routed first.

    This lets `fixed` hold machines that must stay where they are while their
    pipes and tanks are laid anew (Funner machines never move).
    """
    ports = [(fixed.ports[loose.node[1]], loose) for loose in conn.loose_ends if loose.node[0] == "port"]
    ports.sort(key=lambda pair: pair[0].spec.is_input)  # outputs first: their stubs may share a cell
    for port, loose in ports:
        start = _facing_slot(fixed, loose)
        if start is None or start[0] in state.machine_at or start[0] in state.tanks or start[0] in state.blocked:
            continue
        here = state.pieces.get(start[0], ())
        if start[1] in set().union(*(p.sides for p in here)):
            continue
        if port.spec.is_input:
            _route_first(state, port, start, reserve=not here)
        else:
            _wait_as_stub(state, conn.network_of[loose.node], start, port.spec.is_black)


def _adopt_loose_pipes(fixed: Layout, conn, state: State) -> None:
    """Fixed pipes whose one open end faces an empty cell, in a network of one fixed machine's input, of
    machine outputs or of a supply: routed on from there as that input would be, or waiting there as a stub.
    Frozen pieces are never extended, so such a pipe was a loose end no sketch could close (QA: FF25 fixed with
    one pipe at its input, and FF39 beside it, ended UNKNOWN). A pipe serving no machine is left as it is."""
    ends: dict[int, list] = {}
    for loose in conn.loose_ends:
        if loose.node[0] == "pipe":
            ends.setdefault(conn.network_of[loose.node], []).append(loose)
    for net_id, (loose, *more) in ends.items():
        network = conn.networks[net_id]
        start = _facing_slot(fixed, loose)
        if more or start is None:
            continue   # (several open ends: left as they are)
        if network.supplies and _stubs_only(state, start):
            # a supply's pipe: a stub at its end, which an input covers port to port (beside an output's stub
            # there, maybe) or a route grows (QA: FF08 taken out of FF39,FF08,FF25's optimum, its red container's
            # pipes kept, and FF39's output facing the same cell: UNKNOWN after 20 s)
            state.pieces[start[0]] = state.pieces.get(start[0], ()) + (Piece(net_id, frozenset({start[1]})),)
            state.nets[net_id].open_end = True
        # the end's cell empty, or holding only what waits there too (a fixed input's reservation, a supply's
        # end): the routes meet there (QA: single pipes cut from optima, where two or three ends met)
        empty = state.is_empty(start[0])
        if network.outputs and state.nets[net_id].stub is None:
            if empty or _an_input_waits_across(state, start):
                _wait_as_stub(state, net_id, start, any(fixed.ports[i].spec.is_black for i in network.outputs))
        elif not network.outputs and len(network.inputs) == 1 and (empty or _stubs_only(state, start)):
            _route_first(state, fixed.ports[network.inputs[0]], start, reserve=empty)


def _an_input_waits_across(state: State, slot: Slot) -> bool:
    """The slot's cell holds nothing but a fixed input's reservation from another side: an output's pipe end
    waiting there is met by that input's route (QA: an optimum of FF09,FF27,FF28,FF43 fixed without the pipe
    between FF43's output pipe and FF28's input found no sketch)."""
    return slot[0] in state.reserved and slot[0] not in state.pieces and _stubs_only(state, slot)


def _stubs_only(state: State, slot: Slot) -> bool:
    """Nothing in the slot's cell but one-sided pieces (outputs' stubs), none on the slot's side, and no
    reservation but a fixed input's from another side: that input's route then starts on the pipe's end and
    joins it there (QA: a fixed optimum missing the one pipe between its red container's pipe and FF08's input
    found no sketch, and CP-SAT alone took 6 s)."""
    cell, side = slot
    reserved = state.reserved.get(cell)
    if (cell in state.machine_at or cell in state.tanks or cell in state.blocked
            or (reserved is not None and reserved[1] == side)):
        return False
    return all(len(p.sides) == 1 and not p.frozen and side not in p.sides for p in state.pieces.get(cell, ()))


def _facing_slot(fixed: Layout, loose) -> Slot | None:
    """The cell a loose end faces, entered from its side; None off the board."""
    facing = fixed.board.neighbour(loose.cell, loose.side)
    return None if facing is None else (facing, fixed.ruleset.geometry.opposite(loose.side))


def _route_first(state: State, port, start: Slot, reserve: bool) -> None:
    """A fixed machine's input reached from `start`, routed before any machine is placed (its facing cell
    reserved meanwhile, unless something is already there)."""
    if reserve:
        state.reserved.setdefault(start[0], start)
    state.loose_inputs.append((port.machine, port.spec, start))


def _wait_as_stub(state: State, net_id: int, start: Slot, black: bool) -> None:
    """An output network waiting at `start` for a consumer or a reservoir: a one-sided stub piece there."""
    net = state.nets[net_id]
    net.kind = "black" if black else "product"
    net.stub = start
    state.pieces[start[0]] = state.pieces.get(start[0], ()) + (Piece(net_id, frozenset({start[1]})),)


def to_layout(ctx: Context, state: State, fixed: Layout | None, extendable: bool = False) -> Layout | None:
    """The layout of the state (fixed tiles first, unchanged), or None if a pipe is unfinished.

    `extendable`: the state was imported with extendable pipes, so the fixed
    layout's pipes are written as the state has them now.
    """
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
    if extendable:
        old = tuple(t for t in old if t.kind != "pipe")
    options = dict(fixed.options) if fixed is not None else {}
    tiles = tuple(old) + tuple(state.new_tiles) + tuple(pipes)
    return Layout(ctx.ruleset, ctx.board, ctx.catalog, tuple(state.machines), tiles, options)
