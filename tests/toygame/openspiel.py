"""The toy game ``pile`` for OpenSpiel: action ids, returns and observation tensor (``solver/learning.py``).

Nothing is hidden, so every piece is public. Layout:

=============  =====  ===========================================================
piece          shape  meaning
=============  =====  ===========================================================
``pile``       1      counters left / 10
``to_move``    2      the player to take next (nobody once the pile is empty)
``over``       1      the pile is empty
=============  =====  ===========================================================
"""

from __future__ import annotations

import numpy as np

from solver.game import Game, State
from solver.learning import ActionCodec, Piece

MAX_MOVES = 1000
PILE_SCALE = 10.0


def num_players(game: Game) -> int:
    return 2


def codec(game: Game) -> ActionCodec:
    """A decision is the number taken (1 or 2); the game has no chance after the seeded deal."""
    return ActionCodec(3, 1)


def utility_range(game: Game) -> tuple[float, float]:
    """The last to take wins (1), the other loses (-1)."""
    return (-1.0, 1.0)


def constant_sum(game: Game) -> float | None:
    """Zero-sum at every end; a game the ``max_moves`` cap stops is a draw (0 each)."""
    return 0.0


def chance_steps(game: Game, decisions: int) -> int:
    """Play has no chance."""
    return 0


def public_pieces(game: Game) -> list[Piece]:
    return [Piece("pile", (1,)), Piece("to_move", (2,)), Piece("over", (1,))]


def private_pieces(game: Game) -> list[Piece]:
    return []


def fill_public(game: Game, state: State, planes: dict[str, np.ndarray]) -> None:
    planes["pile"][0] = state.pile / PILE_SCALE
    if state.is_terminal():
        planes["over"][0] = 1
    else:
        planes["to_move"][state.player] = 1


def fill_private(game: Game, state: State, player: int, planes: dict[str, np.ndarray]) -> None:
    """Nothing: both players see everything."""
