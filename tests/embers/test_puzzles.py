"""Generated Blink puzzles: deterministic, unique optimal placements, verified by replay (EM-77)."""

import itertools

from solver.embers import mind as M
from solver.embers.puzzles import generate, puzzle_problem

from .helpers import GAME


def replay_relives(state, moves):
    """Count relives by playing the moves in the rules engine (each relive asks Aelin about a reveal)."""
    s = state.clone()
    relives = 0
    for move in moves:
        s.apply_move(move)
        while s.phase == "reveal":
            relives += 1
            s.apply_move("pass")
        assert s.phase != "split", "a puzzle answer never splits the Mind"
    return relives


def brute_force_best(state):
    """An independent search: every order and every legal position of every card, in the rules engine."""
    best, placements = -1, set()
    row = list(state.row)
    for order in itertools.permutations(row):
        def extend(s, remaining, done):
            nonlocal best, placements
            if not remaining:
                n = replay_relives(state, done)
                key = frozenset(done)
                if n > best:
                    best, placements = n, {key}
                elif n == best:
                    placements.add(key)
                return
            card = remaining[0]
            for c, x, y in M.legal_placements(s.deck, s.mind, [card]):
                if len(M.sections(s.mind + [(c, x, y)])) > 1:
                    continue
                nxt = s.clone()
                nxt.mind = s.mind + [(c, x, y)]
                extend(nxt, remaining[1:], done + [f"add {s.deck.cards[c].id}@{x},{y}"])
        extend(state, list(order), [])
    return best, placements


def test_EM77_puzzles_have_a_unique_verified_answer():
    """EM-77: the answer reaches the stated relives when replayed, and an independent brute force over every
    order and position finds the same maximum and no other set of placements reaching it."""
    for puzzle in generate(GAME, 2, seed=3, difficulty="easy") + generate(GAME, 1, seed=3, difficulty="medium"):
        data = puzzle.to_json()
        state = GAME.state_from_notation(data["state"])
        assert replay_relives(state, data["solution"]) == data["relives"] >= 1
        best, placements = brute_force_best(state)
        assert best == data["relives"] and placements == {frozenset(data["solution"])}
        assert data["verified"]["cpsat"] == "OPTIMAL"


def test_puzzles_are_deterministic():
    """The same seed and difficulty give the same puzzles."""
    a = [p.to_json() for p in generate(GAME, 2, seed=8, difficulty="easy")]
    b = [p.to_json() for p in generate(GAME, 2, seed=8, difficulty="easy")]
    for x, y in zip(a, b):
        x["verified"].pop("cpsatSeconds")
        y["verified"].pop("cpsatSeconds")
    assert a == b


def test_puzzle_problem_counts_relives_only():
    """The puzzle objective is the number of relives with every card added."""
    puzzle = generate(GAME, 1, seed=1, difficulty="easy")[0]
    problem = puzzle_problem(puzzle.state)
    assert problem.require_all and problem.weights.visible == 0 and problem.reveal_value[0][:3] == (0, 1, 2)
