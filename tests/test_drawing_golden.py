"""The pictures of representative documents, byte for byte against files of today's drawings (of the kinds QA passes 15, 23 and 60
looked at and found right): square
layouts (a crossing, the diagonal tile, a merge, two colours in one network), a hex game, a Robofacture space
(each as SVG and in the terminal, without colour) and the analysis pages of a legal and an illegal game (its
broken cells outlined). QA pass 60 (mutation testing of the drawings) left 15 breaks that the targeted tests did not see: the hex
SVG's side angles, stub and rim colours, glyphs, Robofacture's cut lines and dots, the page's greying. Any change
to a drawing now shows here; a change made on purpose is looked at, then written anew with
`FACTORYFUN_REGOLD=1 python -m pytest tests/test_drawing_golden.py -n 0`.

Three documents are also drawn in the terminal's colours (`.ansi`: the escape codes a colour terminal gets), since
pass 60 left 4 breaks that only colour shows: pink's shade, a reservoir's arms, machine tones and the reverse video
of a broken Robofacture cell. `cat` such a file in a colour terminal to look at it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "golden"

#: paths relative to the checkout, which the drawings and messages print as given (so no clone's own path shows)
CASES = {
    "square-crossing": (["show", "instances/examples/legal-crossing.json"], "--svg", "svg"),
    "square-diagonal": (["show", "instances/examples/legal-diagonal.json"], "--svg", "svg"),
    "square-merge": (["show", "instances/examples/legal-merge-1-and-1-to-2.json"], "--svg", "svg"),
    "square-two-colours": (["show", "instances/examples/illegal-one-colour-red-into-green.json"], "--svg", "svg"),
    "hex-game": (["replay", "tests/data/analysis-funner-played.json"], "--svg", "svg"),
    "robofacture-cuts": (["robofacture", "check", "instances/robofacture/filled-cuts.json"], "--svg", "svg"),
    "analysis-page": (["analyze", "tests/data/analysis-played.json", "--plan", "tests/data/analysis-best.json"],
                      "--out", "html"),
    # (the plan's game a tile short, against the played one: the page outlines the broken cells; QA pass 60)
    "analysis-page-illegal": (["analyze", "tests/data/analysis-illegal-played.json", "--plan",
                               "tests/data/analysis-played.json"], "--out", "html"),
}


def _same_as_golden(name: str, produced: str, words_only: bool = False) -> None:
    """`words_only`: compared with runs of white space as one space, since a terminal's lines wrap at a width the
    test runner sets (a key line wrapped otherwise under pytest-xdist); the glyphs and their order still count."""
    golden = GOLDEN / name
    if os.environ.get("FACTORYFUN_REGOLD"):
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(produced)
    expected = golden.read_text()
    if words_only:
        produced, expected = " ".join(produced.split()), " ".join(expected.split())
    assert produced == expected, f"{name} differs from {golden}: look at it, then regold if it is right"


@pytest.mark.parametrize("name", CASES)
def test_a_drawing_is_the_one_looked_at(name, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    args, option, extension = CASES[name]
    picture = tmp_path / f"{name}.{extension}"   # (the title names the document, never this path)
    shown = CliRunner().invoke(main, [*args, option, str(picture)], env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert shown.exit_code in (0, 1), shown.output
    _same_as_golden(f"{name}.{extension}", picture.read_text())
    _same_as_golden(f"{name}.txt", shown.stdout, words_only=True)


#: drawn in colour: a square game (machine tones, output reservoirs' arms), a hex game (pink), a broken Robofacture space
COLOUR_CASES = {
    "square-game": ["replay", "instances/examples/rulebook-game.json"],
    "hex-game": ["replay", "tests/data/analysis-funner-played.json"],
    "robofacture-broken": ["robofacture", "check", "instances/robofacture/illegal-touching-and-overlap.json"],
}

#: a colour terminal's environment, wide enough that no line wraps (so the bytes, escape codes and all, can be compared)
COLOUR_TERMINAL = {"COLUMNS": "400", "FORCE_COLOR": "1", "TERM": "xterm-256color", "COLORTERM": "truecolor"}


@pytest.mark.parametrize("name", COLOUR_CASES)
def test_a_drawing_in_colour_is_the_one_looked_at(name):
    """In a process of its own: the command's consoles read the terminal's environment when they are made."""
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"} | COLOUR_TERMINAL
    shown = subprocess.run([sys.executable, "-c", "from cli import main; main()", *COLOUR_CASES[name]], cwd=ROOT,
                           env=env, capture_output=True, text=True, timeout=60)
    assert shown.returncode in (0, 1), shown.stderr
    assert "\x1b[" in shown.stdout, "no colour reached the terminal"
    _same_as_golden(f"{name}.ansi", shown.stdout)
