"""Memorinth play (compiled kernel): the rules one call at a time and in batches, path bitboards, dealing,
resampling what a player has not seen, the policies' moves and whole playouts.

The rules are ``memorinth_rules.pxd``, the policies ``memorinth_policy.pxd``. Twin:
``solver/twins/memorinth_play.py`` (same functions, same parameters, same results, same random number stream);
``docs/rules/memorinth.md`` lists the rules.
"""

from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.string cimport memcpy
from cpython.buffer cimport PyBuffer_Release
from common cimport below_scaled as rng_below
from memorinth_rules cimport *
from memorinth_policy cimport policy


def layout():
    """The vector layout and codes (the twin returns the same dict)."""
    return {"CELLS": CELLS, "UP": UP, "DOWN": DOWN, "SEEN": SEEN, "PIECE": PIECE, "CHAR": CHAR, "CLOVER": CLOVER,
            "SUPPLY": SUPPLY, "NPLAYERS": NPLAYERS, "VARIANT": VARIANT, "SIDEMODE": SIDEMODE, "SEAT": SEAT,
            "START": START, "ROUND": ROUND, "TOMOVE": TOMOVE, "LAST": LAST, "PHASE": PHASE, "PENDING": PENDING,
            "WINNER": WINNER, "TURNS": TURNS, "OWNTURNS": OWNTURNS, "STATE_LEN": STATE_LEN, "OUT": OUT,
            "A_FLIP": A_FLIP, "A_PASS": A_PASS, "A_CHOOSE": A_CHOOSE, "A_SHIFT": A_SHIFT, "A_CLOVER": A_CLOVER,
            "A_PEEK": A_PEEK, "A_SWAPCARDS": A_SWAPCARDS, "A_SWAPCHARS": A_SWAPCHARS, "N_ACTIONS": N_ACTIONS,
            "DECK_LEN": DECK_LEN, "PLAYOUT_OUT": PLAYOUT_OUT}


cdef int32_t* state_and_deck(object state, object deck, Py_buffer* vs, Py_buffer* vd, bint writable,
                             int32_t** dk) except NULL:
    """Pointers into the deck (``dk[0]``) and the checked state (returned); the caller releases ``vs`` and ``vd``
    (:func:`release_both`), nothing is held when this raises."""
    cdef int32_t* st
    dk[0] = int32_buffer(deck, vd, False, DECK_LEN, False, "deck")
    try:
        st = int32_buffer(state, vs, writable, STATE_LEN, False, "state")
    except BaseException:
        PyBuffer_Release(vd)
        raise
    try:
        check_pointer(st)
    except BaseException:
        release_both(vs, vd)
        raise
    return st


cdef inline void release_both(Py_buffer* vs, Py_buffer* vd) noexcept:
    PyBuffer_Release(vs)
    PyBuffer_Release(vd)


cdef int face_up_exits(object state, object deck, int32_t* ex) except -1:
    """The exits of every cell's face-up side (checked state and deck buffers, released before returning)."""
    cdef Py_buffer vs, vd
    cdef int32_t* dk
    cdef int32_t* st = state_and_deck(state, deck, &vs, &vd, False, &dk)
    exits_of(st, dk, ex)
    release_both(&vs, &vd)
    return 0



def path_bitboards(state, deck):
    """``(open_n, open_e, open_s, open_w, link_n, link_e, link_s, link_w, escape)`` of the face-up sides."""
    cdef int32_t ex[CELLS]
    cdef uint32_t L[5]
    cdef uint32_t opened[4]
    face_up_exits(state, deck, ex)
    open_boards(ex, opened)
    links_of_open(opened, L)
    return (opened[0], opened[1], opened[2], opened[3], L[0], L[1], L[2], L[3], L[4])


def escape_distances(state, deck, out):
    """Fill ``out[25]`` with each cell's fewest moves out along the face-up paths (-1: none)."""
    cdef int32_t ex[CELLS]
    cdef Py_buffer vo
    cdef int32_t* ot
    face_up_exits(state, deck, ex)
    ot = int32_buffer(out, &vo, True, CELLS, False, "out")
    try:
        return field(ex, ot)
    finally:
        PyBuffer_Release(&vo)


def legal_actions(state, deck, out):
    """Write the legal actions (ascending) into ``out`` (at least 396 entries); return how many."""
    cdef Py_buffer vs, vd, vo
    cdef int32_t* dk
    cdef int32_t* st = state_and_deck(state, deck, &vs, &vd, False, &dk)
    cdef int32_t* ot
    try:
        ot = int32_buffer(out, &vo, True, N_ACTIONS, True, "out")
        try:
            return legal(st, dk, ot)
        finally:
            PyBuffer_Release(&vo)
    finally:
        release_both(&vs, &vd)


def apply_action(state, deck, int action):
    """Play ``action`` on ``state`` in place if it is legal; return 1, or 0 (state unchanged) if it is not."""
    cdef Py_buffer vs, vd
    cdef int32_t* dk
    cdef int32_t* st = state_and_deck(state, deck, &vs, &vd, True, &dk)
    try:
        if not is_legal(st, dk, action):
            return 0
        apply(st, dk, action, NULL)
        return 1
    finally:
        release_both(&vs, &vd)


def escape_distances_batch(const int32_t[:, ::1] states, const int32_t[::1] deck, int32_t[:, ::1] out):
    """``escape_distances`` for every row of ``states`` (n, 112) into ``out`` (n, 25)."""
    cdef int32_t ex[CELLS]
    cdef Py_ssize_t i, n = states.shape[0]
    check_rows(states, deck)
    if out.shape[0] != n or out.shape[1] != CELLS:
        raise ValueError("out: expected (n, 25)")
    with nogil:
        for i in range(n):
            exits_of(&states[i, 0], &deck[0], ex)
            field(ex, &out[i, 0])


def legal_actions_batch(const int32_t[:, ::1] states, const int32_t[::1] deck, int32_t[:, ::1] out,
                        int32_t[::1] counts):
    """``legal_actions`` for every row of ``states`` (n, 112): actions into ``out`` (n, 396), counts (n)."""
    cdef Py_ssize_t i, n = states.shape[0]
    check_rows(states, deck)
    if out.shape[0] != n or out.shape[1] < N_ACTIONS or counts.shape[0] != n:
        raise ValueError("out: expected (n, 396) and counts (n)")
    with nogil:
        for i in range(n):
            counts[i] = legal(&states[i, 0], &deck[0], &out[i, 0])


def apply_actions_batch(int32_t[:, ::1] states, const int32_t[::1] deck, const int32_t[::1] actions,
                        int32_t[::1] applied):
    """``apply_action`` of ``actions[i]`` to row ``i`` of ``states`` in place; ``applied[i]`` 1 or 0 (illegal)."""
    cdef Py_ssize_t i, n = states.shape[0]
    check_rows(states, deck)
    if actions.shape[0] != n or applied.shape[0] != n:
        raise ValueError("actions and applied: expected n entries")
    with nogil:
        for i in range(n):
            if is_legal(&states[i, 0], &deck[0], actions[i]):
                apply(&states[i, 0], &deck[0], actions[i], NULL)
                applied[i] = 1
            else:
                applied[i] = 0

# -- resampling and dealing ------------------------------------------------------------------------
cdef inline void shuffle(int32_t* a, int n, uint64_t* rng) noexcept nogil:
    """Fisher-Yates on ``a[0..n)``, from the last entry down (the twin's order of draws)."""
    cdef int i = n - 1, j
    cdef int32_t tmp
    while i > 0:
        j = rng_below(rng, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp
        i -= 1


cdef void resample_c(int32_t* s, int player, uint64_t* rng) noexcept nogil:
    cdef int face, c, n, i, j, bit = 1 << player
    cdef int cells[CELLS]
    cdef int32_t vals[CELLS]
    cdef int32_t tmp
    for face in range(2):
        n = 0
        for c in range(CELLS):
            if (s[UP + c] & 1) == face and not knows_under(s, c, bit):
                cells[n] = c
                vals[n] = s[DOWN + c]
                n += 1
        for i in range(1, n):   # sorted first: the sample depends on what the player knows only
            tmp = vals[i]
            j = i - 1
            while j >= 0 and vals[j] > tmp:
                vals[j + 1] = vals[j]
                j -= 1
            vals[j + 1] = tmp
        shuffle(vals, n, rng)
        for i in range(n):
            s[DOWN + cells[i]] = vals[i]


def resample(int32_t[::1] state, int player, uint64_t seed):
    """Shuffle, in place, the undersides ``player`` does not know among those cards (Sun-up and Moon-up apart;
    known: seen, or the clearing's, MR-21)."""
    cdef uint64_t rng = seed
    check_vector(state)
    if not 0 <= player < state[NPLAYERS]:
        raise ValueError("player: out of range")
    resample_c(&state[0], player, &rng)


cdef void deal_c(int32_t* s, uint64_t* rng) noexcept nogil:
    cdef int32_t cards[24]
    cdef int32_t perm[8]
    cdef int i, k = 0, c, card, face, n
    cdef bint master, active
    for i in range(24):
        cards[i] = i + 1
    shuffle(cards, 24, rng)
    for c in range(CELLS):
        if c == 12:
            card = 0
        else:
            card = cards[k]
            k += 1
        face = (c // 5 + c % 5) & 1
        s[UP + c] = 2 * card + face
        s[DOWN + c] = 2 * card + 1 - face
        s[SEEN + c] = 0
    for i in range(8):
        perm[i] = i
    shuffle(perm, 8, rng)
    master = s[VARIANT] == VAR_MASTER
    for i in range(8):
        s[CHAR + perm[i]] = i if master else i // 2
    n = s[NPLAYERS]
    active = goblins_active(s)
    for i in range(4):
        s[PIECE + i] = 12 if i < n else -1
        s[CLOVER + i] = 1 if (active and i < n) else 0
        s[OWNTURNS + i] = 0
    s[SUPPLY] = 5 - n if active else 5
    s[START] = 0
    s[ROUND] = 1
    s[TOMOVE] = 0
    s[LAST] = -1
    s[PHASE] = PH_FLIP
    s[PENDING] = -1
    s[WINNER] = -1
    s[TURNS] = 0


def deal(int32_t[::1] state, const int32_t[::1] deck, uint64_t seed):
    """Deal a new game in place: shuffle the forest cards and the characters; keep the rule fields."""
    cdef uint64_t rng = seed
    check_state(state, deck)
    deal_c(&state[0], &rng)


def policy_action(state, deck, int policy, uint64_t seed):
    """The action policy ``policy`` (0 random, 1 greedy) plays for the player to act."""
    cdef uint64_t rng = seed
    cdef Py_buffer vs, vd
    cdef int32_t* dk
    cdef int32_t* st = state_and_deck(state, deck, &vs, &vd, False, &dk)
    try:
        if st[PHASE] == PH_OVER:
            raise ValueError("state: the game is over")
        if policy != POLICY_RANDOM and policy != POLICY_GREEDY:
            raise ValueError("policy: expected 0 (random) or 1 (greedy)")
        return _policy_entry(st, dk, policy, &rng)
    finally:
        release_both(&vs, &vd)


cdef int _policy_entry(const int32_t* s, const int32_t* deck, int pol, uint64_t* rng) noexcept nogil:
    return policy(s, deck, pol, rng)



cdef inline void play(int32_t* s, const int32_t* deck, const int32_t* policies, uint64_t* rng,
                      int max_turns) noexcept nogil:
    cdef int start = s[TURNS]
    cdef Stuck memo
    memo.valid = False      # "stuck for good" is recomputed only when public card facts change
    while s[PHASE] != PH_OVER and s[TURNS] - start < max_turns:
        apply(s, deck, policy(s, deck, policies[s[TOMOVE]], rng), &memo)


cdef inline void record(const int32_t* s, int player, int own0, int turns0, int64_t* out) noexcept nogil:
    cdef int64_t own = s[OWNTURNS + player] - own0
    cdef int w
    out[0] += 1
    if s[PHASE] != PH_OVER:
        out[1] += 1
    elif s[WINNER] < 0:
        out[11] += 1
    else:
        w = s[WINNER]
        out[6 + w] += 1
        if w == player:
            out[2] += 1
            out[3] += own
            out[5] += own * own
    out[4] += own
    out[10] += s[TURNS] - turns0


cdef void check_playout_args(const int32_t[::1] policies, int64_t[::1] out, int max_turns, int count) except *:
    cdef int i
    if policies.shape[0] != 4:
        raise ValueError("policies: expected 4 entries, each 0 (random) or 1 (greedy)")
    for i in range(4):
        if policies[i] != POLICY_RANDOM and policies[i] != POLICY_GREEDY:
            raise ValueError("policies: expected 4 entries, each 0 (random) or 1 (greedy)")
    if out.shape[0] != PLAYOUT_OUT:
        raise ValueError("out: expected 12 entries")
    if max_turns < 1 or count < 0:
        raise ValueError("max_turns must be positive and count non-negative")


def playouts(const int32_t[::1] state, const int32_t[::1] deck, int player, int first_action, int count,
             uint64_t seed, int resample, const int32_t[::1] policies, int max_turns, int64_t[::1] out):
    """Play ``count`` games on from ``state`` and add their results into ``out`` (int64[12]).

    With ``resample`` set, each game first re-deals the undersides ``player`` has not seen. ``first_action``
    (if >= 0) is played first; then each player follows ``policies[player]``. ``out``: games, unfinished,
    wins of ``player``, own turns in those wins, own turns in all games, squared own turns in wins, wins of
    players 0..3, total turns, games that ended with nobody able to leave.
    """
    cdef uint64_t rng = seed
    cdef int32_t s[STATE_LEN]
    cdef int g, i, own0, turns0
    check_state(state, deck)
    check_playout_args(policies, out, max_turns, count)
    if not 0 <= player < state[NPLAYERS]:
        raise ValueError("player: out of range")
    if first_action >= 0 and not is_legal(&state[0], &deck[0], first_action):
        raise ValueError("first_action: not legal")
    for i in range(PLAYOUT_OUT):
        out[i] = 0
    with nogil:
        for g in range(count):
            memcpy(s, &state[0], sizeof(int32_t) * STATE_LEN)
            if resample:
                resample_c(s, player, &rng)
            own0 = s[OWNTURNS + player]
            turns0 = s[TURNS]
            if first_action >= 0:
                apply(s, &deck[0], first_action, NULL)
            play(s, &deck[0], &policies[0], &rng, max_turns)
            record(s, player, own0, turns0, &out[0])


def random_games(const int32_t[::1] state, const int32_t[::1] deck, int count, uint64_t seed,
                 const int32_t[::1] policies, int max_turns, int64_t[::1] out):
    """Deal and play ``count`` games with the rule fields of ``state``; results (for player 0) as in ``playouts``."""
    cdef uint64_t rng = seed
    cdef int32_t s[STATE_LEN]
    cdef int g, i
    check_state(state, deck)
    check_playout_args(policies, out, max_turns, count)
    for i in range(PLAYOUT_OUT):
        out[i] = 0
    with nogil:
        for g in range(count):
            memcpy(s, &state[0], sizeof(int32_t) * STATE_LEN)
            deal_c(s, &rng)
            play(s, &deck[0], &policies[0], &rng, max_turns)
            record(s, 0, 0, 0, &out[0])
