"""Turn a session into the planning model's arrays (see ``solver/twins/mnemonic_plan.py``).

The model sees what the advised player sees (MN-36): their own hand exactly,
every other hand as *open* (only its size), and the unseen cards (the deck
and the other hands) as one pool of category counts. With
``full_information`` every hand is known and the pool is the deck.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any

from solver.buffers import INT32, matrix, typed, zeros
from solver.mnemonic.cards import DECK_SIZE, category
from solver.mnemonic.parts import PHASES
from solver.mnemonic.state import MnemonicState
from solver.twins import mnemonic_plan as spec

NOBODY = {"victory": spec.VICTORY, "defeat": spec.DEFEAT, "draw": spec.DRAW}
REFRESH = {"never": spec.REFRESH_NEVER, "round": spec.REFRESH_ROUND, "victory": spec.REFRESH_VICTORY}
EFFECT = {"unusable": spec.UNUSABLE, "minus-one-die": spec.MINUS_ONE, "none": spec.NO_EFFECT}


@dataclass
class Layout:
    """The model's static part for one root state: config, skill slots and where each player's slots start."""

    config: array
    skills: Any  # a (slots, 2) int32 matrix
    first_slot: list[int]
    slot_count: list[int]
    observer: int | None

    @property
    def players(self) -> int:
        return int(self.config[spec.CFG_PLAYERS])

    @property
    def length(self) -> int:
        return spec.POSITION_LENGTH(self.players, int(self.config[spec.CFG_SLOTS]))


#: rounds the continuation may play when the session lasts until the cards run out (``planner.sessionRounds`` 0)
UNTIL_THE_CARDS_RUN_OUT = 60


def session_rounds_left(state: MnemonicState) -> int:
    """New rounds of Individual Scenes the session may still start (``planner.sessionRounds``; 0: until the cards
    run out, which the model checks itself)."""
    total = state.rules["planner.sessionRounds"]
    if total == 0:
        return UNTIL_THE_CARDS_RUN_OUT
    return max(0, total - state.round)


def config_of(state: MnemonicState, slots: int, horizon_rounds: int = 0, tail: bool | None = None) -> array:
    """The ``CFG_*`` array of the state's rules; ``tail`` (default: rule ``planner.continuation``) turns the
    continuation estimate on beyond a horizon of ``horizon_rounds`` rounds."""
    r = state.rules
    if tail is None:
        tail = r["planner.continuation"] == "estimate"
    values = {
        spec.CFG_PLAYERS: state.n, spec.CFG_SLOTS: slots, spec.CFG_GREY: int(state.mode == "into-the-grey"),
        spec.CFG_JOKER_WILD: int(r["joker"] == "wild"), spec.CFG_HELP_ONLY: int(r["help.onlyWithoutMatch"]),
        spec.CFG_HELP_DICE: r["help.extraDice"], spec.CFG_HELPER_SHARES: int(r["help.helperSharesComplication"]),
        spec.CFG_LEARN: int(r["learning.allowed"]), spec.CFG_LEARN_ONLY: int(r["learning.onlyWithoutMatch"]),
        spec.CFG_WEAVINGS: r["weaving.perPlayer"], spec.CFG_REFRESH: REFRESH[r["weaving.refresh"]],
        spec.CFG_AVOID_HELPER: int(r["weaving.avoidCoversHelper"]),
        spec.CFG_REPAIR: int(r["complications.repairOutsideVictory"] == "weaving"),
        spec.CFG_INJURY_SKILL: int(r["injury.scope"] == "skill"), spec.CFG_INJURY_EFFECT: EFFECT[r["injury.effect"]],
        spec.CFG_NOBODY: NOBODY[r["group.nobodyRolls"]],
        spec.CFG_DRAW_AS_VICTORY: int(r["group.afterDraw"] == "as-victory"),
        spec.CFG_MAX_ATTEMPTS: r["group.maxAttempts"], spec.CFG_ROTATE: int(r["round.rotateFirstPlayer"]),
        spec.CFG_NEEDS_COMPLICATION: int(r["group.needsComplication"]),
        spec.CFG_GREY_CARD: int(r["intoTheGrey.groupCard"] == "discard"),
        spec.CFG_DRAWS_FIRST: int(r["deckBurner.groupDraws"] == "all-first"),
        spec.CFG_PASS: int(r["scene.passWithoutMatch"]),
        spec.CFG_TAIL: int(tail),
        spec.CFG_TAIL_ROUNDS: max(0, session_rounds_left(state) - horizon_rounds) if tail else 0,
    }
    out = zeros(INT32, spec.CONFIG_LENGTH)
    for key, value in values.items():
        out[key] = value
    return out


def layout_of(state: MnemonicState, rounds: int, observer: int | None, tail: bool | None = None) -> Layout:
    """Skill slots: each player's skills, then room to learn as many skills as scenes they can still lead
    within a horizon of ``rounds`` rounds (the continuation learns nothing)."""
    rows: list[tuple[int, int]] = []
    first: list[int] = []
    counts: list[int] = []
    learnable = 0
    if state.rules["learning.allowed"]:
        learnable = rounds + 1
    for q, p in enumerate(state.players):
        first.append(len(rows))
        rows += [(q, s.rating) for s in p.skills]
        room = max(0, min(learnable, state.rules["skills.maxPerCharacter"] - len(p.skills)))
        rows += [(q, state.rules["learning.rating"])] * room
        counts.append(len(rows) - first[-1])
    skills = matrix(typed(INT32, [v for row in rows for v in row]), 2)
    return Layout(config_of(state, len(rows), rounds, tail), skills, first, counts, observer)


def position_of(state: MnemonicState, layout: Layout, rounds_left: int, groups_left: int) -> array:
    """One position row for ``state`` (a descendant of the layout's root) with the given horizon."""
    k = layout.players
    pos = [-1] * layout.length
    pos[spec.POS_PHASE] = PHASES.index(state.phase)
    pos[spec.POS_FOCUS] = state.focus
    pos[spec.POS_FIRST] = state.first
    pos[spec.POS_ROUNDS_LEFT] = rounds_left
    pos[spec.POS_GROUPS_LEFT] = groups_left
    pos[spec.POS_ATTEMPTS] = state.attempts if state.rules["group.maxAttempts"] else 0  # uncounted without a cap
    pos[spec.POS_DECK] = len(state.deck)
    known = [layout.observer is None or q == layout.observer for q in range(k)]
    pool = [0] * spec.CATEGORIES
    for c in state.deck:
        pool[category(c)] += 1
    for q, p in enumerate(state.players):
        if not known[q]:
            for c in p.hand:
                pool[category(c)] += 1
    pos[spec.POS_POOL:spec.POS_POOL + spec.CATEGORIES] = pool
    scene = state.scene
    base = layout.first_slot
    pos[spec.POS_CAT:spec.POS_TURN] = [-1] * (spec.POS_TURN - spec.POS_CAT)
    if scene is not None:
        if scene.card is not None:
            pos[spec.POS_CAT] = category(scene.card)
        if scene.skill is not None:
            pos[spec.POS_SKILL] = base[state.focus] + scene.skill
        if scene.helper is not None:
            pos[spec.POS_HELPER] = scene.helper
        if scene.helper_skill is not None:
            pos[spec.POS_HELPER_SKILL] = base[scene.helper] + scene.helper_skill  # type: ignore[index]
        if scene.passed:
            pos[spec.POS_RESULT] = spec.PASSED
        elif scene.roll is not None:
            pos[spec.POS_RESULT] = spec.SUCCEEDED if scene.roll == 6 else spec.FAILED
    pos[spec.POS_TURN] = state.group.turn if state.group is not None else 0
    for q, p in enumerate(state.players):
        at = spec.HEADER + spec.PLAYER_STRIDE * q
        pos[at + spec.PL_KNOWN] = int(known[q])
        pos[at + spec.PL_HAND_SIZE] = len(p.hand)
        counts = [0] * spec.CATEGORIES
        if known[q]:
            for c in p.hand:
                counts[category(c)] += 1
        pos[at + spec.PL_HAND:at + spec.PL_HAND + spec.CATEGORIES] = counts
        pos[at + spec.PL_TOKENS] = p.weavings
        pos[at + spec.PL_BONUS] = p.bonus
        group = state.group
        card = group.cards[q] if group is not None else None
        skill = group.skills[q] if group is not None else None
        pos[at + spec.PL_GROUP_CAT] = -1 if card is None else category(card)
        pos[at + spec.PL_GROUP_SLOT] = -1 if skill is None else base[q] + skill
    slots_at = spec.HEADER + spec.PLAYER_STRIDE * k
    for q, p in enumerate(state.players):
        if len(p.skills) > layout.slot_count[q]:
            raise ValueError("state has more skills than the layout's slots (not a descendant of the root)")
        for i in range(layout.slot_count[q]):
            at = slots_at + spec.SLOT_STRIDE * (base[q] + i)
            if i < len(p.skills):
                s = p.skills[i]
                pos[at + spec.SL_SUIT] = s.suit
                pos[at + spec.SL_STATUS] = (spec.COMPLICATED if s.complicated else 0) | (spec.INJURED if s.injured else 0)
            else:
                pos[at + spec.SL_SUIT] = 0
                pos[at + spec.SL_STATUS] = spec.ABSENT
    assert sum(pool) + sum(pos[spec.HEADER + spec.PLAYER_STRIDE * q + spec.PL_HAND_SIZE] for q in range(k)
                           if known[q]) + len(state.discard) == DECK_SIZE
    return typed(INT32, pos)
