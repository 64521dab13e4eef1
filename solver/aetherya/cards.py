"""Aetherya's cards, cells, Legends and modes (rulebook: "Components", "Legend Cards").

Card letters (the kingdom notation): ``P`` Plains, ``F`` Forest, ``M`` Mountain,
``S`` Swamp (the rulebook's Marsh), ``H`` Humans, ``E`` Elves, ``D`` Dwarves,
``G`` Goblins, ``R`` Dragon, ``O`` Portal, ``?`` an Unexplored Territory.
Cells are named ``a1``..``d4``: column letter left to right, row number from
the top row of the notation.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import InvalidInputError, UnknownCardError

LETTERS = "PFMSHEDGRO?"
CARD_NAMES = ("Plains", "Forest", "Mountain", "Swamp", "Humans", "Elves", "Dwarves", "Goblins", "Dragon",
              "Portal", "Unexplored")
PLAINS, FOREST, MOUNTAIN, SWAMP, HUMANS, ELVES, DWARVES, GOBLINS, DRAGON, PORTAL, UNEXPLORED = range(11)
CARD_TYPES = 10  # the ten kinds of Kingdom card (everything but '?')
TERRAINS = (PLAINS, FOREST, MOUNTAIN, SWAMP)
TRIBES = (HUMANS, ELVES, DWARVES, GOBLINS)
LOCKED = (DRAGON, PORTAL)  # the padlock: never replaced once placed
SIDE = 4
CELLS = 16
CELL_NAMES = tuple(f"{'abcd'[c % SIDE]}{c // SIDE + 1}" for c in range(CELLS))
CATEGORIES = ("elves", "dwarves", "humans", "goblins", "dragons", "legends", "conflicts")
CENTRE = (5, 6, 9, 10)  # b2 c2 b3 c3: the starting 2x2
RING = tuple(c for c in range(CELLS) if c not in CENTRE)
MODES = ("base", "objects", "coop", "solo")
SOLO_ROWS = (4, 5, 6)  # errata: the solo campaign's Age rows hold 4, 5 and 6 Legends


def card_code(letter: str, field: str) -> int:
    """The code of a card letter (``'P'`` -> 0); unknown letters raise :class:`UnknownCardError`."""
    if not isinstance(letter, str) or len(letter) != 1 or letter.upper() not in LETTERS:
        raise UnknownCardError(field, letter, f"unknown card (expected one of {' '.join(LETTERS)})")
    return LETTERS.index(letter.upper())


def cell_index(name: str, field: str) -> int:
    """The index of a cell name (``'a1'`` -> 0, ``'d4'`` -> 15)."""
    if not isinstance(name, str) or name.lower() not in CELL_NAMES:
        raise InvalidInputError(field, name, "unknown cell (expected a1..d4: column a-d, row 1-4 from the top)")
    return CELL_NAMES.index(name.lower())


@dataclass(frozen=True)
class Legend:
    """One of the 15 Legend cards."""

    number: int  # 1..15, bit number - 1 of the kernels' legend mask
    slug: str
    title: str
    points: int
    family: str  # alliance, kingdom, battle, four-tribes, terrain


LEGENDS: tuple[Legend, ...] = (
    Legend(1, "human-elf", "Alliance Human-Elf", 2, "alliance"),
    Legend(2, "human-dwarf", "Alliance Human-Dwarf", 2, "alliance"),
    Legend(3, "goblins-2", "Kingdom of Goblins (2 linked Goblins)", 2, "kingdom"),
    Legend(4, "humans-2", "Kingdom of Humans (2 linked Humans)", 2, "kingdom"),
    Legend(5, "elves-2", "Kingdom of Elves (2 linked Elves)", 2, "kingdom"),
    Legend(6, "dwarves-2", "Kingdom of Dwarves (2 linked Dwarves)", 2, "kingdom"),
    Legend(7, "four-tribes", "The Four Tribes", 4, "four-tribes"),
    Legend(8, "goblin-human", "Legendary Battle Goblins/Humans (2 vs 1)", 3, "battle"),
    Legend(9, "goblin-elf", "Legendary Battle Goblins/Elves (2 vs 1)", 3, "battle"),
    Legend(10, "goblin-dwarf", "Legendary Battle Goblins/Dwarves (2 vs 1)", 3, "battle"),
    Legend(11, "elf-dwarf", "Legendary Battle Elves/Dwarves (2 vs 1)", 3, "battle"),
    Legend(12, "plains-3", "3 linked Plains", 4, "terrain"),
    Legend(13, "swamps-3", "3 linked Swamps", 4, "terrain"),
    Legend(14, "mountains-3", "3 linked Mountains", 4, "terrain"),
    Legend(15, "forests-3", "3 linked Forests", 4, "terrain"),
)
_BY_KEY = {leg.slug: leg for leg in LEGENDS} | {str(leg.number): leg for leg in LEGENDS}


def legend(key: str | int, field: str) -> Legend:
    """A Legend by slug (``'plains-3'``) or number (``12`` or ``'12'``)."""
    found = _BY_KEY.get(str(key).strip().lower()) if isinstance(key, (str, int)) and not isinstance(key, bool) else None
    if found is None:
        raise UnknownCardError(field, key, "unknown Legend (expected 1..15 or a slug such as 'plains-3'; "
                                           "see docs/rules/aetherya.md)")
    return found


def legends_from_mask(mask: int) -> list[Legend]:
    """The Legends whose bit is set in a kernel legend mask."""
    return [leg for leg in LEGENDS if mask >> (leg.number - 1) & 1]


def deck_counts(players: int) -> list[int]:
    """Copies of each of the 10 card types in the deck for ``players`` players (2 x players each)."""
    return [2 * players] * CARD_TYPES
