"""Embers of Memory: visibility, the overlap graph, splits and same-suit groups of the Mind (compiled kernel).

Twin: ``solver/twins/embers_mind.py`` (same functions, same results). The rules themselves
(overlap, visibility, sections, groups) are shared with the other Embers kernels in ``src/embers_core.pxd``.

Card ``k`` of the Mind (index 0 is the bottom card, later cards lie on top)
covers the quarters ``(xs[k] + dx, ys[k] + dy)`` for ``dx, dy`` in ``{0, 1}``.

* Two cards overlap when they share at least one quarter, that is when their
  positions differ by at most one in both directions ("Adjacent cards do not
  connect a group").
* A card is visible when at least one of its quarters is not covered by a
  later card.
* The Mind is split when the visible cards, linked by overlap, form more than
  one section ("only count visible cards as part of a chain").
* A card's same-suit group is the set of cards of its suit connected to it by
  chains of overlapping cards of that suit, covered cards included.

Sets of cards are 64-bit masks (bit ``k`` = card ``k``), so a Mind holds at most 64 cards.
"""

from libc.stdint cimport uint8_t, uint64_t, int32_t
from embers_core cimport (MAX_CARDS, MAX_SIDE, lowest_bit, lowest, bounding_box, overlap_graph, visible_cards,
                          closure, suit_group, total_strength)


cdef inline int check_positions(const int32_t[::1] xs, const int32_t[::1] ys) except -1:
    if ys.shape[0] != xs.shape[0]:
        raise ValueError("mind: xs and ys must have the same length")
    if xs.shape[0] > MAX_CARDS:
        raise ValueError("mind: at most 64 cards")
    return 0


cdef inline void fill_overlaps(const int32_t[::1] xs, const int32_t[::1] ys, uint64_t* adj) noexcept nogil:
    if xs.shape[0] > 0:
        overlap_graph(&xs[0], &ys[0], xs.shape[0], adj)


def overlap_masks(const int32_t[::1] xs, const int32_t[::1] ys, uint64_t[::1] out):
    """``out[k]``: the mask of the cards that overlap card ``k`` (itself excluded)."""
    cdef uint64_t adj[MAX_CARDS]
    cdef Py_ssize_t k, n = xs.shape[0]
    check_positions(xs, ys)
    if out.shape[0] != n:
        raise ValueError("out: expected one entry per card")
    with nogil:
        fill_overlaps(xs, ys, adj)
        for k in range(n):
            out[k] = adj[k]


def visible_mask(const int32_t[::1] xs, const int32_t[::1] ys):
    """The mask of the visible cards (at least one quarter not covered by a later card)."""
    cdef uint64_t visible
    cdef Py_ssize_t n = xs.shape[0]
    cdef int32_t minx, miny, maxx, maxy
    check_positions(xs, ys)
    if n == 0:
        return 0
    bounding_box(&xs[0], &ys[0], n, &minx, &miny, &maxx, &maxy)
    if <long>maxx - minx + 2 > MAX_SIDE or <long>maxy - miny + 2 > MAX_SIDE:
        raise ValueError("mind: the cards span more than 64 quarters")
    with nogil:
        visible = visible_cards(&xs[0], &ys[0], n, minx, miny)
    return visible


def section_labels(const int32_t[::1] xs, const int32_t[::1] ys, uint64_t visible, int32_t[::1] labels):
    """Split detection: label the sections of the visible cards; returns their number.

    ``labels[k]`` is the section of card ``k`` (0, 1, ... in order of each
    section's lowest card), or -1 when card ``k`` is not in ``visible``. The Mind
    is split when the result is more than 1.
    """
    cdef uint64_t adj[MAX_CARDS]
    cdef uint64_t rest, part
    cdef Py_ssize_t k, n = xs.shape[0]
    cdef int count = 0, j
    check_positions(xs, ys)
    if labels.shape[0] != n:
        raise ValueError("labels: expected one entry per card")
    with nogil:
        fill_overlaps(xs, ys, adj)
        if n < MAX_CARDS:
            visible &= ((<uint64_t>1) << n) - 1
        for k in range(n):
            labels[k] = -1
        rest = visible
        while rest:
            part = closure(lowest(rest), visible, adj)
            rest &= ~part
            while part:
                j = lowest_bit(part)
                part &= part - 1
                labels[j] = count
            count += 1
    return count


cdef inline uint64_t group_of(const int32_t[::1] xs, const int32_t[::1] ys, const uint8_t[::1] suits,
                              int card) noexcept nogil:
    """``card``'s same-suit group (``card`` is a card of the Mind, so there is one)."""
    cdef uint64_t adj[MAX_CARDS]
    fill_overlaps(xs, ys, adj)
    return suit_group(&suits[0], xs.shape[0], card, adj)


cdef inline int check_group_args(const int32_t[::1] xs, const int32_t[::1] ys, const uint8_t[::1] suits,
                                 int card) except -1:
    check_positions(xs, ys)
    if suits.shape[0] != xs.shape[0]:
        raise ValueError("suits: expected one entry per card")
    if card < 0 or card >= xs.shape[0]:
        raise ValueError("card: not a card of the mind")
    return 0


def same_suit_group(const int32_t[::1] xs, const int32_t[::1] ys, const uint8_t[::1] suits, int card):
    """The mask of ``card``'s same-suit group: same-suit cards connected to it by overlap, covered ones included."""
    cdef uint64_t group
    check_group_args(xs, ys, suits, card)
    with nogil:
        group = group_of(xs, ys, suits, card)
    return group


def group_strength(const int32_t[::1] xs, const int32_t[::1] ys, const uint8_t[::1] suits,
                   const uint8_t[::1] strengths, int card):
    """The total strength of ``card``'s same-suit group (a relive needs exactly 7)."""
    cdef int total
    check_group_args(xs, ys, suits, card)
    if strengths.shape[0] != xs.shape[0]:
        raise ValueError("strengths: expected one entry per card")
    with nogil:
        total = total_strength(group_of(xs, ys, suits, card), &strengths[0])
    return total
