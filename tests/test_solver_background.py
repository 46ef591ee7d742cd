"""One computation in a forked process beside the solve (solver/background.py)."""
from __future__ import annotations

import os
import time

import pytest

from solver.background import Background


def slow_answer() -> int:
    time.sleep(0.5)
    return 42


def fails() -> int:
    raise ValueError("the relaxation broke")


def test_the_result_comes_when_the_child_sends_it_and_stays():
    with Background(slow_answer) as beside:
        assert beside.poll() is None and not beside.done   # not yet: the child sleeps
        assert beside.wait(10.0) == 42
        assert beside.done and beside.poll() == 42


def test_the_task_runs_in_another_process():
    parent = os.getpid()
    with Background(os.getpid) as beside:
        child = beside.wait(10.0)
    assert child is not None and child != parent


def test_a_failing_task_is_an_internal_error_not_a_missing_result():
    with Background(fails) as beside:
        with pytest.raises(RuntimeError, match="ValueError: the relaxation broke"):
            beside.wait(10.0)
        with pytest.raises(RuntimeError):   # and every later ask says so too
            beside.poll()


def test_leaving_the_context_stops_a_child_still_at_work():
    began = time.monotonic()
    with Background(lambda: time.sleep(60)) as beside:
        assert beside.wait(0.2) is None
        child = beside._child
    assert time.monotonic() - began < 5.0
    assert not child.is_alive()
