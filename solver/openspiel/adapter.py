"""OpenSpiel's Python-game API wrapped around our state contract (``solver/game.py``).

One :class:`OpenSpielGame` per parameter set, one :class:`OpenSpielState` per
position. A state holds a single attribute, a :class:`Position`: our own
:class:`~solver.game.State` plus what only the adapter knows (the deal while it
is being chosen, the number of decisions made, the steps since the start for
perfect-recall information states). OpenSpiel's trampoline clones a Python state
by deep-copying its attributes and serialises it by pickling them; ``Position``
turns the first into our ``clone()`` and the second into our ``to_json()``.

The facts of each game (action ids, returns, observation tensors, tiny deals) come
from the game's own ``solver/<game>/openspiel.py`` (:mod:`solver.openspiel.facts`).
How each OpenSpiel notion maps onto ours is documented in ``docs/openspiel.md``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from solver.errors import IllegalMoveError, InvalidInputError, UnsupportedActionError
from solver.game import CHANCE_PLAYER, TERMINAL_PLAYER, Game, Parameter, State, Utility
from solver.openspiel.facts import BYTE_OUTCOMES, SEED_BYTES, GameFacts, facts
from solver.openspiel.observers import INFO_TENSOR_LIMIT, History, Kind, Observer, Records, Trail, start_of
from solver.registry import game_class

PREFIX = "memory_solver_"
MAX_MOVES = "max_moves"
DEAL = "deal"
DEAL_SEED = "deal_seed"
REDEAL = "redeal"
DEALS = ("auto", "seed", "setup", "all", "fixed")
#: the adapter's own parameters (``max_moves``' default is per game: ``MAX_MOVES`` in the game's openspiel.py)
ADAPTER_PARAMETERS = {
    MAX_MOVES: Parameter(1, int, "player decisions after which the adapter ends a game", lo=1, hi=10**9),
    DEAL: Parameter("auto", str, "how the game starts: seed (a 32-bit seed as 4 chance bytes), setup (the "
                                 "game's own chance nodes), all (every deal of a tiny setting as one chance "
                                 "node), fixed (the deal of deal_seed, no chance); auto = setup where the game "
                                 "has one, else seed", choices=DEALS),
    DEAL_SEED: Parameter(0, int, "the seed of the deal when deal=fixed", lo=0, hi=2**32 - 1),
    REDEAL: Parameter(True, bool, "a deal already decided before the first decision is dealt again (seed, fixed) "
                                  "or left out (all)"),
}
#: how many times a seeded deal decided before the first decision is dealt again before giving up
REDEAL_TRIES = 1000
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
    """OpenSpiel parameters of game ``name``: ours with their defaults, plus the adapter's."""
    spec: dict[str, Any] = {key: p.default for key, p in game_class(name).PARAMETERS.items()}
    spec.update({key: p.default for key, p in ADAPTER_PARAMETERS.items()})
    spec[MAX_MOVES] = facts(name).default_max_moves
    return spec


def game_type(name: str, context: Context) -> pyspiel.GameType:
    """The ``GameType`` of game ``name`` with the parameter set of ``context``."""
    cls = game_class(name)
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"memory-solver {cls.long_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_UTILITY[context.utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=context.info_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(name),
    )


class Context:
    """One OpenSpiel parameter set of one of our games: our game object and the facts derived from it."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        self.name = name
        self.facts: GameFacts = facts(name)
        defaults = parameter_specification(name)
        given = {**defaults, **params}
        for key, spec in ADAPTER_PARAMETERS.items():
            given[key] = spec.check(key, given[key])
        # OpenSpiel fills in every default; we pass on only what was changed, so that our own defaults that
        # depend on other parameters (Aetherya: mode=solo means players=1) still apply.
        ours = {k: v for k, v in given.items() if k not in ADAPTER_PARAMETERS and v != defaults[k]}
        self.game: Game = game_class(name)(**ours)
        #: the parameters as our game settled them (OpenSpiel's game string shows these)
        self.params = {**{k: self.game.params[k] for k in defaults if k not in ADAPTER_PARAMETERS},
                       **{k: given[k] for k in ADAPTER_PARAMETERS}}
        self.max_moves: int = given[MAX_MOVES]
        self.redeal: bool = given[REDEAL]
        self.codec = self.facts.codec(self.game)
        self.num_players = self.facts.num_players(self.game)
        self.utility = self.facts.utility(self.game)
        self.utility_sum = self.facts.constant_sum(self.game)
        lo, hi = self.facts.utility_range(self.game)
        self.min_utility, self.max_utility = lo, hi
        self.deal = self._deal_mode(given[DEAL])
        self.deal_seed: int = given[DEAL_SEED]
        self.arrangements: list[tuple[float, State]] = self._arrangements() if self.deal == "all" else []
        self._fixed: State | None = None
        deal_steps = self.facts.setup_steps(self.game) if self.deal == "setup" else \
            {"seed": SEED_BYTES, "all": 1, "fixed": 0}[self.deal]
        #: at most how many steps (decisions and chance outcomes) a game has: the slots of a history tensor
        self.history_steps = deal_steps + self.max_moves + self.facts.chance_steps(self.game, self.max_moves)
        self.info_tensor_size = History(self, Kind(perfect_recall=True), "tensor").size
        self.info_tensor = self.info_tensor_size <= INFO_TENSOR_LIMIT

    def _deal_mode(self, deal: str) -> str:
        has_root = self.facts.explicit_root(self.game) is not None
        if deal == "auto":
            return "setup" if has_root else "seed"
        if deal == "setup" and not has_root:
            raise InvalidInputError(f"game.{DEAL}", deal, f"{self.name} with these parameters deals from a seed: "
                                                          "it has no set-up of its own chance nodes")
        if deal == "all" and not self.facts.has_arrangements:
            raise InvalidInputError(f"game.{DEAL}", deal, f"{self.name} cannot list its deals (deal=all is for "
                                                          "tiny settings of games that can)")
        return deal

    def _arrangements(self) -> list[tuple[float, State]]:
        deals = self.facts.arrangements(self.game)
        if self.redeal:
            deals = [(p, s) for p, s in deals if not s.is_terminal()]
            if not deals:
                raise InvalidInputError(f"game.{DEAL}", "all", "every deal is decided before the first decision")
            total = sum(p for p, _ in deals)
            deals = [(p / total, s) for p, s in deals]
        return deals

    def dealt(self, seed: int) -> State:
        """Our ``new_initial_state(seed)``; with ``redeal``, a deal decided before the first decision is dealt
        again from ``seed + k * 2**32`` (k = 1, 2, ...), so every seed gives a game to play."""
        state = self.game.new_initial_state(seed)
        k = 0
        while self.redeal and state.is_terminal() and k < REDEAL_TRIES:
            k += 1
            state = self.game.new_initial_state(seed + k * 2 ** (8 * SEED_BYTES))
        return state

    def fixed(self) -> State:
        """The deal of ``deal_seed`` (``deal=fixed``)."""
        if self._fixed is None:
            self._fixed = self.dealt(self.deal_seed)
        return self._fixed.clone()

    def game_info(self) -> pyspiel.GameInfo:
        """OpenSpiel's ``GameInfo``: action and chance bounds, players, utility range, length cap."""
        chance = max(self.codec.num_chance_outcomes, BYTE_OUTCOMES if self.deal == "seed" else 0,
                     len(self.arrangements))
        return pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_distinct_actions,
            max_chance_outcomes=chance,
            num_players=self.num_players,
            min_utility=self.min_utility,
            max_utility=self.max_utility,
            utility_sum=self.utility_sum,
            max_game_length=self.max_moves,
        )

    def root(self) -> Position:
        """The position before anything is dealt, with an empty history."""
        if self.deal == "seed":
            return Position(self, [], False, None, 0, Trail())
        if self.deal == "all":
            return Position(self, None, True, None, 0, Trail())
        inner = self.fixed() if self.deal == "fixed" else None   # setup: created on first use
        return Position(self, None, False, inner, 0, Trail())


_CONTEXTS: dict[tuple[str, tuple[tuple[str, Any], ...]], Context] = {}


def context_for(name: str, params: dict[str, Any]) -> Context:
    """The (cached) context of a parameter set, so that every state of one game shares one game object."""
    key = (name, tuple(sorted({**parameter_specification(name), **params}.items())))
    if key not in _CONTEXTS:
        _CONTEXTS[key] = Context(name, params)
    return _CONTEXTS[key]


class Position:
    """Our state with the adapter's own bookkeeping.

    ``seed`` is the list of seed bytes dealt so far while a seed is being chosen (``None``
    otherwise); ``arranging`` is true at the one chance node of ``deal=all``; ``inner`` is
    our state (created lazily at a set-up root); ``moves`` counts the players' decisions,
    for the ``max_moves`` cap; ``trail`` keeps the steps since the history started, for the
    perfect-recall information states (``None`` on the copies that build them).
    """

    __slots__ = ("context", "seed", "arranging", "_inner", "moves", "trail")

    def __init__(self, context: Context, seed: list[int] | None, arranging: bool, inner: State | None, moves: int,
                 trail: Trail | None) -> None:
        self.context = context
        self.seed = seed
        self.arranging = arranging
        self._inner = inner
        self.moves = moves
        self.trail = trail

    # -- our state ----------------------------------------------------------------------------
    @property
    def dealing(self) -> bool:
        """True while the deal is being chosen (before our state exists)."""
        return self.seed is not None or self.arranging

    @property
    def playing(self) -> bool:
        """True once our state exists."""
        return not self.dealing

    @property
    def inner(self) -> State:
        """Our state (raises while the deal is being chosen)."""
        if self.dealing:
            raise UnsupportedActionError("state", "dealing", "the deal is still being chosen: there is no game "
                                                            "state yet")
        if self._inner is None:
            self._inner = self.context.facts.explicit_root(self.context.game)
        return self._inner

    def over(self) -> bool:
        """The game ended by its rules, or the ``max_moves`` cap was reached."""
        return self.current_player() == TERMINAL

    def check_player(self, player: int) -> None:
        if not 0 <= player < self.context.num_players:
            raise InvalidInputError("player", player, f"expected 0..{self.context.num_players - 1}")

    # -- the OpenSpiel contract -----------------------------------------------------------------
    def current_player(self) -> int:
        if self.dealing:
            return CHANCE
        player = self.inner.current_player()
        if player == TERMINAL_PLAYER or self.moves >= self.context.max_moves:
            return TERMINAL
        return CHANCE if player == CHANCE_PLAYER else int(player)

    def legal_actions(self) -> list[int]:
        """Sorted OpenSpiel ids of the player's legal decisions (or of the chance outcomes)."""
        if self.current_player() == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if self.over():
            return []
        return self.context.codec.encode_all(self.inner.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(OpenSpiel id, probability)]``, sorted by id."""
        if self.seed is not None:
            return [(b, 1.0 / BYTE_OUTCOMES) for b in range(BYTE_OUTCOMES)]
        if self.arranging:
            return [(i, p) for i, (p, _) in enumerate(self.context.arrangements)]
        encode = self.context.codec.encode_chance
        return sorted((encode(a), float(p)) for a, p in self.inner.chance_outcomes())

    def apply(self, action: int) -> None:
        """Apply OpenSpiel's ``action`` (our state checks its legality)."""
        action = int(action)
        player = self.current_player()
        if self.seed is not None:
            if not 0 <= action < BYTE_OUTCOMES:
                raise IllegalMoveError("action", action, f"a seed byte is 0..{BYTE_OUTCOMES - 1}")
            self.seed.append(action)
            if len(self.seed) == SEED_BYTES:
                self._inner = self.context.dealt(int.from_bytes(bytes(self.seed), "little"))
                self.seed = None
        elif self.arranging:
            deals = self.context.arrangements
            if not 0 <= action < len(deals):
                raise IllegalMoveError("action", action, f"a deal is 0..{len(deals) - 1}")
            self._inner = deals[action][1].clone()
            self.arranging = False
        elif player == TERMINAL:
            raise IllegalMoveError("action", action, "the game is over")
        elif player == CHANCE:
            self.inner.apply_action(self.context.codec.decode_chance(action))
        else:
            self.inner.apply_action(self.context.codec.decode(action))
            self.moves += 1
        if self.trail is not None:
            self.trail.add(player, action)

    def action_to_string(self, player: int, action: int) -> str:
        """Our move string of OpenSpiel's ``action`` (decoded as a chance outcome when ``player`` is chance)."""
        if self.seed is not None:
            return f"seed byte {len(self.seed) + 1} = {int(action)}"
        if self.arranging:
            return f"deal {self.context.arrangements[int(action)][1].to_notation()}"
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
        if self.context.utility_sum is not None and not self.inner.is_terminal():
            # stopped by the cap in a constant-sum game: nobody has won, the players share the sum
            return [self.context.utility_sum / n] * n
        return values

    def observation(self, player: int) -> dict[str, Any]:
        """``player``'s observation: our ``observation(player)`` (a note of the progress while dealing)."""
        self.check_player(player)
        if self.seed is not None:
            return {"dealing": f"{len(self.seed)} of {SEED_BYTES} seed bytes chosen"}
        if self.arranging:
            return {"dealing": "the deal is being chosen"}
        return self.inner.observation(player)

    def observation_text(self, player: int) -> str:
        """``player``'s observation as JSON with sorted keys (OpenSpiel's default observation string)."""
        return json.dumps(self.observation(player), sort_keys=True, separators=(",", ":"))

    def records(self, history: History) -> Records:
        """The perfect-recall records of ``history``'s observation type up to now (built on first use)."""
        if self.trail is None:
            raise AssertionError("a position without a trail has no information state")
        return self.trail.records(history, lambda: start_of(self.trail, self.context))

    def resample(self, player: int, rng: np.random.Generator) -> Position:
        """A position ``player`` cannot tell from this one, drawn with our ``resample_from_observation``.

        Its history starts here; ``player``'s own information state keeps their history so far.
        """
        if self.seed is not None:
            drawn = Position(self.context, [int(b) for b in rng.integers(BYTE_OUTCOMES, size=len(self.seed))],
                             False, None, self.moves, None)
        elif self.arranging or self.over():
            drawn = self.copy_without_trail()
        else:
            drawn = Position(self.context, None, False, self.inner.resample_from_observation(player, rng), self.moves,
                             None)
        drawn.trail = Trail(drawn.copy_without_trail(), (self.trail.copy(), int(player)))
        return drawn

    def text(self) -> str:
        """The whole position (OpenSpiel's ``ToString``): our notation."""
        if self.seed is not None:
            return f"dealing: seed bytes {self.seed}"
        if self.arranging:
            return "dealing: the deal is being chosen (deal=all)"
        text = self.inner.to_notation()
        if self.moves >= self.context.max_moves and not self.inner.is_terminal():
            text += f" (stopped: {self.context.max_moves} moves, the max_moves cap)"
        return text

    # -- copies and pickling ----------------------------------------------------------------------
    def copy(self) -> Position:
        other = self.copy_without_trail()
        other.trail = None if self.trail is None else self.trail.copy()
        return other

    def copy_without_trail(self) -> Position:
        inner = None if self._inner is None else self._inner.clone()
        return Position(self.context, None if self.seed is None else list(self.seed), self.arranging, inner,
                        self.moves, None)

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self.copy()

    def to_json(self) -> dict[str, Any]:
        """The position as JSON: ``{"game", "params", "seed", "arranging", "moves", "state", "base", "steps"}``
        (``state`` is our state's own JSON; ``base`` and ``steps`` are where its history starts and the steps
        since, so that information states survive serialisation)."""
        state = None if self._inner is None else self._inner.to_json()
        out: dict[str, Any] = {"game": self.context.name, "params": dict(self.context.params), "seed": self.seed,
                               "arranging": self.arranging, "moves": self.moves, "state": state}
        if self.trail is not None:
            out["base"] = None if self.trail.base is None else self.trail.base.to_json()
            out["steps"] = [list(step) for step in self.trail.actions()]
        return out

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (position_from_text, (json.dumps(self.to_json(), sort_keys=True),))


def position_from_json(obj: dict[str, Any]) -> Position:
    """The position of :meth:`Position.to_json`."""
    context = context_for(obj["game"], obj["params"])
    state = obj["state"]
    inner = None if state is None else context.game.state_from_json(state)
    position = Position(context, obj["seed"], bool(obj.get("arranging", False)), inner, int(obj["moves"]), None)
    if "steps" in obj:
        base = obj.get("base")
        position.trail = Trail(None if base is None else position_from_json(base))
        for actor, action in obj["steps"]:
            position.trail.add(int(actor), int(action))
    return position


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
        has no OpenSpiel action history (``history()`` is empty: only its position is
        known, not a path to it); ``player_id``'s information state is the one they had.
        """
        position = self._position.resample(int(player_id), as_generator(probability_sampler))
        return OpenSpielState(self.get_game(), position)

    def __str__(self) -> str:
        return self._position.text()


class OpenSpielGame(pyspiel.Game):
    """An OpenSpiel game wrapping one of our games with one parameter set (one subclass per game: ``game_name``)."""

    game_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        context = context_for(self.game_name, dict(params or {}))
        super().__init__(game_type(self.game_name, context), context.game_info(), dict(context.params))
        self.context = context

    def new_initial_state(self, state: Any = None) -> OpenSpielState:
        """The root (nothing dealt), or, given our state's JSON or notation, that position (its history starts
        there)."""
        if state is None:
            return OpenSpielState(self)
        ours = self.context.game.parse_state(state)
        position = Position(self.context, None, False, ours, 0, None)
        position.trail = Trail(position.copy_without_trail())
        return OpenSpielState(self, position)

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
        pyspiel.register_game(game_type(name, context_for(name, {})), GAME_CLASSES[name])
    return GAME_CLASSES[name]
