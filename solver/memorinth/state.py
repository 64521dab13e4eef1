"""The Memorinth state: a flat int32 vector run by the compiled rules kernel, plus the deal as chance nodes.

The vector layout is ``solver/memorinth/layout.py``. Every rule is applied by the kernel
(``solver/memorinth/kernel.py``); this class adds the State contract around it: move strings, chance nodes for
the deal (when the game is created with ``chance_setup=true``), what each player knows
(``solver/memorinth/knowledge.py``; their view is made by the game, ``solver/memorinth/view.py``), JSON and the
compact notation (``solver/memorinth/notation.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import IllegalMoveError, InvalidInputError, UnsupportedActionError
from solver.game import CHANCE_PLAYER, TERMINAL_PLAYER, State
from solver.memorinth import kernel, looks
from solver.memorinth import layout as R
from solver.memorinth.knowledge import knows_underside
from solver.memorinth.layout import (CHAR, DEAL_CARD, DEAL_CHAR, DOWN, FOREST_CELLS, PENDING, PH_OVER, PHASE,
                                     PIECE, SEEN, TOMOVE, UP, WINNER, rule_vector)
from solver.memorinth.notation import state_to_json, state_to_notation
from solver.validate import as_int

if TYPE_CHECKING:
    from solver.memorinth.game import MemorinthGame
    from solver.memorinth.view import MemorinthView


class MemorinthState(State):
    """One Memorinth position (mutable)."""

    def __init__(self, game: MemorinthGame, vec: np.ndarray, setup: list[int] | None = None) -> None:
        super().__init__(game)
        self.game: MemorinthGame = game
        self.rules: R.Rules = game.rules
        self.deck_table: np.ndarray = game.deck_table
        self.vec = np.ascontiguousarray(vec, dtype=np.int32)
        #: chance actions dealt so far while setting up (None once the game is dealt)
        self.setup: list[int] | None = setup

    # -- whose turn ------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.setup is not None:
            return CHANCE_PLAYER
        if self.vec[PHASE] == PH_OVER:
            return TERMINAL_PLAYER
        return int(self.vec[TOMOVE])

    def legal_actions(self) -> list[int]:
        if self.setup is not None:
            return [a for a, _ in self.chance_outcomes()]
        buf = np.empty(R.N_ACTIONS, dtype=np.int32)
        n = kernel.legal_actions(self.vec, self.deck_table, buf)
        return [int(a) for a in buf[:n]]

    def apply_action(self, action: int) -> None:
        if self.setup is not None:
            if action not in self.legal_actions():
                raise IllegalMoveError("action", action, "not a legal chance outcome of the deal")
            self.setup.append(int(action))
            if len(self.setup) == 32:
                self._finish_setup()
            return
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalMoveError("action", action, "expected an integer action")
        if not kernel.apply_action(self.vec, self.deck_table, int(action)):
            raise IllegalMoveError("action", int(action), f"not legal in {self.to_notation()!r}")

    def _finish_setup(self) -> None:
        assert self.setup is not None
        vec = rule_vector(self.rules)
        for cell, action in zip(FOREST_CELLS, self.setup[:24]):
            card = action - DEAL_CARD
            face = (cell // 5 + cell % 5) & 1
            vec[UP + cell] = 2 * card + face
            vec[DOWN + cell] = 2 * card + 1 - face
        vec[UP + R.CENTRE], vec[DOWN + R.CENTRE] = 0, 1
        for place, action in enumerate(self.setup[24:]):
            vec[CHAR + action - DEAL_CHAR] = place if self.rules.master else place // 2
        self.vec = vec
        self.setup = None

    # -- chance ---------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.setup is None:
            raise UnsupportedActionError("action", "chance_outcomes", "this state is not a chance node")
        dealt = set(self.setup)
        if len(self.setup) < 24:
            options = [DEAL_CARD + k for k in range(1, 25) if DEAL_CARD + k not in dealt]
        else:
            options = [DEAL_CHAR + i for i in range(8) if DEAL_CHAR + i not in dealt]
        return [(a, 1.0 / len(options)) for a in options]

    # -- moves ------------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if self.setup is not None:
            if DEAL_CARD < action <= DEAL_CARD + 24:
                return f"deal card {self.rules.deck.cards[action - DEAL_CARD].ident}"
            if DEAL_CHAR <= action < DEAL_CHAR + 8:
                return f"deal character {self.rules.deck.codes[action - DEAL_CHAR]}"
            raise InvalidInputError("action", action, "not a chance outcome of the deal")
        return R.action_to_string(int(action), self.rules.deck.codes, int(self.vec[PENDING]))

    def parse_move(self, text: str, field: str = "move") -> int:
        if self.setup is not None:
            words = text.split() if isinstance(text, str) else []
            if len(words) == 3 and words[:2] == ["deal", "card"] and looks.is_look(words[2]) and len(self.setup) < 24:
                return DEAL_CARD + self._card_showing(words[2], text, field)
            return super().parse_move(text, field)
        action = R.parse_move_text(text, self.rules.deck.codes, field)
        legal = self.legal_actions()
        canonical = self.action_to_string(action) if action in legal else None
        if canonical is None or (action >= R.A_SHIFT and action < R.A_CLOVER
                                 and " ".join(text.lower().split()) != canonical):
            raise IllegalMoveError(field, text, f"not a legal move here (legal: {self._legal_summary(legal)})")
        return action

    def _card_showing(self, token: str, text: str, field: str) -> int:
        """The undealt card the next cell gets when it shows ``token`` (``sun-NES``: solver/memorinth/looks.py)."""
        assert self.setup is not None
        deck = self.rules.deck
        cell = FOREST_CELLS[len(self.setup)]
        face, side = looks.parse(deck, token, field, text)
        if face != looks.cell_face(cell):
            looks.refuse_face(R.cell_name(cell), looks.cell_face(cell), text, field)
        undealt = [a - DEAL_CARD for a, _ in self.chance_outcomes()]
        return looks.resolve_unique(deck, face, side, undealt, field, text)

    def _legal_summary(self, legal: list[int]) -> str:
        names = [self.action_to_string(a) for a in legal]
        return ", ".join(names) if len(names) <= 8 else ", ".join(names[:8]) + f", ... ({len(names)} moves)"

    # -- end ----------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.setup is None and int(self.vec[PHASE]) == PH_OVER

    def returns(self) -> list[float]:
        winner = int(self.vec[WINNER]) if self.setup is None else -1
        return [1.0 if i == winner else 0.0 for i in range(self.rules.players)]

    def winner(self) -> int | None:
        """The player who left the forest, or None."""
        w = int(self.vec[WINNER]) if self.setup is None else -1
        return w if w >= 0 else None

    # -- information ----------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may know: the JSON of their view (``docs/formats/memorinth.md``)."""
        if not 0 <= player < self.rules.players:
            raise InvalidInputError("player", player, f"expected 0..{self.rules.players - 1}")
        return self.view(player).to_json()

    def resample_from_observation(self, player: int, rng: np.random.Generator) -> MemorinthState:
        """``self.view(player).resample(rng)``: the undersides ``player`` does not know re-dealt (MR-21)."""
        return self.view(player).resample(rng)

    def view(self, player: int) -> MemorinthView:
        """What ``player`` knows here (:class:`solver.memorinth.view.MemorinthView`, made by the game)."""
        return self.game.view_of(self, as_int(int(player) if isinstance(player, np.integer) else player,
                                              "player", 0, self.rules.players - 1))

    def seen_by(self, cell: int, player: int) -> bool:
        """True when ``player`` has seen the underside of the card on ``cell``."""
        return bool(self.vec[SEEN + cell] >> player & 1)

    def knows_underside(self, cell: int, player: int) -> bool:
        """True when ``player`` knows the underside of the card on ``cell``: they have seen it, or the card is the
        clearing (its two sides are known to everybody, MR-21)."""
        return knows_underside(self.vec, cell, player)

    # -- copies and serialisation ----------------------------------------------------------------
    def clone(self) -> MemorinthState:
        return MemorinthState(self.game, self.vec.copy(), None if self.setup is None else list(self.setup))

    def to_json(self) -> dict[str, Any]:
        return state_to_json(self)

    def to_notation(self) -> str:
        return state_to_notation(self)

    # -- convenient views ------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``setup``, ``flip``, ``choose``, ``act`` or ``over``."""
        return "setup" if self.setup is not None else R.PHASE_NAMES[int(self.vec[PHASE])]

    def piece(self, player: int) -> int:
        """The cell of ``player``'s piece (25 once it has left the forest)."""
        return int(self.vec[PIECE + player])
