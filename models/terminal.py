"""The command line's consoles, and what happens when the reader of their output goes away.

`factoryfun check layout.json | head -1` closes the pipe after one line. Rich's
default then exits 1, which `check` and `replay` keep for an illegal layout or
game, so a legal layout read through `head` looked illegal. A reader that left is
the shell's SIGPIPE case: exit 128 + 13, as `yes | head -1` does, with nothing on
stderr. The command still does the rest of its work first: `solve --out a.json | head -1`
writes a.json (`outliving_its_reader`).
"""
from __future__ import annotations

import codecs
import errno
import os
import shutil
import sys
from contextlib import contextmanager
from typing import Any, Iterator, NoReturn

from rich.console import Console
from rich.markup import escape

#: the exit code of a command whose output's reader went away (128 + SIGPIPE)
BROKEN_PIPE_EXIT = 141


def silence_stdout() -> None:
    """Point stdout at /dev/null, so Python's last flush cannot fail again after a write to it failed."""
    _silence(1)


def _silence(descriptor: int) -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)


def leave_quietly() -> NoReturn:
    """Silence stdout and exit with BROKEN_PIPE_EXIT."""
    silence_stdout()
    raise SystemExit(BROKEN_PIPE_EXIT)


class _ReaderSafe:
    """A standard stream that outlives its reader: the first write or flush to fail (a closed pipe, a full disk)
    points the descriptor at /dev/null and records why, where it used to end the command on the spot.

    A standard output Python found closed at start-up (`>&-`: sys.stdout is None) counts as a reader gone from
    the start (QA: a traceback, exit 1, and no --out written); a closed standard error only loses the messages."""

    def __init__(self, stream: Any, descriptor: int) -> None:
        self.descriptor = descriptor
        self.failure: OSError | None = None
        if stream is None:   # (standard error closed is a reader of nothing: it costs only the messages, as a
            # full one does; QA: `check x.json 2>&-` exited 141, its verdict lost)
            stream = open(os.devnull, "w", encoding="utf-8")
            self.failure = BrokenPipeError() if descriptor == 1 else None
        self.stream = stream

    @property
    def gone(self) -> bool:
        """Whether its reader left (a closed pipe or descriptor, a terminal hung up: EIO), as opposed to a disk
        that filled."""
        return isinstance(self.failure, BrokenPipeError) or getattr(self.failure, "errno", None) == errno.EIO

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError as failure:
            self.record_failure(failure)
            return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as failure:
            self.record_failure(failure)

    def record_failure(self, failure: OSError) -> None:
        """A write to this stream failed (here, or a file written through it: models/jsonio.py): the rest of its
        output goes nowhere, and the command's exit says why."""
        self.failure = self.failure or failure
        _silence(self.descriptor)
        try:
            self.stream.flush()   # (what the failed write left in the buffer goes to /dev/null, not to exit)
        except OSError:
            pass

    def __getattr__(self, name: str) -> Any:   # (isatty, fileno, encoding...: the stream's own)
        return getattr(self.stream, name)


@contextmanager
def outliving_its_reader() -> Iterator[None]:
    """Run a command whose output's reader may leave (`| head -1`) or whose disk may fill: the rest of that
    output goes nowhere, the command's files are still written, and it then exits with BROKEN_PIPE_EXIT for a
    reader gone (its own exit 0 or 1 would read as a verdict; an error's 2 and an interrupt's 130 stand), or
    with 2 and one line for a standard output that could not be written. A standard error that could not be
    written costs only its messages.

    QA: `solve --out a.json --svg a.svg | head -1` exited 141 at the result's second line and wrote
    neither file, losing the whole search; `solve ... 2>&1 >/dev/null | head -1` (standard error's reader
    gone) did the same at the first progress line, and `2>/dev/full` ended in a traceback.
    """
    out, err = _ReaderSafe(sys.stdout, 1), _ReaderSafe(sys.stderr, 2)
    sys.stdout, sys.stderr = out, err
    code: Any = None
    try:
        yield
    except SystemExit as leaving:
        code = leaving.code
    finally:
        sys.stdout, sys.stderr = out.stream, err.stream
    if (out.gone or err.gone) and code in (None, 0, 1):
        raise SystemExit(BROKEN_PIPE_EXIT)
    if out.failure is not None and not out.gone and code in (None, 0, 1):
        try:
            print(f"error: standard output: cannot write: {out.failure.strerror or out.failure}", file=sys.stderr)
        except (OSError, ValueError, AttributeError):   # (standard error gone as well: the exit code says it)
            pass
        raise SystemExit(2)
    if code is not None:
        raise SystemExit(code)


#: the drawings' and messages' glyphs in plain ASCII, for a terminal whose encoding has no room for them
#: (QA: `PYTHONIOENCODING=ascii factoryfun solve ...` ended in a UnicodeEncodeError); anything else (a file
#: name's é) is escaped as standard error escapes it: \xe9
ASCII_GLYPHS = {
    **dict.fromkeys("━─", "-"), **dict.fromkeys("┃│", "|"), **dict.fromkeys("┏┓┗┛┣┫┳┻╋", "+"),
    "╲": "\\", "╱": "/", "╳": "X", "→": ">", "←": "<", "↑": "^", "↓": "v", "•": "*", "●": "o", "▓": "#",
    "░": ":", "·": ".", "–": "-", "—": "-", "≤": "<=", "≥": ">=", "×": "x",
    # a hex port's diagonal arrow by its up or down half: where it is drawn names the side, the glyph says in or
    # out (QA: "/" for both ↗ and ↙ drew an input and an output alike)
    **dict.fromkeys("↗↖", "^"), **dict.fromkeys("↙↘", "v"),
    "…": "~",   # (one column, as rich counts it when it cuts a table's cell: "..." pushed the columns apart)
}
PLAIN_ERRORS = "factoryfun-plain"


def _plain(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler behind PLAIN_ERRORS: the unencodable stretch in ASCII_GLYPHS' glyphs."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    stretch = error.object[error.start:error.end]
    return "".join(ASCII_GLYPHS.get(glyph) or glyph.encode("ascii", "backslashreplace").decode("ascii")
                   for glyph in stretch), error.end


codecs.register_error(PLAIN_ERRORS, _plain)


def plain_where_unicode_cannot_go(*streams: Any) -> None:
    """Let each text stream whose encoding cannot carry every character write ASCII_GLYPHS in their place,
    so a terminal or file in ASCII or Latin-1 still gets the drawing, not a traceback. (UTF streams are left
    as they are; streams that cannot be reconfigured, such as a test's capture, too.)"""
    for stream in streams:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            unicode_safe = codecs.lookup(encoding).name.startswith("utf")
        except LookupError:
            unicode_safe = False
        if not unicode_safe and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors=PLAIN_ERRORS)


#: the width of output that goes to a file or a pipe (rich's default there is 80, which cut the replay,
#: plan and analysis tables' headers to "offe…", "cha… bon…")
PIPED_WIDTH = 120


#: the fewest columns a COLUMNS setting may give: fewer is taken as unset (the tables' text had no room at all)
NARROWEST = 20


class Terminal(Console):
    """A rich console that leaves with BROKEN_PIPE_EXIT when its reader goes away, and is PIPED_WIDTH wide
    when it writes to a file or pipe (a terminal keeps its own width; COLUMNS still wins). Standard error
    written to a file or pipe is never wrapped: its messages and errors are one line each there, so a log
    keeps a long path whole and `grep` finds the line (QA: "answer.json not" / "written")."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        if "width" not in options and not self.is_terminal and "COLUMNS" not in os.environ:
            self.width = PIPED_WIDTH
        elif self.width < NARROWEST:   # (QA: COLUMNS=0 printed nothing at all, 5 tables without a letter)
            self.width = shutil.get_terminal_size((PIPED_WIDTH, 24)).columns if self.is_terminal else PIPED_WIDTH
        if options.get("stderr") and not self.is_terminal:
            self.soft_wrap = True

    def on_broken_pipe(self) -> None:
        self.quiet = True
        leave_quietly()

    def dim(self, line: str) -> None:
        """A progress line of a long step (a search's best and bound, a generator's draw), dimmed beside the
        results; its text is printed as it is, never read as markup."""
        self.print(f"[dim]{escape(line)}[/]")


#: a machine id's columns in a table ("FF02", Funner's "FN45"): never cut to "FF…" (QA, 60 columns); below
#: NARROW_WIDTH columns tables drop their cells' padding, so 80 columns show every heading whole
ID_WIDTH, NARROW_WIDTH = 4, 100


def cell_padding(width: int) -> tuple[int, int]:
    """A space each side of a cell where the terminal has room for it; none where the columns need it."""
    return (0, 1) if width >= NARROW_WIDTH else (0, 0)

