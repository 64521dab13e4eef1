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


#: two-sided 95% Student t quantiles t(0.975, df) for df = 1..30 (beyond: the series in :func:`t95`)
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
       2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (table to 30, then the
    Cornish-Fisher series in 1/df, within 1e-3 beyond)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    if df <= len(T95):
        return T95[df - 1]
    z = Z95
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)


def mean_t_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and Student t 95% interval (for few paired differences; the mean itself, twice, for fewer than two
    values, and for values that are all equal)."""
    if not values:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, mean, mean)
    half = t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return (mean, mean - half, mean + half)


def sign_flip_p(differences: Sequence[float], draws: int = 20_000, seed: int = 0) -> float:
    """Two-sided p-value of paired differences under the null of symmetry about zero (a permutation test that
    flips signs): exact over every sign pattern for up to 16 differences, else ``draws`` seeded random flips."""
    import random
    values = [abs(d) for d in differences if d != 0]
    if not values:
        return 1.0
    observed = abs(sum(d for d in differences if d != 0)) - 1e-9
    n = len(values)
    if n <= 16:
        extreme = sum(1 for mask in range(2 ** n)
                      if abs(sum(v if mask >> i & 1 else -v for i, v in enumerate(values))) >= observed)
        return extreme / 2 ** n
    rng = random.Random(seed)
    extreme = sum(1 for _ in range(draws) if abs(sum(v if rng.random() < 0.5 else -v for v in values)) >= observed)
    return (extreme + 1) / (draws + 1)


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
