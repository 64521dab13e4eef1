"""The CP-SAT model of one Portal layout (OR-Tools), used to close a layout.

With the Portal cells fixed, connection is a fixed graph, and the board total
is a quadratic function of the Booleans ``x[cell, kind]`` (one per free cell
and card kind). The model:

- *Flow linearisation* of every connected pair (edge ``e = (u, v)``): Booleans
  ``y[e, a, b]`` ("``u`` holds ``a`` and ``v`` holds ``b``") with
  ``sum_b y[e, a, b] = x[u, a]`` and ``sum_a y[e, a, b] = x[v, b]``; the pair's
  points are ``sum w(a, b) y[e, a, b]`` (Goblin-Swamp only on orthogonal edges).
- *Star cuts*: a card of kind ``a`` has at most ``count(b)`` neighbours of
  kind ``b``: ``sum_v y[(u, v), a, b] <= count(b) x[u, a]``.
- *Isoperimetric cuts*: for a set ``T`` of at most three kinds holding ``k``
  cards, the edges with both ends in ``T`` are at most ``f(k)``, the largest
  number of edges among ``k`` cells of this layout (computed once per layout).
- *Dragons*: a Dragon on ``u`` is tamed only if two Humans, two Elves or two
  Dwarves are connected to it, through the products ``y[(u, v), R, K]``; at
  most three Dragons count as tamed.
- *Symmetry breaking*: the kingdom is the lexicographically smallest of its
  images under the layout's symmetries (lex-leader constraints).
- *Search*: CP-SAT branches on the Tribes first (Goblins, Dwarves, Elves,
  Humans; fixed search, one worker); the objective must beat the incumbent,
  so the answer is a better kingdom or a proof that none exists.

The plain model kept as the baseline is in ``benchmarks/bench_aetherya_optimizer.py``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np
from ortools.sat.python import cp_model

from solver.aetherya.cards import CELLS, DRAGON, DWARVES, ELVES, GOBLINS, HUMANS, PORTAL, SWAMP
from solver.kernels import aetherya as kernel

KINDS = 9  # card kinds that can stand on a free cell (every kind but the Portal)
FREE = 10
TRIBE_ORDER = (GOBLINS, DWARVES, ELVES, HUMANS)
DRAGON_VALUE = (0, 3, 5, 6)


def _pair_points() -> np.ndarray:
    w = np.zeros((KINDS, KINDS), dtype=np.int64)
    table = {("H", "P"): 2, ("H", "F"): 1, ("H", "M"): 1, ("H", "S"): -1, ("E", "F"): 2, ("E", "S"): -1,
             ("D", "M"): 2, ("G", "H"): -2, ("G", "E"): -2, ("G", "D"): -2, ("E", "D"): -2}
    letters = "PFMSHEDGR"
    for (a, b), points in table.items():
        w[letters.index(a), letters.index(b)] = w[letters.index(b), letters.index(a)] = points
    return w


PAIR = _pair_points()
GOBLIN_SWAMP = 3


def edges_of(portals: int) -> list[tuple[int, int, bool]]:
    """Connected pairs ``(u, v, orthogonal)``, ``u < v``, of the non-Portal cells (AE-1, AE-2)."""
    board = np.full(CELLS, FREE, dtype=np.uint8)
    for c in range(CELLS):
        if portals >> c & 1:
            board[c] = PORTAL
    conn = kernel.connections(board)
    out = []
    for u in range(CELLS):
        if portals >> u & 1:
            continue
        ru, cu = divmod(u, 4)
        for v in range(u + 1, CELLS):
            if portals >> v & 1 or not conn[u] >> v & 1:
                continue
            rv, cv = divmod(v, 4)
            out.append((u, v, abs(ru - rv) + abs(cu - cv) == 1))
    return out


@lru_cache(maxsize=512)
def induced_edge_limits(portals: int) -> tuple[int, ...]:
    """``f[k]``: the most edges among any ``k`` non-Portal cells of the layout."""
    cells = [c for c in range(CELLS) if not portals >> c & 1]
    index = {c: i for i, c in enumerate(cells)}
    n = len(cells)
    masks = np.arange(1 << n, dtype=np.int64)
    size = np.zeros(1 << n, dtype=np.int64)
    for i in range(n):
        size += (masks >> i) & 1
    inside = np.zeros(1 << n, dtype=np.int64)
    for u, v, _ in edges_of(portals):
        inside += ((masks >> index[u]) & 1) & ((masks >> index[v]) & 1)
    limits = np.zeros(n + 1, dtype=np.int64)
    np.maximum.at(limits, size, inside)
    return tuple(int(x) for x in limits)


def lex_smallest(kingdom: Sequence[int], symmetries: Sequence[Sequence[int]]) -> list[int]:
    """The lexicographically smallest image of ``kingdom`` under the identity and ``symmetries``."""
    best = list(kingdom)
    for image in symmetries:
        moved = [0] * CELLS
        for c in range(CELLS):
            moved[image[c]] = kingdom[c]
        if moved < best:
            best = moved
    return best


class LayoutModel:
    """CP-SAT model of one layout (``solver.aetherya.optimize.Layout``) with the free cards ``counts``."""

    def __init__(self, layout, counts: Sequence[int]) -> None:
        self.layout = layout
        self.codes = list(layout.codes)
        totals = [int(counts[k]) for k in range(KINDS)]
        for code in self.codes:
            if code < KINDS:
                totals[code] += 1
        self.totals = totals
        self.kinds = [k for k in range(KINDS) if totals[k] > 0]
        self.cells = [c for c in range(CELLS) if self.codes[c] != PORTAL]
        self.model = cp_model.CpModel()
        self.x: dict[tuple[int, int], cp_model.IntVar] = {}
        self.y: dict[tuple[int, int, int, int], cp_model.IntVar] = {}
        self.objective: list = []
        self._build()

    # -- construction ------------------------------------------------------------------------
    def _pair(self, u: int, v: int, a: int, b: int):
        return self.y[u, v, a, b] if u < v else self.y[v, u, b, a]

    def _build(self) -> None:
        m, kinds, cells = self.model, self.kinds, self.cells
        for u in cells:
            for a in kinds:
                self.x[u, a] = m.NewBoolVar(f"x{u}_{a}")
            m.AddExactlyOne(self.x[u, a] for a in kinds)
            if self.codes[u] != FREE:
                m.Add(self.x[u, self.codes[u]] == 1)
        for a in kinds:
            m.Add(sum(self.x[u, a] for u in cells) == self.totals[a])
        edges = edges_of(self.layout.portals)
        self.neighbours = {u: [] for u in cells}
        for u, v, orthogonal in edges:
            self.neighbours[u].append(v)
            self.neighbours[v].append(u)
            for a in kinds:
                for b in kinds:
                    self.y[u, v, a, b] = m.NewBoolVar(f"y{u}_{v}_{a}_{b}")
            for a in kinds:
                m.Add(sum(self.y[u, v, a, b] for b in kinds) == self.x[u, a])
                m.Add(sum(self.y[u, v, b, a] for b in kinds) == self.x[v, a])
            for a in kinds:
                for b in kinds:
                    points = int(PAIR[a, b])
                    if orthogonal and {a, b} == {GOBLINS, SWAMP}:
                        points += GOBLIN_SWAMP
                    if points:
                        self.objective.append(points * self.y[u, v, a, b])
        self._star_cuts()
        self._isoperimetric_cuts(edges)
        self._dragons()
        self._symmetry_breaking()
        self.total = sum(self.objective)

    def _star_cuts(self) -> None:
        for u in self.cells:
            degree = len(self.neighbours[u])
            for a in self.kinds:
                for b in self.kinds:
                    cap = self.totals[b] - (a == b)
                    if cap < degree:
                        self.model.Add(sum(self._pair(u, v, a, b) for v in self.neighbours[u]) <= cap * self.x[u, a])

    def _isoperimetric_cuts(self, edges: list[tuple[int, int, bool]]) -> None:
        limits = induced_edge_limits(self.layout.portals)
        for size in (1, 2, 3):
            for group in itertools.combinations(self.kinds, size):
                k = sum(self.totals[t] for t in group)
                if k < len(self.cells) and limits[k] < len(edges):
                    self.model.Add(sum(self.y[u, v, a, b] for u, v, _ in edges for a in group for b in group)
                                   <= limits[k])

    def _dragons(self) -> None:
        n = self.totals[DRAGON]
        if not n:
            return
        value = DRAGON_VALUE[min(n, 3)]
        tamed = []
        for u in self.cells:
            t = self.model.NewBoolVar(f"tamed{u}")
            self.model.Add(t <= self.x[u, DRAGON])
            reasons = []
            for kind in (HUMANS, ELVES, DWARVES):
                if self.totals[kind] < 2:
                    continue
                r = self.model.NewBoolVar(f"tamed{u}_{kind}")
                self.model.Add(r <= self.x[u, DRAGON])
                self.model.Add(2 * r <= sum(self._pair(u, v, DRAGON, kind) for v in self.neighbours[u]))
                reasons.append(r)
            self.model.Add(t <= sum(reasons))
            tamed.append(t)
        if n > 3:
            self.model.Add(sum(tamed) <= 3)
        self.objective.append(2 * value * sum(tamed) - value * n)

    def _symmetry_breaking(self) -> None:
        if not self.layout.symmetries:
            return
        m = self.model
        kind_of: dict[int, object] = {u: PORTAL for u in range(CELLS)}
        for u in self.cells:
            kind_of[u] = m.NewIntVar(0, KINDS - 1, f"kind{u}")
            m.Add(kind_of[u] == sum(a * self.x[u, a] for a in self.kinds))
        for image in self.layout.symmetries:
            inverse = [0] * CELLS
            for c in range(CELLS):
                inverse[image[c]] = c
            self._lex_leq([kind_of[i] for i in range(CELLS)], [kind_of[inverse[i]] for i in range(CELLS)])

    def _lex_leq(self, left: list, right: list) -> None:
        """``left <= right`` lexicographically (``equal[i]``: the first ``i`` entries are equal)."""
        m = self.model
        pairs = [(a, b) for a, b in zip(left, right) if not (isinstance(a, int) and isinstance(b, int))]
        equal = m.NewConstant(1)
        for i, (a, b) in enumerate(pairs):
            m.Add(a <= b).OnlyEnforceIf(equal)
            if i == len(pairs) - 1:
                break
            same = m.NewBoolVar("")
            m.Add(a == b).OnlyEnforceIf(same)
            m.Add(a != b).OnlyEnforceIf(same.Not())
            nxt = m.NewBoolVar("")
            m.AddBoolAnd([equal, same]).OnlyEnforceIf(nxt)
            m.AddBoolOr([equal.Not(), same.Not(), nxt])
            equal = nxt

    # -- solving -----------------------------------------------------------------------------
    def kingdom(self, solver: cp_model.CpSolver) -> list[int]:
        """The kingdom of the solver's current solution."""
        out = [PORTAL] * CELLS
        for (u, a), var in self.x.items():
            if solver.Value(var):
                out[u] = a
        return out

    def improve(self, incumbent: int, hint: Sequence[int] | None, seconds: float | None,
                seed: int = 0, workers: int = 1,
                on_start: Callable[[cp_model.CpSolver], None] | None = None) -> tuple[list[int] | None, int, bool, int]:
        """Look for a kingdom of this layout above ``incumbent``.

        Returns ``(kingdom or None, its total, closed, bound)``: ``closed`` when the layout's optimum
        is known (the kingdom returned, or proven not above ``incumbent``); ``bound`` is a proven
        upper bound on the layout (at least ``incumbent``). ``on_start(solver)`` is called just before
        the solve, so that another thread can stop it (``solver.stop_search()``).
        """
        m = self.model
        m.Add(self.total >= incumbent + 1)
        m.Maximize(self.total)
        if hint is not None:
            canonical = lex_smallest([int(k) for k in hint], self.layout.symmetries)
            for (u, a), var in self.x.items():
                m.AddHint(var, int(canonical[u] == a))
        tribes = [self.x[u, t] for t in TRIBE_ORDER if t in self.kinds for u in self.cells]
        if tribes:
            m.AddDecisionStrategy(tribes, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
        solver = cp_model.CpSolver()
        params = solver.parameters
        params.num_workers = workers
        params.random_seed = seed % (2**31)
        params.cp_model_presolve = False  # presolve rewrites the flows and loses most of the LP bound
        params.search_branching = cp_model.FIXED_SEARCH
        if seconds is not None:
            params.max_time_in_seconds = max(0.001, seconds)
        if on_start is not None:
            on_start(solver)
        status = solver.Solve(m)
        if status == cp_model.INFEASIBLE:
            return None, incumbent, True, incumbent
        if status == cp_model.OPTIMAL:
            value = int(round(solver.ObjectiveValue()))
            return self.kingdom(solver), value, True, value
        bound = solver.BestObjectiveBound()
        bound = incumbent if not np.isfinite(bound) else max(incumbent, int(np.floor(bound + 1e-6)))
        if status == cp_model.FEASIBLE:
            value = int(round(solver.ObjectiveValue()))
            return self.kingdom(solver), value, False, max(bound, value)
        return None, incumbent, bound <= incumbent, bound
