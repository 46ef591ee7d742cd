"""The pure-Python sketch: complete legal layouts of all machines, fast, or None.

Every layout is judged by the rule checker here as well as inside the sketch,
so a bookkeeping error in the sketch can never pass unnoticed.
"""
from __future__ import annotations

import random

import pytest

import solver.sketch as sketch
from models.board import load_boards
from models.catalog import load_catalog
from models.check import check_layout
from models.layout import Layout
from models.rulesets import get_ruleset
from solver.sketch import sketch_layout

FF = get_ruleset("factory-fun")
FN = get_ruleset("factory-funner")
FF_CATALOG, FN_CATALOG = load_catalog(FF), load_catalog(FN)
CLASSIC_A = load_boards(FF)["classic-A"]
BOARD_A = load_boards(FN)["A"]


def random_set(catalog, size: int, seed: int) -> list[str]:
    return random.Random(seed).sample(sorted(catalog.machines), size)


def assert_complete_and_legal(layout: Layout | None, ids: list[str]) -> None:
    assert layout is not None
    result = check_layout(layout)
    assert result.legal, [v.to_dict() for v in result.violations]
    assert sorted(layout.machine_ids) == sorted(ids)


@pytest.mark.parametrize("size", [4, 6, 8])
@pytest.mark.parametrize("seed", [0, 1])
def test_square_sets_get_a_legal_layout_with_every_machine(size, seed):
    ids = random_set(FF_CATALOG, size, seed)
    assert_complete_and_legal(sketch_layout(FF, CLASSIC_A, FF_CATALOG, ids, seed=seed), ids)


@pytest.mark.parametrize("size", [4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1])
def test_funner_sets_get_a_legal_layout_with_every_machine(size, seed):
    ids = random_set(FN_CATALOG, size, seed)
    layout = sketch_layout(FN, BOARD_A, FN_CATALOG, ids, seed=seed)
    assert_complete_and_legal(layout, ids)
    assert all(t.side is not None for t in layout.tiles if t.kind != "pipe")  # hex tanks are oriented


def test_chains_outputs_into_inputs_when_it_can():
    # FF04 (red in, green 1 out) and FF46 (green 1 in, green 2 out): FF04 should feed FF46
    layout = sketch_layout(FF, CLASSIC_A, FF_CATALOG, ["FF04", "FF46"], seed=0)
    assert_complete_and_legal(layout, ["FF04", "FF46"])
    assert check_layout(layout).score.chain_bonus == 5


def test_a_given_feeding_order_is_followed_and_the_result_is_legal():
    ids = random_set(FF_CATALOG, 6, 3)
    layout = sketch_layout(FF, CLASSIC_A, FF_CATALOG, ids, seed=3, order=list(reversed(ids)))
    assert_complete_and_legal(layout, ids)


def test_same_seed_same_layout():
    ids = random_set(FF_CATALOG, 5, 4)
    first = sketch_layout(FF, CLASSIC_A, FF_CATALOG, ids, seed=7)
    second = sketch_layout(FF, CLASSIC_A, FF_CATALOG, ids, seed=7)
    assert first is not None and second is not None
    assert first.to_dict() == second.to_dict()


def test_fixed_machines_and_tiles_stay_exactly_as_they_are():
    ids = random_set(FF_CATALOG, 7, 51)
    fixed = sketch_layout(FF, CLASSIC_A, FF_CATALOG, ids[:3], seed=1)
    assert fixed is not None
    layout = sketch_layout(FF, CLASSIC_A, FF_CATALOG, ids, seed=1, fixed=fixed)
    assert_complete_and_legal(layout, ids)
    assert layout.machines[:len(fixed.machines)] == fixed.machines
    assert layout.tiles[:len(fixed.tiles)] == fixed.tiles


def test_fixed_machines_without_tiles_get_their_ports_connected():
    """Funner machines never move: keep them where they stand and lay all pipes anew."""
    ids = random_set(FN_CATALOG, 6, 2)
    earlier = sketch_layout(FN, BOARD_A, FN_CATALOG, ids[:3], seed=0)
    assert earlier is not None
    fixed = earlier.with_parts(tiles=())
    assert not check_layout(fixed).legal  # its ports are loose
    layout = sketch_layout(FN, BOARD_A, FN_CATALOG, ids, seed=0, fixed=fixed)
    assert_complete_and_legal(layout, ids)
    assert layout.machines[:3] == fixed.machines


def test_a_fixed_machines_input_may_wait_for_a_machine_still_to_place_that_feeds_it():
    """QA pass 51: FF55 fixed at [7, 7] on classic-D drank orange from a supply tank laid before FF50 (which
    makes orange) was placed, in every attempt: 17, where FF50 feeding it scores 28. Inputs now wait in half
    the attempts for a machine of the order that makes their colour."""
    from models.layout import parse_layout
    from solver.sketch import best_sketch, static_score

    fixed = parse_layout({"ruleset": "factory-fun", "board": "classic-D", "tiles": [],
                          "machines": [{"id": "FF55", "cell": [7, 7], "rotation": 180}]})
    layout = best_sketch(FF, load_boards(FF)["classic-D"], FF_CATALOG, ["FF55", "FF50", "FF26"], seed=0,
                         fixed=fixed, time_limit=2.0)
    assert_complete_and_legal(layout, ["FF55", "FF50", "FF26"])
    assert layout.machines[0] == fixed.machines[0]
    assert check_layout(layout).score.chain_bonus > 0 and static_score(layout) >= 24


@pytest.mark.parametrize("ruleset, board, catalog, count", [(FF, CLASSIC_A, FF_CATALOG, 20), (FN, BOARD_A, FN_CATALOG, 30)])
def test_a_set_that_cannot_fit_gives_none(ruleset, board, catalog, count):
    ids = sorted(catalog.machines)[:count]
    assert sketch_layout(ruleset, board, catalog, ids, time_limit=1.0) is None


def test_never_returns_a_layout_the_checker_rejects(monkeypatch):
    class Rejected:
        legal = False
        violations = []

    monkeypatch.setattr(sketch.search, "check_layout", lambda layout: Rejected())
    ids = random_set(FF_CATALOG, 3, 0)
    assert sketch_layout(FF, CLASSIC_A, FF_CATALOG, ids, time_limit=0.5) is None


def test_best_sketch_ranks_by_the_worth_it_is_given():
    """A cost solve ranks sketches by minus their cost; it used to keep the highest static score."""
    from solver.sketch import best_sketch

    ids = random_set(FF_CATALOG, 3, 2)
    seen: list[Layout] = []

    def by_cost(layout: Layout) -> int:
        seen.append(layout)
        return -check_layout(layout).score.cost

    cheapest = best_sketch(FF, CLASSIC_A, FF_CATALOG, ids, seed=1, time_limit=1.5, worth=by_cost)
    assert cheapest is not None and len(seen) > 1
    costs = [check_layout(layout).score.cost for layout in seen]
    assert check_layout(cheapest).score.cost == min(costs)


@pytest.mark.parametrize("pipes", [
    [{"kind": "pipe", "cell": [4, 4], "sides": ["S", "E"]}],
    [{"kind": "pipe", "cell": [4, 4], "sides": ["S", "E"]}, {"kind": "pipe", "cell": [4, 5], "sides": ["W", "N"]}],
])
def test_a_fixed_pipe_at_a_fixed_machines_port_is_routed_on_from_its_open_end(pipes):
    """QA: FF25 fixed with a pipe or two at its input, FF39 beside it: frozen pipes were never extended, so
    their open end was a loose end no sketch could close, and the solve ended UNKNOWN."""
    from models.layout import parse_layout

    fixed = parse_layout({"ruleset": "factory-fun", "board": "classic-A", "tiles": pipes,
                          "machines": [{"id": "FF25", "cell": [5, 4], "rotation": 180}]}, "fixed.json")
    assert not check_layout(fixed).legal   # the open end
    for seed in range(3):
        layout = sketch_layout(FF, CLASSIC_A, FF_CATALOG, ["FF25", "FF39"], seed=seed, fixed=fixed)
        assert_complete_and_legal(layout, ["FF25", "FF39"])
        assert layout.machines[:1] == fixed.machines and layout.tiles[:len(pipes)] == fixed.tiles



def test_a_fixed_supply_pipe_ending_at_a_fixed_machines_input_cell_is_joined_to_it():
    """QA: FF39,FF08,FF25's optimum (25) fixed without its one pipe between the red container's pipe and FF08's
    input: both faced the same empty cell, the input's reservation kept the pipe's end from waiting there, and
    no sketch could close it (CP-SAT alone took 6 s with one worker)."""
    from models.layout import parse_layout

    fixed = parse_layout({"ruleset": "factory-fun", "board": "classic-A", "machines": [
        {"id": "FF39", "cell": [7, 2], "rotation": 0}, {"id": "FF08", "cell": [7, 4], "rotation": 0},
        {"id": "FF25", "cell": [5, 4], "rotation": 180}], "tiles": [
        {"kind": "supply", "color": "blue", "cell": [4, 4]}, {"kind": "end", "cell": [5, 2]},
        {"kind": "supply", "color": "red", "cell": [6, 2]}, {"kind": "supply", "color": "green", "cell": [7, 1]},
        {"kind": "output", "cell": [7, 6]}, {"kind": "pipe", "cell": [6, 3], "sides": ["E", "W"]}]}, "fixed.json")
    _the_one_pipe_is_laid(fixed, ["FF39", "FF08", "FF25"], (6, 4), 25)


def test_a_fixed_output_pipe_ending_at_a_fixed_machines_input_cell_is_joined_to_it():
    """The same with an output's pipe (sweep of single tiles cut from optima): FF09,FF27,FF28,FF43's optimum (30)
    without the pipe between FF43's output pipe and FF28's input, which faced the same empty cell."""
    from models.layout import parse_layout

    fixed = parse_layout({"ruleset": "factory-fun", "board": "classic-A", "machines": [
        {"id": "FF09", "cell": [0, 0], "rotation": 90}, {"id": "FF27", "cell": [0, 2], "rotation": 90},
        {"id": "FF28", "cell": [0, 4], "rotation": 0}, {"id": "FF43", "cell": [2, 2], "rotation": 0}], "tiles": [
        {"kind": "supply", "color": "red", "cell": [0, 1]}, {"kind": "supply", "color": "blue", "cell": [0, 3]},
        {"kind": "output", "cell": [0, 6]}, {"kind": "end", "cell": [2, 0]},
        {"kind": "pipe", "cell": [1, 1], "sides": ["E", "S"]}, {"kind": "pipe", "cell": [2, 1], "sides": ["N", "E"]},
        {"kind": "pipe", "cell": [2, 4], "sides": ["N", "W"]}]}, "fixed.json")
    _the_one_pipe_is_laid(fixed, ["FF09", "FF27", "FF28", "FF43"], (1, 4), 30)



def test_two_fixed_pipe_ends_and_a_fixed_input_meeting_in_one_cell_are_joined_there():
    """QA: FF40,FF12,FF07's optimum (24) without its T between the blue container's pipe, FF07's input pipe and
    FF12's input, all three facing one empty cell: CP-SAT alone took 4 s with one worker."""
    from models.layout import parse_layout

    fixed = parse_layout({"ruleset": "factory-fun", "board": "classic-A", "machines": [
        {"id": "FF40", "cell": [7, 2], "rotation": 0}, {"id": "FF12", "cell": [6, 4], "rotation": 0},
        {"id": "FF07", "cell": [5, 6], "rotation": 0}], "tiles": [
        {"kind": "supply", "color": "green", "cell": [5, 5]}, {"kind": "output", "cell": [5, 8]},
        {"kind": "supply", "color": "red", "cell": [6, 2]}, {"kind": "supply", "color": "blue", "cell": [7, 1]},
        *({"kind": "pipe", "cell": cell, "sides": sides} for cell, sides in [
            ([4, 4], ["E", "S"]), ([4, 5], ["E", "W"]), ([4, 6], ["S", "W"]), ([5, 1], ["E", "S"]),
            ([5, 2], ["E", "W"]), ([5, 3], ["E", "W"]), ([6, 1], ["N", "S"]), ([6, 6], ["N", "W"]),
            ([7, 4], ["N", "W"])])]}, "fixed.json")
    _the_one_pipe_is_laid(fixed, ["FF40", "FF12", "FF07"], (5, 4), 24)

def _the_one_pipe_is_laid(fixed: Layout, ids: list[str], cell: tuple[int, int], score: int) -> None:
    for seed in range(3):
        layout = sketch_layout(FF, CLASSIC_A, FF_CATALOG, ids, seed=seed, fixed=fixed, time_limit=1.0)
        assert_complete_and_legal(layout, ids)
        assert check_layout(layout).score.total == score
        assert any(t.kind == "pipe" and t.cell == cell for t in layout.tiles)

def test_a_hex_supply_tank_stands_at_its_port_when_no_input_to_come_wants_its_colour():
    """A hex tank opens on one side only, so it goes a pipe away from the port, leaving room for the colour's
    other inputs to branch; with none to come the pipe is waste (QA: a one-round Funner game planned FN21 at 6,
    a pipe before each tank, against 7). The other inputs' colours still keep it a pipe away."""
    for seed in range(3):
        alone = sketch_layout(FN, BOARD_A, FN_CATALOG, ["FN21"], seed=seed)
        assert alone is not None and sorted(t.kind for t in alone.tiles) == ["output", "supply", "supply"]
    ids = random_set(FN_CATALOG, 6, 2)
    assert_complete_and_legal(sketch_layout(FN, BOARD_A, FN_CATALOG, ids, seed=0), ids)


def test_a_fixed_reservoir_no_output_reaches_yet_draws_the_outputs_that_can_fill_it():
    """QA: 14 machines --optional with one fixed output reservoir scored 12 (64 without it): machines stood
    anywhere and the one coloured output was piped across the board to the reservoir. A position whose output
    faces the reservoir now ranks far above one across the board."""
    from builders import make_layout
    from models.stock import SupplyStock
    from solver.sketch.machines import _output_estimate
    from solver.sketch.state import Context, Costs, import_fixed, port_table

    fixed = make_layout(tiles=[("output", (4, 6))])
    ctx = Context(FF, CLASSIC_A, FF_CATALOG, port_table(FF_CATALOG, ["FF35"]), random.Random(0), Costs(),
                  SupplyStock.of(FF, [FF_CATALOG["FF35"]]), FF.output_limit, FF.end_limit)
    state = import_fixed(fixed)
    orange = next(port for port in FF_CATALOG["FF35"].outputs if not port.is_black)
    near, far = (_output_estimate(ctx, state, orange, facing, [], [], {}) for facing in ((4, 5), (0, 0)))
    assert near < 0 and near + 5 <= far


def test_a_halt_ends_a_sketch_attempt_midway_on_a_big_board():
    """QA pass 41: Ctrl-C 2 s into ten machines walked alone on a 40 x 40 board answered 9 s later: one attempt
    ran on to its deadline, testing position after position. `halt()` now ends it midway."""
    import time

    from models.board import Board
    from models.geometry import SQUARE
    from solver.sketch import best_sketch

    big = Board("big", SQUARE, frozenset((r, c) for r in range(40) for c in range(40)), frozenset(), frozenset(),
                40, 40)
    ids = ["FF01", "FF03", "FF07", "FF15", "FF18", "FF21", "FF25", "FF33", "FF39", "FF45"]
    began = time.monotonic()
    best_sketch(FF, big, FF_CATALOG, ids, seed=1, time_limit=30.0, halt=lambda: time.monotonic() - began > 0.5)
    assert time.monotonic() - began < 5.0   # (1.3 s alone, 3.1 s on a loaded machine; unhalted it runs to 30 s)
