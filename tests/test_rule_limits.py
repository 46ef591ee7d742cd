"""Per-player limits (RULES.md 1, "Tiles" table).

Rule ids: supply-limit (one container per colour, plus one per placed bonus
machine; "?" = colour of choice), output-limit (3), end-limit (stock; default no
limit), diagonal (at most one, only when the option is on).
"""
from __future__ import annotations

import json

import pytest

from builders import FF29_OK, assert_legal, check, layout_dict, of_rule, only, plus, rules
from models.check import check_layout
from models.layout import parse_layout
from models.catalog import load_catalog
from models.errors import DocumentError
from models.rulesets import get_ruleset
from models.stock import SupplyStock

# self-contained machines with their own supplies, placed so they never touch
FF46_GREEN = dict(machines=[("FF46", (5, 2), 0)], tiles=[("supply", (6, 2), "green"), ("output", (4, 3))])
FF11_PLUS_GREEN = dict(machines=[("FF11", (1, 5), 0)], tiles=[("supply", (0, 5), "red"), ("supply", (2, 5), "green"), ("end", (1, 7))])
FF16_ANY = dict(machines=[("FF16", (5, 5), 0)], tiles=[("supply", (4, 5), "blue"), ("supply", (6, 5), "orange"), ("output", (5, 7))])
FF22_PLUS_RED = dict(machines=[("FF22", (4, 1), 0)], tiles=[("supply", (4, 0), "red"), ("output", (3, 2))])
FF09_RED = dict(machines=[("FF09", (3, 8), 180)], tiles=[("supply", (4, 8), "red"), ("end", (3, 6))])
FF25_BLUE = dict(machines=[("FF25", (6, 6), 0)], tiles=[("supply", (7, 6), "blue"), ("end", (6, 8))])
FF04_RED = dict(machines=[("FF04", (7, 4), 0)], tiles=[("supply", (7, 3), "red"), ("output", (8, 5))])


def combine(*parts: dict, options=None) -> dict:
    out: dict = {"machines": [], "tiles": []}
    for p in parts:
        out = plus(out, p["machines"], p["tiles"])
    if options is not None:
        out["options"] = options
    return out


# -- supply-limit -------------------------------------------------------------------------------
def test_two_containers_of_one_colour_without_bonus_machine():
    result = check(**combine(FF29_OK, FF46_GREEN))
    v = only(result, "supply-limit")
    assert v.cells == [(1, 0), (6, 2)] and "green" in v.message
    assert rules(result) == ["supply-limit"]


def test_one_container_per_colour_is_legal():
    assert_legal(check(**combine(FF29_OK, FF16_ANY, FF22_PLUS_RED)))


def test_plus_machine_allows_a_second_container_of_its_colour():
    assert_legal(check(**combine(FF29_OK, FF11_PLUS_GREEN)))  # two green with FF11 (green +)
    assert_legal(check(**combine(FF22_PLUS_RED, FF09_RED)))   # two red with FF22 (red +)


def test_plus_machine_allows_only_one_more():
    result = check(**combine(FF22_PLUS_RED, FF09_RED, FF04_RED))
    v = only(result, "supply-limit")
    assert v.cells == [(4, 0), (4, 8), (7, 3)] and "3 red" in v.message and "2 allowed" in v.message


def test_plus_machine_of_another_colour_does_not_help():
    result = check(**combine(FF29_OK, FF46_GREEN, FF22_PLUS_RED))
    assert only(result, "supply-limit").cells == [(1, 0), (6, 2)]
    assert rules(result) == ["supply-limit"]


def test_any_colour_bonus_allows_one_extra_of_any_colour():
    assert_legal(check(**combine(FF29_OK, FF46_GREEN, FF16_ANY)))   # green x2 with FF16 (?)


def test_any_colour_bonus_allows_only_one_extra():
    # FF16 (?) with two green and two red containers: two extras, one allowed
    result = check(**combine(FF29_OK, FF46_GREEN, FF16_ANY, FF09_RED, FF04_RED))
    found = of_rule(result, "supply-limit")
    assert found and sorted(c for v in found for c in v.cells) == [(1, 0), (4, 8), (6, 2), (7, 3)]
    assert set(rules(result)) == {"supply-limit"}


def test_colours_sharing_the_any_colour_bonus_are_one_fault():
    """Two green and two blue with one "?" container: each colour alone reads as allowed ("2 green, 1 allowed
    (+1 of any colour)"), so the fault is their sum, said once."""
    result = check(**combine(FF29_OK, FF46_GREEN, FF16_ANY, FF25_BLUE))
    v = only(result, "supply-limit")
    assert v.message == ("2 blue, 2 green supply containers: 2 beyond their colours' own allowance "
                         "(blue 1, green 1), but only 1 of any colour")
    assert sorted(v.cells) == [(1, 0), (4, 5), (6, 2), (7, 6)]


def test_bonus_only_counts_for_placed_machines():
    # FF11 taken but not placed: nothing in the layout gives a bonus
    result = check(**combine(FF29_OK, FF46_GREEN))
    assert "FF11" not in [m for m, _, _ in combine(FF29_OK, FF46_GREEN)["machines"]]
    assert "supply-limit" in rules(result)


def test_the_stock_counts_bonus_machines_and_any_colour_extras():
    """SupplyStock is what the checker, the sketches and the prover ask: FF11 (green +), FF16 (?)."""
    ff = get_ruleset("factory-fun")
    catalog = load_catalog(ff)
    stock = SupplyStock.of(ff, [catalog["FF11"], catalog["FF16"], catalog["FF29"]])
    assert (stock.allowed("green"), stock.allowed("red"), stock.any_colour) == (2, 1, 1)
    assert stock.allows({"green": 2, "red": 2}) and not stock.allows({"green": 3, "red": 2})
    assert stock.room_for({"green": 2}, "green") and not stock.room_for({"green": 3}, "green")
    assert stock.room_for({"green": 2, "red": 2}, "blue") and not stock.room_for({"green": 2, "red": 2}, "red")
    assert SupplyStock.of(get_ruleset("factory-funner"), [catalog["FF11"]]).allowed("green") == 1  # no bonus machines
    # no bonus machine: a second container of a colour has no room, as `allows` says (QA pass 56: a mutant lived)
    plain = SupplyStock.of(ff, [catalog["FF29"]])
    assert not plain.room_for({"green": 1}, "green") and not plain.allows({"green": 2})
    assert plain.room_for({"green": 1}, "red")
    # one colour beyond its own, with one of any colour: said of that colour alone (two colours share one fault)
    assert stock.faults({"red": 3}) == [("3 red supply containers, 1 allowed (+1 of any colour)", ("red",))]
    # what is left once other components hold theirs: own allowance first, then the "?" extra
    left = stock.after({"green": 3})
    assert (left.allowed("green"), left.allowed("red"), left.any_colour) == (0, 1, 0)
    left = stock.after({"red": 1})
    assert (left.allowed("green"), left.allowed("red"), left.any_colour) == (2, 0, 1)
    assert stock.allows({"red": 1, "green": 2}) == left.allows({"green": 2})


# -- output-limit -------------------------------------------------------------------------------
FF04_X = dict(machines=[("FF04", (1, 1), 0)],
              tiles=[("supply", (1, 0), "red"), ("pipe", (2, 2), "N", "E", "S", "W"), ("output", (2, 1)), ("output", (3, 2))])


def test_three_output_reservoirs_are_legal():
    assert_legal(check(**plus(FF04_X, tiles=[("output", (2, 3))])))


def test_four_output_reservoirs_are_illegal():
    result = check(**plus(FF04_X, tiles=[("pipe", (2, 3), "W", "E", "S"), ("output", (3, 3)), ("output", (2, 4))]))
    v = only(result, "output-limit")
    assert v.cells == [(2, 1), (2, 4), (3, 2), (3, 3)] and "4" in v.message
    assert rules(result) == ["output-limit"]


# -- end-limit ----------------------------------------------------------------------------------
TWO_ENDS = combine(FF29_OK, FF09_RED)


def test_no_end_limit_by_default():
    assert_legal(check(**combine(FF29_OK, FF09_RED, FF25_BLUE)))  # three end reservoirs


def test_end_limit_option_is_enforced():
    result = check(**TWO_ENDS, options={"end_limit": 1})
    v = only(result, "end-limit")
    assert v.cells == [(1, 3), (3, 6)] and "at most 1" in v.message
    assert_legal(check(**TWO_ENDS, options={"end_limit": 2}))


def test_end_limit_zero_means_zero():
    result = check(**FF29_OK, options={"end_limit": 0})
    assert only(result, "end-limit").cells == [(1, 3)]


def test_negative_end_limit_is_unreadable():
    with pytest.raises(DocumentError, match="end_limit"):
        check(**FF29_OK, options={"end_limit": -1})


# -- diagonal -----------------------------------------------------------------------------------
DIAGONAL = dict(
    machines=[("FF29", (5, 2), 90), ("FF04", (5, 1), 90)],
    tiles=[("supply", (3, 1), "green"), ("supply", (3, 2), "red"), ("diagonal", (4, 1), 0), ("end", (7, 2)), ("output", (6, 0))],
)


def test_diagonal_with_option_is_legal():
    result = check(**DIAGONAL, options={"diagonal_intersection": True})
    assert_legal(result)
    assert result.score.cost_by_kind["diagonal"] == 2


def test_diagonal_without_option_is_illegal():
    for options in (None, {"diagonal_intersection": False}):
        result = check(**DIAGONAL, options=options)
        v = only(result, "diagonal")
        assert v.cells == [(4, 1)] and "option" in v.message
        assert rules(result) == ["diagonal"]


def test_a_ruleset_without_the_diagonal_tile_says_so_not_that_an_option_is_off(tmp_path):
    """The first edition has no diagonal tile, and its option cannot be turned on (QA: "the option is off"
    sent players looking for it). It has no bundled catalogue: a user's, with one machine, will do."""
    catalogue = tmp_path / "first-edition.json"
    machine = {"id": "FA01", "income": 5, "ports": [{"at": "W", "kind": "in", "colors": ["red"], "amount": 1}]}
    catalogue.write_text(json.dumps({"ruleset": "factory-fun-2006", "machines": [machine]}))
    document = layout_dict(tiles=[("diagonal", (2, 2), 0)], ruleset="factory-fun-2006")
    v = only(check_layout(parse_layout(document, "first.json", catalog_path=catalogue)), "diagonal")
    assert v.message == "ruleset factory-fun-2006 has no diagonal intersection tile" and v.cells == [(2, 2)]


def test_two_diagonals_are_illegal():
    result = check(**plus(DIAGONAL, tiles=[("diagonal", (1, 6), 0)]), options={"diagonal_intersection": True})
    v = only(result, "diagonal")
    assert v.cells == [(1, 6), (4, 1)] and "at most 1" in v.message


def test_diagonal_pipes_cross_from_left_north_to_right_south():
    """aN<->bS and aS<->bN, turned with the tile: rotation 90 puts b south of a."""
    # alone on the board every end is loose, which shows where each pipe opens:
    # rotation 90 at (2,2): a=(2,2), b=(3,2); a's N turns to E, b's S to W, a's S to W, b's N to E
    conn = check(tiles=[("diagonal", (2, 2), 90)], options={"diagonal_intersection": True}).connectivity
    ends = sorted(sorted((le.cell, le.side) for le in conn.loose_ends if le.node == ("pipe", k)) for k in (0, 1))
    assert ends == [[((2, 2), "E"), ((3, 2), "W")], [((2, 2), "W"), ((3, 2), "E")]]
