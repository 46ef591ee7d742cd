"""What reading and writing documents promises, each found unpinned by QA pass 62 (mutation testing of the
document readers and writers and the geometry): a mutant breaking it lived through every other test."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from cli import main
from cli_errors import one_line_error
from models.paths import EXAMPLES_DIR

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"


def _document(tmp_path: Path, name: str, document: dict) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return str(path)


def test_a_cell_of_three_numbers_is_refused_not_cut_to_two(tmp_path):
    layout = json.loads((EXAMPLES_DIR / "rulebook-round2.json").read_text())
    layout["machines"][0]["cell"] = [5, 2, 7]
    one_line_error(["check", _document(tmp_path, "three.json", layout)],
                   "machines[0].cell: expected a cell [a, b] of two integers, got [5, 2, 7]")


def test_a_hex_machine_turned_six_times_is_refused(tmp_path):
    """A hex machine has six rotations, 0 to 5: a seventh value is a typing error, never read as 0."""
    game = json.loads((DATA / "analysis-funner-played.json").read_text())
    layout = next(r["layout"] for r in game["rounds"] if "layout" in r)
    layout["machines"][0]["rotation"] = 6
    document = {"ruleset": game["ruleset"], "board": game["board"], **layout}
    one_line_error(["check", _document(tmp_path, "turned.json", document)], "machines[0].rotation",
                   "bad rotation 6 (allowed: 0, 1, 2, 3, 4, 5)")


def test_a_rounds_layout_for_another_board_is_refused(tmp_path):
    game = json.loads((EXAMPLES_DIR / "rulebook-game.json").read_text())
    game["rounds"][0]["layout"]["board"] = "classic-B"
    one_line_error(["replay", _document(tmp_path, "other-board.json", game)],
                   'rounds[0].layout.board: "classic-B" does not match "classic-A"')


def test_a_hint_for_another_board_is_named_as_such(tmp_path):
    hint = json.loads((EXAMPLES_DIR / "rulebook-round2.json").read_text())
    hint["board"] = "classic-B"
    one_line_error(["solve", "--board", "classic-A", "--machines", "FF39,FF08", "--hint",
                    _document(tmp_path, "hint-B.json", hint)],
                   "board: the hint layout is for factory-fun/classic-B, not factory-fun/classic-A")


def test_a_robofacture_puzzle_given_to_check_is_named():
    one_line_error(["check", str(EXAMPLES_DIR.parent / "robofacture" / "parts-4x4.json")],
                   "a Robofacture parts puzzle, not", "factoryfun robofacture check")


def test_a_skipped_round_keeps_its_taken_null_when_written_back(tmp_path):
    """A round that took nothing says `"taken": null`; written without it, the game read back was "not a played
    game: no round says what was taken"."""
    game = {"ruleset": "factory-fun", "board": "classic-A", "rounds": [{"offered": ["FF39"], "taken": None}]}
    out = tmp_path / "out.json"
    first = CliRunner().invoke(main, ["replay", _document(tmp_path, "skipped.json", game), "--out", str(out)])
    assert first.exit_code == 0, first.output
    assert json.loads(out.read_text())["rounds"][0] == {"offered": ["FF39"], "taken": None}
    again = CliRunner().invoke(main, ["replay", str(out)])
    assert again.exit_code == 0 and "final score 2" in again.stdout


def test_a_file_of_exactly_the_size_limit_is_read_and_one_byte_more_is_not(tmp_path, monkeypatch):
    import models.jsonio as jsonio

    monkeypatch.setattr(jsonio, "MAX_BYTES", 1000)
    whole = tmp_path / "whole.json"
    whole.write_text(" " * 998 + "{}")
    assert jsonio.read_text(whole).strip() == "{}"
    whole.write_text(" " * 999 + "{}")
    try:
        jsonio.read_text(whole)
    except jsonio.DocumentError as refused:
        assert "not a factoryfun document" in str(refused)
    else:
        raise AssertionError("a file one byte over the limit was read")


def test_a_new_file_takes_the_umask_it_is_written_under(tmp_path):
    """A new file's mode is 0666 less the umask, as a write in place gives (QA pass 62: 0644 passed under the
    usual umask 022, so the test now sets another)."""
    from models.jsonio import write_json

    before = os.umask(0o002)
    try:
        write_json(tmp_path / "fresh.json", {"n": 1})
    finally:
        os.umask(before)
    assert stat.S_IMODE((tmp_path / "fresh.json").stat().st_mode) == 0o664


def test_a_rewritten_file_drops_a_set_user_id_bit(tmp_path):
    """(tests/test_documents.py gives the file a group first, which as root clears the bit before the write.)"""
    from models.jsonio import write_json

    out = tmp_path / "setid.json"
    out.write_text("{}")
    os.chmod(out, 0o4750)
    assert stat.S_IMODE(out.stat().st_mode) == 0o4750
    write_json(out, {"n": 1})
    assert stat.S_IMODE(out.stat().st_mode) == 0o750 and json.loads(out.read_text()) == {"n": 1}


def test_an_output_to_the_file_standard_error_goes_to_is_written_through_the_stream(tmp_path):
    """As for standard output (QA pass 42): `--out /dev/stderr 2>>run.log` keeps what the log held."""
    log = tmp_path / "run.log"
    log.write_text("EARLIER\n")
    command = [sys.executable, "-c", "from cli import main; main()", "replay",
               str(EXAMPLES_DIR / "rulebook-game.json"), "--out", "/dev/stderr", "--no-show"]
    with open(log, "a") as appended:
        assert subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=appended).returncode == 0
    kept = log.read_text()
    assert kept.startswith("EARLIER\n") and '"rounds"' in kept


def test_a_directory_and_a_bad_byte_are_named_as_such(tmp_path):
    """A directory given as a document is called one, and a byte that is not UTF-8 is named by its offset from
    the start of the file, counted from 0 as `cmp` and `od` count."""
    from models.jsonio import DocumentError, read_text

    for path, needle in ((tmp_path, "is a directory, not a file"), (tmp_path / "latin.json", "not UTF-8 text (byte 7)")):
        if path != tmp_path:
            path.write_bytes(b'{"a": "\xff"}')
        try:
            read_text(path)
        except DocumentError as refused:
            assert needle in str(refused)
        else:
            raise AssertionError(f"{path} was read")
