"""Work handed to a worker thread (solver/search.py `in_worker_thread`) and given up on: its CP-SAT solves
stop, it may start no new one, and its long Python work between solves sees `past` and stops too."""
from __future__ import annotations

import math
import threading
import time

from ortools.sat.python import cp_model

from solver.search import HALT_WAIT, Halted, in_worker_thread, past, solver_parameters


def _giving_up_after(seconds: float):
    began = time.monotonic()
    return lambda: time.monotonic() - began > seconds


def test_python_work_of_a_given_up_worker_stops_at_once():
    """Under load a given-up bound built pair tables for 1.5 s past HALT_WAIT: `plan` ended with its worker
    still running."""
    ended = threading.Event()

    def tables() -> int:
        while not past(math.inf):   # (a deadline that never comes: only the halt ends it)
            time.sleep(0.01)
        ended.set()
        return 1

    start = time.monotonic()
    assert in_worker_thread(tables, _giving_up_after(0.2)) == (False, None)
    assert ended.is_set() and time.monotonic() - start < HALT_WAIT / 2


def test_a_given_up_worker_starts_no_new_solve():
    outcomes: list[str] = []

    def solves() -> None:
        while True:
            try:
                solver_parameters(cp_model.CpSolver(), 10.0, 1, 0)
            except Halted:
                outcomes.append("halted")
                return
            time.sleep(0.01)

    assert in_worker_thread(solves, _giving_up_after(0.2)) == (False, None)
    assert outcomes == ["halted"]


def test_work_not_given_up_on_sees_only_its_deadline():
    assert in_worker_thread(lambda: (past(math.inf), past(time.monotonic() - 1.0))) == (True, (False, True))
    assert not past(math.inf) and past(0.0)   # (the main thread is never halted)
