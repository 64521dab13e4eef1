"""A PPO agent for OpenSpiel's ``PPO`` (``agent_fn``) whose policy over a huge action space is factored.

Embers of Memory has 201,791 action ids (``solver/embers/openspiel.py``, ``EmbersCodec``): 151 small ones
(draw, stop, pass, discard/take/keep a card, reveal a row, arrange the rows) and one ``add`` id per card and Mind
position ``(card, x, y)``. OpenSpiel's MLP agent has one output per id (64 x 201,791 weights, 2.3 GB at training
time); this one has one output per small id, per card, per x and per y (333 in all) and scores an ``add`` id as
``card + x + y``. The ids stay the game's: the masked categorical is over the legal ids only (a few hundred at
most), so nothing of the 201,791-wide layer is ever built, and the interface is the one ``PPO`` calls
(``get_value``, ``get_action_and_value``).

Needs PyTorch (the ``rl`` extra).
"""

from __future__ import annotations

import numpy as np
import torch
from open_spiel.python.pytorch.ppo import layer_init
from torch import nn
from torch.distributions import Categorical

#: the logit of a padding slot (no action); OpenSpiel's masked categorical uses -1e6 likewise
PAD_LOGIT = -1e9


def _mlp(inputs: int, outputs: int, std: float) -> nn.Sequential:
    return nn.Sequential(layer_init(nn.Linear(inputs, 64)), nn.Tanh(), layer_init(nn.Linear(64, 64)), nn.Tanh(),
                         layer_init(nn.Linear(64, outputs), std=std))


class FactoredAgent(nn.Module):
    """Actor-critic MLP (two hidden layers of 64, as OpenSpiel's ``PPOAgent``) with a factored ``add`` head.

    ``add_base`` is the first ``add`` id; ids from there are ``add_base + (card * side + x) * side + y``
    (``cards`` cards, ``side`` positions per axis)."""

    def __init__(self, num_actions: int, observation_shape, device, *, add_base: int, cards: int,
                 side: int) -> None:
        super().__init__()
        if add_base + cards * side * side != num_actions:
            raise ValueError(f"FactoredAgent: add_base {add_base} + cards {cards} x side {side}^2 is not "
                             f"num_actions {num_actions}")
        inputs = int(np.array(observation_shape).prod())
        self.num_actions, self.device = num_actions, device
        self.add_base, self.cards, self.side = add_base, cards, side
        self.critic = _mlp(inputs, 1, 1.0)
        self.actor = _mlp(inputs, add_base + cards + 2 * side, 0.01)

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def _legal_logits(self, head: torch.Tensor, rows: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
        """The logit of each legal ``(row, id)``."""
        small = ids < self.add_base
        add = (ids - self.add_base).clamp(min=0)
        card, rest = add // (self.side * self.side), add % (self.side * self.side)
        x, y = rest // self.side, rest % self.side
        base = self.add_base
        added = (head[rows, base + card] + head[rows, base + self.cards + x]
                 + head[rows, base + self.cards + self.side + y])
        return torch.where(small, head[rows, ids.clamp(max=base - 1)], added)

    def get_action_and_value(self, x: torch.Tensor, legal_actions_mask: torch.Tensor | None = None,
                             action: torch.Tensor | None = None):
        """``PPO``'s call: the action (sampled when ``action`` is None), its log-probability, the policy's
        entropy, the value, and the probabilities over every id (only when sampling; None otherwise)."""
        if legal_actions_mask is None:
            raise ValueError("FactoredAgent needs the legal actions mask")
        head = self.actor(x)
        rows, ids = legal_actions_mask.nonzero(as_tuple=True)
        counts = torch.bincount(rows, minlength=len(x))
        if bool((counts == 0).any()):
            raise ValueError("FactoredAgent: a row of the legal actions mask has no legal action")
        starts = torch.cumsum(counts, 0) - counts
        slots = torch.arange(len(rows)) - starts[rows]
        width = int(counts.max())
        logits = torch.full((len(x), width), PAD_LOGIT)
        logits = logits.index_put((rows, slots), self._legal_logits(head, rows, ids))
        padded_ids = torch.zeros((len(x), width), dtype=torch.long).index_put((rows, slots), ids)
        policy = Categorical(logits=logits)
        if action is None:
            slot = policy.sample()
            action = padded_ids.gather(1, slot[:, None])[:, 0]
            probs = torch.zeros((len(x), self.num_actions)).index_put((rows, ids), policy.probs[rows, slots])
        else:
            action = action.long()
            slot = (padded_ids == action[:, None]).logical_and(logits > PAD_LOGIT).float().argmax(1)
            probs = None
        return action, policy.log_prob(slot), policy.entropy(), self.critic(x), probs


def embers_agent_fn(codec):
    """``agent_fn`` for OpenSpiel's ``PPO`` on an Embers game whose action ids are ``codec``'s."""

    def make(num_actions: int, observation_shape, device) -> FactoredAgent:
        return FactoredAgent(num_actions, observation_shape, device, add_base=codec.add_base, cards=codec.cards,
                             side=codec.side)
    return make
