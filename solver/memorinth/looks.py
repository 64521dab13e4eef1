"""A Memorinth card named by what it shows (issue 22): its face, its paths, its characters and its goblins.

At the real table nobody sees a card's number, so a card dealt or turned over is entered by the side it shows:
``sun-NES`` (a Sun side with paths to the north, east and south), ``moon-NS-R`` (a Moon side, paths north and
south, the character R on it), ``moon-NE-X-gN`` (and a goblin on the north arm). Parts, joined by ``-``:

1. the face: ``sun`` or ``moon``;
2. the path ends, a subset of ``NESW`` (``0``: none);
3. optional: the characters on the side, by their codes (codes are never N, E, S, W, C or M);
4. optional: ``g`` and the arms that carry a goblin (``gN``, ``gES``).

Letters are read in any order and case; the canonical spelling lists them in ``NESW`` and deck order. Two sides
that show the same are interchangeable: entering one never asks which (``docs/rules/memorinth.md``, MR-30). The old
numeric forms (``deal card 7``, ``reveal 12M``) keep working.

A card dealt at a real table is matched to the deck's cards as a whole: the cells dealt so far each show a side,
and the deal is possible when each of them can be given a different card that shows it there (a matching,
:func:`assign`); an earlier cell may then be given another card that shows the same, since the player cannot
tell them apart.
"""

from __future__ import annotations

from solver.errors import IllegalMoveError, InvalidMoveError
from solver.memorinth.deck import DIRECTIONS, FACES, Deck, Side
from solver.memorinth.layout import FOREST_CELLS

#: the part that marks the goblins' arms
GOBLIN = "g"


def _letters(mask: int, alphabet: str) -> str:
    return "".join(letter for i, letter in enumerate(alphabet) if mask >> i & 1)


def spell(deck: Deck, side: Side, face: int) -> str:
    """The canonical spelling of ``side`` shown with ``face`` (0 Sun, 1 Moon) up: ``moon-NS-R-gN``."""
    parts = [FACES[face], _letters(side.paths, DIRECTIONS) or "0"]
    if side.characters:
        parts.append(_letters(side.characters, deck.codes))
    if side.goblins:
        parts.append(GOBLIN + _letters(side.goblins, DIRECTIONS))
    return "-".join(parts)


def spell_side(deck: Deck, side_id: int) -> str:
    """The spelling of the side with kernel id ``side_id`` (``2k`` Sun, ``2k + 1`` Moon)."""
    return spell(deck, deck.side(side_id), side_id & 1)


def is_look(token: str) -> bool:
    """True when ``token`` is spelled as a look (it starts with ``sun-`` or ``moon-``), not as a number."""
    return isinstance(token, str) and token.lower().startswith(tuple(f"{face}-" for face in FACES))


def _mask(text: str, alphabet: str, what: str, field: str, entry: str) -> int:
    mask = 0
    for letter in text.upper():
        if letter not in alphabet:
            raise InvalidMoveError(field, entry, f"{letter!r} is not {what} (expected letters of {alphabet})")
        bit = 1 << alphabet.index(letter)
        if mask & bit:
            raise InvalidMoveError(field, entry, f"{letter!r} is named twice")
        mask |= bit
    return mask


def parse(deck: Deck, token: str, field: str, entry: str | None = None) -> tuple[int, Side]:
    """``(face, side)`` of a look such as ``moon-NS-R-gN``; a malformed one raises naming ``field`` and the
    entry (``entry``, default ``token``)."""
    entry = token if entry is None else entry
    parts = token.split("-")
    if len(parts) < 2 or parts[0].lower() not in FACES:
        raise InvalidMoveError(field, entry, "expected a side as it shows, such as 'sun-NES' or 'moon-NS-R-gN' "
                                             "(sun or moon, the path ends, the characters, g and the goblins' arms)")
    face = FACES.index(parts[0].lower())
    if not parts[1]:
        raise InvalidMoveError(field, entry, "the path ends are missing (letters of NESW, or 0 for none)")
    paths = 0 if parts[1] == "0" else _mask(parts[1], DIRECTIONS, "a path end", field, entry)
    characters = goblins = 0
    seen = set()
    for part in parts[2:]:
        kind = "goblins" if part[:1].lower() == GOBLIN and len(part) > 1 and \
            all(ch in DIRECTIONS for ch in part[1:].upper()) else "characters"
        if not part or kind in seen:
            raise InvalidMoveError(field, entry, "expected at most one part of characters and one of goblins "
                                                 "after the path ends")
        seen.add(kind)
        if kind == "goblins":
            goblins = _mask(part[1:], DIRECTIONS, "a goblin's arm", field, entry)
        else:
            characters = _mask(part, deck.codes, "a character of this deck", field, entry)
    return face, Side(paths, characters, goblins)


def cards_showing(deck: Deck, face: int, side: Side) -> list[int]:
    """The forest cards (1..24) whose ``face`` side shows ``side``, ascending."""
    return [k for k in range(1, len(deck.cards)) if deck.cards[k].sides[face] == side]


def cell_face(cell: int) -> int:
    """MR-2: the face a dealt cell shows: Sun (0) where ``row + column`` is even."""
    return (cell // 5 + cell % 5) & 1


def assign(deck: Deck, shown: list[tuple[int, Side]], current: list[int], wanted: list[int]) -> list[int] | None:
    """The cards of the cells dealt so far and of the next one, or ``None`` when no deal shows all of them.

    ``shown`` is what each earlier cell shows (face, side), ``current`` its card now, ``wanted`` the cards the next
    cell may be. Each earlier cell keeps its card unless the next one needs it and it can take another card that
    shows the same (one augmenting path: the fewest changes, always the same answer)."""
    owner = {card: i for i, card in enumerate(current)}
    cards = list(current)

    def options(i: int) -> list[int]:
        face, side = shown[i]
        return [cards[i]] + [k for k in cards_showing(deck, face, side) if k != cards[i]]

    def place(candidates: list[int], visited: set[int]) -> int | None:
        for card in candidates:
            if card in visited:
                continue
            visited.add(card)
            holder = owner.get(card)
            if holder is None:
                return card
            moved = place([k for k in options(holder) if k != card], visited)
            if moved is not None:
                cards[holder] = moved
                owner[moved] = holder
                return card
        return None

    chosen = place(sorted(wanted), set())
    return None if chosen is None else cards + [chosen]


def deal_choices(deck: Deck, dealt: list[int]) -> list[tuple[Side, int]]:
    """What the next cell of a view's deal may show, one per look (cards alike are one choice), in deck order:
    (the side, the card :func:`assign` gives the cell for it)."""
    cell = FOREST_CELLS[len(dealt)]
    face = cell_face(cell)
    shown = [(cell_face(c), deck.cards[k].sides[cell_face(c)]) for c, k in zip(FOREST_CELLS, dealt)]
    choices: dict[Side, int] = {}
    for k in range(1, len(deck.cards)):
        side = deck.cards[k].sides[face]
        if side in choices:
            continue
        cards = assign(deck, shown, dealt, cards_showing(deck, face, side))
        if cards is not None:
            choices[side] = cards[-1]
    return list(choices.items())


def resolve_unique(deck: Deck, face: int, side: Side, undealt: list[int], field: str, entry: str) -> int:
    """The undealt card a full state deals for a look: the one that shows it, or among several that show it the
    first when they are alike on both sides; several that differ underneath are refused (a state knows both
    sides of every card, so the number is needed)."""
    found = [k for k in cards_showing(deck, face, side) if k in undealt]
    if not found:
        raise IllegalMoveError(field, entry, "no card still to be dealt shows that side")
    if any(deck.cards[k].sides[1 - face] != deck.cards[found[0]].sides[1 - face] for k in found[1:]):
        names = ", ".join(f"deal card {deck.cards[k].ident}" for k in found)
        raise IllegalMoveError(field, entry, f"several cards show that side and differ underneath: a full state "
                                             f"needs the card's number ({names})")
    return found[0]


def refuse_face(cell_name: str, face: int, entry: str, field: str) -> None:
    """A look of the wrong face for the cell it is entered for."""
    raise IllegalMoveError(field, entry, f"{cell_name} shows its {FACES[face]} side (MR-2: Sun where row + column is "
                                         f"even), so enter {FACES[face]}-...")
