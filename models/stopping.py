"""Ctrl-C, SIGTERM and SIGHUP: held while modules load, then the command leaves (130, 143, 129); the exception
a stop ends a command with (`stop_for`); and further stops ignored once one was honoured (`keep_stopping`).

SIGHUP (the terminal closed, or an ssh session lost) stops a command as SIGTERM does, so a long solve's
`--out` is still written with the best layout found (it used to die at once and write nothing).

Raised inside CP-SAT's or pandas's compiled start-up, the stop turned into "ImportError: initialization failed"
and a traceback (QA, 2026-12-06: `puzzle solve` stopped 0.4 s after start; the SystemExit of cli.py's start-up
handler, raised inside the import). Commands that load the solver when they run (cli.py's LAZY commands,
Robofacture's solving commands) load it inside `held_stops`.
"""
from __future__ import annotations

import signal
from contextlib import contextmanager
from typing import Iterator

#: the signals that stop a command (a solve returns its best so far): Ctrl-C, `kill` / `timeout`, a hang-up
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def stop_signals() -> tuple[int, ...]:
    """The stop signals a command takes over now: SIGHUP not if it is ignored (`nohup` ignores it, so that a
    closed terminal leaves the command running), Ctrl-C and SIGTERM always."""
    hang_up = getattr(signal, "SIGHUP", None)
    return tuple(number for number in STOP_SIGNALS if number != hang_up or signal.getsignal(number) != signal.SIG_IGN)


@contextmanager
def held_stops() -> Iterator[None]:
    """Keep a stop signal that comes inside the block; at its end, leave with 128 + the signal (as a shell
    reports a process it stopped), or go on if none came."""
    caught: list[int] = []
    previous = {number: signal.signal(number, lambda signum, _: caught.append(signum)) for number in stop_signals()}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if caught:
        raise SystemExit(128 + caught[0])


class Terminated(KeyboardInterrupt):
    """SIGTERM (`kill`, `timeout`) or SIGHUP where no solve handles it: the command stops as on Ctrl-C, and exits
    with 128 + the signal (143, 129) as a shell reports a process the signal ended."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__()
        self.signum = signum


def stop_for(signum: int) -> KeyboardInterrupt:
    """The exception a stop signal ends a command with: Terminated for SIGTERM or SIGHUP, else KeyboardInterrupt."""
    return KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)


def stop_exit_code(stop: KeyboardInterrupt) -> int:
    """128 + the signal that stopped the command: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP."""
    return 128 + (stop.signum if isinstance(stop, Terminated) else signal.SIGINT)


def keep_stopping() -> None:
    """Once a stop was honoured, further stops are ignored for the rest of the command: it is already on its way
    out, showing and writing what it found (QA: a second Ctrl-C 0.1 s after the first killed `plan` after its
    file was written, exit -2 not 0, and `analyze` before it wrote its HTML report). Ignored by the system, not
    by a handler of Python's, which Python's own exit sets back to the default that ends the process."""
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_IGN)


def leave_stops_to_the_parent(ended_by_sigterm: bool = False) -> None:
    """In a search's child process: Ctrl-C, SIGTERM and a hang-up, which come to the whole process group (a closed
    terminal, `timeout`, `kill 0`), are the parent's to handle: it stops its children and keeps what they found
    (QA: `timeout` killed the children of a 2-worker solve before they sent their layouts, and the solve answered
    UNKNOWN under a printed best of 27), then ends any left with SIGKILL. `ended_by_sigterm`: a child its parent's
    machinery ends with SIGTERM (a worker pool's), which must keep SIGTERM's default action."""
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_DFL if ended_by_sigterm and number == signal.SIGTERM else signal.SIG_IGN)
