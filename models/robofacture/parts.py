"""Robofacture's parts: polyominoes coloured in a two-colour checkerboard, turned and flipped freely.

A part is described once, in a printed orientation, as cells (row, col) with a colour each. Turning or flipping
moves the cells and their colours together (the tiles are printed alike on both faces), so every placement's
colours follow from the description: nothing here assumes which colour lands on which board square.
"""
from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]

#: RULES 3: monominoes come in five colours; red, blue, yellow and green are also the players' colours
COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green", "white")
PLAYER_COLOURS: tuple[str, ...] = COLOURS[:4]
#: the one colour whose cells may touch each other, and that costs a point inside a shipped rectangle
WHITE = "white"

#: each kind's cells in its printed orientation (row, col); the names are RULES 3's
SHAPES: dict[str, tuple[Cell, ...]] = {
    "mono": ((0, 0),),
    "I3": ((0, 0), (0, 1), (0, 2)),
    "L3": ((0, 0), (1, 0), (1, 1)),
    "L4": ((0, 0), (1, 0), (2, 0), (2, 1)),
    "T4": ((0, 0), (0, 1), (0, 2), (1, 1)),
    "S4": ((0, 1), (0, 2), (1, 0), (1, 1)),
    "L5": ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)),
    "T5": ((0, 0), (0, 1), (0, 2), (1, 1), (2, 1)),
    "M5": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
}
ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)


@dataclass(frozen=True)
class Part:
    """One part: its kind and its colours (one for a monomino; for the others the colour of the printed
    shape's even squares, (row + col) even, then of its odd squares)."""

    kind: str
    colours: tuple[str, ...]

    def colour_at(self, cell: Cell) -> str:
        """The colour of one of the printed shape's cells."""
        return self.colours[(cell[0] + cell[1]) % len(self.colours)]

    @property
    def size(self) -> int:
        return len(SHAPES[self.kind])

    def label(self) -> str:
        """How a player names it: "L4 red/blue", "mono white"."""
        return f"{self.kind} {'/'.join(self.colours)}"


@dataclass(frozen=True)
class Placement:
    """Where a part lies: the top-left corner of its bounding box, then a clockwise turn of the printed shape,
    after a left-right flip when `flip` (flip first, then turn)."""

    part: int
    cell: Cell
    rotation: int = 0
    flip: bool = False


def transform(cell: Cell, rotation: int, flip: bool) -> Cell:
    """A printed cell after the flip (mirror left-right) and `rotation` degrees clockwise, before the shift."""
    row, col = cell
    if flip:
        col = -col
    for _ in range(rotation // 90):
        row, col = col, -row
    return row, col


def covered(part: Part, placement: Placement) -> dict[Cell, str]:
    """The space cells a placed part covers, each with its colour."""
    moved = {transform(cell, placement.rotation, placement.flip): part.colour_at(cell) for cell in SHAPES[part.kind]}
    top = min(row for row, _ in moved)
    left = min(col for _, col in moved)
    r0, c0 = placement.cell
    return {(row - top + r0, col - left + c0): colour for (row, col), colour in moved.items()}


def orientations(part: Part) -> list[tuple[int, bool]]:
    """The (rotation, flip) pairs that give different coloured pictures of the part, in a fixed order: the
    solver places each once (an S4 has 4 turns and flips that look different, a mono one)."""
    seen: set[frozenset] = set()
    distinct = []
    for flip in (False, True):
        for rotation in ROTATIONS:
            picture = frozenset(covered(part, Placement(0, (0, 0), rotation, flip)).items())
            if picture not in seen:
                seen.add(picture)
                distinct.append((rotation, flip))
    return distinct
