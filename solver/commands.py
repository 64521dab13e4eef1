"""The verbs every game shares on the command line, built once (``docs/commands.md``).

``memory-solver <game> VERB ...`` for ``new``, ``show``, ``view``, ``apply``,
``legal-moves``, ``hint``, ``solve``, ``score``, ``generate``, ``check``,
``review`` and ``selfplay``: the same flags in every game, the game's own
parameters as flags (``--deck FILE``, ``--width 4``) and ``--game SPEC``.
``--json`` prints the machine form; without it, text for a person. A game's own
commands (``optimize``, ``odds``, ``place``, ``deck``, ``campaign``) are built
from what it declares (``solver.options.Command``).

This module only reads the command line and prints: each verb builds its typed
request and runs it through the service layer (``solver/service.py``), which
checks every value once. Only the verb being run is built whole; the others are
listed by name and help, so that no game module is loaded that the command does
not need.

Positions on the command line (``STATE``) are a JSON file, ``-`` for stdin,
inline JSON, the game's notation (a view's notation starts with ``view:N``) or a
game record (``docs/records.md``), whose final position is used.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from solver import service
from solver.errors import InvalidInputError
from solver.game import VIEW_PREFIX, Game, State, View
from solver.options import Argument, Command, Example
from solver.record import Record, append_to_file, is_record, looks_like_record_lines, record_from_lines
from solver.registry import load_game
from solver.results import HintResult, render_hint
from solver.search import Limits, SearchContext
from solver.service import Names, Run
from solver.validate import decode_json

COMMON_VERBS = ("new", "show", "view", "apply", "legal-moves", "hint", "solve", "score", "generate", "check",
                "review", "selfplay")
#: longest input file or stdin the command line reads (a position or record is far smaller)
MAX_INPUT_BYTES = 64 * 1024 * 1024
#: how the command line names a request's fields in its errors
COMMAND_LINE = Names({"seed": "--seed", "top": "--top", "player": "--player", "players": "--players", "mode": "--mode",
                      "fullInformation": "--full-information", "time_ms": "--time-ms", "nodes": "--nodes",
                      "mistakes": "--mistakes", "kind": "--kind", "difficulty": "--difficulty",
                      "policies": "--policies", "record": "RECORD", "state": "STATE", "moves": "MOVE"})
STATE_HELP = ("a JSON file, '-' for stdin, inline JSON, the game's notation (a view's starts with 'view:N') or a game "
              "record (its final position)")


# ---------------------------------------------------------------------- reading and printing
def read_input_arg(text: str, field: str = "STATE") -> Any:
    """A command-line position: ``-`` (stdin), a file path, inline JSON, a record, or a notation string.

    JSON (from any source) is decoded to a dict or list (strictly: see
    :func:`solver.validate.decode_json`); a game record in JSON lines becomes
    its object form (``solver.record``); anything else is returned as a
    stripped string for the game's notation parser.
    """
    source = text
    if text == "-":
        source = sys.stdin.read(MAX_INPUT_BYTES + 1)
    elif os.path.isdir(text):
        raise InvalidInputError(field, text, "is a directory (expected a file, '-' for stdin, inline JSON or "
                                             "the game's notation)")
    elif os.path.isfile(text):
        try:
            with open(text, encoding="utf-8") as handle:
                source = handle.read(MAX_INPUT_BYTES + 1)
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidInputError(field, text, f"cannot read file ({exc})") from None
    elif text.strip().lower().endswith((".json", ".jsonl")) and not text.lstrip().startswith(("{", "[")):
        raise InvalidInputError(field, text, "no such file")
    if len(source) > MAX_INPUT_BYTES:
        raise InvalidInputError(field, problem=f"input longer than {MAX_INPUT_BYTES} bytes")
    stripped = source.strip()
    if stripped.startswith(("{", "[")):
        if looks_like_record_lines(stripped):
            return record_from_lines(stripped, field).to_json()
        return decode_json(stripped, field)
    return stripped


def read_position_arg(game: Game, text: str, field: str = "STATE") -> Any:
    """:func:`read_input_arg` for a position of ``game``: a word that is no file, ``-``, JSON or the start of the
    game's notation is named as a missing file, not parsed as a broken notation."""
    payload = read_input_arg(text, field)
    start = service.notation_start(game)
    if start and isinstance(payload, str) and text != "-" and not os.path.exists(text):
        body = payload
        if body.startswith(VIEW_PREFIX):
            body = body.partition(" ")[2].lstrip()
        if not body.lower().startswith(start):
            raise InvalidInputError(field, text, f"no such file (a position is a JSON file, '-' for stdin, inline "
                                                 f"JSON or the notation '{start} ...', docs/formats/{game.name}.md)")
    return payload


def position_from_arg(game: Game, text: str, field: str = "STATE") -> State | View:
    """A position from the command line: a record gives its final position."""
    return service.position_of(game, read_position_arg(game, text, field), field)


def puzzle_from_arg(game: Game, text: str, field: str = "PUZZLE") -> dict[str, Any]:
    """A puzzle from the command line: one JSON object (a file, '-' or inline) or a puzzle id."""
    payload = read_input_arg(text, field)
    if isinstance(payload, str):
        lines = [line for line in payload.splitlines() if line.strip()]
        if len(lines) == 1 and lines[0].lstrip().startswith("{"):
            payload = read_input_arg(lines[0], field)
        elif len(lines) == 1:
            return service.answer(service.puzzle_of_id(lines[0], game, field)).puzzle
        else:
            raise InvalidInputError(field, payload[:80], "expected one puzzle (one line of 'generate --json') or its id")
    if not isinstance(payload, dict):
        raise InvalidInputError(field, payload, "expected a puzzle object")
    return payload


def print_json(obj: Any, out: TextIO | None = None) -> None:
    """Print one JSON object on one line."""
    (out or sys.stdout).write(json.dumps(obj, allow_nan=False) + "\n")


def print_position(position: State | View, as_json: bool) -> None:
    """A position as its notation (one line) or, with ``--json``, its JSON."""
    if as_json:
        print_json(position.to_json())
    else:
        sys.stdout.write(position.to_notation() + "\n")


def render_mapping(obj: Any, out: TextIO, indent: int = 0) -> None:
    """A JSON result as indented ``key: value`` lines (the default text form of a result)."""
    pad = "  " * indent
    if isinstance(obj, dict):
        for key, value in obj.items():
            if isinstance(value, (dict, list)) and value and not _is_flat_list(value):
                out.write(f"{pad}{key}:\n")
                render_mapping(value, out, indent + 1)
            else:
                out.write(f"{pad}{key}: {_flat(value)}\n")
    elif isinstance(obj, list):
        for item in obj:
            if isinstance(item, (dict, list)) and not _is_flat_list(item):
                out.write(f"{pad}-\n")
                render_mapping(item, out, indent + 1)
            else:
                out.write(f"{pad}- {_flat(item)}\n")
    else:
        out.write(f"{pad}{_flat(obj)}\n")


def _is_flat_list(value: Any) -> bool:
    return isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value)


def _flat(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_flat(v) for v in value) if value else "none"
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _print_result(game: Game, verb: str, result: Any, as_json: bool) -> None:
    """A verb's result: JSON, the game's own text for it, or the generic ``key: value`` lines."""
    if as_json:
        print_json(result.to_json() if hasattr(result, "to_json") else result)
        return
    text = service.render_text(game, verb, result)
    if text is not None:
        sys.stdout.write(text)
    elif isinstance(result, HintResult):
        render_hint(result, sys.stdout)
    else:
        render_mapping(result.to_json() if hasattr(result, "to_json") else result, sys.stdout)


# ---------------------------------------------------------------------- limits, game flags, verb options
def add_limit_args(parser: argparse.ArgumentParser, seed: bool = True, time_help: str = "time limit in milliseconds",
                   nodes_help: str = "node (or sample) limit; the answer is then the same on every machine") -> None:
    """``--time-ms``, ``--nodes`` and (optionally) ``--seed``."""
    parser.add_argument("--time-ms", type=int, default=None, help=time_help)
    parser.add_argument("--nodes", type=int, default=None, help=nodes_help)
    if seed:
        parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")


def limits_from_args(args: argparse.Namespace) -> Limits:
    """The ``--time-ms`` and ``--nodes`` limits, checked."""
    return service.limits_of(getattr(args, "time_ms", None), getattr(args, "nodes", None), COMMAND_LINE)


def context_from_args(game: Game, args: argparse.Namespace) -> SearchContext:
    """A search context from ``--time-ms``, ``--nodes`` and ``--seed`` (for a game's own commands).

    With ``--nodes`` and no ``--time-ms``, no default time cap applies, so the answer is the same on every machine.
    """
    return SearchContext(limits=service.limits_for(game, limits_from_args(args)),
                         seed=service.check_seed(getattr(args, "seed", 0), COMMAND_LINE))


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def add_game_args(parser: argparse.ArgumentParser, game: Game) -> None:
    """``--game SPEC``, ``--players N`` and ``--mode M`` where the game has them, and one flag per other game
    parameter (``--deck FILE``, ``--width 4``)."""
    parser.add_argument("--game", default=None, metavar="SPEC",
                        help=f"the rules, e.g. '{game.name}(key=value,...)' (default: {game.spec()}); "
                             "`memory-solver games` lists the parameters")
    if game.PLAYERS_PARAMETER:
        spec = game.PARAMETERS[game.PLAYERS_PARAMETER]
        parser.add_argument("--players", type=int, default=None, help=f"{spec.doc} (default {spec.default})")
    if game.MODE_PARAMETER:
        spec = game.PARAMETERS[game.MODE_PARAMETER]
        choices = f": {', '.join(map(str, spec.choices))}" if spec.choices else ""
        parser.add_argument("--mode", default=None, help=f"{spec.doc}{choices} (default {spec.default})")
    for name, spec in game.PARAMETERS.items():
        if name in ("players", "mode") and name in (game.PLAYERS_PARAMETER, game.MODE_PARAMETER):
            continue
        choices = f" ({', '.join(map(str, spec.choices))})" if spec.choices else ""
        parser.add_argument(_flag(name), dest=f"param_{name}", default=None, metavar=name.upper(),
                            help=f"{spec.doc}{choices}; default {spec.default}")


def game_from_args(game: Game, args: argparse.Namespace) -> Game:
    """The game configured by ``--game``, the parameter flags, ``--players`` and ``--mode``."""
    base = game
    if getattr(args, "game", None):
        base = load_game(args.game, "--game")
        if base.name != game.name:
            raise InvalidInputError("--game", args.game, f"expected a {game.long_name} game such as '{game.name}'")
    params = {name: getattr(args, f"param_{name}") for name in game.PARAMETERS
              if getattr(args, f"param_{name}", None) is not None}
    if params:
        base = type(base)(**{**base.params, **params})
    return base.configure(players=getattr(args, "players", None), mode=getattr(args, "mode", None))


def add_verb_options(parser: argparse.ArgumentParser, game: Game, verb: str) -> None:
    """The extra options a game declares for ``verb`` (``solver.options.Option``)."""
    for option in service.verb_options(game, verb):
        if option.kind is bool:
            parser.add_argument(option.flag, dest=f"opt_{option.key}", action="store_true", help=option.help)
        else:
            parser.add_argument(option.flag, dest=f"opt_{option.key}", type=option.kind, default=None,
                                choices=option.choices, help=f"{option.help} (default {option.default})")


def verb_options(game: Game, verb: str, args: argparse.Namespace) -> dict[str, Any]:
    """The values of the game's extra options for ``verb`` (only those given), each checked."""
    out: dict[str, Any] = {}
    for option in service.verb_options(game, verb):
        value = getattr(args, f"opt_{option.key}", None)
        if value is None or (option.kind is bool and value is False):
            continue
        out[option.key] = option.check(value, option.flag)
    return out


# ---------------------------------------------------------------------- a game's verbs
def add_game_verbs(commands: argparse._SubParsersAction, game: Game, wanted: str | None = None) -> None:
    """Every sub-command of ``memory-solver <game>``: the game's own commands, then the shared verbs.

    When ``wanted`` (the word after the game on the command line) names a command, only that command is built:
    no other is shown, and building the others would load more of the game than the command needs. Otherwise
    (``--help``, a mistake) every command is listed with its help.
    """
    declared = service.game_commands(game)
    taken = set(commands.choices) | {c.name for c in declared}  # a game's own command wins over a shared verb
    verbs = {verb: [a for a in service.verb_aliases(game, verb) if a not in taken] for verb in VERBS
             if verb not in taken}
    known = {c.name for c in declared} | set(verbs) | {a for aliases in verbs.values() for a in aliases}
    only = wanted if wanted in known else None
    for command in declared:
        if only in (None, command.name):
            _add_declared(commands, game, command)
    for verb, aliases in verbs.items():
        help_text, description, build = VERBS[verb]
        if only is None:
            commands.add_parser(verb, help=help_text, aliases=aliases, add_help=False)
        elif only == verb or only in aliases:
            notes = service.verb_notes(game, verb)
            parser = commands.add_parser(verb, help=help_text, aliases=aliases,
                                         description=(description or help_text) + (" " + notes if notes else ""))
            build(parser, game)
            add_flag_aliases(parser, service.flag_aliases(game, verb))


def add_flag_aliases(parser: argparse.ArgumentParser, aliases: dict[str, str]) -> None:
    """Old flag names a game keeps working, setting the same value as the flag each names."""
    for alias, target in aliases.items():
        action = next(a for a in parser._actions if target in a.option_strings)
        parser.add_argument(alias, dest=action.dest, type=action.type, choices=action.choices,
                            default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def demo_examples(game: Game) -> tuple[Example, ...]:
    """The command lines ``memory-solver demo`` runs for ``game``."""
    return service.demo_examples(game)


# ---------------------------------------------------------------------- a game's own commands (solver.options)
def _add_declared(commands: argparse._SubParsersAction, game: Game, command: Command) -> None:
    parser = commands.add_parser(command.name, help=command.help, description=command.description or command.help)
    if command.subcommands:
        sub = parser.add_subparsers(dest=f"{command.name}_action", metavar="ACTION", parser_class=type(parser))
        sub.required = True
        for child in command.subcommands:
            _add_declared(sub, game, child)
        return
    grouped = {key for group in command.exclusive for key in group if key != "!"}
    groups = {}
    for group in command.exclusive:
        required = group[0] == "!"
        mutex = parser.add_mutually_exclusive_group(required=required)
        for key in group[1:] if required else group:
            groups[key] = mutex
    for argument in command.arguments:
        target = groups.get(argument.key, parser) if argument.key in grouped else parser
        _add_argument(target, argument)
    if command.json_flag:
        parser.add_argument("--json", action="store_true", help="print one JSON object")
    if command.game_flags:
        add_game_args(parser, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args) if command.game_flags else game
        values = {}
        for argument in command.arguments:
            value = getattr(args, argument.key, None)
            if argument.input and value is not None:
                value = [read_input_arg(v, argument.metavar or argument.key.upper()) for v in value] \
                    if isinstance(value, list) else read_input_arg(value, argument.metavar or argument.key.upper())
            if argument.kind is Path and value is not None:
                value = Path(value)
            values[argument.key] = value
        result = command.run(g, values)
        text = None if getattr(args, "json", False) or command.render is None else command.render(result)
        if text is None:
            if getattr(args, "json", False) or not command.json_flag:
                print_json(result)
            else:
                render_mapping(result, sys.stdout)
        else:
            sys.stdout.write(text)
        return command.exit_status(result) if command.exit_status is not None else 0

    parser.set_defaults(run=run)


def _add_argument(parser: Any, argument: Argument) -> None:
    kwargs: dict[str, Any] = {"help": argument.help}
    positional = not argument.flags[0].startswith("-")
    if argument.kind is bool:
        kwargs["action"] = "store_true"
    else:
        kwargs["type"] = str if argument.kind is Path else argument.kind
        if argument.choices is not None:
            kwargs["choices"] = argument.choices
        if argument.nargs is not None:
            kwargs["nargs"] = argument.nargs
        if argument.metavar:
            kwargs["metavar"] = argument.metavar
        kwargs["default"] = argument.default
    if not positional:
        kwargs["dest"] = argument.key
        if argument.required:
            kwargs["required"] = True
    parser.add_argument(*argument.flags, **kwargs)


# ---------------------------------------------------------------------- the shared verbs
def _build_new(p: argparse.ArgumentParser, game: Game) -> None:
    p.add_argument("--seed", type=int, default=0, help="random seed of the deal (default 0)")
    p.add_argument("--player", type=int, default=None, help="print this player's view instead of the full state")
    p.add_argument("--table", action="store_true", help="a real table: player --player's view before the deal")
    p.add_argument("--record", default=None, metavar="FILE", help="also start a game record in FILE")
    p.add_argument("--json", action="store_true", help="print JSON instead of the notation")
    p.add_argument("--notation", action="store_true", help=argparse.SUPPRESS)  # the default; kept for old scripts
    add_verb_options(p, game, "new")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        request = service.new_request(g, seed=args.seed, player=args.player, table=args.table,
                                      options=verb_options(g, "new", args), names=COMMAND_LINE)
        position = service.answer(request).position
        if args.record:
            Record.start_of(position).write(args.record)
        print_position(position, args.json)
        return 0

    p.set_defaults(run=run)


def _build_show(p: argparse.ArgumentParser, game: Game) -> None:
    p.add_argument("state", metavar="STATE", help=STATE_HELP)
    p.add_argument("--player", type=int, default=None, help="show only what this player knows")
    p.add_argument("--svg", action="store_true", help="print an SVG picture instead of text")
    p.add_argument("--hint", action="store_true", help="draw (or list) the hint's best moves on the picture")
    p.add_argument("--json", action="store_true", help="print the position's JSON (the view's with --player)")
    add_limit_args(p)
    add_game_args(p, game)
    add_verb_options(p, game, "show")

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        position = position_from_arg(g, args.state)
        player = service.check_player(args.player, COMMAND_LINE)
        if player is not None:
            position = position.view(player)
        if args.json:
            print_position(position, True)
            return 0
        request = service.ShowRequest(game=g, position=position, hint=args.hint, form="svg" if args.svg else "text",
                                      limits=limits_from_args(args), seed=service.check_seed(args.seed, COMMAND_LINE),
                                      options=verb_options(g, "show", args))
        shown = service.answer(request)
        if args.svg:
            sys.stdout.write(shown.svg)
            return 0
        sys.stdout.write(shown.text)
        if shown.hint is not None:
            render_hint(shown.hint, sys.stdout)
        return 0

    p.set_defaults(run=run)


def _build_view(p: argparse.ArgumentParser, game: Game) -> None:
    p.add_argument("state", metavar="STATE", help=STATE_HELP)
    p.add_argument("--player", type=int, default=None, help="the observing player (default: the observer of a view "
                                                           "or of a record kept at a real table)")
    p.add_argument("--json", action="store_true", help="print JSON instead of the notation")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        position = position_from_arg(g, args.state)
        player = args.player
        if player is None and isinstance(position, View):
            player = position.observer
        request = service.ViewRequest(game=g, position=position, player=service.check_player(
            player, COMMAND_LINE, required=True, problem="name the player whose view to print (STATE is a full "
                                                         "state)"))
        print_position(service.answer(request).position, args.json)
        return 0

    p.set_defaults(run=run)


def _build_apply(p: argparse.ArgumentParser, game: Game) -> None:
    p.add_argument("state", metavar="STATE", help=STATE_HELP)
    p.add_argument("moves", metavar="MOVE", nargs="+")
    p.add_argument("--record", default=None, metavar="FILE", help="append the moves to this game record")
    p.add_argument("--comment", default=None, help="a comment stored with the last move in the record")
    p.add_argument("--json", action="store_true", help="print JSON instead of the notation")
    p.add_argument("--notation", action="store_true", help=argparse.SUPPRESS)  # the default; kept for old scripts
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        start = position_from_arg(g, args.state)
        request = service.ApplyRequest(game=g, position=start, moves=tuple(args.moves), moves_field="MOVE")
        position = service.answer(request).position
        if args.record:
            append_to_file(args.record, g, start, list(args.moves), comment=args.comment, replayed=True)
        print_position(position, args.json)
        waiting = service.waiting_for(g, position)
        if waiting and not args.json:       # on stderr: the notation alone stays on stdout for scripts
            sys.stderr.write(f"waiting for {waiting}\n")
        return 0

    p.set_defaults(run=run)


def _build_legal_moves(p: argparse.ArgumentParser, game: Game) -> None:
    p.add_argument("state", metavar="STATE", help=STATE_HELP)
    p.add_argument("--json", action="store_true")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        moves = service.answer(service.LegalMovesRequest(game=g, position=position_from_arg(g, args.state))).moves
        if args.json:
            print_json({"moves": moves})
        else:
            sys.stdout.write("\n".join(moves) + ("\n" if moves else ""))
        return 0

    p.set_defaults(run=run)


def _build_hint(p: argparse.ArgumentParser, game: Game) -> None:
    p.add_argument("state", metavar="STATE")
    p.add_argument("--top", type=int, default=3, help="number of moves to show (default 3)")
    p.add_argument("--player", type=int, default=None, help="advise this player (default: the player to act)")
    p.add_argument("--full-information", action="store_true", help="analyse with every hidden card known")
    p.add_argument("--json", action="store_true", help="print the engine's JSON response")
    add_limit_args(p)
    add_verb_options(p, game, "hint")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        request = service.hint_request(g, position_from_arg(g, args.state), top=args.top, player=args.player,
                                       full_information=args.full_information, time_ms=args.time_ms,
                                       nodes=args.nodes, seed=args.seed, options=verb_options(g, "hint", args),
                                       names=COMMAND_LINE)
        _print_result(g, "hint", service.answer(request), args.json)
        return 0

    p.set_defaults(run=run)


def _build_solve(p: argparse.ArgumentParser, game: Game) -> None:
    p.add_argument("state", metavar="PROBLEM", help="the position or problem: " + STATE_HELP)
    p.add_argument("--json", action="store_true")
    add_limit_args(p)
    add_verb_options(p, game, "solve")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        problem = service.problem_of(g, read_position_arg(g, args.state, "PROBLEM"), "PROBLEM")
        request = service.SolveRequest(game=g, problem=problem, limits=limits_from_args(args),
                                       seed=service.check_seed(args.seed, COMMAND_LINE),
                                       options=verb_options(g, "solve", args))
        _print_result(g, "solve", service.answer(request), args.json)
        return 0

    p.set_defaults(run=run)


def _build_score(p: argparse.ArgumentParser, game: Game) -> None:
    p.add_argument("state", metavar="STATE", help=STATE_HELP)
    p.add_argument("--json", action="store_true")
    add_verb_options(p, game, "score")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        problem = service.problem_of(g, read_position_arg(g, args.state, "STATE"), "STATE")
        request = service.ScoreRequest(game=g, problem=problem, options=verb_options(g, "score", args))
        _print_result(g, "score", service.answer(request).body, args.json)
        return 0

    p.set_defaults(run=run)


def _add_run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=0, help="seed of the run (item i uses its own stream from it)")
    p.add_argument("--start", type=int, default=0, help="index of the first item (resume an interrupted run)")
    p.add_argument("--count", type=int, default=1, help="number of items (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="local processes (default 1; the output is the same)")
    p.add_argument("--executor", choices=("local", "ray"), default="local",
                   help="local processes, or a Ray cluster (pip install 'memory-solver[ray]')")
    p.add_argument("--address", default=None, help="Ray cluster address (default: start a local one)")
    p.add_argument("--progress", action="store_true", help="a progress bar on stderr (default: when a terminal)")
    p.add_argument("--json", action="store_true", help="JSON lines, one item per line, in index order")


def _run_of(args: argparse.Namespace) -> Run:
    return Run(start=args.start, count=args.count, jobs=args.jobs, executor=args.executor, address=args.address,
               progress=args.progress or (sys.stderr.isatty() and args.count > 1))


def _build_generate(p: argparse.ArgumentParser, game: Game) -> None:
    kinds = service.puzzle_kinds(game)
    p.add_argument("--kind", choices=kinds or None, default=kinds[0] if kinds else None,
                   help=f"puzzle kind (default {kinds[0] if kinds else 'none'})")
    p.add_argument("--difficulty", choices=("easy", "medium", "hard"), default="medium")
    p.add_argument("--id", default=None, help="regenerate exactly this puzzle (its id from an earlier run)")
    p.add_argument("--svg", default=None, metavar="DIR", help="also write one SVG per puzzle and an answers page")
    _add_run_args(p)
    add_verb_options(p, game, "generate")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        if args.id is not None:
            request = service.puzzle_of_id(args.id, g, "--id")
        else:
            kind, difficulty = service.puzzle_kind(g, args.kind, args.difficulty, verb_options(g, "generate", args),
                                                   COMMAND_LINE)
            if difficulty != args.difficulty:  # a kind with a grade of its own (Memorinth's escape-in-K)
                sys.stderr.write(f"note: every {kind} puzzle is {difficulty}: making {difficulty} puzzles "
                                 f"(not {args.difficulty})\n")
            request = service.GenerateRequest(game=g, kind=kind, difficulty=difficulty, seed=args.seed,
                                              run=_run_of(args))
            service.check_run_of(args.seed, request.run)
        puzzles = []
        for found in service.run(request, service.context(request)):
            if args.json:
                print_json(found.puzzle)
            else:
                sys.stdout.write(f"{found.puzzle['id']}\n{found.text}\n")
            sys.stdout.flush()
            if args.svg:
                puzzles.append(found.puzzle)
        if args.svg:
            from solver.drawing import write_puzzle_sheets  # lazy: start-up (xml.sax loads urllib)
            write_puzzle_sheets(request.game, puzzles, args.svg)
        return 0

    p.set_defaults(run=run)


def _build_check(p: argparse.ArgumentParser, game: Game) -> None:
    p.add_argument("puzzle", metavar="PUZZLE")
    p.add_argument("answer", metavar="ANSWER")
    p.add_argument("--json", action="store_true")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        request = service.CheckRequest(game=g, puzzle=puzzle_from_arg(g, args.puzzle),
                                       answer=read_input_arg(args.answer, "ANSWER"))
        verdict = service.answer(request)
        if args.json:
            print_json(verdict.body)
        else:
            sys.stdout.write(f"{'correct' if verdict.correct else 'not correct'}: {verdict.body['message']}\n")
            if verdict.body.get("puzzleError"):
                sys.stdout.write(f"note: {verdict.body['puzzleError']} (checked against the proven optimum)\n")
        return 0 if verdict.correct else 4

    p.set_defaults(run=run)


def _build_review(p: argparse.ArgumentParser, game: Game) -> None:
    p.add_argument("record", metavar="RECORD")
    p.add_argument("--player", type=int, default=None, help="the player to review (default: the record's observer)")
    p.add_argument("--mistakes", type=int, default=3, help="how many biggest mistakes to list (default 3)")
    p.add_argument("--json", action="store_true")
    add_limit_args(p, time_help="time limit of the whole review in milliseconds (each decision gets an equal share "
                                "of the time left; default: the game's default time per decision)",
                   nodes_help="each decision's node (or sample) limit; the review is then the same on every machine")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        payload = read_input_arg(args.record, "RECORD")
        if not is_record(payload):
            raise InvalidInputError("RECORD", args.record, "expected a game record (docs/records.md)")
        request = service.review_request(g, payload, player=args.player, mistakes=args.mistakes,
                                         time_ms=args.time_ms, nodes=args.nodes, seed=args.seed, names=COMMAND_LINE)
        result = service.answer(request).body
        if args.json:
            print_json(result)
        else:
            from solver.review import render_review  # lazy: start-up (only a review prints one)
            sys.stdout.write(render_review(result))
        return 0

    p.set_defaults(run=run)


def _build_selfplay(p: argparse.ArgumentParser, game: Game) -> None:
    policies, default = service.selfplay_policies(game), service.selfplay_default(game)
    p.add_argument("--policies", default=",".join(default) or None,
                   help=f"comma-separated policies ({', '.join(policies) or 'none'}); default "
                        f"{','.join(default) or 'none'}")
    p.add_argument("--summary", action="store_true", help="print only the summary")
    _add_run_args(p)
    add_verb_options(p, game, "selfplay")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        from solver.selfplay import render_game, render_summary, summarize  # lazy: start-up (only self-play)
        g = game_from_args(game, args)
        request = service.selfplay_request(g, args.policies, seed=args.seed, run_=_run_of(args),
                                           options=verb_options(g, "selfplay", args), names=COMMAND_LINE)
        results = []
        for found in service.run(request, service.context(request)):
            results.append(found.body)
            if not args.summary:
                if args.json:
                    print_json(found.body)
                else:
                    sys.stdout.write(render_game(found.body))
                sys.stdout.flush()
        summary = summarize(results)
        if args.json:
            print_json({"summary": summary})
        else:
            sys.stdout.write(render_summary(summary))
        return 0

    p.set_defaults(run=run)


_Build = Callable[[argparse.ArgumentParser, Game], None]
#: verb -> (its help, its description (the help when empty), what builds its arguments and run)
VERBS: dict[str, tuple[str, str, _Build]] = {
    "new": ("deal a new game, or start a real table as one player",
            "Deal a new game with --seed (print the full state, or with --player N that player's view of it), or "
            "with --table --player N start a real table: the view of player N before anything is dealt, to which "
            "the cards and moves are applied as they happen.", _build_new),
    "show": ("describe a position (or one player's view of it), as text or a picture", "", _build_show),
    "view": ("what one player knows: their view of a position",
             "Print player N's view of STATE: everything that player has seen, counts of what they have not, and "
             "the public history. Hints, legal-moves and apply accept it wherever they accept a state.", _build_view),
    "apply": ("advance a state or a view by moves and observed outcomes",
              "Apply MOVE... (every player's moves and the chance outcomes, as move strings: "
              "docs/formats/<game>.md) to STATE or VIEW and print the new position. On a view, outcomes the "
              "observer cannot see are entered as '?'. With --record FILE the moves are appended to that game "
              "record (created with STATE as its start when missing).", _build_apply),
    "legal-moves": ("list what may be entered next (moves, or outcomes on a view)", "", _build_legal_moves),
    "hint": ("rank the moves of the player to act, from what that player knows",
             "Rank the moves of the player to act (or --player), using only that player's view unless "
             "--full-information is given. STATE is " + STATE_HELP + ".", _build_hint),
    "solve": ("the game's optimal search, with its proof (docs/formats/<game>.md)", "", _build_solve),
    "score": ("where a position stands: scores, status, result", "", _build_score),
    "generate": ("puzzles with proven solutions, one per index of a seeded run",
                 "Generate puzzles; each has a proven unique solution and a difficulty grade. Puzzle i of a run uses "
                 "its own random stream, so '--id ID' regenerates any one of them.", _build_generate),
    "check": ("check an answer to a puzzle (exit 4 when not correct)",
              "PUZZLE is one puzzle from 'generate --json' (a file, '-' or inline JSON) or its id; ANSWER is the "
              "answer in the puzzle's answer format (docs/formats/<game>.md). The answer is re-proved from the "
              "puzzle's position, never taken from the file.", _build_check),
    "review": ("judge one player's decisions in a game record, biggest mistakes first",
               "Replay RECORD (docs/records.md) and judge every decision of --player from what that player knew at "
               "the time: the move played, the hint's best move and the value lost, with the biggest mistakes "
               "first.", _build_review),
    "selfplay": ("play seeded games between policies: one result per game, and a summary",
                 "Play games between policies; game i uses its own random stream from --seed. Policies that play "
                 "the same deal are compared paired. --summary prints only the summary (win rates and score "
                 "differences with 95%% intervals).", _build_selfplay),
}
