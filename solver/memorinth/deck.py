"""Memorinth decks: the 25 double-sided cards, the 8 fairy-tale characters and the action card.

The printed path layouts and characters are unknown, so the package ships an
invented default deck (``solver/data/memorinth_default_deck.json``, labelled
``"printed": false``). Users enter the real cards in the same format
(``docs/formats/memorinth.md``); :func:`load_deck` validates every field and
names the offending one.

Encodings shared with the kernels (``src/memorinth_rules.pxd``):

* directions ``N=0, E=1, S=2, W=3``; a path set is a 4-bit mask (bit ``d``);
* card ``k`` (0 = the clearing, 1..24 = forest cards in file order) has side
  ids ``2k`` (Sun) and ``2k + 1`` (Moon);
* characters are indices 0..7 in file order, a side's characters an 8-bit mask;
* action codes ``0 shift-down, 1 shift-up, 2 shift-left, 3 shift-right,
  4 clover, 5 peek, 6 swap-cards, 7 swap-characters``; the action card has a
  ``shift`` side and a ``special`` side, each with one action on each edge.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from solver.datafiles import read_json_file
from solver.errors import InvalidInputError, UnknownCardError
from solver.validate import as_bool, as_list, as_object, as_str, check_keys, get, join

DIRECTIONS = "NESW"
DIRECTION_NAMES = ("north", "east", "south", "west")
FACES = ("sun", "moon")
FORMAT = "memorinth-deck/1"
N_CARDS = 25
N_SIDES = 50
N_CHARACTERS = 8
CLEARING_ID = "C"
ACTION_NAMES = ("shift-down", "shift-up", "shift-left", "shift-right",
                "clover", "peek", "swap-cards", "swap-characters")
SHIFT_ACTIONS = ACTION_NAMES[:4]
SPECIAL_ACTIONS = ACTION_NAMES[4:]
ACTION_SIDES = ("shift", "special")
#: layout of the flat int32 deck table handed to the kernels
TABLE_EXITS, TABLE_CHARS, TABLE_GOBLINS, TABLE_ACTIONS, TABLE_LEN = 0, 50, 100, 150, 160

DEFAULT_DECK_PATH = Path(__file__).resolve().parent.parent / "data" / "memorinth_default_deck.json"
_CARD_ID = re.compile(r"^[A-Za-z0-9]{1,4}$")
_CODE = re.compile(r"^[A-Z]$")
_RESERVED_CODES = set("NESWCM")


@dataclass(frozen=True)
class Side:
    """One face of a card: its path ends, the characters on it and the goblins on its paths."""

    paths: int
    characters: int
    goblins: int

    def describe(self, codes: str) -> str:
        """``NES R`` style summary."""
        paths = "".join(d for i, d in enumerate(DIRECTIONS) if self.paths >> i & 1) or "-"
        chars = "".join(c for i, c in enumerate(codes) if self.characters >> i & 1)
        gob = "".join(d for i, d in enumerate(DIRECTIONS) if self.goblins >> i & 1)
        return paths + (f" {chars}" if chars else "") + (f" goblin {gob}" if gob else "")


@dataclass(frozen=True)
class Card:
    """A double-sided card; ``sides[0]`` is the Sun side, ``sides[1]`` the Moon side."""

    ident: str
    sides: tuple[Side, Side]


@dataclass(frozen=True)
class Deck:
    """A validated deck."""

    name: str
    printed: bool
    description: str
    codes: str                      # the 8 character codes, index order
    names: tuple[str, ...]          # the 8 character names
    cards: tuple[Card, ...]         # 25 cards, the clearing first
    actions: tuple[tuple[int, int, int, int], tuple[int, int, int, int]]  # [side][edge N,E,S,W] -> action code
    fingerprint: str                # short content hash

    @property
    def is_default(self) -> bool:
        """True for the shipped (invented) default deck."""
        return self.fingerprint == default_deck().fingerprint

    def tag(self) -> str:
        """``default`` or ``#<fingerprint>``: how notations name the deck."""
        return "default" if self.is_default else f"#{self.fingerprint}"

    def side(self, side_id: int) -> Side:
        """The side with kernel id ``side_id`` (``2k`` Sun, ``2k+1`` Moon of card ``k``)."""
        return self.cards[side_id >> 1].sides[side_id & 1]

    def card_index(self, ident: str, field: str) -> int:
        """The index of the card called ``ident``."""
        for k, card in enumerate(self.cards):
            if card.ident == ident:
                return k
        raise UnknownCardError(field, ident, f"no such card in deck {self.name!r}")

    def side_name(self, side_id: int) -> str:
        """``12S`` / ``CM``: card id and face letter."""
        return self.cards[side_id >> 1].ident + "SM"[side_id & 1]

    def character_index(self, code: str, field: str) -> int:
        """The index of character ``code``."""
        if isinstance(code, str) and len(code) == 1 and code in self.codes:
            return self.codes.index(code)
        raise UnknownCardError(field, code, f"unknown character (known: {', '.join(self.codes)})")

    def table(self) -> np.ndarray:
        """The flat int32 table the kernels read (exits, characters, goblins per side; action layout)."""
        out = np.zeros(TABLE_LEN, dtype=np.int32)
        for sid in range(N_SIDES):
            side = self.side(sid)
            out[TABLE_EXITS + sid] = side.paths
            out[TABLE_CHARS + sid] = side.characters
            out[TABLE_GOBLINS + sid] = side.goblins
        for s in range(2):
            for edge in range(4):
                out[TABLE_ACTIONS + 4 * s + edge] = self.actions[s][edge]
        return out

    def to_json(self) -> dict[str, Any]:
        """The deck in its file format."""
        def side_json(side: Side) -> dict[str, str]:
            return {"paths": _dirs(side.paths),
                    "characters": "".join(c for i, c in enumerate(self.codes) if side.characters >> i & 1),
                    "goblins": _dirs(side.goblins)}
        return {
            "format": FORMAT, "name": self.name, "printed": self.printed, "description": self.description,
            "characters": [{"code": c, "name": n} for c, n in zip(self.codes, self.names)],
            "actionCard": {ACTION_SIDES[s]: {DIRECTIONS[e]: ACTION_NAMES[self.actions[s][e]] for e in range(4)}
                           for s in range(2)},
            "cards": [{"id": c.ident, "sun": side_json(c.sides[0]), "moon": side_json(c.sides[1])} for c in self.cards],
        }


def _dirs(mask: int) -> str:
    return "".join(d for i, d in enumerate(DIRECTIONS) if mask >> i & 1)


def _direction_mask(value: Any, field: str, allow_empty: bool = True) -> int:
    text = as_str(value, field)
    mask = 0
    for ch in text:
        if ch not in DIRECTIONS:
            raise InvalidInputError(field, text, "expected letters from N, E, S, W")
        bit = 1 << DIRECTIONS.index(ch)
        if mask & bit:
            raise InvalidInputError(field, text, f"direction {ch} listed twice")
        mask |= bit
    if not mask and not allow_empty:
        raise InvalidInputError(field, text, "expected at least one direction")
    return mask


def _parse_side(value: Any, field: str, codes: str) -> Side:
    obj = as_object(value, field)
    check_keys(obj, ("paths", "characters", "goblins"), field)
    paths = _direction_mask(get(obj, "paths", field), join(field, "paths"))
    chars_text = as_str(obj.get("characters", ""), join(field, "characters"))
    chars = 0
    for ch in chars_text:
        if ch not in codes:
            raise UnknownCardError(join(field, "characters"), chars_text,
                                   f"unknown character {ch!r} (known: {', '.join(codes)})")
        bit = 1 << codes.index(ch)
        if chars & bit:
            raise InvalidInputError(join(field, "characters"), chars_text, f"character {ch} listed twice")
        chars |= bit
    goblins = _direction_mask(obj.get("goblins", ""), join(field, "goblins"))
    if goblins & ~paths:
        raise InvalidInputError(join(field, "goblins"), obj.get("goblins"),
                                "a goblin must stand on one of the side's paths")
    return Side(paths, chars, goblins)


def _parse_characters(value: Any, field: str) -> tuple[str, tuple[str, ...]]:
    items = as_list(value, field)
    if len(items) != N_CHARACTERS:
        raise InvalidInputError(field, f"{len(items)} characters", "expected exactly 8 fairy-tale characters")
    codes, names = "", []
    for i, item in enumerate(items):
        f = join(field, i)
        obj = as_object(item, f)
        check_keys(obj, ("code", "name"), f)
        code = as_str(get(obj, "code", f), join(f, "code"))
        if not _CODE.match(code) or code in _RESERVED_CODES:
            raise InvalidInputError(join(f, "code"), code,
                                    "expected one capital letter other than N, E, S, W, C, M")
        if code in codes:
            raise InvalidInputError(join(f, "code"), code, "character code used twice")
        name = as_str(get(obj, "name", f), join(f, "name")).strip()
        if not name:
            raise InvalidInputError(join(f, "name"), name, "expected a name")
        codes += code
        names.append(name)
    return codes, tuple(names)


def _parse_action_card(value: Any, field: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    obj = as_object(value, field)
    check_keys(obj, ACTION_SIDES, field)
    layout = []
    for s, side_name in enumerate(ACTION_SIDES):
        f = join(field, side_name)
        side = as_object(get(obj, side_name, field), f)
        check_keys(side, tuple(DIRECTIONS), f)
        wanted = SHIFT_ACTIONS if s == 0 else SPECIAL_ACTIONS
        edges = []
        for edge in DIRECTIONS:
            name = as_str(get(side, edge, f), join(f, edge))
            if name not in wanted:
                raise InvalidInputError(join(f, edge), name, f"expected one of {', '.join(wanted)}")
            edges.append(ACTION_NAMES.index(name))
        if len(set(edges)) != 4:
            raise InvalidInputError(f, side, "each of the four actions must be on exactly one edge")
        layout.append(tuple(edges))
    return layout[0], layout[1]


def parse_deck(value: Any, field: str = "deck") -> Deck:
    """Validate a deck given as its JSON object; every error names the field."""
    obj = as_object(value, field)
    check_keys(obj, ("format", "name", "printed", "description", "characters", "actionCard", "cards"), field)
    fmt = get(obj, "format", field)
    if fmt != FORMAT:
        raise InvalidInputError(join(field, "format"), fmt, f"expected {FORMAT!r}")
    name = as_str(get(obj, "name", field), join(field, "name"))
    printed = as_bool(get(obj, "printed", field), join(field, "printed"))
    description = as_str(obj.get("description", ""), join(field, "description"))
    codes, names = _parse_characters(get(obj, "characters", field), join(field, "characters"))
    actions = _parse_action_card(get(obj, "actionCard", field), join(field, "actionCard"))
    items = as_list(get(obj, "cards", field), join(field, "cards"))
    if len(items) != N_CARDS:
        raise InvalidInputError(join(field, "cards"), f"{len(items)} cards",
                                "expected 25 cards: the clearing (id 'C') and 24 forest cards")
    cards: list[Card] = []
    seen_ids: set[str] = set()
    for i, item in enumerate(items):
        f = join(join(field, "cards"), i)
        card = as_object(item, f)
        check_keys(card, ("id", "sun", "moon"), f)
        ident = as_str(get(card, "id", f), join(f, "id"))
        if not _CARD_ID.match(ident):
            raise InvalidInputError(join(f, "id"), ident, "expected 1 to 4 letters or digits")
        if ident in seen_ids:
            raise InvalidInputError(join(f, "id"), ident, "card id used twice")
        seen_ids.add(ident)
        sun = _parse_side(get(card, "sun", f), join(f, "sun"), codes)
        moon = _parse_side(get(card, "moon", f), join(f, "moon"), codes)
        cards.append(Card(ident, (sun, moon)))
    clearing = [c for c in cards if c.ident == CLEARING_ID]
    if not clearing:
        raise InvalidInputError(join(field, "cards"), [c.ident for c in cards], "no clearing card (id 'C')")
    ordered = tuple(clearing + [c for c in cards if c.ident != CLEARING_ID])
    canonical = json.dumps({"c": codes, "a": actions,
                            "k": [(c.ident, [(s.paths, s.characters, s.goblins) for s in c.sides]) for c in ordered]},
                           sort_keys=True)
    fingerprint = hashlib.sha256(canonical.encode()).hexdigest()[:8]
    return Deck(name, printed, description, codes, names, ordered, actions, fingerprint)


def load_deck(source: Any, field: str = "deck") -> Deck:
    """A deck from ``"default"``, a file path, or an inline JSON object."""
    if isinstance(source, Deck):
        return source
    if source is None or source == "default":
        return default_deck()
    if isinstance(source, dict):
        return parse_deck(source, field)
    if not isinstance(source, str):
        raise InvalidInputError(field, source, "expected 'default', a deck file path or a deck object")
    path = Path(source).expanduser().resolve()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = -1
    return _load_deck_file(str(path), stamp, field)


@lru_cache(maxsize=16)
def _load_deck_file(path: str, stamp: int, field: str) -> Deck:
    return parse_deck(read_json_file(path, field, path, "deck file"), field)


@lru_cache(maxsize=1)
def default_deck() -> Deck:
    """The shipped, invented default deck (not the printed cards)."""
    return parse_deck(json.loads(DEFAULT_DECK_PATH.read_text(encoding="utf-8")), "deck")
