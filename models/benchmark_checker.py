"""Checker throughput benchmark: layouts checked per second on 10-machine layouts.

The solver and the analysis call the checker thousands of times, so its speed is
measured (not asserted in tests) and written to results/checker.csv.
"""
from __future__ import annotations

import random
import time
from pathlib import Path

import click

from .board import Board, load_boards
from .catalog import Catalog, load_catalog
from .check import check_layout
from .clickopts import CheckedCommand, output_option, seed_option
from .jsonio import write_text
from .layout import Layout, MachinePlacement, Tile, parse_layout
from .rulesets import get_ruleset
from .wording import counted


def random_layout(board: Board, catalog: Catalog, machines: int, rng: random.Random) -> Layout:
    """A well-formed (not necessarily legal) layout: machines plus a tile at most ports."""
    ruleset = get_ruleset(catalog.ruleset)
    geometry, shape = ruleset.geometry, ruleset.machine_shape
    ids = rng.sample(sorted(catalog.machines), machines)
    used: set = set()
    placements: list[MachinePlacement] = []
    tiles: list[Tile] = []
    for machine_id in ids:
        for _ in range(200):
            anchor = rng.choice(sorted(board.cells))
            rotation = rng.choice(geometry.rotation_values)
            cells = shape.cells(geometry, anchor, geometry.steps_of(rotation))
            if all(c in board.cells and c not in used for c in cells):
                used.update(cells)
                placements.append(MachinePlacement(machine_id, anchor, rotation))
                for spec in catalog[machine_id].ports:
                    cell, side = shape.locate(geometry, anchor, geometry.steps_of(rotation), spec.at)
                    target = board.neighbour(cell, side)
                    if target is None or target in used:
                        continue
                    used.add(target)
                    if spec.is_input:
                        tiles.append(Tile("supply", target, color=spec.colors[0]))
                    elif spec.is_black:
                        tiles.append(Tile("end", target))
                    else:
                        back = geometry.opposite(side)
                        tiles.append(Tile("pipe", target, sides=tuple(sorted({back, geometry.rotate(back, 1)}, key=geometry.sides.index))))
                break
    return Layout(ruleset, board, catalog, tuple(placements), tuple(tiles))


def measure(layouts: list[Layout], with_parse: bool) -> float:
    documents = [layout.to_dict() for layout in layouts]
    start = time.perf_counter()
    for document, layout in zip(documents, layouts):
        check_layout(parse_layout(document) if with_parse else layout)
    return time.perf_counter() - start


@click.command("bench-checker", cls=CheckedCommand)
@click.option("--layouts", type=click.IntRange(min=1), default=500, show_default=True, help="Layouts per run.")
@click.option("--runs", type=click.IntRange(min=1), default=5, show_default=True, help="Repetitions (the median is reported).")
@click.option("--machines", type=click.IntRange(min=1), default=10, show_default=True,
              help="Machines per layout (at most the catalogue's).")
@seed_option(default=1, help="Seed of the random layouts: the same seed judges the same layouts.")
@output_option("--out", "out_path", default="results/checker.csv", show_default=True, make_parents=True,
               help="CSV of every run; a Markdown summary is written beside it.")
def bench_checker(layouts: int, runs: int, machines: int, seed: int, out_path: str) -> None:
    """Measure how many layouts the rule checker judges per second (one core)."""
    summary = Path(out_path).with_suffix(".md")
    if summary == Path(out_path):   # (QA: "wrote x.md and x.md", the summary over the CSV)
        raise click.BadParameter(f"{out_path} is the CSV of every run, and its Markdown summary goes beside it as "
                                 f"{summary}: give the CSV another name, e.g. {summary.with_suffix('.csv')}",
                                 param_hint="'--out'")
    ruleset = get_ruleset("factory-fun")
    board = load_boards(ruleset)["classic-A"]
    catalog = load_catalog(ruleset)
    if machines > len(catalog.machines):
        raise click.BadParameter(f"{machines} is more than the catalogue's {len(catalog.machines)} machines",
                                 param_hint="'--machines'")
    rng = random.Random(seed)
    sample = [random_layout(board, catalog, machines, rng) for _ in range(layouts)]
    rows = []
    for phase, with_parse in (("check", False), ("parse+check", True)):
        for run in range(runs):
            seconds = measure(sample, with_parse)
            rows.append({"phase": phase, "run": run, "layouts": layouts, "machines": machines, "seed": seed,
                         "seconds": round(seconds, 4), "layouts_per_second": round(layouts / seconds, 1)})
    import pandas as pd   # (here, not at the top: every `factoryfun` command imports this module, and pandas
    #                        took a fifth of a second of each start)
    frame = pd.DataFrame(rows)
    medians = frame.groupby("phase")["layouts_per_second"].median()
    lines = [f"- {phase}: median {value:.0f} layouts/s over {counted(runs, 'run')} of {layouts} ({machines}-machine layouts)"
             for phase, value in medians.items()]
    click.echo("\n".join(line[2:] for line in lines))   # (shown first: a file that cannot be written loses nothing)
    write_text(out_path, frame.to_csv(index=False))
    write_text(summary, "# Checker throughput\n\n"
               f"Command: `factoryfun bench-checker --layouts {layouts} --runs {runs} --machines {machines} --seed {seed}`"
               " (one core; random well-formed layouts on classic-A, legal or not)\n\n"
               + "\n".join(lines) + "\n\nTarget (issue 2): 1,000 layouts a second or more.\n")
    click.echo(f"wrote {out_path} and {summary}")
