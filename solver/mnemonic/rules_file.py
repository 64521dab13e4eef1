"""The Mnemonic rules file: everything the Basics of Play excerpt leaves open, as a checked, documented file.

The default file is ``solver/data/mnemonic_rules.json`` (format in
``docs/formats/mnemonic.md``, every choice explained in
``docs/rules/mnemonic.md``). A rules file is a nested JSON object; inside the
program the values are addressed by dotted keys (``"help.extraDice"``), and a
state may carry overrides in the same dotted form. Every value is validated
against :data:`SPEC`; an unknown key or a bad value raises
:class:`~solver.errors.InvalidInputError` naming the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.datafiles import PACKAGE_DATA, read_json_file
from solver.errors import InvalidInputError
from solver.mnemonic.cards import check_name
from solver.validate import as_object

FORMAT = "mnemonic-rules/1"
SUITS = ("hearts", "diamonds", "clubs", "spades")


@dataclass(frozen=True)
class Setting:
    """One rule value: its type, its allowed values or range, and what it means."""

    kind: type
    doc: str
    choices: tuple[Any, ...] | None = None
    lo: int | None = None
    hi: int | None = None
    #: a setting added after the format was published: a rules file may leave it out (this value is used)
    optional: Any = None

    def check(self, key: str, value: Any, field: str) -> Any:
        """The value, validated; errors name ``field``."""
        if self.kind is bool:
            if not isinstance(value, bool):
                raise InvalidInputError(field, value, f"{key}: expected true or false")
        elif self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidInputError(field, value, f"{key}: expected an integer")
            if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
                raise InvalidInputError(field, value, f"{key}: must be between {self.lo} and {self.hi}")
        elif self.kind is str:
            if not isinstance(value, str):
                raise InvalidInputError(field, value, f"{key}: expected a string")
        if self.choices is not None and value not in self.choices:
            raise InvalidInputError(field, value, f"{key}: expected one of {', '.join(map(str, self.choices))}")
        return value


#: every rule setting (dotted key -> Setting); ``skillNames.<suit>`` lists are checked separately
SPEC: dict[str, Setting] = {
    "skills.minRating": Setting(int, "lowest skill rating a character may have", lo=0, hi=10),
    "skills.maxRating": Setting(int, "highest skill rating a character may have", lo=1, hi=10),
    "skills.maxPerCharacter": Setting(int, "most skills one character may hold (learning stops there)", lo=1, hi=8),
    "newCharacter.skillsPerSuit": Setting(int, "skills per suit of a character made for a new session", lo=0, hi=2),
    "newCharacter.ratingMin": Setting(int, "lowest rating drawn for a new character's skill", lo=0, hi=10),
    "newCharacter.ratingMax": Setting(int, "highest rating drawn for a new character's skill", lo=0, hi=10),
    "joker": Setting(str, "what suit a Joker matches: none (no skill matches it) or any (wild)",
                     choices=("no-suit", "wild")),
    "help.onlyWithoutMatch": Setting(bool, "help may be asked only when no available skill matches the card"),
    "help.extraDice": Setting(int, "dice a helper adds to the roll (the excerpt: 'They won't roll')", lo=0, hi=3),
    "help.helperSharesComplication": Setting(bool, "a failed helped scene also complicates the helper's skill"),
    "learning.allowed": Setting(bool, "a player may learn a new skill of the card's suit"),
    "learning.onlyWithoutMatch": Setting(bool, "learning only when no available skill matches the card"),
    "learning.rating": Setting(int, "rating of a newly learned skill", lo=0, hi=10),
    "weaving.perPlayer": Setting(int, "weavings each player may perform (a budget)", lo=0, hi=3),
    "weaving.refresh": Setting(str, "when the weaving budget is restored", choices=("never", "round", "victory")),
    "weaving.avoidCoversHelper": Setting(bool, "a weaving that avoids the complication also spares the helper"),
    "complications.repairOutsideVictory": Setting(str, "how a complication is repaired other than by Victory",
                                                  choices=("none", "weaving")),
    "injury.scope": Setting(str, "what Defeat injures: every skill of the suit used, or only the skill used",
                            choices=("suit", "skill")),
    "injury.effect": Setting(str, "what an injury does to a skill", choices=("unusable", "minus-one-die", "none")),
    "group.needsComplication": Setting(bool, "a Group Scene can only be played with at least one complication "
                                              "in the Adversary's pool"),
    "group.nobodyRolls": Setting(str, "outcome of a Group Scene in which nobody rolls a die",
                                 choices=("draw", "victory", "defeat")),
    "group.afterDraw": Setting(str, "the choices after a Draw: those after Defeat or those after Victory",
                               choices=("as-defeat", "as-victory")),
    "group.maxAttempts": Setting(int, "Group Scenes the table may play between two rounds of Individual Scenes "
                                      "(0: no cap, as in the rulebook)", lo=0, hi=6),
    "scene.passWithoutMatch": Setting(bool, "with no matching available skill a player may play the scene without "
                                            "a roll instead of learning or asking for help"),
    "round.rotateFirstPlayer": Setting(bool, "the first player (who also speaks for the table) moves on each round"),
    "deckBurner.handSize": Setting(int, "cards dealt to each player at the start of a Deck Burner session",
                                   lo=0, hi=9),
    "deckBurner.groupDraws": Setting(str, "Make the Plan in Deck Burner: everyone draws first, then each chooses "
                                          "(all-first), or each draws just before choosing (in-turn)",
                                     choices=("all-first", "in-turn")),
    "intoTheGrey.groupCard": Setting(str, "Into the Grey Group Scene: a skill is used by discarding a card of its "
                                          "suit from hand (discard), or without a card (none)",
                                     choices=("discard", "none")),
    "planner.rounds": Setting(int, "planner horizon: new rounds of Individual Scenes it may start", lo=0, hi=4),
    "planner.groupScenes": Setting(int, "planner horizon: Group Scenes it may play", lo=0, hi=6),
    "planner.sessionRounds": Setting(int, "rounds of Individual Scenes the whole session lasts, counting those "
                                          "played (0: until the cards run out)", lo=0, hi=60, optional=0),
    "planner.continuation": Setting(str, "value at the horizon: the estimate of the rest of the session "
                                         "(estimate) or nothing (none: the chance of a Victory within the horizon)",
                                    choices=("estimate", "none"), optional="estimate"),
}
TOP_KEYS = ("format", "name", "description", "skillNames")


@dataclass(frozen=True)
class MnemonicRules:
    """A validated rule set: ``values`` by dotted key, plus skill names by suit."""

    values: dict[str, Any]
    skill_names: dict[str, tuple[str, ...]]
    name: str = "default"

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def __hash__(self) -> int:
        return hash((tuple(sorted(self.values.items())), tuple(sorted(self.skill_names.items())), self.name))

    def with_overrides(self, overrides: dict[str, Any], field: str = "rules") -> MnemonicRules:
        """A copy with dotted-key overrides applied (validated)."""
        obj = as_object(overrides, field)
        values = dict(self.values)
        for key, value in obj.items():
            if key not in SPEC:
                raise InvalidInputError(f"{field}.{key}", key, f"unknown rule (known: {', '.join(SPEC)})")
            values[key] = SPEC[key].check(key, value, f"{field}.{key}")
        _check_consistency(values, field)
        return MnemonicRules(values, self.skill_names, self.name)

    def overrides_from(self, base: MnemonicRules) -> dict[str, Any]:
        """The dotted keys whose value differs from ``base`` (what a state must carry)."""
        return {k: v for k, v in self.values.items() if base.values.get(k) != v}

    def to_json(self) -> dict[str, Any]:
        """The nested file form."""
        out: dict[str, Any] = {"format": FORMAT, "name": self.name}
        for key, value in self.values.items():
            node = out
            parts = key.split(".")
            for part in parts[:-1]:
                node = node.setdefault(part, {})
            node[parts[-1]] = value
        out["skillNames"] = {suit: list(names) for suit, names in self.skill_names.items()}
        return out


def _check_consistency(values: dict[str, Any], field: str) -> None:
    if values["skills.minRating"] > values["skills.maxRating"]:
        raise InvalidInputError(f"{field}.skills.minRating", values["skills.minRating"],
                                "must not exceed skills.maxRating")
    lo, hi = values["newCharacter.ratingMin"], values["newCharacter.ratingMax"]
    if lo > hi or lo < values["skills.minRating"] or hi > values["skills.maxRating"]:
        raise InvalidInputError(f"{field}.newCharacter", [lo, hi],
                                "ratingMin..ratingMax must be a range inside skills.minRating..maxRating")
    if 4 * values["newCharacter.skillsPerSuit"] > values["skills.maxPerCharacter"]:
        raise InvalidInputError(f"{field}.newCharacter.skillsPerSuit", values["newCharacter.skillsPerSuit"],
                                "a new character would hold more than skills.maxPerCharacter skills")
    if values["learning.rating"] < values["skills.minRating"] or values["learning.rating"] > values["skills.maxRating"]:
        raise InvalidInputError(f"{field}.learning.rating", values["learning.rating"],
                                "must lie within skills.minRating..maxRating")


def _flatten(obj: dict[str, Any], prefix: str, field: str, out: dict[str, Any]) -> None:
    for key, value in obj.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            _flatten(value, f"{dotted}.", f"{field}.{key}", out)
        else:
            out[dotted] = (value, f"{field}.{key}")


def rules_from_json(obj: Any, field: str = "rules") -> MnemonicRules:
    """Validate a nested rules object (every setting required, nothing unknown)."""
    top = as_object(obj, field)
    if top.get("format") != FORMAT:
        raise InvalidInputError(f"{field}.format", top.get("format"), f"expected {FORMAT!r}")
    name = top.get("name", "unnamed")
    if not isinstance(name, str) or not name:
        raise InvalidInputError(f"{field}.name", name, "expected a non-empty string")
    if "description" in top and not isinstance(top["description"], str):
        raise InvalidInputError(f"{field}.description", top["description"], "expected a string")
    flat: dict[str, tuple[Any, str]] = {}
    _flatten({k: v for k, v in top.items() if k not in TOP_KEYS}, "", field, flat)
    values: dict[str, Any] = {}
    for key, (value, where) in flat.items():
        if key not in SPEC:
            raise InvalidInputError(where, key, f"unknown rule (known: {', '.join(SPEC)})")
        values[key] = SPEC[key].check(key, value, where)
    for key, setting in SPEC.items():
        if key not in values:
            if setting.optional is None:
                raise InvalidInputError(f"{field}.{key}", problem="missing rule setting")
            values[key] = setting.optional
    names_obj = as_object(top.get("skillNames"), f"{field}.skillNames")
    skill_names: dict[str, tuple[str, ...]] = {}
    for suit in SUITS:
        where = f"{field}.skillNames.{suit}"
        names = names_obj.get(suit)
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            raise InvalidInputError(where, names, "expected a non-empty list of skill names")
        skill_names[suit] = tuple(check_name(n, f"{where}[{i}]") for i, n in enumerate(names))
        if len(set(skill_names[suit])) != len(names):
            raise InvalidInputError(where, names, "skill names must be distinct")
    for key in names_obj:
        if key not in SUITS:
            raise InvalidInputError(f"{field}.skillNames.{key}", key, f"expected a suit ({', '.join(SUITS)})")
    if values["newCharacter.skillsPerSuit"] > min(len(v) for v in skill_names.values()):
        raise InvalidInputError(f"{field}.newCharacter.skillsPerSuit", values["newCharacter.skillsPerSuit"],
                                "more skills per suit than skillNames lists")
    _check_consistency(values, field)
    return MnemonicRules(values, skill_names, name)


@lru_cache(maxsize=8)
def _load_cached(path: str) -> MnemonicRules:
    file = PACKAGE_DATA / "mnemonic_rules.json" if path == "" else Path(path)
    obj = read_json_file(file, "rules", path or "default", "rules file")
    return rules_from_json(obj, "rules(default)" if path == "" else "rules")


def load_rules(path: str | None = None) -> MnemonicRules:
    """The shipped default rules (``path`` empty or None) or a rules file."""
    return _load_cached(path or "")


def default_rules() -> MnemonicRules:
    """The shipped default rules."""
    return load_rules(None)


def parse_horizon(text: str, field: str = "--horizon") -> tuple[int, int]:
    """``"1,2"`` -> (1 round, 2 Group Scenes): a planner horizon as ``hint --horizon`` and the engine's ``horizon``
    option give it (the rules' ``planner.rounds`` and ``planner.groupScenes`` by default)."""
    parts = text.split(",") if isinstance(text, str) else []
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise InvalidInputError(field, text, "expected ROUNDS,GROUP_SCENES such as 1,2")
    rounds, groups = int(parts[0]), int(parts[1])
    if rounds > 4 or not 1 <= groups <= 6:
        raise InvalidInputError(field, text, "rounds 0-4 and Group Scenes 1-6")
    return rounds, groups
