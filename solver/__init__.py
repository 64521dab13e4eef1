"""memory-solver: solver and hint engine, with a compiled core, for five memory-themed tabletop games.

The Python API mirrors the engine's actions::

    >>> import solver
    >>> solver.score("aetherya", {"kingdom": "FEFP/MDMH/PHFS/SSGS"})["total"]
    16

See ``README.md`` and ``docs/``.
"""

# The submodules named like API functions are loaded first: importing a submodule later would rebind the
# package attribute (``solver.selfplay``, ``solver.review``) from the function to the module.
import solver.review  # noqa: E402,F401  isort: skip
import solver.selfplay  # noqa: E402,F401  isort: skip
from solver.api import apply, generate, hint, legal_moves, new, position, review, score, selfplay, solve, svg, view
from solver.errors import (IllegalMoveError, ImpossibleStateError, InvalidInputError, InvalidMoveError,
                           NotationError, SolverError, UnknownCardError, UnknownGameError,
                           UnsupportedActionError)
from solver.game import CHANCE_PLAYER, TERMINAL_PLAYER, Game, State, View
from solver.registry import game_names, load_game
from solver.results import HintResult, MoveInfo, SolveResult
from solver.search import Limits, SearchContext

from solver.version import __version__

__all__ = [
    "CHANCE_PLAYER", "TERMINAL_PLAYER", "Game", "HintResult", "IllegalMoveError", "ImpossibleStateError",
    "InvalidInputError", "InvalidMoveError", "Limits", "MoveInfo", "NotationError", "SearchContext",
    "SolveResult", "SolverError", "State", "UnknownCardError", "UnknownGameError", "UnsupportedActionError", "View",
    "apply", "game_names", "generate", "hint", "legal_moves", "load_game", "new", "position", "review", "score",
    "selfplay", "solve", "svg", "view",
]
