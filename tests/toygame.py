"""A tiny game used only by the protocol tests: a pile of counters, take 1 or 2, last to take wins.

It implements every hook of the shared layer (views, puzzles, self-play, pictures) in the simplest way, so
the shared verbs, records, reviews and the engine can be tested without a real game. Its view hides nothing.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from solver.errors import InvalidInputError, NotationError
from solver.drawing import Svg, hint_marks
from solver.errors import IllegalMoveError, InvalidMoveError
from solver.game import (TERMINAL_PLAYER, Game, Information, State, Utility, View, join_view_notation,
                         split_view_notation)
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

    PUZZLE_KINDS = ("win",)
    SELFPLAY_POLICIES = ("perfect", "random")
    SELFPLAY_DEFAULT = ("perfect", "random")

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

    def _ranked(self, pile: int, ctx: SearchContext, top: int) -> tuple[list[MoveInfo], int]:
        """Slow on purpose when the pile is large: loops until its limits, reporting as it goes."""
        nodes = 0
        infos = [MoveInfo(f"take{a}", 1.0 if (pile - a) % 3 == 0 else -1.0, [f"take{a}"],
                          "leaves a multiple of 3" if (pile - a) % 3 == 0 else "does not leave a multiple of 3")
                 for a in (1, 2) if a <= pile]
        infos.sort(key=lambda m: -m.value)
        while pile >= 100 and not ctx.should_stop(nodes):
            nodes += 1
            time.sleep(0.001)
            ctx.maybe_report(lambda: HintResult(self.name, infos[:top], {"visits": nodes}, is_during_search=True))
        return infos[:top], nodes

    def hint_view(self, view: View, ctx: SearchContext, *, top: int = 3, **options: Any) -> HintResult:
        infos, nodes = self._ranked(view.pile, ctx, top)
        return HintResult(self.name, infos, {"visits": nodes, "valueMeaning": "+1 win, -1 loss",
                                             "fullInformation": False, "player": view.observer})

    def hint_full(self, state: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
                  **options: Any) -> HintResult:
        infos, nodes = self._ranked(state.pile, ctx, top)
        return HintResult(self.name, infos, {"visits": nodes, "valueMeaning": "+1 win, -1 loss",
                                             "fullInformation": True})

    def generate_puzzle(self, kind: str, difficulty: str, rng: np.random.Generator) -> dict[str, Any]:
        low, high = {"easy": (3, 6), "medium": (7, 20), "hard": (21, 60)}[difficulty]
        pile = int(rng.integers(low, high))
        while pile % 3 == 0:
            pile += 1
        return {"position": f"{pile}:0", "solution": f"take{pile % 3}"}

    def check_puzzle(self, puzzle: dict[str, Any], answer: Any) -> dict[str, Any]:
        state = self.parse_state(puzzle["position"], "puzzle.position")
        best = f"take{state.pile % 3}"
        return {"correct": answer == best, "message": "leaves a multiple of 3" if answer == best
                else f"{best} leaves a multiple of 3"}

    def puzzle_answer(self, puzzle: dict[str, Any]) -> str:
        return str(puzzle["solution"])

    def puzzle_svg(self, puzzle: dict[str, Any], solution: bool = False) -> str:
        from solver.drawing import difficulty_badge
        doc = Svg(200, 80, title=puzzle["id"])
        doc.text(20, 40, puzzle["position"] + (f" -> {puzzle['solution']}" if solution else ""), anchor="start")
        difficulty_badge(doc, 190, 14, puzzle["difficulty"])
        return doc.render()

    def selfplay_game(self, policies: tuple[str, ...], rng: np.random.Generator, **options: Any) -> dict[str, Any]:
        pile = int(rng.integers(4, 30))
        outcomes = {}
        for name in policies:
            state = PileState(self, pile)
            while not state.is_terminal():
                legal = state.legal_actions()
                if name == "perfect" and state.player == 0 and any((state.pile - a) % 3 == 0 for a in legal):
                    action = next(a for a in legal if (state.pile - a) % 3 == 0)
                else:
                    action = legal[int(rng.integers(len(legal)))]
                state.apply_action(action)
            outcomes[name] = 1 if state.returns()[0] > 0 else 0
        return {"pile": pile, "outcomes": outcomes}

    def svg(self, position: Any, hint: dict[str, Any] | None = None, **options: Any) -> str:
        data = position.to_json()
        doc = Svg(40 + 20 * max(1, data["pile"]), 70, title=f"pile of {data['pile']}")
        for i in range(data["pile"]):
            doc.circle(30 + 20 * i, 35, 8, fill="#E69F00", target=f"c{i}")
        for mark in hint_marks(hint):
            doc.badge(30, 60, mark["move"], opacity=mark["opacity"])
        return doc.render()

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
