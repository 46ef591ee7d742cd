"""The decomposition prover: fed patterns, then machine positions.

FF44+FF19+FF52 on classic-A is a small set whose geometry-free bound (25) is one
point above its optimum (24): no layout pays for the last pipe, which the
relaxation cannot see and the prover must.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

from models.board import load_boards
from models.catalog import load_catalog
from models.check import check_layout
from models.rulesets import get_ruleset
from solver import prove
from solver.bounds import reaching_patterns, topology_bound
from solver.prove import fed_patterns, prove_bound

FF = get_ruleset("factory-fun")
CATALOG = load_catalog(FF)
CLASSIC_A = load_boards(FF)["classic-A"]
SET = ["FF44", "FF19", "FF52"]
OPTIMUM, RELAXED = 24, 25


def test_the_relaxation_is_one_point_above_the_optimum():
    assert topology_bound(FF, CATALOG, SET).value == RELAXED


def test_fed_patterns_reach_the_target_and_thin_out_as_it_rises():
    low, high = fed_patterns(FF, CATALOG, SET, OPTIMUM - 10), fed_patterns(FF, CATALOG, SET, RELAXED)
    assert high and all(p.relaxed >= RELAXED for p in high)
    assert len(high) < len(low)
    inputs = {(m, p.at) for m in SET for p in CATALOG[m].inputs}
    assert all(set(p.fed) == inputs for p in low)
    assert fed_patterns(FF, CATALOG, SET, RELAXED + 1) == []


def test_patterns_found_one_at_a_time_are_those_that_trying_all_finds():
    four = ["FF16", "FF27", "FF30", "FF46"]
    for target in (20, 26, 30, 32, 33):
        tried = fed_patterns(FF, CATALOG, four, target)
        found = reaching_patterns(FF, CATALOG, four, target, most=1000)
        assert sorted(sorted(p.fed.items()) for p in tried) == sorted(sorted(p.items()) for p in found)
    assert reaching_patterns(FF, CATALOG, four, 33, most=1000) == []


def test_more_reaching_patterns_than_allowed_is_no_answer():
    four = ["FF16", "FF27", "FF30", "FF46"]
    assert len(reaching_patterns(FF, CATALOG, four, 20, most=1000)) == 3
    assert reaching_patterns(FF, CATALOG, four, 20, most=2) is None


def test_sets_with_many_inputs_get_their_patterns_one_at_a_time(monkeypatch):
    four = ["FF16", "FF27", "FF30", "FF46"]
    tried = fed_patterns(FF, CATALOG, four, 30)
    monkeypatch.setattr(prove, "MAX_INPUTS", 2)
    found = fed_patterns(FF, CATALOG, four, 30)
    assert sorted((sorted(p.fed.items()), p.relaxed) for p in found) == sorted(
        (sorted(p.fed.items()), p.relaxed) for p in tried)


def test_a_best_layout_one_point_under_the_relaxation_is_proved_optimal():
    outcome = prove_bound(FF, CLASSIC_A, CATALOG, SET, best=OPTIMUM, bound=RELAXED, deadline=time.monotonic() + 60)
    assert outcome.complete and outcome.bound == OPTIMUM


def test_the_top_down_proof_finds_the_optimum_when_the_best_known_is_worse():
    outcome = prove_bound(FF, CLASSIC_A, CATALOG, SET, best=OPTIMUM - 4, bound=RELAXED,
                          deadline=time.monotonic() + 120)
    assert outcome.complete and outcome.bound == OPTIMUM
    assert outcome.layout is not None
    result = check_layout(outcome.layout)
    assert result.legal and result.score.total == OPTIMUM


def test_no_time_proves_nothing():
    outcome = prove_bound(FF, CLASSIC_A, CATALOG, SET, best=OPTIMUM, bound=RELAXED, deadline=time.monotonic())
    assert not outcome.complete and outcome.bound == RELAXED


def test_a_split_stops_at_the_first_part_that_finds_a_layout(monkeypatch):
    """The old split solved every position before looking: a found layout waited for 160+ other parts."""
    calls = []

    def fake_part(setup, built, placement, limit):
        calls.append(placement)
        time.sleep(0.05)  # a part takes time; the ones after the find are never started
        return ("found", [0]) if len(calls) == 3 else ("refuted", None)

    setup = prove._Setup(FF, CLASSIC_A, CATALOG, SET, False, None, time.monotonic() + 60, None)
    [pattern, *_] = fed_patterns(FF, CATALOG, SET, RELAXED)
    built = prove._pattern_model(setup, pattern, RELAXED)
    monkeypatch.setattr(prove, "_solve_part", fake_part)
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert prove._split(setup, built, pool) == ("found", [0])
    positions = len(built.vars.by_machine[prove._split_machine(built, setup)])
    assert 3 <= len(calls) <= 6 < positions



def test_fed_patterns_keep_their_relaxations_between_targets(monkeypatch):
    """The prover asks one target after another; a pattern's relaxation is solved once, not per target."""
    known: dict = {}
    first = fed_patterns(FF, CATALOG, SET, OPTIMUM - 10, known)
    higher = fed_patterns(FF, CATALOG, SET, RELAXED)
    assert first and higher and len(higher) < len(first)
    calls = []
    monkeypatch.setattr(prove, "topology_bound", lambda *a, **k: calls.append(1))
    assert fed_patterns(FF, CATALOG, SET, OPTIMUM - 10, known) == first
    assert fed_patterns(FF, CATALOG, SET, RELAXED, known) == higher
    assert calls == []


def test_with_growth_patterns_the_blocks_settle_get_no_board_model(monkeypatch):
    """Blocks grow first; a pattern's board model is built only when they leave it open and the grown
    component does not fit the board. Here they refute every target above the optimum, and the
    optimum's component moves onto the board: no board model at all (before, one per pattern and target)."""
    built = []
    original = prove._pattern_model
    monkeypatch.setattr(prove, "_pattern_model", lambda setup, pattern, target: (
        built.append(target), original(setup, pattern, target))[1])
    outcome = prove_bound(FF, CLASSIC_A, CATALOG, SET, best=OPTIMUM - 4, bound=RELAXED,
                          deadline=time.monotonic() + 120)
    assert outcome.complete and outcome.bound == OPTIMUM
    result = check_layout(outcome.layout)
    assert result.legal and result.score.total == OPTIMUM
    assert built == []


def test_patterns_new_at_a_target_start_first_then_the_slowest_so_far():
    """New patterns (no block solved yet) are cheap and may hold the layout that reaches the target;
    the others go slowest first, so that the last one running is short."""
    efforts = {"slow": 40.0, "new": 0.0, "quick": 2.0, "newer": 0.0}
    local = SimpleNamespace(effort=lambda ids, fed: efforts[fed["name"]])
    patterns = [prove.FedPattern({"name": name}, 30) for name in ("quick", "new", "slow", "newer")]
    ordered = sorted(patterns, key=prove._start_order(local, []))
    assert [p.fed["name"] for p in ordered] == ["new", "newer", "slow", "quick"]


def test_patterns_the_triangle_cuts_refute_are_never_handed_to_the_blocks():
    """classic-A FF09,FF27,FF28,FF43: optimum 30 (proved, results/static.md). The pair cuts leave a
    pattern reaching 31; the triangle cuts leave none, whether the patterns are tried all or found one at a time."""
    four = ["FF09", "FF27", "FF28", "FF43"]
    assert fed_patterns(FF, CATALOG, four, 31, pair_cuts=False)
    assert fed_patterns(FF, CATALOG, four, 31) == []
    assert reaching_patterns(FF, CATALOG, four, 31, most=1000)
    assert reaching_patterns(FF, CATALOG, four, 31, most=1000, triangles=True) == []
    assert fed_patterns(FF, CATALOG, four, 30)
