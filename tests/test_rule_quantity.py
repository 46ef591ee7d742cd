"""Quantity (RULES.md 1, networks rule 6): rule id quantity.

In a network fed by machines, the inputs it feeds take at most what the feeding
outputs give; pipes split and merge freely; supplies are unlimited.
"""
from __future__ import annotations

import json
from pathlib import Path

from builders import assert_legal, check, only, rules
from models.check import check_layout
from models.layout import parse_layout

EXAMPLES = Path(__file__).resolve().parents[1] / "instances" / "examples"


def example(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text())


def verdict(doc: dict):
    return check_layout(parse_layout(doc))


def test_output_of_3_may_feed_inputs_of_2_and_1():
    assert_legal(verdict(example("legal-split-3-to-2-and-1.json")))


def test_output_of_3_may_not_feed_inputs_of_1_and_3():
    # the split example with FF01 (W red 2) replaced by FF44 (W red 3, Na blue 3, E out red 1):
    # blue supply moves to FF44's Na (east of a), its product fills an output reservoir at (5,1)
    doc = example("legal-split-3-to-2-and-1.json")
    doc["machines"][2] = {"id": "FF44", "cell": [3, 1], "rotation": 90}
    doc["tiles"] = [t for t in doc["tiles"] if t["kind"] != "end" and t.get("color") != "blue"]
    doc["tiles"] += [{"kind": "supply", "color": "blue", "cell": [3, 2]}, {"kind": "output", "cell": [5, 1]}]
    result = verdict(doc)
    v = only(result, "quantity")
    assert "need 4" in v.message and "give 3" in v.message
    assert v.machines == ["FF04", "FF24", "FF44"]
    assert v.cells == [(1, 1), (2, 1), (2, 2), (3, 1)]
    assert rules(result) == ["quantity"]


def test_two_outputs_of_1_may_feed_an_input_of_2():
    assert_legal(verdict(example("legal-merge-1-and-1-to-2.json")))


def test_two_outputs_of_1_may_not_feed_an_input_of_3():
    # the merge example with FF29 (W green 2) replaced by FF10 (W green 3, Sa blue 1, E black)
    doc = example("legal-merge-1-and-1-to-2.json")
    doc["machines"][2] = {"id": "FF10", "cell": [4, 3], "rotation": 90}
    doc["tiles"].append({"kind": "supply", "color": "blue", "cell": [4, 2]})
    result = verdict(doc)
    v = only(result, "quantity")
    assert "need 3" in v.message and "give 2" in v.message
    assert v.machines == ["FF04", "FF10", "FF23"]
    assert rules(result) == ["quantity"]


def test_output_of_1_into_input_of_2_is_illegal():
    result = check(machines=[("FF04", (1, 1), 0), ("FF29", (2, 2), 90)], tiles=[("supply", (1, 0), "red"), ("end", (4, 2))])
    v = only(result, "quantity")
    assert v.cells == [(1, 2), (2, 2)] and v.machines == ["FF04", "FF29"]


def test_equal_amounts_are_legal():
    # FF39 orange out 2 straight into FF43 W orange in 2
    result = check(
        machines=[("FF39", (5, 2), 0), ("FF43", (5, 4), 0)],
        tiles=[("supply", (4, 2), "red"), ("supply", (5, 1), "green"), ("output", (5, 6))],
    )
    assert_legal(result)


def test_output_of_2_into_input_of_3_is_illegal():
    result = check(
        machines=[("FF39", (5, 2), 0), ("FF35", (5, 4), 0)],
        tiles=[("supply", (4, 2), "red"), ("supply", (5, 1), "green"), ("output", (5, 6))],
    )
    v = only(result, "quantity")
    assert v.machines == ["FF35", "FF39"] and v.cells == [(5, 3), (5, 4)]


def test_supplies_have_no_quantity_limit():
    # one red supply feeds FF39 Na (2) and FF08 Na (3) in the rulebook example ...
    assert_legal(verdict(example("rulebook-round2.json")))
    # ... and here FF22 W (3) from the east and FF44 W (3, turned 90: north of a) from the south
    result = check(
        machines=[("FF22", (1, 1), 0), ("FF44", (2, 0), 90)],
        tiles=[("supply", (1, 0), "red"), ("output", (0, 2)), ("supply", (2, 1), "blue"), ("output", (4, 0))],
    )
    assert_legal(result)
