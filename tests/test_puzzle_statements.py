"""Puzzles on every registered game (issue 22, section 4): a statement never holds its answer; checking an answer
with no move played says so in words (and gives the proven solution for "show the solution"); a kind's default
difficulty is one it can have (Memorinth's escape-in-K is graded by K)."""

from __future__ import annotations

import pytest

from solver import contract
from solver.cli import main
from solver.puzzles import check, make_puzzle
from solver.registry import game_names, load_game
from solver.service import puzzle_kind

CASES = [(name, kind) for name in game_names() for kind in contract.puzzle_kinds(load_game(name))[:2]]


def puzzle_of(name: str, kind: str) -> tuple:
    game = load_game(name)
    spec = contract.puzzle_games(game).get(kind)
    game = load_game(spec) if spec else game
    return game, make_puzzle(game, kind, "easy", 1, 0)


@pytest.mark.parametrize("name, kind", CASES)
def test_a_statement_never_holds_its_answer(name, kind):
    game, puzzle = puzzle_of(name, kind)
    statement = contract.describe_puzzle(game, puzzle)
    answer = contract.puzzle_answer(game, puzzle)
    assert "answer:" not in statement.lower() and answer not in statement
    first_move = answer.replace(" or ", ";").replace("/", ";").split(";")[0].split(",")[0].split(" (")[0].strip()
    if " " in first_move:          # a move string such as 'flip 5,4' or 'take, place d1'
        assert first_move not in statement, (first_move, statement)


@pytest.mark.parametrize("name, kind", CASES)
def test_no_move_played_is_said_in_words_with_the_solution(name, kind):
    game, puzzle = puzzle_of(name, kind)
    verdict = check(game, puzzle, [])
    assert verdict["correct"] is False and verdict["solution"]
    assert "[]" not in verdict["message"] and "no moves:" not in verdict["message"]


def test_memorinth_escape_in_k_takes_its_own_grade_whatever_difficulty_is_asked():
    game = load_game("memorinth")
    for asked in ("easy", "medium", "hard"):
        assert puzzle_kind(game, "escape-in-3", asked, {}) == ("escape-in-3", "easy")
    puzzle = make_puzzle(game, *puzzle_kind(game, "escape-in-3", "medium", {}), 0, 0)
    assert puzzle["difficulty"] == "easy" and puzzle["turns"] == 3


def test_the_command_line_says_which_grade_it_makes(capsys):
    """A person who asks escape-in-3 at the default difficulty gets an easy puzzle and a note saying why."""
    assert main(["memorinth", "generate", "--kind", "escape-in-3", "--json"]) == 0
    out, err = capsys.readouterr()
    assert '"difficulty": "easy"' in out and "every escape-in-3 puzzle is easy" in err and "not medium" in err
    assert main(["memorinth", "generate", "--kind", "escape-in-3", "--difficulty", "easy", "--json"]) == 0
    assert capsys.readouterr().err == ""
