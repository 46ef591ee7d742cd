"""Proving a tighter bound by decomposition: fed patterns, then machine positions.

The main search often stops a few points below the geometry-free bound and
CP-SAT alone cannot close that gap: proving "no layout scores T" needs it to see
that T leaves no money for pipes, which is a global geometric fact. Split the
question and each part becomes easy:

1. A *fed pattern* says which printed inputs are machine-fed. It fixes the chain
   bonus, and the geometry-free relaxation (solver/bounds.py) bounds each
   pattern's score; only patterns whose bound reaches T are left (a handful).
2. Each pattern goes to blocks on open patches (solver/local.py: each possible
   component of the layout alone, one machine centred, one solve per pipe
   count, by growth (solver/grow.py) in worker processes, patterns side by
   side, the slowest so far first). A pattern whose blocks' extra costs, known
   from earlier targets, already refute it costs nothing.
3. A pattern the blocks leave open is a feasibility model: the full model, the
   pattern fixed, score >= T (the board may forbid what open ground allows:
   presolve often refutes it at once); if a short solve does not settle it, it
   is split on the position of one machine, and each part is refuted by
   presolve in about a second. (Where growth does not apply, the
   Funner's hex tanks, every pattern's model gets a short solve first, and the
   blocks are CP-SAT patch models.) Building every pattern's model and solving
   it for a second first, as before growth, cost classic-A
   FF11,FF12,FF18,FF21,FF47,FF55 about 11 s a target, and refuted nothing the
   blocks did not refute in milliseconds at budgets of one pipe or more.

If every part is refuted, no layout scores T, so the bound drops to T - 1 and
the next T is tried; a part that has a solution is a layout scoring at least T,
which is then optimal. A part that neither refutes nor solves in its time ends
the proof honestly: the bound stays at the last T proved impossible + 0.

Measured on classic-A FF16,FF27,FF30,FF46 (best 31, geometry-free bound 32):
51 of 52 patterns refuted in 0.0 s each; the last survived 120 s of plain
CP-SAT with 2 workers, and was refuted as 168 positions of FF16: 220 s in
all, 18 s once its pipe budget (zero here) was stated explicitly.
"""
from __future__ import annotations

import itertools
import math
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Callable

from ortools.sat.python import cp_model

from models.board import Board
from models.catalog import Catalog
from models.geometry import Cell
from models.layout import Layout
from models.rulesets import Ruleset
from models.stock import SupplyStock

from .bounds import reaching_patterns, topology_bound
from .triangle_cuts import supported as triangles_supported
from .extract import layout_from_values, prune
from .grow import supports
from .embed import embed
from .grow_pool import GrowthPool, grow_spare
from .local import Block, BlockSolver, LocalProver
from .model import StaticModel, build_static_model, fix_to_layout
from .pair_split import kept_placements
from .reach import Pattern, add_reach_cuts
from .search import Interrupt, solver_parameters, value_reader

#: seconds for one pattern's board model before the blocks (then the position split) take it, where
#: blocks do not grow (with growth, the blocks come first): presolve
#: refutes what it can at once, and the blocks now answer small budgets in milliseconds (3 s before:
#: `prove_bound` alone, classic-A FF09,FF27,FF28,FF43 from 34 proved 30 in 21.1 s, now 15.5 s;
#: FF16,FF27,FF30,FF46 from 32 found and proved 31 in 13.7 s, now 10.5 s; FF11,FF12,FF18,FF21,FF47,FF55
#: refutes 73 in 21 s either way)
PATTERN_SECONDS = 1.0
#: seconds for one (pattern, position) part; a part that needs more ends the proof
PART_SECONDS = 15.0
#: reach cuts (solver/reach.py) are stated for pipe budgets up to this; their clauses
#: grow with the budget and budgets above 3 are not measured
REACH_BUDGET = 3
#: fed patterns are enumerated; beyond this many printed inputs that is too many, and the
#: patterns reaching a target are found one at a time by the relaxation instead ...
MAX_INPUTS = 14
#: ... up to this many (more would take the blocks longer than any solve has)
MAX_REACHING = 500
#: seconds for one block on an open patch (solver/local.py): all the time left, because the position
#: split it replaces is slower still (classic-A FF09,FF27,FF28,FF43: two pipes 6 s against 164 parts in
#: 140 s; three pipes 318 s against over 600 s)
LOCAL_SECONDS = math.inf
#: a two-machine block CP-SAT cannot settle on its whole patch within this many seconds is split on its second
#: machine's placements (Funner, where growth does not apply: FN45,FN48 at 3 spare pipes was unknown after
#: 168 s whole; its 0-2 pipe blocks take 0.1-10 s)
PAIR_WHOLE_SECONDS = 2.0


@dataclass(frozen=True)
class FedPattern:
    fed: Pattern
    relaxed: int               # income + chain bonus - fewest tanks (pipes not counted: it sets the pipe budget)


@dataclass
class ProofOutcome:
    bound: int                 # proved: no legal layout scores more
    layout: Layout | None      # a layout reaching `bound`, when one was found on the way
    complete: bool             # True when the proof reached the best known score


@dataclass
class _Setup:
    ruleset: Ruleset
    board: Board
    catalog: Catalog
    ids: list[str]
    diagonal: bool
    fixed: Layout | None
    deadline: float
    interrupt: Interrupt | None
    local: LocalProver | None = None
    stock: SupplyStock | None = None   # a block's supply stock (solver/local.py); None: its machines'
    decided: bool = False              # a target's answer is known: the patterns still running may stop
    threads: int = 1                   # fed patterns whose blocks are solved side by side
    pattern_bounds: dict = field(default_factory=dict)   # `fed_patterns` keeps its relaxations here
    grown: dict = field(default_factory=dict)   # (machines, fed) -> the last component growth found

    @property
    def grows(self) -> bool:
        """Blocks grow (solver/grow.py): they answer small pipe budgets in milliseconds, so patterns go
        to them first, and a board model is built only for a pattern they leave open."""
        return self.local is not None and supports(self.ruleset, self.diagonal)

    def time_left(self) -> float:
        if self.decided or (self.interrupt is not None and self.interrupt.flag):
            return 0.0
        return self.deadline - time.monotonic()


#: what the relaxation says of one fed pattern: (its bound with pipes, without them, whether the first has
#: the triangle cuts), or None when the pattern is infeasible (a bound with pipes of None: not solved)
_PatternBounds = dict[tuple[int, ...], tuple[int | None, int | None, bool] | None]


def fed_patterns(ruleset: Ruleset, catalog: Catalog, ids: list[str], target: int,
                 known: _PatternBounds | None = None, pair_cuts: bool = True,
                 halt: Callable[[], bool] = lambda: False) -> list[FedPattern] | None:
    """Every fed pattern whose relaxation (solver/bounds.py) reaches `target`; None if there are too many
    inputs, or if `halt` says stop first (the prover's time is up: hundreds of relaxations take a while).

    `known` keeps each pattern's relaxation between calls: the prover asks for
    one target after another, and a pattern's bounds do not depend on it
    (classic-A FF11,FF12,FF18,FF21,FF47,FF55: 1911 relaxations, 14.6 s, for each target).
    The triangle cuts (solver/triangle_cuts.py) are asked only of the patterns that
    reach the target without them: they take rounds of solves, and a few patterns
    reach a target near the bound.
    """
    inputs = [(m, p.at, p.amount or 0) for m in ids for p in catalog[m].inputs]
    known = {} if known is None else known
    triangles = pair_cuts and triangles_supported(ruleset)
    if len(inputs) > MAX_INPUTS:
        reaching = reaching_patterns(ruleset, catalog, ids, target, MAX_REACHING, pair_cuts=pair_cuts,
                                     triangles=triangles)
        if reaching is None:
            return None
        found = []
        for pattern in reaching:
            if halt():
                return None
            bits = tuple(pattern[(m, at)] for m, at, _ in inputs)
            tanks_only = _tanks_only(ruleset, catalog, ids, pattern, bits, None, known)
            if tanks_only is None:
                return None
            found.append(FedPattern(pattern, tanks_only))
        return found
    income = sum(catalog[m].income for m in ids)
    found: list[FedPattern] = []
    for bits in itertools.product((0, 1), repeat=len(inputs)):
        if halt():
            return None
        chain = ruleset.chain_bonus_per_point * sum(points * b for (_, _, points), b in zip(inputs, bits))
        if income + chain < target:
            continue  # cannot pay for even the free layout
        pattern = {(m, at): b for (m, at, _), b in zip(inputs, bits)}
        if bits not in known:
            bound = topology_bound(ruleset, catalog, ids, fed_pattern=pattern, time_limit=1.0,
                                   pair_cuts=pair_cuts)
            known[bits] = None if bound.infeasible else (bound.value, None, False)
        if triangles and known[bits] is not None:
            known[bits] = _with_triangles(ruleset, catalog, ids, pattern, target, known[bits])
        if known[bits] is None:
            continue
        value, tanks_only, _ = known[bits]
        if value is None:
            return None  # the relaxation was not solved: nothing can be skipped safely
        if value >= target:
            tanks_only = _tanks_only(ruleset, catalog, ids, pattern, bits, value, known)
            if tanks_only is None:
                return None
            found.append(FedPattern(pattern, tanks_only))
    return found


def _with_triangles(ruleset: Ruleset, catalog: Catalog, ids: list[str], pattern: Pattern, target: int,
                    entry: tuple[int | None, int | None, bool]) -> tuple[int | None, int | None, bool] | None:
    """`entry` with the triangle cuts in its bound, once, and only when the bound without them reaches `target`
    (or is unknown): they take rounds of solves, and few patterns reach a target near the bound."""
    value, tanks_only, tightened = entry
    if tightened or (value is not None and value < target):
        return entry
    tighter = topology_bound(ruleset, catalog, ids, fed_pattern=pattern, time_limit=1.0, triangles=True)
    if tighter.infeasible:
        return None
    values = [v for v in (value, tighter.value) if v is not None]
    return (min(values) if values else None, tanks_only, True)


def _tanks_only(ruleset: Ruleset, catalog: Catalog, ids: list[str], pattern: Pattern, bits: tuple[int, ...],
                value: int | None, known: _PatternBounds) -> int | None:
    """The pattern's bound without pipes (what its pipe budget is counted from), kept in `known` beside
    `value`, its bound with pipes (None where the patterns were found one at a time); None if unsolved."""
    entry = known.get(bits)
    if entry is None or entry[1] is None:
        tanks_only = topology_bound(ruleset, catalog, ids, fed_pattern=pattern, time_limit=1.0,
                                    count_pipes=False).value
        if tanks_only is None:
            return None
        known[bits] = (value, tanks_only, entry is not None and entry[2])
    return known[bits][1]


def _pattern_model(setup: _Setup, pattern: FedPattern, target: int) -> StaticModel:
    """The full model restricted to `pattern`, asking only for a layout scoring `target` or more.

    Every layout with this pattern pays at least its fewest tanks, so at most
    `relaxed - target` points are left for pipes. Saying so explicitly (all pipe
    pieces off when nothing is left) is what makes each part fast: measured on
    the pattern above, 168 parts in 18 s instead of 220 s. With a budget of a few
    pipes, the reach cuts (solver/reach.py) say the same thing port by port: a
    budget-1 pattern of classic-A FF09,FF27,FF28,FF43 went from 164 parts in 93 s
    to presolve alone in 1.6 s.
    """
    built = build_static_model(setup.ruleset, setup.board, setup.catalog, setup.ids, objective="profit",
                               diagonal=setup.diagonal, soft_limits=False, stock=setup.stock)
    if setup.fixed is not None:
        fix_to_layout(built, setup.fixed, complete=False)
    for key, fed in pattern.fed.items():
        built.model.Add(built.vars.fed_input[key] == fed)
    built.model.Add(built.score >= target)
    pipes_left = pattern.relaxed - target
    if pipes_left <= REACH_BUDGET:
        add_reach_cuts(built.vars, built.model, pattern.fed, pipes_left)
    if pipes_left == 0:
        for piece in built.vars.y:
            built.model.Add(piece == 0)
    else:
        built.model.Add(sum(built.vars.y) <= pipes_left)
    built.model.ClearObjective()
    return built


def _solve_part(setup: _Setup, built: StaticModel, placement: int | None, limit: float,
                workers: int = 1, register: Callable[[cp_model.CpSolver], None] | None = None,
                ) -> tuple[str, list[int] | None]:
    """One feasibility solve (one core unless told): 'refuted', 'found' (with the solution) or 'unknown'.

    `register` is handed the solver before it starts, so another thread can stop it.
    """
    seconds = min(limit, setup.time_left())
    if seconds <= 0.05:
        return "unknown", None
    model = built.model
    if placement is not None:
        model = model.Clone()
        model.Add(model.GetIntVarFromProtoIndex(built.vars.x[placement].Index()) == 1)
    solver = cp_model.CpSolver()
    solver_parameters(solver, seconds, workers, 0)
    if register is not None:
        register(solver)
    status = solver.Solve(model)
    if status == cp_model.INFEASIBLE:
        return "refuted", None
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "found", list(solver.ResponseProto().solution)
    return "unknown", None


def _split_machine(built: StaticModel, setup: _Setup) -> str:
    """The machine to split on: the one with the fewest positions (fewest parts), fixed ones excluded."""
    fixed = {m.id for m in setup.fixed.machines} if setup.fixed is not None else set()
    free = [m for m in setup.ids if m not in fixed] or setup.ids
    return min(free, key=lambda m: len(built.vars.by_machine[m]))


def _refute_target(setup: _Setup, target: int, pool: ThreadPoolExecutor) -> tuple[str, Layout | None]:
    """'refuted' when no layout scores `target`, 'found' with such a layout, else 'unknown'."""
    patterns = fed_patterns(setup.ruleset, setup.catalog, setup.ids, target, setup.pattern_bounds,
                            pair_cuts=not setup.diagonal, halt=lambda: setup.time_left() <= 0)
    if patterns is None:
        return "unknown", None
    if setup.local is not None:
        patterns = [p for p in patterns if not setup.local.refuted_by_known(setup.ids, p.fed, target)]
        patterns.sort(key=_start_order(setup.local, setup.ids))
    if setup.grows:
        left: list[tuple[StaticModel | None, FedPattern]] = [(None, pattern) for pattern in patterns]
    else:
        first = list(pool.map(lambda pattern: _first_pass(setup, pattern, target), patterns))
        for built, verdict, values in first:
            if verdict == "found":
                return _answer(setup, built, verdict, values)
        left = [(built, pattern) for pattern, (built, verdict, _) in zip(patterns, first) if verdict != "refuted"]
    if not left:
        return "refuted", None
    # the patterns left are independent questions, several at once; with growth, twice as many as
    # there are workers, so that a worker never waits for a pattern thread to ask its next block;
    # the first that is not refuted decides, and the others stop
    threads = max(1, setup.threads) * (2 if setup.grows else 1)
    with ThreadPoolExecutor(max_workers=threads) as patterns_pool:
        futures = [patterns_pool.submit(_refute_pattern, setup, built, pattern, target, pool)
                   for built, pattern in left]
        for future in as_completed(futures):
            verdict, layout = future.result()
            if verdict != "refuted":
                setup.decided = True
                for other in futures:
                    other.cancel()
                return verdict, layout   # 'found' with its layout, or 'unknown' with none
    return "refuted", None


def _first_pass(setup: _Setup, pattern: FedPattern, target: int) -> tuple[StaticModel, str, list[int] | None]:
    """The pattern's board model and its short solve (`PATTERN_SECONDS`): presolve refutes at once or not at all."""
    built = _pattern_model(setup, pattern, target)
    return (built,) + _solve_part(setup, built, None, PATTERN_SECONDS)


def _answer(setup: _Setup, built: StaticModel, verdict: str, values: list[int] | None) -> tuple[str, Layout | None]:
    """A board model's verdict, with its layout when it found one."""
    return verdict, (_layout(built, values, setup.diagonal) if verdict == "found" else None)


def _start_order(local: LocalProver, ids: list[str]) -> Callable[[FedPattern], tuple[bool, float]]:
    """Which patterns start first: those new at this target, then the slowest so far.

    A pattern is new when its geometry-free bound is just this target: no pipe
    is left beyond those it needs anyway, so its blocks answer in milliseconds
    (none of them solved yet), and where the target can be reached it
    is often such a pattern's grown component that reaches it (expert-B
    FF11,FF12,FF18,FF21,FF47,FF55 at 300 s: the prover proved 70, and its
    slowest-first patterns held the cheap ones back until the time ran out, with
    69 the best). Among the others the slowest go first, so that the last one
    running is a short one.
    """
    def key(pattern: FedPattern) -> tuple[bool, float]:
        effort = local.effort(ids, pattern.fed)
        return effort > 0.0, -effort
    return key


def _refute_pattern(setup: _Setup, built: StaticModel | None, pattern: FedPattern, target: int,
                    pool: ThreadPoolExecutor) -> tuple[str, Layout | None]:
    """One pattern: by blocks on open patches, else by the position split of its board model (`built`,
    made here when not given).

    When the blocks leave the target open and growth has built one component of
    every machine reaching it, that component moved onto the board (`embed`) is
    the layout, and no split is needed."""
    if setup.time_left() <= 0:
        return "unknown", None
    if setup.local is not None:
        verdict = setup.local.refute(setup.ids, pattern.fed, target)
        if verdict == "refuted":
            return "refuted", None
        if verdict == "open":  # every machine in one grown component may already reach the target
            component = setup.grown.get((tuple(sorted(setup.ids)), tuple(sorted(pattern.fed.items()))))
            placed = embed(component, setup.board, target) if component is not None else None
            if placed is not None:
                return "found", placed
    if setup.time_left() <= 0:
        return "unknown", None
    if built is None:  # the blocks came first: the board model's short solve, as for every pattern without growth
        built, verdict, values = _first_pass(setup, pattern, target)
        if verdict != "unknown":
            return _answer(setup, built, verdict, values)
    return _answer(setup, built, *_split(setup, built, pool))


def _split(setup: _Setup, built: StaticModel, pool: ThreadPoolExecutor) -> tuple[str, list[int] | None]:
    """Solve the pattern as one part per position of the split machine; stop at the first layout found.

    Waiting for every part before looking for a layout cost whole solves: on
    classic-A FF16,FF27,FF30,FF46 the part holding the optimum was found early,
    and the proof still ended at the time limit, after the other 163 parts.
    """
    machine = _split_machine(built, setup)
    futures = [pool.submit(_solve_part, setup, built, i, PART_SECONDS) for i in built.vars.by_machine[machine]]
    verdicts: set[str] = set()
    try:
        for future in as_completed(futures):
            verdict, values = future.result()
            if verdict == "found":
                return "found", values
            verdicts.add(verdict)
    finally:
        for future in futures:
            future.cancel()
    return ("unknown" if "unknown" in verdicts else "refuted"), None


def patch_verdict(setup: _Setup, block: Block, pipes: int, board: Board, centre: Cell, cores: int,
                  register: Callable[[cp_model.CpSolver], None] | None = None) -> str:
    """CP-SAT on one block's patch model, its first machine at `centre` in its first rotation.

    A two-machine block growth does not cover (Funner's tanks; not the diagonal tile, which the pair tables do
    not know) first keeps the placements of its second machine that can hold what its pattern forces
    (solver/pair_split.py): none, and it is refuted with no model (FN45,FN48 at 0-2 spare pipes, 0.1-2.3 s
    each as CP-SAT models); else CP-SAT gets it whole for PAIR_WHOLE_SECONDS, then one part per placement kept."""
    split = len(block.machines) == 2 and not setup.diagonal and not supports(setup.ruleset, False)
    kept = kept_placements(setup.ruleset, setup.catalog, block, pipes, board, centre) if split else None
    if kept is not None and not kept:
        return "refuted"
    alone = _Setup(setup.ruleset, board, setup.catalog, list(block.machines), setup.diagonal, None,
                   setup.deadline, setup.interrupt, stock=block.stock)
    built = _pattern_model(alone, FedPattern(block.pattern, block.relaxed), block.relaxed - pipes)
    centred = [i for i in built.vars.by_machine[block.machines[0]]
               if built.vars.placements[i].anchor == centre and built.vars.placements[i].steps == 0]
    if not centred:
        return "unknown"
    if kept is None:
        return _solve_part(alone, built, centred[0], LOCAL_SECONDS, cores, register)[0]
    whole = _solve_part(alone, built, centred[0], PAIR_WHOLE_SECONDS, cores, register)[0]
    if whole != "unknown" or alone.time_left() <= 0:
        return whole
    built.model.Add(built.model.GetIntVarFromProtoIndex(built.vars.x[centred[0]].Index()) == 1)
    where = {(built.vars.placements[i].anchor, built.vars.placements[i].steps): i
             for i in built.vars.by_machine[block.machines[1]]}
    # the roomiest placements first: a block that can reach the budget most likely does there
    for placed in sorted((p for p in kept if p in where), key=lambda p: -kept[p]):
        verdict = _solve_part(alone, built, where[placed], LOCAL_SECONDS, cores, register)[0]
        if verdict != "refuted":
            return verdict
    return "refuted"


def _block_solver(setup: _Setup, workers: int, growth: GrowthPool | None = None) -> BlockSolver:
    """Solve one block of solver/local.py on its patch, its first machine at the centre in its first rotation.

    Growth (solver/grow.py) answers, in the worker processes of `growth` when
    given (solver/grow_pool.py), else here. CP-SAT's patch model used to race it
    on the second core; growth now answers the blocks that race was for (the
    four-machine block of classic-A FF28,FF30,FF42,FF45 at four spare pipes:
    CP-SAT never finished, growth takes about 60 s), and building that model in
    this process slowed growth down, so the second core grows another block
    instead. Rulesets growth does not cover get CP-SAT alone, on every core.
    """
    def stop() -> bool:
        return setup.time_left() <= 0

    def solve(block: Block, pipes: int, board: Board, centre: Cell) -> str:
        if not supports(setup.ruleset, setup.diagonal):
            return patch_verdict(setup, block, pipes, board, centre, workers)
        if growth is not None:
            verdict, component = growth.verdict(setup.ruleset, setup.catalog, block, pipes, board, centre,
                                                setup.deadline, stop)
        else:
            verdict, component = grow_spare(setup.ruleset, setup.catalog, block, pipes, board, centre, stop)
        if component is not None:
            setup.grown[block.machines, block.fed] = component  # `_refute_pattern` may move it onto the board
        return verdict
    return solve


def _layout(built: StaticModel, values: list[int] | None, diagonal: bool) -> Layout:
    assert values is not None
    return prune(layout_from_values(built.vars, value_reader(values), diagonal))


def prove_bound(
    ruleset: Ruleset, board: Board, catalog: Catalog, ids: list[str], best: int, bound: int, deadline: float,
    diagonal: bool = False, fixed: Layout | None = None, interrupt: Interrupt | None = None, threads: int = 2,
    on_bound: Callable[[int], None] | None = None,
) -> ProofOutcome:
    """Lower the profit bound from `bound` towards `best` (a legal layout's score), target by target.

    `on_bound` hears each new proved bound (a proof can take minutes; the user sees it move).
    """
    setup = _Setup(ruleset, board, catalog, list(ids), diagonal, fixed, deadline, interrupt,
                   threads=max(1, threads))
    growth = GrowthPool.start(threads) if fixed is None and supports(ruleset, diagonal) else None
    if fixed is None:  # a fixed part ties the layout to the real board: no open patches
        setup.local = LocalProver(ruleset, catalog, _block_solver(setup, threads, growth), diagonal)
    try:
        with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
            for target in range(bound, best, -1):
                if setup.time_left() <= 0:  # out of time (or Ctrl-C): not even a refutation that needs no solve
                    return ProofOutcome(target, None, False)
                verdict, layout = _refute_target(setup, target, pool)
                if verdict == "found":
                    return ProofOutcome(target, layout, True)
                if verdict == "unknown":
                    return ProofOutcome(target, None, False)
                if on_bound is not None:
                    on_bound(target - 1)
        return ProofOutcome(best, None, True)
    finally:
        if growth is not None:
            growth.close()
