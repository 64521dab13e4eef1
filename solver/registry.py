"""The game registry: ``load_game("forgotten(width=4,height=4)")``.

Games are listed here by name and imported on first use, so that a broken or
slow game module never slows down the others. Parameters follow OpenSpiel's
``name(key=value,...)`` syntax; unknown names and parameters raise
:class:`~solver.errors.UnknownGameError`.
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING, Any

from solver.errors import UnknownGameError

if TYPE_CHECKING:
    from solver.game import Game

#: name -> the game's package; its ``game.py`` names the game class ``GAME`` (``"module:Class"`` also works)
GAMES: dict[str, str] = {
    "aetherya": "solver.aetherya",
    "embers": "solver.embers",
    "forgotten": "solver.forgotten",
    "memorinth": "solver.memorinth",
    "mnemonic": "solver.mnemonic",
}

_SPEC = re.compile(r"^\s*([a-z][a-z0-9_-]*)\s*(?:\((.*)\))?\s*$", re.S)


def game_names() -> list[str]:
    """Registered game names, sorted."""
    return sorted(GAMES)


def game_class(name: str, field: str = "game") -> type[Game]:
    """The class registered under ``name``."""
    if not isinstance(name, str) or name not in GAMES:
        raise UnknownGameError(field, name, f"unknown game (known: {', '.join(game_names())})")
    where = GAMES[name]
    if ":" in where:
        module_name, _, class_name = where.partition(":")
        return getattr(importlib.import_module(module_name), class_name)
    return importlib.import_module(f"{where}.game").GAME


def parse_spec(spec: str, field: str = "game") -> tuple[str, dict[str, str]]:
    """Split ``"name(a=1,b=x)"`` into ``("name", {"a": "1", "b": "x"})``."""
    if not isinstance(spec, str):
        raise UnknownGameError(field, spec, "expected a game name such as 'aetherya'")
    match = _SPEC.match(spec)
    if not match:
        raise UnknownGameError(field, spec, "expected name or name(key=value,...)")
    name, body = match.group(1), match.group(2)
    params: dict[str, str] = {}
    if body and body.strip():
        for part in body.split(","):
            key, sep, value = part.partition("=")
            if not sep or not key.strip():
                raise UnknownGameError(field, spec, f"bad parameter {part.strip()!r}: expected key=value")
            if key.strip() in params:
                raise UnknownGameError(field, spec, f"parameter {key.strip()!r} given twice")
            params[key.strip()] = value.strip()
    return name, params


def load_game(spec: str | Game, field: str = "game", **params: Any) -> Game:
    """A game instance from a name, a ``name(key=value,...)`` spec, or a game (returned as is)."""
    from solver.game import Game  # lazy: start-up (the registry lists games for --help without loading numpy)
    if isinstance(spec, Game):
        if params:
            return type(spec)(**{**spec.params, **params})
        return spec
    name, spec_params = parse_spec(spec, field)
    cls = game_class(name, field)
    return cls(**{**spec_params, **params})


def game_listing() -> list[dict[str, Any]]:
    """Every game's name, players, parameters (with choices), puzzle kinds and self-play policies."""
    from solver import contract  # lazy: start-up (the registry lists games for --help without loading numpy)
    listing = []
    for name in game_names():
        cls = game_class(name)
        params = {k: {"default": p.default, "doc": p.doc, "type": p.kind.__name__,
                      **({"choices": list(p.choices)} if p.choices else {}),
                      **({"min": p.lo, "max": p.hi} if p.lo is not None else {}),
                      **({"example": p.example} if p.example else {}),
                      **({"perPlayer": True} if p.per_player else {})}
                  for k, p in cls.PARAMETERS.items()}
        listing.append({"name": name, "longName": cls.long_name, "players": [cls.min_players, cls.max_players],
                        "utility": cls.utility.value, "information": cls.information.value, "parameters": params,
                        "playersParameter": cls.PLAYERS_PARAMETER, "modeParameter": cls.MODE_PARAMETER,
                        "puzzleKinds": list(contract.puzzle_kinds(cls)), "puzzleGames": contract.puzzle_games(cls),
                        "selfplayPolicies": list(contract.selfplay_policies(cls)),
                        "defaultTimeMs": cls.default_time_ms, **_player_names(cls)})
    return listing


def _player_names(cls: type[Game]) -> dict[str, Any]:
    """``playerNames``: what a game with its own names calls each seat (Embers' Fenrys and Aelin) with the default
    parameters, and ``playerNamesWith``: the names under each choice of a parameter that changes them (Embers'
    chapter); nothing for a game whose seats are just numbered."""
    from solver import contract  # lazy: start-up (as in game_listing)
    if not contract.has_player_names(cls):
        return {}

    def names(game: Game) -> list[str]:
        return [contract.player_name(game, p) for p in range(cls.max_players)]
    default = names(cls())
    changes: dict[str, dict[str, list[str]]] = {}
    for key, parameter in cls.PARAMETERS.items():
        for choice in parameter.choices or ():
            found = names(cls(**{key: choice}))
            if found != default:
                changes.setdefault(key, {})[str(choice)] = found
    return {"playerNames": default, **({"playerNamesWith": changes} if changes else {})}
