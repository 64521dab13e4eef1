"""Puzzles: proofs cross-checked by brute force, deterministic generation, answers checked."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import numpy as np
import pytest

from solver.aetherya.puzzles import (RacePosition, _met, _race_position, check, generate, greedy_kingdom,
                                     prove_best_kingdom, race_moves, solve_race)
from solver.aetherya.rules import score_board
from solver.errors import InvalidInputError


def brute_force(cards, fixed):
    free_cells = [c for c in range(16) if c not in fixed]
    free = list(cards)
    for card in fixed.values():
        free.remove(card)
    best, boards = -999, set()
    for perm in set(itertools.permutations(free)):
        board = [0] * 16
        for c, k in fixed.items():
            board[c] = k
        for c, k in zip(free_cells, perm):
            board[c] = k
        total = score_board(np.asarray(board, np.uint8)).total
        if total > best:
            best, boards = total, {tuple(board)}
        elif total == best:
            boards.add(tuple(board))
    return best, len(boards)


def test_best_kingdom_proof_matches_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(6):
        cards = sorted(int(x) for x in rng.integers(0, 10, size=16))
        cells = [int(c) for c in rng.permutation(16)[:9]]
        order = [int(i) for i in rng.permutation(16)]
        fixed = {cells[i]: cards[order[i]] for i in range(9)}
        proof = prove_best_kingdom(cards, fixed)
        best, count = brute_force(cards, fixed)
        assert proof.score == best and proof.optimal_boards == count
        assert greedy_kingdom(cards, fixed)[1] <= best


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_best_kingdom_puzzles_are_verified_and_deterministic(difficulty):
    puzzles = generate("best-kingdom", 1, 3, difficulty)
    assert puzzles == generate("best-kingdom", 1, 3, difficulty)
    p = puzzles[0]
    assert p["solution"]["optimal"] and p["solution"]["uniqueUpToSymmetry"]
    assert check(p, p["solution"]["kingdom"])["correct"]
    verdict = check(p, p["greedy"]["kingdom"])
    assert verdict["correct"] == (p["greedy"]["gap"] == 0)
    lo, hi = {"easy": (0, 2), "medium": (3, 6), "hard": (7, 999)}[difficulty]
    assert lo <= p["greedy"]["gap"] <= hi


def plain_bfs(start, draw, number, max_turns):
    if _met([start], number)[0]:
        return 0
    seen, frontier = {start}, [start]
    for turn in range(1, max_turns + 1):
        nxt = []
        for pos in frontier:
            for _, child in race_moves(pos, draw):
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        if _met(nxt, number).any():
            return turn
        frontier = nxt
    return None


def test_vectorised_race_search_matches_plain_search():
    rng = np.random.default_rng(5)
    for _ in range(4):
        pos, draw, _ = _race_position(rng)
        for number in (3, 4, 8, 12, 15):
            assert solve_race(pos, draw, number, 2)[0] == plain_bfs(pos, draw, number, 2)


@pytest.mark.parametrize("difficulty", ["easy", "medium"])
def test_legend_race_puzzles_are_verified(difficulty):
    p = generate("legend-race", 1, 2, difficulty)[0]
    moves = p["solution"]["moves"]
    assert len(moves) == p["solution"]["turns"] == {"easy": 2, "medium": 3}[difficulty]
    assert check(p, moves)["correct"]
    assert check(p, "; ".join(moves))["correct"]
    assert not check(p, moves[:-1])["correct"]
    with pytest.raises(InvalidInputError):
        check(p, ["fly away"])


def test_race_rules_follow_the_base_game():
    """A face-up card is never replaced by its own kind; locked cards stay; only drawn cards may be discarded."""
    pos = RacePosition(tuple([0] * 4 + [9] + [1] * 11), 0b1111000000000000, 0, 0)
    moves = dict(race_moves(pos, [2]))
    assert "take, place a1" not in moves and "take, place a2" not in moves  # a Plains on a Plains; a Portal
    assert "take, place b2" in moves and "draw, reveal a4" in moves and "take, reveal a4" not in moves


def test_cli_generate_and_check(tmp_path):
    out = subprocess.run([sys.executable, "-m", "solver", "aetherya", "generate", "--kind", "best-kingdom",
                          "--count", "2", "--seed", "1", "--difficulty", "easy", "--json"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 2
    puzzle = json.loads(lines[0])
    path = tmp_path / "p.json"
    path.write_text(lines[0])
    ok = subprocess.run([sys.executable, "-m", "solver", "aetherya", "check", str(path), puzzle["solution"]["kingdom"]],
                        cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and "correct" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "solver", "aetherya", "check", str(path), "PPPP/PPPP"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "ANSWER" in bad.stderr
    bad = subprocess.run([sys.executable, "-m", "solver", "aetherya", "generate", "--kind", "maze"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
