"""Factory Funner (RULES.md section 2): game rules through replayed games, and hex layout rules (several pipe
pieces in one hex, the two-output machine, multi-colour ports across rounds)."""
from __future__ import annotations

import copy

from builders import machine, pipe, tank
from test_funner import EXAMPLE_CATALOG, ROUND1, ROUND2, funner_game, layout, replay

from models.check import check_layout


def rules(result) -> list[str]:
    return sorted(v.rule for v in result.violations)


def game_rules(result) -> list[tuple[int, str]]:
    return [(n, v.rule) for n, v in result.violations]


# -- skip penalty ----------------------------------------------------------------------------------------------
def test_skip_penalty_two_never_below_one_in_a_replayed_game():
    """RULES 2: not placing a taken machine: -2 (never below 1): 6 -> 4 -> 2 -> 1, not 0."""
    result = replay(funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
                                 {"offered": ["EX02"], "taken": "EX02"},
                                 {"offered": ["EX03"], "taken": "EX03"},
                                 {"offered": ["EX04"], "taken": "EX04"}]))
    assert result.legal, result.violations
    assert [(r.built, r.penalty, r.money) for r in result.rounds] == [(True, 0, 6), (False, 2, 4), (False, 2, 2),
                                                                       (False, 1, 1)]


# -- machines are fixed once placed ------------------------------------------------------------------------------
def test_a_machine_moved_to_another_cell_breaks_the_rule():
    """RULES 2: machines placed in earlier rounds can never be moved: EX01 moved two rows down is `machine-moved`."""
    moved = {"machines": [machine("EX01", (2, 4)), machine("EX02", (3, 4))],   # EX02 takes EX01's pink port to port
             "tiles": [tank("supply", (1, 4), "E", "yellow"), tank("supply", (2, 3), "SE", "green"),
                       tank("output", (4, 4), "W")]}
    assert check_layout(layout(moved, EXAMPLE_CATALOG)).legal   # as a layout it is fine: only the move is wrong
    result = replay(funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
                                 {"offered": ["EX02"], "taken": "EX02", "layout": moved}]))
    assert game_rules(result) == [(2, "machine-moved")]
    assert result.rounds[1].moved_machines == ["EX01"]
    kept = replay(funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
                               {"offered": ["EX02"], "taken": "EX02", "layout": ROUND2}]))
    assert kept.legal and kept.rounds[1].moved_machines == []


# -- multi-colour ports ------------------------------------------------------------------------------------------
def test_a_multicolour_port_may_change_colour_between_rounds():
    """RULES 2: a multi-colour port accepts any one of its colours and may change colour between rounds."""
    # FN33's E input (pink or yellow) takes yellow from a supply tank in round 1, FN27's pink product in round 2
    round1 = {"machines": [machine("FN33", (2, 2))],
              "tiles": [tank("supply", (3, 2), "W", "yellow"), tank("supply", (3, 1), "SW", "blue"),
                        tank("end", (1, 2), "E")]}
    round2 = {"machines": round1["machines"] + [machine("FN27", (3, 2), 4)],   # its NE output turned to W
              "tiles": round1["tiles"][1:] + [tank("supply", (4, 1), "SW", "pink")]}
    result = replay(funner_game([{"offered": ["FN33"], "taken": "FN33", "layout": round1},
                                 {"offered": ["FN27"], "taken": "FN27", "layout": round2}]), catalog=None)
    assert result.legal, result.violations
    assert [r.cost for r in result.rounds] == [3, 1]
    assert [r.money for r in result.rounds] == [6, 10]   # 1 + 8 - 3; 6 + 5 - 1
    assert result.chain_bonus == 3 * 2 and result.final_score == 16


# -- several pipe pieces in one hex -----------------------------------------------------------------------------------
#: three networks crossing in hex (2,1): yellow W-E to FN34, green NE-SW to FN41, pink NW-SE to FN27
YELLOW = ([machine("FN34", (3, 1))],
          [tank("supply", (1, 1), "E", "yellow"), pipe((2, 1), "E", "W"), tank("output", (3, 2), "NW")])
GREEN = ([machine("FN41", (1, 2), 1)],
         [tank("supply", (2, 0), "SW", "green"), pipe((2, 1), "NE", "SW"), tank("end", (1, 3), "NE")])
PINK = ([machine("FN27", (2, 2), 3)],
        [tank("supply", (1, 0), "SE", "pink"), pipe((2, 1), "NW", "SE"), tank("output", (2, 3), "NE")])


def crossing(*parts) -> dict:
    return {"machines": [m for p in parts for m in p[0]], "tiles": [t for p in parts for t in p[1]]}


def test_two_pipe_pieces_in_one_hex_carry_separate_networks():
    """RULES 2: a hex may hold several pipe pieces on disjoint sides (they cross); every pipe piece costs 1."""
    parsed = layout(crossing(YELLOW, GREEN))
    result = check_layout(parsed)
    assert result.legal, [v.to_dict() for v in result.violations]
    in_hex = [result.connectivity.network_of[("pipe", i)] for i, p in enumerate(parsed.pipes) if p.ends[0][0] == (2, 1)]
    assert len(in_hex) == 2 and len(set(in_hex)) == 2
    assert result.score.cost_by_kind["pipe"] == 2


def test_three_pipe_pieces_in_one_hex_carry_three_networks():
    """RULES 2: several pipe pieces per hex on disjoint sides, each 1: three pieces, three networks, pipe cost 3."""
    parsed = layout(crossing(YELLOW, GREEN, PINK))
    result = check_layout(parsed)
    assert result.legal, [v.to_dict() for v in result.violations]
    in_hex = [result.connectivity.network_of[("pipe", i)] for i, p in enumerate(parsed.pipes) if p.ends[0][0] == (2, 1)]
    assert len(set(in_hex)) == 3
    assert result.score.cost_by_kind["pipe"] == 3 and result.score.cost == 9


def test_one_pipe_piece_joining_the_same_sides_mixes_the_networks():
    """RULES 2 (N1): one piece on the four sides joins yellow and green: `one-colour`, where two pieces were legal."""
    body = crossing(YELLOW, GREEN)
    body["tiles"] = [t for t in body["tiles"] if t["kind"] != "pipe"] + [pipe((2, 1), "E", "W", "NE", "SW")]
    assert "one-colour" in rules(check_layout(layout(body)))


def test_a_second_piece_in_a_hex_costs_one_in_the_round_it_is_laid():
    """RULES 2: placing a pipe costs 1: each round adds one piece to hex (2,1) with a tank pair: cost 3 each."""
    rounds = [{"offered": [part[0][0]["id"]], "taken": part[0][0]["id"], "layout": crossing(*parts)}
              for part, parts in ((YELLOW, (YELLOW,)), (GREEN, (YELLOW, GREEN)), (PINK, (YELLOW, GREEN, PINK)))]
    result = replay(funner_game(rounds), catalog=None)
    assert result.legal, result.violations
    assert [r.cost for r in result.rounds] == [3, 3, 3]
    assert [r.money for r in result.rounds] == [1 + 5 - 3, 3 + 7 - 3, 7 + 5 - 3]


# -- the machine with two outputs ----------------------------------------------------------------------------------
#: FN45: inputs E blue 3, SE green 1; outputs NW pink 1 and W yellow 2
FN45_FED = [machine("FN45", (1, 4))], [tank("supply", (2, 4), "W", "blue"), tank("supply", (2, 5), "NW", "green")]


def test_the_two_output_machine_with_each_output_to_its_own_white_tank_is_legal():
    """RULES 2: one machine has two outputs of different colours: each to its own white tank is legal."""
    machines, tiles = FN45_FED
    body = {"machines": machines, "tiles": tiles + [tank("output", (1, 3), "SE"), tank("output", (0, 4), "E")]}
    result = check_layout(layout(body))
    assert result.legal, [v.to_dict() for v in result.violations]
    assert result.score.cost == 4


def test_the_two_output_machine_with_both_outputs_in_one_network_mixes_colours():
    """RULES 2 / 1 (N1): FN45's pink and yellow outputs piped into one white tank: `one-colour`, and nothing else."""
    machines, tiles = FN45_FED
    body = {"machines": machines, "tiles": tiles + [pipe((1, 3), "SE", "SW", "NW"), pipe((0, 4), "E", "NE"),
                                                    tank("output", (0, 2), "SE")]}
    result = check_layout(layout(body))
    assert rules(result) == ["one-colour"]
    assert result.violations[0].machines == ["FN45"]


# -- tanks change only in a round with a new machine -------------------------------------------------------------------
def test_turning_a_tank_in_a_round_that_takes_nothing_is_a_rebuild():
    """RULES 2: tanks and pipes may be changed only in a round in which a new machine is placed (turning = a move)."""
    turned = copy.deepcopy(ROUND1)
    turned["tiles"][2]["side"] = "NW"   # the white tank turned in place, nothing else changed
    result = replay(funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
                                 {"offered": ["EX02"], "taken": None, "layout": turned}]))
    assert [n for n, v in result.violations if v.rule == "rebuild-without-machine"] == [2]
    # (an illegal rebuild is still paid for, as laid: the turn is a move, 1)
    assert result.rounds[1].cost == 1 and result.money == 5
    assert len(result.rounds[1].new_tiles) == 1 and len(result.rounds[1].removed_tiles) == 1


def test_an_unchanged_layout_in_a_round_that_takes_nothing_is_legal():
    """RULES 2 / 1: takes nothing: no change (the same layout restated is legal, money 6 stays 6)."""
    result = replay(funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
                                 {"offered": ["EX02"], "taken": None, "layout": copy.deepcopy(ROUND1)}]))
    assert result.legal, result.violations
    assert [r.money for r in result.rounds] == [6, 6]


def test_turning_a_tank_in_a_round_whose_machine_is_not_built_is_a_rebuild():
    """RULES 2 / 1: no rebuilding in a round where the taken machine is not placed; the penalty 2 is paid."""
    turned = copy.deepcopy(ROUND1)
    turned["tiles"][2]["side"] = "NW"
    result = replay(funner_game([{"offered": ["EX01"], "taken": "EX01", "layout": ROUND1},
                                 {"offered": ["EX02"], "taken": "EX02", "layout": turned}]))
    assert [n for n, v in result.violations if v.rule == "rebuild-without-machine"] == [2]
    assert (result.rounds[1].penalty, result.rounds[1].cost, result.money) == (2, 1, 3)


def test_a_first_pick_not_built_at_the_money_floor_still_shows_its_token():
    """QA: at money 2 a first pick taken and not built showed "-1 (money at 1)" and no token; the floor takes
    the token first, then the penalty (the money is the same either way)."""
    from pathlib import Path

    from models.game import load_game

    from models.replay import replay_game

    result = replay_game(load_game(Path(__file__).parent / "data" / "funner-first-pick-at-the-floor.json"))
    second = result.rounds[1]
    assert (second.built, second.penalty, second.money) == (False, 1, 1)
    assert (second.first_pick_fee, second.penalty_alone, second.penalty_floored) == (1, 0, True)


SPECIALS = {"FN32", "FN33", "FN45"}


def _dealt(players: int, seed: int, specials: bool = False) -> set[str]:
    from models.catalog import load_catalog
    from models.rulesets import get_ruleset
    from models.sequence import random_sequence

    funner = get_ruleset("factory-funner")
    document = random_sequence(funner, load_catalog(funner), "A", seed, players=players, specials=specials)
    return {machine for entry in document["rounds"] for machine in entry["offered"]}


def test_the_deal_leaves_the_three_special_machines_in_the_box_as_the_rulebook_does():
    """Seed 002 shuffles "all 45 machines" and lists the 3 special tiles among the additional components
    (QA: every FN id, specials included, turned up in 20 deals)."""
    assert all(not _dealt(5, seed) & SPECIALS for seed in range(20))
    assert len(_dealt(5, 0)) == 40
    assert any(_dealt(5, seed, specials=True) & SPECIALS for seed in range(20))


def test_six_funner_players_need_the_specials_as_the_rulebook_has_five_boards():
    import pytest

    with pytest.raises(ValueError, match=r"48 machines; the catalogue deals 45 \(3 special machines left out: --specials"):
        _dealt(6, 1)
    assert _dealt(6, 1, specials=True) >= SPECIALS


def test_fewer_rounds_do_not_seat_more_players_than_the_deck_deals_a_whole_game():
    """QA pass 39: `--players 6 --rounds 7` dealt a Funner game of 6, and `--players 55 --rounds 1` one of 55; the
    first rounds of a game are dealt for the whole game; one player's rounds are dealt as asked."""
    import pytest

    from models.catalog import load_catalog
    from models.rulesets import get_ruleset
    from models.sequence import random_sequence

    for ruleset_id, board, players in (("factory-funner", "A", 6), ("factory-fun", "classic-A", 55)):
        ruleset = get_ruleset(ruleset_id)
        with pytest.raises(ValueError, match=r"rounds \(a whole game's\) x"):
            random_sequence(ruleset, load_catalog(ruleset), board, 1, players=players, rounds=1)
        assert len(random_sequence(ruleset, load_catalog(ruleset), board, 1, players=5, rounds=1)["rounds"][0]["offered"]) == 5


def test_the_special_mark_survives_the_catalogue_written_and_read_back():
    from models.catalog import catalog_document, load_catalog, parse_catalog
    from models.rulesets import get_ruleset

    funner = get_ruleset("factory-funner")
    catalog = load_catalog(funner)
    assert {m.id for m in catalog.machines.values() if m.special} == SPECIALS
    assert parse_catalog(catalog_document(catalog), funner, "again.json").machines == catalog.machines
