"""Mnemonic round planner: exact expectimax over the planning model (compiled kernel).

The model (layout and transitions) is ``mnemonic_model.pxd``, the continuation estimate ``mnemonic_estimate.pxd``;
this module is the search. Twin: ``solver/twins/mnemonic_plan.py`` (with ``mnemonic_model.py`` and
``mnemonic_estimate.py``), which documents the model, the arrays and every transition; these files follow it
function by function.
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
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy
from libc.math cimport pow
from common cimport HashTable, NO_LIMIT, table_init, table_free, table_lookup, table_store, monotonic_seconds
from mnemonic_model cimport *
from mnemonic_estimate cimport estimate

cdef double POW6[7][POW_LENGTH]  # POW6[i][d] = (i / 6) ** d (twin: POW6)
# POWERS[i][d] = pow(i / 6.0, d) for every dice count: 7,168 calls of pow at import, where computing each
# group's chances with pow took 1.6 million (80 ms of every process that imports the planner, issue 24)
cdef double POWERS[7][MAX_DICE]


# -- the memo (``common.pxd``'s table) --------------------------------------------------------------
cdef inline bint lookup(const Model* m, const uint64_t* key, double* out) noexcept nogil:
    return table_lookup(&m.memo, key, out)


cdef inline void insert(Model* m, const uint64_t* key, double value) noexcept nogil:
    if table_store(&m.memo, key, value) != 0:
        m.failed_alloc = 1
        m.aborted = 1


# -- the recursion (twin: value, chance, decisions, skill_choices) ---------------------------------
cdef double group_victory(int n, int mm, double* defeat) noexcept nogil:
    """The chance that the best of ``n`` dice beats the best of ``mm`` (and, in ``defeat``, loses to it), from
    the powers in POWERS (the same ``pow(v / 6.0, d)`` values, so the same sums to the last bit)."""
    cdef int v
    cdef double victory = 0.0, lose = 0.0
    for v in range(1, 7):
        if n > 0:
            victory += (POWERS[v][n] - POWERS[v - 1][n]) * POWERS[v - 1][mm]
        if mm > 0:
            lose += (POWERS[v][mm] - POWERS[v - 1][mm]) * POWERS[v - 1][n]
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


cdef inline bint out_of_budget(Model* m) noexcept nogil:
    """Polled as the work grows (every ``POLL_WORK`` units: a node, a leaf of the last Group Scene's draws, an
    estimate's Group Scene): the deadline, or another thread's stop flag."""
    m.work += 1
    if m.work < m.next_poll:
        return False
    m.next_poll = m.work + POLL_WORK
    if m.stop != NULL and (<volatile int32_t*>m.stop)[0] != 0:
        return True
    return m.deadline > 0.0 and monotonic_seconds() > m.deadline


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
        if m.memo.size >= m.limit:
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
        for n in range(MAX_DICE):
            POWERS[i][n] = pow(i / 6.0, n)
        for n in range(POW_LENGTH):
            POW6[i][n] = POWERS[i][n]
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
        m.limit = limit
        m.deadline = monotonic_seconds() + seconds if seconds > 0 else 0.0
        m.pow6 = &POW6[0][0]
        if table_init(&m.memo, m.words, 1024, NO_LIMIT, 5) != 0:
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
            return [0.0] * rows, m.memo.size, False, m.estimates
        return out, m.memo.size, True, m.estimates
    finally:
        table_free(&m.memo)
        free(m)
