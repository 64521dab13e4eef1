"""Puzzles and self-play in the shared run format (issue 14): ids, streams, resuming, processes, checks."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solver import cli
from solver.puzzles import check, generate
from solver.registry import load_game
from solver.selfplay import selfplay
from solver import contract

def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def subprocess_lines(*argv: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-m", "solver", *argv], capture_output=True, text=True, env=env,
                          cwd=Path(__file__).resolve().parent, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_jobs_give_byte_identical_json_lines():
    """``--jobs 2`` (a command-line run in its own process) prints what one process prints."""
    for argv in (("forgotten", "generate", "--difficulty", "easy", "--count", "3", "--seed", "4", "--json"),
                 ("forgotten", "selfplay", "--policies", "route,greedy", "--count", "4", "--seed", "2", "--json")):
        status, one, _ = run(*argv, "--jobs", "1")
        assert status == 0 and one == subprocess_lines(*argv, "--jobs", "2")
        assert len(one.splitlines()) == (3 if "generate" in argv else 5)


def test_generate_lines_have_ids_that_regenerate_them_and_runs_resume():
    status, out, _ = run("forgotten", "generate", "--difficulty", "easy", "--count", "3", "--seed", "9", "--json")
    lines = out.splitlines()
    assert status == 0 and len(lines) == 3
    for i, line in enumerate(lines):
        puzzle = json.loads(line)
        assert list(puzzle)[:6] == ["id", "game", "kind", "difficulty", "seed", "index"]
        assert puzzle["id"] == f"forgotten-forced-connection-easy-9-{i}" and puzzle["index"] == i
        assert {"position", "state", "question", "answer", "verified"} <= set(puzzle)
        assert "?" in puzzle["position"]                      # stated from what the players know
    status, again, _ = run("forgotten", "generate", "--id", json.loads(lines[2])["id"], "--json")
    assert again.splitlines() == [lines[2]]
    status, resumed, _ = run("forgotten", "generate", "--difficulty", "easy", "--start", "1", "--count", "2",
                             "--seed", "9", "--json")
    assert resumed.splitlines() == lines[1:]


def test_forced_connection_answers_are_re_proved():
    game = load_game("forgotten")
    puzzle = next(generate(game, "forced-connection", "medium", seed=3))
    assert puzzle["answer"]["turns"] == 2
    right = puzzle["answer"]["firstMoves"]
    assert check(game, puzzle, right[0])["correct"] is True
    assert check(game, puzzle, right)["correct"] is True           # the whole set
    state = game.parse_state(puzzle["state"])
    wrong = next(m for m in (state.action_to_string(a) for a in state.legal_actions()) if m not in right + ["give up"])
    verdict = check(game, puzzle, wrong)
    assert verdict["correct"] is False and "does not force a link within 2 turns" in verdict["message"]
    tampered = {**puzzle, "answer": {**puzzle["answer"], "firstMoves": [wrong]}}
    assert check(game, tampered, wrong)["correct"] is False        # the stored answer is never trusted
    status, out, _ = run("forgotten", "check", json.dumps(puzzle), wrong)
    assert status == 4 and out.startswith("not correct: ")


def test_best_move_puzzles_have_a_unique_best_flip_and_wrong_answers_say_why():
    game = load_game("forgotten(width=4,height=3,pairs=3)")
    puzzle = next(generate(game, "best-move", "easy", seed=1))
    answer = puzzle["answer"]
    assert answer["margin"] >= 0.10 and puzzle["verified"]["routePlanMove"] == answer["move"]
    assert check(game, puzzle, answer["move"])["correct"] is True
    verdict = check(game, puzzle, answer["secondBest"])
    assert verdict["correct"] is False and f"{answer['move']} wins with" in verdict["message"]
    with pytest.raises(Exception, match="ANSWER"):
        check(game, puzzle, "flip 9,9")
    with pytest.raises(Exception, match="at most 24 cells"):
        next(generate(load_game("forgotten"), "best-move", "easy", seed=1))


def test_selfplay_pairs_policies_on_one_deal_and_its_moves_replay():
    game = load_game("forgotten(width=4,height=3)")
    games = list(selfplay(game, ("route", "greedy", "hint"), seed=5, count=3, options={"hintNodes": 200}))
    for item in games:
        assert set(item["outcomes"]) == {"route", "greedy", "hint"}
        for policy, moves in item["moves"].items():
            final = game.apply(game.parse_state(item["deal"]), moves)
            assert final.is_terminal() and final.returns()[0] == item["outcomes"][policy]
            assert final.turn == item["turns"][policy]
    fast = list(selfplay(game, ("route", "greedy"), seed=5, count=3, options={"fast": True}))
    assert all("moves" not in item and set(item["outcomes"]) == {"route", "greedy"} for item in fast)
    status, out, _ = run("forgotten", "selfplay", "--width", "4", "--height", "3", "--policies", "route,random",
                         "--count", "3", "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [item["index"] for item in lines[:-1]] == [0, 1, 2] and set(lines[-1]) == {"summary"}
    assert lines[-1]["summary"]["paired"][0]["deals"] == 3
    assert np.isfinite(lines[-1]["summary"]["labels"]["route"]["mean"])


def test_a_puzzle_is_answered_by_moves_played_from_its_position():
    """The web board's answer (issue 13): the moves played from ``puzzle_position``, the puzzle's view. A forced
    connection's first flip must force the link and the turn's second flip must match it; the set of flips and a
    single flip are read as before; the engine's generate carries the position."""
    from solver.forgotten.view import ForgottenView
    game = load_game("forgotten")
    puzzle = next(generate(game, "forced-connection", "medium", seed=3))
    position = contract.puzzle_position(game, puzzle)
    assert isinstance(position, ForgottenView) and position.to_notation() == "view:0 " + puzzle["position"]
    state = game.parse_state(puzzle["state"])
    right = puzzle["answer"]["firstMoves"]
    first = state.parse_move(right[0])
    mate = next(m for m in right if m != right[0] and state.tiles[state.parse_move(m)] == state.tiles[first])
    other = next(m for m in right if m not in (right[0], mate))
    assert set(right) <= set(position.legal_moves())
    for answer, correct, read_as in (([right[0]], True, "moves"), ([right[0], mate], True, "moves"),
                                     ([right[0], other], False, "moves"), (right, True, "flips"),
                                     (right[0], True, "flip"), ([], False, "moves")):
        verdict = check(game, puzzle, answer)
        assert (verdict["correct"], verdict["readAs"]) == (correct, read_as), (answer, verdict)
    assert "only if the second flip matches it" in check(game, puzzle, [right[0], other])["message"]
    wrong = next(m for m in position.legal_moves() if m not in right + ["give up"])
    verdict = check(game, puzzle, [wrong, right[0]])
    assert verdict["correct"] is False and "does not force a link" in verdict["message"]
    # past the first turn: not judged (the Erasure roll follows in this game's turn order or the next turn starts)
    after = game.apply(position, [right[0], mate]).legal_moves()[0]
    verdict = check(game, puzzle, [right[0], mate, after])
    assert verdict["correct"] is True and "the 1 move after the first turn is not judged" in verdict["message"]
    from solver.engine import Engine
    out = io.StringIO()
    engine = Engine(out)
    engine.handle_line(json.dumps({"id": "g", "game": "forgotten", "action": "generate", "kind": "forced-connection",
                                   "difficulty": "medium", "seed": 3}))
    engine.close()
    [body] = [json.loads(line) for line in out.getvalue().splitlines()]
    assert body["position"]["notation"] == position.to_notation()
    assert body["position"]["legalMoves"] == position.legal_moves()


def test_a_best_move_puzzle_answered_by_moves_enters_the_tile_an_unseen_flip_shows():
    game = load_game("forgotten(width=4,height=3,pairs=3)")
    puzzle = next(generate(game, "best-move", "easy", seed=1))
    position = contract.puzzle_position(game, puzzle)
    best, second = puzzle["answer"]["move"], puzzle["answer"]["secondBest"]
    assert {best, second} <= set(position.legal_moves())
    assert check(game, puzzle, [best])["correct"] is True
    assert check(game, puzzle, [second])["correct"] is False
    shown = game.apply(position, [best]).legal_moves()[0]       # the unseen tile waits for the pair it shows
    assert shown.startswith("shows ")
    verdict = check(game, puzzle, [best, shown])
    assert verdict["correct"] is True and "the 1 move after the first flip is not judged" in verdict["message"]
    assert check(game, puzzle, ["give up"])["message"] == "giving up ends the game as a loss"
    assert check(game, puzzle, "give up")["correct"] is False
