"""Pure-Python twin of ``src/forgotten_exact.pxi``: the exact Forgotten solver.

Same class, same methods, same values as ``solver.kernels.forgotten.Solver``; the search itself
is :class:`solver.forgotten.exact.ExactSolver` (optimal play) and
:class:`solver.forgotten.exact.PolicyEvaluator` (the route policy, through the playout twin), on the
knowledge model of :mod:`solver.forgotten.knowledge`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from solver.forgotten.board import Board
from solver.forgotten.exact import ExactSolver, PolicyEvaluator, SearchStopped as _Stopped
from solver.forgotten.knowledge import BLOCK, DEAD, LABEL, UP, Info, Model, normalise, world_arrays
from solver.twins import forgotten_playout

ERASURE_NAMES = ("off", "round", "turn")
GOAL_NAMES = ("path", "clear")
MAXC = 24


class SearchStopped(Exception):
    """The node, time or memory limit stopped the search before it finished."""


class Solver:
    """Exact win probabilities on one board; the memo persists across calls (call ``clear`` to drop it)."""

    def __init__(self, width: int, height: int, brain_a: int, brain_b: int, erasure: int, goal: int,
                 symmetries: Sequence[Sequence[int]], policy: int, max_entries: int) -> None:
        cells = width * height
        if width < 3 or height < 3 or cells > MAXC or not (0 <= brain_a < cells and 0 <= brain_b < cells) \
                or brain_a == brain_b:
            raise ValueError(f"the exact solver takes boards of at most {MAXC} cells with two Brains")
        if not 0 <= erasure <= 2 or policy not in (-1, 2):
            raise ValueError("erasure must be 0, 1 or 2 and policy -1 (optimal) or 2 (route)")
        if goal not in (0, 1):
            raise ValueError("goal must be 0 (path) or 1 (clear)")
        perms = tuple(tuple(int(c) for c in p) for p in symmetries)
        if not 1 <= len(perms) <= 8 or any(sorted(p) != list(range(cells)) for p in perms):
            raise ValueError("symmetries: 1 to 8 permutations of the cells")
        self.board = Board(width, height, (min(brain_a, brain_b), max(brain_a, brain_b)))
        self.brains = (brain_a, brain_b)
        self.model = Model(self.board, ERASURE_NAMES[erasure], GOAL_NAMES[goal], perms)
        self.policy = policy
        self.max_entries = max_entries
        self._limits: tuple[int, float] = (0, 0.0)
        self._stopped = ""
        self._new_search()

    def _new_search(self) -> None:
        if self.policy == -1:
            self.search = ExactSolver(self.model, should_stop=self._stop)
        else:
            self.search = PolicyEvaluator(self.model, self._route, should_stop=self._stop)
        self._base = 0

    def _route(self, info: Info, first: int, erase_next: bool = False) -> int:
        tiles, status, seen = world_arrays(self.model, info)
        w, h = self.board.width, self.board.height
        return forgotten_playout.policy_move(w, h, *self.brains, tiles, status, seen, first, 2, 0)

    def _stop(self, nodes: int) -> bool:
        max_nodes, deadline = self._limits
        if max_nodes and nodes >= max_nodes:
            self._stopped = "node limit"
        elif deadline and time.perf_counter() > deadline:
            self._stopped = "time limit"
        elif self.entries() >= self.max_entries:
            self._stopped = "memory limit"
        return bool(self._stopped)

    def _load(self, codes: np.ndarray, e: int, d: int) -> Info:
        if len(codes) != self.board.cells:
            raise ValueError("codes need one entry per cell")
        for c, code in enumerate(codes):
            if int(code) > LABEL + 11:
                raise ValueError(f"codes[{c}] = {int(code)} is not a knowledge code")
        if not 0 <= e <= 15 or not 0 <= d <= 15:
            raise ValueError("e and d must be 0 to 15")
        return Info(normalise([int(c) for c in codes]), e, d)

    def _run(self, fn, max_nodes: int, seconds: float) -> float:
        self._limits = (self.search.nodes + max_nodes if max_nodes > 0 else 0,
                        time.perf_counter() + seconds if seconds > 0 else 0.0)
        self._stopped = ""
        try:
            return fn()
        except _Stopped:
            raise SearchStopped(f"limit reached after {self.search.nodes} nodes") from None

    def value(self, codes: np.ndarray, e: int, d: int, erase_next: bool, max_nodes: int = 0,
              seconds: float = 0.0) -> float:
        """Win probability at the start of a turn."""
        info = self._load(codes, e, d)
        return self._run(lambda: self.search.value(info, bool(erase_next)), max_nodes, seconds)

    def first_value(self, codes: np.ndarray, e: int, d: int, erase_next: bool, first: int, max_nodes: int = 0,
                    seconds: float = 0.0) -> float:
        """Win probability of flipping ``first`` (any face-down tile) first, then playing on."""
        info = self._load(codes, e, d)
        if not 0 <= first < self.board.cells or info.codes[first] in (BLOCK, UP):
            raise ValueError(f"cell {first} holds no face-down tile")
        if self.policy == -1:
            return self._run(lambda: self.search.q_first(info, first, bool(erase_next)), max_nodes, seconds)
        return self._run(lambda: self.search.after_first_flip(info, first, bool(erase_next)), max_nodes, seconds)

    def second_value(self, codes: np.ndarray, e: int, d: int, erase_next: bool, first: int, second: int,
                     max_nodes: int = 0, seconds: float = 0.0) -> float:
        """Win probability of flipping ``second`` after ``first`` (whose tile ``codes`` already shows)."""
        info = self._load(codes, e, d)
        if not 0 <= first < self.board.cells or info.codes[first] < DEAD:
            raise ValueError(f"the first flip {first} must be a seen face-down tile")
        if not 0 <= second < self.board.cells or second == first or info.codes[second] in (BLOCK, UP):
            raise ValueError(f"cell {second} is not a second flip")
        if self.policy == -1:
            fn = lambda: self.search.q_second(info, first, second, bool(erase_next))  # noqa: E731
        else:
            fn = lambda: self._policy_second(info, first, second, bool(erase_next))  # noqa: E731
        return self._run(fn, max_nodes, seconds)

    def _policy_second(self, info: Info, first: int, second: int, erase_next: bool) -> float:
        outcomes = self.model.second_flip(info, first, second)
        total = sum(w for w, _, _ in outcomes)
        return sum(w * self.search.after_turn(after, matched, erase_next) for w, after, matched in outcomes) / total

    def policy_move(self, codes: np.ndarray, e: int, d: int, first: int) -> int:
        """The route policy's flip (first flip when ``first`` is -1)."""
        info = self._load(codes, e, d)
        if bin(info.down()).count("1") < 2:
            raise ValueError("no legal flip: fewer than two face-down tiles")
        return self._route(info, first)

    def stop_reason(self) -> str:
        """Why the last call stopped: ``"node limit"``, ``"time limit"``, ``"memory limit"``, or ``""`` if it
        finished. A stopped call keeps every value it completed, so calling again resumes the work."""
        return self._stopped

    def entries(self) -> int:
        """Memo entries stored."""
        if self.policy == -1:
            return len(self.search.start_memo) + len(self.search.pre_memo)
        return len(self.search.memo)

    def nodes(self) -> int:
        """Positions expanded so far."""
        return self.search.nodes

    def clear(self) -> None:
        """Drop the memo."""
        nodes = self.search.nodes
        self._new_search()
        self.search.nodes = nodes


def solve_value(width: int, height: int, brain_a: int, brain_b: int, erasure: int, goal: int,
                symmetries: Sequence[Sequence[int]], codes: np.ndarray, e: int, d: int, erase_next: bool,
                max_entries: int) -> float:
    """One-shot optimal win probability of a knowledge state at the start of a turn (a fresh ``Solver``)."""
    return Solver(width, height, brain_a, brain_b, erasure, goal, symmetries, -1, max_entries).value(codes, e, d,
                                                                                                      erase_next)
