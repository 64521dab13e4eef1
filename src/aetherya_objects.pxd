# cython: language_level=3, boundscheck=False, wraparound=False
"""Aetherya's Objects and Characters tiles on a row of the step kernel ``aetherya_step`` (``aetherya_row.pxd``'s
Objects block): the tiles dealt onto the territories, the tile plays open at the end of a turn and their effects,
the tiles discarded at the end, the Power Stones, the kingdom's Objects score and the Objects pieces of the
observation. The rules are those of ``solver/aetherya/state.py`` (AE-23 to AE-31 of ``docs/rules/aetherya.md``).
Twin: the Objects functions of ``solver/twins/aetherya_step.py``.
"""

from libc.stdint cimport int32_t, uint32_t
from common cimport popcount
from aetherya_board cimport HUMANS, ELVES, DWARVES, GOBLINS, DRAGON, PORTAL, CODES, Tally, kind_masks, \
    connect_cells, score_cards

from aetherya_row cimport *


cdef inline int tile_index(int tile) noexcept nogil:
    """A tile's index among the game's ``12 P`` tiles (``_tile`` of openspiel.py)."""
    return (tile >> 4) * TILE_KINDS + (tile & 15)


cdef inline int owned_kind(const int32_t* s, int seat, int kind) noexcept nogil:
    """Copies of tile kind ``kind`` (any family) the seat owns."""
    cdef int family, n = 0
    for family in range(4):
        n += s[OWNED + seat * 64 + family * 16 + kind]
    return n


cdef inline int take_owned(int32_t* s, int seat, int kind) noexcept nogil:
    """Remove and return the seat's tile of ``kind``, the lowest family first (``_take_owned``)."""
    cdef int family
    for family in range(4):
        if s[OWNED + seat * 64 + family * 16 + kind] > 0:
            s[OWNED + seat * 64 + family * 16 + kind] -= 1
            return family * 16 + kind
    return -1


cdef inline void clear_slot(int32_t* s, const Rules* r, int seat, int cell) noexcept nogil:
    """The territory's tile leaves: no tile, not face up, nobody's peek at it stands (``_clear_slot``)."""
    cdef int p
    s[TERR + seat * CELLS + cell] = -1
    s[FACE_UP + seat] &= ~(1 << cell)
    for p in range(r.players):
        s[KNOWN + p * 64 + seat * CELLS + cell] = 0


cdef inline uint32_t tile_cells(const int32_t* cells) noexcept nogil:
    """The cells (bitmask) of 16 words holding a tile."""
    cdef int c
    cdef uint32_t m = 0
    for c in range(CELLS):
        if cells[c] >= 0:
            m |= (<uint32_t>1) << c
    return m


cdef inline void board_of(const int32_t* s, int seat, int* k, uint32_t* kinds, uint32_t* conn) noexcept nogil:
    """The seat's board codes (``board_codes``), their kind masks and connections."""
    cdef uint32_t ortho[CELLS]
    board_codes(s, seat, k)
    kind_masks(k, kinds)
    connect_cells(kinds[PORTAL], ortho, conn)


cdef inline int stones(const int32_t* s, int seat) noexcept nogil:
    """The units digit of the Power Stones the seat owns (AE-30)."""
    cdef int kind, value = 0
    for kind in range(T_STONE1, T_STONE4 + 1):
        value += (kind - T_STONE1 + 1) * owned_kind(s, seat, kind)
    return value % 10


cdef inline int board_total(const int32_t* s, int seat) noexcept nogil:
    """The seat's board total with its Accords and Staffs (``score_board``)."""
    cdef int k[CELLS]
    cdef Tally t
    board_codes(s, seat, k)
    score_cards(k, tile_cells(s + ACCORDS + seat * CELLS), tile_cells(s + STAFFS + seat * CELLS), False, &t)
    return t.total


cdef inline uint32_t sword_battles(const int32_t* s, int seat) noexcept nogil:
    """Bit n - 1: battle Legend n (8-11) is winnable with the Magic Sword, one card of each kind connected
    (AE-26)."""
    cdef int k[CELLS]
    cdef uint32_t kinds[CODES]
    cdef uint32_t conn[CELLS]
    cdef int pairs[4][2]
    cdef int b, c
    cdef uint32_t out = 0
    board_of(s, seat, k, kinds, conn)
    pairs[0][:] = [GOBLINS, HUMANS]
    pairs[1][:] = [GOBLINS, ELVES]
    pairs[2][:] = [GOBLINS, DWARVES]
    pairs[3][:] = [ELVES, DWARVES]
    for b in range(4):
        for c in range(CELLS):
            if k[c] == pairs[b][0] and conn[c] & kinds[pairs[b][1]]:
                out |= (<uint32_t>1) << (7 + b)
                break
    return out


cdef inline bint open_slot(const int32_t* s, int q, int c) noexcept nogil:
    """A face-down tile lies on seat ``q``'s territory ``c``."""
    return s[TERR + q * CELLS + c] >= 0 and not (s[FACE_UP + q] >> c) & 1


cdef inline int tile_options(const int32_t* s, const Rules* r, int seat, int32_t* out) noexcept nogil:
    """The tile plays open to the seat at the end of its turn, ascending (``_end_turn_options`` after the claims):
    Accords, Staffs, Hammers, Griffins, Palantir peeks, Thieves, Traffickers."""
    cdef int k[CELLS]
    cdef uint32_t kinds[CODES]
    cdef uint32_t conn[CELLS]
    cdef int n = 0, c, a, b, q, kind, stone
    cdef uint32_t hidden = <uint32_t>s[HIDDEN + seat], staffs
    board_of(s, seat, k, kinds, conn)
    if owned_kind(s, seat, T_ACCORD):
        for c in range(CELLS):
            if HUMANS <= k[c] <= GOBLINS and s[ACCORDS + seat * CELLS + c] < 0:
                out[n] = A_ACCORD + c
                n += 1
    if owned_kind(s, seat, T_STAFF):
        staffs = tile_cells(s + STAFFS + seat * CELLS)
        for c in range(CELLS):              # a wild Dragon: under no Staff, not tamed by two Tribes of a kind
            if k[c] == DRAGON and not (staffs >> c) & 1 and popcount(conn[c] & kinds[HUMANS]) < 2 \
                    and popcount(conn[c] & kinds[ELVES]) < 2 and popcount(conn[c] & kinds[DWARVES]) < 2:
                out[n] = A_STAFF + c
                n += 1
    if owned_kind(s, seat, T_HAMMER):
        for a in range(CELLS):
            for b in range(a + 1, CELLS):
                if not ((hidden >> a) & 1 or (hidden >> b) & 1) \
                        and s[KINGDOMS + seat * CELLS + a] != s[KINGDOMS + seat * CELLS + b]:
                    out[n] = A_HAMMER + a * CELLS + b
                    n += 1
    if owned_kind(s, seat, T_GRIFFIN):
        for q in range(r.players):
            for c in range(CELLS):
                if open_slot(s, q, c):
                    out[n] = A_GRIFFIN + q * CELLS + c
                    n += 1
    if owned_kind(s, seat, T_PALANTIR) > s[H_PEEKS_USED]:
        for q in range(r.players):
            for c in range(CELLS):
                if open_slot(s, q, c) and not s[KNOWN + seat * 64 + q * CELLS + c]:
                    out[n] = A_PEEK + q * CELLS + c
                    n += 1
    if owned_kind(s, seat, T_THIEF):
        for q in range(r.players):
            for kind in range(TILE_KINDS):    # Objects only: not the Griffin, the Trafficker or the Thief
                if q != seat and kind != T_GRIFFIN and kind != T_TRAFFICKER and kind != T_THIEF \
                        and owned_kind(s, q, kind):
                    out[n] = A_THIEF + q * CELLS + kind
                    n += 1
    if owned_kind(s, seat, T_TRAFFICKER):
        for q in range(r.players):
            for stone in range(4):
                for kind in range(TILE_KINDS):
                    if q != seat and owned_kind(s, seat, T_STONE1 + stone) \
                            and not T_STONE1 <= kind <= T_STONE4 and owned_kind(s, q, kind):
                        out[n] = A_TRAFFIC + q * 64 + stone * CELLS + kind
                        n += 1
    return n


cdef inline void swap_cells(int32_t* cells, int a, int b) noexcept nogil:
    cdef int32_t kept = cells[a]
    cells[a] = cells[b]
    cells[b] = kept


cdef inline void play_tile(int32_t* s, const Rules* r, int seat, int action) noexcept nogil:
    """A tile play of the end of the turn (``_play_tile``)."""
    cdef int a, b, q, cell, taken, griffin, kind, stone, given
    if action < A_STAFF:
        s[ACCORDS + seat * CELLS + action - A_ACCORD] = take_owned(s, seat, T_ACCORD)
    elif action < A_HAMMER:
        s[STAFFS + seat * CELLS + action - A_STAFF] = take_owned(s, seat, T_STAFF)
    elif action < A_GRIFFIN:
        a = (action - A_HAMMER) // CELLS
        b = (action - A_HAMMER) % CELLS
        s[TDISC + take_owned(s, seat, T_HAMMER)] += 1
        swap_cells(s + KINGDOMS + seat * CELLS, a, b)
        swap_cells(s + ACCORDS + seat * CELLS, a, b)    # AE-28: tiles on the cards move with them
        swap_cells(s + STAFFS + seat * CELLS, a, b)
    elif action < A_PEEK:
        q = (action - A_GRIFFIN) // CELLS
        cell = (action - A_GRIFFIN) % CELLS
        taken = s[TERR + q * CELLS + cell]
        griffin = take_owned(s, seat, T_GRIFFIN)
        clear_slot(s, r, q, cell)
        s[TERR + q * CELLS + cell] = griffin
        s[FACE_UP + q] |= 1 << cell
        s[OWNED + seat * 64 + taken] += 1
    elif action < A_THIEF:
        s[KNOWN + seat * 64 + action - A_PEEK] = 1
        s[H_PEEKS_USED] += 1
    elif action < A_TRAFFIC:
        q = (action - A_THIEF) // CELLS
        s[TDISC + take_owned(s, seat, T_THIEF)] += 1
        s[OWNED + seat * 64 + take_owned(s, q, (action - A_THIEF) % CELLS)] += 1
    else:
        q = (action - A_TRAFFIC) // 64
        stone = (action - A_TRAFFIC) % 64 // CELLS
        kind = (action - A_TRAFFIC) % CELLS
        s[TDISC + take_owned(s, seat, T_TRAFFICKER)] += 1
        given = take_owned(s, seat, T_STONE1 + stone)
        s[OWNED + seat * 64 + take_owned(s, q, kind)] += 1
        s[OWNED + q * 64 + given] += 1


cdef inline int deal_tile(int32_t* s, const Rules* r, int x) noexcept nogil:
    """Deal the next tile (``x``: a number below the seat's undealt tiles) onto the seat's first ring territory
    without one; the tile kind."""
    cdef int seat = 0, kind, cell, left = 0
    while total(s + UNDEALT + seat * 16, TILE_KINDS) == 0:
        seat += 1
    for kind in range(TILE_KINDS):
        if x < s[UNDEALT + seat * 16 + kind]:
            break
        x -= s[UNDEALT + seat * 16 + kind]
    s[UNDEALT + seat * 16 + kind] -= 1
    cell = 0
    while cell == 5 or cell == 6 or cell == 9 or cell == 10 or s[TERR + seat * CELLS + cell] >= 0:
        cell += 1
    s[TERR + seat * CELLS + cell] = seat * 16 + kind
    left = total(s + UNDEALT, 64)
    if left == 0:
        s[H_PHASE] = P_FIRST_DISCARD
    return kind


cdef inline int undealt_of_next(const int32_t* s) noexcept nogil:
    """The undealt tiles of the first seat that has any."""
    cdef int seat
    for seat in range(4):
        if total(s + UNDEALT + seat * 16, TILE_KINDS):
            return total(s + UNDEALT + seat * 16, TILE_KINDS)
    return 0


cdef inline void discard_territories(int32_t* s, const Rules* r) noexcept nogil:
    """The end: a face-up tile (a Griffin, seen) to the tile discard, the others unrevealed (AE-23)."""
    cdef int seat, cell, tile
    for seat in range(r.players):
        for cell in range(CELLS):
            tile = s[TERR + seat * CELLS + cell]
            if tile >= 0:
                if (s[FACE_UP + seat] >> cell) & 1:
                    s[TDISC + tile] += 1
                else:
                    s[UNREV + tile] += 1
                clear_slot(s, r, seat, cell)


cdef inline void deal_objects(int32_t* s, const Rules* r) noexcept nogil:
    """A new row's Objects block: no tile anywhere but each seat's family, undealt."""
    cdef int i, seat
    s[H_PENDING] = -1
    for i in range(64):
        s[TERR + i] = -1
        s[ACCORDS + i] = -1
        s[STAFFS + i] = -1
    for seat in range(r.players):
        for i in range(TILE_KINDS):
            s[UNDEALT + seat * 16 + r.family[seat][i]] += 1


cdef inline void observe_objects(const int32_t* s, const Rules* r, int observer, Py_ssize_t i,
                                 float[:, :] territory, float[:, :] accords, float[:, :] staffs, float[:, :] owned,
                                 float[:, :] tile_discard, float[:, :] unrevealed, float[:, :] undealt,
                                 float[:, :] pending, float[:, :] peeks, float[:, :] peeks_used,
                                 float[:, :] peeked) noexcept nogil:
    """The Objects pieces of row ``s``'s observation (``_fill_objects`` and the ``peeked`` of ``fill_private``)."""
    cdef int q, c, tile, t = TILE_KINDS * r.players, family, kind, n, slot
    for q in range(r.players):
        for c in range(CELLS):
            tile = s[TERR + q * CELLS + c]
            if tile >= 0:
                territory[i, (q * CELLS + c) * (1 + t) + (1 + tile_index(tile) if (s[FACE_UP + q] >> c) & 1 else 0)] = 1
            if s[ACCORDS + q * CELLS + c] >= 0:
                accords[i, (q * CELLS + c) * r.players + (s[ACCORDS + q * CELLS + c] >> 4)] = 1
            if s[STAFFS + q * CELLS + c] >= 0:
                staffs[i, (q * CELLS + c) * r.players + (s[STAFFS + q * CELLS + c] >> 4)] = 1
        for family in range(r.players):
            for kind in range(TILE_KINDS):
                if s[OWNED + q * 64 + family * 16 + kind]:
                    owned[i, q * t + family * TILE_KINDS + kind] = 1
        undealt[i, q] = <float>(total(s + UNDEALT + q * 16, TILE_KINDS) / 12.0)
        for slot in range(64):
            if s[KNOWN + q * 64 + slot]:
                peeks[i, q * r.players * CELLS + slot] = 1
    for family in range(r.players):
        for kind in range(TILE_KINDS):
            if s[TDISC + family * 16 + kind]:
                tile_discard[i, family * TILE_KINDS + kind] = 1
            for n in range(s[UNREV + family * 16 + kind]):
                unrevealed[i, family] = <float>(unrevealed[i, family] + 1.0 / 12)
    pending[i, tile_index(s[H_PENDING]) if s[H_PENDING] >= 0 else t] = 1
    peeks_used[i, 0] = s[H_PEEKS_USED]
    for slot in range(64):
        tile = s[TERR + slot]
        if s[KNOWN + observer * 64 + slot] and tile >= 0:
            peeked[i, slot * t + tile_index(tile)] = 1
