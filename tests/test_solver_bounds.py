"""The relaxation bound: sound (never under a legal layout) and tight where hand counting says so."""
from __future__ import annotations

import random

import pytest

from models.board import load_boards
from models.catalog import load_catalog
from models.check import check_layout
from models.rulesets import get_ruleset
from solver.bounds import junctions_per_point, topology_bound
from solver.sketch import best_sketch

FF, FN = get_ruleset("factory-fun"), get_ruleset("factory-funner")
FF_CATALOG, FN_CATALOG = load_catalog(FF), load_catalog(FN)
#: the networks-only count, without the pair cuts of solver/pair_cuts.py
NETWORKS_ONLY = {"pair_cuts": False}


def test_one_output_cannot_cover_two_inputs_it_feeds_in_one_network():
    """FF28's green 3 can feed FF30's green 2 or FF45's green 2, not both (4 > 3), and FF45 never feeds itself.

    By hand: income 27 + chain 10 (one green 2 fed) - 4 supplies (blue, orange and
    red are never machine-fed, one green input is not) - 2 reservoirs (FF30's red,
    FF42's blue) - 1 (FF45's green 1 needs a reservoir or a splitter pipe) = 30.
    Counting output-input pairs instead of networks gave 42.
    """
    assert topology_bound(FF, FF_CATALOG, ["FF28", "FF30", "FF42", "FF45"], **NETWORKS_ONLY).value == 30


@pytest.mark.parametrize("ids,optimum", [(["FF28", "FF30", "FF42", "FF45"], 26), (["FF16", "FF27", "FF30", "FF46"], 31)])
def test_pair_cuts_bring_the_bound_down_to_the_proved_optimum(ids, optimum):
    """Both optima were proved by the decomposition prover (results/static.md); the networks-only count
    is 30 and 32, and the pair cuts see the pipes two machines' printed ports force."""
    assert topology_bound(FF, FF_CATALOG, ids, **NETWORKS_ONLY).value > optimum
    assert topology_bound(FF, FF_CATALOG, ids).value == optimum


def test_a_game_pays_for_its_port_to_port_feeds():
    """FF40, FF12 and FF07 (networks and the pair cuts, no triangles): the relaxation joins two of them port to
    port, with no tile. A game lays one machine a round, so the first one's port faced an empty cell
    until the second stood there: a tile bought and lifted (or a machine moved), a point a static build
    does not pay. A Factory Fun machine holds at most three ports on one cell, so each point clears at
    most three such junctions."""
    ids = ["FF40", "FF12", "FF07"]
    assert topology_bound(FF, FF_CATALOG, ids).value == 30
    assert topology_bound(FF, FF_CATALOG, ids, game=True).value == 29
    assert junctions_per_point(FF, FF_CATALOG, sorted(FF_CATALOG.machines)) == 3
    assert junctions_per_point(FN, FN_CATALOG, sorted(FN_CATALOG.machines)) == 4   # one cell, four ports


def test_a_port_with_several_colours_feeds_an_input_of_any_of_them():
    """FN32's output accepts any colour, so it can feed FN38's yellow input (one dot)."""
    fed = topology_bound(FN, FN_CATALOG, ["FN32", "FN38"], fed_pattern={("FN38", "SE"): 1})
    assert not fed.infeasible and fed.value is not None


def test_a_network_of_three_ports_pays_for_a_pipe_or_a_tank():
    """Without pipe counting the same set is 31: tanks only."""
    ids = ["FF28", "FF30", "FF42", "FF45"]
    assert topology_bound(FF, FF_CATALOG, ids, count_pipes=False).value == 31


@pytest.mark.parametrize("ruleset,catalog,board", [(FF, FF_CATALOG, "classic-A"), (FN, FN_CATALOG, "A")])
@pytest.mark.parametrize("seed", range(6))
def test_no_legal_layout_scores_above_the_bound(ruleset, catalog, board, seed):
    ids = random.Random(seed).sample(sorted(catalog.machines), 3 + seed % 4)
    board = load_boards(ruleset)[board]
    # (1 s lays every set alone; beside the pair-cut audits and another busy process one found nothing)
    layout = (best_sketch(ruleset, board, catalog, ids, seed=seed, time_limit=1.0)
              or best_sketch(ruleset, board, catalog, ids, seed=seed, time_limit=10.0))
    assert layout is not None
    result = check_layout(layout)
    assert result.legal
    assert result.score.total <= topology_bound(ruleset, catalog, ids).value


@pytest.mark.parametrize("ids,optimum", [
    (["FF04", "FF29"], 9), (["FF02", "FF38"], 16), (["FF01", "FF47"], 10),  # proved optima, results/static.md
    (["FF16", "FF27", "FF30", "FF46"], 31),
])
def test_the_bound_is_at_least_every_proved_optimum(ids, optimum):
    assert topology_bound(FF, FF_CATALOG, ids).value >= optimum


def test_a_second_container_of_a_colour_keeps_the_supply_cuts():
    """FF19's "+" lets the player lay a second orange container, so FF28's and FF42's orange inputs may be
    supplied through two networks. The supply cuts ask whether two inputs share one network; they used to
    hold only with a colour's single container, so here none held (pair cuts 30, every cut 26). Each
    supply network is now a slot its inputs choose: sharing one, the cuts hold; apart, two containers are
    paid. Pair cuts 26, every cut 23, the optimum `solve` proves on classic-A."""
    ids = ["FF19", "FF28", "FF42"]
    assert topology_bound(FF, FF_CATALOG, ids, **NETWORKS_ONLY).value == 31
    assert topology_bound(FF, FF_CATALOG, ids).value == 26
    assert topology_bound(FF, FF_CATALOG, ids, triangles=True, time_limit=60).value == 23


def test_a_relaxation_says_whether_it_settled_or_its_time_ran_out():
    """`settled`: every cut it asks for was found (the planner goes on beside its search when not)."""
    ids = ["FF19", "FF28", "FF42"]
    assert topology_bound(FF, FF_CATALOG, ids).settled   # no triangles asked for
    assert topology_bound(FF, FF_CATALOG, ids, triangles=True, time_limit=60).settled
    eight = ["FF04", "FF05", "FF21", "FF23", "FF37", "FF40", "FF47", "FF50"]
    cut_short = topology_bound(FF, FF_CATALOG, eight, triangles=True, time_limit=0.5)
    assert not cut_short.settled
