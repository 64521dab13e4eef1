"""Write docs/sessions/aetherya.md: a whole 2-player game played from seat 0's view at the command line.

    python docs/sessions/aetherya_session.py > docs/sessions/aetherya.md

The true game is dealt with a seed and played here in full (seat 1 by the greedy policy, seat 0 by the hint's
best move); the document shows only what seat 0 types and reads: its view, the hint at each of its decisions
(node budget, so the output is the same on every machine), the other player's moves and the outcomes entered as
they happen, and the review of the record at the end. ``tests/aetherya/test_session.py`` replays every command
and checks its output.
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import sys
import tempfile

import numpy as np

SEED = 11
NODES = 200
PLAYER = 0
DEVIATE_AFTER = 6  # seat 0 plays the hint's second move once, from this decision on, to show what a review finds

INTRO = f"""# Aetherya at the table: one game from seat 0's view

A whole 2-player base game as a player at a real table would play it with memory-solver. Seat 0 (you) deals
with `new`, asks `hint` at each of its decisions, and enters with `apply` everything it sees happen: its own
moves, the other player's moves, the cards drawn, the card found under a territory when one is turned over
(AE-42, `docs/formats/aetherya.md`), `card ?` for the cards dealt face down. Every command works on the record
`game.jsonl`, which `review` judges at the end. Hints use `--nodes {NODES}` so that this page is the same on every
machine (a real game would use the default time limit). Made by `python docs/sessions/aetherya_session.py`;
`tests/aetherya/test_session.py` replays it.

"""


def run(argv: list[str]) -> str:
    """One command through the real command line, its standard output."""
    from solver import cli
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(argv)
    if code != 0:
        raise SystemExit(f"command failed ({code}): {argv}")
    return out.getvalue()


def command(parts: list[str], lines: list[str]) -> str:
    text = " ".join(shlex.quote(p) for p in parts)
    output = run(["aetherya", *parts])
    lines.append(f"$ memory-solver aetherya {text}")
    lines.extend(output.rstrip("\n").split("\n") if output.strip() else [])
    return output


def main() -> None:
    from solver import contract
    from solver.aetherya.game import AetheryaGame
    from solver.aetherya.knowledge import observed_entries, turned_over_entries
    from solver.aetherya.playout import greedy_action, sample_chance
    from solver.search import Limits, SearchContext
    game = AetheryaGame()
    state = game.new_initial_state(SEED)
    rng = np.random.default_rng(SEED)
    view = state.view(PLAYER)
    doc = [INTRO, "## The deal\n", "Seat 0 deals a seeded game and sees its 4 starting cards (seat 1's are `?`):\n",
           "```console"]
    command(["new", "--seed", str(SEED), "--player", str(PLAYER), "--record", "game.jsonl"], doc)
    doc.append("```\n")
    doc.append("The same position for a person (`show`; `show --svg` draws it):\n")
    doc.append("```console")
    command(["show", "game.jsonl"], doc)
    doc.append("```\n")

    def play(action: int) -> list[str]:
        """Play ``action`` on the true game; what seat 0 enters for it (and for the cards it turns over)."""
        typed = observed_entries(state, action, PLAYER)
        state.apply_action(action)
        for text in typed:
            view.apply_move(text)
        extra = turned_over_entries(view, state)
        for text in extra:
            view.apply_move(text)
        return typed + extra

    def enter(entries: list[str], label: str) -> None:
        if entries:
            doc.append(label)
            doc.append("```console")
            command(["apply", "game.jsonl", *entries, "--record", "game.jsonl"], doc)
            doc.append("```\n")

    turn_seen, decisions, deviated = -1, 0, False
    while not view.is_terminal():
        if not state.is_chance_node() and not state.is_terminal() and state.to_move == PLAYER:
            if state.phase == "choose" and state.turn != turn_seen:
                turn_seen = state.turn
                doc.append(f"## Turn {state.turn}: seat {PLAYER} to play\n")
            doc.append("```console")
            command(["hint", "game.jsonl", "--nodes", str(NODES), "--top", "2"], doc)
            doc.append("```\n")
            ranked = contract.hint(game, view, SearchContext(limits=Limits(nodes=NODES), seed=0), top=2).move_infos
            decisions += 1
            best = ranked[0].move
            label = f"Seat 0 follows the hint (`{best}`):\n"
            if not deviated and decisions >= DEVIATE_AFTER and len(ranked) > 1 \
                    and ranked[0].value - ranked[1].value > 1.5 and not ranked[1].extra.get("withinNoiseOfBest"):
                deviated, best = True, ranked[1].move
                label = (f"Here seat 0 does not follow the hint: it plays the second move, `{best}` (the review "
                         "will find it):\n")
            entries = play(state.parse_move(best))
            while state.is_chance_node():  # what that move shows at once (the card drawn)
                entries += play(sample_chance(state, rng))
            enter(entries, label)
            continue
        entries = []
        while not view.is_terminal() and (state.is_terminal() or state.is_chance_node() or state.to_move != PLAYER):
            if state.is_terminal():
                break
            entries += play(sample_chance(state, rng) if state.is_chance_node() else greedy_action(state, rng))
        if state.is_terminal() and not entries:
            break
        enter(entries, "The game is over: the cards still face down are turned over and entered:\n"
              if state.is_terminal() else "Then, as it happens at the table (seat 1's moves, the cards as they "
                                          "are seen, `card ?` for a card dealt face down):\n")
    doc.append("## The score and the review\n")
    doc.append("```console")
    command(["score", "game.jsonl"], doc)
    doc.append("```\n")
    doc.append("Every decision of seat 0, judged from what it knew at the time (the same hint, with every move "
               "valued), the biggest mistakes first:\n")
    doc.append("```console")
    command(["review", "game.jsonl", "--nodes", str(NODES)], doc)
    doc.append("```")
    sys.stdout.write("\n".join(doc) + "\n")


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)
        main()
