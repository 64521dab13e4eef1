"""The compiled Memorinth escape kernel (``memorinth_escape``: shortest escapes, solution counts, greedy runs) and its
pure-Python twin agree (hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.kernels import memorinth as K
from solver.memorinth.game import MemorinthGame
from solver.twins import memorinth_escape as T

from .memorinth_states import DECK, GAMES, states


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states)
def test_shortest_escape_and_solution_counts_agree(vec):
    if vec[T.PHASE] == T.PH_OVER:
        return
    player = int(vec[T.TOMOVE])
    a, b = np.zeros(9, np.int32), np.zeros(9, np.int32)
    ka = K.shortest_escape(vec, DECK, player, 3, 20000, 0.0, a, np.zeros(1, np.int32))
    if ka[0] == 2:
        return
    tb = T.shortest_escape(vec, DECK, player, 3, 0, 0.0, b, np.zeros(1, np.int32))
    assert ka[:3] == tb[:3]
    assert (a == b).all()
    if ka[0] == 0 and ka[1] <= 2:
        assert K.count_solutions(vec, DECK, player, ka[1], 50, 0) == T.count_solutions(vec, DECK, player, ka[1],
                                                                                      50, 0)


def test_shortest_escape_publishes_the_same_progress():
    """stop[1] (the iteration's bound) and stop[2] (nodes / 1024) as another thread reads them, kernel = twin."""
    vec = MemorinthGame().deal(5).vec.copy()          # 6 own turns, about 5,400 nodes over 4 iterations
    results, controls = [], []
    for module in (K, T):
        control = np.zeros(3, np.int32)
        results.append(module.shortest_escape(vec, DECK, 0, 10, 0, 0.0, np.zeros(30, np.int32), control))
        controls.append(control)
    assert results[0][:3] == results[1][:3] and results[0][0] == 0   # node counts differ by the tables' TT
    for (_, length, _, nodes), control in zip(results, controls):
        assert control[0] == 0 and control[1] == length == 6
        # published at every 1024th node of an iteration: behind the total by less than 1024 per iteration
        assert 0 < control[2] <= nodes >> 10 and (nodes >> 10) - control[2] <= 6


@pytest.mark.parametrize("module", [K, T], ids=["kernel", "twin"])
def test_a_solution_count_stops_at_its_flag_and_its_time_limit(module):
    """count_solutions polls stop[0] and its time limit every 1024 nodes, as shortest_escape does: a count cut
    short says so (complete 0) after 1024 nodes; without them it finishes, kernel = twin."""
    vec = MemorinthGame().deal(6).vec.copy()          # 629 ways out within 4 own turns, 4,118 nodes to count them
    full = module.count_solutions(vec, DECK, 0, 4, 1000, 0)
    assert full == K.count_solutions(vec, DECK, 0, 4, 1000, 0) and full[2] == 1 and full[1] > 2048
    assert module.count_solutions(vec, DECK, 0, 4, 1000, 0, 0.0, np.zeros(1, np.int32)) == full
    count, nodes, complete = module.count_solutions(vec, DECK, 0, 4, 1000, 0, 0.0, np.ones(1, np.int32))
    assert (nodes, complete) == (1024, 0) and count < full[0]
    count, nodes, complete = module.count_solutions(vec, DECK, 0, 4, 1000, 0, 1e-9)
    assert (nodes, complete) == (1024, 0)


@pytest.mark.parametrize("module", [K, T], ids=["kernel", "twin"])
def test_bad_requests_are_rejected(module):
    vec = GAMES[0].deal(0).vec.copy()
    with pytest.raises(ValueError):
        module.shortest_escape(vec, DECK, 0, 0, 0, 0.0, np.zeros(3, np.int32), np.zeros(1, np.int32))
    with pytest.raises(ValueError):
        module.count_solutions(vec, DECK, 0, 0, 1, 0)
    with pytest.raises(ValueError):
        module.greedy_escape(vec, DECK, 0, 5, 1, 0, np.zeros(3, np.int32))
    with pytest.raises(ValueError):
        module.skip_to_player(vec, DECK, 7)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states, st.integers(0, 2**63))
def test_greedy_escapes_and_skips_agree(vec, seed):
    if vec[T.PHASE] == T.PH_OVER:
        return
    player = int(vec[T.TOMOVE])
    a, b = np.zeros(60, np.int32), np.zeros(60, np.int32)
    assert K.greedy_escape(vec, DECK, player, 20, 3, seed, a) == T.greedy_escape(vec, DECK, player, 20, 3, seed, b)
    assert (a == b).all()
    if vec[T.PHASE] == T.PH_FLIP:
        other = (player + 1) % int(vec[T.NPLAYERS])
        x, y = vec.copy(), vec.copy()
        K.skip_to_player(x, DECK, other)
        T.skip_to_player(y, DECK, other)
        assert (x == y).all()
