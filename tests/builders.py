"""Build layouts in code, concisely, through the same strict loader as files.

    make_layout(
        machines=[("FF39", (5, 2), 0)],
        tiles=[("supply", (4, 2), "red"), ("pipe", (4, 3), "W", "E"), ("output", (5, 6)),
               ("end", (6, 6)), ("diagonal", (4, 1), 0)],
        options={"diagonal_intersection": True},
    )

Tile tuples: ("supply", cell, colour), ("output", cell), ("end", cell),
("pipe", cell, side, side, ...), ("diagonal", cell, rotation).
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from models.check import CheckResult, Violation, check_layout
from models.layout import Layout, parse_layout

BOARD = "classic-A"
RULESET = "factory-fun"


def tile_dict(spec: Sequence[Any]) -> dict[str, Any]:
    kind, cell, *rest = spec
    out: dict[str, Any] = {"kind": kind, "cell": list(cell)}
    if kind == "supply":
        (out["color"],) = rest
    elif kind == "pipe":
        out["sides"] = list(rest)
    elif kind == "diagonal":
        (out["rotation"],) = rest
    elif rest:
        raise ValueError(f"{kind} tile takes no extra values: {spec!r}")
    return out


def layout_dict(
    machines: Iterable[tuple[str, tuple[int, int], int]] = (),
    tiles: Iterable[Sequence[Any]] = (),
    options: dict[str, Any] | None = None,
    board: str = BOARD,
    ruleset: str = RULESET,
) -> dict[str, Any]:
    doc: dict[str, Any] = {"ruleset": ruleset, "board": board}
    if options is not None:
        doc["options"] = dict(options)
    doc["machines"] = [{"id": m, "cell": list(c), "rotation": r} for m, c, r in machines]
    doc["tiles"] = [tile_dict(t) for t in tiles]
    return doc


def make_layout(machines=(), tiles=(), options=None, board=BOARD, ruleset=RULESET, source="<test>") -> Layout:
    return parse_layout(layout_dict(machines, tiles, options, board, ruleset), source)


def check(machines=(), tiles=(), options=None, **kw) -> CheckResult:
    return check_layout(make_layout(machines, tiles, options, **kw))


def rules(result: CheckResult) -> list[str]:
    """Rule ids of every violation, sorted (with repeats)."""
    return sorted(v.rule for v in result.violations)


def only(result: CheckResult, rule: str) -> Violation:
    """The single violation of `rule`; fails if there is none or several."""
    found = [v for v in result.violations if v.rule == rule]
    assert len(found) == 1, f"expected one {rule!r} violation, got {[v.to_dict() for v in result.violations]}"
    return found[0]


def of_rule(result: CheckResult, rule: str) -> list[Violation]:
    return [v for v in result.violations if v.rule == rule]


def assert_legal(result: CheckResult) -> None:
    assert result.legal, [v.to_dict() for v in result.violations]
    assert result.violations == []


# -- small legal building blocks on classic-A ------------------------------------
#: FF29 (W in green 2, E out black) at (1,1)-(1,2), green supply west, end reservoir east.
FF29_OK = dict(
    machines=[("FF29", (1, 1), 0)],
    tiles=[("supply", (1, 0), "green"), ("end", (1, 3))],
)


def plus(base: dict, machines=(), tiles=(), options=None) -> dict:
    """`base` (a dict of machines/tiles) with more parts added."""
    out = {"machines": list(base.get("machines", ())) + list(machines), "tiles": list(base.get("tiles", ())) + list(tiles)}
    if options is not None or base.get("options") is not None:
        out["options"] = options if options is not None else base["options"]
    return out


def minus(base: dict, *tiles: Sequence[Any]) -> dict:
    """`base` without the listed tile tuples (each must be present)."""
    kept = list(base.get("tiles", ()))
    for t in tiles:
        kept.remove(t)
    return {**base, "tiles": kept}


# -- JSON pieces of documents, for tests that write whole games ---------------------------------------------------
def machine(mid: str, cell: tuple[int, int], rotation: int = 0) -> dict[str, Any]:
    return {"id": mid, "cell": list(cell), "rotation": rotation}


def pipe(cell: tuple[int, int], *sides: str) -> dict[str, Any]:
    return {"kind": "pipe", "cell": list(cell), "sides": list(sides)}


def tank(kind: str, cell: tuple[int, int], side: str | None = None, color: str | None = None) -> dict[str, Any]:
    """A supply container, output or end-product reservoir; hex tanks name their one opening `side`."""
    out: dict[str, Any] = {"kind": kind, "cell": list(cell)}
    if side is not None:
        out["side"] = side
    if color is not None:
        out["color"] = color
    return out


def supply(color: str, cell: tuple[int, int]) -> dict[str, Any]:
    return tank("supply", cell, color=color)


def picture_title(svg: str) -> str:
    """An SVG picture's title, its lines joined (a long title wraps into several `title` texts)."""
    import xml.etree.ElementTree as ET

    texts = ET.fromstring(svg[svg.index("<svg"):]).iter("{http://www.w3.org/2000/svg}text")
    return " ".join(t.text or "" for t in texts if t.get("class") == "title")
