"""Pure-Python twin of ``src/aetherya_play.pxi``: greedy Aetherya playouts on a packed state vector.

Same functions, same signatures, same results as the compiled kernel
(``solver.kernels.aetherya``), random numbers included (splitmix64), so
that the tests can check them against each other move for move.

A position is packed by ``solver.aetherya.playout.pack`` into one int32
vector (layout below) at the start of a turn. ``playout`` plays it to the end
with the greedy policy of ``docs/rules/aetherya.md`` ("Playouts") for every
player and writes each seat's return: the final score (base, objects), the
team score (co-op) or the campaign score (solo).

Greedy policy, for the player to move: take the top discard if its best
placement raises the player's value, otherwise draw and place the card where
it raises the value most, or discard it and reveal a random Unexplored
Territory when no placement raises it. The value is the board total, plus the
points of the best Legend that could be claimed (base, objects). Claims take
the highest-scoring Legend; co-op writes every Legend met and the group
discards the cheapest Legend after a round without writing. Ties between cells
are broken at random.

Solo policy (``_solo_turn``): the discard top plus one drawn card, keep the
card with the best move by ``_solo_value`` (how close each Legend of the Age
still to write is, ``_needs_of``; the board total once they are written),
never turning the last face-down card while Legends are left; between Ages the
2x2 block closest to the next Age's Legends (``docs/rules/aetherya.md``,
"Solo policy").
"""

from __future__ import annotations

import numpy as np

from solver.twins.aetherya_opt import _connect
from solver.twins.common import SplitMix64, stream_seed

# layout of the packed state (int32)
MODE, PLAYERS, TO_MOVE, TURN, AGE, AGE_SUM, WROTE, LD_POINTS, ROW_TARGET, FAILED = range(10)
PILE, HID, HELD, ACC, STF, CARDS, ROW, DECK, SROW, WRIT, DLEN, DISC = 10, 20, 24, 28, 32, 40, 110, 130, 150, 170, 190, 200
DISC_CAP = 80
#: a turn under way (base and co-op): PHASE_DRAW a card is to be drawn and played, PHASE_PLACE the card HOLD is
#: to be played (HOLD_FROM 0: taken from a discard pile, 1: drawn), PHASE_END the end of the turn is left
PHASE, HOLD, HOLD_FROM = 104, 105, 106
PHASE_START, PHASE_DRAW, PHASE_PLACE, PHASE_END = range(4)
LENGTH = 360
BASE, OBJECTS, COOP, SOLO = range(4)
MAX_TURNS = 3000
MASK64 = (1 << 64) - 1

PLAINS, FOREST, MOUNTAIN, SWAMP, HUMANS, ELVES, DWARVES, GOBLINS, DRAGON, PORTAL, UNEXPLORED = range(11)
DRAGON_VALUE = (0, 3, 5, 6)
LEGEND_POINTS = (0, 2, 2, 2, 2, 2, 2, 4, 3, 3, 3, 3, 4, 4, 4, 4)
RING_MASK = 0xF99F  # every cell but b2 c2 b3 c3
CENTRE = (5, 6, 9, 10)
COL_A, COL_D, FULL = 0x1111, 0x8888, 0xFFFF


# ---------------------------------------------------------------------- random numbers
def _next(rng: list[int]) -> int:
    """The next number of the stream kept in ``rng[0]`` (``common.splitmix64``)."""
    stream = SplitMix64(rng[0])
    value = stream.next()
    rng[0] = stream.state
    return value


def _below(rng: list[int], n: int, stream: int = 0) -> int:
    """A number below ``n`` from one of the streams (see :func:`_seed_streams`)."""
    word = SplitMix64(rng[stream])
    value = word.below_high(n)
    rng[stream] = word.state
    return value


POLICY_STREAM, CARD_STREAM, LEGEND_STREAM, SEED_WORD = range(4)


def _seed_streams(rng: list[int], seed: int, age: int) -> None:
    """The four words of a playout: the policy's choices, the cards drawn, the Legends dealt, the seed. Separate
    streams make a playout's draws the same whatever the policy chose (common random numbers for the candidates a
    hint compares); a solo Age restarts every stream from the seed and the Age's number."""
    base = [(seed ^ (age * 0xD1B54A32D192ED03)) & MASK64]
    cards = base[0]
    policy = _next(base) ^ 0x5851F42D4C957F2D
    legends = _next(base) ^ 0x2545F4914F6CDD1D
    rng[:] = [policy, cards, legends, seed]


# ---------------------------------------------------------------------- scoring
def _spread(m: int) -> int:
    return (((m << 1) & ~COL_A) | ((m >> 1) & ~COL_D) | (m << 4) | (m >> 4)) & FULL


def _pop(m: int) -> int:
    return bin(m).count("1")


def _score(k: list[int], accords: int, staffs: int) -> tuple[int, int]:
    """Board total (Accords and Staffs applied) and the satisfied-Legend mask of 16 codes."""
    kinds = [0] * 11
    for c in range(16):
        kinds[k[c]] |= 1 << c
    ortho, conn = _connections(k)
    P, F, M, S = kinds[PLAINS], kinds[FOREST], kinds[MOUNTAIN], kinds[SWAMP]
    H, E, D, G = kinds[HUMANS], kinds[ELVES], kinds[DWARVES], kinds[GOBLINS]
    total = 0
    pairs = 0
    legends = 0
    tamed = 0
    for c in range(16):
        m = conn[c]
        kind = k[c]
        if kind == ELVES:
            total += 2 * _pop(m & F) - _pop(m & S)
            if not accords >> c & 1:
                pairs += _pop(m & D & ~accords)
            if m & H:
                legends |= 1 << 0
            if m & E:
                legends |= 1 << 4
            if _pop(m & G) >= 2:
                legends |= 1 << 8
            if _pop(m & D) >= 2:
                legends |= 1 << 10
        elif kind == DWARVES:
            total += 2 * _pop(m & M)
            if m & H:
                legends |= 1 << 1
            if m & D:
                legends |= 1 << 5
            if _pop(m & G) >= 2:
                legends |= 1 << 9
            if _pop(m & E) >= 2:
                legends |= 1 << 10
        elif kind == HUMANS:
            total += 2 * _pop(m & P) + _pop(m & F) + _pop(m & M) - _pop(m & S)
            if m & E:
                legends |= 1 << 0
            if m & D:
                legends |= 1 << 1
            if m & H:
                legends |= 1 << 3
            if _pop(m & G) >= 2:
                legends |= 1 << 7
        elif kind == GOBLINS:
            total += 3 * _pop(ortho[c] & S)
            if not accords >> c & 1:
                pairs += _pop(m & (H | E | D) & ~accords)
            if ortho[c] & G:
                legends |= 1 << 2
            if _pop(ortho[c] & H) >= 2:
                legends |= 1 << 7
            if _pop(ortho[c] & E) >= 2:
                legends |= 1 << 8
            if _pop(ortho[c] & D) >= 2:
                legends |= 1 << 9
        elif kind == DRAGON:
            if staffs >> c & 1 or _pop(m & H) >= 2 or _pop(m & E) >= 2 or _pop(m & D) >= 2:
                tamed += 1
        elif kind == PLAINS:
            if _pop(m & P) >= 2:
                legends |= 1 << 11
        elif kind == SWAMP:
            if _pop(m & S) >= 2:
                legends |= 1 << 12
        elif kind == MOUNTAIN:
            if _pop(m & M) >= 2:
                legends |= 1 << 13
        elif kind == FOREST:
            if _pop(m & F) >= 2:
                legends |= 1 << 14
    if H and E and D and G:
        legends |= 1 << 6
    n = _pop(kinds[DRAGON])
    value = DRAGON_VALUE[3 if n > 3 else n]
    counted = 3 if tamed > 3 else tamed
    total += value * counted - value * (n - counted) - 2 * pairs
    return total, legends


def _board(s: list[int], seat: int) -> list[int]:
    hidden = s[HID + seat]
    return [UNEXPLORED if hidden >> c & 1 else s[CARDS + seat * 16 + c] for c in range(16)]


def _value(s: list[int], seat: int, k: list[int]) -> int:
    total, legends = _score(k, s[ACC + seat], s[STF + seat])
    mode = s[MODE]
    if mode == BASE or mode == OBJECTS:
        best = 0
        for n in range(1, 16):
            if s[ROW + n] and legends >> (n - 1) & 1 and LEGEND_POINTS[n] > best:
                best = LEGEND_POINTS[n]
        total += best
    elif mode == SOLO:
        for n in range(1, 16):
            if s[SROW + n] == s[AGE] + 1 and not s[WRIT + n] and legends >> (n - 1) & 1:
                total += 10
    return total


def _keep_best(v: int, c: int, best_cell: int, best_value: int, ties: int, rng: list[int]) -> tuple[int, int, int]:
    """Keep the best cell seen so far; among equal values each is kept with equal chance (reservoir draw)."""
    if v > best_value:
        return c, v, 1
    if v == best_value:
        ties += 1
        if _below(rng, ties) == 0:
            best_cell = c
    return best_cell, best_value, ties


def _best_place(s: list[int], seat: int, card: int, rng: list[int]) -> tuple[int, int]:
    """The cell where ``card`` gives ``seat`` the best value (random tie-break) and that value."""
    k = _board(s, seat)
    hidden = s[HID + seat]
    best_cell, best_value, ties = -1, -(1 << 30), 0
    for c in range(16):
        old = k[c]
        if not hidden >> c & 1 and (old == DRAGON or old == PORTAL or old == card):
            continue
        k[c] = card
        v = _value(s, seat, k)
        k[c] = old
        best_cell, best_value, ties = _keep_best(v, c, best_cell, best_value, ties, rng)
    return best_cell, best_value


# ---------------------------------------------------------------------- piles
def _draw(s: list[int], rng: list[int]) -> int:
    """A card from the pile, from the card stream."""
    total = sum(s[PILE:PILE + 10])
    r = _below(rng, total, CARD_STREAM)
    for kind in range(10):
        if r < s[PILE + kind]:
            s[PILE + kind] -= 1
            return kind
        r -= s[PILE + kind]
    raise AssertionError("empty pile")


def _push(s: list[int], pile: int, card: int) -> None:
    n = s[DLEN + pile]
    if n < DISC_CAP:
        s[DISC + pile * DISC_CAP + n] = card
        s[DLEN + pile] = n + 1


def _pop_discard(s: list[int], pile: int) -> int:
    s[DLEN + pile] -= 1
    return s[DISC + pile * DISC_CAP + s[DLEN + pile]]


def _pile_total(s: list[int]) -> int:
    return sum(s[PILE:PILE + 10])


def _place(s: list[int], seat: int, cell: int, card: int) -> None:
    """Put ``card`` on ``cell``; the card it replaces goes to the first discard pile."""
    _push(s, 0, s[CARDS + seat * 16 + cell])
    s[CARDS + seat * 16 + cell] = card
    s[HID + seat] &= ~(1 << cell)
    s[ACC + seat] &= ~(1 << cell)


def _reveal_random(s: list[int], seat: int, rng: list[int]) -> None:
    hidden = s[HID + seat]
    r = _below(rng, _pop(hidden))
    for c in range(16):
        if hidden >> c & 1:
            if r == 0:
                s[HID + seat] &= ~(1 << c)
                return
            r -= 1


def _refill(s: list[int], rng: list[int]) -> None:
    while True:
        visible = sum(s[ROW + 1:ROW + 16])
        deck = sum(s[DECK + 1:DECK + 16])
        if visible >= s[ROW_TARGET] or deck == 0:
            return
        r = _below(rng, deck, LEGEND_STREAM)
        for n in range(1, 16):
            if s[DECK + n]:
                if r == 0:
                    s[DECK + n] = 0
                    s[ROW + n] = 1
                    break
                r -= 1


def _claimable_mask(s: list[int], seat: int) -> int:
    return _score(_board(s, seat), s[ACC + seat], s[STF + seat])[1]


# ---------------------------------------------------------------------- one turn
def _turn(s: list[int], rng: list[int]) -> int:
    """Play the greedy turn of the player to move. Returns 1 when the game (or the Age) ends by placement."""
    seat = s[TO_MOVE]
    cur = _value(s, seat, _board(s, seat))
    piles = 2 if s[MODE] == COOP else 1
    best_pile, best_cell, best_v = -1, -1, -(1 << 30)
    for pile in range(piles):
        if s[DLEN + pile] > 0:
            top = s[DISC + pile * DISC_CAP + s[DLEN + pile] - 1]
            cell, v = _best_place(s, seat, top, rng)
            if v > best_v:
                best_pile, best_cell, best_v = pile, cell, v
    if best_pile >= 0 and (best_v > cur or _pile_total(s) == 0):
        card = _pop_discard(s, best_pile)
        _place(s, seat, best_cell, card)
    else:
        card = _draw(s, rng)
        cell, v = _best_place(s, seat, card, rng)
        if v > cur:
            _place(s, seat, cell, card)
        else:
            _push(s, 0, card)
            _reveal_random(s, seat, rng)
    return 1 if s[HID + seat] == 0 else 0


# ---------------------------------------------------------------------- solo: writing the Age's Legends
# The solo policy values a kingdom by how close it is to each Legend of the Age still to write: the fewest
# cards to place to meet it ("need"), with only the copies of a kind still to come (public information:
# the solo deck holds 4 of each kind, minus those face up and those buried in the discard).
BIG = 99
NEG = -(1 << 30)
NEED_SCALE = 10      # a step closer to a Legend outweighs the board total (which breaks ties)
REVEAL_COST = 30     # a reveal, valued at its expectation, is chosen over a placement only when it beats it
REVEAL_COST_AFTER = 5    # by this much (Legends left to write) or by this much (the Age's Legends written)
# by need 0 (writable now), 1, 2, 3, 4, 5 or more: each step closer is worth more the further the Legend still is,
# so that the policy works on every Legend of the Age, the far ones (3 linked lands) included
NEED_WEIGHT = (500, 490, 470, 440, 400, 350)
PAIRS = {1: (HUMANS, ELVES, False), 2: (HUMANS, DWARVES, False), 3: (GOBLINS, GOBLINS, True),
         4: (HUMANS, HUMANS, False), 5: (ELVES, ELVES, False), 6: (DWARVES, DWARVES, False)}
BATTLES = {8: (GOBLINS, HUMANS), 9: (GOBLINS, ELVES), 10: (GOBLINS, DWARVES), 11: (ELVES, DWARVES)}
CHAINS = {12: PLAINS, 13: SWAMP, 14: MOUNTAIN, 15: FOREST}


def _connections(k: list[int]) -> tuple[list[int], list[int]]:
    """Orthogonal neighbours and connected cells (Portal hubs, AE-2) of every cell, as bitmasks."""
    return _connect(sum(1 << c for c in range(16) if k[c] == PORTAL))


def _cell_cost(k: list[int], c: int, kind: int) -> int:
    """Cards to place to have ``kind`` on cell ``c``: 0 if it is there, 1 if the cell can take it, else BIG."""
    if k[c] == kind:
        return 0
    if k[c] == DRAGON or k[c] == PORTAL:
        return BIG
    return 1


def _two_cheapest(zero: int, one: int, cells: int) -> tuple[int, int]:
    """The two smallest :func:`_cell_cost` over the cells of the mask ``cells`` (BIG for none), from the masks of the
    cells that cost 0 and 1 (every other cell costs BIG)."""
    z, o = cells & zero, cells & one
    first = 0 if z else 1 if o else BIG
    second = 0 if z & (z - 1) else 1 if (z and o) or o & (o - 1) else BIG
    return first, second


def _needs_of(k: list[int], avail: list[int]) -> list[int]:
    """``out[n]`` (n = 1..15): the fewest cards to place in ``k`` to meet Legend n with the copies in ``avail``.

    A Legend's second card (or pair of cards) is the cheapest the first card's cell reaches: a cheaper one never
    breaks the copies' bound that a dearer one keeps."""
    ortho, conn = _connections(k)
    costs = [[_cell_cost(k, c, kind) for c in range(16)] for kind in range(PORTAL)]   # every kind a Legend names
    zero = [sum(1 << c for c in range(16) if cost[c] == 0) for cost in costs]
    one = [sum(1 << c for c in range(16) if cost[c] == 1) for cost in costs]
    out = [BIG] * 16
    for n, (a, b, orthogonal) in PAIRS.items():
        best = BIG
        for c in range(16):
            ca = costs[a][c]
            if ca >= BIG:
                continue
            cb = _two_cheapest(zero[b], one[b], ortho[c] if orthogonal else conn[c])[0]
            if cb >= BIG or ((ca + cb > avail[a]) if a == b else (ca > avail[a] or cb > avail[b])):
                continue
            if ca + cb < best:
                best = ca + cb
        out[n] = best
    missing = 0
    for kind in (HUMANS, ELVES, DWARVES, GOBLINS):
        if kind not in k:
            if avail[kind] < 1:
                missing = BIG
                break
            missing += 1
    out[7] = missing
    for n, (x, y) in BATTLES.items():
        best = BIG
        for mid, side in ((x, y), (y, x)):
            for c in range(16):
                ca = costs[mid][c]
                if ca >= BIG:
                    continue
                first, second = _two_cheapest(zero[side], one[side], ortho[c] if mid == GOBLINS else conn[c])
                if second >= BIG or ca > avail[mid] or first + second > avail[side]:
                    continue
                if ca + first + second < best:
                    best = ca + first + second
        out[n] = best
    for n, kind in CHAINS.items():
        best = BIG
        for c in range(16):
            ca = costs[kind][c]
            if ca >= BIG:
                continue
            first, second = _two_cheapest(zero[kind], one[kind], conn[c])
            if second >= BIG or ca + first + second > avail[kind]:
                continue
            if ca + first + second < best:
                best = ca + first + second
        out[n] = best
    return out


def _solo_avail(s: list[int]) -> list[int]:
    """Copies of each kind still to come in the solo deck (4 each): not face up, not buried in the discard."""
    avail = [4] * 10
    for c in range(16):
        card = s[CARDS + c]
        if not s[HID] >> c & 1 and card < 10:
            avail[card] -= 1
    for i in range(s[DLEN] - 1):
        avail[s[DISC + i]] -= 1
    return [max(0, a) for a in avail]


def _solo_left(s: list[int]) -> int:
    """Bit n: Legend n is in the current Age's row and not written yet."""
    return sum(1 << n for n in range(1, 16) if s[SROW + n] == s[AGE] + 1 and not s[WRIT + n])


def _solo_value(k: list[int], avail: list[int], left: int) -> int:
    """The solo policy's value of a kingdom: the board total once the Age's Legends are written; before, how
    close each Legend still to write is (need 0 = writable now), the board total breaking ties."""
    total = _score(k, 0, 0)[0]
    if not left:
        return total
    need = _needs_of(k, avail)
    v = sum(NEED_WEIGHT[min(need[n], 5)] for n in range(1, 16) if left >> n & 1 and need[n] < BIG)
    return v * NEED_SCALE + total


def _avail_after(base: list[int], kept: int, other: int, freed: int) -> list[int]:
    """The copies still to come after a move: ``base`` minus the card kept when it goes face up, minus the pair's
    other card (buried in the discard), plus a face-up card that goes back on top of the discard (-1: none)."""
    avail = list(base)
    if kept >= 0:
        avail[kept] -= 1
    if other >= 0:
        avail[other] -= 1
    if freed >= 0:
        avail[freed] += 1
    return [max(0, a) for a in avail]


def _c_div(a: int, b: int) -> int:
    """Integer division truncated toward zero (C's ``/``)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _place_value(k: list[int], hidden: int, c: int, card: int, other: int, base: list[int], left: int) -> int:
    """The solo value after placing ``card`` on cell ``c``."""
    old = k[c]
    avail = _avail_after(base, card, other, -1 if hidden >> c & 1 else old)
    k[c] = card
    v = _solo_value(k, avail, left)
    k[c] = old
    return v


def _reveal_value(k: list[int], c: int, kept: int, other: int, base: list[int], left: int) -> int:
    """The expected solo value of discarding ``kept`` and revealing cell ``c``: the card found is any of the
    unseen cards (the copies still to come but the discard top, ``kept``), each kind with its share."""
    after = _avail_after(base, -1, other, -1)
    after[kept] -= 1
    total = sum(a for a in after if a > 0)
    if total == 0:
        return NEG
    acc = 0
    for kind in range(10):
        if after[kind] <= 0:
            continue
        k[c] = kind
        acc += after[kind] * _solo_value(k, _avail_after(base, kind, other, -1), left)
    k[c] = UNEXPLORED
    return _c_div(acc, total)


def _may_turn(hidden: int, c: int, protect: int) -> bool:
    """A face-down cell may be turned unless it is the last one and ``protect``."""
    return not (protect and _pop(hidden) == 1 and hidden >> c & 1)


def _solo_best_place(k: list[int], hidden: int, card: int, other: int, base: list[int], left: int, protect: int,
                     rng: list[int]) -> tuple[int, int]:
    """The best cell for ``card`` by ``_solo_value`` (random tie-break) and its value; with ``protect``, never
    the last face-down cell. Cell -1 when no cell is allowed."""
    best_cell, best_value, ties = -1, NEG, 0
    for c in range(16):
        old = k[c]
        if hidden >> c & 1:
            if not _may_turn(hidden, c, protect):
                continue
        elif old == DRAGON or old == PORTAL or old == card:
            continue
        v = _place_value(k, hidden, c, card, other, base, left)
        best_cell, best_value, ties = _keep_best(v, c, best_cell, best_value, ties, rng)
    return best_cell, best_value


def _solo_best_reveal(k: list[int], hidden: int, kept: int, other: int, base: list[int], left: int, protect: int,
                      rng: list[int]) -> tuple[int, int]:
    """The face-down cell whose reveal is worth most in expectation (random tie-break) and that value minus the
    reveal's cost; cell -1 when none may be turned."""
    best_cell, best_value, ties = -1, NEG, 0
    for c in range(16):
        if not hidden >> c & 1 or not _may_turn(hidden, c, protect):
            continue
        v = _reveal_value(k, c, kept, other, base, left)
        best_cell, best_value, ties = _keep_best(v, c, best_cell, best_value, ties, rng)
    if best_cell >= 0:
        best_value -= REVEAL_COST if left else REVEAL_COST_AFTER
    return best_cell, best_value


def _solo_turn(s: list[int], rng: list[int]) -> int:
    """One solo turn: the discard top and a drawn card (two drawn cards when the discard is empty, the pile's
    one card alone when it holds one and the discard is empty, AE-33); keep the card whose best move by
    ``_solo_value`` is worth most: a placement, or for a drawn card discarding it and revealing the face-down
    cell worth most in expectation; the other card is discarded. While Legends are left to write, and until the
    pile's last card, the last face-down card is never turned: that would end the Age early."""
    left, hidden = _solo_left(s), s[HID]
    k = _board(s, 0)
    base = _solo_avail(s)
    a, a_draw = -1, 0
    if s[DLEN] > 0:
        a = _pop_discard(s, 0)
    elif _pile_total(s) >= 2:
        a, a_draw = _draw(s, rng), 1
    b = _draw(s, rng)
    protect = left != 0 or _pile_total(s) > 0  # turning the last face-down card would end the Age before its time
    cell_b, vb = _solo_best_place(k, hidden, b, a, base, left, protect, rng)
    rcell_b, rb = _solo_best_reveal(k, hidden, b, a, base, left, protect, rng)
    cell_a, va, rcell_a, ra = -1, NEG, -1, NEG
    if a >= 0:
        cell_a, va = _solo_best_place(k, hidden, a, b, base, left, protect, rng)
    if a_draw:
        rcell_a, ra = _solo_best_reveal(k, hidden, a, b, base, left, protect, rng)
    # the options in order (a later one must be strictly better): place b, reveal with b, place a, reveal with a
    card, other, cell, reveal_cell, v = b, a, cell_b, -1, vb if cell_b >= 0 else NEG
    if rcell_b >= 0 and rb > v:
        cell, reveal_cell, v = -1, rcell_b, rb
    if cell_a >= 0 and va > v:
        card, other, cell, v = a, b, cell_a, va
    if rcell_a >= 0 and ra > v:
        card, other, cell, reveal_cell, v = a, b, -1, rcell_a, ra
    if cell < 0 and reveal_cell < 0:  # every option would turn the last face-down card: place b there
        card, other, cell = b, a, (hidden & -hidden).bit_length() - 1
    if other >= 0:
        _push(s, 0, other)
    if cell >= 0:
        _place(s, 0, cell, card)
    else:
        _push(s, 0, card)
        s[HID] &= ~(1 << reveal_cell)
    return 1 if s[HID] == 0 else 0


def _claim_best(s: list[int], seat: int) -> None:
    mask = _claimable_mask(s, seat)
    best = 0
    for n in range(1, 16):
        if not mask >> (n - 1) & 1:
            continue
        if s[MODE] == SOLO:
            ok = s[SROW + n] == s[AGE] + 1 and not s[WRIT + n]
        else:
            ok = s[ROW + n] == 1
        if ok and (best == 0 or LEGEND_POINTS[n] > LEGEND_POINTS[best]):
            best = n
    if best == 0:
        return
    if s[MODE] == SOLO:
        s[WRIT + best] = 1
    else:
        s[ROW + best] = 0
        s[HELD + seat] += LEGEND_POINTS[best]


def _age_end(s: list[int], rng: list[int]) -> int:
    """Score the Age; returns 1 when the campaign is over."""
    s[HID] = 0
    age = s[AGE]
    objective = 0
    for n in range(1, 16):
        if s[SROW + n] == age + 1:
            if not s[WRIT + n]:
                s[FAILED] = 1
                return 1
            objective += LEGEND_POINTS[n]
    s[AGE_SUM] += _score(_board(s, 0), 0, 0)[0] - objective
    if age == 2:
        return 1
    s[AGE] = age + 1
    _seed_streams(rng, rng[SEED_WORD], age + 1)  # the next Age's draws do not depend on this Age's choices
    for n in range(1, 16):
        s[WRIT + n] = 0
    k = _board(s, 0)
    left = _solo_left(s)
    best_corner, best_v, ties = 0, -(1 << 30), 0
    for corner in (0, 1, 2, 4, 5, 6, 8, 9, 10):
        block = [UNEXPLORED] * 16
        for i, cell in enumerate((corner, corner + 1, corner + 4, corner + 5)):
            block[CENTRE[i]] = k[cell]
        avail = [4] * 10
        for c in CENTRE:
            avail[block[c]] -= 1
        v = _solo_value(block, avail, left)  # the 2x2 closest to the next Age's Legends
        best_corner, best_v, ties = _keep_best(v, corner, best_corner, best_v, ties, rng)
    kept = [k[c] for c in (best_corner, best_corner + 1, best_corner + 4, best_corner + 5)]
    for kind in range(10):
        s[PILE + kind] = 4
    for kind in kept:
        s[PILE + kind] -= 1
    s[DLEN] = 0
    for c in range(16):
        s[CARDS + c] = UNEXPLORED
    for i in range(4):
        s[CARDS + CENTRE[i]] = kept[i]
    for c in range(16):
        if RING_MASK >> c & 1:
            s[CARDS + c] = _draw(s, rng)
    s[HID] = RING_MASK
    _push(s, 0, _draw(s, rng))
    return 0


def _discard_cheapest(s: list[int]) -> None:
    """AE-38, the greedy policy's choice: the group discards the cheapest Legend of the row (the lowest number
    among equals)."""
    cheapest = 0
    for n in range(1, 16):
        if s[ROW + n] and (cheapest == 0 or LEGEND_POINTS[n] < LEGEND_POINTS[cheapest]):
            cheapest = n
    s[ROW + cheapest] = 0
    s[LD_POINTS] += LEGEND_POINTS[cheapest]


def _end_of_turn(s: list[int], rng: list[int]) -> int:
    """Claims, refills, piles and the end conditions after a turn; returns 1 when the game is over."""
    seat = s[TO_MOVE]
    mode = s[MODE]
    if mode == COOP:
        mask = _claimable_mask(s, seat)
        for n in range(1, 16):
            if s[ROW + n] and mask >> (n - 1) & 1:
                s[ROW + n] = 0
                s[WROTE] = 1
        _refill(s, rng)
        if _pile_total(s) == 0 or _legends_gone(s):
            return 1
        if seat == s[PLAYERS] - 1:
            if not s[WROTE] and sum(s[ROW + 1:ROW + 16]):
                _discard_cheapest(s)
                _refill(s, rng)
                if _legends_gone(s):
                    return 1
            s[WROTE] = 0
    elif mode == SOLO:
        _claim_best(s, 0)
        if _pile_total(s) == 0:
            return _age_end(s, rng)
    else:
        _claim_best(s, seat)
        _refill(s, rng)
        if _pile_total(s) == 0:
            for i in range(s[DLEN]):
                s[PILE + s[DISC + i]] += 1
            s[DLEN] = 0
            if _pile_total(s) > 0:
                _push(s, 0, _draw(s, rng))
    s[TO_MOVE] = (seat + 1) % s[PLAYERS]
    s[TURN] += 1
    return 0


def _legends_gone(s: list[int]) -> bool:
    return sum(s[ROW + 1:ROW + 16]) == 0 and sum(s[DECK + 1:DECK + 16]) == 0


def _returns(s: list[int], out) -> None:
    players = s[PLAYERS]
    mode = s[MODE]
    if mode == SOLO:
        out[0] = 0 if s[FAILED] else s[AGE_SUM]
        out[1] = _solo_progress(s)
        return
    totals = []
    for p in range(players):
        s[HID + p] = 0
        totals.append(_score(_board(s, p), s[ACC + p], s[STF + p])[0] + (0 if mode == COOP else s[HELD + p]))
    for p in range(players):
        out[p] = min(totals) - s[LD_POINTS] if mode == COOP else totals[p]


def _solo_progress(s: list[int]) -> int:
    """Legends written over the campaign: the finished Ages' rows and the current Age's written ones."""
    done = 0
    for n in range(1, 16):
        if s[SROW + n] and (s[SROW + n] <= s[AGE] and not (s[FAILED] and s[SROW + n] == s[AGE] + 1)):
            done += 1
        elif s[SROW + n] == s[AGE] + 1 and s[WRIT + n]:
            done += 1
    return done


def _rest_of_turn(s: list[int], rng: list[int]) -> int:
    """Play the greedy rest of a turn under way (``PHASE``), as :func:`_turn` plays it once the card is chosen;
    returns 1 when the game ends."""
    seat, phase = s[TO_MOVE], s[PHASE]
    s[PHASE] = PHASE_START
    if phase in (PHASE_DRAW, PHASE_PLACE):
        cur = _value(s, seat, _board(s, seat))
        card = _draw(s, rng) if phase == PHASE_DRAW else s[HOLD]
        cell, v = _best_place(s, seat, card, rng)
        if (phase == PHASE_PLACE and s[HOLD_FROM] == 0) or v > cur:
            _place(s, seat, cell, card)
        else:
            _push(s, 0, card)
            _reveal_random(s, seat, rng)
        if s[HID + seat] == 0:
            return 1
    return _end_of_turn(s, rng)


def _run(s: list[int], rng: list[int], stop_age: int = -1) -> int:
    turns = 0
    if s[PHASE] != PHASE_START:
        turns = 1
        if _rest_of_turn(s, rng):
            return turns
    while turns < MAX_TURNS:
        if stop_age >= 0 and s[AGE] > stop_age:  # solo: the Age asked for is over (its score is in AGE_SUM)
            return turns
        turns += 1
        if s[MODE] == SOLO:
            if _solo_turn(s, rng):
                if _age_end(s, rng):
                    return turns
                continue
        elif _turn(s, rng):
            return turns
        if _end_of_turn(s, rng):
            return turns
    return turns


def _checked(state: np.ndarray) -> bool:
    if not 1 <= state[PLAYERS] <= 4 or not 0 <= state[MODE] <= 3:
        return False
    if any(not 0 <= x <= 10 for x in state[CARDS:CARDS + 64]) or any(not 0 <= x <= 9 for x in state[DISC:DISC + 2 * DISC_CAP]):
        return False
    if not all(0 <= state[DLEN + i] <= DISC_CAP for i in range(2)):
        return False
    return state[PHASE] == PHASE_START or (PHASE_START < state[PHASE] <= PHASE_END and state[MODE] in (BASE, COOP)
                                           and 0 <= state[HOLD] <= 9 and state[HOLD_FROM] in (0, 1))


# ---------------------------------------------------------------------- the player's own actions, packed
A_TAKE, A_DRAW, A_PLACE, A_REVEAL, A_CLAIM, A_END = 0, 2, 10, 42, 99, 131
#: what :func:`advance` answers: done; the state after the action is not one the packed vector follows; illegal
STEPPED, UNPACKED, ILLEGAL = 0, 1, 2
#: what :func:`_step` answers besides (``advance`` answers UNPACKED for them; ``evaluate_plans`` plays them with
#: :func:`_settle`): the game ends; Legends to deal, then the end of the turn; the co-op group discard (AE-38);
#: the discard pile reformed (AE-19)
OVER, DEAL, GROUP_DISCARD, REFORM = 3, 4, 5, 6
#: the hint's Python path deals with ``PlayoutRandom(seed, 1)`` (``solver.aetherya.playout``)
CHANCE_STREAM = 1
TURN_CAP = 1 << 20


def _refill_due(s: list[int]) -> bool:
    return sum(s[DECK + 1:DECK + 16]) > 0 and sum(s[ROW + 1:ROW + 16]) < s[ROW_TARGET]


def _next_player(s: list[int]) -> None:
    s[TO_MOVE] = (s[TO_MOVE] + 1) % s[PLAYERS]
    s[TURN] = min(s[TURN] + 1, TURN_CAP)
    s[PHASE] = PHASE_START


def _finish_turn(s: list[int]) -> int:
    """``AetheryaState._finish_turn`` (base and co-op) up to the next turn start (STEPPED), or what stops it."""
    seat = s[TO_MOVE]
    if s[MODE] == COOP:
        if _pile_total(s) == 0 or _legends_gone(s):
            return OVER
        if seat == s[PLAYERS] - 1:
            if not s[WROTE] and sum(s[ROW + 1:ROW + 16]):
                return GROUP_DISCARD
            s[WROTE] = 0
    elif _pile_total(s) == 0:
        return REFORM
    _next_player(s)
    return STEPPED


def _after_placement(s: list[int]) -> int:
    """The end of the turn after a card is placed or discarded: co-op writes every Legend met (AE-37), base
    stops at the end of the turn when a Legend can be claimed."""
    seat = s[TO_MOVE]
    s[HOLD] = s[HOLD_FROM] = 0
    s[PHASE] = PHASE_START
    if s[HID + seat] == 0:
        return OVER
    met = _claimable_mask(s, seat)
    for n in range(1, 16):
        if s[ROW + n] and met >> (n - 1) & 1:
            if s[MODE] != COOP:
                s[PHASE] = PHASE_END
                return STEPPED
            s[ROW + n] = 0
            s[WROTE] = 1
    if _refill_due(s):
        return DEAL if s[MODE] == COOP else UNPACKED  # (base deals only after a claim)
    return _finish_turn(s)


def _step(s: list[int], action: int) -> int:
    """Apply the action of the player to move (``solver.aetherya.state`` action codes) to the packed state."""
    mode, seat = s[MODE], s[TO_MOVE]
    piles = 2 if mode == COOP else 1
    hidden = s[HID + seat]
    if mode not in (BASE, COOP):
        return UNPACKED
    if s[PHASE] == PHASE_START:
        if A_TAKE <= action < A_TAKE + piles and s[DLEN + action] > 0:
            if s[DLEN + action] == DISC_CAP:
                return UNPACKED  # the vector holds the pile's last DISC_CAP cards only
            s[HOLD] = _pop_discard(s, action)
            s[DISC + action * DISC_CAP + s[DLEN + action]] = 0
            s[HOLD_FROM] = 0
            s[PHASE] = PHASE_PLACE
            return STEPPED
        if action == A_DRAW and _pile_total(s) > 0:
            s[PHASE] = PHASE_DRAW
            return STEPPED
        return ILLEGAL
    if s[PHASE] == PHASE_PLACE:
        reveal = action >= A_REVEAL
        n = action - (A_REVEAL if reveal else A_PLACE)
        if not 0 <= n < 16 * piles:
            return ILLEGAL
        pile, cell = divmod(n, 16)
        card = s[CARDS + seat * 16 + cell]
        if reveal and not (hidden >> cell & 1 and s[HOLD_FROM] == 1):
            return ILLEGAL
        if not reveal and not hidden >> cell & 1 and card in (DRAGON, PORTAL, s[HOLD]):
            return ILLEGAL
        if s[DLEN + pile] == DISC_CAP:
            return UNPACKED
        if reveal:
            _push(s, pile, s[HOLD])
        else:
            _push(s, pile, card)
            s[CARDS + seat * 16 + cell] = s[HOLD]
            s[ACC + seat] &= ~(1 << cell)
        s[HID + seat] &= ~(1 << cell)
        return _after_placement(s)
    if s[PHASE] == PHASE_END and mode == BASE:
        n = action - A_CLAIM
        if action == A_END:
            s[PHASE] = PHASE_START
            return _finish_turn(s)
        if 1 <= n <= 15 and s[ROW + n] and _claimable_mask(s, seat) >> (n - 1) & 1:
            s[ROW + n] = 0
            s[HELD + seat] += LEGEND_POINTS[n]
            s[PHASE] = PHASE_START
            if _refill_due(s):
                return DEAL
            return _finish_turn(s)  # one claim a turn: nothing is left to do
    return ILLEGAL


def _step_plan(s: list[int], plan) -> int:
    """Apply the plan's actions: STEPPED, ILLEGAL, UNPACKED, or (after its last action) what :func:`_settle`
    plays."""
    actions = [int(a) for a in plan]
    for i, action in enumerate(actions):
        if action < 0:
            break
        code = _step(s, action)
        if code != STEPPED:
            if code > ILLEGAL and i + 1 < len(actions) and actions[i + 1] >= 0:
                return UNPACKED  # actions left after a chance node: not a plan of one turn
            return code
    return STEPPED


# ---------------------------------------------------------------------- after a plan: chance nodes, group discard
# What the hint's Python path (``advance_to_turn_start`` with ``PlayoutRandom(seed, 1)`` for the chance nodes)
# plays on the full state after a plan that ends at a chance node or the co-op group discard, with the same random
# numbers (see the kernel).
def _chance_pick(stream: SplitMix64, weights: list[int]) -> int:
    """The index drawn among outcomes of weights ``weights`` (each > 0), as ``PlayoutRandom.choice`` draws it over
    ``AetheryaState.chance_outcomes``: the probabilities ``c / n`` normalised by their sum (added one by one),
    subtracted from a 53-bit uniform number."""
    total = sum(weights)
    probs = [w / total for w in weights]
    norm = 0.0
    for p in probs:
        norm += p
    u = (stream.next() >> 11) * (1.0 / (1 << 53))
    for i in range(len(probs) - 1):
        u -= probs[i] / norm
        if u < 0:
            return i
    return len(probs) - 1


def _deal_legends(s: list[int], stream: SplitMix64) -> None:
    """The row refilled from the Legend deck: one chance node a Legend."""
    while _refill_due(s):
        numbers = [n for n in range(1, 16) if s[DECK + n]]
        n = numbers[_chance_pick(stream, [1] * len(numbers))]
        s[DECK + n] = 0
        s[ROW + n] = 1


def _reform(s: list[int], stream: SplitMix64) -> int:
    """AE-19: the first discard pile becomes the draw pile and a card is dealt on it; then the next player."""
    if s[DLEN] == DISC_CAP:
        return UNPACKED  # the vector may hold only the pile's last DISC_CAP cards
    for i in range(s[DLEN]):
        s[PILE + s[DISC + i]] += 1
        s[DISC + i] = 0
    s[DLEN] = 0
    kinds = [k for k in range(10) if s[PILE + k]]
    if kinds:
        card = kinds[_chance_pick(stream, [s[PILE + k] for k in kinds])]
        s[PILE + card] -= 1
        _push(s, 0, card)
    _next_player(s)
    return STEPPED


def _group_discard(s: list[int], stream: SplitMix64) -> int:
    """AE-38 (:func:`_discard_cheapest`), the row refilled, the next round."""
    _discard_cheapest(s)
    _deal_legends(s, stream)
    if _legends_gone(s):
        return OVER
    s[WROTE] = 0
    _next_player(s)
    return STEPPED


def _settle(s: list[int], code: int, seed: int) -> int:
    """Play what follows a plan's ``code`` up to the next turn start (STEPPED) or the game's end (OVER);
    UNPACKED where the vector cannot follow."""
    stream = SplitMix64(stream_seed(seed, CHANCE_STREAM))
    while True:
        if code == DEAL:
            _deal_legends(s, stream)
            code = _finish_turn(s)
        elif code == GROUP_DISCARD:
            code = _group_discard(s, stream)
        elif code == REFORM:
            code = _reform(s, stream)
        else:
            return code


def advance(state: np.ndarray, action: int) -> int:
    """Apply ``action`` of the player to move to the packed ``state`` in place, as ``pack`` packs the state after
    it: 0 done, 1 the state after it is not one the vector follows, 2 not legal here (``state`` then unchanged).
    See the kernel's docstring."""
    if state.shape[0] != LENGTH:
        raise ValueError("advance: expected a packed state of length 360")
    if not _checked(state):
        raise ValueError("advance: the packed state holds an out-of-range value")
    s = [int(x) for x in state]
    code = _step(s, int(action))
    if code == STEPPED:
        state[:] = s
    return code if code <= ILLEGAL else UNPACKED


def evaluate_plans(world: np.ndarray, plans: np.ndarray, seed: int, out: np.ndarray, status: np.ndarray,
                   stop_age: int = -1) -> int:
    """Each row of ``plans`` (padded with -1) applied to the packed ``world`` by :func:`advance`, then played out
    with ``seed``: ``out[j]``, ``status[j]`` as the kernel writes them. Returns the number of turns played."""
    m = plans.shape[0]
    if world.shape[0] != LENGTH or out.shape[0] != m or out.shape[1] != 4 or status.shape[0] != m:
        raise ValueError("evaluate_plans: expected world (360,), plans (m, k), out (m, 4) and status (m,) int32")
    if not _checked(world):
        raise ValueError("evaluate_plans: the packed world holds an out-of-range value")
    total = 0
    for j in range(m):
        s = [int(x) for x in world]
        out[j] = 0
        code = _step_plan(s, plans[j])
        if code > ILLEGAL:
            code = _settle(s, code, int(seed) & MASK64)
        if code == OVER:
            _returns(s, out[j])
            code = STEPPED
        elif code == STEPPED:
            rng = [0] * 4
            _seed_streams(rng, int(seed) & MASK64, 0)
            total += _run(s, rng, stop_age)
            _returns(s, out[j])
        status[j] = code
    return total


def playout(state: np.ndarray, seed: int, out: np.ndarray, stop_age: int = -1) -> int:
    """Play the packed ``state`` (int32, length 360) to the end greedily; write each seat's return into ``out``
    (solo: ``out[0]`` the campaign score, ``out[1]`` the Legends written over the campaign).

    ``seed`` (0 <= seed < 2**64) seeds the splitmix64 generator. ``stop_age`` >= 0 (solo) stops the playout
    once Age index ``stop_age`` (0, 1, 2) is over: ``out[0]`` is then the sum of the finished Ages' scores
    (0 if an Age failed) and ``out[1]`` the Legends written so far. Returns the number of turns played.
    """
    if state.shape[0] != LENGTH or out.shape[0] < 2 or out.shape[0] < state[PLAYERS]:
        raise ValueError("playout: expected a packed state of length 360 and an output array")
    if not _checked(state):
        raise ValueError("playout: the packed state holds an out-of-range value")
    s = [int(x) for x in state]
    rng = [0] * 4
    _seed_streams(rng, int(seed) & MASK64, 0)
    turns = _run(s, rng, stop_age)
    _returns(s, out)
    return turns


def playout_batch(states: np.ndarray, seeds: np.ndarray, out: np.ndarray, stop_age: int = -1) -> int:
    """``playout`` for each row of ``states`` (n, 360) with ``seeds`` (n,) into ``out`` (n, 4), each stopped
    after Age ``stop_age`` when it is >= 0. Returns total turns."""
    if states.ndim != 2 or states.shape[1] != LENGTH or seeds.shape[0] != states.shape[0] \
            or out.shape[0] != states.shape[0] or out.shape[1] != 4:
        raise ValueError("playout_batch: expected states (n, 360) int32, seeds (n,) uint64, out (n, 4) int32")
    for i in range(states.shape[0]):
        if not _checked(states[i]):
            raise ValueError(f"playout_batch: states[{i}] holds an out-of-range value")
    total = 0
    for i in range(states.shape[0]):
        total += playout(states[i], int(seeds[i]), out[i], stop_age)
    return total


def board_value(cards: np.ndarray, accords: int, staffs: int) -> int:
    """The board total of 16 codes with Accord and Staff cells (the scorer the playouts use)."""
    if cards.shape[0] != 16 or any(not 0 <= int(x) <= 10 for x in cards):
        raise ValueError("board_value: expected 16 card codes in 0..10")
    return _score([int(x) for x in cards], int(accords), int(staffs))[0]


def legend_needs(cards: np.ndarray, avail: np.ndarray, out: np.ndarray) -> None:
    """``out[n]`` (n = 1..15; ``out[0]`` unused): the fewest cards to place in the kingdom ``cards`` (16 codes,
    10 = face down) to meet Legend n, using at most ``avail[kind]`` more copies of each kind; 99 when it cannot
    be met. A card is placed on any cell but a Portal or a Dragon (locked); connections as in AE-2."""
    if cards.shape[0] != 16 or avail.shape[0] != 10 or out.shape[0] != 16:
        raise ValueError("legend_needs: expected cards (16,), avail (10,) and out (16,) int32")
    if any(not 0 <= int(x) <= 10 for x in cards):
        raise ValueError("legend_needs: expected 16 card codes in 0..10")
    need = _needs_of([int(x) for x in cards], [max(0, int(a)) for a in avail])
    for n in range(16):
        out[n] = need[n]


def solo_moves(cards: np.ndarray, base: np.ndarray, card: int, other: int, left: int, protect: int,
               place_out: np.ndarray, reveal_out: np.ndarray) -> None:
    """The solo policy's values of every move with ``card``: ``place_out[c]`` placing it on cell ``c``,
    ``reveal_out[c]`` discarding it and revealing the face-down cell ``c`` (expected value minus the reveal's
    cost); ``NEG`` where the move is not allowed. See the kernel's docstring."""
    if cards.shape[0] != 16 or base.shape[0] != 10 or place_out.shape[0] != 16 or reveal_out.shape[0] != 16:
        raise ValueError("solo_moves: expected cards (16,), base (10,), place_out (16,) and reveal_out (16,) int32")
    if not 0 <= card <= 9 or not -1 <= other <= 9:
        raise ValueError("solo_moves: expected a card code 0..9 and another code -1..9")
    if any(not 0 <= int(x) <= 10 for x in cards):
        raise ValueError("solo_moves: expected 16 card codes in 0..10")
    k = [int(x) for x in cards]
    hidden = sum(1 << c for c in range(16) if k[c] == UNEXPLORED)
    av = [max(0, int(x)) for x in base]
    for c in range(16):
        place_out[c] = NEG
        reveal_out[c] = NEG
        old = k[c]
        if hidden >> c & 1:
            if not _may_turn(hidden, c, protect):
                continue
            reveal_out[c] = _reveal_value(k, c, card, other, av, left) - (REVEAL_COST if left else REVEAL_COST_AFTER)
        elif old == DRAGON or old == PORTAL or old == card:
            continue
        place_out[c] = _place_value(k, hidden, c, card, other, av, left)
