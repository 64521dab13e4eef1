"""Pure-Python twin of ``src/memorinth_rules.pxd``: the Memorinth rules on a flat int32 state vector.

The same rules, the same integer arithmetic and the same names as the compiled rules the kernels
``memorinth_play`` and ``memorinth_escape`` share (twins: ``memorinth_play.py``, ``memorinth_escape.py``),
written for clarity so that it doubles as a readable statement of the rules in ``docs/rules/memorinth.md``.

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


# -- geometry ------------------------------------------------------------------------------
def neighbor(cell: int, d: int) -> int:
    r, c = divmod(cell, 5)
    if d == 0:
        return cell - 5 if r > 0 else -1
    if d == 1:
        return cell + 1 if c < 4 else -1
    if d == 2:
        return cell + 5 if r < 4 else -1
    return cell - 1 if c > 0 else -1


def pair_index(a: int, b: int, n: int) -> int:
    """Index of the pair ``a < b`` among the pairs of ``n`` items, in lexicographic order."""
    return a * n - a * (a + 1) // 2 + (b - a - 1)


def pair_from_index(i: int, n: int) -> tuple[int, int]:
    """The pair ``(a, b)`` with index ``i``."""
    a = 0
    while i >= n - 1 - a:
        i -= n - 1 - a
        a += 1
    return a, a + 1 + i


def links(ex: Sequence[int]) -> tuple[int, int, int, int, int]:
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


def field(ex: Sequence[int], dist: list[int]) -> int:
    """Fewest moves from each cell out of the forest along paths (-1 = none); returns how many cells can leave."""
    ln, le, ls, lw, esc = links(ex)
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


def exits_of(s: list[int], deck: Sequence[int]) -> list[int]:
    return [deck[T_EXITS + s[UP + c]] for c in range(CELLS)]


# -- rules ---------------------------------------------------------------------------------
def goblins_active(s: list[int]) -> bool:
    return s[VARIANT] == VAR_MASTER and s[SIDEMODE] != MODE_SHIFT


def action_code(s: list[int], deck: Sequence[int], slot: int) -> int:
    mode = s[SIDEMODE]
    side = 0 if mode == MODE_SHIFT else 1 if mode == MODE_SPECIAL else s[START]
    return deck[T_ACTIONS + 4 * side + slot]


def absolute(seat: int, rel: int) -> int:
    """Absolute direction of a relative shift (0 down = toward the seat, 1 up, 2 left, 3 right)."""
    if rel == 0:
        return seat
    if rel == 1:
        return (seat + 2) & 3
    if rel == 2:
        return (seat + 1) & 3
    return (seat + 3) & 3


def piece_on(s: list[int], cell: int) -> bool:
    for i in range(s[NPLAYERS]):
        if s[PIECE + i] == cell:
            return True
    return False


def knows_under(s: list[int], cell: int, bit: int) -> bool:
    """MR-21: a player knows an underside they have seen, and the clearing's (side ids 0, 1: its pairing is
    public, the clearing being the one card set apart at setup)."""
    return bool(s[SEEN + cell] & bit) or s[UP + cell] < 2


def move_result(s: list[int], deck: Sequence[int], player: int, d: int, xcell: int, xside: int) -> tuple[int, int]:
    """``(kind, target)``: kind 0 blocked, 1 moves to ``target``, 2 leaves the forest.

    ``xcell``/``xside`` override the face-up side of one cell (-1: none), for evaluating an unrevealed flip.
    """
    p = s[PIECE + player]
    ps = xside if p == xcell else s[UP + p]
    if not deck[T_EXITS + ps] >> d & 1:
        return 0, -1
    goblin = deck[T_GOBLINS + ps] >> d & 1
    t = neighbor(p, d)
    if t >= 0:
        ts = xside if t == xcell else s[UP + t]
        od = (d + 2) & 3
        if not deck[T_EXITS + ts] >> od & 1:
            return 0, -1
        goblin |= deck[T_GOBLINS + ts] >> od & 1
    if goblin and goblins_active(s) and s[CLOVER + player] == 0:
        return 0, -1
    return (1, t) if t >= 0 else (2, OUT)


def free_cells(s: list[int]) -> list[int]:
    return [c for c in range(CELLS) if not piece_on(s, c)]


def action_options(s: list[int], code: int, player: int) -> list[int]:
    """The actions that carry out action ``code`` (empty: it cannot be carried out)."""
    if code < 4:
        return [A_SHIFT + line for line in range(5)]
    if code == ACT_CLOVER:
        if s[SUPPLY] > 0:
            return [-1]  # from the supply: no choice
        return [A_CLOVER + q for q in range(s[NPLAYERS]) if q != player and s[CLOVER + q] > 0]
    if code == ACT_PEEK:
        return [A_PEEK + c for c in free_cells(s)]
    if code == ACT_SWAPCARDS:
        free = free_cells(s)
        return [A_SWAPCARDS + pair_index(a, b, CELLS) for i, a in enumerate(free) for b in free[i + 1:]]
    return [A_SWAPCHARS + pair_index(a, b, 8) for a in range(8) for b in range(a + 1, 8)]


def action_possible(s: list[int], code: int, player: int) -> bool:
    """True when action ``code`` can be carried out (``action_options`` would list something)."""
    if code < 4 or code == ACT_SWAPCHARS:
        return True
    if code == ACT_CLOVER:
        return s[SUPPLY] > 0 or any(q != player and s[CLOVER + q] > 0 for q in range(s[NPLAYERS]))
    return len(free_cells(s)) >= (1 if code == ACT_PEEK else 2)


def options(s: list[int], deck: Sequence[int]) -> list[int]:
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
            kind, _ = move_result(s, deck, p, loc, -1, -1)
            if kind:
                moves.append(c)
        elif action_possible(s, action_code(s, deck, loc - 4), p):
            actions.append(c)
    return moves if moves else actions


def first_step_bound(s: list[int], deck: Sequence[int], p: int, union: list[int], rf: list[int]) -> int:
    """Fewest moves out for a piece on cell ``p`` if every card could show either side, except that its first
    step follows the face-up paths of the card under it (nobody may flip that card while the piece is there;
    once it has left, the card may be flipped and crossed again). -1 when there is no way out at all."""
    own = deck[T_EXITS + s[UP + p]]
    best = -1
    for d in range(4):
        if not own >> d & 1:
            continue
        t = neighbor(p, d)
        if t < 0:
            return 1
        if union[t] >> ((d + 2) & 3) & 1 and rf[t] >= 0 and (best < 0 or rf[t] + 1 < best):
            best = rf[t] + 1
    return best


def public_unions(s: list[int], deck: Sequence[int]) -> list[int]:
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


def stuck(s: list[int], deck: Sequence[int], player: int) -> bool:
    """Base game: as every player can see, no sequence of flips can ever open a way out for this piece (MR-19)."""
    union = public_unions(s, deck)
    rf = [0] * CELLS
    field(union, rf)
    return first_step_bound(s, deck, s[PIECE + player], union, rf) < 0


def end_turn(s: list[int], deck: Sequence[int]) -> None:
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
    if s[VARIANT] == VAR_BASE and all(stuck(s, deck, i) for i in range(s[NPLAYERS])):
        s[PHASE] = PH_OVER  # nobody can ever leave: the game ends without a winner


def do_move(s: list[int], deck: Sequence[int], d: int) -> None:
    p = s[TOMOVE]
    kind, t = move_result(s, deck, p, d, -1, -1)
    pc = s[PIECE + p]
    ps = s[UP + pc]
    goblin = deck[T_GOBLINS + ps] >> d & 1
    if t != OUT:
        goblin |= deck[T_GOBLINS + s[UP + t]] >> ((d + 2) & 3) & 1
    if goblin and goblins_active(s):
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
        end_turn(s, deck)


def start_action(s: list[int], deck: Sequence[int], code: int) -> None:
    p = s[TOMOVE]
    opts = action_options(s, code, p)
    if code < 4:
        s[PENDING] = absolute(s[SEAT + p], code)
        s[PHASE] = PH_ACT
        return
    if opts == [-1]:
        s[SUPPLY] -= 1
        s[CLOVER + p] += 1
        end_turn(s, deck)
        return
    s[PENDING] = code
    if len(opts) == 1:
        apply_act(s, deck, opts[0])
    else:
        s[PHASE] = PH_ACT


def choose(s: list[int], deck: Sequence[int], c: int) -> None:
    loc = s[CHAR + c]
    if loc < 4:
        do_move(s, deck, loc)
    else:
        start_action(s, deck, action_code(s, deck, loc - 4))


def resolve_flip(s: list[int], deck: Sequence[int]) -> None:
    opts = options(s, deck)
    if not opts:
        end_turn(s, deck)
    elif len(opts) == 1:
        choose(s, deck, opts[0])
    else:
        s[PHASE] = PH_CHOOSE


def line_cells(d: int, line: int) -> list[int]:
    """The line's cells in the order the cards travel (each moves to the next; the last re-enters first)."""
    if d == 2:
        return [5 * r + line for r in range(5)]
    if d == 0:
        return [5 * r + line for r in range(4, -1, -1)]
    if d == 1:
        return [5 * line + c for c in range(5)]
    return [5 * line + c for c in range(4, -1, -1)]


def shift(s: list[int], d: int, line: int) -> None:
    cells = line_cells(d, line)
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


def swap_cells(s: list[int], a: int, b: int) -> None:
    for base in (UP, DOWN, SEEN):
        s[base + a], s[base + b] = s[base + b], s[base + a]
    if s[LAST] == a:
        s[LAST] = b
    elif s[LAST] == b:
        s[LAST] = a


def apply_act(s: list[int], deck: Sequence[int], a: int) -> None:
    p = s[TOMOVE]
    if A_SHIFT <= a < A_CLOVER:
        shift(s, s[PENDING], a - A_SHIFT)
    elif A_CLOVER <= a < A_PEEK:
        s[CLOVER + a - A_CLOVER] -= 1
        s[CLOVER + p] += 1
    elif A_PEEK <= a < A_SWAPCARDS:
        s[SEEN + a - A_PEEK] |= 1 << p
    elif A_SWAPCARDS <= a < A_SWAPCHARS:
        x, y = pair_from_index(a - A_SWAPCARDS, CELLS)
        swap_cells(s, x, y)
    else:
        x, y = pair_from_index(a - A_SWAPCHARS, 8)
        s[CHAR + x], s[CHAR + y] = s[CHAR + y], s[CHAR + x]
    end_turn(s, deck)


def legal(s: list[int], deck: Sequence[int]) -> list[int]:
    phase = s[PHASE]
    if phase == PH_FLIP:
        side = s[START]
        out = [c for c in range(CELLS)
               if (s[UP + c] & 1) == side and c != s[LAST] and not piece_on(s, c)]
        return out or [A_PASS]
    if phase == PH_CHOOSE:
        return [A_CHOOSE + c for c in options(s, deck)]
    if phase == PH_ACT:
        pend = s[PENDING]
        return action_options(s, 0 if pend < 4 else pend, s[TOMOVE])
    return []


def apply(s: list[int], deck: Sequence[int], a: int) -> None:
    """Play a legal action (no check)."""
    if a < A_PASS:
        s[UP + a], s[DOWN + a] = s[DOWN + a], s[UP + a]
        s[SEEN + a] = (1 << s[NPLAYERS]) - 1
        s[LAST] = a
        resolve_flip(s, deck)
    elif a == A_PASS:
        s[LAST] = -1
        end_turn(s, deck)
    elif a < A_SHIFT:
        choose(s, deck, a - A_CHOOSE)
    else:
        apply_act(s, deck, a)


# -- validation of kernel input ------------------------------------------------------------
def checked(state: Any, deck: Any) -> list[int]:
    if len(deck) != DECK_LEN:
        raise ValueError("deck: expected 160 entries")
    return checked_vector(state)


VECTOR_ERRORS = ("", "bad player count", "bad side id", "bad piece", "bad seat", "bad character place",
                 "bad turn fields", "choose phase without a flipped card",
                 "a piece left the forest but the game goes on", "bad pending action")


def vector_error(s: list[int]) -> int:
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


def checked_vector(state: Any) -> list[int]:
    if len(state) != STATE_LEN:
        raise ValueError("state: expected 112 entries")
    s = [int(v) for v in state]
    err = vector_error(s)
    if err:
        raise ValueError("state: " + VECTOR_ERRORS[err])
    return s


def checked_rows(states: Any, deck: Any) -> list[list[int]]:
    if len(deck) != DECK_LEN:
        raise ValueError("deck: expected 160 entries")
    rows = []
    for i, row in enumerate(states):
        if len(row) != STATE_LEN:
            raise ValueError("states: expected rows of 112 entries")
        s = [int(v) for v in row]
        err = vector_error(s)
        if err:
            raise ValueError(f"states[{i}]: " + VECTOR_ERRORS[err])
        rows.append(s)
    return rows
