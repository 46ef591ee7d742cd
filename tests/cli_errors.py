"""The one check every bad-input test makes: exit code 2 and one stderr line naming what is wrong."""
from __future__ import annotations

from click.testing import CliRunner

from cli import main


def one_line_error(args: list[str], *needles: str) -> str:
    """Run the CLI; assert exit 2, no traceback and a single stderr line holding every needle."""
    result = CliRunner().invoke(main, args)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert all(n in lines[0] for n in needles), lines[0]
    assert "Traceback" not in result.output
    return lines[0]
