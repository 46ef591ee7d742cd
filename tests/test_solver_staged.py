"""The exact game model (solver/staged.py): short games proved, and the game rules it encodes.

Each rule is tested both ways: a game the replay accepts is a solution of the
model with the replay's final score, and a game breaking the rule is not.
"""
from __future__ import annotations

import time
from dataclasses import replace

import pytest

from models.check import check_layout
from models.errors import DocumentError
from models.game import Game, Round
from models.layout import Layout, Tile
from models.replay import replay_game, tile_changes
from solver.static import solve_static
from solver.staged import build_staged_model, solve_staged, warm_start

from test_plan import sequence


def _proved(game: Game, workers: int = 2) -> tuple[Game, int]:
    """Solve a short game to proven optimality; the game it returns, replayed, and its final score."""
    outcome = solve_staged(game, None, None, time.monotonic() + 60, workers=workers, seed=1)
    assert outcome.status == "OPTIMAL"
    played = Game(game.context, game.start_money, outcome.rounds, dict(game.options), game.source)
    replayed = replay_game(played)
    assert replayed.legal, replayed.violations
    assert replayed.final_score == outcome.bound
    return played, replayed.final_score


def test_a_one_machine_game_is_proved_optimal():
    """One round, FF43 (income 5, supply + reservoir): proved optimal at 2 + 5 - 2 = 5."""
    played, score = _proved(sequence(["FF43"]))
    assert score == 5 and played.rounds[0].taken == "FF43"


@pytest.fixture(scope="module")
def ff43_game() -> Game:
    """FF43 built in round 1 beside its two tanks: the proved optimum, on one worker so every run gets the same layout."""
    played, score = _proved(sequence(["FF43"]), workers=1)
    assert score == 5 and played.rounds[0].taken == "FF43"
    return played


def test_skipping_is_proved_right_when_a_machine_costs_more_than_it_earns():
    played, score = _proved(sequence(["FF35"]))
    assert score == 2 and played.rounds[0].taken is None


def test_the_money_floor_is_part_of_the_model():
    """From money 1, FF35 (income 1, cost 2) cannot be built; FF43 then gives 1 + 5 - 2 = 4."""
    played, score = _proved(sequence(["FF35"], ["FF43"], start_money=1))
    assert [r.taken for r in played.rounds] == [None, "FF43"]
    assert score == 4


def _accepts(game: Game) -> bool:
    return warm_start(build_staged_model(game), game)


def _shifted(layout: Layout) -> Layout:
    """The same legal factory one cell over (the first direction the board allows)."""
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        try:
            moved = layout.with_parts(
                machines=tuple(replace(m, cell=(m.cell[0] + dr, m.cell[1] + dc)) for m in layout.machines),
                tiles=tuple(replace(t, cell=(t.cell[0] + dr, t.cell[1] + dc)) for t in layout.tiles))
        except DocumentError:
            continue
        if check_layout(moved).legal:
            return moved
    raise AssertionError("no legal shift of the layout")


def _game(base: Game, *rounds: Round, start_money: int = 2) -> Game:
    return Game(base.context, start_money, list(rounds), dict(base.options), base.source)


def test_a_replayed_game_is_a_solution_with_the_same_score(ff43_game):
    staged = build_staged_model(ff43_game)
    assert warm_start(staged, ff43_game)
    assert replay_game(ff43_game).final_score == 5


def _tank_moved_out(layout: Layout) -> Layout:
    """The same machine with one tank a cell further out and a straight pipe where it stood (legal)."""
    geometry = layout.ruleset.geometry
    for i, tank in enumerate(layout.tiles):
        for side in geometry.sides:
            if geometry.across(tank.cell, side) not in layout.machine_cells:
                continue
            away = geometry.opposite(side)
            pipe = Tile("pipe", tank.cell, sides=(side, away))
            tiles = layout.tiles[:i] + (pipe, replace(tank, cell=geometry.across(tank.cell, away))) + layout.tiles[i + 1:]
            try:
                candidate = layout.with_parts(tiles=tiles)
            except DocumentError:
                continue
            if check_layout(candidate).legal:
                return candidate
    raise AssertionError("no tank can move out")


def _replayed_rules(game) -> set[str]:
    """The rules the judge (the replay) names: the solver's verdict must agree for the same reason."""
    return {v.rule for _, v in replay_game(game).violations}


def test_no_rebuilding_in_a_round_without_a_new_machine(ff43_game):
    layout = ff43_game.rounds[0].layout
    first = Round(["FF43"], "FF43", layout=layout, has_taken=True)
    assert _accepts(_game(ff43_game, first, Round(["FF35"], None, layout=None, has_taken=True)))
    for changed in (_tank_moved_out(layout), _shifted(layout)):   # tiles only; the machine too
        rebuilt = _game(ff43_game, first, Round(["FF35"], None, layout=changed, has_taken=True), start_money=9)
        assert _replayed_rules(rebuilt) >= {"rebuild-without-machine"}
        assert not _accepts(rebuilt)


def test_a_machine_appears_only_in_a_round_that_offers_it(ff43_game):
    layout = ff43_game.rounds[0].layout
    early = _game(ff43_game, Round(["FF35"], None, layout=layout, has_taken=True),
                  Round(["FF43"], None, layout=None, has_taken=True))
    assert not _accepts(early)
    on_time = _game(ff43_game, Round(["FF35"], None, layout=None, has_taken=True),
                    Round(["FF43"], "FF43", layout=layout, has_taken=True))
    assert _accepts(on_time)


def test_money_may_not_drop_below_one(ff43_game):
    """FF35 earns 1 and costs 2 (supply + reservoir): legal from money 2 (ends at 1), not from money 1."""
    c = ff43_game.context
    ff35 = solve_static(c.ruleset, c.board, c.catalog, ["FF35"], time_limit=20, seed=1).layout
    built = Round(["FF35"], "FF35", layout=ff35, has_taken=True)
    assert _accepts(_game(ff43_game, built, start_money=2))
    too_poor = _game(ff43_game, built, start_money=1)
    assert _replayed_rules(too_poor) == {"money-floor"}
    assert not _accepts(too_poor)


@pytest.fixture(scope="module")
def ff35_layout(ff43_game) -> Layout:
    c = ff43_game.context
    return solve_static(c.ruleset, c.board, c.catalog, ["FF35"], time_limit=20, seed=1).layout


def test_machines_are_never_removed(ff43_game, ff35_layout):
    first = Round(["FF43"], "FF43", layout=ff43_game.rounds[0].layout, has_taken=True)
    removed = _game(ff43_game, first, Round(["FF35"], "FF35", layout=ff35_layout, has_taken=True), start_money=9)
    assert "machine-removed" in _replayed_rules(removed)
    assert not _accepts(removed)


def test_a_moved_machine_costs_its_move(ff43_game):
    """Round 2 moves FF43 (2), re-lays its tanks and adds FF35: legal from just enough money, not from 1 less."""
    c, layout = ff43_game.context, ff43_game.rounds[0].layout
    moved = _shifted(layout)
    both = solve_static(c.ruleset, c.board, c.catalog, ["FF43", "FF35"], objective="cost", fixed=moved,
                        time_limit=20, seed=1).layout
    rounds = (Round(["FF43"], "FF43", layout=layout, has_taken=True),
              Round(["FF35"], "FF35", layout=both, has_taken=True))
    cost = replay_game(_game(ff43_game, *rounds, start_money=20)).rounds[1].cost
    assert cost == 2 + len(tile_changes(layout, both)[0])  # the move, then every new or moved tile
    enough = cost - 3           # money: enough + 5 - 2 after round 1, then + 1 - cost = 1
    assert replay_game(_game(ff43_game, *rounds, start_money=enough)).legal
    assert _accepts(_game(ff43_game, *rounds, start_money=enough))
    short = _game(ff43_game, *rounds, start_money=enough - 1)
    assert _replayed_rules(short) == {"money-floor"}
    assert not _accepts(short)
