"""Exact block solves by growing a component from its first machine, tile by tile.

The local prover (solver/local.py) asks one question many times: can these few
machines form one component, with this fed pattern, paying at most `limit` for
tanks and pipes? On an open patch CP-SAT answers it as a model of a few hundred
cells, which took 318 s for three machines and three spare pipes (classic-A
FF27,FF28,FF43). The component itself is tiny: a handful of tiles around three
machines. This module enumerates exactly those components.

Growth. Start from the first machine in its first rotation at the patch centre
(open ground is symmetric, so this loses no layout). An *open end* is a port or
pipe end facing an empty cell; in a legal layout that cell holds a tile with an
opening back (a port of another machine, a pipe) or a tank. So pick an open end
and branch on every tile that could stand there. When no end is open, the only
way the component can go on is through a tank (tanks open towards whatever
faces them), so branch on a port or pipe facing a tank. Every local test below
is a rule every legal layout obeys, so no legal component is pruned; each
closed state with every machine placed is judged by the rule checker.

Completeness, in one line: by induction every legal component L within the
limit keeps a branch whose state is a subset of L; a closed subset of a
connected L either is L or touches the rest of L at a tank, where the search
branches again. States are memoised, so orders of the same tiles are searched once.
"""
from __future__ import annotations

import itertools
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Callable

from models.board import Board
from models.catalog import Catalog, PortSpec
from models.check import check_layout
from models.geometry import Cell
from models.layout import Layout, MachinePlacement, Tile
from models.rulesets import Ruleset
from models.stock import SupplyStock

from .reach import Pattern, supplied_colours

#: states remembered as searched before the memo is emptied: a state takes about 1-2 KB, and a
#: four-machine block at three spare pipes grew the process to 7 GB
MEMO_STATES = 1_500_000

#: a cell's content: ("machine", index) | ("tank", kind, colour) | ("pipe", groups)
Content = tuple


#: the pipes a port needs to join a network it can never reach (more than any limit)
UNREACHABLE = 1_000_000

#: what a machine's side without a port presents to its neighbour
_WALL = object()


class GrowTimeout(Exception):
    """The search ran out of time; the answer is unknown."""


@dataclass(frozen=True)
class _Port:
    machine: int
    spec: PortSpec


@dataclass(frozen=True)
class _Part:
    """One placement of a machine: its cells, its ports by (cell, side), and what each outer side faces.

    `faces`: (neighbour cell, the neighbour's side back, our port there or `_WALL`);
    `playable`: its cells and the cells its ports face lie on the patch.
    """

    cells: list[Cell]
    ports: dict
    faces: list[tuple[Cell, tuple[Cell, str], object]]
    playable: bool


def supports(ruleset: Ruleset, diagonal: bool) -> bool:
    """Growth covers tanks open on every side and no diagonal tile (Funner's one-sided tanks are not grown)."""
    return not ruleset.oriented_tanks and not diagonal


def pipe_contents(ruleset: Ruleset) -> list[tuple[tuple[str, ...], ...]]:
    """Every legal pipe filling of one cell: disjoint groups of 2 or more sides (the checker's connector rules)."""
    sides = ruleset.geometry.sides
    groups = [g for size in range(2, len(sides) + 1) for g in itertools.combinations(sides, size)
              if size != 4 or len(sides) != 4 or ruleset.x_splitter_available]
    out = []
    for count in range(1, ruleset.max_pipes_per_cell + 1):
        for combo in itertools.combinations(groups, count):
            used = [s for g in combo for s in g]
            if len(used) != len(set(used)):
                continue
            if count > 1 and any(len(g) > ruleset.multi_pipe_max_sides for g in combo):
                continue
            out.append(combo)
    return out


@dataclass
class _Net:
    """What one network of a growing state holds, as far as the rules that stay broken need."""

    colours: set[str] | None = None
    supply: bool = False
    reservoir: bool = False
    outputs: int = 0
    blacks: int = 0
    ends: int = 0
    plain: bool = False          # a coloured port (input or non-black output)
    supplied: bool = False       # an input the pattern says is supplied
    fed: bool = False            # an input the pattern says is machine-fed
    ins: set[int] = field(default_factory=set)
    outs: set[int] = field(default_factory=set)

    @classmethod
    def of_target(cls, target: tuple) -> _Net:
        """What a forced join's target network holds at least: its colour's container, or an output."""
        kind, colour = target
        net = cls()
        if kind == "supply":
            net.add_tank("supply", colour)
        else:
            net._colour({colour})
            net.outputs, net.plain = 1, True
        return net

    def joinable(self, other: _Net) -> bool:
        """Could this network and `other` be one network without breaking a rule for good?"""
        merged = _Net()
        merged.merge(self)
        merged.merge(other)
        return merged.possible()

    def _colour(self, colours: set[str]) -> None:
        self.colours = colours if self.colours is None else self.colours & colours

    def add_port(self, port: _Port, fed: int | None) -> None:
        spec = port.spec
        self._colour(set(spec.colors))
        if spec.is_input:
            self.ins.add(port.machine)
            self.supplied |= fed == 0
            self.fed |= fed == 1
            self.plain = True
        elif spec.is_black:
            self.blacks += 1
        else:
            self.outputs += 1
            self.outs.add(port.machine)
            self.plain = True

    def add_tank(self, kind: str, colour: str | None) -> None:
        if kind == "supply":
            self.supply = True
            self._colour({colour})
        elif kind == "end":
            self.ends += 1
        else:
            self.reservoir = True

    def merge(self, other: _Net) -> None:
        """Join another network's contents into this one (a new tile connects them)."""
        if other.colours is not None:
            self._colour(set(other.colours))
        self.supply |= other.supply
        self.reservoir |= other.reservoir
        self.outputs += other.outputs
        self.blacks += other.blacks
        self.ends += other.ends
        self.plain |= other.plain
        self.supplied |= other.supplied
        self.fed |= other.fed
        self.ins |= other.ins
        self.outs |= other.outs

    def possible(self) -> bool:
        if self.colours is not None and not self.colours:
            return False
        if self.supply and (self.outputs or self.blacks or self.fed):
            return False
        if (self.blacks or self.ends) and (self.plain or self.supply or self.reservoir):
            return False
        if self.blacks > 1 or self.ends > 1:
            return False
        if (self.outputs or self.reservoir) and self.supplied:
            return False  # an output reservoir needs a machine output, which would feed that input
        if self.supply and self.reservoir:
            return False  # the reservoir needs an output, which may not meet the container
        return not self.ins & self.outs  # a machine feeding itself


class _Grower:
    """One block's search: the machines, the pattern, the cost limit and the patch."""

    def __init__(self, ruleset: Ruleset, catalog: Catalog, machines: tuple[str, ...], pattern: Pattern,
                 limit: int, tanks_at_least: int, board: Board, stock: SupplyStock,
                 stop: Callable[[], bool]) -> None:
        self.ruleset, self.catalog, self.board, self.stock = ruleset, catalog, board, stock
        self.geometry, self.shape = ruleset.geometry, ruleset.machine_shape
        self.machines, self.pattern, self.limit, self.stop = machines, pattern, limit, stop
        self.nodes = 0
        self.pipes = [(groups, frozenset(s for g in groups for s in g)) for groups in pipe_contents(ruleset)]
        self.cells: dict[Cell, Content] = {}
        self.active: dict[tuple[Cell, str], _Port | None] = {}   # port, or None for a pipe end
        self.poses: dict[int, tuple[Cell, int]] = {}
        self.cost = 0
        self.tanks_at_least = tanks_at_least
        self.placed_tanks: Counter[tuple[str, str | None]] = Counter()
        self.opposite = {side: self.geometry.opposite(side) for side in self.geometry.sides}
        self._parts: dict[tuple[int, Cell, int], _Part] = {}
        self._anchor_cache: dict[tuple[str, Cell, str], list[tuple[int, Cell]]] = {}
        self._machines_cache: dict[tuple[Cell, str], list[tuple[int, Cell, int, _Part]]] = {}
        self._pipe_cache: dict[tuple[Cell, frozenset[str]], dict[tuple[Cell, str], None]] = {}
        self._tanks_version = 0   # changes whenever a tank is laid or taken up
        self._version = 0         # changes whenever any tile is laid or taken up
        self._nets: list[_Net] = []              # the state's networks walked so far (`_net_of`) ...
        self._net_nodes: list[set[tuple]] = []   # ... their nodes ...
        self._net_frontiers: dict[int, set[tuple[Cell, str]]] = {}   # ... the frontiers asked for ...
        self._net_index: dict[tuple, int] = {}   # ... and which of them each walked node is in
        self._nets_version = -1
        self._kinds_cache: tuple[int, list] = (-1, [])
        self._steps_cache: tuple[int, dict[tuple, dict[Cell, int]]] = (-1, {})
        self.seen: set[tuple[frozenset, frozenset]] = set()
        #: (empty cell, side) pairs facing a tank that no tile may open on: the tank sides a closed state
        #: already tried and passed over (see `_grow_from_tanks`)
        self.sealed: set[tuple[Cell, str]] = set()
        self._last: tuple | None = None   # the tile `search` is called for (None: the first machine alone)
        self.found: Layout | None = None
        self.blacks = sum(p.is_black for m in machines for p in catalog[m].outputs)
        # colours of outputs nothing in the block takes: each colour needs an output reservoir of its own
        self.stranded_colours = sorted({p.colors[0] for m in machines
                                        for p in stranded_outputs(catalog, machines, pattern, m)
                                        if not p.is_black and len(p.colors) == 1})
        # colours some supplied input can take from nothing else: each needs its own container
        self.needed_supplies = supplied_colours(catalog, machines, pattern)
        self._join_candidates = self._joins_that_may_be_forced()
        self.supply_colours = sorted({c for m in machines for p in catalog[m].inputs
                                      if pattern.get((m, p.at)) != 1 for c in p.colors if c in ruleset.colors})

    # -- placing and removing ------------------------------------------------------------
    def _machine_parts(self, index: int, anchor: Cell, steps: int) -> _Part:
        key = (index, anchor, steps)
        part = self._parts.get(key)
        if part is None:
            spec = self.catalog[self.machines[index]]
            cells = self.shape.cells(self.geometry, anchor, steps)
            ports = {self.shape.locate(self.geometry, anchor, steps, p.at): _Port(index, p) for p in spec.ports}
            own = set(cells)
            faces = [(other, (other, self.opposite[side]), ports.get((cell, side), _WALL))
                     for cell in cells for side in self.geometry.sides
                     if (other := self.geometry.across(cell, side)) not in own]
            playable = own <= self.board.cells and all(
                other in self.board.cells for other, _, mine in faces if mine is not _WALL)
            part = self._parts[key] = _Part(cells, ports, faces, playable)
        return part

    def _fits(self, part: _Part) -> bool:
        """A machine fits: free playable cells, every port faces an empty cell or something that takes
        it, and every existing opening facing the machine meets one of its ports.

        What the board alone decides is worked out once per placement
        (`_machine_parts`): this test ran 600 000 times in a 40 s search.
        """
        if not part.playable or not self.cells.keys().isdisjoint(part.cells):
            return False
        if self.sealed and not self.sealed.isdisjoint(part.ports):
            return False
        for other, back, mine in part.faces:
            if mine is _WALL:
                if back in self.active:
                    return False  # their opening faces our wall
                continue
            content = self.cells.get(other)
            if content is None:
                continue
            if content[0] == "tank":
                if not self._meets_tank(mine, content):
                    return False
            elif back not in self.active or not self._meet(mine, self.active[back]):
                return False
        return True

    def _meet(self, a: _Port | None, b: _Port | None) -> bool:
        """Can two openings face each other? Two ports alone form a whole network: check it."""
        if a is None or b is None:
            return True
        if a.spec.is_input == b.spec.is_input or a.machine == b.machine:
            return False
        out, inp = (a, b) if b.spec.is_input else (b, a)
        if out.spec.is_black or not set(out.spec.colors) & set(inp.spec.colors):
            return False
        if (out.spec.amount or 0) < (inp.spec.amount or 0):
            return False
        return self.pattern.get((self.machines[inp.machine], inp.spec.at)) != 0

    def _meets_tank(self, port: _Port | None, tank: Content) -> bool:
        """Can this opening face this tank? Pipe ends can face any tank; ports follow the network rules."""
        if port is None:
            return True
        kind, colour = tank[1], tank[2]
        spec = port.spec
        fed = self.pattern.get((self.machines[port.machine], spec.at))
        if spec.is_input:
            if kind == "supply":
                return colour in spec.colors and fed != 1
            return kind == "output" and fed != 0
        if spec.is_black:
            return kind == "end"
        return kind == "output"

    def _place(self, cells: list[Cell], content: Content, openings: dict, cost: int) -> None:
        self._version += 1
        for cell in cells:
            self.cells[cell] = content
        self.active.update(openings)
        self.cost += cost
        if content[0] == "tank":
            self.placed_tanks[content[1], content[2]] += 1
            self._tanks_version += 1

    def _remove(self, cells: list[Cell], content: Content, openings: dict, cost: int) -> None:
        self._version += 1
        for cell in cells:
            del self.cells[cell]
        for key in openings:
            del self.active[key]
        self.cost -= cost
        if content[0] == "tank":
            self.placed_tanks[content[1], content[2]] -= 1
            self._tanks_version += 1

    # -- options for one cell -----------------------------------------------------------------
    def _options(self, cell: Cell, side: str) -> list[tuple[list[Cell], Content, dict, int]]:
        """Every tile that can stand in `cell` with an opening on `side` (or as a tank) and fits."""
        out = []
        for index, anchor, steps, part in self._machines_at(cell, side):
            if index not in self.poses and self._fits(part) and self._machine_joins_possible(part):
                out.append((part.cells, ("machine", index, anchor, steps), part.ports, 0))
        facing, forbidden = self._surroundings(cell)
        faced = [self._node_of(self.geometry.across(cell, s), self.opposite[s]) for s in facing]
        for kind, colour in self._tank_kinds_now():
            tank = ("tank", kind, colour)
            if all(self._meets_tank(opening, tank) for opening in facing.values()) and (
                    not faced or self._merge_possible(faced, tank=(kind, colour))):
                out.append(([cell], tank, {}, 1))
        needed = set(facing) | {side}
        for groups, used in self.pipes:
            if needed <= used and not used & forbidden and self._pipe_joins_possible(cell, groups, facing):
                out.append(([cell], ("pipe", groups), self._pipe_openings(cell, used), len(groups)))
        return out

    def _machines_at(self, cell: Cell, side: str) -> list[tuple[int, Cell, int, _Part]]:
        """Every placement of every machine with a port on `cell` facing `side`, worked out once."""
        key = (cell, side)
        found = self._machines_cache.get(key)
        if found is None:
            found = self._machines_cache[key] = [
                (index, anchor, steps, self._machine_parts(index, anchor, steps))
                for index, machine in enumerate(self.machines) for spec in self.catalog[machine].ports
                for steps, anchor in self._anchors(spec, cell, side)]
        return found

    # -- networks a new tile would join, judged before the tile is laid ------------------------
    def _net_of(self, node: tuple) -> tuple[int, _Net]:
        """The network holding `node` in the current state (walked once per state, then looked up).

        Three children in five used to be laid only to find a network they broke
        (classic-A FF11,FF12,FF18,FF21,FF47,FF55, a six-machine block: 58 000 of
        91 000 nodes); judging the merged networks first saves building them.
        Every other question about a state's networks (its reservoirs, the
        networks forced joins must reach, their frontiers) reads the same cache:
        before, they walked the networks again, 900 000 walks in a 160 s search.
        """
        if self._nets_version != self._version:
            self._nets, self._net_nodes, self._net_index = [], [], {}
            self._net_frontiers, self._nets_version = {}, self._version
        index = self._net_index.get(node)
        if index is None:
            seen: set = set()
            index = len(self._nets)
            self._nets.append(self._network_from(node, seen))
            self._net_nodes.append(seen)
            for other in seen:
                self._net_index[other] = index
        return index, self._nets[index]

    def _net_indices(self, starts: list[tuple]) -> list[int]:
        """The networks holding `starts`, each once."""
        return list(dict.fromkeys(self._net_of(start)[0] for start in starts))

    def _net_frontier(self, index: int) -> set[tuple[Cell, str]]:
        frontier = self._net_frontiers.get(index)
        if frontier is None:
            frontier = self._net_frontiers[index] = self._frontier(self._net_nodes[index])
        return frontier

    def _merge_possible(self, nodes: list[tuple], ports: list[_Port] = (),
                        tank: tuple[str, str | None] | None = None) -> bool:
        """Would the networks of `nodes`, joined with these new ports or this new tank, stay possible?"""
        merged, done = _Net(), set()
        for node in nodes:
            index, net = self._net_of(node)
            if index not in done:
                done.add(index)
                merged.merge(net)
        for port in ports:
            merged.add_port(port, self.pattern.get((self.machines[port.machine], port.spec.at)))
        if tank is not None:
            merged.add_tank(*tank)
        return merged.possible()

    def _machine_joins_possible(self, part: _Part) -> bool:
        """Each network the machine's ports would join stays possible (ports on one network together)."""
        joined: dict[int, tuple[tuple, list[_Port]]] = {}
        for other, back, mine in part.faces:
            if mine is _WALL:
                continue
            content = self.cells.get(other)
            if content is None:
                continue
            node = ("tank", other) if content[0] == "tank" else self._node_of(*back)
            index, _ = self._net_of(node)
            joined.setdefault(index, (node, []))[1].append(mine)
        return all(self._merge_possible([node], ports) for node, ports in joined.values())

    def _pipe_joins_possible(self, cell: Cell, groups: tuple, facing: dict[str, _Port | None]) -> bool:
        """Each pipe group that joins two or more networks leaves their union possible."""
        for group in groups:
            sides = [s for s in group if s in facing]
            if len(sides) > 1 and not self._merge_possible(
                    [self._node_of(self.geometry.across(cell, s), self.opposite[s]) for s in sides]):
                return False
        return True

    def _pipe_openings(self, cell: Cell, used: frozenset[str]) -> dict[tuple[Cell, str], None]:
        """A pipe's openings, made once per cell and sides: every node builds them for every faced cell."""
        key = (cell, used)
        openings = self._pipe_cache.get(key)
        if openings is None:
            openings = self._pipe_cache[key] = {(cell, s): None for s in used}
        return openings

    def _tank_kinds_now(self) -> list[tuple[str, str | None]]:
        """`_tank_kinds`, worked out once while the tanks laid stay the same (the stock test is dear)."""
        if self._kinds_cache[0] != self._tanks_version:
            self._kinds_cache = (self._tanks_version, self._tank_kinds())
        return self._kinds_cache[1]

    def _surroundings(self, cell: Cell) -> tuple[dict[str, _Port | None], set[str]]:
        """The openings that face `cell` (by the side they reach it on) and the sides a pipe here may not use."""
        facing: dict[str, _Port | None] = {}
        forbidden: set[str] = set()
        for side in self.geometry.sides:
            other = self.geometry.across(cell, side)
            if other not in self.board.cells or (cell, side) in self.sealed:
                forbidden.add(side)
                continue
            content = self.cells.get(other)
            if content is None or content[0] == "tank":
                continue
            back = (other, self.opposite[side])
            if back in self.active:
                facing[side] = self.active[back]
            else:
                forbidden.add(side)
        return facing, forbidden

    def _tank_kinds(self) -> list[tuple[str, str | None]]:
        supplies = {c: n for (kind, c), n in self.placed_tanks.items() if kind == "supply" and n}
        kinds = [("supply", c) for c in self.supply_colours if self.stock.room_for(supplies, c)]
        if self.placed_tanks["output", None] < self.ruleset.output_limit:
            kinds.append(("output", None))
        if self.blacks:
            kinds.append(("end", None))
        return kinds

    def _anchors(self, spec: PortSpec, cell: Cell, side: str) -> list[tuple[int, Cell]]:
        """(rotation, anchor) of every placement that puts printed port `spec` on `cell`, facing `side`."""
        key = (spec.at, cell, side)
        found = self._anchor_cache.get(key)
        if found is None:
            found = [(steps, anchor) for steps in range(len(self.geometry.sides))
                     if (anchor := self._anchor_for(spec, steps, cell, side)) is not None]
            self._anchor_cache[key] = found
        return found

    def _anchor_for(self, spec: PortSpec, steps: int, cell: Cell, side: str) -> Cell | None:
        """The anchor that puts printed port `spec` on `cell`, facing `side`, in rotation `steps`."""
        index, printed = self.shape.positions[spec.at]
        if self.geometry.rotate(printed, steps) != side:
            return None
        anchor = cell
        for step in reversed(self.shape.chain[:index]):
            anchor = self.geometry.across(anchor, self.opposite[self.geometry.rotate(step, steps)])
        return anchor

    # -- the search ---------------------------------------------------------------------------
    def start(self, centre: Cell) -> bool:
        """Place the first machine at `centre` in its first rotation; False if it does not fit there."""
        part = self._machine_parts(0, centre, 0)
        if not self._fits(part):
            return False
        self._place(part.cells, ("machine", 0, centre, 0), part.ports, 0)
        self.poses[0] = (centre, 0)
        return True

    def _open_ends(self) -> list[tuple[Cell, str]]:
        ends = []
        for (cell, side) in self.active:
            other = self.geometry.across(cell, side)
            if other not in self.cells:
                ends.append((other, self.opposite[side]))
        return ends

    def _hopeless(self, ends: list[tuple[Cell, str]], choices: list[list] | None, reservoirs: int) -> bool:
        """The cost so far plus the fewest tiles still to come exceeds the limit.

        Still to come: a tile for every faced empty cell that no machine still to
        place can fill (a machine fills at most its own cells); a container for
        every colour a single-colour supplied input needs and an end-product
        reservoir for every black output, not yet placed, and an output reservoir
        for every stranded colour none serves (`reservoirs`); and the tanks the
        geometry-free relaxation says every layout of this block has
        (solver/bounds.py) beyond those placed. Each count alone bounds the
        rest, so the largest one does. A missing tank that no faced cell can
        take stands on a cell not faced yet, so it adds to the faced cells'
        tiles (classic-A FF28,FF30,FF42,FF45 with FF30 fed, one spare pipe:
        69 000 states in 3.9 s before this).
        """
        fillable, bare = set(), set()
        if choices is None:  # cheap first look: any faced cell might take a machine
            fillable = {cell for cell, _ in ends}
            coverable = self.shape.cell_count * (len(self.machines) - len(self.poses))
        else:
            for (cell, _), options in zip(ends, choices):
                (fillable if any(o[1][0] == "machine" for o in options) else bare).add(cell)
            fillable -= bare
            coverable = self._coverable(ends, choices, fillable)
        tiles = len(bare) + max(0, len(fillable) - coverable)
        supplies = self._supplies_missing()
        ends_missing = self._ends_missing()
        if choices is not None:
            tiles += self._unfaced_tanks(choices, supplies, ends_missing)
        kinds = len(supplies) + ends_missing + reservoirs
        tanks = sum(self.placed_tanks.values())
        return self.cost + max(tiles, kinds, self.tanks_at_least - tanks) > self.limit

    @staticmethod
    def _coverable(ends: list[tuple[Cell, str]], choices: list[list], fillable: set[Cell]) -> int:
        """The most faced cells the machines still to place can fill: each machine stands once, and
        covers at most the faced cells of its best fitting placement.

        A placement covers a faced cell only if it is offered at every end facing
        it (its wall there would face an opening), and a machine's final
        placement fits the state now, so it is among the options. Counting every
        machine as two cells kept six-machine blocks open with three faced cells
        and two machines that could each fill only one (classic-A
        FF11,FF12,FF18,FF21,FF47,FF55: two in five expanded states stood at the
        cost limit with machines still to place).
        """
        covers: dict[tuple, set[Cell]] = {}
        for (cell, _), options in zip(ends, choices):
            if cell in fillable:
                for option in options:
                    if option[1][0] == "machine":
                        covers.setdefault(option[1][1:], set()).add(cell)
        best: dict[int, int] = {}
        for (index, *_), cells in covers.items():
            best[index] = max(best.get(index, 0), len(cells))
        return sum(best.values())

    def _reservoirs_missing(self) -> int:
        """Stranded output colours that no output reservoir laid so far can serve.

        A reservoir serves one colour, its network's; an output of that colour may
        still join it, but a colour no reservoir has needs a new one. (The count of
        tanks alone missed that a reservoir laid on a fed network is one more than
        the relaxation's: classic-A FF28,FF30,FF42,FF45, FF30 fed, two spare pipes:
        two in three states had two machines and no red reservoir yet.)
        """
        if not self.placed_tanks["output", None]:
            return len(self.stranded_colours)  # no reservoir yet: nothing to walk
        served: set[str] = set()
        tanks = [("tank", cell) for cell, content in self.cells.items()
                 if content[0] == "tank" and content[1] == "output"]
        for index in self._net_indices(tanks):
            colours = self._nets[index].colours
            if colours is None:
                return 0  # a reservoir no port colours yet could serve any colour
            served |= colours
        return sum(c not in served for c in self.stranded_colours)

    def _joins_unaffordable(self, reservoirs: int) -> bool:
        """The tanks still missing plus the pipes that ports need to reach the networks they must join
        exceed the limit.

        Some ports, of machines standing or still to place, can only join a
        network laid already (`_forced_joins`). Such a port faces the network's opening or
        tank directly, or it faces a new pipe of that network; pipes of
        different networks are different tiles, and none of them is a tank. So
        a machine whose every placement leaves its targets k pipes away needs
        k more pipes beside the tanks still to come, and each target needs the
        most any one machine needs to reach it (`_unreached`; a standing
        machine's port off its target: `_laid_needs`).

        Measured, growth alone on classic-A FF28,FF30,FF42,FF45 with FF30 fed:
        once FF42's blue and orange containers stand, FF28's blue and orange
        inputs must reach them. At three spare pipes the search took 45 s
        before this, 24 s with machines still to place at most one pipe away,
        17.6 s at up to two, and 4.6 s with standing ports counted too (and the
        constant-factor changes beside it); at four, 683 s before and 60 s after.
        """
        tanks = sum(self.placed_tanks.values())
        kinds = len(self._supplies_missing()) + self._ends_missing() + reservoirs
        slack = self.limit - self.cost - max(kinds, self.tanks_at_least - tanks)
        forced = self._forced_joins()
        if not forced:
            return False
        networks, frontiers = self._target_networks(forced)
        per_target: dict[tuple, int] = {}
        # standing machines first: one walk per port, where a machine still to place tries placements
        for index in sorted(forced, key=lambda i: i not in self.poses):
            ports = forced[index]
            if index in self.poses:
                needs = self._laid_needs(index, ports, networks, frontiers)
                fewest = sum(needs.values())
            else:
                fewest, needs = self._unreached(index, ports, frontiers, per_target, slack)
            for target, need in needs.items():
                per_target[target] = max(per_target.get(target, 0), need)
            if fewest > slack or sum(per_target.values()) > slack:
                return True
        return False

    def _supplies_missing(self) -> list[str]:
        """Colours some supplied input needs a container of and none stands yet."""
        return [c for c in self.needed_supplies if self.placed_tanks["supply", c] == 0]

    def _ends_missing(self) -> int:
        """End-product reservoirs still missing: one per black output."""
        return max(0, self.blacks - self.placed_tanks["end", None])

    def _forced_joins(self) -> dict[int, list[tuple[PortSpec, tuple]]]:
        """For each machine, its ports that can only join a network laid already (for a machine that
        stands: one its port is not in yet), each with the kind of network it must join (its target):

        - a supplied one-colour input whose colour has no container left in the
          stock: a network holding such a container ("supply", colour);
        - a fed one-colour input whose every possible feeder stands: a network
          holding one of their outputs ("fed", colour);
        - an output nothing in the block takes, once the output reservoirs are all
          laid: a network holding one ("reservoir", colour).

        No new tank can join a supplied input or a stranded output to its
        network: containers of that colour are used up, a container never meets
        a product nor a reservoir a supply, end-product reservoirs take black
        only, and output reservoirs are used up. So the tiles that join it are
        pipes. A fed input is the exception while reservoirs are left: a new
        one beside it and beside a feeder's network joins them with no pipe
        (`_bridged`). Two reservoirs side by side do not join, but two with a
        network laid between them do, so each reservoir left in the stock may
        stand in for one pipe (an earlier reading, one pipe fewer at most,
        missed that).
        """
        supplies = {c: n for (kind, c), n in self.placed_tanks.items() if kind == "supply" and n}
        exhausted = {c for c in supplies if not self.stock.room_for(supplies, c)}
        reservoirs_full = self.placed_tanks["output", None] >= self.ruleset.output_limit
        out: dict[int, list[tuple[PortSpec, tuple]]] = {}
        for index, candidates in enumerate(self._join_candidates):
            ports = [(spec, target) for spec, target, feeders in candidates
                     if (target[1] in exhausted if target[0] == "supply" else
                         reservoirs_full if target[0] == "reservoir" else
                         all(i in self.poses for i in feeders))]
            if ports:
                out[index] = ports
        return out

    def _joins_that_may_be_forced(self) -> list[list[tuple[PortSpec, tuple, tuple[int, ...]]]]:
        """Per machine, the ports `_forced_joins` may name, with their targets and (for fed inputs) the
        machines that could feed them: what the block alone decides, worked out once."""
        out = []
        for index, machine in enumerate(self.machines):
            ports = []
            for p in self.catalog[machine].inputs:
                fed = self.pattern.get((machine, p.at))
                if len(p.colors) != 1:
                    continue
                colour = p.colors[0]
                feeders = tuple(i for i, m in enumerate(self.machines) if i != index and any(
                    colour in q.colors and not q.is_black for q in self.catalog[m].outputs))
                if fed == 0:
                    ports.append((p, ("supply", colour), ()))
                elif fed == 1 and feeders:
                    ports.append((p, ("fed", colour), feeders))
            ports += [(p, ("reservoir", p.colors[0]), ())
                      for p in stranded_outputs(self.catalog, self.machines, self.pattern, machine)
                      if not p.is_black and len(p.colors) == 1]
            out.append(ports)
        return out

    def _bridged(self, target: tuple) -> bool:
        """A new output reservoir could stand between a port and this target's network (see `_forced_joins`)."""
        return target[0] == "fed" and self.placed_tanks["output", None] < self.ruleset.output_limit

    def _targets(self, forced: dict[int, list[tuple[PortSpec, tuple]]]) -> dict[tuple, list[tuple]]:
        """The network nodes each target's networks are walked from."""
        wanted = {target for ports in forced.values() for _, target in ports}
        starts: dict[tuple, list[tuple]] = {target: [] for target in wanted}
        for cell, content in self.cells.items():
            if content[0] != "tank":
                continue
            if content[1] == "supply" and ("supply", content[2]) in wanted:
                starts["supply", content[2]].append(("tank", cell))
            elif content[1] == "output":
                colours = self._net_of(("tank", cell))[1].colours
                for kind, colour in wanted:
                    if kind == "reservoir" and (colours is None or colour in colours):
                        starts[kind, colour].append(("tank", cell))
        for (cell, side), port in self.active.items():
            if port is not None and not port.spec.is_input and not port.spec.is_black:
                for colour in port.spec.colors:
                    if ("fed", colour) in wanted:
                        starts["fed", colour].append(("port", cell, side))
        return starts

    def _target_networks(self, forced: dict[int, list[tuple[PortSpec, tuple]]],
                         ) -> tuple[dict[tuple, list[int]], dict[tuple, set[tuple[Cell, str]]]]:
        """For each target of `forced`, the networks (`_net_of` indices) that hold one, and their frontier."""
        networks = {target: self._net_indices(starts) for target, starts in self._targets(forced).items()}
        frontiers = {target: set().union(*(self._net_frontier(i) for i in indices))
                     for target, indices in networks.items()}
        return networks, frontiers

    def _frontier(self, nodes: set[tuple]) -> set[tuple[Cell, str]]:
        """(empty cell, side) where a port would meet the network of `nodes`: facing one of its
        openings or tanks."""
        out = set()
        for node in nodes:
            if node[0] == "tank":
                sides = [(node[1], side) for side in self.geometry.sides]
            elif node[0] == "port":
                sides = [(node[1], node[2])]
            else:
                sides = [(node[1], side) for side in self.cells[node[1]][1][node[2]]]
            for cell, side in sides:
                other = self.geometry.across(cell, side)
                if other in self.board.cells and other not in self.cells:
                    out.add((other, self.opposite[side]))
        return out

    def _laid_needs(self, index: int, ports: list[tuple[PortSpec, tuple]], networks: dict[tuple, list[int]],
                    frontiers: dict[tuple, set[tuple[Cell, str]]]) -> dict[tuple, int]:
        """For each target of a standing machine's `ports`, the fewest pipes that join them to it.

        A port's network that is not yet its target's joins it only through new
        pipes: as many as the fewest new tiles on a path from its frontier to the
        target's (`_steps_to`; one when a cell is beside both), never when the
        port's network has no free side left (it can grow no more: it holds no
        tank, and its openings all meet something). Counting the path, not "one
        or two or more", took classic-A FF28,FF30,FF42,FF45 with FF30 fed at four
        spare pipes from 83 000 grown states to 74 000, in the same time (the
        walks cost what the states save).
        """
        at = {port.spec.at: key for key, port in self._machine_parts(index, *self.poses[index]).ports.items()}
        needs: dict[tuple, int] = {}
        for spec, target in ports:
            own_net = self._net_of(("port",) + at[spec.at])[0]
            if own_net in networks[target]:
                need = 0
            else:
                own = {cell for cell, _ in self._net_frontier(own_net)}
                need = self._path_pipes(target, own, networks, frontiers)
            needs[target] = max(needs.get(target, 0), need)
        return needs

    def _path_pipes(self, target: tuple, own: set[Cell], networks: dict[tuple, list[int]],
                    frontiers: dict[tuple, set[tuple[Cell, str]]]) -> int:
        """Pipes a network whose free cells are `own` needs to join `target`: UNREACHABLE when either
        side has no free cell left."""
        steps = self._steps_to(target, networks, frontiers) if own else {}
        if not steps:
            return UNREACHABLE
        far = max(steps.values()) + 1
        return self._pipes_for(target, min(steps.get(cell, far) for cell in own))

    def _pipes_for(self, target: tuple, tiles: int) -> int:
        """Pipes among `tiles` new tiles on a path to `target`: all of them, but output reservoirs left in
        the stock may stand in for some on the way to a fed input's feeders (`_bridged`)."""
        if not self._bridged(target):
            return tiles
        return max(0, tiles - (self.ruleset.output_limit - self.placed_tanks["output", None]))

    def _steps_to(self, target: tuple, networks: dict[tuple, list[int]],
                  frontiers: dict[tuple, set[tuple[Cell, str]]]) -> dict[Cell, int]:
        """For each empty cell within reach, the fewest new tiles on a path from it (itself included) to
        `target`'s networks, walking over empty cells and through networks laid already that could
        join the target (entering one on its frontier and leaving it on its frontier costs nothing).

        A port whose network must join the target needs such a path from its
        network's frontier; forced joins used to count at most two pipes for it
        (one when a cell is beside both). Walks stop past the cost limit: beyond
        it every count prunes alike. Cells missing from the answer need more tiles than the
        farthest one listed. Cached per state.
        """
        if self._steps_cache[0] != self._version:
            self._steps_cache = (self._version, {})
        cached = self._steps_cache[1].get(target)
        if cached is not None:
            return cached
        probe = _Net.of_target(target)
        shortcuts: dict[Cell, list[int]] = {}
        for index in self._net_indices(self._frontier_nodes()):
            if index not in networks[target] and probe.joinable(self._nets[index]):
                for cell, _ in self._net_frontier(index):
                    shortcuts.setdefault(cell, []).append(index)
        steps = {cell: 1 for cell, _ in frontiers[target]}
        queue = deque(steps)
        cap = self.limit - self.cost + self.ruleset.output_limit + 1
        crossed: set[int] = set()
        while queue:
            cell = queue.popleft()
            step = steps[cell] + 1
            if step > cap:
                break
            nearby = [self.geometry.across(cell, side) for side in self.geometry.sides]
            for index in shortcuts.get(cell, ()):
                if index not in crossed:
                    crossed.add(index)
                    nearby.extend(c for c, _ in self._net_frontier(index))
            for other in nearby:
                if other not in steps and other in self.board.cells and other not in self.cells:
                    steps[other] = step
                    queue.append(other)
        self._steps_cache[1][target] = steps
        return steps

    def _frontier_nodes(self) -> list[tuple]:
        """A node of every network that may still grow: open ends and tanks."""
        nodes = [self._node_of(cell, side) for cell, side in self.active
                 if self.geometry.across(cell, side) not in self.cells]
        nodes += [("tank", cell) for cell, content in self.cells.items() if content[0] == "tank"]
        return nodes

    def _unreached(self, index: int, ports: list[tuple[PortSpec, tuple]],
                   frontiers: dict[tuple, set[tuple[Cell, str]]], known: dict[tuple, int] | None = None,
                   slack: int | None = None) -> tuple[int, dict[tuple, int]]:
        """The fewest pipes a placement of machine `index` needs to join `ports` to their targets, and
        for each target the fewest any placement needs.

        A port needs no pipe when it stands on its target's frontier; one when
        the cell it faces is on the frontier (a pipe there joins both) or holds
        a tile of another network (which needs a pipe of its own to join); two
        or more otherwise. A placement whose ports all need two may stand
        anywhere; any other puts a port on or beside a frontier, so only those are tried.
        With `slack`, the scan stops once these counts, beside the targets' needs
        `known` already, can no longer exceed it, and then claims nothing: (0, {}).
        """
        targets = {t for _, t in ports}
        cells_of = {t: {cell for cell, _ in frontiers[t]} for t in targets}
        far = {t: self._pipes_for(t, 2) for t in targets}   # what a port off and away from a frontier needs
        fewest, per_target = sum(far.values()), dict(far)
        known = known or {}
        for placement in self._placements_near(index, ports, frontiers, cells_of):
            if slack is not None and fewest <= slack and sum(
                    max(known.get(t, 0), per_target.get(t, 0)) for t in known.keys() | targets) <= slack:
                return 0, {}  # cannot tip the balance: claim nothing (the counts so far only bound it from above)
            at = {port.spec.at: key for key, port in placement.items()}
            needs = dict(far)
            for spec, target in ports:
                cell, side = at[spec.at]
                if (cell, side) in frontiers[target]:
                    needs[target] = 0
                elif (other := self.geometry.across(cell, side)) in cells_of[target] or other in self.cells:
                    needs[target] = min(needs[target], self._pipes_for(target, 1))
            fewest = min(fewest, sum(needs.values()))
            for target, need in needs.items():
                per_target[target] = min(per_target[target], need)
        return fewest, per_target

    def _placements_near(self, index: int, ports: list[tuple[PortSpec, tuple]],
                         frontiers: dict[tuple, set[tuple[Cell, str]]], cells_of: dict[tuple, set[Cell]]):
        """The fitting placements of machine `index` that put one of `ports` on its target's frontier or
        facing a frontier cell (each once, as its openings)."""
        seen = set()
        for spec, target in ports:
            spots = set(frontiers[target])
            for cell in cells_of[target]:
                for side in self.geometry.sides:
                    spots.add((self.geometry.across(cell, side), self.opposite[side]))
            for cell, side in spots:
                for steps, anchor in self._anchors(spec, cell, side):
                    if (anchor, steps) in seen:
                        continue
                    seen.add((anchor, steps))
                    part = self._machine_parts(index, anchor, steps)
                    if self._fits(part):
                        yield part.ports

    @staticmethod
    def _unfaced_tanks(choices: list[list], supplies: list[str], ends_missing: int) -> int:
        """Missing tanks no faced cell can hold: containers of colours none offers, end reservoirs beyond
        the faced cells that offer one (each cell holds one tank)."""
        offered: set[str | None] = set()
        end_cells = 0
        for options in choices:
            kinds = {(o[1][1], o[1][2]) for o in options if o[1][0] == "tank"}
            offered |= {colour for kind, colour in kinds if kind == "supply"}
            end_cells += ("end", None) in kinds
        return sum(c not in offered for c in supplies) + max(0, ends_missing - end_cells)

    def _affordable(self, content: Content, cost: int) -> bool:
        """The tile and the tanks still missing after it fit the limit (the child's first test, made
        before the child is built: three in four children used to fail just that)."""
        tanks = sum(self.placed_tanks.values()) + (content[0] == "tank")
        return self.cost + cost + max(0, self.tanks_at_least - tanks) <= self.limit

    def _key(self) -> tuple[frozenset, frozenset]:
        return frozenset(self.cells.items()), frozenset(self.sealed)

    def search(self) -> bool:
        self.nodes += 1
        if self.nodes % 256 == 0 and self.stop():
            raise GrowTimeout
        if self.cost > self.limit or (self._last is not None and not self._networks_possible(*self._last)):
            return False  # first, before the memo: a broken state is cheap to see and not worth keeping
        key = self._key()
        if key in self.seen:
            return False
        if len(self.seen) >= MEMO_STATES:
            self.seen.clear()  # forgetting only costs repeated work; memory would otherwise run out
        self.seen.add(key)
        ends = self._open_ends()
        reservoirs = self._reservoirs_missing()
        if self._hopeless(ends, None, reservoirs) or self._joins_unaffordable(reservoirs):
            return False
        choices = [self._options(cell, side) for cell, side in ends]
        if self._hopeless(ends, choices, reservoirs):
            return False
        if ends:
            return any(self._affordable(content, cost) and self._try(cells, content, openings, cost)
                       for cells, content, openings, cost in min(choices, key=len))
        if len(self.poses) == len(self.machines) and self._judge():
            return True
        return self._grow_from_tanks()

    def _networks_possible(self, cells: list[Cell], content: Content, openings: dict) -> bool:
        """False when a network of the tile just laid breaks a rule that more tiles can never mend.

        Networks only grow and merge, so these stay broken: mixed colours, a
        supply container with a machine output or an output reservoir, black
        mixed with anything else, two end-product outputs or reservoirs, a
        machine feeding itself, and an input whose fed pattern the network
        contradicts (supplied but with an output or output reservoir, or fed but
        with a container). The state before this tile passed the same test, and
        only the networks the tile joins have changed, so only they are walked
        (walking every network at every node took half of growth's time).
        """
        if content[0] == "tank":
            starts = [("tank", cells[0])]
        else:
            starts = [self._node_of(cell, side) for cell, side in openings]
        return all(self._nets[index].possible() for index in self._net_indices(starts))

    def _node_of(self, cell: Cell, side: str) -> tuple:
        """The network node an opening belongs to: a port, or one pipe group of a cell."""
        if self.active[(cell, side)] is not None:
            return ("port", cell, side)
        return ("pipe", cell, next(i for i, g in enumerate(self.cells[cell][1]) if side in g))

    def _network_from(self, start: tuple, seen: set) -> _Net:
        """What the network holding `start` contains (its nodes are added to `seen`)."""
        net = _Net()
        stack = [start]
        seen.add(start)
        while stack:
            node = stack.pop()
            if node[0] == "tank":
                net.add_tank(self.cells[node[1]][1], self.cells[node[1]][2])
            elif node[0] == "port":
                port = self.active[(node[1], node[2])]
                net.add_port(port, self.pattern.get((self.machines[port.machine], port.spec.at)))
            for other in self._linked(node):
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
        return net

    def _linked(self, node: tuple) -> list[tuple]:
        """The nodes joined to a node: openings that face a tank, or what a port's or pipe's openings meet."""
        if node[0] == "tank":
            backs = [(self.geometry.across(node[1], side), self.opposite[side]) for side in self.geometry.sides]
            return [self._node_of(*back) for back in backs if back in self.active]
        if node[0] == "port":
            sides = [(node[1], node[2])]
        else:
            sides = [(node[1], side) for side in self.cells[node[1]][1][node[2]]]
        out = []
        for cell, side in sides:
            other = self.geometry.across(cell, side)
            content = self.cells.get(other)
            if content is None:
                continue
            if content[0] == "tank":
                out.append(("tank", other))
            elif (other, self.opposite[side]) in self.active:
                out.append(self._node_of(other, self.opposite[side]))
        return out

    def _grow_from_tanks(self) -> bool:
        """A closed state grows further only through a tank: a port or pipe facing one (never a tank).

        The free sides of the tanks are taken in a fixed order, and a side that
        was tried is sealed for the later ones: a layout that grows from several
        of them is reached once, through the first, instead of once per order
        (classic-A FF28,FF30,FF42,FF45 with FF30 fed: closed states were 1 % of
        the nodes and raised 40 000 options, nine in ten of them pipes).
        Completeness holds: on the way to a layout L, the sides before L's first
        touching side are sides L leaves closed, so sealing them loses nothing.
        """
        sealed_here = []
        try:
            for cell, side in self._free_tank_sides():
                for cells, content, openings, cost in self._options(cell, side):
                    if content[0] != "tank" and self._affordable(content, cost) \
                            and self._try(cells, content, openings, cost):
                        return True
                self.sealed.add((cell, side))
                sealed_here.append((cell, side))
            return False
        finally:
            self.sealed.difference_update(sealed_here)

    def _free_tank_sides(self) -> list[tuple[Cell, str]]:
        """(empty cell, its side facing a tank) for every tank, in a fixed order, sealed ones left out."""
        out = []
        for cell, content in sorted(self.cells.items()):
            if content[0] != "tank":
                continue
            for side in self.geometry.sides:
                other = self.geometry.across(cell, side)
                key = (other, self.opposite[side])
                if other in self.board.cells and other not in self.cells and key not in self.sealed:
                    out.append(key)
        return out

    def _try(self, cells: list[Cell], content: Content, openings: dict, cost: int) -> bool:
        if content[0] == "machine":
            self.poses[content[1]] = (content[2], content[3])
        self._place(cells, content, openings, cost)
        self._last = (cells, content, openings)
        try:
            return self.search()
        finally:
            self._remove(cells, content, openings, cost)
            if content[0] == "machine":
                del self.poses[content[1]]

    # -- judging a closed state ---------------------------------------------------------------
    def _layout(self) -> Layout:
        rotations = self.geometry.rotation_values
        machines = tuple(MachinePlacement(self.machines[i], anchor, rotations[steps])
                         for i, (anchor, steps) in sorted(self.poses.items()))
        tiles = []
        for cell, content in sorted(self.cells.items()):
            if content[0] == "tank":
                tiles.append(Tile(content[1], cell, color=content[2]))
            elif content[0] == "pipe":
                tiles.extend(Tile("pipe", cell, sides=tuple(group)) for group in content[1])
        return Layout(self.ruleset, self.board, self.catalog, machines, tuple(tiles))

    def _judge(self) -> bool:
        """The rule checker decides; the block's fed pattern must hold exactly."""
        layout = self._layout()
        result = check_layout(layout)
        # the checker counts only this block's bonus machines; the search laid containers within the
        # player's whole stock (`self.stock`), so a supply-limit verdict is not the block's to give
        if any(v.rule != "supply-limit" for v in result.violations):
            return False
        fed = {(c.machine, c.at) for c in result.score.chain_inputs}
        for (machine, at), value in self.pattern.items():
            if machine in self.machines and ((machine, at) in fed) != bool(value):
                return False
        self.found = layout
        return True


def _others_input_colours(catalog: Catalog, machines: tuple[str, ...], pattern: Pattern, machine: str,
                          fed: bool) -> set[str]:
    """Colours of the other machines' machine-fed inputs (`fed`) or supplied inputs (not `fed`)."""
    return {c for m in machines if m != machine for p in catalog[m].inputs
            if (pattern.get((m, p.at)) == 1) == fed for c in p.colors}


def stranded_outputs(catalog: Catalog, machines: tuple[str, ...], pattern: Pattern, machine: str) -> list[PortSpec]:
    """A machine's outputs that no machine-fed input of the block can take: each ends at a reservoir
    (black ones at an end-product reservoir)."""
    takers = _others_input_colours(catalog, machines, pattern, machine, fed=True)
    return [p for p in catalog[machine].outputs if p.is_black or not set(p.colors) & takers]


def tank_bound_ports(catalog: Catalog, machines: tuple[str, ...], pattern: Pattern, machine: str) -> int:
    """How many of a machine's ports can only end at a tank within the block: supplied inputs (a
    container) and stranded outputs (a reservoir)."""
    supplied = sum(pattern.get((machine, p.at)) != 1 for p in catalog[machine].inputs)
    return supplied + len(stranded_outputs(catalog, machines, pattern, machine))


def shared_supplies(catalog: Catalog, machines: tuple[str, ...], pattern: Pattern, machine: str) -> int:
    """How many of a machine's supplied inputs take a colour another machine of the block is supplied with."""
    others = _others_input_colours(catalog, machines, pattern, machine, fed=False)
    return sum(pattern.get((machine, p.at)) != 1 and bool(set(p.colors) & others) for p in catalog[machine].inputs)


def growth_order(catalog: Catalog, machines: tuple[str, ...], pattern: Pattern) -> tuple[str, ...]:
    """The machines with the one growth starts from first: the one most bound to tanks.

    Open ground is the same around every machine of a component, and the
    patch radius holds from any of them (solver/local.py), so the start is free
    to choose, and it matters: around a machine whose ports all end at tanks the
    first tiles are nearly forced, and more so when other machines must share
    those containers. Measured, growth alone (classic-A): the FF28,FF30,FF42,FF45
    block with FF30 fed at two spare pipes, 68 s from FF28 and 10.4 s from FF42
    (three tank-bound ports); with FF45 fed at one, 1.5 s from FF30 (three
    tank-bound ports, one container shared) and 0.23 s from FF42 (three, two
    shared); FF27,FF28,FF43 with FF28 and FF43 fed at two, 3.8 s from FF27 and
    1.1 s from FF28.
    """
    first = max(machines, key=lambda m: (tank_bound_ports(catalog, machines, pattern, m),
                                         shared_supplies(catalog, machines, pattern, m),
                                         len(catalog[m].ports)))
    return (first,) + tuple(m for m in machines if m != first)


def grow_block(ruleset: Ruleset, catalog: Catalog, machines: tuple[str, ...], pattern: Pattern, limit: int,
               tanks_at_least: int, board: Board, centre: Cell, stock: SupplyStock | None = None,
               stop: Callable[[], bool] = lambda: False) -> tuple[str, Layout | None]:
    """'found' (with a component paying at most `limit` for tanks and pipes), 'refuted' or 'unknown'.

    The machine `growth_order` puts first stands at `centre` in its first
    rotation; every cell used lies on `board` (the open patch whose radius the
    caller proved large enough from any of the block's machines).
    `tanks_at_least`: tanks every layout of the block has (its relaxation's count);
    `stock`: the player's supply containers (default: what the block's own machines allow); a block
    of a bigger layout may use containers that machines outside it brought.
    `stop()` true (time up, Ctrl-C) ends the search with 'unknown'.
    """
    if stock is None:
        stock = SupplyStock.of(ruleset, (catalog[m] for m in machines))
    grower = _Grower(ruleset, catalog, growth_order(catalog, machines, pattern), pattern, limit, tanks_at_least,
                     board, stock, stop)
    if not grower.start(centre):
        return "refuted", None
    try:
        if grower.search():
            return "found", grower.found
    except GrowTimeout:
        return "unknown", None
    return "refuted", None
