"""Shipping a filled production space (RULES 3): cut it down to a rectangle and score the product.

Score = base - cuts - white cells inside the rectangle. The base depends on the rectangle's size, from 2 x 2 up to
4 x 4, the largest product; bigger products also pay Robo Gold (RG). A cut is a straight cut through the whole
shape along one side of the rectangle, removing everything beyond it, and the cuts counted are the fewest that
leave the rectangle alone (0-4; the rulebook: "the shortest number of straight cuts"). A filled cell beyond a
corner of the rectangle goes with either of the two cuts at that corner, so it needs a cut of its own only when
neither is made for another cell. This module knows nothing of parts: it reads a map of filled cells to colours,
which the checker builds, so the solver's claim about a shipment is judged by code that never saw the solver.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations
from dataclasses import dataclass

from .parts import WHITE, Cell

#: (short side, long side) -> (base points, Robo Gold); a side of 5 or more is no product (4 x 4 is the largest)
BASES: dict[tuple[int, int], tuple[int, int]] = {
    (2, 2): (1, 0), (2, 3): (3, 0), (2, 4): (3, 0), (3, 3): (6, 1), (3, 4): (10, 3), (4, 4): (15, 5),
}
SIDES = ("top", "right", "bottom", "left")
#: every product's (rows, cols), both ways round
PRODUCT_SIZES: tuple[tuple[int, int], ...] = tuple(sorted({(a, b) for a, b in BASES} | {(b, a) for a, b in BASES}))


def base_of(rows: int, cols: int) -> tuple[int, int] | None:
    """Base points and RG of a rows x cols product, or None when no product has that size."""
    return BASES.get((min(rows, cols), max(rows, cols)))


@dataclass(frozen=True)
class Shipment:
    """One way to ship: the rectangle (top-left cell, rows, cols) and what it scores."""

    top: int
    left: int
    rows: int
    cols: int
    base: int
    robo_gold: int
    cut_sides: tuple[str, ...]
    whites: int
    colours: tuple[str, ...]

    @property
    def cuts(self) -> int:
        return len(self.cut_sides)

    @property
    def score(self) -> int:
        return self.base - self.cuts - self.whites

    @property
    def cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.top, self.top + self.rows) for c in range(self.left, self.left + self.cols)]

    def rank(self) -> tuple:
        """Best first: the score, then the RG it pays (a player takes 3 RG over 1 at equal points), then the
        top-left-most rectangle, so the same space always names the same shipment."""
        return (-self.score, -self.robo_gold, self.top, self.left, self.rows, self.cols)

    def to_dict(self) -> dict:
        return {"cell": [self.top, self.left], "rows": self.rows, "cols": self.cols, "base": self.base,
                "robo_gold": self.robo_gold, "cuts": self.cuts, "cut_sides": list(self.cut_sides),
                "whites": self.whites, "score": self.score, "colors": list(self.colours)}


def product_colours(colours: list[str]) -> tuple[str, ...]:
    """The product's colour: the most frequent in the rectangle; on a tie, any non-white one of them (RULES 3),
    so every candidate is listed and the player picks."""
    counts = Counter(colours)
    most = max(counts.values())
    tied = sorted(colour for colour, count in counts.items() if count == most)
    coloured = tuple(colour for colour in tied if colour != WHITE)
    return coloured or tuple(tied)


def shipment_at(filled: dict[Cell, str], top: int, left: int, rows: int, cols: int) -> Shipment | None:
    """The shipment of this rectangle, or None when it is no product size or not wholly filled."""
    base = base_of(rows, cols)
    inside = [(r, c) for r in range(top, top + rows) for c in range(left, left + cols)]
    if base is None or any(cell not in filled for cell in inside):
        return None
    colours = [filled[cell] for cell in inside]
    return Shipment(top, left, rows, cols, base[0], base[1], fewest_cuts(set(filled), top, left, rows, cols),
                    colours.count(WHITE), product_colours(colours))


def sides_beyond(cell: Cell, top: int, left: int, rows: int, cols: int) -> frozenset[str]:
    """The sides of the rectangle a cell lies beyond: none inside it, one beside it, two beyond a corner."""
    row, col = cell
    return frozenset(side for side, beyond in (("top", row < top), ("right", col >= left + cols),
                                               ("bottom", row >= top + rows), ("left", col < left)) if beyond)


def fewest_cuts(filled: set[Cell], top: int, left: int, rows: int, cols: int) -> tuple[str, ...]:
    """The fewest sides to cut along so that no filled cell is left beyond the rectangle (among equally few,
    the first in SIDES order)."""
    needs = {sides_beyond(cell, top, left, rows, cols) for cell in filled} - {frozenset()}
    for count in range(len(SIDES) + 1):
        for cut in combinations(SIDES, count):
            if all(need & set(cut) for need in needs):
                return cut
    raise AssertionError("cutting all four sides leaves the rectangle alone")


def shipments(filled: dict[Cell, str]) -> list[Shipment]:
    """Every rectangle the filled cells can ship, best first."""
    if not filled:
        return []
    top, bottom = min(r for r, _ in filled), max(r for r, _ in filled)
    left, right = min(c for _, c in filled), max(c for _, c in filled)
    found = []
    for rows, cols in PRODUCT_SIZES:
        for r in range(top, bottom - rows + 2):
            for c in range(left, right - cols + 2):
                shipment = shipment_at(filled, r, c, rows, cols)
                if shipment is not None:
                    found.append(shipment)
    return sorted(found, key=Shipment.rank)


def best_shipment(filled: dict[Cell, str]) -> Shipment | None:
    """The best way to ship the filled cells, or None when no 2 x 2 of them is filled."""
    found = shipments(filled)
    return found[0] if found else None
