"""Embers of Memory: exact search over Fenrys's Blink plans, branch and bound (compiled kernel).

Twin: ``solver/twins/embers_plan.py`` (same function, same results, same plan). The Mind's rules (legal
adds, overlap, visibility, splits, groups) come from ``src/embers_core.pxd``, shared with the other kernels.

A plan adds some cards of the memory row to the Mind, one after another, each
add legal when it is made ("Adding Memories"), the Mind never split
(docs/rules/embers-of-memory.md, EM-73); the cards not added are discarded.
Its value is the objective of EM-71 (``solver/embers/plan.py``), given here as
numbers:

    - demon_weight x demons left in the demon row (``demon_suits`` bit s: Stags.. by suit index)
    + taint_weight x cards rescued (``rescue[s]`` cards lie under the demon of suit s when a relive banishes it)
    - taint_weight x row cards not added whose suit's demon is left
    + reveal_value[s, r] for every suit s relived r > 0 times (r capped at the table's last column)
    + value of every card visible at the end (``values`` for the Mind, ``row_values`` for the row)

A relive happens when the card just added makes its same-suit group (the
cards of its suit connected to it through overlapping cards of that suit,
covered ones included) total exactly 7; it banishes the demon of that suit.

Depth-first search, row cards in index order and positions by row then
column; every node (after at least one add when ``must_add``) is a plan. A
subtree is cut when an optimistic bound on every plan extending the node
(each remaining card visible, each demon with a remaining card of its suit
banished, the best reveal value reachable) cannot beat the best plan found.
The first plan found with the best value is returned.
"""

from libc.stdint cimport uint8_t, uint64_t, int32_t, int64_t
from embers_core cimport (MAX_CARDS, MAX_SIDE, popcount, lowest_bit, bounding_box, row_legal, lay_card,
                          link_card, unlink_card, visible_cards, one_section, suit_group, total_strength)
from embers_row cimport TARGET

cdef enum:
    MAX_ROW = 16
    SUITS = 5


cdef struct Search:
    # the Mind (stack order), in board coordinates
    int n
    int32_t cx[MAX_CARDS]
    int32_t cy[MAX_CARDS]
    uint8_t cb[MAX_CARDS]
    uint8_t cs[MAX_CARDS]
    uint8_t cst[MAX_CARDS]
    int64_t cv[MAX_CARDS]
    int crow[MAX_CARDS]          # row index of an added card, -1 for a card of the Mind
    uint64_t adj[MAX_CARDS]
    uint64_t occ[MAX_SIDE]
    uint64_t blk[MAX_SIDE]
    # the row
    int m
    uint8_t rb[MAX_ROW]
    uint8_t rs[MAX_ROW]
    uint8_t rst[MAX_ROW]
    int64_t rv[MAX_ROW]
    int allowed
    # the objective
    int64_t reveal[SUITS][MAX_ROW + 1]
    int reveal_cols
    int64_t rescue[SUITS]
    int64_t dw
    int64_t tw
    # the search state
    int used
    int demons
    int64_t rescued
    int relives[SUITS]
    int depth
    int path_card[MAX_ROW]
    int path_x[MAX_ROW]
    int path_y[MAX_ROW]
    # the restriction on the first add (-1: none) and the result
    bint must_add
    int first_card
    int first_x
    int first_y
    bint found
    int64_t best
    int best_len
    int best_card[MAX_ROW]
    int best_x[MAX_ROW]
    int best_y[MAX_ROW]
    long long nodes
    long long max_nodes
    bint complete
    # NULL, or control[0]: a stop flag another thread may set (read every 1024 nodes); control[1], when
    # ``ncontrol`` > 1: the nodes searched so far, written at each of those reads
    int64_t* control
    int ncontrol


cdef inline uint64_t visible(Search* s) noexcept nogil:
    """Cards with a quarter no later card covers."""
    return visible_cards(s.cx, s.cy, s.n, 0, 0)


cdef inline int64_t reveal_of(Search* s, int suit, int relives) noexcept nogil:
    """What ``relives`` relives of ``suit`` are worth (nothing for none; the table's last column beyond it)."""
    if relives <= 0:
        return 0
    return s.reveal[suit][relives if relives < s.reveal_cols else s.reveal_cols - 1]


cdef inline int64_t score(Search* s, uint64_t shown) noexcept nogil:
    """The objective of the current plan (the cards not added are discarded)."""
    cdef int64_t value = -s.dw * popcount(<uint64_t>s.demons) + s.tw * s.rescued
    cdef int i, k
    for i in range(s.m):
        if not (s.used >> i & 1) and (s.demons >> s.rs[i] & 1):
            value -= s.tw
    for k in range(SUITS):
        value += reveal_of(s, k, s.relives[k])
    while shown:
        k = lowest_bit(shown)
        shown &= shown - 1
        value += s.cv[k]
    return value


cdef inline int64_t bound(Search* s, uint64_t shown) noexcept nogil:
    """An upper bound on the value of every plan that adds at least one more card."""
    cdef int64_t value = s.tw * s.rescued, top
    cdef int remaining = s.allowed & ~s.used
    cdef int suit_left = 0, count[SUITS]
    cdef int i, k, r
    for k in range(SUITS):
        count[k] = 0
    for i in range(s.m):
        if remaining >> i & 1:
            suit_left |= 1 << s.rs[i]
            count[s.rs[i]] += 1
            if s.rv[i] > 0:
                value += s.rv[i]
    for k in range(SUITS):
        if s.demons >> k & 1:
            if suit_left >> k & 1:
                value += s.tw * s.rescue[k]
            else:
                value -= s.dw
        top = reveal_of(s, k, s.relives[k])
        for r in range(s.relives[k] + 1, s.relives[k] + count[k] + 1):
            if reveal_of(s, k, r) > top:
                top = reveal_of(s, k, r)
        value += top
    while shown:
        k = lowest_bit(shown)
        shown &= shown - 1
        if s.cv[k] > 0:
            value += s.cv[k]
    return value


cdef void visit(Search* s) noexcept nogil:
    cdef uint64_t shown, legal, cols
    cdef uint64_t saved_occ0, saved_occ1, saved_blk0, saved_blk1
    cdef int64_t value
    cdef int i, r, c, k, total, suit, saved_demons
    cdef int64_t saved_rescued
    s.nodes += 1
    if s.nodes > s.max_nodes:
        s.complete = False
        return
    if s.control != NULL and (s.nodes & 1023) == 0:
        if s.ncontrol > 1:
            (<volatile int64_t*>s.control)[1] = s.nodes
        if (<volatile int64_t*>s.control)[0] != 0:
            s.complete = False
            return
    shown = visible(s)
    if s.depth > 0 or not s.must_add:
        value = score(s, shown)
        if not s.found or value > s.best:
            s.found = True
            s.best = value
            s.best_len = s.depth
            for i in range(s.depth):
                s.best_card[i] = s.path_card[i]
                s.best_x[i] = s.path_x[i]
                s.best_y[i] = s.path_y[i]
    if s.found and bound(s, shown) <= s.best:
        return
    cols = ~(<uint64_t>0) >> 1
    for i in range(s.m):
        if not (s.allowed >> i & 1) or (s.used >> i & 1):
            continue
        if s.depth == 0 and s.first_card >= 0 and s.first_card != i:
            continue
        for r in range(MAX_SIDE - 1):
            if not (s.occ[r] | s.occ[r + 1]):
                continue
            legal = row_legal(s.rb[i], s.blk[r], s.occ[r] & ~s.blk[r], s.blk[r + 1], s.occ[r + 1] & ~s.blk[r + 1]) & cols
            while legal:
                c = lowest_bit(legal)
                legal &= legal - 1
                if s.depth == 0 and s.first_card >= 0 and (c != s.first_x or r != s.first_y):
                    continue
                # add row card i at board (c, r)
                k = s.n
                s.cx[k] = c
                s.cy[k] = r
                s.cb[k] = s.rb[i]
                s.cs[k] = s.rs[i]
                s.cst[k] = s.rst[i]
                s.cv[k] = s.rv[i]
                s.crow[k] = i
                link_card(s.cx, s.cy, k, s.adj)
                s.n += 1
                saved_occ0 = s.occ[r]
                saved_occ1 = s.occ[r + 1]
                saved_blk0 = s.blk[r]
                saved_blk1 = s.blk[r + 1]
                lay_card(s.occ, s.blk, c, r, s.rb[i])
                # EM-73: the Mind must stay in one section
                if one_section(visible(s), s.adj):
                    saved_demons = s.demons
                    saved_rescued = s.rescued
                    total = total_strength(suit_group(s.cs, s.n, k, s.adj), s.cst)
                    suit = s.rs[i]
                    if total == TARGET:
                        s.relives[suit] += 1
                        if s.demons >> suit & 1:
                            s.demons &= ~(1 << suit)
                            s.rescued += s.rescue[suit]
                    s.used |= 1 << i
                    s.path_card[s.depth] = i
                    s.path_x[s.depth] = c
                    s.path_y[s.depth] = r
                    s.depth += 1
                    visit(s)
                    s.depth -= 1
                    s.used &= ~(1 << i)
                    if total == TARGET:
                        s.relives[suit] -= 1
                    s.demons = saved_demons
                    s.rescued = saved_rescued
                # undo the add
                s.occ[r] = saved_occ0
                s.occ[r + 1] = saved_occ1
                s.blk[r] = saved_blk0
                s.blk[r + 1] = saved_blk1
                s.n -= 1
                unlink_card(k, s.adj)
                if not s.complete:
                    return


def search_plans(const int32_t[::1] xs, const int32_t[::1] ys, const uint8_t[::1] blocked,
                 const uint8_t[::1] suits, const uint8_t[::1] strengths, const int64_t[::1] values,
                 const uint8_t[::1] row_blocked, const uint8_t[::1] row_suits, const uint8_t[::1] row_strengths,
                 const int64_t[::1] row_values, const int64_t[:, ::1] reveal_value, int demon_suits,
                 const int64_t[::1] rescue, long long demon_weight, long long taint_weight, int allowed,
                 bint must_add, int first_card, int first_x, int first_y, long long max_nodes,
                 int32_t[:, ::1] plan, int64_t[::1] control=None):
    """The best plan for the row (see the module docstring): returns ``(found, value, length, nodes, complete)``.

    ``plan[k]`` receives ``(row index, x, y)`` of the plan's ``k``-th add (``length`` adds). ``allowed`` is a
    mask of the row cards that may be added (the others are discarded); ``first_card >= 0`` forces the first
    add to be that card at ``(first_x, first_y)``. ``complete`` is false when ``max_nodes`` stopped the search
    (the plan is then the best found, unproven). ``reveal_value`` has 5 rows (suits) and at least one column.

    ``control`` (1 or 2 entries, optional) lets another thread stop the search: ``control[0]`` is read every
    1024 nodes (at node 1024, 2048, ...) and a non-zero value stops the search there (``complete`` false, the
    best plan so far returned); at each of those reads ``control[1]``, if present, receives the nodes so far.
    """
    cdef Search s
    cdef int n = xs.shape[0], m = row_blocked.shape[0]
    cdef int k, r, x0, y0
    cdef int32_t minx, miny, maxx, maxy
    if ys.shape[0] != n or blocked.shape[0] != n or suits.shape[0] != n or strengths.shape[0] != n \
            or values.shape[0] != n:
        raise ValueError("mind: xs, ys, blocked, suits, strengths and values must have the same length")
    if row_suits.shape[0] != m or row_strengths.shape[0] != m or row_values.shape[0] != m:
        raise ValueError("row: row_blocked, row_suits, row_strengths and row_values must have the same length")
    if n == 0 or m > MAX_ROW or n + m > MAX_CARDS:
        raise ValueError("mind and row: 1 to 64 cards in all, at most 16 in the row")
    if reveal_value.shape[0] != SUITS or reveal_value.shape[1] < 1 or reveal_value.shape[1] > MAX_ROW + 1:
        raise ValueError("reveal_value: expected shape (5, 1..17)")
    if rescue.shape[0] != SUITS:
        raise ValueError("rescue: expected one entry per suit")
    if plan.shape[0] < m or plan.shape[1] != 3:
        raise ValueError("plan: expected shape (len(row), 3)")
    if control is not None and not 1 <= control.shape[0] <= 2:
        raise ValueError("control: expected 1 or 2 entries")
    bounding_box(&xs[0], &ys[0], n, &minx, &miny, &maxx, &maxy)
    for k in range(n):
        if suits[k] >= SUITS:
            raise ValueError("suits: 0 to 4")
    for k in range(m):
        if row_suits[k] >= SUITS:
            raise ValueError("row_suits: 0 to 4")
    if <long>maxx - minx + 2 * m + 4 > MAX_SIDE or <long>maxy - miny + 2 * m + 4 > MAX_SIDE:
        raise ValueError("mind: too wide for the plan search (span + 2 x row cards + 4 must be at most 64)")
    x0 = minx - m - 1
    y0 = miny - m - 1
    s.n = n
    s.m = m
    for r in range(MAX_SIDE):
        s.occ[r] = 0
        s.blk[r] = 0
    for k in range(n):
        s.cx[k] = xs[k] - x0
        s.cy[k] = ys[k] - y0
        s.cb[k] = blocked[k]
        s.cs[k] = suits[k]
        s.cst[k] = strengths[k]
        s.cv[k] = values[k]
        s.crow[k] = -1
        link_card(s.cx, s.cy, k, s.adj)
        lay_card(s.occ, s.blk, s.cx[k], s.cy[k], blocked[k])
    for k in range(m):
        s.rb[k] = row_blocked[k]
        s.rs[k] = row_suits[k]
        s.rst[k] = row_strengths[k]
        s.rv[k] = row_values[k]
    s.allowed = allowed & ((1 << m) - 1)
    s.reveal_cols = reveal_value.shape[1]
    for k in range(SUITS):
        s.rescue[k] = rescue[k]
        for r in range(s.reveal_cols):
            s.reveal[k][r] = reveal_value[k, r]
    s.dw = demon_weight
    s.tw = taint_weight
    s.used = 0
    s.demons = demon_suits & 31
    s.rescued = 0
    for k in range(SUITS):
        s.relives[k] = 0
    s.depth = 0
    s.must_add = must_add
    s.first_card = first_card if 0 <= first_card < m else -1
    s.first_x = first_x - x0
    s.first_y = first_y - y0
    s.found = False
    s.best = 0
    s.best_len = 0
    s.nodes = 0
    s.max_nodes = max_nodes
    s.complete = True
    s.control = NULL if control is None else &control[0]
    s.ncontrol = 0 if control is None else control.shape[0]
    with nogil:
        visit(&s)
    for k in range(s.best_len):
        plan[k, 0] = s.best_card[k]
        plan[k, 1] = s.best_x[k] + x0
        plan[k, 2] = s.best_y[k] + y0
    return (bool(s.found), int(s.best), int(s.best_len), int(s.nodes), bool(s.complete))
