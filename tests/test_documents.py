"""Document-level rules (RULES.md 1 "Board", "Tiles"; FORMATS.md): strict loading.

Tiles never overlap; nothing on blocked, pillar or off-board cells; unknown keys,
unknown machine ids and bad rotations are DocumentErrors naming file, key and cell.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from builders import FF29_OK, layout_dict, make_layout
from models.catalog import load_catalog
from models.errors import DocumentError
from models.game import load_game
from models.layout import load_layout, parse_layout
from models.networks import connect
from models.rulesets import get_ruleset

EXAMPLES = Path(__file__).resolve().parents[1] / "instances" / "examples"


def raises(machines=(), tiles=(), options=None) -> DocumentError:
    with pytest.raises(DocumentError) as info:
        make_layout(machines, tiles, options)
    return info.value


def load_error(tmp_path: Path, doc: dict) -> tuple[DocumentError, str]:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(DocumentError) as info:
        load_layout(path)
    return info.value, str(path)


# -- overlap ------------------------------------------------------------------------------------
@pytest.mark.parametrize("tiles", [
    [("supply", (1, 1), "red")],                      # tank on a machine
    [("pipe", (1, 2), "N", "S")],                     # pipe on a machine's b square
    [("diagonal", (1, 0), 0)],                        # diagonal's b square on a machine
])
def test_tile_on_a_machine(tiles):
    err = raises([("FF29", (1, 1), 0)], tiles, {"diagonal_intersection": True})
    assert "overlaps machine FF29" in str(err) and err.key == "tiles[0]"


def test_machine_on_a_machine():
    err = raises([("FF29", (1, 1), 0), ("FF09", (1, 2), 0)])
    assert err.key == "machines[1]" and err.cell == (1, 2) and "overlaps machine FF29" in str(err)


@pytest.mark.parametrize("first, second", [
    (("supply", (4, 4), "red"), ("output", (4, 4))),
    (("end", (4, 4)), ("pipe", (4, 4), "N", "S")),
    (("pipe", (4, 4), "N", "S"), ("supply", (4, 4), "red")),
    (("diagonal", (4, 4), 0), ("pipe", (4, 5), "E", "W")),
    (("pipe", (4, 4), "E", "W"), ("diagonal", (4, 3), 0)),
])
def test_tile_on_a_tile(first, second):
    err = raises(tiles=[first, second], options={"diagonal_intersection": True})
    assert err.key == "tiles[1]" and "overlaps" in str(err)


def test_pipes_sharing_a_side():
    err = raises(tiles=[("pipe", (4, 4), "N", "S"), ("pipe", (4, 4), "N", "E")])
    assert err.key == "tiles[1].sides" and err.cell == (4, 4)


def test_crossing_and_double_curve_are_one_tile():
    """Two 2-sided pipes on disjoint sides of one cell load (a crossing, a double curve); each is its own
    network, two pipe pieces on one cell."""
    for sides in ((("N", "S"), ("E", "W")), (("N", "E"), ("S", "W"))):
        layout = make_layout(tiles=[("pipe", (4, 4), *sides[0]), ("pipe", (4, 4), *sides[1])])
        assert [t.cell for t in layout.tiles] == [(4, 4), (4, 4)]
        assert len(connect(layout).networks) == 2


# -- board cells --------------------------------------------------------------------------------
@pytest.mark.parametrize("machine, cell, why", [
    (("FF29", (7, 0), 0), (7, 0), "blocked"),       # a on a blocked cell
    (("FF29", (6, 0), 90), (7, 0), "blocked"),      # b turned onto a blocked cell
    (("FF29", (3, 3), 0), (3, 4), "pillar"),        # b on the pillar
    (("FF29", (0, 8), 0), (0, 9), "off the board"),  # b off the east edge
    (("FF29", (0, 0), 270), (-1, 0), "off the board"),
])
def test_machine_on_unplayable_cell(machine, cell, why):
    err = raises([machine])
    assert err.cell == cell and why in str(err) and err.key == "machines[0]"


@pytest.mark.parametrize("tile, cell, why", [
    (("supply", (8, 0), "red"), (8, 0), "blocked"),
    (("end", (3, 4)), (3, 4), "pillar"),
    (("pipe", (9, 0), "N", "S"), (9, 0), "off the board"),
    (("output", (-1, 3)), (-1, 3), "off the board"),
    (("diagonal", (3, 3), 0), (3, 4), "pillar"),
])
def test_tile_on_unplayable_cell(tile, cell, why):
    err = raises(tiles=[tile], options={"diagonal_intersection": True})
    assert err.cell == cell and why in str(err) and err.key == "tiles[0]"


# -- messages name file, key and cell ----------------------------------------------------------------
def test_unknown_key_in_a_tile_names_file_key_and_cell(tmp_path):
    doc = layout_dict(**FF29_OK)
    doc["tiles"][0]["colour"] = "green"
    err, path = load_error(tmp_path, doc)
    assert str(err).startswith(path) and "tiles[0].colour" in str(err) and "unknown key" in str(err)
    assert "[1, 0]" in str(err) and err.cell == (1, 0)


def test_unknown_key_in_a_machine_names_file_key_and_cell(tmp_path):
    doc = layout_dict(**FF29_OK)
    doc["machines"][0]["mirror"] = True
    err, path = load_error(tmp_path, doc)
    assert path in str(err) and "machines[0].mirror" in str(err) and "[1, 1]" in str(err)


def test_a_game_read_as_a_layout_and_a_layout_read_as_a_game_say_what_they_are():
    """`check` on a game said only "rounds: unknown key"; `replay` on a layout "machines: unknown key"."""
    with pytest.raises(DocumentError, match=r"rounds: a game document \(rounds\), not a layout; `factoryfun replay`"):
        load_layout(EXAMPLES / "rulebook-game.json")
    with pytest.raises(DocumentError, match=r"machines: a layout \(machines and tiles\), not a game document"):
        load_game(EXAMPLES / "rulebook-round2.json")


@pytest.mark.parametrize("where", [[], ["options"]])
def test_unknown_key_at_document_or_options_level(tmp_path, where):
    doc = layout_dict(**FF29_OK, options={})
    (doc if not where else doc["options"])["colour"] = 1
    err, path = load_error(tmp_path, doc)
    assert path in str(err) and ("options.colour" if where else "colour") in str(err) and "unknown key" in str(err)


def test_unknown_machine_id_names_file_key_and_cell(tmp_path):
    doc = layout_dict(machines=[("FF99", (2, 3), 0)])
    err, path = load_error(tmp_path, doc)
    assert path in str(err) and "machines[0].id" in str(err) and "FF99" in str(err) and "[2, 3]" in str(err)


@pytest.mark.parametrize("rotation", [45, 360, -90, 1, "90", 90.0, True, None])
def test_bad_machine_rotation_names_file_key_and_cell(tmp_path, rotation):
    doc = layout_dict(machines=[("FF29", (2, 3), 0)])
    doc["machines"][0]["rotation"] = rotation
    err, path = load_error(tmp_path, doc)
    assert path in str(err) and "machines[0].rotation" in str(err) and "[2, 3]" in str(err)


@pytest.mark.parametrize("rotation", [45, 270.5, "0"])
def test_bad_diagonal_rotation(tmp_path, rotation):
    doc = layout_dict(tiles=[("diagonal", (4, 1), 0)], options={"diagonal_intersection": True})
    doc["tiles"][0]["rotation"] = rotation
    err, path = load_error(tmp_path, doc)
    assert path in str(err) and "tiles[0].rotation" in str(err) and "[4, 1]" in str(err)


def test_machine_placed_twice():
    err = raises([("FF29", (1, 1), 0), ("FF29", (4, 1), 0)])
    assert err.key == "machines[1].id" and err.cell == (4, 1)


@pytest.mark.parametrize("tile, key", [
    ({"kind": "pipe", "cell": [2, 2], "sides": ["N"]}, "tiles[0].sides"),
    ({"kind": "pipe", "cell": [2, 2], "sides": ["N", "N"]}, "tiles[0].sides"),
    ({"kind": "pipe", "cell": [2, 2], "sides": ["N", "NE"]}, "tiles[0].sides"),
    ({"kind": "supply", "cell": [2, 2], "color": "black"}, "tiles[0].color"),
    ({"kind": "supply", "cell": [2, 2]}, "tiles[0].color"),
    ({"kind": "output", "cell": [2, 2], "color": "red"}, "tiles[0].color"),
    ({"kind": "tank", "cell": [2, 2]}, "tiles[0].kind"),
    ({"kind": "end", "cell": [2]}, "tiles[0].cell"),
    ({"kind": "end", "cell": [2, True]}, "tiles[0].cell"),
])
def test_malformed_tiles(tile, key):
    doc = layout_dict()
    doc["tiles"] = [tile]
    with pytest.raises(DocumentError) as info:
        parse_layout(doc, "x.json")
    assert info.value.key == key and str(info.value).startswith("x.json: ")


@pytest.mark.parametrize("change, key", [
    ({"ruleset": "factory-fun-3000"}, "ruleset"),
    ({"board": "classic-Z"}, "board"),
    ({"machines": {}}, "machines"),
    ({"options": {"diagonal_intersection": "yes"}}, "options.diagonal_intersection"),
])
def test_malformed_documents(change, key):
    doc = {**layout_dict(**FF29_OK), **change}
    with pytest.raises(DocumentError) as info:
        parse_layout(doc)
    assert info.value.key == key


def test_result_key_is_ignored():
    doc = {**layout_dict(**FF29_OK), "result": {"total": 999}}
    assert parse_layout(doc, "<test>") == make_layout(**FF29_OK)


def test_not_json_and_missing_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{ nope")
    with pytest.raises(DocumentError, match="bad.json.*invalid JSON"):
        load_layout(bad)
    with pytest.raises(DocumentError, match="file not found"):
        load_layout(tmp_path / "missing.json")


# -- round trip ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.json") if p.name.startswith(("legal-", "illegal-", "rulebook-round"))))
def test_round_trip(name):
    layout = load_layout(EXAMPLES / name)
    doc = layout.to_dict()
    again = parse_layout(json.loads(json.dumps(doc)), str(EXAMPLES / name))
    assert again == layout
    assert again.to_dict() == doc
    # the written form equals the file up to key order and pipe side order
    original = json.loads((EXAMPLES / name).read_text())
    for t in original["tiles"]:
        if "sides" in t:
            t["sides"] = sorted(t["sides"], key="NESW".index)
    assert doc == original


def test_type_errors_quote_the_value_as_the_file_spells_it():
    """null, true and numbers as JSON has them, not Python's None / True (QA), and a number where a machine
    id belongs is a type error, not an unknown id."""
    from models.errors import DocumentError, expect

    for value, shown in ((None, "got null"), (True, "got true"), ([1, "a"], 'got [1, "a"]')):
        with pytest.raises(DocumentError, match=shown.replace("[", r"\[")):
            expect("g.json", "start_money", value, int, "an integer")


def test_a_number_offered_is_a_type_error_naming_the_key():
    from models.catalog import load_catalog
    from models.errors import DocumentError
    from models.game import parse_game
    from models.rulesets import get_ruleset
    from models.sequence import random_sequence

    rules = get_ruleset("factory-fun")
    document = random_sequence(rules, load_catalog(rules), "classic-A", 1, players=1)
    document["rounds"][0]["offered"] = [30]
    with pytest.raises(DocumentError, match=r"rounds\[0\]\.offered\[0\]: expected a machine id \(a string\), got 30"):
        parse_game(document, "g.json")


@pytest.mark.parametrize("change, message", [
    (lambda rounds: rounds.__setitem__(1, None), r"rounds\[1\]: expected an object, got null"),
    (lambda rounds: rounds[1].__setitem__("layout", None), r"rounds\[1\]\.layout: expected an object, got null"),
    (lambda rounds: rounds[1].__setitem__("taken", []), r"rounds\[1\]\.taken: expected a machine id or null, got \[\]"),
    (lambda rounds: rounds[1].update(taken=None, last_pick=True),
     r"rounds\[1\]\.last_pick: the last pick goes with a taken machine, and this round takes none"),
    (lambda rounds: (rounds[0].update(taken=None), rounds[1].update(last_pick=True)),
     r"rounds\[1\]\.last_pick: a token goes with a taken machine, and this round of a played game says none was "
     r"taken \(no `taken`\)"),
    (lambda rounds: (rounds[0].update(taken=None, layout={"machines": [], "tiles": [],
                                                          "options": {"diagonal_intersection": False}}),
                     rounds[1].update(taken=None, layout={"machines": [], "tiles": [],
                                                          "options": {"diagonal_intersection": True}})),
     r"rounds\[1\]\.layout\.options\.diagonal_intersection: true does not match round 1's false \(round 2\)"),
    # QA: read as "took nothing", then blamed as "the layout changed in a round that adds no machine"
    (lambda rounds: rounds[0].update(layout={"machines": [{"id": rounds[0]["offered"][0], "cell": [4, 4],
                                                           "rotation": 0}], "tiles": []}),
     r"rounds\[0\]\.taken: missing key: the round's layout adds FF"),
])
def test_a_games_rounds_say_what_they_expected(change, message):
    """QA: "got NoneType" (Python's word for null), "[] was not offered this round" for a list where a machine id
    belongs, Factory Fun's last_pick on a round that takes nothing accepted (Funner's was refused); then a token on
    a played round without `taken` accepted (the fee never charged), and a round's layout options overriding the
    game's (a diagonal tile the game forbids played in that round)."""
    from models.catalog import load_catalog
    from models.errors import DocumentError
    from models.game import parse_game
    from models.rulesets import get_ruleset
    from models.sequence import random_sequence

    rules = get_ruleset("factory-fun")
    document = random_sequence(rules, load_catalog(rules), "classic-A", 1, players=1)
    change(document["rounds"])
    with pytest.raises(DocumentError, match=message):
        parse_game(document, "g.json")


def test_a_game_takes_its_options_from_its_rounds_layouts_where_it_names_none():
    """QA pass 48: FORMATS.md gives options to layouts only; a game that said the diagonal tile was on in its
    rounds' layouts was refused (its rounds "not matching" the game), and a game-level `options` read instead.
    A game's own `options`, where it names some, still rule every round."""
    from models.catalog import load_catalog
    from models.errors import DocumentError
    from models.game import parse_game
    from models.rulesets import get_ruleset
    from models.sequence import random_sequence

    rules = get_ruleset("factory-fun")
    document = random_sequence(rules, load_catalog(rules), "classic-A", 1, players=1)
    for entry in document["rounds"][:2]:
        entry.update(taken=None, layout={"machines": [], "tiles": [], "options": {"diagonal_intersection": True}})
    game = parse_game(document, "g.json")
    assert game.options["diagonal_intersection"] is True
    assert game.empty_layout().options["diagonal_intersection"] is True
    assert game.to_dict()["options"] == {"diagonal_intersection": True}   # (defaults left out: QA pass 52)
    for entry in document["rounds"][:2]:
        entry["layout"]["options"] = {"diagonal_intersection": False}
    assert "options" not in parse_game(document, "g.json").to_dict()
    document["rounds"][1]["layout"]["options"] = {"diagonal_intersection": True}
    with pytest.raises(DocumentError, match=r"rounds\[1\]\.layout\.options\.diagonal_intersection: true does not "
                                            r"match round 1's false"):
        parse_game(document, "g.json")
    for entry in document["rounds"][:2]:
        entry["layout"]["options"] = {"diagonal_intersection": True}
    document["options"] = {"diagonal_intersection": False}
    with pytest.raises(DocumentError, match=r"g\.json: rounds\[0\]\.layout\.options\.diagonal_intersection: true "
                                            r"does not match the game's false"):
        parse_game(document, "g.json")


def test_a_solves_result_without_a_layout_is_named_as_such():
    """QA: `solve --json` of an infeasible set writes only its result; `check` of that file said "board: missing
    key", as if a layout had lost its board."""
    from models.errors import DocumentError
    from models.layout import parse_layout

    with pytest.raises(DocumentError, match=r"result: a solve's result with no layout \(the solve found none\)"):
        parse_layout({"result": {"status": "INFEASIBLE"}}, "inf.json")


@pytest.mark.parametrize("tile, message", [
    (None, r"tiles\[0\]: expected an object, got null"),
    ({"kind": None, "cell": [0, 0]}, r"tiles\[0\]\.kind: unknown tile kind null"),
    ({"kind": "supply", "color": None, "cell": [4, 0]}, r"tiles\[0\]\.color: unknown supply colour null \(known: "),
])
def test_tile_errors_spell_values_as_the_file_does(tile, message):
    """QA: "unknown tile kind None", "unknown supply colour None", and "expected an object" without what it got."""
    from models.errors import DocumentError
    from models.layout import parse_layout

    with pytest.raises(DocumentError, match=message):
        parse_layout({"ruleset": "factory-fun", "board": "classic-A", "machines": [], "tiles": [tile]}, "t.json")


@pytest.mark.parametrize("tile, message", [
    ({"kind": "diagonal", "cell": [1, 1], "rotation": 0}, r'tiles\[0\]\.kind: unknown tile kind "diagonal"'),
    ({"kind": "output", "cell": [1, 1], "side": "N"}, r'tiles\[0\]\.side: unknown side "N"'),
])
def test_hex_tiles_the_hexes_have_not_are_refused_by_name(tile, message):
    """Funner has no diagonal tile, and a hex has no N side: each a one-line error (QA pass 55: mutants that let
    them through crashed in the geometry, a traceback exiting 1 as if the layout were illegal)."""
    from models.errors import DocumentError
    from models.layout import parse_layout

    with pytest.raises(DocumentError, match=message):
        parse_layout({"ruleset": "factory-funner", "board": "A", "machines": [], "tiles": [tile]}, "t.json")


@pytest.mark.parametrize("path, said", [("machines/factory-fun.json", "machines: a machine catalogue, not a layout"),
                                        ("boards/factory-fun.json", "boards: a boards file, not a layout")])
def test_a_catalogue_or_boards_file_read_as_a_layout_is_named_as_such(path, said):
    """QA: `check` of the catalogue said "board: missing key", of a boards file "boards: unknown key"."""
    from models.paths import INSTANCES

    with pytest.raises(DocumentError, match=said):
        load_layout(INSTANCES / path)
    with pytest.raises(DocumentError, match=said.replace("not a layout", "not a game document")):   # (replay)
        load_game(INSTANCES / path)


@pytest.mark.parametrize("example, said", [("rulebook-game.json", "rounds: a game document (rounds), not {wanted}"),
                                           ("legal-crossing.json", "board: a layout (a board's machines and tiles), "
                                                                   "not {wanted}")])
def test_a_layout_or_game_read_as_a_catalogue_or_boards_file_is_named_as_such(example, said):
    """QA: a plan passed as --catalog (or --boards) said "board: unknown key"."""
    from models.board import load_boards
    from models.paths import EXAMPLES_DIR

    ruleset = get_ruleset("factory-fun")
    with pytest.raises(DocumentError, match=re.escape(said.format(wanted="a machine catalogue"))):
        load_catalog(ruleset, EXAMPLES_DIR / example)
    with pytest.raises(DocumentError, match=re.escape(said.format(wanted="a boards file"))):
        load_boards(ruleset, EXAMPLES_DIR / example)


def test_a_catalogue_boards_file_or_puzzle_read_as_another_of_them_is_named_as_such(tmp_path):
    """QA: `catalog --catalog boards.json` said "boards: unknown key", `puzzle solve catalog.json` "machines:
    unknown key"; a port position given as a list ended in a traceback ("unhashable type")."""
    from models.board import load_boards
    from models.paths import INSTANCES
    from models.puzzle import load_puzzle

    ruleset = get_ruleset("factory-fun")
    catalogue, boards = INSTANCES / "machines/factory-fun.json", INSTANCES / "boards/factory-fun.json"
    with pytest.raises(DocumentError, match="boards: a boards file, not a machine catalogue; .* --boards FILE"):
        load_catalog(ruleset, boards)
    with pytest.raises(DocumentError, match="machines: a machine catalogue, not a boards file; .* --catalog FILE"):
        load_boards(ruleset, catalogue)
    with pytest.raises(DocumentError, match="machines: a machine catalogue, not a puzzle file"):
        load_puzzle(catalogue)
    document = json.loads(catalogue.read_text())
    document["machines"][0]["ports"][0]["at"] = []
    (tmp_path / "odd.json").write_text(json.dumps(document))
    with pytest.raises(DocumentError, match=re.escape("machines[0].ports[0].at: unknown port position []")):
        load_catalog(ruleset, tmp_path / "odd.json")


def test_a_game_given_as_a_puzzles_answer_is_named_a_game():
    """QA: `puzzle check puzzle.json game.json` said "the answer is for factory-fun/classic-A, not
    factory-fun/puzzle-3", as if the board were the fault."""
    from models.layout import refuse_game, require_game_of
    from models.paths import EXAMPLES_DIR

    game = json.loads((EXAMPLES_DIR / "rulebook-game.json").read_text())
    with pytest.raises(DocumentError, match=re.escape("rounds: a game document (rounds): a puzzle's answer takes a layout")):
        refuse_game(game, "game.json", "a puzzle's answer")
    require_game_of(game, "game.json", "plan", "factory-fun")   # (a plan is a game: QA saw `analyze --plan` refused)


def test_a_puzzle_file_read_as_a_layout_and_a_boards_file_read_as_a_puzzle_are_named():
    """QA: `check PUZZLE` called a puzzle "a boards file" and `puzzle check BOARDS ANSWER` said "puzzle: missing
    key"."""
    from models.paths import INSTANCES
    from models.puzzle import load_puzzle

    with pytest.raises(DocumentError, match=re.escape("puzzle: a puzzle file, not a layout; `factoryfun puzzle solve`")):
        load_layout(INSTANCES / "puzzles" / "three-machines.json")
    with pytest.raises(DocumentError, match=re.escape("puzzle: a boards file with no puzzle block, not a puzzle file")):
        load_puzzle(INSTANCES / "boards" / "factory-fun.json")


@pytest.mark.parametrize("game_path", [EXAMPLES / "rulebook-game.json", Path(__file__).parent / "data" / "analysis-funner-played.json"])
def test_a_written_games_round_layouts_are_layout_documents_check_reads(game_path):
    """QA: a plan's round layout copied into a file of its own was "board: missing key" for `check`; FORMATS.md
    calls it the full layout after the round."""
    game = load_game(game_path)
    written = json.loads(json.dumps(game.to_dict()))
    laid = [(r, entry["layout"]) for r, entry in zip(game.rounds, written["rounds"]) if "layout" in entry]
    assert laid
    for played, document in laid:
        assert parse_layout(document, str(game_path)) == played.layout
    assert load_game_from(written) == written


def load_game_from(document: dict) -> dict:
    """The document read back and written again."""
    from models.game import parse_game

    return parse_game(document, "game.json").to_dict()


# -- writing (models/jsonio.py) ---------------------------------------------------------------------
def test_a_write_that_fails_leaves_the_file_that_was_there_whole(tmp_path, monkeypatch):
    """A disk that fills (or a kill) mid-write left a result file cut short, the earlier one lost: the text now
    goes to a new file beside it, renamed over it once whole."""
    import os

    from models import jsonio

    out = tmp_path / "best.json"
    out.write_text('{"earlier": true}\n')
    os.chmod(out, 0o640)

    class FullDisk:
        def __init__(self, handle, *args, **kwargs):
            os.close(handle)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def write(self, text):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(jsonio.os, "fdopen", FullDisk)
    with pytest.raises(DocumentError, match="cannot write: No space left on device"):
        jsonio.write_json(out, {"later": True})
    assert out.read_text() == '{"earlier": true}\n' and [p.name for p in tmp_path.iterdir()] == ["best.json"]
    monkeypatch.undo()
    jsonio.write_json(out, {"later": True})
    assert json.loads(out.read_text()) == {"later": True} and oct(out.stat().st_mode & 0o777) == oct(0o640)


def test_a_written_file_keeps_its_other_names_and_its_links(tmp_path):
    """A new file renamed over the old one would part a hard link from it and replace a symbolic link with a
    plain file: those are written in place, through the link."""
    import os

    from models.jsonio import write_json

    first = tmp_path / "a.json"
    first.write_text("{}")
    os.link(first, tmp_path / "b.json")
    write_json(first, {"n": 1})
    assert json.loads((tmp_path / "b.json").read_text()) == {"n": 1}
    (tmp_path / "link.json").symlink_to(tmp_path / "target.json")
    write_json(tmp_path / "link.json", {"n": 2})
    assert (tmp_path / "link.json").is_symlink() and json.loads((tmp_path / "target.json").read_text()) == {"n": 2}
    fresh = tmp_path / "fresh.json"
    write_json(fresh, {"n": 3})
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask


def test_an_output_to_the_file_standard_output_goes_to_is_written_through_the_stream(tmp_path):
    """`--out /dev/stdout` into a pipe failed ("No such file or directory": the pipe's name resolved to none), and
    into a file (`> run.log`, `>> run.log`) emptied it, the printed table with it (QA pass 42): it now goes down
    standard output itself, after what was printed."""
    import subprocess
    import sys

    from models.paths import EXAMPLES_DIR

    root = Path(__file__).resolve().parents[1]
    command = [sys.executable, "-c", "from cli import main; main()", "replay", str(EXAMPLES_DIR / "rulebook-game.json"),
               "--out", "/dev/stdout"]
    piped = subprocess.run(command, cwd=root, capture_output=True, text=True)
    assert piped.returncode == 0 and '"rounds"' in piped.stdout and "final score" in piped.stdout
    log = tmp_path / "run.log"
    log.write_text("EARLIER\n")
    with open(log, "a") as appended:
        assert subprocess.run(command, cwd=root, stdout=appended, stderr=subprocess.DEVNULL).returncode == 0
    kept = log.read_text()
    assert kept.startswith("EARLIER\n") and "final score" in kept and kept.rstrip().endswith("}")


def test_a_rewritten_file_keeps_its_group_and_loses_set_id_bits(tmp_path):
    """The new file renamed over the old one took the writer's group (QA pass 42: a 0640 file of group daemon
    became root's, its readers shut out) and kept a set-user-id bit a write in place clears."""
    import os
    import stat

    from models.jsonio import write_json

    out = tmp_path / "shared.json"
    out.write_text("{}")
    os.chmod(out, 0o4750)
    others = [g for g in os.getgroups() if g != os.stat(out).st_gid] or ([1] if os.getuid() == 0 else [])
    if others:   # (a second group of this user's to give the file; root may give any)
        os.chown(out, -1, others[0])
    group = os.stat(out).st_gid
    assert group == others[0] if others else True
    write_json(out, {"n": 1})
    assert json.loads(out.read_text()) == {"n": 1}
    assert os.stat(out).st_gid == group and stat.S_IMODE(os.stat(out).st_mode) == 0o750


def test_a_file_written_through_standard_output_is_utf8_after_the_drawing(tmp_path):
    """Written through the stream, the SVG took the terminal's encoding (QA pass 44: `PYTHONIOENCODING=ascii`
    escaped a catalogue's "Rührwerk", Latin-1 made the file invalid UTF-8), and `show` wrote it before its
    drawing, the drawing's first line stuck to `</svg>`: it is now UTF-8, on lines of its own, after."""
    import os
    import subprocess
    import sys

    from models.paths import EXAMPLES_DIR, MACHINES_DIR

    catalogue = json.loads((MACHINES_DIR / "factory-fun.json").read_text())
    for machine in catalogue["machines"]:
        machine["name"] = "Rührwerk→" + machine["id"]
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(catalogue, ensure_ascii=False), encoding="utf-8")
    root = Path(__file__).resolve().parents[1]
    shown = subprocess.run([sys.executable, "-c", "from cli import main; main()", "show",
                            str(EXAMPLES_DIR / "rulebook-round2.json"), "--catalog", str(mine), "--svg", "/dev/stdout"],
                           cwd=root, capture_output=True, env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert shown.returncode == 0
    picture = shown.stdout[shown.stdout.index(b"<?xml"):]
    assert "Rührwerk→FF39".encode("utf-8") in picture and picture.endswith(b"</svg>\n")
    assert b"classic-A" in shown.stdout[:shown.stdout.index(b"<?xml")]   # the drawing and its verdict came first


def test_a_file_standard_output_could_not_take_is_not_said_written(tmp_path, monkeypatch):
    """QA pass 46: written through a stream whose reader had left (or whose file hit its size limit), the text
    was cut short or went nowhere, and the command still said "wrote /dev/stdout" and exited 0; the stream
    now records the failure (the command's exit says it: 141, or 2 for a full disk) and nothing is said."""
    import os
    import signal

    from models import jsonio
    from models.terminal import _ReaderSafe

    reading, writing = os.pipe()
    os.close(reading)   # the reader left
    stream = _ReaderSafe(os.fdopen(writing, "w", encoding="utf-8"), writing)
    monkeypatch.setattr(jsonio, "_standard_stream", lambda status: stream)
    said: list[str] = []
    previous = signal.signal(signal.SIGPIPE, signal.SIG_IGN)   # (as Python starts: EPIPE, not a signal)
    try:
        jsonio.write_and_say(tmp_path / "any.json", "x" * 200_000, said.append)
    finally:
        signal.signal(signal.SIGPIPE, previous)
    assert said == [] and stream.gone
    jsonio.write_and_say(tmp_path / "again.json", "y", said.append)   # a stream already failed takes nothing more
    assert said == []


def test_the_generators_and_robofacture_solve_write_their_files_after_what_they_print():
    """QA pass 46: `puzzle generate`, `robofacture generate` and `robofacture solve` wrote `--out` before their
    drawing and verdict, so `--out /dev/stdout` put the document first, the rest after it."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    solved = subprocess.run([sys.executable, "-c", "from cli import main; main()", "robofacture", "solve",
                             "instances/robofacture/parts-4x4.json", "--workers", "1", "--time-limit", "10",
                             "--out", "/dev/stdout"], cwd=root, capture_output=True, text=True)
    assert solved.returncode == 0, solved.stderr
    assert 0 <= solved.stdout.index("OPTIMAL: score") < solved.stdout.index('"ruleset"')
    assert json.loads(solved.stdout[solved.stdout.index('{\n  "ruleset"'):])["result"]["status"] == "OPTIMAL"
