"""Pure-Python twin of ``src/memorinth_core.pyx``: the Memorinth rules, paths, playouts and shortest escapes.

Same functions, same parameter names and the same results as the compiled
kernel ``solver.kernels.memorinth_core`` (same integer arithmetic, same random
number stream), written for clarity so that it doubles as a readable statement
of the rules in ``docs/rules/memorinth.md``.

A position is a flat int32 vector (layout below); a deck is the flat int32
table of :meth:`solver.memorinth.deck.Deck.table` (per side id: exits,
character mask, goblin mask; then the action card layout). Cells are numbered
``5 * row + column`` from the north-west corner (``a1``); directions are
``N=0, E=1, S=2, W=3`` and a path set is a 4-bit mask.

Actions (integers, as in ``legal_actions``)::

    0..24    flip the card on that cell          25        pass (no card may be flipped)
    26..33   choose character 0..7               34..38    shift line 0..4 (column a..e or row 1..5)
    39..42   take a clover from player 0..3      43..67    peek under the card on cell 0..24
    68..367  swap the cards on two cells         368..395  swap two character cards
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

# -- state vector layout ---------------------------------------------------------------
CELLS = 25
UP, DOWN, SEEN = 0, 25, 50          # per cell: side id face up, side id face down, who has seen the underside
PIECE, CHAR, CLOVER = 75, 79, 87    # per player: cell (25 = left the forest, -1 = no player); per character: place
SUPPLY, NPLAYERS, VARIANT, SIDEMODE = 91, 92, 93, 94
SEAT = 95                           # per player: the table side they sit at (0..3)
START, ROUND, TOMOVE, LAST, PHASE, PENDING, WINNER, TURNS = 99, 100, 101, 102, 103, 104, 105, 106
OWNTURNS = 107                      # per player: turns completed
STATE_LEN = 112
OUT = 25

PH_FLIP, PH_CHOOSE, PH_ACT, PH_OVER = 0, 1, 2, 3
VAR_BASE, VAR_MASTER = 0, 1
MODE_SHIFT, MODE_SPECIAL, MODE_ALTERNATE = 0, 1, 2
A_FLIP, A_PASS, A_CHOOSE, A_SHIFT, A_CLOVER, A_PEEK, A_SWAPCARDS, A_SWAPCHARS, N_ACTIONS = (
    0, 25, 26, 34, 39, 43, 68, 368, 396)
ACT_CLOVER, ACT_PEEK, ACT_SWAPCARDS, ACT_SWAPCHARS = 4, 5, 6, 7
POLICY_RANDOM, POLICY_GREEDY = 0, 1
T_EXITS, T_CHARS, T_GOBLINS, T_ACTIONS, DECK_LEN = 0, 50, 100, 150, 160
PLAYOUT_OUT = 12
FULL = (1 << 25) - 1
UNREACHABLE = 40     # the greedy policy's distance for a cell with no path out
EXPLORE = 16         # the greedy policy flips a random card once in this many turns
ESCAPE_SCORE = 1000
INF = 1 << 20
M64 = (1 << 64) - 1


def layout() -> dict[str, int]:
    """The vector layout and codes (the kernel returns the same dict)."""
    return {"CELLS": CELLS, "UP": UP, "DOWN": DOWN, "SEEN": SEEN, "PIECE": PIECE, "CHAR": CHAR, "CLOVER": CLOVER,
            "SUPPLY": SUPPLY, "NPLAYERS": NPLAYERS, "VARIANT": VARIANT, "SIDEMODE": SIDEMODE, "SEAT": SEAT,
            "START": START, "ROUND": ROUND, "TOMOVE": TOMOVE, "LAST": LAST, "PHASE": PHASE, "PENDING": PENDING,
            "WINNER": WINNER, "TURNS": TURNS, "OWNTURNS": OWNTURNS, "STATE_LEN": STATE_LEN, "OUT": OUT,
            "A_FLIP": A_FLIP, "A_PASS": A_PASS, "A_CHOOSE": A_CHOOSE, "A_SHIFT": A_SHIFT, "A_CLOVER": A_CLOVER,
            "A_PEEK": A_PEEK, "A_SWAPCARDS": A_SWAPCARDS, "A_SWAPCHARS": A_SWAPCHARS, "N_ACTIONS": N_ACTIONS,
            "DECK_LEN": DECK_LEN, "PLAYOUT_OUT": PLAYOUT_OUT}


# -- random numbers: splitmix64 ----------------------------------------------------------
class _Rng:
    def __init__(self, seed: int) -> None:
        self.s = seed & M64

    def next(self) -> int:
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return ((self.next() >> 32) * n) >> 32


# -- geometry ------------------------------------------------------------------------------
def _neighbor(cell: int, d: int) -> int:
    r, c = divmod(cell, 5)
    if d == 0:
        return cell - 5 if r > 0 else -1
    if d == 1:
        return cell + 1 if c < 4 else -1
    if d == 2:
        return cell + 5 if r < 4 else -1
    return cell - 1 if c > 0 else -1


def _pair_index(a: int, b: int, n: int) -> int:
    return a * n - a * (a + 1) // 2 + (b - a - 1)


def _pair_from_index(i: int, n: int) -> tuple[int, int]:
    a = 0
    while i >= n - 1 - a:
        i -= n - 1 - a
        a += 1
    return a, a + 1 + i


def _links(ex: Sequence[int]) -> tuple[int, int, int, int, int]:
    """Bitboards: cells linked to their N/E/S/W neighbour (both path ends present), and cells with a path out."""
    ln = le = ls = lw = esc = 0
    for c in range(CELLS):
        e = ex[c]
        r, col = divmod(c, 5)
        bit = 1 << c
        if e & 1:
            if r == 0:
                esc |= bit
            elif ex[c - 5] & 4:
                ln |= bit
        if e & 2:
            if col == 4:
                esc |= bit
            elif ex[c + 1] & 8:
                le |= bit
        if e & 4:
            if r == 4:
                esc |= bit
            elif ex[c + 5] & 1:
                ls |= bit
        if e & 8:
            if col == 0:
                esc |= bit
            elif ex[c - 1] & 2:
                lw |= bit
    return ln, le, ls, lw, esc


def _field(ex: Sequence[int], dist: list[int]) -> int:
    """Fewest moves from each cell out of the forest along paths (-1 = none); returns how many cells can leave."""
    ln, le, ls, lw, esc = _links(ex)
    for c in range(CELLS):
        dist[c] = -1
    reached = esc
    frontier = esc
    k = 1
    count = 0
    while frontier:
        m = frontier
        while m:
            low = m & -m
            dist[low.bit_length() - 1] = k
            count += 1
            m ^= low
        nxt = ((frontier << 5) & ln) | ((frontier >> 5) & ls) | ((frontier >> 1) & le) | ((frontier << 1) & lw)
        nxt &= ~reached & FULL
        reached |= nxt
        frontier = nxt
        k += 1
    return count


def _exits_of(s: list[int], deck: Sequence[int]) -> list[int]:
    return [deck[T_EXITS + s[UP + c]] for c in range(CELLS)]


def path_bitboards(state: Any, deck: Any) -> tuple[int, ...]:
    """``(open_n, open_e, open_s, open_w, link_n, link_e, link_s, link_w, escape)`` of the face-up sides."""
    s = _checked(state, deck)
    ex = _exits_of(s, deck)
    opened = [0, 0, 0, 0]
    for c in range(CELLS):
        for d in range(4):
            if ex[c] >> d & 1:
                opened[d] |= 1 << c
    return (opened[0], opened[1], opened[2], opened[3]) + _links(ex)


def escape_distances(state: Any, deck: Any, out: Any) -> int:
    """Fill ``out[25]`` with each cell's fewest moves out along the face-up paths (-1: none)."""
    s = _checked(state, deck)
    if len(out) != CELLS:
        raise ValueError("out: expected 25 entries")
    dist = [0] * CELLS
    n = _field(_exits_of(s, deck), dist)
    for c in range(CELLS):
        out[c] = dist[c]
    return n


# -- rules ---------------------------------------------------------------------------------
def _goblins_active(s: list[int]) -> bool:
    return s[VARIANT] == VAR_MASTER and s[SIDEMODE] != MODE_SHIFT


def _action_code(s: list[int], deck: Sequence[int], slot: int) -> int:
    mode = s[SIDEMODE]
    side = 0 if mode == MODE_SHIFT else 1 if mode == MODE_SPECIAL else s[START]
    return deck[T_ACTIONS + 4 * side + slot]


def _absolute(seat: int, rel: int) -> int:
    """Absolute direction of a relative shift (0 down = toward the seat, 1 up, 2 left, 3 right)."""
    if rel == 0:
        return seat
    if rel == 1:
        return (seat + 2) & 3
    if rel == 2:
        return (seat + 1) & 3
    return (seat + 3) & 3


def _piece_on(s: list[int], cell: int) -> bool:
    for i in range(s[NPLAYERS]):
        if s[PIECE + i] == cell:
            return True
    return False


def _knows_under(s: list[int], cell: int, bit: int) -> bool:
    """MR-21: a player knows an underside they have seen, and the clearing's (side ids 0, 1: its pairing is
    public, the clearing being the one card set apart at setup)."""
    return bool(s[SEEN + cell] & bit) or s[UP + cell] < 2


def _move_result(s: list[int], deck: Sequence[int], player: int, d: int, xcell: int, xside: int) -> tuple[int, int]:
    """``(kind, target)``: kind 0 blocked, 1 moves to ``target``, 2 leaves the forest.

    ``xcell``/``xside`` override the face-up side of one cell (-1: none), for evaluating an unrevealed flip.
    """
    p = s[PIECE + player]
    ps = xside if p == xcell else s[UP + p]
    if not deck[T_EXITS + ps] >> d & 1:
        return 0, -1
    goblin = deck[T_GOBLINS + ps] >> d & 1
    t = _neighbor(p, d)
    if t >= 0:
        ts = xside if t == xcell else s[UP + t]
        od = (d + 2) & 3
        if not deck[T_EXITS + ts] >> od & 1:
            return 0, -1
        goblin |= deck[T_GOBLINS + ts] >> od & 1
    if goblin and _goblins_active(s) and s[CLOVER + player] == 0:
        return 0, -1
    return (1, t) if t >= 0 else (2, OUT)


def _free_cells(s: list[int]) -> list[int]:
    return [c for c in range(CELLS) if not _piece_on(s, c)]


def _action_options(s: list[int], code: int, player: int) -> list[int]:
    """The actions that carry out action ``code`` (empty: it cannot be carried out)."""
    if code < 4:
        return [A_SHIFT + line for line in range(5)]
    if code == ACT_CLOVER:
        if s[SUPPLY] > 0:
            return [-1]  # from the supply: no choice
        return [A_CLOVER + q for q in range(s[NPLAYERS]) if q != player and s[CLOVER + q] > 0]
    if code == ACT_PEEK:
        return [A_PEEK + c for c in _free_cells(s)]
    if code == ACT_SWAPCARDS:
        free = _free_cells(s)
        return [A_SWAPCARDS + _pair_index(a, b, CELLS) for i, a in enumerate(free) for b in free[i + 1:]]
    return [A_SWAPCHARS + _pair_index(a, b, 8) for a in range(8) for b in range(a + 1, 8)]


def _action_possible(s: list[int], code: int, player: int) -> bool:
    """True when action ``code`` can be carried out (``_action_options`` would list something)."""
    if code < 4 or code == ACT_SWAPCHARS:
        return True
    if code == ACT_CLOVER:
        return s[SUPPLY] > 0 or any(q != player and s[CLOVER + q] > 0 for q in range(s[NPLAYERS]))
    return len(_free_cells(s)) >= (1 if code == ACT_PEEK else 2)


def _options(s: list[int], deck: Sequence[int]) -> list[int]:
    """Characters the mover may choose after the flip: one per distinct effect, only effective ones; the mover
    must move when any choice moves (MR-8), so actions are offered only when no move is possible (MR-24)."""
    p = s[TOMOVE]
    chars = deck[T_CHARS + s[UP + s[LAST]]]
    keys = 0
    moves: list[int] = []
    actions: list[int] = []
    for c in range(8):
        if not chars >> c & 1:
            continue
        loc = s[CHAR + c]
        if keys >> loc & 1:
            continue
        keys |= 1 << loc
        if loc < 4:
            kind, _ = _move_result(s, deck, p, loc, -1, -1)
            if kind:
                moves.append(c)
        elif _action_possible(s, _action_code(s, deck, loc - 4), p):
            actions.append(c)
    return moves if moves else actions


def _first_step_bound(s: list[int], deck: Sequence[int], p: int, union: list[int], rf: list[int]) -> int:
    """Fewest moves out for a piece on cell ``p`` if every card could show either side, except that its first
    step follows the face-up paths of the card under it (nobody may flip that card while the piece is there;
    once it has left, the card may be flipped and crossed again). -1 when there is no way out at all."""
    own = deck[T_EXITS + s[UP + p]]
    best = -1
    for d in range(4):
        if not own >> d & 1:
            continue
        t = _neighbor(p, d)
        if t < 0:
            return 1
        if union[t] >> ((d + 2) & 3) & 1 and rf[t] >= 0 and (best < 0 or rf[t] + 1 < best):
            best = rf[t] + 1
    return best


def _public_unions(s: list[int], deck: Sequence[int]) -> list[int]:
    """MR-19: each cell's path ends on either side its card may show, from what every player has seen.

    A card whose underside every player knows (flipped before, or the clearing) has its two sides; under any other
    card may lie any side of the other colour whose place not everybody knows (the undersides of the cards of the
    same face-up colour that not everybody has seen). Public information only, so every view agrees with it."""
    everybody = (1 << s[NPLAYERS]) - 1

    def public(c: int) -> bool:
        return s[UP + c] < 2 or s[SEEN + c] & everybody == everybody

    pool = [0, 0]
    for c in range(CELLS):
        if not public(c):
            pool[s[UP + c] & 1] |= deck[T_EXITS + s[DOWN + c]]
    return [deck[T_EXITS + s[UP + c]] | (deck[T_EXITS + s[DOWN + c]] if public(c) else pool[s[UP + c] & 1])
            for c in range(CELLS)]


def _stuck(s: list[int], deck: Sequence[int], player: int) -> bool:
    """Base game: as every player can see, no sequence of flips can ever open a way out for this piece (MR-19)."""
    union = _public_unions(s, deck)
    rf = [0] * CELLS
    _field(union, rf)
    return _first_step_bound(s, deck, s[PIECE + player], union, rf) < 0


def _end_turn(s: list[int], deck: Sequence[int]) -> None:
    p = s[TOMOVE]
    s[TURNS] += 1
    s[OWNTURNS + p] += 1
    if p == 0 and s[ROUND] >= 2:
        s[START] ^= 1
    p = (p + 1) % s[NPLAYERS]
    if p == 0:
        s[ROUND] += 1
    s[TOMOVE] = p
    s[PHASE] = PH_FLIP
    s[PENDING] = -1
    if s[VARIANT] == VAR_BASE and all(_stuck(s, deck, i) for i in range(s[NPLAYERS])):
        s[PHASE] = PH_OVER  # nobody can ever leave: the game ends without a winner


def _do_move(s: list[int], deck: Sequence[int], d: int) -> None:
    p = s[TOMOVE]
    kind, t = _move_result(s, deck, p, d, -1, -1)
    pc = s[PIECE + p]
    ps = s[UP + pc]
    goblin = deck[T_GOBLINS + ps] >> d & 1
    if t != OUT:
        goblin |= deck[T_GOBLINS + s[UP + t]] >> ((d + 2) & 3) & 1
    if goblin and _goblins_active(s):
        s[CLOVER + p] -= 1
        s[SUPPLY] += 1
    s[PIECE + p] = t
    if kind == 2:
        s[WINNER] = p
        s[TURNS] += 1
        s[OWNTURNS + p] += 1
        s[PHASE] = PH_OVER
        s[PENDING] = -1
    else:
        _end_turn(s, deck)


def _start_action(s: list[int], deck: Sequence[int], code: int) -> None:
    p = s[TOMOVE]
    opts = _action_options(s, code, p)
    if code < 4:
        s[PENDING] = _absolute(s[SEAT + p], code)
        s[PHASE] = PH_ACT
        return
    if opts == [-1]:
        s[SUPPLY] -= 1
        s[CLOVER + p] += 1
        _end_turn(s, deck)
        return
    s[PENDING] = code
    if len(opts) == 1:
        _apply_act(s, deck, opts[0])
    else:
        s[PHASE] = PH_ACT


def _choose(s: list[int], deck: Sequence[int], c: int) -> None:
    loc = s[CHAR + c]
    if loc < 4:
        _do_move(s, deck, loc)
    else:
        _start_action(s, deck, _action_code(s, deck, loc - 4))


def _resolve_flip(s: list[int], deck: Sequence[int]) -> None:
    opts = _options(s, deck)
    if not opts:
        _end_turn(s, deck)
    elif len(opts) == 1:
        _choose(s, deck, opts[0])
    else:
        s[PHASE] = PH_CHOOSE


def _line_cells(d: int, line: int) -> list[int]:
    """The line's cells in the order the cards travel (each moves to the next; the last re-enters first)."""
    if d == 2:
        return [5 * r + line for r in range(5)]
    if d == 0:
        return [5 * r + line for r in range(4, -1, -1)]
    if d == 1:
        return [5 * line + c for c in range(5)]
    return [5 * line + c for c in range(4, -1, -1)]


def _shift(s: list[int], d: int, line: int) -> None:
    cells = _line_cells(d, line)
    dest = {cells[i]: cells[(i + 1) % 5] for i in range(5)}
    for base in (UP, DOWN, SEEN):
        old = [s[base + c] for c in cells]
        for i in range(5):
            s[base + cells[(i + 1) % 5]] = old[i]
    for i in range(s[NPLAYERS]):
        if s[PIECE + i] in dest:
            s[PIECE + i] = dest[s[PIECE + i]]
    if s[LAST] in dest:
        s[LAST] = dest[s[LAST]]


def _swap_cells(s: list[int], a: int, b: int) -> None:
    for base in (UP, DOWN, SEEN):
        s[base + a], s[base + b] = s[base + b], s[base + a]
    if s[LAST] == a:
        s[LAST] = b
    elif s[LAST] == b:
        s[LAST] = a


def _apply_act(s: list[int], deck: Sequence[int], a: int) -> None:
    p = s[TOMOVE]
    if A_SHIFT <= a < A_CLOVER:
        _shift(s, s[PENDING], a - A_SHIFT)
    elif A_CLOVER <= a < A_PEEK:
        s[CLOVER + a - A_CLOVER] -= 1
        s[CLOVER + p] += 1
    elif A_PEEK <= a < A_SWAPCARDS:
        s[SEEN + a - A_PEEK] |= 1 << p
    elif A_SWAPCARDS <= a < A_SWAPCHARS:
        x, y = _pair_from_index(a - A_SWAPCARDS, CELLS)
        _swap_cells(s, x, y)
    else:
        x, y = _pair_from_index(a - A_SWAPCHARS, 8)
        s[CHAR + x], s[CHAR + y] = s[CHAR + y], s[CHAR + x]
    _end_turn(s, deck)


def _legal(s: list[int], deck: Sequence[int]) -> list[int]:
    phase = s[PHASE]
    if phase == PH_FLIP:
        side = s[START]
        out = [c for c in range(CELLS)
               if (s[UP + c] & 1) == side and c != s[LAST] and not _piece_on(s, c)]
        return out or [A_PASS]
    if phase == PH_CHOOSE:
        return [A_CHOOSE + c for c in _options(s, deck)]
    if phase == PH_ACT:
        pend = s[PENDING]
        return _action_options(s, 0 if pend < 4 else pend, s[TOMOVE])
    return []


def _apply(s: list[int], deck: Sequence[int], a: int) -> None:
    """Play a legal action (no check)."""
    if a < A_PASS:
        s[UP + a], s[DOWN + a] = s[DOWN + a], s[UP + a]
        s[SEEN + a] = (1 << s[NPLAYERS]) - 1
        s[LAST] = a
        _resolve_flip(s, deck)
    elif a == A_PASS:
        s[LAST] = -1
        _end_turn(s, deck)
    elif a < A_SHIFT:
        _choose(s, deck, a - A_CHOOSE)
    else:
        _apply_act(s, deck, a)


def legal_actions(state: Any, deck: Any, out: Any) -> int:
    """Write the legal actions (ascending) into ``out`` (at least 396 entries); return how many."""
    s = _checked(state, deck)
    if len(out) < N_ACTIONS:
        raise ValueError("out: expected at least 396 entries")
    acts = _legal(s, deck)
    for i, a in enumerate(acts):
        out[i] = a
    return len(acts)


def apply_action(state: Any, deck: Any, action: int) -> int:
    """Play ``action`` on ``state`` in place if it is legal; return 1, or 0 (state unchanged) if it is not."""
    s = _checked(state, deck)
    if action not in _legal(s, deck):
        return 0
    _apply(s, deck, action)
    for i in range(STATE_LEN):
        state[i] = s[i]
    return 1


# -- validation of kernel input ------------------------------------------------------------
def _checked(state: Any, deck: Any) -> list[int]:
    if len(deck) != DECK_LEN:
        raise ValueError("deck: expected 160 entries")
    return _checked_vector(state)


VECTOR_ERRORS = ("", "bad player count", "bad side id", "bad piece", "bad seat", "bad character place",
                 "bad turn fields", "choose phase without a flipped card",
                 "a piece left the forest but the game goes on", "bad pending action")


def _vector_error(s: list[int]) -> int:
    """0 when the vector is safe to run the rules on, else the number of the first problem found."""
    n = s[NPLAYERS]
    if not 1 <= n <= 4:
        return 1
    for c in range(CELLS):
        if not (0 <= s[UP + c] < 50 and 0 <= s[DOWN + c] < 50):
            return 2
    for i in range(4):
        if i < n and not 0 <= s[PIECE + i] <= OUT:
            return 3
        if not 0 <= s[SEAT + i] < 4:
            return 4
    for i in range(8):
        if not 0 <= s[CHAR + i] < 8:
            return 5
    if not 0 <= s[TOMOVE] < n or not -1 <= s[LAST] < CELLS or not 0 <= s[PHASE] <= PH_OVER:
        return 6
    if s[PHASE] == PH_CHOOSE and s[LAST] < 0:
        return 7
    if s[PHASE] != PH_OVER and any(s[PIECE + i] == OUT for i in range(n)):
        return 8
    if s[PHASE] == PH_ACT and (not 0 <= s[PENDING] < 8 or (s[PENDING] == ACT_CLOVER and s[SUPPLY] > 0)):
        return 9
    return 0


def _checked_vector(state: Any) -> list[int]:
    if len(state) != STATE_LEN:
        raise ValueError("state: expected 112 entries")
    s = [int(v) for v in state]
    err = _vector_error(s)
    if err:
        raise ValueError("state: " + VECTOR_ERRORS[err])
    return s


def _checked_rows(states: Any, deck: Any) -> list[list[int]]:
    if len(deck) != DECK_LEN:
        raise ValueError("deck: expected 160 entries")
    rows = []
    for i, row in enumerate(states):
        if len(row) != STATE_LEN:
            raise ValueError("states: expected rows of 112 entries")
        s = [int(v) for v in row]
        err = _vector_error(s)
        if err:
            raise ValueError(f"states[{i}]: " + VECTOR_ERRORS[err])
        rows.append(s)
    return rows


def escape_distances_batch(states: Any, deck: Any, out: Any) -> None:
    """``escape_distances`` for every row of ``states`` (n, 112) into ``out`` (n, 25)."""
    rows = _checked_rows(states, deck)
    if len(out) != len(rows) or any(len(o) != CELLS for o in out):
        raise ValueError("out: expected (n, 25)")
    dist = [0] * CELLS
    for i, s in enumerate(rows):
        _field(_exits_of(s, deck), dist)
        for c in range(CELLS):
            out[i][c] = dist[c]


def legal_actions_batch(states: Any, deck: Any, out: Any, counts: Any) -> None:
    """``legal_actions`` for every row of ``states`` (n, 112): actions into ``out`` (n, 396), counts (n)."""
    rows = _checked_rows(states, deck)
    if len(out) != len(rows) or any(len(o) < N_ACTIONS for o in out) or len(counts) != len(rows):
        raise ValueError("out: expected (n, 396) and counts (n)")
    for i, s in enumerate(rows):
        acts = _legal(s, deck)
        counts[i] = len(acts)
        for j, a in enumerate(acts):
            out[i][j] = a


def apply_actions_batch(states: Any, deck: Any, actions: Any, applied: Any) -> None:
    """``apply_action`` of ``actions[i]`` to row ``i`` of ``states`` in place; ``applied[i]`` 1 or 0 (illegal)."""
    rows = _checked_rows(states, deck)
    if len(actions) != len(rows) or len(applied) != len(rows):
        raise ValueError("actions and applied: expected n entries")
    for i, s in enumerate(rows):
        a = int(actions[i])
        if a in _legal(s, deck):
            _apply(s, deck, a)
            applied[i] = 1
            for j in range(STATE_LEN):
                states[i][j] = s[j]
        else:
            applied[i] = 0


# -- resampling and dealing -------------------------------------------------------------------
def _resample(s: list[int], player: int, rng: _Rng) -> None:
    bit = 1 << player
    for face in (0, 1):
        cells = [c for c in range(CELLS) if (s[UP + c] & 1) == face and not _knows_under(s, c, bit)]
        vals = sorted(s[DOWN + c] for c in cells)  # sorted first: the sample depends on what the player knows only
        for i in range(len(vals) - 1, 0, -1):
            j = rng.below(i + 1)
            vals[i], vals[j] = vals[j], vals[i]
        for c, v in zip(cells, vals):
            s[DOWN + c] = v


def resample(state: Any, player: int, seed: int) -> None:
    """Shuffle, in place, the undersides ``player`` does not know among those cards (Sun-up and Moon-up apart;
    known: seen, or the clearing's, MR-21)."""
    s = _checked_vector(state)
    if not 0 <= player < s[NPLAYERS]:
        raise ValueError("player: out of range")
    _resample(s, player, _Rng(seed))
    for i in range(STATE_LEN):
        state[i] = s[i]


def _deal(s: list[int], rng: _Rng) -> None:
    cards = list(range(1, 25))
    for i in range(23, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    k = 0
    for c in range(CELLS):
        if c == 12:
            card = 0
        else:
            card = cards[k]
            k += 1
        face = (c // 5 + c % 5) & 1
        s[UP + c] = 2 * card + face
        s[DOWN + c] = 2 * card + 1 - face
        s[SEEN + c] = 0
    perm = list(range(8))
    for i in range(7, 0, -1):
        j = rng.below(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    master = s[VARIANT] == VAR_MASTER
    for i in range(8):
        s[CHAR + perm[i]] = i if master else i // 2
    n = s[NPLAYERS]
    active = _goblins_active(s)
    for i in range(4):
        s[PIECE + i] = 12 if i < n else -1
        s[CLOVER + i] = 1 if (active and i < n) else 0
        s[OWNTURNS + i] = 0
    s[SUPPLY] = 5 - n if active else 5
    s[START] = 0
    s[ROUND] = 1
    s[TOMOVE] = 0
    s[LAST] = -1
    s[PHASE] = PH_FLIP
    s[PENDING] = -1
    s[WINNER] = -1
    s[TURNS] = 0


def deal(state: Any, deck: Any, seed: int) -> None:
    """Deal a new game in place: shuffle the forest cards and the characters; keep the rule fields."""
    s = _checked(state, deck)
    _deal(s, _Rng(seed))
    for i in range(STATE_LEN):
        state[i] = s[i]


# -- policies ---------------------------------------------------------------------------------
def _dist(d: list[int], cell: int) -> int:
    return d[cell] if d[cell] >= 0 else UNREACHABLE


def _reveal_value(s: list[int], deck: Sequence[int], q: int, x: int, side: int, d: list[int]) -> int:
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
            kind, t = _move_result(s, deck, q, loc, x, side)
            if kind == 0:
                continue
            score = ESCAPE_SCORE if kind == 2 else _dist(d, p) - _dist(d, t)
            if score > best:
                best = score
    return best if best > -INF else 0


def _pick_best(values: list[tuple[int, int, int]], rng: _Rng) -> int:
    """``values`` are ``(action, total, count)``; the best mean wins, ties broken at random."""
    best: list[int] = []
    bt, bc = 0, 1
    for a, t, c in values:
        if not best or t * bc > bt * c:
            best, bt, bc = [a], t, c
        elif t * bc == bt * c:
            best.append(a)
    return best[rng.below(len(best))] if len(best) > 1 else best[0]


def _greedy(s: list[int], deck: Sequence[int], rng: _Rng) -> int:
    legal = _legal(s, deck)
    q = s[TOMOVE]
    p = s[PIECE + q]
    d = [0] * CELLS
    _field(_exits_of(s, deck), d)
    phase = s[PHASE]
    if phase == PH_FLIP:
        if legal[0] == A_PASS:
            return A_PASS
        if rng.below(EXPLORE) == 0:  # one flip in 16 at random: no endless loops between zero-value flips
            return legal[rng.below(len(legal))]
        bit = 1 << q
        pools: list[list[int]] = [[], []]
        for c in range(CELLS):
            if not _knows_under(s, c, bit):
                pools[s[UP + c] & 1].append(s[DOWN + c])
        vals = []
        for x in legal:
            sides = [s[DOWN + x]] if _knows_under(s, x, bit) else pools[s[UP + x] & 1]
            total = 0
            for side in sides:
                total += _reveal_value(s, deck, q, x, side, d)
            vals.append((x, total, len(sides)))
        return _pick_best(vals, rng)
    if phase == PH_CHOOSE:
        vals = []
        for a in legal:
            loc = s[CHAR + a - A_CHOOSE]
            if loc < 4:
                kind, t = _move_result(s, deck, q, loc, -1, -1)
                score = ESCAPE_SCORE if kind == 2 else _dist(d, p) - _dist(d, t)
            else:
                score = 0
            vals.append((a, score, 1))
        return _pick_best(vals, rng)
    pend = s[PENDING]
    if pend == ACT_SWAPCARDS:  # only swaps that bring a new card next to the piece are weighed
        near = [a for a in legal if _touches_neighbour(a - A_SWAPCARDS, p)]
        if not near:
            return legal[rng.below(len(legal))]
        legal = near
    if pend < 4 or pend == ACT_SWAPCARDS:
        vals = []
        d2 = [0] * CELLS
        for a in legal:
            t = s[:]
            if pend < 4:
                _shift(t, pend, a - A_SHIFT)
            else:
                x, y = _pair_from_index(a - A_SWAPCARDS, CELLS)
                _swap_cells(t, x, y)
            _field(_exits_of(t, deck), d2)
            vals.append((a, _dist(d, p) - _dist(d2, t[PIECE + q]), 1))
        return _pick_best(vals, rng)
    if pend == ACT_CLOVER:
        best, most = legal[0], -1
        for a in legal:
            if s[CLOVER + a - A_CLOVER] > most:
                best, most = a, s[CLOVER + a - A_CLOVER]
        return best
    if pend == ACT_PEEK:
        unseen = [a for a in legal if not _knows_under(s, a - A_PEEK, 1 << q)]
        pool = unseen or legal
        return pool[rng.below(len(pool))]
    return legal[rng.below(len(legal))]


def _touches_neighbour(pair: int, p: int) -> bool:
    x, y = _pair_from_index(pair, CELLS)
    return any(_neighbor(p, d) in (x, y) for d in range(4))


def _policy(s: list[int], deck: Sequence[int], policy: int, rng: _Rng) -> int:
    if policy == POLICY_GREEDY:
        return _greedy(s, deck, rng)
    legal = _legal(s, deck)
    return legal[rng.below(len(legal))] if len(legal) > 1 else legal[0]


def policy_action(state: Any, deck: Any, policy: int, seed: int) -> int:
    """The action policy ``policy`` (0 random, 1 greedy) plays for the player to act."""
    s = _checked(state, deck)
    if s[PHASE] == PH_OVER:
        raise ValueError("state: the game is over")
    if policy not in (POLICY_RANDOM, POLICY_GREEDY):
        raise ValueError("policy: expected 0 (random) or 1 (greedy)")
    return _policy(s, deck, policy, _Rng(seed))


def _play(s: list[int], deck: Sequence[int], policies: Sequence[int], rng: _Rng, max_turns: int) -> None:
    start = s[TURNS]
    while s[PHASE] != PH_OVER and s[TURNS] - start < max_turns:
        _apply(s, deck, _policy(s, deck, policies[s[TOMOVE]], rng))


def _record(s: list[int], player: int, own0: int, turns0: int, out: Any) -> None:
    own = s[OWNTURNS + player] - own0
    out[0] += 1
    if s[PHASE] != PH_OVER:
        out[1] += 1
    elif s[WINNER] < 0:
        out[11] += 1
    else:
        w = s[WINNER]
        out[6 + w] += 1
        if w == player:
            out[2] += 1
            out[3] += own
            out[5] += own * own
    out[4] += own
    out[10] += s[TURNS] - turns0


def _check_playout_args(policies: Any, out: Any, max_turns: int, count: int) -> list[int]:
    if len(policies) != 4 or any(int(p) not in (POLICY_RANDOM, POLICY_GREEDY) for p in policies):
        raise ValueError("policies: expected 4 entries, each 0 (random) or 1 (greedy)")
    if len(out) != PLAYOUT_OUT:
        raise ValueError("out: expected 12 entries")
    if max_turns < 1 or count < 0:
        raise ValueError("max_turns must be positive and count non-negative")
    return [int(p) for p in policies]


def playouts(state: Any, deck: Any, player: int, first_action: int, count: int, seed: int, resample: int,
             policies: Any, max_turns: int, out: Any) -> None:
    """Play ``count`` games on from ``state`` and add their results into ``out`` (int64[12]).

    With ``resample`` set, each game first re-deals the undersides ``player`` has not seen. ``first_action``
    (if >= 0) is played first; then each player follows ``policies[player]``. ``out``: games, unfinished,
    wins of ``player``, own turns in those wins, own turns in all games, squared own turns in wins, wins of
    players 0..3, total turns, games that ended with nobody able to leave.
    """
    base = _checked(state, deck)
    pol = _check_playout_args(policies, out, max_turns, count)
    if not 0 <= player < base[NPLAYERS]:
        raise ValueError("player: out of range")
    if first_action >= 0 and first_action not in _legal(base, deck):
        raise ValueError("first_action: not legal")
    rng = _Rng(seed)
    for i in range(PLAYOUT_OUT):
        out[i] = 0
    for _ in range(count):
        s = base[:]
        if resample:
            _resample(s, player, rng)
        own0, turns0 = s[OWNTURNS + player], s[TURNS]
        if first_action >= 0:
            _apply(s, deck, first_action)
        _play(s, deck, pol, rng, max_turns)
        _record(s, player, own0, turns0, out)


def random_games(state: Any, deck: Any, count: int, seed: int, policies: Any, max_turns: int, out: Any) -> None:
    """Deal and play ``count`` games with the rule fields of ``state``; results (for player 0) as in ``playouts``."""
    base = _checked(state, deck)
    pol = _check_playout_args(policies, out, max_turns, count)
    rng = _Rng(seed)
    for i in range(PLAYOUT_OUT):
        out[i] = 0
    for _ in range(count):
        s = base[:]
        _deal(s, rng)
        _play(s, deck, pol, rng, max_turns)
        _record(s, 0, 0, 0, out)


# -- shortest escape (solitaire, full information) ---------------------------------------------
def _advance_to(s: list[int], deck: Sequence[int], player: int) -> None:
    """The other players' turns change nothing (solitaire): only the turn order and the start card advance."""
    while s[TOMOVE] != player:
        s[LAST] = -1
        _end_turn(s, deck)


def _union_exits(s: list[int], deck: Sequence[int]) -> list[int]:
    """Base game: each cell's path ends on either side of its card (cards never move)."""
    return [deck[T_EXITS + s[UP + c]] | deck[T_EXITS + s[DOWN + c]] for c in range(CELLS)]


def _h(s: list[int], deck: Sequence[int], player: int, union: list[int], rf: list[int]) -> int:
    """Admissible bound on the own turns still needed (each turn moves the piece by at most one card).

    Base game (cards never move): :func:`_first_step_bound`. Master Memorinth (cards move): distance to the
    nearest edge + 1.
    """
    p = s[PIECE + player]
    if s[VARIANT] == VAR_BASE:
        d = _first_step_bound(s, deck, p, union, rf)
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
        _field(union, self.rf)
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
        for a in _legal(s, self.deck):
            if self.collapse and A_PEEK <= a < A_SWAPCARDS:
                if peek_done:
                    continue
                peek_done = True
            c = s[:]
            _apply(c, self.deck, a)
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
                _advance_to(c, self.deck, self.player)
                found = self.dfs(c, d + 1, bound, idx + 1)
            else:
                found = self.dfs(c, d, bound, idx + 1)
            if found or self.stopped:
                return found
        return False


def _solitaire_root(state: Any, deck: Any, player: int) -> list[int]:
    s = _checked(state, deck)
    if not 0 <= player < s[NPLAYERS]:
        raise ValueError("player: out of range")
    if s[PHASE] == PH_OVER:
        raise ValueError("state: the game is over")
    if s[TOMOVE] != player:
        if s[PHASE] != PH_FLIP:
            raise ValueError("state: another player is in the middle of a turn")
        _advance_to(s, deck, player)
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
    _field(union, rf)
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


def count_solutions(state: Any, deck: Any, player: int, depth: int, limit: int, node_limit: int) -> tuple[int, int, int]:
    """How many decision sequences make ``player`` leave within ``depth`` own turns (counting stops at ``limit``).

    Returns ``(count, nodes, complete)``; ``complete`` is 0 when ``node_limit`` stopped the count.
    """
    s = _solitaire_root(state, deck, player)
    if depth < 1 or depth > 64 or limit < 1:
        raise ValueError("depth must be 1..64 and limit positive")
    search = _Search(deck, player, _union_exits(s, deck), node_limit, 0.0, [0] * (3 * depth), False, False, limit)
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
    rng = _Rng(seed)
    best, best_n = -1, 0
    for _ in range(tries):
        s = root[:]
        run: list[int] = []
        turns = 1
        limit = max_turns if best < 0 else best - 1
        while turns <= limit:
            a = _greedy(s, deck, rng)
            run.append(a)
            _apply(s, deck, a)
            if s[PHASE] == PH_OVER:
                if s[WINNER] == player:
                    best, best_n = turns, len(run)
                    for i, x in enumerate(run):
                        moves[i] = x
                break
            if s[PHASE] == PH_FLIP:
                _advance_to(s, deck, player)
                turns += 1
                if s[PHASE] == PH_OVER:
                    break
    return best, best_n


def skip_to_player(state: Any, deck: Any, player: int) -> None:
    """Solitaire model: end the other players' turns in place without any flip until ``player`` is to move."""
    s = _checked(state, deck)
    if not 0 <= player < s[NPLAYERS]:
        raise ValueError("player: out of range")
    if s[TOMOVE] != player and s[PHASE] != PH_FLIP:
        raise ValueError("state: another player is in the middle of a turn")
    if s[PHASE] != PH_OVER:
        _advance_to(s, deck, player)
    for i in range(STATE_LEN):
        state[i] = s[i]
