"""The game and state contract every game implements (after OpenSpiel's ``spiel.h``).

A :class:`Game` describes a rule set (with parameters) and serves the three
user-facing requests: ``hint``, ``solve`` and ``score``. A :class:`State` is one
position: it lists legal actions, applies them, clones itself, exposes chance
outcomes, renders what one player may see, and re-samples the hidden
information consistent with that view.

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
        raise IllegalMoveError(field, text, f"not a legal move in {self.to_notation()!r}")

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
        """A state from a JSON object or a notation string."""
        if isinstance(payload, State):
            return payload
        if isinstance(payload, str):
            return self.state_from_notation(payload, field)
        if isinstance(payload, dict):
            return self.state_from_json(payload, field)
        raise InvalidInputError(field, payload, "expected a JSON object or a notation string")

    # -- services -------------------------------------------------------------------
    def hint(self, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
             full_information: bool = False) -> HintResult:
        """Rank the moves of ``player`` (default: the player to move)."""
        raise UnsupportedActionError("action", "hint", f"{self.name} offers no hints")

    def solve(self, payload: Any, ctx: SearchContext) -> SolveResult:
        """Solve the game's optimisation problem described by ``payload``."""
        raise UnsupportedActionError("action", "solve", f"{self.name} offers no solver")

    def score(self, payload: Any) -> dict[str, Any]:
        """Score a position described by ``payload``."""
        raise UnsupportedActionError("action", "score", f"{self.name} offers no scoring")

    def legal_moves(self, payload: Any) -> list[str]:
        """Move strings of the player to act in the state described by ``payload``."""
        state = self.parse_state(payload)
        return [state.action_to_string(a) for a in state.legal_actions()]

    # -- command line and demo ------------------------------------------------------
    def add_cli(self, commands: argparse._SubParsersAction) -> None:
        """Add the game's sub-commands (``commands.add_parser(...)``) to ``memory-solver <game>``.

        Each sub-command parser sets ``run=callable(args) -> int`` as its default.
        """

    def demo(self, out: TextIO) -> None:
        """Print built-in examples for ``memory-solver demo``."""
        out.write(f"{self.long_name}: no demo\n")


GameFactory = Callable[..., Game]
