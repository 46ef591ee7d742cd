"""Shared test setup: lets every test file `import builders`, and gives every test a lone pytest's terminal size."""
from __future__ import annotations

import os
import sys
from pathlib import Path

# pytest-xdist's workers see COLUMNS=80 and LINES=24 where a lone pytest sees neither. The commands' consoles
# read them when the modules are imported (during collection, before any fixture), so they go here: output is
# then as wide as it is when piped (models/terminal.py), whichever way the suite runs.
for _size in ("COLUMNS", "LINES"):
    os.environ.pop(_size, None)

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _fresh_cut_pool(monkeypatch):
    """Each test starts with no cuts found before (solver/bounds.py keeps them for the whole process), so
    a relaxation's value does not depend on which tests ran first."""
    from solver import bounds
    monkeypatch.setattr(bounds, "_CUT_POOL", {})


@pytest.fixture(autouse=True)
def _signal_handlers_as_they_were():
    """A test whose solve was stopped leaves Ctrl-C, SIGTERM and SIGHUP ignored, as a stopped command does for the
    rest of its life (models/stopping.py, keep_stopping); the next test gets the handlers it would have had."""
    import signal

    from models.stopping import STOP_SIGNALS

    before = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    yield
    for number, handler in before.items():
        signal.signal(number, handler)


# The files whose tests take longest (`--durations=60`: each holds tests of 10-48 s), heaviest first. The
# suite runs on two test processes that take tests in order; a 48 s test handed out last keeps one process
# busy while the other idles, so these files run first and the many short tests even out the end.
HEAVY_FIRST = (
    "test_solver_static.py",
    "test_solver_pair_cuts.py",
    "test_plan_polish.py",
    "test_plan.py",
    "test_puzzle.py",
    "test_solver_grow.py",
    "test_solver_funner.py",
    "test_plan_search.py",
    "test_cli_signals.py",
    "test_solver_local.py",
)


def pytest_collection_modifyitems(config, items):
    """Hand the heavy files' tests out first (HEAVY_FIRST), the rest in their usual order."""
    missing = [name for name in HEAVY_FIRST if not (TESTS / name).is_file()]
    if missing:
        raise pytest.UsageError(f"tests/conftest.py: HEAVY_FIRST names {', '.join(missing)}, which is not in tests/")
    rank = {name: position for position, name in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(HEAVY_FIRST)))
