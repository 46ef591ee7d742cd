"""The best game for a known sequence: final factories searched by the games that build them.

1. **Bound.** Every tile of the final layout is paid for at least once and
   penalties are never negative, so for any legal game `final score <= start
   money + static score of its final layout`, whose machines hold at most one
   machine per round. The geometry-free topology relaxation (solver/bounds.py)
   over every offered machine, optional, at most one a round, bounds that static
   score, so start money + its value is a proven bound on the game. (The static
   CP-SAT model over all offered machines gave the same bound on the benchmark
   sequences after 60 s, so it is no longer run; results/plan.md.)
2. **Search** (solver/plan_search.py): final factories from the combinatorial
   sketch and ruin and recreate, each judged by the game solver/build_order.py
   derives from it (machines where the factory has them from the round they are
   taken, each round's layout the part of the factory its machines need plus
   temporary tiles). One search per worker process, each with its own seed.
3. **Judge.** The best game is replayed by models.replay; a plan the replay
   rejects is a bug, raised as an internal error.
4. **Exact game model** (solver/staged.py) for games of at most SHORT_GAME
   rounds, warm-started from the best game with the bound as a cut: it proves
   short games optimal, and its own bound replaces the static one when tighter.
   On 10-round games it improved no warm start in 60 s, so it is not run there.
"""
from __future__ import annotations

import math
import time
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Callable

from models.game import Game, Round
from models.layout import Layout
from models.replay import ReplayResult, replay_game
from models.wording import up_to_seconds

from .background import Background
from .bounds import TopologyBound, topology_bound
from .plan_parallel import parallel_search
from .plan_polish import polish_game
from .search import Interrupt, Progress, in_worker_thread
from .staged import solve_staged
from .static import model_seconds, model_too_dear

RoundReport = Callable[[str], None]

#: the exact game model runs in games of at most SHORT_GAME rounds and gets STAGED_SHARE of the time
#: (it proves small 1- and 2-round games in seconds; from a warm start it improved no 10-round plan in 60 s)
STAGED_SHARE = 0.3
SHORT_GAME = 3
#: ... and games of at most TINY_GAME rounds give it TINY_STAGED_SHARE: on 60 s runs of four 1-2 round
#: sequences it found the better game each time (18 vs 16, 13 vs 11, proved 6 in 11 s instead of 45 s),
#: while a 3-round game lost 4 points with it
TINY_GAME, TINY_STAGED_SHARE = 2, 0.85
#: there the search hands over to the game model once its best has stood this long (seconds)
TINY_STALL = 3.0
#: games longer than SHORT_GAME end with their best plan's rounds re-laid by CP-SAT (solver/plan_polish.py) in
#: this share of the time, at most POLISH_BASE + POLISH_PER_ROUND seconds a round (three 60 s Funner solo plans
#: 43 / 43 / 50 -> 47 / 48 / 50 in 3-6 s of it; the benchmarks' medians stayed within their spread; most
#: rounds are re-laid in 1-2 s, the last in 3-5 s)
POLISH_SHARE, POLISH_BASE, POLISH_PER_ROUND = 0.15, 3.0, 2.0
#: seconds for the topology relaxation's bound: a share of the time limit, at most the cap (30 offered
#: machines are proved in 6-30 s; stopped earlier the bound is still valid, only weaker)
BOUND_SHARE, BOUND_CAP = 0.1, 30.0
#: a relaxation not settled by then goes on in a forked process beside the search until BESIDE_MARGIN
#: seconds before its end (the search then waits up to that long for its value), if that leaves it
#: BESIDE_LEAST seconds or more
BESIDE_MARGIN, BESIDE_LEAST = 3.0, 10.0


class PlanReplayDisagreement(AssertionError):
    """The planner produced a game that the replay judges illegal (a bug in one of them)."""


@dataclass
class PlanResult:
    game: Game
    replay: ReplayResult
    bound: int | None             # proven upper bound on the final score
    target: Layout | None         # the final factory the plan builds
    seconds: float
    interrupted: bool = False
    strategy: str = "search"      # which method gave the plan: "search", "polished", "exact", "played" or "none"
    best_seconds: float | None = None   # when the search found its best game

    @property
    def final_score(self) -> int:
        return self.replay.final_score

    @property
    def status(self) -> str:
        if self.bound is not None and self.final_score >= self.bound:
            return "OPTIMAL"
        return "FEASIBLE"

    @property
    def gap(self) -> float | None:
        if self.bound is None or self.bound <= 0:
            return None
        return max(0.0, (self.bound - self.final_score) / self.bound)

    def to_document(self) -> dict:
        result = self.replay.to_dict()
        result.update({"bound": self.bound, "status": self.status, "strategy": self.strategy,
                       "gap": None if self.gap is None else round(self.gap, 4), "seconds": round(self.seconds, 2)})
        if self.interrupted:   # (QA: `plan --json` stopped by Ctrl-C said so nowhere)
            result["interrupted"] = True
        return self.game.to_dict(result)


def plan_game(game: Game, time_limit: float = 600.0, workers: int = 2, seed: int = 0,
              progress: Progress | None = None, report: RoundReport | None = None,
              known: Game | None = None) -> PlanResult:
    """The best plan found for the sequence in `game` (its taken/layout are ignored).

    `progress(best final score, bound, elapsed)` reports the search as it goes;
    Ctrl-C stops it and returns the best plan found so far. `known`, a game of the
    same sequence (the one `analyze` scores), if legal, is where the search starts
    (its final factory) and a plan of its own: the answer never scores below it
    (QA: a 20 s plan of a 3-round game scored 23 where the player's scored 28, and
    `analyze` called it the best plan).
    """
    start = time.monotonic()
    say = report or (lambda _text: None)
    short, tiny = len(game.rounds) <= SHORT_GAME, len(game.rounds) <= TINY_GAME
    staged_share = TINY_STAGED_SHARE if tiny else STAGED_SHARE if short else 0.0
    polishing = polish_seconds(len(game.rounds), time_limit)
    deadline = start + time_limit * (1 - staged_share) - polishing
    played = _known_candidate(known, say) if known is not None else None
    start_from = played[3].final_layout if played is not None else None
    with Interrupt() as interrupt, ExitStack() as beside:
        ids = list(dict.fromkeys(m for r in game.rounds for m in r.offered))
        outside = _beside_relaxation(game)   # (what the bound adds to any relaxation's value)
        bound_until = start + min(BOUND_CAP, BOUND_SHARE * time_limit)
        bounding = max(0.0, bound_until - time.monotonic())
        say(f"bounding the final score (up to {bounding:.{0 if bounding >= 10 else 1}f} s), then planning")
        computed, answer = in_worker_thread(lambda: _final_bound(game, ids, bound_until), lambda: interrupt.flag)
        bound, settled = answer if computed else (None, False)   # (Ctrl-C: no bound, and no search)
        if computed:
            tokens = " + last-pick tokens" if outside > game.start_money else ""
            say(f"bound on the final score: {bound} (start money{tokens} + the relaxation of the offered machines)"
                if bound is not None else "no bound on the final score in the time given")
        later = deadline - BESIDE_MARGIN - time.monotonic()
        relaxing = (beside.enter_context(_relaxation_beside(game, ids, later))
                    if not settled and later >= BESIDE_LEAST and not interrupt.flag else None)

        best_seconds: list[float] = []
        best_score: list[int] = []

        floor = played[0] if played is not None else None   # (the known game is a plan already)

        def show(score: int) -> None:
            if progress is not None:
                score = score if floor is None else max(score, floor)
                progress(float(score), float(bound if bound is not None else math.inf), time.monotonic() - start)

        if floor is not None:
            show(floor)

        def better(score: int, elapsed: float) -> None:
            best_seconds[:], best_score[:] = [time.monotonic() - start], [score]
            show(score)

        def relaxed(wait: float = 0.0) -> None:
            """The bound from beside the search, once it has come (and is tighter)."""
            nonlocal bound, relaxing
            value = None if relaxing is None else relaxing.wait(wait)
            if value is None:
                return
            relaxing = None
            if bound is None or outside + value < bound:
                bound = outside + value
                say(f"bound on the final score: {bound} (the relaxation went on beside the search)")
                if best_score:
                    show(best_score[0])

        def stopped() -> bool:
            relaxed()
            stalled = tiny and bool(best_seconds) and time.monotonic() - start - best_seconds[0] > TINY_STALL
            # a bound that came from beside the search after it started is one the search was not told to stop at
            # (FF49, FF52, FF05 with the bound left to the relaxation: 25 of 25 at 2 s, and on to 14 s)
            met = bool(best_score) and bound is not None and best_score[0] >= bound
            return interrupt.flag or stalled or met

        found = None if interrupt.flag else parallel_search(game, deadline, workers, seed, better, stopped, stop_at=bound,
                                                            start_from=start_from)
        if not interrupt.flag:   # its time ended BESIDE_MARGIN before the search's: its value is on its way
            relaxed(max(0.5, start + time_limit - time.monotonic()))
        target: Layout | None = None
        if found is not None:
            rounds, target = found.rounds, found.final
            best = _judged_candidate(game, "search", rounds, say)
        else:   # (QA: "no plan found (taking nothing scores 2)" above a best of the given game's 82)
            best = _judged_candidate(game, "none", [r.planned(None, None) for r in game.rounds],
                                     say if played is None else lambda _text: None)
            if played is not None:
                say(f"the search found no plan of its own; {_CANDIDATES['played']} stands ({played[0]})"
                    if played[0] >= best[0] else f"no plan found; taking nothing scores {best[0]}, more than "
                    f"{_CANDIDATES['played']}")
        if played is not None:   # (ties keep the search's plan)
            best = max([best, played], key=lambda item: item[0])
        board, most = game.context.board, len(best[3].final_layout.machines)
        # a board too big to model in the time left is not modelled (QA: on a 40 x 40 board the step took 9.7 s
        # of its 3 and the plan ended 7 s past its limit, at 950 MB)
        dear = model_too_dear(board, most, start + time_limit - time.monotonic())
        relaying = polishing and not interrupt.flag and (bound is None or best[0] < bound)
        if relaying and dear:
            say(f"no rounds re-laid with CP-SAT: the board's {len(board.cells)} cells take about "
                f"{model_seconds(board, most):.0f} s to model")
        elif relaying:
            # (QA: nothing said the step ran, nor that it found nothing, so a plan's last seconds looked idle)
            say(f"re-laying its rounds with CP-SAT ({up_to_seconds(start + time_limit - time.monotonic())})")
            polished, replayed = polish_game(best[2], start + time_limit, workers, seed, interrupt,
                                             lambda score: better(score, 0.0))
            if replayed.final_score > best[0]:
                best = _judged_candidate(game, "polished", polished.rounds, say)
            else:
                say(f"no round re-laid scores more ({best[0]} stands)")
        if (not interrupt.flag and short and not dear and (bound is None or best[0] < bound)
                and time.monotonic() < start + time_limit):
            say("the whole game as one CP-SAT model (every round's layout, linked by what a round may change), "
                f"started from the best plan ({up_to_seconds(start + time_limit - time.monotonic())})")
            exact = solve_staged(game, best[2], bound, start + time_limit, workers, seed,
                                 _continued(progress, start, best[0], bound), interrupt)
            if exact.bound is not None and (bound is None or exact.bound < bound):
                bound = exact.bound
            if exact.rounds is not None:  # ties keep the search's plan
                modelled = _judged_candidate(game, "exact", exact.rounds, lambda _text: None)
                # (QA: "exact plan: final score 16" read as the answer after the search's 18)
                say(f"the game model's plan: final score {modelled[0]}"
                    + (f" ({_CANDIDATES.get(best[1], best[1])} scores more: {best[0]})" if modelled[0] < best[0] else ""))
                best = max([best, modelled], key=lambda item: item[0])
            say(f"the whole-game model {_GAME_MODEL_ENDS.get(exact.status, exact.status)}; bound on the final score {bound}")
        interrupted = interrupt.flag
        show(best[0])   # the judged plan's score is the answer's (QA: the last line said 61, the final score 64)
    _, name, plan, replayed = best
    return PlanResult(plan, replayed, bound, target, time.monotonic() - start, interrupted, strategy=name,
                      best_seconds=best_seconds[0] if best_seconds else None)


def polish_seconds(rounds: int, time_limit: float) -> float:
    """The end of the time a plan of `rounds` rounds leaves to re-laying its best plan's rounds: none in short
    games, where the game model has its share instead."""
    return 0.0 if rounds <= SHORT_GAME else min(POLISH_BASE + POLISH_PER_ROUND * rounds, POLISH_SHARE * time_limit)


#: what the whole-game model's end status means, said in the plan's progress (QA pass 54: "game model: unknown"
#: named a model nothing had introduced, and left its status unexplained)
_GAME_MODEL_ENDS = {"OPTIMAL": "proved its best plan optimal", "FEASIBLE": "found a plan but no proof in its time",
                    "UNKNOWN": "found no plan and no proof in its time",
                    "INFEASIBLE": "found no game at all (infeasible)"}


def _continued(progress: Progress | None, start: float, best: int, bound: int | None) -> Progress | None:
    """The game model's progress as the plan's: seconds since the plan began, and never a best below the
    search's nor a bound above the one already proved (the model counts from its own start and bound)."""
    if progress is None:
        return None

    def report(value: float, model_bound: float, _elapsed: float) -> None:
        progress(max(value, float(best)), model_bound if bound is None else min(model_bound, float(bound)),
                 time.monotonic() - start)
    return report


def _final_bound(game: Game, ids: list[str], until: float) -> tuple[int | None, bool]:
    """Start money + the relaxation over the offered machines (optional, one a round): networks only
    first, then, in what is left of its time, with the geometric cuts of solver/pair_cuts.py and
    solver/triangle_cuts.py too; the smaller of the two (both are sound). Also whether the relaxation
    with the cuts settled (every cut it asks for was found); if not, `_game_relaxation` goes on beside
    the search.

    The cuts tighten the solo sequences' bound (143 / 121 / 121 -> 141 / 118 / 118 on the benchmark's, in
    2-8 s), but thirty offered machines (3 offers a round) are not proved with them in 30 s, and are
    proved without them in 10-30 s: so networks first. The second relaxation also pays for the tiles a
    game lays and lifts around its port-to-port feeds (`game=True`): solo 141 / 118 / 118 -> 138 / 115 /
    116 with this and the deeper tree searches; the first does not, as thirty machines are slower to prove
    with it (3-offer seed 2: 171 proved in 6 s without, 177 unproved at 30 s with).
    """
    values, settled = [], False
    for cuts in (False, True):
        left = until - time.monotonic()
        if left <= 0 or (cuts and _no_cuts(game)):
            break   # no time; the cuts count a pipe per cell, so not with the diagonal tile
        answer = _game_relaxation(game, ids, left, cuts)
        if answer.value is not None:
            values.append(answer.value)
        settled = cuts and answer.settled   # (the networks-only count always settles: it asks for no cuts)
    return (_beside_relaxation(game) + min(values) if values else None), settled or _no_cuts(game)


def _beside_relaxation(game: Game) -> int:
    """What a game's final score holds beside the relaxation's incomes, bonuses and tiles: the start money,
    and Funner's last-pick tokens (+1 on a built machine) in the rounds that carry one (a plan keeps a played
    game's tokens; QA: a plan of 17 with one under a bound of 16, called OPTIMAL). The first-pick fee only
    lowers a score, so the bound leaves it out."""
    return game.start_money + sum(rnd.last_pick_token(game.ruleset) for rnd in game.rounds)


def _no_cuts(game: Game) -> bool:
    """The geometric cuts count a pipe per cell, so a game with the diagonal tile (a pipe over two cells) has none."""
    return bool(game.options.get("diagonal_intersection"))


def _game_relaxation(game: Game, ids: list[str], seconds: float, cuts: bool = True) -> TopologyBound:
    """The relaxation of the offered machines (optional, one a round); with `cuts`, every cut but the whole
    groups' and the tiles a game pays around its port-to-port feeds: sound at any time limit (its last
    round solved to optimality)."""
    c = game.context
    return topology_bound(c.ruleset, c.catalog, ids, optional=True, time_limit=max(0.0, seconds),
                          groups=[list(r.offered) for r in game.rounds], pair_cuts=cuts, triangles=cuts, game=cuts)


def _relaxation_beside(game: Game, ids: list[str], seconds: float) -> Background[int | None]:
    """`_game_relaxation` in a forked process for `seconds`, from the cuts this process found (the fork
    inherits their pool): thirty offered machines (3 offers a round) are not settled in the bound's 30 s
    (3-offer seeds 1-3: 171 / 167 / 171 after 300 s, against 181 / 171 / 180 networks only)."""
    return Background(lambda: _game_relaxation(game, ids, seconds).value)


#: how the progress lines name each candidate plan (by its strategy)
_CANDIDATES = {"search": "the search's plan", "polished": "the best plan with its rounds re-laid by CP-SAT",
               "exact": "the game model's plan", "played": "the given game"}


def _judged_candidate(game: Game, name: str, rounds: list[Round], say: RoundReport) -> tuple[int, str, Game, ReplayResult]:
    """(final score, strategy, game, replay) of one candidate plan, judged by the replay."""
    plan = game.with_rounds(rounds)
    replayed = _judged(plan)
    # (candidates, judged by the replay; the last progress line after them is the answer: QA read "search plan:
    # final score 24" then "plan: best 24 ..." as a search going on after its answer)
    say(f"{_CANDIDATES.get(name, name)}: final score {replayed.final_score} (replayed)" if name != "none"
        else f"no plan found (taking nothing scores {replayed.final_score})")
    return replayed.final_score, name, plan, replayed


def _known_candidate(known: Game, say: RoundReport) -> tuple[int, str, Game, ReplayResult] | None:
    """The known game as a candidate plan, replayed once ("played"), or None when it is illegal (said: QA
    saw it passed over without a word)."""
    replayed = replay_game(known)
    if not replayed.legal:
        number, violation = replayed.violations[0]
        say(f"the given game is illegal (round {number}: {violation.rule}), so the search starts from scratch")
        return None
    # (QA: "played plan" for a game the player gave: it is that game, which the search starts from)
    say(f"the given game: final score {replayed.final_score} (the search starts from it)")
    return replayed.final_score, "played", known, replayed


def _judged(plan: Game) -> ReplayResult:
    """The replay is the judge: a plan it rejects is a bug in the planner or the replay."""
    replayed = replay_game(plan)
    if not replayed.legal:
        problems = "; ".join(f"round {n}: {v.rule}: {v.message}" for n, v in replayed.violations)
        raise PlanReplayDisagreement(f"internal error: the planner produced an illegal game ({problems})")
    return replayed
