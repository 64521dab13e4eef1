"""Escape-in-k puzzles: unique shortest solutions, checked by an independent plain enumeration."""

from __future__ import annotations

import pytest

import solver
from solver import contract
from solver.errors import InvalidInputError
from solver.memorinth.game import MemorinthGame
from solver.memorinth.puzzles import kind_range, puzzle_state, verify
from solver.puzzles import make_puzzle, parse_puzzle_id
from solver.registry import load_game
from solver.twins import memorinth_rules as T


def count_all_escapes(state, turns: int) -> tuple[int, int | None]:
    """Plain depth-first enumeration of every decision sequence (no bound, no pruning, twin rules):
    returns (number of sequences leaving within ``turns`` own turns, the fewest turns any of them needs).
    A position reached again at the same turn by another sequence is counted from its first walk (the same
    sequences follow it), so transpositions are walked once."""
    deck = [int(x) for x in state.deck_table]
    seen: dict[tuple[tuple[int, ...], int], tuple[int, int | None]] = {}

    def walk(s, turn) -> tuple[int, int | None]:
        key = (tuple(s), turn)
        if key in seen:
            return seen[key]
        count, fewest = 0, None
        for action in T.legal(s, deck):
            c = s[:]
            T.apply(c, deck, action)
            if c[T.PHASE] == T.PH_OVER:
                if c[T.WINNER] == 0:
                    count, fewest = count + 1, turn if fewest is None else min(fewest, turn)
                continue
            if c[T.PHASE] == T.PH_FLIP:
                if turn >= turns:
                    continue
                more, least = walk(c, turn + 1)
            else:
                more, least = walk(c, turn)
            count += more
            if least is not None:
                fewest = least if fewest is None else min(fewest, least)
        seen[key] = count, fewest
        return count, fewest

    return walk([int(x) for x in state.vec], 1)


def puzzles(game, difficulty, count, seed=11, kind="escape"):
    return list(solver.generate(game, kind=kind, difficulty=difficulty, seed=seed, count=count))


@pytest.mark.parametrize("variant,difficulty", [("base", "easy"), ("master", "easy")])
def test_generated_puzzles_have_one_shortest_solution(variant, difficulty):
    """MR-26: every generated puzzle: the claimed length is the fewest turns, and exactly one sequence achieves
    it (checked by a plain enumeration with the twin's rules)."""
    game = MemorinthGame(variant=variant)
    for puzzle in puzzles(game, difficulty, 2):
        state = puzzle_state(game, puzzle)
        count, fewest = count_all_escapes(state, puzzle["turns"])
        assert fewest == puzzle["turns"] and count == 1
        assert verify(state, puzzle["solution"])
        assert state.rules.players == 1
        assert all(state.seen_by(c, 0) for c in range(25))   # a full-information puzzle
        assert puzzle["unique"] and puzzle["verified"] and puzzle["difficulty"] == difficulty


def test_medium_and_exact_length_puzzles():
    game = MemorinthGame()
    puzzle = puzzles(game, "medium", 1, seed=3)[0]  # seed 3: a 5-turn one, medium's longest (the walk: 2 s CPU)
    assert 4 <= puzzle["turns"] <= 5
    assert count_all_escapes(puzzle_state(game, puzzle), puzzle["turns"]) == (1, puzzle["turns"])
    exact = puzzles(game, "medium", 1, seed=5, kind="escape-in-4")[0]
    assert exact["turns"] == 4 and exact["id"] == "memorinth-escape-in-4-medium-5-0"
    assert contract.puzzle_request(game, "escape", "easy", turns=4) == ("escape-in-4", "medium")
    assert contract.puzzle_request(game, "escape-in-4", "easy") == ("escape-in-4", "medium")  # its own grade
    with pytest.raises(InvalidInputError, match="always medium"):      # asked for directly: said in words
        puzzles(game, "easy", 1, kind="escape-in-4")


def test_a_puzzle_is_made_again_from_its_id_alone():
    """Puzzle i of a run draws from its own stream: the same seed gives the same puzzles, and its id alone
    (generate --id) makes puzzle i again."""
    game = MemorinthGame()
    run = puzzles(game, "easy", 3, seed=21)
    assert run == puzzles(game, "easy", 3, seed=21)
    spec, kind, difficulty, seed, index = parse_puzzle_id(run[2]["id"])
    assert make_puzzle(load_game(spec), kind, difficulty, seed, index) == run[2]
    assert list(solver.generate(game, difficulty="easy", seed=21, start=1, count=2)) == run[1:]


def test_check_re_proves_the_answer_from_the_position():
    """The answer is replayed and compared with the shortest escape proven again; the stored solution is never
    read (an edited solution changes nothing); wrong answers are 'not correct' with the reason."""
    game = MemorinthGame()
    puzzle = puzzles(game, "easy", 1, seed=2)[0]
    solution = puzzle["solution"]
    text = " / ".join(", ".join(turn) for turn in solution)
    assert contract.check_puzzle(game, puzzle, text)["correct"]
    assert contract.check_puzzle(game, puzzle, solution)["correct"]
    tampered = {**puzzle, "solution": [["pass"]], "turns": 1}
    assert contract.check_puzzle(game, tampered, solution)["correct"]
    assert not contract.check_puzzle(game, tampered, [["pass"]])["correct"]
    short = contract.check_puzzle(game, puzzle, solution[:-1])
    assert not short["correct"] and "still in the forest" in short["message"]
    illegal = contract.check_puzzle(game, puzzle, "flip " + puzzle["state"]["pieces"][0])
    assert not illegal["correct"] and "not a legal move" in illegal["message"]
    extra = contract.check_puzzle(game, puzzle, solution + [["flip a1"]])
    assert not extra["correct"]
    with pytest.raises(InvalidInputError):
        contract.check_puzzle(game, puzzle, 42)


def test_verify_rejects_a_wrong_solution():
    game = MemorinthGame()
    puzzle = puzzles(game, "easy", 1, seed=2)[0]
    state = puzzle_state(game, puzzle)
    assert verify(state, puzzle["solution"])
    assert not verify(state, puzzle["solution"][:-1])
    assert not verify(state, puzzle["solution"] + [["pass"]])


def test_bad_generation_requests():
    with pytest.raises(InvalidInputError, match="difficulty"):
        list(solver.generate(MemorinthGame(), difficulty="insane"))
    with pytest.raises(InvalidInputError, match="--turns"):
        kind_range("base", "escape-in-40", "hard")


def test_a_kind_no_deal_makes_is_refused_with_its_field(monkeypatch):
    """An escape-in-K that the candidates never reach ends in a clear error naming the kind (it was an internal
    AssertionError after 10,000 candidates)."""
    from solver.errors import UnsupportedActionError
    from solver.memorinth import puzzles
    monkeypatch.setattr(puzzles, "MAX_ATTEMPTS", 3)
    with pytest.raises(UnsupportedActionError) as caught:
        list(solver.generate(MemorinthGame(), kind="escape-in-12", difficulty="hard"))
    assert caught.value.field == "kind" and "escape-in-12" in str(caught.value)


def _longer_escape(state, solution):
    """Moves (flat) that leave the forest in more own turns than ``solution``: another first turn, then the shortest
    escape from there."""
    from solver.memorinth.solve import shortest_escape
    from solver.search import Limits, SearchContext
    for first in state.game.legal_moves(state):
        if first == solution[0][0]:
            continue
        copy = state.clone()
        turn = [first]
        copy.apply_move(first)
        while copy.phase != "flip" and not copy.is_terminal():
            move = copy.game.legal_moves(copy)[0]
            turn.append(move)
            copy.apply_move(move)
        if copy.is_terminal():
            continue
        rest = shortest_escape(copy, 0, max_depth=10, ctx=SearchContext(limits=Limits(nodes=2_000_000)))
        if rest.optimal and rest.turns is not None:
            return turn + rest.moves, 1 + rest.turns
    raise AssertionError("no other first turn leads out")


def test_the_web_boards_answer_is_the_moves_played_from_the_puzzles_position():
    """issue 13: generate gives the position to play from; check takes the moves played there as a flat list and
    counts the own turns on the replay (a flat list of a longer escape was once read as one turn, 'correct')."""
    game = MemorinthGame()
    puzzle = puzzles(game, "easy", 1, seed=2)[0]
    position = contract.puzzle_position(game, puzzle)
    assert position.to_json() == puzzle_state(game, puzzle).to_json() and position.current_player() == 0
    flat = [move for turn in puzzle["solution"] for move in turn]
    verdict = contract.check_puzzle(game, puzzle, flat)
    assert verdict["correct"] and f"in {puzzle['turns']} own turns" in verdict["message"]
    longer, turns = _longer_escape(position, puzzle["solution"])
    assert turns > puzzle["turns"]
    for answer in (longer, ", ".join(longer)):
        verdict = contract.check_puzzle(game, puzzle, answer)
        assert not verdict["correct"] and f"leaves in {turns} own turns" in verdict["message"], verdict
    assert "still in the forest" in contract.check_puzzle(game, puzzle, flat[:-1])["message"]
    after = contract.check_puzzle(game, puzzle, flat + ["flip a1"])
    assert not after["correct"] and "already left" in after["message"]


def test_the_engines_generate_answer_carries_the_position_to_play_from(engine_answers):
    [answer] = engine_answers({"id": "g", "game": "memorinth", "action": "generate", "kind": "escape-in-2",
                               "difficulty": "easy", "seed": 4})
    position, puzzle = answer["position"], answer["puzzle"]
    assert position["currentPlayer"] == 0 and not position["terminal"]
    assert position["state"] == puzzle["state"] and position["notation"] == puzzle["notation"]
    assert puzzle["solution"][0][0] in position["legalMoves"]
    flat = [move for turn in puzzle["solution"] for move in turn]
    [verdict] = engine_answers({"id": "c", "game": "memorinth", "action": "check", "puzzle": puzzle,
                                "answer": flat})
    assert verdict["correct"] is True and verdict["shortest"] == 2
