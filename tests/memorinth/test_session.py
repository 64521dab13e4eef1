"""docs/sessions/memorinth.md: a whole game at the table from yellow's view, replayed command by command.

The session is made by this module (``python tests/memorinth/test_session.py --write`` rewrites the document):
yellow (player 0) asks for a hint at every decision and plays its best move; blue's moves (the greedy policy,
MR-27) and the sides the flips show are entered as they happen; the review closes it. The test replays every
documented command in a fresh directory and compares the output with the document, character for character.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SESSION = ROOT / "docs" / "sessions" / "memorinth.md"
SEED = 3
NODES = 400
PROGRAM = "memory-solver"


def run_command(line: str) -> str:
    """Run one documented command line in-process; its stdout (and the exit status if not 0)."""
    from solver.cli import main
    words = shlex.split(line)
    assert words[0] == PROGRAM
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(words[1:])
    assert code == 0, f"{line}: exit {code}: {err.getvalue()}"
    return out.getvalue()


def documented_commands(text: str) -> list[tuple[str, str]]:
    """``(command, output)`` of every ``$ `` line in the document's console blocks, in order."""
    pairs = []
    for block in re.findall(r"^```console\n(.*?)^```", text, flags=re.M | re.S):
        current: list[str] | None = None
        for line in block.splitlines():
            if line.startswith("$ "):
                current = []
                pairs.append((line[2:], current))
            elif current is not None:
                current.append(line)
    return [(command, "".join(f"{line}\n" for line in output)) for command, output in pairs]


def test_the_documented_session_replays_exactly(tmp_path):
    """Issue 10 'Done when': new, then hint and apply from one player's view to the end, then review."""
    pairs = documented_commands(SESSION.read_text())
    assert pairs[0][0].startswith(f"{PROGRAM} memorinth new") and "review" in pairs[-1][0]
    assert sum(" hint " in command for command, _ in pairs) >= 3
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        for command, output in pairs:
            assert run_command(command) == output, command
    finally:
        os.chdir(here)


# -- making the session ---------------------------------------------------------------------------------------
def _quote(move: str) -> str:
    return shlex.quote(move) if " " in move else move


def make_session() -> str:
    """The document: the game of seed SEED played by the hint (yellow) against the greedy policy (blue)."""
    from solver.memorinth.game import MemorinthGame
    from solver.memorinth.selfplay import choose
    from solver.memorinth.knowledge import table_entries
    game = MemorinthGame()
    state = game.deal(SEED)
    parts = [HEADER.format(seed=SEED, nodes=NODES)]

    def block(text: str, command: str) -> None:
        parts.append(f"{text}\n\n```console\n$ {command}\n{run_command(command)}```\n")

    block("Deal the game and start a record of what yellow (player 0) sees:",
          f"{PROGRAM} memorinth new --seed {SEED} --player 0 --record game.jsonl")
    block("The table as yellow sees it (`?`: an underside yellow has not seen):", f"{PROGRAM} memorinth show game.jsonl")
    turn = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == 0:
            block("Yellow to play: a hint from yellow's view alone.",
                  f"{PROGRAM} memorinth hint game.jsonl --nodes {NODES} --top 3")
            action = choose(game, state, "hint", NODES, 0)
            who = "Yellow plays the hint's best move"
        else:
            action = choose(game, state, "greedy", 0, SEED * 1000 + turn)
            who = "Blue plays; yellow enters blue's move"
        entries = table_entries(state, action, 0)
        said = f"{who}, `{entries[0]}`"
        if len(entries) > 1:
            said += f", and the side it shows, `{entries[1]}`"
        block(said + ":", f"{PROGRAM} memorinth apply game.jsonl " + " ".join(_quote(e) for e in entries)
              + " --record game.jsonl")
        state.apply_action(action)
        turn += 1
    winner = "yellow" if state.winner() == 0 else "blue" if state.winner() == 1 else "nobody"
    block(f"The game is over ({winner} left the forest). The review judges each of yellow's decisions from what "
          "yellow knew at the time, biggest mistakes first:", f"{PROGRAM} memorinth review game.jsonl --nodes {NODES}")
    return "\n".join(parts)


HEADER = """# A table session: Memorinth

A whole two-player game as a new user plays it at the table, from yellow's side (player 0): deal with `new`
(here a dealt game, seed {seed}; `new --table --player 0` starts a real table instead, the cards then entered as
they are laid out, `deal card 7` ...), then every move with `apply`, from yellow's view only: yellow's own moves,
blue's moves as yellow sees them, and after each flip of a card whose underside yellow has not seen, the side it
showed (`reveal 12M`, MR-30). Yellow asks for a `hint` at every decision, with a budget of {nodes} playouts (so the
answers are the same on every machine), and plays its best move; blue plays the greedy policy (MR-27). The game
record `game.jsonl` grows with every `apply --record`, and every command reads its last position. At the end,
`review` judges yellow's decisions.

Regenerate this page with `python tests/memorinth/test_session.py --write`; `tests/memorinth/test_session.py`
replays every command below and compares the output.
"""


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        import tempfile
        with tempfile.TemporaryDirectory() as scratch:
            here = os.getcwd()
            os.chdir(scratch)
            try:
                text = make_session()
            finally:
                os.chdir(here)
        SESSION.parent.mkdir(parents=True, exist_ok=True)
        SESSION.write_text(text)
        print(f"wrote {SESSION}")
    else:
        print(__doc__)
