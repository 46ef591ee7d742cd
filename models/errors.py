"""One error type for every unreadable input, so the CLI can print one line and exit 2."""
from __future__ import annotations

import json
import re
from typing import Any, Sequence

from .wording import ellipsized


class DocumentError(Exception):
    """A document (layout, game, catalogue, board) cannot be read.

    The message names the file, the key path and, where there is one, the cell,
    because a user fixing a hand-written JSON file needs exactly those three.
    """

    def __init__(self, source: str, key: str, message: str, cell: Sequence[int] | None = None):
        self.source = source
        self.key = key
        self.cell = tuple(cell) if cell is not None else None
        self.detail = message
        where = f"{source}: {key}" if key else source
        at = ", ".join(filter(None, [_round_named(key), f"cell {list(self.cell)}" if self.cell is not None else ""]))
        super().__init__(f"{where}: {message}" + (f" ({at})" if at else ""))


def _round_named(key: str) -> str:
    """The round a game's key path `rounds[9]...` is in, as "round 10": the path counts from 0 as JSON does,
    and every table, violation and report counts rounds from 1 (QA: "rounds[9].taken" read as round 9)."""
    found = re.match(r"rounds\[(\d+)\]", key)
    return f"round {int(found.group(1)) + 1}" if found else ""


def require_keys(
    source: str, key: str, obj: Any, required: set[str], optional: set[str] = frozenset(), cell: Sequence[int] | None = None
) -> dict:
    """Check that `obj` is a JSON object with exactly the allowed keys.

    `cell` is the object's cell when it has one, so the message can name it.
    """
    if not isinstance(obj, dict):
        raise DocumentError(source, key, f"expected an object, got {as_json(obj)}")
    unknown = sorted(set(obj) - required - set(optional))
    if unknown:
        raise DocumentError(source, f"{key}.{unknown[0]}" if key else unknown[0], "unknown key", cell)
    missing = sorted(required - set(obj))
    if missing:
        raise DocumentError(source, f"{key}.{missing[0]}" if key else missing[0], "missing key", cell)
    return obj


def as_json(value: Any, most: int = 60) -> str:
    """A value as the document spells it (null, true, "FF01"), cut to `most` characters: messages quote the
    file, not Python (QA: "got None", "got True")."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return ellipsized(text, most)


def expect(
    source: str, key: str, value: Any, kind: type | tuple[type, ...], what: str, cell: Sequence[int] | None = None
) -> Any:
    """Check a value's JSON type (bools are not ints here)."""
    if isinstance(value, bool) and kind is not bool and (kind is int or (isinstance(kind, tuple) and bool not in kind)):
        raise DocumentError(source, key, f"expected {what}, got {as_json(value)}", cell)
    if not isinstance(value, kind):
        raise DocumentError(source, key, f"expected {what}, got {as_json(value)}", cell)
    return value


def expect_plain_id(source: str, key: str, value: Any) -> str:
    """A machine or board id as the command line takes it (`--machines FF01,FF02`, `--board classic-A`): a
    non-empty string without spaces or commas (QA: "" and "FF,01" were accepted and could never be named), and
    printable: a control character (QA: an escape sequence) turned the catalogue's table red when listed."""
    text = expect(source, key, value, str, "a string id")
    if not text or any(ch.isspace() or ch == "," or not ch.isprintable() for ch in text):
        raise DocumentError(source, key, "an id is a non-empty string of printable characters without spaces or "
                            f"commas, got {as_json(text)}")
    return text


def expect_int_in(
    source: str, key: str, value: Any, low: int, high: int, what: str, cell: Sequence[int] | None = None, note: str = ""
) -> int:
    """An integer within [low, high].

    Documents are hand-written; a number far outside what the game prints
    (an income of 10**40, a board of 10**12 rows) would otherwise reach the
    solver, which overflows or never finishes, so it is rejected here with the key.
    """
    expect(source, key, value, int, what, cell)
    if not low <= value <= high:
        because = f" ({note})" if note else ""
        raise DocumentError(source, key, f"expected {what} from {low} to {high}, got {value}{because}", cell)
    return value


def cell_hint(obj: Any) -> tuple[int, int] | None:
    """The object's "cell" when it is a well-formed cell, for error messages; else None."""
    value = obj.get("cell") if isinstance(obj, dict) else None
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return (value[0], value[1])
    return None


def expect_cell(source: str, key: str, value: Any) -> tuple[int, int]:
    """A cell is a list of two integers."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise DocumentError(source, key, f"expected a cell [a, b] of two integers, got {as_json(value)}")
    return (value[0], value[1])
