"""Aetherya's extras for the command line and the engine, declared as data (``solver.options``): the options
it adds to the shared verbs, its own ``optimize`` command, and what ``memory-solver demo`` runs."""

from __future__ import annotations

import json
from typing import Any

from solver.aetherya.scoring import parse_legends_option
from solver.aetherya.selfplay import DEFAULT_HINT_NODES
from solver.aetherya.solve import DEFAULT_PROVER, DEFAULT_TIME_MS, PROVERS, OptimizeResult, optimize
from solver.aetherya.text import optimize_text
from solver.game import Game
from solver.options import Argument, Command, Example, Option

OPTIONS = {
    "score": (Option("legends", "--legends", str, "",
                     "Legends held with a kingdom: numbers 1-15 or slugs such as plains-3, comma-separated "
                     "(docs/rules/aetherya.md)", parse=parse_legends_option),),
    "selfplay": (Option("hintNodes", "--hint-nodes", int, DEFAULT_HINT_NODES,
                        "playouts per decision of the hint policies", lo=1, hi=10**7),),
}


class OptimizeAnswer(dict):
    """What ``optimize`` prints with ``--json`` (the result's JSON), keeping the result for the text form."""

    def __init__(self, result: OptimizeResult) -> None:
        super().__init__(result.to_json())
        self.result = result


def _optimize(game: Game, values: dict[str, Any]) -> OptimizeAnswer:
    return OptimizeAnswer(optimize(values["cards"], values["fixed"], values["time_ms"], values["prover"],
                                   values["seed"]))


COMMANDS = (
    Command("optimize", "the best kingdom of 16 held cards, proven optimal",
            (Argument(("cards",), "the 16 cards you hold, e.g. PPFFMMSSHHEEDGRO", metavar="CARDS"),
             Argument(("--fixed",), "cards locked in place (Portals, Dragons), e.g. a1=O,c3=R; cells a1..d4 "
                                    "(column a-d left to right, row 1-4 from the top); they are part of the 16 "
                                    "cards", metavar="CELL=CARD,..."),
             Argument(("--time-ms",), f"time limit in milliseconds (default {DEFAULT_TIME_MS})", kind=int,
                      metavar="T"),
             Argument(("--prover",), f"what proves each Portal layout (default {DEFAULT_PROVER})",
                      default=DEFAULT_PROVER, choices=PROVERS),
             Argument(("--seed",), "seed of the local search (default 0)", kind=int, default=0)),
            run=_optimize, render=lambda answer: optimize_text(answer.result),
            description="Arrange 16 held cards (letters P F M S H E D G R O, any order) into the kingdom with the "
                        "highest board total (Legends are held cards, not placement), and prove it optimal. "
                        "Within the time limit it prints the best kingdom found and a proven upper bound."),
)

#: seat 0's view of a seeded 2-player game (``new --seed 4``, played greedily) with 3 face-down cards left
DEMO_VIEW = ("view:0 base:2 ph=choose to=0 t=22 k=?EFE/?ROH/MHPH/?PHR,DD??/MOGS/DMSG/RDPS dp=PFFGGO dk=1 d=FO h=- "
             "cl=0 ar=- st=-,- lr=3,5,8,9,10,12,14,15 ld=5 lh=1,4;- aw=-")
#: the rest of that game as seat 0 entered it: its own moves the hint's best (150 playouts), seat 1 greedy
#: (``tests/aetherya/test_demo.py`` plays it again)
DEMO_RECORD = {
    "format": "memory-solver-record", "version": 1, "game": "aetherya",
    "start": {"view": 0, "mode": "base", "players": 2, "phase": "choose", "toMove": 0, "turn": 22,
              "kingdoms": ["?EFE/?ROH/MHPH/?PHR", "DD??/MOGS/DMSG/RDPS"], "drawPile": "PFFGGO",
              "drawPileKnown": True, "discard": ["FO"], "hold": None, "claimed": False, "afterRefill": "",
              "start": ["", ""], "legendRow": ["goblins-2", "elves-2", "goblin-human", "goblin-elf", "goblin-dwarf",
                                               "plains-3", "mountains-3", "forests-3"],
              "legendDeck": 5, "legends": [["human-elf", "humans-2"], []], "awaiting": None},
    "moves": ["draw", "card F", "place a3", "take", "place a1", "claim mountains-3", "legend human-dwarf", "take",
              "place d1", "claim human-dwarf", "legend dwarves-2", "draw", "card O", "reveal d1", "card R", "draw",
              "card F", "place a1", "card E", "draw", "card G", "place c4", "take", "place d1", "take", "place a1",
              "claim dwarves-2", "legend swamps-3", "draw", "card G", "reveal a2", "card S", "take", "place c1",
              "card M", "card E"],
}
DEMO_NODES = "150"

DEMO = (
    Example("Score a kingdom holding the Legend plains-3", ("score", "FEFP/MDMH/PHFS/SSGS", "--legends", "plains-3")),
    Example("Seat 0's view near the end of a dealt 2-player game: 3 face-down cards left", ("show", DEMO_VIEW)),
    Example("The hint for seat 0, from its view alone", ("hint", DEMO_VIEW, "--nodes", DEMO_NODES, "--top", "2")),
    Example("The rest of the game as seat 0 entered it, reviewed", ("review", json.dumps(DEMO_RECORD), "--nodes",
                                                                    DEMO_NODES),
            note="(a whole game at the table, command by command: docs/sessions/aetherya.md)"),
    Example("The best arrangement of 16 held cards, proven", ("optimize", "PFFMMSSHHEEDGGRO", "--time-ms", "20000")),
    Example("The same with a Dragon and a Portal already locked in place",
            ("optimize", "PPFFMMSHHEEDGRRO", "--fixed", "a1=R,d4=O", "--time-ms", "20000")),
    Example("A legend-race puzzle with its proven fewest turns",
            ("generate", "--kind", "legend-race", "--difficulty", "easy", "--seed", "1")),
    Example("An answer to it checked (the puzzle regenerated from its id)",
            ("check", "aetherya-legend-race-easy-1-0", "take, place d1; take, place b2")),
)
