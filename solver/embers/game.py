"""Embers of Memory: the game object, its engine services and its command line."""

from __future__ import annotations

from typing import Any

from solver.embers.cards import Deck, load_deck
from solver.embers.state import EmbersState
from solver.game import Game, Information, Parameter, Utility


class EmbersGame(Game):
    """Embers of Memory: A Throne of Glass Game (Osprey), a re-theme of The Ravens of Thri Sahashri."""

    name = "embers"
    long_name = "Embers of Memory"
    utility = Utility.IDENTICAL
    information = Information.IMPERFECT
    min_players = 2
    max_players = 2
    PARAMETERS = {
        "chapter": Parameter("one", str, "'one' (Chapter One, the full game) or 'prologue' (parts one and two)",
                             choices=("one", "prologue")),
        "deck": Parameter("default", str, "deck file (docs/formats/embers.md); 'default' is the shipped, "
                                          "invented deck"),
    }

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.deck: Deck = load_deck(self.params["deck"])

    def new_initial_state(self, seed: int) -> EmbersState:
        state = EmbersState(self)
        state.deal_initial(seed)
        return state

    def state_from_json(self, obj: Any, field: str = "state") -> EmbersState:
        from solver.embers.codec import state_from_json
        return state_from_json(self, obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> EmbersState:
        from solver.embers.codec import state_from_notation
        return state_from_notation(self, text, field)
