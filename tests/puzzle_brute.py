"""Every legal layout of a tiny square puzzle scoring at least a target, by brute force and the rule checker.

The second opinion on the puzzle solver's claims ("the only best", "the runner-up scores r"): nothing from the
CP-SAT model is used. Machines are tried at every anchor and turn; every free cell takes nothing, a pipe piece (2-4
sides), two pipes (a crossing or two curves) or a tank the machines can use (a container of a colour they drink,
an output or end-product reservoir if they make products or end products: any other is always illegal);
a depth-first search keeps only assignments whose openings meet (a pipe end or port faces a pipe end, port or
tank across its side; a tank has an opening facing it) and whose tile count leaves the target reachable (income +
every input's chain bonus - tiles); the checker judges what is left. Square rulesets, boards of a dozen cells.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from models.board import Board
from models.catalog import Catalog
from models.check import check_layout
from models.geometry import Cell
from models.layout import Layout, MachinePlacement, Tile
from models.rulesets import Ruleset


@dataclass(frozen=True)
class _Option:
    tiles: tuple[Tile, ...]
    ends: frozenset[str]          # sides with a pipe end
    tank: bool


def _options(ruleset: Ruleset, cell: Cell, tank_kinds: list[tuple[str, str | None]]) -> list[_Option]:
    sides = ruleset.geometry.sides
    options = [_Option((), frozenset(), False)]
    for size in (2, 3, 4):
        for chosen in itertools.combinations(sides, size):
            options.append(_Option((Tile("pipe", cell, sides=chosen),), frozenset(chosen), False))
    for first, second in (((sides[0], sides[2]), (sides[1], sides[3])), ((sides[0], sides[1]), (sides[2], sides[3])),
                          ((sides[0], sides[3]), (sides[1], sides[2]))):
        options.append(_Option((Tile("pipe", cell, sides=first), Tile("pipe", cell, sides=second)),
                               frozenset(sides), False))
    options += [_Option((Tile(kind, cell, color=colour),), frozenset(), True) for kind, colour in tank_kinds]
    return options


def _placements(ruleset: Ruleset, board: Board, machine: str) -> list[tuple[MachinePlacement, list[Cell]]]:
    geometry, shape = ruleset.geometry, ruleset.machine_shape
    out = []
    for anchor in sorted(board.cells):
        for steps, rotation in enumerate(geometry.rotation_values):
            cells = shape.cells(geometry, anchor, steps)
            if all(cell in board.cells for cell in cells):
                out.append((MachinePlacement(machine, anchor, rotation), cells))
    return out


def legal_layouts(ruleset: Ruleset, board: Board, catalog: Catalog, machines: tuple[str, ...],
                  target: int) -> list[Layout]:
    """Every legal layout placing all `machines` on `board` that scores `target` or more."""
    geometry, shape = ruleset.geometry, ruleset.machine_shape
    income = sum(catalog[m].income for m in machines)
    chain = ruleset.chain_bonus_per_point * sum(   # (an input earns it only from another machine's product)
        p.amount or 0 for m in machines for p in catalog[m].inputs
        if any(set(p.colors) & set(o.colors) for other in machines if other != m for o in catalog[other].outputs))
    budget = income + chain - target
    # the tanks the rules let these machines use: containers of the colours they drink, an output reservoir for a
    # product, an end-product reservoir for a black output (any other is always illegal: unused, unfed or stray)
    outputs = [port for m in machines for port in catalog[m].outputs]
    tank_kinds = [("supply", c) for c in ruleset.colors if any(c in p.colors for m in machines for p in catalog[m].inputs)]
    tank_kinds += [("output", None)] * any(not p.is_black for p in outputs) + [("end", None)] * any(p.is_black for p in outputs)
    found: list[Layout] = []
    for chosen in itertools.product(*(_placements(ruleset, board, m) for m in machines)):
        covered = [cell for _, cells in chosen for cell in cells]
        if len(set(covered)) < len(covered):
            continue
        ports: set[tuple[Cell, str]] = set()
        for placement, _ in chosen:
            steps = geometry.steps_of(placement.rotation)
            ports |= {shape.locate(geometry, placement.cell, steps, spec.at) for spec in catalog[placement.id].ports}
        machine_cells = set(covered)
        free = sorted(board.cells - machine_cells)
        index = {cell: i for i, cell in enumerate(free)}

        def faces(cell: Cell, side: str, assigned: dict, tank_takes: bool) -> bool | None:
            """Whether `cell` has an opening across `side` (None: not decided yet): a port or pipe end, or with
            `tank_takes` a tank too (it takes whatever faces it, and presents nothing itself)."""
            if cell not in board.cells:
                return False
            if cell in machine_cells:
                return (cell, side) in ports
            if cell not in assigned:
                return None
            option = assigned[cell]
            return (tank_takes and option.tank) or side in option.ends

        def accepts(cell: Cell, side: str, assigned: dict) -> bool | None:
            return faces(cell, side, assigned, True)

        def opens(cell: Cell, side: str, assigned: dict) -> bool | None:
            return faces(cell, side, assigned, False)

        if any(accepts(geometry.across(c, s), geometry.opposite(s), {}) is False for c, s in ports):
            continue   # a port against the border, a pillar or a machine's wall

        def consistent(cell: Cell, assigned: dict) -> bool:
            option = assigned[cell]
            for side in geometry.sides:
                other = geometry.across(cell, side)
                back = geometry.opposite(side)
                if side in option.ends and accepts(other, back, assigned) is False:
                    return False
                if opens(other, back, assigned) and not (option.tank or side in option.ends):
                    return False
            if option.tank:   # a tank with no opening facing it is a stray tile
                facing = [opens(geometry.across(cell, s), geometry.opposite(s), assigned) for s in geometry.sides]
                if not any(facing) and None not in facing:
                    return False
            return True

        def search(i: int, assigned: dict, tiles: int) -> None:
            if i == len(free):
                layout = Layout(ruleset, board, catalog, tuple(p for p, _ in chosen),
                                tuple(t for option in assigned.values() for t in option.tiles))
                judged = check_layout(layout)
                if judged.legal and judged.score.total >= target:
                    found.append(layout)
                return
            cell = free[i]
            for option in _options(ruleset, cell, tank_kinds):
                cost = tiles + len(option.tiles)
                if cost > budget:
                    continue
                assigned[cell] = option
                neighbours = [geometry.across(cell, s) for s in geometry.sides]
                if consistent(cell, assigned) and all(
                        consistent(n, assigned) for n in neighbours if n in assigned and index[n] < i):
                    search(i + 1, assigned, cost)
                del assigned[cell]

        search(0, {}, 0)
    return found
