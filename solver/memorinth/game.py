"""Memorinth (Pegasus Spiele): the game's parameters, new games, and positions read from JSON or notation.

The rules run in the compiled kernel (``solver/memorinth/kernel.py``) on the state vector of
``solver/memorinth/layout.py``; the capabilities live in their own modules (``hints.py``, ``solve.py``,
``puzzles.py``, ``selfplay.py``, ``picture.py``, ``text.py``, ``commands.py``), which ``solver.contract`` finds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solver.errors import InvalidInputError
from solver.game import Facts, Game, Information, Parameter, Utility, _decode_json_text
from solver.memorinth import kernel
from solver.memorinth import layout as R
from solver.memorinth.deck import Deck, load_deck
from solver.memorinth.layout import rule_vector
from solver.memorinth.notation import (Parsed, check_state, legacy_observation_to_view, looks_like_legacy_observation,
                                       read_json, read_notation)
from solver.memorinth.state import MemorinthState
from solver.memorinth.view import MemorinthView, view_from_json, view_from_notation


class MemorinthGame(Game):
    """Memorinth: flip forest cards, follow the fairy-tale characters, be first out of the labyrinth."""

    #: general sum: one winner, or nobody when no piece can ever leave (MR-19)
    FACTS = Facts("memorinth", "Memorinth", Utility.GENERAL_SUM, Information.IMPERFECT, players=(1, 4))
    default_time_ms = 1000
    PLAYERS_PARAMETER = "players"
    MODE_PARAMETER = "variant"
    PARAMETERS = {
        "players": Parameter(2, int, "number of players, 2-4 (1 = solitaire: puzzles and shortest escapes)",
                             lo=1, hi=4),
        "variant": Parameter("base", str, "'base' or 'master' (Master Memorinth)", choices=R.VARIANTS),
        "action_side": Parameter("shift", str, "Master Memorinth: the action card side in use: 'shift' (row and "
                                               "column shifts), 'special' (clover, peek, swaps; goblins count) "
                                               "or 'alternate' (turned with the start-player card) (MR-13)",
                                 choices=R.ACTION_SIDE_MODES),
        "seats": Parameter("auto", str, "the table side (N, E, S, W) of each player in turn order, e.g. 'SN'; "
                                        "'auto' = S, SN, SWN, SWNE"),
        "deck": Parameter("default", str, "a deck file (docs/formats/memorinth.md) or 'default' (invented, not the "
                                          "printed cards)", data_file=True),
        "chance_setup": Parameter(False, bool, "new games start undealt, the deal played as chance nodes"),
    }

    def __init__(self, _deck: Deck | None = None, **params: Any) -> None:
        super().__init__(**params)
        players = self.params["players"]
        seats = R.check_seats(self.params["seats"], players, "game.seats")
        if self.params["variant"] == "base" and self.params["action_side"] != "shift":
            raise InvalidInputError("game.action_side", self.params["action_side"],
                                    "the action card is only used in Master Memorinth (variant=master)")
        deck = _deck if _deck is not None else load_deck(self.params["deck"], "game.deck")
        self.deck_is_file = _deck is None and self.params["deck"] != "default"
        self.rules = R.Rules(players, self.params["variant"], self.params["action_side"], seats, deck)
        self.deck_table: np.ndarray = deck.table()

    def derive(self, changes: dict[str, Any], deck: Deck | str | None, field: str) -> MemorinthGame:
        """This game with some parameters (and possibly the deck) changed; errors name ``field``."""
        params = dict(self.params)
        if "players" in changes and "seats" not in changes:
            params["seats"] = "auto"
        if changes.get("variant") == "base" and "action_side" not in changes:
            params["action_side"] = "shift"
        params.update(changes)
        if params.get("seats") == R.DEFAULT_SEATS.get(params.get("players")):
            params["seats"] = "auto"
        inline: Deck | None = None
        if isinstance(deck, Deck):
            inline = deck
            params["deck"] = "inline"
        elif isinstance(deck, str):
            params["deck"] = deck
        elif not self.deck_is_file and self.params["deck"] != "default":
            inline = self.rules.deck
        if params == self.params and inline is None:
            return self
        try:
            return MemorinthGame(_deck=inline, **params)
        except InvalidInputError as exc:
            key = (exc.field or "").removeprefix("game.")
            name = {"action_side": "actionSide"}.get(key, key)
            raise type(exc)(f"{field}.{name}" if name else field, exc.value, exc.problem) from None

    # -- states ---------------------------------------------------------------------------------
    def new_initial_state(self, seed: int = 0) -> MemorinthState:
        """A game dealt with ``seed`` (or, with ``chance_setup=true``, the undealt table: seed unused)."""
        if self.params["chance_setup"]:
            return MemorinthState(self, rule_vector(self.rules), [])
        return self.deal(seed)

    def deal(self, seed: int) -> MemorinthState:
        """A game dealt with ``seed``: cards shuffled into a checkerboard around the clearing, characters drawn."""
        vec = rule_vector(self.rules)
        kernel.deal(vec, self.deck_table, int(seed) & (2**64 - 1))
        return MemorinthState(self, vec)

    def new_game(self, seed: int) -> MemorinthState:
        """A dealt game (``new --seed S``), also when ``chance_setup`` is set."""
        return self.deal(seed)

    def new_table(self, player: int) -> MemorinthView:
        """A real table before the deal, as ``player`` sees it: the cards are then entered as they are laid out
        (``deal card 7`` for each cell row by row, skipping the clearing's, then ``deal character R`` for each
        character place), as the ``chance_setup`` deal does."""
        if not 0 <= player < self.rules.players:
            raise InvalidInputError("player", player, f"expected 0..{self.rules.players - 1}")
        return MemorinthView(self, player, rule_vector(self.rules), [])

    def view_of(self, state: MemorinthState, player: int) -> MemorinthView:
        """``player``'s view of ``state`` (``state.view(player)``)."""
        return MemorinthView.of_state(state, player)

    # -- positions from JSON and notation ----------------------------------------------------------
    def state_from_json(self, obj: Any, field: str = "state") -> MemorinthState:
        return _checked_state(read_json(self, obj, field, None), field)

    def state_from_notation(self, text: str, field: str = "state") -> MemorinthState:
        return _checked_state(read_notation(self, text, field, None), field)

    def parse_state(self, payload: Any, field: str = "state") -> MemorinthState:
        state = super().parse_state(payload, field)
        if not isinstance(state, MemorinthState):
            raise InvalidInputError(field, type(state).__name__, "not a Memorinth state")
        return state

    def parse_position(self, payload: Any, field: str = "state") -> MemorinthState | MemorinthView:
        """A state or a view; the observation JSON of earlier releases is read as the view it describes."""
        payload = _decode_json_text(payload, field)
        if looks_like_legacy_observation(payload):
            payload = legacy_observation_to_view(payload, field)
        position = super().parse_position(payload, field)
        if not isinstance(position, (MemorinthState, MemorinthView)):
            raise InvalidInputError(field, type(position).__name__, "not a Memorinth position")
        return position

    def view_from_json(self, obj: Any, field: str = "state") -> MemorinthView:
        return view_from_json(self, obj, field)

    def view_from_notation(self, text: str, field: str = "state") -> MemorinthView:
        return view_from_notation(self, text, field)


def _checked_state(parsed: Parsed, field: str) -> MemorinthState:
    """The state a parse gave, checked against the rules (a deal under way needs no check)."""
    game, vec, setup, _ = parsed
    state = MemorinthState(game, vec, setup)
    if setup is None:
        check_state(state, field)
    return state


GAME = MemorinthGame
