"""Memorinth (Pegasus Spiele): the game object, its engine services and its command line."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

import numpy as np

from solver.errors import InvalidInputError
from solver.game import Game, Information, Parameter, State, Utility
from solver.memorinth import rules as R
from solver.memorinth.deck import Deck, load_deck
from solver.memorinth.state import MemorinthState, rule_vector
from solver.results import HintResult, SolveResult
from solver.search import SearchContext


class MemorinthGame(Game):
    """Memorinth: flip forest cards, follow the fairy-tale characters, be first out of the labyrinth."""

    name = "memorinth"
    long_name = "Memorinth"
    utility = Utility.GENERAL_SUM      # one winner, or nobody when no piece can ever leave (MR-19)
    information = Information.IMPERFECT
    min_players = 1
    max_players = 4
    default_time_ms = 1000
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
        from solver.memorinth.rules import kernel
        vec = rule_vector(self.rules)
        kernel.deal(vec, self.deck_table, int(seed) & (2**64 - 1))
        return MemorinthState(self, vec)

    def state_from_json(self, obj: Any, field: str = "state") -> MemorinthState:
        from solver.memorinth.codec import state_from_json
        return state_from_json(self, obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> MemorinthState:
        from solver.memorinth.codec import state_from_notation
        return state_from_notation(self, text, field)

    def parse_state(self, payload: Any, field: str = "state") -> MemorinthState:
        state = super().parse_state(payload, field)
        if not isinstance(state, MemorinthState):
            raise InvalidInputError(field, type(state).__name__, "not a Memorinth state")
        return state

    # -- services -------------------------------------------------------------------------------
    def hint(self, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
             full_information: bool = False) -> HintResult:
        from solver.memorinth.hints import hint
        return hint(self.parse_state(state), ctx, top=top, player=player, full_information=full_information)

    def solve(self, payload: Any, ctx: SearchContext) -> SolveResult:
        from solver.memorinth.escape import solve_request
        return solve_request(self, payload, ctx)

    def score(self, payload: Any) -> dict[str, Any]:
        from solver.memorinth.escape import race_report
        return race_report(self.parse_state(payload))

    # -- command line and demo ------------------------------------------------------------------
    def add_cli(self, commands: argparse._SubParsersAction) -> None:
        from solver.memorinth.cli import add_commands
        add_commands(self, commands)

    def demo(self, out: TextIO) -> None:
        from solver.memorinth.cli import demo
        demo(self, out)
