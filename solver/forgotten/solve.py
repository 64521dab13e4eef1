"""Exact analysis of a position on a small board: optimal win probability of every move, proven by search.

Uses the compiled solver ``solver.kernels.forgotten`` on the players' knowledge (FG-13). The
solver's values are for the knowledge model; the real game also tells the players that it is not
over, so every value is divided by the probability that the true board is still alive (FG-11):
``P(win | what was seen, game not over)``.

The ``solve`` service is :func:`solve`; ``score`` (where a position stands) is ``summary.score``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.errors import InvalidInputError, UnsupportedActionError
from solver.forgotten.knowledge import Info, Model, alive_probability, info_from_state, useful_moves
from solver.forgotten.state import GIVE_UP, ForgottenState
from solver.forgotten.summary import score
from solver.kernels import forgotten as kernel
from solver.results import SolveResult
from solver.search import SearchContext

__all__ = ["ExactAnalysis", "MoveValue", "solve", "solve_position", "score"]

MAX_CELLS = 24
DEFAULT_ENTRIES = 40_000_000
CHUNK_SECONDS = 0.04       # a kernel call's target duration: between calls the context is looked at
FIRST_CHUNK = 2_048        # nodes of the first call, before the rate is known


@dataclass
class MoveValue:
    """One move and its exact win probability."""

    action: int
    move: str
    value: float


class ExactAnalysis:
    """The compiled solver bound to one game; values are for the real game (conditioned on not being over).

    With a :class:`SearchContext` (:meth:`limit`) every kernel call runs in chunks of nodes sized to take about
    ``CHUNK_SECONDS`` each, with the GIL released and the context's deadline passed to the kernel; between chunks
    the context is looked at, so a ``terminate`` stops the search within tens of milliseconds and the time limit
    holds for the whole analysis. A chunk that stops keeps every value it completed (the memo), so the next
    chunk resumes where it stopped; the nodes it left unfinished (the path from the call's root to where it
    stopped: what it ticked but did not store) are expanded again, and are not counted twice. So
    :attr:`nodes` and the node limit count exactly as one uninterrupted call would, and the values, the nodes
    and where a node limit stops are the same however the chunks fall. A stop raises
    ``forgotten_exact.SearchStopped`` whose message is the limit: ``"terminated"``, ``"time limit"``,
    ``"node limit"`` or ``"memory limit"``. With ``interim`` (a builder of the best so far) set, the context's
    ``maybe_report`` is called between chunks, so ``reportDuringSearchEvery`` gets reports while a move is
    being solved.
    """

    def __init__(self, game: Any, policy: int = -1, max_entries: int = DEFAULT_ENTRIES) -> None:
        if game.board.cells > MAX_CELLS:
            raise UnsupportedActionError("state", f"{game.width}x{game.height}",
                                         f"exact solving takes boards of at most {MAX_CELLS} cells; use 'hint'")
        self.game = game
        self.model = Model.of(game)
        self.solver = kernel.Solver(game.width, game.height, *game.board.brains, game.erasure_code,
                                    game.goal_code, game.board.symmetries, policy, max_entries)
        self.max_nodes = 0          # for the whole analysis, counted from ``limit`` (0: none)
        self.nodes = 0              # nodes expanded since ``limit``, as one uninterrupted search counts them
        self.ctx: SearchContext | None = None
        self.interim: Callable[[], Any] | None = None
        self._chunk = FIRST_CHUNK

    def limit(self, ctx: SearchContext | None) -> None:
        """Take the cancellation, node and time limits of ``ctx`` (none: unlimited) and count nodes from here."""
        self.ctx = ctx
        self.max_nodes = (ctx.limits.nodes or 0) if ctx is not None else 0
        self.nodes = 0

    def _run(self, call: Callable[[int, float], float]) -> float:
        """``call(max_nodes, seconds)`` (one kernel method) in chunks, until it finishes or a limit stops it."""
        unfinished = 0              # nodes the last chunk ticked and left unstored: the next chunk ticks them again
        while True:
            room = self._chunk if self.ctx is not None else 0
            if self.max_nodes:
                left = self.max_nodes - self.nodes
                if left <= 0:
                    raise kernel.SearchStopped("node limit")
                room = min(room, left) if room else left
            seconds = self._look()
            ticks, entries, start = self.solver.nodes(), self.solver.entries(), time.perf_counter()
            try:
                value = call(unfinished + room if room else 0, seconds)
            except kernel.SearchStopped:
                reason = self.solver.stop_reason()
                if reason == "memory limit":
                    raise kernel.SearchStopped("memory limit") from None
                ticked = self.solver.nodes() - ticks
                self._pace(ticked, start)
                if reason == "node limit":
                    # the chunk's last tick stopped it; the nodes ticked after the stop were not expanded, and
                    # every node ticked before it is stored or still unfinished (on the path to where it stopped)
                    ticked = unfinished + room
                self.nodes += ticked - unfinished
                unfinished = ticked - (self.solver.entries() - entries)
                continue            # a chunk ended or the time ran out: the loop looks at the limits again
            self.nodes += self.solver.nodes() - ticks - unfinished
            self._pace(self.solver.nodes() - ticks, start)
            return value

    def _look(self) -> float:
        """Stop on ``terminate`` or at the time limit; send an interim report when one is due. Returns the
        seconds left for the next chunk (0: no time limit)."""
        if self.ctx is None:
            return 0.0
        if self.ctx.cancelled:
            raise kernel.SearchStopped("terminated")
        remaining = self.ctx.remaining()
        if remaining is not None and remaining <= 0:
            raise kernel.SearchStopped("time limit")
        if self.interim is not None:
            self.ctx.maybe_report(self.interim)
        return 0.0 if remaining is None else remaining

    def _pace(self, ticked: int, start: float) -> None:
        """Size the next chunk to about ``CHUNK_SECONDS`` from this one's rate (the size changes no result)."""
        elapsed = time.perf_counter() - start
        if ticked >= 256 and elapsed > 0:
            self._chunk = max(FIRST_CHUNK, int(ticked / elapsed * CHUNK_SECONDS))

    def _codes(self, info: Info) -> np.ndarray:
        return np.asarray(info.codes, np.uint8)

    def knowledge_value(self, info: Info, erase_next: bool) -> float:
        """Optimal win probability of the knowledge model at the start of a turn."""
        codes = self._codes(info)
        return self._run(lambda nodes, seconds: self.solver.value(codes, info.e, info.d, erase_next, nodes, seconds))

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
        return list(self.iter_move_values(state))

    def iter_move_values(self, state: ForgottenState) -> Iterator[MoveValue]:
        """The moves' exact values one at a time, the route plan's move and the moves worth considering
        first (``knowledge.useful_moves``), so that a search stopped by a limit has solved those."""
        info = info_from_state(state)
        alive = self._conditioning(info)
        erase_next = self.game.erasure_due(state.turn + 1)
        codes = self._codes(info)
        first = state.first if state.phase == "second" else -1
        for action in _search_order(self.solver, info, codes, first, state.legal_actions()):
            if action == GIVE_UP:
                value = 0.0
            elif first < 0:
                value = self._run(lambda nodes, seconds: self.solver.first_value(
                    codes, info.e, info.d, erase_next, action, nodes, seconds)) / alive
            else:
                value = self._run(lambda nodes, seconds: self.solver.second_value(
                    codes, info.e, info.d, erase_next, first, action, nodes, seconds)) / alive
            yield MoveValue(action, state.action_to_string(action), min(1.0, value))


def _search_order(solver: Any, info: Info, codes: np.ndarray, first: int, legal: list[int]) -> list[int]:
    useful = useful_moves(info, first)
    plan = solver.policy_move(codes, info.e, info.d, first) if bin(info.down()).count("1") >= 2 else -1
    ordered = ([plan] if plan in legal else []) + [a for a in useful if a != plan and a in legal]
    return ordered + [a for a in legal if a not in ordered]


VALUE_MEANING = "probability that the players win with optimal play from what they have seen (both players share it)"


def solve(game: Any, payload: Any, ctx: SearchContext, **options: Any) -> SolveResult:
    """The ``solve`` service: exact win probability of every move on boards of at most 24 cells, from what the
    players know (so a view is as good as a state)."""
    position = game.parse_position(payload)
    if isinstance(position, ForgottenState):
        state = position
    elif position.flipped >= 0:
        raise InvalidInputError("state", position.to_notation(),
                                f"the tile flipped on {position.board.name(position.flipped)} is not entered yet: "
                                "enter it ('shows L') before asking to solve")
    else:
        state = position.known
    return solve_position(state.game, state, ctx)


def solve_position(game: Any, state: ForgottenState, ctx: SearchContext) -> SolveResult:
    """The ``solve`` service: exact values of every move from what the players know.

    When a limit stops the search (``terminate``, the time or node limit, the memory cap), the result is
    the best so far: the moves solved by then with their exact values, the others with ``null``;
    ``value`` is the best solved move's value (a lower bound on the optimum), ``bound`` 1, ``status``
    ``LIMIT`` and ``limit`` names the limit.
    """
    start = time.perf_counter()
    analysis = ExactAnalysis(state.game)
    analysis.limit(ctx)
    base: dict[str, Any] = {"position": state.to_notation(), "phase": state.phase, "valueMeaning": VALUE_MEANING,
                            "fullInformation": False}
    done: list[MoveValue] = []
    analysis.interim = lambda: _best_so_far(state, analysis, dict(base), done, time.perf_counter() - start,
                                            during_search=True)
    try:
        if state.phase in ("first", "second"):
            for move in analysis.iter_move_values(state):
                done.append(move)
            moves = sorted(done, key=lambda m: (-m.value, m.action))
            value = moves[0].value if moves else 0.0
            best = [m.move for m in moves if m.value >= value - 1e-12 and m.action != GIVE_UP]
            base["moves"] = [{"move": m.move, "winProbability": m.value} for m in moves]
            base["bestMoves"] = best
        else:
            value = analysis.position_value(state)
        info = info_from_state(state) if not state.is_terminal() else None
        base["aliveProbability"] = analysis.alive(info) if info is not None else None
    except kernel.SearchStopped as exc:
        return _best_so_far(state, analysis, base, done, time.perf_counter() - start, limit=str(exc))
    base.update({"winProbability": value, "nodes": analysis.nodes, "knowledgeStates": analysis.solver.entries()})
    return SolveResult(state.game.spec(), value, True, value, "EXHAUSTIVE", time.perf_counter() - start, base)


def _best_so_far(state: ForgottenState, analysis: ExactAnalysis, base: dict[str, Any], done: list[MoveValue],
                 seconds: float, limit: str | None = None, during_search: bool = False) -> SolveResult:
    """The best so far: when ``limit`` stopped the search (named in ``limit`` and ``reason``), or, with
    ``during_search``, an interim report of a search still running (``status`` ``LIMIT``: nothing is proven
    optimal yet)."""
    solved = sorted((m for m in done if m.action != GIVE_UP), key=lambda m: (-m.value, m.action))
    best = solved[0].value if solved else None
    if state.phase in ("first", "second"):
        names = {m.move for m in done}
        base["moves"] = [{"move": m.move, "winProbability": m.value} for m in solved] + \
            [{"move": state.action_to_string(a), "winProbability": None} for a in state.legal_actions()
             if state.action_to_string(a) not in names and a != GIVE_UP] + \
            [{"move": "give up", "winProbability": 0.0}]
        base["bestSoFar"] = [m.move for m in solved if best is not None and m.value >= best - 1e-12]
    base.update({"nodes": analysis.nodes, "knowledgeStates": analysis.solver.entries()})
    if limit is not None:
        base.update({"limit": limit, "reason": f"{limit} reached after {analysis.nodes:,} nodes"})
    return SolveResult(state.game.spec(), best, False, 1.0, "LIMIT", seconds, base, is_during_search=during_search)
