"""Forgotten self-play in the shared run format (``solver/selfplay.py``): one seeded deal per game, every policy on
the same deal and the same Erasure dice (paired).

Policies: ``route``, ``greedy``, ``random`` and ``oracle`` are the compiled kernel's (``docs/rules/forgotten.md``,
"Policies"; ``oracle`` sees every tile), ``hint`` plays the hint's best move (``--hint-nodes`` rollouts a
decision). ``--fast`` deals and plays in the kernel instead (no moves, no hint policy). A game looks at its
context between moves and raises :class:`solver.search.Stopped` on ``terminate`` or at the time limit.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import InvalidInputError
from solver.forgotten.hints import hint_view
from solver.forgotten.state import ForgottenState
from solver.kernels import forgotten as kernel
from solver.search import Limits, SearchContext, Stopped

if TYPE_CHECKING:
    from solver.forgotten.game import ForgottenGame

POLICIES = ("route", "greedy", "random", "oracle", "hint")
DEFAULT = ("route",)
#: the kernel's policy codes
KERNEL_POLICIES = {"random": 0, "greedy": 1, "route": 2, "oracle": 3}
DEFAULT_HINT_NODES = 2000


def play(game: ForgottenGame, policies: tuple[str, ...], rng: np.random.Generator, ctx: SearchContext,
         hintNodes: int = DEFAULT_HINT_NODES, fast: bool = False) -> dict[str, Any]:  # noqa: N803
    """One deal played by every policy, each on the same deal and the same sequence of Erasure rolls.

    ``outcomes`` holds each policy's win (1/0), ``turns`` its turns played, ``moves`` its moves and rolls
    (as ``apply`` takes them). With ``fast`` the compiled kernel deals and plays instead (no moves; the deal
    comes from ``kernelSeed``, the same for every policy).
    """
    if fast:
        return _kernel_game(game, policies, rng, ctx)
    deal_seed, dice_seed, policy_seed = (int(x) for x in rng.integers(0, 2**62, size=3))
    start = game.new_initial_state(deal_seed)
    out: dict[str, Any] = {"deal": start.to_notation(), "outcomes": {}, "turns": {}, "moves": {}}
    for name in policies:
        state, moves = _play(game, start.clone(), name, np.random.default_rng(dice_seed),
                             np.random.default_rng([policy_seed, KERNEL_POLICIES.get(name, 4)]), hintNodes, ctx)
        out["outcomes"][name] = int(state.returns()[0])
        out["turns"][name] = state.turn
        out["moves"][name] = moves
    return out


def _poll(ctx: SearchContext) -> None:
    if ctx.should_stop():
        raise Stopped("terminated" if ctx.cancelled else "time limit")


def _play(game: ForgottenGame, state: ForgottenState, policy: str, dice: np.random.Generator,
          own: np.random.Generator, hint_nodes: int, ctx: SearchContext) -> tuple[ForgottenState, list[str]]:
    board = state.board
    moves: list[str] = []
    while not state.is_terminal():
        _poll(ctx)
        if state.is_chance_node():
            action = int(dice.integers(board.cells))
        elif policy == "hint":
            seed = int(own.integers(2**62))
            result = hint_view(game, state.view(state.default_observer()), _hint_context(ctx, hint_nodes, seed), top=1)
            _poll(ctx)      # a hint cut short by the game's limits is not played
            action = state.parse_move(result.best.move)
        else:
            first = state.first if state.phase == "second" else -1
            action = kernel.policy_move(board.width, board.height, *board.brains, *state.arrays(), first,
                                        KERNEL_POLICIES[policy], int(own.integers(2**62)))
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return state, moves


def _hint_context(ctx: SearchContext, nodes: int, seed: int) -> SearchContext:
    """The hint policy's context: its own rollout budget and seed, the game's ``terminate`` and time left."""
    left = ctx.remaining()
    time_ms = None if left is None else max(1, math.ceil(left * 1000))
    return SearchContext(limits=Limits(time_ms=time_ms, nodes=nodes), seed=seed, cancel=ctx.cancel)


def _kernel_game(game: ForgottenGame, policies: tuple[str, ...], rng: np.random.Generator,
                 ctx: SearchContext) -> dict[str, Any]:
    if "hint" in policies:
        raise InvalidInputError("--fast", True, "the hint policy is not in the compiled kernel: drop --fast")
    seed = int(rng.integers(0, 2**62))
    out: dict[str, Any] = {"kernelSeed": seed, "outcomes": {}, "turns": {}}
    wins, turns = np.zeros(1, np.uint8), np.zeros(1, np.int32)
    for name in policies:
        _poll(ctx)
        kernel.play_games(game.width, game.height, *game.board.brains, game.pairs, game.erasure_code,
                          game.goal_code, KERNEL_POLICIES[name], seed, wins, turns)
        out["outcomes"][name] = int(wins[0])
        out["turns"][name] = int(turns[0])
    return out
