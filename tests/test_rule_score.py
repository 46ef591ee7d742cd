"""Static score (RULES.md 1, "Money"): incomes - build cost + chain bonus (5 x amount per machine-fed input)."""
from __future__ import annotations

from pathlib import Path

from builders import FF29_OK, check
from models.check import check_layout
from models.layout import load_layout

EXAMPLES = Path(__file__).resolve().parents[1] / "instances" / "examples"


def test_rulebook_round2_score_parts():
    score = check_layout(load_layout(EXAMPLES / "rulebook-round2.json")).score
    assert score.income == 9 + 8
    assert score.cost_by_kind == {"supply": 2, "pipe": 2, "output": 1}
    assert [(c.machine, c.at, c.color, c.amount, c.bonus) for c in score.chain_inputs] == [("FF08", "W", "orange", 2, 10)]
    assert (score.chain_bonus, score.total) == (10, 22)


def test_supply_fed_inputs_earn_no_bonus():
    score = check(**FF29_OK).score
    assert score.chain_inputs == [] and score.summary() == {"income": 6, "cost": 2, "chain_bonus": 0, "total": 4}


def test_bonus_per_machine_fed_input_counts_its_amount():
    score = check_layout(load_layout(EXAMPLES / "legal-split-3-to-2-and-1.json")).score
    assert sorted((c.machine, c.amount, c.bonus) for c in score.chain_inputs) == [("FF01", 2, 10), ("FF04", 1, 5)]
    assert score.chain_bonus == 15


def test_cost_by_kind_counts_each_pipe_and_the_diagonal_twice():
    crossing = check_layout(load_layout(EXAMPLES / "legal-crossing.json")).score
    assert crossing.cost_by_kind == {"supply": 2, "pipe": 3, "end": 2}
    diagonal = check_layout(load_layout(EXAMPLES / "legal-diagonal.json")).score
    assert diagonal.cost_by_kind == {"supply": 2, "diagonal": 2, "end": 1, "output": 1}
    assert diagonal.cost == 6


def test_machines_are_free_and_income_sums():
    score = check(machines=[("FF29", (1, 1), 0), ("FF09", (5, 5), 0)]).score
    assert score.cost == 0 and score.income == 6 + 7
