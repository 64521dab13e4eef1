"""The State contract, conservation of every component, observations and re-sampling, JSON and notation."""

from __future__ import annotations

import collections
import json

import numpy as np
import pytest

from solver.game import CHANCE_PLAYER
from solver.memorinth.game import MemorinthGame
from solver.memorinth.layout import CHAR, CLOVER, DOWN, PIECE, SUPPLY, UP
from solver.memorinth.state import MemorinthState
from solver.registry import load_game
from solver.testing import random_simulation

CONFIGS = [
    "memorinth",
    "memorinth(players=3)",
    "memorinth(players=4)",
    "memorinth(players=1)",
    "memorinth(variant=master)",
    "memorinth(variant=master,players=4,action_side=special)",
    "memorinth(variant=master,players=3,action_side=alternate,seats=NES)",
    "memorinth(chance_setup=true)",
    "memorinth(chance_setup=true,variant=master,action_side=special,players=3)",
]


def check_conservation(state: MemorinthState) -> None:
    """No card, character card or clover is ever lost or duplicated (shifts and swaps included)."""
    if state.setup is not None:
        return
    v, rules = state.vec, state.rules
    sides = [int(v[UP + c]) for c in range(25)] + [int(v[DOWN + c]) for c in range(25)]
    assert sorted(sides) == list(range(50)), "a card side is missing or duplicated"
    for c in range(25):
        assert (v[UP + c] & 1) != (v[DOWN + c] & 1), "a cell holds two sides of the same colour"
    places = collections.Counter(int(v[CHAR + i]) for i in range(8))
    if rules.master:
        assert places == collections.Counter(range(8)), "one character per side and per action-card edge"
    else:
        assert places == collections.Counter({0: 2, 1: 2, 2: 2, 3: 2}), "two characters per side"
    clovers = [int(v[CLOVER + p]) for p in range(rules.players)]
    if rules.goblins:
        assert min(clovers) >= 0 and v[SUPPLY] >= 0 and sum(clovers) + int(v[SUPPLY]) == 5
    else:
        assert clovers == [0] * rules.players and v[SUPPLY] == 5
    pieces = [int(v[PIECE + p]) for p in range(rules.players)]
    assert all(0 <= p <= 25 for p in pieces) and pieces.count(25) <= 1


@pytest.mark.parametrize("spec", CONFIGS)
def test_random_simulation_keeps_the_contract_and_conserves_everything(spec):
    """solver.testing.random_simulation plus the conservation invariant at every state."""
    report = random_simulation(load_game(spec), games=3, seed=11, check=check_conservation)
    assert report.games == 3 and report.terminal == 3


def test_long_master_games_conserve_cards_through_many_shifts_and_swaps():
    """Many random Master games with every action in play (alternate side): conservation holds throughout."""
    game = load_game("memorinth(variant=master,players=4,action_side=alternate)")
    report = random_simulation(game, games=12, seed=5, check=check_conservation, resample=False)
    assert report.steps > 500


def test_deal_is_seeded_and_follows_the_setup():
    """MR-2 / MR-3 / MR-4: 5x5 checkerboard, clearing Sun-up in the centre, pieces on it, seeded."""
    game = MemorinthGame(players=3)
    a, b, c = game.deal(5), game.deal(5), game.deal(6)
    assert a.to_json() == b.to_json() and a.to_json() != c.to_json()
    board = [row.split() for row in a.to_json()["board"]]
    assert board[2][2] == "CS"
    assert all(board[r][k][-1] == "SM"[(r + k) % 2] for r in range(5) for k in range(5))
    assert a.to_json()["pieces"] == ["c3"] * 3
    check_conservation(a)


def test_chance_setup_deals_uniformly_and_completes():
    """MR-2: with chance_setup the deal is 24 + 8 explicit uniform chance nodes."""
    state = MemorinthGame(chance_setup=True).new_initial_state()
    assert state.current_player() == CHANCE_PLAYER
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 24 and all(p == pytest.approx(1 / 24) for _, p in outcomes)
    assert state.action_to_string(outcomes[0][0]) == "deal card 1"
    rng = np.random.default_rng(3)
    while state.is_chance_node():
        actions = state.legal_actions()
        state.apply_action(actions[rng.integers(len(actions))])
    assert state.phase == "flip" and state.current_player() == 0
    check_conservation(state)


def test_json_and_notation_round_trip_with_resampled_undersides():
    """A re-sampled state pairs sides that share no printed card ('3S:17'); both formats keep that."""
    game = MemorinthGame(variant="master", action_side="special", players=3)
    state = game.deal(2)
    rng = np.random.default_rng(0)
    for _ in range(12):
        state.apply_action(state.legal_actions()[rng.integers(len(state.legal_actions()))])
        if state.is_terminal():
            break
    sampled = state.resample_from_observation(0, np.random.default_rng(1))
    check_conservation(sampled)
    assert ":" in sampled.to_notation()
    assert game.state_from_json(json.loads(json.dumps(sampled.to_json()))).to_json() == sampled.to_json()
    assert game.state_from_notation(sampled.to_notation()).to_notation() == sampled.to_notation()


def test_notation_example_from_the_docs():
    """The notation in docs/formats/memorinth.md parses and prints back unchanged."""
    text = ("2p base SN | 7S,12M,20S,11M,9S/21M,1S,18M,19S,23M/4S,6M,CS,15M,10S/22M,8S,16M,24S,13M/"
            "5S,2M,14S,17M,3S | c3,c3 | N=GH E=RX S=BT W=FP | r1 p0 flip")
    state = MemorinthGame().state_from_notation(text)
    assert state.to_notation() == text
    assert state.to_json()["board"][0] == "7S 12M 20S 11M 9S"


def test_json_state_from_a_notation_game_keeps_the_rules():
    """A state's JSON names its rules, so any memorinth game object parses it."""
    state = MemorinthGame(players=3, variant="master", action_side="special", seats="NWS").deal(4)
    again = MemorinthGame().state_from_json(state.to_json())
    assert again.rules.players == 3 and again.rules.seats == "NWS" and again.rules.goblins
    assert again.to_json() == state.to_json()


def _tokens(view_json):
    return [token for row in view_json["board"] for token in row.split()]


def test_observation_hides_unseen_undersides_and_resampling_keeps_it():
    """MR-21: a player sees face-up sides and the undersides they saw; re-sampling changes only the rest. The
    observation is the view's JSON."""
    game = MemorinthGame()
    state = game.deal(9)
    state.apply_action(state.legal_actions()[0])
    seen = state.observation(1)
    assert seen == state.view(1).to_json() and seen["view"] == 1
    tokens = _tokens(seen)
    assert sum(not t.endswith(":?") for t in tokens) == 2          # the flipped card and the clearing
    assert tokens[12] == "CS"
    variants = set()
    for seed in range(20):
        sampled = state.resample_from_observation(1, np.random.default_rng(seed))
        assert sampled.observation(1) == seen
        variants.add(tuple(sampled.vec[DOWN:DOWN + 25]))
    assert len(variants) > 15


def test_resampling_draws_undersides_of_the_right_colour_uniformly():
    """MR-21: an unseen underside of a Sun-up forest card is any Moon side of a forest card not yet seen, each
    about equally often; the clearing's Moon side stays on the back of the clearing."""
    state = MemorinthGame().deal(1)
    counts: collections.Counter[int] = collections.Counter()
    for seed in range(3000):
        sampled = state.resample_from_observation(0, np.random.default_rng(seed))
        assert sampled.vec[DOWN + 12] == 1
        counts[int(sampled.vec[DOWN + 0])] += 1
    moon_sides_under_sun = {int(state.vec[DOWN + c]) for c in range(25) if state.vec[UP + c] % 2 == 0} - {1}
    assert set(counts) == moon_sides_under_sun and len(counts) == 12
    assert max(counts.values()) < 1.4 * 3000 / 12 and min(counts.values()) > 0.6 * 3000 / 12


def test_mr21_the_clearings_underside_is_known_to_everybody():
    """MR-21: the clearing is set apart at setup, so its two sides are known to belong together: its underside is
    in every observation and never re-dealt (nor dealt under a forest card)."""
    game = MemorinthGame(players=3)
    obj = game.deal(4).to_json()
    obj["pieces"] = ["a1", "e5", "b2"]
    state = game.state_from_json(obj)
    assert _tokens(state.observation(2))[12] == "CS"               # known to everybody: no question mark
    for seed in range(200):
        sampled = state.resample_from_observation(1, np.random.default_rng(seed))
        assert sampled.vec[DOWN + 12] == 1
        assert all(sampled.vec[DOWN + c] > 1 for c in range(25) if c != 12)
    # the same holds wherever the clearing has been carried (here: swapped with b4) and with its Moon side up
    obj["board"][2] = obj["board"][2].replace("CS", "XX")
    obj["board"][3] = obj["board"][3].split()
    moved = obj["board"][3][1]
    obj["board"][3][1] = "CM"
    obj["board"][2] = obj["board"][2].replace("XX", moved)
    moved_state = game.state_from_json(obj)
    for seed in range(50):
        sampled = moved_state.resample_from_observation(0, np.random.default_rng(seed))
        assert sampled.vec[DOWN + 16] == 0
    assert _tokens(moved_state.observation(0))[16] == "CM"


def test_returns_and_terminal():
    """A finished game gives 1 to the winner and 0 to the others."""
    state = MemorinthGame().deal(0)
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    assert sorted(state.returns()) in ([0.0, 1.0], [0.0, 0.0])
    assert state.legal_actions() == []


def test_clone_is_independent():
    state = MemorinthGame().deal(0)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert copy.to_json() != state.to_json()


def test_resampling_depends_on_the_observation_only():
    """MR-21: two states with the same observation for player 0 re-sample to the same state for one seed."""
    state = MemorinthGame().deal(6)
    state.apply_action(state.legal_actions()[2])
    other = state.clone()
    hidden = [c for c in range(25) if not state.seen_by(c, 0) and state.vec[UP + c] % 2 == 1]
    other.vec[DOWN + hidden[0]], other.vec[DOWN + hidden[-1]] = (other.vec[DOWN + hidden[-1]],
                                                                 other.vec[DOWN + hidden[0]])
    assert other.observation(0) == state.observation(0) and other.to_json() != state.to_json()
    a = state.resample_from_observation(0, np.random.default_rng(9))
    b = other.resample_from_observation(0, np.random.default_rng(9))
    assert a.to_json() == b.to_json()
