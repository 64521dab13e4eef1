"""Generated puzzles: answers re-checked independently with the rules engine and the exact solver."""

from __future__ import annotations

import numpy as np
import pytest

from solver import contract
from solver.forgotten.knowledge import info_from_state, useful_moves
from solver.forgotten.solve import ExactAnalysis
from solver.registry import load_game
from solver.search import SearchContext


def generate(game, kind: str, difficulty: str, count: int, seed: int) -> list[tuple[object, dict]]:
    """``count`` puzzles, each from its own stream: ``(the puzzle's state, the puzzle)``."""
    out = []
    for index in range(count):
        puzzle = contract.generate_puzzle(game, kind, difficulty, np.random.default_rng([seed, index]),
                                          SearchContext())
        out.append((game.parse_state(puzzle["state"], "puzzle.state"), puzzle))
    return out


def known_pairs(state) -> list[tuple[int, int]]:
    """Face-down pairs whose two tiles the players have seen."""
    cells = [c for c in range(state.board.cells) if state.status[c] == 1 and state.seen[c]]
    out = []
    for a in cells:
        for b in cells:
            if a < b and state.tiles[a] == state.tiles[b]:
                out.append((a, b))
    return out


def wins_by_matching(state, pair) -> object:
    after = state.clone()
    after.apply_action(pair[0])
    after.apply_action(pair[1])
    return after


def sure_within(state, turns: int) -> bool:
    """Matching known pairs only (world-independent), a win within ``turns`` against every Erasure roll."""
    if turns == 0:
        return False
    for pair in known_pairs(state):
        after = wins_by_matching(state, pair)
        if after.phase == "won":
            return True
        if after.phase == "erase":
            outcomes = []
            for roll in range(after.board.cells):
                rolled = after.clone()
                rolled.apply_action(roll)
                outcomes.append(rolled.phase == "first" and sure_within(rolled, turns - 1))
            if all(outcomes):
                return True
        elif sure_within(after, turns - 1):
            return True
    return False


@pytest.mark.parametrize("difficulty, turns", [("easy", 1), ("medium", 2)])
def test_forced_connection_puzzles_are_verified_by_the_rules_engine(difficulty, turns):
    game = load_game("forgotten")
    puzzles = generate(game, "forced-connection", difficulty, 2, 11)
    assert len(puzzles) == 2
    for state, puzzle in puzzles:
        assert puzzle["answer"]["turns"] == turns
        assert "?" in state.to_notation()                       # stated from what the players know
        assert sure_within(state, turns) and not sure_within(state, turns - 1)
        firsts = {state.parse_move(m) for m in puzzle["answer"]["firstMoves"]}
        assert len(firsts) < len(useful_moves(info_from_state(state)))


def test_generation_is_deterministic():
    game = load_game("forgotten")
    a = [p for _, p in generate(game, "forced-connection", "hard", 2, 5)]
    b = [p for _, p in generate(game, "forced-connection", "hard", 2, 5)]
    assert a == b and len(a) == 2


def test_best_move_puzzles_have_a_unique_best_flip():
    game = load_game("forgotten(width=4,height=3,pairs=4)")
    for state, puzzle in generate(game, "best-move", "medium", 2, 4):
        values = ExactAnalysis(state.game).move_values(state)
        ranked = sorted((m for m in values if m.move != "give up"), key=lambda m: -m.value)
        assert ranked[0].move == puzzle["answer"]["move"]
        assert ranked[0].value - ranked[1].value >= 0.05 - 1e-12


def test_generation_shares_one_exact_solver_across_candidates(monkeypatch):
    """Issue 16: hard puzzles on a 4x3 board took 174 s for 3 (one fresh exact solver per candidate, up to 8
    unseen tiles); now every candidate of a puzzle shares one solver and its memo (speed: docs/benchmarks.md)."""
    import solver.forgotten.solve as solve
    made = []
    original = solve.ExactAnalysis.__init__

    def counting(self, *args, **kwargs):
        made.append(1)
        original(self, *args, **kwargs)
    monkeypatch.setattr(solve.ExactAnalysis, "__init__", counting)
    game = load_game("forgotten(width=3,height=4)")
    puzzles = generate(game, "best-move", "hard", 1, 0)
    assert len(puzzles) == 1 and len(made) == 1
    for state, _ in puzzles:
        assert info_from_state(state).unseen_on_board <= 6
