"""Escape-in-k puzzles: unique shortest solutions, checked by an independent plain enumeration."""

from __future__ import annotations

import pytest

from solver.errors import InvalidInputError
from solver.memorinth.game import MemorinthGame
from solver.memorinth.puzzles import generate, verify
from solver.twins import memorinth_core as T


def count_all_escapes(state, turns: int) -> tuple[int, int | None]:
    """Plain depth-first enumeration of every decision sequence (no bound, no pruning, twin rules):
    returns (number of sequences leaving within ``turns`` own turns, the fewest turns any of them needs)."""
    deck = [int(x) for x in state.deck_table]
    root = [int(x) for x in state.vec]
    found = [0, None]

    def walk(s, turn):
        for action in T._legal(s, deck):
            c = s[:]
            T._apply(c, deck, action)
            if c[T.PHASE] == T.PH_OVER:
                if c[T.WINNER] == 0:
                    found[0] += 1
                    found[1] = turn if found[1] is None else min(found[1], turn)
                continue
            if c[T.PHASE] == T.PH_FLIP:
                if turn < turns:
                    walk(c, turn + 1)
            else:
                walk(c, turn)

    walk(root, 1)
    return found[0], found[1]


@pytest.mark.parametrize("variant,difficulty", [("base", "easy"), ("master", "easy")])
def test_generated_puzzles_have_one_shortest_solution(variant, difficulty):
    """Every generated puzzle: the claimed length is the fewest turns, and exactly one sequence achieves it."""
    puzzles, stats = generate(MemorinthGame(variant=variant), 2, 11, difficulty)
    assert stats["found"] == 2
    for puzzle in puzzles:
        count, fewest = count_all_escapes(puzzle.state, puzzle.turns)
        assert fewest == puzzle.turns and count == 1
        assert verify(puzzle.state, puzzle.solution)
        assert puzzle.state.rules.players == 1
        assert all(puzzle.state.seen_by(c, 0) for c in range(25))   # a full-information puzzle


def test_medium_puzzle_length_and_uniqueness_by_the_kernel_count():
    puzzles, _ = generate(MemorinthGame(), 1, 5, "medium")
    puzzle = puzzles[0]
    assert 4 <= puzzle.turns <= 5
    count, fewest = count_all_escapes(puzzle.state, puzzle.turns)
    assert (count, fewest) == (1, puzzle.turns)


def test_generation_is_seeded():
    one, _ = generate(MemorinthGame(), 2, 21, "easy")
    two, _ = generate(MemorinthGame(), 2, 21, "easy")
    assert [p.to_json() for p in one] == [p.to_json() for p in two]


def test_verify_rejects_a_wrong_solution():
    puzzle = generate(MemorinthGame(), 1, 2, "easy")[0][0]
    assert verify(puzzle.state, puzzle.solution)
    assert not verify(puzzle.state, puzzle.solution[:-1])
    assert not verify(puzzle.state, puzzle.solution + [["pass"]])


def test_bad_generation_requests():
    with pytest.raises(InvalidInputError, match="--difficulty"):
        generate(MemorinthGame(), 1, 0, "insane")
    with pytest.raises(InvalidInputError, match="--count"):
        generate(MemorinthGame(), 0, 0, "easy")
    with pytest.raises(InvalidInputError, match="--turns"):
        generate(MemorinthGame(), 1, 0, "easy", turns=40)
