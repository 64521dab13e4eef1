"""The compiled exact solver agrees with its pure-Python twin (hypothesis), method for method."""

from __future__ import annotations

import inspect

import numpy as np
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from solver.forgotten.knowledge import UNK, Model, info_from_state, world_arrays
from solver.forgotten.state import GIVE_UP
from solver.kernels import forgotten as kernel
from solver.registry import load_game
from solver.twins import forgotten_exact as twin

from .forgotten_positions import first_flip, random_position

SPECS = ["forgotten(width=3,height=3,pairs=3)", "forgotten(width=3,height=3,pairs=3,erasure=turn)",
         "forgotten(width=4,height=3,pairs=3,erasure=turn)", "forgotten(width=3,height=4,pairs=3)",
         "forgotten(width=3,height=3,pairs=2,erasure=off)", "forgotten(width=4,height=3,pairs=4,brains=21-43)",
         "forgotten(width=3,height=3,pairs=3,erasure=turn,goal=clear)", "forgotten(width=4,height=3,pairs=4,goal=clear)"]


def test_the_twin_class_has_the_kernels_methods():
    public = [n for n in dir(kernel.Solver) if not n.startswith("_")]
    for name in public:
        assert hasattr(twin.Solver, name), name
        k = inspect.signature(getattr(kernel.Solver, name))
        t = inspect.signature(getattr(twin.Solver, name))
        assert list(k.parameters)[1:] == list(t.parameters)[1:] or list(k.parameters) == list(t.parameters)[1:], name


def solvers(game, policy):
    args = (game.width, game.height, *game.board.brains, game.erasure_code, game.goal_code, game.board.symmetries,
            policy, 10**7)
    return kernel.Solver(*args), twin.Solver(*args)


#: one pinned position of each spec, both policies and both phases among them (seeds found cheap for the twin:
#: a position of a few turns; a seed of hypothesis's may be the deal itself, which the twin solves in seconds)
PINNED = [(SPECS[0], 14, -1), (SPECS[1], 21, 2), (SPECS[2], 23, -1), (SPECS[3], 30, 2),  # first, second, first, second
          (SPECS[4], 11, -1), (SPECS[5], 24, 2), (SPECS[6], 6, -1), (SPECS[7], 6, 2)]    # first, second, second, first


#: the most unseen cells in a random case of :func:`test_values_agree` (a pinned one has 6)
MAX_RANDOM_UNSEEN = 5


def pinned(cases):
    """Hypothesis ``@example`` for each case."""
    def decorate(test):
        for case in reversed(cases):
            test = example(*case)(test)
        return test
    return decorate


def test_the_pinned_cases_cover_every_spec_policy_and_phase():
    phases = {random_position(load_game(spec), seed, steps=16, decided=True).phase for spec, seed, _ in PINNED}
    assert [spec for spec, _, _ in PINNED] == SPECS and {p for _, _, p in PINNED} == {-1, 2}
    assert phases == {"first", "second"}


@settings(max_examples=8, deadline=None)  # issue 24: 8 random cases (25 before) besides the 8 pinned ones
@pinned(PINNED)
@given(st.sampled_from(SPECS), st.integers(0, 2**32), st.sampled_from([-1, 2]))
def test_values_agree(spec, seed, policy):
    game = load_game(spec)
    state = random_position(game, seed, steps=16, decided=True)
    if state is None:
        return
    info = info_from_state(state)
    # The twin's exact search grows with the unseen cells: a random case with 6 or more (4x3, 4 pairs, the first flip
    # of turn 1: 13 s of the twin against 0.2 s for the other cases) is drawn again, so that the test's time does not
    # swing with the draw (issue 24); the kernel and the twin run the same recursion at every size.
    assume((spec, seed, policy) in PINNED or sum(code == UNK for code in info.codes) <= MAX_RANDOM_UNSEEN)
    codes = np.asarray(info.codes, np.uint8)
    erase_next = game.erasure_due(state.turn + 1)
    k, t = solvers(game, policy)
    if state.phase == "first":
        assert abs(k.value(codes, info.e, info.d, erase_next) - t.value(codes, info.e, info.d, erase_next)) < 1e-12
        for first in range(game.board.cells):
            if info.codes[first] in (UNK,) or info.codes[first] >= 3:
                a = k.first_value(codes, info.e, info.d, erase_next, first)
                b = t.first_value(codes, info.e, info.d, erase_next, first)
                assert abs(a - b) < 1e-12
    else:
        for second in state.legal_actions():
            if second != GIVE_UP:
                a = k.second_value(codes, info.e, info.d, erase_next, state.first, second)
                b = t.second_value(codes, info.e, info.d, erase_next, state.first, second)
                assert abs(a - b) < 1e-12


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SPECS + ["forgotten(width=4,height=4)", "forgotten(width=4,height=5,pairs=8)"]),
       st.integers(0, 2**32))
def test_route_policy_on_knowledge_is_the_playout_policy(spec, seed):
    game = load_game(spec)
    state = random_position(game, seed, steps=16, decided=True)
    if state is None:
        return
    model = Model.of(game)
    info = info_from_state(state)
    first = first_flip(state)
    k, t = solvers(game, 2) if game.board.cells <= 24 else (None, None)
    expected = kernel.policy_move(game.width, game.height, *game.board.brains, *state.arrays(), first, 2, 0)
    assert kernel.policy_move(game.width, game.height, *game.board.brains, *world_arrays(model, info),
                                         first, 2, 0) == expected
    if k is not None:
        codes = np.asarray(info.codes, np.uint8)
        assert k.policy_move(codes, info.e, info.d, first) == expected == t.policy_move(codes, info.e, info.d, first)


def test_limits_stop_the_search():
    game = load_game("forgotten(width=3,height=4)")
    info = info_from_state(game.new_initial_state(0))
    codes = np.asarray(info.codes, np.uint8)
    for mod in (kernel, twin):
        solver = mod.Solver(game.width, game.height, *game.board.brains, 1, 0, game.board.symmetries, -1, 10**7)
        try:
            solver.value(codes, 0, 0, False, max_nodes=500)
        except mod.SearchStopped:
            continue
        raise AssertionError(f"{mod.__name__} ignored the node limit")


def test_bad_arguments():
    for mod in (kernel, twin):
        for args in ((5, 5, 0, 4, 1, 0, [list(range(25))], -1, 100), (3, 3, 3, 5, 4, 0, [list(range(9))], -1, 100),
                     (3, 3, 3, 5, 1, 0, [[0] * 9], -1, 100), (3, 3, 3, 5, 1, 0, [list(range(9))], 0, 100),
                     (3, 3, 3, 5, 1, 2, [list(range(9))], -1, 100)):
            try:
                mod.Solver(*args)
            except ValueError:
                continue
            raise AssertionError(f"{mod.__name__} accepted {args}")


def test_solve_value_agrees():
    game = load_game("forgotten(width=4,height=3,pairs=3,erasure=turn)")
    info = info_from_state(game.state_from_notation("C.b./@Bc@/.-a.a 2 first"))
    args = (game.width, game.height, *game.board.brains, 2, 0, game.board.symmetries, np.asarray(info.codes, np.uint8),
            info.e, info.d, True, 10**6)
    assert abs(kernel.solve_value(*args) - twin.solve_value(*args)) < 1e-12
