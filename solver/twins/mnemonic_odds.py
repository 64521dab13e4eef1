"""Pure-Python twin of ``src/mnemonic_odds.pxi``: Mnemonic dice distributions as exact counts.

Same functions, same signatures, same results as the compiled kernel
(``solver.kernels.mnemonic``), written the slow, obvious way: the counts
come from summing over every highest value with Python's unbounded integers,
and the twin enforces the kernel's exact range (``MAX_EXACT_DICE``) so that
both behave identically at the boundary.
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_EXACT_DICE = 49


def max_counts(dice: int) -> list[int]:
    """Counts (over ``6**dice`` rolls) of the highest die being ``0..6``; ``[1, 0, ...]`` for no dice."""
    if dice < 0:
        raise ValueError(f"dice: must be at least 0: {dice!r}")
    if dice > MAX_EXACT_DICE:
        raise OverflowError(f"dice: {dice} dice exceed the exact range of {MAX_EXACT_DICE}")
    if dice == 0:
        return [1, 0, 0, 0, 0, 0, 0]
    # P(highest <= v) = (v/6)**dice, so "highest == v" counts v**dice - (v-1)**dice rolls
    return [0] + [v ** dice - (v - 1) ** dice for v in range(1, 7)]


def group_counts(pools: Sequence[int], adversary: int, nobody_rolls: int) -> tuple[int, int, int, int]:
    """``(victory, defeat, draw, total)`` counts of a Group Scene over ``6**(sum(pools) + adversary)`` rolls."""
    if adversary < 0:
        raise ValueError(f"adversary: must be at least 0: {adversary!r}")
    if nobody_rolls not in (0, 1, 2):
        raise ValueError(f"nobody_rolls: expected 0 (victory), 1 (defeat) or 2 (draw): {nobody_rolls!r}")
    for i, pool in enumerate(pools):
        if pool < 0:
            raise ValueError(f"pools[{i}]: must be at least 0: {pool!r}")
    players = int(sum(pools))
    if players + adversary > MAX_EXACT_DICE:
        raise OverflowError(f"pools/adversary: {players + adversary} dice in all exceed the exact range "
                            f"of {MAX_EXACT_DICE}")
    if players == 0 and adversary == 0:
        return ((1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1))[nobody_rolls]
    # The players' best roll is the highest of all their dice together: a pool of n dice kept at its
    # highest, and the highest of several pools, is the highest of all the dice.
    player_best = max_counts(players)
    adversary_best = max_counts(adversary)
    victory = defeat = draw = 0
    for p in range(7):
        for a in range(7):
            ways = player_best[p] * adversary_best[a]
            if p > a:
                victory += ways
            elif a > p:
                defeat += ways
            else:
                draw += ways
    return victory, defeat, draw, 6 ** (players + adversary)
