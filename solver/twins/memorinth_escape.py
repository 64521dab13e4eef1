"""Pure-Python twin of ``src/memorinth_escape.pxi``: Memorinth shortest escapes (solitaire, full information),
solution counts and the greedy policy's runs.

Same functions, same parameter names and the same results as the compiled kernel
``solver.kernels.memorinth`` (IDA* with the same admissible bound; the kernel's transposition cache is
lossy where this twin's dictionary is not, which prunes only exact repeats and changes no result).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from solver.twins.common import SplitMix64
from solver.twins.memorinth_policy import greedy
from solver.twins.memorinth_rules import *  # noqa: F403 (the rules' names, as the kernel's ``cimport *``)


# -- shortest escape (solitaire, full information) ---------------------------------------------
def advance_to(s: list[int], deck: Sequence[int], player: int) -> None:
    """The other players' turns change nothing (solitaire): only the turn order and the start card advance."""
    while s[TOMOVE] != player:
        s[LAST] = -1
        end_turn(s, deck)


def _union_exits(s: list[int], deck: Sequence[int]) -> list[int]:
    """Base game: each cell's path ends on either side of its card (cards never move)."""
    return [deck[T_EXITS + s[UP + c]] | deck[T_EXITS + s[DOWN + c]] for c in range(CELLS)]


def _h(s: list[int], deck: Sequence[int], player: int, union: list[int], rf: list[int]) -> int:
    """Admissible bound on the own turns still needed (each turn moves the piece by at most one card).

    Base game (cards never move): :func:`first_step_bound`. Master Memorinth (cards move): distance to the
    nearest edge + 1.
    """
    p = s[PIECE + player]
    if s[VARIANT] == VAR_BASE:
        d = first_step_bound(s, deck, p, union, rf)
        return d if d >= 0 else INF
    r, c = divmod(p, 5)
    return min(r, c, 4 - r, 4 - c) + 1


def _key(s: list[int]) -> tuple[int, ...]:
    return (tuple(s[UP:UP + CELLS]) + tuple(s[PIECE:PIECE + 4]) + (s[LAST], s[START], min(s[ROUND], 2))
            + tuple(s[CLOVER:CLOVER + 4]) + (s[SUPPLY],) + tuple(s[CHAR:CHAR + 8]))


class _Search:
    def __init__(self, deck: Sequence[int], player: int, union: list[int], node_limit: int, deadline: float,
                 moves: Any, use_tt: bool, collapse_peeks: bool, count_limit: int) -> None:
        self.deck, self.player, self.union = deck, player, union
        self.rf = [0] * CELLS
        field(union, self.rf)
        self.node_limit, self.moves = node_limit, moves
        self.deadline = deadline
        self.use_tt, self.collapse = use_tt, collapse_peeks
        self.count_limit = count_limit
        self.stop: Any = None
        self.progress: Any = None      # stop[2] of shortest_escape: nodes searched so far / 1024
        self.base_nodes = 0
        self.nodes = 0
        self.stopped = False
        self.next_bound = INF
        self.tt: dict[tuple[int, ...], int] = {}
        self.length = 0
        self.count = 0

    def limit_hit(self) -> bool:
        self.nodes += 1
        if self.node_limit > 0 and self.nodes > self.node_limit:
            self.stopped = True
        elif (self.nodes & 1023) == 0:
            if self.progress is not None:
                self.progress[2] = min((self.base_nodes + self.nodes) >> 10, 2**31 - 1)
            if (self.deadline and time.perf_counter() > self.deadline) or (self.stop is not None
                                                                           and self.stop[0] != 0):
                self.stopped = True
        return self.stopped

    def dfs(self, s: list[int], d: int, bound: int, idx: int) -> bool:
        """True when a solution was found (or, counting, the count limit reached)."""
        if self.limit_hit():
            return False
        f = d - 1 + _h(s, self.deck, self.player, self.union, self.rf)
        if f > bound:
            if f < self.next_bound:
                self.next_bound = f
            return False
        if self.use_tt and s[PHASE] == PH_FLIP:
            key = _key(s)
            seen = self.tt.get(key)
            if seen is not None and seen <= d:
                return False
            self.tt[key] = d
        peek_done = False
        for a in legal(s, self.deck):
            if self.collapse and A_PEEK <= a < A_SWAPCARDS:
                if peek_done:
                    continue
                peek_done = True
            c = s[:]
            apply(c, self.deck, a)
            if idx < len(self.moves):
                self.moves[idx] = a
            if c[PHASE] == PH_OVER:
                if c[WINNER] == self.player:
                    self.length = d
                    self.count += 1
                    if self.count_limit == 0 or self.count >= self.count_limit:
                        return True
                continue
            if c[PHASE] == PH_FLIP:
                advance_to(c, self.deck, self.player)
                found = self.dfs(c, d + 1, bound, idx + 1)
            else:
                found = self.dfs(c, d, bound, idx + 1)
            if found or self.stopped:
                return found
        return False


def _solitaire_root(state: Any, deck: Any, player: int) -> list[int]:
    s = checked(state, deck)
    if not 0 <= player < s[NPLAYERS]:
        raise ValueError("player: out of range")
    if s[PHASE] == PH_OVER:
        raise ValueError("state: the game is over")
    if s[TOMOVE] != player:
        if s[PHASE] != PH_FLIP:
            raise ValueError("state: another player is in the middle of a turn")
        advance_to(s, deck, player)
    return s


def shortest_escape(state: Any, deck: Any, player: int, max_depth: int, node_limit: int, time_limit: float,
                    moves: Any, stop: Any) -> tuple[int, int, int, int]:
    """Fewest own turns for ``player`` to leave the forest, knowing every card (IDA*, admissible bound).

    The other players' turns change nothing (solitaire). Returns ``(status, length, bound, nodes)``:
    status 0 found (``moves[:decisions]`` holds the actions, ``length`` turns, proven shortest), 1 no escape
    within ``max_depth`` turns (``bound`` = max_depth + 1, or ``2**20`` when no path can ever lead out),
    2 stopped by ``node_limit`` / ``time_limit`` / ``stop[0]`` set by another thread (``bound`` = proven lower bound).
    ``stop`` has 1 to 3 entries: ``stop[0]`` is read; while the search runs it writes, for another thread to read,
    ``stop[1]`` = the bound of the iteration under way (no escape in fewer own turns: proven) and ``stop[2]`` = the
    nodes searched so far / 1024 (saturating).
    """
    s = _solitaire_root(state, deck, player)
    if max_depth < 1 or max_depth > 64 or len(moves) < 3 * max_depth:
        raise ValueError("max_depth must be 1..64 and moves hold 3 * max_depth entries")
    if not 1 <= len(stop) <= 3:
        raise ValueError("stop: expected 1 to 3 entries")
    union = _union_exits(s, deck)
    rf = [0] * CELLS
    field(union, rf)
    bound = _h(s, deck, player, union, rf)
    if bound >= INF:
        return 1, 0, INF, 0
    nodes = 0
    deadline = time.perf_counter() + time_limit if time_limit > 0 else 0.0
    while bound <= max_depth:
        if len(stop) >= 2:
            stop[1] = bound
        search = _Search(deck, player, union, node_limit - nodes if node_limit > 0 else 0, deadline, moves,
                         True, True, 1)
        search.stop = stop
        search.progress = stop if len(stop) == 3 else None
        search.base_nodes = nodes
        found = search.dfs(s, 1, bound, 0)
        nodes += search.nodes
        if found:
            return 0, search.length, search.length, nodes
        if search.stopped:
            return 2, 0, bound, nodes
        if search.next_bound >= INF:
            return 1, 0, INF, nodes
        bound = search.next_bound
    return 1, 0, max_depth + 1, nodes


def count_solutions(state: Any, deck: Any, player: int, depth: int, limit: int, node_limit: int,
                    time_limit: float = 0.0, stop: Any = None) -> tuple[int, int, int]:
    """How many decision sequences make ``player`` leave within ``depth`` own turns (counting stops at ``limit``).

    Returns ``(count, nodes, complete)``; ``complete`` is 0 when ``node_limit``, ``time_limit`` (seconds, 0: none)
    or ``stop[0]`` set by another thread (polled every 1024 nodes) stopped the count.
    """
    s = _solitaire_root(state, deck, player)
    if depth < 1 or depth > 64 or limit < 1:
        raise ValueError("depth must be 1..64 and limit positive")
    if stop is not None and len(stop) < 1:
        raise ValueError("stop: expected at least 1 entry")
    deadline = time.perf_counter() + time_limit if time_limit > 0 else 0.0
    search = _Search(deck, player, _union_exits(s, deck), node_limit, deadline, [0] * (3 * depth), False, False,
                     limit)
    search.stop = stop
    search.dfs(s, 1, depth, 0)
    return min(search.count, limit), search.nodes, 0 if search.stopped else 1


def greedy_escape(state: Any, deck: Any, player: int, max_turns: int, tries: int, seed: int,
                  moves: Any) -> tuple[int, int]:
    """An upper bound for ``shortest_escape``: the shortest of ``tries`` solitaire runs of the greedy policy
    knowing every card. Returns ``(turns, decisions)`` with the run's actions in ``moves`` (``(-1, 0)``: no run
    left the forest within ``max_turns``)."""
    root = _solitaire_root(state, deck, player)
    if max_turns < 1 or max_turns > 1000 or tries < 1 or len(moves) < 3 * max_turns:
        raise ValueError("max_turns must be 1..1000, tries positive, and moves hold 3 * max_turns entries")
    for c in range(CELLS):
        root[SEEN + c] = (1 << root[NPLAYERS]) - 1
    rng = SplitMix64(seed)
    best, best_n = -1, 0
    for _ in range(tries):
        s = root[:]
        run: list[int] = []
        turns = 1
        limit = max_turns if best < 0 else best - 1
        while turns <= limit:
            a = greedy(s, deck, rng)
            run.append(a)
            apply(s, deck, a)
            if s[PHASE] == PH_OVER:
                if s[WINNER] == player:
                    best, best_n = turns, len(run)
                    for i, x in enumerate(run):
                        moves[i] = x
                break
            if s[PHASE] == PH_FLIP:
                advance_to(s, deck, player)
                turns += 1
                if s[PHASE] == PH_OVER:
                    break
    return best, best_n


def skip_to_player(state: Any, deck: Any, player: int) -> None:
    """Solitaire model: end the other players' turns in place without any flip until ``player`` is to move."""
    s = checked(state, deck)
    if not 0 <= player < s[NPLAYERS]:
        raise ValueError("player: out of range")
    if s[TOMOVE] != player and s[PHASE] != PH_FLIP:
        raise ValueError("state: another player is in the middle of a turn")
    if s[PHASE] != PH_OVER:
        advance_to(s, deck, player)
    for i in range(STATE_LEN):
        state[i] = s[i]
