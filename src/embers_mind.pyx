# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Embers of Memory: visibility, the overlap graph, splits and same-suit groups of the Mind (compiled kernel).

Twin: ``solver/twins/embers_mind.py`` (same functions, same results).

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

cdef extern from *:
    int lowest_bit "__builtin_ctzll"(unsigned long long) nogil

cdef enum:
    MAX_CARDS = 64
    MAX_SIDE = 64


cdef inline int check_positions(const int32_t[::1] xs, const int32_t[::1] ys) except -1:
    if ys.shape[0] != xs.shape[0]:
        raise ValueError("mind: xs and ys must have the same length")
    if xs.shape[0] > MAX_CARDS:
        raise ValueError("mind: at most 64 cards")
    return 0


cdef inline void fill_overlaps(const int32_t[::1] xs, const int32_t[::1] ys, uint64_t* adj) noexcept nogil:
    cdef Py_ssize_t i, j, n = xs.shape[0]
    cdef int32_t dx, dy
    for i in range(n):
        adj[i] = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = xs[i] - xs[j]
            dy = ys[i] - ys[j]
            if -1 <= dx <= 1 and -1 <= dy <= 1:
                adj[i] |= (<uint64_t>1) << j
                adj[j] |= (<uint64_t>1) << i


cdef inline uint64_t closure(uint64_t start, uint64_t allowed, const uint64_t* adj) noexcept nogil:
    """The cards of ``allowed`` reachable from ``start`` (a subset of ``allowed``) through overlaps."""
    cdef uint64_t reached = start, frontier = start, grown
    cdef int k
    while frontier:
        grown = 0
        while frontier:
            k = lowest_bit(frontier)
            frontier &= frontier - 1
            grown |= adj[k]
        grown &= allowed & ~reached
        reached |= grown
        frontier = grown
    return reached


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
    cdef uint64_t cov[MAX_SIDE]
    cdef uint64_t two, visible = 0
    cdef Py_ssize_t k, n = xs.shape[0]
    cdef int32_t minx, miny, maxx, maxy
    cdef int x, y, r
    check_positions(xs, ys)
    if n == 0:
        return 0
    minx = maxx = xs[0]
    miny = maxy = ys[0]
    for k in range(1, n):
        minx = xs[k] if xs[k] < minx else minx
        maxx = xs[k] if xs[k] > maxx else maxx
        miny = ys[k] if ys[k] < miny else miny
        maxy = ys[k] if ys[k] > maxy else maxy
    if <long>maxx - minx + 2 > MAX_SIDE or <long>maxy - miny + 2 > MAX_SIDE:
        raise ValueError("mind: the cards span more than 64 quarters")
    with nogil:
        for r in range(MAX_SIDE):
            cov[r] = 0
        for k in range(n - 1, -1, -1):
            x = xs[k] - minx
            y = ys[k] - miny
            two = (<uint64_t>3) << x
            if (cov[y] & two) != two or (cov[y + 1] & two) != two:
                visible |= (<uint64_t>1) << k
            cov[y] |= two
            cov[y + 1] |= two
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
            part = closure(rest & (~rest + 1), visible, adj)
            rest &= ~part
            while part:
                j = lowest_bit(part)
                part &= part - 1
                labels[j] = count
            count += 1
    return count


cdef inline uint64_t group_of(const int32_t[::1] xs, const int32_t[::1] ys, const uint8_t[::1] suits,
                              int card) noexcept nogil:
    cdef uint64_t adj[MAX_CARDS]
    cdef uint64_t suited = 0
    cdef Py_ssize_t k, n = xs.shape[0]
    fill_overlaps(xs, ys, adj)
    for k in range(n):
        if suits[k] == suits[card]:
            suited |= (<uint64_t>1) << k
    return closure((<uint64_t>1) << card, suited, adj)


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
    cdef uint64_t group
    cdef int total = 0, k
    check_group_args(xs, ys, suits, card)
    if strengths.shape[0] != xs.shape[0]:
        raise ValueError("strengths: expected one entry per card")
    with nogil:
        group = group_of(xs, ys, suits, card)
        while group:
            k = lowest_bit(group)
            group &= group - 1
            total += strengths[k]
    return total
