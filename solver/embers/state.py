"""The Embers of Memory state machine: the Prologue (parts one and two) and Chapter One.

Players: ``0`` is Fenrys in Chapter One (Rowan in the Prologue), ``1`` is
Aelin. Chance nodes draw cards: Fenrys's draws during Observe, the Prologue's
refills of the memory row, and the deals of a new day. Every rule is cited in
``docs/rules/embers-of-memory.md`` under the id given in the comments (``EM-n``).

The deck (draw pile) is a set: its order is hidden from everybody, so each
draw is a chance node with one outcome per card left, each with the same
probability.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from solver.embers import mind as mindlib
from solver.embers.cards import SUIT_LETTERS, SUITS, Deck
from solver.errors import IllegalMoveError, ImpossibleStateError, InvalidInputError, InvalidMoveError
from solver.game import CHANCE_PLAYER, TERMINAL_PLAYER, State
from solver.lazynp import np

if TYPE_CHECKING:
    from solver.embers.game import EmbersGame
    from solver.embers.view import EmbersView

FENRYS, AELIN = 0, 1
ROWAN = 0
TARGET = 7  # strength rows and relived groups total exactly 7

# action = kind << 32 | payload (chance outcomes are plain card indices)
KIND_SHIFT = 32
DRAW, STOP, ADD, DISCARD, TAKE, KEEP, REVEAL, PASS, ARRANGE = range(1, 10)
COORD_BIAS = 2048  # add-move coordinates are stored as x + 2048, y + 2048 in 12 bits each
ARRANGEMENTS = tuple(itertools.permutations(range(3)))  # the prologue's three Resolve cards
_ARRANGEMENTS = {3: ARRANGEMENTS, 4: tuple(itertools.permutations(range(4)))}

CHANCE_PHASES = ("draw", "deal")
AELIN_PHASES = ("reveal", "split", "arrange")
PHASES = {
    "one": ("arrange", "draw", "observe", "blink", "reveal", "split", "acknowledge", "deal", "over"),
    "prologue": ("deal", "first", "second", "draw", "arrange", "acknowledge", "split", "over"),
}
#: phases only a player's view has (docs/formats/embers.md): an outcome the observer enters that the full state
#: settles by itself: Aelin's announcement Fenrys cannot work out (``speak``), the Resolve cards shown at Day's
#: End (``dayend``), the prologue's Resolve card turned by a relive (``flip``)
VIEW_PHASES = {"one": ("speak", "dayend"), "prologue": ("flip",)}
CHAPTERS = ("one", "prologue")
RESULTS = ("won", "lost:deck-empty", "lost:no-placement", "lost:mind-empty", "lost:setup-short")
ROWS = {"one": 4, "prologue": 3}
MIND_CARD_POSITION = (0, 0)


def role_of(chapter: str, player: int) -> str:
    """Who ``player`` is in ``chapter``: ``fenrys``/``aelin`` in Chapter One, ``rowan``/``aelin`` in the Prologue."""
    if player == AELIN:
        return "aelin"
    return "rowan" if chapter == "prologue" else "fenrys"


def arrangements(rows: int) -> tuple[tuple[int, ...], ...]:
    """Every order of ``rows`` Resolve cards (``arrange`` payloads index this tuple), in lexicographic order."""
    return _ARRANGEMENTS[rows]


def encode(kind: int, payload: int = 0) -> int:
    """An action integer from its kind and payload."""
    return kind << KIND_SHIFT | payload


def encode_add(card: int, x: int, y: int) -> int:
    """The action "add ``card`` at ``(x, y)``"."""
    return encode(ADD, card << 24 | (x + COORD_BIAS) << 12 | (y + COORD_BIAS))


def decode(action: int) -> tuple[int, int]:
    """``(kind, payload)`` of a decision action."""
    return action >> KIND_SHIFT, action & ((1 << KIND_SHIFT) - 1)


def decode_add(payload: int) -> tuple[int, int, int]:
    """``(card, x, y)`` of an add action's payload."""
    return payload >> 24, (payload >> 12 & 0xFFF) - COORD_BIAS, (payload & 0xFFF) - COORD_BIAS


@dataclass
class StrengthRow:
    """One of Aelin's strength rows: its Resolve card (face up or down) and the cards added to its left."""

    resolve: int
    face_up: bool = False
    cards: list[int] = field(default_factory=list)
    at_least: int = 0  # public lower bound on a face-down Resolve card's strength (EM-24)

    def copy(self) -> StrengthRow:
        """An independent copy."""
        return StrengthRow(self.resolve, self.face_up, list(self.cards), self.at_least)


class EmbersState(State):
    """One position of Embers of Memory (see the module docstring)."""

    game: EmbersGame

    def __init__(self, game: EmbersGame) -> None:
        super().__init__(game)
        self.deck: Deck = game.deck
        self.chapter: str = game.params["chapter"]
        self.part = 1 if self.chapter == "prologue" else 0
        self.day = 1
        self.turn = FENRYS
        self.phase = "draw"
        self.mind: list[mindlib.Entry] = []
        self.row: list[int] = []
        self.demons: list[tuple[int, list[int]]] = []
        self.discard: list[int] = []
        self.box: list[int] = []
        self.rows: list[StrengthRow] = []
        self.completed = 0
        self.added = False
        self.pending: tuple[str, int] | None = None
        self.result: str | None = None
        self.pile: set[int] = set()
        self.guessed = False
        self._legal: list[int] | None = None

    # ------------------------------------------------------------------ set-up
    def deal_initial(self, seed: int) -> None:
        """Set up a fresh game with ``seed`` (Chapter One: Setup 4-7; Prologue part one: Setup 1-5)."""
        rng = np.random.default_rng(seed)
        available = [c.index for c in self.deck.memory if c.index not in set(self.box)]
        order = [available[i] for i in rng.permutation(len(available))]
        rows = ROWS[self.chapter]
        need = 1 + rows + (4 if self.chapter == "prologue" else 0)
        if len(order) < need:
            raise ImpossibleStateError("game.deck", len(order), f"not enough memory cards to set up (need {need})")
        self.mind = [(order[0], *MIND_CARD_POSITION)]
        self.rows = [StrengthRow(card) for card in order[1:1 + rows]]
        rest = order[1 + rows:]
        if self.chapter == "prologue":
            self.row = rest[:4]
            self.pile = set(rest[4:])
            self.turn = ROWAN
            self._start_prologue_turn(ROWAN)
        else:
            # EM-30: the demons are shuffled into the deck after the Mind and the Resolve are dealt
            self.pile = set(rest) | {d.index for d in self.deck.demons}
            self.turn = FENRYS
            self.phase = "arrange"  # EM-34: Aelin places her Resolve cards in a column, then Fenrys goes first
        self._legal = None

    # ------------------------------------------------------------------ contract
    def current_player(self) -> int:
        if self.result is not None:
            return TERMINAL_PLAYER
        if self.phase in CHANCE_PHASES:
            return CHANCE_PLAYER
        if self.phase in AELIN_PHASES:
            return AELIN
        return self.turn

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        won = 1.0 if self.result == "won" else 0.0
        return [won, won]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return super().chance_outcomes()
        cards = self.legal_actions()
        return [(c, 1.0 / len(cards)) for c in cards]

    def legal_actions(self) -> list[int]:
        if self.guessed:
            self.require_known_resolve("list Aelin's choices")
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[int]:
        if self.result is not None:
            return []
        phase = self.phase
        if phase == "draw":
            return sorted(self.pile)
        if phase == "deal":
            return sorted(c for c in self.pile if not self.deck.cards[c].is_demon)
        if phase == "observe":
            return [encode(DRAW), encode(STOP)] if self.pile else [encode(STOP)]
        if phase in ("blink", "first", "second"):
            memory = [c for c in self.row if not self.deck.cards[c].is_demon]
            actions = [encode_add(c, x, y) for c, x, y in mindlib.legal_placements(self.deck, self.mind, memory)]
            if phase == "second" or (phase == "blink" and self.added):
                actions += [encode(DISCARD, c) for c in memory]
            return sorted(actions)
        if phase == "acknowledge":
            return sorted(encode(TAKE, c) for c in mindlib.visible_cards(self.mind))
        if phase == "split":
            return sorted(encode(KEEP, section[0]) for section in mindlib.sections(self.mind))
        if phase == "reveal":
            return sorted([encode(PASS)] + [encode(REVEAL, i) for i in self.revealable_rows()])
        if phase == "arrange":
            return [encode(ARRANGE, i) for i in range(len(arrangements(len(self.rows))))]
        raise AssertionError(f"unknown phase {phase!r}")

    def revealable_rows(self) -> list[int]:
        """The strength rows whose face-down Resolve card Aelin may turn now (phase ``reveal``)."""
        if self.pending is None:
            return []
        kind, value = self.pending
        if kind == "suit":  # EM-21: a relive lets Aelin turn one face-down Resolve card of that suit
            return [i for i, r in enumerate(self.rows) if not r.face_up and self.deck.cards[r.resolve].suit == value]
        row = self.rows[value]  # EM-23: a card added to the row of the same suit as its Resolve card
        last = row.cards[-1] if row.cards else None
        if not row.face_up and last is not None and self.deck.cards[last].suit == self.deck.cards[row.resolve].suit:
            return [value]
        return []

    def apply_action(self, action: int) -> None:
        if self.result is not None:
            raise IllegalMoveError("move", self._describe(action), "the game is over")
        if self.is_chance_node():
            if action not in self.pile or (self.phase == "deal" and self.deck.cards[action].is_demon):
                raise IllegalMoveError("move", action, "not a card that can be dealt now")
        elif action not in self.legal_actions():
            raise IllegalMoveError("move", self._describe(action), f"not a legal move in {self.to_notation()!r}")
        self._legal = None
        self._apply(action)
        self._legal = None

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == "draw":
            self.pile.discard(action)
            self.row.append(action)
            if self.chapter == "one":
                self.phase = "observe"
            elif len(self.row) >= 4 or not self.pile:
                self._start_prologue_turn(1 - self.turn)
            return
        if phase == "deal":
            self._deal(action)
            return
        kind, payload = decode(action)
        if kind == DRAW:
            self.phase = "draw"
        elif kind == STOP:
            self._stop_drawing()
        elif kind == ADD:
            card, x, y = decode_add(payload)
            self.row.remove(card)
            self.mind.append((card, x, y))
            self.added = True
            self._after_add(card)
        elif kind == DISCARD:
            self.row.remove(payload)
            self._discard_card(payload)
            if self.chapter == "prologue":
                self._end_prologue_plays()
            else:
                self._continue_turn()
        elif kind == TAKE:
            self._take(payload)
        elif kind == KEEP:
            self._keep_section(payload)
        elif kind == REVEAL:
            self.rows[payload].face_up = True
            self.rows[payload].at_least = 0  # the card itself is now public
            self.pending = None
            self._check_split()
        elif kind == PASS:
            self.pending = None
            self._check_split()
        elif kind == ARRANGE:
            order = arrangements(len(self.rows))[payload]
            self.rows = [self.rows[i] for i in order]
            self.added = False
            if self.chapter == "one":
                self._start_fenrys_turn()  # EM-34: Setup step 8, Fenrys goes first
            else:
                self._check_split()  # EM-54: a Mind left split by part one is settled before the first take
        else:
            raise AssertionError(f"unknown action kind {kind}")

    # ------------------------------------------------------------------ Chapter One: Fenrys
    def _start_fenrys_turn(self) -> None:
        self.turn = FENRYS
        self.added = False
        self.pending = None
        if not self.pile:  # EM-40: no cards in the deck at the start of Fenrys's turn
            self._finish("lost:deck-empty")
            return
        self.phase = "draw"  # EM-10: Observe starts with a compulsory draw

    def _stop_drawing(self) -> None:
        """End of Observe: demons go to the demon row (EM-12), then Blink starts."""
        for card in [c for c in self.row if self.deck.cards[c].is_demon]:
            self.row.remove(card)
            self.demons.append((card, []))
        memory = [c for c in self.row if not self.deck.cards[c].is_demon]
        if not mindlib.legal_placements(self.deck, self.mind, memory):
            self._finish("lost:no-placement")  # EM-41: Fenrys cannot add any card to the Mind
            return
        self.phase = "blink"

    def _after_add(self, card: int) -> None:
        if mindlib.relives(self.deck, self.mind):
            suit = self.deck.cards[card].suit
            if self.chapter == "prologue":
                self._prologue_relive()
                return
            self._banish(suit)  # EM-20
            if any(not r.face_up for r in self.rows):  # EM-21/EM-22: Aelin's choice, asked after every relive
                self.phase = "reveal"
                self.pending = ("suit", suit)
                return
        if self.chapter == "prologue":
            self._end_prologue_plays()
            return
        self._check_split()

    def _banish(self, suit: int) -> None:
        for i, (demon, tainted) in enumerate(self.demons):
            if self.deck.cards[demon].suit == suit:
                del self.demons[i]
                self.discard.append(demon)
                self.discard.extend(tainted)
                return

    def _discard_card(self, card: int) -> None:
        """Discard a memory card, or taint it under the demon of its suit (EM-13)."""
        if self.chapter == "one":
            suit = self.deck.cards[card].suit
            for demon, tainted in self.demons:
                if self.deck.cards[demon].suit == suit:
                    tainted.append(card)
                    return
        self.discard.append(card)

    def _continue_turn(self) -> None:
        """Back to the active player once reveals and splits are settled."""
        if self.chapter == "prologue":
            if self.added:
                self._end_part_two_take()
            else:
                self._start_part_two_turn(AELIN)
        elif self.turn == FENRYS:
            if self.row:
                self.phase = "blink"
            else:
                self.turn = AELIN
                self.phase = "acknowledge"
        else:
            self._after_acknowledge()

    # ------------------------------------------------------------------ splitting (both players)
    def _check_split(self) -> None:
        if len(mindlib.sections(self.mind)) > 1:  # EM-8: Aelin chooses a section, whoever's turn it is
            self.phase = "split"
            return
        self._continue_turn()

    def _keep_section(self, first_card: int) -> None:
        parts = mindlib.sections(self.mind)
        kept = next(p for p in parts if p[0] == first_card)
        lost = {c for p in parts if p is not kept for c in p}
        for card, _, _ in list(self.mind):
            if card in lost:
                self._discard_card(card)
        self.mind = [e for e in self.mind if e[0] not in lost]
        self._check_split()  # EM-9: the discards may reveal a Mind that is split again

    # ------------------------------------------------------------------ Chapter One: Aelin
    def current_row(self) -> StrengthRow | None:
        """The topmost strength row not yet announced complete."""
        return self.rows[self.completed] if self.completed < len(self.rows) else None

    def row_total(self, row: StrengthRow) -> int:
        """Total strength of a strength row, its Resolve card included (face up or not)."""
        cards = self.deck.cards
        return cards[row.resolve].strength + sum(cards[c].strength for c in row.cards)

    def _take(self, card: int) -> None:
        position = next(k for k, e in enumerate(self.mind) if e[0] == card)
        del self.mind[position]
        if self.chapter == "prologue":
            self.added = True  # part two: a card was taken this turn
        row = self.rows[self.completed]
        strength = self.deck.cards[card].strength
        if self.row_total(row) + strength > TARGET:  # EM-16: over 7, the card is discarded
            self._discard_card(card)
            if not row.face_up:
                others = sum(self.deck.cards[c].strength for c in row.cards)
                row.at_least = max(row.at_least, TARGET + 1 - others - strength)
        else:
            row.cards.append(card)
            if self.chapter == "one" and not row.face_up:  # EM-23
                self.phase = "reveal"
                self.pending = ("row", self.completed)
                return
        self._check_split()

    def _after_acknowledge(self) -> None:
        if not self.mind:  # EM-42: no cards left in the Mind
            self._finish("lost:mind-empty")
            return
        if self.row_total(self.rows[self.completed]) == TARGET:  # EM-17: Speak
            self.completed += 1
        if self.completed == len(self.rows):
            self._day_end()
        else:
            self._start_fenrys_turn()

    # ------------------------------------------------------------------ Day's End
    def _day_end(self) -> None:
        if self.day == 3:  # EM-45: Aelin survives the third day
            self._finish("won")
            return
        for card, _, _ in self.mind:  # EM-31 step 1
            self._discard_card(card)
        for row in self.rows:
            for card in [row.resolve, *row.cards]:
                self._discard_card(card)
        for demon, tainted in self.demons:  # step 2: tainted memories are corrupted
            self.box.extend(tainted)
            self.discard.append(demon)
        self.demons = []
        self.mind = []
        self.rows = []
        self.completed = 0
        self.added = False
        self.pile |= set(self.discard)  # step 3: shuffle the discard pile into the deck
        self.discard = []
        self.day += 1
        if sum(1 for c in self.pile if not self.deck.cards[c].is_demon) < 1 + ROWS["one"]:
            self._finish("lost:setup-short")  # EM-43
            return
        self.phase = "deal"

    def _deal(self, card: int) -> None:
        """Deal the Mind card, then the Resolve cards (EM-32: demons are replaced); in the prologue's set-up
        then the four cards of the memory row (EM-50)."""
        self.pile.discard(card)
        rows = ROWS[self.chapter]
        if not self.mind:
            self.mind = [(card, *MIND_CARD_POSITION)]
        elif len(self.rows) < rows:
            self.rows.append(StrengthRow(card))
        else:
            self.row.append(card)
        if self.chapter == "prologue":
            if len(self.row) == 4:
                self._start_prologue_turn(ROWAN)  # EM-50: Rowan starts
            return
        if len(self.rows) == rows:
            if self.day == 1:  # EM-30: Setup 7, the demons are shuffled in after the Resolve is dealt
                self.pile |= {d.index for d in self.deck.demons}
            self.turn = FENRYS
            self.phase = "arrange"  # EM-34: Aelin readies her Resolve (Setup step 6) before Fenrys's turn

    def start_table(self) -> None:
        """The set-up before anything is dealt (a real table's start, EM-35): the memory cards in the deck (the
        demons set aside in Chapter One, EM-30), then the deals as chance nodes (phase ``deal``)."""
        self.mind, self.rows, self.row = [], [], []
        self.pile = {c.index for c in self.deck.memory if c.index not in set(self.box)}
        self.day, self.completed, self.added, self.pending, self.result = 1, 0, False, None, None
        self.turn = FENRYS
        self.part = 1 if self.chapter == "prologue" else 0
        self.phase = "deal"
        self._legal = None

    def _finish(self, result: str) -> None:
        self.result = result
        self.phase = "over"
        self.pending = None

    # ------------------------------------------------------------------ Prologue
    def _start_prologue_turn(self, player: int) -> None:
        self.turn = player
        self.added = False
        if not self.pile:  # EM-50: the deck is empty at the start of your turn
            self._finish("lost:deck-empty")
            return
        if not mindlib.legal_placements(self.deck, self.mind, self.row):  # EM-50: cannot play a card
            self._finish("lost:no-placement")
            return
        self.phase = "first"

    def _prologue_relive(self) -> None:
        for row in self.rows:  # EM-51: flip the first face-down Resolve card
            if not row.face_up:
                row.face_up = True
                break
        if all(r.face_up for r in self.rows):  # EM-52: part one is won; part two starts at once
            self._start_part_two()
            return
        self._end_prologue_plays()

    def _end_prologue_plays(self) -> None:
        if self.phase == "first":
            self.phase = "second"
        elif self.pile and len(self.row) < 4:
            self.phase = "draw"
        else:
            self._start_prologue_turn(1 - self.turn)

    def _start_part_two(self) -> None:
        """Part two, Setup 1-3: the row and the deck go to the discard pile; Aelin arranges her Resolve."""
        self.discard.extend(self.row)
        self.discard.extend(sorted(self.pile))
        self.row = []
        self.pile = set()
        self.part = 2
        self.added = False
        self.turn = AELIN
        self.phase = "arrange"

    def _start_part_two_turn(self, player: int) -> None:
        self.turn = player
        self.added = False
        if not self.mind:  # EM-55: unable to take a card
            self._finish("lost:mind-empty")
            return
        self.phase = "acknowledge"

    def _end_part_two_take(self) -> None:
        if self.row_total(self.rows[self.completed]) == TARGET:
            self.completed += 1
        if self.completed == len(self.rows):
            self._finish("won")  # EM-56
            return
        self._start_part_two_turn(1 - self.turn)

    # ------------------------------------------------------------------ moves as text
    def action_to_string(self, action: int) -> str:
        return self._describe(action)

    def _describe(self, action: int) -> str:
        cards = self.deck.cards
        if action < (1 << KIND_SHIFT):
            return f"chance {cards[action].id}" if 0 <= action < len(cards) else f"chance #{action}"
        kind, payload = decode(action)
        if kind == DRAW:
            return "draw"
        if kind == STOP:
            return "stop"
        if kind == ADD:
            card, x, y = decode_add(payload)
            return f"add {self._card_id(card)}@{x},{y}"
        if kind == DISCARD:
            return f"discard {self._card_id(payload)}"
        if kind == TAKE:
            return f"take {self._card_id(payload)}"
        if kind == KEEP:
            for part in (mindlib.sections(self.mind) if self.mind else []):
                if part[0] == payload:
                    return "keep " + ",".join(cards[c].id for c in part)
            return f"keep {self._card_id(payload)}"
        if kind == REVEAL:
            return f"reveal {payload + 1}"
        if kind == PASS:
            return "pass"
        if kind == ARRANGE and len(self.rows) in _ARRANGEMENTS and payload < len(arrangements(len(self.rows))):
            return "arrange " + ",".join(cards[self.rows[i].resolve].id for i in arrangements(len(self.rows))[payload])
        return f"action #{action}"

    def _card_id(self, index: int) -> str:
        cards = self.deck.cards
        return cards[index].id if 0 <= index < len(cards) else f"#{index}"

    def parse_move(self, text: str, field: str = "move") -> int:
        """The action of a move string; ``keep X`` may name any visible card of the section."""
        if not isinstance(text, str):
            raise InvalidMoveError(field, text, "expected a move string such as 'add C4@1,0', 'take C4' or 'stop'")
        wanted = " ".join(text.split())
        legal = self.legal_actions()
        for action in legal:
            if self._describe(action) == wanted:
                return action
        verb, _, rest = wanted.partition(" ")
        if verb == "keep" and rest and self.phase == "split":
            for part in mindlib.sections(self.mind):
                if rest in {self.deck.cards[c].id for c in part}:
                    return encode(KEEP, part[0])
        known = ("draw", "stop", "add", "discard", "take", "keep", "reveal", "pass", "arrange", "chance")
        if verb not in known:
            raise InvalidMoveError(field, text, f"unknown move (moves: {', '.join(known)})")
        examples = ", ".join(self._describe(a) for a in legal[:4])
        raise IllegalMoveError(field, text, f"not a legal move here (phase {self.phase}; legal moves include: "
                                            f"{examples}{', ...' if len(legal) > 4 else ''})")

    # ------------------------------------------------------------------ information
    def role(self, player: int) -> str:
        """``fenrys``/``aelin`` in Chapter One, ``rowan``/``aelin`` in the Prologue."""
        return role_of(self.chapter, player)

    def sees_resolve(self, player: int) -> bool:
        """Whether ``player`` knows the face-down Resolve cards (only Aelin, in Chapter One)."""
        return self.chapter == "one" and player == AELIN

    def view(self, player: int) -> EmbersView:
        """What ``player`` knows here, as a :class:`solver.embers.view.EmbersView` (EM-27..EM-29)."""
        return self.game.view_of(self, player)

    def require_known_resolve(self, what: str) -> None:
        """Refuse to decide what depends on face-down Resolve cards that were typed as ``"?"`` (a guess is not
        the truth): Aelin's takes and reveals. (A player's view has entries of its own for these:
        ``docs/formats/embers.md``.)"""
        if self.guessed and self.current_player() == AELIN and self.phase in ("acknowledge", "reveal"):
            raise InvalidInputError("state.resolve", "?", f"cannot {what}: the outcome depends on Aelin's face-down "
                                                          "Resolve cards, which this state gives as '?' (give Fenrys's "
                                                          "view, \"view\": 0, to enter what he sees)")

    def apply_move(self, text: str, field: str = "move") -> None:
        self.require_known_resolve(f"apply {field} {text!r}")
        super().apply_move(text, field)

    def observation(self, player: int) -> dict[str, Any]:
        """The JSON of ``player``'s view (it parses back as that view)."""
        return self.view(player).to_json()

    def resample_from_observation(self, player: int, rng: np.random.Generator) -> EmbersState:
        """A full state drawn uniformly among those consistent with ``player``'s view: ``view(player).resample``."""
        return self.view(player).resample(rng)

    # ------------------------------------------------------------------ copies and text
    def clone(self) -> EmbersState:
        other = self.__class__.__new__(self.__class__)
        self._copy_to(other)
        return other

    def _copy_to(self, other: EmbersState) -> None:
        """Copy every field of this state into ``other`` (a bare instance)."""
        other.game = self.game
        other.deck = self.deck
        other.chapter = self.chapter
        other.part = self.part
        other.day = self.day
        other.turn = self.turn
        other.phase = self.phase
        other.mind = list(self.mind)
        other.row = list(self.row)
        other.demons = [(d, list(t)) for d, t in self.demons]
        other.discard = list(self.discard)
        other.box = list(self.box)
        other.rows = [r.copy() for r in self.rows]
        other.completed = self.completed
        other.added = self.added
        other.pending = self.pending
        other.result = self.result
        other.pile = set(self.pile)
        other.guessed = self.guessed
        other._legal = self._legal

    def to_json(self) -> dict[str, Any]:
        return self.game.position_json(self)

    def to_notation(self, masked: tuple[int, ...] | list[int] = ()) -> str:
        """The notation (``docs/formats/embers.md``); the ``masked`` rows' Resolve cards are written ``?``."""
        return self.game.position_notation(self, masked)

    # ------------------------------------------------------------------ helpers for players and tools
    def suit_letter(self, card: int) -> str:
        """The suit letter of a card."""
        return SUIT_LETTERS[self.deck.cards[card].suit]

    def demon_suits(self) -> set[int]:
        """Suits of the demons in the demon row."""
        return {self.deck.cards[d].suit for d, _ in self.demons}

    def zones(self) -> dict[str, list[int]]:
        """Every card by zone (for the no-card-lost-or-duplicated invariant)."""
        return {
            "deck": sorted(self.pile),
            "mind": [e[0] for e in self.mind],
            "row": list(self.row),
            "demons": [d for d, _ in self.demons],
            "tainted": [c for _, t in self.demons for c in t],
            "discard": list(self.discard),
            "box": list(self.box),
            "resolve": [r.resolve for r in self.rows],
            "strength": [c for r in self.rows for c in r.cards],
        }

    def pending_suit_name(self) -> str | None:
        """The suit of a pending relive reveal, for display."""
        if self.pending and self.pending[0] == "suit":
            return SUITS[self.pending[1]]
        return None


def as_state(position: Any) -> EmbersState:
    """``position`` if it is an Embers of Memory state (not a view), else a clear error."""
    if not isinstance(position, EmbersState):
        raise InvalidInputError("state", type(position).__name__, "expected an Embers of Memory state")
    return position
