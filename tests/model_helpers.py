"""The model–checker agreement helper shared by the square and hex solver tests."""
from __future__ import annotations

from collections.abc import Callable

from models.layout import Layout
from solver.model import StaticModel, build_static_model, fix_to_layout
from solver.search import run


def model_verdict(layout: Layout, constrain: Callable[[StaticModel], None] | None = None) -> tuple[str, float | None]:
    """(status, objective) of the model fixed to exactly this layout; NOVAR if inexpressible.

    `constrain` adds constraints first (e.g. the prover's cuts, which must accept every legal layout).
    """
    built = build_static_model(layout.ruleset, layout.board, layout.catalog, layout.machine_ids,
                               diagonal=bool(layout.options.get("diagonal_intersection")),
                               end_limit=layout.options.get("end_limit"))
    if constrain is not None:
        constrain(built)
    try:
        fix_to_layout(built, layout)
    except ValueError:
        return "NOVAR", None
    outcome = run(built, 10.0, workers=1)
    return outcome.status, outcome.objective
