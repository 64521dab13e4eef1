"""Aetherya: the game object, its engine services and its command line."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from solver.aetherya.cards import CATEGORIES
from solver.aetherya.scoring import KingdomScore, score_kingdom
from solver.cli import print_json
from solver.errors import InvalidInputError, UnsupportedActionError
from solver.game import Game, Information, Parameter, State, Utility
from solver.results import SolveResult
from solver.search import SearchContext
from solver.validate import as_list, as_object, check_keys, get


def parse_score_request(payload: Any, field: str = "state") -> KingdomScore:
    """Score ``"KINGDOM"`` or ``{"kingdom": "KINGDOM", "legends": [...]}``."""
    if isinstance(payload, str):
        return score_kingdom(payload, field=field)
    obj = as_object(payload, field)
    check_keys(obj, ("kingdom", "legends"), field)
    legends = as_list(obj.get("legends", []), f"{field}.legends")
    return score_kingdom(get(obj, "kingdom", field), legends, field=f"{field}.kingdom")


def render_score(score: KingdomScore, out: TextIO) -> None:
    """The score sheet as text."""
    for name, value in zip(CATEGORIES, score.categories):
        out.write(f"  {name:<10}{value:>5}\n")
    out.write(f"  {'total':<10}{score.total:>5}\n")
    out.write(f"  tie-break  {score.tiebreak}\n")
    satisfied = ", ".join(leg.slug for leg in score.satisfied) or "none"
    out.write(f"  Legends this kingdom satisfies: {satisfied}\n")


class AetheryaGame(Game):
    """Aetherya (Nostromo Editions): kingdom building on a 4x4 grid."""

    name = "aetherya"
    long_name = "Aetherya"
    utility = Utility.GENERAL_SUM
    information = Information.IMPERFECT
    min_players = 1
    max_players = 4
    PARAMETERS = {
        "players": Parameter(2, int, "number of players (1 = solo campaign)", lo=1, hi=4),
    }

    # The full game state arrives with the rules engine (docs/rules/aetherya.md).
    def new_initial_state(self, seed: int) -> State:
        raise UnsupportedActionError("action", "new_initial_state", "the Aetherya rules engine is not built yet")

    def state_from_json(self, obj: Any, field: str = "state") -> State:
        raise UnsupportedActionError("action", "state", "the Aetherya rules engine is not built yet")

    def state_from_notation(self, text: str, field: str = "state") -> State:
        raise UnsupportedActionError("action", "state", "the Aetherya rules engine is not built yet")

    def score(self, payload: Any) -> dict[str, Any]:
        return parse_score_request(payload).to_json()

    def solve(self, payload: Any, ctx: SearchContext) -> SolveResult:
        from solver.aetherya.optimize import solve
        return solve(payload, ctx)

    # -- command line ---------------------------------------------------------------
    def add_cli(self, commands: argparse._SubParsersAction) -> None:
        score = commands.add_parser("score", help="score a kingdom",
                                    description="Score a kingdom given as 4 rows of 4 letters joined by '/' "
                                                "(P F M S H E D G R O ?), e.g. FEFP/MDMH/PHFS/SSGS.")
        score.add_argument("kingdom", metavar="KINGDOM")
        score.add_argument("--legends", default="", metavar="ID,...",
                           help="Legends held: numbers 1-15 or slugs such as plains-3 (docs/rules/aetherya.md)")
        score.add_argument("--json", action="store_true", help="print one JSON object")
        score.set_defaults(run=_run_score)
        from solver.aetherya.optimize import add_optimize_command
        add_optimize_command(commands)

    def demo(self, out: TextIO) -> None:
        kingdom = "FEFP/MDMH/PHFS/SSGS"
        out.write(f"Score of the kingdom {kingdom} holding the Legend 'plains-3':\n")
        render_score(score_kingdom(kingdom, ["plains-3"]), out)


def _run_score(args: argparse.Namespace) -> int:
    legends = [part for part in args.legends.split(",") if part.strip()] if args.legends else []
    if args.legends and not legends:
        raise InvalidInputError("--legends", args.legends, "expected comma-separated Legend ids")
    result = score_kingdom(args.kingdom, legends, field="KINGDOM")
    if args.json:
        print_json(result.to_json())
    else:
        render_score(result, sys.stdout)
    return 0
