"""The parts of a Mnemonic session as plain data: skills, players, the current scene and Group Scene, the tally.

The rules that move these around live in :mod:`solver.mnemonic.state`; their JSON and notation in
:mod:`solver.mnemonic.notation`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.mnemonic.cards import JOKER

#: phases of play, in the order a round visits them (the kernel numbers them in this order); ``deal`` (the cards
#: dealt one at a time, before the first scene, MN-42) comes last so that the other numbers stay as they are
PHASES = ("scene-card", "scene-draw", "scene-skill", "scene-help", "scene-roll", "scene-weave", "table",
          "group-draw", "group-skill", "group-roll", "after-victory", "after-defeat", "over", "deal")
SCENE_PHASES = PHASES[:6]
GROUP_PHASES = ("group-draw", "group-skill", "group-roll")
MODES = ("deck-burner", "into-the-grey")
STATUSES = ("ok", "complicated", "injured", "complicated+injured")
OUTCOMES = ("victory", "defeat", "draw")
HIDDEN = -1
"""A card a view's observer has not seen (in another player's hand or in the deck)."""


@dataclass
class Skill:
    """A character's skill: its suit (0-3), rating, and whether it is complicated and/or injured."""

    name: str
    suit: int
    rating: int
    complicated: bool = False
    injured: bool = False

    @property
    def status(self) -> str:
        """``ok``, ``complicated``, ``injured`` or ``complicated+injured``."""
        if self.complicated and self.injured:
            return "complicated+injured"
        return "complicated" if self.complicated else "injured" if self.injured else "ok"

    def set_status(self, status: str) -> None:
        """Set both flags from a status string (already validated)."""
        self.complicated = "complicated" in status
        self.injured = "injured" in status

    def copy(self) -> Skill:
        return Skill(self.name, self.suit, self.rating, self.complicated, self.injured)


@dataclass
class Player:
    """A player: name, character skills, private hand, weavings left and pending extra dice."""

    name: str
    skills: list[Skill]
    hand: list[int]
    weavings: int
    bonus: int = 0

    def copy(self) -> Player:
        return Player(self.name, [s.copy() for s in self.skills], list(self.hand), self.weavings, self.bonus)

    def skill_index(self, name: str) -> int | None:
        """The index of the skill called ``name`` (``None`` when absent)."""
        for i, skill in enumerate(self.skills):
            if skill.name == name:
                return i
        return None

    @property
    def complications(self) -> int:
        """Complicated skills: each adds a die to the Adversary's pool."""
        return sum(1 for s in self.skills if s.complicated)


@dataclass
class Scene:
    """The Individual Scene in progress (skills are indices into the players' skill lists)."""

    card: int | None = None
    skill: int | None = None
    learned: bool = False
    helper: int | None = None
    helper_skill: int | None = None
    roll: int | None = None
    passed: bool = False

    def copy(self) -> Scene:
        return Scene(self.card, self.skill, self.learned, self.helper, self.helper_skill, self.roll, self.passed)

    @property
    def failed(self) -> bool:
        """True once rolled without a 6 (a passed scene neither fails nor succeeds)."""
        return not self.passed and self.roll is not None and self.roll < 6


@dataclass
class Group:
    """The Group Scene in progress: the turn (index into the table order) and each player's card and skill."""

    turn: int
    cards: list[int | None] = field(default_factory=list)
    skills: list[int | None] = field(default_factory=list)

    def copy(self) -> Group:
        return Group(self.turn, list(self.cards), list(self.skills))


@dataclass
class Tally:
    """Group Scene results so far."""

    victories: int = 0
    defeats: int = 0
    draws: int = 0

    def copy(self) -> Tally:
        return Tally(self.victories, self.defeats, self.draws)


def matches(skill: Skill, category: int, joker_rule: str) -> bool:
    """Whether ``skill`` matches a card of ``category`` (a Joker matches nothing or everything, MN-14)."""
    if category == JOKER:
        return joker_rule == "wild"
    return skill.suit == category
