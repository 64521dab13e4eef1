"""Exception classes for every user mistake the solver can detect.

Each error names the input field it is about and quotes the bad value, in the
style of python-chess (``illegal san: 'Ke2' in <fen>``)::

    >>> from solver.errors import InvalidInputError
    >>> str(InvalidInputError("state.kingdom", "PPP", "expected 4 rows of 4 letters joined by '/'"))
    "state.kingdom: expected 4 rows of 4 letters joined by '/': 'PPP'"

All of them subclass :class:`ValueError`, so ``except ValueError`` keeps working.
"""

from __future__ import annotations

from typing import Any

_NO_VALUE = object()


class SolverError(ValueError):
    """Base class: a problem with the caller's input, never an internal bug.

    ``field`` is the dotted path of the offending input (``"state.kingdom"``,
    ``"limits.time_ms"``, ``"move"``), ``value`` the offending value and
    ``problem`` what is wrong with it.
    """

    def __init__(self, field: str | None, value: Any = _NO_VALUE, problem: str = "invalid value") -> None:
        self.field = field
        self.value = None if value is _NO_VALUE else value
        self.problem = problem
        text = problem
        if field:
            text = f"{field}: {text}"
        if value is not _NO_VALUE:
            text = f"{text}: {_quote(value)}"
        super().__init__(text)

    def to_json(self) -> dict[str, Any]:
        """The engine's error object (without the query id)."""
        return {"error": str(self), "field": self.field}


class InvalidInputError(SolverError):
    """Malformed input: wrong type, wrong shape, unparsable text."""


class NotationError(InvalidInputError):
    """A compact text notation that does not parse."""


class UnknownCardError(InvalidInputError):
    """A card, tile or piece name that the game does not have."""


class UnknownGameError(InvalidInputError):
    """A game name (or game parameter) that the registry does not know."""


class ImpossibleStateError(SolverError):
    """Well-formed input describing a position the rules cannot produce."""


class InvalidMoveError(InvalidInputError):
    """A move whose text does not parse."""


class IllegalMoveError(SolverError):
    """A well-formed move that the rules forbid in the given position."""


class UnsupportedActionError(SolverError):
    """A request the game does not offer (for example ``solve`` for a game without a solver)."""


def _quote(value: Any) -> str:
    text = repr(value)
    if len(text) > 200:
        text = text[:197] + "..."
    return text
