"""The static solve's starting layout: sketches, then ruin-and-recreate moves, on every core.

Both phases are pure Python (solver/sketch), so a solve with two workers used to
leave one core idle for their whole length: up to 120 s of a 300 s solve of 8-10
machines, before CP-SAT's workers start. Their results depend on luck (which
order a sketch tries, which machines a move lifts), so the second core is best
spent on a second walk with another seed (solver/fleet.py). Each walk sketches,
then improves its own best sketch; a phase ends at its time, or once no walk has
improved for the phase's stall (the prover may be waiting). The best layout of
all walks is the start, and the sketch it grew from is kept, because CP-SAT may
accept that one as a hint where it rejects the moves' layout (README, rules
decisions: the model never routes a product through an output reservoir).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from models.board import Board
from models.catalog import Catalog
from models.layout import Context, Layout, parse_layout_body
from models.rulesets import Ruleset

from .fleet import Fleet
from .sketch import best_sketch, static_score
from .sketch.improve import improve

#: a child walk's result: (its best score, its best layout's document, its best sketch's)
_Documents = tuple[int, dict, dict]


@dataclass(frozen=True)
class Schedule:
    """How long each phase of a walk may run, and when it stops early."""

    sketch_seconds: float
    give_up: float                # no walk has a legal sketch after this long: the walks end
    improve_seconds: float        # 0: no ruin-and-recreate moves
    stall: float | None = None    # the sketches end once no walk has improved for this long (None: never)
    later_stall: float | None = None   # ... and the moves


@dataclass
class Start:
    """The best layout of all walks, the sketch it grew from, and when the first and the best appeared."""

    layout: Layout | None
    sketch: Layout | None
    first_at: float | None        # time.monotonic()
    best_at: float | None


def sketch_and_improve(ruleset: Ruleset, board: Board, catalog: Catalog, ids: list[str], schedule: Schedule,
                       workers: int, seed: int, fixed: Layout | None = None, order: list[str] | None = None,
                       interrupted: Callable[[], bool] = lambda: False,
                       on_better: Callable[[int, float], None] | None = None,
                       worth: Callable[[Layout], int] = static_score) -> Start:
    """Walks in this process and `workers - 1` others; `on_better(score, time.monotonic())` on each improvement.

    `worth` ranks the sketches (the static score unless told: a cost solve gives minus the cost, and has
    no moves, which only know the static score)."""
    context = Context(ruleset, board, catalog)

    def walk(walk_seed: int, fleet: Fleet[_Documents], stop: Callable[[], bool]) -> tuple[Layout | None, Layout | None]:
        return _walk(ruleset, board, catalog, ids, schedule, walk_seed, fleet, fixed, order, stop, worth)

    def child(child_seed: int, fleet: Fleet[_Documents]) -> _Documents | None:
        layout, sketch = walk(child_seed, fleet, lambda: False)
        if layout is None or sketch is None:
            return None
        return worth(layout), layout.to_dict(), sketch.to_dict()

    with Fleet(child, workers, seed) as fleet:
        def polled() -> bool:
            news = fleet.news()
            if on_better is not None and news is not None:
                on_better(news[0], news[2])
            return interrupted()

        layout, sketch = walk(seed, fleet, polled)
        # every walk ends on the same conditions (its phases' times, a stall or give-up shared by all, the
        # parent's interrupt through the halt), so the others are about done: halt and collect them
        finals = fleet.results(time.monotonic())
        polled()
        shared = fleet.best()
    walks = [] if layout is None or sketch is None else [(worth(layout), layout, sketch)]
    for score, body, sketch_body in finals:
        layout_read = _parsed(body, context)
        walks.append((score, layout_read, layout_read if sketch_body == body else _parsed(sketch_body, context)))
    if not walks:
        return Start(None, None, None, None)
    _, best, its_sketch = max(walks, key=lambda w: w[0])  # this process's walk wins ties
    return Start(best, its_sketch, shared[1] if shared else None, shared[2] if shared else None)


def _walk(ruleset: Ruleset, board: Board, catalog: Catalog, ids: list[str], schedule: Schedule, seed: int,
          fleet: Fleet[_Documents], fixed: Layout | None, order: list[str] | None,
          stop: Callable[[], bool], worth: Callable[[Layout], int] = static_score) -> tuple[Layout | None, Layout | None]:
    """One walk: its best layout after the moves, and the best sketch they started from."""
    began = time.monotonic()
    phase = [began, schedule.stall]

    def halted() -> bool:
        """Interrupted, or the walks halted: a sketch attempt ends midway on it."""
        return stop() or fleet.halted()

    def stalled() -> bool:
        """Halted, interrupted, no walk has a layout by `give_up`, or none has improved for this phase's stall."""
        if halted():
            return True
        best = fleet.best()
        if best is None:
            return time.monotonic() - began >= schedule.give_up
        if phase[1] is None:
            return False
        return time.monotonic() - max(phase[0], best[2]) >= phase[1]

    sketch = best_sketch(ruleset, board, catalog, ids, seed=seed, fixed=fixed, order=order,
                         time_limit=schedule.sketch_seconds, on_better=fleet.better, stop=stalled, worth=worth,
                         halt=halted)
    if sketch is None or schedule.improve_seconds <= 0:
        return sketch, sketch
    phase[:] = [time.monotonic(), schedule.later_stall]
    return improve(sketch, schedule.improve_seconds, seed=seed, on_better=lambda _, score: fleet.better(score),
                   stop=stalled), sketch


def _parsed(document: dict, context: Context) -> Layout:
    """A child's layout document read back (its options included) in this process."""
    return parse_layout_body("<layout>", "", document, context)
