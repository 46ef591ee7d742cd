"""The exact game model: one static layout per round, linked by what a round may change and cost.

The planner's decomposition (solver/plan.py) builds a good game fast but can
only bound it by the static score of a final factory. This model is the game
itself, so its optimum is the best game and its proven bound bounds every game:

- stage t is a full static layout (solver/model.py: placement, pipes, colours,
  flows, limits) over the machines offered up to round t, all optional;
- machines are never removed; a machine appears only in a round that offers it,
  at most one a round; a machine that stands elsewhere than a round before has
  moved (move cost each, at most the ruleset's moves a round, none where
  machines cannot move);
- a tile present now and not a round before is paid (`_tile_literals` lists a
  literal once per unit of its price); removing is free; nothing changes in a
  round that adds no machine;
- money after round t = money before + income of the new machine (+ the last
  pick bonus, - the first pick fee) - what the round pays, and never below 1;
- the objective is the final money plus the last layout's chain bonus.

Taking a machine and not building it is left out: it only costs money, so the
same game taking nothing scores at least as much, and the bound stays a bound
on every legal game.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from models.game import Game, Round
from models.layout import Layout

from .extract import checked_layout, layout_from_values
from .model import StaticModel, add_static_layout, layout_literals, tile_literals
from .search import Interrupt, Progress, run, set_hint, solve_with_fixed, value_reader


@dataclass
class StagedModel:
    """The game model: its CP-SAT model, one layout per round and the money after each round."""

    model: cp_model.CpModel
    stages: list[StaticModel]
    money: list[cp_model.IntVar]
    final: StaticModel                  # the last stage, carrying the game's objective

    def layout_literals_of(self, layouts: list[Layout]) -> tuple[list, list]:
        """(literals that are 1, every other layout literal) when round t ends with layouts[t]."""
        ones, rest = [], []
        for stage, layout in zip(self.stages, layouts):
            o, r = layout_literals(stage.vars, layout)
            ones += o
            rest += r
        return ones, rest


def _offered_so_far(game: Game) -> list[list[str]]:
    ids: list[str] = []
    out = []
    for rnd in game.rounds:
        ids += [m for m in dict.fromkeys(rnd.offered) if m not in ids]
        out.append(list(ids))
    return out


def build_staged_model(game: Game) -> StagedModel:
    """The whole game as one CP-SAT model (see the module docstring for the rules it encodes)."""
    c, rules = game.context, game.ruleset
    model = cp_model.CpModel()
    diagonal = bool(game.options.get("diagonal_intersection"))
    end_limit = game.options.get("end_limit")
    ceiling = game.start_money + sum(c.catalog[m].income + rules.last_pick_bonus
                                     for m in {m for r in game.rounds for m in r.offered})
    stages: list[StaticModel] = []
    money: list[cp_model.IntVar] = []
    previous: StaticModel | None = None
    money_before: cp_model.LinearExprT = game.start_money
    for t, (rnd, ids) in enumerate(zip(game.rounds, _offered_so_far(game))):
        stage = add_static_layout(model, rules, c.board, c.catalog, ids, optional=True, diagonal=diagonal,
                                  end_limit=end_limit)
        v = stage.vars
        before = previous.vars.placed if previous is not None else {}
        new = {}
        for m in ids:
            was = before.get(m, 0)
            if m in before:
                model.Add(v.placed[m] >= was)          # machines are never removed
            if m in rnd.offered:
                new[m] = v.placed[m] - was
            else:
                model.Add(v.placed[m] == was)          # a machine appears only in a round offering it
        built = sum(new.values())
        model.Add(built <= 1)
        income = sum((c.catalog[m].income + rnd.last_pick_token(rules)
                      - rnd.first_pick_fee(rules)) * flag for m, flag in new.items())
        paid = _link_tiles(model, previous, stage, built) + _link_machines(model, game, previous, stage, new, built)
        after = model.NewIntVar(1, ceiling, f"money[{t}]")  # never below 1
        model.Add(after == money_before + income - paid)
        stages.append(stage)
        money.append(after)
        previous, money_before = stage, after
    final = stages[-1]
    model.Maximize(money[-1] + final.chain_bonus)
    wrapped = StaticModel(model, final.vars, "profit", money[-1], 0, final.chain_bonus)
    return StagedModel(model, stages, money, wrapped)


def _link_tiles(model: cp_model.CpModel, previous: StaticModel | None, stage: StaticModel,
                built: cp_model.LinearExprT) -> cp_model.LinearExprT:
    """What the round's tiles cost: 1 per literal now on and off before; no change without a new machine."""
    now = tile_literals(stage)
    before = tile_literals(previous) if previous is not None else [0] * len(now)
    assert len(now) == len(before), "every stage has the same tile literals"
    paid = []
    for lit_now, lit_before in zip(now, before):
        model.Add(lit_now - lit_before <= built)
        model.Add(lit_before - lit_now <= built)
        if isinstance(lit_before, int):
            paid.append(lit_now)
        else:
            added = model.NewBoolVar("")
            model.Add(added >= lit_now - lit_before)
            paid.append(added)
    return sum(paid)


def _link_machines(model: cp_model.CpModel, game: Game, previous: StaticModel | None, stage: StaticModel,
                   new: dict, built: cp_model.LinearExprT) -> cp_model.LinearExprT:
    """What the round's machine moves cost; at most the ruleset's moves, and only in a building round."""
    if previous is None:
        return 0
    rules, old, v = game.ruleset, previous.vars, stage.vars
    moved = []
    for m, indices in old.by_machine.items():
        here = v.by_machine[m]
        assert [old.placements[i] for i in indices] == [v.placements[i] for i in here]
        flag = model.NewBoolVar(f"moved[{m}]")
        arrived = new.get(m, 0)
        for i, j in zip(indices, here):
            model.Add(flag >= v.x[j] - old.x[i] - arrived)
        moved.append(flag)
    if not rules.machines_movable:
        model.Add(sum(moved) == 0)
    model.Add(sum(moved) <= rules.max_machine_moves * built)
    return rules.machine_move_cost * sum(moved)


@dataclass
class StagedOutcome:
    """What the game model gave: a better game than its warm start (or None) and a proven bound."""

    rounds: list[Round] | None
    bound: int | None
    status: str


def stage_layouts(game: Game) -> list[Layout]:
    """The layout at the end of every round of a played or planned game."""
    layouts, current = [], game.empty_layout()
    for rnd in game.rounds:
        if rnd.layout is not None:
            current = rnd.layout
        layouts.append(current)
    return layouts


def warm_start(staged: StagedModel, game: Game, time_limit: float = 10.0) -> bool:
    """Hint every variable of the game model from a legal game; False if the model rejects it.

    The stage layouts are fixed in a copy of the model and the rest (flows,
    labels, money) is solved for, so CP-SAT starts from a complete solution.
    """
    try:
        ones, rest = staged.layout_literals_of(stage_layouts(game))
    except ValueError:
        return False
    values = solve_with_fixed(staged.model, ones, rest, time_limit)
    if values is None:
        return False
    set_hint(staged.final, values)   # (final carries the whole game model)
    return True


def solve_staged(game: Game, warm: Game | None, known_bound: int | None, deadline: float, workers: int = 2,
                 seed: int = 0, progress: Progress | None = None, interrupt: Interrupt | None = None) -> StagedOutcome:
    """Solve the game model from a warm start until `deadline` (time.monotonic()), building included.

    Every round it returns is judged by the checker. `known_bound` (a proven
    bound on the final score, e.g. the static one) is added as a cut, so the
    reported bound is never weaker than it.
    """
    staged = build_staged_model(game)
    objective = staged.money[-1] + staged.final.chain_bonus
    if known_bound is not None:
        staged.model.Add(objective <= known_bound)
    if warm is not None:
        warm_start(staged, warm, time_limit=max(0.1, (deadline - time.monotonic()) / 2))
    seconds = deadline - time.monotonic()
    if seconds < 1.0:
        return StagedOutcome(None, None, "UNKNOWN")
    outcome = run(staged.final, seconds, workers, seed, progress, interrupt=interrupt, stop_at=known_bound)
    bound = None if outcome.bound is None else math.floor(outcome.bound + 1e-6)
    if outcome.values is None:
        return StagedOutcome(None, bound, outcome.status)
    return StagedOutcome(_rounds(game, staged, outcome.values), bound, outcome.status)


def _rounds(game: Game, staged: StagedModel, values: dict[int, int]) -> list[Round]:
    """The game's rounds read from a solution: the machine each round adds and the layout it ends with."""
    diagonal = bool(game.options.get("diagonal_intersection"))
    value = value_reader(values)
    rounds, placed = [], set()
    for rnd, stage in zip(game.rounds, staged.stages):
        now = {m for m, literal in stage.vars.placed.items() if value(literal)}
        added = sorted(now - placed)
        if not added:
            rounds.append(rnd.planned(None, None))
            continue
        layout, _ = checked_layout(layout_from_values(stage.vars, value, diagonal).with_parts(options=game.options))
        rounds.append(rnd.planned(added[0], layout))
        placed = now
    return rounds
