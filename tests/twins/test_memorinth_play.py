"""The compiled Memorinth play kernel (``memorinth_play``: the rules of ``memorinth_rules.pxd``, the policies of
``memorinth_policy.pxd``, dealing, resampling, playouts) and its pure-Python twin agree (hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.kernels import memorinth as K
from solver.twins import memorinth_play as T

from .memorinth_states import CONFIGS, DECK, GAMES, states

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_layouts_agree():
    assert K.layout() == T.layout()


@SETTINGS
@given(states)
def test_legal_actions_and_every_transition_agree(vec):
    a, b = np.zeros(396, np.int32), np.zeros(396, np.int32)
    n = K.legal_actions(vec, DECK, a)
    assert n == T.legal_actions(vec, DECK, b)
    assert (a[:n] == b[:n]).all()
    actions = list(a[:n])
    if len(actions) > 25:
        actions = actions[:: max(1, len(actions) // 25)]
    for action in actions + [395, 25, 0]:
        x, y = vec.copy(), vec.copy()
        assert K.apply_action(x, DECK, int(action)) == T.apply_action(y, DECK, int(action))
        assert (x == y).all()


@SETTINGS
@given(states)
def test_paths_and_distances_agree(vec):
    assert K.path_bitboards(vec, DECK) == T.path_bitboards(vec, DECK)
    a, b = np.zeros(25, np.int32), np.zeros(25, np.int32)
    assert K.escape_distances(vec, DECK, a) == T.escape_distances(vec, DECK, b)
    assert (a == b).all()


@SETTINGS
@given(states, st.integers(0, 2**63), st.sampled_from([0, 1]))
def test_policies_agree(vec, seed, policy):
    if vec[T.PHASE] == T.PH_OVER:
        with pytest.raises(ValueError):
            K.policy_action(vec, DECK, policy, seed)
        with pytest.raises(ValueError):
            T.policy_action(vec, DECK, policy, seed)
        return
    assert K.policy_action(vec, DECK, policy, seed) == T.policy_action(vec, DECK, policy, seed)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states, st.integers(0, 2**63), st.integers(0, 1), st.lists(st.sampled_from([0, 1]), min_size=4, max_size=4),
       st.integers(-1, 50))
def test_playouts_agree(vec, seed, resample, policies, pick):
    pol = np.array(policies, dtype=np.int32)
    player = int(vec[T.TOMOVE])
    first = -1
    if pick >= 0 and vec[T.PHASE] != T.PH_OVER:
        buf = np.zeros(396, np.int32)
        n = K.legal_actions(vec, DECK, buf)
        first = int(buf[pick % n])
    a, b = np.zeros(12, np.int64), np.zeros(12, np.int64)
    K.playouts(vec, DECK, player, first, 3, seed, resample, pol, 150, a)
    T.playouts(vec, DECK, player, first, 3, seed, resample, pol, 150, b)
    assert (a == b).all()


@settings(max_examples=10, deadline=None)
@given(st.integers(0, len(CONFIGS) - 1), st.integers(0, 2**63), st.lists(st.sampled_from([0, 1]), min_size=4,
                                                                          max_size=4))
def test_random_games_and_deals_agree(config, seed, policies):
    vec = GAMES[config].deal(0).vec
    a, b = np.zeros(12, np.int64), np.zeros(12, np.int64)
    K.random_games(vec, DECK, 2, seed, np.array(policies, np.int32), 150, a)
    T.random_games(vec, DECK, 2, seed, np.array(policies, np.int32), 150, b)
    assert (a == b).all()
    x, y = vec.copy(), vec.copy()
    K.deal(x, DECK, seed)
    T.deal(y, DECK, seed)
    assert (x == y).all()


@SETTINGS
@given(states, st.integers(0, 2**63), st.integers(0, 3))
def test_resampling_agrees(vec, seed, player):
    player %= int(vec[T.NPLAYERS])
    x, y = vec.copy(), vec.copy()
    K.resample(x, player, seed)
    T.resample(y, player, seed)
    assert (x == y).all()


@pytest.mark.parametrize("module", [K, T], ids=["kernel", "twin"])
def test_bad_vectors_are_rejected(module):
    vec = GAMES[0].deal(0).vec.copy()
    buf = np.zeros(396, np.int32)
    with pytest.raises(ValueError):
        module.legal_actions(vec[:100].copy(), DECK, buf)
    with pytest.raises(ValueError):
        module.legal_actions(vec, DECK[:10].copy(), buf)
    bad = vec.copy()
    bad[T.UP + 3] = 77
    with pytest.raises(ValueError):
        module.apply_action(bad, DECK, 0)
    bad = vec.copy()
    bad[T.PHASE] = T.PH_ACT
    bad[T.PENDING] = 9
    with pytest.raises(ValueError):
        module.legal_actions(bad, DECK, buf)
    with pytest.raises(ValueError):
        module.playouts(vec, DECK, 0, 999, 1, 0, 0, np.zeros(4, np.int32), 10, np.zeros(12, np.int64))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(states, min_size=1, max_size=6), st.integers(0, 395))
def test_batch_functions_agree(vecs, pick):
    rows = np.stack(vecs)
    n = len(vecs)
    a, b = np.zeros((n, 25), np.int32), np.zeros((n, 25), np.int32)
    K.escape_distances_batch(rows, DECK, a)
    T.escape_distances_batch(rows, DECK, b)
    assert (a == b).all()
    la, lb = np.zeros((n, 396), np.int32), np.zeros((n, 396), np.int32)
    ca, cb = np.zeros(n, np.int32), np.zeros(n, np.int32)
    K.legal_actions_batch(rows, DECK, la, ca)
    T.legal_actions_batch(rows, DECK, lb, cb)
    assert (ca == cb).all() and all((la[i, :ca[i]] == lb[i, :cb[i]]).all() for i in range(n))
    actions = np.array([la[i, pick % ca[i]] if ca[i] else pick for i in range(n)], np.int32)
    x, y = rows.copy(), rows.copy()
    ra, rb = np.zeros(n, np.int32), np.zeros(n, np.int32)
    K.apply_actions_batch(x, DECK, actions, ra)
    T.apply_actions_batch(y, DECK, actions, rb)
    assert (ra == rb).all() and (x == y).all()
    for i in range(n):
        single = rows[i].copy()
        assert K.apply_action(single, DECK, int(actions[i])) == ra[i] and (single == x[i]).all()


@pytest.mark.parametrize("config", [4, 5, 6, 7])
def test_greedy_shift_and_swap_choices_agree(config):
    """The greedy policy's shift and card-swap choices (weighed by the piece's distance after the move) agree
    between kernel and twin in many act phases (15 seeded games a rule set since issue 24, 60 before: still over 160
    act phases each, every shift direction and the card swap among them)."""
    game = GAMES[config]
    rng = np.random.default_rng(config)
    buf = np.empty(396, dtype=np.int32)
    checked = 0
    for seed in range(15):
        vec = game.deal(seed).vec.copy()
        for _ in range(200):
            if vec[T.PHASE] == T.PH_ACT and (vec[T.PENDING] < 4 or vec[T.PENDING] == T.ACT_SWAPCARDS):
                for s in range(4):
                    assert K.policy_action(vec, DECK, 1, s) == T.policy_action(vec, DECK, 1, s)
                checked += 1
            n = K.legal_actions(vec, DECK, buf)
            if n == 0:
                break
            K.apply_action(vec, DECK, int(buf[rng.integers(n)]))
    assert checked >= 20
