"""`factoryfun solve`: output document, errors as one line with exit 2."""
from __future__ import annotations

import json
import signal

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from models.check import check_layout
from models.layout import parse_layout
from models.paths import EXAMPLES_DIR
from solver.command import NO_LAYOUT_EXIT, ProgressLines
from solver.static import StaticResult


def invoke(*args: str):
    return CliRunner().invoke(main, ["solve", *args])


def test_json_document_carries_the_result(tmp_path):
    out = tmp_path / "best.json"
    result = invoke("--board", "classic-A", "--machines", "FF09", "--time-limit", "10", "--json", "--out", str(out))
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["result"]["status"] == "OPTIMAL"
    assert {k: document["result"][k] for k in ("income", "cost", "chain_bonus", "total", "objective", "bound")} == \
        {"income": 7, "cost": 2, "chain_bonus": 0, "total": 5, "objective": 5, "bound": 5}
    assert json.loads(out.read_text()) == document
    assert check_layout(parse_layout(document)).legal  # "result" is ignored on input


def test_machines_file_as_lines_and_fixed_layout(tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("FF09\n")
    fixed = tmp_path / "fixed.json"
    fixed.write_text(json.dumps({"ruleset": "factory-fun", "board": "classic-A",
                                 "machines": [{"id": "FF09", "cell": [4, 6], "rotation": 0}], "tiles": []}))
    result = invoke("--board", "classic-A", "--machines-file", str(ids), "--fixed", str(fixed),
                    "--time-limit", "10", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["machines"] == [{"id": "FF09", "cell": [4, 6], "rotation": 0}]


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    assert invoke("--board", "classic-A", "--machines", "FF99").exit_code == 2
    assert invoke("--board", "nowhere", "--machines", "FF09").exit_code == 2
    assert invoke("--board", "classic-A").exit_code == 2
    twice = invoke("--board", "classic-A", "--machines", "FF09,FF12,FF09")
    assert twice.exit_code == 2 and "machine FF09 is listed twice" in twice.output
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    result = invoke("--board", "classic-A", "--machines", "FF09", "--hint", str(broken))
    assert result.exit_code == 2 and "Traceback" not in result.output


# -- machines, --hint and --fixed as the command reads them (the search itself is stubbed out) ----------
ROUND2 = EXAMPLES_DIR / "rulebook-round2.json"  # FF39 and FF08, legal


@pytest.fixture
def solves(monkeypatch):
    """Record solve_static's arguments instead of searching (keeps these tests instant)."""
    calls: list[dict] = []

    def fake(ruleset, board, catalog, ids, **kwargs):
        calls.append({"ids": ids, **kwargs})
        return StaticResult("UNKNOWN", None, None, None, None, 0.0, 0.0, None, None)

    monkeypatch.setattr("solver.command.solve_static", fake)
    return calls


def one_line(result, *needles: str) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert all(n in lines[0] for n in needles), lines[0]
    return lines[0]


def test_an_empty_machine_id_is_an_error(solves):
    one_line(invoke("--board", "classic-A", "--machines", "FF39,,FF08"), "'--machines'", "empty machine id")
    assert not solves


def test_machines_and_machines_file_together_are_an_error(tmp_path, solves):
    ids = tmp_path / "ids.txt"
    ids.write_text("FF08\n")
    one_line(invoke("--board", "classic-A", "--machines", "FF39", "--machines-file", str(ids)), "not both")
    assert not solves


@pytest.mark.parametrize("content,needle", [
    (b"FF39\n\xff\xfe\n", "not UTF-8 text"),
    (b"FF39\nhello world\n", "line 2: unknown machine id \"hello world\""),
    (b'{"a": 1}\n', "expected a JSON list of machine ids"),
    (b"", "lists no machine ids"),
    (b"# only a comment\n", "lists no machine ids"),
    (b'["FF39", "FF39"]', "[1]: machine FF39 is listed twice"),
    (b"FF39\nFF08,,FF25\n", "line 2: empty machine id between two commas"),   # (QA: --machines refused it)
])
def test_machines_file_errors_name_the_file(tmp_path, solves, content, needle):
    path = tmp_path / "ids.txt"
    path.write_bytes(content)
    one_line(invoke("--board", "classic-A", "--machines-file", str(path)), str(path), needle)
    assert not solves


def test_a_machines_file_takes_ids_by_line_or_comma_with_comments(tmp_path, solves):
    """QA: `FF08  # the second` and `FF39,FF08` were each read as one unknown id."""
    path = tmp_path / "ids.txt"
    path.write_text("# my set\nFF39,FF08,  # the first two\n FF25 \n")
    invoke("--board", "classic-A", "--machines-file", str(path))
    assert solves[0]["ids"] == ["FF39", "FF08", "FF25"]
    path.write_text("FF39\nFF08, FF99 # typo\n")
    one_line(invoke("--board", "classic-A", "--machines-file", str(path)), str(path), "line 2: unknown machine id \"FF99\"")


def _hint(tmp_path, change=None) -> str:
    document = json.loads(ROUND2.read_text())
    if change is not None:
        change(document)
    path = tmp_path / "hint.json"
    path.write_text(json.dumps(document))
    return str(path)


@pytest.mark.parametrize("machines,change,needle", [
    ("FF39", None, "it places FF08, not among the machines to solve"),
    ("FF39,FF08,FF25", None, "it leaves out FF25"),
    ("FF39,FF08", lambda d: d.update(tiles=[t for t in d["tiles"] if t["kind"] != "output"]), "it breaks rule loose-end"),
    # (QA: the note named no cell, and one violation of several with nothing said of the others)
    ("FF39,FF08", lambda d: d.update(tiles=[t for t in d["tiles"] if t["kind"] != "output"]),
     "faces an empty cell (at [5, 5]); `factoryfun check` lists all 2"),
])
def test_an_unusable_hint_is_dropped_with_a_note(tmp_path, solves, machines, change, needle):
    hint = _hint(tmp_path, change)
    result = invoke("--board", "classic-A", "--machines", machines, "--hint", hint, "--json")
    assert result.exit_code == NO_LAYOUT_EXIT == 1, result.output   # (1: `solve --out a.json && check a.json`)
    notes = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and f"--hint {hint} not used" in notes[0] and needle in notes[0], result.stderr
    assert solves[0]["hint"] is None


def _fixed_file(tmp_path, machines, tiles=()) -> str:
    path = tmp_path / "fixed.json"
    path.write_text(json.dumps({"ruleset": "factory-fun", "board": "classic-A", "machines": machines,
                                "tiles": list(tiles)}))
    return str(path)


def _only_note(result) -> str:
    notes = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1, result.stderr
    return notes[0]


@pytest.mark.parametrize("fixed_machines,fixed_tiles,needle", [
    ([{"id": "FF39", "cell": [2, 6], "rotation": 90}], [], "--fixed has FF39 at [2, 6] turned 90, the hint does not"),
    ([], [{"kind": "supply", "color": "red", "cell": [0, 0]}], "--fixed has a supply tile at [0, 0], the hint does not"),
])
def test_a_hint_must_keep_the_fixed_part(tmp_path, solves, fixed_machines, fixed_tiles, needle):
    """QA: a hint placing a --fixed machine elsewhere took a 0.2 s proof to UNKNOWN at 5 s, without a word."""
    result = invoke("--board", "classic-A", "--machines", "FF39,FF08", "--hint", _hint(tmp_path), "--json",
                    "--fixed", _fixed_file(tmp_path, fixed_machines, fixed_tiles))
    assert needle in _only_note(result)
    assert solves[0]["hint"] is None


def test_a_hint_with_the_diagonal_tile_needs_the_option(tmp_path, solves):
    """QA: such a hint was dropped without a word."""
    hint = _hint(tmp_path, lambda d: d.update(options={"diagonal_intersection": True}))
    result = invoke("--board", "classic-A", "--machines", "FF39,FF08", "--hint", hint, "--json")
    assert "it plays with the diagonal intersection tile: give --diagonal too" in _only_note(result)
    result = invoke("--board", "classic-A", "--machines", "FF39,FF08", "--hint", hint, "--json", "--diagonal")
    assert "note:" not in result.stderr and solves[1]["hint"] is not None


def test_a_hint_that_keeps_the_fixed_part_is_used(tmp_path, solves):
    ff39 = json.loads(ROUND2.read_text())["machines"][0]
    result = invoke("--board", "classic-A", "--machines", "FF39,FF08", "--hint", _hint(tmp_path), "--json",
                    "--fixed", _fixed_file(tmp_path, [ff39]))
    assert "note:" not in result.stderr and solves[0]["hint"] is not None


def test_a_good_hint_is_passed_on_without_a_note(tmp_path, solves):
    result = invoke("--board", "classic-A", "--machines", "FF39,FF08", "--hint", _hint(tmp_path), "--json")
    assert result.exit_code == NO_LAYOUT_EXIT and "note:" not in result.stderr
    assert solves[0]["hint"] is not None


def test_the_count_includes_the_fixed_layouts_machines(tmp_path, solves):
    fixed = tmp_path / "fixed.json"
    fixed.write_text(json.dumps({"ruleset": "factory-fun", "board": "classic-A",
                                 "machines": [{"id": "FF01", "cell": [5, 2], "rotation": 0}], "tiles": []}))
    result = invoke("--board", "classic-A", "--machines", "FF39,FF08", "--fixed", str(fixed), "--json")
    assert result.exit_code == NO_LAYOUT_EXIT == 1, result.output   # (1: `solve --out a.json && check a.json`)
    assert "solving 3 machines (FF01 from --fixed) on board classic-A" in result.stderr


def test_progress_lines_print_each_change_and_repeat_an_unchanged_state_only_after_a_while():
    lines: list[str] = []
    progress = ProgressLines(lines.append, repeat=10.0)
    for best, bound, elapsed in [(90, 112, 1.0), (95, 112, 2.0), (95, 112, 3.0), (95, 112, 4.0),
                                 (95, 110, 5.0), (95, 110, 14.0), (95, 110, 15.5), (97, 110, 15.6)]:
        progress(best, bound, elapsed)
    assert lines == ["best 90  bound 112  gap 19.6%  1.0s", "best 95  bound 112  gap 15.2%  2.0s",
                     "best 95  bound 110  gap 13.6%  5.0s", "best 95  bound 110  gap 13.6%  15.5s",
                     "best 97  bound 110  gap 11.8%  15.6s"]


def test_a_progress_line_without_a_bound_says_none():
    """A plan before its bound (Ctrl-C, a short limit) reported its best as the bound: "gap 0.0%" (QA)."""
    import math

    lines: list[str] = []
    progress = ProgressLines(lines.append, repeat=10.0)
    progress(64, math.inf, 4.0)
    progress(64, math.inf, 5.0)
    progress(64, 80, 6.0)
    assert lines == ["best 64  bound -  gap -  4.0s", "best 64  bound 80  gap 20.0%  6.0s"]


def test_a_quiet_search_still_prints_its_state_every_repeat_seconds():
    """A phase that reports nothing (the prover) left 13-15 s without a line: the heartbeat repeats the last."""
    import time

    lines: list[str] = []
    with ProgressLines(lines.append, repeat=0.2) as progress:
        progress(95, 110, 0.0)
        time.sleep(0.9)
    assert len(lines) >= 3 and all(line.startswith("best 95  bound 110") for line in lines)
    count = len(lines)
    time.sleep(0.4)
    assert len(lines) == count   # silent once the solve is over


def test_a_search_with_no_layout_yet_still_says_it_is_alive():
    """QA: a solve whose walks found nothing printed no line for 19 s, where the README promises one every 10 s."""
    import time

    lines: list[str] = []
    with ProgressLines(lines.append, repeat=0.2):
        time.sleep(0.7)
    assert len(lines) >= 2 and all(line.startswith("no layout yet  ") for line in lines)


def test_no_layout_means_no_svg_nor_layout_file_and_says_so(tmp_path, solves):
    """A document holding only a result is no layout document (check could not read it back), and the exit
    code says so (QA: `solve --out a.json && check a.json` went on to "file not found")."""
    svg, out = tmp_path / "best.svg", tmp_path / "best.json"
    result = invoke("--board", "classic-A", "--machines", "FF39", "--svg", str(svg), "--out", str(out))
    assert result.exit_code == NO_LAYOUT_EXIT == 1, result.output   # (1: `solve --out a.json && check a.json`)
    stderr = result.stderr.replace("\n", "")
    assert f"no layout to write (UNKNOWN): {svg} not written" in stderr
    assert f"no layout to write (UNKNOWN): {out} not written" in stderr
    assert not svg.exists() and not out.exists()


def test_an_interrupted_solve_says_so_beside_its_status(monkeypatch):
    monkeypatch.setattr("solver.command.solve_static", lambda *a, **kw: StaticResult(
        "UNKNOWN", None, None, None, None, 0.0, 0.0, None, None, stop_signal=signal.SIGINT))
    result = invoke("--board", "classic-A", "--machines", "FF39")
    assert result.exit_code == NO_LAYOUT_EXIT == 1, result.output   # (1: `solve --out a.json && check a.json`)
    assert "UNKNOWN (interrupted)" in result.stdout


FULL = Path("/dev/full")   # (Linux: every write fails with "No space left on device")


@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
def test_a_write_that_fails_after_the_solve_is_one_line_and_the_result_is_still_shown():
    # QA: a traceback, and the result lost; the path passes the check when the option is read
    result = invoke("--board", "classic-A", "--machines", "FF09", "--time-limit", "10", "--out", str(FULL))
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert "OPTIMAL" in result.stdout
    assert result.stderr.strip().splitlines()[-1] == "error: /dev/full: cannot write: No space left on device"


def test_the_svg_of_a_solve_is_titled_with_its_score_and_status():
    """The picture people look at says what it is worth (QA: "classic-A: FEASIBLE", no score)."""
    from types import SimpleNamespace

    from solver.command import svg_title

    assert svg_title("classic-A", SimpleNamespace(objective_kind="profit", objective=62, status="FEASIBLE",
                                                  bound=69)) == "classic-A: score 62 (FEASIBLE, bound 69)"
    assert svg_title("classic-A", SimpleNamespace(objective_kind="cost", objective=5, status="OPTIMAL",
                                                  bound=5)) == "classic-A: cost 5 (OPTIMAL)"


def test_unknown_ids_say_what_was_probably_meant():
    one_line(invoke("--board", "classic-A", "--machines", "ff39,FF08"), "'--machines'", "did you mean FF39?")
    one_line(invoke("--board", "classic-A", "--machines", "FN05"), "'--machines'", "--ruleset factory-funner")



def test_an_id_missing_from_a_users_catalogue_names_the_file_not_the_ruleset_given(tmp_path):
    """QA pass 38: a factory-fun catalogue without FF39 answered "(a Factory Fun machine: give --ruleset
    factory-fun)", the ruleset already given."""
    from models.paths import MACHINES_DIR

    document = json.loads((MACHINES_DIR / "factory-fun.json").read_text())
    document["machines"] = [m for m in document["machines"] if m["id"] == "FF08"]
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(document))
    result = invoke("--board", "classic-A", "--machines", "FF39", "--catalog", str(mine))
    one_line(result, "'--machines'", f'unknown machine id "FF39" (not in the catalogue {mine})')
    assert "--ruleset" not in result.output
    # another game's id too: no other ruleset to advise, which this catalogue would refuse (QA pass 41)
    result = invoke("--board", "classic-A", "--machines", "FN05", "--catalog", str(mine))
    one_line(result, "'--machines'", f'unknown machine id "FN05" (not in the catalogue {mine})')
    assert "--ruleset" not in result.output
    # and a layout's machine `check` reads against it (QA pass 41: the file was not named)
    from click.testing import CliRunner

    from cli import main
    from models.paths import EXAMPLES_DIR

    checked = CliRunner().invoke(main, ["check", str(EXAMPLES_DIR / "rulebook-round2.json"), "--catalog", str(mine)])
    assert checked.exit_code == 2 and f"(not in the catalogue {mine})" in checked.output


def test_a_comma_at_the_end_of_machines_is_let_be_as_in_a_file():
    result = invoke("--board", "classic-A", "--machines", "FF39,FF08,", "--time-limit", "2", "--workers", "1")
    assert result.exit_code == 0 and "solving 2 machines" in result.output


def test_a_gap_is_over_the_larger_of_best_and_bound():
    """A profit's gap is (bound - best) / bound, as the issue measures it; a cost's bound is the smaller, and over
    it QA read "best 15 bound 7 gap 114.3%"."""
    from solver.static import relative_gap

    assert relative_gap(97, 142) == pytest.approx(45 / 142)
    assert relative_gap(15, 7) == pytest.approx(8 / 15)
    assert relative_gap(0, 0) == 0.0 and relative_gap(None, 3) is None


def test_an_optional_answer_names_the_machines_it_left_out():
    """QA: a 12-machine --optional answer placed one machine and said nothing of the other eleven."""
    from io import StringIO

    from rich.console import Console

    from models.layout import load_layout
    from models.paths import EXAMPLES_DIR
    from solver.command import _summary
    from solver.static import StaticResult

    layout = load_layout(EXAMPLES_DIR / "rulebook-round2.json")
    result = StaticResult("FEASIBLE", layout, 23, 30.0, 0.2, 1.0, 0.1, 0.5, 0.5)

    def summary(ids: list[str]) -> str:
        screen = Console(file=StringIO(), width=120, color_system=None)
        screen.print(_summary(result, ids))
        return screen.file.getvalue()

    row = next(line for line in summary([*layout.machine_ids, "FF01"]).splitlines() if "left out" in line)
    assert row.split() == ["left", "out", "FF01", "(2", "of", "3", "placed)"]
    assert "left out" not in summary(list(layout.machine_ids))


def test_no_show_leaves_the_drawing_out_and_the_result_in():
    """QA: `replay` and `plan` took --no-show, `solve` refused it."""
    shown = invoke("--board", "classic-A", "--machines", "FF39", "--time-limit", "5", "--workers", "1")
    bare = invoke("--board", "classic-A", "--machines", "FF39", "--time-limit", "5", "--workers", "1", "--no-show")
    assert shown.exit_code == bare.exit_code == 0
    assert "Legend" in shown.stdout and "Legend" not in bare.stdout and "OPTIMAL" in bare.stdout


def test_a_ruleset_without_a_catalogue_is_said_once_as_catalog_says_it():
    """QA: "--board/--ruleset: ruleset: ruleset factory-fun-2006 has no bundled machine catalogue"."""
    said = one_line(invoke("--ruleset", "factory-fun-2006", "--board", "classic-A", "--machines", "X1"),
                    "pass your own with --catalog FILE")
    assert said.startswith("error: ruleset factory-fun-2006 has no bundled machine catalogue"), said
