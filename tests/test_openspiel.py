"""Our five games inside OpenSpiel: OpenSpiel's own game checks, serialisation, resampling, IS-MCTS, the helpers."""

import pickle

import numpy as np
import pytest

try:
    import pyspiel
except ImportError:
    pytest.skip("open-spiel is not installed (pip install 'memory-solver[openspiel]'): OpenSpiel adapter tests skipped",
                allow_module_level=True)

import solver.openspiel as sos
from solver.errors import IllegalMoveError, SolverError, UnknownGameError
from solver.game import CHANCE_PLAYER
from solver.embers.openspiel import EmbersCodec
from solver.openspiel.facts import facts
from solver.registry import game_names, load_game

from .openspiel.helpers import decision_states  # noqa: E402

NAMES = game_names()

#: parameter sets the simulation checks run on (every mode of every game at least once)
VARIANTS = [
    "aetherya", "aetherya(players=4)", "aetherya(mode=objects,players=3)", "aetherya(mode=coop,players=3)",
    "aetherya(mode=solo)",
    "embers", "embers(chapter=prologue)",
    "forgotten", "forgotten(erasure=off)", "forgotten(width=3,height=3,goal=clear)",
    "memorinth", "memorinth(players=4,variant=master)", "memorinth(players=1)", "memorinth(chance_setup=true)",
    "mnemonic", "mnemonic(players=1)", "mnemonic(players=6,mode=into-the-grey)",
]


def test_every_game_is_registered_under_its_openspiel_name():
    assert sos.GAME_NAMES == tuple(f"memory_solver_{name}" for name in NAMES)
    for name in sos.GAME_NAMES:
        assert name in pyspiel.registered_names()
        assert pyspiel.load_game(name).get_type().short_name == name


@pytest.mark.parametrize("name", NAMES)
def test_game_type_and_info_follow_our_game(name):
    ours = load_game(name)
    game = pyspiel.load_game(f"memory_solver_{name}")
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.utility.name == ours.utility.name
    assert (kind.min_num_players, kind.max_num_players) == (ours.min_players, ours.max_players)
    assert kind.provides_information_state_string and kind.provides_observation_string
    assert kind.provides_observation_tensor
    # the perfect-recall tensor holds every step a game can have: too big at the default max_moves
    assert not kind.provides_information_state_tensor
    params = game.get_parameters()
    assert set(params) == set(type(ours).PARAMETERS) | {"max_moves", "deal", "deal_seed", "redeal"}
    assert params["max_moves"] == game.max_game_length() == facts(name).default_max_moves
    first = sos.deal(game, 3).position.inner
    assert game.num_players() == len(first.returns())
    assert game.min_utility() < game.max_utility()


def test_parameters_pass_through_to_our_game():
    game = pyspiel.load_game("memory_solver_forgotten(width=4,height=5,erasure=off)")
    ours = game.context.game
    assert (ours.width, ours.height, ours.erasure) == (4, 5, "off")
    solo = pyspiel.load_game("memory_solver_aetherya(mode=solo)")
    assert solo.num_players() == 1 and solo.get_parameters()["players"] == 1
    assert solo.get_type().utility == pyspiel.GameType.Utility.IDENTICAL
    coop = sos.load_game("aetherya(mode=coop,players=3)")
    assert coop.num_players() == 3 and coop.get_type().utility == pyspiel.GameType.Utility.IDENTICAL
    assert sos.load_game("mnemonic(players=5)").num_players() == 5
    assert sos.load_game("memorinth(players=4)").num_players() == 4
    assert sos.load_game(load_game("forgotten(width=4)")).context.game.width == 4


def test_bad_parameters_are_reported():
    with pytest.raises(UnknownGameError, match="game.width"):
        pyspiel.load_game("memory_solver_forgotten(width=99)")
    with pytest.raises(UnknownGameError, match="game.max_moves"):
        pyspiel.load_game("memory_solver_forgotten(max_moves=0)")
    with pytest.raises(UnknownGameError, match="game.max_moves"):
        sos.load_game("forgotten(max_moves=lots)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("memory_solver_forgotten(colour=2)")
    with pytest.raises(UnknownGameError, match="unknown game"):
        sos.load_game("chess")


@pytest.mark.parametrize("spec", VARIANTS)
def test_openspiel_random_simulation_checks(spec):
    """OpenSpiel's RandomSimTest: clones, sorted and unique legal actions, legal-action masks, chance
    probabilities, observation and information-state strings for every player, returns (in range, by utility
    type), game length within ``max_game_length``, and serialise/deserialise round trips along the way."""
    pyspiel.random_sim_test(sos.load_game(spec), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_serialisation_round_trips(name):
    game = sos.load_game(name)
    assert pickle.loads(pickle.dumps(game)).to_string() == game.to_string()
    for state in decision_states(game, seed=4, games=1, every=9, chance=True):
        text = str(state)
        again = game.deserialize_state(state.serialize())
        assert str(again) == text and again.history() == state.history()
        game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert game2.to_string() == game.to_string() and str(state2) == text
        copy = pickle.loads(pickle.dumps(state))
        assert str(copy) == text and copy.is_terminal() == state.is_terminal()
        if not state.is_terminal():
            assert copy.legal_actions() == state.legal_actions()
            for p in range(game.num_players()):
                assert copy.information_state_string(p) == state.information_state_string(p)
        else:
            assert copy.returns() == state.returns()


@pytest.mark.parametrize("name", NAMES)
def test_resample_from_infostate_keeps_what_the_player_knows(name):
    """OpenSpiel's ResampleInfostateTest (information state and player to move kept), plus the legal actions of
    the player to move, and determinism under a seed."""
    game = sos.load_game(name)
    rng = np.random.default_rng(8)
    checked = 0
    for state in decision_states(game, seed=6, games=4, every=2, chance=True):
        if state.is_chance_node() or state.is_terminal():
            continue
        for p in range(game.num_players()):
            other = state.resample_from_infostate(p, rng)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.current_player() == state.current_player()
            if game.get_type().provides_information_state_tensor:
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
            if p == state.current_player():
                assert other.legal_actions() == state.legal_actions()
        p = state.current_player()
        one = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(5, 0.0, 1.0))
        two = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(5, 0.0, 1.0))
        assert str(one) == str(two)
        assert str(state.resample_from_infostate(p, 11)) == str(state.resample_from_infostate(p, 11))
        checked += 1
    assert checked >= 3


def test_resampling_during_the_seeded_deal_redraws_the_bytes():
    state = pyspiel.load_game("memory_solver_forgotten").new_initial_state()
    for byte in (1, 2):
        state.apply_action(byte)
    other = state.resample_from_infostate(0, 3)
    assert other.is_chance_node() and other.observation_string(0) == state.observation_string(0)
    assert len(other.position.seed) == 2


@pytest.mark.parametrize("spec", ["aetherya", "aetherya(mode=solo)", "embers", "forgotten(width=5)", "memorinth",
                                  "mnemonic(players=2)"])
def test_deal_is_our_seeded_deal(spec):
    game = sos.load_game(spec)
    for seed in (0, 7, 2**32 - 1):
        state = sos.deal(game, seed)
        assert not state.is_chance_node()
        assert sos.inner_state(state).to_json() == load_game(spec).new_initial_state(seed).to_json()
        if game.context.deal == "seed":
            assert state.history()[:4] == list(seed.to_bytes(4, "little"))


def test_deal_of_an_explicit_chance_setup_draws_the_setup():
    game = sos.load_game("memorinth(chance_setup=true)")
    assert game.context.deal == "setup" and game.new_initial_state().is_chance_node()
    one, two = sos.deal(game, 5), sos.deal(game, 5)
    assert str(one) == str(two) and one.history() == two.history() and len(one.history()) == 32
    assert str(sos.deal(game, 6)) != str(one)
    with pytest.raises(SolverError, match="seed"):
        sos.deal(sos.load_game("forgotten"), 2**32)


@pytest.mark.parametrize("name", NAMES)
def test_moves_and_actions_convert_both_ways(name):
    game = sos.load_game(name)
    for state in decision_states(game, seed=2, games=1, every=7, chance=True):
        if state.is_terminal() or state.position.dealing:
            continue
        for action in state.legal_actions():
            move = sos.move_from_action(state, action)
            assert state.string_to_action(move) == action
            if not state.is_chance_node():
                assert sos.action_from_move(state, move) == action
        ours = sos.inner_state(state)
        assert sorted(game.context.codec.encode_chance(a) if state.is_chance_node() else game.context.codec.encode(a)
                      for a in ours.legal_actions()) == state.legal_actions()


def test_wrapping_our_positions_and_errors():
    game = sos.load_game("forgotten(width=4,height=4)")
    ours = load_game("forgotten(width=4,height=4)").new_initial_state(3)
    for given in (ours, ours.to_json(), ours.to_notation()):
        wrapped = sos.wrap_state(game, given)
        assert str(wrapped) == ours.to_notation() and wrapped.history() == []
    state = sos.wrap_state(game, ours)
    with pytest.raises(SolverError, match="flip 9,9"):
        sos.action_from_move(state, "flip 9,9")
    with pytest.raises(IllegalMoveError, match="not an OpenSpiel action id"):
        state.apply_action(999)
    with pytest.raises(IllegalMoveError):
        state.apply_action(game.context.game.board.brains[0])  # a Brain cell: our state refuses it
    with pytest.raises(SolverError, match="observation of nothing"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False, public_info=False,
                                                         private_info=pyspiel.PrivateInfoType.NONE))


def test_max_moves_caps_the_game():
    game = sos.load_game("forgotten(erasure=off,max_moves=5)")
    assert game.max_game_length() == 5
    state = sos.deal(game, 1)
    moves = 0
    while not state.is_terminal():
        flips = [a for a in state.legal_actions() if a != 64]  # never give up
        state.apply_action(flips[0])
        moves += 1
    assert moves == 5 and state.returns() == [0.0, 0.0]
    assert "max_moves" in str(state) and not state.position.inner.is_terminal()
    with pytest.raises(IllegalMoveError, match="over"):
        state.apply_action(1)
    copy = game.deserialize_state(state.serialize())
    assert copy.is_terminal() and str(copy) == str(state)


def test_a_capped_game_returns_our_returns_of_that_position():
    game = sos.load_game("aetherya(max_moves=4)")
    state = sos.deal(game, 2)
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(state.legal_actions()[0])
    ours = state.position.inner
    assert state.position.moves == 4 and not ours.is_terminal()
    assert state.returns() == [float(r) for r in ours.returns()]


def test_embers_codec_is_a_bijection_on_its_range():
    from solver.embers import state as E
    deck = load_game("embers").deck
    codec = EmbersCodec(len(deck.cards), len(deck.memory))
    r = codec.reach
    samples = [E.encode(E.DRAW), E.encode(E.STOP), E.encode(E.PASS), E.encode(E.REVEAL, 3), E.encode(E.ARRANGE, 23),
               E.encode(E.TAKE, len(deck.cards) - 1), E.encode(E.KEEP, 0), E.encode(E.DISCARD, 5),
               E.encode_add(0, -r, -r), E.encode_add(len(deck.cards) - 1, r, r), E.encode_add(7, 0, -1)]
    ids = [codec.encode(a) for a in samples]
    assert len(set(ids)) == len(ids) and all(0 <= i < codec.num_distinct_actions for i in ids)
    assert [codec.decode(i) for i in ids] == samples
    assert max(ids) == codec.num_distinct_actions - 1
    with pytest.raises(AssertionError):
        codec.encode(E.encode_add(0, r + 1, 0))


@pytest.mark.parametrize("name", NAMES)
def test_ismcts_plays_a_few_moves_with_our_resampler(name):
    """OpenSpiel's Python IS-MCTS bot, seeded, with our resampler: legal moves, and the same moves twice."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = sos.load_game(name)

    def play():
        rs = np.random.RandomState(3)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0, max_simulations=8,
                               random_state=rs)
        bot.set_resampler(sos.resampler(4))
        state = sos.deal(game, 9)
        moves = []
        while len(moves) < 3 and not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rs.choice(actions, p=probs)))
                continue
            action = int(bot.step(state))
            assert action in state.legal_actions()
            moves.append(sos.move_from_action(state, action))
            state.apply_action(action)
        return moves

    first = play()
    assert len(first) == 3 and first == play()


def test_the_inner_state_is_ours():
    state = sos.deal(sos.load_game("mnemonic"), 1)
    ours = sos.inner_state(state)
    assert ours.current_player() == state.current_player() != CHANCE_PLAYER
    ours.apply_action(ours.legal_actions()[0])  # a copy: the OpenSpiel state does not move
    assert sos.inner_state(state).to_json() != ours.to_json()
