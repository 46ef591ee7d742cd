"""Cell geometries behind one interface.

A board is a graph of cells and cell sides. The only things that differ between
the square and the hex rulesets are how sides are named, which side is opposite
which, how a side turns under rotation, and which cell lies across a side. Every
other module asks this interface and never assumes a grid shape.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from heapq import heappop, heappush
from typing import Tuple

Cell = Tuple[int, int]


class Geometry(ABC):
    """Side names, opposites, rotation and neighbour offsets of one grid kind."""

    name: str
    sides: tuple[str, ...]
    #: degrees of one rotation step as written in documents (90 square, 1 hex step)
    rotation_values: tuple[int, ...]
    #: which coordinate of a cell is its row on screen (square [row, col]: 0; hex [q, r]: 1)
    row_index: int = 0

    def extent(self, cells) -> tuple[int, int]:
        """(rows, cols) of the bounding box a drawing of `cells` needs."""
        rows = max(cell[self.row_index] for cell in cells) + 1
        return rows, max(cell[1 - self.row_index] for cell in cells) + 1

    def span(self, cells) -> tuple[int, int]:
        """(rows, cols) the cells themselves cover, from their least row and column to their greatest (a board's
        size as `boards` lists it; QA: a hex board of cells 33-38 listed as 39x39, its extent from 0, 0)."""
        rows = [cell[self.row_index] for cell in cells]
        cols = [cell[1 - self.row_index] for cell in cells]
        return max(rows) - min(rows) + 1, max(cols) - min(cols) + 1

    def rectangle(self, rows: int, cols: int) -> set[Cell]:
        """The cells of a board `rows` high and `cols` wide on screen (hex [q, r]: r counts the rows; QA: a hex
        board of 4 rows x 5 cols was laid as 5 rows of 4, and its drawings lost the last row)."""
        return {(r, c) if self.row_index == 0 else (c, r) for r in range(rows) for c in range(cols)}

    def opposite(self, side: str) -> str:
        index = self.sides.index(side)
        return self.sides[(index + len(self.sides) // 2) % len(self.sides)]

    def rotate(self, side: str, steps: int) -> str:
        """The side that `side` becomes after `steps` clockwise steps."""
        index = self.sides.index(side)
        return self.sides[(index + steps) % len(self.sides)]

    def steps_of(self, rotation: int) -> int:
        """Number of clockwise steps for a document rotation value."""
        return self.rotation_values.index(rotation)

    @abstractmethod
    def across(self, cell: Cell, side: str) -> Cell:
        """The cell on the other side of `side` (it may be off the board)."""

    @abstractmethod
    def distance(self, one: Cell, two: Cell) -> int:
        """Steps between two cells on open ground, without a walk."""


class SquareGeometry(Geometry):
    """Cells [row, col], row 0 at the top; sides N, E, S, W clockwise."""

    name = "square"
    sides = ("N", "E", "S", "W")
    rotation_values = (0, 90, 180, 270)
    _offsets = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}

    def across(self, cell: Cell, side: str) -> Cell:
        dr, dc = self._offsets[side]
        return (cell[0] + dr, cell[1] + dc)

    def distance(self, one: Cell, two: Cell) -> int:
        return abs(one[0] - two[0]) + abs(one[1] - two[1])


class HexGeometry(Geometry):
    """Pointy-top hexes [q, r] in odd-r offset rows shifted half a hex left.

    Sides E, SE, SW, W, NW, NE run clockwise on screen (y down).
    """

    name = "hex"
    sides = ("E", "SE", "SW", "W", "NW", "NE")
    row_index = 1
    rotation_values = (0, 1, 2, 3, 4, 5)
    _even = {"E": (1, 0), "SE": (1, 1), "SW": (0, 1), "W": (-1, 0), "NW": (0, -1), "NE": (1, -1)}
    _odd = {"E": (1, 0), "SE": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1), "NE": (0, -1)}

    def across(self, cell: Cell, side: str) -> Cell:
        dq, dr = (self._odd if cell[1] % 2 else self._even)[side]
        return (cell[0] + dq, cell[1] + dr)

    @staticmethod
    def axial(cell: Cell) -> Cell:
        """The cell in axial coordinates, where a step is the same vector from every row (offset rows shift every
        other row, so no sum of offsets is a translation)."""
        return (cell[0] - (cell[1] + 1) // 2, cell[1])

    @staticmethod
    def offset(vector: Cell) -> Cell:
        """`axial` undone."""
        return (vector[0] + (vector[1] + 1) // 2, vector[1])

    def distance(self, one: Cell, two: Cell) -> int:
        """Half the cube coordinates' differences."""
        (x1, y1), (x2, y2) = self.axial(one), self.axial(two)
        dx, dy = x1 - x2, y1 - y2
        return (abs(dx) + abs(dy) + abs(dx + dy)) // 2


SQUARE = SquareGeometry()
HEX = HexGeometry()
GEOMETRIES: dict[str, Geometry] = {g.name: g for g in (SQUARE, HEX)}


def ball(geometry: Geometry, centre: Cell, radius: int,
         blocked: frozenset[Cell] | set[Cell] = frozenset()) -> dict[Cell, int]:
    """Every cell within `radius` steps of `centre` on open ground (never through `blocked`), with its distance
    (one cell's distance alone: `steps_between`)."""
    seen = {centre: 0}
    queue = deque([centre])
    across = geometry.across
    while queue:
        cell = queue.popleft()
        step = seen[cell] + 1
        if step > radius:
            continue
        for side in geometry.sides:
            other = across(cell, side)
            if other not in seen and other not in blocked:
                seen[other] = step
                queue.append(other)
    return seen


def steps_between(geometry: Geometry, start: Cell, end: Cell, blocked: frozenset[Cell] | set[Cell], cap: int) -> int:
    """Steps from `start` to `end` never through `blocked` (at most `cap`). Where no blocked cell lies on any
    shortest path between the two (none is as far from both together as they are apart), that is their
    distance, without a walk: the pair and triangle cuts ask this of every placement they try (a third of a hex
    audit's time went to the walks)."""
    direct = geometry.distance(start, end)
    if direct >= cap:
        return cap
    if not any(geometry.distance(start, cell) + geometry.distance(cell, end) == direct for cell in blocked):
        return direct
    return _detour(geometry, start, end, blocked, cap)


def _detour(geometry: Geometry, start: Cell, end: Cell, blocked, cap: int) -> int:
    """The steps of a walk around `blocked` (at most `cap`), searched towards `end` (A*, its distance the guide:
    it never overestimates, so the first time `end` comes out of the queue its steps are the fewest). A short
    detour around a machine visits a few cells where a walk in every direction visits the whole disc."""
    distance, across = geometry.distance, geometry.across
    steps = {start: 0}
    queue = [(distance(start, end), 0, start)]
    while queue:
        guess, negative, cell = heappop(queue)
        if guess > cap:
            break
        if cell == end:
            return -negative
        if -negative > steps[cell]:
            continue   # (reached by a shorter walk since it was queued)
        step = 1 - negative
        for side in geometry.sides:
            other = across(cell, side)
            if other not in blocked and step < steps.get(other, cap + 1):
                steps[other] = step
                heappush(queue, (step + distance(other, end), -step, other))
    return cap
