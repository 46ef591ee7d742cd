"""Exact block solves by growth (solver/grow.py): the same answers as CP-SAT, and no legal component missed."""
from __future__ import annotations

import itertools
import time

import pytest

from models.board import load_boards
from models.catalog import load_catalog
from models.check import check_layout
from models.geometry import Cell
from models.rulesets import get_ruleset
from solver import prove
from models.stock import SupplyStock
from solver.grow import (UNREACHABLE, _Grower, grow_block, growth_order, pipe_contents, stranded_outputs, supports,
                         tank_bound_ports)
from solver.local import LocalProver, fewest_tanks, patch
from solver.prove import fed_patterns
from solver.sketch import sketch_layout
from components import component_blocks, solved_layout

FF = get_ruleset("factory-fun")
CATALOG = load_catalog(FF)
SET = ["FF09", "FF27", "FF28", "FF43"]
#: classic-A FF28,FF30,FF42,FF45 with FF30's green input fed, every other input supplied
FOUR = ("FF28", "FF30", "FF42", "FF45")
FF30_FED = {("FF28", "W"): 0, ("FF28", "Sa"): 0, ("FF30", "Na"): 1, ("FF30", "Sa"): 0,
            ("FF42", "W"): 0, ("FF42", "Sa"): 0, ("FF45", "W"): 0, ("FF45", "Na"): 0}


def _started(limit: int, radius: int) -> _Grower:
    """Growth of that block (six tanks at least), its first machine (FF42) laid at the patch centre."""
    board, centre = patch(FF.geometry, radius)
    grower = _Grower(FF, CATALOG, growth_order(CATALOG, FOUR, FF30_FED), FF30_FED, limit, 6, board,
                     SupplyStock.of(FF, (CATALOG[m] for m in FOUR)), lambda: False)
    assert grower.start(centre)
    return grower


def _grow(block, pipes: int, prover: LocalProver, stop=lambda: False):
    board, centre = prover._patch_for(block, pipes)
    fewest = fewest_tanks(FF, CATALOG, block)
    return grow_block(FF, CATALOG, block.machines, block.pattern, fewest + pipes, fewest, board, centre, stop=stop)


def _blocks(machines: list[str], target: int) -> list:
    """Every block some fed pattern of `target` allows, whether or not a whole grouping takes it
    (the supply stock rules out groupings that part two machines supplied with one colour). The
    patterns are the networks-only relaxation's (no pair cuts): with the cuts,
    FF28,FF30,FF42,FF45's bound is its optimum, 26, and no pattern would reach 29."""
    prover = LocalProver(FF, CATALOG, lambda *_: "unknown")
    found = []
    for pattern in fed_patterns(FF, CATALOG, machines, target, pair_cuts=False):
        for size in range(len(machines), 0, -1):
            for group in itertools.combinations(sorted(machines), size):
                block = prover._block(list(group), pattern.fed)
                if block is not None and block not in found:
                    found.append(block)
    return found


def test_pipe_fillings_follow_the_connector_rules():
    contents = pipe_contents(FF)
    # 6 two-sided, 4 three-sided, 1 four-sided connector, and 3 ways to put two pipes in a cell
    assert len(contents) == 14
    assert sum(len(c) == 2 for c in contents) == 3
    no_x = pipe_contents(FF.__class__(**{**FF.__dict__, "x_splitter_available": False}))
    assert len(no_x) == 13
    assert not supports(get_ruleset("factory-funner"), False) and not supports(FF, True) and supports(FF, False)


@pytest.mark.parametrize("machines,target", [(SET, 31), (["FF28", "FF30", "FF42", "FF45"], 29)])
def test_growth_agrees_with_cp_sat_on_small_budgets(machines, target):
    """The same verdict for the blocks of up to three machines of a 4-machine set, at 0 and 1 spare pipes.

    (Four-machine blocks with seven tanks take CP-SAT minutes; growth refutes them in seconds.)
    """
    deadline = time.monotonic() + 120
    prover = LocalProver(FF, CATALOG, lambda *_: "unknown")
    compared = 0
    for block in [b for b in _blocks(machines, target) if len(b.machines) <= 3][:8]:
        for pipes in (0, 1):
            verdict, layout = _grow(block, pipes, prover)
            patch_board, centre = prover._patch_for(block, pipes)
            expected = _cp_sat_verdict(deadline, block, pipes, patch_board, centre)
            assert verdict == expected, f"{block.machines} at {pipes} spare pipes: growth {verdict}, CP-SAT {expected}"
            compared += 1
            if verdict == "found":
                assert check_layout(layout).legal
                break
    assert compared >= 3


def _cp_sat_verdict(deadline: float, block, pipes: int, board, centre) -> str:
    """The patch model on CP-SAT alone, as the prover used it before growth."""
    setup = prove._Setup(FF, board, CATALOG, list(block.machines), False, None, deadline, None)
    return prove.patch_verdict(setup, block, pipes, board, centre, 1)


def test_three_spare_pipes_are_refuted_for_the_orange_chain():
    """classic-A FF27 feeding FF28 and FF43: 0-2 spare pipes refuted (CP-SAT agreed; 3 took it 318 s)."""
    prover = LocalProver(FF, CATALOG, lambda *_: "unknown")
    chain = next(b for b in _blocks(SET, 31) if b.machines == ("FF27", "FF28", "FF43"))
    assert [_grow(chain, pipes, prover)[0] for pipes in (0, 1, 2)] == ["refuted"] * 3


def test_a_stop_request_ends_growth_as_unknown():
    prover = LocalProver(FF, CATALOG, lambda *_: "unknown")
    chain = next(b for b in _blocks(SET, 31) if b.machines == ("FF27", "FF28", "FF43"))
    assert _grow(chain, 3, prover, stop=lambda: True)[0] == "unknown"


@pytest.mark.parametrize("machines,finds", [(SET, 1), (["FF16", "FF27", "FF30", "FF46"], 1),
                                            (["FF28", "FF30", "FF42", "FF45"], 0)])
def test_growth_never_refutes_a_component_of_a_real_layout(machines, finds):
    """Completeness, checked on solver layouts: growth never refutes a component's own cost.

    A refutation would be a bug (a legal component the search cannot reach).
    Growth may run out of its 5 s on components with many tanks (the last set:
    one component of four machines and seven tanks); it must still find the
    others, and what it finds passes the checker.
    """
    layout = solved_layout(FF, CATALOG, machines)
    prover = LocalProver(FF, CATALOG, lambda *_: "unknown")
    found = 0
    for part in component_blocks(layout, CATALOG, prover):
        ids, block = part.ids, part.block
        cost = sum(t.cost for t in layout.tiles if t.cell in part.cells)
        fewest = fewest_tanks(FF, CATALOG, block)
        board_, centre = patch(FF.geometry, prover.radius(block, cost - fewest))
        deadline = time.monotonic() + 5
        verdict, grown = grow_block(FF, CATALOG, block.machines, block.pattern, cost, fewest, board_, centre,
                                    stop=lambda: time.monotonic() > deadline)
        assert verdict != "refuted", f"{ids}: growth refutes cost {cost}, but a real layout has such a component"
        if verdict == "found":
            found += 1
            assert check_layout(grown).legal
            assert sum(t.cost for t in grown.tiles) <= cost
    assert found >= finds


def test_growth_starts_from_the_machine_most_bound_to_tanks():
    """FF42's three ports all end at tanks (two supplied inputs, a blue output nothing in the block takes);
    FF28 feeds FF30, so only two of its ports do."""
    pattern, machines = FF30_FED, FOUR
    assert [tank_bound_ports(CATALOG, machines, pattern, m) for m in machines] == [2, 2, 3, 2]
    assert growth_order(CATALOG, machines, pattern) == ("FF42", "FF28", "FF30", "FF45")
    # fed by FF27, FF43's orange output still has a taker: FF28.Sa
    chain = {("FF27", "Na"): 0, ("FF28", "W"): 0, ("FF28", "Sa"): 1, ("FF43", "W"): 1}
    assert growth_order(CATALOG, ("FF27", "FF28", "FF43"), chain)[0] == "FF28"


def test_growth_answers_the_same_from_every_start():
    """The start is free (open ground, a radius that holds from any machine): each start gives one verdict."""
    prover = LocalProver(FF, CATALOG, lambda *_: "unknown")
    chain = next(b for b in _blocks(SET, 31) if b.machines == ("FF27", "FF28", "FF43"))
    fewest = fewest_tanks(FF, CATALOG, chain)
    for pipes, expected in ((1, "refuted"), (4, "found")):
        board, centre = prover._patch_for(chain, pipes)
        for first in chain.machines:
            grower = _Grower(FF, CATALOG, (first,) + tuple(m for m in chain.machines if m != first),
                             chain.pattern, fewest + pipes, fewest, board, SupplyStock.of(
                                 FF, (CATALOG[m] for m in chain.machines)), lambda: False)
            assert grower.start(centre)
            assert ("found" if grower.search() else "refuted") == expected, (first, pipes)


def test_a_full_memo_is_emptied_without_changing_the_answer(monkeypatch):
    """Forgetting searched states only repeats work: the same verdicts with a memo of ten states."""
    import solver.grow as grow
    prover = LocalProver(FF, CATALOG, lambda *_: "unknown")
    chain = next(b for b in _blocks(SET, 31) if b.machines == ("FF27", "FF28", "FF43"))
    monkeypatch.setattr(grow, "MEMO_STATES", 10)
    assert [_grow(chain, pipes, prover)[0] for pipes in (1, 2, 4)] == ["refuted", "refuted", "found"]


def test_each_stranded_output_colour_needs_a_reservoir_of_its_own():
    """FF42's blue output and FF30's red output have no taker when FF30.Na is fed: two reservoirs are
    missing until one stands on FF42's blue network, and a reservoir serves only its network's colour."""
    pattern, machines = FF30_FED, FOUR
    assert [p.at for p in stranded_outputs(CATALOG, machines, pattern, "FF42")] == ["Nb"]
    assert stranded_outputs(CATALOG, machines, pattern, "FF28") == []  # FF30.Na takes its green
    grower = _started(12, 4)
    assert grower.stranded_colours == ["blue", "red"] and grower._reservoirs_missing() == 2
    faced = {grower.active[key].spec.at: grower.geometry.across(*key) for key in grower.active}
    grower._place([faced["Nb"]], ("tank", "output", None), {}, 1)
    assert grower._reservoirs_missing() == 1  # the red one


def test_ports_that_must_join_laid_networks_count_the_pipes_they_need():
    """Once FF42's blue and orange containers stand (one per colour), FF28's blue and orange inputs can only
    join those networks. No placement of FF28 meets both containers, and one that meets one leaves the
    other two pipes away, so growth needs two pipes beside the three tanks still missing."""
    verdicts = {}
    for limit in (7, 8):
        grower = _started(limit, 4)
        faced = {grower.active[key].spec.at: grower.geometry.across(*key) for key in grower.active}
        for at, tank in (("W", ("supply", "blue")), ("Sa", ("supply", "orange")), ("Nb", ("output", None))):
            grower._place([faced[at]], ("tank",) + tank, {}, 1)
        forced = grower._forced_joins()
        index, first = grower.machines.index("FF28"), grower.machines.index("FF42")
        assert sorted(forced) == sorted([index, first])
        assert [(p.at, target) for p, target in forced[index]] == [("W", ("supply", "blue")),
                                                                   ("Sa", ("supply", "orange"))]
        networks, frontiers = grower._target_networks(forced)
        assert grower._unreached(index, forced[index], frontiers) == (
            2, {("supply", "blue"): 0, ("supply", "orange"): 0})
        # FF42's own inputs stand on those networks: they need nothing more
        assert grower._laid_needs(first, forced[first], networks, frontiers) == {
            ("supply", "blue"): 0, ("supply", "orange"): 0}
        verdicts[limit] = grower._joins_unaffordable(grower._reservoirs_missing())
    # cost 3, three tanks missing (red and green containers, a red reservoir): 3 + 3 + 2 > 7, not > 8
    assert verdicts == {7: True, 8: False}


def _orange_container_beyond(gap: int) -> tuple[_Grower, list[Cell]]:
    """FF42 started; the only orange container stands `gap` empty cells beyond its orange input, in a
    straight line (returned: those cells, nearest first)."""
    grower = _started(20, 6)
    (cell, side), = [key for key, port in grower.active.items() if port.spec.at == "Sa"]
    line = [grower.geometry.across(cell, side)]
    for _ in range(gap):
        line.append(grower.geometry.across(line[-1], side))
    grower._place([line[-1]], ("tank", "supply", "orange"), {}, 1)
    return grower, line[:-1]


def _orange_need(grower: _Grower) -> dict[tuple, int]:
    forced = grower._forced_joins()
    first = grower.machines.index("FF42")
    assert [(p.at, t) for p, t in forced[first]] == [("Sa", ("supply", "orange"))]
    networks, frontiers = grower._target_networks(forced)
    return grower._laid_needs(first, forced[first], networks, frontiers)


@pytest.mark.parametrize("gap,need", [(1, 1), (2, 2), (3, 3), (5, 5)])
def test_a_standing_input_off_its_colours_only_container_needs_pipes_to_reach_it(gap, need):
    """FF42's orange input faces an empty cell; the only orange container stands `gap` empty cells beyond
    it in a straight line. One pipe between them joins them at gap 1; at gap k it takes k (growth
    counted at most two before, so a state five cells short stayed open at three spare pipes)."""
    grower, _ = _orange_container_beyond(gap)
    assert _orange_need(grower) == {("supply", "orange"): need}


def test_a_network_laid_between_a_port_and_its_target_shortens_the_path():
    """A straight pipe laid across the line in the middle, open at both ends along it, is a network that
    could join both: the path through it needs pipes only on the cells either side, 2 instead of 3;
    a pipe turned across the line joins neither side: the path goes round it, five cells."""
    grower, line = _orange_container_beyond(3)
    (_, side), = [key for key, port in grower.active.items() if port.spec.at == "Sa"]
    back = grower.geometry.opposite(side)
    along = ((side, back),)
    grower._place([line[1]], ("pipe", along), grower._pipe_openings(line[1], frozenset(along[0])), 1)
    assert _orange_need(grower) == {("supply", "orange"): 2}
    turned, = [s for s in grower.geometry.sides if s not in (side, back)][:1]
    across = ((turned, grower.geometry.opposite(turned)),)
    crossways, _ = _orange_container_beyond(3)
    crossways._place([line[1]], ("pipe", across), crossways._pipe_openings(line[1], frozenset(across[0])), 1)
    assert _orange_need(crossways) == {("supply", "orange"): 5}


def test_output_reservoirs_left_may_stand_in_for_pipes_on_the_way_to_a_feeder():
    """A fed input's path to its feeders may hold reservoirs (they join through networks laid between
    them): k tiles need k pipes less the reservoirs left in the stock, never fewer than none."""
    grower = _started(20, 4)
    assert grower._pipes_for(("fed", "green"), 2) == 0      # three reservoirs left
    assert grower._pipes_for(("fed", "green"), 5) == 2
    assert grower._pipes_for(("supply", "orange"), 5) == 5  # supplies take no reservoir
    faced = {grower.active[key].spec.at: grower.geometry.across(*key) for key in grower.active}
    grower._place([faced["Nb"]], ("tank", "output", None), {}, 1)
    assert grower._pipes_for(("fed", "green"), 5) == 3


def test_options_that_would_break_a_network_are_not_offered():
    """A straight pipe out of FF42's orange input: the cell beyond it may hold the orange container but not
    the blue one (the pipe end alone says nothing; the network it belongs to does), and the only machine
    port that may stand there is FF28's orange input, supplied from the same container."""
    grower = _started(20, 5)
    (cell, side), = [key for key, port in grower.active.items() if port.spec.at == "Sa"]
    back = grower.geometry.opposite(side)
    pipe_cell = grower.geometry.across(cell, side)
    grower._place([pipe_cell], ("pipe", ((side, back),) if side < back else ((back, side),)),
                  {(pipe_cell, side): None, (pipe_cell, back): None}, 1)
    beyond = grower.geometry.across(pipe_cell, side)
    options = grower._options(beyond, back)
    tanks = {content[1:] for _, content, _, _ in options if content[0] == "tank"}
    assert ("supply", "orange") in tanks and ("supply", "blue") not in tanks
    assert ("output", None) not in tanks  # a reservoir needs an output, which may not meet a supplied input
    # another machine's supplied orange input may share the container; an output (or a blue input) may not
    ports = [(grower.machines[openings[(beyond, back)].machine], openings[(beyond, back)].spec.at)
             for _, content, openings, _ in options if content[0] == "machine"]
    assert sorted(set(ports)) == [("FF28", "Sa")]


#: (board, machines, sketch seed): varied components with few spare pipes, found by sketching
SKETCHED = [("classic-A", ["FF37", "FF52", "FF55"], 32), ("classic-C", ["FF29", "FF32", "FF49"], 83),
            ("expert-B", ["FF22", "FF28", "FF33", "FF46", "FF47"], 85), ("classic-C", ["FF19", "FF20", "FF38"], 64)]


@pytest.mark.parametrize("board_id,machines,seed", SKETCHED)
def test_growth_never_refutes_a_component_of_a_sketched_layout(board_id, machines, seed):
    """Completeness on layouts no solver tuned: every component of a sketch (solver/sketch), at its own cost,
    is found or left unknown by growth, never refuted; and a component growth finds is real, so growth
    must find one again at that component's own cost, where nothing is spare (a sketch is seldom the
    cheapest, so its own cost alone would leave room for a rule that prunes too much). A refutation
    would make the prover's bounds wrong."""
    layout = sketch_layout(FF, load_boards(FF)[board_id], CATALOG, machines, seed=seed, time_limit=20)
    assert layout is not None
    prover = LocalProver(FF, CATALOG, lambda *_: "unknown")
    stock = SupplyStock.of(FF, (CATALOG[m] for m in machines))
    regrown = 0
    for part in component_blocks(layout, CATALOG, prover):
        ids, block = part.ids, part.block
        assert block is not None, f"{ids}: the relaxation refutes a real component"
        fewest = fewest_tanks(FF, CATALOG, block)
        cost = sum(t.cost for t in layout.tiles if t.cell in part.cells)
        for attempt in ("sketch", "grown"):
            board, centre = patch(FF.geometry, prover.radius(block, cost - fewest))
            deadline = time.monotonic() + 5
            verdict, grown = grow_block(FF, CATALOG, block.machines, block.pattern, cost, fewest, board, centre,
                                        stock, stop=lambda: time.monotonic() > deadline)
            assert verdict != "refuted", f"{ids}: growth refutes cost {cost}, but the {attempt} has such a component"
            if verdict != "found":
                break
            assert check_layout(grown).legal
            cost = sum(t.cost for t in grown.tiles)
        else:
            regrown += 1
    assert regrown >= 1, "growth found no component twice within 5 s each: the test checks nothing"


def test_a_port_can_never_join_a_target_network_with_no_free_side():
    """The only orange container walled in by pipes that turn away from it: FF42's orange input can never
    reach it, so growth gives the state up whatever the limit (the path count has no path to count)."""
    grower, line = _orange_container_beyond(2)
    geometry = grower.geometry
    (_, side), = [key for key, port in grower.active.items() if port.spec.at == "Sa"]
    container = geometry.across(line[-1], side)
    for towards in geometry.sides:
        cell = geometry.across(container, towards)
        turned = tuple(s for s in geometry.sides if s not in (towards, geometry.opposite(towards)))
        grower._place([cell], ("pipe", (turned,)), grower._pipe_openings(cell, frozenset(turned)), 1)
    assert _orange_need(grower) == {("supply", "orange"): UNREACHABLE}
