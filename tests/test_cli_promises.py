"""What the README and `--help` promise a reader or a script of each command: keys, files written, defaults,
exit codes and counted words. QA pass 58 (mutation testing of the command layer) found each of these unpinned:
a mutant breaking it lived through every other test."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from models.paths import EXAMPLES_DIR

DATA = Path(__file__).resolve().parent / "data"
STRAY_RING = str(EXAMPLES_DIR / "illegal-stray-tile-pipe-ring.json")
GAME = str(EXAMPLES_DIR / "rulebook-game.json")
PLAYED = str(DATA / "analysis-played.json")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_score_json_says_whether_the_layout_is_legal():
    assert json.loads(run("score", STRAY_RING, "--json").stdout)["legal"] is False
    assert json.loads(run("score", str(EXAMPLES_DIR / "legal-crossing.json"), "--json").stdout)["legal"] is True


def test_check_quiet_draws_nothing():
    quiet, drawn = run("check", STRAY_RING, "--quiet").stdout, run("check", STRAY_RING).stdout
    assert "Legend" in drawn and "Legend" not in quiet and len(quiet.splitlines()) < 12


def test_the_svg_of_an_illegal_games_final_layout_says_so(tmp_path):
    game = json.loads(Path(GAME).read_text())
    game["rounds"][-1]["layout"]["tiles"].append({"kind": "pipe", "cell": [0, 4], "sides": ["W", "E"]})
    path, svg = tmp_path / "stray-game.json", tmp_path / "final.svg"
    path.write_text(json.dumps(game))
    run("replay", path, "--no-show", "--svg", svg)
    assert "final score 22 (illegal game)" in svg.read_text()


def test_a_sequence_deals_three_players_unless_told_and_solo_takes_no_other_count(tmp_path):
    dealt = json.loads(run("sequence", "random", "--seed", "1").stdout)
    assert all(len(r["offered"]) == 3 for r in dealt["rounds"])
    refused = CliRunner().invoke(main, ["sequence", "random", "--solo", "--players", "2"])
    assert refused.exit_code == 2 and "--solo offers one machine a round; --players 2 offers 2" in refused.stderr
    out = tmp_path / "s.json"
    written = run("sequence", "random", "--seed", "1", "--out", out)
    assert written.stdout == "" and json.loads(out.read_text()) == dealt   # written, not printed too


def _interrupted_plans(monkeypatch):
    """plan_game as it is, its answer marked stopped by Ctrl-C."""
    import solver.plan

    real = solver.plan.plan_game
    monkeypatch.setattr(solver.plan, "plan_game",
                        lambda *a, **kw: dataclasses.replace(real(*a, **kw), interrupted=True))


def test_plan_json_writes_its_out_file_and_says_when_it_was_interrupted(tmp_path, monkeypatch):
    out = tmp_path / "plan.json"
    done = run("plan", GAME, "--json", "--out", out, "--workers", "1", "--time-limit", "5")
    assert json.loads(out.read_text())["result"] == json.loads(done.stdout)["result"]
    assert "interrupted" not in done.stderr
    _interrupted_plans(monkeypatch)
    stopped = run("plan", GAME, "--json", "--workers", "1", "--time-limit", "5")
    assert "interrupted: the plan is the best found so far" in " ".join(stopped.stderr.split())


def test_analyze_writes_the_plan_it_computed_and_says_on_its_page_when_it_was_interrupted(tmp_path, monkeypatch):
    plan_out, page = tmp_path / "plan.json", tmp_path / "report.html"
    run("analyze", PLAYED, "--plan-out", plan_out, "--workers", "1", "--time-limit", "5")
    assert json.loads(plan_out.read_text())["rounds"]
    _interrupted_plans(monkeypatch)
    run("analyze", PLAYED, "--out", page, "--workers", "1", "--time-limit", "5")
    assert "Interrupted: the plan compared against is the best found so far." in page.read_text()


def test_analyze_with_a_plan_file_shows_its_result_as_the_files_claim():
    shown = run("analyze", PLAYED, "--plan", DATA / "analysis-best.json").stdout
    assert "OPTIMAL (as the plan file says: not proved here)" in " ".join(shown.split())


def test_an_option_given_twice_and_no_arguments_at_all():
    twice = CliRunner().invoke(main, ["solve", "--board", "classic-A", "--machines", "FF39", "--machines", "FF08"])
    assert twice.exit_code == 2 and "given twice: give each option once (it takes a list: FF39,FF08)" in twice.stderr
    bare = CliRunner().invoke(main, [])
    assert bare.stdout.startswith("Usage: ") or bare.stderr.startswith("Usage: ")   # the help, not an error
    assert "error:" not in bare.output


def test_solve_counts_its_machines_and_workers_and_uses_two_workers_unless_told():
    said = run("solve", "--board", "classic-A", "--machines", "FF39", "--time-limit", "5").stderr
    assert "solving 1 machine on board classic-A" in said and "2 workers" in said
    one = run("solve", "--board", "classic-A", "--machines", "FF39,FF08", "--workers", "1", "--time-limit", "5").stderr
    assert "solving 2 machines on board classic-A" in one and "1 worker)" in one


def test_solve_exits_1_with_no_layout_so_a_chain_of_commands_stops(tmp_path):
    boards = tmp_path / "tiny.json"
    boards.write_text(json.dumps({"ruleset": "factory-fun",
                                  "boards": [{"id": "t1", "geometry": "square", "rows": 1, "cols": 1}]}))
    result = run("solve", "--boards", boards, "--board", "t1", "--machines", "FF39", "--workers", "1")
    assert result.exit_code == 1 and "INFEASIBLE" in result.stderr + result.stdout


def test_optional_machines_go_with_profit_only():
    refused = CliRunner().invoke(main, ["solve", "--board", "classic-A", "--machines", "FF39", "--objective", "cost",
                                        "--optional"])
    assert refused.exit_code == 2 and "--optional goes with --objective profit" in refused.stderr


@pytest.mark.parametrize("number, said", [(0, "0 violations"), (1, "1 violation"), (2, "2 violations")])
def test_counted_words(number, said):
    from models.wording import counted
    assert counted(number, "violation") == said


def test_violations_are_counted_with_their_rules_as_check_counts_them():
    from types import SimpleNamespace

    from models.wording import violations_of_rules

    def of(*rules):
        return [SimpleNamespace(rule=rule) for rule in rules]
    assert violations_of_rules(of("a")) == "1 violation"
    assert violations_of_rules(of("a", "b")) == "2 violations of 2 rules"
    assert violations_of_rules(of("a", "a", "b")) == "3 violations of 2 rules"


def test_tables_keep_their_padding_from_100_columns():
    from models.terminal import NARROW_WIDTH, cell_padding
    assert NARROW_WIDTH == 100 and cell_padding(100) != cell_padding(99)
