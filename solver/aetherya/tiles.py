"""Objects and Characters tiles (rulebook: "Objects and Characters Mode").

A tile is an int ``family * 16 + kind``: ``family`` is the player whose set it
came from (each set has its own back), ``kind`` one of :data:`TILE_SLUGS`.
The rulebook names the tile kinds but not the 12 tiles of a printed family, so
the default family (``solver/data/aetherya_tiles.json``) holds one tile of each
of the 12 kinds; it is documented as *not* the printed family, and another
family file can be loaded (format: ``docs/formats/aetherya.md``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.datafiles import read_json_file
from solver.errors import InvalidInputError, UnknownCardError
from solver.validate import as_list, as_object, as_str, check_keys

TILE_SLUGS = ("accord", "staff", "sword", "griffin", "hammer", "palantir",
              "stone1", "stone2", "stone3", "stone4", "trafficker", "thief")
TILE_NAMES = ("Diplomatic Accord", "Staff of Command", "Magic Sword", "Griffin", "Divine Hammer",
              "Palantir of Sight", "Power Stone 1", "Power Stone 2", "Power Stone 3", "Power Stone 4",
              "Trafficker", "Thief")
TILE_CHARS = "ASWGHP1234TX"  # notation letters, in TILE_SLUGS order
ACCORD, STAFF, SWORD, GRIFFIN, HAMMER, PALANTIR, STONE1, STONE2, STONE3, STONE4, TRAFFICKER, THIEF = range(12)
STONES = (STONE1, STONE2, STONE3, STONE4)
CHARACTERS = (GRIFFIN, TRAFFICKER, THIEF)
#: the Thief steals Objects only ("this excludes the Thief, the Trafficker, and the Griffin")
OBJECTS = tuple(k for k in range(12) if k not in CHARACTERS)
FAMILY_SIZE = 12
DEFAULT_FILE = "aetherya_tiles.json"
FORMAT = "aetherya-tiles/1"


def stone_value(kind: int) -> int:
    """The Harmony points printed on a Power Stone (0 for other tiles)."""
    return kind - STONE1 + 1 if kind in STONES else 0


def tile_kind(tile: int) -> int:
    """The kind (index in :data:`TILE_SLUGS`) of a tile int."""
    return tile & 15


def tile_family(tile: int) -> int:
    """The family (the seat whose set the tile came from) of a tile int."""
    return tile >> 4


def make_tile(family: int, kind: int) -> int:
    """The tile int of ``kind`` from ``family``."""
    return family * 16 + kind


def kind_from_slug(slug: Any, field: str) -> int:
    """A tile kind from its slug (``'griffin'``) or notation letter (``'G'``)."""
    if isinstance(slug, str):
        low = slug.strip().lower()
        if low in TILE_SLUGS:
            return TILE_SLUGS.index(low)
        if len(slug.strip()) == 1 and slug.strip().upper() in TILE_CHARS:
            return TILE_CHARS.index(slug.strip().upper())
    raise UnknownCardError(field, slug, f"unknown tile (expected one of {', '.join(TILE_SLUGS)})")


def tile_to_json(tile: int) -> str:
    """``'griffin@1'``: the kind and the family it came from."""
    return f"{TILE_SLUGS[tile_kind(tile)]}@{tile_family(tile)}"


def tile_from_json(value: Any, field: str, players: int) -> int:
    """Parse ``'griffin@1'`` (kind@family)."""
    if not isinstance(value, str) or "@" not in value:
        raise InvalidInputError(field, value, "expected a tile as 'kind@family', e.g. 'griffin@1'")
    slug, _, fam = value.partition("@")
    kind = kind_from_slug(slug, field)
    if not fam.isdigit() or not 0 <= int(fam) < players:
        raise InvalidInputError(field, value, f"the family must be a seat 0..{players - 1}")
    return make_tile(int(fam), kind)


def tile_to_code(tile: int) -> str:
    """Two-character notation: kind letter and family digit (``'G1'``)."""
    return f"{TILE_CHARS[tile_kind(tile)]}{tile_family(tile)}"


def tile_from_code(text: str, field: str, players: int) -> int:
    """Parse the two-character notation of a tile."""
    if len(text) != 2 or text[0].upper() not in TILE_CHARS or not text[1].isdigit() or int(text[1]) >= players:
        raise InvalidInputError(field, text, f"expected a tile code such as 'G1' (kind letter of {TILE_CHARS}, "
                                             f"family 0..{players - 1})")
    return make_tile(int(text[1]), TILE_CHARS.index(text[0].upper()))


def _parse_family(items: Any, field: str) -> tuple[int, ...]:
    tiles = as_list(items, field, FAMILY_SIZE, FAMILY_SIZE)
    return tuple(kind_from_slug(as_str(t, f"{field}[{i}]"), f"{field}[{i}]") for i, t in enumerate(tiles))


def parse_tile_file(obj: Any, field: str = "tiles") -> tuple[tuple[int, ...], ...]:
    """The families (1 to 4 lists of 12 tile kinds) of a tile data file.

    ``{"format": "aetherya-tiles/1", "tiles": [12 slugs]}`` gives every player
    the same family; ``"families": [[12 slugs], ...]`` gives seat ``i`` family
    ``i`` (1 to 4 families; seats beyond the list reuse the last one).
    """
    data = as_object(obj, field)
    check_keys(data, ("format", "name", "printed", "note", "tiles", "families"), field)
    if data.get("format") != FORMAT:
        raise InvalidInputError(f"{field}.format", data.get("format"), f"expected {FORMAT!r}")
    if ("tiles" in data) == ("families" in data):
        raise InvalidInputError(field, sorted(data), "expected exactly one of 'tiles' or 'families'")
    if "tiles" in data:
        return (_parse_family(data["tiles"], f"{field}.tiles"),)
    families = as_list(data["families"], f"{field}.families", 1, 4)
    return tuple(_parse_family(f, f"{field}.families[{i}]") for i, f in enumerate(families))


@lru_cache(maxsize=16)
def load_families(source: str = "default") -> tuple[tuple[int, ...], ...]:
    """The tile families from ``'default'`` (the shipped file) or a JSON file path."""
    field = "game.tiles"
    if source == "default":
        path = Path(__file__).resolve().parent.parent / "data" / DEFAULT_FILE
    else:
        path = Path(source)
    return parse_tile_file(read_json_file(path, field, source, "the tile file"), field)


def family_tiles(families: tuple[tuple[int, ...], ...], seat: int) -> list[int]:
    """The 12 tile ints of seat ``seat``'s family, sorted."""
    kinds = families[min(seat, len(families) - 1)]
    return sorted(make_tile(seat, k) for k in kinds)


def best_stone_value(held: int, optional: list[int]) -> tuple[int, list[int]]:
    """Exact best Power Stone score: ``(sum of held + a subset of optional) mod 10`` maximised.

    ``held`` is the sum already kept (stones are never given up), ``optional``
    the values that may still be taken or refused. Returns the best units digit
    and the subset that reaches it (the smallest such subset, then the
    lexicographically first), found by enumerating all subsets.
    """
    best, best_set = held % 10, []
    n = len(optional)
    for mask in range(1, 1 << n):
        chosen = [optional[i] for i in range(n) if mask >> i & 1]
        value = (held + sum(chosen)) % 10
        if value > best or (value == best and (len(chosen), chosen) < (len(best_set), best_set)):
            best, best_set = value, chosen
    return best, sorted(best_set)
