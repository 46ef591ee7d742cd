"""Benchmark reports that keep their hand-written notes when the tables are regenerated."""
from __future__ import annotations

from pathlib import Path

NOTES_MARKER = "<!-- notes: kept when the table is regenerated -->"


def write_report(path: Path, generated: str) -> None:
    """Write `generated`, then the marker and whatever followed the marker in the old file.

    The notes say what was tried and why numbers moved; a rerun must not erase
    them (the plan reports lost theirs once before this existed).
    """
    notes = ""
    if path.exists():
        old = path.read_text(encoding="utf-8")
        if NOTES_MARKER in old:
            notes = old.split(NOTES_MARKER, 1)[1]
    path.write_text(generated.rstrip("\n") + "\n\n" + NOTES_MARKER + notes, encoding="utf-8")
