"""The placements a two-machine Funner block's split keeps: never one a legal layout uses, and few."""
from __future__ import annotations

import pytest

from components import component_blocks
from models.board import load_boards
from models.catalog import load_catalog
from models.check import check_layout
from models.layout import parse_layout
from models.rulesets import get_ruleset
from solver.local import LocalProver, fewest_tanks
from solver.pair_cuts import _place, pair_inputs
from solver.pair_split import forced_budget, kept_placements, room
from solver.static import solve_static

FUNNER = get_ruleset("factory-funner")
CATALOG = load_catalog(FUNNER)
FN45_FN48 = {("FN45", "E"): 0, ("FN45", "SE"): 0, ("FN48", "E"): 0, ("FN48", "SE"): 1}

#: FN45,FN48 at 14, one point over what the search found in 60 s; the prover's split found it (2026-12-06)
FOURTEEN = {
    "ruleset": "factory-funner", "board": "A",
    "machines": [{"id": "FN45", "cell": [0, 2], "rotation": 1}, {"id": "FN48", "cell": [1, 1], "rotation": 1}],
    "tiles": [{"kind": "end", "cell": [0, 0], "side": "SE"}, {"kind": "output", "cell": [0, 1], "side": "SE"},
              {"kind": "supply", "color": "green", "cell": [0, 4], "side": "NW"},
              {"kind": "supply", "color": "blue", "cell": [1, 4], "side": "NW"},
              {"kind": "pipe", "cell": [0, 3], "sides": ["E", "SE", "NE"]},
              {"kind": "pipe", "cell": [1, 2], "sides": ["SW", "NW"]},
              {"kind": "pipe", "cell": [1, 3], "sides": ["SE", "NW"]},
              {"kind": "pipe", "cell": [1, 3], "sides": ["W", "NE"]}],
}


def _kept(block, pipes: int, first, second) -> bool:
    pair = (CATALOG[block.machines[0]], CATALOG[block.machines[1]])
    one = _place(FUNNER, pair[0], 0, *first)
    inputs = pair_inputs(pair)
    return room(FUNNER, pair, one, second, inputs, *forced_budget(FUNNER, CATALOG, block, pipes)) is not None


def _layouts():
    board = load_boards(FUNNER)["A"]
    yield parse_layout(FOURTEEN)
    for machines in (["FN45", "FN48"], ["FN16", "FN01"], ["FN08", "FN24"], ["FN09", "FN15"], ["FN31", "FN16"]):
        # (read at collection: a solve that found no layout in 3 s, as on a loaded machine (QA pass 61), gets
        # 10 s more rather than failing the whole module's collection)
        yield (solve_static(FUNNER, board, CATALOG, machines, time_limit=3, seed=1).layout
               or solve_static(FUNNER, board, CATALOG, machines, time_limit=10, seed=1).layout)


def test_the_fourteen_is_legal_and_scores_fourteen():
    judged = check_layout(parse_layout(FOURTEEN))
    assert judged.legal and judged.score.total == 14


@pytest.mark.parametrize("layout", list(_layouts()), ids=lambda layout: ",".join(layout.machine_ids))
def test_a_real_pairs_placement_is_kept_at_its_own_budget(layout):
    """Soundness: the split never drops the placement a legal component stands in, at the pipes it pays."""
    prover = LocalProver(FUNNER, CATALOG, lambda *_: "unknown")
    checked = 0
    for part in component_blocks(layout, CATALOG, prover):
        if len(part.ids) != 2:
            continue
        cost = sum(t.cost for t in layout.tiles if t.cell in part.cells)
        pipes = cost - fewest_tanks(FUNNER, CATALOG, part.block)
        where = {m.id: (m.cell, FUNNER.geometry.steps_of(m.rotation)) for m in layout.machines}
        a, b = part.block.machines
        assert _kept(part.block, pipes, where[a], where[b]), f"{part.ids} at {pipes} spare pipes"
        checked += 1
    assert checked or len(layout.machines) < 2 or len(list(component_blocks(layout, CATALOG, prover))) == 2


def test_few_placements_of_fn48_can_hold_its_feed_and_shared_green_beside_fn45():
    """FN45 centred: no placement of FN48 at 0-2 spare pipes (CP-SAT refutes those blocks too), one at 3 (CP-SAT
    took 35 s to refute it), four at 4 (one holds the fourteen above)."""
    prover = LocalProver(FUNNER, CATALOG, lambda *_: "unknown")
    block = prover._block(["FN45", "FN48"], FN45_FN48)
    kept = [len(kept_placements(FUNNER, CATALOG, block, pipes, *prover._patch_for(block, pipes))) for pipes in range(5)]
    assert kept == [0, 0, 0, 1, 4]


def test_the_split_is_left_out_where_the_pair_tables_do_not_hold(monkeypatch):
    """The pair tables know neither the diagonal tile nor growth's rulesets: a square block with the diagonal tile
    goes to CP-SAT whole (the split would count its paths wrong), a Funner pair to the split."""
    import time

    from solver import prove

    asked = []
    monkeypatch.setattr(prove, "kept_placements", lambda *args: asked.append(args[2].machines) or {})
    square = get_ruleset("factory-fun")
    for ruleset, machines, pattern, diagonal in (
            (square, ["FF39", "FF08"], {("FF39", "W"): 0, ("FF39", "Na"): 0, ("FF08", "W"): 1, ("FF08", "Na"): 0}, True),
            (FUNNER, ["FN45", "FN48"], FN45_FN48, False)):
        catalog = load_catalog(ruleset)
        prover = LocalProver(ruleset, catalog, lambda *_: "unknown", diagonal)
        block = prover._block(machines, pattern)
        board, centre = prover._patch_for(block, 0)
        setup = prove._Setup(ruleset, board, catalog, machines, diagonal, None, time.monotonic() + 10, None)
        prove.patch_verdict(setup, block, 0, board, centre, 1)
    assert asked == [("FN45", "FN48")]
