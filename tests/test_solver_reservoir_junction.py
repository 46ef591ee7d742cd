"""A product passing through an output reservoir: legal, outside the CP-SAT model, and still kept by `solve`.

The ruin-and-recreate moves found such layouts (README, rules decisions). Here
FF46's green 2 reaches FF29's green 2 input through the output reservoir at
(1, 3); a pipe with the same sides would cost the same.
"""
from __future__ import annotations

from models.board import load_boards
from models.catalog import load_catalog
from models.check import check_layout
from models.layout import Layout, MachinePlacement, Tile
from models.rulesets import get_ruleset
from solver.model import build_static_model
from solver.search import complete_assignment
from solver.static import solve_static

FF = get_ruleset("factory-fun")
CATALOG = load_catalog(FF)
BOARD = load_boards(FF)["classic-A"]
IDS = ["FF46", "FF29"]


def junction_layout() -> Layout:
    machines = (MachinePlacement("FF46", (2, 2), 0), MachinePlacement("FF29", (0, 5), 0))
    tiles = (
        Tile("supply", (3, 2), color="green"),   # FF46's input (south of its a-cell)
        Tile("output", (1, 3)),                  # FF46's output faces it; the product goes on through it
        Tile("pipe", (1, 4), sides=("N", "W")),
        Tile("pipe", (0, 4), sides=("E", "S")),  # into FF29's west input
        Tile("end", (0, 7)),                     # FF29's end product
    )
    return Layout(FF, BOARD, CATALOG, machines, tiles)


def test_a_product_may_pass_through_an_output_reservoir():
    result = check_layout(junction_layout())
    assert result.legal, [v.to_dict() for v in result.violations]
    assert result.score.total == 10 + 10 - 5  # incomes, FF29's green 2 machine-fed, five tiles


def test_the_model_routes_products_through_pipes_only():
    assert complete_assignment(build_static_model(FF, BOARD, CATALOG, IDS), junction_layout()) is None


def test_solve_keeps_a_legal_hint_the_model_cannot_take():
    """With no time for CP-SAT to find a layout of its own, the hint is the answer."""
    result = solve_static(FF, BOARD, CATALOG, IDS, time_limit=0.01, hint=junction_layout())
    assert result.layout is not None and check_layout(result.layout).legal
    assert result.objective == 15
