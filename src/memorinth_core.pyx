# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Memorinth rules, path bitboards, playouts and shortest escapes (compiled kernel).

Twin: ``solver/twins/memorinth_core.py`` (same functions, same parameters, same results, same random
number stream). The twin's docstring documents the state vector, the deck table and the action codes;
``docs/rules/memorinth.md`` the rules they implement.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memcmp, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBUF_WRITABLE

cdef extern from *:
    int lowest_bit "__builtin_ctz"(unsigned int) nogil


cdef enum:
    CELLS = 25
    UP = 0
    DOWN = 25
    SEEN = 50
    PIECE = 75
    CHAR = 79
    CLOVER = 87
    SUPPLY = 91
    NPLAYERS = 92
    VARIANT = 93
    SIDEMODE = 94
    SEAT = 95
    START = 99
    ROUND = 100
    TOMOVE = 101
    LAST = 102
    PHASE = 103
    PENDING = 104
    WINNER = 105
    TURNS = 106
    OWNTURNS = 107
    STATE_LEN = 112
    OUT = 25
    PH_FLIP = 0
    PH_CHOOSE = 1
    PH_ACT = 2
    PH_OVER = 3
    VAR_BASE = 0
    VAR_MASTER = 1
    MODE_SHIFT = 0
    MODE_SPECIAL = 1
    MODE_ALTERNATE = 2
    A_FLIP = 0
    A_PASS = 25
    A_CHOOSE = 26
    A_SHIFT = 34
    A_CLOVER = 39
    A_PEEK = 43
    A_SWAPCARDS = 68
    A_SWAPCHARS = 368
    N_ACTIONS = 396
    ACT_CLOVER = 4
    ACT_PEEK = 5
    ACT_SWAPCARDS = 6
    ACT_SWAPCHARS = 7
    POLICY_RANDOM = 0
    POLICY_GREEDY = 1
    T_EXITS = 0
    T_CHARS = 50
    T_GOBLINS = 100
    T_ACTIONS = 150
    DECK_LEN = 160
    PLAYOUT_OUT = 12
    UNREACHABLE = 40
    EXPLORE = 16
    ESCAPE_SCORE = 1000
    INF = 1 << 20
    KEY_BYTES = 48
    TT_BITS = 20
    TT_START_BITS = 10

cdef uint32_t FULL = (1 << 25) - 1


def layout():
    """The vector layout and codes (the twin returns the same dict)."""
    return {"CELLS": CELLS, "UP": UP, "DOWN": DOWN, "SEEN": SEEN, "PIECE": PIECE, "CHAR": CHAR, "CLOVER": CLOVER,
            "SUPPLY": SUPPLY, "NPLAYERS": NPLAYERS, "VARIANT": VARIANT, "SIDEMODE": SIDEMODE, "SEAT": SEAT,
            "START": START, "ROUND": ROUND, "TOMOVE": TOMOVE, "LAST": LAST, "PHASE": PHASE, "PENDING": PENDING,
            "WINNER": WINNER, "TURNS": TURNS, "OWNTURNS": OWNTURNS, "STATE_LEN": STATE_LEN, "OUT": OUT,
            "A_FLIP": A_FLIP, "A_PASS": A_PASS, "A_CHOOSE": A_CHOOSE, "A_SHIFT": A_SHIFT, "A_CLOVER": A_CLOVER,
            "A_PEEK": A_PEEK, "A_SWAPCARDS": A_SWAPCARDS, "A_SWAPCHARS": A_SWAPCHARS, "N_ACTIONS": N_ACTIONS,
            "DECK_LEN": DECK_LEN, "PLAYOUT_OUT": PLAYOUT_OUT}


# -- random numbers: splitmix64 ------------------------------------------------------------
cdef inline uint64_t rng_next(uint64_t* st) noexcept nogil:
    cdef uint64_t z
    st[0] += 0x9E3779B97F4A7C15ULL
    z = st[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int rng_below(uint64_t* st, int n) noexcept nogil:
    return <int>(((rng_next(st) >> 32) * <uint64_t>n) >> 32)


# -- geometry --------------------------------------------------------------------------------
cdef inline int neighbor(int cell, int d) noexcept nogil:
    cdef int r = cell // 5, c = cell % 5
    if d == 0:
        return cell - 5 if r > 0 else -1
    if d == 1:
        return cell + 1 if c < 4 else -1
    if d == 2:
        return cell + 5 if r < 4 else -1
    return cell - 1 if c > 0 else -1


cdef inline int pair_index(int a, int b, int n) noexcept nogil:
    return a * n - a * (a + 1) // 2 + (b - a - 1)


cdef inline void pair_from_index(int i, int n, int* a, int* b) noexcept nogil:
    cdef int x = 0
    while i >= n - 1 - x:
        i -= n - 1 - x
        x += 1
    a[0] = x
    b[0] = x + 1 + i


cdef uint32_t ROW0 = 0x1F
cdef uint32_t ROW4 = 0x1F << 20
cdef uint32_t COL0 = 0x108421
cdef uint32_t COL4 = 0x108421 << 4


cdef inline void open_boards(const int32_t* ex, uint32_t* o) noexcept nogil:
    """o: the cells with a path end to the N, E, S, W (bitboards)."""
    cdef uint32_t on = 0, oe = 0, os = 0, ow = 0, e
    cdef int c
    for c in range(CELLS):
        e = <uint32_t>ex[c]
        on |= (e & 1) << c
        oe |= ((e >> 1) & 1) << c
        os |= ((e >> 2) & 1) << c
        ow |= ((e >> 3) & 1) << c
    o[0] = on
    o[1] = oe
    o[2] = os
    o[3] = ow


cdef inline void set_open(uint32_t* o, int cell, int32_t e) noexcept nogil:
    """Put the path ends ``e`` on ``cell`` in the open bitboards."""
    cdef uint32_t bit = (<uint32_t>1) << cell
    cdef int d
    for d in range(4):
        if (e >> d) & 1:
            o[d] |= bit
        else:
            o[d] &= ~bit


cdef inline void links_of_open(const uint32_t* o, uint32_t* out) noexcept nogil:
    """out: link N, E, S, W and escape bitboards from the open bitboards (branch-free)."""
    out[0] = o[0] & (o[2] << 5) & FULL
    out[1] = o[1] & (o[3] >> 1) & ~COL4
    out[2] = o[2] & (o[0] >> 5)
    out[3] = o[3] & (o[1] << 1) & ~COL0
    out[4] = (o[0] & ROW0) | (o[1] & COL4) | (o[2] & ROW4) | (o[3] & COL0)


cdef inline void links(const int32_t* ex, uint32_t* out) noexcept nogil:
    """out: link N, E, S, W and escape bitboards."""
    cdef uint32_t o[4]
    open_boards(ex, o)
    links_of_open(o, out)


cdef inline int field(const int32_t* ex, int32_t* dist) noexcept nogil:
    cdef uint32_t L[5]
    cdef uint32_t reached, frontier, nxt, m
    cdef int c, k = 1, count = 0
    links(ex, L)
    for c in range(CELLS):
        dist[c] = -1
    reached = L[4]
    frontier = L[4]
    while frontier:
        m = frontier
        while m:
            dist[lowest_bit(m)] = k
            count += 1
            m &= m - 1
        nxt = ((frontier << 5) & L[0]) | ((frontier >> 5) & L[2]) | ((frontier >> 1) & L[1]) | ((frontier << 1) & L[3])
        nxt &= ~reached & FULL
        reached |= nxt
        frontier = nxt
        k += 1
    return count


cdef inline int dist_one(const uint32_t* o, int cell) noexcept nogil:
    """``field(ex)[cell]`` alone, from the open bitboards of ``ex``: the breadth-first search from the edges stops
    when it reaches ``cell``."""
    cdef uint32_t L[5]
    cdef uint32_t reached, frontier, nxt, bit = (<uint32_t>1) << cell
    cdef int k = 1
    links_of_open(o, L)
    reached = L[4]
    frontier = L[4]
    while frontier:
        if frontier & bit:
            return k
        nxt = ((frontier << 5) & L[0]) | ((frontier >> 5) & L[2]) | ((frontier >> 1) & L[1]) | ((frontier << 1) & L[3])
        nxt &= ~reached & FULL
        reached |= nxt
        frontier = nxt
        k += 1
    return -1


cdef inline void exits_of(const int32_t* s, const int32_t* deck, int32_t* ex) noexcept nogil:
    cdef int c
    for c in range(CELLS):
        ex[c] = deck[T_EXITS + s[UP + c]]


# -- rules -------------------------------------------------------------------------------------
cdef inline bint goblins_active(const int32_t* s) noexcept nogil:
    return s[VARIANT] == VAR_MASTER and s[SIDEMODE] != MODE_SHIFT


cdef inline int action_code(const int32_t* s, const int32_t* deck, int slot) noexcept nogil:
    cdef int mode = s[SIDEMODE], side
    if mode == MODE_SHIFT:
        side = 0
    elif mode == MODE_SPECIAL:
        side = 1
    else:
        side = s[START]
    return deck[T_ACTIONS + 4 * side + slot]


cdef inline int absolute(int seat, int rel) noexcept nogil:
    if rel == 0:
        return seat
    if rel == 1:
        return (seat + 2) & 3
    if rel == 2:
        return (seat + 1) & 3
    return (seat + 3) & 3


cdef inline bint piece_on(const int32_t* s, int cell) noexcept nogil:
    cdef int i
    for i in range(s[NPLAYERS]):
        if s[PIECE + i] == cell:
            return True
    return False


cdef inline bint knows_under(const int32_t* s, int cell, int bit) noexcept nogil:
    """MR-21: a player knows an underside they have seen, and the clearing's (side ids 0, 1: its pairing is
    public, the clearing being the one card set apart at setup)."""
    return (s[SEEN + cell] & bit) != 0 or s[UP + cell] < 2


cdef inline int move_result(const int32_t* s, const int32_t* deck, int player, int d, int xcell, int xside,
                            int* target) noexcept nogil:
    """0 blocked, 1 moves to target[0], 2 leaves the forest."""
    cdef int p = s[PIECE + player], ps, t, ts, od, goblin
    ps = xside if p == xcell else s[UP + p]
    if not (deck[T_EXITS + ps] >> d) & 1:
        return 0
    goblin = (deck[T_GOBLINS + ps] >> d) & 1
    t = neighbor(p, d)
    if t >= 0:
        ts = xside if t == xcell else s[UP + t]
        od = (d + 2) & 3
        if not (deck[T_EXITS + ts] >> od) & 1:
            return 0
        goblin |= (deck[T_GOBLINS + ts] >> od) & 1
    if goblin and goblins_active(s) and s[CLOVER + player] == 0:
        return 0
    if t >= 0:
        target[0] = t
        return 1
    target[0] = OUT
    return 2


cdef inline int free_cells(const int32_t* s, int32_t* out) noexcept nogil:
    cdef int c, n = 0
    for c in range(CELLS):
        if not piece_on(s, c):
            out[n] = c
            n += 1
    return n


cdef int action_options(const int32_t* s, int code, int player, int32_t* out) noexcept nogil:
    """Actions carrying out action ``code``; for a clover from the supply out[0] = -1."""
    cdef int n = 0, q, i, j, a, b, nf
    cdef int32_t free[CELLS]
    if code < 4:
        for i in range(5):
            out[i] = A_SHIFT + i
        return 5
    if code == ACT_CLOVER:
        if s[SUPPLY] > 0:
            out[0] = -1
            return 1
        for q in range(s[NPLAYERS]):
            if q != player and s[CLOVER + q] > 0:
                out[n] = A_CLOVER + q
                n += 1
        return n
    if code == ACT_PEEK:
        nf = free_cells(s, free)
        for i in range(nf):
            out[i] = A_PEEK + free[i]
        return nf
    if code == ACT_SWAPCARDS:
        nf = free_cells(s, free)
        for i in range(nf):
            for j in range(i + 1, nf):
                out[n] = A_SWAPCARDS + pair_index(free[i], free[j], CELLS)
                n += 1
        return n
    for a in range(8):
        for b in range(a + 1, 8):
            out[n] = A_SWAPCHARS + pair_index(a, b, 8)
            n += 1
    return n


cdef inline bint action_possible(const int32_t* s, int code, int player) noexcept nogil:
    """True when action ``code`` can be carried out (``action_options`` would list something)."""
    cdef int q, free = 0, c
    if code < 4 or code == ACT_SWAPCHARS:
        return True
    if code == ACT_CLOVER:
        if s[SUPPLY] > 0:
            return True
        for q in range(s[NPLAYERS]):
            if q != player and s[CLOVER + q] > 0:
                return True
        return False
    for c in range(CELLS):
        if not piece_on(s, c):
            free += 1
    return free >= (1 if code == ACT_PEEK else 2)


cdef int options(const int32_t* s, const int32_t* deck, int32_t* out) noexcept nogil:
    """The characters the mover may follow (MR-8, MR-24): one per distinct effect; the moves that move when there
    are any (the mover must move when any choice moves), else the actions that can be carried out."""
    cdef int p = s[TOMOVE], chars = deck[T_CHARS + s[UP + s[LAST]]]
    cdef int keys = 0, n = 0, moves = 0, c, loc, t, i
    for c in range(8):
        if not (chars >> c) & 1:
            continue
        loc = s[CHAR + c]
        if (keys >> loc) & 1:
            continue
        keys |= 1 << loc
        if loc < 4:
            if move_result(s, deck, p, loc, -1, -1, &t):
                out[n] = c
                n += 1
                moves += 1
        elif action_possible(s, action_code(s, deck, loc - 4), p):
            out[n] = c
            n += 1
    if moves == 0 or moves == n:
        return n
    t = 0
    for i in range(n):
        if s[CHAR + out[i]] < 4:
            out[t] = out[i]
            t += 1
    return t


cdef inline int first_step_bound(const int32_t* s, const int32_t* deck, int p, const int32_t* union_ex,
                                 const int32_t* rf) noexcept nogil:
    cdef int own = deck[T_EXITS + s[UP + p]], best = -1, d, t
    for d in range(4):
        if not (own >> d) & 1:
            continue
        t = neighbor(p, d)
        if t < 0:
            return 1
        if (union_ex[t] >> ((d + 2) & 3)) & 1 and rf[t] >= 0 and (best < 0 or rf[t] + 1 < best):
            best = rf[t] + 1
    return best


cdef void public_unions(const int32_t* s, const int32_t* deck, int32_t* union_ex) noexcept nogil:
    """MR-19: each cell's path ends on either side its card may show, from what every player has seen.

    A card whose underside every player knows (flipped before, or the clearing) has its two sides; under any other
    card may lie any side of the other colour whose place not everybody knows (the undersides of the cards of the
    same face-up colour that not everybody has seen). This depends only on public information, so every player's
    view agrees with it."""
    cdef int everybody = (1 << s[NPLAYERS]) - 1, c
    cdef int32_t pool[2]
    pool[0] = 0
    pool[1] = 0
    for c in range(CELLS):
        if not (s[UP + c] < 2 or (s[SEEN + c] & everybody) == everybody):
            pool[s[UP + c] & 1] |= deck[T_EXITS + s[DOWN + c]]
    for c in range(CELLS):
        if s[UP + c] < 2 or (s[SEEN + c] & everybody) == everybody:
            union_ex[c] = deck[T_EXITS + s[UP + c]] | deck[T_EXITS + s[DOWN + c]]
        else:
            union_ex[c] = deck[T_EXITS + s[UP + c]] | pool[s[UP + c] & 1]


cdef bint all_stuck(const int32_t* s, const int32_t* deck) noexcept nogil:
    """Base game: as every player can see, no piece can ever leave (MR-19)."""
    cdef int32_t union_ex[CELLS]
    cdef int32_t rf[CELLS]
    cdef int i
    public_unions(s, deck, union_ex)
    field(union_ex, rf)
    for i in range(s[NPLAYERS]):
        if first_step_bound(s, deck, s[PIECE + i], union_ex, rf) >= 0:
            return False
    return True


cdef inline void end_turn(int32_t* s, const int32_t* deck) noexcept nogil:
    cdef int p = s[TOMOVE]
    s[TURNS] += 1
    s[OWNTURNS + p] += 1
    if p == 0 and s[ROUND] >= 2:
        s[START] ^= 1
    p = (p + 1) % s[NPLAYERS]
    if p == 0:
        s[ROUND] += 1
    s[TOMOVE] = p
    s[PHASE] = PH_FLIP
    s[PENDING] = -1
    if s[VARIANT] == VAR_BASE and all_stuck(s, deck):
        s[PHASE] = PH_OVER


cdef void do_move(int32_t* s, const int32_t* deck, int d) noexcept nogil:
    cdef int p = s[TOMOVE], t = -1, kind, goblin
    kind = move_result(s, deck, p, d, -1, -1, &t)
    goblin = (deck[T_GOBLINS + s[UP + s[PIECE + p]]] >> d) & 1
    if t != OUT:
        goblin |= (deck[T_GOBLINS + s[UP + t]] >> ((d + 2) & 3)) & 1
    if goblin and goblins_active(s):
        s[CLOVER + p] -= 1
        s[SUPPLY] += 1
    s[PIECE + p] = t
    if kind == 2:
        s[WINNER] = p
        s[TURNS] += 1
        s[OWNTURNS + p] += 1
        s[PHASE] = PH_OVER
        s[PENDING] = -1
    else:
        end_turn(s, deck)


cdef void start_action(int32_t* s, const int32_t* deck, int code) noexcept nogil:
    cdef int p = s[TOMOVE], n
    cdef int32_t opts[N_ACTIONS]
    if code < 4:
        s[PENDING] = absolute(s[SEAT + p], code)
        s[PHASE] = PH_ACT
        return
    n = action_options(s, code, p, opts)
    if n == 1 and opts[0] == -1:
        s[SUPPLY] -= 1
        s[CLOVER + p] += 1
        end_turn(s, deck)
        return
    s[PENDING] = code
    if n == 1:
        apply_act(s, deck, opts[0])
    else:
        s[PHASE] = PH_ACT


cdef inline void choose(int32_t* s, const int32_t* deck, int c) noexcept nogil:
    cdef int loc = s[CHAR + c]
    if loc < 4:
        do_move(s, deck, loc)
    else:
        start_action(s, deck, action_code(s, deck, loc - 4))


cdef inline void resolve_flip(int32_t* s, const int32_t* deck) noexcept nogil:
    cdef int32_t opts[8]
    cdef int n = options(s, deck, opts)
    if n == 0:
        end_turn(s, deck)
    elif n == 1:
        choose(s, deck, opts[0])
    else:
        s[PHASE] = PH_CHOOSE


cdef inline void line_cells(int d, int line, int* cells) noexcept nogil:
    cdef int i
    for i in range(5):
        if d == 2:
            cells[i] = 5 * i + line
        elif d == 0:
            cells[i] = 5 * (4 - i) + line
        elif d == 1:
            cells[i] = 5 * line + i
        else:
            cells[i] = 5 * line + 4 - i


cdef void shift(int32_t* s, int d, int line) noexcept nogil:
    cdef int cells[5]
    cdef int32_t old[5]
    cdef int i, j, base, k
    line_cells(d, line, cells)
    for k in range(3):
        base = k * 25
        for i in range(5):
            old[i] = s[base + cells[i]]
        for i in range(5):
            s[base + cells[(i + 1) % 5]] = old[i]
    for i in range(s[NPLAYERS]):
        for j in range(5):
            if s[PIECE + i] == cells[j]:
                s[PIECE + i] = cells[(j + 1) % 5]
                break
    for j in range(5):
        if s[LAST] == cells[j]:
            s[LAST] = cells[(j + 1) % 5]
            break


cdef inline void swap_cells(int32_t* s, int a, int b) noexcept nogil:
    cdef int k
    cdef int32_t tmp
    for k in range(3):
        tmp = s[k * 25 + a]
        s[k * 25 + a] = s[k * 25 + b]
        s[k * 25 + b] = tmp
    if s[LAST] == a:
        s[LAST] = b
    elif s[LAST] == b:
        s[LAST] = a


cdef void apply_act(int32_t* s, const int32_t* deck, int a) noexcept nogil:
    cdef int p = s[TOMOVE], x, y
    cdef int32_t tmp
    if A_SHIFT <= a < A_CLOVER:
        shift(s, s[PENDING], a - A_SHIFT)
    elif A_CLOVER <= a < A_PEEK:
        s[CLOVER + a - A_CLOVER] -= 1
        s[CLOVER + p] += 1
    elif A_PEEK <= a < A_SWAPCARDS:
        s[SEEN + a - A_PEEK] |= 1 << p
    elif A_SWAPCARDS <= a < A_SWAPCHARS:
        pair_from_index(a - A_SWAPCARDS, CELLS, &x, &y)
        swap_cells(s, x, y)
    else:
        pair_from_index(a - A_SWAPCHARS, 8, &x, &y)
        tmp = s[CHAR + x]
        s[CHAR + x] = s[CHAR + y]
        s[CHAR + y] = tmp
    end_turn(s, deck)


cdef int legal(const int32_t* s, const int32_t* deck, int32_t* out) noexcept nogil:
    cdef int phase = s[PHASE], side, c, n = 0, pend, i
    cdef int32_t opts[8]
    if phase == PH_FLIP:
        side = s[START]
        for c in range(CELLS):
            if (s[UP + c] & 1) == side and c != s[LAST] and not piece_on(s, c):
                out[n] = c
                n += 1
        if n == 0:
            out[0] = A_PASS
            n = 1
        return n
    if phase == PH_CHOOSE:
        n = options(s, deck, opts)
        for i in range(n):
            out[i] = A_CHOOSE + opts[i]
        return n
    if phase == PH_ACT:
        pend = s[PENDING]
        return action_options(s, 0 if pend < 4 else pend, s[TOMOVE], out)
    return 0


cdef void apply(int32_t* s, const int32_t* deck, int a) noexcept nogil:
    cdef int32_t tmp
    if a < A_PASS:
        tmp = s[UP + a]
        s[UP + a] = s[DOWN + a]
        s[DOWN + a] = tmp
        s[SEEN + a] = (1 << s[NPLAYERS]) - 1
        s[LAST] = a
        resolve_flip(s, deck)
    elif a == A_PASS:
        s[LAST] = -1
        end_turn(s, deck)
    elif a < A_SHIFT:
        choose(s, deck, a - A_CHOOSE)
    else:
        apply_act(s, deck, a)


cdef bint is_legal(const int32_t* s, const int32_t* deck, int a) noexcept nogil:
    cdef int32_t buf[N_ACTIONS]
    cdef int n = legal(s, deck, buf), i
    for i in range(n):
        if buf[i] == a:
            return True
    return False


# -- validation of kernel input (raises ValueError; the twin checks the same) --------------------
cdef void check_state(const int32_t[::1] state, const int32_t[::1] deck) except *:
    if deck.shape[0] != DECK_LEN:
        raise ValueError("deck: expected 160 entries")
    check_vector(state)


# The single-call entry points take their arrays through the buffer protocol directly: a typed memoryview costs
# about 0.2 µs per argument to set up, more than the work of one call (the batch entry points use memoryviews).
cdef inline bint int32_format(const char* fmt) noexcept:
    if fmt == NULL:
        return False
    if fmt[0] == b'@' or fmt[0] == b'=' or fmt[0] == b'<':
        fmt += 1
    return (fmt[0] == b'i' or fmt[0] == b'l') and fmt[1] == 0


cdef int32_t* int32_buffer(object obj, Py_buffer* view, bint writable, Py_ssize_t length, bint at_least,
                           str name) except NULL:
    """A pointer into ``obj``, a one-dimensional C-contiguous int32 array of ``length`` (or more with
    ``at_least``) entries; the caller releases ``view``."""
    PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (PyBUF_WRITABLE if writable else 0))
    if view.ndim != 1 or view.itemsize != 4 or not int32_format(view.format):
        PyBuffer_Release(view)
        raise ValueError(f"{name}: expected a one-dimensional int32 array")
    if view.shape[0] != length and not (at_least and view.shape[0] > length):
        PyBuffer_Release(view)
        if name == "state":
            raise ValueError("state: expected 112 entries")
        if name == "deck":
            raise ValueError("deck: expected 160 entries")
        raise ValueError(f"{name}: expected {'at least ' if at_least else ''}{length} entries")
    return <int32_t*>view.buf


cdef void check_pointer(const int32_t* s) except *:
    cdef int err = vector_error(s)
    if err:
        raise ValueError("state: " + VECTOR_ERRORS[err])


cdef int vector_error(const int32_t* s) noexcept nogil:
    """0 when the vector is safe to run the rules on, else the number of the first problem found."""
    cdef int n = s[NPLAYERS], c, i
    if not 1 <= n <= 4:
        return 1
    for c in range(CELLS):
        if not (0 <= s[UP + c] < 50 and 0 <= s[DOWN + c] < 50):
            return 2
    for i in range(4):
        if i < n and not 0 <= s[PIECE + i] <= OUT:
            return 3
        if not 0 <= s[SEAT + i] < 4:
            return 4
    for i in range(8):
        if not 0 <= s[CHAR + i] < 8:
            return 5
    if not 0 <= s[TOMOVE] < n or not -1 <= s[LAST] < CELLS or not 0 <= s[PHASE] <= PH_OVER:
        return 6
    if s[PHASE] == PH_CHOOSE and s[LAST] < 0:
        return 7
    if s[PHASE] != PH_OVER:
        for i in range(n):
            if s[PIECE + i] == OUT:
                return 8
    if s[PHASE] == PH_ACT and (not 0 <= s[PENDING] < 8 or (s[PENDING] == ACT_CLOVER and s[SUPPLY] > 0)):
        return 9
    return 0


VECTOR_ERRORS = ("", "bad player count", "bad side id", "bad piece", "bad seat", "bad character place",
                 "bad turn fields", "choose phase without a flipped card",
                 "a piece left the forest but the game goes on", "bad pending action")


cdef void check_vector(const int32_t[::1] state) except *:
    cdef int err
    if state.shape[0] != STATE_LEN:
        raise ValueError("state: expected 112 entries")
    err = vector_error(&state[0])
    if err:
        raise ValueError("state: " + VECTOR_ERRORS[err])


cdef void check_rows(const int32_t[:, ::1] states, const int32_t[::1] deck) except *:
    cdef Py_ssize_t i
    cdef int err
    if deck.shape[0] != DECK_LEN:
        raise ValueError("deck: expected 160 entries")
    if states.shape[1] != STATE_LEN:
        raise ValueError("states: expected rows of 112 entries")
    for i in range(states.shape[0]):
        err = vector_error(&states[i, 0])
        if err:
            raise ValueError(f"states[{i}]: " + VECTOR_ERRORS[err])


cdef int face_up_exits(object state, object deck, int32_t* ex) except -1:
    """The exits of every cell's face-up side (checked state and deck buffers, released before returning)."""
    cdef Py_buffer vs, vd
    cdef int32_t* dk = int32_buffer(deck, &vd, False, DECK_LEN, False, "deck")
    cdef int32_t* st
    try:
        st = int32_buffer(state, &vs, False, STATE_LEN, False, "state")
        try:
            check_pointer(st)
            exits_of(st, dk, ex)
        finally:
            PyBuffer_Release(&vs)
    finally:
        PyBuffer_Release(&vd)
    return 0


def path_bitboards(state, deck):
    """``(open_n, open_e, open_s, open_w, link_n, link_e, link_s, link_w, escape)`` of the face-up sides."""
    cdef int32_t ex[CELLS]
    cdef uint32_t L[5]
    cdef uint32_t opened[4]
    face_up_exits(state, deck, ex)
    open_boards(ex, opened)
    links_of_open(opened, L)
    return (opened[0], opened[1], opened[2], opened[3], L[0], L[1], L[2], L[3], L[4])


def escape_distances(state, deck, out):
    """Fill ``out[25]`` with each cell's fewest moves out along the face-up paths (-1: none)."""
    cdef int32_t ex[CELLS]
    cdef Py_buffer vo
    cdef int32_t* ot
    face_up_exits(state, deck, ex)
    ot = int32_buffer(out, &vo, True, CELLS, False, "out")
    try:
        return field(ex, ot)
    finally:
        PyBuffer_Release(&vo)


def legal_actions(state, deck, out):
    """Write the legal actions (ascending) into ``out`` (at least 396 entries); return how many."""
    cdef Py_buffer vs, vd, vo
    cdef int32_t* dk = int32_buffer(deck, &vd, False, DECK_LEN, False, "deck")
    cdef int32_t* st
    cdef int32_t* ot
    try:
        st = int32_buffer(state, &vs, False, STATE_LEN, False, "state")
        try:
            check_pointer(st)
            ot = int32_buffer(out, &vo, True, N_ACTIONS, True, "out")
            try:
                return legal(st, dk, ot)
            finally:
                PyBuffer_Release(&vo)
        finally:
            PyBuffer_Release(&vs)
    finally:
        PyBuffer_Release(&vd)


def apply_action(state, deck, int action):
    """Play ``action`` on ``state`` in place if it is legal; return 1, or 0 (state unchanged) if it is not."""
    cdef Py_buffer vs, vd
    cdef int32_t* dk = int32_buffer(deck, &vd, False, DECK_LEN, False, "deck")
    cdef int32_t* st
    try:
        st = int32_buffer(state, &vs, True, STATE_LEN, False, "state")
        try:
            check_pointer(st)
            if not is_legal(st, dk, action):
                return 0
            apply(st, dk, action)
            return 1
        finally:
            PyBuffer_Release(&vs)
    finally:
        PyBuffer_Release(&vd)


def escape_distances_batch(const int32_t[:, ::1] states, const int32_t[::1] deck, int32_t[:, ::1] out):
    """``escape_distances`` for every row of ``states`` (n, 112) into ``out`` (n, 25)."""
    cdef int32_t ex[CELLS]
    cdef Py_ssize_t i, n = states.shape[0]
    check_rows(states, deck)
    if out.shape[0] != n or out.shape[1] != CELLS:
        raise ValueError("out: expected (n, 25)")
    with nogil:
        for i in range(n):
            exits_of(&states[i, 0], &deck[0], ex)
            field(ex, &out[i, 0])


def legal_actions_batch(const int32_t[:, ::1] states, const int32_t[::1] deck, int32_t[:, ::1] out,
                        int32_t[::1] counts):
    """``legal_actions`` for every row of ``states`` (n, 112): actions into ``out`` (n, 396), counts (n)."""
    cdef Py_ssize_t i, n = states.shape[0]
    check_rows(states, deck)
    if out.shape[0] != n or out.shape[1] < N_ACTIONS or counts.shape[0] != n:
        raise ValueError("out: expected (n, 396) and counts (n)")
    with nogil:
        for i in range(n):
            counts[i] = legal(&states[i, 0], &deck[0], &out[i, 0])


def apply_actions_batch(int32_t[:, ::1] states, const int32_t[::1] deck, const int32_t[::1] actions,
                        int32_t[::1] applied):
    """``apply_action`` of ``actions[i]`` to row ``i`` of ``states`` in place; ``applied[i]`` 1 or 0 (illegal)."""
    cdef Py_ssize_t i, n = states.shape[0]
    check_rows(states, deck)
    if actions.shape[0] != n or applied.shape[0] != n:
        raise ValueError("actions and applied: expected n entries")
    with nogil:
        for i in range(n):
            if is_legal(&states[i, 0], &deck[0], actions[i]):
                apply(&states[i, 0], &deck[0], actions[i])
                applied[i] = 1
            else:
                applied[i] = 0


# -- resampling and dealing ------------------------------------------------------------------------
cdef void resample_c(int32_t* s, int player, uint64_t* rng) noexcept nogil:
    cdef int face, c, n, i, j, bit = 1 << player
    cdef int cells[CELLS]
    cdef int32_t vals[CELLS]
    cdef int32_t tmp
    for face in range(2):
        n = 0
        for c in range(CELLS):
            if (s[UP + c] & 1) == face and not knows_under(s, c, bit):
                cells[n] = c
                vals[n] = s[DOWN + c]
                n += 1
        for i in range(1, n):   # sorted first: the sample depends on what the player knows only
            tmp = vals[i]
            j = i - 1
            while j >= 0 and vals[j] > tmp:
                vals[j + 1] = vals[j]
                j -= 1
            vals[j + 1] = tmp
        i = n - 1
        while i > 0:
            j = rng_below(rng, i + 1)
            tmp = vals[i]
            vals[i] = vals[j]
            vals[j] = tmp
            i -= 1
        for i in range(n):
            s[DOWN + cells[i]] = vals[i]


def resample(int32_t[::1] state, int player, uint64_t seed):
    """Shuffle, in place, the undersides ``player`` does not know among those cards (Sun-up and Moon-up apart;
    known: seen, or the clearing's, MR-21)."""
    cdef uint64_t rng = seed
    check_vector(state)
    if not 0 <= player < state[NPLAYERS]:
        raise ValueError("player: out of range")
    resample_c(&state[0], player, &rng)


cdef void deal_c(int32_t* s, uint64_t* rng) noexcept nogil:
    cdef int cards[24]
    cdef int perm[8]
    cdef int i, j, tmp, k = 0, c, card, face, n
    cdef bint master, active
    for i in range(24):
        cards[i] = i + 1
    i = 23
    while i > 0:
        j = rng_below(rng, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
        i -= 1
    for c in range(CELLS):
        if c == 12:
            card = 0
        else:
            card = cards[k]
            k += 1
        face = (c // 5 + c % 5) & 1
        s[UP + c] = 2 * card + face
        s[DOWN + c] = 2 * card + 1 - face
        s[SEEN + c] = 0
    for i in range(8):
        perm[i] = i
    i = 7
    while i > 0:
        j = rng_below(rng, i + 1)
        tmp = perm[i]
        perm[i] = perm[j]
        perm[j] = tmp
        i -= 1
    master = s[VARIANT] == VAR_MASTER
    for i in range(8):
        s[CHAR + perm[i]] = i if master else i // 2
    n = s[NPLAYERS]
    active = goblins_active(s)
    for i in range(4):
        s[PIECE + i] = 12 if i < n else -1
        s[CLOVER + i] = 1 if (active and i < n) else 0
        s[OWNTURNS + i] = 0
    s[SUPPLY] = 5 - n if active else 5
    s[START] = 0
    s[ROUND] = 1
    s[TOMOVE] = 0
    s[LAST] = -1
    s[PHASE] = PH_FLIP
    s[PENDING] = -1
    s[WINNER] = -1
    s[TURNS] = 0


def deal(int32_t[::1] state, const int32_t[::1] deck, uint64_t seed):
    """Deal a new game in place: shuffle the forest cards and the characters; keep the rule fields."""
    cdef uint64_t rng = seed
    check_state(state, deck)
    deal_c(&state[0], &rng)


# -- policies -----------------------------------------------------------------------------------------
cdef inline int dist_of(const int32_t* d, int cell) noexcept nogil:
    return d[cell] if d[cell] >= 0 else UNREACHABLE


cdef int reveal_value(const int32_t* s, const int32_t* deck, int q, int x, int side, const int32_t* d) noexcept nogil:
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


cdef int greedy(const int32_t* s, const int32_t* deck, uint64_t* rng) noexcept nogil:
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
    cdef int32_t buf[N_ACTIONS]
    cdef int n
    if pol == POLICY_GREEDY:
        return greedy(s, deck, rng)
    n = legal(s, deck, buf)
    if n > 1:
        return buf[rng_below(rng, n)]
    return buf[0]


def policy_action(state, deck, int policy, uint64_t seed):
    """The action policy ``policy`` (0 random, 1 greedy) plays for the player to act."""
    cdef uint64_t rng = seed
    cdef Py_buffer vs, vd
    cdef int32_t* dk = int32_buffer(deck, &vd, False, DECK_LEN, False, "deck")
    cdef int32_t* st
    try:
        st = int32_buffer(state, &vs, False, STATE_LEN, False, "state")
        try:
            check_pointer(st)
            if st[PHASE] == PH_OVER:
                raise ValueError("state: the game is over")
            if policy != POLICY_RANDOM and policy != POLICY_GREEDY:
                raise ValueError("policy: expected 0 (random) or 1 (greedy)")
            return _policy_entry(st, dk, policy, &rng)
        finally:
            PyBuffer_Release(&vs)
    finally:
        PyBuffer_Release(&vd)


cdef int _policy_entry(const int32_t* s, const int32_t* deck, int pol, uint64_t* rng) noexcept nogil:
    return policy(s, deck, pol, rng)


cdef inline void play(int32_t* s, const int32_t* deck, const int32_t* policies, uint64_t* rng,
                      int max_turns) noexcept nogil:
    cdef int start = s[TURNS]
    while s[PHASE] != PH_OVER and s[TURNS] - start < max_turns:
        apply(s, deck, policy(s, deck, policies[s[TOMOVE]], rng))


cdef inline void record(const int32_t* s, int player, int own0, int turns0, int64_t* out) noexcept nogil:
    cdef int64_t own = s[OWNTURNS + player] - own0
    cdef int w
    out[0] += 1
    if s[PHASE] != PH_OVER:
        out[1] += 1
    elif s[WINNER] < 0:
        out[11] += 1
    else:
        w = s[WINNER]
        out[6 + w] += 1
        if w == player:
            out[2] += 1
            out[3] += own
            out[5] += own * own
    out[4] += own
    out[10] += s[TURNS] - turns0


cdef void check_playout_args(const int32_t[::1] policies, int64_t[::1] out, int max_turns, int count) except *:
    cdef int i
    if policies.shape[0] != 4:
        raise ValueError("policies: expected 4 entries, each 0 (random) or 1 (greedy)")
    for i in range(4):
        if policies[i] != POLICY_RANDOM and policies[i] != POLICY_GREEDY:
            raise ValueError("policies: expected 4 entries, each 0 (random) or 1 (greedy)")
    if out.shape[0] != PLAYOUT_OUT:
        raise ValueError("out: expected 12 entries")
    if max_turns < 1 or count < 0:
        raise ValueError("max_turns must be positive and count non-negative")


def playouts(const int32_t[::1] state, const int32_t[::1] deck, int player, int first_action, int count,
             uint64_t seed, int resample, const int32_t[::1] policies, int max_turns, int64_t[::1] out):
    """Play ``count`` games on from ``state`` and add their results into ``out`` (int64[12]).

    With ``resample`` set, each game first re-deals the undersides ``player`` has not seen. ``first_action``
    (if >= 0) is played first; then each player follows ``policies[player]``. ``out``: games, unfinished,
    wins of ``player``, own turns in those wins, own turns in all games, squared own turns in wins, wins of
    players 0..3, total turns, games that ended with nobody able to leave.
    """
    cdef uint64_t rng = seed
    cdef int32_t s[STATE_LEN]
    cdef int g, i, own0, turns0
    check_state(state, deck)
    check_playout_args(policies, out, max_turns, count)
    if not 0 <= player < state[NPLAYERS]:
        raise ValueError("player: out of range")
    if first_action >= 0 and not is_legal(&state[0], &deck[0], first_action):
        raise ValueError("first_action: not legal")
    for i in range(PLAYOUT_OUT):
        out[i] = 0
    with nogil:
        for g in range(count):
            memcpy(s, &state[0], sizeof(int32_t) * STATE_LEN)
            if resample:
                resample_c(s, player, &rng)
            own0 = s[OWNTURNS + player]
            turns0 = s[TURNS]
            if first_action >= 0:
                apply(s, &deck[0], first_action)
            play(s, &deck[0], &policies[0], &rng, max_turns)
            record(s, player, own0, turns0, &out[0])


def random_games(const int32_t[::1] state, const int32_t[::1] deck, int count, uint64_t seed,
                 const int32_t[::1] policies, int max_turns, int64_t[::1] out):
    """Deal and play ``count`` games with the rule fields of ``state``; results (for player 0) as in ``playouts``."""
    cdef uint64_t rng = seed
    cdef int32_t s[STATE_LEN]
    cdef int g, i
    check_state(state, deck)
    check_playout_args(policies, out, max_turns, count)
    for i in range(PLAYOUT_OUT):
        out[i] = 0
    with nogil:
        for g in range(count):
            memcpy(s, &state[0], sizeof(int32_t) * STATE_LEN)
            deal_c(s, &rng)
            play(s, &deck[0], &policies[0], &rng, max_turns)
            record(s, 0, 0, 0, &out[0])


# -- shortest escape (solitaire, full information) -------------------------------------------------------
cdef inline void advance_to(int32_t* s, const int32_t* deck, int player) noexcept nogil:
    while s[TOMOVE] != player:
        s[LAST] = -1
        end_turn(s, deck)


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef struct TTEntry:
    int8_t key[KEY_BYTES]
    int32_t depth
    int32_t stamp


cdef struct Search:
    const int32_t* deck
    int player
    int32_t rf[CELLS]
    int32_t union_ex[CELLS]
    int64_t node_limit
    int64_t nodes
    double deadline
    int32_t* moves
    int moves_len
    bint use_tt
    bint collapse
    int count_limit
    bint stopped
    int next_bound
    int length
    int count
    const int32_t* stop  # polled every 1024 nodes: another thread sets stop[0] to cancel the search
    int32_t* progress    # NULL, or where the nodes searched so far / 1024 are written at each poll
    int64_t base_nodes   # nodes of the finished iterations (for ``progress``)
    TTEntry* tt
    int tt_bits
    int64_t tt_used
    int32_t stamp
    int32_t* arena       # per decision depth: a state copy and a legal-action buffer


cdef inline int h_of(const int32_t* s, const Search* sr) noexcept nogil:
    cdef int p = s[PIECE + sr.player], r, c, m, d
    if s[VARIANT] == VAR_BASE:
        d = first_step_bound(s, sr.deck, p, sr.union_ex, sr.rf)
        return d if d >= 0 else INF
    r = p // 5
    c = p % 5
    m = r
    if c < m:
        m = c
    if 4 - r < m:
        m = 4 - r
    if 4 - c < m:
        m = 4 - c
    return m + 1


cdef inline void make_key(const int32_t* s, int8_t* key) noexcept nogil:
    cdef int i
    memset(key, 0, KEY_BYTES)
    for i in range(CELLS):
        key[i] = <int8_t>s[UP + i]
    for i in range(4):
        key[25 + i] = <int8_t>s[PIECE + i]
    key[29] = <int8_t>s[LAST]
    key[30] = <int8_t>s[START]
    key[31] = 2 if s[ROUND] >= 2 else 1
    for i in range(4):
        key[32 + i] = <int8_t>s[CLOVER + i]
    key[36] = <int8_t>s[SUPPLY]
    for i in range(8):
        key[37 + i] = <int8_t>s[CHAR + i]


cdef inline uint64_t key_hash(const int8_t* key) noexcept nogil:
    cdef uint64_t h = 0x243F6A8885A308D3ULL, w
    cdef int i
    for i in range(KEY_BYTES // 8):
        memcpy(&w, key + 8 * i, 8)
        h = (h ^ w) * 0x9E3779B97F4A7C15ULL
        h ^= h >> 29
    return h


cdef bint grow_tt(Search* sr) noexcept nogil:
    """Double the transposition table (its entries are dropped: it only ever prunes exact repeats)."""
    cdef TTEntry* bigger = <TTEntry*>calloc(1 << (sr.tt_bits + 1), sizeof(TTEntry))
    if bigger == NULL:
        return False
    free(sr.tt)
    sr.tt = bigger
    sr.tt_bits += 1
    sr.tt_used = 0
    return True


cdef inline void publish_nodes(int32_t* slot, int64_t nodes) noexcept nogil:
    cdef int64_t kilo = nodes >> 10
    (<volatile int32_t*>slot)[0] = <int32_t>(kilo if kilo < 2147483647 else 2147483647)


cdef bint dfs(Search* sr, const int32_t* s, int d, int bound, int idx) noexcept nogil:
    cdef int f, n, i, a
    cdef bint peek_done = False, found
    cdef int8_t key[KEY_BYTES]
    cdef TTEntry* e
    cdef int32_t* c
    cdef int32_t* buf
    sr.nodes += 1
    if sr.node_limit > 0 and sr.nodes > sr.node_limit:
        sr.stopped = True
    elif (sr.nodes & 1023) == 0:
        if sr.progress != NULL:
            publish_nodes(sr.progress, sr.base_nodes + sr.nodes)
        if (sr.deadline > 0 and now() > sr.deadline) or (sr.stop != NULL and (<volatile int32_t*>sr.stop)[0] != 0):
            sr.stopped = True
    if sr.stopped:
        return False
    f = d - 1 + h_of(s, sr)
    if f > bound:
        if f < sr.next_bound:
            sr.next_bound = f
        return False
    if sr.use_tt and s[PHASE] == PH_FLIP:
        make_key(s, key)
        e = &sr.tt[key_hash(key) & ((1 << sr.tt_bits) - 1)]
        if e.stamp == sr.stamp and memcmp(e.key, key, KEY_BYTES) == 0:
            if e.depth <= d:
                return False
        elif e.stamp != sr.stamp:
            sr.tt_used += 1
            if sr.tt_used * 2 > (1 << sr.tt_bits) and sr.tt_bits < TT_BITS and grow_tt(sr):
                e = &sr.tt[key_hash(key) & ((1 << sr.tt_bits) - 1)]
        memcpy(e.key, key, KEY_BYTES)
        e.depth = d
        e.stamp = sr.stamp
    c = sr.arena + idx * (STATE_LEN + N_ACTIONS)
    buf = c + STATE_LEN
    n = legal(s, sr.deck, buf)
    for i in range(n):
        a = buf[i]
        if sr.collapse and A_PEEK <= a < A_SWAPCARDS:
            if peek_done:
                continue
            peek_done = True
        memcpy(c, s, sizeof(int32_t) * STATE_LEN)
        apply(c, sr.deck, a)
        if idx < sr.moves_len:
            sr.moves[idx] = a
        if c[PHASE] == PH_OVER:
            if c[WINNER] == sr.player:
                sr.length = d
                sr.count += 1
                if sr.count_limit == 0 or sr.count >= sr.count_limit:
                    return True
            continue
        if c[PHASE] == PH_FLIP:
            advance_to(c, sr.deck, sr.player)
            found = dfs(sr, c, d + 1, bound, idx + 1)
        else:
            found = dfs(sr, c, d, bound, idx + 1)
        if found or sr.stopped:
            return found
    return False


cdef void solitaire_root(const int32_t[::1] state, const int32_t[::1] deck, int player, int32_t* s) except *:
    check_state(state, deck)
    if not 0 <= player < state[NPLAYERS]:
        raise ValueError("player: out of range")
    if state[PHASE] == PH_OVER:
        raise ValueError("state: the game is over")
    memcpy(s, &state[0], sizeof(int32_t) * STATE_LEN)
    if s[TOMOVE] != player:
        if s[PHASE] != PH_FLIP:
            raise ValueError("state: another player is in the middle of a turn")
        advance_to(s, &deck[0], player)


cdef void init_search(Search* sr, const int32_t* s, const int32_t* deck, int player, int max_depth) except *:
    cdef int32_t ex[CELLS]
    cdef int c
    sr.deck = deck
    sr.player = player
    for c in range(CELLS):
        sr.union_ex[c] = deck[T_EXITS + s[UP + c]] | deck[T_EXITS + s[DOWN + c]]
    field(sr.union_ex, sr.rf)
    sr.nodes = 0
    sr.stopped = False
    sr.next_bound = INF
    sr.length = 0
    sr.count = 0
    sr.stamp = 0
    sr.stop = NULL
    sr.progress = NULL
    sr.base_nodes = 0
    sr.tt = NULL
    sr.arena = <int32_t*>malloc(sizeof(int32_t) * (STATE_LEN + N_ACTIONS) * (3 * max_depth + 3))
    if sr.arena == NULL:
        raise MemoryError()


def shortest_escape(const int32_t[::1] state, const int32_t[::1] deck, int player, int max_depth,
                    int64_t node_limit, double time_limit, int32_t[::1] moves, int32_t[::1] stop):
    """Fewest own turns for ``player`` to leave the forest, knowing every card (IDA*, admissible bound).

    The other players' turns change nothing (solitaire). Returns ``(status, length, bound, nodes)``:
    status 0 found (``moves[:decisions]`` holds the actions, ``length`` turns, proven shortest), 1 no escape
    within ``max_depth`` turns (``bound`` = max_depth + 1, or ``2**20`` when no path can ever lead out),
    2 stopped by ``node_limit`` / ``time_limit`` / ``stop[0]`` set by another thread (``bound`` = proven lower bound).
    ``stop`` has 1 to 3 entries: ``stop[0]`` is read; while the search runs it writes, for another thread to read,
    ``stop[1]`` = the bound of the iteration under way (no escape in fewer own turns: proven) and ``stop[2]`` = the
    nodes searched so far / 1024 (saturating).
    """
    cdef int32_t s[STATE_LEN]
    cdef Search sr
    cdef int bound, status = 1, length = 0, result_bound
    cdef int64_t nodes = 0
    cdef bint found
    solitaire_root(state, deck, player, s)
    if max_depth < 1 or max_depth > 64 or moves.shape[0] < 3 * max_depth:
        raise ValueError("max_depth must be 1..64 and moves hold 3 * max_depth entries")
    if not 1 <= stop.shape[0] <= 3:
        raise ValueError("stop: expected 1 to 3 entries")
    init_search(&sr, s, &deck[0], player, max_depth)
    sr.stop = &stop[0]
    if stop.shape[0] == 3:
        sr.progress = &stop[2]
    bound = h_of(s, &sr)
    if bound >= INF:
        free(sr.arena)
        return 1, 0, INF, 0
    sr.tt_bits = TT_START_BITS
    sr.tt_used = 0
    sr.tt = <TTEntry*>calloc(1 << TT_START_BITS, sizeof(TTEntry))
    if sr.tt == NULL:
        free(sr.arena)
        raise MemoryError()
    sr.moves = &moves[0]
    sr.moves_len = moves.shape[0]
    sr.use_tt = True
    sr.collapse = True
    sr.count_limit = 1
    sr.deadline = now() + time_limit if time_limit > 0 else 0.0
    result_bound = max_depth + 1
    with nogil:
        while bound <= max_depth:
            if stop.shape[0] >= 2:
                (<volatile int32_t*>&stop[1])[0] = bound
            sr.stamp += 1
            sr.tt_used = 0
            sr.node_limit = node_limit - nodes if node_limit > 0 else 0
            sr.base_nodes = nodes
            sr.nodes = 0
            sr.next_bound = INF
            found = dfs(&sr, s, 1, bound, 0)
            nodes += sr.nodes
            if found:
                status = 0
                length = sr.length
                result_bound = sr.length
                break
            if sr.stopped:
                status = 2
                result_bound = bound
                break
            if sr.next_bound >= INF:
                result_bound = INF
                break
            bound = sr.next_bound
    free(sr.tt)
    free(sr.arena)
    return status, length, result_bound, nodes


def count_solutions(const int32_t[::1] state, const int32_t[::1] deck, int player, int depth, int limit,
                    int64_t node_limit):
    """How many decision sequences make ``player`` leave within ``depth`` own turns (counting stops at ``limit``).

    Returns ``(count, nodes, complete)``; ``complete`` is 0 when ``node_limit`` stopped the count.
    """
    cdef int32_t s[STATE_LEN]
    cdef Search sr
    cdef int32_t dummy[1]
    solitaire_root(state, deck, player, s)
    if depth < 1 or depth > 64 or limit < 1:
        raise ValueError("depth must be 1..64 and limit positive")
    init_search(&sr, s, &deck[0], player, depth)
    sr.moves = dummy
    sr.moves_len = 0
    sr.use_tt = False
    sr.collapse = False
    sr.count_limit = limit
    sr.deadline = 0.0
    sr.node_limit = node_limit
    with nogil:
        dfs(&sr, s, 1, depth, 0)
    free(sr.arena)
    return (sr.count if sr.count < limit else limit), sr.nodes, (0 if sr.stopped else 1)


def greedy_escape(const int32_t[::1] state, const int32_t[::1] deck, int player, int max_turns, int tries,
                  uint64_t seed, int32_t[::1] moves):
    """An upper bound for ``shortest_escape``: the shortest of ``tries`` solitaire runs of the greedy policy
    knowing every card. Returns ``(turns, decisions)`` with the run's actions in ``moves`` (``(-1, 0)``: no run
    left the forest within ``max_turns``)."""
    cdef int32_t root[STATE_LEN]
    cdef int32_t s[STATE_LEN]
    cdef int32_t* run
    cdef uint64_t rng = seed
    cdef int best = -1, best_n = 0, t, c, turns, limit, n, a, i
    solitaire_root(state, deck, player, root)
    if max_turns < 1 or max_turns > 1000 or tries < 1 or moves.shape[0] < 3 * max_turns:
        raise ValueError("max_turns must be 1..1000, tries positive, and moves hold 3 * max_turns entries")
    for c in range(CELLS):
        root[SEEN + c] = (1 << root[NPLAYERS]) - 1
    run = <int32_t*>malloc(sizeof(int32_t) * (3 * max_turns + 3))
    if run == NULL:
        raise MemoryError()
    with nogil:
        for t in range(tries):
            memcpy(s, root, sizeof(int32_t) * STATE_LEN)
            n = 0
            turns = 1
            limit = max_turns if best < 0 else best - 1
            while turns <= limit:
                a = greedy(s, &deck[0], &rng)
                run[n] = a
                n += 1
                apply(s, &deck[0], a)
                if s[PHASE] == PH_OVER:
                    if s[WINNER] == player:
                        best = turns
                        best_n = n
                        for i in range(n):
                            moves[i] = run[i]
                    break
                if s[PHASE] == PH_FLIP:
                    advance_to(s, &deck[0], player)
                    turns += 1
                    if s[PHASE] == PH_OVER:
                        break
    free(run)
    return best, best_n


def skip_to_player(int32_t[::1] state, const int32_t[::1] deck, int player):
    """Solitaire model: end the other players' turns in place without any flip until ``player`` is to move."""
    check_state(state, deck)
    if not 0 <= player < state[NPLAYERS]:
        raise ValueError("player: out of range")
    if state[TOMOVE] != player and state[PHASE] != PH_FLIP:
        raise ValueError("state: another player is in the middle of a turn")
    if state[PHASE] != PH_OVER:
        advance_to(&state[0], &deck[0], player)
