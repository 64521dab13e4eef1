"""PettingZoo's AEC API (agent-environment cycle) on every game, through the OpenSpiel adapter.

    from solver.openspiel.aec import env
    game = env("forgotten(width=4,height=3,pairs=4)")
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        action = None if termination or truncation else game.action_space(agent).sample(observation["action_mask"])
        game.step(action)

Agents are ``player_0`` ... ``player_{n-1}``; an observation is a dict of ``observation`` (the adapter's observation
tensor of that player, float32, ``docs/openspiel.md``) and ``action_mask`` (int8 over OpenSpiel's action ids: the
legal actions of the agent to act, zeros for the others). Chance events (the deal, draws, rolls) are drawn by the
environment's generator, seeded by ``reset(seed=...)`` (0 when the environment is made), so the same seed and
actions give the same game. Rewards
are our returns, given once at the end; a game the rules end is terminated, one the ``max_moves`` cap stops is
truncated. An illegal action raises our ``IllegalMoveError`` naming it. Needs ``memory-solver[pettingzoo]``
(PettingZoo and open-spiel).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import solver.openspiel as sos
from solver.game import Game


class MemoryGameEnv(AECEnv):
    """One of our games (spec syntax or game object, with the adapter's parameters) as a PettingZoo AEC env."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, spec: str | Game, render_mode: str | None = None) -> None:
        super().__init__()
        self.game = sos.load_game(spec)
        self.metadata = {**self.metadata, "name": self.game.get_type().short_name}
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode: expected None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players())]
        actions = self.game.num_distinct_actions()
        size = self.game.observation_tensor_size()
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8)}) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.state: Any = None
        self.rng = np.random.default_rng(0)    # reset() without a seed goes on with this generator: deterministic

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: chance drawn by a generator seeded with ``seed`` (None: the environment's generator goes on,
        seeded 0 when the environment was made, so a run without seeds is reproducible too)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            for index, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + index)
        self.state = self.game.new_initial_state()
        self._settle()
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._after_move()

    def _settle(self) -> None:
        """Draw chance events until a player is to act or the game is over."""
        while self.state.is_chance_node():
            actions, probs = zip(*self.state.chance_outcomes())
            self.state.apply_action(int(self.rng.choice(actions, p=np.asarray(probs) / sum(probs))))

    def _after_move(self) -> None:
        """Rewards and ends once the game is over; the agent to act next."""
        if self.state.is_terminal():
            capped = self.state.position.moves >= self.game.context.max_moves and \
                not self.state.position.inner.is_terminal()
            for agent, value in zip(self.possible_agents, self.state.returns()):
                self.rewards[agent] = float(value)
                (self.truncations if capped else self.terminations)[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if not self.state.is_terminal() and self.state.current_player() == player:
            mask[self.state.legal_actions()] = 1
        return {"observation": np.asarray(self.state.observation_tensor(player), dtype=np.float32),
                "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state.apply_action(int(action))
        self._settle()
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._after_move()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``ansi``: the position in our notation."""
        return None if self.render_mode is None else str(self.state)

    def close(self) -> None:
        pass


def env(spec: str | Game, render_mode: str | None = None) -> MemoryGameEnv:
    """The PettingZoo AEC environment of one of our games: ``env("memorinth")``, ``env("forgotten(width=4)")``."""
    return MemoryGameEnv(spec, render_mode)
