"""N Aetherya games stepped together (compiled kernel), for the batched environment of ``solver/openspiel/``.

The rules are those of ``solver/aetherya/state.py`` (rule ids ``AE-n`` of ``docs/rules/aetherya.md``), function
for function, for the base game, the Objects and Characters mode (its tiles: ``aetherya_objects.pxd``) and the
Cooperative mode at 2-4 players, and the solo campaign. Kingdoms are scored, and the Legends they meet found, by
the shared inline scoring of ``aetherya_board.pxd``. Actions are the OpenSpiel adapter's ids (our action
ids: ``A_*`` of ``state.py``), legal lists ascending as the adapter's. Chance events are drawn inside the kernel
from each row's own splitmix64 stream (``common.pxd``; seeded by the deal's seed with ``stream_seed``, drawn with
``below_high``): a card kind with probability proportional to its copies in the pile (the start cards: the kinds
the seat does not hold yet), a Legend uniformly from the deck, a tile kind with probability proportional to its
copies among the seat's undealt tiles (the distribution of ``new_initial_state(seed)``'s chance nodes). Outcomes
are the adapter's chance ids (``C_CARD + kind``, ``C_LEGEND + number``, ``C_TILE + kind``).

A row is ``STATE_LEN`` int32 words (the layout below, ``layout()``); ``config`` is ``(mode, players)`` (mode 0
base, 1 co-op, 2 solo), and with Objects (mode 3) the 12 tile kinds of each of the 4 seats' families after them.
Twin: ``solver/twins/aetherya_step.py`` (same functions, same parameters, same results).
"""

from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from common cimport below_high, check_unit_interval, stream_seed
from aetherya_board cimport UNEXPLORED, Tally, score_cards

from aetherya_row cimport *
from aetherya_objects cimport tile_options, play_tile, clear_slot, deal_tile, undealt_of_next, discard_territories, \
    deal_objects, observe_objects, owned_kind, take_owned, sword_battles, board_total, stones

# CENTRE and LEGEND_POINTS: aetherya_play.pxi's (one module, one table)
cdef int RING[12]
RING[:] = [0, 1, 2, 3, 4, 7, 8, 11, 12, 13, 14, 15]
cdef int PERMS[24][4]
cdef int _p = 0, _a, _b, _c, _d
for _a in range(4):
    for _b in range(4):
        for _c in range(4):
            for _d in range(4):
                if _a != _b and _a != _c and _a != _d and _b != _c and _b != _d and _c != _d:
                    PERMS[_p][:] = [_a, _b, _c, _d]
                    _p += 1
cdef int ROW_TARGET[4][5]
ROW_TARGET[0][:] = [8, 8, 8, 8, 8]
ROW_TARGET[1][:] = [0, 0, 4, 3, 2]     # co-op, errata: 4 at 2 players
ROW_TARGET[2][:] = [0, 4, 0, 0, 0]     # solo: the first Age's row (the Legends fill the three rows in turn)
ROW_TARGET[3][:] = [8, 8, 8, 8, 8]
cdef int SOLO_ROWS[3]
SOLO_ROWS[:] = [4, 5, 6]               # errata: the solo Age rows hold 4, 5 and 6 Legends
cdef int BLOCKS[9]
BLOCKS[:] = [0, 1, 2, 4, 5, 6, 8, 9, 10]   # the top-left cell of each 2x2 block


def state_len():
    """The int32 words of one game's row."""
    return STATE_LEN


def max_draws():
    """At most how many chance outcomes follow one decision (the width of ``drawn``)."""
    return MAX_DRAWS


def layout():
    """The row's blocks (first word) and header words, by name."""
    return {"phase": H_PHASE, "to_move": H_TO_MOVE, "turn": H_TURN, "hold": H_HOLD, "hold_from": H_HOLD_FROM,
            "hold_pile": H_HOLD_PILE, "claimed": H_CLAIMED, "after": H_AFTER, "pile_known": H_PILE_KNOWN,
            "wrote": H_WROTE, "rng_lo": H_RNG_LO, "rng_hi": H_RNG_HI, "n_discard": H_NDISC, "PILE": PILE,
            "HIDDEN": HIDDEN, "KINGDOMS": KINGDOMS, "START": START, "ROW": ROW, "DECK": DECK, "HELD": HELD,
            "BOX": BOX, "LDISCARD": LDISCARD, "DISC": DISC, "DISC_CAP": DISC_CAP, "age": H_AGE, "failed": H_FAILED,
            "draws": H_DRAWS, "n_pair": H_NPAIR, "PAIR": PAIR, "n_scores": H_NSCORES, "AGE_SCORES": AGE_SCORES,
            "SROW": SROW, "WRITTEN": WRITTEN, "pending": H_PENDING, "peeks_used": H_PEEKS_USED, "TERR": TERR,
            "FACE_UP": FACE_UP, "ACCORDS": ACCORDS, "STAFFS": STAFFS, "OWNED": OWNED, "TDISC": TDISC, "UNREV": UNREV,
            "UNDEALT": UNDEALT, "KNOWN": KNOWN}


# -- legal actions ------------------------------------------------------------------------------------------------
cdef int claim_options(const int32_t* s, const Rules* r, int seat, int32_t* out) noexcept nogil:
    """The claims open at the end of the seat's turn, ascending: the Legends its kingdom meets, then (Objects, with a
    Magic Sword) the battles of the row it may win with the Sword (AE-26)."""
    cdef int n = 0, legend
    cdef uint32_t met, battles
    if s[H_CLAIMED]:
        return 0
    met = claimable(s, r, seat)
    for legend in range(1, LEGENDS + 1):
        if (met >> (legend - 1)) & 1:
            out[n] = A_CLAIM + legend
            n += 1
    if r.mode == OBJECTS and owned_kind(s, seat, T_SWORD):
        battles = sword_battles(s, seat) & ~met
        for legend in range(8, 12):
            if (battles >> (legend - 1)) & 1 and s[ROW + legend]:
                out[n] = A_CLAIM_SWORD + legend
                n += 1
    return n


cdef int list_legal(const int32_t* s, const Rules* r, int32_t* out) noexcept nogil:
    """The ascending legal action ids of the row's player (0 at a chance node or the end)."""
    cdef int n = 0, seat = s[H_TO_MOVE], phase = s[H_PHASE], c, pile, i, j, key, legend, card, current
    cdef int cards[4]
    cdef int keys[24]
    cdef uint32_t hidden, met
    if phase == P_ARRANGE:
        start_cards(s, seat, cards)
        for i in range(24):
            keys[i] = ((cards[PERMS[i][0]] * 10 + cards[PERMS[i][1]]) * 10 + cards[PERMS[i][2]]) * 10 \
                + cards[PERMS[i][3]]
            key = 1
            for j in range(i):
                if keys[j] == keys[i]:
                    key = 0
                    break
            if key:
                out[n] = A_ARRANGE + i
                n += 1
    elif phase == P_CHOOSE and r.mode == SOLO:
        if total(s + PILE, KINDS) >= 2:
            out[n] = A_DRAW2
            n += 1
        if s[H_NDISC] > 0 and total(s + PILE, KINDS) >= 1:
            out[n] = A_TAKE_DRAW
            n += 1
        if n == 0 and total(s + PILE, KINDS) >= 1:
            out[n] = A_DRAW
            n += 1
    elif phase == P_CHOOSE:
        for pile in range(r.piles):
            if s[H_NDISC + pile] > 0:
                out[n] = A_TAKE + pile
                n += 1
        if total(s + PILE, KINDS) >= 1:
            out[n] = A_DRAW
            n += 1
    elif phase == P_PLACE:
        hidden = <uint32_t>s[HIDDEN + seat]
        card = s[H_HOLD]
        for pile in range(r.piles):
            for c in range(CELLS):
                current = s[KINGDOMS + seat * CELLS + c]
                if (hidden >> c) & 1 or (current != 8 and current != 9 and current != card):
                    out[n] = A_PLACE + pile * CELLS + c
                    n += 1
        if s[H_HOLD_FROM] == 1:
            for pile in range(r.piles):
                for c in range(CELLS):
                    if (hidden >> c) & 1:
                        out[n] = A_REVEAL + pile * CELLS + c
                        n += 1
    elif phase == P_END_TURN:
        n = claim_options(s, r, seat, out)
        out[n] = A_END
        n += 1
        if r.mode == OBJECTS:
            n += tile_options(s, r, seat, out + n)
    elif phase == P_TILE:
        out[0] = A_TILE_TAKE
        out[1] = A_TILE_REFUSE
        n = 2
    elif phase == P_LEGEND_DISCARD:
        for legend in range(1, LEGENDS + 1):
            if s[ROW + legend]:
                out[n] = A_LDISCARD + legend
                n += 1
    elif phase == P_KEEP:
        for card in range(KINDS):
            for i in range(s[H_NPAIR]):
                if s[PAIR + 2 * i] == card:
                    out[n] = A_KEEP + card
                    n += 1
                    break
    elif phase == P_SWAP:
        out[n] = A_NOSWAP
        n += 1
        for i in range(1, LEGENDS + 1):
            if s[SROW + i] == s[H_AGE] + 1:
                for j in range(1, LEGENDS + 1):
                    if s[SROW + j] == s[H_AGE] + 2:
                        out[n] = A_SWAP + (i - 1) * LEGENDS + j - 1
                        n += 1
    elif phase == P_BLOCK:
        for i in range(9):
            out[n] = A_BLOCK + i
            n += 1
    return n


# -- the rules' flow ----------------------------------------------------------------------------------------------
cdef inline void push(int32_t* s, int pile, int card) noexcept nogil:
    cdef int n = s[H_NDISC + pile]
    if n < DISC_CAP:
        s[DISC + pile * DISC_CAP + n] = card
        s[H_NDISC + pile] = n + 1


cdef inline int pop(int32_t* s, int pile) noexcept nogil:
    s[H_NDISC + pile] -= 1
    return s[DISC + pile * DISC_CAP + s[H_NDISC + pile]]


cdef void game_over(int32_t* s, const Rules* r) noexcept nogil:
    """AE-20: every face-down card is turned over."""
    cdef int seat
    for seat in range(r.players):
        s[HIDDEN + seat] = 0
    if r.mode == OBJECTS:
        discard_territories(s, r)              # "all tiles that have not been revealed are discarded"
    s[H_PHASE] = P_OVER


cdef void next_player(int32_t* s, const Rules* r) noexcept nogil:
    s[H_TO_MOVE] = (s[H_TO_MOVE] + 1) % r.players
    s[H_TURN] += 1
    s[H_CLAIMED] = 0
    s[H_PEEKS_USED] = 0
    s[H_PHASE] = P_CHOOSE


cdef inline bint legends_gone(const int32_t* s) noexcept nogil:
    return row_count(s) == 0 and deck_count(s) == 0


cdef void coop_next(int32_t* s, const Rules* r) noexcept nogil:
    if legends_gone(s):
        game_over(s, r)
        return
    if s[H_TO_MOVE] == r.players - 1:
        s[H_WROTE] = 0
    next_player(s, r)


cdef void end_age(int32_t* s, const Rules* r) noexcept nogil:
    """AE-34: the Age ends; failure unless every Legend of the Age is written."""
    cdef int legend, board, age = s[H_AGE]
    s[HIDDEN] = 0
    for legend in range(1, LEGENDS + 1):
        if s[SROW + legend] == age + 1 and not s[WRITTEN + legend]:
            s[H_FAILED] = 1
            s[H_PHASE] = P_OVER
            return
    legends_met(s, 0, &board)
    for legend in range(1, LEGENDS + 1):
        if s[SROW + legend] == age + 1:
            board -= LEGEND_POINTS[legend]
    s[AGE_SCORES + s[H_NSCORES]] = board
    s[H_NSCORES] += 1
    if age == 2:
        s[H_PHASE] = P_OVER
        return
    s[H_AGE] = age + 1
    for legend in range(1, LEGENDS + 1):
        s[WRITTEN + legend] = 0
    s[H_TO_MOVE] = 0
    s[H_TURN] += 1
    s[H_CLAIMED] = 0
    s[H_PHASE] = P_SWAP if age + 1 == 1 else P_BLOCK


cdef void finish_turn(int32_t* s, const Rules* r) noexcept nogil:
    cdef int k, i
    s[H_PHASE] = P_CHOOSE
    if r.mode == SOLO:
        if total(s + PILE, KINDS) == 0:
            end_age(s, r)
        else:
            next_player(s, r)
        return
    if r.mode == COOP:
        if total(s + PILE, KINDS) == 0 or legends_gone(s):
            game_over(s, r)
        elif s[H_TO_MOVE] == r.players - 1 and not s[H_WROTE] and row_count(s) > 0:
            s[H_PHASE] = P_LEGEND_DISCARD        # AE-38
        else:
            coop_next(s, r)
        return
    if total(s + PILE, KINDS) == 0:             # AE-19: the discard pile becomes the draw pile
        for k in range(KINDS):
            s[PILE + k] = 0
        for i in range(s[H_NDISC]):
            s[PILE + s[DISC + i]] += 1
        s[H_NDISC] = 0
        s[H_PILE_KNOWN] = 1
        if total(s + PILE, KINDS):
            s[H_PHASE] = P_REFORM
            return
    next_player(s, r)


cdef void continue_end_turn(int32_t* s, const Rules* r) noexcept nogil:
    cdef int32_t options[MAX_LEGAL]
    if claim_options(s, r, s[H_TO_MOVE], options) or (r.mode == OBJECTS and tile_options(s, r, s[H_TO_MOVE], options)):
        s[H_PHASE] = P_END_TURN
    else:
        finish_turn(s, r)


cdef void after_refill(int32_t* s, const Rules* r) noexcept nogil:
    cdef int after = s[H_AFTER]
    s[H_AFTER] = AFTER_NOTHING
    if row_count(s) < r.target and deck_count(s) > 0:
        s[H_AFTER] = after
        s[H_PHASE] = P_REFILL
    elif after == AFTER_END_TURN:
        continue_end_turn(s, r)
    elif after == AFTER_FINISH:
        finish_turn(s, r)
    else:
        coop_next(s, r)


cdef inline void refill_then(int32_t* s, const Rules* r, int after) noexcept nogil:
    s[H_AFTER] = after
    after_refill(s, r)


cdef void enter_end_turn(int32_t* s, const Rules* r) noexcept nogil:
    cdef int seat = s[H_TO_MOVE], legend
    cdef uint32_t written
    if r.mode == COOP:
        written = claimable(s, r, seat)
        if written:                              # AE-37: every Legend the kingdom meets is written, into the box
            for legend in range(1, LEGENDS + 1):
                if (written >> (legend - 1)) & 1:
                    s[ROW + legend] = 0
                    s[BOX + legend] = 1
            s[H_WROTE] = 1
        refill_then(s, r, AFTER_FINISH)
        return
    continue_end_turn(s, r)


cdef void after_placement(int32_t* s, const Rules* r) noexcept nogil:
    if s[HIDDEN + s[H_TO_MOVE]] == 0:
        if r.mode == SOLO:
            end_age(s, r)
        else:
            game_over(s, r)
    else:
        enter_end_turn(s, r)


cdef void apply_decision(int32_t* s, const Rules* r, int action) noexcept nogil:
    """Play the legal ``action`` of the row's player (``_do_*`` of state.py)."""
    cdef int seat = s[H_TO_MOVE], phase = s[H_PHASE], i, j, card, pile, cell, reveal, other, source, corner
    cdef int was_hidden
    cdef int cards[4]
    if phase == P_ARRANGE:
        start_cards(s, seat, cards)
        for card in range(KINDS):
            s[START + seat * KINDS + card] = 0
        for i in range(4):
            s[KINGDOMS + seat * CELLS + CENTRE[i]] = cards[PERMS[action - A_ARRANGE][i]]
        if seat + 1 < r.players:
            s[H_TO_MOVE] = seat + 1
        else:
            s[H_TO_MOVE] = 0
            s[H_PHASE] = P_TERRITORIES
    elif phase == P_CHOOSE:
        if action == A_DRAW:
            s[H_PHASE] = P_DRAW
        elif action == A_DRAW2:
            s[H_DRAWS] = 2
            s[H_PHASE] = P_DRAW
        elif action == A_TAKE_DRAW:
            s[PAIR] = pop(s, 0)
            s[PAIR + 1] = 0
            s[H_NPAIR] = 1
            s[H_DRAWS] = 1
            s[H_PHASE] = P_DRAW
        else:
            pile = action - A_TAKE
            s[H_HOLD] = pop(s, pile)
            s[H_HOLD_FROM] = 0
            s[H_HOLD_PILE] = pile
            s[H_PHASE] = P_PLACE
    elif phase == P_PLACE:
        reveal = action >= A_REVEAL
        pile = (action - (A_REVEAL if reveal else A_PLACE)) // CELLS
        cell = (action - (A_REVEAL if reveal else A_PLACE)) % CELLS
        was_hidden = (s[HIDDEN + seat] >> cell) & 1
        if reveal:
            push(s, pile, s[H_HOLD])
        else:
            push(s, pile, s[KINGDOMS + seat * CELLS + cell])
            s[KINGDOMS + seat * CELLS + cell] = s[H_HOLD]
            if r.mode == OBJECTS and s[ACCORDS + seat * CELLS + cell] >= 0:   # AE-24: the Accord leaves with its Tribe
                s[TDISC + s[ACCORDS + seat * CELLS + cell]] += 1
                s[ACCORDS + seat * CELLS + cell] = -1
        s[HIDDEN + seat] &= ~(1 << cell)
        s[H_HOLD] = -1
        s[H_HOLD_FROM] = -1
        s[H_HOLD_PILE] = 0
        if r.mode == OBJECTS and was_hidden and s[TERR + seat * CELLS + cell] >= 0:
            s[H_PENDING] = s[TERR + seat * CELLS + cell]
            clear_slot(s, r, seat, cell)
            s[H_PHASE] = P_TILE
        else:
            after_placement(s, r)
    elif phase == P_TILE:
        if action == A_TILE_TAKE:
            s[OWNED + seat * 64 + s[H_PENDING]] += 1
        else:
            s[TDISC + s[H_PENDING]] += 1
        s[H_PENDING] = -1
        after_placement(s, r)
    elif phase == P_END_TURN:
        if action == A_END:
            finish_turn(s, r)
        elif action > A_END:                     # Objects: a tile play
            play_tile(s, r, seat, action)
            continue_end_turn(s, r)
        elif action > A_CLAIM_SWORD:             # Objects: a battle won with the Magic Sword
            s[TDISC + take_owned(s, seat, T_SWORD)] += 1
            s[H_CLAIMED] = 1
            s[ROW + action - A_CLAIM_SWORD] = 0
            s[HELD + seat * 16 + action - A_CLAIM_SWORD] = 1
            refill_then(s, r, AFTER_END_TURN)
        elif r.mode == SOLO:
            s[H_CLAIMED] = 1
            s[WRITTEN + action - A_CLAIM] = 1
            continue_end_turn(s, r)
        else:
            s[H_CLAIMED] = 1
            s[ROW + action - A_CLAIM] = 0
            s[HELD + seat * 16 + action - A_CLAIM] = 1
            refill_then(s, r, AFTER_END_TURN)
    elif phase == P_LEGEND_DISCARD:
        s[ROW + action - A_LDISCARD] = 0
        s[LDISCARD + action - A_LDISCARD] = 1
        refill_then(s, r, AFTER_COOP_NEXT)
    elif phase == P_KEEP:
        card = action - A_KEEP
        source = 0
        for i in range(2):                       # AE-33: a drawn copy keeps its options
            if s[PAIR + 2 * i] == card and s[PAIR + 2 * i + 1] == 1:
                source = 1
        i = 0 if s[PAIR] == card and s[PAIR + 1] == source else 1
        other = s[PAIR + 2 * (1 - i)]
        s[H_NPAIR] = 0
        for j in range(4):
            s[PAIR + j] = 0
        push(s, 0, other)
        s[H_HOLD] = card
        s[H_HOLD_FROM] = source
        s[H_PHASE] = P_PLACE
    elif phase == P_SWAP:
        if action != A_NOSWAP:
            i = (action - A_SWAP) // LEGENDS + 1
            j = (action - A_SWAP) % LEGENDS + 1
            s[SROW + i] = s[H_AGE] + 2
            s[SROW + j] = s[H_AGE] + 1
        s[H_PHASE] = P_CHOOSE if s[H_TURN] == 0 and s[H_AGE] == 0 else P_BLOCK
    elif phase == P_BLOCK:
        corner = BLOCKS[action - A_BLOCK]
        cards[0] = s[KINGDOMS + corner]
        cards[1] = s[KINGDOMS + corner + 1]
        cards[2] = s[KINGDOMS + corner + 4]
        cards[3] = s[KINGDOMS + corner + 5]
        for i in range(KINDS):
            s[PILE + i] = 2 * r.deck_players
        for i in range(CELLS):
            s[KINGDOMS + i] = -1
        for i in range(4):
            s[PILE + cards[i]] -= 1
            s[KINGDOMS + CENTRE[i]] = cards[i]
        s[HIDDEN] = 0
        s[H_PILE_KNOWN] = 0
        s[H_NDISC] = 0
        s[H_PHASE] = P_TERRITORIES


cdef int draw_card(int32_t* s, const int32_t* excluded) noexcept nogil:
    """A card kind from the pile, each with its copies' chance (kinds where ``excluded`` is set: none)."""
    cdef int k, n = 0, x
    for k in range(KINDS):
        if excluded == NULL or not excluded[k]:
            n += s[PILE + k]
    x = draw_random(s, n)
    for k in range(KINDS):
        if excluded == NULL or not excluded[k]:
            if x < s[PILE + k]:
                s[PILE + k] -= 1
                return k
            x -= s[PILE + k]
    return -1


cdef int draw_legend(int32_t* s) noexcept nogil:
    cdef int n, x = draw_random(s, deck_count(s))
    for n in range(1, LEGENDS + 1):
        if s[DECK + n]:
            if x == 0:
                s[DECK + n] = 0
                return n
            x -= 1
    return -1


cdef inline int count_row(const int32_t* s, int age) noexcept nogil:
    """Solo: the Legends in the row of Age ``age``."""
    cdef int n, count = 0
    for n in range(1, LEGENDS + 1):
        if s[SROW + n] == age + 1:
            count += 1
    return count


cdef int chance(int32_t* s, const Rules* r) noexcept nogil:
    """Draw the row's chance event and apply it (``_apply_chance`` of state.py); the outcome's chance id."""
    cdef int phase = s[H_PHASE], legend, card, seat, c, i, done, pile
    if phase == P_LEGENDS and r.mode == SOLO:
        legend = draw_legend(s)
        for i in range(3):
            if count_row(s, i) < SOLO_ROWS[i]:
                s[SROW + legend] = i + 1
                break
        if count_row(s, 2) == SOLO_ROWS[2]:
            s[H_PHASE] = P_START
        return C_LEGEND + legend
    if phase == P_LEGENDS or phase == P_REFILL:
        legend = draw_legend(s)
        s[ROW + legend] = 1
        if phase == P_REFILL:
            after_refill(s, r)
        elif row_count(s) == r.target:
            s[H_PHASE] = P_START
        return C_LEGEND + legend
    if phase == P_START:
        seat = 0
        while total(s + START + seat * KINDS, KINDS) == 4:
            seat += 1
        card = draw_card(s, s + START + seat * KINDS)
        s[START + seat * KINDS + card] = 1
        if seat == r.players - 1 and total(s + START + seat * KINDS, KINDS) == 4:
            s[H_PHASE] = P_ARRANGE
            s[H_TO_MOVE] = 0
        return C_CARD + card
    if phase == P_TILES:
        return C_TILE + deal_tile(s, r, draw_random(s, undealt_of_next(s)))
    card = draw_card(s, NULL)
    if phase == P_TERRITORIES:
        done = 1
        for seat in range(r.players):
            for i in range(12):
                c = RING[i]
                if s[KINGDOMS + seat * CELLS + c] < 0:
                    if done:
                        s[KINGDOMS + seat * CELLS + c] = card
                        s[HIDDEN + seat] |= 1 << c
                        done = 0
                    else:
                        return C_CARD + card
        s[H_PHASE] = P_TILES if r.mode == OBJECTS else P_FIRST_DISCARD
    elif phase == P_FIRST_DISCARD:
        pile = 0 if s[H_NDISC] == 0 else 1
        push(s, pile, card)
        if pile == r.piles - 1:
            s[H_TO_MOVE] = 0
            s[H_PHASE] = P_SWAP if r.mode == SOLO and s[H_AGE] == 0 and s[H_TURN] == 0 else P_CHOOSE
    elif phase == P_REFORM:
        push(s, 0, card)
        next_player(s, r)
    elif s[H_DRAWS] > 0:  # P_DRAW, solo's pair
        s[PAIR + 2 * s[H_NPAIR]] = card
        s[PAIR + 2 * s[H_NPAIR] + 1] = 1
        s[H_NPAIR] += 1
        s[H_DRAWS] -= 1
        if s[H_DRAWS] == 0:
            s[H_PHASE] = P_KEEP
    else:  # P_DRAW
        s[H_HOLD] = card
        s[H_HOLD_FROM] = 1
        s[H_PHASE] = P_PLACE
    return C_CARD + card


cdef int settle(int32_t* s, const Rules* r, int32_t* drawn) noexcept nogil:
    """Draw chance events up to the next decision or the end; their ids into ``drawn`` (-1 after the last)."""
    cdef int k = 0, outcome
    while current_player(s) == CHANCE and k < MAX_DRAWS:
        outcome = chance(s, r)
        if drawn != NULL:
            drawn[k] = outcome
        k += 1
    if drawn != NULL:
        while k < MAX_DRAWS:
            drawn[k] = -1
            k += 1
    return k


cdef void deal_row(int32_t* s, const Rules* r, uint64_t seed) noexcept nogil:
    """A new game (``AetheryaState(game)``), its set-up drawn to the first decision (the first arrangement)."""
    cdef int i
    for i in range(STATE_LEN):
        s[i] = 0
    for i in range(KINDS):
        s[PILE + i] = 2 * r.deck_players
    for i in range(64):
        s[KINGDOMS + i] = -1
    for i in range(1, LEGENDS + 1):
        s[DECK + i] = 1
    s[H_HOLD] = -1
    s[H_HOLD_FROM] = -1
    s[H_PHASE] = P_LEGENDS
    if r.mode == OBJECTS:
        deal_objects(s, r)
    store_rng(s, stream_seed(seed, 0))
    settle(s, r, NULL)


# -- checks of the Python-facing functions ------------------------------------------------------------------------
cdef Rules rules_of(const int32_t[::1] config) except *:
    cdef Rules r
    cdef int seat, i
    if config.shape[0] < 2 or config.shape[0] != (50 if config[0] == OBJECTS else 2) \
            or not ((config[0] in (BASE, COOP, OBJECTS) and 2 <= config[1] <= 4)
                    or (config[0] == SOLO and config[1] == 1)):
        raise ValueError("config: expected (mode, players): mode 0 (base), 1 (co-op) or 3 (Objects, then the 12 tile "
                         f"kinds of each of 4 families) with 2-4 players, or 2 (solo) with 1, got {list(config)}")
    for i in range(2, config.shape[0]):
        if not 0 <= config[i] < TILE_KINDS:
            raise ValueError(f"config[{i}]: expected a tile kind 0..{TILE_KINDS - 1}, got {config[i]}")
        r.family[(i - 2) // TILE_KINDS][(i - 2) % TILE_KINDS] = config[i]
    r.mode = config[0]
    r.players = config[1]
    r.deck_players = 2 if r.mode == SOLO else r.players
    r.piles = 2 if r.mode == COOP else 1
    r.target = ROW_TARGET[r.mode][r.players]
    return r


cdef inline bint valid_tiles(const int32_t* s) noexcept nogil:
    """Objects: the words that hold a tile (an index into the tile blocks) hold -1 or a tile 0..63."""
    cdef int i
    for i in range(64):
        if not (-1 <= s[TERR + i] < 64 and -1 <= s[ACCORDS + i] < 64 and -1 <= s[STAFFS + i] < 64):
            return False
    return True


cdef inline bint valid_header(const int32_t* s) noexcept nogil:
    """The header words that index the kernel's tables are in range."""
    return 0 <= s[H_PHASE] < N_PHASES and 0 <= s[H_TO_MOVE] < 4 and 0 <= s[H_NDISC] <= DISC_CAP \
        and 0 <= s[H_NDISC + 1] <= DISC_CAP and -1 <= s[H_HOLD] < KINDS and -1 <= s[H_HOLD_FROM] <= 1 \
        and 0 <= s[H_HOLD_PILE] <= 1 and 0 <= s[H_AFTER] <= AFTER_COOP_NEXT and 0 <= s[H_AGE] <= 2 \
        and 0 <= s[H_NPAIR] <= 2 and 0 <= s[H_NSCORES] <= 3 and 0 <= s[H_DRAWS] <= 2 and -1 <= s[H_PENDING] < 64


cdef void check_rows(const int32_t[:, ::1] states, Py_ssize_t n, bint tiles=False) except *:
    """Each row's header words (and with ``tiles``, Objects' tile words) are in range."""
    cdef Py_ssize_t i
    if states.shape[1] != STATE_LEN:
        raise ValueError(f"states: expected rows of {STATE_LEN} int32 words, got {states.shape[1]}")
    if n >= 0 and states.shape[0] != n:
        raise ValueError(f"states: expected {n} rows, got {states.shape[0]}")
    for i in range(states.shape[0]):
        if not valid_header(&states[i, 0]) or (tiles and not valid_tiles(&states[i, 0])):
            raise ValueError(f"states[{i}]: not a row of this kernel (a header or tile word out of range: phase "
                             f"{states[i, H_PHASE]}, to_move {states[i, H_TO_MOVE]}, hold {states[i, H_HOLD]})")


cdef inline void check_length(Py_ssize_t got, Py_ssize_t n, str name) except *:
    if got != n:
        raise ValueError(f"{name}: expected n entries ({n}), got {got}")


def deal(int32_t[:, ::1] states, const int32_t[::1] config, const int32_t[::1] slots, const uint64_t[::1] seeds):
    """A new game in row ``slots[j]`` of ``states`` for each ``j``, its set-up drawn from the stream of ``seeds[j]``."""
    cdef Rules r = rules_of(config)
    cdef Py_ssize_t j, n = states.shape[0]
    if states.shape[1] != STATE_LEN:
        raise ValueError(f"states: expected rows of {STATE_LEN} int32 words, got {states.shape[1]}")
    check_length(seeds.shape[0], slots.shape[0], "seeds")
    for j in range(slots.shape[0]):
        if not 0 <= slots[j] < n:
            raise ValueError(f"slots[{j}]: expected a row 0..{n - 1}, got {slots[j]}")
    with nogil:
        for j in range(slots.shape[0]):
            deal_row(&states[slots[j], 0], &r, seeds[j])


def players(const int32_t[:, ::1] states, int32_t[::1] out):
    """``out[i]``: who acts in row ``i`` (-1 a chance event, -4 the game is over)."""
    cdef Py_ssize_t i, n = states.shape[0]
    check_rows(states, -1)
    check_length(out.shape[0], n, "out")
    for i in range(n):
        out[i] = current_player(&states[i, 0])


def legal_actions(const int32_t[:, ::1] states, const int32_t[::1] config, int32_t[:, ::1] out,
                  int32_t[::1] counts):
    """``out[i, :counts[i]]``: the ascending legal actions of row ``i`` (``out`` at least ``MAX_LEGAL`` wide)."""
    cdef Rules r = rules_of(config)
    cdef Py_ssize_t i, n = states.shape[0]
    check_rows(states, -1, r.mode == OBJECTS)
    check_length(counts.shape[0], n, "counts")
    if out.shape[0] != n or out.shape[1] < MAX_LEGAL:
        raise ValueError(f"out: expected ({n}, >= {MAX_LEGAL})")
    with nogil:
        for i in range(n):
            counts[i] = list_legal(&states[i, 0], &r, &out[i, 0])


def legal_mask(const int32_t[:, ::1] states, const int32_t[::1] config, uint8_t[:, ::1] out):
    """Set ``out[i, a]`` for each legal action ``a`` of row ``i`` (``out`` zeroed, ``NUM_ACTIONS`` wide)."""
    cdef Rules r = rules_of(config)
    cdef Py_ssize_t i, n = states.shape[0]
    cdef int k, count
    cdef int32_t listed[MAX_LEGAL]
    check_rows(states, -1, r.mode == OBJECTS)
    if out.shape[0] != n or out.shape[1] != NUM_ACTIONS:
        raise ValueError(f"out: expected ({n}, {NUM_ACTIONS})")
    with nogil:
        for i in range(n):
            count = list_legal(&states[i, 0], &r, listed)
            for k in range(count):
                out[i, listed[k]] = 1


def random_legal(const int32_t[:, ::1] states, const int32_t[::1] config, const double[::1] uniforms,
                 int32_t[::1] out):
    """``out[i]``: the legal action of rank ``floor(uniforms[i] * count)`` of row ``i``, -1 where nobody decides."""
    cdef Rules r = rules_of(config)
    cdef Py_ssize_t i, n = states.shape[0]
    cdef int count
    cdef int32_t listed[MAX_LEGAL]
    check_rows(states, -1, r.mode == OBJECTS)
    check_length(uniforms.shape[0], n, "uniforms")
    check_length(out.shape[0], n, "out")
    if n > 0:
        check_unit_interval(&uniforms[0], n, 0)
    with nogil:
        for i in range(n):
            count = list_legal(&states[i, 0], &r, listed)
            out[i] = listed[<int>(uniforms[i] * count)] if count > 0 else -1


cdef bint is_legal(const int32_t* s, const Rules* r, int action) noexcept nogil:
    cdef int32_t listed[MAX_LEGAL]
    cdef int k, count = list_legal(s, r, listed)
    for k in range(count):
        if listed[k] == action:
            return True
    return False


def step(int32_t[:, ::1] states, const int32_t[::1] config, const int32_t[::1] actions, const uint8_t[::1] settled,
         int32_t[:, ::1] drawn, int32_t[::1] out_players):
    """Check every row's action; if one is illegal return the first such row and change nothing. Else play each,
    then (where ``settled[i]``) draw the chance events to the next decision into ``drawn[i]`` (-1 after the last),
    write who acts next into ``out_players`` and return -1."""
    cdef Rules r = rules_of(config)
    cdef Py_ssize_t i, n = states.shape[0]
    cdef int bad = -1, k
    check_rows(states, -1, r.mode == OBJECTS)
    check_length(actions.shape[0], n, "actions")
    check_length(settled.shape[0], n, "settled")
    check_length(out_players.shape[0], n, "out_players")
    if drawn.shape[0] != n or drawn.shape[1] != MAX_DRAWS:
        raise ValueError(f"drawn: expected ({n}, {MAX_DRAWS})")
    with nogil:
        for i in range(n):
            if current_player(&states[i, 0]) < 0 or not is_legal(&states[i, 0], &r, actions[i]):
                bad = <int>i
                break
        if bad < 0:
            for i in range(n):
                apply_decision(&states[i, 0], &r, actions[i])
                if settled[i]:
                    settle(&states[i, 0], &r, &drawn[i, 0])
                else:
                    for k in range(MAX_DRAWS):
                        drawn[i, k] = -1
                out_players[i] = current_player(&states[i, 0])
    return bad


def returns(const int32_t[:, ::1] states, const int32_t[::1] config, double[:, ::1] out):
    """``out[i]``: the returns of row ``i`` now (``AetheryaState.returns``: each kingdom with its Legends; co-op:
    the lowest kingdom less the Legends the group discarded, for everyone; solo: the Ages' scores, 0 on failure)."""
    cdef Rules r = rules_of(config)
    cdef Py_ssize_t i, n = states.shape[0]
    cdef int seat, legend, board, lowest, lost
    cdef const int32_t* s
    check_rows(states, -1, r.mode == OBJECTS)
    if out.shape[0] != n or out.shape[1] != r.players:
        raise ValueError(f"out: expected ({n}, {r.players})")
    with nogil:
        for i in range(n):
            s = &states[i, 0]
            if r.mode == SOLO:
                out[i, 0] = 0 if s[H_FAILED] else total(s + AGE_SCORES, s[H_NSCORES])
                continue
            lowest = 1 << 30
            for seat in range(r.players):
                if r.mode == OBJECTS:              # with its Accords and Staffs, Legends and Power Stones (AE-30)
                    board = board_total(s, seat) + stones(s, seat)
                else:
                    legends_met(s, seat, &board)
                if r.mode == BASE or r.mode == OBJECTS:
                    for legend in range(1, LEGENDS + 1):
                        board += LEGEND_POINTS[legend] * s[HELD + seat * 16 + legend]
                    out[i, seat] = board
                elif board < lowest:
                    lowest = board
            if r.mode == COOP:
                lost = 0
                for legend in range(1, LEGENDS + 1):
                    lost += LEGEND_POINTS[legend] * s[LDISCARD + legend]
                for seat in range(r.players):
                    out[i, seat] = lowest - lost


# -- observations (fill_public and fill_private of solver/aetherya/openspiel.py) ----------------------------------
cdef inline void legend_plane(const int32_t* flags, float[:, :] plane, Py_ssize_t i, int offset) noexcept nogil:
    cdef int legend
    for legend in range(1, LEGENDS + 1):
        if flags[legend]:
            plane[i, offset + legend - 1] = 1


def observe(const int32_t[:, ::1] states, const int32_t[::1] config, const int32_t[::1] observers,
            float[:, :] kingdoms, float[:, :] discard, float[:, :] pile, float[:, :] unseen, float[:, :] start,
            float[:, :] hold, float[:, :] phase, float[:, :] to_move, float[:, :] seat, float[:, :] turn,
            float[:, :] flags, float[:, :] legends, float[:, :] legend_deck, float[:, :] held, float[:, :] box,
            float[:, :] legend_discard, float[:, :] wrote, float[:, :] age, float[:, :] age_rows, float[:, :] written,
            float[:, :] age_scores, float[:, :] failed, float[:, :] pair, float[:, :] draws, float[:, :] territory,
            float[:, :] accords, float[:, :] staffs, float[:, :] owned, float[:, :] tile_discard,
            float[:, :] unrevealed, float[:, :] undealt, float[:, :] pending, float[:, :] peeks,
            float[:, :] peeks_used, float[:, :] mine, float[:, :] peeked):
    """Fill each row's zeroed pieces (flattened per row: ``[n, size]``) of the observation by ``observers[i]``: the
    public pieces and that player's ``mine`` (``box``, ``legend_discard`` and ``wrote`` are written in co-op only,
    ``age`` to ``draws`` in solo only, ``territory`` to ``peeks_used`` and the private ``peeked`` with Objects only:
    other modes may pass ``[n, 0]`` arrays)."""
    cdef Rules r = rules_of(config)
    cdef int t = TILE_KINDS * r.players, p = r.players
    cdef Py_ssize_t i, n = states.shape[0]
    cdef int q, c, card, k, d, depth, actor, deck = 20 * r.deck_players, length
    cdef double seen[10]
    cdef const int32_t* s
    check_rows(states, -1, r.mode == OBJECTS)
    check_length(observers.shape[0], n, "observers")
    if kingdoms.shape[0] != n or kingdoms.shape[1] != r.players * CELLS * (KINDS + 2) \
            or discard.shape[1] != r.piles * deck * KINDS or mine.shape[0] != n \
            or (r.mode == COOP and (box.shape[1] != LEGENDS or legend_discard.shape[1] != LEGENDS
                                    or wrote.shape[1] != 1)) \
            or (r.mode == SOLO and (age.shape[1] != 3 or age_rows.shape[1] != 3 * LEGENDS
                                    or written.shape[1] != LEGENDS or age_scores.shape[1] != 3
                                    or failed.shape[1] != 1 or pair.shape[1] != 2 * (KINDS + 3)
                                    or draws.shape[1] != 1)) \
            or (r.mode == OBJECTS and (territory.shape[1] != p * CELLS * (1 + t) or accords.shape[1] != p * CELLS * p
                                       or staffs.shape[1] != p * CELLS * p or owned.shape[1] != p * t
                                       or tile_discard.shape[1] != t or unrevealed.shape[1] != p
                                       or undealt.shape[1] != p or pending.shape[1] != t + 1
                                       or peeks.shape[1] != p * p * CELLS or peeks_used.shape[1] != 1
                                       or peeked.shape[1] != p * CELLS * t)):
        raise ValueError("observe: expected n rows of this mode's and player count's pieces")
    for i in range(n):
        if not 0 <= observers[i] < r.players:
            raise ValueError(f"observers[{i}]: expected a seat 0..{r.players - 1}, got {observers[i]}")
    with nogil:
        for i in range(n):
            s = &states[i, 0]
            for k in range(KINDS):
                seen[k] = 0
            for q in range(r.players):
                for c in range(CELLS):
                    card = s[KINGDOMS + q * CELLS + c]
                    if card < 0:
                        kingdoms[i, (q * CELLS + c) * (KINDS + 2) + KINDS + 1] = 1
                    elif (s[HIDDEN + q] >> c) & 1:
                        kingdoms[i, (q * CELLS + c) * (KINDS + 2) + KINDS] = 1
                    else:
                        kingdoms[i, (q * CELLS + c) * (KINDS + 2) + card] = 1
                        seen[card] += 1
                start[i, q] = <float>(total(s + START + q * KINDS, KINDS) / 4.0)
                legend_plane(s + HELD + q * 16, held, i, q * LEGENDS)
            for d in range(r.piles):
                length = s[H_NDISC + d]
                for depth in range(length):
                    card = s[DISC + d * DISC_CAP + length - 1 - depth]
                    discard[i, (d * deck + depth) * KINDS + card] = 1
                    seen[card] += 1
            pile[i, 0] = <float>(total(s + PILE, KINDS) / <double>deck)
            if s[H_PILE_KNOWN]:
                pile[i, 1] = 1
                for k in range(KINDS):
                    pile[i, 2 + k] = <float>(s[PILE + k] / <double>deck)
                    seen[k] += s[PILE + k]
            if s[H_HOLD] >= 0:
                hold[i, s[H_HOLD]] = 1
                seen[s[H_HOLD]] += 1
                hold[i, KINDS + 1 + s[H_HOLD_FROM]] = 1
            else:
                hold[i, KINDS] = 1
                hold[i, KINDS + 3] = 1
            hold[i, KINDS + 4 + s[H_HOLD_PILE]] = 1
            for k in range(s[H_NPAIR]):
                seen[s[PAIR + 2 * k]] += 1
            for k in range(KINDS):
                unseen[i, k] = <float>((2 * r.deck_players - seen[k]) / <double>deck)
            phase[i, s[H_PHASE]] = 1
            actor = current_player(s)
            to_move[i, actor if actor >= 0 else r.players] = 1
            seat[i, s[H_TO_MOVE]] = 1
            turn[i, 0] = <float>(s[H_TURN] / 100.0)
            flags[i, 0] = s[H_CLAIMED]
            flags[i, 1 + s[H_AFTER]] = 1
            legend_plane(s + ROW, legends, i, 0)
            legend_deck[i, 0] = <float>(deck_count(s) / 15.0)
            if r.mode == COOP:
                legend_plane(s + BOX, box, i, 0)
                legend_plane(s + LDISCARD, legend_discard, i, 0)
                wrote[i, 0] = s[H_WROTE]
            if r.mode == SOLO:
                age[i, s[H_AGE]] = 1
                for k in range(1, LEGENDS + 1):
                    if s[SROW + k] > 0:
                        age_rows[i, (s[SROW + k] - 1) * LEGENDS + k - 1] = 1
                legend_plane(s + WRITTEN, written, i, 0)
                for k in range(s[H_NSCORES]):
                    age_scores[i, k] = <float>(s[AGE_SCORES + k] / 100.0)
                failed[i, 0] = s[H_FAILED]
                for k in range(s[H_NPAIR]):
                    pair[i, k * (KINDS + 3) + s[PAIR + 2 * k]] = 1
                    pair[i, k * (KINDS + 3) + KINDS + s[PAIR + 2 * k + 1]] = 1
                    pair[i, k * (KINDS + 3) + KINDS + 2] = 1
                draws[i, 0] = s[H_DRAWS]
            if r.mode == OBJECTS:
                observe_objects(s, &r, observers[i], i, territory, accords, staffs, owned, tile_discard, unrevealed,
                                undealt, pending, peeks, peeks_used, peeked)
            for k in range(KINDS):
                mine[i, k] = <float>(s[START + observers[i] * KINDS + k] * 0.25)
