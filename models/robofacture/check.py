"""The rule checker for a Robofacture production space (RULES 3): the judge of every placement.

It reports every broken rule, each with its cells and parts, and never stops at the first:
- `inside`: parts lie inside the space;
- `overlap`: a part never lies over another (a premarked cell, a monomino of the player's colour printed on the
  space, may be covered);
- `same-colour`: two orthogonally adjacent cells never share a colour, except white.
It also returns the filled space, cell by colour (a premarked cell no part covers shows the player's colour), which
`shipping.py` scores. The solver's placements go through here before they are shown or written.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .parts import WHITE, Cell, covered
from .puzzle import Puzzle

#: a premarked cell's owner in `Filling.owner`: no part, the space itself
PRINTED = -1


@dataclass(frozen=True)
class Violation:
    rule: str
    message: str
    cells: tuple[Cell, ...]
    parts: tuple[int, ...] = ()

    def to_dict(self) -> dict:
        return {"rule": self.rule, "message": self.message, "cells": [list(c) for c in self.cells],
                "parts": list(self.parts)}


@dataclass(frozen=True)
class Filling:
    """What the space holds: each filled cell's colour and what fills it (a part's index, or PRINTED), and on a
    cell two or more parts lie on (an overlap, which the checker reports), the colours and parts over the first
    (`stacked`), so that a picture shows every part there (QA pass 52: only the first part's colour was drawn)."""

    colours: dict[Cell, str]
    owner: dict[Cell, int]
    stacked: dict[Cell, tuple[tuple[str, int], ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdict:
    filling: Filling
    violations: tuple[Violation, ...]

    @property
    def legal(self) -> bool:
        return not self.violations


def check(puzzle: Puzzle) -> Verdict:
    """Fill the space with the placed parts and report every rule they break.

    A cell two parts lie on keeps both as layers, so each part's colour is judged against its neighbours (QA
    pass 47: only the first part's was, so a second part's touching a cell of its colour went unreported); the
    filling shows the first."""
    space = puzzle.space
    layers: dict[Cell, list[tuple[str, int]]] = {cell: [(space.player, PRINTED)] for cell in space.premarked}
    violations: list[Violation] = []
    for placement in puzzle.placed:
        part = puzzle.parts[placement.part]
        cells = covered(part, placement)
        outside = tuple(sorted(cell for cell in cells if not space.inside(cell)))
        if outside:
            violations.append(Violation("inside", f"part {placement.part} ({part.label()}) reaches outside the "
                                        f"{space.rows} x {space.cols} space", outside, (placement.part,)))
        for cell, colour in sorted(cells.items()):
            if not space.inside(cell):
                continue
            under = [owner for _, owner in layers.get(cell, []) if owner != PRINTED]
            if under:   # (each pair: a third part on the cell overlaps both before it; QA pass 52)
                violations.extend(Violation("overlap", f"parts {other} and {placement.part} lie on one cell",
                                            (cell,), (other, placement.part)) for other in under)
                layers[cell].append((colour, placement.part))
            else:
                layers[cell] = [(colour, placement.part)]   # (over a premarked cell, which a part may cover)
    for (row, col), here in sorted(layers.items()):
        for other in ((row, col + 1), (row + 1, col)):
            for colour, owner in here:
                for their_colour, their_owner in layers.get(other, []):
                    if colour == their_colour != WHITE:
                        touching = tuple(sorted({owner, their_owner} - {PRINTED}))
                        violations.append(Violation("same-colour", f"two {colour} cells touch", ((row, col), other),
                                                    touching))
    colours = {cell: here[0][0] for cell, here in layers.items()}
    owner = {cell: here[0][1] for cell, here in layers.items()}
    stacked = {cell: tuple(here[1:]) for cell, here in layers.items() if len(here) > 1}
    return Verdict(Filling(colours, owner, stacked), tuple(violations))
