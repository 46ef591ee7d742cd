"""The checker reports every violation (RULES.md 1 as a whole), each with its rule id from check.RULES."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from builders import FF29_OK, check, plus, rules
from models.check import RULES, check_layout
from models.layout import load_layout, parse_layout

EXAMPLES = Path(__file__).resolve().parents[1] / "instances" / "examples"


def test_three_problems_give_three_violations():
    # loose end (splitter end at (2,0)), mixed colours (red supply into green FF29),
    # too many green containers (FF46 with its own green)
    result = check(
        machines=[("FF29", (1, 1), 0), ("FF46", (5, 2), 0)],
        tiles=[("supply", (0, 0), "red"), ("pipe", (1, 0), "N", "E", "S"), ("end", (1, 3)),
               ("supply", (6, 2), "green"), ("output", (4, 3)), ("supply", (5, 6), "green")],
    )
    found = set(rules(result))
    assert {"loose-end", "one-colour", "supply-limit"} <= found
    assert len(result.violations) >= 3


def test_every_violation_names_a_known_rule_and_is_sorted():
    result = check(**plus(FF29_OK, tiles=[("pipe", (5, 5), "W", "E"), ("output", (7, 7)), ("supply", (0, 8), "green")]))
    assert result.violations
    for v in result.violations:
        assert v.rule in RULES
        assert v.cells == sorted(set(v.cells)) and v.machines == sorted(set(v.machines))
        assert v.message


def test_violation_dict_form():
    result = check(machines=[("FF29", (1, 1), 0)], tiles=[("supply", (1, 0), "red"), ("end", (1, 3))])
    assert result.to_dict()["violations"] == [
        {"rule": "one-colour", "message": result.violations[0].message, "cells": [[1, 0], [1, 1]], "machines": ["FF29"]}
    ]
    assert result.to_dict()["legal"] is False


# one breaking layout per rule id; the test files per family hold the details
BREAKS = {
    "loose-end": dict(machines=[("FF29", (1, 1), 0)], tiles=[("supply", (1, 0), "green")]),
    "one-colour": dict(machines=[("FF29", (1, 1), 0)], tiles=[("supply", (1, 0), "red"), ("end", (1, 3))]),
    "supply-meets-product": dict(machines=[("FF04", (1, 1), 0)], tiles=[("supply", (1, 0), "red"), ("supply", (2, 2), "green")]),
    "input-unfed": dict(machines=[("FF29", (1, 1), 0)], tiles=[("pipe", (1, 0), "E", "S"), ("output", (2, 0)), ("end", (1, 3))]),
    "output-unused": dict(machines=[("FF04", (1, 1), 0)], tiles=[("supply", (1, 0), "red"), ("pipe", (2, 2), "N", "E", "S"),
                                                                ("pipe", (2, 3), "W", "S"), ("pipe", (3, 2), "N", "E"), ("pipe", (3, 3), "N", "W")]),
    "black-network": dict(machines=[("FF04", (1, 1), 0)], tiles=[("supply", (1, 0), "red"), ("end", (2, 2))]),
    "quantity": dict(machines=[("FF04", (1, 1), 0), ("FF29", (2, 2), 90)], tiles=[("supply", (1, 0), "red"), ("end", (4, 2))]),
    "reservoir-unfed": plus(FF29_OK, tiles=[("output", (5, 5))]),
    "supply-unused": plus(FF29_OK, tiles=[("supply", (5, 5), "red")]),
    "stray-tile": plus(FF29_OK, tiles=[("end", (5, 5))]),
    "feeds-cycle": dict(machines=[("FF24", (2, 2), 0)], tiles=[("supply", (3, 2), "orange"), ("pipe", (1, 3), "S", "W"),
                                                             ("pipe", (1, 2), "E", "W"), ("pipe", (1, 1), "E", "S"), ("pipe", (2, 1), "N", "E")]),
    "supply-limit": plus(FF29_OK, tiles=[("supply", (5, 5), "green")]),
    "output-limit": dict(machines=[("FF04", (1, 1), 0)], tiles=[("supply", (1, 0), "red"), ("pipe", (2, 2), "N", "E", "S", "W"),
                                                               ("pipe", (2, 3), "W", "E", "S"), ("output", (2, 1)), ("output", (3, 2)),
                                                               ("output", (3, 3)), ("output", (2, 4))]),
    "end-limit": dict(FF29_OK, options={"end_limit": 0}),
    "diagonal": dict(machines=[], tiles=[("diagonal", (4, 1), 0)]),
}


def test_every_rule_id_has_a_breaking_layout():
    # "connector" cannot be broken by a readable factory-fun document: see test_rule_connector.py
    assert set(BREAKS) | {"connector"} == set(RULES)


@pytest.mark.parametrize("rule", sorted(BREAKS))
def test_breaking_layout_reports_its_rule(rule):
    result = check(**BREAKS[rule])
    assert rule in rules(result)
    assert not result.legal


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.json") if p.name.startswith(("legal-", "illegal-", "rulebook-round"))))
def test_checker_is_deterministic_on_examples(name):
    doc = json.loads((EXAMPLES / name).read_text())
    first = check_layout(parse_layout(doc)).to_dict()
    assert check_layout(parse_layout(json.loads(json.dumps(doc)))).to_dict() == first
    assert check_layout(load_layout(EXAMPLES / name)).to_dict() == first
