"""Moving a component grown on an open patch onto the real board.

When the prover's blocks say a target is reachable ("open"), growth has already
built the component that reaches it: a whole layout of every machine, on an
open patch. If a translation puts it on the real board clear of the border,
blocked cells and pillars, the rule checker passes it there too, and the
prover has its layout without the position split (164 board parts on classic-A,
each a presolve of the whole board, which often did not finish in time).
"""
from __future__ import annotations

from dataclasses import replace

from models.board import Board
from models.check import check_layout
from models.geometry import Cell
from models.layout import Layout


def _shift(cell: Cell, offset: tuple[int, int]) -> Cell:
    return (cell[0] + offset[0], cell[1] + offset[1])


def embed(component: Layout, board: Board, at_least: int) -> Layout | None:
    """The component translated onto `board`, legal there and scoring `at_least`, or None.

    Translations only (square cells are (row, column) pairs): each is judged by
    the checker, so nothing illegal can come out of here.
    """
    cells = [c for m in component.machines for c in component.machine_footprint(m)]
    cells += [t.cell for t in component.tiles]
    rows = [r for r, _ in board.cells]
    cols = [c for _, c in board.cells]
    low_r, high_r = min(r for r, _ in cells), max(r for r, _ in cells)
    low_c, high_c = min(c for _, c in cells), max(c for _, c in cells)
    for dr in range(min(rows) - low_r, max(rows) - high_r + 1):
        for dc in range(min(cols) - low_c, max(cols) - high_c + 1):
            offset = (dr, dc)
            if not all(_shift(c, offset) in board.cells for c in cells):
                continue
            moved = Layout(component.ruleset, board, component.catalog,
                           tuple(replace(m, cell=_shift(m.cell, offset)) for m in component.machines),
                           tuple(replace(t, cell=_shift(t.cell, offset)) for t in component.tiles))
            result = check_layout(moved)
            if result.legal and result.score.total >= at_least:
                return moved
    return None
