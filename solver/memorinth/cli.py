"""``memory-solver memorinth deck``, the one command of Memorinth's own, and the demo.

The verbs every game shares (``new``, ``show``, ``view``, ``apply`` (alias ``play``), ``legal-moves``,
``hint``, ``solve``, ``score``, ``generate``, ``check``, ``review``, ``selfplay``) come from
``solver/commands.py``; Memorinth plugs into them through its game object (``solve --max-depth/--player``,
``generate --turns``, ``selfplay --hint-nodes/--max-turns``, the text pictures of ``describe``).
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any, TextIO

from solver.commands import print_json, render_hint
from solver.memorinth.deck import ACTION_NAMES, DIRECTIONS, load_deck
from solver.memorinth.render import render
from solver.search import Limits, SearchContext


def add_commands(game: Any, commands: argparse._SubParsersAction) -> None:
    """Register Memorinth's own sub-command (``deck``)."""
    deck = commands.add_parser("deck", help="check a deck file and list its cards")
    deck.add_argument("file", metavar="FILE", nargs="?", default="default")
    deck.add_argument("--json", action="store_true")
    deck.set_defaults(run=_run_deck)


def _run_deck(args: argparse.Namespace) -> int:
    deck = load_deck(args.file, "FILE")
    if args.json:
        print_json(deck.to_json())
        return 0
    sys.stdout.write(f"deck {deck.name!r} ({deck.tag()}): {'printed cards' if deck.printed else 'NOT the printed cards'}"
                     f"\n  {deck.description}\n  characters: "
                     + ", ".join(f"{c} {n}" for c, n in zip(deck.codes, deck.names)) + "\n")
    for s, name in enumerate(("shift", "special")):
        sys.stdout.write(f"  action card, {name} side: "
                         + ", ".join(f"{DIRECTIONS[e]} {ACTION_NAMES[deck.actions[s][e]]}" for e in range(4)) + "\n")
    for card in deck.cards:
        sys.stdout.write(f"  {card.ident:>3}  Sun: {card.sides[0].describe(deck.codes):<20} "
                         f"Moon: {card.sides[1].describe(deck.codes)}\n")
    return 0


# -- demo -------------------------------------------------------------------------------------------
def demo(game: Any, out: TextIO) -> None:
    """Built-in examples: a dealt game, a hint, a shortest escape, a puzzle and a Master Memorinth hint."""
    from solver.memorinth.escape import shortest_escape
    from solver.memorinth.puzzles import generate
    out.write("Default deck: INVENTED (the printed card layouts are unknown); see docs/formats/memorinth.md.\n\n")
    state = game.deal(3)
    out.write("A two-player game dealt with seed 3 (memory-solver memorinth show \"$(memory-solver memorinth new "
              "--seed 3)\"):\n")
    render(state, out)
    out.write(f"notation: {state.to_notation()}\n\n")
    state.apply_move("flip a1")
    state.apply_move("flip c1")
    out.write("After 'flip a1' (yellow) and 'flip c1' (blue), yellow asks for a hint (what yellow has seen only):\n")
    ctx = SearchContext(limits=Limits(time_ms=400), seed=1)
    buf = io.StringIO()
    render_hint(game.hint(state, ctx, top=3), buf)
    out.write(buf.getvalue() + "\n")
    escape = shortest_escape(state, ctx=SearchContext(limits=Limits(time_ms=1000)))
    out.write(f"Full-information shortest escape for yellow: {escape.turns} own turns ({escape.status}): "
              + " / ".join(", ".join(t) for t in escape.turn_moves) + "\n\n")
    puzzles, _ = generate(game, 1, 2, "easy", ctx=SearchContext(limits=Limits(time_ms=20000)))
    if not puzzles:
        out.write("(no easy puzzle found within 20 s)\n\n")
    else:
        puzzle = puzzles[0]
        out.write(f"An easy puzzle (solitaire, every card known): leave the forest in {puzzle.turns} turns; the "
                  "only shortest solution is\n  " + " / ".join(", ".join(t) for t in puzzle.solution) + "\n")
        render(puzzle.state, out)
        out.write("\n")
    master = game.derive({"variant": "master", "action_side": "special", "players": 3}, None, "demo")
    mstate = master.deal(11)
    out.write("Master Memorinth (special side: clovers, peek, swaps; goblins count), three players, seed 11:\n")
    render(mstate, out)
    buf = io.StringIO()
    render_hint(master.hint(mstate, SearchContext(limits=Limits(time_ms=400), seed=1), top=3), buf)
    out.write(buf.getvalue())
