"""How close to optimal are the route policy and the hints? Exact answers on small boards.

* :func:`policy_value` plays a knowledge-reading policy through every chance outcome
  (:class:`~solver.forgotten.exact.PolicyEvaluator`): its exact win probability.
* :func:`regret` plays seeded games of the knowledge model and adds up, at every decision, how much
  the policy's move loses against the optimal move (exact values from the compiled solver). Its mean
  is exactly the gap ``optimal - policy`` (performance-difference identity), with a confidence interval
  far tighter than win rates of self-play would give.
* :func:`hint_policy` turns the hint engine (Monte Carlo rollouts) into such a policy, so both measures
  apply to the hints players get.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from solver.errors import SolverError
from solver.forgotten.exact import PolicyEvaluator
from solver.forgotten.hints import hint
from solver.forgotten.knowledge import BLOCK, UNK, UP, Info, Model, info_from_state, world_arrays
from solver.forgotten.state import GIVE_UP, ForgottenState
from solver.kernels import forgotten as kernel
from solver.search import Limits, SearchContext

Policy = Callable[[Info, int, bool], int]


def route_policy(model: Model) -> Policy:
    """The route policy (kernel policy 2) on knowledge states."""
    board = model.board

    def choose(info: Info, first: int, erase_next: bool) -> int:
        tiles, status, seen = world_arrays(model, info)
        return kernel.policy_move(board.width, board.height, *board.brains, tiles, status, seen, first, 2, 0)
    return choose


def knowledge_state(game, model: Model, info: Info, first: int, erase_next: bool) -> ForgottenState:
    """A position of ``game`` with this knowledge (a turn count that fits it; unseen tiles arbitrary)."""
    tiles, status, seen = world_arrays(model, info)
    n_seen = int(seen.sum())
    removed = int((status == 3).sum())
    turn = (n_seen - (1 if first >= 0 else 0) + 1) // 2
    while True:
        rolls = game.rolls_after(turn)
        if game.erasure_due(turn + 1) == erase_next and rolls >= removed:
            break
        turn += 1
    return ForgottenState(game, game.board, [int(t) for t in tiles], [int(s) for s in status],
                          [bool(s) for s in seen], turn, "second" if first >= 0 else "first", first, given=True)


def hint_policy(game, model: Model, rollouts: int, seed: int = 0) -> Policy:
    """The hint engine's top move as a policy (fixed rollout budget and seed: deterministic)."""
    fallback = route_policy(model)

    def choose(info: Info, first: int, erase_next: bool) -> int:
        state = knowledge_state(game, model, info, first, erase_next)
        try:
            world = state.resample_from_observation(0, np.random.default_rng(seed))
            result = hint(world, SearchContext(limits=Limits(nodes=rollouts), seed=seed), top=1)
        except SolverError:          # no living world agrees: every move is worth 0
            return fallback(info, first, erase_next)
        move = result.best.move if result.best else "give up"
        action = world.parse_move(move)
        return fallback(info, first, erase_next) if action == GIVE_UP else action
    return choose


def initial_info(game) -> tuple[Info, bool]:
    """The knowledge at the start (empty cells as dealt with seed 0) and whether a roll follows turn 1."""
    return info_from_state(game.new_initial_state(0)), game.erasure_due(1)


def policy_value(game, policy: Policy) -> tuple[float, int]:
    """Exact win probability of ``policy`` from the start, and the knowledge states it visits."""
    model = Model.of(game)
    info, flag = initial_info(game)
    evaluator = PolicyEvaluator(model, policy)
    return evaluator.value(info, flag), len(evaluator.memo)


def optimal_solver(game, max_entries: int = 60_000_000) -> kernel.Solver:
    """The compiled optimal solver for ``game``."""
    return kernel.Solver(game.width, game.height, *game.board.brains, game.erasure_code,
                         game.goal_code, game.board.symmetries, -1, max_entries)


@dataclass
class Regret:
    """Mean loss per game against optimal play, with a normal 95% interval."""

    mean: float
    low: float
    high: float
    games: int
    decisions: int


def regret(game, policy: Policy, games: int, seed: int, solver: kernel.Solver | None = None) -> Regret:
    """Seeded games of the knowledge model; each decision's loss ``V*(s) - Q*(s, move)`` is exact."""
    model = Model.of(game)
    solver = solver or optimal_solver(game)
    rng = np.random.default_rng(seed)
    start, flag0 = initial_info(game)
    totals = []
    decisions = 0
    for _ in range(games):
        info, flag, loss = start, flag0, 0.0
        while model.hopeful(info) and bin(info.down()).count("1") >= 2:
            codes = np.asarray(info.codes, np.uint8)
            best = solver.value(codes, info.e, info.d, flag)
            first = policy(info, -1, flag)
            loss += best - solver.first_value(codes, info.e, info.d, flag, first)
            decisions += 1
            if info.codes[first] == UNK:
                info = _draw(rng, model.reveal(info, first))
            codes = np.asarray(info.codes, np.uint8)
            seconds = [c for c in range(model.cells) if c != first and info.codes[c] not in (BLOCK, UP)]
            values = {c: solver.second_value(codes, info.e, info.d, flag, first, c) for c in seconds}
            second = policy(info, first, flag)
            loss += max(values.values()) - values[second]
            decisions += 1
            outcomes = model.second_flip(info, first, second)
            weights = np.asarray([w for w, _, _ in outcomes], float)
            _, info, matched = outcomes[int(rng.choice(len(outcomes), p=weights / weights.sum()))]
            if matched and model.won(info):
                break
            if flag:
                info = model.erase(info, int(rng.integers(model.cells)))
                flag = model.next_flag(True)
            else:
                flag = model.next_flag(flag)
        totals.append(loss)
    mean = float(np.mean(totals))
    half = 1.96 * float(np.std(totals, ddof=1)) / math.sqrt(len(totals)) if len(totals) > 1 else 0.0
    return Regret(mean, mean - half, mean + half, games, decisions)


def _draw(rng: np.random.Generator, outcomes: list) -> Info:
    weights = np.asarray([o[0] for o in outcomes], float)
    return outcomes[int(rng.choice(len(outcomes), p=weights / weights.sum()))][1]
