"""One pure-Python search on every core: forked worker processes, each with its own seed.

The sketches, their ruin-and-recreate moves and the plan search are Python, so
threads would share one core. A `Fleet` forks `workers - 1` children that run
the same task as the parent, each with another seed; forked children inherit
the task's inputs (board, catalogue, game) without pickling them. What the
searches share while they run lives in shared memory: the best score any of
them has reached and when (so that each one's "no progress for a while" means
no progress anywhere, and the parent can print every improvement), and a halt
flag. Each child sends one picklable result at the end. Children ignore Ctrl-C:
the parent's interrupt stops them through the halt flag, and they still send
what they found.
"""
from __future__ import annotations

import multiprocessing
import queue
import time
from typing import Callable, Generic, TypeVar

from .background import outcome_of, send_outcome

#: seconds a child may take past the deadline to send its result before it is given up
GRACE = 10.0
#: the seed of child k is seed + SEED_STEP * k
SEED_STEP = 7919

Result = TypeVar("Result")


class Fleet(Generic[Result]):
    """`task(seed, fleet)` in this process (by the caller) and in `workers - 1` forked children.

    Use it as a context manager: the children start on entry; `results()` halts
    them and collects what they return (None results are dropped). A child's
    exception becomes a RuntimeError in the parent: a search that fails is a bug,
    not a result to hide.
    """

    def __init__(self, task: Callable[[int, "Fleet[Result]"], Result | None], workers: int, seed: int) -> None:
        context = multiprocessing.get_context("fork")
        self._task = task
        self._told: int | None = None   # the best score `news()` last gave, in this process
        self._messages = context.Queue()
        self._halt = context.Event()
        self._lock = context.Lock()
        self._best = context.Value("q", 0, lock=False)
        self._found = context.Value("b", 0, lock=False)
        self._first_at = context.Value("d", 0.0, lock=False)
        self._best_at = context.Value("d", 0.0, lock=False)
        self._children = [context.Process(target=self._child, args=(seed + SEED_STEP * k,), daemon=True)
                          for k in range(1, max(1, workers))]

    def __enter__(self) -> "Fleet[Result]":
        for child in self._children:
            child.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.halt()
        for child in self._children:
            if child.is_alive():
                child.kill()   # (SIGKILL: it ignores the stop signals, models/stopping.py)
            child.join(timeout=1.0)

    # -- shared while the searches run ------------------------------------
    def better(self, score: int) -> None:
        """Offer a score reached by this process; it is kept when it is the best of all so far."""
        with self._lock:
            now = time.monotonic()  # one system-wide clock: comparable between processes
            if not self._found.value:
                self._first_at.value = now
            if self._found.value and score <= self._best.value:
                return
            self._best.value, self._found.value, self._best_at.value = score, 1, now

    def best(self) -> tuple[int, float, float] | None:
        """(best score, time.monotonic() of the first score, of the best), or None before any."""
        with self._lock:
            if not self._found.value:
                return None
            return self._best.value, self._first_at.value, self._best_at.value

    def news(self) -> tuple[int, float, float] | None:
        """`best()` when its score rose since this process last asked (progress lines), else None."""
        best = self.best()
        if best is None or (self._told is not None and best[0] <= self._told):
            return None
        self._told = best[0]
        return best

    def halt(self) -> None:
        self._halt.set()

    def halted(self) -> bool:
        return self._halt.is_set()

    # -- the end -------------------------------------------------------------
    def results(self, deadline: float) -> list[Result]:
        """Halt the children and collect their results, waiting at most until `deadline` + GRACE."""
        self.halt()
        give_up = max(deadline, time.monotonic()) + GRACE
        messages: list[tuple[str, object]] = []
        while len(messages) < len(self._children) and time.monotonic() < give_up:
            try:
                messages.append(self._messages.get(timeout=0.2))
            except queue.Empty:
                if not any(child.is_alive() for child in self._children):
                    # what an ended child sent is in the pipe by now; one that died sends nothing (`timeout` and
                    # `kill 0` stop the children with the solve, which then waited GRACE for them: SIGTERM 6 s into
                    # an 8-machine solve answered 10 s late)
                    messages.extend(self._drained(len(self._children) - len(messages)))
                    break
        # a failed child is an internal error even when others succeeded: errors first (the first one raises)
        outcomes = [outcome_of(message) for message in sorted(messages, key=lambda message: message[0] != "error")]
        return [outcome for outcome in outcomes if outcome is not None]

    def _drained(self, most: int) -> list[tuple[str, object]]:
        """Up to `most` messages still in the queue (its children have ended)."""
        found: list[tuple[str, object]] = []
        while len(found) < most:
            try:
                found.append(self._messages.get(timeout=0.2))
            except queue.Empty:
                break
        return found

    def _child(self, seed: int) -> None:
        """A worker process: run the task, send its result (never raises)."""
        send_outcome(lambda: self._task(seed, self), self._messages)
