"""The command line: readable output, one-line errors, exit codes."""

import json
import shutil
import subprocess
import sys

import pytest

from solver.cli import main
from solver.registry import game_names


def cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_json_has_the_contract_keys(capsys):
    code, out, err = cli(capsys, "aetherya", "score", "FEFP/MDMH/PHFS/SSGS", "--legends", "plains-3,7", "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    for key in ("elves", "dwarves", "humans", "goblins", "dragons", "legends", "conflicts", "total"):
        assert isinstance(result[key], int)
    assert result["legends"] == 8 and result["total"] == 24
    assert result["tiebreak"] == sorted(result["tiebreak"], reverse=True) and len(result["tiebreak"]) == 7


def test_score_text(capsys):
    code, out, _ = cli(capsys, "aetherya", "score", "FEFP/MDMH/PHFS/SSGS")
    assert code == 0 and "total" in out and "16" in out


@pytest.mark.parametrize("args, fragment", [
    (("aetherya", "score", "FEFP/MDMH/PHFS/SSGX"), "'X'"),
    (("aetherya", "score", "FEFP/MDMH"), "'FEFP/MDMH'"),
    (("aetherya", "score", "FEFP/MDMH/PHFS/SSGS", "--legends", "dragons-9"), "'dragons-9'"),
    (("aetherya", "score", "FEFP/MDMH/PHFS/SSGS", "--legends", ","), "--legends"),
])
def test_input_errors_are_one_line_with_status_1(capsys, args, fragment):
    code, out, err = cli(capsys, *args)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


@pytest.mark.parametrize("args", [(), ("nope",), ("aetherya",), ("aetherya", "score"), ("demo", "--game", "x"),
                                  ("aetherya", "score", "P", "--bogus")])
def test_usage_errors_are_one_line_with_status_2(capsys, args):
    code, out, err = cli(capsys, *args)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err


def test_games_listing(capsys):
    code, out, _ = cli(capsys, "games", "--json")
    assert code == 0 and any(g["name"] == "aetherya" for g in json.loads(out))


def test_demo_runs_every_game(capsys):
    code, out, err = cli(capsys, "demo")
    assert code == 0 and err == ""
    assert "Aetherya" in out


@pytest.mark.parametrize("launcher", ["console-script", "module"])
def test_installed_entry_points(tmp_path, launcher):
    """``memory-solver`` and ``python -m solver`` both work (run outside the source tree)."""
    if launcher == "console-script":
        exe = shutil.which("memory-solver")
        if exe is None:
            pytest.fail("the memory-solver console script is not installed")
        cmd = [exe]
    else:
        cmd = [sys.executable, "-m", "solver"]
    proc = subprocess.run(cmd + ["aetherya", "score", "FEFP/MDMH/PHFS/SSGS", "--json"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["total"] == 16
    bad = subprocess.run(cmd + ["aetherya", "score", "XXXX"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1


def test_cli_subprocesses_in_tests_run_outside_the_source_tree():
    """Run from the repo root, ``python -m solver`` would import the uncompiled source tree instead of the
    installed build (this failed CI twice): every ``subprocess.run`` or ``Popen`` in the tests must pass ``cwd=``."""
    import ast
    from pathlib import Path

    offenders = []
    for path in Path(__file__).parent.rglob("*.py"):
        text = path.read_text()
        if "subprocess" not in text:      # every call it looks for is subprocess.<name>(...): no need to parse
            continue
        for node in ast.walk(ast.parse(text)):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("run", "Popen", "check_output", "check_call", "call")
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "subprocess"
                    and not any(k.arg == "cwd" for k in node.keywords)):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("command", ["legal-moves", "hint"])
def test_a_bad_state_argument_is_named_as_the_user_typed_it(capsys, game, command):
    """Every game's STATE argument reports its errors under STATE (the argument's name), not the engine's
    'state' key: one line, exit status 1."""
    code, out, err = cli(capsys, game, command, '{"bogusKey": 1}')
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("memory-solver: error: STATE"), err


# -- start-up: what a short hint loads (issue 24) ----------------------------------------------------------------
#: modules a short hint from the command line must not load: other verbs' code, the servers, heavy libraries, and
#: what ``shutil`` and ``importlib.resources`` pull in (bz2, lzma, zipfile, tempfile)
NOT_FOR_A_HINT = ("solver.puzzles", "solver.selfplay", "solver.review", "solver.ranking", "solver.drawing",
                  "solver.scale", "solver.stats", "solver.engine", "solver.protocol", "solver.scheduler", "solver.web",
                  "solver.fuzz", "solver.learning", "solver.openspiel", "solver.testing", "solver.api", "ortools",
                  "starlette", "uvicorn", "tqdm", "ray", "shutil", "bz2", "lzma", "zipfile", "tempfile",
                  "importlib.resources", "numpy")
#: a game's modules that its hint does not need
GAME_PARTS_NOT_FOR_A_HINT = ("puzzles", "selfplay", "picture", "openspiel", "puzzle_play")


@pytest.mark.parametrize("name", ["embers", "mnemonic"])
def test_a_short_hint_from_the_command_line_loads_only_what_it_needs(name, tmp_path):
    """The modules a fresh process has loaded after ``memory-solver NAME hint STATE`` (a dealt position, as
    benchmarks/bench_startup.py asks): the hint's own game and verb, nothing of the other verbs, servers or
    games (their CPU time is in docs/benchmarks.md)."""
    from solver import api
    position = api.new(name, seed=3).to_notation()
    code = ("import contextlib, io, json, sys\nfrom solver.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n    status = main(sys.argv[1:])\n"
            "print(json.dumps({'status': status, 'out': out.getvalue(), 'modules': sorted(sys.modules)}))")
    proc = subprocess.run([sys.executable, "-c", code, name, "hint", position], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    found = json.loads(proc.stdout)
    assert found["status"] == 0 and "1." in found["out"], proc.stderr
    loaded = set(found["modules"])
    assert f"solver.{name}.hints" in loaded
    wrong = {m for m in loaded if m.split(".")[0] in ("solver", *NOT_FOR_A_HINT) and (
        any(m == heavy or m.startswith(heavy + ".") for heavy in NOT_FOR_A_HINT)
        or any(m.startswith(f"solver.{other}") for other in game_names() if other != name)
        or any(m == f"solver.{name}.{part}" for part in GAME_PARTS_NOT_FOR_A_HINT))}
    assert not wrong, sorted(wrong)
