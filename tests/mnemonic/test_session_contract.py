"""The session state honours the whole State contract, keeps every card, hides hands, and rejects bad input."""

import json

import numpy as np
import pytest

from solver.errors import IllegalMoveError, ImpossibleStateError, InvalidInputError, InvalidMoveError, NotationError, UnknownCardError
from solver.mnemonic.cards import card_class, card_code
from solver.mnemonic.game import MnemonicGame
from solver.registry import load_game
from solver.testing import check_state_contract, random_simulation

from .helpers import random_action

VARIANTS = {
    "joker": "wild", "help.extraDice": 1, "help.onlyWithoutMatch": False, "help.helperSharesComplication": False,
    "learning.allowed": False, "weaving.perPlayer": 2, "weaving.refresh": "round",
    "weaving.avoidCoversHelper": False, "complications.repairOutsideVictory": "weaving", "injury.scope": "skill",
    "injury.effect": "minus-one-die", "group.nobodyRolls": "defeat", "group.afterDraw": "as-victory",
    "group.maxAttempts": 1, "round.rotateFirstPlayer": True, "deckBurner.handSize": 4,
}


def cards_accounted(state) -> None:
    """MN-32 invariant: the 54 cards, each exactly once, across hands, deck and discard."""
    held = state.cards_in_play()
    assert sorted(held) == list(range(54)), f"card lost or duplicated in {state.to_notation()}"


def variant_game(tmp_path, mode, players, **changes):
    rules = MnemonicGame().rules.with_overrides(changes).to_json()
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(rules))
    return MnemonicGame(mode=mode, players=players, rules=str(path))


@pytest.mark.parametrize("spec", ["mnemonic", "mnemonic(mode=into-the-grey)", "mnemonic(players=1)",
                                  "mnemonic(players=6,mode=into-the-grey)", "mnemonic(players=2)"])
def test_mn32_random_sessions_keep_the_contract_and_lose_no_card(spec):
    """MN-32: seeded random sessions pass the contract checks; no card is ever lost or duplicated."""
    report = random_simulation(load_game(spec), games=4, seed=11, check=cards_accounted)
    assert report.games == 4 and report.terminal == 4 and report.chance_steps > 0


@pytest.mark.parametrize("mode", ["deck-burner", "into-the-grey"])
def test_random_sessions_under_every_rule_variant(tmp_path, mode):
    game = variant_game(tmp_path, mode, 3, **VARIANTS)
    report = random_simulation(game, games=4, seed=5, check=cards_accounted)
    assert report.terminal == 4


@pytest.mark.parametrize("mode,players", [("deck-burner", 3), ("into-the-grey", 4), ("deck-burner", 5)])
def test_long_sessions_that_never_stop_early(mode, players):
    """Play to the end of the cards (never choosing end/retreat) and check the contract along the way."""
    game = MnemonicGame(mode=mode, players=players)
    rng = np.random.default_rng(3)
    state = game.new_initial_state(9)
    seen_phases = set()
    for step in range(3000):
        if step % 7 == 0:
            check_state_contract(state, rng)
        cards_accounted(state)
        seen_phases.add(state.phase)
        if state.is_terminal():
            break
        action = random_action(state, rng)
        state.apply_action(action)
    assert state.is_terminal()
    assert {"table", "group-roll", "after-defeat", "scene-weave"} <= seen_phases


def test_mn32_observation_hides_other_hands_and_the_deck():
    """MN-32: hands are private: a player's view has their own hand and only the sizes of the others."""
    state = MnemonicGame(mode="into-the-grey").new_initial_state(4)
    view = state.observation(1)
    assert "deck" not in view and view["deckSize"] == 0
    assert view["players"][1]["hand"] == [card_code(c) for c in sorted(state.players[1].hand)]
    assert "hand" not in view["players"][0] and view["players"][0]["handSize"] == 18
    assert state.observation(0) != view


def test_mn32_resampling_respects_into_the_grey_deal():
    """MN-32: other hands are redealt among themselves, keeping each hand's face/number/joker counts."""
    state = MnemonicGame(mode="into-the-grey", players=3).new_initial_state(8)
    state.apply_move(state.action_to_string(state.legal_actions()[0]))  # player 0 plays a card
    rng = np.random.default_rng(0)
    positions: dict[int, set[int]] = {}
    for _ in range(60):
        sample = state.resample_from_observation(0, rng)
        assert sample.observation(0) == state.observation(0)
        cards_accounted(sample)
        for q in (1, 2):
            classes = sorted(card_class(c) for c in sample.players[q].hand)
            assert classes == sorted(card_class(c) for c in state.players[q].hand)
            for c in sample.players[q].hand:
                positions.setdefault(c, set()).add(q)
    # every unseen card (except a lone joker class) showed up in both other hands
    unseen = [c for q in (1, 2) for c in state.players[q].hand]
    assert all(positions[c] == {1, 2} for c in unseen)


def test_resampling_in_deck_burner_mixes_hands_and_deck(tmp_path):
    game = variant_game(tmp_path, "deck-burner", 3, **{"deckBurner.handSize": 3})
    state = game.new_initial_state(2)
    sample = state.resample_from_observation(0, np.random.default_rng(1))
    assert sample.players[0].hand == state.players[0].hand
    assert [len(p.hand) for p in sample.players] == [3, 3, 3] and len(sample.deck) == 45
    assert sample.to_json() != state.to_json()


def test_json_and_notation_round_trip_at_every_phase():
    game = MnemonicGame(players=2)
    rng = np.random.default_rng(1)
    state = game.new_initial_state(1)
    for _ in range(200):
        text = state.to_notation()
        assert game.state_from_notation(text).to_notation() == text
        assert game.state_from_json(json.loads(json.dumps(state.to_json()))).to_json() == state.to_json()
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.integers(len(legal))]))


def test_the_deck_may_be_left_out_of_hand_typed_json(game):
    obj = {"mode": "deck-burner", "players": [{"skills": [{"name": "Fight", "suit": "hearts", "rating": 2}]}]}
    state = game.state_from_json(obj)
    assert len(state.deck) == 54 and state.players[0].name == "Player 1" and state.phase == "scene-card"


BASE = {"mode": "deck-burner", "players": [{"name": "Ash", "skills": [{"name": "Fight", "suit": "hearts", "rating": 2}],
                                             "hand": []}]}


def edited(**changes):
    obj = json.loads(json.dumps(BASE))
    for path, value in changes.items():
        node = obj
        keys = path.split("__")
        for key in keys[:-1]:
            node = node[int(key)] if key.isdigit() else node[key]
        last = keys[-1]
        if last.isdigit():
            node[int(last)] = value
        else:
            node[last] = value
    return obj


@pytest.mark.parametrize("obj,error,field", [
    (edited(mode="grey"), InvalidInputError, "state.mode"),
    (edited(colour="red"), InvalidInputError, "state.colour"),
    (edited(players=[]), InvalidInputError, "state.players"),
    (edited(players__0__skills__0__suit="stars"), InvalidInputError, "state.players[0].skills[0].suit"),
    (edited(players__0__skills__0__rating=9), InvalidInputError, "state.players[0].skills[0].rating"),
    (edited(players__0__skills__0__status="tired"), InvalidInputError, "state.players[0].skills[0].status"),
    (edited(players__0__skills__0__name="Fight|x"), InvalidInputError, "state.players[0].skills[0].name"),
    (edited(players__0__hand=["7H", "ZZ"]), UnknownCardError, "state.players[0].hand[1]"),
    (edited(players__0__hand=["7H"], discard=[{"card": "7H", "by": 0}]), ImpossibleStateError, "state.discard[0].card"),
    (edited(players__0__weavings=5), InvalidInputError, "state.players[0].weavings"),
    (edited(discard=[{"card": "7H", "by": 3}]), InvalidInputError, "state.discard[0].by"),
    (edited(deck=["7H"]), ImpossibleStateError, "state.deck"),
    (edited(phase="nap"), InvalidInputError, "state.phase"),
    (edited(phase="scene-skill"), ImpossibleStateError, "state.scene.card"),
    (edited(phase="group-roll"), ImpossibleStateError, "state.group"),
    (edited(phase="after-defeat"), ImpossibleStateError, "state.lastOutcome"),
    (edited(rules={"joker": "sometimes"}), InvalidInputError, "state.rules.joker"),
    (edited(rules={"jokers": "wild"}), InvalidInputError, "state.rules.jokers"),
    (edited(mode="into-the-grey"), ImpossibleStateError, "state.deck"),
    (edited(players__0__hand=["7H", "8H"]), ImpossibleStateError, "state.players[0].hand"),
])
def test_bad_json_names_the_field(game, obj, error, field):
    with pytest.raises(error) as info:
        game.state_from_json(obj)
    assert info.value.field == field, str(info.value)


def test_grey_hand_that_the_deal_cannot_produce(game):
    """MN-9: with one player Into the Grey deals all 54 cards to them; a hand missing a card is impossible."""
    obj = {"mode": "into-the-grey", "players": [{"skills": [], "hand": [card_code(c) for c in range(53)]}],
           "discard": [{"card": "BJ", "by": 0}]}
    assert game.state_from_json(obj).players[0].hand[-1] == 52
    two = {"mode": "into-the-grey", "players": [{"skills": [], "hand": [card_code(c) for c in range(27)]},
                                                 {"skills": [], "hand": [card_code(c) for c in range(27, 54)]}]}
    with pytest.raises(ImpossibleStateError, match="face"):
        game.state_from_json(two)


@pytest.mark.parametrize("text", ["", "mnemonic", "chess r1", "mnemonic deck-burner r1 scene-card f0 a0 t0/0/0 last=-",
                                  "mnemonic deck-burner rX scene-card f0 a0 t0/0/0 last=- | discard -",
                                  "mnemonic deck-burner r1 scene-card f0 a0 t0/0/0 last=- | discard 7H | P A w1 b0 hand=- skills=-",
                                  "mnemonic deck-burner r1 scene-card f0 a0 t0/0/0 last=- | discard - | P A w1 b0 hand=- skills=X=Q2",
                                  "mnemonic deck-burner r1 scene-card f0 a0 t0/0/0 last=- | discard - | Q x"])
def test_bad_notation_is_a_notation_error(game, text):
    with pytest.raises((NotationError, InvalidInputError)):
        game.state_from_notation(text)


def test_illegal_and_malformed_moves(game):
    state = game.new_initial_state(0)
    with pytest.raises(IllegalMoveError, match="legal: draw"):
        state.apply_move("play 7H")
    with pytest.raises(InvalidMoveError):
        state.apply_move(7)
    with pytest.raises(IllegalMoveError):
        state.apply_action(5)
    with pytest.raises(InvalidMoveError):
        state.apply_action("draw")
    state.apply_move("  DRAW ")
    state.apply_move("reveal 10h")
    assert state.scene.card == 8


def test_notation_example_from_the_docs(game):
    text = ("mnemonic deck-burner r1 scene-skill f0 a0 t0/0/0 last=- | discard 7H@0 | scene card=7H | "
            "P Ash w1 b0 hand=- skills=Fight_With_Hands=H3,Sneak=S2c | P Bo w1 b0 hand=- skills=Bargain=D2")
    state = game.state_from_notation(text)
    assert state.to_notation() == text
    assert [state.action_to_string(a) for a in state.legal_actions()] == ['use "Fight With Hands"']
