"""A planned game's rounds re-laid one at a time by CP-SAT, its machines where they stand.

The plan search (solver/plan_search.py) judges final factories by the games that
`build_towards` derives from them: fast enough for thousands of factories, but
each round only lays the final factory's parts plus the temporaries its greedy
router finds. This step takes the best game and re-solves each building round's
layout exactly, with everything else of the game held:

- the machines stand where that round has them (so machine moves cost the same);
- the last building round gets the most chain bonus for what it pays: the final
  layout is re-routed for the score itself, its new machine may stand anywhere or
  give way to another machine of its offer, and where machines move, the round
  may move up to the ruleset's number of them at their price (nothing builds on
  where the last round leaves them);
- every other building round pays least for itself and for the next building
  round together (a tile it lays that the next round keeps is paid once; a
  temporary the next round lifts is paid for nothing);
- money after the round and after the next one stays at 1 or more (the floor).

Measured (60 s plans, then this step alone): Funner solo sequences 1-3 43 -> 47,
43 -> 48, 50 -> 50 (the last round's re-routing, and solo 2's last machine moved to
where it is fed); classic-A solo 1 101 -> 102 (round 7 and the next paying a point
less together), solo 2 and 3 unchanged. In the plan benchmarks (Funner 60 s, nine
plans; square solo 600 s, three) one plan came out polished and the medians stayed
within the runs' spread (results/plan.md, results/plan-funner.md).

A re-laid round is kept only when the replay of the whole game judges it legal
and scoring at least as much; every layout it lays has passed the rule checker.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterator

from ortools.sat.python import cp_model

from models.check import check_layout
from models.game import Game, Round
from models.layout import Layout, MachinePlacement
from models.replay import ReplayResult, replay_game

from .extract import checked_layout, layout_from_values
from .build_order import repairs
from .model import StaticModel, add_static_layout, layout_literals, tile_literals
from .placements import machine_placements
from .search import Interrupt, partial_hint, run, value_reader
from .static import solve_static

#: the last building round (where the chain bonus is won) gets this share of the polish time, at most
#: LAST_CAP seconds; every other building round gets an equal part of the rest, at most ROUND_CAP seconds
LAST_SHARE, LAST_CAP, ROUND_CAP = 0.5, 20.0, 5.0
#: a round whose machine may stand anywhere gives this share of its time to the static solver's layouts of the
#: machines before plus one of its offer, everything laid before kept (CP-SAT's hint); a candidate gets at
#: least HINT_LEAST s
HINT_SHARE, HINT_LEAST = 0.3, 0.5


@dataclass(frozen=True)
class _Money:
    """What a round's re-laying must respect besides the rules: money before it, what it earns and pays
    for other than tiles, and the same for the next building round (0 when it is the last)."""

    before: int
    income: int
    fee: int                           # the first-pick fee
    moves: int                         # what the round's machine moves cost in the game as planned
    between: int                       # money change in the rounds between it and the next building round
    next_income: int = 0
    next_fixed_cost: int = 0           # the next round's machine moves and fee


def _tile_ones(v, layout: Layout) -> set[int]:
    """ids of the tile literals that are on in `layout` (its machines left out: they may differ by round)."""
    return {id(lit) for lit in layout_literals(v, layout.with_parts(machines=()))[0]}


def relay_round(game: Game, before: Layout, current: Layout, following: Layout | None, money: _Money,
                seconds: float, workers: int, seed: int, interrupt: Interrupt | None = None,
                newcomer: str | None = None, moving: bool = False, rivals: tuple[str, ...] = (),
                hint: Layout | None = None) -> Layout | None:
    """The best layout for a round whose machines stand as in `current`, the round before ending in `before`
    and the next building round ending in `following` (None: this is the last, so maximise its chain bonus
    and income less what it pays). In the last round `newcomer`, the machine the round adds, may stand
    anywhere or give way to one of `rivals` (the rest of its offer: the layout then holds the one taken
    instead, whose income `money.income` does not count), and with `moving` the others may move as the
    rules allow (a bigger model: it comes after the round has been re-laid with them where they stand).
    CP-SAT starts from `hint` if given, else from `current`. None if CP-SAT finds nothing in time or the
    layouts are foreign to the model."""
    diagonal = bool(game.options.get("diagonal_intersection"))
    catalog = game.context.catalog
    last = following is None
    offer = (*((newcomer,) if newcomer is not None else ()), *rivals) if last and rivals else ()
    model = cp_model.CpModel()
    built = add_static_layout(model, game.ruleset, game.context.board, catalog,
                              [m.id for m in current.machines if m.id not in offer] + list(offer), diagonal=diagonal,
                              end_limit=game.options.get("end_limit"), optional=bool(offer))
    v = built.vars
    income = 0
    if offer:   # one of the offer, the others stay put; the newcomer's income leaves money.income for the chosen's
        model.Add(sum(v.placed[m] for m in offer) == 1)
        for m in current.machines:
            if m.id not in offer:
                model.Add(v.placed[m.id] == 1)
        given = catalog[newcomer].income if newcomer is not None else 0
        income = sum((catalog[m].income - given) * v.placed[m] for m in offer)
    try:
        if last:
            moves = _free_moves(model, v, game, before, current, newcomer, moving)
        else:
            for lit in layout_literals(v, current.with_parts(tiles=()))[0]:
                model.Add(lit == 1)                                 # machines where they stand
            moves = money.moves
        had, has = _tile_ones(v, before), _tile_ones(v, current)
        wanted = _tile_ones(v, following) if not last else set()
    except ValueError:
        return None
    tiles = tile_literals(built)
    laid = [lit for lit in tiles if id(lit) not in had]             # paid this round
    after = money.before + money.income + income - money.fee - moves - sum(laid)
    model.Add(after >= 1)
    if last:
        model.Maximize(built.chain_bonus + income - sum(laid) - moves)
    else:
        relaid = [1 - lit for lit in tiles if id(lit) in wanted]    # paid by the next round
        was = sum(1 for lit in tiles if id(lit) in has and id(lit) not in had) \
            + sum(1 for lit in tiles if id(lit) in wanted and id(lit) not in has)
        model.Add(sum(laid) + sum(relaid) <= was)                   # never dearer than the game's own
        model.Add(after + money.between + money.next_income - money.next_fixed_cost - sum(relaid) >= 1)
        model.Minimize(sum(laid) + sum(relaid))
    wrapped = StaticModel(model, v, "cost", 0, sum(laid), built.chain_bonus)
    partial_hint(wrapped, hint if hint is not None else current)
    outcome = run(wrapped, seconds, workers, seed, interrupt=interrupt)
    if outcome.values is None:
        return None
    layout = layout_from_values(v, value_reader(outcome.values), diagonal).with_parts(options=game.options)
    return checked_layout(layout)[0]


def _free_moves(model: cp_model.CpModel, v, game: Game, before: Layout, current: Layout,
                newcomer: str | None, moving: bool) -> cp_model.LinearExprT:
    """The last building round's machines: the newcomer anywhere, the others where the round has them or,
    `moving`, where the round before left them or moved (at most the ruleset's moves a round, at its price
    each); what the moves cost. (Nothing builds on the last round, so where it leaves its machines is free.)"""
    rules = game.ruleset
    stood = {m.id: m for m in before.machines}
    moving = moving and _machines_move(game)
    stays, moves = [], 0
    for m in current.machines:
        if m.id == newcomer or m.id not in stood:
            continue
        [stay] = layout_literals(v, current.with_parts(machines=(stood[m.id] if moving else m,), tiles=()))[0]
        if moving:
            stays.append(stay)
        else:
            model.Add(stay == 1)
            moves += rules.machine_move_cost * (stood[m.id] != m)
    if not stays:
        return moves
    moved = len(stays) - sum(stays)
    model.Add(moved <= rules.max_machine_moves)
    return rules.machine_move_cost * moved


def _money_of(game: Game, replayed: ReplayResult, t: int, next_t: int | None) -> _Money:
    """The money terms of building round t (0-based) and of the next building round, from the replay."""
    move_cost, reports = game.ruleset.machine_move_cost, replayed.rounds
    this = reports[t]
    before = game.start_money if t == 0 else reports[t - 1].money
    moves = move_cost * len(this.moved_machines)
    if next_t is None:
        return _Money(before, this.income, this.first_pick_fee, moves, 0)
    following = reports[next_t]
    return _Money(before, this.income, this.first_pick_fee, moves, reports[next_t - 1].money - this.money,
                  following.income, move_cost * len(following.moved_machines) + following.first_pick_fee)


def _machines_move(game: Game) -> bool:
    return game.ruleset.machines_movable and game.ruleset.max_machine_moves > 0


def polish_game(game: Game, deadline: float, workers: int = 2, seed: int = 0, interrupt: Interrupt | None = None,
                on_better: Callable[[int], None] | None = None) -> tuple[Game, ReplayResult]:
    """`game` (a legal plan) with its building rounds re-laid, the last first, until `deadline`
    (time.monotonic()); each change kept only if the replay finds the game legal and no worse. Passes
    repeat while the last one raised the score (a round re-laid changes what its neighbours may do).
    The rounds after the last building one that build nothing and carry no token are tried first, each
    with a machine of its offer, and the best that pays is kept (`_best_fill`; QA: a played game that left
    its last round empty was "matched" by a plan that left it empty too, where building there scored 9)."""
    best = replay_game(game)
    rounds = list(game.rounds)
    if not best.legal:
        return game, best
    moving = _machines_move(game)
    raised = True
    while raised:
        raised = False
        building = _building(rounds)
        last = building[-1] if building else None
        after = (last + 1) if last is not None else 0
        filled = _best_fill(game, rounds, [t for t in range(after, len(rounds)) if _fillable(rounds[t])], best,
                            deadline, workers, seed, interrupt)
        if filled is not None:   # a new building round: the next pass re-reads the rounds
            (rounds, best), raised = filled, True
            if on_better is not None:
                on_better(best.final_score)
            continue
        order = ([(last, STAND)] + [(t, STAND) for t in building[:-1]] + ([(last, MOVE)] if moving else [])
                 if last is not None else [])
        for k, (t, mode) in enumerate(order):
            left = deadline - time.monotonic()
            if left < 0.5 or (interrupt is not None and interrupt.flag):
                return game.with_rounds(rounds), best
            seconds = min(LAST_CAP, LAST_SHARE * left) if t == last else min(ROUND_CAP, left / (len(order) - k))
            trial = _relaid(game, rounds, t, best, seconds, workers, seed, interrupt, mode)
            if trial is None:
                continue
            replayed = replay_game(game.with_rounds(trial))
            if replayed.legal and replayed.final_score >= best.final_score:
                if replayed.final_score > best.final_score:
                    raised = True
                    if on_better is not None:
                        on_better(replayed.final_score)
                rounds, best = trial, replayed
    return game.with_rounds(rounds), best


def _best_fill(game: Game, rounds: list[Round], empty: list[int], best: ReplayResult, deadline: float,
               workers: int, seed: int, interrupt: Interrupt | None) -> tuple[list[Round], ReplayResult] | None:
    """Each round of `empty` (rounds after the last building one that build nothing and carry no token)
    given a machine of its offer, each from the same game; the best game scoring more than `best`, or None.
    Not the first that pays (QA, a Funner game with rounds 7 and 8 emptied: round 7 took FN31, round 8 then
    FN40, 45, where round 8 alone taking FN37 scores 56), nor the first only (QA: a round 9 in which no
    machine of its offer pays left round 10 untried)."""
    chosen: tuple[list[Round], ReplayResult] | None = None
    share = min(LAST_CAP, LAST_SHARE * (deadline - time.monotonic())) / max(1, len(empty))
    for t in empty:
        if deadline - time.monotonic() < 0.5 or (interrupt is not None and interrupt.flag):
            break
        trial = _relaid(game, rounds, t, best, share, workers, seed, interrupt, FILL)
        if trial is None:
            continue
        replayed = replay_game(game.with_rounds(trial))
        if replayed.legal and replayed.final_score > (chosen[1] if chosen is not None else best).final_score:
            chosen = (trial, replayed)
    return chosen


#: how a round is re-laid: its machines standing, the last round with moves, an empty last round given a machine
STAND, MOVE, FILL = "stand", "move", "fill"


def _builds(rnd: Round) -> bool:
    """Whether the round lays the machine it takes (a played round may take one and give the layout it kept)."""
    return rnd.layout is not None and rnd.taken is not None and rnd.taken in rnd.layout.machine_ids


def _building(rounds: list[Round]) -> list[int]:
    return [t for t, r in enumerate(rounds) if _builds(r)]


def _fillable(rnd: Round) -> bool:
    """A round that builds nothing and carries no token (a token's meaning depends on the machine taken)."""
    return not _builds(rnd) and bool(rnd.offered) and not (rnd.first_pick or rnd.last_pick)


def _relaid(game: Game, rounds: list[Round], t: int, replayed: ReplayResult, seconds: float,
            workers: int, seed: int, interrupt: Interrupt | None, mode: str) -> list[Round] | None:
    """The rounds with round t re-laid as `mode` says (None if nothing was found)."""
    building = _building(rounds)
    later = [b for b in building if b > t]
    next_t = later[0] if later and mode != FILL else None
    before = replayed.rounds[t - 1].layout if t > 0 else game.empty_layout()
    following = rounds[next_t].layout if next_t is not None else None
    rnd = rounds[t]
    newcomer = rnd.taken if mode != FILL else None
    # (a round carrying a token keeps its machine: who took the last machine left depends on which it was)
    rivals = () if rnd.first_pick or rnd.last_pick else tuple(m for m in dict.fromkeys(rnd.offered)
                                                              if m != newcomer and m not in before.machine_ids)
    current, money, hint = rnd.layout, _money_of(game, replayed, t, next_t), None
    if mode == FILL:   # nothing laid yet: the layout before, and one machine of the offer to add
        if not rivals:
            return None   # (its offer holds only machines already built)
        current, money = before, _Money(money.before, 0, 0, 0, 0)
    # a machine free to stand anywhere (an empty round's, the last round's newcomer) is placed slowly by CP-SAT
    # on a whole board: the static solver's layout is its start where it scores more than the round's own.
    # (On hexes the static solver adds no machine to a kept layout, each colour's one supply tank being
    # taken, and the time it took cost a QA game's filled round 13 points: there the machine stands on free
    # ground and the plan search's router joins its ports, branching off the pipes laid before.)
    offer = rivals if mode == FILL else (newcomer, *rivals)
    if (mode == FILL or (mode == STAND and next_t is None)) and set(before.machines) <= set(current.machines):
        placings = _static_placings if game.ruleset.geometry.name == "square" else _routed_placings
        began = time.monotonic()
        value, found = _best_placed(placings(game, before, offer, HINT_SHARE * seconds, workers, seed, interrupt),
                                    before)
        seconds -= time.monotonic() - began
        if found is not None and (mode == FILL or value > _relaid_value(current, before)):
            hint = found
        if interrupt is not None and interrupt.flag:
            return None
    layout = relay_round(game, before, current, following, money, seconds, workers,
                         seed, interrupt, newcomer=newcomer, moving=mode == MOVE, rivals=rivals, hint=hint)
    if layout is None:
        return None
    added = [m for m in layout.machine_ids if m not in before.machine_ids]
    if len(added) != 1:
        return None   # (the model adds exactly one; a layout that does not is not this round's)
    return rounds[:t] + [rnd.planned(added[0], layout)] + rounds[t + 1:]


def _static_placings(game: Game, before: Layout, offer: tuple[str, ...], seconds: float, workers: int,
                     seed: int, interrupt: Interrupt | None) -> Iterator[Layout]:
    """The static solver's best layout of `before`'s machines and each machine of `offer`, all of `before`
    kept. CP-SAT alone places a machine slowly on a whole board (a test: 5 s to find FF43 below FF27's
    output, which the static solver's sketches join to a fixed part and prove in 0.5 s); the round's own
    model then starts from the best and may still lift what `before` laid."""
    candidates = offer[:max(1, int(seconds / HINT_LEAST))]
    for machine in candidates:
        if interrupt is not None and interrupt.flag:
            return
        solved = solve_static(game.ruleset, game.context.board, game.context.catalog,
                              [*before.machine_ids, machine], time_limit=seconds / len(candidates),
                              workers=workers, seed=seed, fixed=before,
                              diagonal=bool(game.options.get("diagonal_intersection")))
        if solved.stop_signal is not None and interrupt is not None:
            interrupt.signum = solved.stop_signal   # (the solve answered Ctrl-C itself: the polish stops too)
        if solved.layout is not None:
            yield solved.layout


def _best_placed(layouts: Iterator[Layout], before: Layout) -> tuple[int | None, Layout | None]:
    """The layout of `layouts` that pays most as a round after `before`, with its `_relaid_value`
    ((None, None) if there is none)."""
    return max(((_relaid_value(layout, before), layout) for layout in layouts),
               key=lambda pair: pair[0], default=(None, None))


def _relaid_value(layout: Layout, before: Layout) -> int:
    """What a last round laid as `layout` earns for what it pays (its machines standing as they did before):
    income and chain bonus less the tiles it adds to `before`."""
    kept, score = set(before.tiles), check_layout(layout).score
    return score.income + score.chain_bonus - sum(1 for tile in layout.tiles if tile not in kept)


def _routed_placings(game: Game, before: Layout, offer: tuple[str, ...], seconds: float, workers: int,
                     seed: int, interrupt: Interrupt | None) -> Iterator[Layout]:
    """Legal layouts of `before` and one machine of `offer` standing on free ground, its ports joined by the
    plan search's router (`repairs`: `before`'s pipes may be branched off), placements touching what
    `before` laid first, until `seconds` are gone. An output reservoir under the machine or faced by its
    ports is lifted first, so that the output it held may feed it (the rulebook's second round). For hexes,
    where the static solver cannot add a machine to a kept layout. (`workers` unused: one router.)"""
    board, catalog = game.context.board, game.context.catalog
    until = time.monotonic() + seconds
    liftable = {tile.cell for tile in before.tiles if tile.kind == "output"}
    standing = set(before.machine_cells) | {tile.cell for tile in before.tiles if tile.kind != "output"}
    laid = set(before.machine_cells) | set(before.tile_cells)
    beside = {board.neighbour(cell, side) for cell in laid for side in board.geometry.sides} - laid - {None}
    tried = [(machine, placement) for machine in offer
             for placement in machine_placements(game.ruleset, board, catalog[machine])
             if not standing.intersection(placement.cells)]
    tried.sort(key=lambda pair: -len(beside.intersection(pair[1].cells)))
    for machine, placement in tried:
        if time.monotonic() >= until or (interrupt is not None and interrupt.flag):
            return
        faced = {board.neighbour(*port.slot) for port in placement.ports}
        lifted = liftable & (set(placement.cells) | faced)
        kept = tuple(tile for tile in before.tiles if not (tile.kind == "output" and tile.cell in lifted))
        placed = MachinePlacement(machine, placement.anchor, placement.rotation)
        routed = next(repairs(before.with_parts(machines=(*before.machines, placed), tiles=kept), seed), None)
        if routed is not None:
            yield routed
