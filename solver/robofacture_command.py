"""`factoryfun robofacture`: the Robofacture parts puzzle's commands (check, ship, solve, generate), thin over
models/robofacture, solver/robofacture and solver/robofacture_generate.

Loaded when named (cli.py's LAZY), like `solve`: only `solve` and `generate` need CP-SAT, and import it when they
run.
Exit codes follow `check` and `solve`: 0 legal / answered, 1 illegal / no answer, 2 unreadable input.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING

import click
from rich.table import Table

from models.clickopts import (CheckedGroup, json_option, output_option, seed_option, time_limit_option,
                              workers_option)
from models.clock import time_left
from models.errors import DocumentError
from models.jsonio import json_text, write_and_say
from models.robofacture.check import Verdict, check
from models.robofacture.puzzle import MAX_SIDE, Puzzle, load_puzzle
from models.robofacture.render import caption, product_words, svg_picture, terminal_key, terminal_picture
from models.stopping import held_stops
from models.robofacture.shipping import Shipment, best_shipment, shipments
from models.terminal import Terminal
from models.wording import counted, violations_of_rules

if TYPE_CHECKING:   # (imported when a command runs: it loads CP-SAT)
    from .robofacture import RobofactureResult

_out = Terminal()
_err = Terminal(stderr=True)
ILLEGAL_EXIT = 1

PUZZLE_ARGUMENT = click.argument("puzzle_path", type=click.Path(dir_okay=False))
SVG_OPTION = output_option("--svg", "svg_path", help="Write the production space as SVG.")


@click.group(cls=CheckedGroup)
def robofacture() -> None:
    """The Robofacture parts puzzle (RULES.md section 3): check a production space, ship it, place parts for the
    best shipment, or generate puzzles with a proved unique best answer."""


def _print_json(value) -> None:
    click.echo(json_text(value), nl=False)


def _write(path: str, text: str) -> None:
    write_and_say(path, text, _err.print)


def _draw(puzzle: Puzzle, verdict: Verdict, shipment: Shipment | None, svg_path: str | None, source: str,
          show: bool = True) -> None:
    highlight = {cell for v in verdict.violations for cell in v.cells}
    note = None if verdict.legal else (f"illegal: {violations_of_rules(verdict.violations)}, their cells marked; "
                                       "nothing ships until they hold")
    if show:
        _out.print(terminal_picture(puzzle.space, verdict.filling, shipment, highlight), soft_wrap=True)
        _out.print(note or caption(shipment))
        _out.print(terminal_key(puzzle.space, shipment, highlight, bool(verdict.filling.stacked)), style="dim")
    if svg_path:
        _write(svg_path, svg_picture(puzzle.space, verdict.filling, shipment, source, highlight, note))


def _violations(verdict: Verdict) -> None:
    table = Table(title=violations_of_rules(verdict.violations), title_justify="left")
    for heading in ("rule", "what", "cells", "parts"):
        table.add_column(heading)
    for v in verdict.violations:
        table.add_row(v.rule, v.message, " ".join(f"[{r}, {c}]" for r, c in v.cells), " ".join(map(str, v.parts)))
    _out.print(table)


@robofacture.command("check")
@PUZZLE_ARGUMENT
@json_option('Print {"legal": ..., "violations": [{"rule", "message", "cells", "parts"}]}.')
@SVG_OPTION
def check_command(puzzle_path: str, as_json: bool, svg_path: str | None) -> None:
    """Check where the parts lie: inside the space, never over another part (premarked cells may be covered),
    no two touching cells of one colour except white. Exit 0 legal, 1 illegal, 2 unreadable."""
    puzzle = load_puzzle(puzzle_path)
    verdict = check(puzzle)
    if as_json:
        _print_json({"legal": verdict.legal, "violations": [v.to_dict() for v in verdict.violations]})
    else:
        _out.print(f"{puzzle_path}: {'legal' if verdict.legal else 'ILLEGAL'}")
    shipment = best_shipment(verdict.filling.colours) if verdict.legal else None
    _draw(puzzle, verdict, shipment, svg_path, puzzle_path, show=not as_json)
    if not verdict.legal and not as_json:
        _violations(verdict)
    sys.exit(0 if verdict.legal else ILLEGAL_EXIT)


@robofacture.command("ship")
@PUZZLE_ARGUMENT
@click.option("--all", "list_all", is_flag=True, help="List every rectangle the space can ship, best first.")
@json_option('Print {"legal", "shipment", "shipments"} (shipments with --all).')
@SVG_OPTION
def ship_command(puzzle_path: str, list_all: bool, as_json: bool, svg_path: str | None) -> None:
    """The best shipment of the filled space: the rectangle (2 x 2 to 4 x 4) whose base, less its cuts and the
    white cells in it, scores most. Exit 1 when the space breaks a rule or nothing can ship."""
    puzzle = load_puzzle(puzzle_path)
    verdict = check(puzzle)
    found = shipments(verdict.filling.colours) if verdict.legal else []
    best = found[0] if found else None
    if as_json:
        document = {"legal": verdict.legal, "shipment": best.to_dict() if best else None}
        if list_all:
            document["shipments"] = [s.to_dict() for s in found]
        _print_json(document)
    _draw(puzzle, verdict, best, svg_path, puzzle_path, show=not as_json)
    if not as_json:
        if not verdict.legal:
            _violations(verdict)
        elif list_all and found:
            table = Table(title=f"{len(found)} ways to ship", title_justify="left")
            for heading in ("cell", "size", "base", "cuts", "whites", "score", "RG", "product"):
                # (the cut sides and a tie's colours fold in a narrow terminal, never cut: QA at 60 columns)
                table.add_column(heading, justify="right" if heading not in ("product", "cuts") else "left",
                                 overflow="fold" if heading in ("product", "cuts") else "ellipsis")
            for s in found:
                cuts = f"{s.cuts} {','.join(s.cut_sides)}".strip()
                table.add_row(f"[{s.top}, {s.left}]", f"{s.rows} x {s.cols}", str(s.base), cuts, str(s.whites),
                              str(s.score), str(s.robo_gold), product_words(s.colours))
            _out.print(table)
    sys.exit(0 if best is not None else ILLEGAL_EXIT)


@robofacture.command("solve")
@PUZZLE_ARGUMENT
@time_limit_option(30.0, "Seconds for the search.")
@workers_option()
@seed_option()
@click.option("--all-parts", is_flag=True, help="Every part at hand must be placed (default: parts may be left "
              "aside, and at equal score the fewest are placed).")
@click.option("--unique", is_flag=True, help="Also prove whether the best filling is the only one as good.")
@output_option("--out", "out_path", help="Write the puzzle with the placements found and its result.")
@SVG_OPTION
@json_option("Print the puzzle with the placements found and its result.")
def solve_command(puzzle_path: str, time_limit: float, workers: int, seed: int, all_parts: bool, unique: bool,
                  out_path: str | None, svg_path: str | None, as_json: bool) -> None:
    """Place the unplaced parts (the placed ones stay) for the best shipment: most points, then most RG, then
    fewest parts. Progress on stderr; Ctrl-C stops with the best placement found so far."""
    with held_stops():
        from .command import ProgressLines
        from .robofacture import PlacedPartsIllegal, placed_parts_verdict, solve_parts

    puzzle = load_puzzle(puzzle_path)
    progress = ProgressLines(_err.dim, nothing="placement")
    try:
        placed_parts_verdict(puzzle)   # (a space it refuses is one line, before any other)
        # (QA: a 12 x 12 space with 60 parts said nothing for 9 s, where `solve` says at once what it is doing)
        at_hand = len(puzzle.parts) - len(puzzle.placed)
        _err.dim(f"placing {counted(at_hand, 'part')} in a {puzzle.space.rows} x {puzzle.space.cols} space "
                 f"({time_limit:g}s, {counted(workers, 'worker')})")
        with progress:
            result = solve_parts(puzzle, time_left(time_limit), workers, seed, all_parts, unique, progress)
    except PlacedPartsIllegal as exc:
        raise DocumentError(puzzle_path, exc.key, str(exc)) from None
    if result.shipment is not None and result.bound is not None:   # the proof's bound, which no search reported
        progress(float(result.shipment.score), float(result.bound), result.seconds)
    document = result.puzzle.to_dict() | {"result": result.to_dict()}
    if as_json:
        _print_json(document)
    verdict = check(result.puzzle)
    if result.shipment is None:
        if result.status == "INFEASIBLE":
            reason = "no placement of these parts fills a 2 x 2 rectangle within the rules" + (
                " with every part placed" if all_parts else "")
        else:
            reason = "interrupted before any placement" if result.interrupted else "no placement found in time"
        _err.print(f"{result.status}: {reason}")
        if out_path:   # (QA: the puzzle was written back unchanged, as if it were the answer)
            _err.print(f"no answer to write ({result.status}): {out_path} not written")
        sys.exit(ILLEGAL_EXIT)
    if not as_json:
        _out.print(f"{result.status}: score {result.shipment.score}, bound {result.bound}, {result.seconds:.1f}s"
                   + " (interrupted)" * result.interrupted + _uniqueness(result.unique, unique))
    _draw(result.puzzle, verdict, result.shipment, svg_path, puzzle_path, show=not as_json)
    if out_path:   # (after what is printed, as every command writes its files: QA, `--out /dev/stdout`)
        _write(out_path, json_text(document))


def _uniqueness(settled: bool | None, asked: bool) -> str:
    if not asked:
        return ""
    return {True: "; the best filling is unique", False: "; another filling is as good",
            None: "; uniqueness not settled"}[settled]


@robofacture.command("compare")
@PUZZLE_ARGUMENT
@time_limit_option(30.0, "Seconds for the best answer's search.")
@workers_option()
@seed_option()
@json_option('Print {"legal", "yours", "best", "share", "best_is_yours"}: whether yours is legal, the two shipments, the best\'s result, yours as a share of it (a fraction), and whether the best shown is your own space (the search found less in its time).')
@output_option("--svg", "svg_path", help="Write the best answer as SVG.")
def compare_command(puzzle_path: str, time_limit: float, workers: int, seed: int, as_json: bool,
                    svg_path: str | None) -> None:
    """Score a player's filled space against the best any placement of the same parts could ship (every part
    at hand free, the premarked cells as printed). Exit 1 when the player's space breaks a rule."""
    with held_stops():
        from .robofacture import solve_parts

    puzzle = load_puzzle(puzzle_path)
    verdict = check(puzzle)
    yours = best_shipment(verdict.filling.colours) if verdict.legal else None
    best, best_is_yours = _at_least_yours(solve_parts(puzzle.with_placed(()), time_left(time_limit), workers, seed),
                                          puzzle, yours)
    best_verdict = check(best.puzzle)
    # a legal space that ships nothing scores 0 (QA pass 39: no share at all, `"share": null`)
    mine = yours.score if yours else 0 if verdict.legal else None
    top = best.shipment.score if best.shipment else None
    share = round(mine / top, 4) if mine is not None and top and top > 0 else None
    if as_json:
        _print_json({"legal": verdict.legal, "yours": yours.to_dict() if yours else None,
                     "best": best.to_dict(), "share": share, "best_is_yours": best_is_yours})
    else:
        _out.print("yours:")
        _draw(puzzle, verdict, yours, None, puzzle_path)
        if not verdict.legal:
            _violations(verdict)
        if best.shipment is None and best.status == "INFEASIBLE":   # (QA: "not proved: bound None", then an empty
            _out.print(f"no placement of the same parts can ship (proved, {best.seconds:.1f}s)")   # drawing)
        elif best.shipment is None:   # (QA pass 53: an empty space was drawn as "the best")
            _out.print(f"the search found no placement of the same parts that ships in {best.seconds:.1f}s "
                       f"({best.status})")
        else:
            proved = ("proved best" if best.status == "OPTIMAL" else "not proved" if best.bound is None
                      else f"not proved: bound {best.bound}")
            found = "yours, the search finding none better; " if best_is_yours else ""
            _out.print(f"the best of the same parts ({found}{proved}, {best.seconds:.1f}s):")
            _draw(best.puzzle, best_verdict, best.shipment, None, puzzle_path)
        if mine is not None and top is not None:
            _out.print(_comparison(yours.score if yours else None, top, share, best.status == "OPTIMAL"))
    if svg_path and best.shipment is not None:
        _write(svg_path, svg_picture(best.puzzle.space, best_verdict.filling, best.shipment,
                                     f"the best for {puzzle_path}"))
    elif svg_path:   # (QA pass 53: nothing written, nothing said)
        _err.print(f"no answer to draw ({best.status}): {svg_path} not written")
    sys.exit(0 if verdict.legal else ILLEGAL_EXIT)


def _at_least_yours(best: RobofactureResult, puzzle: Puzzle, yours: Shipment | None
                    ) -> tuple[RobofactureResult, bool]:
    """The search's best, or the player's own space where the search found less in its time (and whether it is
    the player's): a legal space is a placement of the same parts (QA pass 52: an unproved best of -1 was called
    "the best" beside the player's 15, and a search that found nothing gave no comparison). It is never called
    proved: the search's bound is on the score alone, and a best is proved on its Robo-Gold too (QA pass 53)."""
    if yours is None or (best.shipment is not None and best.shipment.score >= yours.score):
        return best, False
    return replace(best, status="FEASIBLE", puzzle=puzzle, shipment=yours, fewest_parts=None), True


def _comparison(mine: int | None, top: int, share: float | None, proved: bool) -> str:
    """The line that compares the two shipments (`mine` None: the player's space ships nothing). A share is only
    taken of a best above 0 VP (QA pass 47: a best of -1, which the player's space matched, got no line at all);
    it is below 0 for a space that ships at a loss. A space that ships nothing is never "as good as" a best
    of 0 VP or less (QA pass 52): it has no score to compare."""
    line = f"yours ships {'nothing' if mine is None else f'{mine} VP'} of the best {top}"
    line += f": {share:.0%}" if share is not None else f" (no share of a best of {top} VP)"
    if proved and mine is not None and mine >= top:
        line += "; yours is as good as the best"
    return line


@robofacture.command("generate")
@click.option("--rows", type=click.IntRange(2, MAX_SIDE), default=4, show_default=True, help="Rows of the space.")
@click.option("--cols", type=click.IntRange(2, MAX_SIDE), default=4, show_default=True, help="Columns of the space.")
@click.option("--parts", type=click.IntRange(1, 20), default=5, show_default=True,
              help="Polyomino parts drawn from the box.")
@click.option("--monominoes", type=click.IntRange(0, 20), default=1, show_default=True, help="Monominoes drawn.")
@click.option("--premarked", type=click.IntRange(0, 20), default=1, show_default=True,
              help="Cells premarked with the player's colour.")
@click.option("--attempts", type=click.IntRange(1, 1000), default=50, show_default=True,
              help="Puzzles drawn at most before giving up.")
@time_limit_option(60.0, "Seconds for all the draws together.")
@workers_option()
@seed_option(help="Seed of the draws: the same seed draws the same puzzles.")
@output_option("--out", "out_path", help="Write the puzzle (no placements) here (default: print it).")
@output_option("--answer", "answer_path", help="Write its unique best answer, with the result, here.")
@SVG_OPTION
def generate_command(rows: int, cols: int, parts: int, monominoes: int, premarked: int, attempts: int,
                     time_limit: float, workers: int, seed: int, out_path: str | None, answer_path: str | None,
                     svg_path: str | None) -> None:
    """Draw puzzles until one has a provably unique best answer (CP-SAT proves the answer optimal and every
    other filling worse), and write it. Exit 1 when none is found within the attempts and the time."""
    with held_stops():
        from .robofacture_generate import MIN_PLACED, generate

    if parts + monominoes < MIN_PLACED:
        raise click.UsageError(f"--parts and --monominoes give {parts + monominoes} part(s); a puzzle's answer places "
                               f"at least {MIN_PLACED}")
    room = (rows * cols + 1) // 2   # premarked cells stand apart, as on a checkerboard's dark squares at most
    if premarked > room:
        raise click.UsageError(f"--premarked {premarked}: a {rows} x {cols} space has room for {room} premarked "
                               "cells apart")
    found = generate(rows, cols, parts, monominoes, premarked, seed, attempts, time_left(time_limit), workers,
                     report=_err.dim)
    if found is None:
        _err.print(f"no puzzle with a unique best answer in {counted(attempts, 'draw')} or {time_limit:g} s: try more "
                   "attempts, fewer parts, or another seed")
        sys.exit(ILLEGAL_EXIT)
    question = json_text(found.puzzle.to_dict())
    answer = found.answer
    if not out_path:
        click.echo(question, nl=False)
    # the puzzle as a player sees it: its space and the parts at hand (QA: `--out` showed nothing of it), on
    # standard error where standard output carries the document
    shown = _out if out_path else _err
    shown.print(terminal_picture(found.puzzle.space, check(found.puzzle).filling), soft_wrap=True)
    shown.print(terminal_key(found.puzzle.space, None, ()), style="dim")
    shown.print("parts: " + ", ".join(f"{k} {part.label()}" for k, part in enumerate(found.puzzle.parts)))
    if out_path:   # (after what is printed, as every command writes its files: QA, `--out /dev/stdout`)
        _write(out_path, question)
    if answer_path:
        _write(answer_path, json_text(answer.puzzle.to_dict() | {"result": answer.to_dict()}))
    verdict = check(answer.puzzle)
    _err.print(f"draw {found.attempts}, {found.seconds:.1f}s: the best answer scores {answer.shipment.score} with "
               f"{len(answer.puzzle.placed)} of {len(found.puzzle.parts)} parts, and no other filling is as good "
               "(proved)")
    if svg_path:
        _write(svg_path, svg_picture(answer.puzzle.space, verdict.filling, answer.shipment, "the unique best answer"))
