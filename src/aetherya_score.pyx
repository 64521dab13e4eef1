# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Aetherya kingdom scoring on 16-cell bitboards (compiled kernel).

Twin: ``solver/twins/aetherya_score.py`` (same functions, same results).
Card codes: 0 P, 1 F, 2 M, 3 S, 4 H, 5 E, 6 D, 7 G, 8 R (Dragon), 9 O (Portal), 10 ? (unexplored).
Cell ``c`` is row ``c // 4`` (0 = top), column ``c % 4`` (0 = left).
Output columns: elves, dwarves, humans, goblins, dragons, conflicts, board_total, legend_mask.
"""

from libc.stdint cimport uint8_t, uint32_t, int32_t

cdef extern from *:
    int popcount "__builtin_popcount"(unsigned int) nogil
    int lowest_bit "__builtin_ctz"(unsigned int) nogil


cdef enum:
    PLAINS = 0
    FOREST = 1
    MOUNTAIN = 2
    SWAMP = 3
    HUMANS = 4
    ELVES = 5
    DWARVES = 6
    GOBLINS = 7
    DRAGON = 8
    PORTAL = 9
    KINDS = 11
    CELLS = 16
    COLUMNS = 8

cdef uint32_t FULL = 0xFFFF
cdef uint32_t COL_A = 0x1111
cdef uint32_t COL_D = 0x8888
cdef int DRAGON_VALUE[4]
DRAGON_VALUE[:] = [0, 3, 5, 6]
cdef uint32_t ORTHO[16]


cdef inline uint32_t spread(uint32_t m) noexcept nogil:
    """Cells orthogonally adjacent to any cell of ``m``."""
    return (((m << 1) & ~COL_A) | ((m >> 1) & ~COL_D) | (m << 4) | (m >> 4)) & FULL


cdef void init_tables() noexcept:
    cdef int c
    for c in range(CELLS):
        ORTHO[c] = spread((<uint32_t>1) << c)


init_tables()


cdef inline void connect(const uint8_t* k, uint32_t* ortho, uint32_t* conn, uint32_t* kinds) noexcept nogil:
    cdef int c
    cdef uint32_t portals, remaining, hub, grown, around, rest
    for c in range(KINDS):
        kinds[c] = 0
    for c in range(CELLS):
        if k[c] < KINDS:
            kinds[k[c]] |= (<uint32_t>1) << c
        ortho[c] = ORTHO[c]
        conn[c] = ORTHO[c]
    portals = kinds[PORTAL]
    remaining = portals
    while remaining:
        hub = remaining & (~remaining + 1)
        while True:
            grown = hub | (spread(hub) & portals)
            if grown == hub:
                break
            hub = grown
        remaining &= ~hub
        around = spread(hub) & ~hub
        rest = around
        while rest:
            c = lowest_bit(rest)
            rest &= rest - 1
            conn[c] |= around & ~((<uint32_t>1) << c)


cdef inline void score_into(const uint8_t* k, int32_t* out) noexcept nogil:
    cdef uint32_t ortho[16]
    cdef uint32_t conn[16]
    cdef uint32_t kinds[11]
    cdef int c, elves = 0, dwarves = 0, humans = 0, goblins = 0, pairs = 0
    cdef int n_dragons, tamed = 0, value, counted
    cdef uint32_t legends = 0, m
    cdef uint32_t P, F, M, S, H, E, D, G
    connect(k, ortho, conn, kinds)
    P = kinds[PLAINS]; F = kinds[FOREST]; M = kinds[MOUNTAIN]; S = kinds[SWAMP]
    H = kinds[HUMANS]; E = kinds[ELVES]; D = kinds[DWARVES]; G = kinds[GOBLINS]
    for c in range(CELLS):
        m = conn[c]
        if k[c] == ELVES:
            elves += 2 * popcount(m & F) - popcount(m & S)
            pairs += popcount(m & D)
            if m & H:
                legends |= 1 << 0
            if m & E:
                legends |= 1 << 4
            if popcount(m & G) >= 2:
                legends |= 1 << 8
            if popcount(m & D) >= 2:
                legends |= 1 << 10
        elif k[c] == DWARVES:
            dwarves += 2 * popcount(m & M)
            if m & H:
                legends |= 1 << 1
            if m & D:
                legends |= 1 << 5
            if popcount(m & G) >= 2:
                legends |= 1 << 9
            if popcount(m & E) >= 2:
                legends |= 1 << 10
        elif k[c] == HUMANS:
            humans += 2 * popcount(m & P) + popcount(m & F) + popcount(m & M) - popcount(m & S)
            if m & E:
                legends |= 1 << 0
            if m & D:
                legends |= 1 << 1
            if m & H:
                legends |= 1 << 3
            if popcount(m & G) >= 2:
                legends |= 1 << 7
        elif k[c] == GOBLINS:
            goblins += 3 * popcount(ortho[c] & S)
            pairs += popcount(m & (H | E | D))
            if ortho[c] & G:
                legends |= 1 << 2
            if popcount(ortho[c] & H) >= 2:
                legends |= 1 << 7
            if popcount(ortho[c] & E) >= 2:
                legends |= 1 << 8
            if popcount(ortho[c] & D) >= 2:
                legends |= 1 << 9
        elif k[c] == DRAGON:
            if popcount(m & H) >= 2 or popcount(m & E) >= 2 or popcount(m & D) >= 2:
                tamed += 1
        elif k[c] == PLAINS:
            if popcount(m & P) >= 2:
                legends |= 1 << 11
        elif k[c] == SWAMP:
            if popcount(m & S) >= 2:
                legends |= 1 << 12
        elif k[c] == MOUNTAIN:
            if popcount(m & M) >= 2:
                legends |= 1 << 13
        elif k[c] == FOREST:
            if popcount(m & F) >= 2:
                legends |= 1 << 14
    if H and E and D and G:
        legends |= 1 << 6
    n_dragons = popcount(kinds[DRAGON])
    value = DRAGON_VALUE[3 if n_dragons > 3 else n_dragons]
    counted = 3 if tamed > 3 else tamed
    out[0] = elves
    out[1] = dwarves
    out[2] = humans
    out[3] = goblins
    out[4] = value * counted - value * (n_dragons - counted)
    out[5] = -2 * pairs
    out[6] = elves + dwarves + humans + goblins + out[4] + out[5]
    out[7] = <int32_t>legends


cdef inline bint valid_codes(const uint8_t* k) noexcept nogil:
    cdef int c
    for c in range(CELLS):
        if k[c] > 10:
            return False
    return True


def connections(const uint8_t[::1] kingdom):
    """For each cell, the bitmask of cells connected to it (orthogonally or through a Portal hub)."""
    cdef uint32_t ortho[16]
    cdef uint32_t conn[16]
    cdef uint32_t kinds[11]
    if kingdom.shape[0] != CELLS or not valid_codes(&kingdom[0]):
        raise ValueError("kingdom: expected 16 card codes in 0..10")
    connect(&kingdom[0], ortho, conn, kinds)
    return [conn[c] for c in range(CELLS)]


def score_one(const uint8_t[::1] kingdom):
    """The category scores, board total and satisfied-Legend mask of one kingdom."""
    cdef int32_t out[8]
    if kingdom.shape[0] != CELLS or not valid_codes(&kingdom[0]):
        raise ValueError("kingdom: expected 16 card codes in 0..10")
    score_into(&kingdom[0], out)
    return (out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7])


def score_batch(const uint8_t[:, ::1] kingdoms, int32_t[:, ::1] out):
    """Score ``kingdoms`` (uint8, shape (n, 16)) into ``out`` (int32, shape (n, 8)), row by row."""
    cdef Py_ssize_t i, n = kingdoms.shape[0]
    if kingdoms.shape[1] != CELLS or out.shape[0] != n or out.shape[1] != COLUMNS:
        raise ValueError("score_batch: expected kingdoms (n, 16) uint8 and out (n, 8) int32")
    with nogil:
        for i in range(n):
            if not valid_codes(&kingdoms[i, 0]):
                with gil:
                    raise ValueError(f"kingdoms[{i}]: expected 16 card codes in 0..10")
            score_into(&kingdoms[i, 0], &out[i, 0])
