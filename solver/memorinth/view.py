"""A Memorinth player's view: what one player knows at the table (MR-21, ``docs/formats/memorinth.md``).

Everything on the table is public in Memorinth except the undersides of the
cards: every face-up side, the pieces, the characters, the clovers and the
turn are seen by everybody, and so is who has seen which underside (a flip
shows both sides of the card to everybody; a peek shows which card was looked
at). What the observer does not know is the underside of each card they have
not seen, other than the clearing's; for them it is any side of the other
colour whose place they do not know (MR-21).

The view keeps the kernel's state vector with those unknown undersides filled
in a canonical order (the sides they may be, ascending, over the cells in
order), so that equal views are equal vectors and every rule that depends on
public information alone runs unchanged. ``resample`` re-deals those
undersides with the kernel, exactly as ``MemorinthState.resample_from_observation``
(``solver/memorinth/knowledge.py`` holds what a player knows).

Moves are the state's move strings. At the real table a flip (and the
observer's own peek) of a card whose underside the observer does not know is
followed by what it showed: ``flip b2``, then ``reveal 12M``. Until then the
view waits for that outcome (``current_player()`` is the chance player,
``"reveal": "b2"`` in the JSON). An outcome that cannot be there (a side that is
face up elsewhere, one the observer has seen under another card, a side of the
wrong colour) is refused with the field and the reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import IllegalMoveError, ImpossibleStateError, InvalidInputError, InvalidMoveError, UnknownCardError
from solver.game import CHANCE_PLAYER, TERMINAL_PLAYER, View, join_view_notation, split_view_notation
from solver.memorinth import kernel, looks
from solver.memorinth import layout as R
from solver.memorinth.knowledge import (REVEAL, fill_unknown_undersides, knows_underside, possible_undersides,
                                        put_underside, resample_undersides, revealed_cell)
from solver.memorinth.layout import (DEAL_CARD, DOWN, FOREST_CELLS, PENDING, PH_ACT, PH_FLIP, PH_OVER, PHASE, PIECE,
                                     TOMOVE, UP, WINNER)
from solver.memorinth.notation import check_state, read_json, read_notation, state_to_json, state_to_notation
from solver.memorinth.state import MemorinthState
from solver.validate import as_int, as_object, get

if TYPE_CHECKING:
    from solver.memorinth.game import MemorinthGame


class MemorinthView(View):
    """One player's view of a Memorinth position (mutable, like the state)."""

    def __init__(self, game: MemorinthGame, observer: int, vec: np.ndarray, setup: list[int] | None = None,
                 reveal: int = -1) -> None:
        super().__init__(game, observer)
        self.game: MemorinthGame = game
        self.rules: R.Rules = game.rules
        self.deck_table: np.ndarray = game.deck_table
        self.vec = np.ascontiguousarray(vec, dtype=np.int32)
        #: chance actions dealt so far while setting up (None once dealt), as in the state
        self.setup: list[int] | None = setup
        #: the cell whose revealed side is entered next (-1: none)
        self.reveal = reveal
        if setup is None:
            fill_unknown_undersides(self.vec, observer)

    @staticmethod
    def of_state(state: MemorinthState, player: int) -> MemorinthView:
        """``player``'s view of ``state``."""
        return MemorinthView(state.game, player, state.vec.copy(), None if state.setup is None else list(state.setup))

    # -- whose turn -----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.setup is not None or self.reveal >= 0:
            return CHANCE_PLAYER
        if int(self.vec[PHASE]) == PH_OVER:
            return TERMINAL_PLAYER
        return int(self.vec[TOMOVE])

    def is_terminal(self) -> bool:
        return self.setup is None and int(self.vec[PHASE]) == PH_OVER

    def returns(self) -> list[float] | None:
        if not self.is_terminal():
            return None
        winner = int(self.vec[WINNER])
        return [1.0 if i == winner else 0.0 for i in range(self.rules.players)]

    def winner(self) -> int | None:
        """The player who left the forest, or None."""
        w = int(self.vec[WINNER]) if self.setup is None else -1
        return w if w >= 0 else None

    @property
    def phase(self) -> str:
        """``setup``, ``reveal``, ``flip``, ``choose``, ``act`` or ``over``."""
        if self.setup is not None:
            return "setup"
        return REVEAL if self.reveal >= 0 else R.PHASE_NAMES[int(self.vec[PHASE])]

    def knows_underside(self, cell: int, player: int | None = None) -> bool:
        """True when the observer (``player`` must be the observer) knows the underside on ``cell``."""
        if player is not None and player != self.observer:
            raise InvalidInputError("player", player, f"this is player {self.observer}'s view")
        return knows_underside(self.vec, cell, self.observer)

    def piece(self, player: int) -> int:
        """The cell of ``player``'s piece (25 once it has left the forest)."""
        return int(self.vec[PIECE + player])

    # -- what may be entered -------------------------------------------------------------------------
    def _state(self) -> MemorinthState:
        """The canonical full state behind the view (unknown undersides in canonical order): for public rules."""
        return MemorinthState(self.game, self.vec, self.setup)

    def possible_undersides(self, cell: int) -> list[int]:
        """The side ids that may lie under ``cell`` for the observer (one when they know it), ascending."""
        return possible_undersides(self.vec, cell, self.observer)

    def legal_moves(self) -> list[str]:
        deck = self.rules.deck
        if self.setup is not None and len(self.setup) < len(FOREST_CELLS):
            # the cards by number, then once per look (what the cell shows: issue 22, MR-30)
            face = looks.cell_face(FOREST_CELLS[len(self.setup)])
            numbers = [f"deal card {deck.cards[k].ident}" for k in range(1, len(deck.cards))
                       if self._deal_with([k]) is not None]
            shown = looks.deal_choices(deck, [a - DEAL_CARD for a in self.setup])
            return numbers + [f"deal card {looks.spell(deck, side, face)}" for side, _ in shown]
        if self.setup is not None:
            state = self._state()
            return [state.action_to_string(a) for a in state.legal_actions()]
        if self.reveal >= 0:
            sides = self.possible_undersides(self.reveal)
            shown = dict.fromkeys(looks.spell_side(deck, s) for s in sides)
            return [f"{REVEAL} {deck.side_name(s)}" for s in sides] + [f"{REVEAL} {look}" for look in shown]
        if self.is_terminal():
            return []
        state = self._state()
        return [state.action_to_string(a) for a in state.legal_actions()]

    def legal_actions(self) -> list[int]:
        """The kernel actions of the player to act (as in a state consistent with the view)."""
        if self.setup is not None or self.reveal >= 0 or self.is_terminal():
            return []
        return self._state().legal_actions()

    def action_to_string(self, action: int) -> str:
        """A kernel action's move string (the state's)."""
        return self._state().action_to_string(action)

    def apply_move(self, text: str, field: str = "move") -> None:
        if self.setup is not None and len(self.setup) < len(FOREST_CELLS) and isinstance(text, str) and \
                text.split()[:2] == ["deal", "card"]:
            self._deal_card(text, field)
            return
        if self.setup is not None:
            state = self._state()
            state.apply_action(state.parse_move(text, field))
            self.vec, self.setup = state.vec, state.setup
            if self.setup is None:
                fill_unknown_undersides(self.vec, self.observer)
            return
        if self.reveal >= 0:
            self._apply_reveal(text, field)
            return
        if self.is_terminal():
            raise IllegalMoveError(field, text, "the game is over")
        if isinstance(text, str) and text.strip().lower().startswith(REVEAL):
            raise IllegalMoveError(field, text, "no underside is being revealed now (a flip of a card whose underside "
                                                "you do not know, or your own peek at one, comes first)")
        state = self._state()
        action = state.parse_move(text, field)
        cell = revealed_cell(action, int(self.vec[TOMOVE]), self.observer)
        if cell >= 0 and not self.knows_underside(cell):
            self.reveal = cell
            return
        self._apply_action(action)

    def _apply_action(self, action: int) -> None:
        if not kernel.apply_action(self.vec, self.deck_table, int(action)):  # cannot happen: checked by parse_move
            raise IllegalMoveError("move", action, "not legal here")
        fill_unknown_undersides(self.vec, self.observer)

    def _deal_with(self, wanted: list[int]) -> list[int] | None:
        """The cards of the cells dealt so far and of the next one, which may be any of ``wanted``
        (:func:`solver.memorinth.looks.assign`: an earlier cell may take another card showing the same)."""
        deck = self.rules.deck
        current = [a - DEAL_CARD for a in self.setup or []]
        shown = [(looks.cell_face(cell), deck.cards[k].sides[looks.cell_face(cell)])
                 for cell, k in zip(FOREST_CELLS, current)]
        return looks.assign(deck, shown, current, wanted)

    def _deal_card(self, text: str, field: str) -> None:
        """MR-30: the next cell's card, by its number (``deal card 7``) or by what it shows (``deal card sun-NES``)."""
        deck = self.rules.deck
        words = text.split()
        if len(words) != 3:
            raise InvalidMoveError(field, text, "expected 'deal card' and a card: its number or what it shows, "
                                                "such as 'deal card sun-NES'")
        cell = FOREST_CELLS[len(self.setup or [])]
        face = looks.cell_face(cell)
        if looks.is_look(words[2]):
            shown, side = looks.parse(deck, words[2], field, text)
            if shown != face:
                looks.refuse_face(R.cell_name(cell), face, text, field)
            wanted = looks.cards_showing(deck, face, side)
            if not wanted:
                raise IllegalMoveError(field, text, f"no card of deck {deck.name!r} shows that side")
        else:
            k = deck.card_index(words[2], field)
            if k == 0:
                raise IllegalMoveError(field, text, "the clearing lies on c3 from the start (MR-2)")
            wanted = [k]
        cards = self._deal_with(wanted)
        if cards is None:
            raise IllegalMoveError(field, text, "no card still to be dealt shows that side (every card that shows "
                                                "it lies elsewhere)")
        self.setup = [DEAL_CARD + k for k in cards]

    def _apply_reveal(self, text: str, field: str) -> None:
        deck = self.rules.deck
        cell = self.reveal
        words = text.split() if isinstance(text, str) else []
        if not words or words[0].lower() != REVEAL:
            raise IllegalMoveError(field, text, f"the card on {R.cell_name(cell)} was just turned over: enter what "
                                                f"it showed first, such as '{self.legal_moves()[0]}'")
        if len(words) != 2:
            raise InvalidMoveError(field, text, "expected 'reveal' and a side such as 'moon-NE-R' or '12M'")
        token = words[1]
        if looks.is_look(token):
            self._reveal_look(cell, token, text, field)
            return
        ident, face_letter = token[:-1], token[-1:].upper()
        if face_letter not in ("S", "M") or not ident:
            raise InvalidMoveError(field, text, "expected a side such as '12M' (card id and S for Sun, M for Moon)")
        k = next((i for i, card in enumerate(deck.cards) if card.ident.lower() == ident.lower()), None)
        if k is None:
            raise UnknownCardError(field, text, f"no card {ident!r} in deck {deck.name!r}")
        side = 2 * k + "SM".index(face_letter)
        up = int(self.vec[UP + cell])
        if side & 1 == up & 1:
            colour = ("Sun", "Moon")
            raise IllegalMoveError(field, text, f"{R.cell_name(cell)} shows a {colour[up & 1]} side ({deck.side_name(up)}), "
                                                f"so its underside is a {colour[1 - (up & 1)]} side")
        if side not in self.possible_undersides(cell):
            raise IllegalMoveError(field, text, self._where_is(side))
        self._reveal_side(cell, side)

    def _reveal_look(self, cell: int, token: str, text: str, field: str) -> None:
        """The underside entered by what it shows (``reveal moon-NE-R``): the first side that may lie there and
        shows that (sides alike are interchangeable for the observer, MR-21)."""
        deck = self.rules.deck
        face, look = looks.parse(deck, token, field, text)
        up = int(self.vec[UP + cell])
        if face == up & 1:
            colour = ("Sun", "Moon")
            raise IllegalMoveError(field, text, f"{R.cell_name(cell)} shows a {colour[up & 1]} side, so its "
                                                f"underside is a {colour[1 - (up & 1)]} side")
        found = [s for s in self.possible_undersides(cell) if s & 1 == face and deck.side(s) == look]
        if not found:
            alike = [s for s in range(2, 2 * len(deck.cards)) if s & 1 == face and deck.side(s) == look]
            raise IllegalMoveError(field, text, "; ".join(self._where_is(s) for s in alike) if alike else
                                   f"no card of deck {deck.name!r} shows that side")
        self._reveal_side(cell, found[0])

    def _reveal_side(self, cell: int, side: int) -> None:
        """``side`` lay under ``cell``: the flip (or the observer's own peek) awaited is carried out."""
        put_underside(self.vec, cell, side)
        pending_peek = int(self.vec[PHASE]) == PH_ACT and int(self.vec[PENDING]) == R.PENDING_NAMES.index("peek")
        action = R.A_PEEK + cell if pending_peek else R.A_FLIP + cell
        self.reveal = -1
        self._apply_action(action)

    def _where_is(self, side: int) -> str:
        """Why ``side`` cannot be the underside being revealed: where the observer knows it is."""
        name = self.rules.deck.side_name(side)
        for c in range(25):
            if int(self.vec[UP + c]) == side:
                return f"{name} is face up on {R.cell_name(c)}"
        for c in range(25):
            if int(self.vec[DOWN + c]) == side and self.knows_underside(c):
                how = "it is the clearing's other side" if side < 2 else f"player {self.observer} has seen it there"
                return f"{name} lies under {R.cell_name(c)} ({how})"
        return f"{name} cannot lie there"

    # -- sampling ----------------------------------------------------------------------------------
    def resample(self, rng: np.random.Generator) -> MemorinthState:
        """A full state consistent with the view: the undersides the observer does not know re-dealt uniformly
        among the sides they may be (Sun-up and Moon-up cards apart, MR-21), exactly as
        ``MemorinthState.resample_from_observation`` draws them. While a revealed side is awaited, the state
        is the one before the flip (or peek)."""
        vec = self.vec.copy()
        if self.setup is not None:
            return MemorinthState(self.game, vec, list(self.setup))
        resample_undersides(vec, self.observer, rng)
        return MemorinthState(self.game, vec)

    # -- copies and serialisation --------------------------------------------------------------------
    def clone(self) -> MemorinthView:
        copy = MemorinthView.__new__(MemorinthView)
        View.__init__(copy, self.game, self.observer)
        copy.game, copy.rules, copy.deck_table = self.game, self.rules, self.deck_table
        copy.vec = self.vec.copy()
        copy.setup = None if self.setup is None else list(self.setup)
        copy.reveal = self.reveal
        return copy

    def to_json(self) -> dict[str, Any]:
        return state_to_json(self, self.observer, self.reveal)

    def to_notation(self) -> str:
        return join_view_notation(self.observer, state_to_notation(self, self.observer, self.reveal))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemorinthView) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable


def check_view(view: MemorinthView, field: str) -> None:
    """Refuse views no game can produce: the state rules on the canonical vector, and the awaited reveal."""
    if view.setup is not None:
        return
    check_state(MemorinthState(view.game, view.vec), field)
    if view.reveal < 0:
        return
    cell = view.reveal
    state = MemorinthState(view.game, view.vec)
    legal = state.legal_actions()
    phase = int(view.vec[PHASE])
    peek = phase == PH_ACT and int(view.vec[PENDING]) == R.PENDING_NAMES.index("peek")
    where = f"{field}.reveal"
    if phase == PH_FLIP and R.A_FLIP + cell in legal:
        pass
    elif peek and R.A_PEEK + cell in legal and int(view.vec[TOMOVE]) == view.observer:
        pass
    else:
        raise ImpossibleStateError(where, R.cell_name(cell), "a revealed side is only awaited after a legal flip of "
                                                            "that card, or after the observer's own peek at it")
    if view.knows_underside(cell):
        raise ImpossibleStateError(where, R.cell_name(cell), f"player {view.observer} already knows that underside")


def view_from_json(game: MemorinthGame, obj: Any, field: str = "state") -> MemorinthView:
    """Parse and validate a view's JSON (``"view": N``)."""
    obj = as_object(obj, field)
    observer = as_int(get(obj, "view", field), f"{field}.view", 0, 3)
    game, vec, setup, reveal = read_json(game, obj, field, observer)
    view = MemorinthView(game, observer, vec, setup, reveal)
    check_view(view, field)
    return view


def view_from_notation(game: MemorinthGame, text: Any, field: str = "state") -> MemorinthView:
    """Parse a view's notation (``view:N <body>``, the body as the state's with ``12S:?`` and ``reveal=``)."""
    observer, body = split_view_notation(text, field)
    game, vec, setup, reveal = read_notation(game, body, field, observer)
    view = MemorinthView(game, observer, vec, setup, reveal)
    check_view(view, field)
    return view
