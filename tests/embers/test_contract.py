"""The State contract on seeded games of both chapters, and the no-card-lost-or-duplicated invariant."""

from collections import Counter

import numpy as np
import pytest

from solver.embers.knowledge import resolve_options
from solver.testing import check_state_contract, random_simulation

from .helpers import DECK, GAME, PROLOGUE, biased_action, check_zones


@pytest.mark.parametrize("game", [GAME, PROLOGUE], ids=["one", "prologue"])
def test_random_simulation(game):
    """solver.testing.random_simulation on seeded random games, with the zone invariant at every state."""
    report = random_simulation(game, 12, seed=7, check=check_zones)
    assert report.games == report.terminal == 12 and report.chance_steps > 0


def _drive(game, seed, check_every=1):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    seen = Counter()
    step = 0
    while True:
        if step % check_every == 0:
            check_state_contract(state, rng)
            check_zones(state)
        seen[state.phase] += 1
        if state.is_terminal():
            return state, seen
        state.apply_action(biased_action(state, rng))
        step += 1


def test_contract_deep_games_reach_later_days():
    """Seeded games that get to Day's End, demons, taints, splits and reveals, contract-checked throughout."""
    days, results, phases = Counter(), Counter(), Counter()
    for seed in range(14):
        final, seen = _drive(GAME, seed, check_every=2)
        days[final.day] += 1
        results[final.result] += 1
        phases.update(seen)
    assert days[2] + days[3] > 0, days
    assert {"deal", "reveal", "split", "acknowledge", "observe", "blink", "draw"} <= set(phases), phases
    assert len(results) >= 2


def test_contract_deep_prologue_games():
    """Prologue games reach part two (arrange, takes, splits)."""
    phases = Counter()
    for seed in range(25):
        _, seen = _drive(PROLOGUE, seed, check_every=3)
        phases.update(seen)
    assert {"first", "second", "draw", "arrange", "acknowledge"} <= set(phases), phases


def test_EM27_observations_hide_what_a_player_cannot_see():
    """EM-27: Fenrys never sees a face-down Resolve card or the deck; Aelin sees her Resolve, not the deck."""
    state = GAME.new_initial_state(5)
    fenrys, aelin = state.observation(0), state.observation(1)
    assert all(r["card"] == "?" for r in fenrys["resolve"])
    assert [r["card"] for r in aelin["resolve"]] == [DECK.cards[r.resolve].id for r in state.rows]
    assert "deck" not in fenrys and "deck" not in aelin and fenrys["deckCount"] == len(state.pile)
    prologue = PROLOGUE.new_initial_state(5)
    assert all(r["card"] == "?" for r in prologue.observation(1)["resolve"])


def test_EM24_resampling_respects_what_the_rows_reveal():
    """EM-24: a complete row fixes its face-down Resolve strength; an open row bounds it; every resample
    keeps Fenrys's observation, and all consistent strengths appear."""
    state = GAME.state_from_json({
        "chapter": "one", "day": 1, "turn": "fenrys", "phase": "observe", "mind": ["C4@0,0"], "row": ["G3"],
        "resolve": [{"card": "D1a", "cards": ["S5", "F1a"]}, {"card": "G2b", "cards": ["S4"], "atLeast": 2},
                    {"card": "S3"}, {"card": "F5"}], "completed": 1})
    assert resolve_options(state, 0) == {1}
    assert resolve_options(state, 1) == {2}  # at most 6 - 4 = 2 and at least 2
    assert resolve_options(state, 2) == {1, 2, 3, 4, 5}
    rng = np.random.default_rng(0)
    seen = Counter()
    for _ in range(300):
        sample = state.resample_from_observation(0, rng)
        assert sample.observation(0) == state.observation(0)
        check_zones(sample)
        strengths = [DECK.cards[r.resolve].strength for r in sample.rows]
        assert strengths[0] == 1 and strengths[1] == 2
        seen[strengths[2]] += 1
    assert set(seen) == {1, 2, 3, 4, 5}


def test_resampling_is_uniform_over_consistent_cards():
    """With one hidden Resolve card fixed to strength 1, each unseen strength-1 card is equally likely."""
    state = GAME.state_from_json({
        "chapter": "one", "day": 1, "turn": "fenrys", "phase": "observe", "mind": ["C4@0,0"], "row": ["G3"],
        "resolve": [{"card": "D1a", "cards": ["S5", "F1a"]}, {"card": "G2b", "faceUp": True},
                    {"card": "S3", "faceUp": True}, {"card": "F5", "faceUp": True}], "completed": 1})
    rng = np.random.default_rng(1)
    counts = Counter(DECK.cards[state.resample_from_observation(0, rng).rows[0].resolve].id for _ in range(2000))
    ones = {c.id for c in DECK.memory if c.strength == 1} - {"F1a"}
    assert set(counts) == ones
    expected = 2000 / len(ones)
    assert all(abs(n - expected) < 5 * expected ** 0.5 for n in counts.values()), counts
