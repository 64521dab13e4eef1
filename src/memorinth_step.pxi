"""N Memorinth games stepped together (compiled kernel), for the batched environment of ``solver/openspiel/``.

The rules are ``memorinth_rules.pxd`` (nothing is restated here): a random legal action is the one of a random rank
in the ascending legal list (``legal``), and an action is checked by a binary search of that list; a step applies every row's action and keeps each row's memo of the public paths
(``Stuck``, which the rules clear whenever public card facts change) between steps, so the base game's "nobody can
leave" test (MR-19) is not worked out again at every turn. Rows are the kernel's state vector (``(n, 112)`` int32,
documented in ``solver/twins/memorinth_rules.py``); memos are ``(n, MEMO_WORDS)`` int32, zero for "not worked
out" (a new deal must zero its row's memo).

Twin: ``solver/twins/memorinth_step.py`` (same functions, same parameters, same results).
"""

from libc.stdint cimport int32_t
from common cimport check_unit_interval, index_in_sorted
from memorinth_rules cimport N_ACTIONS, PHASE, PH_OVER, TOMOVE, Stuck, apply, check_rows, legal

cdef enum:
    MEMO_WORDS = 6       # a Stuck: valid, open[4], reach (4-byte words)
    TERMINAL = -4        # OpenSpiel's terminal player id

if sizeof(Stuck) != MEMO_WORDS * 4:
    raise ImportError("memorinth_step: the public-path memo does not fit MEMO_WORDS int32 words")


def memo_words():
    """The int32 words of one row's memo (the width of the ``memos`` array)."""
    return MEMO_WORDS


cdef inline int rank_of(const int32_t* s, const int32_t* deck, int action) noexcept nogil:
    """The rank of ``action`` in the ascending legal list of ``s``, or -1 when it is not legal (or the game is
    over)."""
    cdef int32_t listed[N_ACTIONS]
    if s[PHASE] == PH_OVER or action < 0 or action >= N_ACTIONS:
        return -1
    return index_in_sorted(listed, legal(s, deck, listed), action)


cdef inline int count_of(const int32_t* s, const int32_t* deck) noexcept nogil:
    cdef int32_t listed[N_ACTIONS]
    return 0 if s[PHASE] == PH_OVER else legal(s, deck, listed)


cdef inline void check_memos(const int32_t[:, ::1] states, int32_t[:, ::1] memos) except *:
    if memos.shape[0] != states.shape[0] or memos.shape[1] != MEMO_WORDS:
        raise ValueError(f"memos: expected (n, {MEMO_WORDS})")


def legal_counts(const int32_t[:, ::1] states, const int32_t[::1] deck, int32_t[::1] counts):
    """``counts[i]``: how many legal actions row ``i`` has (0 once its game is over)."""
    cdef Py_ssize_t i, n = states.shape[0]
    check_rows(states, deck)
    if counts.shape[0] != n:
        raise ValueError("counts: expected n entries")
    with nogil:
        for i in range(n):
            counts[i] = count_of(&states[i, 0], &deck[0])


def random_legal(const int32_t[:, ::1] states, const int32_t[::1] deck, const double[::1] uniforms,
                 int32_t[::1] out):
    """``out[i]``: the legal action of rank ``floor(uniforms[i] * count)`` of row ``i`` (a uniformly random one for
    uniforms in [0, 1)), -1 where the game is over."""
    cdef Py_ssize_t i, n = states.shape[0]
    cdef int count
    cdef int32_t listed[N_ACTIONS]
    check_rows(states, deck)
    if uniforms.shape[0] != n or out.shape[0] != n:
        raise ValueError("uniforms and out: expected n entries")
    if n > 0:
        check_unit_interval(&uniforms[0], n, 0)
    with nogil:
        for i in range(n):
            count = 0 if states[i, PHASE] == PH_OVER else legal(&states[i, 0], &deck[0], listed)
            out[i] = listed[<int>(uniforms[i] * <double>count)] if count > 0 else -1


def legal_ranks(const int32_t[:, ::1] states, const int32_t[::1] deck, const int32_t[::1] actions,
                int32_t[::1] ranks):
    """``ranks[i]``: the rank of ``actions[i]`` in row ``i``'s ascending legal list, -1 when it is not legal."""
    cdef Py_ssize_t i, n = states.shape[0]
    check_rows(states, deck)
    if actions.shape[0] != n or ranks.shape[0] != n:
        raise ValueError("actions and ranks: expected n entries")
    with nogil:
        for i in range(n):
            ranks[i] = rank_of(&states[i, 0], &deck[0], actions[i])


def step(int32_t[:, ::1] states, const int32_t[::1] deck, const int32_t[::1] actions, int32_t[:, ::1] memos,
         int32_t[::1] players):
    """Apply ``actions[i]`` to row ``i`` of ``states`` in place, keeping ``memos``, and write the player to act next
    (-4: the game is over) into ``players``. Every action is checked first: when one is not legal nothing is
    applied and the first such row is returned; otherwise -1."""
    cdef Py_ssize_t i, n = states.shape[0], bad = -1
    check_rows(states, deck)
    check_memos(states, memos)
    if actions.shape[0] != n or players.shape[0] != n:
        raise ValueError("actions and players: expected n entries")
    with nogil:
        for i in range(n):
            if rank_of(&states[i, 0], &deck[0], actions[i]) < 0:
                bad = i
                break
        if bad < 0:
            for i in range(n):
                apply(&states[i, 0], &deck[0], actions[i], <Stuck*>&memos[i, 0])
                players[i] = TERMINAL if states[i, PHASE] == PH_OVER else states[i, TOMOVE]
    return bad
