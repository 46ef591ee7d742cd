"""Feeding orders: which machine to place first, scored by a greedy feeding of inputs from outputs.
"""
from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from .state import Context, Flow

#: up to this many machines every order is scored: 5! = 120 orders cost less than the hill climb's 60 x 16
#: (a ruin-and-recreate move re-sketches 1-4 machines; the climb was a fifth of a move's time)
EVERY_ORDER_UP_TO = 5
#: hill climbs share about this much work (climbs x machines squared): all 60 up to 12 machines, 4 for 55
CLIMB_WORK = 8640


def greedy_feeding(table: dict[str, tuple[list[Flow], list[Flow]]], order: Sequence[str], waiting: list[Flow]
                   ) -> tuple[list[frozenset[str]], int]:
    """Feed each input from the earliest fitting output: (colours of outputs left untaken, points chained).

    `waiting` are outputs already standing (colours, spare amount); only new outputs count as untaken.
    """
    spare = [[colors, amount, True] for colors, amount in waiting]
    chained = 0
    for mid in order:
        inputs, outputs = table[mid]
        for colors, amount in inputs:
            chosen = None
            for w in spare:
                if w[1] >= amount and w[0] & colors and (chosen is None or (w[2], w[1]) < (chosen[2], chosen[1])):
                    chosen = w
            if chosen is not None:
                chosen[1] -= amount
                chosen[2] = True
                chained += amount
        spare += [[colors, amount, False] for colors, amount in outputs]
    return [w[0] for w in spare if not w[2]], chained


def _order_quality(table: dict[str, tuple[list[Flow], list[Flow]]], order: Sequence[str], waiting: list[Flow]
                   ) -> tuple[int, int, int, int]:
    """(colours needing a reservoir, outputs left untaken, -chained points, lateness of many-port
    machines): smaller is better; machines with many ports are hard to fit on a crowded board."""
    left, chained = greedy_feeding(table, order, waiting)
    lateness = sum(i * (len(table[m][0]) + len(table[m][1])) for i, m in enumerate(order))
    return len({min(c) for c in left}), len(left), -chained, lateness


def feeding_orders(table: dict[str, tuple[list[Flow], list[Flow]]], ids: list[str], waiting: list[Flow],
                   rng: random.Random, count: int = 8, tries: int = 60) -> list[list[str]]:
    """A few good feeding orders, best first: every order of a few machines, else random permutations
    improved by swaps. Equally good orders come in random order, so restarts try different ones."""
    if len(ids) <= EVERY_ORDER_UP_TO:
        scored = _every_order(table, ids, waiting, rng)
    else:   # (a climb costs ~ machines squared: 60 climbs over 55 machines took 4 s of a 5 s solve, QA)
        scored = _climbed_orders(table, ids, waiting, rng, min(tries, max(4, CLIMB_WORK // len(ids) ** 2)))
    best = sorted(scored, key=scored.__getitem__)[:count]
    return [list(o) for o in best]


def _every_order(table: dict[str, tuple[list[Flow], list[Flow]]], ids: list[str], waiting: list[Flow],
                 rng: random.Random) -> dict[tuple[str, ...], tuple[int, int, int, int]]:
    """Every order of `ids` with its quality, shuffled first so that ties sort in random order."""
    orders = list(itertools.permutations(ids))
    rng.shuffle(orders)
    return {order: _order_quality(table, order, waiting) for order in orders}


def _climbed_orders(table: dict[str, tuple[list[Flow], list[Flow]]], ids: list[str], waiting: list[Flow],
                    rng: random.Random, tries: int) -> dict[tuple[str, ...], tuple[int, int, int, int]]:
    """The local optima of `tries` short hill climbs from random orders, with their quality."""
    scored: dict[tuple[str, ...], tuple[int, int, int, int]] = {}
    for _ in range(tries):
        order = list(ids)
        rng.shuffle(order)
        quality = _order_quality(table, order, waiting)
        for _ in range(len(order) * 3):  # a short hill climb on adjacent swaps
            i = rng.randrange(max(1, len(order) - 1))
            swapped = order[:i] + order[i + 1:i + 2] + order[i:i + 1] + order[i + 2:]
            q = _order_quality(table, swapped, waiting)
            if q <= quality:
                order, quality = swapped, q
        scored[tuple(order)] = quality
    return scored


def takers_left(ctx: Context, rest: list[str], colors: frozenset[str], spare: int) -> bool:
    """Whether a machine still to place has an input that an output of `colors` with `spare` could feed."""
    return any(colors & c and a <= spare for m in rest for c, a in ctx.table[m][0])
