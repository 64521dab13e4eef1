"""Mnemonic's 54-card deck, card codes and the card prompt table.

A card is an integer id: ``suit * 13 + rank`` for the 52 suited cards (suits
``0`` hearts ``H``, ``1`` diamonds ``D``, ``2`` clubs ``C``, ``3`` spades
``S``; ranks ``0..12`` = ``2 3 4 5 6 7 8 9 T J Q K A``), ``52`` the red joker
``RJ`` and ``53`` the black joker ``BJ``. Card codes are rank then suit
(``7H``, ``TS`` or ``10S``, ``QD``, ``AC``), case-insensitive on input.

A card's *category* is its suit index ``0..3``, or ``4`` (``JOKER``) for a
Joker: only the category matters to the mechanics; the rank gives the story
prompt.
"""

from __future__ import annotations

import re

from solver.errors import InvalidInputError, UnknownCardError

SUITS = ("hearts", "diamonds", "clubs", "spades")
SUIT_LETTERS = "HDCS"
SUIT_SYMBOLS = ("\u2665", "\u2666", "\u2663", "\u2660")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace")
RED_JOKER, BLACK_JOKER = 52, 53
DECK_SIZE = 54
JOKER = 4
CATEGORIES = SUITS + ("joker",)
FACE_RANKS = frozenset((9, 10, 11, 12))  # J, Q, K, A: "face cards" in Into the Grey's deal

#: the card prompt table, verbatim from the rulebook ("Card Prompts")
PROMPTS: dict[str, str] = {
    "2": "A meeting, interrupted.",
    "3": "A gift, with conditions.",
    "4": "A sanctuary, threatened.",
    "5": "A path, with many branches.",
    "6": "A reminder of where you\u2019ve been.",
    "7": "A secret, dearly kept.",
    "8": "A glimpse of infinity.",
    "9": "A river you cannot cross.",
    "10": "An opening to somewhere new.",
    "Jack": "A rival, or someone who is about to become a rival.",
    "Queen": "An ally, or someone who is about to become an ally.",
    "King": "A powerful stranger.",
    "Ace": "A looming danger.",
    "Joker": "A mistake you can\u2019t take back.",
}

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 '.\-]{0,39}$")


def check_name(name: object, field: str) -> str:
    """A player or skill name: 1-40 characters, letters, digits, spaces, ``'``, ``.``, ``-``."""
    if not isinstance(name, str) or not _NAME.match(name) or name != name.strip() or "  " in name:
        raise InvalidInputError(field, name, "expected a name of 1-40 letters, digits, single spaces, "
                                             "apostrophes, periods or hyphens")
    return name


def card_code(card: int) -> str:
    """``7H``, ``TS``, ``RJ``..."""
    if card == RED_JOKER:
        return "RJ"
    if card == BLACK_JOKER:
        return "BJ"
    suit, rank = divmod(card, 13)
    return RANKS[rank] + SUIT_LETTERS[suit]


def parse_card(text: object, field: str = "card") -> int:
    """The id of a card code (``7H``, ``10h``, ``qs``, ``RJ``); unknown codes raise :class:`UnknownCardError`."""
    if not isinstance(text, str):
        raise UnknownCardError(field, text, "expected a card code such as '7H', 'TS', 'QD' or 'RJ'")
    code = text.strip().upper()
    if code in ("RJ", "BJ"):
        return RED_JOKER if code == "RJ" else BLACK_JOKER
    if code.startswith("10"):
        code = "T" + code[2:]
    if len(code) == 2 and code[0] in RANKS and code[1] in SUIT_LETTERS:
        return SUIT_LETTERS.index(code[1]) * 13 + RANKS.index(code[0])
    raise UnknownCardError(field, text, "unknown card (ranks 2-10 T J Q K A, suits H D C S, jokers RJ BJ)")


def category(card: int) -> int:
    """The suit index ``0..3``, or ``JOKER`` (4)."""
    return JOKER if card >= 52 else card // 13


def is_face(card: int) -> bool:
    """True for J, Q, K and A (the 'face cards' Into the Grey deals first)."""
    return card < 52 and card % 13 in FACE_RANKS


def card_class(card: int) -> int:
    """Into the Grey's deal classes: ``0`` face card, ``1`` number card (2-10), ``2`` joker."""
    if card >= 52:
        return 2
    return 0 if is_face(card) else 1


def rank_name(card: int) -> str:
    """``Queen``, ``10``, ``Joker``..."""
    return "Joker" if card >= 52 else RANK_NAMES[card % 13]


def card_name(card: int) -> str:
    """``Queen of spades``, ``red Joker``..."""
    if card == RED_JOKER:
        return "red Joker"
    if card == BLACK_JOKER:
        return "black Joker"
    return f"{RANK_NAMES[card % 13]} of {SUITS[card // 13]}"


def prompt(card: int) -> str:
    """The rulebook's story prompt for the card's rank (or the Joker)."""
    return PROMPTS[rank_name(card)]


def parse_suit(text: object, field: str = "suit") -> int:
    """A suit index from ``hearts``/``H``/``♥`` (case-insensitive)."""
    if isinstance(text, str):
        t = text.strip().lower()
        for i, name in enumerate(SUITS):
            if t in (name, name[:-1], SUIT_LETTERS[i].lower(), SUIT_SYMBOLS[i]):
                return i
    raise InvalidInputError(field, text, "expected a suit: hearts, diamonds, clubs or spades")


#: where each class of card starts in Into the Grey's deal: 16 face cards, 36 number cards, 2 jokers (MN-9)
GREY_CLASS_STARTS = (0, 16, 52, 54)


def grey_deal_classes(players: int, dealt: int = DECK_SIZE) -> list[tuple[int, int, int]]:
    """Face, number and joker cards each player receives in the first ``dealt`` cards of Into the Grey's deal.

    The 16 face cards, then the 36 number cards, then the 2 jokers are dealt
    one at a time round the table, the deal continuing with the next player
    each time (card ``i`` of the 54 goes to player ``i % players``, MN-9).
    """
    out = []
    for q in range(players):
        counts = tuple(sum(1 for i in range(GREY_CLASS_STARTS[k], min(GREY_CLASS_STARTS[k + 1], dealt))
                           if i % players == q) for k in range(3))
        out.append(counts)
    return out  # type: ignore[return-value]


def grey_class_dealt(step: int) -> int:
    """The class (0 face, 1 number, 2 joker) of card ``step`` of Into the Grey's deal."""
    return 0 if step < 16 else 1 if step < 52 else 2
