"""The bound and proof machinery's promises that QA pass 61 (mutation testing of the bounds, the pair and
triangle cuts, the Steiner counts and the prover) found unpinned: a break that could make `solve` claim a
bound or a proof it does not have lived through every other test."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import solver.pair_cuts as pair_cuts
import solver.prove as prove
from models.catalog import load_catalog
from models.geometry import SQUARE
from models.rulesets import get_ruleset
from solver.bounds import topology_bound
from solver.steiner import steiner_cells

FF = get_ruleset("factory-fun")
FF_CATALOG = load_catalog(FF)


def test_the_triangle_cuts_keep_a_set_at_its_optimum_not_under_it():
    """Classic-A FF10,FF35,FF42: `solve` proves a layout of 27. The triangle cuts bring the bound from 31 to
    exactly 27; a triangle table that dropped its entries one tile under the cap (QA pass 61) gave 26, under a
    legal layout, which only the solver's own runtime check then caught as an internal error."""
    assert topology_bound(FF, FF_CATALOG, ["FF10", "FF35", "FF42"]).value == 31
    assert topology_bound(FF, FF_CATALOG, ["FF10", "FF35", "FF42"], triangles=True).value == 27


def test_a_steiner_count_one_under_its_limit_is_counted_not_capped():
    """Two cells five apart in a row take 6 cells: with a limit of 7 the answer is 6, not the limit (a search
    region one step too small capped it, which prunes a real embedding from the tree cuts)."""
    assert steiner_cells(SQUARE, [(0, 0), (0, 5)], frozenset(), 7) == 6
    assert steiner_cells(SQUARE, [(0, 0), (0, 5)], frozenset(), 6) == 6


def test_a_split_proof_with_a_part_unsettled_is_unknown_not_refuted(monkeypatch):
    """The prover splits a fed pattern on where one machine stands; a part whose time ran out settles nothing,
    so the pattern is not refuted (QA pass 61: a split called refuted whatever its parts said would let
    `prove_bound` call a best proved optimal once its deadline passed mid-split)."""
    answers = {0: "refuted", 1: "unknown", 2: "refuted"}
    monkeypatch.setattr(prove, "_split_machine", lambda built, setup: "FF39")
    monkeypatch.setattr(prove, "_solve_part", lambda setup, built, placement, limit: (answers[placement], None))
    built = SimpleNamespace(vars=SimpleNamespace(by_machine={"FF39": [0, 1, 2]}))
    with ThreadPoolExecutor(1) as pool:
        assert prove._split(None, built, pool) == ("unknown", None)
        answers[1] = "refuted"
        assert prove._split(None, built, pool) == ("refuted", None)
        answers[2] = "found"
        assert prove._split(None, built, pool)[0] == "found"


def test_a_pair_search_stops_early_only_at_the_relaxations_floor(monkeypatch):
    """The search over the second machine's placements may stop once a placement costs no more than what the
    relaxation already counts (the floor); one tile above it, a cheaper placement may still come (QA pass 61:
    stopping there would leave a pair cut a tile too high; no real pair showed it among 828, so the test stages the costs)."""
    costs = iter([1, 0] + [5] * 10_000)
    monkeypatch.setattr(pair_cuts, "_PAIR_TILES", {})
    monkeypatch.setattr(pair_cuts, "_least", lambda rels, reach, second: 0)
    monkeypatch.setattr(pair_cuts, "placed_tiles", lambda *args: next(costs))
    assert pair_cuts.pair_tiles(FF, FF_CATALOG, "FF39", "FF08", ()) == 0   # (no supply relation: the floor is 0)
