"""The captivity deck's bookkeeping as a campaign file (rulebook: "Captivity Deck", EM-60..EM-66).

The captivity deck's contents are not public, so this module keeps only what
the rulebook itself says: which chapter you are in (the Prologue, part one then
part two, then Chapter One, then the chapters the captivity deck unlocks), the
archive (cards placed under the archive card), the cards added to and removed
from the memory deck, whether a chapter card waits reverse side up on top of
the captivity deck, and a reset to the start of Chapter One. Chapter One is
the only chapter whose rules we ship; later chapters are recorded but cannot
be played (their rules are on captivity cards we do not have).

File format (JSON, ``docs/formats/embers.md``)::

    {"format": "embers-campaign", "version": 1, "chapter": "prologue", "part": 1,
     "captivityOpened": false, "chaptersDrawn": 0, "pendingChapterCard": false,
     "archive": [], "added": [], "removed": [], "history": []}
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.embers.cards import Deck
from solver.errors import InvalidInputError, UnsupportedActionError
from solver.validate import as_bool, as_int, as_list, as_object, as_str, check_keys, join

CHAPTERS = ("prologue", "one", "two", "three", "four", "five", "six", "seven")
PLAYABLE = ("prologue", "one")
#: character cards of the prologue, archived the first time Chapter One is set up (Chapter One, Setup)
PROLOGUE_CHARACTERS = ("aelin-prologue", "rowan")
#: what the rulebook says Chapter One adds: new character cards and the demon cards ("New Cards")
CHAPTER_ONE_CHARACTERS = ("fenrys", "aelin")
KEYS = ("format", "version", "chapter", "part", "captivityOpened", "chaptersDrawn", "pendingChapterCard",
        "archive", "added", "removed", "history")


@dataclass
class Campaign:
    """Where a group of players stands in the captivity deck."""

    chapter: str = "prologue"
    part: int = 1
    captivity_opened: bool = False
    chapters_drawn: int = 0
    pending_chapter_card: bool = False
    archive: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)

    # -- the memory deck -------------------------------------------------------------
    def memory_deck(self, deck: Deck) -> list[str]:
        """Ids of the cards now in the memory deck: the box's starting cards, plus added, minus removed/archived."""
        start = [c.id for c in deck.memory] + [c.id for c in deck.characters if c.chapter == "prologue"]
        cards = start + [c for c in self.added if c not in start]
        return [c for c in cards if c not in self.removed and c not in self.archive]

    def out_of_play(self, deck: Deck) -> list[str]:
        """Memory cards of the deck file that are not in the memory deck now (they go to the box of a new game)."""
        current = set(self.memory_deck(deck))
        return [c.id for c in deck.memory if c.id not in current]

    # -- events ------------------------------------------------------------------------
    def record(self, result: str, deck: Deck) -> str:
        """Record a game's result and advance the story as the rulebook says; returns what happened."""
        if result not in ("won", "lost"):
            raise InvalidInputError("--result", result, "expected 'won' or 'lost'")
        if self.chapter not in PLAYABLE:
            raise UnsupportedActionError("campaign.chapter", self.chapter,
                                         f"chapter {self.chapter}'s rules are on captivity cards we do not have")
        label = f"prologue part {self.part}" if self.chapter == "prologue" else f"chapter {self.chapter}"
        self.history.append({"chapter": self.chapter, **({"part": self.part} if self.chapter == "prologue" else {}),
                             "result": result})
        if result == "lost":
            if self.chapter == "prologue":
                self.part = 1  # "If you lost the game, start the prologue again from the beginning."
                return f"{label} lost: start the prologue again from part one"
            return f"{label} lost: play chapter {self.chapter} again"
        if self.chapter == "prologue" and self.part == 1:
            self.part = 2
            return "prologue part one won: continue with part two (keep the Mind and the Resolve)"
        if self.chapter == "prologue":
            self.chapter, self.part = "one", 0
            self.captivity_opened = True
            self._first_chapter_one(deck)
            return ("prologue won: the captivity deck is opened; chapter one adds the demons and new character "
                    "cards, and the prologue's Aelin and Rowan are archived")
        self.chapters_drawn += 1
        self.chapter = CHAPTERS[min(CHAPTERS.index(self.chapter) + 1, len(CHAPTERS) - 1)]
        self.pending_chapter_card = True
        return (f"chapter won: draw the top captivity card; it introduces chapter {self.chapter} (its rules are on "
                "the card and are not part of this tool)")

    def _first_chapter_one(self, deck: Deck) -> None:
        for card in PROLOGUE_CHARACTERS:
            if card not in self.archive:
                self.archive.append(card)
        for card in list(CHAPTER_ONE_CHARACTERS) + [d.id for d in deck.demons]:
            if card not in self.added:
                self.added.append(card)

    def archive_card(self, card: str, deck: Deck) -> None:
        """Archive a card of the memory deck (place it under the archive card)."""
        if card not in self.memory_deck(deck):
            raise InvalidInputError("CARD", card, "not in the memory deck now")
        self.archive.append(card)

    def add_card(self, card: str, deck: Deck) -> None:
        """Add a card to the memory deck (new cards need not be shuffled in)."""
        if card in self.memory_deck(deck):
            raise InvalidInputError("CARD", card, "already in the memory deck")
        if card in self.removed:
            self.removed.remove(card)
        elif card in self.archive:
            self.archive.remove(card)
        else:
            self.added.append(card)

    def remove_card(self, card: str, deck: Deck) -> None:
        """Remove a card from the memory deck (not to the archive)."""
        if card not in self.memory_deck(deck):
            raise InvalidInputError("CARD", card, "not in the memory deck now")
        self.removed.append(card)

    def reset(self, deck: Deck) -> None:
        """Reset the captivity deck to start again from Chapter One (cards ordered by their numbers)."""
        self.history.append({"event": "reset"})
        self.chapter, self.part = "one", 0
        self.captivity_opened = True
        self.chapters_drawn = 0
        self.pending_chapter_card = False
        self.archive, self.added, self.removed = [], [], []
        self._first_chapter_one(deck)

    # -- files ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The campaign file's JSON."""
        return {"format": "embers-campaign", "version": 1, "chapter": self.chapter, "part": self.part,
                "captivityOpened": self.captivity_opened, "chaptersDrawn": self.chapters_drawn,
                "pendingChapterCard": self.pending_chapter_card, "archive": list(self.archive),
                "added": list(self.added), "removed": list(self.removed), "history": list(self.history)}


def campaign_from_json(obj: Any, field_name: str = "campaign") -> Campaign:
    """Validate and read a campaign file's JSON."""
    obj = as_object(obj, field_name)
    check_keys(obj, KEYS, field_name)
    if obj.get("format") != "embers-campaign":
        raise InvalidInputError(join(field_name, "format"), obj.get("format"), "expected 'embers-campaign'")
    as_int(obj.get("version"), join(field_name, "version"), 1, 1)
    chapter = obj.get("chapter", "prologue")
    if chapter not in CHAPTERS:
        raise InvalidInputError(join(field_name, "chapter"), chapter, f"expected one of {', '.join(CHAPTERS)}")
    part = as_int(obj.get("part", 1 if chapter == "prologue" else 0), join(field_name, "part"), 0, 2)
    if (chapter == "prologue") != (part in (1, 2)):
        raise InvalidInputError(join(field_name, "part"), part, "the prologue has parts 1 and 2; chapters have part 0")
    lists = {}
    for key in ("archive", "added", "removed"):
        items = as_list(obj.get(key, []), join(field_name, key))
        lists[key] = [as_str(v, join(join(field_name, key), i)) for i, v in enumerate(items)]
    history = [as_object(h, join(join(field_name, "history"), i))
               for i, h in enumerate(as_list(obj.get("history", []), join(field_name, "history")))]
    return Campaign(chapter, part, as_bool(obj.get("captivityOpened", False), join(field_name, "captivityOpened")),
                    as_int(obj.get("chaptersDrawn", 0), join(field_name, "chaptersDrawn"), 0, 7),
                    as_bool(obj.get("pendingChapterCard", False), join(field_name, "pendingChapterCard")),
                    lists["archive"], lists["added"], lists["removed"], history)


def load_campaign(path: str | Path) -> Campaign:
    """Read a campaign file (errors name the file)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError("CAMPAIGN", str(path), f"cannot read the campaign file ({exc})") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError("CAMPAIGN", str(path), f"malformed JSON ({exc.msg} at line {exc.lineno})") from None
    return campaign_from_json(obj)


def save_campaign(campaign: Campaign, path: str | Path) -> None:
    """Write a campaign file."""
    try:
        Path(path).write_text(json.dumps(campaign.to_json(), indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError("CAMPAIGN", str(path), f"cannot write the campaign file ({exc})") from None
