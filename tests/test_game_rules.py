"""Game rules of RULES.md section 1 (the 10-round game), through models.replay."""
from __future__ import annotations

import copy
import json

import pytest

from models.errors import DocumentError
from models.game import parse_game
from models.paths import EXAMPLES_DIR
from models.replay import replay_game, skip_penalty

RULEBOOK = json.loads((EXAMPLES_DIR / "rulebook-game.json").read_text())
ROUND1 = RULEBOOK["rounds"][0]["layout"]
ROUND2 = RULEBOOK["rounds"][1]["layout"]


def game(rounds, start_money=2):
    return {"ruleset": "factory-fun", "board": "classic-A", "start_money": start_money, "rounds": rounds}


def replay(doc):
    return replay_game(parse_game(copy.deepcopy(doc), "test.json"))


def rules_of(result):
    return sorted({v.rule for _, v in result.violations})


def test_rulebook_worked_example_money_2_8_13_final_23():
    result = replay(RULEBOOK)
    assert result.legal
    assert [r.money for r in result.rounds] == [8, 13]
    assert [r.cost for r in result.rounds] == [3, 3]
    assert result.chain_bonus == 10
    assert result.final_score == 23


def test_the_rulebook_game_from_money_1():
    """The same two rounds from money 1 give 1 -> 7 -> 12 (start money is a game setting); the 1st edition's
    own replay, with its ruleset, is tests/test_first_edition.py."""
    doc = dict(RULEBOOK, start_money=1)
    result = replay(doc)
    assert [r.money for r in result.rounds] == [7, 12]
    assert result.final_score == 22


def test_last_round_example_four_tiles_income_five_gains_one():
    """2006 rulebook: 4 new tiles and an income of 5 gives money +1."""
    layout = {"machines": [{"id": "FF43", "cell": [1, 2], "rotation": 0}],
              "tiles": [{"kind": "supply", "color": "orange", "cell": [1, 1]},
                        {"kind": "pipe", "cell": [1, 4], "sides": ["W", "E"]},
                        {"kind": "pipe", "cell": [1, 5], "sides": ["W", "E"]},
                        {"kind": "output", "cell": [1, 6]}]}
    result = replay(game([{"offered": ["FF43"], "taken": "FF43", "layout": layout}], start_money=4))
    assert result.legal, result.violations
    assert result.rounds[0].cost == 4 and result.money == 5


def test_moving_a_reservoir_costs_one_and_removing_is_free():
    result = replay(RULEBOOK)
    second = result.rounds[1]
    assert second.cost == 3  # reservoir moved (1) + two connectors (2)
    assert [t.kind for t in second.removed_tiles] == ["output"]
    assert sorted(t.kind for t in second.new_tiles) == ["output", "pipe", "pipe"]


def test_taking_nothing_changes_nothing():
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": ROUND1},
                          {"offered": ["FF08"], "taken": None}]))
    assert result.legal
    assert [r.money for r in result.rounds] == [8, 8]


def test_rebuilding_without_a_new_machine_is_illegal():
    changed = copy.deepcopy(ROUND1)
    changed["tiles"][2]["cell"] = [4, 3]  # move the output reservoir away from the port...
    changed["tiles"].append({"kind": "output", "cell": [5, 4]})
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": ROUND1},
                          {"offered": ["FF08"], "taken": None, "layout": changed}]))
    assert "rebuild-without-machine" in rules_of(result)


def test_removing_tiles_or_moving_a_machine_in_a_round_that_takes_nothing_is_a_rebuild():
    """Each change alone counts (QA pass 56: mutants that ignored removed tiles, or moved machines, lived)."""
    first = copy.deepcopy(ROUND1)
    first["tiles"] += [{"kind": "pipe", "cell": [5, 5], "sides": ["W", "E"]}, {"kind": "output", "cell": [5, 6]}]
    removed = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": first},
                           {"offered": ["FF08"], "taken": None, "layout": ROUND1}]))
    assert removed.rounds[0].money == 6 and rules_of(removed) == ["rebuild-without-machine"]
    assert removed.rounds[1].new_tiles == [] and len(removed.rounds[1].removed_tiles) == 2
    moved = copy.deepcopy(ROUND1)
    moved["machines"][0]["cell"] = [6, 2]   # the machine alone moves: its tiles stay
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": ROUND1},
                          {"offered": ["FF08"], "taken": None, "layout": moved}]))
    second = result.rounds[1]
    assert second.new_tiles == [] and second.removed_tiles == [] and second.moved_machines == ["FF39"]
    assert "rebuild-without-machine" in rules_of(result)
    assert second.cost == 2 and second.money == 8 - 2   # the move is paid for, as laid


def test_a_last_pick_left_unbuilt_is_no_penalty_and_no_floor():
    """RULES 1: no penalty for the last pick, so the floor at 1 did not hold a penalty back (QA pass 56: a mutant
    marking the round `penalty_floored` lived)."""
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "last_pick": True}]))
    (only_round,) = result.rounds
    assert (only_round.penalty, only_round.money, only_round.penalty_floored) == (0, 2, False)


def test_funner_tokens_are_reported_only_when_paid_or_earned():
    """RULES 2: a first pick not built at money 1 pays nothing (the floor), so no fee shows; a last pick's token
    waits for its machine's income, which a faulty machine does not earn yet (QA pass 56: mutants reporting a fee
    never charged, and a token of a faulty machine, lived)."""
    def funner(rounds):
        return {"ruleset": "factory-funner", "board": "A", "start_money": 1, "rounds": rounds}

    unpaid = replay(funner([{"offered": ["FN26", "FN48", "FN12"], "taken": None},
                            {"offered": ["FN01", "FN02", "FN03"], "taken": "FN01", "first_pick": True}]))
    second = unpaid.rounds[1]
    assert (second.penalty, second.first_pick_fee, second.money, second.penalty_floored) == (0, 0, 1, True)
    faulty = replay(funner([{"offered": ["FN26", "FN48"], "taken": None},
                            {"offered": ["FN01", "FN02"], "taken": "FN01", "last_pick": True,
                             "layout": {"machines": [{"id": "FN01", "cell": [2, 2], "rotation": 0}], "tiles": []}}]))
    second = faulty.rounds[1]
    assert second.built and (second.income, second.last_pick_token, second.money) == (0, 0, 1)


@pytest.mark.parametrize("money,expected", [(8, 3), (5, 1), (3, 1), (1, 1)])
def test_not_building_a_taken_machine_costs_five_but_never_below_one(money, expected):
    assert money - skip_penalty(money, 5, last_pick=False) == expected


def test_no_penalty_for_the_last_pick():
    assert skip_penalty(8, 5, last_pick=True) == 0
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": ROUND1},
                          {"offered": ["FF08"], "taken": "FF08", "last_pick": True}]))
    assert result.legal and result.money == 8


def test_penalty_applied_in_a_game():
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": ROUND1},
                          {"offered": ["FF08"], "taken": "FF08"}]))
    assert result.legal
    assert result.rounds[1].penalty == 5 and result.money == 3


def test_money_may_not_drop_below_one_by_building():
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": ROUND1}], start_money=1))
    assert result.legal  # 1 + 9 - 3 = 7
    poor = {"machines": [{"id": "FF43", "cell": [1, 2], "rotation": 0}],
            "tiles": [{"kind": "supply", "color": "orange", "cell": [1, 1]}]
            + [{"kind": "pipe", "cell": [1, c], "sides": ["W", "E"]} for c in range(4, 8)]
            + [{"kind": "output", "cell": [1, 8]}]}
    result = replay(game([{"offered": ["FF43"], "taken": "FF43", "layout": poor}], start_money=1))
    assert "money-floor" in rules_of(result)  # 1 + 5 - 6 = 0


def test_money_left_below_one_by_an_earlier_round_is_one_fault_not_one_a_round():
    """QA (2026-12-06): a round that broke the floor left money below 1, and the next round, which earned more
    than it cost, was blamed for the same shortfall. A build is at fault only when it brings money below 1, or
    lower still."""
    poor = {"machines": [{"id": "FF43", "cell": [1, 2], "rotation": 0}],
            "tiles": [{"kind": "supply", "color": "orange", "cell": [1, 1]}]
            + [{"kind": "pipe", "cell": [1, c], "sides": ["W", "E"]} for c in range(4, 8)]
            + [{"kind": "output", "cell": [1, 8]}]
            + [{"kind": "pipe", "cell": [8, c], "sides": ["W", "E"]} for c in (3, 4)]}  # strays: cost 8

    def second_round(pipes: int) -> dict:
        """FF39 (income 9) laid with its 3 tiles and `pipes` stray pipes more."""
        layout = copy.deepcopy(poor)
        layout["machines"] += ROUND1["machines"]
        layout["tiles"] += ROUND1["tiles"] + [{"kind": "pipe", "cell": [r, 0], "sides": ["N", "S"]}
                                              for r in range(pipes)]
        return {"offered": ["FF39"], "taken": "FF39", "layout": layout}

    first = {"offered": ["FF43"], "taken": "FF43", "layout": poor}
    gaining = replay(game([first, second_round(5)], start_money=1))  # 1 + 5 - 8 = -2, then -2 + 9 - 8 = -1
    assert [r.money for r in gaining.rounds] == [-2, -1]
    assert [number for number, v in gaining.violations if v.rule == "money-floor"] == [1]
    losing = replay(game([first, second_round(7)], start_money=1))  # -2 + 9 - 10 = -3
    assert [number for number, v in losing.violations if v.rule == "money-floor"] == [1, 2]


def test_moving_a_machine_costs_two():
    round3 = copy.deepcopy(ROUND2)
    round3["machines"].append({"id": "FF43", "cell": [1, 2], "rotation": 0})
    round3["tiles"] += [{"kind": "supply", "color": "orange", "cell": [1, 1]}, {"kind": "output", "cell": [1, 4]}]
    # round 4 adds FF25 and moves FF43 one row down: 2 for the move, 2 for its re-laid tiles, 2 for FF04's
    round4 = copy.deepcopy(round3)
    round4["machines"][2] = {"id": "FF43", "cell": [2, 2], "rotation": 0}
    round4["tiles"] = [t for t in round4["tiles"] if t["cell"] not in ([1, 1], [1, 4])] + [
        {"kind": "supply", "color": "orange", "cell": [2, 1]}, {"kind": "output", "cell": [2, 4]}]
    round4["machines"].append({"id": "FF25", "cell": [0, 6], "rotation": 0})
    round4["tiles"] += [{"kind": "supply", "color": "blue", "cell": [1, 6]}, {"kind": "end", "cell": [0, 8]}]
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": ROUND1},
                          {"offered": ["FF08"], "taken": "FF08", "layout": ROUND2},
                          {"offered": ["FF43"], "taken": "FF43", "layout": round3},
                          {"offered": ["FF25"], "taken": "FF25", "layout": round4}]))
    assert result.legal, result.violations
    assert result.rounds[2].cost == 2 and result.rounds[2].moved_machines == []
    assert result.rounds[3].moved_machines == ["FF43"]
    assert result.rounds[3].cost == 2 + 4


def test_at_most_two_machine_moves_a_round():
    three = {"machines": [{"id": "FF43", "cell": [0, 2], "rotation": 0}, {"id": "FF55", "cell": [0, 6], "rotation": 0},
                          {"id": "FF41", "cell": [6, 6], "rotation": 0}], "tiles": []}
    moved = {"machines": [{"id": "FF43", "cell": [1, 2], "rotation": 0}, {"id": "FF55", "cell": [1, 6], "rotation": 0},
                          {"id": "FF41", "cell": [5, 6], "rotation": 0}, {"id": "FF04", "cell": [7, 6], "rotation": 0}],
             "tiles": []}
    doc = game([{"offered": ["FF43"], "taken": "FF43", "layout": {"machines": three["machines"][:1], "tiles": []}},
                {"offered": ["FF55"], "taken": "FF55", "layout": {"machines": three["machines"][:2], "tiles": []}},
                {"offered": ["FF41"], "taken": "FF41", "layout": three},
                {"offered": ["FF04"], "taken": "FF04", "layout": moved}], start_money=50)
    result = replay(doc)
    assert result.rounds[3].moved_machines == ["FF43", "FF55", "FF41"]
    assert "machine-moves" in rules_of(result)
    assert result.rounds[3].cost == 6


def test_machines_are_never_removed():
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": ROUND1},
                          {"offered": ["FF08"], "taken": "FF08", "layout": {"machines": [], "tiles": []}}]))
    assert "machine-removed" in rules_of(result)


def test_a_machine_not_taken_cannot_appear():
    result = replay(game([{"offered": ["FF39", "FF08"], "taken": "FF08", "layout": ROUND1}]))
    assert "machine-not-taken" in rules_of(result)


def test_a_machine_laid_instead_of_the_taken_one_earns_nothing_and_the_penalty_keeps_money_at_1():
    """QA (2026-12-06): round 2 took FF01 and laid FF08 instead, with three tiles. The skip penalty was
    reckoned on the money before those tiles were paid (8 - 3 - 5 = 0), FF08's chain bonus of 10 counted
    though it earned no income, and "a round that adds no machine" stood beside "FF08 appears"."""
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": ROUND1},
                          {"offered": ["FF08", "FF01"], "taken": "FF01", "layout": ROUND2}]))
    assert rules_of(result) == ["machine-not-taken", "rebuild-without-machine"]
    second = result.rounds[1]
    assert second.cost == 3 and second.penalty == 4 and second.money == 1
    assert result.chain_bonus == 0 and result.final_score == 1
    rebuild = next(v for _, v in result.violations if v.rule == "rebuild-without-machine")
    assert "adds no machine" not in rebuild.message and "FF01" in rebuild.message


def test_every_round_layout_must_be_legal():
    illegal = copy.deepcopy(ROUND1)
    illegal["tiles"] = illegal["tiles"][:2]  # the output port now faces an empty cell
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": illegal}]))
    assert "loose-end" in rules_of(result)


def test_income_waits_for_the_first_round_the_machine_is_placed_legally():
    """RULES: income is earned in the round a machine is first placed legally, not when it is laid."""
    illegal = copy.deepcopy(ROUND1)
    illegal["tiles"] = illegal["tiles"][:2]  # two supplies, no output: the output port is loose
    never = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": illegal}]))
    assert never.rounds[0].income == 0 and never.money == 2 - 2
    mended = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": illegal},
                          {"offered": ["FF08"], "taken": "FF08", "layout": ROUND2}]))
    assert {n for n, _ in mended.violations} == {1}
    assert [r.income for r in mended.rounds] == [0, 9 + 8]
    assert [r.money for r in mended.rounds] == [0, 0 + 17 - 3]


def test_waiting_income_counts_towards_the_money_floor_of_the_round_that_earns_it():
    """Round 1 lays FF39 without its green supply (2 -> 0, its 9 waits); round 2 mends it beside FF52
    (income 2, cost 2): 0 + 9 + 2 - 2 = 9, no money-floor, and nothing earned in the quiet round 3."""
    ff39 = {"id": "FF39", "cell": [5, 2], "rotation": 0}
    round1 = {"machines": [ff39], "tiles": [{"kind": "supply", "color": "red", "cell": [4, 2]},
                                            {"kind": "output", "cell": [5, 4]}]}
    round2 = {"machines": [ff39, {"id": "FF52", "cell": [4, 1], "rotation": 270}],
              "tiles": round1["tiles"] + [{"kind": "supply", "color": "green", "cell": [5, 1]},
                                          {"kind": "output", "cell": [2, 1]}]}
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": round1},
                          {"offered": ["FF52"], "taken": "FF52", "layout": round2},
                          {"offered": ["FF40"], "taken": None}]))
    assert rules_of(result) == ["input-unfed", "loose-end"]
    assert [r.income for r in result.rounds] == [0, 11, 0]
    assert [r.money for r in result.rounds] == [0, 9, 9]


def test_a_fault_of_one_machine_does_not_hold_back_another_machines_income():
    """Round 2 lays FF08 correctly but lifts FF39's green supply: FF08 earns its 8 all the same."""
    broken = copy.deepcopy(ROUND2)
    broken["tiles"] = [t for t in broken["tiles"] if t.get("color") != "green"]
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": ROUND1},
                          {"offered": ["FF08"], "taken": "FF08", "layout": broken}]))
    assert {n for n, _ in result.violations} == {2}
    assert all("FF08" not in v.machines for _, v in result.violations)
    assert [r.income for r in result.rounds] == [9, 8]


def test_bonus_container_only_once_its_machine_is_built():
    """FF22 (red '+'): a second red supply container is allowed only with FF22 on the board."""
    two_red = {"machines": [{"id": "FF43", "cell": [1, 2], "rotation": 0}],
               "tiles": [{"kind": "supply", "color": "orange", "cell": [1, 1]},
                         {"kind": "output", "cell": [1, 4]},
                         {"kind": "supply", "color": "red", "cell": [6, 6]},
                         {"kind": "supply", "color": "red", "cell": [6, 8]}]}
    result = replay(game([{"offered": ["FF43"], "taken": "FF43", "layout": two_red}]))
    assert "supply-limit" in rules_of(result)
    with_bonus = copy.deepcopy(two_red)
    with_bonus["machines"].append({"id": "FF22", "cell": [7, 6], "rotation": 0})
    result = replay(game([{"offered": ["FF43"], "taken": "FF43", "layout": two_red},
                          {"offered": ["FF22"], "taken": "FF22", "layout": with_bonus}]))
    assert [n for n, v in result.violations if v.rule == "supply-limit"] == [1]


def test_taken_must_have_been_offered():
    with pytest.raises(DocumentError, match=r"rounds\[0\]\.taken"):
        parse_game(game([{"offered": ["FF39"], "taken": "FF08"}]), "g.json")


def test_a_document_error_in_a_round_names_the_round_counted_from_one():
    """QA: "rounds[9].taken" read as round 9 beside tables and violations that call it round 10."""
    with pytest.raises(DocumentError, match=r"g\.json: rounds\[1\]\.taken: \"FF39\" was not offered this round \(round 2\)$"):
        parse_game(game([{"offered": ["FF39"], "taken": None}, {"offered": ["FF08"], "taken": "FF39"}]), "g.json")


def test_a_taken_machine_the_catalogue_lacks_is_named_unknown_not_unoffered():
    with pytest.raises(DocumentError, match=r"rounds\[0\]\.taken: unknown machine id \"FF99\" \(round 1\)"):
        parse_game(game([{"offered": ["FF39"], "taken": "FF99"}]), "g.json")


def test_unknown_round_key_is_an_error():
    with pytest.raises(DocumentError, match=r"g\.json: rounds\[0\]\.takne: unknown key"):
        parse_game(game([{"offered": ["FF39"], "takne": "FF39"}]), "g.json")


def test_round_layout_errors_name_the_round():
    bad = copy.deepcopy(ROUND1)
    bad["machines"][0]["rotation"] = 45
    with pytest.raises(DocumentError, match=r"rounds\[0\]\.layout\.machines\[0\]\.rotation"):
        parse_game(game([{"offered": ["FF39"], "taken": "FF39", "layout": bad}]), "g.json")


def test_a_fault_left_in_place_is_listed_once_with_its_rounds():
    """One loose end kept for three rounds, another in rounds 1 and 3: two rows, "1-3" and "1, 3"."""
    from models.check import Violation
    from models.replay import grouped_violations

    loose = Violation("loose-end", "pipe end on side N faces an empty cell", [(2, 3)])
    other = Violation("stray-tile", "output not connected to any machine port", [(3, 0)])
    kept = Violation("loose-end", "pipe end on side N faces an empty cell", [(2, 3)])
    grouped = grouped_violations([(1, loose), (1, other), (2, kept), (3, loose), (3, other)])
    assert [(rounds, v.rule) for rounds, v in grouped] == [("1-3", "loose-end"), ("1, 3", "stray-tile")]


def test_a_game_has_at_most_the_rulesets_rounds():
    """A game of the first rounds is a game (the rulebook's example has two); more than ten is not."""
    offers = [{"offered": [f"FF{n:02d}"], "taken": None} for n in range(1, 12)]
    assert len(replay(game(offers[:10])).rounds) == 10
    with pytest.raises(DocumentError, match=r"test.json: rounds\[10\]: Factory Fun has 10 rounds; this game has 11"):
        replay(game(offers))
