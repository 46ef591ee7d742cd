"""One colour per network, and black end-product networks (RULES.md 1, networks rules 1 and 5).

Rule ids: one-colour, black-network.
"""
from __future__ import annotations

from builders import FF29_OK, assert_legal, check, only, plus, rules


def test_matching_colour_is_legal():
    assert_legal(check(**FF29_OK))


def test_supply_of_another_colour_breaks_one_colour():
    result = check(machines=[("FF29", (1, 1), 0)], tiles=[("supply", (1, 0), "red"), ("end", (1, 3))])
    v = only(result, "one-colour")
    assert v.cells == [(1, 0), (1, 1)] and v.machines == ["FF29"]
    assert "green" in v.message and "red" in v.message
    assert rules(result) == ["one-colour"]


def test_product_of_another_colour_breaks_one_colour():
    # FF04's green output (Sb at (1,2)) goes straight into FF09's red input Na (FF09 at (2,2))
    result = check(
        machines=[("FF04", (1, 1), 0), ("FF09", (2, 2), 0)],
        tiles=[("supply", (1, 0), "red"), ("end", (2, 4))],
    )
    v = only(result, "one-colour")
    assert v.machines == ["FF04", "FF09"] and v.cells == [(1, 2), (2, 2)]


def test_two_supplies_of_different_colours_through_one_pipe():
    # green and red supply both joined to FF29's W port by a T-splitter
    result = check(
        machines=[("FF29", (1, 1), 0)],
        tiles=[("supply", (0, 0), "green"), ("pipe", (1, 0), "N", "E", "S"), ("supply", (2, 0), "red"), ("end", (1, 3))],
    )
    v = only(result, "one-colour")
    assert v.cells == [(0, 0), (1, 0), (1, 1), (2, 0)] and v.machines == ["FF29"]


def test_black_output_into_coloured_input_breaks_one_colour():
    # FF09 at (1,1): its black E port on b=(1,2) faces FF29's green W port at (1,3)
    result = check(
        machines=[("FF09", (1, 1), 0), ("FF29", (1, 3), 0)],
        tiles=[("supply", (0, 1), "red"), ("end", (1, 5))],
    )
    v = only(result, "one-colour")
    assert v.machines == ["FF09", "FF29"] and v.cells == [(1, 2), (1, 3)]
    # the end product's own rules are broken too, and no "quantity" (QA: "the feeding outputs give 0")
    assert "quantity" not in rules(result)
    assert only(result, "black-network").message == "a machine input in an end-product network"
    assert "FF09 output black at E reaches no end-product reservoir" in only(result, "output-unused").message


# -- black networks -------------------------------------------------------------------------------
def test_black_output_through_pipes_to_its_reservoir_is_legal():
    assert_legal(check(machines=[("FF29", (1, 1), 0)],
                       tiles=[("supply", (1, 0), "green"), ("pipe", (1, 3), "W", "S"), ("end", (2, 3))]))


def test_two_machines_sharing_an_end_reservoir_is_illegal():
    # FF29 E (1,2) and FF09 E (b=(2,3) turned 270, facing north) both reach the end reservoir (1,3)
    result = check(
        machines=[("FF29", (1, 1), 0), ("FF09", (3, 3), 270)],
        tiles=[("supply", (1, 0), "green"), ("end", (1, 3)), ("supply", (3, 2), "red")],
    )
    v = only(result, "black-network")
    assert v.cells == [(1, 2), (1, 3), (2, 3)] and v.machines == ["FF09", "FF29"]
    assert "share" in v.message
    # honoured: FF09 turned 270 further east, with its own reservoir (1,6)
    assert_legal(check(**plus(FF29_OK, machines=[("FF09", (3, 6), 270)], tiles=[("supply", (3, 5), "red"), ("end", (1, 6))])))


def test_two_end_reservoirs_on_one_black_output_is_illegal():
    result = check(machines=[("FF29", (1, 1), 0)],
                   tiles=[("supply", (1, 0), "green"), ("pipe", (1, 3), "W", "N", "S"), ("end", (0, 3)), ("end", (2, 3))])
    v = only(result, "black-network")
    assert "more than one" in v.message and v.machines == ["FF29"]
    assert v.cells == [(0, 3), (1, 2), (1, 3), (2, 3)]


def test_output_reservoir_in_a_black_network_is_illegal():
    result = check(machines=[("FF29", (1, 1), 0)], tiles=[("supply", (1, 0), "green"), ("output", (1, 3))])
    assert rules(result) == ["black-network", "output-unused"]
    v = only(result, "black-network")
    assert "output reservoir" in v.message and v.cells == [(1, 2), (1, 3)] and v.machines == ["FF29"]


def test_end_reservoir_in_a_coloured_network_is_illegal():
    # FF04's green product (Sb at (1,2)) goes into an end-product reservoir
    result = check(machines=[("FF04", (1, 1), 0)], tiles=[("supply", (1, 0), "red"), ("end", (2, 2))])
    v = only(result, "black-network")
    assert v.cells == [(1, 2), (2, 2)] and v.machines == ["FF04"] and "not black" in v.message
    assert "output-unused" in rules(result)


def test_black_output_without_end_reservoir_is_unused():
    # black output into a closed pipe ring: no loose end, but no end reservoir either
    result = check(machines=[("FF29", (1, 1), 0)], tiles=[
        ("supply", (1, 0), "green"), ("pipe", (1, 3), "W", "E", "S"), ("pipe", (1, 4), "W", "S"),
        ("pipe", (2, 3), "N", "E"), ("pipe", (2, 4), "N", "W")])
    v = only(result, "output-unused")
    assert v.machines == ["FF29"] and "end-product reservoir" in v.message
    assert rules(result) == ["output-unused"]
