"""Why a fixed part of a layout can never be completed: cheap facts, checked before any search.

A `--fixed` layout is kept exactly, so some of its faults can never be mended by
what the solver adds: a port or pipe end facing the border or a pillar, more
supply containers of a colour than even every machine of the set allows, a
container no machine of the set can drink from. Without these checks CP-SAT
searched the whole time limit and said UNKNOWN; with them the player hears the
reason at once.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

from models.catalog import Catalog
from models.check import check_layout, closed_faults, dead_ends
from models.layout import Layout
from models.networks import connect
from models.replay import tile_changes
from models.stock import SupplyStock
from models.wording import counted, with_article

#: checker rules that no added tile or machine can mend once the fixed part breaks them: limits only grow, and a
#: fixed part's networks keep what they join (a colour mixed, a container meeting a product, an end product
#: meeting a second machine or an output reservoir, a feeding loop); QA: those four were reported as "not enough
#: room ... (proved by the solver)" after 5 s
_NETWORK_RULES = ("one-colour", "supply-meets-product", "black-network")   # (their message names no cell)
_MONOTONE_LIMITS = ("output-limit", "end-limit", "diagonal", "feeds-cycle", *_NETWORK_RULES)


def fixed_part_reason(fixed: Layout, catalog: Catalog, machine_ids: list[str], placing: Iterable[str] = ()
                      ) -> str | None:
    """A player-readable reason why no legal layout of `machine_ids` keeps all of `fixed`, or None.

    `machine_ids` is the whole set (the fixed machines included): their bonus
    machines raise the supply allowance, and their inputs are what a fixed
    container may feed. `placing`: the machines every layout must hold (`unsupplied_input`).
    """
    for dead in dead_ends(fixed):
        return f"{dead.message} (from cell {list(dead.cells[0])})"   # (QA: "(cell [2, 3])" read as the pillar's)
    for fault in closed_faults(fixed):
        return f"{fault.message} (at {fault.cells_text}), and nothing can join it: every opening of it is taken"
    for violation in check_layout(fixed).violations:
        if violation.rule in _MONOTONE_LIMITS:
            where = f" (at {violation.cells_text})" if violation.cells and violation.rule in _NETWORK_RULES else ""
            return f"{violation.message}{where}"
    machines = [catalog[m] for m in machine_ids]
    supplies = Counter(t.color for t in fixed.tiles if t.kind == "supply")
    stock = SupplyStock.of(fixed.ruleset, machines)
    for message, _ in stock.faults(supplies):
        return f"{message}, with every machine of the set standing"
    drunk = {colour for m in machines for port in m.inputs for colour in port.colors}
    for tile in fixed.tiles:
        if tile.kind == "supply" and tile.color not in drunk:
            return (f"the {tile.color} supply container at {list(tile.cell)} can feed nothing: "
                    f"no machine of the set has {with_article(tile.color)} input")
    return _unfillable_reservoir(fixed, machines) or unsupplied_input(fixed, catalog, machine_ids, placing)


def unsupplied_input(fixed: Layout, catalog: Catalog, machine_ids: list[str], placing: Iterable[str]) -> str | None:
    """An input of a machine the solve must add (`placing`, beyond the fixed part) that nothing could ever fill,
    in words, or None: no other machine of the set makes any of its colours, the stock allows no more supply
    container of them, and every fixed one is walled in (no pipe end of its network and no opening of it
    faces a free cell). QA: FN16 beside a fixed Funner layout whose one blue tank opens onto FN05's port
    searched to UNKNOWN at the time limit, "bound 30"."""
    rules = fixed.ruleset
    used = Counter(t.color for t in fixed.tiles if t.kind == "supply")
    stock = SupplyStock.of(rules, (catalog[m] for m in machine_ids))
    open_colours = _joinable_supplies(fixed)
    for m in placing:
        if m in fixed.machine_ids:
            continue
        made = {c for other in machine_ids if other != m for port in catalog[other].outputs for c in port.colors}
        for port in catalog[m].inputs:
            colours = [c for c in port.colors if c in rules.colors]
            if not colours or any(c in made or c in open_colours or stock.room_for(used, c) for c in colours):
                continue
            named = " or ".join(colours)
            return rules.in_own_words(
                f"{m}'s {named} input can never be supplied: no other machine of the set makes {named}, no more "
                f"{named} supply container is allowed, and the fixed one has no free opening")
    return None


def _joinable_supplies(fixed: Layout) -> set[str]:
    """The colours of the fixed supply containers something added could still join: their network has a pipe
    end facing a free cell, or the container itself an opening (a square one all its sides, a hex one its one)
    onto a cell a new pipe could enter from it: an empty cell, or one whose fixed pipes leave that side free
    (a crossing added beside a fixed straight: QA, a container walled in by pipes was called INFEASIBLE where a
    crossing reached it)."""
    conn = connect(fixed)
    reaching = {conn.network_of[end.node] for end in conn.loose_ends if end.mendable and end.node in conn.network_of}
    geometry = fixed.ruleset.geometry

    def enterable(tank_cell, side: str) -> bool:
        cell = fixed.board.neighbour(tank_cell, side)
        if cell is None or cell in fixed.machine_cells:
            return False
        here = [fixed.tiles[i] for i in fixed.tile_cells.get(cell, [])]
        back = geometry.opposite(side)
        return all(tile.kind == "pipe" and back not in (tile.sides or ()) for tile in here)

    joinable = set()
    for n, net in enumerate(conn.networks):
        for t in net.supplies:
            tank = fixed.tiles[t]
            openings = (tank.side,) if fixed.ruleset.oriented_tanks else geometry.sides
            if n in reaching or any(enterable(tank.cell, side) for side in openings):
                joinable.add(tank.color)
    return joinable


def _unfillable_reservoir(fixed: Layout, machines: list) -> str | None:
    """A fixed reservoir no machine of the set can ever fill (RULES 2, rules 5 and 7: an output reservoir needs a
    machine output in its network, an end-product reservoir one machine's end product of its own). QA: each
    searched to UNKNOWN at the time limit."""
    products = sum(1 for m in machines for port in m.outputs if port.is_black)
    ends = [t for t in fixed.tiles if t.kind == "end"]
    if len(ends) > products:
        return (f"{counted(len(ends), 'end-product reservoir')} fixed, but the machines of the set make "
                f"{counted(products, 'end product')}, and each reservoir takes one machine's")
    coloured = any(not port.is_black for m in machines for port in m.outputs)
    for tile in fixed.tiles:
        if tile.kind == "output" and not coloured:
            return (f"the output reservoir at {list(tile.cell)} can take nothing: no machine of the set has an "
                    "output of a colour")
    return None


def fixed_part_moved(layout: Layout, fixed: Layout | None, name: str = "the hint") -> str | None:
    """The first machine or tile of `fixed` that `layout` (`name`: a hint, a walk's layout) does not have where
    `fixed` has it, in words, or None."""
    if fixed is None:
        return None
    placed = {m.id: m for m in layout.machines}
    for machine in fixed.machines:
        if placed.get(machine.id) != machine:
            return f"--fixed has {machine.id} at {list(machine.cell)} turned {machine.rotation}, {name} does not"
    _, missing = tile_changes(fixed, layout)   # (fixed's tiles `layout` lacks, in fixed's order)
    if missing:
        return f"--fixed has a {missing[0].kind} tile at {list(missing[0].cell)}, {name} does not"
    return None
