# cython: language_level=3
"""The row of one Embers of Memory game in the step kernel (``embers_step.pyx``): its layout and list helpers.

A row is ``STATE_LEN`` int32 words (every list packed at the front of its block, its unused words zero):

* header ``0..19``: chapter (0 one, 1 prologue), part, day, turn, phase (``P_*``), completed rows, added,
  pending kind (-1 none, 0 suit, 1 row) and value, result (-1 none, else the index in ``RESULTS`` of
  ``solver/embers/state.py``), then the lengths of the Mind, the memory row, the demon row, the discard pile,
  the box, the strength rows and the deck;
* ``PILE``: 64 flags, card ``c`` is in the deck; ``MIND``: 64 x (card, x, y), bottom card first; ``ROW``,
  ``DISCARD``, ``BOX``: 64 cards each, in order;
* ``DEMONS``: 5 x (demon, tainted count, 64 tainted cards); ``STRENGTH``: 4 x (Resolve card, face up, the
  public lower bound of EM-24, card count, 8 cards).

The deck is ``(suit, strength, blocked)`` per card (strength 0: a demon). Twin: ``solver/twins/embers_step.py``.
"""

from libc.stdint cimport int32_t
from libc.string cimport memmove, memset

cdef enum:
    MAXC = 64
    MAX_ROWS = 4
    MAX_DEMONS = 5
    ROW_CARDS = 8
    TARGET = 7
    MAX_DRAWS = 16           # chance outcomes after one decision: at most a Mind card, 4 Resolve cards, 4 row cards
    TERMINAL = -4
    CHANCE = -1
    FENRYS = 0
    AELIN = 1
    # header
    H_CHAPTER = 0
    H_PART = 1
    H_DAY = 2
    H_TURN = 3
    H_PHASE = 4
    H_COMPLETED = 5
    H_ADDED = 6
    H_PKIND = 7
    H_PVALUE = 8
    H_RESULT = 9
    H_NMIND = 10
    H_NROW = 11
    H_NDEMONS = 12
    H_NDISCARD = 13
    H_NBOX = 14
    H_NROWS = 15
    H_NPILE = 16
    PILE = 20
    MIND = PILE + MAXC
    ROW = MIND + 3 * MAXC
    DISCARD = ROW + MAXC
    BOX = DISCARD + MAXC
    DEMONS = BOX + MAXC
    DEMON_WORDS = 2 + MAXC
    STRENGTH = DEMONS + MAX_DEMONS * DEMON_WORDS
    ROW_WORDS = 4 + ROW_CARDS
    STATE_LEN = STRENGTH + MAX_ROWS * ROW_WORDS
    # phases
    P_ARRANGE = 0
    P_DRAW = 1
    P_OBSERVE = 2
    P_BLINK = 3
    P_REVEAL = 4
    P_SPLIT = 5
    P_ACK = 6
    P_DEAL = 7
    P_OVER = 8
    P_FIRST = 9
    P_SECOND = 10
    N_PHASES = 11
    # results (``RESULTS`` of solver/embers/state.py)
    WON = 0
    LOST_DECK = 1
    LOST_PLACEMENT = 2
    LOST_MIND = 3
    LOST_SETUP = 4
    K_SUIT = 0
    K_ROW = 1
    # action ids: draw, stop, pass, then per-card blocks (``EmbersCodec``)
    A_DRAW = 0
    A_STOP = 1
    A_PASS = 2
    ORDERS = 24              # arrangements of 4 Resolve cards

ctypedef struct Deck:
    const int32_t* info      # (suit, strength, blocked) per card
    int cards
    int reach                # memory cards: |x|, |y| <= reach in add ids
    int side
    int take_base
    int keep_base
    int reveal_base
    int arrange_base
    int add_base


# -- the deck ---------------------------------------------------------------------------------------------------
cdef inline int suit(const Deck* d, int card) noexcept nogil:
    return d.info[3 * card]


cdef inline int strength(const Deck* d, int card) noexcept nogil:
    return d.info[3 * card + 1]


cdef inline bint is_demon(const Deck* d, int card) noexcept nogil:
    return d.info[3 * card + 1] == 0


cdef inline int32_t* strength_row(int32_t* s, int i) noexcept nogil:
    return s + STRENGTH + i * ROW_WORDS


cdef inline int32_t* demon_slot(int32_t* s, int i) noexcept nogil:
    return s + DEMONS + i * DEMON_WORDS


# -- lists ------------------------------------------------------------------------------------------------------
cdef inline void remove_at(int32_t* items, int32_t* count, int at, int width) noexcept nogil:
    """Remove entry ``at`` (``width`` words) of a packed list, zeroing the freed tail."""
    memmove(items + at * width, items + (at + 1) * width, (count[0] - at - 1) * width * sizeof(int32_t))
    count[0] -= 1
    memset(items + count[0] * width, 0, width * sizeof(int32_t))


cdef inline int find(const int32_t* items, int count, int card, int width) noexcept nogil:
    cdef int k
    for k in range(count):
        if items[k * width] == card:
            return k
    return -1


cdef inline void push(int32_t* items, int32_t* count, int card) noexcept nogil:
    items[count[0]] = card
    count[0] += 1


cdef inline void pile_add(int32_t* s, int card) noexcept nogil:
    if not s[PILE + card]:
        s[PILE + card] = 1
        s[H_NPILE] += 1


cdef inline void pile_remove(int32_t* s, int card) noexcept nogil:
    if s[PILE + card]:
        s[PILE + card] = 0
        s[H_NPILE] -= 1


