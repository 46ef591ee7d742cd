"""The player's stock of supply containers: one per colour, plus one per placed bonus machine.

One place says how many supply containers a set of standing machines allows,
because several parts need the same answer: the rule checker (the limit rule),
the sketches and build orders (which containers may still be laid), and the
local prover (solver/local.py), which splits a layout into components and must
know that a component may use containers another component's bonus machine
brought: the stock belongs to the player, not to a component.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from .catalog import Machine
from .rulesets import Ruleset


@dataclass(frozen=True)
class SupplyStock:
    """Containers allowed per colour (`default` for colours not listed), and more of any colour ("?").

    Hashable: the local prover keys what it knows of a block by the block and its stock.
    """

    per_colour: tuple[tuple[str, int], ...]
    default: int
    any_colour: int
    _table: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_table", dict(self.per_colour))

    @classmethod
    def of(cls, ruleset: Ruleset, machines: Iterable[Machine]) -> SupplyStock:
        """The stock once every machine in `machines` stands."""
        bonus = Counter(m.bonus_supply for m in machines) if ruleset.bonus_supply else Counter()
        allowed = tuple((c, ruleset.supply_per_color + bonus[c]) for c in ruleset.colors)
        return cls(allowed, ruleset.supply_per_color, bonus["any"])

    def allowed(self, colour: str) -> int:
        """Containers of `colour` its own allowance gives (containers of any colour not counted)."""
        return self._table.get(colour, self.default)

    def excess(self, used: Mapping[str, int]) -> dict[str, int]:
        """Containers per colour beyond that colour's own allowance (only colours that exceed it)."""
        over = {c: n - self.allowed(c) for c, n in used.items()}
        return {c: n for c, n in over.items() if n > 0}

    def room_for(self, used: Mapping[str, int], colour: str) -> bool:
        """True when one more container of `colour` still fits beside `used` (which fits the stock)."""
        if used.get(colour, 0) < self.allowed(colour):
            return True
        return sum(self.excess(used).values()) < self.any_colour

    def allows(self, used: Mapping[str, int]) -> bool:
        """True when these containers per colour fit the stock (the excess taken from "any colour")."""
        return sum(self.excess(used).values()) <= self.any_colour

    def faults(self, used: Mapping[str, int]) -> list[tuple[str, tuple[str, ...]]]:
        """What of `used` the stock does not allow, as a player reads it: (message, colours) per fault.

        With containers of any colour ("?") the colours over their own allowance share them, so two
        such colours are one fault (each alone, "2 green, 1 allowed (+1 of any colour)", reads as allowed).
        """
        excess = self.excess(used)
        if self.allows(used):
            return []
        if self.any_colour and len(excess) > 1:
            colours = tuple(sorted(excess))
            counts = ", ".join(f"{used[c]} {c}" for c in colours)
            own = ", ".join(f"{c} {self.allowed(c)}" for c in colours)
            message = (f"{counts} supply containers: {sum(excess.values())} beyond their colours' own allowance "
                       f"({own}), but only {self.any_colour} of any colour")
            return [(message, colours)]
        extra = f" (+{self.any_colour} of any colour)" if self.any_colour else ""
        return [(f"{used[c]} {c} supply containers, {self.allowed(c)} allowed{extra}", (c,)) for c in sorted(excess)]

    def after(self, used: Mapping[str, int]) -> SupplyStock:
        """The stock left once `used` is out: each colour's own allowance first, then "any colour".

        Exact: `used` plus u fits this stock exactly when u fits the stock left.
        """
        colours = dict(self.per_colour) | {c: self.default for c in used if c not in self._table}
        left = tuple((c, max(0, n - used.get(c, 0))) for c, n in colours.items())
        return SupplyStock(left, self.default, self.any_colour - sum(self.excess(used).values()))
