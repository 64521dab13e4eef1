"""Aetherya's utility bounds for OpenSpiel, derived by enumeration (``solver/aetherya/openspiel.py`` holds them).

``python benchmarks/run.py openspiel_bounds`` enumerates every Portal layout of the 4x4 kingdom with at most
``2 P`` Portals (the copies of a kind in a game of ``P`` players) and its connection graph (AE-1, AE-2, through
the scoring kernel's ``connections``), and prints:

- ``pairs``: the most connected pairs of cards a kingdom can have;
- ``cut``: the most points connected pairs can score, a relaxation: every pair that scores is a Tribe and a
  Terrain, worth at most 2 (3 for an orthogonal Goblin-Swamp pair, AE-4, AE-5), so the points are at most the
  heaviest cut of the connection graph into "Tribes" and "Terrains" (edges weighted 3 if orthogonal, else 2),
  found by trying every cut;
- the bounds: a board total is at most ``cut + 18`` (at most three tamed Dragons worth 6, AE-7) and at least
  ``-2 pairs - 6 * 2P`` (a conflict or a Swamp costs at most 2 a pair, AE-4 and AE-6; ``2P`` wild Dragons
  cost 6 each); Accords and Staffs only cancel conflicts and tame Dragons, so they stay inside;
- the best board total an exhaustive search of 16-card hands finds (the optimiser on each hand of a local
  search over hands), for how tight the upper bound is.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import table  # noqa: E402

from solver.aetherya.cards import CARD_TYPES, LETTERS, PORTAL  # noqa: E402
from solver.kernels import aetherya as kernel  # noqa: E402

CELLS = 16
PLAYERS = (2, 3, 4)


def layout_graph(portals: int) -> tuple[int, list[tuple[int, int, int]]]:
    """``(free cells, [(i, j, weight)])``: the connected pairs of the non-Portal cells (indexed among them)."""
    board = np.zeros(CELLS, dtype=np.uint8)
    for c in range(CELLS):
        if portals >> c & 1:
            board[c] = PORTAL
    conn = kernel.connections(board)
    cells = [c for c in range(CELLS) if not portals >> c & 1]
    edges = []
    for i, u in enumerate(cells):
        for j in range(i + 1, len(cells)):
            v = cells[j]
            if conn[u] >> v & 1:
                orthogonal = abs(u // 4 - v // 4) + abs(u % 4 - v % 4) == 1
                edges.append((i, j, 3 if orthogonal else 2))
    return len(cells), edges


def heaviest_cut(cells: int, edges: list[tuple[int, int, int]]) -> int:
    """The heaviest cut, by trying every side of each cell (cell 0 fixed: a cut and its mirror are one)."""
    if cells < 2:
        return 0
    masks = np.arange(1 << (cells - 1), dtype=np.uint32) << 1
    cut = np.zeros(len(masks), dtype=np.int32)
    for i, j, weight in edges:
        cut += (((masks >> i) ^ (masks >> j)) & 1).astype(np.int32) * weight
    return int(cut.max())


def enumerate_layouts() -> dict[int, tuple[int, int]]:
    """Per player count: (most connected pairs, heaviest cut) over layouts with at most 2P Portals."""
    out = {p: (0, 0) for p in PLAYERS}
    for portals in range(1 << CELLS):
        count = bin(portals).count("1")
        if count > 2 * max(PLAYERS):
            continue
        cells, edges = layout_graph(portals)
        pairs, cut = len(edges), heaviest_cut(cells, edges)
        for p in PLAYERS:
            if count <= 2 * p:
                out[p] = (max(out[p][0], pairs), max(out[p][1], cut))
    return out


def best_found(players: int, rounds: int, seed: int = 0) -> tuple[int, str]:
    """A local search over 16-card hands (at most 2P of a kind), each hand arranged by the exact optimiser."""
    from solver.aetherya.optimize import optimize_kingdom
    rng = np.random.default_rng(seed)
    cap = 2 * players

    def value(counts: list[int]) -> int:
        return optimize_kingdom("".join(LETTERS[k] * n for k, n in enumerate(counts))).total

    best_counts, best = None, -10**9
    for _ in range(rounds):
        counts = [0] * CARD_TYPES
        while sum(counts) < CELLS:
            k = int(rng.integers(CARD_TYPES))
            if counts[k] < cap:
                counts[k] += 1
        current = value(counts)
        improved = True
        while improved:
            improved = False
            for a in rng.permutation(CARD_TYPES):
                for b in rng.permutation(CARD_TYPES):
                    if a == b or counts[a] == 0 or counts[b] >= cap:
                        continue
                    counts[a] -= 1
                    counts[b] += 1
                    v = value(counts)
                    if v > current:
                        current, improved = v, True
                        break
                    counts[a] += 1
                    counts[b] -= 1
                if improved:
                    break
        if current > best:
            best, best_counts = current, list(counts)
    return best, "".join(LETTERS[k] * n for k, n in enumerate(best_counts))


def main(argv: list[str]) -> int:
    from solver.aetherya import openspiel as facts
    quick = "--quick" in argv
    start = time.process_time()
    found = enumerate_layouts()
    seconds = time.process_time() - start
    rows = []
    for p in PLAYERS:
        pairs, cut = found[p]
        upper, lower = cut + facts.DRAGON_MAX, -2 * pairs - facts.DRAGON_COST * 2 * p
        ok = (upper, lower) == (facts.MAX_BOARD, facts.MIN_BOARD[p])
        best, hand = best_found(p, 1 if quick else 4)
        rows.append([p, pairs, cut, upper, lower, "yes" if ok else "NO", best, hand])
    print(f"Enumerated every layout with at most 8 Portals in {seconds:.1f} s CPU.\n")
    print(table(["players", "most connected pairs", "heaviest cut", "board at most", "board at least",
                 "= openspiel.py", "best board found", "its hand"], rows))
    return 0 if all(r[5] == "yes" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
