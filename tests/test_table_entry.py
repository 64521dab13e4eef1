"""Real-table entry that matches a real table (issue 22, section 3), on every registered game: a player never
enters a card they have not seen (a forced masked entry such as ``card ?`` is entered for them by ``apply``, records
and the service), older records and scripts that enter it still replay; the command line's view of a record needs no
``--player``, a move off the board says so, and a move that waits for an outcome says what it waits for."""

from __future__ import annotations

import json

import numpy as np
import pytest

from solver import service
from solver.cli import main
from solver.game import forced_entry
from solver.record import Record
from solver.registry import game_names, load_game

STEPS = 120


def tables() -> list[str]:
    out = []
    for name in game_names():
        try:
            load_game(name).new_table(0)
        except Exception:       # noqa: BLE001 - a game without a real-table start has nothing to enter
            continue
        out.append(name)
    return out


def typed_game(name: str, seed: int = 0) -> tuple[list[str], int, object, object]:
    """A seeded walk through a real table as player 0 enters it: the entries typed, the entries made for the
    player, the start and the end."""
    game = load_game(name)
    start = game.new_table(0)
    view = start.clone()
    rng = np.random.default_rng(seed)
    typed, implicit = [], 0
    for _ in range(STEPS):
        while (forced := forced_entry(view)) is not None:      # what apply does for the player
            view.apply_move(forced)
            implicit += 1
        if view.is_terminal():
            break
        moves = view.legal_moves()
        text = moves[int(rng.integers(len(moves)))]
        typed.append(text)
        view.apply_move(text)
    return typed, implicit, start, view


@pytest.mark.parametrize("name", tables())
def test_a_player_enters_no_card_they_have_not_seen(name):
    game = load_game(name)
    typed, implicit, start, end = typed_game(name)
    print(f"{name}: {len(typed)} entries typed, {implicit} masked entries made for the player")
    applied = game.apply(start, typed)
    assert forced_entry(applied) is None
    replayed = service.apply_moves(game, start, typed)
    assert replayed.to_json() == applied.to_json()
    final = Record.start_of(start).extended(typed, stamp=False).final_position(game)
    assert game.apply(final, []).to_json() == applied.to_json()     # the record replays without them
    for i in range(len(typed)):      # no typed entry is one the player had to make blind
        assert forced_entry(game.apply(start, typed[:i])) is None or not typed[i].endswith("?")


def test_aetherya_setup_takes_no_card_entry_for_the_cards_dealt_face_down():
    """The issue's 24 'card ?': entered for the player, and an older record that holds them replays the same."""
    typed, implicit, start, end = typed_game("aetherya", seed=1)
    assert implicit >= 24 and not any(t == "card ?" for t in typed)
    game = load_game("aetherya")
    explicit = []
    view = start.clone()
    for text in typed:
        while (forced := forced_entry(view)) is not None:
            explicit.append(forced)
            view.apply_move(forced)
        explicit.append(text)
        view.apply_move(text)
    assert game.apply(start, explicit).to_json() == game.apply(start, typed).to_json()


# ---------------------------------------------------------------------------------------------- the command line
def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_view_of_a_record_needs_no_player(tmp_path, capsys):
    path = str(tmp_path / "game.jsonl")
    spec = "forgotten(width=4,height=3)"
    assert run(capsys, "forgotten", "new", "--table", "--player", "1", "--game", spec, "--record", path)[0] == 0
    code, out, err = run(capsys, "forgotten", "view", path, "--game", spec)
    assert code == 0 and out.startswith("view:1 ")
    code, out, err = run(capsys, "forgotten", "view", load_game(spec).new_game(1).to_notation(), "--game", spec)
    assert code == 1 and "--player" in err and "full state" in err


def test_a_move_off_the_board_says_so(capsys):
    code, out, err = run(capsys, "forgotten", "apply", "view:0 ????/@??@/???? 0 first", "flip 9,9",
                         "--game", "forgotten(width=4,height=3)")
    assert code == 1 and "off the 4x3 board" in err
    memorinth = service.position_of(load_game("memorinth"), json.loads(json.dumps(
        load_game("memorinth").new_game(3).view(0).to_json())))
    code, out, err = run(capsys, "memorinth", "apply", memorinth.to_notation(), "flip f1")
    assert code == 1 and "off the 5x5 board" in err


def test_a_move_that_waits_for_an_outcome_says_what_it_waits_for(capsys):
    code, out, err = run(capsys, "forgotten", "apply", "view:0 ????/@??@/???? 0 first", "flip 1,1",
                         "--game", "forgotten(width=4,height=3)")
    assert code == 0 and out.strip().endswith("flipped 1,1")
    assert "waiting for the tile flipped on 1,1" in err and "shows" in err
    answer = service.answer(service.ApplyRequest(game=load_game("forgotten(width=4,height=3)"),
                                                 position=load_game("forgotten(width=4,height=3)").parse_position(
                                                     "view:0 ????/@??@/???? 0 first"), moves=("flip 1,1",)))
    assert "tile flipped on 1,1" in answer.to_json()["waitingFor"]
