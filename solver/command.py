"""`factoryfun solve`: a thin click command over `solve_static` (parse, call, print).

Progress goes to stderr so `--json` output on stdout stays a clean document.
Bad input becomes a DocumentError or click.UsageError (one line, exit 2 via cli.py).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from models.errors import DocumentError
from models.jsonio import read_json, write_json
from models.layout import Layout, load_layout, resolve_context

from .static import StaticResult, relative_gap, solve_static

_out = Console()
_err = Console(stderr=True)


def _machine_list(machines: str | None, machines_file: str | None) -> list[str]:
    ids: list[str] = []
    if machines:
        ids += [m.strip() for m in machines.split(",") if m.strip()]
    if machines_file:
        path = Path(machines_file)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise DocumentError(str(path), "", f"cannot read: {exc.strerror or exc}") from None
        if text.lstrip().startswith("["):
            listed = read_json(path)
            if not all(isinstance(m, str) for m in listed):
                raise DocumentError(str(path), "", "expected a JSON list of machine ids")
            ids += listed
        else:
            ids += [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    if not ids:
        raise click.UsageError("give the machines with --machines FF40,FF12 or --machines-file FILE")
    return ids


def _read_layout(path: str | None, what: str, context, catalog_path, boards_path) -> Layout | None:
    if path is None:
        return None
    layout = load_layout(path, catalog_path, boards_path)
    if layout.board.id != context.board.id or layout.ruleset.id != context.ruleset.id:
        raise DocumentError(path, "board", f"the {what} layout is for {layout.ruleset.id}/{layout.board.id}, "
                            f"not {context.ruleset.id}/{context.board.id}")
    return layout


def result_document(result: StaticResult) -> dict[str, Any]:
    """The layout document (FORMATS.md) with its "result" block."""
    doc: dict[str, Any] = result.layout.to_dict() if result.layout is not None else {}
    summary = result.check.score.summary() if result.check is not None else {}
    doc["result"] = {
        "status": result.status,
        "objective": result.objective,
        "bound": result.bound,
        "seconds": round(result.seconds, 3),
        **{k: summary.get(k) for k in ("income", "cost", "chain_bonus", "total")},
    }
    if result.explanation:
        doc["result"]["explanation"] = result.explanation
    return doc


def _progress(best: float, bound: float, elapsed: float) -> None:
    gap = relative_gap(best, bound)
    _err.print(f"[dim]best {best:.0f}  bound {bound:.0f}  gap {gap:.1%}  {elapsed:.1f}s[/]")


def _draw(layout: Layout) -> None:
    try:
        from models.render.text import draw_layout
    except ImportError:  # the renderer is optional
        return
    _out.print(draw_layout(layout))


def _summary(result: StaticResult) -> Table:
    table = Table(show_header=False, box=None)
    table.add_row("status", result.status)
    if result.check is not None:
        for key, value in result.check.score.summary().items():
            table.add_row(key.replace("_", " "), str(value))
    table.add_row(f"objective ({result.objective_kind})", "-" if result.objective is None else str(result.objective))
    table.add_row("bound", "-" if result.bound is None else f"{result.bound:.0f}")
    table.add_row("gap", "-" if result.gap is None else f"{result.gap:.1%}")
    table.add_row("seconds", f"{result.seconds:.1f} (model {result.build_seconds:.2f})")
    if result.explanation:
        table.add_row("why", result.explanation)
    return table


@click.command("solve")
@click.option("--board", "board_id", required=True, help="board id, e.g. classic-A")
@click.option("--machines", help="comma-separated machine ids, e.g. FF40,FF12,FF07")
@click.option("--machines-file", type=click.Path(dir_okay=False), help="one machine id per line, or a JSON list")
@click.option("--ruleset", "ruleset_id", default="factory-fun", show_default=True)
@click.option("--catalog", "catalog_path", type=click.Path(dir_okay=False), help="machine catalogue file")
@click.option("--boards", "boards_path", type=click.Path(dir_okay=False), help="boards file")
@click.option("--objective", type=click.Choice(["profit", "cost"]), default="profit", show_default=True)
@click.option("--optional", is_flag=True, help="machines may be left out (maximise profit)")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=60.0, show_default=True, help="seconds")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--hint", "hint_path", type=click.Path(dir_okay=False), help="a complete starting layout")
@click.option("--fixed", "fixed_path", type=click.Path(dir_okay=False), help="machines and tiles that must stay")
@click.option("--diagonal", is_flag=True, help="allow the diagonal intersection tile")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), help="write the layout document with its result")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), help="write the layout as SVG")
@click.option("--json", "as_json", is_flag=True, help="print the layout document to stdout")
def solve(board_id, machines, machines_file, ruleset_id, catalog_path, boards_path, objective, optional,
          time_limit, workers, seed, hint_path, fixed_path, diagonal, out_path, svg_path, as_json) -> None:
    """Find the most profitable (or cheapest) legal factory for a set of machines."""
    if optional and objective == "cost":
        raise click.UsageError("--optional goes with --objective profit")
    context = resolve_context("--board/--ruleset", ruleset_id, board_id, catalog_path, boards_path)
    if diagonal and not context.ruleset.diagonal_available:
        raise click.UsageError(f"ruleset {ruleset_id} has no diagonal intersection tile")
    ids = _machine_list(machines, machines_file)
    for m in ids:
        if m not in context.catalog:
            raise click.UsageError(f"unknown machine id {m!r}")
    twice = sorted({m for m in ids if ids.count(m) > 1})
    if twice:
        raise click.UsageError(f"machine {', '.join(twice)} is listed twice (a factory has one tile of each machine)")
    hint = _read_layout(hint_path, "hint", context, catalog_path, boards_path)
    fixed = _read_layout(fixed_path, "fixed", context, catalog_path, boards_path)
    _err.print(f"solving {len(ids)} machines on {board_id} ({objective}{', optional' if optional else ''}, "
               f"{time_limit:g}s, {workers} workers)")
    result = solve_static(context.ruleset, context.board, context.catalog, ids, objective=objective,
                          optional=optional, time_limit=time_limit, workers=workers, seed=seed, hint=hint,
                          fixed=fixed, diagonal=diagonal, progress=_progress)
    document = result_document(result)
    if out_path:
        write_json(out_path, document)
        _err.print(f"wrote {out_path}")
    if svg_path and result.layout is not None:
        try:
            from models.render.svg import layout_svg
        except ImportError:
            _err.print("SVG renderer not available; no SVG written")
        else:
            Path(svg_path).write_text(layout_svg(result.layout, title=f"{board_id}: {result.status}"), encoding="utf-8")
            _err.print(f"wrote {svg_path}")
    if as_json:
        click.echo(json.dumps(document, indent=2))
        return
    _out.print(_summary(result))
    if result.layout is not None:
        _draw(result.layout)
