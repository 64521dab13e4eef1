"""Shared builders for Mnemonic tests: states from a few readable lines."""

from __future__ import annotations

import json
from typing import Any

import pytest

from solver.mnemonic.cards import DECK_SIZE, card_code
from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.state import MnemonicState

STATUS = {"": "ok", "c": "complicated", "i": "injured", "ci": "complicated+injured"}
SUIT = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}


def skill(spec: str) -> dict[str, Any]:
    """``"Sneak=S2c"`` -> a JSON skill."""
    name, _, code = spec.rpartition("=")
    digits = "".join(ch for ch in code[1:] if ch.isdigit())
    return {"name": name, "suit": SUIT[code[0]], "rating": int(digits), "status": STATUS[code[1 + len(digits):]]}


def player(skills: str, hand: str = "", weavings: int = 1, bonus: int = 0, name: str | None = None) -> dict[str, Any]:
    """``player("Fight=H3,Sneak=S2c", "7H QS")``."""
    out: dict[str, Any] = {"skills": [skill(s) for s in skills.split(",") if s], "hand": hand.split(),
                           "weavings": weavings, "bonusDice": bonus}
    if name:
        out["name"] = name
    return out


def state_json(players: list[dict[str, Any]], mode: str = "deck-burner", discard: str = "", **extra: Any) -> dict[str, Any]:
    """A JSON state; the deck is left out (it is whatever no hand or discard holds). ``discard`` is '7H@0 2S@1'."""
    obj: dict[str, Any] = {"mode": mode, "players": players,
                           "discard": [{"card": e.split("@")[0], "by": int(e.split("@")[1])} for e in discard.split()]}
    obj.update(extra)
    return obj


@pytest.fixture
def game() -> MnemonicGame:
    return MnemonicGame()


@pytest.fixture
def build(game):
    def make(players, mode="deck-burner", discard="", rules=None, **extra) -> MnemonicState:
        obj = state_json(players, mode, discard, **extra)
        if rules:
            obj["rules"] = rules
        return game.state_from_json(json.loads(json.dumps(obj)))
    return make


def moves(state: MnemonicState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state: MnemonicState, *texts: str) -> MnemonicState:
    for text in texts:
        state.apply_move(text)
    return state


def cards_accounted(state: MnemonicState) -> None:
    """MN-32 invariant: the 54 cards, each exactly once, across hands, deck and discard."""
    held = state.cards_in_play()
    assert sorted(held) == list(range(DECK_SIZE)), f"cards lost or duplicated in {state.to_notation()}"
    assert len(state.deck) + sum(len(p.hand) for p in state.players) + len(state.discard) == DECK_SIZE


@pytest.fixture
def mn():
    """The helpers above, for test modules (conftest functions cannot be imported in importlib mode)."""
    from types import SimpleNamespace
    return SimpleNamespace(skill=skill, player=player, state_json=state_json, moves=moves, play=play,
                           cards_accounted=cards_accounted)
