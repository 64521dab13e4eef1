"""Intervals and paired tests for self-play summaries and benchmarks (95% by default)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and a normal-approximation interval (the mean itself, twice, for fewer than two values)."""
    if not values:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, mean, mean)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean, mean - half, mean + half)


def mcnemar(a: Sequence[float], b: Sequence[float]) -> tuple[int, int, float]:
    """Paired 0/1 outcomes: deals only ``a`` won, deals only ``b`` won, and the exact two-sided McNemar p-value."""
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    m, k = only_a + only_b, min(only_a, only_b)
    p = min(1.0, 2 * sum(math.comb(m, i) for i in range(k + 1)) / 2 ** m) if m else 1.0
    return only_a, only_b, p


def is_binary(values: Sequence[float]) -> bool:
    """True when every value is 0 or 1 (win/loss outcomes)."""
    return all(v in (0, 1) for v in values)
