"""Layouts (FORMATS.md): machines and tiles on a board, read strictly and written back.

Loading checks the document itself: keys, ids, cells on the board, rotations,
sides and overlap. Whether the factory obeys the game's rules is the rule
checker's job (models.check); a Layout object is only ever a well-formed one.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .board import Board, load_boards
from .catalog import NO_CATALOGUE, Catalog, Machine, PortSpec, load_catalog
from .errors import DocumentError, as_json, cell_hint, expect, expect_cell, expect_int_in, require_keys
from .geometry import Cell
from .jsonio import refuse_boards_file, refuse_catalogue, read_json
from .rulesets import RULESETS, Ruleset, get_ruleset
from .shapes import DIAGONAL, DIAGONAL_PIPES
from .wording import TILE_NAMES, with_article

TANK_KINDS = ("supply", "output", "end")
TILE_KINDS = TANK_KINDS + ("pipe", "diagonal")
OPTION_DEFAULTS: dict[str, Any] = {"diagonal_intersection": False, "end_limit": None}
#: the largest end-product stock a document may name (the box holds 9; the solver's models take it as a bound)
MAX_END_LIMIT = 100


@dataclass(frozen=True)
class MachinePlacement:
    id: str
    cell: Cell
    rotation: int  # as written in documents: degrees on square boards, steps on hex boards


@dataclass(frozen=True)
class Tile:
    kind: str
    cell: Cell
    color: str | None = None
    sides: tuple[str, ...] | None = None     # pipe
    rotation: int | None = None              # diagonal
    side: str | None = None                  # hex tanks: the one opening

    @property
    def cost(self) -> int:
        return 2 if self.kind == "diagonal" else 1


@dataclass(frozen=True)
class PlacedPort:
    machine: int           # index into Layout.machines
    spec: PortSpec
    cell: Cell
    side: str


@dataclass(frozen=True)
class PlacedPipe:
    tile: int              # index into Layout.tiles
    ends: tuple[tuple[Cell, str], ...]


@dataclass
class Layout:
    """A well-formed layout with the derived facts every consumer needs."""

    ruleset: Ruleset
    board: Board
    catalog: Catalog
    machines: tuple[MachinePlacement, ...]
    tiles: tuple[Tile, ...]
    options: dict[str, Any] = field(default_factory=dict)
    source: str = "<layout>"
    # derived in __post_init__
    ports: list[PlacedPort] = field(init=False, default_factory=list)
    pipes: list[PlacedPipe] = field(init=False, default_factory=list)
    machine_cells: dict[Cell, int] = field(init=False, default_factory=dict)
    tile_cells: dict[Cell, list[int]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.options = with_defaults(self.options)
        self._place_machines()
        self._place_tiles()

    # -- derived structure -------------------------------------------------
    def machine(self, index: int) -> Machine:
        return self.catalog[self.machines[index].id]

    def machine_footprint(self, placement: MachinePlacement) -> list[Cell]:
        steps = self.ruleset.geometry.steps_of(placement.rotation)
        return self.ruleset.machine_shape.cells(self.ruleset.geometry, placement.cell, steps)

    def _tile_name(self, tile: Tile) -> str:
        """The tile's kind as this game names it (QA: "output tile overlaps a output tile")."""
        return self.ruleset.in_own_words(TILE_NAMES[tile.kind])

    def _claim(self, cell: Cell, key: str, what: str) -> None:
        if not self.board.is_playable(cell):
            raise DocumentError(self.source, key, f"{what} {self.board.why_not_playable(cell)}", cell)
        if cell in self.machine_cells:
            other = self.machines[self.machine_cells[cell]].id
            raise DocumentError(self.source, key, f"{what} overlaps machine {other}", cell)

    def _place_machines(self) -> None:
        geometry, shape = self.ruleset.geometry, self.ruleset.machine_shape
        seen: set[str] = set()
        for i, placement in enumerate(self.machines):
            key = f"machines[{i}]"
            if placement.id not in self.catalog:
                raise DocumentError(self.source, f"{key}.id", self.catalog.unknown(placement.id), placement.cell)
            if placement.id in seen:
                raise DocumentError(self.source, f"{key}.id", f"machine {placement.id} is placed twice", placement.cell)
            seen.add(placement.id)
            _check_rotation(self.source, key, geometry, placement.rotation, placement.cell)
            steps = geometry.steps_of(placement.rotation)
            for cell in shape.cells(geometry, placement.cell, steps):
                self._claim(cell, key, f"machine {placement.id}")
                self.machine_cells[cell] = i
            for spec in self.catalog[placement.id].ports:
                cell, side = shape.locate(geometry, placement.cell, steps, spec.at)
                self.ports.append(PlacedPort(machine=i, spec=spec, cell=cell, side=side))

    def _place_tiles(self) -> None:
        geometry = self.ruleset.geometry
        pipe_sides: dict[Cell, set[str]] = {}
        for i, tile in enumerate(self.tiles):
            key = f"tiles[{i}]"
            if tile.kind == "diagonal":
                _check_rotation(self.source, key, geometry, tile.rotation, tile.cell)
                steps = geometry.steps_of(tile.rotation)
                cells = DIAGONAL.cells(geometry, tile.cell, steps)
                ends = tuple(
                    tuple(DIAGONAL.locate(geometry, tile.cell, steps, pos) for pos in pipe) for pipe in DIAGONAL_PIPES
                )
                for pipe_ends in ends:
                    self.pipes.append(PlacedPipe(tile=i, ends=pipe_ends))
            else:
                cells = [tile.cell]
            for cell in cells:
                self._claim(cell, key, self._tile_name(tile))
                others = self.tile_cells.setdefault(cell, [])
                both_pipes = tile.kind == "pipe" and all(self.tiles[j].kind == "pipe" for j in others)
                if others and not both_pipes:
                    other = self.tiles[others[0]]
                    raise DocumentError(self.source, key, f"{self._tile_name(tile)} overlaps "
                                        f"{with_article(self._tile_name(other))}", cell)
                others.append(i)
            if tile.kind == "pipe":
                assert tile.sides is not None
                used = pipe_sides.setdefault(tile.cell, set())
                shared = used & set(tile.sides)
                if shared:
                    raise DocumentError(self.source, f"{key}.sides", f"pipe overlaps another pipe on side {sorted(shared)[0]}", tile.cell)
                used |= set(tile.sides)
                self.pipes.append(PlacedPipe(tile=i, ends=tuple((tile.cell, s) for s in tile.sides)))

    # -- conveniences ------------------------------------------------------
    @property
    def machine_ids(self) -> list[str]:
        return [m.id for m in self.machines]

    def with_parts(self, machines: tuple[MachinePlacement, ...] | None = None, tiles: tuple[Tile, ...] | None = None,
                   options: dict[str, Any] | None = None) -> "Layout":
        """A copy with some parts replaced (a game's options apply to every round's layout)."""
        return Layout(
            ruleset=self.ruleset, board=self.board, catalog=self.catalog,
            machines=self.machines if machines is None else machines,
            tiles=self.tiles if tiles is None else tiles,
            options=dict(self.options if options is None else options), source=self.source,
        )

    def to_dict(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"ruleset": self.ruleset.id, "board": self.board.id}
        options = set_options(self.options)
        if options:
            doc["options"] = options
        doc["machines"] = [{"id": m.id, "cell": list(m.cell), "rotation": m.rotation} for m in self.machines]
        doc["tiles"] = [tile_to_dict(t) for t in self.tiles]
        return doc


def tile_to_dict(tile: Tile) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": tile.kind}
    if tile.color is not None:
        out["color"] = tile.color
    out["cell"] = list(tile.cell)
    if tile.sides is not None:
        out["sides"] = list(tile.sides)
    if tile.rotation is not None:
        out["rotation"] = tile.rotation
    if tile.side is not None:
        out["side"] = tile.side
    return out


# -- reading -----------------------------------------------------------------
@dataclass(frozen=True)
class Context:
    """Ruleset, board and catalogue that a document refers to."""

    ruleset: Ruleset
    board: Board
    catalog: Catalog


def resolve_context(
    source: str, ruleset_id: Any, board_id: Any, catalog_path: str | Path | None = None, boards_path: str | Path | None = None
) -> Context:
    ruleset = document_ruleset(source, ruleset_id)
    expect(source, "board", board_id, str, "a board id")
    boards = load_boards(ruleset, boards_path)
    if board_id not in boards:
        raise DocumentError(source, "board", f"unknown board {as_json(board_id)} (known: {', '.join(boards)})"
                            f"{_where_the_board_is(ruleset, board_id, boards_path)}")
    return Context(ruleset, boards[board_id], document_catalog(source, ruleset, catalog_path))


def document_ruleset(source: str, ruleset_id: Any) -> Ruleset:
    """The ruleset a document's "ruleset" names; an error naming the file and key otherwise."""
    expect(source, "ruleset", ruleset_id, str, "a ruleset id")
    try:
        return get_ruleset(ruleset_id)
    except KeyError as exc:
        raise DocumentError(source, "ruleset", str(exc.args[0])) from None


def document_catalog(source: str, ruleset: Ruleset, catalog_path: str | Path | None) -> Catalog:
    """The catalogue a document of `ruleset` is read with: the user's file, or the bundled one."""
    if catalog_path is None and ruleset.catalog_file is None:   # (QA: the only error naming neither file nor key)
        raise DocumentError(source, "ruleset", f"ruleset {ruleset.id} has {NO_CATALOGUE}")
    return load_catalog(ruleset, catalog_path)


def _where_the_board_is(ruleset: Ruleset, board_id: str, boards_path) -> str:
    """"; a board of ruleset factory-funner" where another ruleset has the board (QA: `--board A` without
    `--ruleset factory-funner` listed the square boards only), or that the bundled boards have it where a
    --boards file replaced them (QA: that case named the first edition's classic-A); with no --boards, where a
    board of one's own is read; else nothing."""
    if boards_path is not None and board_id in load_boards(ruleset):
        return f"; {board_id} is a bundled board, and --boards {boards_path} replaces the bundled boards"
    others = [r.id for r in RULESETS.values() if r.id != ruleset.id and board_id in load_boards(r)]
    if others:
        return f"; {board_id} is a board of ruleset {others[0]}"
    # (QA: a puzzle's answer shown alone named its board "unknown", with no word of where it is)
    return "; a board of your own is read with --boards FILE (a puzzle's file holds its board)" if boards_path is None else ""


def set_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options that differ from their defaults: what a written document says (README, Documents)."""
    return {k: v for k, v in options.items() if v != OPTION_DEFAULTS[k]}


def with_defaults(options: dict[str, Any]) -> dict[str, Any]:
    """The options as a layout plays them: every option not given at its default."""
    return {**OPTION_DEFAULTS, **options}


def _parse_options(source: str, key: str, raw: Any, ruleset: Ruleset) -> dict[str, Any]:
    require_keys(source, key, raw, set(), set(OPTION_DEFAULTS))
    options = dict(raw)
    if "diagonal_intersection" in options:
        expect(source, f"{key}.diagonal_intersection", options["diagonal_intersection"], bool, "true or false")
        if options["diagonal_intersection"] and not ruleset.diagonal_available:
            raise DocumentError(source, f"{key}.diagonal_intersection", f"ruleset {ruleset.id} has no diagonal intersection tile")
    if options.get("end_limit") is not None:
        # (QA: 12 accepted in Funner, whose shared stock is 9 black tanks: a setting lowers the stock, never raises it)
        most = MAX_END_LIMIT if ruleset.end_limit is None else ruleset.end_limit
        expect_int_in(source, f"{key}.end_limit", options["end_limit"], 0, most, "an integer stock or null",
                      note=f"{ruleset.title}'s stock is {most}" if ruleset.end_limit else "")
    return options


def _parse_tile(source: str, key: str, raw: Any, context: Context) -> Tile:
    ruleset, geometry = context.ruleset, context.ruleset.geometry
    if not isinstance(raw, dict):
        raise DocumentError(source, key, f"expected an object, got {as_json(raw)}")
    if "kind" not in raw:
        raise DocumentError(source, f"{key}.kind", "missing key")
    kind = raw["kind"]
    if kind not in TILE_KINDS or (kind == "diagonal" and ruleset.oriented_tanks):
        raise DocumentError(source, f"{key}.kind", f"unknown tile kind {as_json(kind)}")
    oriented = ruleset.oriented_tanks and kind in TANK_KINDS
    required = {"kind", "cell"} | ({"color"} if kind == "supply" else set()) | ({"sides"} if kind == "pipe" else set())
    required |= {"rotation"} if kind == "diagonal" else set()
    required |= {"side"} if oriented else set()
    require_keys(source, key, raw, required, cell=cell_hint(raw))
    cell = expect_cell(source, f"{key}.cell", raw["cell"])
    color = None
    if kind == "supply":
        color = raw["color"]
        if color not in ruleset.colors:
            raise DocumentError(source, f"{key}.color", f"unknown supply colour {as_json(color)} (known: {', '.join(ruleset.colors)})", cell)
    sides = None
    if kind == "pipe":
        sides = expect(source, f"{key}.sides", raw["sides"], list, "a list of sides")
        for side in sides:
            if side not in geometry.sides:
                raise DocumentError(source, f"{key}.sides", f"unknown side {as_json(side)} (known: {', '.join(geometry.sides)})", cell)
        if len(set(sides)) != len(sides):
            raise DocumentError(source, f"{key}.sides", "a side is listed twice", cell)
        if len(sides) < 2:
            raise DocumentError(source, f"{key}.sides", "a pipe joins at least 2 sides", cell)
        sides = tuple(sorted(sides, key=geometry.sides.index))
    side = None
    if oriented:
        side = raw["side"]
        if side not in geometry.sides:
            raise DocumentError(source, f"{key}.side", f"unknown side {as_json(side)} (known: {', '.join(geometry.sides)})",
                                cell)
    rotation = None
    if kind == "diagonal":
        rotation = expect(source, f"{key}.rotation", raw["rotation"], int, _rotation_words(context), cell)
    return Tile(kind=kind, cell=cell, color=color, sides=sides, rotation=rotation, side=side)


def _rotation_words(context: Context) -> str:
    """What a rotation may be, for an error about one (QA pass 52: "expected a rotation, got 90.0" named none)."""
    return f"a rotation ({', '.join(map(str, context.ruleset.geometry.rotation_values))})"


def _check_rotation(source: str, key: str, geometry, rotation: Any, cell: Cell) -> None:
    """A machine's or diagonal tile's rotation is one the geometry turns by, and the error lists them (QA pass
    48: the diagonal tile's "bad rotation 45" named none)."""
    if rotation not in geometry.rotation_values:
        allowed = ", ".join(map(str, geometry.rotation_values))
        raise DocumentError(source, f"{key}.rotation", f"bad rotation {as_json(rotation)} (allowed: {allowed})", cell)


def parse_layout_body(source: str, key: str, raw: Any, context: Context, options: dict | None = None,
                      options_from: str = "the game's") -> Layout:
    """The machines and tiles part of a layout object, given its context; `options`, where given, are what its
    own must match (`options_from` says whose they are: the game's, or an earlier round's)."""
    prefix = f"{key}." if key else ""
    require_keys(source, key, raw, {"machines", "tiles"}, {"ruleset", "board", "options", "result"})
    for name, expected in (("ruleset", context.ruleset.id), ("board", context.board.id)):
        if name in raw and raw[name] != expected:
            raise DocumentError(source, prefix + name, f"{as_json(raw[name])} does not match {as_json(expected)}")
    if "options" in raw:
        own = _parse_options(source, prefix + "options", raw["options"], context.ruleset)
        if options is not None and with_defaults(own) != with_defaults(options):
            # (QA: a round's diagonal option let that round play a tile the game's options forbid)
            mine, games = with_defaults(own), with_defaults(options)
            name = next(name for name in mine if mine[name] != games[name])
            raise DocumentError(source, f"{prefix}options.{name}", f"{as_json(mine[name])} does not match "
                                f"{options_from} {as_json(games[name])}")
        options = own if options is None else options
    machines = []
    for i, m in enumerate(expect(source, prefix + "machines", raw["machines"], list, "a list")):
        mkey = f"{prefix}machines[{i}]"
        hint = cell_hint(m)
        require_keys(source, mkey, m, {"id", "cell", "rotation"}, cell=hint)
        machines.append(MachinePlacement(
            id=expect(source, f"{mkey}.id", m["id"], str, "a machine id", hint),
            cell=expect_cell(source, f"{mkey}.cell", m["cell"]),
            rotation=expect(source, f"{mkey}.rotation", m["rotation"], int, _rotation_words(context), hint),
        ))
    tiles = [
        _parse_tile(source, f"{prefix}tiles[{i}]", t, context)
        for i, t in enumerate(expect(source, prefix + "tiles", raw["tiles"], list, "a list"))
    ]
    layout_source = source
    try:
        return Layout(context.ruleset, context.board, context.catalog, tuple(machines), tuple(tiles), options or {}, layout_source)
    except DocumentError as exc:
        if prefix:
            raise DocumentError(exc.source, prefix + exc.key, exc.detail, exc.cell) from None
        raise


def refuse_data_file(source: str, document: Any, wanted: str) -> None:
    """A boards file or a machine catalogue given where `wanted` (a layout, a game document) belongs: named, with
    the option that reads it (QA: `check` of the catalogue said "board: missing key", of a boards file "boards:
    unknown key", and `replay` called the catalogue a layout)."""
    refuse_boards_file(source, document, wanted)
    refuse_catalogue(source, document, wanted)
    if isinstance(document, dict) and document.get("ruleset") == "robofacture":
        raise DocumentError(source, "ruleset", f"a Robofacture parts puzzle, not {wanted}; `factoryfun robofacture "
                            "check` reads it")


def parse_layout(document: Any, source: str = "<layout>", catalog_path=None, boards_path=None) -> Layout:
    if isinstance(document, dict) and "rounds" in document and "machines" not in document:
        raise DocumentError(source, "rounds", "a game document (rounds), not a layout; `factoryfun replay` reads games")
    if isinstance(document, dict) and set(document) == {"result"}:   # (QA: it said "board: missing key")
        raise DocumentError(source, "result", "a solve's result with no layout (the solve found none): nothing to read")
    refuse_data_file(source, document, "a layout")
    require_keys(source, "", document, {"ruleset", "board", "machines", "tiles"}, {"options", "result"})
    context = resolve_context(source, document["ruleset"], document["board"], catalog_path, boards_path)
    return parse_layout_body(source, "", document, context)


def refuse_game(document: Any, source: str, wanted: str) -> None:
    """A game document given where a layout belongs (`wanted`: what takes it, "--hint"), before its board is
    compared (QA: a game as a puzzle's answer was refused as "the answer is for factory-fun/classic-A", as if its
    board were the fault)."""
    if isinstance(document, dict) and "rounds" in document and "machines" not in document:
        raise DocumentError(source, "rounds", f"a game document (rounds): {wanted} takes a layout")


def require_game_of(document: Any, source: str, what: str, ruleset_id: str, board_id: str | None = None) -> None:
    """Refuse a document for another ruleset (or board) before its catalogue is read: reading it first
    blamed the catalogue ("catalogue is for 'factory-fun-2006', not 'factory-funner'") or asked for a
    catalogue of the other ruleset, and never named the file that did not match."""
    if not isinstance(document, dict) or not all(isinstance(document.get(k), str) for k in ("ruleset", "board")):
        return   # (the parser says what is wrong with it: "board: missing key", not "for None/None")
    ruleset, board = document.get("ruleset"), document.get("board")
    if ruleset != ruleset_id or (board_id is not None and board != board_id):
        wanted = ruleset_id if board_id is None else f"{ruleset_id}/{board_id}"
        found = ruleset if board_id is None else f"{ruleset}/{board}"
        raise DocumentError(source, "ruleset" if ruleset != ruleset_id else "board", f"the {what} is for {found}, not {wanted}")


def load_layout(path: str | Path, catalog_path=None, boards_path=None) -> Layout:
    return parse_layout(read_json(path), str(path), catalog_path, boards_path)
