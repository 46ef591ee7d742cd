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

