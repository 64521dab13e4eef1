# cython: language_level=3
"""The solo playout policy's value of a kingdom and its best placement and reveal, on the packed state of
``aetherya_packed.pxd``; inline, for ``aetherya_play`` (whose ``solo_turn`` and ``age_end`` use them).
Twin: the solo policy of ``solver/twins/aetherya_play.py``.
"""

cimport cython
from libc.stdint cimport uint64_t
from aetherya_board cimport DRAGON, PORTAL, UNEXPLORED, popcount
from aetherya_needs cimport needs_of
from aetherya_greedy cimport score, keep_best
from aetherya_packed cimport HID, CARDS, DLEN, P_DISC, P_SROW, AGE, WRIT, NEG, P_BIG

# The solo policy values a kingdom by how close it is to each Legend of the Age still to write: the fewest
# cards to place to meet it ("need"), with only the copies of a kind still to come (public information:
# the solo deck holds 4 of each kind, minus those face up and those buried in the discard).

cdef enum:
    NEED_SCALE = 10       # a step closer to a Legend outweighs the board total (which breaks ties)
    REVEAL_COST = 30      # a reveal, valued at its expectation, is chosen over a placement only when it beats it
    REVEAL_COST_AFTER = 5     # by this much (Legends left to write) or by this much (the Age's Legends written)
# by need 0 (writable now), 1, 2, 3, 4, 5 or more: each step closer is worth more the further the Legend still is,
# so that the policy works on every Legend of the Age, the far ones (3 linked lands) included
cdef extern from *:
    """
    static const int AETHERYA_NEED_WEIGHT[6] = {500, 490, 470, 440, 400, 350};
    """
    const int NEED_WEIGHT "AETHERYA_NEED_WEIGHT"[6]


cdef inline void solo_avail(const int* s, int* avail) noexcept nogil:
    """Copies of each kind still to come in the solo deck (4 each): not face up, not buried in the discard."""
    cdef int kind, c, i, card
    cdef unsigned int hidden = <unsigned int>s[HID]
    for kind in range(10):
        avail[kind] = 4
    for c in range(16):
        card = s[CARDS + c]
        if not (hidden >> c) & 1 and card < 10:
            avail[card] -= 1
    for i in range(s[DLEN] - 1):
        avail[s[P_DISC + i]] -= 1
    for kind in range(10):
        if avail[kind] < 0:
            avail[kind] = 0


cdef inline unsigned int solo_left(const int* s) noexcept nogil:
    """Bit n: Legend n is in the current Age's row and not written yet."""
    cdef unsigned int left = 0
    cdef int n
    for n in range(1, 16):
        if s[P_SROW + n] == s[AGE] + 1 and not s[WRIT + n]:
            left |= (<unsigned int>1) << n
    return left


cdef inline int solo_value(const int* k, const int* avail, unsigned int left) noexcept nogil:
    """The solo policy's value of a kingdom: the board total once the Age's Legends are written; before, how
    close each Legend still to write is (need 0 = writable now), the board total breaking ties."""
    cdef unsigned int legends
    cdef int need[16]
    cdef int total = score(k, 0, 0, &legends), n, v = 0, d
    if not left:
        return total
    needs_of(k, avail, left, need)
    for n in range(1, 16):
        if (left >> n) & 1 and need[n] < P_BIG:
            d = need[n] if need[n] < 5 else 5
            v += NEED_WEIGHT[d]
    return v * NEED_SCALE + total


cdef inline void avail_after(const int* base, int kept, int other, int freed, int* avail) noexcept nogil:
    """The copies still to come after a move: ``base`` (from the position, the discard top being taken counted as
    to come) minus the card kept when it goes face up (``kept`` >= 0), minus the other card of the pair, buried
    in the discard (``other`` >= 0), plus a face-up card that goes back on top of the discard (``freed`` >= 0)."""
    cdef int kind
    for kind in range(10):
        avail[kind] = base[kind]
    if kept >= 0:
        avail[kept] -= 1
    if other >= 0:
        avail[other] -= 1
    if freed >= 0:
        avail[freed] += 1
    for kind in range(10):
        if avail[kind] < 0:
            avail[kind] = 0


cdef inline int place_value(int* k, unsigned int hidden, int c, int card, int other, const int* base,
                     unsigned int left) noexcept nogil:
    """The solo value after placing ``card`` on cell ``c`` (``k`` is restored)."""
    cdef int avail[10]
    cdef int old = k[c], v
    avail_after(base, card, other, -1 if (hidden >> c) & 1 else old, avail)
    k[c] = card
    v = solo_value(k, avail, left)
    k[c] = old
    return v


@cython.cdivision(True)  # as aetherya_play.pyx's directives: no zero check (total > 0 here)
cdef inline int reveal_value(int* k, int c, int kept, int other, const int* base, unsigned int left) noexcept nogil:
    """The expected solo value of discarding ``kept`` and revealing cell ``c`` (``k`` is restored): the card found
    is any of the unseen cards (the copies still to come but the discard top, which is ``kept``), each kind with
    its share; that kind then lies face up."""
    cdef int after[10]
    cdef int avail[10]
    cdef int kind, total = 0
    cdef long acc = 0
    avail_after(base, -1, other, -1, after)
    after[kept] -= 1  # on top of the discard: seen, not in the pile or under a territory
    for kind in range(10):
        if after[kind] > 0:
            total += after[kind]
    if total == 0:
        return NEG
    for kind in range(10):
        if after[kind] <= 0:
            continue
        avail_after(base, kind, other, -1, avail)
        k[c] = kind
        acc += <long>after[kind] * solo_value(k, avail, left)
    k[c] = UNEXPLORED
    return <int>(acc / total)


cdef inline int may_turn(unsigned int hidden, int c, int protect) noexcept nogil:
    """A face-down cell may be turned (placed on or revealed) unless it is the last one and ``protect``."""
    return not (protect and popcount(hidden) == 1 and (hidden >> c) & 1)


cdef inline int solo_best_place(int* k, unsigned int hidden, int card, int other, const int* base, unsigned int left,
                         int protect, uint64_t* rng, int* value_out) noexcept nogil:
    """The best cell for ``card`` by ``solo_value`` (random tie-break); with ``protect``, never the last face-down
    cell (that would end the Age: a failure while Legends are left). -1 when no cell is allowed."""
    cdef int c, old, v, best_cell = -1, best_value = NEG, ties = 0
    for c in range(16):
        old = k[c]
        if (hidden >> c) & 1:
            if not may_turn(hidden, c, protect):
                continue
        elif old == DRAGON or old == PORTAL or old == card:
            continue
        v = place_value(k, hidden, c, card, other, base, left)
        keep_best(v, c, &best_value, &best_cell, &ties, rng)
    value_out[0] = best_value
    return best_cell


cdef inline int solo_best_reveal(int* k, unsigned int hidden, int kept, int other, const int* base, unsigned int left,
                          int protect, uint64_t* rng, int* value_out) noexcept nogil:
    """The face-down cell whose reveal is worth most in expectation (random tie-break), its expected value minus
    the reveal's cost; -1 when none may be turned."""
    cdef int c, v, best_cell = -1, best_value = NEG, ties = 0
    for c in range(16):
        if not (hidden >> c) & 1 or not may_turn(hidden, c, protect):
            continue
        v = reveal_value(k, c, kept, other, base, left)
        keep_best(v, c, &best_value, &best_cell, &ties, rng)
    if best_cell >= 0:
        best_value -= REVEAL_COST if left else REVEAL_COST_AFTER
    value_out[0] = best_value
    return best_cell
