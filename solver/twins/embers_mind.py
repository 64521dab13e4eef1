"""Pure-Python twin of ``src/embers_mind.pxi``: visibility, overlaps, splits and same-suit groups.

Same functions, same signatures, same results as the compiled kernel
(``solver.kernels.embers``), written with sets of quarters and a plain
graph search so that it doubles as a readable statement of the rules:

* two cards overlap when they share a quarter;
* a card is visible when some quarter of it is not covered by a later card;
* the Mind is split when its visible cards, linked by overlap, form several sections;
* a card's same-suit group is every card of its suit reachable from it through
  overlapping cards of that suit (covered cards count).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

MAX_CARDS = 64


def _quarters(x: int, y: int) -> set[tuple[int, int]]:
    return {(int(x) + dx, int(y) + dy) for dx in (0, 1) for dy in (0, 1)}


def _check(xs: Sequence[int], ys: Sequence[int]) -> int:
    if len(xs) != len(ys):
        raise ValueError("mind: xs and ys must have the same length")
    if len(xs) > MAX_CARDS:
        raise ValueError("mind: at most 64 cards")
    return len(xs)


def _neighbours(xs: Sequence[int], ys: Sequence[int]) -> list[set[int]]:
    n = _check(xs, ys)
    cells = [_quarters(xs[k], ys[k]) for k in range(n)]
    return [{j for j in range(n) if j != k and cells[k] & cells[j]} for k in range(n)]


def _reach(start: int, allowed: set[int], neighbours: list[set[int]]) -> set[int]:
    seen, stack = {start}, [start]
    while stack:
        k = stack.pop()
        for j in neighbours[k]:
            if j in allowed and j not in seen:
                seen.add(j)
                stack.append(j)
    return seen


def overlap_masks(xs: Sequence[int], ys: Sequence[int], out: np.ndarray) -> None:
    """``out[k]``: the mask of the cards that overlap card ``k`` (itself excluded)."""
    neighbours = _neighbours(xs, ys)
    if len(out) != len(neighbours):
        raise ValueError("out: expected one entry per card")
    for k, near in enumerate(neighbours):
        out[k] = sum(1 << j for j in near)


def visible_mask(xs: Sequence[int], ys: Sequence[int]) -> int:
    """The mask of the visible cards (at least one quarter not covered by a later card)."""
    n = _check(xs, ys)
    if n and (max(map(int, xs)) - min(map(int, xs)) + 2 > 64 or max(map(int, ys)) - min(map(int, ys)) + 2 > 64):
        raise ValueError("mind: the cards span more than 64 quarters")
    mask = 0
    for k in range(n):
        later: set[tuple[int, int]] = set()
        for j in range(k + 1, n):
            later |= _quarters(xs[j], ys[j])
        if _quarters(xs[k], ys[k]) - later:
            mask |= 1 << k
    return mask


def section_labels(xs: Sequence[int], ys: Sequence[int], visible: int, labels: np.ndarray) -> int:
    """Split detection: label the sections of the visible cards; returns their number.

    ``labels[k]`` is the section of card ``k`` (0, 1, ... in order of each
    section's lowest card), or -1 when card ``k`` is not in ``visible``. The Mind
    is split when the result is more than 1.
    """
    neighbours = _neighbours(xs, ys)
    n = len(neighbours)
    if len(labels) != n:
        raise ValueError("labels: expected one entry per card")
    shown = {k for k in range(n) if int(visible) >> k & 1}
    labels[:] = -1
    count = 0
    for k in range(n):
        if k in shown and labels[k] == -1:
            for j in _reach(k, shown, neighbours):
                labels[j] = count
            count += 1
    return count


def same_suit_group(xs: Sequence[int], ys: Sequence[int], suits: Sequence[int], card: int) -> int:
    """The mask of ``card``'s same-suit group: same-suit cards connected to it by overlap, covered ones included."""
    neighbours = _neighbours(xs, ys)
    if len(suits) != len(neighbours):
        raise ValueError("suits: expected one entry per card")
    if not 0 <= card < len(neighbours):
        raise ValueError("card: not a card of the mind")
    suited = {k for k in range(len(neighbours)) if suits[k] == suits[card]}
    return sum(1 << k for k in _reach(card, suited, neighbours))


def group_strength(xs: Sequence[int], ys: Sequence[int], suits: Sequence[int],
                   strengths: Sequence[int], card: int) -> int:
    """The total strength of ``card``'s same-suit group (a relive needs exactly 7)."""
    group = same_suit_group(xs, ys, suits, card)
    if len(strengths) != len(xs):
        raise ValueError("strengths: expected one entry per card")
    return sum(int(strengths[k]) for k in range(len(xs)) if group >> k & 1)
