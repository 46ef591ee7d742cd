"""What a Factory Fun puzzle claims only when it is proved: the answer the only best, the runner-up's and the
rival's scores, a clue spared, a draw published. QA pass 65 (mutation testing of the puzzle proofs) found each of
these unpinned: a mutant that claimed one from a search cut short, or let a tile stand in for a given one, lived
through every other test. A search cut short is stood in for by the real search with its status replaced: a
short time limit cuts it off only on some machines."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from builders import make_layout
from models.jsonio import read_json
from models.layout import load_layout
from models.puzzle import load_puzzle
from solver import puzzle as proofs
from solver.puzzle import Carved, Uniqueness, another_as_good, generate, runner_up, tank_for_pipe
from test_puzzle import ANSWER, TESTS_DATA as DATA, TIED, UNIQUE, answer_of, run

SEARCH = proofs._solve_without_strays


def three_machines():
    return load_puzzle(UNIQUE), answer_of()


def searches_ending(monkeypatch, status: str, keep_layout: bool) -> None:
    """Every uniqueness, runner-up or rival search ends with `status` (its layout kept or not), as one cut off by
    its time limit does."""
    def cut_short(*args):
        solver, _status, stopped, found = SEARCH(*args)
        return solver, status, stopped, found if keep_layout else None
    monkeypatch.setattr(proofs, "_solve_without_strays", cut_short)


def test_a_search_that_ends_without_an_answer_proves_no_uniqueness(monkeypatch):
    puzzle, answer = three_machines()
    searches_ending(monkeypatch, "UNKNOWN", keep_layout=False)
    asked = another_as_good(puzzle.ruleset, puzzle.board, puzzle.catalog, puzzle.machines, answer, puzzle.best, 30, 1)
    assert asked.verdict == "unknown" and asked.unique is None


@pytest.mark.parametrize("seconds", [0.05, 0.2])
def test_a_short_uniqueness_search_on_a_board_with_two_bests_never_says_unique(seconds):
    """three-machines before its two pillars were carved: its answer scores the best, 22, and so does another."""
    tied, (puzzle, answer) = load_puzzle(TIED), three_machines()
    answer = replace(answer, board=tied.board)
    asked = another_as_good(tied.ruleset, tied.board, tied.catalog, tied.machines, answer, puzzle.best, seconds, 1)
    assert asked.verdict in ("another", "unknown")


@pytest.mark.parametrize("placed_otherwise", [False, True], ids=["runner-up", "rival"])
def test_a_runner_up_search_cut_short_claims_no_score_and_never_that_none_exists(monkeypatch, placed_otherwise):
    puzzle, answer = three_machines()
    searches_ending(monkeypatch, "UNKNOWN", keep_layout=False)
    nothing = runner_up(puzzle.ruleset, puzzle.board, puzzle.catalog, puzzle.machines, answer, 30, 1,
                        placed_otherwise=placed_otherwise)
    assert (nothing.score, nothing.proved, nothing.claim) == (None, False, None)
    searches_ending(monkeypatch, "FEASIBLE", keep_layout=True)
    found = runner_up(puzzle.ruleset, puzzle.board, puzzle.catalog, puzzle.machines, answer, 30, 1,
                      placed_otherwise=placed_otherwise)
    assert found.score is not None and (found.proved, found.claim) == (False, None)


def test_a_clue_whose_check_runs_out_of_time_is_kept(monkeypatch):
    """Carving drops a pillar only where the answer is proved unique without it; a check that settles nothing
    keeps it (dropping it published three-machines with a second best layout)."""
    puzzle, answer = three_machines()
    monkeypatch.setattr(proofs, "another_as_good", lambda *args: Uniqueness("unknown", None, 0.1))
    pillars = sorted(puzzle.board.pillars)
    board, given = proofs._without_spare_clues(puzzle, puzzle.board, (), pillars, answer, float("inf"), 1, 0)
    assert sorted(board.pillars) == pillars and given == ()


def test_a_draw_whose_carving_fails_is_not_published(monkeypatch):
    calls = []

    def failed(rng, question, answer, *rest, **options):
        calls.append(question.machines)
        return Carved(question, answer, 0, why_not="another layout is as good")
    monkeypatch.setattr(proofs, "carve", failed)
    puzzle = load_puzzle(UNIQUE)
    generated = generate(puzzle.ruleset, puzzle.catalog, 4, 4, 2, pillars=0, seed=3, attempts=1, time_limit=20,
                         workers=1)
    assert calls and generated is None


def test_a_given_pipe_stays_a_pipe_when_the_proof_swaps_pipes_for_tanks():
    """The reservoir-junction puzzle's answer has two pipes a reservoir may stand for (another layout as good);
    with those two pipes given, no other layout keeps them, and the answer is the only best."""
    path = DATA / "puzzle-reservoir-junction-given.json"
    puzzle = load_puzzle(path)
    answer = load_layout(DATA / "puzzle-reservoir-junction-answer.json", boards_path=path)
    assert tank_for_pipe(answer, puzzle.best) is not None
    assert tank_for_pipe(answer, puzzle.best, puzzle.given) is None
    solved = json.loads(run("puzzle", "solve", path, "--workers", "1", "--time-limit", "30", "--json").stdout)
    assert solved["result"]["unique"] is True and solved["result"]["runner_up"] == 31


def test_no_tank_is_tried_for_two_pipes_crossing_in_a_cell():
    """A tank there would join the two networks the crossing keeps apart."""
    crossing = make_layout(machines=[("FF09", (4, 1), 0)],
                           tiles=[("supply", (3, 1), "red"), ("pipe", (4, 3), "W", "E"), ("pipe", (4, 3), "N", "S"),
                                  ("end", (4, 4))])
    assert tank_for_pipe(crossing, -100) is None


def test_an_answer_with_another_tile_on_a_given_tiles_cell_is_no_answer():
    """The tied layout of the given-tile puzzle lays a container where the puzzle gives a pipe."""
    path = DATA / "puzzle-tiny-given.json"
    checked = run("puzzle", "check", path, DATA / "puzzle-tiny-given-other.json")
    assert checked.exit_code == 1
    assert "not an answer: moves or leaves out the puzzle's given pipe at [1, 0]" in checked.stdout


def test_a_puzzle_that_does_not_say_its_best_is_unique_is_not_called_so(tmp_path):
    document = read_json(UNIQUE)
    for key in ("unique", "runner_up", "rival"):
        document["puzzle"].pop(key, None)
    silent = tmp_path / "silent.json"
    silent.write_text(json.dumps(document))
    checked = run("puzzle", "check", silent, ANSWER)
    assert checked.exit_code == 0 and "solved: 22, the best" in checked.stdout
    assert "the only" not in checked.stdout
    assert "the only layout that scores it" in run("puzzle", "check", UNIQUE, ANSWER).stdout


def test_the_same_searches_not_cut_short_prove_both_scores():
    """(The stand-ins above replace only a search's status: the same searches, left alone, prove them.)"""
    puzzle, answer = three_machines()
    second = runner_up(puzzle.ruleset, puzzle.board, puzzle.catalog, puzzle.machines, answer, 60, 1)
    rival = runner_up(puzzle.ruleset, puzzle.board, puzzle.catalog, puzzle.machines, answer, 60, 1,
                      placed_otherwise=True)
    assert (second.proved, second.claim) == (True, puzzle.runner_up)
    assert (rival.proved, rival.claim) == (True, puzzle.rival)
