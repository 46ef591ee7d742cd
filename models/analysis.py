"""A played game set against the optimal plan for the same offered machines.

Both games are replayed with the same engine (`replay_game`), so every number in
the comparison is one the rest of the project would print for either game on its
own; the analysis only lines the two replays up round by round. The played game
may be illegal: its violations are kept per round and reported, never fatal,
because "you broke a rule in round 4" is part of what a player wants to learn.

The terminal view lives here (`analysis_table`, `analysis_summary`); the HTML
page is in `report_html`.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from .check import Violation
from .errors import DocumentError
from .game import Game
from .layout import Layout, with_defaults
from .replay import ReplayResult, RoundReport, grouped_violations, replay_game, tile_changes
from .terminal import ID_WIDTH, NARROW_WIDTH, cell_padding
from .wording import counted

#: How many losing rounds "where it fell short" names at most.
SHORTFALL_ROUNDS = 3


# -- data -----------------------------------------------------------------------------
@dataclass
class GameRound:
    """One game's side of a round: the replay's report plus the layout after it.

    `changed` is kept apart from `report.built` because a round can change the
    layout without a new machine (an illegal rebuild) and the pictures must show it.
    """

    report: RoundReport
    layout: Layout
    changed: bool
    violations: list[Violation] = field(default_factory=list)

    @property
    def choice(self) -> str:
        """The player's choice in words: what was taken and whether it was built."""
        r = self.report
        if r.taken is None:
            return "took nothing"
        return f"{r.taken} built" if r.built else f"{r.taken} {unbuilt(r)}"


@dataclass
class RoundComparison:
    """One round of both games, side by side."""

    number: int                 # 1-based
    offered: list[str]
    played: GameRound
    best: GameRound
    previous_gap: int           # played money - plan money before this round

    @property
    def gap(self) -> int:
        """Played money minus plan money after this round (negative: behind the plan)."""
        return self.played.report.money - self.best.report.money

    @property
    def change(self) -> int:
        """What this round alone won (+) or lost (-) against the plan.

        The running gap mixes every earlier round in; the change of the gap is
        what points at the round where the money was actually lost.
        """
        return self.gap - self.previous_gap

    @property
    def same_choice(self) -> bool:
        p, b = self.played.report, self.best.report
        return p.taken == b.taken and p.built == b.built


@dataclass(frozen=True)
class Shortfall:
    """One entry of "where it fell short": a round (or None for the chain bonus) and its loss."""

    round: int | None
    amount: int                 # money lost against the plan (negative: made up against it)

    @property
    def signed(self) -> str:
        """The money change as shown: "-5" for a loss, "+4" for what was made up."""
        return f"-{self.amount}" if self.amount > 0 else f"+{-self.amount}"
    text: str


@dataclass
class Analysis:
    """Everything the terminal table and the HTML page show."""

    played_game: Game
    best_game: Game
    played: ReplayResult
    best: ReplayResult
    rounds: list[RoundComparison]
    bound: int | None = None
    status: str | None = None
    #: the bound and status are a plan file's own result (read, not proved here: FORMATS ignores it on input)
    claimed: bool = False
    #: a plan file's result that a legal game beats, and so is not used (QA: a hand-edited "OPTIMAL, bound 65"
    #: shown beside a legal game of 66)
    refuted: str | None = None

    @property
    def played_score(self) -> int:
        return self.played.final_score

    @property
    def best_score(self) -> int:
        return self.best.final_score

    @property
    def score_gap(self) -> int:
        """Played final score minus the plan's (negative: behind)."""
        return self.played_score - self.best_score

    @property
    def share(self) -> float | None:
        """Played score as a percentage of the plan's; None when the plan scores 0 or less
        (a percentage of nothing says nothing)."""
        if self.best_score <= 0:
            return None
        return 100.0 * self.played_score / self.best_score

    @property
    def plan_gap(self) -> int | None:
        """How far the plan may still be from the true optimum: bound minus plan score."""
        return None if self.bound is None else self.bound - self.best_score

    @property
    def proven_optimal(self) -> bool:
        """The plan is known optimal when the planner says so or its bound is met."""
        return (self.status or "").upper() == "OPTIMAL" or self.plan_gap == 0

    @property
    def beaten(self) -> bool:
        """A legal played game scoring more than the plan (only a plan given with --plan can be: a computed
        one starts from the played game and never scores below it)."""
        return not self.played_violations and self.score_gap > 0

    @property
    def plan_label(self) -> str:
        """"optimum" only when proven (a plan document without its result proves nothing); a plan the game
        beats is no "best plan" (QA: "best plan 66" beside a legal game of 71); otherwise the honest "best plan"."""
        if self.best.violations:   # (only a plan given with --plan can be: a computed one is judged legal)
            return "given plan (illegal)"
        if self.beaten:
            return "given plan (beaten)"
        if self.claimed and not self.proven_optimal:   # (QA: an illegal game ahead of a --plan file called it
            return "given plan"                         # "best plan found", where this run found nothing)
        # ("found": QA read "best plan 73, share 100.0 %" as "you played the best game" where a search of 15 s
        # had found nothing better and a later one found 77)
        return "optimum" if self.proven_optimal else "best plan found"

    @property
    def chain_difference(self) -> int:
        return self.played.chain_bonus - self.best.chain_bonus

    @property
    def played_violations(self) -> list[tuple[int, Violation]]:
        return self.played.violations

    def shortfalls(self, limit: int = SHORTFALL_ROUNDS) -> list[Shortfall]:
        """The rounds that lost most money against the plan (largest first; beyond `limit`, the others as one
        line), then the chain-bonus difference at the end when the player has less, then what the player made
        up (rounds ahead of the plan, a higher chain bonus) as negative amounts: the lines add up to the
        difference. Nothing when no round differs in money and the chain bonuses are equal (QA: a game ahead at
        the end said "though some rounds lost money" and named none; a Funner game ahead by its last-pick tokens
        alone listed nothing it made up)."""
        if not any(r.change for r in self.rounds) and self.chain_difference == 0:
            return []
        losing = sorted((r for r in self.rounds if r.change < 0), key=lambda r: (r.change, r.number))
        # one round beyond the limit is named as the others are (QA: "1 more round (5): less money than the plan")
        shown = losing[:limit + 1] if len(losing) == limit + 1 else losing[:limit]
        out = [Shortfall(r.number, -r.change, _loss_reason(r)) for r in shown]
        rest = sorted(r.number for r in losing[len(shown):])
        if rest:   # named as a sum, so the lines add up to the difference (QA: -31 listed against -32)
            out.append(Shortfall(None, -sum(r.change for r in losing[len(shown):]),
                                 f"{len(rest)} more rounds "
                                 f"({', '.join(map(str, rest))}): less money than the plan"))
        if self.chain_difference < 0:
            out.append(Shortfall(None, -self.chain_difference,
                                 f"chain bonus at the end: {self.played.chain_bonus} against {self.best.chain_bonus}"))
        # what the player made up, as negative losses, so the lines add up to the difference (QA: rounds won
        # against the plan and a higher chain bonus had no line: -17 listed against -6)
        gaining = [r for r in self.rounds if r.change > 0]
        if len(gaining) == 1:   # (QA: "made up in round 5: more money than the plan", round null in the JSON,
            # where the losses beside it said why)
            out.append(Shortfall(gaining[0].number, -gaining[0].change, _gain_reason(gaining[0])))
        elif gaining:
            out.append(Shortfall(None, -sum(r.change for r in gaining), f"made up in rounds "
                                 f"{', '.join(str(r.number) for r in gaining)}: more money than the plan"))
        if self.chain_difference > 0:
            out.append(Shortfall(None, -self.chain_difference, f"made up in chain bonus at the end: "
                                 f"{self.played.chain_bonus} against {self.best.chain_bonus}"))
        return out

    def to_dict(self) -> dict[str, Any]:
        """The comparison as plain JSON-able data (for --json style output)."""
        return {
            "played_score": self.played_score, "best_score": self.best_score, "share": None if self.share is None else round(self.share / 100, 4),
            "bound": self.bound, "status": self.status, "plan_gap": self.plan_gap,
            "chain_bonus": {"played": self.played.chain_bonus, "best": self.best.chain_bonus},
            # (a plan given with --plan may be illegal: QA saw its five violations in no key)
            "legal": {"played": self.played.legal, "best": self.best.legal},
            **({"ladder": {"played": self.played.ladder, "best": self.best.ladder}}
               if self.played.ladder or self.best.ladder else {}),
            "rounds": [{
                "round": r.number, "offered": r.offered,
                "played": r.played.report.to_dict(), "best": r.best.report.to_dict(),
                "gap": r.gap, "change": r.change,
                "violations": [v.to_dict() for v in r.played.violations],
                "best_violations": [v.to_dict() for v in r.best.violations],
            } for r in self.rounds],
            "shortfalls": [{"round": s.round, "amount": s.amount, "text": s.text} for s in self.shortfalls()],
        }


def moves_note(side: GameRound) -> str:
    """" (2 for moving FF25)": what moving machines added to a round's build cost, or nothing."""
    moved = side.report.moved_machines
    if not moved:
        return ""
    return f" ({side.layout.ruleset.machine_move_cost * len(moved)} for moving {', '.join(moved)})"


def _loss_reason(r: RoundComparison) -> str:
    """Why a round lost money, from the parts of the round's money change."""
    p, b = r.played.report, r.best.report
    parts = _choice_part(r)
    if p.penalty_alone:
        parts.append(f"penalty {p.penalty_alone}")
    elif p.taken is not None and not p.built and p.last_pick:
        parts.append("no penalty")   # (QA: a skip with no penalty said nothing of why: its choice says "last pick")
    parts += _income_part(r)
    if p.tiles_cost > b.tiles_cost:
        # (QA: "build cost 13 against 4" did not say that 2 was a machine moved)
        parts.append(f"build cost {p.tiles_cost} against {b.tiles_cost}{moves_note(r.played)}")
    if p.first_pick_fee > b.first_pick_fee:
        parts.append(f"first-pick token -{p.first_pick_fee}")
    if p.last_pick_token < b.last_pick_token:
        parts.append(f"no last-pick token (plan: +{b.last_pick_token})")
    return f"round {r.number}: " + ("; ".join(parts) if parts else "less money than the plan")


def _gain_reason(r: RoundComparison) -> str:
    """Why a round made up money against the plan, in the words a loss is given."""
    p, b = r.played.report, r.best.report
    parts = _choice_part(r)
    if b.penalty_alone > p.penalty_alone:
        parts.append(f"penalty {p.penalty_alone} against {b.penalty_alone}")
    parts += _income_part(r)
    if p.tiles_cost < b.tiles_cost:
        parts.append(f"build cost {p.tiles_cost} against {b.tiles_cost}")
    if p.first_pick_fee < b.first_pick_fee:
        parts.append(f"no first-pick token (plan: -{b.first_pick_fee})")
    if p.last_pick_token > b.last_pick_token:
        parts.append(f"last-pick token +{p.last_pick_token}")
    return f"made up in round {r.number}: " + ("; ".join(parts) if parts else "more money than the plan")


def _choice_part(r: RoundComparison) -> list[str]:
    return [] if r.same_choice else [f"{r.played.choice} (plan: {r.best.choice})"]


def _income_part(r: RoundComparison) -> list[str]:
    p, b = r.played.report, r.best.report
    if not (p.built and b.built and p.machine_income != b.machine_income):
        return []
    # (QA: "income 0 against 11" did not say the replay withheld it from a machine laid against the rules)
    withheld = f" (withheld: {p.taken} is laid against the rules)" if p.machine_income == 0 and r.played.violations \
        else ""
    return [f"income {p.machine_income} against {b.machine_income}{withheld}"]


# -- building the comparison ---------------------------------------------------------
def _options(game: Game) -> dict[str, Any]:
    return with_defaults(game.options)


def require_taken(game: Game, source: str, what: str) -> None:
    """A played game or a plan says what was taken; a bare sequence says nothing (QA: `analyze` scored one as a
    game that took nothing: "your score 2")."""
    if not any(r.has_taken for r in game.rounds):
        raise DocumentError(source, "rounds", f"not {what}: no round says what was taken (a sequence? "
                            "`factoryfun plan` makes a plan of it)")


def check_comparable(played: Game, best: Game) -> None:
    """Both games must be the same game: ruleset, board, options, start money, rounds and
    the machines offered each round. Otherwise the comparison would be meaningless, so
    refuse it with a one-line message naming the first difference."""
    source = best.source
    if played.ruleset.id != best.ruleset.id:
        raise DocumentError(source, "ruleset", f"plan is for {best.ruleset.id}, the played game for {played.ruleset.id}")
    if played.context.board.id != best.context.board.id:
        raise DocumentError(source, "board", f"plan is on board {best.context.board.id}, the played game on {played.context.board.id}")
    if _options(played) != _options(best):
        raise DocumentError(source, "options", f"plan options {_options(best)} differ from the played game's {_options(played)}")
    if played.start_money != best.start_money:
        raise DocumentError(source, "start_money", f"plan starts with {best.start_money}, the played game with {played.start_money}")
    require_taken(best, source, "a plan")
    if len(played.rounds) != len(best.rounds):
        raise DocumentError(source, "rounds", f"plan has {len(best.rounds)} rounds, the played game {len(played.rounds)}")
    for t, (p, b) in enumerate(zip(played.rounds, best.rounds)):
        if Counter(p.offered) != Counter(b.offered):
            raise DocumentError(source, f"rounds[{t}].offered",
                                f"round {t + 1} offers {', '.join(b.offered)} in the plan "
                                f"but {', '.join(p.offered)} in the played game")


def _changed(before: Layout, after: Layout) -> bool:
    return Counter(before.machines) != Counter(after.machines) or any(tile_changes(before, after))


def _sides(game: Game, result: ReplayResult) -> list[GameRound]:
    by_round: dict[int, list[Violation]] = {}
    for number, violation in result.violations:
        by_round.setdefault(number, []).append(violation)
    before = game.empty_layout()
    sides = []
    for report in result.rounds:
        assert report.layout is not None   # (every replayed round has one)
        sides.append(GameRound(report, report.layout, _changed(before, report.layout), by_round.get(report.number, [])))
        before = report.layout
    return sides


def compare_games(played: Game, best: Game, best_bound: int | None = None, best_status: str | None = None,
                  claimed: bool = False) -> Analysis:
    """Replay both games and line them up round by round. `claimed`: the bound and status are a plan file's
    own (`plan_result`), dropped when a legal game scores above them.

    Raises DocumentError when the two are not the same game (see `check_comparable`).
    """
    check_comparable(played, best)
    played_result, best_result = replay_game(played), replay_game(best)
    rounds: list[RoundComparison] = []
    previous_gap = 0   # both start with the same money
    for p, b in zip(_sides(played, played_result), _sides(best, best_result)):
        comparison = RoundComparison(p.report.number, list(b.report.offered), p, b, previous_gap)
        rounds.append(comparison)
        previous_gap = comparison.gap
    refuted = _refuted_claim(best_bound, best_status, best_result, played_result) if claimed else None
    if refuted:
        best_bound, best_status = None, None
    return Analysis(played, best, played_result, best_result, rounds, best_bound, best_status, claimed, refuted)


def _refuted_claim(bound: int | None, status: str | None, plan: ReplayResult, played: ReplayResult) -> str | None:
    """Why a plan file's result cannot be true, or None: a legal game (the plan or the played one) scores above
    its bound, or above the plan it calls optimal."""
    top = max((g.final_score for g in (plan, played) if g.legal), default=None)
    optimal = (status or "").upper() == "OPTIMAL"
    if top is None or not ((bound is not None and top > bound) or (optimal and top > plan.final_score)):
        return None
    said = ", ".join(part for part in (None if bound is None else f"bound {bound}", status) if part)
    return f"the plan file says {said}, but a legal game scores {top}: not used"


def plan_result(document: Any) -> tuple[int | None, str | None]:
    """(bound, status) from a plan document's "result" block, which `parse_game`
    ignores on input; missing or malformed values give None rather than an error
    because the bound is only decoration for the comparison."""
    result = document.get("result") if isinstance(document, dict) else None
    if not isinstance(result, dict):
        return None, None
    bound, status = result.get("bound"), result.get("status")
    bound = bound if isinstance(bound, int) and not isinstance(bound, bool) else None
    return bound, status if isinstance(status, str) else None


# -- terminal view --------------------------------------------------------------------
def signed(value: int) -> str:
    """+3 / -3 / 0: a difference always shows its sign."""
    return f"{value:+d}" if value else "0"


def tone(value: int | float) -> str:
    """Rich style of a difference: losses red, gains green, even plain."""
    return "bold red" if value < 0 else "bold green" if value > 0 else "dim"


def _choice_text(side: GameRound) -> Text:
    r = side.report
    if r.taken is None:
        return Text("-", style="dim")
    text = Text(r.taken, style="bold" if r.built else "")
    if not r.built:
        text.append(f" {unbuilt(r)}", style="red")
    return text


def unbuilt(r: RoundReport) -> str:
    """A taken machine left off the board: "not built", or "undone" where Funner took its build back (QA: the
    tables said "not built" where "where it fell short" said "built, undone")."""
    # (QA: the analysis never said a skip was the last pick, where the replay table did)
    if r.undone:
        return "undone (money below 1)"
    if r.last_pick:
        return "not built (last pick)"
    # (QA: a penalty the money floor waived showed as a blank, where a player expected -5)
    if r.penalty_floored:
        return "not built (the penalty stops at money 1)" if r.money >= 1 else "not built (money already under 1)"
    return "not built"


def money_moves(r: RoundReport) -> list[tuple[str, int]]:
    """The round's money movements that are not zero: income (+), Funner's last-pick token (+), build (-), its
    first-pick token (-), penalty (-). The tokens are named: QA read a first pick's -1 as a dearer build."""
    moves = [("income", r.machine_income), ("last pick", r.last_pick_token),
             ("build", -r.tiles_cost), ("first pick", -r.first_pick_fee), ("penalty", -r.penalty_alone)]
    return [(kind, value) for kind, value in moves if value]


def _money_parts(r: RoundReport) -> str:
    short = {"income": "", "build": "", "penalty": " pen.", "last pick": " last", "first pick": " first"}
    return " ".join(f"{signed(value)}{short[kind]}" for kind, value in money_moves(r)) or "0"


def analysis_table(analysis: Analysis, width: int = NARROW_WIDTH) -> Table:
    """Per-round table: offers, both choices, money movement, both money totals and
    the difference, coloured so the losing rounds jump out; a notes column only when a round has a note
    (an empty one took the width 80 columns needed for the headings: QA)."""
    notes = [_round_notes(r) for r in analysis.rounds]
    noted = any(notes)
    table = Table(title=f"played game vs {analysis.plan_label}", title_style="bold", header_style="bold",
                  padding=cell_padding(width))
    table.add_column("rnd", justify="right")
    table.add_column("offered", min_width=ID_WIDTH)
    table.add_column("you took", min_width=ID_WIDTH)
    table.add_column("plan took", min_width=ID_WIDTH)
    table.add_column("you +/-", justify="right")
    table.add_column("plan +/-", justify="right")
    table.add_column("you $", justify="right")
    table.add_column("plan $", justify="right")
    table.add_column("you-plan", justify="right")
    table.add_column("this rnd", justify="right")
    if noted:
        table.add_column("notes", overflow="fold")
    tail = [""] if noted else []
    for r, note in zip(analysis.rounds, notes):
        table.add_row(
            str(r.number), " ".join(r.offered), _choice_text(r.played), _choice_text(r.best),
            _money_parts(r.played.report), _money_parts(r.best.report),
            str(r.played.report.money), str(r.best.report.money),
            Text(signed(r.gap), style=tone(r.gap)), Text(signed(r.change), style=tone(r.change)), *([note] if noted else []),
        )
    table.add_section()
    chain = analysis.chain_difference
    table.add_row("", "chain bonus", "", "", "", "", str(analysis.played.chain_bonus), str(analysis.best.chain_bonus),
                  "", Text(signed(chain), style=tone(chain)), *tail)
    table.add_row("", Text("final score", style="bold"), "", "", "", "", Text(str(analysis.played_score), style="bold"),
                  Text(str(analysis.best_score), style="bold"), Text(signed(analysis.score_gap), style=tone(analysis.score_gap)), "",
                  *tail)
    return table


def _round_notes(r: RoundComparison) -> Text:
    notes = Text()
    if r.played.violations:
        notes.append(counted(len(r.played.violations), "violation"), style="bold red")
    if r.best.violations:
        notes.append(("; " if notes else "") + f"plan: {counted(len(r.best.violations), 'violation')}", style="magenta")
    return notes


def fell_short(shortfalls: list[Shortfall]) -> bool:
    """Whether any line is a loss (the others are what the player made up)."""
    return any(s.amount > 0 for s in shortfalls)


def level_note(analysis: Analysis) -> str:
    """What the summary and the report say when no round lost money and the chain bonus is not behind; beside
    a plan not proved optimal, that a better game may exist (QA: "share 100.0 %, no round lost money" read as
    the best game, where a longer search found 4 points more)."""
    if analysis.proven_optimal or analysis.best.violations or analysis.beaten:
        return "no round lost money against the plan"
    return "no round lost money against the plan, which is not proved the best: a better game may exist"


def illegal_lead(analysis: Analysis) -> str | None:
    """A played game ahead of the plan only by breaking rules says so first (QA: an illegal game read "share
    131 %, level with or ahead of the plan"; a plan computed for a legal game never scores below it)."""
    if analysis.played_violations and analysis.score_gap > 0:
        return "ahead of the plan only by breaking the rules: the played game is illegal, so its score does not count"
    return None


def _ladder_words(verdict: str) -> str:
    return "stays on this level" if verdict == "stay" else f"moves {verdict} a level"


def ladder_text(analysis: Analysis) -> str | None:
    """Funner's solo ladder verdict of the played game, and the plan's beside it when it differs (QA: `replay`
    and `plan` said it, and `analyze`, where a solo player asks how they did, did not)."""
    played, best = analysis.played.ladder, analysis.best.ladder
    if played is None and best is None:
        return None
    if played is None:   # (an illegal game has no verdict; the plan's still says where a legal one stands: QA)
        return f"solo ladder: none for an illegal game; the plan {_ladder_words(best)}"
    text = f"solo ladder: your game {_ladder_words(played)}"
    if best is not None and best != played:
        text += f"; the plan {_ladder_words(best)}"
    return text


def share_text(analysis: Analysis) -> str:
    return "n/a" if analysis.share is None else f"{analysis.share:.1f}%"


def bound_text(analysis: Analysis) -> str | None:
    """"bound 30 (the plan 4 points under it), FEASIBLE" or None when the planner gave neither (`plan` says
    its gap in per cent, so the points are named: QA read "plan gap 47" as a percentage)."""
    if analysis.refuted:
        return analysis.refuted
    if analysis.bound is None and analysis.status is None:
        return None
    parts = []
    if analysis.bound is not None:
        parts.append(f"bound {analysis.bound} (the plan {analysis.plan_gap} points under it)")
    if analysis.status:
        parts.append(analysis.status)
    return ", ".join(parts) + (" (as the plan file says: not proved here)" if analysis.claimed else "")


def analysis_summary(analysis: Analysis) -> Group:
    """Scores, share of the optimum, bound and gap, where it fell short, violations."""
    lines: list[Text] = []
    head = Text()
    head.append("your score ", style="bold")
    head.append(str(analysis.played_score), style="bold")
    head.append(f"   {analysis.plan_label} ", style="bold")
    head.append(str(analysis.best_score), style="bold")
    head.append("   share ")
    head.append(share_text(analysis), style=tone(analysis.score_gap) if analysis.score_gap > 0 else "bold")
    head.append("   difference ")
    head.append(signed(analysis.score_gap), style=tone(analysis.score_gap))
    lines.append(head)
    lead = illegal_lead(analysis)
    if lead:
        lines.append(Text(lead, style="bold red"))
    ladder = ladder_text(analysis)
    if ladder:
        lines.append(Text(ladder, style="bold"))
    bound = bound_text(analysis)
    if bound:
        lines.append(Text(bound, style="dim"))
    shortfalls = analysis.shortfalls()
    lost = fell_short(shortfalls)
    lines.append(Text("where it fell short:", style="bold") if lost else Text(level_note(analysis), style="green"))
    if shortfalls:
        width = max(len(s.signed) for s in shortfalls)
        for s in shortfalls:
            line = Text("  ")
            line.append(s.signed.rjust(width), style="bold red" if s.amount > 0 else "bold green")
            line.append(f"  {s.text}")
            lines.append(line)
    for rounds, violation in grouped_violations(analysis.played_violations):
        at = f" at {violation.cells_text}" if violation.cells else ""
        lines.append(Text(f"round {rounds}: {violation.rule}: {violation.message}{at}", style="bold red"))
    if analysis.played_violations:
        lines.append(Text("the played game is illegal", style="bold red"))
    if analysis.best.violations:
        lines.append(Text(f"the plan itself has {counted(len(analysis.best.violations), 'violation')}", style="magenta"))
    return Group(*lines)


def analysis_html(analysis: Analysis, title: str | None = None, interrupted: bool = False) -> str:
    """The standalone HTML report (see `report_html`); imported lazily because the
    page module builds on this one."""
    from .report_html import analysis_html as render

    return render(analysis, title, interrupted)
