"""Tables the commands print: the machines a catalogue lists (`factoryfun catalog`) or a puzzle asks for (what
each earns, drinks and makes, in the colours it makes them), and the rules a layout breaks."""
from __future__ import annotations

from typing import Iterable

from rich.table import Table

from ..catalog import Machine, PortSpec


def _port_text(port: PortSpec) -> str:
    amount = "" if port.amount is None else f"{port.amount} "
    shown = port.colors[0] if port.colors[0] != "black" else "white"   # (black ink on a dark terminal)
    return f"[{shown}]{amount}{'/'.join(port.colors)}[/] {port.at}"


def machine_table(machines: Iterable[Machine], title: str) -> Table:
    table = Table(title=title)
    for column in ("id", "name", "income", "inputs", "output", "bonus"):
        table.add_column(column, justify="right" if column == "income" else "left")
    for m in machines:
        name = f"{m.display_name} (special)" if m.special else m.display_name   # (dealt only with --specials)
        table.add_row(m.id, name, str(m.income), ", ".join(_port_text(p) for p in m.inputs),
                      ", ".join(_port_text(p) for p in m.outputs), m.bonus_supply or "")
    return table


def violation_table(violations, title: str, rounds: list[str] | None = None) -> Table:
    """Rule, message, cells and machines of each violation; with `rounds`, the rounds each stands in first."""
    table = Table(title=title, show_lines=False)
    for column in (["rounds"] if rounds is not None else []) + ["rule", "message", "cells", "machines"]:
        table.add_column(column, overflow="fold")
    for v, stands_in in zip(violations, rounds or [None] * len(violations)):
        row = [v.rule, v.message, v.cells_text, ", ".join(v.machines)]
        table.add_row(*([stands_in] if rounds is not None else []) + row)
    return table
