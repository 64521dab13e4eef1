"""Puzzles: proofs cross-checked by brute force, deterministic generation, answers checked."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from solver.aetherya.game import AetheryaGame
from solver.aetherya.puzzles import _race_position, greedy_kingdom, prove_best_kingdom
from solver.aetherya.puzzles import check_answer as check
from solver.aetherya.race import RacePosition, race_moves, solve_race
from solver.aetherya.race import legend_met as _met
from solver.aetherya.scoring import score_board
from solver.cli import main
from solver.errors import InvalidInputError
from solver.puzzles import generate as generate_run
from solver.testing import command_line


def generate(kind, count, seed, difficulty):
    """Puzzles 0 .. count-1 of the seeded run (``solver.puzzles.generate``: each from its own stream)."""
    return list(generate_run(AetheryaGame(), kind, difficulty, seed=seed, count=count))


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
        pos, draw, _ = _race_position(AetheryaGame(), rng)
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


def cli(capfd, *args):
    """``memory-solver aetherya ARGS`` in this process: its exit status and output."""
    return command_line(main, ["aetherya", *args], capfd)


def test_cli_generate_and_check(tmp_path, capfd):
    out = cli(capfd, "generate", "--kind", "best-kingdom", "--count", "2", "--seed", "1", "--difficulty", "easy",
              "--json")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 2
    puzzle = json.loads(lines[0])
    path = tmp_path / "p.json"
    path.write_text(lines[0])
    ok = cli(capfd, "check", str(path), puzzle["solution"]["kingdom"])
    assert ok.returncode == 0 and "correct" in ok.stdout
    bad = cli(capfd, "check", str(path), "PPPP/PPPP")
    assert bad.returncode == 1 and "ANSWER" in bad.stderr
    bad = cli(capfd, "generate", "--kind", "maze")
    assert bad.returncode == 2


# -- issue 16: check proves the optimum itself and answers rule breaks as verdicts -----------------------------------
@pytest.fixture(scope="module")
def kingdom_puzzle():
    return generate("best-kingdom", 1, 4, "hard")[0]


def test_check_rescores_from_the_cards_never_from_the_file(kingdom_puzzle):
    """A file edited to solution.score 99 used to answer 'not correct: 85 short' for the optimal kingdom."""
    edited = json.loads(json.dumps(kingdom_puzzle))
    edited["solution"]["score"] = 99
    verdict = check(edited, kingdom_puzzle["solution"]["kingdom"])
    assert verdict["correct"] and verdict["optimum"] == kingdom_puzzle["solution"]["score"] == 14
    assert verdict["puzzleError"] == "the puzzle records 99 but the proven optimum is 14"
    greedy = check(edited, kingdom_puzzle["greedy"]["kingdom"])
    assert not greedy["correct"] and greedy["message"] == "7 short"


def test_check_proves_a_puzzle_given_without_its_solution(kingdom_puzzle):
    bare = {k: v for k, v in kingdom_puzzle.items() if k not in ("solution", "greedy", "crossCheck")}
    verdict = check(bare, kingdom_puzzle["solution"]["kingdom"])
    assert verdict["correct"] and verdict["optimum"] == 14 and verdict["proof"] == "EXHAUSTIVE"
    assert "puzzleError" not in verdict


@pytest.mark.parametrize("answer, reason", [
    ("PPPP/PPPP/PPPP/PPPP", "the kingdom uses other cards than the puzzle's 16 (14 P too many; 3 F, 1 S, 1 H, "
                            "2 E, 1 D, 4 G, 2 O missing)"),
    ("EHGP/OFGS/FGOG/PEFD", "the fixed card P must stay on c1 (the kingdom has G there)"),
])
def test_a_kingdom_breaking_the_puzzle_is_not_correct_with_the_reason(kingdom_puzzle, answer, reason):
    verdict = check(kingdom_puzzle, answer)
    assert verdict["correct"] is False and verdict["message"] == reason


@pytest.fixture(scope="module")
def race_puzzle():
    return generate("legend-race", 1, 2, "medium")[0]


def test_race_turns_ignore_case_and_spaces(race_puzzle):
    moves = race_puzzle["solution"]["moves"]          # draw, place a4; take, place d2; take, place a1
    shouted = "; ".join(m.upper().replace(", ", ",") for m in moves)
    assert check(race_puzzle, shouted)["correct"]
    assert check(race_puzzle, "TAKE,PLACE D2")["message"] == "the Legend is not met"


def test_an_illegal_race_turn_is_not_correct_with_the_reason(race_puzzle):
    verdict = check(race_puzzle, "take, reveal a1")
    assert verdict["correct"] is False and verdict["legendWritten"] is False
    assert verdict["message"] == ("turn 1 'take, reveal a1' is not legal there: only a drawn card may go to the "
                                  "discard to reveal a face-down card")
    with pytest.raises(InvalidInputError):          # a turn that cannot be read is still an input error
        check(race_puzzle, "fly, place a1")


def test_race_check_proves_the_optimum_itself(race_puzzle):
    moves = race_puzzle["solution"]["moves"]
    edited = json.loads(json.dumps(race_puzzle))
    edited["solution"]["turns"] = 1
    verdict = check(edited, moves)
    assert verdict["correct"] and verdict["optimum"] == 3 and "records 1" in verdict["puzzleError"]
    bare = {k: v for k, v in race_puzzle.items() if k != "solution"}
    assert check(bare, moves)["correct"]
    longer = check(bare, moves[:1] + ["take, place a1"] + moves[1:])     # a detour: the Legend met in 4 turns
    assert not longer["correct"] and longer["message"] == "1 turn(s) longer than the optimum"


def test_cli_check_exits_4_for_rule_breaks(tmp_path, capfd, kingdom_puzzle, race_puzzle):
    for puzzle, answer in ((kingdom_puzzle, "PPPP/PPPP/PPPP/PPPP"), (race_puzzle, "TAKE, REVEAL A1")):
        path = tmp_path / "p.json"
        path.write_text(json.dumps(puzzle))
        out = cli(capfd, "check", str(path), answer)
        assert out.returncode == 4 and out.stdout.startswith("not correct: ") and not out.stderr, out


def test_the_shared_check_reports_the_proven_answer_when_the_file_is_wrong(kingdom_puzzle, race_puzzle):
    """The shared check fills a verdict's ``solution`` from the puzzle file; a wrong or missing one is replaced by
    what the check proved, never repeated."""
    from solver.puzzles import check as shared_check
    edited = json.loads(json.dumps(kingdom_puzzle))
    edited["solution"]["score"] = 99
    verdict = shared_check(AetheryaGame(), edited, kingdom_puzzle["solution"]["kingdom"])
    assert verdict["correct"] and "99" not in verdict["solution"] and "score 14, proven optimal" in verdict["solution"]
    bare = {k: v for k, v in race_puzzle.items() if k != "solution"}
    assert shared_check(AetheryaGame(), bare, "take, reveal a1")["solution"] == "3 turns, proven fewest"
    intact = shared_check(AetheryaGame(), kingdom_puzzle, kingdom_puzzle["solution"]["kingdom"])
    assert intact["solution"].startswith(kingdom_puzzle["solution"]["kingdom"])
