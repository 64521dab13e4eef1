"""The ``memory-solver`` command line.

``memory-solver demo``, ``memory-solver engine``, ``memory-solver games`` and one
command group per game (``memory-solver aetherya score ...``). A user's
mistake prints one readable line on stderr and exits with status 1 (bad input)
or 2 (bad command line); it never prints a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

from solver.version import __version__
from solver.errors import InvalidInputError, SolverError
from solver.game import Game
from solver.registry import game_class, game_names, load_game
from solver.results import HintResult
from solver.search import Limits, SearchContext

PROG = "memory-solver"


class UsageError(Exception):
    """A bad command line (exit status 2)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and an exception, not a usage dump."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def read_input_arg(text: str, field: str = "STATE") -> Any:
    """A command-line position: ``-`` (stdin), a file path, inline JSON, or a notation string.

    JSON (from any source) is parsed to a dict/list; anything else is returned
    as a stripped string for the game's notation parser.
    """
    source = text
    if text == "-":
        source = sys.stdin.read()
    elif os.path.isfile(text):
        try:
            with open(text, encoding="utf-8") as handle:
                source = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidInputError(field, text, f"cannot read file ({exc})") from None
    stripped = source.strip()
    if stripped.startswith(("{", "[")):
        try:
            return json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(field, stripped[:80], f"malformed JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    return stripped


def print_json(obj: Any, out: TextIO | None = None) -> None:
    """Print one JSON object on one line."""
    (out or sys.stdout).write(json.dumps(obj, allow_nan=False) + "\n")


def add_limit_args(parser: argparse.ArgumentParser, seed: bool = True) -> None:
    """``--time-ms``, ``--nodes`` and (optionally) ``--seed``."""
    parser.add_argument("--time-ms", type=int, default=None, help="time limit in milliseconds")
    parser.add_argument("--nodes", type=int, default=None, help="node (or sample) limit")
    if seed:
        parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")


def context_from_args(game: Game, args: argparse.Namespace) -> SearchContext:
    """A search context from ``--time-ms``, ``--nodes`` and ``--seed``."""
    limits = Limits.from_json({k: v for k, v in (("time_ms", args.time_ms), ("nodes", args.nodes)) if v is not None},
                              "limits")
    seed = getattr(args, "seed", 0)
    if seed < 0:
        raise InvalidInputError("--seed", seed, "must be at least 0")
    return SearchContext(limits=limits.with_defaults(game.default_time_ms), seed=seed)


def render_hint(result: HintResult, out: TextIO) -> None:
    """A readable table of a hint."""
    info = result.root_info
    label = "full-information analysis" if info.get("fullInformation") else "hint from the player's own information"
    out.write(f"{result.game}: {label}\n")
    if "valueMeaning" in info:
        out.write(f"value = {info['valueMeaning']}\n")
    for move in result.move_infos:
        pv = " ".join(move.pv[1:]) if len(move.pv) > 1 else ""
        extra = f"   then {pv}" if pv else ""
        out.write(f"{move.order + 1:>3}. {move.move:<28} {move.value:>9.4g}   {move.why}{extra}\n")
    if not result.move_infos:
        out.write("  no legal move\n")


def add_hint_command(sub: argparse._SubParsersAction, game: Game,
                     extra: Callable[[argparse.ArgumentParser], None] | None = None) -> argparse.ArgumentParser:
    """The standard ``<game> hint STATE`` command."""
    parser = sub.add_parser("hint", help="rank the moves of the player to act",
                            description="Rank the moves of the player to act, using only that player's information "
                                        "unless --full-information is given. STATE is a JSON file, '-' for stdin, "
                                        "inline JSON or the game's notation.")
    parser.add_argument("state", metavar="STATE")
    parser.add_argument("--top", type=int, default=3, help="number of moves to show (default 3)")
    parser.add_argument("--player", type=int, default=None, help="advise this player (default: the player to act)")
    parser.add_argument("--full-information", action="store_true", help="analyse with every hidden card known")
    parser.add_argument("--json", action="store_true", help="print the engine's JSON response")
    add_limit_args(parser)
    if extra:
        extra(parser)

    def run(args: argparse.Namespace) -> int:
        state = game.parse_state(read_input_arg(args.state), "STATE")
        if args.top < 1:
            raise InvalidInputError("--top", args.top, "must be at least 1")
        result = game.hint(state, context_from_args(game, args), top=args.top, player=args.player,
                           full_information=args.full_information)
        if args.json:
            print_json(result.to_json())
        else:
            render_hint(result, sys.stdout)
        return 0

    parser.set_defaults(run=run)
    return parser


def add_legal_moves_command(sub: argparse._SubParsersAction, game: Game) -> argparse.ArgumentParser:
    """The standard ``<game> legal-moves STATE`` command."""
    parser = sub.add_parser("legal-moves", help="list the legal moves of the player to act")
    parser.add_argument("state", metavar="STATE")
    parser.add_argument("--json", action="store_true")

    def run(args: argparse.Namespace) -> int:
        moves = game.legal_moves(game.parse_state(read_input_arg(args.state), "STATE"))
        if args.json:
            print_json({"moves": moves})
        else:
            sys.stdout.write("\n".join(moves) + ("\n" if moves else ""))
        return 0

    parser.set_defaults(run=run)
    return parser


def _build_parser(argv: Sequence[str]) -> Parser:
    parser = Parser(prog=PROG, description="Solver and hint engine for Aetherya, Embers of Memory, Forgotten, "
                                           "Memorinth and Mnemonic.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True

    demo = sub.add_parser("demo", help="run built-in examples for every game")
    demo.add_argument("--game", action="append", choices=game_names(), help="only this game (repeatable)")
    demo.set_defaults(run=_run_demo)

    engine = sub.add_parser("engine", help="serve JSON-lines queries on stdin/stdout (docs/engine.md)")
    engine.add_argument("--threads", type=int, default=1, help="queries searched at once (default 1)")
    engine.set_defaults(run=_run_engine)

    games = sub.add_parser("games", help="list the games and their parameters")
    games.add_argument("--json", action="store_true")
    games.set_defaults(run=_run_games)

    wanted = argv[0] if argv else None
    for name in game_names():
        if wanted == name:
            game = load_game(name)
            group = sub.add_parser(name, help=game.long_name, description=game.long_name)
            commands = group.add_subparsers(dest="subcommand", metavar="SUBCOMMAND", parser_class=Parser)
            commands.required = True
            game.add_cli(commands)
        else:
            sub.add_parser(name, help=f"{name} commands", add_help=False)
    return parser


def _run_demo(args: argparse.Namespace) -> int:
    for name in args.game or game_names():
        game = load_game(name)
        title = f"== {game.long_name} =="
        sys.stdout.write(f"{title}\n")
        game.demo(sys.stdout)
        sys.stdout.write("\n")
    return 0


def _run_engine(args: argparse.Namespace) -> int:
    from solver.engine import run_engine
    if args.threads < 1:
        raise InvalidInputError("--threads", args.threads, "must be at least 1")
    return run_engine(sys.stdin.buffer, sys.stdout, threads=args.threads)


def _run_games(args: argparse.Namespace) -> int:
    listing = []
    for name in game_names():
        cls = game_class(name)
        listing.append({"name": name, "longName": cls.long_name, "players": [cls.min_players, cls.max_players],
                        "utility": cls.utility.value, "information": cls.information.value,
                        "parameters": {k: {"default": p.default, "doc": p.doc} for k, p in cls.PARAMETERS.items()}})
    if args.json:
        print_json(listing)
    else:
        for entry in listing:
            params = ", ".join(f"{k}={v['default']}" for k, v in entry["parameters"].items())
            sys.stdout.write(f"{entry['name']:<10} {entry['longName']}"
                             f" ({entry['players'][0]}-{entry['players'][1]} players){'; ' + params if params else ''}\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``memory-solver`` console script."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = _build_parser(args_list)
        args = parser.parse_args(args_list)
        if not hasattr(args, "run"):
            raise UsageError(f"{PROG} {args.command}: a sub-command is required (try --help)")
        return int(args.run(args) or 0)
    except UsageError as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    except SolverError as exc:
        sys.stderr.write(f"{PROG}: error: {exc}\n")
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except Exception as exc:  # an internal bug: still one line, with a hint for developers
        if os.environ.get("MEMORY_SOLVER_DEBUG"):
            raise
        sys.stderr.write(f"{PROG}: internal error: {type(exc).__name__}: {exc} "
                         f"(set MEMORY_SOLVER_DEBUG=1 for a traceback)\n")
        return 3
