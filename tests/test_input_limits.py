"""Boards, catalogues and games outside what the game can be: one line naming file and key, exit 2.

Each case once reached the solver (overflow, a hang) or was silently accepted.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import CliRunner

from cli import main
from cli_errors import one_line_error
from models.paths import BOARDS_DIR, EXAMPLES_DIR, MACHINES_DIR

ROUND2 = str(EXAMPLES_DIR / "rulebook-round2.json")
GAME = EXAMPLES_DIR / "rulebook-game.json"


def mutated(tmp_path: Path, source: Path, change: Callable[[Any], None], name: str = "doc.json") -> str:
    document = json.loads(source.read_text())
    change(document)
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return str(path)


# -- boards (models/board.py) ---------------------------------------------------------------------
def _board(doc: dict, **changes: Any) -> None:
    doc["boards"][1].update(changes)


@pytest.mark.parametrize("change,needle", [
    (lambda d: _board(d, rows=10**12), "boards[1].rows: expected an integer row count from 1 to 40, got 1000000000000 (boards are at most 40x40)"),
    (lambda d: _board(d, rows=100000, cols=100000), "boards[1].rows"),
    (lambda d: _board(d, rows=0), "boards[1].rows: expected an integer row count from 1 to 40, got 0"),
    (lambda d: _board(d, cols=-3), "boards[1].cols: expected an integer column count from 1 to 40, got -3"),
    (lambda d: _board(d, id="classic-A"), "boards[1].id: board id \"classic-A\" given twice"),
    (lambda d: _board(d, blocked=[[0, 0], [0, 0]]), "boards[1].blocked[1]: cell listed twice (cell [0, 0])"),
    (lambda d: _board(d, pillars=[[0, 0]]), "boards[1].pillars: cell is both a pillar and blocked (cell [0, 0])"),
    (lambda d: _board(d, blocked=[[0, 99]]), "boards[1].blocked[0]: cell coordinates must be from 0 to 39"),
    # QA: these loaded; `sequence random` then crashed looking for a first board, or no --board could name it
    (lambda d: d.update(boards=[]), "boards: lists no boards"),
    (lambda d: _board(d, id=""), "boards[1].id: an id is a non-empty string of printable characters without spaces or "
                                 "commas, got \"\""),
    # QA (fuzz): a list here was looked up as a geometry's name, a TypeError traceback
    (lambda d: _board(d, geometry=[]), "boards[1].geometry: unknown geometry []"),
    (lambda d: _board(d, geometry={}), "boards[1].geometry: unknown geometry {}"),
    # QA: these loaded, a null or an object as "no pillars" (classic-A lost its pillar), rows beside cells ignored
    (lambda d: _board(d, pillars=None), "boards[1].pillars: expected a list of cells, got null"),
    (lambda d: _board(d, blocked={}), "boards[1].blocked: expected a list of cells, got {}"),
    (lambda d: _board(d, cells=[[0, 0], [0, 1]]), "boards[1].rows: give the board's cells or its rows and cols, not both"),
    (lambda d: d["boards"][1].pop("rows"), "boards[1].rows: missing key (a board gives rows and cols, or cells)"),
])
def test_bad_boards(tmp_path, change, needle):
    path = mutated(tmp_path, BOARDS_DIR / "factory-fun.json", change)
    one_line_error(["boards", "--boards", path], path, needle)


# -- catalogues (models/catalog.py) ---------------------------------------------------------------
@pytest.mark.parametrize("change,needle", [
    (lambda d: d["machines"][0].update(income=-3), "machines[0].income: expected an integer income from 0 to 100, got -3"),
    (lambda d: d["machines"][0].update(income=10**40), "machines[0].income: expected an integer income from 0 to 100"),
    (lambda d: d["machines"][0].update(ports=[]), "machines[0].ports: a machine needs at least one port"),
    (lambda d: d["machines"][0]["ports"][0].update(amount=10**40), "machines[0].ports[0].amount: expected an integer amount from 1 to 100"),
    # QA: these loaded, and a solve then ended INFEASIBLE naming no port (first-edition users write their own)
    (lambda d: d["machines"][0]["ports"][0].update(kind="in", colors=["black"], amount=1),
     "machines[0].ports[0].colors: no input takes black: end products go only to end-product reservoirs "
     "(machine FF01)"),
    (lambda d: d["machines"][0]["ports"][0].update(colors=["red", "blue"]),
     "machines[0].ports[0].colors: ruleset factory-fun prints one colour per port"),
    (lambda d: d["machines"][0]["ports"][0].update(colors=["black", "red"]),
     "machines[0].ports[0].colors: black is an end product, never one of a port's colours"),
    (lambda d: d.update(machines=[]), "machines: lists no machines"),
    # QA: these loaded ("no" read as true, a blank id listed and solved, an id --machines can never name)
    (lambda d: d["machines"][0].update(name_certain="no"), "machines[0].name_certain: expected true or false, got \"no\""),
    (lambda d: d["machines"][0].update(name=5), "machines[0].name: expected a string name or null, got 5"),
    (lambda d: d["machines"][0].update(id=""), "machines[0].id: an id is a non-empty string of printable characters"),
    (lambda d: d["machines"][0].update(id="FF,01"), "machines[0].id: an id is a non-empty string of printable "
                                                    "characters without spaces or commas, got \"FF,01\""),
    # QA (fuzz): an escape sequence in an id was listed raw by `catalog`, turning the table red
    (lambda d: d["machines"][0].update(id="FF\u001b[31m39"), "got \"FF\\u001b[31m39\""),
    (lambda d: d["machines"][0].update(id="FF 01"), "got \"FF 01\""),
    # QA pass 38: no machine named, nor the position
    (lambda d: d["machines"][0]["ports"].append(dict(d["machines"][0]["ports"][0])),
     "machines[0].ports: two ports at \"W\" (machine FF01)"),
])
def test_bad_catalogues(tmp_path, change, needle):
    path = mutated(tmp_path, MACHINES_DIR / "factory-fun.json", change)
    one_line_error(["check", ROUND2, "--catalog", path], path, needle)


def test_a_funner_catalogue_has_no_bonus_machines(tmp_path):
    """QA pass 38: a Funner machine with a bonus_supply loaded, and its drawing promised the extra container the
    checker then refused (RULES.md 2: "no bonus machines")."""
    path = mutated(tmp_path, MACHINES_DIR / "factory-funner.json", lambda d: d["machines"][0].update(bonus_supply="pink"))
    one_line_error(["catalog", "--ruleset", "factory-funner", "--catalog", path], path,
                   "machines[0].bonus_supply: Factory Funner has no bonus machines")


def test_end_limit_is_bounded(tmp_path):
    path = mutated(tmp_path, Path(ROUND2), lambda d: d.update(options={"end_limit": 10**40}))
    one_line_error(["check", path], path, "options.end_limit: expected an integer stock or null from 0 to 100")


# -- games and sequences (models/game.py) ---------------------------------------------------------
def _offer(doc: dict, t: int, offered: list[str]) -> None:
    doc["rounds"][t]["offered"] = offered


@pytest.mark.parametrize("change,needle", [
    (lambda d: d.update(rounds=[]), "rounds: a game needs at least one round"),
    (lambda d: d.update(start_money=10**40), "start_money: expected an integer from 1 to 10000"),
    (lambda d: d.update(start_money=0), "start_money: expected an integer from 1 to 10000, got 0"),
    (lambda d: _offer(d, 0, ["FF39", "FF39"]), "rounds[0].offered[1]: machine FF39 is offered twice in this round"),
    (lambda d: _offer(d, 1, ["FF08", "FF39"]), "rounds[1].offered[1]: machine FF39 is offered in rounds 1 and 2"),
])
@pytest.mark.parametrize("command", [["replay"], ["plan", "--time-limit", "1"], ["analyze", "--time-limit", "1"]])
def test_bad_games(tmp_path, change, needle, command):
    path = mutated(tmp_path, GAME, change)
    one_line_error([command[0], path, *command[1:]], path, needle)


def test_bundled_games_still_load():
    result = CliRunner().invoke(main, ["replay", str(GAME), "--no-show"])
    assert result.exit_code == 0, result.output


def test_a_tile_without_a_kind_says_the_key_is_missing(tmp_path):
    path = mutated(tmp_path, Path(ROUND2), lambda d: d["tiles"][0].pop("kind"))
    one_line_error(["check", path], path, "tiles[0].kind: missing key")


def test_a_byte_order_mark_is_read_as_nothing(tmp_path):
    # Windows editors write one; it was "invalid JSON ... Unexpected UTF-8 BOM (decode using utf-8-sig)"
    layout, ids = tmp_path / "bom.json", tmp_path / "ids.txt"
    layout.write_bytes(b"\xef\xbb\xbf" + Path(ROUND2).read_bytes())
    ids.write_bytes(b"\xef\xbb\xbfFF39\n")
    result = CliRunner().invoke(main, ["check", str(layout)])
    assert result.exit_code == 0 and "legal" in result.stdout, result.output
    from solver.command import _machine_list
    from models.catalog import load_catalog
    from models.rulesets import get_ruleset

    assert _machine_list(None, str(ids), load_catalog(get_ruleset("factory-fun"))) == ["FF39"]


def test_a_sequence_needing_more_machines_than_the_catalogue_says_so_in_good_english():
    """QA: "1 rounds x 56 offers need 56 machines"."""
    result = CliRunner().invoke(main, ["sequence", "random", "--players", "56", "--rounds", "1"])
    assert result.exit_code != 0
    # (players are dealt a whole game's machines, whatever --rounds: QA pass 39)
    assert "10 rounds (a whole game's) x 56 offers need 560 machines; the catalogue has 55" in result.output, result.output
