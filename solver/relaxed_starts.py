"""Layouts that start from the relaxation's own arrangement of the machines.

The relaxation (solver/bounds.py) ends with a topology (which ports share which
network) and, through its tree cuts, an open-ground embedding of each group of
machines that realises it with the fewest tiles (`least_embeddings`). That
arrangement is a global plan no player-like sketch finds by luck: classic-A
FF01,FF12,FF22,FF36,FF47,FF48 has a layout of 67 where its machines stand as
the embedding puts them, while 25 sessions of sketches and moves never got past
66. So the biggest group's embedding is laid on the board in every turn and
position where all its machines fit, and the sketch (solver/sketch) routes it
and places the other machines. The sketch routes one input at a time, which
misses the cheapest trees of networks shared by four ports, so the best few
are routed again by CP-SAT with every machine where the sketch has it
(`routed_exactly`: seconds for six machines); the legal layouts come back best
first.
"""
from __future__ import annotations

import math
import time
from typing import Callable

from models.board import Board
from models.catalog import Catalog
from models.layout import Layout, MachinePlacement
from models.rulesets import Ruleset

from .extract import checked_layout, layout_from_values
from .model import add_objective_bound, build_static_model, fix_to_layout
from .placements import machine_placements
from .search import complete_assignment, run, set_hint, value_reader
from .sketch import best_sketch, ranked, ranking
from .triangle_cuts import CAPS, FREE_CAPS, Pose, Tree, compose, frame_of, least_embeddings

#: embeddings of the least tiles tried (they tie on tiles and differ in what the board and routing make of them)
EMBEDDINGS = 24
#: groups laid on the board (embedding, turn and position) that are sketched at most
CANDIDATES = 48
#: seconds of sketches around one laid group at least (each sketch only routes and places the rest)
SKETCH_SECONDS = 0.3
#: layouts handed back at most, each routed again by CP-SAT
KEPT = 3
#: of the time, the share the embeddings may take, and the share they and the sketches around the laid
#: groups may take together (CP-SAT's routing gets the rest)
EMBED_SHARE = 0.3
SKETCH_SHARE = 0.7


def relaxed_layouts(ruleset: Ruleset, board: Board, catalog: Catalog, ids: list[str],
                    topologies: list[tuple[int, list[Tree]]], seconds: float, seed: int = 0,
                    bound: int | None = None, objective: str = "profit") -> list[Layout]:
    """Legal layouts of `ids` with the biggest group of one of `topologies` (each the relaxation's value and
    groups of machines for one fed pattern) laid as one of its least embeddings, best first, found within
    `seconds` (none if no embedding fits the board or nothing routes); `bound` (a proved bound on the score,
    or on the cost) ends CP-SAT's routing of a layout that meets it. `objective` "cost" ranks by the cost
    (the relaxation then minimised it): the cheapest builds share and chain as the relaxation arranges them,
    which one-input-at-a-time sketches do not find (classic-A FF40,FF12,FF07: sketches 12, cheapest 10)."""
    began = time.monotonic()
    deadline = began + seconds
    worth = ranking(objective)
    laid = _laid_groups(ruleset, board, catalog, topologies, began + EMBED_SHARE * seconds, objective)
    sketched = _sketched(ruleset, board, catalog, ids, laid, began + SKETCH_SHARE * seconds, seed,
                         None if bound is None else ranked(bound, objective), worth)
    routed = []
    for k, layout in enumerate(sketched):
        share = (deadline - time.monotonic()) / (len(sketched) - k)
        routed.append(routed_exactly(ruleset, board, catalog, ids, layout, share, bound, objective) or layout)
    return sorted(routed, key=lambda layout: -worth(layout))


def _laid_groups(ruleset: Ruleset, board: Board, catalog: Catalog, topologies: list[tuple[int, list[Tree]]],
                 until: float, objective: str = "profit") -> list[list[MachinePlacement]]:
    """The biggest groups' embeddings laid on the board, the most promising first: an embedding promises its
    pattern's value less the tiles it needs beyond what the relaxation paid for its networks; each embedding's
    fits come in board order (anchor, then turn). Each pattern's embeddings get an equal part of the time."""
    began = time.monotonic()
    groups = [(value, trees[0]) for value, trees in topologies if trees and len(trees[0].names) >= 2]
    promising = []
    for k, (value, group) in enumerate(groups):
        share = began + (until - began) * (k + 1) / len(groups)
        for tiles, poses in least_embeddings(ruleset, catalog, group, CAPS + FREE_CAPS, share, EMBEDDINGS):
            fits = board_fits(ruleset, board, catalog, group.names, poses)
            extra = max(0, tiles - group.paid)
            promise = -(value + extra) if objective == "cost" else value - extra
            promising.extend((promise, rank, machines) for rank, machines in enumerate(fits))
    return [machines for _, _, machines in sorted(promising, key=lambda c: (-c[0], c[1]))][:CANDIDATES]


def _sketched(ruleset: Ruleset, board: Board, catalog: Catalog, ids: list[str], laid: list[list[MachinePlacement]],
              until: float, seed: int, bound: int | None, worth: Callable[[Layout], int]) -> list[Layout]:
    """The best KEPT legal layouts by `worth` (one per arrangement of the machines) the sketch makes around the
    laid groups by `until`, each group's machines kept where they are laid; a layout worth `bound` ends it."""
    found: dict[tuple, tuple[int, Layout]] = {}
    best = [-math.inf]

    def better(score: int) -> None:
        best[0] = max(best[0], score)

    for k, machines in enumerate(laid):
        left = until - time.monotonic()
        if left <= 0 or (bound is not None and best[0] >= bound):
            break
        fixed = Layout(ruleset, board, catalog, tuple(machines), ())
        layout = best_sketch(ruleset, board, catalog, ids, seed=seed + k, fixed=fixed,
                             time_limit=max(SKETCH_SECONDS, left / (len(laid) - k)), on_better=better,
                             stop=lambda: bound is not None and best[0] >= bound, worth=worth)
        if layout is not None:
            key = tuple(sorted((m.id, m.cell, m.rotation) for m in layout.machines))
            score = worth(layout)
            if key not in found or found[key][0] < score:
                found[key] = (score, layout)
    return [layout for _, layout in sorted(found.values(), key=lambda item: -item[0])[:KEPT]]


def routed_exactly(ruleset: Ruleset, board: Board, catalog: Catalog, ids: list[str], layout: Layout,
                   seconds: float, bound: int | None = None, objective: str = "profit") -> Layout | None:
    """The best routing CP-SAT finds in `seconds` with every machine where `layout` has it (its tiles as
    the hint), or None if it finds none better than the hint it could take."""
    if seconds <= 0.1:
        return None
    built = build_static_model(ruleset, board, catalog, ids, objective)
    try:
        fix_to_layout(built, layout.with_parts(tiles=()), complete=False)
        values = complete_assignment(built, layout, time_limit=min(seconds, 2.0))
    except ValueError:
        return None   # a tile the model has no variable for (a product through an output reservoir)
    if values is not None:
        set_hint(built, values)
    if bound is not None:
        add_objective_bound(built, bound)
    outcome = run(built, seconds, workers=1, stop_at=bound)
    if outcome.values is None:
        return None
    return checked_layout(layout_from_values(built.vars, value_reader(outcome.values), False))[0]


def board_fits(ruleset: Ruleset, board: Board, catalog: Catalog, names: tuple[str, ...], poses: list[Pose]
               ) -> list[list[MachinePlacement]]:
    """Every turn and position of the embedding (`poses`, names[0] at (0, 0) unturned) where each machine is
    a candidate placement on `board` (on playable cells, no port against the border or a blocked cell)."""
    geometry, frame = ruleset.geometry, frame_of(ruleset)
    candidates = {m: {(p.anchor, p.steps) for p in machine_placements(ruleset, board, catalog[m])} for m in names}
    fits = []
    for anchor in sorted(board.cells):
        for turn in range(len(geometry.rotation_values)):
            laid = [compose((anchor, turn), pose, frame) for pose in poses]
            if all(pose in candidates[m] for m, pose in zip(names, laid)):
                fits.append([MachinePlacement(m, cell, geometry.rotation_values[steps])
                             for m, (cell, steps) in zip(names, laid)])
    return fits
