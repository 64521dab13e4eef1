"""Pure-Python twin of ``src/mnemonic_plan.pxi``: the Mnemonic round planner's search, in exact fractions.

Same functions and signatures as the compiled kernel (``solver.kernels.mnemonic``): expectimax with
memoisation over the planning model of :mod:`solver.twins.mnemonic_model` (whose docstring describes the model,
the arrays and the continuation), with the continuation estimate of :mod:`solver.twins.mnemonic_estimate` at the
horizon's edge. The twin computes with :class:`fractions.Fraction` and returns exact values; the kernel computes
the same expectimax in IEEE doubles (tests: they agree to 1e-12).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from solver.twins.mnemonic_estimate import Tail
from solver.twins.mnemonic_model import *  # noqa: F403 (the model's names, as the kernel's ``cimport *``)


class _Abort(Exception):
    """Raised when the memo would exceed the state limit, the time runs out or ``stop[0]`` is set."""


class _Search(Model):
    """The expectimax over the model, memoised where paths meet again."""

    def __init__(self, config: Sequence[int], skills: Sequence[Sequence[int]], limit: int,
                 deadline: float = 0.0, stop: Any = None) -> None:
        super().__init__(config, skills)
        self.deadline = deadline
        self.stop = stop
        self.estimates = 0
        self.limit = limit
        self.visits = 0
        self.memo: dict[tuple[int, ...], Fraction] = {}

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
        return Tail(self, pos).run(mode, float(victory), float(defeat))

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


def plan_values(config: Sequence[int], skills: Sequence[Sequence[int]], positions: Sequence[Sequence[int]],
                limit: int, seconds: float, stop: Any = None) -> tuple[list[Fraction], int, bool, int]:
    """Values of every position row: exact fractions with ``CFG_TAIL`` = 0 (the chance of a Victory within the
    horizon), else the estimated chance of a Victory in the rest of the session (exact within the horizon; a value
    that depends on the estimate is a float).

    ``limit`` caps the memoised states, ``seconds`` the time (0: no time limit) and ``stop`` (an array of one
    integer, or None) lets another thread stop the search by setting ``stop[0]``. Returns ``(values, states,
    complete, estimates)``.
    """
    model = _Search(config, skills, limit, time.perf_counter() + seconds if seconds > 0 else 0.0, stop)
    try:
        values = [model.value(tuple(int(x) for x in row)) for row in positions]
    except _Abort:
        return [Fraction(0)] * len(positions), len(model.memo), False, model.estimates
    return values, len(model.memo), True, model.estimates
