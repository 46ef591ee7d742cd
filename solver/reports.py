"""Benchmark reports that keep their hand-written parts when the tables are regenerated."""
from __future__ import annotations

from pathlib import Path

NOTES_MARKER = "<!-- notes: kept when the table is regenerated -->"
#: a status at a glance (each target, its latest measured figure and where it comes from), written by
#: hand between these two markers and kept under the title, above the table, when the table is regenerated
STATUS_START = "<!-- status: kept under the title when the table is regenerated -->"
STATUS_END = "<!-- /status -->"


def write_results(out_dir: str | Path, name: str, frame, report: str) -> Path:
    """OUT_DIR/NAME.csv (a benchmark's rows, a pandas frame) and OUT_DIR/NAME.md (its report, notes kept);
    returns OUT_DIR/NAME."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    frame.to_csv(out / f"{name}.csv", index=False)
    write_report(out / f"{name}.md", report)
    return out / name


def write_report(path: Path, generated: str) -> None:
    """Write `generated`, then the marker and whatever followed the marker in the old file.

    The notes say what was tried and why numbers moved; a rerun must not erase
    them (the plan reports lost theirs once before this existed). A status block
    of the old file goes back under the new title: a reader sees first where each
    target stands, not the table of whichever run was regenerated last.
    """
    notes, status = "", None
    if path.exists():
        old = path.read_text(encoding="utf-8")
        if NOTES_MARKER in old:
            old, notes = old.split(NOTES_MARKER, 1)
        status = _status_block(old)
    text = generated.rstrip("\n")
    if status is not None:
        title, _, rest = text.partition("\n")
        rest = rest.lstrip("\n")
        text = f"{title}\n\n{status}\n\n{rest}".rstrip("\n")
    path.write_text(text + "\n\n" + NOTES_MARKER + notes, encoding="utf-8")


def _status_block(text: str) -> str | None:
    """The status block of a report's generated part, markers included, or None."""
    start = text.find(STATUS_START)
    end = text.find(STATUS_END, start)
    if start < 0 or end < 0:
        return None
    return text[start:end + len(STATUS_END)]
