"""Mnemonic puzzles: "best call", a decision whose best move the exact planner proves, with a margin.

A puzzle is one player's view at a decision of theirs (which card, which skill,
whether to weave, Group Scene or another round, ...), taken from a seeded
random session. Its solution is the move with the highest chance that a Group
Scene ends in Victory within the puzzle's horizon (MN-33), proven by the
planner's exhaustive expectimax (``complete``: the whole horizon searched) and
unique: every other choice is worse by at least the margin. Cards of one suit
lead to the same future (MN-35), so any card of the best suit is the same
answer; they are listed in ``alsoCorrect``.

Difficulty is graded by what it takes to find the answer (after Simon Tatham's
puzzles, graded by the solver's work) and by how fine the call is:

* ``easy``: the plain rule of thumb finds it (most dice now, no weaving, face the
  Adversary after one round: :mod:`solver.mnemonic.policies`), and it is better
  than any other choice by at least 0.01 (one percentage point of Victory chance);
* ``medium``: the rule of thumb picks another move; only the planner's values
  find the answer, which is better than any other choice by at least 0.02;
* ``hard``: the rule of thumb picks another move and the answer is a fine call:
  better than the next choice by less than 0.02 (and at least 0.001), so only
  the exact values tell them apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import IllegalMoveError, InvalidInputError, InvalidMoveError
from solver.mnemonic import state as S
from solver.mnemonic.planner import Horizon, evaluate
from solver.mnemonic.policies import plain_scene_move, rule_of_thumb
from solver.mnemonic.state import MnemonicState
from solver.mnemonic.text import describe as describe_position
from solver.mnemonic.text import puzzle_answer
from solver.mnemonic.view import MnemonicView
from solver.search import SearchContext, Stopped
from solver.validate import as_int, as_list, as_object, as_str, decode_json, get

if TYPE_CHECKING:
    from solver.mnemonic.game import MnemonicGame

KIND = "best-call"
KINDS = (KIND,)
HORIZON = (1, 2)
NODES = 300_000
#: the margin (best value minus the next answer's) each grade asks for: [low, high)
MARGIN = {"easy": (0.01, 2.0), "medium": (0.02, 2.0), "hard": (0.001, 0.02)}
TABLE_PHASES = ("table", "after-victory", "after-defeat")
EPSILON = 1e-12


def _sessions(rng: np.random.Generator) -> tuple[int, str]:
    players = int(rng.choice([1, 2, 2, 2]))  # small tables: every puzzle is proven within its budget
    mode = "into-the-grey" if rng.random() < 0.5 else "deck-burner"
    return players, mode


def _random_decision(game: MnemonicGame, rng: np.random.Generator) -> MnemonicState | None:
    """A full state at a decision with at least two choices, after random play from a seeded deal."""
    state = game.new_game(int(rng.integers(2**31)))
    target = int(rng.integers(0, 80))
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
            continue
        legal = state.legal_actions()
        if steps >= target and len(legal) > 1 and state.phase != "after-victory":
            return state  # after a Victory the plan always prefers more Victories (MN-33): no puzzle there
        keep = [a for a in legal if state.action_to_string(a) not in ("end", "retreat")] or legal
        state.apply_action(int(keep[rng.integers(len(keep))]))
        steps += 1
    return None


def _key(state: MnemonicState, action: int) -> tuple[int, int]:
    """Moves that are the same answer: cards of one suit (and, in a Group Scene, the same skill)."""
    return state.sibling_key(action) or (-2, action)


def solve_position(view: MnemonicView, horizon: tuple[int, int], nodes: int,
                   ctx: SearchContext | None = None) -> dict[str, Any] | None:
    """The proven best answer of ``view``'s decision: ``None`` unless the planner searched the whole horizon
    within ``nodes`` states and one answer is strictly best.

    The planner (``solver.mnemonic.planner.evaluate``) runs on a full state drawn from the view, with the view's
    observer as the advised player, so it reads only the view (MN-36); values in doubles (the exact fractions of
    the hints' ``exact`` are not needed to separate margins of 0.001). The objective is the plain horizon's
    (``continuation=False``, MN-33): the continuation estimate beyond the horizon proves nothing. ``ctx`` (a
    generation's or a check's) stops the search at its time limit or on ``terminate``:
    :class:`~solver.search.Stopped`."""
    state = view.resample(np.random.default_rng(0))
    if state.is_terminal() or state.current_player() != view.observer:
        return None
    evaluation = evaluate(state, view.observer, Horizon(*horizon), max_states=nodes,
                          seconds=None if ctx is None else ctx.remaining(), exact=False,
                          cancel=None if ctx is None else ctx.cancel, nodes_given=True, continuation=False)
    if evaluation.stopped_by in ("time", "terminate"):
        raise Stopped
    if not evaluation.complete or set(evaluation.values) != set(state.legal_actions()):
        return None
    values = {state.action_to_string(a): v for a, v in evaluation.values.items()}
    best = max(values.values())
    top = [a for a, v in evaluation.values.items() if v >= best - EPSILON]
    keys = {_key(state, a) for a in top}
    if len(keys) != 1:
        return None  # two different answers tie
    key = keys.pop()
    others = [v for a, v in evaluation.values.items() if _key(state, a) != key]
    if not others:
        return None  # every move is the same answer: no decision to make
    order = state.legal_actions()
    solution = state.action_to_string(min(top, key=order.index))
    return {"solution": solution, "alsoCorrect": sorted(state.action_to_string(a) for a in top
                                                        if state.action_to_string(a) != solution),
            "value": best, "margin": best - max(others), "values": values,
            "states": evaluation.states, "horizon": evaluation.horizon.to_json() if evaluation.horizon else None}


def rule_of_thumb_finds(view: MnemonicView, answer: dict[str, Any]) -> bool:
    """Whether the plain rule of thumb plays one of the answer's moves."""
    state = view.resample(np.random.default_rng(0))
    thumb = rule_of_thumb(1)(state, 1, 1) if state.phase in TABLE_PHASES else plain_scene_move(state)
    return state.action_to_string(thumb) in {answer["solution"], *answer["alsoCorrect"]}


def grade(view: MnemonicView, answer: dict[str, Any]) -> str | None:
    """``easy``, ``medium`` or ``hard`` (``None``: too close a call, or a rule-of-thumb answer with a small margin)."""
    margin = answer["margin"]
    if rule_of_thumb_finds(view, answer):
        return "easy" if margin >= MARGIN["easy"][0] else None
    if margin >= MARGIN["medium"][0]:
        return "medium"
    return "hard" if margin >= MARGIN["hard"][0] else None


def generate(game: MnemonicGame, kind: str, difficulty: str, rng: np.random.Generator,
             ctx: SearchContext) -> dict[str, Any]:
    """A best-call puzzle of ``difficulty``, every choice drawn from ``rng``; stops with
    :class:`~solver.search.Stopped` when ``ctx`` says (its time limit, ``terminate``), whatever the node budget."""
    attempts = 0
    while True:
        if ctx.should_stop():
            raise Stopped
        attempts += 1
        players, mode = _sessions(rng)
        table = type(game)(**{**game.params, "players": players, "mode": mode})
        state = _random_decision(table, rng)
        if state is None:
            continue
        view = state.view(state.current_player())
        answer = solve_position(view, HORIZON, NODES, ctx)
        if answer is None or grade(view, answer) != difficulty:
            continue
        player = view.observer
        return {"position": view.to_notation(), "player": player, "phase": state.phase,
                "question": f"{state.players[player].name} (player {player}) decides ({state.phase}): which move "
                            "gives the best chance that a Group Scene ends in Victory within "
                            f"{HORIZON[0]} more round(s) and {HORIZON[1]} Group Scene(s)?",
                "horizon": {"rounds": HORIZON[0], "groupScenes": HORIZON[1]}, "nodes": NODES,
                "solution": answer["solution"], "alsoCorrect": answer["alsoCorrect"],
                "value": answer["value"], "margin": round(answer["margin"], 12), "states": answer["states"],
                "ruleOfThumb": difficulty == "easy", "attempts": attempts}


def position(game: MnemonicGame, puzzle: dict[str, Any]) -> MnemonicView:
    """The puzzle's player's view at their decision (the web board plays the answer on it): the answer is the one
    move played from it (``check`` also takes it as a JSON list of that one move string)."""
    view = game.parse_position(get(puzzle, "position", "puzzle"), "puzzle.position")
    if not isinstance(view, MnemonicView):
        raise InvalidInputError("puzzle.position", "...", "a best-call puzzle's position is the player's view")
    return view


def answer_moves(answer: Any) -> list[str]:
    """The answer as moves: a move string, or a JSON list of move strings (as text or a list, the web board's
    answer) played from the puzzle's position."""
    if isinstance(answer, str) and answer.lstrip().startswith("["):
        answer = decode_json(answer, "ANSWER")
    if isinstance(answer, list):
        return [as_str(m, f"ANSWER[{i}]").strip() for i, m in enumerate(as_list(answer, "ANSWER"))]
    return [as_str(answer, "ANSWER").strip()]


def check(game: MnemonicGame, puzzle: dict[str, Any], answer: Any, ctx: SearchContext) -> dict[str, Any]:
    """Re-prove the puzzle from its position and judge ``answer``: one move, as a string or a list of one move
    string (the moves played from :func:`position`). ``ctx`` (its terminate and time limit, whatever the puzzle's
    ``nodes``) stops the proof: :class:`~solver.search.Stopped`."""
    view = position(game, puzzle)
    horizon_obj = as_object(puzzle.get("horizon", {"rounds": HORIZON[0], "groupScenes": HORIZON[1]}),
                            "puzzle.horizon")
    horizon = (as_int(horizon_obj.get("rounds"), "puzzle.horizon.rounds", 0, 4),
               as_int(horizon_obj.get("groupScenes"), "puzzle.horizon.groupScenes", 1, 6))
    nodes = as_int(puzzle.get("nodes", NODES), "puzzle.nodes", 1, 10_000_000)
    moves = answer_moves(answer)
    if len(moves) != 1:
        return {"correct": False, "message": f"a best-call puzzle is answered by one move, the decision itself "
                                             f"({len(moves)} played)"}
    text = moves[0]
    try:
        view.clone().apply_move(text)
    except (IllegalMoveError, InvalidMoveError):
        return {"correct": False, "message": f"{text!r} is not a legal move here (legal: "
                                             f"{', '.join(sorted(view.legal_moves()))})"}
    proved = solve_position(view, horizon, nodes, ctx)
    if proved is None:
        raise InvalidInputError("puzzle.position", "...", "the planner cannot prove a unique best move here "
                                                          "within the puzzle's horizon and budget")
    legal = {S._canonical(m): m for m in proved["values"]}
    move = legal.get(S._canonical(text))
    if move is None:
        return {"correct": False, "message": f"{text!r} is not a legal move here (legal: "
                                             f"{', '.join(sorted(legal.values()))})"}
    value, best = proved["values"][move], proved["value"]
    if value >= best - EPSILON:
        return {"correct": True, "message": f"{move}: Victory chance {value:.4f}, the best by "
                                            f"{proved['margin']:.4f}", "solution": proved["solution"]}
    return {"correct": False, "message": f"{move} gives {value:.4f}; {proved['solution']} gives {best:.4f} "
                                         f"({best - value:.4f} more)", "solution": proved["solution"]}


def describe(game: MnemonicGame, puzzle: dict[str, Any]) -> str:
    """The puzzle's statement: the player's view in words, then the question (never the answer)."""
    view = game.parse_position(puzzle["position"], "puzzle.position")
    return describe_position(game, view) + puzzle.get("question", "") + "\n"


def answer(game: MnemonicGame, puzzle: dict[str, Any]) -> str:
    """The proven answer in one line (the answers page)."""
    return puzzle_answer(puzzle)
