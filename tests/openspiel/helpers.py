"""Shared helpers of the OpenSpiel tests: seeded random play through OpenSpiel states, observers by type."""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

from solver.testing import random_action

#: parameter sets of the observation tests: every mode of every game at least once
SETTINGS = {
    "aetherya": ["aetherya", "aetherya(mode=objects,players=3)", "aetherya(mode=coop,players=3)",
                 "aetherya(mode=solo)"],
    "embers": ["embers", "embers(chapter=prologue)"],
    "forgotten": ["forgotten(width=4,height=3,pairs=4,erasure=turn)", "forgotten(width=5,height=4,goal=clear)"],
    "memorinth": ["memorinth", "memorinth(players=3,variant=master,action_side=special)",
                  "memorinth(chance_setup=true)"],
    "mnemonic": ["mnemonic", "mnemonic(players=4,mode=into-the-grey)"],
}
SPECS = [spec for specs in SETTINGS.values() for spec in specs]

PUBLIC = pyspiel.IIGObservationType(perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE)
ALL_PLAYERS = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                         private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
PRIVATE_ONLY = pyspiel.IIGObservationType(perfect_recall=False, public_info=False,
                                          private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)
PUBLIC_HISTORY = pyspiel.IIGObservationType(perfect_recall=True, public_info=True,
                                            private_info=pyspiel.PrivateInfoType.NONE)


def play(state: pyspiel.State, rng: np.random.Generator) -> None:
    """One seeded random step: a chance outcome by its probability, or a uniformly random legal action."""
    state.apply_action(random_action(state, rng))


def decision_states(game: pyspiel.Game, seed: int, games: int, every: int = 1,
                    chance: bool = False) -> list[pyspiel.State]:
    """Every ``every``-th decision (with ``chance``, every ``every``-th state, chance nodes counted) of ``games``
    seeded random games, then each game's end."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        state = game.new_initial_state()
        met = 0
        while not state.is_terminal():
            if chance or not state.is_chance_node():
                if met % every == 0:
                    out.append(state.clone())
                met += 1
            play(state, rng)
        out.append(state)
    return out


def tensor(observer, state: pyspiel.State, player: int) -> np.ndarray:
    """A copy of ``observer``'s tensor of ``state`` for ``player``."""
    observer.set_from(state, player)
    return np.array(observer.tensor, copy=True)


def observer(game: pyspiel.Game, kind: pyspiel.IIGObservationType):
    return make_observation(game, kind)
