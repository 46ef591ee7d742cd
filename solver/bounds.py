"""A bound that ignores geometry, and cheap reasons why a set cannot be built at all.

The topology relaxation decides only which outputs feed which inputs (colour,
no self-feeding, no loops, quantities) and counts the containers and reservoirs
that forces; pipes cost nothing and space is unlimited. Its optimum is therefore
an upper bound on profit (lower bound on cost) of every legal layout. It is tiny,
so it is solved to optimality before the main search and fed into it, and its
feeding order seeds the greedy construction.
"""
from __future__ import annotations

import math
import threading
import time
from collections import Counter
from fractions import Fraction
from dataclasses import dataclass
from itertools import combinations, product

from ortools.sat.python import cp_model

from models.board import Board
from models.catalog import Catalog
from models.rulesets import Ruleset
from models.wording import counted

from .pair_cuts import Relation, pair_tiles, relation_sets, relations
from .triangle_cuts import CAP as TRIANGLE_CAP, CAPS as CUT_CAPS, FREE_CAPS, Tree, tree_tiles, triangle_tiles
from .triangle_cuts import supported as triangles_supported
from .placements import machine_placements
from .search import past, solver_parameters

#: the share of `topology_bound`'s time the pair-cut tables may take (the solve gets the rest)
PAIR_CUT_SHARE = 0.5


@dataclass
class TopologyBound:
    value: int | None          # profit upper bound (or cost lower bound); None if not proved
    proved: bool
    order: list[str]           # machines in a feeding order (sources first)
    infeasible: bool = False
    chosen: list[str] | None = None   # the machines the relaxation places (in `order`), when it was solved
    trees: list[Tree] | None = None   # its groups of machines joined by networks, when asked (`topology_bound`)
    settled: bool = False   # solved to optimality with every cut asked for found (not cut short by the time limit)


Held = tuple[Relation, tuple[str, str]]   # a relation and the two machines it joins
TreeEdge = tuple[str, str, Relation, tuple, int]   # parent, child, relation, its network, the network's tiles now


@dataclass
class Cut:
    """Whenever every relation of `held` holds, the networks of `counted` hold `least` tiles or more."""

    held: list[Held]
    least: int
    counted: list[Held] | None = None   # None: the networks of `held`

    def terms(self) -> list[Held]:
        return self.held if self.counted is None else self.counted


#: every cut found so far, by ruleset, with the catalogue entries of its machines: a cut is a fact about
#: those machines on open ground, true in every relaxation that has them (a fed pattern's, a plan's), so
#: each relaxation with the cuts starts from those already found (`_Relaxation.solve`)
_CUT_POOL: dict[str, dict[tuple, tuple[tuple, Cut]]] = {}
_POOL_LOCK = threading.Lock()   # the prover asks for relaxations from several threads


def topology_bound(
    ruleset: Ruleset, catalog: Catalog, machine_ids: list[str], objective: str = "profit",
    optional: bool = False, time_limit: float = 5.0, groups: list[list[str]] | None = None,
    fed_pattern: dict[tuple[str, str], int] | None = None, count_pipes: bool = True,
    ranks: dict[str, int] | None = None, pair_cuts: bool = True, triangles: bool = False,
    game: bool = False, joined: bool = False, trees: bool = False, cells: int | None = None,
    most: int | None = None,
) -> TopologyBound:
    """`groups`: at most one machine of each group is placed (a round's offer, for the planner).

    `fed_pattern` fixes which printed inputs (machine id, port position) are
    machine-fed; the bound prover (solver/prove.py) asks this for every pattern.
    `count_pipes=False` leaves out the fewest pipes a network's size forces, so
    the value counts tanks only (the prover derives its pipe budget from that).
    `ranks` lets a machine feed only machines of a higher rank (the planner asks for
    chains that run forward in round order, which a game builds without rewiring);
    the value is then no bound on layouts that chain otherwise.
    `pair_cuts` adds the cuts of solver/pair_cuts.py (only with pipes counted). They
    count a pipe per cell, so a caller allowing the diagonal tile (one pipe over two
    cells) must leave them out. `triangles` adds, round after round, the triangle and
    tree cuts of solver/triangle_cuts.py that the solution violates (square and hex rulesets, with the
    pair cuts only). `game`: the value bounds the final layout of a game, not a static build: it also
    pays for the tiles that port-to-port feeds force a game to lay and lift (`add_junction_cost`).
    `joined` adds, with the triangles, the tree cuts of whole groups of machines that their shared
    networks join (`_spanning_trees`): seconds of embedding each, so callers ask for them on up to
    JOINED_MACHINES machines. `trees`: the answer carries the last solution's groups of machines as
    trees (`TopologyBound.trees`), which solver/relaxed_starts.py lays on the board.
    `cells`: the board's playable cells, which the placed machines, tanks and pipes must fit in (`add_area`).
    `most` places at most that many machines: the answer's `chosen` is then a pick, and its value no bound.
    """
    began = time.monotonic()
    relaxation = _Relaxation(ruleset, catalog, list(machine_ids), optional or False, objective, groups, ranks)
    relaxation.joined, relaxation.want_trees = joined, trees
    relaxation.add_networks()
    if game:
        relaxation.add_junction_cost()
    relaxation.add_supplies()
    if cells is not None:
        relaxation.add_area(cells)
    if most is not None:
        relaxation.model.Add(sum(relaxation.placed.values()) <= most)
    if count_pipes and pair_cuts:
        relaxation.add_pair_cuts(deadline=began + PAIR_CUT_SHARE * time_limit)
    if fed_pattern is not None:
        for ii, (b, pi) in enumerate(relaxation.ins):
            if (b, pi.at) in fed_pattern:
                relaxation.model.Add(relaxation.fed[ii] == fed_pattern[(b, pi.at)])
    # (the solve gets what the tables left: with the whole limit again, fifty-five optional machines took 10 s of 5)
    return relaxation.solve(max(0.01, began + time_limit - time.monotonic()), count_pipes,
                            count_pipes and _with_triangles(ruleset, pair_cuts, triangles))


def relaxed_topologies(ruleset: Ruleset, catalog: Catalog, machine_ids: list[str], most: int, time_limit: float,
                       joined: bool = True, objective: str = "profit") -> list[TopologyBound]:
    """The relaxation with every cut (`joined` too, unless told not) solved for up to `most` fed patterns in
    turn, each with its groups of machines as trees: the first is the bound, and each next one forbids the
    patterns before it.

    Different patterns lay out differently: classic-A FF08,FF12,FF34,FF40,FF42,FF50 reaches 89 with a
    pattern whose groups need a container between two clusters, and 88 with a chain of feeds whose
    embedding lays out as a layout of 87. Which one a relaxation ends on depends on the cuts it starts
    from, so solver/relaxed_starts.py is given a few.
    """
    relaxation = _Relaxation(ruleset, catalog, list(machine_ids), False, objective, None)
    relaxation.add_networks()
    relaxation.add_supplies()
    relaxation.add_pair_cuts()
    relaxation.joined, relaxation.want_trees = joined, True
    deadline = time.monotonic() + time_limit
    found: list[TopologyBound] = []
    while len(found) < most and time.monotonic() < deadline:
        # from no pooled cuts: the cuts a relaxation starts from decide which pattern it ends on (with the static
        # solve's first cuts pooled, the set above ends at 89 on a pattern whose groups no search embeds well)
        answer = relaxation.solve(deadline - time.monotonic(), True, _with_triangles(ruleset, True, True),
                                  pooled=False)
        if answer.value is None or answer.trees is None or relaxation.last_fed is None:
            break
        found.append(answer)
        relaxation.model.AddBoolOr([fed.Not() if bit else fed for fed, bit in zip(relaxation.fed, relaxation.last_fed)])
        relaxation.joined = False   # the next patterns are for their layouts: the bound is the first's
    return found


def _with_triangles(ruleset: Ruleset, pair_cuts: bool, triangles: bool) -> bool:
    """The triangle and tree cuts are asked for, and sound here: pair cuts on (no diagonal tile), a geometry
    with a frame (`triangle_cuts.supported`)."""
    return triangles and pair_cuts and triangles_supported(ruleset)


def reaching_patterns(
    ruleset: Ruleset, catalog: Catalog, machine_ids: list[str], target: int, most: int, time_limit: float = 10.0,
    pair_cuts: bool = True, triangles: bool = False,
) -> list[dict[tuple[str, str], int]] | None:
    """Every fed pattern (which printed inputs are machine-fed) whose relaxation reaches `target`.

    Found one at a time: a solution scoring `target` or more names a pattern,
    and a clause then forbids exactly that pattern. With 15-20 printed inputs
    (8-10 machines) trying all 2^n patterns is out of reach, but only a few
    reach a target near the bound (classic-A FF09,FF15,FF26,FF32,FF36,FF38,FF42,FF50,
    bound 103: 6 patterns reach 103 and 14 reach 98, in 0.1 s). None when more
    than `most` reach it or a solve does not finish in `time_limit` seconds
    (the caller cannot then skip any pattern safely). With `triangles`, a solution
    that violates a triangle or tree cut adds it and is asked again before it names a pattern.
    """
    relaxation = _Relaxation(ruleset, catalog, list(machine_ids), False, "profit", None)
    relaxation.add_networks()
    relaxation.add_supplies()
    if pair_cuts:
        relaxation.add_pair_cuts()
    with_triangles = _with_triangles(ruleset, pair_cuts, triangles)
    if with_triangles:
        relaxation.add_pooled_cuts()
    model = relaxation.model
    model.Add(relaxation.profit(count_pipes=True) >= target)
    found: list[dict[tuple[str, str], int]] = []
    deadline = time.monotonic() + time_limit
    while len(found) <= most:
        solver = cp_model.CpSolver()
        solver_parameters(solver, deadline - time.monotonic(), 1, 0)
        status = solver.Solve(model)
        if status == cp_model.INFEASIBLE:
            return found
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        cuts = relaxation.violated_cuts(solver, deadline) if with_triangles else []
        for cut in cuts:
            relaxation.add_cut(cut, pool=True)
        if cuts:
            continue
        bits = [solver.Value(fed) for fed in relaxation.fed]
        found.append({(m, p.at): bit for (m, p), bit in zip(relaxation.ins, bits)})
        model.AddBoolOr([fed.Not() if bit else fed for fed, bit in zip(relaxation.fed, bits)])
    return None


@dataclass
class _Slot:
    """One supply network of a colour in the relaxation: which supplied inputs join it, its tiles."""

    joins: dict[int, cp_model.IntVar]   # input index -> "that input is supplied through this network"
    tiles: cp_model.LinearExprT         # its containers and pipes
    used: cp_model.IntVar | None = None  # laid at all (None: the colour's only network, laid with its container)


class _Relaxation:
    """The geometry-free model: machines, networks as sets of ports, tanks and the fewest pipes.

    Networks are indexed by their first output (a *leader*): every placed
    machine output joins exactly one network, every machine-fed input joins one.
    Counting whole networks, not output-input pairs, is what makes the bound
    tight: an output of 3 feeding two inputs of 2 is one network of 4 > 3, which
    the pairwise relaxation used before accepted (classic-A FF28,FF30,FF42,FF45:
    bound 42 pairwise, against a best layout of 26).
    """

    def __init__(self, ruleset: Ruleset, catalog: Catalog, ids: list[str], optional: bool, objective: str,
                 groups: list[list[str]] | None, ranks: dict[str, int] | None = None) -> None:
        self.ruleset, self.catalog, self.ids, self.objective = ruleset, catalog, ids, objective
        model = self.model = cp_model.CpModel()
        self.placed = {m: model.NewBoolVar(f"placed[{m}]") for m in ids}
        if not optional or objective == "cost":
            for m in ids:
                model.Add(self.placed[m] == 1)
        for group in groups or ():
            model.Add(sum(self.placed[m] for m in set(group) if m in self.placed) <= 1)
        # machines and networks share one order: producers < their network < its consumers
        # a given rank r is the rank 3r here, leaving room for a network's rank between two machines
        self.top_rank = max(2 * max(len(ids), 1), 3 * max((ranks or {}).values(), default=0) + 3)
        self.rank = {m: model.NewIntVar(0, self.top_rank, f"rank[{m}]") for m in ids}
        for m, rank in (ranks or {}).items():
            model.Add(self.rank[m] == 3 * rank)
        self.ins = [(m, p) for m in ids for p in catalog[m].inputs]
        self.outs = [(m, p) for m in ids for p in catalog[m].outputs if not p.is_black]
        self._out_index = {(m, p.at): o for o, (m, p) in enumerate(self.outs)}
        self._in_index = {(m, p.at): i for i, (m, p) in enumerate(self.ins)}
        self.fed: list[cp_model.IntVar] = []
        self.tanks: list[cp_model.LinearExprT] = []
        self.pipes: list[cp_model.LinearExprT] = []
        # what the pair cuts read: who is in which machine-fed network, who is supplied with what,
        # and the tiles (pipes and tanks) of each network and of each colour's supply networks
        self.member: dict[tuple[int, int], cp_model.IntVar] = {}
        self.takes: dict[tuple[int, int], cp_model.IntVar] = {}
        self.network_tiles: list[cp_model.LinearExprT] = []
        self.supplied: dict[tuple[int, str], cp_model.IntVar] = {}
        self.slots: dict[str, list[_Slot]] = {}   # each colour's supply networks (`_supply_networks`)
        self._relation_literals: dict[tuple, tuple[cp_model.IntVar, cp_model.LinearExprT]] = {}
        self._out_tiles: dict[int, cp_model.IntVar] = {}
        self.junction_cost: cp_model.IntVar | int = 0   # a game's waste around port-to-port feeds
        self.joined = False       # the tree cuts of whole groups too (`topology_bound`)
        self.want_trees = False   # the answer carries the solution's groups as trees
        self.last_fed: list[int] | None = None   # the fed pattern of the last solution `solve` settled on
        sides = len(ruleset.geometry.sides)
        self.pipe_sides = sides if ruleset.x_splitter_available or sides != 4 else 3
        self.tank_sides = 1 if ruleset.oriented_tanks else sides

    def _fewest_pipes(self, ports: cp_model.LinearExprT, tanks: cp_model.LinearExprT, networks: int | cp_model.LinearExprT,
                      name: str) -> cp_model.IntVar:
        """Pipes that connecting `ports` ports and `tanks` tanks in `networks` trees needs at least.

        In a tree every port is a leaf, a pipe has at most `pipe_sides`
        neighbours and a tank at most `tank_sides`; counting edges gives
        (pipe_sides - 2) * pipes >= ports + (2 - tank_sides) * tanks - 2 * networks.
        """
        pipes = self.model.NewIntVar(0, 100, name)
        self.model.Add((self.pipe_sides - 2) * pipes >= ports + (2 - self.tank_sides) * tanks - 2 * networks)
        return pipes

    def add_networks(self) -> None:
        """Machine-fed networks: which outputs and inputs share one, its colour, quantity, reservoir and pipes."""
        model, outs, ins = self.model, self.outs, self.ins
        k_range = range(len(outs))
        member = self.member = {(o, k): model.NewBoolVar(f"out[{o}]in[{k}]") for o in k_range for k in k_range if k <= o}
        takes = self.takes = {(i, k): model.NewBoolVar(f"in[{i}]in[{k}]") for i in range(len(ins)) for k in k_range}
        colour = {(k, c): model.NewBoolVar(f"colour[{k},{c}]") for k in k_range for c in self.ruleset.colors}
        reservoirs = []
        for o, (m, _) in enumerate(outs):
            model.Add(sum(member[o, k] for k in range(o + 1)) == self.placed[m])
        for k in k_range:
            active = member[k, k]
            model.Add(sum(colour[k, c] for c in self.ruleset.colors) == active)
            for o in range(k, len(outs)):
                model.AddImplication(member[o, k], active)
                model.Add(member[o, k] <= sum(colour[k, c] for c in outs[o][1].colors if c in self.ruleset.colors))
            # a network rank between its producers and its consumers keeps feeds acyclic with
            # O(networks x ports) rows instead of one per (network, output, input) triple
            level = model.NewIntVar(0, self.top_rank, f"level[{k}]")
            for o in range(k, len(outs)):
                model.Add(self.rank[outs[o][0]] < level).OnlyEnforceIf(member[o, k])
            for i, (b, pi) in enumerate(ins):
                model.Add(takes[i, k] <= sum(colour[k, c] for c in pi.colors if c in self.ruleset.colors))
                model.Add(level < self.rank[b]).OnlyEnforceIf(takes[i, k])
            inputs = sum(takes[i, k] for i in range(len(ins)))
            model.Add(sum((pi.amount or 0) * takes[i, k] for i, (_, pi) in enumerate(ins))
                      <= sum((outs[o][1].amount or 0) * member[o, k] for o in range(k, len(outs))))
            # an output network that reaches no input needs an output reservoir
            reservoir = model.NewIntVar(0, self.ruleset.output_limit, f"reservoir[{k}]")
            model.Add(reservoir >= active - inputs)
            model.Add(reservoir <= self.ruleset.output_limit * active)
            reservoirs.append(reservoir)
            ports = inputs + sum(member[o, k] for o in range(k, len(outs)))
            self.pipes.append(self._fewest_pipes(ports, reservoir, active, f"pipes[{k}]"))
            self.network_tiles.append(self.pipes[-1] + reservoir)
        model.Add(sum(reservoirs) <= self.ruleset.output_limit)
        self.tanks.extend(reservoirs)
        for i, (b, _) in enumerate(ins):
            fed = model.NewBoolVar(f"fed[{i}]")
            model.Add(fed == sum(takes[i, k] for k in k_range))
            model.AddImplication(fed, self.placed[b])
            self.fed.append(fed)
        # redundant per colour, for the LP: fed points of a colour never exceed the output points that may
        # carry it (the planner's 30-machine relaxations: 175-181 after 6 s with this row, 185-223 without)
        for c in self.ruleset.colors:
            k_in = [(i, pi) for i, (_, pi) in enumerate(ins) if pi.colors == (c,)]
            if k_in:
                model.Add(sum((pi.amount or 0) * self.fed[i] for i, pi in k_in)
                          <= sum((po.amount or 0) * self.placed[a] for a, po in outs if c in po.colors))
        # one end-product reservoir per black output, beside it
        self.tanks.append(sum(self.placed[m] for m in self.ids for p in self.catalog[m].outputs if p.is_black))

    def add_area(self, cells: int) -> None:
        """The placed machines' bodies, the tanks and the pipes fit in the board's `cells` playable cells.

        A cell holds one machine cell or one tank, or up to `max_pipes_per_cell` pipes (a double
        connector holds two). Only --optional picks from many machines feel it: all fifty-five machines
        of the square catalogue had a bound of 792 on a board of 77 cells (642 with it).
        """
        per_cell = self.ruleset.max_pipes_per_cell
        body = self.ruleset.machine_shape.cell_count
        self.model.Add(per_cell * (body * sum(self.placed.values()) + sum(self.tanks)) + sum(self.pipes)
                       <= per_cell * cells)

    def add_junction_cost(self) -> None:
        """A game pays, beyond its final layout, at least one point per `junctions_per_point` networks
        that are an output and an input facing each other with no tile between.

        A game lays one new machine a round, so of two machines joined port to port one
        stood first, and its port faced the later one's cell X before that machine was
        laid: a loose end, unless something stood at X (a tile bought and later lifted or
        moved: 1 point not in the final layout; a machine moved away: its move), or the
        first machine stood elsewhere and moved (its move). A tile clears one cell, so one
        point clears the junctions into one cell; a move clears one machine's ports.
        """
        model = self.model
        zero = []
        for k, tiles in enumerate(self.network_tiles):
            joined = model.NewBoolVar(f"port_to_port[{k}]")
            model.Add(joined >= self.member[k, k] - tiles)
            zero.append(joined)
        self.junction_cost = model.NewIntVar(0, len(zero), "junction_cost")
        per_point = junctions_per_point(self.ruleset, self.catalog, self.ids)
        model.Add(per_point.numerator * self.junction_cost >= per_point.denominator * sum(zero))

    def add_supplies(self) -> None:
        """Every input not fed by machines takes one of its colours from that colour's supply containers."""
        model, rules = self.model, self.ruleset
        per_colour: dict[str, list[cp_model.IntVar]] = {c: [] for c in rules.colors}
        for i, (b, pi) in enumerate(self.ins):
            choices = [c for c in pi.colors if c in rules.colors]
            picks = {c: model.NewBoolVar(f"supplied[{i},{c}]") for c in choices}
            model.Add(sum(picks.values()) == self.placed[b] - self.fed[i])
            for c, pick in picks.items():
                per_colour[c].append(pick)
                self.supplied[i, c] = pick
        bonus = {c: [m for m in self.ids if rules.bonus_supply and self.catalog[m].bonus_supply in (c, "any")]
                 for c in rules.colors}
        for c, picks in per_colour.items():
            if not picks:
                continue
            limit = rules.supply_per_color + len(bonus[c])
            containers = model.NewIntVar(0, limit, f"containers[{c}]")
            model.Add(containers <= rules.supply_per_color + sum(self.placed[m] for m in bonus[c]))
            for pick in picks:
                model.Add(containers >= pick)
            self.tanks.append(containers)
            takers = [i for i, (_, pi) in enumerate(self.ins) if (i, c) in self.supplied]
            self.slots[c] = self._supply_networks(c, takers, containers, limit)

    def _supply_networks(self, c: str, takers: list[int], containers: cp_model.IntVar, limit: int) -> list[_Slot]:
        """Colour `c`'s supply networks: one per container the player may lay, each input supplied with `c` in one.

        A network holds one container or more (each container heads one network), so with a
        bonus machine's second container the inputs of `c` may split into two networks. Which
        inputs share one is what the supply relations of the pair, triangle and tree cuts ask
        (two inputs in one network), so each network is a *slot* the inputs choose: with a single
        container every input of `c` is in slot 0 (the model before slots, unchanged); with more,
        the relaxation could otherwise feed six inputs from two containers with no pipe and no cut
        (classic-A FF01,FF03,FF07,FF15,FF18,FF21,FF25,FF33,FF39,FF45: blue, FF33's "+").
        """
        model = self.model
        if limit <= 1:
            pipes = self._fewest_pipes(sum(self.supplied[i, c] for i in takers), containers, containers,
                                       f"supply_pipes[{c}]")
            self.pipes.append(pipes)
            return [_Slot({i: self.supplied[i, c] for i in takers}, containers + pipes)]
        slots: list[_Slot] = []
        counts = []
        for j in range(limit):
            # slots are interchangeable: the n-th input of the colour is in one of the first n slots
            joins = {i: model.NewBoolVar(f"supply[{c},{j}]in[{i}]") for n, i in enumerate(takers) if n >= j}
            used = model.NewBoolVar(f"supply_used[{c},{j}]")
            for join in joins.values():
                model.AddImplication(join, used)
            model.Add(used <= sum(joins.values()))
            if slots:
                model.AddImplication(used, slots[-1].used)
            count = model.NewIntVar(0, limit, f"supply_containers[{c},{j}]")
            model.Add(count >= used)
            model.Add(count <= limit * used)
            counts.append(count)
            pipes = self._fewest_pipes(sum(joins.values()), count, used, f"supply_pipes[{c},{j}]")
            self.pipes.append(pipes)
            slots.append(_Slot(joins, count + pipes, used))
        model.Add(sum(counts) == containers)
        for i in takers:
            model.Add(sum(slot.joins[i] for slot in slots if i in slot.joins) == self.supplied[i, c])
        return slots

    def add_pair_cuts(self, deadline: float = math.inf) -> None:
        """Two networks joining the same two machines hold at least `pair_tiles` tiles together.

        Not with the diagonal tile, whose one pipe spans two cells: the path counts
        of solver/pair_cuts.py assume a pipe per cell (the callers decide). A supply
        relation holds when both inputs are in one supply network of that colour
        (`_supply_networks`). Past `deadline` the pairs left get no cut (fewer cuts, a sound bound): fifty
        offered machines have 1 225 pairs, seconds of tables (QA: a 3 s plan spent 7.5 s here, then had no
        time left to plan anything).
        """
        for a, b in combinations(self.ids, 2):
            if past(deadline):
                return
            for rels in relation_sets(self.ruleset, self.catalog, a, b, 2) + relation_sets(self.ruleset, self.catalog, a, b, 3):
                least = pair_tiles(self.ruleset, self.catalog, a, b, rels)
                if least > sum(1 for r in rels if r.kind == "supply"):   # else the relaxation counts it already
                    self.add_cut(Cut([(r, (a, b)) for r in rels], least))

    def _holds(self, relation: Relation, pair: tuple[str, str]) -> tuple[cp_model.IntVar, cp_model.LinearExprT]:
        """A literal forced true whenever the relation holds, and a lower bound on its network's tiles.

        One literal per relation, shared by every cut through it (not one row per network a
        feed may be in: a triangle of three feeds would need up to a thousand rows).
        """
        first, second = relation.ports(pair)
        key = (relation.kind, first, second, relation.color)
        if key not in self._relation_literals:
            model = self.model
            holds = model.NewBoolVar(f"holds{key}")
            if relation.kind == "feed":
                o, i = self._out_index[first], self._in_index[second]
                for k in range(o + 1):
                    model.AddBoolOr([self.member[o, k].Not(), self.takes[i, k].Not(), holds])
                tiles = self._output_tiles(o)
            else:
                tiles = self._shared_supply_tiles(relation.color, self._in_index[first], self._in_index[second], holds)
            self._relation_literals[key] = (holds, tiles)
        return self._relation_literals[key]

    def _shared_supply_tiles(self, c: str, i1: int, i2: int, holds: cp_model.IntVar) -> cp_model.LinearExprT:
        """`holds` whenever inputs `i1` and `i2` are in one supply network of colour `c`; at most its tiles then."""
        slots = [slot for slot in self.slots[c] if i1 in slot.joins and i2 in slot.joins]
        for slot in slots:
            self.model.AddBoolOr([slot.joins[i1].Not(), slot.joins[i2].Not(), holds])
        if len(self.slots[c]) == 1:
            return self.slots[c][0].tiles
        tiles = self.model.NewIntVar(0, 100, f"shared_supply_tiles[{c},{i1},{i2}]")
        for slot in slots:
            self.model.Add(tiles <= slot.tiles).OnlyEnforceIf([slot.joins[i1], slot.joins[i2]])
        return tiles

    def _output_tiles(self, o: int) -> cp_model.IntVar:
        """At most the tiles of the network output `o` is in."""
        if o not in self._out_tiles:
            tiles = self._out_tiles[o] = self.model.NewIntVar(0, 100, f"output_tiles[{o}]")
            for k in range(o + 1):
                self.model.Add(tiles <= self.network_tiles[k]).OnlyEnforceIf(self.member[o, k])
        return self._out_tiles[o]

    def violated_cuts(self, solver: cp_model.CpSolver, deadline: float = math.inf,
                      caps: tuple[int, ...] = (TRIANGLE_CAP,)) -> list[Cut]:
        """Cuts the solution violates: triangles of relations it uses (`triangle_tiles`), two relations
        through one machine and its clusters of cheap relations (`tree_tiles`, embedded with relation
        tables up to the last of `caps`). Past `deadline` it gives back those found so far (building
        tables and embedding trees take seconds for ten machines)."""
        placed, held = self._held(solver)
        out: list[Cut] = []
        for a, b, c in combinations(placed, 3):
            if past(deadline):
                return out
            for (ab, net1, t1), (bc, net2, t2), (ac, net3, t3) in product(held[a, b], held[b, c], held[a, c]):
                if len({net1, net2, net3}) < 3 or t1 + t2 + t3 >= TRIANGLE_CAP:
                    continue  # one network twice (a supply network), or nothing to gain
                least = triangle_tiles(self.ruleset, self.catalog, (a, b, c), ab, bc, ac)
                if least > t1 + t2 + t3:
                    out.append(Cut(list(zip((ab, bc, ac), ((a, b), (b, c), (a, c)))), least))
        for b in placed:
            for a, c in combinations([m for m in placed if m != b], 2):
                if past(deadline):
                    return out
                for (ba, net1, t1), (bc, net2, t2) in product(held[b, a], held[b, c]):
                    if t1 + t2 < TRIANGLE_CAP:
                        out.extend(self._violated_tree(solver, [(b, a, ba, net1, t1), (b, c, bc, net2, t2)], caps,
                                                       deadline=deadline))
        for tree in _cheap_trees(placed, held):
            if past(deadline):
                return out
            out.extend(self._violated_tree(solver, tree, caps, deadline=deadline))
        if self.joined and caps[-1] >= CUT_CAPS[-1]:   # the last stage: whole groups, joined by shared networks
            for tree in _spanning_trees(placed, held):
                if past(deadline):
                    return out
                out.extend(self._violated_tree(solver, tree, caps + FREE_CAPS, joined=True, deadline=deadline))
        return out

    def _held(self, solver: cp_model.CpSolver
              ) -> tuple[list[str], dict[tuple[str, str], list[tuple[Relation, tuple, int]]]]:
        """The machines the solution places, and for each ordered pair of them the relations it holds
        (with their network and its tiles)."""
        placed = [m for m in self.ids if solver.Value(self.placed[m])]
        held: dict[tuple[str, str], list[tuple[Relation, tuple, int]]] = {}
        for x, y in combinations(placed, 2):
            held[x, y] = [(r, *seen) for r in relations(self.ruleset, self.catalog, x, y)
                          if (seen := self._seen(solver, r, (x, y))) is not None]
            held[y, x] = [(r.swapped(), net, tiles) for r, net, tiles in held[x, y]]
        return placed, held

    def trees(self, solver: cp_model.CpSolver) -> list[Tree]:
        """The solution's groups of machines (every placed machine in one), each a tree of held relations
        with the networks among its machines, shared networks counted whole (`_violated_tree`'s `joined`);
        the biggest group first."""
        placed, held = self._held(solver)
        groups = [self._tree_question(solver, edges, True)[0] if edges else Tree((root,), ())
                  for root, edges in _spanning_trees(placed, held, fewest=0, roots=True)]
        return sorted(groups, key=lambda tree: -len(tree.names))

    def _tree_question(self, solver: cp_model.CpSolver, edges: list[TreeEdge], joined: bool
                       ) -> tuple[Tree, list[TreeEdge], list[tuple[list[tuple[str, str]], list[Held], int]]]:
        """A tree of held relations (parents first) as `tree_tiles` asks it, with the other networks the
        solution runs among its machines; the edges whose networks it counts through their relation, and
        the networks it counts whole (ports, the relations holding them, their tiles now).

        `joined`: an edge whose network reaches three or more of the tree's machines is free (it only
        lays its child near its parent) and that network is counted whole, with all its ports."""
        names = [edges[0][0]] + [child for _, child, _, _, _ in edges]
        every = self._networks_among(solver, names, set())
        wide = {key for key, ports, _, _ in every if joined and len(ports) >= 3}
        free = frozenset(k for k, (*_, net, _) in enumerate(edges) if net in wide)
        counted = [e for k, e in enumerate(edges) if k not in free]
        skip = {net for *_, net, _ in counted}
        nets = [(ports, held, tiles) for key, ports, held, tiles in every if key not in skip]
        paid = sum(t for *_, t in counted) + sum(tiles for _, _, tiles in nets)
        tree = Tree(tuple(names), tuple((names.index(p), names.index(c), r) for p, c, r, _, _ in edges),
                    tuple(tuple((names.index(m), at) for m, at in ports) for ports, _, _ in nets), free, paid)
        return tree, counted, nets

    def _violated_tree(self, solver: cp_model.CpSolver, tree: list[TreeEdge], caps: tuple[int, ...],
                       joined: bool = False, deadline: float = math.inf) -> list[Cut]:
        """The cut of `tree_tiles` for a tree of held relations (parents first) and the other networks
        the solution runs among its machines, if the solution violates it: on the fewest edges that
        still do (leaves are dropped while the rest stays violated, so the cut binds in more solutions).
        `joined` as `_tree_question` says."""
        def cut(edges: list[TreeEdge], whole: bool = False) -> tuple[Cut, int]:
            question, counted, nets = self._tree_question(solver, edges, joined)
            now = question.paid
            least = tree_tiles(self.ruleset, self.catalog, question.names, question.edges, question.nets, caps,
                               goal=now + TREE_REACH, need=now + 1 if whole else None, free=question.free,
                               deadline=deadline)
            edge_terms = [(r, (p, c)) for p, c, r, _, _ in edges]
            return Cut(edge_terms + [h for _, held, _ in nets for h in held], least,
                       [(r, (p, c)) for p, c, r, _, _ in counted] + [held[0] for _, held, _ in nets]), now

        def violated(edges: list[TreeEdge], whole: bool = False) -> bool:
            found, now = cut(edges, whole)
            return found.least > now

        # only the whole tree's search gets a bigger budget when it falls short: the trees with a leaf
        # dropped are tried to make the cut bind in more solutions, not to find one
        if not violated(tree, whole=True):
            return []
        for edge in reversed(tree[:]):
            if len(tree) > 2 and not any(p == edge[1] for p, *_ in tree):
                rest = [e for e in tree if e is not edge]
                if violated(rest):
                    tree = rest
        return [cut(tree)[0]]

    def _networks_among(self, solver: cp_model.CpSolver, names: list[str], skip: set[tuple]
                        ) -> list[tuple[tuple, list[tuple[str, str]], list[Held], int]]:
        """The solution's networks (not in `skip`) that join two or more of the machines `names`:
        a supply network of one colour, or an output feeding inputs of other machines. Each as
        (its key as `_seen` names it, one port of each such machine, the relations that put them in it,
        its tiles now)."""
        out = []
        for c, slots in self.slots.items():
            for j, slot in enumerate(slots):
                if ("supply", c, j) in skip:
                    continue
                ports: dict[str, str] = {}
                for i, join in slot.joins.items():
                    m, port = self.ins[i]
                    if m in names and m not in ports and solver.Value(join):
                        ports[m] = port.at
                joined = list(ports.items())
                held = [(Relation("supply", (0, joined[0][1]), (1, at), c), (joined[0][0], m)) for m, at in joined[1:]]
                if held:
                    out.append((("supply", c, j), joined, held, solver.Value(slot.tiles)))
        for k in range(len(self.outs)):
            if ("net", k) in skip or not solver.Value(self.member[k, k]):
                continue
            hub = next(((m, p.at) for o, (m, p) in enumerate(self.outs[k:], k)
                        if m in names and solver.Value(self.member[o, k])), None)
            if hub is None:
                continue
            ports = {hub[0]: hub[1]}
            for i, (m, p) in enumerate(self.ins):
                if m in names and m not in ports and solver.Value(self.takes[i, k]):
                    ports[m] = p.at
            joined = list(ports.items())
            held = [(Relation("feed", (0, hub[1]), (1, at), None), (hub[0], m)) for m, at in joined[1:]]
            if held:
                out.append((("net", k), joined, held, solver.Value(self.network_tiles[k])))
        return out

    def _seen(self, solver: cp_model.CpSolver, relation: Relation, pair: tuple[str, str]) -> tuple[tuple, int] | None:
        """(its network, that network's tiles) when the relation holds in the solution, else None."""
        first, second = relation.ports(pair)
        if relation.kind == "feed":
            o, i = self._out_index[first], self._in_index[second]
            for k in range(o + 1):
                if solver.Value(self.member[o, k]) and solver.Value(self.takes[i, k]):
                    return ("net", k), solver.Value(self.network_tiles[k])
            return None
        c, ends = relation.color, (self._in_index[first], self._in_index[second])
        for j, slot in enumerate(self.slots[c]):
            if all(i in slot.joins and solver.Value(slot.joins[i]) for i in ends):
                return ("supply", c, j), solver.Value(slot.tiles)
        return None

    def add_cut(self, cut: Cut, pool: bool = False) -> None:
        """The cut as a conditional row; with `pool`, kept for later relaxations too (`add_pooled_cuts`)."""
        tiles = [self._holds(r, pair)[1] for r, pair in cut.terms()]
        self.model.Add(sum(tiles) >= cut.least).OnlyEnforceIf([self._holds(r, pair)[0] for r, pair in cut.held])
        if pool:
            self._pool(cut)

    def cost(self, count_pipes: bool) -> cp_model.LinearExprT:
        return sum(self.tanks) + (sum(self.pipes) if count_pipes else 0) + self.junction_cost

    def profit(self, count_pipes: bool) -> cp_model.LinearExprT:
        income = sum(self.catalog[m].income * self.placed[m] for m in self.ids)
        bonus = self.ruleset.chain_bonus_per_point * sum(
            (p.amount or 0) * fed for (_, p), fed in zip(self.ins, self.fed))
        return income + bonus - self.cost(count_pipes)

    def solve(self, time_limit: float, count_pipes: bool, triangles: bool = False, pooled: bool = True
              ) -> TopologyBound:
        """Solve to optimality; with `triangles`, add the triangle and tree cuts the solution violates and solve
        again, until none is violated or the time is up. Every round's bound is sound (the cuts are),
        so a round that runs out of time gives back the last optimal round's answer. `pooled`: start from
        the cuts found before (`add_pooled_cuts`)."""
        model = self.model
        if self.objective == "cost":
            model.Minimize(self.cost(count_pipes))
        else:
            model.Maximize(self.profit(count_pipes))
        deadline = time.monotonic() + time_limit
        answer: TopologyBound | None = None
        stage = 1   # the cuts from the smallest relation tables first: the bigger ones cost seconds
        if triangles and pooled:
            self.add_pooled_cuts()
        while True:
            solver = cp_model.CpSolver()
            solver_parameters(solver, max(0.01, deadline - time.monotonic()), 1, 0)
            status = solver.Solve(model)
            if status == cp_model.INFEASIBLE:
                return TopologyBound(None, True, self.ids, infeasible=True)
            if status != cp_model.OPTIMAL:
                return answer or self._answer(solver, status)
            answer = self._answer(solver, status)
            cuts: list[Cut] = []
            answer.settled = not triangles
            while triangles and time.monotonic() < deadline:
                cuts = self.violated_cuts(solver, deadline, CUT_CAPS[:stage])
                if cuts or stage == len(CUT_CAPS):
                    answer.settled = not cuts and time.monotonic() < deadline
                    break
                stage += 1
            if not cuts:
                if self.want_trees:
                    answer.trees = self.trees(solver)
                self.last_fed = [solver.Value(fed) for fed in self.fed]
                return answer
            for cut in cuts:
                self.add_cut(cut, pool=True)

    def add_pooled_cuts(self) -> None:
        """The cuts found before (by any relaxation) among this relaxation's machines."""
        mine = {m: self.catalog[m] for m in self.ids}
        with _POOL_LOCK:
            found = list(_CUT_POOL.get(self.ruleset.id, {}).values())
        for machines, cut in found:
            if all(mine.get(m) == entry for m, entry in machines):
                self.add_cut(cut)

    def _pool(self, cut: Cut) -> None:
        machines = sorted({m for _, pair in cut.held + list(cut.terms()) for m in pair})
        key = (tuple(cut.held), cut.least, tuple(cut.terms()))
        entry = (tuple((m, self.catalog[m]) for m in machines), cut)
        with _POOL_LOCK:
            _CUT_POOL.setdefault(self.ruleset.id, {})[key] = entry

    def _answer(self, solver: cp_model.CpSolver, status: int) -> TopologyBound:
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return TopologyBound(None, False, self.ids)
        order = sorted(self.ids, key=lambda m: solver.Value(self.rank[m]))
        value = int(round(solver.BestObjectiveBound()))
        chosen = [m for m in order if solver.Value(self.placed[m])]
        return TopologyBound(value, status == cp_model.OPTIMAL, order, chosen=chosen)


#: relations whose networks hold at most this many tiles in the relaxation's solution make its rigid clusters
CHEAP_TILES = 1

#: a tree's tiles are searched for only up to this many above what the solution pays for them: the
#: search prunes from there, and a cut that much stronger is enough for the next round
TREE_REACH = 3


def _cheap_trees(placed: list[str], held: dict[tuple[str, str], list[tuple[Relation, tuple, int]]]
                 ) -> list[list[TreeEdge]]:
    """Spanning trees (parents first) of the machines joined by cheap held relations, three edges or more.

    Port-to-port feeds (no tile) and containers touching two ports (one) leave machines
    little room: a cluster of them is nearly rigid, and often cannot be laid at all.
    """
    seen: set[str] = set()
    trees = []
    for root in placed:
        if root in seen:
            continue
        seen.add(root)
        tree, queue = [], [root]
        while queue:
            parent = queue.pop(0)
            for child in placed:
                if child in seen:
                    continue
                cheap = [(t, i) for i, (_, _, t) in enumerate(held[parent, child]) if t <= CHEAP_TILES]
                if cheap:
                    t, i = min(cheap)
                    tree.append((parent, child, *held[parent, child][i]))
                    seen.add(child)
                    queue.append(child)
        if len(tree) >= 3:
            trees.append(tree)
    return trees


def _spanning_trees(placed: list[str], held: dict[tuple[str, str], list[tuple[Relation, tuple, int]]],
                    fewest: int = 3, roots: bool = False) -> list:
    """A spanning tree (parents first) of each group of machines the held relations join, `fewest` edges or
    more, grown from the cheapest relation out (Prim's order: rigid parts are laid first, and a relation
    of a network shared by many machines last, where it only joins clusters); with `roots`, each as
    (its root, its edges), so a machine joined to none is a tree too.

    `_cheap_trees` stops at relations costing more than a tile, so two rigid clusters joined only by a
    colour's one container are never seen together; here they are.
    """
    seen: set[str] = set()
    trees: list = []
    for root in placed:
        if root in seen:
            continue
        grown = {root: None}   # (a dict keeps the order machines joined: the trees are the same every run)
        tree: list[TreeEdge] = []
        while True:
            reach = [(tiles, r.kind != "feed", parent, child, r, net) for parent in grown for child in placed
                     if child not in grown and child not in seen for r, net, tiles in held[parent, child]]
            if not reach:
                break
            tiles, _, parent, child, r, net = min(reach, key=lambda e: e[:2])
            tree.append((parent, child, r, net, tiles))
            grown[child] = None
        seen |= set(grown)
        if len(tree) >= fewest:
            trees.append((root, tree) if roots else tree)
    return trees


def junctions_per_point(ruleset: Ruleset, catalog: Catalog, ids: list[str]) -> Fraction:
    """The most port-to-port junctions one point of a game's waste can clear (`add_junction_cost`):
    the most ports one machine cell holds (a tile lifted from the cell), or a machine's ports per
    point of a machine move (square Factory Fun: 3, three ports on one cell)."""
    geometry, shape = ruleset.geometry, ruleset.machine_shape
    most = Fraction(1)
    for m in set(ids):
        machine = catalog[m]
        per_cell = Counter(shape.locate(geometry, (0, 0), 0, p.at)[0] for p in machine.ports)
        most = max(most, Fraction(max(per_cell.values(), default=1)))
        if ruleset.max_machine_moves > 0:
            most = max(most, Fraction(len(machine.ports), ruleset.machine_move_cost))
    return most


def infeasibility_reason(ruleset: Ruleset, board: Board, catalog: Catalog, machine_ids: list[str]) -> str | None:
    """A player-readable reason why these machines can never all be built, or None.

    Cheap checks only: fewer free cells than machines plus the tiles they must
    have, or a machine that fits nowhere with its ports facing playable cells.
    """
    cells = len(board.cells)
    body = ruleset.machine_shape.cell_count
    needed = body * len(machine_ids)
    ends = sum(1 for m in machine_ids for p in catalog[m].outputs if p.is_black)
    # the first machine in any feeding order is fed by supply containers only
    first_inputs = min((len({p.colors for p in catalog[m].inputs}) for m in machine_ids), default=0)
    least = needed + ends + first_inputs
    if least > cells:
        # (QA: "1 machine need 2 cells plus at least 0 end-product reservoirs and 2 supply containers")
        tanks = [counted(n, noun) for n, noun in ((ends, "end-product reservoir"), (first_inputs, "supply container"))
                 if n]
        return (f"too few free cells: board {board.id} has {counted(cells, 'playable cell')}, but "
                f"{counted(len(machine_ids), 'machine')} {'needs' if len(machine_ids) == 1 else 'need'} "
                f"{counted(needed, 'cell')}"
                + (f" plus at least {' and '.join(tanks)} ({least} in all)" if tanks else ""))
    for m in machine_ids:
        if not machine_placements(ruleset, board, catalog[m]):
            return (f"machine {m} fits nowhere on board {board.id}: every position puts a machine cell "
                    "off the board or a port against the border, a blocked cell or a pillar")
    return None
