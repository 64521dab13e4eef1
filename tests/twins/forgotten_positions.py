"""Positions of Forgotten reached by random play, for the twin tests of ``forgotten_playout`` and
``forgotten_exact``, with the arrays their kernels take."""

from __future__ import annotations

import numpy as np

from solver.forgotten.state import GIVE_UP, ForgottenState


def random_position(game, seed: int, steps: int = 30, decided: bool = False) -> ForgottenState | None:
    """A position reached by up to ``steps`` random flips (never giving up); None when the game ended there, or,
    with ``decided``, when it stopped at a chance node."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    for _ in range(int(rng.integers(0, steps))):
        if state.is_terminal():
            return None
        if state.is_chance_node():
            state.apply_action(int(rng.integers(state.board.cells)))
        else:
            flips = [a for a in state.legal_actions() if a != GIVE_UP]
            state.apply_action(int(flips[rng.integers(len(flips))]))
    if state.is_terminal() or (decided and state.is_chance_node()):
        return None
    return state


def first_flip(state: ForgottenState) -> int:
    """The cell flipped first this turn when the second flip is to come (the kernels' ``first``), else -1."""
    return state.first if state.phase == "second" else -1


def kernel_position(game, seed: int) -> tuple[ForgottenState, np.ndarray, np.ndarray, np.ndarray, int] | None:
    """:func:`random_position` with its ``tiles``, ``status``, ``seen`` arrays and ``first``; None as it."""
    state = random_position(game, seed)
    if state is None:
        return None
    return (state, *state.arrays(), first_flip(state))
