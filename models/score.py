"""Static score of a layout: incomes - build cost + chain bonus."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .layout import Layout
    from .networks import Connectivity


@dataclass
class ChainInput:
    machine: str
    at: str        # the port as printed on the tile
    color: str
    amount: int
    bonus: int
    side: str      # the board side it faces (the machine turned): which a player sees


@dataclass
class Score:
    income: int
    cost_by_kind: dict[str, int]
    chain_inputs: list[ChainInput] = field(default_factory=list)

    @property
    def cost(self) -> int:
        return sum(self.cost_by_kind.values())

    @property
    def chain_bonus(self) -> int:
        return sum(c.bonus for c in self.chain_inputs)

    @property
    def total(self) -> int:
        return self.income - self.cost + self.chain_bonus

    def summary(self) -> dict[str, int]:
        return {"income": self.income, "cost": self.cost, "chain_bonus": self.chain_bonus, "total": self.total}

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.summary(),
            "cost_by_kind": dict(self.cost_by_kind),
            "chain_inputs": [vars(c) for c in self.chain_inputs],
        }


def build_cost(layout: "Layout") -> dict[str, int]:
    costs: Counter[str] = Counter()
    for tile in layout.tiles:
        costs[tile.kind] += tile.cost
    return dict(costs)


def chain_bonus_inputs(layout: "Layout", conn: "Connectivity") -> list[ChainInput]:
    """Every machine input whose network is fed by machines earns per-point bonus."""
    per_point = layout.ruleset.chain_bonus_per_point
    out = []
    for net in conn.networks:
        if not net.fed_by_machines:
            continue
        for i in net.inputs:
            port = layout.ports[i]
            amount = port.spec.amount or 0
            color = sorted(net.colors)[0] if net.colors else port.spec.colors[0]
            out.append(ChainInput(layout.machines[port.machine].id, port.spec.at, color, amount, per_point * amount,
                                  port.side))
    return out


def score_layout(layout: "Layout", conn: "Connectivity | None" = None) -> Score:
    if conn is None:
        from .networks import connect

        conn = connect(layout)
    income = sum(layout.machine(i).income for i in range(len(layout.machines)))
    return Score(income, build_cost(layout), chain_bonus_inputs(layout, conn))
