"""Multi-cell pieces (machines, the diagonal tile) placed by anchor and rotation.

A shape is described in its printed orientation: the anchor cell, then further
cells reached by stepping across printed sides, and named positions on its
sides. Placing it turns every printed side by the rotation, so one description
serves all rotations and both geometries.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .geometry import Cell, Geometry


@dataclass(frozen=True)
class Shape:
    chain: tuple[str, ...]
    positions: dict[str, tuple[int, str]] = field(default_factory=dict)

    @property
    def cell_count(self) -> int:
        """Cells the shape covers: the anchor and one per step of its chain."""
        return len(self.chain) + 1

    def cells(self, geometry: Geometry, anchor: Cell, steps: int) -> list[Cell]:
        cells = [anchor]
        for side in self.chain:
            cells.append(geometry.across(cells[-1], geometry.rotate(side, steps)))
        return cells

    def locate(self, geometry: Geometry, anchor: Cell, steps: int, position: str) -> tuple[Cell, str]:
        """Board cell and board side of a named position."""
        index, side = self.positions[position]
        return self.cells(geometry, anchor, steps)[index], geometry.rotate(side, steps)


SQUARE_DOMINO_MACHINE = Shape(
    chain=("E",),
    positions={"W": (0, "W"), "E": (1, "E"), "Na": (0, "N"), "Nb": (1, "N"), "Sa": (0, "S"), "Sb": (1, "S")},
)
HEX_MACHINE = Shape(chain=(), positions={s: (0, s) for s in ("E", "SE", "SW", "W", "NW", "NE")})
#: the optional diagonal intersection: a domino with two pipes a-N<->b-S and a-S<->b-N
DIAGONAL = Shape(chain=("E",), positions={"aN": (0, "N"), "aS": (0, "S"), "bN": (1, "N"), "bS": (1, "S")})
DIAGONAL_PIPES = (("aN", "bS"), ("aS", "bN"))
