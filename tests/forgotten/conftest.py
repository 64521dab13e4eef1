"""Shared fixtures for the Forgotten tests."""

from __future__ import annotations

import pytest

from solver.registry import load_game


@pytest.fixture
def game6():
    """The real game: 6x6, 17 pairs, Erasure once both players have taken a turn."""
    return load_game("forgotten")


@pytest.fixture
def play():
    """``play(spec, notation, *moves)``: a state after the given move strings."""
    def run(spec: str, notation: str, *moves: str):
        state = load_game(spec).state_from_notation(notation)
        for move in moves:
            state.apply_move(move)
        return state
    return run
