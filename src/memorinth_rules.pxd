# cython: language_level=3
"""The rules of Memorinth on a flat int32 state vector: geometry, path bitboards, legal actions and their effects,
and the checks of a vector handed to a kernel (the one compiled statement of ``docs/rules/memorinth.md``).

Inline, for the kernels ``memorinth_play`` (rules one call at a time, dealing, playouts) and ``memorinth_escape``
(shortest escapes); the policies are in ``memorinth_policy.pxd``. Twin: ``solver/twins/memorinth_rules.py``,
whose docstring documents the state vector, the deck table and the action codes.
"""

from libc.stdint cimport int32_t, uint32_t
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBUF_WRITABLE
from common cimport lowest_bit, nth_bit, popcount

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
    FULL = (1 << 25) - 1
    ROW0 = 0x1F
    ROW4 = 0x1F << 20
    COL0 = 0x108421
    COL4 = 0x108421 << 4


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


cdef inline int action_options(const int32_t* s, int code, int player, int32_t* out) noexcept nogil:
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


cdef inline uint32_t free_mask(const int32_t* s) noexcept nogil:
    """The cells without a piece."""
    cdef uint32_t occupied = 0
    cdef int i
    for i in range(s[NPLAYERS]):
        if 0 <= s[PIECE + i] < CELLS:
            occupied |= (<uint32_t>1) << s[PIECE + i]
    return FULL & ~occupied


cdef inline uint32_t flippable(const int32_t* s) noexcept nogil:
    """The cells the player to act may flip: showing the starting side, not the card flipped last, without a piece."""
    cdef uint32_t free = free_mask(s), cells = 0
    cdef int c
    for c in range(CELLS):
        if (s[UP + c] & 1) == s[START] and c != s[LAST] and (free >> c) & 1:
            cells |= (<uint32_t>1) << c
    return cells


cdef inline int option_count(const int32_t* s, int code, int player) noexcept nogil:
    """How many actions ``action_options`` lists for ``code`` (a clover from the supply: 1), without listing them."""
    cdef int q, n = 0, nf
    if code < 4:
        return 5
    if code == ACT_CLOVER:
        if s[SUPPLY] > 0:
            return 1
        for q in range(s[NPLAYERS]):
            if q != player and s[CLOVER + q] > 0:
                n += 1
        return n
    if code == ACT_SWAPCHARS:
        return 28
    nf = popcount(free_mask(s))
    return nf if code == ACT_PEEK else nf * (nf - 1) // 2


cdef inline int nth_option(const int32_t* s, int code, int player, int k) noexcept nogil:
    """``action_options(s, code, player)[k]`` alone (the list is ascending)."""
    cdef int q, x, y
    cdef uint32_t free
    if code < 4:
        return A_SHIFT + k
    if code == ACT_CLOVER:
        if s[SUPPLY] > 0:
            return -1
        for q in range(s[NPLAYERS]):
            if q != player and s[CLOVER + q] > 0:
                if k == 0:
                    return A_CLOVER + q
                k -= 1
        return -1
    if code == ACT_SWAPCHARS:
        return A_SWAPCHARS + k
    free = free_mask(s)
    if code == ACT_PEEK:
        return A_PEEK + nth_bit(free, k)
    pair_from_index(k, popcount(free), &x, &y)
    return A_SWAPCARDS + pair_index(nth_bit(free, x), nth_bit(free, y), CELLS)


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


cdef inline int options(const int32_t* s, const int32_t* deck, int32_t* out) noexcept nogil:
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


ctypedef struct Stuck:
    bint valid          # the fields below describe the cards as they lie (cleared when public card facts change)
    uint32_t open[4]    # cells whose card has a path end N, E, S, W on either side it may show (MR-19)
    uint32_t reach      # cells from which such paths lead out of the forest


cdef inline void public_paths(const int32_t* s, const int32_t* deck, Stuck* st) noexcept nogil:
    """MR-19: each cell's path ends on either side its card may show, from what every player has seen, and the cells
    from which they lead out.

    A card whose underside every player knows (flipped before, or the clearing) has its two sides; under any other
    card may lie any side of the other colour whose place not everybody knows (the undersides of the cards of the
    same face-up colour that not everybody has seen). This depends only on public information, so every player's
    view agrees with it."""
    cdef int everybody = (1 << s[NPLAYERS]) - 1, c, d
    cdef int32_t pool[2]
    cdef int32_t e
    cdef uint32_t L[5]
    cdef uint32_t grown
    pool[0] = 0
    pool[1] = 0
    for c in range(CELLS):
        if not (s[UP + c] < 2 or (s[SEEN + c] & everybody) == everybody):
            pool[s[UP + c] & 1] |= deck[T_EXITS + s[DOWN + c]]
    for d in range(4):
        st.open[d] = 0
    for c in range(CELLS):
        if s[UP + c] < 2 or (s[SEEN + c] & everybody) == everybody:
            e = deck[T_EXITS + s[UP + c]] | deck[T_EXITS + s[DOWN + c]]
        else:
            e = deck[T_EXITS + s[UP + c]] | pool[s[UP + c] & 1]
        for d in range(4):
            st.open[d] |= (<uint32_t>((e >> d) & 1)) << c
    links_of_open(st.open, L)
    st.reach = L[4]
    while True:
        grown = st.reach | ((st.reach << 5) & L[0]) | ((st.reach >> 5) & L[2]) | ((st.reach >> 1) & L[1]) \
            | ((st.reach << 1) & L[3])
        grown &= FULL
        if grown == st.reach:
            break
        st.reach = grown
    st.valid = True


cdef inline bint all_stuck(const int32_t* s, const int32_t* deck, Stuck* memo) noexcept nogil:
    """Base game: as every player can see, no piece can ever leave (MR-19): no piece has a first step (an exit of
    its card, onto a card that may connect back) into a cell from which the public paths lead out.

    ``memo`` (or NULL) keeps the public paths between calls; the rules clear it when public card facts change."""
    cdef Stuck local
    cdef int i, p, d, t, own
    if memo == NULL:
        memo = &local
        local.valid = False
    if not memo.valid:
        public_paths(s, deck, memo)
    for i in range(s[NPLAYERS]):
        p = s[PIECE + i]
        own = deck[T_EXITS + s[UP + p]]
        for d in range(4):
            if not (own >> d) & 1:
                continue
            t = neighbor(p, d)
            if t < 0:
                return False
            if (memo.open[(d + 2) & 3] >> t) & 1 and (memo.reach >> t) & 1:
                return False
    return True


cdef inline void end_turn(int32_t* s, const int32_t* deck, Stuck* memo) noexcept nogil:
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
    if s[VARIANT] == VAR_BASE and all_stuck(s, deck, memo):
        s[PHASE] = PH_OVER


cdef inline void do_move(int32_t* s, const int32_t* deck, int d, Stuck* memo) noexcept nogil:
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
        end_turn(s, deck, memo)


cdef inline void start_action(int32_t* s, const int32_t* deck, int code, Stuck* memo) noexcept nogil:
    cdef int p = s[TOMOVE], n
    if code < 4:
        s[PENDING] = absolute(s[SEAT + p], code)
        s[PHASE] = PH_ACT
        return
    if code == ACT_CLOVER and s[SUPPLY] > 0:
        s[SUPPLY] -= 1
        s[CLOVER + p] += 1
        end_turn(s, deck, memo)
        return
    n = option_count(s, code, p)
    s[PENDING] = code
    if n == 1:
        apply_act(s, deck, nth_option(s, code, p, 0), memo)
    else:
        s[PHASE] = PH_ACT


cdef inline void choose(int32_t* s, const int32_t* deck, int c, Stuck* memo) noexcept nogil:
    cdef int loc = s[CHAR + c]
    if loc < 4:
        do_move(s, deck, loc, memo)
    else:
        start_action(s, deck, action_code(s, deck, loc - 4), memo)


cdef inline void resolve_flip(int32_t* s, const int32_t* deck, Stuck* memo) noexcept nogil:
    cdef int32_t opts[8]
    cdef int n = options(s, deck, opts)
    if n == 0:
        end_turn(s, deck, memo)
    elif n == 1:
        choose(s, deck, opts[0], memo)
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


cdef inline void shift(int32_t* s, int d, int line) noexcept nogil:
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


cdef inline void apply_act(int32_t* s, const int32_t* deck, int a, Stuck* memo) noexcept nogil:
    cdef int p = s[TOMOVE], x, y
    cdef int32_t tmp
    if memo != NULL and (a < A_CLOVER or a >= A_PEEK) and a < A_SWAPCHARS:
        memo.valid = False      # a shift, peek or card swap changes what everybody knows of the cards
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
    end_turn(s, deck, memo)


cdef inline int legal(const int32_t* s, const int32_t* deck, int32_t* out) noexcept nogil:
    cdef int phase = s[PHASE], n = 0, pend, i
    cdef int32_t opts[8]
    cdef uint32_t cells
    if phase == PH_FLIP:
        cells = flippable(s)
        while cells:
            out[n] = lowest_bit(cells)
            cells &= cells - 1
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


cdef inline void apply(int32_t* s, const int32_t* deck, int a, Stuck* memo) noexcept nogil:
    cdef int32_t tmp
    cdef int everybody = (1 << s[NPLAYERS]) - 1
    if a < A_PASS:
        if memo != NULL and not (s[UP + a] < 2 or (s[SEEN + a] & everybody) == everybody):
            memo.valid = False  # a card not everybody knew shows its other side (a card they knew changes nothing)
        tmp = s[UP + a]
        s[UP + a] = s[DOWN + a]
        s[DOWN + a] = tmp
        s[SEEN + a] = everybody
        s[LAST] = a
        resolve_flip(s, deck, memo)
    elif a == A_PASS:
        s[LAST] = -1
        end_turn(s, deck, memo)
    elif a < A_SHIFT:
        choose(s, deck, a - A_CHOOSE, memo)
    else:
        apply_act(s, deck, a, memo)


cdef inline int legal_count(const int32_t* s, const int32_t* deck) noexcept nogil:
    """How many actions ``legal`` lists, without listing them."""
    cdef int phase = s[PHASE], pend, n
    cdef int32_t opts[8]
    if phase == PH_FLIP:
        n = popcount(flippable(s))
        return n if n > 0 else 1
    if phase == PH_CHOOSE:
        return options(s, deck, opts)
    if phase == PH_ACT:
        pend = s[PENDING]
        return option_count(s, 0 if pend < 4 else pend, s[TOMOVE])
    return 0


cdef inline int nth_legal(const int32_t* s, const int32_t* deck, int k) noexcept nogil:
    """``legal(s)[k]`` alone."""
    cdef int phase = s[PHASE], pend
    cdef uint32_t cells
    cdef int32_t opts[8]
    if phase == PH_FLIP:
        cells = flippable(s)
        return nth_bit(cells, k) if k < popcount(cells) else A_PASS
    if phase == PH_CHOOSE:
        options(s, deck, opts)
        return A_CHOOSE + opts[k]
    pend = s[PENDING]
    return nth_option(s, 0 if pend < 4 else pend, s[TOMOVE], k)


cdef inline bint is_legal(const int32_t* s, const int32_t* deck, int a) noexcept nogil:
    cdef int32_t buf[N_ACTIONS]
    cdef int n = legal(s, deck, buf), i
    for i in range(n):
        if buf[i] == a:
            return True
    return False


# -- validation of kernel input (raises ValueError; the twin checks the same) --------------------
cdef inline void check_state(const int32_t[::1] state, const int32_t[::1] deck) except *:
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


cdef inline int32_t* int32_buffer(object obj, Py_buffer* view, bint writable, Py_ssize_t length, bint at_least,
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


cdef inline str vector_problem(int err):
    """What problem number ``err`` of :func:`vector_error` is (the twin's ``VECTOR_ERRORS``)."""
    return ("", "bad player count", "bad side id", "bad piece", "bad seat", "bad character place",
            "bad turn fields", "choose phase without a flipped card",
            "a piece left the forest but the game goes on", "bad pending action")[err]


cdef inline void check_pointer(const int32_t* s) except *:
    cdef int err = vector_error(s)
    if err:
        raise ValueError("state: " + vector_problem(err))


cdef inline int vector_error(const int32_t* s) noexcept nogil:
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


cdef inline void check_vector(const int32_t[::1] state) except *:
    cdef int err
    if state.shape[0] != STATE_LEN:
        raise ValueError("state: expected 112 entries")
    err = vector_error(&state[0])
    if err:
        raise ValueError("state: " + vector_problem(err))


cdef inline void check_rows(const int32_t[:, ::1] states, const int32_t[::1] deck) except *:
    cdef Py_ssize_t i
    cdef int err
    if deck.shape[0] != DECK_LEN:
        raise ValueError("deck: expected 160 entries")
    if states.shape[1] != STATE_LEN:
        raise ValueError("states: expected rows of 112 entries")
    for i in range(states.shape[0]):
        err = vector_error(&states[i, 0])
        if err:
            raise ValueError(f"states[{i}]: " + vector_problem(err))

