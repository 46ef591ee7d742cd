"""The best game for a known sequence: a target factory, then the cheapest way to build it.

Decomposition (documented in results/plan.md):
1. **Target and bound.** Every tile of the final layout is paid for at least
   once and penalties are never negative, so for any legal game
   `final score <= start money + static score of its final layout`, whose
   machines hold at most one machine per round. One static CP-SAT model with
   optional machines and "at most one machine of each round's offer" therefore
   gives a proven upper bound (start money + its objective bound) and, from its
   best solution, the target factory.
2. **Schedule.** Round by round, the target's machine offered that round is
   taken and placed where the target has it; a small CP-SAT model chooses that
   round's tiles: keep what is on the board for free, pay 1 for anything new,
   prefer tiles the target keeps (temporary tiles are paid twice: now and when
   replaced), never let money drop below 1; the last build maximises the chain
   bonus minus its cost. Machines never move, so no 2-per-move costs arise.
3. **Judge.** The plan is replayed by models.replay; a plan the replay rejects
   is a bug, raised as an internal error.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

from models.check import CheckResult
from models.game import Game, Round
from models.layout import Layout, MachinePlacement
from models.replay import ReplayResult, replay_game, round_cost

from .extract import checked_layout, layout_from_values
from .model import StaticModel, build_static_model, layout_literals
from .search import Interrupt, Progress, run, value_reader

RoundReport = Callable[[str], None]


class PlanReplayDisagreement(AssertionError):
    """The planner produced a game that the replay judges illegal (a bug in one of them)."""


@dataclass
class PlanResult:
    game: Game
    replay: ReplayResult
    bound: int | None             # proven upper bound on the final score
    target: Layout | None
    target_status: str
    seconds: float
    interrupted: bool = False
    log: list[str] = field(default_factory=list)

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
        result.update({"bound": self.bound, "status": self.status,
                       "gap": None if self.gap is None else round(self.gap, 4), "seconds": round(self.seconds, 2)})
        return self.game.to_dict(result)


def _checked_game_layout(game: Game, built: StaticModel, values: list[int]) -> tuple[Layout, CheckResult]:
    """The solver's layout, carrying the game's options, pruned and judged by the checker."""
    raw = layout_from_values(built.vars, value_reader(values), bool(game.options.get("diagonal_intersection")))
    return checked_layout(raw.with_parts(options=game.options))


def _tile_literals(built: StaticModel) -> list:
    """Every tile literal, once per unit of cost (a diagonal tile's literal appears twice)."""
    v = built.vars
    return list(v.y) + list(v.supply.values()) + list(v.output.values()) + list(v.end.values())


def _offer_rounds(game: Game) -> tuple[list[str], dict[str, list[int]]]:
    ids: list[str] = []
    rounds_of: dict[str, list[int]] = {}
    for t, rnd in enumerate(game.rounds):
        for machine_id in rnd.offered:
            if machine_id not in rounds_of:
                ids.append(machine_id)
            rounds_of.setdefault(machine_id, []).append(t)
    return ids, rounds_of


def build_target_model(game: Game) -> tuple[StaticModel, dict[tuple[int, str], object]]:
    """Static model over every offered machine, at most one taken per round."""
    c = game.context
    ids, rounds_of = _offer_rounds(game)
    built = build_static_model(c.ruleset, c.board, c.catalog, ids, optional=True,
                               diagonal=bool(game.options.get("diagonal_intersection")),
                               end_limit=game.options.get("end_limit"))
    model, v = built.model, built.vars
    take: dict[tuple[int, str], object] = {}
    for machine_id, rounds in rounds_of.items():
        for t in rounds:
            take[(t, machine_id)] = model.NewBoolVar(f"take[{t},{machine_id}]")
        model.Add(v.placed[machine_id] <= sum(take[(t, machine_id)] for t in rounds))
    for t, rnd in enumerate(game.rounds):
        model.Add(sum(take[(t, m)] for m in set(rnd.offered)) <= 1)
    return built, take


def _round_model(game: Game, machines: tuple[MachinePlacement, ...], previous: Layout, target: Layout,
                 budget: int, final: bool) -> StaticModel:
    """Tiles for one round with every machine pinned: keep old tiles free, pay for new ones."""
    c = game.context
    built = build_static_model(c.ruleset, c.board, c.catalog, [m.id for m in machines],
                               diagonal=bool(game.options.get("diagonal_intersection")),
                               end_limit=game.options.get("end_limit"))
    model = built.model
    pinned = Layout(c.ruleset, c.board, c.catalog, machines, (), dict(game.options))
    for literal in layout_literals(built.vars, pinned)[0]:
        model.Add(literal == 1)
    kept = {id(lit) for lit in layout_literals(built.vars, previous)[0]}
    wanted = {id(lit) for lit in layout_literals(built.vars, target.with_parts(machines=()))[0]}
    new = [lit for lit in _tile_literals(built) if id(lit) not in kept]
    new_cost = sum(new)
    model.Add(new_cost <= budget)
    for lit in _tile_literals(built):
        if id(lit) in kept:
            model.AddHint(lit, 1)
    if final:
        model.Maximize(built.chain_bonus - new_cost)
    else:
        model.Minimize(new_cost + sum(lit for lit in new if id(lit) not in wanted))
    return built


def plan_game(game: Game, time_limit: float = 600.0, workers: int = 2, seed: int = 0,
              progress: Progress | None = None, report: RoundReport | None = None) -> PlanResult:
    """The best plan found for the sequence in `game` (its taken/layout are ignored)."""
    start = time.monotonic()
    say = report or (lambda _text: None)
    c = game.context
    target_budget = time_limit * 0.7
    with Interrupt() as interrupt:
        built, _ = build_target_model(game)
        outcome = run(built, target_budget, workers, seed, progress, interrupt=interrupt)
        target: Layout | None = None
        bound = None if outcome.bound is None else game.start_money + math.floor(outcome.bound + 1e-6)
        if outcome.values is not None:
            target, check = _checked_game_layout(game, built, outcome.values)
            say(f"target factory: {len(target.machines)} machines, static score {check.score.total}, "
                f"bound on the final score {bound}")
        rounds = _schedule(game, target, time_limit - (time.monotonic() - start), workers, seed, interrupt, say)
        interrupted = interrupt.flag
    plan = Game(c, game.start_money, rounds, dict(game.options), game.source)
    replayed = replay_game(plan)
    if not replayed.legal:
        problems = "; ".join(f"round {n}: {v.rule}: {v.message}" for n, v in replayed.violations)
        raise PlanReplayDisagreement(f"internal error: the planner produced an illegal game ({problems})")
    return PlanResult(plan, replayed, bound, target, outcome.status, time.monotonic() - start, interrupted)


def _schedule(game: Game, target: Layout | None, time_left: float, workers: int, seed: int,
              interrupt: Interrupt, say: RoundReport) -> list[Round]:
    c = game.context
    wanted = {m.id: m for m in (target.machines if target is not None else ())}
    build_rounds = [t for t, rnd in enumerate(game.rounds) if any(m in wanted for m in rnd.offered)]
    taken_ids: set[str] = set()
    previous = game.empty_layout()
    money = game.start_money
    rounds: list[Round] = []
    for t, rnd in enumerate(game.rounds):
        choice = next((m for m in rnd.offered if m in wanted and m not in taken_ids), None)
        if choice is None or interrupt.flag:
            rounds.append(Round(list(rnd.offered), None, rnd.last_pick, rnd.first_pick, None, has_taken=True))
            continue
        machines = previous.machines + (wanted[choice],)
        income = c.catalog[choice].income
        fee = c.ruleset.first_pick_fee if rnd.first_pick else 0
        bonus = c.ruleset.last_pick_bonus if rnd.last_pick else 0
        budget = money + income + bonus - fee - 1
        remaining = [r for r in build_rounds if r >= t]
        step_limit = max(2.0, time_left / max(1, len(remaining)))
        built = _round_model(game, machines, previous, target, budget, final=(t == build_rounds[-1]))
        step_start = time.monotonic()
        outcome = run(built, step_limit, workers, seed, interrupt=interrupt)
        time_left -= time.monotonic() - step_start
        if outcome.values is None:
            say(f"round {t + 1}: {choice} cannot be built within money {money}; taking nothing")
            rounds.append(Round(list(rnd.offered), None, rnd.last_pick, rnd.first_pick, None, has_taken=True))
            continue
        layout, _ = _checked_game_layout(game, built, outcome.values)
        cost = round_cost(previous, layout) + fee
        money += income + bonus - cost
        taken_ids.add(choice)
        say(f"round {t + 1}: take {choice} (+{income}), build cost {cost}, money {money}")
        rounds.append(Round(list(rnd.offered), choice, rnd.last_pick, rnd.first_pick, layout, has_taken=True))
        previous = layout
    return rounds
