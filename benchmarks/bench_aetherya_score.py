"""Aetherya scoring: compiled batch kernel against its pure-Python twin, in one run.

Targets (foundation issue): at least 1,000,000 kingdoms/s and at least 50x the twin.
"""

from __future__ import annotations

import time

import numpy as np
from common import best_time, table

from solver.kernels import aetherya as kernel
from solver.twins import aetherya_score as twin


def random_kingdoms(n: int, seed: int) -> np.ndarray:
    """Kingdoms dealt from the 80-card deck (8 of each type), no face-down cells."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(10, dtype=np.uint8), 8)
    return np.array([rng.permutation(deck)[:16] for _ in range(n)], dtype=np.uint8)


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    n_kernel = 20_000 if quick else 200_000
    n_twin = 200 if quick else 2_000
    kingdoms = random_kingdoms(n_kernel, seed=2026)
    out = np.empty((n_kernel, 8), dtype=np.int32)
    t_kernel = best_time(lambda: kernel.score_batch(kingdoms, out), repeat=5)
    small = kingdoms[:n_twin]
    out_small = np.empty((n_twin, 8), dtype=np.int32)
    t_twin = best_time(lambda: twin.score_batch(small, out_small), repeat=3)
    check = np.empty((n_twin, 8), dtype=np.int32)
    kernel.score_batch(small, check)
    agree = bool(np.array_equal(check, out_small))
    single = kingdoms[0].copy()
    t_single = best_time(lambda: kernel.score_one(single), repeat=5)
    k_rate, t_rate = n_kernel / t_kernel, n_twin / t_twin
    print(table(["what", "kingdoms/s", "ratio to twin"], [
        ["kernel score_batch", k_rate, f"{k_rate / t_rate:,.0f}x"],
        ["kernel score_one (one Python call each)", 1 / t_single, f"{(1 / t_single) / t_rate:,.0f}x"],
        ["twin score_batch", t_rate, "1x"],
    ]))
    print(f"\nbatch of {n_kernel:,} kingdoms dealt from the 80-card deck; twin on the first {n_twin:,}; "
          f"kernel and twin agree on them: {agree}. Targets: >= 1,000,000/s and >= 50x: "
          f"{'met' if k_rate >= 1e6 and k_rate / t_rate >= 50 else 'NOT met'}.")
    return 0 if agree else 1


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
