"""Every game's picture takes the layout option (issue 22, a phone): ``show --svg --layout narrow`` on the command
line, ``"options": {"layout": "narrow"}`` in the engine. A game whose picture has a narrow layout draws it (Mnemonic:
about a phone's width with every text at least 12; Aetherya: one column; Memorinth, Embers and Forgotten: one column
356 wide, text at least 12); the others draw their wide picture; the wide picture is the one drawn without the
option."""

import io
import json
import re

import numpy as np
import pytest

from solver import contract
from solver.cli import main
from solver.drawing import svg
from solver.engine import Engine
from solver.registry import game_names, load_game

GAMES = list(game_names())
#: the narrow picture's width, where the game draws one
NARROW = {"mnemonic": 356, "aetherya": 272, "memorinth": 356, "embers": 356, "forgotten": 356}


def positions(game, count=12, seed=3):
    """A dealt game's first positions, each as the full state and player 0's view."""
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(count):
        if state.is_terminal():
            return
        yield state.clone()
        yield state.view(0)
        actions = state.legal_actions()
        state.apply_action(actions[int(rng.integers(len(actions)))])


def view_box(picture):
    return [float(v) for v in re.search(r'viewBox="([^"]+)"', picture).group(1).split()]


def font_sizes(picture):
    """The font size of every text with visible words."""
    return [float(size) for size, words in re.findall(r'<text[^>]*font-size="([0-9.]+)"[^>]*>([^<]*)</text>', picture)
            if words.strip()]


@pytest.mark.parametrize("name", GAMES)
def test_every_game_takes_the_layout_and_draws_wide_by_default(name):
    game = load_game(name)
    assert contract.picture_layouts(game)[0] == "wide"
    for position in positions(game, count=4):
        wide = svg(game, position)
        assert svg(game, position, layout="wide") == wide
        narrow = svg(game, position, layout="narrow")
        if name in NARROW:
            assert view_box(narrow)[2] == NARROW[name] < view_box(wide)[2]
        else:
            assert narrow == wide


@pytest.mark.parametrize("spec", ["mnemonic", "mnemonic(mode=into-the-grey,players=2)", "mnemonic(players=6)",
                                  "aetherya", "aetherya(players=4)", "aetherya(mode=objects,players=3)",
                                  "memorinth", "memorinth(variant=master,players=4)",
                                  "memorinth(chance_setup=true,players=3)", "embers", "embers(chapter=prologue)",
                                  "forgotten", "forgotten(width=8,height=8)"])
def test_the_narrow_text_is_at_least_12_px_on_a_phone(spec):
    """At 359 px (the board's frame on a 390 px phone) a narrow picture shows every text at 12 px or more with no
    zoom: drawn 359 px wide, its smallest font is 12 px."""
    game = load_game(spec)
    for position in positions(game, count=40):
        picture = svg(game, position, layout="narrow")
        width = view_box(picture)[2]
        assert width <= 359 and min(font_sizes(picture)) * 359 / width >= 12 - 1e-9


def test_the_narrow_picture_keeps_every_click_target_of_the_wide_one():
    for name in NARROW:
        game = load_game(name)
        for position in positions(game, count=10):
            targets = [set(re.findall(r'data-target="([^"]+)"', svg(game, position, layout=layout)))
                       for layout in ("wide", "narrow")]
            assert targets[0] == targets[1]


def test_the_layout_on_the_command_line_and_in_the_engine(capsys):
    state = load_game("mnemonic").new_initial_state(2).to_notation()
    assert main(["mnemonic", "show", state, "--svg", "--layout", "narrow"]) == 0
    assert 'viewBox="0 0 356 ' in capsys.readouterr().out
    assert main(["forgotten", "show", load_game("forgotten").new_initial_state(2).to_notation(), "--svg",
                 "--layout", "narrow"]) == 0
    assert capsys.readouterr().out.startswith("<?xml")
    assert main(["mnemonic", "show", state, "--svg", "--layout", "tiny"]) == 2
    assert "--layout" in capsys.readouterr().err
    out = io.StringIO()
    Engine(out, threads=1).serve([json.dumps({"id": 1, "action": "show", "game": "mnemonic", "state": state,
                                              "options": {"layout": "narrow"}}),
                                  json.dumps({"id": 2, "action": "show", "game": "embers",
                                              "state": load_game("embers").new_initial_state(1).to_json(),
                                              "options": {"layout": "tiny"}})])
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert 'viewBox="0 0 356 ' in first["svg"]
    assert second["field"] == "options.layout" and "tiny" in second["error"]


#: buttons a phone's picture draws a finger's size (40 tall), rather than only widening their tap area on the page
PHONE_BUTTONS = {"embers": {"draw", "stop"}, "forgotten": {"give up"}, "memorinth": {"pass"}}


@pytest.mark.parametrize("name", sorted(PHONE_BUTTONS))
def test_the_narrow_pictures_buttons_are_drawn_40_tall(name):
    """On a phone these buttons were drawn 20 to 26 tall and reached 40 px only through the web board's invisible
    tap areas; the narrow picture (drawn about 1:1 on a phone) now draws them 40 tall."""
    game = load_game(name)
    found = set()
    for position in positions(game, count=40):
        picture = svg(game, position, layout="narrow")
        for token, height in re.findall(r'<g data-target="([^"]+)" class="target"[^>]*>(?:<title>[^<]*</title>)?'
                                        r'<rect [^>]*height="([0-9.]+)"', picture):
            if token in PHONE_BUTTONS[name]:
                found.add(token)
                assert float(height) * 359 / view_box(picture)[2] >= 40, (token, height)
    assert found
