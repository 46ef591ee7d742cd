"""Growth in worker processes (solver/grow_pool.py): the same answers as growth here, and a stop obeyed."""
from __future__ import annotations

import time

from models.catalog import load_catalog
from models.check import check_layout
from models.rulesets import get_ruleset
from solver.grow_pool import GrowthPool
from solver.local import LocalProver, fewest_tanks
from solver.grow import grow_block
from tests.test_solver_grow import SET, _blocks

FF = get_ruleset("factory-fun")
CATALOG = load_catalog(FF)


def _chain():
    return next(b for b in _blocks(SET, 31) if b.machines == ("FF27", "FF28", "FF43"))


def _wait_ready(pool: GrowthPool) -> None:
    deadline = time.monotonic() + 30
    while not pool.ready():
        assert time.monotonic() < deadline, "no growth worker started in 30 s"
        time.sleep(0.05)


def test_a_worker_gives_the_verdicts_growth_gives_here():
    prover = LocalProver(FF, CATALOG, lambda *_: "unknown")
    chain = _chain()
    fewest = fewest_tanks(FF, CATALOG, chain)
    with GrowthPool(2) as pool:
        _wait_ready(pool)
        for pipes in (1, 2, 4):
            board, centre = prover._patch_for(chain, pipes)
            here = grow_block(FF, CATALOG, chain.machines, chain.pattern, fewest + pipes, fewest, board, centre)[0]
            there, component = pool.verdict(FF, CATALOG, chain, pipes, board, centre, time.monotonic() + 60,
                                            lambda: False)
            assert there == here, pipes
            assert (component is not None) == (there == "found")
        assert [here, there] == ["found", "found"]  # at four spare pipes the chain closes
        assert check_layout(component).legal  # the component came back from the worker whole


def test_a_stop_ends_a_worker_search_as_unknown_at_once():
    prover = LocalProver(FF, CATALOG, lambda *_: "unknown")
    chain = _chain()
    board, centre = prover._patch_for(chain, 3)
    with GrowthPool(1) as pool:
        _wait_ready(pool)
        began = time.monotonic()
        verdict = pool.verdict(FF, CATALOG, chain, 3, board, centre, time.monotonic() + 60,
                               lambda: time.monotonic() - began > 0.2)
        assert verdict == ("unknown", None)
        assert time.monotonic() - began < 2.0


def test_a_pool_closed_before_its_workers_start_lets_them_start_at_exit():
    """A proof can end before its workers are up; closing must not strand a worker that has yet to read the
    pool's stop event (the fork server printed a traceback under the solve's output): the exit hook waits
    until each has started."""
    from solver import grow_pool
    pool = GrowthPool(2)
    pool.close()  # at once: the workers are still starting
    warm, _ = grow_pool._closing[-1]
    assert len(warm) == 2 and not any(future.cancelled() for future in warm)
    grow_pool._let_workers_start()
    assert all(future.done() and future.result() is True for future in warm)
