"""From solver values to a checked `models.layout.Layout`.

A time-limited solution may carry junk (a closed ring of pipes, say) that the
model tolerates because it only costs money; `prune` drops every tile whose
network has no machine port. The checker then judges the result: a model that
accepts what the checker rejects is a bug, so `checked_layout` raises.
"""
from __future__ import annotations

from typing import Callable

from models.board import Board
from models.catalog import Catalog
from models.check import CheckResult, check_layout
from models.layout import Layout, MachinePlacement, Tile
from models.networks import connect
from models.rulesets import Ruleset

from .variables import StaticVars

Value = Callable[[object], int]


class ModelCheckerDisagreement(AssertionError):
    """The model produced a layout the rule checker calls illegal (a bug in one of them)."""


def layout_from_values(v: StaticVars, value: Value, diagonal: bool) -> Layout:
    geometry = v.ruleset.geometry
    machines = tuple(
        MachinePlacement(p.machine, p.anchor, p.rotation) for i, p in enumerate(v.placements) if value(v.x[i])
    )
    tiles: list[Tile] = []
    # hex tanks are read from their side-level literals, which carry the opening
    for (kind, cell, side, colour), literal in v.oriented.items():
        if value(literal):
            tiles.append(Tile(kind, cell, color=colour, side=side))
    for cell in () if v.ruleset.oriented_tanks else v.cells:
        for k in v.ruleset.colors:
            if value(v.supply[(cell, k)]):
                tiles.append(Tile("supply", cell, color=k))
        if value(v.output[cell]):
            tiles.append(Tile("output", cell))
        if value(v.end[cell]):
            tiles.append(Tile("end", cell))
    seen_diagonal = set()
    for i, piece in enumerate(v.pieces):
        if not value(v.y[i]):
            continue
        if piece.is_diagonal:
            if piece.tile not in seen_diagonal:
                seen_diagonal.add(piece.tile)
                tiles.append(Tile("diagonal", piece.tile[1], rotation=piece.tile[2]))
        else:
            sides = tuple(sorted((s for _, s in piece.slots), key=geometry.sides.index))
            tiles.append(Tile("pipe", piece.cells[0], sides=sides))
    return Layout(v.ruleset, v.board, v.catalog, machines, tuple(tiles), _options(diagonal), source="<solver>")


def empty_layout(ruleset: Ruleset, board: Board, catalog: Catalog, diagonal: bool) -> Layout:
    """No machine and no tile: legal, 0 points (an optional build never needs to score less)."""
    return Layout(ruleset, board, catalog, (), (), _options(diagonal), source="<solver>")


def _options(diagonal: bool) -> dict:
    """A solver layout's options: the diagonal tile only when the solve allowed it."""
    return {"diagonal_intersection": True} if diagonal else {}


def prune(layout: Layout) -> Layout:
    """Drop every tile that belongs to no network with a machine port."""
    conn = connect(layout)
    keep_tiles: set[int] = set()
    for net in conn.networks:
        if not net.has_port:
            continue
        for kind, index in net.nodes:
            if kind == "tank":
                keep_tiles.add(index)
            elif kind == "pipe":
                keep_tiles.add(layout.pipes[index].tile)
    if len(keep_tiles) == len(layout.tiles):
        return layout
    # a diagonal tile is kept when either of its pipes is used (dropping one half is impossible)
    return layout.with_parts(tiles=tuple(t for i, t in enumerate(layout.tiles) if i in keep_tiles))


def checked_layout(layout: Layout) -> tuple[Layout, CheckResult]:
    """Prune, then insist that the checker agrees the layout is legal."""
    pruned = prune(layout)
    result = check_layout(pruned)
    if not result.legal:
        problems = "; ".join(f"{v.rule}: {v.message}" for v in result.violations)
        raise ModelCheckerDisagreement(
            "internal error: the CP-SAT model accepted a layout the rule checker rejects "
            f"({problems}); layout: {pruned.to_dict()}"
        )
    return pruned, result
