"""PettingZoo's AEC API (``solver/openspiel/aec.py``): PettingZoo's own API and seed tests on every game, the games
it plays are the OpenSpiel adapter's, the ``max_moves`` cap truncates, an illegal action is refused."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install 'memory-solver[pettingzoo]')")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (pip install 'memory-solver[pettingzoo]')")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import solver.openspiel as sos  # noqa: E402
from solver.errors import IllegalMoveError  # noqa: E402
from solver.openspiel.aec import env  # noqa: E402

SPECS = ["aetherya(max_moves=30)", "embers(chapter=prologue)", "forgotten(width=4,height=3,pairs=4)", "memorinth",
         "mnemonic(players=2)"]


@pytest.mark.parametrize("spec", SPECS)
def test_pettingzoo_api_and_seed_tests_pass(spec):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # the dict observation with its action mask, as PettingZoo's own games
        api_test(env(spec), num_cycles=200)
        seed_test(lambda: env(spec), num_cycles=100)


def play(spec: str, seed: int) -> tuple[list[tuple[str, int]], dict[str, float], object]:
    """A seeded random game through the AEC env: the (agent, action) pairs, the rewards, the final env."""
    game = env(spec)
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    moves, rewards = [], {}
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        rewards[agent] = reward
        if termination or truncation:
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert legal.tolist() == game.state.legal_actions()
        action = int(legal[rng.integers(len(legal))])
        moves.append((agent, action))
        game.step(action)
    return moves, rewards, game


@pytest.mark.parametrize("spec", SPECS)
def test_a_game_is_the_adapters_game(spec):
    moves, rewards, game = play(spec, 4)
    again, same, _ = play(spec, 4)
    assert moves == again and rewards == same
    history = game.state.history()
    state = sos.load_game(spec).new_initial_state()
    for action in history:
        if not state.is_chance_node():
            agent, played = moves.pop(0)
            assert (agent, played) == (f"player_{state.current_player()}", action)
        state.apply_action(action)
    assert not moves and state.is_terminal()
    assert rewards == {f"player_{i}": value for i, value in enumerate(state.returns())}


def test_the_cap_truncates_and_illegal_actions_are_refused():
    _, _, game = play("memorinth(max_moves=6)", 1)
    assert game.state.position.moves == 6 and not game.agents
    game = env("memorinth(max_moves=6)")
    game.reset(seed=1)
    for _ in range(6):
        game.step(int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0]))
    assert all(game.truncations.values()) and not any(game.terminations.values())
    game.reset(seed=1)
    illegal = int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError):
        game.step(illegal)


def test_resets_without_a_seed_are_reproducible():
    one, two = env("forgotten(width=4,height=3,pairs=4)"), env("forgotten(width=4,height=3,pairs=4)")
    for _ in range(3):
        one.reset()
        two.reset()
        assert one.state.history() == two.state.history()
