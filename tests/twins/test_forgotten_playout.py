"""The compiled Forgotten playout kernel agrees with its pure-Python twin, game for game (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.forgotten.state import GIVE_UP
from solver.registry import load_game
from solver.kernels import forgotten as kernel
from solver.twins import forgotten_playout as twin

from .forgotten_positions import first_flip, kernel_position, random_position

SPECS = ["forgotten(width=3,height=3,pairs=3)", "forgotten(width=4,height=4,pairs=7,erasure=turn)",
         "forgotten(width=4,height=3,pairs=4,goal=clear)", "forgotten(width=5,height=4,brains=21-44)",
         "forgotten(width=4,height=4,erasure=off)", "forgotten(width=3,height=5,pairs=5)"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SPECS), st.integers(0, 3), st.integers(0, 2**63 - 1), st.integers(1, 4))
def test_play_games_agree(spec, policy, seed, n):
    game = load_game(spec)
    args = (game.width, game.height, *game.board.brains, game.pairs, game.erasure_code, game.goal_code, policy, seed)
    out = []
    for mod in (kernel, twin):
        wins, turns = np.zeros(n, np.uint8), np.zeros(n, np.int32)
        total = mod.play_games(*args, wins, turns)
        out.append((total, wins.tolist(), turns.tolist()))
    assert out[0] == out[1]


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(SPECS), st.integers(0, 3), st.integers(0, 2**63 - 1), st.integers(1, 6), st.integers(0, 6))
def test_play_games_cut_in_pieces_is_the_run_in_one_call(spec, policy, seed, n, cut):
    """Games ``first_stream`` on, kernel and twin: a run cut at ``cut`` gives the games of the run in one call."""
    game = load_game(spec)
    args = (game.width, game.height, *game.board.brains, game.pairs, game.erasure_code, game.goal_code, policy, seed)
    cut = min(cut, n)
    whole_w, whole_t = np.zeros(n, np.uint8), np.zeros(n, np.int32)
    total = kernel.play_games(*args, whole_w, whole_t)
    for mod in (kernel, twin):
        wins, turns = np.zeros(n, np.uint8), np.zeros(n, np.int32)
        got = mod.play_games(*args, wins[:cut], turns[:cut]) + mod.play_games(*args, wins[cut:], turns[cut:], cut)
        assert (got, wins.tolist(), turns.tolist()) == (total, whole_w.tolist(), whole_t.tolist())


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SPECS), st.integers(0, 3), st.integers(0, 2**32), st.booleans(), st.integers(0, 2**63 - 1))
def test_rollouts_agree(spec, policy, position_seed, resample, seed):
    game = load_game(spec)
    position = kernel_position(game, position_seed)
    if position is None:
        return
    state, tiles, status, seen, first = position
    legal = [a for a in state.legal_actions() if a != GIVE_UP] if not state.is_chance_node() else []
    forced = legal[seed % len(legal)] if legal and seed % 3 else -1
    out = []
    for mod in (kernel, twin):
        wins, turns = np.zeros(3, np.uint8), np.zeros(3, np.int32)
        rejected = mod.rollouts(game.width, game.height, *game.board.brains, game.erasure_code, game.goal_code,
                                tiles, status, seen, state.turn, state.phase_code, first, forced, policy, resample,
                                seed, wins, turns)
        out.append((rejected, wins.tolist(), turns.tolist()))
    assert out[0] == out[1]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SPECS), st.integers(0, 2**32), st.integers(0, 2**63 - 1), st.integers(1, 5),
       st.integers(0, 2**64 - 1))
def test_rollouts_cut_in_pieces_are_the_rollouts_in_one_call(spec, position_seed, seed, cut, first_stream):
    """``first_stream``: rollout i uses stream first_stream + i, so a search may stop between pieces of a run
    (time limits, terminate) and still get exactly the rollouts of the uncut run; kernel and twin agree."""
    game = load_game(spec)
    position = kernel_position(game, position_seed)
    if position is None:
        return
    state, tiles, status, seen, first = position
    args = (game.width, game.height, *game.board.brains, game.erasure_code, game.goal_code, tiles, status, seen,
            state.turn, state.phase_code, first, -1, 2, True, seed)
    out = []
    for mod in (kernel, twin):
        whole_wins, whole_turns = np.zeros(6, np.uint8), np.zeros(6, np.int32)
        whole = mod.rollouts(*args, whole_wins, whole_turns, first_stream)
        pieces, wins, turns = 0, [], []
        for lo, hi in ((0, cut), (cut, 6)):
            w, t = np.zeros(hi - lo, np.uint8), np.zeros(hi - lo, np.int32)
            pieces += mod.rollouts(*args, w, t, (first_stream + lo) % 2**64)
            wins += w.tolist()
            turns += t.tolist()
        assert (pieces, wins, turns) == (whole, whole_wins.tolist(), whole_turns.tolist())
        out.append((whole, wins, turns))
    assert out[0] == out[1]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(SPECS), st.integers(0, 3), st.integers(0, 2**32), st.integers(0, 2**63 - 1))
def test_policy_move_agrees(spec, policy, position_seed, seed):
    game = load_game(spec)
    position = kernel_position(game, position_seed)
    if position is None or position[0].is_chance_node():
        return
    state, tiles, status, seen, first = position
    a = kernel.policy_move(game.width, game.height, *game.board.brains, tiles, status, seen, first, policy, seed)
    b = twin.policy_move(game.width, game.height, *game.board.brains, tiles, status, seen, first, policy, seed)
    assert a == b
    assert a in state.legal_actions()


def test_policies_use_only_what_was_seen():
    """Policies 0-2 pick the same flip in every world the players cannot tell apart (FG-13)."""
    game = load_game("forgotten(width=5,height=4)")
    rng = np.random.default_rng(4)
    checked = 0
    for seed in range(40):
        state = random_position(game, seed)
        if state is None or state.is_chance_node():
            continue
        first = first_flip(state)
        for policy in (0, 1, 2):
            picks = set()
            for _ in range(4):
                world = state.resample_from_observation(0, rng)
                picks.add(kernel.policy_move(5, 4, *game.board.brains, *world.arrays(), first, policy, 9))
            assert len(picks) == 1
            checked += 1
    assert checked > 30


def test_bad_inputs_raise():
    game = load_game("forgotten(width=3,height=3,pairs=3)")
    state = game.state_from_notation("ab./@c@/abc 0 first")
    tiles, status, seen = state.arrays()
    wins, turns = np.zeros(2, np.uint8), np.zeros(2, np.int32)
    for mod in (kernel, twin):
        bad_tiles = tiles.copy()
        bad_tiles[0] = 2
        for kwargs in ({"tiles": bad_tiles}, {"forced": 2}, {"forced": 3}, {"phase": 1, "first": 0}, {"policy": 7}):
            call = dict(width=3, height=3, brain_a=3, brain_b=5, erasure=1, goal=0, tiles=tiles, status=status,
                        seen=seen, turn=0, phase=0, first=-1, forced=-1, policy=2, resample=True, seed=1, wins=wins,
                        turns=turns)
            call.update(kwargs)
            try:
                mod.rollouts(*call.values())
            except ValueError:
                continue
            raise AssertionError(f"{mod.__name__} accepted {kwargs}")


def test_route_policy_agrees_when_no_route_is_left():
    """Under goal=clear play goes on when no route is possible; the twin took a known pair as 'on the cheapest
    route' there (no route: -1 == -1), the kernel an unseen tile. Found by the exact solver's twin test."""
    from solver.forgotten.knowledge import Info, Model, world_arrays
    game = load_game("forgotten(width=4,height=3,pairs=4,goal=clear)")
    info = Info((4, 5, 0, 1, 0, 2, 0, 0, 4, 0, 2, 2), 0, 0)    # a known pair, a lone tile, one unseen, no route
    tiles, status, seen = world_arrays(Model.of(game), info)
    args = (game.width, game.height, *game.board.brains, tiles, status, seen, -1, 2, 0)
    assert kernel.policy_move(*args) == twin.policy_move(*args) == 3
