# cython: language_level=3
"""Shared inline scoring of Aetherya kingdoms on 16-cell bitboards: the one compiled place of the
scoring rules of ``docs/rules/aetherya.md`` (AE-1 to AE-7, AE-12 and the Legend conditions), used by
the kernels ``aetherya_score``, ``aetherya_play`` and ``aetherya_opt``.
Twin: ``solver/twins/aetherya_score.py``.

Card codes: 0 P, 1 F, 2 M, 3 S, 4 H, 5 E, 6 D, 7 G, 8 R (Dragon), 9 O (Portal), 10 ? (unexplored).
Cell ``c`` is bit ``c``: row ``c // 4`` (0 = top), column ``c % 4`` (0 = left).
"""

from libc.stdint cimport uint8_t, uint32_t

from common cimport popcount, lowest_bit

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
    UNEXPLORED = 10
    CODES = 11            # entries of a kind-mask array (every code, ``?`` included)
    CELLS = 16
    BOARD = 0xFFFF
    NOT_COL_A = 0xEEEE    # the board without its left column
    NOT_COL_D = 0x7777    # the board without its right column

ctypedef fused card_t:
    uint8_t
    int

ctypedef struct Tally:
    int elves
    int dwarves
    int humans
    int goblins
    int dragons
    int conflicts
    int total             # the board total: the six categories above
    uint32_t legends      # bit n - 1: Legend n is met


cdef inline uint32_t spread(uint32_t m) noexcept nogil:
    """Cells orthogonally adjacent to any cell of ``m`` (AE-1)."""
    return (((m << 1) & NOT_COL_A) | ((m >> 1) & NOT_COL_D) | (m << 4) | (m >> 4)) & BOARD


cdef inline void kind_masks(const card_t* k, uint32_t* kinds) noexcept nogil:
    """``kinds[code]`` (``CODES`` entries): the cells of the 16 codes ``k`` (each 0..10) holding ``code``."""
    cdef int c
    for c in range(CODES):
        kinds[c] = 0
    for c in range(CELLS):
        kinds[k[c]] |= (<uint32_t>1) << c


cdef inline void connect_cells(uint32_t portals, uint32_t* ortho, uint32_t* conn) noexcept nogil:
    """For Portals on ``portals``: ``ortho[c]`` the orthogonal neighbours of cell ``c`` (AE-1), ``conn[c]``
    the cells connected to it, orthogonally or around a hub of orthogonally adjacent Portals (AE-2)."""
    cdef int c
    cdef uint32_t remaining = portals, hub, grown, around, rest
    for c in range(CELLS):
        ortho[c] = spread((<uint32_t>1) << c)
        conn[c] = ortho[c]
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


cdef inline int dragon_value(int n) noexcept nogil:
    """What each of ``n`` Dragons is worth (AE-7): 3 alone, 5 each for 2, 6 each from 3."""
    if n <= 0:
        return 0
    if n == 1:
        return 3
    if n == 2:
        return 5
    return 6


cdef inline int dragon_points(int n, int tamed) noexcept nogil:
    """The Dragons line for ``n`` Dragons of which ``tamed`` are tamed (at most 3 count as tamed, AE-7)."""
    cdef int value = dragon_value(n)
    cdef int counted = 3 if tamed > 3 else tamed
    return value * counted - value * (n - counted)


cdef inline uint32_t touches(uint32_t around, uint32_t cells, int bit) noexcept nogil:
    """``1 << bit`` when ``around`` holds a card of ``cells`` (a Legend met by one neighbour), else 0."""
    return (<uint32_t>((around & cells) != 0)) << bit


cdef inline uint32_t touches_two(uint32_t around, uint32_t cells, int bit) noexcept nogil:
    """``1 << bit`` when ``around`` holds two cards or more of ``cells`` (a Legend met by two), else 0."""
    return (<uint32_t>(popcount(around & cells) >= 2)) << bit


cdef inline uint32_t chain_legend(uint32_t cells, const uint32_t* conn, int bit) noexcept nogil:
    """``1 << bit`` when a card of ``cells`` is connected to two others of them (Legends 12 to 15), else 0."""
    cdef uint32_t rest = cells
    cdef int c
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if popcount(conn[c] & cells) >= 2:
            return (<uint32_t>1) << bit
    return 0


cdef inline void tally(const uint32_t* kinds, const uint32_t* ortho, const uint32_t* conn, uint32_t accords,
                       uint32_t staffs, bint with_legends, Tally* t) noexcept nogil:
    """Score a kingdom given by its kind masks (``kinds[PLAINS]`` to ``kinds[DRAGON]``) and connections.

    Tribe points (AE-4, AE-5), conflicts (AE-6, each pair once), Dragons (AE-7) and, when
    ``with_legends``, the Legends met. Objects mode: a Tribe on an ``accords`` cell is in no conflict; a
    Dragon on a ``staffs`` cell is tamed (both 0 in the other modes).
    """
    cdef uint32_t P = kinds[PLAINS], F = kinds[FOREST], M = kinds[MOUNTAIN], S = kinds[SWAMP]
    cdef uint32_t H = kinds[HUMANS], E = kinds[ELVES], D = kinds[DWARVES], G = kinds[GOBLINS]
    cdef uint32_t rest, m, o, legends = 0
    cdef int c, pairs = 0, tamed = 0
    t.elves = 0
    t.dwarves = 0
    t.humans = 0
    t.goblins = 0
    rest = E
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        m = conn[c]
        t.elves += 2 * popcount(m & F) - popcount(m & S)
        if not (accords >> c) & 1:
            pairs += popcount(m & D & ~accords)
        if with_legends:
            legends |= touches(m, H, 0) | touches(m, E, 4) | touches_two(m, G, 8) | touches_two(m, D, 10)
    rest = D
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        m = conn[c]
        t.dwarves += 2 * popcount(m & M)
        if with_legends:
            legends |= touches(m, H, 1) | touches(m, D, 5) | touches_two(m, G, 9) | touches_two(m, E, 10)
    rest = H
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        m = conn[c]
        t.humans += 2 * popcount(m & P) + popcount(m & F) + popcount(m & M) - popcount(m & S)
        if with_legends:
            legends |= touches(m, E, 0) | touches(m, D, 1) | touches(m, H, 3) | touches_two(m, G, 7)
    rest = G
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        m = conn[c]
        o = ortho[c]
        t.goblins += 3 * popcount(o & S)
        if not (accords >> c) & 1:
            pairs += popcount(m & (H | E | D) & ~accords)
        if with_legends:
            legends |= touches(o, G, 2) | touches_two(o, H, 7) | touches_two(o, E, 8) | touches_two(o, D, 9)
    rest = kinds[DRAGON]
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        m = conn[c]
        if (staffs >> c) & 1 or popcount(m & H) >= 2 or popcount(m & E) >= 2 or popcount(m & D) >= 2:
            tamed += 1
    if with_legends:
        legends |= chain_legend(P, conn, 11) | chain_legend(S, conn, 12) | chain_legend(M, conn, 13) \
            | chain_legend(F, conn, 14)
        if H and E and D and G:
            legends |= 1 << 6
    t.dragons = dragon_points(popcount(kinds[DRAGON]), tamed)
    t.conflicts = -2 * pairs
    t.total = t.elves + t.dwarves + t.humans + t.goblins + t.dragons + t.conflicts
    t.legends = legends


cdef inline void score_cards(const card_t* k, uint32_t accords, uint32_t staffs, bint with_legends,
                             Tally* t) noexcept nogil:
    """``tally`` of the 16 codes ``k`` (each 0..10; 10 is no card, AE-12)."""
    cdef uint32_t kinds[CODES]
    cdef uint32_t ortho[CELLS]
    cdef uint32_t conn[CELLS]
    kind_masks(k, kinds)
    connect_cells(kinds[PORTAL], ortho, conn)
    tally(kinds, ortho, conn, accords, staffs, with_legends, t)
