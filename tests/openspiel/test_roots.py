"""Small enumerable roots: every deal of a tiny setting as one chance node (``deal=all``), a fixed deal
(``deal=fixed``), and OpenSpiel's exhaustive algorithms on them."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install 'memory-solver[openspiel]')")

from open_spiel.python.algorithms import cfr, exploitability, external_sampling_mccfr, get_all_states  # noqa: E402

import solver.api  # noqa: E402
import solver.openspiel as sos  # noqa: E402
from solver.errors import SolverError  # noqa: E402
from solver.forgotten.openspiel import arrangement_count  # noqa: E402
from solver.openspiel.exact import team_value  # noqa: E402
from solver.registry import load_game  # noqa: E402

TINY = "forgotten(width=3,height=3,pairs=2,brains=11-33,erasure=off,max_moves=2,deal=all)"


def test_every_deal_is_one_outcome_of_the_root():
    """The 210 deals of a 3x3 board with 2 pairs, each once and equally likely; redeal leaves out the lost ones."""
    ours = load_game("forgotten(width=3,height=3,pairs=2)")
    assert arrangement_count(ours) == 210
    every = sos.load_game("forgotten(width=3,height=3,pairs=2,deal=all,redeal=false)")
    root = every.new_initial_state()
    outcomes = root.chance_outcomes()
    assert len(outcomes) == 210 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    deals = [str(root.child(a)) for a, _ in outcomes]
    assert len(set(deals)) == 210
    seeded = Counter(ours.new_initial_state(seed).to_notation() for seed in range(3000))
    assert set(seeded) == set(deals)        # the seeded deal reaches exactly these
    lost = sum(1 for a, _ in outcomes if root.child(a).is_terminal())
    live = sos.load_game("forgotten(width=3,height=3,pairs=2,deal=all)").new_initial_state()
    assert len(live.chance_outcomes()) == 210 - lost and not any(live.child(a).is_terminal()
                                                                   for a, _ in live.chance_outcomes())
    with pytest.raises(SolverError, match="deals"):
        sos.load_game("forgotten(width=6,height=6,deal=all)")
    with pytest.raises(SolverError, match="cannot list its deals"):
        sos.load_game("mnemonic(deal=all)")


def test_a_fixed_deal_starts_at_that_deal():
    game = sos.load_game("memorinth(deal=fixed,deal_seed=7)")
    root = game.new_initial_state()
    assert not root.is_chance_node()
    assert sos.inner_state(root).to_json() == load_game("memorinth").new_initial_state(7).to_json()


def test_exhaustive_algorithms_run_on_a_tiny_root():
    """get_all_states, CFR (exploitability falls) and the exact team value on Forgotten's tiny root."""
    game = sos.load_game(TINY)
    states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=True)
    assert len(states) == 3433
    solver = cfr.CFRSolver(game)
    convs = []
    for _ in range(3):
        solver.evaluate_and_update_policy()
        convs.append(exploitability.nash_conv(game, solver.average_policy()))
    assert convs[0] > convs[1] > convs[2]
    assert abs(team_value(game) - 10 / 39) < 1e-12          # by information states
    assert abs(team_value(game, key=lambda s: s.observation_string(0)) - 10 / 39) < 1e-12


def test_the_team_value_is_our_exact_solvers_value():
    """``team_value`` over every world of a view equals ``forgotten solve`` of that view (uncapped, erasure=turn;
    the key forgets the turn count, which no rule of erasure=turn reads)."""
    spec = "forgotten(width=3,height=3,pairs=2,erasure=turn)"
    game, view = sos.load_game(spec), "view:1 B.?/@.@/.A? 1 first"      # worth 8/9
    known = load_game(spec).view_from_notation(view).known
    hidden = known.hidden_cells()
    worlds = []
    for order in set(itertools.permutations(sorted(known.tiles[c] for c in hidden))):
        world = known.clone()
        for c, v in zip(hidden, order):
            world.tiles[c] = v
        if world.alive():   # the game goes on: a world where it is lost is not this view's
            worlds.append((sos.wrap_state(game, world), 1.0))

    def key(state):
        seen = json.loads(state.observation_string(0))
        seen.pop("turn")
        return json.dumps(seen, sort_keys=True)

    value = team_value(game, key=key, root=worlds)
    assert abs(value - solver.api.solve(spec, view).value) < 1e-12 and 0 < value < 1


def test_sampling_cfr_runs_on_a_capped_memorinth():
    """External-sampling MCCFR recursed past Python's limit on the 2,000-move default; a small cap is a small tree."""
    game = sos.load_game("memorinth(variant=master,deal=fixed,deal_seed=1,max_moves=4)")
    solver = external_sampling_mccfr.ExternalSamplingSolver(game)
    saved = np.random.get_state()
    np.random.seed(1)  # OpenSpiel's MCCFR samples from numpy's global generator: seeded, the run is one run
    try:
        for _ in range(10):
            solver.iteration()
    finally:
        np.random.set_state(saved)
    assert exploitability.exploitability(game, solver.average_policy()) < 0.05
