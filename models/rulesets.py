"""Rulesets as data: what differs between Factory Fun editions and Factory Funner.

Every rule that is a number or a switch lives here, so a new ruleset is one more
entry (plus its catalogue and boards in instances/), never a copy of the model.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace

from .geometry import HEX, SQUARE, Geometry
from .shapes import HEX_MACHINE, SQUARE_DOMINO_MACHINE, Shape


@dataclass(frozen=True)
class Ruleset:
    id: str
    geometry: Geometry
    machine_shape: Shape
    colors: tuple[str, ...]                 # supply colours; black is always the end product
    start_money: int
    rounds: int
    chain_bonus_per_point: int
    skip_penalty: int                       # money lost for taking a machine and not placing it
    catalog_file: str | None                # under instances/machines; None: none bundled
    boards_file: str                        # under instances/boards
    oriented_tanks: bool = False            # Funner tanks have one opening side
    supply_per_color: int = 1
    output_limit: int = 3
    end_limit: int | None = None            # shared stock; None = no limit (single player)
    bonus_supply: bool = True               # "+" machines give an extra supply container
    machines_movable: bool = True
    machine_move_cost: int = 2
    max_machine_moves: int = 2
    #: square: a cell holds one connector of 2-4 sides, or two 2-sided pipes;
    #: hex: any number of pipe pieces on disjoint sides
    multi_pipe_max_sides: int = 2
    max_pipes_per_cell: int = 2
    #: square: a cell's two pipes are one tile (a double connector), which moves or turns whole for one move;
    #: hex: every pipe piece is a tile of its own
    pipes_of_a_cell_are_one_tile: bool = True
    diagonal_available: bool = True
    x_splitter_available: bool = True
    #: Funner's special machines print ports of 2 or 4 colours (any one of them); the square games one colour
    multi_colour_ports: bool = False
    #: the game's name, as reports title it
    title: str = "Factory Fun"
    #: Funner's first/last tokens: the first to take pays this much more,
    #: the one who takes the last machine earns this much more if they build it
    first_pick_fee: int = 0
    last_pick_bonus: int = 0
    #: the tokens are used only with this many players or more (one machine is offered per player): the first-pick
    #: (-1) token from 3, the last-pick (+1) from 2 (the rulebook, seed 002: "2-player games leave out the (-1)
    #: tile, solo games both"; RULES.md 2 reads "3+ players", then "2 players: no -1 tile")
    first_pick_players: int = 3
    last_pick_players: int = 2
    #: Funner: a build that would bring money below 1 is undone and the skip penalty paid (RULES section 2);
    #: the square games forbid it, so the replay reports it as a `money-floor` violation
    undo_unaffordable: bool = False
    #: what messages call the tanks, where the game's rulebook names them otherwise: (square words, own words)
    tank_words: tuple[tuple[str, str], ...] = ()
    #: solo ladder thresholds (Funner): at least `up` moves up a level, under `down` moves down
    solo_ladder: tuple[int, int] | None = None

    def in_own_words(self, message: str) -> str:
        """A message in this game's words: Funner's rulebook says supply, white and black tanks."""
        for square, own in self.tank_words:
            message = message.replace(square, own)
        return message

    @property
    def all_colors(self) -> tuple[str, ...]:
        return self.colors + ("black",)


FACTORY_FUN = Ruleset(
    id="factory-fun",
    geometry=SQUARE,
    machine_shape=SQUARE_DOMINO_MACHINE,
    colors=("green", "red", "blue", "orange"),
    start_money=2,
    rounds=10,
    chain_bonus_per_point=5,
    skip_penalty=5,
    catalog_file="factory-fun.json",
    boards_file="factory-fun.json",
)

#: the 1st edition differs only in colours, start money and the missing diagonal tile
FACTORY_FUN_2006 = replace(
    FACTORY_FUN,
    id="factory-fun-2006",
    title="Factory Fun (1st edition)",
    colors=("yellow", "red", "blue", "brown"),
    start_money=1,
    catalog_file=None,   # the 1st edition's 48 printed tiles were never transcribed (../shared/data)
    diagonal_available=False,
)

FACTORY_FUNNER = Ruleset(
    id="factory-funner",
    title="Factory Funner",
    geometry=HEX,
    machine_shape=HEX_MACHINE,
    colors=("yellow", "pink", "green", "blue"),
    start_money=1,
    rounds=8,
    chain_bonus_per_point=3,
    skip_penalty=2,
    catalog_file="factory-funner.json",
    boards_file="factory-funner.json",
    oriented_tanks=True,
    end_limit=9,
    bonus_supply=False,
    machines_movable=False,
    max_machine_moves=0,
    multi_pipe_max_sides=6,
    max_pipes_per_cell=3,
    pipes_of_a_cell_are_one_tile=False,
    diagonal_available=False,
    multi_colour_ports=True,
    first_pick_fee=1,
    last_pick_bonus=1,
    undo_unaffordable=True,
    # (the articles first: QA read "an white tank")
    tank_words=(("an end-product reservoir", "a black tank"), ("An end-product reservoir", "A black tank"),
                ("an output reservoir", "a white tank"), ("An output reservoir", "A white tank"),
                ("end-product reservoir", "black tank"), ("output reservoir", "white tank"),
                ("supply container", "supply tank")),
    solo_ladder=(45, 41),
)

RULESETS: dict[str, Ruleset] = {r.id: r for r in (FACTORY_FUN, FACTORY_FUN_2006, FACTORY_FUNNER)}


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {json.dumps(ruleset_id, ensure_ascii=False)} (known: {', '.join(RULESETS)})") from None
