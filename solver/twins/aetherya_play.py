"""Pure-Python twin of ``src/aetherya_play.pyx``: greedy Aetherya playouts on a packed state vector.

Same functions, same signatures, same results as the compiled kernel
(``solver.kernels.aetherya_play``), random numbers included (splitmix64), so
that the tests can check them against each other move for move.

A position is packed by ``solver.aetherya.playout.pack`` into one int32
vector (layout below) at the start of a turn. ``playout`` plays it to the end
with the greedy policy of ``docs/rules/aetherya.md`` ("Playouts") for every
player and writes each seat's return: the final score (base, objects), the
team score (co-op) or the campaign score (solo).

Greedy policy, for the player to move: take the top discard if its best
placement raises the player's value, otherwise draw and place the card where
it raises the value most, or discard it and reveal a random Unexplored
Territory when no placement raises it (solo: always the discard top plus
one drawn card, the rulebook's tip, keeping the better of the two). The value is the board total, plus the
points of the best Legend that could be claimed (base, objects), or plus 10
for each Legend of the current Age the kingdom meets and has not written (solo). Claims take the
highest-scoring Legend; co-op writes every Legend met and the group discards
the cheapest Legend after a round without writing; solo keeps the 2x2 block
that scores best alone. Ties between cells are broken at random.
"""

from __future__ import annotations

import numpy as np

# layout of the packed state (int32)
MODE, PLAYERS, TO_MOVE, TURN, AGE, AGE_SUM, WROTE, LD_POINTS, ROW_TARGET, FAILED = range(10)
PILE, HID, HELD, ACC, STF, CARDS, ROW, DECK, SROW, WRIT, DLEN, DISC = 10, 20, 24, 28, 32, 40, 110, 130, 150, 170, 190, 200
DISC_CAP = 80
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
    rng[0] = (rng[0] + 0x9E3779B97F4A7C15) & MASK64
    z = rng[0]
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def _below(rng: list[int], n: int) -> int:
    return (_next(rng) >> 33) % n


# ---------------------------------------------------------------------- scoring
def _spread(m: int) -> int:
    return (((m << 1) & ~COL_A) | ((m >> 1) & ~COL_D) | (m << 4) | (m >> 4)) & FULL


def _pop(m: int) -> int:
    return bin(m).count("1")


def _score(k: list[int], accords: int, staffs: int) -> tuple[int, int]:
    """Board total (Accords and Staffs applied) and the satisfied-Legend mask of 16 codes."""
    kinds = [0] * 11
    ortho = [0] * 16
    conn = [0] * 16
    for c in range(16):
        kinds[k[c]] |= 1 << c
        ortho[c] = _spread(1 << c)
        conn[c] = ortho[c]
    portals = kinds[PORTAL]
    remaining = portals
    while remaining:
        hub = remaining & -remaining
        while True:
            grown = hub | (_spread(hub) & portals)
            if grown == hub:
                break
            hub = grown
        remaining &= ~hub
        around = _spread(hub) & ~hub
        rest = around
        while rest:
            c = (rest & -rest).bit_length() - 1
            rest &= rest - 1
            conn[c] |= around & ~(1 << c)
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
        if v > best_value:
            best_cell, best_value, ties = c, v, 1
        elif v == best_value:
            ties += 1
            if _below(rng, ties) == 0:
                best_cell = c
    return best_cell, best_value


# ---------------------------------------------------------------------- piles
def _draw(s: list[int], rng: list[int]) -> int:
    total = sum(s[PILE:PILE + 10])
    r = _below(rng, total)
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
        r = _below(rng, deck)
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


def _solo_turn(s: list[int], rng: list[int]) -> int:
    cur = _value(s, 0, _board(s, 0))
    if s[DLEN] > 0 or _pile_total(s) < 2:  # the rulebook's tip: drawing two from the pile shortens the Age
        a, a_draw = _pop_discard(s, 0), 0
    else:
        a, a_draw = _draw(s, rng), 1
    b = _draw(s, rng)
    cell_a, va = _best_place(s, 0, a, rng)
    cell_b, vb = _best_place(s, 0, b, rng)
    if vb >= va:
        _push(s, 0, a)
        card, cell, v, drawn = b, cell_b, vb, 1
    else:
        _push(s, 0, b)
        card, cell, v, drawn = a, cell_a, va, a_draw
    if not drawn or v > cur:
        _place(s, 0, cell, card)
    else:
        _push(s, 0, card)
        _reveal_random(s, 0, rng)
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
    for n in range(1, 16):
        s[WRIT + n] = 0
    k = _board(s, 0)
    best_corner, best_v, ties = 0, -(1 << 30), 0
    for corner in (0, 1, 2, 4, 5, 6, 8, 9, 10):
        block = [UNEXPLORED] * 16
        for i, cell in enumerate((corner, corner + 1, corner + 4, corner + 5)):
            block[CENTRE[i]] = k[cell]
        v = _score(block, 0, 0)[0]
        if v > best_v:
            best_corner, best_v, ties = corner, v, 1
        elif v == best_v:
            ties += 1
            if _below(rng, ties) == 0:
                best_corner = corner
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
                cheapest = 0
                for n in range(1, 16):
                    if s[ROW + n] and (cheapest == 0 or LEGEND_POINTS[n] < LEGEND_POINTS[cheapest]):
                        cheapest = n
                s[ROW + cheapest] = 0
                s[LD_POINTS] += LEGEND_POINTS[cheapest]
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


def _run(s: list[int], rng: list[int]) -> int:
    turns = 0
    while turns < MAX_TURNS:
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
    return all(0 <= state[DLEN + i] <= DISC_CAP for i in range(2))


def playout(state: np.ndarray, seed: int, out: np.ndarray) -> int:
    """Play the packed ``state`` (int32, length 360) to the end greedily; write each seat's return into ``out``
    (solo: ``out[0]`` the campaign score, ``out[1]`` the Legends written over the campaign).

    ``seed`` (0 <= seed < 2**64) seeds the splitmix64 generator. Returns the number of turns played.
    """
    if state.shape[0] != LENGTH or out.shape[0] < 2 or out.shape[0] < state[PLAYERS]:
        raise ValueError("playout: expected a packed state of length 360 and an output array")
    if not _checked(state):
        raise ValueError("playout: the packed state holds an out-of-range value")
    s = [int(x) for x in state]
    rng = [int(seed) & MASK64]
    turns = _run(s, rng)
    _returns(s, out)
    return turns


def playout_batch(states: np.ndarray, seeds: np.ndarray, out: np.ndarray) -> int:
    """``playout`` for each row of ``states`` (n, 360) with ``seeds`` (n,) into ``out`` (n, 4). Returns total turns."""
    if states.ndim != 2 or states.shape[1] != LENGTH or seeds.shape[0] != states.shape[0] \
            or out.shape[0] != states.shape[0] or out.shape[1] != 4:
        raise ValueError("playout_batch: expected states (n, 360) int32, seeds (n,) uint64, out (n, 4) int32")
    for i in range(states.shape[0]):
        if not _checked(states[i]):
            raise ValueError(f"playout_batch: states[{i}] holds an out-of-range value")
    total = 0
    for i in range(states.shape[0]):
        total += playout(states[i], int(seeds[i]), out[i])
    return total


def board_value(cards: np.ndarray, accords: int, staffs: int) -> int:
    """The board total of 16 codes with Accord and Staff cells (the scorer the playouts use)."""
    if cards.shape[0] != 16 or any(not 0 <= int(x) <= 10 for x in cards):
        raise ValueError("board_value: expected 16 card codes in 0..10")
    return _score([int(x) for x in cards], int(accords), int(staffs))[0]
