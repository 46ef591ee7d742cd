"""The fewest cells a network needs to reach several faced cells around laid machine bodies.

A network's tiles form one connected set of cells (pipes and tanks) holding the
cell each of its ports faces, and no machine body. Two faced cells need at least
the cells of the shortest walk between them; three or more need a Steiner tree,
which can be much more: four ports on the far sides of a cluster of machines
share one container only through a tree that walks around the whole cluster,
while their bounding box and their farthest pair say only half of it.

`steiner_cells` computes that tree exactly (Dreyfus-Wagner over subsets of the
faced cells, a breadth-first relaxation per subset, every cell of weight 1) on
open ground, with the bodies as the only obstacles. Other networks' pipes may
cross (a double connector), so nothing else blocks it, and the value is a lower
bound for every layout with those bodies where it stands.
"""
from __future__ import annotations

from collections import deque
from itertools import combinations

from models.geometry import Cell, Geometry

_FAR = 1 << 30


def steiner_cells(geometry: Geometry, terminals: list[Cell], body: frozenset[Cell] | set[Cell], limit: int) -> int:
    """The fewest cells of a connected set holding every terminal and no body cell, or `limit` if that is as
    many or more (a set of fewer than `limit` cells lies within `limit` - 2 steps of each of its cells, so the
    search stays within that many of the first terminal)."""
    terms = list(dict.fromkeys(terminals))
    if not terms:
        return 0
    if any(t in body for t in terms):
        return limit
    if len(terms) == 1:
        return min(1, limit)
    cells, neighbours = _region(geometry, terms[0], body, limit - 2)
    index = {cell: i for i, cell in enumerate(cells)}
    if any(t not in index for t in terms):
        return limit
    # dp[S][v]: fewest cells of a connected set holding the terminals in S and the cell v
    dp: dict[int, list[int]] = {}
    for bit, t in enumerate(terms):
        start = [_FAR] * len(cells)
        start[index[t]] = 1
        dp[1 << bit] = _spread(start, neighbours)
    for size in range(2, len(terms) + 1):
        for chosen in combinations(range(len(terms)), size):
            whole = sum(1 << bit for bit in chosen)
            low = whole & -whole
            merged = [_FAR] * len(cells)
            part = (whole - 1) & whole
            while part:
                if part & low:   # each split once: the part holding the lowest terminal
                    left, right = dp[part], dp[whole ^ part]
                    for v, (x, y) in enumerate(zip(left, right)):
                        if x + y - 1 < merged[v]:
                            merged[v] = x + y - 1
                part = (part - 1) & whole
            dp[whole] = _spread(merged, neighbours)
    return min(limit, min(dp[(1 << len(terms)) - 1]))


def _region(geometry: Geometry, centre: Cell, body: frozenset[Cell] | set[Cell], radius: int
            ) -> tuple[list[Cell], list[list[int]]]:
    """Cells within `radius` steps of `centre` around `body`, and each one's neighbours among them."""
    seen = {centre: 0}
    queue = deque([centre])
    while queue:
        cell = queue.popleft()
        if seen[cell] >= radius:
            continue
        for side in geometry.sides:
            other = geometry.across(cell, side)
            if other not in seen and other not in body:
                seen[other] = seen[cell] + 1
                queue.append(other)
    cells = list(seen)
    index = {cell: i for i, cell in enumerate(cells)}
    neighbours = [[index[o] for side in geometry.sides if (o := geometry.across(cell, side)) in index]
                  for cell in cells]
    return cells, neighbours


def _spread(start: list[int], neighbours: list[list[int]]) -> list[int]:
    """`start` relaxed along the cells: a set reaching v extends to a neighbour for one more cell
    (Dijkstra with unit weights, by buckets of equal value)."""
    best = list(start)
    buckets: dict[int, list[int]] = {}
    for v, value in enumerate(best):
        if value < _FAR:
            buckets.setdefault(value, []).append(v)
    while buckets:
        value = min(buckets)
        for v in buckets.pop(value):
            if best[v] != value:
                continue
            for u in neighbours[v]:
                if best[u] > value + 1:
                    best[u] = value + 1
                    buckets.setdefault(value + 1, []).append(u)
    return best
