"""Square game (RULES.md section 1, "The 10-round game"): rebuild costs, machine moves and the skip penalty,
through replayed games (models.replay) and, where a legal game cannot isolate one change, `round_cost`."""
from __future__ import annotations

import copy

from builders import machine, make_layout, pipe, supply, tank
from test_game_rules import ROUND1, game, replay

from models.layout import parse_layout
from models.replay import round_cost, tile_changes


def square(body: dict):
    """A classic-A layout of the bundled factory-fun catalogue."""
    return parse_layout({"ruleset": "factory-fun", "board": "classic-A", **copy.deepcopy(body)}, "square.json")


# -- skip penalty ----------------------------------------------------------------------------------------------
def test_skip_penalty_floor_in_a_replayed_game():
    """RULES 1: takes and does not build: money -= 5, but never below 1 (8 -> 3 -> 1, not -2)."""
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": ROUND1},
                          {"offered": ["FF08"], "taken": "FF08"},
                          {"offered": ["FF43"], "taken": "FF43"}]))
    assert result.legal, result.violations
    assert [(r.built, r.penalty, r.money) for r in result.rounds] == [(True, 0, 8), (False, 5, 3), (False, 2, 1)]
    # the floor took 2 of the 5 in round 3, and the reports say so (QA: a waived penalty showed as a blank)
    assert [r.penalty_floored for r in result.rounds] == [False, False, True]


def test_skip_penalty_at_money_one_takes_nothing():
    """RULES 1: never below 1: a machine taken and not built at money 1 leaves money at 1."""
    result = replay(game([{"offered": ["FF39"], "taken": "FF39"}, {"offered": ["FF08"], "taken": "FF08"}],
                         start_money=1))
    assert result.legal
    assert [(r.penalty, r.money) for r in result.rounds] == [(0, 1), (0, 1)]
    assert all(r.penalty_floored and r.to_dict()["penalty_floored"] for r in result.rounds)


# -- at most 2 machine moves a round ------------------------------------------------------------------------------
#: FF29 (green in, black out) and FF09 (red in, black out), each with its supply and end reservoir
MOVES_R1 = {"machines": [machine("FF29", (1, 1))], "tiles": [supply("green", (1, 0)), tank("end", (1, 3))]}
MOVES_R2 = {"machines": MOVES_R1["machines"] + [machine("FF09", (3, 1))],
            "tiles": MOVES_R1["tiles"] + [supply("red", (2, 1)), tank("end", (3, 3))]}
#: round 3 adds FF25 and moves both FF29 (one row up) and FF09 (one row down), their tanks with them
MOVES_R3 = {"machines": [machine("FF29", (0, 1)), machine("FF09", (4, 1)), machine("FF25", (6, 5))],
            "tiles": [supply("green", (0, 0)), tank("end", (0, 3)), supply("red", (3, 1)), tank("end", (4, 3)),
                      supply("blue", (7, 5)), tank("end", (6, 7))]}
MOVES_ROUNDS = [{"offered": ["FF29"], "taken": "FF29", "layout": MOVES_R1},
                {"offered": ["FF09"], "taken": "FF09", "layout": MOVES_R2},
                {"offered": ["FF25"], "taken": "FF25", "layout": MOVES_R3}]


def test_two_machine_moves_in_a_round_are_legal_and_cost_two_each():
    """RULES 1: move an already placed machine (2 each, at most 2 machines a round): 2 moves + 6 tiles = 10."""
    result = replay(game(MOVES_ROUNDS))
    assert result.legal, result.violations
    third = result.rounds[2]
    assert third.moved_machines == ["FF29", "FF09"]
    assert len(third.new_tiles) == 6 and third.cost == 2 * 2 + 6
    assert [r.money for r in result.rounds] == [6, 11, 6]   # 11 + 5 - 10


def test_a_third_machine_move_breaks_the_limit_in_an_otherwise_legal_game():
    """RULES 1: at most 2 machines moved a round: moving FF29, FF09 and FF25 in one round is `machine-moves`."""
    round4 = {"machines": MOVES_R2["machines"] + [machine("FF25", (5, 5)), machine("FF43", (7, 5))],
              "tiles": MOVES_R2["tiles"] + [supply("blue", (6, 5)), tank("end", (5, 7)),
                                            supply("orange", (7, 4)), tank("output", (7, 7))]}
    result = replay(game(MOVES_ROUNDS + [{"offered": ["FF43"], "taken": "FF43", "layout": round4}], start_money=12))
    assert [(n, v.rule) for n, v in result.violations] == [(4, "machine-moves")]
    # at the moved machines' cells (QA: the cells column was empty)
    moved_to = {m.id: m.cell for m in result.rounds[3].layout.machines if m.id in ("FF29", "FF09", "FF25")}
    assert result.violations[0][1].cells == sorted(moved_to.values())
    assert result.rounds[3].moved_machines == ["FF29", "FF09", "FF25"]
    assert result.rounds[3].cost == 3 * 2 + 8 and result.money == 16 + 5 - 14


# -- rebuild costs ---------------------------------------------------------------------------------------------------
#: FF29 fed green through a straight at (4,1); round 2 adds FF09 fed red through a crossing pipe over that straight
CROSS_R1 = {"machines": [machine("FF29", (4, 2))],
            "tiles": [supply("green", (4, 0)), pipe((4, 1), "W", "E"), tank("end", (4, 4))]}
CROSS_R2 = {"machines": CROSS_R1["machines"] + [machine("FF09", (6, 1))],
            "tiles": CROSS_R1["tiles"] + [supply("red", (3, 1)), pipe((4, 1), "N", "S"), pipe((5, 1), "N", "S"),
                                          tank("end", (6, 3))]}


def test_turning_a_straight_into_a_crossing_costs_one():
    """RULES 1: replacing a single straight by a crossing costs 1 (one new pipe): round 2 costs 4, not 5."""
    result = replay(game([{"offered": ["FF29"], "taken": "FF29", "layout": CROSS_R1},
                          {"offered": ["FF09"], "taken": "FF09", "layout": CROSS_R2}]))
    assert result.legal, result.violations
    second = result.rounds[1]
    assert second.removed_tiles == []
    assert sorted((t.kind, t.cell) for t in second.new_tiles) == [
        ("end", (6, 3)), ("pipe", (4, 1)), ("pipe", (5, 1)), ("supply", (3, 1))]
    assert [r.cost for r in result.rounds] == [3, 4]
    assert [r.money for r in result.rounds] == [5, 8]   # 2 + 6 - 3; 5 + 7 - 4


def test_turning_a_crossing_back_into_a_straight_is_free():
    """RULES 1: replacing a straight by a crossing costs 1; the reverse is free."""
    crossing = square(CROSS_R2)
    straight = square({"machines": CROSS_R2["machines"],
                       "tiles": [t for t in CROSS_R2["tiles"] if t != pipe((4, 1), "N", "S")]})
    assert round_cost(crossing, straight) == 0
    assert round_cost(straight, crossing) == 1


def test_rotating_a_connector_in_place_costs_one():
    """RULES 1: rotate a connector in place (1, it is a move); an unchanged connector costs nothing."""
    base = {"machines": [machine("FF29", (4, 2))], "tiles": [supply("green", (3, 1)), pipe((4, 1), "N", "E"),
                                                             pipe((6, 6), "N", "E", "S"), tank("end", (4, 4))]}
    curve_turned = copy.deepcopy(base)
    curve_turned["tiles"][1] = pipe((4, 1), "E", "S")
    splitter_turned = copy.deepcopy(base)
    splitter_turned["tiles"][2] = pipe((6, 6), "E", "S", "W")
    both = copy.deepcopy(curve_turned)
    both["tiles"][2] = splitter_turned["tiles"][2]
    before = square(base)
    assert round_cost(before, square(base)) == 0
    assert round_cost(before, square(curve_turned)) == 1
    assert round_cost(before, square(splitter_turned)) == 1
    assert round_cost(before, square(both)) == 2


def test_rotating_a_machine_in_place_costs_two():
    """RULES 1: rotate an already placed machine in place (2 each): FF29 turned 180 degrees on its own cells."""
    # round 2: the turn (2), FF29's supply and end reservoir swapped (1 each), FF09's two tiles (2): 6
    before = {"machines": [machine("FF29", (4, 2))], "tiles": [supply("green", (4, 1)), tank("end", (4, 4))]}
    turned = {"machines": [machine("FF29", (4, 3), 180), machine("FF09", (6, 1))],
              "tiles": [supply("green", (4, 4)), tank("end", (4, 1)), supply("red", (5, 1)), tank("end", (6, 3))]}
    assert square(turned).machine_footprint(square(turned).machines[0]) == [(4, 3), (4, 2)]
    result = replay(game([{"offered": ["FF29"], "taken": "FF29", "layout": before},
                          {"offered": ["FF09"], "taken": "FF09", "layout": turned}]))
    assert result.legal, result.violations
    assert result.rounds[1].moved_machines == ["FF29"]
    assert result.rounds[1].cost == 2 + 2 + 2
    assert [r.money for r in result.rounds] == [6, 7]
    # the rotation alone: 2
    only_turned = {"machines": [machine("FF29", (4, 3), 180)], "tiles": before["tiles"]}
    assert round_cost(square(before), square(only_turned)) == 2


def test_a_removed_reservoir_placed_again_in_a_later_round_costs_one():
    """RULES 1: removing is free; reservoirs return to the player's stock and can be placed again later for 1."""
    round1 = {"machines": [machine("FF43", (1, 1))], "tiles": [supply("orange", (1, 0)), tank("output", (1, 3))]}
    # round 2: FF05 takes FF43's orange product port to port; the output reservoir is lifted
    round2 = {"machines": round1["machines"] + [machine("FF05", (1, 3), 90)],
              "tiles": [supply("orange", (1, 0)), supply("blue", (0, 3)), tank("end", (2, 4))]}
    # round 3: FF31's red product goes to an output reservoir again
    round3 = {"machines": round2["machines"] + [machine("FF31", (5, 1))],
              "tiles": round2["tiles"] + [supply("green", (4, 1)), tank("output", (5, 3))]}
    result = replay(game([{"offered": ["FF43"], "taken": "FF43", "layout": round1},
                          {"offered": ["FF05"], "taken": "FF05", "layout": round2},
                          {"offered": ["FF31"], "taken": "FF31", "layout": round3}]))
    assert result.legal, result.violations
    assert [[t.kind for t in r.removed_tiles] for r in result.rounds] == [[], ["output"], []]
    assert sorted(t.kind for t in result.rounds[2].new_tiles) == ["output", "supply"]
    assert [r.cost for r in result.rounds] == [2, 2, 2]
    assert [r.money for r in result.rounds] == [5, 15, 17]
    assert result.chain_bonus == 5 and result.final_score == 22


# -- no rebuilding in a round whose machine is not built --------------------------------------------------------
def test_no_rebuilding_in_a_round_whose_taken_machine_is_not_built():
    """RULES 1: rebuilding is allowed only in a round in which a new machine is added (FF08 taken, not built)."""
    rebuilt = copy.deepcopy(ROUND1)   # a legal rebuild: the output reservoir one cell further, through a pipe
    rebuilt["tiles"][2] = pipe((5, 4), "W", "E")
    rebuilt["tiles"].append(tank("output", (5, 5)))
    assert replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": rebuilt}])).legal   # legal as a build
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": ROUND1},
                          {"offered": ["FF08"], "taken": "FF08", "layout": rebuilt}]))
    assert [(n, v.rule) for n, v in result.violations] == [(2, "rebuild-without-machine")]
    assert result.violations[0][1].cells == [(5, 4), (5, 5)]   # the changed cells (QA: none were named)
    # (its two new tiles are still paid for, as laid: QA saw "new tiles 3" at no cost)
    assert (result.rounds[1].built, result.rounds[1].penalty, result.rounds[1].cost, result.money) == (False, 5, 2, 1)


def test_a_taken_machine_not_built_with_the_layout_unchanged_is_legal():
    """RULES 1: takes and does not build: only the penalty; the same layout restated is no rebuild."""
    result = replay(game([{"offered": ["FF39"], "taken": "FF39", "layout": ROUND1},
                          {"offered": ["FF08"], "taken": "FF08", "layout": copy.deepcopy(ROUND1)}]))
    assert result.legal, result.violations
    assert (result.rounds[1].penalty, result.money) == (5, 3)


def test_a_double_connector_or_diagonal_tile_moved_or_turned_whole_costs_one_move():
    """RULES 1: "move a reservoir, container or connector (1 each)": a double connector and the diagonal tile
    are one tile each, priced 2 when new (1 per pipe) but 1 when moved or turned (QA: a moved crossing cost 2).
    A crossing is never a double curve: laying one where the other was is a new tile."""
    def laid(*tiles):
        return make_layout(tiles=tiles, options={"diagonal_intersection": True})

    crossing = laid(("pipe", (6, 6), "N", "S"), ("pipe", (6, 6), "E", "W"))
    assert round_cost(crossing, laid(("pipe", (6, 7), "N", "S"), ("pipe", (6, 7), "E", "W"))) == 1
    double_curve = laid(("pipe", (6, 6), "N", "E"), ("pipe", (6, 6), "S", "W"))
    assert round_cost(double_curve, laid(("pipe", (6, 6), "E", "S"), ("pipe", (6, 6), "W", "N"))) == 1
    assert round_cost(double_curve, laid(("pipe", (6, 7), "N", "S"), ("pipe", (6, 7), "E", "W"))) == 2
    assert round_cost(laid(), crossing) == 2
    assert round_cost(laid(("pipe", (6, 6), "N", "S")), crossing) == 1
    diagonal = laid(("diagonal", (4, 1), 0))
    assert round_cost(laid(), diagonal) == 2
    assert round_cost(diagonal, laid(("diagonal", (6, 6), 90))) == 1
    # the same domino written from its other end lays the same two pipes: no change (QA: charged as new)
    assert round_cost(diagonal, laid(("diagonal", (4, 2), 180))) == 0
    assert tile_changes(diagonal, laid(("diagonal", (4, 2), 180))) == ([], [])


def test_funner_pipe_pieces_sharing_a_hex_are_tiles_of_their_own():
    """RULES 2: placing or moving a pipe piece costs 1 each, so two pieces moved out of one hex cost 2."""
    def laid(cell):
        return make_layout(tiles=[("pipe", cell, "E", "W"), ("pipe", cell, "NE", "SW")], board="A",
                           ruleset="factory-funner")

    assert round_cost(laid((2, 2)), laid((2, 3))) == 2


def test_the_analysis_page_says_what_moving_machines_cost():
    """QA: the HTML round captions read only "build cost 8" where 2 of it moved FF25 (the terminal has a moves
    column); the caption now names the moves and their share, as "where it fell short" does."""
    from models.analysis import analysis_html, compare_games
    from models.game import parse_game

    played = parse_game(copy.deepcopy(game(MOVES_ROUNDS)), "played.json")
    report = analysis_html(compare_games(played, parse_game(copy.deepcopy(game(MOVES_ROUNDS)), "plan.json")))
    assert "(4 for moving FF29, FF09)" in report
    assert report.count("for moving") == 2   # the round that moved them, once per side
