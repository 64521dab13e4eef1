"""Shared helpers for the Embers of Memory tests: hand-typed positions and a seeded game driver."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from solver.embers import mind as M
from solver.embers.state import ADD, DISCARD, DRAW, STOP, TAKE, decode, encode
from solver.registry import load_game

GAME = load_game("embers")
PROLOGUE = load_game("embers(chapter=prologue)")
DECK = GAME.deck


def cid(card_id: str) -> int:
    """The deck index of a card id."""
    return DECK.card(card_id, "test").index


def one(**fields: Any) -> dict[str, Any]:
    """A Chapter One JSON position: the start of Fenrys's turn (a draw) unless overridden."""
    base: dict[str, Any] = {
        "chapter": "one", "day": 1, "turn": "fenrys", "phase": "draw",
        "mind": ["C4@0,0"], "row": [], "demons": [], "discard": [], "box": [],
        "resolve": [{"card": "D1a", "faceUp": False, "cards": []},
                    {"card": "G2b", "faceUp": False, "cards": []},
                    {"card": "S3", "faceUp": False, "cards": []},
                    {"card": "F5", "faceUp": False, "cards": []}],
        "completed": 0, "added": False, "pending": None, "result": None,
    }
    base.update(fields)
    return base


def state(**fields: Any):
    """A Chapter One state parsed from :func:`one`."""
    return GAME.state_from_json(one(**fields))


def play(state, *moves: str):
    """Apply move strings (chance moves as 'chance ID') and return the state."""
    for move in moves:
        if move.startswith("chance "):
            state.apply_action(cid(move.split()[1]))
        else:
            state.apply_move(move)
    return state


def check_zones(state) -> None:
    """No card is ever lost or duplicated: every card is in exactly one zone."""
    zones = state.zones()
    seen = Counter(c for cards in zones.values() for c in cards)
    duplicated = [DECK.cards[c].id for c, n in seen.items() if n > 1]
    assert not duplicated, f"duplicated {duplicated} in {state.to_notation()}"
    expected = {c.index for c in state.deck.cards if not (state.chapter == "prologue" and c.is_demon)}
    assert set(seen) == expected, f"lost {sorted(expected - set(seen))} in {state.to_notation()}"
    for demon, tainted in state.demons:
        assert all(state.deck.cards[c].suit == state.deck.cards[demon].suit for c in tainted)
    assert not any(state.deck.cards[c].is_demon for c in zones["mind"] + zones["resolve"] + zones["strength"]
                   + zones["tainted"] + zones["box"])


def biased_action(state, rng: np.random.Generator) -> int:
    """A seeded, mostly sensible legal action, so that games reach later days (for coverage, not strength)."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return outcomes[int(rng.integers(len(outcomes)))][0]
    legal = state.legal_actions()
    kinds = {a: decode(a)[0] for a in legal}
    if state.phase == "observe":
        memory = [c for c in state.row if not DECK.cards[c].is_demon]
        placeable = M.legal_placements(DECK, state.mind, memory)
        if encode(DRAW) in legal and (not placeable or len(memory) < 2 + int(rng.integers(3))):
            return encode(DRAW)
        return encode(STOP)
    adds = [a for a in legal if kinds[a] == ADD]
    if adds and (rng.random() < 0.85 or not any(kinds[a] == DISCARD for a in legal)):
        return adds[int(rng.integers(len(adds)))]
    takes = [a for a in legal if kinds[a] == TAKE]
    if takes and state.chapter == "one":
        row = state.rows[state.completed]
        room = 7 - state.row_total(row)
        fitting = [a for a in takes if DECK.cards[decode(a)[1]].strength <= room]
        if fitting and len(state.mind) > 1 and rng.random() < 0.9:
            exact = [a for a in fitting if DECK.cards[decode(a)[1]].strength == room]
            pool = exact or fitting
            return pool[int(rng.integers(len(pool)))]
    return legal[int(rng.integers(len(legal)))]


def with_row(state, row):
    """The Blink problem of ``state`` with the memory row replaced by ``row`` (ids, taken from the deck)."""
    from solver.embers import plan
    changed = state.clone()
    changed.row = [cid(c) if isinstance(c, str) else c for c in row]
    changed.pile = changed.pile - set(changed.row)
    return plan.problem_from_state(changed)


def blink_problems(count: int, seed: int, draw_row: Callable[[Any, np.random.Generator, int], list[int] | None],
                   chance: float, accept: Callable[[Any], bool] = lambda state: True) -> list:
    """``count`` seeded Blink problems taken from games played with :func:`biased_action`: at a Blink with nothing
    added yet that ``accept`` takes, with probability ``chance``, the row becomes ``draw_row(state, rng, found)``
    (``found``: problems so far; None: no problem here)."""
    rng = np.random.default_rng(seed)
    out = []
    game_seed = seed
    while len(out) < count:
        game_seed += 1
        s = GAME.new_initial_state(game_seed)
        while not s.is_terminal() and len(out) < count:
            if s.phase == "blink" and not s.added and accept(s) and rng.random() < chance:
                row = draw_row(s, rng, len(out))
                if row is not None:
                    out.append(with_row(s, row))
            s.apply_action(biased_action(s, rng))
    return out
