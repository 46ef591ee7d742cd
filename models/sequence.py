"""Known machine sequences, dealt as in the real game, for planning and benchmarks."""
from __future__ import annotations

import random
from typing import Any

from .catalog import Catalog
from .rulesets import Ruleset
from .wording import counted


def random_sequence(ruleset: Ruleset, catalog: Catalog, board_id: str, seed: int, players: int = 1,
                    rounds: int | None = None, solo: bool = False) -> dict[str, Any]:
    """A game document without `taken` or `layout`.

    As in the game, each player is dealt `rounds` machines from the shuffled
    catalogue and each round one machine per player is revealed; the planning
    player may take any of them. `solo` reveals one machine a round (take it
    or leave it), whatever `players` says.
    """
    rounds = rounds or ruleset.rounds
    offered_per_round = 1 if solo else players
    needed = rounds * offered_per_round
    if needed > len(catalog.machines):
        raise ValueError(f"{counted(rounds, 'round')} x {counted(offered_per_round, 'offer')} need "
                         f"{counted(needed, 'machine')}; the catalogue has {len(catalog.machines)}")
    deck = sorted(catalog.machines)
    random.Random(seed).shuffle(deck)
    return {
        "ruleset": ruleset.id,
        "board": board_id,
        "start_money": ruleset.start_money,
        "rounds": [{"offered": deck[t * offered_per_round:(t + 1) * offered_per_round]} for t in range(rounds)],
    }
