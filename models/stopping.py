"""Ctrl-C and SIGTERM: held while modules load, then the command leaves (130, 143); the exception a stop ends a
command with (`stop_for`); and further stops ignored once one was honoured (`keep_stopping`).

Raised inside CP-SAT's or pandas's compiled start-up, the stop turned into "ImportError: initialization failed"
and a traceback (QA, 2026-12-06: `puzzle solve` stopped 0.4 s after start; the SystemExit of cli.py's start-up
handler, raised inside the import). Commands that load the solver when they run (cli.py's LAZY commands,
Robofacture's solving commands) load it inside `held_stops`.
"""
from __future__ import annotations

import signal
from contextlib import contextmanager
from typing import Iterator

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def held_stops() -> Iterator[None]:
    """Keep a stop signal that comes inside the block; at its end, leave with 128 + the signal (as a shell
    reports a process it stopped), or go on if none came."""
    caught: list[int] = []
    previous = {number: signal.signal(number, lambda signum, _: caught.append(signum)) for number in STOP_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if caught:
        raise SystemExit(128 + caught[0])


class Terminated(KeyboardInterrupt):
    """SIGTERM (`kill`, `timeout`) where no solve handles it: the command stops as on Ctrl-C, exit 143."""


def stop_for(signum: int) -> KeyboardInterrupt:
    """The exception a stop signal ends a command with: Terminated for SIGTERM (143), else KeyboardInterrupt (130)."""
    return Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def keep_stopping() -> None:
    """Once a stop was honoured, further stops are ignored for the rest of the command: it is already on its way
    out, showing and writing what it found (QA: a second Ctrl-C 0.1 s after the first killed `plan` after its
    file was written, exit -2 not 0, and `analyze` before it wrote its HTML report). Ignored by the system, not
    by a handler of Python's, which Python's own exit sets back to the default that ends the process."""
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
