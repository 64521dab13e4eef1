"""What a game declares for the front doors, as data: verb options, its own commands and its demo.

A game never builds a command-line parser, prints, or reads a file a user names: it declares

- :class:`Option`: an extra option of a shared verb (``--max-depth`` on the command line, ``maxDepth`` in an
  engine query's ``options``);
- :class:`Command` with its :class:`Argument` s: one of the game's own sub-commands (Aetherya ``optimize``,
  Mnemonic ``odds``), whose ``run(game, values)`` returns a JSON-able result and whose ``render(result)`` turns
  it into text for a person;
- :class:`Example`: one command line that ``memory-solver demo`` runs.

The command line (``solver/commands.py``) turns these into ``argparse`` parsers; the engine reads the options.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.validate import as_bool, as_choice, as_int, as_number, as_str


@dataclass(frozen=True)
class Option:
    """A verb option a game adds (``--max-depth`` on the command line, ``maxDepth`` in the engine)."""

    key: str
    flag: str
    kind: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    lo: float | None = None
    hi: float | None = None
    #: False for a command-line-only option (one that names a local file, such as Embers ``new --campaign``):
    #: the engine refuses it in a query's ``options``
    engine: bool = True
    #: turns the checked value into what the service takes (``"1,2"`` -> ``(1, 2)``); errors name the field
    parse: Callable[[Any, str], Any] | None = None

    def check(self, value: Any, field: str | None = None) -> Any:
        """Validate ``value`` (already parsed from JSON or the command line); errors name ``field``."""
        field = field or self.key
        if self.kind is bool:
            value = as_bool(value, field)
        elif self.kind is int:
            value = as_int(value, field, None if self.lo is None else int(self.lo),
                           None if self.hi is None else int(self.hi))
        elif self.kind is float:
            value = as_number(value, field, self.lo, self.hi)
        else:
            value = as_str(value, field)
        if self.choices is not None:
            value = as_choice(value, field, self.choices)
        if self.parse is not None:
            value = self.parse(value, field)
        return value


@dataclass(frozen=True)
class Argument:
    """One argument of a game's own command, as ``argparse`` would take it.

    ``flags`` is ``("cards",)`` for a positional or ``("--time-ms",)`` for an option; ``dest`` defaults to
    argparse's (``time_ms``). ``kind`` is ``str``, ``int``, ``float``, ``bool`` (a flag that is set or not) or
    :class:`pathlib.Path` (a file the command itself reads or writes, passed as a ``Path``). ``input=True``
    marks a position or puzzle that the command line reads first (a JSON file, ``-``, inline JSON or the
    game's notation) and hands to ``run`` already decoded.
    """

    flags: tuple[str, ...]
    help: str = ""
    kind: type = str
    default: Any = None
    choices: tuple[Any, ...] | None = None
    nargs: str | int | None = None
    required: bool = False
    metavar: str | None = None
    dest: str | None = None
    input: bool = False

    @property
    def key(self) -> str:
        """The name ``run`` finds the value under."""
        if self.dest:
            return self.dest
        name = next((f for f in self.flags if f.startswith("--")), self.flags[0])
        return name.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class Command:
    """One of a game's own sub-commands (``memory-solver aetherya optimize ...``).

    ``run(game, values)`` gets the game (configured by ``--game`` and the parameter flags when
    ``game_flags`` is true) and a dict of the arguments' values by :attr:`Argument.key`; it returns a
    JSON-able result, printed as JSON with ``--json`` or as ``render(result)`` otherwise (``render`` may
    return ``None`` for the generic ``key: value`` lines). A command with ``subcommands`` has no ``run`` of
    its own. ``exclusive`` lists groups of argument keys of which at most one (exactly one when the group's
    first entry is ``"!"``) may be given. ``exit_status(result)`` sets the exit status (0 by default).
    """

    name: str
    help: str
    arguments: tuple[Argument, ...] = ()
    run: Callable[[Any, dict[str, Any]], Any] | None = None
    render: Callable[[Any], str | None] | None = None
    description: str = ""
    subcommands: tuple[Command, ...] = ()
    exclusive: tuple[tuple[str, ...], ...] = ()
    game_flags: bool = False
    json_flag: bool = True
    exit_status: Callable[[Any], int] | None = None


@dataclass(frozen=True)
class Example:
    """A command line ``memory-solver demo`` runs: ``argv`` after ``memory-solver <game>``.

    The token ``{previous}`` in ``argv`` stands for the previous example's standard output, stripped (a demo
    deals a game, then hints it).
    """

    title: str
    argv: tuple[str, ...]
    note: str = ""


__all__ = ["Argument", "Command", "Example", "Option", "Path"]
