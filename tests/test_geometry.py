"""Geometry and machine rotation as FORMATS.md defines them."""
from __future__ import annotations

import random

import pytest

from models.geometry import HEX, SQUARE, ball, steps_between
from models.rulesets import get_ruleset

SHAPE = get_ruleset("factory-fun").machine_shape


def place(position, anchor=(4, 4), rotation=0):
    return SHAPE.locate(SQUARE, anchor, SQUARE.steps_of(rotation), position)


@pytest.mark.parametrize("rotation,b", [(0, (4, 5)), (90, (5, 4)), (180, (4, 3)), (270, (3, 4))])
def test_square_b_follows_the_rotation(rotation, b):
    assert SHAPE.cells(SQUARE, (4, 4), SQUARE.steps_of(rotation)) == [(4, 4), b]


def test_rotation_90_turns_every_printed_side_clockwise():
    # FORMATS.md: W becomes north of a, E south of b, Na east of a, Sa west of a
    assert place("W", rotation=90) == ((4, 4), "N")
    assert place("E", rotation=90) == ((5, 4), "S")
    assert place("Na", rotation=90) == ((4, 4), "E")
    assert place("Sa", rotation=90) == ((4, 4), "W")
    assert place("Nb", rotation=90) == ((5, 4), "E")


def test_rotation_0_is_the_printed_orientation():
    assert place("W") == ((4, 4), "W")
    assert place("E") == ((4, 5), "E")
    assert place("Sb") == ((4, 5), "S")


def test_opposites_and_neighbours():
    assert SQUARE.opposite("N") == "S" and SQUARE.opposite("W") == "E"
    assert HEX.opposite("E") == "W" and HEX.opposite("SE") == "NW" and HEX.opposite("NE") == "SW"
    for geometry, cell in ((SQUARE, (3, 3)), (HEX, (2, 2)), (HEX, (2, 3))):
        for side in geometry.sides:
            assert geometry.across(geometry.across(cell, side), geometry.opposite(side)) == cell


def test_hex_offsets_shift_odd_rows_left():
    assert HEX.across((2, 2), "SE") == (3, 3)
    assert HEX.across((2, 3), "SE") == (2, 4)
    assert HEX.across((2, 3), "NW") == (1, 2)
    assert HEX.rotate("E", 2) == "SW" and HEX.rotate("NE", 1) == "E"


@pytest.mark.parametrize("geometry", [SQUARE, HEX], ids=["square", "hex"])
def test_distance_is_the_walk_on_open_ground(geometry):
    """Every cell's distance from two centres (an even and an odd hex row) is the steps a walk takes to it."""
    for centre in ((6, 6), (6, 7)):
        walked = ball(geometry, centre, 6)
        assert len(walked) == (85 if geometry is SQUARE else 127)   # (a diamond of radius 6; a hexagon)
        for cell, steps in walked.items():
            assert geometry.distance(centre, cell) == steps == geometry.distance(cell, centre)


@pytest.mark.parametrize("geometry", [SQUARE, HEX], ids=["square", "hex"])
def test_steps_between_answers_what_a_walk_around_the_blocked_cells_answers(geometry):
    """The distance where nothing blocks a shortest path, else a search towards the end: both the steps of a walk
    in every direction, for random walls of 1-8 cells, some on every shortest path (a detour), some beside it,
    some on an end (never reached: the cap)."""
    rng = random.Random(7)
    cells = [(q, r) for q in range(6) for r in range(6)]
    detours = 0
    for _ in range(3000):
        start, end = rng.choice(cells), rng.choice(cells)
        blocked = frozenset(rng.sample(cells, rng.randint(1, 8)))
        cap = rng.randint(1, 12)
        walked = ball(geometry, start, cap, blocked).get(end, cap)
        assert steps_between(geometry, start, end, blocked, cap) == walked, (start, end, sorted(blocked), cap)
        detours += cap > walked > geometry.distance(start, end)
    assert detours > 50   # the walls made real detours, not only straight runs
