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
from solver.memorinth import rules as R
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
DEMO_SEED = 3
DEMO_NODES = 400


def demo(game: Any, out: TextIO) -> None:
    """Built-in examples: a short game from yellow's view with a hint at every decision and its review, a shortest
    escape, a puzzle, and a Master Memorinth hint (node budgets: the same output on every machine)."""
    from solver.memorinth.escape import shortest_escape
    from solver.memorinth.selfplay import choose
    from solver.memorinth.view import table_entries
    from solver.puzzles import make_puzzle
    from solver.record import Record
    from solver.review import render_review, review
    out.write("Default deck: INVENTED (the printed card layouts are unknown); see docs/formats/memorinth.md.\n\n")
    state = game.deal(DEMO_SEED)
    start = state.view(0)
    out.write(f"A two-player game dealt with seed {DEMO_SEED}, as yellow (player 0) sees it "
              f"(memory-solver memorinth new --seed {DEMO_SEED} --player 0):\n")
    render(start, out)
    escape = shortest_escape(state, ctx=SearchContext(limits=Limits(nodes=100_000)))
    out.write(f"\n(Full-information shortest escape for yellow, knowing every card: {escape.turns} own turns, "
              f"{escape.status}: " + " / ".join(", ".join(t) for t in escape.turn_moves) + ")\n\n")
    out.write(f"Yellow asks for a hint at every decision ({DEMO_NODES} playouts, from yellow's view only) and plays "
              "its best move;\nblue plays the greedy policy (MR-27). Yellow enters every move and the sides the "
              "flips show:\n")
    entries: list[str] = []
    turn = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == 0:
            hint = game.hint(state, SearchContext(limits=Limits(nodes=DEMO_NODES)), top=1)
            action = state.parse_move(hint.best.move)
            note = f"   (hint: {hint.best.move}, wins {100 * hint.best.value:.0f}%)"
        else:
            action = choose(game, state, "greedy", 0, DEMO_SEED * 1000 + turn)
            note = ""
        said = table_entries(state, action, 0)
        out.write(f"  {R.COLOURS[player]:<7} {', '.join(said):<26}{note}\n")
        entries += said
        state.apply_action(action)
        turn += 1
    winner = state.winner()
    out.write(f"  {'nobody' if winner is None else R.COLOURS[winner]} left the forest.\n\n")
    record = Record.start_of(start).extended(entries, stamp=False)
    out.write("The review of yellow's decisions (memorinth review RECORD --nodes 400):\n")
    out.write(render_review(review(game, record, player=0, limits=Limits(nodes=DEMO_NODES))) + "\n")
    puzzle = make_puzzle(game, "escape", "easy", seed=0, index=0)
    out.write(f"A puzzle ({puzzle['id']}: memorinth generate --difficulty easy):\n")
    out.write(game.describe_puzzle(puzzle))
    out.write("  the only shortest solution: " + game.puzzle_answer(puzzle) + "\n\n")
    master = game.derive({"variant": "master", "action_side": "special", "players": 3}, None, "demo")
    mstate = master.deal(11)
    out.write("Master Memorinth (special side: clovers, peek, swaps; goblins count), three players, seed 11:\n")
    render(mstate, out)
    buf = io.StringIO()
    render_hint(master.hint(mstate, SearchContext(limits=Limits(nodes=1500), seed=1), top=3), buf)
    out.write(buf.getvalue())
