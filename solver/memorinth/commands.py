"""Memorinth's extras for the command line and the engine, declared as data (``solver.options``).

The verbs every game shares (``new``, ``show``, ``view``, ``apply`` (alias ``play``), ``legal-moves``, ``hint``,
``solve``, ``score``, ``generate``, ``check``, ``review``, ``selfplay``) come from the shared layer; Memorinth adds
their options (``solve --max-depth/--player``, ``generate --turns``, ``selfplay --hint-nodes/--max-turns``), its
own command ``deck``, and the examples ``memory-solver demo`` runs (node budgets and seeds: the same output on
every machine). A whole game at the table, command by command: ``docs/sessions/memorinth.md``.
"""

from __future__ import annotations

import json
from typing import Any

from solver.memorinth.deck import load_deck, parse_deck
from solver.memorinth.text import deck_text
from solver.options import Argument, Command, Example, Option

OPTIONS = {
    "solve": (Option("maxDepth", "--max-depth", int, 30, "give up beyond this many own turns", lo=1, hi=64),
              Option("player", "--player", int, None, "whose escape (default: the player to act)", lo=0, hi=3)),
    "generate": (Option("turns", "--turns", int, None, "exactly this many own turns (the kind escape-in-K, "
                                                       "graded by K) instead of --difficulty", lo=1, hi=12),),
    "selfplay": (Option("hintNodes", "--hint-nodes", int, 200, "playouts per hint of the 'hint' policy",
                        lo=1, hi=1_000_000),
                 Option("maxTurns", "--max-turns", int, 200, "a game longer than this many turns is unfinished",
                        lo=1, hi=100_000)),
}
ALIASES = {"apply": ("play",)}


def _deck(game: Any, values: dict[str, Any]) -> dict[str, Any]:
    return load_deck(values["file"], "FILE").to_json()


def _deck_text(result: dict[str, Any]) -> str:
    return deck_text(parse_deck(result))


COMMANDS = (
    Command("deck", "check a deck file and list its cards",
            (Argument(("file",), "a deck file (docs/formats/memorinth.md), or 'default'", metavar="FILE", nargs="?",
                      default="default"),), run=_deck, render=_deck_text),
)

# -- the demo: yellow's side of a two-player game dealt with seed 3 -------------------------------------------
#: the deal of seed 3 (``new --seed 3``) and yellow's view of it (``new --seed 3 --player 0``)
DEAL = ("2p base SN | 7S,12M,20S,11M,9S/21M,1S,18M,19S,23M/4S,6M,CS,15M,10S/22M,8S,16M,24S,13M/5S,2M,14S,17M,3S | "
        "c3,c3 | N=GH E=RX S=BT W=FP | r1 p0 flip")
YELLOW = ("view:0 2p base SN | 7S:?,12M:?,20S:?,11M:?,9S:?/21M:?,1S:?,18M:?,19S:?,23M:?/4S:?,6M:?,CS,15M:?,10S:?/"
          "22M:?,8S:?,16M:?,24S:?,13M:?/5S:?,2M:?,14S:?,17M:?,3S:? | c3,c3 | N=GH E=RX S=BT W=FP | r1 p0 flip")
#: the game yellow played from that view with a 400-playout hint at every decision, blue playing greedy (MR-27):
#: every move and every side a flip showed yellow, as entered at the table
MOVES = ("flip a1", "reveal 7M", "flip c1", "reveal 20M", "flip a3", "reveal 4M", "flip c1", "flip a3", "flip e3",
         "reveal 10M", "flip a3", "flip d3", "reveal 15S", "flip a3")
GAME_RECORD = json.dumps({
    "format": "memory-solver-record", "version": 1, "game": "memorinth",
    "start": {"view": 0, "board": [row.replace(",", " ") for row in YELLOW.split(" | ")[1].split("/")],
              "pieces": ["c3", "c3"], "characters": {"N": "GH", "E": "RX", "S": "BT", "W": "FP"}},
    "moves": list(MOVES)})
MASTER = "memorinth(variant=master,action_side=special,players=3)"

DEMO = (
    Example("A two-player game dealt with seed 3, as yellow (player 0) sees it",
            ("new", "--seed", "3", "--player", "0"),
            note="The default deck is INVENTED (the printed card layouts are unknown): docs/formats/memorinth.md."),
    Example("The table from yellow's side ('?': an underside yellow has not seen)", ("show", "{previous}")),
    Example("Yellow's hint, from yellow's view only (400 playouts: the same answer on every machine)",
            ("hint", YELLOW, "--nodes", "400")),
    Example("Yellow's proven shortest escape, knowing every card (full information, solitaire model)",
            ("solve", DEAL)),
    Example("Where the race stands", ("score", DEAL)),
    Example("The game yellow then played by the hint's best move, as entered at the table: yellow's moves, blue's "
            "(the greedy policy), the sides the flips showed", ("apply", YELLOW, *MOVES)),
    Example("How it ended", ("show", "{previous}")),
    Example("The review of yellow's decisions in that game's record", ("review", GAME_RECORD, "--nodes", "400")),
    Example("An escape puzzle with a unique shortest solution", ("generate", "--difficulty", "easy", "--seed", "0")),
    Example("Its answer checked (re-proved, never read from the puzzle)",
            ("check", "memorinth-escape-easy-0-0", "flip e4 / flip d4")),
    Example("The hint against the greedy policy on the same deals, each deal played from both seats",
            ("selfplay", "--count", "2", "--seed", "1", "--hint-nodes", "100", "--summary")),
    Example("Master Memorinth, special side (clovers, peek, swaps; goblins count), three players, seed 11",
            ("new", "--seed", "11", "--game", MASTER)),
    Example("Yellow's hint there", ("hint", "{previous}", "--nodes", "1500", "--seed", "1")),
    Example("The deck in use (a deck file in the same format enters the printed cards)", ("deck",)),
)
