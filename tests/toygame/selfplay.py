"""Toy self-play: the multiple-of-3 player against random play."""

from __future__ import annotations

from typing import Any

import numpy as np

from solver.game import Game
from solver.search import SearchContext, Stopped

POLICIES = ("perfect", "random")
DEFAULT = ("perfect", "random")


def play(game: Game, policies: tuple[str, ...], rng: np.random.Generator, ctx: SearchContext,
         **options: Any) -> dict[str, Any]:
    """One pile, played by each policy as player 0 against random play."""
    pile = int(rng.integers(4, 30))
    outcomes = {}
    for name in policies:
        if ctx.should_stop():
            raise Stopped
        state = game.new_initial_state(0)
        state.pile = pile
        while not state.is_terminal():
            legal = state.legal_actions()
            if name == "perfect" and state.player == 0 and any((state.pile - a) % 3 == 0 for a in legal):
                action = next(a for a in legal if (state.pile - a) % 3 == 0)
            else:
                action = legal[int(rng.integers(len(legal)))]
            state.apply_action(action)
        outcomes[name] = 1 if state.returns()[0] > 0 else 0
    return {"pile": pile, "outcomes": outcomes}
