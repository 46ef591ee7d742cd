"""A bound that ignores geometry, and cheap reasons why a set cannot be built at all.

The topology relaxation decides only which outputs feed which inputs (colour,
no self-feeding, no loops, quantities) and counts the containers and reservoirs
that forces; pipes cost nothing and space is unlimited. Its optimum is therefore
an upper bound on profit (lower bound on cost) of every legal layout. It is tiny,
so it is solved to optimality before the main search and fed into it, and its
feeding order seeds the greedy construction.
"""
from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from models.board import Board
from models.catalog import Catalog
from models.rulesets import Ruleset

from .placements import machine_placements
from .search import solver_parameters


@dataclass
class TopologyBound:
    value: int | None          # profit upper bound (or cost lower bound); None if not proved
    proved: bool
    order: list[str]           # machines in a feeding order (sources first)
    infeasible: bool = False


def topology_bound(
    ruleset: Ruleset, catalog: Catalog, machine_ids: list[str], objective: str = "profit",
    optional: bool = False, time_limit: float = 5.0, groups: list[list[str]] | None = None,
    fed_pattern: dict[tuple[str, str], int] | None = None,
) -> TopologyBound:
    """`groups`: at most one machine of each group is placed (a round's offer, for the planner).

    `fed_pattern` fixes which printed inputs (machine id, port position) are
    machine-fed; the bound prover (solver/prove.py) asks this for every pattern.
    """
    model = cp_model.CpModel()
    ids = list(machine_ids)
    n = len(ids)
    placed = {m: model.NewBoolVar(f"placed[{m}]") for m in ids}
    if not optional or objective == "cost":
        for m in ids:
            model.Add(placed[m] == 1)
    for group in groups or ():
        model.Add(sum(placed[m] for m in set(group) if m in placed) <= 1)
    rank = {m: model.NewIntVar(0, max(n - 1, 0), f"rank[{m}]") for m in ids}
    ins = [(m, p) for m in ids for p in catalog[m].inputs]
    outs = [(m, p) for m in ids for p in catalog[m].outputs if not p.is_black]
    feeds: dict[tuple[int, int], cp_model.IntVar] = {}
    for oi, (a, po) in enumerate(outs):
        for ii, (b, pi) in enumerate(ins):
            if a != b and set(po.colors) & set(pi.colors):
                f = model.NewBoolVar(f"feed[{oi},{ii}]")
                model.AddImplication(f, placed[a])
                model.AddImplication(f, placed[b])
                model.Add(rank[a] < rank[b]).OnlyEnforceIf(f)
                feeds[(oi, ii)] = f
    fed_in = []
    supply_need: list[tuple[tuple[str, ...], object, object]] = []  # (colours accepted, placed, fed)
    for ii, (b, pi) in enumerate(ins):
        fed = model.NewBoolVar(f"fed[{ii}]")
        feeding = [(oi, f) for (oi, j), f in feeds.items() if j == ii]
        model.Add(fed <= sum(f for _, f in feeding))
        model.Add(fed <= placed[b])
        # the outputs sharing this input's network put out at least its amount
        model.Add((pi.amount or 0) * fed <= sum((outs[oi][1].amount or 0) * f for oi, f in feeding))
        for oi, f in feeding:
            model.AddImplication(f, fed)
        if fed_pattern is not None and (b, pi.at) in fed_pattern:
            model.Add(fed == fed_pattern[(b, pi.at)])
        fed_in.append(fed)
        supply_need.append((pi.colors, placed[b], fed))
    for k in ruleset.colors:  # per colour, fed input points never exceed output points
        k_in = [(ii, pi) for ii, (_, pi) in enumerate(ins) if pi.colors == (k,)]
        k_out = [(a, po) for a, po in outs if po.colors == (k,)]
        if k_in:
            model.Add(sum((pi.amount or 0) * fed_in[ii] for ii, pi in k_in)
                      <= sum((po.amount or 0) * placed[a] for a, po in k_out))
    # an input not fed by machines needs a supply of one of its colours (any one, if several)
    supply = {k: model.NewBoolVar(f"supply[{k}]") for k in ruleset.colors}
    for colours, p, fed in supply_need:
        model.Add(sum(supply[k] for k in colours) >= p - fed)
    supplies = sum(supply.values())
    # an output that feeds no input needs an output reservoir of one of its colours
    reservoir = {k: model.NewBoolVar(f"reservoir[{k}]") for k in ruleset.colors}
    for oi, (a, po) in enumerate(outs):
        used = [f for (o, _), f in feeds.items() if o == oi]
        model.Add(sum(reservoir[k] for k in po.colors) >= placed[a] - sum(used))
    reservoirs = sum(reservoir.values())
    ends = sum(placed[m] for m in ids for p in catalog[m].outputs if p.is_black)
    cost = supplies + reservoirs + ends
    if objective == "cost":
        model.Minimize(cost)
    else:
        income = sum(catalog[m].income * placed[m] for m in ids)
        bonus = ruleset.chain_bonus_per_point * sum((p.amount or 0) * fed for (_, p), fed in zip(ins, fed_in))
        model.Maximize(income + bonus - cost)
    solver = cp_model.CpSolver()
    solver_parameters(solver, time_limit, 1, 0)
    status = solver.Solve(model)
    if status == cp_model.INFEASIBLE:
        return TopologyBound(None, True, ids, infeasible=True)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return TopologyBound(None, False, ids)
    order = sorted(ids, key=lambda m: solver.Value(rank[m]))
    value = int(round(solver.BestObjectiveBound()))
    return TopologyBound(value, status == cp_model.OPTIMAL, order)


def infeasibility_reason(ruleset: Ruleset, board: Board, catalog: Catalog, machine_ids: list[str]) -> str | None:
    """A player-readable reason why these machines can never all be built, or None.

    Cheap checks only: fewer free cells than machines plus the tiles they must
    have, or a machine that fits nowhere with its ports facing playable cells.
    """
    cells = len(board.cells)
    body = len(ruleset.machine_shape.chain) + 1
    needed = body * len(machine_ids)
    ends = sum(1 for m in machine_ids for p in catalog[m].outputs if p.is_black)
    # the first machine in any feeding order is fed by supply containers only
    first_inputs = min((len({p.colors for p in catalog[m].inputs}) for m in machine_ids), default=0)
    least = needed + ends + first_inputs
    if least > cells:
        return (f"too few free cells: board {board.id} has {cells} playable cells, but {len(machine_ids)} machines "
                f"need {needed} cells plus at least {ends} end-product reservoir(s) and {first_inputs} supply "
                f"container(s) ({least} in all)")
    for m in machine_ids:
        if not machine_placements(ruleset, board, catalog[m]):
            return (f"machine {m} fits nowhere on board {board.id}: every position puts a machine cell "
                    "off the board or a port against the border, a blocked cell or a pillar")
    return None
