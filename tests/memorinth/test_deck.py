"""Deck files: the shipped default is labelled invented; user decks are validated with clear errors."""

from __future__ import annotations

import copy
import json

import pytest

from solver.errors import InvalidInputError, UnknownCardError
from solver.memorinth.deck import DEFAULT_DECK_PATH, default_deck, load_deck, parse_deck
from solver.memorinth.game import MemorinthGame


@pytest.fixture
def deck_json() -> dict:
    return json.loads(DEFAULT_DECK_PATH.read_text())


def test_default_deck_is_labelled_as_not_the_printed_deck():
    """MR-1: the default deck is invented and says so."""
    deck = default_deck()
    assert deck.printed is False and "NOT the printed" in deck.description
    assert deck.is_default and deck.tag() == "default"


def test_default_deck_has_the_components_of_the_rulebook():
    """MR-1: 1 clearing + 24 forest cards, two sides each, 8 characters, each on a sensible number of sides."""
    deck = default_deck()
    assert len(deck.cards) == 25 and deck.cards[0].ident == "C"
    assert len(deck.codes) == 8 and len(set(deck.codes)) == 8
    appearances = [sum(side.characters >> i & 1 for card in deck.cards for side in card.sides) for i in range(8)]
    assert all(4 <= a <= 8 for a in appearances)
    shapes = {bin(side.paths).count("1") for card in deck.cards[1:] for side in card.sides}
    assert shapes == {1, 2, 3, 4}            # dead ends, corners/straights, T-junctions, crossings
    assert all(side.goblins & ~side.paths == 0 for card in deck.cards for side in card.sides)


def test_deck_round_trips_through_its_json(deck_json):
    deck = parse_deck(deck_json)
    again = parse_deck(deck.to_json())
    assert again.fingerprint == deck.fingerprint


def test_a_user_deck_file_is_loaded_and_tagged(tmp_path, deck_json):
    deck_json["name"] = "my printed cards"
    deck_json["printed"] = True
    deck_json["cards"][3]["sun"]["paths"] = "NESW"
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(deck_json))
    game = MemorinthGame(deck=str(path))
    assert game.rules.deck.printed and game.rules.deck.tag().startswith("#")
    state = game.deal(1)
    assert game.rules.deck.tag() in state.to_notation()
    assert game.state_from_notation(state.to_notation()).to_json() == state.to_json()
    with pytest.raises(InvalidInputError, match="another deck"):
        MemorinthGame().state_from_notation(state.to_notation())
    assert MemorinthGame().state_from_json(state.to_json()).rules.deck.fingerprint == game.rules.deck.fingerprint


@pytest.mark.parametrize("mutate,field,message", [
    (lambda d: d["cards"].pop(), "deck.cards", "expected 25 cards"),
    (lambda d: d["cards"][2].update(id="1"), "deck.cards[2].id", "used twice"),
    (lambda d: d["cards"][0].update(id="Z"), "deck.cards", "no clearing"),
    (lambda d: d["cards"][4]["sun"].update(paths="NNE"), "deck.cards[4].sun.paths", "listed twice"),
    (lambda d: d["cards"][4]["moon"].update(paths="NQ"), "deck.cards[4].moon.paths", "N, E, S, W"),
    (lambda d: d["cards"][5]["sun"].update(characters="Q"), "deck.cards[5].sun.characters", "unknown character"),
    (lambda d: d["cards"][5]["sun"].update(goblins="S"), "deck.cards[5].sun.goblins", "on one of the side's paths"),
    (lambda d: d["characters"].pop(), "deck.characters", "exactly 8"),
    (lambda d: d["characters"][1].update(code="R"), "deck.characters[1].code", "used twice"),
    (lambda d: d["characters"][1].update(code="N"), "deck.characters[1].code", "one capital letter"),
    (lambda d: d["actionCard"]["shift"].update(N="peek"), "deck.actionCard.shift.N", "expected one of"),
    (lambda d: d["actionCard"]["special"].update(N="peek"), "deck.actionCard.special", "exactly one edge"),
    (lambda d: d.update(format="other"), "deck.format", "memorinth-deck/1"),
    (lambda d: d.update(extra=1), "deck.extra", "unknown key"),
    (lambda d: d["cards"][1].update(sun="NS"), "deck.cards[1].sun", "JSON object"),
])
def test_malformed_decks_name_the_field(deck_json, mutate, field, message):
    bad = copy.deepcopy(deck_json)
    mutate(bad)
    with pytest.raises(InvalidInputError) as info:
        parse_deck(bad)
    assert info.value.field == field and message in str(info.value)


def test_unknown_character_is_an_unknown_card_error(deck_json):
    deck_json["cards"][5]["sun"]["characters"] = "Q"
    with pytest.raises(UnknownCardError):
        parse_deck(deck_json)


def test_deck_file_errors(tmp_path):
    with pytest.raises(InvalidInputError, match="cannot read deck file"):
        load_deck(str(tmp_path / "missing.json"))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(InvalidInputError, match="malformed JSON"):
        load_deck(str(broken))
    with pytest.raises(InvalidInputError, match="game.deck"):
        MemorinthGame(deck=str(broken))
