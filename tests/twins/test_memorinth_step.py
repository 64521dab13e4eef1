"""The compiled Memorinth step kernel (``memorinth_step``: N games stepped together for the batched environment) and
its pure-Python twin agree (hypothesis), its memo of the public paths kept across steps included."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.kernels import memorinth as K
from solver.twins import memorinth_rules as R
from solver.twins import memorinth_step as T

from .memorinth_states import CONFIGS, DECK, GAMES, states

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
uniform = st.floats(0.0, 1.0, exclude_max=True)


def test_memo_widths_agree():
    assert K.memo_words() == T.memo_words()


@SETTINGS
@given(st.lists(st.tuples(states, uniform, st.integers(-5, 400)), min_size=1, max_size=5))
def test_counts_random_actions_and_ranks_agree(rows):
    vecs = np.stack([vec for vec, _, _ in rows])
    uniforms = np.array([u for _, u, _ in rows])
    probes = np.array([a for _, _, a in rows], np.int32)
    n = len(rows)
    outputs = []
    for module in (K, T):
        counts, picked, ranks, probed = (np.zeros(n, np.int32) for _ in range(4))
        module.legal_counts(vecs, DECK, counts)
        module.random_legal(vecs, DECK, uniforms, picked)
        module.legal_ranks(vecs, DECK, picked, ranks)
        module.legal_ranks(vecs, DECK, probes, probed)
        outputs.append((counts, picked, ranks, probed))
    for a, b in zip(*outputs):
        assert (a == b).all()
    counts, picked, ranks, _ = outputs[0]
    listed = np.zeros(396, np.int32)
    for i in range(n):       # the rank-th legal action of the play kernel's own list
        if counts[i]:
            assert K.legal_actions(vecs[i], DECK, listed) == counts[i]
            assert ranks[i] == int(uniforms[i] * counts[i]) and listed[ranks[i]] == picked[i]
        else:
            assert picked[i] == -1 and ranks[i] == -1


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(CONFIGS) - 1), st.integers(0, 2**31)), min_size=1, max_size=4),
       st.integers(0, 2**31))
def test_steps_agree_with_the_memo_kept_across_steps(deals, seed):
    """Whole games from their deals: the kernel keeps each row's memo from step to step, the twin works the paths
    out every time; the rows, the players to act and the refusals must stay the same."""
    vecs = np.stack([GAMES[config].deal(deal).vec for config, deal in deals])
    x, y = vecs.copy(), vecs.copy()
    memos = np.zeros((len(deals), K.memo_words()), np.int32)
    twin_memos = memos.copy()
    rng = np.random.default_rng(seed)
    px, py, picked = (np.zeros(len(deals), np.int32) for _ in range(3))
    for _ in range(60):
        if (x[:, R.PHASE] == R.PH_OVER).any():
            break
        K.random_legal(x, DECK, rng.random(len(deals)), picked)
        assert K.step(x, DECK, picked, memos, px) == T.step(y, DECK, picked, twin_memos, py) == -1
        assert (x == y).all() and (px == py).all()
        assert (twin_memos == 0).all()
    K.random_legal(x, DECK, rng.random(len(deals)), picked)
    picked[-1] = 395         # the last character swap: legal only in a few positions
    listed = np.zeros(396, np.int32)
    illegal = [i for i in range(len(deals)) if x[i, R.PHASE] == R.PH_OVER
               or picked[i] not in listed[:K.legal_actions(x[i], DECK, listed)]]
    before = x.copy()
    refused = K.step(x, DECK, picked, memos, px)
    assert refused == T.step(y, DECK, picked, twin_memos, py) == (illegal[0] if illegal else -1)
    assert (x == y).all()
    if illegal:
        assert (x == before).all()


@pytest.mark.parametrize("module", [K, T], ids=["kernel", "twin"])
def test_bad_input_is_rejected(module):
    vecs = np.stack([GAMES[0].deal(1).vec, GAMES[4].deal(2).vec])
    out = np.zeros(2, np.int32)
    with pytest.raises(ValueError, match="uniforms"):
        module.random_legal(vecs, DECK, np.array([0.5, 1.0]), out)
    with pytest.raises(ValueError, match="memos"):
        module.step(vecs, DECK, out, np.zeros((2, 3), np.int32), out.copy())
    with pytest.raises(ValueError, match="expected n entries"):
        module.legal_counts(vecs, DECK, np.zeros(3, np.int32))
    bad = vecs.copy()
    bad[1, R.UP] = 99
    with pytest.raises(ValueError, match=r"states\[1\]"):
        module.legal_counts(bad, DECK, out)
    module.random_legal(vecs, DECK, np.array([0.3, 0.6]), out)
    actions = out.copy()
    actions[1] = -3
    assert module.step(vecs, DECK, actions, np.zeros((2, 6), np.int32), out) == 1
    assert (vecs == np.stack([GAMES[0].deal(1).vec, GAMES[4].deal(2).vec])).all()
