"""Exact existence of a world behind what the players know: an arrangement of the unseen tiles that is alive or dead.

What the players know (FG-13) leaves the unseen tiles (face down nobody saw, ``U``, and removed nobody saw,
``R``) a shuffle of a known multiset: the partner of every seen tile whose partner nobody saw (*singles*),
one tile of every pair whose other tile was removed after being seen (*orphans*), and both tiles of every
pair nobody saw (*fresh*). Whether the true board still allows a route (FG-11) depends only on which
face-down tiles lose their partner to ``R``: a single whose partner lies in ``R``, an orphan lying in ``U``,
or one tile of a fresh pair in ``U`` whose other tile lies in ``R``.

So a world is described, up to what matters, by four counts (how many singles die, how many orphans and
fresh tiles go to ``R``, how many fresh pairs lie wholly in ``R``) and by *which* singles and unseen cells
die; any such choice is realisable. :func:`find_world` searches those choices exactly:

* an **alive** world exists when some route leaves enough singles and unseen cells off it to take the
  deaths: a shortest-path search over (cell, singles used) minimising the unseen cells used;
* a **dead** world exists when the deaths can cut every route: a minimum vertex cut (max flow) over the
  unseen cells, for each choice of the singles that die.

Sampling (``state.sample_hidden``) finds a world at once on almost every position; this module decides the
rare positions where agreeing worlds are too scarce for rejection sampling, so that a view is never refused,
or declared lost, on a sampling failure.
"""

from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from solver.forgotten.notation import DOWN, REMOVED, UP

if TYPE_CHECKING:
    from solver.forgotten.state import ForgottenState

INF = 1 << 20


@dataclass
class Pool:
    """What the unseen tiles may be, read from a position's seen tiles only."""

    down: list[int]               # U: face-down cells nobody saw
    removed: list[int]            # R: removed cells nobody saw
    singles: dict[int, int]       # seen face-down cell -> its letter, partner unseen
    orphans: list[int]            # letters with one tile removed after being seen, the other unseen
    fresh: list[int]              # letters nobody saw
    live: int                     # mask: face up, and seen face-down tiles whose partner is seen face down
    seen_dead: bool               # a seen face-down tile whose partner was removed after being seen

    @property
    def consistent(self) -> bool:
        return len(self.singles) + len(self.orphans) + 2 * len(self.fresh) == len(self.down) + len(self.removed)


def pool_of(state: ForgottenState) -> Pool:
    """The pool of a position (any completion of it: only the seen tiles are read)."""
    seen_at: dict[int, list[int]] = {}
    for c, tile in enumerate(state.tiles):
        if tile >= 0 and state.seen[c]:
            seen_at.setdefault(tile, []).append(c)
    singles, orphans, fresh = {}, [], []
    live = state.mask(UP)
    seen_dead = False
    for letter in range(state.game.pairs):
        cells = seen_at.get(letter, [])
        if not cells:
            fresh.append(letter)
        elif len(cells) == 1:
            c = cells[0]
            if state.status[c] == DOWN:
                singles[c] = letter
            elif state.status[c] == REMOVED:
                orphans.append(letter)
        else:
            downs = [c for c in cells if state.status[c] == DOWN]
            if len(downs) == 2:
                live |= (1 << downs[0]) | (1 << downs[1])
            elif len(downs) == 1 and any(state.status[c] == REMOVED for c in cells):
                seen_dead = True
    hidden = state.hidden_cells()
    return Pool([c for c in hidden if state.status[c] == DOWN], [c for c in hidden if state.status[c] == REMOVED],
                singles, orphans, fresh, live, seen_dead)


@dataclass(frozen=True)
class Split:
    """How the removed unseen tiles are made up: singles' partners, orphans, fresh halves, fresh pairs."""

    singles: int
    orphans: int
    halves: int
    pairs: int

    def dead_unseen(self, pool: Pool) -> int:
        """Unseen face-down cells that are dead: orphans left on the board, and partners of fresh halves."""
        return len(pool.orphans) - self.orphans + self.halves


def splits(pool: Pool) -> list[Split]:
    """Every way the ``R`` cells can be made up (counts only)."""
    e, k, d, f = len(pool.removed), len(pool.singles), len(pool.orphans), len(pool.fresh)
    out = []
    for n_single in range(min(k, e) + 1):
        for a in range(min(d, e - n_single) + 1):
            rest = e - n_single - a
            for b in range(min(f, rest) + 1):
                if (rest - b) % 2 == 0 and b + (rest - b) // 2 <= f:
                    out.append(Split(n_single, a, b, (rest - b) // 2))
    return out


def find_world(state: ForgottenState, alive: bool) -> list[int] | None:
    """Tiles of a world that agrees with what was seen in ``state`` and is alive (``alive``) or dead, or ``None``.

    Exact: ``None`` means no arrangement of the unseen tiles has that status.
    """
    pool = pool_of(state)
    if not pool.consistent:
        return None
    if state.game.goal == "clear":
        return _clear_world(state, pool, alive)
    if alive:
        return _alive_world(state, pool)
    return _dead_world(state, pool)


def _clear_world(state: ForgottenState, pool: Pool, alive: bool) -> list[int] | None:
    """Goal ``clear`` (FG-14): alive when no face-down tile has lost its partner."""
    for split in splits(pool):
        deaths = split.singles + split.dead_unseen(pool)
        if alive and not pool.seen_dead and deaths == 0:
            return _assign(state, pool, split, [], [])
        if not alive and (pool.seen_dead or deaths > 0):
            singles = sorted(pool.singles)[:split.singles]
            return _assign(state, pool, split, singles, pool.down[:split.dead_unseen(pool)])
    return None


# -- alive: a route that keeps clear of the deaths ------------------------------------------------------------
def _alive_world(state: ForgottenState, pool: Pool) -> list[int] | None:
    board = state.board
    unseen = sum(1 << c for c in pool.down)
    singles = sum(1 << c for c in pool.singles)
    avail = pool.live | unseen | singles
    routes = _fewest_unseen(board, avail, unseen, singles, len(pool.singles))
    if not routes:
        return None
    u, k = len(pool.down), len(pool.singles)
    for split in splits(pool):
        single_budget, unseen_budget = k - split.singles, u - split.dead_unseen(pool)
        for used, (cost, cells) in sorted(routes.items()):
            if used <= single_budget and cost <= unseen_budget:
                dying = [c for c in sorted(pool.singles) if not cells >> c & 1][:split.singles]
                dead = [c for c in pool.down if not cells >> c & 1][:split.dead_unseen(pool)]
                return _assign(state, pool, split, dying, dead)
    return None


def _fewest_unseen(board, avail: int, unseen: int, singles: int, k: int) -> dict[int, tuple[int, int]]:
    """For each number of singles a route uses, the fewest unseen cells on such a route and its cells.

    Dijkstra over (cell, singles used so far), the cost being the unseen cells used; a route runs from a
    cell touching the first Brain to one touching the second through orthogonal steps (FG-5).
    """
    best: dict[tuple[int, int], int] = {}
    parent: dict[tuple[int, int], tuple[int, int] | None] = {}
    heap: list[tuple[int, int, int]] = []
    for c in range(board.cells):
        if board.start >> c & 1 and avail >> c & 1:
            key = (c, singles >> c & 1)
            cost = unseen >> c & 1
            if cost < best.get(key, INF):
                best[key], parent[key] = cost, None
                heapq.heappush(heap, (cost, key[1], c))
    found: dict[int, tuple[int, int]] = {}
    while heap:
        cost, used, c = heapq.heappop(heap)
        key = (c, used)
        if cost > best.get(key, INF):
            continue
        if board.goal >> c & 1 and used not in found:
            cells, at = 0, key
            while at is not None:
                cells |= 1 << at[0]
                at = parent[at]
            found[used] = (cost, cells)
        spread = board.spread(1 << c) & avail
        while spread:
            n = (spread & -spread).bit_length() - 1
            spread &= spread - 1
            nxt = (n, used + (singles >> n & 1))
            if nxt[1] > k:
                continue
            step = cost + (unseen >> n & 1)
            if step < best.get(nxt, INF):
                best[nxt], parent[nxt] = step, key
                heapq.heappush(heap, (step, nxt[1], n))
    return found


# -- dead: deaths that cut every route ------------------------------------------------------------------------
def _dead_world(state: ForgottenState, pool: Pool) -> list[int] | None:
    from solver.forgotten.knowledge import Model
    board = state.board
    unseen = sum(1 << c for c in pool.down)
    singles = sum(1 << c for c in pool.singles)
    avail = pool.live | unseen | singles
    options = splits(pool)
    if not board.connected(avail):
        return _assign(state, pool, options[0], sorted(pool.singles)[:options[0].singles],
                       pool.down[:options[0].dead_unseen(pool)]) if options else None
    if all(split.singles + split.dead_unseen(pool) == 0 for split in options):
        return None               # no tile can lose its partner, and a route exists
    relevant = Model(board, state.game.erasure, state.game.goal).relevant(avail)
    avail &= relevant
    on_route = [c for c in sorted(pool.singles) if relevant >> c & 1]
    off_route = [c for c in sorted(pool.singles) if not relevant >> c & 1]
    tried: set[tuple[int, int]] = set()
    for split in sorted(options, key=lambda s: (-s.singles - s.dead_unseen(pool), -s.singles)):
        budget = (split.singles, split.dead_unseen(pool))
        if budget in tried:
            continue
        tried.add(budget)
        for chosen in combinations(on_route, min(split.singles, len(on_route))):
            killed = sum(1 << c for c in chosen)
            cut = _unseen_cut(board, avail & ~killed, unseen, budget[1])
            if cut is None:
                continue
            dying = list(chosen) + off_route[:split.singles - len(chosen)]
            dead = sorted(set(cut) | set(c for c in pool.down if c not in cut), key=lambda c: (c not in cut, c))
            return _assign(state, pool, split, dying, dead[:budget[1]])
    return None


def _unseen_cut(board, avail: int, unseen: int, budget: int) -> list[int] | None:
    """Unseen cells (at most ``budget``) whose removal leaves no route through ``avail``, or ``None``.

    A minimum vertex cut by max flow (Edmonds-Karp): each cell is an in-node and an out-node joined by
    capacity 1 for an unseen cell (it may die) and an unbounded one otherwise.
    """
    cells = board.cells
    source, sink = 2 * cells, 2 * cells + 1
    heads: list[int] = []
    caps: list[int] = []
    out: list[list[int]] = [[] for _ in range(2 * cells + 2)]

    def edge(a: int, b: int, c: int) -> None:
        out[a].append(len(heads))
        heads.append(b)
        caps.append(c)
        out[b].append(len(heads))
        heads.append(a)
        caps.append(0)

    for c in range(cells):
        if not avail >> c & 1:
            continue
        edge(2 * c, 2 * c + 1, 1 if unseen >> c & 1 else INF)
        if board.start >> c & 1:
            edge(source, 2 * c, INF)
        if board.goal >> c & 1:
            edge(2 * c + 1, sink, INF)
        spread = board.spread(1 << c) & avail
        while spread:
            n = (spread & -spread).bit_length() - 1
            spread &= spread - 1
            edge(2 * c + 1, 2 * n, INF)
    flow = 0
    while True:
        via = [-1] * (2 * cells + 2)
        via[source] = -2
        queue = deque([source])
        while queue and via[sink] == -1:
            v = queue.popleft()
            for e in out[v]:
                w = heads[e]
                if caps[e] > 0 and via[w] == -1:
                    via[w] = e
                    queue.append(w)
        if via[sink] == -1:
            break
        push, w = INF, sink
        while w != source:
            e = via[w]
            push = min(push, caps[e])
            w = heads[e ^ 1]
        if push >= INF:
            return None          # a route through cells that cannot die
        w = sink
        while w != source:
            e = via[w]
            caps[e] -= push
            caps[e ^ 1] += push
            w = heads[e ^ 1]
        flow += push
        if flow > budget:
            return None
    return [c for c in range(cells) if via[2 * c] != -1 and via[2 * c + 1] == -1 and unseen >> c & 1]


# -- building the world -----------------------------------------------------------------------------------------
def _assign(state: ForgottenState, pool: Pool, split: Split, dying: list[int], dead: list[int]) -> list[int] | None:
    """The tiles of a world in which exactly the singles ``dying`` and the unseen cells ``dead`` lose their partner."""
    orphans, fresh = pool.orphans, pool.fresh
    a, b, pairs = split.orphans, split.halves, split.pairs
    to_removed = ([pool.singles[c] for c in dying] + orphans[:a] + fresh[:b]
                  + [x for x in fresh[b:b + pairs] for _ in range(2)])
    to_dead = orphans[a:] + fresh[:b]
    living = [pool.singles[c] for c in sorted(pool.singles) if c not in dying] + \
        [x for x in fresh[b + pairs:] for _ in range(2)]
    others = [c for c in pool.down if c not in dead]
    if len(to_removed) != len(pool.removed) or len(to_dead) != len(dead) or len(living) != len(others):
        return None
    tiles = list(state.tiles)
    for cells, letters in ((pool.removed, to_removed), (dead, to_dead), (others, living)):
        for c, letter in zip(cells, letters):
            tiles[c] = letter
    return tiles
