"""Compose the static-build CP-SAT model from its constraint families.

`build_static_model` creates the variables (solver/variables.py), adds every
family from solver/constraints.py and sets the objective. Fixing the variables
to a given layout (`fix_to_layout`) is the same mapping the solver uses for
`fixed` layouts, hints and the model-checker agreement tests.
"""
from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from models.board import Board
from models.catalog import Catalog
from models.geometry import Cell
from models.layout import TANK_KINDS, Layout
from models.networks import connect
from models.rulesets import Ruleset
from models.stock import SupplyStock

from . import constraints as C
from .placements import cell_pieces, diagonal_pieces, machine_placements
from .variables import StaticVars

OBJECTIVES = ("profit", "cost")


@dataclass
class StaticModel:
    model: cp_model.CpModel
    vars: StaticVars
    objective: str
    income: cp_model.LinearExprT
    cost: cp_model.LinearExprT
    chain_bonus: cp_model.LinearExprT
    excess: cp_model.LinearExprT = 0          # supplies over the allowance (soft limits only)

    @property
    def score(self) -> cp_model.LinearExprT:
        return self.income - self.cost + self.chain_bonus


def _flow_cap(catalog: Catalog, machine_ids: tuple[str, ...]) -> int:
    """No edge needs to carry more than one colour's total production or consumption.

    A network carries one colour, and some feasible flow sends each input exactly
    what it needs, so the largest per-colour total bounds every edge (small
    domains help CP-SAT's propagation and local search).
    """
    totals: dict[tuple[str, str], int] = {}
    for m in machine_ids:
        for p in catalog[m].ports:
            for colour in p.colors:
                key = (p.kind, colour)
                totals[key] = totals.get(key, 0) + (p.amount or 1)
    return max(totals.values(), default=1)


def create_variables(
    model: cp_model.CpModel, ruleset: Ruleset, board: Board, catalog: Catalog,
    machine_ids: tuple[str, ...], diagonal: bool,
) -> StaticVars:
    v = StaticVars(ruleset, board, catalog, machine_ids, ruleset.all_colors)
    v.flow_cap = _flow_cap(catalog, machine_ids)
    for mid in machine_ids:
        v.by_machine[mid] = []
        for placement in machine_placements(ruleset, board, catalog[mid]):
            index = len(v.placements)
            v.placements.append(placement)
            v.x.append(model.NewBoolVar(f"x[{mid},{placement.anchor},{placement.rotation}]"))
            v.by_machine[mid].append(index)
            for cell in placement.cells:
                v.placements_at.setdefault(cell, []).append(index)
    pieces = cell_pieces(ruleset, board)
    if diagonal:
        pieces += diagonal_pieces(ruleset, board)
    for piece in pieces:
        index = len(v.pieces)
        v.pieces.append(piece)
        if piece.is_diagonal:
            if piece.tile not in v.diagonal_tiles:
                v.diagonal_tiles[piece.tile] = model.NewBoolVar(f"diag[{piece.tile}]")
                v.diagonal_cells[piece.tile] = piece.cells
            v.y.append(v.diagonal_tiles[piece.tile])
        else:
            v.y.append(model.NewBoolVar(f"pipe[{piece.tile}]"))
            v.pieces_in_cell.setdefault(piece.cells[0], []).append(index)
        for slot in piece.slots:
            v.pieces_at_slot.setdefault(slot, []).append(index)
    for cell in v.cells:
        for k in ruleset.colors:
            v.supply[(cell, k)] = model.NewBoolVar(f"supply[{cell},{k}]")
        v.output[cell] = model.NewBoolVar(f"output[{cell}]")
        v.end[cell] = model.NewBoolVar(f"end[{cell}]")
    n = len(machine_ids)
    for e, (a, side, b) in enumerate(board.edges()):
        v.edges.append((a, side, b))
        v.slot_edge[(a, side)] = (e, 1)
        v.slot_edge[(b, ruleset.geometry.opposite(side))] = (e, -1)
        v.conn.append(model.NewBoolVar(f"conn[{e}]"))
        v.ecol.append({k: model.NewBoolVar(f"col[{e},{k}]") for k in v.colors})
        v.fed.append(model.NewBoolVar(f"fed[{e}]"))
        v.tag.append(model.NewIntVar(0, max(n - 1, 0), f"tag[{e}]"))
        v.flow.append(model.NewIntVar(-v.flow_cap, v.flow_cap, f"flow[{e}]"))
    for mid in machine_ids:
        v.rank[mid] = model.NewIntVar(0, max(n - 1, 0), f"rank[{mid}]")
    if ruleset.oriented_tanks:
        _add_oriented_tanks(model, v)
    return v


def _add_oriented_tanks(model: cp_model.CpModel, v: StaticVars) -> None:
    """Hex tanks: one literal per (kind, cell, opening side[, colour]); the cell literals are their sums.

    Only sides facing a playable cell get a literal (an opening towards the
    border or a pillar is a loose end). Every rule stated over the per-cell
    literals (one tile per cell, stock limits, colours, flows, cost) then holds
    for oriented tanks too; constraints.add_openings adds what an opening means.
    """
    kinds = [("supply", k) for k in v.ruleset.colors] + [("output", None), ("end", None)]
    for cell in v.cells:
        for kind, colour in kinds:
            sides = []
            for side in v.sides(cell):
                literal = model.NewBoolVar(f"{kind}[{cell},{side},{colour}]")
                v.oriented[(kind, cell, side, colour)] = literal
                v.oriented_at.setdefault((cell, side), []).append(literal)
                sides.append(literal)
            whole = v.supply[(cell, colour)] if kind == "supply" else (v.output if kind == "output" else v.end)[cell]
            model.Add(whole == sum(sides))


def add_static_layout(
    model: cp_model.CpModel, ruleset: Ruleset, board: Board, catalog: Catalog, machine_ids: list[str] | tuple[str, ...],
    objective: str = "profit", optional: bool = False, diagonal: bool = False,
    end_limit: int | None = None, soft_limits: bool = False, stock: SupplyStock | None = None,
) -> StaticModel:
    """One layout's variables and every rule of a legal layout, added to `model` (no objective set).

    `stock`: the supply containers this layout may use, when not what its own machines allow (a
    component of a bigger layout, solver/local.py: the stock is the player's, not the component's).

    Kept apart from `build_static_model` so a model can hold several layouts:
    the staged game model (solver/staged.py) has one per round.
    """
    machine_ids = tuple(machine_ids)
    v = create_variables(model, ruleset, board, catalog, machine_ids, diagonal)
    C.add_placements(model, v, optional)
    C.add_port_groups(model, v)
    C.add_occupancy(model, v)
    C.add_openings(model, v)
    C.add_network_labels(model, v)
    C.add_ranks(model, v)
    C.add_ports(model, v)
    C.add_chain_bonus(model, v)
    C.add_topology_cuts(model, v)
    C.add_flows(model, v)
    excess = C.add_limits(model, v, end_limit if end_limit is not None else ruleset.end_limit, soft_limits,
                          stock)
    income = sum(catalog[m].income * v.placed[m] for m in machine_ids)
    cost = sum(v.y) + sum(v.tank(c) for c in v.cells)
    chain = ruleset.chain_bonus_per_point * sum(points * lit for lit, points in v.bonus)
    return StaticModel(model, v, objective, income, cost, chain, excess)


def build_static_model(
    ruleset: Ruleset, board: Board, catalog: Catalog, machine_ids: list[str] | tuple[str, ...],
    objective: str = "profit", optional: bool = False, diagonal: bool = False,
    end_limit: int | None = None, soft_limits: bool = False, penalty: int = 50, stock: SupplyStock | None = None,
) -> StaticModel:
    """The full model; `objective` 'profit' maximises the static score, 'cost' minimises the build cost."""
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r} (known: {', '.join(OBJECTIVES)})")
    built = add_static_layout(cp_model.CpModel(), ruleset, board, catalog, machine_ids, objective, optional,
                              diagonal, end_limit, soft_limits, stock)
    if objective == "cost":
        built.model.Minimize(built.cost + penalty * built.excess)
    else:
        built.model.Maximize(built.score - penalty * built.excess)
    return built


def tile_literals(built: StaticModel) -> list[cp_model.IntVar]:
    """Every tile literal, once per unit of cost (a diagonal tile's literal appears twice): what a round pays for."""
    return list(built.vars.y) + built.vars.tank_literals()


def add_objective_bound(built: StaticModel, value: int) -> None:
    """Feed a proved bound (e.g. the geometry-free one) into the model as a cut on the objective."""
    if built.objective == "cost":
        built.model.Add(built.cost >= value)
    else:
        built.model.Add(built.score <= value)


def fix_to_layout(built: StaticModel, layout: Layout, complete: bool = True) -> bool:
    """Force the model's layout variables to `layout` (hard constraints).

    complete=True also forbids everything the layout does not contain, so the
    model is feasible exactly when it accepts this very layout; complete=False
    only forces what the layout contains (the `fixed` option of the solver).
    Returns whether the model still holds every legal layout keeping `layout`:
    not when a tank of it must carry flow in the model (constraints.add_flows)
    though a legal layout may leave it none (QA: a fixed pink reservoir, whose
    outputs come only with machines the solve places, got "bound 12" where a
    layout keeping it scores 17). The model's layouts are legal either way.
    """
    lits, rest = layout_literals(built.vars, layout)
    for lit in lits:
        built.model.Add(lit == 1)
    if complete:
        for lit in rest:
            built.model.Add(lit == 0)
    relaxed, binding = _fixed_tank_flows(built.vars, layout)
    for cell in relaxed:
        C.relax_waste(built.model, built.vars, cell)
    return not binding


def _fixed_tank_flows(v: StaticVars, layout: Layout) -> tuple[list[Cell], list[Cell]]:
    """(cells of the layout's tanks whose flow tightening can go, cells where it stays though a legal layout
    keeping `layout` may leave the tank without flow).

    It can go where rule 7 already holds (an output reservoir in a network with a machine output, a supply
    container in one with a machine input): the layout's parts stay where they are, and so do their
    connections. A supply container of a colour whose stock (every machine of the model placed) allows no second
    one needs no change: whatever it joins, every supply-fed input there drinks from it alone.
    """
    stock = SupplyStock.of(v.ruleset, [v.catalog[m] for m in v.machine_ids])
    relaxed: list[Cell] = []
    binding: list[Cell] = []
    for network in connect(layout).networks:
        for i in network.output_tanks:
            (relaxed if network.outputs else binding).append(layout.tiles[i].cell)
        for i in network.supplies:
            tile = layout.tiles[i]
            if network.inputs:
                relaxed.append(tile.cell)
            elif stock.room_for({tile.color: 1}, tile.color):
                binding.append(tile.cell)
    return relaxed, binding


def layout_literals(v: StaticVars, layout: Layout) -> tuple[list[cp_model.IntVar], list[cp_model.IntVar]]:
    """(variables that are 1 in `layout`, every other layout variable).

    Raises ValueError when the layout uses something the model has no variable for
    (a machine outside the set, a port against the border, ...).
    """
    geometry = v.ruleset.geometry
    chosen: set[int] = set()
    index = {(p.machine, p.anchor, p.steps): i for i, p in enumerate(v.placements)}
    for m in layout.machines:
        key = (m.id, m.cell, geometry.steps_of(m.rotation))
        if key not in index:
            raise ValueError(f"machine {m.id} at {list(m.cell)} rotation {m.rotation} is not a candidate placement")
        chosen.add(id(v.x[index[key]]))
    piece_index = {}
    for i, piece in enumerate(v.pieces):
        piece_index[piece.tile if piece.is_diagonal else ("pipe", piece.cells[0], frozenset(s for _, s in piece.slots))] = i
    tank_lits = []
    for tile in layout.tiles:
        if tile.kind in TANK_KINDS:
            try:
                tank_lits.append(v.tank_literal(tile))
            except KeyError:
                raise ValueError(f"{tile.kind} tank at {list(tile.cell)} opening {tile.side} is not a candidate") from None
        elif tile.kind == "pipe":
            key = ("pipe", tile.cell, frozenset(tile.sides))
            if key not in piece_index:
                raise ValueError(f"pipe {list(tile.sides)} at {list(tile.cell)} is not a candidate piece")
            tank_lits.append(v.y[piece_index[key]])
        elif tile.kind == "diagonal":
            key = _diagonal_key(v, tile)
            if key is None:
                raise ValueError(f"diagonal tile at {list(tile.cell)} is not a candidate (is the option on?)")
            tank_lits.append(v.diagonal_tiles[key])
    for lit in tank_lits:
        chosen.add(id(lit))
    everything = list(v.x) + list(v.y) + v.tank_literals()
    ones, rest, seen = [], [], set()
    for lit in everything:
        if id(lit) in seen:
            continue
        seen.add(id(lit))
        (ones if id(lit) in chosen else rest).append(lit)
    return ones, rest


def _diagonal_key(v: StaticVars, tile) -> tuple | None:
    """The model's key for a diagonal tile, matching half-turn duplicates by their pipes."""
    from models.shapes import DIAGONAL, DIAGONAL_PIPES

    geometry = v.ruleset.geometry
    steps = geometry.steps_of(tile.rotation)
    pipes = frozenset(
        frozenset(DIAGONAL.locate(geometry, tile.cell, steps, pos) for pos in pipe) for pipe in DIAGONAL_PIPES
    )
    for key in v.diagonal_tiles:
        if frozenset(frozenset(p.slots) for p in v.pieces if p.tile == key) == pipes:
            return key
    return None
