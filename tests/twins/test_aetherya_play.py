"""The compiled playout kernel and its pure-Python twin agree move for move (same splitmix64 numbers)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from solver.aetherya.playout import advance_to_turn_start, pack
from solver.aetherya.rules import score_board
from solver.kernels import aetherya_play as kernel
from solver.registry import load_game
from solver.twins import aetherya_play as twin

SPECS = ["aetherya", "aetherya(players=3)", "aetherya(players=4)", "aetherya(mode=objects)", "aetherya(mode=coop)",
         "aetherya(mode=coop,players=4)", "aetherya(mode=solo)"]


def position(spec: str, seed: int, random_turns: int):
    game = load_game(spec)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    for _ in range(random_turns):
        state = advance_to_turn_start(state, rng)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return advance_to_turn_start(state, rng)


@settings(max_examples=30, deadline=None)
@given(spec=st.sampled_from(SPECS), seed=st.integers(0, 2**32), turns=st.integers(0, 12),
       play_seed=st.integers(0, 2**64 - 1))
def test_playout_kernel_matches_twin(spec, seed, turns, play_seed):
    state = position(spec, seed, turns)
    if state.is_terminal():
        return
    packed = pack(state)
    out_k, out_t = np.zeros(4, np.int32), np.zeros(4, np.int32)
    assert kernel.playout(packed, play_seed, out_k) == twin.playout(packed, play_seed, out_t)
    assert out_k.tolist() == out_t.tolist()


def test_playout_batch_matches_single_calls():
    states = np.stack([pack(position("aetherya", s, 3)) for s in range(4)])
    seeds = np.arange(4, dtype=np.uint64) * 977
    out = np.zeros((4, 4), np.int32)
    kernel.playout_batch(states, seeds, out)
    out_t = np.zeros((4, 4), np.int32)
    twin.playout_batch(states, seeds, out_t)
    assert out.tolist() == out_t.tolist()
    for i in range(4):
        single = np.zeros(4, np.int32)
        kernel.playout(states[i], int(seeds[i]), single)
        assert single.tolist() == out[i].tolist()


@settings(max_examples=200, deadline=None)
@given(cards=st.lists(st.integers(0, 10), min_size=16, max_size=16), accords=st.integers(0, 0xFFFF),
       staffs=st.integers(0, 0xFFFF))
def test_board_value_matches_the_scorer_with_tiles(cards, accords, staffs):
    """The playout scorer equals the game's scorer, Accords (AE-24) and Staffs (AE-25) included."""
    codes = np.asarray(cards, dtype=np.int32)
    tribes = sum(1 << c for c in range(16) if cards[c] in (4, 5, 6, 7))
    dragons = sum(1 << c for c in range(16) if cards[c] == 8)
    accords &= tribes
    staffs &= dragons
    expected = score_board(codes.astype(np.uint8), accords, staffs).total
    assert kernel.board_value(codes, accords, staffs) == expected
    assert twin.board_value(codes, accords, staffs) == expected


def test_bad_packed_states_are_rejected():
    bad = np.zeros(360, np.int32)
    with pytest.raises(ValueError):
        kernel.playout(bad, 1, np.zeros(4, np.int32))
    with pytest.raises(ValueError):
        twin.playout(bad, 1, np.zeros(4, np.int32))
    with pytest.raises(ValueError):
        kernel.board_value(np.full(16, 11, np.int32), 0, 0)
