"""The compiled placement kernel and its twin agree (hypothesis), and both agree with hand-checked cases."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.kernels import embers as kernel
from solver.twins import embers_placement as twin

positions = st.integers(-4, 4)
minds = st.lists(st.tuples(positions, positions, st.integers(0, 15)), min_size=0, max_size=14)
rows = st.lists(st.integers(0, 15), min_size=0, max_size=8)


def _arrays(mind):
    xs = np.array([m[0] for m in mind], dtype=np.int32)
    ys = np.array([m[1] for m in mind], dtype=np.int32)
    blocked = np.array([m[2] for m in mind], dtype=np.uint8)
    return xs, ys, blocked


@settings(max_examples=300, deadline=None)
@given(minds, rows)
def test_legal_placement_masks_agree(mind, row):
    xs, ys, blocked = _arrays(mind)
    row_blocked = np.array(row, dtype=np.uint8)
    fast = np.zeros((len(row), 64), dtype=np.uint64)
    slow = np.zeros((len(row), 64), dtype=np.uint64)
    assert kernel.legal_placement_masks(xs, ys, blocked, row_blocked, fast) == \
        twin.legal_placement_masks(xs, ys, blocked, row_blocked, slow)
    assert np.array_equal(fast, slow)


@settings(max_examples=200, deadline=None)
@given(minds)
def test_top_segments_agree(mind):
    xs, ys, blocked = _arrays(mind)
    a = [np.zeros(64, dtype=np.uint64) for _ in range(4)]
    assert kernel.top_segments(xs, ys, blocked, a[0], a[1]) == twin.top_segments(xs, ys, blocked, a[2], a[3])
    assert np.array_equal(a[0], a[2]) and np.array_equal(a[1], a[3])


def test_far_apart_cards_are_rejected_by_both():
    xs = np.array([0, 61], dtype=np.int32)
    ys = np.array([0, 0], dtype=np.int32)
    blocked = np.array([1, 1], dtype=np.uint8)
    out = np.zeros((1, 64), dtype=np.uint64)
    for impl in (kernel, twin):
        try:
            impl.legal_placement_masks(xs, ys, blocked, np.array([1], dtype=np.uint8), out)
        except ValueError:
            continue
        raise AssertionError(f"{impl.__name__} accepted a Mind 63 quarters wide")


def test_hand_checked_single_card():
    """One card '#...' at (0, 0): a '#...' card fits only exactly on top of it, or with its
    top-left... no: its only blocked segment must land on the one blocked quarter (0, 0)."""
    xs, ys, blocked = _arrays([(0, 0, 0b0001)])
    out = np.zeros((2, 64), dtype=np.uint64)
    x0, y0 = kernel.legal_placement_masks(xs, ys, blocked, np.array([0b0001, 0b1000], dtype=np.uint8), out)
    found = {(i, x0 + c, y0 + r) for i in range(2) for r in range(64) for c in range(64) if int(out[i, r]) >> c & 1}
    # '#...' at (0,0): its blocked top-left on the blocked (0,0), the other three on clear quarters: legal.
    # '#...' elsewhere: its top-left must be on (0,0), so only (0,0).
    # '...#' (bottom-right blocked) must put that segment on (0,0): position (-1,-1); its other
    # segments land on empty quarters.
    assert found == {(0, 0, 0), (1, -1, -1)}
