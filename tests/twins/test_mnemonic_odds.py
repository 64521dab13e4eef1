"""The compiled odds kernel and its pure-Python twin agree, including at the edge of the exact range."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.kernels import mnemonic as kernel
from solver.twins import mnemonic_odds as twin


def test_same_exact_range():
    assert kernel.MAX_EXACT_DICE == twin.MAX_EXACT_DICE == 49
    assert 6 ** 49 < 2 ** 128 < 6 ** 50


@pytest.mark.parametrize("dice", range(0, 50))
def test_max_counts_agree_everywhere_in_range(dice):
    assert kernel.max_counts(dice) == twin.max_counts(dice)
    assert sum(kernel.max_counts(dice)) == 6 ** dice


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 12), max_size=6), st.integers(0, 49), st.integers(0, 2))
def test_group_counts_agree(pools, adversary, nobody):
    if sum(pools) + adversary > 49:
        with pytest.raises(OverflowError):
            kernel.group_counts(np.asarray(pools, dtype=np.int64), adversary, nobody)
        with pytest.raises(OverflowError):
            twin.group_counts(pools, adversary, nobody)
        return
    got = kernel.group_counts(np.asarray(pools, dtype=np.int64), adversary, nobody)
    assert got == twin.group_counts(pools, adversary, nobody)
    assert got[0] + got[1] + got[2] == got[3] == 6 ** (sum(pools) + adversary)


def test_largest_exact_case_uses_all_128_bits():
    got = kernel.group_counts(np.asarray([30], dtype=np.int64), 19, 2)
    assert got == twin.group_counts([30], 19, 2)
    assert got[3] == 6 ** 49 and got[3] > 2 ** 126


@pytest.mark.parametrize("module", [kernel, twin])
def test_both_reject_negative_input(module):
    with pytest.raises(ValueError):
        module.max_counts(-1)
    with pytest.raises(ValueError):
        module.group_counts(np.asarray([-1], dtype=np.int64), 1, 2)
    with pytest.raises(ValueError):
        module.group_counts(np.asarray([1], dtype=np.int64), -1, 2)
    with pytest.raises(ValueError):
        module.group_counts(np.asarray([1], dtype=np.int64), 1, 3)
