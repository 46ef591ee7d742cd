"""The bundled catalogues and boards keep the printed facts of shared/data exactly."""
from __future__ import annotations

import copy

import pytest

from models.board import load_boards
from models.catalog import load_catalog
from models.rulesets import get_ruleset

FF = get_ruleset("factory-fun")
FN = get_ruleset("factory-funner")


def test_factory_fun_catalogue_has_55_machines_with_the_provenance_facts():
    catalog = load_catalog(FF)
    machines = catalog.machines
    assert list(machines) == [f"FF{i:02d}" for i in range(1, 56)]
    assert all(len(m.outputs) == 1 and 1 <= len(m.inputs) <= 3 for m in machines.values())
    assert sum(m.outputs[0].is_black for m in machines.values()) == 13
    assert {m.id: m.bonus_supply for m in machines.values() if m.bonus_supply} == {
        "FF11": "green", "FF16": "any", "FF19": "orange", "FF22": "red", "FF33": "blue"}
    # inputs only on square a, outputs only on square b
    assert all(p.at in ("W", "Na", "Sa") for m in machines.values() for p in m.inputs)
    assert all(p.at in ("E", "Nb", "Sb") for m in machines.values() for p in m.outputs)
    assert sum(m.name_certain and m.name is not None for m in machines.values()) == 8


def test_corrected_and_cross_checked_machines():
    catalog = load_catalog(FF)
    ff05 = catalog["FF05"]
    assert (ff05.income, ff05.outputs[0].at, ff05.outputs[0].colors) == (12, "Nb", ("black",))
    ff21 = catalog["FF21"]  # "Maxi Mixer": 2 green + 2 red -> 1 blue, income 9
    assert ff21.income == 9
    assert sorted((p.colors[0], p.amount) for p in ff21.inputs) == [("green", 2), ("red", 2)]
    assert (ff21.outputs[0].colors, ff21.outputs[0].amount) == (("blue",), 1)


@pytest.mark.parametrize("board_id", ["classic-A", "classic-B", "classic-C", "classic-D", "classic-E",
                                      "expert-A", "expert-B", "expert-C", "expert-D", "expert-E"])
def test_every_factory_fun_board_has_77_playable_cells(board_id):
    board = load_boards(FF)[board_id]
    assert len(board.cells) == 77
    assert not (board.cells & (board.blocked | board.pillars))


def test_classic_a_outline():
    board = load_boards(FF)["classic-A"]
    assert (board.rows, board.cols) == (9, 9)
    assert board.blocked == {(7, 0), (8, 0), (8, 1)}
    assert board.pillars == {(3, 4)}
    assert board.neighbour((3, 3), "E") is None  # the pillar
    assert board.neighbour((6, 0), "S") is None  # blocked
    assert board.neighbour((0, 0), "N") is None  # border
    assert board.neighbour((0, 0), "E") == (0, 1)


def test_a_board_given_by_its_cells_is_as_many_rows_and_columns_as_its_cells_span():
    from models.board import parse_boards
    from models.rulesets import get_ruleset

    strip = [[r, c] for r in range(2) for c in range(5)]   # square [row, col]: 2 rows of 5
    square = parse_boards({"ruleset": "factory-fun", "boards": [{"id": "s", "geometry": "square", "cells": strip}]},
                          FF, "strip")["s"]
    assert (square.rows, square.cols) == (2, 5)   # (it was drawn 5 x 2: rows and columns swapped)
    hexes = parse_boards({"ruleset": "factory-funner", "boards": [{"id": "h", "geometry": "hex", "cells": strip}]},
                         get_ruleset("factory-funner"), "strip")["h"]
    assert (hexes.rows, hexes.cols) == (5, 2)     # hex [q, r]: r is the row


def test_a_hex_board_of_rows_and_cols_is_that_many_rows_on_screen_and_reads_back_the_same():
    """QA: a hex puzzle of 4 rows x 5 cols was laid as 5 rows of 4 ([q, r] cells built as [row, col]), so its
    drawing lost the last row and `check` crashed on a fault there."""
    from models.board import board_document, parse_boards

    funner = get_ruleset("factory-funner")
    board = parse_boards({"ruleset": "factory-funner", "boards": [{"id": "h", "geometry": "hex", "rows": 4,
                                                                    "cols": 5}]}, funner, "h.json")["h"]
    assert max(r for _, r in board.cells) == 3 and max(q for q, _ in board.cells) == 4
    assert (board.rows, board.cols) == (4, 5) == funner.geometry.extent(board.cells)
    written = board_document(board)
    assert (written["rows"], written["cols"]) == (4, 5) and "cells" not in written
    again = parse_boards({"ruleset": "factory-funner", "boards": [written]}, funner, "again.json")["h"]
    assert again.cells == board.cells


def test_expert_pillars_are_all_kept():
    boards = load_boards(FF)
    assert len(boards["expert-A"].pillars) == 4 and len(boards["expert-E"].pillars) == 3


def test_factory_funner_data():
    catalog = load_catalog(FN)
    assert len(catalog.machines) == 48
    board = load_boards(FN)["A"]
    assert len(board.cells) == 41 and board.pillars == {(3, 3)}
    assert catalog["FN32"].outputs[0].colors == ("pink", "yellow", "green", "blue")
    assert len(catalog["FN45"].outputs) == 2


# -- a catalogue's ports: every refusal of the loader (QA pass 57: mutants dropping three of them lived) ------------
def _port_error(ruleset_id: str, port: dict) -> str:
    from models.catalog import catalog_document, load_catalog, parse_catalog
    from models.errors import DocumentError
    from models.rulesets import get_ruleset

    ruleset = get_ruleset(ruleset_id)
    document = catalog_document(load_catalog(ruleset))
    document["machines"][0]["ports"][0] = port
    with pytest.raises(DocumentError) as refused:
        parse_catalog(document, ruleset, "mine.json")
    return str(refused.value)


@pytest.mark.parametrize("ruleset_id, port, said", [
    ("factory-fun", {"at": "W", "kind": "sideways", "colors": ["red"], "amount": 1}, ".kind: expected 'in' or 'out'"),
    ("factory-fun", {"at": "W", "kind": "in", "colors": [], "amount": 1}, ".colors: a port needs at least one colour"),
    ("factory-funner", {"at": "W", "kind": "out", "colors": ["black", "pink"], "amount": 1},
     ".colors: black is an end product, never one of a port's colours"),
    ("factory-fun", {"at": "W", "kind": "in", "colors": ["red", "blue"], "amount": 1},
     ".colors: ruleset factory-fun prints one colour per port"),
    ("factory-fun", {"at": "W", "kind": "in", "colors": ["black"], "amount": None}, ".colors: no input takes black"),
    ("factory-fun", {"at": "W", "kind": "in", "colors": ["red"], "amount": None},
     ".amount: only black outputs may omit the amount"),
])
def test_a_catalogue_port_the_rules_cannot_have_is_refused_by_name(ruleset_id, port, said):
    message = _port_error(ruleset_id, port)
    assert message.startswith("mine.json: machines[0].ports[0]") and said in message


def test_a_catalogue_with_a_machine_twice_or_a_black_bonus_is_refused():
    from models.catalog import catalog_document, load_catalog, parse_catalog
    from models.errors import DocumentError
    from models.rulesets import get_ruleset

    ruleset = get_ruleset("factory-fun")
    document = catalog_document(load_catalog(ruleset))
    twice = copy.deepcopy(document)
    twice["machines"][1]["id"] = twice["machines"][0]["id"]
    with pytest.raises(DocumentError, match=r"machines\[1\]\.id: duplicate machine id \"FF01\""):
        parse_catalog(twice, ruleset, "mine.json")
    black = copy.deepcopy(document)
    black["machines"][0]["bonus_supply"] = "black"
    with pytest.raises(DocumentError, match=r"machines\[0\]\.bonus_supply: unknown colour \"black\""):
        parse_catalog(black, ruleset, "mine.json")


# -- boards files and catalogues: the loaders' refusals no other test reached (QA pass 57, its unrun mutants) --------
def _refused(parse, document, ruleset_id: str = "factory-fun") -> str:
    from models.errors import DocumentError

    with pytest.raises(DocumentError) as refused:
        parse(document, get_ruleset(ruleset_id), "mine.json")
    return str(refused.value)


def _boards(**board) -> dict:
    return {"ruleset": "factory-fun", "boards": [{"id": "b", "geometry": "square", **board}]}


@pytest.mark.parametrize("board, said", [
    ({"cells": [[0, 40]]}, "boards[0].cells[0]: cell coordinates must be from 0 to 39"),
    ({"cells": []}, "boards[0].cells: a board needs at least one cell"),
    ({"rows": 2, "cols": 2, "pillars": [[2, 2]]}, "boards[0]: blocked or pillar cell outside the board"),
    ({"geometry": "hex", "rows": 2, "cols": 2}, "boards[0].geometry: ruleset factory-fun needs square boards"),
])
def test_a_boards_file_the_rules_cannot_have_is_refused_by_name(board, said):
    from models.board import parse_boards
    assert said in _refused(parse_boards, _boards(**board))


@pytest.mark.parametrize("change, said", [
    (lambda d: d.update(ruleset="factory-funner"), 'ruleset: catalogue is for "factory-funner", not "factory-fun"'),
    (lambda d: d["machines"][0].update(notes="mine"), "machines[0].notes: unknown key"),
    (lambda d: d["machines"][0].update(special=1), "machines[0].special"),
])
def test_a_catalogue_of_another_game_or_with_a_strange_key_is_refused(change, said):
    from models.catalog import catalog_document, parse_catalog

    document = catalog_document(load_catalog(FF))
    change(document)
    assert said in _refused(parse_catalog, document)


def test_a_second_byte_order_mark_is_named_as_such(tmp_path):
    from models.errors import DocumentError
    from models.jsonio import read_json

    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf\xef\xbb\xbf{}")
    with pytest.raises(DocumentError, match="a stray byte-order mark"):
        read_json(path)
