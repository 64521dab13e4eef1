"""Views (FG-13, FG-16): what the players know, advanced at a real table; hints, samples and records on views."""

from __future__ import annotations

import json
from itertools import permutations

import numpy as np
import pytest

from solver.errors import IllegalMoveError, ImpossibleStateError, InvalidInputError, InvalidMoveError
from solver.forgotten.tiles import LETTERS
from solver.forgotten.view import ForgottenView
from solver.forgotten.knowledge import find_world
from solver.game import CHANCE_PLAYER
from solver.kernels import forgotten as kernel
from solver.record import Record, record_from_lines
from solver.registry import load_game
from solver.review import review
from solver.search import Limits, SearchContext
from solver import contract

SMALL = "forgotten(width=4,height=3)"            # 5 pairs on every cell but the Brains


def ctx(nodes: int = 300, seed: int = 1) -> SearchContext:
    return SearchContext(limits=Limits(nodes=nodes), seed=seed)


def play_out(spec: str, seed: int, policy: int = 0, observer: int = 0):
    """A seeded game: ``(start, state moves, the observer's entries, [(state, view) after each step])``.

    The entries are what the observer types at the table: the same moves, ``shows L`` after a flip of a tile
    nobody had seen, and ``erase x,y lost`` when the roll ends a game the view could not know was lost."""
    game = load_game(spec)
    state = game.new_game(seed)
    start = state.clone()
    view = state.view(observer)
    rng = np.random.default_rng(seed)
    board = state.board
    moves, entries, steps = [], [], []
    while not state.is_terminal():
        if state.is_chance_node():
            action = int(rng.integers(board.cells))
            text = state.action_to_string(action)
            state.apply_action(action)
            typed = [text + " lost" if state.phase == "lost" and not view.child(text).is_terminal() else text]
        else:
            first = state.first if state.phase == "second" else -1
            action = kernel.policy_move(board.width, board.height, *board.brains, *state.arrays(), first,
                                        policy, int(rng.integers(1 << 30)))
            text = state.action_to_string(action)
            unseen = not state.seen[action]
            state.apply_action(action)
            typed = [text] + ([f"shows {LETTERS[state.tiles[action]]}"] if unseen else [])
        for entry in typed:
            view.apply_move(entry)
        moves.append(text)
        entries += typed
        steps.append((state.clone(), view.clone()))
    return start, moves, entries, steps


# -- JSON and notation -----------------------------------------------------------------------------------------------
def test_fg13_views_round_trip_through_json_and_notation():
    game = load_game("forgotten")
    state = game.new_game(3)
    for move in ("flip 1,1", "flip 2,1", "flip 3,3"):
        state.apply_move(move)
    view = state.view(1)
    data = view.to_json()
    assert data == {"view": 1, **state.observation(1)} and data["phase"] == "second"
    assert view.to_notation().startswith("view:1 ") and "?" in view.to_notation()
    for text in (view.to_notation(), data, json.dumps(data)):
        again = game.parse_position(text)
        assert isinstance(again, ForgottenView) and again.to_json() == data
    waiting = view.child("flip 4,4")
    assert waiting.to_json()["flipped"] == "4,4" and waiting.to_notation().endswith(" flipped 4,4")
    assert game.parse_position(waiting.to_notation()).to_json() == waiting.to_json()
    assert game.parse_position(waiting.to_json()).to_notation() == waiting.to_notation()
    # the observation (no "view" key) is what the players know: it reads as the view of the player to move
    seen = game.parse_position(state.observation(0))
    assert isinstance(seen, ForgottenView) and seen.view(1).to_json() == data
    assert game.view_from_json(data).view(0).to_json() == state.view(0).to_json()   # both know the same (FG-13)


@pytest.mark.parametrize("payload, field, text", [
    ({"view": 0, "board": ["abcd", "@ab@", "cdee"], "turn": 0, "phase": "first"}, "state.board", "'?'"),
    ({"view": 2, "board": ["????", "@??@", "????"], "turn": 0, "phase": "first"}, "state.view", "at most 1"),
    ({"view": 0, "board": ["????", "@??@", "????"], "turn": 0, "phase": "first", "seen": 1}, "state.seen", "unknown"),
    ({"view": 0, "board": ["????", "@??@", "????"], "turn": 0, "phase": "erase", "flipped": "1,1"}, "state.phase",
     "Erasure"),
    ({"view": 0, "board": ["A???", "@??@", "????"], "turn": 0, "phase": "second", "first": "1,1", "flipped": "1,1"},
     "state.flipped", "nobody has seen"),
    ("view:0 ????/@??@/???? 0 first flipped 9,9", "state", "off the 4x3 board"),
    ("view:7 ????/@??@/???? 0 first", "state", "players 0 and 1"),
])
def test_bad_views_name_the_field(payload, field, text):
    with pytest.raises((InvalidInputError, ImpossibleStateError)) as err:
        load_game(SMALL).parse_position(payload)
    assert err.value.field == field and text in str(err.value)


# -- entering what happens at the table (FG-16) ---------------------------------------------------------------------
def test_fg16_a_flip_then_the_tile_it_shows():
    game = load_game(SMALL)
    view = game.new_table(0)
    assert view.to_notation() == "view:0 ????/@??@/???? 0 first"
    assert view.legal_moves() == game.new_game(0).view(0).legal_moves()     # the same strings as on a state
    view.apply_move("flip 2,2")
    assert view.current_player() == CHANCE_PLAYER and view.legal_moves() == [f"shows {x}" for x in "ABCDE"]
    view.apply_move("shows C")
    assert view.to_notation() == "view:0 ????/@C?@/???? 0 second 2,2"
    view.apply_move("flip 3,1")
    view.apply_move("C")                                      # the bare letter is accepted too
    assert view.to_notation() == "view:0 ??+C?/@+C?@/???? 1 first"
    view.apply_move("flip 2,1")
    assert "shows C" not in view.legal_moves()                # both C tiles are face up
    view.apply_move("shows A")
    view.apply_move("flip 3,2")
    view.apply_move("shows B")
    assert view.to_notation() == "view:0 ?A+C?/@+CB@/???? 2 erase"
    assert view.legal_moves()[:2] == ["erase 1,1", "erase 2,1"]
    view.apply_move("erase 4,3")
    assert view.to_notation() == "view:0 ?A+C?/@+CB@/???-? 2 first"


@pytest.mark.parametrize("moves, bad, reason", [
    (["flip 2,2", "shows C", "flip 3,1", "shows C", "flip 1,1"], "shows C", "both tiles of pair C"),
    (["flip 2,2", "shows C", "flip 3,1", "shows D", "flip 1,1"], "shows F", "no pair F in a game of 5 pairs"),
    (["flip 2,2", "shows C", "flip 3,1", "shows D", "flip 1,1"], "shows", "'shows L'"),
    (["flip 2,2", "shows C", "flip 3,1", "shows D", "flip 1,1", "shows C", "flip 2,1"], "shows C",
     "both tiles of pair C"),
    (["flip 2,2", "shows A", "flip 3,1", "shows B", "flip 1,1", "shows C", "flip 2,1", "shows D"], "erase 5,1",
     "the dice show x 1-4"),
    (["flip 2,2", "shows A", "flip 3,1", "shows B", "flip 1,1", "shows C", "flip 2,1", "shows D"], "erase 1,1 lost",
     "cannot be lost by this roll"),
    (["flip 2,2"], "flip 3,1", "shows L"),
    ([], "shows A", "no tile is waiting"),
    ([], "flip 1,2", "a Brain Tile"),
    (["flip 2,2", "shows A"], "flip 2,2", "already flipped this turn"),
])
def test_fg16_impossible_outcomes_are_refused_with_the_field(moves, bad, reason):
    game = load_game(SMALL)
    view = game.apply(game.new_table(0), moves)
    with pytest.raises((IllegalMoveError, InvalidMoveError)) as err:
        game.apply(view, [bad])
    assert err.value.field == "moves[0]" and reason in str(err.value)


def test_fg16_a_roll_ends_the_game_when_no_route_is_left_whatever_the_unseen_tiles():
    game = load_game("forgotten(width=3,height=3,pairs=3,erasure=turn)")
    # on a board 3 wide every tile of the middle column touches both Brains (FG-5): 2,2 is the last one
    view = game.parse_position("view:0 ?-??/@?@/?.? 2 erase")
    assert "erase 2,2" in view.legal_moves() and "erase 2,2 lost" not in view.legal_moves()
    view.apply_move("erase 2,2")
    assert view.is_terminal() and view.to_notation() == "view:0 ?-??/@-?@/?.? 2 lost" and view.returns() == [0, 0]


def test_fg14_fg16_a_rolls_ending_is_judged_by_the_views_own_game_whatever_was_asked_before():
    """A roll's ending is kept for positions asked again (a table server asks at every request): the same view
    under goal=path and goal=clear has different rolls that may end the game, asked in turn."""
    lost = {"path": ["4,1", "3,2", "1,3", "2,3"], "clear": ["2,3"]}
    for goal in ("path", "clear", "path", "clear"):
        game = load_game(f"forgotten(width=4,height=3,erasure=turn,goal={goal})")
        view = game.parse_position("view:0 AA?B/@-??@/D+C-?-C 4 erase")
        moves = view.legal_moves()
        assert [m.split()[1] for m in moves if m.endswith(" lost")] == lost[goal]
        assert len(moves) == 12 + len(lost[goal])


def test_fg11_fg16_a_loss_only_the_game_could_see_is_entered_with_lost():
    start, moves, entries, steps = play_out(SMALL, 5)
    assert any(e.endswith(" lost") for e in entries)           # this game ended on a roll the view could not judge
    final_state, final_view = steps[-1]
    assert final_state.phase == "lost" and final_view.to_json() == final_state.view(0).to_json()


# -- the view follows the game, records replay -----------------------------------------------------------------------
@pytest.mark.parametrize("spec, seed, policy", [(SMALL, 5, 0), (SMALL, 2, 2), ("forgotten", 4, 2)])
def test_a_views_entries_follow_the_game_and_both_records_replay(spec, seed, policy):
    start, moves, entries, steps = play_out(spec, seed, policy)
    for state, view in steps:
        assert view.to_json() == state.view(0).to_json()
    game = load_game(spec)
    full = Record.start_of(start).extended(moves, stamp=False)
    table = Record.start_of(game.new_table(0)).extended(entries, stamp=False)
    final_state = record_from_lines(full.to_lines()).final_position(game)
    final_view = record_from_lines(table.to_lines()).final_position(game)
    assert final_state.to_json() == steps[-1][0].to_json()
    assert final_view.to_json() == final_state.view(0).to_json()


# -- samples and hints read only the view ----------------------------------------------------------------------------
def test_fg13_resample_keeps_the_view_and_is_the_states_resample():
    for state, view in play_out("forgotten", 8, 2)[3][3:40:6]:
        for player in (0, 1):
            a = state.resample_from_observation(player, np.random.default_rng(5))
            b = state.view(player).resample(np.random.default_rng(5))
            assert a.to_json() == b.to_json() and a.view(player).to_json() == state.view(player).to_json()
    waiting = load_game(SMALL).new_table(0).child("flip 2,2")
    world = waiting.resample(np.random.default_rng(0))       # drawn before the flip, then the flip is played
    assert world.phase == "second" and world.first == 5 and world.view(0).to_json() == \
        waiting.child(f"shows {LETTERS[world.tiles[5]]}").to_json()


def test_fg13_a_hint_on_a_state_is_the_hint_on_its_view_and_ignores_the_hidden_tiles():
    game = load_game("forgotten")
    steps = play_out("forgotten", 11, 2)[3]
    for state, _ in steps[2:30:9]:
        if state.is_terminal():
            continue
        for player in (0, 1):
            on_state = contract.hint(game, state, ctx(), player=player).to_json()
            assert on_state == contract.hint(game, state.view(player), ctx()).to_json()
        other = state.resample_from_observation(0, np.random.default_rng(2))
        assert other.to_json() != state.to_json() and other.view(0).to_json() == state.view(0).to_json()
        on_other = contract.hint(game, other, ctx(), player=0).to_json()
        assert on_other == contract.hint(game, state, ctx(), player=0).to_json()


def test_a_hint_asked_for_every_move_values_every_legal_move_with_an_interval():
    view = load_game(SMALL).parse_position("view:0 C?B?/@???@/???? 1 first".replace("@???@", "@??@"))
    result = contract.hint(load_game(SMALL), view, ctx(600), top=1000)
    assert {m.move for m in result.move_infos} == set(view.legal_moves())
    assert result.root_info["rollouts"] <= 600
    for info in result.move_infos:
        lo, hi = info.extra["valueCI"]
        assert lo <= info.value <= hi


def test_review_finds_a_planted_blunder():
    game = load_game("forgotten(width=4,height=3,erasure=turn)")
    # the known pair B on 2,2 and 3,2 links the Brains; after flipping 2,2, flipping 1,3 instead of 3,2 leaves an
    # Erasure roll that may take 2,2 or 3,2 (2 rolls in 12): the blunder costs about 1/6
    start = game.parse_position("view:0 -?-?-?-?/@BB@/?-?-?-? 8 first")
    record = Record.start_of(start).extended(["flip 2,2", "flip 1,3", "shows A"], stamp=False)
    result = review(game, record, None, Limits(nodes=400))
    assert [d["turn"] for d in result["decisions"]] == [0, 1] and result["decisions"][0]["valueLost"] == 0
    blunder = result["mistakes"][0]
    assert (blunder["turn"], blunder["played"], blunder["best"]) == (1, "flip 1,3", "flip 3,2")
    assert 0.1 < blunder["valueLost"] < 0.25 and blunder["valueLostCI"][0] > 0
    assert blunder["grade"] == "blunder" and blunder["lossCI"][0] > 0 and blunder["loss"] == 100 * blunder["valueLost"]
    assert blunder["gameTurn"] == "turn 8, second flip" and result["lossUnit"] == "percentage points"


# -- the exact world search behind the views --------------------------------------------------------------------------
def brute_force(state, alive: bool) -> bool:
    slots = state.hidden_cells()
    for order in set(permutations([state.tiles[c] for c in slots])):
        probe = state.clone()
        for c, tile in zip(slots, order):
            probe.tiles[c] = tile
        if probe.alive() == alive:
            return True
    return False


def test_the_world_search_agrees_with_every_arrangement_of_the_unseen_tiles():
    checked = 0
    for spec in ("forgotten(width=3,height=4,erasure=turn)", "forgotten(width=4,height=3,pairs=4,erasure=turn)"):
        for seed in range(8):
            for state, view in play_out(spec, seed)[3]:
                known = view.known
                if not 0 < len(known.hidden_cells()) <= 7:
                    continue
                for alive in (True, False):
                    world = find_world(known, alive)
                    assert (world is not None) == brute_force(known, alive), (known.to_notation(), alive)
                    if world is not None:
                        probe = known.clone()
                        probe.tiles = world
                        assert probe.alive() == alive and probe.view(0).to_json() == known.view(0).to_json()
                checked += 1
    assert checked > 20


def test_fg16_an_8x8_table_enters_pairs_after_z_as_a2_to_e2():
    """The 8x8 board's pairs 27-31 are A2..E2 (issue 16 item 6) in a view's entries and pictures too."""
    from solver.forgotten.picture import Board
    game = load_game("forgotten(width=8,height=8)")
    view = game.new_table(0)
    view.apply_move("flip 1,1")
    assert "shows E2" in view.legal_moves() and len(view.legal_moves()) == 31
    view.apply_move("shows c2")                    # case does not matter, as for single letters
    assert view.known.to_notation().split("/")[0].startswith("C2")
    bad = view.clone()
    bad.apply_move("flip 2,1")
    with pytest.raises(IllegalMoveError, match="no pair F2"):
        bad.apply_move("shows F2")
    picture = Board(view.to_json()["board"])
    assert all(len(row) == 8 for row in picture.cells) and picture.cells[0][0] == "C2"
