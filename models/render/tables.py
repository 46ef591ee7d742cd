"""Tables the commands print: the machines a catalogue lists (`factoryfun catalog`) or a puzzle asks for (what
each earns, drinks and makes, in the colours it makes them), and the rules a layout breaks."""
from __future__ import annotations

import re
from typing import Iterable

from rich.table import Table

from ..catalog import Machine, PortSpec
from ..geometry import Geometry


def _port_text(port: PortSpec) -> str:
    amount = "" if port.amount is None else f"{port.amount} "
    shown = port.colors[0] if port.colors[0] != "black" else "white"   # (black ink on a dark terminal)
    return f"[{shown}]{amount}{'/'.join(port.colors)}[/] {port.at}"


SQUARE_POSITIONS = "W and E are the domino's ends, Na / Nb and Sa / Sb the left and right half of its north and south side"
BONUS_NOTE = "bonus: the colour of the extra supply container the machine allows once built (any: a colour of your choice)"


def machine_table(machines: Iterable[Machine], title: str, geometry: Geometry) -> Table:
    """The machines, with a caption saying what the port positions and the bonus column mean (QA pass 54: the
    `bonus` column had no footnote, and stood empty on Funner, whose machines give none)."""
    machines = list(machines)
    bonus = any(m.bonus_supply for m in machines)
    notes = (["ports: the side of the printed hex each sits on"] if geometry.name == "hex" else
             [f"ports: {SQUARE_POSITIONS} of the printed tile"]) + ([BONUS_NOTE] if bonus else [])
    table = Table(title=title, caption="\n".join(notes), caption_justify="left")
    for column in ("id", "name", "income", "inputs", "output") + (("bonus",) if bonus else ()):
        table.add_column(column, justify="right" if column == "income" else "left")
    for m in machines:
        name = f"{m.display_name} (special)" if m.special else m.display_name   # (dealt only with --specials)
        table.add_row(m.id, name, str(m.income), ", ".join(_port_text(p) for p in m.inputs),
                      ", ".join(_port_text(p) for p in m.outputs), *([m.bonus_supply or ""] if bonus else []))
    return table


TURNED_PORT_NOTE = ("a port is named by where it sits on the printed tile (at W, at Na, ...), then by the side of the "
                    "board it faces as the machine is turned (on side N)")


def violation_table(violations, title: str, rounds: list[str] | None = None) -> Table:
    """Rule, message, cells and machines of each violation; with `rounds`, the rounds each stands in first. A
    turned machine's port gets a caption saying how it is named (QA pass 54: "at NW on side SE", no legend)."""
    turned = any(v.machines and re.search(r" at \w+ on side ", v.message) for v in violations)
    table = Table(title=title, show_lines=False, caption=TURNED_PORT_NOTE if turned else None, caption_justify="left")
    for column in (["rounds"] if rounds is not None else []) + ["rule", "message", "cells", "machines"]:
        table.add_column(column, overflow="fold")
    for v, stands_in in zip(violations, rounds or [None] * len(violations)):
        row = [v.rule, v.message, v.cells_text, ", ".join(v.machines)]
        table.add_row(*([stands_in] if rounds is not None else []) + row)
    return table
