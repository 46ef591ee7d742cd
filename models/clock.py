"""When this process started, as the commands count it: a `--time-limit` covers the whole command, start-up
included (loading CP-SAT and the models takes 0.5-1 s, which a 10 s solve used to add on top: 10.7 s)."""
from __future__ import annotations

import time
from typing import Iterator

#: time.monotonic() when the command's first module loaded (cli.py imports this module first), or when a
#: command called with its own arguments began (`restart`)
STARTED = time.monotonic()


def restart() -> None:
    """A command run again in the same process (tests, scripts: CliRunner) counts from now, not from the import
    (CI: every test's solve after the first minutes searched a tenth of its time, and a 2 s one found nothing)."""
    global STARTED
    STARTED = time.monotonic()


def time_left(time_limit: float) -> float:
    """What a command's search may still take of `time_limit`: the seconds since start-up are spent already,
    though never more than nine tenths of it (a 0.5 s solve still searches 0.05 s, and says what it found)."""
    return max(0.1 * time_limit, time_limit - (time.monotonic() - STARTED))


def draw_budgets(time_limit: float, attempts: int) -> Iterator[tuple[int, float]]:
    """(attempt, seconds) for each draw of a puzzle generator: what is left of `time_limit`, at most a fifth of
    it (at least a second), until `attempts` draws or the time run out; the first attempt is 1."""
    start = time.monotonic()
    for attempt in range(1, attempts + 1):
        left = time_limit - (time.monotonic() - start)
        if left <= 0:
            return
        yield attempt, min(left, max(time_limit / 5, 1.0))
