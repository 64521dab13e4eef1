"""``memory-solver mnemonic odds``: the public JSON contract and one-line errors."""

import json
from fractions import Fraction

import pytest

from solver.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_group_odds_json_keys_and_values(capsys):
    code, out, err = run(capsys, "mnemonic", "odds", "--players", "3,2,0", "--adversary", "4", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {"victory", "defeat", "draw", "floats"}
    assert data["victory"] == "3511399/10077696"
    assert sum(Fraction(data[k]) for k in ("victory", "defeat", "draw")) == 1
    assert data["floats"]["victory"] == pytest.approx(3511399 / 10077696, abs=0)


def test_individual_odds_json(capsys):
    code, out, _ = run(capsys, "mnemonic", "odds", "--individual", "3", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == {"success", "complication", "floats"}
    assert data["success"] == "91/216" and data["complication"] == "125/216"
    assert data["floats"] == {"success": 91 / 216, "complication": 125 / 216}


def test_text_output_is_readable(capsys):
    code, out, _ = run(capsys, "mnemonic", "odds", "--individual", "2")
    assert code == 0 and "11/36" in out and "25/36" in out


def test_mn6_nobody_rolls_is_reported(capsys):
    """MN-6: the text output says which rule decided a scene where nobody rolls."""
    code, out, _ = run(capsys, "mnemonic", "odds", "--players", "0,0", "--adversary", "0")
    assert code == 0 and "nobodyRolls" in out and "1/1" in out


@pytest.mark.parametrize("argv,status,needle", [
    (["--players", "3,x"], 1, "--players"),
    (["--players", "3,,2"], 1, "--players"),
    (["--players", "-1"], 1, "--players"),
    (["--individual", "-2"], 1, "--individual"),
    (["--individual", "2", "--adversary", "1"], 1, "--adversary"),
    (["--players", "2", "--adversary", "-1"], 1, "--adversary"),
    (["--players", "600", "--adversary", "401"], 1, "--players"),
    (["--players", "2", "--adversary", "1001"], 1, "--adversary"),
    ([], 2, "required"),
    (["--individual", "two"], 2, "invalid int"),
    (["--individual", "2", "--players", "1"], 2, "not allowed"),
])
def test_bad_input_is_one_line(capsys, argv, status, needle):
    code, out, err = run(capsys, "mnemonic", "odds", *argv)
    assert code == status and out == ""
    assert err.count("\n") == 1 and needle in err


def test_rules_file_errors_are_one_line(capsys, tmp_path):
    bad = tmp_path / "rules.json"
    bad.write_text("{not json")
    code, _, err = run(capsys, "mnemonic", "odds", "--players", "1", "--rules", str(bad))
    assert code == 1 and "malformed JSON" in err and err.count("\n") == 1
