"""The verbs every game shares on the command line, built once (``docs/commands.md``).

``memory-solver <game> VERB ...`` for ``new``, ``show``, ``view``, ``apply``,
``legal-moves``, ``hint``, ``solve``, ``score``, ``generate``, ``check``,
``review`` and ``selfplay``: the same flags in every game, the game's own
parameters as flags (``--deck FILE``, ``--width 4``) and ``--game SPEC``.
``--json`` prints the machine form; without it, text for a person. A game adds
its own extra commands (``optimize``, ``odds``, ``place``, ``deck``,
``campaign``) through :meth:`Game.add_cli`; no game module imports
``solver.cli``.

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
from typing import Any, NoReturn, TextIO

from solver.errors import InvalidInputError, SolverError, UnsupportedActionError
from solver.game import VIEW_PREFIX, Game, State, View
from solver.options import Argument, Command
from solver.results import render_hint
from solver.search import Limits, SearchContext
from solver.validate import decode_json
from solver import contract

COMMON_VERBS = ("new", "show", "view", "apply", "legal-moves", "hint", "solve", "score", "generate", "check",
                "review", "selfplay")
#: longest input file or stdin the command line reads (a position or record is far smaller)
MAX_INPUT_BYTES = 64 * 1024 * 1024


class UsageError(Exception):
    """A bad command line (exit status 2)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and an exception, not a usage dump."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


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
        from solver.record import looks_like_record_lines, record_from_lines
        if looks_like_record_lines(stripped):
            return record_from_lines(stripped, field).to_json()
        return decode_json(stripped, field)
    return stripped


def print_json(obj: Any, out: TextIO | None = None) -> None:
    """Print one JSON object on one line."""
    (out or sys.stdout).write(json.dumps(obj, allow_nan=False) + "\n")


def add_limit_args(parser: argparse.ArgumentParser, seed: bool = True) -> None:
    """``--time-ms``, ``--nodes`` and (optionally) ``--seed``."""
    parser.add_argument("--time-ms", type=int, default=None, help="time limit in milliseconds")
    parser.add_argument("--nodes", type=int, default=None, help="node (or sample) limit; the answer is then the same "
                                                                "on every machine")
    if seed:
        parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")


def limits_from_args(args: argparse.Namespace) -> Limits:
    """The ``--time-ms`` and ``--nodes`` limits."""
    given = {k: v for k, v in (("time_ms", getattr(args, "time_ms", None)), ("nodes", getattr(args, "nodes", None)))
             if v is not None}
    try:
        return Limits.from_json(given, "limits")
    except InvalidInputError as exc:  # name the flag the user typed
        flag = "--time-ms" if exc.field == "limits.time_ms" else "--nodes"
        raise InvalidInputError(flag, exc.value, exc.problem) from None


def context_from_args(game: Game, args: argparse.Namespace) -> SearchContext:
    """A search context from ``--time-ms``, ``--nodes`` and ``--seed``.

    With ``--nodes`` and no ``--time-ms``, no default time cap applies, so the
    answer is the same on every machine.
    """
    limits = limits_from_args(args)
    seed = getattr(args, "seed", 0)
    if seed < 0 or seed >= 2**63:
        raise InvalidInputError("--seed", seed, "must be between 0 and 2**63-1")
    return SearchContext(limits=default_limits(game, limits), seed=seed)


def default_limits(game: Game, limits: Limits) -> Limits:
    """A node budget alone runs to its end; otherwise the game's default time applies."""
    if limits.nodes is not None and limits.time_ms is None:
        return limits
    return limits.with_defaults(game.default_time_ms)


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


# ---------------------------------------------------------------------- game flags
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
    from solver.registry import load_game
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
    """The extra options a game declares for ``verb`` (:attr:`Game.VERB_OPTIONS`)."""
    for option in contract.verb_options(game, verb):
        if option.kind is bool:
            parser.add_argument(option.flag, dest=f"opt_{option.key}", action="store_true", help=option.help)
        else:
            parser.add_argument(option.flag, dest=f"opt_{option.key}", type=option.kind, default=None,
                                choices=option.choices, help=f"{option.help} (default {option.default})")


def verb_options(game: Game, verb: str, args: argparse.Namespace) -> dict[str, Any]:
    """The values of the game's extra options for ``verb`` (only those given)."""
    out: dict[str, Any] = {}
    for option in contract.verb_options(game, verb):
        value = getattr(args, f"opt_{option.key}", None)
        if value is None or (option.kind is bool and value is False):
            continue
        out[option.key] = option.check(value, option.flag)
    return out


def options_from_json(game: Game, verb: str, value: Any, field: str = "options") -> dict[str, Any]:
    """The engine's per-query ``options`` object, checked against the game's options for ``verb``."""
    from solver.validate import as_object, join
    if value is None:
        return {}
    obj = as_object(value, field)
    known = {option.key: option for option in contract.verb_options(game, verb)}
    out = {}
    for key, item in obj.items():
        if key not in known or not known[key].engine:
            allowed = ", ".join(sorted(k for k, o in known.items() if o.engine)) or "none"
            raise InvalidInputError(join(field, key), key, f"unknown option for {game.name} {verb} (known: {allowed})"
                                    + (" (a command-line option)" if key in known else ""))
        out[key] = known[key].check(item, join(field, key))
    return out


# ---------------------------------------------------------------------- positions
def read_position_arg(game: Game, text: str, field: str = "STATE") -> Any:
    """:func:`read_input_arg` for a position of ``game``: a word that is no file, ``-``, JSON or the start of the
    game's notation (:attr:`Game.NOTATION_START`) is named as a missing file, not parsed as a broken notation."""
    payload = read_input_arg(text, field)
    start = contract.notation_start(game)
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
    from solver.record import is_record, record_from_json
    payload = read_position_arg(game, text, field)
    if is_record(payload):
        return record_from_json(payload, field).final_position(game)
    return game.parse_position(payload, field)


def print_position(position: State | View, as_json: bool) -> None:
    """A position as its notation (one line) or, with ``--json``, its JSON."""
    if as_json:
        print_json(position.to_json())
    else:
        sys.stdout.write(position.to_notation() + "\n")


def _require_player(game: Game, player: int | None, flag: str = "--player") -> int:
    if player is None:
        raise InvalidInputError(flag, problem="missing: name the player (0 is the first)")
    if not 0 <= player < 16:
        raise InvalidInputError(flag, player, "expected a player number from 0")
    return player


# ---------------------------------------------------------------------- a game's own commands (solver.options)
def add_declared_commands(commands: argparse._SubParsersAction, game: Game) -> None:
    """The game's own sub-commands, built from the :class:`~solver.options.Command` data it declares."""
    for command in contract.commands(game):
        _add_declared(commands, game, command)


def _add_declared(commands: argparse._SubParsersAction, game: Game, command: Command) -> None:
    parser = commands.add_parser(command.name, help=command.help, description=command.description or command.help)
    if command.subcommands:
        sub = parser.add_subparsers(dest=f"{command.name}_action", metavar="ACTION", parser_class=Parser)
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


# ---------------------------------------------------------------------- the verbs
def add_common_verbs(commands: argparse._SubParsersAction, game: Game) -> None:
    """Add every shared verb that the game has not defined itself in :meth:`Game.add_cli`."""
    existing = set(commands.choices)
    for verb, builder in _BUILDERS.items():
        if verb not in existing:
            builder(commands, game)
            add_flag_aliases(commands.choices[verb], contract.flag_aliases(game, verb))


def add_flag_aliases(parser: argparse.ArgumentParser, aliases: dict[str, str]) -> None:
    """Old flag names (:attr:`Game.FLAG_ALIASES`) that set the same value as the flag each names."""
    for alias, target in aliases.items():
        action = next(a for a in parser._actions if target in a.option_strings)
        parser.add_argument(alias, dest=action.dest, type=action.type, choices=action.choices,
                            default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def _parser(commands: argparse._SubParsersAction, game: Game, verb: str, help_text: str,
            description: str | None = None) -> argparse.ArgumentParser:
    aliases = [a for a in contract.verb_aliases(game, verb) if a not in commands.choices]
    description = description or help_text
    if contract.verb_notes(game, verb):
        description += " " + contract.verb_notes(game, verb)
    parser = commands.add_parser(verb, help=help_text, description=description, aliases=aliases)
    return parser


STATE_HELP = ("a JSON file, '-' for stdin, inline JSON, the game's notation (a view's starts with 'view:N') or a game "
              "record (its final position)")


def _add_new(commands: argparse._SubParsersAction, game: Game) -> None:
    p = _parser(commands, game, "new", "deal a new game, or start a real table as one player",
                "Deal a new game with --seed (print the full state, or with --player N that player's view of it), "
                "or with --table --player N start a real table: the view of player N before anything is dealt, to "
                "which the cards and moves are applied as they happen.")
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
        if args.seed < 0 or args.seed >= 2**63:
            raise InvalidInputError("--seed", args.seed, "must be between 0 and 2**63-1")
        options = verb_options(g, "new", args)
        if args.table:
            position: State | View = g.new_table(_require_player(g, args.player), **options)
        else:
            state = g.new_game(args.seed, **options)
            position = state if args.player is None else state.view(_require_player(g, args.player))
        if args.record:
            from solver.record import Record
            Record.start_of(position).write(args.record)
        print_position(position, args.json)
        return 0

    p.set_defaults(run=run)


def _add_show(commands: argparse._SubParsersAction, game: Game) -> None:
    p = _parser(commands, game, "show", "describe a position (or one player's view of it), as text or a picture")
    p.add_argument("state", metavar="STATE", help=STATE_HELP)
    p.add_argument("--player", type=int, default=None, help="show only what this player knows")
    p.add_argument("--svg", action="store_true", help="print an SVG picture instead of text")
    p.add_argument("--hint", action="store_true", help="draw (or list) the hint's best moves on the picture")
    p.add_argument("--json", action="store_true", help="print the position's JSON (the view's with --player)")
    add_limit_args(p)
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        position = position_from_arg(g, args.state)
        if args.player is not None:
            position = position.view(args.player)
        hint = None
        if args.hint:
            hint = contract.hint(g, position, context_from_args(g, args), top=3)
        if args.svg:
            from solver.drawing import svg
            sys.stdout.write(svg(g, position, hint=hint))
            return 0
        if args.json:
            print_position(position, True)
            return 0
        sys.stdout.write(contract.describe(g, position))
        if hint is not None:
            render_hint(hint, sys.stdout)
        return 0

    p.set_defaults(run=run)


def _add_view(commands: argparse._SubParsersAction, game: Game) -> None:
    p = _parser(commands, game, "view", "what one player knows: their view of a position",
                "Print player N's view of STATE: everything that player has seen, counts of what they have not, and "
                "the public history. Hints, legal-moves and apply accept it wherever they accept a state.")
    p.add_argument("state", metavar="STATE", help=STATE_HELP)
    p.add_argument("--player", type=int, required=True, help="the observing player")
    p.add_argument("--json", action="store_true", help="print JSON instead of the notation")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        print_position(position_from_arg(g, args.state).view(_require_player(g, args.player)), args.json)
        return 0

    p.set_defaults(run=run)


def _add_apply(commands: argparse._SubParsersAction, game: Game) -> None:
    p = _parser(commands, game, "apply", "advance a state or a view by moves and observed outcomes",
                "Apply MOVE... (every player's moves and the chance outcomes, as move strings: "
                "docs/formats/<game>.md) to STATE or VIEW and print the new position. On a view, outcomes the "
                "observer cannot see are entered as '?'. With --record FILE the moves are appended to that game "
                "record (created with STATE as its start when missing).")
    p.add_argument("state", metavar="STATE", help=STATE_HELP)
    p.add_argument("moves", metavar="MOVE", nargs="+")
    p.add_argument("--record", default=None, metavar="FILE", help="append the moves to this game record")
    p.add_argument("--comment", default=None, help="a comment stored with the last move in the record")
    p.add_argument("--json", action="store_true", help="print JSON instead of the notation")
    p.add_argument("--notation", action="store_true", help=argparse.SUPPRESS)  # the default; kept for old scripts
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        from solver.record import append_to_file, is_record, record_from_json
        g = game_from_args(game, args)
        payload = read_position_arg(g, args.state, "STATE")
        start = record_from_json(payload, "STATE").final_position(g) if is_record(payload) \
            else g.parse_position(payload, "STATE")
        position = g.apply(start, list(args.moves), "MOVE")
        if args.record:
            append_to_file(args.record, g, start, list(args.moves), comment=args.comment)
        print_position(position, args.json)
        return 0

    p.set_defaults(run=run)


def _add_legal_moves(commands: argparse._SubParsersAction, game: Game) -> None:
    p = _parser(commands, game, "legal-moves", "list what may be entered next (moves, or outcomes on a view)")
    p.add_argument("state", metavar="STATE", help=STATE_HELP)
    p.add_argument("--json", action="store_true")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        g = game_from_args(game, args)
        moves = contract.legal_moves(g, position_from_arg(g, args.state))
        if args.json:
            print_json({"moves": moves})
        else:
            sys.stdout.write("\n".join(moves) + ("\n" if moves else ""))
        return 0

    p.set_defaults(run=run)


def _add_hint(commands: argparse._SubParsersAction, game: Game) -> None:
    p = _parser(commands, game, "hint", "rank the moves of the player to act, from what that player knows",
                "Rank the moves of the player to act (or --player), using only that player's view unless "
                "--full-information is given. STATE is " + STATE_HELP + ".")
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
        position = position_from_arg(g, args.state)
        if not 1 <= args.top <= 1000:
            raise InvalidInputError("--top", args.top, "must be between 1 and 1000")
        contract.prepare(g, "hint")
        result = contract.hint(g, position, context_from_args(g, args), top=args.top, player=args.player,
                        full_information=args.full_information, **verb_options(g, "hint", args))
        if args.json:
            print_json(result.to_json())
        else:
            text = contract.render_text(g, "hint", result)
            if text is None:
                render_hint(result, sys.stdout)
            else:
                sys.stdout.write(text)
        return 0

    p.set_defaults(run=run)


def _add_solve(commands: argparse._SubParsersAction, game: Game) -> None:
    p = _parser(commands, game, "solve", "the game's optimal search, with its proof (docs/formats/<game>.md)")
    p.add_argument("state", metavar="PROBLEM", help="the position or problem: " + STATE_HELP)
    p.add_argument("--json", action="store_true")
    add_limit_args(p)
    add_verb_options(p, game, "solve")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        from solver.record import is_record, record_from_json
        g = game_from_args(game, args)
        payload = read_position_arg(g, args.state, "PROBLEM")
        if is_record(payload):
            payload = record_from_json(payload, "PROBLEM").final_position(g)
        contract.prepare(g, "solve")
        result = contract.solve(g, payload, context_from_args(g, args), **verb_options(g, "solve", args))
        if args.json:
            print_json(result.to_json())
        else:
            text = contract.render_text(g, "solve", result)
            if text is None:
                render_mapping(result.to_json(), sys.stdout)
            else:
                sys.stdout.write(text)
        return 0

    p.set_defaults(run=run)


def _add_score(commands: argparse._SubParsersAction, game: Game) -> None:
    p = _parser(commands, game, "score", "where a position stands: scores, status, result")
    p.add_argument("state", metavar="STATE", help=STATE_HELP)
    p.add_argument("--json", action="store_true")
    add_verb_options(p, game, "score")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        from solver.record import is_record, record_from_json
        g = game_from_args(game, args)
        payload = read_position_arg(g, args.state, "STATE")
        if is_record(payload):
            payload = record_from_json(payload, "STATE").final_position(g)
        result = contract.score(g, payload, **verb_options(g, "score", args))
        _print_result(g, "score", result, args.json)
        return 0

    p.set_defaults(run=run)


def _print_result(game: Game, verb: str, result: Any, as_json: bool) -> None:
    if as_json:
        print_json(result)
        return
    text = contract.render_text(game, verb, result)
    if text is None:
        render_mapping(result, sys.stdout)
    else:
        sys.stdout.write(text)


def _add_scale_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=0, help="seed of the run (item i uses its own stream from it)")
    p.add_argument("--start", type=int, default=0, help="index of the first item (resume an interrupted run)")
    p.add_argument("--count", type=int, default=1, help="number of items (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="local processes (default 1; the output is the same)")
    p.add_argument("--executor", choices=("local", "ray"), default="local",
                   help="local processes, or a Ray cluster (pip install 'memory-solver[ray]')")
    p.add_argument("--address", default=None, help="Ray cluster address (default: start a local one)")
    p.add_argument("--progress", action="store_true", help="a progress bar on stderr (default: when a terminal)")
    p.add_argument("--json", action="store_true", help="JSON lines, one item per line, in index order")


def _scale_config(args: argparse.Namespace) -> dict[str, Any]:
    from solver.scale import check_run
    check_run(args.seed, args.start, args.count, args.jobs, args.executor, args.address)
    show = args.progress or (sys.stderr.isatty() and args.count > 1)
    return {"jobs": args.jobs, "executor": args.executor, "address": args.address, "progress": show}


def _add_generate(commands: argparse._SubParsersAction, game: Game) -> None:
    p = _parser(commands, game, "generate", "puzzles with proven solutions, one per index of a seeded run",
                "Generate puzzles; each has a proven unique solution and a difficulty grade. Puzzle i of a run uses "
                "its own random stream, so '--id ID' regenerates any one of them.")
    kinds = contract.puzzle_kinds(game)
    p.add_argument("--kind", choices=kinds or None, default=kinds[0] if kinds else None,
                   help=f"puzzle kind (default {kinds[0] if kinds else 'none'})")
    p.add_argument("--difficulty", choices=("easy", "medium", "hard"), default="medium")
    p.add_argument("--id", default=None, help="regenerate exactly this puzzle (its id from an earlier run)")
    p.add_argument("--svg", default=None, metavar="DIR", help="also write one SVG per puzzle and an answers page")
    _add_scale_args(p)
    add_verb_options(p, game, "generate")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        from solver.puzzles import generate, parse_puzzle_id
        g = game_from_args(game, args)
        if args.id is not None:
            spec, kind, difficulty, seed, index = parse_puzzle_id(args.id, "--id", g)
            from solver.registry import load_game
            g = load_game(spec, "--id")
            items = generate(g, kind, difficulty, seed=seed, start=index, count=1)
        else:
            if not kinds:
                raise UnsupportedActionError("action", "generate", f"{g.name} has no puzzles")
            kind, difficulty = contract.puzzle_request(g, args.kind, args.difficulty, **verb_options(g, "generate", args))
            items = generate(g, kind, difficulty, seed=args.seed, start=args.start, count=args.count,
                             **_scale_config(args))
        puzzles = []
        for puzzle in items:
            if args.json:
                print_json(puzzle)
            else:
                sys.stdout.write(f"{puzzle['id']}\n{contract.describe_puzzle(g, puzzle)}\n")
            sys.stdout.flush()
            if args.svg:
                puzzles.append(puzzle)
        if args.svg:
            from solver.drawing import write_puzzle_sheets
            write_puzzle_sheets(g, puzzles, args.svg)
        return 0

    p.set_defaults(run=run)


def _add_check(commands: argparse._SubParsersAction, game: Game) -> None:
    p = _parser(commands, game, "check", "check an answer to a puzzle (exit 4 when not correct)",
                "PUZZLE is one puzzle from 'generate --json' (a file, '-' or inline JSON) or its id; ANSWER is "
                "the answer in the puzzle's answer format (docs/formats/<game>.md). The answer is re-proved from "
                "the puzzle's position, never taken from the file.")
    p.add_argument("puzzle", metavar="PUZZLE")
    p.add_argument("answer", metavar="ANSWER")
    p.add_argument("--json", action="store_true")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        from solver.puzzles import check, puzzle_from_arg
        g = game_from_args(game, args)
        puzzle = puzzle_from_arg(g, args.puzzle)
        answer = read_input_arg(args.answer, "ANSWER")
        verdict = check(g, puzzle, answer)
        if args.json:
            print_json(verdict)
        else:
            sys.stdout.write(f"{'correct' if verdict['correct'] else 'not correct'}: {verdict['message']}\n")
            if verdict.get("puzzleError"):
                sys.stdout.write(f"note: {verdict['puzzleError']} (checked against the proven optimum)\n")
        return 0 if verdict["correct"] else 4

    p.set_defaults(run=run)


def _add_review(commands: argparse._SubParsersAction, game: Game) -> None:
    p = _parser(commands, game, "review", "judge one player's decisions in a game record, biggest mistakes first",
                "Replay RECORD (docs/records.md) and judge every decision of --player from what that player knew at "
                "the time: the move played, the hint's best move and the value lost, with the biggest mistakes "
                "first.")
    p.add_argument("record", metavar="RECORD")
    p.add_argument("--player", type=int, default=None, help="the player to review (default: the record's observer)")
    p.add_argument("--mistakes", type=int, default=3, help="how many biggest mistakes to list (default 3)")
    p.add_argument("--json", action="store_true")
    add_limit_args(p)
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        from solver.record import record_from_json, is_record
        from solver.review import render_review, review
        g = game_from_args(game, args)
        payload = read_input_arg(args.record, "RECORD")
        if not is_record(payload):
            raise InvalidInputError("RECORD", args.record, "expected a game record (docs/records.md)")
        record = record_from_json(payload, "RECORD")
        result = review(g, record, player=args.player, limits=default_limits(g, limits_from_args(args)),
                        seed=args.seed, mistakes=args.mistakes)
        if args.json:
            print_json(result)
        else:
            sys.stdout.write(render_review(result))
        return 0

    p.set_defaults(run=run)


def _add_selfplay(commands: argparse._SubParsersAction, game: Game) -> None:
    p = _parser(commands, game, "selfplay", "play seeded games between policies: one result per game, and a summary",
                "Play games between policies; game i uses its own random stream from --seed. Policies that play the "
                "same deal are compared paired. --summary prints only the summary (win rates and score differences "
                "with 95%% intervals).")
    policies = contract.selfplay_policies(game)
    p.add_argument("--policies", default=",".join(contract.selfplay_default(game)) or None,
                   help=f"comma-separated policies ({', '.join(policies) or 'none'}); default "
                        f"{','.join(contract.selfplay_default(game)) or 'none'}")
    p.add_argument("--summary", action="store_true", help="print only the summary")
    _add_scale_args(p)
    add_verb_options(p, game, "selfplay")
    add_game_args(p, game)

    def run(args: argparse.Namespace) -> int:
        from solver.selfplay import parse_policies, render_game, render_summary, selfplay, summarize
        g = game_from_args(game, args)
        chosen = parse_policies(g, args.policies, "--policies")
        results = []
        for item in selfplay(g, chosen, seed=args.seed, start=args.start, count=args.count,
                             options=verb_options(g, "selfplay", args), **_scale_config(args)):
            results.append(item)
            if not args.summary:
                if args.json:
                    print_json(item)
                else:
                    sys.stdout.write(render_game(item))
                sys.stdout.flush()
        summary = summarize(results)
        if args.json:
            print_json({"summary": summary})
        else:
            sys.stdout.write(render_summary(summary))
        return 0

    p.set_defaults(run=run)


_BUILDERS: dict[str, Callable[[argparse._SubParsersAction, Game], None]] = {
    "new": _add_new, "show": _add_show, "view": _add_view, "apply": _add_apply, "legal-moves": _add_legal_moves,
    "hint": _add_hint, "solve": _add_solve, "score": _add_score, "generate": _add_generate, "check": _add_check,
    "review": _add_review, "selfplay": _add_selfplay,
}
