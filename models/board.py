"""Boards: the playable cells of one geometry, with blocked cells and pillars."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .errors import DocumentError, as_json, expect, expect_cell, expect_int_in, expect_plain_id, require_keys
from .geometry import GEOMETRIES, Cell, Geometry
from .jsonio import read_json, refuse_catalogue, refuse_play_document
from .paths import BOARDS_DIR
from .rulesets import Ruleset


@dataclass(frozen=True)
class Board:
    id: str
    geometry: Geometry
    cells: frozenset[Cell]            # playable cells only
    blocked: frozenset[Cell]          # inside the bounding shape but outside the outline
    pillars: frozenset[Cell]
    rows: int = 0                     # bounding box, for drawing
    cols: int = 0
    _neighbours: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        table = {}
        for cell in self.cells:
            for side in self.geometry.sides:
                other = self.geometry.across(cell, side)
                table[(cell, side)] = other if other in self.cells else None
        object.__setattr__(self, "_neighbours", table)

    def neighbour(self, cell: Cell, side: str) -> Cell | None:
        """The playable cell across `side`, or None (border, blocked, pillar)."""
        return self._neighbours.get((cell, side))

    def is_playable(self, cell: Cell) -> bool:
        return cell in self.cells

    def why_not_playable(self, cell: Cell) -> str:
        if cell in self.pillars:
            return "is on a pillar cell"
        if cell in self.blocked:
            return "is on a blocked cell"
        return "is off the board"

    def edges(self) -> list[tuple[Cell, str, Cell]]:
        """Every inner edge once: (cell, side, neighbour)."""
        out = []
        for (cell, side), other in self._neighbours.items():
            if other is not None and cell < other:
                out.append((cell, side, other))
        return sorted(out)

    def all_drawn_cells(self) -> set[Cell]:
        return set(self.cells) | set(self.pillars) | set(self.blocked)


#: the largest board side accepted from a boards file: the printed boards are 8-10 cells a side, and
#: the solver's models grow with the area (a 10**5-cell side would never finish loading)
MAX_SIDE = 40


def board_document(board: Board) -> dict:
    """The board as a boards file lists it: `parse_boards` reads it back to an equal board, so
    `factoryfun boards --json` output works as `--boards FILE`."""
    shape = board.all_drawn_cells()
    entry: dict = {"id": board.id, "geometry": board.geometry.name}
    if shape == board.geometry.rectangle(board.rows, board.cols):
        entry.update(rows=board.rows, cols=board.cols)
    else:
        entry["cells"] = sorted(map(list, shape))
    entry.update(blocked=sorted(map(list, board.blocked)), pillars=sorted(map(list, board.pillars)))
    return entry


def boards_document(ruleset: Ruleset, boards: list[Board]) -> dict:
    """A boards file holding `boards` (see `board_document`)."""
    return {"ruleset": ruleset.id, "boards": [board_document(b) for b in boards]}


def _parse_cells(source: str, key: str, raw: object) -> set[Cell]:
    """A list of distinct cells, each coordinate within 0..MAX_SIDE-1 (a cell listed twice is a typo)."""
    cells: set[Cell] = set()
    for j, value in enumerate(expect(source, key, raw, list, "a list of cells")):
        cell = expect_cell(source, f"{key}[{j}]", value)
        if not all(0 <= v < MAX_SIDE for v in cell):
            raise DocumentError(source, f"{key}[{j}]", f"cell coordinates must be from 0 to {MAX_SIDE - 1} "
                                f"(boards are at most {MAX_SIDE}x{MAX_SIDE})", cell)
        if cell in cells:
            raise DocumentError(source, f"{key}[{j}]", "cell listed twice", cell)
        cells.add(cell)
    return cells


def _shape(source: str, key: str, raw: dict, geometry: Geometry) -> tuple[set[Cell], int, int]:
    """The board's cells (listed, or a rows x cols rectangle) and its bounding rows and cols."""
    if "cells" in raw:
        for extra in ("rows", "cols"):   # (QA: both were taken, the rows and cols silently ignored)
            if extra in raw:
                raise DocumentError(source, f"{key}.{extra}", "give the board's cells or its rows and cols, not both")
        shape = _parse_cells(source, f"{key}.cells", raw["cells"])
        if not shape:
            raise DocumentError(source, f"{key}.cells", "a board needs at least one cell")
        # (a square board given by its cells was drawn with its rows and columns swapped: a 2 x 5 strip as 5 x 2)
        return shape, *geometry.extent(shape)
    cap = f"boards are at most {MAX_SIDE}x{MAX_SIDE}"
    for needed in ("rows", "cols"):
        if needed not in raw:
            raise DocumentError(source, f"{key}.{needed}", "missing key (a board gives rows and cols, or cells)")
    rows = expect_int_in(source, f"{key}.rows", raw.get("rows"), 1, MAX_SIDE, "an integer row count", note=cap)
    cols = expect_int_in(source, f"{key}.cols", raw.get("cols"), 1, MAX_SIDE, "an integer column count", note=cap)
    return geometry.rectangle(rows, cols), rows, cols


def _parse_board(source: str, key: str, raw: object) -> Board:
    require_keys(source, key, raw, {"id", "geometry"}, {"rows", "cols", "blocked", "pillars", "cells"})
    assert isinstance(raw, dict)
    # (QA: a list or an object here was looked up as a key: a TypeError traceback)
    geometry = GEOMETRIES.get(raw["geometry"]) if isinstance(raw["geometry"], str) else None
    if geometry is None:
        raise DocumentError(source, f"{key}.geometry", f"unknown geometry {as_json(raw['geometry'])}")
    # (absent: none; a null or an object is an error, not "none": QA saw a null drop classic-A's pillar)
    pillars = _parse_cells(source, f"{key}.pillars", raw.get("pillars", []))
    blocked = _parse_cells(source, f"{key}.blocked", raw.get("blocked", []))
    both = sorted(pillars & blocked)
    if both:
        raise DocumentError(source, f"{key}.pillars", "cell is both a pillar and blocked", both[0])
    shape, rows, cols = _shape(source, key, raw, geometry)
    for cell in sorted(pillars | blocked):
        if cell not in shape:
            raise DocumentError(source, key, "blocked or pillar cell outside the board", cell)
    return Board(
        id=expect_plain_id(source, f"{key}.id", raw["id"]),
        geometry=geometry,
        cells=frozenset(shape - pillars - blocked),
        blocked=frozenset(blocked),
        pillars=frozenset(pillars),
        rows=rows,
        cols=cols,
    )


def parse_boards(document: object, ruleset: Ruleset, source: str) -> dict[str, Board]:
    refuse_play_document(source, document, "a boards file")
    refuse_catalogue(source, document, "a boards file")
    # a puzzle file (models/puzzle.py) is a boards file with its question beside the boards
    require_keys(source, "", document, {"ruleset", "boards"}, {"source", "puzzle"})
    assert isinstance(document, dict)
    if document["ruleset"] != ruleset.id and not (ruleset.id == "factory-fun-2006" and document["ruleset"] == "factory-fun"):
        raise DocumentError(source, "ruleset", f"boards are for {as_json(document['ruleset'])}, not {as_json(ruleset.id)}")
    boards: dict[str, Board] = {}
    for i, raw in enumerate(expect(source, "boards", document["boards"], list, "a list")):
        board = _parse_board(source, f"boards[{i}]", raw)
        if board.id in boards:
            raise DocumentError(source, f"boards[{i}].id", f"board id {as_json(board.id)} given twice")
        if board.geometry is not ruleset.geometry:
            raise DocumentError(source, f"boards[{i}].geometry", f"ruleset {ruleset.id} needs {ruleset.geometry.name} boards")
        boards[board.id] = board
    if not boards:   # (QA: `sequence random --boards` on such a file crashed looking for a first board)
        raise DocumentError(source, "boards", "lists no boards")
    return boards


_CACHE: dict[tuple[str, str], dict[str, Board]] = {}


def load_boards(ruleset: Ruleset, path: str | Path | None = None) -> dict[str, Board]:
    file = Path(path) if path is not None else BOARDS_DIR / ruleset.boards_file
    key = (ruleset.id, str(file))
    if key not in _CACHE:
        _CACHE[key] = parse_boards(read_json(file), ruleset, str(file))
    return _CACHE[key]
