"""What Forgotten adds to the front doors, declared as data (``solver.options``): the ``selfplay`` options, the
``generate`` note, the old ``selfplay`` flags, the ``place`` command (Brain placement advice) and the demo."""

from __future__ import annotations

import json
from typing import Any

from solver.errors import InvalidInputError
from solver.forgotten.text import placement_text
from solver.options import Argument, Command, Example, Option
from solver.search import Limits, SearchContext

OPTIONS = {"selfplay": (
    Option("hintNodes", "--hint-nodes", int, 2000, "rollouts per decision of the hint policy", lo=1, hi=10**7),
    Option("fast", "--fast", bool, False, "deal and play in the compiled kernel (much faster; no moves, no hint "
                                          "policy)"),
)}

NOTES = {"generate": "What to expect: a few seconds of CPU per puzzle on boards of up to 24 cells "
                     "(best-move puzzles are solved exactly, one solver shared by every candidate, "
                     "positions with at most 6 unseen tiles); forced connections are usually faster and "
                     "the only kind on larger boards. A puzzle not found within 200 self-played games is "
                     "an error naming the difficulty."}

#: old flags kept working (docs/formats/forgotten.md): ``selfplay --games N --policy P``
FLAG_ALIASES = {"selfplay": {"--games": "--count", "--policy": "--policies"}}


def _place(game: Any, values: dict[str, Any]) -> dict[str, Any]:
    """``place``: Brain placements ranked by self-play of the hints' policy (``--nodes`` games in all)."""
    # lazy: the compiled playout kernel loads when `place` runs, not for every command line that lists it
    from solver.forgotten.placement import advise_placement
    top = values["top"]
    if top < 1:
        raise InvalidInputError("--top", top, "must be at least 1")
    return advise_placement(game, _context(game, values), top=top)


def _context(game: Any, values: dict[str, Any]) -> SearchContext:
    """The search context of ``--time-ms``, ``--nodes`` and ``--seed``: with ``--nodes`` and no ``--time-ms`` no
    default time limit applies, so the answer is the same on every machine."""
    given = {key: values[key] for key in ("time_ms", "nodes") if values.get(key) is not None}
    try:
        limits = Limits.from_json(given, "limits")
    except InvalidInputError as exc:  # name the flag the user typed
        raise InvalidInputError("--time-ms" if exc.field == "limits.time_ms" else "--nodes", exc.value,
                                exc.problem) from None
    if limits.nodes is None or limits.time_ms is not None:
        limits = limits.with_defaults(game.default_time_ms)
    seed = values["seed"]
    if not 0 <= seed < 2**63:
        raise InvalidInputError("--seed", seed, "must be between 0 and 2**63-1")
    return SearchContext(limits=limits, seed=seed)


COMMANDS = (
    Command("place", "Brain placement advice: the opposite-side cells with the best odds",
            (Argument(("--top",), kind=int, default=5),
             Argument(("--time-ms",), "time limit in milliseconds", kind=int),
             Argument(("--nodes",), "node (or sample) limit; the answer is then the same on every machine", kind=int),
             Argument(("--seed",), "random seed (default 0)", kind=int, default=0)),
            run=_place, render=placement_text, game_flags=True,
            description="Self-play of the route policy (the greedy policy under goal=clear, where the placement "
                        "cannot change the odds) for every legal Brain placement (up to symmetry); --nodes is the "
                        "number of games in all."),
)

#: the 6x6 board of the demo: a seeded deal played six turns by the route policy, as player 0 sees it
DEMO_VIEW = "view:0 ?G????/?+FKAON/@LGCI+F/????-?@/-??????/????-?? 6 first"
#: a short game at a 4x3 table, as entered from player 0's view (docs/sessions/forgotten.md)
DEMO_TABLE = ("flip 2,1", "shows E", "flip 3,1", "shows D", "flip 2,2", "shows A", "flip 3,3", "shows C",
              "erase 2,3", "flip 3,2", "shows C", "flip 1,1", "shows B", "flip 3,2", "flip 3,3", "erase 2,1",
              "flip 4,3", "shows A", "flip 2,2")
DEMO_RECORD = json.dumps({"format": "memory-solver-record", "version": 1, "game": "forgotten(height=3,width=4)",
                          "start": {"view": 0, "board": ["????", "@??@", "????"], "turn": 0, "phase": "first"},
                          "observer": 0, "moves": [{"move": move} for move in DEMO_TABLE]})

DEMO = (
    Example("A position on the real 6x6 board from player 0's view ('?' = nobody has seen that tile)",
            ("show", DEMO_VIEW)),
    Example("Where it stands: the cheapest route and the Erasure rolls that would end the game",
            ("score", DEMO_VIEW)),
    Example("A hint from that view", ("hint", DEMO_VIEW, "--nodes", "6000", "--seed", "1")),
    Example("Enter the hint's flip (a known pair: no tile to enter)", ("apply", DEMO_VIEW, "flip 3,3")),
    Example("The hint for the second flip", ("hint", "{previous}", "--nodes", "4000", "--seed", "1")),
    Example("Exact solution on a 4x3 board (Erasure after every turn; a removed tile nobody saw)",
            ("solve", "C.?./@B?@/.-?.? 2 first", "--game", "forgotten(width=4,height=3,pairs=3,erasure=turn)")),
    Example("Brain placement advice on a 4x4 board with 7 pairs (route policy self-play)",
            ("place", "--width", "4", "--height", "4", "--pairs", "7", "--nodes", "40000", "--top", "3")),
    Example("A puzzle: link the Brains for sure in one turn",
            ("generate", "--kind", "forced-connection", "--difficulty", "easy", "--seed", "0")),
    Example("A short game at a 4x3 table, entered from player 0's view",
            ("apply", "view:0 ????/@??@/???? 0 first", *DEMO_TABLE, "--width", "4", "--height", "3")),
    Example("Its review (player 0 followed the hint but once; docs/sessions/forgotten.md)",
            ("review", DEMO_RECORD, "--nodes", "2000")),
)
