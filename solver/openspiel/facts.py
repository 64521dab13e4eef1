"""The OpenSpiel facts of each registered game, read from the game's own ``openspiel.py``.

A game describes itself to OpenSpiel in ``solver/<game>/openspiel.py`` with the names listed
in :mod:`solver.learning`; this module finds that file through the registry (so a new game
needs nothing here) and fills in the defaults of the optional names. A game without an
``openspiel.py`` is not offered to OpenSpiel.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from types import ModuleType
from typing import Any

from solver.errors import UnsupportedActionError
from solver.game import Game, State, Utility
from solver.learning import ActionCodec, Piece
from solver.registry import game_class, game_names

#: The deal of a game dealt by a seed is a 32-bit seed, dealt as 4 chance nodes of one byte each.
SEED_BYTES = 4
BYTE_OUTCOMES = 256


def facts_module(name: str) -> ModuleType | None:
    """``solver/<game>/openspiel.py`` of game ``name`` (None when the game has none)."""
    package = game_class(name).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.openspiel")
    except ModuleNotFoundError as exc:
        if exc.name == f"{package}.openspiel":
            return None
        raise


def openspiel_names() -> list[str]:
    """The registered games that describe themselves to OpenSpiel."""
    return [name for name in game_names() if facts_module(name) is not None]


class GameFacts:
    """What the adapter needs to know about one of our games: the names of its ``openspiel.py``, with defaults."""

    def __init__(self, name: str, module: ModuleType) -> None:
        self.name = name
        self.module = module
        self.default_max_moves: int = module.MAX_MOVES

    def _optional(self, attribute: str) -> Any:
        return getattr(self.module, attribute, None)

    def num_players(self, game: Game) -> int:
        return int(self.module.num_players(game))

    def codec(self, game: Game) -> ActionCodec:
        return self.module.codec(game)

    def utility_range(self, game: Game) -> tuple[float, float]:
        lo, hi = self.module.utility_range(game)
        return float(lo), float(hi)

    def utility(self, game: Game) -> Utility:
        found = self._optional("utility")
        return found(game) if found else game.utility

    def constant_sum(self, game: Game) -> float | None:
        found = self._optional("constant_sum")
        return found(game) if found else None

    def explicit_root(self, game: Game) -> State | None:
        found = self._optional("explicit_root")
        return found(game) if found else None

    def chance_steps(self, game: Game, decisions: int) -> int:
        return int(self.module.chance_steps(game, decisions))

    def setup_steps(self, game: Game) -> int:
        found = self._optional("setup_steps")
        return int(found(game)) if found else 0

    def public_pieces(self, game: Game) -> list[Piece]:
        return list(self.module.public_pieces(game))

    def private_pieces(self, game: Game) -> list[Piece]:
        return list(self.module.private_pieces(game))

    def fill_public(self, game: Game, state: State, planes: dict) -> None:
        self.module.fill_public(game, state, planes)

    def fill_private(self, game: Game, state: State, player: int, planes: dict) -> None:
        self.module.fill_private(game, state, player, planes)

    @property
    def has_arrangements(self) -> bool:
        """The game can list every deal of a tiny setting (OpenSpiel parameter ``deal=all``)."""
        return self._optional("arrangements") is not None

    def arrangements(self, game: Game) -> list[tuple[float, State]]:
        return self.module.arrangements(game)

    def batch_rules(self, game: Game, n: int, redeal: bool) -> Any:
        """The game's vectorised rules for ``n`` games (``solver/openspiel/batched.py``), or None."""
        found = self._optional("batch_rules")
        return found(game, n, redeal) if found else None


@lru_cache(maxsize=None)
def facts(name: str) -> GameFacts:
    """The facts of game ``name`` (raises ``UnsupportedActionError`` for a game without ``openspiel.py``)."""
    module = facts_module(name)
    if module is None:
        raise UnsupportedActionError("game", name, "this game does not describe itself to OpenSpiel (no "
                                                   "openspiel.py in its folder)")
    return GameFacts(name, module)
