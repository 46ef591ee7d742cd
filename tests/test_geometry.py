"""Geometry and machine rotation as FORMATS.md defines them."""
from __future__ import annotations

import pytest

from models.geometry import HEX, SQUARE
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
