"""The compiled Forgotten path kernel agrees with its pure-Python twin (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.forgotten.board import all_placements
from solver.kernels import forgotten as kernel
from solver.twins import forgotten_paths as twin


@st.composite
def boards(draw):
    width = draw(st.integers(3, 8))
    height = draw(st.integers(3, 64 // width if width > 5 else 8))
    brain_a, brain_b = draw(st.sampled_from(all_placements(width, height)))
    if draw(st.booleans()):
        brain_a, brain_b = brain_b, brain_a
    return width, height, brain_a, brain_b


def masks(cells: int):
    return st.integers(0, (1 << cells) - 1)


@st.composite
def board_and_masks(draw, count: int):
    board = draw(boards())
    cells = board[0] * board[1]
    dense = draw(st.floats(0.2, 0.95))
    out = []
    for _ in range(count):
        bits = draw(st.lists(st.booleans(), min_size=cells, max_size=cells)) if draw(st.booleans()) else None
        if bits is None:
            seed = draw(st.integers(0, 2**32))
            bits = list(np.random.default_rng(seed).random(cells) < dense)
        out.append(sum(1 << i for i, b in enumerate(bits) if b))
    return board, out


@settings(max_examples=150, deadline=None)
@given(board_and_masks(1))
def test_path_exists_agrees(case):
    board, (mask,) = case
    assert kernel.path_exists(*board, mask) == twin.path_exists(*board, mask)


@settings(max_examples=60, deadline=None)
@given(board_and_masks(12))
def test_path_exists_batch_agrees(case):
    board, ms = case
    arr = np.asarray(ms, dtype=np.uint64)
    a = np.zeros(len(ms), np.uint8)
    b = np.zeros(len(ms), np.uint8)
    kernel.path_exists_batch(*board, arr, a)
    twin.path_exists_batch(*board, arr, b)
    assert a.tolist() == b.tolist()


@settings(max_examples=150, deadline=None)
@given(board_and_masks(2))
def test_missing_tiles_agrees(case):
    board, (usable, up) = case
    up &= usable
    assert kernel.missing_tiles(*board, up, usable) == twin.missing_tiles(*board, up, usable)


@settings(max_examples=60, deadline=None)
@given(board_and_masks(10))
def test_missing_tiles_batch_agrees(case):
    board, ms = case
    up = np.asarray([m & ms[(i + 1) % len(ms)] for i, m in enumerate(ms)], dtype=np.uint64)
    usable = np.asarray(ms, dtype=np.uint64)
    a = np.zeros(len(ms), np.int32)
    b = np.zeros(len(ms), np.int32)
    kernel.missing_tiles_batch(*board, up, usable, a)
    twin.missing_tiles_batch(*board, up, usable, b)
    assert a.tolist() == b.tolist()


@settings(max_examples=150, deadline=None)
@given(board_and_masks(4))
def test_route_agrees(case):
    board, classes = case
    assert kernel.route(*board, *classes) == twin.route(*board, *classes)



@settings(max_examples=200, deadline=None)
@given(board_and_masks(2), st.integers(0, 12))
def test_unseen_cut_agrees(case, most):
    """The fewest unseen cells cutting every route through ``avail`` (Forgotten's dead-world search): the same
    size and the same cut (the one nearest the first Brain), or the same refusal."""
    board, (avail, unseen) = case
    unseen &= avail
    assert kernel.unseen_cut(*board, avail, unseen, most) == twin.unseen_cut(*board, avail, unseen, most)

@st.composite
def positions(draw):
    board = draw(boards())
    width, height, a, b = board
    cells = width * height
    free = [c for c in range(cells) if c not in (a, b)]
    pairs = draw(st.integers(1, len(free) // 2))
    order = draw(st.permutations(free))
    partner = [-1] * cells
    status = [0] * cells
    for p in range(pairs):
        x, y = order[2 * p], order[2 * p + 1]
        partner[x], partner[y] = y, x
        fate = draw(st.sampled_from(["down", "down", "down", "up", "one-gone", "both-gone", "up-one-gone"]))
        sx, sy = {"down": (1, 1), "up": (2, 2), "one-gone": (1, 3), "both-gone": (3, 3),
                  "up-one-gone": (2, 3)}[fate]
        status[x], status[y] = sx, sy
    goal = draw(st.integers(0, 1))
    return board, np.asarray(status, np.uint8), np.asarray(partner, np.int8), goal


@settings(max_examples=200, deadline=None)
@given(positions())
def test_erasure_odds_agrees(case):
    board, status, partner, goal = case
    assert kernel.erasure_odds(*board, status, partner, goal) == twin.erasure_odds(*board, status, partner, goal)


def test_known_values():
    """Hand-checked cases (FG-5): 4x4 with Brains on (1,1) and (4,4)."""
    full = (1 << 16) - 1 - 1 - (1 << 15)
    for mod in (kernel, twin):
        assert mod.path_exists(4, 4, 0, 15, 1 << 5 | 1 << 6 | 1 << 10)           # (2,2) (3,2) (3,3)
        assert not mod.path_exists(4, 4, 0, 15, 1 << 5 | 1 << 10)                # (2,2) (3,3): diagonal
        assert mod.missing_tiles(4, 4, 0, 15, 0, full) == 3
        assert mod.missing_tiles(4, 4, 0, 15, 1 << 5, full) == 2
        assert mod.missing_tiles(4, 4, 0, 15, 0, 1 << 5) == -1
        cost, mask = mod.route(4, 4, 0, 15, 1 << 5, 0, 0, full)
        assert cost == 6 and mask & (1 << 5)
        assert mod.unseen_cut(4, 4, 0, 15, full, full, 9) == (3, 1 << 1 | 1 << 4 | 1 << 5)  # the cells around (1,1)
        assert mod.unseen_cut(4, 4, 0, 15, full, full, 2) == (-1, 0)                        # 3 cells needed
        assert mod.unseen_cut(4, 4, 0, 15, full, full & ~(1 << 4), 9) == (3, 1 << 1 | 1 << 5 | 1 << 8)  # (1,2) lives
        live = 1 << 1 | 1 << 2 | 1 << 3 | 1 << 7 | 1 << 11                              # (2,1)..(4,1)..(4,3)
        assert mod.unseen_cut(4, 4, 0, 15, full, full & ~live, 9) == (-1, 0)           # a route nothing cuts
        assert mod.unseen_cut(4, 4, 0, 15, 1 << 5 | 1 << 6, 0, 0) == (0, 0)                # no route at all


def test_bad_arguments_raise_the_same_way():
    for mod in (kernel, twin):
        for args in ((2, 4, 0, 3, 1), (4, 4, 0, 0, 1), (4, 4, 0, 16, 1), (9, 8, 0, 8, 1)):
            try:
                mod.path_exists(*args)
            except (ValueError, OverflowError):
                continue
            raise AssertionError(f"{mod.__name__} accepted {args}")
