"""Colours and legend shared by the terminal and the SVG drawings.

Both drawings must agree on what a colour name looks like and on what the
legend says, so a player who learnt one picture can read the other; keeping the
tables here (and only here) is what guarantees that.
"""
from __future__ import annotations

from dataclasses import dataclass

#: game colour name -> SVG fill. "white" is an output reservoir, "none" a network
#: whose colour is not fixed yet (only pipes or reservoirs), "mixed" a network
#: whose members disagree (itself a violation).
SVG_COLORS: dict[str, str] = {
    "green": "#2e9e44",
    "red": "#d8332c",
    "blue": "#2f6fd6",
    "orange": "#f08a24",
    "yellow": "#f2d02c",
    "pink": "#ec6fb0",
    "brown": "#8b5a2b",
    "black": "#1d1d1d",
    "white": "#ffffff",
    "none": "#9a9a9a",
    "mixed": "#9a9a9a",
}

#: game colour name -> terminal colour (xterm-256 names, so the picture looks the
#: same on terminals without true colour).
TERM_COLORS: dict[str, str] = {
    "green": "green3",
    "red": "red1",
    "blue": "dodger_blue2",
    "orange": "dark_orange3",   # (dark_orange falls to bright red on 16-colour terminals, beside red: QA)
    "yellow": "yellow1",
    "pink": "hot_pink",
    "brown": "orange4",
    "black": "grey0",
    "white": "grey100",
    "none": "grey58",
    "mixed": "grey58",
}

#: three-letter labels: a tank or legend entry must fit a 5-character cell
SHORT_NAMES: dict[str, str] = {
    "green": "GRN", "red": "RED", "blue": "BLU", "orange": "ORG", "yellow": "YEL",
    "pink": "PNK", "brown": "BRN", "black": "BLK", "white": "OUT", "none": "???", "mixed": "MIX",
}

#: the highlight of a violation, in both drawings
HIGHLIGHT_SVG = "#e0201b"
HIGHLIGHT_TERM = "red3"
#: the terminal marks a violation's cells with dots of HIGHLIGHT_TERM on their blank characters
HIGHLIGHT_MARK = "·"


def ink_for(color: str) -> str:
    """'black' or 'white': whichever text colour is readable on this game colour."""
    hexcode = SVG_COLORS.get(color, SVG_COLORS["none"]).lstrip("#")
    r, g, b = (int(hexcode[i:i + 2], 16) for i in (0, 2, 4))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "white"


@dataclass(frozen=True)
class LegendEntry:
    """One legend line: a symbol key each drawing knows how to draw, and its meaning."""

    key: str
    label: str


def legend_colours(colours: tuple[str, ...]) -> dict[str, str]:
    """The colour of each legend sample, from the ruleset's own (a first-edition legend showed green and
    orange, which that game has not): red input, blue output, green pipe, orange container where the game
    has them, else its other colours in turn."""
    own = [c for c in colours if c != "black"] or ["red"]
    chosen: dict[str, str] = {}
    for key, wanted in (("input", "red"), ("output", "blue"), ("pipe", "green"), ("supply", "orange")):
        free = [c for c in own if c not in chosen.values()]
        chosen[key] = wanted if wanted in free else (free or own)[0]
    return chosen


#: the tanks in the Funner's words (its rulebook calls them tanks; the square games' containers and reservoirs)
HEX_TANK_LABELS = {"supply": "supply tank (its colour, named on it)", "reservoir": "white tank (output)",
                   "end": "black tank (end product)"}


#: what only the SVG says: it names a feed on its pipes (the terminal's pipes are a character wide)
SVG_LABELS = {"pipe": "pipe in its network's colour; feeds named (grey: undecided)"}


#: what only the terminal says: a black end-product output, which has no amount, is "•→" (QA: in no legend)
TERM_LABELS = {"output": "output: colour, amount (• where it has none: black), arrow out of the machine"}


#: the meaning of every symbol, shared so the two legends never drift apart
LEGEND: tuple[LegendEntry, ...] = (
    LegendEntry("machine", "machine: id, income (circled), name"),
    LegendEntry("bonus", "+ after the id: one more supply container, the +'s colour (dark: any)"),
    LegendEntry("input", "input: colour, amount, arrow into the machine"),
    LegendEntry("output", "output: colour, amount, arrow out of the machine"),
    LegendEntry("pipe", "pipe in its network's colour (grey: no colour decided yet)"),
    LegendEntry("supply", "supply container (its colour, named on it)"),
    LegendEntry("reservoir", "output reservoir (white, rimmed in its network's colour)"),
    LegendEntry("end", "end-product reservoir (black)"),
    LegendEntry("diagonal", "diagonal intersection tile: two pipes crossing over two cells"),
    LegendEntry("pillar", "pillar"),
    LegendEntry("blocked", "blocked cell (outside the board)"),
    LegendEntry("highlight", "rule violation"),
)
