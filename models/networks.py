"""The connected parts of a layout: openings, connections and networks.

Two cells sharing a side are connected through it when both present an opening
there (a port, a pipe end or an oriented tank's opening), or when one presents
an opening and the other is an unoriented reservoir/container, which opens
wherever something reaches it. Networks are the connected components (networkx).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from .geometry import Cell
from .layout import TANK_KINDS, Layout, PlacedPort

Node = tuple[str, int]  # ("port", i) | ("pipe", i) | ("tank", tile index)


@dataclass
class LooseEnd:
    node: Node
    cell: Cell
    side: str
    facing: str  # what it faces, for the message
    mendable: bool = True  # False when it faces the border, a pillar, a blocked cell or a machine's wall


@dataclass
class Network:
    nodes: list[Node]
    inputs: list[int] = field(default_factory=list)    # indices into layout.ports
    outputs: list[int] = field(default_factory=list)
    supplies: list[int] = field(default_factory=list)  # tile indices
    output_tanks: list[int] = field(default_factory=list)
    end_tanks: list[int] = field(default_factory=list)
    pipes: list[int] = field(default_factory=list)     # indices into layout.pipes
    colors: set[str] | None = None                     # colours every member accepts; None = unconstrained

    @property
    def fed_by_machines(self) -> bool:
        return bool(self.outputs)

    @property
    def has_port(self) -> bool:
        return bool(self.inputs or self.outputs)


@dataclass
class Connectivity:
    graph: nx.Graph
    loose_ends: list[LooseEnd]
    networks: list[Network]
    network_of: dict[Node, int]


def _tank_nodes(layout: Layout) -> dict[Cell, Node]:
    return {t.cell: ("tank", i) for i, t in enumerate(layout.tiles) if t.kind in TANK_KINDS}


def _active_openings(layout: Layout) -> dict[tuple[Cell, str], Node]:
    active: dict[tuple[Cell, str], Node] = {}
    for i, port in enumerate(layout.ports):
        active[(port.cell, port.side)] = ("port", i)
    for i, pipe in enumerate(layout.pipes):
        for end in pipe.ends:
            active[end] = ("pipe", i)
    if layout.ruleset.oriented_tanks:
        for i, tile in enumerate(layout.tiles):
            if tile.kind in TANK_KINDS:
                active[(tile.cell, tile.side)] = ("tank", i)
    return active


def _describe_facing(layout: Layout, cell: Cell | None, beyond: Cell) -> str:
    """What an opening faces: `cell` is the playable neighbour (None if there is none), `beyond` the cell across."""
    if cell is None:
        if beyond in layout.board.pillars:
            return "a pillar"
        if beyond in layout.board.blocked:
            return "a blocked cell"
        return "the board's border"
    if cell in layout.machine_cells:
        return f"a wall of machine {layout.machines[layout.machine_cells[cell]].id}"
    if cell in layout.tile_cells:
        return "a tile with no opening there"
    return "an empty cell"


def openings(layout: Layout) -> tuple[dict[tuple[Cell, str], Node], dict[Cell, Node]]:
    """(active openings by (cell, side), passive tanks by cell): what a side can connect to.

    An opening at (cell, side) meets `active[(neighbour, opposite side)]` or, failing
    that, `passive[neighbour]` (a square tank opens wherever something reaches it).
    """
    tanks = _tank_nodes(layout)
    return _active_openings(layout), ({} if layout.ruleset.oriented_tanks else tanks)


def partner(layout: Layout, active: dict[tuple[Cell, str], Node], passive: dict[Cell, Node],
            cell: Cell, side: str) -> Node | None:
    """The node an opening at (cell, side) connects to, or None (a loose end)."""
    other = layout.board.neighbour(cell, side)
    if other is None:
        return None
    return active.get((other, layout.ruleset.geometry.opposite(side))) or passive.get(other)


def _port_colors(port: PlacedPort) -> set[str]:
    return set(port.spec.colors)


def connect(layout: Layout) -> Connectivity:
    """Build the connection graph, find loose ends and summarise every network."""
    geometry, board = layout.ruleset.geometry, layout.board
    graph: nx.Graph = nx.Graph()
    graph.add_nodes_from(("port", i) for i in range(len(layout.ports)))
    graph.add_nodes_from(("pipe", i) for i in range(len(layout.pipes)))
    graph.add_nodes_from(("tank", i) for i, t in enumerate(layout.tiles) if t.kind in TANK_KINDS)
    active, passive = openings(layout)
    loose: list[LooseEnd] = []
    for (cell, side), node in active.items():
        met = partner(layout, active, passive, cell, side)
        if met is not None:
            graph.add_edge(node, met)
            continue
        other = board.neighbour(cell, side)
        dead = other is None or other in layout.machine_cells
        loose.append(LooseEnd(node, cell, side, _describe_facing(layout, other, geometry.across(cell, side)), not dead))

    networks: list[Network] = []
    network_of: dict[Node, int] = {}
    for component in sorted(nx.connected_components(graph), key=min):
        net = Network(nodes=sorted(component))
        for kind, index in net.nodes:
            network_of[(kind, index)] = len(networks)
            if kind == "port":
                port = layout.ports[index]
                (net.inputs if port.spec.is_input else net.outputs).append(index)
                net.colors = _port_colors(port) if net.colors is None else net.colors & _port_colors(port)
            elif kind == "pipe":
                net.pipes.append(index)
            else:
                tile = layout.tiles[index]
                if tile.kind == "supply":
                    net.supplies.append(index)
                    net.colors = {tile.color} if net.colors is None else net.colors & {tile.color}
                elif tile.kind == "output":
                    net.output_tanks.append(index)
                else:
                    net.end_tanks.append(index)
        networks.append(net)
    return Connectivity(graph, loose, networks, network_of)
