"""Plan benchmark: solo and 3-offer 10-round sequences on classic-A.

Writes results/plan.csv and a summary results/plan.md. The planner returns one
legal plan when its time is up, so "a legal plan within 60 s" is measured by a
run with a 60 s limit. Run:
    python -m solver.benchmark_plan --time-limit 60 --time-limit 600 --seeds 1 2 3
    python -m solver.benchmark_plan --ruleset factory-funner --board A --solo-only --time-limit 60 --seeds 1 --seeds 2 --seeds 3
        (8-round Funner sequences; writes results/plan-funner.csv and .md)
"""
from __future__ import annotations

import time
from pathlib import Path

import click
import pandas as pd

from models.catalog import load_catalog
from models.game import parse_game
from models.rulesets import get_ruleset
from models.sequence import random_sequence

from .plan import plan_game
from .reports import write_report


def plan_row(kind: str, seed: int, players: int, solo: bool, time_limit: float, workers: int,
             ruleset_id: str = "factory-fun", board: str = "classic-A", run: int = 0) -> dict:
    """One plan of one benchmark sequence; `run` > 0 repeats it with another search seed."""
    ruleset = get_ruleset(ruleset_id)
    document = random_sequence(ruleset, load_catalog(ruleset), board, seed, players=players, solo=solo)
    game = parse_game(document, f"{kind}-seed{seed}")
    start = time.monotonic()
    result = plan_game(game, time_limit=time_limit, workers=workers, seed=seed + 1000 * run)
    seconds = time.monotonic() - start
    return {
        "instance": f"{kind}-seed{seed}", "kind": kind, "seed": seed, "run": run, "rounds": len(game.rounds),
        "offers_per_round": 1 if solo else players, "time_limit": time_limit, "workers": workers,
        "seconds": round(seconds, 1), "best_seconds": None if result.best_seconds is None else round(result.best_seconds, 1),
        "legal": result.replay.legal, "final_score": result.final_score, "bound": result.bound,
        "gap": None if result.gap is None else round(result.gap, 4), "proved": result.status == "OPTIMAL",
        "strategy": result.strategy, "taken": " ".join(r.taken or "-" for r in result.game.rounds),
    }


BOUND_NOTE = """\
## How the bound is obtained

Every tile of the final layout is paid for at least once and penalties are never negative, so
for every legal game `final score <= start money + static score of its final layout`, and the
final layout's machines include at most one machine of each round's offer. The bound is start
money + the geometry-free topology bound over all offered machines, optional, at most one per
round (solver/bounds.py: colours, quantities, no loops, the containers and reservoirs they force
per network, and the fewest pipes a network of that many ports needs). It ignores most of the
geometry, which is why the gaps below are large: the bound, not only the plan, is far from the
optimum. (Before 2026-12-01 the bound was the smaller of this and CP-SAT's bound on the static
model over all offered machines; on the benchmark sequences the two were equal after 60 s.)
"""


def summary(frame: pd.DataFrame, command: str) -> str:
    lines = ["# Plan benchmark", "", f"Command: `{command}`", "", BOUND_NOTE, "## Runs", "",
             frame.drop(columns=["taken"]).to_markdown(index=False), ""]
    for (kind, limit), group in frame.groupby(["kind", "time_limit"]):
        per_sequence = group.groupby("instance")["final_score"].median()
        lines.append(f"- {kind}, {limit:g} s: {int(group['legal'].sum())}/{len(group)} legal, median gap {group['gap'].median():.1%}, max gap {group['gap'].max():.1%}, "
                     f"median seconds {group['seconds'].median():.0f}, {int(group['proved'].sum())}/{len(group)} proved; "
                     "median final per sequence: " + ", ".join(f"{k} {v:g}" for k, v in per_sequence.items()))
    return "\n".join(lines) + "\n"


#: the benchmark's kinds of sequence: (name, players, solo)
KINDS = (("solo", 1, True), ("offer3", 3, False))


def chosen_kinds(solo_only: bool, offer3_only: bool) -> tuple[tuple[str, int, bool], ...]:
    """The kinds a run measures: both, or the one its flag names (both flags leave nothing: a usage error)."""
    if solo_only and offer3_only:
        raise click.UsageError("--solo-only and --offer3-only leave no sequence to run; give one of them")
    only = "solo" if solo_only else "offer3" if offer3_only else None
    return tuple(kind for kind in KINDS if only in (None, kind[0]))


@click.command()
@click.option("--time-limit", "time_limits", multiple=True, type=float, default=(600.0,), show_default=True)
@click.option("--workers", default=2, show_default=True)
@click.option("--seeds", multiple=True, type=int, default=(1, 2, 3), show_default=True)
@click.option("--out-dir", default="results", show_default=True)
@click.option("--append", is_flag=True, help="Add the rows to an existing plan.csv instead of replacing it.")
@click.option("--ruleset", "ruleset_id", default="factory-fun", show_default=True)
@click.option("--board", default="classic-A", show_default=True)
@click.option("--solo-only", is_flag=True, help="only the solo sequences (no 3-offer ones)")
@click.option("--offer3-only", is_flag=True, help="only the 3-offer sequences (no solo ones)")
@click.option("--runs", default=1, show_default=True, help="runs of each sequence (other search seeds): medians")
def main(time_limits: tuple[float, ...], workers: int, seeds: tuple[int, ...], out_dir: str, append: bool,
         ruleset_id: str, board: str, solo_only: bool, offer3_only: bool, runs: int) -> None:
    kinds = chosen_kinds(solo_only, offer3_only)
    # other rulesets get their own files (results/plan-funner.*), the square edition keeps plan.*
    stem = "plan" if ruleset_id == "factory-fun" else f"plan-{ruleset_id.removeprefix('factory-')}"
    rows = []
    for time_limit in time_limits:
        for seed in seeds:
            for kind, players, solo in kinds:
                for run in range(runs):
                    row = plan_row(kind, seed, players, solo, time_limit, workers, ruleset_id, board, run)
                    click.echo(f"{row['instance']} run {run} ({time_limit:g} s): final {row['final_score']} "
                               f"bound {row['bound']} gap {row['gap']} in {row['seconds']}s")
                    rows.append(row)
    frame = pd.DataFrame(rows)
    csv = Path(out_dir) / f"{stem}.csv"
    csv.parent.mkdir(parents=True, exist_ok=True)
    if append and csv.exists():
        frame = pd.concat([pd.read_csv(csv), frame], ignore_index=True)
    frame.to_csv(csv, index=False)
    limits = " ".join(f"--time-limit {t:g}" for t in time_limits)
    seed_args = " ".join(f"--seeds {s}" for s in seeds)
    command = (f"python -m solver.benchmark_plan {limits} --workers {workers} {seed_args} --runs {runs}"
               + "".join(flag for flag, on in ((" --append", append), (" --solo-only", solo_only),
                                               (" --offer3-only", offer3_only)) if on))
    if ruleset_id != "factory-fun":
        command += f" --ruleset {ruleset_id} --board {board}"
    write_report(Path(out_dir) / f"{stem}.md", summary(frame, command))
    click.echo(f"wrote {out_dir}/{stem}.csv and {out_dir}/{stem}.md")


if __name__ == "__main__":
    main()
