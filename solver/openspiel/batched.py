"""A batched environment: N games of one parameter set stepped together, numpy arrays in and out.

    env = BatchedEnv("forgotten(width=4,height=3,pairs=4)", n=1024, seed=7)
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = env.random_actions(rng)            # or a policy's choice from env.legal_mask, env.observations()
        rewards, done = env.step(actions)

Every slot always waits for a player's decision: chance events (deals, draws, rolls) are drawn by the
environment's seeded generator, and a game that ends is dealt again at once (its returns are reported in
``rewards`` at the step that ended it, with ``done`` set). Actions, masks and observations use the OpenSpiel
adapter's ids and tensor layout (``docs/openspiel.md``), the ``max_moves`` cap included, so a policy trained on
one runs on the other.

The rules come from the game's ``solver/<game>/openspiel.py``: a game whose ``batch_rules(game, n)`` gives
vectorised rules (Forgotten: numpy and the path kernel; Memorinth, Mnemonic, Embers, Aetherya: their step
kernels) runs on them; the others (Aetherya's Objects mode) run on :class:`StateRules`, N of our states stepped one
by one (the same results, at the single-game path's speed). ``tests/openspiel/test_batched.py`` checks both against the single-game path.
"""

from __future__ import annotations

from typing import Any, NoReturn, Protocol

import numpy as np

from solver.errors import IllegalMoveError
from solver.game import CHANCE_PLAYER, State
from solver.openspiel.adapter import Context, context_for
from solver.openspiel.observers import Kind, Layout
from solver.registry import parse_spec

TERMINAL = -4


class Rules(Protocol):
    """What the batched environment needs of a game's rules (one row per slot)."""

    def deal(self, slots: np.ndarray, seeds: np.ndarray, rng: np.random.Generator) -> None:
        """New games in ``slots``, dealt from ``seeds``, advanced through chance to the first decision."""

    def players(self) -> np.ndarray:
        """The player to act in each slot (-4 once the game is over)."""

    def legal_mask(self, out: np.ndarray) -> None:
        """Write each slot's legal actions (OpenSpiel ids) into the zeroed ``out[n, num_actions]``. (Rules may add
        ``is_legal(actions) -> bool[n]`` and ``random_actions(rng)``, cheaper than a mask.)"""

    def apply(self, actions: np.ndarray, settle: np.ndarray, rng: np.random.Generator,
              drawn: list[list[int]] | None) -> None:
        """Apply ``actions[i]`` in every slot, then, where ``settle[i]`` (the ``max_moves`` cap is not reached),
        draw chance events to the next decision (appending each slot's chance outcomes, as OpenSpiel ids, to
        ``drawn[i]`` when ``drawn`` is given). (Rules may add ``apply_checked(actions, settle, rng, drawn) -> int``:
        the same after checking every action, applying nothing and returning the first illegal slot if one is
        not legal, else -1; the environment then checks nothing itself.)"""

    def returns(self) -> np.ndarray:
        """Each slot's returns (``[n, players]``; meaningful where the game is over)."""

    def observe(self, players: np.ndarray, planes: dict[str, np.ndarray]) -> None:
        """Fill the game's pieces (``planes[name]``: ``[n, *shape]``, zeroed) of each slot's observation by
        ``players[i]``: the public pieces and that player's private ones."""

    def state(self, slot: int) -> State:
        """Our state in ``slot`` (for checks against the single-game path)."""


class StateRules:
    """Rules for any game: one of our states per slot, stepped through the state contract."""

    def __init__(self, context: Context, n: int) -> None:
        self.context = context
        self.codec = context.codec
        self.states: list[State | None] = [None] * n
        self.layout = Layout(context, Kind())

    def deal(self, slots: np.ndarray, seeds: np.ndarray, rng: np.random.Generator) -> None:
        for slot, seed in zip(slots, seeds):
            state = self.context.dealt(int(seed))
            self._chance(state, rng, None)
            self.states[int(slot)] = state

    def _chance(self, state: State, rng: np.random.Generator, drawn: list[int] | None) -> None:
        while state.current_player() == CHANCE_PLAYER:
            outcome = state.sample_chance_outcome(rng)
            state.apply_action(outcome)
            if drawn is not None:
                drawn.append(self.codec.encode_chance(outcome))

    def players(self) -> np.ndarray:
        return np.array([s.current_player() for s in self.states], dtype=np.int32)

    def legal_mask(self, out: np.ndarray) -> None:
        for i, state in enumerate(self.states):
            if not state.is_terminal():
                out[i, self.codec.encode_all(state.legal_actions())] = True

    def is_legal(self, actions: np.ndarray) -> np.ndarray:
        """Whether each slot's action is legal there (without a mask: Embers has 201,791 action ids)."""
        return np.array([self.codec.decode(int(a)) in state.legal_actions() for a, state in zip(actions, self.states)])

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action per slot, drawn from each state's list (no mask)."""
        picked = np.zeros(len(self.states), dtype=np.int64)
        for i, state in enumerate(self.states):
            ids = self.codec.encode_all(state.legal_actions())
            picked[i] = ids[rng.integers(len(ids))]
        return picked

    def apply(self, actions: np.ndarray, settle: np.ndarray, rng: np.random.Generator,
              drawn: list[list[int]] | None) -> None:
        for i, state in enumerate(self.states):
            state.apply_action(self.codec.decode(int(actions[i])))
            if settle[i]:
                self._chance(state, rng, None if drawn is None else drawn[i])

    def returns(self) -> np.ndarray:
        return np.array([s.returns() for s in self.states], dtype=np.float64)

    def observe(self, players: np.ndarray, planes: dict[str, np.ndarray]) -> None:
        facts, game = self.context.facts, self.context.game
        for i, state in enumerate(self.states):
            own = {name: plane[i] for name, plane in planes.items()}
            facts.fill_public(game, state, own)
            facts.fill_private(game, state, int(players[i]), own)

    def state(self, slot: int) -> State:
        return self.states[slot].clone()


class BatchedEnv:
    """``n`` games of ``spec`` (our spec syntax, with the adapter's parameters), stepped together.

    After :meth:`reset` and each :meth:`step`: ``current_player`` (int32 ``[n]``), ``legal_mask`` (bool ``[n,
    num_actions]``); :meth:`step` returns ``(rewards, done)``: float ``[n, num_players]`` (the returns of the
    games that ended at this step, zeros elsewhere) and bool ``[n]``. :meth:`observations` gives the
    observation tensors (float32 ``[n, observation_size]``) of the players to act, or of named players.
    ``record=True`` keeps each game's first state and steps (:meth:`history`, :attr:`completed`), for checks.
    """

    def __init__(self, spec: str, n: int, seed: int = 0, fast: bool = True, record: bool = False) -> None:
        name, params = parse_spec(spec) if isinstance(spec, str) else (spec.name, dict(spec.params))
        self.context = context_for(name, dict(params))
        self.n = int(n)
        self.num_players = self.context.num_players
        self.num_actions = self.context.codec.num_distinct_actions
        self.layout = Layout(self.context, Kind())
        self.observation_size = self.layout.size
        rules = self.context.facts.batch_rules(self.context.game, self.n, self.context.redeal) if fast else None
        self.rules: Rules = rules if rules is not None else StateRules(self.context, self.n)
        self.vectorised = rules is not None
        self.rng = np.random.default_rng(seed)
        self._next_seed = int(seed) * 1_000_003
        self.moves = np.zeros(self.n, dtype=np.int64)
        self.current_player = np.zeros(self.n, dtype=np.int32)
        self._mask = np.zeros((self.n, self.num_actions), dtype=bool)
        self._mask_ready = False
        self.games_finished = 0
        self.record = record
        self._history: list[tuple[State, list[tuple[int, int]]]] = [None] * self.n if record else []  # type: ignore
        #: ``record=True``: every finished game as (first state, steps, returns)
        self.completed: list[tuple[State, list[tuple[int, int]], list[float]]] = []
        self.reset()

    # -- dealing --------------------------------------------------------------------------------------
    def _seeds(self, count: int) -> np.ndarray:
        seeds = np.arange(self._next_seed, self._next_seed + count, dtype=np.int64) % 2**32
        self._next_seed += count
        return seeds

    def _deal(self, slots: np.ndarray) -> None:
        self.rules.deal(slots, self._seeds(len(slots)), self.rng)
        self.moves[slots] = 0
        if self.record:
            for slot in slots:
                self._history[int(slot)] = (self.rules.state(int(slot)), [])

    def reset(self) -> None:
        """Deal a new game in every slot."""
        self._deal(np.arange(self.n))
        self._refresh()

    def _refresh(self) -> None:
        self.current_player = self.rules.players()
        self._mask_ready = False

    @property
    def legal_mask(self) -> np.ndarray:
        """Bool ``[n, num_actions]``: the legal actions of each slot (worked out when first read after a step)."""
        if not self._mask_ready:
            self._mask.fill(False)
            self.rules.legal_mask(self._mask)
            self._mask_ready = True
        return self._mask

    # -- playing -----------------------------------------------------------------------------------------
    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray]:
        """Play ``actions`` (one OpenSpiel id per slot; each must be legal there); returns ``(rewards, done)``."""
        actions = np.asarray(actions, dtype=np.int64)
        if actions.shape != (self.n,):
            raise ValueError(f"actions: expected {self.n} action ids, got shape {actions.shape}")
        inside = (actions >= 0) & (actions < self.num_actions)
        if not inside.all():
            self._illegal(actions, int(np.flatnonzero(~inside)[0]))
        drawn = [[] for _ in range(self.n)] if self.record else None
        settle = self.moves + 1 < self.context.max_moves
        apply_checked = getattr(self.rules, "apply_checked", None)
        if apply_checked is not None:
            bad = apply_checked(actions, settle, self.rng, drawn)
            if bad >= 0:
                self._illegal(actions, bad)
        else:
            check = getattr(self.rules, "is_legal", None)
            legal = check(actions) if check is not None and not self._mask_ready else \
                self.legal_mask[np.arange(self.n), actions]
            if not legal.all():
                self._illegal(actions, int(np.flatnonzero(~legal)[0]))
            self.rules.apply(actions, settle, self.rng, drawn)
        self.moves += 1
        if self.record:
            for i in range(self.n):
                steps = self._history[i][1]
                steps.append((int(self.current_player[i]), int(actions[i])))
                steps.extend((CHANCE_PLAYER, outcome) for outcome in drawn[i])
        done = (self.rules.players() == TERMINAL) | (self.moves >= self.context.max_moves)
        rewards = np.zeros((self.n, self.num_players), dtype=np.float64)
        ended = np.flatnonzero(done)
        if len(ended):
            rewards[ended] = self._final_returns(ended)
            self.games_finished += len(ended)
            if self.record:
                self.completed.extend((*self._history[i], rewards[i].tolist()) for i in ended)
            self._deal(ended)
        self._refresh()
        return rewards, done

    @staticmethod
    def _illegal(actions: np.ndarray, slot: int) -> NoReturn:
        raise IllegalMoveError(f"actions[{slot}]", int(actions[slot]), "not a legal action in that game")

    def _final_returns(self, slots: np.ndarray) -> np.ndarray:
        out = self.rules.returns()[slots]
        total = self.context.utility_sum
        if total is not None:   # stopped by the cap in a constant-sum game: a draw (as in the adapter)
            capped = self.rules.players()[slots] != TERMINAL
            out[capped] = total / self.num_players
        return out

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action per slot (by the rules' own sampler where they have one)."""
        sample = getattr(self.rules, "random_actions", None)
        if sample is not None:
            return sample(rng)
        weights = rng.random(self.legal_mask.shape) * self.legal_mask
        return weights.argmax(axis=1)

    def observations(self, players: Any = None) -> np.ndarray:
        """The observation tensors (float32 ``[n, observation_size]``) of ``players`` (default: those to act)."""
        who = self.current_player if players is None else np.broadcast_to(np.asarray(players, dtype=np.int32),
                                                                           (self.n,))
        who = np.asarray(who, dtype=np.int32)
        out = np.zeros((self.n, self.observation_size), dtype=np.float32)
        planes = {name: out[:, a:b].reshape(self.n, *shape) for name, a, b, shape in self.layout.spans()}
        self.rules.observe(who, planes)
        planes["progress"][:, 0] = self.moves / self.context.max_moves
        planes["observer"][np.arange(self.n), who] = 1
        return out

    def history(self, slot: int) -> tuple[State, list[tuple[int, int]]]:
        """``record=True``: the first state of the game in ``slot`` and its steps ``(actor, OpenSpiel id)``."""
        if not self.record:
            raise ValueError("history needs BatchedEnv(..., record=True)")
        first, steps = self._history[slot]
        return first.clone(), list(steps)
