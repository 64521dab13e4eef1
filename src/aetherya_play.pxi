"""Greedy Aetherya playouts on a packed state vector (compiled kernel).

Twin: ``solver/twins/aetherya_play.py`` (same functions, same results, same
splitmix64 random numbers); the packed layout and the greedy policy are
documented there and in ``docs/rules/aetherya.md`` ("Playouts").
"""

from libc.stdint cimport uint64_t, uint32_t, uint8_t, int32_t
from libc.string cimport memcpy
from common cimport splitmix64, stream_seed, below_high as below
from aetherya_board cimport (PLAINS, FOREST, MOUNTAIN, SWAMP, HUMANS, ELVES, DWARVES, GOBLINS, DRAGON, PORTAL,
                             UNEXPLORED, CODES, CELLS, Tally, popcount, lowest_bit, kind_masks, connect_cells,
                             score_cards, tally)
from aetherya_needs cimport needs_of
from aetherya_greedy cimport row_legends, best_legend, score, board, with_legends, value_of, keep_best
from aetherya_solo cimport (REVEAL_COST, REVEAL_COST_AFTER, solo_avail, solo_left, solo_value, place_value,
                            reveal_value, may_turn, solo_best_place, solo_best_reveal)
from aetherya_packed cimport *
from aetherya_row cimport A_TAKE, A_DRAW, A_PLACE, A_REVEAL, A_CLAIM, A_END

cdef extern from "aetherya_lanes.h" nogil:
    void aetherya_lanes_score(const uint8_t* kingdoms, int32_t* out, Py_ssize_t n, int level)

cdef enum:
    LANE_COLUMNS = 8      # aetherya_lanes_score's output: ..., 6 the board total, 7 the Legends met
    WIDEST = 2            # the widest vector path the CPU has (aetherya_lanes.h caps it)

cdef int LEGEND_POINTS[16]
LEGEND_POINTS[:] = [0, 2, 2, 2, 2, 2, 2, 4, 3, 3, 3, 3, 4, 4, 4, 4]
cdef int CENTRE[4]
CENTRE[:] = [5, 6, 9, 10]
cdef int CORNERS[9]
CORNERS[:] = [0, 1, 2, 4, 5, 6, 8, 9, 10]


# ---------------------------------------------------------------------- random numbers
# A playout keeps four words: rng[0] the policy's choices (tie-breaks, the cell revealed), rng[1] the cards drawn,
# rng[2] the Legends dealt, rng[3] the seed. Separate streams make the draws of a playout the same whatever the
# policy chose, so the candidates a hint compares on one world meet the same cards (common random numbers); a
# solo Age restarts every stream from the seed and the Age's number.
cdef enum:
    POLICY_STREAM = 0
    CARD_STREAM = 1
    LEGEND_STREAM = 2
    SEED_WORD = 3
    STREAMS = 4


cdef void seed_streams(uint64_t* rng, uint64_t seed, int age) noexcept nogil:
    cdef uint64_t base = seed ^ (<uint64_t>age * 0xD1B54A32D192ED03ULL)
    rng[CARD_STREAM] = base
    rng[POLICY_STREAM] = splitmix64(&base) ^ 0x5851F42D4C957F2DULL
    rng[LEGEND_STREAM] = splitmix64(&base) ^ 0x2545F4914F6CDD1DULL
    rng[SEED_WORD] = seed


cdef int best_place_lanes(const int* s, int seat, int card, const int* k, uint64_t* rng,
                          int* value_out) noexcept nogil:
    """:func:`best_place_on` without Accords and Staffs (base and co-op): every trial kingdom scored in one batch
    (``aetherya_lanes.h``, the rules of ``tally`` on bit planes, bit for bit), then weighed in cell order."""
    cdef uint8_t trials[16 * 16]
    cdef uint8_t codes[16]
    cdef int32_t scored[16 * LANE_COLUMNS]
    cdef int cells[16]
    cdef int c, i, v, n = 0, best_cell = -1, best_value = NEG, ties = 0
    cdef unsigned int hidden = <unsigned int>s[HID + seat]
    cdef uint32_t row = row_legends(s), met
    for c in range(16):
        codes[c] = <uint8_t>k[c]
    for c in range(16):
        if not (hidden >> c) & 1 and (k[c] == DRAGON or k[c] == PORTAL or k[c] == card):
            continue
        memcpy(&trials[16 * n], codes, 16)
        trials[16 * n + c] = <uint8_t>card
        cells[n] = c
        n += 1
    if n:
        aetherya_lanes_score(trials, scored, n, WIDEST)
    for i in range(n):
        met = <uint32_t>scored[i * LANE_COLUMNS + 7]
        v = scored[i * LANE_COLUMNS + 6]
        v = v + best_legend(met & row) if row else with_legends(s, v, met)
        keep_best(v, cells[i], &best_value, &best_cell, &ties, rng)
    value_out[0] = best_value
    return best_cell


cdef int best_place_on(const int* s, int seat, int card, int* k, uint32_t* kinds, const uint32_t* ortho,
                       const uint32_t* conn, uint64_t* rng, int* value_out) noexcept nogil:
    """The best cell for ``card`` by :func:`value_of` (ties at random) and its value, on the board ``k`` of
    ``seat`` with its kind masks and connections (restored on return): each trial changes one cell's bit (a
    Portal placed changes the connections: those trials are scored whole). Without Accords and Staffs the
    trials are scored in one batch (:func:`best_place_lanes`)."""
    cdef Tally tl
    cdef int c, old, v, best_cell = -1, best_value = NEG, ties = 0
    cdef unsigned int hidden = <unsigned int>s[HID + seat], bit
    cdef uint32_t row = row_legends(s)
    if s[ACC + seat] == 0 and s[STF + seat] == 0:
        return best_place_lanes(s, seat, card, k, rng, value_out)
    for c in range(16):
        old = k[c]
        if not (hidden >> c) & 1 and (old == DRAGON or old == PORTAL or old == card):
            continue
        if card == PORTAL:
            k[c] = card
            v = value_of(s, seat, k)
            k[c] = old
        else:
            bit = (<uint32_t>1) << c
            kinds[old] &= ~bit
            kinds[card] |= bit
            tally(kinds, ortho, conn, <uint32_t>s[ACC + seat], <uint32_t>s[STF + seat], True, &tl)
            kinds[card] &= ~bit
            kinds[old] |= bit
            v = tl.total + best_legend(tl.legends & row) if row else with_legends(s, tl.total, tl.legends)
        keep_best(v, c, &best_value, &best_cell, &ties, rng)
    value_out[0] = best_value
    return best_cell


cdef int best_place(const int* s, int seat, int card, uint64_t* rng, int* value_out) noexcept nogil:
    cdef int k[16]
    cdef uint32_t kinds[CODES]
    cdef uint32_t ortho[CELLS]
    cdef uint32_t conn[CELLS]
    board(s, seat, k)
    kind_masks(k, kinds)
    connect_cells(kinds[PORTAL], ortho, conn)
    return best_place_on(s, seat, card, k, kinds, ortho, conn, rng, value_out)


# ---------------------------------------------------------------------- piles
cdef inline int pile_total(const int* s) noexcept nogil:
    cdef int kind, total = 0
    for kind in range(10):
        total += s[P_PILE + kind]
    return total


cdef int draw(int* s, uint64_t* rng) noexcept nogil:
    """A card from the pile (never called on an empty pile), from the card stream."""
    cdef int kind, r = below(rng + CARD_STREAM, pile_total(s))
    for kind in range(10):
        if r < s[P_PILE + kind]:
            s[P_PILE + kind] -= 1
            return kind
        r -= s[P_PILE + kind]
    return 0


cdef inline void play_push(int* s, int pile, int card) noexcept nogil:
    cdef int n = s[DLEN + pile]
    if n < P_DISC_CAP:
        s[P_DISC + pile * P_DISC_CAP + n] = card
        s[DLEN + pile] = n + 1


cdef inline int pop_discard(int* s, int pile) noexcept nogil:
    s[DLEN + pile] -= 1
    return s[P_DISC + pile * P_DISC_CAP + s[DLEN + pile]]


cdef inline void place(int* s, int seat, int cell, int card) noexcept nogil:
    play_push(s, 0, s[CARDS + seat * 16 + cell])
    s[CARDS + seat * 16 + cell] = card
    s[HID + seat] &= ~(1 << cell)
    s[ACC + seat] &= ~(1 << cell)


cdef void reveal_random(int* s, int seat, uint64_t* rng) noexcept nogil:
    cdef unsigned int hidden = <unsigned int>s[HID + seat]
    cdef int c, r = below(rng, popcount(hidden))
    for c in range(16):
        if (hidden >> c) & 1:
            if r == 0:
                s[HID + seat] &= ~(1 << c)
                return
            r -= 1


cdef void refill(int* s, uint64_t* rng) noexcept nogil:
    cdef int visible, deck, n, r
    while True:
        visible = 0
        deck = 0
        for n in range(1, 16):
            visible += s[P_ROW + n]
            deck += s[P_DECK + n]
        if visible >= s[P_ROW_TARGET] or deck == 0:
            return
        r = below(rng + LEGEND_STREAM, deck)
        for n in range(1, 16):
            if s[P_DECK + n]:
                if r == 0:
                    s[P_DECK + n] = 0
                    s[P_ROW + n] = 1
                    break
                r -= 1


cdef unsigned int claimable_mask(const int* s, int seat) noexcept nogil:
    cdef int k[16]
    cdef unsigned int legends
    board(s, seat, k)
    score(k, <unsigned int>s[ACC + seat], <unsigned int>s[STF + seat], &legends)
    return legends


# ---------------------------------------------------------------------- one turn
cdef int turn(int* s, uint64_t* rng) noexcept nogil:
    cdef int seat = s[TO_MOVE]
    cdef int k[16]
    cdef uint32_t kinds[CODES]
    cdef uint32_t ortho[CELLS]
    cdef uint32_t conn[CELLS]
    cdef Tally now
    cdef int cur, piles, pile, top, cell, v, best_pile = -1, best_cell = -1, best_v = NEG, card
    board(s, seat, k)  # the board, its kind masks and connections: one for every placement weighed this turn
    kind_masks(k, kinds)
    connect_cells(kinds[PORTAL], ortho, conn)
    tally(kinds, ortho, conn, <uint32_t>s[ACC + seat], <uint32_t>s[STF + seat], True, &now)
    cur = with_legends(s, now.total, now.legends)
    piles = 2 if s[MODE] == P_COOP else 1
    for pile in range(piles):
        if s[DLEN + pile] > 0:
            top = s[P_DISC + pile * P_DISC_CAP + s[DLEN + pile] - 1]
            cell = best_place_on(s, seat, top, k, kinds, ortho, conn, rng, &v)
            if v > best_v:
                best_pile = pile
                best_cell = cell
                best_v = v
    if best_pile >= 0 and (best_v > cur or pile_total(s) == 0):
        card = pop_discard(s, best_pile)
        place(s, seat, best_cell, card)
    else:
        card = draw(s, rng)
        cell = best_place_on(s, seat, card, k, kinds, ortho, conn, rng, &v)
        if v > cur:
            place(s, seat, cell, card)
        else:
            play_push(s, 0, card)
            reveal_random(s, seat, rng)
    return 1 if s[HID + seat] == 0 else 0


# ---------------------------------------------------------------------- solo: one turn
# The solo policy's value of a kingdom (how close it is to the Age's Legends) and its best moves: aetherya_solo.pxd.
cdef int solo_turn(int* s, uint64_t* rng) noexcept nogil:
    """One solo turn: the discard top and a drawn card (two drawn cards when the discard is empty, the pile's
    one card alone when it holds one and the discard is empty, AE-33); keep the card whose best move by
    ``solo_value`` is worth most: a placement, or for a drawn card discarding it and revealing the face-down
    cell worth most in expectation; the other card is discarded. While Legends are left to write, and until the
    pile's last card, the last face-down card is never turned: that would end the Age early (a failure, or
    fewer turns to improve the kingdom)."""
    cdef int k[16]
    cdef int base[10]
    cdef int a = -1, a_draw = 0, b, cell_a = -1, cell_b, rcell_a = -1, rcell_b = -1, va = NEG, vb, ra = NEG, rb
    cdef int v, card, cell, other, reveal_cell
    cdef unsigned int left = solo_left(s), hidden = <unsigned int>s[HID]
    cdef int protect
    board(s, 0, k)
    solo_avail(s, base)
    if s[DLEN] > 0:
        a = pop_discard(s, 0)
    elif pile_total(s) >= 2:
        a = draw(s, rng)
        a_draw = 1
    b = draw(s, rng)
    protect = left != 0 or pile_total(s) > 0  # turning the last face-down card would end the Age before its time
    cell_b = solo_best_place(k, hidden, b, a, base, left, protect, rng, &vb)
    rcell_b = solo_best_reveal(k, hidden, b, a, base, left, protect, rng, &rb)
    if a >= 0:
        cell_a = solo_best_place(k, hidden, a, b, base, left, protect, rng, &va)
    if a_draw:
        rcell_a = solo_best_reveal(k, hidden, a, b, base, left, protect, rng, &ra)
    # the options in order (a later one must be strictly better): place b, reveal with b, place a, reveal with a
    card = b
    other = a
    cell = cell_b
    reveal_cell = -1
    v = vb if cell_b >= 0 else NEG
    if rcell_b >= 0 and rb > v:
        cell = -1
        reveal_cell = rcell_b
        v = rb
    if cell_a >= 0 and va > v:
        card = a
        other = b
        cell = cell_a
        v = va
    if rcell_a >= 0 and ra > v:
        card = a
        other = b
        cell = -1
        reveal_cell = rcell_a
        v = ra
    if cell < 0 and reveal_cell < 0:
        # every option would turn the last face-down card: place b there (the Age ends)
        card = b
        other = a
        cell = lowest_bit(hidden)
    if other >= 0:
        play_push(s, 0, other)
    if cell >= 0:
        place(s, 0, cell, card)
    else:
        play_push(s, 0, card)
        s[HID] &= ~(1 << reveal_cell)
    return 1 if s[HID] == 0 else 0


cdef void claim_best(int* s, int seat) noexcept nogil:
    cdef unsigned int mask = claimable_mask(s, seat)
    cdef int n, ok, best = 0
    for n in range(1, 16):
        if not (mask >> (n - 1)) & 1:
            continue
        if s[MODE] == P_SOLO:
            ok = s[P_SROW + n] == s[AGE] + 1 and not s[WRIT + n]
        else:
            ok = s[P_ROW + n] == 1
        if ok and (best == 0 or LEGEND_POINTS[n] > LEGEND_POINTS[best]):
            best = n
    if best == 0:
        return
    if s[MODE] == P_SOLO:
        s[WRIT + best] = 1
    else:
        s[P_ROW + best] = 0
        s[P_HELD + seat] += LEGEND_POINTS[best]


cdef int age_end(int* s, uint64_t* rng) noexcept nogil:
    cdef int k[16]
    cdef int block[16]
    cdef int kept[4]
    cdef int avail[10]
    cdef unsigned int legends, left
    cdef int age = s[AGE], objective = 0, n, c, i, corner, v, best_corner = 0, best_v = NEG, ties = 0, kind
    s[HID] = 0
    for n in range(1, 16):
        if s[P_SROW + n] == age + 1:
            if not s[WRIT + n]:
                s[FAILED] = 1
                return 1
            objective += LEGEND_POINTS[n]
    board(s, 0, k)
    s[AGE_SUM] += score(k, 0, 0, &legends) - objective
    if age == 2:
        return 1
    s[AGE] = age + 1
    seed_streams(rng, rng[SEED_WORD], age + 1)  # the next Age's draws do not depend on this Age's choices
    for n in range(1, 16):
        s[WRIT + n] = 0
    left = solo_left(s)
    for i in range(9):
        corner = CORNERS[i]
        for c in range(16):
            block[c] = UNEXPLORED
        block[CENTRE[0]] = k[corner]
        block[CENTRE[1]] = k[corner + 1]
        block[CENTRE[2]] = k[corner + 4]
        block[CENTRE[3]] = k[corner + 5]
        for kind in range(10):
            avail[kind] = 4
        for c in range(4):
            avail[block[CENTRE[c]]] -= 1
        v = solo_value(block, avail, left)  # the 2x2 closest to the next Age's Legends
        keep_best(v, corner, &best_v, &best_corner, &ties, rng)
    kept[0] = k[best_corner]
    kept[1] = k[best_corner + 1]
    kept[2] = k[best_corner + 4]
    kept[3] = k[best_corner + 5]
    for kind in range(10):
        s[P_PILE + kind] = 4
    for i in range(4):
        s[P_PILE + kept[i]] -= 1
    s[DLEN] = 0
    for c in range(16):
        s[CARDS + c] = UNEXPLORED
    for i in range(4):
        s[CARDS + CENTRE[i]] = kept[i]
    for c in range(16):
        if (RING_MASK >> c) & 1:
            s[CARDS + c] = draw(s, rng)
    s[HID] = RING_MASK
    play_push(s, 0, draw(s, rng))
    return 0


cdef inline int play_legends_gone(const int* s) noexcept nogil:
    cdef int n
    for n in range(1, 16):
        if s[P_ROW + n] or s[P_DECK + n]:
            return 0
    return 1


cdef int play_row_count(const int* s) noexcept nogil:
    cdef int n, total = 0
    for n in range(1, 16):
        total += s[P_ROW + n]
    return total


cdef int rest_of_turn(int* s, uint64_t* rng) noexcept nogil:
    """Play the greedy rest of a turn under way (``PHASE``), as :func:`turn` plays it once the card is chosen;
    returns 1 when the game ends."""
    cdef int seat = s[TO_MOVE], phase = s[PHASE], card, cell, v, cur
    cdef int k[16]
    s[PHASE] = PHASE_START
    if phase == PHASE_DRAW or phase == PHASE_PLACE:
        board(s, seat, k)
        cur = value_of(s, seat, k)
        card = draw(s, rng) if phase == PHASE_DRAW else s[HOLD]
        cell = best_place(s, seat, card, rng, &v)
        if (phase == PHASE_PLACE and s[HOLD_FROM] == 0) or v > cur:
            place(s, seat, cell, card)
        else:
            play_push(s, 0, card)
            reveal_random(s, seat, rng)
        if s[HID + seat] == 0:
            return 1
    return end_of_turn(s, rng)


cdef void discard_cheapest(int* s) noexcept nogil:
    """AE-38, the greedy policy's choice: the group discards the cheapest Legend of the row (the lowest number
    among equals)."""
    cdef int n, cheapest = 0
    for n in range(1, 16):
        if s[P_ROW + n] and (cheapest == 0 or LEGEND_POINTS[n] < LEGEND_POINTS[cheapest]):
            cheapest = n
    s[P_ROW + cheapest] = 0
    s[LD_POINTS] += LEGEND_POINTS[cheapest]


cdef int end_of_turn(int* s, uint64_t* rng) noexcept nogil:
    cdef int seat = s[TO_MOVE], mode = s[MODE], n, i
    cdef unsigned int mask
    if mode == P_COOP:
        mask = claimable_mask(s, seat)
        for n in range(1, 16):
            if s[P_ROW + n] and (mask >> (n - 1)) & 1:
                s[P_ROW + n] = 0
                s[WROTE] = 1
        refill(s, rng)
        if pile_total(s) == 0 or play_legends_gone(s):
            return 1
        if seat == s[PLAYERS] - 1:
            if not s[WROTE] and play_row_count(s):
                discard_cheapest(s)
                refill(s, rng)
                if play_legends_gone(s):
                    return 1
            s[WROTE] = 0
    elif mode == P_SOLO:
        claim_best(s, 0)
        if pile_total(s) == 0:
            return age_end(s, rng)
    else:
        claim_best(s, seat)
        refill(s, rng)
        if pile_total(s) == 0:
            for i in range(s[DLEN]):
                s[P_PILE + s[P_DISC + i]] += 1
            s[DLEN] = 0
            if pile_total(s) > 0:
                play_push(s, 0, draw(s, rng))
    s[TO_MOVE] = (seat + 1) % s[PLAYERS]
    s[TURN] += 1
    return 0


cdef int run(int* s, uint64_t* rng, int stop_age) noexcept nogil:
    cdef int turns = 0
    if s[PHASE] != PHASE_START:
        turns = 1
        if rest_of_turn(s, rng):
            return turns
    while turns < MAX_TURNS:
        if stop_age >= 0 and s[AGE] > stop_age:  # solo: the Age asked for is over (its score is in AGE_SUM)
            return turns
        turns += 1
        if s[MODE] == P_SOLO:
            if solo_turn(s, rng):
                if age_end(s, rng):
                    return turns
                continue
        elif turn(s, rng):
            return turns
        if end_of_turn(s, rng):
            return turns
    return turns


cdef int solo_progress(const int* s) noexcept nogil:
    cdef int n, done = 0
    for n in range(1, 16):
        if s[P_SROW + n] and (s[P_SROW + n] <= s[AGE] and not (s[FAILED] and s[P_SROW + n] == s[AGE] + 1)):
            done += 1
        elif s[P_SROW + n] == s[AGE] + 1 and s[WRIT + n]:
            done += 1
    return done


cdef void play_returns(int* s, int32_t* out) noexcept nogil:
    cdef int k[16]
    cdef int totals[4]
    cdef unsigned int legends
    cdef int p, players = s[PLAYERS], mode = s[MODE], low
    if mode == P_SOLO:
        out[0] = 0 if s[FAILED] else s[AGE_SUM]
        out[1] = solo_progress(s)
        return
    for p in range(players):
        s[HID + p] = 0
        board(s, p, k)
        totals[p] = score(k, <unsigned int>s[ACC + p], <unsigned int>s[STF + p], &legends) + \
            (0 if mode == P_COOP else s[P_HELD + p])
    low = totals[0]
    for p in range(players):
        if totals[p] < low:
            low = totals[p]
    for p in range(players):
        out[p] = low - s[LD_POINTS] if mode == P_COOP else totals[p]


cdef int checked(const int32_t* state) noexcept nogil:
    cdef int i
    if state[PLAYERS] < 1 or state[PLAYERS] > 4 or state[MODE] < 0 or state[MODE] > 3:
        return 0
    for i in range(CARDS, CARDS + 64):
        if state[i] < 0 or state[i] > 10:
            return 0
    for i in range(P_DISC, P_DISC + 2 * P_DISC_CAP):
        if state[i] < 0 or state[i] > 9:
            return 0
    if state[DLEN] < 0 or state[DLEN] > P_DISC_CAP or state[DLEN + 1] < 0 or state[DLEN + 1] > P_DISC_CAP:
        return 0
    if state[PHASE] < PHASE_START or state[PHASE] > PHASE_END or (state[PHASE] != PHASE_START and (
            state[MODE] == P_SOLO or state[MODE] == P_OBJECTS or not 0 <= state[HOLD] <= 9
            or not 0 <= state[HOLD_FROM] <= 1)):
        return 0
    return 1


cdef int play_in_place(int* s, uint64_t seed, int32_t* out, int stop_age) noexcept nogil:
    cdef int turns
    cdef uint64_t rng[STREAMS]
    seed_streams(rng, seed, 0)
    turns = run(s, rng, stop_age)
    play_returns(s, out)
    return turns


cdef int play_one(const int32_t* state, uint64_t seed, int32_t* out, int stop_age) noexcept nogil:
    cdef int s[LENGTH]
    cdef int i
    for i in range(LENGTH):
        s[i] = state[i]
    return play_in_place(s, seed, out, stop_age)


# ---------------------------------------------------------------------- the player's own actions, packed
# A hint packs each sampled world once and applies every candidate plan to it: ``play_step`` leaves the vector ``pack``
# gives of the state after the action, or answers UNPACKED (see ``advance``): the caller uses the full state.
cdef enum:                 # the action ids (A_TAKE, A_DRAW, ...) are aetherya_row.pxd's, the adapter's
    STEPPED = 0
    UNPACKED = 1
    ILLEGAL = 2
    OVER = 3              # the game ends
    DEAL = 4              # Legends to deal into the row (a chance node), then the end of the turn
    GROUP_DISCARD = 5     # co-op, AE-38: the group discards a Legend
    REFORM = 6            # AE-19: the discard pile becomes the draw pile, a card dealt on it (a chance node)
    CHANCE_STREAM = 1     # the hint's Python path deals with PlayoutRandom(seed, 1) (solver.aetherya.playout)
    TURN_CAP = 1 << 20


cdef inline int refill_due(const int* s) noexcept nogil:
    cdef int n, deck = 0
    for n in range(1, 16):
        deck += s[P_DECK + n]
    return deck > 0 and play_row_count(s) < s[P_ROW_TARGET]


cdef inline void play_next_player(int* s) noexcept nogil:
    s[TO_MOVE] = (s[TO_MOVE] + 1) % s[PLAYERS]
    s[TURN] = s[TURN] + 1 if s[TURN] < TURN_CAP else TURN_CAP
    s[PHASE] = PHASE_START


cdef int play_finish_turn(int* s) noexcept nogil:
    """``AetheryaState._finish_turn`` (base and co-op) up to the next turn start (STEPPED), or what stops it."""
    cdef int seat = s[TO_MOVE]
    if s[MODE] == P_COOP:
        if pile_total(s) == 0 or play_legends_gone(s):
            return OVER
        if seat == s[PLAYERS] - 1:
            if not s[WROTE] and play_row_count(s):
                return GROUP_DISCARD
            s[WROTE] = 0
    elif pile_total(s) == 0:
        return REFORM
    play_next_player(s)
    return STEPPED


cdef int play_after_placement(int* s) noexcept nogil:
    """The end of the turn after a card is placed or discarded: co-op writes every Legend met (AE-37), base
    stops at the end of the turn when a Legend can be claimed."""
    cdef int seat = s[TO_MOVE], n
    cdef unsigned int met
    s[HOLD] = 0
    s[HOLD_FROM] = 0
    s[PHASE] = PHASE_START
    if s[HID + seat] == 0:
        return OVER
    met = claimable_mask(s, seat)
    for n in range(1, 16):
        if s[P_ROW + n] and (met >> (n - 1)) & 1:
            if s[MODE] != P_COOP:
                s[PHASE] = PHASE_END
                return STEPPED
            s[P_ROW + n] = 0
            s[WROTE] = 1
    if refill_due(s):
        return DEAL if s[MODE] == P_COOP else UNPACKED  # (base deals only after a claim)
    return play_finish_turn(s)


cdef int play_step(int* s, int action) noexcept nogil:
    """Apply the action of the player to move (``solver.aetherya.state`` action codes) to the packed state."""
    cdef int mode = s[MODE], seat = s[TO_MOVE], piles = 2 if s[MODE] == P_COOP else 1, pile, cell, card, n
    cdef int reveal = action >= A_REVEAL
    cdef unsigned int hidden = <unsigned int>s[HID + s[TO_MOVE]]
    if mode != P_BASE and mode != P_COOP:
        return UNPACKED
    if s[PHASE] == PHASE_START:
        if A_TAKE <= action < A_TAKE + piles and s[DLEN + action] > 0:
            if s[DLEN + action] == P_DISC_CAP:
                return UNPACKED  # the vector holds the pile's last DISC_CAP cards only
            s[HOLD] = pop_discard(s, action)
            s[P_DISC + action * P_DISC_CAP + s[DLEN + action]] = 0
            s[HOLD_FROM] = 0
            s[PHASE] = PHASE_PLACE
            return STEPPED
        if action == A_DRAW and pile_total(s) > 0:
            s[PHASE] = PHASE_DRAW
            return STEPPED
        return ILLEGAL
    if s[PHASE] == PHASE_PLACE:
        n = action - (A_REVEAL if reveal else A_PLACE)
        if n < 0 or n >= 16 * piles:
            return ILLEGAL
        pile = n // 16
        cell = n % 16
        card = s[CARDS + seat * 16 + cell]
        if reveal and not ((hidden >> cell) & 1 and s[HOLD_FROM] == 1):
            return ILLEGAL
        if not reveal and not (hidden >> cell) & 1 and (card == DRAGON or card == PORTAL or card == s[HOLD]):
            return ILLEGAL
        if s[DLEN + pile] == P_DISC_CAP:
            return UNPACKED
        if reveal:
            play_push(s, pile, s[HOLD])
        else:
            play_push(s, pile, card)
            s[CARDS + seat * 16 + cell] = s[HOLD]
            s[ACC + seat] &= ~(1 << cell)
        s[HID + seat] &= ~(1 << cell)
        return play_after_placement(s)
    if s[PHASE] == PHASE_END and mode == P_BASE:
        n = action - A_CLAIM
        if action == A_END:
            s[PHASE] = PHASE_START
            return play_finish_turn(s)
        if 1 <= n <= 15 and s[P_ROW + n] and (claimable_mask(s, seat) >> (n - 1)) & 1:
            s[P_ROW + n] = 0
            s[P_HELD + seat] += LEGEND_POINTS[n]
            s[PHASE] = PHASE_START
            if refill_due(s):
                return DEAL
            return play_finish_turn(s)  # one claim a turn: nothing is left to do
    return ILLEGAL


cdef int step_plan(int* s, const int32_t* plan, Py_ssize_t length) noexcept nogil:
    """Apply the plan's actions: STEPPED, ILLEGAL, UNPACKED, or (after its last action) what :func:`settle` plays."""
    cdef Py_ssize_t i
    cdef int code
    for i in range(length):
        if plan[i] < 0:
            break
        code = play_step(s, plan[i])
        if code != STEPPED:
            if code > ILLEGAL and i + 1 < length and plan[i + 1] >= 0:
                return UNPACKED  # actions left after a chance node: not a plan of one turn
            return code
    return STEPPED


# ---------------------------------------------------------------------- after a plan: chance nodes, group discard
# What the hint's Python path (``advance_to_turn_start`` with ``PlayoutRandom(seed, 1)`` for the chance nodes)
# plays on the full state after a plan that ends at a chance node or the co-op group discard, with the same random
# numbers: ``PlayoutRandom.choice`` over ``AetheryaState.chance_outcomes`` (the probabilities ``c / n``,
# normalised by their sum, subtracted one by one from a 53-bit uniform number), so the values are those of the
# full state's path.
cdef int chance_pick(uint64_t* stream, const int* weights, int count) noexcept nogil:
    """The index drawn among ``count`` outcomes of weights ``weights`` (each > 0), as ``PlayoutRandom.choice``.
    The sum is added left to right, as CPython 3.11's ``sum`` adds floats (3.12's compensated ``sum`` can differ
    in the last bit, which moves a draw only when the uniform number falls within that bit of a boundary)."""
    cdef double probs[16]
    cdef double norm = 0.0, u
    cdef int i, total = 0
    for i in range(count):
        total += weights[i]
    for i in range(count):
        probs[i] = <double>weights[i] / <double>total
        norm += probs[i]
    u = <double>(splitmix64(stream) >> 11) * (1.0 / 9007199254740992.0)
    for i in range(count - 1):
        u -= probs[i] / norm
        if u < 0:
            return i
    return count - 1


cdef void deal_legends(int* s, uint64_t* stream) noexcept nogil:
    """The row refilled from the Legend deck (``AetheryaState._refill_then``): one chance node a Legend."""
    cdef int numbers[16]
    cdef int ones[16]
    cdef int n, count
    while refill_due(s):
        count = 0
        for n in range(1, 16):
            if s[P_DECK + n]:
                numbers[count] = n
                ones[count] = 1
                count += 1
        n = numbers[chance_pick(stream, ones, count)]
        s[P_DECK + n] = 0
        s[P_ROW + n] = 1


cdef int reform(int* s, uint64_t* stream) noexcept nogil:
    """AE-19: the first discard pile becomes the draw pile and a card is dealt on it; then the next player."""
    cdef int kinds[10]
    cdef int counts[10]
    cdef int i, count = 0, card
    if s[DLEN] == P_DISC_CAP:
        return UNPACKED  # the vector may hold only the pile's last DISC_CAP cards
    for i in range(s[DLEN]):
        s[P_PILE + s[P_DISC + i]] += 1
        s[P_DISC + i] = 0
    s[DLEN] = 0
    for i in range(10):
        if s[P_PILE + i]:
            kinds[count] = i
            counts[count] = s[P_PILE + i]
            count += 1
    if count:
        card = kinds[chance_pick(stream, counts, count)]
        s[P_PILE + card] -= 1
        play_push(s, 0, card)
    play_next_player(s)
    return STEPPED


cdef int group_discard(int* s, uint64_t* stream) noexcept nogil:
    """AE-38 (:func:`discard_cheapest`), the row refilled, then the next round."""
    discard_cheapest(s)
    deal_legends(s, stream)
    if play_legends_gone(s):
        return OVER
    s[WROTE] = 0  # the last seat's turn: a new round
    play_next_player(s)
    return STEPPED


cdef int play_settle(int* s, int code, uint64_t seed) noexcept nogil:
    """Play what follows a plan's ``code`` up to the next turn start (STEPPED) or the game's end (OVER), as the
    full state's path does; UNPACKED where the vector cannot follow."""
    cdef uint64_t stream = stream_seed(seed, CHANCE_STREAM)
    while True:
        if code == DEAL:
            deal_legends(s, &stream)
            code = play_finish_turn(s)
        elif code == GROUP_DISCARD:
            code = group_discard(s, &stream)
        elif code == REFORM:
            code = reform(s, &stream)
        else:
            return code


def playout(const int32_t[::1] state, uint64_t seed, int32_t[::1] out, int stop_age=-1):
    """Play the packed ``state`` (int32, length 360) to the end greedily; write each seat's return into ``out``
    (solo: ``out[0]`` the campaign score, ``out[1]`` the Legends written over the campaign).

    ``seed`` (0 <= seed < 2**64) seeds the splitmix64 generator. ``stop_age`` >= 0 (solo) stops the playout
    once Age index ``stop_age`` (0, 1, 2) is over: ``out[0]`` is then the sum of the finished Ages' scores
    (0 if an Age failed) and ``out[1]`` the Legends written so far. Returns the number of turns played.
    """
    if state.shape[0] != LENGTH or out.shape[0] < 2 or out.shape[0] < state[PLAYERS]:
        raise ValueError("playout: expected a packed state of length 360 and an output array")
    if not checked(&state[0]):
        raise ValueError("playout: the packed state holds an out-of-range value")
    return play_one(&state[0], seed, &out[0], stop_age)


def playout_batch(const int32_t[:, ::1] states, const uint64_t[::1] seeds, int32_t[:, ::1] out, int stop_age=-1):
    """``playout`` for each row of ``states`` (n, 360) with ``seeds`` (n,) into ``out`` (n, 4), each stopped
    after Age ``stop_age`` when it is >= 0. Returns total turns."""
    cdef Py_ssize_t i, n = states.shape[0]
    cdef long total = 0
    if states.shape[1] != LENGTH or seeds.shape[0] != n or out.shape[0] != n or out.shape[1] != 4:
        raise ValueError("playout_batch: expected states (n, 360) int32, seeds (n,) uint64, out (n, 4) int32")
    for i in range(n):
        if not checked(&states[i, 0]):
            raise ValueError(f"playout_batch: states[{i}] holds an out-of-range value")
    with nogil:
        for i in range(n):
            total += play_one(&states[i, 0], seeds[i], &out[i, 0], stop_age)
    return total


def advance(int32_t[::1] state, int action):
    """Apply ``action`` (an action code of ``solver.aetherya.state``) of the player to move to the packed
    ``state`` in place (base and co-op: a turn start, a card to place, the end of a turn), as ``pack`` packs the
    state after it. Returns 0 when done; 1 when the state after the action is one the packed vector does not
    follow (a chance node: a Legend dealt into the row, the discard pile reformed; the co-op group discard; the
    game's end; a discard pile longer than the vector holds; another mode); 2 when the action is not legal in the
    packed position. ``state`` is left unchanged unless 0 is returned."""
    cdef int s[LENGTH]
    cdef int i, code
    if state.shape[0] != LENGTH:
        raise ValueError("advance: expected a packed state of length 360")
    if not checked(&state[0]):
        raise ValueError("advance: the packed state holds an out-of-range value")
    for i in range(LENGTH):
        s[i] = state[i]
    code = play_step(s, action)
    if code == STEPPED:
        for i in range(LENGTH):
            state[i] = s[i]
    return code if code <= ILLEGAL else UNPACKED


def evaluate_plans(const int32_t[::1] world, const int32_t[:, ::1] plans, uint64_t seed, int32_t[:, ::1] out,
                   int32_t[::1] status, int stop_age=-1):
    """Each row of ``plans`` (actions from the packed ``world``, padded with -1) applied by :func:`advance`,
    then played out by :func:`playout` with ``seed`` (the same random numbers for every plan): ``out[j]`` as
    ``playout`` writes it and ``status[j]`` 0. A plan that ends at a chance node (a Legend dealt into the row,
    the discard pile reformed) or at the co-op group discard is played on to the next turn as the hint's Python
    path plays it on the full state (``advance_to_turn_start`` with ``PlayoutRandom(seed, 1)`` dealing, the
    group discarding its cheapest Legend), then out; one that ends the game gets the game's returns; both with
    ``status[j]`` 0. Else ``status[j]`` is 1 (the vector cannot follow: a discard pile longer than it holds,
    another mode) or 2 (an illegal action), ``out[j]`` zero. Returns the number of turns played."""
    cdef int s[LENGTH]
    cdef Py_ssize_t i, j, m = plans.shape[0]
    cdef int code
    cdef long total = 0
    if world.shape[0] != LENGTH or out.shape[0] != m or out.shape[1] != 4 or status.shape[0] != m:
        raise ValueError("evaluate_plans: expected world (360,), plans (m, k), out (m, 4) and status (m,) int32")
    if not checked(&world[0]):
        raise ValueError("evaluate_plans: the packed world holds an out-of-range value")
    with nogil:
        for j in range(m):
            for i in range(LENGTH):
                s[i] = world[i]
            for i in range(4):
                out[j, i] = 0
            code = step_plan(s, &plans[j, 0], plans.shape[1]) if plans.shape[1] else STEPPED
            if code > ILLEGAL:
                code = play_settle(s, code, seed)
            if code == OVER:
                play_returns(s, &out[j, 0])
                code = STEPPED
            elif code == STEPPED:
                total += play_in_place(s, seed, &out[j, 0], stop_age)
            status[j] = code
    return total


def board_value(const int32_t[::1] cards, unsigned int accords, unsigned int staffs):
    """The board total of 16 codes with Accord and Staff cells (the scorer the playouts use)."""
    cdef unsigned int legends
    cdef int k[16]
    cdef int c
    if cards.shape[0] != 16:
        raise ValueError("board_value: expected 16 card codes")
    for c in range(16):
        if cards[c] < 0 or cards[c] > 10:
            raise ValueError("board_value: expected 16 card codes in 0..10")
        k[c] = cards[c]
    return score(k, accords, staffs, &legends)


def legend_needs(const int32_t[::1] cards, const int32_t[::1] avail, int32_t[::1] out):
    """``out[n]`` (n = 1..15; ``out[0]`` unused): the fewest cards to place in the kingdom ``cards`` (16 codes,
    10 = face down) to meet Legend n, using at most ``avail[kind]`` more copies of each kind; 99 when it cannot
    be met. A card is placed on any cell but a Portal or a Dragon (locked); connections as in AE-2."""
    cdef int k[16]
    cdef int av[10]
    cdef int need[16]
    cdef int c
    if cards.shape[0] != 16 or avail.shape[0] != 10 or out.shape[0] != 16:
        raise ValueError("legend_needs: expected cards (16,), avail (10,) and out (16,) int32")
    for c in range(16):
        if cards[c] < 0 or cards[c] > 10:
            raise ValueError("legend_needs: expected 16 card codes in 0..10")
        k[c] = cards[c]
    for c in range(10):
        av[c] = avail[c] if avail[c] > 0 else 0
    needs_of(k, av, 0xFFFE, need)
    for c in range(16):
        out[c] = need[c]


def solo_moves(const int32_t[::1] cards, const int32_t[::1] base, int card, int other, unsigned int left,
               int protect, int32_t[::1] place_out, int32_t[::1] reveal_out):
    """The solo policy's values of every move with ``card`` (the policy's own arithmetic, for the rules-engine
    greedy player and the hints): ``place_out[c]`` the value of placing it on cell ``c``, ``reveal_out[c]`` the
    expected value of discarding it and revealing the face-down cell ``c``, minus the reveal's cost; ``NEG``
    (-2**30) where the move is not allowed (a locked card or the same kind; with ``protect``, the last face-down
    cell). ``cards`` holds 16 codes (10 = face down), ``base`` the copies still to come before the move (the
    solo deck's 4 per kind minus those face up and those in the discard, a discard top being taken counted as
    to come), ``other`` the pair's other card, buried in the discard by the move (-1: none), ``left`` the
    Legends still to write (bit n)."""
    cdef int k[16]
    cdef int av[10]
    cdef int c, old
    cdef unsigned int hidden = 0
    if cards.shape[0] != 16 or base.shape[0] != 10 or place_out.shape[0] != 16 or reveal_out.shape[0] != 16:
        raise ValueError("solo_moves: expected cards (16,), base (10,), place_out (16,) and reveal_out (16,) int32")
    if not 0 <= card <= 9 or not -1 <= other <= 9:
        raise ValueError("solo_moves: expected a card code 0..9 and another code -1..9")
    for c in range(16):
        if cards[c] < 0 or cards[c] > 10:
            raise ValueError("solo_moves: expected 16 card codes in 0..10")
        k[c] = cards[c]
        if k[c] == UNEXPLORED:
            hidden |= 1u << c
    for c in range(10):
        av[c] = base[c] if base[c] > 0 else 0
    for c in range(16):
        place_out[c] = NEG
        reveal_out[c] = NEG
        old = k[c]
        if (hidden >> c) & 1:
            if not may_turn(hidden, c, protect):
                continue
            reveal_out[c] = reveal_value(k, c, card, other, av, left) - (REVEAL_COST if left else REVEAL_COST_AFTER)
        elif old == DRAGON or old == PORTAL or old == card:
            continue
        place_out[c] = place_value(k, hidden, c, card, other, av, left)
