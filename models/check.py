"""The rule checker: the judge of every layout, independent of the solver.

It reports every violation of RULES.md section 1 (and the ruleset variations),
each naming its rule, cells and machines, and never stops at the first one.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

import networkx as nx

from .layout import Layout
from .networks import Connectivity, Network, connect
from .score import Score, score_layout
from .stock import SupplyStock
from .wording import TILE_NAMES, counted

RULES: dict[str, str] = {
    "loose-end": "every port, pipe end and tank opening meets an opening across its side",
    "connector": "a cell's pipes form one real connector tile",
    "one-colour": "a network carries one colour",
    "supply-meets-product": "a supply container never shares a network with a machine output",
    "input-unfed": "a machine input is fed by a supply container or a machine output",
    "output-unused": "a machine output reaches a machine input or a reservoir",
    "black-network": "an end product goes from exactly one machine to its own end-product reservoir",
    "quantity": "inputs fed by machines take no more than those machines put out",
    "reservoir-unfed": "an output reservoir is fed by a machine output",
    "supply-unused": "a supply container feeds a machine input",
    "stray-tile": "every tile belongs to a network with a machine port",
    "feeds-cycle": "no machine feeds itself, directly or through others",
    "supply-limit": "one supply container per colour, plus one per placed bonus machine",
    "output-limit": "at most 3 output reservoirs",
    "end-limit": "no more end-product reservoirs than the stock",
    "diagonal": "at most one diagonal intersection tile, and only when the option is on",
}


@dataclass
class Violation:
    rule: str
    message: str
    cells: list[tuple[int, int]] = field(default_factory=list)
    machines: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "message": self.message, "cells": [list(c) for c in self.cells], "machines": self.machines}

    @property
    def cells_text(self) -> str:
        """"[2, 3] [3, 0]": the cells as the terminal views print them."""
        return " ".join(str(list(c)) for c in self.cells)


@dataclass
class CheckResult:
    violations: list[Violation]
    score: Score
    connectivity: Connectivity

    @property
    def legal(self) -> bool:
        return not self.violations

    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "violations": [v.to_dict() for v in self.violations],
            "score": self.score.summary(),
        }


class _Checker:
    def __init__(self, layout: Layout):
        self.layout = layout
        self.conn = connect(layout)
        self.violations: list[Violation] = []

    # helpers ---------------------------------------------------------------
    def add(self, rule: str, message: str, cells=(), machines=()) -> None:
        message = self.layout.ruleset.in_own_words(message)
        self.violations.append(Violation(rule, message, sorted(set(cells)), sorted(set(machines))))

    def port_label(self, index: int) -> str:
        port = self.layout.ports[index]
        spec = port.spec
        amount = "" if spec.amount is None else f" {spec.amount}"
        return f"{self.layout.machines[port.machine].id} {spec.kind}put {'/'.join(spec.colors)}{amount} at {spec.at}"

    def net_cells(self, net: Network) -> list:
        cells = [self.layout.ports[i].cell for i in net.inputs + net.outputs]
        cells += [self.layout.tiles[i].cell for i in net.supplies + net.output_tanks + net.end_tanks]
        cells += [end[0] for p in net.pipes for end in self.layout.pipes[p].ends]
        return cells

    def net_machines(self, net: Network) -> list[str]:
        return [self.layout.machines[self.layout.ports[i].machine].id for i in net.inputs + net.outputs]

    # rule families -----------------------------------------------------------
    def loose_ends(self, dead_only: bool = False) -> None:
        for loose in self.conn.loose_ends:
            if dead_only and loose.mendable:
                continue
            kind, index = loose.node
            if kind == "port":
                what = self.port_label(index)
                machines = [self.layout.machines[self.layout.ports[index].machine].id]
            elif kind == "pipe":
                what, machines = "pipe end", []
            else:
                # (its name, in the game's words: QA saw "end tank opening" beside "black tank" elsewhere)
                what, machines = f"{TILE_NAMES[self.layout.tiles[index].kind]} opening", []
            self.add("loose-end", f"{what} on side {loose.side} faces {loose.facing}", [loose.cell], machines)

    def connectors(self) -> None:
        rules = self.layout.ruleset
        for cell, indices in self.layout.tile_cells.items():
            pipes = [self.layout.tiles[i] for i in indices if self.layout.tiles[i].kind == "pipe"]
            if len(pipes) > rules.max_pipes_per_cell:
                self.add("connector", f"{len(pipes)} pipes in one cell (at most {rules.max_pipes_per_cell})", [cell])
            elif len(pipes) > 1 and any(len(p.sides or ()) > rules.multi_pipe_max_sides for p in pipes):
                self.add("connector", "a splitter cannot share its cell with another pipe", [cell])
            if not rules.x_splitter_available and any(len(p.sides or ()) == 4 for p in pipes):
                self.add("connector", f"ruleset {rules.id} has no 4-sided splitter", [cell])

    def _diagonal_part(self, net) -> str:
        """Which of the diagonal tile's two pipes a network is, when it is one: both span the same two cells, so
        their rows read alike (QA)."""
        layout = self.layout
        pipes = [layout.pipes[p] for p in net.pipes]
        if len(pipes) != 1 or layout.tiles[pipes[0].tile].kind != "diagonal":
            return ""
        (a, side_a), (b, side_b) = pipes[0].ends
        return f"the diagonal tile's pipe from side {side_a} of {list(a)} to side {side_b} of {list(b)}"

    def network_rules(self) -> None:
        layout = self.layout
        for net in self.conn.networks:
            cells, machines = self.net_cells(net), self.net_machines(net)
            if not net.has_port:
                # (the tanks as the game names them: QA pass 55 read "end, supply not connected")
                tanks = sorted({TILE_NAMES[self.layout.tiles[i].kind] for i in net.supplies + net.output_tanks + net.end_tanks})
                pipes = ["pipe" if len(net.pipes) == 1 else counted(len(net.pipes), "pipe")] if net.pipes else []
                what = self._diagonal_part(net) or ", ".join(tanks + pipes)   # ("4 pipes": QA pass 54 read "pipe")
                self.add("stray-tile", f"{what} not connected to any machine port", cells)
                # rule 7 holds on its own: a lone container or reservoir breaks it too
                if net.output_tanks:
                    self.add("reservoir-unfed", "output reservoir not fed by any machine output",
                             [layout.tiles[i].cell for i in net.output_tanks])
                if net.supplies:
                    self.add("supply-unused", "supply container feeds no machine input",
                             [layout.tiles[i].cell for i in net.supplies])
                continue
            colors = net.colors if net.colors is not None else set()
            black = colors == {"black"}
            if net.colors is not None and not colors:
                self.add("one-colour", "network mixes colours: " + "; ".join(self.port_label(i) for i in net.inputs + net.outputs)
                         + "".join(f"; {layout.tiles[i].color} supply" for i in net.supplies), cells, machines)
            if net.supplies and net.outputs:
                self.add("supply-meets-product", "supply container in the same network as a machine output", cells, machines)
            if net.end_tanks and not black:
                self.add("black-network", "end-product reservoir in a network that is not black", cells, machines)
            # an end product wired into a coloured network breaks the end product's rules too, not "quantity"
            # (QA: FF09's black output facing FF04's red input named one-colour and "the outputs give 0")
            mixed_end_product = not colors and any(layout.ports[i].spec.is_black for i in net.outputs)
            if black or mixed_end_product:
                self.black_network(net, cells, machines)
            else:
                self.coloured_network(net, cells, machines)

    def black_network(self, net: Network, cells, machines) -> None:
        if len(net.outputs) > 1:
            self.add("black-network", "two machines share an end-product network", cells, machines)
        if len(net.end_tanks) > 1:
            self.add("black-network", "more than one end-product reservoir in one network", cells, machines)
        if net.output_tanks:
            self.add("black-network", "an output reservoir in an end-product network", cells, machines)
        if net.inputs:   # (RULES rule 5: "nothing else but pipes"; only a network mixing colours can have one)
            self.add("black-network", "a machine input in an end-product network", cells, machines)
        if net.outputs and not net.end_tanks:
            self.add("output-unused", f"{self.port_label(net.outputs[0])} reaches no end-product reservoir", cells, machines)

    def coloured_network(self, net: Network, cells, machines) -> None:
        layout = self.layout
        if net.inputs and not net.supplies and not net.outputs:
            for i in net.inputs:
                self.add("input-unfed", f"{self.port_label(i)} is fed by no supply container or machine", [layout.ports[i].cell], [layout.machines[layout.ports[i].machine].id])
        if net.outputs and not net.inputs and not net.output_tanks:
            for i in net.outputs:
                self.add("output-unused", f"{self.port_label(i)} reaches no machine input and no output reservoir", [layout.ports[i].cell], [layout.machines[layout.ports[i].machine].id])
        if net.outputs:
            demand = sum(layout.ports[i].spec.amount or 0 for i in net.inputs)
            offer = sum(layout.ports[i].spec.amount or 0 for i in net.outputs)
            if demand > offer:
                self.add("quantity", f"inputs need {demand} but the feeding outputs give {offer}", cells, machines)
        if net.output_tanks and not net.outputs:
            self.add("reservoir-unfed", "output reservoir not fed by any machine output",
                     [layout.tiles[i].cell for i in net.output_tanks], machines)
        if net.supplies and not net.inputs:
            self.add("supply-unused", "supply container feeds no machine input",
                     [layout.tiles[i].cell for i in net.supplies], machines)

    def feeds(self) -> None:
        layout = self.layout
        graph: nx.DiGraph = nx.DiGraph()
        graph.add_nodes_from(range(len(layout.machines)))
        for net in self.conn.networks:
            for o in net.outputs:
                for i in net.inputs:
                    graph.add_edge(layout.ports[o].machine, layout.ports[i].machine)
        for component in nx.strongly_connected_components(graph):
            if len(component) > 1 or any(graph.has_edge(m, m) for m in component):
                ids = [layout.machines[m].id for m in sorted(component)]
                cells = [c for m in component for c in layout.machine_footprint(layout.machines[m])]
                self.add("feeds-cycle", _loop_text(graph.subgraph(component), layout), cells, ids)

    def limits(self) -> None:
        layout, rules = self.layout, self.layout.ruleset
        tiles = layout.tiles
        supplies = Counter(t.color for t in tiles if t.kind == "supply")
        stock = SupplyStock.of(rules, (layout.machine(i) for i in range(len(layout.machines))))
        for message, colours in stock.faults(supplies):
            self.add("supply-limit", message, [t.cell for t in tiles if t.kind == "supply" and t.color in colours])
        count = Counter(t.kind for t in tiles)
        if count["output"] > rules.output_limit:
            self.add("output-limit", f"{counted(count['output'], 'output reservoir')}, at most {rules.output_limit}",
                     [t.cell for t in tiles if t.kind == "output"])
        end_limit = layout.options.get("end_limit")
        if end_limit is None:
            end_limit = rules.end_limit
        if end_limit is not None and count["end"] > end_limit:
            self.add("end-limit", f"{counted(count['end'], 'end-product reservoir')}, at most {end_limit}",
                     [t.cell for t in tiles if t.kind == "end"])
        diagonals = [t for t in tiles if t.kind == "diagonal"]
        if diagonals and not layout.options.get("diagonal_intersection"):
            self.add("diagonal", "diagonal intersection tile used but the option is off"
                     if rules.diagonal_available else f"ruleset {rules.id} has no diagonal intersection tile",
                     [d.cell for d in diagonals])
        elif len(diagonals) > 1:
            self.add("diagonal", f"{len(diagonals)} diagonal intersection tiles, at most 1", [d.cell for d in diagonals])

    def run(self) -> CheckResult:
        self.loose_ends()
        self.connectors()
        self.network_rules()
        self.feeds()
        self.limits()
        return CheckResult(self.violations, score_layout(self.layout, self.conn), self.conn)


def _loop_text(loop: nx.DiGraph, layout: Layout) -> str:
    """A feeds cycle as a player reads it: the machines in feeding order, back to the first
    (the machines of a strongly connected part listed in document order claimed feeds that are not there)."""
    edges = nx.find_cycle(loop)
    ids = [layout.machines[a].id for a, _ in edges]
    if len(ids) == 1:
        return f"machine {ids[0]} feeds itself"
    return "machines feed each other in a loop: " + " -> ".join(ids + ids[:1])


def check_layout(layout: Layout) -> CheckResult:
    """Every violation of the layout rules, and the layout's static score."""
    return _Checker(layout).run()


def closed_faults(layout: Layout) -> list[Violation]:
    """The broken network rules of a partial layout's closed networks: those no opening of which faces a free
    cell and which hold no tank (a tank opens to whatever reaches it), so that nothing added can ever join them.
    Why a fixed part can never be completed (QA: a fixed ring of pipes, and a 1 feeding a 2 port to port, each
    searched to the time limit)."""
    checker = _Checker(layout)
    loose = {end.node for end in checker.conn.loose_ends}
    closed = [net for net in checker.conn.networks
              if not (net.supplies or net.output_tanks or net.end_tanks or loose.intersection(net.nodes))]
    checker.conn = replace(checker.conn, networks=closed)
    checker.network_rules()
    return checker.violations


def dead_ends(layout: Layout) -> list[Violation]:
    """The loose ends of a partial layout that no added tile can mend (a port or pipe end facing the
    border, a pillar, a blocked cell or a machine's wall): why a fixed part can never be completed."""
    checker = _Checker(layout)
    checker.loose_ends(dead_only=True)
    return checker.violations
