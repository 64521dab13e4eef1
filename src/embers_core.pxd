# cython: language_level=3
"""Shared inline helpers of the Embers of Memory kernels: the Mind's rules, each in one place.

cimported by ``embers_placement.pyx``, ``embers_mind.pyx`` and ``embers_plan.pyx``
(rule ids of ``docs/rules/embers-of-memory.md``). Everything here is
``noexcept nogil`` over C pointers, so the kernels call it from their inner loops.

Card ``k`` of a Mind (index 0 is the bottom card) lies at ``(xs[k], ys[k])`` and
covers the quarters ``(x..x+1, y..y+1)`` (EM-2): segment bits 0, 1, 2, 3 of its
blocked mask are ``(x, y)``, ``(x+1, y)``, ``(x, y+1)``, ``(x+1, y+1)``. A top
layer is two bitboards of 64-bit rows, ``occ`` (a card covers the quarter) and
``blk`` (the top segment there is blocked), bit ``c`` of row ``r`` being the
quarter ``(c, r)`` in board coordinates. Sets of cards are 64-bit masks.

Twins: ``solver/twins/embers_placement.py``, ``embers_mind.py``, ``embers_plan.py``.
"""

from libc.stdint cimport uint8_t, uint64_t, int32_t

from common cimport popcount64 as popcount, ctz64 as lowest_bit

cdef enum:
    MAX_CARDS = 64     # a set of cards is a 64-bit mask
    MAX_SIDE = 64      # a bitboard row has 64 quarters, a board 64 rows


cdef inline uint64_t bit(int k) noexcept nogil:
    return (<uint64_t>1) << k


cdef inline uint64_t lowest(uint64_t cards) noexcept nogil:
    """The lowest card of ``cards`` as a mask (0 for none)."""
    return cards & (~cards + 1)


cdef inline void bounding_box(const int32_t* xs, const int32_t* ys, Py_ssize_t n, int32_t* minx, int32_t* miny,
                              int32_t* maxx, int32_t* maxy) noexcept nogil:
    """The least and greatest positions of ``n >= 1`` cards."""
    cdef Py_ssize_t k
    minx[0] = maxx[0] = xs[0]
    miny[0] = maxy[0] = ys[0]
    for k in range(1, n):
        if xs[k] < minx[0]:
            minx[0] = xs[k]
        if xs[k] > maxx[0]:
            maxx[0] = xs[k]
        if ys[k] < miny[0]:
            miny[0] = ys[k]
        if ys[k] > maxy[0]:
            maxy[0] = ys[k]


# -- adding a card (EM-3, EM-4, EM-5, EM-6) ---------------------------------------------------------------------

cdef inline void segment(bint blocked, uint64_t B, uint64_t C, uint64_t* good, uint64_t* bad) noexcept nogil:
    """One segment of a card over the columns of a board row (``B``: blocked top segments, ``C``: clear ones).
    A blocked segment on a blocked one is ``good`` (EM-5); a segment on a covered quarter of the other kind is
    ``bad`` (EM-4)."""
    if blocked:
        good[0] |= B
        bad[0] |= C
    else:
        bad[0] |= B


cdef inline uint64_t row_legal(uint8_t b, uint64_t B0, uint64_t C0, uint64_t B1, uint64_t C1) noexcept nogil:
    """Columns where a card with blocked mask ``b`` may go on board rows ``r`` (blocked top ``B0``, clear top
    ``C0``) and ``r + 1`` (``B1``, ``C1``): no segment mismatches (EM-4) and at least one blocked segment lies
    on a blocked one (EM-5, which also makes the card overlap another, EM-3)."""
    cdef uint64_t good = 0, bad = 0
    segment(b & 1, B0, C0, &good, &bad)
    segment(b & 2, B0 >> 1, C0 >> 1, &good, &bad)
    segment(b & 4, B1, C1, &good, &bad)
    segment(b & 8, B1 >> 1, C1 >> 1, &good, &bad)
    return good & ~bad


cdef inline uint64_t lay_row(uint64_t row, int x, uint8_t two) noexcept nogil:
    """Board row ``row`` of blocked top segments with a card row (segment bits ``two``) laid at column ``x``."""
    return (row & ~((<uint64_t>3) << x)) | ((<uint64_t>(two & 3)) << x)


cdef inline void lay_card(uint64_t* occ, uint64_t* blk, int x, int y, uint8_t b) noexcept nogil:
    """Put a card with blocked mask ``b`` on top of the layer at board ``(x, y)`` (EM-6)."""
    cdef uint64_t two = (<uint64_t>3) << x
    occ[y] |= two
    occ[y + 1] |= two
    blk[y] = lay_row(blk[y], x, b)
    blk[y + 1] = lay_row(blk[y + 1], x, b >> 2)


# -- overlaps, visibility, sections and groups (EM-7, EM-11, EM-8, EM-15) ---------------------------------------

cdef inline bint overlaps(int32_t x1, int32_t y1, int32_t x2, int32_t y2) noexcept nogil:
    """Two cards overlap when they share a quarter: positions at most one apart both ways (EM-7)."""
    return -1 <= x1 - x2 <= 1 and -1 <= y1 - y2 <= 1


cdef inline void link_card(const int32_t* xs, const int32_t* ys, int k, uint64_t* adj) noexcept nogil:
    """``adj[k]``: the cards below ``k`` that overlap it; ``k`` joins their masks."""
    cdef int j
    adj[k] = 0
    for j in range(k):
        if overlaps(xs[j], ys[j], xs[k], ys[k]):
            adj[k] |= bit(j)
            adj[j] |= bit(k)


cdef inline void unlink_card(int k, uint64_t* adj) noexcept nogil:
    """Undo ``link_card`` for the top card ``k``."""
    cdef int j
    for j in range(k):
        adj[j] &= ~bit(k)


cdef inline void overlap_graph(const int32_t* xs, const int32_t* ys, Py_ssize_t n, uint64_t* adj) noexcept nogil:
    """``adj[k]``: the cards that overlap card ``k``, itself excluded."""
    cdef int k
    for k in range(n):
        link_card(xs, ys, k, adj)


cdef inline uint64_t visible_cards(const int32_t* xs, const int32_t* ys, Py_ssize_t n, int32_t x0,
                                   int32_t y0) noexcept nogil:
    """The cards with a quarter no later card covers (EM-11); card ``k`` lies at board ``(xs[k] - x0, ys[k] - y0)``
    (0 to 62 both ways)."""
    cdef uint64_t cov[MAX_SIDE]
    cdef uint64_t two, shown = 0
    cdef Py_ssize_t k
    cdef int r, y
    for r in range(MAX_SIDE):
        cov[r] = 0
    for k in range(n - 1, -1, -1):
        two = (<uint64_t>3) << (xs[k] - x0)
        y = ys[k] - y0
        if (cov[y] & two) != two or (cov[y + 1] & two) != two:
            shown |= bit(<int>k)
        cov[y] |= two
        cov[y + 1] |= two
    return shown


cdef inline uint64_t closure(uint64_t start, uint64_t allowed, const uint64_t* adj) noexcept nogil:
    """The cards of ``allowed`` reachable from ``start`` (a subset of ``allowed``) through overlaps: with
    ``allowed`` the visible cards, a section of the Mind (EM-8)."""
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


cdef inline bint one_section(uint64_t shown, const uint64_t* adj) noexcept nogil:
    """Whether the visible cards ``shown`` form at most one section: the Mind is not split (EM-8)."""
    return closure(lowest(shown), shown, adj) == shown


cdef inline uint64_t suit_group(const uint8_t* suits, Py_ssize_t n, int card, const uint64_t* adj) noexcept nogil:
    """``card``'s same-suit group: the cards of its suit connected to it by overlapping cards of that suit,
    covered ones included (EM-15)."""
    cdef uint64_t suited = 0
    cdef Py_ssize_t k
    for k in range(n):
        if suits[k] == suits[card]:
            suited |= bit(<int>k)
    return closure(bit(card), suited, adj)


cdef inline int total_strength(uint64_t cards, const uint8_t* strengths) noexcept nogil:
    """The total strength of ``cards`` (a relive needs exactly 7, EM-15)."""
    cdef int total = 0, k
    while cards:
        k = lowest_bit(cards)
        cards &= cards - 1
        total += strengths[k]
    return total
