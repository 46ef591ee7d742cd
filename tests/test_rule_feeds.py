"""Feeds and loops (RULES.md 1, "Feeds and loops"): rule id feeds-cycle."""
from __future__ import annotations

from pathlib import Path

from builders import assert_legal, check, only, rules
from models.check import check_layout
from models.layout import load_layout

EXAMPLES = Path(__file__).resolve().parents[1] / "instances" / "examples"

# FF24 (W red 2, Sa orange 2, Nb out red 3) at (2,2): its red product runs round
# (1,3) (1,2) (1,1) (2,1) back into its own red input W
SELF_FEED = dict(
    machines=[("FF24", (2, 2), 0)],
    tiles=[("supply", (3, 2), "orange"), ("pipe", (1, 3), "S", "W"), ("pipe", (1, 2), "E", "W"),
           ("pipe", (1, 1), "E", "S"), ("pipe", (2, 1), "N", "E")],
)


def test_machine_feeding_itself_is_illegal():
    result = check(**SELF_FEED)
    v = only(result, "feeds-cycle")
    assert v.machines == ["FF24"] and v.cells == [(2, 2), (2, 3)] and "feeds itself" in v.message
    assert rules(result) == ["feeds-cycle"]  # amounts alone are fine: 3 given, 2 taken


# FF34 (orange 2 out at E) at (6,1): its product runs up a T-splitter at (5,3), one way back into its own Na input,
# the other on into FF06's W input (QA pass 55: a mutant that drew feeds only from networks of one input lived)
SPLIT_PIPES = [("pipe", (6, 3), "N", "W"), ("pipe", (5, 3), "E", "S", "W"), ("pipe", (5, 2), "E", "W"),
               ("pipe", (5, 1), "E", "S")]
SELF_FEED_THROUGH_SPLITTER = dict(
    machines=[("FF34", (6, 1), 0), ("FF06", (5, 4), 0)],
    tiles=SPLIT_PIPES + [("supply", (7, 1), "blue"), ("supply", (4, 4), "green"), ("supply", (6, 4), "red"),
                         ("output", (5, 6))],
)


def test_a_machine_feeding_itself_through_a_splitter_is_illegal_whatever_the_machines_order():
    for machines in (SELF_FEED_THROUGH_SPLITTER["machines"], SELF_FEED_THROUGH_SPLITTER["machines"][::-1]):
        result = check(machines=machines, tiles=SELF_FEED_THROUGH_SPLITTER["tiles"])
        assert rules(result) == ["feeds-cycle"]
        assert only(result, "feeds-cycle").machines == ["FF34"] and "FF34 feeds itself" in result.violations[0].message


def test_a_machine_feeding_itself_through_a_merge_with_another_output_is_illegal():
    """FF43's output (turned 180, at (5,5)) merges into FF34's product network, which feeds FF34's own input."""
    result = check(machines=[("FF43", (5, 5), 180), ("FF34", (6, 1), 0)],
                   tiles=SPLIT_PIPES + [("supply", (7, 1), "blue"), ("supply", (5, 6), "orange")])
    assert rules(result) == ["feeds-cycle"] and only(result, "feeds-cycle").machines == ["FF34"]


def test_two_machines_feeding_each_other_is_illegal():
    # FF35 orange->green and FF50 (turned 180) green+red->orange, each product feeding the other
    result = check_layout(load_layout(EXAMPLES / "illegal-feeds-cycle-two-machines.json"))
    v = only(result, "feeds-cycle")
    assert v.machines == ["FF35", "FF50"] and v.cells == [(2, 2), (2, 3), (3, 1), (3, 2)]
    assert "loop" in v.message


def test_a_loop_is_named_in_feeding_order():
    """FF40 (green) feeds FF52, FF52 (blue) feeds FF15, FF15 (red) feeds FF40: the message follows the
    feeds round and back (it listed the machines in document order, claiming feeds that are not there)."""
    result = check(machines=[("FF40", (2, 1), 270), ("FF15", (2, 5), 0), ("FF52", (0, 2), 0)],
                   tiles=[("supply", (3, 1), "blue"), ("pipe", (0, 1), "S", "E"), ("pipe", (0, 4), "W", "S"),
                          ("pipe", (1, 4), "N", "S"), ("pipe", (2, 4), "N", "E"), ("supply", (1, 5), "orange"),
                          ("pipe", (2, 7), "W", "S"), ("pipe", (3, 7), "N", "S"), ("pipe", (4, 7), "N", "W"),
                          *[("pipe", (4, c), "E", "W") for c in range(1, 7)], ("pipe", (4, 0), "E", "N"),
                          ("pipe", (3, 0), "S", "N"), ("pipe", (2, 0), "S", "E")])
    v = only(result, "feeds-cycle")
    loop = v.message.removeprefix("machines feed each other in a loop: ").split(" -> ")
    assert len(loop) == 4 and loop[0] == loop[-1] and sorted(loop[:3]) == ["FF15", "FF40", "FF52"]
    order = ["FF40", "FF52", "FF15"]
    assert loop[:3] in [order[i:] + order[:i] for i in range(3)]


def test_chains_without_a_way_back_are_legal():
    # FF39 -> FF08, and FF04 + FF23 -> FF29: feeds, but no loop
    assert_legal(check_layout(load_layout(EXAMPLES / "rulebook-round2.json")))
    assert_legal(check_layout(load_layout(EXAMPLES / "legal-merge-1-and-1-to-2.json")))


def test_breaking_the_self_feed_makes_it_legal():
    # the product goes to a reservoir instead, the input gets a red supply
    result = check(machines=[("FF24", (2, 2), 0)],
                   tiles=[("supply", (3, 2), "orange"), ("output", (1, 3)), ("supply", (2, 1), "red")])
    assert_legal(result)
