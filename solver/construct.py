"""Greedy construction: add machines one at a time, as a player builds.

Each step has two small searches. (a) Placement: the full model for the machines
added so far, earlier machines fixed where they stand, their tiles only hinted,
and the supply limits soft (excess containers penalised): this picks a spot for
the new machine quickly, because sharing one container per colour is the hard
part of routing. (b) Routing: every machine fixed, limits hard, hinted with (a):
re-route everything so the containers are shared. A step that fails leaves the
machine out (it is retried at the end). The result is a complete legal layout,
which CP-SAT alone rarely finds for 6-10 machines in minutes.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from models.board import Board
from models.catalog import Catalog
from models.check import check_layout
from models.layout import Layout
from models.networks import connect
from models.rulesets import Ruleset

from .bounds import topology_bound
from .extract import layout_from_values, prune
from .model import add_objective_bound, build_static_model, fix_to_layout
from .search import Interrupt, empty_hint, partial_hint, run, value_reader


#: a greedy step stops within this relative gap: the main search improves the whole later
STEP_GAP = 0.1


@dataclass
class Construction:
    layout: Layout | None       # legal layout of the machines that could be added
    placed: list[str]
    skipped: list[str]
    seconds: float


@dataclass
class _Setup:
    ruleset: Ruleset
    board: Board
    catalog: Catalog
    objective: str
    diagonal: bool
    fixed: Layout | None
    workers: int
    seed: int
    interrupt: Interrupt | None


def _solve(setup: _Setup, ids: list[str], hint: Layout | None, keep: Layout | None,
           soft: bool, time_limit: float) -> Layout | None:
    """One search for `ids`; everything in `keep` (machines and tiles) stays, `hint` is a partial hint."""
    built = build_static_model(setup.ruleset, setup.board, setup.catalog, ids, objective=setup.objective,
                               diagonal=setup.diagonal, soft_limits=soft)
    bound = topology_bound(setup.ruleset, setup.catalog, ids, setup.objective, time_limit=1.0,
                           pair_cuts=not setup.diagonal)
    if bound.value is not None:  # lets a step stop as soon as it meets the geometry-free bound
        add_objective_bound(built, bound.value)
    for part in (setup.fixed, keep):
        if part is not None:
            fix_to_layout(built, part, complete=False)
    if hint is not None:
        partial_hint(built, hint)
    elif setup.ruleset.geometry.name == "hex":
        empty_hint(built)
    outcome = run(built, time_limit, setup.workers, setup.seed, interrupt=setup.interrupt, accept_excess=soft,
                  gap_limit=STEP_GAP, stop_at=bound.value)
    if outcome.values is None:
        return None
    return prune(layout_from_values(built.vars, value_reader(outcome.values), setup.diagonal))


def _colour_networks(layout: Layout) -> dict[str, set[int]]:
    """Tile indices of the networks of each colour (tiles of mixed or unknown colour left out)."""
    conn = connect(layout)
    out: dict[str, set[int]] = {}
    for net in conn.networks:
        if not net.colors or len(net.colors) != 1:
            continue
        (colour,) = net.colors
        tiles = out.setdefault(colour, set())
        for kind, index in net.nodes:
            if kind == "tank":
                tiles.add(index)
            elif kind == "pipe":
                tiles.add(layout.pipes[index].tile)
    return out


def _reroute_colours(setup: _Setup, ids: list[str], layout: Layout, step_time: float) -> Layout | None:
    """Re-route one colour at a time, everything else kept, until no container is in excess.

    Merging two far-apart networks of one colour needs many coordinated changes
    that generic neighbourhoods rarely make; freeing exactly that colour's tiles
    gives CP-SAT a small problem in which the merge is the obvious move.
    """
    for colour in setup.ruleset.colors:
        if check_layout(layout).legal:
            return layout
        free = _colour_networks(layout).get(colour)
        supplies = sum(1 for t in layout.tiles if t.kind == "supply" and t.color == colour)
        if not free or supplies <= 1:
            continue
        keep = layout.with_parts(tiles=tuple(t for i, t in enumerate(layout.tiles) if i not in free))
        rerouted = _solve(setup, ids, layout, keep, soft=True, time_limit=step_time)
        if rerouted is not None:
            layout = rerouted
    return layout if check_layout(layout).legal else None


def _add_machine(setup: _Setup, layout: Layout | None, ids: list[str], step_time: float) -> Layout | None:
    """Add the last machine of `ids`: first around the untouched layout, else moving the routing."""
    if layout is not None:
        added = _solve(setup, ids, None, layout, soft=False, time_limit=step_time / 3)
        if added is not None:
            return added
    placed = _solve(setup, ids, layout, layout.with_parts(tiles=()) if layout else None, soft=True, time_limit=step_time)
    if placed is None:
        return None
    if check_layout(placed).legal:  # no excess container: already legal
        return placed
    rerouted = _reroute_colours(setup, ids, placed, step_time / 2)
    if rerouted is not None:
        return rerouted
    return _solve(setup, ids, placed, placed.with_parts(tiles=()), soft=False, time_limit=step_time)


def greedy_layout(
    ruleset: Ruleset, board: Board, catalog: Catalog, order: list[str], step_time: float = 3.0,
    workers: int = 2, seed: int = 0, objective: str = "profit", diagonal: bool = False,
    fixed: Layout | None = None, deadline: float | None = None, interrupt: Interrupt | None = None,
) -> Construction:
    """Add the machines of `order` one by one; machines that cannot be added are skipped."""
    start = time.monotonic()
    setup = _Setup(ruleset, board, catalog, objective, diagonal, fixed, workers, seed, interrupt)
    layout: Layout | None = None
    placed: list[str] = [m.id for m in fixed.machines] if fixed is not None else []
    pending = [m for m in order if m not in placed]
    skipped: list[str] = []
    for attempt in range(2):  # a skipped machine may fit once the others stand
        for mid in pending:
            if (deadline is not None and time.monotonic() > deadline) or (interrupt is not None and interrupt.flag):
                skipped.append(mid)
                continue
            limit = step_time if deadline is None else max(0.5, min(step_time, deadline - time.monotonic()))
            result = _add_machine(setup, layout, placed + [mid], limit)
            if result is None:
                skipped.append(mid)
                continue
            layout, placed = result, placed + [mid]
        if not skipped or attempt == 1:
            break
        pending, skipped = skipped, []
    return Construction(layout, placed, skipped, time.monotonic() - start)
