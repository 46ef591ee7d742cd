"""Command-line options shared by every `factoryfun` command (cli.py, solver/command.py, bench-checker).

One definition each, so `solve`, `plan` and `analyze` accept and reject the same
time limits, worker counts and seeds, and every output file is checked before a
computation that may run for minutes rather than after it.
"""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any, Callable

import click

#: the shortest time limit a solve can use (CP-SAT needs a moment to build and start)
MIN_TIME_LIMIT = 0.1
#: worker processes / CP-SAT threads
MAX_WORKERS = 64
#: CP-SAT's random_seed is a 32-bit signed integer
MAX_SEED = 2**31 - 1


class TimeLimit(click.FloatRange):
    """Seconds, finite and at least MIN_TIME_LIMIT.

    click's FloatRange lets NaN through (every comparison with NaN is false), and a
    NaN deadline makes the searches run forever; infinity is refused for the same reason.
    """

    name = "seconds"

    def __init__(self) -> None:
        super().__init__(min=MIN_TIME_LIMIT)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            float(value)
        except (TypeError, ValueError):   # (click said "'abc' is not a valid seconds.": QA)
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return seconds


def _unwritable(path: Path, make_parents: bool) -> str | None:
    """Why `path` cannot be written, or None; leaves no file behind that was not there."""
    if make_parents:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return exc.strerror or str(exc)
    if not path.parent.is_dir():
        return f"directory '{path.parent}' does not exist"
    if path.exists() and not path.is_file():
        # a FIFO or a device: opening it to try would be the write its reader waits for (QA: a FIFO's reader got
        # end-of-file from the probe, and the real write then hung with no reader)
        return None if os.access(path, os.W_OK) else "permission denied"
    try:   # a link to no file yet is written through, as a link to a file is (QA: the probe created the target,
        target = path.resolve()   # then unlinked the link, which the write made a plain file)
    except (RuntimeError, OSError):   # (Python's "Symlink loop": QA, a traceback)
        return "too many levels of symbolic links"
    existed = target.exists()
    try:
        with target.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    if not existed:
        target.unlink(missing_ok=True)
    return None


class OutputFile(click.Path):
    """A file the command will write: checked writable when the option is read, not when the result is ready."""

    def __init__(self, make_parents: bool = False) -> None:
        super().__init__(dir_okay=False)
        self.make_parents = make_parents

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = super().convert(value, param, ctx)
        problem = _unwritable(Path(path), self.make_parents)
        if problem is not None:
            self.fail(f"cannot write '{path}': {problem}", param, ctx)
        return path


Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def time_limit_option(default: float, help: str) -> Decorator:
    return click.option("--time-limit", type=TimeLimit(), default=default, show_default=True, help=help)


def workers_option() -> Decorator:
    return click.option("--workers", type=click.IntRange(1, MAX_WORKERS), default=2, show_default=True,
                        help="Search processes (CP-SAT threads); a bound may work in one more beside them.")


#: the search's phases stop on the clock, so a seed fixes its choices but not where a phase ends (QA: two runs
#: of one seed side by side ended at 24 and at a proved 29)
SEED_HELP = "Random seed of the search's choices (runs stop on the clock, so one seed can still end differently)."


def seed_option(default: int = 0, help: str = SEED_HELP) -> Decorator:
    return click.option("--seed", type=click.IntRange(0, MAX_SEED), default=default, show_default=True, help=help)


def output_option(*decls: str, help: str, make_parents: bool = False, **kwargs: Any) -> Decorator:
    """An option naming a file to write (see OutputFile)."""
    return click.option(*decls, type=OutputFile(make_parents), help=help, **kwargs)


def _identity(path: str) -> object:
    """What makes two names one file: its device and inode where it exists (QA: a hard link of the played game
    passed as `--out` replaced the game with the report), else the resolved path."""
    try:
        status = os.stat(path)
    except OSError:
        try:
            return Path(path).resolve()
        except RuntimeError:   # a link to itself (Python's "Symlink loop"): no file, so no other name for it
            return os.path.abspath(path)
    return status.st_dev, status.st_ino


def distinct_files(ctx: click.Context) -> None:
    """No output may name another output's file (QA: `--out x --svg x` left an SVG that `check x` could not
    read) or a file the command reads (QA: `analyze game.json --out game.json` replaced the played game with its
    report, exit 0): a usage error before any work, naming the file as given. An empty file name is one too
    (QA: `--svg ""` wrote nothing and said nothing, `sequence random --out ""` printed, `analyze --plan ""`
    planned for 600 s, `bench-checker --out ""` ended in a traceback after its run)."""
    for param in ctx.command.params:
        value = ctx.params.get(param.name or "")
        if isinstance(param.type, click.Path) and "" in (value if isinstance(value, tuple) else (value,)):
            name = param.opts[-1] if isinstance(param, click.Option) else param.human_readable_name
            raise click.UsageError(f"{name}: an empty file name; name a file")
    given = [(param.opts[-1] if isinstance(param, click.Option) else param.human_readable_name,
              isinstance(param.type, OutputFile), path)
             for param in ctx.command.params if isinstance(param.type, click.Path)
             and (path := ctx.params.get(param.name or ""))]
    read: dict[object, str] = {}
    for name, output, path in given:
        if not output:
            read.setdefault(_identity(path), name)
    written: dict[object, str] = {}
    for name, output, path in given:
        key = _identity(path)
        if not output:
            continue
        if key in written:
            raise click.UsageError(f"{written[key]} and {name} name the same file '{path}'")
        if key in read:
            raise click.UsageError(f"{name} names the file read as {read[key]} ('{path}'): writing it would "
                                   "overwrite what the command reads; give another file")
        written[key] = name


class CheckedCommand(click.Command):
    """A command whose file options are checked apart before it runs (`distinct_files`)."""

    def invoke(self, ctx: click.Context) -> Any:
        distinct_files(ctx)
        return super().invoke(ctx)


class CheckedGroup(click.Group):
    """A group whose commands are CheckedCommands."""

    command_class = CheckedCommand


CATALOG_OPTION = click.option("--catalog", "catalog_path", type=click.Path(dir_okay=False),
                              help="Use this machine catalogue file instead of the bundled one.")
BOARDS_OPTION = click.option("--boards", "boards_path", type=click.Path(dir_okay=False),
                             help="Use this boards file instead of the bundled one.")
RULESET_OPTION = click.option("--ruleset", "ruleset_id", default="factory-fun", show_default=True,
                              help="Ruleset id (factory-fun, factory-fun-2006, factory-funner).")


def json_option(help: str) -> Decorator:
    """--json, saying what it prints (a FORMATS.md document, a report, a data file)."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def repeated_option(command: click.Command, args: list[str]) -> str | None:
    """The first option of `command` (or of the subcommand `args` name, at any depth) given twice, as the
    user spelled it, or None. click keeps the last value of a repeated option without a word (QA:
    `solve --machines FF39 --machines FF08` solved FF08 alone), so every command asks each option once."""
    once = {name: param.name for param in command.params if isinstance(param, click.Option)
            and not param.multiple and not param.count for name in param.opts + param.secondary_opts}
    seen: dict[str | None, str] = {}
    for k, token in enumerate(args):
        if token == "--":
            return None
        spelled = token.split("=", 1)[0]
        if spelled in once:
            if once[spelled] in seen:
                first = seen[once[spelled]]
                return spelled if first == spelled else f"{first} / {spelled}"
            seen[once[spelled]] = spelled
        elif isinstance(command, click.Group) and token in command.list_commands(ctx := click.Context(command)):
            # (a command loaded when named is not in `commands` yet: QA saw `solve --machines FF39 --machines
            # FF08` solve FF08 again once `solve` was loaded lazily)
            sub = command.get_command(ctx, token)
            return None if sub is None else repeated_option(sub, args[k + 1:])
    return None
