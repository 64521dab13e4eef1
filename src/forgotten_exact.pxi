"""Forgotten exact solver (compiled): expectimax over what the players know, memoised on canonical keys.

Twin: ``solver/twins/forgotten_exact.py`` (same class, same methods, same values), which is also the
readable statement of the search; the model is described in ``solver/forgotten/knowledge.py`` and
``solver/forgotten/exact.py``.

Knowledge per cell: 0 blocked (Brain, empty, removed), 1 unseen face down, 2 face up, 3 seen face down
whose partner is known to be removed, 4+ a label for a seen face-down tile (two cells with one label:
a known pair; a lone label: its partner is unseen). ``e`` removed tiles nobody saw, ``d`` unseen
tiles whose partner was removed after being seen. ``erase_next``: an Erasure roll follows this turn.
``erasure`` 0 off, 1 once both players have played, 2 after every turn. ``goal`` 0 a Brain-to-Brain path
(FG-10, FG-11), 1 clear every pair (FG-14): won when no tile is face down, lost once a face-down tile's
partner is removed. A removed face-down tile cannot come back, but its partner can be removed later, so
under ``goal`` 1 a lost game could look winnable again: the chance there is over the worlds still alive
(every unseen orphan among the removed tiles, every lone tile's partner on the board), an Erasure roll on
a face-down tile loses at once, and the values are already conditioned on the game not being over.
Positions do not matter either (the Erasure dice pick every cell alike), so knowledge states are keyed on
their counts and one unseen tile and one known pair stand for all of them.

``policy`` -1 maximises (optimal play); 2 plays the route policy of ``forgotten_playout`` instead and
gives its exact win probability. Boards of at most 24 cells.
"""

from libc.stdint cimport uint64_t, uint8_t, int8_t, int32_t, int64_t
from libc.string cimport memcpy, memset
from common cimport HashTable, table_init, table_free, table_clear, table_lookup, table_store, monotonic_seconds
from forgotten_bits cimport (Geometry, make_geometry, connected, closure, spread, through_costs, bit, lowest,
                             cheapest, popcount64, FAR)

cdef enum:
    MAXC = 24
    MAXOUT = 16
    BLOCK = 0
    UNK = 1
    UP = 2
    DEAD = 3
    LABEL = 4
    MAXSYM = 8
    TAG_START0 = 0
    TAG_START1 = 1
    TAG_ROLL = 2
    GOAL_PATH = 0
    GOAL_CLEAR = 1


ctypedef struct Info:
    uint8_t codes[MAXC]
    int e
    int d


ctypedef struct Masks:
    uint64_t up
    uint64_t unk
    uint64_t pairs
    uint64_t singles
    uint64_t dead


ctypedef struct Search:
    Geometry g
    int n
    int erasure
    int goal
    int policy
    int nsym
    uint8_t syms[MAXSYM][MAXC]
    HashTable memo       # knowledge key (2 words) -> value
    int64_t nodes
    int64_t max_nodes
    double deadline
    int stopped          # 1 node limit, 2 time limit, 3 memory limit


# -- knowledge helpers ------------------------------------------------------------------------------
cdef inline void get_masks(const Info* info, int n, Masks* m) noexcept nogil:
    cdef int c, code
    cdef int8_t first_at[32]
    m.up = 0
    m.unk = 0
    m.pairs = 0
    m.singles = 0
    m.dead = 0
    for c in range(32):
        first_at[c] = -1
    for c in range(n):
        code = info.codes[c]
        if code == UP:
            m.up |= bit(c)
        elif code == UNK:
            m.unk |= bit(c)
        elif code == DEAD:
            m.dead |= bit(c)
        elif code >= LABEL:
            if first_at[code] >= 0:
                m.pairs |= bit(c) | bit(first_at[code])
                m.singles &= ~bit(first_at[code])
            else:
                first_at[code] = c
                m.singles |= bit(c)


cdef inline void normalise(Info* info, int n) noexcept nogil:
    cdef uint8_t names[32]
    cdef int c, next_name = LABEL, code
    memset(names, 0, 32)
    for c in range(n):
        code = info.codes[c]
        if code >= LABEL:
            if names[code] == 0:
                names[code] = next_name
                next_name += 1
            info.codes[c] = names[code]


cdef inline int max_label(const Info* info, int n) noexcept nogil:
    cdef int c, best = LABEL - 1
    for c in range(n):
        if info.codes[c] > best:
            best = info.codes[c]
    return best


cdef inline int mate_of(const Info* info, int n, int cell) noexcept nogil:
    cdef int c, code = info.codes[cell]
    if code < LABEL:
        return -1
    for c in range(n):
        if c != cell and info.codes[c] == code:
            return c
    return -1


cdef inline uint64_t usable_of(const Masks* m) noexcept nogil:
    return m.up | m.unk | m.pairs | (m.singles if m.unk else 0)


cdef inline uint64_t down_of(const Masks* m) noexcept nogil:
    return m.unk | m.pairs | m.singles | m.dead


cdef inline bint hopeful(const Search* s, const Info* info, const Masks* m) noexcept nogil:
    """Some world that agrees with the knowledge may still be won (a superset of the living worlds)."""
    if s.goal == GOAL_CLEAR:
        # a known orphan, a lone tile whose partner must be among the removed ones, or an unseen orphan that
        # must be on the board all mean some face-down tile can never be matched
        return m.dead == 0 and popcount64(m.singles) <= popcount64(m.unk) and info.d <= info.e \
            and (popcount64(m.unk) - popcount64(m.singles)) % 2 == 0
    return connected(&s.g, usable_of(m))


cdef inline bint won(const Search* s, const Masks* m) noexcept nogil:
    """The goal is reached: a face-up path (FG-10) or no tile face down (FG-14)."""
    if s.goal == GOAL_CLEAR:
        return down_of(m) == 0
    return connected(&s.g, m.up)


cdef inline uint64_t route_cells(const Search* s, const Masks* m) noexcept nogil:
    """Cells whose place matters: those on a possible route (path goal); none under the clear goal."""
    if s.goal == GOAL_CLEAR:
        return 0
    return relevant(&s.g, usable_of(m))


cdef int reveal(const Search* s, const Info* info, int cell, Info* outs, int* weights) noexcept nogil:
    """Outcomes of turning up the unseen tile on ``cell``; weights add up to ``u + e`` (path goal) or ``u``
    (clear goal, where the worlds are those still alive: see ``Model.reveal``)."""
    cdef Masks m
    cdef int count = 0, j, u, k, fresh
    cdef uint64_t rest
    get_masks(info, s.n, &m)
    rest = m.singles
    while rest:
        j = lowest(rest)
        rest &= rest - 1
        outs[count] = info[0]
        outs[count].codes[cell] = info.codes[j]
        normalise(&outs[count], s.n)
        weights[count] = 1
        count += 1
    if info.d > 0 and s.goal != GOAL_CLEAR:
        outs[count] = info[0]
        outs[count].codes[cell] = DEAD
        outs[count].d -= 1
        normalise(&outs[count], s.n)
        weights[count] = info.d
        count += 1
    u = popcount64(m.unk)
    k = popcount64(m.singles)
    fresh = u - k if s.goal == GOAL_CLEAR else 2 * ((u + info.e - k - info.d) // 2)
    if fresh > 0:
        outs[count] = info[0]
        outs[count].codes[cell] = max_label(info, s.n) + 1
        normalise(&outs[count], s.n)
        weights[count] = fresh
        count += 1
    return count


cdef int second_flip(const Search* s, const Info* info, int first, int cell, Info* outs, int* weights,
                     int* matched) noexcept nogil:
    cdef int count, i, code = info.codes[cell]
    if code == UNK:
        count = reveal(s, info, cell, outs, weights)
    else:
        outs[0] = info[0]
        weights[0] = 1
        count = 1
    for i in range(count):
        matched[i] = outs[i].codes[cell] >= LABEL and outs[i].codes[cell] == outs[i].codes[first]
        if matched[i]:
            outs[i].codes[cell] = UP
            outs[i].codes[first] = UP
            normalise(&outs[i], s.n)
    return count


cdef bint erase(const Search* s, const Info* info, int cell, Info* out) noexcept nogil:
    """The knowledge after an Erasure roll on ``cell``; False when nothing changes."""
    cdef int code = info.codes[cell], mate
    if code == BLOCK:
        return False
    out[0] = info[0]
    if s.goal == GOAL_CLEAR and code != UP:
        out.codes[cell] = DEAD     # a face-down tile erased: its partner can never be matched, the game is lost
        return True
    out.codes[cell] = BLOCK
    if code == UNK:
        out.e += 1
    elif code >= LABEL:
        mate = mate_of(info, s.n, cell)
        if mate >= 0:
            out.codes[mate] = DEAD
        else:
            out.d += 1
    normalise(out, s.n)
    return True


cdef uint64_t relevant(const Geometry* g, uint64_t usable) noexcept nogil:
    """Cells of ``usable`` that can lie on a simple Brain-to-Brain path through ``usable``."""
    cdef uint64_t cells, drop, rest
    cdef int c, degree, need
    cells = closure(g, g.start & usable, usable) & closure(g, g.goal & usable, usable)
    while True:
        drop = 0
        rest = cells
        while rest:
            c = lowest(rest)
            rest &= rest - 1
            degree = popcount64(spread(g, bit(c)) & cells)
            if (g.start >> c) & 1 and (g.goal >> c) & 1:
                need = 0
            elif (g.start >> c) & 1 or (g.goal >> c) & 1:
                need = 1
            else:
                need = 2
            if degree < need:
                drop |= bit(c)
        if drop == 0:
            return cells
        cells &= ~drop


# -- keys and the memo --------------------------------------------------------------------------------------
cdef void make_key(const Search* s, const Info* info, int tag, uint64_t* k0, uint64_t* k1) noexcept nogil:
    cdef Masks m
    cdef uint8_t local[MAXC]
    cdef uint8_t moved[MAXC]
    cdef uint8_t names[32]
    cdef uint64_t rel, singles, a0, a1, b0 = 0, b1 = 0
    cdef int c, code, mate, sym, next_name, loose_unk = 0, loose_single = 0
    cdef bint first = True
    if s.policy >= 0:                      # a policy may break ties by position: exact knowledge
        for c in range(MAXC):
            local[c] = info.codes[c] if c < s.n else 0
        pack(local, k0, k1)
        k1[0] |= (<uint64_t>info.e << 32) | (<uint64_t>info.d << 36) | (<uint64_t>tag << 50) | (<uint64_t>1 << 63)
        return
    get_masks(info, s.n, &m)
    if s.goal == GOAL_CLEAR:               # only the counts matter (FG-14)
        k0[0] = (<uint64_t>popcount64(m.unk)) | (<uint64_t>popcount64(m.singles) << 8) \
            | (<uint64_t>popcount64(m.pairs) << 16) | (<uint64_t>popcount64(m.dead) << 24)
        k1[0] = (<uint64_t>info.e << 32) | (<uint64_t>info.d << 36) | (<uint64_t>tag << 50) | (<uint64_t>1 << 63)
        return
    singles = m.singles if m.unk else 0
    rel = relevant(&s.g, m.up | m.unk | m.pairs | singles)
    loose_unk = popcount64(m.unk & ~rel)
    loose_single = popcount64(singles & ~rel)
    for c in range(MAXC):
        local[c] = 0
    for c in range(s.n):
        if not (rel >> c) & 1:
            continue
        code = info.codes[c]
        if code >= LABEL:
            if (singles >> c) & 1:
                local[c] = 3
            else:
                mate = mate_of(info, s.n, c)
                local[c] = code + 2 if (rel >> mate) & 1 else 4
        else:
            local[c] = code
    for sym in range(s.nsym):
        for c in range(MAXC):
            moved[c] = 0
        for c in range(s.n):
            moved[s.syms[sym][c]] = local[c]
        memset(names, 0, 32)
        next_name = 5
        for c in range(s.n):
            if moved[c] >= 5:
                if names[moved[c]] == 0:
                    names[moved[c]] = next_name
                    next_name += 1
                moved[c] = names[moved[c]]
        pack(moved, &a0, &a1)
        if first or a1 < b1 or (a1 == b1 and a0 < b0):
            b0 = a0
            b1 = a1
            first = False
    k0[0] = b0
    k1[0] = b1 | (<uint64_t>info.e << 32) | (<uint64_t>info.d << 36) | (<uint64_t>loose_unk << 40) \
        | (<uint64_t>loose_single << 45) | (<uint64_t>tag << 50) | (<uint64_t>1 << 63)


cdef inline void pack(const uint8_t* codes, uint64_t* k0, uint64_t* k1) noexcept nogil:
    cdef int c
    k0[0] = 0
    k1[0] = 0
    for c in range(16):
        k0[0] |= (<uint64_t>(codes[c] & 15)) << (4 * c)
    for c in range(16, MAXC):
        k1[0] |= (<uint64_t>(codes[c] & 15)) << (4 * (c - 16))


cdef inline bint lookup(const Search* s, uint64_t k0, uint64_t k1, double* value) noexcept nogil:
    cdef uint64_t key[2]
    key[0] = k0
    key[1] = k1
    return table_lookup(&s.memo, key, value)


cdef inline void store(Search* s, uint64_t k0, uint64_t k1, double value) noexcept nogil:
    cdef uint64_t key[2]
    if s.stopped:
        return
    key[0] = k0
    key[1] = k1
    if table_store(&s.memo, key, value) != 0:
        s.stopped = 3


cdef inline void tick(Search* s) noexcept nogil:
    s.nodes += 1
    if s.max_nodes > 0 and s.nodes >= s.max_nodes:
        s.stopped = 1
    elif s.deadline > 0 and (s.nodes & 255) == 0 and monotonic_seconds() > s.deadline:
        s.stopped = 2


# -- the route policy on knowledge (the same choices as forgotten_playout's policy 2) --------------------------
cdef int route_move(const Search* s, const Info* info, int first) noexcept nogil:
    cdef Masks m
    cdef int costs[64]
    cdef int best, c
    cdef uint64_t ku, rest, down, unk
    get_masks(info, s.n, &m)
    ku = m.singles if m.unk else 0
    down = m.unk | m.pairs | m.singles | m.dead
    if first >= 0:
        c = mate_of(info, s.n, first)
        if c >= 0:
            return c
        unk = m.unk & ~bit(first)
        through_costs(&s.g, m.up, m.pairs, ku, m.unk, costs)
        c = cheapest(unk, costs)
        if c >= 0:
            return c
        if unk:
            return lowest(unk)
        return lowest(down & ~bit(first))
    best = through_costs(&s.g, m.up, m.pairs, ku, m.unk, costs)
    rest = m.pairs
    while rest:
        c = lowest(rest)
        rest &= rest - 1
        if costs[c] == best:
            return c
    c = cheapest(m.unk, costs)
    if c >= 0:
        return c
    if m.unk:
        return lowest(m.unk)
    c = cheapest(m.pairs, costs)
    if c >= 0:
        return c
    if m.pairs:
        return lowest(m.pairs)
    return lowest(down)


# -- expectimax --------------------------------------------------------------------------------------------
cdef inline bint next_flag(const Search* s, bint erase_next) noexcept nogil:
    if s.erasure == 1:
        return not erase_next
    return s.erasure == 2


cdef double v_start(Search* s, const Info* info, bint erase_next) noexcept nogil:
    """Win probability at the start of a turn."""
    cdef uint64_t k0, k1, rel, loose, rest
    cdef double value, best = 0.0, q
    cdef Masks m
    cdef int c, mate
    make_key(s, info, TAG_START1 if erase_next else TAG_START0, &k0, &k1)
    if lookup(s, k0, k1, &value):
        return value
    tick(s)
    if s.stopped:
        return 0.0
    get_masks(info, s.n, &m)
    if hopeful(s, info, &m) and popcount64(down_of(&m)) >= 2:
        if s.policy >= 0:
            best = q_first(s, info, route_move(s, info, -1), erase_next)
        else:
            rel = route_cells(s, &m)
            rest = m.unk & rel
            while rest and best < 1.0:
                c = lowest(rest)
                rest &= rest - 1
                q = q_first(s, info, c, erase_next)
                if q > best:
                    best = q
            loose = m.unk & ~rel
            if loose and best < 1.0:
                q = q_first(s, info, lowest(loose), erase_next)
                if q > best:
                    best = q
            rest = m.pairs
            while rest and best < 1.0:
                c = lowest(rest)
                rest &= rest - 1
                mate = mate_of(info, s.n, c)
                if c < mate and (s.goal == GOAL_CLEAR or ((rel >> c) & 1) or ((rel >> mate) & 1)):
                    q = q_first(s, info, c, erase_next)
                    if q > best:
                        best = q
                    if s.goal == GOAL_CLEAR:      # known pairs are interchangeable: one stands for all
                        break
    if s.stopped:
        return 0.0
    store(s, k0, k1, best)
    return best


cdef double q_first(Search* s, const Info* info, int first, bint erase_next) noexcept nogil:
    """Win probability of flipping ``first``, the second flip played on."""
    cdef Info outs[MAXOUT]
    cdef int weights[MAXOUT]
    cdef int count, i, total = 0
    cdef double acc = 0.0
    if info.codes[first] != UNK:
        return after_first(s, info, first, erase_next)
    count = reveal(s, info, first, outs, weights)
    for i in range(count):
        total += weights[i]
        acc += weights[i] * after_first(s, &outs[i], first, erase_next)
        if s.stopped:
            return 0.0
    return acc / total


cdef double after_first(Search* s, const Info* info, int first, bint erase_next) noexcept nogil:
    """Win probability once the first flip is seen."""
    cdef Masks m
    cdef uint64_t unk, rel, loose, others
    cdef int mate, c
    cdef double best = 0.0, q
    if s.policy >= 0:
        return q_second(s, info, first, route_move(s, info, first), erase_next)
    get_masks(info, s.n, &m)
    unk = m.unk & ~bit(first)
    rel = route_cells(s, &m)
    mate = mate_of(info, s.n, first)
    if mate >= 0:
        best = q_second(s, info, first, mate, erase_next)
    others = unk & rel
    while others and best < 1.0:
        c = lowest(others)
        others &= others - 1
        q = q_second(s, info, first, c, erase_next)
        if q > best:
            best = q
    loose = unk & ~rel
    if loose and best < 1.0:
        q = q_second(s, info, first, lowest(loose), erase_next)
        if q > best:
            best = q
    if mate < 0 and unk == 0:
        others = (m.unk | m.pairs | m.singles | m.dead) & ~bit(first)
        if others:
            best = q_second(s, info, first, lowest(others), erase_next)
    return best


cdef double q_second(Search* s, const Info* info, int first, int second, bint erase_next) noexcept nogil:
    """Win probability of flipping ``second`` after ``first``."""
    cdef Info outs[MAXOUT]
    cdef int weights[MAXOUT]
    cdef int matched[MAXOUT]
    cdef int count, i, total = 0
    cdef double acc = 0.0
    count = second_flip(s, info, first, second, outs, weights, matched)
    for i in range(count):
        total += weights[i]
        acc += weights[i] * after_turn(s, &outs[i], matched[i], erase_next)
        if s.stopped:
            return 0.0
    return acc / total


cdef double after_turn(Search* s, const Info* info, bint matched, bint erase_next) noexcept nogil:
    cdef Masks m
    if matched:
        get_masks(info, s.n, &m)
        if won(s, &m):
            return 1.0
    if erase_next:
        return v_roll(s, info)
    return v_start(s, info, next_flag(s, erase_next))


cdef double v_roll(Search* s, const Info* info) noexcept nogil:
    """Win probability just before an Erasure roll."""
    cdef uint64_t k0, k1
    cdef double value, total = 0.0
    cdef Info after
    cdef int c, same = 0
    cdef bint flag = next_flag(s, True)
    make_key(s, info, TAG_ROLL, &k0, &k1)
    if lookup(s, k0, k1, &value):
        return value
    tick(s)
    if s.stopped:
        return 0.0
    for c in range(s.n):
        if erase(s, info, c, &after):
            total += v_start(s, &after, flag)
        else:
            same += 1
        if s.stopped:
            return 0.0
    if same:
        total += same * v_start(s, info, flag)
    value = total / s.n
    if s.stopped:
        return 0.0
    store(s, k0, k1, value)
    return value


# -- the Python class -------------------------------------------------------------------------------------------
class SearchStopped(Exception):
    """The node, time or memory limit stopped the search before it finished."""


cdef class Solver:
    """Exact win probabilities on one board; the memo persists across calls (call ``clear`` to drop it)."""

    cdef Search s

    def __cinit__(self, int width, int height, int brain_a, int brain_b, int erasure, int goal, symmetries,
                  int policy, uint64_t max_entries):
        cdef int i, c
        memset(&self.s, 0, sizeof(Search))
        if make_geometry(&self.s.g, width, height, brain_a, brain_b) != 0 or width * height > MAXC:
            raise ValueError(f"the exact solver takes boards of at most {MAXC} cells with two Brains")
        if erasure < 0 or erasure > 2 or (policy != -1 and policy != 2):
            raise ValueError("erasure must be 0, 1 or 2 and policy -1 (optimal) or 2 (route)")
        if goal != GOAL_PATH and goal != GOAL_CLEAR:
            raise ValueError("goal must be 0 (path) or 1 (clear)")
        rows = [list(map(int, p)) for p in symmetries]
        if not 1 <= len(rows) <= MAXSYM or any(sorted(p) != list(range(width * height)) for p in rows):
            raise ValueError("symmetries: 1 to 8 permutations of the cells")
        self.s.n = width * height
        self.s.erasure = erasure
        self.s.goal = goal
        self.s.policy = policy
        self.s.nsym = len(rows)
        for i in range(len(rows)):
            for c in range(self.s.n):
                self.s.syms[i][c] = rows[i][c]
        if table_init(&self.s.memo, 2, 1024, max_entries, 7) != 0:
            raise MemoryError()

    def __dealloc__(self):
        table_free(&self.s.memo)

    cdef Info load(self, const uint8_t[::1] codes, int e, int d) except *:
        cdef Info info
        cdef int c
        if codes.shape[0] != self.s.n:
            raise ValueError("codes need one entry per cell")
        memset(&info, 0, sizeof(Info))
        for c in range(self.s.n):
            if codes[c] > LABEL + 11:
                raise ValueError(f"codes[{c}] = {codes[c]} is not a knowledge code")
            info.codes[c] = codes[c]
        if not 0 <= e <= 15 or not 0 <= d <= 15:
            raise ValueError("e and d must be 0 to 15")
        info.e = e
        info.d = d
        normalise(&info, self.s.n)
        return info

    cdef void start(self, int64_t max_nodes, double seconds):
        self.s.stopped = 0
        self.s.max_nodes = self.s.nodes + max_nodes if max_nodes > 0 else 0
        self.s.deadline = monotonic_seconds() + seconds if seconds > 0 else 0.0

    cdef object finish(self, double value):
        if self.s.stopped:
            reason = {1: "node limit", 2: "time limit", 3: "memory limit"}[self.s.stopped]
            raise SearchStopped(f"{reason} reached after {self.s.nodes} nodes")
        return value

    def value(self, const uint8_t[::1] codes, int e, int d, bint erase_next, int64_t max_nodes=0,
              double seconds=0.0):
        """Win probability at the start of a turn."""
        cdef Info info = self.load(codes, e, d)
        cdef double result
        self.start(max_nodes, seconds)
        with nogil:
            result = v_start(&self.s, &info, erase_next)
        return self.finish(result)

    def first_value(self, const uint8_t[::1] codes, int e, int d, bint erase_next, int first, int64_t max_nodes=0,
                    double seconds=0.0):
        """Win probability of flipping ``first`` (any face-down tile) first, then playing on."""
        cdef Info info = self.load(codes, e, d)
        cdef double result
        if not 0 <= first < self.s.n or info.codes[first] == BLOCK or info.codes[first] == UP:
            raise ValueError(f"cell {first} holds no face-down tile")
        self.start(max_nodes, seconds)
        with nogil:
            result = q_first(&self.s, &info, first, erase_next)
        return self.finish(result)

    def second_value(self, const uint8_t[::1] codes, int e, int d, bint erase_next, int first, int second,
                     int64_t max_nodes=0, double seconds=0.0):
        """Win probability of flipping ``second`` after ``first`` (whose tile ``codes`` already shows)."""
        cdef Info info = self.load(codes, e, d)
        cdef double result
        if not 0 <= first < self.s.n or info.codes[first] < DEAD:
            raise ValueError(f"the first flip {first} must be a seen face-down tile")
        if not 0 <= second < self.s.n or second == first or info.codes[second] == BLOCK or info.codes[second] == UP:
            raise ValueError(f"cell {second} is not a second flip")
        self.start(max_nodes, seconds)
        with nogil:
            result = q_second(&self.s, &info, first, second, erase_next)
        return self.finish(result)

    def policy_move(self, const uint8_t[::1] codes, int e, int d, int first):
        """The route policy's flip (first flip when ``first`` is -1)."""
        cdef Info info = self.load(codes, e, d)
        cdef Masks m
        get_masks(&info, self.s.n, &m)
        if popcount64(m.unk | m.pairs | m.singles | m.dead) < 2:
            raise ValueError("no legal flip: fewer than two face-down tiles")
        return route_move(&self.s, &info, first)

    def stop_reason(self):
        """Why the last call stopped: ``"node limit"``, ``"time limit"``, ``"memory limit"``, or ``""`` if it
        finished. A stopped call keeps every value it completed, so calling again resumes the work."""
        return {0: "", 1: "node limit", 2: "time limit", 3: "memory limit"}[self.s.stopped]

    def entries(self):
        """Knowledge states stored (equivalent states count once)."""
        return self.s.memo.size

    def nodes(self):
        """Positions expanded so far."""
        return self.s.nodes

    def clear(self):
        """Drop the memo."""
        table_clear(&self.s.memo)


def solve_value(int width, int height, int brain_a, int brain_b, int erasure, int goal, symmetries,
                const uint8_t[::1] codes, int e, int d, bint erase_next, uint64_t max_entries):
    """One-shot optimal win probability of a knowledge state at the start of a turn (a fresh ``Solver``)."""
    return Solver(width, height, brain_a, brain_b, erasure, goal, symmetries, -1, max_entries).value(codes, e, d,
                                                                                                      erase_next)
