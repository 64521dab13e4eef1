# cython: language_level=3
"""The Mnemonic planner's continuation estimate (MN-44): the chance of a Victory in the rest of the session beyond
the exact horizon, from the position's players, skills and cards (inline, for ``mnemonic_plan.pyx``).

Twin: ``solver/twins/mnemonic_estimate.py`` (class ``Tail``), which this file follows function by function.
"""

from libc.string cimport memcpy, memset
from mnemonic_model cimport *

cdef extern from *:
    """
    #define MNEMONIC_TAIL_EPSILON 1e-9
    """
    const double TAIL_EPSILON "MNEMONIC_TAIL_EPSILON"  # twin: TAIL_EPSILON


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
    const double* powers  # the model's pow6 table


cdef inline double pow6(const Tail* t, int i, int d) noexcept nogil:
    """(i / 6) ** d, from the model's table (twin: POW6)."""
    return t.powers[POW_LENGTH * i + d]


cdef inline void tail_init(const Model* m, const int* pos, Tail* t) noexcept nogil:
    cdef int q, x, suit, i, d, best, best_slot, total = 0, size, a, b, tmp
    t.k = m.k
    t.powers = m.pow6
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
    return (pr[B_OK] * pow6(t, x, t.dice_ok[4 * q + s] + extra) + pr[B_INJ] * pow6(t, x, t.dice_inj[4 * q + s] + extra)
            + pr[B_CPL] * y + pr[B_GONE])


cdef inline double t_best_of(const Tail* t, int q, const bint* held, int x, double y, const double* idle) noexcept nogil:
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
        total += (pr[B_OK] * pow6(t, x, t.dice_ok[4 * q + s] + t.bonus[q])
                  + pr[B_INJ] * pow6(t, x, t.dice_inj[4 * q + s] + t.bonus[q])) * before * after
        before *= pr[B_CPL] * y + pr[B_GONE]
    total += before
    for s in range(4):
        if not held[s]:
            total *= idle[s]
    return total


cdef inline void t_held(const Tail* t, int q, bint* held) noexcept nogil:
    """Twin: _Tail.held."""
    cdef int s
    for s in range(4):
        if not t.grey_card:
            held[s] = True
        elif t.wild and t.scene_share[CATEGORIES * q + JOKER] > 0:
            held[s] = True
        else:
            held[s] = t.scene_share[CATEGORIES * q + s] > 0


cdef inline double t_expect(const Tail* t, int q, int x, int yi) noexcept nogil:
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


cdef inline double t_product(const Tail* t, int x, int y) noexcept nogil:
    """Twin: _Tail.product (bases in sixths)."""
    cdef double out = 1.0
    cdef int q
    for q in range(t.k):
        out *= t_expect(t, q, x, y)
    return out


cdef inline void t_attempt(const Model* m, Tail* t, double* win, double* lose, double* blocked) noexcept nogil:
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
            win[0] += pow6(t, v - 1, t.m0) * (t_product(t, v, v - 1) - both)
        lose[0] += pow6(t, v, t.m0) * t_product(t, v - 1, v) - pow6(t, v - 1, t.m0) * both
    if t.m0 == 0:
        nobody = t_product(t, 0, 0)
        if m.cfg[CFG_NEEDS_COMPLICATION]:
            blocked[0] = t_product(t, 6, 0)
            win[0] -= blocked[0] - nobody
        elif m.cfg[CFG_NOBODY] == VICTORY:
            win[0] += nobody
        elif m.cfg[CFG_NOBODY] == DEFEAT:
            lose[0] += nobody


cdef inline void t_brought(const Tail* t, int q, const double* share, double* out) noexcept nogil:
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


cdef inline void t_injure(const Tail* t, double* p, double chance, const double* brought) noexcept nogil:
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


cdef inline void t_spend_group_cards(Tail* t) noexcept nogil:
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


cdef inline void t_window(const Model* m, Tail* t, int attempts, Branches* b) noexcept nogil:
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


cdef inline void t_merge(Tail* t, const Branches* b) noexcept nogil:
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


cdef inline void t_window_now(const Model* m, Tail* t, int attempts) noexcept nogil:
    """A window starting from the current blocks, chances ``t.open`` and ``t.closed``."""
    cdef Branches b
    b.count = 1
    memcpy(b.states, t.p, 16 * t.k * sizeof(double))
    b.open_w[0] = t.open
    b.closed_w[0] = t.closed
    t_window(m, t, attempts, &b)


cdef inline void t_scene(Tail* t, int q) noexcept nogil:
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
        fail_ok = hits[s] * pr[B_OK] * pow6(t, 5, t.dice_ok[4 * q + s] + t.bonus[q])
        fail_inj = hits[s] * pr[B_INJ] * pow6(t, 5, t.dice_inj[4 * q + s] + t.bonus[q])
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


cdef inline void t_play_round(const Model* m, const int* pos, Tail* t, int first_index, bint new) noexcept nogil:
    """Twin: _Tail.play_round."""
    cdef int index, q, x
    if new and m.cfg[CFG_REFRESH] == REFRESH_ROUND:
        for q in range(m.k):
            for x in range(4):
                t.tokens[4 * q + x] = 1.0 if x == m.cfg[CFG_WEAVINGS] else 0.0
    for index in range(first_index, m.k):
        t_scene(t, order(m, pos, index))


cdef inline bint t_round_allowed(const Tail* t) noexcept nogil:
    cdef int q, empty = 0
    for q in range(t.k):
        if t.hand[q] == 0:
            empty += 1
    return empty <= t.deck


cdef inline void t_after_last_group(const Model* m, const int* pos, Tail* t, double victory, double defeat,
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


cdef inline double estimate(Model* m, const int* pos, int mode, double victory, double defeat) noexcept nogil:
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
