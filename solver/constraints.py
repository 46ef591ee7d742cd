"""Constraint families of the static-build model, one function per rule family.

Each `add_*` function reads and extends a `StaticVars` container. Wherever a rule
is a plain implication between 0/1 quantities it is written as a linear
inequality without enforcement literals, so CP-SAT's LP relaxation keeps it (a
model made of enforced constraints gives an LP with no rows and no bound).
Integer labels (flows, ranks, tags) use enforcement literals: they matter for
feasibility, not for the bound.
"""
from __future__ import annotations

from itertools import combinations

from ortools.sat.python import cp_model

from models.stock import SupplyStock

from .placements import Slot
from .variables import PortGroup, StaticVars


def add_placements(model: cp_model.CpModel, v: StaticVars, optional: bool) -> None:
    """One boolean per candidate placement; each listed machine placed once (or at most once)."""
    for mid in v.machine_ids:
        indices = v.by_machine[mid]
        placed = model.NewBoolVar(f"placed[{mid}]")
        model.Add(sum(v.x[i] for i in indices) == placed)
        if not optional:
            model.Add(placed == 1)
        v.placed[mid] = placed


def add_port_groups(model: cp_model.CpModel, v: StaticVars) -> None:
    """Aggregate placements by the port they put on each slot (fewer, stronger constraints)."""
    buckets: dict[tuple, list[int]] = {}
    for i, placement in enumerate(v.placements):
        for port in placement.ports:
            key = (port.slot, port.spec.kind, port.spec.colors, port.spec.amount)
            buckets.setdefault(key, []).append(i)
    for (slot, kind, colors, amount), indices in sorted(buckets.items(), key=lambda kv: repr(kv[0])):
        if len(indices) == 1:
            literal = v.x[indices[0]]
        else:
            literal = model.NewBoolVar(f"port[{slot},{kind},{colors},{amount}]")
            model.Add(sum(v.x[i] for i in indices) == literal)
        v.port_groups.append(PortGroup(slot, kind, colors, amount, literal, tuple(indices)))


def add_occupancy(model: cp_model.CpModel, v: StaticVars) -> None:
    """One tile per cell; a cell's pipes form one real connector tile."""
    rules = v.ruleset
    for cell in v.cells:
        pieces = v.pieces_in_cell.get(cell, [])
        pipe_any = model.NewBoolVar(f"pipes[{cell}]")
        for i in pieces:
            model.Add(v.y[i] <= pipe_any)
        model.Add(pipe_any <= sum(v.y[i] for i in pieces))
        diagonal_cover = sum(lit for tile, lit in v.diagonal_tiles.items() if cell in v.diagonal_cells[tile])
        model.Add(v.machine_on(cell) + v.tank(cell) + pipe_any + diagonal_cover <= 1)
        if pieces:
            model.Add(sum(v.y[i] for i in pieces) <= rules.max_pipes_per_cell)
            for i in pieces:
                if len(v.pieces[i].slots) > rules.multi_pipe_max_sides:
                    others = [v.y[j] for j in pieces if j != i]
                    model.Add(len(others) * v.y[i] + sum(others) <= len(others))
    for slot, indices in v.pieces_at_slot.items():
        if len(indices) > 1:
            model.Add(sum(v.y[i] for i in indices) <= 1)
    if v.diagonal_tiles:
        model.Add(sum(v.diagonal_tiles.values()) <= 1)


def add_openings(model: cp_model.CpModel, v: StaticVars) -> None:
    """Connections through edges, no loose ends, no tank left alone.

    An edge is open when either side presents a port or pipe end; the other side
    must then present one too, or be a tank: on square boards tanks open wherever
    something meets them; oriented (hex) tanks open on their one side only, and
    that opening must meet a port or pipe end (never another tank, which would
    make a network without a port).
    """
    geometry, oriented = v.ruleset.geometry, v.ruleset.oriented_tanks
    for e, (a, side, b) in enumerate(v.edges):
        slot_a, slot_b = (a, side), (b, geometry.opposite(side))
        act_a, act_b = v.active(slot_a), v.active(slot_b)
        conn = v.conn[e]
        model.Add(conn >= act_a)
        model.Add(conn >= act_b)
        model.Add(conn <= act_a + act_b)
        tank_a = v.tank_open(slot_a) if oriented else v.tank(a)   # what a tank offers on this edge
        tank_b = v.tank_open(slot_b) if oriented else v.tank(b)
        model.Add(act_a <= act_b + tank_b)
        model.Add(act_b <= act_a + tank_a)
        if oriented:
            model.Add(tank_a <= act_b)
            model.Add(tank_b <= act_a)
    for cell in v.cells:
        around = [v.conn[v.slot_edge[(cell, s)][0]] for s in v.sides(cell)]
        model.Add(v.tank(cell) <= sum(around))


def _joined_pairs(v: StaticVars) -> dict[tuple[Slot, Slot], list[int]]:
    """Slot pairs joined inside a pipe piece, with the pieces that join them."""
    pairs: dict[tuple[Slot, Slot], list[int]] = {}
    for i, piece in enumerate(v.pieces):
        for s, t in combinations(piece.slots, 2):
            pairs.setdefault((s, t), []).append(i)
    return pairs


def add_network_labels(model: cp_model.CpModel, v: StaticVars) -> None:
    """Colour, machine-fed flag and tag are equal across pipes and tanks of a network.

    The tag is the feeding level in coloured networks (acyclicity) and the rank
    of the one black output in black networks (keeps two end products apart).
    """
    colors, n = v.colors, len(v.machine_ids)
    for e in range(len(v.edges)):
        model.Add(sum(v.ecol[e].values()) == v.conn[e])
        model.Add(v.fed[e] <= v.conn[e])
    for (s, t), pieces in _joined_pairs(v).items():
        joined = sum(v.y[i] for i in pieces)
        es, et = v.slot_edge[s][0], v.slot_edge[t][0]
        for k in colors:
            model.Add(v.ecol[es][k] - v.ecol[et][k] + joined <= 1)
            model.Add(v.ecol[et][k] - v.ecol[es][k] + joined <= 1)
        model.Add(v.fed[es] - v.fed[et] + joined <= 1)
        model.Add(v.fed[et] - v.fed[es] + joined <= 1)
        lit = v.y[pieces[0]] if len(pieces) == 1 else _bool_of(model, joined, f"joined[{s},{t}]")
        model.Add(v.tag[es] == v.tag[et]).OnlyEnforceIf(lit)
    for cell in v.cells:
        tank_color = {k: model.NewBoolVar(f"tankcol[{cell},{k}]") for k in colors}
        model.Add(sum(tank_color.values()) == v.tank(cell))
        for k in v.ruleset.colors:
            model.Add(v.supply[(cell, k)] <= tank_color[k])
        model.Add(tank_color["black"] == v.end[cell])
        tank_tag = model.NewIntVar(0, max(n - 1, 0), f"tanktag[{cell}]")
        product_tank = v.output[cell] + v.end[cell]
        product_literal = _bool_of(model, product_tank, f"product_tank[{cell}]")
        for s in v.sides(cell):
            e = v.slot_edge[(cell, s)][0]
            for k in colors:
                model.Add(v.ecol[e][k] >= tank_color[k] + v.conn[e] - 1)
            model.Add(v.fed[e] <= 1 - v.supply_any(cell))
            model.Add(v.fed[e] >= product_tank + v.conn[e] - 1)
            model.Add(v.tag[e] == tank_tag).OnlyEnforceIf([v.conn[e], product_literal])


def _bool_of(model: cp_model.CpModel, expr: cp_model.LinearExprT, name: str) -> cp_model.IntVar:
    """A boolean equal to a 0/1 sum, for use as an enforcement literal."""
    literal = model.NewBoolVar(name)
    model.Add(expr == literal)
    return literal


def add_ports(model: cp_model.CpModel, v: StaticVars) -> None:
    """What a chosen port imposes on the edge it opens onto: colour, fed flag, flow, tag."""
    for group in v.port_groups:
        e = v.slot_edge[group.slot][0]
        g = group.literal
        cell = group.slot[0]
        model.Add(sum(v.ecol[e][k] for k in group.colors) >= g)
        out = v.outflow(group.slot)
        rank = v.cell_rank[cell]
        if group.kind == "in":
            model.Add(out <= -group.amount).OnlyEnforceIf(g)
            # acyclic feeds: a machine-fed input sits above its network's level
            model.Add(rank >= v.tag[e] + 1).OnlyEnforceIf([g, v.fed[e]])
        else:
            model.Add(v.fed[e] >= g)
            if group.colors == ("black",):  # exactly one end product to one end reservoir
                model.Add(out == 1).OnlyEnforceIf(g)
                model.Add(v.tag[e] == rank).OnlyEnforceIf(g)
            else:
                model.Add(out >= 1).OnlyEnforceIf(g)
                model.Add(out <= group.amount).OnlyEnforceIf(g)
                model.Add(v.tag[e] >= rank).OnlyEnforceIf(g)


def add_chain_bonus(model: cp_model.CpModel, v: StaticVars) -> None:
    """One literal per printed input: true exactly when the placed input is machine-fed.

    Per printed port rather than per slot, so the bound never exceeds the printed
    inputs' total even before the LP has a say; the topology cuts build on it.
    """
    for mid in v.machine_ids:
        for spec in v.catalog[mid].inputs:
            literal = model.NewBoolVar(f"fedin[{mid},{spec.at}]")
            model.Add(literal <= v.placed[mid])
            v.fed_input[(mid, spec.at)] = literal
            v.bonus.append((literal, spec.amount or 0))
    for i, placement in enumerate(v.placements):
        for port in placement.ports:
            if port.spec.is_input:
                e = v.slot_edge[port.slot][0]
                literal = v.fed_input[(placement.machine, port.spec.at)]
                model.Add(literal <= v.fed[e] + 1 - v.x[i])
                model.Add(literal >= v.fed[e] - 1 + v.x[i])


def add_topology_cuts(model: cp_model.CpModel, v: StaticVars) -> None:
    """Redundant linear rows that hold in every legal layout, whatever its geometry.

    They give the LP what the geometry hides: a machine-fed input needs an output
    of its colour on another machine; per colour, fed input points never exceed
    output points; an input that is not machine-fed needs a supply of its colour;
    an output of a colour with no fed input needs an output reservoir; every black
    output needs its own end reservoir.
    """
    ins = [(m, p) for m in v.machine_ids for p in v.catalog[m].inputs]
    outs = [(m, p) for m in v.machine_ids for p in v.catalog[m].outputs]
    for m, p in ins:  # a multi-colour input may be fed by an output, or a supply, of any of its colours
        model.Add(v.fed_input[(m, p.at)] <= sum(v.placed[o] for o, q in outs if o != m and set(q.colors) & set(p.colors)))
        if len(p.colors) > 1:
            model.Add(sum(v.supply[(c, k)] for c in v.cells for k in p.colors) >= v.placed[m] - v.fed_input[(m, p.at)])
    for k in v.ruleset.colors:
        k_ins = [(m, p) for m, p in ins if k in p.colors]
        k_outs = [(m, p) for m, p in outs if k in p.colors]
        supplies = sum(v.supply[(c, k)] for c in v.cells)
        for m, p in k_ins:
            if len(p.colors) == 1:
                model.Add(supplies >= v.placed[m] - v.fed_input[(m, p.at)])
        if k_ins and all(len(p.colors) == 1 for _, p in k_ins + k_outs):
            model.Add(sum((p.amount or 0) * v.fed_input[(m, p.at)] for m, p in k_ins)
                      <= sum((p.amount or 0) * v.placed[m] for m, p in k_outs))
        for m, p in k_outs:
            if len(p.colors) == 1:
                # any fed input that accepts k may be the one this output reaches
                others = [v.fed_input[(i, q.at)] for i, q in k_ins if i != m]
                model.Add(sum(v.output.values()) >= v.placed[m] - sum(others))
    black = [v.placed[m] for m, p in outs if p.is_black]
    if black:
        model.Add(sum(v.end.values()) >= sum(black))


def add_ranks(model: cp_model.CpModel, v: StaticVars) -> None:
    """Machine ranks form a permutation; each cell knows the rank of the machine on it."""
    n = len(v.machine_ids)
    if n > 1:
        model.AddAllDifferent(list(v.rank.values()))
    port_cells = {g.slot[0] for g in v.port_groups}
    for cell in port_cells:
        v.cell_rank[cell] = model.NewIntVar(0, max(n - 1, 0), f"cellrank[{cell}]")
    for i, placement in enumerate(v.placements):
        for cell in placement.cells:
            if cell in v.cell_rank:
                model.Add(v.cell_rank[cell] == v.rank[placement.machine]).OnlyEnforceIf(v.x[i])


def add_flows(model: cp_model.CpModel, v: StaticVars) -> None:
    """Integer flows: conserved in pipes, produced by supplies and outputs, consumed by inputs and reservoirs.

    Together with the fed flag this gives rules 3, 4, 6 and 7 without naming networks.
    A reservoir must receive at least one unit and a supply send at least one: a
    safe tightening for a static build (a reservoir nothing flows into is waste),
    but not for a tank a player fixed (`relax_waste`).
    """
    cap = v.flow_cap
    for e in range(len(v.edges)):
        model.Add(v.flow[e] <= cap * v.conn[e])
        model.Add(v.flow[e] >= -cap * v.conn[e])
    for i, piece in enumerate(v.pieces):
        model.Add(sum(v.outflow(s) for s in piece.slots) == 0).OnlyEnforceIf(v.y[i])
    for cell in v.cells:
        sides = v.sides(cell)
        if not sides:
            continue
        net_out = sum(v.outflow((cell, s)) for s in sides)
        supply = _supply_literal(model, v, cell)
        sends, receives = model.Add(net_out >= 1), model.Add(net_out <= -1)
        sends.OnlyEnforceIf(supply)
        receives.OnlyEnforceIf(v.output[cell])
        v.waste_barred[cell] = (net_out, supply, sends, receives)
        model.Add(net_out == -1).OnlyEnforceIf(v.end[cell])


def relax_waste(model: cp_model.CpModel, v: StaticVars, cell) -> None:
    """A tank fixed at `cell`, whose network rule 7 already holds for, may carry no flow: a reservoir beside
    inputs that take every unit, a second container of a colour. Legal, and a player's fixed part may hold one
    (QA: a Funner fixed part cut from the solver's own legal layout was "proved" INFEASIBLE, its pink reservoir
    receiving nothing); each tightening there now holds only if a fresh literal, free to be 0, says so, and the
    flow's direction alone stays (a container sends, a reservoir receives). Added only here: every other solve's
    model is as it was."""
    if cell not in v.waste_barred:
        return
    net_out, supply, sends, receives = v.waste_barred[cell]
    for tightening in (sends, receives):
        tightening.OnlyEnforceIf(model.NewBoolVar(f"waste_barred[{cell}]"))
    model.Add(net_out >= 0).OnlyEnforceIf(supply)
    model.Add(net_out <= 0).OnlyEnforceIf(v.output[cell])


def _supply_literal(model: cp_model.CpModel, v: StaticVars, cell) -> cp_model.IntVar:
    literal = model.NewBoolVar(f"supply[{cell}]")
    model.Add(literal == v.supply_any(cell))
    return literal


def add_limits(model: cp_model.CpModel, v: StaticVars, end_limit: int | None, soft: bool = False,
               stock: SupplyStock | None = None) -> cp_model.LinearExprT:
    """Per-player stock: supplies per colour (+ bonus machines), output and end reservoirs.

    soft=True lets supplies exceed their allowance and returns the excess, which the
    objective penalises: with one container per colour, routing is a Steiner packing
    that CP-SAT rarely solves from scratch, while excess containers are easy to
    place and then to merge away. Only layouts with zero excess are ever reported.
    `stock`: a fixed supply stock instead of the one the placed machines give (a
    component of a bigger layout, whose stock is the player's).
    """
    rules = v.ruleset
    if stock is not None:  # constants
        any_colour: cp_model.LinearExprT = stock.any_colour
        any_bound = stock.any_colour
        own = {k: stock.allowed(k) for k in rules.colors}
    else:  # what the placed machines give
        def placed_with(bonus: str) -> list[cp_model.IntVar]:
            return [v.placed[m] for m in v.machine_ids if rules.bonus_supply and v.catalog[m].bonus_supply == bonus]
        any_colour, any_bound = sum(placed_with("any")), len(placed_with("any"))
        own = {k: rules.supply_per_color + sum(placed_with(k)) for k in rules.colors}
    extra = {k: model.NewIntVar(0, max(0, any_bound), f"any_supply[{k}]") for k in rules.colors}
    model.Add(sum(extra.values()) <= any_colour)
    excess = 0
    for k in rules.colors:
        allowance = own[k] + extra[k]
        used = sum(v.supply[(c, k)] for c in v.cells)
        if soft:
            over = model.NewIntVar(0, len(v.cells), f"excess[{k}]")
            model.Add(used <= allowance + over)
            excess += over
        else:
            model.Add(used <= allowance)
    model.Add(sum(v.output.values()) <= rules.output_limit)
    if end_limit is not None:
        model.Add(sum(v.end.values()) <= end_limit)
    return excess
