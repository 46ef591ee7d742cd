"""What Robofacture's solver and generator claim: the rules its model keeps where the printed examples never
reach (white cells, `--all-parts`, a white cell under the shipped rectangle), and its statuses only when proved
(the best, the fewest parts, the only filling, nothing to ship, a puzzle published). QA pass 66 (mutation testing
of the Robofacture solver) found each of these unpinned: a mutant breaking it lived through every other test.
A search cut short is stood in for by the real search given a time limit of a millisecond, or its status
replaced."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

import solver.robofacture as robofacture
import solver.robofacture_generate as generation
from models.paths import INSTANCES
from models.robofacture.check import check
from models.robofacture.parts import Part, Placement
from models.robofacture.puzzle import Puzzle, Space, load_puzzle
from solver.robofacture import solve_parts
from test_robofacture_solver import mono, run

UNIQUE = INSTANCES / "robofacture" / "unique-4x4.json"
DATA = Path(__file__).parent / "data"
SOLVE = robofacture.solve_interruptibly


def legal_best(puzzle: Puzzle, score: int) -> None:
    result = solve_parts(puzzle, 20, 1)
    assert result.status == "OPTIMAL" and result.shipment.score == score and check(result.puzzle).legal


def test_white_cells_may_touch_each_other():
    """Four white monominoes fill a 2 x 2 (1 point for shipping, less 4 for white cells): -3."""
    legal_best(Puzzle(Space(2, 2), (mono("white"),) * 4), -3)


def test_a_placed_white_part_may_touch_the_white_parts_laid_beside_it():
    legal_best(Puzzle(Space(2, 2), (mono("white"),) * 4, (Placement(0, (0, 0)),)), -3)


def test_a_white_cell_just_under_the_shipped_rectangle_is_outside_it():
    """Three I3s fill rows 0-2 of a 4 x 3 space, a placed white and green monomino stand in row 3: the 3 x 3
    above ships (6 points, less 1 for the white cell)."""
    parts = (Part("I3", ("red", "blue")), Part("I3", ("blue", "red")), Part("I3", ("red", "blue")), mono("white"),
             mono("green"))
    legal_best(Puzzle(Space(4, 3), parts, (Placement(3, (3, 0)), Placement(4, (3, 2)))), 5)


def test_all_parts_with_a_part_that_cannot_be_placed_is_infeasible():
    """Five monominoes, four cells: `--all-parts` cannot place them all (it used to ship four and leave one out)."""
    parts = (mono("red"), mono("blue"), mono("red"), mono("blue"), mono("green"))
    assert solve_parts(Puzzle(Space(2, 2), parts), 10, 1, all_parts=True).status == "INFEASIBLE"
    assert solve_parts(Puzzle(Space(2, 2), parts), 10, 1).status == "OPTIMAL"


def test_a_filling_with_more_parts_as_good_does_not_make_the_best_one_not_unique():
    """A 3 x 3 space, red player, one premarked cell; an L3 and two red monominoes: the best filling with the
    fewest parts is the only one (the uniqueness question keeps the fewest parts)."""
    shown = run("robofacture", "solve", DATA / "robofacture-fewest-unique.json", "--unique", "--workers", "1",
                "--time-limit", "10")
    assert "the best filling is unique" in shown.stdout and shown.exit_code == 0


def calls_cut_short(monkeypatch, which: int, seconds: float = 1e-3) -> None:
    """The `which`-th search of a solve (1: the best, 2: the fewest parts, 3: the only filling) gets `seconds`."""
    calls = []

    def limited(model, time_limit, *args, **kw):
        calls.append(time_limit)
        return SOLVE(model, seconds if len(calls) == which else time_limit, *args, **kw)
    monkeypatch.setattr(robofacture, "solve_interruptibly", limited)


def test_a_first_search_that_finds_nothing_in_time_is_unknown_not_infeasible(monkeypatch):
    calls_cut_short(monkeypatch, 1)
    assert solve_parts(load_puzzle(UNIQUE), 20, 1, unique=True).status == "UNKNOWN"


def test_a_best_not_proved_claims_neither_the_fewest_parts_nor_uniqueness(monkeypatch):
    calls = []

    def feasible(*args, **kw):
        solver, name, stopped = SOLVE(*args, **kw)
        calls.append(name)
        return solver, "FEASIBLE" if len(calls) == 1 else name, stopped
    monkeypatch.setattr(robofacture, "solve_interruptibly", feasible)
    result = solve_parts(load_puzzle(UNIQUE), 20, 1, unique=True)
    assert (result.status, result.fewest_parts, result.unique) == ("FEASIBLE", None, None)


@pytest.mark.parametrize("which, fewest", [(2, False), (3, True)], ids=["fewest-parts", "only-filling"])
def test_a_tie_break_or_uniqueness_question_cut_short_claims_nothing(monkeypatch, which, fewest):
    calls_cut_short(monkeypatch, which)
    result = solve_parts(load_puzzle(UNIQUE), 20, 1, unique=True)
    assert result.status == "OPTIMAL" and result.unique is None and result.fewest_parts is fewest


def test_the_same_puzzle_not_cut_short_is_proved_unique_with_the_fewest_parts():
    result = solve_parts(load_puzzle(UNIQUE), 20, 1, unique=True)
    assert (result.status, result.fewest_parts, result.unique) == ("OPTIMAL", True, True)


@pytest.mark.parametrize("unique, status, placed, published", [
    (True, "OPTIMAL", 2, True), (None, "OPTIMAL", 2, False), (False, "OPTIMAL", 2, False),
    (True, "FEASIBLE", 2, False), (True, "OPTIMAL", 1, False)])
def test_a_draw_is_published_only_with_a_proved_unique_best_of_two_parts_or_more(monkeypatch, unique, status, placed,
                                                                                 published):
    answer = SimpleNamespace(unique=unique, status=status, puzzle=SimpleNamespace(placed=(0,) * placed),
                             stop_signal=None)
    monkeypatch.setattr(generation, "solve_parts", lambda *args, **kw: answer)
    generated = generation.generate(3, 3, 2, attempts=2, time_limit=5, workers=1)
    assert (generated is not None) == published
    assert generated is None or generated.attempts == 1



def test_a_tie_break_with_no_time_left_claims_nothing_of_the_fewest_parts():
    placed = (Placement(0, (0, 0)),)
    assert robofacture._fewest_parts(None, placed, 1.0, 0.0, 1, 0) == (placed, None, None)
