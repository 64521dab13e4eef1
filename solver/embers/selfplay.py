"""Seeded self-play of whole games, for the benchmarks (``benchmarks/bench_embers.py``).

Chance nodes are resolved from an explicit deck order, shuffled with the
game's seed (and shuffled again when a new day reshuffles the deck), which is
the same as drawing uniformly at random; the full-information reference policy
may look at that order to know the next card.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from solver.embers.policy import Policy
from solver.embers.state import AELIN, EmbersState
from solver.game import Game


class DeckOrder:
    """A shuffled order of every card, re-shuffled at each new day; the deck's next card is the first one left."""

    def __init__(self, state: EmbersState, rng: np.random.Generator) -> None:
        self.rng = rng
        self.size = len(state.deck.cards)
        self.day = state.day
        self.order = [int(c) for c in rng.permutation(self.size)]

    def next_card(self, state: EmbersState) -> int | None:
        """The card the next draw (or deal) will bring, or ``None`` if the deck is empty."""
        if state.day != self.day:
            self.day = state.day
            self.order = [int(c) for c in self.rng.permutation(self.size)]
        dealing = state.phase == "deal"
        for card in self.order:
            if card in state.pile and not (dealing and state.deck.cards[card].is_demon):
                return card
        return None


@dataclass
class GameRecord:
    """How one self-played game went."""

    seed: int
    result: str
    day: int
    rows: int  # strength rows completed over the game
    decisions: int
    seconds: float

    @property
    def won(self) -> bool:
        """True for a win."""
        return self.result == "won"


def play(game: Game, seed: int, fenrys: Policy, aelin: Policy, max_steps: int = 20_000) -> GameRecord:
    """Play one game with ``fenrys`` (player 0) and ``aelin`` (player 1) from ``seed``."""
    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    state: EmbersState = game.new_initial_state(seed)  # type: ignore[assignment]
    order = DeckOrder(state, np.random.default_rng([seed, 1]))
    for policy in (fenrys, aelin):
        if hasattr(policy, "next_card") and getattr(policy, "full_information", False):
            policy.next_card = order.next_card
    decisions = rows = 0
    day = state.day
    for _ in range(max_steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            card = order.next_card(state)
            assert card is not None
            state.apply_action(card)
            continue
        if state.day != day:
            day = state.day
        before = state.completed
        policy = aelin if state.current_player() == AELIN else fenrys
        state.apply_action(policy.choose(state, rng))
        decisions += 1
        if state.completed > before or (state.completed == 0 and before == 3 and state.day > day):
            rows += 1
    completed_today = state.completed if not state.is_terminal() or state.result != "won" else 4
    total_rows = 4 * (state.day - 1) + (completed_today if state.result != "won" else 0)
    return GameRecord(seed, state.result or "unfinished", state.day, total_rows, decisions,
                      time.perf_counter() - start)
