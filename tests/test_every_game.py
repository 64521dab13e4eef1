"""Checks every registered game passes: the state contract on random games, and the engine's hint contract."""

import json
from pathlib import Path

import pytest

import solver.registry
from solver.engine import Engine
from solver.registry import GAMES as GAMES_BY_PACKAGE, game_names, load_game
from solver.testing import TimedLines, first_decision, random_simulation

GAMES = game_names()


def test_every_game_folder_is_registered_and_every_registered_game_loads():
    """A game is its folder plus one registry line: the folders with a ``game.py`` and the registry agree."""
    folders = {path.parent.name for path in Path(solver.registry.__file__).parent.glob("*/game.py")}
    packages = {package.partition(":")[0] for package in GAMES_BY_PACKAGE.values()}
    assert {package.removeprefix("solver.") for package in packages if package.startswith("solver.")} == folders
    assert [load_game(name).name for name in GAMES] == GAMES


def test_the_pile_toy_game_passes_the_contract(pile_game):
    report = random_simulation(pile_game, games=5, seed=3)
    assert report.games == 5 and report.terminal == 5 and report.steps > 0


@pytest.mark.parametrize("name", GAMES)
def test_random_games_respect_the_state_contract(name):
    report = random_simulation(load_game(name), games=2, seed=11, check_every=7)
    assert report.games == 2


@pytest.mark.parametrize("name", GAMES)
def test_hint_response_contract(name):
    game = load_game(name)
    state = first_decision(game, seed=5)
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    out = TimedLines()
    engine = Engine(out)
    for qid, full in (("mine", False), ("seer", True)):
        engine.handle_line(json.dumps({"id": qid, "game": game.spec(), "action": "hint", "state": state.to_json(),
                                       "top": 2, "limits": {"time_ms": 500}, "fullInformation": full}))
    engine.close()
    responses = {r["id"]: r for r in out.answers() if not r.get("isDuringSearch")}
    for qid, full in (("mine", False), ("seer", True)):
        resp = responses[qid]
        assert "error" not in resp, resp
        infos = resp["moveInfos"]
        assert 1 <= len(infos) <= 2
        assert [m["order"] for m in infos] == list(range(len(infos)))
        for m in infos:
            assert m["move"] in legal, (m["move"], sorted(legal)[:10])
            assert m["pv"] and m["pv"][0] == m["move"]
            assert isinstance(m["why"], str) and m["why"]
            assert isinstance(m["value"], (int, float))
        assert resp["rootInfo"]["valueMeaning"]
        assert bool(resp["rootInfo"].get("fullInformation", False)) is full
