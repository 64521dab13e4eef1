"""Scoring a kingdom during play: the scoring kernel plus the tiles that change it.

The board categories come from the compiled kernel (``aetherya_score``); the
Objects and Characters tiles that act on the board are applied on top:
a Diplomatic Accord removes every conflict of the Tribe it lies on (AE-24), a
Staff of Command makes its Dragon tamed within the cap of 3 (AE-25), and the
Power Stones add the units digit of their sum to the Legends line (AE-30).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from solver.aetherya.cards import (DRAGON, DWARVES, ELVES, GOBLINS, HUMANS, LEGENDS, UNEXPLORED, Legend,
                                   legends_from_mask)
from solver.aetherya.scoring import KingdomScore
from solver.kernels import aetherya_score as kernel

DRAGON_VALUE = (0, 3, 5, 6)
LEGEND_POINTS = {leg.number: leg.points for leg in LEGENDS}
BATTLES = {8: (GOBLINS, HUMANS), 9: (GOBLINS, ELVES), 10: (GOBLINS, DWARVES), 11: (ELVES, DWARVES)}


def board_array(cards: Sequence[int], hidden: int = 0) -> np.ndarray:
    """16 kernel codes: face-down cells (bit set in ``hidden``) and empty cells (-1) become ``?``."""
    out = np.empty(16, dtype=np.uint8)
    for c in range(16):
        out[c] = UNEXPLORED if (hidden >> c & 1 or cards[c] < 0) else cards[c]
    return out


def _conflict_pairs(codes: np.ndarray, conn: list[int]) -> list[tuple[int, int]]:
    """Each conflicting connected pair once, as in the kernel (AE-6)."""
    pairs = []
    for c in range(16):
        if codes[c] == GOBLINS:
            pairs += [(c, n) for n in range(16) if conn[c] >> n & 1 and codes[n] in (HUMANS, ELVES, DWARVES)]
        elif codes[c] == ELVES:
            pairs += [(c, n) for n in range(16) if conn[c] >> n & 1 and codes[n] == DWARVES]
    return pairs


def _tamed_by_tribes(codes: np.ndarray, conn: list[int], cell: int) -> bool:
    around = [codes[n] for n in range(16) if conn[cell] >> n & 1]
    return any(around.count(t) >= 2 for t in (HUMANS, ELVES, DWARVES))


def dragon_is_wild(codes: np.ndarray, cell: int, staffs: int = 0) -> bool:
    """True when the Dragon at ``cell`` is neither tamed by two Tribes of a kind nor under a Staff."""
    if staffs >> cell & 1:
        return False
    return not _tamed_by_tribes(codes, kernel.connections(codes), cell)


def score_board(codes: np.ndarray, accords: int = 0, staffs: int = 0, legend_points: int = 0
                ) -> KingdomScore:
    """The score sheet of a kingdom with its Accord and Staff cells (bitmasks) and Legends-line points."""
    elves, dwarves, humans, goblins, dragons, conflicts, _total, mask = kernel.score_one(codes)
    if accords or staffs:
        conn = kernel.connections(codes)
        if accords:
            spared = sum(1 for a, b in _conflict_pairs(codes, conn) if (accords >> a | accords >> b) & 1)
            conflicts += 2 * spared
        if staffs:
            cells = [c for c in range(16) if codes[c] == DRAGON]
            n = len(cells)
            tamed = sum(1 for c in cells if staffs >> c & 1 or _tamed_by_tribes(codes, conn, c))
            value, counted = DRAGON_VALUE[min(n, 3)], min(tamed, 3)
            dragons = value * counted - value * (n - counted)
    return KingdomScore(elves, dwarves, humans, goblins, dragons, legend_points, conflicts,
                        tuple(legends_from_mask(mask)))


def satisfied_legends(codes: np.ndarray) -> set[int]:
    """Numbers of the Legends the (revealed part of the) kingdom satisfies."""
    return {leg.number for leg in legends_from_mask(kernel.score_one(codes)[7])}


def sword_battles(codes: np.ndarray) -> set[int]:
    """Battle Legends (8-11) winnable with the Magic Sword: one card of each kind connected (AE-26)."""
    conn = kernel.connections(codes)
    out = set()
    for number, (a, b) in BATTLES.items():
        if any(codes[c] == a and any(conn[c] >> n & 1 and codes[n] == b for n in range(16)) for c in range(16)):
            out.add(number)
    return out


def legend_points(numbers: Iterable[int]) -> int:
    """The points of the Legends with these numbers."""
    return sum(LEGEND_POINTS[n] for n in numbers)


def legend_slugs(numbers: Iterable[int]) -> list[str]:
    """Slugs of Legend numbers."""
    return [LEGENDS[n - 1].slug for n in numbers]


def legend_card(number: int) -> Legend:
    """The Legend with this number."""
    return LEGENDS[number - 1]
