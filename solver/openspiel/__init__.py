"""Every memory-solver game as an OpenSpiel game, so that OpenSpiel's algorithms run on them.

``import solver.openspiel`` registers ``memory_solver_aetherya``,
``memory_solver_embers``, ``memory_solver_forgotten``, ``memory_solver_memorinth``
and ``memory_solver_mnemonic`` with ``pyspiel``::

    import pyspiel
    import solver.openspiel
    game = pyspiel.load_game("memory_solver_forgotten(width=4,height=4)")

Needs the optional extra ``pip install 'memory-solver[openspiel]'``. The helpers
below connect OpenSpiel's world with ours (the same deal, our move strings, a
seeded resampler for IS-MCTS); ``docs/openspiel.md`` says how everything maps.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("solver.openspiel needs OpenSpiel: pip install 'memory-solver[openspiel]' "
                      "(open-spiel publishes wheels for Python 3.11 to 3.13)") from exc

from solver.errors import IllegalMoveError, InvalidInputError
from solver.game import CHANCE_PLAYER, Game, State
from solver.openspiel.adapter import (ADAPTER_PARAMETERS, MAX_MOVES, PREFIX, OpenSpielGame, OpenSpielState, Position,
                                      as_generator, parameter_specification, register, short_name)
from solver.openspiel.facts import SEED_BYTES, openspiel_names
from solver.registry import game_class, parse_spec

__all__ = ["GAME_NAMES", "MAX_MOVES", "PREFIX", "OpenSpielGame", "OpenSpielState", "Position", "action_from_move",
           "as_generator", "deal", "environment", "inner_state", "load_game", "move_from_action", "parameter_specification",
           "resampler", "short_name", "wrap_state"]

GAME_NAMES = tuple(short_name(name) for name in openspiel_names())

for _name in openspiel_names():
    register(_name)


def load_game(spec: str | Game) -> OpenSpielGame:
    """The OpenSpiel game of one of ours: ``load_game("forgotten(width=4)")`` (our spec syntax) or a game object.

    The adapter's parameters (``max_moves``, ``deal``, ``deal_seed``, ``redeal``) may be given
    too. Values are typed by our parameter definitions, so a string parameter that looks like
    a number stays a string.
    """
    if isinstance(spec, Game):
        name, params = spec.name, dict(spec.params)
    else:
        name, params = parse_spec(spec)
        game_class(name)  # unknown names raise our UnknownGameError
    typed: dict[str, Any] = {}
    for key, value in params.items():
        if key in ADAPTER_PARAMETERS:
            typed[key] = ADAPTER_PARAMETERS[key].check(key, value)
        elif key in game_class(name).PARAMETERS:
            typed[key] = game_class(name).PARAMETERS[key].check(key, value)
        else:
            typed[key] = value  # OpenSpiel reports the unknown parameter with the list of known ones
    return pyspiel.load_game(short_name(name), typed)


def environment(spec: str | Game, **kwargs: Any) -> Any:
    """OpenSpiel's ``rl_environment.Environment`` of one of our games, from our spec syntax
    (``"forgotten(width=3,height=3)"``) or a game object; ``kwargs`` go to the environment
    (``observation_type``, ``discount``, ...). ``rl_environment.Environment("memory_solver_forgotten(...)")``
    works as well once this package is imported."""
    from open_spiel.python import rl_environment   # lazy: the RL environment pulls in OpenSpiel's Python helpers
    return rl_environment.Environment(load_game(spec), **kwargs)


def deal(game: OpenSpielGame, seed: int) -> OpenSpielState:
    """The OpenSpiel state at the first decision of deal ``seed``, reached through OpenSpiel's chance nodes (so its
    history is complete).

    ``deal=seed`` (the default of games dealt by a seed): the seed's four bytes are the first
    four chance outcomes (``0 <= seed < 2**32``), so that the position is our own
    ``new_initial_state(seed)`` (or, with ``redeal``, the deal that replaces it when that one is
    decided before the first decision). Games with a set-up of their own chance nodes (Aetherya,
    Memorinth with ``chance_setup=true``) draw it with ``numpy.random.default_rng(seed)``, as
    Aetherya's ``new_initial_state`` does; ``deal=all`` draws the deal the same way; ``deal=fixed``
    starts at its deal. Further chance nodes up to the first decision are drawn the same way.
    """
    seed = int(seed)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    if game.context.deal == "seed":
        if not 0 <= seed < 2 ** (8 * SEED_BYTES):
            raise InvalidInputError("seed", seed, "a deal seed is 0..2**32-1 in OpenSpiel")
        for byte in seed.to_bytes(SEED_BYTES, "little"):
            state.apply_action(byte)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        pick = int(rng.choice(actions, p=np.asarray(probs) / sum(probs)))
        state.apply_action(pick)
    return state


def wrap_state(game: OpenSpielGame, state: State | dict | str) -> OpenSpielState:
    """An OpenSpiel state at one of our positions (a state, its JSON or its notation), with an empty history."""
    if isinstance(state, State):
        state = state.clone()
    return game.new_initial_state(state)


def inner_state(state: OpenSpielState) -> State:
    """A copy of our state inside an OpenSpiel state (raises while the deal seed is being chosen)."""
    return state.position.inner.clone()


def action_from_move(state: OpenSpielState, move: str) -> int:
    """OpenSpiel's id of our move string ``move`` in ``state`` (our parser: errors quote the move)."""
    ours = state.position.inner
    if ours.current_player() == CHANCE_PLAYER:
        raise IllegalMoveError("move", move, "the state is at a chance node, not a player's decision")
    return state.get_game().context.codec.encode(ours.parse_move(move))


def move_from_action(state: OpenSpielState, action: int) -> str:
    """Our move string of OpenSpiel's ``action`` in ``state`` (a chance outcome at a chance node)."""
    return state.action_to_string(state.current_player(), int(action))


def resampler(seed: int):
    """A seeded resampler for OpenSpiel's IS-MCTS: ``bot.set_resampler(resampler(7))``.

    IS-MCTS calls ``state.resample_from_infostate`` with a fresh, clock-seeded
    sampler each time; this callback draws from one numpy Generator instead, so a
    search with a seeded bot is reproducible.
    """
    rng = np.random.default_rng(seed)

    def resample(state: OpenSpielState, player: int) -> OpenSpielState:
        return state.resample_from_infostate(player, rng)

    return resample
