"""Aetherya self-play: seeded deals played by policies, seats rotated in the competitive modes.

``memory-solver aetherya selfplay --policies hint,greedy --count N --seed S [--hint-nodes K] [--json]`` (and
``solver.selfplay``) plays deal ``i`` from its own random stream (``solver/selfplay.py``). In the base and Objects
and Characters modes every deal is played once per seat rotation (2 players: twice, seats swapped), so each policy
sits in every seat of the same deal; its outcome on the deal is its mean score over the seats it held
(``"hint"``) and its share of the wins (``"hint wins"``, ties shared). In the cooperative modes (co-op, solo) each
policy plays the whole deal alone: its team or campaign score (``"hint"``) and, in solo, whether the campaign was
completed (``"hint completed"``, 0 or 1). Labels measured on the same deals are compared paired by the summary.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

from solver.aetherya.hints import best_move, solo_progress
from solver.aetherya.playout import greedy_action, random_action, sample_chance
from solver.aetherya.state import AetheryaState
from solver.errors import InvalidInputError
from solver.game import Game
from solver.search import Limits, SearchContext, Stopped

Policy = Callable[[AetheryaState, np.random.Generator], int]
#: the policies ``selfplay --policies`` accepts, and the default match
POLICIES = ("hint", "greedy", "random", "hint-full-info")
DEFAULT = ("hint", "greedy")
DEFAULT_HINT_NODES = 300


def decision_context(ctx: SearchContext | None, hint_nodes: int, seed: int) -> SearchContext:
    """The limits of one hint decision: ``hint_nodes`` playouts, within the run's time limit and stopped by its
    terminate (``ctx``: the self-play run's context; without one, the budget alone)."""
    if ctx is None:
        return SearchContext(limits=Limits(nodes=hint_nodes), seed=seed)
    return SearchContext(limits=Limits(time_ms=ctx.limits.time_ms, nodes=hint_nodes), cancel=ctx.cancel,
                         seed=seed, started=ctx.started)


def make_policy(name: str, hint_nodes: int = DEFAULT_HINT_NODES, ctx: SearchContext | None = None) -> Policy:
    """The move chooser of a policy: the hint from the player's own view (``hint``), the hint with every card
    known (``hint-full-info``), the greedy policy of the playouts, or a uniformly random legal move. The hints
    stop with ``ctx`` (the run's time limit and terminate)."""
    if name == "greedy":
        return greedy_action
    if name == "random":
        return random_action
    if name not in ("hint", "hint-full-info"):
        raise InvalidInputError("policies", name, f"unknown policy (known: {', '.join(POLICIES)})")
    full = name == "hint-full-info"

    def choose(state: AetheryaState, rng: np.random.Generator) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.mode == "solo":
            # the policy's move as the greedy player makes it (the solo policy reads only what the player sees),
            # its ties broken from this same stream, and the search seeded from the position: where the hint
            # keeps the policy's move the campaign stays the greedy player's, so that a paired comparison differs
            # only where the hint departs from it
            policy = greedy_action(state.clone(), rng)
            seed = zlib.crc32(state.view(state.to_move).to_notation().encode()) & 0x7FFFFFFF  # what the player sees
            return best_move(state, decision_context(ctx, hint_nodes, seed), full_information=full,
                             policy_move=policy)
        search = decision_context(ctx, hint_nodes, int(rng.integers(2**31)))
        return best_move(state, search, full_information=full)  # the hint's best move, without its explanations
    return choose


def play_deal(game: Game, deal_seed: int, seats: list[Policy], play_seed: int, ctx: SearchContext | None = None
              ) -> tuple[AetheryaState, list[str]]:
    """One game: the setup from ``deal_seed``, then the draws from ``play_seed`` (the same for every seat
    rotation of a deal) and each seat's choices from its own stream. Returns the final state and the moves.
    ``ctx`` is polled before every move: :class:`~solver.search.Stopped` when it says stop."""
    state = game.new_initial_state(deal_seed)
    chance = np.random.default_rng([play_seed, 1])
    choosers = [np.random.default_rng([play_seed, 2, seat]) for seat in range(len(seats))]
    moves: list[str] = []
    while not state.is_terminal():
        if ctx is not None and ctx.should_stop():
            raise Stopped("self-play")
        if state.is_chance_node():
            action = sample_chance(state, chance)
        else:
            action = seats[state.to_move](state, choosers[state.to_move])
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return state, moves


def play(game: Game, policies: tuple[str, ...], rng: np.random.Generator, ctx: SearchContext,
         hintNodes: int = DEFAULT_HINT_NODES) -> dict[str, Any]:  # noqa: N803 (the option's name)
    """One seeded deal played by ``policies``: ``outcomes`` per label, and the games played; stops with
    :class:`~solver.search.Stopped` when ``ctx`` says (its terminate or time limit)."""
    deal_seed, play_seed = (int(x) for x in rng.integers(0, 2**31, size=2))
    chooser = {name: make_policy(name, hintNodes, ctx) for name in policies}
    players = game.num_players
    outcomes: dict[str, float] = {}
    games = []
    if game.mode in ("coop", "solo"):
        for name in dict.fromkeys(policies):
            state, moves = play_deal(game, deal_seed, [chooser[name]] * players, play_seed, ctx)
            outcomes[name] = float(state.returns()[0])
            entry: dict[str, Any] = {"seats": [name] * players, "returns": state.returns(), "moves": moves}
            if game.mode == "solo":
                outcomes[f"{name} completed"] = 0.0 if state.failed else 1.0
                entry.update({"legendsWritten": solo_progress(state), "ageScores": list(state.age_scores)})
            games.append(entry)
        return {"deal": deal_seed, "outcomes": outcomes, "games": games}
    names = list(policies)
    rotations = players if len(set(names)) > 1 else 1
    scores: dict[str, list[float]] = {name: [] for name in names}
    wins: dict[str, list[float]] = {name: [] for name in names}
    for rotation in range(rotations):
        seats = [names[(seat + rotation) % len(names)] for seat in range(players)]
        state, moves = play_deal(game, deal_seed, [chooser[name] for name in seats], play_seed, ctx)
        returns, winners = state.returns(), state.winners()
        for seat, name in enumerate(seats):
            scores[name].append(float(returns[seat]))
            wins[name].append(1.0 / len(winners) if seat in winners else 0.0)
        games.append({"seats": seats, "returns": returns, "winners": winners, "moves": moves})
    for name in dict.fromkeys(names):
        outcomes[name] = round(float(np.mean(scores[name])), 6)
    for name in dict.fromkeys(names):
        outcomes[f"{name} wins"] = round(float(np.mean(wins[name])), 6)
    return {"deal": deal_seed, "outcomes": outcomes, "games": games}
