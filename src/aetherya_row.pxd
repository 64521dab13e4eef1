# cython: language_level=3
"""One row of the batched Aetherya kernel ``aetherya_step``: its layout (``STATE_LEN`` int32 words; ``layout()``
names them), the action and phase ids, the ``Rules`` of a config, and the small inline queries on a row (the
Legends a kingdom meets, the row's random stream). Twin: ``solver/twins/aetherya_step.py``.
"""

from libc.stdint cimport int32_t, uint32_t, uint64_t
from common cimport below_high
from aetherya_board cimport UNEXPLORED, Tally, score_cards

cdef enum:
    # header words
    H_PHASE = 0
    H_TO_MOVE = 1
    H_TURN = 2
    H_HOLD = 3            # the card being placed, -1: none
    H_HOLD_FROM = 4       # 0 taken from a discard pile, 1 drawn, -1 none
    H_HOLD_PILE = 5
    H_CLAIMED = 6
    H_AFTER = 7           # after a refill: 0 nothing, 1 end-turn, 2 finish, 3 coop-next
    H_PILE_KNOWN = 8
    H_WROTE = 9
    H_RNG_LO = 10         # the row's random stream, low and high 32 bits
    H_RNG_HI = 11
    H_NDISC = 12          # the discard piles' lengths (2 words)
    H_AGE = 14            # solo: the Age (0-2)
    H_FAILED = 15         # solo: an Age ended with a Legend of its row unwritten
    PILE = 16             # copies of each kind in the draw pile (10)
    HIDDEN = 26           # each seat's face-down cells (bitmask, 4)
    KINGDOMS = 30         # seat * 16 + cell: the card, -1 empty (64)
    START = 94            # seat * 10 + kind: starting cards held, by kind (40)
    ROW = 134             # ROW + n: Legend n is in the row (16)
    DECK = 150            # ... in the Legend deck (16)
    HELD = 166            # seat * 16 + n: held by the seat (64)
    BOX = 230             # co-op: written into the box (16)
    LDISCARD = 246        # co-op: discarded by the group (16)
    DISC = 262            # pile * DISC_CAP + depth from the bottom (2 x 80)
    DISC_CAP = 80
    H_DRAWS = 424         # solo: cards still to draw for the pair (draw2, take+draw)
    H_NPAIR = 425         # solo: the pair's cards, then (card, source: 0 taken, 1 drawn) each (2 x 2)
    PAIR = 426
    H_NSCORES = 430       # solo: the Ages scored, then each Age's score (3)
    AGE_SCORES = 431
    SROW = 434            # solo: SROW + n = 1 + the Age whose row holds Legend n (16)
    WRITTEN = 450         # solo: Legend n written this Age (16)
    # Objects and Characters (a tile is the int family * 16 + kind of tiles.py; blocks indexed by tile hold counts)
    H_PENDING = 466       # the tile under the cell just revealed, to take or refuse; -1 none
    H_PEEKS_USED = 467    # Palantir peeks used this turn
    TERR = 468            # seat * 16 + cell: the tile on the territory, -1 none (64)
    FACE_UP = 532         # each seat's territories whose tile lies face up (a Griffin; bitmask, 4)
    ACCORDS = 536         # seat * 16 + cell: the Accord tile on the card, -1 none (64)
    STAFFS = 600          # ... the Staff tile (64)
    OWNED = 664           # seat * 64 + tile: copies owned (256)
    TDISC = 920           # tile: copies in the tile discard (64)
    UNREV = 984           # tile: copies discarded unrevealed at the end (64)
    UNDEALT = 1048        # tile: copies not dealt yet (64; a seat's are of its own family)
    KNOWN = 1112          # seat * 64 + other seat * 16 + cell: peeked at with the Palantir (256)
    STATE_LEN = 1368
    # modes (config[0])
    BASE = 0
    COOP = 1
    SOLO = 2
    OBJECTS = 3
    # phases: the index in PHASES of solver/aetherya/state.py
    P_LEGENDS = 0
    P_START = 1
    P_ARRANGE = 2
    P_TERRITORIES = 3
    P_TILES = 4
    P_FIRST_DISCARD = 5
    P_SWAP = 6
    P_CHOOSE = 7
    P_DRAW = 8
    P_KEEP = 9
    P_PLACE = 10
    P_TILE = 11
    P_END_TURN = 12
    P_REFILL = 13
    P_REFORM = 14
    P_LEGEND_DISCARD = 15
    P_BLOCK = 16
    P_OVER = 17
    N_PHASES = 18
    # after a refill
    AFTER_NOTHING = 0
    AFTER_END_TURN = 1
    AFTER_FINISH = 2
    AFTER_COOP_NEXT = 3
    # actions and chance outcomes (state.py)
    A_TAKE = 0
    A_TAKE2 = 1
    A_DRAW = 2
    A_DRAW2 = 3
    A_TAKE_DRAW = 4
    A_PLACE = 10
    A_REVEAL = 42
    A_KEEP = 80
    A_TILE_TAKE = 90
    A_TILE_REFUSE = 91
    A_CLAIM = 99
    A_CLAIM_SWORD = 114
    A_END = 131
    A_ARRANGE = 140
    A_BLOCK = 170
    A_NOSWAP = 180
    A_SWAP = 200
    A_LDISCARD = 440
    A_ACCORD = 500        # + cell
    A_STAFF = 520         # + cell
    A_HAMMER = 600        # + a * 16 + b, a < b
    A_GRIFFIN = 900       # + seat * 16 + cell
    A_PEEK = 1000         # + seat * 16 + cell
    A_THIEF = 1100        # + seat * 16 + tile kind
    A_TRAFFIC = 1200      # + seat * 64 + stone * 16 + tile kind
    C_CARD = 2000
    C_LEGEND = 2100
    C_TILE = 2200
    # tile kinds (TILE_SLUGS of tiles.py)
    T_ACCORD = 0
    T_STAFF = 1
    T_SWORD = 2
    T_GRIFFIN = 3
    T_HAMMER = 4
    T_PALANTIR = 5
    T_STONE1 = 6
    T_STONE4 = 9
    T_TRAFFICKER = 10
    T_THIEF = 11
    TILE_KINDS = 12
    NUM_ACTIONS = 1456    # the codec's num_distinct_actions
    KINDS = 10
    CELLS = 16
    LEGENDS = 15
    MAX_LEGAL = 512       # Objects' end of turn: claims, then every tile play (Hammer pairs, Griffins, peeks...)
    MAX_DRAWS = 128       # the last arrangement deals 12 territories (and 12 tiles) a seat and the first discards
    CHANCE = -1
    TERMINAL = -4


# -- small queries ----------------------------------------------------------------------------------------------
cdef struct Rules:
    int mode
    int players
    int piles
    int target           # the Legend row's size
    int deck_players     # the deck is 2 copies of each kind a player (solo: the 2-player deck)
    int family[4][12]    # Objects: the tile kinds of each seat's family


cdef inline int total(const int32_t* counts, int n) noexcept nogil:
    cdef int k, t = 0
    for k in range(n):
        t += counts[k]
    return t


cdef inline int row_count(const int32_t* s) noexcept nogil:
    return total(s + ROW + 1, LEGENDS)


cdef inline int deck_count(const int32_t* s) noexcept nogil:
    return total(s + DECK + 1, LEGENDS)


cdef inline int current_player(const int32_t* s) noexcept nogil:
    cdef int phase = s[H_PHASE]
    if phase == P_OVER:
        return TERMINAL
    if phase == P_LEGENDS or phase == P_START or phase == P_TERRITORIES or phase == P_TILES \
            or phase == P_FIRST_DISCARD or phase == P_DRAW or phase == P_REFILL or phase == P_REFORM:
        return CHANCE
    return s[H_TO_MOVE]


cdef inline void board_codes(const int32_t* s, int seat, int* k) noexcept nogil:
    """The seat's 16 board codes: face-down and empty cells unexplored (``board_array``)."""
    cdef int c, card
    cdef uint32_t hidden = <uint32_t>s[HIDDEN + seat]
    for c in range(CELLS):
        card = s[KINGDOMS + seat * CELLS + c]
        k[c] = UNEXPLORED if card < 0 or (hidden >> c) & 1 else card


cdef inline uint32_t legends_met(const int32_t* s, int seat, int* board_total) noexcept nogil:
    """Bit n - 1: the seat's kingdom (face-down cards unexplored) meets Legend n; ``board_total``: its total."""
    cdef int k[16]
    cdef Tally t
    board_codes(s, seat, k)
    score_cards(k, 0, 0, True, &t)
    board_total[0] = t.total
    return t.legends


cdef inline bint claims(const int32_t* s, const Rules* r, int legend) noexcept nogil:
    """Legend ``legend`` may be claimed: in the row (solo: in the Age's row and not written yet)."""
    if r.mode == SOLO:
        return s[SROW + legend] == s[H_AGE] + 1 and not s[WRITTEN + legend]
    return s[ROW + legend] != 0


cdef inline uint32_t claimable(const int32_t* s, const Rules* r, int seat) noexcept nogil:
    """Bit n - 1: Legend n of the row (solo: of the Age's row, unwritten) that the seat's revealed cards meet."""
    cdef int unused, n
    cdef uint32_t met = legends_met(s, seat, &unused), out = 0
    for n in range(1, LEGENDS + 1):
        if claims(s, r, n) and (met >> (n - 1)) & 1:
            out |= (<uint32_t>1) << (n - 1)
    return out


cdef inline uint64_t load_rng(const int32_t* s) noexcept nogil:
    return (<uint64_t>(<uint32_t>s[H_RNG_LO])) | ((<uint64_t>(<uint32_t>s[H_RNG_HI])) << 32)


cdef inline void store_rng(int32_t* s, uint64_t word) noexcept nogil:
    s[H_RNG_LO] = <int32_t>(<uint32_t>(word & 0xFFFFFFFFULL))
    s[H_RNG_HI] = <int32_t>(<uint32_t>(word >> 32))


cdef inline int draw_random(int32_t* s, int n) noexcept nogil:
    """A number below ``n`` from the row's stream."""
    cdef uint64_t word = load_rng(s)
    cdef int r = below_high(&word, n)
    store_rng(s, word)
    return r


cdef inline void start_cards(const int32_t* s, int seat, int* cards) noexcept nogil:
    """The seat's 4 starting cards, ascending (our ``start[seat]``)."""
    cdef int card, i, j = 0
    for card in range(KINDS):
        for i in range(s[START + seat * KINDS + card]):
            cards[j] = card
            j += 1
