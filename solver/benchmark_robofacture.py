"""Robofacture benchmark: random parts puzzles of three sizes, solved and (optionally) asked for uniqueness.

Writes results/robofacture.csv and results/robofacture.md (notes after the marker are kept). Run:
    python -m solver.benchmark_robofacture --time-limit 60 --seeds 0 --seeds 1 --seeds 2 --runs 3
Each row: the puzzle (size, parts, seed), status, score, bound, gap, seconds to the answer (and to the
uniqueness verdict with --unique), proved or not; the markdown gives medians over runs.
"""
from __future__ import annotations

import random
import time

import click
import pandas as pd

from .reports import write_results
from .robofacture import solve_parts
from .robofacture_generate import draw

#: (rows, cols, polyominoes, monominoes, premarked cells)
SIZES = ((4, 4, 5, 1, 1), (6, 6, 10, 3, 2), (8, 8, 16, 4, 3))


def row(size: tuple[int, int, int, int, int], seed: int, run: int, time_limit: float, workers: int,
        unique: bool) -> dict:
    rows, cols, parts, monos, premarked = size
    puzzle = draw(random.Random(seed), rows, cols, parts, monos, premarked)
    start = time.monotonic()
    result = solve_parts(puzzle, time_limit, workers, seed=run, unique=unique)
    score = result.shipment.score if result.shipment else None
    gap = None if score is None or not result.bound else round((result.bound - score) / result.bound, 4)
    return {"instance": f"{rows}x{cols}/p{parts + monos}/s{seed}", "seed": seed, "run": run,
            "time_limit": time_limit, "workers": workers, "status": result.status, "score": score,
            "bound": result.bound, "gap": gap, "answer_seconds": None if result.answer_seconds is None else round(result.answer_seconds, 2),
            "seconds": round(time.monotonic() - start, 2), "fewest_parts": result.fewest_parts,
            "proved": result.status == "OPTIMAL", "unique": result.unique,
            "parts_placed": len(result.puzzle.placed)}


def summary(frame: pd.DataFrame, command: str) -> str:
    medians = (frame.groupby("instance", sort=False)
               .agg(score=("score", "median"), bound=("bound", "median"), answer_seconds=("answer_seconds", "median"),
                    seconds=("seconds", "median"),
                    proved=("proved", "sum"), runs=("run", "count"))
               .reset_index())
    return "\n".join(["# Robofacture benchmark", "", f"Command: `{command}`", "",
                      "Medians over runs per puzzle. `answer_seconds`: until the score (and RG) was proved optimal "
                      "or the time was up; `seconds`: with the fewest-parts tie-break after it (at least 5 s, "
                      "or as long as the answer took) and `--unique`'s question; `proved`: runs that proved the "
                      "score.", "",
                      medians.to_markdown(index=False), "", "## Runs", "", frame.to_markdown(index=False), ""])


@click.command()
@click.option("--time-limit", type=float, default=60.0, show_default=True)
@click.option("--workers", type=int, default=2, show_default=True)
@click.option("--seeds", type=int, multiple=True, default=(0, 1, 2), show_default=True)
@click.option("--runs", type=int, default=3, show_default=True, help="Runs of each puzzle (search seeds 0..).")
@click.option("--unique", is_flag=True, help="Also ask whether each best answer is unique.")
@click.option("--name", default="robofacture", show_default=True, help="results/NAME.csv and .md")
@click.option("--out-dir", type=click.Path(file_okay=False), default="results", show_default=True)
def main(time_limit: float, workers: int, seeds: tuple[int, ...], runs: int, unique: bool, name: str,
         out_dir: str) -> None:
    rows = []
    for size in SIZES:
        for seed in seeds:
            for run in range(runs):
                rows.append(row(size, seed, run, time_limit, workers, unique))
                click.echo(f"{rows[-1]['instance']} run {run}: {rows[-1]['status']} {rows[-1]['score']} "
                           f"(bound {rows[-1]['bound']}) in {rows[-1]['seconds']} s", err=True)
    frame = pd.DataFrame(rows)
    command = (f"python -m solver.benchmark_robofacture --time-limit {time_limit:g} --workers {workers} "
               + " ".join(f"--seeds {s}" for s in seeds) + f" --runs {runs}" + " --unique" * unique)
    written = write_results(out_dir, name, frame, summary(frame, command))
    click.echo(f"wrote {written}.csv and .md", err=True)


if __name__ == "__main__":
    main()
