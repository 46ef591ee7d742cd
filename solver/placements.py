"""Candidate machine placements and pipe pieces, enumerated over the Geometry interface.

The CP-SAT model gets one boolean per candidate, so everything that can be decided
before solving is decided here: a placement whose port faces the border, a blocked
cell, a pillar or its own body never becomes a variable, and neither does a pipe
piece with an end towards the border. Only `Geometry`, `Shape` and `Board` are used,
so the hex ruleset can reuse this module unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from models.board import Board
from models.catalog import Machine, PortSpec
from models.geometry import Cell
from models.rulesets import Ruleset
from models.shapes import DIAGONAL, DIAGONAL_PIPES

Slot = tuple[Cell, str]  # one side of one cell


@dataclass(frozen=True)
class PlacedPortSpec:
    """A printed port at a board slot for one candidate placement."""

    slot: Slot
    spec: PortSpec


@dataclass(frozen=True)
class Placement:
    """One candidate (machine, anchor, rotation)."""

    machine: str
    anchor: Cell
    steps: int
    rotation: int          # document value (degrees on square boards)
    cells: tuple[Cell, ...]
    ports: tuple[PlacedPortSpec, ...]


@dataclass(frozen=True)
class Piece:
    """One pipe: a set of slots joined inside a tile.

    `tile` groups the pieces of one physical tile (a diagonal tile has two pieces);
    single-cell connectors are their own tile.
    """

    slots: tuple[Slot, ...]
    cells: tuple[Cell, ...]
    tile: tuple                # ("pipe", cell, sides) or ("diagonal", anchor, rotation)

    @property
    def is_diagonal(self) -> bool:
        return self.tile[0] == "diagonal"


def _port_faces_board(board: Board, slot: Slot, body: set[Cell]) -> bool:
    other = board.neighbour(*slot)
    return other is not None and other not in body


#: placements per (ruleset id, board, machine): the sketch asks for them on every call, thousands of
#: times in a plan search (a profile of 30 s of 3-offer search spent 4.7 s enumerating them); keyed by
#: the ruleset's id because a Ruleset holds dicts and cannot be hashed (so no functools.cache)
_PLACEMENTS: dict[tuple[str, Board, Machine], tuple[Placement, ...]] = {}


def machine_placements(ruleset: Ruleset, board: Board, machine: Machine) -> tuple[Placement, ...]:
    """Every placement of `machine` on `board` whose ports all face a playable cell (computed once)."""
    key = (ruleset.id, board, machine)
    if key not in _PLACEMENTS:
        _PLACEMENTS[key] = tuple(_enumerate_placements(ruleset, board, machine))
    return _PLACEMENTS[key]


def _enumerate_placements(ruleset: Ruleset, board: Board, machine: Machine) -> list[Placement]:
    geometry, shape = ruleset.geometry, ruleset.machine_shape
    out: list[Placement] = []
    for anchor in sorted(board.cells):
        for steps, rotation in enumerate(geometry.rotation_values):
            cells = shape.cells(geometry, anchor, steps)
            if not all(board.is_playable(c) for c in cells):
                continue
            body = set(cells)
            ports = tuple(PlacedPortSpec(shape.locate(geometry, anchor, steps, p.at), p) for p in machine.ports)
            if all(_port_faces_board(board, port.slot, body) for port in ports):
                out.append(Placement(machine.id, anchor, steps, rotation, tuple(cells), ports))
    return out


def cell_pieces(ruleset: Ruleset, board: Board) -> list[Piece]:
    """Single-cell pipe pieces whose every end faces a playable cell.

    A piece joins 2..all sides of a cell; which combinations may share a cell is
    a ruleset matter handled by the model (multi_pipe_max_sides, max_pipes_per_cell).
    """
    sides = ruleset.geometry.sides
    if not ruleset.x_splitter_available:
        max_size = len(sides) - 1
    else:
        max_size = len(sides)
    out: list[Piece] = []
    for cell in sorted(board.cells):
        open_sides = [s for s in sides if board.neighbour(cell, s) is not None]
        for size in range(2, max_size + 1):
            for combo in combinations(open_sides, size):
                out.append(Piece(tuple((cell, s) for s in combo), (cell,), ("pipe", cell, combo)))
    return out


def diagonal_pieces(ruleset: Ruleset, board: Board) -> list[Piece]:
    """The two pipes of every possible diagonal intersection tile."""
    geometry = ruleset.geometry
    out: list[Piece] = []
    seen: set[frozenset] = set()
    for anchor in sorted(board.cells):
        for steps, rotation in enumerate(geometry.rotation_values):
            cells = DIAGONAL.cells(geometry, anchor, steps)
            if not all(board.is_playable(c) for c in cells):
                continue
            pipes = [tuple(DIAGONAL.locate(geometry, anchor, steps, pos) for pos in pipe) for pipe in DIAGONAL_PIPES]
            body = set(cells)
            key = frozenset(frozenset(pipe) for pipe in pipes)
            if key in seen:  # a half-turn gives the same physical tile
                continue
            seen.add(key)
            if all(_port_faces_board(board, slot, body) for pipe in pipes for slot in pipe):
                tile = ("diagonal", anchor, rotation)
                out.extend(Piece(pipe, tuple(cells), tile) for pipe in pipes)
    return out
