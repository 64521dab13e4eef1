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

from solver.aetherya.state import AetheryaState
from solver.errors import InvalidInputError
from solver.search import Limits, SearchContext

Policy = Callable[[AetheryaState, np.random.Generator], int]
POLICIES = ("hint", "greedy", "random", "hint-full-info")
DEFAULT_HINT_NODES = 300


def make_policy(name: str, hint_nodes: int = DEFAULT_HINT_NODES) -> Policy:
    """The move chooser of a policy: the hint from the player's own view (``hint``), the hint with every card
    known (``hint-full-info``), the greedy policy of the playouts, or a uniformly random legal move."""
    from solver.aetherya.playout import greedy_action, random_action
    if name == "greedy":
        return greedy_action
    if name == "random":
        return random_action
    if name not in ("hint", "hint-full-info"):
        raise InvalidInputError("policies", name, f"unknown policy (known: {', '.join(POLICIES)})")
    full = name == "hint-full-info"

    def choose(state: AetheryaState, rng: np.random.Generator) -> int:
        from solver.aetherya.hints import best_move
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
            return best_move(state, SearchContext(limits=Limits(nodes=hint_nodes), seed=seed),
                             full_information=full, policy_move=policy)
        ctx = SearchContext(limits=Limits(nodes=hint_nodes), seed=int(rng.integers(2**31)))
        return best_move(state, ctx, full_information=full)  # the hint's best move, without its explanations
    return choose


def play(game: Any, deal_seed: int, seats: list[Policy], play_seed: int) -> tuple[AetheryaState, list[str]]:
    """One game: the setup from ``deal_seed``, then the draws from ``play_seed`` (the same for every seat
    rotation of a deal) and each seat's choices from its own stream. Returns the final state and the moves."""
    from solver.aetherya.playout import sample_chance
    state = game.new_initial_state(deal_seed)
    chance = np.random.default_rng([play_seed, 1])
    choosers = [np.random.default_rng([play_seed, 2, seat]) for seat in range(len(seats))]
    moves: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, chance)
        else:
            action = seats[state.to_move](state, choosers[state.to_move])
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return state, moves


def selfplay_game(game: Any, policies: tuple[str, ...], rng: np.random.Generator,
                  hintNodes: int = DEFAULT_HINT_NODES) -> dict[str, Any]:  # noqa: N803 (the option's name)
    """One seeded deal played by ``policies`` (``solver.game.Game.selfplay_game``)."""
    deal_seed, play_seed = (int(x) for x in rng.integers(0, 2**31, size=2))
    chooser = {name: make_policy(name, hintNodes) for name in policies}
    players = game.num_players
    outcomes: dict[str, float] = {}
    games = []
    if game.mode in ("coop", "solo"):
        for name in dict.fromkeys(policies):
            state, moves = play(game, deal_seed, [chooser[name]] * players, play_seed)
            outcomes[name] = float(state.returns()[0])
            entry: dict[str, Any] = {"seats": [name] * players, "returns": state.returns(), "moves": moves}
            if game.mode == "solo":
                from solver.aetherya.hints import solo_progress
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
        state, moves = play(game, deal_seed, [chooser[name] for name in seats], play_seed)
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
