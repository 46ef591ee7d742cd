"""Property tests: any document gives a verdict or a DocumentError, never a crash;
verdicts are deterministic, name known rules and cells on the board, and add up."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.check import RULES, CheckResult, check_layout
from models.errors import DocumentError
from models.layout import parse_layout

EXAMPLES = Path(__file__).resolve().parents[1] / "instances" / "examples"
EXAMPLE_DOCS = [json.loads(p.read_text()) for p in sorted(EXAMPLES.glob("*.json"))
                if p.name.startswith(("legal-", "illegal-", "rulebook-round"))]
MACHINE_IDS = [f"FF{i:02d}" for i in range(1, 56)]
SIDES = ["N", "E", "S", "W"]
COLORS = ["green", "red", "blue", "orange", "black", "yellow"]

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.floats(allow_nan=False, width=16),
                      st.sampled_from(["", "N", "red", "pipe", "FF29", "classic-A", "factory-fun", "supply", "diagonal"]))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(
        ["kind", "cell", "id", "rotation", "sides", "color", "side", "tiles", "machines", "options", "x"]), inner, max_size=4)),
    max_leaves=12)

cells = st.lists(st.integers(-1, 9), min_size=2, max_size=2)
machine = st.fixed_dictionaries({"id": st.sampled_from(MACHINE_IDS + ["FF00", "FN01"]), "cell": cells,
                                 "rotation": st.sampled_from([0, 90, 180, 270, 0, 90, 180, 270, 45, -90])})
tile = st.one_of(
    st.fixed_dictionaries({"kind": st.just("supply"), "cell": cells, "color": st.sampled_from(COLORS[:4] + COLORS[:4] + COLORS[4:])}),
    st.fixed_dictionaries({"kind": st.sampled_from(["output", "end"]), "cell": cells}),
    st.fixed_dictionaries({"kind": st.just("pipe"), "cell": cells, "sides": st.lists(st.sampled_from(SIDES), min_size=1, max_size=4)}),
    st.fixed_dictionaries({"kind": st.just("diagonal"), "cell": cells, "rotation": st.sampled_from([0, 90, 180, 270, 30])}),
)
layout_doc = st.fixed_dictionaries(
    {"ruleset": st.just("factory-fun"), "board": st.sampled_from(["classic-A", "classic-A", "expert-A", "classic-C"]),
     "machines": st.lists(machine, max_size=4, unique_by=lambda m: m["id"]), "tiles": st.lists(tile, max_size=12)},
    optional={"options": st.fixed_dictionaries({}, optional={"diagonal_intersection": st.booleans(),
                                                             "end_limit": st.one_of(st.none(), st.integers(0, 3))})},
)


def verdict(document) -> CheckResult | None:
    """A CheckResult or None for a DocumentError; anything else propagates and fails the test."""
    try:
        layout = parse_layout(document, "<prop>")
    except DocumentError as exc:
        assert str(exc).startswith("<prop>")
        return None
    return check_layout(layout)


def assert_sound(document, result: CheckResult) -> None:
    layout = parse_layout(document, "<prop>")
    again = check_layout(parse_layout(copy.deepcopy(document), "<prop>"))
    assert again.to_dict() == result.to_dict()                    # deterministic
    assert result.legal == (result.violations == [])
    for v in result.violations:
        assert v.rule in RULES
        assert all(layout.board.is_playable(tuple(c)) for c in v.cells)
        assert set(v.machines) <= set(layout.machine_ids)
    s = result.score
    assert s.total == s.income - s.cost + s.chain_bonus
    assert s.cost == sum(2 if t.kind == "diagonal" else 1 for t in layout.tiles)
    assert s.income == sum(layout.catalog[m].income for m in layout.machine_ids)
    if result.legal:
        assert result.connectivity.loose_ends == []


@FAST
@given(json_value)
def test_arbitrary_json_never_crashes(document):
    verdict(document)


@FAST
@given(st.dictionaries(st.sampled_from(["ruleset", "board", "machines", "tiles", "options", "result", "extra"]),
                       json_value, max_size=6))
def test_arbitrary_top_level_objects_never_crash(document):
    verdict(document)


@st.composite
def mangled(draw):
    doc = copy.deepcopy(draw(st.sampled_from(EXAMPLE_DOCS)))
    for _ in range(draw(st.integers(1, 3))):
        # walk to a random container and change one thing in it
        node = doc
        path_len = draw(st.integers(0, 3))
        for _ in range(path_len):
            children = [v for v in (node.values() if isinstance(node, dict) else node) if isinstance(v, (dict, list))] \
                if isinstance(node, (dict, list)) else []
            if not children:
                break
            node = draw(st.sampled_from(children))
        action = draw(st.sampled_from(["set", "delete", "add"]))
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
            if action == "delete":
                del node[key]
            elif action == "add":
                node[draw(st.sampled_from(["colour", "x", "cell", "sides", "rotation"]))] = draw(json_value)
            else:
                node[key] = draw(json_value)
        elif isinstance(node, list) and node:
            index = draw(st.integers(0, len(node) - 1))
            if action == "delete":
                del node[index]
            elif action == "add":
                node.append(draw(json_value))
            else:
                node[index] = draw(json_value)
    return doc


@FAST
@given(mangled())
def test_mangled_examples_give_verdict_or_document_error(document):
    result = verdict(document)
    if result is not None:
        assert_sound(document, result)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout_doc)
def test_random_layouts_give_sound_verdicts(document):
    result = verdict(document)
    if result is not None:
        assert_sound(document, result)


BLOCKED_A = {(7, 0), (8, 0), (8, 1), (3, 4)}
B_OFFSET = {0: (0, 1), 90: (1, 0), 180: (0, -1), 270: (-1, 0)}


def playable(cell) -> bool:
    return 0 <= cell[0] < 9 and 0 <= cell[1] < 9 and tuple(cell) not in BLOCKED_A


@st.composite
def wellformed(draw):
    """Mostly readable classic-A layouts: parts that would overlap or leave the board are dropped."""
    taken: set = set()
    machines, tiles = [], []
    spot = st.tuples(st.integers(0, 8), st.integers(0, 8))
    for mid in draw(st.lists(st.sampled_from(MACHINE_IDS), max_size=4, unique=True)):
        (r, c), rot = draw(spot), draw(st.sampled_from(sorted(B_OFFSET)))
        foot = {(r, c), (r + B_OFFSET[rot][0], c + B_OFFSET[rot][1])}
        if all(playable(x) for x in foot) and not foot & taken:
            taken |= foot
            machines.append({"id": mid, "cell": [r, c], "rotation": rot})
    pipe_cells: dict = {}
    for _ in range(draw(st.integers(0, 16))):
        (r, c) = draw(spot)
        kind = draw(st.sampled_from(["supply", "output", "end", "pipe", "pipe", "pipe", "diagonal"]))
        if kind == "pipe":
            sides = draw(st.lists(st.sampled_from(SIDES), min_size=2, max_size=4, unique=True))
            used = pipe_cells.get((r, c))
            if not playable((r, c)) or ((r, c) in taken and used is None) or (used is not None and (used & set(sides) or len(used) + len(sides) > 4)):
                continue
            pipe_cells[(r, c)] = (used or set()) | set(sides)
            taken.add((r, c))
            tiles.append({"kind": "pipe", "cell": [r, c], "sides": sides})
            continue
        foot = {(r, c)}
        extra = {}
        if kind == "diagonal":
            rot = draw(st.sampled_from(sorted(B_OFFSET)))
            foot.add((r + B_OFFSET[rot][0], c + B_OFFSET[rot][1]))
            extra = {"rotation": rot}
        elif kind == "supply":
            extra = {"color": draw(st.sampled_from(COLORS[:4]))}
        if all(playable(x) for x in foot) and not foot & taken:
            taken |= foot
            tiles.append({"kind": kind, "cell": [r, c], **extra})
    doc = {"ruleset": "factory-fun", "board": "classic-A", "machines": machines, "tiles": tiles}
    if draw(st.booleans()):
        doc["options"] = {"diagonal_intersection": draw(st.booleans())}
    return doc


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wellformed())
def test_wellformed_layouts_are_read_and_judged_soundly(document):
    result = verdict(document)
    assert result is not None, "the generator only builds readable layouts"
    assert_sound(document, result)
    # removing every tile keeps the same machines and income
    bare = check_layout(parse_layout({**document, "tiles": []}, "<prop>"))
    assert bare.score.income == result.score.income and bare.score.cost == 0
