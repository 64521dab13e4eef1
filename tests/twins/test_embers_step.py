"""The compiled Embers step kernel (``embers_step``: N games stepped together for the batched environment) and its
pure-Python twin agree (hypothesis): deals, legal lists, random actions, steps with their chance draws, refusals,
legal masks and observations, over whole games of both chapters."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.embers.game import EmbersGame
from solver.embers.openspiel import deck_table, public_pieces, private_pieces
from solver.kernels import embers as K
from solver.twins import embers_step as T

GAMES = {chapter: EmbersGame(chapter=name) for chapter, name in enumerate(("one", "prologue"))}
DECK = deck_table(GAMES[0])
MEMORY = np.array([c.index for c in GAMES[0].deck.memory], dtype=np.int32)
SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _dealt(chapter: int, seeds: list[int]) -> np.ndarray:
    states = np.zeros((len(seeds), K.state_len()), np.int32)
    orders = np.stack([MEMORY[np.random.default_rng(s).permutation(len(MEMORY))] for s in seeds])
    K.deal(states, DECK, np.arange(len(seeds), dtype=np.int32), chapter, orders)
    twin = np.zeros_like(states)
    T.deal(twin, DECK, np.arange(len(seeds), dtype=np.int32), chapter, orders)
    assert (states == twin).all()
    return states


def _observations(module, states: np.ndarray, chapter: int, players: np.ndarray) -> dict[str, np.ndarray]:
    game = GAMES[chapter]
    planes = {p.name: np.zeros((len(states), *p.shape), np.float32) for p in public_pieces(game) + private_pieces(game)}
    module.observe(states, DECK, players, *(planes[p.name] for p in public_pieces(game)), planes["resolve"])
    return planes


def test_sizes_agree():
    assert K.state_len() == T.state_len() and K.max_draws() == T.max_draws() and K.layout() == T.layout()


@SETTINGS
@given(st.integers(0, 1), st.lists(st.integers(0, 2**31), min_size=1, max_size=3), st.integers(0, 2**31))
def test_whole_games_agree(chapter, seeds, seed):
    """Both step the same rows with the same uniforms: rows, players, draws, legal lists and observations stay the
    same until a game ends."""
    x = _dealt(chapter, seeds)
    y = x.copy()
    n = len(seeds)
    rng = np.random.default_rng(seed)
    px, py = np.zeros(n, np.int32), np.zeros(n, np.int32)
    K.players(x, px)
    for _ in range(120):
        if (px < 0).any():
            break
        counts = [np.zeros(n, np.int32) for _ in range(2)]
        K.legal_counts(x, DECK, counts[0])
        T.legal_counts(y, DECK, counts[1])
        assert (counts[0] == counts[1]).all() and (counts[0] > 0).all()
        uniforms = rng.random(n)
        picked = [np.zeros(n, np.int32) for _ in range(2)]
        K.random_legal(x, DECK, uniforms, picked[0])
        T.random_legal(y, DECK, uniforms, picked[1])
        assert (picked[0] == picked[1]).all()
        for key, planes in _observations(K, x, chapter, px).items():
            assert np.array_equal(planes, _observations(T, y, chapter, px)[key]), key
        settle = (rng.random(n) < 0.95).astype(np.uint8)
        draws = rng.random((n, K.max_draws()))
        drawn = [np.zeros((n, K.max_draws()), np.int32) for _ in range(2)]
        assert K.step(x, DECK, picked[0], settle, draws, drawn[0], px) == -1
        assert T.step(y, DECK, picked[1], settle, draws, drawn[1], py) == -1
        assert (x == y).all() and (px == py).all() and (drawn[0] == drawn[1]).all()
        if not settle.all():
            break


@SETTINGS
@given(st.integers(0, 1), st.lists(st.integers(0, 2**31), min_size=2, max_size=3), st.integers(0, 2**31),
       st.integers(0, 201_790))
def test_masks_and_refusals_agree(chapter, seeds, seed, probe):
    x = _dealt(chapter, seeds)
    n = len(seeds)
    rng = np.random.default_rng(seed)
    picked, players = np.zeros(n, np.int32), np.zeros(n, np.int32)
    drawn = np.zeros((n, K.max_draws()), np.int32)
    for _ in range(int(rng.integers(0, 30))):
        K.players(x, players)
        if (players < 0).any():
            break
        K.random_legal(x, DECK, rng.random(n), picked)
        K.step(x, DECK, picked, np.ones(n, np.uint8), rng.random((n, K.max_draws())), drawn, players)
    masks = [np.zeros((n, 201_791), np.uint8) for _ in range(2)]
    K.legal_mask(x, DECK, masks[0])
    T.legal_mask(x, DECK, masks[1])
    assert (masks[0] == masks[1]).all()
    K.random_legal(x, DECK, rng.random(n), picked)
    picked[-1] = probe
    y, before = x.copy(), x.copy()
    K.players(x, players)
    illegal = [i for i in range(n) if players[i] < 0 or not masks[0][i, picked[i]]]
    refused = K.step(x, DECK, picked, np.ones(n, np.uint8), np.zeros((n, K.max_draws())), drawn, players)
    assert refused == T.step(y, DECK, picked, np.ones(n, np.uint8), np.zeros((n, K.max_draws())), drawn, players.copy()) \
        == (illegal[0] if illegal else -1)
    assert (x == y).all()
    if illegal:
        assert (x == before).all()


@pytest.mark.parametrize("module", [K, T], ids=["kernel", "twin"])
def test_bad_input_is_rejected(module):
    states = _dealt(0, [1, 2])
    out = np.zeros(2, np.int32)
    with pytest.raises(ValueError, match=r"uniforms\[1\]: expected a number in \[0, 1\), got 1.0"):
        module.random_legal(states, DECK, np.array([0.5, 1.0]), out)
    with pytest.raises(ValueError, match="expected n entries"):
        module.legal_counts(states, DECK, np.zeros(3, np.int32))
    with pytest.raises(ValueError, match=r"deck\[0\]"):
        module.legal_counts(states, np.where(np.arange(3) == 1, 9, DECK).astype(np.int32), out)
    bad = states.copy()
    bad[1, 4] = 99
    with pytest.raises(ValueError, match=r"states\[1\]"):
        module.legal_counts(bad, DECK, out)
    with pytest.raises(ValueError, match="not a memory card"):
        module.deal(states, DECK, np.array([0], np.int32), 0, np.full((1, 35), 36, np.int32))
    with pytest.raises(ValueError, match="uniforms and drawn"):
        module.step(states, DECK, out, np.ones(2, np.uint8), np.zeros((2, 3)), np.zeros((2, 16), np.int32), out)
    uniforms = np.zeros((2, T.MAX_DRAWS))
    uniforms[1, 2] = -0.25
    with pytest.raises(ValueError, match=r"uniforms\[1, 2\]: expected a number in \[0, 1\), got -0.25"):
        module.step(states, DECK, out, np.ones(2, np.uint8), uniforms, np.zeros((2, T.MAX_DRAWS), np.int32), out)
