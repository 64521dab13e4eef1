"""Aetherya puzzles answered by moves (issue 13): the position a player answers each puzzle from, its moves
(best-kingdom: pick, place and lift cards; legend-race: the game's turns), its picture's click targets, and the
check that replays the moves played there and judges them as the puzzle's own answer."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET

import pytest

from solver import contract
from solver.aetherya.cards import CELL_NAMES
from solver.aetherya.game import AetheryaGame
from solver.aetherya.puzzle_play import KingdomPuzzle, RacePuzzle
from solver.aetherya.puzzles import read_move_answer
from solver.errors import InvalidInputError, InvalidMoveError, SolverError, UnsupportedActionError
from solver.puzzles import check, make_puzzle

GAME = AetheryaGame()
NS = "{http://www.w3.org/2000/svg}"


def targets(picture):
    root = ET.fromstring(picture.split("\n", 1)[1])
    assert root.tag == f"{NS}svg"
    return {el.get("data-target") for el in root.iter() if el.get("data-target")}


def reachable(move, tokens):
    """The web board's rule (board.js movesFor): a target names a move equal to it or one of its tokens."""
    words = [w for w in re.split(r"[\s,;@=:()]+", move.lower()) if w]
    return any(t.lower() == move.lower() or t.lower() in words for t in tokens)


def kingdom_moves(puzzle):
    """The proven kingdom as the moves that build it: each free cell in order, its card picked then placed."""
    solution = puzzle["solution"]["kingdom"].replace("/", "")
    moves = []
    for cell, letter in zip(CELL_NAMES, solution):
        if cell not in puzzle["fixed"]:
            moves += [f"pick {letter}", f"place {cell}"]
    return moves


def race_moves(puzzle):
    """The proven turns as the game's moves: 'take, place a4' is 'take' then 'place a4'."""
    return [step.strip() for turn in puzzle["solution"]["moves"] for step in turn.split(",")]


SOLUTION_MOVES = {"best-kingdom": kingdom_moves, "legend-race": race_moves}


@pytest.mark.parametrize("kind", ["best-kingdom", "legend-race"])
@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_the_proven_solution_played_from_the_puzzle_position_is_correct(kind, difficulty):
    puzzle = make_puzzle(GAME, kind, difficulty, 0, 0)
    position = contract.puzzle_position(GAME, puzzle)
    assert position.current_player() == 0 and not position.is_terminal()
    moves = SOLUTION_MOVES[kind](puzzle)
    played = GAME.apply(position, moves)
    assert played.is_terminal() and played.current_player() < 0
    verdict = check(GAME, puzzle, moves)
    assert verdict["correct"] and verdict["readAs"] == "moves", verdict
    shouted = [move.upper() for move in moves]  # moves ignore case
    assert check(GAME, puzzle, shouted)["correct"]
    assert check(GAME, puzzle, {"moves": moves})["correct"]


def test_a_best_kingdom_answer_by_moves_is_judged_as_the_kingdom_it_builds():
    puzzle = make_puzzle(GAME, "best-kingdom", "medium", 0, 1)
    moves = kingdom_moves(puzzle)
    short = check(GAME, puzzle, moves[:-2])
    assert not short["correct"] and "1 card(s) still to place" in short["message"]
    # a wrong arrangement: the two first free cells swapped (when they differ), judged by the score it makes
    free = [cell for cell in CELL_NAMES if cell not in puzzle["fixed"]]
    solution = dict(zip(CELL_NAMES, puzzle["solution"]["kingdom"].replace("/", "")))
    a, b = next((x, y) for x in free for y in free if solution[x] != solution[y])
    solution[a], solution[b] = solution[b], solution[a]
    swapped = [step for cell in free for step in (f"pick {solution[cell]}", f"place {cell}")]
    verdict = check(GAME, puzzle, swapped)
    kingdom = "/".join("".join(solution[c] for c in CELL_NAMES[r * 4:r * 4 + 4]) for r in range(4))
    assert verdict["kingdom"] == kingdom
    assert verdict["correct"] == check(GAME, puzzle, kingdom)["correct"]
    if not verdict["correct"]:
        assert verdict["message"].endswith("short")
    # lifting a placed card and placing it again, switching the picked card: still the same kingdom
    detour = [moves[0], f"pick {next(c for c in 'PFMSHEDGRO' if c != moves[0][-1] and c in puzzle['cards'])}",
              moves[0], moves[1], f"lift {moves[1][-2:]}"] + moves
    assert check(GAME, puzzle, detour)["correct"]


def test_an_illegal_move_is_a_verdict_with_the_reason_and_a_move_of_no_puzzle_is_read_otherwise():
    puzzle = make_puzzle(GAME, "best-kingdom", "easy", 0, 0)
    fixed = next(iter(puzzle["fixed"]))
    verdict = check(GAME, puzzle, [f"lift {fixed}"])
    assert not verdict["correct"] and "holds a fixed card" in verdict["message"]
    verdict = check(GAME, puzzle, [f"place {fixed}"])
    assert not verdict["correct"] and "pick a card from the hand first" in verdict["message"]
    race = make_puzzle(GAME, "legend-race", "easy", 0, 0)
    verdict = check(GAME, race, ["take", "draw"])
    assert not verdict["correct"] and "the turn is under way" in verdict["message"]
    verdict = check(GAME, race, ["take"])
    assert not verdict["correct"] and "the last turn is not finished" in verdict["message"]
    with pytest.raises(InvalidMoveError) as error:
        check(GAME, race, ["take", 3])
    assert error.value.field == "ANSWER[1]"
    assert read_move_answer(GAME, race, race["solution"]["moves"]) is None  # turns 'take, place a4': the old form
    assert check(GAME, race, race["solution"]["moves"])["correct"]


def test_a_race_position_ends_when_the_legend_is_met():
    race = make_puzzle(GAME, "legend-race", "medium", 0, 0)
    moves = race_moves(race)
    played = GAME.apply(contract.puzzle_position(GAME, race), moves)
    assert played.is_terminal() and played.legend_met() and played.turns == race["solution"]["turns"]
    verdict = check(GAME, race, moves + ["take"])
    assert not verdict["correct"] and "the race is over" in verdict["message"]
    assert played.discard[-1] in range(10) and contract.score(GAME, played.to_json())["complete"] is True


@pytest.mark.parametrize("kind", ["best-kingdom", "legend-race"])
def test_a_puzzle_position_round_trips_and_every_legal_move_can_be_clicked(kind):
    rng = random.Random(7)
    for index in range(2):
        puzzle = make_puzzle(GAME, kind, "medium", 0, index)
        position = contract.puzzle_position(GAME, puzzle)
        for _ in range(30):
            for text in (json.dumps(position.to_json()), position.to_notation()):
                again = GAME.parse_position(text)
                assert type(again) is type(position) and again.to_json() == position.to_json()
            assert again.to_notation() == position.to_notation()
            tokens = targets(contract.svg(GAME, position))
            legal = GAME.legal_moves(position)
            for move in legal:
                assert reachable(move, tokens), (move, sorted(tokens))
            if position.is_terminal() or not legal:
                break
            position.apply_move(rng.choice(legal))


def test_the_engine_generates_a_puzzle_with_its_position_and_plays_and_checks_moves_there(engine_answers):
    generated = engine_answers(*({"id": f"g{i}", "game": "aetherya", "action": "generate", "kind": kind,
                                  "difficulty": "easy", "seed": 3} for i, kind in enumerate(("best-kingdom",
                                                                                             "legend-race"))))
    for answer in generated:
        position, puzzle = answer["position"], answer["puzzle"]
        assert position["currentPlayer"] == 0 and not position["terminal"] and position["legalMoves"]
        assert position["state"]["puzzle"] == puzzle["kind"] and position["notation"].startswith("puzzle:")
        moves = SOLUTION_MOVES[puzzle["kind"]](puzzle)
        queries = [{"id": "a", "game": "aetherya", "action": "apply", "state": position["state"], "moves": moves},
                   {"id": "s", "game": "aetherya", "action": "show", "state": position["notation"],
                    "moves": moves[:1]},
                   {"id": "c", "game": "aetherya", "action": "check", "puzzle": puzzle, "answer": moves},
                   {"id": "h", "game": "aetherya", "action": "hint", "state": position["state"]},
                   {"id": "x", "game": "aetherya", "action": "apply", "state": position["state"],
                    "moves": ["reveal z9"]}]
        by_id = {r["id"]: r for r in engine_answers(*queries)}
        assert by_id["a"]["terminal"] is True and by_id["a"]["legalMoves"] == []
        assert "data-target" in by_id["s"]["svg"]
        assert by_id["c"]["correct"] is True and by_id["c"]["solution"]
        assert "no player views or hints" in by_id["h"]["error"] and by_id["h"]["field"] == "state.puzzle"
        assert by_id["x"]["field"] == "moves[0]"


@pytest.mark.parametrize("payload, field", [
    ({"puzzle": "best-kingdom", "kingdom": "D.../.G.P/S.OO/.HP.", "hand": "PF"}, "state.hand"),
    ({"puzzle": "best-kingdom", "kingdom": "D.../.G.P/S.OO/.HP.", "hand": "PFSHDDGX"}, "state.hand"),
    ({"puzzle": "best-kingdom", "kingdom": "D.../.G.P/S.OO/.HP.", "hand": "PFSHDDGR", "fixed": ["b1"]},
     "state.fixed[0]"),
    ({"puzzle": "best-kingdom", "kingdom": "D../.G.P/S.OO/.HP.", "hand": "PFSHDDGR"}, "state.kingdom"),
    ({"puzzle": "legend-race", "legend": "nobody", "kingdom": "rmfe/dFRr/gEFm/hSGS"}, "state.legend"),
    ({"puzzle": "legend-race", "legend": "human-elf", "kingdom": "rmfe/dFRr/gEFm/hSGS",
      "held": {"card": "F", "from": "sky"}}, "state.held.from"),
    ({"puzzle": "legend-race", "legend": "human-elf", "kingdom": "rmfe/dFRr/gEFm/hSGS", "extra": 1}, "state.extra"),
    ({"puzzle": "chess", "kingdom": "rmfe/dFRr/gEFm/hSGS"}, "state.puzzle"),
    ("puzzle:legend-race rmfe/dFRr/gEFm/hSGS legend=human-elf turns=x", "state"),
])
def test_a_malformed_puzzle_position_names_its_field(payload, field):
    with pytest.raises(SolverError) as error:
        GAME.parse_position(payload)
    assert isinstance(error.value, InvalidInputError) and error.value.field == field, str(error.value)


def test_a_puzzle_position_has_no_views_and_its_score_is_the_board_so_far():
    puzzle = make_puzzle(GAME, "best-kingdom", "easy", 0, 0)
    position = contract.puzzle_position(GAME, puzzle)
    assert isinstance(position, KingdomPuzzle) and not isinstance(position, RacePuzzle)
    with pytest.raises(UnsupportedActionError):
        position.view(0)
    done = GAME.apply(position, kingdom_moves(puzzle))
    assert contract.score(GAME, done.to_json())["total"] == puzzle["solution"]["score"] == done.returns()[0]
    assert "fixed:" in contract.describe(GAME, position) and contract.describe(GAME, done).count("\n") == 6
