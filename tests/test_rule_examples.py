"""The example layouts in instances/examples/: every verdict and score checked by hand first.

Legal ones are named legal-*.json, illegal ones illegal-<rule>-*.json. Each file
below was drawn on paper (rotation 0: b east of a; 90: b south of a, printed sides
turned N->E->S->W) before the checker saw it; the expected rules and scores here
are those hand results.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.check import RULES, check_layout
from models.layout import load_layout, parse_layout

EXAMPLES = Path(__file__).resolve().parents[1] / "instances" / "examples"

# file -> (income, cost, chain bonus) worked out by hand
LEGAL = {
    "rulebook-round2.json": (17, 5, 10),
    # FF29 (green W) fed across the E-W pipe of a crossing, FF09 (red Na) across its N-S pipe
    "legal-crossing.json": (6 + 7, 2 + 2 + 3, 0),
    # one cell with curves N-E (green to FF29) and S-W (red to FF04 turned 90)
    "legal-double-curve.json": (6 + 7, 2 + 1 + 1 + 2, 0),
    # FF24 (turned 180) red out 3 -> T-splitter -> FF04 W red 1 and FF01 W red 2 (turned 90)
    "legal-split-3-to-2-and-1.json": (5 + 7 + 8, 3 + 1 + 1 + 1, 5 * (1 + 2)),
    # FF04 green out 1 and FF23 green out 1 -> pipes and T -> FF29 W green 2 (turned 90)
    "legal-merge-1-and-1-to-2.json": (7 + 10 + 6, 2 + 1 + 3, 5 * 2),
    # FF22 is a red "+" machine: two red supply containers
    "legal-bonus-supply.json": (3 + 7, 2 + 2, 0),
    # FF38 turned 180: orange east of a, green south of a, black output west of b into an end reservoir
    "legal-end-product.json": (11, 3, 0),
    # a diagonal tile joins green (3,1) to FF29 and red (3,2) to FF04; the two supplies touch but do not connect
    "legal-diagonal.json": (6 + 7, 2 + 1 + 1 + 2, 0),
}

# file -> every violation expected: (rule, cells, machines)
ILLEGAL = {
    "illegal-loose-end-splitter.json": [("loose-end", [(1, 0)], [])],
    "illegal-one-colour-red-into-green.json": [("one-colour", [(1, 0), (1, 1)], ["FF29"])],
    "illegal-supply-meets-product-via-splitter.json": [("supply-meets-product", [(1, 2), (2, 1), (2, 2), (3, 2)], ["FF27", "FF43"])],
    "illegal-quantity-1-into-2.json": [("quantity", [(1, 2), (2, 2)], ["FF04", "FF29"])],
    "illegal-feeds-cycle-two-machines.json": [("feeds-cycle", [(2, 2), (2, 3), (3, 1), (3, 2)], ["FF35", "FF50"])],
    "illegal-black-network-shared-end.json": [("black-network", [(1, 2), (1, 3), (2, 3)], ["FF09", "FF29"])],
    "illegal-stray-tile-pipe-ring.json": [("stray-tile", [(5, 5), (5, 6), (6, 5), (6, 6)], [])],
    "illegal-output-limit-four-reservoirs.json": [("output-limit", [(2, 1), (2, 4), (3, 2), (3, 3)], [])],
    "illegal-supply-limit-two-green.json": [("supply-limit", [(1, 0), (6, 2)], [])],
    "illegal-diagonal-option-off.json": [("diagonal", [(4, 1)], [])],
    "illegal-end-limit-stock-of-one.json": [("end-limit", [(1, 3), (5, 7)], [])],
}


def test_every_example_file_is_listed_here():
    files = {p.name for p in EXAMPLES.glob("*.json") if p.name.startswith(("legal-", "illegal-"))}
    assert files == (set(LEGAL) - {"rulebook-round2.json"}) | set(ILLEGAL)


@pytest.mark.parametrize("name", sorted(LEGAL))
def test_legal_example(name):
    result = check_layout(load_layout(EXAMPLES / name))
    assert result.legal, [v.to_dict() for v in result.violations]
    income, cost, bonus = LEGAL[name]
    assert result.score.summary() == {"income": income, "cost": cost, "chain_bonus": bonus, "total": income - cost + bonus}


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_illegal_example(name):
    result = check_layout(load_layout(EXAMPLES / name))
    assert not result.legal
    got = [(v.rule, [tuple(c) for c in v.cells], v.machines) for v in result.violations]
    assert got == ILLEGAL[name]
    rule = name[len("illegal-"):]
    assert any(rule.startswith(r + "-") for r in RULES if r == got[0][0]), "file name names its rule"


def test_example_features_are_present():
    """The legal examples really contain what their names promise."""
    def layout(name):
        return load_layout(EXAMPLES / name)

    crossing = layout("legal-crossing.json")
    assert any(len(ix) == 2 for ix in crossing.tile_cells.values())
    sides = sorted(crossing.tiles[i].sides for i in crossing.tile_cells[(4, 1)])
    assert sides == [("N", "S"), ("E", "W")] or sides == [("E", "W"), ("N", "S")]
    curves = layout("legal-double-curve.json")
    assert sorted(curves.tiles[i].sides for i in curves.tile_cells[(2, 2)]) == [("N", "E"), ("S", "W")]
    split = layout("legal-split-3-to-2-and-1.json")
    assert any(t.kind == "pipe" and len(t.sides) == 3 for t in split.tiles)
    diag = layout("legal-diagonal.json")
    assert diag.options["diagonal_intersection"] is True
    assert [t.kind for t in diag.tiles].count("diagonal") == 1
    bonus = layout("legal-bonus-supply.json")
    assert [t.color for t in bonus.tiles if t.kind == "supply"] == ["red", "red"]
    assert bonus.catalog["FF22"].bonus_supply == "red"


def test_rulebook_round1_worked_example():
    """Round 1 of the rulebook: FF39 (income 9), two supplies, one output reservoir: cost 3."""
    doc = json.loads((EXAMPLES / "rulebook-round2.json").read_text())
    doc["machines"] = doc["machines"][:1]
    doc["tiles"] = [t for t in doc["tiles"] if t["kind"] == "supply"] + [{"kind": "output", "cell": [5, 4]}]
    result = check_layout(parse_layout(doc))
    assert result.legal, [v.to_dict() for v in result.violations]
    assert (result.score.income, result.score.cost, result.score.chain_bonus) == (9, 3, 0)
    assert 2 + result.score.income - result.score.cost == 8
