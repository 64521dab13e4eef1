"""Best-call puzzles and self-play in the shared format: regenerable ids, the same lines on one or two processes,
answers re-proved from the position, self-play records that replay."""

import json
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from solver import contract
from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.puzzles import MARGIN, grade, solve_position
from solver.puzzles import check, generate, make_puzzle
from solver.selfplay import selfplay, summarize


def cli(*argv):
    done = subprocess.run([sys.executable, "-m", "solver", "mnemonic", *argv], capture_output=True, text=True,
                          timeout=600, cwd=tempfile.gettempdir())  # outside the source tree: the installed build
    return done.returncode, done.stdout, done.stderr


@pytest.fixture(scope="module")
def easy():
    return list(generate(MnemonicGame(), "best-call", "easy", seed=1, count=2))


def test_generate_gives_the_same_lines_on_two_processes_and_by_id(easy):
    status, out, err = cli("generate", "--difficulty", "easy", "--seed", "1", "--count", "2", "--jobs", "2", "--json")
    assert status == 0, err
    assert out.splitlines() == [json.dumps(p) for p in easy]
    again = make_puzzle(MnemonicGame(), "best-call", "easy", 1, 1)
    assert again == easy[1] and again["id"] == "mnemonic-best-call-easy-1-1"
    assert list(generate(MnemonicGame(), "best-call", "easy", seed=1, start=1, count=1)) == easy[1:]
    for puzzle in easy:
        assert {"id", "game", "kind", "difficulty", "seed", "index", "position", "solution", "margin"} <= set(puzzle)


def test_each_puzzle_has_a_proven_unique_answer_of_its_grade(easy):
    game = MnemonicGame()
    for puzzle in easy:
        view = game.parse_position(puzzle["position"])
        proved = solve_position(view, (1, 2), puzzle["nodes"])
        assert proved["solution"] == puzzle["solution"] and proved["margin"] >= MARGIN["easy"][0]
        assert grade(view, proved) == "easy"
        others = [v for m, v in proved["values"].items() if m not in {proved["solution"], *proved["alsoCorrect"]}]
        assert max(others) <= proved["value"] - proved["margin"] + 1e-12


def test_check_reproves_the_answer(easy):
    game = MnemonicGame()
    puzzle = dict(easy[0])
    verdict = check(game, {**puzzle, "solution": "not trusted"}, easy[0]["solution"])
    assert verdict["correct"] and verdict["puzzleId"] == puzzle["id"]
    view = game.parse_position(puzzle["position"])
    wrong = next(m for m in view.legal_moves() if m not in {puzzle["solution"], *puzzle["alsoCorrect"]})
    verdict = check(game, puzzle, wrong)
    assert not verdict["correct"] and puzzle["solution"] in verdict["message"]
    assert not check(game, puzzle, "dance")["correct"]


def test_a_hard_puzzle_is_a_fine_call_the_rule_of_thumb_misses():
    puzzle = make_puzzle(MnemonicGame(), "best-call", "hard", 0, 0)
    assert MARGIN["hard"][0] <= puzzle["margin"] < MARGIN["hard"][1] and puzzle["ruleOfThumb"] is False
    assert check(MnemonicGame(), puzzle, puzzle["solution"])["correct"]


def test_selfplay_is_paired_and_its_records_replay():
    game = MnemonicGame(players=1)
    results = list(selfplay(game, ("planner", "plain-after-two-rounds"), seed=2, count=3))
    status, out, err = cli("selfplay", "--players", "1", "--policies", "planner,plain-after-two-rounds", "--seed",
                           "2", "--count", "3", "--jobs", "2", "--json")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[:-1] == [json.dumps(r) for r in results]
    assert json.loads(lines[-1]) == {"summary": json.loads(json.dumps(summarize(results)))}
    for result in results:
        assert set(result["outcomes"]) == {"planner", "plain-after-two-rounds"}
        for name, played in result["games"].items():
            state = game.parse_state(result["start"])
            for move in played["moves"]:
                state.apply_move(move)
            assert result["outcomes"][name] == int(state.tally.victories > 0)
            assert state.is_terminal() or state.tally.victories
    summary = summarize(results)
    assert summary["paired"][0]["deals"] == 3


def test_the_engine_generate_answer_carries_the_position_the_answer_is_played_from(easy, engine_answers):
    """Issue 13: ``generate`` answers with the puzzle's position (the player's view); the web board plays the answer
    on it and ``check`` takes the moves played as a JSON list."""
    [answer] = [r for r in engine_answers({"id": "g", "action": "generate", "game": "mnemonic", "kind": "best-call",
                                           "difficulty": "easy", "seed": 1, "index": 0}) if r["id"] == "g"]
    puzzle, position = answer["puzzle"], answer["position"]
    assert puzzle == easy[0]
    game = MnemonicGame()
    view = contract.puzzle_position(game, puzzle)
    assert position["notation"] == view.to_notation() == puzzle["position"]
    assert position["currentPlayer"] == puzzle["player"] and puzzle["solution"] in position["legalMoves"]
    assert check(game, puzzle, [puzzle["solution"]])["correct"]
    assert check(game, puzzle, json.dumps([puzzle["solution"]]))["correct"]  # the CLI's ANSWER as JSON text
    wrong = next(m for m in position["legalMoves"] if m not in {puzzle["solution"], *puzzle["alsoCorrect"]})
    assert not check(game, puzzle, [wrong])["correct"]
    two = check(game, puzzle, [puzzle["solution"], wrong])
    assert not two["correct"] and "one move" in two["message"]
    assert not check(game, puzzle, [])["correct"]
