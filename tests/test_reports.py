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
