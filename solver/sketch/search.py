"""The search: randomised attempts placing machines depth first, restarts until time runs out,
and the public entry points (sketch_attempts, sketch_layout, best_sketch).
"""
from __future__ import annotations

import itertools
import random
import time
from dataclasses import dataclass
from typing import Callable

from models.board import Board
from models.catalog import Catalog
from models.check import check_layout
from models.layout import Layout
from models.rulesets import Ruleset
from models.stock import SupplyStock

from ..placements import Placement, machine_placements
from .machines import place_machine, rank_positions, viable_positions
from .orders import feeding_orders, greedy_feeding, takers_left
from .ports import finish_output, join_input
from .routing import supplies_open
from .state import Context, Costs, LooseInput, State, import_fixed, port_table, to_layout

#: how many candidate positions of one machine are tried with real routing
TRIED_PLACEMENTS = 12
#: positions of one machine whose continuation is searched before going back further
BRANCHING = 2
#: attempts in which a fixed machine's input waits for a machine still to place that makes its colour, instead
#: of going to a supply tank before any is placed (which gave up its chain: classic-D FF50,FF26 around FF55
#: fixed at [7, 7] sketched 17 in every attempt, where a layout with that FF55 scores 28)
DEFER_SHARE = 0.5
#: placements (each with its routing) one attempt may try, per machine to place
ATTEMPT_BUDGET = 20


@dataclass
class Attempt:
    """How one attempt ended, for statistics: the layout, or where it failed."""

    layout: Layout | None
    failure: str | None = None   # "place <id>", "outputs", "check: <rules>", "time"


def finish_waiting(ctx: Context, state: State, rest: list[str]) -> bool:
    """Connect every waiting output that no machine in `rest` could take."""
    done = [i for i, net in enumerate(state.nets)
            if net.stub is not None and not takers_left(ctx, rest, net.colors, net.spare)]
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
    halt: Callable[[], bool] | None = None   # a stop asked from outside (Ctrl-C, the walks halted)

    def over(self) -> bool:
        """Out of time, or asked to stop: one attempt on a 40 x 40 board can take seconds (QA: Ctrl-C 2 s into
        ten machines walked alone answered 9 s later, the attempt running on to its deadline)."""
        return time.monotonic() > self.deadline or (self.halt is not None and self.halt())

    def fail(self, depth: int, reason: str) -> None:
        if depth >= self.depth:
            self.depth, self.failure = depth, reason


def _extend(ctx: Context, state: State, order: list[str], k: int, placements: dict[str, list[Placement]],
            fixed: Layout | None, search: _Search, deferred: tuple[LooseInput, ...] = ()) -> Layout | None:
    """Place order[k:] depth first: each machine's best positions in turn, at most BRANCHING that
    work out per machine, so a dead end goes back a machine or two instead of starting over. `deferred`: fixed
    machines' inputs that wait for a machine of the order to feed them (`attempt`)."""
    if k == len(order):
        if deferred:   # (those no machine fed: to whatever network they may join, a supply tank at worst)
            state = state.copy()
            if not all(join_input(ctx, state, machine, spec, start) for machine, spec, start in deferred):
                search.fail(k, "fixed ports")
                return None
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
    for candidate in viable_positions(ctx, state, index, ranked, TRIED_PLACEMENTS, search.over):
        if search.budget <= 0 or search.over():
            return None
        search.budget -= 1
        placed = place_machine(ctx, state, mid, candidate, rest)
        if placed is None:
            search.fail(k, f"place {mid}")
            continue
        placed, waiting = _feed_deferred(ctx, placed, mid, deferred)
        if not finish_waiting(ctx, placed, rest):
            search.fail(k, "outputs")
            continue
        if not supplies_open(ctx, placed, rest):
            search.fail(k, "supply walled in")
            continue
        layout = _extend(ctx, placed, order, k + 1, placements, fixed, search, waiting)
        if layout is not None:
            return layout
        tried += 1
        if tried >= BRANCHING:
            break
    search.fail(k, f"place {mid}")
    return None


def attempt(ctx: Context, base: State, order: list[str], placements: dict[str, list[Placement]],
            fixed: Layout | None, deadline: float, halt: Callable[[], bool] | None = None,
            defer: bool = False) -> Attempt:
    """One randomised construction in `order`; never returns an illegal layout."""
    search = _Search(ATTEMPT_BUDGET * max(1, len(order)), deadline, halt=halt)
    state, deferred = base, ()
    if defer and base.loose_inputs and ctx.rng.random() < DEFER_SHARE:
        made = {c for m in order for colors, _ in ctx.table[m][1] for c in colors}
        deferred = tuple(loose for loose in base.loose_inputs if made & set(loose[1].colors))
        state = base.copy()
        state.loose_inputs = [loose for loose in base.loose_inputs if loose not in deferred]
    if state.loose_inputs or any(n.stub is not None for n in state.nets):
        state = connect_loose(ctx, state, order)
        if state is None:
            return Attempt(None, "fixed ports")
    layout = _extend(ctx, state, order, 0, placements, fixed, search, deferred)
    return Attempt(layout, None if layout is not None else search.failure)


def _feed_deferred(ctx: Context, state: State, placed: str, deferred: tuple[LooseInput, ...]
                   ) -> tuple[State, tuple[LooseInput, ...]]:
    """Join the deferred inputs that the machine just `placed` makes a colour of, each where it routes; the
    others wait on. A state copy per join, since a route that fails has already given up its reservation."""
    made = {c for colors, _ in ctx.table[placed][1] for c in colors}
    waiting = []
    for loose in deferred:
        machine, spec, start = loose
        if made & set(spec.colors):
            trial = state.copy()
            if join_input(ctx, trial, machine, spec, start):
                state = trial
                continue
        waiting.append(loose)
    return state, tuple(waiting)


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


def jittered_costs(rng: random.Random) -> Costs:
    """Preferences for a restart: each attempt weighs chaining, supply and compactness a bit differently."""
    supply = rng.uniform(1.0, 4.0)
    return Costs(pending=0.0, product=rng.uniform(0.0, 1.0), supply=supply,
                 new_supply=supply + rng.uniform(0.5, 2.0), tank=1.0, noise=rng.uniform(0.5, 3.0),
                 hug=rng.choice((0.0, 0.0, 0.1)), compact=rng.choice((0.0, 0.3, 0.6)))


def sketch_attempts(ruleset: Ruleset, board: Board, catalog: Catalog, machine_ids: list[str], seed: int = 0,
                    time_limit: float = 5.0, fixed: Layout | None = None, order: list[str] | None = None,
                    strict: bool = False, halt: Callable[[], bool] | None = None, defer: bool = False):
    """Attempts until one is legal or time runs out (yields every Attempt, for statistics).

    `order` is tried first; with `strict` it is the only order (the planner lays
    machines in round order, so that every chain runs from an earlier machine to a
    later one). `halt()` ends them, the attempt at hand midway (a stop from outside). `defer`: a fixed
    machine's input may wait for a machine to place (`attempt`); the best sketch of a solve's fixed part does,
    while the moves (whose kept machines' cut inputs did no better waiting: results/static.md) and the
    planner's walks do not.
    """
    deadline = time.monotonic() + time_limit
    fixed_ids = set(fixed.machine_ids) if fixed is not None else set()
    todo = [m for m in dict.fromkeys(machine_ids) if m not in fixed_ids]
    placements = {m: machine_placements(ruleset, board, catalog[m]) for m in todo}
    if any(not p for p in placements.values()):
        return
    base = import_fixed(fixed)
    all_ids = list(fixed_ids) + todo
    stock = SupplyStock.of(ruleset, (catalog[m] for m in all_ids))
    end_limit = fixed.options.get("end_limit") if fixed is not None else None
    end_limit = ruleset.end_limit if end_limit is None else end_limit
    rng = random.Random(seed)
    waiting = [(n.colors, n.spare) for n in base.nets if n.kind == "product" and n.spare > 0]
    table = port_table(catalog, todo)
    orders = [] if strict and order else feeding_orders(table, todo, waiting, rng)  # (one order: none to score)
    if order:
        given = [m for m in dict.fromkeys(order) if m in placements]
        orders.insert(0, given + [m for m in todo if m not in given])
    for k in itertools.count():
        if time.monotonic() > deadline or (halt is not None and halt()):
            return
        ctx = Context(ruleset, board, catalog, table, random.Random(rng.random()),
                      Costs() if k == 0 else jittered_costs(rng), stock,
                      ruleset.output_limit, end_limit)
        chosen = orders[k] if k < len(orders) else rng.choice(orders)
        yield attempt(ctx, base, chosen, placements, fixed, deadline, halt, defer)


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


def ranking(objective: str) -> Callable[[Layout], int]:
    """How sketches and laid layouts are ranked, higher better: the static score for profit; minus the cost for
    a cost solve (which took the highest-scoring sketch before: classic-C FF14,FF22,FF29,FF41 kept cost 7-8
    where 5 exists)."""
    if objective != "cost":
        return static_score
    return lambda layout: -check_layout(layout).score.cost


def ranked(value: int, objective: str) -> int:
    """An objective's value as `ranking(objective)` ranks it, and back (minus the cost for a cost solve: the
    map is its own inverse), for bounds and scores that cross between the two."""
    return -value if objective == "cost" else value


def static_score(layout: Layout) -> int:
    """A layout's static score: how sketches and walks rank layouts unless told otherwise."""
    return check_layout(layout).score.total


def best_sketch(ruleset: Ruleset, board: Board, catalog: Catalog, machine_ids: list[str], seed: int = 0,
                time_limit: float = 3.0, fixed: Layout | None = None, order: list[str] | None = None,
                on_better: Callable[[int], None] | None = None,
                stop: Callable[[], bool] | None = None, worth: Callable[[Layout], int] = static_score,
                halt: Callable[[], bool] | None = None) -> Layout | None:
    """The highest-scoring of the legal sketches found within `time_limit` (`worth`: the score to rank them
    by, the static score unless told; a cost solve ranks them by minus their cost).

    One sketch takes a fraction of a second and their scores spread widely (the
    chain bonus depends on which outputs the random order happens to chain), so
    the rest of a small budget is better spent on more sketches than on none.
    `on_better(score)` reports each improvement as it happens (progress lines,
    time to the first legal layout); `stop()` ends the sketching early (Ctrl-C,
    a stall, or giving up on a first sketch: solver/first_layout.py), after the attempt at hand; `halt()` ends
    that attempt too.
    """
    best: tuple[int, Layout] | None = None
    for result in sketch_attempts(ruleset, board, catalog, machine_ids, seed, time_limit, fixed, order, halt=halt, defer=True):
        if result.layout is not None:
            score = worth(result.layout)
            if best is None or score > best[0]:
                best = (score, result.layout)
                if on_better is not None:
                    on_better(score)
        if stop is not None and stop():
            break
    return None if best is None else best[1]
