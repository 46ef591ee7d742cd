"""`factoryfun solve`: output document, errors as one line with exit 2."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cli import main
from models.layout import parse_layout
from models.check import check_layout


def invoke(*args: str):
    return CliRunner().invoke(main, ["solve", *args])


def test_json_document_carries_the_result(tmp_path):
    out = tmp_path / "best.json"
    result = invoke("--board", "classic-A", "--machines", "FF09", "--time-limit", "10", "--json", "--out", str(out))
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["result"]["status"] == "OPTIMAL"
    assert {k: document["result"][k] for k in ("income", "cost", "chain_bonus", "total", "objective", "bound")} == \
        {"income": 7, "cost": 2, "chain_bonus": 0, "total": 5, "objective": 5, "bound": 5}
    assert json.loads(out.read_text()) == document
    assert check_layout(parse_layout(document)).legal  # "result" is ignored on input


def test_machines_file_as_lines_and_fixed_layout(tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("FF09\n")
    fixed = tmp_path / "fixed.json"
    fixed.write_text(json.dumps({"ruleset": "factory-fun", "board": "classic-A",
                                 "machines": [{"id": "FF09", "cell": [4, 6], "rotation": 0}], "tiles": []}))
    result = invoke("--board", "classic-A", "--machines-file", str(ids), "--fixed", str(fixed),
                    "--time-limit", "10", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["machines"] == [{"id": "FF09", "cell": [4, 6], "rotation": 0}]


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    assert invoke("--board", "classic-A", "--machines", "FF99").exit_code == 2
    assert invoke("--board", "nowhere", "--machines", "FF09").exit_code == 2
    assert invoke("--board", "classic-A").exit_code == 2
    twice = invoke("--board", "classic-A", "--machines", "FF09,FF12,FF09")
    assert twice.exit_code == 2 and "machine FF09 is listed twice" in twice.output
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    result = invoke("--board", "classic-A", "--machines", "FF09", "--hint", str(broken))
    assert result.exit_code == 2 and "Traceback" not in result.output
