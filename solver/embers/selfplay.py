"""Seeded self-play of whole games (``memory-solver embers selfplay``, ``benchmarks/bench_embers.py``).

Chance nodes are resolved from an explicit deck order, shuffled with the
game's seed (and shuffled again when a new day reshuffles the deck), which is
the same as drawing uniformly at random; the full-information reference policy
may look at that order to know the next card.

A game stops when its context says so (``terminate`` or the time limit): between moves, and inside a hint
policy's Blink search (the watch's stop flag), raising :class:`solver.search.Stopped`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver.embers.policy import FenrysSettings, FullInformationPolicy, GreedyPolicy, HintPolicy, Policy, RandomPolicy
from solver.embers.state import AELIN, EmbersState
from solver.game import Game
from solver.search import SearchContext, Stopped, Watch


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
    moves: list[str] = field(default_factory=list)  # every move and chance outcome, as ``apply`` takes them

    @property
    def won(self) -> bool:
        """True for a win."""
        return self.result == "won"


def play_game(game: Game, seed: int, fenrys: Policy, aelin: Policy, max_steps: int = 20_000,
              watch: Watch | None = None) -> GameRecord:
    """Play one game with ``fenrys`` (player 0) and ``aelin`` (player 1) from ``seed``; ``watch`` stops it
    (:class:`solver.search.Stopped`) on ``terminate`` or at the time limit."""
    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    state: EmbersState = game.new_initial_state(seed)  # type: ignore[assignment]
    order = DeckOrder(state, np.random.default_rng([seed, 1]))
    for policy in (fenrys, aelin):
        if hasattr(policy, "next_card") and getattr(policy, "full_information", False):
            policy.next_card = order.next_card
        if watch is not None and hasattr(policy, "watch"):
            policy.watch = watch
    decisions = rows = 0
    day = state.day
    moves: list[str] = []
    for _ in range(max_steps):
        if watch is not None and watch.stopped():
            raise Stopped("self-play stopped")
        if state.is_terminal():
            break
        if state.is_chance_node():
            card = order.next_card(state)
            assert card is not None
            moves.append(state.action_to_string(card))
            state.apply_action(card)
            continue
        if state.day != day:
            day = state.day
        before = state.completed
        policy = aelin if state.current_player() == AELIN else fenrys
        action = policy.choose(state, rng)
        moves.append(state.action_to_string(action))
        state.apply_action(action)
        decisions += 1
        if state.completed > before or (state.completed == 0 and before == 3 and state.day > day):
            rows += 1
    completed_today = state.completed if not state.is_terminal() or state.result != "won" else 4
    total_rows = 4 * (state.day - 1) + (completed_today if state.result != "won" else 0)
    return GameRecord(seed, state.result or "unfinished", state.day, total_rows, decisions,
                      time.perf_counter() - start, moves)


#: ``selfplay --policies`` names: one policy for both players, or ``FENRYS+AELIN``
POLICIES = ("hint", "greedy", "random", "full-information", "hint+greedy", "greedy+hint")
#: the default ``--policies``
DEFAULT = ("hint", "greedy")


def make_policies(label: str, plan_nodes: int) -> tuple[Policy, Policy]:
    """Fresh policies for Fenrys and Aelin from a label of :data:`POLICIES`."""
    settings = FenrysSettings(search_nodes=plan_nodes)
    makers = {"hint": lambda: HintPolicy(settings), "greedy": GreedyPolicy, "random": RandomPolicy,
              "full-information": lambda: FullInformationPolicy(settings)}
    fenrys, _, aelin = label.partition("+")
    return makers[fenrys](), makers[aelin or fenrys]()


def play(game: Game, policies: tuple[str, ...], rng: np.random.Generator, ctx: SearchContext,
         planNodes: int = 1_000_000, **options: Any) -> dict[str, Any]:  # noqa: N803 - the option's documented key
    """One Chapter One deal (drawn from ``rng``) played by each policy label (``hint``, ``greedy``, ... or
    ``FENRYS+AELIN``), on the same deal and draws for all (paired).

    ``outcomes`` holds each label's win (0/1); ``rows`` the strength rows each completed; ``moves`` each game's
    moves and outcomes (replayable with ``apply`` from ``new --seed DEAL``). ``planNodes``: the node budget of
    the hint policies' Blink search. Raises :class:`solver.search.Stopped` when ``ctx`` says stop."""
    with Watch.for_context(ctx, name="embers-selfplay") as watch:
        return _paired(game, policies, rng, int(planNodes), watch)


def _paired(game: Game, policies: tuple[str, ...], rng: np.random.Generator, plan_nodes: int,
            watch: Watch | None) -> dict[str, Any]:
    deal = int(rng.integers(2**62))
    out: dict[str, Any] = {"deal": deal, "outcomes": {}, "rows": {}, "days": {}, "results": {}, "moves": {}}
    for label in policies:
        fenrys, aelin = make_policies(label, plan_nodes)
        record = play_game(game, deal, fenrys, aelin, watch=watch)
        out["outcomes"][label] = int(record.won)
        out["rows"][label] = record.rows
        out["days"][label] = record.day
        out["results"][label] = record.result
        out["moves"][label] = record.moves
    return out
