"""Games derived from a final factory (solver/build_order.py), judged by the replay.

Each case is small enough to count by hand: what the rounds pay, which tiles are
temporary, and what a round that cannot be paid for does.
"""
from __future__ import annotations

from models.check import check_layout
from models.game import parse_game
from models.layout import Tile, parse_layout
from models.replay import replay_game
from solver.build_order import build_towards

from builders import make_layout
from test_plan import sequence

#: the rulebook's second round: FF39's orange output port to port into FF08, red from one container
RULEBOOK_FINAL = dict(
    machines=[("FF39", (5, 2), 0), ("FF08", (5, 4), 0)],
    tiles=[("supply", (4, 2), "red"), ("supply", (5, 1), "green"), ("pipe", (4, 3), "W", "E"),
           ("pipe", (4, 4), "W", "S"), ("output", (5, 6))],
)


def _layouts(built):
    return [r.layout for r in built.rounds]


def _same(a, b) -> bool:
    """The same machines and tiles (in any order)."""
    return set(a.machines) == set(b.machines) and sorted(map(repr, a.tiles)) == sorted(map(repr, b.tiles))


def test_the_rulebook_game_is_derived_from_its_final_factory():
    """Round 1: FF39, two containers and a reservoir where FF08 will stand (3): 2 -> 8.
    Round 2: the reservoir goes, FF08 stands there, two pipes and a reservoir (3): 8 -> 13; chain 10."""
    final = make_layout(**RULEBOOK_FINAL)
    built = build_towards(sequence(["FF39"], ["FF08"]), final)
    assert built.replay.legal, built.replay.violations
    assert [r.money for r in built.replay.rounds] == [8, 13]
    assert built.final_score == 23 == 2 + check_layout(final).score.total - 1  # one temporary reservoir
    first = _layouts(built)[0]
    assert Tile("output", (5, 4)) in first.tiles and len(first.tiles) == 3
    assert _same(_layouts(built)[1], final)
    assert not built.skipped


def test_a_splitter_whose_branch_waits_is_a_straight_until_then():
    """The red container feeds FF39 through a T at (4, 2) whose east branch waits for FF08:
    round 1 lays a straight there (1), round 2 the T (1 more) and the branch."""
    final = make_layout(machines=[("FF39", (5, 2), 0), ("FF08", (5, 4), 0)],
                        tiles=[("supply", (3, 2), "red"), ("pipe", (4, 2), "N", "E", "S"), ("pipe", (4, 3), "W", "E"),
                               ("pipe", (4, 4), "W", "S"), ("supply", (5, 1), "green"), ("output", (5, 6))])
    assert check_layout(final).legal
    built = build_towards(sequence(["FF39"], ["FF08"]), final)
    assert built.replay.legal, built.replay.violations
    first = _layouts(built)[0]
    assert Tile("pipe", (4, 2), sides=("N", "S")) in first.tiles
    assert not any(t.cell in ((4, 3), (4, 4)) for t in first.tiles)
    assert [r.cost for r in built.replay.rounds] == [4, 4]
    assert built.final_score == 2 + check_layout(final).score.total - 2  # the straight and the reservoir


def test_a_machine_fed_by_a_later_one_is_supplied_until_its_feeder_comes():
    """FF08 comes first: its orange input, fed by FF39 at the end, takes a temporary orange container."""
    final = make_layout(**RULEBOOK_FINAL)
    built = build_towards(sequence(["FF08"], ["FF39"]), final)
    assert built.replay.legal, built.replay.violations
    first = _layouts(built)[0]
    assert first.machine_ids == ["FF08"]
    assert any(t.kind == "supply" and t.color == "orange" for t in first.tiles)
    assert check_layout(first).legal
    assert _same(_layouts(built)[1], final)
    assert built.final_score <= 2 + check_layout(final).score.total


def test_a_round_that_costs_more_than_the_money_takes_nothing():
    """From money 1, FF35 (income 1) needs three tiles: it is not taken, and FF43 is built alone."""
    final = make_layout(machines=[("FF43", (5, 2), 0), ("FF35", (6, 2), 0)],
                        tiles=[("supply", (5, 1), "orange"), ("pipe", (6, 1), "N", "E"), ("output", (5, 4)),
                               ("output", (6, 4))])
    assert check_layout(final).legal
    built = build_towards(sequence(["FF35"], ["FF43"], start_money=1), final)
    assert built.replay.legal, built.replay.violations
    assert [r.taken for r in built.rounds] == [None, "FF43"]
    assert built.skipped == ["FF35"]
    assert built.final_score == 1 + 5 - 2


def test_derived_games_of_solver_factories_replay_legally():
    """Every round of a game derived from a sketched 6-machine factory is legal, and the replay agrees."""
    from models.game import Game
    from solver.sketch import best_sketch

    game = sequence(["FF04"], ["FF05"], ["FF21"], ["FF23"], ["FF37"], ["FF40"])
    c = game.context
    final = best_sketch(c.ruleset, c.board, c.catalog, [r.offered[0] for r in game.rounds], seed=3, time_limit=2.0)
    assert final is not None
    built = build_towards(game, final, seed=3)
    assert built.replay.legal, built.replay.violations
    again = replay_game(Game(c, game.start_money, built.rounds, {}, "derived"))
    assert again.final_score == built.final_score
    assert built.final_score <= 2 + check_layout(final).score.total


def test_games_derived_in_any_round_order_are_legal():
    """Sketched 10-machine factories built in shuffled round orders: every derived game replays legally
    and never scores above start money + the factory's static score (the plan's bound)."""
    import random

    from solver.sketch.search import sketch_attempts

    ids = ["FF27", "FF12", "FF03", "FF40", "FF55", "FF10", "FF39", "FF23", "FF38", "FF51"]
    game = sequence(*[[m] for m in ids])
    c = game.context
    rng = random.Random(5)
    factories = [a.layout for a in sketch_attempts(c.ruleset, c.board, c.catalog, ids, seed=5, time_limit=4.0)
                 if a.layout is not None][:6]
    assert factories
    for n, final in enumerate(factories):
        order = list(ids)
        rng.shuffle(order)
        built = build_towards(sequence(*[[m] for m in order]), final, seed=n)
        assert built.replay.legal, built.replay.violations
        assert built.final_score <= 2 + check_layout(final).score.total


def test_a_bonus_container_is_laid_in_the_round_its_machine_comes():
    """FF11 ("+" green) brings a second green container: laid with it in round 2, not before."""
    final = make_layout(machines=[("FF46", (5, 5), 0), ("FF11", (1, 1), 0)],
                        tiles=[("supply", (6, 5), "green"), ("output", (4, 6)), ("supply", (0, 1), "red"),
                               ("supply", (2, 1), "green"), ("end", (1, 3))])
    assert check_layout(final).legal
    built = build_towards(sequence(["FF46"], ["FF11"]), final)
    assert built.replay.legal, built.replay.violations
    greens = [sum(1 for t in layout.tiles if t.kind == "supply" and t.color == "green") for layout in _layouts(built)]
    assert greens == [1, 2]
    assert [r.money for r in built.replay.rounds] == [2 + 4 - 2, 4 + 6 - 3]


def _funner_round_two(token: str, final: dict):
    """Funner board A from 1 coin: round 1 offers nothing of the final factory, round 2 offers FN15 with `token`."""
    game = parse_game({"ruleset": "factory-funner", "board": "A", "start_money": 1,
                       "rounds": [{"offered": ["FN06", "FN34", "FN27"]},
                                  {"offered": ["FN15", "FN03", "FN01"], token: True}]}, "tokens.json")
    layout = parse_layout({"ruleset": "factory-funner", "board": "A", **final}, "final.json")
    return build_towards(game, layout.with_parts(options=game.options))


FN15_BY_TWO_TANKS = {"machines": [{"id": "FN15", "cell": [4, 2], "rotation": 4}],
                     "tiles": [{"kind": "output", "cell": [3, 2], "side": "E"},
                               {"kind": "supply", "color": "yellow", "cell": [5, 3], "side": "NW"}]}


def test_a_first_pick_fee_the_build_cannot_pay_leaves_the_machine_out():
    """1 coin + FN15's income 2 - the first pick's 1 - 2 tanks = 0, under the floor of 1: the rules undo such a
    build, so the derived game takes nothing and says so (counted without the fee, it claimed FN15 built)."""
    built = _funner_round_two("first_pick", FN15_BY_TWO_TANKS)
    assert [r.taken for r in built.rounds] == [None, None] and built.skipped == ["FN15"]
    assert built.replay.legal and not built.replay.rounds[1].built


def test_a_last_pick_token_pays_for_the_build_it_makes_affordable():
    """1 coin + FN15's 2 + the last pick's 1 - 3 tiles = 1: the floor exactly, so FN15 is built."""
    final = {**FN15_BY_TWO_TANKS,
             "tiles": [{"kind": "output", "cell": [3, 2], "side": "E"},
                       {"kind": "pipe", "cell": [5, 3], "sides": ["SE", "NW"]},
                       {"kind": "supply", "color": "yellow", "cell": [5, 4], "side": "NW"}]}
    built = _funner_round_two("last_pick", final)
    assert [r.taken for r in built.rounds] == [None, "FN15"] and built.skipped == []
    assert built.replay.legal and built.replay.rounds[1].built and built.replay.rounds[1].money == 1
