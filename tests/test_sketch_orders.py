"""Feeding orders: the order the sketch places machines in, best chaining first."""
from __future__ import annotations

import itertools
import random

from solver.sketch.orders import EVERY_ORDER_UP_TO, _order_quality, feeding_orders, greedy_feeding

RED, BLUE, GREEN = frozenset({"red"}), frozenset({"blue"}), frozenset({"green"})

#: A's red output feeds B, B's blue output feeds C; D and E stand alone (one supplied input each)
TABLE = {
    "A": ([], [(RED, 2)]),
    "B": ([(RED, 2)], [(BLUE, 1)]),
    "C": ([(BLUE, 1)], []),
    "D": ([(GREEN, 1)], []),
    "E": ([(GREEN, 1)], []),
    "F": ([(GREEN, 1)], [(RED, 1)]),
}


def test_a_chain_is_ordered_feeders_first():
    for seed in range(5):
        best = feeding_orders(TABLE, ["C", "B", "A"], [], random.Random(seed))
        assert best[0] == ["A", "B", "C"]
        assert greedy_feeding(TABLE, best[0], []) == ([], 3)


def test_a_few_machines_get_every_order_scored_best_first():
    ids = ["C", "B", "A"]
    best = feeding_orders(TABLE, ids, [], random.Random(0))
    assert sorted(map(tuple, best)) == sorted(itertools.permutations(ids))  # 3! = 6 orders, fewer than 8
    # best first: fewest colours needing a reservoir, then fewest outputs left untaken, then most points chained
    keys = [_order_quality(TABLE, order, [])[:3] for order in best]
    assert keys == sorted(keys) and keys[0] == (0, 0, -3)


def test_equally_good_orders_come_first_in_turn():
    firsts = {tuple(feeding_orders(TABLE, ["D", "E"], [], random.Random(seed))[0]) for seed in range(20)}
    assert firsts == {("D", "E"), ("E", "D")}


def test_many_machines_get_distinct_permutations_from_the_climb():
    ids = list(TABLE)
    assert len(ids) > EVERY_ORDER_UP_TO
    best = feeding_orders(TABLE, ids, [], random.Random(1), count=5)
    assert 1 <= len(best) <= 5 and len({tuple(o) for o in best}) == len(best)
    assert all(sorted(order) == sorted(ids) for order in best)
    assert greedy_feeding(TABLE, best[0], [])[1] == 3  # both chains found: A -> B -> C
