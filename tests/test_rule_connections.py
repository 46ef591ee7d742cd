"""Connections and loose ends (RULES.md 1, "Connections"): rule id loose-end.

Two cells are connected through a shared side only when both present an opening
there; a reservoir/container opens wherever something reaches it; a port or pipe
end facing anything else is a loose end.
"""
from __future__ import annotations

import pytest

from builders import FF29_OK, assert_legal, check, of_rule, only, plus, rules


def test_port_feeding_port_directly_is_connected():
    # FF39 E (orange out 2) at (5,3) faces FF08 W (orange in 2) at (5,4): no pipe needed
    result = check(
        machines=[("FF39", (5, 2), 0), ("FF08", (5, 4), 0)],
        tiles=[("supply", (4, 2), "red"), ("supply", (5, 1), "green"), ("pipe", (4, 3), "W", "E"),
               ("pipe", (4, 4), "W", "S"), ("output", (5, 6))],
    )
    assert_legal(result)


def test_port_facing_the_border_is_loose():
    # FF29 at (1,0): its W port faces the left border
    result = check(machines=[("FF29", (1, 0), 0)], tiles=[("end", (1, 2))])
    v = only(result, "loose-end")
    assert v.cells == [(1, 0)] and v.machines == ["FF29"]
    assert "side W faces the board's border" in v.message


def test_port_facing_a_machine_wall_is_loose():
    # FF46 at (1,1)-(1,2) has no port on its east side; FF29's W port at (1,3) faces it
    result = check(
        machines=[("FF46", (1, 1), 0), ("FF29", (1, 3), 0)],
        tiles=[("supply", (2, 1), "green"), ("output", (0, 2)), ("end", (1, 5))],
    )
    v = only(result, "loose-end")
    assert v.cells == [(1, 3)] and v.machines == ["FF29"]
    assert "wall of machine FF46" in v.message
    # the input is also fed by nothing
    assert only(result, "input-unfed").machines == ["FF29"]


def test_port_facing_a_blocked_cell_is_loose():
    # classic-A: (7,0) is blocked; FF46 Sa at (6,0) faces it
    result = check(machines=[("FF46", (6, 0), 0)], tiles=[("output", (5, 1))])
    v = only(result, "loose-end")
    assert v.cells == [(6, 0)] and v.machines == ["FF46"]
    assert "faces a blocked cell" in v.message


def test_port_facing_the_pillar_is_loose():
    # classic-A pillar (3,4); FF29 at (3,2): E port of b=(3,3) faces it
    result = check(machines=[("FF29", (3, 2), 0)], tiles=[("supply", (3, 1), "green")])
    v = only(result, "loose-end")
    assert v.cells == [(3, 3)] and v.machines == ["FF29"] and "faces a pillar" in v.message
    assert "output-unused" in rules(result)


def test_reservoir_on_the_pillar_side_is_impossible_so_port_stays_loose():
    # an end reservoir one cell further does not help: the pillar is between
    result = check(machines=[("FF29", (3, 2), 0)], tiles=[("supply", (3, 1), "green"), ("end", (3, 5))])
    assert [v.cells for v in of_rule(result, "loose-end")] == [[(3, 3)]]


def test_port_facing_an_empty_cell_is_loose():
    result = check(machines=[("FF29", (1, 1), 0)], tiles=[("supply", (1, 0), "green")])
    v = only(result, "loose-end")
    assert v.cells == [(1, 2)] and v.machines == ["FF29"] and "empty cell" in v.message


def test_pipe_end_facing_a_tile_without_opening_is_loose():
    # (2,0) N-S pipe: its N end faces the (1,0) curve, which has no S end
    result = check(
        machines=[("FF29", (1, 1), 0)],
        tiles=[("supply", (0, 0), "green"), ("pipe", (1, 0), "N", "E"), ("pipe", (2, 0), "N", "S"), ("end", (1, 3))],
    )
    loose = sorted((v.cells[0], v.message) for v in of_rule(result, "loose-end"))
    assert [c for c, _ in loose] == [(2, 0), (2, 0)]
    assert any("side N faces a tile with no opening there" in m for _, m in loose)
    assert any("side S faces an empty cell" in m for _, m in loose)
    assert all(v.machines == [] for v in of_rule(result, "loose-end"))


def test_splitter_end_facing_nothing_is_loose():
    result = check(
        machines=[("FF29", (1, 1), 0)],
        tiles=[("supply", (0, 0), "green"), ("pipe", (1, 0), "N", "E", "S"), ("end", (1, 3))],
    )
    v = only(result, "loose-end")
    assert v.cells == [(1, 0)] and "side S" in v.message
    # honoured: the same splitter without its third end
    assert_legal(check(
        machines=[("FF29", (1, 1), 0)],
        tiles=[("supply", (0, 0), "green"), ("pipe", (1, 0), "N", "E"), ("end", (1, 3))],
    ))


def test_two_reservoirs_side_by_side_are_not_connected():
    # FF29's end reservoir (1,3) and FF09's end reservoir (1,4) touch; if they were
    # connected two machines would share an end-product network
    result = check(
        machines=[("FF29", (1, 1), 0), ("FF09", (1, 6), 180)],
        tiles=[("supply", (1, 0), "green"), ("end", (1, 3)), ("end", (1, 4)), ("supply", (2, 6), "red")],
    )
    assert_legal(result)


def test_reservoir_next_to_a_network_joins_nothing():
    # an output reservoir beside FF29's end reservoir stays on its own: stray, not black-network
    result = check(**plus(FF29_OK, tiles=[("output", (1, 4))]))
    assert rules(result) == ["reservoir-unfed", "stray-tile"]
    assert only(result, "stray-tile").cells == [(1, 4)]


def test_container_beside_a_machine_wall_does_not_connect():
    # a red supply touching FF29's north wall is not in FF29's network
    result = check(**plus(FF29_OK, tiles=[("supply", (0, 1), "red")]))
    assert "one-colour" not in rules(result)
    assert only(result, "stray-tile").cells == [(0, 1)]


def test_container_opens_on_every_side_reached():
    # one green supply at (0,0) feeds FF46 Sa from the east and FF29 W through pipes from the south
    result = check(
        machines=[("FF46", (0, 1), 90), ("FF29", (2, 1), 0)],
        tiles=[("supply", (0, 0), "green"), ("pipe", (1, 0), "N", "S"), ("pipe", (2, 0), "N", "E"),
               ("output", (1, 2)), ("end", (2, 3))],
    )
    assert_legal(result)
    nets = [n for n in result.connectivity.networks if n.supplies]
    assert len(nets) == 1 and len(nets[0].inputs) == 2


# FF29 (W in green, E out black) at (4,2) in every rotation: where its ports land
FF29_ROTATIONS = {
    0: ((4, 1), (4, 4)),      # b (4,3); W west of a, E east of b
    90: ((3, 2), (6, 2)),     # b (5,2); W north of a, E south of b
    180: ((4, 3), (4, 0)),    # b (4,1); W east of a, E west of b
    270: ((5, 2), (2, 2)),    # b (3,2); W south of a, E north of b
}


@pytest.mark.parametrize("rotation", sorted(FF29_ROTATIONS))
def test_ports_follow_rotation(rotation):
    supply, end = FF29_ROTATIONS[rotation]
    assert_legal(check(machines=[("FF29", (4, 2), rotation)], tiles=[("supply", supply, "green"), ("end", end)]))
    # swapping supply and reservoir puts each next to the wrong port
    wrong = check(machines=[("FF29", (4, 2), rotation)], tiles=[("supply", end, "green"), ("end", supply)])
    assert not wrong.legal
    assert "one-colour" in rules(wrong)


# FF45 (W in red 2, Na in green 2, Sb out green 1) at (4,2): (red supply, green supply, output reservoir)
FF45_ROTATIONS = {
    0: ((4, 1), (3, 2), (5, 3)),
    90: ((3, 2), (4, 3), (5, 1)),    # W north of a, Na east of a, Sb west of b=(5,2)
    180: ((4, 3), (5, 2), (3, 1)),   # W east of a, Na south of a, Sb north of b=(4,1)
    270: ((5, 2), (4, 1), (3, 3)),   # W south of a, Na west of a, Sb east of b=(3,2)
}


@pytest.mark.parametrize("rotation", sorted(FF45_ROTATIONS))
def test_a_and_b_ports_follow_rotation(rotation):
    red, green, out = FF45_ROTATIONS[rotation]
    result = check(machines=[("FF45", (4, 2), rotation)],
                   tiles=[("supply", red, "red"), ("supply", green, "green"), ("output", out)])
    assert_legal(result)
