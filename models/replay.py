"""Replaying a game round by round under the money and rebuilding rules.

The cost of a round is the multiset difference between the layout at its end
and at its start: a tile that is new or moved costs its price, a removed tile is
free, a crossing added over an existing straight costs only its new pipe, a tile
of two pipes (a double connector, the diagonal tile) that moved or turned whole
costs one move, and a machine that changed place or rotation costs the
ruleset's move cost.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .check import Violation, check_layout
from .game import Game
from .layout import Layout, Tile
from .rulesets import Ruleset


def money_floor(money: int) -> int:
    """The least money a build may leave: 1, or what an illegal earlier round already left below it (QA: a round
    that earns more than it costs is not blamed again for an earlier round's shortfall; one that loses is)."""
    return min(1, money)


@dataclass
class RoundReport:
    number: int                      # 1-based
    offered: list[str]
    taken: str | None
    built: bool
    income: int = 0
    new_tiles: list[Tile] = field(default_factory=list)
    removed_tiles: list[Tile] = field(default_factory=list)
    moved_machines: list[str] = field(default_factory=list)
    cost: int = 0
    penalty: int = 0
    money: int = 0
    undone: bool = False             # Funner: the build would have left money below 1, so it was taken back
    last_pick: bool = False          # the last machine left that round was taken: no penalty if not built
    #: the money floor at 1 took less than the whole penalty (QA: a blank penalty, with no reason, where -5 was due)
    penalty_floored: bool = False
    #: Funner's tokens, already in `cost` (the first pick's fee; in `penalty` when the machine is not built) and in
    #: `income` (the last pick's +1, earned with the machine's income): kept apart so reports name them
    first_pick_fee: int = 0
    last_pick_token: int = 0
    #: the layout after the round as the replay judged it: after an undone build, the layout before it (QA: the
    #: analysis drew a Funner build that was undone as the player's layout, from the document's)
    layout: Layout | None = field(default=None, repr=False)

    @property
    def machine_income(self) -> int:
        """The income without the last-pick token."""
        return self.income - self.last_pick_token

    @property
    def tiles_cost(self) -> int:
        """The build's cost without the first-pick token."""
        return self.cost - (self.first_pick_fee if self.built else 0)

    @property
    def penalty_alone(self) -> int:
        """The penalty without the first-pick token (QA: a first pick not built read "penalty -3", no token)."""
        return self.penalty - (0 if self.built else self.first_pick_fee)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.number, "taken": self.taken, "built": self.built, "income": self.income,
            "new_tiles": len(self.new_tiles), "moved_machines": self.moved_machines,
            "cost": self.cost, "penalty": self.penalty, "money": self.money,
            **({"undone": True} if self.undone else {}),
            **({"penalty_floored": True} if self.penalty_floored else {}),
            **({"first_pick_fee": self.first_pick_fee} if self.first_pick_fee else {}),
            **({"last_pick_token": self.last_pick_token} if self.last_pick_token else {}),
        }


@dataclass
class ReplayResult:
    rounds: list[RoundReport]
    violations: list[tuple[int, Violation]]   # (round number, violation)
    final_layout: Layout
    chain_bonus: int
    ladder: str | None = None   # solo ladder verdict where the ruleset has one
    #: the rules the final layout itself breaks, for the drawings to outline (the rounds' game rules aside)
    final_violations: list[Violation] = field(default_factory=list)
    #: the money the game starts with, for the tables' first row (QA pass 54: they started at round 1's money)
    start_money: int | None = None

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def money(self) -> int:
        return self.rounds[-1].money if self.rounds else 0

    @property
    def final_score(self) -> int:
        return self.money + self.chain_bonus


    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "rounds": [r.to_dict() for r in self.rounds],
            "chain_bonus": self.chain_bonus,
            "final_score": self.final_score,
            **({"ladder": self.ladder} if self.ladder else {}),
            "violations": [{"round": n, **v.to_dict()} for n, v in self.violations],
        }


def tile_changes(before: Layout, after: Layout) -> tuple[list[Tile], list[Tile]]:
    """(new or moved tiles, removed tiles) between two layouts, each tile compared by what it lays."""
    old, new = _laid(before), _laid(after)
    old_keys, new_keys = Counter(key for key, _ in old), Counter(key for key, _ in new)
    return _picked(new, new_keys - old_keys), _picked(old, old_keys - new_keys)


def _laid(layout: Layout) -> list[tuple[object, Tile]]:
    """Each tile's key -> the tile: the tile itself, or for the diagonal tile its two pipes (one domino written
    from either end, rotation 0 at [4, 1] or 180 at [4, 2], is the same tile: QA saw it charged as new)."""
    keys: list = []
    for i, tile in enumerate(layout.tiles):
        if tile.kind == "diagonal":
            keys.append(("diagonal", frozenset(frozenset(p.ends) for p in layout.pipes if p.tile == i)))
        else:
            keys.append(tile)
    return list(zip(keys, layout.tiles))


def _picked(laid: list[tuple[object, Tile]], wanted: Counter) -> list[Tile]:
    """The tiles of `laid` whose keys `wanted` counts, as many of each as it counts."""
    left, out = Counter(wanted), []
    for key, tile in laid:
        if left[key] > 0:
            left[key] -= 1
            out.append(tile)
    return out


def machine_moves(before: Layout, after: Layout) -> list[str]:
    """Machines present in both layouts whose cell or rotation changed."""
    old = {m.id: m for m in before.machines}
    return [m.id for m in after.machines if m.id in old and old[m.id] != m]


def _machine_cells(layout: Layout, ids) -> list:
    """Where the named machines stand in `layout` (the cell their document gives)."""
    wanted = set(ids)
    return [m.cell for m in layout.machines if m.id in wanted]


def round_cost(before: Layout, after: Layout) -> int:
    new, removed = tile_changes(before, after)
    return (sum(t.cost for t in new) - moved_whole(after.ruleset, new, removed)
            + after.ruleset.machine_move_cost * len(machine_moves(before, after)))


def moved_whole(ruleset: Ruleset, new: list[Tile], removed: list[Tile]) -> int:
    """How many tiles of two pipes reappear whole, moved or turned: each is one move (1), not a new tile (2).

    RULES 1: "move a reservoir, container or connector (1 each)", and a double connector or the diagonal tile
    is one tile though it prices 2 when new. A double connector keeps its kind when it moves or turns: two
    straights stay a crossing, two curves a double curve (QA: moving a crossing was charged 2).
    """
    def kinds(tiles: list[Tile]) -> Counter:
        found = Counter(t.kind for t in tiles if t.kind == "diagonal")
        if ruleset.pipes_of_a_cell_are_one_tile:
            pipes: dict = {}
            for t in tiles:
                if t.kind == "pipe":
                    pipes.setdefault(t.cell, []).append(t)
            found.update(("double", _is_straight(ruleset, both[0])) for both in pipes.values() if len(both) == 2)
        return found

    return sum((kinds(new) & kinds(removed)).values())


def _is_straight(ruleset, pipe: Tile) -> bool:
    sides = pipe.sides or ()
    return len(sides) == 2 and ruleset.geometry.opposite(sides[0]) == sides[1]


def solo_ladder_verdict(ruleset, final_score: int) -> str | None:
    """Funner solo ladder: 45 or more moves up a level, under 41 moves down."""
    if ruleset.solo_ladder is None:
        return None
    up, down = ruleset.solo_ladder
    return "up" if final_score >= up else "down" if final_score < down else "stay"


def skip_penalty(money: int, penalty: int, last_pick: bool) -> int:
    """Money lost for taking a machine and not building it: never below 1, none for the last pick."""
    return 0 if last_pick else max(0, money - max(1, money - penalty))


class _Replayer:
    def __init__(self, game: Game):
        self.game = game
        self.rules = game.ruleset
        self.violations: list[tuple[int, Violation]] = []
        self.unearned: dict[str, int] = {}   # machine id -> income it earns once placed legally ...
        self.tokens: dict[str, int] = {}     # ... of which the last-pick token
        self.untaken: set[str] = set()       # machines laid without being taken: they earn nothing, bonus included

    def add(self, number: int, rule: str, message: str, machines=(), cells=()) -> None:
        """A violation of the round, at the cells it concerns (QA: a rebuild and too many moves named none)."""
        self.violations.append((number, Violation(rule, message, sorted(set(cells)), sorted(machines))))

    def play_round(self, number: int, rnd, before: Layout, money: int) -> tuple[RoundReport, Layout]:
        after = rnd.layout if rnd.layout is not None else before
        report = RoundReport(number, list(rnd.offered), rnd.taken, built=False, last_pick=rnd.last_pick)
        old_ids, new_ids = set(before.machine_ids), set(after.machine_ids)
        added = sorted(new_ids - old_ids)
        report.built = rnd.taken is not None and rnd.taken in added
        if report.built and self.rules.undo_unaffordable and self.unaffordable(rnd, before, after, money):
            # Funner (RULES section 2): such a build is undone and the penalty paid, as if never laid
            after, report.undone = before, True
            report.built, new_ids, added = False, old_ids, []
        for gone in sorted(old_ids - new_ids):
            self.add(number, "machine-removed", f"machine {gone} was removed; machines are never removed", [gone],
                     _machine_cells(before, [gone]))
        for extra in added:
            if extra != rnd.taken:
                self.untaken.add(extra)
                self.add(number, "machine-not-taken", f"machine {extra} appears without being taken this round", [extra],
                         _machine_cells(after, [extra]))
        report.new_tiles, report.removed_tiles = tile_changes(before, after)
        report.moved_machines = machine_moves(before, after)
        changed = bool(report.new_tiles or report.removed_tiles or report.moved_machines or added or old_ids - new_ids)
        first = len(self.violations)
        if report.built:
            self.check_moves(number, report, after)
            self.unearned[rnd.taken] = self.taken_income(rnd)
            self.tokens[rnd.taken] = rnd.last_pick_token(self.rules)
            report.cost = self.build_cost(rnd, before, after)
            report.first_pick_fee = rnd.first_pick_fee(self.rules)
        elif changed:
            # (QA: beside "machine E08 appears without being taken", "a round that adds no machine" read as a contradiction)
            self.add(number, "rebuild-without-machine", "the layout changed in a round that "
                     + (f"does not build its taken machine {rnd.taken}" if rnd.taken else "takes no machine"),
                     cells=[t.cell for t in (*report.new_tiles, *report.removed_tiles)]
                     + _machine_cells(after, report.moved_machines))
            # its tiles are still paid for, as laid (QA: "new tiles 3" at no cost, money unchanged)
            report.cost = round_cost(before, after)
        for violation in check_layout(after).violations:
            self.violations.append((number, violation))
        faulty = {m for _, v in self.violations[first:] for m in v.machines}
        report.last_pick_token = sum(self.tokens.pop(m) for m in list(self.tokens) if m not in faulty)
        report.income = self.earn_income(faulty)
        if report.built:
            report.money = money + report.income - report.cost
            self.check_floor(number, rnd, report, money)
        else:
            if rnd.taken is not None:
                # the penalty comes last, on what the round's income and (illegal) tiles left: it never takes money
                # below 1 (QA: an illegal rebuild's cost of 3, then the whole 5, ended a round at -1)
                left = money + report.income - report.cost
                fee = rnd.first_pick_fee(self.rules)
                report.penalty = skip_penalty(left, self.rules.skip_penalty + fee, rnd.last_pick)
                # the token's share of it, counted first: where the floor at 1 leaves less than the whole penalty,
                # the token taken still shows (QA: at money 2 a first pick not built showed no token at all)
                report.first_pick_fee = min(fee, report.penalty)
                report.penalty_floored = not rnd.last_pick and report.penalty < self.rules.skip_penalty + fee
            report.money = money + report.income - report.penalty - report.cost
        report.layout = after
        return report, after

    def taken_income(self, rnd) -> int:
        """The taken machine's income, with the last-pick token where the ruleset uses it with this many players."""
        return self.game.context.catalog[rnd.taken].income + rnd.last_pick_token(self.rules)

    def build_cost(self, rnd, before: Layout, after: Layout) -> int:
        return round_cost(before, after) + rnd.first_pick_fee(self.rules)

    def unaffordable(self, rnd, before: Layout, after: Layout, money: int) -> bool:
        """Whether building would bring money below 1, the taken machine's income counted (as `check_floor`)."""
        return money + self.taken_income(rnd) - self.build_cost(rnd, before, after) < money_floor(money)

    def check_floor(self, number: int, rnd, report: RoundReport, money: int) -> None:
        """`money-floor`: a build may not bring money below 1. The taken machine's income counts even while a
        fault withholds it (README, rules decisions): that fault is the game's violation, not the build, so
        the money shown may drop below 1 in an illegal game without a second violation for one mistake."""
        affordable = money + report.income + self.unearned.get(rnd.taken, 0) - report.cost
        if affordable < money_floor(money):
            self.add(number, "money-floor", f"building costs {report.cost} but money would drop to {affordable}; "
                     "it must stay at least 1", [rnd.taken])

    def earn_income(self, faulty: set[str]) -> int:
        """Credit the machines laid and not yet paid for that no violation of this round names.

        RULES: income is earned in the round a machine is first placed legally. A machine a rule names
        (its input unfed, its port loose, its colours mixed) waits for the first round that names it no
        more; a fault elsewhere on the board does not hold it back, so one mistake does not starve every
        later round.
        """
        ready = [m for m in self.unearned if m not in faulty]
        return sum(self.unearned.pop(m) for m in ready)

    def check_moves(self, number: int, report: RoundReport, after: Layout) -> None:
        moved = report.moved_machines
        if moved and not self.rules.machines_movable:
            self.add(number, "machine-moved", f"machines placed earlier cannot move in {self.rules.id}: {', '.join(moved)}", moved,
                     _machine_cells(after, moved))
        elif len(moved) > self.rules.max_machine_moves:
            self.add(number, "machine-moves", f"{len(moved)} machines moved, at most {self.rules.max_machine_moves} a round", moved,
                     _machine_cells(after, moved))

    def run(self) -> ReplayResult:
        layout, money = self.game.empty_layout(), self.game.start_money
        reports = []
        for number, rnd in enumerate(self.game.rounds, start=1):
            report, layout = self.play_round(number, rnd, layout, money)
            money = report.money
            reports.append(report)
        # the final layout's chain bonus, without the inputs of machines laid untaken (QA: such a machine earned
        # no income, yet its bonus of 10 counted)
        final = check_layout(layout)
        chain = sum(c.bonus for c in final.score.chain_inputs if c.machine not in self.untaken)
        result = ReplayResult(reports, self.violations, layout, chain, final_violations=final.violations,
                              start_money=self.game.start_money)
        # the ladder judges a whole legal solo game (RULES: solo only; QA saw it for a 4-round plan and an illegal game);
        # one machine offered a round means no token (a `last_pick` there only spares the penalty: QA saw it cost
        # the verdict)
        solo = (all(len(r.offered) == 1 and not r.first_pick for r in self.game.rounds)
                and len(self.game.rounds) == self.rules.rounds and result.legal)
        result.ladder = solo_ladder_verdict(self.rules, result.final_score) if solo else None
        return result


def grouped_violations(violations: list[tuple[int, Violation]]) -> list[tuple[str, Violation]]:
    """Each distinct violation once, with the rounds it stands in ("3", "3-10", "2, 5"): a fault left in
    place is reported again every round, and a table of 28 rows for one mistake hides it."""
    rounds: dict[tuple, list[int]] = {}
    first: dict[tuple, Violation] = {}
    for number, violation in violations:
        key = (violation.rule, violation.message, tuple(violation.cells), tuple(violation.machines))
        rounds.setdefault(key, []).append(number)
        first.setdefault(key, violation)
    return [(_round_ranges(sorted(set(numbers))), first[key]) for key, numbers in rounds.items()]


def _round_ranges(numbers: list[int]) -> str:
    """[2, 3, 4, 7] -> "2-4, 7"."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def replay_game(game: Game) -> ReplayResult:
    """Replay every round, collecting every violation of the game and layout rules."""
    return _Replayer(game).run()
