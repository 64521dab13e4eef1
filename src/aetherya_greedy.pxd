# cython: language_level=3
"""The Legend part of the greedy playout policy's value (base and Objects: the best Legend of the row that a
board meets), on the packed state of ``aetherya_packed.pxd``; used by ``aetherya_play``.
Twin: ``_value`` in ``solver/twins/aetherya_play.py`` (base and Objects).

Legend n is bit n - 1. The masks below are ``LEGEND_POINTS`` (``aetherya_play.pyx``, AE rules' Legend table) by
value: 4 points for Legends 7 and 12-15, 3 for 8-11, 2 for 1-6. A placement trial asks for the row once and then
takes the best Legend met with three tests, where a loop over the Legends met looked each one up in the row.
"""

from libc.stdint cimport uint32_t

from aetherya_packed cimport MODE, ROW, BASE, OBJECTS

cdef enum:
    FOUR_POINTS = 0x7840
    THREE_POINTS = 0x0780
    TWO_POINTS = 0x003F


cdef inline uint32_t row_legends(const int* s) noexcept nogil:
    """Base and Objects: bit n - 1 for each Legend n in the row (0 in co-op and solo, whose values take none)."""
    cdef uint32_t row = 0
    cdef int n
    if s[MODE] == BASE or s[MODE] == OBJECTS:
        for n in range(1, 16):
            if s[ROW + n]:
                row |= (<uint32_t>1) << (n - 1)
    return row


cdef inline int best_legend(uint32_t met) noexcept nogil:
    """The points of the best Legend of ``met`` (0 when none)."""
    if met & FOUR_POINTS:
        return 4
    if met & THREE_POINTS:
        return 3
    return 2 if met & TWO_POINTS else 0
