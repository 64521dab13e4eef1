"""Pure-Python twin of ``src/embers_placement.pxi``: legal placements of the memory row.

Same functions, same signatures, same results as the compiled kernel
(``solver.kernels.embers``), written for clarity: the Mind's top
layer is a dictionary from quarter ``(x, y)`` to "top segment blocked", and
every candidate position is checked segment by segment against the rulebook's
rules for adding a card ("Adding Memories"):

1. it overlaps at least one card, 2. every overlapping segment matches the top
segment under it (clear on clear, blocked on blocked), 3. at least one blocked
segment lies on a blocked segment.

Segment ``s`` of a card at ``(x, y)`` is the quarter ``(x + s % 2, y + s // 2)``
(0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right); bit ``s`` of its
blocked mask is set when that segment is blocked.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

MAX_SIDE = 64
SEGMENTS = ((0, 0), (1, 0), (0, 1), (1, 1))


def _top_layer(xs: Sequence[int], ys: Sequence[int], blocked: Sequence[int]) -> dict[tuple[int, int], bool]:
    if not len(xs) == len(ys) == len(blocked):
        raise ValueError("mind: xs, ys and blocked must have the same length")
    top: dict[tuple[int, int], bool] = {}
    for x, y, b in zip(xs, ys, blocked):
        for s, (dx, dy) in enumerate(SEGMENTS):
            top[(int(x) + dx, int(y) + dy)] = bool(int(b) >> s & 1)
    return top


def _origin(xs: Sequence[int], ys: Sequence[int]) -> tuple[int, int, int, int]:
    if len(xs) == 0:
        return 0, 0, 0, 0
    x0, y0 = min(int(x) for x in xs) - 1, min(int(y) for y in ys) - 1
    width, height = max(int(x) for x in xs) - x0 + 3, max(int(y) for y in ys) - y0 + 3
    if width > MAX_SIDE or height > MAX_SIDE:
        raise ValueError("mind: the cards span more than 60 quarters")
    return x0, y0, width, height


def is_legal(top: dict[tuple[int, int], bool], blocked: int, x: int, y: int) -> bool:
    """Whether a card with ``blocked`` mask may go at ``(x, y)`` on the top layer ``top``."""
    blocked_on_blocked = False
    for s, (dx, dy) in enumerate(SEGMENTS):
        under = top.get((x + dx, y + dy))
        if under is None:
            continue
        mine = bool(blocked >> s & 1)
        if mine != under:
            return False
        blocked_on_blocked = blocked_on_blocked or mine
    return blocked_on_blocked


def legal_placement_masks(xs: Sequence[int], ys: Sequence[int], blocked: Sequence[int],
                          row_blocked: Sequence[int], masks: np.ndarray) -> tuple[int, int]:
    """Legal placements of every row card as bitmasks; returns the origin ``(x0, y0)``.

    ``masks`` (uint64, shape (len(row_blocked), 64)) receives, for row card
    ``i``, bit ``c`` of ``masks[i, r]`` set when the card may go with its
    top-left quarter at ``(x0 + c, y0 + r)``. An empty Mind has no legal
    placement (a card must overlap another one).
    """
    top = _top_layer(xs, ys, blocked)
    x0, y0, width, height = _origin(xs, ys)
    if masks.shape != (len(row_blocked), MAX_SIDE):
        raise ValueError("masks: expected shape (len(row_blocked), 64)")
    masks[:, :] = 0
    for i, b in enumerate(row_blocked):
        for r in range(height - 1):
            bits = 0
            for c in range(width - 1):
                if is_legal(top, int(b), x0 + c, y0 + r):
                    bits |= 1 << c
            masks[i, r] = bits
    return (x0 if len(xs) else -1, y0 if len(xs) else -1)


def top_segments(xs: Sequence[int], ys: Sequence[int], blocked: Sequence[int],
                 occupied: np.ndarray, blocked_top: np.ndarray) -> tuple[int, int]:
    """The Mind's top layer as two bitboards; returns the origin ``(x0, y0)`` (as in ``legal_placement_masks``).

    ``occupied[r]`` bit ``c``: some card covers quarter ``(x0 + c, y0 + r)``;
    ``blocked_top[r]`` bit ``c``: its top segment is blocked. Both have 64 rows.
    """
    top = _top_layer(xs, ys, blocked)
    x0, y0, _, _ = _origin(xs, ys)
    if occupied.shape != (MAX_SIDE,) or blocked_top.shape != (MAX_SIDE,):
        raise ValueError("occupied, blocked_top: expected 64 rows")
    occupied[:] = 0
    blocked_top[:] = 0
    for (x, y), is_blocked in top.items():
        occupied[y - y0] |= np.uint64(1 << (x - x0))
        if is_blocked:
            blocked_top[y - y0] |= np.uint64(1 << (x - x0))
    return (x0 if len(xs) else -1, y0 if len(xs) else -1)
