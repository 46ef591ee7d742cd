"""Ruin and recreate on sketches: what a move lifts, and that moves never make a layout worse or illegal."""
from __future__ import annotations

from models.board import load_boards
from models.catalog import load_catalog
from models.check import check_layout
from models.networks import connect
from models.rulesets import get_ruleset
from solver.sketch import sketch_layout
from solver.sketch.improve import improve, ruined

FF, FN = get_ruleset("factory-fun"), get_ruleset("factory-funner")
SET = ["FF04", "FF05", "FF21", "FF23", "FF37", "FF40"]


def first_sketch(ruleset=FF, board="classic-A", ids=SET):
    layout = sketch_layout(ruleset, load_boards(ruleset)[board], load_catalog(ruleset), ids, seed=1)
    assert layout is not None
    return layout


def test_lifting_a_machine_takes_every_network_it_touches_and_nothing_else():
    layout = first_sketch()
    kept = ruined(layout, {"FF21"})
    assert "FF21" not in kept.machine_ids and len(kept.machines) == len(SET) - 1
    conn = connect(layout)
    index = layout.machine_ids.index("FF21")
    touching = [n for n in conn.networks if any(layout.ports[p].machine == index for p in n.inputs + n.outputs)]
    gone = {layout.tiles[t] for n in touching for t in n.supplies + n.output_tanks + n.end_tanks}
    gone |= {layout.tiles[layout.pipes[p].tile] for n in touching for p in n.pipes}
    assert gone and not gone & set(kept.tiles)
    assert len(kept.tiles) >= len(layout.tiles) - len(gone)
    # what is kept is still whole: no stray tile, only the cut ports of kept machines are loose
    assert all(loose.node[0] == "port" for loose in connect(kept).loose_ends)


def test_lifting_a_colour_takes_its_networks():
    layout = first_sketch()
    kept = ruined(layout, set(), colour="red")
    assert all(t.color != "red" for t in kept.tiles)
    assert kept.machine_ids == layout.machine_ids


def test_lifting_everything_leaves_an_empty_board():
    layout = first_sketch()
    kept = ruined(layout, set(SET))
    assert not kept.machines and not kept.tiles


def test_moves_never_return_a_worse_or_illegal_layout():
    layout = first_sketch()
    before = check_layout(layout).score.total
    seen: list[int] = []
    after = improve(layout, 3.0, seed=2, on_better=lambda _, score: seen.append(score))
    result = check_layout(after)
    assert result.legal and result.score.total >= before
    assert seen == sorted(seen) and all(score > before for score in seen)
    assert sorted(after.machine_ids) == sorted(SET)


def test_moves_work_on_hex_boards_too():
    ids = ["FN09", "FN15", "FN26", "FN36", "FN42", "FN47"]
    layout = first_sketch(FN, "A", ids)
    after = improve(layout, 2.0, seed=1)
    result = check_layout(after)
    assert result.legal and result.score.total >= check_layout(layout).score.total
