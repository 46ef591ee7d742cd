"""Game documents (FORMATS.md): a known sequence, a recorded game, or a computed plan."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import DocumentError, as_json, expect, expect_int_in, require_keys
from .jsonio import read_json
from .layout import Context, Layout, parse_layout_body, refuse_data_file, resolve_context, set_options
from .wording import counted

#: the most start money a game document may give: the rules start with 1 or 2, and the planner's
#: integer models overflow on numbers like 10**40
MAX_START_MONEY = 10_000


@dataclass
class Round:
    offered: list[str]
    taken: str | None = None
    last_pick: bool = False
    first_pick: bool = False          # Funner: took the (-1) first-pick token
    layout: Layout | None = None      # None: the layout did not change
    has_taken: bool = False           # False in a sequence to plan for
    opening: bool = False             # the game's first round: Funner's tokens start in round 2

    def last_pick_token(self, rules) -> int:
        """What Funner's last-pick token adds to a built machine's income: from round 2 on, with 2+ players (the
        rulebook leaves out only the (-1) tile with two; README, rules decisions), whose rounds offer one machine
        each; otherwise `last_pick` only spares the skip penalty (the general rule: "no penalty for the player who
        took the last machine")."""
        return (rules.last_pick_bonus if self.last_pick and not self.opening
                and len(self.offered) >= rules.last_pick_players else 0)

    def first_pick_fee(self, rules) -> int:
        """What Funner's first-pick token adds to the build (or, if not built, to the penalty)."""
        return rules.first_pick_fee if self.first_pick else 0

    def planned(self, taken: str | None, layout: Layout | None) -> "Round":
        """This offer as a planner played it: `taken` built into `layout`, or nothing taken (layout None,
        and then no first/last token: a token goes with a taken machine)."""
        took = taken is not None
        return Round(list(self.offered), taken, self.last_pick and took, self.first_pick and took, layout,
                     has_taken=True, opening=self.opening)


@dataclass
class Game:
    context: Context
    start_money: int
    rounds: list[Round]
    options: dict[str, Any] = field(default_factory=dict)
    source: str = "<game>"

    @property
    def ruleset(self):
        return self.context.ruleset

    def with_rounds(self, rounds: list[Round]) -> "Game":
        """The same sequence, money and options with other rounds (a plan, or a plan changed a round)."""
        return Game(self.context, self.start_money, rounds, dict(self.options), self.source)

    def empty_layout(self) -> Layout:
        c = self.context
        return Layout(c.ruleset, c.board, c.catalog, (), (), dict(self.options), self.source)

    def to_dict(self, result: dict[str, Any] | None = None) -> dict[str, Any]:
        doc: dict[str, Any] = {"ruleset": self.ruleset.id, "board": self.context.board.id, "start_money": self.start_money}
        options = set_options(self.options)   # (defaults left out, as a layout leaves them: QA pass 52)
        if options:
            doc["options"] = options
        rounds = []
        for r in self.rounds:
            entry: dict[str, Any] = {"offered": list(r.offered)}
            if r.has_taken:
                entry["taken"] = r.taken
            if r.last_pick:
                entry["last_pick"] = True
            if r.first_pick:
                entry["first_pick"] = True
            if r.layout is not None:   # a whole layout document, so a round copied out is one `check` reads (QA)
                entry["layout"] = r.layout.to_dict()
            rounds.append(entry)
        doc["rounds"] = rounds
        if result is not None:
            doc["result"] = result
        return doc


def _parse_offered(source: str, key: str, raw: Any, context: Context, offered_in: dict[str, int], t: int) -> list[str]:
    """A round's offered machines: known ids, each offered once in the whole game.

    Every machine tile exists once in the box, so an id offered twice (in one round
    or in two) is a mistake in the document; `offered_in` maps ids to their round.
    """
    offered = expect(source, f"{key}.offered", raw, list, "a list of machine ids")
    for j, machine_id in enumerate(offered):
        expect(source, f"{key}.offered[{j}]", machine_id, str, "a machine id (a string)")
        if machine_id not in context.catalog:
            raise DocumentError(source, f"{key}.offered[{j}]", context.catalog.unknown(machine_id))
        if machine_id in offered_in:
            first = offered_in[machine_id]
            where = "twice in this round" if first == t else f"in rounds {first + 1} and {t + 1}"
            raise DocumentError(source, f"{key}.offered[{j}]", f"machine {machine_id} is offered {where} "
                                "(each machine tile exists once)")
        offered_in[machine_id] = t
    return list(offered)


def _parse_round(source: str, t: int, raw: Any, context: Context, options: dict[str, Any],
                 offered_in: dict[str, int], options_from: str = "the game's") -> Round:
    key = f"rounds[{t}]"
    require_keys(source, key, raw, {"offered"}, {"taken", "last_pick", "first_pick", "layout"})
    offered = _parse_offered(source, key, raw["offered"], context, offered_in, t)
    taken = raw.get("taken")
    if taken is not None:
        expect(source, f"{key}.taken", taken, str, "a machine id or null")
        if taken not in context.catalog:
            raise DocumentError(source, f"{key}.taken", context.catalog.unknown(taken))
        if taken not in offered:
            raise DocumentError(source, f"{key}.taken", f"{as_json(taken)} was not offered this round")
    last_pick = raw.get("last_pick", False)
    expect(source, f"{key}.last_pick", last_pick, bool, "true or false")
    first_pick = raw.get("first_pick", False)
    expect(source, f"{key}.first_pick", first_pick, bool, "true or false")
    if first_pick and not context.ruleset.first_pick_fee:
        raise DocumentError(source, f"{key}.first_pick", f"ruleset {context.ruleset.id} has no first-pick token")
    _check_tokens(source, key, t, raw, context, first_pick, last_pick, len(offered))
    layout = None
    if "layout" in raw:
        layout = parse_layout_body(source, f"{key}.layout", raw["layout"], context, options, options_from)
    return Round(offered, taken, last_pick, first_pick, layout, has_taken="taken" in raw, opening=t == 0)


def _check_tokens(source: str, key: str, t: int, raw: dict, context: Context, first_pick: bool, last_pick: bool,
                  players: int) -> None:
    """Funner's first/last tokens (rounds 2-8; the first-pick one with 3+ players, the last-pick one with 2+) go
    to two different players who took a machine; a round that gives one player both, or a token to nobody's
    machine, cannot happen. With fewer players (one offered machine each) there is no first-pick token; solo,
    `last_pick` still says the player took the last machine (no penalty if it is not built), but earns no token
    (Replayer)."""
    if last_pick and "taken" in raw and raw["taken"] is None:   # (Factory Fun's too: QA saw it accepted there)
        raise DocumentError(source, f"{key}.last_pick", "the last pick goes with a taken machine, and this round "
                            "takes none")
    if not context.ruleset.first_pick_fee:
        return   # Factory Fun's last_pick only means "the last machine left": any round from the first
    token = "first_pick" if first_pick else "last_pick" if last_pick else None
    if token is None:
        return
    if t == 0 and first_pick:   # (`last_pick` in round 1 spares the penalty, with no token: QA)
        raise DocumentError(source, f"{key}.first_pick", "the first-pick token is used from round 2 on")
    if first_pick and last_pick:
        raise DocumentError(source, key, "first_pick and last_pick go to different players, not both to one")
    if first_pick and players < context.ruleset.first_pick_players:
        raise DocumentError(source, f"{key}.first_pick", f"the first-pick token is used with "
                            f"{context.ruleset.first_pick_players} or more players, and this round offers "
                            f"{counted(players, 'machine')}, one per player")
    if "taken" in raw and raw["taken"] is None:
        raise DocumentError(source, f"{key}.{token}", "a token goes with a taken machine, and this round takes none")


def _game_options(source: str, document: dict, raw_rounds: list, context: Context) -> tuple[dict[str, Any], str]:
    """The game's options (the diagonal tile, an end limit) and whose they are: its own `options`, or else the
    first round layout's that has some. FORMATS.md gives options to layouts only, so a game written to it says
    them in each round's layout (QA pass 48: such a game was refused, its rounds' options "not matching" a game
    that named none); every round must then agree with them, as with the game's own."""
    where, raw, whose = "", document.get("options"), "the game's"   # (`where`: the key its `options` sit under)
    if "options" not in document:
        where, raw, whose = next(((f"rounds[{t}].layout", r["layout"]["options"], f"round {t + 1}'s")
                                  for t, r in enumerate(raw_rounds)
                                  if isinstance(r, dict) and isinstance(r.get("layout"), dict)
                                  and "options" in r["layout"]), (None, None, ""))
    if where is None:
        return {}, whose
    return dict(parse_layout_body(source, where, {"machines": [], "tiles": [], "options": raw}, context).options), whose


def parse_game(document: Any, source: str = "<game>", catalog_path=None, boards_path=None) -> Game:
    refuse_data_file(source, document, "a game document")
    if isinstance(document, dict) and "machines" in document and "rounds" not in document:
        raise DocumentError(source, "machines", "a layout (machines and tiles), not a game document (rounds)")
    require_keys(source, "", document, {"ruleset", "board", "rounds"}, {"start_money", "options", "result"})
    context = resolve_context(source, document["ruleset"], document["board"], catalog_path, boards_path)
    start_money = expect_int_in(source, "start_money", document.get("start_money", context.ruleset.start_money),
                                1, MAX_START_MONEY, "an integer")
    raw_rounds = expect(source, "rounds", document["rounds"], list, "a list of rounds")
    options, options_from = _game_options(source, document, raw_rounds, context)
    if not raw_rounds:
        raise DocumentError(source, "rounds", "a game needs at least one round")
    if len(raw_rounds) > context.ruleset.rounds:   # (fewer: the first rounds of a game, as the rulebooks show)
        raise DocumentError(source, f"rounds[{context.ruleset.rounds}]", f"{context.ruleset.title} has "
                            f"{context.ruleset.rounds} rounds; this game has {len(raw_rounds)}")
    offered_in: dict[str, int] = {}
    rounds = [_parse_round(source, t, raw, context, options, offered_in, options_from)
              for t, raw in enumerate(raw_rounds)]
    standing: set[str] = set()
    for t, r in enumerate(rounds):   # (QA: read as "took nothing", then "the layout changed in a round that adds
        if r.layout is None:         # no machine", or the game refused as a sequence)
            continue
        added = sorted(set(r.layout.machine_ids) - standing)
        if added and not r.has_taken:
            raise DocumentError(source, f"rounds[{t}].taken", f"missing key: the round's layout adds {', '.join(added)}")
        standing = set(r.layout.machine_ids)
    if any(r.has_taken for r in rounds):   # a played game: a round without `taken` took nothing
        for t, r in enumerate(rounds):
            token = "first_pick" if r.first_pick else "last_pick" if r.last_pick else None
            if token is not None and not r.has_taken:   # (QA: accepted, and the fee never charged)
                raise DocumentError(source, f"rounds[{t}].{token}", "a token goes with a taken machine, and this "
                                    "round of a played game says none was taken (no `taken`)")
    return Game(context, start_money, rounds, options, source)


def load_game(path: str | Path, catalog_path=None, boards_path=None) -> Game:
    return parse_game(read_json(path), str(path), catalog_path, boards_path)
