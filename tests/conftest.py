"""Shared test setup: lets every test file `import builders`."""
from __future__ import annotations

import sys
from pathlib import Path

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
def _terminal_size_of_a_lone_pytest(monkeypatch):
    """pytest-xdist's workers see COLUMNS=80 and LINES=24 where a lone pytest sees neither; without them
    the commands' output is as wide as it is when piped (models/terminal.py), whichever way the suite runs."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
