"""A Factory Fun puzzle: a board, the machines to place on it, and what the best factory scores.

"Build the best factory for these machines on this board" is the question `solve` answers; a puzzle poses it
to a player, on a board small and cluttered enough (pillars) that exactly one layout is best, so the answer can
be checked and the puzzle has a single solution, as a printed puzzle has.

A puzzle file is a boards file (`factoryfun boards --json`) with a `puzzle` block:

    {"ruleset": "factory-fun",
     "boards": [{"id": "puzzle-3", "geometry": "square", "rows": 5, "cols": 5, "pillars": [[1, 2], [3, 3]]}],
     "puzzle": {"board": "puzzle-3", "machines": ["FF39", "FF31", "FF41"], "best": 22, "unique": true,
                "runner_up": 21, "rival": 21}}

A puzzle may also print tiles on its board (`"tiles"` in the block, as a layout writes them): every answer
keeps them where they are. Pillars take cells away from every other layout; a given tile is the clue when a
rival layout uses the answer's very cells (a container moved along its pipe, a machine turned in place), where
no pillar can part them.

So every command that takes `--boards FILE` takes a puzzle file too: `factoryfun check answer.json --boards
puzzle.json` checks an answer's rules on the puzzle's board (`puzzle check` also its machines and given tiles). `best`, `unique`, `runner_up` (what the best other
layout scores) and `rival` (what the best layout placing some machine otherwise scores; `"none"` when no such layout is legal at
all) are what the puzzle claims (a generated puzzle's were proved when it was made); a hand-made
puzzle may leave them out, and `factoryfun puzzle solve` answers them. Reading is strict: an unknown key, an unknown machine or board, a machine listed
twice, each stop with one line naming the file and the key.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .board import Board, board_document, parse_boards
from .catalog import Catalog
from .errors import DocumentError, as_json, expect, require_keys
from .jsonio import read_json, refuse_catalogue
from .layout import Context, Layout, Tile, document_catalog, document_ruleset, parse_layout_body, tile_to_dict
from .rulesets import Ruleset
from .wording import with_article

#: more machines than this make a puzzle no player solves by hand, and a uniqueness proof no one waits for
MAX_MACHINES = 8
#: a runner-up or rival claimed not to exist: no other legal layout (no other placement of the machines) at all,
#: proved, which is not the same as not known (the key left out)
NONE_OTHER = "none"
#: a claim about a layout other than the best: its score, NONE_OTHER, or None (not known)
Second = int | str | None


@dataclass(frozen=True)
class FactoryPuzzle:
    """The board, the machines every answer places (all of them), and the claims about its best answer."""

    ruleset: Ruleset
    board: Board
    catalog: Catalog
    machines: tuple[str, ...]
    best: int | None = None        # the best factory's score (static score: income - cost + chain bonus)
    unique: bool | None = None     # whether exactly one layout scores `best`
    runner_up: Second = None       # what the best layout but that one scores (None: not known; NONE_OTHER)
    given: tuple[Tile, ...] = ()   # tiles printed on the board: every answer keeps them
    rival: Second = None           # what the best layout placing some machine otherwise scores (as runner_up)

    @property
    def given_layout(self) -> Layout:
        """The board with the given tiles and no machine: what every answer keeps (solve's `fixed` part)."""
        return Layout(self.ruleset, self.board, self.catalog, (), self.given, {}, "the puzzle")

    def to_dict(self) -> dict[str, Any]:
        block: dict[str, Any] = {"board": self.board.id, "machines": list(self.machines)}
        if self.given:
            block["tiles"] = [tile_to_dict(tile) for tile in self.given]
        if self.best is not None:
            block["best"] = self.best
        if self.unique is not None:
            block["unique"] = self.unique
        if self.runner_up is not None:
            block["runner_up"] = self.runner_up
        if self.rival is not None:
            block["rival"] = self.rival
        return {"ruleset": self.ruleset.id, "boards": [board_document(self.board)], "puzzle": block}


def parse_puzzle(document: Any, source: str, catalog_path: str | Path | None = None) -> FactoryPuzzle:
    if isinstance(document, dict) and document.get("ruleset") == "robofacture":
        raise DocumentError(source, "ruleset", "a Robofacture parts puzzle; `factoryfun robofacture solve` reads it")
    if isinstance(document, dict) and "board" in document and "boards" not in document:   # (QA: "board: unknown key")
        what = "a game" if "rounds" in document else "a layout"
        raise DocumentError(source, "board", f"{what} document, not a puzzle file (a boards file with a puzzle "
                            "block); an answer goes second: `factoryfun puzzle check PUZZLE ANSWER`")
    refuse_catalogue(source, document, "a puzzle file")
    if isinstance(document, dict) and "boards" in document and "puzzle" not in document:   # (QA: "puzzle: missing key")
        raise DocumentError(source, "puzzle", "a boards file with no puzzle block, not a puzzle file; `factoryfun "
                            "puzzle generate` or `puzzle carve` writes one")
    require_keys(source, "", document, {"ruleset", "boards", "puzzle"}, {"source"})
    ruleset = document_ruleset(source, document["ruleset"])
    boards = parse_boards(document, ruleset, source)
    raw = require_keys(source, "puzzle", document["puzzle"], {"board", "machines"},
                       {"best", "unique", "runner_up", "rival", "tiles"})
    board_id = raw["board"]
    if not isinstance(board_id, str) or board_id not in boards:
        raise DocumentError(source, "puzzle.board", f"unknown board {as_json(board_id)} (the file's boards: "
                            f"{', '.join(boards)})")
    catalog = document_catalog(source, ruleset, catalog_path)
    machines = _machines(source, raw["machines"], catalog)
    best = raw.get("best")
    if best is not None:
        expect(source, "puzzle.best", best, int, "a whole score")
    unique = raw.get("unique")
    if unique is not None:
        expect(source, "puzzle.unique", unique, bool, "true or false")
    runner_up = _second_score(source, "runner_up", raw, best, unique)
    rival = _second_score(source, "rival", raw, best, unique)
    if unique is False and best is not None and runner_up is not None and runner_up != best:
        # (QA: read, then restated as "more than one layout does (the runner-up: 17)")
        raise DocumentError(source, "puzzle.runner_up", f"{as_json(runner_up)} against a best of {best} that more "
                            "than one layout scores: the best other layout then scores the best too")
    if runner_up == NONE_OTHER and rival not in (None, NONE_OTHER):
        raise DocumentError(source, "puzzle.rival", f"{rival} against a runner-up that does not exist: the rival is "
                            "one of the other layouts")
    if isinstance(rival, int) and isinstance(runner_up, int) and rival > runner_up:
        raise DocumentError(source, "puzzle.rival", f"{rival} against a runner-up of {runner_up}: the rival is "
                            "one of the other layouts, so it scores at most the runner-up")
    given = parse_layout_body(source, "puzzle", {"machines": [], "tiles": raw.get("tiles", [])},
                              Context(ruleset, boards[board_id], catalog)).tiles
    for i, tile in enumerate(given):   # (QA: read, then "INFEASIBLE: the option is off")
        if tile.kind == "diagonal":
            raise DocumentError(source, f"puzzle.tiles[{i}].kind", "puzzles leave the diagonal tile out")
    return FactoryPuzzle(ruleset, boards[board_id], catalog, machines, best, unique, runner_up, given, rival)


def _second_score(source: str, key: str, raw: dict[str, Any], best: int | None, unique: bool | None) -> Second:
    """A claimed score of a layout other than the best (`runner_up`, `rival`): at most the best, less when the
    best is the only one; or NONE_OTHER, no such layout at all."""
    score = raw.get(key)
    if score == NONE_OTHER:
        return score
    if score is not None:
        expect(source, f"puzzle.{key}", score, int, f'a whole score, or "{NONE_OTHER}" when no such layout exists')
        if best is not None and (score > best or (unique and score == best)):
            raise DocumentError(source, f"puzzle.{key}", f"{score} against a best of {best}: "
                                f"{with_article(key.replace('_', '-'))} scores at most the best, and less when the "
                                "best is the only one")
    return score


def _machines(source: str, raw: Any, catalog: Catalog) -> tuple[str, ...]:
    expect(source, "puzzle.machines", raw, list, "a list of machine ids")
    if not 1 <= len(raw) <= MAX_MACHINES:
        raise DocumentError(source, "puzzle.machines", f"a puzzle places 1 to {MAX_MACHINES} machines, "
                            f"not {len(raw)}")
    seen: list[str] = []
    for i, machine in enumerate(raw):
        key = f"puzzle.machines[{i}]"
        if not isinstance(machine, str):
            raise DocumentError(source, key, f"unknown machine id {as_json(machine)}")
        if machine not in catalog:
            raise DocumentError(source, key, catalog.unknown(machine))
        if machine in seen:
            raise DocumentError(source, key, f"machine {machine} listed twice")
        seen.append(machine)
    return tuple(seen)


def load_puzzle(path: str | Path, catalog_path: str | Path | None = None) -> FactoryPuzzle:
    return parse_puzzle(read_json(path), str(path), catalog_path)
