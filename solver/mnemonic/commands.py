"""Mnemonic's extras on the command line and in the engine, declared as data (:mod:`solver.options`).

``hint --horizon R,G`` and ``selfplay --max-rounds N`` (the shared verbs' extra options), the game's own
command ``odds`` (exact odds of an Individual or a Group Scene), and what ``memory-solver demo`` runs: odds,
a dealt view, its hint, and the review of the documented session (``docs/sessions/mnemonic.md``).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from solver.errors import InvalidInputError
from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.odds import GroupOdds, IndividualOdds, group_odds, individual_odds, parse_pools
from solver.mnemonic.rules_file import load_rules, parse_horizon
from solver.mnemonic.text import group_text, individual_text
from solver.options import Argument, Command, Example, Option

OPTIONS = {
    "hint": (Option("horizon", "--horizon", str, None, "rounds and Group Scenes the plan may use, R,G (default: rules "
                    "planner.rounds, planner.groupScenes)", parse=parse_horizon),
             Option("fractions", "--fractions", bool, False, "give exact chances as fractions in lowest terms too "
                    "(the reasons show percentages only by default)")),
    "selfplay": (Option("maxRounds", "--max-rounds", int, 3, "rounds of Individual Scenes a session may last (it "
                        "stops at its first Victory)", lo=1, hi=6),),
}


class OddsAnswer(dict):  # type: ignore[type-arg]
    """The odds as JSON (what ``--json`` prints), keeping the odds themselves for the text form."""

    def __init__(self, odds: IndividualOdds | GroupOdds) -> None:
        super().__init__(odds.to_json())
        self.odds = odds


def odds(game: MnemonicGame, values: dict[str, Any]) -> OddsAnswer:
    """``odds``: exact odds of an Individual Scene (``--individual N``) or a Group Scene (``--players``)."""
    rules = load_rules(values["rules"]) if values["rules"] else game.rules
    if values["individual"] is not None:
        if values["adversary"] is not None:
            raise InvalidInputError("--adversary", values["adversary"], "applies to a Group Scene (--players), "
                                                                        "not to --individual")
        return OddsAnswer(individual_odds(values["individual"], "--individual"))
    pools = parse_pools(values["players"], "--players")
    return OddsAnswer(group_odds(pools, 0 if values["adversary"] is None else values["adversary"],
                                 rules["group.nobodyRolls"], "--players", "--adversary"))


def render_odds(result: OddsAnswer) -> str:
    """The odds as a person reads them: fractions in lowest terms and percentages."""
    found = result.odds
    return individual_text(found) if isinstance(found, IndividualOdds) else group_text(found)


COMMANDS = (
    Command("odds", "exact odds of an Individual or a Group Scene",
            (Argument(("--individual",), "dice in an Individual Scene pool", kind=int, metavar="N"),
             Argument(("--players",), "comma-separated player pools, e.g. 3,2,0", metavar="POOLS"),
             Argument(("--adversary",), "Adversary dice (complications)", kind=int, metavar="M"),
             Argument(("--rules",), "rules file (default: the shipped rules)", metavar="FILE")),
            run=odds, render=render_odds,
            description="Exact odds as fractions in lowest terms. Individual Scene: --individual N (pool of N dice, "
                        "extra dice from weaving or help included). Group Scene: --players 3,2,0 (each player's "
                        "pool; 0 = no skill available) and --adversary M (one die per complication).",
            exclusive=(("!", "individual", "players"),)),
)

#: the documented session (docs/sessions/mnemonic.md), as player 0 entered it
DEMO_SESSION = ("play 2S", 'use "Sneak"', "roll 4", "no weave", "play 7D", 'use "Bargain"', "roll 6", "no weave",
                "group", 'group use "Fight With Hands" with 2H', 'group use "Bargain" with 3D', "result victory",
                "end")
DEMO_GAME = MnemonicGame(players=2, mode="into-the-grey")
DEMO_NEW = ("new", "--mode", "into-the-grey", "--players", "2", "--seed", "4", "--player", "0")


def demo_record() -> str:
    """The documented session as a game record (docs/records.md), from player 0's view of ``new --seed 4``."""
    start = DEMO_GAME.new_game(4).view(0).to_json()
    return json.dumps({"format": "memory-solver-record", "version": 1, "game": DEMO_GAME.spec(), "start": start,
                       "moves": [{"move": move} for move in DEMO_SESSION]})


def __getattr__(name: str) -> Any:
    """``DEMO``, built when first read (its review example deals a game: no other command pays for it)."""
    if name == "DEMO":
        return _demo()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def _demo() -> tuple[Example, ...]:
    return (
        Example("Exact odds of an Individual Scene", ("odds", "--individual", "3")),
        Example("Exact odds of a Group Scene", ("odds", "--players", "3,2,0", "--adversary", "4")),
        Example("Deal a two-player Into the Grey session: player 0's view", DEMO_NEW),
        Example("Player 0 leads the first scene: which card?", ("hint", "{previous}", "--nodes", "30000")),
        Example("Review player 0's decisions in the documented session (docs/sessions/mnemonic.md)",
                ("review", demo_record(), "--nodes", "30000"),
                note="moves: " + "; ".join(DEMO_SESSION)),
    )
