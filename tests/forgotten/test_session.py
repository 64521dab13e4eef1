"""The table session of docs/sessions/forgotten.md replays exactly: every command, and what it printed.

``python tests/forgotten/test_session.py --write`` plays the session again (a seeded deal stands for the real
tiles, seeded dice for the real dice; player 0 follows the hint but once) and rewrites the document.
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import sys
from pathlib import Path

import numpy as np

from solver import cli
from solver.forgotten.tiles import LETTERS
from solver import contract

DOC = Path(__file__).resolve().parents[2] / "docs" / "sessions" / "forgotten.md"
GAME_FLAGS = "--width 4 --height 3"
DEAL_SEED, DICE_SEED = 29, 3
#: (turn, stage) where player 0 does not follow the hint: the second flip of turn 3 (0-based 2)
DEVIATION = (2, "second")
HINT = "--nodes 2000 --top 2"


def run(command: str) -> str:
    """Run one ``memory-solver ...`` command line in-process and return what it printed (stdout and stderr)."""
    argv = shlex.split(command)
    assert argv[0] == "memory-solver"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(argv[1:])
    assert status == 0, (command, err.getvalue())
    return out.getvalue() + err.getvalue()


def play() -> list[tuple[str, str]]:
    """The session: ``[(command, output)]``, run in the current directory (it writes ``game.jsonl``)."""
    from solver.registry import load_game
    from solver.search import Limits, SearchContext
    game = load_game("forgotten(width=4,height=3)")
    truth = game.new_game(DEAL_SEED)
    dice = np.random.default_rng(DICE_SEED)
    log: list[tuple[str, str]] = []

    def say(command: str) -> str:
        text = run(command)
        log.append((command, text))
        return text

    say(f"memory-solver forgotten new --table --player 0 {GAME_FLAGS} --record game.jsonl")
    view = game.new_table(0)
    while not truth.is_terminal():
        if truth.is_chance_node():
            cell = int(dice.integers(truth.board.cells))
            roll = truth.action_to_string(cell)
            truth.apply_action(cell)
            entry = roll + " lost" if truth.phase == "lost" and not view.child(roll).is_terminal() else roll
            say(f'memory-solver forgotten apply game.jsonl "{entry}" --record game.jsonl')
            view.apply_move(entry)
            continue
        say(f"memory-solver forgotten hint game.jsonl {HINT}")
        best = contract.hint(game, view, SearchContext(limits=Limits(nodes=2000), seed=0), top=2).best.move
        move = best
        if (truth.turn, truth.phase) == DEVIATION:
            move = next(m for m in view.legal_moves() if m not in (best, "give up"))
        action = truth.parse_move(move)
        unseen = not truth.seen[action]
        truth.apply_action(action)
        entries = [move] + ([f"shows {LETTERS[truth.tiles[action]]}"] if unseen else [])
        quoted = " ".join(f'"{e}"' for e in entries)
        say(f"memory-solver forgotten apply game.jsonl {quoted} --record game.jsonl")
        for entry in entries:
            view.apply_move(entry)
    say("memory-solver forgotten show game.jsonl")
    say("memory-solver forgotten review game.jsonl --nodes 2000")
    return log


def render(log: list[tuple[str, str]]) -> str:
    lines = []
    for command, output in log:
        lines.append(f"$ {command}")
        lines += output.rstrip("\n").split("\n") if output.strip() else []
    return "\n".join(lines)


def session_block(text: str) -> str:
    return text.split("```console\n", 1)[1].split("```", 1)[0].rstrip("\n")


def parse(block: str) -> list[tuple[str, str]]:
    """``[(command, output)]`` of a console block."""
    out: list[tuple[str, list[str]]] = []
    for line in block.split("\n"):
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            out[-1][1].append(line)
    return [(command, "\n".join(lines)) for command, lines in out]


def test_the_documented_session_replays_exactly(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    documented = parse(session_block(DOC.read_text()))
    assert documented[0][0].startswith("memory-solver forgotten new --table")
    assert documented[-1][0].startswith("memory-solver forgotten review")
    for command, expected in documented:
        assert run(command).rstrip("\n") == expected, command


def write() -> None:
    import tempfile
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)
        try:
            block = render(play())
        finally:
            os.chdir(here)
    text = DOC.read_text()
    head, rest = text.split("```console\n", 1)
    tail = rest.split("```", 1)[1]
    DOC.write_text(head + "```console\n" + block + "\n```" + tail)


if __name__ == "__main__":
    if "--write" in sys.argv:
        write()
