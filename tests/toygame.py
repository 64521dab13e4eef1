"""A tiny game used only by the protocol tests: a pile of counters, take 1 or 2, last to take wins."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from solver.errors import InvalidInputError, NotationError
from solver.game import TERMINAL_PLAYER, Game, Information, State, Utility
from solver.results import HintResult, MoveInfo, SolveResult
from solver.search import SearchContext
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
            from solver.errors import IllegalMoveError
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


class PileGame(Game):
    name = "pile"
    long_name = "Pile (test game)"
    utility = Utility.ZERO_SUM
    information = Information.PERFECT
    min_players = max_players = 2
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

    def hint(self, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
             full_information: bool = False) -> HintResult:
        """Slow on purpose when the pile is large: loops until its limits, reporting as it goes."""
        nodes = 0
        infos = [MoveInfo(state.action_to_string(a), 1.0 if (state.pile - a) % 3 == 0 else -1.0,
                          [state.action_to_string(a)], "leaves a multiple of 3" if (state.pile - a) % 3 == 0
                          else "does not leave a multiple of 3") for a in state.legal_actions()]
        infos.sort(key=lambda m: -m.value)
        while state.pile >= 100 and not ctx.should_stop(nodes):
            nodes += 1
            time.sleep(0.001)
            ctx.maybe_report(lambda: HintResult(self.name, infos[:top], {"visits": nodes}, is_during_search=True))
        return HintResult(self.name, infos[:top], {"visits": nodes, "valueMeaning": "+1 win, -1 loss",
                                                   "fullInformation": True})

    def solve(self, payload: Any, ctx: SearchContext) -> SolveResult:
        state = self.parse_state(payload)
        if not isinstance(state, PileState):
            raise InvalidInputError("state", payload, "bad")
        win = state.pile % 3 != 0
        return SolveResult(self.name, 1.0 if win else -1.0, True, 1.0 if win else -1.0, "EXHAUSTIVE",
                           ctx.elapsed(), {"winner": state.player if win else 1 - state.player})

    def score(self, payload: Any) -> dict[str, Any]:
        state = self.parse_state(payload)
        return {"pile": state.pile}
