"""`factoryfun puzzle`: Factory Fun puzzles with a provably unique best factory (generate, carve, solve, check),
thin over models/puzzle.py and solver/puzzle.py.

Loaded when named (cli.py's LAZY), like `solve`, with CP-SAT and the solver (see the imports). Exit codes follow
`check` and `solve`: 0 answered / legal, 1 no answer / illegal or not the puzzle's machines, 2 unreadable input.
"""
from __future__ import annotations

import random
import sys
from dataclasses import replace
from typing import Any

import click

from models.catalog import load_catalog
from models.check import CheckResult, check_layout
from models.clickopts import (CATALOG_OPTION, RULESET_OPTION, CheckedGroup, json_option, output_option,
                              seed_option, time_limit_option, workers_option)
from models.clock import time_left
from models.jsonio import json_text, read_json, write_and_say
from models.layout import Layout, parse_layout, refuse_game, require_game_of
from models.puzzle import MAX_MACHINES, NONE_OTHER, FactoryPuzzle, Second, load_puzzle
from models.rulesets import get_ruleset
from models.render.tables import machine_table, violation_table
from models.terminal import Terminal
from models.wording import TILE_NAMES, counted, violations_of_rules

# CP-SAT and the solver load with this module, while cli.py holds a stop until the imports end (models/stopping.py);
# loaded inside a command, a Ctrl-C raised in CP-SAT's or pandas's compiled start-up could end in a traceback
from .command import INTERRUPTED_NOTE, ProgressLines, result_document
from .puzzle import GIVEN_KINDS, MOST_GIVEN, RunnerUp, another_as_good, carve, generate, most_pillars, runner_up
from .static import FIXED_UNKEEPABLE, StaticResult, solve_static

_out = Terminal()
_err = Terminal(stderr=True)
NOT_SOLVED_EXIT = 1
#: puzzle boards stay small: a player solves them by hand, and uniqueness is proved on them in seconds
MAX_SIDE = 10

PUZZLE_ARGUMENT = click.argument("puzzle_path", type=click.Path(dir_okay=False))


@click.group(cls=CheckedGroup)
def puzzle() -> None:
    """Factory Fun puzzles: a small board and the machines to place, with exactly one best factory. Generate
    them, solve them (and prove the answer the only one), or check a player's answer."""


def _write(path: str, text: str) -> None:
    write_and_say(path, text, _err.print)


def _question(puzzle_: FactoryPuzzle, claimed: bool = False) -> str:
    """The puzzle in a sentence: what to place, and what the best scores if the puzzle says; `claimed` where the
    command goes on to prove it, which words it as the file's claim (QA pass 54: `puzzle solve` opened with the
    answer as if it knew it)."""
    kept = f", keeping its {counted(len(puzzle_.given), 'given tile')}" if puzzle_.given else ""
    ask = f"place {', '.join(puzzle_.machines)} on {puzzle_.board.id}{kept}"
    if puzzle_.best is None:
        return ask
    only = {True: ", and only one layout does", False: " (more than one layout does)", None: ""}[puzzle_.unique]
    seconds = ([f"the runner-up: {_claim_words(puzzle_.runner_up, 'none exists')}"]
               if puzzle_.runner_up is not None else []) + (
        [f"the machines placed otherwise: {_claim_words(puzzle_.rival, 'no other placement is legal', ' at best')}"]
        if puzzle_.rival is not None else [])
    second = f" ({'; '.join(seconds)})" if seconds else ""
    said = "; the file says" if claimed else ":"
    return f"{ask}{said} the best factory scores {puzzle_.best}{only}{second}"


def _claim_words(claim: Second, none: str, after_score: str = "") -> str:
    """A runner-up's or rival's claim in the question's words: its score, or `none` where it does not exist."""
    return none if claim == NONE_OTHER else f"{claim}{after_score}"


def _show_puzzle(puzzle_: FactoryPuzzle, terminal: Terminal) -> None:
    from models.render.text import draw_board, print_layout

    if puzzle_.given:   # (the tiles printed on the board are part of the question)
        print_layout(terminal, puzzle_.given_layout)
    else:
        terminal.print(draw_board(puzzle_.board, puzzle_.ruleset.all_colors), soft_wrap=True)
    terminal.print(machine_table((puzzle_.catalog[m] for m in puzzle_.machines), "the machines to place",
                                 puzzle_.ruleset.geometry))
    terminal.print(_question(puzzle_))


def _puzzle_svg(puzzle_: FactoryPuzzle) -> str:
    """The board titled with the question, and below it the machines to place, unturned, beside the legend."""
    from models.render.scene import tray_layout
    from models.render.svg import board_svg, layout_svg, stacked_svg, tray_svg

    tray = tray_layout(puzzle_.ruleset, puzzle_.catalog, puzzle_.machines)
    title = f"Puzzle: {_question(puzzle_)}"
    board = (layout_svg(puzzle_.given_layout, title=title, legend=False) if puzzle_.given
             else board_svg(puzzle_.board, puzzle_.ruleset.all_colors, title, legend=False))
    return stacked_svg([board, tray_svg(tray, "The machines to place (turn them as you like)")])


MOST_GIVEN_OPTION = click.option(
    "--most-given", type=click.IntRange(0, MAX_SIDE * MAX_SIDE), default=MOST_GIVEN, show_default=True,
    help="Tiles of the answer printed on the board at most, where a layout as good uses only the answer's cells "
         "(0: pillars only).")


def _published_options(command):
    """--out, --answer, --svg and --json of the commands that make a puzzle (`_publish` writes them)."""
    for option in reversed((
            output_option("--out", "out_path", help="Write the puzzle file here (default: print it)."),
            output_option("--answer", "answer_path", help="Write its unique best layout, with the result, here."),
            output_option("--svg", "svg_path", help="Write the puzzle as SVG: the board titled with the question, "
                          "then the machines."),
            json_option("Print the puzzle file on standard output (as without --out), the drawings on standard "
                        "error."))):
        command = option(command)
    return command


@puzzle.command("generate")
@RULESET_OPTION
@CATALOG_OPTION
@click.option("--rows", type=click.IntRange(3, MAX_SIDE), default=5, show_default=True, help="Rows of the board.")
@click.option("--cols", type=click.IntRange(3, MAX_SIDE), default=5, show_default=True, help="Columns of the board.")
@click.option("--machines", "machine_count", type=click.IntRange(1, MAX_MACHINES), default=3, show_default=True,
              help="Machines drawn from the catalogue.")
@click.option("--pillars", type=click.IntRange(0, MAX_SIDE * MAX_SIDE), default=2, show_default=True,
              help="Pillars drawn before carving (carving adds more where a second best layout needs them gone).")
@click.option("--attempts", type=click.IntRange(1, 1000), default=30, show_default=True,
              help="Puzzles drawn at most before giving up.")
@time_limit_option(120.0, "Seconds for all the draws together.")
@workers_option()
@seed_option(help="Seed of the draws: the same seed draws the same machines and first pillars.")
@MOST_GIVEN_OPTION
@_published_options
def generate_command(ruleset_id: str, catalog_path: str | None, rows: int, cols: int, machine_count: int,
                     pillars: int, attempts: int, time_limit: float, workers: int, seed: int, most_given: int,
                     out_path: str | None, answer_path: str | None, svg_path: str | None, as_json: bool) -> None:
    """Draw boards and machines until the best factory is proved optimal and, with pillars carved where other
    layouts as good stood, the only one; write the puzzle. Exit 1 when none is found in the attempts and time."""
    if 2 * machine_count > rows * cols:   # (QA: blamed "--pillars 0" for a board too small without any)
        raise click.UsageError(f"--machines {machine_count}: a {rows} x {cols} board has no room for {machine_count} "
                               "machines; give fewer machines or a bigger board")
    if pillars > rows * cols - 2 * machine_count:
        raise click.UsageError(f"--pillars {pillars} leaves a {rows} x {cols} board no room for {machine_count} "
                               "machines")
    try:
        ruleset = get_ruleset(ruleset_id)
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0]), param_hint="'--ruleset'") from None
    catalog = load_catalog(ruleset, catalog_path)
    if machine_count > len(catalog.machines):
        raise click.UsageError(f"--machines {machine_count}: the catalogue has {len(catalog.machines)}")
    found = generate(ruleset, catalog, rows, cols, machine_count, pillars, seed, attempts, time_left(time_limit),
                     workers, most_given=most_given, report=_err.dim)
    if found is None:
        _err.print(f"no puzzle with a unique best factory in {counted(attempts, 'draw')} or {time_limit:g} s: try more "
                   "time or attempts, fewer machines, a smaller board, or another seed")
        sys.exit(NOT_SOLVED_EXIT)
    given = f", {counted(found.given, 'tile')} given" if found.given else ""
    _publish(found.puzzle, found.answer, found.seconds, f"draw {found.attempts}, {found.seconds:.1f}s, "
             f"{counted(found.carved, 'pillar')} carved{given}", out_path, answer_path, svg_path, as_json)


def _publish(puzzle_: FactoryPuzzle, answer: Layout, seconds: float, how: str, out_path: str | None,
             answer_path: str | None, svg_path: str | None, as_json: bool) -> None:
    """A puzzle proved to have one best layout: written (or printed), shown, its answer and picture written."""
    text = json_text(puzzle_.to_dict())
    printed = as_json or not out_path
    if printed:
        click.echo(text, nl=False)
    _show_puzzle(puzzle_, _err if printed else _out)
    _err.print(f"{how}: the best layout scores {puzzle_.best}, and every other layout scores less (proved)")
    if out_path:   # (the files after what is printed, as every command writes them: QA, `--out /dev/stdout`)
        _write(out_path, text)
    if answer_path:
        proved = StaticResult("OPTIMAL", answer, puzzle_.best, puzzle_.best, 0.0, seconds, 0.0, None, None,
                              check=check_layout(answer))
        _write(answer_path, json_text(_answer_document(proved, True, puzzle_.runner_up, puzzle_.rival)))
    if svg_path:
        _write(svg_path, _puzzle_svg(puzzle_))


def _answer_document(result: StaticResult, unique: bool | None, runner_up: Second,
                     rival: Second) -> dict[str, Any]:
    """The answer as `solve --out` writes a layout (`result_document`, FORMATS.md), its result saying whether it
    is the only best and what the runner-up and the rival score."""
    document = result_document(result)
    document["result"].update(unique=unique, runner_up=runner_up, rival=rival)
    return document


@puzzle.command("solve")
@PUZZLE_ARGUMENT
@CATALOG_OPTION
@time_limit_option(60.0, "Seconds for the best layout and the uniqueness proof together.")
@workers_option()
@seed_option()
@output_option("--out", "out_path", help="Write the best layout, with its result, here.")
@output_option("--svg", "svg_path", help="Write the best layout as SVG.")
@json_option('Print the best layout with its result ("unique": true, false or null when not settled).')
def solve_command(puzzle_path: str, catalog_path: str | None, time_limit: float, workers: int, seed: int,
                  out_path: str | None, svg_path: str | None, as_json: bool) -> None:
    """Find the puzzle's best factory, then prove whether it is the only one (another as good is drawn).
    Exit 1 when no layout is found."""
    question = load_puzzle(puzzle_path, catalog_path)
    result = _best(question, puzzle_path, time_limit, workers, seed)
    asked = None
    if result.status == "OPTIMAL" and not result.interrupted and time_left(time_limit) > 0:
        asked = another_as_good(question.ruleset, question.board, question.catalog, question.machines,
                                result.layout, result.objective, time_left(time_limit), workers, seed, question.given)
    unique = None if asked is None else asked.unique
    second = rival = None
    if unique and asked.stop_signal is None:
        second = _next_best(question, result, time_limit, workers, seed, placed_otherwise=False)
    if second is not None and second.stop_signal is None:
        rival = _next_best(question, result, time_limit, workers, seed, placed_otherwise=True)
    # a stop in any step, not only the first search (QA: Ctrl-C while uniqueness was being proved said "give more
    # time" and wrote a result with no word of it)
    interrupted = result.interrupted or any(step is not None and step.stop_signal is not None
                                            for step in (asked, second, rival))
    document = _answer_document(result, unique, _claim(second), _claim(rival))
    if interrupted:
        document["result"]["interrupted"] = True
    if as_json:
        click.echo(json_text(document), nl=False)
        if interrupted:
            _err.print(INTERRUPTED_NOTE.format(what="answer"))
        for wrong in _wrong_claims(question, result, asked, second, rival):   # (QA: said nowhere with --json)
            _err.print(wrong)
    else:
        _report_solved(question, result, asked, second, rival, interrupted)
    if out_path:
        _write(out_path, json_text(document))
    if svg_path:
        from models.render.svg import layout_svg

        _write(svg_path, layout_svg(result.layout, title=f"{question.board.id}: the best factory scores "
                                    f"{result.objective} ({_uniqueness_words(result.status, unique)})"))


def _best(question: FactoryPuzzle, puzzle_path: str, time_limit: float, workers: int, seed: int):
    """The puzzle's best layout by `solve`'s search, with its progress lines; exit 1 when there is none."""
    _err.print(f"solving {puzzle_path}: {_question(question, claimed=True)}")
    with ProgressLines(_err.dim) as progress:
        result = solve_static(question.ruleset, question.board, question.catalog, list(question.machines),
                              time_limit=time_left(time_limit), workers=workers, seed=seed, progress=progress,
                              fixed=question.given_layout if question.given else None)
    if result.layout is None:   # (QA: "the fixed layout", solve's word for what a puzzle gives)
        _err.print(f"no layout ({result.status}): "
                   f"{(result.explanation or '').replace(FIXED_UNKEEPABLE, 'the given tiles cannot be kept')}")
        sys.exit(NOT_SOLVED_EXIT)
    return result


def _flowing_tanks(question: FactoryPuzzle) -> bool:
    """Whether the puzzle gives a container or an output reservoir: the model makes a fixed one carry flow, which a
    legal layout may not, so it may miss layouts and then proves neither the best nor its uniqueness."""
    return any(tile.kind not in GIVEN_KINDS for tile in question.given)


#: what the commands say when the model may miss layouts for a given tank (`_flowing_tanks`)
FLOWING_TANKS = ("the puzzle gives a container or an output reservoir, which the model makes carry flow, so it "
                 "may miss layouts: more time does not help")


@puzzle.command("carve")
@PUZZLE_ARGUMENT
@CATALOG_OPTION
@click.option("--most", type=click.IntRange(0, MAX_SIDE * MAX_SIDE), default=None,
              help="Pillars added at most (default: a quarter of the board's cells).")
@time_limit_option(120.0, "Seconds for the best layout and the carving together.")
@workers_option()
@seed_option(help="Seed of the search, and of the choice among the cells a pillar could take.")
@MOST_GIVEN_OPTION
@_published_options
def carve_command(puzzle_path: str, catalog_path: str | None, most: int | None, time_limit: float, workers: int,
                  seed: int, most_given: int, out_path: str | None, svg_path: str | None, answer_path: str | None,
                  as_json: bool) -> None:
    """Make a hand-made puzzle's best factory the only one: solve it, then add pillars where other layouts as
    good stand and the best does not, until no other is as good (proved). Exit 1 when that fails (the best
    not proved, or a layout as good on the best's own cells), with the layout that stands in the way drawn."""
    question = load_puzzle(puzzle_path, catalog_path)
    result = _best(question, puzzle_path, time_limit, workers, seed)
    if result.status != "OPTIMAL":
        _err.print(f"the best layout found ({result.objective}) is not proved the best: "
                   + (FLOWING_TANKS if _flowing_tanks(question) else "give more time"))
        sys.exit(NOT_SOLVED_EXIT)
    carved = carve(random.Random(seed), replace(question, best=result.objective), result.layout,
                   time_left(time_limit), workers, seed, most_pillars(question.board) if most is None else most,
                   most_given)
    if not carved.unique:
        _err.print(f"not carved: {carved.why_not}")
        if carved.other is not None:
            from models.render.text import print_layout

            _out.print(f"the best ({result.objective}):")
            print_layout(_out, carved.answer)
            _out.print("as good, and in the way:")
            print_layout(_out, carved.other)
        sys.exit(NOT_SOLVED_EXIT)
    added = sorted(carved.puzzle.board.pillars - question.board.pillars)
    given = sorted({tile.cell for tile in carved.puzzle.given} - {tile.cell for tile in question.given})
    printed = f", tiles given at {' '.join(str(list(c)) for c in given)}" if given else ""
    _publish(carved.puzzle, carved.answer, result.seconds, f"{counted(len(added), 'pillar')} added "
             f"({' '.join(str(list(c)) for c in added) or 'none needed'}){printed}", out_path, answer_path, svg_path,
             as_json)


def _uniqueness_words(status: str, unique: bool | None) -> str:
    if status != "OPTIMAL":
        return f"{status}: not proved the best"
    return {True: "proved the only best", False: "another is as good", None: "not proved the only one"}[unique]


def _report_solved(question: FactoryPuzzle, result, asked, second, rival, interrupted: bool) -> None:
    from models.render.text import print_layout

    print_layout(_out, result.layout)
    bound = "" if result.status == "OPTIMAL" else f", bound {result.bound:.0f}"
    if result.status != "OPTIMAL" and _flowing_tanks(question):
        _out.print(f"not proved the best: {FLOWING_TANKS}")
    stopped = ", interrupted" if interrupted else ""
    _out.print(f"the best factory scores {result.objective} ({result.status}{bound}, {result.seconds:.1f}s{stopped}): "
               f"{_uniqueness_words(result.status, None if asked is None else asked.unique)}")
    if asked is not None and asked.other is not None:
        _out.print(f"another layout scoring {result.objective} ({asked.seconds:.1f}s): the puzzle has more than one "
                   "answer")
        print_layout(_out, asked.other)
    elif asked is not None and asked.verdict == "unknown":
        _out.print(f"whether another layout is as good was not settled in {asked.seconds:.1f}s: "
                   + ("interrupted" if asked.stop_signal is not None
                      else FLOWING_TANKS if _flowing_tanks(question) else "give more time"))
    for found, what, none in ((second, "the runner-up (the best other layout)", "no other layout is legal"),
                              (rival, "the rival (the best layout placing some machine otherwise)",
                               "no other placement of the machines makes a legal layout")):
        if found is not None and found.score is not None:
            sure = ("proved" if found.proved else "interrupted, not proved" if found.stop_signal is not None
                    else "the best found in the time, not proved")
            _out.print(f"{what} scores {found.score}, {result.objective - found.score} less ({sure}, "
                       f"{found.seconds:.1f}s)")
        elif found is not None and found.proved:
            _out.print(f"{none} ({found.seconds:.1f}s)")
    for wrong in _wrong_claims(question, result, asked, second, rival):
        _out.print(wrong)


def _next_best(question: FactoryPuzzle, result: StaticResult, time_limit: float, workers: int, seed: int,
               placed_otherwise: bool) -> RunnerUp | None:
    """The runner-up (`placed_otherwise`: the rival) of the proved-unique best, in the time left (None: none)."""
    if time_left(time_limit) <= 0:
        return None
    return runner_up(question.ruleset, question.board, question.catalog, question.machines, result.layout,
                     time_left(time_limit), workers, seed, question.given, placed_otherwise)


def _claim(found: RunnerUp | None) -> Second:
    """What a runner-up or rival proved makes a puzzle claim: its score, or NONE_OTHER (None: not asked, or not
    proved)."""
    return None if found is None else found.claim


def _wrong_claims(question: FactoryPuzzle, result, asked, second, rival) -> list[str]:
    """The puzzle's claims (best, unique, runner-up, rival) that what `solve` proved contradicts, each in a line
    (QA: a wrong `best` was said, a wrong `unique` or `runner_up` echoed and passed over)."""
    proved = {"best": result.objective if result.status == "OPTIMAL" else None,
              "unique": None if asked is None or asked.verdict == "unknown" else asked.unique,
              "runner-up": _claim(second), "rival": _claim(rival)}
    claimed = {"best": question.best, "unique": question.unique, "runner-up": question.runner_up,
               "rival": question.rival}

    def said(key: str, value: object) -> str:
        if value == NONE_OTHER:
            return f"it has no {key}"
        if key != "unique":
            return f"its {key} scores {value}"
        return "its best is the only one" if value else "more than one layout scores its best"

    return [f"the puzzle says {said(key, claimed[key])}; proved here: {said(key, proved[key])}"
            for key in claimed if claimed[key] is not None and proved[key] is not None and claimed[key] != proved[key]]


def _puzzle_violations(question: FactoryPuzzle, answer: Layout) -> list[str]:
    """What makes a legal layout no answer to this puzzle: machines it leaves out or adds, given tiles it moves."""
    placed = set(answer.machine_ids)
    lost = [tile for tile in question.given if tile not in answer.tiles]
    missing = [m for m in question.machines if m not in placed]
    extra = [m for m in answer.machine_ids if m not in question.machines]
    diagonal = answer.options.get("diagonal_intersection")
    return ([f"leaves out {', '.join(missing)} (an answer places every machine of the puzzle)"] if missing else []) \
        + ([f"places {', '.join(extra)}, not one of the puzzle's machines"] if extra else []) \
        + (["plays with the diagonal intersection tile, which puzzles leave out"] if diagonal else []) \
        + ([f"moves or leaves out the puzzle's given {TILE_NAMES.get(lost[0].kind, lost[0].kind)} at "
            f"{list(lost[0].cell)}"
            + (f" (and {len(lost) - 1} more)" if len(lost) > 1 else "")] if lost else [])


@puzzle.command("check")
@PUZZLE_ARGUMENT
@click.argument("answer_path", type=click.Path(dir_okay=False))
@CATALOG_OPTION
@output_option("--svg", "svg_path", help="Write the answer as SVG, broken rules outlined.")
@json_option('Print {"legal", "violations", "puzzle_violations", "score", "best", "share", "solved"}.')
def check_command(puzzle_path: str, answer_path: str, catalog_path: str | None, svg_path: str | None,
                  as_json: bool) -> None:
    """Check a player's answer: legal, the puzzle's machines, and its score against the puzzle's best.
    Exit 0 for a legal answer (the best or not), 1 for an illegal one, one with other machines or a given tile
    moved."""
    question = load_puzzle(puzzle_path, catalog_path)
    document = read_json(answer_path)
    refuse_game(document, answer_path, "a puzzle's answer")
    require_game_of(document, answer_path, "answer", question.ruleset.id, question.board.id)
    answer = parse_layout(document, answer_path, catalog_path, puzzle_path)
    judged = check_layout(answer)
    wrong = _puzzle_violations(question, answer)
    score = judged.score.total
    counts = judged.legal and not wrong
    share = round(score / question.best, 4) if counts and question.best else None
    solved = counts and question.best is not None and score >= question.best
    if as_json:
        click.echo(json_text({"legal": judged.legal, "violations": [v.to_dict() for v in judged.violations],
                              "puzzle_violations": wrong, "score": score, "best": question.best, "share": share,
                              "solved": solved}), nl=False)
    else:
        _report_checked(question, answer, judged, wrong, share, solved)
    if svg_path:
        from models.render.svg import layout_svg

        cells = sorted({cell for v in judged.violations for cell in v.cells})
        _write(svg_path, layout_svg(answer, f"{answer_path}: {_verdict(question, judged, wrong, share, solved)}",
                                    cells))
    sys.exit(0 if counts else NOT_SOLVED_EXIT)


def _verdict(question: FactoryPuzzle, judged: CheckResult, wrong: list[str], share: float | None,
             solved: bool) -> str:
    score = judged.score.total
    faults = ([f"illegal: {violations_of_rules(judged.violations)}"] if judged.violations else []) + (
        ["not an answer: " + "; ".join(wrong)] if wrong else [])
    if faults:   # (QA: an illegal answer that also left a machine out named only the rules)
        return "; ".join(faults)
    if solved and score > question.best:   # (QA: "solved: 4, the best" where the puzzle claimed 3)
        return (f"solved: {score}, more than the puzzle's best of {question.best}: its claim is wrong "
                "(`factoryfun puzzle solve` proves the best)")
    if solved:
        return (f"solved: {score}, the best" + (", and the only layout that scores it" if question.unique else ""))
    if question.best is None:
        return f"scores {score} (the puzzle names no best: `factoryfun puzzle solve` finds it)"
    shown = f"scores {score} of the best {question.best}: {share:.0%}" if share is not None else f"scores {score}"
    if question.runner_up is not None and score == question.runner_up:
        return f"{shown}, the runner-up: only the answer scores more"
    # a legal answer under the best is another layout: the runner-up exists and scores at least as much (QA: a
    # claimed "none" or a lower runner-up passed over)
    if question.runner_up == NONE_OTHER or (isinstance(question.runner_up, int) and score > question.runner_up):
        claim = ("no other layout is legal" if question.runner_up == NONE_OTHER
                 else f"its runner-up scores {question.runner_up}")
        # either claim may be the wrong one: this answer under the best is a runner-up, or the best is lower
        # (QA: a best of 10^12 read "its runner-up ... claim is wrong")
        return (f"{shown}; the puzzle says its best scores {question.best} and {claim}: this answer proves one "
                "of the two wrong (`factoryfun puzzle solve` proves both)")
    return shown


def _report_checked(question: FactoryPuzzle, answer: Layout, judged: CheckResult, wrong: list[str],
                    share: float | None, solved: bool) -> None:
    from models.render.text import print_layout

    print_layout(_out, answer, sorted({cell for v in judged.violations for cell in v.cells}))
    if judged.violations:
        _out.print(violation_table(judged.violations, violations_of_rules(judged.violations)))
    _out.print(_verdict(question, judged, wrong, share, solved))

