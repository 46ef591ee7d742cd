"""Searching final factories by the games that build them.

A game that builds a final factory F round by round (solver/build_order.py)
scores about start money + the static score of F - the temporary tiles its build
order needs, and the replay tells the exact figure in milliseconds. So the
planner searches over final factories, each judged by the game derived from it:

1. Choice: which offered machine each round takes (solo: the one offered, or
   none). The start is the geometry-free relaxation (solver/bounds.py) with feeds
   running forward in round order, which a game builds without rewiring.
2. Sketches: the combinatorial sketch (solver/sketch) lays the chosen machines,
   on most attempts strictly in round order (every chain then runs from an
   earlier machine to a later one), on the others in a free feeding order; each
   legal sketch is turned into a game and replayed.
3. Ruin and recreate from the best sketch, as in solver/sketch/improve.py but
   judged by the game: lift a few machines that work together with their
   networks and sketch them again (round order first, then free orders: measured
   better than round order only, solo seed 1 at 60 s: 101 against 92). In a round
   with a choice a lifted machine may be swapped for another of its round's
   offer; a lifted machine may be dropped, and an empty round may get a machine.
   A move is kept when its game scores at least about as well as the current one
   (a point or two worse sometimes, so the walk does not stall).
4. Episodes: a walk whose best stands unimproved for a while starts again from
   new sketches (a 300 s walk stood at 101 from 60 s on). The best game of all
   is kept.

Measured (results/plan.md): on solo seed 1 the best strictly ordered sketch gave
a game of 92 within 6 s, where the CP-SAT decomposition this replaced reached
55-58 in 60 s and 87 in 600 s.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from models.game import Game
from models.layout import Layout

from .bounds import topology_bound
from .build_order import BuiltGame, build_towards
from .sketch.improve import related_machines, ruined, slack
from .sketch.search import sketch_attempts

#: share of the search's time for sketches of the first choice (the rest goes to ruin and recreate)
SKETCH_SHARE = 0.15
#: at most this many seconds of first sketches
SKETCH_CAP = 20.0
#: every this-many-th first sketch uses a free feeding order instead of the round order
FREE_EVERY = 3
#: sketch attempts per ruin-and-recreate move
ATTEMPTS_PER_MOVE = 3
#: chances, per move, of swapping a lifted machine for another of its round, dropping one, filling an empty round
SWAP, DROP, FILL = 0.35, 0.1, 0.3
#: a walk whose best stands this long unimproved (max of seconds and share of the search) restarts from new sketches
STALL_SECONDS, STALL_SHARE = 20.0, 0.2

Better = Callable[[BuiltGame, float], None]


@dataclass
class Found:
    """The best game of a search, the final factory it builds and the seed that derived it."""

    built: BuiltGame
    final: Layout
    seed: int


@dataclass
class _Best:
    """The best game found so far (every judged factory is offered to it) and whom to tell."""

    game: Game
    on_better: Better | None
    start: float
    found: Found | None = None

    def judge(self, final: Layout, seed: int) -> BuiltGame:
        built = build_towards(self.game, final, seed)
        if self.found is None or built.final_score > self.found.built.final_score:
            self.found = Found(built, final, seed)
            if self.on_better is not None:
                self.on_better(built, time.monotonic() - self.start)
        return built


def offer_rounds(game: Game) -> dict[str, list[int]]:
    """For each offered machine, the rounds that offer it."""
    rounds: dict[str, list[int]] = {}
    for t, rnd in enumerate(game.rounds):
        for m in dict.fromkeys(rnd.offered):
            rounds.setdefault(m, []).append(t)
    return rounds


def first_choice(game: Game, time_limit: float) -> list[str]:
    """One offered machine per round (or none), as the forward-chaining relaxation picks them."""
    c = game.context
    rounds = offer_rounds(game)
    ids = list(rounds)
    if all(len(set(r.offered)) <= 1 for r in game.rounds) and len(ids) == sum(1 for r in game.rounds if r.offered):
        return ids  # solo: every machine (drop moves leave out what does not pay)
    groups = [list(dict.fromkeys(r.offered)) for r in game.rounds]
    relaxed = topology_bound(c.ruleset, c.catalog, ids, optional=True, time_limit=time_limit, groups=groups,
                             ranks={m: t[0] for m, t in rounds.items()}, pair_cuts=False)
    if relaxed.chosen:
        return _in_round_order(relaxed.chosen, rounds)
    return _in_round_order([max(g, key=lambda m: c.catalog[m].income) for g in groups if g], rounds)


def _in_round_order(ids: list[str], rounds: dict[str, list[int]]) -> list[str]:
    return sorted(dict.fromkeys(ids), key=lambda m: rounds[m][0])


def search_plans(game: Game, deadline: float, seed: int = 0, on_better: Better | None = None,
                 stop: Callable[[], bool] | None = None, stop_at: int | None = None,
                 start_from: Layout | None = None) -> Found | None:
    """The best game found by sketches and ruin and recreate before `deadline` (None: no factory at all).

    `stop()` ends the search early (Ctrl-C); so does a game reaching `stop_at`, a
    proven bound on the final score. `start_from`, a final factory known to be good (a
    played game's, for `analyze`), gets the first walk of moves, before any sketch.
    """
    start = time.monotonic()
    best = _Best(game, on_better, start)

    def halted() -> bool:
        if stop_at is not None and best.found is not None and best.found.built.final_score >= stop_at:
            return True
        return time.monotonic() >= deadline or (stop is not None and stop())

    rng = random.Random(seed)
    rounds = offer_rounds(game)
    choice = first_choice(game, min(10.0, (deadline - start) / 10))
    total = deadline - start
    sketch_seconds = min(SKETCH_CAP, SKETCH_SHARE * total)
    stall = max(STALL_SECONDS, STALL_SHARE * total)
    if start_from is not None and not halted():
        known = start_from.with_parts(options=game.options)
        _ruin_and_recreate(best, (known, best.judge(known, rng.randrange(1 << 30)).final_score), rounds, rng,
                           deadline, halted, stall)
    while not halted():  # episodes: fresh sketches, then ruin and recreate until it stalls
        first = _first_sketches(best, choice, rng, min(deadline, time.monotonic() + sketch_seconds), halted)
        if first is None:
            # no sketch of them all in a whole episode (expert-E, ten machines: none in 16 s, so a 20 s plan took
            # nothing): one fewer next time, chosen at random; moves can fill its round again later
            if len(choice) > 1:
                dropped = rng.randrange(len(choice))
                choice = choice[:dropped] + choice[dropped + 1:]
            continue
        _ruin_and_recreate(best, first, rounds, rng, deadline, halted, stall)
    return best.found


def _first_sketches(best: _Best, choice: list[str], rng: random.Random, end: float,
                    halted: Callable[[], bool]) -> tuple[Layout, int] | None:
    """Sketches of `choice` until `end`, each judged by its game; the best (factory, final score)."""
    c = best.game.context
    n = 0
    episode: tuple[Layout, int] | None = None
    while not halted() and time.monotonic() < end:
        strict = n % FREE_EVERY != FREE_EVERY - 1
        n += 1
        for attempt in sketch_attempts(c.ruleset, c.board, c.catalog, choice, seed=rng.randrange(1 << 30),
                                       time_limit=min(2.0, max(0.1, end - time.monotonic())), order=choice,
                                       strict=strict):
            if attempt.layout is not None:
                final = attempt.layout.with_parts(options=best.game.options)
                score = best.judge(final, rng.randrange(1 << 30)).final_score
                if episode is None or score > episode[1]:
                    episode = (final, score)
                break
            if halted():
                return episode
    return episode


def _ruin_and_recreate(best: _Best, start: tuple[Layout, int], rounds: dict[str, list[int]], rng: random.Random,
                       deadline: float, halted: Callable[[], bool], stall: float) -> None:
    """Moves from `start` until halted, or until the walk's best has stood `stall` seconds unimproved."""
    game = best.game
    c = game.context
    current, score = start
    top, top_at = score, time.monotonic()
    while not halted() and time.monotonic() - top_at < stall:
        kept, todo = _move(game, current, rounds, rng)
        if not todo and len(kept.machines) == len(current.machines):
            continue
        order = _in_round_order(todo, rounds)
        ids = kept.machine_ids + order
        if not order:
            candidates = [kept]
        else:
            candidates = []
            for n, attempt in enumerate(sketch_attempts(c.ruleset, c.board, c.catalog, ids,
                                                        seed=rng.randrange(1 << 30),
                                                        time_limit=min(2.0, max(0.05, deadline - time.monotonic())),
                                                        fixed=kept, order=order)):
                if attempt.layout is not None:
                    candidates.append(attempt.layout)
                    break
                if n + 1 >= ATTEMPTS_PER_MOVE or halted():
                    break
        for final in candidates:
            built = best.judge(final, rng.randrange(1 << 30))
            if built.final_score >= score - slack(rng):
                current, score = final, built.final_score
                if score > top:
                    top, top_at = score, time.monotonic()


def _move(game: Game, layout: Layout, rounds: dict[str, list[int]], rng: random.Random) -> tuple[Layout, list[str]]:
    """A ruined layout and the machines to sketch into it (the lifted ones, some swapped, dropped or added)."""
    placed = set(layout.machine_ids)
    taken_rounds = {t for m in placed for t in rounds.get(m, ())[:1]}
    lifted: set[str] = set()
    if layout.machines:
        lifted = related_machines(layout, rng.choice((1, 2, 2, 3, 3, 4)), rng)
    todo: list[str] = []
    for m in sorted(lifted):
        roll = rng.random()
        if roll < DROP:
            continue
        others = [o for t in rounds.get(m, ()) for o in dict.fromkeys(game.rounds[t].offered)
                  if o != m and o not in placed]
        if others and roll < DROP + SWAP:
            todo.append(rng.choice(others))
        else:
            todo.append(m)
    if rng.random() < FILL:
        empty = [t for t, rnd in enumerate(game.rounds) if rnd.offered and t not in taken_rounds]
        if empty:
            t = rng.choice(empty)
            todo.append(rng.choice(list(dict.fromkeys(game.rounds[t].offered))))
    todo = list(dict.fromkeys(m for m in todo if m not in placed - lifted))
    return ruined(layout, lifted), todo
