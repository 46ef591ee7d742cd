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
only for the triangles its own solution uses (`violated_cuts` in solver/bounds.py).

`tree_tiles` does the same for relations that join machines as a tree: two
relations through one machine (both may want the same side of it), and the
relaxation's clusters of port-to-port feeds and containers touching two ports,
which fix the machines' places almost rigidly. With the tree's machines laid,
the other networks among them (a colour's one container, an output feeding
several of them) reach faced cells that are now far apart, and are counted so.
"""
from __future__ import annotations

from models.catalog import Catalog
from itertools import combinations

from models.geometry import Cell, ball
from models.rulesets import Ruleset

from .pair_cuts import Relation, _legal_pair, _place, _Placed, _tiles

#: counts are capped here (a triangle needing more is reported as needing CAP), and the placements
#: tried keep the second machine's anchor within CAP + 3 steps of the first: a farther one has a
#: relation path of CAP tiles or more on its own
CAP = 6

#: the caps tried in turn when nothing fits under the one before: a rigid cluster of eight machines
#: may have no embedding with every relation under 6 tiles, and then counted only 6 (n8/s0 of the
#: benchmark: 8 at cap 6, 10 at 8, 12 at 10). Bigger tables cost time, so they are built only then.
CAPS = (CAP, 10)

#: partial embeddings `tree_tiles` may try before it settles for the tables' least entries (a big
#: cluster of loose relations has too many), and placements it may test (the bigger caps' tables are
#: long: 100 s of one n8 relaxation went into them before this)
TREE_BUDGET = 20_000
TREE_TESTS = 300_000

#: a tree whose caller needs more than its search proves within the budget gets the budget doubled,
#: up to this many times it (each grant asks the last aim again)
TREE_GRANTS = 8

#: the walks between a network's faced cells in `tree_tiles` stop this far out
SPAN = 16

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


def relation_table(ruleset: Ruleset, catalog: Catalog, a: str, b: str, relation: Relation,
                   cap: int = CAP) -> dict[Pose, int]:
    """For every legal placement of `b` near `a` (at (0, 0), unturned) where the relation needs fewer than
    `cap` tiles: that number.

    Placements that overlap `a` or put a port against its wall are missing, and so
    are those needing `cap` tiles or more (no sum that uses one can fall under `cap`).
    """
    key = (ruleset.id, catalog[a], catalog[b], relation, cap)
    if key in _TABLES:
        return _TABLES[key]
    geometry, shape = ruleset.geometry, ruleset.machine_shape
    machines = (catalog[a], catalog[b])
    first = _place(ruleset, machines[0], 0, (0, 0), 0)
    inputs = {(k, p.at): p.colors for k in (0, 1) for p in machines[k].inputs}
    mine, theirs = (relation.first, relation.second) if relation.first[0] == 0 else (relation.second, relation.first)
    start = first.faces[mine]
    table: dict[Pose, int] = {}
    for anchor in ball(geometry, (0, 0), cap + 3):
        for steps in range(4):
            end = geometry.across(*shape.locate(geometry, anchor, steps, theirs[1]))
            if abs(end[0] - start[0]) + abs(end[1] - start[1]) + 1 >= cap:
                continue   # the relation's path alone is `cap` tiles or more
            second = _place(ruleset, machines[1], 1, anchor, steps)
            if first.body & second.body:
                continue
            direct = _legal_pair(ruleset, machines, first, second, (relation,))
            if direct is None:
                continue
            both = _Placed(first.body | second.body, first.slots | second.slots, first.faces | second.faces)
            tiles = _tiles(ruleset, both, (relation,), direct, inputs, cap)
            if tiles < cap:
                table[(anchor, steps)] = tiles
    _TABLES[key] = table
    return table


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
            # else: c clashes with b, or their relation needs CAP tiles or more: no sum under CAP
    _TRIANGLES[key] = best
    return best


_APART: dict[tuple, frozenset[Pose]] = {}


def _clashes(ruleset: Ruleset, catalog: Catalog, a: str, c: str) -> frozenset[Pose]:
    """Placements of `c` near `a` (at (0, 0), unturned) that no legal layout holds: the bodies overlap,
    or a port faces the other machine's wall or a port it cannot pair with."""
    key = (ruleset.id, catalog[a], catalog[c])
    if key not in _APART:
        machines = (catalog[a], catalog[c])
        first = _place(ruleset, machines[0], 0, (0, 0), 0)
        bad = set()
        for anchor in ball(ruleset.geometry, (0, 0), 3):
            for steps in range(4):
                second = _place(ruleset, machines[1], 1, anchor, steps)
                if first.body & second.body or _legal_pair(ruleset, machines, first, second, ()) is None:
                    bad.add((anchor, steps))
        _APART[key] = frozenset(bad)
    return _APART[key]


def _turn(vector: Cell, steps: int) -> Cell:
    """`vector` turned clockwise `steps` quarter turns: `_turn_back` undone."""
    r, c = vector
    for _ in range(steps % 4):
        r, c = c, -r
    return (r, c)


def _compose(first: Pose, seen: Pose) -> Pose:
    """The placement that `relative(first, ...)` sees as `seen`."""
    (anchor, steps), (offset, turn) = first, seen
    moved = _turn(offset, steps)
    return (anchor[0] + moved[0], anchor[1] + moved[1]), (steps + turn) % 4


Edge = tuple[int, int, Relation]   # (parent's index, child's index, relation as `relations(parent, child)` gives it)

#: per tree: the least found so far, whether it is exact, and the budget multiple its last search ran
#: out of (0: it finished). A search is deterministic, so asking again only pays with a bigger budget.
_TREES: dict[tuple, tuple[int, bool, int]] = {}


def tree_tiles(ruleset: Ruleset, catalog: Catalog, names: tuple[str, ...], edges: tuple[Edge, ...],
               nets: tuple[tuple[tuple[int, str], ...], ...] = (), caps: tuple[int, ...] = CAPS,
               goal: int | None = None, need: int | None = None) -> int:
    """The fewest tiles of relations' networks that join machines as a tree, and of other networks
    among the same machines.

    `edges` list each machine after its parent (names[0] is the root). Each relation's
    tiles are counted with its own two machines (its table), and the whole tree must be
    laid at once: no two machines may overlap or put a port against the other's wall.
    That is what the pair and triangle cuts miss in a chain of port-to-port feeds: each
    link fits, but the far ends of the chain collide (a cut for the relaxation's rigid
    clusters). A star (every edge from the root) is the path cut: two relations that
    want the same side of one machine.

    `nets` are networks apart from the edges' (each a set of ports, as (machine index,
    port position)): the cells they cover reach every port's faced cell, so they are at
    least the faced cells' bounding box's rows + columns - 1. A container shared by four
    machines of a rigid cluster is counted so at the cluster's size, not at its best.

    With a `goal`, the answer is only exact below it: a caller asking whether the tiles
    exceed what it pays gets `goal` (a floor) when no embedding needs fewer. Branch and
    bound from the goal prunes far more than from the tables' fallback.

    A caller that needs `need` tiles proved gets a bigger budget while less is (n8/s1's
    cluster needs 11: 8 within the first budget, 11 within eight times it). A tree asked
    again starts from the floor it has, and is searched again only when its last search
    finished below a higher goal, or ran out of a smaller budget than this call may get.
    """
    key = (ruleset.id, tuple(catalog[m] for m in names), edges, nets, caps)
    floor, exact, spent = _TREES.get(key, (0, False, 0))
    allowed = TREE_GRANTS if need is not None and floor < need else 1
    if not exact and (goal is None or floor < goal) and allowed > spent:
        floor, exact, spent = _least_embedding(ruleset, catalog, names, edges, nets, caps, goal, floor, need)
        _TREES[key] = (floor, exact, spent)
    return floor


def _least_embedding(ruleset: Ruleset, catalog: Catalog, names: tuple[str, ...], edges: tuple[Edge, ...],
                     nets: tuple[tuple[tuple[int, str], ...], ...], caps: tuple[int, ...],
                     goal: int | None, known: int, need: int | None) -> tuple[int, bool, int]:
    """(`tree_tiles` at the `caps` in turn, each from tables holding the relations' placements under
    it, whether that is exact, the budget multiple a search cut short ran out of or 0): when nothing
    fits under a cap, every embedding has an edge at the cap or more, and the next cap's tables may
    say how much more. Each cap's search starts from the floor the one before proved (`known` at
    first); one cut short keeps the floor it reached, not exact."""
    for cap in caps:
        found, fallback, grant = _embedding_search(ruleset, catalog, names, edges, nets, cap, goal, known, need)
        if fallback is None:   # cut short: a bigger budget may still be worth a try
            return found, False, grant
        known = found
        if found < fallback:
            break   # an embedding under the tables' reach (or none under the goal): bigger tables say no more
    return known, goal is None or known < goal, 0


def _embedding_search(ruleset: Ruleset, catalog: Catalog, names: tuple[str, ...], edges: tuple[Edge, ...],
                      nets: tuple[tuple[tuple[int, str], ...], ...], cap: int, goal: int | None,
                      known: int = 0, need: int | None = None) -> tuple[int, int | None, int]:
    """(the least of `tree_tiles` over embeddings whose relations each need fewer than `cap` tiles, or
    the fallback below (or `goal`) if none is under it; the fallback: what an embedding with one
    relation at `cap` tiles or more needs at least; the budget multiple last used). A search out of
    its budget gives (what every embedding has at least: the last aim it answered no to; None; the
    multiple). `known` is a floor proved before, where the search starts; while less than `need` is
    proved, the budget doubles up to TREE_GRANTS times."""
    tables = [sorted(relation_table(ruleset, catalog, names[p], names[c], r, cap).items(), key=lambda item: item[1])
              for p, c, r in edges]
    floors = [table[0][1] if table else cap for table in tables]
    # a network of two ports, an output and an input, may be those ports facing each other: no tile
    direct = [len(net) == 2 and not all(_is_input(catalog, names[i], at) for i, at in net) for net in nets]
    net_floor = sum(1 for may_face in direct if not may_face)
    least = sum(floors) + net_floor
    rests = [sum(floors[k + 1:]) for k in range(len(edges))]
    poses: list[Pose | None] = [((0, 0), 0)] + [None] * (len(names) - 1)
    faces: list[dict[str, Cell]] = [{}] * len(names)
    bodies: list[frozenset[Cell]] = [frozenset()] * len(names)
    # an embedding outside the tables has one edge at `cap` tiles or more
    fallback = cap + sum(floors) - max(floors, default=0) + net_floor
    top = fallback if goal is None else min(fallback, goal)
    best = top

    def net_box(n: int) -> int:
        """Tiles network `n` needs at least, from the faced cells placed so far: their bounding box.
        Two ports that may face each other (an output and an input) need nothing until both stand apart."""
        net = nets[n]
        cells = [faces[i][at] for i, at in net if poses[i] is not None]
        if direct[n]:
            (i, at), (j, _) = net
            if len(cells) < 2 or faces[i][at] in bodies[j]:
                return 0
        if not cells:
            return 1
        rows, cols = [r for r, _ in cells], [c for _, c in cells]
        return max(rows) - min(rows) + max(cols) - min(cols) + 1

    def walked(n: int, box: int, body: frozenset[Cell]) -> int:
        """With everything laid (`body`): also the farthest two faced cells of network `n` around the bodies."""
        if box == 0:
            return 0
        cells = [faces[i][at] for i, at in nets[n]]
        return max([box] + [ball(ruleset.geometry, x, SPAN, body, until=y).get(y, SPAN) + 1
                            for x, y in combinations(cells, 2)])

    nets_of = [[n for n, net in enumerate(nets) if any(i == index for i, _ in net)] for index in range(len(names))]
    clashes = {(j, k): _clashes(ruleset, catalog, names[j], names[k])
               for j in range(len(names)) for k in range(len(names)) if j != k}
    laid: dict[tuple[int, Pose], tuple[dict[str, Cell], frozenset[Cell]]] = {}
    barred: dict[tuple[int, Pose, int], frozenset[Pose]] = {}

    def put(index: int, pose: Pose | None) -> None:
        poses[index] = pose
        if pose is not None:
            if (index, pose) not in laid:
                placed = _place(ruleset, catalog[names[index]], 0, *pose)
                laid[index, pose] = {at: cell for (_, at), cell in placed.faces.items()}, placed.body
            faces[index], bodies[index] = laid[index, pose]

    def bars(j: int, child: int) -> frozenset[Pose]:
        """The child's placements that clash with machine j where it stands (read once per place)."""
        key = (j, poses[j], child)
        if key not in barred:
            barred[key] = frozenset(_compose(poses[j], seen) for seen in clashes[j, child])
        return barred[key]

    def fits(child: int, parent: int, pose: Pose) -> bool:
        return all(pose not in bars(j, child) for j, other in enumerate(poses) if other is not None and j != parent)

    def place(k: int, tiles: int, boxes: list[int]) -> None:
        nonlocal best, budget, tests
        budget -= 1
        if budget < 0:
            raise _OutOfBudget
        if k == len(edges):
            body = frozenset().union(*bodies)
            best = min(best, tiles + sum(walked(n, box, body) for n, box in enumerate(boxes)))
            return
        parent, child, _ = edges[k]
        for seen, extra in tables[k]:
            if tiles + extra + rests[k] + net_floor >= best:
                return
            tests -= 1
            if tests < 0:
                raise _OutOfBudget
            pose = _compose(poses[parent], seen)
            if fits(child, parent, pose):
                put(child, pose)
                grown = list(boxes)
                for n in nets_of[child]:
                    grown[n] = net_box(n)
                if tiles + extra + rests[k] + sum(grown) < best:
                    place(k + 1, tiles + extra, grown)
                put(child, None)
                if best <= least:   # nothing beats the tables' least entries
                    return

    put(0, poses[0])
    proved = max(least, known)
    grant = 1
    budget, tests = TREE_BUDGET, TREE_TESTS
    # deepening: ask "fewer than `aim`?" for aims rising from what is known, so a search that runs out of
    # its budget still keeps the last aim it answered no to (small aims prune early, and each aim costs
    # about 2.5 times the one before, so the answers below cost less than the last)
    aim = proved + 1
    while aim <= top:
        best = aim
        try:
            place(0, 0, [net_box(n) for n in range(len(nets))])
        except _OutOfBudget:
            if need is None or proved >= need or grant >= TREE_GRANTS:
                return proved, None, grant
            for index in range(1, len(names)):   # the cut-short search left its machines laid
                put(index, None)
            grant *= 2   # the caller needs more than is proved: double the budget and ask this aim again
            budget, tests = TREE_BUDGET * grant, TREE_TESTS * grant
            continue
        if best < aim:
            return best, fallback, grant   # the aim before was answered no: this is the least
        proved, aim = aim, aim + 1
    return proved, fallback, grant


def _is_input(catalog: Catalog, machine: str, at: str) -> bool:
    return any(p.at == at for p in catalog[machine].inputs)


class _OutOfBudget(Exception):
    """`tree_tiles` tried TREE_BUDGET partial embeddings or TREE_TESTS placements without finishing."""


