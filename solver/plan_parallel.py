"""The plan search on every core: one search per worker process (solver/fleet.py), each with its own seed.

Each search sends back, at the end, its best final factory and the seed that
derived its game. The parent runs a search of its own and derives the game of
every child's factory again, so the plan it returns was judged in its own
process (build_order is deterministic for a given factory and seed).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from models.game import Game, Round
from models.layout import Layout, parse_layout_body

from .build_order import build_towards
from .fleet import Fleet
from .plan_search import Found, search_plans

#: a child's result: (final score, the final factory's machines and tiles, the seed that derived its game)
_Final = tuple[int, dict, int]


@dataclass
class ParallelFound:
    """The best plan of all searches: its rounds, the final factory and its final score."""

    rounds: list[Round]
    final: Layout
    score: int


def parallel_search(game: Game, deadline: float, workers: int, seed: int, on_better: Callable[[int, float], None],
                    stop: Callable[[], bool], stop_at: int | None = None,
                    start_from: Layout | None = None) -> ParallelFound | None:
    """The best plan that `workers` searches (this process and workers - 1 children) find by `deadline`.

    Every search stops once any of them reaches `stop_at` (a proven bound); each starts from `start_from`
    when given (`search_plans`).
    """
    start = time.monotonic()

    def child(child_seed: int, fleet: Fleet[_Final]) -> _Final | None:
        found = search_plans(game, deadline, child_seed, on_better=lambda b, _: fleet.better(b.final_score),
                             stop=fleet.halted, stop_at=stop_at, start_from=start_from)
        if found is None:
            return None
        body = found.final.to_dict()
        return found.built.final_score, {"machines": body["machines"], "tiles": body["tiles"]}, found.seed

    with Fleet(child, workers, seed) as fleet:
        def stopped() -> bool:
            news, best = fleet.news(), fleet.best()
            if news is not None:
                on_better(news[0], time.monotonic() - start)
            if stop() or (stop_at is not None and best is not None and best[0] >= stop_at):
                fleet.halt()
            return fleet.halted()

        own = search_plans(game, deadline, seed, on_better=lambda b, _: fleet.better(b.final_score), stop=stopped,
                           stop_at=stop_at, start_from=start_from)
        finals = fleet.results(deadline)
    return _best_of(game, own, finals)


def _best_of(game: Game, own: Found | None, finals: list[_Final]) -> ParallelFound | None:
    """The best of this process's plan and the children's factories, each derived and judged here."""
    candidates = [] if own is None else [ParallelFound(own.built.rounds, own.final, own.built.final_score)]
    for _, body, seed in sorted(finals, key=lambda f: -f[0]):
        final = parse_layout_body(game.source, "final", body, game.context, game.options)
        built = build_towards(game, final, seed)
        candidates.append(ParallelFound(built.rounds, final, built.final_score))
    return max(candidates, key=lambda c: c.score, default=None)

