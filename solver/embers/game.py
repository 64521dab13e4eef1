"""Embers of Memory: the rules' parameters, a new game, and the entry points that read positions.

A state or view may be given as JSON or notation (``docs/formats/embers.md``); its ``chapter`` picks the rules,
so the default game ``embers`` reads Prologue positions too. The services live beside this file under their
standard names: ``hints.py``, ``solve.py`` (the optimal Blink plan, ``score``), ``puzzles.py``, ``selfplay.py``,
``picture.py``, ``text.py``, and ``commands.py`` (the ``campaign`` command and the demo).
"""

from __future__ import annotations

from typing import Any

from solver.embers import notation
from solver.embers.campaign import PLAYABLE, load_campaign
from solver.embers.cards import Deck, load_deck
from solver.embers.state import CHAPTERS, EmbersState
from solver.embers.view import EmbersView
from solver.errors import UnsupportedActionError
from solver.game import Facts, Game, Information, Parameter, State, Utility, View
from solver.validate import as_choice, join


class EmbersGame(Game):
    """Embers of Memory: A Throne of Glass Game (Osprey), a re-theme of The Ravens of Thri Sahashri."""

    FACTS = Facts("embers", "Embers of Memory", Utility.IDENTICAL, Information.IMPERFECT, players=(2, 2))
    PARAMETERS = {
        "chapter": Parameter("one", str, "'one' (Chapter One, the full game) or 'prologue' (parts one and two)",
                             choices=CHAPTERS),
        "deck": Parameter("default", str, "deck file (docs/formats/embers.md); 'default' is the shipped, "
                                          "invented deck", data_file=True),
    }
    MODE_PARAMETER = "chapter"

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.deck: Deck = load_deck(self.params["deck"])

    # -- new games --------------------------------------------------------------------
    def new_initial_state(self, seed: int) -> EmbersState:
        state = EmbersState(self)
        state.deal_initial(seed)
        return state

    def new_game(self, seed: int, campaign: str | None = None) -> EmbersState:
        """A dealt game (``new --seed S``); with a campaign file, a game of its chapter (EM-60, EM-63)."""
        game, box = self._for_campaign(campaign)
        state = EmbersState(game)
        state.box = box
        state.deal_initial(seed)
        return state

    def new_table(self, player: int, campaign: str | None = None) -> View:
        """A real table's start as ``player`` sees it: nothing dealt yet (EM-35); the deals are entered as they
        happen (``chance ID``, or ``chance ?`` for a Resolve card the player does not see)."""
        game, box = self._for_campaign(campaign)
        state = EmbersState(game)
        state.box = box
        state.start_table()
        return state.view(player)

    def _for_campaign(self, path: str | None) -> tuple[EmbersGame, list[int]]:
        if path is None:
            return self, []
        campaign = load_campaign(path)
        chapter = campaign.chapter if self.params["chapter"] == self.PARAMETERS["chapter"].default \
            else self.params["chapter"]
        if chapter not in PLAYABLE:
            raise UnsupportedActionError("--campaign", chapter, f"chapter {chapter}'s rules are on captivity cards "
                                                                "we do not have")
        game = self.for_chapter(chapter)
        return game, [game.deck.card(c, "campaign").index for c in campaign.out_of_play(game.deck)]

    def for_chapter(self, chapter: Any) -> EmbersGame:
        """This game with another chapter (same deck)."""
        if chapter == self.params["chapter"] or chapter not in CHAPTERS:
            return self
        return EmbersGame(chapter=chapter, deck=self.params["deck"])

    # -- reading positions ----------------------------------------------------------------
    def state_from_json(self, obj: Any, field: str = "state") -> EmbersState:
        return notation.state_from_json(self, obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> EmbersState:
        return notation.state_from_notation(self, text, field)

    def parse_state(self, payload: Any, field: str = "state") -> State:
        """A state from JSON or notation; its chapter (``"chapter"`` or ``embers/prologue/N``) picks the rules."""
        if isinstance(payload, dict) and "chapter" in payload and "view" not in payload:
            chapter = as_choice(payload["chapter"], join(field, "chapter"), CHAPTERS)
            return self.for_chapter(chapter).state_from_json(payload, field)
        if isinstance(payload, str) and payload.strip().startswith("embers/"):
            return self.for_head(payload).state_from_notation(payload, field)
        return super().parse_state(payload, field)

    def for_head(self, text: str) -> EmbersGame:
        """The game of a notation's chapter (``embers/one ...``, ``embers/prologue/N ...``)."""
        head = text.strip().split(" ", 1)[0]
        return self.for_chapter("prologue" if head.startswith("embers/prologue") else "one"
                                if head.startswith("embers/one") else self.params["chapter"])

    def view_from_json(self, obj: Any, field: str = "state") -> View:
        """A player's view from its JSON (``"view": N``; ``docs/formats/embers.md``)."""
        return notation.view_from_json(self, obj, field)

    def view_from_notation(self, text: str, field: str = "state") -> View:
        """A player's view from its notation (``view:N embers/one ...`` with ``?`` for unseen Resolve cards)."""
        return notation.view_from_notation(self, text, field)

    # -- what positions ask of their game (state.py and view.py do not import the codec or the view) ------
    def view_of(self, state: EmbersState, player: int) -> EmbersView:
        """``player``'s view of ``state`` (``EmbersState.view``)."""
        return EmbersView.of_state(state, player)

    def position_json(self, state: EmbersState) -> dict[str, Any]:
        """``state`` (or a view's table) as JSON (``EmbersState.to_json``)."""
        return notation.state_to_json(state)

    def position_notation(self, state: EmbersState, masked: tuple[int, ...] | list[int] = ()) -> str:
        """``state`` in the notation, the ``masked`` rows' Resolve cards as ``?`` (``EmbersState.to_notation``)."""
        return notation.state_to_notation(state, masked)


GAME = EmbersGame
