"""A seat's record (solver/record.py): what one seat types for every move of the full state, outcomes it did not
see as ``?``; and the entries each seat's view takes at a real table when another seat enters a move.

Random play on every registered game (and the modes and player counts that change who sees what): the seat's
record replays to ``state.view(seat)`` after every move, and for every move some seat can enter it at a real
table so that every other seat's view reaches its true view.
"""

import numpy as np
import pytest

from solver.errors import IllegalMoveError
from solver.record import entry_for, seat_entries, seat_record
from solver.registry import game_names, load_game
from solver.testing import random_action

#: besides every game's default: the modes and player counts that change who sees what
VARIANTS = ["aetherya(players=1,mode=solo)", "aetherya(mode=objects,players=3)", "embers(chapter=prologue)",
            "memorinth(players=3,variant=master)", "mnemonic(players=3)"]
#: moves per game (each move costs a view per seat; Forgotten's views are the slowest)
STEPS = 160


def seats_of(game):
    return game.params[game.PLAYERS_PARAMETER] if game.PLAYERS_PARAMETER else game.min_players


def random_moves(game, seed, steps=STEPS):
    """The states and moves of a seeded random game (chance drawn by its probabilities)."""
    state = game.new_game(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        action = random_action(state, rng)
        move = state.action_to_string(action)
        after = state.clone()
        after.apply_action(action)
        yield state, move, after
        state = after


@pytest.mark.parametrize("spec", game_names() + VARIANTS)
def test_a_seats_entries_reach_its_true_view_after_every_move(spec):
    game = load_game(spec)
    seats = range(seats_of(game))
    views = None
    masked = 0
    for before, move, after in random_moves(game, seed=1):
        views = views or [before.view(seat) for seat in seats]
        for seat in seats:
            entries = seat_entries(before, move, views[seat], after)
            masked += any("?" in entry for entry in entries)
            for entry in entries:
                views[seat].apply_move(entry)
            assert views[seat].to_json() == after.view(seat).to_json(), (spec, move, seat, entries)
    assert views is not None


@pytest.mark.parametrize("spec", game_names())
def test_a_seats_record_replays_to_its_view_and_holds_no_hidden_card(spec):
    game = load_game(spec)
    played = list(random_moves(game, seed=2, steps=60))
    start, moves = played[0][0], [move for _, move, _ in played]
    for seat in range(seats_of(game)):
        record = seat_record(start, moves, seat)
        assert record.observer == seat
        assert record.start == start.view(seat).to_json()
        final = record.final_position(game)
        assert final.to_json() == played[-1][2].view(seat).to_json()


def test_a_record_that_saw_an_outcome_masked_says_so():
    """Aetherya deals the kingdoms' cards face down: every seat types ``card ?`` for them."""
    game = load_game("aetherya")
    played = list(random_moves(game, seed=1, steps=30))
    start, moves = played[0][0], [move for _, move, _ in played]
    entries = [m.move for m in seat_record(start, moves, 0).moves]
    assert "card ?" in entries
    assert not any(m.startswith("card ") and m != "card ?" for m in entries[:20])


@pytest.mark.parametrize("spec", game_names() + VARIANTS[:2])
def test_at_a_real_table_some_seat_can_enter_each_move_for_everyone(spec):
    """For each move of a random game, the seat that sees the most enters its own entries; every other seat's view
    takes them (:func:`entry_for`) and reaches its true view."""
    game = load_game(spec)
    seats = list(range(seats_of(game)))
    views = None
    for before, move, after in random_moves(game, seed=3, steps=100):
        views = views or [before.view(seat) for seat in seats]
        entries = {seat: seat_entries(before, move, views[seat], after) for seat in seats}
        enterers = [seat for seat in seats if _enters_for_everyone(views, seat, entries[seat], after)]
        assert enterers, (spec, move, entries)
        for seat in seats:
            for entry in entries[seat]:
                views[seat].apply_move(entry)
    assert views is not None


def _enters_for_everyone(views, enterer, entries, after):
    mine = views[enterer].clone()
    others = {seat: view.clone() for seat, view in enumerate(views) if seat != enterer}
    try:
        for entry in entries:
            outcome = mine.is_chance_node()
            mine.apply_move(entry)
            for view in others.values():
                taken = entry_for(view, entry, outcome)
                if taken is not None:
                    view.apply_move(taken)
    except IllegalMoveError:
        return False
    return all(view.to_json() == after.view(seat).to_json() for seat, view in others.items())


def test_a_seat_cannot_enter_another_seats_private_draw_masked():
    """Aetherya's start cards at a real table: player 0 enters their own four (``card P``), player 1's view takes
    them as ``card ?``; player 0 cannot enter player 1's cards as ``card ?``: player 1 sees them and enters them."""
    game = load_game("aetherya")
    views = [game.new_table(0), game.new_table(1)]
    while views[0].legal_moves() == views[1].legal_moves():  # the legend row, public
        entry = views[0].legal_moves()[0]
        outcome = views[0].is_chance_node()
        views[0].apply_move(entry)
        views[1].apply_move(entry_for(views[1], entry, outcome))
    assert views[1].legal_moves() == ["card ?"]
    for _ in range(4):
        own = views[0].legal_moves()[0]
        assert entry_for(views[1], own, True) == "card ?"
        views[0].apply_move(own)
        views[1].apply_move("card ?")
    assert views[0].legal_moves() == ["card ?"] and "card ?" not in views[1].legal_moves()
    with pytest.raises(IllegalMoveError, match="player 1 sees this differently"):
        entry_for(views[1], "card ?", True)
