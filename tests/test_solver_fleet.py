"""Searches on every core (solver/fleet.py) and the static solve's parallel walks (solver/first_layout.py)."""
from __future__ import annotations

import time

import pytest

from builders import make_layout
from models.check import check_layout
from solver import first_layout
from solver.first_layout import Schedule, sketch_and_improve
from solver.fleet import SEED_STEP, Fleet

#: FF09 beside its container (5 points) and one pipe away from it (4 points)
CLOSE = make_layout(machines=[("FF09", (4, 6), 0)], tiles=[("supply", (3, 6), "red"), ("end", (4, 8))])
FAR = make_layout(machines=[("FF09", (4, 6), 0)],
                  tiles=[("supply", (2, 6), "red"), ("pipe", (3, 6), "N", "S"), ("end", (4, 8))])


def offer_seed(seed: int, fleet: Fleet[int]) -> int:
    fleet.better(seed % 100)
    return seed


def test_children_run_with_their_own_seeds_and_share_the_best_score():
    with Fleet(offer_seed, workers=3, seed=5) as fleet:
        offer_seed(5, fleet)
        results = fleet.results(time.monotonic())
        best = fleet.best()
    assert sorted(results) == [5 + SEED_STEP, 5 + 2 * SEED_STEP]
    assert best is not None and best[0] == max(5, (5 + SEED_STEP) % 100, (5 + 2 * SEED_STEP) % 100)
    assert best[1] <= best[2]  # the first score came no later than the best


def test_one_worker_forks_nothing():
    with Fleet(offer_seed, workers=1, seed=3) as fleet:
        assert fleet.results(time.monotonic()) == []
        assert fleet.best() is None


def wait_for_halt(seed: int, fleet: Fleet[str]) -> str:
    while not fleet.halted():
        time.sleep(0.01)
    return "halted"


def test_results_halt_the_children():
    start = time.monotonic()
    with Fleet(wait_for_halt, workers=2, seed=0) as fleet:
        assert fleet.results(time.monotonic()) == ["halted"]
    assert time.monotonic() - start < 5


def fail(seed: int, fleet: Fleet[None]) -> None:
    raise ValueError("broken search")


def test_a_child_that_fails_is_an_internal_error():
    with Fleet(fail, workers=2, seed=0) as fleet:
        with pytest.raises(RuntimeError, match="broken search"):
            fleet.results(time.monotonic())


def test_the_start_is_the_best_walk_of_all_processes(monkeypatch):
    """The parent's walk sketches FAR, its child's CLOSE: the child's layout is the start."""
    def fake_sketch(*args, seed, on_better, **kw):
        layout = FAR if seed == 11 else CLOSE
        on_better(check_layout(layout).score.total)
        return layout

    monkeypatch.setattr(first_layout, "best_sketch", fake_sketch)  # forked children inherit it
    reported: list[int] = []
    start = sketch_and_improve(CLOSE.ruleset, CLOSE.board, CLOSE.catalog, ["FF09"], Schedule(1.0, 1.0, 0.0),
                               workers=2, seed=11, on_better=lambda score, at: reported.append(score))
    assert start.layout is not None and check_layout(start.layout).score.total == 5
    assert start.layout.to_dict() == CLOSE.to_dict() and start.sketch.to_dict() == CLOSE.to_dict()
    assert reported[-1] == 5 and start.first_at <= start.best_at


def test_walks_on_two_cores_give_a_legal_layout_and_stop_on_a_stall():
    """Real sketches and moves of four machines; the phases end once no walk improves for a second."""
    machines = ["FF16", "FF27", "FF30", "FF46"]
    began = time.monotonic()
    start = sketch_and_improve(CLOSE.ruleset, CLOSE.board, CLOSE.catalog, machines,
                               Schedule(30.0, 5.0, 30.0, stall=1.0, later_stall=1.0), workers=2, seed=1)
    assert time.monotonic() - began < 25
    assert start.layout is not None and check_layout(start.layout).legal
    assert sorted(start.layout.machine_ids) == sorted(machines)
    assert check_layout(start.layout).score.total >= check_layout(start.sketch).score.total


def test_a_walk_without_a_sketch_goes_on_while_another_walk_has_one(monkeypatch):
    """Giving up on a first sketch is global: the parent's walk finds nothing but keeps sketching."""
    sketched_for: list[float] = []

    def fake_sketch(*args, seed, on_better, stop, time_limit, **kw):
        if seed != 11:  # the child: a layout at once
            on_better(check_layout(CLOSE).score.total)
            return CLOSE
        began = time.monotonic()
        while not stop() and time.monotonic() - began < time_limit:
            time.sleep(0.01)
        sketched_for.append(time.monotonic() - began)
        return None

    monkeypatch.setattr(first_layout, "best_sketch", fake_sketch)
    start = sketch_and_improve(CLOSE.ruleset, CLOSE.board, CLOSE.catalog, ["FF09"], Schedule(2.0, 0.3, 0.0),
                               workers=2, seed=11)
    assert sketched_for[0] > 1.5  # not given up at 0.3 s: the child had a layout
    assert start.layout is not None and start.layout.to_dict() == CLOSE.to_dict()


def test_walks_give_up_when_none_has_a_sketch(monkeypatch):
    def no_sketch(*args, stop, time_limit, **kw):
        began = time.monotonic()
        while not stop() and time.monotonic() - began < time_limit:
            time.sleep(0.01)
        return None

    monkeypatch.setattr(first_layout, "best_sketch", no_sketch)
    began = time.monotonic()
    start = sketch_and_improve(CLOSE.ruleset, CLOSE.board, CLOSE.catalog, ["FF09"], Schedule(10.0, 0.3, 0.0),
                               workers=2, seed=11)
    assert start.layout is None and time.monotonic() - began < 3


def ignore_the_halt(seed: int, fleet: Fleet[str]) -> str:
    time.sleep(30)   # (a walk deep in a move; it is killed before it ends)
    return "late"


def test_a_child_killed_by_a_signal_is_not_waited_for():
    """`timeout` and `kill 0` send SIGTERM to the children too; one that died sends nothing, and the solve
    waited GRACE (10 s) for it (QA: SIGTERM 6 s into an 8-machine solve answered at 16 s)."""
    import os
    import signal

    with Fleet(ignore_the_halt, workers=2, seed=0) as fleet:
        time.sleep(0.5)
        for child in fleet._children:
            os.kill(child.pid, signal.SIGKILL)
        start = time.monotonic()
        assert fleet.results(time.monotonic()) == []
        assert time.monotonic() - start < 3


def until_halted(seed: int, fleet: Fleet[str]) -> str:
    while not fleet.halted():
        time.sleep(0.01)
    return "found"


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_stop_sent_to_the_whole_group_leaves_the_children_to_send_what_they_found(name):
    """`timeout`, `kill 0` and a closed terminal send their signal to the children too: a child it killed sent
    nothing, and a 2-worker solve answered UNKNOWN under a best of 27 its child had printed (QA pass 41). The
    children leave stops to the parent, which halts them; they then send what they found."""
    import os
    import signal

    with Fleet(until_halted, workers=3, seed=0) as fleet:
        time.sleep(0.5)
        for child in fleet._children:
            os.kill(child.pid, getattr(signal, name))
        time.sleep(0.3)
        assert all(child.is_alive() for child in fleet._children)
        assert fleet.results(time.monotonic()) == ["found", "found"]
    assert not any(child.is_alive() for child in fleet._children)


def quick(seed: int, fleet: Fleet[str]) -> str:
    return "sent"


def test_what_an_ended_child_sent_still_counts():
    with Fleet(quick, workers=3, seed=0) as fleet:
        time.sleep(1.0)   # both children have sent and ended
        assert fleet.results(time.monotonic()) == ["sent", "sent"]
