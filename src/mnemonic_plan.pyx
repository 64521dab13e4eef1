# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Mnemonic round planner: exact expectimax over the planning model (compiled kernel).

Twin: ``solver/twins/mnemonic_plan.py``, which documents the model, the
arrays and every transition; this file follows it function by function.
The twin computes in exact fractions; this kernel computes the same
recursion in IEEE doubles (every probability of the model is evaluated once
per node, so rounding stays near 1e-15; the tests require agreement to
1e-12). Memoised states are bit-packed (at most ``MAX_WORDS`` 64-bit words
a state) in an open-addressing hash table that grows up to ``limit`` states;
past it the search stops and reports ``complete = False``.

Limits of the layout: at most 6 players, 64 skill slots, ratings up to 10,
62 cards per category or hand, 84 pending extra dice (a state holds at most
63; its children a few more), 6 rounds and 6 Group Scenes of horizon (larger
inputs raise ``ValueError``). Extra dice grow by at most one a scene, so a
player never holds more than 84 + 7 * 6 = 126 in the search (a 7-bit field),
and a Group Scene never rolls more than 6 * (10 + 126) < ``MAX_DICE``.
"""

from libc.stdint cimport uint64_t, int32_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset
from libc.math cimport pow
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef enum:
    MAX_PLAYERS = 6
    MAX_SLOTS = 64
    MAX_L = 18 + 11 * 6 + 2 * 64
    MAX_WORDS = 16
    MAX_DICE = 1024
    MAX_BONUS = 84  # 84 + 7 * 6 scenes = 126, the largest value a 7-bit field holds
    MAX_ADVERSARY = 65
    CONFIG_LENGTH = 25
    CATEGORIES = 5
    JOKER = 4
    # config
    CFG_PLAYERS = 0
    CFG_SLOTS = 1
    CFG_GREY = 2
    CFG_JOKER_WILD = 3
    CFG_HELP_ONLY = 4
    CFG_HELP_DICE = 5
    CFG_HELPER_SHARES = 6
    CFG_LEARN = 7
    CFG_LEARN_ONLY = 8
    CFG_WEAVINGS = 9
    CFG_REFRESH = 10
    CFG_AVOID_HELPER = 11
    CFG_REPAIR = 12
    CFG_INJURY_SKILL = 13
    CFG_INJURY_EFFECT = 14
    CFG_NOBODY = 15
    CFG_DRAW_AS_VICTORY = 16
    CFG_MAX_ATTEMPTS = 17
    CFG_ROTATE = 18
    CFG_NEEDS_COMPLICATION = 19
    CFG_GREY_CARD = 20
    CFG_DRAWS_FIRST = 21
    CFG_PASS = 22
    CFG_TAIL = 23
    CFG_TAIL_ROUNDS = 24
    MAX_TAIL_ROUNDS = 63
    TAIL_WINDOW = 3
    POW_LENGTH = 160
    POLL_WORK = 4096
    MAX_BRANCH = 8  # the window's branches: Defeats so far, 0 .. 7 (at most 6 Group Scenes, plus one before)
    BLOCKS = 16 * MAX_PLAYERS
    # continuation entry points and block states (twin: TAIL_*, B_*)
    TAIL_REST = 0
    TAIL_ROUND = 1
    TAIL_FACE = 2
    TAIL_AFTER = 3
    B_OK = 0
    B_INJ = 1
    B_CPL = 2
    B_GONE = 3
    UNUSABLE = 0
    MINUS_ONE = 1
    NO_EFFECT = 2
    REFRESH_ROUND = 1
    VICTORY = 0
    DEFEAT = 1
    DRAW = 2
    # phases
    SCENE_CARD = 0
    SCENE_DRAW = 1
    SCENE_SKILL = 2
    SCENE_HELP = 3
    SCENE_ROLL = 4
    SCENE_WEAVE = 5
    TABLE = 6
    GROUP_DRAW = 7
    GROUP_SKILL = 8
    GROUP_ROLL = 9
    AFTER_VICTORY = 10
    AFTER_DEFEAT = 11
    OVER = 12
    # layout
    POS_PHASE = 0
    POS_FOCUS = 1
    POS_FIRST = 2
    POS_ROUNDS_LEFT = 3
    POS_GROUPS_LEFT = 4
    POS_ATTEMPTS = 5
    POS_DECK = 6
    POS_POOL = 7
    POS_CAT = 12
    POS_SKILL = 13
    POS_HELPER = 14
    POS_HELPER_SKILL = 15
    POS_RESULT = 16
    POS_TURN = 17
    HEADER = 18
    PL_KNOWN = 0
    PL_HAND_SIZE = 1
    PL_HAND = 2
    PL_TOKENS = 7
    PL_BONUS = 8
    PL_GROUP_CAT = 9
    PL_GROUP_SLOT = 10
    PLAYER_STRIDE = 11
    SL_SUIT = 0
    SL_STATUS = 1
    SLOT_STRIDE = 2
    COMPLICATED = 1
    INJURED = 2
    ABSENT = 4
    FAILED = 0
    SUCCEEDED = 1
    PASSED = 2
    # weavings
    W_NONE = 0
    W_GIVE = 1
    W_AVOID = 2
    W_REPAIR = 3


cdef double TAIL_EPSILON = 1e-9  # twin: TAIL_EPSILON
cdef double POW6[7][POW_LENGTH]  # POW6[i][d] = (i / 6) ** d (twin: POW6)


cdef struct Model:
    int k
    int s
    int L
    int cfg[CONFIG_LENGTH]
    int owner[MAX_SLOTS]
    int rating[MAX_SLOTS]
    int slot_first[MAX_PLAYERS]
    int slot_end[MAX_PLAYERS]
    int width[MAX_L]
    int words
    uint64_t* keys
    double* values
    unsigned char* used
    size_t cap
    size_t size
    size_t limit
    int aborted
    int failed_alloc
    double deadline
    size_t visits
    const int32_t* stop  # polled with the deadline: another thread sets stop[0] to cancel the search
    size_t estimates
    size_t work  # nodes, last Group Scene draws and estimate steps done: the clock is read every POLL_WORK
    size_t next_poll


# -- layout helpers (twin: _Model.pl, .sl, ...) ---------------------------------------------------
cdef inline int PL(const Model* m, int q, int f) noexcept nogil:
    return HEADER + PLAYER_STRIDE * q + f


cdef inline int SLT(const Model* m, int i, int f) noexcept nogil:
    return HEADER + PLAYER_STRIDE * m.k + SLOT_STRIDE * i + f


cdef inline bint present(const Model* m, const int* pos, int i) noexcept nogil:
    return (pos[SLT(m, i, SL_STATUS)] & ABSENT) == 0


cdef inline bint usable(const Model* m, const int* pos, int i) noexcept nogil:
    cdef int status = pos[SLT(m, i, SL_STATUS)]
    if status & (ABSENT | COMPLICATED):
        return False
    return not ((status & INJURED) and m.cfg[CFG_INJURY_EFFECT] == UNUSABLE)


cdef inline int available(const Model* m, const int* pos, int q, int* out) noexcept nogil:
    cdef int i, n = 0
    for i in range(m.slot_first[q], m.slot_end[q]):
        if usable(m, pos, i):
            out[n] = i
            n += 1
    return n


cdef inline int matching(const Model* m, const int* pos, int q, int cat, int* out) noexcept nogil:
    cdef int i, n = 0
    if cat == JOKER:
        if m.cfg[CFG_JOKER_WILD]:
            return available(m, pos, q, out)
        return 0
    for i in range(m.slot_first[q], m.slot_end[q]):
        if usable(m, pos, i) and pos[SLT(m, i, SL_SUIT)] == cat:
            out[n] = i
            n += 1
    return n


cdef inline int dice(const Model* m, const int* pos, int i, bint helped) noexcept nogil:
    cdef int q = m.owner[i]
    cdef int n = m.rating[i] + pos[PL(m, q, PL_BONUS)]
    if helped:
        n += m.cfg[CFG_HELP_DICE]
    if (pos[SLT(m, i, SL_STATUS)] & INJURED) and m.cfg[CFG_INJURY_EFFECT] == MINUS_ONE:
        n -= 1
    return n if n > 0 else 0


cdef inline int order(const Model* m, const int* pos, int index) noexcept nogil:
    return (pos[POS_FIRST] + index) % m.k


cdef inline bint can_play(const Model* m, const int* pos, int q) noexcept nogil:
    return pos[PL(m, q, PL_HAND_SIZE)] > 0 or pos[POS_DECK] > 0


cdef inline bint round_allowed(const Model* m, const int* pos) noexcept nogil:
    """Twin: _Model.round_allowed (a card for everyone, MN-21)."""
    cdef int q, empty = 0
    for q in range(m.k):
        if pos[PL(m, q, PL_HAND_SIZE)] == 0:
            empty += 1
    return empty <= pos[POS_DECK]


cdef inline bint group_allowed(const Model* m, const int* pos) noexcept nogil:
    """Twin: _Model.group_allowed (MN-39, MN-23)."""
    if m.cfg[CFG_NEEDS_COMPLICATION] and complications(m, pos) == 0:
        return False
    return m.cfg[CFG_GREY] == 1 or pos[POS_DECK] >= m.k


cdef inline bint capped(const Model* m) noexcept nogil:
    return m.cfg[CFG_MAX_ATTEMPTS] > 0


cdef inline bint try_again(const Model* m, const int* pos) noexcept nogil:
    """Twin: _Model.try_again (MN-28)."""
    cdef int buf[MAX_SLOTS]
    cdef int q
    if capped(m):
        return pos[POS_ATTEMPTS] < m.cfg[CFG_MAX_ATTEMPTS]
    for q in range(m.k):
        if m.cfg[CFG_GREY]:
            if group_options(m, pos, q, buf) > 0:
                return True
        elif available(m, pos, q, buf) > 0:
            return True
    return False


cdef inline int tail_rounds(const Model* m, const int* pos) noexcept nogil:
    """Twin: _Model.tail_rounds."""
    cdef int r
    if not m.cfg[CFG_TAIL]:
        return 0
    r = m.cfg[CFG_TAIL_ROUNDS] + pos[POS_ROUNDS_LEFT]
    return r if r > 0 else 0


cdef inline bint nothing_after(const Model* m, const int* pos) noexcept nogil:
    """Twin: _Model.nothing_after."""
    return (pos[POS_ROUNDS_LEFT] <= 0 and capped(m) and pos[POS_ATTEMPTS] >= m.cfg[CFG_MAX_ATTEMPTS]
            and tail_rounds(m, pos) == 0)


cdef inline int complications(const Model* m, const int* pos) noexcept nogil:
    cdef int i, n = 0
    for i in range(m.s):
        if pos[SLT(m, i, SL_STATUS)] & COMPLICATED:
            n += 1
    return n


# -- transitions (twin: reset_scene ... take_card) ------------------------------------------------
cdef inline void reset_scene(int* pos) noexcept nogil:
    pos[POS_CAT] = -1
    pos[POS_SKILL] = -1
    pos[POS_HELPER] = -1
    pos[POS_HELPER_SKILL] = -1
    pos[POS_RESULT] = -1


cdef void begin_scene(const Model* m, int* pos, int index) noexcept nogil:
    while index < m.k and not can_play(m, pos, order(m, pos, index)):
        index += 1
    reset_scene(pos)
    if index >= m.k:
        pos[POS_PHASE] = TABLE
        pos[POS_FOCUS] = pos[POS_FIRST]
    else:
        pos[POS_PHASE] = SCENE_CARD
        pos[POS_FOCUS] = order(m, pos, index)


cdef void start_round(const Model* m, int* pos) noexcept nogil:
    cdef int q
    pos[POS_ROUNDS_LEFT] -= 1
    pos[POS_ATTEMPTS] = 0
    if m.cfg[CFG_ROTATE]:
        pos[POS_FIRST] = (pos[POS_FIRST] + 1) % m.k
    if m.cfg[CFG_REFRESH] == REFRESH_ROUND:
        for q in range(m.k):
            pos[PL(m, q, PL_TOKENS)] = m.cfg[CFG_WEAVINGS]
    begin_scene(m, pos, 0)


cdef inline bint holds(const Model* m, const int* pos, int q, int cat) noexcept nogil:
    """Twin: _Model.holds (an open hand may play any category the unseen pool holds)."""
    if pos[PL(m, q, PL_KNOWN)]:
        return pos[PL(m, q, PL_HAND + cat)] > 0
    return pos[PL(m, q, PL_HAND_SIZE)] > 0 and pos[POS_POOL + cat] > 0


cdef inline int group_options(const Model* m, const int* pos, int q, int* out) noexcept nogil:
    cdef int cat, i, j, n, total = 0
    cdef int buf[MAX_SLOTS]
    cdef bint seen
    if m.cfg[CFG_GREY]:
        if not m.cfg[CFG_GREY_CARD]:
            return available(m, pos, q, out)
        for cat in range(CATEGORIES):  # skills with a card of their suit in hand
            if not holds(m, pos, q, cat):
                continue
            n = matching(m, pos, q, cat, buf)
            for j in range(n):
                seen = False
                for i in range(total):
                    if out[i] == buf[j]:
                        seen = True
                if not seen:
                    out[total] = buf[j]
                    total += 1
        return total
    cat = pos[PL(m, q, PL_GROUP_CAT)]
    if cat < 0:
        return 0
    return matching(m, pos, q, cat, out)


cdef inline int drawer(const Model* m, const int* pos) noexcept nogil:
    """Twin: _Model.drawer."""
    cdef int index, q
    if m.cfg[CFG_DRAWS_FIRST]:
        for index in range(m.k):
            q = order(m, pos, index)
            if pos[PL(m, q, PL_GROUP_CAT)] < 0:
                return q
    return order(m, pos, pos[POS_TURN])


cdef void advance_group(const Model* m, int* pos) noexcept nogil:
    cdef int q
    cdef int buf[MAX_SLOTS]
    cdef bint burner = not m.cfg[CFG_GREY]
    if burner and m.cfg[CFG_DRAWS_FIRST]:
        for q in range(m.k):
            if pos[PL(m, q, PL_GROUP_CAT)] < 0:
                pos[POS_PHASE] = GROUP_DRAW
                return
    while pos[POS_TURN] < m.k:
        q = order(m, pos, pos[POS_TURN])
        if burner and pos[PL(m, q, PL_GROUP_CAT)] < 0:
            pos[POS_PHASE] = GROUP_DRAW
            return
        if group_options(m, pos, q, buf) > 0:
            pos[POS_PHASE] = GROUP_SKILL
            return
        pos[POS_TURN] += 1
    pos[POS_PHASE] = GROUP_ROLL


cdef void start_group(const Model* m, int* pos) noexcept nogil:
    cdef int q
    pos[POS_GROUPS_LEFT] -= 1
    if capped(m):
        pos[POS_ATTEMPTS] += 1
    pos[POS_TURN] = 0
    for q in range(m.k):
        pos[PL(m, q, PL_GROUP_CAT)] = -1
        pos[PL(m, q, PL_GROUP_SLOT)] = -1
    advance_group(m, pos)


cdef void finish_scene(const Model* m, int* pos, int kind, int arg) noexcept nogil:
    cdef int p = pos[POS_FOCUS]
    cdef bint avoided
    if pos[POS_RESULT] == FAILED:
        avoided = kind == W_AVOID
        if not avoided:
            pos[SLT(m, pos[POS_SKILL], SL_STATUS)] |= COMPLICATED
        if pos[POS_HELPER] >= 0 and m.cfg[CFG_HELPER_SHARES] and not (avoided and m.cfg[CFG_AVOID_HELPER]):
            pos[SLT(m, pos[POS_HELPER_SKILL], SL_STATUS)] |= COMPLICATED
    if kind != W_NONE:
        pos[PL(m, p, PL_TOKENS)] -= 1
        if kind == W_GIVE:
            pos[PL(m, arg, PL_BONUS)] += 1
        elif kind == W_REPAIR:
            pos[SLT(m, arg, SL_STATUS)] &= ~COMPLICATED
    begin_scene(m, pos, ((p - pos[POS_FIRST]) % m.k + m.k) % m.k + 1)


cdef inline void to_weave(const Model* m, int* pos) noexcept nogil:
    if pos[PL(m, pos[POS_FOCUS], PL_TOKENS)] > 0:
        pos[POS_PHASE] = SCENE_WEAVE
    else:
        finish_scene(m, pos, W_NONE, 0)


cdef inline void roll(const Model* m, int* pos, int result) noexcept nogil:
    pos[POS_RESULT] = result
    pos[PL(m, pos[POS_FOCUS], PL_BONUS)] = 0
    to_weave(m, pos)


cdef inline void to_roll(const Model* m, int* pos) noexcept nogil:
    if dice(m, pos, pos[POS_SKILL], pos[POS_HELPER] >= 0) == 0:
        roll(m, pos, FAILED)
    else:
        pos[POS_PHASE] = SCENE_ROLL


cdef inline void take_card(const Model* m, int* pos, int q, int cat) noexcept nogil:
    pos[PL(m, q, PL_HAND_SIZE)] -= 1
    if pos[PL(m, q, PL_KNOWN)]:
        pos[PL(m, q, PL_HAND + cat)] -= 1
    else:
        pos[POS_POOL + cat] -= 1


cdef void injure(const Model* m, int* pos) noexcept nogil:
    cdef int q, used, suit, i
    for q in range(m.k):
        used = pos[PL(m, q, PL_GROUP_SLOT)]
        if used < 0:
            continue
        suit = pos[SLT(m, used, SL_SUIT)]
        for i in range(m.slot_first[q], m.slot_end[q]):
            if not present(m, pos, i):
                continue
            if i == used or (not m.cfg[CFG_INJURY_SKILL] and pos[SLT(m, i, SL_SUIT)] == suit):
                pos[SLT(m, i, SL_STATUS)] |= INJURED


cdef inline void forget_cards(const Model* m, int* pos, int q, bint keep_hand) noexcept nogil:
    """Twin: _Model.forget_cards (nothing is forgotten while the continuation may play another round)."""
    cdef int c
    if keep_hand:
        return
    pos[PL(m, q, PL_TOKENS)] = 0
    if m.cfg[CFG_GREY] and m.cfg[CFG_GREY_CARD]:
        return  # the hand still pays for Group Scenes
    pos[PL(m, q, PL_HAND_SIZE)] = 0
    for c in range(CATEGORIES):
        pos[PL(m, q, PL_HAND + c)] = 0


cdef void canonical(const Model* m, int* pos) noexcept nogil:
    """Twin: _Model.canonical (forget what can no longer matter)."""
    cdef int q, index, done, phase = pos[POS_PHASE]
    cdef bint keep_hands
    if phase == OVER:
        return
    if not m.cfg[CFG_REPAIR]:
        forget_complicated(m, pos)
    if pos[POS_ROUNDS_LEFT] > 0:
        return
    keep_hands = tail_rounds(m, pos) > 0
    if phase < TABLE:
        if phase == SCENE_CARD:
            done = ((pos[POS_FOCUS] - pos[POS_FIRST]) % m.k + m.k) % m.k
            for index in range(done):
                forget_cards(m, pos, order(m, pos, index), keep_hands)
        return
    for q in range(m.k):
        forget_cards(m, pos, q, keep_hands)
    forget_complicated(m, pos)


cdef inline void forget_complicated(const Model* m, int* pos) noexcept nogil:
    cdef int i
    for i in range(m.s):
        if pos[SLT(m, i, SL_STATUS)] & COMPLICATED:
            pos[SLT(m, i, SL_SUIT)] = 0
            pos[SLT(m, i, SL_STATUS)] = COMPLICATED


# -- the memo ------------------------------------------------------------------------------------
cdef inline void pack(const Model* m, const int* pos, uint64_t* key) noexcept nogil:
    cdef int f, w, bit = 0
    cdef uint64_t v
    memset(key, 0, m.words * sizeof(uint64_t))
    for f in range(m.L):
        w = m.width[f]
        v = <uint64_t>(pos[f] + 1)
        key[bit >> 6] |= v << (bit & 63)
        if (bit & 63) + w > 64:
            key[(bit >> 6) + 1] |= v >> (64 - (bit & 63))
        bit += w


cdef inline uint64_t mix(const uint64_t* key, int words) noexcept nogil:
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL
    cdef int j
    for j in range(words):
        h ^= key[j] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2)
        h ^= h >> 31
        h *= 0xBF58476D1CE4E5B9ULL
        h ^= h >> 29
    return h


cdef inline bint same(const uint64_t* a, const uint64_t* b, int words) noexcept nogil:
    cdef int j
    for j in range(words):
        if a[j] != b[j]:
            return False
    return True


cdef bint lookup(const Model* m, const uint64_t* key, double* out) noexcept nogil:
    cdef size_t mask = m.cap - 1
    cdef size_t slot = mix(key, m.words) & mask
    while m.used[slot]:
        if same(&m.keys[slot * m.words], key, m.words):
            out[0] = m.values[slot]
            return True
        slot = (slot + 1) & mask
    return False


cdef void place(Model* m, const uint64_t* key, double value) noexcept nogil:
    cdef size_t mask = m.cap - 1
    cdef size_t slot = mix(key, m.words) & mask
    while m.used[slot]:
        slot = (slot + 1) & mask
    m.used[slot] = 1
    memcpy(&m.keys[slot * m.words], key, m.words * sizeof(uint64_t))
    m.values[slot] = value


cdef bint grow(Model* m) noexcept nogil:
    cdef size_t old_cap = m.cap, j
    cdef uint64_t* old_keys = m.keys
    cdef double* old_values = m.values
    cdef unsigned char* old_used = m.used
    m.cap = old_cap * 2
    m.keys = <uint64_t*>malloc(m.cap * m.words * sizeof(uint64_t))
    m.values = <double*>malloc(m.cap * sizeof(double))
    m.used = <unsigned char*>calloc(m.cap, 1)
    if m.keys == NULL or m.values == NULL or m.used == NULL:
        free(m.keys)
        free(m.values)
        free(m.used)
        m.keys, m.values, m.used, m.cap = old_keys, old_values, old_used, old_cap
        return False
    for j in range(old_cap):
        if old_used[j]:
            place(m, &old_keys[j * m.words], old_values[j])
    free(old_keys)
    free(old_values)
    free(old_used)
    return True


cdef void insert(Model* m, const uint64_t* key, double value) noexcept nogil:
    if (m.size + 1) * 2 > m.cap:
        if not grow(m):
            m.failed_alloc = 1
            m.aborted = 1
            return
    place(m, key, value)
    m.size += 1


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# -- the recursion (twin: value, chance, decisions, skill_choices) ---------------------------------
cdef double group_victory(int n, int mm, double* defeat) noexcept nogil:
    cdef int v
    cdef double victory = 0.0, lose = 0.0, hi, lo
    for v in range(1, 7):
        hi = v / 6.0
        lo = (v - 1) / 6.0
        if n > 0:
            victory += (pow(hi, n) - pow(lo, n)) * pow(lo, mm)
        if mm > 0:
            lose += (pow(hi, mm) - pow(lo, mm)) * pow(lo, n)
    defeat[0] = lose
    return victory


cdef double win(const Model* m, int n, int mm) noexcept nogil:
    """Twin: _Model.win."""
    if n == 0 and mm == 0:
        return 1.0 if m.cfg[CFG_NOBODY] == VICTORY else 0.0
    if mm == 0:
        return 1.0
    if n == 0:
        return 0.0
    return VICTORY_TABLE[n * MAX_ADVERSARY + mm]


cdef int best_dice(const Model* m, const int* pos, int q, int cat) noexcept nogil:
    cdef int buf[MAX_SLOTS]
    cdef int n, j, d, best = 0
    n = available(m, pos, q, buf) if cat < 0 else matching(m, pos, q, cat, buf)
    for j in range(n):
        d = dice(m, pos, buf[j], False)
        if d > best:
            best = d
    return best


cdef double lose(const Model* m, int n, int mm) noexcept nogil:
    """Twin: _Model.lose."""
    if n == 0 and mm == 0:
        return 1.0 if m.cfg[CFG_NOBODY] == DEFEAT else 0.0
    if mm == 0:
        return 0.0
    if n == 0:
        return 1.0
    return DEFEAT_TABLE[n * MAX_ADVERSARY + mm]


cdef double final_walk(Model* m, const int* pos, int* pool, const int* best, int index, int n,
                       int mm, double* defeat) noexcept nogil:
    """``best[6 * index + c]``: most dice of the index-th player for category ``c`` (5: any skill, or -1 when
    no skill matches ``c``). Returns the Victory chance and sets ``defeat[0]`` (twin: ``walk``)."""
    cdef int q, cat, c, total = 0, most
    cdef double out = 0.0, share, v, d, out_defeat = 0.0
    cdef bint any_option
    if index == m.k:
        m.work += 1
        defeat[0] = lose(m, n, mm)
        return win(m, n, mm)
    q = order(m, pos, index)
    if m.cfg[CFG_GREY]:
        if not m.cfg[CFG_GREY_CARD]:
            return final_walk(m, pos, pool, best, index + 1, n + best[6 * index + 5], mm, defeat)
        if pos[PL(m, q, PL_KNOWN)]:  # the card of the best skill's suit from a known hand
            most = -1
            for c in range(CATEGORIES):
                if pos[PL(m, q, PL_HAND + c)] > 0 and best[6 * index + c] > most:
                    most = best[6 * index + c]
            return final_walk(m, pos, pool, best, index + 1, n + (most if most > 0 else 0), mm, defeat)
        any_option = False  # an open hand may take any category the pool still holds
        for c in range(CATEGORIES):
            if best[6 * index + c] >= 0 and pos[PL(m, q, PL_HAND_SIZE)] > 0 and pool[c] > 0:
                pool[c] -= 1
                v = final_walk(m, pos, pool, best, index + 1, n + best[6 * index + c], mm, &d)
                pool[c] += 1
                if not any_option or v > out:
                    out = v
                    out_defeat = d
                any_option = True
        if not any_option:
            return final_walk(m, pos, pool, best, index + 1, n, mm, defeat)
        defeat[0] = out_defeat
        return out
    cat = pos[PL(m, q, PL_GROUP_CAT)]
    if cat >= 0:
        return final_walk(m, pos, pool, best, index + 1, n + best[6 * index + cat], mm, defeat)
    for c in range(CATEGORIES):
        total += pool[c]
    for c in range(CATEGORIES):
        if pool[c] > 0:
            share = pool[c] / <double>total
            pool[c] -= 1
            out += share * final_walk(m, pos, pool, best, index + 1, n + best[6 * index + c], mm, &d)
            out_defeat += share * d
            pool[c] += 1
    defeat[0] = out_defeat
    return out


cdef double final_group(Model* m, const int* pos) noexcept nogil:
    """Twin: _Model.final_group (the horizon's last Group Scene: everyone brings their most dice; with the
    continuation, plus the estimate of the rest of the session after it)."""
    cdef int pool[CATEGORIES]
    cdef int best[6 * MAX_PLAYERS]
    cdef int buf[MAX_SLOTS]
    cdef int index, slot, c, q, fixed = 0
    cdef double victory, defeat = 0.0
    for index in range(pos[POS_TURN]):
        slot = pos[PL(m, order(m, pos, index), PL_GROUP_SLOT)]
        if slot >= 0:
            fixed += dice(m, pos, slot, False)
    for index in range(pos[POS_TURN], m.k):
        q = order(m, pos, index)
        for c in range(CATEGORIES):
            best[6 * index + c] = best_dice(m, pos, q, c)
            if m.cfg[CFG_GREY] and m.cfg[CFG_GREY_CARD] and matching(m, pos, q, c, buf) == 0:
                best[6 * index + c] = -1  # no skill to bring with a card of this category
        best[6 * index + 5] = best_dice(m, pos, q, -1)
    for c in range(CATEGORIES):
        pool[c] = pos[POS_POOL + c]
    m.visits += 1
    victory = final_walk(m, pos, pool, best, pos[POS_TURN], fixed, complications(m, pos), &defeat)
    if not m.cfg[CFG_TAIL] or victory == 1.0:
        return victory
    return victory + (1.0 - victory) * estimate(m, pos, TAIL_AFTER, victory, defeat)


# -- the continuation estimate (twin: class _Tail; MN-44) ----------------------------------------------
cdef struct Tail:
    int k
    bint burner
    bint grey_card
    bint wild
    int effect
    int deck
    int m0
    int cap
    int hand[MAX_PLAYERS]
    double share[CATEGORIES]
    double scene_share[MAX_PLAYERS * CATEGORIES]
    int dice_ok[MAX_PLAYERS * 4]
    int dice_inj[MAX_PLAYERS * 4]
    double p[MAX_PLAYERS * 16]  # p[16 q + 4 t + state]
    int rank[MAX_PLAYERS * 4]  # each player's suits by dice, most first
    double idle[MAX_PLAYERS * 28]  # idle[28 q + 4 y + t]: block t not brought, y in sixths (set per attempt)
    double tokens[MAX_PLAYERS * 4]  # tokens[4 q + w]: chance that q has w weavings left
    int bonus[MAX_PLAYERS]  # extra dice, spent on the player's next roll
    double open
    double closed
    double total
    size_t work


cdef void tail_init(const Model* m, const int* pos, Tail* t) noexcept nogil:
    cdef int q, x, suit, i, d, best, best_slot, total = 0, size, a, b, tmp
    t.k = m.k
    t.burner = not m.cfg[CFG_GREY]
    t.grey_card = m.cfg[CFG_GREY] and m.cfg[CFG_GREY_CARD]
    t.wild = m.cfg[CFG_JOKER_WILD] != 0
    t.effect = m.cfg[CFG_INJURY_EFFECT]
    t.deck = pos[POS_DECK]
    for x in range(CATEGORIES):
        total += pos[POS_POOL + x]
    for x in range(CATEGORIES):
        t.share[x] = pos[POS_POOL + x] / <double>total if total > 0 else 0.0
    for q in range(m.k):
        t.hand[q] = pos[PL(m, q, PL_HAND_SIZE)]
        size = pos[PL(m, q, PL_HAND_SIZE)]
        for x in range(CATEGORIES):
            if pos[PL(m, q, PL_KNOWN)] and size > 0:
                t.scene_share[CATEGORIES * q + x] = pos[PL(m, q, PL_HAND + x)] / <double>size
            else:
                t.scene_share[CATEGORIES * q + x] = t.share[x]
        for suit in range(4):
            best = -1
            best_slot = -1
            for i in range(m.slot_first[q], m.slot_end[q]):
                if usable(m, pos, i) and pos[SLT(m, i, SL_SUIT)] == suit:
                    d = m.rating[i]
                    if (pos[SLT(m, i, SL_STATUS)] & INJURED) and t.effect == MINUS_ONE:
                        d -= 1
                    if d < 0:
                        d = 0
                    if d > best:
                        best = d
                        best_slot = i
            t.dice_ok[4 * q + suit] = 0
            t.dice_inj[4 * q + suit] = 0
            for x in range(4):
                t.p[16 * q + 4 * suit + x] = 0.0
            t.p[16 * q + 4 * suit + B_GONE] = 1.0
            if best_slot >= 0:
                t.dice_ok[4 * q + suit] = m.rating[best_slot]
                if t.effect == MINUS_ONE:
                    t.dice_inj[4 * q + suit] = m.rating[best_slot] - 1 if m.rating[best_slot] > 0 else 0
                else:
                    t.dice_inj[4 * q + suit] = m.rating[best_slot]
                t.p[16 * q + 4 * suit + B_GONE] = 0.0
                if (pos[SLT(m, best_slot, SL_STATUS)] & INJURED) and t.effect == MINUS_ONE:
                    t.p[16 * q + 4 * suit + B_INJ] = 1.0
                else:
                    t.p[16 * q + 4 * suit + B_OK] = 1.0
        for x in range(4):  # suits by dice, most first, ties by suit (a stable insertion sort)
            t.rank[4 * q + x] = x
        for a in range(1, 4):
            b = a
            while b > 0 and t.dice_ok[4 * q + t.rank[4 * q + b]] > t.dice_ok[4 * q + t.rank[4 * q + b - 1]]:
                tmp = t.rank[4 * q + b]
                t.rank[4 * q + b] = t.rank[4 * q + b - 1]
                t.rank[4 * q + b - 1] = tmp
                b -= 1
    for q in range(m.k):
        for x in range(4):
            t.tokens[4 * q + x] = 1.0 if x == pos[PL(m, q, PL_TOKENS)] else 0.0
        t.bonus[q] = pos[PL(m, q, PL_BONUS)]
    t.m0 = complications(m, pos)
    t.cap = m.cfg[CFG_MAX_ATTEMPTS] if capped(m) else TAIL_WINDOW
    t.open = 1.0
    t.closed = 0.0
    t.total = 0.0
    t.work = 0


cdef inline double t_usable(const Tail* t, int q, int s) noexcept nogil:
    return t.p[16 * q + 4 * s + B_OK] + t.p[16 * q + 4 * s + B_INJ]


cdef inline double t_idle(const Tail* t, int q, int s, double y) noexcept nogil:
    cdef const double* pr = &t.p[16 * q + 4 * s]
    return pr[B_OK] + pr[B_INJ] + pr[B_CPL] * y + pr[B_GONE]


cdef inline double t_used(const Tail* t, int q, int s, int x, double y) noexcept nogil:
    cdef const double* pr = &t.p[16 * q + 4 * s]
    cdef int extra = t.bonus[q]
    return (pr[B_OK] * POW6[x][t.dice_ok[4 * q + s] + extra] + pr[B_INJ] * POW6[x][t.dice_inj[4 * q + s] + extra]
            + pr[B_CPL] * y + pr[B_GONE])


cdef double t_best_of(const Tail* t, int q, const bint* held, int x, double y, const double* idle) noexcept nogil:
    """Twin: _Tail.best_of."""
    cdef double total = 0.0, before = 1.0, after
    cdef int j, j2, s
    cdef const double* pr
    for j in range(4):
        s = t.rank[4 * q + j]
        if not held[s]:
            continue
        pr = &t.p[16 * q + 4 * s]
        after = 1.0
        for j2 in range(j + 1, 4):
            if held[t.rank[4 * q + j2]]:
                after *= idle[t.rank[4 * q + j2]]
        total += (pr[B_OK] * POW6[x][t.dice_ok[4 * q + s] + t.bonus[q]]
                  + pr[B_INJ] * POW6[x][t.dice_inj[4 * q + s] + t.bonus[q]]) * before * after
        before *= pr[B_CPL] * y + pr[B_GONE]
    total += before
    for s in range(4):
        if not held[s]:
            total *= idle[s]
    return total


cdef void t_held(const Tail* t, int q, bint* held) noexcept nogil:
    """Twin: _Tail.held."""
    cdef int s
    for s in range(4):
        if not t.grey_card:
            held[s] = True
        elif t.wild and t.scene_share[CATEGORIES * q + JOKER] > 0:
            held[s] = True
        else:
            held[s] = t.scene_share[CATEGORIES * q + s] > 0


cdef double t_expect(const Tail* t, int q, int x, int yi) noexcept nogil:
    """Twin: _Tail.expect."""
    cdef bint held[4]
    cdef double total, term, y = yi / 6.0
    cdef const double* idle = &t.idle[28 * q + 4 * yi]
    cdef int cat, s
    if t.grey_card and t.hand[q] == 0:
        return idle[0] * idle[1] * idle[2] * idle[3]
    if not t.burner:
        t_held(t, q, held)
        return t_best_of(t, q, held, x, y, idle)
    total = 0.0
    for cat in range(CATEGORIES):
        if t.share[cat] <= 0:
            continue
        if cat < 4:
            term = t_used(t, q, cat, x, y)
            for s in range(4):
                if s != cat:
                    term *= idle[s]
        elif t.wild:
            for s in range(4):
                held[s] = True
            term = t_best_of(t, q, held, x, y, idle)
        else:
            term = idle[0] * idle[1] * idle[2] * idle[3]
        total += t.share[cat] * term
    return total


cdef double t_product(const Tail* t, int x, int y) noexcept nogil:
    """Twin: _Tail.product (bases in sixths)."""
    cdef double out = 1.0
    cdef int q
    for q in range(t.k):
        out *= t_expect(t, q, x, y)
    return out


cdef void t_attempt(const Model* m, Tail* t, double* win, double* lose, double* blocked) noexcept nogil:
    """Twin: _Tail.attempt."""
    cdef int v, q, yi, s
    cdef double both, nobody
    for q in range(t.k):
        for yi in range(7):
            for s in range(4):
                t.idle[28 * q + 4 * yi + s] = t_idle(t, q, s, yi / 6.0)
    win[0] = 0.0
    lose[0] = 0.0
    blocked[0] = 0.0
    for v in range(1, 7):  # the highest roll is v: a_v = v/6, b_v = (v-1)/6
        both = t_product(t, v - 1, v - 1)
        if t.m0 == 0 or v > 1:
            win[0] += POW6[v - 1][t.m0] * (t_product(t, v, v - 1) - both)
        lose[0] += POW6[v][t.m0] * t_product(t, v - 1, v) - POW6[v - 1][t.m0] * both
    if t.m0 == 0:
        nobody = t_product(t, 0, 0)
        if m.cfg[CFG_NEEDS_COMPLICATION]:
            blocked[0] = t_product(t, 6, 0)
            win[0] -= blocked[0] - nobody
        elif m.cfg[CFG_NOBODY] == VICTORY:
            win[0] += nobody
        elif m.cfg[CFG_NOBODY] == DEFEAT:
            lose[0] += nobody


cdef void t_brought(const Tail* t, int q, const double* share, double* out) noexcept nogil:
    """Twin: _Tail.brought."""
    cdef bint held[4]
    cdef double unused = 1.0
    cdef int j, s
    for s in range(4):
        out[s] = 0.0
    if t.grey_card and t.hand[q] == 0:
        return
    if not t.burner:
        t_held(t, q, held)
        for j in range(4):
            s = t.rank[4 * q + j]
            if held[s]:
                out[s] = unused
                unused *= 1.0 - t_usable(t, q, s)
        return
    for j in range(4):
        s = t.rank[4 * q + j]
        out[s] = share[s] + (share[JOKER] * unused if t.wild else 0.0)
        unused *= 1.0 - t_usable(t, q, s)


cdef void t_injure(const Tail* t, double* p, double chance, const double* brought) noexcept nogil:
    """Twin: _Tail.injure (``brought[4 q + s]``), applied to the blocks ``p``."""
    cdef int q, s, target
    cdef double moved
    if t.effect == NO_EFFECT:
        return
    target = B_GONE if t.effect == UNUSABLE else B_INJ
    for q in range(t.k):
        for s in range(4):
            moved = chance * brought[4 * q + s] * p[16 * q + 4 * s + B_OK]
            p[16 * q + 4 * s + B_OK] -= moved
            p[16 * q + 4 * s + target] += moved


cdef void t_spend_group_cards(Tail* t) noexcept nogil:
    cdef int q
    if t.burner:
        t.deck -= t.k
    elif t.grey_card:
        for q in range(t.k):
            if t.hand[q] > 0:
                t.hand[q] -= 1


cdef struct Branches:
    int count
    double states[MAX_BRANCH * BLOCKS]
    double open_w[MAX_BRANCH]
    double closed_w[MAX_BRANCH]


cdef void t_window(const Model* m, Tail* t, int attempts, Branches* b) noexcept nogil:
    """Twin: _Tail.window (the branches ``b``: blocks after d Defeats in this window, and their chances)."""
    cdef double brought[4 * MAX_PLAYERS]
    cdef double cached[3 * MAX_BRANCH]
    cdef bint have[MAX_BRANCH]
    cdef double win, lose, blocked, draw, mass, total_open
    cdef int j, q, d
    cdef bint extra
    cdef size_t size = 16 * t.k * sizeof(double)
    for d in range(MAX_BRANCH):
        have[d] = False
    for j in range(attempts):
        total_open = 0.0
        for d in range(b.count):
            total_open += b.open_w[d]
        if total_open < TAIL_EPSILON or (t.burner and t.deck < t.k):
            break
        extra = False
        for q in range(t.k):
            if t.bonus[q] != 0:
                extra = True
        for d in range(b.count - 1, -1, -1):
            if b.open_w[d] <= 0.0:
                continue
            memcpy(t.p, &b.states[d * BLOCKS], size)
            if extra or not have[d]:
                t_attempt(m, t, &win, &lose, &blocked)
                t.work += 8  # an attempt costs about as much as eight nodes
                if not extra:
                    have[d] = True
                    cached[3 * d] = win
                    cached[3 * d + 1] = lose
                    cached[3 * d + 2] = blocked
            else:
                win = cached[3 * d]
                lose = cached[3 * d + 1]
                blocked = cached[3 * d + 2]
            draw = 1.0 - win - lose - blocked
            if d + 1 == b.count and b.count < MAX_BRANCH:
                for q in range(t.k):
                    t_brought(t, q, t.share, &brought[4 * q])
                memcpy(&b.states[(d + 1) * BLOCKS], t.p, size)
                t_injure(t, &b.states[(d + 1) * BLOCKS], 1.0, brought)
                b.open_w[d + 1] = 0.0
                b.closed_w[d + 1] = 0.0
                b.count += 1
            mass = b.open_w[d]
            t.total += mass * win
            b.closed_w[d] += mass * (blocked + (draw if m.cfg[CFG_DRAW_AS_VICTORY] else 0.0))
            b.open_w[d] = mass * (0.0 if m.cfg[CFG_DRAW_AS_VICTORY] else draw)
            if d + 1 < b.count:
                b.open_w[d + 1] += mass * lose
        t_spend_group_cards(t)
        for q in range(t.k):
            t.bonus[q] = 0
    t_merge(t, b)


cdef void t_merge(Tail* t, const Branches* b) noexcept nogil:
    """Twin: _Tail.merge."""
    cdef int d, i
    cdef double weight, share
    t.open = 0.0
    t.closed = 0.0
    for d in range(b.count):
        t.open += b.open_w[d]
    for d in range(b.count):
        t.closed += b.closed_w[d]
    weight = t.open + t.closed
    if weight <= 0.0:
        memcpy(t.p, b.states, 16 * t.k * sizeof(double))
        return
    for i in range(16 * t.k):
        t.p[i] = 0.0
    for d in range(b.count):
        share = (b.open_w[d] + b.closed_w[d]) / weight
        for i in range(16 * t.k):
            t.p[i] += share * b.states[d * BLOCKS + i]


cdef void t_window_now(const Model* m, Tail* t, int attempts) noexcept nogil:
    """A window starting from the current blocks, chances ``t.open`` and ``t.closed``."""
    cdef Branches b
    b.count = 1
    memcpy(b.states, t.p, 16 * t.k * sizeof(double))
    b.open_w[0] = t.open
    b.closed_w[0] = t.closed
    t_window(m, t, attempts, &b)


cdef void t_scene(Tail* t, int q) noexcept nogil:
    """Twin: _Tail.scene."""
    cdef const double* share
    cdef double hits[4]
    cdef double unused = 1.0, fail_ok, fail_inj, keep, failed = 0.0
    cdef double* pr
    cdef double* tokens
    cdef int j, s, w
    if t.hand[q] > 0:
        share = &t.scene_share[CATEGORIES * q]
        t.hand[q] -= 1
    elif t.deck > 0:
        share = t.share
        t.deck -= 1
    else:
        return
    for j in range(4):
        s = t.rank[4 * q + j]
        hits[s] = share[s] + (share[JOKER] * unused if t.wild else 0.0)
        unused *= 1.0 - t_usable(t, q, s)
    keep = t.tokens[4 * q]  # no weaving left: a failure complicates the skill
    for s in range(4):
        pr = &t.p[16 * q + 4 * s]
        fail_ok = hits[s] * pr[B_OK] * POW6[5][t.dice_ok[4 * q + s] + t.bonus[q]]
        fail_inj = hits[s] * pr[B_INJ] * POW6[5][t.dice_inj[4 * q + s] + t.bonus[q]]
        failed += fail_ok + fail_inj
        pr[B_CPL] += (fail_ok + fail_inj) * keep
        pr[B_OK] -= fail_ok * keep
        pr[B_INJ] -= fail_inj * keep
    t.bonus[q] = 0
    tokens = &t.tokens[4 * q]  # a weaving avoids the failure's complication
    tokens[0] += tokens[1] * failed
    for w in range(1, 3):
        tokens[w] = tokens[w] * (1.0 - failed) + tokens[w + 1] * failed
    tokens[3] *= 1.0 - failed


cdef void t_play_round(const Model* m, const int* pos, Tail* t, int first_index, bint new) noexcept nogil:
    """Twin: _Tail.play_round."""
    cdef int index, q, x
    if new and m.cfg[CFG_REFRESH] == REFRESH_ROUND:
        for q in range(m.k):
            for x in range(4):
                t.tokens[4 * q + x] = 1.0 if x == m.cfg[CFG_WEAVINGS] else 0.0
    for index in range(first_index, m.k):
        t_scene(t, order(m, pos, index))


cdef bint t_round_allowed(const Tail* t) noexcept nogil:
    cdef int q, empty = 0
    for q in range(t.k):
        if t.hand[q] == 0:
            empty += 1
    return empty <= t.deck


cdef void t_after_last_group(const Model* m, const int* pos, Tail* t, double victory, double defeat,
                             Branches* b) noexcept nogil:
    """Twin: _Tail.after_last_group."""
    cdef double brought[4 * MAX_PLAYERS]
    cdef double one_hot[CATEGORIES]
    cdef const double* share
    cdef int index, q, slot, s, cat, x
    cdef double lost, draw
    for index in range(m.k):
        q = order(m, pos, index)
        for s in range(4):
            brought[4 * q + s] = 0.0
        if index < pos[POS_TURN]:
            slot = pos[PL(m, q, PL_GROUP_SLOT)]
            if slot >= 0:
                brought[4 * q + pos[SLT(m, slot, SL_SUIT)]] = 1.0
            continue
        share = t.share
        cat = pos[PL(m, q, PL_GROUP_CAT)]
        if t.burner and cat >= 0:
            for x in range(CATEGORIES):
                one_hot[x] = 1.0 if x == cat else 0.0
            share = one_hot
        t_brought(t, q, share, &brought[4 * q])
        if t.grey_card and t.hand[q] > 0:
            t.hand[q] -= 1
    for q in range(m.k):
        t.bonus[q] = 0
    lost = 1.0 - victory
    draw = (lost - defeat) / lost
    b.count = 2
    memcpy(b.states, t.p, 16 * t.k * sizeof(double))
    memcpy(&b.states[BLOCKS], t.p, 16 * t.k * sizeof(double))
    t_injure(t, &b.states[BLOCKS], 1.0, brought)
    if m.cfg[CFG_DRAW_AS_VICTORY]:
        b.open_w[0] = 0.0
        b.open_w[1] = defeat / lost
        b.closed_w[0] = draw
        b.closed_w[1] = 0.0
    else:
        b.open_w[0] = draw
        b.open_w[1] = defeat / lost
        b.closed_w[0] = 0.0
        b.closed_w[1] = 0.0


cdef double estimate(Model* m, const int* pos, int mode, double victory, double defeat) noexcept nogil:
    """Twin: _Model.estimate and _Tail.run."""
    cdef Tail t
    cdef Branches b
    cdef int rounds
    m.estimates += 1
    tail_init(m, pos, &t)
    rounds = tail_rounds(m, pos)
    if mode == TAIL_REST:
        t_play_round(m, pos, &t, ((pos[POS_FOCUS] - pos[POS_FIRST]) % m.k + m.k) % m.k, False)
        t_window_now(m, &t, t.cap)
    elif mode == TAIL_ROUND:
        rounds -= 1
        t_play_round(m, pos, &t, 0, True)
        t_window_now(m, &t, t.cap)
    elif mode == TAIL_FACE:
        t_window_now(m, &t, t.cap - pos[POS_ATTEMPTS] if capped(m) else t.cap)
    else:
        t_after_last_group(m, pos, &t, victory, defeat, &b)
        t_window(m, &t, t.cap - pos[POS_ATTEMPTS] if capped(m) else t.cap - 1, &b)
    while rounds > 0 and t.open + t.closed >= TAIL_EPSILON and t_round_allowed(&t):
        rounds -= 1
        t.open += t.closed
        t.closed = 0.0
        t_play_round(m, pos, &t, 0, True)
        t_window_now(m, &t, t.cap)
    m.work += t.work
    return t.total


cdef inline bint out_of_budget(Model* m) noexcept nogil:
    """Polled as the work grows (every ``POLL_WORK`` units: a node, a leaf of the last Group Scene's draws, an
    estimate's Group Scene): the deadline, or another thread's stop flag."""
    m.work += 1
    if m.work < m.next_poll:
        return False
    m.next_poll = m.work + POLL_WORK
    if m.stop != NULL and (<volatile int32_t*>m.stop)[0] != 0:
        return True
    return m.deadline > 0.0 and now() > m.deadline


cdef double value(Model* m, const int* key_pos) noexcept nogil:
    cdef int pos[MAX_L]
    cdef uint64_t key[MAX_WORDS]
    cdef double result, hit
    cdef int phase = key_pos[POS_PHASE]
    cdef bint beyond = key_pos[POS_GROUPS_LEFT] <= 0 or key_pos[POS_ROUNDS_LEFT] < 0
    if phase == GROUP_DRAW or phase == GROUP_SKILL or phase == GROUP_ROLL:
        if key_pos[POS_GROUPS_LEFT] <= 0 or nothing_after(m, key_pos):
            return final_group(m, key_pos)
    elif beyond and not m.cfg[CFG_TAIL]:
        return 0.0
    cdef bint boundary = (phase == SCENE_CARD or phase == TABLE or phase == AFTER_VICTORY or
                          phase == AFTER_DEFEAT or phase == OVER)
    memcpy(pos, key_pos, m.L * sizeof(int))
    canonical(m, pos)
    if boundary:
        pack(m, pos, key)
        if lookup(m, key, &hit):
            return hit
        if m.size >= m.limit:
            m.aborted = 1
            return 0.0
    m.visits += 1
    if out_of_budget(m):
        m.aborted = 1
        return 0.0
    if phase == OVER:
        result = 0.0
    elif phase == SCENE_CARD and beyond:
        result = estimate(m, pos, TAIL_REST, 0.0, 0.0)
    elif phase == SCENE_DRAW or phase == SCENE_ROLL or phase == GROUP_DRAW or phase == GROUP_ROLL:
        result = chance(m, pos)
    else:
        result = decisions(m, pos)
    if m.aborted:
        return 0.0
    if boundary:
        insert(m, key, result)
    return result


cdef double draw_child(Model* m, const int* pos, int cat, bint group) noexcept nogil:
    cdef int child[MAX_L]
    cdef int q
    memcpy(child, pos, m.L * sizeof(int))
    child[POS_DECK] -= 1
    child[POS_POOL + cat] -= 1
    if group:
        q = drawer(m, pos)
        child[PL(m, q, PL_GROUP_CAT)] = cat
        advance_group(m, child)
    else:
        child[POS_CAT] = cat
        child[POS_PHASE] = SCENE_SKILL
    return value(m, child)


cdef double chance(Model* m, const int* pos) noexcept nogil:
    cdef int child[MAX_L]
    cdef int phase = pos[POS_PHASE]
    cdef int c, q, total = 0, n, mm, slot
    cdef double result = 0.0, p, success, victory, defeat, draw
    if phase == SCENE_DRAW or phase == GROUP_DRAW:
        for c in range(CATEGORIES):
            total += pos[POS_POOL + c]
        for c in range(CATEGORIES):
            if pos[POS_POOL + c] > 0:
                p = pos[POS_POOL + c] / <double>total
                result += p * draw_child(m, pos, c, phase == GROUP_DRAW)
                if m.aborted:
                    return 0.0
        return result
    if phase == SCENE_ROLL:
        n = dice(m, pos, pos[POS_SKILL], pos[POS_HELPER] >= 0)
        success = SUCCESS_TABLE[n]
        if success > 0.0:
            memcpy(child, pos, m.L * sizeof(int))
            roll(m, child, SUCCEEDED)
            result += success * value(m, child)
        if success < 1.0:
            memcpy(child, pos, m.L * sizeof(int))
            roll(m, child, FAILED)
            result += (1.0 - success) * value(m, child)
        return result
    # GROUP_ROLL
    n = 0
    for q in range(m.k):
        slot = pos[PL(m, q, PL_GROUP_SLOT)]
        if slot >= 0:
            n += dice(m, pos, slot, False)
    mm = complications(m, pos)
    if n == 0 and mm == 0:  # nobody rolls: the rules decide (MN-6)
        if m.cfg[CFG_NOBODY] == VICTORY:
            return 1.0
        return after_group(m, pos, m.cfg[CFG_NOBODY])
    if mm == 0:  # only the players roll
        return 1.0
    if n == 0:  # only the Adversary rolls
        return after_group(m, pos, DEFEAT)
    victory = VICTORY_TABLE[n * MAX_ADVERSARY + mm]
    defeat = DEFEAT_TABLE[n * MAX_ADVERSARY + mm]
    draw = 1.0 - victory - defeat
    result = victory + defeat * after_group(m, pos, DEFEAT)
    if m.aborted:
        return 0.0
    return result + draw * after_group(m, pos, DRAW)


cdef double after_group(Model* m, const int* pos, int outcome) noexcept nogil:
    cdef int child[MAX_L]
    cdef int q
    memcpy(child, pos, m.L * sizeof(int))
    for q in range(m.k):
        if child[PL(m, q, PL_GROUP_SLOT)] >= 0:
            child[PL(m, q, PL_BONUS)] = 0
    if outcome == DEFEAT:
        injure(m, child)
        child[POS_PHASE] = AFTER_DEFEAT
    else:
        child[POS_PHASE] = AFTER_VICTORY if m.cfg[CFG_DRAW_AS_VICTORY] else AFTER_DEFEAT
    for q in range(m.k):
        child[PL(m, q, PL_GROUP_CAT)] = -1
        child[PL(m, q, PL_GROUP_SLOT)] = -1
    child[POS_TURN] = 0
    return value(m, child)


cdef inline double better(double best, double v) noexcept nogil:
    return v if v > best else best


cdef double decisions(Model* m, const int* pos) noexcept nogil:
    cdef int child[MAX_L]
    cdef int buf[MAX_SLOTS]
    cdef int phase = pos[POS_PHASE]
    cdef int p = pos[POS_FOCUS]
    cdef int cat, j, n, q, i
    cdef bint has, can_group
    cdef double best = 0.0
    if phase == SCENE_CARD:
        for cat in range(CATEGORIES):
            if pos[PL(m, p, PL_KNOWN)]:
                has = pos[PL(m, p, PL_HAND + cat)] > 0
            else:
                has = pos[PL(m, p, PL_HAND_SIZE)] > 0 and pos[POS_POOL + cat] > 0
            if has:
                memcpy(child, pos, m.L * sizeof(int))
                take_card(m, child, p, cat)
                child[POS_CAT] = cat
                child[POS_PHASE] = SCENE_SKILL
                best = better(best, value(m, child))
                if m.aborted:
                    return 0.0
        if pos[POS_DECK] > 0:
            memcpy(child, pos, m.L * sizeof(int))
            child[POS_PHASE] = SCENE_DRAW
            best = better(best, value(m, child))
        return best
    if phase == SCENE_SKILL:
        return skill_choices(m, pos)
    if phase == SCENE_HELP:
        n = available(m, pos, pos[POS_HELPER], buf)
        for j in range(n):
            memcpy(child, pos, m.L * sizeof(int))
            child[POS_HELPER_SKILL] = buf[j]
            to_roll(m, child)
            best = better(best, value(m, child))
            if m.aborted:
                return 0.0
        return best
    if phase == SCENE_WEAVE:
        memcpy(child, pos, m.L * sizeof(int))
        finish_scene(m, child, W_NONE, 0)
        best = better(best, value(m, child))
        for q in range(m.k):
            if q != p and not m.aborted:
                memcpy(child, pos, m.L * sizeof(int))
                finish_scene(m, child, W_GIVE, q)
                best = better(best, value(m, child))
        if pos[POS_RESULT] == FAILED and not m.aborted:
            memcpy(child, pos, m.L * sizeof(int))
            finish_scene(m, child, W_AVOID, 0)
            best = better(best, value(m, child))
        if m.cfg[CFG_REPAIR]:
            for i in range(m.slot_first[p], m.slot_end[p]):
                if (pos[SLT(m, i, SL_STATUS)] & COMPLICATED) and not m.aborted:
                    memcpy(child, pos, m.L * sizeof(int))
                    finish_scene(m, child, W_REPAIR, i)
                    best = better(best, value(m, child))
        return 0.0 if m.aborted else best
    if phase == GROUP_SKILL:
        q = order(m, pos, pos[POS_TURN])
        if m.cfg[CFG_GREY] and m.cfg[CFG_GREY_CARD]:
            for cat in range(CATEGORIES):  # Into the Grey: a card of the skill's suit is discarded
                if not holds(m, pos, q, cat):
                    continue
                n = matching(m, pos, q, cat, buf)
                for j in range(n):
                    memcpy(child, pos, m.L * sizeof(int))
                    take_card(m, child, q, cat)
                    child[PL(m, q, PL_GROUP_CAT)] = cat
                    child[PL(m, q, PL_GROUP_SLOT)] = buf[j]
                    child[POS_TURN] += 1
                    advance_group(m, child)
                    best = better(best, value(m, child))
                    if m.aborted:
                        return 0.0
            return best
        n = group_options(m, pos, q, buf)
        for j in range(n):
            memcpy(child, pos, m.L * sizeof(int))
            child[PL(m, q, PL_GROUP_SLOT)] = buf[j]
            child[POS_TURN] += 1
            advance_group(m, child)
            best = better(best, value(m, child))
            if m.aborted:
                return 0.0
        return best
    # TABLE, AFTER_VICTORY, AFTER_DEFEAT: ending is worth 0; past the horizon an option is estimated
    can_group = group_allowed(m, pos) and (phase == TABLE or (phase == AFTER_DEFEAT and try_again(m, pos)))
    if can_group:
        if pos[POS_GROUPS_LEFT] > 0:
            memcpy(child, pos, m.L * sizeof(int))
            start_group(m, child)
            best = better(best, value(m, child))
        elif m.cfg[CFG_TAIL]:
            best = better(best, estimate(m, pos, TAIL_FACE, 0.0, 0.0))
    if round_allowed(m, pos) and not m.aborted:
        if pos[POS_ROUNDS_LEFT] > 0:
            memcpy(child, pos, m.L * sizeof(int))
            start_round(m, child)
            best = better(best, value(m, child))
        elif tail_rounds(m, pos) > 0:
            best = better(best, estimate(m, pos, TAIL_ROUND, 0.0, 0.0))
    return 0.0 if m.aborted else best


cdef double skill_choices(Model* m, const int* pos) noexcept nogil:
    cdef int child[MAX_L]
    cdef int match[MAX_SLOTS]
    cdef int mine[MAX_SLOTS]
    cdef int theirs[MAX_SLOTS]
    cdef int p = pos[POS_FOCUS], cat = pos[POS_CAT]
    cdef int nmatch, nmine, j, q, suit, free_slot = -1, options = 0, i
    cdef double best = 0.0
    nmatch = matching(m, pos, p, cat, match)
    for j in range(nmatch):
        memcpy(child, pos, m.L * sizeof(int))
        child[POS_SKILL] = match[j]
        to_roll(m, child)
        best = better(best, value(m, child))
        options += 1
        if m.aborted:
            return 0.0
    for i in range(m.slot_first[p], m.slot_end[p]):
        if not present(m, pos, i):
            free_slot = i
            break
    if m.cfg[CFG_LEARN] and free_slot >= 0 and not (m.cfg[CFG_LEARN_ONLY] and nmatch > 0):
        for suit in range(4):
            if cat != JOKER and suit != cat:
                continue
            if cat == JOKER and not m.cfg[CFG_JOKER_WILD]:
                continue
            memcpy(child, pos, m.L * sizeof(int))
            child[SLT(m, free_slot, SL_SUIT)] = suit
            child[SLT(m, free_slot, SL_STATUS)] = 0
            child[POS_SKILL] = free_slot
            to_roll(m, child)
            best = better(best, value(m, child))
            options += 1
            if m.aborted:
                return 0.0
    if not (m.cfg[CFG_HELP_ONLY] and nmatch > 0):
        nmine = available(m, pos, p, mine)
        for q in range(m.k):
            if q == p or available(m, pos, q, theirs) == 0:
                continue
            for j in range(nmine):
                memcpy(child, pos, m.L * sizeof(int))
                child[POS_SKILL] = mine[j]
                child[POS_HELPER] = q
                child[POS_PHASE] = SCENE_HELP
                best = better(best, value(m, child))
                options += 1
                if m.aborted:
                    return 0.0
    if options == 0 or (nmatch == 0 and m.cfg[CFG_PASS]):
        memcpy(child, pos, m.L * sizeof(int))
        child[POS_RESULT] = PASSED
        to_weave(m, child)
        best = better(best, value(m, child))
    return 0.0 if m.aborted else best


# -- probability tables, computed once at import ----------------------------------------------------
cdef double SUCCESS_TABLE[MAX_DICE]
cdef double VICTORY_TABLE[MAX_DICE * MAX_ADVERSARY]
cdef double DEFEAT_TABLE[MAX_DICE * MAX_ADVERSARY]


cdef void fill_tables() noexcept nogil:
    cdef int n, w, i
    for i in range(7):
        for n in range(POW_LENGTH):
            POW6[i][n] = pow(i / 6.0, n)
    for n in range(MAX_DICE):
        SUCCESS_TABLE[n] = 1.0 - pow(5.0 / 6.0, n)
        for w in range(MAX_ADVERSARY):
            VICTORY_TABLE[n * MAX_ADVERSARY + w] = group_victory(n, w, &DEFEAT_TABLE[n * MAX_ADVERSARY + w])


fill_tables()


# -- Python entry -------------------------------------------------------------------------------
cdef int field_width(int f, int k) noexcept:
    """Bits for field ``f`` (values -1..2**w - 2 are stored as value + 1)."""
    cdef int slots_at = HEADER + PLAYER_STRIDE * k
    if f >= slots_at:
        return 3 if (f - slots_at) % SLOT_STRIDE == SL_SUIT else 4
    if f >= HEADER:
        f = (f - HEADER) % PLAYER_STRIDE
        if f == PL_KNOWN:
            return 2
        if f == PL_TOKENS:
            return 3
        if f == PL_GROUP_CAT:
            return 3
        if f == PL_GROUP_SLOT or f == PL_BONUS:
            return 7  # a bonus of up to 63 grows by at most one die a scene: (6 + 1) rounds * 6 scenes
        return 6  # hand size, hand counts
    if f == POS_PHASE:
        return 4
    if f == POS_DECK or (POS_POOL <= f < POS_POOL + CATEGORIES):
        return 6
    if f == POS_SKILL or f == POS_HELPER_SKILL:
        return 7
    if f == POS_RESULT:
        return 2
    return 3  # focus, first, rounds, groups, attempts, cat, helper, turn


def plan_values(const int32_t[::1] config, const int32_t[:, ::1] skills, const int32_t[:, ::1] positions, long limit,
                double seconds, const int32_t[::1] stop=None):
    """Values of every position row, as floats (the twin's, to 1e-12): the chance of a Victory within the
    horizon, or with ``config[CFG_TAIL]`` the estimated chance in the rest of the session.

    ``limit`` caps the memoised states, ``seconds`` the time (0: no time limit); another thread stops the search
    by setting ``stop[0]`` (polled every 1024 nodes with the clock). Returns ``(values, states, complete,
    estimates)`` like the twin.
    """
    cdef Model* m
    cdef int f, q, i, w, k, s, L, total_bits = 0
    cdef Py_ssize_t r, rows = positions.shape[0]
    cdef int pos[MAX_L]
    cdef double v
    cdef list out = []
    if config.shape[0] != CONFIG_LENGTH:
        raise ValueError(f"config: expected {CONFIG_LENGTH} integers")
    k, s = config[CFG_PLAYERS], config[CFG_SLOTS]
    if not 1 <= k <= MAX_PLAYERS or not 0 <= s <= MAX_SLOTS or skills.shape[0] != s or (s > 0 and skills.shape[1] != 2):
        raise ValueError("config/skills: 1-6 players, at most 64 slots, skills of shape (slots, 2)")
    L = HEADER + PLAYER_STRIDE * k + SLOT_STRIDE * s
    if rows > 0 and positions.shape[1] != L:
        raise ValueError(f"positions: expected rows of {L} integers")
    if limit < 1:
        raise ValueError("limit: must be at least 1")
    m = <Model*>calloc(1, sizeof(Model))
    if m == NULL:
        raise MemoryError()
    try:
        m.k, m.s, m.L = k, s, L
        for f in range(CONFIG_LENGTH):
            m.cfg[f] = config[f]
        if not 0 <= config[CFG_HELP_DICE] <= 3 or not 0 <= config[CFG_WEAVINGS] <= 3:
            raise ValueError("config: help dice and weavings must lie in 0..3")
        if not 0 <= config[CFG_MAX_ATTEMPTS] <= 6 or not 0 <= config[CFG_TAIL_ROUNDS] <= MAX_TAIL_ROUNDS:
            raise ValueError(f"config: attempts 0..6 (0: no cap), continuation rounds 0..{MAX_TAIL_ROUNDS}")
        if stop is not None:
            if stop.shape[0] != 1:
                raise ValueError("stop: expected 1 entry")
            m.stop = &stop[0]
        for q in range(k):
            m.slot_first[q] = s
            m.slot_end[q] = 0
        for i in range(s):
            m.owner[i] = skills[i, 0]
            m.rating[i] = skills[i, 1]
            q = skills[i, 0]
            if not 0 <= q < k or not 0 <= skills[i, 1] <= 10:
                raise ValueError(f"skills[{i}]: owner out of range or rating outside 0..10")
            if i < m.slot_first[q]:
                m.slot_first[q] = i
            if i + 1 > m.slot_end[q]:
                m.slot_end[q] = i + 1
        for q in range(k):
            if m.slot_first[q] > m.slot_end[q]:
                m.slot_first[q] = m.slot_end[q] = 0
            for i in range(m.slot_first[q], m.slot_end[q]):
                if m.owner[i] != q:
                    raise ValueError("skills: the slots of one player must be contiguous")
        for f in range(L):
            w = field_width(f, k)
            m.width[f] = w
            total_bits += w
        m.words = (total_bits + 63) // 64
        if m.words > MAX_WORDS:
            raise ValueError("positions: the layout does not fit the kernel's key size")
        for r in range(rows):
            for f in range(L):
                if positions[r, f] < -1 or positions[r, f] + 1 >= (1 << m.width[f]):
                    raise ValueError(f"positions[{r}][{f}]: {positions[r, f]} does not fit the kernel's layout")
            for q in range(k):
                if positions[r, PL(m, q, PL_BONUS)] > MAX_BONUS:
                    raise ValueError(f"positions[{r}]: player {q} has more than {MAX_BONUS} extra dice")
        m.cap = 1024
        m.limit = limit
        m.deadline = now() + seconds if seconds > 0 else 0.0
        m.keys = <uint64_t*>malloc(m.cap * m.words * sizeof(uint64_t))
        m.values = <double*>malloc(m.cap * sizeof(double))
        m.used = <unsigned char*>calloc(m.cap, 1)
        if m.keys == NULL or m.values == NULL or m.used == NULL:
            raise MemoryError()
        for r in range(rows):
            for f in range(L):
                pos[f] = positions[r, f]
            with nogil:
                v = value(m, pos)
            if m.aborted:
                break
            out.append(v)
        if m.failed_alloc:
            raise MemoryError("mnemonic_plan: out of memory for the memo table")
        if m.aborted:
            return [0.0] * rows, m.size, False, m.estimates
        return out, m.size, True, m.estimates
    finally:
        free(m.keys)
        free(m.values)
        free(m.used)
        free(m)
