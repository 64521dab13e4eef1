"""Pure-Python twin of ``src/memorinth_policy.pxd``: the random and greedy policies of the Memorinth playouts.

Same choices, same random numbers as the compiled policies (``solver/twins/memorinth_rules.py`` holds the rules).
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.twins.common import SplitMix64
from solver.twins.memorinth_rules import *  # noqa: F403 (the rules' names, as the kernel's ``cimport *``)

# -- policies ---------------------------------------------------------------------------------
def dist_of(d: list[int], cell: int) -> int:
    return d[cell] if d[cell] >= 0 else UNREACHABLE


def reveal_value(s: list[int], deck: Sequence[int], q: int, x: int, side: int, d: list[int]) -> int:
    """What revealing ``side`` on cell ``x`` is worth to player ``q`` (greedy: escape, or distance gained by the
    best move; a move is compulsory when there is one, MR-8; 0 without one)."""
    chars = deck[T_CHARS + side]
    p = s[PIECE + q]
    best = -INF
    for c in range(8):
        if not chars >> c & 1:
            continue
        loc = s[CHAR + c]
        if loc < 4:
            kind, t = move_result(s, deck, q, loc, x, side)
            if kind == 0:
                continue
            score = ESCAPE_SCORE if kind == 2 else dist_of(d, p) - dist_of(d, t)
            if score > best:
                best = score
    return best if best > -INF else 0


def pick_best(values: list[tuple[int, int, int]], rng: SplitMix64) -> int:
    """``values`` are ``(action, total, count)``; the best mean wins, ties broken at random."""
    best: list[int] = []
    bt, bc = 0, 1
    for a, t, c in values:
        if not best or t * bc > bt * c:
            best, bt, bc = [a], t, c
        elif t * bc == bt * c:
            best.append(a)
    return best[rng.below_scaled(len(best))] if len(best) > 1 else best[0]


def greedy(s: list[int], deck: Sequence[int], rng: SplitMix64) -> int:
    actions = legal(s, deck)
    q = s[TOMOVE]
    p = s[PIECE + q]
    d = [0] * CELLS
    field(exits_of(s, deck), d)
    phase = s[PHASE]
    if phase == PH_FLIP:
        if actions[0] == A_PASS:
            return A_PASS
        if rng.below_scaled(EXPLORE) == 0:  # one flip in 16 at random: no endless loops between zero-value flips
            return actions[rng.below_scaled(len(actions))]
        bit = 1 << q
        pools: list[list[int]] = [[], []]
        for c in range(CELLS):
            if not knows_under(s, c, bit):
                pools[s[UP + c] & 1].append(s[DOWN + c])
        vals = []
        for x in actions:
            sides = [s[DOWN + x]] if knows_under(s, x, bit) else pools[s[UP + x] & 1]
            total = 0
            for side in sides:
                total += reveal_value(s, deck, q, x, side, d)
            vals.append((x, total, len(sides)))
        return pick_best(vals, rng)
    if phase == PH_CHOOSE:
        vals = []
        for a in actions:
            loc = s[CHAR + a - A_CHOOSE]
            if loc < 4:
                kind, t = move_result(s, deck, q, loc, -1, -1)
                score = ESCAPE_SCORE if kind == 2 else dist_of(d, p) - dist_of(d, t)
            else:
                score = 0
            vals.append((a, score, 1))
        return pick_best(vals, rng)
    pend = s[PENDING]
    if pend == ACT_SWAPCARDS:  # only swaps that bring a new card next to the piece are weighed
        near = [a for a in actions if touches_neighbour(a - A_SWAPCARDS, p)]
        if not near:
            return actions[rng.below_scaled(len(actions))]
        actions = near
    if pend < 4 or pend == ACT_SWAPCARDS:
        vals = []
        d2 = [0] * CELLS
        for a in actions:
            t = s[:]
            if pend < 4:
                shift(t, pend, a - A_SHIFT)
            else:
                x, y = pair_from_index(a - A_SWAPCARDS, CELLS)
                swap_cells(t, x, y)
            field(exits_of(t, deck), d2)
            vals.append((a, dist_of(d, p) - dist_of(d2, t[PIECE + q]), 1))
        return pick_best(vals, rng)
    if pend == ACT_CLOVER:
        best, most = actions[0], -1
        for a in actions:
            if s[CLOVER + a - A_CLOVER] > most:
                best, most = a, s[CLOVER + a - A_CLOVER]
        return best
    if pend == ACT_PEEK:
        unseen = [a for a in actions if not knows_under(s, a - A_PEEK, 1 << q)]
        pool = unseen or actions
        return pool[rng.below_scaled(len(pool))]
    return actions[rng.below_scaled(len(actions))]


def touches_neighbour(pair: int, p: int) -> bool:
    x, y = pair_from_index(pair, CELLS)
    return any(neighbor(p, d) in (x, y) for d in range(4))


def choose_action(s: list[int], deck: Sequence[int], policy: int, rng: SplitMix64) -> int:
    if policy == POLICY_GREEDY:
        return greedy(s, deck, rng)
    actions = legal(s, deck)
    return actions[rng.below_scaled(len(actions))] if len(actions) > 1 else actions[0]
