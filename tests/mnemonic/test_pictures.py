"""The Mnemonic picture (issue 12): well-formed SVG, only what a view may show, hints and clicks on the table."""

from pathlib import Path

import numpy as np

from solver import contract
from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.picture import _box_of, draw, reachable
from solver.mnemonic.setup import new_table_state
from solver.mnemonic.view import catch_up, observed_entry
from solver.puzzles import generate
from solver.search import Limits, SearchContext
from solver.testing import click_targets as targets, printed_sheets, svg_root as parse

from .helpers import random_action, session_script

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[2]  # the checkout (the installed package has no docs)


def test_the_documented_pictures_are_what_their_commands_draw():
    script = session_script()
    for path, command in script.PICTURES.items():
        assert (ROOT / path).read_text(encoding="utf-8") == script.picture_of(command), path


def test_every_picture_is_svg_and_every_legal_move_has_a_click_target():
    for game in (MnemonicGame(players=2, mode="into-the-grey"), MnemonicGame(players=3)):
        rng = np.random.default_rng(5)
        state = new_table_state(game, game.params["players"], game.params["mode"], 5)
        view = state.view(1)
        for step in range(400):
            if state.is_terminal():
                break
            if step % 9 == 0:
                for position in (state, view):
                    names = targets(parse(contract.svg(game, position)))
                    for move in game.legal_moves(position):
                        assert reachable(move, names), (move, position.to_notation())
            action = random_action(state, rng)
            entry = observed_entry(state, action, 1)
            state.apply_action(action)
            view.apply_move(entry)
            catch_up(view, state)


def test_view_pictures_do_not_depend_on_the_hidden_cards():
    game = MnemonicGame(players=3, mode="into-the-grey")
    state = game.new_game(8)
    for move in game.legal_moves(state)[:1]:
        state.apply_move(move)
    view = state.view(2)
    rng = np.random.default_rng(0)
    pictures = set()
    for _ in range(4):
        other = view.resample(rng)
        assert other.to_json() != state.to_json()
        pictures.add(contract.svg(game, other.view(2)))
    assert pictures == {contract.svg(game, view)}
    assert contract.svg(game, state) != contract.svg(game, view)  # the full state shows every hand


def test_a_hints_top_move_is_marked_on_the_table():
    game = MnemonicGame(players=2, mode="into-the-grey")
    state = game.new_game(4)
    for move in ("play 2S", 'use "Sneak"', "roll 4"):
        state.apply_move(move)
    view = state.view(0)
    hint = contract.hint(game, view, SearchContext(limits=Limits(nodes=30_000)), top=3).to_json()
    top = hint["moveInfos"][0]["move"]
    pic = draw(game, view, hint)
    assert _box_of(pic, top) is not None
    svg = pic.doc.render()
    assert f"1. {top}" in svg and svg != contract.svg(game, view)


def test_puzzle_sheets_hold_every_puzzle(tmp_path):
    game = MnemonicGame()
    puzzles = list(generate(game, "best-call", "easy", seed=1, count=2))
    sheets, answers = printed_sheets(game, puzzles, tmp_path)
    for puzzle, (sheet, _) in zip(puzzles, sheets):
        assert puzzle["solution"] in answers.replace("&quot;", '"')
        assert puzzle["difficulty"] in sheet and puzzle["id"] in sheet
