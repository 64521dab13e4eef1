"""Pure-Python twin of ``src/mnemonic_plan.pyx``: the Mnemonic round planner, in exact fractions.

Same functions and signatures as the compiled kernel
(``solver.kernels.mnemonic_plan``). The twin computes with
:class:`fractions.Fraction` and returns exact values; the kernel computes the
same expectimax in IEEE doubles (tests: they agree to 1e-12).

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
and at its edge the **continuation estimate** (class ``_Tail``, MN-44 in
``docs/rules/mnemonic.md``): the session's remaining rounds
(``config[CFG_TAIL_ROUNDS]`` beyond the horizon, plus the horizon's unused
rounds) played by the base policy "face the Adversary after every round and
try again while allowed", each scene with the matching available skill with
the most dice, in a mean-field model (draws with replacement from the unseen
cards, each suit's best skill followed on its own). ``POS_ROUNDS_LEFT`` may be
-1: a round beyond the horizon has already started (it is estimated).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

# -- config indices ---------------------------------------------------------------------------
CFG_PLAYERS, CFG_SLOTS, CFG_GREY, CFG_JOKER_WILD, CFG_HELP_ONLY, CFG_HELP_DICE, CFG_HELPER_SHARES = range(7)
CFG_LEARN, CFG_LEARN_ONLY, CFG_WEAVINGS, CFG_REFRESH, CFG_AVOID_HELPER, CFG_REPAIR = range(7, 13)
CFG_INJURY_SKILL, CFG_INJURY_EFFECT, CFG_NOBODY, CFG_DRAW_AS_VICTORY, CFG_MAX_ATTEMPTS, CFG_ROTATE = range(13, 19)
CFG_NEEDS_COMPLICATION, CFG_GREY_CARD, CFG_DRAWS_FIRST, CFG_PASS = 19, 20, 21, 22
CFG_TAIL, CFG_TAIL_ROUNDS = 23, 24  # the continuation estimate on/off; session rounds beyond the horizon
CONFIG_LENGTH = 25
#: the continuation's Group Scenes between two rounds when Try Again has no cap (CFG_MAX_ATTEMPTS = 0)
TAIL_WINDOW = 3
#: the continuation stops once the chance that nothing has been won yet falls below this
TAIL_EPSILON = 1e-9
#: ``POW6[i][d] = (i / 6) ** d``: every base the continuation raises to a power is a sixth
POW6 = [[(i / 6.0) ** d for d in range(160)] for i in range(7)]
# continuation entry points: the rest of this round, a new round, a Group Scene now, after the last exact one
TAIL_REST, TAIL_ROUND, TAIL_FACE, TAIL_AFTER = range(4)
# continuation block states: usable, usable injured (one die fewer), complicated, injured and unusable
B_OK, B_INJ, B_CPL, B_GONE = range(4)
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


class _Abort(Exception):
    """Raised when the memo would exceed the state limit, the time runs out or ``stop[0]`` is set."""


class _Model:
    def __init__(self, config: Sequence[int], skills: Sequence[Sequence[int]], limit: int,
                 deadline: float = 0.0, stop: Any = None) -> None:
        self.deadline = deadline
        self.stop = stop
        self.estimates = 0
        self.c = [int(x) for x in config]
        self.k = self.c[CFG_PLAYERS]
        self.s = self.c[CFG_SLOTS]
        self.owner = [int(row[0]) for row in skills]
        self.rating = [int(row[1]) for row in skills]
        self.slots_of = [[i for i in range(self.s) if self.owner[i] == q] for q in range(self.k)]
        self.limit = limit
        self.visits = 0
        self.memo: dict[tuple[int, ...], Fraction] = {}

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

    # -- the recursion ---------------------------------------------------------------------------
    def value(self, key: tuple[int, ...]) -> Fraction:
        pos = list(key)
        phase = pos[POS_PHASE]
        tail = self.c[CFG_TAIL]
        beyond = pos[POS_GROUPS_LEFT] <= 0 or pos[POS_ROUNDS_LEFT] < 0  # past the horizon's edge
        if phase in (GROUP_DRAW, GROUP_SKILL, GROUP_ROLL):
            if pos[POS_GROUPS_LEFT] <= 0 or self.nothing_after(pos):
                return self.final_group(pos)
        elif beyond and not tail:
            return Fraction(0)  # no Group Scene left to win
        self.canonical(pos)
        key = tuple(pos)
        boundary = phase in MEMO_PHASES
        if boundary:
            hit = self.memo.get(key)
            if hit is not None:
                return hit
            if len(self.memo) >= self.limit:
                raise _Abort
        self.visits += 1
        if self.visits % 4096 == 0 and ((self.deadline and time.perf_counter() > self.deadline)
                                        or (self.stop is not None and self.stop[0])):
            raise _Abort
        if phase == OVER:
            result = Fraction(0)
        elif phase == SCENE_CARD and beyond:
            result = self.estimate(pos, TAIL_REST)
        elif phase in (SCENE_DRAW, SCENE_ROLL, GROUP_DRAW, GROUP_ROLL):
            result = sum((p * self.leaf(child) for p, child in self.chance(pos)), Fraction(0))
        else:
            result = max((self.leaf(child) for child in self.decisions(pos)), default=Fraction(0))
        if boundary:
            self.memo[key] = result
        return result

    def leaf(self, child: list[int] | float | None) -> Fraction:
        """``None`` stands for a Victory, a number for a value already estimated (beyond the horizon)."""
        if child is None:
            return Fraction(1)
        if isinstance(child, float):
            return child  # type: ignore[return-value]
        return self.value(tuple(child))

    def estimate(self, pos: list[int], mode: int, victory: Fraction = Fraction(0),
                 defeat: Fraction = Fraction(0)) -> Any:
        """The continuation estimate, a float like the kernel's (values that depend on it become floats too)."""
        self.estimates += 1
        return _Tail(self, pos).run(mode, float(victory), float(defeat))

    def chance(self, pos: list[int]) -> list[tuple[Fraction, list[int] | None]]:
        phase = pos[POS_PHASE]
        out: list[tuple[Fraction, list[int] | None]] = []
        if phase == SCENE_DRAW:
            for p, cat in self.draw_outcomes(pos):
                child = list(pos)
                child[POS_DECK] -= 1
                child[POS_POOL + cat] -= 1
                child[POS_CAT] = cat
                child[POS_PHASE] = SCENE_SKILL
                out.append((p, child))
        elif phase == SCENE_ROLL:
            n = self.dice(pos, pos[POS_SKILL], pos[POS_HELPER] >= 0)
            success = 1 - Fraction(5, 6) ** n
            for p, result in ((success, SUCCEEDED), (1 - success, FAILED)):
                if p > 0:
                    child = list(pos)
                    self.roll(child, result)
                    out.append((p, child))
        elif phase == GROUP_DRAW:
            q = self.drawer(pos)
            for p, cat in self.draw_outcomes(pos):
                child = list(pos)
                child[POS_DECK] -= 1
                child[POS_POOL + cat] -= 1
                child[self.pl(q, PL_GROUP_CAT)] = cat
                self.advance_group(child)
                out.append((p, child))
        else:  # GROUP_ROLL
            for p, outcome in self.group_result(pos):
                if outcome == VICTORY:
                    out.append((p, None))
                    continue
                child = list(pos)
                for q in range(self.k):
                    if child[self.pl(q, PL_GROUP_SLOT)] >= 0:
                        child[self.pl(q, PL_BONUS)] = 0
                if outcome == DEFEAT:
                    self.injure(child)
                    child[POS_PHASE] = AFTER_DEFEAT
                else:
                    child[POS_PHASE] = AFTER_VICTORY if self.c[CFG_DRAW_AS_VICTORY] else AFTER_DEFEAT
                for q in range(self.k):
                    child[self.pl(q, PL_GROUP_CAT)] = child[self.pl(q, PL_GROUP_SLOT)] = -1
                child[POS_TURN] = 0
                out.append((p, child))
        return out

    def win(self, n: int, m: int) -> Fraction:
        """Victory chance of one Group Scene with ``n`` player dice against ``m``."""
        if n == 0 and m == 0:
            return Fraction(1 if self.c[CFG_NOBODY] == VICTORY else 0)
        if m == 0:
            return Fraction(1)
        if n == 0:
            return Fraction(0)
        return sum(((Fraction(v, 6) ** n - Fraction(v - 1, 6) ** n) * Fraction(v - 1, 6) ** m
                    for v in range(1, 7)), Fraction(0))

    def best_dice(self, pos: list[int], q: int, cat: int) -> int:
        """Most dice player ``q`` can bring (``cat`` < 0: any available skill, Into the Grey)."""
        options = self.available(pos, q) if cat < 0 else self.matching(pos, q, cat)
        return max((self.dice(pos, i, False) for i in options), default=0)

    def lose(self, n: int, m: int) -> Fraction:
        """Defeat chance of one Group Scene with ``n`` player dice against ``m``."""
        if n == 0 and m == 0:
            return Fraction(1 if self.c[CFG_NOBODY] == DEFEAT else 0)
        if m == 0:
            return Fraction(0)
        if n == 0:
            return Fraction(1)
        return sum(((Fraction(v, 6) ** m - Fraction(v - 1, 6) ** m) * Fraction(v - 1, 6) ** n
                    for v in range(1, 7)), Fraction(0))

    def final_group(self, pos: list[int]) -> Fraction:
        """The horizon's last Group Scene: its Victory chance, plus (with the continuation) the estimate of the
        rest of the session after it (MN-34, MN-44).

        Victory's chance grows with the players' dice, so each player still to
        choose brings their most dice, whatever the others drew; the value is
        the Victory chance summed over the draws still to come (exact when
        nothing can follow; with the continuation, the rule of the horizon's
        last Group Scene).
        """
        # exact fractions make this the twin's slow step: the deadline is checked on every one
        if self.deadline and time.perf_counter() > self.deadline:
            raise _Abort
        m = self.complications(pos)
        turn = pos[POS_TURN]
        fixed = 0
        for index in range(turn):
            slot = pos[self.pl(self.order(pos, index), PL_GROUP_SLOT)]
            if slot >= 0:
                fixed += self.dice(pos, slot, False)
        pool = list(pos[POS_POOL:POS_POOL + CATEGORIES])
        Pair = tuple[Fraction, Fraction]

        def walk(index: int, n: int) -> Pair:
            if index == self.k:
                return self.win(n, m), self.lose(n, m)
            q = self.order(pos, index)
            if self.c[CFG_GREY]:
                if not self.c[CFG_GREY_CARD]:
                    return walk(index + 1, n + self.best_dice(pos, q, -1))
                # the card of the best skill's suit; an open hand may take any category the pool still holds
                options = [c for c in range(CATEGORIES) if self.matching(pos, q, c) and (
                    pos[self.pl(q, PL_HAND + c)] > 0 if pos[self.pl(q, PL_KNOWN)] else
                    pos[self.pl(q, PL_HAND_SIZE)] > 0 and pool[c] > 0)]
                if not options:
                    return walk(index + 1, n)
                if pos[self.pl(q, PL_KNOWN)]:
                    return walk(index + 1, n + max(self.best_dice(pos, q, c) for c in options))
                best: Pair | None = None
                for c in options:  # the first option with the highest Victory chance
                    pool[c] -= 1
                    v = walk(index + 1, n + self.best_dice(pos, q, c))
                    pool[c] += 1
                    if best is None or v[0] > best[0]:
                        best = v
                assert best is not None
                return best
            cat = pos[self.pl(q, PL_GROUP_CAT)]
            if cat >= 0:
                return walk(index + 1, n + self.best_dice(pos, q, cat))
            total = sum(pool)
            win = lose = Fraction(0)
            for c in range(CATEGORIES):
                if pool[c] > 0:
                    share = Fraction(pool[c], total)
                    pool[c] -= 1
                    w, d = walk(index + 1, n + self.best_dice(pos, q, c))
                    win += share * w
                    lose += share * d
                    pool[c] += 1
            return win, lose

        victory, defeat = walk(turn, fixed)
        if not self.c[CFG_TAIL] or victory == 1:
            return victory
        return victory + (1 - victory) * self.estimate(pos, TAIL_AFTER, victory, defeat)

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

    def decisions(self, pos: list[int]) -> list[list[int] | float | None]:
        phase = pos[POS_PHASE]
        out: list[list[int] | float | None] = []
        p = pos[POS_FOCUS]
        if phase == SCENE_CARD:
            known = pos[self.pl(p, PL_KNOWN)]
            for cat in range(CATEGORIES):
                has = pos[self.pl(p, PL_HAND + cat)] > 0 if known else (
                    pos[self.pl(p, PL_HAND_SIZE)] > 0 and pos[POS_POOL + cat] > 0)
                if has:
                    child = list(pos)
                    self.take_card(child, p, cat)
                    child[POS_CAT] = cat
                    child[POS_PHASE] = SCENE_SKILL
                    out.append(child)
            if pos[POS_DECK] > 0:
                child = list(pos)
                child[POS_PHASE] = SCENE_DRAW
                out.append(child)
        elif phase == SCENE_SKILL:
            out = self.skill_choices(pos)
        elif phase == SCENE_HELP:
            for t in self.available(pos, pos[POS_HELPER]):
                child = list(pos)
                child[POS_HELPER_SKILL] = t
                self.to_roll(child)
                out.append(child)
        elif phase == SCENE_WEAVE:
            weaves: list[tuple[Any, ...]] = [("none",)] + [("give", q) for q in range(self.k) if q != p]
            if pos[POS_RESULT] == FAILED:
                weaves.append(("avoid",))
            if self.c[CFG_REPAIR]:
                weaves += [("repair", i) for i in self.slots_of[p] if pos[self.sl(i, SL_STATUS)] & COMPLICATED]
            for weave in weaves:
                child = list(pos)
                self.finish_scene(child, weave)
                out.append(child)
        elif phase == GROUP_SKILL:
            q = self.order(pos, pos[POS_TURN])
            if self.c[CFG_GREY] and self.c[CFG_GREY_CARD]:
                choices = [(cat, i) for cat in range(CATEGORIES) if self.holds(pos, q, cat)
                           for i in self.matching(pos, q, cat)]
            else:
                choices = [(-1, i) for i in self.group_options(pos, q)]
            for cat, i in choices:
                child = list(pos)
                if cat >= 0:  # Into the Grey: the card of the skill's suit is discarded
                    self.take_card(child, q, cat)
                    child[self.pl(q, PL_GROUP_CAT)] = cat
                child[self.pl(q, PL_GROUP_SLOT)] = i
                child[POS_TURN] += 1
                self.advance_group(child)
                out.append(child)
        else:  # TABLE, AFTER_VICTORY, AFTER_DEFEAT: ending is always possible and worth 0 (the default)
            can_group = self.group_allowed(pos) and (
                phase == TABLE or (phase == AFTER_DEFEAT and self.try_again(pos)))
            if can_group:
                if pos[POS_GROUPS_LEFT] > 0:
                    child = list(pos)
                    self.start_group(child)
                    out.append(child)
                elif self.c[CFG_TAIL]:
                    out.append(self.estimate(pos, TAIL_FACE))
            if self.round_allowed(pos):
                if pos[POS_ROUNDS_LEFT] > 0:
                    child = list(pos)
                    self.start_round(child)
                    out.append(child)
                elif self.tail_rounds(pos) > 0:
                    out.append(self.estimate(pos, TAIL_ROUND))
        return out

    def skill_choices(self, pos: list[int]) -> list[list[int] | None]:
        p, cat = pos[POS_FOCUS], pos[POS_CAT]
        out: list[list[int] | None] = []
        matching = self.matching(pos, p, cat)
        for i in matching:
            child = list(pos)
            child[POS_SKILL] = i
            self.to_roll(child)
            out.append(child)
        free = [i for i in self.slots_of[p] if not self.present(pos, i)]
        if self.c[CFG_LEARN] and free and not (self.c[CFG_LEARN_ONLY] and matching):
            suits = [cat] if cat != JOKER else (list(range(4)) if self.c[CFG_JOKER_WILD] else [])
            for suit in suits:
                child = list(pos)
                child[self.sl(free[0], SL_SUIT)] = suit
                child[self.sl(free[0], SL_STATUS)] = 0
                child[POS_SKILL] = free[0]
                self.to_roll(child)
                out.append(child)
        if not (self.c[CFG_HELP_ONLY] and matching):
            mine = self.available(pos, p)
            for q in range(self.k):
                if q == p or not self.available(pos, q):
                    continue
                for i in mine:
                    child = list(pos)
                    child[POS_SKILL], child[POS_HELPER] = i, q
                    child[POS_PHASE] = SCENE_HELP
                    out.append(child)
        if not out or (not matching and self.c[CFG_PASS]):
            child = list(pos)
            child[POS_RESULT] = PASSED
            self.to_weave(child)
            out.append(child)
        return out


class _Tail:
    """The continuation estimate (MN-44): the rest of the session under the base policy, in a mean-field model.

    The base policy faces the Adversary after every round and tries again while allowed (at most
    ``TAIL_WINDOW`` Group Scenes between two rounds when Try Again has no cap), then plays another round while
    the session has rounds left and the cards allow. Each scene is played with the matching available skill with
    the most dice (no help, learning, weaving or extra dice; no match: no roll). In the model a draw takes a
    category with the unseen cards' shares, with replacement; a card from a hand known to the planner with that
    hand's shares. A player with a weaving left avoids the complication of a failed roll (weavings refreshed
    each round under ``weaving.refresh = round``). Each player's suits are followed on their own: for every suit, the best available skill is a
    *block* in one of four states (usable, usable with one die fewer, complicated, injured and unusable) with
    probabilities updated scene by scene (extra dice a player holds are spent on their next roll); a Group
    Scene's odds are exact for independent blocks:
    ``P(Victory) = sum_v b_v^m0 (prod_q E_q[a_v^d b_v^f] - prod_q E_q[b_v^d b_v^f])`` with ``a_v = v/6``,
    ``b_v = (v-1)/6``, ``d`` the dice a player brings and ``f`` their new complications. Between two rounds the
    Group Scenes are followed exactly by the number of Defeats so far (a Defeat injures the skills brought, for
    everyone at once; a Draw changes nothing); at the next round the branches are mixed. Computed in floats,
    like the kernel (``src/mnemonic_plan.pyx``, ``estimate``).
    """

    def __init__(self, model: _Model, pos: list[int]) -> None:
        m, c = model, model.c
        self.model, self.pos, self.k = m, pos, m.k
        self.burner = not c[CFG_GREY]
        self.grey_card = bool(c[CFG_GREY] and c[CFG_GREY_CARD])
        self.wild = bool(c[CFG_JOKER_WILD])
        self.effect = c[CFG_INJURY_EFFECT]
        self.deck = pos[POS_DECK]
        self.hand = [pos[m.pl(q, PL_HAND_SIZE)] for q in range(self.k)]
        pool = pos[POS_POOL:POS_POOL + CATEGORIES]
        total = sum(pool)
        self.share = [pool[x] / total if total > 0 else 0.0 for x in range(CATEGORIES)]
        self.scene_share: list[list[float]] = []
        for q in range(self.k):
            size = pos[m.pl(q, PL_HAND_SIZE)]
            if pos[m.pl(q, PL_KNOWN)] and size > 0:
                self.scene_share.append([pos[m.pl(q, PL_HAND + x)] / size for x in range(CATEGORIES)])
            else:
                self.scene_share.append(list(self.share))
        self.dice_ok = [[0] * 4 for _ in range(self.k)]
        self.dice_inj = [[0] * 4 for _ in range(self.k)]
        self.p = [[[0.0, 0.0, 0.0, 1.0] for _ in range(4)] for _ in range(self.k)]
        self.order: list[list[int]] = []
        for q in range(self.k):
            for suit in range(4):
                best, best_slot = -1, -1
                for i in m.slots_of[q]:
                    if m.usable(pos, i) and pos[m.sl(i, SL_SUIT)] == suit:
                        d = self.current_dice(i)
                        if d > best:
                            best, best_slot = d, i
                if best_slot >= 0:
                    rating = m.rating[best_slot]
                    self.dice_ok[q][suit] = rating
                    self.dice_inj[q][suit] = max(0, rating - 1) if self.effect == MINUS_ONE else rating
                    injured = pos[m.sl(best_slot, SL_STATUS)] & INJURED and self.effect == MINUS_ONE
                    self.p[q][suit] = [0.0, 1.0, 0.0, 0.0] if injured else [1.0, 0.0, 0.0, 0.0]
            self.order.append(sorted(range(4), key=lambda t, q=q: (-self.dice_ok[q][t], t)))
        self.tokens = [[1.0 if w == pos[m.pl(q, PL_TOKENS)] else 0.0 for w in range(4)] for q in range(self.k)]
        self.bonus = [pos[m.pl(q, PL_BONUS)] for q in range(self.k)]  # spent on the player's next roll
        self.m0 = m.complications(pos)
        self.cap = c[CFG_MAX_ATTEMPTS] if m.capped() else TAIL_WINDOW
        self.open = 1.0  # chance of no Victory yet, Group Scenes still allowed before the next round
        self.closed = 0.0  # chance of no Victory yet, the next Group Scene only after a round
        self.total = 0.0

    def current_dice(self, i: int) -> int:
        m = self.model
        n = m.rating[i]
        if self.pos[m.sl(i, SL_STATUS)] & INJURED and self.effect == MINUS_ONE:
            n -= 1
        return max(0, n)

    # -- one player's generating function ---------------------------------------------------------
    def usable(self, q: int, t: int) -> float:
        return self.p[q][t][B_OK] + self.p[q][t][B_INJ]

    def idle(self, q: int, t: int, y: float) -> float:
        """A block that is not brought: it counts only through its complication."""
        pr = self.p[q][t]
        return pr[B_OK] + pr[B_INJ] + pr[B_CPL] * y + pr[B_GONE]

    def used(self, q: int, t: int, x: int, y: float) -> float:
        """A block brought when usable (``x``: the base in sixths)."""
        pr = self.p[q][t]
        extra = self.bonus[q]
        return (pr[B_OK] * POW6[x][self.dice_ok[q][t] + extra] + pr[B_INJ] * POW6[x][self.dice_inj[q][t] + extra]
                + pr[B_CPL] * y + pr[B_GONE])

    def best_of(self, q: int, held: list[bool], x: int, y: float, idle: list[float]) -> float:
        """The best usable block among the ``held`` suits is brought; the others count as idle."""
        total = 0.0
        before = 1.0
        rank = self.order[q]
        for j in range(4):
            t = rank[j]
            if not held[t]:
                continue
            pr = self.p[q][t]
            after = 1.0
            for j2 in range(j + 1, 4):
                if held[rank[j2]]:
                    after *= idle[rank[j2]]
            total += (pr[B_OK] * POW6[x][self.dice_ok[q][t] + self.bonus[q]]
                      + pr[B_INJ] * POW6[x][self.dice_inj[q][t] + self.bonus[q]]) * before * after
            before *= pr[B_CPL] * y + pr[B_GONE]
        total += before
        for t in range(4):
            if not held[t]:
                total *= idle[t]
        return total

    def held(self, q: int) -> list[bool]:
        """Into the Grey: the suits ``q`` can pay a Group Scene for (every suit without group cards)."""
        if not self.grey_card:
            return [True] * 4
        share = self.scene_share[q]
        if self.wild and share[JOKER] > 0:
            return [True] * 4
        return [share[t] > 0 for t in range(4)]

    def expect(self, q: int, x: int, yi: int) -> float:
        """``E_q[(x/6)^d (yi/6)^f]`` at a Group Scene (``d`` dice brought, ``f`` new complications)."""
        y = yi / 6.0
        idle = self.idle_table[q][yi]
        if self.grey_card and self.hand[q] == 0:
            return idle[0] * idle[1] * idle[2] * idle[3]
        if not self.burner:
            return self.best_of(q, self.held(q), x, y, idle)
        total = 0.0
        for cat in range(CATEGORIES):
            if self.share[cat] <= 0:
                continue
            if cat < 4:
                term = self.used(q, cat, x, y)
                for t in range(4):
                    if t != cat:
                        term *= idle[t]
            elif self.wild:
                term = self.best_of(q, [True] * 4, x, y, idle)
            else:
                term = idle[0] * idle[1] * idle[2] * idle[3]
            total += self.share[cat] * term
        return total

    def product(self, x: int, y: int) -> float:
        """``prod_q E_q[(x/6)^d (y/6)^f]``."""
        out = 1.0
        for q in range(self.k):
            out *= self.expect(q, x, y)
        return out

    # -- the steps ---------------------------------------------------------------------------------
    def attempt(self) -> tuple[float, float, float]:
        """(Victory, Defeat, no Group Scene possible) of one Group Scene."""
        c = self.model.c
        self.idle_table = [[[self.idle(q, t, yi / 6.0) for t in range(4)] for yi in range(7)] for q in range(self.k)]
        win = lose = 0.0
        for v in range(1, 7):  # the highest roll is v: a_v = v/6, b_v = (v-1)/6
            both = self.product(v - 1, v - 1)
            if self.m0 == 0 or v > 1:
                win += POW6[v - 1][self.m0] * (self.product(v, v - 1) - both)
            lose += POW6[v][self.m0] * self.product(v - 1, v) - POW6[v - 1][self.m0] * both
        blocked = 0.0
        if self.m0 == 0:
            nobody = self.product(0, 0)
            if c[CFG_NEEDS_COMPLICATION]:
                blocked = self.product(6, 0)
                win -= blocked - nobody
            elif c[CFG_NOBODY] == VICTORY:
                win += nobody
            elif c[CFG_NOBODY] == DEFEAT:
                lose += nobody
        return win, lose, blocked

    def brought(self, q: int, share: list[float]) -> list[float]:
        """Chance that each block of ``q`` is brought to a Group Scene when usable."""
        out = [0.0] * 4
        if self.grey_card and self.hand[q] == 0:
            return out
        if not self.burner:
            held = self.held(q)
            unused = 1.0
            for t in self.order[q]:
                if held[t]:
                    out[t] = unused
                    unused *= 1.0 - self.usable(q, t)
            return out
        unused = 1.0
        for t in self.order[q]:
            out[t] = share[t] + (share[JOKER] * unused if self.wild else 0.0)
            unused *= 1.0 - self.usable(q, t)
        return out

    def injure(self, chance: float, brought: list[list[float]]) -> None:
        """Each block brought is injured with ``chance`` (MN-26, MN-29)."""
        if self.effect == NO_EFFECT:
            return
        target = B_GONE if self.effect == UNUSABLE else B_INJ
        for q in range(self.k):
            for t in range(4):
                moved = chance * brought[q][t] * self.p[q][t][B_OK]
                self.p[q][t][B_OK] -= moved
                self.p[q][t][target] += moved

    def spend_group_cards(self) -> None:
        if self.burner:
            self.deck -= self.k
        elif self.grey_card:
            for q in range(self.k):
                if self.hand[q] > 0:
                    self.hand[q] -= 1

    def injured_copy(self, brought: list[list[float]]) -> list[list[list[float]]]:
        """The blocks after a Defeat: every block brought is injured (the current blocks are kept)."""
        saved = self.p
        self.p = [[list(block) for block in player] for player in saved]
        self.injure(1.0, brought)
        injured, self.p = self.p, saved
        return injured

    def window(self, attempts: int, states: list[Any] | None = None, open_w: list[float] | None = None,
               closed_w: list[float] | None = None) -> None:
        """Group Scenes, one after another while allowed.

        A Draw changes no skill, a Defeat injures the skills brought, for every player at once: within the window
        the blocks are followed exactly by the number of Defeats so far (``states[d]``, with the chance of still
        being allowed to try, ``open_w[d]``, or of waiting for the next round, ``closed_w[d]``); at the window's
        end the branches are mixed again.
        """
        c = self.model.c
        if states is None or open_w is None or closed_w is None:
            states, open_w, closed_w = [self.p], [self.open], [self.closed]
        cached: dict[int, tuple[float, float, float]] = {}
        for _ in range(attempts):
            if sum(open_w) < TAIL_EPSILON or (self.burner and self.deck < self.k):
                break
            extra = any(self.bonus)
            for d in range(len(states) - 1, -1, -1):
                if open_w[d] <= 0.0:
                    continue
                self.p = states[d]
                if extra or d not in cached:
                    outcome = self.attempt()
                    if not extra:
                        cached[d] = outcome
                else:
                    outcome = cached[d]
                win, lose, blocked = outcome
                draw = 1.0 - win - lose - blocked
                if d + 1 == len(states):
                    states.append(self.injured_copy([self.brought(q, self.share) for q in range(self.k)]))
                    open_w.append(0.0)
                    closed_w.append(0.0)
                mass = open_w[d]
                self.total += mass * win
                closed_w[d] += mass * (blocked + (draw if c[CFG_DRAW_AS_VICTORY] else 0.0))
                open_w[d] = mass * (0.0 if c[CFG_DRAW_AS_VICTORY] else draw)
                open_w[d + 1] += mass * lose
            self.spend_group_cards()
            self.bonus = [0] * self.k
        self.merge(states, open_w, closed_w)

    def merge(self, states: list[Any], open_w: list[float], closed_w: list[float]) -> None:
        """The window's branches mixed into one set of blocks (weighted by their chance)."""
        self.open = sum(open_w)
        self.closed = sum(closed_w)
        weight = self.open + self.closed
        if weight <= 0.0:
            self.p = states[0]
            return
        mixed = [[[0.0] * 4 for _ in range(4)] for _ in range(self.k)]
        for d in range(len(states)):
            share = (open_w[d] + closed_w[d]) / weight
            for q in range(self.k):
                for t in range(4):
                    for x in range(4):
                        mixed[q][t][x] += share * states[d][q][t][x]
        self.p = mixed

    def scene(self, q: int) -> None:
        """One Individual Scene of ``q``: the matching block with the most dice is rolled; a failure complicates it."""
        if self.hand[q] > 0:
            share = self.scene_share[q]
            self.hand[q] -= 1
        elif self.deck > 0:
            share = self.share
            self.deck -= 1
        else:
            return
        unused = 1.0
        hits = [0.0] * 4
        for t in self.order[q]:
            hits[t] = share[t] + (share[JOKER] * unused if self.wild else 0.0)
            unused *= 1.0 - self.usable(q, t)
        keep = self.tokens[q][0]  # no weaving left: a failure complicates the skill
        failed = 0.0
        for t in range(4):
            pr = self.p[q][t]
            fail_ok = hits[t] * pr[B_OK] * POW6[5][self.dice_ok[q][t] + self.bonus[q]]
            fail_inj = hits[t] * pr[B_INJ] * POW6[5][self.dice_inj[q][t] + self.bonus[q]]
            failed += fail_ok + fail_inj
            pr[B_CPL] += (fail_ok + fail_inj) * keep
            pr[B_OK] -= fail_ok * keep
            pr[B_INJ] -= fail_inj * keep
        self.bonus[q] = 0
        tokens = self.tokens[q]  # a weaving avoids the failure's complication
        tokens[0] += tokens[1] * failed
        for w in range(1, 3):
            tokens[w] = tokens[w] * (1.0 - failed) + tokens[w + 1] * failed
        tokens[3] *= 1.0 - failed

    def play_round(self, first_index: int, new: bool = True) -> None:
        """The round's scenes from ``first_index`` on (a ``new`` round first refreshes the weavings if the rules
        say so)."""
        if new and self.model.c[CFG_REFRESH] == REFRESH_ROUND:
            w = self.model.c[CFG_WEAVINGS]
            self.tokens = [[1.0 if x == w else 0.0 for x in range(4)] for _ in range(self.k)]
        for index in range(first_index, self.k):
            self.scene(self.model.order(self.pos, index))

    def round_allowed(self) -> bool:
        return sum(1 for q in range(self.k) if self.hand[q] == 0) <= self.deck

    def run(self, mode: int, victory: float, defeat: float) -> float:
        """The estimate from ``self.pos``: ``mode`` says where the session stands (``TAIL_*``); after the last
        exact Group Scene (``TAIL_AFTER``) its Victory and Defeat chances are given and the estimate is the
        chance of a later Victory, given that one did not win."""
        m, pos = self.model, self.pos
        rounds = m.tail_rounds(pos)
        if mode == TAIL_REST:
            self.play_round((pos[POS_FOCUS] - pos[POS_FIRST]) % self.k, new=False)
            self.window(self.cap)
        elif mode == TAIL_ROUND:
            rounds -= 1
            self.play_round(0)
            self.window(self.cap)
        elif mode == TAIL_FACE:
            self.window(self.cap - pos[POS_ATTEMPTS] if m.capped() else self.cap)
        else:
            states, open_w, closed_w = self.after_last_group(victory, defeat)
            self.window(self.cap - pos[POS_ATTEMPTS] if m.capped() else self.cap - 1, states, open_w, closed_w)
        while rounds > 0 and self.open + self.closed >= TAIL_EPSILON and self.round_allowed():
            rounds -= 1
            self.open += self.closed
            self.closed = 0.0
            self.play_round(0)
            self.window(self.cap)
        return self.total

    def after_last_group(self, victory: float, defeat: float) -> tuple[list[Any], list[float], list[float]]:
        """The window's branches after the horizon's last Group Scene, given no Victory: a Draw (the blocks as
        they are) or a Defeat (the blocks brought injured), with their chances; its remaining cards spent."""
        m, pos = self.model, self.pos
        brought = [[0.0] * 4 for _ in range(self.k)]
        for index in range(self.k):
            q = m.order(pos, index)
            if index < pos[POS_TURN]:
                slot = pos[m.pl(q, PL_GROUP_SLOT)]
                if slot >= 0:
                    brought[q][pos[m.sl(slot, SL_SUIT)]] = 1.0
                continue
            share = self.share
            cat = pos[m.pl(q, PL_GROUP_CAT)]
            if self.burner and cat >= 0:
                share = [1.0 if x == cat else 0.0 for x in range(CATEGORIES)]
            brought[q] = self.brought(q, share)
            if self.grey_card and self.hand[q] > 0:
                self.hand[q] -= 1
        self.bonus = [0] * self.k
        lost = 1.0 - victory
        draw = (lost - defeat) / lost
        states = [self.p, self.injured_copy(brought)]
        if m.c[CFG_DRAW_AS_VICTORY]:
            return states, [0.0, defeat / lost], [draw, 0.0]
        return states, [draw, defeat / lost], [0.0, 0.0]


def plan_values(config: Sequence[int], skills: Sequence[Sequence[int]], positions: Sequence[Sequence[int]],
                limit: int, seconds: float, stop: Any = None) -> tuple[list[Fraction], int, bool, int]:
    """Values of every position row: exact fractions with ``CFG_TAIL`` = 0 (the chance of a Victory within the
    horizon), else the estimated chance of a Victory in the rest of the session (exact within the horizon; a value
    that depends on the estimate is a float).

    ``limit`` caps the memoised states, ``seconds`` the time (0: no time limit) and ``stop`` (an array of one
    integer, or None) lets another thread stop the search by setting ``stop[0]``. Returns ``(values, states,
    complete, estimates)``.
    """
    model = _Model(config, skills, limit, time.perf_counter() + seconds if seconds > 0 else 0.0, stop)
    try:
        values = [model.value(tuple(int(x) for x in row)) for row in positions]
    except _Abort:
        return [Fraction(0)] * len(positions), len(model.memo), False, model.estimates
    return values, len(model.memo), True, model.estimates
