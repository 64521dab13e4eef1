"""Embers of Memory cards: memory cards (2x2 segments, suit, strength), demons and characters.

A memory card is split into four quarters ("segments"), each clear or
blocked. The segments are stored as a 4-bit mask, bit ``i`` set when segment
``i`` is blocked, in the order top-left (bit 0), top-right (bit 1),
bottom-left (bit 2), bottom-right (bit 3). In text a pattern is four
characters in that order, ``#`` blocked and ``.`` clear: ``"#..#"`` blocks the
top-left and bottom-right quarters.

The printed segment patterns are not public, so the shipped deck
(``solver/data/embers_default_deck.json``) is invented; users can load their
own printed deck in the same format (``docs/formats/embers.md``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from solver.datafiles import read_json_file
from solver.errors import InvalidInputError, UnknownCardError
from solver.validate import as_bool, as_int, as_list, as_object, as_str, check_keys, get, join

SUITS = ("Chains", "Daggers", "Flames", "Glass", "Stags")
SUIT_LETTERS = "CDFGS"
MEMORY, DEMON = 0, 1
#: largest number of memory cards a deck may hold (the Mind's bitboards are 64 quarters wide)
MAX_MEMORY_CARDS = 60
DEFAULT_DECK_PATH = Path(__file__).resolve().parent.parent / "data" / "embers_default_deck.json"
_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")
_RESERVED_IDS = {"?", "-"}


def suit_index(value: Any, field: str) -> int:
    """A suit from its name (``"Chains"``) or letter (``"C"``), case-insensitive."""
    if isinstance(value, str):
        text = value.strip().lower()
        for i, name in enumerate(SUITS):
            if text in (name.lower(), SUIT_LETTERS[i].lower()):
                return i
    raise InvalidInputError(field, value, f"unknown suit (expected one of {', '.join(SUITS)} or {SUIT_LETTERS})")


def pattern_mask(text: Any, field: str) -> int:
    """The blocked mask of a pattern such as ``"#..#"`` (top-left, top-right, bottom-left, bottom-right)."""
    if not isinstance(text, str) or len(text) != 4 or any(ch not in "#." for ch in text):
        raise InvalidInputError(field, text, "expected four characters '#' (blocked) or '.' (clear) for the quarters "
                                             "top-left, top-right, bottom-left, bottom-right")
    return sum(1 << i for i, ch in enumerate(text) if ch == "#")


def pattern_text(mask: int) -> str:
    """The pattern string of a blocked mask (inverse of :func:`pattern_mask`)."""
    return "".join("#" if mask >> i & 1 else "." for i in range(4))


@dataclass(frozen=True)
class Card:
    """One card of the memory deck that takes part in play: a memory card or a demon."""

    index: int  # position in the deck's card list (the card's number in kernels and actions)
    id: str
    kind: int  # MEMORY or DEMON
    suit: int  # index into SUITS
    strength: int  # 0 for demons
    blocked: int  # 4-bit blocked mask (0 for demons)

    @property
    def is_demon(self) -> bool:
        """True for the five demon cards."""
        return self.kind == DEMON

    @property
    def suit_name(self) -> str:
        """``"Chains"`` ... ``"Stags"``."""
        return SUITS[self.suit]

    def describe(self) -> str:
        """A one-line description: ``C4 (Chains 4, #..#)`` or ``Cd (demon of Chains)``."""
        if self.is_demon:
            return f"{self.id} (demon of {self.suit_name})"
        return f"{self.id} ({self.suit_name} {self.strength}, {pattern_text(self.blocked)})"


@dataclass(frozen=True)
class Character:
    """A character card (kept in front of a player, never played)."""

    id: str
    name: str
    chapter: str


@dataclass(frozen=True)
class Deck:
    """A memory deck: memory cards, demons and character cards, with its provenance."""

    name: str
    printed: bool
    source: str
    cards: tuple[Card, ...]
    characters: tuple[Character, ...]

    # worked out once a deck (kept in the instance: a frozen dataclass's hash walks every card, so caching these
    # by the deck, as an lru_cache did, cost a hash of the whole deck at each look-up)
    @cached_property
    def memory(self) -> tuple[Card, ...]:
        """The memory cards, in file order."""
        return tuple(c for c in self.cards if not c.is_demon)

    @cached_property
    def demons(self) -> tuple[Card, ...]:
        """The demon cards (one per suit)."""
        return tuple(c for c in self.cards if c.is_demon)

    def card(self, card_id: Any, field: str) -> Card:
        """The card named ``card_id``; unknown names raise :class:`UnknownCardError`."""
        found = self._by_id.get(card_id) if isinstance(card_id, str) else None
        if found is None:
            raise UnknownCardError(field, card_id, f"unknown card in deck '{self.name}' "
                                                   f"(memory cards look like C1a, C4, S5; demons like Cd)")
        return found

    @cached_property
    def _by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    def demon_of(self, suit: int) -> Card | None:
        """The demon of ``suit``, if the deck has one."""
        for card in self.demons:
            if card.suit == suit:
                return card
        return None


def parse_deck(obj: Any, source: str = "deck", field: str = "deck") -> Deck:
    """Validate a deck file's JSON (format ``embers-deck`` version 1) and build the :class:`Deck`."""
    obj = as_object(obj, field)
    check_keys(obj, ("format", "version", "name", "printed", "description", "segments", "memory", "demons",
                     "characters"), field)
    if get(obj, "format", field) != "embers-deck":
        raise InvalidInputError(join(field, "format"), obj.get("format"), "expected 'embers-deck'")
    as_int(get(obj, "version", field), join(field, "version"), 1, 1)
    name = as_str(obj.get("name", source), join(field, "name"))
    printed = as_bool(obj.get("printed", False), join(field, "printed"))
    if "description" in obj:
        as_str(obj["description"], join(field, "description"))
    if "segments" in obj:
        as_str(obj["segments"], join(field, "segments"))
    memory_field = join(field, "memory")
    entries = as_list(get(obj, "memory", field), memory_field, 1, MAX_MEMORY_CARDS)
    cards: list[Card] = []
    seen: dict[str, str] = {}
    for i, entry in enumerate(entries):
        where = join(memory_field, i)
        entry = as_object(entry, where)
        check_keys(entry, ("id", "suit", "strength", "blocked"), where)
        card_id = _card_id(get(entry, "id", where), join(where, "id"), seen)
        cards.append(Card(len(cards), card_id, MEMORY, suit_index(get(entry, "suit", where), join(where, "suit")),
                          as_int(get(entry, "strength", where), join(where, "strength"), 1, 7),
                          pattern_mask(get(entry, "blocked", where), join(where, "blocked"))))
    demon_field = join(field, "demons")
    demon_suits: set[int] = set()
    for i, entry in enumerate(as_list(obj.get("demons", []), demon_field, 0, len(SUITS))):
        where = join(demon_field, i)
        entry = as_object(entry, where)
        check_keys(entry, ("id", "suit"), where)
        card_id = _card_id(get(entry, "id", where), join(where, "id"), seen)
        suit = suit_index(get(entry, "suit", where), join(where, "suit"))
        if suit in demon_suits:
            raise InvalidInputError(join(where, "suit"), entry["suit"], "there is one demon per suit")
        demon_suits.add(suit)
        cards.append(Card(len(cards), card_id, DEMON, suit, 0, 0))
    characters: list[Character] = []
    char_field = join(field, "characters")
    for i, entry in enumerate(as_list(obj.get("characters", []), char_field)):
        where = join(char_field, i)
        entry = as_object(entry, where)
        check_keys(entry, ("id", "name", "chapter"), where)
        characters.append(Character(_card_id(get(entry, "id", where), join(where, "id"), seen),
                                    as_str(get(entry, "name", where), join(where, "name")),
                                    as_str(entry.get("chapter", ""), join(where, "chapter"))))
    return Deck(name, printed, source, tuple(cards), tuple(characters))


def _card_id(value: Any, field: str, seen: dict[str, str]) -> str:
    text = as_str(value, field)
    if not _ID.match(text) or text in _RESERVED_IDS:
        raise InvalidInputError(field, text, "a card id is a letter followed by up to 15 letters, digits, '_' or '-'")
    if text in seen:
        raise InvalidInputError(field, text, f"card id used twice (first at {seen[text]})")
    seen[text] = field
    return text


@lru_cache(maxsize=16)
def load_deck(path: str = "default") -> Deck:
    """The deck in the file ``path`` (``"default"``: the shipped, invented deck)."""
    file = DEFAULT_DECK_PATH if path in ("", "default") else Path(path)
    return parse_deck(read_json_file(file, "game.deck", path, "the deck file"), source=str(file), field="deck")
