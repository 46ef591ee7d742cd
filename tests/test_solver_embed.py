"""Moving a grown component onto the real board (solver/embed.py): legal there, or nothing."""
from __future__ import annotations

from models.board import Board, load_boards
from models.catalog import load_catalog
from models.check import check_layout
from models.rulesets import get_ruleset
from solver.embed import embed
from solver.grow import grow_block
from solver.local import LocalProver, fewest_tanks
from solver.prove import fed_patterns

FF = get_ruleset("factory-fun")
CATALOG = load_catalog(FF)
SET = ["FF44", "FF19", "FF52"]
OPTIMUM = 24


def _component():
    """The whole set grown on an open patch at the optimum's budget."""
    prover = LocalProver(FF, CATALOG, lambda *_: "unknown")
    for pattern in fed_patterns(FF, CATALOG, SET, OPTIMUM):
        block = prover._block(SET, pattern.fed)
        if block is None:
            continue
        pipes = block.relaxed - OPTIMUM
        board, centre = prover._patch_for(block, pipes)
        fewest = fewest_tanks(FF, CATALOG, block)
        verdict, layout = grow_block(FF, CATALOG, block.machines, block.pattern, fewest + pipes, fewest,
                                     board, centre)
        if verdict == "found":
            return layout
    raise AssertionError("no component of the set reaches its optimum on an open patch")


def test_a_grown_component_moves_onto_classic_a_legal_and_scoring_as_much():
    component = _component()
    board = load_boards(FF)["classic-A"]
    placed = embed(component, board, OPTIMUM)
    assert placed is not None and placed.board is board
    result = check_layout(placed)
    assert result.legal and result.score.total >= OPTIMUM
    assert len(placed.machines) == len(SET)


def test_nothing_comes_back_when_the_board_cannot_hold_it():
    component = _component()
    tiny = Board("tiny", FF.geometry, frozenset({(0, 0), (0, 1), (1, 0), (1, 1)}), frozenset(), frozenset(), 2, 2)
    assert embed(component, tiny, OPTIMUM) is None
    assert embed(component, load_boards(FF)["classic-A"], OPTIMUM + 1) is None  # it scores the optimum only
