"""The start form in a real browser (issue 22): seats named as the game names its players (Embers' Fenrys and
Aelin, Rowan in the Prologue), and Mnemonic's characters entered seat by seat at a real table (MN-48) reaching
every seat's page; a mistyped character is refused naming the field."""

from __future__ import annotations

import pytest

from .test_board_ui import Page, engine


@pytest.fixture(scope="module")
def board(table_server):
    """The table server's address (tests/web/conftest.py)."""
    return table_server[0]


def seat_labels(p):
    return p.eval_on_selector_all("#seat option", "os => os.map(o => o.textContent)")


def test_the_seats_carry_the_games_own_player_names(board, tabs):
    games = {g["name"]: g for g in engine(board, {"action": "games"})["games"]}
    page = Page(tabs, board)
    p = page.page
    p.select_option("#game", "embers")
    assert seat_labels(p) == ["Fenrys (seat 0)", "Aelin (seat 1)"] == \
        [f"{name} (seat {i})" for i, name in enumerate(games["embers"]["playerNames"])]
    p.select_option("#mode", "prologue")  # Embers' chapter is its mode
    assert seat_labels(p) == ["Rowan (seat 0)", "Aelin (seat 1)"]
    p.select_option("#seat", "1")
    p.select_option("#mode", "one")
    assert seat_labels(p) == ["Fenrys (seat 0)", "Aelin (seat 1)"] and p.input_value("#seat") == "1"
    for name in ("aetherya", "forgotten", "memorinth", "mnemonic"):  # numbered seats: no names of their own
        p.select_option("#game", name)
        assert "playerNames" not in games[name]
        assert all(label.startswith("seat ") for label in seat_labels(p))
    p.select_option("#game", "aetherya")
    p.select_option("#mode", "solo")
    assert seat_labels(p) == ["seat 0"] and p.input_value("#players") == "1"
    page.close()


def test_mnemonic_players_enter_their_characters_at_a_real_table(board, tabs):
    page = Page(tabs, board)
    p = page.page
    p.select_option("#game", "mnemonic")
    p.fill("#players", "3")
    p.dispatch_event("#players", "change")
    fields = p.locator('#more-params fieldset[data-per-player="skills"] input[data-seat]')
    assert fields.count() == 3
    assert p.input_value('#more-params [data-parameter="skills"]') == ""   # untouched: the rule data's characters
    fields.nth(0).fill("H5 S2")
    fields.nth(2).fill("d4c1")
    assert p.input_value('#more-params [data-parameter="skills"]') == "H5S2/-/d4c1"
    p.fill("#players", "2")                                                     # one seat fewer: its entry goes
    p.dispatch_event("#players", "change")
    assert fields.count() == 2 and fields.nth(0).input_value() == "H5 S2"
    assert p.input_value('#more-params [data-parameter="skills"]') == "H5S2"
    fields.nth(1).fill("D4C1")
    p.select_option("#others", "devices")
    p.click("#table-start")
    page.idle()
    assert p.text_content("#start-message") == ""
    p.wait_for_selector("#table:not([hidden])", timeout=30_000)
    p.wait_for_selector("body[data-ready=true]", timeout=30_000)
    page.idle()
    seat = page.state()
    assert seat["game"] == "mnemonic(players=2,skills=H5S2/D4C1)"
    players = seat["view"]["players"]
    assert [(s["name"], s["rating"]) for s in players[0]["skills"]] == [("Fight With Hands", 5), ("Sneak", 2)]
    assert [(s["name"], s["rating"]) for s in players[1]["skills"]] == [("Bargain", 4), ("Endure", 1)]
    board_text = p.text_content("#board svg")
    assert "Fight With Hands" in board_text and "Endure" in board_text
    assert p.locator('#board [data-target="\\"Sneak\\""]').count() >= 1          # the skill chip on the board
    page.close()


def test_a_mistyped_character_is_refused_naming_the_seat(board, tabs):
    page = Page(tabs, board)
    p = page.page
    p.select_option("#game", "mnemonic")
    p.locator('#more-params input[data-seat="1"]').fill("H9")
    p.click("#table-start")
    p.wait_for_function("() => document.querySelector('#start-message').textContent.length > 0")
    message = p.text_content("#start-message")
    assert "game.skills[1]" in message and "between 1 and 5" in message
    assert p.is_hidden("#table")
    page.close()

