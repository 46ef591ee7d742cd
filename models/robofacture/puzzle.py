"""A Robofacture puzzle document: a production space, the parts at hand, and where some of them lie.

The format (README, "Robofacture parts puzzle") is the project's own; RULES.md section 3 names no file format.
Reading is strict like every factoryfun document: an unknown key, a colour the game does not print, a part placed
twice each stop with one line naming the file and the key. Where a part lies is *not* checked here: a part off the
space or over another is a rule the checker reports (`check.py`), as a player's mistake rather than a typo.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import DocumentError, as_json, expect, expect_cell, expect_int_in, require_keys
from ..jsonio import read_json
from .parts import COLOURS, PLAYER_COLOURS, ROTATIONS, SHAPES, Cell, Part, Placement

RULESET_ID = "robofacture"
#: RULES 3 lets the space's size be a parameter; beyond this a drawing no longer fits and no product needs it
MAX_SIDE = 12
MAX_PARTS = 60


@dataclass(frozen=True)
class Space:
    """A production space: `rows` x `cols` cells; `premarked` cells already hold a monomino of the player's
    colour, which a part may cover (RULES 3)."""

    rows: int
    cols: int
    player: str = "red"
    premarked: frozenset[Cell] = frozenset()

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    @property
    def cells(self) -> list[Cell]:
        return [(row, col) for row in range(self.rows) for col in range(self.cols)]


@dataclass(frozen=True)
class Puzzle:
    """The space, the parts at hand (by index), the placed ones, and a solver's result when it wrote one."""

    space: Space
    parts: tuple[Part, ...]
    placed: tuple[Placement, ...] = ()
    result: dict[str, Any] | None = field(default=None, compare=False)

    def with_placed(self, placed: tuple[Placement, ...], result: dict[str, Any] | None = None) -> "Puzzle":
        return replace(self, placed=placed, result=result)

    def to_dict(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "ruleset": RULESET_ID,
            "space": {"rows": self.space.rows, "cols": self.space.cols, "player": self.space.player,
                      "premarked": [list(cell) for cell in sorted(self.space.premarked)]},
            "parts": [{"kind": part.kind, "colors": list(part.colours)} for part in self.parts],
            "placed": [{"part": p.part, "cell": list(p.cell), "rotation": p.rotation, "flip": p.flip}
                       for p in self.placed],
        }
        if self.result is not None:
            document["result"] = self.result
        return document


def _colour(source: str, key: str, value: Any, allowed: tuple[str, ...]) -> str:
    expect(source, key, value, str, "a colour name")
    if value not in allowed:
        raise DocumentError(source, key, f"unknown colour {as_json(value)}: one of {', '.join(allowed)}")
    return value


def _space(source: str, raw: Any) -> Space:
    require_keys(source, "space", raw, {"rows", "cols"}, {"player", "premarked"})
    rows = expect_int_in(source, "space.rows", raw["rows"], 2, MAX_SIDE, "a number of rows")
    cols = expect_int_in(source, "space.cols", raw["cols"], 2, MAX_SIDE, "a number of columns")
    if raw.get("premarked") and "player" not in raw:   # (QA: read as red where the file meant blue, and judged)
        raise DocumentError(source, "space.player", "missing key: the premarked cells are in the player's colour")
    # (with no premarked cell the player's colour is on no cell, so it cannot change a verdict)
    player = _colour(source, "space.player", raw.get("player", "red"), PLAYER_COLOURS)
    premarked: set[Cell] = set()
    for index, value in enumerate(expect(source, "space.premarked", raw.get("premarked", []), list, "a list of cells")):
        key = f"space.premarked[{index}]"
        cell = expect_cell(source, key, value)
        if not (0 <= cell[0] < rows and 0 <= cell[1] < cols):
            raise DocumentError(source, key, f"outside the {rows} x {cols} space", cell)
        if cell in premarked:
            raise DocumentError(source, key, "premarked twice", cell)
        premarked.add(cell)
    return Space(rows, cols, player, frozenset(premarked))


def _part(source: str, key: str, raw: Any) -> Part:
    require_keys(source, key, raw, {"kind", "colors"})
    kind = expect(source, f"{key}.kind", raw["kind"], str, "a part kind")
    if kind not in SHAPES:
        raise DocumentError(source, f"{key}.kind", f"unknown part kind {as_json(kind)}: one of {', '.join(SHAPES)}")
    wanted = 1 if kind == "mono" else 2
    colours = expect(source, f"{key}.colors", raw["colors"], list, "a list of colours")
    if len(colours) != wanted:
        what = "a monomino has one colour" if wanted == 1 else "a part is coloured in a checkerboard of two colours"
        raise DocumentError(source, f"{key}.colors", f"{what}, got {len(colours)}")
    names = tuple(_colour(source, f"{key}.colors[{i}]", c, COLOURS) for i, c in enumerate(colours))
    if len(set(names)) != len(names):
        raise DocumentError(source, f"{key}.colors", "a checkerboard needs two different colours")
    return Part(kind, names)


def _placement(source: str, key: str, raw: Any, parts: int, used: set[int]) -> Placement:
    require_keys(source, key, raw, {"part", "cell"}, {"rotation", "flip"})
    cell = expect_cell(source, f"{key}.cell", raw["cell"])
    if parts == 0:
        raise DocumentError(source, f"{key}.part", "no parts are listed to place", cell)
    index = expect_int_in(source, f"{key}.part", raw["part"], 0, parts - 1, "a part index", cell)
    if index in used:
        raise DocumentError(source, f"{key}.part", f"part {index} is placed twice", cell)
    used.add(index)
    rotation = expect(source, f"{key}.rotation", raw.get("rotation", 0), int,
                      f"a rotation ({', '.join(map(str, ROTATIONS))})", cell)
    if rotation not in ROTATIONS:
        allowed = f"{', '.join(map(str, ROTATIONS[:-1]))} or {ROTATIONS[-1]}"
        raise DocumentError(source, f"{key}.rotation", f"a rotation is {allowed}, got {rotation}", cell)
    flip = expect(source, f"{key}.flip", raw.get("flip", False), bool, "true or false", cell)
    return Placement(index, cell, rotation, flip)


def parse_puzzle(document: Any, source: str = "<puzzle>") -> Puzzle:
    """A puzzle from its JSON value, or a DocumentError naming `source` and the key."""
    if isinstance(document, dict) and "ruleset" in document and document["ruleset"] != RULESET_ID:
        raise DocumentError(source, "ruleset", f'expected "{RULESET_ID}" (a Robofacture puzzle), got '
                            f"{as_json(document['ruleset'])}")
    require_keys(source, "", document, {"ruleset", "space", "parts"}, {"placed", "result"})
    space = _space(source, document["space"])
    raw_parts = expect(source, "parts", document["parts"], list, "a list of parts")
    if len(raw_parts) > MAX_PARTS:
        raise DocumentError(source, "parts", f"at most {MAX_PARTS} parts, got {len(raw_parts)}")
    parts = tuple(_part(source, f"parts[{i}]", raw) for i, raw in enumerate(raw_parts))
    used: set[int] = set()
    placed = tuple(_placement(source, f"placed[{i}]", raw, len(parts), used)
                   for i, raw in enumerate(expect(source, "placed", document.get("placed", []), list,
                                                  "a list of placements")))
    result = document.get("result")
    if result is not None:
        expect(source, "result", result, dict, "an object")
    return Puzzle(space, parts, placed, result)


def load_puzzle(path: str | Path) -> Puzzle:
    return parse_puzzle(read_json(path), str(path))
