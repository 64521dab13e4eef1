"""Shared builders for Mnemonic tests: states from a few readable lines."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from solver.mnemonic.cards import DECK_SIZE, card_code
from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.state import MnemonicState

STATUS = {"": "ok", "c": "complicated", "i": "injured", "ci": "complicated+injured"}
SUIT = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}


def skill(spec: str) -> dict[str, Any]:
    """``"Sneak=S2c"`` -> a JSON skill."""
    name, _, code = spec.rpartition("=")
    digits = "".join(ch for ch in code[1:] if ch.isdigit())
    return {"name": name, "suit": SUIT[code[0]], "rating": int(digits), "status": STATUS[code[1 + len(digits):]]}


def player(skills: str, hand: str = "", weavings: int = 1, bonus: int = 0, name: str | None = None) -> dict[str, Any]:
    """``player("Fight=H3,Sneak=S2c", "7H QS")``."""
    out: dict[str, Any] = {"skills": [skill(s) for s in skills.split(",") if s], "hand": hand.split(),
                           "weavings": weavings, "bonusDice": bonus}
    if name:
        out["name"] = name
    return out


def state_json(players: list[dict[str, Any]], mode: str = "deck-burner", discard: str = "", **extra: Any) -> dict[str, Any]:
    """A JSON state; the deck is left out (it is whatever no hand or discard holds). ``discard`` is '7H@0 2S@1'."""
    obj: dict[str, Any] = {"mode": mode, "players": players,
                           "discard": [{"card": e.split("@")[0], "by": int(e.split("@")[1])} for e in discard.split()]}
    obj.update(extra)
    return obj


@pytest.fixture
def game() -> MnemonicGame:
    return MnemonicGame()


@pytest.fixture
def build(game):
    def make(players, mode="deck-burner", discard="", rules=None, **extra) -> MnemonicState:
        obj = state_json(players, mode, discard, **extra)
        if rules:
            obj["rules"] = rules
        return game.state_from_json(json.loads(json.dumps(obj)))
    return make


def moves(state: MnemonicState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state: MnemonicState, *texts: str) -> MnemonicState:
    for text in texts:
        state.apply_move(text)
    return state


def cards_accounted(state: MnemonicState) -> None:
    """MN-32 invariant: the 54 cards, each exactly once, across hands, deck and discard."""
    held = state.cards_in_play()
    assert sorted(held) == list(range(DECK_SIZE)), f"cards lost or duplicated in {state.to_notation()}"
    assert len(state.deck) + sum(len(p.hand) for p in state.players) + len(state.discard) == DECK_SIZE


@pytest.fixture
def mn():
    """The helpers above, for test modules (conftest functions cannot be imported in importlib mode)."""
    from types import SimpleNamespace
    return SimpleNamespace(skill=skill, player=player, state_json=state_json, moves=moves, play=play,
                           cards_accounted=cards_accounted)


RULE_CHOICES = [("joker", ["no-suit", "wild"]), ("injury.effect", ["unusable", "minus-one-die", "none"]),
                ("injury.scope", ["suit", "skill"]), ("group.afterDraw", ["as-defeat", "as-victory"]),
                ("help.extraDice", [0, 1]), ("complications.repairOutsideVictory", ["none", "weaving"]),
                ("group.nobodyRolls", ["draw", "victory", "defeat"]), ("learning.allowed", [True, False]),
                ("round.rotateFirstPlayer", [False, True]), ("weaving.refresh", ["never", "round"]),
                ("group.maxAttempts", [1, 2]), ("group.needsComplication", [True, False]),
                ("help.onlyWithoutMatch", [True, False]), ("learning.onlyWithoutMatch", [True, False]),
                ("weaving.avoidCoversHelper", [True, False]), ("help.helperSharesComplication", [True, False]),
                ("deckBurner.groupDraws", ["all-first", "in-turn"]), ("intoTheGrey.groupCard", ["discard", "none"]),
                ("scene.passWithoutMatch", [True, False])]


def small_position(game, rng, max_players: int = 3, mode: str = "deck-burner", steps: int = 5) -> MnemonicState:
    """A late-session position: few cards left, random skills, statuses and rule variants.

    Deck Burner: a few cards in the deck and in hands. Into the Grey: hands of at most two cards, every other
    card played by the player the deal gave it to (MN-9).
    """
    from solver.mnemonic.cards import card_class
    from solver.mnemonic.cards import grey_deal_classes
    k = int(rng.integers(1, max_players + 1))
    cards = [int(c) for c in rng.permutation(54)]
    players = []
    for _ in range(k):
        skills = []
        for i in range(int(rng.integers(1, 4))):
            skills.append({"name": f"S{i}", "suit": ["hearts", "diamonds", "clubs", "spades"][int(rng.integers(4))],
                           "rating": int(rng.integers(1, 3)),
                           "status": ["ok", "ok", "complicated", "injured", "complicated+injured"][int(rng.integers(5))]})
        players.append({"skills": skills, "hand": [], "weavings": int(rng.integers(0, 2)),
                        "bonusDice": int(rng.integers(0, 2))})
    rules = {"deckBurner.handSize": 2}
    for key, values in RULE_CHOICES:
        rules[key] = values[int(rng.integers(len(values)))]
    obj = {"mode": mode, "players": players, "rules": rules, "phase": ["scene-card", "table"][int(rng.integers(2))]}
    if mode == "deck-burner":
        for p in players:
            p["hand"] = [card_code(cards.pop()) for _ in range(int(rng.integers(0, 3)))]
        obj["deck"] = [card_code(cards.pop()) for _ in range(int(rng.integers(k, 2 * k + 2)))]
        obj["discard"] = [{"card": card_code(c), "by": int(rng.integers(k))} for c in cards]
    else:
        piles = {cls: [c for c in cards if card_class(c) == cls] for cls in range(3)}
        discard = []
        for q, dealt in enumerate(grey_deal_classes(k)):
            counts = list(dealt)
            keep = int(rng.integers(1, 3))
            for _ in range(keep):
                options = [cls for cls in range(3) if counts[cls] > 0]
                cls = options[int(rng.integers(len(options)))]
                counts[cls] -= 1
                players[q]["hand"].append(card_code(piles[cls].pop()))
            for cls in range(3):
                discard += [{"card": card_code(piles[cls].pop()), "by": q} for _ in range(counts[cls])]
        order = rng.permutation(len(discard))
        obj["discard"] = [discard[i] for i in order]
    if obj["phase"] == "table" and rules["group.needsComplication"]:
        obj["players"][0]["skills"][0]["status"] = "complicated"
    state = game.state_from_json(obj)
    for _ in range(int(rng.integers(0, steps + 1))):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.integers(len(legal))]))
    return state


#: the attributes of a state that ``exhaustive`` never changes (left out of its memo keys)
SEARCH_KEEPS = ("game", "rules", "mode")


def exhaustive(state, rounds: int, groups: int, memo: dict | None = None, base: int | None = None):
    """Exact chance of a new Victory within the horizon, by expectimax over the real session state.

    Cards of one suit lead to the same future (ranks only tell the story), so chance draws and card plays are
    merged by suit; everything else is the session's own rules, move by move.
    """
    from fractions import Fraction
    from solver.mnemonic import state as S
    from solver.mnemonic.cards import category
    memo = {} if memo is None else memo
    base = state.tally.victories if base is None else base
    # every attribute but those one search keeps, pickled: 3x cheaper than the notation
    key = (pickle.dumps([value for name, value in sorted(vars(state).items()) if name not in SEARCH_KEEPS]),
           rounds, groups)
    if key in memo:
        return memo[key]
    if state.tally.victories > base:
        return Fraction(1)
    if state.is_terminal():
        return Fraction(0)
    if state.is_chance_node():
        merged = {}
        for a, p in state.chance_outcomes_exact():
            k_ = ("suit", category(a - S.REVEAL)) if state.phase in ("scene-draw", "group-draw") else a
            merged[k_] = (merged[k_][0], merged[k_][1] + p) if k_ in merged else (a, p)
        value = sum((p * exhaustive(state.child(a), rounds, groups, memo, base) for a, p in merged.values()),
                    Fraction(0))
    else:
        value, seen = Fraction(0), set()
        for a in state.legal_actions():
            if state.phase == "scene-card" and a < 54:
                if category(a) in seen:
                    continue
                seen.add(category(a))
            if state.phase == "group-skill" and a >= S.GROUP_CARD:  # a card of one suit: the same future
                card, skill = divmod(a - S.GROUP_CARD, 10)
                if (category(card), skill) in seen:
                    continue
                seen.add((category(card), skill))
            r = rounds - (a in (S.ROUND, S.REGROUP) and state.phase in ("table", "after-victory", "after-defeat"))
            g = groups - (a in (S.GROUP, S.TRY_AGAIN) and state.phase in ("table", "after-victory", "after-defeat"))
            if r < 0 or g < 0:
                continue
            value = max(value, exhaustive(state.child(a), r, g, memo, base))
    memo[key] = value
    return value


@pytest.fixture
def planning():
    from types import SimpleNamespace
    return SimpleNamespace(small_position=small_position, exhaustive=exhaustive)
