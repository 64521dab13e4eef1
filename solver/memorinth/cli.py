"""``memory-solver memorinth ...``: hint, solve, score, legal-moves, show, new, play, generate, deck; and the demo.

Every command that reads a position takes STATE as a JSON file, ``-`` (stdin),
inline JSON or the notation; ``--deck FILE`` names the deck a notation was
written with (JSON states carry their deck).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from typing import Any, TextIO

from solver.cli import add_limit_args, context_from_args, print_json, read_input_arg, render_hint
from solver.errors import InvalidInputError
from solver.memorinth import rules as R
from solver.memorinth.deck import ACTION_NAMES, DIRECTIONS, load_deck
from solver.memorinth.render import render
from solver.search import Limits, SearchContext


def _game(game: Any, args: argparse.Namespace) -> Any:
    """The game with the command line's rule options applied."""
    changes: dict[str, Any] = {}
    for key in ("players", "variant", "action_side", "seats"):
        value = getattr(args, key, None)
        if value is not None:
            changes[key] = value
    deck = getattr(args, "deck", None)
    if not changes and not deck:
        return game
    flags = {"players": "--players", "variant": "--variant", "actionSide": "--action-side", "seats": "--seats",
             "deck": "--deck"}
    try:
        return game.derive(changes, deck, "game")
    except InvalidInputError as exc:
        key = (exc.field or "").removeprefix("game.")
        raise type(exc)(flags.get(key, exc.field), exc.value, exc.problem) from None


def _state(game: Any, args: argparse.Namespace, name: str = "state") -> Any:
    text = getattr(args, name)
    payload = read_input_arg(text, "STATE")
    if isinstance(payload, str) and "|" not in payload and text != "-" and not os.path.exists(text):
        raise InvalidInputError("STATE", text, "no such file, and not inline JSON or a notation (a notation has "
                                               "five sections separated by '|')")
    return _game(game, args).parse_state(payload, "STATE")


def _deck_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deck", metavar="FILE", default=None,
                        help="deck file the position uses (default: the invented default deck)")


def _rule_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=None, help="2-4 (1 = solitaire)")
    parser.add_argument("--variant", choices=R.VARIANTS, default=None)
    parser.add_argument("--action-side", dest="action_side", choices=R.ACTION_SIDE_MODES, default=None,
                        help="Master Memorinth: action card side in use (MR-13)")
    parser.add_argument("--seats", default=None, help="table side of each player in turn order, e.g. SN")
    _deck_arg(parser)


def add_commands(game: Any, commands: argparse._SubParsersAction) -> None:
    """Register the sub-commands."""
    hint = commands.add_parser("hint", help="rank the moves of the player to act",
                               description="Rank the moves of the player to act by their chance to win the race, "
                                           "using only what that player has seen unless --full-information is "
                                           "given. STATE is a JSON file, '-' for stdin, inline JSON or the notation.")
    hint.add_argument("state", metavar="STATE")
    hint.add_argument("--top", type=int, default=3, help="number of moves to show (default 3)")
    hint.add_argument("--player", type=int, default=None, help="advise this player (must be the player to act)")
    hint.add_argument("--full-information", action="store_true", help="analyse with every hidden card known")
    hint.add_argument("--json", action="store_true", help="print the engine's JSON response")
    hint.add_argument("--board", action="store_true", help="draw the position as the player sees it first")
    add_limit_args(hint)
    _deck_arg(hint)
    hint.set_defaults(run=lambda a: _run_hint(game, a))

    moves = commands.add_parser("legal-moves", help="list the legal moves of the player to act")
    moves.add_argument("state", metavar="STATE")
    moves.add_argument("--json", action="store_true")
    _deck_arg(moves)
    moves.set_defaults(run=lambda a: _run_moves(game, a))

    solve = commands.add_parser("solve", help="proven shortest escape knowing every card (solitaire model, MR-26)")
    solve.add_argument("state", metavar="STATE")
    solve.add_argument("--player", type=int, default=None, help="whose escape (default: the player to act)")
    solve.add_argument("--max-depth", type=int, default=30, help="give up beyond this many own turns (default 30)")
    solve.add_argument("--json", action="store_true")
    add_limit_args(solve)
    _deck_arg(solve)
    solve.set_defaults(run=lambda a: _run_solve(game, a))

    score = commands.add_parser("score", help="the race: each piece's way out along the paths and shortest escape")
    score.add_argument("state", metavar="STATE")
    score.add_argument("--json", action="store_true")
    _deck_arg(score)
    score.set_defaults(run=lambda a: _run_score(game, a))

    show = commands.add_parser("show", help="draw a position (or one player's view of it)")
    show.add_argument("state", metavar="STATE")
    show.add_argument("--player", type=int, default=None, help="draw what this player knows")
    show.add_argument("--json", action="store_true", help="print the observation (with --player) or the state")
    show.add_argument("--notation", action="store_true", help="print the notation")
    _deck_arg(show)
    show.set_defaults(run=lambda a: _run_show(game, a))

    new = commands.add_parser("new", help="deal a new game")
    new.add_argument("--seed", type=int, default=0)
    new.add_argument("--json", action="store_true", help="print JSON instead of the notation")
    new.add_argument("--board", action="store_true", help="draw the board too")
    _rule_args(new)
    new.set_defaults(run=lambda a: _run_new(game, a))

    play = commands.add_parser("play", help="play moves on a position and print the result")
    play.add_argument("state", metavar="STATE")
    play.add_argument("moves", metavar="MOVE", nargs="+", help="move strings, e.g. 'flip b2' 'choose R'")
    play.add_argument("--json", action="store_true", help="print JSON instead of the notation")
    play.add_argument("--board", action="store_true", help="draw the board too")
    _deck_arg(play)
    play.set_defaults(run=lambda a: _run_play(game, a))

    gen = commands.add_parser("generate", help="escape-in-k puzzles with a unique, verified shortest solution")
    gen.add_argument("--count", type=int, default=1)
    gen.add_argument("--seed", type=int, default=0)
    gen.add_argument("--difficulty", choices=("easy", "medium", "hard"), default="medium",
                     help="base: 2-3, 4-5, 6-7 own turns; master: 2, 3, 4-5")
    gen.add_argument("--turns", type=int, default=None, help="exactly this many own turns instead")
    gen.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    gen.add_argument("--time-ms", type=int, default=None, help="stop after this long")
    gen.add_argument("--variant", choices=R.VARIANTS, default=None)
    gen.add_argument("--action-side", dest="action_side", choices=R.ACTION_SIDE_MODES, default=None)
    _deck_arg(gen)
    gen.set_defaults(run=lambda a: _run_generate(game, a))

    deck = commands.add_parser("deck", help="check a deck file and list its cards")
    deck.add_argument("file", metavar="FILE", nargs="?", default="default")
    deck.add_argument("--json", action="store_true")
    deck.set_defaults(run=_run_deck)


# -- commands -------------------------------------------------------------------------------------
def _run_hint(game: Any, args: argparse.Namespace) -> int:
    state = _state(game, args)
    if args.top < 1:
        raise InvalidInputError("--top", args.top, "must be at least 1")
    result = state.game.hint(state, context_from_args(state.game, args), top=args.top, player=args.player,
                             full_information=args.full_information)
    if args.json:
        print_json(result.to_json())
        return 0
    if args.board:
        render(state, sys.stdout, None if args.full_information else state.current_player())
    render_hint(result, sys.stdout)
    info = result.root_info
    sys.stdout.write(f"({info['playouts']} playouts over {info['candidates']} moves in {info['seconds']} s; "
                     f"expected turns = {info['expectedTurnsMeaning']})\n")
    return 0


def _run_moves(game: Any, args: argparse.Namespace) -> int:
    state = _state(game, args)
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    if args.json:
        print_json({"moves": moves})
    else:
        sys.stdout.write("\n".join(moves) + ("\n" if moves else ""))
    return 0


def _run_solve(game: Any, args: argparse.Namespace) -> int:
    from solver.memorinth.escape import escape_result, shortest_escape
    state = _state(game, args)
    ctx = context_from_args(state.game, args)
    escape = shortest_escape(state, args.player, max_depth=args.max_depth, ctx=ctx)
    if args.json:       # the engine's answer: status, result OPTIMAL|NO_ESCAPE|NONE_WITHIN_MAX_DEPTH|LIMIT, value, bound
        print_json(escape_result(state.game.name, escape).to_json())
        return 0
    who = f"{R.COLOURS[escape.player]} (player {escape.player})"
    if escape.status == "OPTIMAL":
        sys.stdout.write(f"{who} can leave the forest in {escape.turns} own turns (proven shortest, "
                         f"{escape.nodes} nodes):\n")
    elif escape.status == "NO_ESCAPE":
        sys.stdout.write(f"{who} cannot leave the forest at all (proven)\n")
    elif escape.status == "NONE_WITHIN_MAX_DEPTH":
        sys.stdout.write(f"{who} cannot leave the forest within {escape.max_depth} own turns (proven; none in "
                         f"fewer than {escape.lower_bound}); an escape may take longer: try a larger --max-depth\n")
    else:
        best = f"in {escape.turns} own turns" if escape.turns else "not yet"
        sys.stdout.write(f"{who}: search stopped by its limit; best escape found {best}, "
                         f"none in fewer than {escape.lower_bound} (proven):\n")
    for i, turn in enumerate(escape.turn_moves, 1):
        sys.stdout.write(f"  turn {i}: {', '.join(turn)}\n")
    sys.stdout.write("  (full information, solitaire model: the other players' turns change nothing)\n")
    return 0


def _run_score(game: Any, args: argparse.Namespace) -> int:
    from solver.memorinth.escape import race_report
    report = race_report(_state(game, args))
    if args.json:
        print_json(report)
        return 0
    for entry in report["players"]:
        line = f"  {entry['colour']:<7} (player {entry['player']}) on {entry['cell']}"
        if "pathDistance" in entry:
            line += f": {entry['pathDistance'] if entry['pathDistance'] is not None else 'no'} moves out along the paths"
        if "shortestEscape" in entry:
            esc = entry["shortestEscape"]
            line += f"; shortest escape {esc['turns']} own turns ({esc['status']})"
        sys.stdout.write(line + "\n")
    if report["over"]:
        sys.stdout.write("  game over\n")
    return 0


def _run_show(game: Any, args: argparse.Namespace) -> int:
    state = _state(game, args)
    if args.player is not None and not 0 <= args.player < state.rules.players:
        raise InvalidInputError("--player", args.player, f"expected 0..{state.rules.players - 1}")
    if args.json:
        print_json(state.observation(args.player) if args.player is not None else state.to_json())
    elif args.notation:
        sys.stdout.write(state.to_notation() + "\n")
    else:
        render(state, sys.stdout, args.player)
    return 0


def _print_state(state: Any, args: argparse.Namespace) -> None:
    if getattr(args, "board", False):
        render(state, sys.stdout)
    if args.json:
        print_json(state.to_json())
    else:
        sys.stdout.write(state.to_notation() + "\n")


def _run_new(game: Any, args: argparse.Namespace) -> int:
    if args.seed < 0:
        raise InvalidInputError("--seed", args.seed, "must be at least 0")
    _print_state(_game(game, args).deal(args.seed), args)
    return 0


def _run_play(game: Any, args: argparse.Namespace) -> int:
    state = _state(game, args)
    for i, move in enumerate(args.moves):
        if state.is_terminal():
            raise InvalidInputError(f"MOVE[{i}]", move, "the game is already over")
        state.apply_move(move, f"MOVE[{i}]")
    _print_state(state, args)
    return 0


def _run_generate(game: Any, args: argparse.Namespace) -> int:
    from solver.memorinth.puzzles import generate
    if args.seed < 0:
        raise InvalidInputError("--seed", args.seed, "must be at least 0")
    ctx = SearchContext(limits=Limits.from_json({"time_ms": args.time_ms} if args.time_ms is not None else None,
                                                "--time-ms"))
    puzzles, stats = generate(_game(game, args), args.count, args.seed, args.difficulty, args.turns, ctx)
    for puzzle in puzzles:
        if args.json:
            print_json(puzzle.to_json())
            continue
        sys.stdout.write(f"{puzzle.ident}: escape in {puzzle.turns} own turns ({puzzle.difficulty}), unique and "
                         "verified\n")
        render(puzzle.state, sys.stdout)
        sys.stdout.write(f"  notation: {puzzle.state.to_notation()}\n")
        sys.stdout.write("  solution: " + " / ".join(", ".join(turn) for turn in puzzle.solution) + "\n\n")
    if not args.json:
        sys.stdout.write(f"{stats['found']} puzzle(s) from {stats['attempts']} candidates in {stats['seconds']} s\n")
    if stats["found"] < args.count:
        sys.stderr.write(f"memory-solver: only {stats['found']} of {args.count} puzzles found before the limit\n")
        return 1
    return 0


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
    out.write("A two-player game dealt with seed 3 ('memory-solver memorinth new --seed 3 --board'):\n")
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
