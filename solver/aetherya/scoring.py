"""Aetherya kingdom notation and end-of-game scoring (rulebook: "End of Game and Scoring").

The kingdom notation is 4 rows of 4 card letters joined by ``/``, top row
first (``FEFP/MDMH/PHFS/SSGS``). Scoring runs in the compiled kernel
``solver.kernels.aetherya_score``; the rules it implements are in
``docs/rules/aetherya.md`` and, readably, in its twin
``solver/twins/aetherya_score.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver.aetherya.cards import CATEGORIES, CELLS, LETTERS, SIDE, Legend, legend, legends_from_mask
from solver.errors import InvalidInputError, NotationError, UnknownCardError
from solver.kernels import aetherya_score as kernel


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


def board_scores(kingdoms: np.ndarray) -> np.ndarray:
    """Board totals (no Legends) of many kingdoms (uint8, shape (n, 16)) in one compiled call."""
    kingdoms = np.ascontiguousarray(kingdoms, dtype=np.uint8)
    out = np.empty((kingdoms.shape[0], 8), dtype=np.int32)
    kernel.score_batch(kingdoms, out)
    return out[:, 6].copy()
