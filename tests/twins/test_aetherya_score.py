"""The compiled Aetherya scorer (solver.kernels.aetherya_score) agrees with its twin."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.kernels import aetherya_score as kernel
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
