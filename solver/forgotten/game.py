"""Forgotten: the game object, its parameters and rules helpers, new states and the parsing entry points."""

from __future__ import annotations

from typing import Any

import numpy as np

from solver.errors import InvalidInputError, UnknownGameError, UnsupportedActionError
from solver.forgotten import notation
from solver.forgotten.board import MAX_SIDE, MIN_SIDE, Board, parse_brains
from solver.forgotten.state import ForgottenState
from solver.forgotten.tiles import DOWN, MAX_PAIRS, NONE, letter_range
from solver.forgotten.view import ForgottenView, check_player
from solver.game import Facts, Game, Information, Parameter, Utility

ERASURE_CODES = {"off": 0, "round": 1, "turn": 2}
GOAL_CODES = {"path": 0, "clear": 1}


class ForgottenGame(Game):
    """Forgotten (jonp et al.): two players link their Brain Tiles with matched Memory Tiles before erasure."""

    FACTS = Facts("forgotten", "Forgotten", Utility.IDENTICAL, Information.IMPERFECT, players=(2, 2))
    default_time_ms = 10_000   # hints spend a fixed rollout budget; the time limit is a safety net
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
        if pairs > MAX_PAIRS:       # unreachable on boards up to 8x8; kept as the notation's bound
            raise UnknownGameError("game.pairs", pairs, f"at most {MAX_PAIRS} pairs ({letter_range(MAX_PAIRS)})")
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

    def rolls_after(self, turn: int) -> int:
        """How many Erasure rolls follow turns 1 to ``turn``."""
        if self.erasure == "off":
            return 0
        return turn if self.erasure == "turn" else turn // 2

    @property
    def erasure_code(self) -> int:
        """The kernels' code for the erasure rule."""
        return ERASURE_CODES[self.erasure]

    @property
    def goal_code(self) -> int:
        """The kernels' code for the goal."""
        return GOAL_CODES[self.goal]

    # -- states and views ---------------------------------------------------------------------------
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

    def view_of(self, state: ForgottenState, player: int) -> ForgottenView:
        """What ``player`` knows of ``state`` (``State.view``; FG-13: both players know the same)."""
        check_player(player)
        known = self.state_from_json(state.observation(player), "state")
        return ForgottenView(known.game, player, known)

    def new_table(self, player: int) -> ForgottenView:
        """A real table before the first flip (FG-3): the Brains placed, every other cell a tile nobody has seen."""
        check_player(player, "--player")
        board = self.board
        if 2 * self.pairs != board.cells - 2:
            raise UnsupportedActionError("new --table", self.spec(), "with fewer pairs than cells the table's empty "
                                                                     "cells are part of the deal: type the start "
                                                                     "as a view, '.' for empty cells and '?' for "
                                                                     "tiles ('view:0 ROWS 0 first')")
        rows = ["".join("@" if y * board.width + x in board.brains else "?" for x in range(board.width))
                for y in range(board.height)]
        known = self.state_from_notation("/".join(rows) + " 0 first", "state")
        return ForgottenView(known.game, player, known)

    # -- parsing: a position carries its own board (docs/formats/forgotten.md) -------------------------------
    def game_for_rows(self, rows: Any) -> ForgottenGame:
        """The game whose board fits a position's rows (their size, pairs and Brains) with this game's rules
        (``erasure``, ``goal``); rows that describe no board leave the game as it is."""
        found = notation.board_of_rows(rows)
        if found is None or found[:3] + found[4:] == (self.width, self.height, self.pairs, self.board.brains):
            return self
        width, height, pairs, spec, _ = found
        fill = (width * height - 2) // 2
        return ForgottenGame(width=width, height=height, pairs=0 if pairs == fill else pairs, brains=spec,
                             erasure=self.erasure, goal=self.goal)

    def state_from_json(self, obj: Any, field: str = "state") -> ForgottenState:
        rows = obj.get("board") if isinstance(obj, dict) else None
        return notation.state_from_json(self.game_for_rows(rows), obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> ForgottenState:
        rows = text.split()[0].split("/") if isinstance(text, str) and text.split() else None
        return notation.state_from_notation(self.game_for_rows(rows), text, field)

    def view_from_json(self, obj: Any, field: str = "state") -> ForgottenView:
        return notation.view_from_json(self, obj, field)

    def view_from_notation(self, text: str, field: str = "state") -> ForgottenView:
        return notation.view_from_notation(self, text, field)

    def parse_position(self, payload: Any, field: str = "state") -> ForgottenState | ForgottenView:
        """A state, a view (``"view": N`` or ``view:N ...``), or a position with ``?``: what the players know,
        read as the view of the player whose turn it is (FG-13: both players know the same)."""
        position = super().parse_position(payload, field)
        if isinstance(position, ForgottenState) and not position.given:
            return position.view(position.default_observer())
        return position


GAME = ForgottenGame
