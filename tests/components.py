"""Real layouts cut into their physical components, each with the block the prover would ask about.

The prover's completeness tests (tests/test_solver_local.py, tests/test_solver_grow.py) take a layout
that the solver or the sketch built, and check something about every component of it: it fits its
patch, and growth never refutes it at its own cost. They all need the same cut, and the same fed
pattern read off the checker, so it lives here once.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import networkx as nx

from models.board import load_boards
from models.catalog import Catalog
from models.check import CheckResult, check_layout
from models.geometry import Cell
from models.layout import Layout
from models.networks import connect
from models.rulesets import Ruleset
from solver.local import Block, LocalProver
from solver.static import solve_static


@dataclass
class Component:
    """Machines joined by any network, the cells they and their networks use, and their block."""

    machines: set[int]        # indices into the layout's machines
    ids: list[str]
    cells: set[Cell]
    block: Block | None       # None: the block's relaxation refutes this fed pattern (a bug if it happens)
    check: CheckResult        # the whole layout's


def components(layout: Layout) -> list[tuple[set[int], set[Cell]]]:
    """(machine indices, cells) of each physical component: machines joined by any network."""
    conn = connect(layout)
    graph = nx.Graph()
    graph.add_nodes_from(range(len(layout.machines)))
    cells_of_net = []
    for net in conn.networks:
        machines = {layout.ports[i].machine for i in net.inputs + net.outputs}
        tiles = net.supplies + net.output_tanks + net.end_tanks + [layout.pipes[i].tile for i in net.pipes]
        cells_of_net.append((machines, {layout.tiles[t].cell for t in tiles}))
        graph.add_edges_from((a, b) for a in machines for b in machines if a < b)
    out = []
    for group in nx.connected_components(graph):
        cells = {c for i in group for c in layout.machine_footprint(layout.machines[i])}
        cells |= {c for machines, net_cells in cells_of_net if machines & group for c in net_cells}
        out.append((group, cells))
    return out


def component_blocks(layout: Layout, catalog: Catalog, prover: LocalProver) -> Iterator[Component]:
    """Every component of `layout` with the prover's block for its machines and the fed pattern they have there."""
    check = check_layout(layout)
    fed = {(c.machine, c.at) for c in check.score.chain_inputs}
    for group, cells in components(layout):
        ids = [layout.machines[i].id for i in group]
        pattern = {(m, p.at): int((m, p.at) in fed) for m in ids for p in catalog[m].inputs}
        yield Component(group, ids, cells, prover._block(ids, pattern), check)


def solved_layout(ruleset: Ruleset, catalog: Catalog, machines: list[str]) -> Layout:
    """A static solve's layout on classic-A.

    The solves here prove their optimum in about 4 s alone; the limit is only a cap. 5 s, then 10 s,
    each once ended without a layout on a loaded CI machine (two test workers on two cores), so the
    cap is 60 s: a slow machine costs time, never a false failure.
    """
    board = load_boards(ruleset)["classic-A"]
    layout = solve_static(ruleset, board, catalog, machines, time_limit=60, seed=1).layout
    assert layout is not None, f"the static solver found no layout of {machines} in 60 s"
    return layout
