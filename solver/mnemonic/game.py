"""Mnemonic (Into the Grey and Deck Burner): the rules' parameters, new sessions and the parsing entry points.

The capabilities live beside it (``docs/architecture.md``): hints in :mod:`solver.mnemonic.hints`, the table's
plan and the odds of a scene in :mod:`solver.mnemonic.solve`, best-call puzzles in
:mod:`solver.mnemonic.puzzles`, self-play in :mod:`solver.mnemonic.selfplay`, pictures and text in
:mod:`solver.mnemonic.picture` and :mod:`solver.mnemonic.text`, and the ``odds`` command and the demo in
:mod:`solver.mnemonic.commands`.
"""

from __future__ import annotations

from typing import Any

from solver.errors import InvalidInputError
from solver.game import Facts, Game, Information, Parameter, Utility
from solver.mnemonic import notation
from solver.mnemonic.parts import Player
from solver.mnemonic.rules_file import MnemonicRules, load_rules
from solver.mnemonic.setup import entered_characters, new_session, new_table_state
from solver.mnemonic.state import MnemonicState
from solver.mnemonic.view import MnemonicView


class MnemonicGame(Game):
    """Mnemonic (Into the Grey and Deck Burner): exact odds, session tracking and advice."""

    FACTS = Facts("mnemonic", "Mnemonic", Utility.IDENTICAL, Information.IMPERFECT, players=(1, 6))
    PARAMETERS = {
        "players": Parameter(3, int, "number of players in a new session", lo=1, hi=6),
        "mode": Parameter("deck-burner", str, "mode of play", choices=("deck-burner", "into-the-grey")),
        "rules": Parameter("", str, "path of a rules file (empty: the shipped solver/data/mnemonic_rules.json)",
                           data_file=True),
        "skills": Parameter("", str, "each player's character as entered at the table, / between players: a suit "
                            "letter and a rating per skill, e.g. H3D2C2S1/H1D2C3S2; - or empty: made from the rules",
                            example="H3D2C2S1/H1D2C3S2", per_player=True),
    }
    default_time_ms = 1000
    PLAYERS_PARAMETER = "players"
    MODE_PARAMETER = "mode"

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        entered_characters(self.params["skills"], self.rules)  # a mistyped character fails here, naming game.skills

    @property
    def rules(self) -> MnemonicRules:
        """The rule set this game uses (the shipped defaults unless ``rules=PATH``)."""
        return load_rules(self.params["rules"])

    def new_initial_state(self, seed: int) -> MnemonicState:
        """A new session: characters from the rule data, the deck dealt (Into the Grey) or shuffled (Deck Burner)."""
        return new_session(self, self.params["players"], self.params["mode"], seed)

    def state_from_json(self, obj: Any, field: str = "state") -> MnemonicState:
        return notation.state_from_json(self, obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> MnemonicState:
        return notation.state_from_notation(self, text, field)

    def view_from_json(self, obj: Any, field: str = "state") -> MnemonicView:
        return notation.view_from_json(self, obj, field)

    def view_from_notation(self, text: str, field: str = "state") -> MnemonicView:
        return notation.view_from_notation(self, text, field)

    def new_table(self, player: int) -> MnemonicView:
        """Player ``player``'s view before the deal (MN-42): the characters of ``new --seed 0``, every card still
        in the deck; the observer enters ``draw 7H`` for each card dealt to them and ``draw ?`` for the others'."""
        state = new_table_state(self, self.params["players"], self.params["mode"])
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.n:
            raise InvalidInputError("--player", player, f"expected a player index 0..{state.n - 1}")
        return MnemonicView.of(state, player)

    # -- building states and views for the modules below (they do not import each other back) ---------------
    def blank_state(self, rules: MnemonicRules, mode: str, players: list[Player]) -> MnemonicState:
        """A session of these characters at its first scene, nothing dealt (the parsers fill it in)."""
        return MnemonicState(self, rules, mode, players)

    def view_of(self, state: MnemonicState, player: Any) -> MnemonicView:
        """``player``'s view of ``state`` (:meth:`MnemonicState.view`)."""
        return MnemonicView.of(state, player)


GAME = MnemonicGame
