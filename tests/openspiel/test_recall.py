"""Perfect-recall information states: the player's action-observation history, as string and tensor."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install 'memory-solver[openspiel]')")

import solver.openspiel as sos  # noqa: E402
from solver.errors import SolverError  # noqa: E402

from .helpers import PUBLIC_HISTORY, decision_states, observer, play, tensor  # noqa: E402

#: small settings, so that the information state tensor (every step a game can have) is offered
SMALL = ["forgotten(width=4,height=3,pairs=4,erasure=turn,max_moves=24)", "memorinth(max_moves=12)",
         "mnemonic(players=2,max_moves=14)", "embers(chapter=prologue,max_moves=12)", "aetherya(max_moves=8)"]


def _flips(game, first: str, second: str):
    state = sos.deal(game, 3)
    state.apply_action(sos.action_from_move(state, first))
    state.apply_action(sos.action_from_move(state, second))
    return state


def test_the_order_of_the_flips_is_remembered():
    """The issue's case: flipping 2,1 then 3,1 and 3,1 then 2,1 leave the same board, not the same history."""
    game = sos.load_game("forgotten(width=4,height=3,pairs=4,erasure=off,max_moves=20)")
    assert game.get_type().provides_information_state_tensor
    one, two = _flips(game, "flip 2,1", "flip 3,1"), _flips(game, "flip 3,1", "flip 2,1")
    for p in range(2):
        assert one.observation_string(p) == two.observation_string(p)
        assert one.observation_tensor(p) == two.observation_tensor(p)
        assert one.information_state_string(p) != two.information_state_string(p)
        assert one.information_state_tensor(p) != two.information_state_tensor(p)
    assert "p0 flip 2,1" in one.information_state_string(0) and "flip 2,1" not in one.information_state_string(1)


@pytest.mark.parametrize("spec", SMALL)
def test_a_history_only_grows(spec):
    """Perfect recall: each step adds one record to every player's information state (a line of the string, a
    slot of the tensor) and keeps the earlier ones; the record shows the player's own move and nobody else's."""
    game = sos.load_game(spec)
    assert game.get_type().provides_information_state_tensor
    slots, width = game.information_state_tensor_shape()
    n = game.num_players()
    rng = np.random.default_rng(4)
    for _ in range(2):
        state = game.new_initial_state()
        texts = [state.information_state_string(p) for p in range(n)]
        tables = [np.asarray(state.information_state_tensor(p)).reshape(slots, width) for p in range(n)]
        while not state.is_terminal():
            actor = state.current_player()
            before = state.clone()
            play(state, rng)
            action = state.history()[-1]
            for p in range(n):
                text = state.information_state_string(p)
                assert text.startswith(texts[p] + "\n") and text.count("\n") == texts[p].count("\n") + 1
                record = text.rsplit("\n", 1)[1]
                if actor == p:
                    assert record.startswith(f"p{p} {before.action_to_string(actor, action)} ")
                else:
                    assert record.startswith("chance - " if actor < 0 else f"p{actor} - ")
                table = np.asarray(state.information_state_tensor(p)).reshape(slots, width)
                used = int(tables[p][:, 0].sum())
                assert table[:, 0].sum() == used + 1 and np.array_equal(table[:used], tables[p][:used])
                texts[p], tables[p] = text, table


@pytest.mark.parametrize("spec", SMALL)
def test_the_tensor_tells_apart_what_the_string_tells_apart(spec):
    game = sos.load_game(spec)
    seen: dict[tuple[int, bytes], str] = {}
    for state in decision_states(game, seed=8, games=4, every=1):
        for p in range(game.num_players()):
            key = (p, np.asarray(state.information_state_tensor(p), dtype=np.float32).tobytes())
            text = state.information_state_string(p)
            assert seen.setdefault(key, text) == text
    assert len(seen) > 20


@pytest.mark.parametrize("spec", SMALL)
def test_a_resampled_state_keeps_the_players_history(spec):
    game = sos.load_game(spec)
    rng = np.random.default_rng(3)
    checked = 0
    for state in decision_states(game, seed=5, games=2, every=2):
        if state.is_terminal():
            continue
        p = state.current_player()
        other = state.resample_from_infostate(p, rng)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.information_state_tensor(p) == state.information_state_tensor(p)
        if not other.is_terminal():  # the resampled world goes on from the player's history
            child = other.child(other.legal_actions()[0])
            assert child.information_state_string(p).startswith(state.information_state_string(p) + "\n")
        checked += 1
    assert checked >= 3


def test_the_public_history_is_everybodys_and_survives_serialisation():
    game = sos.load_game("mnemonic(players=3,max_moves=12)")
    public = observer(game, PUBLIC_HISTORY)
    for state in decision_states(game, seed=2, games=1, every=4):
        texts = {public.string_from(state, p) for p in range(3)}
        assert len(texts) == 1
        assert len({tensor(public, state, p).tobytes() for p in range(3)}) == 1
        again = game.deserialize_state(state.serialize())
        for p in range(3):
            assert again.information_state_string(p) == state.information_state_string(p)


def test_the_history_tensor_is_offered_while_it_is_small():
    big = sos.load_game("forgotten")
    assert not big.get_type().provides_information_state_tensor
    state = sos.deal(big, 1)
    assert state.information_state_string(0).startswith("start")
    with pytest.raises(SolverError, match="lower max_moves"):
        state.information_state_tensor(0)
    small = sos.load_game("forgotten(width=3,height=3,pairs=2,max_moves=30)")
    slots, width = small.information_state_tensor_shape()
    assert slots == 1 + 4 + 30 + small.context.facts.chance_steps(small.context.game, 30)
    assert width == 1 + 3 + 7 + small.observation_tensor_size()
