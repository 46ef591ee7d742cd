"""Refuting a fed pattern on open ground, one factory component at a time.

The prover (solver/prove.py) refutes a resisting fed pattern by splitting it
into one part per position of a machine on the real board: 164 parts on
classic-A, each a presolve of the whole board (about 1.7 s for a budget of two
pipes, and over 600 s in all for three). Most of those parts are the same
question asked at another place. This module asks it once:

1. A legal layout falls apart into *physical components*: machines joined by
   any network (a machine feeding another, a shared supply container, a shared
   output network). Each component is a legal layout on its own, and the score
   is the sum of the components' scores. So for every way to group the machines
   into components (a partition whose blocks could be joined by such networks
   and feed every fed input from inside), the best score is at most the sum of
   each block's best score *alone*.
2. A block alone is a connected set of machine, pipe and tank cells, so every
   cell it uses lies within a radius of any of its machines that its machines,
   pipes and tanks bound (`LocalProver.radius`). Centre one of them on an open
   patch of that radius (no border, blocked cell or pillar nearby) in its first
   rotation: every block layout on the real board, turned and moved, is a
   layout on the patch, so the patch is a relaxation, and one solve replaces a
   position split.
3. A block's *extra cost* e is the fewest points below its geometry-free value
   (income + chain bonus - fewest tanks) that it can reach: e is raised one
   point at a time by refuting "value - e" on the patch. A partition is refuted
   once its blocks' extra costs exceed what the target leaves; a pattern once
   every partition is.

The blocks' extra costs do not depend on the target, so they are kept for the
next target. Measured on classic-A FF09,FF27,FF28,FF43 (the pattern feeding
FF28 and FF43 from FF27): a budget of two pipes took 164 board parts in 140 s
and now takes about 6 s (the big block at 0, 1 and 2 pipes). A budget of three
(radius 10, 221 cells) is refuted in 318 s, which proves that set's best
layout (30) optimal; the position split had not finished it in 600 s.

How a block is solved is the caller's choice (`BlockSolver`): the prover grows
it (solver/grow.py, in worker processes: solver/grow_pool.py), which refutes that
three-pipe block in seconds. Several patterns may be refuted at once, one thread
each, sharing what is known of their blocks (`_raise`).

Tried and dropped: centring a *cell* instead of a machine. A spanning tree of
the block's N cells has a centre within ceil((N - 1) / 2) of all of them, which
halves the radius (5 instead of 9 at two pipes), but the first machine is then
free to move (only its rotation is fixed): the two-pipe solve took 17 s instead
of 6 s, and three pipes were unknown after 60 s.
"""
from __future__ import annotations

import itertools
import threading
import time
from collections import Counter
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Callable

from models.board import Board
from models.catalog import Catalog
from models.geometry import Cell, Geometry, ball
from models.rulesets import Ruleset
from models.stock import SupplyStock

from .bounds import topology_bound
from .reach import Pattern, supplied_colours
#: (block, pipes allowed, patch, centre cell) -> "refuted" | "found" | "unknown"
BlockSolver = Callable[["Block", int, Board, Cell], str]


@dataclass(frozen=True)
class Block:
    """Machines that may form one physical component, with their part of the fed pattern."""

    machines: tuple[str, ...]
    fed: tuple[tuple[tuple[str, str], int], ...]
    relaxed: int               # income + chain bonus - fewest tanks, alone
    #: the supply containers it may use: the player's stock less one container of each colour every
    #: other block of its grouping must hold (None: what its own machines allow)
    stock: SupplyStock | None = None

    @property
    def pattern(self) -> Pattern:
        return dict(self.fed)


@dataclass
class _Extra:
    """What is known of one block's extra cost: at least `low`, exactly `low` once `exact`."""

    low: int = 0
    exact: bool = False
    seconds: float = 0.0   # how long its last solve took


def patch(geometry: Geometry, radius: int) -> tuple[Board, Cell]:
    """Every cell within `radius` steps of a centre cell, all playable, and that centre."""
    centre: Cell = (radius + 2, radius + 2)
    seen = ball(geometry, centre, radius)
    size = 2 * radius + 5
    board = Board(f"patch-{radius}", geometry, frozenset(seen), frozenset(), frozenset(), size, size)
    return board, centre


def _linked(a: tuple[set[str], set[str], set[str]], b: tuple[set[str], set[str], set[str]]) -> bool:
    """True when some network could join two machines (a feed, a shared supply or a shared output network)."""
    fed_a, sup_a, out_a = a
    fed_b, sup_b, out_b = b
    return bool(out_a & fed_b or out_b & fed_a or sup_a & sup_b or out_a & out_b)


def _out_of_reach(blocks: list[Block], extras: list[_Extra], target: int) -> bool:
    """The blocks' extra costs known so far exceed what `target` leaves of their relaxed values."""
    return sum(extra.low for extra in extras) > sum(block.relaxed for block in blocks) - target


def fewest_tanks(ruleset: Ruleset, catalog: Catalog, block: Block) -> int:
    """Tanks the block needs at least: its income and pattern's chain bonus less its relaxed value."""
    income = sum(catalog[m].income for m in block.machines)
    amounts = {(m, p.at): p.amount or 0 for m in block.machines for p in catalog[m].inputs}
    chain = ruleset.chain_bonus_per_point * sum(amounts[key] for key, fed in block.fed if fed == 1)
    return max(0, income + chain - block.relaxed)


@dataclass
class LocalProver:
    """Refutes fed patterns by blocks on open patches; keeps blocks' extra costs between targets."""

    ruleset: Ruleset
    catalog: Catalog
    solve_block: BlockSolver
    diagonal: bool = False
    extras: dict[Block, _Extra] = field(default_factory=dict)
    _blocks: dict[tuple, Block | None] = field(default_factory=dict)
    _patches: dict[int, tuple[Board, Cell]] = field(default_factory=dict)
    _partitions: dict[tuple, list[list[Block]]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _asking: dict[tuple[Block, int], Future] = field(default_factory=dict)   # questions being asked now

    # -- which machines may share a component ---------------------------------------------
    def _colours(self, machine: str, pattern: Pattern) -> tuple[set[str], set[str], set[str]]:
        """(machine-fed input colours, supplied input colours, non-black output colours)."""
        spec = self.catalog[machine]
        fed = {c for p in spec.inputs if pattern.get((machine, p.at)) == 1 for c in p.colors}
        supplied = {c for p in spec.inputs if pattern.get((machine, p.at)) != 1 for c in p.colors}
        outputs = {c for p in spec.outputs if not p.is_black for c in p.colors}
        return fed, supplied, outputs

    def _possible(self, machines: tuple[str, ...], pattern: Pattern) -> bool:
        """Connected by possible links, and every fed input has a feeder of its colour inside."""
        colours = {m: self._colours(m, pattern) for m in machines}
        for m in machines:
            for p in self.catalog[m].inputs:
                if pattern.get((m, p.at)) == 1 and not any(
                        set(p.colors) & colours[o][2] for o in machines if o != m):
                    return False
        reached, frontier = {machines[0]}, [machines[0]]
        while frontier:
            a = frontier.pop()
            for b in machines:
                if b not in reached and _linked(colours[a], colours[b]):
                    reached.add(b)
                    frontier.append(b)
        return len(reached) == len(machines)

    def _block(self, machines: list[str], pattern: Pattern) -> Block | None:
        names = tuple(sorted(machines))
        fed = tuple(sorted((key, value) for key, value in pattern.items() if key[0] in names))
        key = (names, fed)
        if key not in self._blocks:
            block = None
            if self._possible(names, pattern):
                bound = topology_bound(self.ruleset, self.catalog, list(names), fed_pattern=dict(fed),
                                       time_limit=1.0, count_pipes=False)
                if bound.value is not None and not bound.infeasible:
                    block = Block(names, fed, bound.value)
            self._blocks[key] = block
        return self._blocks[key]

    def partitions(self, machines: list[str], pattern: Pattern) -> list[list[Block]]:
        """Every grouping of the machines into blocks that could be a layout's components.

        Components never share a container, so each component with a supplied
        input of one colour holds its own container of that colour, and the
        player's stock must hold them all: with one container per colour, all the
        machines supplied with blue stand in one component. (classic-A
        FF28,FF30,FF42,FF45: FF28 and FF42 both take blue and orange supply, and
        a grouping that parted them cost a 164-position split of 283 s.) Each
        block may then use what the others leave of the stock.
        """
        names = tuple(sorted(machines))
        key = (names, tuple(sorted((k, v) for k, v in pattern.items() if k[0] in names)))
        if key in self._partitions:
            return self._partitions[key]
        stock = SupplyStock.of(self.ruleset, (self.catalog[m] for m in machines))
        out = []
        for blocks in self._groupings(names, pattern, stock):
            needs = [Counter(supplied_colours(self.catalog, block.machines, block.pattern)) for block in blocks]
            total = sum(needs, Counter())
            out.append([replace(block, stock=stock.after(total - need)) for block, need in zip(blocks, needs)])
        self._partitions[key] = out
        return out

    def _groupings(self, names: tuple[str, ...], pattern: Pattern, stock: SupplyStock) -> list[list[Block]]:
        """Every partition of `names` into possible blocks whose containers fit `stock`, the coarsest first.

        Built block by block (the block of the first machine left, then the
        rest), so a block that cannot be a component, or a container too many,
        cuts off every partition holding it: ten machines have 115 975
        partitions, which took 1.3 s of Python per call to walk (classic-A
        n10/s1: 96 patterns reach its bound, each asked three times), and one or
        two of them are possible.
        """
        memo: dict[tuple, list[list[Block]]] = {}

        def rest_of(rest: tuple[tuple[str, ...], ...], used: Counter) -> list[list[Block]]:
            if not rest:
                return [[]]
            key = (rest, tuple(sorted(used.items())))
            if key not in memo:
                first, others = rest[0], rest[1:]
                found: list[list[Block]] = []
                for size in range(len(others), -1, -1):
                    for mates in itertools.combinations(others, size):
                        group = [m for atom in (first, *mates) for m in atom]
                        more = used + Counter(supplied_colours(self.catalog, group, pattern))
                        if not stock.allows(more):
                            continue
                        block = self._block(group, pattern)
                        if block is not None:
                            left = tuple(m for m in others if m not in mates)
                            found.extend([block, *tail] for tail in rest_of(left, more))
                memo[key] = found
            return memo[key]

        return rest_of(self._atoms(names, pattern, stock), Counter())

    def _atoms(self, names: tuple[str, ...], pattern: Pattern, stock: SupplyStock) -> tuple[tuple[str, ...], ...]:
        """The machines in groups that must share a component: those supplied with a colour of one container.

        Components never share a container, so with one container of a colour
        (and none of any colour) every machine it supplies stands in one block.
        """
        group = {m: (m,) for m in names}
        for colour in self.ruleset.colors:
            if stock.any_colour or stock.allowed(colour) != 1:
                continue
            takers = [m for m in names if colour in supplied_colours(self.catalog, [m], pattern)]
            if len(takers) > 1:
                joined = tuple(sorted({x for m in takers for x in group[m]}))
                for m in joined:
                    group[m] = joined
        return tuple(sorted(set(group.values())))

    # -- extra costs ------------------------------------------------------------------------
    def radius(self, block: Block, budget: int) -> int:
        """How far from one of its machines a block whose extra cost is at most `budget` can reach.

        A shortest path from a machine's anchor to any cell of the component runs
        through machine cells (cells per machine x k), pipe cells (p pipes, each
        at most `step` cells) and tanks. Two tanks never touch directly (a port
        or a pipe joins them), so the path holds at most one tank after each
        machine or pipe on it: k + p; and a layout reaching `relaxed - budget`
        has at most `fewest tanks + budget - p` tanks. (An earlier version
        counted only a final tank and missed tanks shared between machines.)
        """
        k = len(block.machines)
        step = 2 if self.diagonal else 1
        fewest = fewest_tanks(self.ruleset, self.catalog, block)
        # a tank open on one side only (Funner) joins one neighbour: a leaf, so a path holds one, at its end
        return max(self.ruleset.machine_shape.cell_count * k - 1 + step * p
                   + min(1 if self.ruleset.oriented_tanks else k + p, fewest + budget - p)
                   for p in range(budget + 1))

    def _patch_for(self, block: Block, pipes: int) -> tuple[Board, Cell]:
        radius = self.radius(block, pipes)
        if radius not in self._patches:
            self._patches[radius] = patch(self.ruleset.geometry, radius)
        return self._patches[radius]

    def _raise(self, block: Block) -> str:
        """Test the block at its current lower bound: raise it, fix it as exact, or 'unknown'.

        Several fed patterns may be refuted at once (solver/prove.py), each in a
        thread, and share blocks: a question another thread is already asking is
        waited for, not asked again, and a bound moves only from the value it was
        asked at (else two threads refuting the same budget would raise it twice).
        """
        with self._lock:
            extra = self.extras.setdefault(block, _Extra())
            low = extra.low
            asked = self._asking.get((block, low))
            mine = asked is None
            if mine:
                asked = self._asking[(block, low)] = Future()
        if not mine:
            return asked.result()
        try:
            board, centre = self._patch_for(block, low)
            started = time.monotonic()
            verdict = self.solve_block(block, low, board, centre)
            extra.seconds = time.monotonic() - started
        except BaseException as error:
            asked.set_exception(error)
            raise
        finally:
            with self._lock:
                del self._asking[(block, low)]
        with self._lock:
            if verdict == "refuted" and extra.low == low:
                extra.low += 1
            elif verdict == "found" and extra.low == low:
                extra.exact = True
        asked.set_result(verdict)
        return verdict

    def effort(self, machines: list[str], pattern: Pattern) -> float:
        """The longest solve of the pattern's blocks so far: the next budget is likely slower still.

        The prover starts the patterns with the slowest blocks first, so that the
        last pattern running is a short one (classic-A FF11,FF12,FF18,FF21,FF47,FF55
        at two spare pipes: 14 patterns of 1-95 s on two workers).
        """
        known = dict(self.extras)
        return max((known[block].seconds for blocks in self.partitions(machines, pattern) for block in blocks
                    if block in known), default=0.0)

    def refuted_by_known(self, machines: list[str], pattern: Pattern, target: int) -> bool:
        """True when the extra costs known already refute the pattern: no block is solved.

        Extra costs found for one target refute many patterns of the next (a
        pattern whose relaxation is a point lower needs a point less), and the
        prover need not build their board models (about 0.5 s each, 7.6 s a target
        for classic-A FF11,FF12,FF18,FF21,FF47,FF55).
        """
        known = dict(self.extras)   # a copy: other threads may be raising bounds meanwhile
        return all(_out_of_reach(blocks, [known.get(block, _Extra()) for block in blocks], target)
                   for blocks in self.partitions(machines, pattern))

    def refute(self, machines: list[str], pattern: Pattern, target: int) -> str:
        """'refuted' when no layout with this fed pattern scores `target`; else 'open' or 'unknown'."""
        for blocks in self.partitions(machines, pattern):
            while True:
                extras = [self.extras.setdefault(block, _Extra()) for block in blocks]
                if _out_of_reach(blocks, extras, target):
                    break  # this grouping cannot reach the target
                loose = [block for block, extra in zip(blocks, extras) if not extra.exact]
                if not loose:
                    return "open"  # every block reaches its share: the patches allow the target
                if self._raise(min(loose, key=lambda block: self.extras[block].low)) == "unknown":
                    return "unknown"
        return "refuted"
