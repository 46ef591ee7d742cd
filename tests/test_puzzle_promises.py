"""Both puzzle families' files and commands (Robofacture's and Factory Fun's `puzzle check`): every refusal of the
loader and what each command promises a reader or a script. QA pass 59 (mutation testing of the puzzle code) found
each of these unpinned: a mutant breaking it lived through every other test."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli import main
from models.errors import DocumentError
from models.paths import INSTANCES
from models.robofacture.puzzle import parse_puzzle

EXAMPLES = INSTANCES / "robofacture"
MONO = {"kind": "mono", "colors": ["blue"]}


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def puzzle(space=None, parts=(MONO,), placed=(), **extra) -> dict:
    return {"ruleset": "robofacture", "space": {"rows": 2, "cols": 2, **(space or {})}, "parts": list(parts),
            "placed": list(placed), **extra}


@pytest.mark.parametrize("document, said", [
    (puzzle({"player": "red", "premarked": [[2, 0]]}), "space.premarked[0]: outside the 2 x 2 space"),
    (puzzle({"player": "red", "premarked": [[0, 0], [0, 0]]}), "space.premarked[1]: premarked twice"),
    (puzzle({"player": "white", "premarked": [[0, 0]]}), 'space.player: unknown colour "white"'),
    (puzzle({"rows": 4, "cols": 4}, [{"kind": "L4", "colors": ["red"]}], [{"part": 0, "cell": [0, 0]}]),
     "parts[0].colors: a part is coloured in a checkerboard of two colours, got 1"),
    (puzzle(placed=[{"part": 1, "cell": [0, 0]}]), "placed[0].part: expected a part index from 0 to 0, got 1"),
    (puzzle(result=7), "result: expected an object, got 7"),
    (puzzle(source="hand-made"), "source: unknown key"),
    (puzzle({"rows": 12, "cols": 12}, [MONO] * 61), "at most 60 parts"),
])
def test_a_puzzle_file_the_rules_cannot_have_is_refused_by_name(document, said):
    with pytest.raises(DocumentError, match=None) as refused:
        parse_puzzle(document, "mine.json")
    assert said in str(refused.value)


def test_sixty_parts_are_allowed():
    assert len(parse_puzzle(puzzle({"rows": 12, "cols": 12}, [MONO] * 60), "mine.json").parts) == 60


def test_check_says_legal_in_json_and_lists_the_violations_in_the_terminal():
    broken = EXAMPLES / "illegal-touching-and-overlap.json"
    assert json.loads(run("robofacture", "check", broken, "--json").stdout)["legal"] is False
    shown = run("robofacture", "check", broken).stdout
    assert "2 violations of 2 rules" in shown and "two red cells touch" in shown


def test_ship_exits_1_when_nothing_ships_and_lists_every_way_only_when_asked(tmp_path):
    lone = tmp_path / "lone.json"
    lone.write_text(json.dumps(puzzle(placed=[{"part": 0, "cell": [0, 0]}])))
    assert run("robofacture", "ship", lone, "--json").exit_code == 1   # legal, but no 2 x 2 filled
    filled = EXAMPLES / "filled-cuts.json"
    assert set(json.loads(run("robofacture", "ship", filled, "--json").stdout)) == {"legal", "shipment"}
    assert "shipments" in json.loads(run("robofacture", "ship", filled, "--json", "--all").stdout)


def test_solve_writes_its_placements_and_words_uniqueness_only_when_asked(tmp_path):
    out = tmp_path / "solved.json"
    shown = run("robofacture", "solve", EXAMPLES / "parts-4x4.json", "--workers", "1", "--json", "--out", out)
    assert len(json.loads(shown.stdout)["placed"]) == 4 and len(json.loads(out.read_text())["placed"]) == 4
    plain = run("robofacture", "solve", EXAMPLES / "parts-4x4.json", "--workers", "1").stdout
    assert "uniqueness" not in plain and "unique" not in plain.split("OPTIMAL")[1].splitlines()[0]
    unique = run("robofacture", "solve", EXAMPLES / "unique-4x4.json", "--workers", "1", "--unique").stdout
    assert "the best filling is unique" in unique


def test_solve_says_every_part_placed_only_with_all_parts(tmp_path):
    lone = tmp_path / "lone.json"
    lone.write_text(json.dumps(puzzle()))
    reason = run("robofacture", "solve", lone, "--workers", "1").stdout + run("robofacture", "solve", lone,
                                                                              "--workers", "1").stderr
    assert "with every part placed" not in reason


def test_compare_json_says_whether_the_best_is_the_players_own():
    shown = json.loads(run("robofacture", "compare", EXAMPLES / "filled-cuts.json", "--workers", "1", "--json").stdout)
    assert shown["best_is_yours"] is False


def test_a_generated_puzzle_written_to_a_file_is_not_printed_too(tmp_path):
    out = tmp_path / "made.json"
    made = run("robofacture", "generate", "--seed", "3", "--out", out, "--workers", "1", "--time-limit", "10")
    assert out.exists() and not made.stdout.lstrip().startswith("{")


# -- Factory Fun puzzles: `puzzle check` (QA pass 59) ---------------------------------------------------------------
def _factory_puzzle(tmp_path, **question) -> str:
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps({"ruleset": "factory-fun", "boards": [
        {"id": "puzzle-3", "geometry": "square", "rows": 5, "cols": 5, "blocked": [], "pillars": [[1, 2], [3, 3]]}],
        "puzzle": {"board": "puzzle-3", **question}}))
    return str(path)


ANSWER = INSTANCES / "puzzles" / "three-machines-answer.json"   # FF39, FF31, FF41 on puzzle-3: 22


def test_an_answer_placing_a_machine_the_puzzle_does_not_ask_for_breaks_the_puzzle(tmp_path):
    asked = _factory_puzzle(tmp_path, machines=["FF39", "FF31"])
    checked = run("puzzle", "check", asked, ANSWER, "--json")
    assert checked.exit_code == 1
    assert "places FF41, not one of the puzzle's machines" in json.loads(checked.stdout)["puzzle_violations"]


def test_an_answer_moving_given_tiles_names_the_first_and_counts_the_rest(tmp_path):
    given = _factory_puzzle(tmp_path, machines=["FF39", "FF31", "FF41"], tiles=[
        {"kind": "pipe", "cell": [0, 3], "sides": ["W", "E"]}, {"kind": "pipe", "cell": [0, 4], "sides": ["W", "S"]}])
    (said,) = json.loads(run("puzzle", "check", given, ANSWER, "--json").stdout)["puzzle_violations"]
    assert "given pipe at [0, 3] (and 1 more)" in said


def test_an_answer_to_a_puzzle_with_several_best_layouts_is_not_called_the_only_one(tmp_path):
    shared = _factory_puzzle(tmp_path, machines=["FF39", "FF31", "FF41"], best=22, unique=False)
    shown = " ".join(run("puzzle", "check", shared, ANSWER).stdout.split())
    assert "solved: 22, the best" in shown and "the only layout" not in shown
