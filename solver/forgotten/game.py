"""Forgotten: the game object, its engine services and its command line."""

from __future__ import annotations

from typing import Any

import numpy as np

from solver.errors import InvalidInputError, UnknownGameError
from solver.forgotten.board import MAX_SIDE, MIN_SIDE, Board, parse_brains
from solver.forgotten.notation import DOWN, MAX_PAIRS, NONE
from solver.forgotten.state import ForgottenState, state_from_json, state_from_notation
from solver.game import Game, Information, Parameter, Utility

ERASURE_CODES = {"off": 0, "round": 1, "turn": 2}
GOAL_CODES = {"path": 0, "clear": 1}


class ForgottenGame(Game):
    """Forgotten (jonp et al.): two players link their Brain Tiles with matched Memory Tiles before erasure."""

    name = "forgotten"
    long_name = "Forgotten"
    utility = Utility.IDENTICAL
    information = Information.IMPERFECT
    min_players = 2
    max_players = 2
    PARAMETERS = {
        "width": Parameter(6, int, "board width (columns, the blue die)", lo=MIN_SIDE, hi=MAX_SIDE),
        "height": Parameter(6, int, "board height (rows, the orange die)", lo=MIN_SIDE, hi=MAX_SIDE),
        "pairs": Parameter(0, int, "pairs of Memory Tiles; 0 fills every cell but the two Brains", lo=0, hi=MAX_PAIRS),
        "brains": Parameter("auto", str, "Brain cells as 'xy-xy', e.g. 13-64; auto = middle of the left and right "
                                         "columns"),
        "erasure": Parameter("round", str, "when the Erasure Process runs: round = once both players have taken a "
                                           "turn, turn = after every turn, off = never", choices=("round", "turn", "off")),
        "goal": Parameter("path", str, "path = link the Brains (the game); clear = match every pair (classic Memory)",
                          choices=("path", "clear")),
    }

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.width: int = self.params["width"]
        self.height: int = self.params["height"]
        free = self.width * self.height - 2
        if free < 2:
            raise UnknownGameError("game.width", self.width, "the board needs room for two Brains and a pair")
        pairs = self.params["pairs"] or free // 2
        if 2 * pairs > free:
            raise UnknownGameError("game.pairs", self.params["pairs"],
                                   f"a {self.width}x{self.height} board holds at most {free // 2} pairs besides "
                                   "the two Brains")
        if pairs > MAX_PAIRS:
            raise UnknownGameError("game.pairs", pairs, f"at most {MAX_PAIRS} pairs (letters A-Z); choose a smaller "
                                                        "board or set pairs")
        self.pairs: int = pairs
        try:
            brains = parse_brains(self.params["brains"], self.width, self.height, "game.brains")
        except InvalidInputError as exc:
            raise UnknownGameError("game.brains", self.params["brains"], exc.problem) from None
        self.board = Board(self.width, self.height, brains)
        self.erasure: str = self.params["erasure"]
        self.goal: str = self.params["goal"]

    # -- rules helpers ------------------------------------------------------------------------------
    def erasure_due(self, turn: int) -> bool:
        """Whether an Erasure roll follows the ``turn``-th finished turn (FG-8)."""
        if self.erasure == "off":
            return False
        return self.erasure == "turn" or turn % 2 == 0

    @property
    def erasure_code(self) -> int:
        """The kernels' code for the erasure rule."""
        return ERASURE_CODES[self.erasure]

    @property
    def goal_code(self) -> int:
        """The kernels' code for the goal."""
        return GOAL_CODES[self.goal]

    # -- states ---------------------------------------------------------------------------------------
    def new_initial_state(self, seed: int = 0) -> ForgottenState:
        """Shuffle the tiles face down onto every cell but the Brains (FG-3), with ``seed``."""
        rng = np.random.default_rng(seed)
        board = self.board
        free = [c for c in range(board.cells) if c not in board.brains]
        bag = [p for p in range(self.pairs) for _ in range(2)] + [-1] * (len(free) - 2 * self.pairs)
        tiles = [-1] * board.cells
        for c, v in zip(free, rng.permutation(bag)):
            tiles[c] = int(v)
        status = [DOWN if t >= 0 else NONE for t in tiles]
        state = ForgottenState(self, board, tiles, status, [False] * board.cells)
        if not state.alive():
            state.phase = "lost"
        return state

    def state_from_json(self, obj: Any, field: str = "state") -> ForgottenState:
        return state_from_json(self, obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> ForgottenState:
        return state_from_notation(self, text, field)
