"""Reach cuts: with at most `b` pipes, every port's partner lies within `b` pipe pieces.

When the prover states that a fed pattern leaves money for only `b` pipes, every
network is tiny, yet the full model sees that only through flow and colour
propagation over the whole board. These cuts say it locally, placement by
placement: the network path between two ports, or between a port and a tank,
is a chain of pipe pieces, each costing 1, so

- a machine-fed input needs an output of its colour on another machine whose
  port is at most `b` pieces away;
- an input fed by supplies needs a supply container of its colour within `b`
  pieces;
- an output needs a machine-fed input of its colour on another machine, or an
  output reservoir (black: an end-product reservoir), within `b` pieces.

Distances are measured on the board's edges: two edges are one piece apart
when one candidate piece (any cell piece, or one pipe of a diagonal tile)
joins them. The distance ignores what else occupies the cells, so it can only
be shorter than any real path: the cuts are implied by the rules, never
stronger. Measured in results/static.md (classic-A FF09,FF27,FF28,FF43, target
33, budget 1).
"""
from __future__ import annotations

from collections import deque
from typing import Iterable

from ortools.sat.python import cp_model

from models.catalog import Catalog
from models.geometry import Cell

from .placements import Slot
from .variables import StaticVars

Pattern = dict[tuple[str, str], int]


def supplied_colours(catalog: Catalog, machines: Iterable[str], pattern: Pattern) -> set[str]:
    """Colours these machines need a supply container of: those of the pattern's supplied one-colour inputs."""
    return {p.colors[0] for m in machines for p in catalog[m].inputs
            if pattern.get((m, p.at)) == 0 and len(p.colors) == 1}


def edge_distances(v: StaticVars, budget: int) -> list[dict[int, int]]:
    """For every edge, the edges at most `budget` pieces away and how many pieces that takes."""
    pieces_on_edge: list[list[int]] = [[] for _ in v.edges]
    piece_edges: list[list[int]] = []
    for index, piece in enumerate(v.pieces):
        edges = [v.slot_edge[slot][0] for slot in piece.slots]
        piece_edges.append(edges)
        for edge in edges:
            pieces_on_edge[edge].append(index)
    table: list[dict[int, int]] = []
    for start in range(len(v.edges)):
        seen = {start: 0}
        queue = deque([start])
        while queue:
            edge = queue.popleft()
            steps = seen[edge]
            if steps == budget:
                continue
            for piece in pieces_on_edge[edge]:
                for other in piece_edges[piece]:
                    if other not in seen:
                        seen[other] = steps + 1
                        queue.append(other)
        table.append(seen)
    return table


def _cells_near(v: StaticVars, reach: dict[int, int]) -> set[Cell]:
    """Cells a tank could occupy and still open onto an edge in `reach`."""
    cells: set[Cell] = set()
    for edge in reach:
        a, _, b = v.edges[edge]
        cells.update((a, b))
    return cells


def add_reach_cuts(v: StaticVars, model: cp_model.CpModel, pattern: Pattern, budget: int) -> int:
    """Add the cuts for a model whose pattern is fixed and whose pipes are at most `budget`; returns how many."""
    distances = edge_distances(v, budget)

    def edge(slot: Slot) -> int:
        return v.slot_edge[slot][0]

    def machine_fed(i: int, spec) -> bool:
        return spec.is_input and pattern.get((v.placements[i].machine, spec.at)) == 1

    ports = [(i, port) for i, placement in enumerate(v.placements) for port in placement.ports]
    outputs_on: dict[int, list[tuple[int, tuple[str, ...]]]] = {}
    fed_inputs_on: dict[int, list[tuple[int, tuple[str, ...]]]] = {}
    for i, port in ports:
        if not port.spec.is_input:
            outputs_on.setdefault(edge(port.slot), []).append((i, port.spec.colors))
        elif machine_fed(i, port.spec):
            fed_inputs_on.setdefault(edge(port.slot), []).append((i, port.spec.colors))

    def partners(i: int, table: dict[int, list[tuple[int, tuple[str, ...]]]], colors, reach) -> list:
        machine = v.placements[i].machine
        return [v.x[j] for e in reach for j, theirs in table.get(e, ())
                if v.placements[j].machine != machine and set(theirs) & set(colors)]

    added = 0
    for i, port in ports:
        spec, reach = port.spec, distances[edge(port.slot)]
        if machine_fed(i, spec):
            options = partners(i, outputs_on, spec.colors, reach)
        elif spec.is_input:
            options = [v.supply[(cell, c)] for cell in _cells_near(v, reach) for c in spec.colors
                       if (cell, c) in v.supply]
        elif spec.is_black:
            options = [v.end[cell] for cell in _cells_near(v, reach) if cell in v.end]
        else:
            options = partners(i, fed_inputs_on, spec.colors, reach)
            options += [v.output[cell] for cell in _cells_near(v, reach) if cell in v.output]
        model.AddBoolOr(options).OnlyEnforceIf(v.x[i])
        added += 1
    return added
