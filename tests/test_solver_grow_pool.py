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


#: what a subprocess prints of the fork server's and the resource tracker's blocked signals (from /proc), and
#: whether a pool whose worker died still gives a verdict, grown here
_DEAF_HELPERS = """
import os, signal, sys, time
sys.path.insert(0, "tests")
from multiprocessing import forkserver, resource_tracker
from tests.test_solver_grow_pool import CATALOG, FF, _chain, _wait_ready
from solver.grow_pool import GrowthPool
from solver.local import LocalProver

def blocked(pid):
    status = open(f"/proc/{pid}/status").read()
    mask = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigBlk")), 16)
    return sorted(signal.Signals(n).name for n in range(1, 64) if mask >> (n - 1) & 1)

pool = GrowthPool(1)
_wait_ready(pool)
print(blocked(forkserver._forkserver._forkserver_pid), blocked(resource_tracker._resource_tracker._pid))
for child in pool._pool._processes.values():
    os.kill(child.pid, signal.SIGTERM)   # (as `timeout` does to the whole group)
time.sleep(0.5)
chain = _chain()
board, centre = LocalProver(FF, CATALOG, lambda *_: "unknown")._patch_for(chain, 4)
print(pool.verdict(FF, CATALOG, chain, 4, board, centre, time.monotonic() + 60, lambda: False)[0])
pool.close()
"""


def test_the_fork_server_and_its_workers_outlive_a_stop_sent_to_the_whole_group():
    """QA pass 41: a closed terminal or Ctrl-C reaches the whole process group, and killed the fork server and
    resource tracker as they started ("Aborted!", exit 1, the solve's --out lost, tracebacks from the tracker).
    They now start with the stop signals blocked; a worker the stop killed leaves its blocks to grow here."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    said = subprocess.run([sys.executable, "-c", _DEAF_HELPERS], cwd=root, capture_output=True, text=True,
                          timeout=120)
    assert said.returncode == 0, said.stderr
    server, tracker = said.stdout.splitlines()[0].split("] [")
    assert {"SIGHUP", "SIGINT", "SIGTERM"} <= set(server.strip("[]").replace("'", "").split(", "))
    assert "SIGHUP" in tracker   # (it ignores Ctrl-C and SIGTERM itself)
    assert said.stdout.splitlines()[1] == "found" and "Traceback" not in said.stderr
