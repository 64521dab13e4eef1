"""The ``memory-solver`` command line.

``memory-solver demo``, ``memory-solver engine``, ``memory-solver games`` and one
command group per game (``memory-solver aetherya score ...``). A user's
mistake prints one readable line on stderr and exits with status 1 (bad input)
or 2 (bad command line); it never prints a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shlex
import sys
from collections.abc import Sequence

from solver import contract
from solver.commands import (Parser, UsageError, add_common_verbs, add_declared_commands, add_limit_args,
                             context_from_args, print_json, read_input_arg, render_hint)
from solver.options import Example
from solver.errors import InvalidInputError, SolverError
from solver.registry import game_class, game_names, load_game
from solver.version import __version__

PROG = "memory-solver"

__all__ = ["main", "Parser", "UsageError", "read_input_arg", "print_json", "add_limit_args", "context_from_args",
           "render_hint"]


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
    engine.add_argument("--threads", type=int, default=1, help="queries searched at once (1-64, default 1)")
    engine.add_argument("--data-dir", action="append", default=[], metavar="DIR",
                        help="a directory game specs may name data files in (repeatable; the package's own data is "
                             "always allowed, nothing else)")
    engine.add_argument("--max-time-ms", type=int, default=None, metavar="T",
                        help="cap every query's time limit at T milliseconds (a node budget included)")
    engine.add_argument("--log", default=None, metavar="FILE",
                        help="append every query and answer, with timestamps, to FILE (JSON lines)")
    engine.set_defaults(run=_run_engine)

    serve = sub.add_parser("serve", help="the table-side web board (docs/web.md)",
                           description="Serve the table-side web board: the position as a picture, moves by clicking, "
                                       "hints, records and reviews, puzzles. Binds 127.0.0.1 unless --host says "
                                       "otherwise.")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    serve.add_argument("--threads", type=int, default=2, help="searches run at once for all pages (1-64, default 2)")
    serve.add_argument("--db", default=None, metavar="PATH",
                       help="the SQLite file the games are kept in (default: games.sqlite3 in the user's data "
                            "directory, printed at start)")
    serve.set_defaults(run=_run_serve)

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
            if contract.has_old_cli(game):
                game.add_cli(commands)
            add_declared_commands(commands, game)
            add_common_verbs(commands, game)
        else:
            sub.add_parser(name, help=f"{name} commands", add_help=False)
    return parser


def _run_demo(args: argparse.Namespace) -> int:
    for name in args.game or game_names():
        game = load_game(name)
        title = f"== {game.long_name} =="
        sys.stdout.write(f"{title}\n")
        if contract.has_old_cli(game):
            game.demo(sys.stdout)
        else:
            status = _run_examples(name, contract.demo(game))
            if status:
                return status
        sys.stdout.write("\n")
    return 0


def _run_examples(name: str, examples: Sequence[Example]) -> int:
    """Run each example through this command line, printing its title, the command and its output."""
    previous = ""
    for example in examples:
        argv = [previous if token == "{previous}" else token for token in example.argv]
        shown = " ".join(shlex.quote(t) if len(t) < 60 else shlex.quote(t[:57] + "...") for t in argv)
        sys.stdout.write(f"-- {example.title}\n$ {PROG} {name} {shown}\n")
        if example.note:
            sys.stdout.write(f"{example.note}\n")
        sys.stdout.flush()
        captured = io.StringIO()
        with contextlib.redirect_stdout(captured):
            status = main([name, *argv])
        sys.stdout.write(captured.getvalue())
        if status not in (0, 4):  # 4: a checked answer that is not correct, which a demo may show on purpose
            sys.stderr.write(f"{PROG}: demo: the example {example.title!r} failed\n")
            return status
        previous = captured.getvalue().strip()
    return 0


def _run_engine(args: argparse.Namespace) -> int:
    from solver.engine import run_engine
    from solver.datafiles import restrict
    from solver.engine import MAX_THREADS
    if not 1 <= args.threads <= MAX_THREADS:
        raise InvalidInputError("--threads", args.threads, f"must be between 1 and {MAX_THREADS}")
    if args.max_time_ms is not None and not 1 <= args.max_time_ms <= 86_400_000:
        raise InvalidInputError("--max-time-ms", args.max_time_ms, "must be between 1 and 86400000")
    restrict(args.data_dir)
    log = None
    if args.log:
        try:
            log = open(args.log, "a", encoding="utf-8")
        except OSError as exc:
            raise InvalidInputError("--log", args.log, f"cannot open ({exc.strerror})") from None
    try:
        return run_engine(sys.stdin.buffer, sys.stdout, threads=args.threads, log=log, max_time_ms=args.max_time_ms)
    finally:
        if log is not None:
            log.close()


def _run_serve(args: argparse.Namespace) -> int:
    from solver.engine import MAX_THREADS
    if not 1 <= args.threads <= MAX_THREADS:
        raise InvalidInputError("--threads", args.threads, f"must be between 1 and {MAX_THREADS}")
    if not 0 <= args.port <= 65535:
        raise InvalidInputError("--port", args.port, "must be between 0 and 65535")
    try:
        from solver.web.server import serve
    except ImportError as exc:
        raise InvalidInputError("serve", problem=f"the web board cannot start: {exc.name} is missing (reinstall "
                                                 "memory-solver: pip install .)") from None
    return serve(args.host, args.port, args.threads, args.db)


def _run_games(args: argparse.Namespace) -> int:
    from solver.registry import game_listing
    listing = game_listing()
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
