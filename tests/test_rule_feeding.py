"""What feeds what (RULES.md 1, networks rules 2, 3, 4 and 7).

Rule ids: supply-meets-product, input-unfed, output-unused, reservoir-unfed, supply-unused.
"""
from __future__ import annotations

from builders import FF29_OK, assert_legal, check, only, plus, rules

# FF27 (Na in blue 1, Sb out orange 3) at (1,1); its product goes down the (2,2) pipe
# into FF43 (W in orange 2, E out orange 1) turned 90 at (3,2), whose product fills (5,2)
CHAIN = dict(
    machines=[("FF27", (1, 1), 0), ("FF43", (3, 2), 90)],
    tiles=[("supply", (0, 1), "blue"), ("pipe", (2, 2), "N", "S"), ("output", (5, 2))],
)
# FF04 (W in red 1, Sb out green 1); Sb at (1,2) faces (2,2)
FF04_RING = [("pipe", (2, 2), "N", "E", "S"), ("pipe", (2, 3), "W", "S"), ("pipe", (3, 2), "N", "E"), ("pipe", (3, 3), "N", "W")]


# -- rule 2: supply-meets-product -----------------------------------------------------------------
def test_supply_merged_with_product_is_illegal():
    result = check(
        machines=CHAIN["machines"],
        tiles=[("supply", (0, 1), "blue"), ("pipe", (2, 2), "N", "S", "W"), ("supply", (2, 1), "orange"), ("output", (5, 2))],
    )
    v = only(result, "supply-meets-product")
    assert v.cells == [(1, 2), (2, 1), (2, 2), (3, 2)] and v.machines == ["FF27", "FF43"]
    assert rules(result) == ["supply-meets-product"]


def test_product_alone_feeding_an_input_is_legal():
    # unused output (3 given, 2 taken) needs no reservoir when it reaches an input
    result = check(**CHAIN)
    assert_legal(result)
    product = [n for n in result.connectivity.networks if n.outputs and n.inputs]
    assert len(product) == 1 and not product[0].output_tanks


def test_supply_touching_only_an_output_breaks_three_rules():
    # FF04's green output straight into a green supply: product meets supply, the supply feeds nothing, the output reaches no input
    result = check(machines=[("FF04", (1, 1), 0)], tiles=[("supply", (1, 0), "red"), ("supply", (2, 2), "green")])
    assert rules(result) == ["output-unused", "supply-meets-product", "supply-unused"]
    assert only(result, "supply-unused").cells == [(2, 2)]


# -- rule 3: input-unfed --------------------------------------------------------------------------
def test_input_fed_by_nothing_is_illegal():
    # FF29's W port reaches only an output reservoir through a pipe
    result = check(machines=[("FF29", (1, 1), 0)], tiles=[("pipe", (1, 0), "E", "S"), ("output", (2, 0)), ("end", (1, 3))])
    v = only(result, "input-unfed")
    assert v.cells == [(1, 1)] and v.machines == ["FF29"] and "W" in v.message
    assert rules(result) == ["input-unfed", "reservoir-unfed"]


def test_input_fed_by_supply_or_by_machine_is_legal():
    assert_legal(check(**FF29_OK))
    assert_legal(check(**CHAIN))


def test_two_inputs_joined_together_are_both_unfed():
    # FF46's Sa (green in) and FF29's W (green in) joined by pipes, nothing else
    result = check(
        machines=[("FF46", (0, 1), 90), ("FF29", (2, 1), 0)],
        tiles=[("pipe", (0, 0), "E", "S"), ("pipe", (1, 0), "N", "S"), ("pipe", (2, 0), "N", "E"),
               ("output", (1, 2)), ("end", (2, 3))],
    )
    unfed = [v for v in result.violations if v.rule == "input-unfed"]
    assert sorted(v.machines[0] for v in unfed) == ["FF29", "FF46"]
    assert rules(result) == ["input-unfed", "input-unfed"]


# -- rule 4: output-unused ------------------------------------------------------------------------
def test_output_reaching_nothing_is_illegal():
    # FF04's green output goes into a closed pipe ring: no loose end, no input, no reservoir
    result = check(machines=[("FF04", (1, 1), 0)], tiles=[("supply", (1, 0), "red")] + FF04_RING)
    v = only(result, "output-unused")
    assert v.cells == [(1, 2)] and v.machines == ["FF04"] and "Sb" in v.message
    assert rules(result) == ["output-unused"]


def test_output_into_a_reservoir_is_legal():
    assert_legal(check(machines=[("FF04", (1, 1), 0)], tiles=[("supply", (1, 0), "red"), ("output", (2, 2))]))


def test_output_reaching_an_input_and_a_reservoir_is_legal():
    result = check(
        machines=CHAIN["machines"],
        tiles=[("supply", (0, 1), "blue"), ("pipe", (2, 2), "N", "S", "E"), ("output", (2, 3)), ("output", (5, 2))],
    )
    assert_legal(result)


# -- rule 7: reservoir-unfed, supply-unused --------------------------------------------------------
def test_output_reservoir_on_a_supply_network_is_illegal():
    result = check(machines=[("FF29", (1, 1), 0)],
                   tiles=[("supply", (0, 0), "green"), ("pipe", (1, 0), "N", "E", "S"), ("output", (2, 0)), ("end", (1, 3))])
    v = only(result, "reservoir-unfed")
    assert v.cells == [(2, 0)] and v.machines == ["FF29"]
    assert rules(result) == ["reservoir-unfed"]


def test_lone_output_reservoir_is_unfed_and_stray():
    result = check(**plus(FF29_OK, tiles=[("output", (5, 5))]))
    assert rules(result) == ["reservoir-unfed", "stray-tile"]
    assert only(result, "reservoir-unfed").cells == [(5, 5)]


def test_lone_supply_is_unused_and_stray():
    result = check(**plus(FF29_OK, tiles=[("supply", (5, 5), "red")]))
    assert rules(result) == ["stray-tile", "supply-unused"]
    assert only(result, "supply-unused").cells == [(5, 5)]


def test_supply_feeding_an_input_is_legal():
    assert_legal(check(**FF29_OK))
