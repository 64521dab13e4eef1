"""Generated Blink puzzles: deterministic, unique optimal placements, verified by replay (EM-77)."""

import itertools

import pytest

from solver import contract
from solver.embers import mind as M
from solver.embers.puzzles import DIFFICULTY, puzzle_problem
from solver.errors import InvalidInputError
from solver.puzzles import check, generate

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


def puzzles(difficulty, count, seed):
    return list(generate(GAME, "blink", difficulty, seed=seed, count=count))


def test_EM77_EM78_puzzles_have_a_unique_verified_answer_graded_by_the_work():
    """EM-77: the answer reaches the stated relives when replayed, and an independent brute force over every
    order and position finds the same maximum and no other set of placements reaching it. EM-78: the grade is
    the band of the solver's work (plans examined)."""
    for data in puzzles("easy", 2, 3) + puzzles("medium", 1, 3):
        state = GAME.state_from_notation(data["state"])
        assert replay_relives(state, data["solution"]) == data["relives"] >= 1
        best, placements = brute_force_best(state)
        assert best == data["relives"] and placements == {frozenset(data["solution"])}
        assert data["verified"]["cpsat"] == "OPTIMAL"
        _, _, _, low, high = DIFFICULTY[data["difficulty"]]
        assert low <= data["work"] == data["verified"]["exhaustivePlans"] and (high is None or data["work"] <= high)


def test_puzzles_are_regenerated_from_their_id():
    """Puzzle i of a run comes from its own stream: the same id gives the same puzzle, --start resumes."""
    run = puzzles("easy", 3, 8)
    assert [p["id"] for p in run] == [f"embers-blink-easy-8-{i}" for i in range(3)]
    assert list(generate(GAME, "blink", "easy", seed=8, start=2, count=1)) == run[2:]
    assert run[0] != run[1]


def test_check_re_proves_the_answer():
    """check() re-proves from the puzzle's position: the stored solution is never trusted; a wrong but
    well-formed answer is 'not correct' with the reason; a malformed one is an input error."""
    puzzle = puzzles("easy", 1, 5)[0]
    assert check(GAME, puzzle, "; ".join(puzzle["solution"]))["correct"] is True
    assert check(GAME, puzzle, [m.replace("add ", "") for m in reversed(puzzle["solution"])])["correct"] in (True,
                                                                                                        False)
    forged = dict(puzzle, solution=["add " + puzzle["row"][0] + "@9,9"], relives=0)
    assert check(GAME, forged, "; ".join(puzzle["solution"]))["correct"] is True
    verdict = check(GAME, puzzle, puzzle["solution"][0])
    assert verdict["correct"] is False and "not added" in verdict["message"]
    card = puzzle["row"][0]
    verdict = check(GAME, puzzle, f"add {card}@50,50; " + "; ".join(puzzle["solution"][1:]))
    assert verdict["correct"] is False and "not a legal placement" in verdict["message"]
    with pytest.raises(InvalidInputError):
        check(GAME, puzzle, "put everything somewhere")


def test_puzzle_problem_counts_relives_only():
    """The puzzle objective is the number of relives with every card added."""
    state = GAME.state_from_notation(puzzles("easy", 1, 1)[0]["state"])
    problem = puzzle_problem(state)
    assert problem.require_all and problem.weights.visible == 0 and problem.reveal_value[0][:3] == (0, 1, 2)


def test_the_web_boards_answer_is_the_moves_played_from_the_puzzles_position():
    """issue 13: the puzzle's position is its Blink with the Resolve cards face up (they play no part; face up,
    no relive stops for Aelin's reveal), so the moves played there are the puzzle's choices: the solution is
    played move by move, each one legal, and check takes the moves as a list; a discard, a move after the Blink
    and an illegal move are 'not correct' with the reason."""
    puzzle = puzzles("medium", 1, 3)[0]
    position = contract.puzzle_position(GAME, puzzle)
    table = GAME.state_from_notation(puzzle["state"])
    assert position.mind == table.mind and position.row == table.row and position.current_player() == 0
    assert all(row.face_up for row in position.rows) and GAME.parse_position(position.to_json()).to_json() == \
        position.to_json()
    played = position
    for move in puzzle["solution"]:
        assert move in contract.legal_moves(GAME, played) and played.phase == "blink"
        played = GAME.apply(played, [move])
    assert not played.row and played.current_player() == 1
    assert check(GAME, puzzle, list(puzzle["solution"]))["correct"] is True
    after = check(GAME, puzzle, puzzle["solution"] + [contract.legal_moves(GAME, played)[0]])
    assert not after["correct"] and "after the Blink" in after["message"]
    first = GAME.apply(position, puzzle["solution"][:1])
    discard = next(m for m in contract.legal_moves(GAME, first) if m.startswith("discard "))
    verdict = check(GAME, puzzle, puzzle["solution"][:1] + [discard])
    assert not verdict["correct"] and "discards a card" in verdict["message"]
    verdict = check(GAME, puzzle, ["discard " + puzzle["row"][0]])
    assert not verdict["correct"] and "not legal then" in verdict["message"]  # Fenrys adds before he discards
    with pytest.raises(InvalidInputError):
        check(GAME, puzzle, ["take everything"])


def test_the_engines_generate_answer_carries_the_position_to_play_from(engine_answers):
    [answer] = engine_answers({"id": "g", "game": "embers", "action": "generate", "kind": "blink",
                               "difficulty": "easy", "seed": 4})
    position, puzzle = answer["position"], answer["puzzle"]
    assert position["currentPlayer"] == 0 and not position["terminal"]
    assert position["state"] == contract.puzzle_position(GAME, puzzle).to_json()
    assert puzzle["solution"][0] in position["legalMoves"]
    [verdict] = engine_answers({"id": "c", "game": "embers", "action": "check", "puzzle": puzzle,
                                "answer": puzzle["solution"]})
    assert verdict["correct"] is True
