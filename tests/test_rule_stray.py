"""Every tile belongs to a network with a machine port (RULES.md 1): rule id stray-tile."""
from __future__ import annotations

from builders import FF29_OK, assert_legal, check, minus, of_rule, only, plus, rules

RING = [("pipe", (5, 5), "E", "S"), ("pipe", (5, 6), "W", "S"), ("pipe", (6, 5), "N", "E"), ("pipe", (6, 6), "N", "W")]


def test_closed_pipe_ring_is_stray():
    result = check(**plus(FF29_OK, tiles=RING))
    v = only(result, "stray-tile")
    assert v.cells == [(5, 5), (5, 6), (6, 5), (6, 6)] and v.machines == []
    assert v.message == "4 pipes not connected to any machine port"   # (QA pass 54: "pipe not connected")
    assert rules(result) == ["stray-tile"]


def test_lone_pipe_is_stray_with_two_loose_ends():
    result = check(**plus(FF29_OK, tiles=[("pipe", (5, 5), "W", "E")]))
    assert rules(result) == ["loose-end", "loose-end", "stray-tile"]
    assert only(result, "stray-tile").cells == [(5, 5)]
    assert only(result, "stray-tile").message == "pipe not connected to any machine port"
    assert all(v.cells == [(5, 5)] for v in of_rule(result, "loose-end"))


def test_lone_end_reservoir_is_stray():
    result = check(**plus(FF29_OK, tiles=[("end", (5, 5))]))
    assert rules(result) == ["stray-tile"]
    # named as the game names the tile (QA pass 55: "end not connected")
    assert only(result, "stray-tile").message == "end-product reservoir not connected to any machine port"


def test_unused_half_of_a_crossing_is_stray():
    # FF29's W port (2,2) fed through the E-W half of a crossing at (2,1); the N-S half leads nowhere
    used = [("supply", (2, 0), "green"), ("pipe", (2, 1), "W", "E"), ("end", (2, 4))]
    assert_legal(check(machines=[("FF29", (2, 2), 0)], tiles=used))
    result = check(machines=[("FF29", (2, 2), 0)], tiles=used + [("pipe", (2, 1), "N", "S")])
    assert rules(result) == ["loose-end", "loose-end", "stray-tile"]
    assert only(result, "stray-tile").cells == [(2, 1)]


def test_unused_half_of_a_diagonal_is_stray():
    # the diagonal at (4,1)-(4,2): its aN-bS pipe serves FF29, its aS-bN pipe faces empty cells
    result = check(
        machines=[("FF29", (5, 2), 90)],
        tiles=[("supply", (3, 1), "green"), ("diagonal", (4, 1), 0), ("end", (7, 2))],
        options={"diagonal_intersection": True},
    )
    assert rules(result) == ["loose-end", "loose-end", "stray-tile"]
    assert only(result, "stray-tile").cells == [(4, 1), (4, 2)]
    # the two pipes span the same two cells: the message says which one (QA: two rows read alike)
    assert only(result, "stray-tile").message == ("the diagonal tile's pipe from side S of [4, 1] to side N of "
                                                  "[4, 2] not connected to any machine port")


def test_every_tile_used_is_legal():
    assert_legal(check(**FF29_OK))
    assert_legal(check(**minus(plus(FF29_OK, tiles=RING), *RING)))


def test_a_ring_of_double_curves_inner_pipes_is_stray_though_each_tile_serves_a_machine():
    """QA pass 50's ruling (README, rules): stray-tile is read pipe by pipe. Four double curves round a 2 x 2
    block: their outer curves carry FF04's red supply and green product, their inner curves close a ring."""
    outer = [("supply", (4, 4), "red"), ("pipe", (4, 5), "N", "W"), ("pipe", (4, 6), "N", "E"),
             ("pipe", (5, 5), "S", "W"), ("pipe", (5, 6), "S", "E"), ("pipe", (3, 5), "S", "E"),
             ("pipe", (3, 6), "W", "S"), ("pipe", (6, 5), "N", "E"), ("pipe", (6, 6), "W", "N"),
             ("output", (5, 4)), ("output", (5, 7)), ("pipe", (5, 8), "N", "W")]
    inner = [("pipe", (4, 5), "E", "S"), ("pipe", (4, 6), "S", "W"), ("pipe", (5, 5), "N", "E"),
             ("pipe", (5, 6), "N", "W")]
    assert_legal(check(machines=[("FF04", (4, 7), 0)], tiles=outer))
    result = check(machines=[("FF04", (4, 7), 0)], tiles=outer + inner)
    assert rules(result) == ["stray-tile"]
    assert only(result, "stray-tile").cells == [(4, 5), (4, 6), (5, 5), (5, 6)]
