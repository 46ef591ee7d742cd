"""One computation in a forked process while this one goes on: asked for when ready, given up at the end.

The static solve of 7-10 machines walks on both cores for most of its time, and
the relaxation's tightest cuts (whole groups' tree cuts, solver/bounds.py) take
80-100 s of one core for eight machines. Run in this process they would take
that time from the walks; run beside them, the three processes share the two
cores and the bound arrives while the walks go on. The child is forked, so it
inherits its inputs (and the relaxation's pooled cuts) without pickling them;
it ignores Ctrl-C (the parent stops it), and it sends one picklable result.
"""
from __future__ import annotations

import multiprocessing
import queue
from typing import Any, Callable, Generic, TypeVar

from models.stopping import leave_stops_to_the_parent

Result = TypeVar("Result")


def send_outcome(task: Callable[[], Any], messages: Any) -> None:
    """Run `task` in a child process and put ("done", result) or ("error", text) on `messages` (never raises).

    Shared by every forked search (solver/fleet.py too): a child's exception is
    the parent's internal error, never a result to hide.
    """
    leave_stops_to_the_parent()
    try:
        messages.put(("done", task()))
    except Exception as exc:  # reported by the parent as an internal error
        messages.put(("error", f"{type(exc).__name__}: {exc}"))


def outcome_of(message: tuple[str, Any]) -> Any:
    """The result a child sent, or a RuntimeError if it failed."""
    kind, payload = message
    if kind == "error":
        raise RuntimeError(f"internal error in a search process: {payload}")
    return payload


class Background(Generic[Result]):
    """`task()` in a forked child from entering the context; `poll()` its result, `wait()` for it a while.

    Leaving the context stops a child still at work: what it had not sent is lost,
    so a task with a time limit should end (and send) before the parent leaves.
    """

    def __init__(self, task: Callable[[], Result]) -> None:
        context = multiprocessing.get_context("fork")
        self._messages = context.Queue()
        self._child = context.Process(target=send_outcome, args=(task, self._messages), daemon=True)
        self._message: tuple[str, Any] | None = None

    def __enter__(self) -> "Background[Result]":
        self._child.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._child.is_alive():
            self._child.kill()   # (SIGKILL: it ignores the stop signals, models/stopping.py)
        self._child.join(timeout=1.0)

    def poll(self) -> Result | None:
        """The child's result once it has sent it (and on every later call), else None at once."""
        return self.wait(0.0)

    def wait(self, seconds: float) -> Result | None:
        """The child's result, waiting up to `seconds` for it; None if it has not come."""
        if self._message is None:
            try:
                self._message = self._messages.get(timeout=seconds) if seconds > 0 else self._messages.get_nowait()
            except queue.Empty:
                return None
        return outcome_of(self._message)

    @property
    def done(self) -> bool:
        """The child has sent its result (and `poll()` has taken it)."""
        return self._message is not None
