"""The CP-SAT model and the rule checker must agree (DESIGN.md).

For every example layout: fix the model's variables to it (everything it does
not contain forbidden) and solve. Legal layouts must be feasible with the
checker's score; illegal ones infeasible. Two documented differences: a stray
pipe ring is accepted by the model (it only costs money; the solver prunes it
before the checker sees it), and a tile the model has no variable for (the
diagonal tile with the option off) cannot even be expressed.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from builders import make_layout
from models.check import check_layout
from models.layout import load_layout
from solver.extract import prune
from model_helpers import model_verdict

EXAMPLES = Path(__file__).resolve().parents[1] / "instances" / "examples"
LAYOUT_FILES = sorted(p for p in EXAMPLES.glob("*.json") if p.name.startswith(("legal-", "illegal-", "rulebook-round")))
MODEL_ACCEPTS_JUNK = {"illegal-stray-tile-pipe-ring.json"}




def test_there_are_examples_of_both_kinds():
    names = [p.name for p in LAYOUT_FILES]
    assert sum(n.startswith("legal") for n in names) >= 5 and sum(n.startswith("illegal") for n in names) >= 5


@pytest.mark.parametrize("path", LAYOUT_FILES, ids=lambda p: p.stem)
def test_model_and_checker_agree_on_examples(path):
    layout = load_layout(path)
    check = check_layout(layout)
    status, objective = model_verdict(layout)
    if path.name in MODEL_ACCEPTS_JUNK:
        assert status == "OPTIMAL"
        assert check_layout(prune(layout)).legal
    elif check.legal:
        assert status == "OPTIMAL", f"model rejects a legal layout: {[v.rule for v in check.violations]}"
        assert objective == check.score.total
    else:
        assert status in ("INFEASIBLE", "NOVAR"), f"model accepts an illegal layout ({[v.rule for v in check.violations]})"


HAND_MADE = {
    # FF09 fed by a red supply, its end product into an end reservoir: legal
    "single": (dict(machines=[("FF09", (4, 6), 0)], tiles=[("supply", (3, 6), "red"), ("end", (4, 8))]), True),
    # the same with a green supply: wrong colour
    "wrong-colour": (dict(machines=[("FF09", (4, 6), 0)], tiles=[("supply", (3, 6), "green"), ("end", (4, 8))]), False),
    # the product into an output reservoir instead of an end reservoir
    "black-into-output": (dict(machines=[("FF09", (4, 6), 0)], tiles=[("supply", (3, 6), "red"), ("output", (4, 8))]), False),
    # FF46 feeds FF29 port to port: chain bonus 10
    "chain": (dict(machines=[("FF46", (4, 2), 0), ("FF29", (3, 3), 270)],
                   tiles=[("supply", (5, 2), "green"), ("end", (1, 3))]), True),
    # the same chain with the end reservoir moved away: the end product has nowhere to go
    "chain-no-end": (dict(machines=[("FF46", (4, 2), 0), ("FF29", (3, 3), 270)],
                          tiles=[("supply", (5, 2), "green"), ("end", (0, 0))]), False),
}


@pytest.mark.parametrize("name", sorted(HAND_MADE))
def test_model_and_checker_agree_on_hand_made_layouts(name):
    spec, expected_legal = HAND_MADE[name]
    layout = make_layout(**spec)
    check = check_layout(layout)
    if expected_legal is not None:
        assert check.legal == expected_legal
    status, objective = model_verdict(layout)
    if check.legal:
        assert status == "OPTIMAL" and objective == check.score.total
    else:
        assert status in ("INFEASIBLE", "NOVAR")
