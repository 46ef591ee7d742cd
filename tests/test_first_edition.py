"""The `factory-fun-2006` ruleset (RULES.md section 1: Factory Fun, 1st edition) replayed and checked.

The 1st edition's tiles were never transcribed, so (as tests/test_cli.py does) a user's catalogue is made from the
2nd-edition machines recoloured to the 1st edition's colours: green -> yellow, orange -> brown."""
from __future__ import annotations

import copy
import json

import pytest

from models.check import check_layout
from models.errors import DocumentError
from models.game import parse_game
from models.layout import parse_layout
from models.paths import EXAMPLES_DIR, MACHINES_DIR
from models.replay import replay_game
from models.rulesets import get_ruleset

FIRST = get_ruleset("factory-fun-2006")


def recoloured(text: str) -> str:
    return text.replace('"green"', '"yellow"').replace('"orange"', '"brown"')


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    document = json.loads(recoloured((MACHINES_DIR / "factory-fun.json").read_text()))
    document["ruleset"] = "factory-fun-2006"
    path = tmp_path_factory.mktemp("first-edition") / "machines.json"
    path.write_text(json.dumps(document))
    return path


def rulebook_2006() -> dict:
    """The rulebook game (instances/examples/rulebook-game.json) in 1st-edition colours, no start_money given."""
    doc = json.loads(recoloured((EXAMPLES_DIR / "rulebook-game.json").read_text()))
    doc["ruleset"] = "factory-fun-2006"
    del doc["start_money"]
    return doc


def replay(doc, catalogue):
    return replay_game(parse_game(copy.deepcopy(doc), "first.json", catalog_path=catalogue))


def layout(body, catalogue):
    return parse_layout({"ruleset": "factory-fun-2006", "board": "classic-A", **copy.deepcopy(body)}, "first.json",
                        catalog_path=catalogue)


def test_rulebook_game_from_money_one_7_12_final_22(catalogue):
    """RULES 1 worked example: factory-fun-2006, the same two rounds from money 1: 1 -> 7 -> 12 (+10 chain)."""
    result = replay(rulebook_2006(), catalogue)
    assert result.legal, result.violations
    assert [r.cost for r in result.rounds] == [3, 3]
    assert [r.money for r in result.rounds] == [7, 12]
    assert result.chain_bonus == 10 and result.final_score == 22


def test_start_money_is_one_by_default(catalogue):
    """RULES 1: money starts at 1 (factory-fun-2006) when the game does not say."""
    doc = rulebook_2006()
    assert parse_game(copy.deepcopy(doc), "first.json", catalog_path=catalogue).start_money == 1
    doc["start_money"] = 2   # given: the game's own start money, as in the 2nd edition
    assert [r.money for r in replay(doc, catalogue).rounds] == [8, 13]


def test_chain_bonus_is_five_per_input_point(catalogue):
    """RULES 1: chain bonus 5 x the amount of every machine-fed input (FF08's brown input of 2: 10)."""
    final = rulebook_2006()["rounds"][1]["layout"]
    score = check_layout(layout(final, catalogue)).score
    assert FIRST.chain_bonus_per_point == 5 and score.chain_bonus == 5 * 2
    first_round = rulebook_2006()["rounds"][0]["layout"]
    assert check_layout(layout(first_round, catalogue)).score.chain_bonus == 0   # supply-fed inputs earn none


def test_last_round_example_four_tiles_income_five_bonus_five(catalogue):
    """RULES 1, 2006 example: last round with 4 new tiles and income 5: money +1; one machine-fed input of 1: +5."""
    doc = rulebook_2006()
    last = copy.deepcopy(doc["rounds"][1]["layout"])
    last["machines"].append({"id": "FF27", "cell": [6, 7], "rotation": 0})   # income 5, blue input 1 from FF08
    last["tiles"] = [t for t in last["tiles"] if t["cell"] != [5, 6]] + [
        {"kind": "pipe", "cell": [5, 6], "sides": ["W", "E"]}, {"kind": "pipe", "cell": [5, 7], "sides": ["W", "S"]},
        {"kind": "pipe", "cell": [7, 8], "sides": ["N", "S"]}, {"kind": "output", "cell": [8, 8]}]
    doc["rounds"].append({"offered": ["FF27"], "taken": "FF27", "layout": last})
    result = replay(doc, catalogue)
    assert result.legal, result.violations
    third = result.rounds[2]
    assert (len(third.new_tiles), third.cost, third.income) == (4, 4, 5)
    assert result.rounds[2].money - result.rounds[1].money == 1
    assert result.chain_bonus == 10 + 5 and result.final_score == 13 + 15


def test_skip_penalty_is_five(catalogue):
    """RULES 1: the same money rules: takes and does not build: money -= 5 (7 -> 2)."""
    doc = rulebook_2006()
    del doc["rounds"][1]["layout"]
    result = replay(doc, catalogue)
    assert result.legal and [(r.penalty, r.money) for r in result.rounds] == [(0, 7), (5, 2)]


def test_the_diagonal_tile_is_not_available(catalogue):
    """RULES 1: factory-fun-2006 has no diagonal tile: its option cannot be turned on in a game."""
    doc = rulebook_2006()
    doc["options"] = {"diagonal_intersection": True}
    with pytest.raises(DocumentError, match="ruleset factory-fun-2006 has no diagonal intersection tile"):
        parse_game(doc, "first.json", catalog_path=catalogue)
    doc["options"] = {"diagonal_intersection": False}
    assert replay(doc, catalogue).legal


def test_first_edition_supply_colours(catalogue):
    """RULES: factory-fun-2006 colours are yellow, red, blue, brown: a green supply cannot be laid."""
    body = {"machines": [], "tiles": [{"kind": "supply", "color": "green", "cell": [0, 0]}]}
    with pytest.raises(DocumentError, match='unknown supply colour "green"'):
        layout(body, catalogue)
    assert FIRST.colors == ("yellow", "red", "blue", "brown")


def test_x_splitter_is_allowed(catalogue):
    """RULES 1: treat the X-splitter as allowed in factory-fun-2006 unless a ruleset option says otherwise."""
    body = {"machines": [{"id": "FF04", "cell": [1, 1], "rotation": 0}],
            "tiles": [{"kind": "supply", "color": "red", "cell": [1, 0]},
                      {"kind": "pipe", "cell": [2, 2], "sides": ["N", "E", "S", "W"]},
                      {"kind": "output", "cell": [2, 1]}, {"kind": "output", "cell": [3, 2]},
                      {"kind": "output", "cell": [2, 3]}]}
    result = check_layout(layout(body, catalogue))
    assert result.legal, [v.to_dict() for v in result.violations]


def test_a_document_without_a_catalogue_is_told_so_by_its_file_and_key():
    """QA (fuzz): "ruleset factory-fun-2006: no bundled machine catalogue" was the one error naming neither
    the file nor the key."""
    body = {"machines": [], "tiles": []}
    with pytest.raises(DocumentError) as info:
        parse_layout({"ruleset": "factory-fun-2006", "board": "classic-A", **body}, "mine.json")
    assert str(info.value).startswith("mine.json: ruleset: ruleset factory-fun-2006 has no bundled machine catalogue")
