"""Options shared by every command (models/clickopts.py): one-line usage errors, the same checks everywhere.

None of these runs a search: every bad option is rejected while the command line is read.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from models.paths import EXAMPLES_DIR

ROUND2 = str(EXAMPLES_DIR / "rulebook-round2.json")
GAME = str(EXAMPLES_DIR / "rulebook-game.json")
SOLVE = ["solve", "--board", "classic-A", "--machines", "FF39"]


def one_line_usage_error(args: list[str], *needles: str) -> str:
    """Exit 2 and exactly one line, "error: ...", as every other error is spelled, with no Usage/Try lines."""
    result = CliRunner().invoke(main, args)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert lines[0].startswith("error: ") and all(n in lines[0] for n in needles), lines[0]
    return lines[0]


@pytest.mark.parametrize("args,needle", [
    (["check", "--no-such-option", ROUND2], "No such option"),
    (["no-such-command"], "No such command"),
    (["--no-such-option"], "No such option"),
    (["boards", "classic-Z"], "unknown board \"classic-Z\""),
    (["sequence", "random", "--players", "0"], "--players"),
    (["sequence", "random", "--solo", "--players", "3"], "--solo offers one machine a round; --players 3"),
    (["sequence", "random", "--board", "Z"], "unknown board \"Z\" (known: classic-A, classic-B"),
    (["check"], "Missing argument"),
    (["solve", "--board", "classic-A"], "give the machines"),
    # QA pass 39: dealt as without it, with nothing said
    (["sequence", "random", "--specials"], "'--specials': the Factory Fun catalogue has no special machines"),
    # QA pass 39: it blamed "--pillars 0"
    (["puzzle", "generate", "--rows", "3", "--cols", "3", "--pillars", "0", "--machines", "8"],
     "--machines 8: a 3 x 3 board has no room for 8 machines"),
])
def test_usage_errors_are_one_line(args, needle):
    one_line_usage_error(args, needle)


def test_a_solve_without_machines_offers_ids_of_its_own_catalogue(tmp_path):
    """QA: a 1st-edition catalogue of E01..E48 was told to give "--machines FF40,FF12"."""
    from models.paths import MACHINES_DIR

    document = json.loads((MACHINES_DIR / "factory-fun.json").read_text())
    for machine in document["machines"]:
        machine["id"] = machine["id"].replace("FF", "E")
    (tmp_path / "mine.json").write_text(json.dumps(document))
    one_line_usage_error(["solve", "--board", "classic-A", "--catalog", str(tmp_path / "mine.json")],
                         "give the machines with --machines E01,E02 or --machines-file FILE")


@pytest.mark.parametrize("args,needle", [
    ([*SOLVE, "--out", "same.x", "--svg", "same.x"], "--out and --svg name the same file 'same.x'"),
    (["analyze", GAME, "--out", "r.html", "--plan-out", "./r.html"], "--out and --plan-out name the same file"),
    # QA: --plan-out was ignored without a word when --plan gave the plan
    (["analyze", GAME, "--plan", GAME, "--plan-out", "p.json"], "--plan-out is for the plan analyze computes"),
    # QA: as were the search's options (pass 39)
    (["analyze", GAME, "--plan", GAME, "--time-limit", "5", "--workers", "1", "--seed", "3"],
     "--time-limit, --workers and --seed are for the plan analyze computes; with --plan it computes none"),
    (["analyze", GAME, "--plan", GAME, "--seed", "0"], "--seed is for the plan analyze computes"),
    # QA: an empty file name was no file: nothing written, nothing said (pass 39)
    ([*SOLVE, "--svg", ""], "--svg: an empty file name; name a file"),
    (["sequence", "random", "--out", ""], "--out: an empty file name"),
    (["analyze", GAME, "--plan", ""], "--plan: an empty file name"),
    (["check", ""], "LAYOUT_PATH: an empty file name"),
    (["bench-checker", "--layouts", "3", "--out", ""], "--out: an empty file name"),
])
def test_outputs_that_cannot_all_be_written_are_refused_first(tmp_path, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    one_line_usage_error(args, needle)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args,needle", [
    (["replay", "in.json", "--out", "in.json"], "--out names the file read as GAME_PATH"),
    (["replay", "in.json", "--svg", "./in.json"], "--svg names the file read as GAME_PATH"),
    (["show", "in.json", "--svg", "in.json"], "--svg names the file read as LAYOUT_PATH"),
    (["plan", "in.json", "--out", "in.json"], "--out names the file read as SEQUENCE_PATH"),
    (["analyze", "in.json", "--out", "in.json"], "--out names the file read as GAME_PATH"),
    (["analyze", "other.json", "--plan-out", "in.json", "--catalog", "in.json"], "--plan-out names the file read as --catalog"),
    ([*SOLVE, "--hint", "in.json", "--out", "in.json"], "--out names the file read as --hint"),
    ([*SOLVE, "--fixed", "in.json", "--svg", "in.json"], "--svg names the file read as --fixed"),
    (["sequence", "random", "--boards", "in.json", "--out", "in.json"], "--out names the file read as --boards"),
])
def test_an_output_naming_a_file_the_command_reads_is_refused(tmp_path, monkeypatch, args, needle):
    """QA: `analyze game.json --out game.json` replaced the played game with its report, exit 0."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.json").write_text("{}")
    one_line_usage_error(args, needle, "give another file")
    assert (tmp_path / "in.json").read_text() == "{}" and [p.name for p in tmp_path.iterdir()] == ["in.json"]


def test_an_output_that_is_a_hard_link_of_an_input_is_refused(tmp_path, monkeypatch):
    """QA: `analyze game.json --out report.html`, report.html a hard link of game.json, replaced the game with
    the report: two names of one file are one file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.json").write_text("{}")
    os.link(tmp_path / "in.json", tmp_path / "report.html")
    one_line_usage_error(["analyze", "in.json", "--out", "report.html"], "--out names the file read as GAME_PATH")
    assert (tmp_path / "in.json").read_text() == "{}"


def test_a_fixed_layout_with_the_diagonal_tile_needs_the_option_said_again():
    # QA: the solve ended INFEASIBLE ("is the option on?") over a layout whose options say it is
    fixed = str(EXAMPLES_DIR / "legal-diagonal.json")
    one_line_usage_error([*SOLVE, "--fixed", fixed], f"the --fixed layout {fixed} plays with the diagonal",
                         "give --diagonal too")


def test_no_arguments_still_prints_the_help():
    result = CliRunner().invoke(main, [])
    assert "Usage:" in result.output and "Commands:" in result.output


SEARCHES = [SOLVE, ["plan", GAME], ["analyze", GAME]]


@pytest.mark.parametrize("command", SEARCHES)
@pytest.mark.parametrize("value,needle", [
    ("nan", "not a finite number of seconds"),
    ("inf", "not a finite number of seconds"),
    ("-1", "not in the range x>=0.1"),
    ("0", "not in the range x>=0.1"),
])
def test_time_limits_are_checked_alike(command, value, needle):
    one_line_usage_error([*command, "--time-limit", value], "'--time-limit'", needle)


@pytest.mark.parametrize("command", SEARCHES)
@pytest.mark.parametrize("value", ["0", "-3", "65"])
def test_workers_are_checked_alike(command, value):
    one_line_usage_error([*command, "--workers", value], "'--workers'", "1<=x<=64")


@pytest.mark.parametrize("command", [*SEARCHES, ["sequence", "random"], ["bench-checker"]])
@pytest.mark.parametrize("value", ["100000000000000000000000", "-1"])
def test_seeds_fit_cp_sat(command, value):
    one_line_usage_error([*command, "--seed", value], "'--seed'", "0<=x<=2147483647")


OUTPUTS = [
    ([*SOLVE, "--time-limit", "1"], "--out"),
    ([*SOLVE, "--time-limit", "1"], "--svg"),
    (["plan", GAME, "--time-limit", "1"], "--out"),
    (["analyze", GAME, "--time-limit", "1"], "--out"),
    (["analyze", GAME, "--time-limit", "1"], "--plan-out"),
    (["replay", GAME], "--out"),
    (["show", ROUND2], "--svg"),
    (["boards", "classic-A"], "--svg"),
    (["sequence", "random"], "--out"),
]


@pytest.mark.parametrize("command,option", OUTPUTS)
def test_unwritable_outputs_are_rejected_before_any_work(tmp_path, command, option):
    target = tmp_path / "no-such-dir" / "out.file"
    one_line_usage_error([*command, option, str(target)], f"'{option}'", f"cannot write '{target}'",
                         "does not exist")


def test_an_output_through_a_link_to_no_file_yet_is_written_through_the_link(tmp_path):
    """QA: `show L --svg dangling.svg` made the link a plain file and left an empty file at its target."""
    (tmp_path / "drawing.svg").symlink_to(tmp_path / "target.svg")
    result = CliRunner().invoke(main, ["show", ROUND2, "--svg", str(tmp_path / "drawing.svg")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "drawing.svg").is_symlink() and "<svg" in (tmp_path / "target.svg").read_text()


def test_a_fifo_as_an_output_is_not_opened_to_try_it(tmp_path):
    """QA: the writability probe opened and closed a FIFO, so its reader saw end-of-file and left, and the real
    write then waited for a reader forever. (Opening a FIFO with no reader blocks: the probe must not.)"""
    import os
    import threading

    from models.clickopts import _unwritable

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    answers: list = []
    probe = threading.Thread(target=lambda: answers.append(_unwritable(fifo, False)), daemon=True)
    probe.start()
    probe.join(5)
    assert answers == [None]


def test_bench_checker_never_writes_its_summary_over_its_csv(tmp_path):
    """QA: `--out x.md` printed "wrote x.md and x.md": the summary, written beside the CSV, replaced it."""
    one_line_usage_error(["bench-checker", "--layouts", "2", "--runs", "1", "--out", str(tmp_path / "x.md")],
                         "'--out'", "give the CSV another name")
    assert not (tmp_path / "x.md").exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_bench_checker_names_the_file_it_cannot_write_after_its_result():
    """QA: `--out /dev/full` said "standard output: cannot write" and never showed the result."""
    result = CliRunner().invoke(main, ["bench-checker", "--layouts", "2", "--runs", "1", "--out", "/dev/full"])
    assert result.exit_code == 2 and "layouts/s" in result.stdout
    assert "error: /dev/full: cannot write" in result.stderr


def test_bench_checker_out_cannot_be_created():
    one_line_usage_error(["bench-checker", "--out", "/proc/no-such/x.csv"], "'--out'", "cannot write")


def test_checking_an_output_leaves_no_file_behind(tmp_path):
    svg = tmp_path / "never.svg"
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    result = CliRunner().invoke(main, ["show", str(broken), "--svg", str(svg)])
    assert result.exit_code == 2 and not svg.exists()


@pytest.mark.parametrize("option,value,needle", [
    ("--runs", "0", "x>=1"),
    ("--layouts", "0", "x>=1"),
    ("--machines", "-1", "x>=1"),
    ("--machines", "1000", "more than the catalogue's 55 machines"),
])
def test_bench_checker_ranges(tmp_path, option, value, needle):
    one_line_usage_error(["bench-checker", option, value, "--out", str(tmp_path / "b.csv")], f"'{option}'", needle)


@pytest.mark.parametrize("value", ["0", "-3"])
def test_sequence_needs_a_round(value):
    one_line_usage_error(["sequence", "random", "--rounds", value], "'--rounds'", "x>=1")


@pytest.mark.parametrize("ruleset,rounds,needle", [("factory-fun", "11", "Factory Fun has 10 rounds"),
                                                  ("factory-funner", "9", "Factory Funner has 8 rounds")])
def test_sequence_has_at_most_the_games_rounds(ruleset, rounds, needle):
    one_line_usage_error(["sequence", "random", "--ruleset", ruleset, "--rounds", rounds], "'--rounds'", needle)


def test_bench_checker_still_runs(tmp_path):
    out = tmp_path / "sub" / "b.csv"
    result = CliRunner().invoke(main, ["bench-checker", "--layouts", "2", "--runs", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.exists() and Path(out).with_suffix(".md").exists()


@pytest.mark.parametrize("args", [
    ["solve", "--board", "classic-A", "--machines", "FF39", "--machines", "FF08"],
    ["solve", "--board", "classic-A", "--board=expert-A", "--machines", "FF39"],
    ["sequence", "random", "--seed", "1", "--seed", "2"],
    ["replay", "x.json", "--show", "--no-show"],
])
def test_an_option_given_twice_is_an_error_not_the_last_one_kept(args):
    """click keeps the last value without a word (QA: `--machines FF39 --machines FF08` solved FF08 alone)."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "given twice" in result.output
    assert result.output.count("\n") == 1   # one line


def test_diagonal_plays_with_the_tile_in_a_fixed_part_too(tmp_path, monkeypatch):
    """QA: a --fixed file with a diagonal tile and no options, solved with --diagonal, ended INFEASIBLE: "the
    option is off"."""
    import json

    import solver.command

    fixed = tmp_path / "fixed.json"
    fixed.write_text(json.dumps({"ruleset": "factory-fun", "board": "classic-A",
                                 "machines": [{"id": "FF29", "cell": [5, 2], "rotation": 90},
                                              {"id": "FF04", "cell": [5, 1], "rotation": 90}],
                                 "tiles": [{"kind": "diagonal", "cell": [4, 1], "rotation": 0}]}))
    given = {}

    def solver_stub(*args, **kw):
        given.update(kw)
        raise KeyboardInterrupt   # (stop here: what reached the solver is the point)

    monkeypatch.setattr(solver.command, "solve_static", solver_stub)
    CliRunner().invoke(main, ["solve", "--board", "classic-A", "--machines", "FF29,FF04", "--fixed", str(fixed),
                              "--diagonal"])
    assert given["diagonal"] and given["fixed"].options["diagonal_intersection"] is True


@pytest.mark.parametrize("args, needles", [
    (["solve", "--board", "A", "--machines", "FF39"], ["unknown board \"A\"", "A is a board of ruleset factory-funner"]),
    (["solve", "--board", "classic-A", "--machines", "FF39", "--time-limit", "abc"],
     ["'abc' is not a number of seconds"]),
])
def test_options_say_what_was_meant(args, needles):
    """QA: `--board A` listed the square boards only, and `--time-limit abc` read "'abc' is not a valid seconds"."""
    one_line_usage_error(args, *needles)


def test_a_boards_file_without_the_layouts_board_says_it_replaces_the_bundled_ones(tmp_path):
    """QA: a --boards file lacking classic-A said "classic-A is a board of ruleset factory-fun-2006", where
    factory-fun has it too: the file replaces the bundled boards."""
    tiny = tmp_path / "tiny-boards.json"
    tiny.write_text(json.dumps({"ruleset": "factory-fun", "boards": [
        {"id": "tiny", "geometry": "square", "rows": 2, "cols": 3, "blocked": [], "pillars": []}]}))
    result = CliRunner().invoke(main, ["check", ROUND2, "--boards", str(tiny)])
    assert result.exit_code == 2 and "factory-fun-2006" not in result.output
    assert f"classic-A is a bundled board, and --boards {tiny} replaces the bundled boards" in result.output


def test_an_unknown_ruleset_in_a_layout_is_quoted_as_json(tmp_path):
    """QA: `unknown ruleset 'factory-fn'`, Python's quotes, where every other document error quotes as JSON."""
    layout = tmp_path / "layout.json"
    layout.write_text(json.dumps({"ruleset": "factory-fn", "board": "classic-A", "machines": [], "tiles": []}))
    result = CliRunner().invoke(main, ["check", str(layout)])
    assert result.exit_code == 2 and 'unknown ruleset "factory-fn"' in result.output


def test_a_progress_line_never_shows_minus_zero():
    """QA: an --optional solve on a board too small for anything printed "best -0  bound -0"."""
    from solver.command import ProgressLines

    lines: list[str] = []
    ProgressLines(lines.append)(-0.0, -0.0, 0.5)
    assert lines and "-0" not in lines[0]


def test_a_time_limit_counts_from_the_command_start(monkeypatch):
    """`--time-limit` covers the whole command: start-up's 0.5-1 s used to come on top (a 10 s solve: 10.7 s)."""
    import time

    from models import clock

    monkeypatch.setattr(clock, "STARTED", time.monotonic() - 2.0)
    assert 7.9 < clock.time_left(10.0) <= 8.0
    assert clock.time_left(1.0) == pytest.approx(0.1)   # never less than a tenth of the limit


def test_an_option_given_twice_to_a_command_loaded_when_named_is_an_error_too():
    """QA: `solve` loads when named (FactoryfunGroup.LAZY), and in a fresh process its options were not checked:
    `--machines FF39 --machines FF08` solved FF08 again (the test above runs where `solve` is loaded already)."""
    import subprocess
    import sys

    code = "import sys; from cli import main; sys.argv[0] = 'factoryfun'; main()"
    done = subprocess.run([sys.executable, "-c", code, "solve", "--board", "classic-A", "--machines", "FF39",
                           "--machines", "FF08", "--time-limit", "1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "option --machines given twice" in done.stderr, done.stderr


def test_a_command_called_with_its_own_arguments_counts_its_time_from_the_call(monkeypatch):
    """CI: in a long test run every solve's `--time-limit` lost the minutes since cli was imported, so a 2 s solve
    searched 0.2 s and found nothing. A command line counts from start-up; a call with arguments from itself."""
    import time

    from models import clock

    monkeypatch.setattr(clock, "STARTED", time.monotonic() - 600.0)
    called = time.monotonic()
    assert CliRunner().invoke(main, ["catalog"]).exit_code == 0
    left = clock.time_left(2.0)
    assert left >= 2.0 - (time.monotonic() - called)   # (not "> 1.9": a busy machine took 0.1 s over the call)


def test_a_link_to_itself_is_one_line_as_input_or_output(tmp_path):
    """QA: `check l8` (l8 -> l8) ended in a traceback and exit 1, which `check` means as "illegal"."""
    loop = tmp_path / "l8"
    loop.symlink_to(loop)
    for args in (["check", str(loop)], ["show", ROUND2, "--svg", str(loop)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2 and "symbolic links" in result.output, result.output
