"""OpenSpiel's Python-game API wrapped around our state contract (``solver/game.py``).

One :class:`OpenSpielGame` per parameter set, one :class:`OpenSpielState` per
position. A state holds a single attribute, a :class:`Position`: our own
:class:`~solver.game.State` plus what only the adapter knows (the deal seed
while it is being dealt, the number of decisions made). OpenSpiel's trampoline
clones a Python state by deep-copying its attributes and serialises it by
pickling them; ``Position`` turns the first into our ``clone()`` and the second
into our ``to_json()``.

How each OpenSpiel notion maps onto ours is documented in ``docs/openspiel.md``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from solver.errors import IllegalMoveError, InvalidInputError, UnsupportedActionError
from solver.game import CHANCE_PLAYER, TERMINAL_PLAYER, Game, Parameter, State, Utility
from solver.openspiel.games import BYTE_OUTCOMES, FACTS, SEED_BYTES, GameFacts
from solver.registry import game_class

PREFIX = "memory_solver_"
MAX_MOVES = "max_moves"
#: how ``max_moves`` is checked (its default is per game: ``GameFacts.default_max_moves``)
MAX_MOVES_PARAMETER = Parameter(1, int, "player decisions after which the adapter ends a game", lo=1, hi=10**9)
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_UTILITY = {
    Utility.ZERO_SUM: pyspiel.GameType.Utility.ZERO_SUM,
    Utility.CONSTANT_SUM: pyspiel.GameType.Utility.CONSTANT_SUM,
    Utility.GENERAL_SUM: pyspiel.GameType.Utility.GENERAL_SUM,
    Utility.IDENTICAL: pyspiel.GameType.Utility.IDENTICAL,
}


def short_name(name: str) -> str:
    """OpenSpiel's name of our game ``name``: ``memory_solver_<name>``."""
    return PREFIX + name


def parameter_specification(name: str) -> dict[str, Any]:
    """OpenSpiel parameters of game ``name``: ours with their defaults, plus ``max_moves``."""
    spec: dict[str, Any] = {key: p.default for key, p in game_class(name).PARAMETERS.items()}
    spec[MAX_MOVES] = FACTS[name].default_max_moves
    return spec


def game_type(name: str, utility: Utility | None = None) -> pyspiel.GameType:
    """The ``GameType`` of game ``name`` (``utility`` overrides the class's, per parameter set)."""
    cls = game_class(name)
    tensors = FACTS[name].tensor is not None
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"memory-solver {cls.long_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_UTILITY[utility or cls.utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=tensors,
        provides_observation_string=True,
        provides_observation_tensor=tensors,
        parameter_specification=parameter_specification(name),
    )


class Context:
    """One OpenSpiel parameter set of one of our games: our game object and the facts derived from it."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        self.name = name
        self.facts: GameFacts = FACTS[name]
        defaults = parameter_specification(name)
        given = {**defaults, **params}
        # OpenSpiel fills in every default; we pass on only what was changed, so that our own defaults that
        # depend on other parameters (Aetherya: mode=solo means players=1) still apply.
        ours = {k: v for k, v in given.items() if k != MAX_MOVES and v != defaults[k]}
        self.game: Game = game_class(name)(**ours)
        #: the parameters as our game settled them (OpenSpiel's game string shows these)
        self.params = {**{k: self.game.params[k] for k in defaults if k != MAX_MOVES}, MAX_MOVES: given[MAX_MOVES]}
        self.max_moves = MAX_MOVES_PARAMETER.check(MAX_MOVES, self.params[MAX_MOVES])
        self.codec = self.facts.codec(self.game)
        self.num_players = int(self.facts.num_players(self.game))
        self.utility = self.facts.utility(self.game)
        self.seeded = self.facts.explicit_root(self.game) is None
        lo, hi = self.facts.utility_range(self.game)
        self.min_utility, self.max_utility = float(lo), float(hi)

    def game_info(self) -> pyspiel.GameInfo:
        """OpenSpiel's ``GameInfo``: action and chance bounds, players, utility range, length cap."""
        chance = max(self.codec.num_chance_outcomes, BYTE_OUTCOMES if self.seeded else 0)
        return pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_distinct_actions,
            max_chance_outcomes=chance,
            num_players=self.num_players,
            min_utility=self.min_utility,
            max_utility=self.max_utility,
            utility_sum=None,
            max_game_length=self.max_moves,
        )

    def root(self) -> Position:
        """The position before anything is dealt."""
        return Position(self, [] if self.seeded else None, None, 0)


_CONTEXTS: dict[tuple[str, tuple[tuple[str, Any], ...]], Context] = {}


def context_for(name: str, params: dict[str, Any]) -> Context:
    """The (cached) context of a parameter set, so that every state of one game shares one game object."""
    key = (name, tuple(sorted({**parameter_specification(name), **params}.items())))
    if key not in _CONTEXTS:
        _CONTEXTS[key] = Context(name, params)
    return _CONTEXTS[key]


class Position:
    """Our state with the adapter's own bookkeeping.

    ``seed`` is the list of seed bytes dealt so far while the deal seed is being
    chosen (``None`` afterwards, and always ``None`` for a game with an explicit
    chance root); ``inner`` is our state (created lazily at an explicit root);
    ``moves`` counts the players' decisions, for the ``max_moves`` cap.
    """

    __slots__ = ("context", "seed", "_inner", "moves")

    def __init__(self, context: Context, seed: list[int] | None, inner: State | None, moves: int) -> None:
        self.context = context
        self.seed = seed
        self._inner = inner
        self.moves = moves

    # -- our state ----------------------------------------------------------------------------
    @property
    def dealing(self) -> bool:
        """True while the deal seed is being chosen (before our state exists)."""
        return self.seed is not None

    @property
    def inner(self) -> State:
        """Our state (raises while the deal seed is being chosen)."""
        if self.seed is not None:
            raise UnsupportedActionError("state", "dealing", "the deal seed is still being chosen: there is no game "
                                                            "state yet")
        if self._inner is None:
            self._inner = self.context.facts.explicit_root(self.context.game)
        return self._inner

    def over(self) -> bool:
        """The game ended by its rules, or the ``max_moves`` cap was reached."""
        return self.current_player() == TERMINAL

    # -- the OpenSpiel contract -----------------------------------------------------------------
    def current_player(self) -> int:
        if self.seed is not None:
            return CHANCE
        player = (self._inner if self._inner is not None else self.inner).current_player()
        if player == TERMINAL_PLAYER or self.moves >= self.context.max_moves:
            return TERMINAL
        return CHANCE if player == CHANCE_PLAYER else int(player)

    def legal_actions(self) -> list[int]:
        """Sorted OpenSpiel ids of the player's legal decisions."""
        return self.context.codec.encode_all(self.inner.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(OpenSpiel id, probability)]``, sorted by id."""
        if self.dealing:
            return [(b, 1.0 / BYTE_OUTCOMES) for b in range(BYTE_OUTCOMES)]
        encode = self.context.codec.encode_chance
        return sorted((encode(a), float(p)) for a, p in self.inner.chance_outcomes())

    def apply(self, action: int) -> None:
        """Apply OpenSpiel's ``action`` (our state checks its legality)."""
        action = int(action)
        if self.dealing:
            if not 0 <= action < BYTE_OUTCOMES:
                raise IllegalMoveError("action", action, f"a seed byte is 0..{BYTE_OUTCOMES - 1}")
            self.seed.append(action)
            if len(self.seed) == SEED_BYTES:
                seed = int.from_bytes(bytes(self.seed), "little")
                self._inner = self.context.game.new_initial_state(seed=seed)
                self.seed = None
            return
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalMoveError("action", action, "the game is over")
        codec = self.context.codec
        if player == CHANCE:
            self.inner.apply_action(codec.decode_chance(action))
        else:
            self.inner.apply_action(codec.decode(action))
            self.moves += 1

    def action_to_string(self, player: int, action: int) -> str:
        """Our move string of OpenSpiel's ``action`` (decoded as a chance outcome when ``player`` is chance)."""
        if self.dealing:
            return f"seed byte {len(self.seed) + 1} = {int(action)}"
        codec = self.context.codec
        ours = codec.decode_chance(action) if player == CHANCE else codec.decode(action)
        return self.inner.action_to_string(ours)

    def returns(self) -> list[float]:
        """Our returns once the game is over (or capped), zeros before (OpenSpiel's terminal reward model)."""
        n = self.context.num_players
        if not self.over():
            return [0.0] * n
        values = [float(r) for r in self.inner.returns()]
        if len(values) != n:
            raise AssertionError(f"{self.context.name} returned {len(values)} values for {n} players")
        return values

    def observation(self, player: int) -> dict[str, Any]:
        """``player``'s observation: our ``observation(player)`` (a note of the progress while dealing)."""
        if not 0 <= player < self.context.num_players:
            raise InvalidInputError("player", player, f"expected 0..{self.context.num_players - 1}")
        if self.dealing:
            return {"dealing": f"{len(self.seed)} of {SEED_BYTES} seed bytes chosen"}
        return self.inner.observation(player)

    def observation_text(self, player: int) -> str:
        """``player``'s observation as JSON with sorted keys (OpenSpiel's observation and information state)."""
        return json.dumps(self.observation(player), sort_keys=True, separators=(",", ":"))

    def resample(self, player: int, rng: np.random.Generator) -> Position:
        """A position ``player`` cannot tell from this one, drawn with our ``resample_from_observation``."""
        if self.dealing:
            return Position(self.context, [int(b) for b in rng.integers(BYTE_OUTCOMES, size=len(self.seed))],
                            None, self.moves)
        if self.over():
            return self.copy()
        return Position(self.context, None, self.inner.resample_from_observation(player, rng), self.moves)

    def text(self) -> str:
        """The whole position (OpenSpiel's ``ToString``): our notation."""
        if self.dealing:
            return f"dealing: seed bytes {self.seed}"
        text = self.inner.to_notation()
        if self.moves >= self.context.max_moves and not self.inner.is_terminal():
            text += f" (stopped: {self.context.max_moves} moves, the max_moves cap)"
        return text

    # -- copies and pickling ----------------------------------------------------------------------
    def copy(self) -> Position:
        inner = None if self._inner is None else self._inner.clone()
        return Position(self.context, None if self.seed is None else list(self.seed), inner, self.moves)

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self.copy()

    def to_json(self) -> dict[str, Any]:
        """The position as JSON: ``{"game", "params", "seed", "moves", "state"}`` (our state's own JSON)."""
        state = None if self._inner is None else self._inner.to_json()
        return {"game": self.context.name, "params": dict(self.context.params), "seed": self.seed,
                "moves": self.moves, "state": state}

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (position_from_text, (json.dumps(self.to_json(), sort_keys=True),))


def position_from_json(obj: dict[str, Any]) -> Position:
    """The position of :meth:`Position.to_json`."""
    context = context_for(obj["game"], obj["params"])
    state = obj["state"]
    inner = None if state is None else context.game.state_from_json(state)
    return Position(context, obj["seed"], inner, int(obj["moves"]))


def position_from_text(text: str) -> Position:
    """The position of ``json.dumps(position.to_json())`` (what OpenSpiel's serialisation pickles)."""
    return position_from_json(json.loads(text))


def as_generator(rng: Any) -> np.random.Generator:
    """A numpy Generator from whatever OpenSpiel passes as randomness, deterministically.

    A ``pyspiel.UniformProbabilitySampler`` (or any callable returning floats in
    [0, 1)) seeds it with two draws; an int is a seed; a ``RandomState`` seeds it
    with two draws; a Generator is used as is.
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    if isinstance(rng, np.random.RandomState):
        return np.random.default_rng([int(x) for x in rng.randint(2**32, size=2, dtype=np.uint64)])
    if callable(rng):
        return np.random.default_rng([int(rng() * 2**32) % 2**32 for _ in range(2)])
    raise TypeError(f"rng: expected a numpy Generator, a seed, a RandomState or a sampler: {rng!r}")


class OpenSpielState(pyspiel.State):
    """An OpenSpiel state wrapping one of our states (see :class:`Position`)."""

    def __init__(self, game: OpenSpielGame, position: Position | None = None) -> None:
        super().__init__(game)
        self._position = position if position is not None else game.context.root()

    @property
    def position(self) -> Position:
        """The adapter's position (our state is ``position.inner``)."""
        return self._position

    def current_player(self) -> int:
        return self._position.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._position.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._position.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._position.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._position.action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self._position.current_player() == TERMINAL

    def returns(self) -> list[float]:
        return self._position.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OpenSpielState:
        """A state drawn uniformly from those ``player_id`` cannot tell apart from this one.

        Our ``resample_from_observation`` does the drawing, with a numpy Generator
        seeded from ``probability_sampler`` (see :func:`as_generator`). The new state
        has no action history (OpenSpiel's ``history()`` is empty): only its position
        is known, not a path to it.
        """
        position = self._position.resample(int(player_id), as_generator(probability_sampler))
        return OpenSpielState(self.get_game(), position)

    def __str__(self) -> str:
        return self._position.text()


class Observer:
    """OpenSpiel's Python observer: strings from our observations, and tensors where the game has a layout."""

    def __init__(self, context: Context, iig_obs_type: pyspiel.IIGObservationType | None,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise InvalidInputError("params", params, "observation parameters are not supported")
        if iig_obs_type is not None and (not iig_obs_type.public_info
                                         or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise UnsupportedActionError("iig_obs_type", str(iig_obs_type), "memory-solver games observe what one "
                                         "player may know (public information and that player's private "
                                         "information); other observation types are not available")
        self.context = context
        self.layout = context.facts.tensor
        self.dict: dict[str, np.ndarray] = {}
        self.tensor: np.ndarray | None = None
        if self.layout is not None:
            pieces = self.layout.pieces(context.game)
            self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
            start = 0
            for piece, shape in pieces:
                size = int(np.prod(shape))
                self.dict[piece] = self.tensor[start:start + size].reshape(shape)
                start += size

    def set_from(self, state: OpenSpielState, player: int) -> None:
        """Fill the tensor from ``player``'s observation (zeros while the deal seed is being chosen)."""
        if self.tensor is None:
            return
        self.tensor.fill(0)
        position = state.position
        if not position.dealing:
            self.layout.fill(self.context.game, position.observation(player), self.dict)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        return state.position.observation_text(player)


class OpenSpielGame(pyspiel.Game):
    """An OpenSpiel game wrapping one of our games with one parameter set (one subclass per game: ``game_name``)."""

    game_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        context = context_for(self.game_name, dict(params or {}))
        super().__init__(game_type(self.game_name, context.utility), context.game_info(), dict(context.params))
        self.context = context

    def new_initial_state(self, state: Any = None) -> OpenSpielState:
        """The root (nothing dealt), or, given our state's JSON or notation, that position (no history)."""
        if state is None:
            return OpenSpielState(self)
        ours = self.context.game.parse_state(state)
        return OpenSpielState(self, Position(self.context, None, ours, 0))

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, Any] | None = None) -> Observer:
        return Observer(self.context, iig_obs_type, params)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (game_from_string, (self.to_string(),))


def game_from_string(text: str) -> pyspiel.Game:
    """``pyspiel.load_game(text)`` (how a pickled game comes back; importing this module registers the games)."""
    return pyspiel.load_game(text)


#: our name -> the OpenSpielGame subclass registered for it
GAME_CLASSES: dict[str, type[OpenSpielGame]] = {}


def register(name: str) -> type[OpenSpielGame]:
    """Register our game ``name`` with OpenSpiel as ``memory_solver_<name>`` (once) and return its class.

    OpenSpiel's registry keeps the factory until the process exits; it is a class
    (as in OpenSpiel's own Python games) held here too, never a lambda: a factory
    only the C++ registry refers to is freed after Python has shut down, which aborts.
    """
    if name not in GAME_CLASSES:
        title = "".join(part.capitalize() for part in name.split("_"))
        cls = type(f"{title}OpenSpielGame", (OpenSpielGame,), {"game_name": name, "__module__": __name__})
        globals()[cls.__name__] = cls
        GAME_CLASSES[name] = cls
    if short_name(name) not in pyspiel.registered_names():
        pyspiel.register_game(game_type(name), GAME_CLASSES[name])
    return GAME_CLASSES[name]
