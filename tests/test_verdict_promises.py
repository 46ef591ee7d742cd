"""What the solver may claim about a `--fixed` part and a model's answer, each found unpinned by QA pass 63
(mutation testing of the fixed-part verdicts, the placements modelled and the answer's extraction): a mutant
breaking it made `solve` answer INFEASIBLE (or would have let it claim OPTIMAL) where a layout exists, and lived
through every other test. The fixed parts are the pass's cases, in tests/data/fixed-*.json."""
from __future__ import annotations

from pathlib import Path

import pytest

import solver.static as static
from models.board import load_boards
from models.catalog import load_catalog
from models.check import check_layout
from models.layout import load_layout
from models.paths import EXAMPLES_DIR
from models.rulesets import get_ruleset
from solver.extract import ModelCheckerDisagreement, checked_layout
from solver.fixed_part import fixed_part_reason
from solver.placements import cell_pieces, diagonal_pieces, machine_placements

DATA = Path(__file__).resolve().parent / "data"
FF = get_ruleset("factory-fun")
FF_CATALOG = load_catalog(FF)
CLASSIC_A = load_boards(FF)["classic-A"]
#: the diagonal tile's two distinct turns on a square board (180 and 270 lie as 0 and 90)
TURNS = {0, 90}


@pytest.mark.parametrize("name, machines, placing", [
    ("fixed-funner-tank-and-open-pipe.json", ["FN09"], ["FN09"]),   # (a walled tank whose pipe has a free end)
    ("fixed-funner-yellow-tank-taken.json", ["FN09", "FN33"], ["FN33"]),   # (FN33's pink-or-yellow input: pink)
])
def test_a_fixed_part_that_can_still_be_supplied_has_no_reason_to_be_infeasible(name, machines, placing):
    fixed = load_layout(DATA / name)
    assert fixed_part_reason(fixed, fixed.catalog, machines, placing) is None


def test_a_machine_in_the_boards_first_cell_is_a_placement():
    """FF09 at [0, 0] turned 90 on classic-A: the first anchor of the board is enumerated like any other."""
    assert any(p.anchor == (0, 0) and p.rotation == 90 for p in machine_placements(FF, CLASSIC_A, FF_CATALOG["FF09"]))


def test_the_four_way_splitter_and_every_diagonal_turn_are_pieces():
    assert any(len(piece.tile[2]) == 4 for piece in cell_pieces(FF, CLASSIC_A))   # (the X splitter: N, E, S, W)
    assert {piece.tile[2] for piece in diagonal_pieces(FF, CLASSIC_A)} == TURNS


@pytest.mark.parametrize("name, machines, diagonal, optimum", [
    ("fixed-machine-in-the-corner.json", ["FF09"], False, 5),
    ("fixed-x-splitter.json", ["FF04"], False, 2),
    ("fixed-diagonal-turned.json", ["FF29", "FF04"], True, 7),
])
def test_a_fixed_part_the_model_must_hold_is_solved_not_refused(name, machines, diagonal, optimum):
    """Each part is legal as it stands (the checker scores it), so the model must hold it: a placement or piece
    left out of the model answered INFEASIBLE ("... is not a candidate placement")."""
    fixed = load_layout(DATA / name)
    result = static.solve_static(FF, CLASSIC_A, FF_CATALOG, machines, time_limit=30, workers=1, seed=1, fixed=fixed,
                          diagonal=diagonal)
    assert result.status == "OPTIMAL" and result.objective == optimum


def test_a_model_layout_the_checker_rejects_is_a_disagreement_never_an_answer():
    illegal = load_layout(EXAMPLES_DIR / "illegal-one-colour-red-into-green.json")
    with pytest.raises(ModelCheckerDisagreement, match="the rule checker rejects"):
        checked_layout(illegal)


@pytest.mark.parametrize("bound, status", [(None, "FEASIBLE"), (1, "FEASIBLE"), (0, "OPTIMAL")])
def test_a_search_ending_under_its_bound_is_feasible_and_at_it_optimal(monkeypatch, bound, status):
    """The answer is OPTIMAL only where the best layout meets the proved bound: a point under it is FEASIBLE
    (QA pass 63: a status called OPTIMAL within a point of the bound lived, since no test ends a search there).
    The search is staged: it ends with the rulebook's round-2 layout and a bound `bound` points above it."""
    layout = load_layout(EXAMPLES_DIR / "rulebook-round2.json")
    judged = check_layout(layout)
    value = judged.score.total
    track = static._Track("profit", None if bound is None else value + bound, 0.1, (layout, judged))
    monkeypatch.setattr(static._Solve, "search", lambda self: (track, value + 5))
    result = static.solve_static(FF, layout.board, FF_CATALOG, list(layout.machine_ids), time_limit=5, workers=1)
    assert (result.status, result.objective) == (status, value)
    assert result.bound == (value if status == "OPTIMAL" else None if bound is None else value + bound)
