"""Robofacture puzzles with a provably unique best answer, for puzzle designers.

A puzzle is drawn at random (parts from the game's bags, weighted by how many of each the box holds; a few
premarked cells), solved, and kept only when CP-SAT proves both that its answer is optimal and that no other
filling of the space is as good (`solve_parts(..., unique=True)`). Draws whose best answer is not unique, or
that place fewer than two parts, are thrown back. The same seed draws the same puzzles.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from models.robofacture.parts import COLOURS, PLAYER_COLOURS, Part
from models.robofacture.puzzle import Puzzle, Space
from models.wording import counted, up_to_seconds

from models.clock import draw_budgets

from .robofacture import RobofactureResult, solve_parts
from .search import pass_on

#: how many of each part the box holds (the rulebook's components list); monominoes: 25 of each colour
BOX: dict[str, int] = {"M5": 6, "L5": 6, "T5": 6, "L4": 12, "T4": 12, "S4": 6, "L3": 12, "I3": 12}
#: at least this many parts in the answer, or the puzzle is too plain to pose
MIN_PLACED = 2


@dataclass(frozen=True)
class Generated:
    puzzle: Puzzle              # the question: no placements
    answer: RobofactureResult   # its unique best answer
    attempts: int
    seconds: float


def draw(rng: random.Random, rows: int, cols: int, parts: int, monominoes: int, premarked: int) -> Puzzle:
    """A random puzzle: `parts` polyominoes from the box (two different player colours each), `monominoes`
    monominoes of any colour, `premarked` cells of the player's colour, no two side by side (at most
    (rows * cols + 1) // 2)."""
    kinds = rng.choices(list(BOX), weights=list(BOX.values()), k=parts)
    drawn = [Part(kind, tuple(rng.sample(PLAYER_COLOURS, 2))) for kind in kinds]
    drawn += [Part("mono", (rng.choice(COLOURS),)) for _ in range(monominoes)]
    return Puzzle(Space(rows, cols, rng.choice(PLAYER_COLOURS), _apart(rng, rows, cols, premarked)), tuple(drawn))


def _apart(rng: random.Random, rows: int, cols: int, count: int) -> frozenset:
    """`count` random cells, no two side by side (as printed spaces have them): random picks while they fit,
    else a sample of the checkerboard's (rows * cols + 1) // 2 even squares, which always holds that many."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    marked: set = set()
    for r, c in rng.sample(cells, len(cells)):
        if len(marked) < count and not marked & {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)}:
            marked.add((r, c))
    if len(marked) < count:
        marked = set(rng.sample([cell for cell in cells if sum(cell) % 2 == 0], count))
    return frozenset(marked)


def generate(rows: int, cols: int, parts: int, monominoes: int = 1, premarked: int = 1, seed: int = 0,
             attempts: int = 50, time_limit: float = 60.0, workers: int = 2,
             report: Callable[[str], None] = lambda _line: None) -> Generated | None:
    """The first drawn puzzle whose best answer is proved unique, or None when `attempts` draws or the time
    limit run out first (each draw gets what is left of the time, at most a fifth of it). `report` hears each
    draw begin and, when it is dropped, why (QA: a 20 s generation said nothing until its end)."""
    rng = random.Random(seed)
    start = time.monotonic()
    for attempt, seconds in draw_budgets(time_limit, attempts):
        puzzle = draw(rng, rows, cols, parts, monominoes, premarked)
        report(f"draw {attempt} ({up_to_seconds(seconds)}; {time.monotonic() - start:.1f}s)")
        answer = solve_parts(puzzle, seconds, workers, seed, unique=True)
        pass_on(answer.stop_signal)   # a designer who stops the draws wants them stopped, not the next one
        if answer.unique and answer.status == "OPTIMAL" and len(answer.puzzle.placed) >= MIN_PLACED:
            return Generated(puzzle, answer, attempt, time.monotonic() - start)
        report(f"draw {attempt} dropped: {_why_dropped(answer)}")
    return None


def _why_dropped(answer: RobofactureResult) -> str:
    if answer.status != "OPTIMAL":
        return f"no best answer proved ({answer.status})"
    if answer.unique is None:   # (QA: "not the only one" where the question was never settled)
        return "the time ran out before its best answer was proved the only one"
    if not answer.unique:
        return "its best answer is not the only one"
    return f"its best answer places {counted(len(answer.puzzle.placed), 'part')}, fewer than {MIN_PLACED}"
