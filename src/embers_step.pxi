"""N Embers of Memory games stepped together (compiled kernel), for the batched environment of ``solver/openspiel/``.

The rules are those of ``solver/embers/state.py`` (rule ids ``EM-n`` of ``docs/rules/embers-of-memory.md``),
function for function, on a state vector of ``STATE_LEN`` int32 words per game (a row of ``states``); the Mind's
rules (placements EM-3..EM-6, visibility EM-11, sections EM-8, same-suit groups EM-15) are the shared inline
helpers of ``embers_core.pxd``. Actions are the OpenSpiel adapter's ids (``EmbersCodec`` in
``solver/embers/openspiel.py``), legal lists ascending as the adapter's; chance outcomes are card indices drawn
uniformly from the ascending list of the cards that can come (the deck; a deal skips the demons, EM-32).

The deck is ``deck[c] = (suit, strength, blocked)`` (strength 0: a demon); the row layout and its list helpers are
``embers_row.pxd`` (documented in ``docs/openspiel.md``).

Twin: ``solver/twins/embers_step.py`` (same functions, same parameters, same results).
"""

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset
from common cimport check_unit_interval, index_in_sorted
from embers_row cimport *
from embers_core cimport (MAX_SIDE, bit, lowest, lowest_bit, bounding_box, lay_card, row_legal, overlap_graph,
                          visible_cards, closure, suit_group, total_strength)

# the phase's index in ``PHASES[chapter]`` of solver/embers/state.py (observation), per chapter
cdef int PHASE_INDEX[2][N_PHASES]
PHASE_INDEX[0][:] = [0, 1, 2, 3, 4, 5, 6, 7, 8, -1, -1]
PHASE_INDEX[1][:] = [4, 3, -1, -1, -1, 6, 5, 0, 7, 1, 2]


def state_len():
    """The int32 words of one game's row."""
    return STATE_LEN


def layout():
    """The row's blocks: name -> first word (``embers_row.pxd``), and the header's words by name."""
    return {"PILE": PILE, "MIND": MIND, "ROW": ROW, "DISCARD": DISCARD, "BOX": BOX, "DEMONS": DEMONS,
            "DEMON_WORDS": DEMON_WORDS, "STRENGTH": STRENGTH, "ROW_WORDS": ROW_WORDS, "chapter": H_CHAPTER,
            "part": H_PART, "day": H_DAY, "turn": H_TURN, "phase": H_PHASE, "completed": H_COMPLETED,
            "added": H_ADDED, "kind": H_PKIND, "value": H_PVALUE, "result": H_RESULT, "n_mind": H_NMIND,
            "n_row": H_NROW, "n_demons": H_NDEMONS, "n_discard": H_NDISCARD, "n_box": H_NBOX, "n_rows": H_NROWS,
            "n_pile": H_NPILE}


def max_draws():
    """At most how many chance outcomes follow one decision (the width of ``uniforms`` and ``drawn``)."""
    return MAX_DRAWS


# -- the Mind (embers_core.pxd) ---------------------------------------------------------------------------------
cdef inline int mind_arrays(const int32_t* s, int32_t* xs, int32_t* ys) noexcept nogil:
    cdef int k, n = s[H_NMIND]
    for k in range(n):
        xs[k] = s[MIND + 3 * k + 1]
        ys[k] = s[MIND + 3 * k + 2]
    return n


cdef inline uint64_t row_visible(const int32_t* s) noexcept nogil:
    cdef int32_t xs[MAXC]
    cdef int32_t ys[MAXC]
    cdef int32_t minx, miny, maxx, maxy
    cdef int n = mind_arrays(s, xs, ys)
    if n == 0:
        return 0
    bounding_box(xs, ys, n, &minx, &miny, &maxx, &maxy)
    return visible_cards(xs, ys, n, minx, miny)


cdef inline int sections(const int32_t* s, uint64_t* parts) noexcept nogil:
    """The sections of the visible Mind (masks of stack positions, by their lowest card); returns their number."""
    cdef int32_t xs[MAXC]
    cdef int32_t ys[MAXC]
    cdef uint64_t adj[MAXC]
    cdef uint64_t shown = row_visible(s), rest
    cdef int n = mind_arrays(s, xs, ys), count = 0
    if n == 0:
        return 0
    overlap_graph(xs, ys, n, adj)
    rest = shown
    while rest:
        parts[count] = closure(lowest(rest), shown, adj)
        rest &= ~parts[count]
        count += 1
    return count


cdef inline bint relives(const int32_t* s, const Deck* d) noexcept nogil:
    """Whether the top card completes a same-suit group of strength exactly 7 (EM-15)."""
    cdef int32_t xs[MAXC]
    cdef int32_t ys[MAXC]
    cdef uint64_t adj[MAXC]
    cdef uint8_t suits[MAXC]
    cdef uint8_t strengths[MAXC]
    cdef int k, n = mind_arrays(s, xs, ys)
    if n == 0:
        return False
    for k in range(n):
        suits[k] = suit(d, s[MIND + 3 * k])
        strengths[k] = strength(d, s[MIND + 3 * k])
    overlap_graph(xs, ys, n, adj)
    return total_strength(suit_group(suits, n, n - 1, adj), strengths) == TARGET


cdef inline int placements(const int32_t* s, const Deck* d, int card, int32_t* out, bint any_only) noexcept nogil:
    """The add ids of ``card``'s legal placements (EM-3..EM-6), ascending (by x, then y), into ``out``; with
    ``any_only``, 1 as soon as one is found. Returns the count."""
    cdef uint64_t occ[MAX_SIDE]
    cdef uint64_t blk[MAX_SIDE]
    cdef uint64_t masks[MAX_SIDE]
    cdef uint64_t cols, found = 0
    cdef int32_t xs[MAXC]
    cdef int32_t ys[MAXC]
    cdef int32_t minx, miny, maxx, maxy, x0, y0
    cdef int n = mind_arrays(s, xs, ys), k, r, c, width, height, count = 0
    if n == 0:
        return 0
    bounding_box(xs, ys, n, &minx, &miny, &maxx, &maxy)
    x0, y0 = minx - 1, miny - 1
    width, height = maxx - minx + 4, maxy - miny + 4
    for r in range(MAX_SIDE):
        occ[r] = 0
        blk[r] = 0
    for k in range(n):
        lay_card(occ, blk, xs[k] - x0, ys[k] - y0, <uint8_t>d.info[3 * s[MIND + 3 * k] + 2])
    cols = (bit(width - 1) - 1) if width > 1 else 0
    for r in range(height - 1):
        masks[r] = row_legal(<uint8_t>d.info[3 * card + 2], blk[r], occ[r] & ~blk[r], blk[r + 1],
                             occ[r + 1] & ~blk[r + 1]) & cols
        found |= masks[r]
    if found == 0 or any_only:
        return found != 0
    for c in range(width - 1):
        if not (found >> c) & 1:
            continue
        for r in range(height - 1):
            if (masks[r] >> c) & 1:
                out[count] = d.add_base + (card * d.side + x0 + c + d.reach) * d.side + y0 + r + d.reach
                count += 1
    return count


cdef inline bint can_place(const int32_t* s, const Deck* d) noexcept nogil:
    """Whether some memory card of the row has a legal placement in the Mind."""
    cdef int k, card
    for k in range(s[H_NROW]):
        card = s[ROW + k]
        if not is_demon(d, card) and placements(s, d, card, NULL, True):
            return True
    return False


# -- legal actions ----------------------------------------------------------------------------------------------
cdef inline int factorial(int n) noexcept nogil:
    return 24 if n == 4 else 6 if n == 3 else 2 if n == 2 else 1


cdef inline int current_player(const int32_t* s) noexcept nogil:
    cdef int phase = s[H_PHASE]
    if s[H_RESULT] >= 0:
        return TERMINAL
    if phase == P_DRAW or phase == P_DEAL:
        return CHANCE
    if phase == P_REVEAL or phase == P_SPLIT or phase == P_ARRANGE:
        return AELIN
    return s[H_TURN]


cdef inline int row_total(int32_t* s, const Deck* d, int i) noexcept nogil:
    cdef int32_t* row = strength_row(s, i)
    cdef int k, total = strength(d, row[0])
    for k in range(row[3]):
        total += strength(d, row[4 + k])
    return total


cdef inline int revealable(const int32_t* s, const Deck* d, int* rows) noexcept nogil:
    """The strength rows whose face-down Resolve card Aelin may turn now (EM-21, EM-23)."""
    cdef int i, count = 0, value = s[H_PVALUE], last
    cdef const int32_t* row
    if s[H_PKIND] == K_SUIT:
        for i in range(s[H_NROWS]):
            row = s + STRENGTH + i * ROW_WORDS
            if not row[1] and suit(d, row[0]) == value:
                rows[count] = i
                count += 1
    elif s[H_PKIND] == K_ROW:
        row = s + STRENGTH + value * ROW_WORDS
        if not row[1] and row[3] > 0:
            last = row[4 + row[3] - 1]
            if suit(d, last) == suit(d, row[0]):
                rows[0] = value
                count = 1
    return count


cdef inline bint is_first(const uint64_t* parts, int count, int k) noexcept nogil:
    """Whether stack position ``k`` is the lowest card of one of the sections ``parts``."""
    cdef int i
    for i in range(count):
        if lowest(parts[i]) == bit(k):
            return True
    return False


cdef int legal(const int32_t* s, const Deck* d, int32_t* out) noexcept nogil:
    """The legal actions (decision ids, or chance outcomes: card indices), ascending, into ``out``; the count."""
    cdef int phase = s[H_PHASE], count = 0, c, k, i
    cdef int rows[MAX_ROWS]
    cdef uint64_t parts[MAXC]
    cdef uint64_t shown
    cdef bint discards
    if s[H_RESULT] >= 0:
        return 0
    if phase == P_DRAW or phase == P_DEAL:
        for c in range(d.cards):
            if s[PILE + c] and not (phase == P_DEAL and is_demon(d, c)):
                out[count] = c
                count += 1
    elif phase == P_OBSERVE:
        if s[H_NPILE] > 0:
            out[count] = A_DRAW
            count += 1
        out[count] = A_STOP
        count += 1
    elif phase == P_BLINK or phase == P_FIRST or phase == P_SECOND:
        discards = phase == P_SECOND or (phase == P_BLINK and s[H_ADDED])
        if discards:
            for c in range(d.cards):
                if not is_demon(d, c) and find(s + ROW, s[H_NROW], c, 1) >= 0:
                    out[count] = 3 + c
                    count += 1
        for c in range(d.cards):
            if not is_demon(d, c) and find(s + ROW, s[H_NROW], c, 1) >= 0:
                count += placements(s, d, c, out + count, False)
    elif phase == P_ACK:
        shown = row_visible(s)
        for c in range(d.cards):
            k = find(s + MIND, s[H_NMIND], c, 3)
            if k >= 0 and (shown >> k) & 1:
                out[count] = d.take_base + c
                count += 1
    elif phase == P_SPLIT:
        i = sections(s, parts)
        for c in range(d.cards):     # a section's first card (its lowest in the stack), ascending by card
            k = find(s + MIND, s[H_NMIND], c, 3)
            if k >= 0 and is_first(parts, i, k):
                out[count] = d.keep_base + c
                count += 1
    elif phase == P_REVEAL:
        out[count] = A_PASS
        count += 1
        for i in range(revealable(s, d, rows)):
            out[count] = d.reveal_base + rows[i]
            count += 1
    elif phase == P_ARRANGE:
        for i in range(factorial(s[H_NROWS])):
            out[count] = d.arrange_base + i
            count += 1
    return count


# -- applying a decision (solver/embers/state.py, function for function) ----------------------------------------
cdef inline void finish(int32_t* s, int result) noexcept nogil:
    s[H_RESULT] = result
    s[H_PHASE] = P_OVER
    s[H_PKIND] = -1
    s[H_PVALUE] = 0


cdef inline void discard_card(int32_t* s, const Deck* d, int card) noexcept nogil:
    """Discard a memory card, or taint it under the demon of its suit (EM-13)."""
    cdef int i
    cdef int32_t* slot
    if s[H_CHAPTER] == 0:
        for i in range(s[H_NDEMONS]):
            slot = demon_slot(s, i)
            if suit(d, slot[0]) == suit(d, card):
                push(slot + 2, slot + 1, card)
                return
    push(s + DISCARD, s + H_NDISCARD, card)


cdef inline void banish(int32_t* s, const Deck* d, int of_suit) noexcept nogil:
    """EM-20: the demon of the relived suit and its tainted cards go to the discard pile."""
    cdef int i, k
    cdef int32_t* slot
    for i in range(s[H_NDEMONS]):
        slot = demon_slot(s, i)
        if suit(d, slot[0]) == of_suit:
            push(s + DISCARD, s + H_NDISCARD, slot[0])
            for k in range(slot[1]):
                push(s + DISCARD, s + H_NDISCARD, slot[2 + k])
            remove_at(s + DEMONS, s + H_NDEMONS, i, DEMON_WORDS)
            return


cdef inline void start_fenrys_turn(int32_t* s) noexcept nogil:
    s[H_TURN] = FENRYS
    s[H_ADDED] = 0
    s[H_PKIND] = -1
    s[H_PVALUE] = 0
    if s[H_NPILE] == 0:     # EM-40
        finish(s, LOST_DECK)
        return
    s[H_PHASE] = P_DRAW     # EM-10


cdef inline void start_prologue_turn(int32_t* s, const Deck* d, int player) noexcept nogil:
    s[H_TURN] = player
    s[H_ADDED] = 0
    if s[H_NPILE] == 0:     # EM-50: the deck is empty
        finish(s, LOST_DECK)
    elif not can_place(s, d):   # EM-50: cannot play a card
        finish(s, LOST_PLACEMENT)
    else:
        s[H_PHASE] = P_FIRST


cdef inline void start_part_two_turn(int32_t* s, int player) noexcept nogil:
    s[H_TURN] = player
    s[H_ADDED] = 0
    if s[H_NMIND] == 0:     # EM-55
        finish(s, LOST_MIND)
    else:
        s[H_PHASE] = P_ACK


cdef inline void end_prologue_plays(int32_t* s, const Deck* d) noexcept nogil:
    if s[H_PHASE] == P_FIRST:
        s[H_PHASE] = P_SECOND
    elif s[H_NPILE] > 0 and s[H_NROW] < 4:
        s[H_PHASE] = P_DRAW
    else:
        start_prologue_turn(s, d, 1 - s[H_TURN])


cdef inline void start_part_two(int32_t* s, const Deck* d) noexcept nogil:
    """Part two, Setup 1-3: the row and the deck go to the discard pile; Aelin arranges her Resolve."""
    cdef int k, c
    for k in range(s[H_NROW]):
        push(s + DISCARD, s + H_NDISCARD, s[ROW + k])
        s[ROW + k] = 0
    s[H_NROW] = 0
    for c in range(d.cards):
        if s[PILE + c]:
            push(s + DISCARD, s + H_NDISCARD, c)
            s[PILE + c] = 0
    s[H_NPILE] = 0
    s[H_PART] = 2
    s[H_ADDED] = 0
    s[H_TURN] = AELIN
    s[H_PHASE] = P_ARRANGE


cdef inline void prologue_relive(int32_t* s, const Deck* d) noexcept nogil:
    cdef int i
    cdef bint all_up = True
    for i in range(s[H_NROWS]):     # EM-51: flip the first face-down Resolve card
        if not strength_row(s, i)[1]:
            strength_row(s, i)[1] = 1
            break
    for i in range(s[H_NROWS]):
        all_up = all_up and strength_row(s, i)[1]
    if all_up:                      # EM-52: part one is won, part two starts at once
        start_part_two(s, d)
    else:
        end_prologue_plays(s, d)


cdef inline void day_end(int32_t* s, const Deck* d) noexcept nogil:
    """EM-31: Day's End (EM-45: surviving the third day wins)."""
    cdef int i, k, memory = 0
    cdef int32_t* slot
    cdef int32_t* row
    if s[H_DAY] == 3:
        finish(s, WON)
        return
    for k in range(s[H_NMIND]):
        discard_card(s, d, s[MIND + 3 * k])
    for i in range(s[H_NROWS]):
        row = strength_row(s, i)
        discard_card(s, d, row[0])
        for k in range(row[3]):
            discard_card(s, d, row[4 + k])
    for i in range(s[H_NDEMONS]):   # tainted memories are corrupted
        slot = demon_slot(s, i)
        for k in range(slot[1]):
            push(s + BOX, s + H_NBOX, slot[2 + k])
        push(s + DISCARD, s + H_NDISCARD, slot[0])
    memset(s + DEMONS, 0, MAX_DEMONS * DEMON_WORDS * sizeof(int32_t))
    memset(s + MIND, 0, 3 * MAXC * sizeof(int32_t))
    memset(s + STRENGTH, 0, MAX_ROWS * ROW_WORDS * sizeof(int32_t))
    s[H_NDEMONS] = s[H_NMIND] = s[H_NROWS] = s[H_COMPLETED] = s[H_ADDED] = 0
    for k in range(s[H_NDISCARD]):  # the discard pile is shuffled into the deck
        pile_add(s, s[DISCARD + k])
        s[DISCARD + k] = 0
    s[H_NDISCARD] = 0
    s[H_DAY] += 1
    for k in range(d.cards):
        if s[PILE + k] and not is_demon(d, k):
            memory += 1
    if memory < 1 + MAX_ROWS:       # EM-43
        finish(s, LOST_SETUP)
        return
    s[H_PHASE] = P_DEAL


cdef inline void after_acknowledge(int32_t* s, const Deck* d) noexcept nogil:
    if s[H_NMIND] == 0:             # EM-42
        finish(s, LOST_MIND)
        return
    if row_total(s, d, s[H_COMPLETED]) == TARGET:   # EM-17: Speak
        s[H_COMPLETED] += 1
    if s[H_COMPLETED] == s[H_NROWS]:
        day_end(s, d)
    else:
        start_fenrys_turn(s)


cdef inline void end_part_two_take(int32_t* s, const Deck* d) noexcept nogil:
    if row_total(s, d, s[H_COMPLETED]) == TARGET:
        s[H_COMPLETED] += 1
    if s[H_COMPLETED] == s[H_NROWS]:
        finish(s, WON)              # EM-56
    else:
        start_part_two_turn(s, 1 - s[H_TURN])


cdef inline void continue_turn(int32_t* s, const Deck* d) noexcept nogil:
    """Back to the active player once reveals and splits are settled."""
    if s[H_CHAPTER] == 1:
        if s[H_ADDED]:
            end_part_two_take(s, d)
        else:
            start_part_two_turn(s, AELIN)
    elif s[H_TURN] == FENRYS:
        if s[H_NROW] > 0:
            s[H_PHASE] = P_BLINK
        else:
            s[H_TURN] = AELIN
            s[H_PHASE] = P_ACK
    else:
        after_acknowledge(s, d)


cdef inline void check_split(int32_t* s, const Deck* d) noexcept nogil:
    cdef uint64_t parts[MAXC]
    if sections(s, parts) > 1:      # EM-8: Aelin chooses a section, whoever's turn it is
        s[H_PHASE] = P_SPLIT
    else:
        continue_turn(s, d)


cdef inline void keep_section(int32_t* s, const Deck* d, int first) noexcept nogil:
    cdef uint64_t parts[MAXC]
    cdef uint64_t lost = 0
    cdef int count = sections(s, parts), i, k, at = find(s + MIND, s[H_NMIND], first, 3)
    for i in range(count):
        if not (parts[i] >> at) & 1:
            lost |= parts[i]
    for k in range(s[H_NMIND]):
        if (lost >> k) & 1:
            discard_card(s, d, s[MIND + 3 * k])
    for k in range(s[H_NMIND] - 1, -1, -1):
        if (lost >> k) & 1:
            remove_at(s + MIND, s + H_NMIND, k, 3)
    check_split(s, d)               # EM-9


cdef inline void stop_drawing(int32_t* s, const Deck* d) noexcept nogil:
    """End of Observe: demons go to the demon row (EM-12), then Blink starts (EM-41: or the game is lost)."""
    cdef int k = 0
    cdef int32_t* slot
    while k < s[H_NROW]:
        if is_demon(d, s[ROW + k]):
            slot = demon_slot(s, s[H_NDEMONS])
            slot[0] = s[ROW + k]
            slot[1] = 0
            s[H_NDEMONS] += 1
            remove_at(s + ROW, s + H_NROW, k, 1)
        else:
            k += 1
    if not can_place(s, d):
        finish(s, LOST_PLACEMENT)
    else:
        s[H_PHASE] = P_BLINK


cdef inline void after_add(int32_t* s, const Deck* d, int card) noexcept nogil:
    cdef int i
    if relives(s, d):
        if s[H_CHAPTER] == 1:
            prologue_relive(s, d)
            return
        banish(s, d, suit(d, card))                  # EM-20
        for i in range(s[H_NROWS]):
            if not strength_row(s, i)[1]:           # EM-21/EM-22: Aelin's choice after every relive
                s[H_PHASE] = P_REVEAL
                s[H_PKIND] = K_SUIT
                s[H_PVALUE] = suit(d, card)
                return
    if s[H_CHAPTER] == 1:
        end_prologue_plays(s, d)
    else:
        check_split(s, d)


cdef inline void take(int32_t* s, const Deck* d, int card) noexcept nogil:
    cdef int k, others = 0, value = strength(d, card)
    cdef int32_t* row = strength_row(s, s[H_COMPLETED])
    remove_at(s + MIND, s + H_NMIND, find(s + MIND, s[H_NMIND], card, 3), 3)
    if s[H_CHAPTER] == 1:
        s[H_ADDED] = 1              # part two: a card was taken this turn
    if row_total(s, d, s[H_COMPLETED]) + value > TARGET:     # EM-16: over 7, the card is discarded
        discard_card(s, d, card)
        if not row[1]:
            for k in range(row[3]):
                others += strength(d, row[4 + k])
            if TARGET + 1 - others - value > row[2]:
                row[2] = TARGET + 1 - others - value
    else:
        row[4 + row[3]] = card
        row[3] += 1
        if s[H_CHAPTER] == 0 and not row[1]:         # EM-23
            s[H_PHASE] = P_REVEAL
            s[H_PKIND] = K_ROW
            s[H_PVALUE] = s[H_COMPLETED]
            return
    check_split(s, d)


cdef inline void deal_card(int32_t* s, const Deck* d, int card) noexcept nogil:
    """Deal the Mind card, then the Resolve cards (EM-32), in the prologue's set-up then the memory row (EM-50)."""
    cdef int rows = MAX_ROWS - s[H_CHAPTER], c
    cdef int32_t* row
    pile_remove(s, card)
    if s[H_NMIND] == 0:
        s[MIND] = card
        s[MIND + 1] = s[MIND + 2] = 0
        s[H_NMIND] = 1
    elif s[H_NROWS] < rows:
        row = strength_row(s, s[H_NROWS])
        memset(row, 0, ROW_WORDS * sizeof(int32_t))
        row[0] = card
        s[H_NROWS] += 1
    else:
        push(s + ROW, s + H_NROW, card)
    if s[H_CHAPTER] == 1:
        if s[H_NROW] == 4:
            start_prologue_turn(s, d, FENRYS)   # EM-50: Rowan starts
        return
    if s[H_NROWS] == rows:
        if s[H_DAY] == 1:           # EM-30: the demons are shuffled in after the Resolve is dealt
            for c in range(d.cards):
                if is_demon(d, c):
                    pile_add(s, c)
        s[H_TURN] = FENRYS
        s[H_PHASE] = P_ARRANGE      # EM-34


cdef inline void arrange(int32_t* s, const Deck* d, int order) noexcept nogil:
    """Reorder the strength rows by the ``order``-th permutation in lexicographic order."""
    cdef int32_t before[MAX_ROWS * ROW_WORDS]
    cdef int n = s[H_NROWS], i, j, k, f
    cdef int left[MAX_ROWS]
    for i in range(n * ROW_WORDS):
        before[i] = s[STRENGTH + i]
    for i in range(n):
        left[i] = i
    for i in range(n):
        f = factorial(n - 1 - i)
        j = order // f
        order %= f
        for k in range(ROW_WORDS):
            s[STRENGTH + i * ROW_WORDS + k] = before[left[j] * ROW_WORDS + k]
        for k in range(j, n - 1 - i):
            left[k] = left[k + 1]
    s[H_ADDED] = 0
    if s[H_CHAPTER] == 0:
        start_fenrys_turn(s)        # EM-34: Setup step 8, Fenrys goes first
    else:
        check_split(s, d)           # EM-54


cdef void apply(int32_t* s, const Deck* d, int action) noexcept nogil:
    """Apply a legal decision id, or a chance outcome (a card) in a chance phase."""
    cdef int phase = s[H_PHASE], card, rest, x, y
    if phase == P_DRAW:
        pile_remove(s, action)
        push(s + ROW, s + H_NROW, action)
        if s[H_CHAPTER] == 0:
            s[H_PHASE] = P_OBSERVE
        elif s[H_NROW] >= 4 or s[H_NPILE] == 0:
            start_prologue_turn(s, d, 1 - s[H_TURN])
    elif phase == P_DEAL:
        deal_card(s, d, action)
    elif action == A_DRAW:
        s[H_PHASE] = P_DRAW
    elif action == A_STOP:
        stop_drawing(s, d)
    elif action == A_PASS:
        s[H_PKIND] = -1
        s[H_PVALUE] = 0
        check_split(s, d)
    elif action >= d.add_base:
        card = (action - d.add_base) // (d.side * d.side)
        rest = (action - d.add_base) % (d.side * d.side)
        x = rest // d.side
        y = rest % d.side
        remove_at(s + ROW, s + H_NROW, find(s + ROW, s[H_NROW], card, 1), 1)
        s[MIND + 3 * s[H_NMIND]] = card
        s[MIND + 3 * s[H_NMIND] + 1] = x - d.reach
        s[MIND + 3 * s[H_NMIND] + 2] = y - d.reach
        s[H_NMIND] += 1
        s[H_ADDED] = 1
        after_add(s, d, card)
    elif action >= d.arrange_base:
        arrange(s, d, action - d.arrange_base)
    elif action >= d.reveal_base:
        strength_row(s, action - d.reveal_base)[1] = 1
        strength_row(s, action - d.reveal_base)[2] = 0     # the card itself is now public
        s[H_PKIND] = -1
        s[H_PVALUE] = 0
        check_split(s, d)
    elif action >= d.keep_base:
        keep_section(s, d, action - d.keep_base)
    elif action >= d.take_base:
        take(s, d, action - d.take_base)
    else:
        card = action - 3
        remove_at(s + ROW, s + H_NROW, find(s + ROW, s[H_NROW], card, 1), 1)
        discard_card(s, d, card)
        if s[H_CHAPTER] == 1:
            end_prologue_plays(s, d)
        else:
            continue_turn(s, d)


# -- checks -----------------------------------------------------------------------------------------------------
cdef inline bint bad_list(const int32_t* items, int count, int most, int width, int cards) noexcept nogil:
    cdef int k
    if count < 0 or count > most:
        return True
    for k in range(count):
        if items[k * width] < 0 or items[k * width] >= cards:
            return True
    return False


cdef enum:
    SPAN = 30                       # Mind positions within 30 of (0, 0): a span of 60 quarters at most


cdef inline const char* row_problem(const int32_t* s, int cards) noexcept nogil:
    """Why row ``s`` is not a state of this deck (NULL when it is one): the words the kernel relies on."""
    cdef int i, count = 0
    if s[H_CHAPTER] < 0 or s[H_CHAPTER] > 1 or s[H_PHASE] < 0 or s[H_PHASE] >= N_PHASES:
        return "chapter or phase"
    if PHASE_INDEX[s[H_CHAPTER]][s[H_PHASE]] < 0 or s[H_TURN] < 0 or s[H_TURN] > 1:
        return "phase or turn"
    if s[H_RESULT] < -1 or s[H_RESULT] > LOST_SETUP or s[H_DAY] < 1 or s[H_DAY] > 3 or s[H_PART] < 0 \
            or s[H_PART] > 2 or s[H_ADDED] < 0 or s[H_ADDED] > 1:
        return "result, day, part or added"
    if s[H_NROWS] < 0 or s[H_NROWS] > MAX_ROWS - s[H_CHAPTER] or s[H_COMPLETED] < 0 or s[H_COMPLETED] > s[H_NROWS]:
        return "strength rows"
    if s[H_PKIND] < -1 or s[H_PKIND] > K_ROW or s[H_PVALUE] < 0 or s[H_PVALUE] > 4 \
            or (s[H_PKIND] == K_ROW and s[H_PVALUE] >= s[H_NROWS]):
        return "pending"
    if bad_list(s + MIND, s[H_NMIND], MAXC, 3, cards) or bad_list(s + ROW, s[H_NROW], MAXC, 1, cards) \
            or bad_list(s + DISCARD, s[H_NDISCARD], MAXC, 1, cards) or bad_list(s + BOX, s[H_NBOX], MAXC, 1, cards) \
            or bad_list(s + DEMONS, s[H_NDEMONS], MAX_DEMONS, DEMON_WORDS, cards):
        return "a card list"
    for i in range(s[H_NMIND]):     # what the Mind's bitboards hold (embers_core.pxd)
        if not (-SPAN <= s[MIND + 3 * i + 1] <= SPAN and -SPAN <= s[MIND + 3 * i + 2] <= SPAN):
            return "a Mind position"
    for i in range(s[H_NDEMONS]):
        if bad_list(s + DEMONS + i * DEMON_WORDS + 2, s[DEMONS + i * DEMON_WORDS + 1], MAXC, 1, cards):
            return "tainted cards"
    for i in range(s[H_NROWS]):
        if bad_list(s + STRENGTH + i * ROW_WORDS, 1, 1, 1, cards) or s[STRENGTH + i * ROW_WORDS + 1] < 0 \
                or s[STRENGTH + i * ROW_WORDS + 1] > 1 \
                or bad_list(s + STRENGTH + i * ROW_WORDS + 4, s[STRENGTH + i * ROW_WORDS + 3], ROW_CARDS - 1, 1,
                            cards):
            return "a strength row"
    for i in range(MAXC):
        if s[PILE + i] < 0 or s[PILE + i] > 1 or (i >= cards and s[PILE + i]):
            return "the deck"
        count += s[PILE + i]
    if count != s[H_NPILE]:
        return "the deck's count"
    return NULL


cdef inline int deck_of(const int32_t[:, ::1] deck, Deck* d) except -1:
    cdef int c, memory = 0
    if deck.shape[1] != 3 or deck.shape[0] < 1 or deck.shape[0] > MAXC:
        raise ValueError("deck: expected (cards, 3) rows of suit, strength, blocked, at most 64 cards")
    for c in range(deck.shape[0]):
        if not (0 <= deck[c, 0] < MAX_DEMONS and 0 <= deck[c, 1] <= TARGET and 0 <= deck[c, 2] < 16):
            raise ValueError(f"deck[{c}]: expected a suit 0-4, a strength 0-7 and a blocked mask 0-15")
        memory += deck[c, 1] > 0
    d.info = &deck[0, 0]
    d.cards = deck.shape[0]
    d.reach = memory
    d.side = 2 * memory + 1
    d.take_base = 3 + d.cards
    d.keep_base = 3 + 2 * d.cards
    d.reveal_base = 3 + 3 * d.cards
    d.arrange_base = d.reveal_base + MAX_ROWS
    d.add_base = d.arrange_base + ORDERS
    return 0


cdef inline int check_rows(const int32_t[:, ::1] states, const int32_t[:, ::1] deck, Deck* d) except -1:
    cdef Py_ssize_t i
    cdef const char* problem
    deck_of(deck, d)
    if states.shape[1] != STATE_LEN:
        raise ValueError(f"states: expected rows of {STATE_LEN} int32 words")
    for i in range(states.shape[0]):
        problem = row_problem(&states[i, 0], d.cards)
        if problem != NULL:
            raise ValueError(f"states[{i}]: not an Embers state ({problem.decode()})")
    return 0


cdef inline int32_t* list_buffer(const Deck* d) except NULL:
    """Room for any legal list: every card of the row at every position of a 64 x 64 board, and the rest."""
    cdef int32_t* out = <int32_t*>malloc((d.add_base + d.cards * MAX_SIDE * MAX_SIDE) * sizeof(int32_t))
    if out == NULL:
        raise MemoryError()
    return out


# -- the batch --------------------------------------------------------------------------------------------------
def deal(int32_t[:, ::1] states, const int32_t[:, ::1] deck, const int32_t[::1] slots, int chapter,
         const int32_t[:, ::1] orders):
    """Deal a new game into row ``slots[j]`` from ``orders[j]``, the memory cards in the order the game's seeded
    shuffle gives (``EmbersState.deal_initial``: Chapter One Setup 4-7, the Prologue's Setup 1-5)."""
    cdef Deck d
    cdef Py_ssize_t j
    cdef int k, c, rows = MAX_ROWS - chapter, count = orders.shape[1], rest
    cdef int32_t* s
    deck_of(deck, &d)
    if states.shape[1] != STATE_LEN or chapter not in (0, 1) or orders.shape[0] != slots.shape[0]:
        raise ValueError("deal: expected states rows, chapter 0 or 1 and one order per slot")
    if count < 1 + rows + 4 * chapter:
        raise ValueError(f"orders: not enough memory cards to set up (need {1 + rows + 4 * chapter})")
    for j in range(slots.shape[0]):
        if not 0 <= slots[j] < states.shape[0]:
            raise ValueError(f"slots[{j}]: no such row")
        for k in range(count):
            if not (0 <= orders[j, k] < d.cards) or deck[orders[j, k], 1] == 0:
                raise ValueError(f"orders[{j}, {k}]: not a memory card")
    with nogil:
        for j in range(slots.shape[0]):
            s = &states[slots[j], 0]
            memset(s, 0, STATE_LEN * sizeof(int32_t))
            s[H_CHAPTER] = chapter
            s[H_PART] = chapter
            s[H_DAY] = 1
            s[H_RESULT] = -1
            s[H_PKIND] = -1
            s[MIND] = orders[j, 0]
            s[H_NMIND] = 1
            for k in range(rows):
                s[STRENGTH + k * ROW_WORDS] = orders[j, 1 + k]
            s[H_NROWS] = rows
            rest = 1 + rows
            if chapter == 1:
                for k in range(4):
                    push(s + ROW, s + H_NROW, orders[j, rest + k])
                rest += 4
            for k in range(rest, count):
                pile_add(s, orders[j, k])
            if chapter == 1:
                start_prologue_turn(s, &d, FENRYS)
            else:
                for c in range(d.cards):   # EM-30: the demons are shuffled in after the Mind and the Resolve
                    if is_demon(&d, c):
                        pile_add(s, c)
                s[H_TURN] = FENRYS
                s[H_PHASE] = P_ARRANGE     # EM-34


def players(const int32_t[:, ::1] states, int32_t[::1] out):
    """``out[i]``: the player to act in row ``i`` (-1: a chance event, -4: the game is over)."""
    cdef Py_ssize_t i
    if states.shape[1] != STATE_LEN or out.shape[0] != states.shape[0]:
        raise ValueError("players: expected states rows and n entries")
    with nogil:
        for i in range(states.shape[0]):
            out[i] = current_player(&states[i, 0])


def legal_counts(const int32_t[:, ::1] states, const int32_t[:, ::1] deck, int32_t[::1] counts):
    """``counts[i]``: how many legal actions (or chance outcomes) row ``i`` has (0 once its game is over)."""
    cdef Deck d
    cdef Py_ssize_t i
    cdef int32_t* listed
    check_rows(states, deck, &d)
    if counts.shape[0] != states.shape[0]:
        raise ValueError("counts: expected n entries")
    listed = list_buffer(&d)
    with nogil:
        for i in range(states.shape[0]):
            counts[i] = legal(&states[i, 0], &d, listed)
    free(listed)


def legal_mask(const int32_t[:, ::1] states, const int32_t[:, ::1] deck, uint8_t[:, ::1] out):
    """Set ``out[i, a]`` for every legal action ``a`` of row ``i`` (decisions only: a chance row sets nothing)."""
    cdef Deck d
    cdef Py_ssize_t i
    cdef int k, count
    cdef int32_t* listed
    check_rows(states, deck, &d)
    if out.shape[0] != states.shape[0] or out.shape[1] != d.add_base + d.cards * d.side * d.side:
        raise ValueError("out: expected (n, num_distinct_actions)")
    listed = list_buffer(&d)
    with nogil:
        for i in range(states.shape[0]):
            if current_player(&states[i, 0]) >= 0:
                count = legal(&states[i, 0], &d, listed)
                for k in range(count):
                    out[i, listed[k]] = 1
    free(listed)


def random_legal(const int32_t[:, ::1] states, const int32_t[:, ::1] deck, const double[::1] uniforms,
                 int32_t[::1] out):
    """``out[i]``: the legal action of rank ``floor(uniforms[i] * count)`` of row ``i`` (a uniformly random one for
    uniforms in [0, 1)), -1 where the game is over."""
    cdef Deck d
    cdef Py_ssize_t i
    cdef int count
    cdef int32_t* listed
    check_rows(states, deck, &d)
    if uniforms.shape[0] != states.shape[0] or out.shape[0] != states.shape[0]:
        raise ValueError("uniforms and out: expected n entries")
    if uniforms.shape[0] > 0:
        check_unit_interval(&uniforms[0], uniforms.shape[0], 0)
    listed = list_buffer(&d)
    with nogil:
        for i in range(states.shape[0]):
            count = legal(&states[i, 0], &d, listed)
            out[i] = listed[<int>(uniforms[i] * <double>count)] if count > 0 else -1
    free(listed)


def step(int32_t[:, ::1] states, const int32_t[:, ::1] deck, const int32_t[::1] actions, const uint8_t[::1] settle,
         const double[:, ::1] uniforms, int32_t[:, ::1] drawn, int32_t[::1] players):
    """Apply the decision ``actions[i]`` to row ``i`` in place; where ``settle[i]``, then draw chance outcomes to
    the next decision, the ``k``-th of rank ``floor(uniforms[i, k] * count)`` in the ascending list of outcomes,
    written to ``drawn[i]`` (-1 after the last). ``players[i]``: who acts next (-4: the game is over; -1: a chance
    event left unsettled). Every action is checked first: when one is not a legal decision nothing is applied
    and the first such row is returned; otherwise -1."""
    cdef Deck d
    cdef Py_ssize_t i, n = states.shape[0], bad = -1
    cdef int count, k
    cdef int32_t* listed
    cdef int32_t* s
    check_rows(states, deck, &d)
    if actions.shape[0] != n or settle.shape[0] != n or players.shape[0] != n:
        raise ValueError("actions, settle and players: expected n entries")
    if uniforms.shape[0] != n or drawn.shape[0] != n or uniforms.shape[1] != MAX_DRAWS \
            or drawn.shape[1] != MAX_DRAWS:
        raise ValueError(f"uniforms and drawn: expected (n, {MAX_DRAWS})")
    if n > 0:
        check_unit_interval(&uniforms[0, 0], n * MAX_DRAWS, MAX_DRAWS)
    listed = list_buffer(&d)
    with nogil:
        for i in range(n):
            s = &states[i, 0]
            if current_player(s) < 0 or index_in_sorted(listed, legal(s, &d, listed), actions[i]) < 0:
                bad = i
                break
        if bad < 0:
            for i in range(n):
                s = &states[i, 0]
                apply(s, &d, actions[i])
                for k in range(MAX_DRAWS):
                    drawn[i, k] = -1
                k = 0
                while settle[i] and current_player(s) == CHANCE and k < MAX_DRAWS:
                    count = legal(s, &d, listed)
                    drawn[i, k] = listed[<int>(uniforms[i, k] * <double>count)]
                    apply(s, &d, drawn[i, k])
                    k += 1
                players[i] = current_player(s)
    free(listed)
    return bad


cdef inline void place(float[:, :, :] where, float[:, :] order, Py_ssize_t i, const int32_t* items, int count,
                       int width, int zone, int cards) noexcept nogil:
    cdef int k
    for k in range(count):
        where[i, items[k * width], 0] = 0
        where[i, items[k * width], zone] = 1
        order[i, items[k * width]] = <float>((k + 1) / <double>cards)


def observe(const int32_t[:, ::1] states, const int32_t[:, ::1] deck, const int32_t[::1] players,
            float[:, :, :] where, float[:, :] order, float[:, :, :] mind, float[:, :, :] rows, float[:, :] completed,
            float[:, :] day, float[:, :] part, float[:, :] turn, float[:, :] to_move, float[:, :] phase,
            float[:, :] added, float[:, :] pending, float[:, :] result, float[:, :] deck_count,
            float[:, :, :] resolve):
    """Fill the zeroed pieces of each row's observation by ``players[i]`` (``fill_public`` and ``fill_private`` of
    ``solver/embers/openspiel.py``: the layout of ``docs/openspiel.md``)."""
    cdef Deck d
    cdef Py_ssize_t i, n = states.shape[0]
    cdef int c, k, r, actor, nrows
    cdef const int32_t* s
    cdef const int32_t* row
    check_rows(states, deck, &d)
    nrows = where.shape[2] // 2 - 3
    if players.shape[0] != n or where.shape[0] != n or where.shape[1] != d.cards or resolve.shape[1] != nrows:
        raise ValueError("observe: expected n players and the planes of this deck")
    with nogil:
        for i in range(n):
            s = &states[i, 0]
            for c in range(d.cards):
                where[i, c, 0] = 1
            for k in range(s[H_NMIND]):
                c = s[MIND + 3 * k]
                where[i, c, 0] = 0
                where[i, c, 1] = 1
                order[i, c] = <float>((k + 1) / <double>d.cards)
                mind[i, c, 0] = <float>(s[MIND + 3 * k + 1] / <double>d.reach)
                mind[i, c, 1] = <float>(s[MIND + 3 * k + 2] / <double>d.reach)
            place(where, order, i, s + ROW, s[H_NROW], 1, 2, d.cards)
            place(where, order, i, s + DISCARD, s[H_NDISCARD], 1, 5, d.cards)
            place(where, order, i, s + BOX, s[H_NBOX], 1, 6, d.cards)
            place(where, order, i, s + DEMONS, s[H_NDEMONS], DEMON_WORDS, 3, d.cards)
            for k in range(s[H_NDEMONS]):
                place(where, order, i, s + DEMONS + k * DEMON_WORDS + 2, s[DEMONS + k * DEMON_WORDS + 1], 1, 4,
                      d.cards)
            for r in range(s[H_NROWS]):
                row = s + STRENGTH + r * ROW_WORDS
                rows[i, r, 0] = 1
                rows[i, r, 1] = row[1]
                rows[i, r, 2] = <float>(row[2] / <double>TARGET)
                if row[1]:
                    where[i, row[0], 0] = 0
                    where[i, row[0], 7 + r] = 1
                place(where, order, i, row + 4, row[3], 1, 7 + nrows + r, d.cards)
                resolve[i, r, row[0] if s[H_CHAPTER] == 0 and players[i] == AELIN and not row[1] else d.cards] = 1
            completed[i, s[H_COMPLETED]] = 1
            day[i, s[H_DAY] - 1] = 1
            part[i, s[H_PART]] = 1
            turn[i, s[H_TURN]] = 1
            actor = current_player(s)
            to_move[i, actor if actor >= 0 else 2] = 1
            phase[i, PHASE_INDEX[s[H_CHAPTER]][s[H_PHASE]]] = 1
            added[i, 0] = s[H_ADDED]
            if s[H_PKIND] < 0:
                pending[i, 0] = 1
            else:
                pending[i, 1 + s[H_PKIND]] = 1
                pending[i, 4 + s[H_PVALUE]] = 1
            result[i, s[H_RESULT] + 1] = 1
            deck_count[i, 0] = <float>(s[H_NPILE] / <double>d.cards)
