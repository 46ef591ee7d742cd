"""The triangle and tree cuts on Funner's hexes (solver/triangle_cuts.py `Frame`): their tables are kept in one
machine's frame and composed by turning and adding placements, which on hexes needs axial coordinates (offset
rows shift every other row). A wrong frame would look up the wrong table entry and could cut off real layouts,
so these tests move real layouts by the frame and ask the checker, and hold the cuts' bound under them."""
from __future__ import annotations

import itertools
import math

import pytest

from models.board import Board
from models.catalog import load_catalog
from models.check import check_layout
from models.game import load_game
from models.layout import Context, parse_layout_body
from models.replay import replay_game
from models.rulesets import get_ruleset
from solver.bounds import topology_bound
from solver.triangle_cuts import FRAMES, compose, relative

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
FUNNER = get_ruleset("factory-funner")
HEX = FRAMES["hex"]


@pytest.fixture(scope="module")
def funner_layouts():
    """The last layouts of a played Funner game and of its plan: legal, six machines each, pipes and tanks."""
    layouts = [replay_game(load_game(DATA / name)).final_layout
               for name in ("analysis-funner-played.json", "analysis-funner-plan.json")]
    assert all(check_layout(layout).legal for layout in layouts)
    return layouts


def test_hex_compose_undoes_relative_in_odd_and_even_rows():
    anchors = [(0, 0), (3, 1), (-2, 5), (4, -3), (1, 2)]
    for first, second in itertools.product(itertools.product(anchors, range(6)), repeat=2):
        seen = relative(first, second, HEX)
        assert compose(first, seen, HEX) == second
    # seen from a machine turned one step (its E side now SE), the cell east of it lies on its SE side
    assert relative(((1, 1), 1), ((1, 2), 1), HEX) == ((1, 0), 0)   # (1, 1) odd row: SE is (1, 2)


def test_hex_spread_is_the_fewest_cells_joining_them():
    assert HEX.spread([(0, 0), (3, 0)]) == 4                  # a straight row of four
    assert HEX.spread([(0, 0), (0, 2)]) == 3                  # two rows down: one cell between
    assert HEX.spread([(2, 0), (0, 2), (3, 2)]) >= HEX.distance((0, 2), (3, 2)) + 1
    assert HEX.spread([(1, 1), (1, 1)]) == 1


def _moved(layout, anchor, steps: int, to=(12, 12)):
    """`layout` as the frame sees it from a machine at `anchor` turned `steps` (which then stands at (0, 0)
    unturned), shifted to `to` on an open board big enough for all of it."""
    geometry = layout.ruleset.geometry
    origin, target = HEX.vector(anchor), HEX.vector(to)

    def cell(c):
        x, y = HEX.turned((HEX.vector(c)[0] - origin[0], HEX.vector(c)[1] - origin[1]), -steps)
        return list(HEX.cell((x + target[0], y + target[1])))

    def side(s):
        return geometry.rotate(s, -steps)

    document = layout.to_dict()
    for machine in document["machines"]:
        machine["cell"] = cell(machine["cell"])
        machine["rotation"] = geometry.rotation_values[(geometry.steps_of(machine["rotation"]) - steps) % 6]
    for tile in document["tiles"]:
        tile["cell"] = cell(tile["cell"])
        if "side" in tile:
            tile["side"] = side(tile["side"])
        if "sides" in tile:
            tile["sides"] = [side(s) for s in tile["sides"]]
    open_board = Board("open", geometry, frozenset(geometry.rectangle(26, 26)), frozenset(), frozenset(), 26, 26)
    context = Context(layout.ruleset, open_board, layout.catalog)
    return parse_layout_body("moved.json", "", {"machines": document["machines"], "tiles": document["tiles"]}, context,
                             document.get("options"))


def test_a_layout_seen_from_each_machine_is_the_same_factory(funner_layouts):
    """The frame is a motion of the hex grid: the whole layout, moved into each machine's frame, is legal and
    scores the same (were it not, a table entry looked up through it would describe another placement)."""
    for layout in funner_layouts:
        score = check_layout(layout).score.total
        for placement in layout.machines:
            steps = layout.ruleset.geometry.steps_of(placement.rotation)
            moved = _moved(layout, tuple(placement.cell), steps)
            verdict = check_layout(moved)
            assert verdict.legal and verdict.score.total == score, (placement.id, verdict.violations[:2])
            at = next(m for m in moved.machines if m.id == placement.id)
            assert (tuple(at.cell), at.rotation) == ((12, 12), 0)


def test_the_cuts_bound_holds_every_real_funner_layout(funner_layouts):
    """With the triangle and tree cuts the relaxation is still an upper bound on real layouts of its machines,
    and no higher than the pair cuts' bound."""
    catalog = load_catalog(FUNNER)
    for layout in funner_layouts:
        ids = [m.id for m in layout.machines]
        score = check_layout(layout).score.total
        with_cuts = topology_bound(FUNNER, catalog, ids, time_limit=20, triangles=True)
        pairs_only = topology_bound(FUNNER, catalog, ids, time_limit=20)
        assert score <= with_cuts.value <= pairs_only.value


def test_the_relaxations_hex_arrangement_is_laid_on_the_board_as_embedded():
    """Funner solves lay the relaxation's biggest group on the board (solver/relaxed_starts.py): every fit puts
    each machine where the embedding has it, seen from the first machine through the hex frame."""
    from models.board import load_boards
    from solver.bounds import relaxed_topologies
    from solver.relaxed_starts import board_fits
    from solver.triangle_cuts import CAPS, FREE_CAPS, least_embeddings

    catalog, board = load_catalog(FUNNER), load_boards(FUNNER)["A"]
    topology = relaxed_topologies(FUNNER, catalog, ["FN11", "FN08", "FN24"], 1, 10)[0]
    group = topology.trees[0]
    assert len(group.names) >= 2
    (tiles, poses), = least_embeddings(FUNNER, catalog, group, CAPS + FREE_CAPS, math.inf, 1)
    fits = board_fits(FUNNER, board, catalog, group.names, poses)
    assert fits
    for fit in fits:
        laid = [(tuple(p.cell), FUNNER.geometry.steps_of(p.rotation)) for p in fit]
        assert [relative(laid[0], pose, HEX) for pose in laid] == [tuple(pose) for pose in poses]
