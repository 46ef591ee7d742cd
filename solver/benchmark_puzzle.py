"""Factory Fun puzzle benchmark: how often, and how fast, `factoryfun puzzle generate` finds a puzzle with a
proved unique best factory, by board size, machine count and ruleset.

Writes results/puzzle.csv and results/puzzle.md (notes after the marker are kept). Run:
    python -m solver.benchmark_puzzle --time-limit 120 --seeds 1 --seeds 2 --seeds 3 --seeds 4 --seeds 5
Each row is one generation (one seed): found or not, draws made, pillars carved, the best score, seconds,
and whether a fresh uniqueness question (a new model, asked after the generator stopped) agrees that the
answer is the only best and the checker scores it at the best.
"""
from __future__ import annotations

import time

import click
import pandas as pd

from models.catalog import load_catalog
from models.check import check_layout
from models.rulesets import get_ruleset

from .puzzle import another_as_good, generate
from .reports import write_results

#: (label, ruleset, rows, cols, machines, first pillars)
KINDS = (("5x5 m2", "factory-fun", 5, 5, 2, 2), ("5x5 m3", "factory-fun", 5, 5, 3, 2),
         ("6x6 m4", "factory-fun", 6, 6, 4, 3), ("5x5 m2 hex", "factory-funner", 5, 5, 2, 2))


def row(kind: tuple, seed: int, time_limit: float, workers: int) -> dict:
    label, ruleset_id, rows, cols, machines, pillars = kind
    ruleset = get_ruleset(ruleset_id)
    catalog = load_catalog(ruleset)
    start = time.monotonic()
    found = generate(ruleset, catalog, rows, cols, machines, pillars, seed, time_limit=time_limit, workers=workers)
    seconds = round(time.monotonic() - start, 2)
    base = {"kind": label, "seed": seed, "time_limit": time_limit, "workers": workers, "found": found is not None,
            "seconds": seconds}
    if found is None:
        return base
    puzzle = found.puzzle
    judged = check_layout(found.answer)
    again = another_as_good(ruleset, puzzle.board, catalog, puzzle.machines, found.answer, puzzle.best, 120,
                            workers, given=puzzle.given)
    return base | {"machines": ",".join(puzzle.machines), "best": puzzle.best, "runner_up": puzzle.runner_up,
                   "rival": puzzle.rival, "attempts": found.attempts,
                   "carved": found.carved, "pillars": len(puzzle.board.pillars), "given": len(puzzle.given),
                   "checker_agrees": judged.legal and judged.score.total == puzzle.best,
                   "unique_again": again.verdict == "unique", "unique_seconds": round(again.seconds, 2)}


def _count(column: pd.Series) -> int:
    """True values of a column that is empty where nothing was found (a plain sum printed "True")."""
    return int(column.eq(True).sum())


def summary(frame: pd.DataFrame, command: str) -> str:
    def score(column: str) -> pd.Series:   # a runner-up or rival that does not exist ("none") has no margin
        return pd.to_numeric(frame[column], errors="coerce")

    frame = frame.assign(margin=frame["best"] - score("runner_up"), rival_margin=frame["best"] - score("rival"))
    per_kind = (frame.groupby("kind", sort=False)
                .agg(generations=("seed", "count"), found=("found", "sum"), median_seconds=("seconds", "median"),
                     median_attempts=("attempts", "median"), median_carved=("carved", "median"),
                     median_given=("given", "median"),
                     median_margin=("margin", "median"), median_rival_margin=("rival_margin", "median"),
                     unique_again=("unique_again", _count), checker_agrees=("checker_agrees", _count))
                .reset_index())
    return "\n".join(["# Factory Fun puzzle benchmark", "", f"Command: `{command}`", "",
                      "One generation per seed. `found`: generations that ended with a puzzle whose best layout "
                      "is proved optimal and the only one; `median_*` over all generations (seconds) or the "
                      "found ones (draws, pillars carved, tiles given, margin: best - runner-up, the best other layout's score; rival margin: best - rival, the best score of a layout placing some machine otherwise); `unique_again`: found puzzles whose uniqueness a "
                      "fresh model proved again; `checker_agrees`: answers the rule checker finds legal at the "
                      "puzzle's best.", "", per_kind.to_markdown(index=False), "", "## Generations", "",
                      frame.to_markdown(index=False), ""])


@click.command()
@click.option("--time-limit", type=float, default=120.0, show_default=True, help="Seconds per generation.")
@click.option("--workers", type=int, default=2, show_default=True)
@click.option("--seeds", type=int, multiple=True, default=(1, 2, 3, 4, 5), show_default=True)
@click.option("--name", default="puzzle", show_default=True, help="results/NAME.csv and .md")
@click.option("--out-dir", type=click.Path(file_okay=False), default="results", show_default=True)
def main(time_limit: float, workers: int, seeds: tuple[int, ...], name: str, out_dir: str) -> None:
    rows = []
    for kind in KINDS:
        for seed in seeds:
            rows.append(row(kind, seed, time_limit, workers))
            click.echo(f"{kind[0]} seed {seed}: {'found' if rows[-1]['found'] else 'none'} in "
                       f"{rows[-1]['seconds']} s", err=True)
    frame = pd.DataFrame(rows)
    command = (f"python -m solver.benchmark_puzzle --time-limit {time_limit:g} --workers {workers} "
               + " ".join(f"--seeds {s}" for s in seeds))
    written = write_results(out_dir, name, frame, summary(frame, command))
    click.echo(f"wrote {written}.csv and .md", err=True)


if __name__ == "__main__":
    main()
