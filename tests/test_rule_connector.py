"""Connector tiles (RULES.md 1, "Tiles"): rule id connector, plus crossings and double curves.

A cell holds one connector (2-4 sides) or one double connector (two crossing
straights, or two curves on opposite corners). On the square grid the loader
already makes anything else unreadable, so the rule is exercised through ruleset
variations (RULES.md: "treat X-splitter as allowed unless a ruleset option says otherwise").
"""
from __future__ import annotations

import dataclasses

from builders import assert_legal, check, make_layout, only, rules
from models.check import check_layout
from models.layout import Layout

CROSSING = dict(
    machines=[("FF29", (4, 2), 0), ("FF09", (6, 1), 0)],
    tiles=[("supply", (4, 0), "green"), ("pipe", (4, 1), "E", "W"), ("pipe", (4, 1), "N", "S"),
           ("supply", (3, 1), "red"), ("pipe", (5, 1), "N", "S"), ("end", (4, 4)), ("end", (6, 3))],
)
X_SPLITTER = dict(
    machines=[("FF04", (1, 1), 0)],
    tiles=[("supply", (1, 0), "red"), ("pipe", (2, 2), "N", "E", "S", "W"),
           ("output", (2, 1)), ("output", (3, 2)), ("output", (2, 3))],
)


def with_ruleset(layout: Layout, **changes) -> Layout:
    ruleset = dataclasses.replace(layout.ruleset, **changes)
    return Layout(ruleset, layout.board, layout.catalog, layout.machines, layout.tiles, dict(layout.options), layout.source)


def test_crossing_carries_two_independent_networks():
    result = check(**CROSSING)
    assert_legal(result)
    layout = make_layout(**CROSSING)
    pipes_in_cell = [result.connectivity.network_of[("pipe", i)] for i, p in enumerate(layout.pipes) if p.ends[0][0] == (4, 1)]
    assert len(pipes_in_cell) == 2 and pipes_in_cell[0] != pipes_in_cell[1]
    assert result.score.cost_by_kind["pipe"] == 3


def test_double_curve_carries_two_independent_networks():
    result = check(
        machines=[("FF29", (2, 3), 0), ("FF04", (3, 2), 90)],
        tiles=[("supply", (1, 2), "green"), ("pipe", (2, 2), "N", "E"), ("pipe", (2, 2), "S", "W"),
               ("supply", (2, 1), "red"), ("end", (2, 5)), ("output", (4, 1))],
    )
    assert_legal(result)
    colours = sorted(sorted(n.colors) for n in result.connectivity.networks if n.pipes)
    assert colours == [["green"], ["red"]]


def test_crossing_as_one_pipe_would_mix_colours():
    """The same cells with one X-splitter instead of a crossing join red and green."""
    tiles = [t for t in CROSSING["tiles"] if t[1] != (4, 1)] + [("pipe", (4, 1), "N", "E", "S", "W")]
    result = check(machines=CROSSING["machines"], tiles=tiles)
    assert "one-colour" in rules(result)


def test_x_splitter_allowed_by_default():
    assert_legal(check(**X_SPLITTER))


def test_x_splitter_breaks_a_ruleset_without_it():
    layout = with_ruleset(make_layout(**X_SPLITTER), x_splitter_available=False)
    v = only(check_layout(layout), "connector")
    assert v.cells == [(2, 2)] and "4-sided" in v.message
    assert rules(check_layout(layout)) == ["connector"]


def test_double_connector_breaks_a_ruleset_with_one_pipe_per_cell():
    layout = with_ruleset(make_layout(**CROSSING), max_pipes_per_cell=1)
    v = only(check_layout(layout), "connector")
    assert v.cells == [(4, 1)]
    # honoured: a single pipe per cell is fine under the same ruleset
    single = make_layout(machines=[("FF29", (1, 1), 0)], tiles=[("supply", (0, 0), "green"), ("pipe", (1, 0), "N", "E"), ("end", (1, 3))])
    assert_legal(check_layout(with_ruleset(single, max_pipes_per_cell=1)))


def test_splitter_sharing_a_cell_breaks_the_rule():
    layout = with_ruleset(make_layout(**CROSSING), multi_pipe_max_sides=1)
    v = only(check_layout(layout), "connector")
    assert v.cells == [(4, 1)] and "splitter" in v.message
