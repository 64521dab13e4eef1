"""N Mnemonic sessions stepped together (compiled kernel), for the batched environment of ``solver/openspiel/``.

The rules of ``solver/mnemonic/state.py`` (``docs/rules/mnemonic.md``, MN-*) on the rows of
``solver/mnemonic/rows.py`` (the layout is documented there; ``layout()`` lists it for the tests), every setting
of the rules file read from the config vector (the planning model's ``CFG_*`` of ``mnemonic_model.pxd``, then the
``X_*`` entries). Action ids are the state's, listed in ascending order as ``legal_actions`` lists them; a
random legal action is the one of rank ``floor(u * count)``. Chance events take one uniform each: a card drawn
from the deck is the one of rank ``floor(u * cards)`` (ascending), a roll of ``d`` dice is the least ``v`` with
``u * 6**d < v**d``, a Group Scene's result the first of Victory, Defeat, Draw whose cumulative count exceeds
``u * 6**dice`` (the counts of ``mnemonic_odds``, in doubles). A deal takes ``DEAL_UNIFORMS`` uniforms: the
new characters' ratings, then a Fisher-Yates shuffle of the deck (Into the Grey: of each class of cards).

Twin: ``solver/twins/mnemonic_step.py`` (same functions, same parameters, same results).
"""

from libc.stdint cimport int32_t, int64_t, uint8_t
from common cimport check_unit_interval
from mnemonic_model cimport (CFG_PLAYERS, CFG_GREY, CFG_JOKER_WILD, CFG_HELP_ONLY, CFG_HELP_DICE, CFG_HELPER_SHARES,
                             CFG_LEARN, CFG_LEARN_ONLY, CFG_WEAVINGS, CFG_REFRESH, CFG_AVOID_HELPER, CFG_REPAIR,
                             CFG_INJURY_SKILL, CFG_INJURY_EFFECT, CFG_NOBODY, CFG_DRAW_AS_VICTORY, CFG_MAX_ATTEMPTS,
                             CFG_ROTATE, CFG_NEEDS_COMPLICATION, CFG_GREY_CARD, CFG_DRAWS_FIRST, CFG_PASS,
                             CONFIG_LENGTH, MAX_PLAYERS, JOKER, UNUSABLE, MINUS_ONE, REFRESH_ROUND, SCENE_CARD,
                             SCENE_DRAW, SCENE_SKILL, SCENE_HELP, SCENE_ROLL, SCENE_WEAVE, TABLE, GROUP_DRAW,
                             GROUP_SKILL, GROUP_ROLL, AFTER_VICTORY, AFTER_DEFEAT, OVER)

cdef enum:
    MAX_SKILLS = 8, DECK = 54
    # the row (solver/mnemonic/rows.py)
    PHASE = 0, ROUND = 1, FOCUS = 2, ATTEMPTS = 3, VICTORIES = 4, DEFEATS = 5, DRAWS = 6, LAST = 7, NDISCARD = 8
    NDECK = 9, SC_ACTIVE = 10, SC_CARD = 11, SC_SKILL = 12, SC_LEARNED = 13, SC_HELPER = 14, SC_HSKILL = 15
    SC_ROLL = 16, SC_PASSED = 17, GR_ACTIVE = 18, GR_TURN = 19, GR_CARD = 20, GR_SKILL = 26, PLAYER_AT = 32
    P_WEAVINGS = 0, P_BONUS = 1, P_SKILLS = 2, P_HAND = 3, P_SKILL = 4, ROW_PLAYER_STRIDE = 28
    S_SUIT = 0, S_RATING = 1, S_FLAGS = 2, SKILL_STRIDE = 3, ROW_COMPLICATED = 1, ROW_INJURED = 2
    WHERE = 200, DISCARD = 254, DISCARD_BY = 308, ROW_LEN = 362, IN_DECK = 6, DISCARDED = 7
    X_MAX_SKILLS = 25, X_LEARN_RATING = 26, X_HAND_SIZE = 27, X_RATING_MIN = 28, X_RATING_MAX = 29, X_PER_SUIT = 30
    CONFIG_LEN = 31
    # actions (solver/mnemonic/state.py)
    ROW_DRAW = 60, USE = 100, LEARN = 150, PASS = 160, ASK = 200, NO_WEAVE = 300, WEAVE_AVOID = 301, WEAVE_GIVE = 310
    WEAVE_REPAIR = 320, GROUP = 400, NEW_ROUND = 401, END = 402, TRY_AGAIN = 403, REGROUP = 404, RETREAT = 405
    REVEAL = 500, ROLL = 600, RESULT = 700, GROUP_CARD = 1000, N_ACTIONS = 1540
    MAX_LEGAL = 440         # Into the Grey alone: a Group Scene skill with any of 54 cards (8 skills)
    MAX_CHANCE = 8          # chance events after one decision: a draw per player and the result, at most
    DEAL_UNIFORMS = 104     # ratings (at most 6 x 4 x 2), then a shuffle of the 54 cards
    CHANCE_PLAYER = -1, TERMINAL = -4, OBS_PIECES = 28

if CONFIG_LEN != CONFIG_LENGTH + 6 or PLAYER_AT + ROW_PLAYER_STRIDE * MAX_PLAYERS != WHERE:
    raise ImportError("mnemonic_step: the row layout does not fit the planning model's config or players")


def layout():
    """The row layout's names and values (``solver/mnemonic/rows.py`` lists the same)."""
    return dict(MAX_PLAYERS=MAX_PLAYERS, MAX_SKILLS=MAX_SKILLS, PHASE=PHASE, ROUND=ROUND, FOCUS=FOCUS,
                ATTEMPTS=ATTEMPTS, VICTORIES=VICTORIES, DEFEATS=DEFEATS, DRAWS=DRAWS, LAST=LAST, NDISCARD=NDISCARD,
                NDECK=NDECK, SC_ACTIVE=SC_ACTIVE, SC_CARD=SC_CARD, SC_SKILL=SC_SKILL, SC_LEARNED=SC_LEARNED,
                SC_HELPER=SC_HELPER, SC_HSKILL=SC_HSKILL, SC_ROLL=SC_ROLL, SC_PASSED=SC_PASSED, GR_ACTIVE=GR_ACTIVE,
                GR_TURN=GR_TURN, GR_CARD=GR_CARD, GR_SKILL=GR_SKILL, PLAYER_AT=PLAYER_AT, P_WEAVINGS=P_WEAVINGS,
                P_BONUS=P_BONUS, P_SKILLS=P_SKILLS, P_HAND=P_HAND, P_SKILL=P_SKILL, S_SUIT=S_SUIT, S_RATING=S_RATING,
                S_FLAGS=S_FLAGS, SKILL_STRIDE=SKILL_STRIDE, PLAYER_STRIDE=ROW_PLAYER_STRIDE, WHERE=WHERE,
                DISCARD=DISCARD, DISCARD_BY=DISCARD_BY, ROW_LEN=ROW_LEN, IN_DECK=IN_DECK, DISCARDED=DISCARDED,
                COMPLICATED=ROW_COMPLICATED, INJURED=ROW_INJURED, X_MAX_SKILLS=X_MAX_SKILLS,
                X_LEARN_RATING=X_LEARN_RATING,
                X_HAND_SIZE=X_HAND_SIZE, X_RATING_MIN=X_RATING_MIN, X_RATING_MAX=X_RATING_MAX, X_PER_SUIT=X_PER_SUIT,
                CONFIG_LEN=CONFIG_LEN)


def sizes():
    """``(MAX_LEGAL, MAX_CHANCE, DEAL_UNIFORMS)``: the widths of the action, chance and deal arrays."""
    return MAX_LEGAL, MAX_CHANCE, DEAL_UNIFORMS


# -- facts of a row --------------------------------------------------------------------------------------------
cdef inline int P(int q) noexcept nogil:
    return PLAYER_AT + ROW_PLAYER_STRIDE * q


cdef inline int SK(int q, int i) noexcept nogil:
    return PLAYER_AT + ROW_PLAYER_STRIDE * q + P_SKILL + SKILL_STRIDE * i


cdef inline int category(int card) noexcept nogil:
    return JOKER if card >= 52 else card // 13


cdef inline int card_class(int card) noexcept nogil:
    """Into the Grey's deal classes: 0 face card (J, Q, K, A), 1 number card, 2 joker."""
    if card >= 52:
        return 2
    return 0 if card % 13 >= 9 else 1


cdef inline int first_player(const int32_t* s, const int32_t* cfg) noexcept nogil:
    """The round's first player (MN-12, MN-21)."""
    return (s[ROUND] - 1) % cfg[CFG_PLAYERS] if cfg[CFG_ROTATE] else 0


cdef inline int seat(const int32_t* s, const int32_t* cfg, int index) noexcept nogil:
    """The player at ``index`` in this round's table order."""
    return (first_player(s, cfg) + index) % cfg[CFG_PLAYERS]


cdef inline bint row_usable(const int32_t* s, const int32_t* cfg, int q, int i) noexcept nogil:
    """MN-14: available unless complicated, or injured while injuries make skills unusable."""
    cdef int flags = s[SK(q, i) + S_FLAGS]
    return not (flags & ROW_COMPLICATED) and not ((flags & ROW_INJURED) and cfg[CFG_INJURY_EFFECT] == UNUSABLE)


cdef inline int row_available(const int32_t* s, const int32_t* cfg, int q) noexcept nogil:
    """The player's available skills, as a bit mask of skill indices."""
    cdef int i, mask = 0
    for i in range(s[P(q) + P_SKILLS]):
        if row_usable(s, cfg, q, i):
            mask |= 1 << i
    return mask


cdef inline int row_matching(const int32_t* s, const int32_t* cfg, int q, int cat) noexcept nogil:
    """Available skills matching a card of category ``cat`` (a Joker: none, or all when wild), as a bit mask."""
    cdef int i, mask = 0
    if cat == JOKER:
        return row_available(s, cfg, q) if cfg[CFG_JOKER_WILD] else 0
    for i in range(s[P(q) + P_SKILLS]):
        if s[SK(q, i) + S_SUIT] == cat and row_usable(s, cfg, q, i):
            mask |= 1 << i
    return mask


cdef inline int adversary(const int32_t* s, const int32_t* cfg) noexcept nogil:
    """One Adversary die per complication on anyone's skills (MN-22)."""
    cdef int q, i, n = 0
    for q in range(cfg[CFG_PLAYERS]):
        for i in range(s[P(q) + P_SKILLS]):
            n += s[SK(q, i) + S_FLAGS] & ROW_COMPLICATED
    return n


cdef inline int row_dice(const int32_t* s, const int32_t* cfg, int q, int i, bint helped) noexcept nogil:
    """Rating, pending extra dice, help dice, injury penalty (MN-18)."""
    cdef int n = s[SK(q, i) + S_RATING] + s[P(q) + P_BONUS] + (cfg[CFG_HELP_DICE] if helped else 0)
    if (s[SK(q, i) + S_FLAGS] & ROW_INJURED) and cfg[CFG_INJURY_EFFECT] == MINUS_ONE:
        n -= 1
    return n if n > 0 else 0


cdef inline bint can_play_scene(const int32_t* s, int q) noexcept nogil:
    return s[P(q) + P_HAND] > 0 or s[NDECK] > 0


cdef inline bint round_feasible(const int32_t* s, const int32_t* cfg) noexcept nogil:
    """A new round needs a card for every player (MN-21)."""
    cdef int q, empty = 0
    for q in range(cfg[CFG_PLAYERS]):
        if s[P(q) + P_HAND] == 0:
            empty += 1
    return empty <= s[NDECK]


cdef inline bint group_feasible(const int32_t* s, const int32_t* cfg) noexcept nogil:
    """Complications at stake (MN-39) and, in Deck Burner, a card per player (MN-23)."""
    if cfg[CFG_NEEDS_COMPLICATION] and adversary(s, cfg) == 0:
        return False
    return cfg[CFG_GREY] or s[NDECK] >= cfg[CFG_PLAYERS]


cdef inline bint grey_cards(const int32_t* cfg) noexcept nogil:
    return cfg[CFG_GREY] and cfg[CFG_GREY_CARD]


cdef inline bint draws_first(const int32_t* cfg) noexcept nogil:
    return not cfg[CFG_GREY] and cfg[CFG_DRAWS_FIRST]


cdef inline int hand_matching(const int32_t* s, const int32_t* cfg, int q) noexcept nogil:
    """The skills the player could bring with some card of their hand (Into the Grey with group cards, MN-41)."""
    cdef int c, mask = 0, cats = 0
    for c in range(DECK):
        if s[WHERE + c] == q:
            cats |= 1 << category(c)
    for c in range(5):
        if (cats >> c) & 1:
            mask |= row_matching(s, cfg, q, c)
    return mask


cdef inline bint someone_can_bring(const int32_t* s, const int32_t* cfg) noexcept nogil:
    cdef int q
    for q in range(cfg[CFG_PLAYERS]):
        if (hand_matching(s, cfg, q) if grey_cards(cfg) else row_available(s, cfg, q)) != 0:
            return True
    return False


cdef inline bint try_again_allowed(const int32_t* s, const int32_t* cfg) noexcept nogil:
    """MN-28: while someone can bring a skill, or below the cap ``group.maxAttempts``."""
    if cfg[CFG_MAX_ATTEMPTS] == 0:
        return someone_can_bring(s, cfg)
    return s[ATTEMPTS] < cfg[CFG_MAX_ATTEMPTS]


cdef inline int row_group_options(const int32_t* s, const int32_t* cfg, int q) noexcept nogil:
    """Skills a player may bring to the Group Scene (MN-23), as a bit mask."""
    if not cfg[CFG_GREY]:
        return 0 if s[GR_CARD + q] < 0 else row_matching(s, cfg, q, category(s[GR_CARD + q]))
    if cfg[CFG_GREY_CARD]:
        return hand_matching(s, cfg, q)
    return row_available(s, cfg, q)


cdef inline int current(const int32_t* s, const int32_t* cfg) noexcept nogil:
    """The player to act: -1 at a chance event, -4 once the session is over."""
    cdef int phase = s[PHASE]
    if phase == OVER:
        return TERMINAL
    if phase == SCENE_DRAW or phase == SCENE_ROLL or phase == GROUP_DRAW or phase == GROUP_ROLL:
        return CHANCE_PLAYER
    if phase == SCENE_CARD or phase == SCENE_SKILL or phase == SCENE_WEAVE:
        return s[FOCUS]
    if phase == SCENE_HELP:
        return s[SC_HELPER]
    if phase == GROUP_SKILL:
        return seat(s, cfg, s[GR_TURN])
    return first_player(s, cfg)


# -- legal actions (ascending) ---------------------------------------------------------------------------------
cdef inline int bits_to(int mask, int base, int32_t* out, int n) noexcept nogil:
    cdef int i
    for i in range(MAX_SKILLS):
        if (mask >> i) & 1:
            out[n] = base + i
            n += 1
    return n


cdef inline int listed_if(bint wanted, int action, int32_t* out, int n) noexcept nogil:
    if wanted:
        out[n] = action
        return n + 1
    return n


cdef inline int legal(const int32_t* s, const int32_t* cfg, int32_t* out) noexcept nogil:
    cdef int phase = s[PHASE], n = 0, p, q, c, cat, match, avail, k = cfg[CFG_PLAYERS]
    cdef bint asks
    if phase == SCENE_CARD:
        p = s[FOCUS]
        for c in range(DECK):
            if s[WHERE + c] == p:
                out[n] = c
                n += 1
        if s[NDECK] > 0:
            out[n] = ROW_DRAW
            n += 1
    elif phase == SCENE_SKILL:
        p = s[FOCUS]
        cat = category(s[SC_CARD])
        match = row_matching(s, cfg, p, cat)
        n = bits_to(match, USE, out, 0)
        if (cfg[CFG_LEARN] and s[P(p) + P_SKILLS] < cfg[X_MAX_SKILLS]
                and not (cfg[CFG_LEARN_ONLY] and match != 0)):
            if cat != JOKER:
                out[n] = LEARN + cat
                n += 1
            elif cfg[CFG_JOKER_WILD]:
                for c in range(4):
                    out[n] = LEARN + c
                    n += 1
        asks = False
        avail = row_available(s, cfg, p)
        if not (cfg[CFG_HELP_ONLY] and match != 0) and avail != 0:
            for q in range(k):
                if q != p and row_available(s, cfg, q) != 0:
                    asks = True
        if (n == 0 and not asks) or (match == 0 and cfg[CFG_PASS]):
            out[n] = PASS      # MN-17: asking and learning are optional, and a helper may decline
            n += 1
        if asks:
            for q in range(k):
                if q != p and row_available(s, cfg, q) != 0:
                    n = bits_to(avail, ASK + 10 * q, out, n)
    elif phase == SCENE_HELP:
        n = bits_to(row_available(s, cfg, s[SC_HELPER]), USE, out, 0)
    elif phase == SCENE_WEAVE:
        p = s[FOCUS]
        out[0] = NO_WEAVE
        n = 1
        if not s[SC_PASSED] and 0 <= s[SC_ROLL] < 6:
            out[n] = WEAVE_AVOID
            n += 1
        for q in range(k):
            if q != p:
                out[n] = WEAVE_GIVE + q
                n += 1
        if cfg[CFG_REPAIR]:
            for c in range(s[P(p) + P_SKILLS]):
                if s[SK(p, c) + S_FLAGS] & ROW_COMPLICATED:
                    out[n] = WEAVE_REPAIR + c
                    n += 1
    elif phase == TABLE:
        n = listed_if(group_feasible(s, cfg), GROUP, out, 0)
        n = listed_if(round_feasible(s, cfg), NEW_ROUND, out, n)
        n = listed_if(True, END, out, n)
    elif phase == AFTER_VICTORY:
        n = listed_if(round_feasible(s, cfg), NEW_ROUND, out, 0)
        n = listed_if(True, END, out, n)
    elif phase == AFTER_DEFEAT:
        n = listed_if(try_again_allowed(s, cfg) and group_feasible(s, cfg), TRY_AGAIN, out, 0)
        n = listed_if(round_feasible(s, cfg), REGROUP, out, n)
        n = listed_if(True, RETREAT, out, n)
    elif phase == GROUP_SKILL:
        q = seat(s, cfg, s[GR_TURN])
        if grey_cards(cfg):
            for c in range(DECK):
                if s[WHERE + c] == q:
                    n = bits_to(row_matching(s, cfg, q, category(c)), GROUP_CARD + 10 * c, out, n)
        else:
            n = bits_to(row_group_options(s, cfg, q), USE, out, 0)
    return n


# -- applying decisions (solver/mnemonic/state.py, function by function) --------------------------------------
cdef inline void discard(int32_t* s, int card, int by) noexcept nogil:
    s[WHERE + card] = DISCARDED
    s[DISCARD + s[NDISCARD]] = card
    s[DISCARD_BY + s[NDISCARD]] = by
    s[NDISCARD] += 1


cdef inline void set_scene(int32_t* s, int card) noexcept nogil:
    """A new scene with ``card`` (none: -1, and no scene at all)."""
    s[SC_ACTIVE] = card >= 0
    s[SC_CARD] = card
    s[SC_SKILL] = -1
    s[SC_LEARNED] = 0
    s[SC_HELPER] = -1
    s[SC_HSKILL] = -1
    s[SC_ROLL] = -1
    s[SC_PASSED] = 0


cdef inline void card_played(int32_t* s, int card) noexcept nogil:
    discard(s, card, s[FOCUS])
    set_scene(s, card)
    s[PHASE] = SCENE_SKILL


cdef inline void row_begin_scene(int32_t* s, const int32_t* cfg, int index) noexcept nogil:
    """Focus on the next player of the round who can lead a scene, or go to the table (MN-13)."""
    cdef int k = cfg[CFG_PLAYERS]
    while index < k and not can_play_scene(s, seat(s, cfg, index)):
        index += 1
    set_scene(s, -1)
    if index >= k:
        s[PHASE] = TABLE
        s[FOCUS] = first_player(s, cfg)
    else:
        s[PHASE] = SCENE_CARD
        s[FOCUS] = seat(s, cfg, index)


cdef inline void row_finish_scene(int32_t* s, const int32_t* cfg, int weave) noexcept nogil:
    cdef int p = s[FOCUS], k = cfg[CFG_PLAYERS]
    cdef bint avoided = weave == WEAVE_AVOID
    if not s[SC_PASSED] and 0 <= s[SC_ROLL] < 6:      # failed
        if not avoided:
            s[SK(p, s[SC_SKILL]) + S_FLAGS] |= ROW_COMPLICATED
        if s[SC_HELPER] >= 0 and cfg[CFG_HELPER_SHARES] and not (avoided and cfg[CFG_AVOID_HELPER]):
            s[SK(s[SC_HELPER], s[SC_HSKILL]) + S_FLAGS] |= ROW_COMPLICATED
    if weave != NO_WEAVE:
        s[P(p) + P_WEAVINGS] -= 1
        if WEAVE_GIVE <= weave < WEAVE_REPAIR:
            s[P(weave - WEAVE_GIVE) + P_BONUS] += 1
        elif weave >= WEAVE_REPAIR:
            s[SK(p, weave - WEAVE_REPAIR) + S_FLAGS] &= ~ROW_COMPLICATED
    row_begin_scene(s, cfg, (p - first_player(s, cfg) + k) % k + 1)


cdef inline void row_to_weave(int32_t* s, const int32_t* cfg) noexcept nogil:
    if s[P(s[FOCUS]) + P_WEAVINGS] > 0:
        s[PHASE] = SCENE_WEAVE
    else:
        row_finish_scene(s, cfg, NO_WEAVE)


cdef inline void row_roll(int32_t* s, const int32_t* cfg, int highest) noexcept nogil:
    s[SC_ROLL] = highest
    s[P(s[FOCUS]) + P_BONUS] = 0      # extra dice are spent on this roll (MN-20)
    row_to_weave(s, cfg)


cdef inline void row_to_roll(int32_t* s, const int32_t* cfg) noexcept nogil:
    if row_dice(s, cfg, s[FOCUS], s[SC_SKILL], s[SC_HELPER] >= 0) == 0:
        row_roll(s, cfg, 0)               # no dice, no 6: the skill is complicated (MN-2)
    else:
        s[PHASE] = SCENE_ROLL


cdef inline void row_advance_group(int32_t* s, const int32_t* cfg) noexcept nogil:
    cdef int k = cfg[CFG_PLAYERS], q
    if draws_first(cfg):
        for q in range(k):
            if s[GR_CARD + q] < 0:
                s[PHASE] = GROUP_DRAW     # everyone draws before anyone chooses (MN-23)
                return
    while s[GR_TURN] < k:
        q = seat(s, cfg, s[GR_TURN])
        if not cfg[CFG_GREY] and s[GR_CARD + q] < 0:
            s[PHASE] = GROUP_DRAW
            return
        if row_group_options(s, cfg, q) != 0:
            s[PHASE] = GROUP_SKILL
            return
        s[GR_TURN] += 1               # no skill available: they hope for the best (MN-23)
    s[PHASE] = GROUP_ROLL


cdef inline void row_start_round(int32_t* s, const int32_t* cfg) noexcept nogil:
    cdef int q
    s[ROUND] += 1
    s[ATTEMPTS] = 0
    clear_group(s)
    if cfg[CFG_REFRESH] == REFRESH_ROUND:
        for q in range(cfg[CFG_PLAYERS]):
            s[P(q) + P_WEAVINGS] = cfg[CFG_WEAVINGS]
    row_begin_scene(s, cfg, 0)


cdef inline void clear_group(int32_t* s) noexcept nogil:
    cdef int q
    s[GR_ACTIVE] = 0
    s[GR_TURN] = 0
    for q in range(MAX_PLAYERS):
        s[GR_CARD + q] = -1
        s[GR_SKILL + q] = -1


cdef inline void apply_decision(int32_t* s, const int32_t* cfg, int a) noexcept nogil:
    cdef int phase = s[PHASE], p = s[FOCUS], q, i
    if phase == SCENE_CARD:
        if a == ROW_DRAW:
            s[PHASE] = SCENE_DRAW
        else:
            s[P(p) + P_HAND] -= 1
            card_played(s, a)
    elif phase == SCENE_SKILL:
        if a == PASS:
            s[SC_PASSED] = 1
            row_to_weave(s, cfg)
        elif a < LEARN:
            s[SC_SKILL] = a - USE
            row_to_roll(s, cfg)
        elif a < PASS:
            i = s[P(p) + P_SKILLS]
            s[SK(p, i) + S_SUIT] = a - LEARN
            s[SK(p, i) + S_RATING] = cfg[X_LEARN_RATING]
            s[SK(p, i) + S_FLAGS] = 0
            s[P(p) + P_SKILLS] = i + 1
            s[SC_SKILL] = i
            s[SC_LEARNED] = 1
            row_to_roll(s, cfg)
        else:
            s[SC_HELPER] = (a - ASK) // 10
            s[SC_SKILL] = (a - ASK) % 10
            s[PHASE] = SCENE_HELP
    elif phase == SCENE_HELP:
        s[SC_HSKILL] = a - USE
        row_to_roll(s, cfg)
    elif phase == SCENE_WEAVE:
        row_finish_scene(s, cfg, a)
    elif phase == GROUP_SKILL:
        q = seat(s, cfg, s[GR_TURN])
        if a >= GROUP_CARD:
            i = (a - GROUP_CARD) // 10
            s[P(q) + P_HAND] -= 1
            discard(s, i, q)
            s[GR_CARD + q] = i
            s[GR_SKILL + q] = (a - GROUP_CARD) % 10
        else:
            s[GR_SKILL + q] = a - USE
        s[GR_TURN] += 1
        row_advance_group(s, cfg)
    elif a == END or a == RETREAT:
        s[PHASE] = OVER
        clear_group(s)
    elif a == NEW_ROUND or a == REGROUP:
        row_start_round(s, cfg)
    else:                             # GROUP or TRY_AGAIN
        s[ATTEMPTS] += 1
        clear_group(s)
        s[GR_ACTIVE] = 1
        row_advance_group(s, cfg)


# -- chance ----------------------------------------------------------------------------------------------------
cdef inline double row_power(double base, int exponent) noexcept nogil:
    """``base ** exponent`` by repeated products (the twin multiplies in the same order)."""
    cdef double out = 1.0
    cdef int i
    for i in range(exponent):
        out *= base
    return out


cdef inline void resolve_group(int32_t* s, const int32_t* cfg, int outcome) noexcept nogil:
    cdef int k = cfg[CFG_PLAYERS], q, i, used, suit
    for q in range(k):
        if s[GR_SKILL + q] >= 0:
            s[P(q) + P_BONUS] = 0
    s[LAST] = outcome
    if outcome == 0:
        s[VICTORIES] += 1
        for q in range(k):            # MN-25: clear all complications
            for i in range(s[P(q) + P_SKILLS]):
                s[SK(q, i) + S_FLAGS] &= ~ROW_COMPLICATED
            if cfg[CFG_REFRESH] == 2:
                s[P(q) + P_WEAVINGS] = cfg[CFG_WEAVINGS]
        s[PHASE] = AFTER_VICTORY
    elif outcome == 1:
        s[DEFEATS] += 1
        for q in range(k):            # MN-26: the suit each player used becomes injured
            used = s[GR_SKILL + q]
            if used < 0:
                continue
            suit = s[SK(q, used) + S_SUIT]
            for i in range(s[P(q) + P_SKILLS]):
                if i == used or (not cfg[CFG_INJURY_SKILL] and s[SK(q, i) + S_SUIT] == suit):
                    s[SK(q, i) + S_FLAGS] |= ROW_INJURED
        s[PHASE] = AFTER_DEFEAT
    else:
        s[DRAWS] += 1
        s[PHASE] = AFTER_VICTORY if cfg[CFG_DRAW_AS_VICTORY] else AFTER_DEFEAT
    clear_group(s)


cdef inline int group_result(const int32_t* s, const int32_t* cfg, double u) noexcept nogil:
    """The Group Scene's result (0 Victory, 1 Defeat, 2 Draw) of uniform ``u``, by the exact odds (MN-3..MN-6)."""
    cdef int k = cfg[CFG_PLAYERS], q, v, N = 0, M = adversary(s, cfg)
    cdef double victory = 0.0, defeat = 0.0, total, t
    for q in range(k):
        if s[GR_SKILL + q] >= 0:
            N += row_dice(s, cfg, q, s[GR_SKILL + q], False)
    if N == 0 and M == 0:
        return cfg[CFG_NOBODY]
    for v in range(1, 7):
        if N > 0:
            victory += (row_power(v, N) - row_power(v - 1, N)) * row_power(v - 1, M)
        if M > 0:
            defeat += (row_power(v, M) - row_power(v - 1, M)) * row_power(v - 1, N)
    total = row_power(6, N + M)
    t = u * total
    if N > 0 and t < victory:
        return 0
    if M > 0 and (t < victory + defeat or N == 0):
        return 1
    if N == 0 or M == 0:
        return 0 if M == 0 else 1    # no ties without dice on both sides: never a Draw
    return 2


cdef inline int row_chance(int32_t* s, const int32_t* cfg, double u) noexcept nogil:
    """Resolve the chance event of ``s`` with uniform ``u``; the outcome's action id."""
    cdef int phase = s[PHASE], c, rank, n, v, q, out
    cdef double t
    if phase == SCENE_DRAW or phase == GROUP_DRAW:
        rank = <int>(u * s[NDECK])
        for c in range(DECK):
            if s[WHERE + c] == IN_DECK:
                if rank == 0:
                    break
                rank -= 1
        s[NDECK] -= 1
        if phase == SCENE_DRAW:
            card_played(s, c)
        else:
            if draws_first(cfg):
                for q in range(cfg[CFG_PLAYERS]):
                    if s[GR_CARD + seat(s, cfg, q)] < 0:
                        break
                q = seat(s, cfg, q)
            else:
                q = seat(s, cfg, s[GR_TURN])
            s[GR_CARD + q] = c
            discard(s, c, q)
            row_advance_group(s, cfg)
        return REVEAL + c
    if phase == SCENE_ROLL:
        n = row_dice(s, cfg, s[FOCUS], s[SC_SKILL], s[SC_HELPER] >= 0)
        t = u * row_power(6, n)
        v = 1
        while v < 6 and not t < row_power(v, n):
            v += 1
        row_roll(s, cfg, v)
        return ROLL + v
    out = group_result(s, cfg, u)
    resolve_group(s, cfg, out)
    return RESULT + out


# -- dealing ---------------------------------------------------------------------------------------------------
cdef inline int shuffle(int32_t* pile, int length, const double* u, int t) noexcept nogil:
    """Fisher-Yates on ``pile[:length]`` with the uniforms from ``u[t]``; the next unused uniform."""
    cdef int i, j
    cdef int32_t tmp
    for i in range(length - 1, 0, -1):
        j = <int>(u[t] * (i + 1))
        t += 1
        tmp = pile[i]
        pile[i] = pile[j]
        pile[j] = tmp
    return t


cdef inline void deal_row(int32_t* s, const int32_t* cfg, const double* u) noexcept nogil:
    """A new session (``solver/mnemonic/setup.py``): characters rated uniformly in ``newCharacter.ratingMin..Max``,
    then Into the Grey's deal class by class round the table (MN-9), or Deck Burner's hands and deck (MN-10)."""
    cdef int k = cfg[CFG_PLAYERS], t = 0, q, suit, j, i, c, m = 0, cls, start, dealt
    cdef int span = cfg[X_RATING_MAX] - cfg[X_RATING_MIN] + 1
    cdef int32_t pile[DECK]
    for i in range(ROW_LEN):
        s[i] = -1
    s[ROUND] = 1
    s[FOCUS] = 0
    s[ATTEMPTS] = 0
    s[VICTORIES] = 0
    s[DEFEATS] = 0
    s[DRAWS] = 0
    s[NDISCARD] = 0
    for q in range(MAX_PLAYERS):
        s[P(q) + P_SKILLS] = 0
        s[P(q) + P_HAND] = 0
    for q in range(k):
        s[P(q) + P_WEAVINGS] = cfg[CFG_WEAVINGS]
        s[P(q) + P_BONUS] = 0
        i = 0
        for suit in range(4):
            for j in range(cfg[X_PER_SUIT]):
                s[SK(q, i) + S_SUIT] = suit
                s[SK(q, i) + S_RATING] = cfg[X_RATING_MIN] + <int>(u[t] * span)
                s[SK(q, i) + S_FLAGS] = 0
                t += 1
                i += 1
        s[P(q) + P_SKILLS] = i
    t = 4 * cfg[X_PER_SUIT] * MAX_PLAYERS
    if cfg[CFG_GREY]:
        for cls in range(3):
            start = m
            for c in range(DECK):
                if card_class(c) == cls:
                    pile[m] = c
                    m += 1
            t = shuffle(pile + start, m - start, u, t)
        dealt = DECK
    else:
        for c in range(DECK):
            pile[c] = c
        t = shuffle(pile, DECK, u, t)
        dealt = cfg[X_HAND_SIZE] * k
        if dealt > DECK:
            dealt = DECK
    for i in range(DECK):
        if i < dealt:
            s[WHERE + pile[i]] = i % k
            s[P(i % k) + P_HAND] += 1
        else:
            s[WHERE + pile[i]] = IN_DECK
    s[NDECK] = DECK - dealt
    clear_group(s)
    row_begin_scene(s, cfg, 0)


# -- validation (raises ValueError; the twin checks the same) ----------------------------------------------------
cdef inline int row_error(const int32_t* s, const int32_t* cfg) noexcept nogil:
    """0 when the row is safe to run the rules on, else the number of the first problem found."""
    cdef int k = cfg[CFG_PLAYERS], q, i, c
    cdef int held[DISCARDED + 1]
    if not (0 <= s[PHASE] <= OVER and 0 <= s[FOCUS] < k and 1 <= s[ROUND] and 0 <= s[NDISCARD] <= DECK):
        return 1
    for q in range(k):
        if not (0 <= s[P(q) + P_SKILLS] <= cfg[X_MAX_SKILLS] and s[P(q) + P_WEAVINGS] >= 0
                and s[P(q) + P_BONUS] >= 0):
            return 2
        for i in range(s[P(q) + P_SKILLS]):
            if not (0 <= s[SK(q, i) + S_SUIT] < 4 and s[SK(q, i) + S_RATING] >= 0):
                return 2
    for q in range(DISCARDED + 1):
        held[q] = 0
    for c in range(DECK):
        q = s[WHERE + c]
        if not (0 <= q < k or q == IN_DECK or q == DISCARDED):
            return 3
        held[q] += 1
    for q in range(k):
        if held[q] != s[P(q) + P_HAND]:
            return 3
    if held[IN_DECK] != s[NDECK] or held[DISCARDED] != s[NDISCARD]:
        return 3
    for i in range(s[NDISCARD]):
        if not (0 <= s[DISCARD + i] < DECK and 0 <= s[DISCARD_BY + i] < k):
            return 3
    if s[SC_ACTIVE]:
        if not (0 <= s[SC_CARD] < DECK and -1 <= s[SC_SKILL] < s[P(s[FOCUS]) + P_SKILLS] and -1 <= s[SC_ROLL] <= 6):
            return 4
        if s[SC_HELPER] >= 0 and not (s[SC_HELPER] < k and -1 <= s[SC_HSKILL] < s[P(s[SC_HELPER]) + P_SKILLS]):
            return 4
    elif SCENE_SKILL <= s[PHASE] <= SCENE_WEAVE:
        return 4
    if s[PHASE] == SCENE_HELP and (s[SC_HELPER] < 0 or s[SC_SKILL] < 0):
        return 4
    if (s[PHASE] == SCENE_ROLL or s[PHASE] == SCENE_WEAVE) and s[SC_SKILL] < 0 and not s[SC_PASSED]:
        return 4
    if s[GR_ACTIVE]:
        if not 0 <= s[GR_TURN] <= k:
            return 5
        for q in range(k):
            if not (-1 <= s[GR_CARD + q] < DECK and -1 <= s[GR_SKILL + q] < s[P(q) + P_SKILLS]):
                return 5
    elif GROUP_DRAW <= s[PHASE] <= GROUP_ROLL:
        return 5
    if s[PHASE] == GROUP_SKILL and s[GR_TURN] >= k:
        return 5
    if (s[PHASE] == SCENE_DRAW or s[PHASE] == GROUP_DRAW) and s[NDECK] == 0:
        return 6
    return 0


cdef inline str row_problem(int err):
    """What problem number ``err`` of :func:`row_error` is (the twin's ``ROW_ERRORS``)."""
    return ("", "bad phase, focus, round or discard size", "bad skills", "bad cards", "bad scene",
            "bad Group Scene", "a draw from an empty deck")[err]


cdef inline void check_config(const int32_t[::1] cfg) except *:
    if cfg.shape[0] != CONFIG_LEN:
        raise ValueError(f"config: expected {CONFIG_LEN} entries")
    if not 1 <= cfg[CFG_PLAYERS] <= MAX_PLAYERS or not 1 <= cfg[X_MAX_SKILLS] <= MAX_SKILLS \
            or not 0 <= cfg[X_PER_SUIT] <= 2 or 4 * cfg[X_PER_SUIT] > cfg[X_MAX_SKILLS] \
            or cfg[X_RATING_MIN] > cfg[X_RATING_MAX] or not 0 <= cfg[X_HAND_SIZE]:
        raise ValueError("config: bad players, skills, ratings or hand size")


cdef inline void check_rows(const int32_t[:, ::1] states, const int32_t[::1] cfg) except *:
    cdef Py_ssize_t i
    cdef int err
    check_config(cfg)
    if states.shape[1] != ROW_LEN:
        raise ValueError(f"states: expected rows of {ROW_LEN} entries")
    for i in range(states.shape[0]):
        err = row_error(&states[i, 0], &cfg[0])
        if err:
            raise ValueError(f"states[{i}]: " + row_problem(err))


cdef inline void check_length(Py_ssize_t got, Py_ssize_t n, str names) except *:
    if got != n:
        raise ValueError(f"{names}: expected n entries")


cdef inline void check_uniforms(const double[:, ::1] uniforms, Py_ssize_t n, int width) except *:
    if uniforms.shape[0] != n or uniforms.shape[1] != width:
        raise ValueError(f"uniforms: expected (n, {width})")
    if n > 0:
        check_unit_interval(&uniforms[0, 0], n * width, width)


# -- the batch entry points ------------------------------------------------------------------------------------
def deal(int32_t[:, ::1] states, const int32_t[::1] config, const int64_t[::1] slots, const double[:, ::1] uniforms):
    """A new session in row ``slots[j]`` of ``states`` for each ``j``, dealt with ``uniforms[j]``
    (``DEAL_UNIFORMS`` of them)."""
    cdef Py_ssize_t j, n = slots.shape[0]
    check_config(config)
    if states.shape[1] != ROW_LEN:
        raise ValueError(f"states: expected rows of {ROW_LEN} entries")
    check_uniforms(uniforms, n, DEAL_UNIFORMS)
    for j in range(n):
        if not 0 <= slots[j] < states.shape[0]:
            raise ValueError(f"slots[{j}]: expected a row of states, got {slots[j]}")
    with nogil:
        for j in range(n):
            deal_row(&states[slots[j], 0], &config[0], &uniforms[j, 0])


def players(const int32_t[:, ::1] states, const int32_t[::1] config, int32_t[::1] out):
    """``out[i]``: the player to act in row ``i`` (-1 at a chance event, -4 once the session is over)."""
    cdef Py_ssize_t i, n = states.shape[0]
    check_rows(states, config)
    check_length(out.shape[0], n, "out")
    with nogil:
        for i in range(n):
            out[i] = current(&states[i, 0], &config[0])


def legal_actions(const int32_t[:, ::1] states, const int32_t[::1] config, int32_t[:, ::1] actions,
                  int32_t[::1] counts):
    """``actions[i, :counts[i]]``: row ``i``'s legal actions, ascending (none at a chance event or the end)."""
    cdef Py_ssize_t i, n = states.shape[0]
    check_rows(states, config)
    check_length(counts.shape[0], n, "counts")
    if actions.shape[0] != n or actions.shape[1] != MAX_LEGAL:
        raise ValueError(f"actions: expected (n, {MAX_LEGAL})")
    with nogil:
        for i in range(n):
            counts[i] = row_decisions(&states[i, 0], &config[0], &actions[i, 0])


cdef inline int row_decisions(const int32_t* s, const int32_t* cfg, int32_t* out) noexcept nogil:
    return legal(s, cfg, out) if current(s, cfg) >= 0 else 0


def random_legal(const int32_t[:, ::1] states, const int32_t[::1] config, const double[::1] uniforms,
                 int32_t[::1] out):
    """``out[i]``: the legal action of rank ``floor(uniforms[i] * count)`` of row ``i``, -1 where nobody decides."""
    cdef Py_ssize_t i, n = states.shape[0]
    cdef int count
    cdef int32_t listed[MAX_LEGAL]
    check_rows(states, config)
    check_length(uniforms.shape[0], n, "uniforms")
    check_length(out.shape[0], n, "out")
    if n > 0:
        check_unit_interval(&uniforms[0], n, 0)
    with nogil:
        for i in range(n):
            count = row_decisions(&states[i, 0], &config[0], listed)
            out[i] = listed[<int>(uniforms[i] * count)] if count > 0 else -1


cdef inline bint is_legal(const int32_t* s, const int32_t* cfg, int action) noexcept nogil:
    cdef int32_t listed[MAX_LEGAL]
    cdef int i, count
    if not 0 <= action < N_ACTIONS:
        return False
    count = row_decisions(s, cfg, listed)
    for i in range(count):
        if listed[i] == action:
            return True
    return False


def step(int32_t[:, ::1] states, const int32_t[::1] config, const int32_t[::1] actions, const uint8_t[::1] settle,
         const double[:, ::1] uniforms, int32_t[::1] players, int32_t[:, ::1] drawn):
    """Apply ``actions[i]`` to row ``i`` in place; where ``settle[i]``, resolve the chance events that follow with
    ``uniforms[i]`` (one each, ``MAX_CHANCE`` at most), writing their outcomes into ``drawn[i]`` (-1 after the
    last); write the player to act next into ``players``. Every action is checked first: when one is not legal
    nothing is applied and the first such row is returned; otherwise -1."""
    cdef Py_ssize_t i, n = states.shape[0], bad = -1
    cdef int k
    check_rows(states, config)
    check_length(actions.shape[0], n, "actions")
    check_length(settle.shape[0], n, "settle")
    check_length(players.shape[0], n, "players")
    check_uniforms(uniforms, n, MAX_CHANCE)
    if drawn.shape[0] != n or drawn.shape[1] != MAX_CHANCE:
        raise ValueError(f"drawn: expected (n, {MAX_CHANCE})")
    with nogil:
        for i in range(n):
            if not is_legal(&states[i, 0], &config[0], actions[i]):
                bad = i
                break
        if bad < 0:
            for i in range(n):
                apply_decision(&states[i, 0], &config[0], actions[i])
                k = 0
                if settle[i]:
                    while current(&states[i, 0], &config[0]) == CHANCE_PLAYER and k < MAX_CHANCE:
                        drawn[i, k] = row_chance(&states[i, 0], &config[0], uniforms[i, k])
                        k += 1
                while k < MAX_CHANCE:
                    drawn[i, k] = -1
                    k += 1
                players[i] = current(&states[i, 0], &config[0])
    return bad


# -- observations (solver/mnemonic/openspiel.py: fill_public, fill_private) --------------------------------------
cdef inline void piece_sizes(int k, int S, int* out) noexcept nogil:
    """The sizes of the observation's pieces, in the order of ``public_pieces`` then ``private_pieces``: phase,
    to_move, first, focus, round, attempts, tally, last, skills, weavings, bonus, hand_size, classes, deck_size,
    adversary, discard, scene_card, scene_skill, scene_learned, scene_helper, scene_helper_skill, scene_roll,
    scene_passed, scene_active, group_active, group_turn, group_cards, group_skills (the hand follows: 54)."""
    out[0] = 14; out[1] = k + 1; out[2] = k; out[3] = k; out[4] = 1; out[5] = 1; out[6] = 3; out[7] = 4
    out[8] = k * S * 8; out[9] = k; out[10] = k; out[11] = k; out[12] = k * 3; out[13] = 1; out[14] = 1
    out[15] = DECK * (k + 1); out[16] = DECK + 1; out[17] = S + 1; out[18] = 1; out[19] = k + 1; out[20] = S + 1
    out[21] = 8; out[22] = 1; out[23] = 1; out[24] = 1; out[25] = k + 1; out[26] = k * (DECK + 1)
    out[27] = k * (S + 1)


def observation_size(const int32_t[::1] config):
    """The floats of one observation (every piece, the private ``hand`` last)."""
    cdef int sizes[OBS_PIECES]
    cdef int i, total = DECK
    check_config(config)
    piece_sizes(config[CFG_PLAYERS], config[X_MAX_SKILLS], sizes)
    for i in range(OBS_PIECES):
        total += sizes[i]
    return total


cdef inline void observe_row(const int32_t* s, const int32_t* cfg, int player, float* o) noexcept nogil:
    cdef int k = cfg[CFG_PLAYERS], S = cfg[X_MAX_SKILLS], q, i, c, at, actor
    cdef int sizes[OBS_PIECES]
    cdef float* x[OBS_PIECES + 1]
    cdef float* row
    piece_sizes(k, S, sizes)
    x[0] = o
    for i in range(OBS_PIECES):
        x[i + 1] = x[i] + sizes[i]
    x[0][s[PHASE]] = 1
    actor = current(s, cfg)
    x[1][actor if actor >= 0 else k] = 1
    x[2][first_player(s, cfg)] = 1
    x[3][s[FOCUS]] = 1
    x[4][0] = s[ROUND] / 10.0
    x[5][0] = s[ATTEMPTS] / 10.0
    x[6][0] = s[VICTORIES] / 10.0
    x[6][1] = s[DEFEATS] / 10.0
    x[6][2] = s[DRAWS] / 10.0
    x[7][s[LAST] + 1] = 1
    for q in range(k):
        for i in range(s[P(q) + P_SKILLS]):
            row = x[8] + (q * S + i) * 8
            at = SK(q, i)
            row[0] = 1
            row[1 + s[at + S_SUIT]] = 1
            row[5] = s[at + S_RATING] / 6.0
            row[6] = s[at + S_FLAGS] & ROW_COMPLICATED
            row[7] = (s[at + S_FLAGS] & ROW_INJURED) >> 1
        x[9][q] = s[P(q) + P_WEAVINGS]
        x[10][q] = s[P(q) + P_BONUS]
        x[11][q] = s[P(q) + P_HAND] / 10.0
    if cfg[CFG_GREY]:
        for c in range(DECK):
            q = s[WHERE + c]
            if q < k:
                x[12][3 * q + card_class(c)] += <float>0.1
    x[13][0] = s[NDECK] / 54.0
    x[14][0] = adversary(s, cfg) / 10.0
    for i in range(s[NDISCARD]):
        c = s[DISCARD + i]
        x[15][c * (k + 1) + s[DISCARD_BY + i]] = 1
        x[15][c * (k + 1) + k] = (i + 1) / 54.0
    if s[SC_ACTIVE]:
        x[23][0] = 1
        x[16][s[SC_CARD] if s[SC_CARD] >= 0 else DECK] = 1
        x[17][s[SC_SKILL] if s[SC_SKILL] >= 0 else S] = 1
        x[18][0] = s[SC_LEARNED]
        x[19][s[SC_HELPER] if s[SC_HELPER] >= 0 else k] = 1
        x[20][s[SC_HSKILL] if s[SC_HSKILL] >= 0 else S] = 1
        x[21][s[SC_ROLL] + 1] = 1
        x[22][0] = s[SC_PASSED]
    if s[GR_ACTIVE]:
        x[24][0] = 1
        x[25][s[GR_TURN] if s[GR_TURN] < k else k] = 1
        for q in range(k):
            x[26][q * (DECK + 1) + (s[GR_CARD + q] if s[GR_CARD + q] >= 0 else DECK)] = 1
            x[27][q * (S + 1) + (s[GR_SKILL + q] if s[GR_SKILL + q] >= 0 else S)] = 1
    for c in range(DECK):
        if s[WHERE + c] == player:
            x[OBS_PIECES][c] = 1


def observe(const int32_t[:, ::1] states, const int32_t[::1] config, const int32_t[::1] players, float[:, ::1] out):
    """``out[i]`` (zeroed): the observation of row ``i`` by ``players[i]``: the public pieces and that player's
    hand, in the order of ``solver/mnemonic/openspiel.py`` (without the adapter's ``progress`` and ``observer``)."""
    cdef Py_ssize_t i, n = states.shape[0]
    check_rows(states, config)
    check_length(players.shape[0], n, "players")
    if out.shape[0] != n or out.shape[1] != observation_size(config):
        raise ValueError(f"out: expected (n, {observation_size(config)})")
    for i in range(n):
        if not 0 <= players[i] < config[CFG_PLAYERS]:
            raise ValueError(f"players[{i}]: expected a player 0..{config[CFG_PLAYERS] - 1}, got {players[i]}")
    with nogil:
        for i in range(n):
            observe_row(&states[i, 0], &config[0], players[i], &out[i, 0])
