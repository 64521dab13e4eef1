"""``memory-solver embers campaign ...`` (the shared verbs come from ``solver.commands``) and the demo."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

from solver.commands import render_hint
from solver.search import Limits, SearchContext

if TYPE_CHECKING:
    from solver.embers.game import EmbersGame


def _game(default: EmbersGame, args: argparse.Namespace) -> EmbersGame:
    from solver.embers.game import EmbersGame
    deck = getattr(args, "deck", None)
    return EmbersGame(deck=deck) if deck else default


def add_commands(game: EmbersGame, commands: argparse._SubParsersAction) -> None:
    """Register the Embers-only sub-command ``campaign`` (the shared verbs are added by ``solver.commands``)."""
    deck_help = "deck file (docs/formats/embers.md); default: the shipped, invented deck"
    p = commands.add_parser("campaign", help="captivity-deck bookkeeping in a campaign file")
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    for name, text in (("new", "start a campaign at the prologue"), ("show", "print the campaign"),
                       ("reset", "reset the captivity deck to start again from chapter one")):
        q = sub.add_parser(name, help=text)
        q.add_argument("file", metavar="CAMPAIGN")
        q.add_argument("--deck", default=None, help=deck_help)
        q.set_defaults(run=lambda a, n=name: _run_campaign(game, a, n))
    q = sub.add_parser("record", help="record a game's result and advance the story")
    q.add_argument("file", metavar="CAMPAIGN")
    q.add_argument("--result", required=True, choices=("won", "lost"))
    q.add_argument("--deck", default=None, help=deck_help)
    q.set_defaults(run=lambda a: _run_campaign(game, a, "record"))
    for name, text in (("archive", "archive a card of the memory deck"), ("add", "add a card to the memory deck"),
                       ("remove", "remove a card from the memory deck")):
        q = sub.add_parser(name, help=text)
        q.add_argument("file", metavar="CAMPAIGN")
        q.add_argument("card", metavar="CARD")
        q.add_argument("--deck", default=None, help=deck_help)
        q.set_defaults(run=lambda a, n=name: _run_campaign(game, a, n))


# ------------------------------------------------------------------------------ runners
def _run_campaign(default: EmbersGame, args: argparse.Namespace, action: str) -> int:
    from solver.embers.campaign import Campaign, load_campaign, save_campaign
    game = _game(default, args)
    if action == "new":
        campaign = Campaign()
        save_campaign(campaign, args.file)
        message = "new campaign: play the prologue, part one"
    else:
        campaign = load_campaign(args.file)
        if action == "show":
            message = ""
        elif action == "record":
            message = campaign.record(args.result, game.deck)
        elif action == "reset":
            campaign.reset(game.deck)
            message = "captivity deck reset: chapter one"
        elif action == "archive":
            campaign.archive_card(args.card, game.deck)
            message = f"{args.card} archived"
        elif action == "add":
            campaign.add_card(args.card, game.deck)
            message = f"{args.card} added to the memory deck"
        else:
            campaign.remove_card(args.card, game.deck)
            message = f"{args.card} removed from the memory deck"
        if action != "show":
            save_campaign(campaign, args.file)
    data = campaign.to_json()
    data["memoryDeck"] = campaign.memory_deck(game.deck)
    if message:
        sys.stdout.write(message + "\n")
    sys.stdout.write(json.dumps(data) + "\n")
    return 0


# ------------------------------------------------------------------------------ demo
def demo(game: EmbersGame, out: TextIO) -> None:
    """Built-in examples: a position, a hint for each player, a proven Blink plan."""
    from solver.embers.game import EmbersGame
    one = game if game.params["chapter"] == "one" else EmbersGame(deck=game.params["deck"])
    notation = ("embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b demons=Cd:C2b "
                "discard=- box=- resolve=D1a,G2b,S3,F5 completed=0 added=1 pending=- result=-")
    state = one.state_from_notation(notation)
    out.write("A Chapter One position (the default deck is invented: docs/formats/embers.md):\n")
    out.write(f"  {notation}\n")
    _Indent(out).write(one.describe(state.view(0)))
    out.write("\nFenrys's hint (he cannot see Aelin's face-down Resolve):\n")
    ctx = SearchContext(limits=Limits(nodes=1_500_000), seed=0)
    render_hint(one.hint(state, ctx, top=3), _Indent(out))
    out.write("\nThe optimal Blink plan, proven by CP-SAT:\n")
    result = one.solve({"state": notation}, SearchContext(limits=Limits(time_ms=20_000), seed=0)).to_json()
    out.write(f"  {result['status']}: {'; '.join(result['plan'])} (value {result['value']}, bound {result['bound']})\n")
    aelin = one.state_from_notation(
        "embers/one day=1 turn=aelin phase=acknowledge mind=C4@0,0;S1a@1,1;C3@-1,0 row=- demons=- discard=- box=- "
        "resolve=D1a.F2a,G2b,S3,F5 completed=0 added=1 pending=- result=-")
    out.write("\nAelin's hint (row 1: D1a + F2a = 3, she needs 4):\n")
    render_hint(one.hint(aelin, SearchContext(limits=Limits(nodes=1000), seed=0), top=3), _Indent(out))
    from solver.embers.session import reviewed_game
    from solver.review import render_review
    entries, result = reviewed_game()
    out.write(f"\nA short reviewed game: the Prologue at a real table, from Rowan's view ({len(entries)} entries: "
              "'chance ?' for the face-down Resolve cards, 'flip ID' when a relive turns one):\n")
    line = ""
    for entry in entries:
        if len(line) + len(entry) > 100:
            out.write(f"  {line.rstrip(', ')}\n")
            line = ""
        line += entry + ", "
    out.write(f"  {line.rstrip(', ')}\n")
    _Indent(out).write(render_review(result))


class _Indent:
    """A text stream that indents every line by two spaces."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.fresh = True

    def write(self, text: str) -> int:
        for piece in text.splitlines(keepends=True):
            if self.fresh:
                self.out.write("  ")
            self.out.write(piece)
            self.fresh = piece.endswith("\n")
        return len(text)
