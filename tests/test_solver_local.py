"""Refuting fed patterns by blocks on open patches (solver/local.py)."""
from __future__ import annotations

import time
from collections import Counter

import pytest

from builders import FF29_OK, make_layout, plus
from components import component_blocks, solved_layout
from models.board import load_boards
from models.catalog import load_catalog
from models.check import check_layout
from models.geometry import HEX, SQUARE
from models.rulesets import get_ruleset
from models.stock import SupplyStock
from solver.grow import grow_block
from solver.model import build_static_model, fix_to_layout
from solver.search import run
from solver import prove
from models.geometry import ball
from solver.local import LocalProver, patch
from solver.static import solve_static
from solver.reach import supplied_colours
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


def _every_partition(items: list[str]):
    """All set partitions, the plain way (the Bell numbers: 5 of three items, 15 of four)."""
    if not items:
        yield []
        return
    for partition in _every_partition(items[1:]):
        for k in range(len(partition)):
            yield partition[:k] + [[items[0]] + partition[k]] + partition[k + 1:]
        yield [[items[0]]] + partition


def _groupings_the_plain_way(prover: LocalProver, machines: list[str], pattern: dict) -> set:
    stock = SupplyStock.of(FF, (CATALOG[m] for m in machines))
    out = set()
    for partition in _every_partition(sorted(machines)):
        blocks = [prover._block(group, pattern) for group in partition]
        used = sum((Counter(supplied_colours(CATALOG, g, pattern)) for g in partition), Counter())
        if all(b is not None for b in blocks) and stock.allows(used):
            out.add(tuple(sorted(b.machines for b in blocks)))
    return out


@pytest.mark.parametrize("machines, pattern", [
    (SET, PATTERN),
    (SET, {key: 0 for key in PATTERN}),
    (["FF25", "FF33", "FF41"], {("FF25", "Sa"): 0, ("FF41", "W"): 0, ("FF33", "Na"): 0, ("FF33", "Sa"): 0}),
    (["FF11", "FF12", "FF18", "FF21", "FF47"], {}),
])
def test_groupings_built_block_by_block_are_every_possible_partition(machines, pattern):
    """The prover builds groupings block by block, cutting off impossible blocks and full stocks early;
    the result is what walking every set partition and filtering finds."""
    assert len(list(_every_partition(list("abcd")))) == 15
    prover = LocalProver(FF, CATALOG, _never_called)
    found = [tuple(sorted(b.machines for b in blocks)) for blocks in prover.partitions(machines, pattern)]
    assert len(found) == len(set(found))
    assert set(found) == _groupings_the_plain_way(prover, machines, pattern)


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


def test_known_extra_costs_refute_a_pattern_without_solving_a_block():
    """The prover skips a pattern's board model when the blocks' extra costs known already refute it."""
    calls = []

    def fake(block, pipes, board, centre) -> str:
        calls.append(pipes)
        return "refuted" if len(block.machines) > 1 and pipes < 2 else "found"

    prover = LocalProver(FF, CATALOG, fake)
    total = sum(b.relaxed for b in prover.partitions(SET, PATTERN)[0])
    assert prover.refuted_by_known(SET, PATTERN, total + 1)   # above the relaxation: nothing to know
    assert not prover.refuted_by_known(SET, PATTERN, total)    # nothing is known yet
    assert prover.refute(SET, PATTERN, total - 1) == "refuted"
    solved = len(calls)
    assert prover.refuted_by_known(SET, PATTERN, total - 1)
    assert not prover.refuted_by_known(SET, PATTERN, total - 2)   # the big block may still cost 2
    assert len(calls) == solved


def test_a_patterns_effort_is_its_slowest_block_so_far():
    """The prover starts the patterns whose blocks were slowest first; nothing solved: no effort."""
    def slow(block, pipes, board, centre) -> str:
        time.sleep(0.05 if len(block.machines) > 1 else 0.0)
        return "refuted" if len(block.machines) > 1 and pipes < 1 else "found"

    prover = LocalProver(FF, CATALOG, slow)
    assert prover.effort(SET, PATTERN) == 0.0
    total = sum(b.relaxed for b in prover.partitions(SET, PATTERN)[0])
    prover.refute(SET, PATTERN, total)
    assert 0.05 <= prover.effort(SET, PATTERN) < 1.0


def test_machines_supplied_with_one_colour_stand_in_one_component():
    """Components never share a container: with one blue container, FF25 and FF41 (both supplied blue)
    are one component; FF33 (blue +) brings a second, and then two components may each hold one."""
    prover = LocalProver(FF, CATALOG, _never_called)
    supplied = {("FF25", "Sa"): 0, ("FF41", "W"): 0}
    groupings = [sorted(b.machines for b in blocks) for blocks in prover.partitions(["FF25", "FF41"], supplied)]
    assert groupings == [[("FF25", "FF41")]]
    supplied |= {("FF33", "Na"): 0, ("FF33", "Sa"): 0}
    groupings = [sorted(b.machines for b in blocks) for blocks in prover.partitions(["FF25", "FF33", "FF41"], supplied)]
    assert [("FF25",), ("FF33", "FF41")] in groupings
    assert [("FF25",), ("FF33",), ("FF41",)] not in groupings  # three blue containers, two in stock
    parted = next(blocks for blocks in prover.partitions(["FF25", "FF33", "FF41"], supplied) if len(blocks) == 2
                  and ("FF25",) in [b.machines for b in blocks])
    # each block may use what the other leaves: one of the two blue containers each
    assert [b.stock.allowed("blue") for b in parted] == [1, 1]
    together = next(blocks for blocks in prover.partitions(["FF25", "FF33", "FF41"], supplied) if len(blocks) == 1)
    assert together[0].stock.allowed("blue") == 2


def test_a_component_may_use_containers_a_machine_elsewhere_brought():
    """Two green containers are legal once FF11 (green +) stands, even in another component: a block's
    model and its growth take the player's stock (`stock`), not what the block's own machines allow."""
    layout = make_layout(**plus(FF29_OK, [("FF46", (5, 2), 0)], [("supply", (6, 2), "green"), ("output", (4, 3))]))
    assert [v.rule for v in check_layout(layout).violations] == ["supply-limit"]
    verdicts = []
    for stock in (None, SupplyStock.of(FF, [CATALOG[m] for m in ("FF11", "FF29", "FF46")])):
        built = build_static_model(FF, layout.board, CATALOG, layout.machine_ids, stock=stock)
        fix_to_layout(built, layout)
        verdicts.append(run(built, 10.0, workers=1).status)
    assert verdicts == ["INFEASIBLE", "OPTIMAL"]
    board, centre = patch(FF.geometry, 6)
    lone = {("FF29", "W"): 0, ("FF46", "Sa"): 0}
    none = SupplyStock((), default=0, any_colour=0)
    assert grow_block(FF, CATALOG, ("FF29",), lone, 2, 2, board, centre)[0] == "found"
    assert grow_block(FF, CATALOG, ("FF29",), lone, 2, 2, board, centre, none)[0] == "refuted"


def test_a_two_pipe_budget_is_refuted_on_one_patch_not_164_board_parts():
    """(The networks-only relaxation's pattern: with the triangle cuts the set's bound is 30.)"""
    board = load_boards(FF)["classic-A"]
    patterns = fed_patterns(FF, CATALOG, SET, 32, pair_cuts=False)
    assert [p.relaxed - 32 for p in patterns] == [2]
    setup = prove._Setup(FF, board, CATALOG, SET, False, None, time.monotonic() + 60, None)
    prover = LocalProver(FF, CATALOG, prove._block_solver(setup, 1))
    assert prover.refute(SET, patterns[0].fed, 32) == "refuted"


@pytest.mark.parametrize("machines", [SET, ["FF16", "FF27", "FF30", "FF46"], ["FF28", "FF30", "FF42", "FF45"]])
def test_every_component_of_a_real_layout_fits_its_patch(machines):
    """The radius argument, checked on solver layouts: each component, at its own extra cost, fits around each machine."""
    prover = LocalProver(FF, CATALOG, lambda *_: "unknown")
    _assert_components_fit_their_patches(solved_layout(FF, CATALOG, machines), prover)


def _assert_components_fit_their_patches(layout, prover: LocalProver) -> None:
    """Each component of `layout`, at its own extra cost, lies within the prover's radius of each of its machines."""
    catalog = prover.catalog
    for part in component_blocks(layout, catalog, prover):
        tiles = sum(t.cost for t in layout.tiles if t.cell in part.cells)
        score = sum(catalog[m].income for m in part.ids) - tiles + sum(
            c.bonus for c in part.check.score.chain_inputs if c.machine in part.ids)
        radius = prover.radius(part.block, part.block.relaxed - score)
        for i in part.machines:
            reach = ball(prover.ruleset.geometry, layout.machines[i].cell, radius)
            assert part.cells <= set(reach), f"{part.ids}: a cell lies beyond radius {radius} of {layout.machines[i].id}"


def test_two_threads_asking_the_same_block_solve_it_once_and_raise_it_once():
    """Fed patterns are refuted side by side (solver/prove.py) and share blocks: a block asked at the
    same budget by two threads is solved once, and its bound rises by one, not two."""
    import threading
    calls = []
    started = threading.Event()

    def slow(block, pipes, board, centre) -> str:
        calls.append((block.machines, pipes))
        started.set()
        time.sleep(0.3)
        return "refuted"

    prover = LocalProver(FF, CATALOG, slow)
    block = prover._block(["FF27", "FF28", "FF43"], PATTERN)
    answers = []
    first = threading.Thread(target=lambda: answers.append(prover._raise(block)))
    first.start()
    started.wait(5)
    answers.append(prover._raise(block))  # asked while the first thread's solve runs
    first.join()
    assert answers == ["refuted", "refuted"]
    assert calls == [(block.machines, 0)]
    assert prover.extras[block].low == 1


@pytest.mark.parametrize("machines", [["FN45", "FN48"], ["FN16", "FN01"], ["FN34", "FN48", "FN27"]])
def test_a_funner_component_fits_the_patch_of_its_one_sided_tanks(machines):
    """A Funner tank opens on one side, so it is a leaf: a path from a machine holds one tank, at its end, and
    the patch shrinks (FN45,FN48 at three spare pipes: radius 5, 91 hexes, where counting a tank after every
    machine and pipe gave 8 and 217). Checked on solver layouts as the square radius is above."""
    funner = get_ruleset("factory-funner")
    catalog = load_catalog(funner)
    layout = solve_static(funner, load_boards(funner)["A"], catalog, machines, time_limit=5, seed=1).layout
    prover = LocalProver(funner, catalog, lambda *_: "unknown")
    if machines == ["FN45", "FN48"]:
        pattern = {("FN45", "E"): 0, ("FN45", "SE"): 0, ("FN48", "E"): 0, ("FN48", "SE"): 1}
        assert prover.radius(prover._block(machines, pattern), 3) == 5
    _assert_components_fit_their_patches(layout, prover)
