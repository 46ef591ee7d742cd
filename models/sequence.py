"""Known machine sequences, dealt as in the real game, for planning and benchmarks."""
from __future__ import annotations

import random
from typing import Any

from .catalog import Catalog
from .rulesets import Ruleset
from .wording import counted


def random_sequence(ruleset: Ruleset, catalog: Catalog, board_id: str, seed: int, players: int = 1,
                    rounds: int | None = None, solo: bool = False, specials: bool = False) -> dict[str, Any]:
    """A game document without `taken` or `layout`.

    As in the game, each player is dealt `rounds` machines from the shuffled
    catalogue and each round one machine per player is revealed; the planning
    player may take any of them. `solo` reveals one machine a round (take it
    or leave it), whatever `players` says. The catalogue's special machines are
    dealt only with `specials`, as the rulebook deals them only as a variant.
    The deck then sets the most players, as the rulebooks do: 55 / 10 rounds
    = 5 (Factory Fun), 48 / 10 = 4 (the 1st edition), 45 / 8 = 5 (Funner).
    """
    rounds = rounds or ruleset.rounds
    offered_per_round = 1 if solo else players
    # two or more players are dealt a whole game's machines, whatever `rounds` says: fewer rounds are the start
    # of a game the deck must be able to finish (QA: `--players 55 --rounds 1` dealt 55 players)
    dealt_rounds = ruleset.rounds if offered_per_round > 1 else rounds
    needed = dealt_rounds * offered_per_round
    deck = sorted(machine.id for machine in catalog.machines.values() if specials or not machine.special)
    if needed > len(deck):
        left_out = len(catalog.machines) - len(deck)
        aside = f" ({counted(left_out, 'special machine')} left out: --specials deals them)" if left_out else ""
        whole = " (a whole game's)" if dealt_rounds != rounds else ""
        raise ValueError(f"{counted(dealt_rounds, 'round')}{whole} x {counted(offered_per_round, 'offer')} need "
                         f"{counted(needed, 'machine')}; the catalogue {'deals' if left_out else 'has'} "
                         f"{len(deck)}{aside}")
    random.Random(seed).shuffle(deck)
    return {
        "ruleset": ruleset.id,
        "board": board_id,
        "start_money": ruleset.start_money,
        "rounds": [{"offered": deck[t * offered_per_round:(t + 1) * offered_per_round]} for t in range(rounds)],
    }
