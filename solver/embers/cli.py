"""``memory-solver embers ...``: hint, legal-moves, solve, score, show, new, play, generate, campaign; and the demo."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

from solver.cli import add_limit_args, context_from_args, print_json, read_input_arg, render_hint
from solver.embers import mind as mindlib
from solver.embers.cards import pattern_text
from solver.embers.state import EmbersState
from solver.errors import InvalidInputError, UnsupportedActionError
from solver.search import Limits, SearchContext

if TYPE_CHECKING:
    from solver.embers.game import EmbersGame


def _game(default: EmbersGame, args: argparse.Namespace) -> EmbersGame:
    from solver.embers.game import EmbersGame
    deck = getattr(args, "deck", None)
    return EmbersGame(deck=deck) if deck else default


def _state(game: EmbersGame, text: str) -> EmbersState:
    state = game.parse_state(read_input_arg(text), "STATE")
    assert isinstance(state, EmbersState)
    return state


def add_commands(game: EmbersGame, commands: argparse._SubParsersAction) -> None:
    """Register the ``embers`` sub-commands."""
    deck_help = "deck file (docs/formats/embers.md); default: the shipped, invented deck"
    state_help = "a JSON file, '-' for stdin, inline JSON or the notation (docs/formats/embers.md)"

    p = commands.add_parser("hint", help="rank the moves of the player to act (from that player's information)",
                            description="Rank the moves of the player to act, using only what that player may see "
                                        "(Fenrys does not see Aelin's face-down Resolve) unless "
                                        "--full-information is given. STATE: " + state_help)
    p.add_argument("state", metavar="STATE")
    p.add_argument("--top", type=int, default=3, help="number of moves to show (default 3)")
    p.add_argument("--player", type=int, default=None, help="0 Fenrys (Rowan), 1 Aelin; default: the player to act")
    p.add_argument("--full-information", action="store_true", help="analyse with every hidden card known")
    p.add_argument("--json", action="store_true", help="print the engine's JSON response")
    p.add_argument("--deck", default=None, help=deck_help)
    add_limit_args(p)
    p.set_defaults(run=lambda a: _run_hint(game, a))

    p = commands.add_parser("legal-moves", help="list the legal moves of the player to act")
    p.add_argument("state", metavar="STATE")
    p.add_argument("--json", action="store_true")
    p.add_argument("--deck", default=None, help=deck_help)
    p.set_defaults(run=lambda a: _run_legal(game, a))

    p = commands.add_parser("solve", help="the optimal plan for Fenrys's Blink, proven (CP-SAT) or exhaustive",
                            description="Plan Fenrys's Blink optimally (objective: docs/rules/embers-of-memory.md "
                                        "EM-71). STATE: a Chapter One position where Fenrys observes or blinks.")
    p.add_argument("state", metavar="STATE")
    p.add_argument("--method", choices=("cpsat", "exhaustive"), default="cpsat")
    p.add_argument("--full-information", action="store_true", help="use Aelin's real Resolve cards")
    p.add_argument("--json", action="store_true")
    p.add_argument("--deck", default=None, help=deck_help)
    add_limit_args(p)
    p.set_defaults(run=lambda a: _run_solve(game, a))

    p = commands.add_parser("score", help="where a position stands (rows, Mind, demons, deck, result)",
                            description="Prints the JSON answer (docs/formats/embers.md), with or without --json.")
    p.add_argument("state", metavar="STATE")
    p.add_argument("--json", action="store_true", help="JSON output (the default for this command; accepted like "
                                                        "every other game's score)")
    p.add_argument("--deck", default=None, help=deck_help)
    p.set_defaults(run=lambda a: _run_score(game, a))

    p = commands.add_parser("show", help="print a position readably, with a picture of the Mind")
    p.add_argument("state", metavar="STATE")
    p.add_argument("--player", type=int, default=None, help="show only what this player sees")
    p.add_argument("--deck", default=None, help=deck_help)
    p.set_defaults(run=lambda a: _run_show(game, a))

    p = commands.add_parser("new", help="deal a new game and print its state")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--chapter", choices=("one", "prologue"), default=None,
                   help="default: the campaign's chapter, else one")
    p.add_argument("--campaign", default=None, help="campaign file: leaves out cards no longer in the memory deck")
    p.add_argument("--notation", action="store_true", help="print the notation instead of JSON")
    p.add_argument("--deck", default=None, help=deck_help)
    p.set_defaults(run=lambda a: _run_new(game, a))

    p = commands.add_parser("play", help="apply moves to a position and print the result",
                            description="Apply MOVE... in order ('chance C4' deals C4 at a chance node) and print "
                                        "the resulting state as JSON (or --notation).")
    p.add_argument("state", metavar="STATE")
    p.add_argument("moves", metavar="MOVE", nargs="+")
    p.add_argument("--notation", action="store_true")
    p.add_argument("--deck", default=None, help=deck_help)
    p.set_defaults(run=lambda a: _run_play(game, a))

    p = commands.add_parser("generate", help="Blink puzzles with a verified unique optimal plan",
                            description="Generate Blink puzzles ('relive k memories with this row') whose optimal "
                                        "plan is unique, verified by exhaustive search and CP-SAT.")
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--difficulty", choices=("easy", "medium", "hard"), default="medium")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    p.add_argument("--deck", default=None, help=deck_help)
    p.set_defaults(run=lambda a: _run_generate(game, a))

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
def _run_hint(default: EmbersGame, args: argparse.Namespace) -> int:
    game = _game(default, args)
    state = _state(game, args.state)
    if args.top < 1:
        raise InvalidInputError("--top", args.top, "must be at least 1")
    if args.player is not None and args.player not in (0, 1):
        raise InvalidInputError("--player", args.player, "expected 0 (Fenrys/Rowan) or 1 (Aelin)")
    result = game.hint(state, context_from_args(game, args), top=args.top, player=args.player,
                       full_information=args.full_information)
    if args.json:
        print_json(result.to_json())
    else:
        render_hint(result, sys.stdout)
    return 0


def _run_legal(default: EmbersGame, args: argparse.Namespace) -> int:
    game = _game(default, args)
    moves = game.legal_moves(game.parse_state(read_input_arg(args.state), "STATE"))
    if args.json:
        print_json({"moves": moves})
    else:
        sys.stdout.write("\n".join(moves) + ("\n" if moves else ""))
    return 0


def _run_solve(default: EmbersGame, args: argparse.Namespace) -> int:
    game = _game(default, args)
    payload: Any = {"state": read_input_arg(args.state), "method": args.method,
                    "fullInformation": args.full_information}
    ctx = context_from_args(game, args)
    if args.time_ms is None:
        ctx.limits = Limits(time_ms=60_000, nodes=args.nodes)
    result = game.solve(payload, ctx)
    if args.json:
        print_json(result.to_json())
        return 0
    out = sys.stdout
    data = result.to_json()
    out.write(f"status {data['status']}{' (proven optimal)' if data['optimal'] else ''}, value {data['value']}, "
              f"bound {data['bound']}, {data['seconds']:.3f} s\n")
    if data["plan"]:
        out.write("plan: " + "; ".join(data["plan"]) + "\n")
        objective = data["objective"]
        out.write(f"relives {objective['relives'] or 'none'}, banished {objective['banished'] or 'none'}, "
                  f"demons left {objective['demonsLeft'] or 'none'}, tainted {objective['tainted'] or 'none'}, "
                  f"visible {', '.join(objective['visible'])}\n")
    if "note" in data:
        out.write(data["note"] + "\n")
    return 0


def _run_score(default: EmbersGame, args: argparse.Namespace) -> int:
    game = _game(default, args)
    print_json(game.score(game.parse_state(read_input_arg(args.state), "STATE")))
    return 0


def _run_show(default: EmbersGame, args: argparse.Namespace) -> int:
    game = _game(default, args)
    state = _state(game, args.state)
    if args.player is not None and args.player not in (0, 1):
        raise InvalidInputError("--player", args.player, "expected 0 or 1")
    render_state(state, sys.stdout, args.player)
    return 0


def _run_new(default: EmbersGame, args: argparse.Namespace) -> int:
    from solver.embers.campaign import PLAYABLE, load_campaign
    from solver.embers.game import EmbersGame
    base = _game(default, args)
    chapter = args.chapter
    box: list[str] = []
    if args.campaign:
        campaign = load_campaign(args.campaign)
        if chapter is None:
            chapter = campaign.chapter
        if chapter not in PLAYABLE:
            raise UnsupportedActionError("--campaign", chapter, f"chapter {chapter}'s rules are on captivity cards "
                                                                "we do not have")
        box = campaign.out_of_play(base.deck)
    game = EmbersGame(chapter=chapter or "one", deck=base.params["deck"])
    if args.seed < 0:
        raise InvalidInputError("--seed", args.seed, "must be at least 0")
    state = EmbersState(game)
    state.box = [game.deck.card(c, "campaign").index for c in box]
    state.deal_initial(args.seed)
    if args.notation:
        sys.stdout.write(state.to_notation() + "\n")
    else:
        print_json(state.to_json())
    return 0


def _run_play(default: EmbersGame, args: argparse.Namespace) -> int:
    game = _game(default, args)
    state = _state(game, args.state)
    from solver.embers.game import require_known_resolve
    for i, move in enumerate(args.moves):
        require_known_resolve(state, f"play MOVE[{i}] {move!r}")
        if move.startswith("chance "):
            if not state.is_chance_node():
                raise InvalidInputError(f"MOVE[{i}]", move, "not a chance node")
            card = state.deck.card(move.split(maxsplit=1)[1].strip(), f"MOVE[{i}]")
            state.apply_action(card.index)
        else:
            state.apply_move(move, f"MOVE[{i}]")
    if args.notation:
        sys.stdout.write(state.to_notation() + "\n")
    else:
        print_json(state.to_json())
    return 0


def _run_generate(default: EmbersGame, args: argparse.Namespace) -> int:
    from solver.embers.puzzles import generate, render_puzzle
    game = _game(default, args)
    if args.count < 1 or args.count > 1000:
        raise InvalidInputError("--count", args.count, "must be between 1 and 1000")
    if args.seed < 0:
        raise InvalidInputError("--seed", args.seed, "must be at least 0")
    for puzzle in generate(game, args.count, args.seed, args.difficulty):
        if args.json:
            print_json(puzzle.to_json())
        else:
            render_puzzle(puzzle, sys.stdout)
    return 0


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


# ------------------------------------------------------------------------------ text
def render_state(state: EmbersState, out: TextIO, player: int | None = None) -> None:
    """A readable account of a position (what ``player`` sees, if given)."""
    deck = state.deck

    def name(c: int) -> str:
        return deck.cards[c].id

    chapter = "Chapter One" if state.chapter == "one" else f"Prologue part {state.part}"
    mover = "game over: " + str(state.result) if state.is_terminal() else \
        ("chance" if state.is_chance_node() else state.role(state.current_player()))
    out.write(f"{chapter}, day {state.day}, {state.role(state.turn)}'s turn, phase {state.phase}; to move: {mover}\n")
    out.write(f"Mind ({len(state.mind)} cards, bottom to top): "
              + (", ".join(f"{name(c)}@{x},{y}" for c, x, y in state.mind) or "empty") + "\n")
    for line in mindlib.render(deck, state.mind):
        out.write("    " + line + "\n")
    visible = mindlib.visible_cards(state.mind)
    out.write("  visible: " + (", ".join(f"{name(c)} ({deck.cards[c].suit_name} {deck.cards[c].strength} "
                                          f"{pattern_text(deck.cards[c].blocked)})" for c in visible) or "-") + "\n")
    out.write("Memory row: " + (", ".join(name(c) for c in state.row) or "-") + "\n")
    out.write("Demon row: " + (", ".join(f"{name(d)} [{', '.join(name(c) for c in t)}]" for d, t in state.demons)
                               or "-") + "\n")
    hidden = (player is not None and not state.sees_resolve(player)) or state.guessed
    for i, row in enumerate(state.rows):
        card = "?" if (hidden and not row.face_up) else name(row.resolve)
        total = "?" if (hidden and not row.face_up) else str(state.row_total(row))
        mark = "complete" if i < state.completed else ("current" if i == state.completed else "")
        out.write(f"Row {i + 1}: Resolve {card}{' (face up)' if row.face_up else ''}; cards "
                  f"{', '.join(name(c) for c in row.cards) or '-'}; total {total} {mark}\n")
    out.write(f"Deck {len(state.pile)} cards; discard {len(state.discard)}; corrupted {len(state.box)}\n")
    if state.pending:
        out.write(f"Pending: {state.pending}\n")


def demo(game: EmbersGame, out: TextIO) -> None:
    """Built-in examples: a position, a hint for each player, a proven Blink plan."""
    from solver.embers.game import EmbersGame
    one = game if game.params["chapter"] == "one" else EmbersGame(deck=game.params["deck"])
    notation = ("embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b demons=Cd:C2b "
                "discard=- box=- resolve=D1a,G2b,S3,F5 completed=0 added=1 pending=- result=-")
    state = one.state_from_notation(notation)
    out.write("A Chapter One position (the default deck is invented: docs/formats/embers.md):\n")
    out.write(f"  {notation}\n")
    render_state(state, _Indent(out), player=0)
    out.write("\nFenrys's hint (he cannot see Aelin's face-down Resolve):\n")
    ctx = SearchContext(limits=Limits(time_ms=2000), seed=0)
    render_hint(one.hint(state, ctx, top=3), _Indent(out))
    out.write("\nThe optimal Blink plan, proven by CP-SAT:\n")
    result = one.solve({"state": notation}, SearchContext(limits=Limits(time_ms=20_000), seed=0)).to_json()
    out.write(f"  {result['status']}: {'; '.join(result['plan'])} (value {result['value']}, bound {result['bound']})\n")
    aelin = one.state_from_notation(
        "embers/one day=1 turn=aelin phase=acknowledge mind=C4@0,0;S1a@1,1;C3@-1,0 row=- demons=- discard=- box=- "
        "resolve=D1a.F2a,G2b,S3,F5 completed=0 added=1 pending=- result=-")
    out.write("\nAelin's hint (row 1: D1a + F2a = 3, she needs 4):\n")
    render_hint(one.hint(aelin, SearchContext(limits=Limits(time_ms=1000), seed=0), top=3), _Indent(out))


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
