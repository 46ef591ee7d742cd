"""The decision variables of the static-build model, in one container.

Constraint families (solver/constraints.py) only read and add to this container,
so each family can be built, fixed and tested on its own. Helpers such as
`active(slot)` say what the variables mean in game terms.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from models.board import Board
from models.catalog import Catalog
from models.geometry import Cell
from models.layout import Tile
from models.rulesets import Ruleset

from .placements import Piece, Placement, Slot

LinearExpr = cp_model.LinearExprT


@dataclass(frozen=True)
class PortGroup:
    """All candidate placements that put the same kind of port on one slot."""

    slot: Slot
    kind: str                    # "in" | "out"
    colors: tuple[str, ...]
    amount: int | None           # None = black end product
    literal: cp_model.IntVar     # true iff one of those placements is chosen
    placements: tuple[int, ...]


@dataclass
class StaticVars:
    """Everything the model decides, indexed by game objects."""

    ruleset: Ruleset
    board: Board
    catalog: Catalog
    machine_ids: tuple[str, ...]
    colors: tuple[str, ...]                      # supply colours + "black"
    placements: list[Placement] = field(default_factory=list)
    x: list[cp_model.IntVar] = field(default_factory=list)
    by_machine: dict[str, list[int]] = field(default_factory=dict)
    placed: dict[str, cp_model.IntVar] = field(default_factory=dict)
    pieces: list[Piece] = field(default_factory=list)
    y: list[cp_model.IntVar] = field(default_factory=list)
    diagonal_tiles: dict[tuple, cp_model.IntVar] = field(default_factory=dict)
    diagonal_cells: dict[tuple, tuple[Cell, ...]] = field(default_factory=dict)
    supply: dict[tuple[Cell, str], cp_model.IntVar] = field(default_factory=dict)
    output: dict[Cell, cp_model.IntVar] = field(default_factory=dict)
    end: dict[Cell, cp_model.IntVar] = field(default_factory=dict)
    #: oriented tanks (hex): one literal per tile (kind, cell, opening side, colour or None);
    #: the per-cell supply/output/end literals above are then their sums, so every
    #: rule written over cells holds unchanged and only openings and tile identity differ
    oriented: dict[tuple[str, Cell, str, str | None], cp_model.IntVar] = field(default_factory=dict)
    oriented_at: dict[Slot, list[cp_model.IntVar]] = field(default_factory=dict)
    # edges between playable cells, each once: (a, side of a, b)
    edges: list[tuple[Cell, str, Cell]] = field(default_factory=list)
    slot_edge: dict[Slot, tuple[int, int]] = field(default_factory=dict)  # slot -> (edge, +1 if slot is on a)
    conn: list[cp_model.IntVar] = field(default_factory=list)
    ecol: list[dict[str, cp_model.IntVar]] = field(default_factory=list)
    fed: list[cp_model.IntVar] = field(default_factory=list)
    tag: list[cp_model.IntVar] = field(default_factory=list)
    flow: list[cp_model.IntVar] = field(default_factory=list)
    rank: dict[str, cp_model.IntVar] = field(default_factory=dict)
    cell_rank: dict[Cell, cp_model.IntVar] = field(default_factory=dict)
    port_groups: list[PortGroup] = field(default_factory=list)
    bonus: list[tuple[cp_model.IntVar, int]] = field(default_factory=list)  # (literal, points)
    fed_input: dict[tuple[str, str], cp_model.IntVar] = field(default_factory=dict)  # (machine, port at)
    #: per cell, the flow tightenings a fixed tank there must be free of (constraints.add_flows)
    waste_barred: dict[Cell, tuple] = field(default_factory=dict)   # (net outflow, supply literal, sends, receives)
    # derived index tables
    placements_at: dict[Cell, list[int]] = field(default_factory=dict)
    pieces_at_slot: dict[Slot, list[int]] = field(default_factory=dict)
    pieces_in_cell: dict[Cell, list[int]] = field(default_factory=dict)  # single-cell pieces only
    flow_cap: int = 1
    _groups_at_cache: tuple = field(default_factory=lambda: ({}, []), repr=False)

    # -- meanings ------------------------------------------------------------
    @property
    def cells(self) -> list[Cell]:
        return sorted(self.board.cells)

    def sides(self, cell: Cell) -> list[str]:
        """Sides of `cell` that face another playable cell."""
        return [s for s in self.ruleset.geometry.sides if (cell, s) in self.slot_edge]

    def port_here(self, slot: Slot) -> LinearExpr:
        return sum(g.literal for g in self.port_groups_at.get(slot, ()))

    def pipe_end(self, slot: Slot) -> LinearExpr:
        return sum(self.y[i] for i in self.pieces_at_slot.get(slot, ()))

    def active(self, slot: Slot) -> LinearExpr:
        """1 iff a port or a pipe end opens on this slot."""
        return self.port_here(slot) + self.pipe_end(slot)

    def tank(self, cell: Cell) -> LinearExpr:
        return sum(self.supply[(cell, c)] for c in self.ruleset.colors) + self.output[cell] + self.end[cell]

    def tank_open(self, slot: Slot) -> LinearExpr:
        """1 iff an oriented tank opens on this slot (always 0 on square boards)."""
        return sum(self.oriented_at.get(slot, ()))

    def tank_literals(self) -> list[cp_model.IntVar]:
        """One literal per possible tank tile, as a layout names it (with its side on hex boards).

        Tile identity matters for costs between rounds: turning an oriented tank
        is a new tile, so on hex boards the side-level literals are the tiles.
        """
        if self.ruleset.oriented_tanks:
            return list(self.oriented.values())
        return list(self.supply.values()) + list(self.output.values()) + list(self.end.values())

    def tank_literal(self, tile: Tile) -> cp_model.IntVar:
        """The literal of one tank tile; KeyError if the model has none (e.g. an opening at the border)."""
        if self.ruleset.oriented_tanks:
            return self.oriented[(tile.kind, tile.cell, tile.side, tile.color)]
        if tile.kind == "supply":
            return self.supply[(tile.cell, tile.color)]
        return (self.output if tile.kind == "output" else self.end)[tile.cell]

    def supply_any(self, cell: Cell) -> LinearExpr:
        return sum(self.supply[(cell, c)] for c in self.ruleset.colors)

    def machine_on(self, cell: Cell) -> LinearExpr:
        return sum(self.x[i] for i in self.placements_at.get(cell, ()))

    def outflow(self, slot: Slot) -> LinearExpr:
        """Flow leaving the slot's cell through that side (negative = entering)."""
        edge, sign = self.slot_edge[slot]
        return sign * self.flow[edge]

    @property
    def port_groups_at(self) -> dict[Slot, list[PortGroup]]:
        """Port groups by slot (built once the groups exist; they never change after)."""
        if len(self._groups_at_cache[1]) != len(self.port_groups):
            table: dict[Slot, list[PortGroup]] = {}
            for group in self.port_groups:
                table.setdefault(group.slot, []).append(group)
            self._groups_at_cache = (table, list(self.port_groups))
        return self._groups_at_cache[0]
