"""Triangle cuts: three machines joined pairwise by three networks need tiles the pair cuts cannot see.

After the pair cuts (solver/pair_cuts.py) the relaxation prefers chains that close
a loop through three machines: FF03 feeds FF40 port to port, FF40 feeds FF10 port
to port, and FF03 and FF10 share the blue container, each network alone costing
nothing. On the grid the three bodies and their printed ports cannot all meet so:
the three networks need at least 5 tiles together (1 counted before).

`triangle_tiles` bounds that number from below without placing all three at once:
each relation's tiles are counted with only its own two machines on open ground
(the third body could only lengthen its path), so the fewest tiles of the three
is the least, over placements of b and c around a, of three table entries. What
is dropped (the third body as an obstacle, the third machine's ports as places a
tank may not stand, port pairings a third relation rules out) only lowers the
count, so the cut stays sound. Square boards only: the tables are shared between
placements by turning one machine's placement into the other's frame.

Three machines have many relation triangles, so the relaxation adds these cuts
only for the triangles its own solution uses (`separate` in solver/bounds.py).
"""
from __future__ import annotations

from models.catalog import Catalog
from models.geometry import Cell, ball
from models.rulesets import Ruleset

from .pair_cuts import Relation, _legal_pair, _place, _Placed, _tiles

#: counts are capped here (a triangle needing more is reported as needing CAP), and the placements
#: tried keep the second machine's anchor within CAP + 3 steps of the first: a farther one has a
#: relation path of CAP tiles or more on its own
CAP = 6

Pose = tuple[Cell, int]   # anchor, rotation steps of the second machine, the first at (0, 0) unturned


def supported(ruleset: Ruleset) -> bool:
    """Square grids (the frame turn below is the square one) without anything but dominoes."""
    return ruleset.geometry.name == "square" and not ruleset.oriented_tanks


def _turn_back(vector: Cell, steps: int) -> Cell:
    """`vector` turned counter-clockwise `steps` quarter turns (rows down, columns right)."""
    r, c = vector
    for _ in range(steps % 4):
        r, c = -c, r
    return (r, c)


def relative(first: Pose, second: Pose) -> Pose:
    """The second placement seen from the first: as if the first stood at (0, 0) unturned."""
    (anchor1, steps1), (anchor2, steps2) = first, second
    offset = (anchor2[0] - anchor1[0], anchor2[1] - anchor1[1])
    return _turn_back(offset, steps1), (steps2 - steps1) % 4


_TABLES: dict[tuple, dict[Pose, int]] = {}


def relation_table(ruleset: Ruleset, catalog: Catalog, a: str, b: str, relation: Relation) -> dict[Pose, int]:
    """For every legal placement of `b` near `a` (at (0, 0), unturned): the relation's fewest tiles (<= CAP).

    Placements that overlap `a` or put a port against its wall are missing;
    placements farther than CAP + 3 steps are missing too (`far` tells them apart).
    """
    key = (ruleset.id, catalog[a], catalog[b], relation)
    if key in _TABLES:
        return _TABLES[key]
    machines = (catalog[a], catalog[b])
    first = _place(ruleset, machines[0], 0, (0, 0), 0)
    inputs = {(k, p.at): p.colors for k in (0, 1) for p in machines[k].inputs}
    table: dict[Pose, int] = {}
    for anchor in ball(ruleset.geometry, (0, 0), CAP + 3):
        for steps in range(4):
            second = _place(ruleset, machines[1], 1, anchor, steps)
            if first.body & second.body:
                continue
            direct = _legal_pair(ruleset, machines, first, second, (relation,))
            if direct is None:
                continue
            both = _Placed(first.body | second.body, first.slots | second.slots, first.faces | second.faces)
            table[(anchor, steps)] = min(CAP, _tiles(ruleset, both, (relation,), direct, inputs))
    _TABLES[key] = table
    return table


def _far(pose: Pose) -> bool:
    (r, c), _ = pose
    return abs(r) + abs(c) > CAP + 3


_TRIANGLES: dict[tuple, int] = {}


def triangle_tiles(ruleset: Ruleset, catalog: Catalog, names: tuple[str, str, str],
                   ab: Relation, bc: Relation, ac: Relation) -> int:
    """The fewest tiles of three relations' networks: `ab` between names[0] and names[1] (indices as
    `relations(a, b)` gives them), `bc` between names[1] and names[2], `ac` between names[0] and names[2]."""
    a, b, c = names
    key = (ruleset.id, catalog[a], catalog[b], catalog[c], ab, bc, ac)
    if key in _TRIANGLES:
        return _TRIANGLES[key]
    to_b = relation_table(ruleset, catalog, a, b, ab)
    to_c = relation_table(ruleset, catalog, a, c, ac)
    b_to_c = relation_table(ruleset, catalog, b, c, bc)
    best = CAP
    for pose_b, tiles_b in sorted(to_b.items(), key=lambda item: item[1]):
        if tiles_b >= best:
            break
        for pose_c, tiles_c in to_c.items():
            if tiles_b + tiles_c >= best:
                continue
            seen = relative(pose_b, pose_c)
            if seen in b_to_c:
                best = min(best, tiles_b + tiles_c + b_to_c[seen])
            elif _far(seen):
                best = min(best, tiles_b + tiles_c + CAP)
            # else: c overlaps b or faces its wall (or b faces c's): not a placement
    _TRIANGLES[key] = best
    return best
