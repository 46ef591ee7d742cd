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
count, so the cut stays sound. The tables are shared between placements by turning
one machine's placement into the other's frame (`Frame`: squares as they are, hexes
in axial coordinates), so Funner's hex machines get these cuts too.

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

import math
from dataclasses import dataclass, replace
from itertools import combinations

from models.catalog import Catalog
from models.geometry import HEX, SQUARE, Cell, ball, steps_between
from models.rulesets import Ruleset

from .pair_cuts import Relation, _legal_pair, _place, pair_inputs, placed_tiles
from .search import past
from .steiner import steiner_cells

#: counts are capped here (a triangle needing more is reported as needing CAP), and the placements
#: tried keep the second machine's anchor within CAP + 3 steps of the first: a farther one has a
#: relation path of CAP tiles or more on its own
CAP = 6

#: the caps tried in turn when nothing fits under the one before: a rigid cluster of eight machines
#: may have no embedding with every relation under 6 tiles, and then counted only 6 (n8/s0 of the
#: benchmark: 8 at cap 6, 10 at 8, 12 at 10). Bigger tables cost time, so they are built only then.
CAPS = (CAP, 10)

#: and after those, for trees with free edges (`tree_tiles`): a colour's one container between two rigid
#: clusters reaches them with a path of 10-14 tiles (classic-A FF01,FF12,FF22,FF36,FF47,FF48 needs 14
#: to prove 13 tiles where the relaxation paid 10)
FREE_CAPS = (14, 18)

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

#: partial embeddings between two looks at the clock
CLOCK_EVERY = 512

Pose = tuple[Cell, int]   # anchor, rotation steps of the second machine, the first at (0, 0) unturned


def supported(ruleset: Ruleset) -> bool:
    """Every geometry with a frame below: square dominoes, and Funner's hexes with their one-sided tanks (the
    tables count tiles as the pair cuts do, which know those tanks)."""
    return ruleset.geometry.name in FRAMES


#: a clockwise quarter turn taken 0-3 times, as the rows of its matrix: (r, c) -> (a r + b c, d r + e c)
QUARTER_TURNS = ((1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0))


def _powers(turn: tuple[int, int, int, int], count: int) -> tuple[tuple[int, int, int, int], ...]:
    """The matrix `turn` taken 0, 1, ... count - 1 times."""
    out, (a, b, d, e) = [(1, 0, 0, 1)], turn
    for _ in range(count - 1):
        p, q, r, t = out[-1]
        out.append((a * p + b * r, a * q + b * t, d * p + e * r, d * q + e * t))
    return tuple(out)


@dataclass(frozen=True)
class Frame:
    """How one geometry's placements compose: a cell as a vector that adds and turns (square [row, col] as it
    is; a hex [q, r] in axial coordinates, since its offset rows shift every other row and no sum of offsets
    is a translation), and the clockwise turns of one rotation step taken 0, 1, ... times."""

    hexes: bool
    turns: tuple[tuple[int, int, int, int], ...]

    def vector(self, cell: Cell) -> Cell:
        return HEX.axial(cell) if self.hexes else cell

    def cell(self, vector: Cell) -> Cell:
        return HEX.offset(vector) if self.hexes else vector

    def turned(self, vector: Cell, steps: int) -> Cell:
        """`vector` turned clockwise `steps` rotation steps (negative: counter-clockwise)."""
        a, b, d, e = self.turns[steps % len(self.turns)]
        return (a * vector[0] + b * vector[1], d * vector[0] + e * vector[1])

    def distance(self, one: Cell, two: Cell) -> int:
        """Steps between two cells on open ground."""
        return (HEX if self.hexes else SQUARE).distance(one, two)

    def spread(self, cells: list[Cell]) -> int:
        """The fewest cells of a connected set holding all of `cells`: a square box's rows + columns - 1; on hexes,
        half the ranges of the three cube coordinates + 1 (each step between neighbours moves two of them by one)."""
        if not self.hexes:
            rows, cols = [r for r, _ in cells], [c for _, c in cells]
            return max(rows) - min(rows) + max(cols) - min(cols) + 1
        vectors = [self.vector(cell) for cell in cells]
        xs, ys, zs = [x for x, _ in vectors], [y for _, y in vectors], [x + y for x, y in vectors]
        return -(-(max(xs) - min(xs) + max(ys) - min(ys) + max(zs) - min(zs)) // 2) + 1


#: (the hex turn (x, y) -> (-y, x + y) takes E (1, 0) to SE (0, 1), SE to SW (-1, 1), as the sides run clockwise)
FRAMES = {"square": Frame(False, QUARTER_TURNS), "hex": Frame(True, _powers((0, -1, 1, 1), 6))}


def frame_of(ruleset: Ruleset) -> Frame:
    return FRAMES[ruleset.geometry.name]


def relative(first: Pose, second: Pose, frame: Frame = FRAMES["square"]) -> Pose:
    """The second placement seen from the first: as if the first stood at (0, 0) unturned."""
    (anchor1, steps1), (anchor2, steps2) = first, second
    (x1, y1), (x2, y2) = frame.vector(anchor1), frame.vector(anchor2)
    return frame.cell(frame.turned((x2 - x1, y2 - y1), -steps1)), (steps2 - steps1) % len(frame.turns)


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
    inputs = pair_inputs(machines)
    mine, theirs = (relation.first, relation.second) if relation.first[0] == 0 else (relation.second, relation.first)
    start = first.faces[mine]
    table: dict[Pose, int] = {}
    frame = frame_of(ruleset)
    for anchor in ball(geometry, (0, 0), cap + 3):
        for steps in range(len(frame.turns)):
            end = geometry.across(*shape.locate(geometry, anchor, steps, theirs[1]))
            if frame.distance(end, start) + 1 >= cap:
                continue   # the relation's path alone is `cap` tiles or more
            second = _place(ruleset, machines[1], 1, anchor, steps)
            tiles = placed_tiles(ruleset, machines, first, second, (relation,), inputs, cap)
            if tiles is not None and tiles < cap:
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
    frame = frame_of(ruleset)
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
            seen = relative(pose_b, pose_c, frame)
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
        turns = len(frame_of(ruleset).turns)
        for anchor in ball(ruleset.geometry, (0, 0), 3):
            for steps in range(turns):
                second = _place(ruleset, machines[1], 1, anchor, steps)
                if first.body & second.body or _legal_pair(ruleset, machines, first, second, ()) is None:
                    bad.add((anchor, steps))
        _APART[key] = frozenset(bad)
    return _APART[key]


def compose(first: Pose, seen: Pose, frame: Frame = FRAMES["square"]) -> Pose:
    """The placement that `relative(first, ...)` sees as `seen`: its offset turned clockwise by the first's
    turn. The tree search composes millions of poses, so on squares it writes this out in its loop and reads
    the matrix once per child."""
    (anchor, steps), (offset, turn) = first, seen
    (x, y), (dx, dy) = frame.vector(anchor), frame.turned(frame.vector(offset), steps)
    return frame.cell((x + dx, y + dy)), (steps + turn) % len(frame.turns)


Edge = tuple[int, int, Relation]   # (parent's index, child's index, relation as `relations(parent, child)` gives it)

#: per tree: the least found so far, whether it is exact, and the budget multiple its last search ran
#: out of (0: it finished). A search is deterministic, so asking again only pays with a bigger budget.
_TREES: dict[tuple, tuple[int, bool, int]] = {}

Nets = tuple[tuple[tuple[int, str], ...], ...]   # networks as sets of (machine index, port position)


@dataclass(frozen=True)
class Tree:
    """Machines joined as a tree of relations (`edges`, each machine after its parent; names[0] is the root),
    the other networks among them (`nets`), and the edges that only lay their child (`free`); `paid`: the
    tiles a relaxation's solution pays for those networks (what an embedding's tiles are weighed against)."""

    names: tuple[str, ...]
    edges: tuple[Edge, ...]
    nets: Nets = ()
    free: frozenset[int] = frozenset()
    paid: int = 0


@dataclass
class _Ask:
    """What one search is asked: the caps in turn, the goal and need of `tree_tiles`, a floor known before,
    a time to stop by, and where to record the least embedding's poses (None: nowhere)."""

    caps: tuple[int, ...]
    goal: int | None = None
    need: int | None = None
    known: int = 0
    deadline: float = math.inf
    record: list | None = None
    collect: int = 0   # > 0: record up to this many embeddings under the aim, not only the least
    budget: int = 1    # the budget multiple to start with
    from_above: bool = False   # one branch and bound from no bound at all (to find embeddings, not prove)


def tree_tiles(ruleset: Ruleset, catalog: Catalog, names: tuple[str, ...], edges: tuple[Edge, ...],
               nets: Nets = (), caps: tuple[int, ...] = CAPS, goal: int | None = None, need: int | None = None,
               free: frozenset[int] = frozenset(), deadline: float = math.inf) -> int:
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
    least the faced cells' bounding box's rows + columns - 1, and once every machine is
    laid, the walk between the farthest two around the bodies, or with three or more
    faced cells their Steiner tree (solver/steiner.py). A container shared by four
    machines of a rigid cluster is counted so at the cluster's size, not at its best.

    With a `goal`, the answer is only exact below it: a caller asking whether the tiles
    exceed what it pays gets `goal` (a floor) when no embedding needs fewer. Branch and
    bound from the goal prunes far more than from the tables' fallback.

    A `free` edge (its index) only lays its child where its relation needs fewer than the cap
    tiles, and costs nothing itself: its relation's network is one of `nets`, counted whole. Two
    rigid clusters joined only by a colour's one container of four ports are laid so: the
    container's relation between them puts the second cluster near the first, and the container's
    network then reaches all four ports (classic-A FF01,FF12,FF22,FF36,FF47,FF48: 13 tiles where
    the relaxation paid 10, and no edge could count it, as a path between two of its ports).

    A caller that needs `need` tiles proved gets a bigger budget while less is (n8/s1's
    cluster needs 11: 8 within the first budget, 11 within eight times it). A tree asked
    again starts from the floor it has, and is searched again only when its last search
    finished below a higher goal, or ran out of a smaller budget than this call may get.
    Past `deadline` a search stops with the floor it reached (and may be asked again).
    """
    tree = Tree(names, edges, nets, free)
    key = (ruleset.id, tuple(catalog[m] for m in names), edges, nets, caps, free)
    floor, exact, spent = _TREES.get(key, (0, False, 0))
    allowed = TREE_GRANTS if need is not None and floor < need else 1
    if not exact and (goal is None or floor < goal) and allowed > spent:
        floor, exact, spent = _least_embedding(ruleset, catalog, tree, _Ask(caps, goal, need, floor, deadline))
        _TREES[key] = (floor, exact, spent)
    return floor


def least_embeddings(ruleset: Ruleset, catalog: Catalog, tree: Tree, caps: tuple[int, ...] = CAPS,
                     deadline: float = math.inf, most: int = 1) -> list[tuple[int, list[Pose]]]:
    """Up to `most` embeddings with the fewest tiles of `tree_tiles` found by `deadline`, best first, as
    (those tiles, the machines' poses); the poses put names[0] at (0, 0) unturned. The relaxation's own
    groups laid so are where a real layout of its topology can start.

    Where the search proves the least, the embeddings that tie on it (they differ in what the board and
    the routing make of them); where it runs out of its budget first (rigid clusters of 8-10 machines),
    the improving embeddings of one branch and bound from above, on the biggest tables."""
    record: list = []
    _, exact, _ = _least_embedding(ruleset, catalog, tree, _Ask(caps, deadline=deadline, record=record,
                                                                budget=TREE_GRANTS))
    if record and exact:
        if most <= 1:
            return record[-1:]
        ties: list = []
        _least_embedding(ruleset, catalog, tree, _Ask(caps, goal=record[-1][0] + 1, known=record[-1][0] - 1,
                                                      deadline=deadline, record=ties, collect=most,
                                                      budget=TREE_GRANTS))
        return ties or record[-1:]
    found: list = []
    _embedding_search(ruleset, catalog, tree, caps[-1],
                      _Ask(caps[-1:], deadline=deadline, record=found, budget=TREE_GRANTS, from_above=True))
    return sorted(found, key=lambda leaf: leaf[0])[:most] or record[-1:]


def _least_embedding(ruleset: Ruleset, catalog: Catalog, tree: Tree, ask: _Ask) -> tuple[int, bool, int]:
    """(`tree_tiles` at the `caps` in turn, each from tables holding the relations' placements under
    it, whether that is exact, the budget multiple a search cut short ran out of or 0): when nothing
    fits under a cap, every embedding has an edge at the cap or more, and the next cap's tables may
    say how much more. Each cap's search starts from the floor the one before proved (`known` at
    first); one cut short keeps the floor it reached, not exact."""
    known = ask.known
    for cap in ask.caps:
        found, fallback, grant = _embedding_search(ruleset, catalog, tree, cap, replace(ask, known=known))
        if fallback is None:   # cut short: a bigger budget may still be worth a try
            return found, False, grant
        known = found
        if found < fallback:
            break   # an embedding under the tables' reach (or none under the goal): bigger tables say no more
    return known, ask.goal is None or known < ask.goal, 0


def _embedding_search(ruleset: Ruleset, catalog: Catalog, tree: Tree, cap: int, ask: _Ask
                      ) -> tuple[int, int | None, int]:
    """(the least of `tree_tiles` over embeddings whose relations each need fewer than `cap` tiles, or
    the fallback below (or `goal`) if none is under it; the fallback: what an embedding with one
    relation at `cap` tiles or more needs at least; the budget multiple last used). A search out of
    its budget gives (what every embedding has at least: the last aim it answered no to; None; the
    multiple; 0 when out of time). `known` is a floor proved before, where the search starts; while less
    than `need` is proved, the budget doubles up to TREE_GRANTS times."""
    names, edges, nets, free = tree.names, tree.edges, tree.nets, tree.free
    frame = frame_of(ruleset)
    tables = []
    for p, c, r in edges:   # (a big cap's table takes up to half a second: the deadline holds between them)
        if past(ask.deadline):
            return ask.known, None, 0   # (QA: a 3 s solve of six machines spent 2.5 s here on tables of 18)
        tables.append(sorted(relation_table(ruleset, catalog, names[p], names[c], r, cap).items(),
                             key=lambda item: item[1]))
    floors = [0 if k in free else table[0][1] if table else cap for k, table in enumerate(tables)]
    # a free edge's relation is a path of its network, which holds at least that relation's tiles
    path_of = {k: _net_of(nets, *r.ports((p, c))) for k, (p, c, r) in enumerate(edges) if k in free}
    paths = [0] * len(nets)
    # a network of two ports, an output and an input, may be those ports facing each other: no tile
    direct = [len(net) == 2 and not all(_is_input(catalog, names[i], at) for i, at in net) for net in nets]
    net_floor = sum(1 for may_face in direct if not may_face)
    least = sum(floors) + net_floor
    rests = [sum(floors[k + 1:]) for k in range(len(edges))]
    # an embedding outside the tables has one edge at `cap` tiles or more: a counted edge's own, or a free
    # edge's network (one of `nets`, counted in `net_floor` at 1 at most)
    spared = max([f for k, f in enumerate(floors) if k not in free] + [1 if free else 0], default=0)
    fallback = cap + sum(floors) - spared + net_floor
    poses: list[Pose | None] = [((0, 0), 0)] + [None] * (len(names) - 1)
    faces: list[dict[str, Cell]] = [{}] * len(names)
    bodies: list[frozenset[Cell]] = [frozenset()] * len(names)
    top = fallback if ask.goal is None else min(fallback, ask.goal)
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
            return max(1, paths[n])
        return max(paths[n], frame.spread(cells))

    def walked(n: int, box: int, body: frozenset[Cell], limit: int) -> int:
        """With everything laid (`body`): the cells network `n` needs around the bodies to reach its faced
        cells, the farthest two of them or, with three or more, their Steiner tree (`steiner_cells`);
        `limit` or more when it needs that many (the caller's answer does not depend on how many more)."""
        if box == 0:
            return 0
        cells = [faces[i][at] for i, at in nets[n]]
        if len(set(cells)) >= 3:
            return max(box, steiner_cells(ruleset.geometry, cells, body, max(min(limit, 2 * SPAN), box + 1)))
        return max([box] + [steps_between(ruleset.geometry, x, y, body, SPAN) + 1 for x, y in combinations(cells, 2)])

    nets_of = [[n for n, net in enumerate(nets) if any(i == index for i, _ in net)] for index in range(len(names))]
    # the networks of three or more faced cells whose last machine edge k lays (before the last edge: the
    # leaf walks every network anyway)
    order = [0] + [c for _, c, _ in edges]
    closes = [[n for n, net in enumerate(nets) if len(net) >= 3 and k < len(edges) - 1
               and max(order.index(i) for i, _ in net) == k + 1] for k in range(len(edges))]
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
            barred[key] = frozenset(compose(poses[j], seen, frame) for seen in clashes[j, child])
        return barred[key]

    def place(k: int, tiles: int, boxes: list[int]) -> None:
        nonlocal best, budget, tests
        budget -= 1
        if budget < 0:
            raise _OutOfBudget
        if budget % CLOCK_EVERY == 0 and past(ask.deadline):
            raise _OutOfTime
        if k == len(edges):
            body = frozenset().union(*bodies)
            total = tiles + sum(boxes)
            for n, box in enumerate(boxes):   # each network's walk may raise the total up to `best`
                if total >= best:
                    return
                total += walked(n, box, body, best - total + box) - box
            if total >= best:
                return
            if ask.record is not None:
                ask.record.append((total, list(poses)))
                if ask.collect and len(ask.record) >= ask.collect:
                    raise _Enough
            if not ask.collect:
                best = min(best, total)
            return
        parent, child, _ = edges[k]
        path = path_of.get(k)
        # a free edge's entries come by its relation's tiles, and its network holds at least those: once
        # they and the boxes so far reach `best`, every later entry does too (boxes only grow)
        others = sum(boxes) - boxes[path] if path is not None else 0
        # the machines standing do not move while the child tries its entries: their clash sets are read once
        # (the parent's clashes are already out of its table)
        barring = [bars(j, child) for j, other in enumerate(poses) if other is not None and j != parent]
        touched = nets_of[child] + ([path] if path is not None else [])   # the boxes each entry changes
        (row, col), steps = poses[parent]
        a, b, d, e = QUARTER_TURNS[steps % 4]
        square = not frame.hexes
        for ((r, c), turn), relation_tiles in tables[k]:
            extra = 0 if k in free else relation_tiles
            if tiles + extra + rests[k] + net_floor >= best:
                return
            if path is not None and tiles + rests[k] + others + max(boxes[path], relation_tiles) >= best:
                return
            tests -= 1
            if tests < 0:
                raise _OutOfBudget
            pose = (((row + a * r + b * c, col + d * r + e * c), (steps + turn) % 4) if square   # compose, written out
                    else compose(poses[parent], ((r, c), turn), frame))
            for barred_poses in barring:
                if pose in barred_poses:
                    break
            else:
                put(child, pose)
                grown = list(boxes)
                if path is not None:
                    kept, paths[path] = paths[path], max(paths[path], relation_tiles)
                for n in touched:
                    grown[n] = net_box(n)
                # a network of three or more ports whose machines all stand now: its Steiner tree around the
                # bodies laid so far (later bodies only lengthen it) prunes far more than its box
                for n in closes[k]:
                    if tiles + extra + rests[k] + sum(grown) < best:
                        body = frozenset().union(*(bodies[i] for i, pose in enumerate(poses) if pose is not None))
                        grown[n] = walked(n, grown[n], body, best - (tiles + extra + rests[k] + sum(grown)) + grown[n])
                if tiles + extra + rests[k] + sum(grown) < best:
                    place(k + 1, tiles + extra, grown)
                if path is not None:
                    paths[path] = kept
                put(child, None)
                if best <= least:   # nothing beats the tables' least entries
                    return

    put(0, poses[0])
    proved = max(least, ask.known)
    grant = ask.budget
    budget, tests = TREE_BUDGET * grant, TREE_TESTS * grant
    # deepening: ask "fewer than `aim`?" for aims rising from what is known, so a search that runs out of
    # its budget still keeps the last aim it answered no to (small aims prune early, and each aim costs
    # about 2.5 times the one before, so the answers below cost less than the last)
    aim = proved + 1
    if ask.from_above:
        best = math.inf
        try:
            place(0, 0, [net_box(n) for n in range(len(nets))])
        except _OutOfBudget:
            pass
        return proved, None, grant
    while aim <= top:
        best = aim
        try:
            place(0, 0, [net_box(n) for n in range(len(nets))])
        except _Enough:
            return aim - 1, fallback, grant
        except _OutOfTime:
            return proved, None, 0
        except _OutOfBudget:
            if ask.need is None or proved >= ask.need or grant >= TREE_GRANTS:
                return proved, None, grant
            for index in range(1, len(names)):   # the cut-short search left its machines laid
                put(index, None)
            grant *= 2   # the caller needs more than is proved: double the budget and ask this aim again
            budget, tests = TREE_BUDGET * grant, TREE_TESTS * grant
            continue
        if best < aim or (ask.collect and ask.record):
            return min(best, aim - 1), fallback, grant   # the aim before was answered no: this is the least
        proved, aim = aim, aim + 1
    return proved, fallback, grant


def _net_of(nets: Nets, one: tuple[int, str], two: tuple[int, str]) -> int | None:
    """The network of `nets` that lists both ports, if one does."""
    return next((n for n, net in enumerate(nets) if one in net and two in net), None)


def _is_input(catalog: Catalog, machine: str, at: str) -> bool:
    return any(p.at == at for p in catalog[machine].inputs)


class _OutOfBudget(Exception):
    """`tree_tiles` tried TREE_BUDGET partial embeddings or TREE_TESTS placements without finishing."""


class _OutOfTime(_OutOfBudget):
    """`tree_tiles` went past its caller's deadline."""


class _Enough(Exception):
    """`least_embeddings` has as many embeddings as it asked for."""


