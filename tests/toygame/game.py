"""The rules of the toy game ``pile``: a pile of counters, take 1 or 2, last to take wins. Its view hides nothing."""

from __future__ import annotations

from typing import Any

import numpy as np

from solver.errors import IllegalMoveError, InvalidMoveError, NotationError
from solver.game import (TERMINAL_PLAYER, Facts, Game, Information, State, Utility, View, join_view_notation,
                         split_view_notation)
from solver.validate import as_int, as_object, check_keys, get


class PileState(State):
    def __init__(self, game: Game, pile: int, player: int = 0) -> None:
        super().__init__(game)
        self.pile, self.player = pile, player

    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.pile == 0 else self.player

    def legal_actions(self) -> list[int]:
        return [a for a in (1, 2) if a <= self.pile]

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalMoveError("move", action, "not legal")
        self.pile -= action
        self.player = 1 - self.player

    def action_to_string(self, action: int) -> str:
        return f"take{action}"

    def is_terminal(self) -> bool:
        return self.pile == 0

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        winner = 1 - self.player
        return [1.0 if p == winner else -1.0 for p in (0, 1)]

    def observation(self, player: int) -> dict[str, Any]:
        return self.to_json()

    def resample_from_observation(self, player: int, rng: np.random.Generator) -> State:
        return self.clone()

    def clone(self) -> PileState:
        return PileState(self.game, self.pile, self.player)

    def to_json(self) -> dict[str, Any]:
        return {"pile": self.pile, "player": self.player}

    def to_notation(self) -> str:
        return f"{self.pile}:{self.player}"

    def view(self, player: int) -> "PileView":
        return PileView(self.game, player, self.pile, self.player)


class PileView(View):
    """Perfect information: the view is the position plus its observer."""

    def __init__(self, game: Game, observer: int, pile: int, player: int) -> None:
        super().__init__(game, observer)
        self.pile, self.player = pile, player

    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.pile == 0 else self.player

    def legal_moves(self) -> list[str]:
        return [f"take{a}" for a in (1, 2) if a <= self.pile]

    def apply_move(self, text: str, field: str = "move") -> None:
        if not isinstance(text, str) or text[:4] != "take":
            raise InvalidMoveError(field, text, "expected take1 or take2")
        if text not in self.legal_moves():
            raise IllegalMoveError(field, text, f"only {self.pile} left" if self.pile else "the game is over")
        self.pile -= int(text[4:])
        self.player = 1 - self.player

    def is_terminal(self) -> bool:
        return self.pile == 0

    def resample(self, rng: np.random.Generator) -> State:
        return PileState(self.game, self.pile, self.player)

    def clone(self) -> "PileView":
        return PileView(self.game, self.observer, self.pile, self.player)

    def to_json(self) -> dict[str, Any]:
        return {"view": self.observer, "pile": self.pile, "player": self.player}

    def to_notation(self) -> str:
        return join_view_notation(self.observer, f"{self.pile}:{self.player}")


class PileGame(Game):
    FACTS = Facts("pile", "Pile (test game)", Utility.ZERO_SUM, Information.PERFECT, players=(2, 2))
    default_time_ms = 200

    def new_initial_state(self, seed: int) -> State:
        return PileState(self, 5 + seed % 5)

    def state_from_json(self, obj: Any, field: str = "state") -> State:
        obj = as_object(obj, field)
        check_keys(obj, ("pile", "player"), field)
        return PileState(self, as_int(get(obj, "pile", field), f"{field}.pile", 0, 1000),
                         as_int(obj.get("player", 0), f"{field}.player", 0, 1))

    def state_from_notation(self, text: str, field: str = "state") -> State:
        pile, sep, player = text.partition(":")
        if not sep or not pile.isdigit() or player not in ("0", "1"):
            raise NotationError(field, text, "expected PILE:PLAYER")
        return PileState(self, int(pile), int(player))

    def view_from_json(self, obj: Any, field: str = "state") -> View:
        obj = as_object(obj, field)
        check_keys(obj, ("view", "pile", "player"), field)
        return PileView(self, as_int(get(obj, "view", field), f"{field}.view", 0, 1),
                        as_int(get(obj, "pile", field), f"{field}.pile", 0, 1000),
                        as_int(obj.get("player", 0), f"{field}.player", 0, 1))

    def view_from_notation(self, text: str, field: str = "state") -> View:
        observer, body = split_view_notation(text, field)
        state = self.state_from_notation(body, field)
        return PileView(self, observer, state.pile, state.player)

    def new_table(self, player: int) -> View:
        return PileView(self, player, 7, 0)


GAME = PileGame
