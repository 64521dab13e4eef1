"""The rules of Forgotten, one test (at least) per rule and interpretation of docs/rules/forgotten.md."""

from __future__ import annotations

import numpy as np
import pytest

from solver.errors import IllegalMoveError, ImpossibleStateError, InvalidMoveError, UnknownGameError
from solver.forgotten.board import Board, all_placements, default_brains, parse_brains
from solver.forgotten.tiles import DOWN, REMOVED, UP
from solver.forgotten.state import GIVE_UP
from solver.game import CHANCE_PLAYER, TERMINAL_PLAYER
from solver.registry import load_game

SMALL = "forgotten(width=3,height=3,pairs=3)"       # Brains (1,2) and (3,2); any middle tile links them
NARROW = "forgotten(width=5,height=3,pairs=6)"      # Brains (1,2) and (5,2); a route needs three tiles
START3 = "ab./@c@/abc 0 first"                      # 3x3: c on (2,2) and (3,3)


def cells(board: Board, *names: str) -> int:
    return sum(1 << board.parse(n, "cell") for n in names)


# -- FG-1: the board and its coordinates --------------------------------------------------------------
def test_fg1_cells_are_named_by_the_dice():
    board = Board(6, 6, default_brains(6, 6))
    assert board.parse("3,4", "cell") == (4 - 1) * 6 + (3 - 1)
    assert board.name(board.parse("(6, 1)", "cell")) == "6,1"
    assert board.parse("25", "cell") == board.parse("2,5", "cell")
    with pytest.raises(Exception, match="off the 6x6 board"):
        board.parse("7,1", "cell")


def test_fg1_erasure_rolls_name_every_cell_once(play):
    state = play(SMALL, START3, "flip 1,1", "flip 2,1", "flip 1,1", "flip 2,1")
    assert state.current_player() == CHANCE_PLAYER
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(9))
    assert all(p == pytest.approx(1 / 9) for _, p in outcomes)
    assert state.action_to_string(5) == "erase 3,2"


# -- FG-2: Brain placement ------------------------------------------------------------------------------
def test_fg2_brains_go_on_opposite_sides():
    assert parse_brains("13-64", 6, 6, "b") == (12, 23)
    assert parse_brains("31-36", 6, 6, "b") == (2, 32)       # top row and bottom row
    assert parse_brains("11-66", 6, 6, "b") == (0, 35)       # corners belong to both of their sides
    for bad in ("13-53", "13-14", "22-55", "13-13"):
        with pytest.raises(Exception):
            parse_brains(bad, 6, 6, "b")
    placements = all_placements(6, 6)
    assert len(placements) == 36 + 36 - 2   # left/right plus top/bottom, the two corner diagonals counted once


def test_fg2_brains_parameter_and_state_placement():
    game = load_game("forgotten(brains=31-46)")
    state = game.new_initial_state(1)
    assert [state.board.name(c) for c in state.board.brains] == ["3,1", "4,6"]
    with pytest.raises(UnknownGameError, match="game.brains"):
        load_game("forgotten(brains=31-45)")
    with pytest.raises(ImpossibleStateError, match="opposite sides"):
        load_game(SMALL).state_from_notation("@ab/@ca/bc. 0 first")


# -- FG-3: setup ----------------------------------------------------------------------------------------
def test_fg3_the_deal_fills_every_cell_but_the_brains(game6):
    state = game6.new_initial_state(5)
    tiles = [t for t in state.tiles if t >= 0]
    assert sorted(tiles) == sorted(list(range(17)) * 2)
    assert all(state.status[c] == DOWN for c in range(36) if c not in state.board.brains)
    assert not any(state.seen)
    assert state.to_notation() == game6.new_initial_state(5).to_notation()
    assert state.to_notation() != game6.new_initial_state(6).to_notation()


def test_fg3_fewer_pairs_leave_known_empty_cells():
    game = load_game("forgotten(width=4,height=4,pairs=5)")
    state = game.new_initial_state(2)
    assert sum(t >= 0 for t in state.tiles) == 10
    assert sum(row.count(".") for row in state.observation(0)["board"]) == 4


# -- FG-4: pairs ------------------------------------------------------------------------------------------
def test_fg4_a_pair_is_two_tiles_with_one_letter(play):
    state = play(SMALL, "Ab./@c@/abc 1 first", "flip 1,3", "flip 1,1")
    assert state.status[0] == UP and state.status[6] == UP          # seen A and unseen a are one pair
    other = play(SMALL, "Ab./@c@/abc 1 first", "flip 2,1", "flip 1,1")
    assert other.status[0] == DOWN and other.status[1] == DOWN


# -- FG-5: paths and the diagonal exception -------------------------------------------------------------
def test_fg5_diagonal_only_off_and_onto_a_brain():
    board = Board(4, 4, (0, 15))            # Brains on (1,1) and (4,4)
    assert board.connected(cells(board, "2,2", "3,2", "3,3"))    # diagonal off (1,1), diagonal onto (4,4)
    assert not board.connected(cells(board, "2,2", "3,3"))       # a diagonal step in the middle does not count
    assert board.connected(cells(board, "2,1", "3,1", "4,1", "4,2", "4,3"))
    assert not board.connected(cells(board, "1,2", "2,3", "3,4"))


def test_fg5_one_tile_touching_both_brains_is_a_path():
    board = Board(3, 3, (3, 5))             # Brains on (1,2) and (3,2)
    for name in ("2,1", "2,2", "2,3"):
        assert board.connected(cells(board, name))
    assert not board.connected(cells(board, "1,1", "3,3"))


def test_fg5_brains_are_not_part_of_a_path():
    board = Board(5, 3, (5, 9))             # Brains on (1,2) and (5,2)
    assert not board.connected(board.brain_mask | cells(board, "2,2", "4,2"))


# -- FG-6 and FG-7: turns ---------------------------------------------------------------------------------
def test_fg6_players_alternate_and_player_0_starts(play):
    state = play(SMALL, START3)
    assert state.current_player() == 0
    state.apply_move("flip 1,1")
    assert state.current_player() == 0
    state.apply_move("flip 2,1")
    assert state.current_player() == 1


def test_fg7_a_match_stays_face_up_a_miss_is_turned_back(play):
    miss = play(SMALL, START3, "flip 1,1", "flip 2,1")
    assert miss.status[0] == DOWN and miss.status[1] == DOWN
    assert miss.seen[0] and miss.seen[1]
    assert miss.to_notation() == "AB./@c@/abc 1 first"
    hit = play(SMALL, START3, "flip 1,1", "flip 1,3")
    assert hit.status[0] == UP and hit.status[6] == UP
    assert hit.to_notation() == "+Ab./@c@/+Abc 1 first"


def test_fg7_only_face_down_tiles_and_two_different_ones(play):
    state = play(SMALL, START3, "flip 1,1")
    with pytest.raises(IllegalMoveError, match="already flipped"):
        state.apply_move("flip 1,1")
    with pytest.raises(IllegalMoveError, match="Brain"):
        state.apply_move("flip 1,2")
    with pytest.raises(IllegalMoveError, match="empty"):
        state.apply_move("flip 3,1")
    state = play(SMALL, START3, "flip 1,1", "flip 1,3")
    with pytest.raises(IllegalMoveError, match="face-up"):
        state.apply_move("flip 1,1")
    with pytest.raises(InvalidMoveError):
        state.apply_move("flip nowhere")


# -- FG-8: when the Erasure Process runs --------------------------------------------------------------------
@pytest.mark.parametrize("erasure, after", [("round", [2, 4]), ("turn", [1, 2, 3, 4]), ("off", [])])
def test_fg8_erasure_timing(erasure, after):
    game = load_game(f"forgotten(width=3,height=3,pairs=3,erasure={erasure})")
    state = game.state_from_notation(START3)
    rolls = []
    for _ in range(4):
        state.apply_move("flip 1,1")
        state.apply_move("flip 2,1")
        if state.current_player() == CHANCE_PLAYER:
            rolls.append(state.turn)
            state.apply_move("erase 1,2")       # a Brain: nothing happens
    assert rolls == after


# -- FG-9: what an Erasure roll does ----------------------------------------------------------------------------
def test_fg9_a_roll_removes_the_tile_face_up_or_down(play):
    state = play(SMALL, START3, "flip 1,1", "flip 1,3", "flip 2,1", "flip 3,3")
    state.apply_move("erase 1,1")        # face up
    assert state.status[0] == REMOVED
    state = play(SMALL, START3, "flip 1,1", "flip 1,3", "flip 2,1", "flip 3,3")
    state.apply_move("erase 2,3")        # face down, never seen: removed without being revealed
    assert state.status[7] == REMOVED
    assert state.observation(0)["board"][2] == "+A-?C"
    assert state.to_notation().split()[0].split("/")[2] == "+A-bC"


def test_fg9_brains_and_empty_cells_absorb_the_roll(play):
    for roll in ("erase 1,2", "erase 3,1"):
        before = play(SMALL, START3, "flip 1,1", "flip 2,1", "flip 1,1", "flip 2,1")
        after = play(SMALL, START3, "flip 1,1", "flip 2,1", "flip 1,1", "flip 2,1", roll)
        assert after.status == before.status and after.phase == "first"


def test_fg9_face_up_tile_keeps_counting_after_its_partner_is_erased(play):
    # 5x3: +E on (2,2) and (1,1); the route (2,2)-(3,2)-(4,2) still needs (3,2) and (4,2)
    state = play(NARROW, "+Eb.cd/@+Efa@/bc-dAf 2 first")
    state.apply_move("flip 2,1")
    state.apply_move("flip 4,1")
    state.apply_move("flip 2,1")
    state.apply_move("flip 4,1")
    state.apply_move("erase 1,1")
    assert state.status[0] == REMOVED and state.status[6] == UP
    state.apply_move("flip 3,2")
    state.apply_move("flip 5,3")
    assert state.phase == "first"
    state.apply_move("flip 4,2")
    state.apply_move("flip 4,3")
    assert state.phase == "won"


# -- FG-10: winning --------------------------------------------------------------------------------------------
def test_fg10_won_as_soon_as_a_face_up_path_exists(play):
    state = play(SMALL, "ab./@c@/abc 1 first", "flip 2,2", "flip 3,3")
    assert state.phase == "won" and state.is_terminal()
    assert state.current_player() == TERMINAL_PLAYER
    assert state.turn == 2                     # the winning turn counts
    assert state.returns() == [1.0, 1.0]       # cooperative: both win
    assert state.legal_actions() == []


# -- FG-11: losing --------------------------------------------------------------------------------------------------
def test_fg11_lost_when_an_unseen_partner_is_erased_off_the_only_route(play):
    state = play(NARROW, "ab.cd/@efa@/bc-def 2 first", "flip 1,1", "flip 2,1", "flip 1,1", "flip 2,1")
    assert state.phase == "erase"
    state.apply_move("erase 5,3")       # the unseen partner of the unseen f on (3,2), the only way through x=3
    assert state.phase == "lost"
    assert state.returns() == [0.0, 0.0]
    assert state.observation(0)["board"][1] == "@???@"


def test_fg11_erasing_a_tile_off_the_route_is_not_a_loss(play):
    state = play(NARROW, "ab.cd/@efa@/bc-def 2 first", "flip 1,1", "flip 2,1", "flip 1,1", "flip 2,1",
                 "erase 1,3")
    assert state.phase == "first" and state.alive()


def test_fg11_a_board_without_any_route_is_lost_at_setup():
    game = load_game("forgotten(width=3,height=3,pairs=2)")
    # 2 pairs leave 3 of the 7 cells empty: 1 deal in 35 leaves all three middle cells empty
    phases = {game.new_initial_state(seed).phase for seed in range(300)}
    assert phases == {"first", "lost"}
    for seed in range(60):
        state = game.new_initial_state(seed)
        assert (state.phase == "lost") == (not state.alive())


# -- FG-12: giving up -------------------------------------------------------------------------------------------------
def test_fg12_players_may_give_up_on_their_turn(play):
    state = play(SMALL, START3)
    assert GIVE_UP in state.legal_actions()
    state.apply_move("give up")
    assert state.phase == "gave-up" and state.returns() == [0.0, 0.0]
    mid = play(SMALL, START3, "flip 1,1", "give up")
    assert mid.phase == "gave-up"
    roll = play(SMALL, START3, "flip 1,1", "flip 2,1", "flip 1,1", "flip 2,1")
    assert GIVE_UP not in roll.legal_actions()
    with pytest.raises(IllegalMoveError):
        roll.apply_move("give up")


# -- FG-13: what the players know ------------------------------------------------------------------------------------------
def test_fg13_both_players_see_every_flip(play):
    state = play(NARROW, "ab.cd/@efa@/bc-def 2 first", "flip 1,1", "flip 2,1", "flip 2,2")
    assert state.observation(0) == state.observation(1)
    assert state.observation(0)["board"] == ["AB.??", "@E??@", "??-???"]
    assert state.observation(0)["first"] == "2,2"


def test_fg13_resampling_keeps_the_observation_and_the_game_alive(play):
    # after the roll on (1,3) nobody knows whether f's partner is gone; most draws would lose the game at once
    state = play(NARROW, "ab.cd/@efa@/bc-def 2 first", "flip 1,1", "flip 2,1", "flip 1,1", "flip 2,1", "erase 1,3")
    rng = np.random.default_rng(3)
    seen = state.observation(0)
    draws = set()
    for _ in range(40):
        world = state.resample_from_observation(0, rng)
        assert world.observation(0) == seen
        assert world.alive()
        draws.add(tuple(world.tiles))
    assert len(draws) > 10


# -- FG-14: the "clear" goal ---------------------------------------------------------------------------------------------
def test_fg14_clear_goal_needs_every_pair():
    game = load_game("forgotten(width=3,height=3,pairs=3,goal=clear)")
    state = game.state_from_notation(START3)
    for a, b in (("2,2", "3,3"), ("1,1", "1,3")):
        state.apply_move(f"flip {a}")
        state.apply_move(f"flip {b}")
        assert state.phase in ("first", "erase")
        if state.phase == "erase":
            state.apply_move("erase 3,1")
    state.apply_move("flip 2,1")
    state.apply_move("flip 2,3")
    assert state.phase == "won"


def test_fg14_clear_goal_is_lost_when_a_tile_loses_its_partner():
    game = load_game("forgotten(width=3,height=3,pairs=3,goal=clear)")
    state = game.state_from_notation(START3)
    for _ in range(2):
        state.apply_move("flip 1,1")
        state.apply_move("flip 2,1")
    state.apply_move("erase 2,2")
    assert state.phase == "lost"


# -- FG-15: positions the rules cannot produce ---------------------------------------------------------------------------
@pytest.mark.parametrize("notation, message", [
    ("AB./@C@/abc 0 first", "3 tiles have been seen"),
    ("ab./@c@/-abc 1 first", "removed but only 0 Erasure rolls"),
    ("+Ab./@c@/abc 4 first", "face up"),
    ("ab./@?@/a?c 1 first", "give every unseen tile"),
    ("ab./@+C@/ab+C 3 first", "already link the Brains"),
    ("ab./@c@/abc 1 erase", "no Erasure roll follows turn 1"),
    ("ab./@c@/abcc 1 first", "expected 3 cells"),
    ("ab./@c@/abb 1 first", "appears 3 times"),
    ("ab./@c@/ab. 1 first", "found 5 tiles"),
    ("ab./@c@/abc 1 won", "no face-up path"),
])
def test_fg15_impossible_positions_are_refused(notation, message):
    game = load_game(SMALL)
    with pytest.raises(Exception, match=message):
        game.state_from_notation(notation)
