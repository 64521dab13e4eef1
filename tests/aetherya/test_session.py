"""docs/sessions/aetherya.md: every documented command, replayed through the command line, prints what the page
shows (a whole game from seat 0's view, hints under a node budget, the review)."""

from __future__ import annotations

import contextlib
import io
import os
import shlex
from pathlib import Path

from solver import cli

PAGE = Path(__file__).resolve().parents[2] / "docs" / "sessions" / "aetherya.md"
PROMPT = "$ memory-solver "


def documented_commands() -> list[tuple[list[str], str]]:
    """(argv, expected output) of every command in the page's console blocks."""
    out: list[tuple[list[str], str]] = []
    inside = False
    for line in PAGE.read_text().splitlines():
        if line.startswith("```console"):
            inside = True
        elif line.startswith("```"):
            inside = False
        elif inside and line.startswith(PROMPT):
            out.append((shlex.split(line[len(PROMPT):]), ""))
        elif inside and out:
            argv, text = out[-1]
            out[-1] = (argv, text + line + "\n")
    return out


def test_the_documented_session_replays_exactly(tmp_path):
    commands = documented_commands()
    assert commands[0][0][:2] == ["aetherya", "new"] and commands[-1][0][:2] == ["aetherya", "review"]
    assert sum(argv[1] == "hint" for argv, _ in commands) >= 20
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for argv, expected in commands:
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                code = cli.main(argv)
            assert code == 0, argv
            assert buffer.getvalue() == expected, argv
    finally:
        os.chdir(cwd)
