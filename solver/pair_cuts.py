"""Pair cuts: the fewest tiles two networks joining the same two machines need, on open ground.

The geometry-free relaxation (solver/bounds.py) lets every network be as small as
its size allows at once: a feed with no pipe at all (the two ports face each
other) and, beside it, a supply container touching an input of each machine. Two
machines are dominoes with their ports printed where they are, so often both
cannot hold together: FF21 feeding FF40 port to port puts FF21's Sa and FF40's
Na on opposite sides of the pair, and one red container for both needs a path
of six pipes around them (seven tiles, not the one the relaxation counts).

For two relations (a feed, or two inputs sharing one supply network) between
machines `a` and `b`, `pair_tiles` is the fewest tiles (pipes and tanks) the
two networks hold together in any placement of the pair on open ground. It is a
lower bound for every legal layout in which both relations hold: keep the two
machines and the two networks' tiles, drop everything else; what is left is one
of the placements enumerated here, and the tiles on a path between two ports of
a network are at least the cells of the shortest such path around the two
machines' bodies. Other networks' pipes may cross (double connectors), so they
are ignored, but a tank can never stand where a port of another network faces
it. Nothing else is assumed, so the bound is sound on any board.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from models.catalog import Catalog, PortSpec
from models.geometry import Cell, ball, steps_between
from models.rulesets import Ruleset

#: counts above this are reported as CAP: paths that long are never the binding case, and
#: the search for the fewest tiles stays within CAP + 3 steps of the first machine
CAP = 8

Port = tuple[int, str]   # (0 for machine a, 1 for machine b; printed port position)


@dataclass(frozen=True)
class Relation:
    """Two ports (one on each machine) in one network: a feed (output first) or a shared supply."""

    kind: str            # "feed" | "supply"
    first: Port
    second: Port
    color: str | None    # the supply colour (None for a feed)

    def ports(self, pair: tuple[str, str]) -> tuple[tuple[str, str], tuple[str, str]]:
        """Its two ports as (machine id, port position), for the machines `pair` it was made between."""
        return (pair[self.first[0]], self.first[1]), (pair[self.second[0]], self.second[1])

    def swapped(self) -> "Relation":
        """The same relation between the same machines named in the other order."""
        return Relation(self.kind, (1 - self.first[0], self.first[1]), (1 - self.second[0], self.second[1]), self.color)


def _shares(x: PortSpec, y: PortSpec, colors: tuple[str, ...]) -> list[str]:
    return [c for c in x.colors if c in y.colors and c in colors]


def relations(ruleset: Ruleset, catalog: Catalog, a: str, b: str) -> list[Relation]:
    """Every feed and shared supply that could join a port of `a` to a port of `b`."""
    machines = (catalog[a], catalog[b])
    out: list[Relation] = []
    for giver in (0, 1):
        taker = 1 - giver
        for po in machines[giver].outputs:
            if po.is_black:
                continue
            for pi in machines[taker].inputs:
                if _shares(po, pi, ruleset.colors):
                    out.append(Relation("feed", (giver, po.at), (taker, pi.at), None))
    for pa in machines[0].inputs:
        for pb in machines[1].inputs:
            for c in _shares(pa, pb, ruleset.colors):
                out.append(Relation("supply", (0, pa.at), (1, pb.at), c))
    return out


def _together(r1: Relation, r2: Relation) -> bool:
    """Whether two relations can hold at once in two different networks.

    Not: one port in both, feeds both ways (a loop), or one colour's supply twice.
    """
    if {r1.first, r1.second} & {r2.first, r2.second}:
        return False
    if r1.kind == r2.kind == "feed" and r1.first[0] != r2.first[0]:
        return False
    return not (r1.kind == r2.kind == "supply" and r1.color == r2.color)


def relation_sets(ruleset: Ruleset, catalog: Catalog, a: str, b: str, size: int = 2) -> list[tuple[Relation, ...]]:
    """Sets of `size` relations between `a` and `b` that can hold together, each in its own network.

    Threes add to the pairs' cuts where a feed and two shared containers all join
    the same two machines: over the whole catalogue, 19 of the 41 such threes need
    two tiles more than their pairs' cuts together say.
    """
    return [rels for rels in combinations(relations(ruleset, catalog, a, b), size)
            if all(_together(r1, r2) for r1, r2 in combinations(rels, 2))]


@dataclass(frozen=True)
class _Placed:
    body: frozenset[Cell]
    slots: dict[Port, tuple[Cell, str]]   # port -> (its cell, the side it faces)
    faces: dict[Port, Cell]


def _place(ruleset: Ruleset, machine, index: int, anchor: Cell, steps: int) -> _Placed:
    geometry, shape = ruleset.geometry, ruleset.machine_shape
    body = frozenset(shape.cells(geometry, anchor, steps))
    slots = {(index, p.at): shape.locate(geometry, anchor, steps, p.at) for p in machine.ports}
    faces = {k: geometry.across(cell, side) for k, (cell, side) in slots.items()}
    return _Placed(body, slots, faces)


def _spec(machines: tuple, port: Port) -> PortSpec:
    return next(p for p in machines[port[0]].ports if p.at == port[1])


def _may_meet(machines: tuple, x: Port, y: Port, colors: tuple[str, ...]) -> bool:
    """Whether ports x and y (on different machines) may face each other: an output and an input
    of a common colour, alone in their network (never black: that network needs its reservoir)."""
    px, py = _spec(machines, x), _spec(machines, y)
    if px.is_input == py.is_input:
        return False
    out = px if not px.is_input else py
    return not out.is_black and bool(_shares(px, py, colors))


def _legal_pair(ruleset: Ruleset, machines: tuple, one: _Placed, two: _Placed, rels: tuple[Relation, ...]
                ) -> set[frozenset[Port]] | None:
    """Ports facing each other directly, or None if a port faces a wall or a port it cannot pair with.

    A relation's feed may be direct; a relation's other ports cannot (they are in a
    bigger network); ports outside the relations may pair as any feed could.
    """
    feeds = {frozenset((r.first, r.second)) for r in rels if r.kind == "feed"}
    used = {p for r in rels for p in (r.first, r.second)}
    direct: set[frozenset[Port]] = set()
    for mine, other in ((one, two), (two, one)):
        for port, face in mine.faces.items():
            if face not in other.body:
                continue
            back = [k for k, (cell, _) in other.slots.items() if cell == face and other.faces[k] == mine.slots[port][0]]
            if not back:
                return None
            pair = frozenset((port, back[0]))
            if pair not in feeds and (port in used or back[0] in used
                                      or not _may_meet(machines, port, back[0], ruleset.colors)):
                return None
            direct.add(pair)
    return direct


def _tiles(ruleset: Ruleset, placed: _Placed, rels: tuple[Relation, ...], direct: set[frozenset[Port]],
           inputs: dict[Port, tuple[str, ...]], cap: int = CAP) -> int:
    """The fewest tiles of the relations' networks with the two machines placed so, or `cap` if that is
    fewer (`inputs`: the colours each input port accepts)."""
    geometry = ruleset.geometry
    body = placed.body
    total = 0
    for r in rels:
        if frozenset((r.first, r.second)) in direct:
            continue
        start, end = placed.faces[r.first], placed.faces[r.second]
        if start in body or end in body:
            return cap  # a relation's port against the other machine: not a legal placement
        steps = steps_between(geometry, start, end, body, cap)
        if r.kind == "feed":
            total += steps + 1
        elif ruleset.oriented_tanks:
            # a tank open on one side only (hex) is a leaf of its network: the two inputs are joined by
            # pipes on every hex of the path and the tank stands beside it (FN09,FN15: the bound was 14,
            # the optimum 13)
            total += steps + 2
        else:
            # a tank never stands where a port of another network faces it (an output, or an input
            # that cannot take this colour; one that can might share the container)
            no_tank = {face for port, face in placed.faces.items()
                       if port not in (r.first, r.second) and not (port in inputs and r.color in inputs[port])}
            total += steps + (1 if start not in no_tank or end not in no_tank
                              else _tank_path(geometry, start, end, body, no_tank, cap))
        if total >= cap:
            return cap
    return min(total, cap)


def pair_inputs(machines: tuple) -> dict[Port, tuple[str, ...]]:
    """The two machines' inputs by (0 or 1, port position), with the colours each takes."""
    return {(k, p.at): p.colors for k in (0, 1) for p in machines[k].inputs}


def placed_tiles(ruleset: Ruleset, machines: tuple, one: _Placed, two: _Placed, rels: tuple[Relation, ...],
                 inputs: dict[Port, tuple[str, ...]], cap: int = CAP) -> int | None:
    """The fewest tiles of the relations' networks with the two machines placed as `one` and `two` (at most
    `cap`); None where they overlap, or a port faces what it cannot (`_legal_pair`)."""
    if one.body & two.body:
        return None
    direct = _legal_pair(ruleset, machines, one, two, rels)
    if direct is None:
        return None
    both = _Placed(one.body | two.body, one.slots | two.slots, one.faces | two.faces)
    return _tiles(ruleset, both, rels, direct, inputs, cap)


def _tank_path(geometry, start: Cell, end: Cell, body: frozenset[Cell], no_tank: set[Cell], cap: int) -> int:
    """Tiles beyond the path's steps when neither end may hold the tank: 1 if a tank can stand on a
    shortest path, else 2 (a longer path, or a tank beside it)."""
    near = ball(geometry, start, cap, body)
    far = ball(geometry, end, cap, body)
    steps = far.get(start, cap)
    on_path = min((near[x] + far[x] + 1 for x in near if x in far and x not in no_tank), default=cap)
    return min(on_path, steps + 2) - steps


def _least(rels: tuple[Relation, ...], reach: dict[Port, dict[Cell, int]], second: _Placed) -> int:
    """Tiles the relations need at least, from open-ground distances alone (0 where ports may meet)."""
    total = 0
    for r in rels:
        mine, theirs = (r.first, r.second) if r.first[0] == 0 else (r.second, r.first)
        gap = reach[mine].get(second.faces[theirs], 2 * CAP + 7)
        total += 0 if r.kind == "feed" and gap <= 1 else gap + 1
    return total


_PAIR_TILES: dict[tuple, int] = {}


def pair_tiles(ruleset: Ruleset, catalog: Catalog, a: str, b: str, rels: tuple[Relation, ...]) -> int:
    """The fewest tiles of the relations' networks over every placement of `a` and `b` (at most CAP)."""
    key = (ruleset.id, catalog[a], catalog[b], rels)
    if key in _PAIR_TILES:
        return _PAIR_TILES[key]
    geometry = ruleset.geometry
    origin: Cell = (0, 0)
    machines = (catalog[a], catalog[b])
    first = _place(ruleset, machines[0], 0, origin, 0)
    inputs = pair_inputs(machines)
    floor = sum(1 for r in rels if r.kind == "supply")   # what the relaxation already counts
    # open-ground distances from a's faces: a placement whose faces are already too far apart is skipped
    reach = {port: ball(geometry, face, 2 * CAP + 6) for port, face in first.faces.items()}
    best = CAP
    for anchor in ball(geometry, origin, CAP + 3):
        for steps in range(len(geometry.rotation_values)):
            second = _place(ruleset, machines[1], 1, anchor, steps)
            if _least(rels, reach, second) >= best:
                continue
            tiles = placed_tiles(ruleset, machines, first, second, rels, inputs)
            if tiles is None:
                continue
            best = min(best, tiles)
            if best <= floor:
                _PAIR_TILES[key] = best
                return best
    _PAIR_TILES[key] = best
    return best
