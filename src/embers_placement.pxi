"""Embers of Memory: legal placements of every card of the memory row at once (compiled kernel).

Twin: ``solver/twins/embers_placement.py`` (same functions, same results). The rules themselves
(legal columns, laying a card on top) are shared with the other Embers kernels in ``src/embers_core.pxd``.

The Mind is a stack of cards on a lattice of quarters. Card ``k`` (index 0 is
the bottom card) lies with its top-left quarter at ``(xs[k], ys[k])`` (x to the
right, y downwards) and covers the four quarters ``(x, y)``, ``(x+1, y)``,
``(x, y+1)``, ``(x+1, y+1)``: segment bits 0, 1, 2, 3 of ``blocked[k]`` (set =
blocked). The top segment of a quarter is the one of the last card covering it.

A new card may go at ``(x, y)`` when (rulebook, "Adding Memories"): every one of
its segments that lands on a covered quarter matches the top segment there
(clear on clear, blocked on blocked), and at least one of its blocked segments
lands on a blocked top segment (which also makes it overlap a card).

The board is a bitboard of 64-bit rows: bit ``c`` of row ``r`` is the quarter
``(x0 + c, y0 + r)`` with ``x0 = min(xs) - 1`` and ``y0 = min(ys) - 1``. For a
row card with blocked mask ``b`` the legal columns of placement row ``r`` are,
for all columns at once::

    good = OR over blocked segments s of  BLOCKED[r + dy(s)] >> dx(s)
    bad  = OR over blocked segments s of  CLEAR[r + dy(s)] >> dx(s)
         | OR over clear segments s of    BLOCKED[r + dy(s)] >> dx(s)
    legal = good & ~bad
"""

from libc.stdint cimport uint8_t, uint64_t, int32_t
from embers_core cimport MAX_SIDE, bounding_box, lay_card, row_legal


cdef inline int check_mind(const int32_t[::1] xs, const int32_t[::1] ys, const uint8_t[::1] blocked,
                           int32_t* minx, int32_t* miny, int* width, int* height) except -1:
    cdef Py_ssize_t n = xs.shape[0]
    cdef int32_t lox, hix, loy, hiy
    if ys.shape[0] != n or blocked.shape[0] != n:
        raise ValueError("mind: xs, ys and blocked must have the same length")
    if n == 0:
        minx[0] = 0
        miny[0] = 0
        width[0] = 0
        height[0] = 0
        return 0
    bounding_box(&xs[0], &ys[0], n, &lox, &loy, &hix, &hiy)
    if <long>hix - lox + 4 > MAX_SIDE or <long>hiy - loy + 4 > MAX_SIDE:
        raise ValueError("mind: the cards span more than 60 quarters")
    minx[0] = lox
    miny[0] = loy
    width[0] = hix - lox + 4   # quarters x0 .. max + 2
    height[0] = hiy - loy + 4
    return 0


cdef inline void paint(const int32_t[::1] xs, const int32_t[::1] ys, const uint8_t[::1] blocked,
                       int32_t x0, int32_t y0, uint64_t* occ, uint64_t* blk) noexcept nogil:
    """The Mind's top layer, 64 rows of ``occ`` and ``blk``, with its origin at ``(x0, y0)``."""
    cdef Py_ssize_t k
    cdef int r
    for r in range(MAX_SIDE):
        occ[r] = 0
        blk[r] = 0
    for k in range(xs.shape[0]):
        lay_card(occ, blk, xs[k] - x0, ys[k] - y0, blocked[k])


def legal_placement_masks(const int32_t[::1] xs, const int32_t[::1] ys, const uint8_t[::1] blocked,
                          const uint8_t[::1] row_blocked, uint64_t[:, ::1] masks):
    """Legal placements of every row card as bitmasks; returns the origin ``(x0, y0)``.

    ``masks`` (uint64, shape (len(row_blocked), 64)) receives, for row card
    ``i``, bit ``c`` of ``masks[i, r]`` set when the card may go with its
    top-left quarter at ``(x0 + c, y0 + r)``. An empty Mind has no legal
    placement (a card must overlap another one).
    """
    cdef uint64_t occ[MAX_SIDE]
    cdef uint64_t blk[MAX_SIDE]
    cdef uint64_t clr[MAX_SIDE]
    cdef uint64_t cols
    cdef int32_t minx, miny
    cdef int width, height, r
    cdef Py_ssize_t i, m = row_blocked.shape[0]
    check_mind(xs, ys, blocked, &minx, &miny, &width, &height)
    if masks.shape[0] != m or masks.shape[1] != MAX_SIDE:
        raise ValueError("masks: expected shape (len(row_blocked), 64)")
    with nogil:
        paint(xs, ys, blocked, minx - 1, miny - 1, occ, blk)
        for r in range(MAX_SIDE):
            clr[r] = occ[r] & ~blk[r]
        cols = ((<uint64_t>1) << (width - 1)) - 1 if width > 1 else 0
        for i in range(m):
            for r in range(MAX_SIDE):
                if r < height - 1:
                    masks[i, r] = row_legal(row_blocked[i], blk[r], clr[r], blk[r + 1], clr[r + 1]) & cols
                else:
                    masks[i, r] = 0
    return (minx - 1, miny - 1)


def top_segments(const int32_t[::1] xs, const int32_t[::1] ys, const uint8_t[::1] blocked,
                 uint64_t[::1] occupied, uint64_t[::1] blocked_top):
    """The Mind's top layer as two bitboards; returns the origin ``(x0, y0)`` (as in ``legal_placement_masks``).

    ``occupied[r]`` bit ``c``: some card covers quarter ``(x0 + c, y0 + r)``;
    ``blocked_top[r]`` bit ``c``: its top segment is blocked. Both have 64 rows.
    """
    cdef uint64_t occ[MAX_SIDE]
    cdef uint64_t blk[MAX_SIDE]
    cdef int32_t minx, miny
    cdef int width, height, r
    check_mind(xs, ys, blocked, &minx, &miny, &width, &height)
    if occupied.shape[0] != MAX_SIDE or blocked_top.shape[0] != MAX_SIDE:
        raise ValueError("occupied, blocked_top: expected 64 rows")
    with nogil:
        paint(xs, ys, blocked, minx - 1, miny - 1, occ, blk)
        for r in range(MAX_SIDE):
            occupied[r] = occ[r]
            blocked_top[r] = blk[r]
    return (minx - 1, miny - 1)
