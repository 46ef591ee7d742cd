"""The shared JSON reader: every malformed file is one DocumentError naming the file, never a traceback or a guess."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_errors import one_line_error
from models.errors import DocumentError
from models.jsonio import read_json
from models.paths import EXAMPLES_DIR

ROUND2 = EXAMPLES_DIR / "rulebook-round2.json"
GAME = EXAMPLES_DIR / "rulebook-game.json"


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


@pytest.mark.parametrize("text,needle", [
    ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply"),
    ('{"a": 1, "a": 2}', "key \"a\" given twice"),
    ('{"a": NaN}', "NaN is not a JSON number"),
    ('{"a": ' + "9" * 5000 + "}", "invalid JSON"),
])
def test_bad_json_is_a_document_error_naming_the_file(tmp_path, text, needle):
    path = write(tmp_path, "bad.json", text)
    with pytest.raises(DocumentError) as info:
        read_json(path)
    assert str(info.value).startswith(path) and needle in str(info.value)


def test_not_utf8(tmp_path):
    path = write(tmp_path, "bytes.json", b'{"a": "\xff\xfe"}')
    with pytest.raises(DocumentError, match="not UTF-8 text"):
        read_json(path)


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("make_args", [
    lambda p: ["check", p],
    lambda p: ["replay", p],
    lambda p: ["plan", p, "--time-limit", "1"],
    lambda p: ["check", str(ROUND2), "--catalog", p],
    lambda p: ["check", str(ROUND2), "--boards", p],
    lambda p: ["solve", "--board", "classic-A", "--machines", "FF39", "--fixed", p],
    lambda p: ["solve", "--board", "classic-A", "--machines", "FF39", "--hint", p],
    lambda p: ["solve", "--board", "classic-A", "--machines-file", p],
    lambda p: ["analyze", str(GAME), "--plan", p],
])
def test_every_json_reader_reports_deep_nesting_in_one_line(tmp_path, make_args):
    path = write(tmp_path, "deep.json", DEEP)
    one_line_error(make_args(path), path, "JSON nested too deeply")


def test_duplicate_key_in_a_layout(tmp_path):
    text = (ROUND2.read_text()).replace('"board": "classic-A"', '"board": "classic-A", "board": "classic-B"')
    path = write(tmp_path, "twice.json", text)
    one_line_error(["check", path], path, "key \"board\" given twice")


def test_a_document_that_reads_back_still_loads(tmp_path):
    """The strict reader changes nothing for well-formed files."""
    assert read_json(GAME) == json.loads(GAME.read_text())


def test_a_file_that_never_ends_is_refused_after_a_bounded_read(tmp_path, monkeypatch):
    """QA (fuzz): `check /dev/zero` ended in a MemoryError traceback and /dev/urandom grew to 24 GB; reading
    stops past MAX_BYTES (made small here) and says so in a line."""
    from models import jsonio

    monkeypatch.setattr(jsonio, "MAX_BYTES", 1000)
    path = write(tmp_path, "big.json", '{"a": "' + "x" * 2000 + '"}')
    with pytest.raises(DocumentError, match="larger than .*: not a factoryfun document"):
        read_json(path)
    monkeypatch.setattr(jsonio, "MAX_BYTES", 3000)
    assert read_json(path) == {"a": "x" * 2000}
