"""The documented table session (docs/sessions/embers.md) replays exactly: every command, every output."""

from pathlib import Path

from solver.embers.session import commands_of, run_command

PAGE = Path(__file__).resolve().parents[2] / "docs" / "sessions" / "embers.md"


def test_the_documented_session_replays_exactly(tmp_path, monkeypatch):
    """A whole Chapter One game from Fenrys's view: new --table, apply with his entries, hint at each of his
    decisions, review; the outputs are the ones printed in the page (hints use --nodes, so they repeat)."""
    monkeypatch.chdir(tmp_path)
    steps = commands_of(PAGE.read_text())
    assert steps[0][0].startswith("memory-solver embers new --table --player 0")
    assert steps[-1][0].startswith("memory-solver embers review")
    assert sum("hint" in command.split()[2] for command, _ in steps) > 30
    for command, expected in steps:
        assert run_command(command) == expected, command
    assert "Biggest mistakes:" in steps[-1][1] and "result=won" in steps[-2][1]
