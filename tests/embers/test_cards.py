"""The card model, the shipped default deck and user deck files (docs/formats/embers.md)."""

import json
from collections import Counter

import pytest

from solver.embers.cards import DEFAULT_DECK_PATH, SUITS, load_deck, parse_deck, pattern_mask, pattern_text
from solver.errors import InvalidInputError, UnknownCardError
from solver.registry import load_game


def test_EM1_default_deck_composition():
    """EM-1: 35 memory cards, each suit 1, 1, 2, 2, 3, 4, 5; five demons, one per suit; invented segments."""
    deck = load_deck()
    assert len(deck.memory) == 35
    for suit in range(5):
        assert sorted(c.strength for c in deck.memory if c.suit == suit) == [1, 1, 2, 2, 3, 4, 5]
    assert sorted(d.suit for d in deck.demons) == list(range(5))
    assert not deck.printed
    blocked = Counter(bin(c.blocked).count("1") for c in deck.memory)
    assert blocked == {1: 10, 2: 15, 3: 10}  # every card has a blocked segment, none is fully blocked
    assert {c.id for c in deck.characters} == {"aelin-prologue", "rowan", "fenrys", "aelin"}


def test_EM1_patterns_round_trip():
    """EM-1: pattern strings list the quarters top-left, top-right, bottom-left, bottom-right."""
    for mask in range(16):
        assert pattern_mask(pattern_text(mask), "p") == mask
    assert pattern_mask("#..#", "p") == 0b1001


def _default_json():
    return json.loads(DEFAULT_DECK_PATH.read_text())


@pytest.mark.parametrize("mutate, field, fragment", [
    (lambda d: d["memory"][3].update(id="C1a"), "deck.memory[3].id", "used twice"),
    (lambda d: d["memory"][0].update(suit="Swords"), "deck.memory[0].suit", "unknown suit"),
    (lambda d: d["memory"][0].update(blocked="#.x."), "deck.memory[0].blocked", "four characters"),
    (lambda d: d["memory"][0].update(strength=9), "deck.memory[0].strength", "at most"),
    (lambda d: d["memory"][0].update(colour="red"), "deck.memory[0].colour", "unknown key"),
    (lambda d: d["demons"][1].update(suit="Chains"), "deck.demons[1].suit", "one demon per suit"),
    (lambda d: d.update(format="other"), "deck.format", "embers-deck"),
    (lambda d: d.update(memory=[]), "deck.memory", "at least 1"),
])
def test_bad_deck_files_name_the_field(mutate, field, fragment):
    """A malformed deck file raises an error naming the dotted field."""
    data = _default_json()
    mutate(data)
    with pytest.raises(InvalidInputError) as err:
        parse_deck(data)
    assert err.value.field == field
    assert fragment in str(err.value)


def test_a_user_deck_file_is_loaded_by_the_game(tmp_path):
    """A printed deck typed by a user is used by ``embers(deck=PATH)``."""
    data = _default_json()
    data["name"] = "my printed deck"
    data["printed"] = True
    data["memory"][0]["blocked"] = "####"
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data))
    game = load_game(f"embers(deck={path})")
    assert game.deck.name == "my printed deck" and game.deck.memory[0].blocked == 15
    state = game.new_initial_state(3)
    assert state.to_json()["deck"]


def test_unreadable_deck_files(tmp_path):
    """Missing files and malformed JSON are reported on the game.deck parameter."""
    with pytest.raises(InvalidInputError) as err:
        load_game(f"embers(deck={tmp_path / 'missing.json'})")
    assert err.value.field == "game.deck"
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(InvalidInputError) as err:
        load_game(f"embers(deck={bad})")
    assert "malformed JSON" in str(err.value)


def test_unknown_card_names():
    """Unknown card ids raise UnknownCardError."""
    with pytest.raises(UnknownCardError):
        load_deck().card("C9", "state.mind[0]")
    assert [s for s in SUITS] == ["Chains", "Daggers", "Flames", "Glass", "Stags"]
