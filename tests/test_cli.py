"""The command line: exit codes, --json documents and one-line errors."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from models.board import load_boards
from models.catalog import load_catalog
from models.paths import EXAMPLES_DIR, MACHINES_DIR
from models.rulesets import get_ruleset

ROUND2 = str(EXAMPLES_DIR / "rulebook-round2.json")
GAME = str(EXAMPLES_DIR / "rulebook-game.json")
TEST_DATA = Path(__file__).parent / "data"


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_check_legal_layout_json():
    result = run("check", ROUND2, "--json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document == {"legal": True, "violations": [],
                        "score": {"income": 17, "cost": 5, "chain_bonus": 10, "total": 22}}


def test_check_illegal_layout_exits_1(tmp_path):
    layout = json.loads(open(ROUND2).read())
    layout["tiles"] = [t for t in layout["tiles"] if t["kind"] != "output"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(layout))
    result = run("check", str(path), "--json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["legal"] is False
    assert [v["rule"] for v in document["violations"]] == ["loose-end", "output-unused"]
    assert document["violations"][0]["cells"] == [[5, 5]]
    assert document["violations"][0]["machines"] == ["FF08"]


@pytest.mark.parametrize("mutate,needle", [
    (lambda d: d.update(colour="red"), "colour: unknown key"),
    (lambda d: d["machines"][0].update(id="FF77"), "machines[0].id: unknown machine id \"FF77\""),
    (lambda d: d["machines"][0].update(rotation=45), "machines[0].rotation: bad rotation 45 (allowed: 0, 90, 180, 270)"),
    # QA pass 52: nor did a rotation of the wrong type
    (lambda d: d["machines"][0].update(rotation=90.0), "machines[0].rotation: expected a rotation (0, 90, 180, 270), got 90.0"),
    # QA pass 48: the diagonal tile's bad rotation named no allowed value
    (lambda d: d["tiles"].append({"kind": "diagonal", "cell": [0, 0], "rotation": 45}),
     "tiles[5].rotation: bad rotation 45 (allowed: 0, 90, 180, 270) (cell [0, 0])"),
    (lambda d: d["tiles"].append({"kind": "output", "cell": [3, 4]}), "tiles[5]: output reservoir is on a pillar cell (cell [3, 4])"),
    (lambda d: d["tiles"].append({"kind": "output", "cell": [5, 3]}), "tiles[5]: output reservoir overlaps machine FF39 (cell [5, 3])"),
    (lambda d: d["tiles"].append({"kind": "end", "cell": [4, 2]}), "tiles[5]: end-product reservoir overlaps a supply container (cell [4, 2])"),
    (lambda d: d["tiles"].append({"kind": "pipe", "cell": [9, 9], "sides": ["N", "S"]}), "tiles[5]: pipe is off the board (cell [9, 9])"),
])
def test_unreadable_layouts_give_one_line_and_exit_2(tmp_path, mutate, needle):
    layout = json.loads(open(ROUND2).read())
    mutate(layout)
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(layout))
    result = run("check", str(path))
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and needle in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_missing_and_broken_files(tmp_path):
    result = run("check", str(tmp_path / "nope.json"))
    assert result.exit_code == 2 and "file not found" in result.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    result = run("score", str(broken))
    assert result.exit_code == 2 and "invalid JSON at line 1" in result.stderr


def test_score_json_has_parts():
    document = json.loads(run("score", ROUND2, "--json").stdout)
    assert document["cost_by_kind"] == {"supply": 2, "pipe": 2, "output": 1}
    assert document["chain_inputs"] == [{"machine": "FF08", "at": "W", "color": "orange", "amount": 2, "bonus": 10,
                                         "side": "W"}]
    assert document["total"] == 22


def test_replay_json_result(tmp_path):
    out = tmp_path / "replayed.json"
    result = run("replay", GAME, "--json", "--out", str(out))
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["result"]["final_score"] == 23
    assert [r["money"] for r in document["result"]["rounds"]] == [8, 13]
    assert json.loads(out.read_text()) == document
    # the written game reads back and replays to the same score
    again = json.loads(run("replay", str(out), "--json").stdout)
    assert again["result"] == document["result"]


def test_catalog_json_is_a_catalogue_file_that_reads_back(tmp_path):
    document = json.loads(run("catalog", "--json").stdout)
    assert len(document["machines"]) == 55 and document["machines"][0]["id"] == "FF01"
    path = tmp_path / "machines.json"
    path.write_text(json.dumps(document))
    rules = get_ruleset("factory-fun")
    assert load_catalog(rules, path).machines == load_catalog(rules).machines
    assert run("check", "--catalog", str(path), ROUND2).exit_code == 0


@pytest.mark.parametrize("ruleset, size", [("factory-fun", 10), ("factory-funner", 1)])
def test_boards_json_is_a_boards_file_that_reads_back(tmp_path, ruleset, size):
    document = json.loads(run("boards", "--ruleset", ruleset, "--json").stdout)
    path = tmp_path / "boards.json"
    path.write_text(json.dumps(document))
    rules = get_ruleset(ruleset)
    again = load_boards(rules, path)
    assert len(again) == size and again == load_boards(rules)
    if ruleset == "factory-fun":
        assert [len(b.cells) for b in again.values()] == [77] * 10 and document["boards"][0]["rows"] == 9
        assert run("check", "--boards", str(path), ROUND2).exit_code == 0


def test_boards_lists_a_boards_own_size_wherever_its_cells_lie(tmp_path):
    """QA pass 38: a hex board of cells q 33-38, r 34-38 was listed "39x39", its extent counted from 0, 0."""
    far = {"id": "far", "geometry": "hex", "cells": [[q, r] for q in range(33, 39) for r in range(34, 39)]}
    path = tmp_path / "boards.json"
    path.write_text(json.dumps({"ruleset": "factory-funner", "boards": [far]}))
    row = next(line for line in run("boards", "--ruleset", "factory-funner", "--boards", str(path)).stdout.splitlines()
               if "far" in line)
    assert row.split("│")[3].strip() == "5x6"   # 5 rows (r 34-38) of 6 (q 33-38)


def test_boards_svg_without_a_board_is_refused_not_ignored(tmp_path):
    """QA: `boards --svg x.svg` printed the list, exit 0, and wrote nothing, with nothing said."""
    drawn = tmp_path / "x.svg"
    result = run("boards", "--svg", str(drawn))
    assert result.exit_code == 2 and "--svg draws one board" in result.output and not drawn.exists()
    assert run("boards", "classic-A", "--svg", str(drawn)).exit_code == 0 and "<svg" in drawn.read_text()
    # with --json too (QA pass 39: the JSON was printed and the SVG dropped without a word)
    with_json = tmp_path / "j.svg"
    result = run("boards", "classic-B", "--json", "--svg", str(with_json))
    assert result.exit_code == 0 and '"classic-B"' in result.output and "<svg" in with_json.read_text()


def test_unknown_board_is_a_usage_error():
    result = run("boards", "classic-Z")
    assert result.exit_code == 2 and "unknown board \"classic-Z\"" in result.output


def test_sequence_random_is_reproducible_and_dealt_per_player():
    first = json.loads(run("sequence", "random", "--seed", "7", "--players", "3").stdout)
    second = json.loads(run("sequence", "random", "--seed", "7", "--players", "3").stdout)
    assert first == second
    assert len(first["rounds"]) == 10 and all(len(r["offered"]) == 3 for r in first["rounds"])
    assert len({m for r in first["rounds"] for m in r["offered"]}) == 30
    solo = json.loads(run("sequence", "random", "--seed", "7", "--solo").stdout)
    assert all(len(r["offered"]) == 1 for r in solo["rounds"])
    assert solo == json.loads(run("sequence", "random", "--seed", "7", "--solo", "--players", "1").stdout)


def test_a_deal_does_not_hang_on_the_order_a_catalogue_lists_its_machines():
    """A seed deals the same machines from a catalogue listed in another order (QA pass 57: a mutant that shuffled
    the catalogue's own order lived)."""
    from models.catalog import catalog_document, load_catalog, parse_catalog
    from models.rulesets import get_ruleset
    from models.sequence import random_sequence

    ruleset = get_ruleset("factory-fun")
    catalog = load_catalog(ruleset)
    document = catalog_document(catalog)
    document["machines"].reverse()
    reversed_catalog = parse_catalog(document, ruleset, "reversed.json")
    assert list(reversed_catalog.machines) != list(catalog.machines)
    assert random_sequence(ruleset, reversed_catalog, "classic-A", 1, solo=True) == random_sequence(
        ruleset, catalog, "classic-A", 1, solo=True)


def test_two_players_need_a_whole_games_deal_whatever_the_rounds_asked():
    """QA pass 57: a mutant that checked the whole game's deal only from three players lived."""
    from models.catalog import catalog_document, load_catalog, parse_catalog
    from models.rulesets import get_ruleset
    from models.sequence import random_sequence

    ruleset = get_ruleset("factory-fun")
    document = catalog_document(load_catalog(ruleset))
    document["machines"] = document["machines"][:19]   # two players of 10 rounds need 20
    small = parse_catalog(document, ruleset, "small.json")
    with pytest.raises(ValueError, match=r"10 rounds \(a whole game's\) x 2 offers need 20 machines"):
        random_sequence(ruleset, small, "classic-A", 1, players=2, rounds=1)
    assert len(random_sequence(ruleset, small, "classic-A", 1, rounds=1, solo=True)["rounds"]) == 1


def test_sequence_random_takes_the_board_of_its_ruleset():
    assert json.loads(run("sequence", "random", "--seed", "1").stdout)["board"] == "classic-A"
    funner = run("sequence", "random", "--ruleset", "factory-funner", "--solo", "--seed", "1")
    assert funner.exit_code == 0, funner.output
    assert json.loads(funner.stdout)["board"] == "A"


def test_show_json_is_the_layout_with_its_score(tmp_path):
    svg = tmp_path / "r2.svg"
    result = run("show", ROUND2, "--json", "--svg", str(svg))
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["machines"] == json.loads(open(ROUND2).read())["machines"]
    assert document["result"] == {"legal": True, "income": 17, "cost": 5, "chain_bonus": 10, "total": 22}
    assert svg.read_text().lstrip().startswith("<?xml")


def test_the_svg_of_an_illegal_layout_names_the_rules_its_outlines_break(tmp_path):
    """QA: the picture outlined the cells of each violation and named no rule."""
    layout = json.loads(open(ROUND2).read())
    layout["tiles"].append({"kind": "end", "cell": [0, 0]})
    path, svg = tmp_path / "stray.json", tmp_path / "stray.svg"
    path.write_text(json.dumps(layout))
    assert run("show", str(path), "--svg", str(svg)).exit_code == 0
    assert "illegal (1 violation outlined: stray-tile)" in svg.read_text()


def test_first_edition_without_catalogue_says_pass_one(tmp_path):
    """factory-fun-2006 ships no machines (its tiles are not transcribed): a one-line error, exit 2."""
    result = run("sequence", "random", "--ruleset", "factory-fun-2006", "--seed", "1")
    assert result.exit_code == 2
    assert "factory-fun-2006" in result.output and "--catalog FILE" in result.output


def test_first_edition_with_a_users_catalogue(tmp_path):
    """The same ruleset works from a user's catalogue (2nd-edition machines recoloured to 1st-edition colours)."""
    text = (MACHINES_DIR / "factory-fun.json").read_text()
    text = text.replace('"green"', '"yellow"').replace('"orange"', '"brown"')
    catalogue = json.loads(text)
    catalogue["ruleset"] = "factory-fun-2006"
    path = tmp_path / "first-edition.json"
    path.write_text(json.dumps(catalogue))
    result = run("sequence", "random", "--ruleset", "factory-fun-2006", "--catalog", str(path), "--seed", "1",
                 "--solo", "--rounds", "2")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["ruleset"] == "factory-fun-2006" and len(document["rounds"]) == 2


def test_a_layout_or_plan_for_another_ruleset_is_named_before_its_catalogue_is_read(tmp_path):
    """QA: a first-edition --fixed layout on a Funner solve asked for a first-edition catalogue, and a Funner
    plan beside a first-edition game blamed the game's catalogue; neither named the file that did not match."""
    first = tmp_path / "first.json"
    first.write_text(json.dumps({"ruleset": "factory-fun-2006", "board": "classic-A", "machines": [], "tiles": []}))
    for option in ("--fixed", "--hint"):
        result = run("solve", "--ruleset", "factory-funner", "--board", "A", "--machines", "FN05,FN27", option,
                     str(first), "--time-limit", "1", "--workers", "1")
        assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
        what = option.removeprefix("--")
        assert f"{first}: ruleset: the {what} layout is for factory-fun-2006/classic-A, not factory-funner/A" in result.output
    bare = tmp_path / "bare.json"   # a round's layout copied out of a plan: no ruleset, no board
    bare.write_text(json.dumps({"machines": [], "tiles": []}))
    result = run("solve", "--board", "classic-A", "--machines", "FF25,FF12", "--fixed", str(bare), "--time-limit", "1")
    assert result.exit_code == 2 and f"{bare}: board: missing key" in result.output   # (not "is for None/None")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"ruleset": "factory-funner", "board": "A", "rounds": [{"offered": ["FN05"]}]}))
    result = run("analyze", str(EXAMPLES_DIR / "rulebook-game.json"), "--plan", str(plan))
    assert result.exit_code == 2 and f"{plan}: ruleset: the plan is for factory-funner, not factory-fun" in result.output


def test_plan_goes_on_from_a_played_game_or_an_earlier_plan_but_not_from_a_bare_sequence(monkeypatch, tmp_path):
    """A game with its rounds played is handed to the planner as where to start (plan_game's `known`)."""
    import solver.plan

    handed = []

    def planner(game, *args, known=None, **kwargs):
        handed.append(known)
        raise SystemExit(0)   # (what it would answer is not the question)

    monkeypatch.setattr(solver.plan, "plan_game", planner)
    game = EXAMPLES_DIR / "rulebook-game.json"
    run("plan", str(game), "--time-limit", "1")
    sequence = tmp_path / "sequence.json"
    document = json.loads(game.read_text())
    document["rounds"] = [{"offered": r["offered"]} for r in document["rounds"]]
    sequence.write_text(json.dumps(document))
    run("plan", str(sequence), "--time-limit", "1")
    assert handed[0] is not None and [r.taken for r in handed[0].rounds] == ["FF39", "FF08"] and handed[1] is None


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["catalog"], ["sequence", "random"], ["check", str(EXAMPLES_DIR / "rulebook-round2.json"), "--json"]])
def test_standard_output_that_cannot_be_written_is_one_line(args):
    # QA: `factoryfun catalog > /dev/full` ended in a traceback
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-c", "from cli import main; main()", *args], stdout=full,
                              stderr=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == ["error: standard output: cannot write: No space left on device"]


def test_analyze_needs_a_played_game_not_a_sequence(tmp_path):
    """A bare sequence (nothing taken in any round) was analysed as a game that took nothing: "your score 2"."""
    sequence = tmp_path / "sequence.json"
    sequence.write_text(json.dumps({"ruleset": "factory-fun", "board": "classic-A",
                                    "rounds": [{"offered": ["FF39"]}, {"offered": ["FF08"]}]}))
    result = run("analyze", str(sequence), "--time-limit", "2", "--workers", "1")
    assert result.exit_code == 2
    assert f"{sequence}: rounds: not a played game: no round says what was taken" in result.output


def test_analyze_reads_a_plan_file_given_with_plan():
    """QA: a check meant for layouts refused every `--plan` document ("a game document (rounds), not a layout")."""
    game = str(EXAMPLES_DIR / "rulebook-game.json")
    result = run("analyze", game, "--plan", game, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["best_score"] == 23


def test_replay_needs_a_played_game_not_a_sequence(tmp_path):
    """QA: `replay` scored a bare sequence as a game taking nothing ("final score 2"), where `analyze` refused it."""
    sequence = tmp_path / "sequence.json"
    sequence.write_text(json.dumps({"ruleset": "factory-fun", "board": "classic-A",
                                    "rounds": [{"offered": ["FF39"]}, {"offered": ["FF08"], "last_pick": True}]}))
    result = run("replay", str(sequence))
    assert result.exit_code == 2
    assert f"{sequence}: rounds: not a played game: no round says what was taken" in result.output


def test_replay_says_which_rounds_say_nothing_of_what_was_taken(tmp_path):
    """QA: a half-played game's last rounds (`offered` only) were scored as taking nothing without a word."""
    game = json.loads(Path(GAME).read_text())
    game["rounds"].append({"offered": ["FF03"]})
    half = tmp_path / "half.json"
    half.write_text(json.dumps(game))
    result = run("replay", str(half), "--no-show")
    said = " ".join(result.output.split())   # (the terminal wraps the line)
    assert f"round {len(game['rounds'])} of {half} says nothing of what was taken: scored as taking nothing" in said
    assert "says nothing" not in run("replay", GAME, "--no-show").output


def test_a_stopped_solve_says_so_in_its_document():
    """QA: a `--json` document from a solve Ctrl-C stopped read like one that ran to its limit."""
    from dataclasses import replace

    from solver.command import result_document
    from solver.static import solve_static
    from models.board import load_boards
    from models.catalog import load_catalog
    from models.rulesets import get_ruleset

    ruleset = get_ruleset("factory-fun")
    done = solve_static(ruleset, load_boards(ruleset)["classic-A"], load_catalog(ruleset), ["FF09"], time_limit=5,
                        workers=1)
    assert "interrupted" not in result_document(done)["result"]
    assert result_document(replace(done, stop_signal=2))["result"]["interrupted"] is True


def test_score_names_the_board_side_of_a_turned_machines_chained_input():
    """QA: `score` named only the printed side ("FF29 W") of a turned machine, where `check` names both."""
    assert "chain: FF08 W (orange 2 x 5)" in run("score", ROUND2).stdout   # unturned: the printed side only
    merge = str(EXAMPLES_DIR / "legal-merge-1-and-1-to-2.json")     # FF29 turned: its W input faces N
    assert "chain: FF29 W on side N (green 2 x 5)" in run("score", merge).stdout


def test_score_names_each_cost_as_the_game_names_its_tiles(tmp_path):
    """QA pass 54: `score` said "cost: supply" where the legend says "supply container" (a "supply tank" on hexes)."""
    square = run("score", ROUND2).stdout
    assert "cost: supply containers" in square and "cost: output reservoirs" in square
    game = json.loads((TEST_DATA / "analysis-funner-plan.json").read_text())
    hexes = tmp_path / "funner.json"
    hexes.write_text(json.dumps({"ruleset": game["ruleset"], "board": game["board"], **game["rounds"][-1]["layout"]}))
    funner = run("score", str(hexes)).stdout
    assert "cost: supply tanks" in funner and "cost: white tanks" in funner and "container" not in funner
    assert "x 3)" in funner and "x 5)" not in funner   # Funner's chain bonus is 3 a point


def test_catalog_says_what_port_positions_and_the_bonus_column_mean():
    """QA pass 54: the `bonus` column had no footnote and stood empty on Funner, and "Na" was nowhere explained."""
    square = run("catalog").stdout
    assert "Na / Nb and Sa / Sb" in square and "bonus: the colour of the extra supply container" in square
    assert "│ FF16 " in square and " any " in square.split("│ FF16 ")[1].splitlines()[0]
    funner = run("catalog", "--ruleset", "factory-funner").stdout
    assert "the side of the printed hex" in funner and "bonus" not in funner and "Na / Nb" not in funner


def test_check_says_how_a_turned_machines_port_is_named(tmp_path):
    """QA pass 54: "FF29 input ... at W on side N" with no legend saying that W is the printed side, N the board's."""
    lone = tmp_path / "lone.json"
    lone.write_text(json.dumps({"ruleset": "factory-fun", "board": "classic-A",
                                "machines": [{"id": "FF29", "cell": [4, 4], "rotation": 90}], "tiles": []}))
    turned = run("check", str(lone), "--quiet").stdout
    assert " at W on side N faces" in " ".join(turned.split()) and "where it sits on the printed tile" in " ".join(turned.split())
    assert "printed tile" not in run("check", str(EXAMPLES_DIR / "illegal-loose-end-splitter.json"), "--quiet").stdout


def test_a_games_table_starts_with_the_start_money():
    """QA pass 54: the replay table started at round 1's money, the 2 it started from unsaid."""
    lines = run("replay", GAME, "--no-show").stdout.splitlines()
    start = next(line for line in lines if "start" in line)
    assert start.split("│")[-2].strip() == "2"
    assert lines.index(start) < next(i for i, line in enumerate(lines) if "FF39" in line)


def test_a_bug_is_one_line_with_an_exit_code_of_its_own(monkeypatch):
    """QA pass 55: a crash in `check` was a traceback exiting 1, which a script reads as "illegal"."""
    import models.check

    def broken(layout):
        raise ValueError("side 'N' is not a hex side\n(two lines)")

    monkeypatch.setattr(models.check, "check_layout", broken)
    monkeypatch.delenv("FACTORYFUN_DEBUG", raising=False)
    result = run("check", ROUND2)
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "internal error, a bug in factoryfun (ValueError: side 'N'" in result.stderr
    monkeypatch.setenv("FACTORYFUN_DEBUG", "1")   # the traceback, for the report
    with pytest.raises(ValueError):
        run("check", ROUND2)


def test_replay_and_plan_draw_the_final_layout_as_svg(tmp_path):
    """A game's answer is a picture too (QA: only the terminal drew it; `show` refuses a game document)."""
    game = str(EXAMPLES_DIR / "rulebook-game.json")
    replayed, planned = tmp_path / "r.svg", tmp_path / "p.svg"
    result = CliRunner().invoke(main, ["replay", game, "--svg", str(replayed), "--no-show"])
    assert result.exit_code == 0 and "rulebook-game.json: final score 23" in replayed.read_text()
    result = CliRunner().invoke(main, ["plan", game, "--svg", str(planned), "--no-show", "--time-limit", "20",
                                       "--workers", "1"])
    assert result.exit_code == 0 and "rulebook-game.json: final score 24 (OPTIMAL)" in planned.read_text()
    # the plan's round table is the plan's, not a "replay" (QA), and the lines before the answer name its candidates
    assert "the plan, round by round" in result.output and "replay" not in result.output.split("\n")[0]
    assert "the given game: final score 23 (the search starts from it)" in result.output


@pytest.mark.parametrize("width", [60, 80])
def test_narrow_terminals_show_machine_ids_whole(width):
    """At 60 columns the replay and analysis tables cut every id to "FF…" and at 80 the headings
    ("offe…", "pena…"): ids keep their width, and under 100 columns cells drop their padding (QA)."""
    from io import StringIO

    from rich.console import Console

    from cli import _replay_table
    from models.analysis import analysis_table, compare_games
    from models.game import load_game
    from models.replay import replay_game

    game = load_game(EXAMPLES_DIR / "rulebook-game.json")
    screen = Console(file=StringIO(), width=width, color_system=None)
    screen.print(_replay_table(replay_game(game), width))
    screen.print(analysis_table(compare_games(game, game, 23, "OPTIMAL"), width))
    text = screen.file.getvalue()
    assert "FF…" not in text and text.count("FF39") >= 4
    if width >= 80:
        assert all(heading in text for heading in ("offered", "penalty", "income", "money"))


def test_a_drawing_without_colours_says_so():
    """In a file or under NO_COLOR every network looks alike: the output says the colours are missing (QA)."""
    result = CliRunner().invoke(main, ["show", str(EXAMPLES_DIR / "legal-crossing.json")])
    assert result.exit_code == 0 and "no colours in this output" in result.output


def test_the_replay_table_shows_funner_tokens_apart_from_income_and_cost():
    """QA: a first pick's build of 3 tiles read "cost -4" and FN11's income of 6 "+7", the tokens inside."""
    from cli import _replay_table
    from models.game import load_game
    from models.replay import replay_game

    result = replay_game(load_game(Path(__file__).parent / "data" / "funner-tokens.json"))
    rows = {line.split("│")[1].strip(): [cell.strip() for cell in line.split("│")[2:-1]]
            for line in _table_text(_replay_table(result, 140)).splitlines() if line.startswith("│")}
    # offered, taken, built, income, tiles laid, moves, cost, tokens, penalty, money
    assert rows["2"][3:] == ["+9", "3", "", "-3", "-1 first", "", "9"]
    assert rows["3"][3:] == ["+6", "3", "", "-3", "+1 last", "", "13"]
    assert "tokens" not in _table_text(_replay_table(replay_game(load_game(EXAMPLES_DIR / "rulebook-game.json")), 140))


def test_a_last_pick_not_built_says_why_it_has_no_penalty():
    """QA: the replay table left the penalty blank, where analyze said "no penalty (the last pick)"."""
    from cli import _replay_table
    from models.game import parse_game
    from models.replay import replay_game

    played = json.loads((EXAMPLES_DIR / "rulebook-game.json").read_text())
    played["rounds"][1].pop("layout")
    played["rounds"][1]["last_pick"] = True     # FF08 taken as the last machine left, and not built
    result = replay_game(parse_game(played, "played.json"))
    rows = {line.split("│")[1].strip(): [cell.strip() for cell in line.split("│")[2:-1]]
            for line in _table_text(_replay_table(result, 140)).splitlines() if line.startswith("│")}
    assert rows["2"][2] == "no" and rows["2"][-2] == "0 (last pick)"


def test_a_penalty_the_money_floor_cut_says_so():
    """QA: at money 1 a machine taken and not built showed a blank penalty, where a player expected -5: the
    floor at 1 is named in the replay table and in the analysis's choice."""
    from cli import _replay_table
    from models.analysis import unbuilt
    from models.game import parse_game
    from models.replay import replay_game

    played = json.loads((EXAMPLES_DIR / "rulebook-game.json").read_text())
    played["start_money"] = 1
    played["rounds"] = [{"offered": ["FF39"], "taken": "FF39"}, {"offered": ["FF08"], "taken": "FF08"}]
    result = replay_game(parse_game(played, "played.json"))
    rows = {line.split("│")[1].strip(): [cell.strip() for cell in line.split("│")[2:-1]]
            for line in _table_text(_replay_table(result, 140)).splitlines() if line.startswith("│")}
    assert rows["1"][-2] == rows["2"][-2] == "0 (money at 1)"
    assert unbuilt(result.rounds[0]) == "not built (the penalty stops at money 1)"


def test_a_penalty_after_an_illegal_rebuild_took_money_under_1_does_not_say_money_at_1():
    """QA: round 2 laid three tiles without building its machine, from money 1: "0 (money at 1)" beside money -2."""
    from cli import _replay_table
    from models.analysis import unbuilt
    from models.game import parse_game
    from models.replay import replay_game

    played = json.loads((EXAMPLES_DIR / "rulebook-game.json").read_text())
    played["start_money"] = 1
    laid = played["rounds"][0]["layout"]
    tiles_only = {"machines": [], "tiles": laid["tiles"]}
    played["rounds"] = [{"offered": ["FF39"], "taken": "FF39"},
                        {"offered": ["FF08"], "taken": "FF08", "layout": tiles_only}]
    result = replay_game(parse_game(played, "played.json"))
    assert result.rounds[1].money < 1
    rows = {line.split("│")[1].strip(): [cell.strip() for cell in line.split("│")[2:-1]]
            for line in _table_text(_replay_table(result, 140)).splitlines() if line.startswith("│")}
    assert rows["2"][-2] == "0 (money under 1)"
    assert unbuilt(result.rounds[1]) == "not built (money already under 1)"


def test_a_first_pick_not_built_shows_its_token_apart_from_the_penalty(tmp_path):
    """QA: a first pick taken and not built read "penalty -3" with nothing in the tokens column."""
    from cli import _replay_table
    from models.game import load_game
    from models.replay import replay_game

    document = json.loads((Path(__file__).parent / "data" / "funner-tokens.json").read_text())
    document["rounds"].append({"offered": ["FN01", "FN02", "FN03"], "taken": "FN02", "first_pick": True})
    path = tmp_path / "skip.json"
    path.write_text(json.dumps(document))
    result = replay_game(load_game(path))
    last = result.rounds[-1]
    assert (last.penalty, last.first_pick_fee, last.penalty_alone, last.money) == (3, 1, 2, 10)
    rows = {line.split("│")[1].strip(): [cell.strip() for cell in line.split("│")[2:-1]]
            for line in _table_text(_replay_table(result, 140)).splitlines() if line.startswith("│")}
    assert rows["4"][6:] == ["", "-1 first", "-2", "10"]


def _table_text(table) -> str:
    """A rich table as 140 columns of plain text."""
    from io import StringIO

    from rich.console import Console

    screen = Console(file=StringIO(), width=140, color_system=None)
    screen.print(table)
    return screen.file.getvalue()


def test_a_solves_last_progress_line_is_its_answer():
    """QA: the lines of Funner FN05,FN27 ended "best 10 bound 12" above an OPTIMAL 12: the phase that found 12
    reported nothing."""
    result = run("solve", "--ruleset", "factory-funner", "--board", "A", "--machines", "FN05,FN27",
                 "--workers", "1", "--time-limit", "6", "--json")
    answer = json.loads(result.stdout)["result"]
    lines = [line.split() for line in result.stderr.splitlines() if line.startswith("best ")]
    assert lines and lines[-1][1] == str(answer["objective"]) and lines[-1][3] == str(answer["bound"])


def test_replay_outlines_what_the_final_layout_of_an_illegal_game_breaks(tmp_path):
    """QA: `replay` of a game whose round 2 left a stray pipe outlined nothing, in the terminal or the SVG, where
    `show` outlines the same layout's pipe."""
    from models.render.palette import HIGHLIGHT_MARK

    game = json.loads(open(GAME).read())
    game["rounds"][1]["layout"]["tiles"].append({"kind": "pipe", "cell": [0, 8], "sides": ["N", "S"]})
    path, svg = tmp_path / "stray-game.json", tmp_path / "stray-game.svg"
    path.write_text(json.dumps(game))
    result = run("replay", str(path), "--svg", str(svg))
    assert result.exit_code == 1 and 'class="highlight"' in svg.read_text() and 'data-cell="0,8"' in svg.read_text()
    legend = 3 * HIGHLIGHT_MARK
    assert result.stdout.count(HIGHLIGHT_MARK) > legend.count(HIGHLIGHT_MARK)
    # a legal game outlines nothing
    legal_svg = tmp_path / "legal.svg"
    assert run("replay", GAME, "--svg", str(legal_svg)).exit_code == 0
    assert 'class="highlight"' not in legal_svg.read_text()


def _one_board_file(tmp_path, board: dict) -> str:
    document = json.loads(run("boards", "--json").stdout)
    document["boards"] = [board]
    path = tmp_path / "boards.json"
    path.write_text(json.dumps(document))
    return str(path)


def test_a_board_of_one_cell_has_one_playable_cell(tmp_path):
    """QA: "1 playable cells"."""
    boards = _one_board_file(tmp_path, {"id": "t1", "geometry": "square", "rows": 1, "cols": 1})
    result = run("boards", "--boards", boards, "t1")
    assert result.exit_code == 0 and "t1: 1 playable cell\n" in result.stdout


def test_a_board_wider_than_the_output_keeps_its_lines_whole(tmp_path):
    """QA: a 40 x 40 board piped to `cat` was cut every 120 columns, its column header over three lines."""
    boards = _one_board_file(tmp_path, {"id": "big", "geometry": "square", "rows": 40, "cols": 40,
                                        "blocked": [[39, 39]], "pillars": [[20, 20]]})
    lines = run("boards", "--boards", boards, "big").stdout.splitlines()
    assert any(line.split()[:2] == ["0", "1"] and line.split()[-1] == "39" for line in lines)


def test_score_counts_violations_and_rules_as_check_does(tmp_path):
    """QA pass 54: `score` said "breaks 4 rules" under a layout of 4 violations of 3 rules."""
    layout = {"ruleset": "factory-fun", "board": "classic-A", "tiles": [],
              "machines": [{"id": "FF09", "cell": [4, 4], "rotation": 0}]}
    path = tmp_path / "one.json"
    path.write_text(json.dumps(layout))
    checked = json.loads(run("check", str(path), "--json").stdout)["violations"]
    rules = {v["rule"] for v in checked}
    assert len(checked) > len(rules) > 1
    assert (f"note: the layout has {len(checked)} violations of {len(rules)} rules"
            in run("score", str(path)).stdout)


def test_an_empty_layouts_cost_is_0_not_minus_0(tmp_path):
    """QA pass 54: `score` printed "cost │ -0" for a layout that pays nothing."""
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"ruleset": "factory-fun", "board": "classic-A", "machines": [], "tiles": []}))
    rows = [line for line in run("score", str(path)).stdout.splitlines() if "cost" in line]
    assert rows and all("-0" not in row for row in rows) and any(row.split("│")[2].strip() == "0" for row in rows)
