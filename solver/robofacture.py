"""CP-SAT for the Robofacture parts puzzle (RULES 3): place some of the parts at hand to ship the best product.

The parts already placed stay where they are (a placed part is not moved in the game); every other part is placed
once or left aside. One model holds the placements (a literal per part, turn, flip and position, pruned where it
would overlap a placed part or touch a same-coloured placed cell), each cell's colour, the one shipped rectangle
and its cuts and white cells. Its objective is lexicographic and solved in two stages: the shipping score, then
the Robo Gold (one weighted sum, since RG is at most 5); then, held there, the fewest parts placed (those left
over are kept for another space). One weighted sum over all three was measured slower: on 8 x 8 spaces with 20
parts the score was settled but the part count left the answer unproved at 60 s (results/robofacture.md).

The answer is judged by `models.robofacture.check` and `shipping`, which never see this model: a placement the
checker rejects, a proved score it computes otherwise, or an unproved one it finds below the model's claim, raises
`RobofactureDisagreement`; the checker's score is the one reported.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from ortools.sat.python import cp_model

from models.robofacture.check import Verdict, check
from models.robofacture.parts import COLOURS, WHITE, Cell, Placement, covered, orientations
from models.robofacture.puzzle import Puzzle, Space
from models.robofacture.shipping import PRODUCT_SIZES, SIDES, Shipment, base_of, best_shipment, sides_beyond

from .search import Interrupt, past, solve_interruptibly

#: the first stage's weight of a point of score: more than all the RG a product pays (at most 5)
SCORE_WEIGHT = 10
#: the second stage (fewest parts) gets at least this long, or as long as the first took: it only breaks ties,
#: and proving a part count least on an 8 x 8 space can take minutes
FEWEST_SECONDS = 5.0

Progress = Callable[[float, float, float], None]   # (best score, bound on the score, elapsed seconds)
#: called through the modelling of a space: raises _ModellingStopped once the time is up or a stop came
Checkpoint = Callable[[], None]


class _ModellingStopped(Exception):
    """The time limit passed, or Ctrl-C came, while the space was modelled (a 12 x 12 space with 30 parts takes
    about 2 s): the answer is UNKNOWN at once, as before any placement (QA: `compare` ended 1.5 s into a 1 s
    limit, 8.8 s into 8, the model built to its end before the clock could stop it)."""


def _checkpoint(deadline: float, stop: Interrupt) -> Checkpoint:
    def check() -> None:
        if stop.flag or past(deadline):
            raise _ModellingStopped
    return check


def _never() -> None:
    """A checkpoint that never stops the modelling."""


class RobofactureDisagreement(AssertionError):
    """The model's answer and the rule checker's reading of it differ: a bug in one of them."""


class PlacedPartsIllegal(ValueError):
    """The parts already placed break a rule: nothing placed later can mend that. `key` names the placement in
    the document ("placed[2]")."""

    def __init__(self, message: str, key: str) -> None:
        super().__init__(message)
        self.key = key


@dataclass(frozen=True)
class RobofactureResult:
    status: str                     # OPTIMAL, FEASIBLE, INFEASIBLE or UNKNOWN
    puzzle: Puzzle                  # with the placements found (the given ones when there is no answer)
    shipment: Shipment | None
    bound: int | None               # on the score
    seconds: float
    unique: bool | None = None      # with `unique`: whether no other filling is as good (None: not settled)
    stop_signal: int | None = None   # the signal that stopped it (Ctrl-C's SIGINT, SIGTERM), if one did
    fewest_parts: bool | None = None   # the parts placed are proved the fewest for the score (None: not asked)
    answer_seconds: float | None = None   # when the first stage ended: the score proved, or the time was up

    @property
    def interrupted(self) -> bool:
        return self.stop_signal is not None

    def to_dict(self) -> dict:
        result = {"status": self.status, "seconds": round(self.seconds, 2), "bound": self.bound,
                  "shipment": self.shipment.to_dict() if self.shipment else None,
                  "fewest_parts": self.fewest_parts, "answer_seconds": None if self.answer_seconds is None
                  else round(self.answer_seconds, 2)}
        if self.unique is not None:
            result["unique"] = self.unique
        if self.interrupted:   # (QA: the terminal said so, the written answer did not, unlike `solve`'s)
            result["interrupted"] = True
        return result


@dataclass
class _Model:
    model: cp_model.CpModel
    choices: list[tuple[Placement, cp_model.IntVar]]
    colour: dict[Cell, dict[str, cp_model.LinearExpr]]
    objective: cp_model.LinearExpr    # SCORE_WEIGHT * score + RG
    parts: cp_model.LinearExpr        # parts placed


def _candidates(puzzle: Puzzle, fixed: dict[Cell, str], fixed_owner: set[Cell],
                checkpoint: Checkpoint = _never) -> list[tuple[Placement, dict]]:
    """Every placement of every unplaced part that stays inside, covers no placed part and sets no colour beside
    the same placed colour: the rules that need no other free part to judge."""
    space = puzzle.space
    placed = {p.part for p in puzzle.placed}
    found = []
    for index, part in enumerate(puzzle.parts):
        if index in placed:
            continue
        for rotation, flip in orientations(part):
            for row in range(space.rows):
                checkpoint()
                for col in range(space.cols):
                    placement = Placement(index, (row, col), rotation, flip)
                    cells = covered(part, placement)
                    if not all(space.inside(c) for c in cells) or any(c in fixed_owner for c in cells):
                        continue
                    if any(colour != WHITE and fixed.get(n) == colour and n not in cells
                           for (r, c), colour in cells.items() for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))):
                        continue
                    found.append((placement, cells))
    return found


def _require(model: cp_model.CpModel, condition, enforced_by: cp_model.IntVar | None = None) -> None:
    """`model.Add(condition)`, where a condition over constants only arrives as a plain bool: true adds
    nothing, false forbids its enforcing literal (or the whole model)."""
    if isinstance(condition, bool):
        if not condition:
            model.Add(enforced_by == 0) if enforced_by is not None else model.AddBoolOr([])
        return
    constraint = model.Add(condition)
    if enforced_by is not None:
        constraint.OnlyEnforceIf(enforced_by)


Rectangle = tuple[int, int, int, int]   # top, left, rows, cols


def _as_literal(model: cp_model.CpModel, expression, name: str):
    """A 0/1 sum of literals as one literal of its own (a constant stays a constant): the many constraints on a
    cell's colour or filling then read one literal, not the sum of every placement over the cell (a 12 x 12
    space with 60 parts took 4.4 s to build before)."""
    if isinstance(expression, int):
        return expression
    literal = model.NewBoolVar(name)
    model.Add(literal == expression)
    return literal


def _build(puzzle: Puzzle, verdict: Verdict, all_parts: bool, checkpoint: Checkpoint = _never) -> _Model:
    """The whole model: placements and colours, the colour rule, the shipped rectangle, the objective;
    `checkpoint` is called as it goes, to stop it on time."""
    model = cp_model.CpModel()
    choices, expressions, fixed_owner = _placements(model, puzzle, verdict, all_parts, checkpoint)
    colour = {cell: {k: _as_literal(model, expression, f"{k}{cell}") for k, expression in by_colour.items()}
              for cell, by_colour in expressions.items()}
    _forbid_touching(model, puzzle.space, colour)
    chosen, inside, value = _shipped_rectangle(model, puzzle.space, colour, set(puzzle.space.premarked) | fixed_owner,
                                               checkpoint)
    whites = []
    for cell in puzzle.space.cells:
        white = model.NewBoolVar(f"white{cell}")
        model.Add(white >= colour[cell][WHITE] + inside[cell] - 1)
        whites.append(white)
    if not all_parts:
        # a part wholly outside the shipped rectangle only adds cuts, so an answer without it is better; unless
        # it covers a premarked cell, whose printed colour might touch its own colour once bare (QA)
        for placement, literal in choices:
            cells = covered(puzzle.parts[placement.part], placement)
            if not set(cells) & puzzle.space.premarked:
                model.Add(literal <= sum(inside[cell] for cell in cells))
    gold = sum(literal * base_of(h, w)[1] for (_, _, h, w), literal in chosen.items())
    objective = SCORE_WEIGHT * (value - sum(whites)) + gold
    model.Maximize(objective)
    return _Model(model, choices, colour, objective, sum(literal for _, literal in choices))


def _placements(model: cp_model.CpModel, puzzle: Puzzle, verdict: Verdict, all_parts: bool,
                checkpoint: Checkpoint = _never
                ) -> tuple[list[tuple[Placement, cp_model.IntVar]], dict[Cell, dict[str, cp_model.LinearExpr]], set[Cell]]:
    """A literal per candidate placement, each part placed at most once (exactly, with `all_parts`), a part per
    cell; each cell's colours as sums of literals (a placed part's as a constant, a premarked cell's player
    colour where nothing covers it). Also the cells placed parts hold."""
    space, filling = puzzle.space, verdict.filling
    fixed_owner = {cell for cell, owner in filling.owner.items() if owner >= 0}
    fixed = {cell: colour for cell, colour in filling.colours.items() if cell in fixed_owner}
    choices = []
    covers: dict[Cell, list[tuple[cp_model.IntVar, str]]] = {cell: [] for cell in space.cells}
    per_part: dict[int, list[cp_model.IntVar]] = {}
    for placement, cells in _candidates(puzzle, fixed, fixed_owner, checkpoint):
        checkpoint()
        literal = model.NewBoolVar(f"p{placement.part}_{placement.cell}_{placement.rotation}_{placement.flip}")
        choices.append((placement, literal))
        per_part.setdefault(placement.part, []).append(literal)
        for cell, colour in cells.items():
            covers[cell].append((literal, colour))
    placed = {p.part for p in puzzle.placed}
    for index in range(len(puzzle.parts)):
        if index not in placed:
            (model.AddExactlyOne if all_parts else model.AddAtMostOne)(per_part.get(index, []))
    colour: dict[Cell, dict[str, cp_model.LinearExpr]] = {}
    for cell in space.cells:
        on_cell = [literal for literal, _ in covers[cell]]
        model.AddAtMostOne(on_cell)
        colour[cell] = {k: sum(literal for literal, c in covers[cell] if c == k) for k in COLOURS}
        if cell in fixed:
            colour[cell][fixed[cell]] = colour[cell][fixed[cell]] + 1
        elif cell in space.premarked:   # the printed monomino shows where no part covers it
            colour[cell][space.player] = colour[cell][space.player] + 1 - sum(on_cell)
    return choices, colour, fixed_owner


def _forbid_touching(model: cp_model.CpModel, space: Space, colour: dict[Cell, dict[str, cp_model.LinearExpr]]) -> None:
    """RULES 3: two orthogonally adjacent cells never share a colour, white excepted."""
    for (row, col) in space.cells:
        for other in ((row, col + 1), (row + 1, col)):
            if space.inside(other):
                for k in COLOURS:
                    if k != WHITE:
                        _require(model, colour[(row, col)][k] + colour[other][k] <= 1)


def _shipped_rectangle(model: cp_model.CpModel, space: Space, colour: dict[Cell, dict[str, cp_model.LinearExpr]],
                       always: set[Cell], checkpoint: Checkpoint = _never
                       ) -> tuple[dict[Rectangle, cp_model.IntVar], dict[Cell, cp_model.IntVar], cp_model.LinearExpr]:
    """Exactly one product-sized rectangle, wholly filled; a literal per cell for being inside it; and the
    score before white cells: base - cuts.

    The cuts are the fewest sides to cut along (`shipping.fewest_cuts`): each filled cell beyond the rectangle
    needs one of the sides it lies beyond cut, a literal per side. Cells filled whatever is placed (`always`:
    premarked cells, placed parts) beside a side force its cut for sure: those cuts come off the rectangle's own
    value, so the relaxation sees them at once (an 8 x 8 space with three premarked cells far apart has no 4 x 4
    without a cut)."""
    filled = {cell: _as_literal(model, sum(colour[cell].values()), f"filled{cell}") for cell in space.cells}
    rectangles = [(top, left, rows, cols) for rows, cols in PRODUCT_SIZES
                  for top in range(space.rows - rows + 1) for left in range(space.cols - cols + 1)]
    chosen = {r: model.NewBoolVar(f"ship_{r}") for r in rectangles}
    model.AddExactlyOne(chosen.values())
    cuts = {side: model.NewBoolVar(f"cut_{side}") for side in SIDES}
    value = {}
    for rectangle, literal in chosen.items():
        checkpoint()
        needs = {cell: sides_beyond(cell, *rectangle) for cell in space.cells}
        for cell, need in needs.items():
            if not need:
                _require(model, filled[cell] >= 1, literal)
        sure = {side for cell in always if len(needs[cell]) == 1 for side in needs[cell]}
        value[rectangle] = base_of(rectangle[2], rectangle[3])[0] - len(sure)
        for cell, need in needs.items():
            if not need or need & sure or (isinstance(filled[cell], int) and filled[cell] == 0):   # inside, gone with a sure cut, or never filled
                continue
            bare = [] if isinstance(filled[cell], int) else [filled[cell].Not()]
            model.AddBoolOr([literal.Not(), *bare, *(cuts[side] for side in sorted(need))])
    inside = {cell: model.NewBoolVar(f"inside{cell}") for cell in space.cells}
    for cell, literal in inside.items():
        model.Add(literal == sum(chosen_literal for (t, l, h, w), chosen_literal in chosen.items()
                                 if t <= cell[0] < t + h and l <= cell[1] < l + w))
    return chosen, inside, sum(literal * value[r] for r, literal in chosen.items()) - sum(cuts.values())


def _score_of(objective: float) -> int:
    """The shipping score inside a first-stage objective value, SCORE_WEIGHT * score + RG (also of a bound)."""
    return round(objective) // SCORE_WEIGHT


class _Keeper(cp_model.CpSolverSolutionCallback):
    """Keeps the best placements found and reports (score, bound, elapsed) as it goes."""

    def __init__(self, built: _Model, progress: Progress | None, start: float):
        super().__init__()
        self.built, self.progress, self.start = built, progress, start
        self.best: tuple[Placement, ...] | None = None

    def on_solution_callback(self) -> None:
        self.best = tuple(p for p, literal in self.built.choices if self.Value(literal))
        if self.progress is not None:
            self.progress(_score_of(self.ObjectiveValue()), _score_of(self.BestObjectiveBound()),
                          time.monotonic() - self.start)


def _judged(puzzle: Puzzle, placed: tuple[Placement, ...], claimed: float, proved: bool
            ) -> tuple[Puzzle, Verdict, Shipment | None]:
    """The answer as the checker sees it; a disagreement with the model's (score, RG) is raised, never shown.

    Only a proved answer's value is exact: before that, the model may count a cut it could drop or ship a
    rectangle that is not the filling's best (its cut literals are bounded from below only), so the checker
    may find more, never less (QA: a search stopped early claimed -1 where the checker found 8)."""
    answer = puzzle.with_placed(tuple(sorted(puzzle.placed + placed, key=lambda p: p.part)))
    verdict = check(answer)
    if not verdict.legal:
        raise RobofactureDisagreement(f"the solver's placement breaks {verdict.violations[0].rule}: "
                                      f"{verdict.violations[0].message}")
    shipment = best_shipment(verdict.filling.colours)
    score, gold = divmod(round(claimed), SCORE_WEIGHT)
    found = None if shipment is None else (shipment.score, shipment.robo_gold)
    if found is None or (found != (score, gold) if proved else found < (score, gold)):
        judged = f"{shipment.score} VP and {shipment.robo_gold} RG" if shipment else "no shipment"
        raise RobofactureDisagreement(f"the solver claims {score} VP and {gold} RG, the checker finds {judged}")
    return answer, verdict, shipment


def placed_parts_verdict(puzzle: Puzzle) -> Verdict:
    """The checker's verdict on a puzzle's placed parts; PlacedPartsIllegal when they break a rule no part still
    to place can mend (premarked cells in a violation may still be covered)."""
    verdict = check(puzzle)
    lasting = [v for v in verdict.violations if all(verdict.filling.owner.get(cell, 0) >= 0 for cell in v.cells)]
    if lasting:
        first = lasting[0]
        where = next(i for i, p in enumerate(puzzle.placed) if p.part in first.parts)
        raise PlacedPartsIllegal(f"the parts already placed break '{first.rule}': {first.message} "
                                 f"(cells {[list(c) for c in first.cells]})", f"placed[{where}]")
    return verdict


def solve_parts(puzzle: Puzzle, time_limit: float = 30.0, workers: int = 2, seed: int = 0, all_parts: bool = False,
                unique: bool = False, progress: Progress | None = None) -> RobofactureResult:
    """The best placement of the unplaced parts, judged by the checker; with `unique`, whether the best filling
    is the only one as good (a puzzle designer's question)."""
    start = time.monotonic()
    verdict = placed_parts_verdict(puzzle)
    with Interrupt() as building:   # (a big space takes seconds to model; QA: a stop there said "interrupted",
        try:                        # exit 130, where a stop before any placement answers UNKNOWN)
            built = _build(puzzle, verdict, all_parts, _checkpoint(start + time_limit, building))
        except _ModellingStopped:
            built = None
    if built is None or building.flag:
        return RobofactureResult("UNKNOWN", puzzle, None, None, time.monotonic() - start, stop_signal=building.signum)
    left = lambda: time_limit - (time.monotonic() - start)   # noqa: E731 - the clock, read at each stage
    keeper = _Keeper(built, progress, start)
    solver, name, stopped = solve_interruptibly(built.model, left(), workers, seed, keeper)
    if keeper.best is None:
        status_name = "INFEASIBLE" if name == "INFEASIBLE" else "UNKNOWN"
        return RobofactureResult(status_name, puzzle, None, None, time.monotonic() - start, stop_signal=stopped)
    value, bound = solver.ObjectiveValue(), _score_of(solver.BestObjectiveBound())
    answered = time.monotonic() - start
    proved = name == "OPTIMAL" and not stopped
    placed, fewest = keeper.best, None
    if proved:   # the tie-break gets as long as the answer took, at least FEWEST_SECONDS, never past the limit
        stage = max(FEWEST_SECONDS, answered)
        placed, fewest, stopped = _fewest_parts(built, placed, value, min(left(), stage), workers, seed)
    answer, judged, shipment = _judged(puzzle, placed, value, proved)
    settled = None
    if unique and fewest:
        settled, stopped = _is_unique(built, judged.filling.colours, left(), workers, seed)
    return RobofactureResult("OPTIMAL" if proved else "FEASIBLE", answer, shipment, bound,
                             time.monotonic() - start, settled, stopped, fewest, answered)


def _fewest_parts(built: _Model, placed: tuple[Placement, ...], value: float, time_limit: float, workers: int,
                  seed: int) -> tuple[tuple[Placement, ...], bool | None, int | None]:
    """The second stage: the score and RG held at `value`, as few parts as will do, from `placed` as a complete
    hint. (placements, whether they are proved the fewest (None: no time was left), the signal that stopped it)."""
    if time_limit <= 0:
        return placed, None, None
    model = built.model
    model.Add(built.objective >= round(value))
    chosen = set(placed)
    for placement, literal in built.choices:
        model.AddHint(literal, placement in chosen)
    model.Minimize(built.parts)
    keeper = _Keeper(built, None, time.monotonic())
    solver, name, stopped = solve_interruptibly(model, time_limit, workers, seed, keeper)
    if keeper.best is not None and len(keeper.best) <= len(placed):
        placed = keeper.best
    model.Add(built.parts <= len(placed))   # the uniqueness question keeps both stages
    model.ClearHints()
    return placed, name == "OPTIMAL" and not stopped, stopped


def _is_unique(built: _Model, colours: dict[Cell, str], time_limit: float, workers: int, seed: int
               ) -> tuple[bool | None, int | None]:
    """Whether no other filling of the space than `colours` (each filled cell's colour) is as good: as many points, as much
    RG, as few parts (both stages hold in the model now), asked of the model with this filling forbidden; None
    when the time runs out first. Also the signal that stopped the question, if one did. (Spare parts laid where
    a side is cut anyway cost no point, so "as good" counts the parts too.)"""
    if time_limit <= 0:
        return None, None
    model = built.model
    same = [expressions[colours[cell]] if cell in colours else 1 - sum(expressions.values())
            for cell, expressions in built.colour.items()]
    model.Add(sum(same) <= len(same) - 1)
    model.ClearObjective()
    _, name, stopped = solve_interruptibly(model, time_limit, workers, seed)
    settled = {"INFEASIBLE": True, "FEASIBLE": False, "OPTIMAL": False}.get(name)
    return (None if stopped and settled is None else settled), stopped
