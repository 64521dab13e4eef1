"""A player's view of Embers of Memory: what Fenrys (or Rowan, player 0) or Aelin (player 1) knows.

What each player sees (docs/rules/embers-of-memory.md, EM-27 to EM-29):

* nobody sees the deck's order (the deck is a set: its cards are known, its order is not);
* in Chapter One Fenrys does not see Aelin's face-down Resolve cards; Aelin sees them (she dealt them to
  herself "without showing Fenrys", Setup 6);
* in the Prologue nobody sees a face-down Resolve card;
* everything else was shown face up and is remembered, and the strength rows leak the strength of a face-down
  Resolve card (EM-24): a complete row fixes it, an open row bounds it.

A view is a position of its own. It is held as a :class:`Table`: a full state whose Resolve cards hidden from
the observer carry a *canonical fill* (a seeded draw consistent with the view, recomputed after every entry), so
the state machine of :mod:`solver.embers.state` runs the public parts of the game. Wherever the full state would
read a card the observer cannot see, the view asks for what the observer saw instead (the entries are pinned in
``docs/formats/embers.md``):

* a card Aelin takes goes to her row (``take C3``) or over 7 to the discard pile (``take C3 over``);
* the card Aelin turns face up (``reveal 2 S3``), her arrangement (``arrange ?``), her Resolve cards dealt
  (``chance ?``);
* whether she says "I am here" (``here``) or nothing (``silent``) when Fenrys cannot work it out (phase
  ``speak``);
* her Resolve cards, shown when they are discarded at Day's End (``resolve 1 S3``, phase ``dayend``);
* in the Prologue, the Resolve card a relive turns face up (``flip S3``, phase ``flip``).

An entry that cannot happen given what the observer has seen (a card already seen elsewhere, a draw that leaves
no card that could complete a row Aelin announced complete) raises :class:`IllegalMoveError` with the reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver import seeded
from solver.embers.cards import SUITS
from solver.embers.knowledge import assign_resolve, strength_vectors, hidden_slots, resolve_options
from solver.embers.state import (AELIN, ARRANGE, CHANCE_PLAYER, FENRYS, PASS, REVEAL, TARGET, VIEW_PHASES,
                                 EmbersState, decode, encode)
from solver.errors import IllegalMoveError, ImpossibleStateError, InvalidInputError, InvalidMoveError
from solver.game import View, join_view_notation
from solver.lazynp import np

if TYPE_CHECKING:
    from solver.embers.game import EmbersGame

UNKNOWN = "?"
#: the seed of the canonical fill: it never shows (the hidden cards are written as "?") and never decides
FILL_SEED = 0


class Table(EmbersState):
    """The working position of a view: a full state whose cards hidden from ``observer`` are a canonical fill.

    Its transitions stop at the view's own phases (``speak``, ``dayend``, ``flip``) where the full state
    would settle something from a card the observer cannot see.
    """

    def __init__(self, game: EmbersGame, observer: int) -> None:
        super().__init__(game)
        self.observer = observer

    def clone(self) -> Table:
        other = Table.__new__(Table)
        self._copy_to(other)
        other.observer = self.observer
        return other

    def hidden(self) -> list[int]:
        """The strength rows whose Resolve card the observer cannot see."""
        return hidden_slots(self, self.observer)

    def unseen(self) -> set[int]:
        """The cards the observer cannot locate: the deck and the hidden Resolve cards."""
        return set(self.pile) | {self.rows[i].resolve for i in self.hidden() if self.rows[i].resolve >= 0}

    def current_player(self) -> int:
        if self.result is None and self.phase in VIEW_PHASES[self.chapter]:
            return CHANCE_PLAYER
        return super().current_player()

    def _compute_legal(self) -> list[int]:
        if self.phase in VIEW_PHASES[self.chapter]:
            return []
        return super()._compute_legal()

    # -- where the full state would read a hidden card -------------------------------------------
    def _after_acknowledge(self) -> None:
        """EM-17 Speak: when the observer cannot tell whether Aelin's row is complete, she is heard (``speak``)."""
        if self.mind and self.completed in self.hidden():
            options = slot_strengths(self, self.completed)
            need = TARGET - sum(self.deck.cards[c].strength for c in self.rows[self.completed].cards)
            if need in options and any(s != need for s in options):
                self.phase = "speak"
                return
        super()._after_acknowledge()  # decided: every fill consistent with the view gives the same answer

    def _day_end(self) -> None:
        """EM-28: at Day's End the Resolve cards are shown as they are discarded (phase ``dayend``)."""
        if self.day != 3 and self.hidden():
            self.phase = "dayend"
            return
        super()._day_end()

    def _prologue_relive(self) -> None:
        """EM-51: the first face-down Resolve card is turned face up: the observer sees which (phase ``flip``)."""
        if self.hidden():
            self.pending = ("play", 1 if self.phase == "first" else 2)
            self.phase = "flip"
            return
        super()._prologue_relive()

    def speak(self, complete: bool) -> None:
        """Aelin's announcement (EM-17) as heard: the row is complete ("I am here") or she stays silent."""
        if complete:
            self.completed += 1
            normalise(self, "move")  # the row's Resolve card is now fixed (EM-24): it must still fit
            if self.completed == len(self.rows):
                self._day_end()
            else:
                self._start_fenrys_turn()
        else:
            self._start_fenrys_turn()
        self._legal = None


def slot_strengths(table: EmbersState, row: int, observer: int | None = None) -> set[int]:
    """The strengths the Resolve card of ``row`` can have, given everything the observer has seen."""
    observer = table.observer if observer is None else observer  # type: ignore[attr-defined]
    slots = hidden_slots(table, observer)
    pool = sorted(_unseen(table, slots))
    vectors, _ = strength_vectors(table, slots, pool)
    position = slots.index(row)
    return {vector[position] for vector in vectors}


def _unseen(table: EmbersState, slots: list[int]) -> set[int]:
    return set(table.pile) | {table.rows[i].resolve for i in slots if table.rows[i].resolve >= 0}


def normalise(table: EmbersState, field: str = "state") -> None:
    """Replace the hidden Resolve cards by the canonical fill: a seeded draw consistent with the view.

    The fill depends only on what the observer knows, so equal views have equal tables. Raises
    :class:`ImpossibleStateError` when no unseen cards fit (the view cannot happen).
    """
    slots = hidden_slots(table, table.observer)  # type: ignore[attr-defined]
    if not slots:
        return
    pool = sorted(_unseen(table, slots))
    try:
        assign_resolve(table, slots, pool, seeded.default_rng(FILL_SEED), f"{field}.resolve")
    except ImpossibleStateError:
        raise ImpossibleStateError(f"{field}.resolve", UNKNOWN, "no cards this player has not seen fit the "
                                                                "face-down Resolve cards' strength rows") from None


def _fits(table: Table, fixed: dict[int, int], removed: frozenset[int] = frozenset()) -> bool:
    """Whether a fill exists with the hidden rows in ``fixed`` holding those cards and ``removed`` out of play."""
    cards = table.deck.cards
    slots = table.hidden()
    unseen = _unseen(table, slots)
    for row, card in fixed.items():
        if card not in unseen or cards[card].is_demon or cards[card].strength not in resolve_options(table, row):
            return False
    rest = [i for i in slots if i not in fixed]
    if not rest:
        return True
    pool = sorted(unseen - set(fixed.values()) - removed)
    return bool(strength_vectors(table, rest, pool)[0])


def _place(table: Table, fixed: dict[int, int], field: str) -> None:
    """Put the cards of ``fixed`` in those hidden rows and refill the others from the remaining unseen cards."""
    slots = table.hidden()
    unseen = _unseen(table, slots)
    for row, card in fixed.items():
        table.rows[row].resolve = card
    rest = [i for i in slots if i not in fixed]
    table.pile = unseen - set(fixed.values())
    if rest:
        for i in rest:
            table.rows[i].resolve = -1
        pool = sorted(table.pile)
        assign_resolve(table, rest, pool, seeded.default_rng(FILL_SEED), f"{field}.resolve")
    table._legal = None


class EmbersView(View):
    """What one player knows of an Embers of Memory game (see the module docstring)."""

    game: EmbersGame

    def __init__(self, game: EmbersGame, observer: int, table: Table) -> None:
        super().__init__(game, observer)
        self.table = table

    @staticmethod
    def of_state(state: EmbersState, observer: int) -> EmbersView:
        """``observer``'s view of a full state."""
        if isinstance(observer, bool) or observer not in (FENRYS, AELIN):
            raise InvalidInputError("player", observer, "expected 0 (Fenrys, or Rowan in the prologue) or 1 (Aelin)")
        if isinstance(state, Table):
            if state.observer != observer:
                raise InvalidInputError("player", observer, f"this is player {state.observer}'s view; another "
                                                            "player's view needs the full state")
            return EmbersView(state.game, observer, state.clone())
        table = Table(state.game, observer)
        state._copy_to(table)
        table.observer = observer
        if state.guessed:
            if any(not r.face_up for r in state.rows) and state.sees_resolve(observer):
                raise InvalidInputError("state.resolve", UNKNOWN, "Aelin's view needs her real Resolve cards; this "
                                                                  "state gives them as '?'")
            table.guessed = False
        normalise(table)
        table._legal = None
        return EmbersView(state.game, observer, table)

    # -- the position ---------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.table.current_player()

    def is_terminal(self) -> bool:
        return self.table.is_terminal()

    def returns(self) -> list[float] | None:
        return self.table.returns() if self.table.is_terminal() else None

    def role(self, player: int | None = None) -> str:
        """``fenrys``/``rowan``/``aelin``: the observer's character (or ``player``'s)."""
        return self.table.role(self.observer if player is None else player)

    def clone(self) -> EmbersView:
        return EmbersView(self.game, self.observer, self.table.clone())

    def masked(self) -> list[int]:
        """The strength rows whose Resolve card this view writes as ``"?"``."""
        return self.table.hidden()

    # -- what may be entered ---------------------------------------------------------------------
    def legal_moves(self) -> list[str]:
        t = self.table
        if t.is_terminal():
            return []
        cards = t.deck.cards
        phase = t.phase
        if phase == "speak":
            return ["here", "silent"]
        if phase == "dayend":
            row = t.hidden()[0]
            return [f"resolve {row + 1} {cards[c].id}" for c in self._candidates(row)]
        if phase == "flip":
            row = t.hidden()[0]
            return [f"flip {cards[c].id}" for c in self._candidates(row)]
        if t.is_chance_node():
            return self._chance_moves()
        hidden = t.hidden()
        if t.current_player() == AELIN and self.observer != AELIN and t.chapter == "one":
            if phase == "arrange":
                return ["arrange ?"]
            if phase == "reveal":
                return ["pass"] + [f"reveal {row + 1} {cards[c].id}" for row, c in self._reveals()]
            if phase == "acknowledge" and t.completed in hidden:
                return self._takes()
        return [t.action_to_string(a) for a in t.legal_actions()]

    def _candidates(self, row: int) -> list[int]:
        """The unseen memory cards that can be the Resolve card of hidden ``row``."""
        t = self.table
        return [c for c in sorted(t.unseen()) if not t.deck.cards[c].is_demon and _fits(t, {row: c})]

    def _chance_moves(self) -> list[str]:
        t = self.table
        cards = t.deck.cards
        if t.phase == "deal" and t.mind and len(t.rows) < (4 if t.chapter == "one" else 3):
            if not t.sees_resolve(self.observer):
                return ["chance ?"]
            return [f"chance {cards[c].id}" for c in sorted(t.pile) if not cards[c].is_demon]
        memory_only = t.phase == "deal" and t.chapter == "one"
        return [f"chance {cards[c].id}" for c in self._drawable(memory_only)]

    def _drawable(self, memory_only: bool) -> list[int]:
        """Unseen cards that can come out of the deck (some hidden Resolve cards must stay behind)."""
        t = self.table
        cards = t.deck.cards
        slots = t.hidden()
        by_strength: dict[int, bool] = {}
        out = []
        for card in sorted(t.unseen()):
            c = cards[card]
            if c.is_demon:
                if not memory_only:
                    out.append(card)
                continue
            if not slots:
                if card in t.pile:
                    out.append(card)
                continue
            if c.strength not in by_strength:
                by_strength[c.strength] = _fits(t, {}, frozenset({card}))
            if by_strength[c.strength]:
                out.append(card)
        return out

    def _reveals(self) -> list[tuple[int, int]]:
        """(row, card) pairs Aelin may turn face up now, as Fenrys sees it (EM-21, EM-23)."""
        t = self.table
        cards = t.deck.cards
        if t.pending is None:
            return []
        kind, value = t.pending
        if kind == "suit":
            rows, suit = [i for i in t.hidden()], value
        else:
            last = t.rows[value].cards[-1]
            rows, suit = ([value] if value in t.hidden() else []), cards[last].suit
        return [(row, c) for row in rows for c in self._candidates(row) if cards[c].suit == suit]

    def _takes(self) -> list[str]:
        """Aelin's takes as Fenrys sees them: the card joins her row, or goes over 7 (EM-16)."""
        t = self.table
        cards = t.deck.cards
        row = t.rows[t.completed]
        others = sum(cards[c].strength for c in row.cards)
        options = slot_strengths(t, t.completed)
        out = []
        for action in t.legal_actions():
            card = decode(action)[1]
            strength = cards[card].strength
            if any(s + others + strength <= TARGET for s in options):
                out.append(f"take {cards[card].id}")
            if any(s + others + strength > TARGET for s in options):
                out.append(f"take {cards[card].id} over")
        return out

    # -- entering ---------------------------------------------------------------------------------
    def apply_move(self, text: str, field: str = "move") -> None:
        if not isinstance(text, str):
            raise InvalidMoveError(field, text, "expected a move string such as 'add C4@1,0', 'chance C4' or 'here'")
        wanted = " ".join(text.split())
        if self.table.is_terminal():
            raise IllegalMoveError(field, text, "the game is over")
        work = self.table.clone()
        try:
            self._enter(work, wanted, text, field)
            normalise(work, field)
        except ImpossibleStateError as exc:
            raise IllegalMoveError(field, text, f"cannot happen given what player {self.observer} "
                                                f"({self.role()}) has seen: {exc.problem}") from None
        work._legal = None
        self.table = work

    def _enter(self, t: Table, wanted: str, text: str, field: str) -> None:
        if not self._possible(t, wanted):
            raise self._refusal(t, wanted, text, field, self.legal_moves())
        verb, _, rest = wanted.partition(" ")
        if t.phase == "speak":
            t.speak(wanted == "here")
        elif t.phase == "dayend":
            row, card = int(rest.split()[0]) - 1, t.deck.card(rest.split()[1], field).index
            _place(t, {row: card}, field)
            t.rows[row].face_up = True  # shown (EM-28): it is discarded with the others below
            t.rows[row].at_least = 0
            if not t.hidden():
                EmbersState._day_end(t)
        elif t.phase == "flip":
            row, card = t.hidden()[0], t.deck.card(rest, field).index
            _place(t, {row: card}, field)
            t.rows[row].face_up = True
            play = t.pending[1] if t.pending else 1
            t.pending, t.phase = None, ("first" if play == 1 else "second")
            if all(r.face_up for r in t.rows):  # EM-52
                t._start_part_two()
            else:
                t._end_prologue_plays()
        elif t.is_chance_node():
            self._chance(t, rest, field)
        elif self._masked_decision(t) and verb == "arrange":
            t.apply_action(encode(ARRANGE, 0))  # every Resolve card is hidden: the order cannot show
        elif self._masked_decision(t) and verb == "reveal":
            row, card = int(rest.split()[0]) - 1, t.deck.card(rest.split()[1], field).index
            _place(t, {row: card}, field)
            t.apply_action(encode(REVEAL, row))
        elif self._masked_decision(t) and t.phase == "reveal":
            t.apply_action(encode(PASS))
        elif self._masked_decision(t) and t.phase == "acknowledge" and t.completed in t.hidden():
            self._hidden_take(t, rest, field)
        else:
            t.apply_action(t.parse_move(wanted, field))

    def _masked_decision(self, t: Table) -> bool:
        """Whether the other player decides here something the observer sees only in part (Aelin's choices,
        in Fenrys's view of Chapter One)."""
        return t.chapter == "one" and self.observer != AELIN and t.current_player() == AELIN

    def _possible(self, t: Table, wanted: str) -> bool:
        """Whether ``wanted`` may be entered now (the quick test; :meth:`legal_moves` lists them all)."""
        verb, _, rest = wanted.partition(" ")
        cards = t.deck.cards
        card = self._card(t, rest.split()[-1]) if rest else None
        if t.phase == "speak":
            return wanted in ("here", "silent")
        if t.phase in ("dayend", "flip"):
            row = t.hidden()[0]
            if t.phase == "dayend":
                parts = rest.split()
                if verb != "resolve" or len(parts) != 2 or parts[0] != str(row + 1):
                    return False
            elif verb != "flip":
                return False
            return card is not None and not cards[card].is_demon and _fits(t, {row: card})
        if t.is_chance_node():
            if verb != "chance":
                return False
            deal_resolve = t.phase == "deal" and bool(t.mind) and len(t.rows) < (4 if t.chapter == "one" else 3)
            masked = deal_resolve and not t.sees_resolve(self.observer)
            if rest == UNKNOWN or masked:
                return rest == UNKNOWN and masked
            if card is None or card not in t.unseen():
                return False
            if t.phase == "deal" and cards[card].is_demon and (t.chapter == "one" or not t.mind):
                return False
            if deal_resolve or card in t.pile or not t.hidden():
                return card in t.pile
            return _fits(t, {}, frozenset({card}))
        if self._masked_decision(t):
            if t.phase == "arrange":
                return wanted == "arrange ?"
            if t.phase == "reveal":
                return wanted == "pass" or wanted in {f"reveal {r + 1} {cards[c].id}" for r, c in self._reveals()}
            if t.phase == "acknowledge" and t.completed in t.hidden():
                return wanted in self._takes()
        return True  # the state's own parser checks the rest (its errors list the legal moves)

    @staticmethod
    def _card(t: Table, name: str) -> int | None:
        try:
            return t.deck.card(name, "move").index
        except Exception:  # noqa: BLE001 - an unknown id: the entry is refused by the caller
            return None

    def _refusal(self, t: Table, wanted: str, text: str, field: str, legal: list[str]) -> Exception:
        """The error for an entry that is not possible here, with the reason where it can be told."""
        verb, _, rest = wanted.partition(" ")
        known = ("draw", "stop", "add", "discard", "take", "keep", "reveal", "pass", "arrange", "chance", "here",
                 "silent", "resolve", "flip")
        if verb not in known:
            return InvalidMoveError(field, text, f"unknown entry (entries: {', '.join(known)})")
        name = rest.split()[-1] if rest else ""
        where = self._whereabouts(name) if name and name != UNKNOWN else None
        if t.is_chance_node() and verb == "chance" and where:
            return IllegalMoveError(field, text, f"{name} cannot come out of the deck: {where}")
        if t.is_chance_node() and verb == "chance" and name in {c.id for c in t.deck.cards}:
            return IllegalMoveError(field, text, f"{name} cannot come out of the deck: then no card player "
                                                 f"{self.observer} has not seen fits a face-down Resolve card's "
                                                 "strength row (EM-24)")
        examples = ", ".join(legal[:4]) + (", ..." if len(legal) > 4 else "")
        reason = f"{name} {where}" if where and verb in ("resolve", "flip", "reveal") else "not possible here"
        if verb == "reveal" and not where and t.phase == "reveal" and t.pending is not None:
            reason = self._reveal_refusal(t, rest) or reason
        return IllegalMoveError(field, text, f"{reason} (phase {t.phase}; possible entries: {examples or 'none'})")

    def _reveal_refusal(self, t: Table, rest: str) -> str | None:
        """Why ``reveal N ID`` cannot be what Fenrys saw (EM-21, EM-23, EM-24)."""
        parts = rest.split()
        if len(parts) != 2 or not parts[0].isdigit():
            return "enter the row and the card Aelin turned, such as 'reveal 2 S3'"
        row = int(parts[0]) - 1
        try:
            card = t.deck.cards[t.deck.card(parts[1], "move").index]
        except Exception:  # noqa: BLE001 - an unknown card id
            return None
        if row not in t.hidden():
            return f"row {row + 1} has no face-down Resolve card to turn"
        kind, value = t.pending  # type: ignore[misc]
        suit = value if kind == "suit" else t.deck.cards[t.rows[value].cards[-1]].suit
        if card.suit != suit:
            why = "the relive was" if kind == "suit" else "the card she added is"
            return f"{why} of {SUITS[suit]}: she may turn only a {SUITS[suit]} card (EM-21, EM-23)"
        if kind == "row" and row != value:
            return f"she may turn only the Resolve card of the row she added to (row {value + 1})"
        return f"{card.id} (strength {card.strength}) does not fit what row {row + 1} shows (EM-24)"

    def _whereabouts(self, card_id: str) -> str | None:
        """Where the observer has seen the card ``card_id`` (``None`` when it is unseen or unknown)."""
        t = self.table
        try:
            card = t.deck.card(card_id, "move").index
        except Exception:  # noqa: BLE001 - an unknown id is reported by the caller
            return None
        if card in t.unseen():
            return None
        if card in {e[0] for e in t.mind}:
            return "is in the Mind"
        if card in t.row:
            return "is in the memory row"
        if card in t.discard:
            return "is in the discard pile"
        if card in t.box:
            return "is in the box"
        for demon, tainted in t.demons:
            if card == demon:
                return "is in the demon row"
            if card in tainted:
                return "is tainted under a demon"
        for i, row in enumerate(t.rows):
            if card == row.resolve:
                return f"is the Resolve card of row {i + 1}"
            if card in row.cards:
                return f"is in strength row {i + 1}"
        if t.chapter == "one" and t.day == 1 and t.phase == "deal" and t.deck.cards[card].is_demon:
            return "is set aside until the Resolve is dealt (EM-30)"
        return "is not in play"

    def _chance(self, t: Table, rest: str, field: str) -> None:
        cards = t.deck.cards
        if rest == UNKNOWN:  # a Resolve card the observer does not see: any memory card stands in for it
            stand_in = min(c for c in t.pile if not cards[c].is_demon)
            t.apply_action(stand_in)
            return
        card = t.deck.card(rest, field).index
        if card not in t.pile:  # one of the hidden Resolve cards' fill: refill them without it
            slots = t.hidden()
            unseen = _unseen(t, slots)
            for i in slots:
                t.rows[i].resolve = -1
            t.pile = unseen - {card}
            assign_resolve(t, slots, sorted(t.pile), seeded.default_rng(FILL_SEED), f"{field}.resolve")
            t.pile.add(card)
        t._legal = None
        t.apply_action(card)

    def _hidden_take(self, t: Table, rest: str, field: str) -> None:
        """Aelin takes a card, as Fenrys sees it (EM-16): into her row, or over 7 to the discard pile."""
        name, _, over = rest.partition(" ")
        card = t.deck.card(name, field).index
        position = next(k for k, e in enumerate(t.mind) if e[0] == card)
        del t.mind[position]
        row = t.rows[t.completed]
        cards = t.deck.cards
        others = sum(cards[c].strength for c in row.cards)
        if over:
            t._discard_card(card)
            row.at_least = max(row.at_least, TARGET + 1 - others - cards[card].strength)
            t._legal = None
            normalise(t, field)
            t._check_split()
        else:
            row.cards.append(card)
            t.phase = "reveal"  # EM-23: she is asked whether to turn her Resolve card
            t.pending = ("row", t.completed)
        t._legal = None

    # -- full states consistent with the view -------------------------------------------------------
    def resample(self, rng: np.random.Generator) -> EmbersState:
        """A full state drawn uniformly among those consistent with this view (the hidden Resolve cards).

        At the view's own phases the full state has already settled the event: the state returned is just
        after Aelin's announcement, the Day's End or the prologue's flip, as the sampled cards decide it.
        """
        t = self.table
        state = EmbersState.__new__(EmbersState)
        t._copy_to(state)
        slots = hidden_slots(state, self.observer)
        if slots:
            pool = sorted(_unseen(state, slots))
            assign_resolve(state, slots, pool, rng, "state.resolve")
        state._legal = None
        if t.phase == "speak":
            EmbersState._after_acknowledge(state)
        elif t.phase == "dayend":
            EmbersState._day_end(state)
        elif t.phase == "flip":
            play = t.pending[1] if t.pending else 1
            state.pending, state.phase = None, ("first" if play == 1 else "second")
            EmbersState._prologue_relive(state)
        state._legal = None
        return state

    # -- text -------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data = self.table.to_json()
        data.pop("deck", None)
        data.pop("guessed", None)
        for i in self.masked():
            data["resolve"][i]["card"] = UNKNOWN
        return {"view": self.observer, "role": self.role(), **data, "deckCount": len(self.table.pile)}

    def to_notation(self) -> str:
        return join_view_notation(self.observer, self.table.to_notation(masked=self.masked()))


def follow(view: EmbersView, state: EmbersState, action: int) -> list[str]:
    """The entries ``view``'s observer makes for the full-state ``action`` played in ``state`` (the state
    before it), applied to ``view``: the move or outcome as the observer sees it, then any outcome the view
    asks for that the full state settled by itself (an announcement, Resolve cards shown, a prologue flip).

    Used to turn a full game into one player's record, as that player would have entered it at the table.
    """
    after = state.child(action)
    observer = view.observer
    cards = state.deck.cards
    entries = [_seen_as(view, state, action, after)]
    view.apply_move(entries[0])
    while not view.is_terminal() and view.table.phase in VIEW_PHASES[state.chapter]:
        t = view.table
        if t.phase == "speak":
            entry = "here" if after.completed > state.completed or after.day > state.day or after.result == "won" \
                else "silent"
        elif t.phase == "dayend":
            row = t.hidden()[0]
            entry = f"resolve {row + 1} {cards[state.rows[row].resolve].id}"
        else:
            row = t.hidden()[0]
            entry = f"flip {cards[after.rows[row].resolve].id}"
        view.apply_move(entry)
        entries.append(entry)
    del observer
    return entries


def _seen_as(view: EmbersView, state: EmbersState, action: int, after: EmbersState) -> str:
    """The full-state ``action`` as ``view``'s observer enters it."""
    text = state.action_to_string(action)
    t = view.table
    cards = state.deck.cards
    if state.is_chance_node():
        if state.phase == "deal" and state.mind and len(state.rows) < len(after.rows) and \
                not state.sees_resolve(view.observer):
            return "chance ?"
        return text
    kind, payload = decode(action)
    if view.observer == AELIN or state.chapter != "one" or state.current_player() != AELIN:
        return text
    if kind == ARRANGE:
        return "arrange ?"
    if kind == REVEAL:
        return f"reveal {payload + 1} {cards[state.rows[payload].resolve].id}"
    if state.phase == "acknowledge" and state.completed in t.hidden():
        card = payload
        joined = card in after.rows[state.completed].cards
        return f"take {cards[card].id}" + ("" if joined else " over")
    return text


__all__ = ["EmbersView", "Table", "follow", "normalise", "slot_strengths"]
