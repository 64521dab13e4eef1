"""Exact solutions of Forgotten on small boards: expectimax over what the players know.

The solver works on :class:`~solver.forgotten.knowledge.Info` (the players' knowledge, FG-13) with the
epistemic chance model of :mod:`solver.forgotten.knowledge`. A turn is a first flip, a chance node for
what an unseen tile shows, a second flip, another chance node, and (when due) the Erasure roll. Values
are win probabilities; the value of a position of the real game is the solver's value divided by the
probability that the game is still alive (:func:`~solver.forgotten.knowledge.alive_probability`).

Equivalent knowledge states share one memo entry (:meth:`Model.canonical`): known pairs are renamed,
the board's symmetries that keep the Brains in place are factored out, and cells that cannot lie on
any route are reduced to counts.

The maximisation skips moves that are never better than another one (docs/rules/forgotten.md,
"Exact solver"): turns that learn nothing and match nothing (they only invite an Erasure roll), a seen
tile as first flip unless its partner is known (then the second flip matches), and, after the first
flip, a seen non-matching tile as second flip while an unseen one is left. Matching a known pair that
touches no route is such a pass too. The test-suite cross-checks these reductions against a
brute-force search over every arrangement of the tiles.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from solver.forgotten.knowledge import UNK, Info, Model, mate_of

Policy = Callable[[Info, int, bool], int]


class SearchStopped(Exception):
    """The node or time limit was reached before the search finished."""


def _cells(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def over_first_flip(model: Model, info: Info, first: int, then: Callable[[Info], float]) -> float:
    """The mean of ``then`` over what flipping ``first`` may show, weighted by its chance (``then(info)`` when
    ``first`` is known already)."""
    if info.codes[first] != UNK:
        return then(info)
    outcomes = model.reveal(info, first)
    total = sum(w for w, _, _ in outcomes)
    return sum(w * then(after) for w, after, _ in outcomes) / total


@dataclass
class ExactSolver:
    """Optimal win probabilities (``value``) and, for a given policy, its exact win probability (``evaluate``)."""

    model: Model
    should_stop: Callable[[int], bool] | None = None
    start_memo: dict = field(default_factory=dict)
    pre_memo: dict = field(default_factory=dict)
    nodes: int = 0

    # -- the optimal values -----------------------------------------------------------------------------
    def value(self, info: Info, erase_next: bool) -> float:
        """Optimal win probability at the start of a turn (``erase_next``: a roll follows this turn)."""
        key = (self.model.canonical(info), erase_next)
        cached = self.start_memo.get(key)
        if cached is not None:
            return cached
        self._tick()
        best = 0.0
        if self.model.hopeful(info):
            for first in self.first_moves(info):
                best = max(best, self.q_first(info, first, erase_next))
                if best >= 1.0:
                    break
        self.start_memo[key] = best
        return best

    def before_roll(self, info: Info) -> float:
        """Optimal win probability just before an Erasure roll."""
        key = self.model.canonical(info)
        cached = self.pre_memo.get(key)
        if cached is not None:
            return cached
        self._tick()
        flag = self.model.next_flag(True)
        total = 0.0
        same = 0
        for cell in range(self.model.cells):
            after = self.model.erase(info, cell)
            if after is info:
                same += 1
            else:
                total += self.value(after, flag)
        if same:
            total += same * self.value(info, flag)
        result = total / self.model.cells
        self.pre_memo[key] = result
        return result

    def after_turn(self, info: Info, matched: bool, erase_next: bool) -> float:
        """Win probability once the second flip is done."""
        if matched and self.model.won(info):
            return 1.0
        if erase_next:
            return self.before_roll(info)
        return self.value(info, self.model.next_flag(erase_next))

    def q_first(self, info: Info, first: int, erase_next: bool) -> float:
        """Win probability of flipping ``first`` now, playing the second flip optimally."""
        return over_first_flip(self.model, info, first, lambda seen: self.after_first(seen, first, erase_next))

    def after_first(self, info: Info, first: int, erase_next: bool) -> float:
        """Optimal win probability once the first flip is seen."""
        best = 0.0
        for second in self.second_moves(info, first):
            best = max(best, self.q_second(info, first, second, erase_next))
            if best >= 1.0:
                break
        return best

    def q_second(self, info: Info, first: int, second: int, erase_next: bool) -> float:
        """Win probability of flipping ``second`` after ``first``."""
        outcomes = self.model.second_flip(info, first, second)
        total = sum(w for w, _, _ in outcomes)
        return sum(w * self.after_turn(after, matched, erase_next) for w, after, matched in outcomes) / total

    # -- the moves worth trying ---------------------------------------------------------------------------
    def first_moves(self, info: Info) -> list[int]:
        """Unseen tiles (one stands for all that lie on no route) and one tile of each known pair on a route.
        Under the clear goal places do not matter: one unseen tile and one known pair stand for all."""
        up, unk, pairs, singles, dead = info.masks()
        clear = self.model.goal == "clear"
        rel = self.model.route_cells(info)
        moves = _cells(unk & rel)
        loose = unk & ~rel
        if loose:
            moves.append(_cells(loose)[0])
        for c in _cells(pairs):
            mate = mate_of(info, c)
            if c < mate and (clear or rel >> c & 1 or rel >> mate & 1):
                moves.append(c)
                if clear:
                    break
        return moves

    def second_moves(self, info: Info, first: int) -> list[int]:
        """The known partner, unseen tiles (one for all off every route), or one pass flip if nothing else."""
        up, unk, pairs, singles, dead = info.masks()
        unk &= ~(1 << first)
        rel = self.model.route_cells(info)
        moves = []
        mate = mate_of(info, first)
        if mate >= 0:
            moves.append(mate)
        moves += _cells(unk & rel)
        loose = unk & ~rel
        if loose:
            moves.append(_cells(loose)[0])
        if not moves:
            others = info.down() & ~(1 << first)
            if others:
                moves.append(_cells(others)[0])
        return moves

    def _tick(self) -> None:
        self.nodes += 1
        if self.should_stop is not None and self.nodes % 256 == 0 and self.should_stop(self.nodes):
            raise SearchStopped()


@dataclass
class PolicyEvaluator:
    """The exact win probability of a policy that reads only the players' knowledge.

    ``policy(info, first, erase_next)`` returns the cell to flip (``first`` is -1 for a first flip;
    ``erase_next``: an Erasure roll follows this turn). Memoised on the exact knowledge (no symmetry: a
    policy may break ties by position).
    """

    model: Model
    policy: Policy
    should_stop: Callable[[int], bool] | None = None
    memo: dict = field(default_factory=dict)
    nodes: int = 0

    def value(self, info: Info, erase_next: bool) -> float:
        """Win probability of the policy at the start of a turn."""
        key = (info, erase_next)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        self.nodes += 1
        if self.should_stop is not None and self.nodes % 256 == 0 and self.should_stop(self.nodes):
            raise SearchStopped()
        result = 0.0
        if self.model.hopeful(info) and len(_cells(info.down())) >= 2:
            first = self.policy(info, -1, erase_next)
            result = self.after_first_flip(info, first, erase_next)
        self.memo[key] = result
        return result

    def after_first_flip(self, info: Info, first: int, erase_next: bool) -> float:
        """Win probability after the policy's first flip ``first``."""
        return over_first_flip(self.model, info, first, lambda seen: self.second(seen, first, erase_next))

    def second(self, info: Info, first: int, erase_next: bool) -> float:
        """Win probability from the second flip on."""
        second = self.policy(info, first, erase_next)
        outcomes = self.model.second_flip(info, first, second)
        total = sum(w for w, _, _ in outcomes)
        return sum(w * self.after_turn(after, matched, erase_next) for w, after, matched in outcomes) / total

    def after_turn(self, info: Info, matched: bool, erase_next: bool) -> float:
        """Win probability once the turn's flips are done."""
        if matched and self.model.won(info):
            return 1.0
        if not erase_next:
            return self.value(info, self.model.next_flag(erase_next))
        key = (info, "roll")
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        flag = self.model.next_flag(True)
        result = sum(self.value(self.model.erase(info, cell), flag) for cell in range(self.model.cells)) / self.model.cells
        self.memo[key] = result
        return result


# -- classic Memory: Velleman and Warrington ---------------------------------------------------------------------
@lru_cache(maxsize=None)
def clear_expected_turns(unseen: int, lone: int = 0, known_pairs: int = 0) -> Fraction:
    """Fewest expected turns to match every pair of solitaire Memory with perfect memory (FG-14, no erasure).

    State: ``unseen`` face-down tiles nobody has seen, ``lone`` seen tiles whose partner is unseen,
    ``known_pairs`` pairs seen but not matched. Every turn that learns or matches something is tried
    (match a known pair; flip an unseen tile then its known partner, another unseen tile or a seen tile;
    flip a seen tile then an unseen one); exact rational arithmetic. ``clear_expected_turns(2 * n)`` is
    8/3 for n = 2 and 622/105 for n = 4 (Velleman and Warrington, 2013).
    """
    if unseen == 0 and lone == 0 and known_pairs == 0:
        return Fraction(0)
    if lone > unseen or (unseen - lone) % 2:
        raise ValueError("inconsistent Memory state")
    options: list[Fraction] = []
    if known_pairs:
        options.append(1 + clear_expected_turns(unseen, lone, known_pairs - 1))
    if unseen:
        options.append(1 + _after_unseen_first(unseen, lone, known_pairs))
        if lone:
            options.append(1 + _one_move(unseen, lone, known_pairs))
    if not options:
        raise ValueError("no move")
    return min(options)


def _after_unseen_first(u: int, k: int, p: int) -> Fraction:
    """Expected turns after this turn when the first flip is an unseen tile (second flip chosen optimally)."""
    fresh = u - k
    total = Fraction(0)
    if k:   # it pairs a seen tile: match it, or look at another unseen tile first
        options = [clear_expected_turns(u - 1, k - 1, p)]
        if u >= 2:
            options.append(_second_unseen(u - 1, k - 1, p + 1, mate_unseen=False))
        total += Fraction(k, u) * min(options)
    if fresh:   # a new pair: look at another unseen tile, or turn a seen one (learn nothing more)
        options = [clear_expected_turns(u - 1, k + 1, p)] if k + p else []
        if u >= 2:
            options.append(_second_unseen(u - 1, k, p, mate_unseen=True))
        total += Fraction(fresh, u) * min(options)
    return total


def _second_unseen(u: int, k: int, p: int, mate_unseen: bool) -> Fraction:
    """Expected turns after flipping a second unseen tile; the first is a lone tile (``mate_unseen``) counted
    apart from the ``k`` other lone tiles, or already part of one of the ``p`` known pairs."""
    total = Fraction(0)
    others = k
    fresh = u - others - (1 if mate_unseen else 0)
    if mate_unseen:
        total += Fraction(1, u) * clear_expected_turns(u - 1, k, p)              # the mate: matched
        if others:
            total += Fraction(others, u) * clear_expected_turns(u - 1, k, p + 1)   # pairs another seen tile
        if fresh:
            total += Fraction(fresh, u) * clear_expected_turns(u - 1, k + 2, p)    # another new pair
    else:
        if others:
            total += Fraction(others, u) * clear_expected_turns(u - 1, k - 1, p + 1)
        if fresh:
            total += Fraction(fresh, u) * clear_expected_turns(u - 1, k + 1, p)
    return total


def _one_move(u: int, k: int, p: int) -> Fraction:
    """Expected turns after flipping a seen lone tile first, then an unseen tile."""
    fresh = u - k
    total = Fraction(1, u) * clear_expected_turns(u - 1, k - 1, p)
    if k > 1:
        total += Fraction(k - 1, u) * clear_expected_turns(u - 1, k - 1, p + 1)
    if fresh:
        total += Fraction(fresh, u) * clear_expected_turns(u - 1, k + 1, p)
    return total


def timed(fn: Callable[[], float]) -> tuple[float, float]:
    """``(result, seconds)``."""
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start
