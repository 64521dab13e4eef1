"""Aetherya kingdom scoring on 16-cell bitboards (compiled kernel).

Twin: ``solver/twins/aetherya_score.py`` (same functions, same results).
Card codes: 0 P, 1 F, 2 M, 3 S, 4 H, 5 E, 6 D, 7 G, 8 R (Dragon), 9 O (Portal), 10 ? (unexplored).
Cell ``c`` is row ``c // 4`` (0 = top), column ``c % 4`` (0 = left).
Output columns: elves, dwarves, humans, goblins, dragons, conflicts, board_total, legend_mask.

``score_one`` scores one kingdom with the shared rules of ``aetherya_board.pxd``; ``score_batch`` scores 32
kingdoms at a time on bit planes (``aetherya_lanes.h``), with the widest vector instructions the CPU has
(chosen at run time: AVX-512, AVX2 or the baseline; ``simd_level``). Both agree with the twin bit for bit.
"""

from libc.stdint cimport uint8_t, uint32_t, int32_t
from aetherya_board cimport CELLS, CODES, PORTAL, Tally, kind_masks, connect_cells, score_cards

cdef extern from "aetherya_lanes.h" nogil:
    int aetherya_lanes_level()
    void aetherya_lanes_score(const uint8_t* kingdoms, int32_t* out, Py_ssize_t n, int level)

cdef enum:
    COLUMNS = 8


cdef inline void score_into(const uint8_t* k, int32_t* out) noexcept nogil:
    """The rules live in ``aetherya_board.pxd`` (shared with the playout and optimiser kernels)."""
    cdef Tally t
    score_cards(k, 0, 0, True, &t)
    out[0] = t.elves
    out[1] = t.dwarves
    out[2] = t.humans
    out[3] = t.goblins
    out[4] = t.dragons
    out[5] = t.conflicts
    out[6] = t.total
    out[7] = <int32_t>t.legends


cdef inline bint valid_codes(const uint8_t* k) noexcept nogil:
    cdef int c
    for c in range(CELLS):
        if k[c] > 10:
            return False
    return True


def connections(const uint8_t[::1] kingdom):
    """For each cell, the bitmask of cells connected to it (orthogonally or through a Portal hub)."""
    cdef uint32_t ortho[CELLS]
    cdef uint32_t conn[CELLS]
    cdef uint32_t kinds[CODES]
    if kingdom.shape[0] != CELLS or not valid_codes(&kingdom[0]):
        raise ValueError("kingdom: expected 16 card codes in 0..10")
    kind_masks(&kingdom[0], kinds)
    connect_cells(kinds[PORTAL], ortho, conn)
    return [conn[c] for c in range(CELLS)]


def score_one(const uint8_t[::1] kingdom):
    """The category scores, board total and satisfied-Legend mask of one kingdom."""
    cdef int32_t out[8]
    if kingdom.shape[0] != CELLS or not valid_codes(&kingdom[0]):
        raise ValueError("kingdom: expected 16 card codes in 0..10")
    score_into(&kingdom[0], out)
    return (out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7])


def simd_level():
    """The widest batch path this CPU runs: 2 AVX-512 (BW and BITALG), 1 AVX2, 0 the baseline vector code."""
    return aetherya_lanes_level()


def score_batch(const uint8_t[:, ::1] kingdoms, int32_t[:, ::1] out, int level=-1):
    """Score ``kingdoms`` (uint8, shape (n, 16)) into ``out`` (int32, shape (n, 8)), row by row.

    ``level`` picks the vector path (-1: the widest the CPU has; 0, 1, 2 as in ``simd_level``, capped at it):
    every path gives the same numbers.
    """
    cdef Py_ssize_t i, n = kingdoms.shape[0]
    if kingdoms.shape[1] != CELLS or out.shape[0] != n or out.shape[1] != COLUMNS:
        raise ValueError("score_batch: expected kingdoms (n, 16) uint8 and out (n, 8) int32")
    if n == 0:
        return
    with nogil:
        i = first_invalid(&kingdoms[0, 0], n)
    if i >= 0:
        raise ValueError(f"kingdoms[{i}]: expected 16 card codes in 0..10")
    with nogil:
        aetherya_lanes_score(&kingdoms[0, 0], &out[0, 0], n, 2 if level < 0 else level)


cdef Py_ssize_t first_invalid(const uint8_t* k, Py_ssize_t n) noexcept nogil:
    """The first row holding a code above 10, or -1."""
    cdef Py_ssize_t i, total = n * CELLS
    cdef uint8_t worst = 0
    for i in range(total):
        worst |= <uint8_t>(k[i] > 10)
    if not worst:
        return -1
    for i in range(n):
        if not valid_codes(&k[i * CELLS]):
            return i
    return -1
