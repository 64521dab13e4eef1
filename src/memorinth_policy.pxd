# cython: language_level=3
"""The Memorinth policies of the compiled playouts: random (uniform over the legal actions) and greedy (moves
that bring the piece closest to the edge; flips valued by what the revealed side may give, averaged over the
undersides the player does not know; shifts and swaps by the piece's new distance).

Inline, for ``memorinth_play`` (playouts, hints) and ``memorinth_escape`` (the greedy upper bound).
Twin: ``solver/twins/memorinth_policy.py``.
"""

from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.string cimport memcpy
from common cimport below_scaled as rng_below
from memorinth_rules cimport *

# -- policies -----------------------------------------------------------------------------------------
cdef inline int dist_of(const int32_t* d, int cell) noexcept nogil:
    return d[cell] if d[cell] >= 0 else UNREACHABLE


cdef inline int reveal_value(const int32_t* s, const int32_t* deck, int q, int x, int side, const int32_t* d) noexcept nogil:
    """The best move the revealed side gives (a move is compulsory when there is one, MR-8); 0 without one."""
    cdef int chars = deck[T_CHARS + side], p = s[PIECE + q], best = -INF, c, loc, kind, t = -1, score
    for c in range(8):
        if not (chars >> c) & 1:
            continue
        loc = s[CHAR + c]
        if loc < 4:
            kind = move_result(s, deck, q, loc, x, side, &t)
            if kind == 0:
                continue
            score = ESCAPE_SCORE if kind == 2 else dist_of(d, p) - dist_of(d, t)
            if score > best:
                best = score
    return best if best > -INF else 0


cdef struct Picker:
    int n
    int64_t total
    int64_t count
    int32_t best[N_ACTIONS]


cdef inline void pick_add(Picker* pk, int a, int64_t t, int64_t c) noexcept nogil:
    if pk.n == 0 or t * pk.count > pk.total * c:
        pk.n = 1
        pk.best[0] = a
        pk.total = t
        pk.count = c
    elif t * pk.count == pk.total * c:
        pk.best[pk.n] = a
        pk.n += 1


cdef inline int pick_done(Picker* pk, uint64_t* rng) noexcept nogil:
    if pk.n > 1:
        return pk.best[rng_below(rng, pk.n)]
    return pk.best[0]


cdef inline int greedy(const int32_t* s, const int32_t* deck, uint64_t* rng) noexcept nogil:
    cdef int32_t legal_buf[N_ACTIONS]
    cdef int32_t d[CELLS]
    cdef int32_t d2[CELLS]
    cdef int32_t ex[CELLS]
    cdef uint32_t o0[4]
    cdef uint32_t o2[4]
    cdef int cells[5]
    cdef int32_t pools[2][CELLS]
    cdef int npool[2]
    cdef int n = legal(s, deck, legal_buf), q = s[TOMOVE], p = s[PIECE + q]
    cdef int i, j, x, bit, face, loc, kind, tgt = -1, score, best, most, nu, pend, xa, ya
    cdef int64_t total
    cdef Picker pk
    exits_of(s, deck, ex)
    field(ex, d)
    pk.n = 0
    if s[PHASE] == PH_FLIP:
        if legal_buf[0] == A_PASS:
            return A_PASS
        if rng_below(rng, EXPLORE) == 0:
            return legal_buf[rng_below(rng, n)]
        bit = 1 << q
        npool[0] = 0
        npool[1] = 0
        for x in range(CELLS):
            if not knows_under(s, x, bit):
                face = s[UP + x] & 1
                pools[face][npool[face]] = s[DOWN + x]
                npool[face] += 1
        for i in range(n):
            x = legal_buf[i]
            if knows_under(s, x, bit):
                pick_add(&pk, x, reveal_value(s, deck, q, x, s[DOWN + x], d), 1)
            else:
                face = s[UP + x] & 1
                total = 0
                for j in range(npool[face]):
                    total += reveal_value(s, deck, q, x, pools[face][j], d)
                pick_add(&pk, x, total, npool[face])
        return pick_done(&pk, rng)
    if s[PHASE] == PH_CHOOSE:
        for i in range(n):
            loc = s[CHAR + legal_buf[i] - A_CHOOSE]
            if loc < 4:
                kind = move_result(s, deck, q, loc, -1, -1, &tgt)
                score = ESCAPE_SCORE if kind == 2 else dist_of(d, p) - dist_of(d, tgt)
            else:
                score = 0
            pick_add(&pk, legal_buf[i], score, 1)
        return pick_done(&pk, rng)
    pend = s[PENDING]
    if pend == ACT_SWAPCARDS:   # only swaps that bring a new card next to the piece are weighed
        nu = 0
        for i in range(n):
            pair_from_index(legal_buf[i] - A_SWAPCARDS, CELLS, &xa, &ya)
            for j in range(4):
                x = neighbor(p, j)
                if x == xa or x == ya:
                    legal_buf[nu] = legal_buf[i]
                    nu += 1
                    break
        if nu == 0:
            return legal_buf[rng_below(rng, n)]
        n = nu
    if pend < 4 or pend == ACT_SWAPCARDS:
        # the piece's distance after each shift or swap: only the moved cards' exits change (``ex`` is the board's)
        open_boards(ex, o0)
        for i in range(n):
            memcpy(o2, o0, sizeof(uint32_t) * 4)
            tgt = p
            if pend < 4:
                line_cells(pend, legal_buf[i] - A_SHIFT, cells)
                for j in range(5):
                    set_open(o2, cells[(j + 1) % 5], ex[cells[j]])
                    if p == cells[j]:
                        tgt = cells[(j + 1) % 5]
            else:
                pair_from_index(legal_buf[i] - A_SWAPCARDS, CELLS, &xa, &ya)
                set_open(o2, xa, ex[ya])
                set_open(o2, ya, ex[xa])
            score = dist_one(o2, tgt)
            pick_add(&pk, legal_buf[i], dist_of(d, p) - (score if score >= 0 else UNREACHABLE), 1)
        return pick_done(&pk, rng)
    if pend == ACT_CLOVER:
        best = legal_buf[0]
        most = -1
        for i in range(n):
            if s[CLOVER + legal_buf[i] - A_CLOVER] > most:
                best = legal_buf[i]
                most = s[CLOVER + legal_buf[i] - A_CLOVER]
        return best
    if pend == ACT_PEEK:
        nu = 0
        for i in range(n):
            if not knows_under(s, legal_buf[i] - A_PEEK, 1 << q):
                d2[nu] = legal_buf[i]
                nu += 1
        if nu > 0:
            return d2[rng_below(rng, nu)]
        return legal_buf[rng_below(rng, n)]
    return legal_buf[rng_below(rng, n)]


cdef inline int policy(const int32_t* s, const int32_t* deck, int pol, uint64_t* rng) noexcept nogil:
    """The action of policy ``pol``: greedy, or random (a uniform pick among the legal actions, in their order)."""
    cdef int n
    if pol == POLICY_GREEDY:
        return greedy(s, deck, rng)
    n = legal_count(s, deck)
    return nth_legal(s, deck, rng_below(rng, n) if n > 1 else 0)

