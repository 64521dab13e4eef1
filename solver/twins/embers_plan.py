"""Pure-Python twin of ``src/embers_plan.pxi``: exact search over Fenrys's Blink plans, branch and bound.

Same function, same signature, same results (and the same plan, since it
visits the same nodes in the same order and cuts the same subtrees) as the
compiled kernel ``solver.kernels.embers``, written with plain sets so that
it reads as a statement of the search:

* a plan adds row cards one after another, each add legal on the Mind's top
  layer (every segment over a covered quarter matches it, at least one blocked
  on blocked), and never splits the Mind (its visible cards stay connected);
* its value is the objective described in the kernel's docstring;
* depth first, row cards in index order, positions by row then column; a
  subtree is cut when an optimistic bound cannot beat the best plan found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from solver.twins.embers_placement import SEGMENTS, is_legal

SUITS = 5
TARGET = 7
MAX_ROW = 16


@dataclass
class _Search:
    cards: list[tuple[int, int, int, int, int, int]]  # (x, y, blocked, suit, strength, value), stack order
    row: list[tuple[int, int, int, int]]  # (blocked, suit, strength, value)
    allowed: int
    reveal: list[list[int]]
    rescue: list[int]
    dw: int
    tw: int
    must_add: bool
    first: tuple[int, int, int] | None
    max_nodes: int
    control: np.ndarray | None = None
    used: int = 0
    demons: int = 0
    rescued: int = 0
    relives: list[int] = field(default_factory=lambda: [0] * SUITS)
    path: list[tuple[int, int, int]] = field(default_factory=list)
    found: bool = False
    best: int = 0
    best_plan: list[tuple[int, int, int]] = field(default_factory=list)
    nodes: int = 0
    complete: bool = True

    # -- the rules ---------------------------------------------------------------------
    def top(self) -> dict[tuple[int, int], bool]:
        shown: dict[tuple[int, int], bool] = {}
        for x, y, b, _, _, _ in self.cards:
            for s, (dx, dy) in enumerate(SEGMENTS):
                shown[(x + dx, y + dy)] = bool(b >> s & 1)
        return shown

    def visible(self) -> list[int]:
        out = []
        for k, (x, y, *_rest) in enumerate(self.cards):
            mine = {(x + dx, y + dy) for dx, dy in SEGMENTS}
            for x2, y2, *_more in self.cards[k + 1:]:
                mine -= {(x2 + dx, y2 + dy) for dx, dy in SEGMENTS}
            if mine:
                out.append(k)
        return out

    def overlap(self, a: int, b: int) -> bool:
        return abs(self.cards[a][0] - self.cards[b][0]) <= 1 and abs(self.cards[a][1] - self.cards[b][1]) <= 1

    def reach(self, start: int, allowed: set[int]) -> set[int]:
        seen, stack = {start}, [start]
        while stack:
            k = stack.pop()
            for j in allowed:
                if j not in seen and self.overlap(k, j):
                    seen.add(j)
                    stack.append(j)
        return seen

    # -- the objective -----------------------------------------------------------------
    def reveal_of(self, suit: int, relives: int) -> int:
        if relives <= 0:
            return 0
        return self.reveal[suit][min(relives, len(self.reveal[suit]) - 1)]

    def score(self, shown: list[int]) -> int:
        value = -self.dw * bin(self.demons).count("1") + self.tw * self.rescued
        for i, (_, suit, _, _) in enumerate(self.row):
            if not self.used >> i & 1 and self.demons >> suit & 1:
                value -= self.tw
        value += sum(self.reveal_of(k, self.relives[k]) for k in range(SUITS))
        return value + sum(self.cards[k][5] for k in shown)

    def bound(self, shown: list[int]) -> int:
        value = self.tw * self.rescued
        remaining = [i for i in range(len(self.row)) if self.allowed >> i & 1 and not self.used >> i & 1]
        count = [sum(1 for i in remaining if self.row[i][1] == k) for k in range(SUITS)]
        value += sum(max(self.row[i][3], 0) for i in remaining)
        for k in range(SUITS):
            if self.demons >> k & 1:
                value += self.tw * self.rescue[k] if count[k] else -self.dw
            value += max(self.reveal_of(k, r) for r in range(self.relives[k], self.relives[k] + count[k] + 1))
        return value + sum(max(self.cards[k][5], 0) for k in shown)

    # -- the search --------------------------------------------------------------------
    def visit(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            self.complete = False
            return
        if self.control is not None and self.nodes % 1024 == 0:
            if len(self.control) > 1:
                self.control[1] = self.nodes
            if self.control[0] != 0:
                self.complete = False
                return
        shown = self.visible()
        if self.path or not self.must_add:
            value = self.score(shown)
            if not self.found or value > self.best:
                self.found, self.best, self.best_plan = True, value, list(self.path)
        if self.found and self.bound(shown) <= self.best:
            return
        top = self.top()
        ys = [q[1] for q in top]
        xs = [q[0] for q in top]
        for i, (blocked, suit, strength, value) in enumerate(self.row):
            if not self.allowed >> i & 1 or self.used >> i & 1:
                continue
            if not self.path and self.first is not None and self.first[0] != i:
                continue
            spots = [(x, y) for y in range(min(ys) - 1, max(ys) + 1) for x in range(min(xs) - 1, max(xs) + 1)
                     if is_legal(top, blocked, x, y)]
            for x, y in spots:
                if not self.path and self.first is not None and (x, y) != self.first[1:]:
                    continue
                self.cards.append((x, y, blocked, suit, strength, value))
                visible_now = self.visible()
                if self.reach(visible_now[0], set(visible_now)) == set(visible_now):  # EM-73: no split
                    k = len(self.cards) - 1
                    group = self.reach(k, {j for j, c in enumerate(self.cards) if c[3] == suit})
                    relived = sum(self.cards[j][4] for j in group) == TARGET
                    saved = (self.demons, self.rescued)
                    if relived:
                        self.relives[suit] += 1
                        if self.demons >> suit & 1:
                            self.demons &= ~(1 << suit)
                            self.rescued += self.rescue[suit]
                    self.used |= 1 << i
                    self.path.append((i, x, y))
                    self.visit()
                    self.path.pop()
                    self.used &= ~(1 << i)
                    if relived:
                        self.relives[suit] -= 1
                    self.demons, self.rescued = saved
                self.cards.pop()
                if not self.complete:
                    return


def search_plans(xs: Sequence[int], ys: Sequence[int], blocked: Sequence[int], suits: Sequence[int],
                 strengths: Sequence[int], values: Sequence[int], row_blocked: Sequence[int],
                 row_suits: Sequence[int], row_strengths: Sequence[int], row_values: Sequence[int],
                 reveal_value: np.ndarray, demon_suits: int, rescue: Sequence[int], demon_weight: int,
                 taint_weight: int, allowed: int, must_add: bool, first_card: int, first_x: int, first_y: int,
                 max_nodes: int, plan: np.ndarray, control: np.ndarray | None = None
                 ) -> tuple[bool, int, int, int, bool]:
    """The best plan for the row (see the kernel's docstring): returns ``(found, value, length, nodes, complete)``.

    ``plan[k]`` receives ``(row index, x, y)`` of the plan's ``k``-th add (``length`` adds). ``allowed`` is a
    mask of the row cards that may be added (the others are discarded); ``first_card >= 0`` forces the first
    add to be that card at ``(first_x, first_y)``. ``complete`` is false when ``max_nodes`` stopped the search
    (the plan is then the best found, unproven). ``reveal_value`` has 5 rows (suits) and at least one column.

    ``control`` (1 or 2 entries, optional): ``control[0]`` is read every 1024 nodes and a non-zero value stops
    the search there; ``control[1]``, if present, then receives the nodes so far (as the kernel does).
    """
    n, m = len(xs), len(row_blocked)
    if not len(ys) == len(blocked) == len(suits) == len(strengths) == len(values) == n:
        raise ValueError("mind: xs, ys, blocked, suits, strengths and values must have the same length")
    if not len(row_suits) == len(row_strengths) == len(row_values) == m:
        raise ValueError("row: row_blocked, row_suits, row_strengths and row_values must have the same length")
    if n == 0 or m > MAX_ROW or n + m > 64:
        raise ValueError("mind and row: 1 to 64 cards in all, at most 16 in the row")
    reveal = np.asarray(reveal_value)
    if reveal.ndim != 2 or reveal.shape[0] != SUITS or not 1 <= reveal.shape[1] <= MAX_ROW + 1:
        raise ValueError("reveal_value: expected shape (5, 1..17)")
    if len(rescue) != SUITS:
        raise ValueError("rescue: expected one entry per suit")
    if plan.shape[0] < m or plan.shape[1] != 3:
        raise ValueError("plan: expected shape (len(row), 3)")
    if control is not None and not 1 <= len(control) <= 2:
        raise ValueError("control: expected 1 or 2 entries")
    if any(int(s) >= SUITS for s in suits):
        raise ValueError("suits: 0 to 4")
    if any(int(s) >= SUITS for s in row_suits):
        raise ValueError("row_suits: 0 to 4")
    if max(map(int, xs)) - min(map(int, xs)) + 2 * m + 4 > 64 or max(map(int, ys)) - min(map(int, ys)) + 2 * m + 4 > 64:
        raise ValueError("mind: too wide for the plan search (span + 2 x row cards + 4 must be at most 64)")
    search = _Search(
        cards=[(int(xs[k]), int(ys[k]), int(blocked[k]), int(suits[k]), int(strengths[k]), int(values[k]))
               for k in range(n)],
        row=[(int(row_blocked[i]), int(row_suits[i]), int(row_strengths[i]), int(row_values[i])) for i in range(m)],
        allowed=int(allowed) & ((1 << m) - 1), reveal=[[int(v) for v in r] for r in reveal],
        rescue=[int(r) for r in rescue], dw=int(demon_weight), tw=int(taint_weight), must_add=bool(must_add),
        first=(int(first_card), int(first_x), int(first_y)) if 0 <= first_card < m else None,
        max_nodes=int(max_nodes), control=control)
    search.demons = int(demon_suits) & 31
    search.visit()
    for k, (i, x, y) in enumerate(search.best_plan):
        plan[k] = (i, x, y)
    return (search.found, search.best, len(search.best_plan), search.nodes, search.complete)
