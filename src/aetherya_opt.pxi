"""Optimal Aetherya kingdoms: compiled local search, layout bounds and exact branch-and-bound.

Twin: ``solver/twins/aetherya_opt.py`` (same functions, same results). The
objective is the board total of ``docs/rules/aetherya.md`` (Elves + Dwarves +
Humans + Goblins + Dragons + Conflicts; Legends are held cards, not placement).

Card codes: 0 P, 1 F, 2 M, 3 S, 4 H, 5 E, 6 D, 7 G, 8 R (Dragon), 9 O (Portal);
in a *layout* the code 10 marks a free cell still to be filled. Cell ``c`` is
row ``c // 4`` (0 = top), column ``c % 4``.

The exact search works on one Portal layout (the Portal cells, which fix who is
connected to whom) and decides the *skeleton* first: where the Tribes go. Once
every Tribe is placed, the best placement of the Terrains and Dragons is an
assignment problem (each free cell earns, for each kind of card, a profit that
depends only on the Tribes around it), solved exactly by the Hungarian method.
At a partial skeleton the same assignment, with every Tribe still to place
valued optimistically at each free cell, is an upper bound (see
``docs/rules/aetherya.md``, "Optimal kingdoms"). The assignment solvers are ``aetherya_assignment.pxd``.
"""

from libc.stdint cimport uint8_t, int8_t, uint32_t, int32_t, int64_t, uint64_t
from aetherya_board cimport (PLAINS, FOREST, MOUNTAIN, SWAMP, HUMANS, ELVES, DWARVES, GOBLINS, DRAGON, PORTAL,
                             CODES, CELLS, Tally, popcount, lowest_bit, connect_cells, dragon_value, tally,
                             score_cards)

from libc.string cimport memcpy
from common cimport monotonic_seconds, stream_seed, below_mod, atomic_load, atomic_store, atomic_add
from aetherya_assignment cimport BIG, COLUMN_KINDS, hungarian_max, transport_max, dual_bound

cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    ctypedef struct pthread_mutex_t:
        pass
    int pthread_create(pthread_t* thread, const void* attr, void* (*start)(void*) noexcept nogil, void* arg)
    int pthread_join(pthread_t thread, void** result)
    int pthread_mutex_init(pthread_mutex_t* mutex, const void* attr)
    int pthread_mutex_lock(pthread_mutex_t* mutex)
    int pthread_mutex_unlock(pthread_mutex_t* mutex)
    int pthread_mutex_destroy(pthread_mutex_t* mutex)


cdef enum:
    FREE = 10
    CARD_KINDS = 10
    STAT_NODES = 0
    STAT_COMPLETE = 1
    STAT_BOUND = 2
    STAT_FOUND = 3
    CONTROL_STOP = 0
    CONTROL_NODES = 1
    CONTROL_BEST = 2
    CONTROL_SEQUENCE = 3
    KEY_SHIFT = 16            # a best value is a key: board total << KEY_SHIFT | priority (ties: higher priority)
    INCUMBENT_PRIORITY = 65535
    MAX_THREADS = 64

# Points of a connected pair (row kind, column kind), each pair counted once; Goblin-Swamp is separate
# (+3, orthogonal only). Conflicts -2: Goblin-Human, Goblin-Elf, Goblin-Dwarf, Elf-Dwarf. Both are read off
# the shared scorer (``aetherya_board.tally``) on two-card kingdoms, so the bounds use the rules of the board
# total (``docs/rules/aetherya.md``, AE-4 to AE-6).
cdef int PAIR_POINTS[10][10]
cdef int GOBLIN_SWAMP


cdef int two_cards(int a, int b, bint orthogonal) noexcept:
    """Tribe points and conflicts of a kingdom of two cards, ``a`` on cell 0 and ``b`` on cell 1, connected
    orthogonally or else only through a Portal hub (no Goblin-Swamp points, AE-5)."""
    cdef uint32_t kinds[CODES]
    cdef uint32_t ortho[CELLS]
    cdef uint32_t conn[CELLS]
    cdef Tally t
    cdef int c
    for c in range(CODES):
        kinds[c] = 0
    for c in range(CELLS):
        ortho[c] = 0
        conn[c] = 0
    kinds[a] |= 1
    kinds[b] |= 2
    conn[0] = 2
    conn[1] = 1
    if orthogonal:
        ortho[0] = 2
        ortho[1] = 1
    tally(kinds, ortho, conn, 0, 0, False, &t)
    return t.elves + t.dwarves + t.humans + t.goblins + t.conflicts


cdef void init_pairs() noexcept:
    global GOBLIN_SWAMP
    cdef int a, b
    for a in range(CARD_KINDS):
        for b in range(CARD_KINDS):
            PAIR_POINTS[a][b] = two_cards(a, b, False)
    GOBLIN_SWAMP = two_cards(GOBLINS, SWAMP, True) - PAIR_POINTS[GOBLINS][SWAMP]


init_pairs()

cdef int TRIBE_ORDER[4]
TRIBE_ORDER[:] = [HUMANS, ELVES, DWARVES, GOBLINS]


# -- connection and board total ---------------------------------------------------------------

cdef int kingdom_total(const uint8_t* k) noexcept nogil:
    """The board total of a complete kingdom (the rules of ``aetherya_score.score_one``, ``aetherya_board.pxd``)."""
    cdef Tally t
    score_cards(k, 0, 0, False, &t)
    return t.total


# -- local search ------------------------------------------------------------------------------

cdef int climb(uint8_t* k, const int* movable, int n_movable, int value) noexcept nogil:
    """Best-improvement swaps of two movable cells until no swap raises the total; the final total."""
    cdef int i, j, a, b, best_a, best_b, best_value, v
    cdef uint8_t tmp
    while True:
        best_value = value
        best_a = -1
        best_b = -1
        for i in range(n_movable):
            a = movable[i]
            for j in range(i + 1, n_movable):
                b = movable[j]
                if k[a] == k[b]:
                    continue
                tmp = k[a]; k[a] = k[b]; k[b] = tmp
                v = kingdom_total(k)
                tmp = k[a]; k[a] = k[b]; k[b] = tmp
                if v > best_value:
                    best_value = v
                    best_a = a
                    best_b = b
        if best_a < 0:
            return value
        tmp = k[best_a]; k[best_a] = k[best_b]; k[best_b] = tmp
        value = best_value


cdef int iterated_local_search(const uint8_t* start, const uint8_t* locked, uint64_t seed, int64_t rounds,
                               uint8_t* out) noexcept nogil:
    cdef uint8_t cur[16]
    cdef int movable[16]
    cdef int n_movable = 0, c, value, best, kicks, kick, a, b, tries
    cdef int64_t r
    cdef uint64_t state = stream_seed(seed, 0)
    cdef uint8_t tmp
    for c in range(CELLS):
        cur[c] = start[c]
        out[c] = start[c]
        if not locked[c]:
            movable[n_movable] = c
            n_movable += 1
    best = kingdom_total(cur)
    value = best
    for r in range(rounds):
        value = climb(cur, movable, n_movable, value)
        if value > best:
            best = value
            for c in range(CELLS):
                out[c] = cur[c]
        # kick: restart from the best kingdom with 2 to 4 random swaps of different cards
        for c in range(CELLS):
            cur[c] = out[c]
        if n_movable < 2:
            break
        kicks = 2 + below_mod(&state, 3)
        for kick in range(kicks):
            for tries in range(8):
                a = movable[below_mod(&state, n_movable)]
                b = movable[below_mod(&state, n_movable)]
                if cur[a] != cur[b]:
                    tmp = cur[a]; cur[a] = cur[b]; cur[b] = tmp
                    break
        value = kingdom_total(cur)
    return best


# -- exact search over one Portal layout ------------------------------------------------------

cdef struct Search:
    uint32_t orth[16]
    uint32_t conn[16]
    int8_t kind[16]           # -1: free cell not (yet) a Tribe; else the card on the cell
    uint32_t mask[10]         # cells holding each kind (Tribes placed, fixed cards, Portals)
    uint32_t undecided        # free cells without a Tribe
    int32_t rem[10]           # free cards still to place, by kind
    int32_t conflicts         # points of the connected Tribe pairs placed so far
    int32_t dragon_value
    int32_t n_dragons
    int32_t best
    uint8_t best_kingdom[16]
    int found
    int64_t nodes
    int64_t node_limit
    double deadline
    int stop
    int64_t* control          # NULL, or control[0] polled (another thread sets it to stop) and, when
    int live                  # live is set, control[1..3] and ``out`` written while the search runs
    uint8_t* out
    int n_sym
    int8_t sym[8][16]
    int sym_kind
    int order[4]              # the order in which the Tribes are placed
    int64_t key               # the best value known, board total << KEY_SHIFT | its priority
    int priority              # this layout's priority: of two equal totals the higher priority is kept
    Team* team                # NULL, or what the layout searches of search_layouts share
    int64_t flushed           # nodes already added to the team's count


cdef struct Team:
    const uint8_t* layouts    # n x 16 layout codes, searched in this order
    const int32_t* counts
    const int8_t* symmetries  # n x 8 x 16
    const int32_t* n_symmetries
    int n
    int64_t key               # the best value known by every search (atomic)
    int64_t next              # the next layout to take (atomic)
    int64_t nodes             # nodes of every search so far (atomic)
    int64_t* stats            # n x 4: nodes, complete, bound, found of each layout
    int64_t* control          # NULL, or 1 or 4 entries as in search_layout
    int live
    uint8_t* out
    uint8_t best_kingdom[16]
    int found
    double deadline
    pthread_mutex_t lock      # held while a better kingdom is published


cdef inline int64_t make_key(int total, int priority) noexcept nogil:
    return ((<int64_t>total) << KEY_SHIFT) | priority


cdef inline int key_total(int64_t key) noexcept nogil:
    return <int>(key >> KEY_SHIFT)


cdef inline bint beats(const Search* s, int total) noexcept nogil:
    """Can a kingdom of ``total`` from this layout replace the best known (a tie goes to the higher priority)?"""
    return make_key(total, s.priority) > s.key


cdef inline int imin(int a, int b) noexcept nogil:
    return a if a < b else b


cdef bint maybe_tamed(Search* s, int cell) noexcept nogil:
    """Can a Dragon on ``cell`` still end up connected to two Tribes of one kind (AE-7)?"""
    cdef uint32_t around = s.conn[cell]
    cdef int open_slots = popcount(around & s.undecided & ~((<uint32_t>1) << cell))
    cdef int kind
    for kind in range(HUMANS, GOBLINS):
        if popcount(around & s.mask[kind]) + imin(open_slots, s.rem[kind]) >= 2:
            return True
    return False


cdef struct Potentials:
    int slot_value[4][9]      # what a free neighbour's card is worth to each Tribe still to place
    int avail[4][9]           # the cards that may fill its free neighbours (the Tribe's own copy set aside)
    int fill[4][17]           # fill[t][m]: most points m free neighbours bring (fill_table)
    int goblin_fill[5][17]    # the Goblins' fill once ``take`` (0..4) Swamps went to their orthogonal slots


cdef void fill_table(const int* avail_in, const int* slot_value, int swamps_taken, int* fill) noexcept nogil:
    """``fill[m]``: most points ``m`` free neighbours bring, each given the best card still in hand (counts
    respected; a card's worth is ``slot_value``), ``swamps_taken`` Swamps set aside first."""
    cdef int avail[9]
    cdef int kind, m, value = 0, best_kind
    for kind in range(DRAGON + 1):
        avail[kind] = avail_in[kind]
    avail[SWAMP] -= swamps_taken
    fill[0] = 0
    for m in range(1, 17):      # one slot at a time: the best card left
        best_kind = -1
        for kind in range(DRAGON + 1):
            if avail[kind] > 0 and (best_kind < 0 or slot_value[kind] > slot_value[best_kind]):
                best_kind = kind
        if best_kind >= 0:
            value += slot_value[best_kind]
            avail[best_kind] -= 1
        fill[m] = value


cdef void prepare_potentials(const Search* s, Potentials* pt) noexcept nogil:
    """The parts of ``tribe_potential`` that depend on the node only, not on the cell."""
    cdef int t, tribe, kind, take
    for t in range(4):
        tribe = HUMANS + t
        if s.rem[tribe] == 0:
            continue
        for kind in range(DRAGON + 1):
            pt.avail[t][kind] = s.rem[kind]
            if HUMANS <= kind <= GOBLINS:
                pt.slot_value[t][kind] = PAIR_POINTS[tribe][kind] / 2
            else:
                pt.slot_value[t][kind] = PAIR_POINTS[tribe][kind]
        pt.avail[t][tribe] -= 1
        if tribe != GOBLINS:
            fill_table(pt.avail[t], pt.slot_value[t], 0, pt.fill[t])
        else:                     # its Swamp slots come first: a table for each number of them taken
            for take in range(imin(4, pt.avail[t][SWAMP]) + 1):
                fill_table(pt.avail[t], pt.slot_value[t], take, pt.goblin_fill[take])


cdef inline int tribe_potential(const Search* s, const Potentials* pt, int tribe, int cell,
                                const int* around_counts) noexcept nogil:
    """Most points a Tribe still to place can bring from ``cell``.

    Exact with the cards already there (placed Tribes, fixed cards: ``around_counts[kind]`` of them connected
    to ``cell``); each free neighbour is given the best card still in hand, counts respected (a Terrain is
    valued for this Tribe alone, a Tribe still to place for half of the conflict, the other half going to that
    Tribe's own potential).
    """
    cdef uint32_t slots = s.conn[cell] & s.undecided & ~((<uint32_t>1) << cell)
    cdef int kind, value = 0, n_slots = popcount(slots), take, t = tribe - HUMANS
    for kind in range(SWAMP + 1):
        value += PAIR_POINTS[tribe][kind] * around_counts[kind]
    for kind in range(HUMANS, DRAGON):
        value += PAIR_POINTS[tribe][kind] * around_counts[kind]
    if tribe != GOBLINS:
        return value + pt.fill[t][n_slots]
    value += GOBLIN_SWAMP * popcount(s.orth[cell] & s.mask[SWAMP])
    take = imin(popcount(s.orth[cell] & slots), pt.avail[t][SWAMP])
    value += GOBLIN_SWAMP * take
    return value + pt.goblin_fill[take][n_slots - take]


cdef int node_problem(Search* s, const Potentials* pt, int* rows, int* cap, int* profit, int* n_rows) noexcept nogil:
    """The assignment problem behind the bound of the current skeleton, by kind of card: ``n_rows[0]`` rows (the
    free cells, in ``rows``), ``cap[k]`` cards of column kind ``k`` (P F M S H E D G, then the Dragons that may be
    tamed, then the others), ``profit[row * 16 + k]`` what one brings on that row. Returns the points outside
    the assignment (counts the node). ``pt``: :func:`prepare_potentials` of the node."""
    cdef int n = 0, cell, kind, j, fixed_tamed = 0, tamable_dragons, value, t
    cdef int counts[8]
    cdef int dragon_profit
    cdef uint32_t rest, around
    s.nodes += 1
    value = s.conflicts
    # fixed Terrains around the placed Tribes
    for kind in range(SWAMP + 1):
        rest = s.mask[kind]
        while rest:
            cell = lowest_bit(rest)
            rest &= rest - 1
            around = s.conn[cell]
            for j in range(HUMANS, DRAGON):
                value += PAIR_POINTS[j][kind] * popcount(around & s.mask[j])
            if kind == SWAMP:
                value += GOBLIN_SWAMP * popcount(s.orth[cell] & s.mask[GOBLINS])
    # fixed Dragons, optimistically tamed; at most 3 tamed Dragons count (AE-7)
    rest = s.mask[DRAGON]
    while rest:
        cell = lowest_bit(rest)
        rest &= rest - 1
        if maybe_tamed(s, cell):
            fixed_tamed += 1
    if fixed_tamed > 3:
        fixed_tamed = 3
    value += s.dragon_value * (2 * fixed_tamed - s.n_dragons)
    tamable_dragons = imin(s.rem[DRAGON], 3 - fixed_tamed)
    for kind in range(DRAGON):
        cap[kind] = s.rem[kind]
    cap[DRAGON] = tamable_dragons
    cap[DRAGON + 1] = s.rem[DRAGON] - tamable_dragons
    rest = s.undecided
    while rest:
        cell = lowest_bit(rest)
        rest &= rest - 1
        rows[n] = cell
        around = s.conn[cell]
        for kind in range(8):             # P F M S H E D G already on the cells connected to this one
            counts[kind] = popcount(around & s.mask[kind])
        for kind in range(SWAMP + 1):
            t = 0
            for j in range(HUMANS, DRAGON):
                t += PAIR_POINTS[j][kind] * counts[j]
            profit[n * 16 + kind] = t
        profit[n * 16 + SWAMP] += GOBLIN_SWAMP * popcount(s.orth[cell] & s.mask[GOBLINS])
        for kind in range(HUMANS, DRAGON):
            profit[n * 16 + kind] = tribe_potential(s, pt, kind, cell, counts) if cap[kind] else 0
        dragon_profit = 2 * s.dragon_value if cap[DRAGON] and maybe_tamed(s, cell) else 0
        profit[n * 16 + DRAGON] = dragon_profit
        profit[n * 16 + DRAGON + 1] = 0
        n += 1
    n_rows[0] = n
    return value


cdef int node_bound(Search* s, int* rows, int* columns, int* assign) noexcept nogil:
    """Upper bound on every completion of the current skeleton; exact once all Tribes are placed.

    Fills ``rows`` (free cells), ``columns`` (the card kind of each column; DRAGON + 1 marks a Dragon
    beyond the three that can be tamed) and ``assign`` (row -> column) of the optimal assignment (the Hungarian
    method on one column per card: its choice among equal assignments is the kingdom recorded at a leaf).
    """
    cdef int by_kind[256]
    cdef int profit[256]
    cdef int cap[COLUMN_KINDS]
    cdef int n, i, j, kind, copy, m = 0
    cdef Potentials pt
    prepare_potentials(s, &pt)
    cdef int value = node_problem(s, &pt, rows, cap, by_kind, &n)
    for kind in range(COLUMN_KINDS):
        for copy in range(cap[kind]):
            columns[m] = kind
            m += 1
    if n == 0:
        return value
    for i in range(n):
        for j in range(m):
            profit[i * 16 + j] = by_kind[i * 16 + columns[j]]
    return value + hungarian_max(n, profit, assign)


cdef int root_bound(Search* s, int* prices) noexcept nogil:
    """:func:`node_bound`'s value, with optimal prices of the column kinds in ``prices``."""
    cdef int profit[256]
    cdef int rows[16]
    cdef int cap[COLUMN_KINDS]
    cdef int n
    cdef Potentials pt
    prepare_potentials(s, &pt)
    cdef int value = node_problem(s, &pt, rows, cap, profit, &n)
    if n == 0:
        return value
    return value + transport_max(n, profit, cap, NULL, prices)


cdef void place_tribe(Search* s, int tribe, int cell) noexcept nogil:
    cdef int kind
    for kind in range(HUMANS, DRAGON):
        s.conflicts += PAIR_POINTS[tribe][kind] * popcount(s.conn[cell] & s.mask[kind])
    s.kind[cell] = tribe
    s.mask[tribe] |= (<uint32_t>1) << cell
    s.undecided &= ~((<uint32_t>1) << cell)
    s.rem[tribe] -= 1


cdef void unplace_tribe(Search* s, int tribe, int cell) noexcept nogil:
    cdef int kind
    s.rem[tribe] += 1
    s.undecided |= (<uint32_t>1) << cell
    s.mask[tribe] &= ~((<uint32_t>1) << cell)
    s.kind[cell] = -1
    for kind in range(HUMANS, DRAGON):
        s.conflicts -= PAIR_POINTS[tribe][kind] * popcount(s.conn[cell] & s.mask[kind])


cdef bint canonical(Search* s, uint32_t m) noexcept nogil:
    """Is ``m`` the smallest of its images under the layout's symmetries?"""
    cdef int g, c
    cdef uint32_t image
    for g in range(s.n_sym):
        image = 0
        for c in range(CELLS):
            if m >> c & 1:
                image |= (<uint32_t>1) << s.sym[g][c]
        if image < m:
            return False
    return True


cdef void check_limits(Search* s) noexcept nogil:
    cdef int64_t shared, nodes
    if s.team != NULL:          # another layout's search may have found better
        shared = atomic_load(&s.team.key)
        if shared > s.key:
            s.key = shared
    if s.node_limit > 0 and s.nodes >= s.node_limit:
        s.stop = 1
    elif (s.nodes & 255) == 0:  # a poll every 256 bound evaluations (about a millisecond)
        if s.team != NULL:
            nodes = atomic_add(&s.team.nodes, s.nodes - s.flushed) + s.nodes - s.flushed
            s.flushed = s.nodes
            if s.team.live:
                (<volatile int64_t*>&s.control[CONTROL_NODES])[0] = nodes
        elif s.control != NULL and s.live:
            (<volatile int64_t*>&s.control[CONTROL_NODES])[0] = s.nodes
        if s.control != NULL and (<volatile int64_t*>s.control)[0] != 0:
            s.stop = 1
            return
        if s.deadline > 0 and monotonic_seconds() >= s.deadline:
            s.stop = 1


cdef void team_offer(Team* t, int64_t key, const uint8_t* kingdom) noexcept nogil:
    """A layout search found a kingdom of value ``key``: keep it if it is the best known, and publish it."""
    cdef int c
    pthread_mutex_lock(&t.lock)
    if key > t.key:
        atomic_store(&t.key, key)
        t.found = 1
        for c in range(CELLS):
            t.best_kingdom[c] = kingdom[c]
        if t.live:  # as search_layout publishes: control[3] is odd while ``out`` is being written
            (<volatile int64_t*>&t.control[CONTROL_SEQUENCE])[0] = t.control[CONTROL_SEQUENCE] + 1
            for c in range(CELLS):
                (<volatile uint8_t*>&t.out[c])[0] = kingdom[c]
            (<volatile int64_t*>&t.control[CONTROL_BEST])[0] = key_total(key)
            (<volatile int64_t*>&t.control[CONTROL_SEQUENCE])[0] = t.control[CONTROL_SEQUENCE] + 1
    pthread_mutex_unlock(&t.lock)


cdef void record_leaf(Search* s, int value, int* rows, int* columns, int* assign) noexcept nogil:
    cdef int c, n = popcount(s.undecided), kind
    s.best = value
    s.key = make_key(value, s.priority)
    s.found = 1
    for c in range(CELLS):
        s.best_kingdom[c] = <uint8_t>s.kind[c]
    for c in range(n):
        kind = columns[assign[c]]
        s.best_kingdom[rows[c]] = <uint8_t>(DRAGON if kind > DRAGON else kind)
    if s.team != NULL:
        team_offer(s.team, s.key, s.best_kingdom)
    elif s.live:  # publish the kingdom for another thread: control[3] is odd while ``out`` is being written
        (<volatile int64_t*>&s.control[CONTROL_SEQUENCE])[0] = s.control[CONTROL_SEQUENCE] + 1
        for c in range(CELLS):
            (<volatile uint8_t*>&s.out[c])[0] = s.best_kingdom[c]
        (<volatile int64_t*>&s.control[CONTROL_BEST])[0] = value
        (<volatile int64_t*>&s.control[CONTROL_SEQUENCE])[0] = s.control[CONTROL_SEQUENCE] + 1


cdef int dfs(Search* s, int order_index, int start, int* open_bound, const int* prices) noexcept nogil:
    """Place the remaining Tribes; returns 1 when stopped before the subtree was finished.

    ``prices``: optimal prices of the column kinds for this node's assignment problem. A child whose bound from
    them (a few additions, :func:`dual_bound`) cannot beat the best known is pruned without solving its own
    assignment: exactly the children pruned with exact bounds, the same nodes counted."""
    cdef int rows[16]
    cdef int columns[16]
    cdef int assign[16]
    cdef int profit[256]
    cdef int cap[COLUMN_KINDS]
    cdef int child_cell[16]
    cdef int child_bound[16]
    cdef int child_prices[16][COLUMN_KINDS]
    cdef int solved[COLUMN_KINDS]
    cdef int n_children = 0, tribe, cell, b, k, i, value, n_rows
    cdef uint32_t rest
    cdef Potentials pt
    while order_index < 4 and s.rem[s.order[order_index]] == 0:
        if s.order[order_index] == s.sym_kind and not canonical(s, s.mask[s.sym_kind]):
            return 0
        order_index += 1
        start = 0
    if order_index == 4:
        value = node_bound(s, rows, columns, assign)
        check_limits(s)
        if beats(s, value):
            record_leaf(s, value, rows, columns, assign)
        return s.stop
    tribe = s.order[order_index]
    rest = s.undecided & ~(((<uint32_t>1) << start) - 1)
    if rest:
        s.rem[tribe] -= 1           # every child holds one more of ``tribe``: the same cards still to place
        prepare_potentials(s, &pt)
        s.rem[tribe] += 1
    while rest:
        cell = lowest_bit(rest)
        rest &= rest - 1
        place_tribe(s, tribe, cell)
        value = node_problem(s, &pt, rows, cap, profit, &n_rows)
        b = value
        if n_rows > 0:
            if beats(s, value + dual_bound(n_rows, profit, cap, prices)):
                b = value + transport_max(n_rows, profit, cap, prices, solved)
            else:
                b = -BIG                # pruned: its exact bound could not beat the best known either
        unplace_tribe(s, tribe, cell)
        check_limits(s)
        if s.stop:
            return 1
        if beats(s, b):
            # insertion by bound, best first; ties keep the cell order
            i = n_children
            while i > 0 and child_bound[i - 1] < b:
                child_bound[i] = child_bound[i - 1]
                child_cell[i] = child_cell[i - 1]
                memcpy(child_prices[i], child_prices[i - 1], sizeof(int) * COLUMN_KINDS)
                i -= 1
            child_bound[i] = b
            child_cell[i] = cell
            memcpy(child_prices[i], solved, sizeof(int) * COLUMN_KINDS)
            n_children += 1
    for k in range(n_children):
        if not beats(s, child_bound[k]):
            break
        cell = child_cell[k]
        place_tribe(s, tribe, cell)
        if dfs(s, order_index, cell + 1, open_bound, child_prices[k]):
            unplace_tribe(s, tribe, cell)
            if child_bound[k] > open_bound[0]:
                open_bound[0] = child_bound[k]
            return 1
        unplace_tribe(s, tribe, cell)
    return 0


_SETUP_PROBLEMS = ("", "counts must not be negative", "Portals belong to the layout, not to the free cards",
                  "layout codes must be 0..10", "the free cards must fill the free cells exactly")


cdef int setup(Search* s, const uint8_t* layout, const int32_t* counts) noexcept nogil:
    """Fill ``s`` from a layout and the free cards; returns 0, or the index of a problem in _SETUP_PROBLEMS."""
    cdef int c, kind, j, n_free = 0, n_cards = 0
    cdef uint32_t portals = 0
    for kind in range(CARD_KINDS):
        s.mask[kind] = 0
        if counts[kind] < 0:
            return 1
        s.rem[kind] = counts[kind]
        n_cards += counts[kind]
    if counts[PORTAL] != 0:
        return 2
    s.undecided = 0
    for c in range(CELLS):
        if layout[c] > FREE:
            return 3
        if layout[c] == FREE:
            s.kind[c] = -1
            s.undecided |= (<uint32_t>1) << c
            n_free += 1
        else:
            s.kind[c] = <int8_t>layout[c]
            s.mask[layout[c]] |= (<uint32_t>1) << c
    if n_free != n_cards:
        return 4
    connect_cells(s.mask[PORTAL], s.orth, s.conn)
    for c in range(CELLS):
        s.orth[c] &= ~s.mask[PORTAL]
        s.conn[c] &= ~s.mask[PORTAL]
    s.conflicts = 0
    for c in range(CELLS):
        if HUMANS <= s.kind[c] <= GOBLINS:
            for kind in range(HUMANS, DRAGON):
                s.conflicts += PAIR_POINTS[s.kind[c]][kind] * popcount(s.conn[c] & s.mask[kind])
    s.conflicts //= 2
    s.n_dragons = counts[DRAGON] + popcount(s.mask[DRAGON])
    s.dragon_value = dragon_value(s.n_dragons)
    s.nodes = 0
    s.stop = 0
    s.control = NULL
    s.live = 0
    s.out = NULL
    s.found = 0
    s.n_sym = 0
    s.sym_kind = -1
    s.priority = 0
    s.key = make_key(-BIG, 0)
    s.team = NULL
    s.flushed = 0
    # Tribes with more free copies first (ties: Humans, Elves, Dwarves, Goblins)
    for kind in range(4):
        s.order[kind] = TRIBE_ORDER[kind]
    for kind in range(1, 4):
        j = kind
        while j > 0 and counts[s.order[j]] > counts[s.order[j - 1]]:
            s.order[j], s.order[j - 1] = s.order[j - 1], s.order[j]
            j -= 1
    for kind in range(4):
        if counts[s.order[kind]] > 0:
            s.sym_kind = s.order[kind]
            break
    return 0


cdef int check_kingdom(const uint8_t[::1] kingdom, str name) except -1:
    cdef int c
    if kingdom.shape[0] != CELLS:
        raise ValueError(f"{name}: expected 16 card codes")
    for c in range(CELLS):
        if kingdom[c] >= CARD_KINDS:
            raise ValueError(f"{name}: expected card codes 0..9")
    return 0


# -- public functions ---------------------------------------------------------------------------

def kingdom_value(const uint8_t[::1] kingdom):
    """The board total of a complete kingdom (16 codes 0..9)."""
    check_kingdom(kingdom, "kingdom")
    return kingdom_total(&kingdom[0])


def local_search(const uint8_t[::1] kingdom, const uint8_t[::1] locked, uint64_t seed, int64_t rounds,
                 uint8_t[::1] out):
    """Iterated local search from ``kingdom``: swaps of unlocked cells, ``rounds`` kicks; the best total.

    ``out`` receives the best kingdom found (never worse than ``kingdom``).
    """
    check_kingdom(kingdom, "kingdom")
    if locked.shape[0] != CELLS or out.shape[0] != CELLS:
        raise ValueError("local_search: locked and out must have 16 entries")
    if rounds < 0:
        raise ValueError("local_search: rounds must be at least 0")
    cdef int best
    with nogil:
        best = iterated_local_search(&kingdom[0], &locked[0], seed, rounds, &out[0])
    return best


def layout_bound(const uint8_t[::1] layout, const int32_t[::1] counts):
    """Upper bound on the board total of every filling of ``layout`` (code 10 = free) with ``counts``."""
    cdef Search s
    cdef int rows[16]
    cdef int columns[16]
    cdef int assign[16]
    cdef int problem
    if layout.shape[0] != CELLS or counts.shape[0] != CARD_KINDS:
        raise ValueError("layout_bound: expected 16 layout codes and 10 counts")
    problem = setup(&s, &layout[0], &counts[0])
    if problem:
        raise ValueError(f"layout_bound: {_SETUP_PROBLEMS[problem]}")
    return node_bound(&s, rows, columns, assign)


def search_layout(const uint8_t[::1] layout, const int32_t[::1] counts, const int8_t[:, ::1] symmetries,
                  int incumbent, int64_t node_limit, double seconds, uint8_t[::1] out, int64_t[::1] stats,
                  int64_t[::1] control=None):
    """Exact branch-and-bound over the fillings of one layout, looking for a total above ``incumbent``.

    ``layout``: 16 codes, 10 for a free cell (Portals, fixed cards and free cells); ``counts``: the free
    cards by kind (no Portal); ``symmetries``: cell permutations (``image[c]``) that map the layout and
    its fixed cards onto themselves. Stops after ``node_limit`` bound evaluations or ``seconds``
    (either <= 0: no limit). Returns the best total (``incumbent`` when nothing better exists or was
    found); ``out`` receives the kingdom when one was found; ``stats`` = [nodes, complete (0/1),
    proven bound on this layout (max with ``incumbent``), found (0/1)].

    ``control`` (optional, 1 or 4 entries) is shared with another thread: the search polls ``control[0]``
    every 256 bound evaluations and stops (as at a limit) once it is not 0. With 4 entries the search also
    publishes its progress while it runs: ``control[1]`` the nodes so far (at each poll, and at the end),
    ``control[2]`` the best total so far (``incumbent`` until one is found) and, each time a better kingdom
    is found, that kingdom in ``out``, written while ``control[3]`` is odd (a reader copies ``out`` between
    two equal, even readings of ``control[3]``).
    """
    cdef Search s
    cdef int rows[16]
    cdef int columns[16]
    cdef int assign[16]
    cdef int prices[COLUMN_KINDS]
    cdef int root, open_bound, c, g, problem
    if layout.shape[0] != CELLS or counts.shape[0] != CARD_KINDS or out.shape[0] != CELLS or stats.shape[0] != 4:
        raise ValueError("search_layout: expected 16 layout codes, 10 counts, 16 out cells and 4 stats")
    if symmetries.shape[0] > 8 or (symmetries.shape[0] > 0 and symmetries.shape[1] != CELLS):
        raise ValueError("search_layout: expected at most 8 symmetries of 16 cells")
    if control is not None and control.shape[0] not in (1, 4):
        raise ValueError("search_layout: control must have 1 or 4 entries")
    problem = setup(&s, &layout[0], &counts[0])
    if problem:
        raise ValueError(f"search_layout: {_SETUP_PROBLEMS[problem]}")
    s.n_sym = symmetries.shape[0]
    for g in range(s.n_sym):
        for c in range(CELLS):
            if not 0 <= symmetries[g, c] < CELLS:
                raise ValueError("search_layout: symmetry images must be cells 0..15")
            s.sym[g][c] = symmetries[g, c]
    s.best = incumbent
    s.key = make_key(incumbent, 1)    # the incumbent wins a tie: only a better total replaces it
    s.node_limit = node_limit
    if control is not None:
        s.control = &control[0]
        s.live = control.shape[0] == 4
        s.out = &out[0]
        if s.live:
            control[CONTROL_NODES] = 0
            control[CONTROL_BEST] = incumbent
    with nogil:
        s.deadline = monotonic_seconds() + seconds if seconds > 0 else 0.0
        open_bound = -BIG
        root = root_bound(&s, prices)
        if beats(&s, root):
            if dfs(&s, 0, 0, &open_bound, prices):
                if open_bound == -BIG:
                    open_bound = root
    stats[STAT_NODES] = s.nodes
    if s.live:
        control[CONTROL_NODES] = s.nodes
    stats[STAT_COMPLETE] = 0 if s.stop else 1
    stats[STAT_BOUND] = s.best if not s.stop or open_bound < s.best else open_bound
    stats[STAT_FOUND] = s.found
    if s.found:
        for c in range(CELLS):
            out[c] = s.best_kingdom[c]
    return s.best


# -- several layouts at once ----------------------------------------------------------------------

cdef void team_search(Team* t, int i) noexcept nogil:
    """Search layout ``i`` of the team (its priority: the earlier the layout, the higher) into ``stats[i]``."""
    cdef Search s
    cdef int rows[16]
    cdef int columns[16]
    cdef int assign[16]
    cdef int prices[COLUMN_KINDS]
    cdef int root, open_bound, g, c, best
    cdef int64_t* st = &t.stats[4 * i]
    cdef int64_t nodes
    if (t.control != NULL and (<volatile int64_t*>t.control)[0] != 0) or \
            (t.deadline > 0 and monotonic_seconds() >= t.deadline):
        st[STAT_NODES] = 0          # not searched: the caller keeps the layout's own bound
        st[STAT_COMPLETE] = 0
        st[STAT_BOUND] = BIG
        st[STAT_FOUND] = 0
        return
    setup(&s, &t.layouts[CELLS * i], t.counts)
    s.n_sym = t.n_symmetries[i]
    for g in range(s.n_sym):
        for c in range(CELLS):
            s.sym[g][c] = t.symmetries[(8 * i + g) * CELLS + c]
    s.team = t
    s.priority = INCUMBENT_PRIORITY - 1 - i
    s.key = atomic_load(&t.key)
    s.best = key_total(s.key)
    s.node_limit = 0
    s.deadline = t.deadline
    s.control = t.control
    s.live = 0
    open_bound = -BIG
    root = root_bound(&s, prices)
    check_limits(&s)
    if beats(&s, root) and not s.stop:
        if dfs(&s, 0, 0, &open_bound, prices) and open_bound == -BIG:
            open_bound = root
    elif s.stop and beats(&s, root):
        open_bound = root
    nodes = atomic_add(&t.nodes, s.nodes - s.flushed) + s.nodes - s.flushed
    if t.live:
        (<volatile int64_t*>&t.control[CONTROL_NODES])[0] = nodes
    best = key_total(s.key)
    st[STAT_NODES] = s.nodes
    st[STAT_COMPLETE] = 0 if s.stop else 1
    st[STAT_BOUND] = best if not s.stop or open_bound < best else open_bound
    st[STAT_FOUND] = s.found


cdef void* team_worker(void* arg) noexcept nogil:
    """Take the team's layouts one after another until none is left."""
    cdef Team* t = <Team*>arg
    cdef int64_t i
    while True:
        i = atomic_add(&t.next, 1)
        if i >= t.n:
            return NULL
        team_search(t, <int>i)


def search_layouts(const uint8_t[:, ::1] layouts, const int32_t[::1] counts, const int8_t[:, :, ::1] symmetries,
                   const int32_t[::1] n_symmetries, int incumbent, double seconds, int threads, uint8_t[::1] out,
                   int64_t[:, ::1] stats, int64_t[::1] control=None):
    """Exact branch-and-bound over several layouts at once (``threads`` threads, the GIL released), each search
    pruning with the best kingdom any of them has found.

    ``layouts`` (n, 16) in the order of the sequential search (``search_layout`` on each in turn, each starting
    from the best so far): the result is the same, kingdom included, because a tie between two kingdoms goes to
    the earlier layout (the incumbent before them all), whichever thread finds them first. ``symmetries`` (n, 8,
    16) with ``n_symmetries[i]`` rows used for layout ``i``; ``incumbent``: the best total so far; ``seconds``
    (<= 0: none) the time limit. Returns the best total (``incumbent`` when nothing better exists or was found);
    ``out`` receives the kingdom when one was found; ``stats[i]`` = [nodes, complete (0/1), proven bound of layout
    ``i`` (max with the best total), found (0/1)], a layout left unsearched when a limit stopped the search having
    complete 0 and bound 2**28. ``control`` (optional, 1 or 4 entries) as in ``search_layout``: ``control[0]`` is
    polled to stop; with 4 entries the progress of all the searches is published (nodes, best total, and each
    better kingdom in ``out`` while ``control[3]`` is odd).
    """
    cdef Team t
    cdef Search check
    cdef pthread_t workers[MAX_THREADS]
    cdef int started = 0, i, g, c, problem, n = layouts.shape[0]
    if layouts.shape[1] != CELLS or counts.shape[0] != CARD_KINDS or out.shape[0] != CELLS:
        raise ValueError("search_layouts: expected layouts (n, 16), 10 counts and 16 out cells")
    if symmetries.shape[0] != n or symmetries.shape[1] != 8 or symmetries.shape[2] != CELLS \
            or n_symmetries.shape[0] != n or stats.shape[0] != n or stats.shape[1] != 4:
        raise ValueError("search_layouts: expected symmetries (n, 8, 16), n_symmetries (n) and stats (n, 4)")
    if control is not None and control.shape[0] not in (1, 4):
        raise ValueError("search_layouts: control must have 1 or 4 entries")
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"search_layouts: threads must be 1..{MAX_THREADS}")
    if n >= INCUMBENT_PRIORITY:
        raise ValueError("search_layouts: too many layouts")
    for i in range(n):
        problem = setup(&check, &layouts[i, 0], &counts[0])
        if problem:
            raise ValueError(f"search_layouts: layouts[{i}]: {_SETUP_PROBLEMS[problem]}")
        if not 0 <= n_symmetries[i] <= 8:
            raise ValueError("search_layouts: n_symmetries must be 0..8")
        for g in range(n_symmetries[i]):
            for c in range(CELLS):
                if not 0 <= symmetries[i, g, c] < CELLS:
                    raise ValueError("search_layouts: symmetry images must be cells 0..15")
    t.n = n
    t.key = make_key(incumbent, INCUMBENT_PRIORITY)
    t.next = 0
    t.nodes = 0
    t.found = 0
    t.control = NULL
    t.live = 0
    t.out = &out[0]
    if n == 0:
        return incumbent
    t.layouts = &layouts[0, 0]
    t.counts = &counts[0]
    t.symmetries = &symmetries[0, 0, 0]
    t.n_symmetries = &n_symmetries[0]
    t.stats = &stats[0, 0]
    if control is not None:
        t.control = &control[0]
        t.live = control.shape[0] == 4
        if t.live:
            control[CONTROL_NODES] = 0
            control[CONTROL_BEST] = incumbent
    pthread_mutex_init(&t.lock, NULL)
    with nogil:
        t.deadline = monotonic_seconds() + seconds if seconds > 0 else 0.0
        if threads > n:
            threads = n
        for i in range(threads - 1):
            if pthread_create(&workers[started], NULL, team_worker, &t) != 0:
                break
            started += 1
        team_worker(&t)
        for i in range(started):
            pthread_join(workers[i], NULL)
    pthread_mutex_destroy(&t.lock)
    if t.live:
        control[CONTROL_NODES] = t.nodes
    if t.found:
        for c in range(CELLS):
            out[c] = t.best_kingdom[c]
    return key_total(t.key)
