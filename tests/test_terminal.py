"""A reader that goes away (`factoryfun check x.json | head -1`) ends a command with 141, never with 1.

`check` and `replay` exit 1 for an illegal layout or game, and rich's consoles used
to exit 1 on a broken pipe, so a legal layout read through `head` looked illegal.
"""
from __future__ import annotations

import io
import json
import os

import click
import pytest

import cli
from models.check import check_layout
from models.layout import parse_layout
from models.terminal import BROKEN_PIPE_EXIT, PIPED_WIDTH, Terminal


class _Gone(io.StringIO):
    """A file whose reader has left."""

    def write(self, text: str) -> int:
        raise BrokenPipeError


class _Stdout(io.StringIO):
    """Standard output on descriptor 1, as in a shell."""

    def fileno(self) -> int:
        return 1


@pytest.fixture
def no_dup(monkeypatch):
    """Leaving points stdout at /dev/null; here only record that it would."""
    pointed = []
    real_open, real_dup2 = os.open, os.dup2
    monkeypatch.setattr(os, "open", lambda path, *a: -7 if path == os.devnull else real_open(path, *a))
    monkeypatch.setattr(os, "dup2", lambda source, target: pointed.append(target) if source == -7
                        else real_dup2(source, target))
    # (pytest's capture sets sys.stdout again between setup and call, so the test points it)
    return pointed, lambda: monkeypatch.setattr("sys.stdout", _Stdout())


def test_a_console_whose_reader_left_exits_141(no_dup):
    pointed, shell_stdout = no_dup
    shell_stdout()
    with pytest.raises(SystemExit) as ended:
        Terminal(file=_Gone()).print("classic-A")
    assert ended.value.code == BROKEN_PIPE_EXIT == 141
    assert pointed == [1]


def _exit_of_a_command_raising(error: BaseException) -> object:
    """The exit code of a one-off command that raises `error`, run as the command line runs its commands."""
    def probe() -> None:
        raise error

    cli.main.add_command(click.Command("raising-probe", callback=probe))
    try:
        with pytest.raises(SystemExit) as ended:
            cli.main.main(["raising-probe"], standalone_mode=False)
    finally:
        cli.main.commands.pop("raising-probe")
    return ended.value.code


def test_a_command_whose_echo_meets_a_closed_pipe_exits_141(no_dup):
    pointed, shell_stdout = no_dup
    shell_stdout()
    assert _exit_of_a_command_raising(BrokenPipeError()) == BROKEN_PIPE_EXIT
    assert pointed == [1]


def _to_a_closed_pipe(args: list[str]):
    """`factoryfun ARGS` run with its standard output a pipe whose reader has already left."""
    import subprocess
    import sys

    reader = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.close()"], stdin=subprocess.PIPE)
    reader.wait()
    ended = subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args], stdout=reader.stdin,
                           stderr=subprocess.PIPE, cwd=os.path.dirname(cli.__file__))
    reader.stdin.close()
    return ended


@pytest.mark.parametrize("args", [["--help"], ["--version"]])
def test_the_groups_help_and_version_meeting_a_closed_pipe_exit_141(args):
    """QA: `factoryfun --help | true` exited 1 (click's own broken-pipe exit), where every command exits 141."""
    ended = _to_a_closed_pipe(args)
    assert ended.returncode == BROKEN_PIPE_EXIT, ended.stderr


def test_an_illegal_layout_whose_reader_left_exits_141_not_its_verdict():
    """`check illegal.json | head -1`: the reader gone is said by 141, as for a legal one, not by the verdict's 1
    (QA pass 58: a mutant that let 1 through lived)."""
    from models.paths import EXAMPLES_DIR

    ended = _to_a_closed_pipe(["check", str(EXAMPLES_DIR / "illegal-stray-tile-pipe-ring.json")])
    assert ended.returncode == BROKEN_PIPE_EXIT, ended.stderr


def test_a_solve_whose_reader_left_still_writes_its_files_then_exits_141(tmp_path):
    """QA: `solve --out a.json --svg a.svg | head -1` exited 141 at the result's second line and wrote neither
    file: the search was lost. The files come, the exit stays the reader's."""
    out, svg = tmp_path / "a.json", tmp_path / "a.svg"
    ended = _to_a_closed_pipe(["solve", "--board", "classic-A", "--machines", "FF39", "--time-limit", "5",
                               "--workers", "1", "--out", str(out), "--svg", str(svg)])
    assert ended.returncode == BROKEN_PIPE_EXIT, ended.stderr
    assert check_layout(parse_layout(json.loads(out.read_text()), str(out))).legal
    assert "<svg" in svg.read_text()
    assert b"Traceback" not in ended.stderr


def test_output_to_a_file_or_pipe_is_wide_enough_for_the_tables(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    assert Terminal(file=io.StringIO()).width == PIPED_WIDTH == 120
    assert Terminal(file=io.StringIO(), width=70).width == 70
    monkeypatch.setenv("COLUMNS", "90")
    assert Terminal(file=io.StringIO()).width == 90


def test_messages_to_a_piped_standard_error_stay_one_line_each(monkeypatch):
    """A long path in an error or a "not written" note is not cut into two lines in a log; standard output's
    text still wraps at the piped width."""
    monkeypatch.delenv("COLUMNS", raising=False)
    message = "no layout to write (UNKNOWN): " + "/a-long-directory" * 12 + "/best.json not written"
    errors, printed = io.StringIO(), io.StringIO()
    Terminal(stderr=True, file=errors).print(message)
    Terminal(file=printed).print(message)
    assert errors.getvalue() == message + "\n"
    assert len(printed.getvalue().splitlines()) > 1


def test_the_replay_table_keeps_its_headers_when_piped(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    printed = io.StringIO()
    monkeypatch.setattr(cli, "console", Terminal(file=printed))
    from models.paths import EXAMPLES_DIR
    with pytest.raises(SystemExit) as ended:
        cli.main.main(["replay", str(EXAMPLES_DIR / "rulebook-game.json"), "--no-show"], standalone_mode=False)
    assert ended.value.code == 0
    header = next(line for line in printed.getvalue().splitlines() if "round" in line)
    assert all(name in header for name in ("offered", "income", "penalty", "money")) and "…" not in header


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("args", [["check", "instances/examples/illegal-loose-end-splitter.json"],
                                  ["replay", "tests/data/analysis-funner-played.json"],
                                  ["catalog", "--ruleset", "factory-funner"]])
def test_a_terminal_that_cannot_print_unicode_gets_the_drawing_in_ascii(args, encoding):
    """QA: with PYTHONIOENCODING=ascii (or a Latin-1 terminal) every drawing ended in a UnicodeEncodeError
    traceback. The pipes' and ports' glyphs come in ASCII there: `+---`, `|`, `>`; the verdict stays."""
    import subprocess
    import sys

    ended = subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args], capture_output=True,
                           cwd=os.path.dirname(cli.__file__), env={**os.environ, "PYTHONIOENCODING": encoding})
    assert b"Traceback" not in ended.stderr and b"UnicodeEncodeError" not in ended.stderr, ended.stderr
    assert ended.returncode == (1 if args[0] == "check" else 0), ended.stderr
    assert ended.stdout.isascii() if encoding == "ascii" else ended.stdout.decode(encoding)
    if args[0] == "check":
        assert b"+--->2 FF29" in ended.stdout and b"|" in ended.stdout


def _solve_writing(out, **streams):
    """`factoryfun solve ... --out OUT` with the given standard streams (subprocess.run's keywords)."""
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", "solve", "--board", "classic-A",
                           "--machines", "FF39", "--time-limit", "5", "--workers", "1", "--out", str(out)],
                          cwd=os.path.dirname(cli.__file__), **streams)


def _solved(out) -> bool:
    return check_layout(parse_layout(json.loads(out.read_text()), str(out))).legal


def test_a_solve_whose_standard_error_reader_left_still_writes_its_file_then_exits_141(tmp_path):
    """QA: `solve ... 2>&1 >/dev/null | head -1` exited 141 at the first progress line, before any search."""
    import subprocess
    import sys

    reader = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.close()"], stdin=subprocess.PIPE)
    reader.wait()
    ended = _solve_writing(tmp_path / "a.json", stdout=subprocess.DEVNULL, stderr=reader.stdin)
    reader.stdin.close()
    assert ended.returncode == BROKEN_PIPE_EXIT and _solved(tmp_path / "a.json")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_under_standard_error_costs_only_the_messages(tmp_path):
    """QA: `solve ... 2>/dev/full` stopped before searching, wrote nothing, and exited 1 after a traceback."""
    import subprocess

    with open("/dev/full", "w") as full:
        ended = _solve_writing(tmp_path / "a.json", stdout=subprocess.DEVNULL, stderr=full)
    assert ended.returncode == 0 and _solved(tmp_path / "a.json")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_under_standard_output_still_writes_the_out_file_then_says_so(tmp_path):
    import subprocess

    with open("/dev/full", "w") as full:
        ended = _solve_writing(tmp_path / "a.json", stdout=full, stderr=subprocess.PIPE, text=True)
    assert ended.returncode == 2 and _solved(tmp_path / "a.json")
    assert ended.stderr.splitlines()[-1] == "error: standard output: cannot write: No space left on device"


def test_a_closed_standard_output_is_a_reader_gone_from_the_start(tmp_path):
    """QA: with `>&-` (Python's sys.stdout None) every command ended in a traceback and exit 1, which `check`
    means as "illegal", and `solve --out` wrote nothing."""
    import subprocess

    ended = _solve_writing(tmp_path / "a.json", stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1))
    assert ended.returncode == BROKEN_PIPE_EXIT and b"Traceback" not in ended.stderr
    assert _solved(tmp_path / "a.json")


def test_a_terminal_width_of_zero_columns_is_not_taken_at_its_word(monkeypatch):
    """QA: COLUMNS=0 printed nothing at all, the verdicts included."""
    monkeypatch.setenv("COLUMNS", "0")
    printed = io.StringIO()
    Terminal(file=printed).print("legal")
    assert printed.getvalue() == "legal\n"


def test_a_closed_standard_error_costs_only_the_messages(tmp_path):
    """QA: `check legal.json 2>&-` exited 141, as if a reader had left, and lost its verdict."""
    import subprocess
    import sys

    ended = subprocess.run([sys.executable, "-c", "import cli; cli.main()", "check",
                            "instances/examples/illegal-loose-end-splitter.json"], stdout=subprocess.DEVNULL,
                           cwd=os.path.dirname(cli.__file__), preexec_fn=lambda: os.close(2))
    assert ended.returncode == 1


@pytest.mark.parametrize("width", ["5", "1"])
def test_a_terminal_too_narrow_for_any_text_is_not_taken_at_its_word(monkeypatch, width):
    """QA: COLUMNS=5 printed the score table as empty boxes, COLUMNS=1 every title one letter a line."""
    monkeypatch.setenv("COLUMNS", width)
    printed = io.StringIO()
    Terminal(file=printed).print("illegal: a.json")
    assert printed.getvalue() == "illegal: a.json\n"


def test_the_ascii_stand_ins_keep_in_and_out_apart_and_columns_in_place():
    """QA: ↗ and ↙ (a hex input and output on one diagonal) were both "/", and a cut cell's "…" became three
    columns, pushing a table's borders apart; a file name's é became "?" where standard error wrote it whole."""
    from models.terminal import PLAIN_ERRORS

    def plain(text: str) -> str:
        return text.encode("ascii", PLAIN_ERRORS).decode("ascii")

    assert plain("↗2 2↙ ↖1 1↘") == "^2 2v ^1 1v"
    assert len(plain("| Accel… |")) == len("| Accel… |")
    assert plain("ill_é.json") == "ill_\\xe9.json"
    assert "·".encode("latin-1", PLAIN_ERRORS) == b"\xb7"   # (what the encoding has, it keeps)


def test_a_command_stopped_outside_a_search_ignores_the_stops_that_follow():
    """QA: a generator stopped while it modelled a draw died of the second Ctrl-C (exit -2, not 130)."""
    import signal

    assert _exit_of_a_command_raising(KeyboardInterrupt()) == 130
    assert signal.getsignal(signal.SIGINT) == signal.getsignal(signal.SIGTERM) == signal.SIG_IGN


def test_a_steps_share_of_the_time_is_never_up_to_0_s():
    from models.wording import up_to_seconds

    assert up_to_seconds(4.4) == "up to 4 s" and up_to_seconds(0.4) == "under a second"
