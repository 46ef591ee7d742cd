"""The pictures show what the layout says: machines, pipe colours, highlights, rows."""
from __future__ import annotations

import math
from dataclasses import replace
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from models.board import load_boards
from models.layout import Layout, MachinePlacement, Tile, load_layout, parse_layout
from models.render import board_svg, draw_board, draw_layout, layout_svg
from models.render.palette import LEGEND, SVG_COLORS, SVG_LABELS, TERM_LABELS
from models.render.scene import layout_scene
from models.rulesets import get_ruleset

EXAMPLE = Path(__file__).resolve().parents[1] / "instances" / "examples" / "rulebook-round2.json"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def rulebook() -> Layout:
    return load_layout(EXAMPLE)


@pytest.fixture(scope="module")
def hex_layout() -> Layout:
    """FN27 at [1,1]: pink input on SE from a supply tank, pink output on NE to a white tank."""
    return parse_layout({
        "ruleset": "factory-funner", "board": "A",
        "machines": [{"id": "FN27", "cell": [1, 1], "rotation": 0}],
        "tiles": [
            {"kind": "supply", "color": "pink", "cell": [1, 2], "side": "NW"},
            {"kind": "output", "cell": [1, 0], "side": "SW"},
            {"kind": "pipe", "cell": [3, 1], "sides": ["E", "W"]},
            {"kind": "pipe", "cell": [3, 1], "sides": ["NE", "SW"]},
        ],
    })


def _groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def _machine_ports(root: ET.Element) -> list[ET.Element]:
    """Ports drawn on machines (the legend has port samples too)."""
    return [port for machine in _groups(root, "machine") for port in _groups(machine, "port")]


def _texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def test_layout_svg_has_one_group_per_machine_with_its_id(rulebook: Layout) -> None:
    root = ET.fromstring(layout_svg(rulebook, title="Round 2"))
    machines = _groups(root, "machine")
    assert sorted(g.get("data-id") for g in machines) == ["FF08", "FF39"]
    for group in machines:
        texts = _texts(group)
        assert group.get("data-id") in texts
        assert str(rulebook.catalog[group.get("data-id")].income) in texts
    assert "Round 2" in _texts(root)


def test_pipes_are_stroked_in_their_network_colour(rulebook: Layout) -> None:
    root = ET.fromstring(layout_svg(rulebook))
    pipes = _groups(root, "pipe")
    assert len(pipes) == len(rulebook.pipes) == 2
    for group in pipes:
        assert group.get("data-color") == "red"   # the red supply feeds both machines
        strokes = {p.get("stroke") for p in group.iter(f"{SVG}path") if p.get("class") == "pipe-stroke"}
        assert strokes == {SVG_COLORS["red"]}


def test_ports_show_direction_colour_and_amount(rulebook: Layout) -> None:
    root = ET.fromstring(layout_svg(rulebook))
    ports = _machine_ports(root)
    assert len(ports) == len(rulebook.ports) == 6
    assert sum("input" in g.get("class") for g in ports) == 4
    orange_out = [g for g in ports if "output" in g.get("class") and g.get("data-color") == "orange"]
    assert len(orange_out) == 1 and _texts(orange_out[0]) == ["2"]


def test_tanks_are_drawn_in_their_colours(rulebook: Layout) -> None:
    root = ET.fromstring(layout_svg(rulebook))
    tanks = {(g.get("class"), g.get("data-color")) for g in _groups(root, "tank")}
    assert tanks == {("tank supply", "red"), ("tank supply", "green"), ("tank output", "white")}


def test_tanks_name_their_colour_so_colour_alone_tells_no_network_apart(rulebook: Layout, hex_layout: Layout) -> None:
    """Red and green look alike to a deuteranope: each container carries its colour's letters, an output
    reservoir its network's (FF08's blue output), at a size that fits a barrel on both geometries."""
    root = ET.fromstring(layout_svg(rulebook))
    named = {g.get("data-color"): _texts(g) for g in _groups(root, "tank")}
    assert named == {"red": ["RED"], "green": ["GRN"], "white": ["BLU"]}
    for layout in (rulebook, hex_layout):
        for text in ET.fromstring(layout_svg(layout)).iter(f"{SVG}text"):
            if text.get("class") == "tank-letters":
                assert 7 <= float(text.get("font-size")) <= 11   # readable, and three bold letters fit the barrel

def _feed_names(layout: Layout) -> list[tuple[str | None, list[str]]]:
    board = [g for g in _groups(ET.fromstring(layout_svg(layout)), "feed-names")][0]
    return [(g.get("data-color"), _texts(g)) for g in _groups(board, "feed-name")]


def test_a_feed_through_pipes_is_named_once_on_them() -> None:
    """A feed has no tank to carry its letters, so a reader who does not tell its colour from the next reads it on
    one of its pipes (a straight one, near their middle); networks named on their tanks are not named again."""
    layout = load_layout(EXAMPLE.parent / "legal-merge-1-and-1-to-2.json")
    assert _feed_names(layout) == [("green", ["GRN"])]
    # its pipes: (2, 3) straight down from FF04, (3, 3) where FF23's joins, (3, 2) bending in from FF23: the tag
    # goes on the straight one, whose centre the pipe crosses (a curve passes beside it)
    assert layout_scene(layout).named == (((2, 3), "green"),)


def test_networks_with_lettered_tanks_or_no_pipe_are_not_named_again(rulebook: Layout, hex_layout: Layout) -> None:
    """The rulebook's round 2 feeds FF39 into FF08 port to port and every piped network ends at a lettered tank."""
    assert _feed_names(rulebook) == []
    assert _feed_names(hex_layout) == []


def test_highlighted_cell_is_outlined_in_red(rulebook: Layout) -> None:
    root = ET.fromstring(layout_svg(rulebook, highlight_cells=[(4, 4)]))
    marks = [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "highlight"]
    assert [m.get("data-cell") for m in marks] == ["4,4"]
    assert marks[0].get("stroke") == "#e0201b" and float(marks[0].get("stroke-width")) >= 3
    assert not [p for p in ET.fromstring(layout_svg(rulebook)).iter(f"{SVG}polygon") if p.get("class") == "highlight"]


def test_board_svg_shows_blocked_cells_and_pillars() -> None:
    board = load_boards(get_ruleset("factory-fun"))["classic-A"]
    root = ET.fromstring(board_svg(board, get_ruleset("factory-fun").all_colors))
    classes = [p.get("class") for p in root.iter(f"{SVG}polygon")]
    assert classes.count("blocked") == len(board.blocked) == 3
    assert classes.count("pillar") == len(board.pillars) == 1
    assert classes.count("cell") == len(board.cells)
    legend = _texts(_groups(root, "legend")[0])
    shown = [entry.key for entry in LEGEND if entry.label in legend]
    assert shown == ["pillar", "blocked"]   # (QA: it explained machines, pipes and reservoirs not there)


def test_an_empty_boards_legend_explains_only_what_the_board_has() -> None:
    board = load_boards(get_ruleset("factory-fun"))["classic-A"]
    plain = draw_board(board, get_ruleset("factory-fun").all_colors).plain
    legend = plain[plain.index("Legend"):]
    assert "pillar" in legend and "blocked cell" in legend and "colours:" in legend
    assert not any(entry.label in legend for entry in LEGEND if entry.key not in ("pillar", "blocked"))
    bare = replace(board, blocked=frozenset(), pillars=frozenset())
    assert not any(entry.label in draw_board(bare, ()).plain for entry in LEGEND)


def test_a_layouts_legend_explains_everything_in_every_picture(rulebook: Layout) -> None:
    """One legend serves all of a report's pictures, so a layout's lists every entry, in both drawings."""
    legend = _texts(_groups(ET.fromstring(layout_svg(rulebook)), "legend")[0])
    plain = draw_layout(rulebook).plain
    for entry in LEGEND:
        if entry.key in ("diagonal", "bonus"):   # (only where one is: QA saw none in the legend of a layout with one)
            assert entry.label not in legend and entry.label not in plain
            continue
        assert SVG_LABELS.get(entry.key, entry.label) in legend
        assert TERM_LABELS.get(entry.key, entry.label) in plain or entry.key == "machine"   # (the terminal's machine entry says less)
    diagonal = load_layout(EXAMPLE.parent / "legal-diagonal.json")
    label = next(entry.label for entry in LEGEND if entry.key == "diagonal")
    assert label in _texts(_groups(ET.fromstring(layout_svg(diagonal)), "legend")[0])
    assert label in draw_layout(diagonal).plain


def test_text_drawing_has_a_block_per_row_and_the_machine_ids(rulebook: Layout) -> None:
    plain = draw_layout(rulebook).plain
    assert "FF39" in plain and "FF08" in plain
    row_labels = [int(m.group(1)) for m in re.finditer(r"^ ?(\d+) {2}", plain, re.MULTILINE)]
    assert row_labels == list(range(rulebook.board.rows))
    lines = plain.splitlines()
    first = next(i for i, line in enumerate(lines) if re.match(r"^ ?0 {2}", line))
    assert re.match(r"^ ?1 {2}", lines[first + 3])      # three text lines per board row
    assert "━" in plain and "RED" in plain and "OUT" in plain


def test_the_text_legend_names_what_a_terminal_machine_shows(rulebook: Layout, hex_layout: Layout) -> None:
    # a square machine shows its id and income, a hex cell only its id (the SVG adds the circled income and name)
    assert "FF39 (9)" in draw_layout(rulebook).plain and "machine: id (income)" in draw_layout(rulebook).plain
    plain = draw_layout(hex_layout).plain
    assert "machine: id (the SVG adds income and name)" in plain and "income (circled)" not in plain


def test_a_two_digit_income_never_runs_into_a_port_amount() -> None:
    """FF15 (income 10) side by side with a W input of 2 and an E output of 1: the id, the income and both
    ports stay apart ("→2FF15 (10)" ran the id into the amount)."""
    layout = parse_layout({
        "ruleset": "factory-fun", "board": "classic-A",
        "machines": [{"id": "FF15", "cell": [5, 2], "rotation": 0}],
        "tiles": [{"kind": "supply", "color": "blue", "cell": [5, 1]},
                  {"kind": "supply", "color": "orange", "cell": [4, 2]}, {"kind": "output", "cell": [5, 4]}],
    })
    row = next(line for line in draw_layout(layout).plain.splitlines() if "FF15" in line)
    assert re.search(r"→2 FF15\(10\) 1→", row), row
    legend = draw_layout(layout).plain.split("Legend\n")[1].splitlines()[:10]   # its texts start in one column
    assert len({line.index(text) for line, text in zip(legend, ("machine:", "input:", "output:", "pipe "))}) == 1


def test_text_highlight_dots_a_cell_in_red_and_keeps_its_content(rulebook: Layout) -> None:
    """Red dots on a violation's blank characters (a red background hid red ports and pipes: QA)."""
    def dots(text) -> int:
        return sum(text.plain[s.start:s.end].count("·") for s in text.spans if "red3" in str(s.style))

    legend_only = dots(draw_layout(rulebook))
    marked = draw_layout(rulebook, highlight_cells=[(5, 4)])   # FF08, its ports and its name
    assert dots(marked) > legend_only
    assert not any("on red3" in str(s.style) for s in marked.spans)
    assert "FF08" in marked.plain


def test_empty_boards_draw_in_text() -> None:
    board = load_boards(get_ruleset("factory-fun"))["expert-A"]
    plain = draw_board(board, get_ruleset("factory-fun").all_colors).plain
    assert plain.count("▓") == 4 * 7 * 3 + 3      # four pillars of 7x3 characters, and the legend
    hex_board = load_boards(get_ruleset("factory-funner"))["A"]
    assert "3,1" in draw_board(hex_board, get_ruleset("factory-funner").all_colors).plain


def test_hex_layout_renders_in_svg_and_text(hex_layout: Layout) -> None:
    root = ET.fromstring(layout_svg(hex_layout))
    machines = _groups(root, "machine")
    assert [g.get("data-id") for g in machines] == ["FN27"]
    assert "Multiplier" in _texts(machines[0])
    hexes = [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "cell"]
    assert len(hexes) == 41 and all(len(h.get("points").split()) == 6 for h in hexes)
    assert len(_groups(root, "pipe")) == 2
    assert {g.get("data-color") for g in _machine_ports(root)} == {"pink"}
    plain = draw_layout(hex_layout, highlight_cells=[(1, 1)]).plain
    assert "FN27" in plain and "PNK" in plain and "OUT" in plain


def test_hex_odd_rows_sit_half_a_hex_left(hex_layout: Layout) -> None:
    """Cell [0,1] (odd row) lies left of [0,0], and [1,1] lies between [0,0] and [1,0]."""
    board = hex_layout.board
    root = ET.fromstring(board_svg(board, hex_layout.ruleset.all_colors))
    cells = [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "cell"]
    centres = {}
    for cell, poly in zip(sorted(board.cells), cells):
        xs = [float(pt.split(",")[0]) for pt in poly.get("points").split()]
        centres[cell] = sum(xs) / len(xs)
    assert centres[(0, 1)] < centres[(0, 0)] < centres[(1, 1)] < centres[(1, 0)]


def test_diagonal_tile_and_crossing_draw_two_pipes() -> None:
    ruleset = get_ruleset("factory-fun")
    base = parse_layout({"ruleset": "factory-fun", "board": "classic-A", "machines": [], "tiles": []})
    layout = base.with_parts(
        machines=(MachinePlacement("FF41", (1, 1), 90),),
        tiles=(Tile("diagonal", (5, 5), rotation=0), Tile("pipe", (2, 3), sides=("N", "S")), Tile("pipe", (2, 3), sides=("E", "W"))),
    )
    layout.options["diagonal_intersection"] = True
    assert ruleset.diagonal_available
    root = ET.fromstring(layout_svg(layout))
    assert len(_groups(root, "pipe")) == 4
    assert len(_groups(root, "diagonal-tile")) == 1
    plain = draw_layout(layout).plain
    assert "╳" in plain and "FF41" in plain


def test_legend_samples_use_the_games_own_colours() -> None:
    """A first-edition legend showed a green pipe and an orange container, colours that game has not."""
    from models.render.palette import legend_colours
    assert legend_colours(get_ruleset("factory-fun").all_colors) == {
        "input": "red", "output": "blue", "pipe": "green", "supply": "orange"}
    first = legend_colours(get_ruleset("factory-fun-2006").all_colors)
    assert first == {"input": "red", "output": "blue", "pipe": "yellow", "supply": "brown"}


def test_the_hex_legend_calls_the_funners_tanks_tanks(hex_layout: Layout) -> None:
    plain = draw_layout(hex_layout).plain
    assert "supply tank (its colour, named on it)" in plain and "white tank (output)" in plain and "reservoir" not in plain
    assert "supply tank (its colour, named on it)" in layout_svg(hex_layout)


@pytest.mark.parametrize("drawn", ["rulebook", "hex_layout"])
def test_the_income_badge_keeps_off_every_port_chip(drawn: str, request) -> None:
    """FF39's badge stood over its red input, FN16's over its yellow output (QA): every badge now clears every
    chip of its machine (a chip reaches 20 px in from its side, 10 px either way along it). FN27 has ports by
    both vertices, so its badge is the small one in the top corner."""
    root = ET.fromstring(layout_svg(request.getfixturevalue(drawn)))
    for machine in _groups(root, "machine"):
        badge = next(c for c in machine.iter(f"{SVG}circle") if c.get("class") == "income")
        bx, by, radius = float(badge.get("cx")), float(badge.get("cy")), float(badge.get("r"))
        for chip in machine.iter(f"{SVG}g"):
            found = re.match(r"translate\(([-\d.]+),([-\d.]+)\) rotate\(([-\d.]+)\)", chip.get("transform") or "")
            if not found:
                continue
            x, y, angle = map(float, found.groups())
            a = math.radians(angle)
            u = (bx - x) * math.cos(a) + (by - y) * math.sin(a)        # out of the machine
            v = -(bx - x) * math.sin(a) + (by - y) * math.cos(a)       # along the side
            gap = math.hypot(max(0.0, abs(v) - 10), max(0.0, u, -20 - u))
            assert gap >= radius, (machine.get("data-id"), gap)


def _machine_names(root: ET.Element) -> dict[str, tuple[list[str], list[float], str]]:
    """Per machine id: its name lines, their font sizes, and its hover title."""
    out = {}
    for group in _groups(root, "machine"):
        names = [t for t in group.iter(f"{SVG}text") if t.get("class") == "machine-name"]
        out[group.get("data-id")] = ([t.text or "" for t in names], [float(t.get("font-size")) for t in names],
                                     group.find(f"{SVG}title").text)
    return out


def test_a_hex_machine_name_fits_between_its_side_chips() -> None:
    # FN24 Metamorphizor has ports on W and E: the name line between the chips holds a few characters, so it is
    # cut with an ellipsis (QA saw it drawn under both chips); FN38 Solidificator has a W chip only and is drawn
    # whole in a smaller font; the hover title always has the whole name
    layout = parse_layout({"ruleset": "factory-funner", "board": "A", "tiles": [], "machines": [
        {"id": "FN24", "cell": [1, 1], "rotation": 0}, {"id": "FN38", "cell": [4, 4], "rotation": 0}]})
    names = _machine_names(ET.fromstring(layout_svg(layout)))
    lines, sizes, title = names["FN24"]
    assert len(lines) == 1 and lines[0].endswith("\u2026") and "Metamorphizor".startswith(lines[0][:-1])
    assert title == "FN24 Metamorphizor, income 10"
    lines, sizes, title = names["FN38"]
    assert lines == ["Solidificator"] and sizes[0] < 9
    assert title == "FN38 Solidificator, income 7"


def test_a_square_machine_name_keeps_its_size_and_wraps_at_spaces(rulebook: Layout) -> None:
    names = _machine_names(ET.fromstring(layout_svg(rulebook)))
    for lines, sizes, title in names.values():
        assert sizes and all(size == 9 for size in sizes) and not any(line.endswith("\u2026") for line in lines)
        assert " ".join(lines) in title


def test_a_boards_legend_shows_its_rulesets_colours() -> None:
    """QA: the Funner board's legend drew every sample red, a colour Funner has not."""
    funner = get_ruleset("factory-funner")
    board = load_boards(funner)["A"]
    assert SVG_COLORS["red"] not in board_svg(board, funner.all_colors)
    assert SVG_COLORS["pink"] in board_svg(board, funner.all_colors)
    assert "RED" not in draw_board(board, funner.all_colors).plain


def test_a_crowded_hex_shows_its_income_over_its_chips_and_under_no_highlight() -> None:
    """QA: FN16 (ports by its NW and NE sides) had its badge hidden under both chips, a rule violation's
    outline was drawn over badges and port amounts, and a gold badge read as a yellow port in Funner."""
    funner = get_ruleset("factory-funner")
    layout = parse_layout({"ruleset": "factory-funner", "board": "A", "tiles": [],
                           "machines": [{"id": "FN16", "cell": [0, 0], "rotation": 0}]}, "fn16.json")
    root = ET.fromstring(layout_svg(layout, highlight_cells=[(0, 0)]))
    layers = [g.get("class") for g in root if g.get("class") in ("highlights", "machines")]
    assert layers == ["highlights", "machines"]
    machine = _groups(root, "machine")[0]
    kinds = [child.get("class") for child in machine if child.get("class") in ("port input", "port output", "income")]
    assert kinds[-1] == "income" and len(kinds) > 3   # the badge after (over) every chip
    badge = next(c for c in machine.iter(f"{SVG}circle") if c.get("class") == "income")
    assert badge.get("fill") not in {SVG_COLORS[c] for c in funner.all_colors}


def test_a_crowded_hexs_badge_clears_every_chip_and_holds_two_digits() -> None:
    """QA: FN16 (income 11; chips by its NW, NE, W and SE sides) had a ring of radius 7 squeezed between its
    NW and NE chips, the digits wider than the ring."""
    layout = parse_layout({"ruleset": "factory-funner", "board": "A", "tiles": [],
                           "machines": [{"id": "FN16", "cell": [2, 2], "rotation": 0}]}, "fn16.json")
    machine = _groups(ET.fromstring(layout_svg(layout)), "machine")[0]
    badge = next(c for c in machine.iter(f"{SVG}circle") if c.get("class") == "income")
    centre, radius = (float(badge.get("cx")), float(badge.get("cy"))), float(badge.get("r"))
    chips = []
    for group in machine.iter(f"{SVG}g"):
        found = re.match(r"translate\(([-\d.]+),([-\d.]+)\) rotate\(([-\d.]+)\)", group.get("transform") or "")
        if found:   # the chip's middle: 10 px inside its side's middle
            x, y, angle = (float(v) for v in found.groups())
            chips.append((x - 10 * math.cos(math.radians(angle)), y - 10 * math.sin(math.radians(angle))))
    assert len(chips) == 4
    assert radius >= 8.5 and all(math.dist(centre, chip) >= radius + 10 for chip in chips)


def test_a_hex_feed_port_to_port_keeps_its_two_amounts_apart_in_the_terminal() -> None:
    """QA: FN45's W output of 2 into FN38's E input of 1 read "FN38←12← FN45", a machine's "12"."""
    layout = parse_layout({"ruleset": "factory-funner", "board": "A", "tiles": [],
                           "machines": [{"id": "FN38", "cell": [4, 3], "rotation": 5},
                                        {"id": "FN45", "cell": [5, 3], "rotation": 0}]}, "ew.json")
    plain = draw_layout(layout).plain
    assert "FN38←1 2←FN45" in plain and "12" not in plain
    alone = parse_layout({"ruleset": "factory-funner", "board": "A", "tiles": [],
                          "machines": [{"id": "FN45", "cell": [5, 3], "rotation": 0}]}, "fn45.json")
    assert "2← FN45" in draw_layout(alone).plain   # (a W chip facing no port keeps its place)


#: the ends each box-drawing glyph of the square terminal drawing opens towards: (dx, dy)
_GLYPH_ENDS = {"┃": {(0, -1), (0, 1)}, "━": {(-1, 0), (1, 0)}, "┗": {(0, -1), (1, 0)}, "┛": {(0, -1), (-1, 0)},
               "┏": {(0, 1), (1, 0)}, "┓": {(0, 1), (-1, 0)}}


@pytest.mark.parametrize("curve", ["N E", "S W", "N W", "S E"])
def test_a_curve_hugging_its_corner_is_one_unbroken_line_from_side_to_side(curve: str) -> None:
    """QA: in a double curve the S-W arc's glyphs pointed up into an empty cell (`━━┛` over `┏━┓`). Each hugging
    curve must run glyph to glyph, from its first side's edge of the block to its second's."""
    from models.render.text import SQUARE_BLOCK, _sides

    path = SQUARE_BLOCK.hugs[_sides(curve)]
    edge = {"N": (0, -1), "S": (0, 1), "W": (-1, 0), "E": (1, 0)}
    first, last = curve.split()
    cells = [(x, y) for x, y, _ in path]
    for k, (x, y, glyph) in enumerate(path):
        back = edge[first] if k == 0 else (cells[k - 1][0] - x, cells[k - 1][1] - y)
        on = edge[last] if k == len(path) - 1 else (cells[k + 1][0] - x, cells[k + 1][1] - y)
        assert _GLYPH_ENDS[glyph] == {back, on}, (curve, (x, y, glyph))


def test_a_long_custom_machine_id_is_cut_to_its_machine_in_the_terminal_and_the_svg(rulebook: Layout) -> None:
    """QA: a custom catalogue's 20-character id ran across the next cells in the terminal and over the income badge
    and a port chip in the SVG. It is cut with an ellipsis; the SVG's title keeps it whole."""
    long_id = "SUPERLONGMACHINEID39"
    first = rulebook.machines[0]
    machines = dict(rulebook.catalog.machines)
    machines[long_id] = replace(machines[first.id], id=long_id)
    catalog = replace(rulebook.catalog, machines=machines)
    layout = replace(rulebook, catalog=catalog, machines=(replace(first, id=long_id),) + rulebook.machines[1:])
    drawn = draw_layout(layout).plain
    assert "SUPERL…" in drawn and "ID39" not in drawn   # (its tail once landed beyond an end reservoir)
    root = ET.fromstring(layout_svg(layout))
    machine = next(g for g in _groups(root, "machine") if g.get("data-id") == long_id)
    shown = [t.text for t in machine.iter(f"{SVG}text") if "machine-id" in (t.get("class") or "")]
    assert shown and shown[0].endswith("…") and len(shown[0]) <= 9
    assert long_id in next(machine.iter(f"{SVG}title")).text


@pytest.mark.parametrize("title_length", [10, 110, 300])
def test_the_picture_is_wide_enough_for_its_title(rulebook: Layout, title_length: int) -> None:
    """QA: a long file name's title ran past the right edge (x 1133 in a 1112-wide picture); DejaVu Sans Bold
    at 18 px is about 10 px a character, so the picture must give it that much and more."""
    from models.render.svg import LEFT, TITLE_SIZE

    title = "x" * title_length
    root = ET.fromstring(layout_svg(rulebook, title=title))
    width = float(root.get("viewBox").split()[2])
    assert width == float(root.get("width"))
    assert width >= LEFT + 0.55 * TITLE_SIZE * title_length
    if title_length == 10:   # a short title leaves the picture as the board and legend make it
        assert width == float(ET.fromstring(layout_svg(rulebook, title="x")).get("width"))


def test_a_narrow_hex_board_keeps_its_key_line_whole(tmp_path) -> None:
    """QA: a one-hex-wide board cut the key to "q,r in each empty hex;"."""
    from click.testing import CliRunner

    from cli import main

    boards = tmp_path / "column.json"
    boards.write_text('{"ruleset": "factory-funner", "boards": [{"id": "col", "geometry": "hex", "rows": 7, "cols": 1}]}')
    shown = CliRunner().invoke(main, ["boards", "col", "--ruleset", "factory-funner", "--boards", str(boards)])
    assert shown.exit_code == 0 and "q,r in each empty hex\n" in shown.output and ";" not in shown.output


def _title(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "title"]


def test_a_long_title_of_words_wraps_and_moves_the_picture_down(rulebook: Layout) -> None:
    """QA: a puzzle's one-line question made a 5 x 5 board's picture 2 000 px wide."""
    title = " ".join(["a question of many words"] * 12)
    root = ET.fromstring(layout_svg(rulebook, title=title))
    plain = ET.fromstring(layout_svg(rulebook, title="short"))
    lines = _title(root)
    assert len(lines) > 1 and " ".join(lines) == title
    assert root.get("width") == plain.get("width")
    assert float(root.get("height")) > float(plain.get("height"))
    assert re.search(r'<g transform="translate\(0,\d+\)"', layout_svg(rulebook, title=title))
    assert _title(plain) == ["short"]


def test_hex_cells_are_numbered_only_where_nothing_stands(hex_layout: Layout) -> None:
    """QA: the q,r of cells under tanks and pipes peeked out from under them."""
    texts = set(_texts(ET.fromstring(layout_svg(hex_layout))))
    assert "0,0" in texts and "2,2" in texts
    assert not {"1,1", "1,2", "1,0", "3,1"} & texts   # the machine, the two tanks, the crossing
    assert {"1,1", "3,1"} <= set(_texts(ET.fromstring(board_svg(hex_layout.board, hex_layout.ruleset.all_colors))))


def test_a_multi_colour_inputs_bands_leave_its_arrow_tip_and_outline_whole() -> None:
    """QA: an input accepting pink or yellow was banded over its tip, a square block with no arrow."""
    from models.render.scene import PortView
    from models.render.svg import _LegendPlot, _port

    def bands(is_input: bool) -> tuple[list[float], ET.Element]:
        chip = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{_port(_LegendPlot(0, 0, 0), PortView((0, 0), "E", is_input, ("pink", "yellow"), 2))}</svg>')
        return [float(r.get("x")) for r in chip.iter(f"{SVG}rect")], list(chip.iter(f"{SVG}polygon"))[-1]

    xs, outline = bands(True)
    assert len(xs) == 2 and min(xs) > -12   # on the body (x -12..0), not over the tip at -19
    assert outline.get("fill") == "none"    # the chip's outline drawn over the bands
    xs, _ = bands(False)
    assert min(xs) >= -20 and max(xs) + 11 <= -7   # an output's body, behind its tip at 0


def test_a_pipe_only_crossing_a_junctions_hex_is_drawn_over_it() -> None:
    """QA: a straight pink pipe through a hex holding a blue splitter read as joined at the splitter's dot."""
    layout = parse_layout({
        "ruleset": "factory-funner", "board": "A", "machines": [],
        "tiles": [{"kind": "pipe", "cell": [3, 1], "sides": ["SW", "NE"]},
                  {"kind": "pipe", "cell": [3, 1], "sides": ["E", "SE", "W"]}],
    })
    pipes = _groups(ET.fromstring(layout_svg(layout)), "pipe")
    assert [len(list(g.iter(f"{SVG}circle"))) for g in pipes] == [1, 0]   # the splitter first, its dot under


def test_a_bonus_machine_shows_its_plus_and_the_legend_says_why() -> None:
    """QA: two red containers beside FF22 looked like a broken supply limit, with nothing saying FF22 allows it."""
    bonus = load_layout(EXAMPLE.parent / "legal-bonus-supply.json")
    root = ET.fromstring(layout_svg(bonus))
    ids = {"".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "machine-id"}
    assert ids == {"FF22+", "FF04"}
    plus = next(t for t in root.iter(f"{SVG}tspan") if t.get("class") == "bonus")
    assert plus.get("fill") == SVG_COLORS["red"]
    # "FF22+" starts where the whole id is centred on the box (cairosvg centres by the first run only, and drew
    # the "+" outside the box: QA); the box of the machine is FF22's cells' middle
    from models.render.svg import BOLD, name_ems

    text = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "machine-id" and "".join(t.itertext()) == "FF22+")
    middle = float(text.get("x")) + BOLD * float(text.get("font-size")) * name_ems("FF22+") / 2
    box = next(g for g in _groups(root, "machine") if g.get("data-id") == "FF22").find(f"{SVG}rect")
    assert text.get("text-anchor") == "start"
    assert middle == pytest.approx(float(box.get("x")) + float(box.get("width")) / 2, abs=0.1)
    label = next(entry.label for entry in LEGEND if entry.key == "bonus")
    assert label in _texts(_groups(root, "legend")[0])
    plain = draw_layout(bonus).plain
    assert "FF22+" in plain and "one more supply container" in plain


def test_a_dominos_name_keeps_off_its_border() -> None:
    """QA: "Miniboom-101" on an upright FF09 was scaled to the box's full width, its letters over the border."""
    from models.render.svg import NAME_MARGIN, name_ems

    layout = load_layout(EXAMPLE.parent / "illegal-black-network-shared-end.json")
    root = ET.fromstring(layout_svg(layout))
    for name in (t for t in root.iter(f"{SVG}text") if t.get("class") == "machine-name"):
        width = name_ems(name.text) * float(name.get("font-size"))
        assert width <= 72 - NAME_MARGIN + 0.01 and NAME_MARGIN > 8   # (a square cell is 72 px: a domino's narrow
        # side; the box is inset 4 px a side, so a margin of 8 put the letters on its border)


def test_a_hex_machines_id_keeps_clear_of_its_w_and_e_chips(hex_layout: Layout) -> None:
    """QA: "FN33" between its W and E chips touched both (0.5 px at most); with no chip there it keeps 14 px."""
    from models.render.svg import ID_CHAR, ID_CLEAR

    def id_size(layout: Layout) -> tuple[str, float]:
        text = next(t for t in ET.fromstring(layout_svg(layout)).iter(f"{SVG}text") if t.get("class") == "machine-id")
        return text.text, float(text.get("font-size"))

    shown, size = id_size(parse_layout({"ruleset": "factory-funner", "board": "A", "tiles": [],
                                        "machines": [{"id": "FN33", "cell": [4, 4], "rotation": 0}]}))
    apothem, chip = 46 * math.cos(math.pi / 6), 20   # a hex's centre to a side; a chip's depth inside it
    assert ID_CHAR * size * len(shown) / 2 <= apothem - chip - ID_CLEAR / 2
    assert id_size(hex_layout) == ("FN27", 14)


def test_a_title_of_wide_letters_fits_its_picture(rulebook: Layout) -> None:
    """QA: a 165-character file name reckoned at 0.6 em a letter ran 170 px past the edge; DejaVu Sans Bold's
    "m" is 1.04 em wide."""
    from models.render.svg import LEFT

    title = "m" * 120
    assert float(ET.fromstring(layout_svg(rulebook, title=title)).get("width")) >= LEFT + 1.04 * 18 * 120


def test_the_legend_is_as_wide_as_its_longest_line():
    """QA: the "+" line ran about 40 px past a layout picture's right edge, and the pipe line 2 px past the
    report's legend: the legend widens to its longest line (measured as `name_ems` measures names)."""
    from models.render.svg import LEGEND_WIDTH, legend_svg, legend_width, name_ems

    bonus = load_layout(EXAMPLE.parent / "legal-bonus-supply.json")
    root = ET.fromstring(layout_svg(bonus))
    legend = _groups(root, "legend")[0]
    start = float(next(t for t in legend.iter(f"{SVG}text") if t.text == "Legend").get("x"))
    longest = max(name_ems(text) for text in _texts(legend))
    assert float(root.get("width")) >= start + 62 + 11 * longest
    assert legend_width(layout_scene(bonus)) > LEGEND_WIDTH   # (the "+" line is the longest)
    alone = ET.fromstring(legend_svg(bonus))
    assert float(alone.get("width")) >= 12 + 62 + 11 * longest


def test_a_multicolour_port_is_drawn_in_the_colour_its_network_carries() -> None:
    """QA pass 43: FN33's pink-or-yellow input, fed from a yellow tank, was drawn pink and yellow; unjoined,
    nothing settles its colour, so it keeps both."""
    body = {"ruleset": "factory-funner", "board": "A",
            "machines": [{"id": "FN33", "cell": [2, 2], "rotation": 0}],
            "tiles": [{"kind": "supply", "color": "yellow", "cell": [3, 2], "side": "W"},
                      {"kind": "supply", "color": "blue", "cell": [3, 1], "side": "SW"},
                      {"kind": "end", "cell": [1, 2], "side": "E"}]}
    east_input = next(p for p in layout_scene(parse_layout(body)).ports if p.side == "E")
    assert east_input.colors == ("yellow",)
    body["tiles"] = []
    east_input = next(p for p in layout_scene(parse_layout(body)).ports if p.side == "E")
    assert set(east_input.colors) == {"pink", "yellow"}
