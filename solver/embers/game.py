"""Embers of Memory: the game object, its engine services and its command line.

Services (``docs/formats/embers.md``):

* ``hint``: ranked moves for Fenrys or Aelin from that player's information;
* ``solve``: the optimal Blink plan of a Chapter One position (CP-SAT proof, or exhaustive search);
* ``score``: where a position stands (strength rows, Mind, demons, deck, result);
* ``legal_moves``: the move strings of the player to move.

A state may be given as JSON or notation; its ``chapter`` picks the rules, so
the default game ``embers`` reads Prologue positions too.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from solver.embers import mind as mindlib
from solver.embers.cards import SUITS, Deck, load_deck, pattern_text
from solver.embers.state import AELIN, TARGET, EmbersState
from solver.errors import InvalidInputError
from solver.game import Game, Information, Parameter, State, Utility
from solver.results import HintResult, SolveResult
from solver.search import SearchContext
from solver.validate import as_bool, as_choice, check_keys, get, join

SOLVE_KEYS = ("state", "method", "fullInformation")


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

    # -- states -----------------------------------------------------------------------
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

    def for_chapter(self, chapter: Any) -> EmbersGame:
        """This game with another chapter (same deck)."""
        if chapter == self.params["chapter"] or chapter not in ("one", "prologue"):
            return self
        return EmbersGame(chapter=chapter, deck=self.params["deck"])

    def parse_state(self, payload: Any, field: str = "state") -> State:
        """A state from JSON or notation; its chapter (``"chapter"`` or ``embers/prologue/N``) picks the rules."""
        if isinstance(payload, dict) and "chapter" in payload:
            chapter = as_choice(payload["chapter"], join(field, "chapter"), ("one", "prologue"))
            return self.for_chapter(chapter).state_from_json(payload, field)
        if isinstance(payload, str) and payload.strip().startswith("embers/prologue"):
            return self.for_chapter("prologue").state_from_notation(payload, field)
        if isinstance(payload, str) and payload.strip().startswith("embers/one"):
            return self.for_chapter("one").state_from_notation(payload, field)
        return super().parse_state(payload, field)

    # -- services ---------------------------------------------------------------------
    def hint(self, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
             full_information: bool = False) -> HintResult:
        from solver.embers.hints import hint
        return hint(self._own(state), ctx, top=top, player=player, full_information=full_information)

    def solve(self, payload: Any, ctx: SearchContext) -> SolveResult:
        """The optimal Blink plan: ``STATE`` or ``{"state": STATE, "method": "cpsat"|"exhaustive",
        "fullInformation": bool}`` (``docs/formats/embers.md``)."""
        from solver.embers.solve import solve_blink
        method, full = "cpsat", False
        if isinstance(payload, dict) and "state" in payload:
            check_keys(payload, SOLVE_KEYS, "state")
            method = as_choice(payload.get("method", "cpsat"), "state.method", ("cpsat", "exhaustive"))
            full = as_bool(payload.get("fullInformation", False), "state.fullInformation")
            payload = get(payload, "state", "")
        return solve_blink(self._own(self.parse_state(payload)), ctx, method=method, full_information=full)

    def score(self, payload: Any) -> dict[str, Any]:
        """Where a position stands: result, day, strength rows, the Mind, demons and the deck."""
        return position_summary(self._own(self.parse_state(payload)))

    def legal_moves(self, payload: Any) -> list[str]:
        state = self._own(self.parse_state(payload))
        require_known_resolve(state, "list Aelin's choices")
        return [state.action_to_string(a) for a in state.legal_actions()]

    def _own(self, state: State) -> EmbersState:
        if not isinstance(state, EmbersState):
            raise InvalidInputError("state", type(state).__name__, "expected an Embers of Memory state")
        return state

    # -- command line -------------------------------------------------------------------
    def add_cli(self, commands: argparse._SubParsersAction) -> None:
        from solver.embers import cli
        cli.add_commands(self, commands)

    def demo(self, out: TextIO) -> None:
        from solver.embers.cli import demo
        demo(self, out)


def require_known_resolve(state: EmbersState, what: str) -> None:
    """Refuse to decide what depends on face-down Resolve cards that were typed as ``"?"`` (a guess is not
    the truth): Aelin's takes and reveals, and full-information analyses."""
    if state.guessed and state.current_player() == AELIN and state.phase in ("acknowledge", "reveal"):
        raise InvalidInputError("state.resolve", "?", f"cannot {what}: the outcome depends on Aelin's face-down "
                                                      "Resolve cards, which this state gives as '?'")


def position_summary(state: EmbersState) -> dict[str, Any]:
    """The ``score`` answer: a readable account of a position (JSON). Resolve cards given as ``"?"`` stay
    unknown (``"?"``, row total ``null``)."""
    deck = state.deck
    rows = []
    for i, row in enumerate(state.rows):
        unknown = state.guessed and not row.face_up
        rows.append({"row": i + 1, "resolve": "?" if unknown else deck.cards[row.resolve].id,
                     "faceUp": row.face_up, "cards": [deck.cards[c].id for c in row.cards],
                     "total": None if unknown else state.row_total(row),
                     "complete": i < state.completed, "current": i == state.completed})
    parts = mindlib.sections(state.mind) if state.mind else []
    placeable = {}
    memory_row = [c for c in state.row if not deck.cards[c].is_demon]
    for card, x, y in mindlib.legal_placements(deck, state.mind, memory_row):
        placeable.setdefault(deck.cards[card].id, []).append(f"{x},{y}")
    return {
        "result": state.result, "returns": state.returns() if state.is_terminal() else None,
        "chapter": state.chapter, "part": state.part if state.chapter == "prologue" else None, "day": state.day,
        "phase": state.phase, "toMove": None if state.is_terminal() else
        ("chance" if state.is_chance_node() else state.role(state.current_player())),
        "rowsCompleted": state.completed, "rows": rows,
        "mind": {"cards": len(state.mind), "visible": [deck.cards[c].id for c in mindlib.visible_cards(state.mind)],
                 "sections": [[deck.cards[c].id for c in p] for p in parts], "split": len(parts) > 1,
                 "picture": mindlib.render(deck, state.mind)},
        "placements": placeable,
        "demons": [{"demon": deck.cards[d].id, "suit": SUITS[deck.cards[d].suit],
                    "tainted": [deck.cards[c].id for c in t]} for d, t in state.demons],
        "deckCount": len(state.pile), "discardCount": len(state.discard),
        "corrupted": [deck.cards[c].id for c in state.box],
        "target": TARGET,
    }


def describe_card(deck: Deck, card: int) -> str:
    """``C4 Chains 4 #..#`` or ``Cd demon of Chains``."""
    c = deck.cards[card]
    return f"{c.id} demon of {c.suit_name}" if c.is_demon else f"{c.id} {c.suit_name} {c.strength} " \
                                                               f"{pattern_text(c.blocked)}"

