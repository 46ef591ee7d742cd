"""Robofacture parts puzzle (RULES 3): every rule broken and honoured, the parts' colouring, and shipping."""
from __future__ import annotations

import pytest

from models.robofacture.check import PRINTED, check
from models.robofacture.parts import SHAPES, Part, Placement, covered, orientations
from models.robofacture.puzzle import Puzzle, Space
from models.robofacture.shipping import BASES, Shipment, base_of, best_shipment, product_colours, shipment_at

RED, BLUE, WHITE = Part("mono", ("red",)), Part("mono", ("blue",)), Part("mono", ("white",))


def puzzle(rows, cols, parts, placed, player="red", premarked=()):
    return Puzzle(Space(rows, cols, player, frozenset(premarked)), tuple(parts),
                  tuple(Placement(i, cell, rot, flip) for i, cell, rot, flip in placed))


def rules_of(p):
    return sorted({v.rule for v in check(p).violations})


def filled_from(picture: str) -> dict:
    """'rb.\\nw..' -> filled cells: r red, b blue, y yellow, g green, w white, . empty."""
    names = {"r": "red", "b": "blue", "y": "yellow", "g": "green", "w": "white"}
    return {(r, c): names[ch] for r, line in enumerate(picture.split()) for c, ch in enumerate(line) if ch != "."}


# -- parts: shapes, checkerboard colours, turns and flips ---------------------------------------------------
def test_part_shapes_have_their_printed_sizes():
    assert {kind: len(cells) for kind, cells in SHAPES.items()} == {
        "mono": 1, "I3": 3, "L3": 3, "L4": 4, "T4": 4, "S4": 4, "L5": 5, "T5": 5, "M5": 5}


@pytest.mark.parametrize("kind", [k for k in SHAPES if k != "mono"])
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("flip", [False, True])
def test_a_placed_part_keeps_its_checkerboard(kind, rotation, flip):
    cells = covered(Part(kind, ("red", "blue")), Placement(0, (3, 3), rotation, flip))
    assert len(cells) == len(SHAPES[kind]) and min(r for r, _ in cells) == 3 and min(c for _, c in cells) == 3
    for (r, c), colour in cells.items():
        for other in ((r, c + 1), (r + 1, c)):
            if other in cells:
                assert cells[other] != colour   # touching cells of a part always differ


def test_turning_an_i3_stands_it_up_and_flipping_an_l3_mirrors_it():
    i3 = Part("I3", ("red", "blue"))
    assert covered(i3, Placement(0, (0, 0), 90)) == {(0, 0): "red", (1, 0): "blue", (2, 0): "red"}
    l3 = Part("L3", ("red", "blue"))
    assert set(covered(l3, Placement(0, (0, 0)))) == {(0, 0), (1, 0), (1, 1)}
    assert set(covered(l3, Placement(0, (0, 0), 0, True))) == {(0, 1), (1, 1), (1, 0)}


def test_orientations_are_the_distinct_coloured_pictures():
    assert len(orientations(RED)) == 1
    assert len(orientations(Part("I3", ("red", "blue")))) == 2
    assert len(orientations(Part("T5", ("red", "blue")))) == 4
    assert len(orientations(Part("L4", ("red", "blue")))) == 8


# -- the space's rules ----------------------------------------------------------------------------------------
def test_a_part_inside_the_space_is_legal_and_one_reaching_out_is_not():
    i3 = Part("I3", ("red", "blue"))
    assert rules_of(puzzle(3, 3, [i3], [(0, (0, 0), 0, False)])) == []
    broken = check(puzzle(3, 3, [i3], [(0, (0, 1), 0, False)]))
    assert [v.rule for v in broken.violations] == ["inside"] and broken.violations[0].cells == ((0, 3),)


def test_parts_never_overlap():
    assert rules_of(puzzle(2, 2, [RED, BLUE], [(0, (0, 0), 0, False), (1, (0, 0), 0, False)])) == ["overlap"]
    assert rules_of(puzzle(2, 2, [RED, BLUE], [(0, (0, 0), 0, False), (1, (1, 1), 0, False)])) == []


def test_a_part_lying_over_another_is_judged_against_its_neighbours_too():
    """QA pass 47: a blue part over a red one beside a blue cell broke two rules, and only the overlap was
    reported (the second part's colour was never compared)."""
    broken = check(puzzle(2, 2, [BLUE, RED, BLUE], [(0, (0, 0), 0, False), (1, (0, 1), 0, False),
                                                    (2, (0, 1), 0, False)]))
    assert [(v.rule, v.cells, v.parts) for v in broken.violations] == [
        ("overlap", ((0, 1),), (1, 2)), ("same-colour", ((0, 0), (0, 1)), (0, 2))]
    assert broken.filling.colours == {(0, 0): "blue", (0, 1): "red"}
    three = check(puzzle(2, 2, [RED, BLUE, WHITE], [(0, (0, 0), 0, False), (1, (0, 0), 0, False),
                                                   (2, (0, 0), 0, False)]))
    assert [v.parts for v in three.violations if v.rule == "overlap"] == [(0, 1), (0, 2), (1, 2)]


def test_a_premarked_cell_may_be_covered_and_shows_the_player_colour_until_then():
    open_space = check(puzzle(2, 2, [], [], player="green", premarked=[(1, 1)]))
    assert open_space.filling.colours == {(1, 1): "green"} and open_space.filling.owner == {(1, 1): PRINTED}
    covered_space = check(puzzle(2, 2, [BLUE], [(0, (1, 1), 0, False)], player="green", premarked=[(1, 1)]))
    assert covered_space.legal and covered_space.filling.colours == {(1, 1): "blue"}


def test_same_colour_cells_may_not_touch_except_white():
    assert rules_of(puzzle(2, 2, [RED, RED], [(0, (0, 0), 0, False), (1, (0, 1), 0, False)])) == ["same-colour"]
    # one above the other too (QA pass 56: a mutant that compared only cells side by side lived)
    assert rules_of(puzzle(2, 2, [BLUE, BLUE], [(0, (0, 0), 0, False), (1, (1, 0), 0, False)])) == ["same-colour"]
    assert rules_of(puzzle(2, 2, [RED, RED], [(0, (0, 0), 0, False), (1, (1, 1), 0, False)])) == []   # diagonal
    assert rules_of(puzzle(2, 2, [WHITE, WHITE], [(0, (0, 0), 0, False), (1, (0, 1), 0, False)])) == []


def test_a_premarked_cell_counts_for_the_colour_rule():
    broken = check(puzzle(2, 2, [RED], [(0, (0, 1), 0, False)], player="red", premarked=[(0, 0)]))
    assert [v.rule for v in broken.violations] == ["same-colour"] and broken.violations[0].parts == (0,)
    assert check(puzzle(2, 2, [BLUE], [(0, (0, 1), 0, False)], player="red", premarked=[(0, 0)])).legal


def test_every_violation_is_reported_not_only_the_first():
    p = puzzle(2, 3, [RED, RED, Part("I3", ("blue", "red"))],
               [(0, (0, 0), 0, False), (1, (0, 1), 0, False), (2, (1, 1), 0, False)])
    assert rules_of(p) == ["inside", "same-colour"]


# -- shipping ---------------------------------------------------------------------------------------------------
def test_the_base_table_of_rules_3():
    assert {size: base_of(*size) for size in BASES} == {
        (2, 2): (1, 0), (2, 3): (3, 0), (2, 4): (3, 0), (3, 3): (6, 1), (3, 4): (10, 3), (4, 4): (15, 5)}
    assert base_of(4, 3) == base_of(3, 4) and base_of(1, 4) is None and base_of(2, 5) is None and base_of(5, 5) is None


def test_a_product_is_at_least_2_x_2_and_wholly_filled():
    assert best_shipment(filled_from("rbr")) is None
    assert best_shipment(filled_from("rb\nb.")) is None
    assert shipment_at(filled_from("rb\nbr"), 0, 0, 2, 2).score == 1


def test_a_clean_rectangle_has_no_cuts():
    best = best_shipment(filled_from("rbr\nbrb\nrbr"))
    assert (best.rows, best.cols, best.cuts, best.score, best.robo_gold) == (3, 3, 0, 6, 1)


def test_cuts_count_the_sides_beyond_which_filled_cells_lie():
    # an L: the 3 x 3 block keeps a tail to the right (one cut) and one below (another)
    filled = filled_from("rbrb\nbrb.\nrbr.\nb...")
    s = shipment_at(filled, 0, 0, 3, 3)
    assert s.cut_sides == ("right", "bottom") and s.score == 6 - 2
    inner = shipment_at(filled, 1, 1, 2, 2)   # the cut along the left side takes the cells below-left too
    assert inner.cut_sides == ("top", "left") and inner.cuts == 2


def test_a_cell_beyond_a_corner_goes_with_either_cut_at_that_corner():
    # the rulebook counts the shortest number of straight cuts: one cut takes [4, 4] (QA: it was counted twice)
    filled = filled_from("rbrb.\nbrbr.\nrbrb.\nbrbr.\n....r")
    assert shipment_at(filled, 0, 0, 4, 4).cuts == 1 and best_shipment(filled).score == 14
    both = filled_from("rbrb.\nbrbrb\nrbrb.\nbrbr.\n.b..r")   # a cell right and a cell below as well
    assert shipment_at(both, 0, 0, 4, 4).cut_sides == ("right", "bottom")


def test_white_cells_cost_a_point_inside_the_rectangle_only():
    filled = filled_from("rbw\nbrw")
    inside = shipment_at(filled, 0, 0, 2, 3)
    assert inside.whites == 2 and inside.score == 3 - 2
    cut_away = shipment_at(filled, 0, 0, 2, 2)
    assert cut_away.whites == 0 and cut_away.cut_sides == ("right",) and cut_away.score == 1 - 1
    assert best_shipment(filled) == inside   # 1 point either way; the wider one, as the order says


def test_a_product_stands_either_way_round():
    """A 3 x 2 ships as a 2 x 3 does (QA pass 56: a mutant that knew only the wide sizes lived)."""
    best = best_shipment(filled_from("br\nrb\nbr"))
    assert (best.rows, best.cols, best.cuts, best.score) == (3, 2, 0, 3)


def test_equal_shipments_are_named_the_same_way_every_time():
    """A 3 x 3 short of a corner ships 2 x 3 or 3 x 2 for 2 points: the order names the wide one, with its cut
    below (QA pass 56: a mutant naming the other lived)."""
    best = best_shipment(filled_from("brb\nrbr\nbr."))
    assert (best.top, best.left, best.rows, best.cols, best.cut_sides, best.score) == (0, 0, 2, 3, ("bottom",), 2)


def test_4_x_4_is_the_largest_product():
    big = filled_from("\n".join(("rb" * 3)[i % 2:][:5] for i in range(5)))
    best = best_shipment(big)
    assert (best.rows, best.cols, best.cuts, best.score) == (4, 4, 2, 13)


def test_at_equal_score_the_shipment_paying_more_robo_gold_comes_first():
    clean_3x3 = Shipment(0, 0, 3, 3, 6, 1, (), 0, ("red",))
    cut_3x4 = Shipment(0, 0, 3, 4, 10, 3, ("top", "right", "bottom", "left"), 0, ("red",))
    assert clean_3x3.score == cut_3x4.score == 6
    assert sorted([clean_3x3, cut_3x4], key=Shipment.rank) == [cut_3x4, clean_3x3]


def test_product_colour_is_the_most_frequent_and_white_loses_ties():
    assert product_colours(["red", "red", "blue", "white"]) == ("red",)
    assert product_colours(["red", "white", "white", "red"]) == ("red",)
    assert product_colours(["red", "blue", "white", "yellow"]) == ("blue", "red", "yellow")
    assert product_colours(["white", "white", "white", "red"]) == ("white",)


# -- drawings -----------------------------------------------------------------------------------------------------
def test_drawings_bracket_the_shipped_cells_and_outline_violations():
    from models.robofacture.render import svg_picture, terminal_picture

    p = puzzle(2, 3, [RED, BLUE, BLUE, RED, RED],
               [(0, (0, 0), 0, False), (1, (0, 1), 0, False), (2, (1, 0), 0, False), (3, (1, 1), 0, False),
                (4, (0, 2), 0, False)])
    verdict = check(p)
    best = best_shipment(verdict.filling.colours)
    assert (best.rows, best.cols, best.cut_sides) == (2, 2, ("right",))
    text = terminal_picture(p.space, verdict.filling, best).plain.splitlines()
    assert text[1] == "  0 [R0 ][B1 ] r4  "   # row 0: two shipped cells, then the cut one, readable uncoloured
    svg = svg_picture(p.space, verdict.filling, best, "t")
    assert svg.count('fill-opacity="0.55"') == 1 and "stroke-dasharray" in svg   # the cut cell faded, its line
    # a key says what the marks mean, those the picture shows (QA: nothing explained them)
    assert "black frame: what ships, dashed: its cuts" in svg and "magenta" not in svg
    broken = puzzle(2, 2, [RED, RED], [(0, (0, 0), 0, False), (1, (0, 1), 0, False)])
    verdict = check(broken)
    svg = svg_picture(broken.space, verdict.filling, None, "t", {(0, 0), (0, 1)}, "illegal: 1 rule broken")
    assert svg.count('stroke="#e020c0"') == 2 and "illegal: 1 rule broken" in svg
    assert "magenta: a broken rule" in svg and "black frame" not in svg
    assert terminal_picture(broken.space, verdict.filling, None, {(0, 0), (0, 1)}).plain.splitlines()[1] == \
        "  0 !R0 !!R1 !"


def test_a_cell_two_parts_lie_on_is_drawn_with_both():
    """QA pass 52: an overlap was drawn in the first part's colour only, so the part over it did not show. The SVG
    splits the cell corner to corner (the second part's colour and number below the diagonal); the terminal ends
    it with a + in the second part's colour; each key says so, and only where a cell is stacked."""
    from rich.console import Console

    from models.render.palette import SVG_COLORS
    from models.robofacture.render import svg_picture, terminal_key, terminal_picture

    stacked = puzzle(1, 2, [RED, BLUE, WHITE], [(0, (0, 0), 0, False), (1, (0, 0), 0, False), (2, (0, 1), 0, False)])
    verdict = check(stacked)
    assert verdict.filling.colours[(0, 0)] == "red" and verdict.filling.stacked == {(0, 0): (("blue", 1),)}
    svg = svg_picture(stacked.space, verdict.filling, None, "t", {(0, 0)}, "illegal")
    assert svg.count("<polygon") == 1
    polygon = svg.split("<polygon")[1].split("/>")[0]
    assert f'fill="{SVG_COLORS["blue"]}"' in polygon and ">1</text>" in svg and ">0</text>" in svg
    assert "two parts lie on it" in svg
    picture = terminal_picture(stacked.space, verdict.filling, None, {(0, 0)})
    assert picture.plain.splitlines()[1] == "  0 !R0 + W2  "
    console = Console(force_terminal=True, color_system="256", width=100)
    with console.capture() as captured:
        console.print(picture, soft_wrap=True)
    blue_plus = "\x1b[1;7;37;48;5;27m+"   # (reverse bold, white ink on dodger blue: the broken cell's second part)
    assert blue_plus in captured.get()
    assert "+: another part lies on the cell too" in terminal_key(stacked.space, None, {(0, 0)}, True)
    alone = puzzle(1, 2, [RED, WHITE], [(0, (0, 0), 0, False), (1, (0, 1), 0, False)])
    legal = check(alone)
    assert legal.filling.stacked == {} and "<polygon" not in svg_picture(alone.space, legal.filling, None, "t")
    assert "split" not in svg_picture(alone.space, legal.filling, None, "t")
    assert "another part" not in terminal_key(alone.space, None, ())


def test_the_terminal_drawing_has_a_key_of_the_marks_it_shows():
    """QA: the terminal's letters, numbers, [ ], ! ! and dot were explained only in the SVG."""
    from models.robofacture.render import terminal_key

    p = puzzle(2, 3, [RED, BLUE, BLUE, RED, RED],
               [(0, (0, 0), 0, False), (1, (0, 1), 0, False), (2, (1, 0), 0, False), (3, (1, 1), 0, False),
                (4, (0, 2), 0, False)])
    best = best_shipment(check(p).filling.colours)
    assert terminal_key(p.space, best, ()) == ("key: letter: the colour (lower case: cut away); number: the part; "
                                                "[ ]: what ships; VP: victory points; RG: Robo Gold")
    assert terminal_key(p.space, None, {(0, 0)}) == "key: letter: the colour; number: the part; ! !: a broken rule"


def test_a_covered_premarked_cell_keeps_its_mark_and_a_long_title_wraps():
    """QA: the terminal lost the mark of a premarked cell a part covers; a Robofacture title never wrapped."""
    import xml.etree.ElementTree as ET

    from models.robofacture.render import _cell_text, svg_picture

    assert _cell_text("red", "0", True, False, False, covers_mark=True) == "[R0•]"
    assert _cell_text("red", "0", True, False, False) == "[R0 ]"
    p = puzzle(2, 2, [RED, BLUE], [(0, (0, 0), 0, False), (1, (0, 1), 0, False)])
    verdict = check(p)
    title = " ".join(["a long file name"] * 20)
    root = ET.fromstring(svg_picture(p.space, verdict.filling, None, title))
    lines = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("font-size") == "18"]
    assert len(lines) > 1 and " ".join(lines) == title and float(root.get("width")) < 800
