"""The rounds of a game that ends in a given factory: each round's layout derived from the final one.

The planner's best handle on a game is its final factory F: a game ending in F
scores start money + the static score of F - whatever it paid for tiles that F
does not keep. This module lays F out round by round, paying as little as that
allows:

1. A machine stands where F has it from the round it is taken, and never moves.
2. Each network of F is laid as far as the machines present need it: the part of
   its graph that joins their ports and its tanks. Pipes keep only the sides that
   lead somewhere, so a T-splitter whose third branch waits for a later machine is
   a curve until then (the T costs 1 more when it comes).
3. What F cannot give yet is made good with temporary tiles:
   - an output whose takers come later waits at an output reservoir put on its
     network's path (the first cell along F's pipes that nothing else uses);
   - an input whose feeders come later, or feed too little yet, is fed by the
     sketch's router (solver/sketch) from its colour's supply network, a new
     supply container or a machine's spare output; so is any port the first two
     steps leave loose.
   Temporary tiles of the previous round are kept while they still fit, so each
   is paid once.
4. The rule checker judges every round's layout. A machine whose round cannot be
   made legal, or costs more than the money at hand, is not taken: it stays out
   for the rest of the game, and the rounds after it are laid without it.

The replay (models.replay) judges the whole game: a derived game it rejects is
a bug, raised as BuildOrderDisagreement.
"""
from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from itertools import combinations

from models.check import check_layout
from models.game import Game, Round
from models.geometry import Cell
from models.layout import Layout, Tile
from models.networks import Connectivity, Network, Node, connect, openings, partner
from models.replay import ReplayResult, replay_game, round_cost
from models.stock import SupplyStock

from .extract import prune
from .sketch.search import connect_loose, jittered_costs
from .sketch.state import Context, Costs, import_fixed, port_table, to_layout

#: sketch attempts (each with other random preferences) to connect what a round leaves loose
REPAIR_ATTEMPTS = 3


class BuildOrderDisagreement(AssertionError):
    """A derived game that the replay judges illegal (a bug in this module or in the replay)."""


@dataclass
class _Final:
    """The final factory with its networks and, per pipe end, the node that end meets."""

    layout: Layout
    conn: Connectivity
    meets: dict[tuple[int, int], Node | None]   # (pipe index, end index) -> partner node
    tiles: frozenset[Tile]                       # F's tiles: anything else laid is temporary

    @classmethod
    def of(cls, layout: Layout) -> "_Final":
        conn = connect(layout)
        active, passive = openings(layout)
        meets = {(i, k): partner(layout, active, passive, cell, side)
                 for i, pipe in enumerate(layout.pipes) for k, (cell, side) in enumerate(pipe.ends)}
        return cls(layout, conn, meets, frozenset(layout.tiles))

    def node_cell(self, node: Node) -> Cell:
        kind, index = node
        if kind == "port":
            return self.layout.ports[index].cell
        if kind == "pipe":
            return self.layout.tiles[self.layout.pipes[index].tile].cell
        return self.layout.tiles[index].cell

    def amount(self, port: int) -> int:
        return self.layout.ports[port].spec.amount or 0


@dataclass
class _Part:
    """What one network of F contributes to a round: kept nodes, inputs it cannot feed yet,
    and whether a waiting output needs a temporary reservoir."""

    keep: set[Node]
    starved: list[int]
    needs_reservoir: bool


def _fed_inputs(final: _Final, outputs: list[int], inputs: list[int]) -> list[int]:
    """The present inputs a product network can feed from its present outputs (most points kept)."""
    if not outputs:
        return []
    offer = sum(final.amount(p) for p in outputs)
    if sum(final.amount(p) for p in inputs) <= offer:
        return inputs
    best: tuple[int, ...] = ()
    for size in range(len(inputs), 0, -1):
        for subset in combinations(inputs, size):
            total = sum(final.amount(p) for p in subset)
            if total <= offer and total > sum(final.amount(p) for p in best):
                best = subset
    return list(best)


def _network_part(final: _Final, net: Network, present: set[int]) -> _Part:
    """The nodes of `net` a round with the machines `present` (indices into F) lays."""
    ports = final.layout.ports
    here = lambda p: ports[p].machine in present  # noqa: E731 (a predicate over port indices)
    outputs = [p for p in net.outputs if here(p)]
    inputs = [p for p in net.inputs if here(p)]
    if not outputs and not inputs:
        return _Part(set(), [], False)
    if len(outputs) + len(inputs) == len(net.outputs) + len(net.inputs):
        return _Part(set(net.nodes), [], False)   # every port is there: the network as F has it
    starved: list[int] = []
    terminals: set[Node] = {("port", p) for p in outputs}
    if net.supplies:
        terminals |= {("port", p) for p in inputs} | {("tank", net.supplies[0])}
    else:
        fed = _fed_inputs(final, outputs, inputs)
        starved = [p for p in inputs if p not in fed]
        terminals |= {("port", p) for p in fed}
        if outputs:
            terminals |= {("tank", t) for t in net.output_tanks + net.end_tanks}
    absent = {("port", p) for p in net.inputs + net.outputs if not here(p)} | {("port", p) for p in starved}
    keep = set(net.nodes) - absent
    graph = final.conn.graph
    degree = {n: sum(1 for m in graph[n] if m in keep) for n in keep}
    leaves = deque(n for n in keep if n not in terminals and degree[n] <= 1)
    while leaves:  # trim branches that lead to nothing present
        node = leaves.popleft()
        if node not in keep:
            continue
        keep.discard(node)
        for m in graph[node]:
            if m in keep:
                degree[m] -= 1
                if m not in terminals and degree[m] <= 1:
                    leaves.append(m)
    waiting = bool(outputs) and not net.supplies and not (terminals - {("port", p) for p in outputs}) & keep
    return _Part(keep, starved, waiting)


class _RoundLayout:
    """One round's layout in the making: F's parts, trimmed pipes and temporary reservoirs."""

    def __init__(self, final: _Final, present: set[int], early_supplies: bool = True):
        self.final, self.present = final, present
        self.keep: set[Node] = set()
        self.starved: list[int] = []
        self.reservoirs: dict[Cell, str | None] = {}      # temporary output reservoirs: cell -> hex side
        self.extra_ends: dict[int, set[int]] = {}         # pipe -> ends kept towards a temporary reservoir
        waiting: list[Network] = []
        for net in final.conn.networks:
            part = _network_part(final, net, present)
            self.keep |= part.keep
            self.starved += part.starved
            if part.needs_reservoir:
                waiting.append(net)
        if early_supplies:
            self._early_supplies()
        layout = final.layout
        self.used: set[Cell] = {c for c, m in layout.machine_cells.items() if m in present}
        self.used |= {final.node_cell(n) for n in self.keep if n[0] != "port"}
        self.faced = self._faced_cells()
        for net in waiting:
            self._place_reservoir(net)

    def _early_supplies(self) -> None:
        """A starved input's colour gets F's supply container now, if F has one not laid yet.

        Its route then ends at the container F keeps, instead of at a new one that
        would break the one-per-colour limit once F's own container comes.
        """
        layout = self.final.layout
        for port in self.starved:
            colours = set(layout.ports[port].spec.colors)
            supplies = [n for n in self.final.conn.networks if n.supplies and n.colors and n.colors & colours]
            if supplies and not any(set(n.nodes) & self.keep for n in supplies):
                self.keep.add(("tank", supplies[0].supplies[0]))

    def _kept_ends(self, pipe: int) -> list[int]:
        ends = self.final.layout.pipes[pipe].ends
        return [k for k in range(len(ends)) if self.final.meets[(pipe, k)] in self.keep] + sorted(
            self.extra_ends.get(pipe, ()))

    def _faced_cells(self) -> dict[Cell, set[Node]]:
        """Cells that a kept port or pipe end faces (a square reservoir there would join it)."""
        layout, faced = self.final.layout, {}
        for node in self.keep:
            kind, index = node
            if kind == "port":
                ends = [(layout.ports[index].cell, layout.ports[index].side)]
            elif kind == "pipe":
                ends = list(layout.pipes[index].ends)
            else:
                continue
            for cell, side in ends:
                other = layout.board.neighbour(cell, side)
                if other is not None:
                    faced.setdefault(other, set()).add(node)
        return faced

    def _place_reservoir(self, net: Network) -> None:
        """A temporary output reservoir on `net`'s path: walk F's pipes from the kept part to a free cell."""
        final, graph = self.final, self.final.conn.graph
        members = set(net.nodes)
        start = [n for n in self.keep if n in members]
        parent: dict[Node, Node] = {}
        queue = deque(start)
        seen = set(start)
        while queue:
            node = queue.popleft()
            for nxt in graph[node]:
                if nxt in seen or nxt not in members or nxt[0] == "tank":
                    continue
                seen.add(nxt)
                parent[nxt] = node
                cell = final.node_cell(nxt)
                if self._free_for(cell, net):
                    self._lay_path(nxt, parent, cell)
                    return
                if nxt[0] == "pipe" and cell not in self.reservoirs:  # (no pipe through another's reservoir)
                    queue.append(nxt)
        # no free cell on F's path: the output is left loose and the repair routes it

    def _free_for(self, cell: Cell, net: Network) -> bool:
        if cell in self.used or cell in self.reservoirs:
            return False
        members = set(net.nodes)
        return all(n in members for n in self.faced.get(cell, ()))

    def _lay_path(self, end: Node, parent: dict[Node, Node], cell: Cell) -> None:
        """Keep F's pipes from the kept part to `end`, and put the reservoir in `end`'s cell."""
        layout = self.final.layout
        previous = parent[end]
        side = None
        if layout.ruleset.oriented_tanks:
            side = self._side_towards(previous, cell)
        self.reservoirs[cell] = side
        self.used.add(cell)
        node = previous
        while node[0] == "pipe" and node not in self.keep:
            self.keep.add(node)
            self.used.add(self.final.node_cell(node))
            node = parent[node]
        if previous[0] == "pipe":
            self._keep_end_towards(previous, cell)

    def _side_towards(self, node: Node, cell: Cell) -> str:
        """The side of `cell` that faces `node` (a hex reservoir opens there)."""
        layout = self.final.layout
        geometry = layout.ruleset.geometry
        ends = ([(layout.ports[node[1]].cell, layout.ports[node[1]].side)] if node[0] == "port"
                else list(layout.pipes[node[1]].ends))
        for c, s in ends:
            if layout.board.neighbour(c, s) == cell:
                return geometry.opposite(s)
        raise AssertionError(f"node {node} does not face cell {cell}")

    def _keep_end_towards(self, pipe: Node, cell: Cell) -> None:
        layout = self.final.layout
        for k, (c, s) in enumerate(layout.pipes[pipe[1]].ends):
            if layout.board.neighbour(c, s) == cell:
                self.extra_ends.setdefault(pipe[1], set()).add(k)

    def layout(self) -> Layout:
        final = self.final.layout
        geometry = final.ruleset.geometry
        machines = tuple(m for i, m in enumerate(final.machines) if i in self.present)
        tiles: list[Tile] = []
        for node in sorted(self.keep):
            kind, index = node
            if kind == "tank":
                tiles.append(final.tiles[index])
            elif kind == "pipe":
                pipe = final.pipes[index]
                tile = final.tiles[pipe.tile]
                if tile.kind == "diagonal":  # one tile for two pipes: laid whole when either is needed
                    tiles.append(tile)
                    continue
                sides = {pipe.ends[k][1] for k in self._kept_ends(index)}
                if sides == set(tile.sides or ()):
                    tiles.append(tile)
                elif len(sides) >= 2:
                    tiles.append(Tile("pipe", tile.cell, sides=tuple(s for s in geometry.sides if s in sides)))
        tiles += [Tile("output", cell, side=side) for cell, side in sorted(self.reservoirs.items())]
        return final.with_parts(machines=machines, tiles=tuple(dict.fromkeys(tiles)))


def _with_temporaries(part: Layout, final_tiles: frozenset[Tile], previous: Layout, junctions: bool = False) -> Layout:
    """`part` plus the previous round's tiles that F does not have, where they still fit and lead somewhere.

    A previous pipe that extends the part's pipe in its cell (a T where the part
    has a curve, grown to feed a temporary branch) stands in for it; a temporary
    pipe whose end lost its partner goes (an extended one shrinks back), and so
    may the pipes behind it. With `junctions`, a temporary output reservoir also
    stands in for the part's pipe in its cell (square reservoirs open wherever
    something reaches them, so the product passes through it), which saves that
    pipe; the checker then says whether it stays legal (colours, the limit of 3).
    """
    single = {cell: part.tiles[ix[0]] for cell, ix in part.tile_cells.items()
              if len(ix) == 1 and part.tiles[ix[0]].kind == "pipe"}
    occupied = set(part.machine_cells) | set(part.tile_cells)
    standing_in: dict[Tile, Tile] = {}      # previous extended pipe -> the part's pipe it replaces
    extra: list[Tile] = []
    for t in previous.tiles:
        if t in final_tiles or t.kind == "diagonal":
            continue
        if t.cell not in occupied:
            extra.append(t)
        elif t.cell in single and (
                (t.kind == "pipe" and set(t.sides or ()) > set(single[t.cell].sides or ()))
                or (junctions and t.kind == "output" and not part.ruleset.oriented_tanks)):
            standing_in[t] = single[t.cell]
    if not extra and not standing_in:
        return part
    replaced = set(standing_in.values())
    temporary = set(extra)
    tiles = [t for t in part.tiles if t not in replaced] + list(standing_in) + extra
    while True:
        layout = part.with_parts(tiles=tuple(tiles))
        loose = {layout.tiles[layout.pipes[e.node[1]].tile] for e in connect(layout).loose_ends if e.node[0] == "pipe"}
        loose = {t for t in loose if t in temporary or t in standing_in}
        if not loose:
            return prune(layout)
        # a loose temporary pipe goes; a loose extended pipe shrinks back to the part's
        tiles = [standing_in.get(t) if t in loose else t for t in tiles if t not in loose or t in standing_in]


def repairs(layout: Layout, seed: int):
    """Layouts connecting the loose ports of `layout` with the sketch's router (each attempt its own
    random preferences; nothing of `layout` moves, its pipes may be branched off)."""
    rules, catalog = layout.ruleset, layout.catalog
    stock = SupplyStock.of(rules, (catalog[m] for m in layout.machine_ids))
    end_limit = layout.options.get("end_limit")
    end_limit = rules.end_limit if end_limit is None else end_limit
    base = import_fixed(layout, extendable=True)
    rng = random.Random(seed)
    for attempt in range(REPAIR_ATTEMPTS):
        costs = Costs() if attempt == 0 else jittered_costs(rng)
        ctx = Context(rules, layout.board, catalog, port_table(catalog, []), random.Random(rng.random()),
                      costs, stock, rules.output_limit, end_limit)
        state = connect_loose(ctx, base, [])
        if state is None:
            continue
        repaired = to_layout(ctx, state, layout, extendable=True)
        if repaired is not None and _legal(repaired):
            yield repaired


def _legal(layout: Layout) -> bool:
    return check_layout(layout).legal


def round_layout(final: _Final, present: set[int], previous: Layout, seed: int = 0) -> Layout | None:
    """A legal layout holding F's machines `present`, as cheap to reach from `previous` as found, or None.

    Candidates: F's part with and without the previous round's temporary tiles
    (kept, nothing is paid twice; with and without temporary reservoirs kept as
    junctions), each with F's supply containers laid early for
    inputs that F's feeders cannot feed yet or not; a candidate that is not legal
    as it stands gets its loose ports routed. The cheapest round wins, ties going
    to the one with fewer temporary tiles.
    """
    reservoirs_waiting = any(t.kind == "output" and t not in final.tiles for t in previous.tiles)
    bases: list[Layout] = []
    for early in (True, False):
        part = _RoundLayout(final, present, early).layout()
        bases += [_with_temporaries(part, final.tiles, previous, junctions)
                  for junctions in ((True, False) if reservoirs_waiting else (False,))] + [part]
    price = lambda layout: (round_cost(previous, layout), len(layout.tiles))  # noqa: E731
    bases = sorted({_key(b): b for b in bases}.values(), key=price)
    for base in bases:  # cheapest first: the first legal one wins (the checker is the slow part)
        if _legal(base):
            return base
    repaired = [r for b in bases for r in repairs(b, seed)]
    return min(repaired, key=price, default=None)


def _key(layout: Layout) -> tuple:
    return tuple(sorted(map(repr, layout.tiles)))


def take_rounds(game: Game, final: Layout) -> dict[int, int]:
    """For each machine of `final` (index), the round that takes it: the earliest free round offering it."""
    used: set[int] = set()
    rounds: dict[int, int] = {}
    for i, m in sorted(enumerate(final.machines), key=lambda im: min(
            (t for t, r in enumerate(game.rounds) if im[1].id in r.offered), default=len(game.rounds))):
        t = next((t for t, r in enumerate(game.rounds) if m.id in r.offered and t not in used), None)
        if t is not None:
            used.add(t)
            rounds[i] = t
    return rounds


@dataclass
class BuiltGame:
    """A game derived from a final factory, with the replay's verdict."""

    rounds: list[Round]
    replay: ReplayResult
    skipped: list[str]          # machines of F that could not be taken (money or legality)

    @property
    def final_score(self) -> int:
        return self.replay.final_score


def build_towards(game: Game, final: Layout, seed: int = 0) -> BuiltGame:
    """The game that builds `final` round by round (as far as money and the rules allow), replayed."""
    target = _Final.of(final)
    taken_in = take_rounds(game, final)
    by_round = {t: i for i, t in taken_in.items()}
    rules, catalog = game.ruleset, game.context.catalog
    present: set[int] = set()
    previous, money = game.empty_layout(), game.start_money
    rounds: list[Round] = []
    skipped = [m.id for i, m in enumerate(final.machines) if i not in taken_in]
    for t, rnd in enumerate(game.rounds):
        index = by_round.get(t)
        layout = None
        if index is not None:
            layout = round_layout(target, present | {index}, previous, seed + t)
            if layout is not None:
                fee = rnd.first_pick_fee(rules)
                gain = catalog[final.machines[index].id].income + rnd.last_pick_token(rules)
                after = money + gain - fee - round_cost(previous, layout)
                if after < 1:
                    layout = None
                else:
                    money = after
            if layout is None:
                skipped.append(final.machines[index].id)
            else:
                present.add(index)
                previous = layout
        rounds.append(rnd.planned(None, None) if layout is None else rnd.planned(final.machines[index].id, layout))
    plan = game.with_rounds(rounds)
    replayed = replay_game(plan)
    if not replayed.legal:
        problems = "; ".join(f"round {n}: {v.rule}: {v.message}" for n, v in replayed.violations)
        raise BuildOrderDisagreement(f"internal error: a game derived from a final factory is illegal ({problems})")
    return BuiltGame(rounds, replayed, skipped)


