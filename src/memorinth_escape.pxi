"""Memorinth shortest escapes (compiled kernel): the fewest own turns for one player to leave the forest when
every card is known (solitaire: the other players' turns change nothing), by IDA* with an admissible bound and a
transposition cache; solution counts for puzzles; the greedy policy's runs as an upper bound.

The rules are ``memorinth_rules.pxd``, the greedy policy ``memorinth_policy.pxd``. Twin:
``solver/twins/memorinth_escape.py`` (same functions, same results).
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memcmp, memset
from common cimport monotonic_seconds, hash_words
from memorinth_rules cimport *
from memorinth_policy cimport greedy

cdef enum:
    KEY_WORDS = 6  # KEY_BYTES / 8: a transposition key as 64-bit words

cdef inline void advance_to(int32_t* s, const int32_t* deck, int player) noexcept nogil:
    while s[TOMOVE] != player:
        s[LAST] = -1
        end_turn(s, deck, NULL)


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
    cdef uint64_t key_words[KEY_WORDS]
    cdef int8_t* key = <int8_t*>key_words
    cdef TTEntry* e
    cdef int32_t* c
    cdef int32_t* buf
    sr.nodes += 1
    if sr.node_limit > 0 and sr.nodes > sr.node_limit:
        sr.stopped = True
    elif (sr.nodes & 1023) == 0:
        if sr.progress != NULL:
            publish_nodes(sr.progress, sr.base_nodes + sr.nodes)
        if (sr.deadline > 0 and monotonic_seconds() > sr.deadline) or (sr.stop != NULL and (<volatile int32_t*>sr.stop)[0] != 0):
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
        e = &sr.tt[hash_words(key_words, KEY_WORDS) & ((1 << sr.tt_bits) - 1)]
        if e.stamp == sr.stamp and memcmp(e.key, key, KEY_BYTES) == 0:
            if e.depth <= d:
                return False
        elif e.stamp != sr.stamp:
            sr.tt_used += 1
            if sr.tt_used * 2 > (1 << sr.tt_bits) and sr.tt_bits < TT_BITS and grow_tt(sr):
                e = &sr.tt[hash_words(key_words, KEY_WORDS) & ((1 << sr.tt_bits) - 1)]
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
        apply(c, sr.deck, a, NULL)
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
    sr.deadline = monotonic_seconds() + time_limit if time_limit > 0 else 0.0
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
                    int64_t node_limit, double time_limit=0.0, int32_t[::1] stop=None):
    """How many decision sequences make ``player`` leave within ``depth`` own turns (counting stops at ``limit``).

    Returns ``(count, nodes, complete)``; ``complete`` is 0 when ``node_limit``, ``time_limit`` (seconds, 0: none)
    or ``stop[0]`` set by another thread (polled every 1024 nodes) stopped the count.
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
    sr.deadline = monotonic_seconds() + time_limit if time_limit > 0 else 0.0
    sr.node_limit = node_limit
    if stop is not None:
        if stop.shape[0] < 1:
            free(sr.arena)
            raise ValueError("stop: expected at least 1 entry")
        sr.stop = &stop[0]
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
                apply(s, &deck[0], a, NULL)
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