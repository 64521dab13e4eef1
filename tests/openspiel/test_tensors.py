"""Observation tensors of every game (``solver/<game>/openspiel.py``): what a player cannot tell apart looks the
same to them, what they can tell apart does not, and public information is the same for everybody.

Two checks run on seeded random games of every mode of every game:

- the resampler (``resample_from_infostate``, our ``resample_from_observation``) draws the hidden cards again:
  the player's tensor must not change, nor the public tensor whoever the resample is for;
- the tensor tells apart every two observations that differ: among all decisions met, one tensor never stands
  for two different JSON observations (``observation(player)``, everything the player may know).

Hand-made changes per game then move hidden cards (the tensor of a player who cannot see them stays) and change
what a player sees (it changes).
"""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install 'memory-solver[openspiel]')")

import solver.openspiel as sos  # noqa: E402
from solver.registry import load_game  # noqa: E402

from .helpers import (ALL_PLAYERS, PRIVATE_ONLY, PUBLIC, SPECS, decision_states, observer,  # noqa: E402
                      tensor)


#: (games, every k-th decision) where the default (3 games, every 3rd decision) is too few or too slow
SAMPLES = {"forgotten(width=4,height=3,pairs=4,erasure=turn)": (12, 1), "forgotten(width=5,height=4,goal=clear)": (8, 1),
           "aetherya(mode=objects,players=3)": (2, 8), "aetherya": (2, 4), "aetherya(mode=coop,players=3)": (2, 5)}


def _states(spec: str):
    game = sos.load_game(spec)
    games, every = SAMPLES.get(spec, (3, 3))
    return game, decision_states(game, seed=11, games=games, every=every)


@pytest.mark.parametrize("spec", SPECS)
def test_a_resampled_state_looks_the_same_to_that_player_and_public_information_to_everybody(spec):
    game, states = _states(spec)
    public = observer(game, PUBLIC)
    rng = np.random.default_rng(2)
    checked = 0
    for state in states:
        if state.is_terminal():
            continue
        for p in range(game.num_players()):
            other = state.resample_from_infostate(p, rng)
            assert np.array_equal(other.observation_tensor(p), state.observation_tensor(p))
            assert np.array_equal(tensor(public, other, p), tensor(public, state, p))
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("spec", SPECS)
def test_one_tensor_never_stands_for_two_observations(spec):
    game, states = _states(spec)
    seen: dict[tuple[int, bytes], str] = {}
    for state in states:
        for p in range(game.num_players()):
            key = (p, np.asarray(state.observation_tensor(p), dtype=np.float32).tobytes())
            text = state.observation_string(p)
            assert seen.setdefault(key, text) == text, f"one tensor for two observations of player {p}"
    assert len(seen) >= 10


@pytest.mark.parametrize("spec", SPECS)
def test_observation_types_are_built_from_the_same_pieces(spec):
    """The public pieces are the same for every player; all players' = public + everybody's private pieces;
    a player's = public + their private pieces + who observes."""
    game, states = _states(spec)
    public, everybody, private = observer(game, PUBLIC), observer(game, ALL_PLAYERS), observer(game, PRIVATE_ONLY)
    n = game.num_players()
    for state in states[::4]:
        shared = tensor(public, state, 0)
        for p in range(n):
            assert np.array_equal(tensor(public, state, p), shared)
            assert np.array_equal(tensor(everybody, state, p), tensor(everybody, state, 0))
            own = tensor(private, state, p)
            mine = np.asarray(state.observation_tensor(p))
            assert np.array_equal(mine, np.concatenate([shared, own]))
        if n > 1:
            blocks = [tensor(private, state, q)[:-n] for q in range(n)]   # without the observer one-hot
            assert np.array_equal(tensor(everybody, state, 0), np.concatenate([shared] + blocks))
    assert public.string_from(states[0], 0) == public.string_from(states[0], n - 1)


def test_shapes_and_the_forgotten_layout():
    game = sos.load_game("forgotten(width=4,height=4)")
    cells, planes = 16, 4 + 3 * 7
    assert game.observation_tensor_shape() == [cells * planes + 6 + cells + 2 + 1 + 1 + 1 + 2]
    state = sos.deal(game, 3)
    obs = observer(game, None)
    before = tensor(obs, state, 0)
    assert obs.dict["cells"].sum() == cells and obs.dict["phase"][0] == 1 and obs.dict["observer"][0] == 1
    flip = state.legal_actions()[0]
    state.apply_action(flip)
    obs.set_from(state, 1)
    pair = sos.inner_state(state).tiles[flip]
    assert obs.dict["cells"][flip, 4 + 3 * pair] == 1 and obs.dict["cells"][flip, 2] == 0
    assert obs.dict["phase"][1] == 1 and obs.dict["first"][flip] == 1 and obs.dict["to_move"][0] == 1
    assert not np.array_equal(before, obs.tensor)


# -- hand-made changes -------------------------------------------------------------------------------------------
def _wrapped(spec: str, ours):
    return sos.wrap_state(sos.load_game(spec), ours)


def _same(spec: str, one, two, player: int) -> bool:
    return np.array_equal(_wrapped(spec, one).observation_tensor(player),
                          _wrapped(spec, two).observation_tensor(player))


def test_forgotten_unseen_tiles_do_not_show_and_the_turn_does():
    spec = "forgotten(width=4,height=3,pairs=4,erasure=round)"
    state = load_game(spec).new_initial_state(3)
    state.apply_action(next(a for a in state.legal_actions() if a != 64))
    hidden = state.hidden_cells()
    a, b = next((a, b) for a in hidden for b in hidden if state.tiles[a] != state.tiles[b])
    swapped = state.clone()
    swapped.tiles[a], swapped.tiles[b] = swapped.tiles[b], swapped.tiles[a]
    assert _same(spec, state, swapped, 0) and _same(spec, state, swapped, 1)
    # the case: under erasure=round two states a turn apart (the roll is due after one, not the other)
    later = state.clone()
    later.turn += 1
    assert not _same(spec, state, later, 0)
    seen = state.clone()
    seen.seen[a] = True
    assert not _same(spec, state, seen, 0)


def test_memorinth_undersides_a_player_has_not_seen_do_not_show():
    from solver.memorinth.openspiel import DOWN, SEEN, UP
    spec = "memorinth"
    state = load_game(spec).new_initial_state(4)
    vec = state.vec
    unseen = [c for c in range(25) if vec[SEEN + c] == 0 and vec[UP + c] >= 2]
    a, b = next((a, b) for a in unseen for b in unseen if a < b and vec[UP + a] % 2 == vec[UP + b] % 2)
    swapped = state.clone()
    swapped.vec[DOWN + a], swapped.vec[DOWN + b] = vec[DOWN + b], vec[DOWN + a]
    assert _same(spec, state, swapped, 0) and _same(spec, state, swapped, 1)
    peeked = swapped.clone()
    peeked.vec[SEEN + a] = 1          # player 0 has seen the underside on a (a peek): it shows to them only...
    original = state.clone()
    original.vec[SEEN + a] = 1
    assert not _same(spec, original, peeked, 0) and _same(spec, original, peeked, 1)
    assert not _same(spec, state, original, 1)    # ...and that they have seen it is public


def test_mnemonic_other_hands_and_the_deck_do_not_show():
    from solver.mnemonic.cards import card_class
    spec = "mnemonic(players=3,mode=into-the-grey)"
    state = load_game(spec).new_initial_state(5)
    one, two = state.players[1].hand, state.players[2].hand
    i, j = next((i, j) for i in range(len(one)) for j in range(len(two)) if card_class(one[i]) == card_class(two[j]))
    swapped = state.clone()
    swapped.players[1].hand[i], swapped.players[2].hand[j] = two[j], one[i]
    assert _same(spec, state, swapped, 0)
    assert not _same(spec, state, swapped, 1) and not _same(spec, state, swapped, 2)


def test_aetherya_face_down_cards_do_not_show_and_starting_cards_show_to_their_owner():
    spec = "aetherya"
    game = load_game(spec)
    state = game.new_root_state()
    rng = np.random.default_rng(1)
    while state.phase != "arrange":
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    start = state.clone()
    cards = start.start[1]
    swap = next(k for k in range(10) if k not in cards and start.pile[k] > 0)
    start.pile[swap] -= 1
    start.pile[cards[0]] += 1
    start.start[1] = sorted(cards[1:] + [swap])
    assert _same(spec, state, start, 0) and not _same(spec, state, start, 1)
    while state.phase != "choose":
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(state.legal_actions()[0])
    hidden = [(q, c) for q in range(2) for c in range(16) if state.hidden[q] >> c & 1]
    (q1, c1), (q2, c2) = next((x, y) for x in hidden for y in hidden
                              if state.kingdoms[x[0]][x[1]] != state.kingdoms[y[0]][y[1]])
    swapped = state.clone()
    swapped.kingdoms[q1][c1], swapped.kingdoms[q2][c2] = state.kingdoms[q2][c2], state.kingdoms[q1][c1]
    assert _same(spec, state, swapped, 0) and _same(spec, state, swapped, 1)
    revealed = state.clone()
    revealed.hidden[q1] &= ~(1 << c1)
    assert not _same(spec, state, revealed, 0)


def test_embers_face_down_resolve_cards_show_to_aelin_alone_in_chapter_one():
    spec = "embers"
    state = load_game(spec).new_initial_state(2)
    row = next(i for i, r in enumerate(state.rows) if not r.face_up)
    card = state.rows[row].resolve
    other = next(c for c in sorted(state.pile) if not state.deck.cards[c].is_demon)
    swapped = state.clone()
    swapped.rows[row].resolve = other
    swapped.pile = (state.pile - {other}) | {card}
    assert _same(spec, state, swapped, 0) and not _same(spec, state, swapped, 1)
    prologue = "embers(chapter=prologue)"
    state = load_game(prologue).new_initial_state(2)
    row = next(i for i, r in enumerate(state.rows) if not r.face_up)
    card = state.rows[row].resolve
    other = next(c for c in sorted(state.pile))
    swapped = state.clone()
    swapped.rows[row].resolve = other
    swapped.pile = (state.pile - {other}) | {card}
    assert _same(prologue, state, swapped, 0) and _same(prologue, state, swapped, 1)


def test_every_piece_is_documented():
    """docs/openspiel.md names every piece of every game's tensor."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "docs" / "openspiel.md").read_text(encoding="utf-8")
    for spec in SPECS:
        game = sos.load_game(spec)
        context = game.context
        pieces = context.facts.public_pieces(context.game) + context.facts.private_pieces(context.game)
        missing = [p.name for p in pieces if f"`{p.name}`" not in text]
        assert not missing, f"{spec}: {missing} not in docs/openspiel.md"
