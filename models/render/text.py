"""Terminal drawings of boards and layouts (rich Text, in colour).

Every cell is a small block of characters: pipes run from the block's centre to
the sides they use, ports are coloured two-character chips on the side they sit
on, tanks are coloured labels. Square boards use 7x3 blocks in a grid; hex boards
use 9x3 blocks with even rows pushed half a block right (odd rows are shifted
half a hex left on the board). Only the block geometry differs between the two;
all drawing steps are shared.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text

from ..board import Board
from ..geometry import Cell
from ..layout import Layout
from .palette import HEX_TANK_LABELS, HIGHLIGHT_MARK, HIGHLIGHT_TERM, SHORT_NAMES, TERM_COLORS, TERM_LABELS, ink_for, legend_colours
from .scene import MachineView, PipeView, PortView, Scene, TankView, board_scene, layout_scene, legend_entries
from ..wording import ellipsized

Point = tuple[int, int]
Mark = tuple[int, int, str]

FLOOR = ("grey35", "grey39")          # checkerboard, so cells can be counted
MACHINE_TONES = ("grey82", "grey70", "navajo_white3")
PILLAR, BLOCKED = "▓", "░"
MARGIN = 4                            # row-number column
HEADER = 1                            # column-number line


@dataclass
class _Glyph:
    char: str = " "
    fg: str | None = None
    bg: str | None = None
    bold: bool = False


class _Canvas:
    """A grid of styled characters, turned into one rich Text at the end."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.grid = [[_Glyph() for _ in range(width)] for _ in range(height)]

    def put(self, x: int, y: int, char: str, fg: str | None = None, bg: str | None = None, bold: bool = False) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            glyph = self.grid[y][x]
            glyph.char, glyph.fg, glyph.bold = char, fg, bold
            if bg is not None:
                glyph.bg = bg

    def write(self, x: int, y: int, text: str, fg: str | None = None, bg: str | None = None, bold: bool = False) -> None:
        for i, char in enumerate(text):
            self.put(x + i, y, char, fg, bg, bold)

    def paint(self, x: int, y: int, width: int, height: int, bg: str) -> None:
        for row in range(y, y + height):
            for col in range(x, x + width):
                if 0 <= col < self.width and 0 <= row < self.height:
                    self.grid[row][col].bg = bg

    def to_text(self) -> Text:
        out = Text()
        for row in self.grid:
            while row and row[-1].char == " " and row[-1].bg is None:
                row = row[:-1]
            for glyph in row:
                out.append(glyph.char, Style(color=glyph.fg, bgcolor=glyph.bg, bold=glyph.bold))
            out.append("\n")
        return out


@dataclass(frozen=True)
class _BlockSpec:
    """Where things go inside one cell's block of characters."""

    width: int
    height: int
    centre: Point
    arms: dict[str, tuple[Mark, ...]]         # pipe from the centre to a side
    ports: dict[str, tuple[Point, Point]]     # (arrow, amount) positions of a port chip
    arrow_in: dict[str, str]                  # arrow pointing into the cell from that side
    junctions: dict[frozenset[str], str] = field(default_factory=dict)
    hugs: dict[frozenset[str], tuple[Mark, ...]] = field(default_factory=dict)
    default_junction: str = "●"
    # a port chip facing another machine's port across its side, moved this many columns (its two amounts
    # side by side read as one number)
    facing_shift: dict[str, int] = field(default_factory=dict)

    def arrow(self, side: str, is_input: bool) -> str:
        """Inputs point into the machine; outputs point out of it (the opposite arrow)."""
        if is_input:
            return self.arrow_in[side]
        opposite = {"→": "←", "←": "→", "↓": "↑", "↑": "↓", "↘": "↖", "↖": "↘", "↙": "↗", "↗": "↙"}
        return opposite[self.arrow_in[side]]

    def junction(self, sides: tuple[str, ...]) -> str:
        return self.junctions.get(frozenset(sides), self.default_junction)


def _sides(text: str) -> frozenset[str]:
    return frozenset(text.split())


SQUARE_BLOCK = _BlockSpec(
    width=7, height=3, centre=(3, 1),
    arms={"N": ((3, 0, "┃"),), "S": ((3, 2, "┃"),),
          "E": ((4, 1, "━"), (5, 1, "━"), (6, 1, "━")), "W": ((0, 1, "━"), (1, 1, "━"), (2, 1, "━"))},
    ports={"N": ((3, 0), (4, 0)), "S": ((3, 2), (4, 2)), "W": ((0, 1), (1, 1)), "E": ((6, 1), (5, 1))},
    arrow_in={"N": "↓", "S": "↑", "W": "→", "E": "←"},
    junctions={
        _sides("N S"): "┃", _sides("E W"): "━", _sides("N E"): "┗", _sides("N W"): "┛", _sides("S E"): "┏",
        _sides("S W"): "┓", _sides("N E S"): "┣", _sides("N S W"): "┫", _sides("E S W"): "┳",
        _sides("N E W"): "┻", _sides("N E S W"): "╋",
    },
    # a curve that shares its cell with the opposite curve hugs its corner, so the
    # two stay visibly apart instead of meeting in the centre
    hugs={
        _sides("N E"): ((3, 0, "┗"), (4, 0, "━"), (5, 0, "┓"), (5, 1, "┗"), (6, 1, "━")),
        _sides("S W"): ((3, 2, "┓"), (2, 2, "━"), (1, 2, "┗"), (1, 1, "┓"), (0, 1, "━")),
        _sides("N W"): ((3, 0, "┛"), (2, 0, "━"), (1, 0, "┏"), (1, 1, "┛"), (0, 1, "━")),
        _sides("S E"): ((3, 2, "┏"), (4, 2, "━"), (5, 2, "┛"), (5, 1, "┏"), (6, 1, "━")),
    },
)

HEX_BLOCK = _BlockSpec(
    width=9, height=3, centre=(4, 1),
    arms={"E": ((5, 1, "━"), (6, 1, "━"), (7, 1, "━"), (8, 1, "━")),
          "W": ((0, 1, "━"), (1, 1, "━"), (2, 1, "━"), (3, 1, "━")),
          "NE": ((5, 0, "╱"), (6, 0, "╱")), "NW": ((3, 0, "╲"), (2, 0, "╲")),
          "SE": ((5, 2, "╲"), (6, 2, "╲")), "SW": ((3, 2, "╱"), (2, 2, "╱"))},
    # (arrow, amount): west and east put the arrow next to the machine, so the amount never runs into the
    # id ("FN16←2", not "FN162←", which read as machine FN162)
    ports={"E": ((7, 1), (8, 1)), "W": ((1, 1), (0, 1)), "NE": ((6, 0), (5, 0)),
           "NW": ((2, 0), (3, 0)), "SE": ((6, 2), (5, 2)), "SW": ((2, 2), (3, 2))},
    arrow_in={"E": "←", "W": "→", "NE": "↙", "NW": "↘", "SE": "↖", "SW": "↗"},
    # a W chip fed port to port by the machine west of it (or feeding it) takes the blank column before the
    # id: "FN38→3 2←FN45", not "FN38→32← FN45" (QA: a feed of 2 into 2 read "→22→")
    facing_shift={"W": 1},
)


def _spec(board: Board) -> _BlockSpec:
    return HEX_BLOCK if board.geometry.name == "hex" else SQUARE_BLOCK


def _origin(board: Board, cell: Cell) -> Point:
    """Top-left character of a cell's block (hex: odd rows sit half a block left)."""
    spec = _spec(board)
    if board.geometry.name == "hex":
        q, r = cell
        return MARGIN + q * spec.width + (0 if r % 2 else spec.width // 2), HEADER + r * spec.height
    row, col = cell
    return MARGIN + col * spec.width, HEADER + row * spec.height


def _term(color: str) -> str:
    return TERM_COLORS.get(color, TERM_COLORS["none"])


# -- drawing steps, shared by both geometries ---------------------------------------
def _draw_floor(canvas: _Canvas, board: Board, occupied: set[Cell]) -> None:
    """Checkered floor, pillars, blocked cells; hex cells that hold nothing show q,r."""
    spec = _spec(board)
    for cell in sorted(board.all_drawn_cells()):
        x, y = _origin(board, cell)
        if cell in board.cells:
            canvas.paint(x, y, spec.width, spec.height, FLOOR[sum(cell) % 2])
            if board.geometry.name == "hex" and cell not in occupied:
                canvas.write(x + 3, y + 1, f"{cell[0]},{cell[1]}", fg="grey58")
            continue
        char, fg = (PILLAR, "grey66") if cell in board.pillars else (BLOCKED, "grey42")
        for row in range(spec.height):
            canvas.write(x, y + row, char * spec.width, fg=fg)


#: the hex drawing's key line, longest first: the first that fits the drawing's width is written
HEX_KEYS = ("q,r in each empty hex; row r at the left", "q,r in each empty hex", "q,r in each hex", "q,r")


def _draw_numbers(canvas: _Canvas, board: Board) -> None:
    """Row numbers at the left; square boards also get column numbers on top."""
    spec = _spec(board)
    for row in range(board.rows):
        canvas.write(0, HEADER + row * spec.height + spec.height // 2, f"{row:>2}", fg="grey70", bold=True)
    if board.geometry.name == "square":
        for col in range(board.cols):
            canvas.write(MARGIN + col * spec.width + spec.centre[0], 0, str(col), fg="grey70", bold=True)
    else:
        # (QA: a one-hex-wide board cut the line to "q,r in each empty hex;"): the longest that fits whole
        fits = [text for text in HEX_KEYS if len(text) <= canvas.width] or [HEX_KEYS[-1]]
        canvas.write(0, 0, fits[0], fg="grey58")


def _machine_tones(scene: Scene) -> dict[int, str]:
    """A background tone per machine, differing from any touching machine's tone."""
    at = scene.machine_at()
    tones: dict[int, str] = {}
    for machine in scene.machines:
        taken = {
            tones.get(at[other].index)
            for cell in machine.cells for side in scene.board.geometry.sides
            if (other := scene.board.geometry.across(cell, side)) in at and at[other].index != machine.index
        }
        tones[machine.index] = next((t for t in MACHINE_TONES if t not in taken), MACHINE_TONES[0])
    return tones


def _machine_label(canvas: _Canvas, board: Board, machine: MachineView, bg: str) -> None:
    """Id and income in the part of the machine that no port can use."""
    spec = _spec(board)
    origins = [_origin(board, cell) for cell in machine.cells]
    x0, y0 = min(o[0] for o in origins), min(o[1] for o in origins)
    # (a custom catalogue's id longer than the block is cut with an ellipsis: QA saw one run into the next cell)
    label, income = machine.label, f"({machine.income})"
    if len(machine.cells) == 1:
        canvas.write(x0 + 2, y0 + 1, ellipsized(label, 5).center(5), fg="black", bg=bg, bold=True)
    elif len({o[1] for o in origins}) == 1:      # side by side: the middle row across the seam
        # between the W and E ports' glyphs; a space on each side keeps them off the text, so a two-digit
        # income goes without the space before it ("→2FF15 (10) 1→" ran the id into the port's amount)
        room = 2 * spec.width - 4
        label = ellipsized(label, room - len(income))
        text = f"{label} {income}" if len(label) + len(income) + 3 <= room else f"{label}{income}"
        canvas.write(x0 + 2, y0 + 1, text.center(room), fg="black", bg=bg, bold=True)
    else:                                        # stacked: the two rows at the seam
        canvas.write(x0, y0 + spec.height - 1, ellipsized(label, spec.width).center(spec.width), fg="black", bg=bg,
                     bold=True)
        canvas.write(x0, y0 + spec.height, income.center(spec.width), fg="black", bg=bg)


def _draw_machines(canvas: _Canvas, scene: Scene) -> None:
    spec, tones = _spec(scene.board), _machine_tones(scene)
    for machine in scene.machines:
        for cell in machine.cells:
            x, y = _origin(scene.board, cell)
            canvas.paint(x, y, spec.width, spec.height, tones[machine.index])
            canvas.write(x, y + spec.centre[1], " " * spec.width)
        _machine_label(canvas, scene.board, machine, tones[machine.index])


def _draw_marks(canvas: _Canvas, origin: Point, marks: tuple[Mark, ...], fg: str) -> None:
    for dx, dy, char in marks:
        canvas.put(origin[0] + dx, origin[1] + dy, char, fg=fg, bold=True)


def _draw_cell_pipes(canvas: _Canvas, board: Board, cell: Cell, pipes: list[PipeView]) -> None:
    """Arms from the centre; two curves in one cell hug their corners instead."""
    spec, origin = _spec(board), _origin(board, cell)
    two_curves = len(pipes) == 2 and all(frozenset(s for _, s in p.ends) in spec.hugs for p in pipes)
    for pipe in pipes:
        sides = tuple(side for _, side in pipe.ends)
        fg = _term(pipe.color)
        if two_curves:
            _draw_marks(canvas, origin, spec.hugs[frozenset(sides)], fg)
            continue
        for side in sides:
            _draw_marks(canvas, origin, spec.arms[side], fg)
        if board.geometry.name == "square" or len(pipes) == 1:
            canvas.put(origin[0] + spec.centre[0], origin[1] + spec.centre[1], spec.junction(sides), fg=fg, bold=True)
        else:
            canvas.put(origin[0] + spec.centre[0], origin[1] + spec.centre[1], "╳", fg="white", bold=True)


def _end_point(board: Board, cell: Cell, side: str) -> Point:
    """Canvas position of the pipe arm character that touches a side."""
    spec, (x, y) = _spec(board), _origin(board, cell)
    cx, cy = spec.centre
    dx, dy, _ = max(spec.arms[side], key=lambda mark: abs(mark[0] - cx) + abs(mark[1] - cy))
    return x + dx, y + dy


def _draw_diagonal_pipe(canvas: _Canvas, board: Board, pipe: PipeView, taken: dict[Point, str]) -> None:
    """A pipe across a domino: one slanted character per text row, '╳' where two meet."""
    (x0, y0), (x1, y1) = (_end_point(board, c, s) for c, s in pipe.ends)
    if y0 > y1:
        (x0, y0), (x1, y1) = (x1, y1), (x0, y0)
    slant = "╲" if x1 > x0 else "╱"
    fg = _term(pipe.color)
    for y in range(y0, y1 + 1):
        x = round(x0 + (x1 - x0) * (y - y0) / max(1, y1 - y0) - 0.01)
        char = "╳" if (x, y) in taken else slant
        canvas.put(x, y, char, fg="white" if char == "╳" else fg, bold=True)
        taken[(x, y)] = slant


def _draw_pipes(canvas: _Canvas, scene: Scene) -> None:
    for cell, pipes in scene.pipes_at().items():
        _draw_cell_pipes(canvas, scene.board, cell, pipes)
    taken: dict[Point, str] = {}
    for pipe in scene.pipes:
        if len({cell for cell, _ in pipe.ends}) > 1:
            _draw_diagonal_pipe(canvas, scene.board, pipe, taken)


def _draw_tank(canvas: _Canvas, board: Board, tank: TankView) -> None:
    """A coloured label in the centre and arms to the sides it connects through."""
    spec, origin = _spec(board), _origin(board, tank.cell)
    arm_color = tank.fill if tank.kind == "supply" else tank.network_color if tank.kind == "output" else "black"
    for side in tank.openings:
        _draw_marks(canvas, origin, spec.arms[side], _term(arm_color))
    label = {"supply": SHORT_NAMES.get(tank.fill, "SUP"), "output": "OUT", "end": "END"}[tank.kind]
    cx, cy = origin[0] + spec.centre[0], origin[1] + spec.centre[1]
    canvas.write(cx - 2, cy, f" {label} ", fg=ink_for(tank.fill), bg=_term(tank.fill), bold=True)


def _draw_port(canvas: _Canvas, board: Board, port: PortView, facing: bool = False) -> None:
    """A two-character chip in the port colour: direction arrow and amount; `facing` another machine's port
    across its side, moved by the block's `facing_shift`."""
    spec, (x, y) = _spec(board), _origin(board, port.cell)
    x += spec.facing_shift.get(port.side, 0) if facing else 0
    (ax, ay), (nx, ny) = spec.ports[port.side]
    first, last = port.colors[0], port.colors[-1]
    canvas.put(x + ax, y + ay, spec.arrow(port.side, port.is_input), fg=ink_for(first), bg=_term(first), bold=True)
    amount = "•" if port.amount is None else str(port.amount)
    canvas.put(x + nx, y + ny, amount, fg=ink_for(last), bg=_term(last), bold=True)


def _draw_highlights(canvas: _Canvas, scene: Scene) -> None:
    """A frame of red dots on the blank edge of each highlighted block, as the SVG's dashed outline: pipes,
    chips and labels stay as they are. (A red background hid red ports and pipes beside it: QA; dots read
    apart from any solid chip and from the blocked cells' shading.)"""
    spec, plain = _spec(scene.board), set(FLOOR) | set(MACHINE_TONES)
    marked = set(scene.highlights)
    for cell in scene.highlights:
        x, y = _origin(scene.board, cell)
        inside = {side for side in scene.board.geometry.sides if scene.board.neighbour(cell, side) in marked}
        rows = {y: "N" not in inside and not {"NW", "NE"} <= inside,
                y + spec.height - 1: "S" not in inside and not {"SW", "SE"} <= inside}
        cols = {x: "W" not in inside, x + spec.width - 1: "E" not in inside}
        for row in range(y, y + spec.height):
            for col in range(x, x + spec.width):
                glyph = canvas.grid[row][col]
                edge = rows.get(row, False) or cols.get(col, False)   # (an edge shared with a marked cell: none)
                if edge and glyph.char == " " and (glyph.bg is None or glyph.bg in plain):
                    glyph.char, glyph.fg, glyph.bold = HIGHLIGHT_MARK, HIGHLIGHT_TERM, True


def _legend(scene: Scene) -> Text:
    """The scene's legend entries (`legend_entries`) with a terminal sample for each."""
    sq = scene.board.geometry.name == "square"
    tint = legend_colours(scene.colors)
    first = scene.machines[0] if scene.machines else None   # (the game's own ids: FF39 meant nothing to others)
    shown = ellipsized(first.id, 7) if first else "M1"   # (as the drawing shows it)
    machine = (f" {shown} ({first.income if first else 9}) " if sq else f" {shown} ")
    plus = next((m.label for m in scene.machines if m.bonus), "M1+")
    samples: dict[str, Text] = {
        "machine": Text(machine, Style(color="black", bgcolor=MACHINE_TONES[0], bold=True)),
        "bonus": Text(f" {ellipsized(plus, 7)} ", Style(color="black", bgcolor=MACHINE_TONES[0], bold=True)),
        "input": Text("↓2" if sq else "↘2", Style(color=ink_for(tint["input"]), bgcolor=_term(tint["input"]), bold=True)),
        "output": Text("↑1" if sq else "↗1", Style(color=ink_for(tint["output"]), bgcolor=_term(tint["output"]), bold=True)),
        "pipe": Text("━━┓" if sq else "━●╲", Style(color=_term(tint["pipe"]), bgcolor=FLOOR[0], bold=True)),
        "supply": Text(f" {SHORT_NAMES.get(tint['supply'], '???')} ",
                       Style(color=ink_for(tint["supply"]), bgcolor=_term(tint["supply"]), bold=True)),
        "reservoir": Text(" OUT ", Style(color="black", bgcolor=_term("white"), bold=True)),
        "end": Text(" END ", Style(color="white", bgcolor=_term("black"), bold=True)),
        "diagonal": Text("╲╳╱", Style(color=_term(tint["pipe"]), bgcolor=FLOOR[0], bold=True)),
        "pillar": Text(PILLAR * 3, Style(color="grey66")),
        "blocked": Text(BLOCKED * 3, Style(color="grey42")),
        "highlight": Text(HIGHLIGHT_MARK * 3, Style(color=HIGHLIGHT_TERM, bold=True)),
    }
    out = Text()
    out.append("Legend\n", Style(bold=True))
    # a terminal cell has room for less than the SVG's machine (income circled, name): say what it shows
    shown = {"machine": "machine: id (income)" if sq else "machine: id (the SVG adds income and name)",
             "bonus": "+ after the id: one more supply container allowed, of its bonus colour (see catalog)",
             **TERM_LABELS,
             **({} if sq else HEX_TANK_LABELS)}
    column = max(11, max(sample.cell_len for sample in samples.values()) + 1)   # (a "FF48 (10)" sample is wider)
    for entry in legend_entries(scene):
        sample = samples[entry.key]
        out.append("  ")
        out.append_text(sample)
        out.append(" " * (column - sample.cell_len) + shown.get(entry.key, entry.label) + "\n")
    if scene.colors:
        out.append("  colours: ")
        for color in scene.colors:
            out.append(f" {color} ", Style(color=ink_for(color), bgcolor=_term(color), bold=True))
            out.append(" ")
        out.append("\n")
    return out


def _occupied(scene: Scene) -> set[Cell]:
    cells = {cell for machine in scene.machines for cell in machine.cells}
    cells |= {tank.cell for tank in scene.tanks}
    return cells | {cell for pipe in scene.pipes for cell, _ in pipe.ends}


def draw_scene(scene: Scene) -> Text:
    """Draw a prepared scene; draw_board and draw_layout only build the scene."""
    spec, board = _spec(scene.board), scene.board
    canvas = _Canvas(MARGIN + (board.cols + 1) * spec.width, HEADER + board.rows * spec.height)
    _draw_floor(canvas, board, _occupied(scene))
    _draw_numbers(canvas, board)
    _draw_machines(canvas, scene)
    for tank in scene.tanks:
        _draw_tank(canvas, board, tank)
    _draw_pipes(canvas, scene)
    geometry = board.geometry
    sides = {(port.cell, port.side) for port in scene.ports}
    for port in scene.ports:
        _draw_port(canvas, board, port,
                   facing=(board.neighbour(port.cell, port.side), geometry.opposite(port.side)) in sides)
    _draw_highlights(canvas, scene)
    text = Text()
    text.append(f"{board.id}\n", Style(bold=True))
    text.append_text(canvas.to_text())
    text.append_text(_legend(scene))
    return text


def draw_board(board: Board, colors: tuple[str, ...]) -> Text:
    """The empty board: playable cells, blocked cells, pillars, row/column numbers; the legend in the
    ruleset's `colors`."""
    return draw_scene(board_scene(board, colors))


def draw_layout(layout: Layout, highlight_cells=()) -> Text:
    """A layout with machines, ports, pipes in their network colours and tanks;
    `highlight_cells` (e.g. the cells of rule violations) get a red background."""
    return draw_scene(layout_scene(layout, highlight_cells))


def print_layout(console, layout: Layout, highlight_cells=()) -> None:
    """Draw `layout` on a rich `console`; where it shows no colours (a file, a pipe, NO_COLOR) say so, since
    the drawing tells networks and ports apart by colour (QA: a red container feeding a green input read as
    legal in a file)."""
    # soft wrap: a drawing wider than the console (a file, a pipe: 80 columns) keeps its lines whole (QA: a
    # 40 x 40 board piped to `cat` was cut every 120 columns, its column header over three lines)
    console.print(draw_layout(layout, highlight_cells=highlight_cells), soft_wrap=True)
    if console.no_color or console.color_system is None:
        console.print("(no colours in this output: networks and ports differ only by colour; --svg draws them)")

