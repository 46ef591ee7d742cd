"""Which side a port, an arm, a tank's opening and an outline are drawn on, in the terminal and the SVG, for
square and hex layouts. QA pass 60 (mutation testing of the drawings): mutants that turned N into S, swapped hex
sides, drew inputs as outputs, opened Funner tanks away from their pipe, lettered a white reservoir END or drew a
violation's outline on the mirrored cell all lived, since the tests pinned what is drawn and not where. These
lines are the drawings of today's code, each read and found right against the layout it draws."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from models.paths import EXAMPLES_DIR

DATA = Path(__file__).resolve().parent / "data"


def drawn(*args) -> list[str]:
    """The terminal drawing's lines, without colour (a test's output is no terminal), ends stripped."""
    return [line.rstrip() for line in CliRunner().invoke(main, [str(a) for a in args]).stdout.splitlines()]


@pytest.mark.parametrize("args, lines", [
    # FF38's black output at W into END, its orange input 2 at E from a container: arrows point into the machine
    (("check", EXAMPLES_DIR / "legal-end-product.json"), [" 6           END ━←• FF38(11) 2←━ ORG"]),
    # FF08's inputs on its north side: arrows point down into it
    (("check", EXAMPLES_DIR / "rulebook-round2.json"), ["                     ↓2            ↓3"]),
    (("check", EXAMPLES_DIR / "legal-double-curve.json"), [" 4           OUT ━←1"]),
    # the diagonal tile's two pipes cross from the containers to the inputs below them
    (("check", EXAMPLES_DIR / "legal-diagonal.json"), ["              ╲      ╱", " 4               ╳",
                                                       "              ╱      ╲"]),
    # hexes: ports on their slanted sides, a Funner tank opening towards its pipe, a crossing (not a junction)
    (("replay", DATA / "funner-tokens.json"), ["                                    2↙    ↖2",
                                               "                           3↖       3↖    ↗1 2↖"]),
    (("replay", DATA / "analysis-funner-played.json"), [" 6         OUT ━━1← FN05←3━━━━●",
                                                        " 2         FN07←1━━━━╳━━━━━━ YEL      3,2       ●━━━━1→ FN48"]),
])
def test_the_terminal_draws_each_port_arm_and_opening_on_its_side(args, lines):
    shown = drawn(*args)
    for line in lines:
        assert line in shown, f"{line!r} not drawn"


def test_the_svg_draws_a_containers_stub_towards_its_port_and_an_outline_on_its_cell(tmp_path):
    crossing, quantity = tmp_path / "crossing.svg", tmp_path / "quantity.svg"
    CliRunner().invoke(main, ["show", str(EXAMPLES_DIR / "legal-crossing.json"), "--svg", str(crossing)])
    assert "M148.0,316.0 L148.0,352.0" in crossing.read_text()   # the red container's stub, pointing down
    CliRunner().invoke(main, ["show", str(EXAMPLES_DIR / "illegal-quantity-1-into-2.json"), "--svg", str(quantity)])
    (outline,) = re.findall(r'<polygon points="([^"]+)"[^>]*class="highlight" data-cell="1,2"', quantity.read_text())
    assert outline == "186.2,138.2 253.8,138.2 253.8,205.8 186.2,205.8"   # row 1, column 2


def test_a_file_name_with_markup_characters_still_makes_a_well_formed_svg(tmp_path):
    import xml.etree.ElementTree as ElementTree

    odd = tmp_path / "a&b<c>.json"
    odd.write_text((EXAMPLES_DIR / "legal-crossing.json").read_text())
    svg = tmp_path / "odd.svg"
    CliRunner().invoke(main, ["show", str(odd), "--svg", str(svg)])
    assert "a&amp;b&lt;c&gt;.json" in svg.read_text()
    ElementTree.fromstring(svg.read_text())


def test_input_and_output_chips_have_their_own_shapes_in_the_svg_and_the_legend_says_which(tmp_path):
    """An input's chip is notched to take the arrow, an output's points out (QA pass 60: swapped, both lived)."""
    svg = tmp_path / "end.svg"
    CliRunner().invoke(main, ["show", str(EXAMPLES_DIR / "legal-end-product.json"), "--svg", str(svg)])
    chips = {(kind, colour): re.search(r'<polygon points="([^"]+)"', body).group(1) for kind, colour, body in
             re.findall(r'<g class="port (input|output)" data-color="(\w+)">(.*?)</g>', svg.read_text(), re.S)}
    assert chips[("input", "orange")] == "0.0,-10.0 0.0,10.0 -12.0,10.0 -19.0,0.0 -12.0,-10.0"
    assert chips[("output", "black")] == "-20.0,-10.0 -7.0,-10.0 0.0,0.0 -7.0,10.0 -20.0,10.0"
    legend = drawn("check", EXAMPLES_DIR / "legal-end-product.json")
    assert "  ↓2          input: colour, amount, arrow into the machine" in legend
