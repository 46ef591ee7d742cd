"""Factory Fun puzzles with a provably unique best answer: the uniqueness question, and drawing puzzles.

*Is this best layout the only one?* The full static model (solver/model.py, limits hard) with the score held at
the best and this very layout forbidden (one clause over every machine placement and tile literal): a solution is
another layout as good, which the rule checker then judges like every solver answer; INFEASIBLE proves that no
other layout the model holds scores as much, and the layouts it cannot hold (the answer's pipes swapped for tanks,
`tank_for_pipe`) are then tried with the checker. A layout with a stray tile scores less, so "another" is never
the same factory with junk. The runner-up is the same model maximised.

*Generating* draws a board (rows x cols, a few pillars) and machines, solves it (`solve_static`, proved
optimal or thrown back), then carves: while another layout is as good, a pillar goes on a cell that layout uses
and the answer does not. A pillar only takes layouts away, so the answer stays legal and optimal on the
smaller board, and the other layout is gone. When an equally good layout uses only the answer's cells (a
container moved along its pipe, a machine turned in place: no pillar can part them), the puzzle prints one of
the answer's tiles where the two differ instead (a given tile, which every answer keeps: it takes that layout
away in the same way). The loop ends with the answer proved unique, or gives the draw up when the pillars or
the given tiles run out. Once unique, each carved pillar and each given tile is taken out again if the answer
stays the only best without it, so every clue left is needed. Measured: results/puzzle.md.

The given tiles are fixed in the model, which lets pipes close on themselves away from every port (they only
cost, so no optimum holds them): a model layout that strands a given pipe that way is no layout of the puzzle,
and is cut away (`_forbid_strays`) before the model's answer is believed.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable

import networkx as nx

from ortools.sat.python import cp_model

from models.board import Board
from models.catalog import Catalog
from models.check import check_layout
from models.clock import draw_budgets
from models.geometry import Cell
from models.layout import Layout, Tile
from models.puzzle import NONE_OTHER, FactoryPuzzle, Second
from models.rulesets import Ruleset
from models.wording import up_to_seconds

from .extract import layout_from_values, prune
from .model import StaticModel, build_static_model, fix_to_layout, layout_literals
from .search import pass_on, solve_interruptibly
from .static import solve_static

#: carving adds at most one pillar per PILLAR_SHARE cells of the board (beyond, the board is more pillar than floor)
PILLAR_SHARE = 4
#: machine sets drawn at most for one whose machines feed one another (`linked`); the last is kept regardless
LINK_TRIES = 100
#: seconds the runner-up of a generated puzzle may take at most (proved in about half a second on 5 x 5 boards)
RUNNER_UP_SECONDS = 10.0
#: ... and its rival: the five the benchmark left unproved (in a draw's last second) were proved in 0.2-26 s alone
RIVAL_SECONDS = 30.0
#: carving prints at most this many of the answer's tiles on the board (a puzzle of given tiles is a half-solved one)
MOST_GIVEN = 5


class PuzzleDisagreement(AssertionError):
    """The model called a layout as good as the answer and the checker does not: a bug in one of them."""


@dataclass(frozen=True)
class Uniqueness:
    verdict: str                  # "unique" (proved), "another" (one is as good), "unknown" (time ran out)
    other: Layout | None          # the other layout as good, when there is one
    seconds: float
    stop_signal: int | None = None

    @property
    def unique(self) -> bool | None:
        """True (proved the only best), False (another is as good) or None (not settled)."""
        return {"unique": True, "another": False}.get(self.verdict)


def _without_answer(ruleset: Ruleset, board: Board, catalog: Catalog, machines: tuple[str, ...] | list[str],
                    answer: Layout, given: tuple[Tile, ...], placed_otherwise: bool = False) -> tuple[StaticModel, bool]:
    """The full static model (limits hard) of `machines` on `board`, the `given` tiles kept, with `answer` itself
    forbidden: one clause over every machine placement and tile literal, so any other layout, however slightly
    different, stays (`placed_otherwise`: one clause over the answer's machine placements, so only layouts that
    place some machine elsewhere or turned stay); and whether it holds every legal layout keeping the given tiles
    (not when a given tank must carry flow in the model though a legal layout may leave it idle: `fix_to_layout`)."""
    built = build_static_model(ruleset, board, catalog, list(machines))
    exact = fix_to_layout(built, answer.with_parts(machines=(), tiles=given), complete=False)
    ones, rest = layout_literals(built.vars, answer.with_parts(tiles=()) if placed_otherwise else answer)
    built.model.AddBoolOr([literal.Not() for literal in ones] + ([] if placed_otherwise else rest))
    return built, exact


def _solve_without_strays(built: StaticModel, deadline: float, workers: int,
                          seed: int) -> tuple[cp_model.CpSolver, str, int | None, Layout | None]:
    """Solve `built` until its answer has no stray part (`_forbid_strays` cuts each one it finds away); the
    solver, its status, the stop signal, and the model's layout when it found one."""
    while True:
        solver, name, stopped = solve_interruptibly(built.model, max(deadline - time.monotonic(), 0.01), workers,
                                                    seed)
        found = layout_from_values(built.vars, solver.Value, False) if name in ("OPTIMAL", "FEASIBLE") else None
        if found is None or not _forbid_strays(built, found):
            return solver, name, stopped, found


def _judged_other(other: Layout, score: int) -> Layout:
    """The model's layout, which the checker must call legal and score at least `score` (the judge)."""
    judged = check_layout(other)
    if not judged.legal or judged.score.total < score:
        raise PuzzleDisagreement(f"the model found another layout scoring {score}, the checker says "
                                 f"{'legal' if judged.legal else 'illegal'}, {judged.score.total}")
    return other


def tank_for_pipe(answer: Layout, best: int, given: tuple[Tile, ...] = ()) -> Layout | None:
    """A legal layout scoring `best` or more that is `answer` with one pipe swapped for a tank, or None.

    The model routes nothing through a tank (README, rules decisions: an output reservoir passing a product on
    is legal, and so is a second supply container where the stock allows one), so it cannot see these layouts,
    though they cost the same as the pipe. Every other layout as good is in the model: a legal layout with such
    tanks, each swapped back for a pipe of the sides it connects, is legal, as good, and tank-free. So when the
    model finds no other layout, the only rivals left are the answer's own pipes swapped for tanks (one swap
    is legal whenever more are: each is legal alone, and the stock binds only harder with more). Hex tanks
    open on one side and pass nothing on."""
    if answer.ruleset.oriented_tanks:
        return None
    pipes_at = Counter(tile.cell for tile in answer.tiles if tile.kind == "pipe")
    for i, tile in enumerate(answer.tiles):
        if tile.kind != "pipe" or pipes_at[tile.cell] != 1 or tile in given:   # (two pipes in a cell: a tank
            continue                                                            # would join them; a given one stays)
        for tank in [Tile("output", tile.cell)] + [Tile("supply", tile.cell, color=c) for c in answer.ruleset.colors]:
            variant = answer.with_parts(tiles=answer.tiles[:i] + (tank,) + answer.tiles[i + 1:])
            judged = check_layout(variant)
            if judged.legal and judged.score.total >= best:
                return variant
    return None


def another_as_good(ruleset: Ruleset, board: Board, catalog: Catalog, machines: tuple[str, ...] | list[str],
                    answer: Layout, best: int, time_limit: float, workers: int = 2, seed: int = 0,
                    given: tuple[Tile, ...] = ()) -> Uniqueness:
    """Whether a legal layout other than `answer`, placing every one of `machines` and keeping the `given`
    tiles, scores `best` or more: the model's answer, then the layouts it cannot hold (`tank_for_pipe`)."""
    start = time.monotonic()
    built, exact = _without_answer(ruleset, board, catalog, machines, answer, given)
    built.model.Add(built.score >= best)
    built.model.ClearObjective()
    _, name, stopped, found = _solve_without_strays(built, start + time_limit, workers, seed)
    seconds = time.monotonic() - start
    if found is not None:
        return Uniqueness("another", _judged_other(found, best), seconds, stopped)
    if name != "INFEASIBLE" or not exact:   # (a model short of some legal layouts proves nothing by finding none)
        return Uniqueness("unknown", None, seconds, stopped)
    swapped = tank_for_pipe(answer, best, given)
    return Uniqueness("unique" if swapped is None else "another", swapped, time.monotonic() - start, stopped)


@dataclass(frozen=True)
class RunnerUp:
    score: int | None             # what the best layout other than the answer scores (None: none found)
    proved: bool                  # no layout but the answer scores more than `score` (or: none at all)
    layout: Layout | None
    seconds: float
    stop_signal: int | None = None

    @property
    def claim(self) -> Second:
        """What a puzzle may claim of it: the proved score, NONE_OTHER when no such layout was proved to exist
        (a puzzle file could not tell that from not known), else None."""
        if not self.proved:
            return None
        return NONE_OTHER if self.score is None else self.score


def runner_up(ruleset: Ruleset, board: Board, catalog: Catalog, machines: tuple[str, ...] | list[str],
              answer: Layout, time_limit: float, workers: int = 2, seed: int = 0,
              given: tuple[Tile, ...] = (), placed_otherwise: bool = False) -> RunnerUp:
    """The best legal layout other than `answer`: how close a player can come without finding it (a runner-up
    one point short is a near miss that feels like the answer; one far short, a puzzle with one clear idea).

    A runner-up one point short is usually at hand, the answer with an output reservoir more, so
    `placed_otherwise` asks for the **rival** instead: the best layout that places some machine elsewhere or
    turned, the best factory of another idea (exact for the same reason as the uniqueness question: a layout
    the model cannot hold, a pipe swapped for a tank, scores what its pipe version scores)."""
    start = time.monotonic()
    built, exact = _without_answer(ruleset, board, catalog, machines, answer, given, placed_otherwise)
    solver, name, stopped, found = _solve_without_strays(built, start + time_limit, workers, seed)
    seconds = time.monotonic() - start
    proved = exact and stopped is None
    if found is None:
        return RunnerUp(None, name == "INFEASIBLE" and proved, None, seconds, stopped)
    other = _judged_other(found, round(solver.ObjectiveValue()))
    if placed_otherwise and set(other.machines) == set(answer.machines):
        raise PuzzleDisagreement("the model's rival places every machine as the answer does")
    return RunnerUp(check_layout(other).score.total, name == "OPTIMAL" and proved, other, seconds, stopped)


def _forbid_strays(built: StaticModel, layout: Layout) -> bool:
    """Whether the model's `layout` has tiles in no network with a machine port, which it then forbids together.

    The model lets pipes close on themselves away from every port: they only cost, so no optimum holds them,
    but with the answer forbidden, the answer plus a ring of four pipes is "another layout" at 4 points less,
    which the stray-tile rule forbids (QA of `--fixed`: the model closed a fixed arc into a ring). Each cut
    forbids one such ring where it stood; the next solve may find another, or the true runner-up."""
    kept = prune(layout).tiles
    stray = [tile for tile in layout.tiles if tile not in kept]
    if not stray:
        return False
    ones, _ = layout_literals(built.vars, layout.with_parts(machines=(), tiles=tuple(stray)))
    built.model.AddBoolOr([literal.Not() for literal in ones])
    return True


def used_cells(layout: Layout) -> set[Cell]:
    """Every cell a machine or tile of the layout covers."""
    return set(layout.machine_cells) | set(layout.tile_cells)


@dataclass(frozen=True)
class Generated:
    puzzle: FactoryPuzzle         # the question, with its best score, unique
    answer: Layout                # its only best layout
    attempts: int                 # draws made, this one included
    carved: int                   # pillars added to part the answer from others as good
    seconds: float
    given: int = 0                # the answer's tiles printed on the board, for the same


def feeds(catalog: Catalog, maker: str, taker: str) -> bool:
    """Some product of `maker` (not an end product) is a colour an input of `taker` takes."""
    made = {colour for port in catalog[maker].outputs if not port.is_black for colour in port.colors}
    return any(made & set(port.colors) for port in catalog[taker].inputs)


def linked(catalog: Catalog, machines: tuple[str, ...]) -> bool:
    """Whether the machines are one group by what they could feed one another (in either direction)."""
    graph = nx.Graph()
    graph.add_nodes_from(machines)
    graph.add_edges_from((a, b) for a in machines for b in machines if a != b and feeds(catalog, a, b))
    return nx.is_connected(graph)


def draw(rng: random.Random, ruleset: Ruleset, catalog: Catalog, rows: int, cols: int, machines: int,
         pillars: int, name: str) -> FactoryPuzzle:
    """A random question: a rows x cols board of the ruleset's geometry with `pillars` pillars on random cells,
    and `machines` machines of the catalogue that could feed one another as one group (`linked`; drawn again up
    to LINK_TRIES times): about 40 % of random pairs feed neither way, and their puzzle would be two separate
    factories side by side, with no chain to find."""
    cells = ruleset.geometry.rectangle(rows, cols)
    placed = set(rng.sample(sorted(cells), pillars))
    board = Board(name, ruleset.geometry, frozenset(cells - placed), frozenset(), frozenset(placed), rows, cols)
    for _ in range(LINK_TRIES):
        ids = tuple(rng.sample(sorted(catalog.machines), machines))
        if linked(catalog, ids):
            break
    return FactoryPuzzle(ruleset, board, catalog, ids)


def with_pillar(board: Board, cell: Cell) -> Board:
    return replace(board, cells=board.cells - {cell}, pillars=board.pillars | {cell}, _neighbours={})


def without_pillar(board: Board, cell: Cell) -> Board:
    return replace(board, cells=board.cells | {cell}, pillars=board.pillars - {cell}, _neighbours={})


@dataclass(frozen=True)
class Carved:
    puzzle: FactoryPuzzle         # on its board with the pillars added; `unique` True when proved
    answer: Layout                # the best layout, on that board
    added: int                    # pillars added
    why_not: str = ""             # why the answer is not proved the only one, when it is not
    other: Layout | None = None   # the last layout found as good as the answer
    given: int = 0                # the answer's tiles printed on the board

    @property
    def unique(self) -> bool:
        return not self.why_not


def most_pillars(board: Board) -> int:
    """How many pillars carving may add to `board` by default."""
    return len(board.cells) // PILLAR_SHARE


#: the tiles a puzzle may give: the model holds every legal layout keeping them (a given supply container or output
#: reservoir must carry flow in the model, though a legal layout may leave it idle: `fix_to_layout`)
GIVEN_KINDS = ("pipe", "end")


def telling_cells(answer: Layout, other: Layout, given: tuple[Tile, ...] = ()) -> list[Cell]:
    """Cells where `answer` has tiles (pipes or an end-product reservoir: `GIVEN_KINDS`), not all given yet, and
    `other` has not the same ones: printing the answer's tiles there takes `other` away."""
    def tiles_at(layout: Layout) -> dict[Cell, Counter]:
        at: dict[Cell, Counter] = {}
        for tile in layout.tiles:
            at.setdefault(tile.cell, Counter())[tile] += 1
        return at

    ours, theirs = tiles_at(answer), tiles_at(other)
    return sorted(cell for cell, tiles in ours.items()
                  if tiles != theirs.get(cell) and not set(tiles) <= set(given)
                  and all(tile.kind in GIVEN_KINDS for tile in tiles))


def carve(rng: random.Random, puzzle: FactoryPuzzle, answer: Layout, time_limit: float, workers: int, seed: int,
          most: int, most_given: int = MOST_GIVEN, scores_until: float | None = None) -> Carved:
    """Pillars on cells other best layouts use, one at a time, or (where another uses only the answer's cells)
    one of the answer's tiles printed on the board, until the answer is proved the only one or that fails (see
    the module's docstring); then the runner-up's and the rival's scores (`runner_up`, `rival`) when they are
    proved in time: by `scores_until` (a monotonic instant) where that is later than `time_limit` (a generator's
    draw ends, its whole time does not: the benchmark's 6 x 6 draws left the rival a second or none)."""
    deadline = time.monotonic() + time_limit
    board, given, carved, printed = puzzle.board, puzzle.given, [], 0
    while True:
        asked = another_as_good(puzzle.ruleset, board, puzzle.catalog, puzzle.machines, answer, puzzle.best,
                                deadline - time.monotonic(), workers, seed, given)
        pass_on(asked.stop_signal)
        if asked.verdict == "unique":
            board, given = _without_spare_clues(puzzle, board, given, carved, answer, deadline, workers, seed)
            answer = replace(answer, board=board)
            until = max(deadline, scores_until or deadline)
            second, rival = (_proved_second(puzzle, board, answer, until, workers, seed, given, placed_otherwise)
                             for placed_otherwise in (False, True))
            return Carved(replace(puzzle, board=board, given=given, unique=True, runner_up=second, rival=rival),
                          answer, len(board.pillars - puzzle.board.pillars), given=len(given) - len(puzzle.given))
        here = replace(puzzle, board=board, given=given)
        if asked.other is None or time.monotonic() >= deadline:
            why = ("the time ran out before the uniqueness question was settled"
                   if time.monotonic() >= deadline - 0.5 or asked.stop_signal is not None else
                   "the model cannot settle it: the puzzle gives a container or an output reservoir, which it "
                   "makes carry flow, so it may miss layouts")
            return Carved(here, answer, len(carved), why, given=printed)
        apart = sorted(used_cells(asked.other) - used_cells(answer))
        telling = [] if apart else telling_cells(answer, asked.other, given)
        if apart and len(carved) < most:
            carved.append(rng.choice(apart))
            board = with_pillar(board, carved[-1])
            answer = replace(answer, board=board)
        elif telling and printed < most_given:
            cell = rng.choice(telling)
            given += tuple(tile for tile in answer.tiles if tile.cell == cell and tile not in given)
            printed += 1
        else:
            why = (f"another layout is as good after {most} pillars, the most allowed" if apart
                   else f"another layout is as good after {most_given} given tiles, the most allowed" if telling
                   else "another layout as good uses only the answer's cells and differs from it only in its "
                        "machines or tanks: no pillar or given tile parts them")
            return Carved(here, answer, len(carved), why, asked.other, printed)


def _proved_second(puzzle: FactoryPuzzle, board: Board, answer: Layout, deadline: float, workers: int, seed: int,
                   given: tuple[Tile, ...], placed_otherwise: bool) -> Second:
    """A carved puzzle's runner-up (`placed_otherwise`: rival) score when proved in RUNNER_UP_SECONDS
    (RIVAL_SECONDS) at most, and in the generation's time left."""
    most = RIVAL_SECONDS if placed_otherwise else RUNNER_UP_SECONDS
    second = runner_up(puzzle.ruleset, board, puzzle.catalog, puzzle.machines, answer,
                       min(most, max(deadline - time.monotonic(), 1.0)), workers, seed, given,
                       placed_otherwise)
    pass_on(second.stop_signal)
    return second.claim


def _without_spare_clues(puzzle: FactoryPuzzle, board: Board, given: tuple[Tile, ...], carved: list[Cell],
                         answer: Layout, deadline: float, workers: int, seed: int) -> tuple[Board, tuple[Tile, ...]]:
    """`board` less every carved pillar, and `given` less every tile carving printed, that the answer's
    uniqueness does not need: a clue placed against one rival layout can be spared once later clues shut that
    rival out too (an open 5 x 5 board took 6 pillars, of which 2 do it). The given tiles are tried first, in
    the order they were printed, then the pillars: a given tile tells the player part of the answer, a pillar
    does not (the other way round, the first benchmark kept 4 given tiles and no pillar on three 5 x 5 boards
    where 1-2 pillars had done). Each clue left is needed (given the others)."""
    printed = [tile for tile in given if tile not in puzzle.given]
    clues: list[tuple[Cell | None, Tile | None]] = [(None, tile) for tile in printed] + [(cell, None) for cell in carved]
    for pillar, tile in clues:
        if time.monotonic() >= deadline:
            break
        opened = board if pillar is None else without_pillar(board, pillar)
        fewer = given if tile is None else tuple(kept for kept in given if kept != tile)
        asked = another_as_good(puzzle.ruleset, opened, puzzle.catalog, puzzle.machines,
                                replace(answer, board=opened), puzzle.best, deadline - time.monotonic(), workers,
                                seed, fewer)
        pass_on(asked.stop_signal)
        if asked.verdict == "unique":
            board, given = opened, fewer
    return board, given


def generate(ruleset: Ruleset, catalog: Catalog, rows: int, cols: int, machines: int, pillars: int = 2,
             seed: int = 0, attempts: int = 30, time_limit: float = 120.0, workers: int = 2,
             most_carved: int | None = None, most_given: int = MOST_GIVEN,
             report: Callable[[str], None] = lambda _line: None) -> Generated | None:
    """The first drawn puzzle whose best layout is proved optimal and, after carving, unique; None when
    `attempts` draws or the time run out first (each draw gets what is left, at most a fifth of the limit; its
    solve at most 60 % of that, the carving the rest; a unique puzzle's runner-up and rival may take what is left
    of the whole `time_limit`). `report` hears each draw begin and, when it is dropped, why (QA: a 20 s
    generation said nothing until its end)."""
    rng = random.Random(seed)
    start = time.monotonic()
    for attempt, share in draw_budgets(time_limit, attempts):
        question = draw(rng, ruleset, catalog, rows, cols, machines, pillars, f"puzzle-{seed}")
        drawn = time.monotonic()
        report(f"draw {attempt}: {', '.join(question.machines)} ({up_to_seconds(share)}; {drawn - start:.1f}s)")
        solved = solve_static(ruleset, question.board, catalog, list(question.machines), time_limit=share * 0.6,
                              workers=workers, seed=seed)
        pass_on(solved.stop_signal)
        if solved.status != "OPTIMAL" or solved.layout is None:
            report(f"draw {attempt} dropped: no best layout proved ({solved.status})")
            continue
        carved = carve(rng, replace(question, best=solved.objective), solved.layout,
                       share - (time.monotonic() - drawn), workers, seed,
                       most_pillars(question.board) if most_carved is None else most_carved, most_given,
                       scores_until=start + time_limit)
        if carved.unique:
            return Generated(carved.puzzle, carved.answer, attempt, carved.added, time.monotonic() - start,
                             carved.given)
        report(f"draw {attempt} dropped: its best, {solved.objective}, is not proved the only one: {carved.why_not}")
    return None
