"""What is drawn where: a geometry-free summary of a board or layout.

Both drawings (terminal and SVG) need the same facts - which cells hold which
machine, which side carries which port, which colour each pipe has - and the
network colours come from the connection graph. Computing them once here keeps
the two renderers to pure drawing code and guarantees they agree.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..board import Board
from ..geometry import Cell
from ..catalog import Catalog
from ..layout import TANK_KINDS, Layout, MachinePlacement
from ..rulesets import Ruleset
from ..networks import Connectivity, Network, connect
from .palette import LEGEND, LegendEntry

End = tuple[Cell, str]


@dataclass(frozen=True)
class MachineView:
    """A placed machine: its cells in order a, b, ... and what is printed on it."""

    index: int
    id: str
    name: str
    income: int
    cells: tuple[Cell, ...]
    bonus: str | None = None   # a "+" machine's second supply colour ("any": its choice), drawn as "+" by its id

    @property
    def label(self) -> str:
        """Its id as drawn: a "+" machine's with the "+" (QA: two red supply containers beside FF22 looked like
        a broken supply limit, with nothing on the drawing saying FF22 allows them)."""
        return f"{self.id}+" if self.bonus else self.id


@dataclass(frozen=True)
class PortView:
    """A machine port on one cell side."""

    cell: Cell
    side: str
    is_input: bool
    colors: tuple[str, ...]
    amount: int | None


@dataclass(frozen=True)
class PipeView:
    """One pipe: its ends (cell, side) and its network's colour name."""

    ends: tuple[End, ...]
    color: str
    tile: int


@dataclass(frozen=True)
class TankView:
    """A supply container or reservoir and the sides through which it connects."""

    kind: str            # supply, output, end
    cell: Cell
    fill: str            # colour name of the body: supply colour, "white" or "black"
    network_color: str   # colour of the network it belongs to
    openings: tuple[str, ...]


@dataclass(frozen=True)
class Scene:
    """Everything a renderer draws, in board coordinates."""

    board: Board
    colors: tuple[str, ...]            # colours to show in the legend
    machines: tuple[MachineView, ...] = ()
    ports: tuple[PortView, ...] = ()
    pipes: tuple[PipeView, ...] = ()
    tanks: tuple[TankView, ...] = ()
    diagonals: tuple[tuple[Cell, ...], ...] = ()   # cells of each diagonal tile
    highlights: frozenset[Cell] = frozenset()
    named: tuple[tuple[Cell, str], ...] = ()       # a pipe cell of each feed network, and the colour named there

    def machine_at(self) -> dict[Cell, MachineView]:
        return {cell: m for m in self.machines for cell in m.cells}

    def pipes_at(self) -> dict[Cell, list[PipeView]]:
        """Single-cell pipes by cell (diagonal pipes span two cells and are drawn apart)."""
        out: dict[Cell, list[PipeView]] = {}
        for pipe in self.pipes:
            if len({cell for cell, _ in pipe.ends}) == 1:
                out.setdefault(pipe.ends[0][0], []).append(pipe)
        return out


def network_color(net: Network | None, order: tuple[str, ...]) -> str:
    """One colour name for a network: its colour, 'none' if open, 'mixed' if contradictory.

    Multi-colour ports leave several candidates; the ruleset's colour order picks
    one so the drawing is stable.
    """
    if net is None or net.colors is None:
        return "none"
    if not net.colors:
        return "mixed"
    return next((c for c in order if c in net.colors), sorted(net.colors)[0])


def named_feeds(layout: Layout, conn: Connectivity, order: tuple[str, ...]) -> tuple[tuple[Cell, str], ...]:
    """Where each network that no lettered tank names (a feed from machine to machine) writes its colour: a cell
    of its pipes that holds no other pipe, straight pipes first, then the nearest their middle. A reader who does not tell red from green
    or brown reads a feed's colour there (QA, a simulation of colour blindness: only its chips and pipe showed
    it); supply and output networks are named on their tanks, and black end-product networks need no name."""
    pipes_in: dict[Cell, int] = {}
    for pipe in layout.pipes:
        for cell in {cell for cell, _ in pipe.ends}:
            pipes_in[cell] = pipes_in.get(cell, 0) + 1
    lettered = {conn.network_of[("tank", i)] for i, t in enumerate(layout.tiles)
                if t.kind in ("supply", "output") and ("tank", i) in conn.network_of}
    cells_of: dict[int, list[tuple[Cell, int]]] = {}
    for i, pipe in enumerate(layout.pipes):
        cells = {cell for cell, _ in pipe.ends}
        index = conn.network_of.get(("pipe", i))
        if index is not None and index not in lettered and len(cells) == 1 and pipes_in[pipe.ends[0][0]] == 1:
            cells_of.setdefault(index, []).append((pipe.ends[0][0], _bend(layout, pipe.ends)))
    named = []
    for index, spots in sorted(cells_of.items()):
        color = network_color(conn.networks[index], order)
        if color in ("none", "mixed", "black"):
            continue
        middle = (sum(c[0] for c, _ in spots) / len(spots), sum(c[1] for c, _ in spots) / len(spots))
        # straight pipes first: the tag sits on the cell's centre, which a tight curve passes wide of (QA: a hex
        # curve hugging a corner left its tag floating beside it)
        cell, _ = min(spots, key=lambda spot: (spot[1], (spot[0][0] - middle[0]) ** 2 + (spot[0][1] - middle[1]) ** 2,
                                               spot[0]))
        named.append((cell, color))
    return tuple(named)


def _bend(layout: Layout, ends: tuple[End, ...]) -> int:
    """How far a one-cell pipe passes from its cell's centre: 0 straight through it, 1 a junction of three or more
    sides or a wide hex curve, 2 a curve between neighbouring sides."""
    if len(ends) != 2:
        return 1
    sides = layout.ruleset.geometry.sides
    apart = abs(sides.index(ends[0][1]) - sides.index(ends[1][1]))
    apart = min(apart, len(sides) - apart)
    return 0 if apart == len(sides) // 2 else 2 if apart == 1 else 1


def legend_entries(scene: Scene) -> tuple[LegendEntry, ...]:
    """What the legend explains: every entry for a layout (one legend serves all of a report's pictures, so it
    never changes; the diagonal tile where the layout has one), but on an empty board only what the board has,
    its pillars and blocked cells (QA: `boards ID` explained machines, pipes and reservoirs that were not
    there)."""
    if scene.machines or scene.pipes or scene.tanks:   # (the diagonal tile and the "+" only where one is: QA)
        shown = {"diagonal": bool(scene.diagonals), "bonus": any(m.bonus for m in scene.machines)}
        return tuple(entry for entry in LEGEND if shown.get(entry.key, True))
    present = {"pillar": bool(scene.board.pillars), "blocked": bool(scene.board.blocked)}
    return tuple(entry for entry in LEGEND if present.get(entry.key, False))


def tray_layout(ruleset: Ruleset, catalog: Catalog, machine_ids: Iterable[str]) -> Layout:
    """The machines side by side, unturned, a free cell around each: the tiles a puzzle hands the player, to
    draw beside its board (ports may face the tray's edge; it is a picture, never checked)."""
    geometry, shape = ruleset.geometry, ruleset.machine_shape
    anchor: Cell = (1, 1)   # (both geometries name their east side "E")
    placements, cells = [], set()
    for machine_id in machine_ids:
        footprint = shape.cells(geometry, anchor, 0)
        cells |= {c for cell in footprint for c in [cell, *(geometry.across(cell, s) for s in geometry.sides)]}
        placements.append(MachinePlacement(machine_id, anchor, geometry.rotation_values[0]))
        for _ in range(shape.cell_count + 1):
            anchor = geometry.across(anchor, "E")
    box = {(a, b) for a in range(max(c[0] for c in cells) + 1) for b in range(max(c[1] for c in cells) + 1)}
    board = Board("tray", geometry, frozenset(box), frozenset(), frozenset(), *geometry.extent(box))
    return Layout(ruleset, board, catalog, tuple(placements), ())


def board_scene(board: Board, colors: tuple[str, ...] = ()) -> Scene:
    """A scene with only the board: for drawing an empty board."""
    return Scene(board=board, colors=colors)


def _tank_openings(layout: Layout, cell: Cell, oriented_side: str | None, active: set[End]) -> tuple[str, ...]:
    """Sides a tank connects through: its one opening, or wherever an opening faces it."""
    if oriented_side is not None:
        return (oriented_side,)
    geometry = layout.ruleset.geometry
    return tuple(
        side for side in geometry.sides
        if (other := layout.board.neighbour(cell, side)) is not None and (other, geometry.opposite(side)) in active
    )


def _carried_colors(colors: tuple[str, ...], conn: Connectivity, node: tuple[str, int]) -> tuple[str, ...]:
    """A multi-colour port's colours as laid: the one its network carries where the network settles it (FN33's
    pink/yellow input joined to a pink supply is pink), all of them where it does not (QA pass 43: such ports
    were drawn in every colour they accept, whatever they were laid to drink or make)."""
    index = conn.network_of.get(node)
    carried = conn.networks[index].colors if index is not None else None
    if len(colors) > 1 and carried is not None and len(carried) == 1 and set(carried) <= set(colors):
        return tuple(carried)
    return colors


def layout_scene(layout: Layout, highlight_cells=()) -> Scene:
    """The scene of a layout, with network colours from the connection graph."""
    conn = connect(layout)
    order = layout.ruleset.all_colors

    def color_of(node: tuple[str, int]) -> str:
        index = conn.network_of.get(node)
        return network_color(None if index is None else conn.networks[index], order)

    machines = tuple(
        MachineView(i, m.id, layout.machine(i).display_name, layout.machine(i).income, tuple(layout.machine_footprint(m)),
                    layout.machine(i).bonus_supply)
        for i, m in enumerate(layout.machines)
    )
    ports = tuple(
        PortView(p.cell, p.side, p.spec.is_input, _carried_colors(p.spec.colors, conn, ("port", i)), p.spec.amount)
        for i, p in enumerate(layout.ports)
    )
    pipes = tuple(PipeView(p.ends, color_of(("pipe", i)), p.tile) for i, p in enumerate(layout.pipes))
    active = {(p.cell, p.side) for p in layout.ports} | {end for p in layout.pipes for end in p.ends}
    tanks = tuple(
        TankView(
            kind=t.kind, cell=t.cell,
            fill={"supply": t.color or "none", "output": "white", "end": "black"}[t.kind],
            network_color=color_of(("tank", i)),
            openings=_tank_openings(layout, t.cell, t.side, active),
        )
        for i, t in enumerate(layout.tiles) if t.kind in TANK_KINDS
    )
    diagonals = tuple(
        tuple(sorted({cell for pipe in layout.pipes if pipe.tile == i for cell, _ in pipe.ends}))
        for i, t in enumerate(layout.tiles) if t.kind == "diagonal"
    )
    return Scene(
        board=layout.board, colors=order, machines=machines, ports=ports, pipes=pipes, tanks=tanks,
        diagonals=diagonals,
        highlights=frozenset(tuple(c) for c in highlight_cells),
        named=named_feeds(layout, conn, order),
    )
