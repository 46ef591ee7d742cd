"""Standalone SVG pictures of boards and layouts (no external assets, no script).

Everything is drawn through a small plot object that knows where a cell's centre
is and at which angle each of its sides lies. Square and hex boards differ only
in that object (and in the machine's outline: a domino or a hexagon); pipes,
ports, tanks, highlights, the outline and the legend are the same code.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from ..board import Board
from ..geometry import Cell
from ..layout import Layout
from .palette import HEX_TANK_LABELS, HIGHLIGHT_SVG, SHORT_NAMES, SVG_COLORS, SVG_LABELS, ink_for, legend_colours
from .scene import MachineView, PipeView, PortView, Scene, TankView, board_scene, layout_scene, legend_entries
from ..wording import ellipsized

Point = tuple[float, float]

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
FLOOR = ("#efe7d6", "#e6dcc7")
OUTLINE = "#5a4a32"
PIPE_EDGE = "#262626"
LEGEND_WIDTH = 400
#: the legend's words: their size, and where they start right of the samples
LEGEND_SIZE, LEGEND_TEXT = 11, 62
TOP = 64          # title and column numbers
LEFT = 40         # row numbers
#: the title's font size
TITLE_SIZE = 18
#: a title's lines: their spacing, and the picture width they may fill before they wrap (a small board's
#: picture would wrap a plain title)
TITLE_LEADING, TITLE_WIDTH = 24, 720
#: bold letters' width against the oblique ones `name_ems` measures (DejaVu Sans: about 1.1)
BOLD = 1.12
#: a tank's colour letters: against the cell's apothem ("GRN" in bold fits the barrel's 0.9 with a margin),
#: and at most this size in px (a hex's wider barrel would be filled edge to edge)
TANK_LETTERS, TANK_LETTERS_MAX = 0.3, 11.0


def _color(name: str) -> str:
    return SVG_COLORS.get(name, SVG_COLORS["none"])


def _attrs(attrs: dict[str, object]) -> str:
    return "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}" for k, v in attrs.items() if v is not None)


def svg_element(tag: str, content: str | None = None, **attrs: object) -> str:
    """One SVG element; `font_size=12` is written font-size="12", a None attribute is left out. Shared by every
    picture of the project (the Robofacture spaces too)."""
    if content is None:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{content}</{tag}>"


def svg_text(x: float, y: float, text: str, size: float, fill: str = "#222", weight: str = "normal", anchor: str = "middle",
             markup: str = "", **attrs: object) -> str:
    """A text element: `text` escaped, then `markup` as written (a <tspan> of another colour, say)."""
    return svg_element("text", escape(text) + markup, x=f"{x:.1f}", y=f"{y:.1f}", font_size=size, font_weight=weight,
               fill=fill, text_anchor=anchor, dominant_baseline="central", font_family=FONT, **attrs)


def _points(points: list[Point]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


# -- plots: where cells and sides are -------------------------------------------------
@dataclass(frozen=True)
class _Plot:
    """Cell centres and side angles of one board; everything else derives from them."""

    board: Board
    radius: float            # centre to corner
    angles: dict[str, float]  # side -> angle of its outward normal, degrees, y down
    origin: Point

    @property
    def apothem(self) -> float:
        return self.radius * math.cos(math.pi / len(self.angles))

    def centre(self, cell: Cell) -> Point:
        raise NotImplementedError

    def side_mid(self, cell: Cell, side: str) -> Point:
        cx, cy = self.centre(cell)
        a = math.radians(self.angles[side])
        return cx + self.apothem * math.cos(a), cy + self.apothem * math.sin(a)

    def side_ends(self, cell: Cell, side: str) -> tuple[Point, Point]:
        cx, cy = self.centre(cell)
        half = math.pi / len(self.angles)
        a = math.radians(self.angles[side])
        return tuple((cx + self.radius * math.cos(a + d), cy + self.radius * math.sin(a + d)) for d in (-half, half))  # type: ignore[return-value]

    def polygon(self, cell: Cell, scale: float = 1.0) -> list[Point]:
        cx, cy = self.centre(cell)
        out = []
        for side in self.board.geometry.sides:
            (x, y), _ = self.side_ends(cell, side)
            out.append((cx + (x - cx) * scale, cy + (y - cy) * scale))
        return out

    def size(self) -> Point:
        xs = [p[0] for c in self.board.all_drawn_cells() for p in self.polygon(c)]
        ys = [p[1] for c in self.board.all_drawn_cells() for p in self.polygon(c)]
        return max(xs), max(ys)


class _SquarePlot(_Plot):
    def centre(self, cell: Cell) -> Point:
        side = 2 * self.apothem
        return self.origin[0] + (cell[1] + 0.5) * side, self.origin[1] + (cell[0] + 0.5) * side


class _HexPlot(_Plot):
    def centre(self, cell: Cell) -> Point:
        q, r = cell
        width = math.sqrt(3) * self.radius
        return self.origin[0] + width * (q - 0.5 * (r % 2) + 1), self.origin[1] + self.radius * (1.5 * r + 1)


def _plot(board: Board) -> _Plot:
    if board.geometry.name == "hex":
        return _HexPlot(board, 46.0, {"E": 0, "SE": 60, "SW": 120, "W": 180, "NW": 240, "NE": 300}, (LEFT, TOP))
    return _SquarePlot(board, 36.0 * math.sqrt(2), {"N": 270, "E": 0, "S": 90, "W": 180}, (LEFT, TOP))


# -- board --------------------------------------------------------------------------
def _defs() -> str:
    hatch = svg_element("pattern", svg_element("rect", width=8, height=8, fill="#d9d9d9") + svg_element("path", d="M0,8 L8,0", stroke="#a8a8a8", stroke_width=2),
                id="ff-hatch", width=8, height=8, patternUnits="userSpaceOnUse", patternTransform="rotate(0)")
    return svg_element("defs", hatch)


def _board_layer(plot: _Plot, labelled: frozenset[Cell] | set[Cell]) -> str:
    """The floor; a hex cell in `labelled` shows its q,r (the empty ones: QA saw labels peek out from under
    tanks and pipes)."""
    board, parts = plot.board, []
    for cell in sorted(board.all_drawn_cells()):
        poly = _points(plot.polygon(cell))
        if cell in board.blocked:
            parts.append(svg_element("polygon", points=poly, fill="url(#ff-hatch)", stroke="#bbbbbb", class_="blocked"))
        elif cell in board.pillars:
            cx, cy = plot.centre(cell)
            parts.append(svg_element("polygon", points=poly, fill="#8c8c8c", stroke="#666", class_="pillar"))
            parts.append(svg_element("circle", cx=f"{cx:.1f}", cy=f"{cy:.1f}", r=f"{plot.apothem * 0.55:.1f}", fill="#6b6b6b", stroke="#4d4d4d", stroke_width=3))
        else:
            parts.append(svg_element("polygon", points=poly, fill=FLOOR[sum(cell) % 2], stroke="#cbbf9f", stroke_width=1, class_="cell"))
            if board.geometry.name == "hex" and cell in labelled:
                cx, cy = plot.centre(cell)
                parts.append(svg_text(cx, cy + plot.apothem * 0.62, f"{cell[0]},{cell[1]}", 8, fill="#a39880"))
    return svg_element("g", "".join(parts), class_="board") + _outline(plot)


def _outline(plot: _Plot) -> str:
    """A thick line on every side of the board's shape (playable cells and pillars)."""
    inside = plot.board.cells | plot.board.pillars
    segments = [
        plot.side_ends(cell, side) for cell in inside for side in plot.board.geometry.sides
        if plot.board.geometry.across(cell, side) not in inside
    ]
    d = " ".join(f"M{a[0]:.1f},{a[1]:.1f} L{b[0]:.1f},{b[1]:.1f}" for a, b in segments)
    return svg_element("path", d=d, stroke=OUTLINE, stroke_width=4, stroke_linecap="round", fill="none", class_="outline")


def _numbers(plot: _Plot) -> str:
    board, parts = plot.board, []
    for row in range(board.rows):
        cell = (0, row) if board.geometry.name == "hex" else (row, 0)
        parts.append(svg_text(LEFT / 2, plot.centre(cell)[1], str(row), 13, fill="#555", weight="bold"))
    if board.geometry.name == "square":
        for col in range(board.cols):
            parts.append(svg_text(plot.centre((0, col))[0], TOP - 12, str(col), 13, fill="#555", weight="bold"))
    return svg_element("g", "".join(parts), class_="numbers")


# -- pipes ----------------------------------------------------------------------------
def _pipe_path(plot: _Plot, pipe: PipeView) -> str:
    """Curves and straights bend through the cell centre; splitters are spokes from it;
    a pipe across two cells (the diagonal tile) is an S-curve through both centres."""
    mids = [plot.side_mid(cell, side) for cell, side in pipe.ends]
    cells = [cell for cell, _ in pipe.ends]
    f = lambda p: f"{p[0]:.1f},{p[1]:.1f}"  # noqa: E731
    if len(set(cells)) > 1:
        (a, b), (ca, cb) = mids, (plot.centre(cells[0]), plot.centre(cells[1]))
        return f"M{f(a)} C{f(ca)} {f(cb)} {f(b)}"
    centre = plot.centre(cells[0])
    if len(mids) == 2:
        return f"M{f(mids[0])} Q{f(centre)} {f(mids[1])}"
    return " ".join(f"M{f(centre)} L{f(m)}" for m in mids)


def _stroke_pair(d: str, color: str, width: float = 7.0, **attrs: object) -> str:
    """A coloured stroke over a darker, wider one: visible on any floor, and where a
    second pipe crosses, its dark edge cuts the first one like a bridge."""
    return (svg_element("path", d=d, stroke=PIPE_EDGE, stroke_width=width + 4, fill="none", stroke_linecap="butt", **attrs)
            + svg_element("path", d=d, stroke=_color(color), stroke_width=width, fill="none", stroke_linecap="butt",
                  class_="pipe-stroke", **attrs))


def _pipe(plot: _Plot, pipe: PipeView) -> str:
    body = _stroke_pair(_pipe_path(plot, pipe), pipe.color, stroke_linejoin="round")
    if len(pipe.ends) > 2 and len({c for c, _ in pipe.ends}) == 1:
        cx, cy = plot.centre(pipe.ends[0][0])
        body += svg_element("circle", cx=f"{cx:.1f}", cy=f"{cy:.1f}", r=6, fill=_color(pipe.color), stroke=PIPE_EDGE, stroke_width=1.5)
    return svg_element("g", body, class_="pipe", data_color=pipe.color)


#: a feed's name on its pipe: letters this high, on a pale tag this much wider and higher than they are
FEED_LETTERS, FEED_TAG = 9.0, (6.0, 4.0)


def _feed_name(plot: _Plot, cell: Cell, color: str) -> str:
    """The feed's colour letters on a pale tag over its pipe (`named_feeds`)."""
    return _feed_tag(*plot.centre(cell), color)


def _feed_tag(x: float, y: float, color: str) -> str:
    """A pale tag rimmed in `color`, its letters on it."""
    width, height = 3 * FEED_LETTERS * 0.72 + FEED_TAG[0], FEED_LETTERS + FEED_TAG[1]
    tag = svg_element("rect", x=f"{x - width / 2:.1f}", y=f"{y - height / 2:.1f}", width=f"{width:.1f}", height=f"{height:.1f}",
                      rx=3, fill="#fdfdf8", stroke=_color(color), stroke_width=1.5)
    return svg_element("g", tag + svg_text(x, y, SHORT_NAMES[color], FEED_LETTERS, weight="bold"), class_="feed-name",
                       data_color=color)


def _diagonal_tile(plot: _Plot, cells: tuple[Cell, ...]) -> str:
    """The diagonal tile's own outline, so its two pipes read as one domino tile."""
    return svg_element("g", _rounded_box(plot, cells, inset=3, fill="#d7cdb6", stroke="#9c8f70"), class_="diagonal-tile")


# -- tanks ----------------------------------------------------------------------------
def _barrel(x: float, y: float, size: float, fill: str, ring: str) -> str:
    """A cylinder seen from the front: the shape of the game's containers."""
    w, h, e = size * 0.9, size * 1.05, size * 0.16
    top, bottom = y - h / 2 + e, y + h / 2 - e
    body = (f"M{x - w / 2:.1f},{top:.1f} L{x - w / 2:.1f},{bottom:.1f} A{w / 2:.1f},{e:.1f} 0 0 0 {x + w / 2:.1f},{bottom:.1f} "
            f"L{x + w / 2:.1f},{top:.1f} A{w / 2:.1f},{e:.1f} 0 0 0 {x - w / 2:.1f},{top:.1f} Z")
    return (svg_element("path", d=body, fill=fill, stroke=ring, stroke_width=3)
            + svg_element("ellipse", cx=f"{x:.1f}", cy=f"{top:.1f}", rx=f"{w / 2:.1f}", ry=f"{e:.1f}", fill=fill, stroke=ring, stroke_width=2))


def _tank(plot: _Plot, tank: TankView) -> str:
    cx, cy = plot.centre(tank.cell)
    stub_color = tank.fill if tank.kind == "supply" else tank.network_color if tank.kind == "output" else "black"
    stubs = "".join(
        _stroke_pair(f"M{cx:.1f},{cy:.1f} L{mx:.1f},{my:.1f}", stub_color)
        for mx, my in (plot.side_mid(tank.cell, side) for side in tank.openings)
    )
    ring = _color(tank.network_color) if tank.kind == "output" and tank.network_color not in ("none", "mixed") else "#333"
    if tank.kind == "end":
        ring = "#777"
    body = _barrel(cx, cy, plot.apothem, _color(tank.fill), ring) + _tank_letters(cx, cy, plot.apothem, tank)
    return svg_element("g", stubs + body, class_=f"tank {tank.kind}", data_color=tank.fill)


def _tank_letters(x: float, y: float, size: float, tank: TankView) -> str:
    """The colour's three letters on the barrel's front (the terminal's "RED", "GRN"), so a reader who does
    not tell red from green or brown still reads each network (QA: colours alone told them apart). A supply
    container is lettered with its colour, an output reservoir with its network's; an end-product reservoir
    is black whatever it takes, so it is not lettered."""
    color = tank.fill if tank.kind == "supply" else tank.network_color if tank.kind == "output" else None
    if color not in SHORT_NAMES or color in ("none", "mixed"):
        return ""
    ink = ink_for(tank.fill) if tank.kind == "supply" else "#222"
    font = round(min(size * TANK_LETTERS, TANK_LETTERS_MAX), 1)
    return svg_text(x, y + size * 0.08, SHORT_NAMES[color], font, fill=ink, weight="bold", class_="tank-letters")


# -- machines -------------------------------------------------------------------------
def _rounded_box(plot: _Plot, cells: tuple[Cell, ...], inset: float, **attrs: object) -> str:
    """A domino's rounded rectangle, or a one-cell machine's shrunken polygon."""
    if len(cells) == 1:
        scale = 1 - inset / plot.apothem
        return svg_element("polygon", points=_points(plot.polygon(cells[0], scale)), stroke_width=2, stroke_linejoin="round", **attrs)
    xs = [p[0] for c in cells for p in plot.polygon(c)]
    ys = [p[1] for c in cells for p in plot.polygon(c)]
    return svg_element("rect", x=f"{min(xs) + inset:.1f}", y=f"{min(ys) + inset:.1f}", width=f"{max(xs) - min(xs) - 2 * inset:.1f}",
               height=f"{max(ys) - min(ys) - 2 * inset:.1f}", rx=12, stroke_width=2, **attrs)


def _wrap(text: str, width: int) -> list[str]:
    """`text` in lines of `width` characters, words kept whole; past two lines the second ends in an
    ellipsis (QA: a machine name's "An Extremely", cut silently)."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > 2:
        lines[1] = lines[1][:max(1, width - 1)] + "…"
    return lines[:2] or [""]


#: a machine's name: font size, the smallest it may shrink to, and a character's width as a share of the size
#: (italic sans, measured on DejaVu: 5.4 px at 9 px)
NAME_SIZE, NAME_SMALLEST, NAME_CHAR = 9.0, 6.0, 0.6
#: a machine id's font size and its bold characters' width per point; the room a corner's income badge takes
ID_SIZE, ID_CHAR, BADGE_ROOM = 14, 0.7, 26.0
#: the smallest a machine id shrinks to where its room is narrow, and the room it keeps clear of chips there
ID_SMALLEST, ID_CLEAR = 10.0, 2.0
#: a domino's name line: its narrow side less this (the box's inset, 4 px a side, and 2 px inside it)
NAME_MARGIN = 12.0
#: room a W or E port chip takes from a hex machine's name line (the chip is 20 px wide, inside the side)
HEX_CHIP_ROOM = 22.0


def _fitted_name(name: str, width: float) -> tuple[list[str], float]:
    """The name's lines and font size so every line fits `width` px: wrapped at the full size, shrunk down to
    NAME_SMALLEST, and only then cut with an ellipsis (the machine's <title> keeps the whole name). A hex cell
    beside W and E chips has room for a few characters: QA saw 'Solidificator' drawn under both chips."""
    lines = _wrap(name, max(1, int(width / (NAME_CHAR * NAME_SIZE))))
    size = max(NAME_SMALLEST, min(NAME_SIZE, width / max(0.1, *(name_ems(line) for line in lines))))
    return [_cut_to(line, width / size) for line in lines], size


def name_ems(text: str) -> float:
    """The width of a name line in ems, by DejaVu Sans Oblique's wide, narrow and capital letters (a flat 0.6 em
    a character drew "Miniboom-101" about 65 px wide where 60 were reckoned: QA saw it over the box's border)."""
    return sum(0.98 if c in "mwMW" else 0.36 if c in " iljtfr.,:;'!|()[]-" else 0.7 if c.isupper() or c.isdigit()
               else 0.6 for c in text)


def _cut_to(line: str, ems: float) -> str:
    """The line, or as much of it as fits `ems` with an ellipsis."""
    if name_ems(line) <= ems:
        return line
    keep = len(line) - 1
    while keep > 1 and name_ems(line[:keep] + "\u2026") > ems:
        keep -= 1
    return line[:keep] + "\u2026"


#: the income badge: white inside a gold ring, a colour no port has (a gold disc read as a yellow port in Funner
#: and the 1st edition, whose products include yellow: QA)
BADGE_FILL, BADGE_RING = "#ffffff", "#c99a00"


#: a crowded hex's small badge: its radius for one digit and for two (QA: FN16's "11" overflowed a ring of 7)
SMALL_BADGE = (7.0, 8.5)


def _bonus_plus(color: str) -> str:
    """A bonus machine's "+", inside its id's text: the bonus colour, or dark for "any"; rimmed, so a yellow one
    shows on white."""
    fill = "#222" if color == "any" else _color(color)
    return svg_element("tspan", "+", fill=fill, stroke="#111", stroke_width=0.8, class_="bonus")


def _income_badge(x: float, y: float, income: int, radius: float = 11) -> str:
    return (svg_element("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r=f"{radius:g}", fill=BADGE_FILL, stroke=BADGE_RING,
                stroke_width=2.5 if radius >= 11 else 2, class_="income")
            + svg_text(x, y, str(income), 12 if radius >= 11 else 9 if income < 10 else 8.5, fill="#222", weight="bold"))


def _port(plot: _Plot, port: PortView) -> str:
    """An arrow-shaped chip just inside the machine's side: colour, amount, and a tip
    pointing along the flow. Staying inside keeps two ports that face each other
    across a side (machine to machine) both visible."""
    x, y = plot.side_mid(port.cell, port.side)
    if port.is_input:   # body on the edge, tip pointing into the machine
        shape, label_u = [(0, -10), (0, 10), (-12, 10), (-19, 0), (-12, -10)], -7.0
    else:               # tip on the edge, pointing out
        shape, label_u = [(-20, -10), (-7, -10), (0, 0), (-7, 10), (-20, 10)], -12.0
    angle = plot.angles[port.side]
    stripes = ""
    if len(port.colors) > 1:  # a multi-colour port: one band per colour it accepts, on the chip's body (an
        # input's tip stays its arrow: QA saw bands over it make the chip a square block), under its outline
        step, left = 20 / len(port.colors), -11 if port.is_input else -19
        stripes = "".join(svg_element("rect", x=left, y=f"{-10 + i * step:.1f}", width=11, height=f"{step:.1f}", fill=_color(c))
                          for i, c in enumerate(port.colors))
        stripes += svg_element("polygon", points=_points(shape), fill="none", stroke="#111", stroke_width=1.2)
    chip = svg_element("g", svg_element("polygon", points=_points(shape), fill=_color(port.colors[0]), stroke="#111", stroke_width=1.2) + stripes,
               transform=f"translate({x:.1f},{y:.1f}) rotate({angle})")
    a = math.radians(angle)
    lx, ly = x + label_u * math.cos(a), y + label_u * math.sin(a)
    label = "" if port.amount is None else svg_text(lx, ly, str(port.amount), 12, fill=ink_for(port.colors[0]), weight="bold")
    kind = "input" if port.is_input else "output"
    return svg_element("g", chip + label, class_=f"port {kind}", data_color="/".join(port.colors))


#: an income badge this far from a port chip's middle clears it (badge radius 11, a chip 20 x 20)
BADGE_CLEAR = 24.0


#: a hex machine's small badge sits this far (times the radius) from its centre towards a vertex (the one
#: farthest from its chips): chips reach 10 px either way of their sides' middles, so the corners stay free
HEX_CORNER = 0.72


#: ... or this far inside the middle of a side with no chip
HEX_SIDE_INSET = 13.0


def _inside(plot: _Plot, cell: Cell, side: str, inset: float) -> Point:
    """The point `inset` px inside the middle of the cell's `side`."""
    (x, y), a = plot.side_mid(cell, side), math.radians(plot.angles[side])
    return x - inset * math.cos(a), y - inset * math.sin(a)


def _distances(plot: _Plot, spots: list[Point], ports: list[PortView]) -> list[list[float]]:
    """How far each spot lies from the middles of the port chips, nearest first (a chip's middle is about 10 px
    inside its side); [inf] without ports."""
    chips = [_inside(plot, p.cell, p.side, 10) for p in ports]
    return [sorted(math.dist(s, c) for c in chips) or [math.inf] for s in spots]


def _clearances(plot: _Plot, spots: list[Point], ports: list[PortView]) -> list[float]:
    """How far each spot lies from the nearest port chip: a fixed corner put the income badge over a port (QA:
    FN16's 11 over its yellow output, FA39's 9 over its red input)."""
    return [near[0] for near in _distances(plot, spots, ports)]


def _machine(plot: _Plot, machine: MachineView, ports: list[PortView]) -> str:
    xs = [p[0] for c in machine.cells for p in plot.polygon(c)]
    ys = [p[1] for c in machine.cells for p in plot.polygon(c)]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    box = _rounded_box(plot, machine.cells, inset=4, fill="#fbfaf6", stroke="#333")
    if len(machine.cells) == 1:   # a hex: its width, less what W and E chips take at the name's height
        sides = {p.side for p in ports}
        # (the box's side is 4 px in; 2 px more keep the letters off it, QA: "Fredomizer" on the border)
        left = min(xs) + 6 + (HEX_CHIP_ROOM if "W" in sides else 0)
        right = max(xs) - 6 - (HEX_CHIP_ROOM if "E" in sides else 0)
        names, size = _fitted_name(machine.name, right - left)
        name_x = (left + right) / 2
        id_room = max(xs) - min(xs) - (2 * HEX_CHIP_ROOM if sides & {"W", "E"} else 8)
    else:                         # a domino: the width of its narrow side (ports stand by its ends and long sides)
        # (NAME_MARGIN: the box's inset and 2 px inside it keep the letters off its border, QA: "Miniboom-101")
        names, size = _fitted_name(machine.name, min(max(xs) - min(xs), max(ys) - min(ys)) - NAME_MARGIN)
        name_x = cx
        wide = max(xs) - min(xs) > max(ys) - min(ys)   # (lying: its top corners may hold the income badge)
        id_room = max(xs) - min(xs) - (2 * BADGE_ROOM if wide else 8)
    text = svg_element("title", escape(" ".join(filter(None, (machine.id, machine.name))) + f", income {machine.income}"))
    # a custom catalogue's long id is cut to the box (the title keeps it whole; QA: one ran over the badge)
    shown_id = ellipsized(machine.label, max(4, int(id_room / (ID_CHAR * ID_SIZE))))
    # as big as its room allows, down to ID_SMALLEST (QA: a hex's "FN33" touched its W and E chips)
    id_size = max(ID_SMALLEST, min(ID_SIZE, (id_room - ID_CLEAR) / (ID_CHAR * len(shown_id))))
    plus = bool(machine.bonus) and shown_id.endswith("+")   # (drawn in its colour, unless the id was cut)
    # a "+" id starts where the whole id, "+" included, is centred: cairosvg centres a text by its first run only,
    # and drew the "+" outside the box (QA); browsers and resvg centre both ways alike
    id_x, anchor = (cx - BOLD * id_size * name_ems(shown_id) / 2, "start") if plus else (cx, "middle")
    text += svg_text(id_x, cy - 5 * len(names), shown_id[:-1] if plus else shown_id, f"{id_size:.3g}", weight="bold",
                     anchor=anchor, markup=_bonus_plus(machine.bonus) if plus else "", class_="machine-id")
    text += "".join(svg_text(name_x, cy + 6 + 10 * i - 5 * (len(names) - 1), line, f"{size:g}", fill="#555",
                          font_style="italic", class_="machine-name") for i, line in enumerate(names))
    if len(machine.cells) == 1:   # a hex: below the top vertex or above the bottom one
        spots = [(cx, min(ys) + 0.42 * plot.radius), (cx, max(ys) - 0.42 * plot.radius)]
    else:                         # a domino: its corners, tucked in far enough to clear mid-side chips
        spots = [(x, y) for y in (min(ys) + 13, max(ys) - 13) for x in (min(xs) + 13, max(xs) - 13)]
    clearance = _clearances(plot, spots, ports)
    clear = [spot for spot, far in zip(spots, clearance) if far >= BADGE_CLEAR]
    if clear:                       # the first spot clear of every chip
        income = _income_badge(*clear[0], machine.income)
    elif len(machine.cells) == 1:   # a hex with ports by both vertices: a small badge by a slanted side with
        # no chip (W and E are the name's row), else in the freest corner; the nearest chip first, then the next
        # (QA: FN16's 11 squeezed between its NW and NE chips, the first of corners that all touch a chip)
        cell, chipped = machine.cells[0], {p.side for p in ports}
        free = [side for side in ("SW", "SE", "NW", "NE") if side not in chipped and side in plot.angles]
        places = ([_inside(plot, cell, side, HEX_SIDE_INSET) for side in free]
                  or [(cx + HEX_CORNER * (x - cx), cy + HEX_CORNER * (y - cy)) for x, y in plot.polygon(cell)])
        room = _distances(plot, places, ports)
        freest = max(range(len(places)), key=lambda k: [round(d, 1) for d in room[k]])
        income = _income_badge(*places[freest], machine.income, radius=SMALL_BADGE[len(str(machine.income)) > 1])
    else:                           # a domino with chips by all four corners: the farthest from them
        income = _income_badge(*spots[max(range(len(spots)), key=clearance.__getitem__)], machine.income)
    chips = "".join(_port(plot, p) for p in ports)
    # the badge last: where it must stand near a chip it is drawn over it, never hidden (QA: FN16's NW and NE
    # chips covered the badge at the top corner)
    return svg_element("g", box + text + chips + income, class_="machine", data_id=machine.id)


def _highlight(plot: _Plot, cell: Cell) -> str:
    return svg_element("polygon", points=_points(plot.polygon(cell, 0.94)), fill=HIGHLIGHT_SVG, fill_opacity=0.12,
               stroke=HIGHLIGHT_SVG, stroke_width=4, stroke_dasharray="10 4", class_="highlight", data_cell=f"{cell[0]},{cell[1]}")


# -- legend ---------------------------------------------------------------------------
class _LegendPlot(_Plot):
    """A one-cell plot whose single side sits at a legend position, so the legend
    draws its port samples with the very same code as the board."""

    def __init__(self, x: float, y: float, angle: float) -> None:
        side = "W" if angle == 180 else "E"
        super().__init__(board=None, radius=0.0, angles={side: angle}, origin=(x, y))  # type: ignore[arg-type]

    def side_mid(self, cell: Cell, side: str) -> Point:
        return self.origin


def _legend(scene: Scene, x: float, y: float) -> str:
    """The scene's legend entries (`legend_entries`), each with the same drawing the board uses."""
    r = 10
    tint = legend_colours(scene.colors)
    samples = {
        "machine": lambda sx, sy: svg_element("rect", x=sx - 14, y=sy - 9, width=28, height=18, rx=5, fill="#fbfaf6", stroke="#333", stroke_width=1.5)
        + _income_badge(sx + 20, sy, 9),
        "bonus": lambda sx, sy: svg_text(sx, sy, "FF", ID_SIZE, weight="bold", markup=_bonus_plus(tint["supply"])),
        "input": lambda sx, sy: _port(_LegendPlot(sx + 9, sy, 180), PortView((0, 0), "W", True, (tint["input"],), 2)),
        "output": lambda sx, sy: _port(_LegendPlot(sx + 10, sy, 0), PortView((0, 0), "E", False, (tint["output"],), 1)),
        "pipe": lambda sx, sy: _stroke_pair(f"M{sx - 16},{sy} L{sx + 16},{sy}", tint["pipe"], 6) + _feed_tag(sx, sy, tint["pipe"]),
        "supply": lambda sx, sy: _barrel(sx, sy, 16, _color(tint["supply"]), "#333"),
        "reservoir": lambda sx, sy: _barrel(sx, sy, 16, _color("white"), "#333"),
        "end": lambda sx, sy: _barrel(sx, sy, 16, _color("black"), "#777"),
        "diagonal": lambda sx, sy: _stroke_pair(f"M{sx - 16},{sy - 8} L{sx + 16},{sy + 8}", tint["pipe"], 5)
        + _stroke_pair(f"M{sx - 16},{sy + 8} L{sx + 16},{sy - 8}", tint["output"], 5),
        "pillar": lambda sx, sy: svg_element("rect", x=sx - r, y=sy - r, width=2 * r, height=2 * r, fill="#8c8c8c")
        + svg_element("circle", cx=sx, cy=sy, r=6, fill="#6b6b6b"),
        "blocked": lambda sx, sy: svg_element("rect", x=sx - r, y=sy - r, width=2 * r, height=2 * r, fill="url(#ff-hatch)", stroke="#bbb"),
        "highlight": lambda sx, sy: svg_element("rect", x=sx - r, y=sy - r, width=2 * r, height=2 * r, fill=HIGHLIGHT_SVG, fill_opacity=0.12,
                                        stroke=HIGHLIGHT_SVG, stroke_width=3, stroke_dasharray="6 3"),
    }
    parts = [svg_text(x, y, "Legend", 14, weight="bold", anchor="start")]
    entries = legend_entries(scene)
    for i, (entry, label) in enumerate(zip(entries, _legend_labels(scene))):
        row_y = y + 30 + 28 * i
        parts.append(samples[entry.key](x + 22, row_y))
        parts.append(svg_text(x + LEGEND_TEXT, row_y, label, LEGEND_SIZE, anchor="start"))
    row_y = y + 30 + 28 * len(entries)
    for i, color in enumerate(scene.colors):
        sx = x + 8 + 64 * i
        parts.append(svg_element("rect", x=sx, y=row_y - 10, width=58, height=20, rx=4, fill=_color(color), stroke="#333"))
        parts.append(svg_text(sx + 29, row_y, color, 10, fill=ink_for(color), weight="bold"))
    return svg_element("g", "".join(parts), class_="legend")


def _legend_labels(scene: Scene) -> list[str]:
    """The legend's lines as the SVG words them (hex tanks in the Funner's words)."""
    words = {**(HEX_TANK_LABELS if scene.board.geometry.name == "hex" else {}), **SVG_LABELS}
    return [words.get(entry.key, entry.label) for entry in legend_entries(scene)]


def legend_width(scene: Scene) -> float:
    """The legend's width: LEGEND_WIDTH, or more for its longest line or its row of colours (QA: the "+" line
    ran 40 px past the picture's edge, the pipe's 2 px past the report's legend)."""
    lines = [LEGEND_TEXT + LEGEND_SIZE * name_ems(label) for label in _legend_labels(scene)]
    return max([LEGEND_WIDTH, 8 + 64 * len(scene.colors)] + [line + 16 for line in lines])


def legend_height(scene: Scene) -> int:
    return 30 + 28 * (len(legend_entries(scene)) + 1) + 10


# -- whole pictures -------------------------------------------------------------------
def _document(layers: list[str], width: float, height: float) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + svg_element("svg", "\n".join(layers), xmlns="http://www.w3.org/2000/svg", width=f"{width:.0f}", height=f"{height:.0f}",
                  viewBox=f"0 0 {width:.0f} {height:.0f}"))


def title_lines(title: str, room: float) -> list[str]:
    """The title in lines that fit `room` px: one line where it fits; a word longer than a line (a long file
    name) keeps a line of its own and widens the picture (QA: a puzzle's one-line question made a 5 x 5
    board's picture 2 000 px wide). Shared by every picture of the project (the Robofacture spaces too)."""
    lines: list[str] = []
    for word in title.split():
        if lines and title_width(f"{lines[-1]} {word}") <= room:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines or [""]


def title_width(line: str) -> float:
    """A title line's width in px: bold letters, measured as `name_ems` and BOLD wider (QA: a 165-character
    file name reckoned at 0.6 em a letter ran 170 px past the picture's edge)."""
    return BOLD * TITLE_SIZE * name_ems(line)


def _title(lines: list[str]) -> str:
    return "".join(svg_text(LEFT, 22 + TITLE_LEADING * i, line, TITLE_SIZE, weight="bold", anchor="start", class_="title")
                   for i, line in enumerate(lines))


def _scene_pipes(plot: _Plot, scene: Scene) -> str:
    """Splitters first: a pipe that only crosses a hex holding a junction is drawn over the junction's dot,
    a bridge, not a joint (QA: a pink straight read as joined to a blue splitter at their common centre)."""
    ordered = sorted(scene.pipes, key=lambda p: len(p.ends) <= 2)
    return svg_element("g", "".join(_pipe(plot, p) for p in ordered), class_="pipes")


def _empty_cells(scene: Scene) -> set[Cell]:
    """The board's cells nothing stands on: no machine, tank, pipe or diagonal tile."""
    taken = ({c for m in scene.machines for c in m.cells} | {t.cell for t in scene.tanks}
             | {cell for p in scene.pipes for cell, _ in p.ends} | {c for cells in scene.diagonals for c in cells})
    return set(scene.board.cells) - taken


def render_scene(scene: Scene, title: str, legend: bool = True, coordinates: bool = True) -> str:
    """The SVG document of a prepared scene; without the legend when pictures share one, and without row,
    column and hex numbers where they mean nothing (a puzzle's tray of machines)."""
    plot = _plot(scene.board)
    board_w, board_h = plot.size()
    # the picture is as wide as its title's longest line at least (QA: a long file name's title ran 20-400 px
    # past the edge)
    legend_w = legend_width(scene) if legend else 0
    titles = title_lines(title, max(board_w + 24 + legend_w, TITLE_WIDTH) - LEFT - 24)
    width = max(board_w + 24 + legend_w, LEFT + max(map(title_width, titles)) + 24)
    drop = TITLE_LEADING * (len(titles) - 1)   # a title of more lines moves everything under it down
    height = max(board_h, TOP + legend_height(scene) if legend else 0) + 24 + drop
    machine_ports: dict[int, list[PortView]] = {m.index: [] for m in scene.machines}
    at = scene.machine_at()
    for port in scene.ports:
        machine_ports[at[port.cell].index].append(port)
    labelled = _empty_cells(scene) if coordinates else set()
    layers = [
        _board_layer(plot, labelled),
        _numbers(plot) if coordinates else "",
        svg_element("g", "".join(_diagonal_tile(plot, cells) for cells in scene.diagonals), class_="diagonals"),
        _scene_pipes(plot, scene),
        svg_element("g", "".join(_feed_name(plot, cell, color) for cell, color in scene.named), class_="feed-names"),
        svg_element("g", "".join(_tank(plot, t) for t in scene.tanks), class_="tanks"),
        # highlights under the machines: their dashed outline shows in a machine's margin, and never covers
        # its badge or port amounts (QA: FN12's "8" and its chips' "2" and "1" were unreadable)
        svg_element("g", "".join(_highlight(plot, c) for c in sorted(scene.highlights)), class_="highlights"),
        svg_element("g", "".join(_machine(plot, m, machine_ports[m.index]) for m in scene.machines), class_="machines"),
    ]
    if legend:
        layers.append(_legend(scene, board_w + 24, TOP))
    under_title = svg_element("g", "\n".join(layers), transform=f"translate(0,{drop})") if drop else "\n".join(layers)
    return _document([svg_element("rect", width="100%", height="100%", fill="white"), _defs(), _title(titles), under_title],
                     width, height)


def legend_svg(layout: Layout) -> str:
    """The legend alone (with the layout's colours), for pages that show many pictures."""
    scene = layout_scene(layout, ())
    return _document([_defs(), _legend(scene, 12, 16)], legend_width(scene) + 12, legend_height(scene) + 24)


def board_svg(board: Board, colors: tuple[str, ...], title: str | None = None, legend: bool = True) -> str:
    """The empty board: its outline, playable cells, blocked cells and pillars; the legend's samples in the
    ruleset's `colors` (without them every sample was red, which Funner has not)."""
    return render_scene(board_scene(board, colors), title or f"Board {board.id}", legend)


def stacked_svg(documents: list[str]) -> str:
    """One picture of several SVG documents, one below the other (a puzzle's board above its machines)."""
    parts, width, height = [], 0.0, 0.0
    for document in documents:
        root = document[document.index("<svg"):]
        size = re.search(r'width="([0-9.]+)" height="([0-9.]+)"', root)
        parts.append(root.replace("<svg", f'<svg x="0" y="{height:.0f}"', 1))
        width, height = max(width, float(size[1])), height + float(size[2])
    return _document(parts, width, height)


def tray_svg(layout: Layout, title: str) -> str:
    """Machines drawn alone (scene.tray_layout), under a title, with no board numbers, and the legend of every
    tile a player lays with them (QA: a puzzle board's legend, with no tile given, explained pillars only)."""
    return render_scene(layout_scene(layout, ()), title, coordinates=False)


def layout_svg(layout: Layout, title: str | None = None, highlight_cells=(), legend: bool = True) -> str:
    """A layout: machines, ports, pipes in network colours, tanks; `highlight_cells`
    (e.g. rule violations) outlined in red."""
    default = f"{layout.ruleset.id} - board {layout.board.id} - {len(layout.machines)} machines"
    return render_scene(layout_scene(layout, highlight_cells), title or default, legend)
