"""What a game declares for learning algorithms: action codecs and observation tensor pieces.

Each game's ``solver/<game>/openspiel.py`` describes the game to OpenSpiel and to the
batched environment (``solver/openspiel/``) with the names below, and imports only its
own package, the contract and this module: nothing here imports OpenSpiel.

- An :class:`ActionCodec` maps the game's integer actions to dense ids
  ``0 <= id < num_distinct_actions`` (and chance outcomes to ``0 <= id < num_chance_outcomes``).
- An observation tensor is a list of named :class:`Piece` arrays. A game lists its *public*
  pieces (what every player sees) and its *private* pieces (what one player sees besides),
  and fills them from a state: ``fill_public(game, state, planes)`` and
  ``fill_private(game, state, player, planes)`` write into zeroed float32 arrays
  ``planes[name]``. OpenSpiel's observation types are built from them
  (``docs/openspiel.md``): a player's observation is the public pieces and their own
  private pieces, the public observation the public pieces alone, the all-players
  observation the public pieces and every player's private pieces.

The names a game's ``openspiel.py`` defines (every function takes the game first):

===========================  ========================================================================
``MAX_MOVES``                the default cap on player decisions (OpenSpiel's ``max_game_length``)
``num_players(game)``        players of this parameter set
``codec(game)``              the :class:`ActionCodec`
``utility_range(game)``      ``(lowest, highest)`` return any player can get
``utility(game)``            optional: the :class:`~solver.game.Utility` of this parameter set
``constant_sum(game)``       optional: the sum of the returns when it is the same at every end, else None
``explicit_root(game)``      optional: the state before anything is dealt, when the set-up is chance nodes
``setup_steps(game)``        optional: how many chance outcomes the explicit root's set-up draws
``chance_steps(game, n)``    at most how many chance outcomes a game of ``n`` decisions draws after the deal
``public_pieces(game)``      the public :class:`Piece` list; ``fill_public(game, state, planes)``
``private_pieces(game)``     the private :class:`Piece` list; ``fill_private(game, state, player, planes)``
``arrangements(game)``       optional: every deal as ``[(probability, state)]``, for tiny settings
``batch_rules(game, n, r)``  optional: vectorised rules of ``n`` games for the batched environment (``r``:
                             deal again a deal decided before the first decision)
===========================  ========================================================================
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from solver.errors import IllegalMoveError


class ActionCodec:
    """Maps our integer actions to OpenSpiel's dense ids ``0 <= id < num_distinct_actions`` and back.

    Player decisions and chance outcomes have separate id spaces, as in OpenSpiel
    (``LegalActionsMask`` is ``NumDistinctActions`` long at a decision and
    ``MaxChanceOutcomes`` long at a chance node). The default codec is the identity
    with range checks: our ids already are small non-negative integers.
    """

    def __init__(self, num_distinct_actions: int, num_chance_outcomes: int) -> None:
        self.num_distinct_actions = num_distinct_actions
        self.num_chance_outcomes = num_chance_outcomes

    def encode(self, action: int) -> int:
        """OpenSpiel's id of our decision ``action``."""
        return in_bound(int(action), self.num_distinct_actions, "action")

    def decode(self, index: int) -> int:
        """Our decision action of OpenSpiel's id ``index``."""
        return valid_id(int(index), self.num_distinct_actions, "action")

    def encode_all(self, actions: list[int]) -> list[int]:
        """OpenSpiel's ids of our sorted decision ``actions``, sorted (the identity keeps the order)."""
        if actions and (actions[0] < 0 or actions[-1] >= self.num_distinct_actions):
            in_bound(actions[0] if actions[0] < 0 else actions[-1], self.num_distinct_actions, "action")
        return [int(a) for a in actions]

    def encode_chance(self, outcome: int) -> int:
        """OpenSpiel's id of our chance ``outcome``."""
        return in_bound(int(outcome), self.num_chance_outcomes, "chance outcome")

    def decode_chance(self, index: int) -> int:
        """Our chance outcome of OpenSpiel's id ``index``."""
        return valid_id(int(index), self.num_chance_outcomes, "chance outcome")


def in_bound(value: int, bound: int, what: str) -> int:
    """``value`` (one of our ids), which must fit OpenSpiel's bound: if not, the game's bound is wrong."""
    if not 0 <= value < bound:
        raise AssertionError(f"our {what} {value} is outside OpenSpiel's 0..{bound - 1}: the bound in the "
                             "game's openspiel.py is wrong")
    return value


def valid_id(value: int, bound: int, what: str) -> int:
    """``value`` (an OpenSpiel id from the caller), which must be one of the game's ids."""
    if not 0 <= value < bound:
        raise IllegalMoveError("action", value, f"not an OpenSpiel {what} id of this game (0..{bound - 1})")
    return value


@dataclass(frozen=True)
class Piece:
    """One named block of an observation tensor (``shape`` as numpy takes it)."""

    name: str
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        """Number of floats in the block."""
        return math.prod(self.shape)


def one_hot(plane: np.ndarray, index: int) -> None:
    """Set ``plane[index]`` to 1 (``index`` counts from the end when negative, as numpy does)."""
    plane[index] = 1.0


def bits(value: int, width: int) -> np.ndarray:
    """``value`` as ``width`` binary digits, least significant first (an injective code of small integers)."""
    return np.array([(value >> i) & 1 for i in range(width)], dtype=np.float32)


def bit_width(count: int) -> int:
    """How many binary digits tell ``count`` values apart."""
    return max(1, (max(count, 1) - 1).bit_length())


def mark_listed(out: np.ndarray, actions: np.ndarray, counts: np.ndarray) -> None:
    """Set ``out[i, actions[i, j]]`` for ``j < counts[i]``: a legal mask from per-row action lists (the step kernels'
    ``legal_actions``)."""
    valid = np.arange(actions.shape[1])[None, :] < counts[:, None]
    out[np.repeat(np.arange(len(counts)), counts), actions[valid]] = True


class KernelRules:
    """What the batched rules of the step kernels share (``solver/openspiel/batched.py``'s ``Rules``).

    A step kernel keeps N games as int32 rows and draws a random legal action per row with
    ``random_legal(rows, rule_data, uniforms, out)``. A subclass passes its kernel module, the rule data the kernel
    reads (a deck table or a rule config) and the rows, and defines ``apply_checked``: one kernel call that checks
    every slot's action and applies all of them or none.
    """

    def __init__(self, kernel: ModuleType, rule_data: np.ndarray, states: np.ndarray) -> None:
        self.kernel = kernel
        self.rule_data = rule_data
        self.states = states
        self.to_act = np.zeros(len(states), dtype=np.int32)
        self.picked = np.zeros(len(states), dtype=np.int32)

    def players(self) -> np.ndarray:
        return self.to_act.copy()

    def legal_mask(self, out: np.ndarray) -> None:
        """Each slot's legal actions into the zeroed bool ``out[n, num_actions]``: the kernel's
        ``legal_mask(rows, rule_data, out)`` (a kernel that lists actions instead overrides this)."""
        self.kernel.legal_mask(self.states, self.rule_data, out.view(np.uint8))

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action per slot: the one of rank ``floor(u * count)`` for a uniform ``u``."""
        self.kernel.random_legal(self.states, self.rule_data, rng.random(len(self.states)), self.picked)
        return self.picked.astype(np.int64)

    def apply_checked(self, actions: np.ndarray, settle: np.ndarray, rng: np.random.Generator,
                      drawn: list[list[int]] | None) -> int:
        """-1 once every slot's action is applied, else the first illegal slot (nothing applied)."""
        raise NotImplementedError

    @staticmethod
    def record_drawn(outcomes: np.ndarray, drawn: list[list[int]] | None) -> None:
        """Append each slot's chance outcomes of a step (``outcomes[i]``, the kernel's ``drawn``: -1 after the last)
        to ``drawn[i]`` when the environment records (``drawn`` given)."""
        if drawn is not None:
            for i, row in enumerate(outcomes.tolist()):
                drawn[i].extend(o for o in row if o >= 0)

    def apply(self, actions: np.ndarray, settle: np.ndarray, rng: np.random.Generator,
              drawn: list[list[int]] | None) -> None:
        if self.apply_checked(actions, settle, rng, drawn) >= 0:
            raise AssertionError("apply: an action checked legal was refused by the kernel")
