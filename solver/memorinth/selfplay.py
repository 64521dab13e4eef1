"""Memorinth self-play: one seeded deal played by each seating of the policies (``solver/selfplay.py``).

Policies: ``hint`` (the hint's best move from the player's own view, with a
playout budget per decision), ``greedy`` (the playout policy, MR-27, which uses
only what the player has seen) and ``random`` (a uniformly random legal move).
A deal is played once per rotation of the policies over the seats (two
players: A-B, then B-A), so every policy meets the same cards from every seat
and the comparison is paired. A policy's outcome on the deal is its share of
wins over those games (0, 0.5 or 1 with two players); a game nobody wins
(MR-19, or longer than ``maxTurns``) is a loss for everybody.

A deal stops with :class:`solver.search.Stopped` when its context's time limit
passes or it is terminated, also in the middle of a hint (the one watcher,
:class:`solver.search.Watch`, stops the hint under way).
"""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import InvalidInputError
from solver.memorinth import kernel
from solver.memorinth.hints import hint_view
from solver.memorinth.layout import TURNS
from solver.memorinth.state import MemorinthState
from solver.search import Limits, SearchContext, Stopped, Watch

if TYPE_CHECKING:
    from solver.memorinth.game import MemorinthGame

#: the policies ``selfplay --policies`` accepts, and the default pairing
POLICIES = ("hint", "greedy", "random")
DEFAULT = ("hint", "greedy")
POLICY_CODES = {"greedy": 1, "random": 0}


def labels(policies: tuple[str, ...]) -> list[str]:
    """One label per policy; a policy named twice gets its seat number (``greedy@0``, ``greedy@1``)."""
    return [name if policies.count(name) == 1 else f"{name}@{i}" for i, name in enumerate(policies)]


def play(game: MemorinthGame, policies: tuple[str, ...], rng: np.random.Generator, ctx: SearchContext,
         hintNodes: int = 200, maxTurns: int = 200) -> dict[str, Any]:
    """Deal from ``rng`` and play every rotation of ``policies`` over the seats; ``Stopped`` when ``ctx`` says."""
    watch = Watch.for_context(ctx, name="memorinth-selfplay-watch")
    halt = threading.Event()   # the hints' cancel: raised by the watch at the deadline or on terminate
    watch.on_stop(halt.set)
    # the watcher thread only where a hint may need stopping mid-search; otherwise each move looks itself
    with watch if "hint" in policies else contextlib.nullcontext():
        return _play(game, tuple(policies), rng, hintNodes, maxTurns, watch, halt)


def _play(game: MemorinthGame, policies: tuple[str, ...], rng: np.random.Generator, hint_nodes: int,
          max_turns: int, watch: Watch, halt: threading.Event) -> dict[str, Any]:
    n = game.rules.players
    if len(policies) != n:
        raise InvalidInputError("policies", ",".join(policies), f"expected one policy per player ({n}, in turn "
                                                                 "order); each deal is also played rotated")
    deal_seed = int(rng.integers(2**63))
    names = labels(tuple(policies))
    wins = {label: 0.0 for label in names}
    games = []
    for rotation in range(n):
        seating = [(seat + rotation) % n for seat in range(n)]   # seat -> index of the policy playing it
        state = game.deal(deal_seed)
        moves: list[str] = []
        seed = int(rng.integers(2**63))
        while not state.is_terminal() and int(state.vec[TURNS]) < max_turns:
            who = state.current_player()
            policy = policies[seating[who]]
            action = choose(game, state, policy, hint_nodes, seed + len(moves), halt)
            if watch.stopped():   # a hint may have been cut short: this game is not the one asked for
                raise Stopped("self-play stopped by its limit")
            moves.append(state.action_to_string(action))
            state.apply_action(action)
        winner = state.winner()
        if winner is not None:
            wins[names[seating[winner]]] += 1.0 / n
        games.append({"seats": [names[i] for i in seating], "moves": moves, "winner": winner,
                      "turns": int(state.vec[TURNS]), "finished": state.is_terminal()})
    return {"outcomes": {label: round(value, 6) for label, value in wins.items()}, "games": games}


def choose(game: MemorinthGame, state: MemorinthState, policy: str, hint_nodes: int, seed: int,
           halt: threading.Event | None = None) -> int:
    """The action ``policy`` plays for the player to act (each policy reads only that player's view); a hint
    stops early when ``halt`` is set."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if policy == "hint":
        ctx = SearchContext(limits=Limits(nodes=hint_nodes), seed=seed % 2**63, cancel=halt or threading.Event())
        best = hint_view(game, state.view(state.current_player()), ctx, top=1).best
        return state.parse_move(best.move)
    world = state.view(state.current_player()).resample(np.random.default_rng(seed % 2**63))
    return int(kernel.policy_action(world.vec, world.deck_table, POLICY_CODES[policy], seed % 2**64))
