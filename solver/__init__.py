"""memory-solver: solver and hint engine, with a compiled core, for five memory-themed tabletop games.

The Python API mirrors the engine's actions::

    >>> import solver
    >>> solver.score("aetherya", {"kingdom": "FEFP/MDMH/PHFS/SSGS"})["total"]
    16

See ``README.md`` and ``docs/``.

Importing ``solver`` loads nothing heavy: each name below is imported from its module when it is first used
(a module ``__getattr__``), so the command line starts without numpy or any game.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

from solver.version import __version__

#: where each public name lives
_WHERE = {
    **{name: "solver.api" for name in ("apply", "generate", "hint", "legal_moves", "new", "position", "review",
                                       "score", "selfplay", "solve", "svg", "view")},
    **{name: "solver.errors" for name in ("IllegalMoveError", "ImpossibleStateError", "InvalidInputError",
                                          "InvalidMoveError", "NotationError", "SolverError", "UnknownCardError",
                                          "UnknownGameError", "UnsupportedActionError")},
    **{name: "solver.game" for name in ("CHANCE_PLAYER", "TERMINAL_PLAYER", "Game", "State", "View")},
    **{name: "solver.registry" for name in ("game_names", "load_game")},
    **{name: "solver.results" for name in ("HintResult", "MoveInfo", "SolveResult")},
    **{name: "solver.search" for name in ("Limits", "SearchContext")},
}

__all__ = sorted([*_WHERE, "__version__"])


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name]), name)
    if name not in _API_OVER_MODULES:
        globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))


#: API functions named like a submodule (``solver.review``, ``solver.selfplay``): the name stays the function even
#: after the submodule is imported (which would otherwise set the package attribute to the module)
_API_OVER_MODULES = ("review", "selfplay")


class _Package(types.ModuleType):
    """The ``solver`` package: ``solver.review`` and ``solver.selfplay`` are the API functions."""

    @property
    def review(self) -> Any:
        return importlib.import_module("solver.api").review

    @review.setter
    def review(self, module: Any) -> None:
        """The import system setting the submodule ``solver.review``: it stays reachable in ``sys.modules``."""

    @property
    def selfplay(self) -> Any:
        return importlib.import_module("solver.api").selfplay

    @selfplay.setter
    def selfplay(self, module: Any) -> None:
        """The import system setting the submodule ``solver.selfplay``: it stays reachable in ``sys.modules``."""


sys.modules[__name__].__class__ = _Package  # a module's class may be a ModuleType subclass (Python 3.5+)
