"""The `factoryfun` command: thin wrappers that parse, call models/solver, and print.

Every unreadable input ends as one line naming the file, key and cell, exit 2;
a rule-breaking layout or game exits 1; success exits 0; a reader of the output that
went away, 141 (models/terminal.py).
"""
# ruff: noqa: E402 - the imports follow the handler that makes Ctrl-C during them quiet
from __future__ import annotations

from models import clock  # first: a --time-limit counts from here (models/clock.py)
import importlib
import os
import signal
import sys

from models.stopping import Terminated, held_stops, keep_stopping, stop_exit_code, stop_signals


def _leave_while_starting(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
    """Ctrl-C (or SIGTERM, SIGHUP) while the modules load (a second of imports) exits 130 (143, 129) quietly, not
    with an import traceback."""
    raise SystemExit(128 + signum)


#: the stop signals' handlers as the process started with them (a SIGHUP ignored, as by `nohup`, stays ignored)
_BEFORE = {number: signal.signal(number, _leave_while_starting) for number in stop_signals()}

from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource
from rich.table import Table

from models.clickopts import (BOARDS_OPTION, CATALOG_OPTION, RULESET_OPTION, CheckedGroup, json_option,
                              output_option, repeated_option, seed_option, time_limit_option, workers_option)
from models.errors import DocumentError
from models.errors import as_json as spelled   # (`as_json` is the commands' --json flag)
from models.terminal import (ID_WIDTH, Terminal, cell_padding, leave_quietly, outliving_its_reader,
                             plain_where_unicode_cannot_go, silence_stdout)
from models.render.tables import machine_table, violation_table
from models.wording import TILE_NAMES, counted, listed, violations_of_rules

console = Terminal()
err_console = Terminal(stderr=True)

#: players in a `sequence random` deal unless --players or --solo says otherwise
DEFAULT_PLAYERS = 3
#: what --json prints: a document of FORMATS.md, or a report whose keys the README lists
JSON_DOCUMENT = "Print the document as JSON (FORMATS.md)."
JSON_REPORT = "Print the report as JSON (its keys are listed in the README)."


def _terminated(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
    """SIGTERM (`kill`, `timeout`) or SIGHUP where no solve handles it: the command stops as on Ctrl-C, exit 143
    (129)."""
    raise Terminated(signum)


def document_options(json_help: str):
    """--catalog, --boards and --json: every command that reads a layout or game takes them."""
    return lambda command: CATALOG_OPTION(BOARDS_OPTION(json_option(json_help)(command)))


class OneLineUsageError(click.UsageError):
    """A usage error shown as one line, "error: ...", like every other error the commands report (click's
    own would print Usage and Try lines, then "Error: ...": QA saw both spellings side by side)."""

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", file=file, err=True)


def _one_line(exc: click.UsageError) -> click.UsageError:
    """The same usage error without its context: one line, "error: ..." (OneLineUsageError)."""
    if isinstance(exc, click.exceptions.NoArgsIsHelpError):
        return exc  # `factoryfun` alone prints the help, as it should
    plain = OneLineUsageError(exc.format_message())
    plain.exit_code = exc.exit_code
    return plain


class FactoryfunGroup(CheckedGroup):
    """Turns domain and usage errors into one clear line (exit code 2) for every command.

    Subcommands parse their arguments inside this group's invoke, so catching
    click's UsageError here covers every command and subgroup at once.
    """

    #: commands defined beside the code they drive, loaded when named: `solve` brings CP-SAT (and pandas) with
    #: it, which took 0.7 s of every other command's start (`factoryfun --version`: 1.07 s)
    LAZY = {"solve": ("solver.command", "solve"), "robofacture": ("solver.robofacture_command", "robofacture"),
            "puzzle": ("solver.puzzle_command", "puzzle")}

    def main(self, args: Any = None, *rest: Any, **kwargs: Any) -> Any:
        # the command line (args None) counts from the process's start-up; a call with its own arguments (tests,
        # scripts) from now (models/clock.py)
        if args is not None:
            clock.restart()
        plain_where_unicode_cannot_go(sys.stdout, sys.stderr)
        with outliving_its_reader():
            return super().main(args, *rest, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.LAZY})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.LAZY and cmd_name not in self.commands:
            module, name = self.LAZY[cmd_name]
            with held_stops():   # (its imports take a second too: Ctrl-C there leaves quietly, as in cli's own)
                self.add_command(getattr(importlib.import_module(module), name), cmd_name)
        return super().get_command(ctx, cmd_name)

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        repeated = repeated_option(self, args)
        if repeated is not None:
            listing = " (it takes a list: FF39,FF08)" if repeated == "--machines" else ""
            raise OneLineUsageError(f"option {repeated} given twice: give each option once{listing}")
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            raise _one_line(exc) from None
        except click.exceptions.Exit:   # --help or --version printed: a reader gone leaves 141, as for commands
            try:
                sys.stdout.flush()
            except BrokenPipeError:
                leave_quietly()
            raise
        except BrokenPipeError:
            leave_quietly()

    def invoke(self, ctx: click.Context) -> Any:
        try:
            try:
                return super().invoke(ctx)
            finally:   # here, so a full disk fails where it is reported below, not in Python's last flush
                sys.stdout.flush()
        except click.UsageError as exc:
            raise _one_line(exc) from None
        except DocumentError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
        except KeyboardInterrupt as stop:
            keep_stopping()   # (QA: a second signal while it left killed it: exit -2 or -15, not 130 or 143)
            click.echo("interrupted", err=True)
            sys.exit(stop_exit_code(stop))
        except BrokenPipeError:   # (one the stdout wrapper did not see: models/terminal.py)
            leave_quietly()
        except OSError as exc:    # standard output that cannot take more (QA: `factoryfun catalog > /dev/full`)
            click.echo(f"error: {exc.filename or 'standard output'}: cannot write: {exc.strerror or exc}", err=True)
            silence_stdout()
            sys.exit(2)
        except (click.exceptions.Exit, click.Abort, click.ClickException):
            raise
        except Exception as exc:
            internal_error(exc)


#: the exit code of a bug: not 1, which says "illegal" or "no layout" (QA pass 55: a crash in `check` exited 1)
INTERNAL_ERROR_EXIT = 3


def internal_error(exc: Exception) -> None:
    """A bug, said in one line with its own exit code so no script reads it as a verdict; the traceback with
    FACTORYFUN_DEBUG=1, for the report."""
    if os.environ.get("FACTORYFUN_DEBUG"):
        raise exc
    said = " ".join(str(exc).split())   # (one line, whatever the exception's text holds)
    click.echo(f"error: internal error, a bug in factoryfun ({type(exc).__name__}: {said}); please report it with "
               "the command and its files (FACTORYFUN_DEBUG=1 shows the traceback)", err=True)
    sys.exit(INTERNAL_ERROR_EXIT)


@click.group(cls=FactoryfunGroup)
@click.version_option(package_name="factoryfun")
def main() -> None:
    """factoryfun: check, score, draw and optimise Factory Fun factories, generate puzzles with one best factory (and
    Robofacture parts puzzles)."""


def _print_json(document: Any) -> None:
    from models.jsonio import json_text

    click.echo(json_text(document), nl=False)


def _ruleset(ruleset_id: str):
    from models.rulesets import get_ruleset

    try:
        return get_ruleset(ruleset_id)
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0]), param_hint="--ruleset") from None


def _draw(layout, highlight=()) -> None:
    from models.render.text import print_layout

    print_layout(console, layout, highlight)


def _violation_cells(violations) -> list:
    """The cells a drawing outlines: every cell of every violation."""
    return [c for v in violations for c in v.cells]


def _write(path: str, text: str) -> None:
    """Write an output file and say so; a failure is one line naming the file (models/jsonio.py)."""
    from models.jsonio import write_and_say

    write_and_say(path, text, err_console.print)


def _write_document(path: str, document: Any) -> None:
    from models.jsonio import json_text

    _write(path, json_text(document))


# -- data --------------------------------------------------------------------
@main.command()
@RULESET_OPTION
@CATALOG_OPTION
@json_option("Print the catalogue as JSON (the instances/ format: it works as --catalog FILE).")
def catalog(ruleset_id: str, catalog_path: str | None, as_json: bool) -> None:
    """List the machines of a catalogue."""
    from models.catalog import catalog_document, load_catalog

    ruleset = _ruleset(ruleset_id)
    cat = load_catalog(ruleset, catalog_path)
    if as_json:   # a machines file: it works as --catalog FILE
        _print_json(catalog_document(cat))
        return
    table = machine_table(cat.machines.values(), f"{len(cat.machines)} machines ({ruleset_id}); names marked (?) "
                          "are uncertain readings", ruleset.geometry)
    console.print(table)


@main.command()
@click.argument("board_id", required=False)
@RULESET_OPTION
@BOARDS_OPTION
@output_option("--svg", "svg_path", help="Write the board as SVG.")
@json_option("Print the boards as JSON (the instances/ format: it works as --boards FILE).")
def boards(board_id: str | None, ruleset_id: str, boards_path: str | None, svg_path: str | None, as_json: bool) -> None:
    """List the boards, or draw one."""
    from models.board import boards_document, load_boards

    if svg_path and board_id is None:   # (QA: the list was printed and no file written, with nothing said)
        raise click.UsageError("--svg draws one board: name it, e.g. `factoryfun boards classic-A --svg board.svg`")
    ruleset = _ruleset(ruleset_id)
    all_boards = load_boards(ruleset, boards_path)
    chosen = list(all_boards.values())
    if board_id is not None:
        if board_id not in all_boards:
            raise click.BadParameter(f"unknown board {spelled(board_id)} (known: {', '.join(all_boards)})", param_hint="BOARD_ID")
        chosen = [all_boards[board_id]]
    if as_json:   # a boards file: it works as --boards FILE
        _print_json(boards_document(ruleset, chosen))
    elif board_id is None:
        table = Table(title=f"boards ({ruleset_id})")
        for column in ("id", "geometry", "size", "playable", "blocked", "pillars"):
            table.add_column(column)
        for b in chosen:
            rows, cols = b.geometry.span(b.all_drawn_cells())
            table.add_row(b.id, b.geometry.name, f"{rows}x{cols}", str(len(b.cells)),
                          " ".join(map(str, map(list, sorted(b.blocked)))), " ".join(map(str, map(list, sorted(b.pillars)))))
        console.print(table)
    else:
        from models.render.text import draw_board

        console.print(f"[bold]{chosen[0].id}[/]: {counted(len(chosen[0].cells), 'playable cell')}")
        console.print(draw_board(chosen[0], ruleset.all_colors), soft_wrap=True)
    if svg_path:   # (with --json too, as show and solve write it; QA: it was dropped without a word)
        from models.render.svg import board_svg

        _write(svg_path, board_svg(chosen[0], ruleset.all_colors))


# -- layouts -----------------------------------------------------------------
def _score_table(score, ruleset) -> Table:
    """The score's parts, each tile kind's cost named as the game names the tile ("supply containers", on hexes
    "supply tanks"; QA pass 54: "cost: supply" where the legend said "supply container")."""
    table = Table(title="score", show_header=False)
    table.add_column("part")
    table.add_column("value", justify="right")
    table.add_row("income", str(score.income))
    for kind, cost in sorted(score.cost_by_kind.items()):
        table.add_row(f"  cost: {ruleset.in_own_words(TILE_NAMES[kind])}s", f"{-cost}")
    table.add_row("cost", f"{-score.cost}")   # (paid: below 0, and 0 not "-0": QA pass 54)
    per_point = ruleset.chain_bonus_per_point   # (QA pass 54: the +10 with no word of its 5 a point)
    for c in score.chain_inputs:
        facing = "" if c.side == c.at else f" on side {c.side}"   # (as check names a turned machine's ports)
        table.add_row(f"  chain: {c.machine} {c.at}{facing} ({c.color} {c.amount} x {per_point})", f"+{c.bonus}")
    table.add_row("chain bonus", f"+{score.chain_bonus}")
    table.add_row("[bold]total[/]", f"[bold]{score.total}[/]")
    return table


@main.command()
@click.argument("layout_path", type=click.Path(dir_okay=False))
@document_options(JSON_REPORT)
@click.option("--quiet", is_flag=True, help="No drawing: the verdict and the violations only.")
def check(layout_path: str, catalog_path, boards_path, as_json: bool, quiet: bool) -> None:
    """Check a layout against every rule. Exit 0 legal, 1 illegal, 2 unreadable."""
    from models.check import check_layout
    from models.layout import load_layout

    layout = load_layout(layout_path, catalog_path, boards_path)
    result = check_layout(layout)
    if as_json:
        _print_json(result.to_dict())
    else:
        if not quiet:
            _draw(layout, highlight=_violation_cells(result.violations))
        if result.legal:
            console.print(f"[green bold]legal[/]: {layout_path}, score {result.score.total}")
        else:
            console.print(violation_table(result.violations, f"{counted(len(result.violations), 'violation')} in {layout_path}"))
            console.print(f"[red bold]illegal[/]: {layout_path}")
    sys.exit(0 if result.legal else 1)


@main.command()
@click.argument("layout_path", type=click.Path(dir_okay=False))
@document_options(JSON_REPORT)
def score(layout_path: str, catalog_path, boards_path, as_json: bool) -> None:
    """Static score of a layout: income, cost by tile kind, chain bonus per input, total."""
    from models.check import check_layout
    from models.layout import load_layout

    layout = load_layout(layout_path, catalog_path, boards_path)
    result = check_layout(layout)
    if as_json:
        _print_json({**result.score.to_dict(), "legal": result.legal})
        return
    console.print(_score_table(result.score, layout.ruleset))
    if not result.legal:
        console.print(f"[yellow]note: the layout has {violations_of_rules(result.violations)}; run `factoryfun check`[/]")


@main.command()
@click.argument("layout_path", type=click.Path(dir_okay=False))
@document_options(JSON_DOCUMENT)
@output_option("--svg", "svg_path", help="Write the layout as SVG.")
def show(layout_path: str, catalog_path, boards_path, as_json: bool, svg_path: str | None) -> None:
    """Draw a layout in the terminal, and as SVG with --svg."""
    from models.check import check_layout
    from models.layout import load_layout
    from models.render.svg import layout_svg

    layout = load_layout(layout_path, catalog_path, boards_path)
    result = check_layout(layout)
    highlight = _violation_cells(result.violations)
    if as_json:
        _print_json({**layout.to_dict(), "result": {"legal": result.legal, **result.score.summary()}})
    else:
        _draw(layout, highlight)
        verdict = "legal" if result.legal else f"illegal ({counted(len(result.violations), 'violation')})"
        count = len(layout.machines)
        console.print(f"{layout.board.id}: {count} machine{'' if count == 1 else 's'}, score {result.score.total}, {verdict}")
    if svg_path:   # (after what is printed, as every command writes its files: QA, `--svg /dev/stdout`)
        # (the rules named: QA saw outlined cells and no word of what they broke)
        broken = ", ".join(dict.fromkeys(v.rule for v in result.violations))
        verdict = "" if result.legal else f", illegal ({counted(len(result.violations), 'violation')} outlined: {broken})"
        _write(svg_path, layout_svg(layout, title=f"{Path(layout_path).name}: score {result.score.total}{verdict}",
                                        highlight_cells=highlight))


# -- games -------------------------------------------------------------------
def _replay_table(result, width: int | None = None, title: str = "replay") -> Table:
    """The rounds of a replayed game, for a terminal `width` columns wide (the console's unless told)."""
    table = Table(title=title, padding=cell_padding(console.width if width is None else width))
    # Funner's tokens in a column of their own, not inside the income and the cost (QA: a first pick's build
    # of 3 tiles read "cost -4", FN11's income of 6 "+7")
    tokens = any(r.first_pick_fee or r.last_pick_token for r in result.rounds)
    # ("laid": new and moved tiles alike, each paid for; QA read "new tiles 6" where one was new, five moved)
    columns = ("round", "offered", "taken", "built", "income", "tiles laid", "moves", "cost") + (
        ("tokens",) if tokens else ()) + ("penalty", "money")
    for column in columns:
        # (a penalty's "(money at 1)" folds onto lines of its own in a narrow terminal, never cut: QA at 60 columns)
        table.add_column(column, justify="right" if column not in ("offered", "taken", "moves") else "left",
                         min_width=ID_WIDTH if column in ("offered", "taken") else None,
                         overflow="fold" if column == "penalty" else "ellipsis")
    if result.start_money is not None:   # (QA pass 54: the table started at round 1's money, the start unsaid)
        table.add_row("start", *[""] * (len(columns) - 2), str(result.start_money))
        table.add_section()
    for r in result.rounds:
        token = ([f"+{r.last_pick_token} last"] if r.last_pick_token else []) + (
            [f"-{r.first_pick_fee} first"] if r.first_pick_fee else [])
        table.add_row(str(r.number), " ".join(r.offered), r.taken or "-", "yes" if r.built else "undone" if r.undone else "no",
                      f"+{r.machine_income}" if r.machine_income else "", str(len(r.new_tiles)), ", ".join(r.moved_machines),
                      f"-{r.tiles_cost}" if r.tiles_cost else "", *([" ".join(token)] if tokens else []),
                      _penalty_cell(r), str(r.money))
    return table


def _penalty_cell(r) -> str:
    """A round's penalty as the replay table shows it: none for a machine that was the last pick (QA: a blank
    cell, where analyze said why)."""
    # (QA: a waived penalty was a blank, no reason given; then "(money at 1)" beside money -2, an illegal
    # rebuild's cost having taken it under 1 before the penalty)
    floored = (" (money at 1)" if r.money >= 1 else " (money under 1)") if r.penalty_floored else ""
    if r.penalty_alone:
        return f"-{r.penalty_alone}{floored}"
    if r.taken is not None and not r.built and r.last_pick:
        return "0 (last pick)"
    return f"0{floored}" if floored else ""


@main.command()
@click.argument("game_path", type=click.Path(dir_okay=False))
@document_options(JSON_DOCUMENT)
@output_option("--out", "out_path", help="Write the game with its result to this file.")
@output_option("--svg", "svg_path", help="Write the final layout as SVG.")
@click.option("--show/--no-show", "show_final", default=True, help="Draw the final layout.")
def replay(game_path: str, catalog_path, boards_path, as_json: bool, out_path: str | None, svg_path: str | None,
           show_final: bool) -> None:
    """Replay a game round by round and score it. Exit 0 legal, 1 illegal, 2 unreadable."""
    from models.analysis import require_taken
    from models.game import load_game
    from models.replay import grouped_violations, replay_game

    game = load_game(game_path, catalog_path, boards_path)
    require_taken(game, game_path, "a played game")   # (QA: a bare sequence was scored as a game taking nothing)
    unplayed = [str(number) for number, r in enumerate(game.rounds, 1) if not r.has_taken]
    if unplayed:   # (QA: a half-played game's last rounds were scored without a word)
        err_console.print(f"{'rounds' if len(unplayed) > 1 else 'round'} {', '.join(unplayed)} of {game_path} "
                          f"{'say' if len(unplayed) > 1 else 'says'} nothing of what was taken: scored as taking nothing")
    result = replay_game(game)
    document = game.to_dict(result.to_dict())
    if as_json:
        _print_json(document)
    else:
        console.print(_replay_table(result))
        for r in result.rounds:
            if r.undone:
                # (QA: said paid, was not; then called every penalty of 0 the last pick's, where money stood at 1)
                paid = ("the penalty was paid" if r.penalty else "no penalty was paid (the last pick)" if r.last_pick
                        else "no penalty was paid (money cannot fall below 1)")   # (QA: "and no penalty")
                console.print(f"round {r.number}: building {r.taken} would have left money below 1, so it was "
                              f"undone and {paid} ({game.ruleset.title})")
        if show_final:
            _draw(result.final_layout, _violation_cells(result.final_violations))
        console.print(f"money {result.money} + chain bonus {result.chain_bonus} = [bold]final score {result.final_score}[/]")
        _print_ladder(result)
        if result.violations:
            grouped = grouped_violations(result.violations)
            title = counted(len(grouped), "violation") + (f" ({len(result.violations)} round by round)"
                                                      if len(grouped) < len(result.violations) else "")
            console.print(violation_table([v for _, v in grouped], title, [r for r, _ in grouped]))
            console.print("[red bold]illegal game[/]")
    if out_path:
        _write_document(out_path, document)
    if svg_path:
        _final_svg(svg_path, game_path, result, "" if result.legal else "illegal game")
    sys.exit(0 if result.legal else 1)


@main.group(cls=CheckedGroup)
def sequence() -> None:
    """Make machine sequences to plan for."""


@sequence.command("random")
@seed_option(help="Shuffle seed: the same seed deals the same sequence again.")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help=f"Machines revealed a round (one per player).  [default: {DEFAULT_PLAYERS}]")
@click.option("--rounds", type=click.IntRange(min=1), default=None,
              help="Rounds (default, and most: the ruleset's; fewer make the first rounds of a game).")
@click.option("--solo", is_flag=True, help="One machine offered a round: take it or leave it (not with --players).")
@click.option("--specials", is_flag=True, help="Deal the catalogue's special machines too (Funner's FN32, FN33, FN45: "
              "a variant; the rulebook deals the other 45).")
@click.option("--board", "board_id", default=None, help="Board id (default: the ruleset's first board, classic-A for factory-fun).")
@RULESET_OPTION
@CATALOG_OPTION
@BOARDS_OPTION
@output_option("--out", "out_path", help="Write the sequence here (default: print it).")
def sequence_random(seed: int, players: int | None, rounds: int | None, solo: bool, specials: bool,
                    board_id: str | None, ruleset_id: str, catalog_path, boards_path, out_path: str | None) -> None:
    """A random sequence dealt as in the real game (a game document without taken/layout)."""
    from models.board import load_boards
    from models.catalog import load_catalog
    from models.sequence import random_sequence

    if solo and players is not None and players != 1:
        raise click.UsageError(f"--solo offers one machine a round; --players {players} offers {players}: give one of them")
    ruleset = _ruleset(ruleset_id)
    if rounds is not None and rounds > ruleset.rounds:
        raise click.BadParameter(f"{ruleset.title} has {ruleset.rounds} rounds", param_hint="'--rounds'")
    known = load_boards(ruleset, boards_path)
    if board_id is None:
        board_id = next(iter(known))
    if board_id not in known:
        raise click.BadParameter(f"unknown board {spelled(board_id)} (known: {', '.join(known)})", param_hint="--board")
    catalog = load_catalog(ruleset, catalog_path)
    if specials and not any(machine.special for machine in catalog.machines.values()):   # (QA: silently no change)
        raise click.BadParameter(f"the {ruleset.title} catalogue has no special machines; every machine is dealt",
                                 param_hint="'--specials'")
    try:
        document = random_sequence(ruleset, catalog, board_id, seed, players or DEFAULT_PLAYERS, rounds, solo, specials)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if out_path:
        _write_document(out_path, document)
    else:
        _print_json(document)


def _progress_printer(label: str):
    """Progress lines (best, bound, gap, elapsed) headed by `label`, as `solve` prints them."""
    from solver.command import ProgressLines

    return ProgressLines(lambda line: err_console.dim(f"{label}: {line}"), nothing=label)


@main.command()
@click.argument("sequence_path", type=click.Path(dir_okay=False))
@time_limit_option(600.0, "Seconds for the whole plan.")
@workers_option()
@seed_option()
@output_option("--out", "out_path", help="Write the plan (a game document with result).")
@output_option("--svg", "svg_path", help="Write the plan's final layout as SVG.")
@document_options(JSON_DOCUMENT)
@click.option("--show/--no-show", "show_final", default=True, help="Draw the final layout.")
def plan(sequence_path: str, time_limit: float, workers: int, seed: int, out_path: str | None, svg_path: str | None,
         catalog_path, boards_path, as_json: bool, show_final: bool) -> None:
    """The best game for a known sequence of offered machines (a played game or an earlier plan: the search
    starts from it, and the plan never scores below it)."""
    from models.game import load_game
    from solver.plan import plan_game

    game = load_game(sequence_path, catalog_path, boards_path)
    played = game if any(r.has_taken for r in game.rounds) else None   # (a bare sequence has nothing to start from)
    with _progress_printer("plan") as progress:
        result = plan_game(game, clock.time_left(time_limit), workers, seed, progress=progress, report=lambda text: err_console.print(text),
                           known=played)
    document = result.to_document()
    if as_json:
        _print_json(document)
        if result.interrupted:
            from solver.command import INTERRUPTED_NOTE

            err_console.print(INTERRUPTED_NOTE.format(what="plan"))
    else:
        _plan_summary(result, show_final)
    if out_path:   # after the result is shown: a write that fails loses no minutes of search from the screen
        _write_document(out_path, document)
    if svg_path:
        from solver.command import certainty

        _final_svg(svg_path, sequence_path, result.replay, certainty(result.status, result.bound))


def _final_svg(path: str, game_path: str, replayed, note: str = "") -> None:
    """A game's final layout as SVG, titled with its final score (what `replay` and `plan` answer)."""
    from models.render.svg import layout_svg

    title = f"{Path(game_path).name}: final score {replayed.final_score}" + (f" ({note})" if note else "")
    # (QA: `replay` of an illegal game outlined nothing where `show` outlines the same layout's stray pipe)
    _write(path, layout_svg(replayed.final_layout, title=title,
                            highlight_cells=_violation_cells(replayed.final_violations)))


def _plan_summary(result, show_final: bool) -> None:
    """The plan's rounds, final layout and score line in the terminal."""
    console.print(_replay_table(result.replay, title="the plan, round by round"))   # (QA: it was titled "replay")
    if show_final:
        _draw(result.replay.final_layout)
    gap = "-" if result.gap is None else f"{result.gap:.1%}"
    console.print(f"final score [bold]{result.final_score}[/] (money {result.replay.money} + chain bonus "
                  f"{result.replay.chain_bonus}); bound {'-' if result.bound is None else result.bound}, gap {gap}, "
                  f"{result.status}"
                  + (" (interrupted)" if result.interrupted else ""))
    _print_ladder(result.replay)   # (QA: shown by `replay`, only written by `plan`)


def _print_ladder(replayed) -> None:
    """Funner's solo ladder verdict under a replayed or planned game's score line."""
    if replayed.ladder:
        console.print(f"solo ladder: {replayed.ladder} a level" if replayed.ladder != "stay"
                      else "solo ladder: stay on this level")


@main.command()
@click.argument("game_path", type=click.Path(dir_okay=False))
@click.option("--plan", "plan_path", type=click.Path(dir_okay=False), help="Compare with this computed plan instead of solving one.")
@output_option("--out", "out_path", help="Write the HTML report here.")
@output_option("--plan-out", "plan_out", help="Also write the computed plan.")
@time_limit_option(600.0, "Seconds for computing the plan.")
@workers_option()
@seed_option()
@document_options(JSON_REPORT)
def analyze(game_path: str, plan_path: str | None, out_path: str | None, plan_out: str | None, time_limit: float,
            workers: int, seed: int, catalog_path, boards_path, as_json: bool) -> None:
    """Score a played game against the best plan for the same offered machines."""
    from models.analysis import (analysis_html, analysis_summary, analysis_table, compare_games, plan_result,
                                 require_taken)
    from models.game import load_game, parse_game
    from models.jsonio import read_json
    from models.layout import require_game_of

    if plan_path:   # what only a computed plan uses, given with --plan, would be silently ignored (QA)
        search_options = [f"--{name.replace('_', '-')}" for name in ("plan_out", "time_limit", "workers", "seed")
                          if click.get_current_context().get_parameter_source(name) != ParameterSource.DEFAULT]
        if search_options:
            raise click.UsageError(f"{listed(search_options)} {'is' if len(search_options) == 1 else 'are'} for the "
                                   "plan analyze computes; with --plan it computes none")
    played = load_game(game_path, catalog_path, boards_path)
    require_taken(played, game_path, "a played game")
    if plan_path:
        document = read_json(plan_path)
        require_game_of(document, plan_path, "plan", played.ruleset.id)   # (the played game's)
        best = parse_game(document, plan_path, catalog_path, boards_path)
        bound, status = plan_result(document)   # (its own claim: dropped when a legal game beats it)
    else:
        from solver.plan import plan_game

        with _progress_printer("plan") as progress:
            result = plan_game(played, clock.time_left(time_limit), workers, seed, progress=progress,
                               report=lambda text: err_console.print(text), known=played)
        best, bound, status = result.game, result.bound, result.status
    analysis = compare_games(played, best, bound, status, claimed=bool(plan_path))
    if as_json:
        _print_json(analysis.to_dict())
    else:
        console.print(analysis_table(analysis, console.width))
        console.print(analysis_summary(analysis))
    if not plan_path and result.interrupted:   # (as solve and plan say it)
        err_console.print("(interrupted: the plan compared against is the best found so far)")
    if plan_out and not plan_path:   # after the result is shown (see `plan`)
        _write_document(plan_out, result.to_document())
    if out_path:
        _write(out_path, analysis_html(analysis, interrupted=not plan_path and result.interrupted))


def _register_commands_defined_elsewhere() -> None:
    """`bench-checker` lives beside the code it drives; `factoryfun` lists it too (and `solve`, FactoryfunGroup.LAZY)."""
    from models.benchmark_checker import bench_checker

    main.add_command(bench_checker)


_register_commands_defined_elsewhere()
# loaded: Ctrl-C is each command's to handle again (as it was), and SIGTERM and SIGHUP stop a command as Ctrl-C
# does (solve, plan and analyze take them over while they search), unless the process was started with one ignored
# (`nohup` ignores SIGHUP: the command then runs on)
for _number, _before in _BEFORE.items():
    signal.signal(_number, _terminated if _number != signal.SIGINT and _before == signal.SIG_DFL else _before)

if __name__ == "__main__":
    main()
