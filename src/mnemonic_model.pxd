# cython: language_level=3
"""The Mnemonic planning model: the position layout, what a position allows, and every transition (inline).

Shared by the planner's search (``mnemonic_plan.pyx``) and its continuation estimate (``mnemonic_estimate.pxd``).
Twin: ``solver/twins/mnemonic_model.py``, which documents the model, the arrays and every transition; this file
follows it function by function.
"""

from libc.stdint cimport uint64_t, int32_t
from libc.string cimport memset
from common cimport HashTable

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
    HashTable memo  # packed state (``words`` words) -> value
    size_t limit
    const double* pow6  # pow6[POW_LENGTH * i + d] = (i / 6) ** d (twin: POW6), the search module's table
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


cdef inline void begin_scene(const Model* m, int* pos, int index) noexcept nogil:
    while index < m.k and not can_play(m, pos, order(m, pos, index)):
        index += 1
    reset_scene(pos)
    if index >= m.k:
        pos[POS_PHASE] = TABLE
        pos[POS_FOCUS] = pos[POS_FIRST]
    else:
        pos[POS_PHASE] = SCENE_CARD
        pos[POS_FOCUS] = order(m, pos, index)


cdef inline void start_round(const Model* m, int* pos) noexcept nogil:
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


cdef inline void advance_group(const Model* m, int* pos) noexcept nogil:
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


cdef inline void start_group(const Model* m, int* pos) noexcept nogil:
    cdef int q
    pos[POS_GROUPS_LEFT] -= 1
    if capped(m):
        pos[POS_ATTEMPTS] += 1
    pos[POS_TURN] = 0
    for q in range(m.k):
        pos[PL(m, q, PL_GROUP_CAT)] = -1
        pos[PL(m, q, PL_GROUP_SLOT)] = -1
    advance_group(m, pos)


cdef inline void finish_scene(const Model* m, int* pos, int kind, int arg) noexcept nogil:
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


cdef inline void injure(const Model* m, int* pos) noexcept nogil:
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


cdef inline void canonical(const Model* m, int* pos) noexcept nogil:
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


# -- the memo key --------------------------------------------------------------------------------
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
