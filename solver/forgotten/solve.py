"""Exact analysis of a position on a small board: optimal win probability of every move, proven by search.

Uses the compiled solver ``solver.kernels.forgotten_exact`` on the players' knowledge (FG-13). The
solver's values are for the knowledge model; the real game also tells the players that it is not
over, so every value is divided by the probability that the true board is still alive (FG-11):
``P(win | what was seen, game not over)``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.errors import UnsupportedActionError
from solver.forgotten.knowledge import Info, Model, alive_probability, info_from_state
from solver.forgotten.state import GIVE_UP, ForgottenState
from solver.kernels import forgotten_exact
from solver.results import SolveResult
from solver.search import SearchContext

MAX_CELLS = 24
DEFAULT_ENTRIES = 40_000_000


@dataclass
class MoveValue:
    """One move and its exact win probability."""

    action: int
    move: str
    value: float


class ExactAnalysis:
    """The compiled solver bound to one game; values are for the real game (conditioned on not being over)."""

    def __init__(self, game: Any, policy: int = -1, max_entries: int = DEFAULT_ENTRIES) -> None:
        if game.board.cells > MAX_CELLS:
            raise UnsupportedActionError("state", f"{game.width}x{game.height}",
                                         f"exact solving takes boards of at most {MAX_CELLS} cells; use 'hint'")
        self.game = game
        self.model = Model.of(game)
        self.solver = forgotten_exact.Solver(game.width, game.height, *game.board.brains, game.erasure_code,
                                             game.goal_code, game.board.symmetries, policy, max_entries)
        self.max_nodes = 0
        self.seconds = 0.0

    def limit(self, ctx: SearchContext | None) -> None:
        """Take the node and time limits of ``ctx`` (none: unlimited)."""
        if ctx is None:
            self.max_nodes, self.seconds = 0, 0.0
            return
        self.max_nodes = ctx.limits.nodes or 0
        left = ctx.remaining()
        self.seconds = max(left, 1e-3) if left is not None else 0.0

    def _codes(self, info: Info) -> np.ndarray:
        return np.asarray(info.codes, np.uint8)

    def knowledge_value(self, info: Info, erase_next: bool) -> float:
        """Optimal win probability of the knowledge model at the start of a turn."""
        return self.solver.value(self._codes(info), info.e, info.d, erase_next, self.max_nodes, self.seconds)

    def alive(self, info: Info) -> float:
        """Probability that the true board can still be won (a route, or under the clear goal every tile)."""
        return float(alive_probability(self.model, info))

    def _conditioning(self, info: Info) -> float:
        """What the knowledge value is divided by to give the real game's value (1 when the model's values are
        already conditioned on the game not being over, ``Model.conditioned``)."""
        return 1.0 if self.model.conditioned else self.alive(info)

    def position_value(self, state: ForgottenState) -> float:
        """Win probability of ``state`` under optimal play, given only what the players know."""
        if state.phase == "won":
            return 1.0
        if state.phase in ("lost", "gave-up"):
            return 0.0
        info = info_from_state(state)
        if state.phase == "erase":
            return self.roll_value(info) / self._conditioning(info)
        moves = self.move_values(state)
        return max((m.value for m in moves), default=0.0)

    def roll_value(self, info: Info) -> float:
        """Knowledge value just before an Erasure roll."""
        flag = self.model.next_flag(True)
        total = 0.0
        for cell in range(self.model.cells):
            total += self.knowledge_value(self.model.erase(info, cell), flag)
        return total / self.model.cells

    def move_values(self, state: ForgottenState) -> list[MoveValue]:
        """Exact win probability of every legal move at a decision (giving up is worth 0)."""
        info = info_from_state(state)
        alive = self._conditioning(info)
        erase_next = self.game.erasure_due(state.turn + 1)
        codes = self._codes(info)
        out = []
        for action in state.legal_actions():
            if action == GIVE_UP:
                value = 0.0
            elif state.phase == "first":
                value = self.solver.first_value(codes, info.e, info.d, erase_next, action, self.max_nodes,
                                                self.seconds) / alive
            else:
                value = self.solver.second_value(codes, info.e, info.d, erase_next, state.first, action,
                                                 self.max_nodes, self.seconds) / alive
            out.append(MoveValue(action, state.action_to_string(action), min(1.0, value)))
        return out


def solve_position(game: Any, state: ForgottenState, ctx: SearchContext) -> SolveResult:
    """The ``solve`` service: exact values of every move from what the players know, or the limit reached."""
    start = time.perf_counter()
    analysis = ExactAnalysis(state.game)
    analysis.limit(ctx)
    base: dict[str, Any] = {"position": state.to_notation(), "phase": state.phase,
                            "valueMeaning": "probability that the players win with optimal play from what they "
                                            "have seen (both players share it)",
                            "fullInformation": False}
    try:
        if state.phase in ("first", "second"):
            moves = sorted(analysis.move_values(state), key=lambda m: (-m.value, m.action))
            value = moves[0].value if moves else 0.0
            best = [m.move for m in moves if m.value >= value - 1e-12 and m.action != GIVE_UP]
            base["moves"] = [{"move": m.move, "winProbability": m.value} for m in moves]
            base["bestMoves"] = best
        else:
            value = analysis.position_value(state)
        info = info_from_state(state) if not state.is_terminal() else None
        base["aliveProbability"] = analysis.alive(info) if info is not None else None
    except forgotten_exact.SearchStopped as exc:
        base.update({"nodes": analysis.solver.nodes(), "knowledgeStates": analysis.solver.entries(),
                     "reason": str(exc)})
        return SolveResult(state.game.spec(), None, False, None, "LIMIT", time.perf_counter() - start, base)
    base.update({"winProbability": value, "nodes": analysis.solver.nodes(),
                 "knowledgeStates": analysis.solver.entries()})
    return SolveResult(state.game.spec(), value, True, value, "EXHAUSTIVE", time.perf_counter() - start, base)
