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

import enum
import importlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from solver.datafiles import check_data_file
from solver.errors import (IllegalMoveError, InvalidInputError, InvalidMoveError, NotationError,
                           UnknownGameError, UnsupportedActionError)
from solver.lazynp import np
from solver.validate import decode_json

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
    #: a value to show where one is typed (the start form's placeholder; ``games`` lists it as ``example``)
    example: str | None = None
    #: one value per player, ``/`` between them in seat order (``-`` for a player who enters none): the start form
    #: asks each seat for its own (``games`` lists it as ``perPlayer: true``)
    per_player: bool = False

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

    def sample_chance_outcome(self, rng: np.random.Generator) -> int:
        """A chance outcome drawn by ``rng`` with its probability (the same draw for the same generator state)."""
        actions, probs = zip(*self.chance_outcomes())
        total = sum(probs)
        return int(actions[int(rng.choice(len(actions), p=[p / total for p in probs]))])

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
        return _notebook_picture(self)


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
        return _notebook_picture(self)


Position = State | View
"""Anything the services accept as a position: a full state or a player's view."""


@dataclass(frozen=True)
class Facts:
    """What a game is whatever its parameters: its registry name, its title, how the players' returns relate,
    whether they see the whole state, and how many may play (``players``: the least and the most)."""

    name: str
    long_name: str
    utility: Utility
    information: Information
    players: tuple[int, int]


class Game(ABC):
    """A rule set with its parameters, and the services the engine offers for it. A game declares its
    :class:`Facts` as ``FACTS``; the class then reads them as ``name``, ``long_name``, ``utility``,
    ``information``, ``min_players`` and ``max_players``."""

    FACTS: ClassVar[Facts]
    name: ClassVar[str]
    long_name: ClassVar[str]
    utility: ClassVar[Utility]
    information: ClassVar[Information]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    PARAMETERS: ClassVar[dict[str, Parameter]] = {}
    #: default hint/solve limits for interactive use
    default_time_ms: ClassVar[int] = 1000

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        facts = cls.__dict__.get("FACTS")
        if facts is not None:
            cls.name, cls.long_name = facts.name, facts.long_name
            cls.utility, cls.information = facts.utility, facts.information
            cls.min_players, cls.max_players = facts.players

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

    def apply(self, position: State | View, moves: list[str], field: str = "moves",
              stop: Callable[[], None] | None = None) -> State | View:
        """A copy of ``position`` advanced by ``moves`` (moves, and chance outcomes as move strings); on a view the
        forced masked entries (:func:`forced_entry`) are entered implicitly, before a move and after the last.
        ``stop`` is called before each move (it raises to end a replay past its caller's time cap or terminate)."""
        current = position.clone()
        for i, text in enumerate(moves):
            if stop is not None:
                stop()
            skip_forced(current, text, f"{field}[{i}]")
            if current.is_terminal():
                raise IllegalMoveError(f"{field}[{i}]", text, "the game is already over")
            current.apply_move(text, f"{field}[{i}]")
        skip_forced(current, None, field)
        return current

    # -- what may be entered ----------------------------------------------------------------
    def legal_moves(self, payload: Any) -> list[str]:
        """What may be entered next in the state or view described by ``payload``."""
        position = self.parse_position(payload)
        if isinstance(position, View):
            return position.legal_moves()
        return [position.action_to_string(a) for a in position.legal_actions()]


def forced_entry(position: State | View) -> str | None:
    """The entry a view must take next when it is its only legal entry and a masked form (``card ?``: a card this
    player has not seen, dealt face down or to another player); ``None`` otherwise. A player never types it: apply,
    records and the service enter it implicitly (issue 22: no entry for a card the player has not seen)."""
    if not isinstance(position, View) or position.is_terminal():
        return None
    moves = position.legal_moves()
    return moves[0] if len(moves) == 1 and "?" in moves[0] else None


def skip_forced(position: State | View, next_entry: str | None = None, field: str = "moves") -> None:
    """Enter (in place) the forced masked entries ``position`` waits for, up to ``next_entry`` when that is the
    forced entry itself (a record or script that enters it explicitly still replays)."""
    wanted = None if next_entry is None else " ".join(next_entry.split()).lower()
    while (forced := forced_entry(position)) is not None and forced.lower() != wanted:
        position.apply_move(forced, field)


def _notebook_picture(position: State | View) -> str | None:
    """The game's picture of ``position`` (its ``picture.svg``, found by name as the shared layer finds it), or
    ``None`` where the game draws nothing."""
    cls = type(position.game)
    package = cls.__module__.rpartition(".")[0]
    try:
        draw = getattr(importlib.import_module(f"{package}.picture"), "svg", None)
    except ModuleNotFoundError:
        draw = None
    if draw is None:
        legacy = vars(cls).get("svg")  # a game still moving to the standard layout draws through its class
        return None if legacy is None else legacy(position.game, position)
    try:
        return draw(position.game, position)
    except UnsupportedActionError:
        return None


def _decode_json_text(payload: Any, field: str) -> Any:
    """A JSON object given as text (the Python API, a query's string) is decoded, as the command line does."""
    if isinstance(payload, str) and payload.lstrip().startswith("{"):
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
