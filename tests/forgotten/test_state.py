"""The State contract, tile conservation, notation and JSON, malformed input, and agreement with the kernels."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import (IllegalMoveError, ImpossibleStateError, InvalidInputError, NotationError, SolverError,
                           UnknownCardError, UnknownGameError)
from solver.forgotten.tiles import DOWN, NONE, REMOVED, UP
from solver.forgotten.state import GIVE_UP
from solver.kernels import forgotten as playout
from solver.registry import load_game
from solver.testing import check_state_contract, random_simulation
from solver import contract

SPECS = ["forgotten", "forgotten(width=4,height=4,pairs=7,erasure=turn)", "forgotten(width=3,height=4,goal=clear)",
         "forgotten(width=5,height=3,pairs=5,erasure=off)", "forgotten(width=4,height=5,brains=21-35)"]


class Ledger:
    """FG-3, FG-7, FG-9: no tile is ever lost or duplicated, and tiles only move forward in their life."""

    def __init__(self) -> None:
        self.before = None

    def __call__(self, state) -> None:
        game = state.game
        tiles = [t for t in state.tiles if t >= 0]
        assert sorted(tiles) == sorted(list(range(game.pairs)) * 2), "a tile was lost or duplicated"
        for c in state.board.brains:
            assert state.tiles[c] == -1 and state.status[c] == NONE
        for c, t in enumerate(state.tiles):
            assert (t >= 0) == (state.status[c] != NONE)
            if state.status[c] == UP:
                p = state.partner(c)
                assert state.status[p] == UP or (state.status[p] == REMOVED and state.seen[p])
                assert state.seen[c]
        if self.before is not None and not (self.before.is_terminal() and state.turn == 0):
            old = self.before
            assert old.tiles == state.tiles, "tiles never move"
            for c in range(state.board.cells):
                assert not (old.seen[c] and not state.seen[c]), "nobody forgets a seen tile"
                assert not (old.status[c] == REMOVED and state.status[c] != REMOVED), "removed tiles stay removed"
                assert not (old.status[c] == UP and state.status[c] == DOWN), "matched tiles stay face up"
        self.before = state.clone()


@pytest.mark.parametrize("spec", SPECS)
def test_random_simulation_keeps_the_contract_and_conserves_tiles(spec):
    report = random_simulation(load_game(spec), games=6, seed=11, check=Ledger())
    assert report.games == 6 and report.terminal == 6


@pytest.mark.parametrize("spec", SPECS[:4])
def test_flip_only_games_keep_the_contract(spec):
    """Random play that never gives up reaches wins and Erasure losses; contract checked at every step."""
    game = load_game(spec)
    rng = np.random.default_rng(5)
    outcomes = set()
    for g in range(8):
        state = game.new_initial_state(int(rng.integers(1 << 30)))
        ledger = Ledger()
        while not state.is_terminal():
            check_state_contract(state, rng)
            ledger(state)
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state = state.child(int(rng.choice(actions, p=probs)))
            else:
                flips = [a for a in state.legal_actions() if a != GIVE_UP]
                state = state.child(int(flips[rng.integers(len(flips))]))
        check_state_contract(state, rng)
        ledger(state)
        outcomes.add(state.phase)
    assert outcomes <= {"won", "lost"}


def test_hidden_positions_round_trip_and_stay_hidden():
    game = load_game("forgotten(width=5,height=3,pairs=6)")
    text = "AB.??/@???@/??-???  3 first"
    state = game.state_from_notation(text)
    assert state.to_notation() == "AB.??/@???@/??-??? 3 first"
    assert not state.given
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()
    assert state.observation(0) == state.to_json()
    check_state_contract(state, np.random.default_rng(1))
    # the draw behind the '?' never shows, even after a flip reveals one of them
    state.apply_move("flip 3,2")
    shown = state.to_notation().split()[0]
    assert shown.count("?") == 9 and shown[8].isupper()


def test_a_sampled_completion_respects_what_is_known():
    game = load_game("forgotten(width=5,height=3,pairs=6)")
    state = game.state_from_notation("AB.??/@???@/??-?B? 3 first")
    assert state.tiles[0] == 0 and state.tiles[1] == 1 and state.tiles[13] == 1
    assert state.alive()


def test_json_round_trip_and_shape(game6):
    state = game6.new_initial_state(9)
    state.apply_move("flip 2,2")
    data = state.to_json()
    assert set(data) == {"board", "turn", "phase", "first"} and data["first"] == "2,2"
    json.dumps(data)
    assert game6.state_from_json(data).to_notation() == state.to_notation()
    assert game6.parse_state(state.to_notation()).to_json() == data


@pytest.mark.parametrize("payload, error, field", [
    ({"board": ["@@"], "turn": 0, "phase": "first"}, NotationError, "state"),
    ({"board": "abc", "turn": 0, "phase": "first"}, InvalidInputError, "state.board"),
    ({"turn": 0, "phase": "first"}, InvalidInputError, "state.board"),
    ({"board": ["ab.", "@c@", "abc"], "turn": -1, "phase": "first"}, InvalidInputError, "state.turn"),
    ({"board": ["ab.", "@c@", "abc"], "turn": 0, "phase": "middle"}, InvalidInputError, "state.phase"),
    ({"board": ["ab.", "@c@", "abc"], "turn": 0, "phase": "first", "colour": 1}, InvalidInputError, "state.colour"),
    ({"board": ["ab.", "@c@", "abz"], "turn": 0, "phase": "first"}, UnknownCardError, "state.board[2]"),
    ({"board": ["ab.", "@c@", "abc"], "turn": 0, "phase": "second"}, InvalidInputError, "state.first"),
    ({"board": ["ab.", "@c@", "abc"], "turn": 0, "phase": "second", "first": "1,1"}, ImpossibleStateError,
     "state.first"),
    ({"board": ["ab.", "@c@", "abc"], "turn": 0, "phase": "first", "first": "1,1"}, InvalidInputError,
     "state.first"),
    ({"board": ["Ab.", "@c@", "abc"], "turn": 0, "phase": "second", "first": "9,9"}, InvalidInputError,
     "state.first"),
    ({"board": ["ab.", "@c@", "a%c"], "turn": 0, "phase": "first"}, NotationError, "state.board[2]"),
    ({"board": ["ab.", "@c@", "ab+"], "turn": 0, "phase": "first"}, NotationError, "state.board[2]"),
    ({"board": ["ab.", "@c@", "ab+c"], "turn": 0, "phase": "first"}, NotationError, "state.board[2]"),
])
def test_malformed_json_names_the_field(payload, error, field):
    game = load_game("forgotten(width=3,height=3,pairs=3)")
    with pytest.raises(error) as info:
        game.state_from_json(payload)
    assert info.value.field.startswith(field), (info.value.field, str(info.value))


def test_a_row_of_the_wrong_length_is_named_not_a_board_of_the_wrong_size():
    """Rows of unequal length were reported as 'expected 6 rows (the board is 6x6)' on the default game."""
    game = load_game("forgotten")
    with pytest.raises(NotationError, match=r"row y=3: expected 5 cells in a row, found 4") as info:
        game.state_from_notation("ab.cd/@efa@/bc-de 2 first")
    assert info.value.field == "state"
    with pytest.raises(NotationError, match=r"expected 5 cells in a row, found 4") as info:
        game.state_from_json({"board": ["ab.cd", "@efa@", "bc-de"], "turn": 2, "phase": "first"})
    assert info.value.field == "state.board[2]"


@pytest.mark.parametrize("text", ["", "ab./@c@/abc", "ab./@c@/abc x first", "ab./@c@/abc 0", "ab./@c@ 0 first",
                                  "ab./@c@/abc 0 first 1,1 extra", 17])
def test_malformed_notation_is_refused(text):
    game = load_game("forgotten(width=3,height=3,pairs=3)")
    with pytest.raises(SolverError):
        game.state_from_notation(text)


@pytest.mark.parametrize("spec", ["forgotten(width=2)", "forgotten(width=9)", "forgotten(pairs=18)",
                                  "forgotten(erasure=sometimes)", "forgotten(brains=11-12)", "forgotten(size=3)",
                                  "forgotten(width=8,height=8,pairs=32)"])
def test_bad_game_parameters(spec):
    with pytest.raises(UnknownGameError):
        load_game(spec)


def test_game_spec_lists_changed_parameters():
    assert load_game("forgotten(width=4,height=4,pairs=7)").spec() == "forgotten(height=4,pairs=7,width=4)"
    game = load_game("forgotten(width=4,height=5)")
    assert game.pairs == 9 and game.board.spec() == "13-43"


def test_moves_parse_in_several_spellings(game6):
    state = game6.new_initial_state(1)
    for text in ("flip 3,4", "3,4", "34", "flip (3, 4)", "FLIP 3,4"):
        assert state.parse_move(text) == state.board.parse("3,4", "c")
    assert state.parse_move("give up") == GIVE_UP
    with pytest.raises(IllegalMoveError, match="waits for a flip"):
        state.parse_move("erase 3,4")


@pytest.mark.parametrize("policy", [2, 3])
def test_state_rules_agree_with_the_playout_kernel(policy):
    """Drive the Python rules with the kernel's own policy and dice: same winner, same number of turns."""
    from solver.twins.forgotten_playout import stream
    game = load_game("forgotten(width=5,height=4)")
    board = game.board
    for seed in range(25):
        state = game.new_initial_state(seed)
        tiles, status, seen = state.arrays()
        wins = np.zeros(1, np.uint8)
        turns = np.zeros(1, np.int32)
        playout.rollouts(5, 4, *board.brains, 1, 0, tiles, status, seen, 0, 0, -1, -1, policy, False, seed, wins, turns)
        dice = stream(seed, 0)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(dice.below_mod(board.cells))
                continue
            tiles, status, seen = state.arrays()
            first = state.first if state.phase == "second" else -1
            state.apply_action(playout.policy_move(5, 4, *board.brains, tiles, status, seen, first, policy, 0))
        assert (state.phase == "won") == bool(wins[0]), seed
        assert state.turn == turns[0], seed


TOKENS = ["@", ".", "a", "A", "b", "B", "c", "+A", "+B", "-a", "-A", "?", "-?", "z", "%", "/", " ", "0", "1", "2",
          "first", "second", "erase", "won", "lost", "gave-up", "1,1", "9,9"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=30))
def test_any_typed_notation_parses_or_fails_with_a_named_error(tokens):
    """A user's typo never escapes as anything but a SolverError naming a field (fuzzed)."""
    game = load_game("forgotten(width=3,height=3,pairs=3)")
    text = "".join(tokens)
    try:
        state = game.state_from_notation(text)
    except SolverError as exc:
        assert exc.field
        return
    assert game.state_from_notation(state.to_notation()).to_notation() == state.to_notation()


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["ab.", "@c@", "abc", "first", "1,1"]),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["board", "turn", "phase", "first", "x"]), inner, max_size=4),
                    max_leaves=12))
def test_any_json_parses_or_fails_with_a_named_error(payload):
    game = load_game("forgotten(width=3,height=3,pairs=3)")
    try:
        game.parse_state(payload)
    except SolverError as exc:
        assert exc.field


# -- issue 16: boards past 26 pairs, and refusals worded for the goal ----------------------------------------------
def test_fg3_a_full_8x8_board_names_its_31_pairs_past_z():
    """The rules doc promises boards to 8x8 filled around the Brains: pairs 27 to 31 are A2 to E2."""
    game = load_game("forgotten(width=8,height=8)")
    assert game.pairs == 31 and load_game("forgotten(width=7,height=8)").pairs == 27
    state = game.new_initial_state(3)
    text = state.to_notation()
    assert all(f"{c}2" in text for c in "abcde") and "f2" not in text
    assert game.state_from_notation(text).to_notation() == text
    seen = state.clone()
    seen.turn = 5
    for c in range(64):
        if seen.tiles[c] >= 26:
            seen.seen[c] = True
    shown = game.state_from_json(seen.observation(0)).to_notation()
    assert "E2" in shown and "?" in shown and game.state_from_notation(shown).to_notation() == shown
    pairs = contract.score(game, seen.to_notation())["knownPairs"]
    assert sum(1 for p in pairs if p.split()[0].endswith("2")) == 5


def test_fg3_a_pair_past_the_games_last_is_refused_with_its_names():
    game = load_game("forgotten(width=8,height=8)")
    row = "f2" + "?" * 7
    with pytest.raises(UnknownCardError, match=r"no pair F2 in a game of 31 pairs \(letters A-Z, A2-E2\)"):
        game.state_from_notation("/".join([row] + ["?" * 8] * 2 + ["@" + "?" * 7, "?" * 7 + "@"] + ["?" * 8] * 3)
                                 + " 0 first")


@pytest.mark.parametrize("notation, words", [
    ("+A+A+B/@+C@/+B.+C 3 first", "every tile is face up: the game is won (goal=clear)"),
    ("+A+AB/@+C@/B.+C 3 won", "2 tiles are still face down (goal=clear)"),
    ("A??/@-A@/?.? 3 first", "A at 1,1 is face down and its partner was removed: under goal=clear"),
    ("A+B+B/@-?@/A.? 3 first", "under goal=clear some face-down tile has lost its partner"),
])
def test_fg14_refusals_under_the_clear_goal_speak_of_the_clear_goal(notation, words):
    game = load_game("forgotten(goal=clear,erasure=turn)")
    with pytest.raises(ImpossibleStateError) as info:
        game.state_from_notation(notation)
    message = str(info.value)
    assert words in message and "route" not in message and "Brains" not in message
    if "?" in notation:
        assert notation.split()[0] in message              # the board as typed, '?' included
