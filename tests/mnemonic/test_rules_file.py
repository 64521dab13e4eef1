"""The rules data file: the shipped defaults load, and a bad file is rejected naming the key."""

import copy
import json

import pytest

from solver.errors import InvalidInputError
from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.rules_file import SPEC, default_rules, load_rules, rules_from_json


def test_defaults_cover_every_setting_and_round_trip():
    rules = default_rules()
    assert set(rules.values) == set(SPEC)
    assert rules_from_json(rules.to_json()).values == rules.values
    assert rules["joker"] == "no-suit" and rules["help.extraDice"] == 0 and rules["group.nobodyRolls"] == "draw"


def edit(path, value):
    obj = copy.deepcopy(default_rules().to_json())
    node = obj
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return obj


@pytest.mark.parametrize("path,value,field", [
    (("format",), "v2", "rules.format"),
    (("joker",), "sometimes", "rules.joker"),
    (("help", "extraDice"), 9, "rules.help.extraDice"),
    (("help", "extraDice"), True, "rules.help.extraDice"),
    (("help", "colour"), 1, "rules.help.colour"),
    (("group", "maxAttempts"), KeyError, "rules.group.maxAttempts"),
    (("skills", "minRating"), 6, "rules.skills.minRating"),
    (("learning", "rating"), 9, "rules.learning.rating"),
    (("skillNames", "hearts"), [], "rules.skillNames.hearts"),
    (("skillNames", "stars"), ["Glow"], "rules.skillNames.stars"),
])
def test_bad_rules_name_the_key(path, value, field):
    with pytest.raises(InvalidInputError) as info:
        rules_from_json(edit(path, value))
    assert info.value.field == field


def test_a_rules_file_changes_the_game(tmp_path):
    path = tmp_path / "house.json"
    path.write_text(json.dumps(edit(("joker",), "wild")))
    assert MnemonicGame(rules=str(path)).rules["joker"] == "wild"
    with pytest.raises(InvalidInputError, match="cannot read"):
        load_rules(str(tmp_path / "missing.json"))


def test_state_overrides_are_validated(game):
    obj = {"mode": "deck-burner", "players": [{"skills": []}], "rules": {"group.maxAttempts": 7}}
    with pytest.raises(InvalidInputError) as info:
        game.state_from_json(obj)
    assert info.value.field == "state.rules.group.maxAttempts"
