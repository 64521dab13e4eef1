"""The compiled Aetherya step kernel (``aetherya_step``: N games stepped together for the batched environment) and
its pure-Python twin agree (hypothesis): deals, legal lists, random actions, steps with their chance draws (the
rows' splitmix64 streams), refusals, legal masks, returns and observations, over whole games of the base game and
the Objects and Characters mode and the co-op mode at 2-4 players and the solo campaign."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.aetherya.game import AetheryaGame
from solver.aetherya.openspiel import (OPTIONAL_PIECES, fill_private, fill_public, kernel_config, private_pieces,
                                       public_pieces, state_of_row)
from solver.kernels import aetherya as K
from solver.twins import aetherya_step as T

SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MODES = ("base", "coop", "objects")
GAMES = {(mode, players): AetheryaGame(mode=mode, players=players) for mode in MODES for players in (2, 3, 4)}
GAMES["solo", 1] = AetheryaGame(mode="solo", players=1)
SETTING = st.sampled_from(sorted(GAMES))


def _dealt(game: AetheryaGame, seeds: list[int]) -> np.ndarray:
    states = np.zeros((len(seeds), K.state_len()), np.int32)
    slots, words = np.arange(len(seeds), dtype=np.int32), np.array(seeds, dtype=np.uint64)
    K.deal(states, kernel_config(game), slots, words)
    twin = np.zeros_like(states)
    T.deal(twin, kernel_config(game), slots, words)
    assert (states == twin).all()
    return states


def _observations(module, states: np.ndarray, game: AetheryaGame, players: np.ndarray) -> dict[str, np.ndarray]:
    n = len(states)
    planes = {p.name: np.zeros((n, p.size), np.float32) for p in public_pieces(game) + private_pieces(game)}
    names = [p.name for p in public_pieces(game)[:14]]
    extra = [planes.get(name, np.zeros((n, 0), np.float32)) for name in OPTIONAL_PIECES]
    module.observe(states, kernel_config(game), players, *(planes[name] for name in names), *extra, planes["mine"],
                   planes.get("peeked", np.zeros((n, 0), np.float32)))
    return planes


def test_sizes_agree():
    assert K.state_len() == T.state_len() and K.max_draws() == T.max_draws() and K.layout() == T.layout()


def write_first_age(states: np.ndarray) -> None:
    """Solo: mark the first Age's Legends written (rows still in it), so that the Age ends well and the campaign
    goes on to the later Ages (the swap, the 2x2 block kept, new territories), which random play almost never
    reaches."""
    layout = K.layout()
    for row in states:
        if row[layout["age"]] > 0:
            continue
        for n in range(1, 16):
            if row[layout["SROW"] + n] == 1:
                row[layout["WRITTEN"] + n] = 1


@SETTINGS
@given(SETTING, st.lists(st.integers(0, 2**63), min_size=1, max_size=3), st.integers(0, 2**31), st.booleans())
def test_whole_games_agree(setting, seeds, seed, written):
    """Both step the same rows with the same uniforms: rows, players, draws, legal lists, returns and observations
    stay the same to the end of every game (solo: from the start, or with the first Age's Legends written)."""
    _play_alike(setting, seeds, seed, written, 0.98)


@SETTINGS
@given(st.sampled_from([("objects", p) for p in (2, 3, 4)]), st.lists(st.integers(0, 2**63), min_size=4, max_size=6),
       st.integers(0, 2**31))
def test_whole_objects_games_agree(setting, seeds, seed):
    """The same with Objects and Characters at every player count, every step settled, to the end of every game:
    the tiles dealt, taken or refused, every tile play of the end of a turn, the tiles discarded at the end."""
    _play_alike(setting, seeds, seed, False, 1.0, to_the_end=True)


def _play_alike(setting, seeds, seed, written, settled, to_the_end=False):
    """Step the kernel and the twin alike until a game ends, or ``to_the_end`` every game (or a step leaves its
    chance events undrawn: each row draws them with probability ``settled``)."""
    game = GAMES[setting]
    config = kernel_config(game)
    x = _dealt(game, seeds)
    prewrite = setting == ("solo", 1) and written
    y = x.copy()
    n = len(seeds)
    rng = np.random.default_rng(seed)
    px, py = np.zeros(n, np.int32), np.zeros(n, np.int32)
    K.players(x, px)
    for _ in range(3000):
        if prewrite:
            write_first_age(x)
            write_first_age(y)
        live = px >= 0
        if not live.any():
            break
        lists = [np.zeros((n, 512), np.int32) for _ in range(2)]
        counts = [np.zeros(n, np.int32) for _ in range(2)]
        K.legal_actions(x, config, lists[0], counts[0])
        T.legal_actions(y, config, lists[1], counts[1])
        assert (counts[0] == counts[1]).all() and (lists[0] == lists[1]).all()
        assert ((counts[0] > 0) == live).all()
        uniforms = rng.random(n)
        picked = [np.zeros(n, np.int32) for _ in range(2)]
        K.random_legal(x, config, uniforms, picked[0])
        T.random_legal(y, config, uniforms, picked[1])
        assert (picked[0] == picked[1]).all()
        observers = np.where(live, px, rng.integers(0, game.num_players, n)).astype(np.int32)
        seen = _observations(T, y, game, observers)
        for key, planes in _observations(K, x, game, observers).items():
            assert np.array_equal(planes, seen[key]), key
        gains = [np.zeros((n, game.num_players)) for _ in range(2)]
        K.returns(x, config, gains[0])
        T.returns(y, config, gains[1])
        assert (gains[0] == gains[1]).all()
        if not live.all():       # a finished game takes no action: the others have been checked to its end
            if not to_the_end:
                break
            x, y, px, py, picked, n = x[live], y[live], px[live], py[live], [p[live] for p in picked], int(live.sum())
        settle = (rng.random(n) < settled).astype(np.uint8)
        drawn = [np.zeros((n, K.max_draws()), np.int32) for _ in range(2)]
        assert K.step(x, config, picked[0], settle, drawn[0], px) == -1
        assert T.step(y, config, picked[1], settle, drawn[1], py) == -1
        assert (x == y).all() and (px == py).all() and (drawn[0] == drawn[1]).all()
        if not settle.all():
            break


@SETTINGS
@given(SETTING, st.lists(st.integers(0, 2**63), min_size=2, max_size=3), st.integers(0, 2**31),
       st.integers(0, 1455))
def test_masks_and_refusals_agree(setting, seeds, seed, probe):
    game = GAMES[setting]
    config = kernel_config(game)
    x = _dealt(game, seeds)
    n = len(seeds)
    rng = np.random.default_rng(seed)
    picked, players = np.zeros(n, np.int32), np.zeros(n, np.int32)
    drawn = np.zeros((n, K.max_draws()), np.int32)
    for _ in range(int(rng.integers(0, 150))):
        K.players(x, players)
        if (players < 0).any():
            break
        K.random_legal(x, config, rng.random(n), picked)
        K.step(x, config, picked, np.ones(n, np.uint8), drawn, players)
    masks = [np.zeros((n, 1456), np.uint8) for _ in range(2)]
    K.legal_mask(x, config, masks[0])
    T.legal_mask(x, config, masks[1])
    assert (masks[0] == masks[1]).all()
    K.random_legal(x, config, rng.random(n), picked)
    picked[-1] = probe
    y, before = x.copy(), x.copy()
    K.players(x, players)
    illegal = [i for i in range(n) if players[i] < 0 or not masks[0][i, picked[i]]]
    refused = K.step(x, config, picked, np.ones(n, np.uint8), drawn, players)
    assert refused == T.step(y, config, picked, np.ones(n, np.uint8), drawn.copy(), players.copy()) \
        == (illegal[0] if illegal else -1)
    assert (x == y).all()
    if illegal:
        assert (x == before).all()


@pytest.mark.parametrize("module", [K, T], ids=["kernel", "twin"])
def test_bad_input_is_rejected(module):
    game = GAMES["base", 2]
    config = kernel_config(game)
    states = _dealt(game, [1, 2])
    out = np.zeros(2, np.int32)
    with pytest.raises(ValueError, match="uniforms"):
        module.random_legal(states, config, np.array([0.5, 1.0]), out)
    with pytest.raises(ValueError, match="expected n entries"):
        module.random_legal(states, config, np.zeros(3), out)
    with pytest.raises(ValueError, match="config"):
        module.legal_mask(states, np.array([3, 2], np.int32), np.zeros((2, 1456), np.uint8))
    with pytest.raises(ValueError, match="config"):
        module.legal_mask(states, np.array([0, 5], np.int32), np.zeros((2, 1456), np.uint8))
    with pytest.raises(ValueError, match="config"):
        module.legal_mask(states, np.array([2, 2], np.int32), np.zeros((2, 1456), np.uint8))
    for word, value in ((0, 99), (3, 10), (7, 4), (425, 3)):     # phase, hold, after a refill, solo's pair
        bad = states.copy()
        bad[1, word] = value
        with pytest.raises(ValueError, match=r"states\[1\]"):
            module.players(bad, out)
    with pytest.raises(ValueError, match=r"slots\[0\]"):
        module.deal(states, config, np.array([5], np.int32), np.array([1], np.uint64))
    with pytest.raises(ValueError, match="drawn"):
        module.step(states, config, out, np.ones(2, np.uint8), np.zeros((2, 3), np.int32), out)
    with pytest.raises(ValueError, match=r"observers\[1\]"):
        _observations(module, states, game, np.array([0, 2], np.int32))
    objects = GAMES["objects", 2]
    dealt, layout = _dealt(objects, [1, 2]), K.layout()
    for word, value in ((layout["TERR"], 64), (layout["ACCORDS"] + 63, -2), (layout["STAFFS"] + 5, 64)):
        bad = dealt.copy()      # a tile word of a territory, an accord, a staff out of range (Objects mode only)
        bad[1, word] = value
        with pytest.raises(ValueError, match=r"states\[1\]: not a row"):
            module.returns(bad, kernel_config(objects), np.zeros((2, 2)))
        module.returns(bad, kernel_config(GAMES["base", 2]), np.zeros((2, 2)))


def test_a_solo_campaign_reaches_its_later_ages_alike():
    """With the first Age's Legends written the kernel and the twin play the later Ages (swap, block) alike."""
    game = GAMES["solo", 1]
    config = kernel_config(game)
    x = _dealt(game, list(range(6)))
    y = x.copy()
    rng = np.random.default_rng(3)
    players, other = np.zeros(6, np.int32), np.zeros(6, np.int32)
    picked, drawn = np.zeros(6, np.int32), np.zeros((6, K.max_draws()), np.int32)
    twin_drawn = drawn.copy()
    ages, phases = set(), set()
    K.players(x, players)
    while (players >= 0).all():
        write_first_age(x)
        write_first_age(y)
        K.random_legal(x, config, rng.random(6), picked)
        assert K.step(x, config, picked, np.ones(6, np.uint8), drawn, players) == -1
        assert T.step(y, config, picked, np.ones(6, np.uint8), twin_drawn, other) == -1
        assert (x == y).all() and (drawn == twin_drawn).all()
        ages |= set(x[:, K.layout()["age"]].tolist())
        phases |= set(x[:, K.layout()["phase"]].tolist())
    assert 1 in ages and {6, 16} <= phases      # Age 2 reached; its swap and block played


#: the tile plays of the end of a turn (first action id, name), the Objects decisions a test must see played
TILE_PLAYS = ((1200, 1456, "trafficker"), (1100, 1200, "thief"), (1000, 1100, "peek"), (900, 1000, "griffin"),
              (600, 900, "hammer"), (520, 600, "staff"), (500, 520, "accord"), (115, 130, "sword claim"),
              (90, 92, "tile"))
OBJECTS_FIELDS = ("undealt", "territory_tiles", "face_up_tiles", "owned", "accords", "staffs", "tile_discard",
                  "unrevealed", "known", "pending_tile", "peeks_used")


def _planes_of(game: AetheryaGame, state, player: int) -> dict[str, np.ndarray]:
    """The adapter's observation pieces of ``state`` by ``player`` (``fill_public``, ``fill_private``), flattened."""
    planes = {p.name: np.zeros(p.shape, np.float32) for p in public_pieces(game) + private_pieces(game)}
    fill_public(game, state, planes)
    fill_private(game, state, player, planes)
    return {name: plane.reshape(-1) for name, plane in planes.items()}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_objects_games_are_the_state_games(players):
    """Objects and Characters (AE-23 to AE-31) on the kernel: whole games, each replayed through our
    ``AetheryaState`` with the same decisions and the kernel's chance outcomes (tiles dealt, cards, Legends), agree
    at every step on who acts, the legal list, the row read back as a state (tiles on the territories, face up,
    owned, Accords, Staffs, discarded, unrevealed, peeks, the pending tile), every player's observation (public
    and private pieces) and the returns; every tile play (Accord, Staff, Hammer, Griffin, Palantir, Thief,
    Trafficker, the Sword's claims, a tile taken or refused) is played at least once."""
    played = _replay_against_states(GAMES["objects", players], players)
    assert played == {name for _, _, name in TILE_PLAYS}, played


def test_objects_with_a_family_of_repeated_tiles_are_the_state_games(tmp_path):
    """The same with a tile file whose family repeats kinds (3 Griffins, 3 Thieves, 2 Palantirs, the Stones 1 and 4
    twice): the kernel counts copies of a tile where the state lists them."""
    kinds = ["griffin"] * 3 + ["thief"] * 3 + ["palantir"] * 2 + ["stone1", "stone4"] * 2
    path = tmp_path / "family.json"
    path.write_text(json.dumps({"format": "aetherya-tiles/1", "tiles": kinds}))
    game = AetheryaGame(mode="objects", players=3, tiles=str(path))
    assert kernel_config(game)[2:14].tolist() == sorted([3] * 3 + [11] * 3 + [5] * 2 + [6, 9] * 2)
    assert {"thief", "griffin", "peek"} <= _replay_against_states(game, 3)


def _replay_against_states(game: AetheryaGame, players: int) -> set[str]:
    """Play random Objects games on the kernel, each replayed through our state, checking them at every step until
    the first game ends; the tile plays played."""
    config = kernel_config(game)
    n = 5
    x = _dealt(game, [1000 * players + i for i in range(n)])
    ours = [state_of_row(game, row) for row in x]
    rng = np.random.default_rng(players)
    live, picked = np.zeros(n, np.int32), np.zeros(n, np.int32)
    drawn, listed, counts = np.zeros((n, K.max_draws()), np.int32), np.zeros((n, 512), np.int32), np.zeros(n, np.int32)
    gains = np.zeros((n, players))
    played: set[str] = set()
    K.players(x, live)
    while (live >= 0).all():
        K.legal_actions(x, config, listed, counts)
        K.returns(x, config, gains)
        for observer in range(players):
            seen = _observations(K, x, game, np.full(n, observer, np.int32))
            for i, state in enumerate(ours):
                expected = _planes_of(game, state, observer)
                for name, plane in expected.items():
                    assert np.array_equal(seen[name][i], plane), (i, observer, name)
        for i, state in enumerate(ours):
            assert live[i] == state.current_player()
            assert listed[i, :counts[i]].tolist() == state.legal_actions()
            assert gains[i].tolist() == state.returns()
            back = state_of_row(game, x[i])
            assert back.to_json() == state.to_json()
            assert all(getattr(back, f) == getattr(state, f) for f in OBJECTS_FIELDS), i
        K.random_legal(x, config, rng.random(n), picked)
        played |= {name for a in picked.tolist() for first, end, name in TILE_PLAYS if first <= a < end}
        assert K.step(x, config, picked, np.ones(n, np.uint8), drawn, live) == -1
        for i, state in enumerate(ours):
            state.apply_action(int(picked[i]))
            for outcome in drawn[i][drawn[i] >= 0].tolist():
                state.apply_action(outcome)
    finished = [i for i in range(n) if live[i] < 0]
    K.returns(x, config, gains)
    for i in finished:
        assert ours[i].is_terminal() and gains[i].tolist() == ours[i].returns()
        assert ours[i].unrevealed or ours[i].tile_discard        # the end discards the territories' tiles
    return played


@pytest.mark.parametrize("module", [K, T], ids=["kernel", "twin"])
def test_objects_bad_input_is_named(module):
    """An Objects config with a bad tile kind names the word; an illegal tile play names its row."""
    game = GAMES["objects", 3]
    config = kernel_config(game)
    states = _dealt(game, [5, 6])
    bad = config.copy()
    bad[7] = 12
    with pytest.raises(ValueError, match=r"config\[7\]: expected a tile kind 0..11, got 12"):
        module.legal_mask(states, bad, np.zeros((2, 1456), np.uint8))
    with pytest.raises(ValueError, match="config"):
        module.legal_mask(states, config[:2].copy(), np.zeros((2, 1456), np.uint8))
    for word, value in (("pending", 64), ("TERR", 64), ("ACCORDS", -2)):    # a tile word indexes the tile blocks
        broken = states.copy()
        broken[1, K.layout()[word] + (word != "pending") * 3] = value
        with pytest.raises(ValueError, match=r"states\[1\]: not a row of this kernel"):
            module.legal_mask(broken, config, np.zeros((2, 1456), np.uint8))
    picked, players = np.zeros(2, np.int32), np.zeros(2, np.int32)
    module.random_legal(states, config, np.array([0.2, 0.7]), picked)
    picked[1] = 900                               # a Griffin nobody owns
    before = states.copy()
    assert module.step(states, config, picked, np.ones(2, np.uint8), np.zeros((2, K.max_draws()), np.int32),
                       players) == 1
    assert (states == before).all()
