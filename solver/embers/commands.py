"""Embers of Memory's extras on the front doors, declared as data (``solver.options``): the options it adds to
the shared verbs, the ``campaign`` command on a campaign file, and what ``memory-solver demo`` runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solver.embers.campaign import Campaign, load_campaign, save_campaign
from solver.embers.solve import METHODS
from solver.game import Game
from solver.options import Argument, Command, Example, Option

OPTIONS = {
    "solve": (Option("method", "--method", str, "cpsat", "cpsat (a CP-SAT proof) or exhaustive (the compiled "
                                                          "branch-and-bound search)", choices=METHODS),
              Option("fullInformation", "--full-information", bool, False,
                     "plan with Aelin's real Resolve cards (a full state is needed)")),
    "selfplay": (Option("planNodes", "--plan-nodes", int, 1_000_000, "node budget of the compiled plan search "
                                                                     "per Blink for the hint policies", lo=1,
                        hi=10**9),),
    "new": (Option("campaign", "--campaign", str, None, "campaign file: deal a game of its chapter, with the "
                                                        "cards no longer in the memory deck left in the box",
                   engine=False),),
}
ALIASES = {"apply": ("play",)}


# ---------------------------------------------------------------------------------------------- campaign
DECK_HELP = "deck file (docs/formats/embers.md); default: the shipped, invented deck"
_FILE = Argument(("file",), kind=Path, metavar="CAMPAIGN")
_DECK = Argument(("--deck",), DECK_HELP)
_CARD = Argument(("card",), metavar="CARD")


def _campaign_run(action: str) -> Any:
    """The ``run`` of ``campaign ACTION``: read (or start) the file, apply the action, write it back."""

    def run(game: Game, values: dict[str, Any]) -> dict[str, Any]:
        if values.get("deck"):
            game = type(game)(deck=values["deck"])
        deck = game.deck  # type: ignore[attr-defined]
        path: Path = values["file"]
        if action == "new":
            campaign = Campaign()
            save_campaign(campaign, path)
            return _answer(campaign, deck, "new campaign: play the prologue, part one")
        campaign = load_campaign(path)
        if action == "show":
            return _answer(campaign, deck, "")
        if action == "record":
            message = campaign.record(values["result"], deck)
        elif action == "reset":
            campaign.reset(deck)
            message = "captivity deck reset: chapter one"
        elif action == "archive":
            campaign.archive_card(values["card"], deck)
            message = f"{values['card']} archived"
        elif action == "add":
            campaign.add_card(values["card"], deck)
            message = f"{values['card']} added to the memory deck"
        else:
            campaign.remove_card(values["card"], deck)
            message = f"{values['card']} removed from the memory deck"
        save_campaign(campaign, path)
        return _answer(campaign, deck, message)

    return run


def _answer(campaign: Campaign, deck: Any, message: str) -> dict[str, Any]:
    data = campaign.to_json()
    data["memoryDeck"] = campaign.memory_deck(deck)
    return {"message": message, "campaign": data}


def _render_campaign(result: dict[str, Any]) -> str:
    """What happened (a line, unless nothing did), then the campaign file's JSON with the memory deck."""
    message = result["message"]
    return (message + "\n" if message else "") + json.dumps(result["campaign"]) + "\n"


def _campaign_command(action: str, help_text: str, *extra: Argument) -> Command:
    return Command(action, help_text, (_FILE, *extra, _DECK), run=_campaign_run(action), render=_render_campaign,
                   json_flag=False)


COMMANDS = (
    Command("campaign", "captivity-deck bookkeeping in a campaign file", subcommands=(
        _campaign_command("new", "start a campaign at the prologue"),
        _campaign_command("show", "print the campaign"),
        _campaign_command("reset", "reset the captivity deck to start again from chapter one"),
        _campaign_command("record", "record a game's result and advance the story",
                          Argument(("--result",), required=True, choices=("won", "lost"))),
        _campaign_command("archive", "archive a card of the memory deck", _CARD),
        _campaign_command("add", "add a card to the memory deck", _CARD),
        _campaign_command("remove", "remove a card from the memory deck", _CARD),
    )),
)


# ---------------------------------------------------------------------------------------------- demo
BLINK = ("embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b demons=Cd:C2b discard=- box=- "
         "resolve=D1a,G2b,S3,F5 completed=0 added=1 pending=- result=-")
AELIN_TAKES = ("embers/one day=1 turn=aelin phase=acknowledge mind=C4@0,0;S1a@1,1;C3@-1,0 row=- demons=- discard=- "
               "box=- resolve=D1a.F2a,G2b,S3,F5 completed=0 added=1 pending=- result=-")
#: a short Prologue at a real table from Rowan's view: both players follow their hints, Rowan plays his hint's
#: second move once (made by ``reviewed_game`` in ``docs/sessions/embers_session.py``; tests/embers checks it)
REVIEWED_ENTRIES = (
    "chance F2a", "chance ?", "chance ?", "chance ?", "chance C1b", "chance C4", "chance S1a", "chance S3",
    "add C1b@-1,1", "add C4@-2,0", "chance D1b", "chance D3", "add D1b@-3,-1", "add D3@-3,-2", "chance S1b",
    "chance G2b", "add G2b@-2,-2", "add S1a@0,1", "chance G5", "chance F1b", "add G5@-1,-2", "flip F3",
    "add F1b@1,0", "chance C2b", "chance D4", "add C2b@0,-3", "add D4@0,-4", "chance D5", "chance S2b",
    "add D5@1,-5", "add S1b@1,-4", "chance F2b", "chance C2a", "add C2a@0,0", "flip G4", "add F2b@2,-6",
    "chance S5", "chance G1b", "add G1b@-1,-3", "add S2b@2,-7", "chance D1a", "chance G1a", "add S5@1,-8",
    "flip S4", "arrange G4,S4,F3", "take D3", "take C2a", "take F1b", "take D4",
)
REVIEWED_START = {"view": 0, "role": "rowan", "game": "embers", "chapter": "prologue", "part": 1, "day": 1,
                  "turn": "rowan", "phase": "deal", "mind": [], "row": [], "demons": [], "discard": [], "box": [],
                  "resolve": [], "completed": 0, "added": False, "pending": None, "result": None, "deckCount": 35}
REVIEWED_RECORD = json.dumps({"format": "memory-solver-record", "version": 1, "game": "embers(chapter=prologue)",
                              "start": REVIEWED_START, "observer": 0, "moves": list(REVIEWED_ENTRIES)})

DEMO = (
    Example("A Chapter One position as Fenrys sees it (the default deck is invented: docs/formats/embers.md)",
            ("show", BLINK, "--player", "0")),
    Example("Where it stands (the full state, Aelin's Resolve cards shown)", ("score", BLINK)),
    Example("Fenrys's hint (he cannot see Aelin's face-down Resolve)", ("hint", BLINK, "--nodes", "1500000")),
    Example("The optimal Blink plan, proven by CP-SAT", ("solve", BLINK, "--time-ms", "20000")),
    Example("Aelin's hint (row 1: D1a + F2a = 3, she needs 4)", ("hint", AELIN_TAKES, "--nodes", "1000")),
    Example("A short reviewed game: the Prologue at a real table, from Rowan's view",
            ("review", REVIEWED_RECORD, "--nodes", "2000"),
            note=f"{len(REVIEWED_ENTRIES)} entries: 'chance ?' for the face-down Resolve cards, 'flip ID' when a "
                 "relive turns one"),
    Example("A Blink puzzle with a unique optimal plan",
            ("generate", "--difficulty", "easy", "--count", "1", "--seed", "3")),
)
