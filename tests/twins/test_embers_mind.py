"""The compiled Mind kernel (visibility, overlaps, splits, same-suit groups) and its twin agree."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.kernels import embers as kernel
from solver.twins import embers_mind as twin

positions = st.integers(-3, 3)
minds = st.lists(st.tuples(positions, positions, st.integers(0, 4), st.integers(1, 5)), min_size=1, max_size=20)


def _arrays(mind):
    return (np.array([m[0] for m in mind], dtype=np.int32), np.array([m[1] for m in mind], dtype=np.int32),
            np.array([m[2] for m in mind], dtype=np.uint8), np.array([m[3] for m in mind], dtype=np.uint8))


@settings(max_examples=300, deadline=None)
@given(minds)
def test_overlaps_and_visibility_agree(mind):
    xs, ys, _, _ = _arrays(mind)
    a = np.zeros(len(mind), dtype=np.uint64)
    b = np.zeros(len(mind), dtype=np.uint64)
    kernel.overlap_masks(xs, ys, a)
    twin.overlap_masks(xs, ys, b)
    assert np.array_equal(a, b)
    assert kernel.visible_mask(xs, ys) == twin.visible_mask(xs, ys)


@settings(max_examples=300, deadline=None)
@given(minds, st.integers(0, 2**20 - 1))
def test_sections_agree(mind, visible):
    xs, ys, _, _ = _arrays(mind)
    a = np.zeros(len(mind), dtype=np.int32)
    b = np.zeros(len(mind), dtype=np.int32)
    assert kernel.section_labels(xs, ys, visible, a) == twin.section_labels(xs, ys, visible, b)
    assert np.array_equal(a, b)
    shown = kernel.visible_mask(xs, ys)
    assert kernel.section_labels(xs, ys, shown, a) == twin.section_labels(xs, ys, shown, b)
    assert np.array_equal(a, b)


@settings(max_examples=300, deadline=None)
@given(minds, st.data())
def test_groups_agree(mind, data):
    xs, ys, suits, strengths = _arrays(mind)
    card = data.draw(st.integers(0, len(mind) - 1))
    assert kernel.same_suit_group(xs, ys, suits, card) == twin.same_suit_group(xs, ys, suits, card)
    assert kernel.group_strength(xs, ys, suits, strengths, card) == twin.group_strength(xs, ys, suits, strengths, card)


def test_hand_checked_cases():
    """Two cards diagonal by one quarter overlap; side by side (dx = 2) they do not; an exact cover hides."""
    xs, ys, suits, strengths = _arrays([(0, 0, 0, 3), (1, 1, 0, 4), (3, 1, 0, 2), (3, 1, 1, 1)])
    out = np.zeros(4, dtype=np.uint64)
    kernel.overlap_masks(xs, ys, out)
    assert list(out) == [0b0010, 0b0001, 0b1000, 0b0100]  # (1,1) and (3,1) are adjacent only
    assert kernel.visible_mask(xs, ys) == 0b1011  # card 2 is exactly covered by card 3
    labels = np.zeros(4, dtype=np.int32)
    assert kernel.section_labels(xs, ys, 0b1011, labels) == 2
    assert list(labels) == [0, 0, -1, 1]
    assert kernel.group_strength(xs, ys, suits, strengths, 1) == 7
    assert kernel.same_suit_group(xs, ys, suits, 2) == 0b0100
