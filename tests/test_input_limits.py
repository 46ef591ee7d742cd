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
    (lambda d: _board(d, id="classic-A"), "boards[1].id: board id 'classic-A' given twice"),
    (lambda d: _board(d, blocked=[[0, 0], [0, 0]]), "boards[1].blocked[1]: cell listed twice (cell [0, 0])"),
    (lambda d: _board(d, pillars=[[0, 0]]), "boards[1].pillars: cell is both a pillar and blocked (cell [0, 0])"),
    (lambda d: _board(d, blocked=[[0, 99]]), "boards[1].blocked[0]: cell coordinates must be from 0 to 39"),
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
])
def test_bad_catalogues(tmp_path, change, needle):
    path = mutated(tmp_path, MACHINES_DIR / "factory-fun.json", change)
    one_line_error(["check", ROUND2, "--catalog", path], path, needle)


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
    (lambda d: _offer(d, 1, ["FF08", "FF39"]), "rounds[1].offered[1]: machine FF39 is offered in rounds[0] and rounds[1]"),
])
@pytest.mark.parametrize("command", [["replay"], ["plan", "--time-limit", "1"], ["analyze", "--time-limit", "1"]])
def test_bad_games(tmp_path, change, needle, command):
    path = mutated(tmp_path, GAME, change)
    one_line_error([command[0], path, *command[1:]], path, needle)


def test_bundled_games_still_load():
    result = CliRunner().invoke(main, ["replay", str(GAME), "--no-show"])
    assert result.exit_code == 0, result.output
