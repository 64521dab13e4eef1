"""The game and state contract every game implements (after OpenSpiel's ``spiel.h``).

A :class:`Game` describes a rule set (with parameters) and serves the
user-facing requests (``hint``, ``solve``, ``score``, ``legal_moves``, puzzles,
self-play, pictures). A :class:`State` is one full position: it lists legal
actions, applies them, clones itself, exposes chance outcomes, renders what one
player may see, and re-samples the hidden information consistent with that
view. A :class:`View` is what one player knows (OpenSpiel's information state):
a first-class position that advances with the moves and outcomes that player
observes, and from which full states are sampled.

A *position* is either a :class:`State` or a :class:`View`; every service that
makes sense on what a player knows accepts both.

Actions are integers so that compiled kernels can work with them; every state
also turns an action into a readable move string and parses one back, with
errors that quote the move.
"""

from __future__ import annotations

import argparse
import enum
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TextIO

import numpy as np

from solver.errors import (IllegalMoveError, InvalidInputError, InvalidMoveError,
                           UnknownGameError, UnsupportedActionError)
from solver.options import Option  # noqa: F401  (re-exported while the games move to solver.options)
from solver.results import HintResult, SolveResult
from solver.search import SearchContext

CHANCE_PLAYER = -1
TERMINAL_PLAYER = -4


class Utility(enum.Enum):
    """How the players' returns relate (OpenSpiel's ``GameType::Utility``)."""

    ZERO_SUM = "zero_sum"
    CONSTANT_SUM = "constant_sum"
    GENERAL_SUM = "general_sum"
    IDENTICAL = "identical"  # cooperative: everybody gets the same return


class Information(enum.Enum):
    """Whether players see the whole state."""

    PERFECT = "perfect"
    IMPERFECT = "imperfect"


@dataclass(frozen=True)
class Parameter:
    """A game parameter: its default, its type and what it means."""

    default: Any
    kind: type
    doc: str
    choices: tuple[Any, ...] | None = None
    lo: int | None = None
    hi: int | None = None
    #: the value names a data file (read only from allowed places on a server: ``solver/datafiles.py``)
    data_file: bool = False

    def check(self, name: str, value: Any) -> Any:
        """Validate and coerce ``value``; the error names ``game.<name>``."""
        field = f"game.{name}"
        if self.kind is bool:
            if isinstance(value, str) and value.lower() in ("true", "false"):
                value = value.lower() == "true"
            if not isinstance(value, bool):
                raise UnknownGameError(field, value, "expected true or false")
        elif self.kind is int:
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise UnknownGameError(field, value, "expected an integer") from None
            if isinstance(value, bool) or not isinstance(value, int):
                raise UnknownGameError(field, value, "expected an integer")
            if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
                raise UnknownGameError(field, value, f"must be between {self.lo} and {self.hi}")
        elif self.kind is str and not isinstance(value, str):
            raise UnknownGameError(field, value, "expected a string")
        if self.choices is not None and value not in self.choices:
            raise UnknownGameError(field, value, f"expected one of {', '.join(map(str, self.choices))}")
        if self.data_file:
            from solver.datafiles import check_data_file
            value = check_data_file(field, value)
        return value


class State(ABC):
    """One position of a game. Mutable: ``apply_action`` changes it in place."""

    def __init__(self, game: Game) -> None:
        self.game = game

    # -- whose turn, what can be done -------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The player to act, ``CHANCE_PLAYER`` at chance nodes, ``TERMINAL_PLAYER`` at the end."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The legal actions of the player to act (or chance outcomes), sorted ascending."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Play ``action``; raises :class:`IllegalMoveError` if it is not legal here."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """A readable, parseable move string for ``action`` in this position."""

    def parse_move(self, text: str, field: str = "move") -> int:
        """The action whose move string is ``text``; quotes ``text`` when it is not legal."""
        if not isinstance(text, str):
            raise InvalidMoveError(field, text, "expected a move string")
        for action in self.legal_actions():
            if self.action_to_string(action) == text:
                return action
        legal = [self.action_to_string(a) for a in self.legal_actions()]
        shown = ", ".join(legal[:8]) + (f", ... ({len(legal)} in all)" if len(legal) > 8 else "")
        raise IllegalMoveError(field, text, f"not a legal move in {self.to_notation()!r} (legal: {shown or 'none'})")

    def apply_move(self, text: str, field: str = "move") -> None:
        """Parse ``text`` and play it."""
        self.apply_action(self.parse_move(text, field))

    # -- chance ---------------------------------------------------------------------
    def is_chance_node(self) -> bool:
        """True when the next action is drawn by chance."""
        return self.current_player() == CHANCE_PLAYER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(action, probability)]`` at a chance node (probabilities sum to 1)."""
        raise UnsupportedActionError("action", "chance_outcomes", "this state is not a chance node")

    # -- end of game ----------------------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each player's return (final score, or 1/0 for win/loss); meaningful when terminal."""

    # -- information ----------------------------------------------------------------
    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may know, as JSON: never a hidden card they have not seen."""

    def observation_string(self, player: int) -> str:
        """A readable rendering of :meth:`observation`."""
        import json
        return json.dumps(self.observation(player), sort_keys=True)

    @abstractmethod
    def resample_from_observation(self, player: int, rng: np.random.Generator) -> State:
        """A full state drawn uniformly from those consistent with ``player``'s observation."""

    # -- copies and serialisation ---------------------------------------------------
    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    def child(self, action: int) -> State:
        """A copy with ``action`` applied."""
        copy = self.clone()
        copy.apply_action(action)
        return copy

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state as JSON (round-trips through ``Game.state_from_json``)."""

    @abstractmethod
    def to_notation(self) -> str:
        """The full state in the game's compact notation (round-trips through ``Game.state_from_notation``)."""

    def __str__(self) -> str:
        return self.to_notation()

    # -- views ----------------------------------------------------------------------
    def default_observer(self) -> int:
        """The player a hint advises when none is named: the player to act."""
        player = self.current_player()
        if player < 0:
            what = "the game is over" if self.is_terminal() else "a chance outcome comes next"
            raise InvalidInputError("player", problem=f"no player is to act here ({what}): name the player to advise")
        return player

    def view(self, player: int) -> View:
        """What ``player`` knows in this position, as a :class:`View` (``docs/formats/<game>.md``).

        ``self.view(p).resample(rng)`` draws the same distribution as
        :meth:`resample_from_observation`; a hint for ``p`` on this state is by
        definition the hint on this view.
        """
        raise UnsupportedActionError("action", "view", f"{self.game.name} has no player views yet")

    def _repr_svg_(self) -> str | None:
        """The full-information picture, for notebooks (``None`` where the game draws nothing)."""
        try:
            return self.game.svg(self)
        except UnsupportedActionError:
            return None


VIEW_PREFIX = "view:"
"""A view's notation starts with ``view:N `` (``N`` the observer), then the game's view body."""


class View(ABC):
    """What one player (the *observer*) knows: their view of the game.

    A view holds everything the observer has seen, counts of what they have
    not, and the public history the rules let them remember. It is a position
    in its own right: it lists the moves that can be entered next (the
    observer's own decisions, the other players' moves as the observer sees
    them, and chance outcomes as they become known: ``draw H`` for one's own
    draw, ``draw ?`` for an opponent's), advances with them, and re-samples
    full states consistent with itself for the hint searches.

    Its JSON form carries ``"view": N``; its notation starts with ``view:N ``.
    """

    def __init__(self, game: Game, observer: int) -> None:
        self.game = game
        self.observer = observer

    @abstractmethod
    def current_player(self) -> int:
        """Who acts next: a player, ``CHANCE_PLAYER`` (an outcome is entered next) or ``TERMINAL_PLAYER``."""

    @abstractmethod
    def legal_moves(self) -> list[str]:
        """Every string that may be entered next, in a stable order.

        On the observer's turn, the observer's legal moves (the same strings a
        full state consistent with this view lists). On another player's turn,
        their moves as the observer sees them. At a chance event, the outcomes
        still possible given what the observer has seen, or the masked form
        (``?``) where the observer does not see the outcome.
        """

    @abstractmethod
    def apply_move(self, text: str, field: str = "move") -> None:
        """Advance with one entered move or outcome.

        A string that does not parse raises :class:`InvalidMoveError`; a move
        the rules forbid here, or an outcome that cannot happen given what the
        observer has seen (a ninth Dragon, a card already seen elsewhere),
        raises :class:`IllegalMoveError` naming ``field`` and the reason.
        """

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    def returns(self) -> list[float] | None:
        """Each player's return when the game is over and the view determines it, else ``None``."""
        return None

    @abstractmethod
    def resample(self, rng: np.random.Generator) -> State:
        """A full state drawn from those consistent with this view (uniformly unless the game documents otherwise)."""

    @abstractmethod
    def clone(self) -> View:
        """An independent copy."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The view as JSON, with ``"view": observer`` (round-trips through ``Game.view_from_json``)."""

    @abstractmethod
    def to_notation(self) -> str:
        """The view in the game's notation, starting with ``view:N `` (round-trips through ``Game.view_from_notation``)."""

    # -- conveniences shared by every game ----------------------------------------
    def view(self, player: int) -> View:
        """This view itself for its observer; other players' views cannot be derived from it."""
        if player != self.observer:
            raise InvalidInputError("player", player, f"this is player {self.observer}'s view; another player's "
                                                      "view needs the full state")
        return self.clone()

    def is_chance_node(self) -> bool:
        """True when the next thing entered is a chance outcome."""
        return self.current_player() == CHANCE_PLAYER

    def child(self, text: str) -> View:
        """A copy advanced by ``text``."""
        copy = self.clone()
        copy.apply_move(text)
        return copy

    def __str__(self) -> str:
        return self.to_notation()

    def _repr_svg_(self) -> str | None:
        """The observer's picture, for notebooks."""
        try:
            return self.game.svg(self)
        except UnsupportedActionError:
            return None


Position = State | View
"""Anything the services accept as a position: a full state or a player's view."""


class Game(ABC):
    """A rule set with its parameters, and the services the engine offers for it."""

    name: ClassVar[str]
    long_name: ClassVar[str]
    utility: ClassVar[Utility]
    information: ClassVar[Information]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    PARAMETERS: ClassVar[dict[str, Parameter]] = {}
    #: default hint/solve limits for interactive use
    default_time_ms: ClassVar[int] = 1000

    def __init__(self, **params: Any) -> None:
        values = {key: spec.default for key, spec in self.PARAMETERS.items()}
        for key, value in params.items():
            if key not in self.PARAMETERS:
                known = ", ".join(sorted(self.PARAMETERS)) or "none"
                raise UnknownGameError(f"game.{key}", value, f"unknown parameter of {self.name} (known: {known})")
            values[key] = self.PARAMETERS[key].check(key, value)
        self.params: dict[str, Any] = values

    def spec(self) -> str:
        """The game's name with its non-default parameters, e.g. ``forgotten(width=4)``."""
        changed = [f"{k}={v}" for k, v in sorted(self.params.items()) if v != self.PARAMETERS[k].default]
        return f"{self.name}({','.join(changed)})" if changed else self.name

    # -- configuration --------------------------------------------------------------
    #: the parameter ``--players`` sets (``None``: the player count is fixed)
    PLAYERS_PARAMETER: ClassVar[str | None] = None
    #: the parameter ``--mode`` sets (``None``: the game has one mode)
    MODE_PARAMETER: ClassVar[str | None] = None
    #: extra options per verb (``{"solve": (Option("maxDepth", "--max-depth", int, 30, "..."),)}``); the CLI
    #: turns them into flags, the engine reads them from the query's ``options`` object, and the service
    #: receives them as keyword arguments
    VERB_OPTIONS: ClassVar[dict[str, tuple[Option, ...]]] = {}
    #: other names a shared verb answers to on the command line (``{"apply": ("play",)}``: old scripts keep working)
    VERB_ALIASES: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: old flag names a game keeps working on a shared verb (``{"selfplay": {"--games": "--count"}}``): each
    #: alias sets the same value as the flag it names, and is hidden from ``--help``
    FLAG_ALIASES: ClassVar[dict[str, dict[str, str]]] = {}

    def configure(self, players: int | None = None, mode: str | None = None) -> Game:
        """This game with another player count or mode (``new --players N --mode M``)."""
        changes: dict[str, Any] = {}
        for value, param, flag in ((players, self.PLAYERS_PARAMETER, "players"), (mode, self.MODE_PARAMETER, "mode")):
            if value is None:
                continue
            if param is None:
                fixed = (f"is played by {self.min_players}" if self.min_players == self.max_players
                         else "has no such setting") if flag == "players" else "has a single mode"
                raise UnknownGameError(flag, value, f"{self.name} {fixed}")
            changes[param] = value
        if not changes:
            return self
        return type(self)(**{**self.params, **changes})

    # -- states ---------------------------------------------------------------------
    @abstractmethod
    def new_initial_state(self, seed: int) -> State:
        """A fresh game dealt with ``seed``."""

    @abstractmethod
    def state_from_json(self, obj: Any, field: str = "state") -> State:
        """Parse a JSON state; errors name the field below ``field``."""

    @abstractmethod
    def state_from_notation(self, text: str, field: str = "state") -> State:
        """Parse the compact notation."""

    def parse_state(self, payload: Any, field: str = "state") -> State:
        """A full state from a JSON object, a JSON text or a notation string (a view is refused)."""
        payload = _decode_json_text(payload, field)
        if isinstance(payload, State):
            return payload
        if _looks_like_view(payload):
            observer = payload.observer if isinstance(payload, View) else _view_observer(payload)
            raise InvalidInputError(field, _short(payload), f"this is player {observer}'s view; this request needs "
                                                            "the full state (every hidden card)")
        if isinstance(payload, str):
            return self.state_from_notation(payload, field)
        if isinstance(payload, dict):
            return self.state_from_json(payload, field)
        raise InvalidInputError(field, payload, "expected a JSON object or a notation string")

    def view_from_json(self, obj: Any, field: str = "state") -> View:
        """Parse a view's JSON (an object with ``"view": N``)."""
        raise UnsupportedActionError(field, "view", f"{self.name} has no player views yet")

    def view_from_notation(self, text: str, field: str = "state") -> View:
        """Parse a view's notation (``view:N ...``)."""
        raise UnsupportedActionError(field, "view", f"{self.name} has no player views yet")

    def parse_position(self, payload: Any, field: str = "state") -> State | View:
        """A state or a view from JSON (a view carries ``"view": N``), a JSON text or the notation."""
        payload = _decode_json_text(payload, field)
        if isinstance(payload, (State, View)):
            return payload
        if isinstance(payload, str) and payload.lstrip().startswith(VIEW_PREFIX):
            return self.view_from_notation(payload.strip(), field)
        if isinstance(payload, dict) and "view" in payload:
            return self.view_from_json(payload, field)
        return self.parse_state(payload, field)

    def new_game(self, seed: int) -> State:
        """A dealt game (``new --seed S``): by default :meth:`new_initial_state`."""
        return self.new_initial_state(seed)

    def new_table(self, player: int) -> View:
        """A real table's start as ``player`` sees it, before anything is dealt (``new --table --player N``)."""
        raise UnsupportedActionError("action", "new --table", f"{self.name} has no real-table start yet")

    def apply(self, position: State | View, moves: list[str], field: str = "moves") -> State | View:
        """A copy of ``position`` advanced by ``moves`` (moves, and chance outcomes as move strings)."""
        current = position.clone()
        for i, text in enumerate(moves):
            if current.is_terminal():
                raise IllegalMoveError(f"{field}[{i}]", text, "the game is already over")
            current.apply_move(text, f"{field}[{i}]")
        return current

    # -- services -------------------------------------------------------------------
    def hint(self, position: Any, ctx: SearchContext, *, top: int = 3, player: int | None = None,
             full_information: bool = False, **options: Any) -> HintResult:
        """Rank the moves of ``player`` (default: the player to act), from what that player knows.

        A hint on a state for player ``p`` is, by definition, the hint on
        ``state.view(p)``: both call :meth:`hint_view` with the same view, budget
        and seed, so they are identical. ``full_information`` analyses the full
        state instead (:meth:`hint_full`) and says so in ``rootInfo``.
        """
        position = self.parse_position(position)
        if isinstance(position, View):
            if full_information:
                raise InvalidInputError("fullInformation", True, "a view has no hidden cards to reveal; give the "
                                                                 "full state for a full-information analysis")
            if player is not None and player != position.observer:
                position = position.view(player)   # refused unless the rules let one view give another's
            return self.hint_view(position, ctx, top=top, **options)
        if full_information:
            return self.hint_full(position, ctx, top=top, player=player, **options)
        who = position.default_observer() if player is None else player
        return self.hint_view(position.view(who), ctx, top=top, **options)

    def hint_view(self, view: View, ctx: SearchContext, *, top: int = 3, **options: Any) -> HintResult:
        """Rank the moves of ``view.observer`` from that view alone (hidden parts re-sampled from it)."""
        raise UnsupportedActionError("action", "hint", f"{self.name} offers no hints")

    def hint_full(self, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
                  **options: Any) -> HintResult:
        """A full-information analysis (``rootInfo.fullInformation`` true)."""
        raise UnsupportedActionError("fullInformation", True, f"{self.name} offers no full-information analysis")

    def solve(self, payload: Any, ctx: SearchContext) -> SolveResult:
        """Solve the game's optimisation problem described by ``payload``."""
        raise UnsupportedActionError("action", "solve", f"{self.name} offers no solver")

    def score(self, payload: Any) -> dict[str, Any]:
        """Score a position described by ``payload``."""
        raise UnsupportedActionError("action", "score", f"{self.name} offers no scoring")

    def legal_moves(self, payload: Any) -> list[str]:
        """What may be entered next in the state or view described by ``payload``."""
        position = self.parse_position(payload)
        if isinstance(position, View):
            return position.legal_moves()
        return [position.action_to_string(a) for a in position.legal_actions()]

    # -- puzzles (``docs/formats/<game>.md``; ids and batches in ``solver/puzzles.py``) -------------
    #: puzzle kinds ``generate --kind`` offers; the first is the default
    PUZZLE_KINDS: ClassVar[tuple[str, ...]] = ()
    #: the game spec the web board makes a kind's puzzles on, for kinds the default game cannot have
    PUZZLE_GAMES: ClassVar[dict[str, str]] = {}

    def generate_puzzle(self, kind: str, difficulty: str, rng: np.random.Generator) -> dict[str, Any]:
        """One puzzle drawn from ``rng`` (its own stream): the puzzle object without ``id`` (added by the caller)."""
        raise UnsupportedActionError("action", "generate", f"{self.name} has no puzzles")

    def puzzle_request(self, kind: str, difficulty: str, **options: Any) -> tuple[str, str]:
        """The ``(kind, difficulty)`` that ``generate``'s game options (``VERB_OPTIONS["generate"]``) ask for.

        A game whose generator takes options folds them into the kind (Memorinth ``--turns 4`` is the kind
        ``escape-in-4``), so that the puzzle id still names everything needed to make the puzzle again.
        """
        return kind, difficulty

    def check_puzzle(self, puzzle: dict[str, Any], answer: Any) -> dict[str, Any]:
        """``{"correct": bool, "message": str, ...}`` for ``answer`` to ``puzzle`` (re-proved, never trusted)."""
        raise UnsupportedActionError("action", "check", f"{self.name} has no puzzles")

    def puzzle_position(self, puzzle: dict[str, Any]) -> State | View:
        """The position a player answers ``puzzle`` from, by playing moves (the web board draws it).

        :meth:`check_puzzle` then accepts the answer as the list of move strings played from it.
        """
        raise UnsupportedActionError("action", "puzzle", f"{self.name} puzzles are not answered by moves")

    def describe_puzzle(self, puzzle: dict[str, Any]) -> str:
        """The puzzle as text for a person."""
        import json
        return json.dumps(puzzle, indent=2) + "\n"

    # -- self-play (``solver/selfplay.py``) ----------------------------------------------------------
    #: policy names ``selfplay --policies`` accepts
    SELFPLAY_POLICIES: ClassVar[tuple[str, ...]] = ()
    #: the default ``--policies``
    SELFPLAY_DEFAULT: ClassVar[tuple[str, ...]] = ()

    def selfplay_game(self, policies: tuple[str, ...], rng: np.random.Generator, **options: Any) -> dict[str, Any]:
        """Play one seeded deal with ``policies`` and return its result.

        The result holds ``outcomes`` (``{label: number}``: each label's win
        (0/1) or score on this deal; labels played on the same deal are
        compared paired) and anything the game adds (``moves``, ``record``,
        ``returns``, ``turns``).
        """
        raise UnsupportedActionError("action", "selfplay", f"{self.name} has no self-play")

    # -- pictures (``solver/drawing.py``) --------------------------------------------------------------
    def svg(self, position: State | View, hint: dict[str, Any] | None = None, **options: Any) -> str:
        """A standalone SVG picture of ``position`` with ``hint`` (a hint's JSON) drawn on it.

        Drawn from ``position.to_json()`` only (a view when the caller asked for
        one player's picture), so equal views give byte-identical pictures. Use
        ``solver.drawing.svg`` (``solver.svg``) to draw from any input.
        """
        raise UnsupportedActionError("action", "svg", f"{self.name} has no pictures yet")

    def puzzle_svg(self, puzzle: dict[str, Any], solution: bool = False) -> str:
        """A printable picture of ``puzzle`` (with its difficulty badge), or of its solution."""
        raise UnsupportedActionError("action", "svg", f"{self.name} has no puzzle pictures yet")

    def puzzle_answer(self, puzzle: dict[str, Any]) -> str:
        """The proven answer of ``puzzle`` as a line of text (for the answers page)."""
        import json
        return json.dumps(puzzle.get("solution"))

    def render_text(self, verb: str, result: Any) -> str | None:
        """The text form of a verb's result for a person, or ``None`` for the generic ``key: value`` lines."""
        return None

    #: the word every notation of the game starts with (a view's right after ``view:N``), if there is one: a
    #: command-line STATE that is not a file, ``-`` or JSON and does not start with it is named as a missing file
    NOTATION_START: ClassVar[str | None] = None

    #: a game's own words added to a shared verb's ``--help`` description (what to expect, how long it takes)
    VERB_NOTES: ClassVar[dict[str, str]] = {}

    def prepare(self, verb: str) -> None:
        """Load what ``verb`` needs (a compiled kernel, say) before its time limit starts counting.

        The command line calls it before it builds the search context; by default nothing is loaded.
        """

    def describe(self, position: State | View, player: int | None = None) -> str:
        """``position`` (or ``player``'s view of it) as text for a person (``show``)."""
        if player is not None and isinstance(position, State):
            position = position.view(player)
        return position.to_notation() + "\n"

    # -- command line and demo ------------------------------------------------------
    def add_cli(self, commands: argparse._SubParsersAction) -> None:
        """Add the game's own sub-commands (``commands.add_parser(...)``) to ``memory-solver <game>``.

        The verbs every game shares (``solver/commands.py``) are added after
        these, except those a game still defines here itself. Each sub-command
        parser sets ``run=callable(args) -> int`` as its default.
        """

    def demo(self, out: TextIO) -> None:
        """Print built-in examples for ``memory-solver demo``."""
        out.write(f"{self.long_name}: no demo\n")


def _decode_json_text(payload: Any, field: str) -> Any:
    """A JSON object given as text (the Python API, a query's string) is decoded, as the command line does."""
    if isinstance(payload, str) and payload.lstrip().startswith("{"):
        from solver.validate import decode_json
        return decode_json(payload, field)
    return payload


def _looks_like_view(payload: Any) -> bool:
    return (isinstance(payload, View) or (isinstance(payload, dict) and "view" in payload)
            or (isinstance(payload, str) and payload.lstrip().startswith(VIEW_PREFIX)))


def _view_observer(payload: Any) -> Any:
    if isinstance(payload, dict):
        return payload.get("view")
    return payload.lstrip()[len(VIEW_PREFIX):].split(" ", 1)[0]


def _short(payload: Any) -> Any:
    return payload if isinstance(payload, str) else f"{{... \"view\": {_view_observer(payload)!r} ...}}"


def split_view_notation(text: str, field: str = "state") -> tuple[int, str]:
    """``"view:1 BODY"`` -> ``(1, "BODY")``; errors name ``field``."""
    from solver.errors import NotationError
    stripped = text.strip()
    if not stripped.startswith(VIEW_PREFIX):
        raise NotationError(field, text, f"a view's notation starts with '{VIEW_PREFIX}N ' (N the observer)")
    head, _, body = stripped.partition(" ")
    number = head[len(VIEW_PREFIX):]
    if not number.isdigit() or len(number) > 2:
        raise NotationError(field, head, f"expected '{VIEW_PREFIX}N' with N the observing player's number")
    return int(number), body.strip()


def join_view_notation(observer: int, body: str) -> str:
    """The inverse of :func:`split_view_notation`."""
    return f"{VIEW_PREFIX}{observer} {body}"


GameFactory = Callable[..., Game]
