"""Forgotten puzzles and self-play in the shared run format (``solver/puzzles.py``, ``solver/selfplay.py``).

Puzzles (``docs/formats/forgotten.md``, "Puzzles"): each is drawn from its own random stream with the
generator of ``solver.forgotten.puzzles`` (positions of seeded self-play and built positions, answers proven by
search), and :func:`check` re-proves an answer from the puzzle's own position. Self-play: one seeded deal per
game, every policy on the same deal and the same Erasure dice (paired).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import InvalidInputError, UnsupportedActionError
from solver.forgotten.state import GIVE_UP, ForgottenState
from solver.validate import as_object, as_str, get

if TYPE_CHECKING:
    from solver.forgotten.game import ForgottenGame

KINDS = ("forced-connection", "best-move")
#: margins (win-probability points) a best move must win by, per difficulty
BEST_MARGINS = {"easy": 0.10, "medium": 0.05, "hard": 0.01}
MAX_GAMES = 200
POLICIES = {"random": 0, "greedy": 1, "route": 2, "oracle": 3}
SELFPLAY_POLICIES = ("route", "greedy", "random", "oracle", "hint")
DEFAULT_HINT_NODES = 2000


# -- puzzles ---------------------------------------------------------------------------------------------------
def generate_puzzle(game: ForgottenGame, kind: str, difficulty: str, rng: np.random.Generator) -> dict[str, Any]:
    """One puzzle of ``kind`` and ``difficulty``, everything drawn from ``rng``.

    Difficulty is the solver's work: a forced connection in 1, 2 or 3 turns (the depth of the AND-OR proof);
    a best move by at least 10, 5 or 1 points, which the route plan finds (easy) or misses (hard).
    """
    from solver.forgotten import puzzles
    from solver.forgotten.solve import MAX_CELLS
    if kind == "best-move" and game.board.cells > MAX_CELLS:
        raise UnsupportedActionError("kind", kind, f"best-move puzzles need the exact solver: boards of at most "
                                                   f"{MAX_CELLS} cells (this one has "
                                                   f"{game.board.cells}); use --kind forced-connection")
    # one exact solver for every candidate of this puzzle (they share most knowledge states); it lives only as
    # long as this call, so puzzle i depends on its own stream alone
    exact = puzzles._SharedExact() if kind == "best-move" else None
    for _ in range(MAX_GAMES):
        positions = puzzles._played_positions(game, rng) + puzzles._built_positions(game, rng, 20)
        for i in rng.permutation(len(positions)):
            position = game.state_from_json(positions[int(i)].observation(0))
            puzzle = _make(position, kind, difficulty, exact)
            if puzzle is not None:
                body = puzzle.to_json()
                body.pop("game", None)
                return body
    raise UnsupportedActionError("difficulty", difficulty, f"no {kind} puzzle of this difficulty found in {MAX_GAMES} "
                                                     f"self-played games on {game.spec()}; try another board or "
                                                     "difficulty")


def _make(position: ForgottenState, kind: str, difficulty: str, exact: Any = None) -> Any:
    from solver.forgotten import puzzles
    if kind == "forced-connection":
        return puzzles._forced_puzzle(position, difficulty)
    puzzle = puzzles._best_move_puzzle(position, "hard" if difficulty == "hard" else "medium", exact)
    if puzzle is None or puzzle.answer["margin"] < BEST_MARGINS[difficulty]:
        return None
    plan_finds_it = puzzle.verified["routePlanMove"] == puzzle.answer["move"]
    if difficulty == "easy" and not plan_finds_it:
        return None
    puzzle.difficulty = difficulty
    return puzzle


def check(game: ForgottenGame, puzzle: dict[str, Any], answer: Any) -> dict[str, Any]:
    """Re-prove ``answer`` from the puzzle's position (never from its stored answer)."""
    kind = as_str(get(puzzle, "kind", "puzzle"), "puzzle.kind")
    state = game.parse_state(get(puzzle, "state", "puzzle"), "puzzle.state")
    moves = _answer_moves(state, answer)
    if kind == "forced-connection":
        return _check_forced(state, puzzle, moves)
    if kind == "best-move":
        return _check_best(state, moves)
    raise InvalidInputError("puzzle.kind", kind, f"expected one of {', '.join(KINDS)}")


def _answer_moves(state: ForgottenState, answer: Any) -> list[int]:
    items = answer if isinstance(answer, list) else [answer]
    if not items:
        raise InvalidInputError("ANSWER", answer, "expected a flip such as 'flip 3,4' (or a list of flips)")
    moves = []
    for i, item in enumerate(items):
        field = "ANSWER" if not isinstance(answer, list) else f"ANSWER[{i}]"
        if isinstance(item, str) and item.strip().startswith("{"):
            raise InvalidInputError(field, item, "expected a flip such as 'flip 3,4'")
        moves.append(state.parse_move(as_str(item, field), field))
    return moves


def _check_forced(state: ForgottenState, puzzle: dict[str, Any], moves: list[int]) -> dict[str, Any]:
    from solver.forgotten.knowledge import Model, info_from_state
    from solver.forgotten.puzzles import SearchBudget, forced_turns
    turns = as_object(get(puzzle, "answer", "puzzle"), "puzzle.answer").get("turns")
    question = str(puzzle.get("question", ""))
    if not isinstance(turns, int) or isinstance(turns, bool) or not 1 <= turns <= 3:
        digits = [int(w) for w in question.split() if w.isdigit()]
        turns = digits[0] if digits else 3
    model = Model.of(state.game)
    erase_next = state.game.erasure_due(state.turn + 1)
    try:
        k, winners = forced_turns(model, info_from_state(state), erase_next, turns)
    except SearchBudget:
        raise UnsupportedActionError("puzzle", puzzle.get("id"), "the proof ran out of its node budget") from None
    names = [state.action_to_string(c) for c in winners]
    link = "a clear board" if state.game.goal == "clear" else "a link"     # FG-14: match every pair
    if k == 0:
        return {"correct": False, "message": f"no first flip forces {link} within {turns} turns from this position "
                                             "(the puzzle is wrong)", "proof": "AND-OR search"}
    played = [state.action_to_string(m) for m in moves]
    wrong = [m for m, name in zip(moves, played) if m not in winners]
    if wrong:
        name = state.action_to_string(wrong[0])
        return {"correct": False, "message": f"{name} does not force {link} within {k} turn{'s' if k > 1 else ''}: "
                                             "some tile an unseen "
                                             f"cell may show, or some Erasure roll, stops it; the flips that do: "
                                             f"{', '.join(names)}", "proof": "AND-OR search"}
    if len(moves) > 1 and set(moves) != set(winners):
        return {"correct": False, "message": f"not every flip that forces {link} is listed: {', '.join(names)}",
                "proof": "AND-OR search"}
    return {"correct": True, "message": f"{', '.join(played)} forces {link} within {k} turn{'s' if k > 1 else ''} "
                                        "whatever the unseen tiles show and the dice roll", "proof": "AND-OR search"}


def _check_best(state: ForgottenState, moves: list[int]) -> dict[str, Any]:
    from solver.forgotten.solve import ExactAnalysis
    if len(moves) != 1:
        raise InvalidInputError("ANSWER", [state.action_to_string(m) for m in moves], "expected one flip")
    values = sorted((m for m in ExactAnalysis(state.game).move_values(state) if m.action != GIVE_UP),
                    key=lambda m: (-m.value, m.action))
    best = values[0]
    played = next(m for m in values if m.action == moves[0])
    tied = [m for m in values if m.value >= best.value - 1e-12]
    if played.action == best.action and len(tied) == 1:
        return {"correct": True, "message": f"{played.move} wins with probability {played.value:.4f}, the only best "
                                            f"flip (next {values[1].move} {values[1].value:.4f})" if len(values) > 1
                else f"{played.move} is the only flip", "proof": "exact expectimax"}
    if played.value >= best.value - 1e-12:
        return {"correct": False, "message": f"{played.move} ties for best ({played.value:.4f}) with "
                                             f"{', '.join(m.move for m in tied if m.action != played.action)}: the "
                                             "puzzle has no unique answer", "proof": "exact expectimax"}
    return {"correct": False, "message": f"{played.move} wins with probability {played.value:.4f}; {best.move} wins "
                                         f"with {best.value:.4f}", "proof": "exact expectimax"}


def describe(game: ForgottenGame, puzzle: dict[str, Any]) -> str:
    """A puzzle for a person: the board, the question, and its answer."""
    from solver.forgotten.cli import render_board
    out = io.StringIO()
    state = game.parse_state(puzzle["state"], "puzzle.state")
    render_board(state, out)
    out.write(f"  {puzzle.get('question', '')}\n  answer: {answer_line(puzzle)}\n  position: {puzzle.get('position')}\n")
    return out.getvalue()


def answer_line(puzzle: dict[str, Any]) -> str:
    """The proven answer in one line."""
    answer = puzzle.get("answer") or {}
    if puzzle.get("kind") == "forced-connection":
        turns = answer.get("turns")
        return f"{' or '.join(answer.get('firstMoves', []))} (sure within {turns} turn{'s' if turns != 1 else ''})"
    return (f"{answer.get('move')} (wins {answer.get('winProbability', 0):.4f}; next best {answer.get('secondBest')} "
            f"{answer.get('secondBestWinProbability', 0):.4f})")


# -- self-play ---------------------------------------------------------------------------------------------------
def selfplay_game(game: ForgottenGame, policies: tuple[str, ...], rng: np.random.Generator,
                  hintNodes: int = DEFAULT_HINT_NODES, fast: bool = False) -> dict[str, Any]:  # noqa: N803
    """One deal played by every policy, each on the same deal and the same sequence of Erasure rolls.

    ``outcomes`` holds each policy's win (1/0), ``turns`` its turns played, ``moves`` its moves and rolls
    (as ``apply`` takes them). With ``fast`` the compiled kernel deals and plays instead (no moves; the deal
    comes from ``kernelSeed``, the same for every policy).
    """
    if fast:
        return _kernel_game(game, policies, rng)
    deal_seed, dice_seed, policy_seed = (int(x) for x in rng.integers(0, 2**62, size=3))
    start = game.new_initial_state(deal_seed)
    out: dict[str, Any] = {"deal": start.to_notation(), "outcomes": {}, "turns": {}, "moves": {}}
    for name in policies:
        state, moves = _play(game, start.clone(), name, np.random.default_rng(dice_seed),
                             np.random.default_rng([policy_seed, POLICIES.get(name, 4)]), hintNodes)
        out["outcomes"][name] = int(state.returns()[0])
        out["turns"][name] = state.turn
        out["moves"][name] = moves
    return out


def _play(game: ForgottenGame, state: ForgottenState, policy: str, dice: np.random.Generator,
          own: np.random.Generator, hint_nodes: int) -> tuple[ForgottenState, list[str]]:
    from solver.kernels import forgotten_playout
    from solver.search import Limits, SearchContext
    board = state.board
    moves: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = int(dice.integers(board.cells))
        elif policy == "hint":
            result = game.hint(state, SearchContext(limits=Limits(nodes=hint_nodes), seed=int(own.integers(2**62))),
                               top=1)
            action = state.parse_move(result.best.move)
        else:
            first = state.first if state.phase == "second" else -1
            action = forgotten_playout.policy_move(board.width, board.height, *board.brains, *state.arrays(), first,
                                                   POLICIES[policy], int(own.integers(2**62)))
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return state, moves


def _kernel_game(game: ForgottenGame, policies: tuple[str, ...], rng: np.random.Generator) -> dict[str, Any]:
    from solver.kernels import forgotten_playout
    if "hint" in policies:
        raise InvalidInputError("--fast", True, "the hint policy is not in the compiled kernel: drop --fast")
    seed = int(rng.integers(0, 2**62))
    out: dict[str, Any] = {"kernelSeed": seed, "outcomes": {}, "turns": {}}
    wins, turns = np.zeros(1, np.uint8), np.zeros(1, np.int32)
    for name in policies:
        forgotten_playout.play_games(game.width, game.height, *game.board.brains, game.pairs, game.erasure_code,
                                     game.goal_code, POLICIES[name], seed, wins, turns)
        out["outcomes"][name] = int(wins[0])
        out["turns"][name] = int(turns[0])
    return out
