"""OpenSpiel's reinforcement-learning environment on every game, out of the box (no learning library needed)."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install 'memory-solver[openspiel]')")

from open_spiel.python import rl_environment  # noqa: E402

import solver.openspiel as sos  # noqa: E402
from solver.registry import game_names  # noqa: E402


def _episode(env: rl_environment.Environment, rng: np.random.Generator) -> rl_environment.TimeStep:
    """One episode of uniformly random legal actions, checking what a learner reads at every step."""
    step = env.reset()
    size = env.observation_spec()["info_state"][0]
    while not step.last():
        player = step.observations["current_player"]
        assert player >= 0, "a time step asks a player who is not there"
        legal = step.observations["legal_actions"][player]
        assert legal and all(0 <= a < env.action_spec()["num_actions"] for a in legal)
        assert len(step.observations["info_state"][player]) == size
        step = env.step([int(rng.choice(legal))])
    return step


@pytest.mark.parametrize("name", game_names())
def test_the_environment_runs_every_game_from_its_game_string(name):
    env = rl_environment.Environment(f"memory_solver_{name}")
    env.seed(3)
    game = env.game
    rng = np.random.default_rng(1)
    for _ in range(2):
        last = _episode(env, rng)
        assert all(game.min_utility() <= r <= game.max_utility() for r in last.rewards)


def test_parameter_strings_and_our_spec_syntax_give_the_same_environment():
    string = "memory_solver_forgotten(width=3,height=3,pairs=2,erasure=off)"
    one = rl_environment.Environment(string)
    two = sos.environment("forgotten(width=3,height=3,pairs=2,erasure=off)")
    three = rl_environment.Environment("memory_solver_forgotten", width=3, height=3, pairs=2, erasure="off")
    assert one.game.to_string() == two.game.to_string() == three.game.to_string()
    small = sos.environment("forgotten(width=3,height=3,pairs=2,max_moves=20)")
    assert small.observation_spec()["info_state"] == (small.game.information_state_tensor_size(),)
    observed = sos.environment("forgotten(width=3,height=3,pairs=2,max_moves=20)",
                               observation_type=rl_environment.ObservationType.OBSERVATION)
    assert observed.observation_spec()["info_state"] == (observed.game.observation_tensor_size(),)


def test_a_deal_lost_before_the_first_move_is_dealt_again():
    """19.6% of Forgotten 4x3 deals with 3 pairs are lost before anybody moves (no route can be made): the default
    ``redeal=true`` deals again, so the first time step always asks a player; ``redeal=false`` keeps OpenSpiel's
    terminal-at-start deals for those who want the rules' own distribution."""
    spec = "memory_solver_forgotten(width=4,height=3,pairs=3,erasure=turn{})"
    counts = {}
    for redeal in ("", ",redeal=false"):
        env = rl_environment.Environment(spec.format(redeal))
        env.seed(5)
        counts[redeal] = sum(env.reset().observations["current_player"] < 0 for _ in range(100))
    assert counts[""] == 0 and counts[",redeal=false"] > 5
    game = sos.load_game("forgotten(width=4,height=3,pairs=3,erasure=turn)")
    ours = game.context.game
    lost = next(seed for seed in range(100) if ours.new_initial_state(seed).is_terminal())
    k = next(k for k in range(1, 100) if not ours.new_initial_state(lost + k * 2**32).is_terminal())
    state = sos.deal(game, lost)
    assert not state.is_terminal() and state.history()[:4] == list(lost.to_bytes(4, "little"))
    assert sos.inner_state(state).to_json() == ours.new_initial_state(lost + k * 2**32).to_json()


def test_utility_bounds_and_sums():
    memorinth = sos.load_game("memorinth(variant=master)")
    assert memorinth.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM and memorinth.utility_sum() == 1.0
    base = sos.load_game("memorinth")
    assert base.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM   # MR-19: a game may end with no winner
    capped = sos.load_game("memorinth(variant=master,max_moves=3)")
    state = sos.deal(capped, 1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.returns() == [0.5, 0.5]    # stopped by the cap with no winner: a draw
    for name in ("embers", "forgotten", "mnemonic", "memorinth"):
        game = sos.load_game(name)
        assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
