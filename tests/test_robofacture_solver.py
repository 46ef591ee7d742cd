"""The Robofacture solver against the checker: hand optima, brute force on small spaces, fixed parts,
uniqueness, and the commands with their documents and errors."""
from __future__ import annotations

import itertools
from pathlib import Path
import json
import random

import pytest
from click.testing import CliRunner

from cli import main
from models.paths import INSTANCES
from models.robofacture.check import check
from models.robofacture.parts import COLOURS, Part, Placement, covered, orientations
from models.robofacture.puzzle import Puzzle, Space, parse_puzzle
from models.robofacture.shipping import best_shipment
from solver.robofacture import PlacedPartsIllegal, solve_parts
from tests.cli_errors import one_line_error

EXAMPLES = INSTANCES / "robofacture"
mono = lambda colour: Part("mono", (colour,))   # noqa: E731 - a test's shorthand


def space(rows, cols, **kw):
    return Space(rows, cols, **kw)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


# -- hand optima ----------------------------------------------------------------------------------------------
def test_four_monominoes_make_a_checkered_2_x_2():
    puzzle = Puzzle(space(2, 2), (mono("red"), mono("blue"), mono("red"), mono("blue")))
    result = solve_parts(puzzle, time_limit=10, workers=1)
    assert result.status == "OPTIMAL" and result.shipment.score == 1 and result.bound == 1
    assert check(result.puzzle).legal and len(result.puzzle.placed) == 4


def test_a_third_red_cannot_join_a_2_x_2_so_all_parts_is_infeasible():
    parts = (mono("red"), mono("red"), mono("red"), mono("blue"))
    assert solve_parts(Puzzle(space(2, 2), parts), 10, 1).shipment is None   # no 2 x 2 without touching reds
    assert solve_parts(Puzzle(space(2, 2), parts), 10, 1, all_parts=True).status == "INFEASIBLE"


def test_spare_parts_are_left_aside_rather_than_cut_away():
    parts = (mono("red"), mono("blue"), mono("red"), mono("blue"), mono("green"))
    result = solve_parts(Puzzle(space(3, 3), parts), 10, 1)
    assert result.shipment.score == 1 and result.shipment.cuts == 0 and len(result.puzzle.placed) == 4


def test_a_white_is_kept_out_unless_it_makes_a_bigger_product():
    two_by_two = (mono("red"), mono("blue"), mono("red"), mono("white"))
    assert solve_parts(Puzzle(space(2, 2), two_by_two), 10, 1).shipment.score == 0   # 1 - 1 white: still best
    wide = (Part("I3", ("red", "blue")), Part("I3", ("blue", "white")), mono("white"))
    result = solve_parts(Puzzle(space(2, 3), wide), 10, 1)
    assert result.shipment.rows * result.shipment.cols == 6 and result.shipment.score == 3 - 1


def test_placed_parts_stay_where_they_are():
    puzzle = Puzzle(space(3, 3), (mono("red"), mono("blue"), mono("blue"), mono("red")),
                    (Placement(0, (2, 2)),))
    result = solve_parts(puzzle, 10, 1)
    assert Placement(0, (2, 2)) in result.puzzle.placed and result.shipment.score == 1
    assert check(result.puzzle).legal


def test_illegal_placed_parts_are_refused_before_solving():
    puzzle = Puzzle(space(2, 2), (mono("red"), mono("red")), (Placement(0, (0, 0)), Placement(1, (0, 1))))
    with pytest.raises(PlacedPartsIllegal, match="same-colour"):
        solve_parts(puzzle, 5, 1)


def test_uniqueness_is_proved_or_refuted():
    # a 2 x 2 of red and blue: the reds go on one diagonal or the other, two fillings
    twin = Puzzle(space(2, 2), (mono("red"), mono("blue"), mono("red"), mono("blue")))
    assert solve_parts(twin, 10, 1, unique=True).unique is False
    # a premarked red corner fixes the diagonal: one filling
    pinned = Puzzle(space(2, 2, premarked=frozenset({(0, 0)})), (mono("blue"), mono("red"), mono("blue")))
    result = solve_parts(pinned, 10, 1, unique=True)
    assert result.shipment.score == 1 and result.unique is True


# -- brute force: the model's optimum is the checker's on small random spaces ---------------------------------
def _brute_force(puzzle: Puzzle) -> int | None:
    """The best score over every choice of placement (or none) per unplaced part, judged by the checker alone."""
    options = []
    placed = {p.part for p in puzzle.placed}
    for index, part in enumerate(puzzle.parts):
        if index in placed:
            continue
        choices = [None]
        for rotation, flip in orientations(part):
            for r in range(puzzle.space.rows):
                for c in range(puzzle.space.cols):
                    placement = Placement(index, (r, c), rotation, flip)
                    if all(puzzle.space.inside(cell) for cell in covered(part, placement)):
                        choices.append(placement)
        options.append(choices)
    best = None
    for combination in itertools.product(*options):
        verdict = check(puzzle.with_placed(puzzle.placed + tuple(p for p in combination if p is not None)))
        if verdict.legal and (shipment := best_shipment(verdict.filling.colours)) is not None:
            best = shipment.score if best is None else max(best, shipment.score)
    return best


@pytest.mark.parametrize("seed", range(6))
def test_the_solver_matches_brute_force_on_small_spaces(seed):
    rng = random.Random(seed)
    kinds = ["mono", "mono", "I3", "L3"]
    parts = []
    for kind in rng.sample(kinds, 3) + ["mono"]:
        colours = rng.sample(COLOURS, 1 if kind == "mono" else 2)
        parts.append(Part(kind, tuple(colours)))
    premarked = frozenset({(rng.randrange(3), rng.randrange(3))}) if seed % 2 else frozenset()
    puzzle = Puzzle(Space(3, 3, rng.choice(COLOURS[:4]), premarked), tuple(parts))
    result = solve_parts(puzzle, 20, 1)
    expected = _brute_force(puzzle)
    assert (result.shipment.score if result.shipment else None) == expected
    if expected is not None:
        assert result.status == "OPTIMAL" and check(result.puzzle).legal


# -- documents and commands -------------------------------------------------------------------------------------
def test_examples_read_and_round_trip():
    for path in sorted(EXAMPLES.glob("*.json")):
        document = json.loads(path.read_text())
        puzzle = parse_puzzle(document, str(path))
        assert parse_puzzle(puzzle.to_dict(), "again") == puzzle


def test_check_exit_codes_and_json():
    assert run("robofacture", "check", EXAMPLES / "filled-cuts.json").exit_code == 0
    result = run("robofacture", "check", EXAMPLES / "illegal-touching-and-overlap.json", "--json")
    assert result.exit_code == 1
    assert {v["rule"] for v in json.loads(result.stdout)["violations"]} == {"overlap", "same-colour"}


def test_ship_names_the_best_rectangle(tmp_path):
    result = run("robofacture", "ship", EXAMPLES / "filled-cuts.json", "--json", "--all")
    document = json.loads(result.stdout)
    assert result.exit_code == 0 and document["shipment"]["score"] == 13
    assert document["shipment"] == document["shipments"][0] and len(document["shipments"]) > 10
    svg = tmp_path / "ship.svg"
    assert run("robofacture", "ship", EXAMPLES / "filled-cuts.json", "--svg", svg).exit_code == 0
    assert svg.read_text().startswith("<svg") and "stroke-dasharray" in svg.read_text()   # the cut is drawn
    # the table names a tie's colours as the caption does (QA: "blue/green" beside "blue or green")
    listed = run("robofacture", "ship", EXAMPLES / "filled-cuts.json", "--all").stdout
    assert " or " in listed.split("ways to ship")[1] and "/" not in listed.split("ways to ship")[1]


def test_solve_writes_a_puzzle_the_checker_accepts(tmp_path):
    out = tmp_path / "answer.json"
    result = run("robofacture", "solve", EXAMPLES / "parts-4x4.json", "--time-limit", "20", "--workers", "1",
                 "--out", out)
    assert result.exit_code == 0 and "OPTIMAL: score 15" in result.stdout
    answer = json.loads(out.read_text())
    assert answer["result"]["status"] == "OPTIMAL" and answer["result"]["shipment"]["score"] == 15
    assert run("robofacture", "check", out).exit_code == 0
    # it says at once what it does, and its last progress line is the proved answer (QA: 9 s of silence on a
    # big space, and "best 14 bound 15" above an OPTIMAL 14)
    said = result.stderr.splitlines()
    assert said[0] == "placing 7 parts in a 4 x 4 space (20s, 1 worker)"
    assert [line for line in said if line.startswith("best ")][-1].startswith("best 15  bound 15  gap 0.0%")


def test_solve_without_an_answer_exits_1(tmp_path):
    path = tmp_path / "three-reds.json"
    path.write_text(json.dumps({"ruleset": "robofacture", "space": {"rows": 2, "cols": 2},
                                "parts": [{"kind": "mono", "colors": ["red"]}] * 3 + [{"kind": "mono", "colors": ["blue"]}]}))
    out = tmp_path / "answer.json"
    result = run("robofacture", "solve", path, "--all-parts", "--time-limit", "5", "--workers", "1", "--out", out)
    assert result.exit_code == 1 and "INFEASIBLE" in result.stderr
    assert f"{out} not written\n" in result.stderr and not out.exists()   # (it held the puzzle, unchanged)


@pytest.mark.parametrize("change, needles", [
    (lambda d: d.update(extra=1), ["extra", "unknown key"]),
    (lambda d: d["parts"][0].update(kind="Q7"), ["parts[0].kind", "unknown part kind"]),
    (lambda d: d["parts"][0].update(colors=["red", "red"]), ["parts[0].colors", "two different colours"]),
    (lambda d: d["parts"][5].update(colors=["purple"]), ["parts[5].colors[0]", "unknown colour"]),
    (lambda d: d["space"].update(premarked=[[9, 9]]), ["space.premarked[0]", "outside"]),
    (lambda d: d["space"].update(rows=40), ["space.rows", "from 2 to 12"]),
    # QA: read as red where the file meant another colour; the premarked cell is the player's
    (lambda d: d["space"].update(premarked=[[0, 0]]) or d["space"].pop("player"), ["space.player", "missing key"]),
    (lambda d: d.update(placed=[{"part": 0, "cell": [0, 0]}, {"part": 0, "cell": [2, 2]}]), ["placed[1].part", "twice"]),
    (lambda d: d.update(placed=[{"part": 9, "cell": [0, 0]}]), ["placed[0].part", "part index"]),
    (lambda d: d.update(placed=[{"part": 0, "cell": [0, 0], "rotation": 45}]), ["placed[0].rotation"]),
    # QA pass 53: a rotation of the wrong type named no allowed value
    (lambda d: d.update(placed=[{"part": 0, "cell": [0, 0], "rotation": 90.0}]),
     ["placed[0].rotation", "expected a rotation (0, 90, 180, 270), got 90.0"]),
    (lambda d: d.update(ruleset="factory-fun"), ["ruleset", "robofacture"]),
])
def test_bad_puzzles_are_one_line_errors(tmp_path, change, needles):
    document = json.loads((EXAMPLES / "parts-4x4.json").read_text())
    change(document)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    for command in ("check", "ship", "solve"):
        one_line_error(["robofacture", command, str(path)], str(path), *needles)


def test_solve_refuses_a_space_whose_placed_parts_break_a_rule():
    one_line_error(["robofacture", "solve", str(EXAMPLES / "illegal-touching-and-overlap.json")],
                   "placed", "overlap")


def test_ctrl_c_stops_a_long_solve_with_the_best_placement_so_far(tmp_path):
    import random
    import signal
    import subprocess
    import sys
    import time

    from solver.robofacture_generate import draw

    path = tmp_path / "big.json"
    path.write_text(json.dumps(draw(random.Random(0), 8, 8, 16, 4, 3).to_dict()))   # 4-8 s to prove
    running = subprocess.Popen([sys.executable, "-c", "from cli import main; main()", "robofacture", "solve",
                                str(path), "--time-limit", "120", "--workers", "1", "--out", str(tmp_path / "a.json")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=INSTANCES.parent)
    line = running.stderr.readline()
    while line.startswith(("placing ", "no placement yet")):   # (what it does, then the heartbeat: beside busy
        # processes the first came at 10 s)
        line = running.stderr.readline()
    assert line.startswith("best")   # a placement is found before the signal
    time.sleep(0.5)
    running.send_signal(signal.SIGINT)
    out, err = running.communicate(timeout=30)
    assert running.returncode == 0, err
    assert "(interrupted)" in out and "ships " in out and "Traceback" not in err
    assert json.loads((tmp_path / "a.json").read_text())["result"]["interrupted"] is True


def test_generated_puzzles_have_a_unique_best_answer_and_the_seed_repeats_them():
    from solver.robofacture_generate import generate

    first = generate(4, 4, 5, seed=3, time_limit=60, workers=1)
    again = generate(4, 4, 5, seed=3, time_limit=60, workers=1)
    assert first is not None and first.puzzle == again.puzzle and first.puzzle.placed == ()
    assert len(first.answer.puzzle.placed) >= 2 and check(first.answer.puzzle).legal
    resolved = solve_parts(first.puzzle, 30, 1, unique=True)   # asked afresh, the answer is the same and unique
    assert resolved.unique is True and resolved.shipment.score == first.answer.shipment.score
    assert check(resolved.puzzle).filling.colours == check(first.answer.puzzle).filling.colours


def test_generate_writes_the_puzzle_and_its_answer(tmp_path):
    out, answer = tmp_path / "puzzle.json", tmp_path / "answer.json"
    result = run("robofacture", "generate", "--seed", "3", "--workers", "1", "--out", out, "--answer", answer)
    assert result.exit_code == 0 and "(proved)" in result.stderr
    assert "parts: 0 " in result.stdout and "key: " in result.stdout   # the puzzle drawn (QA: nothing of it was)
    assert json.loads(out.read_text()) == json.loads((EXAMPLES / "unique-4x4.json").read_text())
    solved = json.loads(answer.read_text())
    assert solved["result"]["unique"] is True and run("robofacture", "check", answer).exit_code == 0


def test_generate_gives_up_with_exit_1():
    result = run("robofacture", "generate", "--rows", "2", "--cols", "2", "--parts", "2", "--monominoes", "0",
                 "--premarked", "0", "--attempts", "3", "--workers", "1")
    assert result.exit_code == 1 and "no puzzle with a unique best answer in 3 draws" in result.stderr
    # each draw is said as it begins and as it is dropped (QA: 20 s of silence, then only the verdict)
    said = [line for line in result.stderr.splitlines() if line.startswith("draw ")]
    assert [line.split(" (")[0].split(":")[0] for line in said] == ["draw 1", "draw 1 dropped", "draw 2",
                                                                    "draw 2 dropped", "draw 3", "draw 3 dropped"]


def test_premarked_cells_fill_the_room_a_space_has_for_them_apart_and_no_more():
    """A 3 x 3 space has room for 5 cells no two side by side (its checkerboard's even squares): 5 are drawn
    apart, whatever the seed; 6 are refused before any draw, the option and its room named."""
    import random

    from solver.robofacture_generate import _apart

    for seed in range(20):
        marked = _apart(random.Random(seed), 3, 3, 5)
        assert len(marked) == 5
        assert not any((r + dr, c + dc) in marked for r, c in marked for dr, dc in ((0, 1), (1, 0)))
    refused = run("robofacture", "generate", "--rows", "3", "--cols", "3", "--premarked", "6", "--workers", "1")
    assert refused.exit_code == 2 and "--premarked 6: a 3 x 3 space has room for 5 premarked cells apart" in \
        refused.stderr and "draw 1" not in refused.stderr


def test_a_puzzle_and_a_layout_given_to_the_wrong_command_are_named():
    one_line_error(["check", str(EXAMPLES / "parts-4x4.json")], "ruleset", "Robofacture parts puzzle",
                   "factoryfun robofacture check")
    one_line_error(["replay", str(EXAMPLES / "parts-4x4.json")], "Robofacture parts puzzle")
    one_line_error(["robofacture", "ship", str(INSTANCES / "examples" / "legal-crossing.json")],
                   'expected "robofacture"', '"factory-fun"')


def test_premarked_cells_side_by_side_are_mended_by_covering_one():
    puzzle = Puzzle(space(2, 2, premarked=frozenset({(0, 0), (0, 1)})),
                    (mono("blue"), mono("blue"), mono("red")))
    assert not check(puzzle).legal   # as printed, two red cells touch
    result = solve_parts(puzzle, 10, 1)
    assert check(result.puzzle).legal and result.shipment.score == 1


@pytest.mark.parametrize("name", ["robofacture-outside-part-covers-premarked.json",
                                  "robofacture-outside-part-mends-premarked.json",
                                  "robofacture-placed-beside-premarked.json"])
def test_parts_outside_the_rectangle_that_cover_premarked_cells_are_kept(name):
    """QA: a part wholly outside the shipped rectangle was forbidden, but one may be needed to cover a premarked
    cell that would touch its own colour: the solver said OPTIMAL 1 where 2 was legal, or INFEASIBLE."""
    from models.robofacture.puzzle import load_puzzle

    puzzle = load_puzzle(Path(__file__).parent / "data" / name)
    result = solve_parts(puzzle, 20, 1)
    assert result.shipment is not None and result.shipment.score == _brute_force(puzzle)


def test_an_unproved_answer_is_judged_by_the_checker_not_by_the_model():
    """QA: stopped early, the model's value can understate the filling (a cut it could drop): the checker's
    score stands, and only a proved value must agree exactly."""
    from solver.robofacture import RobofactureDisagreement, _judged

    puzzle = Puzzle(space(2, 2), (mono("red"), mono("blue"), mono("red"), mono("blue")))
    placed = (Placement(0, (0, 0)), Placement(1, (0, 1)), Placement(2, (1, 1)), Placement(3, (1, 0)))
    _, _, shipment = _judged(puzzle, placed, claimed=-10, proved=False)   # 1 VP found, -1 claimed
    assert shipment.score == 1
    with pytest.raises(RobofactureDisagreement):
        _judged(puzzle, placed, claimed=-10, proved=True)
    with pytest.raises(RobofactureDisagreement):   # more than the filling holds is wrong either way
        _judged(puzzle, placed, claimed=20, proved=False)


def test_sigterm_stops_generate_with_the_shells_code():
    """QA: SIGTERM during the draws exited 130, as Ctrl-C does; `kill` and `timeout` expect 143."""
    import signal
    import subprocess
    import sys
    import time

    running = subprocess.Popen([sys.executable, "-c", "from cli import main; main()", "robofacture", "generate",
                                "--rows", "10", "--cols", "10", "--parts", "20", "--workers", "1",
                                "--time-limit", "60"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=INSTANCES.parent)
    time.sleep(3.0)   # past the imports, into a draw's solve
    running.send_signal(signal.SIGTERM)
    out, err = running.communicate(timeout=30)
    assert running.returncode == 143 and err.strip().splitlines()[-1] == "interrupted"


def test_compare_scores_a_players_space_against_the_best_of_its_parts(tmp_path):
    svg = tmp_path / "best.svg"
    result = run("robofacture", "compare", EXAMPLES / "filled-cuts.json", "--json", "--workers", "1", "--svg", svg)
    report = json.loads(result.stdout)
    assert result.exit_code == 0 and report["yours"]["score"] == 13
    assert report["best"]["status"] == "OPTIMAL" and report["best"]["shipment"]["score"] == 14   # no cut needed
    assert report["share"] == round(13 / 14, 4) and svg.read_text().startswith("<svg")
    shown = run("robofacture", "compare", EXAMPLES / "illegal-touching-and-overlap.json", "--workers", "1")
    assert shown.exit_code == 1 and "overlap" in shown.stdout and "the best of the same parts" in shown.stdout
    assert "[1, 1]" in shown.stdout and "[1,1]" not in shown.stdout   # cells as every other command prints them
    # a legal space that ships nothing has 0 % of the best (QA pass 39: no share, `"share": null`)
    empty = run("robofacture", "compare", EXAMPLES / "parts-4x4.json", "--workers", "1", "--json")
    assert empty.exit_code == 0 and json.loads(empty.stdout)["share"] == 0.0
    shown = run("robofacture", "compare", EXAMPLES / "parts-4x4.json", "--workers", "1")
    assert "yours ships nothing of the best 15: 0%" in shown.stdout
    # a best of 0 VP or less takes no share, and the line compares the two in VP (QA pass 47: no line at all)
    at_a_loss = tmp_path / "loss.json"
    at_a_loss.write_text(json.dumps({
        "ruleset": "robofacture", "space": {"rows": 2, "cols": 4, "player": "green", "premarked": [[1, 1], [0, 2], [0, 1]]},
        "parts": [{"kind": "S4", "colors": ["yellow", "white"]}, {"kind": "I3", "colors": ["yellow", "green"]}],
        "placed": [{"cell": [0, 1], "rotation": 0, "flip": True, "part": 0}]}))
    shown = run("robofacture", "compare", at_a_loss, "--workers", "1")
    assert shown.exit_code == 0 and shown.stdout.strip().splitlines()[-1] == (
        "yours ships -1 VP of the best -1 (no share of a best of -1 VP); yours is as good as the best")
    assert json.loads(run("robofacture", "compare", at_a_loss, "--workers", "1", "--json").stdout)["share"] is None
    # a space that ships nothing has no score to be "as good as" a best of 0 VP or less (QA pass 52)
    nothing = tmp_path / "nothing.json"
    nothing.write_text(json.dumps({
        "ruleset": "robofacture", "space": {"rows": 2, "cols": 4, "player": "green", "premarked": [[0, 1]]},
        "parts": [{"kind": "S4", "colors": ["yellow", "white"]}], "placed": []}))
    shown = run("robofacture", "compare", nothing, "--workers", "1")
    assert shown.stdout.strip().splitlines()[-1] == "yours ships nothing of the best -1 (no share of a best of -1 VP)"
    # parts no placement can ship: said so, proved (QA pass 41: "not proved: bound None" over an empty drawing)
    none = tmp_path / "none.json"
    none.write_text(json.dumps({"ruleset": "robofacture", "space": {"rows": 3, "cols": 3, "player": "red",
                                "premarked": []}, "parts": [{"kind": "mono", "colors": ["green"]}], "placed": []}))
    shown = run("robofacture", "compare", none, "--workers", "1")
    assert shown.exit_code == 0 and "no placement of the same parts can ship (proved" in shown.stdout
    assert "None" not in shown.stdout


def test_a_stop_while_the_space_is_modelled_answers_unknown_as_before_any_placement(monkeypatch):
    """QA: a stop in the seconds a big space takes to model said "interrupted" and exited 130, and a second
    signal then killed it; a stop before any placement answers UNKNOWN (exit 1), as in the search."""
    import signal

    import solver.robofacture as robofacture
    from models.robofacture.puzzle import load_puzzle

    real_build = robofacture._build

    def stopped_while_building(*args):
        signal.raise_signal(signal.SIGINT)
        return real_build(*args)
    monkeypatch.setattr(robofacture, "_build", stopped_while_building)
    result = robofacture.solve_parts(load_puzzle(EXAMPLES / "parts-4x4.json"), 10, 1)
    assert result.status == "UNKNOWN" and result.interrupted and result.shipment is None
    assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN   # (a second stop while it answers: ignored)


def test_the_time_limit_stops_the_modelling_of_a_big_space():
    """QA: `robofacture compare` on a 12 x 12 space with 30 parts ended 1.5 s into a 1 s limit: the space takes
    about 2 s to model, and the clock was read only once it was built. The modelling now stops on time."""
    import random

    import solver.robofacture as robofacture
    from solver.robofacture_generate import draw

    big = draw(random.Random(1), 12, 12, 30, 1, 1)
    result = robofacture.solve_parts(big, time_limit=0.3, workers=1)
    assert result.status == "UNKNOWN" and not result.interrupted and result.seconds < 1.0
    calls = []

    def counted() -> None:
        calls.append(1)
    robofacture._build(big, robofacture.placed_parts_verdict(big), False, counted)
    assert len(calls) > 1000   # (each row of a part's candidates, each candidate, each rectangle shipped)


def test_a_draw_whose_uniqueness_was_never_settled_is_not_called_not_unique():
    """QA: "its best answer is not the only one" where the time ran out before the question was settled."""
    from types import SimpleNamespace

    from solver.robofacture_generate import _why_dropped

    settled = SimpleNamespace(status="OPTIMAL", unique=False, puzzle=SimpleNamespace(placed=(1, 2, 3)))
    assert _why_dropped(settled) == "its best answer is not the only one"
    assert _why_dropped(SimpleNamespace(**{**vars(settled), "unique": None})).startswith("the time ran out")
    one_part = SimpleNamespace(status="OPTIMAL", unique=True, puzzle=SimpleNamespace(placed=(1,)))
    assert _why_dropped(one_part) == "its best answer places 1 part, fewer than 2"   # (QA pass 39: "1 parts")


def test_compare_takes_the_players_space_where_the_search_found_less():
    """QA pass 52: a 12 x 12 space's search, cut short, found a placement of -1 (or none) where the player's own
    legal space ships 15: it was called "the best" (or no comparison was made). The player's space is a
    placement of the same parts, so it is the best the command knows, proved where it meets the bound."""
    from solver.robofacture import RobofactureResult
    from solver.robofacture_command import _at_least_yours

    puzzle = parse_puzzle(json.loads((EXAMPLES / "filled-cuts.json").read_text()), "filled-cuts.json")
    yours = best_shipment(check(puzzle).filling.colours)
    assert yours is not None and yours.score == 13
    found_less = RobofactureResult("FEASIBLE", puzzle.with_placed(()), None, 15, 1.0)
    taken, is_yours = _at_least_yours(found_less, puzzle, yours)
    assert (taken.status, taken.shipment, taken.puzzle, taken.bound, is_yours) == ("FEASIBLE", yours, puzzle, 15, True)
    taken, is_yours = _at_least_yours(RobofactureResult("UNKNOWN", puzzle, None, None, 1.0), puzzle, yours)
    assert (taken.status, taken.shipment, is_yours) == ("FEASIBLE", yours, True)
    # never proved by the search's bound, which is on the score alone (QA pass 53: a best is proved on its RG too)
    assert _at_least_yours(RobofactureResult("FEASIBLE", puzzle, None, 13, 1.0), puzzle, yours)[0].status == "FEASIBLE"
    searched = solve_parts(puzzle.with_placed(()), 20.0, workers=1)
    assert _at_least_yours(searched, puzzle, yours) == (searched, False)   # (the search's 14 stands)


@pytest.mark.parametrize("mine, top, share, proved, line", [
    (13, 14, 13 / 14, True, "yours ships 13 VP of the best 14: 93%"),
    (14, 14, 1.0, True, "yours ships 14 VP of the best 14: 100%; yours is as good as the best"),
    (14, 14, 1.0, False, "yours ships 14 VP of the best 14: 100%"),   # (an unproved best: no verdict)
    (-1, -1, None, True, "yours ships -1 VP of the best -1 (no share of a best of -1 VP); yours is as good as the best"),
    (None, 0, None, True, "yours ships nothing of the best 0 (no share of a best of 0 VP)"),
    (-3, 6, -0.5, True, "yours ships -3 VP of the best 6: -50%"),
])
def test_the_comparison_line_says_as_good_only_of_a_proved_best_the_player_meets(mine, top, share, proved, line):
    """QA passes 47, 52, 53: "as good as the best" only where the best is proved and the player's space ships at
    least as much; a space that ships nothing is never as good, even as a best of 0 VP."""
    from solver.robofacture_command import _comparison

    assert _comparison(mine, top, share, proved) == line


def test_compare_says_when_its_search_found_nothing_in_time(tmp_path):
    """QA pass 53: a 12 x 12 space of 30 parts, searched for 0.1 s (it takes over a second to model), drew an
    empty space as "the best", and `--svg` wrote nothing and said nothing."""
    parts = PARTS_OF_A_BIG_SPACE
    space = tmp_path / "big.json"
    space.write_text(json.dumps({"ruleset": "robofacture",
                                 "space": {"rows": 12, "cols": 12, "player": "red", "premarked": [[5, 5]]},
                                 "parts": parts, "placed": [{"part": 7, "cell": [3, 4], "rotation": 0, "flip": True}]}))
    picture = tmp_path / "best.svg"
    shown = run("robofacture", "compare", space, "--workers", "1", "--time-limit", "0.1", "--svg", picture)
    assert shown.exit_code == 0 and not picture.exists()
    assert "the search found no placement of the same parts that ships in" in shown.stdout
    assert "(UNKNOWN)" in shown.stdout and "the best of the same parts" not in shown.stdout
    assert f"no answer to draw (UNKNOWN): {picture} not written" in shown.stderr


#: the parts of a 12 x 12 space (QA pass 53's), drawn at random from every kind
PARTS_OF_A_BIG_SPACE = [{'colors': ['white', 'blue'], 'kind': 'L5'}, {'colors': ['white', 'green'], 'kind': 'M5'},
                        {'colors': ['white', 'red'], 'kind': 'T4'}, {'colors': ['yellow', 'blue'], 'kind': 'L3'},
                        {'colors': ['green', 'white'], 'kind': 'L5'}, {'colors': ['blue', 'white'], 'kind': 'I3'},
                        {'colors': ['white', 'green'], 'kind': 'S4'}, {'colors': ['red', 'blue'], 'kind': 'L4'},
                        {'colors': ['yellow', 'red'], 'kind': 'L4'}, {'colors': ['green', 'white'], 'kind': 'T5'},
                        {'colors': ['green', 'white'], 'kind': 'I3'}, {'colors': ['yellow', 'red'], 'kind': 'S4'},
                        {'colors': ['blue', 'green'], 'kind': 'L4'}, {'colors': ['yellow', 'green'], 'kind': 'L5'},
                        {'colors': ['green', 'white'], 'kind': 'T5'}, {'colors': ['white', 'green'], 'kind': 'M5'},
                        {'colors': ['yellow', 'red'], 'kind': 'L5'}, {'colors': ['white', 'blue'], 'kind': 'T5'},
                        {'colors': ['white', 'red'], 'kind': 'M5'}, {'colors': ['white', 'yellow'], 'kind': 'L5'},
                        {'colors': ['red', 'white'], 'kind': 'T5'}, {'colors': ['green', 'red'], 'kind': 'L3'},
                        {'colors': ['red', 'green'], 'kind': 'M5'}, {'colors': ['red', 'yellow'], 'kind': 'S4'},
                        {'colors': ['green', 'red'], 'kind': 'I3'}, {'colors': ['white', 'red'], 'kind': 'L4'},
                        {'colors': ['white', 'yellow'], 'kind': 'I3'}, {'colors': ['white', 'blue'], 'kind': 'T5'},
                        {'colors': ['yellow', 'red'], 'kind': 'L4'}, {'colors': ['red', 'white'], 'kind': 'T4'}]
