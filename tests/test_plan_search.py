"""The plan search (solver/plan_search.py) and its worker processes (solver/plan_parallel.py)."""
from __future__ import annotations

import time

import pytest

from models.catalog import load_catalog
from models.game import parse_game
from models.replay import replay_game
from models.rulesets import get_ruleset
from models.sequence import random_sequence
from solver.plan_parallel import parallel_search
from solver.plan_search import first_choice, search_plans
from solver.sketch import Attempt

from test_plan import sequence

FF = get_ruleset("factory-fun")


def test_the_rulebook_sequence_reaches_the_rulebook_game():
    """FF39 then FF08: the rulebook's game scores 23; the search finds at least that, legally."""
    found = search_plans(sequence(["FF39"], ["FF08"]), time.monotonic() + 8, seed=2, stop_at=23)
    assert found is not None
    assert found.built.replay.legal
    assert found.built.final_score >= 23
    assert [r.taken for r in found.built.rounds] == ["FF39", "FF08"]


def test_a_machine_that_does_not_pay_is_dropped():
    """FF35 earns 1 and needs 2 tiles: the best game takes nothing (final score 2)."""
    found = search_plans(sequence(["FF35"]), time.monotonic() + 5, seed=1, stop_at=2)
    assert found is not None and found.built.final_score == 2
    assert [r.taken for r in found.built.rounds] == [None]


def test_stop_ends_the_search_at_once():
    start = time.monotonic()
    found = search_plans(sequence(["FF39"], ["FF08"]), time.monotonic() + 60, stop=lambda: True)
    assert time.monotonic() - start < 5
    assert found is None or found.built.replay.legal


def test_first_choice_takes_one_machine_per_round_in_round_order():
    document = random_sequence(FF, load_catalog(FF), "classic-A", 5, players=3, rounds=4)
    game = parse_game(document, "offers.json")
    choice = first_choice(game, 5.0)
    rounds = [next(t for t, r in enumerate(game.rounds) if m in r.offered) for m in choice]
    assert rounds == sorted(rounds) and len(set(rounds)) == len(rounds)


def test_worker_processes_return_a_plan_this_process_judges_legal():
    """Two searches (one in a child process); progress is reported and only improves."""
    document = random_sequence(FF, load_catalog(FF), "classic-A", 7, players=2, rounds=4)
    game = parse_game(document, "offers.json")
    seen: list[int] = []
    found = parallel_search(game, time.monotonic() + 6, workers=2, seed=7,
                            on_better=lambda score, _: seen.append(score), stop=lambda: False)
    assert found is not None
    plan = parse_game(game.to_dict(), "again.json")
    plan.rounds = found.rounds
    replayed = replay_game(plan)
    assert replayed.legal and replayed.final_score == found.score
    assert seen == sorted(seen) and seen[-1] == found.score


@pytest.mark.parametrize("most", [2, 1])
def test_a_choice_no_sketch_lays_is_cut_down_until_one_does(monkeypatch, most):
    """Expert-E, ten chosen machines: no sketch in 16 s, so a 20 s plan took nothing. Each episode without a
    sketch drops one machine: here sketches of more than `most` machines fail (down to one machine alone: QA
    pass 64), and the plan still builds."""
    import solver.plan_search as plan_search

    real = plan_search.sketch_attempts
    tried: list[int] = []

    def sketches(ruleset, board, catalog, ids, *args, **kw):
        tried.append(len(ids))
        if len(ids) > most:
            return iter([Attempt(None, "test: too many")])
        return real(ruleset, board, catalog, ids, *args, **kw)

    monkeypatch.setattr(plan_search, "sketch_attempts", sketches)
    monkeypatch.setattr(plan_search, "SKETCH_CAP", 0.5)
    game = sequence(["FF39"], ["FF08"], ["FF43"], ["FF09"])
    found = search_plans(game, time.monotonic() + 8, seed=3)
    assert found is not None and found.built.replay.legal and found.built.final_score > 2
    assert max(tried) == 4 and most in tried
