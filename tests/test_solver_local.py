"""Refuting fed patterns by blocks on open patches (solver/local.py)."""
from __future__ import annotations

import time

from models.board import load_boards
from models.catalog import load_catalog
from models.geometry import HEX, SQUARE
from models.rulesets import get_ruleset
from solver import prove
from solver.local import LocalProver, _set_partitions, patch
from solver.prove import fed_patterns

FF = get_ruleset("factory-fun")
CATALOG = load_catalog(FF)
# FF27 feeds FF28 and FF43 orange; FF09 (red in, black out) shares no network with them
SET = ["FF09", "FF27", "FF28", "FF43"]
PATTERN = {("FF09", "Na"): 0, ("FF27", "Na"): 0, ("FF28", "W"): 0, ("FF28", "Sa"): 1, ("FF43", "W"): 1}


def test_a_patch_is_every_cell_within_its_radius():
    square, centre = patch(SQUARE, 2)
    assert len(square.cells) == 13 and centre in square.cells
    assert all(square.neighbour(centre, side) is not None for side in SQUARE.sides)
    hexes, _ = patch(HEX, 1)
    assert len(hexes.cells) == 7


def test_set_partitions_are_the_bell_numbers():
    assert len(list(_set_partitions(list("abc")))) == 5
    assert len({tuple(sorted(map(tuple, p))) for p in _set_partitions(list("abcd"))}) == 15


def _never_called(*_args) -> str:
    raise AssertionError("no block should be solved")


def test_blocks_follow_the_networks_a_layout_could_have():
    prover = LocalProver(FF, CATALOG, _never_called)
    groupings = [sorted(b.machines for b in blocks) for blocks in prover.partitions(SET, PATTERN)]
    assert [("FF09",), ("FF27", "FF28", "FF43")] in groupings
    # FF09 shares no colour with the others; FF43's fed input needs FF27 beside it
    assert all(("FF09",) in g for g in groupings)
    assert all(("FF43",) not in g for g in groupings)


def test_extra_costs_are_raised_one_point_at_a_time_and_kept_between_targets():
    calls = []

    def fake(block, pipes, board, centre) -> str:
        calls.append((block.machines, pipes))
        assert centre in board.cells
        return "refuted" if len(block.machines) > 1 and pipes < 2 else "found"

    prover = LocalProver(FF, CATALOG, fake)
    total = sum(b.relaxed for b in prover.partitions(SET, PATTERN)[0])
    assert prover.refute(SET, PATTERN, total - 1) == "refuted"
    assert prover.refute(SET, PATTERN, total - 2) == "open"
    assert len(calls) == len(set(calls))  # nothing is solved twice


def test_a_two_pipe_budget_is_refuted_on_one_patch_not_164_board_parts():
    board = load_boards(FF)["classic-A"]
    patterns = fed_patterns(FF, CATALOG, SET, 32)
    assert [p.relaxed - 32 for p in patterns] == [2]
    setup = prove._Setup(FF, board, CATALOG, SET, False, None, time.monotonic() + 60, None)
    prover = LocalProver(FF, CATALOG, prove._block_solver(setup, 1))
    assert prover.refute(SET, patterns[0].fed, 32) == "refuted"
