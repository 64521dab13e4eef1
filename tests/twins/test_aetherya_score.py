"""The compiled Aetherya scorer (solver.kernels.aetherya) agrees with its twin."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.kernels import aetherya as kernel
from solver.twins import aetherya_score as twin

# kingdoms biased towards Portals and Dragons, where the rules are subtle
card = st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) | st.sampled_from([8, 9])
kingdoms = st.lists(card, min_size=16, max_size=16).map(lambda cs: np.array(cs, dtype=np.uint8))


@settings(max_examples=400, deadline=None)
@given(kingdoms)
def test_score_one_agrees(kingdom):
    assert kernel.score_one(kingdom) == twin.score_one(kingdom)


@settings(max_examples=200, deadline=None)
@given(kingdoms)
def test_connections_agree(kingdom):
    assert kernel.connections(kingdom) == twin.connections(kingdom)


@settings(max_examples=50, deadline=None)
@given(st.lists(kingdoms, min_size=0, max_size=12))
def test_score_batch_agrees(batch):
    arr = np.array(batch, dtype=np.uint8).reshape(len(batch), 16)
    out_k = np.zeros((len(batch), 8), dtype=np.int32)
    out_t = np.zeros((len(batch), 8), dtype=np.int32)
    kernel.score_batch(arr, out_k)
    twin.score_batch(arr, out_t)
    assert np.array_equal(out_k, out_t)


@pytest.mark.parametrize("module", [kernel, twin], ids=["kernel", "twin"])
def test_bad_codes_are_rejected(module):
    with pytest.raises(ValueError, match="kingdom"):
        module.score_one(np.array([11] + [0] * 15, dtype=np.uint8))
    with pytest.raises(ValueError):
        module.score_one(np.zeros(15, dtype=np.uint8))
    with pytest.raises(ValueError, match=r"kingdoms\[1\]"):
        module.score_batch(np.array([[0] * 16, [12] * 16], dtype=np.uint8), np.zeros((2, 8), dtype=np.int32))


@settings(max_examples=40, deadline=None)
@given(st.lists(kingdoms, min_size=1, max_size=70), st.sampled_from([0, 1, 2]))
def test_every_vector_path_agrees_with_the_twin(batch, level):
    """score_batch's vector paths (AVX-512, AVX2, the baseline; capped at what this CPU has) give the twin's
    numbers, on batches that fill the 32 lanes, and leave some empty, and span several blocks."""
    arr = np.array(batch, dtype=np.uint8).reshape(len(batch), 16)
    out_k = np.zeros((len(batch), 8), dtype=np.int32)
    out_t = np.zeros((len(batch), 8), dtype=np.int32)
    kernel.score_batch(arr, out_k, level)
    twin.score_batch(arr, out_t)
    assert np.array_equal(out_k, out_t)


@pytest.mark.parametrize("level", [0, 1, 2])
def test_every_vector_path_agrees_with_score_one_on_many_dealt_kingdoms(level):
    """20,000 kingdoms dealt from the 80-card deck (most hold Portals) and 20,000 with many Portals and
    unexplored cells, each path against the one-kingdom scorer (itself the twin's, above)."""
    rng = np.random.default_rng(level)
    deck = np.repeat(np.arange(10, dtype=np.uint8), 8)
    dealt = np.array([rng.permutation(deck)[:16] for _ in range(20_000)], dtype=np.uint8)
    weights = np.array([1, 1, 1, 1, 1, 1, 1, 1, 2, 5, 2], dtype=float)
    portals = rng.choice(11, size=(20_000, 16), p=weights / weights.sum()).astype(np.uint8)
    for batch in (dealt, portals):
        out = np.zeros((len(batch), 8), dtype=np.int32)
        kernel.score_batch(batch, out, level)
        expected = np.array([kernel.score_one(k) for k in batch], dtype=np.int32)
        assert np.array_equal(out, expected)


def test_simd_level_names_a_path():
    assert kernel.simd_level() in (0, 1, 2) and twin.simd_level() == 0
