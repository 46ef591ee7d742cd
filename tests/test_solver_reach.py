"""Reach cuts (solver/reach.py): implied by the rules, and strong where the pipe budget is small."""
from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from models.board import load_boards
from models.catalog import load_catalog
from models.check import check_layout
from models.layout import load_layout
from models.rulesets import get_ruleset
from solver import prove
from model_helpers import model_verdict
from solver.model import build_static_model
from solver.reach import add_reach_cuts, edge_distances
from solver.sketch import best_sketch

FF = get_ruleset("factory-fun")
FN = get_ruleset("factory-funner")
FF_CATALOG, FN_CATALOG = load_catalog(FF), load_catalog(FN)
PIPE_KINDS = ("pipe", "diagonal")
EXAMPLES = Path(__file__).resolve().parents[1] / "instances" / "examples"


def test_one_piece_reaches_exactly_the_edges_of_the_two_cells_an_edge_joins():
    built = build_static_model(FF, load_boards(FF)["classic-A"], FF_CATALOG, ["FF04"], objective="profit")
    v = built.vars
    for edge in (0, len(v.edges) // 2, len(v.edges) - 1):
        a, _, b = v.edges[edge]
        around = {v.slot_edge[(cell, side)][0] for cell in (a, b) for side in v.sides(cell)}
        near = edge_distances(v, 1)[edge]
        assert near[edge] == 0
        assert set(near) == around
        assert all(near[e] == 1 for e in around - {edge})


def _accepted_with_cuts(layout) -> bool:
    """Fix a legal layout, its own fed pattern and its own pipe count as the budget, with the cuts."""
    result = check_layout(layout)
    assert result.legal
    ids = [m.id for m in layout.machines]
    fed = {(c.machine, c.at) for c in result.score.chain_inputs}
    pattern = {(m, p.at): int((m, p.at) in fed) for m in ids for p in layout.catalog[m].inputs}
    pipes = sum(cost for kind, cost in result.score.cost_by_kind.items() if kind in PIPE_KINDS)

    def with_cuts(built) -> None:
        for key, value in pattern.items():
            built.model.Add(built.vars.fed_input[key] == value)
        built.model.Add(sum(built.vars.y) <= pipes)
        assert add_reach_cuts(built.vars, built.model, pattern, pipes) > 0

    return model_verdict(layout, with_cuts)[0] in ("OPTIMAL", "FEASIBLE")


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("legal-*.json")) + ["rulebook-round2.json"])
def test_the_cuts_accept_every_hand_drawn_legal_example(name):
    """Hand-drawn layouts spend their pipes on one or two paths, so the budget is tight for some port."""
    assert _accepted_with_cuts(load_layout(EXAMPLES / name))


@pytest.mark.parametrize("ruleset,catalog,board", [(FF, FF_CATALOG, "classic-A"), (FN, FN_CATALOG, "A")])
@pytest.mark.parametrize("seed", range(5))
def test_the_cuts_accept_every_sketched_layout(ruleset, catalog, board, seed):
    ids = random.Random(seed).sample(sorted(catalog.machines), 3 + seed % 3)
    assert _accepted_with_cuts(best_sketch(ruleset, load_boards(ruleset)[board], catalog, ids, seed=seed,
                                           time_limit=1.0))


def test_a_one_pipe_pattern_is_refuted_by_presolve_with_the_cuts():
    """classic-A FF09,FF27,FF28,FF43 scoring 33 leaves one pipe: 164 positions, ~93 s without the cuts.

    (The pattern is the networks-only relaxation's: with the triangle cuts the set's bound is its
    optimum, 30, and no pattern reaches 33.)"""
    ids = ["FF09", "FF27", "FF28", "FF43"]
    board = load_boards(FF)["classic-A"]
    [pattern] = prove.fed_patterns(FF, FF_CATALOG, ids, 33, pair_cuts=False)
    assert pattern.relaxed - 33 == 1
    setup = prove._Setup(FF, board, FF_CATALOG, ids, False, None, time.monotonic() + 60, None)
    built = prove._pattern_model(setup, pattern, 33)
    assert prove._solve_part(setup, built, None, 30.0)[0] == "refuted"
