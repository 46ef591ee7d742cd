"""Running CP-SAT: parameters, progress reports, Ctrl-C, complete hints.

Kept apart from the model so the greedy construction, the main search and the
benchmark's cross-check all run the solver the same way.
"""
from __future__ import annotations

import signal
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from ortools.sat.python import cp_model

from models.layout import Layout
from models.stopping import keep_stopping, stop_for, stop_signals

from .model import StaticModel, layout_literals

Progress = Callable[[float, float, float], None]  # (best objective, bound, elapsed seconds)


@dataclass
class SearchOutcome:
    status: str
    values: dict[int, int] | None  # best legal solution by proto index (at least the layout variables)
    objective: float | None
    bound: float | None
    seconds: float
    first_solution_seconds: float | None
    best_solution_seconds: float | None
    interrupted: bool = False
    #: CP-SAT proved the soft model's optimum, and reached it only with excess containers: no legal layout
    #: scores above `bound`, and whether any is legal at all is for a search with the limits hard
    soft_optimum: bool = False


class _Reporter(cp_model.CpSolverSolutionCallback):
    """Keeps the best *legal* solution and forwards (best, bound, elapsed) to the caller.

    With soft supply limits CP-SAT's incumbents may be illegal (excess containers);
    only those with zero excess are recorded, by the values of `watch` (the layout
    variables), which is all that is needed to rebuild the layout.
    """

    def __init__(self, progress: Progress | None, start: float, watch: list, excess):
        super().__init__()
        self.progress = progress
        self.start = start
        self.watch = watch
        self.excess = excess
        self.first: float | None = None
        self.best: float | None = None
        self.best_value: float | None = None
        self.best_values: dict[int, int] | None = None
        self.lock = threading.Lock()
        #: a legal solution whose objective reaches this bound is optimal: stop there
        self.stop_at: float | None = None
        self.minimize = False

    def on_solution_callback(self) -> None:
        if self.excess is not None and self.Value(self.excess) != 0:
            return
        elapsed = time.monotonic() - self.start
        objective = self.ObjectiveValue()
        with self.lock:
            if self.first is None:
                self.first = elapsed
            self.best = elapsed
            self.best_value = objective
            self.best_values = {var.Index(): self.Value(var) for var in self.watch}
        if self.progress is not None:
            self.progress(objective, self.BestObjectiveBound(), elapsed)
        if self.stop_at is not None and (objective <= self.stop_at if self.minimize else objective >= self.stop_at):
            self.StopSearch()

    def on_bound(self, bound: float) -> None:
        if self.progress is not None and self.best_value is not None:
            self.progress(self.best_value, bound, time.monotonic() - self.start)


#: one worker runs CP-SAT's subsolvers (neighbourhood search among them) in turns instead of its one default
#: search: FF09 around a lone fixed pipe was OPTIMAL 4 in 3.3 s this way, FEASIBLE -33 after 20 s without.
#: Set in `run` (layout searches), not in `solver_parameters`: the relaxations and the prover's splits also
#: solve with one worker, and they prove rather than search
ONE_WORKER_INTERLEAVES = True


class Halted(Exception):
    """A CP-SAT solve asked for in a worker thread its caller gave up on (`in_worker_thread`)."""


#: the CP-SAT solvers each `in_worker_thread` worker has set up (by thread id), and the workers given up on:
#: their solves are stopped and no new one starts, so no thread is inside CP-SAT when the process exits
#: (QA: Ctrl-C or SIGTERM in `plan`'s bound ended in "terminate called without an active exception", exit 134)
_WORKER_SOLVERS: dict[int, list[cp_model.CpSolver]] = {}
_HALTED: set[int] = set()
_WORKERS_LOCK = threading.Lock()
#: seconds a given-up worker gets to leave its stopped solve
HALT_WAIT = 3.0


def past(deadline: float) -> bool:
    """The deadline has passed, or this thread is a worker its caller gave up on (`_halt`): long Python work
    between solves (a relaxation's pair and tree tables) stops at once, not at its own deadline. Under load a
    given-up bound built pair tables for 1.5 s more, so `plan` ended with its worker thread still running."""
    return time.monotonic() > deadline or threading.get_ident() in _HALTED


def solver_parameters(
    solver: cp_model.CpSolver, time_limit: float, workers: int, seed: int, presolve: bool = True, log: bool = False,
) -> None:
    """Every solve's parameters; in a worker thread given up on, `Halted` instead of a new solve."""
    thread = threading.get_ident()
    with _WORKERS_LOCK:
        if thread in _HALTED:
            raise Halted
        if thread in _WORKER_SOLVERS:
            _WORKER_SOLVERS[thread].append(solver)
    p = solver.parameters
    p.max_time_in_seconds = max(time_limit, 0.01)
    p.num_workers = max(1, workers)
    p.random_seed = seed
    p.log_search_progress = log
    # CP-SAT's own SIGINT catcher leaves SIGINT at its default action after a solve,
    # which would kill the process on the next Ctrl-C; `Interrupt` handles it instead
    p.catch_sigint_signal = False
    if not presolve:
        p.cp_model_presolve = False


T = TypeVar("T")


class PhaseInterrupted(Exception):
    """Raised by `Interrupt` inside `Interrupt.abortable`: Ctrl-C (or SIGTERM) ends a deadline-bound phase."""




class Interrupt:
    """Ctrl-C (or SIGTERM) for a whole solve: stops the running CP-SAT search and tells later steps to stop.

    Installed once around the greedy steps and the main search, so an interrupt
    at any moment returns the best layout found so far instead of a traceback.
    Pure-Python phases that only read their own deadline (the relaxation's cut
    separation: up to 20 s) run through `abortable`, which ends them at once.
    """

    def __init__(self) -> None:
        self.signum: int | None = None   # which stop signal came (a caller may pass it on: SIGTERM exits 143)
        self.solver: cp_model.CpSolver | None = None
        self._previous: dict[int, object] = {}
        self._abortable = 0

    @property
    def flag(self) -> bool:
        """A stop signal came."""
        return self.signum is not None

    def __enter__(self) -> "Interrupt":
        if threading.current_thread() is threading.main_thread():
            self._previous = {number: signal.signal(number, self._handle) for number in stop_signals()}
        return self

    def __exit__(self, *exc) -> None:
        for number, previous in self._previous.items():
            signal.signal(number, previous)
        if self._previous and self.flag:   # (stopped: the rest of the command only shows and writes its best)
            keep_stopping()
        self._previous = {}

    def _handle(self, signum, frame) -> None:  # noqa: ARG002 - signal handler signature
        self.signum = signum
        if self.solver is not None:
            self.solver.StopSearch()
        if self._abortable:
            raise PhaseInterrupted

    def abortable(self, phase: Callable[[], T], otherwise: T) -> T:
        """`phase()`, or `otherwise` if an interrupt came before or during it (QA: Ctrl-C 11 s into a 6-machine
        solve took 12 s to answer, inside the relaxation's tree searches). Only for phases whose work is
        their return value: what they found is dropped, the solve's best layout is not."""
        if self.flag:
            return otherwise
        self._abortable += 1
        try:
            return phase()
        except PhaseInterrupted:
            return otherwise
        finally:
            self._abortable -= 1


def pass_on(stop_signal: int | None) -> None:
    """Raise again a stop signal a finished solve caught, so a loop of solves (a puzzle generator) stops rather
    than starting the next, as the command's own handler would have stopped it (Ctrl-C: 130, SIGTERM: 143)."""
    if stop_signal is not None:
        raise stop_for(stop_signal)


def run(
    built: StaticModel, time_limit: float, workers: int = 2, seed: int = 0, progress: Progress | None = None,
    presolve: bool = True, log: bool = False, interrupt: Interrupt | None = None, accept_excess: bool = False,
    gap_limit: float | None = None, stop_at: float | None = None, stall: float | None = None,
) -> SearchOutcome:
    """Solve; an `Interrupt` (Ctrl-C) stops the search and keeps the best solution found so far.

    stop_at: a proved bound on the objective (e.g. the geometry-free one); the
    search stops at the first legal solution that reaches it. CP-SAT does not
    always carry such a bound into its own (the soft-limit hex models keep the
    trivial one after presolve), so it would otherwise search on to the time limit.
    stall: stop once a legal solution has stood this many seconds unimproved
    (the static solver hands the rest of the time to its prover).
    """
    solver = cp_model.CpSolver()
    if interrupt is not None and interrupt.flag:
        time_limit = 0.0  # already interrupted: return at once, solution-less
    solver_parameters(solver, time_limit, workers, seed, presolve, log)
    if workers <= 1 and ONE_WORKER_INTERLEAVES:
        solver.parameters.interleave_search = True
    if gap_limit is not None:
        solver.parameters.relative_gap_limit = gap_limit
    start = time.monotonic()
    excess = None if isinstance(built.excess, int) or accept_excess else built.excess
    reporter = _Reporter(progress, start, layout_variables(built), excess)
    reporter.stop_at, reporter.minimize = stop_at, built.objective == "cost"
    if progress is not None:
        solver.best_bound_callback = reporter.on_bound
    if interrupt is not None:
        interrupt.solver = solver
    done = threading.Event()
    if stall is not None:
        threading.Thread(target=_stop_when_stalled, args=(solver, reporter, start, stall, done), daemon=True).start()
    try:
        status = _solve_interruptibly(solver, built.model, reporter, interrupt)
    finally:
        done.set()
        if interrupt is not None:
            interrupt.solver = None
    seconds = time.monotonic() - start
    name = solver.StatusName(status)
    has_solution = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    values = None
    objective = None
    soft_optimum = False
    if has_solution and (excess is None or solver.Value(excess) == 0):
        values = dict(enumerate(solver.ResponseProto().solution))
        objective = solver.ObjectiveValue()
    else:
        if reporter.best_values is not None:
            values, objective = reporter.best_values, reporter.best_value
        # optimal only for the soft model: its optimum has excess containers, so the legal layout kept (if any)
        # is not proved best (it used to be called OPTIMAL below a legal layout the search had not met)
        soft_optimum, name = name == "OPTIMAL", "FEASIBLE" if name == "OPTIMAL" else name
    return SearchOutcome(
        status=name if name != "MODEL_INVALID" else "UNKNOWN",
        values=values,
        objective=objective,
        # an UNKNOWN response (stopped before any solution, maybe inside presolve) can carry
        # the proto's default bound of 0, which is no bound at all
        bound=solver.BestObjectiveBound() if has_solution else None,
        seconds=seconds,
        first_solution_seconds=reporter.first,
        best_solution_seconds=reporter.best,
        interrupted=interrupt is not None and interrupt.flag,
        soft_optimum=soft_optimum,
    )


def _stop_when_stalled(solver: cp_model.CpSolver, reporter: _Reporter, start: float, stall: float,
                       done: threading.Event) -> None:
    """Watchdog: stop the search once its best legal solution is `stall` seconds old."""
    while not done.wait(0.1):
        best = reporter.best
        if best is not None and time.monotonic() - start - best >= stall:
            solver.StopSearch()
            return


def _solve_interruptibly(solver: cp_model.CpSolver, model: cp_model.CpModel, reporter, interrupt: Interrupt | None):
    """Solve in a worker thread while the main thread waits in Python (`in_worker_thread`); CP-SAT's own
    SIGINT catcher stops only the current search, not the greedy steps around it, so it is off
    (solver_parameters) and, with an `Interrupt` installed, its handler stops the solver."""
    if interrupt is None or interrupt._previous is None:
        return solver.Solve(model, reporter)
    return in_worker_thread(lambda: solver.Solve(model, reporter))[1]


Result = TypeVar("Result")


def in_worker_thread(call: Callable[[], Result], give_up: Callable[[], bool] = lambda: False
                     ) -> tuple[bool, Result | None]:
    """(True, `call()`), computed in a worker thread while the main thread waits in Python; or (False, None)
    as soon as `give_up()` says so, the worker's CP-SAT solves stopped (`_halt`).

    Python runs signal handlers only in the main thread between bytecodes, so a main thread blocked inside
    CP-SAT would take Ctrl-C only when the solve ends: `plan` took it up to 33 s late, in its bound.
    """
    box: dict[str, Any] = {}

    def work() -> None:
        thread = threading.get_ident()
        with _WORKERS_LOCK:
            _WORKER_SOLVERS[thread] = []
        try:
            box["value"] = call()
        except BaseException as exc:  # re-raised in the main thread
            box["error"] = exc
        finally:
            with _WORKERS_LOCK:
                _WORKER_SOLVERS.pop(thread, None)
                _HALTED.discard(thread)

    worker = threading.Thread(target=work, name="worker", daemon=True)
    worker.start()
    while worker.is_alive():
        if give_up():
            _halt(worker)
            return False, None
        worker.join(0.1)
    if "error" in box:
        raise box["error"]
    return True, box["value"]


def _halt(worker: threading.Thread) -> None:
    """Stop the worker's running CP-SAT solves, forbid new ones, and give it HALT_WAIT seconds to end."""
    with _WORKERS_LOCK:
        if worker.ident not in _WORKER_SOLVERS:
            return   # (already ended)
        _HALTED.add(worker.ident)
        running = list(_WORKER_SOLVERS[worker.ident])
    for solver in running:
        solver.StopSearch()
    worker.join(HALT_WAIT)


def solve_interruptibly(model: cp_model.CpModel, time_limit: float, workers: int, seed: int,
                        callback: cp_model.CpSolverSolutionCallback | None = None
                        ) -> tuple[cp_model.CpSolver, str, int | None]:
    """Solve in a worker thread under `Interrupt`, so Ctrl-C (or SIGTERM) stops the search at once and its best
    answer is kept: (the solver, its status name, the signal that stopped it or None)."""
    solver = cp_model.CpSolver()
    with Interrupt() as interrupt:
        solver_parameters(solver, time_limit, workers, seed)
        interrupt.solver = solver
        status = in_worker_thread(lambda: solver.Solve(model, callback))[1]
    return solver, solver.StatusName(status), interrupt.signum


def layout_variables(built: StaticModel) -> list:
    """The variables a layout is read from (machines and tiles)."""
    v = built.vars
    return list(v.x) + list(v.y) + v.tank_literals()


def value_reader(values) -> Callable[[object], int]:
    """`value(var)` for a full solution vector (works for literals and variables)."""
    def value(var) -> int:
        return values[var.Index()]
    return value


def complete_assignment(built: StaticModel, layout: Layout, time_limit: float = 10.0) -> list[int] | None:
    """Every variable's value for `layout`, found by fixing a copy of the model to it.

    Used to give CP-SAT a complete hint; None if the model rejects the layout.
    Raises ValueError when the layout uses something the model has no variable for.
    """
    ones, rest = layout_literals(built.vars, layout)
    return solve_with_fixed(built.model, ones, rest, time_limit)


def solve_with_fixed(model: cp_model.CpModel, ones: list, rest: list, time_limit: float = 10.0) -> list[int] | None:
    """Every variable's value once `ones` are fixed to 1 and `rest` to 0 in a copy of `model`; None if infeasible."""
    clone = model.Clone()
    for lits, value in ((ones, 1), (rest, 0)):
        for lit in lits:
            clone.Add(clone.GetIntVarFromProtoIndex(lit.Index()) == value)
    solver = cp_model.CpSolver()
    solver_parameters(solver, time_limit, 1, 0)
    status = solver.Solve(clone)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return list(solver.ResponseProto().solution)


def _hint(built: StaticModel, pairs) -> None:
    model = built.model
    model.ClearHints()
    for index, value in pairs:
        model.AddHint(model.GetIntVarFromProtoIndex(index), value)


def set_hint(built: StaticModel, values: list[int]) -> None:
    """A complete hint: one value for every variable."""
    _hint(built, enumerate(values))


def empty_hint(built: StaticModel) -> None:
    """Hint "no tiles at all" (machines left free) when there is no starting layout.

    Used on hex boards: with 57 pipe pieces per hex, CP-SAT's first solutions
    carry dozens of junk pipes that its LNS removes only slowly; starting from no
    tiles it reached the optimum of FN05+FN27 in 1.8 s instead of 9.3 s. Not
    measured on square boards, so not used there (their results stay as they were).
    """
    _hint(built, [(lit.Index(), 0) for lit in list(built.vars.y) + built.vars.tank_literals()])


def partial_hint(built: StaticModel, layout: Layout) -> None:
    """Hint only the tiles and machines of `layout` (the rest is left to the solver)."""
    try:
        ones, rest = layout_literals(built.vars, layout)
    except ValueError:
        return
    _hint(built, [(lit.Index(), 1) for lit in ones] + [(lit.Index(), 0) for lit in rest])
