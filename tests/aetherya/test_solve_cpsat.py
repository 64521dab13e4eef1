"""The CP-SAT layout model and the plain baseline model of the benchmark, against brute force."""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path

import numpy as np
import pytest

from solver.aetherya.solve import SYMMETRIES, layout_counts, layouts, make_hand
from solver.aetherya.solve_cpsat import LayoutModel, edges_of, induced_edge_limits, lex_smallest
from solver.aetherya.scoring import board_scores, score_kingdom

ROOT = Path(__file__).resolve().parents[2]


def test_grid_edges_and_induced_edge_limits():
    """4x4 grid: 24 edges; the most edges among k cells (f(4) = 4 for a 2x2 block, f(9) = 12, f(16) = 24)."""
    assert len(edges_of(0)) == 24
    limits = induced_edge_limits(0)
    assert limits[:5] == (0, 0, 1, 2, 4) and limits[9] == 12 and limits[16] == 24


def test_a_centre_portal_links_its_four_neighbours():
    """AE-2: a Portal on b2 removes its 4 edges and links b1, a2, c2, b3 pairwise (6 new pairs)."""
    b2 = 1 * 4 + 1
    edges = edges_of(1 << b2)
    assert len(edges) == 24 - 4 + 6
    hub_pairs = {(u, v) for u, v, orthogonal in edges if not orthogonal}
    assert hub_pairs == {(u, v) for u, v in itertools.combinations(sorted([1, 4, 6, 9]), 2)}


def test_induced_edge_limits_match_brute_force_with_portals():
    portals = (1 << 5) | (1 << 6)
    cells = [c for c in range(16) if not portals >> c & 1]
    edges = [(u, v) for u, v, _ in edges_of(portals)]
    limits = induced_edge_limits(portals)
    for k in (3, 5, 7):
        best = max(sum(1 for u, v in edges if u in chosen and v in chosen)
                   for chosen in map(set, itertools.combinations(cells, k)))
        assert limits[k] == best


def test_lex_smallest_picks_the_canonical_image():
    kingdom = list(range(10)) + [0] * 6
    canonical = lex_smallest(kingdom, SYMMETRIES[1:])
    images = []
    for image in SYMMETRIES:
        moved = [0] * 16
        for c in range(16):
            moved[image[c]] = kingdom[c]
        images.append(moved)
    assert canonical == min(images)


def fillings(codes: tuple[int, ...], counts: np.ndarray) -> np.ndarray:
    """Every distinct filling of the free cells (code 10) of a layout with ``counts``."""
    free = [c for c in range(16) if codes[c] == 10]
    kinds = sorted((k for k in range(10) if counts[k]), key=lambda k: (counts[k], k))
    filler = kinds.pop()
    board = np.array([filler if code == 10 else code for code in codes], dtype=np.uint8)
    rows = []

    def place(i: int, open_cells: list[int]) -> None:
        if i == len(kinds):
            rows.append(board.copy())
            return
        for chosen in itertools.combinations(open_cells, int(counts[kinds[i]])):
            board[list(chosen)] = kinds[i]
            place(i + 1, [c for c in open_cells if c not in chosen])
            board[list(chosen)] = filler

    place(0, free)
    return np.array(rows, dtype=np.uint8)


@pytest.mark.parametrize("cards,fixed", [("PPPPPPPPPPPPHHEO", None), ("SSSSSSSSSSSSGGRO", "a1=R")])
def test_layout_model_finds_each_layout_optimum(cards, fixed):
    """Each layout's optimum (from below the incumbent) equals the best arrangement with those Portals."""
    hand = make_hand(cards, fixed)
    counts = layout_counts(hand)
    for layout in layouts(hand):
        best = int(board_scores(fillings(layout.codes, counts)).max())
        found, value, closed, bound = LayoutModel(layout, counts).improve(best - 1, None, 60.0)
        assert closed and value == bound == best and found is not None
        assert score_kingdom(np.array(found, dtype=np.uint8)).total == best
        found, value, closed, bound = LayoutModel(layout, counts).improve(best, None, 60.0)
        assert closed and found is None and bound == best


def _bench_module():
    spec = importlib.util.spec_from_file_location("bench_aetherya_optimizer",
                                                  ROOT / "benchmarks" / "bench_aetherya_optimizer.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("cards,best", [("PPPPPPPPPPPPHHEO", 20), ("MMMMMMMMMMMRRDDO", 22)])
def test_plain_baseline_model_is_correct(cards, best):
    """The benchmark's plain CP-SAT model proves the brute-force optimum (checked in test_optimize.py)."""
    kingdom, total, proven, bound = _bench_module().plain_model(cards, 60.0)
    assert proven and total == best == round(bound)
    assert score_kingdom(kingdom).total == best and sorted(kingdom.replace("/", "")) == sorted(cards)


def test_benchmark_deal_is_seeded():
    bench = _bench_module()
    assert bench.deal_hands(5, 7) == bench.deal_hands(5, 7)
    assert all(len(h) == 16 and max(h.count(k) for k in set(h)) <= 8 for h in bench.deal_hands(50, 7))
