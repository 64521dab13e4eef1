"""A player's view of a Mnemonic session: what that player knows, advanced by what happens at the table.

The view holds every public fact (characters, skills and their statuses,
weavings, extra dice, the discard with who played each card, the scene, the
Group Scene, the tally, the round), the observer's own hand, and the sizes of
the other hands and of the deck (MN-32). The other players' cards are
*hidden*: :data:`HIDDEN` stands for each of them. Everything the rules do with
public facts is done by the session's own code (:class:`ViewState` is a
:class:`~solver.mnemonic.state.MnemonicState` whose hidden cards are
placeholders); only the steps that depend on a hidden card are the view's own:

* the deal (MN-42): ``draw 7H`` for a card dealt to the observer, ``draw ?`` for
  a card dealt to anyone else;
* another player's card played from hand (``play 7H``: the card becomes public)
  or discarded for a Group Scene skill (``group use "Sneak" with 7S``);
* an Into the Grey Group Scene in which another player may or may not hold a
  card for their skills: the observer enters what they bring, or
  ``group nothing`` (MN-43);
* cards drawn from the deck (``reveal 7H``), which everyone sees.

An entry that cannot happen given what the observer has seen (a card in their
own hand or in the discard, a face card when Into the Grey's deal is at the
numbers, a suit that player has shown they do not hold) is refused with the
reason. Full states are drawn from the view uniformly among the consistent
deals (:mod:`solver.mnemonic.knowledge`). The view's JSON and notation are in
:mod:`solver.mnemonic.notation`.
"""

from __future__ import annotations

import re
from fractions import Fraction
from numbers import Integral
from typing import TYPE_CHECKING, Any

from solver.errors import IllegalMoveError, InvalidInputError, InvalidMoveError
from solver.game import View, join_view_notation
from solver.lazynp import np
from solver.mnemonic import state as S
from solver.mnemonic.cards import DECK_SIZE, JOKER, card_class, card_code, category, grey_deal_classes, parse_card
from solver.mnemonic.knowledge import DECK, HiddenCards
from solver.mnemonic.notation import state_to_json, state_to_notation
from solver.mnemonic.parts import HIDDEN
from solver.mnemonic.state import MnemonicState, copy_public

if TYPE_CHECKING:
    from solver.mnemonic.game import MnemonicGame

DRAW_HIDDEN = S.DEAL + 99
"""View entry ``draw ?``: a card of the deal goes to another player."""
GROUP_NOTHING = 170
"""View entry ``group nothing``: another player brings no skill to an Into the Grey Group Scene (MN-43)."""
CLASS_NAMES = ("face", "number", "joker")


class ViewState(MnemonicState):
    """The session as the observer knows it: other hands and the deck hold :data:`HIDDEN` placeholders."""

    def __init__(self, game: MnemonicGame, rules: Any, mode: str, players: list, observer: int) -> None:
        super().__init__(game, rules, mode, players)
        self.observer = observer

    @staticmethod
    def of(state: MnemonicState, observer: int) -> ViewState:
        """The observer's knowledge of a full state."""
        view = ViewState(state.game, state.rules, state.mode, [p.copy() for p in state.players], observer)
        copy_public(state, view)
        for q, p in enumerate(view.players):
            if q != observer:
                p.hand = [HIDDEN] * len(p.hand)
        view.deck = [HIDDEN] * len(state.deck)
        return view

    def clone(self) -> ViewState:
        copy = ViewState(self.game, self.rules, self.mode, [p.copy() for p in self.players], self.observer)
        copy_public(self, copy)
        copy.deck = list(self.deck)
        return copy

    # -- what the observer knows about the hidden cards ------------------------------------------------
    def hidden_players(self) -> list[int]:
        return [q for q in range(self.n) if q != self.observer]

    def unseen(self) -> list[int]:
        """Cards the observer has not seen: not in their hand, not in the discard."""
        seen = set(self.players[self.observer].hand) | {c for c, _ in self.discard}
        return [c for c in range(DECK_SIZE) if c not in seen]

    def class_demand(self, player: int) -> list[int]:
        """Into the Grey: the face, number and joker cards ``player`` holds, from the deal and the cards they
        played (MN-9); Deck Burner: just the hand's size."""
        if self.mode != "into-the-grey":
            return [len(self.players[player].hand)]
        dealt = self.deal_step() if self.phase == "deal" else DECK_SIZE
        held = list(grey_deal_classes(self.n, dealt)[player])
        for card, by in self.discard:
            if by == player:
                held[card_class(card)] -= 1
        return held

    def skill_categories(self, player: int) -> frozenset[int]:
        """Card categories that would let ``player`` bring an available skill to the Group Scene (MN-41)."""
        available = [self.players[player].skills[s] for s in self.available(player)]
        cats = {s.suit for s in available}
        if available and self.rules["joker"] == "wild":
            cats.add(JOKER)
        return frozenset(cats)

    def facts(self, waiting: bool = True) -> HiddenCards:
        """Where the unseen cards may be (MN-43); with ``waiting``, also that the player now choosing a Group
        Scene skill holds a card for one (else the rules would have passed over them)."""
        unseen = self.unseen()
        classes = 3 if self.mode == "into-the-grey" else 1
        demand = {q: self.class_demand(q) for q in self.hidden_players()}
        pool = [0] * classes
        for c in unseen:
            pool[card_class(c) if classes == 3 else 0] += 1
        demand[DECK] = [pool[k] - sum(d[k] for d in demand.values()) for k in range(classes)]
        voids: dict[int, frozenset[int]] = {}
        must = None
        if self.group is not None and self.grey_cards():
            order = self.order()
            for pos, q in enumerate(order):
                if q == self.observer or not self.players[q].hand or not self.available(q):
                    continue
                if pos < self.group.turn and self.group.skills[q] is None:
                    voids[q] = self.skill_categories(q)
                elif waiting and pos == self.group.turn and self.phase == "group-skill":
                    must = (q, self.skill_categories(q))
        return HiddenCards(unseen, demand, classes, voids, must)

    # -- the steps that depend on hidden cards ---------------------------------------------------------
    def someone_can_bring(self) -> bool:
        """Whether Try Again may be offered (MN-28), from what the observer knows: their own hand exactly; another
        player with cards in hand and an available skill may hold a card of its suit (Into the Grey, MN-41), so
        the view offers Try Again whenever some consistent deal does."""
        if not self.grey_cards():
            return super().someone_can_bring()
        for q in range(self.n):
            if q == self.observer:
                if any(self.matching(q, category(c)) for c in self.players[q].hand):
                    return True
            elif self.players[q].hand and self.skill_categories(q):
                return True
        return False

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == "deal":
            if self.deal_recipient() != self.observer:
                return [DRAW_HIDDEN]
            cls = self.deal_class()
            return [S.DEAL + c for c in self.unseen() if cls is None or card_class(c) == cls]
        if phase in ("scene-draw", "group-draw"):
            return [S.REVEAL + c for c in self.unseen()]
        if phase == "scene-card" and self.focus != self.observer:
            facts = self.facts()
            moves = [S.PLAY + c for c in self.unseen() if facts.can_hold(self.focus, c)]
            return moves + ([S.DRAW] if self.deck else [])
        if phase == "group-skill" and self.grey_cards():
            q = self.order()[self.group.turn]  # type: ignore[union-attr]
            if q != self.observer:
                return self._hidden_group_moves(q)
        return super().legal_actions()

    def _hidden_group_moves(self, q: int) -> list[int]:
        facts = self.facts(waiting=False)
        moves = [S.GROUP_CARD + 10 * c + s for c in self.unseen() if facts.can_hold(q, c)
                 for s in self.matching(q, category(c))]
        if facts.with_void(q, self.skill_categories(q)).feasible():
            moves.append(GROUP_NOTHING)
        return sorted(moves)

    def chance_outcomes_exact(self) -> list[tuple[int, Fraction]]:
        """The outcomes as the observer sees them: each unseen card is as likely as any other to be drawn."""
        if self.phase in ("deal", "scene-draw", "group-draw"):
            moves = self.legal_actions()
            return [(a, Fraction(1, len(moves))) for a in moves]
        return super().chance_outcomes_exact()

    def _group_options(self, player: int) -> list[int]:
        if self.grey_cards() and player != self.observer:
            if not self.players[player].hand or not self.available(player):
                return []
            facts = self.facts(waiting=False)
            # wait for the entry unless no consistent deal gives this player a card for a skill
            return [HIDDEN] if facts.count() > facts.with_void(player, self.skill_categories(player)).count() else []
        return super()._group_options(player)

    def _deal(self, card: int) -> None:
        recipient = self.deal_recipient()
        self.deck.remove(HIDDEN)
        self.players[recipient].hand.append(HIDDEN if card == DRAW_HIDDEN - S.DEAL else card)
        self.players[recipient].hand.sort()
        self._after_deal_card()

    def _play_card(self, action: int) -> None:
        if action != S.DRAW and self.focus != self.observer:
            self._reveal_in(self.players[self.focus].hand, action - S.PLAY)
        super()._play_card(action)

    def _reveal(self, card: int) -> None:
        self._reveal_in(self.deck, card)
        super()._reveal(card)

    def _group_choice(self, action: int) -> None:
        q = self.order()[self.group.turn]  # type: ignore[union-attr]
        if action == GROUP_NOTHING:
            self.group.turn += 1  # type: ignore[union-attr]
            self._advance_group()
            return
        if action >= S.GROUP_CARD and q != self.observer:
            self._reveal_in(self.players[q].hand, (action - S.GROUP_CARD) // 10)
        super()._group_choice(action)

    @staticmethod
    def _reveal_in(cards: list[int], card: int) -> None:
        cards.remove(HIDDEN)
        cards.append(card)

    def action_to_string(self, action: int) -> str:
        if self.phase == "deal" and action == DRAW_HIDDEN:
            return "draw ?"
        if self.phase == "group-skill" and action == GROUP_NOTHING:
            return "group nothing"
        return super().action_to_string(action)

    def to_json(self) -> dict[str, Any]:
        return state_to_json(self, self.observer)

    def to_notation(self) -> str:
        return join_view_notation(self.observer, state_to_notation(self, self.observer))

    def full_state(self, deal: dict[int, list[int]]) -> MnemonicState:
        """The full state with the hidden cards placed as ``deal`` says (holder -> cards)."""
        state = MnemonicState(self.game, self.rules, self.mode, [p.copy() for p in self.players])
        copy_public(self, state)
        for q in self.hidden_players():
            state.players[q].hand = sorted(deal.get(q, []))
        state.deck = sorted(deal.get(DECK, []))
        return state


class MnemonicView(View):
    """Player ``observer``'s view of a session (``docs/formats/mnemonic.md``)."""

    def __init__(self, game: MnemonicGame, observer: int, known: ViewState) -> None:
        super().__init__(game, observer)
        self.known = known

    @staticmethod
    def of(state: MnemonicState, player: Any) -> MnemonicView:
        """``player``'s view of a full state."""
        if isinstance(player, bool) or not isinstance(player, Integral) or not 0 <= player < state.n:
            raise InvalidInputError("player", player, f"expected a player index 0..{state.n - 1}")
        return MnemonicView(state.game, int(player), ViewState.of(state, int(player)))

    # -- the View contract ----------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.known.current_player()

    def legal_moves(self) -> list[str]:
        return [self.known.action_to_string(a) for a in self.known.legal_actions()]

    def chance_outcomes(self) -> list[tuple[str, Fraction]]:
        """At a chance event, each entry with its probability given what the observer knows."""
        return [(self.known.action_to_string(a), p) for a, p in self.known.chance_outcomes_exact()]

    def apply_move(self, text: str, field: str = "move") -> None:
        if not isinstance(text, str):
            raise InvalidMoveError(field, text, "expected a move string")
        if self.known.is_terminal():
            raise IllegalMoveError(field, text, "the session is over")
        wanted = S._canonical(text)
        for action in self.known.legal_actions():
            if S._canonical(self.known.action_to_string(action)) == wanted:
                self.known.apply_action(action)
                return
        raise IllegalMoveError(field, text, self._refusal(wanted))

    def is_terminal(self) -> bool:
        return self.known.is_terminal()

    def returns(self) -> list[float] | None:
        return self.known.returns() if self.known.is_terminal() else None

    def resample(self, rng: np.random.Generator) -> MnemonicState:
        """A full state drawn uniformly among the deals consistent with this view (MN-32, MN-43)."""
        return self.known.full_state(self.known.facts().sample(rng))

    def clone(self) -> MnemonicView:
        return MnemonicView(self.game, self.observer, self.known.clone())

    def to_json(self) -> dict[str, Any]:
        return self.known.to_json()

    def to_notation(self) -> str:
        return self.known.to_notation()

    # -- why an entry is refused ------------------------------------------------------------------------
    def _refusal(self, wanted: str) -> str:
        known = self.known
        phase = known.phase
        legal = [known.action_to_string(a) for a in known.legal_actions()]
        fallback = f"not a legal entry in phase {phase} (legal: {', '.join(legal[:12])}{' ...' if len(legal) > 12 else ''})"
        card = _card_in(wanted)
        if phase == "deal":
            recipient = known.deal_recipient()
            if wanted == "draw ?" and recipient == self.observer:
                return "this card of the deal is yours: enter it, e.g. 'draw 7H'"
            if card is not None and recipient != self.observer:
                return (f"this card of the deal goes to player {recipient}, whose cards you do not see: "
                        "enter 'draw ?'")
        if card is None:
            if wanted == "group nothing" and phase == "group-skill":
                return ("every deal consistent with what you have seen gives this player a card for one of their "
                        "available skills, so they must bring one (MN-23, MN-43)")
            return fallback
        where = self._seen_at(card)
        if where:
            return f"{card_code(card)} {where}"
        if phase == "deal" and known.deal_class() is not None and card_class(card) != known.deal_class():
            return (f"card {known.deal_step() + 1} of Into the Grey's deal is a {CLASS_NAMES[known.deal_class()]} "
                    "card: face cards (J, Q, K, A) are dealt first, then the numbers, then the jokers (MN-9)")
        actor = known.current_player()
        if phase in ("scene-card", "group-skill") and actor >= 0 and actor != self.observer:
            if known.mode == "into-the-grey" and known.class_demand(actor)[card_class(card)] < 1:
                return (f"player {actor} holds no {CLASS_NAMES[card_class(card)]} card any more (Into the Grey's "
                        "deal, less the cards they played, MN-9)")
            if phase == "group-skill" and not known.facts(waiting=False).can_hold(actor, card):
                return (f"no deal consistent with what you have seen puts {card_code(card)} in player {actor}'s "
                        "hand (a player who brought nothing to this Group Scene holds no card of their skills' "
                        "suits, MN-43)")
        return fallback

    def _seen_at(self, card: int) -> str | None:
        if card in self.known.players[self.observer].hand:
            return "is in your own hand"
        for i, (c, by) in enumerate(self.known.discard):
            if c == card:
                return f"was played already (discard[{i}], by player {by})"
        return None


_CARD = re.compile(r"(?<![a-z0-9])(rj|bj|(?:10|[2-9tjqka])[hdcs])(?![a-z0-9])")


def _card_in(text: str) -> int | None:
    """The card named in an entry (``reveal 7h``, ``group use "x" with qs``), if any."""
    match = _CARD.search(text.split('"')[-1] if '"' in text else text)
    return parse_card(match.group(1)) if match else None


# -- following a full game from one player's seat ---------------------------------------------------------
def observed_entry(state: MnemonicState, action: int, observer: int) -> str:
    """What ``observer`` enters for ``action`` played in ``state``: the move itself, except a card dealt to
    another player (``draw ?``)."""
    if state.phase == "deal" and state.deal_recipient() != observer:
        return "draw ?"
    return state.action_to_string(action)


def catch_up(view: MnemonicView, state: MnemonicState) -> list[str]:
    """Entries that bring ``view`` level with ``state`` after the rules passed over players silently: an Into the
    Grey Group Scene player without a card for their skills, whom the observer sees bring nothing
    (``group nothing``). Returns the entries made."""
    made = []
    target = state.view(view.observer).to_json()
    while view.to_json() != target and view.known.phase == "group-skill" and "group nothing" in view.legal_moves():
        view.apply_move("group nothing")
        made.append("group nothing")
    return made
