"""The ``memory-solver`` command line.

``memory-solver demo``, ``memory-solver engine``, ``memory-solver serve``,
``memory-solver games`` and one command group per game (``memory-solver
aetherya score ...``). A user's mistake prints one readable line on stderr and
exits with status 1 (bad input) or 2 (bad command line); it never prints a
traceback.

This module starts quickly: it imports no game, no numpy and not the service
layer. Only the game named on the command line is loaded, with the verbs of
``solver/commands.py``; ``--help`` lists the games from the registry alone.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shlex
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from solver.errors import InvalidInputError, SolverError
from solver.registry import game_listing, game_names, load_game
from solver.validate import PORT, QUEUE, THREADS, TIME_MS
from solver.version import __version__

PROG = "memory-solver"
#: thread pools pinned to one thread unless the user set them: nothing here calls BLAS, and starting OpenBLAS's
#: pool is most of numpy's import time (issue 24)
PINNED_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")

__all__ = ["PROG", "Parser", "UsageError", "console", "main"]


class UsageError(Exception):
    """A bad command line (exit status 2)."""


class Formatter(argparse.HelpFormatter):
    """argparse's help layout at the terminal's width, read as ``shutil.get_terminal_size`` reads it without
    importing ``shutil`` (and with it ``bz2``, ``lzma``, ``fnmatch``): argparse makes a formatter for every
    argument it adds, so every command would pay for it (issue 24, start-up)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, terminal_columns() - 2 if width is None else width)


def terminal_columns() -> int:
    """The terminal's width: ``$COLUMNS`` when set, else the width of the terminal on stdout, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and an exception, not a usage dump."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _build_parser(argv: Sequence[str]) -> Parser:
    """The parser of ``argv``: when it names a command, only that command is built (building a parser costs
    start-up time); otherwise, for ``--help`` or a mistake, every command is listed."""
    names = game_names()
    parser = Parser(prog=PROG, description="Solver and hint engine for memory-themed tabletop games: "
                                           f"{', '.join(names)} (`{PROG} games` describes them).")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    wanted = argv[0] if argv else None
    builders = {"demo": _add_demo, "engine": _add_engine, "serve": _add_serve, "games": _add_games}
    only = wanted if wanted in builders or wanted in names else None
    for name, build in builders.items():
        if only in (None, name):
            build(sub, names)
    for name in names:
        if only == name:
            from solver.commands import add_game_verbs  # lazy: start-up (a game's verbs load numpy and the service)
            game = load_game(name)
            group = sub.add_parser(name, help=game.long_name, description=game.long_name)
            commands = group.add_subparsers(dest="subcommand", metavar="SUBCOMMAND", parser_class=Parser)
            commands.required = True
            add_game_verbs(commands, game, argv[1] if len(argv) > 1 else None)
        elif only is None:
            sub.add_parser(name, help=f"{name} commands", add_help=False)
    return parser


def _add_demo(sub: argparse._SubParsersAction, names: list[str]) -> None:
    demo = sub.add_parser("demo", help="run built-in examples for every game")
    demo.add_argument("--game", action="append", choices=names, help="only this game (repeatable)")
    demo.set_defaults(run=_run_demo)


def _add_engine(sub: argparse._SubParsersAction, names: list[str]) -> None:
    engine = sub.add_parser("engine", help="serve JSON-lines queries on stdin/stdout (docs/engine.md)")
    engine.add_argument("--threads", type=int, default=1, help="queries searched at once (1-64, default 1)")
    engine.add_argument("--data-dir", action="append", default=[], metavar="DIR",
                        help="a directory game specs may name data files in (repeatable; the package's own data is "
                             "always allowed, nothing else)")
    engine.add_argument("--max-time-ms", type=int, default=600_000, metavar="T",
                        help="cap every query's time at T milliseconds, whatever its limits (a node budget "
                             "included; default 600000: ten minutes)")
    engine.add_argument("--max-queue", type=int, default=1000, metavar="N",
                        help="queries that may wait for a worker (default 1000); one more is answered with an error")
    engine.add_argument("--log", default=None, metavar="FILE",
                        help="append every query and answer, with timestamps, to FILE (JSON lines)")
    engine.set_defaults(run=_run_engine)


def _add_serve(sub: argparse._SubParsersAction, names: list[str]) -> None:
    serve = sub.add_parser("serve", help="the table-side web board (docs/web.md)",
                           description="Serve the table-side web board: the position as a picture, moves by clicking, "
                                       "hints, records and reviews, puzzles. Binds 127.0.0.1 unless --host says "
                                       "otherwise.")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    serve.add_argument("--threads", type=int, default=2, help="searches run at once for all pages (1-64, default 2), "
                                                              "plus one worker for quick queries")
    serve.add_argument("--db", default=None, metavar="PATH",
                       help="the SQLite file the games are kept in (default: games.sqlite3 in the user's data "
                            "directory, printed at start)")
    serve.add_argument("--allow-remote", action="store_true",
                       help="serve other machines too (needed to bind an address other than loopback, such as "
                            "0.0.0.0): anyone who reaches the port can use the board")
    serve.add_argument("--max-time-ms", type=int, default=30_000, metavar="T",
                       help="cap every query's time at T milliseconds, whatever its limits (default 30000)")
    serve.add_argument("--max-queue", type=int, default=64, metavar="N",
                       help="queries that may wait for a worker, all clients together (default 64); more are "
                            "answered 503 with Retry-After")
    serve.add_argument("--max-searches-per-client", type=int, default=4, metavar="N",
                       help="queries one client (one network address, whatever its pages) may have queued or "
                            "running (default 4); more are answered 429")
    serve.add_argument("--max-queue-wait-ms", type=int, default=30_000, metavar="W",
                       help="a query that waited W milliseconds without a free worker is answered 503 (default "
                            "30000): every answer comes within its time cap plus W")
    serve.set_defaults(run=_run_serve)


def _add_games(sub: argparse._SubParsersAction, names: list[str]) -> None:
    games = sub.add_parser("games", help="list the games and their parameters")
    games.add_argument("--json", action="store_true")
    games.set_defaults(run=_run_games)


def _run_demo(args: argparse.Namespace) -> int:
    from solver.commands import demo_examples  # lazy: start-up (the demo loads every game)
    for name in args.game or game_names():
        game = load_game(name)
        sys.stdout.write(f"== {game.long_name} ==\n")
        status = _run_examples(name, demo_examples(game))
        if status:
            return status
        sys.stdout.write("\n")
    return 0


def _run_examples(name: str, examples: Sequence[Any]) -> int:
    """Run each example (``solver.options.Example``) through this command line, printing its title, the command
    and its output."""
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


def _flag(command: str, bound: Any, value: Any, flag: str) -> Any:
    """A flag's value checked against its bound; out of range is a bad command line (status 2)."""
    try:
        return bound.check(value, flag)
    except InvalidInputError as exc:
        raise UsageError(f"{PROG} {command}: error: {exc}") from None


def _run_engine(args: argparse.Namespace) -> int:
    _flag("engine", THREADS, args.threads, "--threads")
    _flag("engine", TIME_MS, args.max_time_ms, "--max-time-ms")
    _flag("engine", QUEUE, args.max_queue, "--max-queue")
    from solver.datafiles import restrict  # lazy: start-up (pathlib; only servers restrict data files)
    from solver.engine import run_engine  # lazy: start-up (the engine loads the service and numpy)
    restrict(args.data_dir)
    log = None
    if args.log:
        try:
            log = open(args.log, "a", encoding="utf-8")
        except OSError as exc:
            raise InvalidInputError("--log", args.log, f"cannot open ({exc.strerror})") from None
    try:
        return run_engine(sys.stdin.buffer, sys.stdout, threads=args.threads, log=log, max_time_ms=args.max_time_ms,
                          max_queue=args.max_queue)
    finally:
        if log is not None:
            log.close()


def _run_serve(args: argparse.Namespace) -> int:
    _flag("serve", THREADS, args.threads, "--threads")
    _flag("serve", PORT, args.port, "--port")
    _flag("serve", TIME_MS, args.max_time_ms, "--max-time-ms")
    _flag("serve", QUEUE, args.max_queue, "--max-queue")
    _flag("serve", QUEUE, args.max_searches_per_client, "--max-searches-per-client")
    _flag("serve", TIME_MS, args.max_queue_wait_ms, "--max-queue-wait-ms")
    try:
        from solver.web.server import Capacity, serve  # lazy: start-up (starlette, uvicorn: only the web board)
    except ImportError as exc:
        raise InvalidInputError("serve", problem=f"the web board cannot start: {exc.name} is missing (reinstall "
                                                 "memory-solver: pip install .)") from None
    from solver.web.hygiene import binds_only_loopback  # lazy: start-up (starlette: only the web board)
    if not binds_only_loopback(args.host):
        if not args.allow_remote:
            raise UsageError(f"{PROG} serve: error: --host {args.host} serves other machines, and the board has no "
                             "login: add --allow-remote to do so anyway, or bind 127.0.0.1")
        sys.stderr.write(f"{PROG}: warning: serving {args.host}: anyone who reaches this port can use the board and "
                         "its CPU (no login)\n")
    capacity = Capacity(threads=args.threads, max_time_ms=args.max_time_ms, max_queue=args.max_queue,
                        max_per_client=args.max_searches_per_client, max_wait_ms=args.max_queue_wait_ms)
    return serve(args.host, args.port, capacity, allow_remote=args.allow_remote, db=args.db)


def _run_games(args: argparse.Namespace) -> int:
    listing = game_listing()
    if args.json:
        sys.stdout.write(json.dumps(listing, allow_nan=False) + "\n")
    else:
        for entry in listing:
            params = ", ".join(f"{k}={v['default']}" for k, v in entry["parameters"].items())
            sys.stdout.write(f"{entry['name']:<10} {entry['longName']}"
                             f" ({entry['players'][0]}-{entry['players'][1]} players){'; ' + params if params else ''}\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command line (``argv``, default ``sys.argv[1:]``); returns the exit status."""
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


def console() -> int:
    """The ``memory-solver`` console script (and ``python -m solver``): one process, one command.

    Pins the BLAS thread pools to one thread before numpy loads, unless the user set them
    (:data:`PINNED_THREADS`); a library that imports ``solver`` keeps its own settings.
    """
    for name in PINNED_THREADS:
        os.environ.setdefault(name, "1")
    return main()
