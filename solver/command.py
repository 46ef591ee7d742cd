"""`factoryfun solve`: a thin click command over `solve_static` (parse, call, print).

Progress goes to stderr so `--json` output on stdout stays a clean document.
Bad input becomes a DocumentError or click.UsageError (one line, exit 2 via cli.py).
"""
from __future__ import annotations

import math
import sys
import threading
import time
from dataclasses import replace
from typing import Any, Callable

import click
from rich.table import Table

from models.check import check_layout
from models.clickopts import (BOARDS_OPTION, CATALOG_OPTION, RULESET_OPTION, CheckedCommand, json_option,
                              output_option, seed_option, time_limit_option, workers_option)
from models.clock import time_left
from models.errors import DocumentError
from models.jsonio import json_text, parse_json, read_json, read_text, write_json, write_text
from models.layout import Layout, parse_layout, refuse_game, require_game_of, resolve_context
from models.terminal import Terminal
from models.wording import counted

from .extract import prune
from .fixed_part import fixed_part_moved
from .static import StaticResult, relative_gap, solve_static

#: `solve` found no layout (INFEASIBLE, or UNKNOWN at the time limit or Ctrl-C): like `check` for an illegal
#: layout, 1; bad input is 2
NO_LAYOUT_EXIT = 1

_out = Terminal()
_err = Terminal(stderr=True)


#: (where, id) pairs; `where` names the line or list index of a machines file
Listed = list[tuple[str, str]]


def _comma_items(listed: str) -> list[str] | None:
    """The ids of "FF40, FF12," (a comma at the end let be); None when an item is empty (two commas in a row:
    a typo, not a shorter list). The same for --machines and each line of a machines file (QA: one was
    accepted there and refused here)."""
    listed = listed.strip()
    if not listed:
        return []
    parts = [m.strip() for m in (listed[:-1] if listed.endswith(",") else listed).split(",")]
    return parts if all(parts) else None


def _ids_from_option(machines: str) -> Listed:
    """--machines FF40,FF12, read as `_comma_items` reads it."""
    parts = _comma_items(machines)
    if not parts:
        raise click.BadParameter(f"empty machine id in {machines!r}", param_hint="'--machines'")
    return [(f"item {i + 1}", m) for i, m in enumerate(parts)]


def _ids_from_file(path: str) -> Listed:
    """--machines-file: a JSON list of ids, or ids a line, comma-separated or one a line, with # comments
    (QA: `FF08  # the second` and `FF39,FF08` were read as one unknown id); errors name the file and line."""
    text = read_text(path)
    if text.lstrip().startswith(("[", "{")):
        listed = parse_json(text, path)
        if not isinstance(listed, list) or not all(isinstance(m, str) for m in listed):
            raise DocumentError(path, "", "expected a JSON list of machine ids (strings)")
        ids = [(f"[{i}]", m) for i, m in enumerate(listed)]
    else:   # ids by line or by comma, as --machines takes them; "#" starts a comment, on its own line or after ids
        ids = []
        for n, line in enumerate(text.splitlines(), start=1):
            parts = _comma_items(line.split("#", 1)[0])
            if parts is None:
                raise DocumentError(path, f"line {n}", "empty machine id between two commas")
            ids.extend((f"line {n}", machine_id) for machine_id in parts)
    if not ids:
        raise DocumentError(path, "", "lists no machine ids")
    return ids


def _id_hint(machine_id: str, catalog) -> str:
    """What the user probably meant by an unknown id: another case of a known one, or another ruleset's."""
    same = [known for known in catalog.machines if known.lower() == machine_id.lower()]
    if same:
        return f" (did you mean {same[0]}?)"
    if not catalog.bundled:   # (its file is named: QA saw the ruleset it had advised, or one its catalogue refused)
        return ""
    prefixes = {known[:2] for known in catalog.machines}
    printed = {"FN": ("Funner", "factory-funner"), "FF": ("Factory Fun", "factory-fun")}.get(machine_id[:2].upper())
    if printed is not None and printed[1] != catalog.ruleset and machine_id[:2].upper() not in prefixes:
        return f" (a {printed[0]} machine: give --ruleset {printed[1]})"
    return ""


def _checked_ids(listed: Listed, catalog, fail: Callable[[str, str], Exception]) -> list[str]:
    """Known ids, each once; `fail(where, message)` makes the error of the option or file they came from."""
    seen: set[str] = set()
    for where, machine_id in listed:
        if machine_id not in catalog:
            raise fail(where, f"{catalog.unknown(machine_id)}{_id_hint(machine_id, catalog)}")
        if machine_id in seen:
            raise fail(where, f"machine {machine_id} is listed twice (a factory has one tile of each machine)")
        seen.add(machine_id)
    return [machine_id for _, machine_id in listed]


def _machine_list(machines: str | None, machines_file: str | None, catalog) -> list[str]:
    """The machines to solve, from exactly one of --machines and --machines-file."""
    if machines is not None and machines_file is not None:
        raise click.UsageError("give the machines with --machines or with --machines-file, not both")
    if machines:
        return _checked_ids(_ids_from_option(machines), catalog,
                            lambda where, message: click.BadParameter(message, param_hint="'--machines'"))
    if machines_file:
        return _checked_ids(_ids_from_file(machines_file), catalog,
                            lambda where, message: DocumentError(machines_file, where, message))
    # (the example ids are the catalogue's own: QA saw FF40,FF12 offered for a 1st-edition catalogue of E01..E48)
    example = ",".join(sorted(catalog.machines)[:2])
    raise click.UsageError(f"give the machines with --machines {example} or --machines-file FILE")


def _read_layout(path: str | None, what: str, context, catalog_path, boards_path) -> Layout | None:
    if path is None:
        return None
    document = read_json(path)
    refuse_game(document, path, f"--{what}")
    require_game_of(document, path, f"{what} layout", context.ruleset.id, context.board.id)
    return parse_layout(document, path, catalog_path, boards_path)


def _hint_problem(hint: Layout, ids: list[str], optional: bool, fixed: Layout | None = None,
                  diagonal: bool = False) -> str | None:
    """Why solve_static would silently pass over this --hint (or be led astray by it), or None if it can
    start from it.

    It starts only from a legal layout (after dropping stray tiles) of the machines being solved (all of
    them unless --optional), that keeps the --fixed part where it is (QA: a hint placing a fixed machine
    elsewhere took a 0.2 s proof to UNKNOWN at 5 s) and plays with the diagonal tile only with --diagonal.
    """
    extra = [m for m in hint.machine_ids if m not in ids]
    if extra:
        return f"it places {', '.join(extra)}, not among the machines to solve"
    missing = [m for m in ids if m not in hint.machine_ids]
    if missing and not optional:
        return f"it leaves out {', '.join(missing)} (without --optional a hint places every machine)"
    if hint.options.get("diagonal_intersection") and not diagonal:
        return "it plays with the diagonal intersection tile: give --diagonal too"
    moved = fixed_part_moved(hint, fixed)
    if moved:
        return moved
    violations = check_layout(prune(hint)).violations
    if violations:   # (QA: no cell, and one of five with nothing said of the others)
        first = violations[0]
        where = f" (at {first.cells_text})" if first.cells else ""
        more = f"; `factoryfun check` lists all {len(violations)}" if len(violations) > 1 else ""
        return f"it breaks rule {first.rule}: {first.message}{where}{more}"
    return None


def _usable_hint(hint: Layout | None, hint_path: str | None, ids: list[str], optional: bool,
                 fixed: Layout | None = None, diagonal: bool = False) -> Layout | None:
    """The hint, or None with a one-line note: a hint only speeds the search up, so a bad one is no error."""
    problem = _hint_problem(hint, ids, optional, fixed, diagonal) if hint is not None else None
    if problem is None:
        return hint
    click.echo(f"note: --hint {hint_path} not used: {problem}", err=True)  # one line, never wrapped
    return None


def _with_fixed(ids: list[str], fixed: Layout | None) -> tuple[list[str], list[str]]:
    """Every machine the solve places (solve_static adds the --fixed layout's) and those only --fixed names."""
    added = [m for m in (fixed.machine_ids if fixed is not None else []) if m not in ids]
    return ids + added, added


#: what `--json` adds on standard error when Ctrl-C (or SIGTERM) stopped the search: the document says it too
INTERRUPTED_NOTE = "interrupted: the {what} is the best found so far"


def result_document(result: StaticResult) -> dict[str, Any]:
    """The layout document (FORMATS.md) with its "result" block."""
    doc: dict[str, Any] = result.layout.to_dict() if result.layout is not None else {}
    summary = result.check.score.summary() if result.check is not None else {}
    doc["result"] = {
        "status": result.status,
        "objective": result.objective,
        "bound": result.bound,
        "seconds": round(result.seconds, 3),
        **{k: summary.get(k) for k in ("income", "cost", "chain_bonus", "total")},
    }
    if result.explanation:
        doc["result"]["explanation"] = result.explanation
    if result.interrupted:   # (QA: a document from a stopped search read like one that ran to its limit)
        doc["result"]["interrupted"] = True
    return doc


#: an unchanged best and bound is printed again only after this many seconds: the rounds of walks on 7-10
#: machines report every improvement of each round, mostly below the best already printed (a 30 s solve of
#: classic-A n8/s0 printed "best 98  bound 113" fifteen times in eleven seconds); `plan` prints the same way
REPEAT_SECONDS = 10.0


def _shown(best: float, bound: float) -> tuple[int, int | None]:
    """What a progress line shows of (best, bound): whole numbers, no bound while it is unknown (inf)."""
    return round(best), None if math.isinf(bound) else round(bound)


class ProgressLines:
    """A progress callback printing best, bound, gap and elapsed through `show`: each change at once, and the
    same state again only after `repeat` seconds. Used as a context manager it also keeps a quiet search
    visibly alive: a phase that reports nothing (the prover) left 13-15 s without a line, so a heartbeat
    thread prints the last state again every `repeat` seconds of silence."""

    def __init__(self, show: Callable[[str], None], repeat: float = REPEAT_SECONDS, nothing: str = "layout") -> None:
        self.show, self.repeat, self.nothing = show, repeat, nothing   # (nothing: what it has none of yet)
        self.printed: tuple[float, float] | None = None   # the (best, bound) printed last ...
        self.shown: tuple[int, int | None] | None = None   # ... as the line shows them ...
        self.printed_at = -math.inf                        # ... at this elapsed time
        self.started: float | None = None                  # time.monotonic() at elapsed 0
        self.lock = threading.Lock()
        self.quiet = threading.Event()

    def __call__(self, best: float, bound: float, elapsed: float) -> None:
        """`bound` is math.inf while none is known (a plan before its bound: QA saw "bound 64 gap 0.0%")."""
        with self.lock:
            self.started = time.monotonic() - elapsed
            if _shown(best, bound) == self.shown and elapsed - self.printed_at < self.repeat:
                return
            self._print(best, bound, elapsed)

    def _print(self, best: float, bound: float, elapsed: float) -> None:
        best, bound = best + 0.0, bound + 0.0   # (-0.0 + 0.0 is 0.0: QA saw "best -0  bound -0")
        self.printed, self.shown, self.printed_at = (best, bound), _shown(best, bound), elapsed
        if math.isinf(bound):
            self.show(f"best {best:.0f}  bound -  gap -  {elapsed:.1f}s")
        else:
            self.show(f"best {best:.0f}  bound {bound:.0f}  gap {relative_gap(best, bound):.1%}  {elapsed:.1f}s")

    def _beat(self) -> None:
        while not self.quiet.wait(min(1.0, self.repeat / 2)):
            with self.lock:
                if self.started is None:
                    continue
                elapsed = time.monotonic() - self.started
                if elapsed - self.printed_at < self.repeat:
                    continue
                if self.printed is None:   # (QA: a solve with no layout yet was silent for 19 s)
                    self.printed_at = elapsed
                    self.show(f"no {self.nothing} yet  {elapsed:.1f}s")
                else:
                    self._print(*self.printed, elapsed)

    def __enter__(self) -> "ProgressLines":
        # (the search's first report sets it again, from its own clock; the first "no layout yet" after `repeat`)
        self.started, self.printed_at = time.monotonic(), 0.0
        threading.Thread(target=self._beat, name="progress", daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.quiet.set()



def svg_title(board_id: str, result: StaticResult) -> str:
    """What the picture answers: the board, the score (or cost) and how sure it is (QA: the title was only
    "classic-A: FEASIBLE", where `show` titles the same layout with its score)."""
    name = "cost" if result.objective_kind == "cost" else "score"
    return f"{board_id}: {name} {result.objective} ({certainty(result.status, result.bound)})"


def certainty(status: str, bound: float | None) -> str:
    """How sure an answer is, for a title: OPTIMAL, or its status with the bound it stands against."""
    return status if bound is None or status == "OPTIMAL" else f"{status}, bound {bound}"




def _summary(result: StaticResult, ids: list[str] = ()) -> Table:
    """The answer's table; `ids` the machines asked for, of which an --optional answer names those it left out
    (QA: a 12-machine answer placed one and said nothing)."""
    table = Table(show_header=False, box=None)
    table.add_row("status", result.status + (" (interrupted)" if result.interrupted else ""))
    if result.layout is not None:
        placed = set(result.layout.machine_ids)
        left = [m for m in ids if m not in placed]
        if left:
            table.add_row("left out", f"{', '.join(left)} ({len(placed)} of {len(placed) + len(left)} placed)")
    if result.check is not None:
        for key, value in result.check.score.summary().items():
            table.add_row(key.replace("_", " "), str(value))
    table.add_row(f"objective ({result.objective_kind})", "-" if result.objective is None else str(result.objective))
    table.add_row("bound", "-" if result.bound is None else f"{result.bound:.0f}")
    table.add_row("gap", "-" if result.gap is None else f"{result.gap:.1%}")
    table.add_row("seconds", f"{result.seconds:.1f} (model {result.build_seconds:.2f})")
    if result.explanation:
        table.add_row("why", result.explanation)
    return table


#: what `resolve_context` names as the source of solve's board and ruleset: its options, not a file
OPTIONS_SOURCE = "--board/--ruleset"


@click.command("solve", cls=CheckedCommand)
@click.option("--board", "board_id", required=True, help="Board id, e.g. classic-A.")
@click.option("--machines", help="Comma-separated machine ids, e.g. FF40,FF12,FF07.")
@click.option("--machines-file", type=click.Path(dir_okay=False), help="Machine ids, one a line or comma-separated (# comments), or a JSON list.")
@RULESET_OPTION
@CATALOG_OPTION
@BOARDS_OPTION
@click.option("--objective", type=click.Choice(["profit", "cost"]), default="profit", show_default=True,
              help="Profit (income - cost + chain bonus), or the cheapest legal build placing every machine.")
@click.option("--optional", is_flag=True, help="Machines may be left out (maximise profit).")
@time_limit_option(60.0, "Seconds for the whole solve.")
@workers_option()
@seed_option()
@click.option("--hint", "hint_path", type=click.Path(dir_okay=False), help="A complete starting layout.")
@click.option("--fixed", "fixed_path", type=click.Path(dir_okay=False), help="A layout whose machines and tiles must stay where they are.")
@click.option("--diagonal", is_flag=True, help="Allow the diagonal intersection tile.")
@output_option("--out", "out_path", help="Write the layout document with its result.")
@output_option("--svg", "svg_path", help="Write the layout as SVG.")
@json_option("Print the layout document with its result as JSON (FORMATS.md).")
@click.option("--show/--no-show", "show_layout", default=True,
              help="Draw the layout under the result.")   # (as replay and plan can; QA: solve could not)
def solve(board_id, machines, machines_file, ruleset_id, catalog_path, boards_path, objective, optional,
          time_limit, workers, seed, hint_path, fixed_path, diagonal, out_path, svg_path, as_json,
          show_layout) -> None:
    """Find the most profitable (or cheapest) legal factory for a set of machines."""
    if optional and objective == "cost":
        raise click.UsageError("--optional goes with --objective profit")
    try:
        context = resolve_context(OPTIONS_SOURCE, ruleset_id, board_id, catalog_path, boards_path)
    except DocumentError as exc:   # (a --catalog or --boards file's own error names that file and stands)
        if exc.source != OPTIONS_SOURCE:
            raise
        # QA: "--board/--ruleset: ruleset: ruleset factory-fun-2006 has no bundled machine catalogue"
        raise click.UsageError(exc.detail) from None
    if diagonal and not context.ruleset.diagonal_available:
        raise click.UsageError(f"ruleset {ruleset_id} has no diagonal intersection tile")
    ids = _machine_list(machines, machines_file, context.catalog)
    fixed = _read_layout(fixed_path, "fixed", context, catalog_path, boards_path)
    if fixed is not None and fixed.options.get("diagonal_intersection") and not diagonal:
        # (QA: the solve ended INFEASIBLE, "is the option on?", over a layout that says it is)
        raise click.UsageError(f"the --fixed layout {fixed_path} plays with the diagonal intersection tile "
                               "(options.diagonal_intersection): give --diagonal too")
    if fixed is not None and diagonal and not fixed.options.get("diagonal_intersection"):
        # --diagonal plays with the tile, in the fixed part too (QA: its diagonal tile made the solve
        # INFEASIBLE, "the option is off", beside --diagonal)
        fixed = replace(fixed, options={**fixed.options, "diagonal_intersection": True})
    placed, from_fixed = _with_fixed(ids, fixed)
    hint = _usable_hint(_read_layout(hint_path, "hint", context, catalog_path, boards_path), hint_path, placed, optional,
                        fixed, diagonal)
    also = f" ({', '.join(from_fixed)} from --fixed)" if from_fixed else ""
    _err.print(f"solving {counted(len(placed), 'machine')}{also} on board {board_id} ({objective}"
               f"{', optional' if optional else ''}, {time_limit:.10g}s, {counted(workers, 'worker')})")
    with ProgressLines(_err.dim) as progress:
        result = solve_static(context.ruleset, context.board, context.catalog, ids, objective=objective,
                              optional=optional, time_limit=time_left(time_limit), workers=workers, seed=seed, hint=hint,
                              fixed=fixed, diagonal=diagonal, progress=progress)
        if result.objective is not None:   # the last line is the answer's, found or proved by any phase (QA:
            # the lines ended "best 10 bound 12" above an OPTIMAL 12)
            progress(float(result.objective), math.inf if result.bound is None else float(result.bound),
                     result.seconds)
    document = result_document(result)
    if as_json:
        click.echo(json_text(document), nl=False)
        if result.interrupted:
            _err.print(INTERRUPTED_NOTE.format(what="layout"))
    else:
        _out.print(_summary(result, placed))
        if result.layout is not None and show_layout:
            from models.render.text import print_layout

            print_layout(_out, result.layout)
    # files after the result is shown: a write that fails (a full disk) loses no minutes of search from the screen
    if result.layout is None:   # a document without a layout is no layout document: nothing to read back
        for path in (out_path, svg_path):
            if path:
                _err.print(f"no layout to write ({result.status}): {path} not written")
        sys.exit(NO_LAYOUT_EXIT)   # (so `solve --out a.json && check a.json` stops here)
    if out_path:
        write_json(out_path, document)
        _err.print(f"wrote {out_path}")
    if svg_path:
        from models.render.svg import layout_svg

        write_text(svg_path, layout_svg(result.layout, title=svg_title(board_id, result)))
        _err.print(f"wrote {svg_path}")
