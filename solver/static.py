"""`solve_static`: the most profitable (or cheapest) legal factory for a set of machines.

Order of work: cheap infeasibility reasons, the geometry-free bound (which also
orders the machines), the CP-SAT model, a complete starting layout (the caller's
hint, else the best of many combinatorial sketches, else the CP-SAT greedy
construction); for up to 6 machines the relaxation with whole groups' cuts and
its arrangement laid on the board (solver/relaxed_starts.py), for 7-10 that
relaxation in a process beside the walks (solver/background.py); the main search,
then the decomposition prover of solver/prove.py (for up to 6 machines a few
points under the bound, after a short search; for 7-10 machines a tenth of the
time after rounds of fresh walks) and the rest of the main search; finally
pruning and the rule checker, which must agree with the model.
"""
from __future__ import annotations

import itertools
import math
import signal
import time
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator

from models.board import Board
from models.catalog import Catalog
from models.check import CheckResult, check_layout
from models.layout import Layout
from models.rulesets import Ruleset

from .background import Background
from .bounds import TopologyBound, infeasibility_reason, relaxed_topologies, topology_bound
from .triangle_cuts import supported as triangles_supported
from .construct import greedy_layout
from .fixed_part import fixed_part_moved, fixed_part_reason
from .extract import checked_layout, empty_layout, layout_from_values, prune
from .first_layout import Schedule, Start, sketch_and_improve
from .sketch import ranked, ranking
from .model import OBJECTIVES, StaticModel, add_objective_bound, build_static_model, fix_to_layout
from .prove import ProofOutcome, prove_bound
from .relaxed_starts import relaxed_layouts
from .search import Interrupt, Progress, complete_assignment, empty_hint, partial_hint, run, set_hint, value_reader

#: share of the time limit (and its cap in seconds) spent on combinatorial sketches of a first
#: layout, for small sets and for sets of SKETCH_MANY or more machines; on 6-10 machines
#: the best of many sketches beat 60 s of CP-SAT from one (classic-A n8/s0: 91 in 4 s vs 86)
SKETCH_SMALL = (0.05, 3.0)
SKETCH_LARGE = (0.2, 60.0)
SKETCH_MANY = 6
#: ... and from this many machines where the triangle cuts do not reach (hex): no bound there comes near the
#: optimum, so nothing is proved and the moves are the search's best hope. 9 random Funner sets of 3-5
#: machines, 20 s, one worker: moves from 3 machines ended higher on 8 (by 2-6 points) and equal on the
#: ninth; FN45,FN16,FN46,FN10,FN06 32 / 29 / 30 -> 34 / 38 / 32 on seeds 0-2
SKETCH_MANY_UNBOUNDED = 3
#: share of the time limit (and cap) for ruin-and-recreate moves on the best sketch (solver/sketch/improve.py),
#: how an INFEASIBLE explanation starts when the `fixed` part can never be kept (`puzzle` words it its own way)
FIXED_UNKEEPABLE = "the fixed layout cannot be kept"
#: profit objective, SKETCH_MANY or more machines, nothing fixed; it gains most in its first 20 s
#: (classic-A n8/s0 from 87: 93-94 after 20 s on five seeds; CP-SAT from 87 stood at 88 after 48 s)
IMPROVE = (0.3, 60.0)
#: no walk has a legal sketch after this many seconds, or after the sketch phase if that is longer: fall
#: back to the CP-SAT greedy construction (5 s alone before: classic-A and classic-C
#: FF01,FF03,FF07,FF15,FF18,FF21,FF25,FF33,FF39,FF45 got no layout at all in 300 s, where one walk's first
#: legal sketch comes after about 20 s)
SKETCH_GIVE_UP = 5.0
#: sets walking in rounds from the start (7-10 machines; Funner's 3-6) whose first walks found no sketch walk
#: again with new seeds up to this share of the time:
#: classic-A / classic-C FF01,FF03,FF07,FF15,FF18,FF21,FF25,FF33,FF39,FF45 at 20 s ended with no layout on
#: seeds 1 / 2 (its first walks' sketches all failed for 10 s), where other seeds sketch in 0.3-1.4 s
SKETCH_RETRY = 0.6
#: --optional sets whose walks lay no sketch of every machine walk again without the feeding order's last
#: machine, then the two before it, ...: the first walk gives up after this share of the time (at least
#: SKETCH_GIVE_UP_FLOOR seconds), and after the second share only one machine is left
FEWER = (0.25, 0.7)
#: --optional sets of more than OPTIONAL_WHOLE machines walk first with the relaxation's best OPTIONAL_MOST, picked
#: in PICK[0] of the time limit, from PICK[1] to PICK[2] seconds (`_optional_pick`: in half a second the
#: relaxation of the 55 square machines picks five, in one ten)
OPTIONAL_WHOLE, OPTIONAL_MOST, PICK = 12, 10, (0.1, 0.5, 2.0)
#: ... but only OPTIONAL_MOST_SHORT under OPTIONAL_SHORT seconds: the sketches of ten need 2-3 s to lay them, and
#: shorter walks leave machines out one by one (all 55 on classic-A, seeds 0-1, one worker, idle: at 5 s ten gave
#: 9 / 9 (one machine), eight 74 / 68; at 10 s 66 / 68 against 86 / 78; at 30 s ten gave 112 / 100, eight 77 / 66)
OPTIONAL_MOST_SHORT, OPTIONAL_SHORT = 8, 20.0
SKETCH_GIVE_UP_FLOOR = 1.0
#: a first layout becomes CP-SAT's hint only while this many seconds are left for CP-SAT to search from it: the
#: hint takes seconds on a big model (55 optional machines with both cores busy: 2.1 s, and a 5 s solve ended at
#: 8.9 s); without it the layout is checked and kept as it is
HINT_LEAST = 1.0
#: CP-SAT's model takes about cells x (MODEL_MS_PER_CELL[0] + MODEL_MS_PER_CELL[1] x machines) ms to build
#: (`model_seconds`); a solve whose model would take more than MODEL_SHARE of its time, and over MODEL_FLOOR s,
#: walks alone: no printed board comes near (9 x 9 and ten machines: 0.3 s). A model costs several times its
#: build: six machines on a 40 x 40 board built in 5.5 s, each complete hint took 6 s and CP-SAT's last run
#: ended 8 s past the deadline (a 60 s solve: 65-69 s at 54, walks alone 60 on time; 120 s: 49 at 126.6 s)
MODEL_MS_PER_CELL = (1.7, 0.37)
MODEL_SHARE = 0.05
MODEL_FLOOR = 1.0
#: seconds of a walks-alone solve left for the walks to end (each finishes its sketch or move) and the answer
WALKS_ALONE_RESERVE = 0.5
#: the decomposition prover (solver/prove.py) runs for sets up to this size ...
PROVE_MAX_MACHINES = 6
#: ... when the best layout is at most this many points below the bound (5 before growth got fast: a
#: 300 s solve of classic-A FF28,FF30,FF42,FF45 with seed 4002 found 24 against 30 and never proved;
#: with 8 the prover takes the bound to 27 in 60 s; 20 since blocks go first: a target far above the
#: best costs seconds (classic-A FF01,FF12,FF22,FF36,FF47,FF48, best 64: `prove_bound` alone takes the
#: geometry-free 77 to 73 in 65 s; FF08,FF12,FF34,FF40,FF42,FF50, best 78: 97 to 94 in 80 s), and a
#: proved bound is worth more than the search's last few minutes, which rarely improve such sets)
PROVE_MAX_POINTS = 20
#: larger sets, up to this many machines, get the prover for a while in the last share of the time,
#: whatever the gap: their first targets fell in seconds before the tree cuts (classic-A
#: FF09,FF15,FF26,FF32,FF36,FF38,FF42,FF50, best 90: `prove_bound` alone took the geometry-free 103 to 100 in
#: 18 s; FF04,...,FF50, best 101: 121 to 118 in 13 s)
PROVE_LATE_MACHINES = 10
#: ... from this share of the time limit. Until then their walks run in rounds (WALK_ROUND), the first one
#: included, with no CP-SAT search between: no best layout of the 300 s benchmark rows of 8 and 10 machines
#: came from CP-SAT (twenty-third and twenty-fourth sessions), and a round finds its best early, so the time
#: buys new sketches (twenty-fifth session: 8 machines about even, 10 machines 102 / 103 / 72 -> 104 / 104 / 72)
PROVE_LATE_SHARE = 0.5
#: ... but only for this share of the time limit; fresh walks get the rest. With the tree cuts the relaxation
#: already holds what the prover reached: in the twenty-third session's 300 s runs (35 % of the time for the
#: prover) no bound of the nine 8-machine and three 10-machine classic-A rows moved below the relaxation's,
#: and no best came after 112 s, while fresh walks find other layouts (classic-C n8/s0: one walk of 300 s
#: stood at 100 from 64 s; rounds of 10 s of sketches and 40 s of moves gave 100, 100, 97, 101)
PROVE_LATE_PROBE = 0.1
#: a prover that starts more than this many points under the bound gets the time only up to this share of
#: the limit, and fresh walks get the rest: it narrows such gaps in its first minute and then stalls on
#: growth it cannot finish (classic-A FF01,FF12,FF22,FF36,FF47,FF48, best 64: 77 -> 73 in 65 s, then no
#: target in 230 s), while the best layout of a 6-machine set depends on the luck of its sketches (classic-A
#: FF08,FF12,FF34,FF40,FF42,FF50: 78-81, classic-C 77-83 over two runs each). The 6-machine proofs that
#: succeed start 1 point under the bound and the 4-machine ones at most 6, so they keep the whole time.
PROVE_FAR = (6, 0.5)
#: fresh walks after a capped proof need at least this many seconds, and take another seed than the first ones
WALK_AGAIN_SECONDS = 10.0
WALK_AGAIN_SEED = 7919
#: they come in rounds, each new sketches (share of the time limit, cap in seconds) then moves from the best:
#: a walk's moves stall within about a minute (classic-C n8/s0: 100 at 64 s, then nothing in 236 s), so the
#: time buys new starts; the last share of the time is left to the CP-SAT search from the best layout
WALK_ROUND = ((1 / 30, 10.0), (2 / 15, 40.0))
WALK_AGAIN_RESERVE = 0.05
#: sets that walk throughout leave CP-SAT this share of the time at the end (other sizes: WALK_AGAIN_RESERVE);
#: three machines half of it: of 11 random Funner triples (20 s, one worker) two ended a point higher (one of
#: them proved) and none lower, and QA's FN34,FN48,FN27 is proved at 20 where the walks stopped at 19; for 4-6
#: machines half the time cost one of 9 random sets 5 points and moved none up
THROUGHOUT_RESERVE = {3: 0.5}
#: a round's moves stop once no walk of it has improved for max(seconds, share of the time limit): rounds
#: find their best early (classic-C n8/s0 and set 1 of 8 machines, 10 s of sketches then 40 s of moves:
#: the best at 6-22 s into the round), so the rest of the moves buys fewer new starts
ROUND_STALL = (10.0, 1 / 30)
#: share of the time the main search gets first when the prover may follow (0.4 before: classic-A and
#: expert-B FF16,FF27,FF30,FF46 were proved at 38 s, now at 27-29 s; the 4-machine sets that stay
#: unproved end at the same scores and bounds)
MAIN_SHARE = 0.2
#: ... and it hands over sooner, once its best layout has stood max(seconds, share x time limit)
#: unimproved: the 4-machine sets find their best in about a second and the prover needed the rest.
#: The sketches and ruin-and-recreate moves before it stop on the same stall (classic-A n6/s0: best 70
#: at 0.4 s, then 120 s of sketches and moves before the prover could start)
STALL = (3.0, 0.05)
#: the phases after the sketches (ruin-and-recreate moves, CP-SAT from the best) stop on this share of
#: that stall, at least STALL[0]: each waited the whole stall again, and classic-A n6/s0 at 300 s
#: (best 70 at 1.1 s) handed over at 46 s and missed its proof by about 20 s
LATER_STALL_SHARE = 1 / 3
#: separating the triangle cuts gets at most this many seconds, and this share of what is left
#: (classic-A: 1.2-3.9 s for the 6-machine benchmark sets, 1.2-2.6 s for the 8-machine ones but 14 s for
#: n8/s0, whose rigid cluster needs the tree cuts' bigger tables, 1.1-7.5 s for the 10-machine ones)
TRIANGLE_SECONDS, TRIANGLE_SHARE = 20.0, 0.1
#: the relaxation without them (it was always given this long), but at most this share of a short solve's
#: time (QA: a 3 s solve of six machines spent 2 s in its first bound before any layout, and ended at 4.5 s)
BOUND_SECONDS, BOUND_SHARE = 5.0, 0.3
#: sets of up to this many machines get the triangle cuts before the first walks (at most 2.3 s on the
#: benchmark's 6-machine sets), so a walk reaching the bound stops there; larger sets get them after
TRIANGLES_FIRST = 6
#: sets of this many machines get, after the first walks, the relaxation with the tree cuts of whole
#: groups of machines (solver/bounds.py `joined`: 11-12 s on the 6-machine benchmark sets, seconds each on
#: 8 machines with nothing gained in 60 s), and the relaxation's arrangement laid on the board. On 3-4
#: machines the walks miss some optima the laid arrangement finds at once (classic-A FF19,FF28,FF42: walks 19-21,
#: laid 23 in under a second, proved at 3.9 s where one worker ended FEASIBLE at 30 s). Pairs too, since it
#: is skipped once the walks meet the bound (most pairs) and capped at LAID_SMALL: of 45 random classic-A
#: pairs (60 s, 2 workers), FF06,FF36 ended FEASIBLE 19 against 20 (walks 19, CP-SAT alone finds 20 only
#: now and then), laid 20 at 6 s and proved at 28 s; the other 44 ended as before
JOINED_MACHINES = (2, 6)
#: share of the time limit and cap in seconds for that relaxation, and for the layouts laid from it
JOINED = (0.1, 30.0)
LAID = (0.1, 20.0)
#: ... at most this many seconds on 3-4 machines, where what it finds comes in under a second and a
#: bound one point above the optimum made it search its whole 20 s (classic-A n4/s0: proved at 27 s, not 10)
LAID_SMALL = (4, 3.0)
#: ... where each of the two (the fed patterns, then their layouts) may take this share of the time limit:
#: both end as soon as they are done, and a short share cut them off on a busy machine. The cheapest build of
#: classic-A FF40,FF12,FF07 (10) is laid only from the second pattern, which came at 0.8 s of the 1.5 s a 15 s
#: solve gave the patterns, idle; CI once ended FEASIBLE 11-12 there
SMALL_SHARE = 0.25
#: fed patterns whose relaxation is laid on the board (the bound's, then the next best ones)
TOPOLOGIES = 3
#: sets of this many machines get the relaxation with whole groups' cuts in a forked process beside the
#: walks (solver/background.py), from after the first walk until the rounds end: from the triangle cuts'
#: pool, classic-A n8/s0 112 -> 111 in 35 s of one core (done at 69 s), n8/s1 123 -> 122 in 60 s
JOINED_BESIDE = (7, 10)
#: seconds the solve waits at most, at the end of the rounds, for that relaxation to send its bound
JOINED_WAIT = 3.0
#: an INFEASIBLE answer checks each machine alone for this long at most (to name one that cannot be
#: connected at all), within what is left of the time limit; under ALONE_LEAST each it is not tried
ALONE_SECONDS, ALONE_LEAST = 5.0, 0.5


@dataclass
class StaticResult:
    status: str                          # OPTIMAL | FEASIBLE | INFEASIBLE | UNKNOWN
    layout: Layout | None
    objective: int | None                # profit (static score) or build cost, per `objective_kind`
    bound: float | None                  # best proved bound on that objective
    gap: float | None                    # relative_gap(objective, bound)
    seconds: float
    build_seconds: float
    first_solution_seconds: float | None
    best_solution_seconds: float | None
    explanation: str = ""
    objective_kind: str = "profit"
    check: CheckResult | None = None
    topology_bound: int | None = None
    stop_signal: int | None = None       # the Ctrl-C or SIGTERM that stopped the solve (a generator passes it on)

    @property
    def interrupted(self) -> bool:
        return self.stop_signal is not None

    @property
    def proved(self) -> bool:
        return self.status == "OPTIMAL"


def relative_gap(objective: float | None, bound: float | None) -> float | None:
    """|bound - best| over the larger of the two, as the issue measures a profit's gap ((bound - best) / bound;
    the bound is the larger): a cost's bound is the smaller, and over it a gap read 114 % (QA: best 15, bound
    7); never divides by 0."""
    if objective is None or bound is None:
        return None
    return abs(bound - objective) / max(1.0, abs(bound), abs(objective))


def _validate(catalog: Catalog, machine_ids: list[str], fixed: Layout | None) -> list[str]:
    ids: list[str] = []
    for m in machine_ids:
        if m not in catalog:
            raise ValueError(f"unknown machine id {m!r}")
        if m in ids:
            raise ValueError(f"machine {m} is listed twice")
        ids.append(m)
    if fixed is not None:
        ids += [m.id for m in fixed.machines if m.id not in ids]
    return ids


def _objective_of(check: CheckResult, objective: str) -> int:
    return check.score.cost if objective == "cost" else check.score.total


def _better(a: int, b: int, objective: str) -> bool:
    return a < b if objective == "cost" else a > b


def _explain_infeasible(
    ruleset: Ruleset, board: Board, catalog: Catalog, ids: list[str], fixed: Layout | None, diagonal: bool,
    seconds: float,
) -> str:
    """Name a machine that cannot be connected even alone, else say the set does not fit together.

    The checks share what is left of the time limit (at most 5 s each): with 5 s
    each regardless, a 2 s solve of three machines that a fixed part made
    impossible ran 16 s.
    """
    each = min(ALONE_SECONDS, seconds / max(1, len(ids)))
    if len(ids) > 1 and each >= ALONE_LEAST:
        for m in ids:
            alone = build_static_model(ruleset, board, catalog, [m], objective="cost", diagonal=diagonal)
            if run(alone, each, workers=1).status == "INFEASIBLE":
                return f"machine {m} cannot be placed and connected on board {board.id}, even alone"
    where = " with the fixed part of the layout kept where it is" if fixed is not None else ""
    return (f"machines {', '.join(ids)} cannot all be placed and connected on board {board.id}{where}: "
            "there is not enough room for their ports, containers, reservoirs and pipes (proved by the solver)")


def solve_static(
    ruleset: Ruleset, board: Board, catalog: Catalog, machine_ids: list[str], objective: str = "profit",
    optional: bool = False, time_limit: float = 60.0, workers: int = 2, seed: int = 0,
    hint: Layout | None = None, fixed: Layout | None = None, diagonal: bool = False,
    progress: Progress | None = None, greedy: bool | None = None, presolve: bool = True, log: bool = False,
    soft_limits: bool = True,
) -> StaticResult:
    """Best legal layout of `machine_ids` on `board`, proved optimal or with bound and gap.

    objective='profit' maximises the static score with every machine placed;
    'cost' minimises the build cost (chain bonus ignored); optional=True lets
    machines stay out (profit only). `fixed` machines and tiles stay where they
    are; `hint` is a complete starting layout. greedy=None builds a greedy
    starting layout (sketches) when there is no hint, for any number of machines
    (with one or two machines CP-SAT alone once found nothing for one worker).
    soft_limits=True searches with penalised excess supply containers and keeps
    only legal incumbents (much faster to a first legal layout; same bound).
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r} (known: {', '.join(OBJECTIVES)})")
    start = time.monotonic()
    ids = _validate(catalog, list(machine_ids), fixed)
    must_place = ids if not optional else ([m.id for m in fixed.machines] if fixed is not None else [])

    def result(status: str, **kw) -> StaticResult:
        base = dict(layout=None, objective=None, bound=None, gap=None, seconds=time.monotonic() - start,
                    build_seconds=0.0, first_solution_seconds=None, best_solution_seconds=None,
                    objective_kind=objective)
        base.update(kw)
        return StaticResult(status, **base)

    reason = infeasibility_reason(ruleset, board, catalog, must_place) if must_place else None
    if not reason and fixed is not None:
        unkeepable = fixed_part_reason(fixed, catalog, ids, must_place)
        reason = f"{FIXED_UNKEEPABLE}: {unkeepable}" if unkeepable else None
    if reason:
        return result("INFEASIBLE", explanation=reason)
    many = optional and len(ids) > OPTIONAL_WHOLE
    # more than OPTIONAL_WHOLE optional machines: the board's area binds their relaxation (fewer machines fit with
    # room to spare: it would only turn the relaxation's ties)
    area = len(board.cells) if many else None
    # the start-up answers Ctrl-C too: it may take seconds (QA: an interrupt in the first 3-6 s of a 6-machine solve
    # printed "interrupted" and nothing else, where the README promises "no layout yet")
    with Interrupt() as starting:
        topo: TopologyBound | None = starting.abortable(
            lambda: _first_bound(ruleset, catalog, ids, objective, optional, time_limit, diagonal, many, area), None)
        if topo is not None and topo.infeasible:
            return result("INFEASIBLE", explanation="the machines cannot be connected in any arrangement")
        # the walks of so many start from the relaxation's pick, and CP-SAT models only it: all 55 square machines'
        # model took 3.4 s and its hint 2.1 s with both cores busy, and a 5 s solve ended at 8.9 s
        staying = [m.id for m in fixed.machines] if fixed is not None else []
        picked = (starting.abortable(lambda: _optional_pick(ruleset, catalog, ids, time_limit, topo.order, staying,
                                                            area), None) if many and topo is not None else None)
        t0 = time.monotonic()
        # a board too big to model in the time is walked alone (QA: a 3 s solve of six machines on a 40 x 40
        # custom board ended at 10.6 s, 5.7 s of it building the model)
        modelled = topo is None or not model_too_dear(board, len(picked or ids), time_limit)
        built: StaticModel | None = None if topo is None or not modelled else starting.abortable(
            lambda: build_static_model(ruleset, board, catalog, picked or ids, objective=objective,
                                       optional=optional and objective == "profit", diagonal=diagonal,
                                       soft_limits=soft_limits), None)
    if topo is None or (built is None and modelled) or (many and picked is None):
        return result("UNKNOWN", stop_signal=starting.signum or signal.SIGINT,
                      explanation="no legal layout found before the interrupt")
    exact = True   # the model holds every legal layout of the solve (see fix_to_layout)
    if fixed is not None and built is not None:
        try:
            exact = fix_to_layout(built, fixed, complete=False)
        except ValueError as exc:
            return result("INFEASIBLE", explanation=f"{FIXED_UNKEEPABLE}: {exc}")
    if topo.value is not None and built is not None:
        add_objective_bound(built, topo.value)
    build_seconds = time.monotonic() - t0

    with Interrupt() as interrupt, ExitStack() as beside:
        solving = _Solve(ruleset, board, catalog, ids, must_place, objective, optional, time_limit, workers, seed, hint,
                         fixed, diagonal, progress, presolve, log, start, topo, built, area, picked,
                         exact and picked is None, interrupt, beside,
                         _phases(ruleset, ids, objective, optional, time_limit, hint, fixed, greedy))
        track, relaxed = solving.search() if built is not None else (solving.walks_alone(), topo.value)
        if track is None:
            return result("INFEASIBLE", build_seconds=build_seconds, stop_signal=interrupt.signum,
                          explanation=_explain_infeasible(ruleset, board, catalog, ids, fixed, diagonal,
                                                          solving.deadline - time.monotonic()))
        stopped = interrupt.signum

    best, bound, status = track.best, _whole(track.bound, objective), ("OPTIMAL" if track.optimal else "UNKNOWN")
    modelling = model_seconds(board, len(picked or ids))
    unmodelled = None if modelled else (f"the board's {len(board.cells)} cells take about {modelling:.0f} s to "
                                        "model: walks alone, with no search to prove a bound (CP-SAT joins from "
                                        f"--time-limit {math.ceil(modelling / MODEL_SHARE)})")
    if best is None:
        return result("UNKNOWN", bound=bound, build_seconds=build_seconds, stop_signal=stopped,
                      topology_bound=relaxed,
                      explanation="no legal layout found before the interrupt" if stopped is not None
                      else "no legal layout found within the time limit" + (f" ({unmodelled})" if unmodelled else ""))
    value = _objective_of(best[1], objective)
    if bound is not None and _better(value, round(bound), objective):  # (value is whole, as is any proved bound)
        # a legal layout beyond a proved bound means the bound was never proved: say so, never report it
        raise AssertionError(f"internal error: a legal layout scores {value}, beyond the proved bound {bound}")
    if status != "OPTIMAL":
        status = "OPTIMAL" if bound is not None and value == round(bound) else "FEASIBLE"
    if status == "OPTIMAL":
        bound = value
    return result(status, layout=best[0], objective=value, bound=bound, gap=relative_gap(value, bound),
                  build_seconds=build_seconds, first_solution_seconds=track.first_seconds,
                  best_solution_seconds=track.best_seconds, check=best[1], topology_bound=relaxed,
                  stop_signal=stopped, explanation=unmodelled if status != "OPTIMAL" else None)


def model_seconds(board: Board, machines: int) -> float:
    """About how long CP-SAT's model of `machines` takes to build on `board`: linear in its cells (2026-12-06,
    this machine: square 9 x 9 0.15-0.27 s, 20 x 20 1.1-1.8 s, 40 x 40 3.9-8.5 s for 2-10 machines)."""
    per_cell, per_machine = MODEL_MS_PER_CELL
    return len(board.cells) * (per_cell + per_machine * machines) / 1000.0


def model_too_dear(board: Board, machines: int, time_limit: float) -> bool:
    """The model would take more than MODEL_SHARE of the time (and over MODEL_FLOOR s: never a printed board)."""
    return model_seconds(board, machines) > max(MODEL_FLOOR, MODEL_SHARE * time_limit)


def _first_bound(ruleset: Ruleset, catalog: Catalog, ids: list[str], objective: str, optional: bool,
                 time_limit: float, diagonal: bool, many: bool, area: int | None) -> TopologyBound:
    """The relaxation's first bound and feeding order. Small sets get the triangle cuts at once (a bound that
    meets the first walks' best ends them); more than OPTIONAL_WHOLE optional machines get a short one without the
    pair cuts (55 machines: 7.6 s of tables), since their bound is far above any layout whatever it is given."""
    early = len(ids) <= TRIANGLES_FIRST
    return topology_bound(ruleset, catalog, ids, objective, optional and objective == "profit",
                          time_limit=_pick_seconds(time_limit) if many else
                          min(BOUND_SECONDS, BOUND_SHARE * time_limit)
                          + (_triangle_seconds(time_limit) if early else 0.0),
                          pair_cuts=not diagonal and not many, triangles=early, cells=area)


@dataclass(frozen=True)
class _Phases:
    """Which phases one solve runs, decided before any search from the set's size, the objective and the options."""
    sketches: bool                # a first layout from walks (else the caller's hint or CP-SAT alone)
    provable: bool                # the decomposition prover may close the gap (cheapest builds through profit)
    proved_late: bool             # 7-10 machines: rounds of walks first, the prover for a while after
    stall: float | None           # a phase hands over once its best has stood this long
    later_stall: float | None     # ... the phases after the sketches, on a share of it
    moves: bool                   # ruin-and-recreate moves after the sketches
    fresh_walks: bool             # rounds of fresh walks may take time from the main search and a capped proof
    walks_throughout: bool        # rounds of walks until the last THROUGHOUT_RESERVE of the time
    prove_points: float | None    # how far under the bound the best may be for the prover to run; None: never
    rounds_first: bool            # walks in rounds from the start


def _phases(ruleset: Ruleset, ids: list[str], objective: str, optional: bool, time_limit: float,
            hint: Layout | None, fixed: Layout | None, greedy: bool | None) -> _Phases:
    sketches = greedy is not False   # sketches unless told not (None or True)
    # (a cheapest build is proved as the best profit of a game without chain bonus: `_prove`)
    provable = not optional and len(ids) <= PROVE_MAX_MACHINES
    proved_late = (objective == "profit" and not optional and fixed is None
                   and PROVE_MAX_MACHINES < len(ids) <= PROVE_LATE_MACHINES)
    stall = max(STALL[0], STALL[1] * time_limit) if provable else None
    unbounded = not square_strategy(ruleset)   # (hex: the bound stays further from the optimum, `square_strategy`)
    moves = (objective == "profit" and fixed is None
             and len(ids) >= (SKETCH_MANY_UNBOUNDED if unbounded else SKETCH_MANY))
    fresh_walks = sketches and hint is None and fixed is None
    # 3-6 hex machines, where the prover proves little (its hex blocks are CP-SAT models: growth does not know
    # one-sided tanks), walk in rounds of fresh sketches and moves until the last THROUGHOUT_RESERVE of the time, with
    # no prover and no main CP-SAT search before: 9 random Funner sets of 3-6 machines (20 s, one worker) ended
    # at 49 / 53 against 38 / 52 on two, the same on seven; one bound a point higher (CP-SAT had lowered it)
    walks_throughout = unbounded and moves and fresh_walks and not optional and not proved_late
    return _Phases(
        sketches=sketches, provable=provable, proved_late=proved_late, stall=stall,
        later_stall=max(STALL[0], LATER_STALL_SHARE * stall) if stall is not None else None,
        moves=moves, fresh_walks=fresh_walks, walks_throughout=walks_throughout,
        prove_points=(None if walks_throughout else PROVE_MAX_POINTS if provable
                      else math.inf if proved_late else None),
        rounds_first=(proved_late or walks_throughout) and fresh_walks)


@dataclass
class _FirstLayout:
    """Where a solve starts: a complete layout (hint, walks' best or greedy construction), the sketch the walks'
    moves grew it from, and when the walks' first and best layouts came (seconds into the solve)."""
    layout: Layout | None = None
    sketch: Layout | None = None
    first_at: float | None = None
    best_at: float | None = None


@dataclass
class _Solve:
    """One solve after its start-up: its inputs, clock, model and first bound, and the phases that share them."""
    ruleset: Ruleset
    board: Board
    catalog: Catalog
    ids: list[str]
    must_place: list[str]
    objective: str
    optional: bool
    time_limit: float
    workers: int
    seed: int
    hint: Layout | None
    fixed: Layout | None
    diagonal: bool
    progress: Progress | None
    presolve: bool
    log: bool
    start: float
    topo: TopologyBound
    built: StaticModel | None     # None: the board is too big to model in the time (walks_alone)
    area: int | None
    picked: list[str] | None       # more than OPTIONAL_WHOLE optional machines: the relaxation's pick, CP-SAT's model
    #: CP-SAT's model (and the prover's) holds every legal layout of the solve: not so for a pick, nor for a fixed
    #: tank the model must give flow (fix_to_layout); their bounds, optima and infeasibility then count for nothing
    model_whole: bool
    interrupt: Interrupt
    beside: ExitStack
    phases: _Phases
    walked: float = -math.inf     # the best score any walk reported
    #: the rounds' seeds: seed + k x WALK_AGAIN_SEED, never one twice
    rounds: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def deadline(self) -> float:
        return self.start + self.time_limit

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def report(self, best: float, bound: float | None, at: float | None = None) -> None:
        """A progress line (best, bound, seconds into the solve: now unless `at`)."""
        if self.progress is not None:
            self.progress(float(best), float(bound or 0), self.elapsed() if at is None else at)

    def walk(self, schedule: Schedule, walk_seed: int, on_better: Callable[[int, float], None],
             machines: list[str] | None = None) -> Start:
        """Sketches then moves of `machines` (every machine by default, in the relaxation's feeding order)."""
        machines = self.ids if machines is None else machines

        def better(score: int, at: float) -> None:
            self.walked = max(self.walked, score)
            on_better(score, at)

        # a walk that reaches the relaxation's bound has found an optimum: nothing to wait for
        bound = self.topo.value
        at_bound = (lambda: False) if self.objective != "profit" or bound is None else (
            lambda: self.walked >= bound)
        return sketch_and_improve(self.ruleset, self.board, self.catalog, machines, schedule, self.workers, walk_seed,
                                  fixed=self.fixed,
                                  order=[m for m in self.topo.order if m in machines] if machines is self.ids
                                  else machines,
                                  interrupted=lambda: self.interrupt.flag or at_bound(), on_better=better,
                                  worth=ranking(self.objective))

    def search(self) -> tuple[_Track | None, int | None]:
        """Every phase after start-up, in order: the best layout and bound (None: proved infeasible), and the
        relaxation's bound with the triangle cuts."""
        first = _FirstLayout(layout=self.hint)
        if first.layout is None and self.phases.sketches:
            first = self._walked_first()
        if first.layout is None and self.phases.sketches:
            first = self._constructed_first()
        hinted = bool(self.built.model.Proto().solution_hint.vars)
        if first.layout is None and self.ruleset.geometry.name == "hex" and not hinted:
            empty_hint(self.built)
        best, first_seconds = self._hinted(first)
        relaxed = self.topo.value if len(self.ids) <= TRIANGLES_FIRST or self.diagonal else self.interrupt.abortable(
            lambda: _tightened_by_triangles(self.ruleset, self.catalog, self.ids, self.objective, self.optional,
                                            self.topo.value, self.deadline - time.monotonic(), self.area),
            self.topo.value)
        if relaxed is not None and relaxed != self.topo.value:
            add_objective_bound(self.built, relaxed)
        track = _Track(self.objective, relaxed, first_seconds, best,
                       best_seconds=first.best_at if best is not None and first.best_at is not None else first_seconds,
                       model_whole=self.model_whole)
        if first.layout is not None and (best is None or first.layout is not first.sketch):
            # the walks' best, even when CP-SAT could only take the sketch it grew from as its hint
            _keep_legal(track, first.layout, first.best_at if first.best_at is not None else self.elapsed(),
                        self.ids, self.must_place, self.fixed)
            if best is None and track.best is not None and first.best_at is None:   # (the walks reported theirs)
                self.report(track.value(), self.topo.value)
        if relaxed is not None and relaxed != self.topo.value and track.best is not None:
            self.report(track.value(), relaxed)
        self._offer_nothing(track)
        self._improve(track)
        return (None if track.infeasible else track), relaxed

    def walks_alone(self) -> _Track:
        """The walks' best layout, with no CP-SAT model (a board too big to model in the time), under the
        relaxation's bound: optimal only where it meets that bound."""
        def sketched(score: int, at: float) -> None:
            self.report(ranked(score, self.objective), self.topo.value, at - self.start)

        def walked(machines: list[str], share: float, moves: bool = True, seed: int = self.seed) -> Start:
            # the time from now: a sketch on so big a board takes seconds, and the phases' usual schedules count
            # from the start of a solve whose start-up took several (QA: a 10 s solve ended at 18.3 s)
            left = share * max(0.0, self.deadline - time.monotonic() - WALKS_ALONE_RESERVE)
            moves = moves and self.objective == "profit" and len(machines) >= SKETCH_MANY_UNBOUNDED
            return self.walk(Schedule(left / 2 if moves else left, left, left / 2 if moves else 0.0), seed,
                             sketched, machines)

        fewer = self.optional and self.objective == "profit"
        machines = self.picked or [m for m in self.topo.order if m in self.ids]
        walks = walked(machines, 0.5 if fewer else 1.0)
        if walks.layout is None and not fewer and not self.interrupt.flag:
            # no sketch, so the moves' half of the time was left unused: sketch on in it, from other seeds (QA: six
            # machines on a 40 x 40 board ended UNKNOWN at 7.2 s of 15, "no layout within the time limit")
            walks = walked(machines, 1.0, moves=False, seed=self.seed + next(self.rounds) * WALK_AGAIN_SEED)
        staying = self.staying
        while fewer and walks.layout is None and len(machines) > len(staying) + 1 and not self.interrupt.flag:
            # --optional: half the machines, in feeding order, for half the time left (QA: 20 machines on a
            # 40 x 40 board answered the empty board at 6 s, where one machine alone earns 10)
            free = [m for m in machines if m not in staying]
            machines = staying + free[:len(free) // 2]
            walks = walked(machines, 0.5 if len(free) // 2 > 1 else 1.0)
        track = _Track(self.objective, self.topo.value, None, None, model_whole=False)
        if walks.layout is not None:
            _keep_legal(track, walks.layout, self.elapsed(), self.ids, self.must_place, self.fixed)
        self._offer_nothing(track)
        return track

    def _offer_nothing(self, track: _Track) -> None:
        """An optional profit solve may leave every machine out but the fixed part's: the empty board (0), or the
        fixed part alone where it is legal so, is an answer no other may score below (one CP-SAT worker alone
        once answered -69 for FF39 --optional; QA: a legal Funner layout of three machines fixed, FN16 optional
        beside it, ended UNKNOWN, as no sketch could add FN16)."""
        if not (self.optional and self.objective == "profit"):
            return
        if self.fixed is None:
            track.offer(checked_layout(empty_layout(self.ruleset, self.board, self.catalog, self.diagonal)),
                        self.elapsed())
        else:
            _keep_legal(track, self.fixed, self.elapsed(), self.ids, self.must_place, self.fixed)

    @property
    def staying(self) -> list[str]:
        """The fixed part's machines: in every walk, however few machines it lays."""
        return [m.id for m in self.fixed.machines] if self.fixed is not None else []

    def _walked_first(self) -> _FirstLayout:
        """The walks' best layout; --optional sets that no sketch lays whole walk again with fewer machines."""
        def sketched(score: int, at: float) -> None:   # (the walks report `ranking(objective)` values)
            if self.progress is not None:
                self.progress(float(ranked(score, self.objective)), float(self.topo.value or 0), at - self.start)

        phases, time_limit = self.phases, self.time_limit
        sketch_seconds = _sketch_seconds(len(self.ids), time_limit)
        if phases.rounds_first:   # the first walk is the first round, its sketches SKETCH_GIVE_UP or more
            first_round = _round_schedule(time_limit, phases.moves)
            sketch_seconds = min(sketch_seconds, max(first_round.sketch_seconds, SKETCH_GIVE_UP))
            schedule = replace(first_round, sketch_seconds=sketch_seconds,
                               give_up=max(SKETCH_GIVE_UP, sketch_seconds))
        else:
            schedule = Schedule(sketch_seconds, max(SKETCH_GIVE_UP, sketch_seconds),
                                min(IMPROVE[0] * time_limit, IMPROVE[1]) if phases.moves else 0.0,
                                phases.stall, phases.later_stall)
        fewer = self.optional and self.objective == "profit"
        if fewer:   # (time left to walk again with fewer machines)
            schedule = replace(schedule, give_up=min(schedule.give_up,
                                                     max(SKETCH_GIVE_UP_FLOOR, FEWER[0] * time_limit)))
        # a fixed part's machines stay in every walk (QA: with --fixed, 55 optional machines were all sketched)
        staying = self.staying
        kept = self.picked if fewer and self.picked is not None else self.ids
        first = schedule
        if kept is not self.ids:   # a pick is sketched in 2-6 s, or not: up to half the time left for fewer machines
            give_up = max(schedule.give_up,
                          min(SKETCH_GIVE_UP, (self.start + FEWER[1] * time_limit - time.monotonic()) / 2))
            first = replace(schedule, give_up=give_up, sketch_seconds=max(schedule.sketch_seconds, give_up))
        walks = self.walk(first, self.seed, sketched, kept)
        # walks in rounds that found no sketch at all try again with fresh seeds (other orders and
        # preferences) while SKETCH_RETRY of the time lasts; CP-SAT's greedy construction rarely lays 10
        while (phases.rounds_first and walks.layout is None and not self.interrupt.flag
               and self.start + SKETCH_RETRY * time_limit - time.monotonic() >= schedule.give_up):
            walks = self.walk(schedule, self.seed + next(self.rounds) * WALK_AGAIN_SEED, sketched)
        kept, dropping = [m for m in self.topo.order if m in kept] if kept is self.ids else kept, 1
        while fewer and walks.layout is None and len(kept) > len(staying) + 1 and not self.interrupt.flag:
            # --optional where no sketch lays every machine: the last of the feeding order left out, then the
            # two before it, four, ... (QA: classic-C FF02,FF05,FF10,FF13,FF20,FF24,FF30,FF36,FF40,FF50
            # --optional answered the empty board, 0, after 8 s; without FF10 a sketch of 97 comes in a
            # second); once the time for that is gone, the machine of most income alone (sketched at once)
            left = self.start + FEWER[1] * time_limit - time.monotonic()
            free = [m for m in kept if m not in staying]
            free = (free[:max(1, len(free) - dropping)] if left > SKETCH_GIVE_UP_FLOOR
                    else [max(free, key=lambda m: self.catalog[m].income)])
            kept = staying + free
            dropping *= 2
            walks = self.walk(replace(schedule, sketch_seconds=min(schedule.sketch_seconds,
                                                                   max(left, SKETCH_GIVE_UP_FLOOR)),
                                      give_up=max(min(schedule.give_up, left), SKETCH_GIVE_UP_FLOOR),
                                      improve_seconds=min(schedule.improve_seconds, max(0.0, left))),
                              self.seed, sketched, kept)
        timed = walks.first_at is not None and walks.best_at is not None
        return _FirstLayout(walks.layout, walks.sketch, walks.first_at - self.start if timed else None,
                            walks.best_at - self.start if timed else None)

    def _constructed_first(self) -> _FirstLayout:
        """CP-SAT's greedy construction where no walk laid a sketch; a partial one is still CP-SAT's hint."""
        construction = greedy_layout(
            self.ruleset, self.board, self.catalog, self.topo.order,
            step_time=max(2.0, min(4.0, self.time_limit / (3 * len(self.ids)))), workers=self.workers,
            seed=self.seed, objective=self.objective, diagonal=self.diagonal, fixed=self.fixed,
            deadline=self.start + 0.75 * self.time_limit, interrupt=self.interrupt,
        )
        if construction.layout is not None and (self.optional or not construction.skipped):
            return _FirstLayout(construction.layout)
        if construction.layout is not None:
            partial_hint(self.built, construction.layout)  # still a head start for the placed part
        return _FirstLayout()

    def _hinted(self, first: _FirstLayout) -> tuple[tuple[Layout, CheckResult] | None, float | None]:
        """CP-SAT's complete hint from the first layout; that layout as the model reads it back, and when."""
        if first.layout is None or self.deadline - time.monotonic() < HINT_LEAST:
            return None, None
        values = _complete_hint(self.built, first.layout)
        if values is None and first.sketch is not None and first.sketch is not first.layout:
            # the model routes products through pipes only, never through an output reservoir
            # (README, rules decisions); a move may do that, so CP-SAT starts from the sketch
            values = _complete_hint(self.built, first.sketch)
        if values is None:
            return None, None
        best = checked_layout(layout_from_values(self.built.vars, value_reader(values), self.diagonal))
        first_seconds = first.first_at if first.first_at is not None else self.elapsed()
        if first.best_at is None:   # (the sketches reported their own)
            self.report(_objective_of(best[1], self.objective), self.topo.value, first_seconds)
        return best, first_seconds

    def _improve(self, track: _Track) -> None:
        """After the first layout: the relaxations beside, laid arrangements, walks or CP-SAT, the prover, and
        CP-SAT to the end."""
        phases, ids, time_limit, deadline = self.phases, self.ids, self.time_limit, self.deadline
        reserve = (THROUGHOUT_RESERVE.get(len(ids), WALK_AGAIN_RESERVE) if phases.walks_throughout
                   else PROVE_LATE_SHARE)
        rounds_end = deadline - reserve * time_limit
        joined_until = deadline - (WALK_AGAIN_RESERVE * time_limit + JOINED_WAIT)
        joined = (self.beside.enter_context(_joined_beside(self.ruleset, self.catalog, ids,
                                                           joined_until - time.monotonic()))
                  if (phases.rounds_first and JOINED_BESIDE[0] <= len(ids) <= JOINED_BESIDE[1] and not self.diagonal
                      and square_strategy(self.ruleset) and track.bound is not None
                      and not self.interrupt.flag)
                  else None)

        def joined_news(wait: float = 0.0) -> None:
            """The whole groups' bound, once it has come: into the track and the model."""
            value = None if joined is None else joined.wait(wait)
            if value is not None and value < track.bound:   # (7-10 machines: profit, every machine placed)
                _bound_into(track, self.built, value)
                if track.best is not None:
                    self.report(track.value(), track.bound)
        # (--optional too: its layouts place every machine, which the optional optimum often does; QA: expert-B
        # FF45,FF48,FF53 stuck at 24 in two runs of six, laid 29 in 1.4 s; but its bound is not the optional one)
        # (a cost solve too: the relaxation then minimises the cost, and its cheapest arrangement laid out is a
        # build one-input-at-a-time sketches miss: classic-A FF40,FF12,FF07 sketches 12, one worker ended at 11-12
        # after 20 s, laid 10 (optimal) in 2 s; classic-C FF14,FF22,FF29,FF41 sketches 6, laid 5). With a --hint
        # too: its layout is the start, and a better laid one replaces it (QA: FF39,FF08,FF25 --optional from the
        # hint of FF39,FF08 (22) stood at 22 after 5 s, where without a hint the laid 25 is proved in 0.3 s)
        # (neither this nor the prover starts past the deadline: a 1 s solve of six machines ended at 1.9 s)
        if (len(ids) <= PROVE_MAX_MACHINES and self.fixed is None and time.monotonic() < deadline
                and not self.diagonal and triangles_supported(self.ruleset) and not self.interrupt.flag
                and not track.at_bound()):
            # (sets that walk throughout keep CP-SAT's share at the end: the laid arrangement comes out of the walks')
            _joined_and_laid(self.ruleset, self.board, self.catalog, ids, track, self.built, time_limit, self.seed,
                             self.start, self.progress, self.interrupt, bound_holds=not self.optional,
                             objective=self.objective, deadline=rounds_end if phases.walks_throughout else deadline)
        if phases.rounds_first and track.best is not None:
            # CP-SAT never improved a walk's layout of 7-10 machines (no best came from it in the 300 s
            # benchmark rows); new rounds do, now and then
            self._walk_rounds(track, rounds_end, joined_news)
        else:
            searching = (deadline - PROVE_LATE_SHARE * time_limit - time.monotonic() if phases.proved_late
                         else (deadline - time.monotonic()) * (MAIN_SHARE if phases.provable else 1.0))
            self._cp_sat(track, searching, stall=phases.later_stall)
        if track.infeasible:
            if track.best is not None:
                # the checker accepts a layout the model calls impossible: the model is narrower than the rules
                # here (README, rules decisions: it never routes a product through an output reservoir), so
                # nothing it or the prover proves holds, and the layout stands unproved (QA: an assertion error)
                track.infeasible, track.model_whole, track.model_refused = False, False, True
            else:
                return
        joined_news()
        self._prove_if_near(track, joined_news)
        if not self.interrupt.flag and not track.optimal:
            joined_news(min(joined_until + JOINED_WAIT, deadline - 1.0) - time.monotonic())
        if track.model_refused and phases.sketches:
            # CP-SAT has nothing more to say: the time is the walks' (QA: a Funner fixed part whose reservoir
            # the model asks for flow ended UNKNOWN at 2.8 s of 10, "no legal layout found within the time limit")
            self._walk_rounds(track, deadline - WALK_AGAIN_RESERVE * time_limit, joined_news)
        elif not track.optimal and not self.interrupt.flag and deadline - time.monotonic() > 1.0:
            if track.best is not None and phases.prove_points is not None:  # the search goes on from the best layout
                _complete_hint(self.built, track.best[0])
            self._cp_sat(track, deadline - time.monotonic())

    def _prove_if_near(self, track: _Track, joined_news: Callable[[], None]) -> None:
        """The decomposition prover, when the best is near enough the bound; fresh walks after a capped proof."""
        phases, deadline = self.phases, self.deadline
        if (phases.prove_points is None or not track.worth_proving(phases.prove_points) or self.interrupt.flag
                or time.monotonic() >= deadline or not track.model_whole):
            return

        def proved(bound: int) -> None:
            self.report(track.value(), bound)

        far = phases.provable and track.points_to_bound() > PROVE_FAR[0]
        proof_deadline = deadline
        if far:
            proof_deadline = min(deadline, self.start + PROVE_FAR[1] * self.time_limit)
        elif phases.proved_late:
            proof_deadline = min(deadline, time.monotonic() + PROVE_LATE_PROBE * self.time_limit)
        proof = _prove(self.ruleset, self.board, self.catalog, self.ids, self.objective, track.value(),
                       _whole(track.bound, self.objective), proof_deadline, diagonal=self.diagonal, fixed=self.fixed,
                       interrupt=self.interrupt, threads=self.workers, on_bound=proved)
        _bound_into(track, self.built, proof.bound)
        if proof.layout is not None:
            track.offer(checked_layout(proof.layout), self.elapsed())
        track.optimal = proof.complete
        if (far or phases.proved_late) and phases.fresh_walks and not track.optimal:
            self._walk_rounds(track, deadline - WALK_AGAIN_RESERVE * self.time_limit, joined_news)

    def _walk_rounds(self, track: _Track, until: float, between: Callable[[], None]) -> None:
        _walk_again(track, self.walk, self.ids, self.seed, self.rounds, self.phases.moves, self.time_limit, until,
                    self.start, self.interrupt, self.progress, between, self.must_place, self.fixed)

    def _cp_sat(self, track: _Track, seconds: float, stall: float | None = None) -> None:
        _search(self.built, track, self.start, seconds, self.diagonal, self.workers, self.seed, self.progress,
                self.presolve, self.log, self.interrupt, stall=stall, fixed=self.fixed)


@dataclass
class _Track:
    """The best legal layout and the best bound over every phase of one solve."""

    objective: str
    bound: float | None
    first_seconds: float | None
    best: tuple[Layout, CheckResult] | None
    best_seconds: float | None = None
    optimal: bool = False
    infeasible: bool = False
    #: CP-SAT's model holds every machine, so its bound and status are the whole solve's (not so for a pick of many)
    model_whole: bool = True
    #: ... and where it does not, it has called its narrower model infeasible: only walks can find a layout
    model_refused: bool = False

    def value(self) -> int:
        assert self.best is not None
        return _objective_of(self.best[1], self.objective)

    def offer(self, candidate: tuple[Layout, CheckResult], seconds: float) -> None:
        """Keep `candidate` when it is at least as good (the later phase's own layout wins ties)."""
        new = _objective_of(candidate[1], self.objective)
        if self.best is None or _better(new, self.value(), self.objective):
            self.best_seconds = seconds
        if self.best is None or not _better(self.value(), new, self.objective):
            self.best = candidate
        if self.first_seconds is None:
            self.first_seconds = seconds

    def tighten(self, bound: float) -> None:
        self.bound = _tighter(bound, self.bound, self.objective)

    def at_bound(self) -> bool:
        """The best layout meets the bound: it is optimal, and searching on could only confirm it."""
        # (either direction: a cost of 9 is no cheaper than a bound of 6, which once ended a cost solve as
        # "OPTIMAL 9" before CP-SAT ran, where 6 was reachable)
        return (self.best is not None and self.bound is not None
                and not _better(round(self.bound), self.value(), self.objective))

    def points_to_bound(self) -> float:
        """How far the best layout is from the bound (never negative for a sound bound), either objective."""
        assert self.best is not None and self.bound is not None
        return self.value() - self.bound if self.objective == "cost" else self.bound - self.value()

    def worth_proving(self, points: float) -> bool:
        """At most `points` between the best layout and the bound: the decomposition can close (or narrow) that."""
        return (not self.optimal and self.best is not None and self.bound is not None
                and 0 < self.points_to_bound() <= points)


def _search(built: StaticModel, track: _Track, start: float, seconds: float, diagonal: bool, workers: int,
            seed: int, progress: Progress | None, presolve: bool, log: bool, interrupt: Interrupt,
            stall: float | None = None, fixed: Layout | None = None) -> None:
    """One CP-SAT run of the main model; its layout, bound and status go into `track`.

    A layout of the model that loses part of `fixed` when pruned is no layout of the solve: the model let fixed
    pipes close on themselves (or meet tanks alone), which the stray-tile rule forbids. It is not offered, and the
    model's optimum then proves nothing; its bound still holds (QA: a fixed arc of two pipes, closed by the model
    into a ring, gave "a legal layout scores 4, beyond the proved bound 0")."""
    if interrupt.flag or seconds <= 0.05:
        return
    if track.at_bound():
        track.optimal = True
        return
    offset = time.monotonic() - start

    def shifted(obj: float, bound: float, elapsed: float) -> None:
        # the best of the whole solve, not CP-SAT's own: it may start from the sketch where the model rejects the
        # moves' layout (QA: "best 81" at 17.2 s, then "best 78" at 19.7 s, and the result 81)
        if track.best is not None and _better(track.value(), obj, track.objective):
            obj = float(track.value())
        if not track.model_whole:
            bound = track.bound if track.bound is not None else math.inf
        if progress is not None:
            progress(obj, bound if track.bound is None else _tighter(bound, track.bound, track.objective),
                     elapsed + offset)

    began = time.monotonic()
    outcome = run(built, seconds, workers, seed, shifted if progress else None, presolve, log, interrupt,
                  stop_at=track.bound, stall=stall)
    if outcome.soft_optimum and not interrupt.flag:
        # only layouts with excess containers reach the soft model's optimum: the limits go hard, and the time
        # left says whether any layout is legal (QA: classic-A FF17,FF08 on a comb-shaped board ended UNKNOWN,
        # "bound -41", at 6 s of 15)
        built.model.Add(built.excess == 0)
        hard = run(built, seconds - (time.monotonic() - began), workers, seed, shifted if progress else None,
                   presolve, log, interrupt, stop_at=track.bound, stall=stall)
        outcome = replace(hard, bound=_tighter(hard.bound, outcome.bound, track.objective)
                          if hard.bound is not None else outcome.bound,
                          values=hard.values if hard.values is not None else outcome.values)
    kept = True
    if outcome.values is not None:
        candidate = checked_layout(layout_from_values(built.vars, value_reader(outcome.values), diagonal))
        kept = fixed_part_moved(candidate[0], fixed) is None
        if kept:
            track.offer(candidate, offset + (outcome.best_solution_seconds or 0.0))
        if kept and outcome.first_solution_seconds is not None:
            track.first_seconds = min(track.first_seconds or float("inf"), offset + outcome.first_solution_seconds)
    if not track.model_whole:   # a pick's bound, optimum or infeasibility says nothing of the whole set
        track.model_refused = track.model_refused or outcome.status == "INFEASIBLE"
        return
    if outcome.status == "INFEASIBLE":
        track.infeasible = True
    if outcome.bound is not None:
        track.tighten(outcome.bound)
    if outcome.status == "OPTIMAL" and kept:
        track.optimal = True


_Walk = Callable[[Schedule, int, Callable[[int, float], None]], Start]   # (schedule, seed, on_better) -> walks' start


def _walk_again(track: "_Track", walk: _Walk, ids: list[str], seed: int, rounds: Iterator[int], moves: bool,
                time_limit: float, until: float, start: float, interrupt: Interrupt, progress: Progress | None,
                between: Callable[[], None] = lambda: None, must_place: list[str] | None = None,
                fixed: Layout | None = None) -> None:
    """Rounds of fresh walks (new seeds: new sketches, then their moves) until `until`; each best is offered,
    and `between` is called before each round (a bound computed beside the walks may have come). Every machine
    is placed unless `must_place` says fewer, and `fixed` stays.

    Moves from the best layout stall (classic-A n8/s0: nothing in 240 s after
    22 s), so the time left buys new sketches, each a new chance.
    """
    def walked(score: int, at: float) -> None:
        if progress is not None:
            progress(float(score if track.best is None else max(score, track.value())),
                     float(math.inf if track.bound is None else track.bound), at - start)

    whole = _round_schedule(time_limit, moves)
    least = min(WALK_AGAIN_SECONDS, whole.sketch_seconds + whole.improve_seconds)   # a short solve's whole round
    while (left := until - time.monotonic()) >= least and not interrupt.flag and not track.optimal:
        between()
        if track.at_bound():
            return  # the bound that came meets the best: the search after confirms the optimum
        walks = walk(_round_schedule(time_limit, moves, left), seed + next(rounds) * WALK_AGAIN_SEED, walked)
        if walks.layout is not None:
            found_at = walks.best_at if walks.best_at is not None else time.monotonic()
            _keep_legal(track, walks.layout, found_at - start, ids, ids if must_place is None else must_place, fixed)
        if track.at_bound():
            return  # the search after confirms the optimum


def _round_schedule(time_limit: float, moves: bool, left: float = math.inf) -> Schedule:
    """One round of fresh walks: WALK_ROUND's sketches and moves, scaled down to fit `left` seconds."""
    (sketch_share, sketch_cap), (move_share, move_cap) = WALK_ROUND
    sketch = min(sketch_cap, sketch_share * time_limit)
    improve = min(move_cap, move_share * time_limit) if moves else 0.0
    scale = min(1.0, left / (sketch + improve))
    return Schedule(scale * sketch, scale * sketch, scale * improve,
                    later_stall=max(ROUND_STALL[0], ROUND_STALL[1] * time_limit))


def _optional_pick(ruleset: Ruleset, catalog: Catalog, ids: list[str], time_limit: float, order: list[str],
                   staying: list[str], cells: int | None) -> list[str]:
    """The machines an --optional solve of more than OPTIONAL_WHOLE machines walks first with: the best
    OPTIONAL_MOST (OPTIONAL_MOST_SHORT in a short solve) of a relaxation within the board's `cells` (in feeding
    order), which the sketches can lay,
    after the `staying` machines of the fixed part.

    All 55 square machines on classic-A: offered every machine, or the 31 the relaxation places in the board's
    area, the walks laid none before the time was gone and a 30 s solve answered the empty board (0); from the
    relaxation's best ten they reach 127. Up to twelve machines the walks are offered all of them, and leave
    machines out only when no sketch lays them all.
    """
    most = OPTIONAL_MOST if time_limit >= OPTIONAL_SHORT else OPTIONAL_MOST_SHORT
    picked = topology_bound(ruleset, catalog, ids, "profit", True, time_limit=_pick_seconds(time_limit),
                            pair_cuts=False, cells=cells, most=most)
    # a relaxation with no answer in its time (QA: a loaded machine) falls back on the feeding order's first ten,
    # never on every machine: sketches of all 55 spent the whole limit ordering them and laid none
    # (and one cut short may have chosen only a few: the feeding order fills the pick up; a test run with both
    # cores busy saw three of ten)
    chosen = [m for m in dict.fromkeys([*(picked.chosen or []), *order]) if m in ids]
    return (staying + [m for m in chosen if m not in staying])[:max(most, len(staying))]


def _pick_seconds(time_limit: float) -> float:
    return min(PICK[2], max(PICK[1], PICK[0] * time_limit))


def _sketch_seconds(machines: int, time_limit: float) -> float:
    share, cap = SKETCH_LARGE if machines >= SKETCH_MANY else SKETCH_SMALL
    return min(cap, share * time_limit)


def _triangle_seconds(seconds_left: float) -> float:
    return min(TRIANGLE_SECONDS, TRIANGLE_SHARE * seconds_left)


def square_strategy(ruleset: Ruleset) -> bool:
    """Square rulesets cut whole groups beside the walks of 7-10 machines and start their moves at 6 machines:
    their phases were measured with the tree cuts' bound near the optimum. Hex sets, whose bound stays further
    above it even with the tree cuts, walk throughout from 3 machines. Both lay the relaxation's arrangement on
    the board (`_joined_and_laid`): on hexes it found FN31,FN16,FN25,FN35's 39 where the walks end at 34."""
    return ruleset.geometry.name == "square"


def _tightened_by_triangles(ruleset: Ruleset, catalog: Catalog, ids: list[str], objective: str, optional: bool,
                            value: int | None, seconds_left: float, cells: int | None) -> int | None:
    """The relaxation's bound with the triangle cuts too (solver/triangle_cuts.py), or `value` as it was.

    Asked after the first walks for more than TRIANGLES_FIRST machines: separating
    the cuts takes up to 6 s for ten machines, and the first layout must not wait for it.
    """
    if value is None or not triangles_supported(ruleset):
        return value
    tightened = topology_bound(ruleset, catalog, ids, objective, optional and objective == "profit",
                               time_limit=_triangle_seconds(seconds_left), triangles=True, cells=cells)
    return value if tightened.value is None else round(_tighter(tightened.value, value, objective))


def _joined_and_laid(ruleset: Ruleset, board: Board, catalog: Catalog, ids: list[str], track: "_Track",
                     built: StaticModel, time_limit: float, seed: int, start: float, progress: Progress | None,
                     interrupt: Interrupt, bound_holds: bool = True, objective: str = "profit",
                     deadline: float = math.inf) -> None:
    """3-6 machines (JOINED_MACHINES): the relaxation with whole groups' tree cuts (a tighter bound) for a few
    fed patterns, then their arrangements laid on the board (solver/relaxed_starts.py) as layouts for the
    track, the best one CP-SAT's hint. Classic-A FF01,FF12,FF22,FF36,FF47,FF48: bound 69 -> 67 and a layout
    of 67 (the walks end at 65-66); FF08,FF12,FF34,FF40,FF42,FF50: 89 -> 88 and 87 (83-85)."""
    if not JOINED_MACHINES[0] <= len(ids) <= JOINED_MACHINES[1]:
        return
    small = len(ids) <= LAID_SMALL[0]
    share = SMALL_SHARE if small else JOINED[0]

    def left() -> float:   # (its shares count from the solve's start: QA saw a cost solve of 8 s end at 8.5 s)
        return max(0.0, deadline - time.monotonic())

    topologies = interrupt.abortable(
        lambda: relaxed_topologies(ruleset, catalog, ids, TOPOLOGIES, min(JOINED[1], share * time_limit, left()),
                                   objective=objective), [])
    if bound_holds and topologies and topologies[0].value is not None:   # (every machine placed: not --optional)
        _bound_into(track, built, topologies[0].value)
    if not topologies or track.at_bound():
        return
    before = track.value() if track.best is not None else None
    laid_seconds = min(left(), min(LAID_SMALL[1], SMALL_SHARE * time_limit) if small
                       else min(LAID[1], LAID[0] * time_limit))
    patterns = [(t.value, t.trees) for t in topologies]
    laid = interrupt.abortable(lambda: relaxed_layouts(ruleset, board, catalog, ids, patterns, laid_seconds, seed,
                                                       bound=None if track.bound is None else int(track.bound),
                                                       objective=objective), [])
    for layout in laid:
        _keep_legal(track, layout, time.monotonic() - start, ids, ids, None)
    if track.best is not None and (before is None or _better(track.value(), before, objective)):
        _complete_hint(built, track.best[0])
    if progress is not None and track.best is not None:
        progress(float(track.value()), float(track.bound), time.monotonic() - start)


def _joined_beside(ruleset: Ruleset, catalog: Catalog, ids: list[str], seconds: float) -> Background[int | None]:
    """The relaxation with every cut, whole groups' too (JOINED_BESIDE), in a forked process for `seconds`:
    its value (sound at any time limit: the last round solved to optimality) or None."""
    return Background(lambda: topology_bound(ruleset, catalog, ids, time_limit=max(0.0, seconds), triangles=True,
                                             joined=True).value)


def _bound_into(track: "_Track", built: StaticModel, bound: float) -> None:
    """A bound proved by another phase: the track keeps the tighter, and CP-SAT's model gets it as a constraint."""
    track.tighten(bound)
    add_objective_bound(built, int(track.bound))


def _prove(ruleset: Ruleset, board: Board, catalog: Catalog, ids: list[str], objective: str, best: int, bound: int,
           deadline: float, on_bound: Callable[[int], None], **kw) -> ProofOutcome:
    """`prove_bound` for either objective. Every machine placed, a layout's cost is its income less its profit
    without chain bonus, so the cheapest build is proved as the best profit of the same game with a chain bonus
    of 0: classic-A FF13,FF35,FF38,FF55 ended FEASIBLE 8 against 7 after a 12 s cost solve; this proves 8 in 0.8 s.
    Its layout, if it finds one, is read back under the real ruleset."""
    if objective != "cost":
        return prove_bound(ruleset, board, catalog, ids, best, bound, deadline, on_bound=on_bound, **kw)
    income = sum(catalog[m].income for m in ids)
    proof = prove_bound(replace(ruleset, chain_bonus_per_point=0), board, catalog, ids, income - best,
                        income - bound, deadline, on_bound=lambda profit: on_bound(income - profit), **kw)
    found = proof.layout
    if found is not None:
        found = Layout(ruleset, found.board, found.catalog, found.machines, found.tiles, found.options)
    return ProofOutcome(income - proof.bound, found, proof.complete)


def _whole(bound: float | None, objective: str) -> int | None:
    """A proved bound on a whole-number objective, as the whole number it proves: CP-SAT's came as floats
    (50.0 beside another run's 50 in the JSON)."""
    if bound is None or math.isinf(bound):
        return None
    return math.ceil(bound - 1e-6) if objective == "cost" else math.floor(bound + 1e-6)


def _tighter(solver_bound: float, topo: int | None, objective: str) -> float:
    if topo is None:
        return solver_bound
    return max(solver_bound, topo) if objective == "cost" else min(solver_bound, topo)


def _keep_legal(track: "_Track", layout: Layout, seconds: float, ids: list[str], must_place: list[str],
                fixed: Layout | None) -> None:
    """Offer a starting layout the checker accepts, and that keeps the fixed part, even when the model could not
    take it as a hint (or there was no time to).

    The ruin-and-recreate moves (and a user's --hint) may pass a product through an
    output reservoir, which is legal but outside the model (README, rules decisions).
    """
    pruned = prune(layout)
    result = check_layout(pruned)
    if (result.legal and set(must_place) <= set(pruned.machine_ids) <= set(ids)
            and fixed_part_moved(pruned, fixed) is None):
        track.offer((pruned, result), seconds)


def _complete_hint(built: StaticModel, layout: Layout) -> list[int] | None:
    """Give CP-SAT `layout` as a complete hint; its full assignment, or None if the model rejects it."""
    try:
        values = complete_assignment(built, layout)
    except ValueError:
        return None
    if values is not None:
        set_hint(built, values)
    return values
