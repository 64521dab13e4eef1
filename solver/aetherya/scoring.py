"""Aetherya kingdom notation and scoring (rulebook: "End of Game and Scoring").

The kingdom notation is 4 rows of 4 card letters joined by ``/``, top row
first (``FEFP/MDMH/PHFS/SSGS``). Scoring runs in the compiled kernel
``solver.kernels.aetherya``; the rules it implements are in
``docs/rules/aetherya.md`` and, readably, in its twin
``solver/twins/aetherya_score.py``.

During play the Objects and Characters tiles that act on the board are applied
on top of the kernel's categories (:func:`score_board`): a Diplomatic Accord
removes every conflict of the Tribe it lies on (AE-24), a Staff of Command makes
its Dragon tamed within the cap of 3 (AE-25), and the Power Stones add the units
digit of their sum to the Legends line (AE-30).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver.aetherya.cards import (CATEGORIES, CELLS, DRAGON, DWARVES, ELVES, GOBLINS, HUMANS, LEGENDS, LETTERS, SIDE,
                                   UNEXPLORED, Legend, legend, legends_from_mask)
from solver.errors import InvalidInputError, NotationError, UnknownCardError
from solver.kernels import aetherya as kernel
from solver.validate import as_str


def parse_kingdom(text: str, field: str = "kingdom") -> np.ndarray:
    """Card codes (uint8, 16) of a kingdom in notation; errors name the row and column."""
    if not isinstance(text, str):
        raise NotationError(field, text, "expected a kingdom string such as 'FEFP/MDMH/PHFS/SSGS'")
    rows = text.strip().split("/")
    if len(rows) != SIDE or any(len(r) != SIDE for r in rows):
        raise NotationError(field, text, "expected 4 rows of 4 card letters joined by '/' (letters: PFMSHEDGRO?)")
    codes = np.empty(CELLS, dtype=np.uint8)
    for r, row in enumerate(rows):
        for c, letter in enumerate(row):
            if letter.upper() not in LETTERS:
                raise UnknownCardError(field, letter, f"unknown card at row {r + 1}, column {'abcd'[c]} "
                                                      f"(expected one of {' '.join(LETTERS)})")
            codes[r * SIDE + c] = LETTERS.index(letter.upper())
    return codes


def kingdom_codes(codes: Sequence[int] | np.ndarray, field: str = "kingdom") -> np.ndarray:
    """16 card codes (0..10) as a contiguous uint8 array, checked."""
    if isinstance(codes, (str, bytes)) or not hasattr(codes, "__len__") or len(codes) != CELLS:
        raise NotationError(field, codes, "expected a kingdom string such as 'FEFP/MDMH/PHFS/SSGS' or 16 card codes")
    values = [int(k) if isinstance(k, (int, np.integer)) and not isinstance(k, bool) else -1 for k in codes]
    if any(not 0 <= v < len(LETTERS) for v in values):
        raise NotationError(field, list(codes), f"card codes must be integers 0..{len(LETTERS) - 1}")
    return np.asarray(values, dtype=np.uint8)


def format_kingdom(codes: Sequence[int]) -> str:
    """The notation of 16 card codes."""
    if len(codes) != CELLS:
        raise InvalidInputError("kingdom", list(codes), "expected 16 card codes")
    letters = "".join(LETTERS[int(k)] for k in codes)
    return "/".join(letters[i:i + SIDE] for i in range(0, CELLS, SIDE))


def parse_legend_list(keys: Iterable[Any], field: str = "legends") -> list[Legend]:
    """Distinct Legends from slugs or numbers."""
    held: list[Legend] = []
    for i, key in enumerate(keys):
        card = legend(key, f"{field}[{i}]")
        if card in held:
            raise InvalidInputError(f"{field}[{i}]", key, "Legend listed twice (each Legend card is unique)")
        held.append(card)
    return held


def parse_legends_option(value: Any, field: str) -> list[str]:
    """``--legends plains-3,7``: Legend numbers or slugs, comma-separated; their slugs."""
    text = as_str(value, field)
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if text.strip() and not parts:
        raise InvalidInputError(field, text, "expected comma-separated Legend ids")
    return [leg.slug for leg in parse_legend_list(parts, field)]


@dataclass(frozen=True)
class KingdomScore:
    """The seven score-sheet categories of one kingdom, its total and tie-break key."""

    elves: int
    dwarves: int
    humans: int
    goblins: int
    dragons: int
    legends: int
    conflicts: int
    satisfied: tuple[Legend, ...] = field(default=())

    @property
    def categories(self) -> tuple[int, ...]:
        """The seven category scores in score-sheet order."""
        return (self.elves, self.dwarves, self.humans, self.goblins, self.dragons, self.legends, self.conflicts)

    @property
    def total(self) -> int:
        """The Harmony points."""
        return sum(self.categories)

    @property
    def tiebreak(self) -> list[int]:
        """The seven category scores, best first: compared in order to break a tie."""
        return sorted(self.categories, reverse=True)

    def rank_key(self) -> tuple[int, ...]:
        """Sort key: higher is better (total, then the tie-break sequence)."""
        return (self.total, *self.tiebreak)

    def to_json(self) -> dict[str, Any]:
        """``elves`` .. ``conflicts``, ``total``, ``tiebreak`` and ``satisfied_legends``."""
        out: dict[str, Any] = dict(zip(CATEGORIES, self.categories))
        out["total"] = self.total
        out["tiebreak"] = self.tiebreak
        out["satisfied_legends"] = [leg.slug for leg in self.satisfied]
        return out


def score_kingdom(kingdom: str | Sequence[int] | np.ndarray, legends: Iterable[Any] = (),
                  extra_legend_points: int = 0, field: str = "kingdom",
                  legends_field: str = "legends") -> KingdomScore:
    """Score a kingdom (notation or 16 codes) holding ``legends`` (slugs or numbers).

    ``extra_legend_points`` is added to the Legends line (the rulebook adds
    Power Stones there in the Objects and Characters mode). ``field`` and
    ``legends_field`` name the inputs in error messages.
    """
    codes = parse_kingdom(kingdom, field) if isinstance(kingdom, str) else kingdom_codes(kingdom, field)
    held = parse_legend_list(legends, legends_field)
    elves, dwarves, humans, goblins, dragons, conflicts, _total, mask = kernel.score_one(codes)
    return KingdomScore(elves, dwarves, humans, goblins, dragons,
                        sum(leg.points for leg in held) + extra_legend_points, conflicts,
                        tuple(legends_from_mask(mask)))


def score_rows(kingdoms: np.ndarray) -> np.ndarray:
    """The kernel's score rows of many kingdoms (uint8, shape (n, 16)) in one compiled call: the six board
    categories (elves, dwarves, humans, goblins, dragons, conflicts), the board total and the mask of the Legends
    met (shape (n, 8))."""
    kingdoms = np.ascontiguousarray(kingdoms, dtype=np.uint8)
    out = np.empty((kingdoms.shape[0], 8), dtype=np.int32)
    kernel.score_batch(kingdoms, out)
    return out


def board_scores(kingdoms: np.ndarray) -> np.ndarray:
    """Board totals (no Legends) of many kingdoms (uint8, shape (n, 16)) in one compiled call."""
    return score_rows(kingdoms)[:, 6].copy()


# ---------------------------------------------------------------------- scoring during play
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
