"""The best game for a known sequence: a target factory, then the cheapest way to build it.

Decomposition (documented in results/plan.md):
1. **Target and bound.** Every tile of the final layout is paid for at least
   once and penalties are never negative, so for any legal game
   `final score <= start money + static score of its final layout`, whose
   machines hold at most one machine per round. One static CP-SAT model with
   optional machines and "at most one machine of each round's offer" therefore
   gives a proven upper bound (start money + its objective bound) and, from its
   best solution, the target factory. The geometry-free topology bound under
   the same per-round limit (solver/bounds.py) is fed in as a cut, and the
   smaller of the two bounds is reported.
2. **Schedule.** Round by round, the target's machine offered that round is
   taken and placed where the target has it (when that spot is taken or costs
   more than the money at hand: wherever it gains most this round); a small CP-SAT model chooses that
   round's tiles: keep what is on the board for free, pay 1 for anything new,
   prefer tiles the target keeps (temporary tiles are paid twice: now and when
   replaced), never let money drop below 1; the last build maximises the chain
   bonus minus its cost. Machines never move, so no 2-per-move costs arise.
3. **Greedy, as a player builds.** Independently, round by round, each offered
   machine is tried on the current factory (earlier machines stay, old tiles
   are free, the new machine goes wherever it earns most this round counting
   the chain bonus it makes) and the best one is taken, or none.
4. **Judge.** Both plans are replayed by models.replay; a plan the replay
   rejects is a bug, raised as an internal error.
5. **Exact game model** (solver/staged.py), warm-started from the better plan
   with the bound above as a cut: it proves short games optimal, and its own
   bound replaces the static one when tighter. Its game is judged the same way;
   the best judged plan is returned.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

from models.check import CheckResult, check_layout
from models.game import Game, Round
from models.layout import Layout, MachinePlacement
from models.replay import ReplayResult, replay_game, round_cost

from .extract import checked_layout, layout_from_values
from .bounds import topology_bound
from .model import StaticModel, add_objective_bound, build_static_model, layout_literals, tile_literals
from .search import Interrupt, Progress, run, value_reader
from .staged import solve_staged

RoundReport = Callable[[str], None]

#: shares of the time limit: the target model, then the schedule towards it (of what is left); the greedy gets the
#: rest of the decomposition's time. The exact game model (solver/staged.py) gets the time left over, and
#: STAGED_SHARE of it is kept for it in games of at most SHORT_GAME rounds: it proves small 1- and 2-round games
#: in seconds, but from a warm start it improved no 10-round plan in 60 s (solo seeds 1 and 3, also with only the
#: last 3-4 rounds free), so long games keep all the time for the decomposition
STAGED_SHARE = 0.15
SHORT_GAME = 3
MIN_STAGED = 8.0   # seconds: below this the game model (10 rounds: built in 1.6-3.2 s, warm-started in 1-3 s) is not started
TARGET_SHARE = 0.35
SCHEDULE_SHARE = 0.4
MIN_STEP = 1.5
MODEL_BUILD_RESERVE = 1.0


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
    strategy: str = "target"      # which construction gave the plan: "target" or "greedy"

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
        return self.game.to_dict(result)


def _checked_game_layout(game: Game, built: StaticModel, values: list[int]) -> tuple[Layout, CheckResult]:
    """The solver's layout, carrying the game's options, pruned and judged by the checker."""
    raw = layout_from_values(built.vars, value_reader(values), bool(game.options.get("diagonal_intersection")))
    return checked_layout(raw.with_parts(options=game.options))


def _offer_rounds(game: Game) -> tuple[list[str], dict[str, list[int]]]:
    ids: list[str] = []
    rounds_of: dict[str, list[int]] = {}
    for t, rnd in enumerate(game.rounds):
        for machine_id in rnd.offered:
            if machine_id not in rounds_of:
                ids.append(machine_id)
            rounds_of.setdefault(machine_id, []).append(t)
    return ids, rounds_of


def build_target_model(game: Game) -> StaticModel:
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
    return built


def _round_model(game: Game, pinned: tuple[MachinePlacement, ...], free: str | None, previous: Layout,
                 target: Layout | None, budget: int) -> StaticModel:
    """Tiles (and the `free` machine's place) for one round: keep old tiles free, pay for new ones.

    With a target, new tiles the target does not keep count twice (they are paid
    now and again when replaced); without one, the round maximises the chain
    bonus it ends with minus what it pays (the greedy step and the last build).
    """
    c = game.context
    ids = [m.id for m in pinned] + ([free] if free else [])
    built = build_static_model(c.ruleset, c.board, c.catalog, ids,
                               diagonal=bool(game.options.get("diagonal_intersection")),
                               end_limit=game.options.get("end_limit"))
    model = built.model
    for literal in layout_literals(built.vars, Layout(c.ruleset, c.board, c.catalog, pinned, (), dict(game.options)))[0]:
        model.Add(literal == 1)
    kept = {id(lit) for lit in layout_literals(built.vars, previous.with_parts(machines=()))[0]}
    new = [lit for lit in tile_literals(built) if id(lit) not in kept]
    new_cost = sum(new)
    model.Add(new_cost <= budget)
    for lit in tile_literals(built):
        if id(lit) in kept:
            model.AddHint(lit, 1)
    if target is None:
        model.Maximize(built.chain_bonus - new_cost)
    else:
        wanted = {id(lit) for lit in layout_literals(built.vars, target.with_parts(machines=()))[0]}
        model.Minimize(new_cost + sum(lit for lit in new if id(lit) not in wanted))
    return built


@dataclass
class _Step:
    """One built round: the layout after it and what it changed in money and chain bonus."""

    machine: str
    layout: Layout
    cost: int
    chain_bonus: int


def _build_step(game: Game, t: int, machine: str, pinned: tuple[MachinePlacement, ...], previous: Layout,
                target: Layout | None, money: int, time_limit: float, workers: int, seed: int,
                interrupt: Interrupt) -> _Step | None:
    """Build `machine` in round t (pinned where `pinned` ends, or free if it is not there)."""
    c, rnd = game.context, game.rounds[t]
    fee = c.ruleset.first_pick_fee if rnd.first_pick else 0
    bonus = c.ruleset.last_pick_bonus if rnd.last_pick else 0
    budget = money + c.catalog[machine].income + bonus - fee - 1
    free = None if any(m.id == machine for m in pinned) else machine
    built = _round_model(game, pinned, free, previous, target, budget)
    outcome = run(built, time_limit, workers, seed, interrupt=interrupt)
    if outcome.values is None:
        return None
    layout, check = _checked_game_layout(game, built, outcome.values)
    return _Step(machine, layout, round_cost(previous, layout) + fee, check.score.chain_bonus)


def _money_after(game: Game, t: int, step: _Step, money: int) -> int:
    rnd, rules = game.rounds[t], game.ruleset
    return money + game.context.catalog[step.machine].income + (rules.last_pick_bonus if rnd.last_pick else 0) - step.cost


def _round(game: Game, t: int, step: _Step | None) -> Round:
    rnd = game.rounds[t]
    return rnd.planned(None, None) if step is None else rnd.planned(step.machine, step.layout)


def plan_game(game: Game, time_limit: float = 600.0, workers: int = 2, seed: int = 0,
              progress: Progress | None = None, report: RoundReport | None = None) -> PlanResult:
    """The best plan found for the sequence in `game` (its taken/layout are ignored)."""
    start = time.monotonic()
    say = report or (lambda _text: None)
    c = game.context
    reserve = STAGED_SHARE if len(game.rounds) <= SHORT_GAME else 0.0
    deadline = start + time_limit * (1 - reserve)  # the decomposition's; the game model gets the rest
    with Interrupt() as interrupt:
        built = build_target_model(game)
        ids = list(built.vars.machine_ids)
        # the network relaxation of 30 offered machines is proved in 6-30 s (3-offer seeds 1-3: 171-174);
        # stopped earlier its bound is still valid, only weaker (175-181 after 6 s)
        topology = topology_bound(c.ruleset, c.catalog, ids, optional=True, time_limit=min(30.0, time_limit / 20),
                                  groups=[list(r.offered) for r in game.rounds])
        if topology.value is not None:
            add_objective_bound(built, topology.value)
        outcome = run(built, time_limit * TARGET_SHARE, workers, seed, progress, interrupt=interrupt)
        target: tuple[Layout, CheckResult] | None = None
        bounds = [b for b in (outcome.bound, topology.value) if b is not None]
        bound = game.start_money + math.floor(min(bounds) + 1e-6) if bounds else None
        if outcome.values is not None:
            target = _checked_game_layout(game, built, outcome.values)
        if target is not None:
            say(f"target factory: {len(target[0].machines)} machines, static score {target[1].score.total}, "
                f"bound on the final score {bound}")
        schedule_end = time.monotonic() + (deadline - time.monotonic()) * SCHEDULE_SHARE
        target_layout = None if target is None else target[0]
        candidates = [("target", _schedule(game, target_layout, schedule_end, workers, seed, interrupt, say))]
        candidates.append(("greedy", _greedy(game, deadline, workers, seed, interrupt)))
        judged = [_judged_candidate(game, name, rounds, say) for name, rounds in candidates]
        best = max(judged, key=lambda item: item[0])
        left = start + time_limit - time.monotonic()
        if not interrupt.flag and left >= MIN_STAGED and (bound is None or best[0] < bound):
            exact = solve_staged(game, best[2], bound, start + time_limit, workers, seed, progress, interrupt)
            if exact.bound is not None and (bound is None or exact.bound < bound):
                bound = exact.bound
            if exact.rounds is not None:  # ties keep the decomposition's plan
                best = max([best, _judged_candidate(game, "exact", exact.rounds, say)], key=lambda item: item[0])
            say(f"game model: {exact.status.lower()}, bound on the final score {bound}")
        interrupted = interrupt.flag
    _, name, plan, replayed = best
    return PlanResult(plan, replayed, bound, target_layout, outcome.status, time.monotonic() - start, interrupted,
                      strategy=name)


def _judged_candidate(game: Game, name: str, rounds: list[Round], say: RoundReport) -> tuple[int, str, Game, ReplayResult]:
    """(final score, strategy, game, replay) of one candidate plan, judged by the replay."""
    plan = Game(game.context, game.start_money, rounds, dict(game.options), game.source)
    replayed = _judged(plan)
    say(f"{name} plan: final score {replayed.final_score}")
    return replayed.final_score, name, plan, replayed


def _judged(plan: Game) -> ReplayResult:
    """The replay is the judge: a plan it rejects is a bug in the planner or the replay."""
    replayed = replay_game(plan)
    if not replayed.legal:
        problems = "; ".join(f"round {n}: {v.rule}: {v.message}" for n, v in replayed.violations)
        raise PlanReplayDisagreement(f"internal error: the planner produced an illegal game ({problems})")
    return replayed


def _share(deadline: float, steps_left: int) -> float:
    """Seconds for one of the remaining CP-SAT steps (a little is kept back for building models)."""
    return max(MIN_STEP, (deadline - time.monotonic()) / max(1, steps_left) - MODEL_BUILD_RESERVE)


def _time_for_a_step(deadline: float) -> bool:
    """The time limit is honoured: no new step starts unless it can end before the deadline."""
    return time.monotonic() + MIN_STEP + MODEL_BUILD_RESERVE <= deadline


def _schedule(game: Game, target: Layout | None, deadline: float, workers: int, seed: int,
              interrupt: Interrupt, say: RoundReport) -> list[Round]:
    """Build towards the target: its machine of each round goes where the target has it."""
    wanted = {m.id: m for m in (target.machines if target is not None else ())}
    build_rounds = [t for t, rnd in enumerate(game.rounds) if any(m in wanted for m in rnd.offered)]
    previous, money = game.empty_layout(), game.start_money
    rounds: list[Round] = []
    for t, rnd in enumerate(game.rounds):
        choice = next((m for m in rnd.offered if m in wanted and m not in previous.machine_ids), None)
        step = None
        if choice is not None and not interrupt.flag and _time_for_a_step(deadline):
            remaining = sum(1 for r in build_rounds if r >= t)
            last = t == build_rounds[-1]
            spot_free = not any(c in previous.machine_cells for c in previous.machine_footprint(wanted[choice]))
            if spot_free:  # (a machine built off-target earlier may stand there)
                step = _build_step(game, t, choice, previous.machines + (wanted[choice],), previous,
                                   None if last else target, money, _share(deadline, remaining), workers, seed,
                                   interrupt)
            if step is None and _time_for_a_step(deadline):
                step = _anywhere(game, t, choice, previous, money, _share(deadline, remaining), workers, seed,
                                 interrupt)
                if step is not None:
                    say(f"target plan, round {t + 1}: {choice} cannot go where the target has it with money {money}; "
                        "built where it pays this round")
            if step is None:
                say(f"target plan, round {t + 1}: {choice} cannot be built with money {money}; taking nothing")
        if step is not None:
            money = _money_after(game, t, step, money)
            previous = step.layout
        rounds.append(_round(game, t, step))
    return rounds


def _anywhere(game: Game, t: int, machine: str, previous: Layout, money: int, seconds: float, workers: int,
              seed: int, interrupt: Interrupt) -> _Step | None:
    """`machine` built wherever it earns most this round, if that gains anything (income, cost and chain bonus).

    The schedule's fallback when the target's spot for it costs more than the
    money at hand: a machine that pays for itself now is better than none.
    """
    step = _build_step(game, t, machine, previous.machines, previous, None, money, seconds, workers, seed, interrupt)
    if step is None:
        return None
    chain_before = check_layout(previous).score.chain_bonus
    gain = _money_after(game, t, step, money) - money + step.chain_bonus - chain_before
    return step if gain > 0 else None


def _greedy(game: Game, deadline: float, workers: int, seed: int, interrupt: Interrupt) -> list[Round]:
    """Each round, the offered machine that earns most this round on the current factory, or none."""
    previous, money = game.empty_layout(), game.start_money
    chain = 0
    rounds: list[Round] = []
    catalog = game.context.catalog
    for t, rnd in enumerate(game.rounds):
        offered = [m for m in dict.fromkeys(rnd.offered) if m not in previous.machine_ids]
        offered = _affordable_tries(sorted(offered, key=lambda m: -catalog[m].income), deadline,
                                    len(game.rounds) - t)
        tries_left = len(offered) + sum(len(set(r.offered)) for r in game.rounds[t + 1:])
        best: _Step | None = None
        best_gain = 0
        for machine in offered:
            if interrupt.flag or not _time_for_a_step(deadline):
                break
            step = _build_step(game, t, machine, previous.machines, previous, None, money,
                               _share(deadline, tries_left), workers, seed, interrupt)
            tries_left -= 1
            if step is None:
                continue
            gain = _money_after(game, t, step, money) - money + step.chain_bonus - chain
            if gain > best_gain:
                best, best_gain = step, gain
        if best is not None:
            money = _money_after(game, t, best, money)
            previous, chain = best.layout, best.chain_bonus
        rounds.append(_round(game, t, best))
    return rounds


def _affordable_tries(offered: list[str], deadline: float, rounds_left: int) -> list[str]:
    """The first of this round's machines (highest income first) that its share of the time can try.

    Every round gets at least one try while time lasts: trying every offered
    machine in the early rounds of a short run left nothing for the later
    ones (3-offer seed 1 at 60 s took nothing after round 4).
    """
    per_round = (deadline - time.monotonic()) / max(1, rounds_left)
    return offered[:max(1, int(per_round // (MIN_STEP + MODEL_BUILD_RESERVE)))]
