"""Forgotten: the game object, its engine services and its command line."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np

from solver.errors import InvalidInputError, UnknownGameError, UnsupportedActionError
from solver.forgotten.board import MAX_SIDE, MIN_SIDE, Board, default_brains, opposite_sides, parse_brains
from solver.forgotten.notation import DOWN, MAX_PAIRS, NONE, SECOND_SERIES, letter_range
from solver.forgotten.state import ForgottenState, state_from_json, state_from_notation
from solver.game import Game, Information, Option, Parameter, Utility
from solver.results import HintResult, SolveResult
from solver.search import SearchContext

if TYPE_CHECKING:
    from solver.forgotten.view import ForgottenView

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

    # -- positions carry their own board --------------------------------------------------------------------
    def game_for_rows(self, rows: Any) -> ForgottenGame:
        """The game whose board fits a position's rows: their size, pairs and Brains, with this game's rules.

        A typed position carries its own board (docs/formats/forgotten.md); only ``erasure`` and ``goal``
        come from the game. Rows that do not describe a board leave the game as it is (the parser then says
        what is wrong).
        """
        if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
            return self
        # The first row sets the width: a row of another length is then reported by the parser
        # ("row y=3: expected 5 cells"), not as a board of the wrong size.
        width, height = _count_cells(rows[0]), len(rows)
        if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE) or width * height > 64:
            return self
        tokens = [t for r in rows for t in _tokens(r)]
        tiles = sum(1 for t in tokens if t not in ("@", "."))
        pairs = min(max(1, (tiles + 1) // 2), MAX_PAIRS, (width * height - 2) // 2)
        brains = [i for i, t in enumerate(tokens) if t == "@"]
        spec = "auto"       # with no legal pair of Brains the parser says what is wrong with them
        if len(brains) == 2 and opposite_sides(brains[0], brains[1], width, height):
            spec = "-".join(f"{c % width + 1}{c // width + 1}" for c in brains)
            if tuple(brains) == default_brains(width, height):
                spec = "auto"
        derived = (width, height, pairs, parse_brains(spec, width, height, "game.brains"))
        if derived == (self.width, self.height, self.pairs, self.board.brains):
            return self
        fill = (width * height - 2) // 2
        return ForgottenGame(width=width, height=height, pairs=0 if pairs == fill else pairs, brains=spec,
                             erasure=self.erasure, goal=self.goal)

    def state_from_json(self, obj: Any, field: str = "state") -> ForgottenState:
        rows = obj.get("board") if isinstance(obj, dict) else None
        return state_from_json(self.game_for_rows(rows), obj, field)

    def state_from_notation(self, text: str, field: str = "state") -> ForgottenState:
        rows = text.split()[0].split("/") if isinstance(text, str) and text.split() else None
        return state_from_notation(self.game_for_rows(rows), text, field)

    # -- views (solver.forgotten.view) -------------------------------------------------------------------------
    def view_from_json(self, obj: Any, field: str = "state") -> ForgottenView:
        from solver.forgotten.view import view_from_json
        return view_from_json(self, obj, field)

    def view_from_notation(self, text: str, field: str = "state") -> ForgottenView:
        from solver.forgotten.view import view_from_notation
        return view_from_notation(self, text, field)

    def parse_position(self, payload: Any, field: str = "state") -> ForgottenState | ForgottenView:
        """A state, a view (``"view": N`` or ``view:N ...``), or a position with ``?``: what the players know,
        read as the view of the player whose turn it is (FG-13: both players know the same)."""
        position = super().parse_position(payload, field)
        if isinstance(position, ForgottenState) and not position.given:
            return position.view(position.default_observer())
        return position

    def new_table(self, player: int) -> ForgottenView:
        """A real table before the first flip (FG-3): the Brains placed, every other cell a tile nobody has seen."""
        from solver.forgotten.view import PLAYERS, ForgottenView
        if isinstance(player, bool) or player not in PLAYERS:
            raise InvalidInputError("--player", player, "Forgotten has players 0 and 1")
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

    # -- services ---------------------------------------------------------------------------------------------
    def hint_view(self, view: ForgottenView, ctx: SearchContext, *, top: int = 3, **options: Any) -> HintResult:
        """Rank the flips of this stage of the turn by win probability from the view (``solver.forgotten.hints``)."""
        from solver.forgotten.hints import hint, reveal_hint
        if view.flipped >= 0:
            return reveal_hint(view.known, view.flipped, ctx, viewer=view.observer)
        return hint(view.known, ctx, top=top, player=view.observer)

    def hint_full(self, state: ForgottenState, ctx: SearchContext, *, top: int = 3, player: int | None = None,
                  **options: Any) -> HintResult:
        """Oracle rollouts on the true tiles: a full-information analysis, labelled as such."""
        from solver.forgotten.hints import hint
        return hint(state, ctx, top=top, player=player, full_information=True)

    def solve(self, payload: Any, ctx: SearchContext) -> SolveResult:
        """Exact optimal win probability of every move, on boards of at most 24 cells (``solver.forgotten.solve``).

        The solver reads only what the players know, so a view is as good as a state.
        """
        from solver.forgotten.solve import solve_position
        state = self._known_state(payload, "solve")
        return solve_position(state.game, state, ctx)

    def score(self, payload: Any) -> dict[str, Any]:
        """Status, route and Erasure risks of a position, from what the players have seen."""
        from solver.forgotten.summary import position_report
        position = self.parse_position(payload)
        if isinstance(position, ForgottenState):
            return position_report(position)
        report = position_report(position.known, position.observer)
        if position.flipped >= 0:
            report["flipped"] = position.board.name(position.flipped)
        return report

    def _known_state(self, payload: Any, action: str) -> ForgottenState:
        position = self.parse_position(payload)
        if isinstance(position, ForgottenState):
            return position
        if position.flipped >= 0:
            raise InvalidInputError("state", position.to_notation(),
                                    f"the tile flipped on {position.board.name(position.flipped)} is not entered yet: "
                                    f"enter it ('shows L') before asking to {action}")
        return position.known

    # -- puzzles and self-play (solver.forgotten.runs) ----------------------------------------------------------
    PUZZLE_KINDS = ("forced-connection", "best-move")
    #: best-move puzzles need the exact solver (at most 24 cells): the web board makes them on a small board
    PUZZLE_GAMES = {"best-move": "forgotten(width=4,height=3,pairs=3)"}
    SELFPLAY_POLICIES = ("route", "greedy", "random", "oracle", "hint")
    SELFPLAY_DEFAULT = ("route",)
    VERB_OPTIONS = {"selfplay": (
        Option("hintNodes", "--hint-nodes", int, 2000, "rollouts per decision of the hint policy", lo=1, hi=10**7),
        Option("fast", "--fast", bool, False, "deal and play in the compiled kernel (much faster; no moves, no hint "
                                              "policy)"),
    )}

    VERB_NOTES = {"generate": "What to expect: a few seconds of CPU per puzzle on boards of up to 24 cells "
                              "(best-move puzzles are solved exactly, one solver shared by every candidate, "
                              "positions with at most 6 unseen tiles); forced connections are usually faster and "
                              "the only kind on larger boards. A puzzle not found within 200 self-played games is "
                              "an error naming the difficulty."}

    def prepare(self, verb: str) -> None:
        """``solve`` loads the exact kernel before ``--time-ms`` starts counting (about 0.9 s in an editable
        install, which would otherwise eat a short limit)."""
        if verb == "solve":
            import solver.forgotten.solve  # noqa: F401

    def generate_puzzle(self, kind: str, difficulty: str, rng: np.random.Generator) -> dict[str, Any]:
        from solver.forgotten.runs import generate_puzzle
        return generate_puzzle(self, kind, difficulty, rng)

    def check_puzzle(self, puzzle: dict[str, Any], answer: Any) -> dict[str, Any]:
        from solver.forgotten.runs import check
        return check(self, puzzle, answer)

    def puzzle_position(self, puzzle: dict[str, Any]) -> ForgottenState | ForgottenView:
        """The view of the puzzle's position: its first flip answers both kinds (``check`` takes the moves)."""
        from solver.forgotten.runs import puzzle_position
        return puzzle_position(self, puzzle)

    def describe_puzzle(self, puzzle: dict[str, Any]) -> str:
        from solver.forgotten.runs import describe
        return describe(self, puzzle)

    def puzzle_answer(self, puzzle: dict[str, Any]) -> str:
        from solver.forgotten.runs import answer_line
        return answer_line(puzzle)

    def selfplay_game(self, policies: tuple[str, ...], rng: np.random.Generator, **options: Any) -> dict[str, Any]:
        from solver.forgotten.runs import selfplay_game
        return selfplay_game(self, policies, rng, **options)

    # -- pictures (solver.forgotten.picture) ------------------------------------------------------------------
    def svg(self, position: Any, hint: dict[str, Any] | None = None, **options: Any) -> str:
        """The board, its best route so far and ``hint``'s moves, drawn from ``position.to_json()`` only."""
        from solver.forgotten.picture import position_svg
        if options:
            raise InvalidInputError(f"options.{sorted(options)[0]}", options[sorted(options)[0]],
                                    "Forgotten pictures take no options")
        return position_svg(self, position, hint)

    def puzzle_svg(self, puzzle: dict[str, Any], solution: bool = False) -> str:
        from solver.forgotten.picture import puzzle_svg
        return puzzle_svg(self, puzzle, solution)

    # -- text ------------------------------------------------------------------------------------------------------
    def describe(self, position: Any, player: int | None = None) -> str:
        """The board as the players see it, with dice coordinates, and whose turn it is."""
        from solver.forgotten.cli import describe_position
        if player is not None:
            position = position.view(player)
        return describe_position(position)

    def render_text(self, verb: str, result: Any) -> str | None:
        from solver.forgotten import cli
        renderer = {"hint": cli.hint_text, "solve": cli.solve_text, "score": cli.score_text}.get(verb)
        return renderer(result) if renderer else None

    # -- command line ------------------------------------------------------------------------------------------
    #: old flags kept working (docs/formats/forgotten.md): ``selfplay --games N --policy P``
    FLAG_ALIASES = {"selfplay": {"--games": "--count", "--policy": "--policies"}}

    def add_cli(self, commands: argparse._SubParsersAction) -> None:
        from solver.forgotten import cli
        cli.add_commands(commands, self)

    def demo(self, out: TextIO) -> None:
        from solver.forgotten.cli import demo
        demo(out)


def _tokens(row: str) -> list[str]:
    """Cell tokens of a notation row (a sign joins the next character, a letter the series mark after it)."""
    out, i = [], 0
    while i < len(row):
        end = i + 2 if row[i] in "+-" and i + 1 < len(row) else i + 1
        if row[end - 1].isalpha() and row[end:end + 1] == SECOND_SERIES:
            end += 1
        out.append(row[i:end])
        i = end
    return out


def _count_cells(row: str) -> int:
    return len(_tokens(row))


GAME = ForgottenGame
