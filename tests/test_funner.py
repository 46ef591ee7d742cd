"""Factory Funner (hex) on the same engine: its worked example and its own rules."""
from __future__ import annotations

import copy
import io
from pathlib import Path

import pytest

from models.analysis import _sides
from models.catalog import load_catalog
from models.check import check_layout
from models.errors import DocumentError
from models.game import Round, parse_game
from models.layout import parse_layout
from models.replay import replay_game, round_cost, solo_ladder_verdict
from models.rulesets import get_ruleset

EXAMPLE_CATALOG = Path(__file__).parent / "data" / "funner-rulebook-machines.json"
FUNNER = get_ruleset("factory-funner")

ROUND1 = {"machines": [{"id": "EX01", "cell": [2, 2], "rotation": 0}],
          "tiles": [{"kind": "supply", "color": "yellow", "cell": [1, 2], "side": "E"},
                    {"kind": "supply", "color": "green", "cell": [2, 1], "side": "SE"},
                    {"kind": "output", "cell": [3, 2], "side": "W"}]}
ROUND2 = {"machines": [{"id": "EX01", "cell": [2, 2], "rotation": 0}, {"id": "EX02", "cell": [4, 2], "rotation": 0}],
          "tiles": [{"kind": "supply", "color": "yellow", "cell": [1, 2], "side": "E"},
                    {"kind": "supply", "color": "green", "cell": [2, 1], "side": "SE"},
                    {"kind": "pipe", "cell": [3, 2], "sides": ["E", "W"]},
                    {"kind": "output", "cell": [5, 2], "side": "W"}]}


#: one machine offered per player: three players, so the first/last tokens are in use
THREE_PLAYERS = ["EX02", "EX03", "EX04"]


def funner_game(rounds, start_money=1):
    return {"ruleset": "factory-funner", "board": "A", "start_money": start_money, "rounds": rounds}


def replay(doc, catalog=EXAMPLE_CATALOG):
    return replay_game(parse_game(copy.deepcopy(doc), "funner.json", catalog_path=catalog))


def layout(body, catalog=None):
    return parse_layout({"ruleset": "factory-funner", "board": "A", **copy.deepcopy(body)}, "hex.json", catalog_path=catalog)


def rules_of(result):
    return sorted({v.rule for v in result.violations})


def test_seed_worked_example_money_1_6_14_bonus_3():
    result = replay(funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
                                 {"offered": ["EX02"], "taken": "EX02", "layout": ROUND2}]))
    assert result.legal, result.violations
    assert [r.cost for r in result.rounds] == [3, 2]
    assert [r.money for r in result.rounds] == [6, 14]
    assert result.chain_bonus == 3
    assert result.final_score == 17


def test_tank_opening_must_face_the_port():
    turned = copy.deepcopy(ROUND1)
    turned["tiles"][0]["side"] = "NE"
    result = check_layout(layout(turned, EXAMPLE_CATALOG))
    assert "loose-end" in rules_of(result)
    assert check_layout(layout(ROUND1, EXAMPLE_CATALOG)).legal


def test_rotating_a_tank_in_place_costs_one():
    turned = copy.deepcopy(ROUND1)
    turned["tiles"][2]["side"] = "NW"
    assert round_cost(layout(ROUND1, EXAMPLE_CATALOG), layout(turned, EXAMPLE_CATALOG)) == 1
    assert round_cost(layout(ROUND1, EXAMPLE_CATALOG), layout(ROUND1, EXAMPLE_CATALOG)) == 0


def test_tanks_need_a_side_on_hex_boards():
    body = copy.deepcopy(ROUND1)
    del body["tiles"][0]["side"]
    with pytest.raises(DocumentError, match=r"tiles\[0\]\.side: missing key"):
        layout(body, EXAMPLE_CATALOG)


def test_several_pipe_pieces_cross_in_one_hex_but_never_share_a_side():
    body = {"machines": [], "tiles": [{"kind": "pipe", "cell": [2, 2], "sides": ["E", "W"]},
                                      {"kind": "pipe", "cell": [2, 2], "sides": ["NE", "SW"]},
                                      {"kind": "pipe", "cell": [2, 2], "sides": ["NW", "SE"]}]}
    parsed = layout(body)
    assert "connector" not in rules_of(check_layout(parsed))
    body["tiles"].append({"kind": "pipe", "cell": [2, 2], "sides": ["E", "NE"]})
    with pytest.raises(DocumentError, match="pipe overlaps another pipe on side"):
        layout(body)


def test_multicolour_port_takes_one_colour_of_its_network():
    """FN33 Rebuilder's E input accepts pink or yellow; FN32's output accepts four colours."""
    body = {"machines": [{"id": "FN33", "cell": [2, 2], "rotation": 0}],
            "tiles": [{"kind": "supply", "color": "yellow", "cell": [3, 2], "side": "W"},
                      {"kind": "supply", "color": "blue", "cell": [3, 1], "side": "SW"},
                      {"kind": "end", "cell": [1, 2], "side": "E"}]}
    result = check_layout(layout(body))
    assert result.legal, result.violations
    body["tiles"][0]["color"] = "green"
    assert "one-colour" in rules_of(check_layout(layout(body)))


def test_machines_placed_earlier_never_move():
    moved = copy.deepcopy(ROUND2)
    moved["machines"][0]["rotation"] = 1
    result = replay(funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
                                 {"offered": ["EX02"], "taken": "EX02", "layout": moved}]))
    assert any(v.rule == "machine-moved" for _, v in result.violations)


def test_not_building_costs_two_and_the_first_pick_one_more():
    doc = funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
                       {"offered": THREE_PLAYERS, "taken": "EX02"}])
    assert replay(doc).money == 4
    doc["rounds"][1]["first_pick"] = True
    assert replay(doc).money == 3
    doc["rounds"][1]["first_pick"] = False
    doc["rounds"][1]["last_pick"] = True
    assert replay(doc).money == 6


def test_last_pick_built_earns_one_more_and_first_pick_pays_one_more():
    doc = funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
                       {"offered": THREE_PLAYERS, "taken": "EX02", "layout": ROUND2, "last_pick": True}])
    assert replay(doc).money == 15
    doc["rounds"][1].update(last_pick=False, first_pick=True)
    assert replay(doc).money == 13


def test_tokens_are_not_used_solo_and_only_the_last_pick_one_with_two_players():
    """The rulebook (seed 002): "2-player games leave out the (-1) tile; solo games both". Solo, the last pick
    still spares the penalty of a machine not built (the general rule), but earns no token; with two players it
    earns the +1 (QA pass 43: it earned nothing, as RULES.md's "3+ players" reads), and a first pick cannot
    happen."""
    doc = funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
                       {"offered": ["EX02"], "taken": "EX02", "layout": ROUND2, "last_pick": True}])
    assert replay(doc).money == 14
    doc["rounds"][1]["offered"] = ["EX02", "EX03"]
    assert replay(doc).money == 15
    doc["rounds"][1]["offered"] = ["EX02"]
    doc["rounds"][1].pop("layout")
    assert replay(doc).money == 6
    doc["rounds"][1].update(last_pick=False, first_pick=True, offered=["EX02", "EX03"])
    with pytest.raises(DocumentError, match=r"rounds\[1\]\.first_pick: the first-pick token is used with 3 or more players, and this round offers 2 machines, one per player"):
        replay(doc)


def _round1_with_stray_pipes(count: int) -> dict:
    """The seed's round 1 (cost 3, income 8) and `count` more pipes that serve nothing (1 each)."""
    body = copy.deepcopy(ROUND1)
    free = [[q, r] for r in (4, 5) for q in range(6)]
    body["tiles"] += [{"kind": "pipe", "cell": cell, "sides": ["E", "W"]} for cell in free[:count]]
    return body


def test_a_build_that_would_leave_money_below_one_is_undone_and_the_penalty_paid():
    """RULES section 2: in Funner such a build is undone and the penalty paid (never below 1); the game goes
    on, legally, from the layout before it."""
    doc = funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": _round1_with_stray_pipes(6)},
                       {"offered": ["EX02"], "taken": None}], start_money=1)   # 1 + 8 - 9 = 0
    result = replay(doc)
    assert [(r.built, r.undone, r.cost, r.money) for r in result.rounds] == [(False, True, 0, 1), (False, False, 0, 1)]
    assert result.legal, result.violations
    assert result.final_layout.machines == ()
    # the round's pictures and words are the replay's: the board before the build, "undone" (QA: the analysis
    # drew the document's layout, EX01 and its pipes, and its tables said "not built")
    sides = _sides(parse_game(copy.deepcopy(doc), "undone.json", catalog_path=EXAMPLE_CATALOG), result)
    assert [side.layout.machines for side in sides] == [(), ()]
    assert sides[0].choice == "EX01 undone (money below 1)"
    doc["start_money"] = 4   # 4 + 8 - 9 = 3: built; the penalty (2) is paid from 4 when undone
    assert replay(doc).rounds[0].built
    doc["rounds"][0]["layout"] = _round1_with_stray_pipes(11)   # 4 + 8 - 14 = -2: undone, 4 - 2 = 2
    assert [(r.undone, r.penalty, r.money) for r in replay(doc).rounds[:1]] == [(True, 2, 2)]


def test_an_undone_build_at_money_one_says_the_floor_spared_the_penalty(tmp_path):
    """QA: every undone build with a penalty of 0 was put down to the last pick, where money stood at its floor."""
    import json

    from click.testing import CliRunner

    from cli import main

    path = tmp_path / "undone.json"
    path.write_text(json.dumps(funner_game([{"offered": ["EX01"], "taken": "EX01",
                                             "layout": _round1_with_stray_pipes(6)}])))   # 1 + 8 - 9 = 0
    out = " ".join(CliRunner().invoke(main, ["replay", str(path), "--catalog", str(EXAMPLE_CATALOG)]).output.split())
    assert "undone and no penalty was paid (money cannot fall below 1)" in out and "last pick" not in out


def test_a_build_that_leaves_money_at_one_stands():
    doc = funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": _round1_with_stray_pipes(5)}], start_money=1)
    result = replay(doc)   # 1 + 8 - 8 = 1
    assert [(r.built, r.undone, r.money) for r in result.rounds] == [(True, False, 1)]
    assert "money-floor" not in {v.rule for _, v in result.violations}


def test_first_pick_token_is_funner_only():
    with pytest.raises(DocumentError, match="has no first-pick token"):
        parse_game({"ruleset": "factory-fun", "board": "classic-A",
                    "rounds": [{"offered": ["FF01"], "taken": "FF01", "first_pick": True}]}, "g.json")


@pytest.mark.parametrize("rounds, message", [
    ([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1, "first_pick": True}],
     r"rounds\[0\]\.first_pick: the first-pick token is used from round 2 on"),
    ([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
      {"offered": ["EX02"], "taken": "EX02", "first_pick": True, "last_pick": True}],
     r"rounds\[1\]: first_pick and last_pick go to different players"),
    ([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
      {"offered": ["EX02"], "taken": None, "last_pick": True}],
     r"rounds\[1\]\.last_pick: the last pick goes with a taken machine"),
])
def test_tokens_that_cannot_happen_are_document_errors(rounds, message):
    """RULES: the first/last tokens are for rounds 2-8 and go to two players who each took a machine."""
    with pytest.raises(DocumentError, match=message):
        replay(funner_game(rounds))


def test_a_plan_that_takes_nothing_drops_the_rounds_token():
    offer = Round(["EX02"], None, last_pick=True, first_pick=False)
    assert offer.planned(None, None).last_pick is False
    assert offer.planned("EX02", None).last_pick is True


def _tanks(kind: str, count: int) -> dict:
    """`count` lone tanks of one kind on rows 0 and 2 (each breaks only stray rules, not the limits)."""
    cells = [[q, 0] for q in range(6)] + [[q, 2] for q in range(6)]
    return {"machines": [], "tiles": [{"kind": kind, "cell": cell, "side": "SE"} for cell in cells[:count]]}


def _limit_messages(body: dict, rule: str) -> list[str]:
    return [v.message for v in check_layout(layout(body)).violations if v.rule == rule]


def test_nine_black_tanks_at_most():
    assert _limit_messages(_tanks("end", 10), "end-limit") == ["10 black tanks, at most 9"]
    assert _limit_messages(_tanks("end", 9), "end-limit") == []
    # one, against a stock set to none: one tank, in the singular (QA pass 43: "1 black tanks")
    assert _limit_messages({**_tanks("end", 1), "options": {"end_limit": 0}}, "end-limit") == ["1 black tank, at most 0"]
    # a lone tank's opening is called by the tank's name, as the other messages and the legend do (QA pass 43:
    # "end tank opening")
    assert _limit_messages(_tanks("end", 1), "loose-end") == ["black tank opening on side SE faces an empty cell"]


def test_three_white_tanks_at_most():
    assert _limit_messages(_tanks("output", 4), "output-limit") == ["4 white tanks, at most 3"]
    assert _limit_messages(_tanks("output", 3), "output-limit") == []


def test_one_supply_tank_per_colour_no_bonus_machines():
    body = {"machines": [], "tiles": [{"kind": "supply", "color": "pink", "cell": [0, 0], "side": "E"},
                                      {"kind": "supply", "color": "pink", "cell": [4, 0], "side": "E"}]}
    assert _limit_messages(body, "supply-limit") == ["2 pink supply tanks, 1 allowed"]   # in the Funner's words
    body["tiles"][1]["color"] = "blue"
    assert _limit_messages(body, "supply-limit") == []


@pytest.mark.parametrize("score,verdict", [(45, "up"), (60, "up"), (44, "stay"), (41, "stay"), (40, "down")])
def test_solo_ladder(score, verdict):
    assert solo_ladder_verdict(FUNNER, score) == verdict
    assert solo_ladder_verdict(get_ruleset("factory-fun"), score) is None


def test_eight_rounds_start_money_one_chain_three():
    assert (FUNNER.rounds, FUNNER.start_money, FUNNER.chain_bonus_per_point, FUNNER.skip_penalty) == (8, 1, 3, 2)
    assert len(load_catalog(FUNNER).machines) == 48


def test_the_ladder_verdict_is_for_solo_games_only():
    """RULES: the ladder is for solo games: one machine offered a round, no first/last tokens."""
    rounds = [{"offered": [f"FN{k:02d}"]} for k in range(1, 9)]
    assert replay(funner_game(rounds), catalog=None).ladder == "down"
    with_others = [{"offered": ["FN01", "FN09"]}] + rounds[1:]
    assert replay(funner_game(with_others), catalog=None).ladder is None
    with_token = rounds[:1] + [{"offered": ["FN02", "FN20", "FN21"], "last_pick": True}] + rounds[2:]
    assert replay(funner_game(with_token), catalog=None).ladder is None
    # one machine offered: `last_pick` only spares the penalty, no token (QA: it cost the verdict)
    spared = rounds[:1] + [{"offered": ["FN02"], "last_pick": True}] + rounds[2:]
    assert replay(funner_game(spared), catalog=None).ladder == "down"


def test_the_last_machine_of_round_one_is_spared_the_penalty_but_earns_no_token():
    """RULES section 2: "no penalty for the player who took the last machine" holds in every round; the +1 token
    only from round 2 (QA: round 1's `last_pick` was a document error, so the penalty had to be paid)."""
    skipped = replay(funner_game([{"offered": THREE_PLAYERS, "taken": "EX02", "last_pick": True}], start_money=5))
    assert skipped.legal and skipped.rounds[0].penalty == 0 and skipped.money == 5
    paid = replay(funner_game([{"offered": THREE_PLAYERS, "taken": "EX02"}], start_money=5))
    assert paid.rounds[0].penalty == 2
    built = replay(funner_game([{"offered": ["EX01", "EX03", "EX04"], "taken": "EX01", "layout": ROUND1,
                                 "last_pick": True}]))
    assert built.rounds[0].last_pick_token == 0 and built.rounds[0].income == 8


def test_the_ladder_judges_only_a_whole_legal_solo_game():
    """QA saw "solo ladder: down a level" under a 4-round plan and under an illegal game."""
    rounds = [{"offered": [f"FN{k:02d}"]} for k in range(1, 9)]   # eight rounds, nothing taken: score 1
    assert replay(funner_game(rounds), catalog=None).ladder == "down"
    assert replay(funner_game(rounds[:4]), catalog=None).ladder is None
    unconnected = {"machines": [{"id": "FN01", "cell": [2, 2], "rotation": 0}], "tiles": []}
    illegal = replay(funner_game([{"offered": ["FN01"], "taken": "FN01", "layout": unconnected}] + rounds[1:]),
                     catalog=None)
    assert not illegal.legal and illegal.ladder is None


def test_plan_shows_the_ladder_as_replay_does(monkeypatch):
    """QA: `plan` wrote "ladder": "down" into its document but never showed it."""
    from types import SimpleNamespace

    import cli
    from rich.console import Console

    shown = Console(file=io.StringIO(), width=200)
    monkeypatch.setattr(cli, "console", shown)
    replayed = replay(funner_game([{"offered": [f"FN{k:02d}"]} for k in range(1, 9)]), catalog=None)
    cli._plan_summary(SimpleNamespace(replay=replayed, final_score=replayed.final_score, gap=None, bound=None,
                                      status="FEASIBLE", interrupted=False), False)
    assert "solo ladder: down a level" in shown.file.getvalue()


def test_the_tokens_are_named_apart_from_the_build_and_the_income():
    """QA: analyze showed a first pick's -1 as a dearer build ("build cost 6 against 5") and a last pick's +1
    as income ("+9 income" for a machine of 8)."""
    from models.analysis import money_moves

    doc = funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
                       {"offered": THREE_PLAYERS, "taken": "EX02", "layout": ROUND2, "first_pick": True}])
    first = replay(doc).rounds[1]
    assert (first.cost, first.first_pick_fee, first.income, first.last_pick_token) == (3, 1, 10, 0)
    assert money_moves(first) == [("income", 10), ("build", -2), ("first pick", -1)]
    doc["rounds"][1].update(first_pick=False, last_pick=True)
    last = replay(doc).rounds[1]
    assert (last.cost, last.first_pick_fee, last.income, last.last_pick_token) == (2, 0, 11, 1)
    assert money_moves(last) == [("income", 10), ("last pick", 1), ("build", -2)]
    assert last.to_dict()["last_pick_token"] == 1 and "first_pick_fee" not in last.to_dict()


def test_a_round_lost_to_a_first_pick_says_so():
    from models.analysis import compare_games

    plan = funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
                        {"offered": THREE_PLAYERS, "taken": "EX02", "layout": ROUND2}])
    played = copy.deepcopy(plan)
    played["rounds"][1]["first_pick"] = True
    games = [parse_game(copy.deepcopy(d), name, catalog_path=EXAMPLE_CATALOG)
             for d, name in ((played, "played.json"), (plan, "plan.json"))]
    analysis = compare_games(*games, None, None)
    assert [(s.round, s.amount, s.text) for s in analysis.shortfalls()] == [(2, 1, "round 2: first-pick token -1")]


def test_tank_words_keep_their_article():
    """Funner says white and black tanks; QA read "an white tank in an end-product network"."""
    assert FUNNER.in_own_words("an output reservoir in an end-product network") == "a white tank in an end-product network"
    assert FUNNER.in_own_words("An end-product reservoir") == "A black tank"


def test_an_end_limit_setting_may_lower_the_black_tank_stock_but_not_raise_it():
    """RULES 2: black tanks are a shared stock of 9 (QA: `end_limit: 12` was accepted)."""
    layout = {"ruleset": "factory-funner", "board": "A", "machines": [], "tiles": []}
    parse_layout({**layout, "options": {"end_limit": 5}}, "five.json")
    with pytest.raises(DocumentError, match=r"options\.end_limit: expected an integer stock or null from 0 to 9, "
                                            r"got 12 \(Factory Funner's stock is 9\)"):
        parse_layout({**layout, "options": {"end_limit": 12}}, "twelve.json")
