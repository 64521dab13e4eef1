"""The documented table session (docs/sessions/embers.md) replays exactly: every command, every output; and the
demo's reviewed game is the one its generator (docs/sessions/embers_session.py) plays."""

import importlib.util
import json
from pathlib import Path

from solver.embers.commands import REVIEWED_RECORD

DOCS = Path(__file__).resolve().parents[2] / "docs" / "sessions"
PAGE = DOCS / "embers.md"


def _session_script():
    spec = importlib.util.spec_from_file_location("embers_session", DOCS / "embers_session.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SESSION = _session_script()


def test_the_documented_session_replays_exactly(tmp_path, monkeypatch):
    """A whole Chapter One game from Fenrys's view: new --table, apply with his entries, hint at each of his
    decisions, review; the outputs are the ones printed in the page (hints use --nodes, so they repeat)."""
    monkeypatch.chdir(tmp_path)
    steps = SESSION.commands_of(PAGE.read_text())
    assert steps[0][0].startswith("memory-solver embers new --table --player 0")
    assert steps[-1][0].startswith("memory-solver embers review")
    assert sum("hint" in command.split()[2] for command, _ in steps) > 30
    for command, expected in steps:
        assert SESSION.run_command(command) == expected, command
    assert "Biggest mistakes:" in steps[-1][1] and "result=won" in steps[-2][1]


def test_the_demo_reviews_the_game_its_generator_plays():
    """The record `memory-solver demo` reviews is the seeded Prologue the session script plays (Rowan follows
    his hints but once), not a hand-written one."""
    record = SESSION.reviewed_record().to_json()
    del record["created"]  # when the generator ran
    assert json.loads(REVIEWED_RECORD) == {**record, "moves": [m["move"] for m in record["moves"]]}
