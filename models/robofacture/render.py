"""Pictures of a production space: the terminal drawing and a standalone SVG.

Both show the same things, so a player who reads one reads the other: each cell in its colour and labelled with
the part that fills it (a dot where the printed premarked monomino shows), the shipped rectangle outlined, the
lines of its cuts, and the cells a violation names. The terminal's cells also spell their colour's initial and
mark shipped and broken cells in characters, so a drawing piped to a file or a colourless terminal still reads.
A cell two parts lie on (an overlap) shows both: the SVG splits it corner to corner, the second part's colour and
number in its lower half; the terminal ends it with a `+` in the second part's colour.
"""
from __future__ import annotations

from rich.text import Text

from ..render.palette import SVG_COLORS, TERM_COLORS, ink_for
from ..render.svg import TITLE_LEADING, TITLE_SIZE, svg_element, svg_text, title_lines, title_width
from .check import PRINTED, Filling
from .parts import Cell
from .puzzle import Space
from .shipping import Shipment

#: a cell's label: the part's index, or this where the premarked monomino shows
PRINTED_MARK = "•"
#: the terminal's last character of a cell that more parts lie on, in the second part's colour
STACKED_MARK = "+"
EMPTY_BG = "grey30"
SVG_CELL = 44
SVG_MARGIN = 30
SVG_TITLE = 40
#: the key line under the caption; the width a title may fill before it wraps
KEY_LINE, TITLE_ROOM = 20, 600


def _label(owner: int | None) -> str:
    return "" if owner is None else PRINTED_MARK if owner == PRINTED else str(owner)


def _cell_text(colour: str | None, label: str, shipped: bool, cut_away: bool, broken: bool,
               covers_mark: bool = False) -> str:
    """A cell's 5 characters, readable without colour (piped, QA): the colour's initial (lower case where a cut
    takes the cell away) and the part, and the printed mark where the part covers one; [ ] around shipped
    cells, ! ! around cells a violation names."""
    if colour is None:
        return "  .  "
    code = f"{colour[0].lower() if cut_away else colour[0].upper()}{label}"
    if covers_mark and len(code) < 3:   # a part over a premarked cell: the mark beside its label (QA: lost)
        code += PRINTED_MARK
    left, right = ("!", "!") if broken else ("[", "]") if shipped else (" ", " ")
    return f"{left}{code:<3}{right}"


def _cell_style(colour: str | None, highlight: bool, cut_away: bool) -> str:
    """A cell's ink on its colour; reverse video where a violation names it, dimmed where a cut takes it away."""
    background = TERM_COLORS.get(colour, EMPTY_BG) if colour else EMPTY_BG
    ink = ink_for(colour) if colour else "white"
    return f"{ink} on {background}" + (" reverse bold" if highlight else " dim" if cut_away else "")


def terminal_picture(space: Space, filling: Filling, shipment: Shipment | None = None,
                     highlight: frozenset[Cell] | set[Cell] = frozenset()) -> Text:
    """Rows of 5-character cells (`_cell_text`) on the cell's colour; a violation's cells also in reverse video,
    cut-away cells dimmed; a cell more parts lie on ends in a `+` in the second part's colour."""
    shipped = set(shipment.cells) if shipment else set()
    text = Text()
    text.append("    " + "".join(f"{col:^5}" for col in range(space.cols)) + "\n", style="dim")
    for row in range(space.rows):
        text.append(f"{row:>3} ", style="dim")
        for col in range(space.cols):
            cell = (row, col)
            colour = filling.colours.get(cell)
            cut_away = bool(shipment) and colour is not None and cell not in shipped
            style = _cell_style(colour, cell in highlight, cut_away)
            owner = filling.owner.get(cell)
            shown = _cell_text(colour, _label(owner), cell in shipped, cut_away, cell in highlight,
                               cell in space.premarked and owner not in (None, PRINTED))
            if cell in filling.stacked:
                text.append(shown[:-1], style=style)
                text.append(STACKED_MARK, style=_cell_style(filling.stacked[cell][0][0], cell in highlight, cut_away))
            else:
                text.append(shown, style=style)
        text.append("\n")
    return text


def caption(shipment: Shipment | None) -> str:
    """One line that says what the outlined rectangle scores."""
    if shipment is None:
        return "nothing to ship: no 2 x 2 of the space is filled"
    cuts = f"{shipment.cuts} cut{'s' * (shipment.cuts != 1)}" + (f" ({', '.join(shipment.cut_sides)})"
                                                                   if shipment.cuts else "")
    whites = f"{shipment.whites} white{'s' * (shipment.whites != 1)}"
    colour = product_words(shipment.colours)
    gold = f", +{shipment.robo_gold} RG" if shipment.robo_gold else ""
    return (f"ships {shipment.rows} x {shipment.cols} at {list((shipment.top, shipment.left))}: base {shipment.base}"
            f" - {cuts} - {whites} = {shipment.score} VP{gold}; product {colour}")


def picture_key(space: Space, shipment: Shipment | None, highlight: frozenset[Cell] | set[Cell],
                stacked: bool = False) -> str:
    """What the picture's marks mean, those it shows only (QA: nothing explained the numbers, the dot or the
    outlines)."""
    words = ["numbers: the parts, in the puzzle's order; thick lines: where parts meet"]
    if space.premarked:
        words.append(f"{PRINTED_MARK}: the printed premarked cell (a small dot where a part covers it)")
    if shipment is not None:
        words.append("black frame: what ships" + (", dashed: its cuts" if shipment.cuts else ""))
    if highlight:
        words.append("magenta: a broken rule")
    if stacked:
        words.append("a cell split corner to corner: two parts lie on it")
    return "; ".join(words)


def terminal_key(space: Space, shipment: Shipment | None, highlight: frozenset[Cell] | set[Cell],
                 stacked: bool = False) -> str:
    """The terminal drawing's marks, those it shows only (QA: only the SVG had a key): a cell's letter and
    number, the premarked dot, the shipped frame and the broken cells."""
    words = ["letter: the colour (lower case: cut away)" if shipment is not None and shipment.cuts
             else "letter: the colour", "number: the part"]
    if space.premarked:
        words.append(f"{PRINTED_MARK}: the printed premarked cell")
    if shipment is not None:   # (QA pass 54: VP and RG were never spelt out)
        words += ["[ ]: what ships", "VP: victory points", "RG: Robo Gold"]
    if highlight:
        words.append("! !: a broken rule")
    if stacked:
        words.append(f"{STACKED_MARK}: another part lies on the cell too (in its colour)")
    return "key: " + "; ".join(words)


def product_words(colours: tuple[str, ...] | list[str]) -> str:
    """The product colour, or the colours a tie leaves to the player: "blue or green" (QA: "blue/green" in one
    table and "blue or green" in the caption)."""
    return " or ".join(colours)


def _rect(x: float, y: float, w: float, h: float, **attrs: object) -> str:
    return svg_element("rect", x=f"{x:.1f}", y=f"{y:.1f}", width=f"{w:.1f}", height=f"{h:.1f}", **attrs)


def _line(ax: float, ay: float, bx: float, by: float, **attrs: object) -> str:
    return svg_element("line", x1=f"{ax:.1f}", y1=f"{ay:.1f}", x2=f"{bx:.1f}", y2=f"{by:.1f}", **attrs)


def _stacked_cell(x: float, y: float, colour: str | None, label: str,
                  over: tuple[tuple[str, int], ...]) -> list[str]:
    """A cell two (or more) parts lie on, split corner to corner: the first part's number in its upper half, the
    next part's colour below the diagonal with its number (and any further parts', joined by +)."""
    second = over[0][0]
    s = SVG_CELL
    triangle = f"{x + s:.1f},{y:.1f} {x + s:.1f},{y + s:.1f} {x:.1f},{y + s:.1f}"
    return [svg_element("polygon", points=triangle, fill=SVG_COLORS.get(second, "#d9d2c3"), stroke="#8a7d66",
                        stroke_width=1),
            svg_text(x + s * 0.3, y + s * 0.38, label, 12, fill=ink_for(colour) if colour else "#222", weight="bold"),
            svg_text(x + s * 0.68, y + s * 0.8, "+".join(_label(part) for _, part in over), 12, fill=ink_for(second),
                     weight="bold")]


def svg_picture(space: Space, filling: Filling, shipment: Shipment | None, title: str,
                highlight: frozenset[Cell] | set[Cell] = frozenset(), note: str | None = None) -> str:
    """The space as SVG: coloured cells with their part's label, thick lines between parts, the shipped
    rectangle outlined in black with its cut lines dashed and the cells they cut away faded, a violation's
    cells outlined in magenta. `note` replaces the caption under it (what an illegal space breaks)."""
    lines = [note or caption(shipment), picture_key(space, shipment, highlight, bool(filling.stacked))]
    # wide enough for the space, the caption (14 px) and the key (12 px); the title wraps to that, or to
    # TITLE_ROOM (QA: a long file name's title ran past both edges)
    room = max(space.cols * SVG_CELL, int(max(0.56 * 14 * len(lines[0]), 0.56 * 12 * len(lines[1]))))
    titles = title_lines(title, max(room, TITLE_ROOM))
    width = int(max(room, *map(title_width, titles))) + 2 * SVG_MARGIN
    top = SVG_TITLE + TITLE_LEADING * (len(titles) - 1)
    height = top + 2 * SVG_MARGIN + space.rows * SVG_CELL + 24 + KEY_LINE
    x0, y0 = (width - space.cols * SVG_CELL) / 2, top + SVG_MARGIN

    def corner(cell: Cell) -> tuple[float, float]:
        return x0 + cell[1] * SVG_CELL, y0 + cell[0] * SVG_CELL

    body = [_rect(0, 0, width, height, fill="#fbf8f1"),
            *(svg_text(width / 2, SVG_TITLE / 2 + 4 + TITLE_LEADING * i, line, TITLE_SIZE, weight="bold")
              for i, line in enumerate(titles))]
    for cell in space.cells:
        x, y = corner(cell)
        colour = filling.colours.get(cell)
        fill = SVG_COLORS.get(colour, "#d9d2c3") if colour else "#e9e2d2"
        body.append(_rect(x, y, SVG_CELL, SVG_CELL, fill=fill, stroke="#8a7d66", stroke_width=1))
        if cell in space.premarked and filling.owner.get(cell) != PRINTED:   # covered: the printed mark beneath
            body.append(svg_element("circle", cx=f"{x + 9:.1f}", cy=f"{y + 9:.1f}", r=5, fill=SVG_COLORS[space.player],
                                    stroke="#222", stroke_width=0.8))
        label = _label(filling.owner.get(cell))
        if cell in filling.stacked:
            body += _stacked_cell(x, y, colour, label, filling.stacked[cell])
        elif label:
            body.append(svg_text(x + SVG_CELL / 2, y + SVG_CELL / 2, label, 15,
                                  fill=ink_for(colour) if colour else "#222", weight="bold"))
    for (row, col) in space.cells:   # thick lines where two parts (or a part and the empty space) meet
        here = filling.owner.get((row, col))
        for other, (ax, ay, bx, by) in (((row, col + 1), (1, 0, 1, 1)), ((row + 1, col), (0, 1, 1, 1))):
            if space.inside(other) and filling.owner.get(other) != here and (here is not None
                                                                              or filling.owner.get(other) is not None):
                x, y = corner((row, col))
                body.append(_line(x + ax * SVG_CELL, y + ay * SVG_CELL, x + bx * SVG_CELL, y + by * SVG_CELL,
                                  stroke="#222", stroke_width=3))
    body.append(_rect(x0, y0, space.cols * SVG_CELL, space.rows * SVG_CELL, fill="none", stroke="#5a4a32",
                      stroke_width=3))
    for cell in sorted(highlight):
        x, y = corner(cell)
        body.append(_rect(x + 3, y + 3, SVG_CELL - 6, SVG_CELL - 6, fill="none", stroke="#e020c0", stroke_width=4))
    if shipment is not None:
        shipped = set(shipment.cells)
        for cell in sorted(set(filling.colours) - shipped):   # what the cuts take away, faded as in the terminal
            x, y = corner(cell)
            body.append(_rect(x, y, SVG_CELL, SVG_CELL, fill="#ffffff", fill_opacity=0.55))
        x, y = corner((shipment.top, shipment.left))
        w, h = shipment.cols * SVG_CELL, shipment.rows * SVG_CELL
        body.append(_rect(x, y, w, h, fill="none", stroke="#000", stroke_width=5))
        cut_lines = {"top": (x0, y, x0 + space.cols * SVG_CELL, y), "bottom": (x0, y + h, x0 + space.cols * SVG_CELL, y + h),
                     "left": (x, y0, x, y0 + space.rows * SVG_CELL), "right": (x + w, y0, x + w, y0 + space.rows * SVG_CELL)}
        for side in shipment.cut_sides:
            ax, ay, bx, by = cut_lines[side]
            body.append(_line(ax, ay, bx, by, stroke="#000", stroke_width=2, stroke_dasharray="6 4"))
    body.append(svg_text(width / 2, height - 18 - KEY_LINE, lines[0], 14))
    body.append(svg_text(width / 2, height - 16, lines[1], 12, fill="#555", class_="key"))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">\n' + "\n".join(body) + "\n</svg>\n")
