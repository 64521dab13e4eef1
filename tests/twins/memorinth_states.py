"""Reachable Memorinth states for the twin tests of ``memorinth_play`` and ``memorinth_escape``: every rule set."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from solver.kernels import memorinth as K
from solver.memorinth.deck import default_deck
from solver.memorinth.game import MemorinthGame
from solver.twins import memorinth_rules as R

DECK = default_deck().table()
CONFIGS = [dict(players=2), dict(players=3), dict(players=4), dict(players=1),
           dict(variant="master", players=2), dict(variant="master", players=3, seats="WEN"),
           dict(variant="master", action_side="special", players=3),
           dict(variant="master", action_side="alternate", players=4)]
GAMES = [MemorinthGame(**cfg) for cfg in CONFIGS]


def make_state(config: int, seed: int, steps: int, resample_for: int) -> np.ndarray:
    """A reachable state: a seeded deal, then random legal actions, optionally re-sampled for one player."""
    game = GAMES[config]
    vec = game.deal(seed).vec.copy()
    rng = np.random.default_rng(seed)
    buf = np.empty(396, dtype=np.int32)
    for _ in range(steps):
        n = K.legal_actions(vec, DECK, buf)
        if n == 0:
            break
        K.apply_action(vec, DECK, int(buf[rng.integers(n)]))
    if resample_for >= 0 and vec[R.PHASE] != R.PH_OVER:
        K.resample(vec, resample_for % int(vec[R.NPLAYERS]), seed)
    return vec


states = st.builds(make_state, st.integers(0, len(CONFIGS) - 1), st.integers(0, 2**31),
                   st.integers(0, 80), st.integers(-1, 3))
