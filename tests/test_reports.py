"""Regenerated benchmark reports keep the notes written below their marker."""
from __future__ import annotations

from solver.reports import NOTES_MARKER, write_report


def test_a_new_report_ends_with_the_marker(tmp_path):
    path = tmp_path / "r.md"
    write_report(path, "# table v1\n")
    assert path.read_text(encoding="utf-8") == "# table v1\n\n" + NOTES_MARKER


def test_regenerating_replaces_the_table_and_keeps_the_notes(tmp_path):
    path = tmp_path / "r.md"
    write_report(path, "# table v1")
    path.write_text(path.read_text(encoding="utf-8") + "\n\n## Notes\n- why v1 moved\n", encoding="utf-8")
    write_report(path, "# table v2")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# table v2") and "table v1" not in text
    assert text.endswith(NOTES_MARKER + "\n\n## Notes\n- why v1 moved\n")


def test_the_static_benchmark_can_re_run_single_machine_sets():
    from solver.benchmark_static import instance_set

    ids = [f"FF{k:02d}" for k in range(1, 56)]
    every = instance_set(ids, sizes=(10,), boards=("classic-A",))
    only = instance_set(ids, sizes=(10,), boards=("classic-A",), only=(2,))
    assert [r["instance"] for r in every] == ["classic-A/n10/s0", "classic-A/n10/s1", "classic-A/n10/s2"]
    assert only == every[2:]  # the same machines and seed as in the full run


def _run_row(instance: str, run: int, objective: int | None, bound: int, proved: bool = False,
             first: float | None = None, machines: int = 10) -> dict:
    """One run of one instance as benchmark_static writes it (first legal at 1 s + run unless told)."""
    return {"instance": instance, "board": "classic-A", "machines": ",".join(f"FF{k:02d}" for k in range(1, machines + 1)),
            "seed": 1000 * machines, "run": run, "first legal seconds": 1.0 + run if first is None else first,
            "best seconds": 10.0 * (run + 1), "objective": objective, "bound": bound,
            "gap": None if objective is None else round((bound - objective) / bound, 3),
            "proved": proved, "seconds": 300.0}


def test_the_static_benchmark_reports_medians_over_runs():
    import pandas as pd

    from solver.benchmark_static import medians, targets

    runs = pd.DataFrame([_run_row("a", 0, 100, 120), _run_row("a", 1, 110, 118), _run_row("a", 2, 90, 119),
                         _run_row("b", 0, 50, 50, proved=True), _run_row("b", 1, 49, 50)])
    table = medians(runs).set_index("instance")
    assert table.loc["a", "objective"] == 100 and table.loc["a", "bound"] == 119 and table.loc["a", "runs"] == 3
    assert table.loc["a", "first legal seconds"] == 2.0 and table.loc["a", "best seconds"] == 20.0
    # proved only when every run proved it: b was proved in one run of two
    assert table.loc["b", "proved runs"] == 1 and not table.loc["b", "proved"]
    assert any("gap <= 10% in 1/2" in line for line in targets(medians(runs)))


def test_a_run_without_a_layout_is_not_left_out_of_the_medians():
    import pandas as pd

    from solver.benchmark_static import medians, targets

    runs = pd.DataFrame([_run_row("c", 0, 95, 100, machines=8), _run_row("c", 1, 94, 100, machines=8),
                         {**_run_row("c", 2, None, 100, machines=8), "first legal seconds": None}])
    row = medians(runs).iloc[0]
    assert row["first legal seconds"] == 2.0   # the median of 1, 2 and never
    assert pd.isna(row["objective"]) and pd.isna(row["gap"])
    assert any("within 10 s in 1/1" in line and "no layout in 1" in line for line in targets(medians(runs)))


def test_regenerating_keeps_the_status_block_under_the_new_title(tmp_path):
    from solver.reports import STATUS_END, STATUS_START

    path = tmp_path / "r.md"
    write_report(path, "# Title\n\nCommand: v1\n\n| table v1 |")
    title, rest = path.read_text(encoding="utf-8").split("\n", 1)
    status = f"{STATUS_START}\n## Status\n- 10 machines: missed\n{STATUS_END}"
    path.write_text(f"{title}\n\n{status}\n{rest}\n\n## Notes\n- why\n", encoding="utf-8")
    write_report(path, "# Title\n\nCommand: v2\n\n| table v2 |")
    text = path.read_text(encoding="utf-8")
    assert text.startswith(f"# Title\n\n{status}\n\nCommand: v2\n\n| table v2 |")
    assert "v1" not in text and text.count(STATUS_START) == 1
    assert text.endswith(NOTES_MARKER + "\n\n## Notes\n- why\n")
