"""The plan search on every core: one search per worker process, each with its own seed.

The search (solver/plan_search.py) is pure Python, so threads would share one
core. Forked worker processes inherit the game without pickling it; each runs a
search and sends back its improvements (for the progress lines) and, at the end,
its best final factory and the seed that derived its game. The parent runs a
search of its own and derives the game of every child's factory again, so the
plan it returns was judged in its own process (build_order is deterministic for
a given factory and seed). Children ignore Ctrl-C: the parent's interrupt flag
stops them through a shared event, and they still send what they found.
"""
from __future__ import annotations

import multiprocessing
import queue
import signal
import time
from dataclasses import dataclass
from typing import Callable

from models.game import Game, Round
from models.layout import Layout, parse_layout_body

from .build_order import build_towards
from .plan_search import Found, search_plans

#: seconds a child may take past the deadline to send its result before it is given up
GRACE = 10.0


@dataclass
class ParallelFound:
    """The best plan of all searches: its rounds, the final factory and its final score."""

    rounds: list[Round]
    final: Layout
    score: int


def parallel_search(game: Game, deadline: float, workers: int, seed: int, on_better: Callable[[int, float], None],
                    stop: Callable[[], bool], stop_at: int | None = None) -> ParallelFound | None:
    """The best plan that `workers` searches (this process and workers - 1 children) find by `deadline`.

    Every search stops once any of them reaches `stop_at` (a proven bound).
    """
    context = multiprocessing.get_context("fork")
    messages = context.Queue()
    halt = context.Event()
    children = [context.Process(target=_child, args=(game, deadline, seed + 7919 * k, stop_at, messages, halt),
                                 daemon=True)
                for k in range(1, max(1, workers))]
    for child in children:
        child.start()
    start = time.monotonic()
    best: list[int | None] = [None]
    finals: list[tuple[int, dict, int]] = []
    errors: list[str] = []
    done = [0]

    def report(score: int) -> None:
        if best[0] is None or score > best[0]:
            best[0] = score
            on_better(score, time.monotonic() - start)

    def drain(wait: float = 0.0) -> None:
        while True:
            try:
                kind, payload = messages.get(timeout=wait) if wait else messages.get_nowait()
            except queue.Empty:
                return
            if kind == "better":
                report(payload)
            else:
                done[0] += 1
                if kind == "done" and payload is not None:
                    finals.append(payload)
                elif kind == "error":
                    errors.append(payload)
            wait = 0.0

    def stopped() -> bool:
        drain()
        if stop() or (stop_at is not None and best[0] is not None and best[0] >= stop_at):
            halt.set()
            return True
        return False

    own = search_plans(game, deadline, seed, on_better=lambda b, _: report(b.final_score), stop=stopped,
                       stop_at=stop_at)
    halt.set()
    give_up = max(deadline, time.monotonic()) + GRACE
    while done[0] < len(children) and time.monotonic() < give_up:
        drain(wait=0.2)
    for child in children:
        child.join(timeout=1.0)
        if child.is_alive():
            child.terminate()
    if errors:
        raise RuntimeError(f"internal error in a plan search process: {errors[0]}")
    return _best_of(game, own, finals)


def _best_of(game: Game, own: Found | None, finals: list[tuple[int, dict, int]]) -> ParallelFound | None:
    """The best of this process's plan and the children's factories, each derived and judged here."""
    candidates = [] if own is None else [ParallelFound(own.built.rounds, own.final, own.built.final_score)]
    for _, body, seed in sorted(finals, key=lambda f: -f[0]):
        final = parse_layout_body(game.source, "final", body, game.context, game.options)
        built = build_towards(game, final, seed)
        candidates.append(ParallelFound(built.rounds, final, built.final_score))
    return max(candidates, key=lambda c: c.score, default=None)


def _child(game: Game, deadline: float, seed: int, stop_at: int | None, messages, halt) -> None:
    """A worker process: search, report improvements, send the best factory (never raises)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        found = search_plans(game, deadline, seed, on_better=lambda b, _: messages.put(("better", b.final_score)),
                             stop=halt.is_set, stop_at=stop_at)
        if found is None:
            messages.put(("done", None))
        else:
            body = found.final.to_dict()
            messages.put(("done", (found.built.final_score, {"machines": body["machines"], "tiles": body["tiles"]},
                                   found.seed)))
    except Exception as exc:  # reported by the parent as an internal error
        messages.put(("error", f"{type(exc).__name__}: {exc}"))
