# cython: language_level=3
"""The greedy playout policy's value of a board, on the packed state of ``aetherya_packed.pxd``: the board total
(``score``) with the Legends it meets (``with_legends``: base and Objects, the best Legend of the row met), and
the random tie-break among equal values (``keep_best``); used by ``aetherya_play`` and ``aetherya_solo.pxd``.
Twin: ``_value`` in ``solver/twins/aetherya_play.py``.

Legend n is bit n - 1. The masks below are ``LEGEND_POINTS`` (``aetherya_play.pyx``, AE rules' Legend table) by
value: 4 points for Legends 7 and 12-15, 3 for 8-11, 2 for 1-6. A placement trial asks for the row once and then
takes the best Legend met with three tests, where a loop over the Legends met looked each one up in the row.
"""

from libc.stdint cimport uint32_t, uint64_t

from common cimport below_high as below
from aetherya_board cimport UNEXPLORED, Tally, score_cards
from aetherya_packed cimport MODE, P_ROW, P_BASE, P_OBJECTS, P_SOLO, P_SROW, AGE, WRIT, HID, CARDS, ACC, STF

cdef enum:
    FOUR_POINTS = 0x7840
    THREE_POINTS = 0x0780
    TWO_POINTS = 0x003F


cdef inline uint32_t row_legends(const int* s) noexcept nogil:
    """Base and Objects: bit n - 1 for each Legend n in the row (0 in co-op and solo, whose values take none)."""
    cdef uint32_t row = 0
    cdef int n
    if s[MODE] == P_BASE or s[MODE] == P_OBJECTS:
        for n in range(1, 16):
            if s[P_ROW + n]:
                row |= (<uint32_t>1) << (n - 1)
    return row


cdef inline int best_legend(uint32_t met) noexcept nogil:
    """The points of the best Legend of ``met`` (0 when none)."""
    if met & FOUR_POINTS:
        return 4
    if met & THREE_POINTS:
        return 3
    return 2 if met & TWO_POINTS else 0


cdef inline int score(const int* k, unsigned int accords, unsigned int staffs, unsigned int* legends_out) noexcept nogil:
    """The board total of the 16 codes ``k`` with Accord and Staff cells (objects mode; 0 and 0 otherwise), and
    the Legends met; the rules live in ``aetherya_board.pxd`` (shared with the scoring and optimiser kernels)."""
    cdef Tally t
    score_cards(k, accords, staffs, True, &t)
    legends_out[0] = t.legends
    return t.total


cdef inline void board(const int* s, int seat, int* k) noexcept nogil:
    cdef int c
    cdef unsigned int hidden = <unsigned int>s[HID + seat]
    for c in range(16):
        k[c] = UNEXPLORED if (hidden >> c) & 1 else s[CARDS + seat * 16 + c]


cdef inline int with_legends(const int* s, int total, unsigned int legends) noexcept nogil:
    """The greedy value of a board total with the Legends it meets: base and Objects, the best Legend of the row
    met; solo, 10 for each Legend of the Age still to write that is met."""
    cdef int mode = s[MODE], n
    if mode == P_BASE or mode == P_OBJECTS:
        total += best_legend(legends & row_legends(s))
    elif mode == P_SOLO:
        for n in range(1, 16):
            if s[P_SROW + n] == s[AGE] + 1 and not s[WRIT + n] and (legends >> (n - 1)) & 1:
                total += 10
    return total


cdef inline int value_of(const int* s, int seat, const int* k) noexcept nogil:
    cdef unsigned int legends
    cdef int total = score(k, <unsigned int>s[ACC + seat], <unsigned int>s[STF + seat], &legends)
    return with_legends(s, total, legends)


cdef inline void keep_best(int v, int c, int* best_value, int* best_cell, int* ties, uint64_t* rng) noexcept nogil:
    """Keep the best cell seen so far; among equal values each is kept with equal chance (reservoir draw)."""
    if v > best_value[0]:
        best_cell[0] = c
        best_value[0] = v
        ties[0] = 1
    elif v == best_value[0]:
        ties[0] += 1
        if below(rng, ties[0]) == 0:
            best_cell[0] = c
