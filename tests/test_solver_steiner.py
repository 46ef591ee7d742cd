"""The fewest cells a network needs to reach several faced cells around machine bodies (solver/steiner.py)."""
from __future__ import annotations

from models.geometry import HEX, SQUARE
from solver.steiner import steiner_cells

WALL = frozenset((1, c) for c in range(-3, 4))


def test_two_cells_need_the_walk_around_a_wall_between_them():
    """(0, 0) and (2, 0) with a wall of seven cells between: four steps out, two down, four back: 11 cells."""
    assert steiner_cells(SQUARE, [(0, 0), (2, 0)], WALL, 40) == 11
    assert steiner_cells(SQUARE, [(0, 0), (2, 0)], frozenset(), 40) == 3


def test_four_corners_share_a_tree_cheaper_than_two_walks_but_dearer_than_their_box():
    """The corners of a 5 x 5 square: a tree of 13 cells (a spine and two arms each side), where the
    bounding box says 9 and two separate walks 18."""
    corners = [(0, 0), (0, 4), (4, 0), (4, 4)]
    assert steiner_cells(SQUARE, corners, frozenset(), 40) == 13


def test_three_faced_cells_meet_at_a_junction_not_at_a_terminal():
    """(0, 0), (0, 4) and (3, 2): the best tree joins at (0, 2), 5 + 3 = 8 cells."""
    assert steiner_cells(SQUARE, [(0, 0), (0, 4), (3, 2)], frozenset(), 40) == 8


def test_the_limit_caps_the_answer_and_a_blocked_terminal_is_the_limit():
    assert steiner_cells(SQUARE, [(0, 0), (2, 0)], WALL, 6) == 6
    assert steiner_cells(SQUARE, [(1, 0), (5, 5)], WALL, 30) == 30
    assert steiner_cells(SQUARE, [(3, 3)], frozenset(), 30) == 1
    assert steiner_cells(SQUARE, [(3, 3), (3, 3)], frozenset(), 30) == 1


def test_hex_cells_use_the_hex_neighbours():
    """On the hex grid (0, 0) and (0, 1) touch (SW of an even row), where on the square grid they are two
    cells of a column too; (0, 1) and (1, 0) do not touch on either, so with (0, 0) between them: three cells.
    Two cells two steps apart along E: three, on both."""
    assert steiner_cells(HEX, [(0, 0), (0, 1)], frozenset(), 20) == 2
    assert steiner_cells(HEX, [(0, 0), (1, 0), (0, 1)], frozenset(), 20) == 3
    assert steiner_cells(HEX, [(0, 0), (2, 0)], frozenset(), 20) == 3
    assert steiner_cells(HEX, [(0, 1), (1, 1)], frozenset({(0, 0), (1, 0), (1, 2), (0, 2)}), 20) == 2
    assert steiner_cells(HEX, [(0, 0), (0, 2)], frozenset(), 20) == 3   # through (1, 1)
    assert steiner_cells(HEX, [(0, 0), (0, 2)], frozenset({(0, 1), (1, 1)}), 20) == 5   # around them
