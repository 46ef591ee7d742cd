"""Growth on every core: block solves (solver/grow.py) in worker processes.

Growth is pure Python, so threads share one core (the GIL). The prover asks
many independent block questions, one or more per fed pattern that survives its
board model (classic-A FF11,FF12,FF18,FF21,FF47,FF55 refuting 71: fourteen
six-machine blocks of 11-62 s each), so worker processes answer them side by
side. Before this, CP-SAT's patch model raced growth on the second core; since
growth learnt to count the pipes forced joins need, it rarely answered first,
and building that model in the prover's own process slowed growth down.

Workers start in the background; until one is ready, blocks grow in the
caller's process, so small proofs pay nothing for the pool. A stop (time up, Ctrl-C, a proof decided) is one shared
event: every worker's search ends at its next check with 'unknown'.
"""
from __future__ import annotations

import atexit
import multiprocessing
import signal
import time
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import forkserver, resource_tracker
from typing import Callable

from models.board import Board
from models.catalog import Catalog
from models.geometry import Cell
from models.layout import Layout
from models.rulesets import Ruleset
from models.stopping import STOP_SIGNALS, leave_stops_to_the_parent

from .grow import grow_block
from .local import Block, fewest_tanks

#: seconds between looks at the caller's stop condition while a worker grows a block
POLL_SECONDS = 0.05
#: how workers start. Not a fork of the solver's process: CP-SAT's own (C++) threads may hold a lock
#: at that moment, and a forked worker then hangs (seen: a 300 s solve whose proof never moved while
#: the same proof alone took seconds). A fork server is a clean process started once, which imports
#: growth once; workers forked from it start at once. Elsewhere workers are spawned.
_START_METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"

_stop_event = None  # the worker's copy of the pool's stop event (set by `_start_worker`)
#: seconds the process waits at exit for closed pools' workers to finish starting
EXIT_WAIT_SECONDS = 5.0
#: closed pools' start-up tasks, kept (with their pools' stop events) until every worker has started
_closing: list[tuple[list[Future], object]] = []


def _let_workers_start() -> None:
    """At exit, wait until the workers of closed pools have started.

    A worker that starts after its pool's stop event is gone (the parent exiting
    unlinks it) fails to read it, and the fork server prints a traceback under the
    solve's output (seen about one run in six of a 3-machine solve, whose proof
    ends before its workers are up). Waiting here, not in `close`, keeps quick
    proofs quick.
    """
    wait([future for warm, _ in _closing for future in warm], timeout=EXIT_WAIT_SECONDS)


atexit.register(_let_workers_start)  # after multiprocessing's own exit hook, so it runs before it


#: what a pool whose fork server or worker died raises where it is used
POOL_GONE = (BrokenProcessPool, EOFError, OSError)
#: the stop signals the fork server starts with blocked, and so its workers (`_helpers_started_deaf`)
HELD = STOP_SIGNALS


def _start_worker(event) -> None:
    """Ctrl-C is the parent's to handle: it sets the event, which every worker watches. SIGTERM ends a worker,
    as the pool ends a broken pool's others with it (ignored, a worker would hang the pool's end)."""
    global _stop_event
    leave_stops_to_the_parent(ended_by_sigterm=True)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)   # (blocked in the fork server it was forked from)
    _stop_event = event


def _helpers_started_deaf() -> None:
    """Start multiprocessing's resource tracker and fork server (each once a process) with the stop signals
    blocked, as they then stay (each ends with this process): a stop sent to the whole process group (Ctrl-C, a
    closed terminal, `timeout`) killed them as they started, and the solve lost its answer ("Aborted!", exit 1,
    no --out; QA pass 41). A stop to this process waits the few milliseconds this takes, then comes as usual."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    try:
        resource_tracker.ensure_running()
        signal.pthread_sigmask(signal.SIG_BLOCK, HELD)   # (the tracker's start unblocks Ctrl-C and SIGTERM)
        if _START_METHOD == "forkserver":
            forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _ready() -> bool:
    return True


def grow_spare(ruleset: Ruleset, catalog: Catalog, block: Block, pipes: int, board: Board, centre: Cell,
               stop: Callable[[], bool]) -> tuple[str, Layout | None]:
    """`grow_block` for a block of solver/local.py allowed its fewest tanks and `pipes` spare pipes."""
    fewest = fewest_tanks(ruleset, catalog, block)
    return grow_block(ruleset, catalog, block.machines, block.pattern, fewest + pipes, fewest, board,
                      centre, block.stock, stop=stop)


def _grow_verdict(ruleset: Ruleset, catalog: Catalog, block: Block, pipes: int, board: Board, centre: Cell,
                  deadline: float) -> tuple[str, Layout | None]:
    """One block at `pipes` spare pipes, in a worker: 'found' (with the component), 'refuted' or 'unknown'."""
    def stop() -> bool:
        return time.monotonic() > deadline or (_stop_event is not None and _stop_event.is_set())

    return grow_spare(ruleset, catalog, block, pipes, board, centre, stop)


class GrowthPool:
    """Worker processes that grow blocks; a context manager (the workers end with it)."""

    def __init__(self, workers: int) -> None:
        context = multiprocessing.get_context(_START_METHOD)
        if _START_METHOD == "forkserver":
            context.set_forkserver_preload(["solver.grow_pool"])
        _helpers_started_deaf()
        self._event = context.Event()
        self._pool = ProcessPoolExecutor(max(1, workers), mp_context=context, initializer=_start_worker,
                                         initargs=(self._event,))
        self._warm: list[Future] = [self._pool.submit(_ready) for _ in range(max(1, workers))]
        self._gone = False   # a worker died: the pool is broken, blocks grow in the caller

    @classmethod
    def start(cls, workers: int) -> GrowthPool | None:
        """A pool, or None where worker processes cannot start (then blocks grow in the caller)."""
        try:
            return cls(workers)
        except POOL_GONE:
            return None

    def __enter__(self) -> GrowthPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Stop every worker's search and let the workers end (not waited for: a quick proof stays quick).

        Queued blocks still run, but end at once on the stop event; the start-up
        tasks must run, so the exit hook above knows when every worker has started.
        """
        self._event.set()
        _closing.append((self._warm, self._event))
        self._pool.shutdown(wait=False, cancel_futures=False)

    def ready(self) -> bool:
        """A worker has started (before that, growing in the caller is faster than waiting for it), and none has
        died."""
        return not self._gone and any(future.done() for future in self._warm)

    def verdict(self, ruleset: Ruleset, catalog: Catalog, block: Block, pipes: int, board: Board, centre: Cell,
                deadline: float, should_stop: Callable[[], bool]) -> tuple[str, Layout | None]:
        """Grow one block, in a worker once one is ready, else here; `should_stop()` ends it as 'unknown'.

        As `grow_block`: the verdict, with the component when it is 'found'.
        """
        if not self.ready():
            return grow_spare(ruleset, catalog, block, pipes, board, centre, should_stop)
        try:
            future = self._pool.submit(_grow_verdict, ruleset, catalog, block, pipes, board, centre, deadline)
            while True:
                try:
                    return future.result(timeout=POLL_SECONDS)
                except TimeoutError:
                    if should_stop():
                        self._event.set()  # every worker stops: a stop ends the whole proof
                        future.cancel()
                        return "unknown", None
        except POOL_GONE:
            # a worker died (`timeout` or `kill 0` stop the whole group; the system may kill one short of memory):
            # the block grows here, as where no worker ever started (QA: "Aborted!", the solve's answer lost)
            self._gone = True
            return grow_spare(ruleset, catalog, block, pipes, board, centre, should_stop)
