"""Mnemonic sessions and players' views as JSON and as a one-line notation, with full validation.

Formats are documented in ``docs/formats/mnemonic.md``. Parsing checks
everything a hand-typed position can get wrong: unknown keys, bad cards, a
card lost or held twice, hands that Into the Grey's deal cannot produce,
skills that could not have been chosen in the phase given, a view no deal of
the unseen cards fits, and so on; each error names the dotted field and quotes
the value.

States and views format themselves with :func:`state_to_json` and
:func:`state_to_notation`; this module imports neither class: the parsers build
them through the game object (:meth:`MnemonicGame.blank_state`, and
``state.view(p)``), which imports both.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from solver import seeded
from solver.errors import ImpossibleStateError, InvalidInputError, NotationError
from solver.game import split_view_notation
from solver.mnemonic.cards import (DECK_SIZE, SUIT_LETTERS, SUITS, card_class, card_code, category, check_name,
                                   grey_deal_classes, parse_card, parse_suit)
from solver.mnemonic.parts import (HIDDEN, MODES, OUTCOMES, PHASES, STATUSES, Group, Player, Scene, Skill, Tally,
                                   matches)
from solver.mnemonic.rules_file import SPEC
from solver.validate import as_bool, as_int, as_list, as_object, check_keys, get, join

if TYPE_CHECKING:
    from solver.mnemonic.game import MnemonicGame
    from solver.mnemonic.state import MnemonicState
    from solver.mnemonic.view import MnemonicView, ViewState

#: the word every notation starts with (a view's right after ``view:N``)
START = "mnemonic"
STATE_KEYS = ("mode", "round", "phase", "focus", "attempts", "tally", "lastOutcome", "players", "deck", "discard",
              "scene", "group", "rules")
PLAYER_KEYS = ("name", "skills", "hand", "weavings", "bonusDice")
SKILL_KEYS = ("name", "suit", "rating", "status")
SCENE_KEYS = ("card", "skill", "learned", "helper", "helperSkill", "roll", "passed")
GROUP_KEYS = ("turn", "cards", "skills")
MAX_BONUS = 63
STATUS_CODES = {"ok": "", "complicated": "c", "injured": "i", "complicated+injured": "ci"}


# -- to JSON ------------------------------------------------------------------------------------
def _skill_json(skill: Skill) -> dict[str, Any]:
    return {"name": skill.name, "suit": SUITS[skill.suit], "rating": skill.rating, "status": skill.status}


def _scene_json(state: MnemonicState) -> dict[str, Any] | None:
    scene = state.scene
    if scene is None:
        return None
    leader = state.players[state.focus]
    return {"card": None if scene.card is None else card_code(scene.card),
            "skill": None if scene.skill is None else leader.skills[scene.skill].name,
            "learned": scene.learned, "helper": scene.helper,
            "helperSkill": None if scene.helper_skill is None else
            state.players[scene.helper].skills[scene.helper_skill].name,  # type: ignore[index]
            "roll": scene.roll, "passed": scene.passed}


def _group_json(state: MnemonicState) -> dict[str, Any] | None:
    group = state.group
    if group is None:
        return None
    return {"turn": group.turn, "cards": [None if c is None else card_code(c) for c in group.cards],
            "skills": [None if s is None else state.players[q].skills[s].name for q, s in enumerate(group.skills)]}


def state_to_json(state: MnemonicState, observer: int | None = None) -> dict[str, Any]:
    """The full state (every hand and the deck), or with ``observer`` that player's view: ``"view": N`` first,
    the other hands as ``handSize``, the deck as ``deckSize``, and the Adversary's pool and the first player."""
    def hand(q: int, p: Player) -> dict[str, Any]:
        if observer is not None and q != observer:
            return {"handSize": len(p.hand)}
        return {"hand": [card_code(c) for c in sorted(p.hand)]}

    out: dict[str, Any] = {} if observer is None else {"view": observer}
    out.update({
        "mode": state.mode, "round": state.round, "phase": state.phase, "focus": state.focus,
        "attempts": state.attempts,
        "tally": {"victories": state.tally.victories, "defeats": state.tally.defeats, "draws": state.tally.draws},
        "lastOutcome": state.last,
        "players": [{"name": p.name, "skills": [_skill_json(s) for s in p.skills], **hand(q, p),
                     "weavings": p.weavings, "bonusDice": p.bonus}
                    for q, p in enumerate(state.players)],
    })
    if observer is None:
        out["deck"] = [card_code(c) for c in sorted(state.deck)]
    else:
        out["deckSize"] = len(state.deck)
    out.update({
        "discard": [{"card": card_code(c), "by": by} for c, by in state.discard],
        "scene": _scene_json(state), "group": _group_json(state),
        "rules": state.rules.overrides_from(state.game.rules),
    })
    if observer is not None:
        out["adversaryPool"] = state.adversary_pool()
        out["firstPlayer"] = state.first
    return out


# -- from JSON ----------------------------------------------------------------------------------
def _int(obj: dict[str, Any], key: str, field: str, default: Any, lo: int | None = None, hi: int | None = None) -> int:
    return as_int(get(obj, key, field, default), join(field, key), lo, hi)


def _skills_from_json(value: Any, field: str, rules: Any) -> list[Skill]:
    items = as_list(value, field, max_len=rules["skills.maxPerCharacter"])
    skills: list[Skill] = []
    for i, item in enumerate(items):
        where = join(field, i)
        obj = as_object(item, where)
        check_keys(obj, SKILL_KEYS, where)
        name = check_name(get(obj, "name", where), join(where, "name"))
        if any(s.name == name for s in skills):
            raise InvalidInputError(join(where, "name"), name, "two skills of one character share this name")
        suit = parse_suit(get(obj, "suit", where), join(where, "suit"))
        rating = _int(obj, "rating", where, None, rules["skills.minRating"], rules["skills.maxRating"])
        status = get(obj, "status", where, "ok")
        if status not in STATUSES:
            raise InvalidInputError(join(where, "status"), status, f"expected one of {', '.join(STATUSES)}")
        skill = Skill(name, suit, rating)
        skill.set_status(status)
        skills.append(skill)
    return skills


def _cards(value: Any, field: str) -> list[int]:
    return [parse_card(c, join(field, i)) for i, c in enumerate(as_list(value, field))]


def _players_from_json(value: Any, field: str, rules: Any, min_players: int, max_players: int,
                       observer: int | None = None, sizes: dict[int, int] | None = None) -> list[Player]:
    """The players; in a view (``observer`` given) every other player's hand is a ``handSize`` (or a list of
    ``"?"``), recorded in ``sizes``, and their ``hand`` is left empty."""
    items = as_list(value, field, min_players, max_players)
    players: list[Player] = []
    for i, item in enumerate(items):
        where = join(field, i)
        obj = as_object(item, where)
        hidden = observer is not None and i != observer
        check_keys(obj, PLAYER_KEYS + (("handSize",) if hidden else ()), where)
        name = check_name(get(obj, "name", where, f"Player {i + 1}"), join(where, "name"))
        if any(p.name == name for p in players):
            raise InvalidInputError(join(where, "name"), name, "two players share this name")
        skills = _skills_from_json(get(obj, "skills", where), join(where, "skills"), rules)
        if hidden:
            assert sizes is not None
            sizes[i] = _hidden_hand_size(obj, where)
            hand: list[int] = []
        else:
            hand = _cards(get(obj, "hand", where, []), join(where, "hand"))
        weavings = _int(obj, "weavings", where, rules["weaving.perPlayer"], 0, rules["weaving.perPlayer"])
        bonus = _int(obj, "bonusDice", where, 0, 0, MAX_BONUS)
        players.append(Player(name, skills, hand, weavings, bonus))
    return players


def _hidden_hand_size(obj: dict[str, Any], where: str) -> int:
    """A hand the observer cannot see: ``handSize: N``, or ``hand`` as a list of ``"?"``."""
    if "hand" in obj:
        if "handSize" in obj:
            raise InvalidInputError(join(where, "handSize"), obj["handSize"], "give hand or handSize, not both")
        items = as_list(obj["hand"], join(where, "hand"), max_len=DECK_SIZE)
        for k, card in enumerate(items):
            if card != "?":
                raise InvalidInputError(join(join(where, "hand"), k), card, "this player's cards are hidden from the "
                                                                            "view's observer: write '?' (or handSize)")
        return len(items)
    return as_int(get(obj, "handSize", where), join(where, "handSize"), 0, DECK_SIZE)


def _skill_ref(players: list[Player], who: int, name: Any, field: str) -> int:
    if not isinstance(name, str):
        raise InvalidInputError(field, name, "expected a skill name")
    index = players[who].skill_index(name)
    if index is None:
        raise InvalidInputError(field, name, f"{players[who].name} has no skill of that name")
    return index


def state_from_json(game: MnemonicGame, obj: Any, field: str = "state") -> MnemonicState:
    """Parse and validate a full state."""
    obj = as_object(obj, field)
    check_keys(obj, STATE_KEYS, field)
    state = _public_from_json(game, obj, field)
    _account_for_cards(state, obj, field)
    _check_tally(state, field)
    _check_phase(state, field)
    return state


def _public_from_json(game: MnemonicGame, obj: dict[str, Any], field: str, observer: int | None = None,
                      sizes: dict[int, int] | None = None) -> MnemonicState:
    """Everything but the whereabouts of the cards: players (hands of a view's other players left empty),
    round, discard, phase, focus, tally, scene and Group Scene. Not yet checked against each other."""
    mode = get(obj, "mode", field)
    if mode not in MODES:
        raise InvalidInputError(join(field, "mode"), mode, f"expected one of {', '.join(MODES)}")
    rules = game.rules.with_overrides(get(obj, "rules", field, {}) or {}, join(field, "rules"))
    players = _players_from_json(get(obj, "players", field), join(field, "players"), rules, game.min_players,
                                 game.max_players, observer, sizes)
    n = len(players)
    state = game.blank_state(rules, mode, players)
    state.round = _int(obj, "round", field, 1, 1, 10_000)
    discard_items = as_list(get(obj, "discard", field, []), join(field, "discard"))
    for i, item in enumerate(discard_items):
        where = join(join(field, "discard"), i)
        entry = as_object(item, where)
        check_keys(entry, ("card", "by"), where)
        state.discard.append((parse_card(get(entry, "card", where), join(where, "card")),
                              as_int(get(entry, "by", where), join(where, "by"), 0, n - 1)))
    state.phase = get(obj, "phase", field, "scene-card")
    if state.phase not in PHASES:
        raise InvalidInputError(join(field, "phase"), state.phase, f"expected one of {', '.join(PHASES)}")
    state.focus = _int(obj, "focus", field, state.first, 0, n - 1)
    state.attempts = _int(obj, "attempts", field, 0, 0, rules["group.maxAttempts"] or None)
    tally = as_object(get(obj, "tally", field, {}), join(field, "tally"))
    check_keys(tally, ("victories", "defeats", "draws"), join(field, "tally"))
    state.tally = Tally(*(_int(tally, k, join(field, "tally"), 0, 0) for k in ("victories", "defeats", "draws")))
    last = get(obj, "lastOutcome", field, None)
    if last is not None and last not in OUTCOMES:
        raise InvalidInputError(join(field, "lastOutcome"), last, "expected victory, defeat, draw or null")
    state.last = last
    state.scene = _scene_from_json(state, get(obj, "scene", field, None), join(field, "scene"))
    state.group = _group_from_json(state, get(obj, "group", field, None), join(field, "group"))
    return state


def _account_for_cards(state: MnemonicState, obj: dict[str, Any], field: str) -> None:
    """MN-32 invariant: the 54 cards are each in exactly one place; Into the Grey's hands fit its deal."""
    seen: dict[int, str] = {}

    def place(card: int, where: str) -> None:
        if card in seen:
            raise ImpossibleStateError(where, card_code(card), f"card already listed at {seen[card]}")
        seen[card] = where

    for q, p in enumerate(state.players):
        for i, c in enumerate(p.hand):
            place(c, f"{field}.players[{q}].hand[{i}]")
    for i, (c, _) in enumerate(state.discard):
        place(c, f"{field}.discard[{i}].card")
    if "deck" in obj:
        deck = _cards(obj["deck"], join(field, "deck"))
        for i, c in enumerate(deck):
            place(c, f"{field}.deck[{i}]")
        missing = [card_code(c) for c in range(DECK_SIZE) if c not in seen]
        if missing:
            raise ImpossibleStateError(join(field, "deck"), missing, "cards missing from hands, deck and discard")
    else:
        deck = [c for c in range(DECK_SIZE) if c not in seen]  # the deck is whatever is left
    state.deck = sorted(deck)
    for p in state.players:
        p.hand.sort()
    rules = state.rules
    if state.phase == "deal":
        _check_deal(state, field)
        return
    if state.mode == "into-the-grey":
        if state.deck:
            raise ImpossibleStateError(join(field, "deck"), [card_code(c) for c in state.deck],
                                       "Into the Grey deals the whole deck (MN-9): these cards are in no hand "
                                       "and were never played")
        for q, dealt in enumerate(grey_deal_classes(state.n)):
            played = [0, 0, 0]
            for c, by in state.discard:
                if by == q:
                    played[card_class(c)] += 1
            held = [0, 0, 0]
            for c in state.players[q].hand:
                held[card_class(c)] += 1
            expected = [dealt[k] - played[k] for k in range(3)]
            if held != expected:
                raise ImpossibleStateError(f"{field}.players[{q}].hand", [card_code(c) for c in state.players[q].hand],
                                           f"Into the Grey deals this player {dealt[0]} face, {dealt[1]} number and "
                                           f"{dealt[2]} joker cards (MN-9); after the cards they played the hand "
                                           f"must hold {expected[0]}/{expected[1]}/{expected[2]}, not "
                                           f"{held[0]}/{held[1]}/{held[2]}")
    else:
        size = rules["deckBurner.handSize"]
        for q, p in enumerate(state.players):
            if len(p.hand) > size:
                raise ImpossibleStateError(f"{field}.players[{q}].hand", [card_code(c) for c in p.hand],
                                           f"Deck Burner deals {size} cards a player (rules deckBurner.handSize) "
                                           "and never refills a hand")


def _check_deal(state: MnemonicState, field: str) -> None:
    """During the deal (MN-42) nothing has been played and the hands hold exactly the cards dealt so far."""
    if state.discard:
        raise ImpossibleStateError(join(field, "discard"), card_code(state.discard[0][0]),
                                   "nothing is played before the deal is complete")
    step, size = state.deal_step(), state.deal_size()
    if step >= size:
        raise ImpossibleStateError(join(field, "phase"), "deal", f"the {size} cards of the deal are all dealt: the "
                                                                 "first scene has begun")
    if state.mode == "into-the-grey":
        for q, dealt in enumerate(grey_deal_classes(state.n, step)):
            held = [sum(1 for c in state.players[q].hand if card_class(c) == k) for k in range(3)]
            if tuple(held) != tuple(dealt):
                raise ImpossibleStateError(f"{field}.players[{q}].hand", [card_code(c) for c in state.players[q].hand],
                                           f"after {step} cards of Into the Grey's deal (face cards first, then "
                                           f"numbers, then jokers, round the table) this player holds "
                                           f"{dealt[0]}/{dealt[1]}/{dealt[2]} face/number/joker cards, not "
                                           f"{held[0]}/{held[1]}/{held[2]}")
        return
    for q, p in enumerate(state.players):
        expected = len(range(q, step, state.n))
        if len(p.hand) != expected:
            raise ImpossibleStateError(f"{field}.players[{q}].hand", [card_code(c) for c in p.hand],
                                       f"after {step} cards dealt round the table this player holds {expected}")


def _scene_from_json(state: MnemonicState, value: Any, field: str) -> Scene | None:
    if value is None:
        return None
    obj = as_object(value, field)
    check_keys(obj, SCENE_KEYS, field)
    scene = Scene()
    if obj.get("card") is not None:
        scene.card = parse_card(obj["card"], join(field, "card"))
    if obj.get("helper") is not None:
        scene.helper = as_int(obj["helper"], join(field, "helper"), 0, state.n - 1)
        if scene.helper == state.focus:
            raise ImpossibleStateError(join(field, "helper"), scene.helper, "a player cannot help themselves")
    if obj.get("skill") is not None:
        scene.skill = _skill_ref(state.players, state.focus, obj["skill"], join(field, "skill"))
    if obj.get("helperSkill") is not None:
        if scene.helper is None:
            raise ImpossibleStateError(join(field, "helperSkill"), obj["helperSkill"], "no helper in this scene")
        scene.helper_skill = _skill_ref(state.players, scene.helper, obj["helperSkill"], join(field, "helperSkill"))
    scene.learned = as_bool(obj.get("learned", False), join(field, "learned"))
    scene.passed = as_bool(obj.get("passed", False), join(field, "passed"))
    if obj.get("roll") is not None:
        scene.roll = as_int(obj["roll"], join(field, "roll"), 0, 6)
    return scene


def _group_from_json(state: MnemonicState, value: Any, field: str) -> Group | None:
    if value is None:
        return None
    obj = as_object(value, field)
    check_keys(obj, GROUP_KEYS, field)
    n = state.n
    turn = as_int(get(obj, "turn", field), join(field, "turn"), 0, n)
    cards_raw = as_list(get(obj, "cards", field, [None] * n), join(field, "cards"), n, n)
    skills_raw = as_list(get(obj, "skills", field, [None] * n), join(field, "skills"), n, n)
    cards = [None if c is None else parse_card(c, join(join(field, "cards"), q)) for q, c in enumerate(cards_raw)]
    skills = [None if s is None else _skill_ref(state.players, q, s, join(join(field, "skills"), q))
              for q, s in enumerate(skills_raw)]
    return Group(turn, cards, skills)


def _check_tally(state: MnemonicState, field: str) -> None:
    """The last outcome is one of those counted; the Group Scenes since the round are among those played."""
    counts = {"victory": state.tally.victories, "defeat": state.tally.defeats, "draw": state.tally.draws}
    if state.last is not None and counts[state.last] < 1:
        raise ImpossibleStateError(join(field, "lastOutcome"), state.last,
                                   f"the tally counts no {state.last} (tally {counts})")
    played = sum(counts.values())
    in_progress = int(state.phase in ("group-draw", "group-skill", "group-roll"))
    if state.attempts - in_progress > played:
        raise ImpossibleStateError(join(field, "attempts"), state.attempts,
                                   f"more Group Scenes since the round than the tally's {played}")
    if state.last is None and played > 0:
        raise ImpossibleStateError(join(field, "lastOutcome"), None,
                                   f"the tally counts {played} Group Scene(s): name the last one's outcome")


def _check_phase(state: MnemonicState, field: str) -> None:
    """The phase and its scene/group fields must be a position the rules can reach."""
    phase, scene, group, rules = state.phase, state.scene, state.group, state.rules
    def impossible(key: str, value: Any, why: str) -> ImpossibleStateError:
        return ImpossibleStateError(join(field, key), value, why)

    if phase in ("scene-card", "scene-draw", "scene-skill", "scene-help", "scene-roll", "scene-weave"):
        if group is not None:
            raise impossible("group", "...", f"no Group Scene is in progress in phase {phase}")
        if phase in ("scene-card", "scene-draw"):
            if scene is not None:
                raise impossible("scene", "...", f"in phase {phase} the scene has not started (scene must be null)")
            if not state.can_play_scene(state.focus):
                raise impossible("focus", state.focus, "this player has no card and the deck is empty")
            if phase == "scene-draw" and not state.deck:
                raise impossible("deck", [], "cannot draw from an empty deck")
            return
        if scene is None or scene.card is None:
            raise impossible("scene.card", None, f"phase {phase} needs the scene's card")
        if not state.discard or state.discard[-1] != (scene.card, state.focus):
            raise impossible("scene.card", card_code(scene.card),
                             "the scene's card must be the last card in the discard, played by the focus player")
        _check_scene(state, field)
        return
    if phase in ("group-draw", "group-skill", "group-roll"):
        if scene is not None:
            raise impossible("scene", "...", f"no Individual Scene is in progress in phase {phase}")
        if group is None:
            raise impossible("group", None, f"phase {phase} needs the Group Scene's plan")
        if state.attempts < 1:
            raise impossible("attempts", state.attempts, "a Group Scene in progress counts as an attempt")
        _check_group(state, field)
        return
    if scene is not None or group is not None:
        raise impossible("scene" if scene is not None else "group", "...", f"phase {phase} has no scene in progress")
    if phase == "deal":
        if state.round != 1 or state.attempts or state.last is not None or state.focus != 0:
            raise impossible("round", state.round, "the deal comes before the first round's first scene")
        return
    if phase == "table" and state.attempts != 0:
        raise impossible("attempts", state.attempts, "the table chooses right after a round: no Group Scene yet")
    if phase == "after-victory":
        allowed = ("victory", "draw") if rules["group.afterDraw"] == "as-victory" else ("victory",)
        if state.last not in allowed or state.attempts < 1:
            raise impossible("lastOutcome", state.last, f"phase {phase} follows a Group Scene ended by {allowed}")
    if phase == "after-defeat":
        allowed = ("defeat", "draw") if rules["group.afterDraw"] == "as-defeat" else ("defeat",)
        if state.last not in allowed or state.attempts < 1:
            raise impossible("lastOutcome", state.last, f"phase {phase} follows a Group Scene ended by {allowed}")


def _check_scene(state: MnemonicState, field: str) -> None:
    scene, phase, p = state.scene, state.phase, state.focus
    assert scene is not None and scene.card is not None
    f = join(field, "scene")
    cat = category(scene.card)
    joker = state.rules["joker"]
    if phase == "scene-skill":
        if scene.skill is not None or scene.helper is not None or scene.roll is not None or scene.passed:
            raise ImpossibleStateError(f, "...", "in phase scene-skill no skill has been chosen yet")
        return
    if scene.passed:
        if phase != "scene-weave" or scene.skill is not None or scene.roll is not None:
            raise ImpossibleStateError(join(f, "passed"), True, "a passed scene has no skill or roll and goes "
                                                                "straight to the weaving")
        if state.players[p].weavings < 1:
            raise ImpossibleStateError(join(f, "passed"), True, "no weaving left: the scene would be over")
        if state.matching(p, cat):
            raise ImpossibleStateError(join(f, "passed"), True, "a scene is played without a roll only when no "
                                                                "available skill matches its card (MN-17)")
        return
    if scene.skill is None:
        raise ImpossibleStateError(join(f, "skill"), None, f"phase {phase} needs the skill chosen")
    skill = state.players[p].skills[scene.skill]
    if not state.usable(skill):
        raise ImpossibleStateError(join(f, "skill"), skill.name, f"this skill is {skill.status}: it cannot be used")
    matching = state.matching(p, cat)
    if scene.helper is None:
        if scene.helper_skill is not None:
            raise ImpossibleStateError(join(f, "helperSkill"), "...", "no helper in this scene")
        if not matches(skill, cat, joker):
            raise ImpossibleStateError(join(f, "skill"), skill.name,
                                       f"does not match the {card_code(scene.card)} and nobody helps")
        if scene.learned:
            if scene.skill != len(state.players[p].skills) - 1:
                raise ImpossibleStateError(join(f, "learned"), True, "the learned skill is the character's last skill")
            if not state.rules["learning.allowed"] or (state.rules["learning.onlyWithoutMatch"] and len(matching) > 1):
                raise ImpossibleStateError(join(f, "learned"), True, "learning was not allowed here (rules learning.*)")
    else:
        if state.rules["help.onlyWithoutMatch"] and matching:
            raise ImpossibleStateError(join(f, "helper"), scene.helper,
                                       "help is asked only without a matching available skill (rules "
                                       "help.onlyWithoutMatch)")
        if phase == "scene-help":
            if scene.helper_skill is not None:
                raise ImpossibleStateError(join(f, "helperSkill"), "...", "the helper has not chosen yet")
            if not state.available(scene.helper):
                raise ImpossibleStateError(join(f, "helper"), scene.helper, "this player has no skill to help with")
        elif scene.helper_skill is None:
            raise ImpossibleStateError(join(f, "helperSkill"), None, "the helper's skill is needed")
        elif phase == "scene-roll" and not state.usable(state.players[scene.helper].skills[scene.helper_skill]):
            raise ImpossibleStateError(join(f, "helperSkill"), "...", "the helper's skill is not available")
    if phase in ("scene-help", "scene-roll"):
        if scene.roll is not None:
            raise ImpossibleStateError(join(f, "roll"), scene.roll, f"no roll yet in phase {phase}")
        if phase == "scene-roll" and state.dice(p, scene.skill, scene.helper is not None) == 0:
            raise ImpossibleStateError(join(f, "skill"), skill.name, "this roll has no dice: it fails at once (MN-2)")
    else:  # scene-weave
        if scene.roll is None:
            raise ImpossibleStateError(join(f, "roll"), None, "phase scene-weave comes after the roll")
        if state.players[p].weavings < 1:
            raise ImpossibleStateError(join(field, "phase"), phase, "no weaving left: the scene would be over")


def _check_group(state: MnemonicState, field: str) -> None:
    group = state.group
    assert group is not None
    f = join(field, "group")
    order = state.order()
    burner = state.mode == "deck-burner"
    grey_cards = state.grey_cards()
    phase = state.phase
    drawn_prefix = sum(1 for q in order if group.cards[q] is not None) if state.draws_first() else None
    for pos, q in enumerate(order):
        card, skill = group.cards[q], group.skills[q]
        where_card, where_skill = join(join(f, "cards"), q), join(join(f, "skills"), q)
        decided = pos < group.turn
        if burner:
            if drawn_prefix is not None:  # everyone draws, in table order, before anyone chooses
                drawn = pos < drawn_prefix or phase != "group-draw"
            else:
                drawn = decided or (pos == group.turn and phase == "group-skill")
            if drawn and card is None:
                raise ImpossibleStateError(where_card, None, "this player has drawn already")
            if not drawn and card is not None:
                raise ImpossibleStateError(where_card, card_code(card), "this player has not drawn yet")
        elif not grey_cards and card is not None:
            raise ImpossibleStateError(where_card, card_code(card), "Into the Grey draws no card (rules "
                                                                    "intoTheGrey.groupCard: none)")
        elif grey_cards and (card is None) != (skill is None):
            raise ImpossibleStateError(where_card if card is None else where_skill, "..." if card is None else
                                       card_code(card), "a skill is brought with a card of its suit from hand "
                                                        "(rules intoTheGrey.groupCard: discard)")
        if card is not None and (card, q) not in state.discard:
            raise ImpossibleStateError(where_card, card_code(card),
                                       "a card of the plan goes to the discard, recorded as played by its player")
        if skill is not None:
            if not decided:
                raise ImpossibleStateError(where_skill, "...", "this player has not chosen yet")
            used = state.players[q].skills[skill]
            if grey_cards:
                ok = state.usable(used) and matches(used, category(card), state.rules["joker"])  # type: ignore[arg-type]
            else:
                ok = skill in state._group_options(q)
            if not ok:
                raise ImpossibleStateError(where_skill, used.name, "not an available skill this player may bring"
                                           + (f" with {card_code(card)}" if grey_cards and card is not None else ""))
        elif decided and state._group_options(q):
            raise ImpossibleStateError(where_skill, None,
                                       "this player has an available skill, so they must have chosen one")
    if phase == "group-draw":
        if not burner or not state.deck or (drawn_prefix is None and group.turn >= state.n) or \
                (drawn_prefix is not None and (drawn_prefix >= state.n or group.turn != 0)):
            raise ImpossibleStateError(join(f, "turn"), group.turn, "nobody can draw for the plan now")
    if phase == "group-skill" and (group.turn >= state.n or not state._group_options(order[group.turn])):
        raise ImpossibleStateError(join(f, "turn"), group.turn, "this player has no skill to choose")
    if phase == "group-roll" and group.turn != state.n:
        raise ImpossibleStateError(join(f, "turn"), group.turn, "the roll comes once everyone has planned")


# -- notation -------------------------------------------------------------------------------------
def _name_out(name: str) -> str:
    return name.replace(" ", "_")


def _name_in(token: str) -> str:
    return token.replace("_", " ")


def _cards_out(cards: list[int]) -> str:
    return ",".join(card_code(c) for c in cards) or "-"


def state_to_notation(state: MnemonicState, observer: int | None = None) -> str:
    """One line: header | discard | [scene] | [group] | players | [rules] (deck = the cards left over).

    With ``observer`` (a view's body): the other players' hands are written ``hand=?K`` (K hidden cards)."""
    t = state.tally
    parts = [f"mnemonic {state.mode} r{state.round} {state.phase} f{state.focus} a{state.attempts} "
             f"t{t.victories}/{t.defeats}/{t.draws} last={state.last or '-'}",
             "discard " + (",".join(f"{card_code(c)}@{by}" for c, by in state.discard) or "-")]
    scene = _scene_json(state)
    if scene is not None:
        items = []
        for key in ("card", "skill", "helper", "helperSkill", "roll"):
            if scene[key] is not None:
                value = scene[key]
                items.append(f"{key}={_name_out(value) if isinstance(value, str) else value}")
        items += [key for key in ("learned", "passed") if scene[key]]
        parts.append("scene" + "".join(" " + i for i in items))
    group = _group_json(state)
    if group is not None:
        cards = ",".join(c or "-" for c in group["cards"])
        skills = ",".join(_name_out(s) if s else "-" for s in group["skills"])
        parts.append(f"group turn={group['turn']} cards={cards} skills={skills}")
    for q, p in enumerate(state.players):
        skills = ",".join(f"{_name_out(s.name)}={SUIT_LETTERS[s.suit]}{s.rating}{STATUS_CODES[s.status]}"
                          for s in p.skills) or "-"
        hand = _cards_out(sorted(p.hand)) if observer is None or q == observer else (f"?{len(p.hand)}" if p.hand
                                                                                     else "-")
        parts.append(f"P {_name_out(p.name)} w{p.weavings} b{p.bonus} hand={hand} skills={skills}")
    overrides = state.rules.overrides_from(state.game.rules)
    if overrides:
        parts.append("rules " + " ".join(f"{k}={json.dumps(v)}" for k, v in sorted(overrides.items())))
    return " | ".join(parts)


def state_from_notation(game: MnemonicGame, text: str, field: str = "state") -> MnemonicState:
    """Parse the notation into JSON form, then validate it like JSON."""
    return state_from_json(game, notation_object(text, field), field)


def notation_object(text: str, field: str = "state") -> dict[str, Any]:
    """The notation's JSON form (not yet validated)."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError(field, text, "expected a Mnemonic notation line starting with 'mnemonic'")
    sections = [s.strip() for s in text.strip().split("|")]
    head = sections[0].split()
    if len(head) != 8 or head[0] != "mnemonic":
        raise NotationError(field, sections[0], "header: expected 'mnemonic MODE rROUND PHASE fFOCUS aATTEMPTS "
                                                "tV/D/W last=OUTCOME'")
    try:
        obj: dict[str, Any] = {"mode": head[1], "round": _num(head[2], "r"), "phase": head[3],
                               "focus": _num(head[4], "f"), "attempts": _num(head[5], "a")}
        tally = head[6][1:].split("/") if head[6].startswith("t") else []
        if len(tally) != 3:
            raise ValueError(head[6])
        obj["tally"] = dict(zip(("victories", "defeats", "draws"), (int(x) for x in tally)))
        if not head[7].startswith("last="):
            raise ValueError(head[7])
        obj["lastOutcome"] = None if head[7] == "last=-" else head[7][5:]
    except ValueError as exc:
        raise NotationError(field, sections[0], f"header: cannot read {exc}") from None
    obj["players"] = []
    for section in sections[1:]:
        word, _, rest = section.partition(" ")
        if word == "discard":
            obj["discard"] = [] if rest.strip() == "-" else [_discard_entry(e, field) for e in rest.split(",")]
        elif word == "scene":
            obj["scene"] = _scene_notation(rest, field)
        elif word == "group":
            obj["group"] = _group_notation(rest, field)
        elif word == "P":
            obj["players"].append(_player_notation(rest, field))
        elif word == "rules":
            obj["rules"] = _rules_notation(rest, field)
        else:
            raise NotationError(field, section, "unknown section (expected discard, scene, group, P or rules)")
    if "discard" not in obj:
        raise NotationError(field, text, "missing the 'discard' section ('discard -' when empty)")
    return obj


def _num(token: str, prefix: str) -> int:
    if not token.startswith(prefix) or not token[len(prefix):].isdigit():
        raise ValueError(token)
    return int(token[len(prefix):])


def _discard_entry(entry: str, field: str) -> dict[str, Any]:
    card, at, by = entry.strip().partition("@")
    if not at or not by.isdigit():
        raise NotationError(field, entry, "discard: expected CARD@PLAYER such as 7H@0")
    return {"card": card, "by": int(by)}


def _keyvals(text: str, field: str, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for token in text.split():
        key, eq, value = token.partition("=")
        out[key] = value if eq else "true"
    return out


def _scene_notation(text: str, field: str) -> dict[str, Any]:
    values = _keyvals(text, field, "scene")
    scene: dict[str, Any] = {}
    for key, value in values.items():
        if key not in SCENE_KEYS:
            raise NotationError(field, key, "scene: unknown item")
        if key in ("helper", "roll"):
            if not value.isdigit():
                raise NotationError(field, value, f"scene: {key} must be a number")
            scene[key] = int(value)
        elif key in ("learned", "passed"):
            scene[key] = True
        else:
            scene[key] = _name_in(value)
    return scene


def _group_notation(text: str, field: str) -> dict[str, Any]:
    values = _keyvals(text, field, "group")
    if set(values) != {"turn", "cards", "skills"} or not values["turn"].isdigit():
        raise NotationError(field, text, "group: expected 'turn=N cards=C,... skills=S,...'")
    return {"turn": int(values["turn"]),
            "cards": [None if c == "-" else c for c in values["cards"].split(",")],
            "skills": [None if s == "-" else _name_in(s) for s in values["skills"].split(",")]}


def _player_notation(text: str, field: str) -> dict[str, Any]:
    tokens = text.split()
    if len(tokens) != 5 or not tokens[3].startswith("hand=") or not tokens[4].startswith("skills="):
        raise NotationError(field, text, "player: expected 'P NAME wW bB hand=C,... skills=Name=H3c,...'")
    try:
        weavings, bonus = _num(tokens[1], "w"), _num(tokens[2], "b")
    except ValueError as exc:
        raise NotationError(field, text, f"player: cannot read {exc}") from None
    hand = tokens[3][5:]
    skills = []
    body = tokens[4][7:]
    for item in ([] if body == "-" else body.split(",")):
        name, eq, code = item.rpartition("=")
        if not eq or len(code) < 2 or code[0] not in SUIT_LETTERS:
            raise NotationError(field, item, "skill: expected Name=SUIT RATING STATUS such as Sneak=S2c")
        digits = "".join(ch for ch in code[1:] if ch.isdigit())
        flags = code[1 + len(digits):]
        status = {v: k for k, v in STATUS_CODES.items()}.get(flags)
        if not digits or status is None:
            raise NotationError(field, item, "skill: expected Name=SUIT RATING STATUS such as Sneak=S2c")
        skills.append({"name": _name_in(name), "suit": SUITS[SUIT_LETTERS.index(code[0])], "rating": int(digits),
                       "status": status})
    return {"name": _name_in(tokens[0]), "weavings": weavings, "bonusDice": bonus,
            "hand": [] if hand == "-" else hand.split(","), "skills": skills}


def _rules_notation(text: str, field: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for token in text.split():
        key, eq, value = token.partition("=")
        if not eq or key not in SPEC:
            raise NotationError(field, token, "rules: expected KEY=VALUE with a known rule key")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            raise NotationError(field, token, "rules: the value must be JSON (true, 3, \"wild\")") from None
    return out


# -- the view's JSON and notation --------------------------------------------------------------------------
def view_from_json(game: MnemonicGame, obj: Any, field: str = "state") -> MnemonicView:
    """Parse a view (``"view": N``): check it, then make sure some full state has exactly this view."""
    obj = as_object(obj, field)
    check_keys(obj, tuple(k for k in STATE_KEYS if k != "deck") + ("view", "deckSize", "adversaryPool", "firstPlayer"),
               field)
    observer = as_int(get(obj, "view", field), join(field, "view"), 0, game.max_players - 1)
    sizes: dict[int, int] = {}
    public = _public_from_json(game, obj, field, observer, sizes)
    if observer >= public.n:
        raise InvalidInputError(join(field, "view"), observer, f"expected a player index 0..{public.n - 1}")
    known = public.view(observer).known  # the other hands (still empty) and the deck hidden
    for q, size in sizes.items():
        known.players[q].hand = [HIDDEN] * size
    deck = len(known.unseen()) - sum(sizes.values())
    if deck < 0:
        raise ImpossibleStateError(join(field, "players"), [sizes[q] for q in sorted(sizes)],
                                   f"the other hands hold more cards than the {len(known.unseen())} you have not seen")
    known.deck = [HIDDEN] * deck
    _check_grey_hands(known, sizes, field)
    facts = known.facts()
    if not facts.feasible():
        raise ImpossibleStateError(field, "...", "no deal of the cards you have not seen fits this view (a player "
                                                 "who brought nothing to the Group Scene must hold no card of their "
                                                 "skills' suits; the player choosing must hold one)")
    state = game.state_from_json(known.full_state(facts.sample(seeded.default_rng(0))).to_json(), field)
    view = state.view(observer)
    derived = view.to_json()
    for key in ("deckSize", "adversaryPool", "firstPlayer"):
        if key in obj and obj[key] != derived[key]:
            raise ImpossibleStateError(join(field, key), obj[key], f"this view gives {derived[key]}")
    return view


def _check_grey_hands(known: ViewState, sizes: dict[int, int], field: str) -> None:
    if known.mode != "into-the-grey":
        return
    for q, size in sizes.items():
        demand = known.class_demand(q)
        if min(demand) < 0 or sum(demand) != size:
            raise ImpossibleStateError(f"{field}.players[{q}].handSize", size,
                                       "Into the Grey's deal and the cards this player played leave them "
                                       f"{max(0, sum(demand))} cards ({'/'.join(map(str, demand))} face/number/joker)")
    if known.phase != "deal" and known.deck:
        raise ImpossibleStateError(f"{field}.players", [sizes[q] for q in sorted(sizes)],
                                   f"Into the Grey deals the whole deck (MN-9): {len(known.deck)} unseen cards are in "
                                   "no hand")


def view_from_notation(game: MnemonicGame, text: str, field: str = "state") -> MnemonicView:
    """Parse ``view:N <body>``: the state notation with each hidden hand written ``hand=?K`` (K cards)."""
    observer, body = split_view_notation(text, field)
    obj = notation_object(body, field)
    for q, player in enumerate(obj["players"]):
        if q != observer:
            player["handSize"] = _hidden_count(player.pop("hand"), field)
    obj["view"] = observer
    return view_from_json(game, obj, field)


def _hidden_count(tokens: list[str], field: str) -> int:
    total = 0
    for token in tokens:
        if not token.startswith("?") or not (token[1:].isdigit() or token == "?"):
            raise NotationError(field, token, "another player's hand in a view: '?K' (K hidden cards), '?' or '-'")
        total += int(token[1:]) if token[1:] else 1
    return total
