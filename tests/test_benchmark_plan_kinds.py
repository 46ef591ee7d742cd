"""The plan benchmark measures the kinds of sequence its flags ask for, and refuses flags that leave none."""
import click
import pytest

from solver.benchmark_plan import chosen_kinds


def test_both_kinds_by_default() -> None:
    assert [kind[0] for kind in chosen_kinds(False, False)] == ["solo", "offer3"]


def test_one_kind_by_its_flag() -> None:
    assert chosen_kinds(True, False) == (("solo", 1, True),)
    assert chosen_kinds(False, True) == (("offer3", 3, False),)


def test_both_flags_are_a_usage_error() -> None:
    with pytest.raises(click.UsageError, match="leave no sequence"):
        chosen_kinds(True, True)
