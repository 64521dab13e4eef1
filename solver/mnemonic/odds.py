"""Exact Mnemonic odds as fractions, from the compiled kernel ``solver.kernels.mnemonic``.

* Individual Scene: roll a pool of ``n`` d6 and keep the highest; a 6 is a
  success, anything else complicates the skill (rulebook steps 3-4).
  ``P(success) = 1 - (5/6)**n``: 1 die 1/6, 2 dice 11/36, 3 dice 91/216.
* Group Scene: every player rolls their pool and keeps the highest, the
  Adversary rolls one die per complication; Victory if the single highest
  roll is a player's, Defeat if it is the Adversary's, Draw if a player and
  the Adversary share it (MN-3..MN-6 in ``docs/rules/mnemonic.md``).

Fractions are exact and in lowest terms; the three group outcomes always sum
to exactly 1. Up to 49 dice in all the counts come from the compiled kernel
(unsigned 128-bit integers); beyond, the same closed forms are evaluated with
Python's unbounded integers, so the answer stays exact (MN-7). Pools are
capped at ``MAX_DICE`` dice in all so that one query cannot print numbers of
unbounded length.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral
from typing import Any

from solver.buffers import INT64, typed
from solver.errors import InvalidInputError
from solver.kernels import mnemonic as kernel

MAX_EXACT_DICE: int = kernel.MAX_EXACT_DICE
#: most dice (players' and Adversary's together) an odds query accepts; 6**1000 has 779 digits
MAX_DICE = 1000
OUTCOMES = ("victory", "defeat", "draw")
NOBODY_CODES = {"victory": 0, "defeat": 1, "draw": 2}


def fraction_text(value: Fraction) -> str:
    """``"numerator/denominator"`` in lowest terms, also for 0 (``"0/1"``) and 1 (``"1/1"``)."""
    return f"{value.numerator}/{value.denominator}"


@dataclass(frozen=True)
class IndividualOdds:
    """Odds of one Individual Scene roll of ``dice`` dice."""

    dice: int
    success: Fraction
    complication: Fraction

    def to_json(self) -> dict[str, Any]:
        """``success`` and ``complication`` as fraction strings, plus ``floats``."""
        return {"success": fraction_text(self.success), "complication": fraction_text(self.complication),
                "floats": {"success": float(self.success), "complication": float(self.complication)}}


@dataclass(frozen=True)
class GroupOdds:
    """Odds of one Group Scene: Victory, Defeat and Draw (sum exactly 1)."""

    pools: tuple[int, ...]
    adversary: int
    victory: Fraction
    defeat: Fraction
    draw: Fraction
    nobody_rolls: bool = False

    def to_json(self) -> dict[str, Any]:
        """``victory``, ``defeat``, ``draw`` as fraction strings, plus ``floats``."""
        return {"victory": fraction_text(self.victory), "defeat": fraction_text(self.defeat),
                "draw": fraction_text(self.draw),
                "floats": {"victory": float(self.victory), "defeat": float(self.defeat), "draw": float(self.draw)}}

    def get(self, outcome: str) -> Fraction:
        """The probability of ``"victory"``, ``"defeat"`` or ``"draw"``."""
        return {"victory": self.victory, "defeat": self.defeat, "draw": self.draw}[outcome]


def _check_dice(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise InvalidInputError(field, value, "expected a whole number of dice")
    if value < 0:
        raise InvalidInputError(field, value, "a pool cannot hold fewer than 0 dice")
    return int(value)


def _max_counts(n: int) -> list[int]:
    """How many of the ``6**n`` rolls have highest die ``0..6``: the kernel up to 49 dice, exact integers beyond."""
    if n <= MAX_EXACT_DICE:
        return kernel.max_counts(n)
    return [0] + [v ** n - (v - 1) ** n for v in range(1, 7)]


def _group_counts(pools: tuple[int, ...], adversary: int, nobody: int) -> tuple[int, int, int, int]:
    """``(victory, defeat, draw, total)`` counts; past the kernel's range the same sums in exact integers."""
    players = sum(pools)
    if players + adversary <= MAX_EXACT_DICE:
        return kernel.group_counts(typed(INT64, pools), adversary, nobody)
    # players' highest exactly v and every Adversary die below v (Victory), and symmetrically (Defeat)
    victory = sum((v ** players - (v - 1) ** players) * (v - 1) ** adversary for v in range(1, 7)) if players else 0
    defeat = sum((v ** adversary - (v - 1) ** adversary) * (v - 1) ** players for v in range(1, 7)) if adversary else 0
    total = 6 ** (players + adversary)
    return victory, defeat, total - victory - defeat, total


def _check_total(n: int, field: str, value: Any, what: str = "") -> None:
    if n > MAX_DICE:
        raise InvalidInputError(field, value, f"{n} dice{what}: more than the {MAX_DICE} an odds query accepts")


def highest_distribution(dice: int, field: str = "dice") -> list[Fraction]:
    """``P(highest die == v)`` for ``v = 0..6`` (``v = 0`` means no die was rolled)."""
    n = _check_dice(dice, field)
    _check_total(n, field, dice)
    return [Fraction(c, 6 ** n) for c in _max_counts(n)]


def individual_odds(dice: int, field: str = "dice") -> IndividualOdds:
    """Success (a 6 among ``dice`` dice) and complication; a pool of 0 dice cannot succeed (MN-2)."""
    n = _check_dice(dice, field)
    _check_total(n, field, dice)
    success = Fraction(_max_counts(n)[6], 6 ** n)
    return IndividualOdds(n, success, 1 - success)


def group_odds(pools: Sequence[int], adversary: int, nobody_rolls: str = "draw",
               field: str = "pools", adversary_field: str = "adversary") -> GroupOdds:
    """Exact Group Scene odds for the players' ``pools`` against ``adversary`` complication dice."""
    if isinstance(pools, (str, bytes)) or not isinstance(pools, Sequence):
        raise InvalidInputError(field, pools, "expected a list of dice pools, one per player")
    values = tuple(_check_dice(p, f"{field}[{i}]") for i, p in enumerate(pools))
    m = _check_dice(adversary, adversary_field)
    if nobody_rolls not in NOBODY_CODES:
        raise InvalidInputError("rules.group.nobodyRolls", nobody_rolls, "expected victory, defeat or draw")
    _check_total(m, adversary_field, adversary)
    _check_total(sum(values) + m, field, list(pools), f" in all ({sum(values)} player dice, {m} Adversary dice)")
    v, d, w, total = _group_counts(values, m, NOBODY_CODES[nobody_rolls])
    return GroupOdds(values, m, Fraction(v, total), Fraction(d, total), Fraction(w, total),
                     nobody_rolls=(sum(values) == 0 and m == 0))


def parse_pools(text: str, field: str = "--players") -> list[int]:
    """``"3,2,0"`` -> ``[3, 2, 0]``; every item a whole number of dice."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInputError(field, text, "expected comma-separated dice pools such as 3,2,0")
    out = []
    for i, part in enumerate(text.split(",")):
        part = part.strip()
        if not part.lstrip("+").isdigit():
            raise InvalidInputError(field, text, f"item {i + 1} ({part!r}) is not a whole number of dice")
        out.append(int(part))
    return out
