"""The RL benchmark's factored PPO agent (benchmarks/rl_agents.py) and its clear stop without PyTorch.

The agent's policy must be the masked softmax, over the legal ids only, of the logits it defines (a small id's own
output; an ``add`` id's card + x + y outputs), whatever the width of the action space."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _bench():
    sys.path.insert(0, str(BENCHMARKS))
    import bench_openspiel_rl
    return bench_openspiel_rl


def test_the_benchmark_stops_clearly_without_torch(monkeypatch, capsys):
    bench = _bench()
    monkeypatch.setitem(sys.modules, "torch", None)      # import torch raises ImportError
    assert bench.main(["--quick", "--games=forgotten"]) == 2
    err = capsys.readouterr().err
    assert "needs PyTorch" in err and "memory-solver[openspiel,rl]" in err


def test_an_unknown_game_is_refused_by_name(capsys):
    assert _bench().main(["--games=forgotten,chess"]) == 2
    assert "--games: unknown game 'chess'" in capsys.readouterr().err


try:
    import open_spiel  # noqa: F401
    import torch
except ImportError:         # the agent's tests need both; the test above needs neither
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch or open-spiel is not installed (the rl extra)")

ADD_BASE, CARDS, SIDE = 5, 3, 4
ACTIONS = ADD_BASE + CARDS * SIDE * SIDE


def _agent():
    sys.path.insert(0, str(BENCHMARKS))
    from rl_agents import FactoredAgent
    torch.manual_seed(7)
    agent = FactoredAgent(ACTIONS, (6,), "cpu", add_base=ADD_BASE, cards=CARDS, side=SIDE)
    with torch.no_grad():       # large enough outputs that a wrong factor or id would change the odds
        for layer in agent.actor:
            if isinstance(layer, torch.nn.Linear):
                layer.weight.normal_(0.0, 1.0)
    return agent


def _dense_log_policy(agent, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The policy written out over every id, by the factorisation's definition."""
    head = agent.actor(obs)
    logits = torch.full((len(obs), ACTIONS), float("-inf"))
    for action in range(ACTIONS):
        if action < ADD_BASE:
            logits[:, action] = head[:, action]
        else:
            card, rest = divmod(action - ADD_BASE, SIDE * SIDE)
            x, y = divmod(rest, SIDE)
            logits[:, action] = (head[:, ADD_BASE + card] + head[:, ADD_BASE + CARDS + x]
                                 + head[:, ADD_BASE + CARDS + SIDE + y])
    return torch.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=1)


def _masks(rng: np.random.Generator, rows: int) -> torch.Tensor:
    mask = rng.random((rows, ACTIONS)) < 0.3
    mask[np.arange(rows), rng.integers(ACTIONS, size=rows)] = True      # at least one legal id a row
    mask[0] = False
    mask[0, [1, ACTIONS - 1]] = True                                    # a small id and the last add id
    return torch.from_numpy(mask)


@needs_torch
def test_sampled_actions_are_legal_and_scored_as_the_dense_policy():
    agent, rng = _agent(), np.random.default_rng(3)
    obs, mask = torch.randn(64, 6), _masks(rng, 64)
    with torch.no_grad():
        action, log_prob, entropy, value, probs = agent.get_action_and_value(obs, legal_actions_mask=mask)
        dense = _dense_log_policy(agent, obs, mask)
    assert bool(mask[torch.arange(64), action].all())
    assert torch.allclose(log_prob, dense[torch.arange(64), action], atol=1e-5)
    expected_entropy = -(dense.exp() * dense.nan_to_num(neginf=0.0)).sum(1)
    assert torch.allclose(entropy, expected_entropy, atol=1e-5)
    assert torch.allclose(probs, dense.exp(), atol=1e-6)
    assert value.shape == (64, 1)


@needs_torch
def test_given_actions_are_scored_with_gradients_as_the_dense_policy():
    agent, rng = _agent(), np.random.default_rng(4)
    obs, mask = torch.randn(32, 6), _masks(rng, 32)
    action = torch.tensor([int(rng.choice(np.flatnonzero(row))) for row in mask.numpy()])
    same, log_prob, _, _, probs = agent.get_action_and_value(obs, legal_actions_mask=mask, action=action.float())
    dense = _dense_log_policy(agent, obs, mask)
    assert torch.equal(same, action) and probs is None
    assert torch.allclose(log_prob, dense[torch.arange(32), action], atol=1e-5)
    log_prob.sum().backward()
    assert any(p.grad is not None and bool(p.grad.abs().sum() > 0) for p in agent.actor.parameters())


@needs_torch
def test_bad_shapes_and_empty_masks_are_refused_by_name():
    sys.path.insert(0, str(BENCHMARKS))
    from rl_agents import FactoredAgent
    with pytest.raises(ValueError, match="num_actions 50"):
        FactoredAgent(50, (6,), "cpu", add_base=ADD_BASE, cards=CARDS, side=SIDE)
    mask = torch.zeros((2, ACTIONS), dtype=torch.bool)
    mask[0, 2] = True
    with pytest.raises(ValueError, match="no legal action"):
        _agent().get_action_and_value(torch.randn(2, 6), legal_actions_mask=mask)


def _rollouts(spec: str, name: str, cooperative: bool, envs: int, steps: int, seed: int, shaping=None):
    sys.path.insert(0, str(BENCHMARKS))
    from bench_openspiel_rl import BatchedRollouts
    from open_spiel.python.pytorch.ppo import PPO, PPOAgent

    from solver.openspiel.batched import BatchedEnv
    torch.manual_seed(seed)
    env = BatchedEnv(spec, n=envs, seed=seed)
    agent = PPO(input_shape=(env.observation_size,), num_actions=env.num_actions, num_players=env.num_players,
                num_envs=envs, steps_per_batch=steps, agent_fn=PPOAgent)
    rollouts = BatchedRollouts(env, name, cooperative, np.random.default_rng(seed), shaping)
    return agent, rollouts, rollouts.collect(agent, torch)


@needs_torch
def test_batched_rollouts_keep_the_learners_seat_and_its_games_results():
    """Memorinth for two: each column holds one slot's learner decisions only (the observer plane names the seat
    the learner plays in that game), every action legal under its stored mask, and a reward (1 / 0.5 / 0 for the
    seat) only on a game's last learner decision."""
    agent, rollouts, nxt = _rollouts("memorinth", "memorinth", False, 6, 40, 5)
    assert nxt.shape == (6, agent.obs.shape[-1])
    actions = agent.actions.long()
    assert bool(agent.legal_actions_mask.gather(2, actions[:, :, None]).all())
    assert bool(((agent.rewards != 0) <= (agent.dones == 1)).all())
    assert set(agent.rewards.unique().tolist()) <= {0.0, 0.5, 1.0}
    assert rollouts.games > 0 and float(agent.dones.sum()) > 0
    from solver.openspiel.batched import BatchedEnv
    env = BatchedEnv("memorinth", n=1)
    observer = [(a, b) for name, a, b, _ in env.layout.spans() if name == "observer"][0]
    seats = agent.obs[:, :, observer[0]:observer[1]].argmax(-1)       # [steps, envs]
    for column in range(6):     # the seat changes only after a finished game
        for t in range(1, 40):
            if not agent.dones[t - 1, column]:
                assert seats[t, column] == seats[t - 1, column]


@needs_torch
def test_batched_rollouts_are_the_same_for_the_same_seed_and_shaping_is_added():
    first, _, _ = _rollouts("embers(chapter=prologue)", "embers", True, 4, 24, 9)
    again, _, _ = _rollouts("embers(chapter=prologue)", "embers", True, 4, 24, 9)
    shaped, _, _ = _rollouts("embers(chapter=prologue)", "embers", True, 4, 24, 9, shaping=0.25)
    for buffer in ("obs", "actions", "logprobs", "rewards", "dones", "values"):
        assert torch.equal(getattr(first, buffer), getattr(again, buffer)), buffer
    assert torch.equal(first.actions, shaped.actions)       # the same play, only the rewards differ
    gained = shaped.rewards - first.rewards
    assert float(gained.sum()) > 0 and bool(((gained / 0.25).round() == gained / 0.25).all())
