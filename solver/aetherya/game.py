"""Aetherya (Nostromo Editions): the game's parameters and modes, new states, and reading positions (states,
views and puzzle positions). The rules of play are in ``state.py``; the shared layer finds the hints, the optimal
search, the puzzles, self-play, pictures, text and the ``optimize`` command in the modules of the same names."""

from __future__ import annotations

from typing import Any

import numpy as np

from solver.aetherya.cards import MODES
from solver.aetherya.notation import notation_to_json, state_from_json, view_notation_to_json
from solver.aetherya.puzzle_play import is_puzzle_position, position_from_payload
from solver.aetherya.state import AetheryaState
from solver.aetherya.tiles import load_families
from solver.aetherya.view import AetheryaView, view_from_json
from solver.errors import InvalidInputError, UnknownGameError
from solver.game import (CHANCE_PLAYER, VIEW_PREFIX, Facts, Game, Information, Parameter, State, Utility, View,
                         split_view_notation)
from solver.validate import as_object


class AetheryaGame(Game):
    """Aetherya (Nostromo Editions): kingdom building on a 4x4 grid."""

    FACTS = Facts("aetherya", "Aetherya", Utility.GENERAL_SUM, Information.IMPERFECT, players=(1, 4))
    #: a hint's default time: with the command line's start-up (0.2-0.4 s) the answer comes within about 1 s
    default_time_ms = 700
    PARAMETERS = {
        "players": Parameter(2, int, "number of players (1 = solo campaign)", lo=1, hi=4),
        "mode": Parameter("base", str, "base, objects (Objects and Characters), coop (Cooperative) or solo "
                                       "(3-Age campaign; players=1)", choices=MODES),
        "tiles": Parameter("default", str, "Objects and Characters tile family: 'default' (the shipped family, "
                                           "not the printed one) or a JSON file (docs/formats/aetherya.md)", data_file=True),
    }
    PLAYERS_PARAMETER = "players"
    MODE_PARAMETER = "mode"

    def __init__(self, **params: Any) -> None:
        if params.get("mode") == "solo" and "players" not in params:
            params["players"] = 1
        super().__init__(**params)
        if self.params["players"] == 1 and self.params["mode"] == "base" and "mode" not in params:
            self.params["mode"] = "solo"
        mode, players = self.params["mode"], self.params["players"]
        if (mode == "solo") != (players == 1):
            raise UnknownGameError("game.mode", mode, "the solo campaign is the only 1-player mode, and it is "
                                                      f"played alone (got players={players})")
        self.mode: str = mode
        self.num_players: int = players
        self.families = load_families(self.params["tiles"]) if mode == "objects" else ()

    def spec(self) -> str:
        changed = [f"{k}={v}" for k, v in sorted(self.params.items())
                   if v != self.PARAMETERS[k].default and not (k == "mode" and v == "solo")]
        return f"{self.name}({','.join(changed)})" if changed else self.name

    def configure(self, players: int | None = None, mode: str | None = None) -> Game:
        """``--mode solo`` plays alone; ``--players 1`` is the solo campaign; another mode from solo is 2 players."""
        if mode is not None:
            self.PARAMETERS["mode"].check("mode", mode)
        if players is None and mode is not None:
            players = 1 if mode == "solo" else (2 if self.num_players == 1 else self.num_players)
        if mode is None and players is not None:
            mode = "solo" if players == 1 else ("base" if self.mode == "solo" else self.mode)
        return super().configure(players=players, mode=mode)

    def _game_for(self, mode: Any, players: Any, field: str) -> AetheryaGame:
        """This game, or the one of the mode and player count a position names."""
        counted = isinstance(players, int) and not isinstance(players, bool) and 1 <= players <= 4
        if mode in MODES and counted and (mode == "solo") != (players == 1):
            raise InvalidInputError(f"{field}.players", players, f"the {mode} mode is played by "
                                    + ("1 player (the solo campaign)" if mode == "solo" else "2 to 4 players"))
        if (mode, players) != (self.mode, self.num_players) and mode in MODES and counted:
            return AetheryaGame(players=players, mode=mode, tiles=self.params["tiles"])
        return self

    # -- states and views -------------------------------------------------------------
    def new_root_state(self) -> AetheryaState:
        """The game before any card is dealt: a chance node (the Legends come first)."""
        return AetheryaState(self)

    def new_initial_state(self, seed: int) -> AetheryaState:
        """A game whose setup chance nodes are drawn with ``seed``, stopped at the first decision."""
        state = self.new_root_state()
        rng = np.random.default_rng(seed)
        while state.current_player() == CHANCE_PLAYER:
            state.apply_action(state.sample_chance_outcome(rng))
        return state

    def new_table(self, player: int) -> View:
        """A real table before anything is dealt, as ``player`` sees it (the Legends are entered first)."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.num_players:
            raise InvalidInputError("--player", player, f"expected a seat 0..{self.num_players - 1}")
        return self.new_root_state().view(player)

    def state_from_json(self, obj: Any, field: str = "state") -> AetheryaState:
        return state_from_json(self, obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> AetheryaState:
        return state_from_json(self, notation_to_json(text, field), field)

    def parse_state(self, payload: Any, field: str = "state") -> State:
        """A state from JSON or notation; a state of another mode or player count loads its own game.

        ``aetherya hint STATE.json`` therefore works for every mode: the state
        says which mode and how many players it is played with.
        """
        if isinstance(payload, State):
            return payload
        if is_puzzle_position(payload):  # a puzzle being answered by moves (docs/formats/aetherya.md, "Puzzles")
            return position_from_payload(self, payload, field)
        mode, players = self.mode, self.num_players
        if isinstance(payload, dict):
            mode, players = payload.get("mode", mode), payload.get("players", players)
        elif isinstance(payload, str) and ":" in payload.split(" ", 1)[0] and not payload.startswith(VIEW_PREFIX):
            head_mode, _, head_players = payload.strip().split(" ", 1)[0].partition(":")
            mode, players = head_mode, int(head_players) if head_players.isdigit() else players
        elif isinstance(payload, str) and payload.strip().lower().endswith(".json"):
            raise InvalidInputError(field, payload, "no such file (a state is a JSON file, '-' for stdin, inline "
                                                    "JSON or the notation 'base:2 ph=... ', docs/formats/aetherya.md)")
        game = self._game_for(mode, players, field)
        if game is not self:
            return game.parse_state(payload, field)
        return super().parse_state(payload, field)

    def view_of(self, state: AetheryaState, player: int) -> AetheryaView:
        """``player``'s view of ``state`` (``AetheryaState.view``)."""
        return AetheryaView.of_state(state, player)

    def view_from_json(self, obj: Any, field: str = "state") -> View:
        """A player's view from its JSON (``"view": N``; docs/formats/aetherya.md)."""
        data = as_object(obj, field)
        game = self._game_for(data.get("mode", self.mode), data.get("players", self.num_players), field)
        if data.get("mode", self.mode) != game.mode:
            raise InvalidInputError(f"{field}.mode", data.get("mode"), f"expected one of {', '.join(MODES)}")
        return view_from_json(game, data, field)

    def view_from_notation(self, text: str, field: str = "state") -> View:
        """A player's view from its notation, ``view:N MODE:PLAYERS key=value ...``."""
        observer, body = split_view_notation(text, field)
        return self.view_from_json(view_notation_to_json(observer, body, field), field)

    def parse_position(self, payload: Any, field: str = "state") -> State | View:
        """A state or a view (a view carries ``"view": N``, or its notation starts with ``view:N``)."""
        if isinstance(payload, dict) and "observer" in payload and "view" not in payload:
            raise InvalidInputError(f"{field}.observer", payload["observer"], "this looks like an observation in "
                                    "the old format: give the view's JSON ('\"view\": N', as `aetherya view` "
                                    "prints it)")
        return super().parse_position(payload, field)


GAME = AetheryaGame
