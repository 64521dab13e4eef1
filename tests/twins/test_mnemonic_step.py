"""The compiled Mnemonic step kernel (``mnemonic_step``: N sessions stepped together for the batched environment) and
its pure-Python twin (the game's own rules on each row) agree (hypothesis): deals, players, legal actions, random
actions, steps with their chance events, observations, and refusals; for every player count, both modes and rule
settings away from the defaults."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.kernels import mnemonic as K
from solver.mnemonic import rows as R
from solver.mnemonic.game import MnemonicGame
from solver.twins import mnemonic_model as M
from solver.twins import mnemonic_step as T

MAX_LEGAL, MAX_CHANCE, DEAL_UNIFORMS = T.sizes()


def _variant(players: int, mode: str, **changes: int) -> np.ndarray:
    config = R.config(MnemonicGame(players=players, mode=mode))
    for index, value in changes.items():
        config[getattr(M, index) if hasattr(M, index) else getattr(R, index)] = value
    T.rules_of(list(config))      # a rule set the rules file accepts
    return config


CONFIGS = [R.config(MnemonicGame(players=p, mode=m)) for p in range(1, 7) for m in ("deck-burner", "into-the-grey")]
CONFIGS += [
    _variant(3, "deck-burner", CFG_JOKER_WILD=1, CFG_HELP_ONLY=0, CFG_HELP_DICE=1, CFG_LEARN_ONLY=0, CFG_WEAVINGS=2,
             CFG_REFRESH=M.REFRESH_ROUND, CFG_REPAIR=1, CFG_INJURY_SKILL=1, CFG_INJURY_EFFECT=M.MINUS_ONE,
             CFG_NOBODY=M.VICTORY, CFG_DRAW_AS_VICTORY=1, CFG_MAX_ATTEMPTS=2, CFG_ROTATE=1, CFG_DRAWS_FIRST=0,
             CFG_PASS=0, X_HAND_SIZE=3, X_MAX_SKILLS=6, X_LEARN_RATING=2),
    _variant(4, "into-the-grey", CFG_GREY_CARD=0, CFG_NEEDS_COMPLICATION=1, CFG_INJURY_EFFECT=M.NO_EFFECT,
             CFG_REFRESH=M.REFRESH_VICTORY, CFG_NOBODY=M.DEFEAT, CFG_HELPER_SHARES=0, CFG_AVOID_HELPER=0,
             X_PER_SUIT=2, X_RATING_MIN=2, X_RATING_MAX=5, CFG_LEARN=0),
    _variant(2, "deck-burner", CFG_JOKER_WILD=1, CFG_LEARN_ONLY=0, CFG_HELP_ONLY=0, X_HAND_SIZE=9, CFG_WEAVINGS=3,
             CFG_REPAIR=1, CFG_ROTATE=1, CFG_MAX_ATTEMPTS=1),
]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_the_layout_and_sizes_agree():
    assert K.layout() == T.layout() == R.LAYOUT
    assert K.sizes() == T.sizes()
    for config in CONFIGS:
        assert K.observation_size(config) == T.observation_size(config)


def _deal(x: np.ndarray, y: np.ndarray, config: np.ndarray, slots: np.ndarray, rng: np.random.Generator) -> None:
    uniforms = rng.random((len(slots), DEAL_UNIFORMS))
    K.deal(x, config, slots.astype(np.int64), uniforms)
    T.deal(y, config, slots, uniforms)
    assert (x == y).all()


@SETTINGS
@given(st.integers(0, len(CONFIGS) - 1), st.integers(0, 2**31), st.integers(1, 4))
def test_sessions_agree_step_by_step(index, seed, n):
    """Whole sessions from their deals: every kernel function and the twin give the same rows and answers; a row
    left at a chance event (``settle`` off) or at the end is dealt again."""
    config = CONFIGS[index]
    rng = np.random.default_rng(seed)
    x = np.zeros((n, R.ROW_LEN), np.int32)
    y = x.copy()
    _deal(x, y, config, np.arange(n), rng)
    size = K.observation_size(config)
    who, twin_who, picked = (np.zeros(n, np.int32) for _ in range(3))
    for _ in range(40):
        K.players(x, config, who)
        T.players(y, config, twin_who)
        assert (who == twin_who).all()
        if (who < 0).any():
            _deal(x, y, config, np.flatnonzero(who < 0), rng)
            K.players(x, config, who)
        lists, counts = np.zeros((n, MAX_LEGAL), np.int32), np.zeros(n, np.int32)
        twin_lists, twin_counts = lists.copy(), counts.copy()
        K.legal_actions(x, config, lists, counts)
        T.legal_actions(y, config, twin_lists, twin_counts)
        assert (counts == twin_counts).all() and (lists == twin_lists).all()
        seen, twin_seen = np.zeros((n, size), np.float32), np.zeros((n, size), np.float32)
        observer = (who + rng.integers(0, 6, n)) % int(config[M.CFG_PLAYERS])
        K.observe(x, config, observer.astype(np.int32), seen)
        T.observe(y, config, observer.astype(np.int32), twin_seen)
        assert np.array_equal(seen, twin_seen)
        uniforms = rng.random(n)
        K.random_legal(x, config, uniforms, picked)
        twin_picked = picked.copy()
        T.random_legal(y, config, uniforms, twin_picked)
        assert (picked == twin_picked).all()
        assert all(lists[i, int(uniforms[i] * counts[i])] == picked[i] for i in range(n))
        settle = (rng.random(n) < 0.9).astype(np.uint8)
        chance = rng.random((n, MAX_CHANCE))
        drawn, twin_drawn = np.zeros((n, MAX_CHANCE), np.int32), np.zeros((n, MAX_CHANCE), np.int32)
        assert K.step(x, config, picked, settle, chance, who, drawn) == -1
        assert T.step(y, config, picked, settle, chance, twin_who, twin_drawn) == -1
        assert (x == y).all() and (who == twin_who).all() and (drawn == twin_drawn).all()


@SETTINGS
@given(st.integers(0, len(CONFIGS) - 1), st.integers(0, 2**31), st.integers(0, 30))
def test_an_illegal_action_changes_no_row(index, seed, steps):
    config = CONFIGS[index]
    rng = np.random.default_rng(seed)
    n = 3
    x = np.zeros((n, R.ROW_LEN), np.int32)
    y = x.copy()
    _deal(x, y, config, np.arange(n), rng)
    who, picked, drawn = np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros((n, MAX_CHANCE), np.int32)
    settle = np.ones(n, np.uint8)
    for _ in range(steps):
        K.random_legal(x, config, rng.random(n), picked)
        if (picked < 0).any():
            break
        K.step(x, config, picked, settle, rng.random((n, MAX_CHANCE)), who, drawn)
    y[:] = x
    K.players(x, config, who)
    if (who < 0).any():
        return
    K.random_legal(x, config, rng.random(n), picked)
    lists, counts = np.zeros((n, MAX_LEGAL), np.int32), np.zeros(n, np.int32)
    K.legal_actions(x, config, lists, counts)
    picked[1] = next(a for a in range(1540) if a not in lists[1, :counts[1]])
    chance = rng.random((n, MAX_CHANCE))
    for module, rows in ((K, x), (T, y)):
        before = rows.copy()
        assert module.step(rows, config, picked, settle, chance, who.copy(), drawn) == 1
        assert (rows == before).all()


@pytest.mark.parametrize("module", [K, T], ids=["kernel", "twin"])
def test_bad_input_is_rejected(module):
    config = CONFIGS[4]
    x = np.zeros((2, R.ROW_LEN), np.int32)
    K.deal(x, config, np.arange(2, dtype=np.int64), np.full((2, DEAL_UNIFORMS), 0.5))
    out = np.zeros(2, np.int32)
    with pytest.raises(ValueError, match="config"):
        module.players(x, config[:-1], out)
    with pytest.raises(ValueError, match=r"uniforms\[1\]: expected a number in \[0, 1\), got 1.0"):
        module.random_legal(x, config, np.array([0.5, 1.0]), out)
    with pytest.raises(ValueError, match=r"uniforms\[0, 3\]: expected a number in \[0, 1\), got 1.5"):
        module.deal(x, config, np.arange(1, dtype=np.int64), np.where(np.arange(DEAL_UNIFORMS) == 3, 1.5, 0.5)[None])
    with pytest.raises(ValueError, match="uniforms"):
        module.deal(x, config, np.arange(1, dtype=np.int64), np.full((1, 3), 0.5))
    with pytest.raises(ValueError, match="expected n entries"):
        module.players(x, config, np.zeros(3, np.int32))
    with pytest.raises(ValueError, match=r"players\[1\]"):
        module.observe(x, config, np.array([0, 7], np.int32), np.zeros((2, K.observation_size(config)), np.float32))
    bad = x.copy()
    bad[1, R.WHERE] = 9
    with pytest.raises(ValueError, match=r"states\[1\]: bad cards"):
        module.players(bad, config, out)
    bad = x.copy()
    bad[0, R.PHASE] = 13
    with pytest.raises(ValueError, match=r"states\[0\]"):
        module.players(bad, config, out)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(CONFIGS) - 1), st.integers(0, 2**31))
def test_chance_outcomes_have_the_adapters_probabilities(index, seed):
    """Each chance outcome takes an interval of uniforms as long as its exact probability (``chance_outcomes_exact``,
    what the adapter draws from): on a grid of G uniforms its share is within 1/G of it."""
    config, grid = CONFIGS[index], 500
    rng = np.random.default_rng(seed)
    x = np.zeros((1, R.ROW_LEN), np.int32)
    K.deal(x, config, np.zeros(1, np.int64), rng.random((1, DEAL_UNIFORMS)))
    who, picked, drawn = np.zeros(1, np.int32), np.zeros(1, np.int32), np.zeros((1, MAX_CHANCE), np.int32)
    for _ in range(60):
        K.random_legal(x, config, rng.random(1), picked)
        if picked[0] < 0:
            break
        K.step(x, config, picked, np.zeros(1, np.uint8), rng.random((1, MAX_CHANCE)), who, drawn)
        while who[0] == T.CHANCE_PLAYER:       # left at the chance event: compare, then settle it
            state = T.Config(config).state(x[0])
            exact = dict(state.chance_outcomes_exact())
            picks = [T.chance_action(state, (j + 0.5) / grid) for j in range(grid)]
            assert set(picks) <= set(exact)
            for action, probability in exact.items():
                assert abs(picks.count(action) / grid - float(probability)) <= 1 / grid + 1e-9
            state.apply_action(picks[int(rng.integers(grid))])
            x[0] = R.row_of(state)
            K.players(x, config, who)
        if who[0] == T.TERMINAL:
            break
