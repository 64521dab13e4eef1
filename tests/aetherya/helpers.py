"""Shared helpers for the Aetherya rules-engine tests."""

from __future__ import annotations

import numpy as np

from solver.aetherya.state import AetheryaState


def play_random(state: AetheryaState, rng: np.random.Generator, check: bool = True, max_steps: int = 20_000) -> AetheryaState:
    """Play ``state`` to the end with random legal moves and chance outcomes, checking invariants at every step."""
    for _ in range(max_steps):
        if check:
            state.check_invariants()
        if state.is_terminal():
            return state
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    raise AssertionError("game did not end")


def advance_chance(state: AetheryaState, rng: np.random.Generator) -> AetheryaState:
    """Resolve chance nodes until a player must decide."""
    while state.is_chance_node():
        state.apply_action(state.sample_chance_outcome(rng))
    return state
