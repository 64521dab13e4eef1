"""Pure-Python twin of ``src/mnemonic_model.pxd``: the Mnemonic planning model (layout, rules, transitions).

The planner is three twins, as the kernel is three files: this model, the continuation estimate
(``mnemonic_estimate.py``) and the search (``mnemonic_plan.py``, the functions of the compiled kernel
``solver.kernels.mnemonic``). The twins compute with :class:`fractions.Fraction` and return exact values;
the kernel computes the same expectimax in IEEE doubles (tests: they agree to 1e-12).

The planning model
==================
Exact dynamic programming (expectimax with memoisation) over an abstraction
of a session in which card ranks are dropped (only a card's *category*
matters: hearts, diamonds, clubs, spades or joker, index 0-4) and a roll only
counts as success or failure. Every other rule is the session's
(``solver/mnemonic/state.py``), move for move. The value of a position is the
highest probability, over all ways of playing, that a Group Scene ends in
Victory before the horizon runs out: ``positions[i][ROUNDS_LEFT]`` new rounds
of Individual Scenes and ``positions[i][GROUPS_LEFT]`` Group Scenes.

A player's hand is either *known* (its category counts) or *open*: a hidden
hand of which only the size is known; an open hand may play any category the
unseen pool still holds (MN-36). Draws from the deck take a category with
probability ``pool[c] / sum(pool)``, where ``pool`` counts the cards the
planner cannot see (the deck, plus any open hands).

Arrays
======
``config`` (``CFG_*`` indices below), ``skills`` rows ``(owner, rating)`` for
every skill slot (slots of one player are contiguous, in the order of the
player's skills, followed by the slots the player may still fill by
learning), and ``positions``: rows of ``POSITION_LENGTH(players, slots)``
integers laid out as ``POS_*`` + per player ``PL_*`` + per slot ``SL_*``.

``plan_values(config, skills, positions, limit, seconds, stop)`` returns
``(values, states, complete, estimates)``: the value of each position, the
number of memoised states, False if ``limit`` states were exceeded, the time
ran out or another thread set ``stop[0]`` (values are then meaningless), and
how many times the continuation estimate was used (0: the values are exact
for the whole session).

The horizon and the continuation
================================
``config[CFG_TAIL]`` = 0 is the plain horizon objective: beyond the horizon
nothing counts. With ``CFG_TAIL`` = 1 the value is an estimate of the chance of
a Victory in the rest of the session: exact expectimax within the horizon,
and at its edge the **continuation estimate** (class ``Tail`` of ``mnemonic_estimate.py``, MN-44 in
``docs/rules/mnemonic.md``): the session's remaining rounds
(``config[CFG_TAIL_ROUNDS]`` beyond the horizon, plus the horizon's unused
rounds) played by the base policy "face the Adversary after every round and
try again while allowed", each scene with the matching available skill with
the most dice, in a mean-field model (draws with replacement from the unseen
cards, each suit's best skill followed on its own). ``POS_ROUNDS_LEFT`` may be
-1: a round beyond the horizon has already started (it is estimated).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

# -- config indices ---------------------------------------------------------------------------
CFG_PLAYERS, CFG_SLOTS, CFG_GREY, CFG_JOKER_WILD, CFG_HELP_ONLY, CFG_HELP_DICE, CFG_HELPER_SHARES = range(7)
CFG_LEARN, CFG_LEARN_ONLY, CFG_WEAVINGS, CFG_REFRESH, CFG_AVOID_HELPER, CFG_REPAIR = range(7, 13)
CFG_INJURY_SKILL, CFG_INJURY_EFFECT, CFG_NOBODY, CFG_DRAW_AS_VICTORY, CFG_MAX_ATTEMPTS, CFG_ROTATE = range(13, 19)
CFG_NEEDS_COMPLICATION, CFG_GREY_CARD, CFG_DRAWS_FIRST, CFG_PASS = 19, 20, 21, 22
CFG_TAIL, CFG_TAIL_ROUNDS = 23, 24  # the continuation estimate on/off; session rounds beyond the horizon
CONFIG_LENGTH = 25
#: the continuation's Group Scenes between two rounds when Try Again has no cap (CFG_MAX_ATTEMPTS = 0)
TAIL_WINDOW = 3
# continuation entry points: the rest of this round, a new round, a Group Scene now, after the last exact one
TAIL_REST, TAIL_ROUND, TAIL_FACE, TAIL_AFTER = range(4)
# injury effects, refresh rules, nobody-rolls outcomes
UNUSABLE, MINUS_ONE, NO_EFFECT = 0, 1, 2
REFRESH_NEVER, REFRESH_ROUND, REFRESH_VICTORY = 0, 1, 2
VICTORY, DEFEAT, DRAW = 0, 1, 2

# -- phases (same order as solver.mnemonic.session.PHASES) -------------------------------------------
(SCENE_CARD, SCENE_DRAW, SCENE_SKILL, SCENE_HELP, SCENE_ROLL, SCENE_WEAVE, TABLE, GROUP_DRAW, GROUP_SKILL,
 GROUP_ROLL, AFTER_VICTORY, AFTER_DEFEAT, OVER) = range(13)

# -- position layout -----------------------------------------------------------------------------
(POS_PHASE, POS_FOCUS, POS_FIRST, POS_ROUNDS_LEFT, POS_GROUPS_LEFT, POS_ATTEMPTS, POS_DECK) = range(7)
POS_POOL = 7  # 5 categories
POS_CAT, POS_SKILL, POS_HELPER, POS_HELPER_SKILL, POS_RESULT, POS_TURN = range(12, 18)
HEADER = 18
PL_KNOWN, PL_HAND_SIZE, PL_HAND, PL_TOKENS, PL_BONUS, PL_GROUP_CAT, PL_GROUP_SLOT = 0, 1, 2, 7, 8, 9, 10
PLAYER_STRIDE = 11
SL_SUIT, SL_STATUS = 0, 1
SLOT_STRIDE = 2
COMPLICATED, INJURED, ABSENT = 1, 2, 4
# scene results
FAILED, SUCCEEDED, PASSED = 0, 1, 2
#: positions are memoised only where paths meet again: the start of a scene and the table's choices
MEMO_PHASES = (SCENE_CARD, TABLE, AFTER_VICTORY, AFTER_DEFEAT, OVER)
JOKER = 4
CATEGORIES = 5


def POSITION_LENGTH(players: int, slots: int) -> int:  # noqa: N802 - a layout constant, named like one
    """Integers in one position row."""
    return HEADER + PLAYER_STRIDE * players + SLOT_STRIDE * slots


def _beats(a: int, b: int) -> Fraction:
    """The chance that the highest of ``a`` dice beats the highest of ``b``: no dice never beat, and lose to any."""
    return sum(((Fraction(v, 6) ** a - Fraction(v - 1, 6) ** a) * Fraction(v - 1, 6) ** b
                for v in range(1, 7)), Fraction(0))


class Model:
    """The rules of the planning model on position rows (no search: :class:`solver.twins.mnemonic_plan` searches)."""

    def __init__(self, config: Sequence[int], skills: Sequence[Sequence[int]]) -> None:
        self.c = [int(x) for x in config]
        self.k = self.c[CFG_PLAYERS]
        self.s = self.c[CFG_SLOTS]
        rows = skills.tolist() if hasattr(skills, "tolist") else skills  # a 2-D memoryview has no row iteration
        self.owner = [int(row[0]) for row in rows]
        self.rating = [int(row[1]) for row in rows]
        self.slots_of = [[i for i in range(self.s) if self.owner[i] == q] for q in range(self.k)]

    # -- layout helpers --------------------------------------------------------------------------
    def pl(self, q: int, field: int) -> int:
        return HEADER + PLAYER_STRIDE * q + field

    def sl(self, i: int, field: int) -> int:
        return HEADER + PLAYER_STRIDE * self.k + SLOT_STRIDE * i + field

    def present(self, pos: list[int], i: int) -> bool:
        return not pos[self.sl(i, SL_STATUS)] & ABSENT

    def usable(self, pos: list[int], i: int) -> bool:
        status = pos[self.sl(i, SL_STATUS)]
        if status & (ABSENT | COMPLICATED):
            return False
        return not (status & INJURED and self.c[CFG_INJURY_EFFECT] == UNUSABLE)

    def available(self, pos: list[int], q: int) -> list[int]:
        return [i for i in self.slots_of[q] if self.usable(pos, i)]

    def matching(self, pos: list[int], q: int, cat: int) -> list[int]:
        if cat == JOKER:
            return self.available(pos, q) if self.c[CFG_JOKER_WILD] else []
        return [i for i in self.available(pos, q) if pos[self.sl(i, SL_SUIT)] == cat]

    def dice(self, pos: list[int], i: int, helped: bool) -> int:
        q = self.owner[i]
        n = self.rating[i] + pos[self.pl(q, PL_BONUS)] + (self.c[CFG_HELP_DICE] if helped else 0)
        if pos[self.sl(i, SL_STATUS)] & INJURED and self.c[CFG_INJURY_EFFECT] == MINUS_ONE:
            n -= 1
        return max(0, n)

    def order(self, pos: list[int], index: int) -> int:
        return (pos[POS_FIRST] + index) % self.k

    def can_play(self, pos: list[int], q: int) -> bool:
        return pos[self.pl(q, PL_HAND_SIZE)] > 0 or pos[POS_DECK] > 0

    def round_allowed(self, pos: list[int]) -> bool:
        """The rules allow a new round: a card for everyone (MN-21)."""
        empty = sum(1 for q in range(self.k) if pos[self.pl(q, PL_HAND_SIZE)] == 0)
        return empty <= pos[POS_DECK]

    def group_allowed(self, pos: list[int]) -> bool:
        """The rules allow a Group Scene: complications at stake (MN-39) and, in Deck Burner, a card each."""
        if self.c[CFG_NEEDS_COMPLICATION] and self.complications(pos) == 0:
            return False
        return self.c[CFG_GREY] == 1 or pos[POS_DECK] >= self.k

    def capped(self) -> bool:
        """Try Again has a cap (MN-28); without one the attempts are not counted."""
        return self.c[CFG_MAX_ATTEMPTS] > 0

    def try_again(self, pos: list[int]) -> bool:
        """Try Again: within the cap, or without one while some player can bring a skill (MN-28)."""
        if self.capped():
            return pos[POS_ATTEMPTS] < self.c[CFG_MAX_ATTEMPTS]
        return any(self.group_options(pos, q) if self.c[CFG_GREY] else self.available(pos, q) for q in range(self.k))

    def tail_rounds(self, pos: list[int]) -> int:
        """Rounds the continuation may still start: the session's beyond the horizon and the horizon's unused."""
        return max(0, self.c[CFG_TAIL_ROUNDS] + pos[POS_ROUNDS_LEFT]) if self.c[CFG_TAIL] else 0

    def nothing_after(self, pos: list[int]) -> bool:
        """In a Group Scene: no other Group Scene and no round can follow it (within the model)."""
        return (pos[POS_ROUNDS_LEFT] <= 0 and self.capped() and pos[POS_ATTEMPTS] >= self.c[CFG_MAX_ATTEMPTS]
                and self.tail_rounds(pos) == 0)

    def complications(self, pos: list[int]) -> int:
        return sum(1 for i in range(self.s) if pos[self.sl(i, SL_STATUS)] & COMPLICATED)

    # -- transitions (mirror solver/mnemonic/state.py) ----------------------------------------------
    def reset_scene(self, pos: list[int]) -> None:
        pos[POS_CAT] = pos[POS_SKILL] = pos[POS_HELPER] = pos[POS_HELPER_SKILL] = pos[POS_RESULT] = -1

    def begin_scene(self, pos: list[int], index: int) -> None:
        while index < self.k and not self.can_play(pos, self.order(pos, index)):
            index += 1
        self.reset_scene(pos)
        if index >= self.k:
            pos[POS_PHASE], pos[POS_FOCUS] = TABLE, pos[POS_FIRST]
        else:
            pos[POS_PHASE], pos[POS_FOCUS] = SCENE_CARD, self.order(pos, index)

    def start_round(self, pos: list[int]) -> None:
        pos[POS_ROUNDS_LEFT] -= 1
        pos[POS_ATTEMPTS] = 0
        if self.c[CFG_ROTATE]:
            pos[POS_FIRST] = (pos[POS_FIRST] + 1) % self.k
        if self.c[CFG_REFRESH] == REFRESH_ROUND:
            for q in range(self.k):
                pos[self.pl(q, PL_TOKENS)] = self.c[CFG_WEAVINGS]
        self.begin_scene(pos, 0)

    def start_group(self, pos: list[int]) -> None:
        pos[POS_GROUPS_LEFT] -= 1
        if self.capped():
            pos[POS_ATTEMPTS] += 1
        pos[POS_TURN] = 0
        for q in range(self.k):
            pos[self.pl(q, PL_GROUP_CAT)] = pos[self.pl(q, PL_GROUP_SLOT)] = -1
        self.advance_group(pos)

    def holds(self, pos: list[int], q: int, cat: int) -> bool:
        """Player ``q`` can play a card of ``cat`` from hand (an open hand: any category the pool holds)."""
        if pos[self.pl(q, PL_KNOWN)]:
            return pos[self.pl(q, PL_HAND + cat)] > 0
        return pos[self.pl(q, PL_HAND_SIZE)] > 0 and pos[POS_POOL + cat] > 0

    def group_options(self, pos: list[int], q: int) -> list[int]:
        """Skills ``q`` may bring (Into the Grey with cards: with some card of the skill's suit in hand)."""
        if self.c[CFG_GREY]:
            if self.c[CFG_GREY_CARD]:
                return sorted({i for cat in range(CATEGORIES) if self.holds(pos, q, cat)
                               for i in self.matching(pos, q, cat)})
            return self.available(pos, q)
        cat = pos[self.pl(q, PL_GROUP_CAT)]
        return [] if cat < 0 else self.matching(pos, q, cat)

    def drawer(self, pos: list[int]) -> int:
        """Who draws at a Group Scene draw (everyone first, in table order; or the player whose turn it is)."""
        if self.c[CFG_DRAWS_FIRST]:
            return next(self.order(pos, i) for i in range(self.k) if pos[self.pl(self.order(pos, i), PL_GROUP_CAT)] < 0)
        return self.order(pos, pos[POS_TURN])

    def advance_group(self, pos: list[int]) -> None:
        burner = not self.c[CFG_GREY]
        if burner and self.c[CFG_DRAWS_FIRST] and any(pos[self.pl(q, PL_GROUP_CAT)] < 0 for q in range(self.k)):
            pos[POS_PHASE] = GROUP_DRAW
            return
        while pos[POS_TURN] < self.k:
            q = self.order(pos, pos[POS_TURN])
            if burner and pos[self.pl(q, PL_GROUP_CAT)] < 0:
                pos[POS_PHASE] = GROUP_DRAW
                return
            if self.group_options(pos, q):
                pos[POS_PHASE] = GROUP_SKILL
                return
            pos[POS_TURN] += 1
        pos[POS_PHASE] = GROUP_ROLL

    def to_roll(self, pos: list[int]) -> list[tuple[Fraction, list[int]]] | None:
        """After the skill (and helper) is chosen: a chance node, or ``None`` after an immediate failure."""
        if self.dice(pos, pos[POS_SKILL], pos[POS_HELPER] >= 0) == 0:
            self.roll(pos, FAILED)
            return None
        pos[POS_PHASE] = SCENE_ROLL
        return None

    def roll(self, pos: list[int], result: int) -> None:
        pos[POS_RESULT] = result
        pos[self.pl(pos[POS_FOCUS], PL_BONUS)] = 0
        self.to_weave(pos)

    def to_weave(self, pos: list[int]) -> None:
        if pos[self.pl(pos[POS_FOCUS], PL_TOKENS)] > 0:
            pos[POS_PHASE] = SCENE_WEAVE
        else:
            self.finish_scene(pos, ("none",))

    def finish_scene(self, pos: list[int], weave: tuple[Any, ...]) -> None:
        p = pos[POS_FOCUS]
        if pos[POS_RESULT] == FAILED:
            avoided = weave[0] == "avoid"
            if not avoided:
                pos[self.sl(pos[POS_SKILL], SL_STATUS)] |= COMPLICATED
            if (pos[POS_HELPER] >= 0 and self.c[CFG_HELPER_SHARES]
                    and not (avoided and self.c[CFG_AVOID_HELPER])):
                pos[self.sl(pos[POS_HELPER_SKILL], SL_STATUS)] |= COMPLICATED
        if weave[0] != "none":
            pos[self.pl(p, PL_TOKENS)] -= 1
            if weave[0] == "give":
                pos[self.pl(weave[1], PL_BONUS)] += 1
            elif weave[0] == "repair":
                pos[self.sl(weave[1], SL_STATUS)] &= ~COMPLICATED
        index = (p - pos[POS_FIRST]) % self.k
        self.begin_scene(pos, index + 1)

    def take_card(self, pos: list[int], q: int, cat: int) -> None:
        """Player ``q`` plays a card of ``cat`` from hand."""
        pos[self.pl(q, PL_HAND_SIZE)] -= 1
        if pos[self.pl(q, PL_KNOWN)]:
            pos[self.pl(q, PL_HAND + cat)] -= 1
        else:
            pos[POS_POOL + cat] -= 1

    def draw_outcomes(self, pos: list[int]) -> list[tuple[Fraction, int]]:
        total = sum(pos[POS_POOL:POS_POOL + CATEGORIES])
        return [(Fraction(pos[POS_POOL + c], total), c) for c in range(CATEGORIES) if pos[POS_POOL + c] > 0]

    def group_result(self, pos: list[int]) -> list[tuple[Fraction, int]]:
        pools = []
        for q in range(self.k):
            slot = pos[self.pl(q, PL_GROUP_SLOT)]
            if slot >= 0:
                pools.append(self.dice(pos, slot, False))
        n, m = sum(pools), self.complications(pos)
        if n == 0 and m == 0:
            return [(Fraction(1), self.c[CFG_NOBODY])]
        victory = defeat = Fraction(0)
        for v in range(1, 7):
            hi, lo = Fraction(v, 6), Fraction(v - 1, 6)
            if n > 0:
                victory += (hi ** n - lo ** n) * lo ** m
            if m > 0:
                defeat += (hi ** m - lo ** m) * lo ** n
        out = [(victory, VICTORY), (defeat, DEFEAT), (1 - victory - defeat, DRAW)]
        return [(p, o) for p, o in out if p > 0]

    def canonical(self, pos: list[int]) -> None:
        """Forget what can no longer matter (exact: equal values before and after).

        Without repairs outside Victory a complicated skill only ever counts as
        an Adversary die (it cannot be used, and a Victory ends the plan). With
        no round left, a player whose last scene is over never weaves or plays a
        card again, and past the round nobody does; then a complicated skill
        can no longer be repaired either. With the continuation, hands and
        weavings still count while it may play a round.
        """
        phase = pos[POS_PHASE]
        if phase == OVER:
            return
        if not self.c[CFG_REPAIR]:
            self.forget_complicated(pos)
        if pos[POS_ROUNDS_LEFT] > 0:
            return
        keep_hands = self.tail_rounds(pos) > 0
        if phase < TABLE:
            if phase == SCENE_CARD:
                done = (pos[POS_FOCUS] - pos[POS_FIRST]) % self.k
                for index in range(done):
                    self.forget_cards(pos, self.order(pos, index), keep_hands)
            return
        for q in range(self.k):
            self.forget_cards(pos, q, keep_hands)
        self.forget_complicated(pos)

    def forget_cards(self, pos: list[int], q: int, keep_hand: bool = False) -> None:
        """Player ``q`` will not weave again, nor play a card (unless Into the Grey's Group Scenes take cards);
        nothing is forgotten while the continuation may play another round (``keep_hand``)."""
        if keep_hand:
            return
        at = self.pl(q, 0)
        pos[at + PL_TOKENS] = 0
        if self.c[CFG_GREY] and self.c[CFG_GREY_CARD]:
            return
        pos[at + PL_HAND_SIZE] = 0
        for c in range(CATEGORIES):
            pos[at + PL_HAND + c] = 0

    def forget_complicated(self, pos: list[int]) -> None:
        """A complicated skill that nobody can repair only counts as an Adversary die."""
        for i in range(self.s):
            if pos[self.sl(i, SL_STATUS)] & COMPLICATED:
                pos[self.sl(i, SL_SUIT)] = 0
                pos[self.sl(i, SL_STATUS)] = COMPLICATED

    def win(self, n: int, m: int) -> Fraction:
        """Victory chance of one Group Scene with ``n`` player dice against ``m``."""
        if n == 0 and m == 0:
            return Fraction(1 if self.c[CFG_NOBODY] == VICTORY else 0)
        return _beats(n, m)

    def best_dice(self, pos: list[int], q: int, cat: int) -> int:
        """Most dice player ``q`` can bring (``cat`` < 0: any available skill, Into the Grey)."""
        options = self.available(pos, q) if cat < 0 else self.matching(pos, q, cat)
        return max((self.dice(pos, i, False) for i in options), default=0)

    def lose(self, n: int, m: int) -> Fraction:
        """Defeat chance of one Group Scene with ``n`` player dice against ``m``."""
        if n == 0 and m == 0:
            return Fraction(1 if self.c[CFG_NOBODY] == DEFEAT else 0)
        return _beats(m, n)

    def injure(self, pos: list[int]) -> None:
        for q in range(self.k):
            used = pos[self.pl(q, PL_GROUP_SLOT)]
            if used < 0:
                continue
            suit = pos[self.sl(used, SL_SUIT)]
            for i in self.slots_of[q]:
                if not self.present(pos, i):
                    continue
                if i == used or (not self.c[CFG_INJURY_SKILL] and pos[self.sl(i, SL_SUIT)] == suit):
                    pos[self.sl(i, SL_STATUS)] |= INJURED
