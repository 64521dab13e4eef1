# cython: language_level=3
"""How far an Aetherya kingdom is from each Legend: the fewest cards to place to meet it (the solo policy's
measure; inline, for ``aetherya_play``, whose twin is ``_needs_of`` in ``solver/twins/aetherya_play.py``)."""

from libc.stdint cimport uint32_t
from common cimport lowest_bit
from aetherya_board cimport (PLAINS, FOREST, MOUNTAIN, SWAMP, HUMANS, ELVES, DWARVES, GOBLINS, DRAGON, PORTAL,
                             CODES, CELLS, kind_masks, connect_cells)

cdef enum:
    NEEDS_OUT_OF_REACH = 99   # a Legend that cannot be met (``BIG`` of the playout kernel)

# Legends 1-6: two kinds adjacent (PAIR_ORTH: orthogonally, else connected); 8-11: battles, a middle kind between
# two of the other (either way round); 12-15: a chain of three connected lands of one kind.
cdef extern from *:
    """
    static const int AETHERYA_PAIR_A[7] = {0, 4, 4, 7, 4, 5, 6};
    static const int AETHERYA_PAIR_B[7] = {0, 5, 6, 7, 4, 5, 6};
    static const int AETHERYA_PAIR_ORTH[7] = {0, 0, 0, 1, 0, 0, 0};
    static const int AETHERYA_BATTLE_X[12] = {0, 0, 0, 0, 0, 0, 0, 0, 7, 7, 7, 5};
    static const int AETHERYA_BATTLE_Y[12] = {0, 0, 0, 0, 0, 0, 0, 0, 4, 5, 6, 6};
    static const int AETHERYA_CHAIN_KIND[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 2, 1};
    """
    const int PAIR_A "AETHERYA_PAIR_A"[7]
    const int PAIR_B "AETHERYA_PAIR_B"[7]
    const int PAIR_ORTH "AETHERYA_PAIR_ORTH"[7]
    const int BATTLE_X "AETHERYA_BATTLE_X"[12]
    const int BATTLE_Y "AETHERYA_BATTLE_Y"[12]
    const int CHAIN_KIND "AETHERYA_CHAIN_KIND"[16]


cdef inline int cell_cost(const int* k, int c, int kind) noexcept nogil:
    """Cards to place to have ``kind`` on cell ``c``: 0 if it is there, 1 if the cell can take it, else NEEDS_OUT_OF_REACH."""
    if k[c] == kind:
        return 0
    if k[c] == DRAGON or k[c] == PORTAL:
        return NEEDS_OUT_OF_REACH
    return 1


cdef inline void two_cheapest(const int* k, unsigned int cells, int kind, int* first, int* second) noexcept nogil:
    cdef int c, v
    first[0] = NEEDS_OUT_OF_REACH
    second[0] = NEEDS_OUT_OF_REACH
    while cells:
        c = lowest_bit(cells)
        cells &= cells - 1
        v = cell_cost(k, c, kind)
        if v < first[0]:
            second[0] = first[0]
            first[0] = v
        elif v < second[0]:
            second[0] = v


cdef inline void needs_of(const int* k, const int* avail, unsigned int wanted, int* out) noexcept nogil:
    """out[n] (n = 1..15, bit n of ``wanted`` set; NEEDS_OUT_OF_REACH for the others): the fewest cards to place in ``k`` to
    meet Legend n with the copies in ``avail``."""
    cdef uint32_t kinds[CODES]
    cdef uint32_t ortho[CELLS]
    cdef uint32_t conn[CELLS]
    cdef unsigned int cells, near
    cdef int n, c, m, a, b, ca, cb, best, mid, side, orientation, kind, missing, present
    kind_masks(k, kinds)
    connect_cells(kinds[PORTAL], ortho, conn)
    for n in range(16):
        out[n] = NEEDS_OUT_OF_REACH
    for n in range(1, 7):
        if not (wanted >> n) & 1:
            continue
        a = PAIR_A[n]
        b = PAIR_B[n]
        best = NEEDS_OUT_OF_REACH
        for c in range(16):
            ca = cell_cost(k, c, a)
            if ca >= NEEDS_OUT_OF_REACH:
                continue
            near = ortho[c] if PAIR_ORTH[n] else conn[c]
            while near:
                m = lowest_bit(near)
                near &= near - 1
                cb = cell_cost(k, m, b)
                if cb >= NEEDS_OUT_OF_REACH:
                    continue
                if a == b:
                    if ca + cb > avail[a]:
                        continue
                elif ca > avail[a] or cb > avail[b]:
                    continue
                if ca + cb < best:
                    best = ca + cb
        out[n] = best
    missing = 0
    for kind in range(HUMANS, GOBLINS + 1 if (wanted >> 7) & 1 else HUMANS):
        present = 0
        for c in range(16):
            if k[c] == kind:
                present = 1
        if not present:
            if avail[kind] < 1:
                missing = NEEDS_OUT_OF_REACH
                break
            missing += 1
    if (wanted >> 7) & 1:
        out[7] = missing
    for n in range(8, 12):
        if not (wanted >> n) & 1:
            continue
        best = NEEDS_OUT_OF_REACH
        for orientation in range(2):
            mid = BATTLE_X[n] if orientation == 0 else BATTLE_Y[n]
            side = BATTLE_Y[n] if orientation == 0 else BATTLE_X[n]
            for c in range(16):
                ca = cell_cost(k, c, mid)
                if ca >= NEEDS_OUT_OF_REACH:
                    continue
                two_cheapest(k, ortho[c] if mid == GOBLINS else conn[c], side, &a, &b)
                if b >= NEEDS_OUT_OF_REACH or ca > avail[mid] or a + b > avail[side]:
                    continue
                if ca + a + b < best:
                    best = ca + a + b
        out[n] = best
    for n in range(12, 16):
        if not (wanted >> n) & 1:
            continue
        kind = CHAIN_KIND[n]
        best = NEEDS_OUT_OF_REACH
        for c in range(16):
            ca = cell_cost(k, c, kind)
            if ca >= NEEDS_OUT_OF_REACH:
                continue
            two_cheapest(k, conn[c], kind, &a, &b)
            if b >= NEEDS_OUT_OF_REACH or ca + a + b > avail[kind]:
                continue
            if ca + a + b < best:
                best = ca + a + b
        out[n] = best
