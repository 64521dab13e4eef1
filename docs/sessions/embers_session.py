"""Write docs/sessions/embers.md: a whole game played from Fenrys's view at the command line.

``python docs/sessions/embers_session.py docs/sessions/embers.md`` plays a seeded Chapter One game at a real table:
Fenrys starts with ``new --table --player 0 --record game.jsonl``, enters every card dealt or drawn and
Aelin's moves as he sees them (``apply ... --record game.jsonl``), asks ``hint`` at each of his decisions and
follows it (but once, to give the review something to find), and ends with ``review``. Aelin is played by her
own hint policy on the full game, which the session never shows. Every command is run through the real command
line and its output is written exactly as printed; ``tests/embers/test_session.py`` replays the file.

:func:`reviewed_record` makes the short reviewed Prologue that ``memory-solver demo`` shows (the record in
``solver/embers/commands.py``; ``tests/embers/test_session.py`` checks it is this game's).
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import sys
import tempfile
from pathlib import Path

from collections.abc import Callable
from typing import Any

import numpy as np

from solver import cli, contract
from solver.embers.policy import FenrysSettings, HintPolicy
from solver.embers.state import AELIN, FENRYS, EmbersState
from solver.embers.view import EmbersView, follow
from solver.record import Record
from solver.registry import load_game
from solver.search import Limits, SearchContext

SEED = 2
NODES = 30_000
#: from this Fenrys decision on (counted from 0), the first Blink whose second move is clearly worse is where he
#: plays the second move instead of the first (the mistake the review should find)
BLUNDER = 9
RECORD = "game.jsonl"


def run_command(command: str) -> str:
    """Run ``memory-solver ...`` in-process and return what it printed (stdout, then stderr if any)."""
    argv = shlex.split(command)
    assert argv[0] == "memory-solver", command
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(argv[1:])
    if status != 0:
        raise RuntimeError(f"{command!r} exited {status}: {err.getvalue()}")
    return out.getvalue() + err.getvalue()


def table_game(game: Any, seed: int, fenrys: Callable[[EmbersView, EmbersState], str], aelin: HintPolicy,
               seen: Callable[[list[str]], None]) -> EmbersView:
    """Play a seeded game at a real table from Fenrys's (or Rowan's) view: ``fenrys(view, truth)`` gives his move,
    ``aelin`` plays the full game, the deck is drawn from the seed, and ``seen`` receives the entries Fenrys makes
    for each action (``solver.embers.view.follow``). Returns his view at the start."""
    rng = np.random.default_rng(seed)
    truth = EmbersState(game)
    truth.start_table()
    view = truth.view(FENRYS)
    start = view.clone()
    while not truth.is_terminal():
        player = truth.current_player()
        if player == FENRYS:
            action = truth.parse_move(fenrys(view, truth))
        elif player == AELIN:
            action = aelin.choose(truth, rng)
        else:
            outcomes = truth.chance_outcomes()
            action = outcomes[int(rng.integers(len(outcomes)))][0]
        seen(follow(view, truth, action))
        truth = truth.child(action)
    return start


def play(seed: int = SEED, nodes: int = NODES, blunder: int = BLUNDER) -> list[tuple[str, str, str]]:
    """The session's steps: ``(note, command, output)``; run in the current directory (it writes game.jsonl)."""
    game = load_game("embers")
    steps: list[tuple[str, str, str]] = []
    pending: list[str] = []
    count = {"decisions": 0, "blunder": blunder}

    def step(note: str, command: str) -> None:
        steps.append((note, command, run_command(command)))

    def fenrys(view: EmbersView, truth: EmbersState) -> str:
        if pending:
            step(_describe(pending), _apply(pending))
            pending.clear()
        step("", f"memory-solver embers hint {RECORD} --nodes {nodes}")
        ranked = contract.hint(game, view, SearchContext(limits=Limits(nodes=nodes), seed=0), top=2).move_infos
        planted = count["decisions"] >= count["blunder"] and truth.phase == "blink" and len(ranked) > 1 and \
            ranked[1].value <= ranked[0].value - 100
        if planted:
            count["blunder"] = 10**9  # one planted mistake, then none
        count["decisions"] += 1
        return (ranked[1] if planted else ranked[0]).move

    step("Fenrys sits down at a real table: nothing is dealt yet.",
         f"memory-solver embers new --table --player 0 --record {RECORD}")
    table_game(game, seed, fenrys, HintPolicy(FenrysSettings(search_nodes=nodes)), pending.extend)
    if pending:
        step(_describe(pending), _apply(pending))
    step("The game is over. The review judges each of Fenrys's decisions from what he knew at the time.",
         f"memory-solver embers review {RECORD} --nodes {nodes}")
    return steps


def reviewed_record(seed: int = 1, nodes: int = 2_000) -> Record:
    """The demo's short game: a seeded Prologue from Rowan's view (both players follow their hints, but Rowan
    plays his hint's second move once), as his record (``memory-solver embers review`` judges it)."""
    game = load_game("embers(chapter=prologue)")
    entries: list[str] = []
    planted = [False]

    def rowan(view: EmbersView, truth: EmbersState) -> str:
        ranked = contract.hint(game, view, SearchContext(limits=Limits(nodes=nodes), seed=0), top=2).move_infos
        if not planted[0] and len(ranked) > 1 and ranked[1].value < ranked[0].value:
            planted[0] = True
            return ranked[1].move
        return ranked[0].move

    start = table_game(game, seed, rowan, HintPolicy(), entries.extend)
    return Record.start_of(start).extended(entries, stamp=False)


def _apply(entries: list[str]) -> str:
    return "memory-solver embers apply " + RECORD + " " + " ".join(shlex.quote(e) for e in entries) + \
        f" --record {RECORD}"


def _describe(entries: list[str]) -> str:
    """A short note on what the entries are."""
    kinds = []
    for entry in entries:
        verb = entry.split()[0]
        word = {"chance": "the cards dealt or drawn", "take": "Aelin's takes", "here": "Aelin's announcement",
                "silent": "Aelin's silence", "resolve": "the Resolve cards shown at Day's End",
                "arrange": "Aelin's arrangement", "reveal": "the Resolve card Aelin turns",
                "pass": "Aelin's answer to the reveal", "keep": "the section Aelin keeps"}.get(verb, "his move")
        if word not in kinds:
            kinds.append(word)
    return "Fenrys enters " + ", ".join(kinds) + "."


def markdown(steps: list[tuple[str, str, str]], seed: int = SEED, nodes: int = NODES) -> str:
    """The session as a Markdown page."""
    lines = [
        "# Embers of Memory at the table: a whole game from Fenrys's view",
        "",
        "A Chapter One game played at a real table, as a new user would: Fenrys (player 0) starts with",
        "`new --table`, enters every card dealt or drawn and Aelin's moves as he sees them",
        "(`docs/formats/embers.md`, \"Moves and entries\"), asks `hint` at each of his decisions, and reviews the",
        "game at the end. He follows every hint but one, which the review finds. He never sees Aelin's face-down",
        "Resolve cards: they are dealt as `chance ?`, her arrangement is `arrange ?`, and he learns their",
        "strengths from her rows (`take C3` into a row, `take C3 over` to the discard pile, `here` when she says",
        "\"I am here\", `silent` when she says nothing) and their cards when she turns them (`reveal 2 S3`) or",
        "when a day ends (`resolve 1 D1a`).",
        "",
        f"Every hint uses `--nodes {nodes}`, so the output below is the same on every machine. The commands and",
        "their output are exactly as printed; `tests/embers/test_session.py` replays them. Regenerate with",
        "`python docs/sessions/embers_session.py docs/sessions/embers.md` (the game behind it is seeded: "
        f"`SEED = {seed}` in `docs/sessions/embers_session.py`).",
        "",
    ]
    for note, command, output in steps:
        if note:
            lines += [note, ""]
        lines += ["```console", f"$ {command}", output.rstrip("\n"), "```", ""]
    return "\n".join(lines)


def commands_of(text: str) -> list[tuple[str, str]]:
    """``(command, expected output)`` of every console block of a session page."""
    out = []
    for block in text.split("```console\n")[1:]:
        body = block.split("\n```", 1)[0]
        first, _, rest = body.partition("\n")
        assert first.startswith("$ "), first
        out.append((first[2:], rest + "\n" if rest else ""))
    return out


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else None
    with tempfile.TemporaryDirectory() as directory:
        here = os.getcwd()
        os.chdir(directory)
        try:
            text = markdown(play())
        finally:
            os.chdir(here)
    if target is None:
        sys.stdout.write(text)
    else:
        target.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
