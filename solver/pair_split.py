"""Which placements of a two-machine block's second machine can hold the networks its pattern forces.

The local prover (solver/local.py) answers Funner blocks with CP-SAT on an open
patch, since growth (solver/grow.py) does not cover tanks open on one side. At
three spare pipes that model is beyond it: FN45,FN48's block stayed unknown
after 168 s on 91 hexes, so the pair's bound stayed 2 points over its best.
Split on where the second machine stands, the same question is 390 easy parts
(337 s on one core), and most of them need no solve: with the first machine
centred and the second placed, the networks the pattern forces between them
(a feed into a fed input; the one container of a colour both draw from) need
at least the tiles `pair_cuts` counts around the two bodies, and a placement
whose count is over the budget holds no layout the part could find.

Sound, because every count here is a floor every legal component obeys:
- the forced relations lie in different networks (a supply network never holds
  a product, and two supplies differ in colour), and only one feed is counted
  (two feeds might merge into one network);
- the block pays at most `fewest + pipes` tiles (the part asks for a score of
  `relaxed - pipes`), and its other networks at least one tank for each
  supplied colour no forced relation holds, one end tank if it has a black
  output, and one reservoir for each colour of an output no input of the block
  takes; what is left is all the forced networks may have.
"""
from __future__ import annotations

from itertools import product

from models.board import Board
from models.catalog import Catalog
from models.geometry import Cell
from models.rulesets import Ruleset
from models.stock import SupplyStock

from .local import Block, fewest_tanks
from .pair_cuts import CAP, Relation, _place, _Placed, _spec, _together, pair_inputs, placed_tiles, relations
from .reach import Pattern, supplied_colours


def forced_relation_sets(ruleset: Ruleset, catalog: Catalog, a: str, b: str, pattern: Pattern,
                         stock: SupplyStock) -> list[tuple[Relation, ...]]:
    """The sets of relations one of which every component of `a` and `b` with this fed pattern holds: a feed
    into the first fed input (one set for each output that could feed it), and a shared supply for each colour
    both draw from where the stock has one container of it."""
    every = relations(ruleset, catalog, a, b)
    names, pair = (a, b), (catalog[a], catalog[b])
    fed = sorted({r.second for r in every if r.kind == "feed" and pattern.get((names[r.second[0]], r.second[1])) == 1})
    feeds = [[r for r in every if r.kind == "feed" and r.second == fed[0]]] if fed else []
    supplies = []
    for colour in sorted(supplied_colours(catalog, (a,), pattern) & supplied_colours(catalog, (b,), pattern)):
        if stock.allowed(colour) + stock.any_colour > 1:
            continue
        shared = [r for r in every if r.kind == "supply" and r.color == colour
                  and all(pattern.get((names[k], at)) == 0 and len(_spec(pair, (k, at)).colors) == 1
                          for k, at in (r.first, r.second))]
        if shared:
            supplies.append(shared[0])   # one network holds every such input: any pair of them is joined
    sets = [tuple(feed) + tuple(supplies) for feed in (product(*feeds) if feeds else [()])]
    return [rels for rels in sets if rels and all(_together(x, y) for i, x in enumerate(rels) for y in rels[i + 1:])]


def other_tanks(catalog: Catalog, machines: tuple[str, ...], pattern: Pattern, rels: tuple[Relation, ...]) -> int:
    """Tanks the block's networks outside `rels` hold at least (see the module's docstring)."""
    held = {r.color for r in rels if r.kind == "supply"}
    supplies = len(supplied_colours(catalog, machines, pattern) - held)
    outputs = [p for m in machines for p in catalog[m].outputs]
    taken = {c for m in machines for p in catalog[m].inputs for c in p.colors}
    ends = int(any(p.is_black for p in outputs))
    reservoirs = len({p.colors[0] for p in outputs if not p.is_black and len(p.colors) == 1 and p.colors[0] not in taken})
    return supplies + ends + reservoirs


def room(ruleset: Ruleset, pair: tuple, one: _Placed, second: tuple[Cell, int], inputs: dict,
         rel_sets: list[tuple[Relation, ...]], allowed: dict) -> int | None:
    """How many tiles the first machine placed as `one` and the second standing at `second` (anchor, rotation
    steps) leave spare, at most, holding one of `rel_sets` within `allowed[rels]` tiles; None where none fits
    (0 where nothing is forced, and where the tables' count is capped)."""
    if not rel_sets:
        return 0
    two = _place(ruleset, pair[1], 1, *second)
    spare: int | None = None
    for rels in rel_sets:
        tiles = placed_tiles(ruleset, pair, one, two, rels, inputs)
        if tiles is None:
            continue
        if tiles >= CAP:   # the tables stop counting at CAP: it fits a budget of CAP or more, its room unknown
            left = 0 if allowed[rels] >= CAP else -1
        else:
            left = allowed[rels] - tiles
        if left >= 0:
            spare = max(left, spare if spare is not None else 0)
    return spare


def kept_placements(ruleset: Ruleset, catalog: Catalog, block: Block, pipes: int, board: Board,
                    centre: Cell) -> dict[tuple[Cell, int], int]:
    """The placements (anchor, rotation steps) of the block's second machine on its patch, its first machine at
    `centre` in its first rotation, that may hold what the block's pattern forces within `pipes` spare pipes,
    with the tiles each leaves spare (`room`)."""
    rel_sets, allowed = forced_budget(ruleset, catalog, block, pipes)
    # the first machine and the inputs are the same for every placement of the second: read once
    pair = (catalog[block.machines[0]], catalog[block.machines[1]])
    one = _place(ruleset, pair[0], 0, centre, 0)
    inputs = pair_inputs(pair)
    rooms = {(cell, steps): room(ruleset, pair, one, (cell, steps), inputs, rel_sets, allowed)
             for cell in board.cells for steps in range(len(ruleset.geometry.rotation_values))}
    return {placed: spare for placed, spare in rooms.items() if spare is not None}


def forced_budget(ruleset: Ruleset, catalog: Catalog, block: Block, pipes: int
                  ) -> tuple[list[tuple[Relation, ...]], dict[tuple[Relation, ...], int]]:
    """The block's forced relation sets, and the tiles each may hold at `pipes` spare pipes."""
    a, b = block.machines
    stock = block.stock or SupplyStock.of(ruleset, [catalog[a], catalog[b]])
    rel_sets = forced_relation_sets(ruleset, catalog, a, b, block.pattern, stock)
    fewest = fewest_tanks(ruleset, catalog, block)
    return rel_sets, {rels: fewest + pipes - other_tanks(catalog, block.machines, block.pattern, rels)
                      for rels in rel_sets}
