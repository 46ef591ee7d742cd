"""`solve_static` never reports a legal layout beyond a bound it calls proved."""
from __future__ import annotations

import pytest

from solver import prove, static
from test_solver_static import solve

EIGHT = ["FF09", "FF15", "FF26", "FF32", "FF36", "FF38", "FF42", "FF50"]


def test_a_legal_layout_above_a_proved_bound_is_an_internal_error(monkeypatch):
    """A bound the best layout beats was never proved (a prover bug): the solve says so."""
    monkeypatch.setattr(static, "prove_bound", lambda *a, **kw: prove.ProofOutcome(10, None, False))
    with pytest.raises(AssertionError, match="beyond the proved bound 10"):
        solve(EIGHT, time_limit=8.0)


def test_a_bound_the_layout_meets_is_reported(monkeypatch):
    """The same path with an honest bound: no error, and the bound is the prover's."""
    monkeypatch.setattr(static, "prove_bound",
                        lambda ruleset, board, catalog, ids, best, bound, deadline, **kw:
                        prove.ProofOutcome(bound - 1, None, False))
    result = solve(EIGHT, time_limit=8.0)
    assert result.objective is not None and result.objective <= result.bound == result.topology_bound - 1
