"""Aelin's Mind: placement, visibility, overlap, splitting and reliving, on top of the compiled kernels.

The Mind is a list of ``(card, x, y)`` in stacking order (the first entry is
the bottom card; every card added goes on top, since "you aren't allowed to
slide cards underneath other cards"). ``card`` is the card's index in the deck
(:class:`solver.embers.cards.Card.index`) and ``(x, y)`` the lattice quarter of
its top-left segment, x to the right and y downwards. Every card lies in the
same orientation, so a card covers the quarters ``(x..x+1, y..y+1)``.

Kernel: ``solver.kernels.embers``, its parts ``src/embers_placement.pxi`` (legal
placements of the whole memory row at once) and ``src/embers_mind.pxi`` (visibility,
overlap graph, split sections, same-suit groups). Rules: ``docs/rules/embers-of-memory.md``.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress

from solver.buffers import INT32, UINT8, UINT64, matrix, typed, zeros
from solver.embers.cards import Deck
from solver.kernels import embers as kernel

Entry = tuple[int, int, int]  # (card index, x, y)
RELIVE_STRENGTH = 7


@dataclass(frozen=True)
class MindArrays:
    """The Mind as the typed arrays the kernels take."""

    xs: array
    ys: array
    blocked: array
    suits: array
    strengths: array


def arrays(deck: Deck, mind: Sequence[Entry]) -> MindArrays:
    """Kernel arrays (int32 positions, uint8 masks, suits and strengths) of ``mind``."""
    cards = deck.cards
    xs = typed(INT32, [e[1] for e in mind])
    ys = typed(INT32, [e[2] for e in mind])
    blocked = typed(UINT8, [cards[e[0]].blocked for e in mind])
    suits = typed(UINT8, [cards[e[0]].suit for e in mind])
    strengths = typed(UINT8, [cards[e[0]].strength for e in mind])
    return MindArrays(xs, ys, blocked, suits, strengths)


def legal_placements(deck: Deck, mind: Sequence[Entry], row: Sequence[int]) -> list[tuple[int, int, int]]:
    """Every legal ``(card, x, y)`` for the cards ``row`` (deck indices), sorted, in one kernel call."""
    if not row or not mind:
        return []
    a = arrays(deck, mind)
    row_blocked = typed(UINT8, [deck.cards[c].blocked for c in row])
    flat = zeros(UINT64, len(row) * 64)
    x0, y0 = kernel.legal_placement_masks(a.xs, a.ys, a.blocked, row_blocked, matrix(flat, 64))
    found: list[tuple[int, int, int]] = []
    for k in compress(range(len(flat)), flat):  # the non-zero masks, found in C
        i, r = divmod(k, 64)
        bits = flat[k]
        while bits:
            low = bits & -bits
            found.append((row[i], x0 + low.bit_length() - 1, y0 + r))
            bits ^= low
    found.sort()
    return found


def is_legal_placement(deck: Deck, mind: Sequence[Entry], card: int, x: int, y: int) -> bool:
    """Whether ``card`` may be added at ``(x, y)``."""
    return (card, x, y) in set(legal_placements(deck, mind, [card]))


def visible_mask(mind: Sequence[Entry]) -> int:
    """Bit ``k`` set when the ``k``-th card of the Mind (stack order) is visible."""
    if not mind:
        return 0
    return int(kernel.visible_mask(typed(INT32, [e[1] for e in mind]), typed(INT32, [e[2] for e in mind])))


def visible_cards(mind: Sequence[Entry]) -> list[int]:
    """The deck indices of the visible cards, in stack order."""
    mask = visible_mask(mind)
    return [e[0] for k, e in enumerate(mind) if mask >> k & 1]


def sections(mind: Sequence[Entry]) -> list[list[int]]:
    """The sections of the visible Mind (deck indices, stack order); more than one means it is split."""
    if not mind:
        return []
    xs = typed(INT32, [e[1] for e in mind])
    ys = typed(INT32, [e[2] for e in mind])
    labels = zeros(INT32, len(mind))
    count = kernel.section_labels(xs, ys, kernel.visible_mask(xs, ys), labels)
    out: list[list[int]] = [[] for _ in range(count)]
    for k, label in enumerate(labels):
        if label >= 0:
            out[label].append(mind[k][0])
    return out


def same_suit_group(deck: Deck, mind: Sequence[Entry], position: int) -> list[int]:
    """The deck indices of the same-suit group of the ``position``-th card of the Mind (covered cards count)."""
    a = arrays(deck, mind)
    mask = int(kernel.same_suit_group(a.xs, a.ys, a.suits, position))
    return [e[0] for k, e in enumerate(mind) if mask >> k & 1]


def group_strength(deck: Deck, mind: Sequence[Entry], position: int) -> int:
    """The total strength of the same-suit group of the ``position``-th card of the Mind."""
    a = arrays(deck, mind)
    return int(kernel.group_strength(a.xs, a.ys, a.suits, a.strengths, position))


def relives(deck: Deck, mind: Sequence[Entry]) -> bool:
    """Whether the card just added (the top card) completes a same-suit group of strength exactly 7."""
    return bool(mind) and group_strength(deck, mind, len(mind) - 1) == RELIVE_STRENGTH


def span(mind: Sequence[Entry]) -> tuple[int, int]:
    """The width and height in quarters of the Mind's bounding box."""
    if not mind:
        return (0, 0)
    xs = [e[1] for e in mind]
    ys = [e[2] for e in mind]
    return (max(xs) - min(xs) + 2, max(ys) - min(ys) + 2)


def render(deck: Deck, mind: Sequence[Entry]) -> list[str]:
    """The top layer as text, one line per quarter row: ``#`` blocked, ``.`` clear, a space for no card."""
    if not mind:
        return ["(empty Mind)"]
    top: dict[tuple[int, int], bool] = {}
    for card, x, y in mind:
        b = deck.cards[card].blocked
        for s, (dx, dy) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
            top[(x + dx, y + dy)] = bool(b >> s & 1)
    xs = [q[0] for q in top]
    ys = [q[1] for q in top]
    lines = []
    for y in range(min(ys), max(ys) + 1):
        lines.append("".join(" " if (x, y) not in top else "#" if top[(x, y)] else "."
                             for x in range(min(xs), max(xs) + 1)).rstrip())
    return lines
