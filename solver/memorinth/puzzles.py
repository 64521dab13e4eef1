"""Escape-in-k puzzles: solitaire positions with every card known and exactly one shortest way out.

A puzzle is a one-player position (``players=1``, MR-26) in which the player
has seen every underside. Its answer is the proven shortest escape (IDA*,
``solver/memorinth/escape.py``); the generator keeps a position only when the
exhaustive count of decision sequences that leave the forest within k own
turns is exactly one, then replays that sequence move by move to verify it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.errors import InvalidInputError
from solver.memorinth.codec import check_state
from solver.memorinth.escape import shortest_escape
from solver.memorinth.rules import kernel
from solver.memorinth.rules import start_side
from solver.memorinth.state import DOWN, LAST, PIECE, ROUND, SEEN, START, UP, MemorinthState
from solver.search import Limits, SearchContext
from solver.validate import as_int

DIFFICULTIES = {  # own turns of the unique shortest escape, by variant
    "base": {"easy": (2, 3), "medium": (4, 5), "hard": (6, 7)},
    "master": {"easy": (2, 2), "medium": (3, 3), "hard": (4, 5)},
}
COUNT_LIMIT = 40            # positions with more shortest solutions than this are dropped at once
COUNT_NODE_LIMIT = 3_000_000
ESCAPE_NODE_LIMIT = 1_000_000
IMPROVE_STEPS = 60


@dataclass
class Puzzle:
    """One verified escape-in-k puzzle."""

    ident: str
    difficulty: str
    turns: int
    state: MemorinthState
    solution: list[list[str]]
    attempts: int
    nodes: int

    def to_json(self) -> dict[str, Any]:
        """The puzzle as JSON (``state`` is a full JSON state; ``solution`` the moves of each turn)."""
        return {"id": self.ident, "difficulty": self.difficulty, "turns": self.turns, "state": self.state.to_json(),
                "notation": self.state.to_notation(), "solution": self.solution, "unique": True, "verified": True,
                "attempts": self.attempts, "nodes": self.nodes}


def first_step_bounds(state: MemorinthState) -> list[int]:
    """For each cell, the base game's admissible bound on the turns a piece there needs (-1: never out)."""
    deck = state.rules.deck
    v = state.vec
    union = [deck.side(int(v[UP + c])).paths | deck.side(int(v[DOWN + c])).paths for c in range(25)]
    out = []
    field = _union_field(union)
    for cell in range(25):
        own = deck.side(int(v[UP + cell])).paths
        best = -1
        for d, step in enumerate((-5, 1, 5, -1)):
            if not own >> d & 1:
                continue
            r, c = divmod(cell, 5)
            if (d == 0 and r == 0) or (d == 1 and c == 4) or (d == 2 and r == 4) or (d == 3 and c == 0):
                best = 1
                break
            t = cell + step
            if union[t] >> ((d + 2) % 4) & 1 and field[t] >= 0 and (best < 0 or field[t] + 1 < best):
                best = field[t] + 1
        out.append(best)
    return out


def _union_field(union: list[int]) -> list[int]:
    dist = [-1] * 25
    frontier = []
    for c in range(25):
        r, col = divmod(c, 5)
        if (r == 0 and union[c] & 1) or (col == 4 and union[c] & 2) or (r == 4 and union[c] & 4) \
                or (col == 0 and union[c] & 8):
            dist[c] = 1
            frontier.append(c)
    while frontier:
        nxt = []
        for cell in frontier:
            r, col = divmod(cell, 5)
            for d, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
                rr, cc = r + dr, col + dc
                if 0 <= rr < 5 and 0 <= cc < 5:
                    nb = 5 * rr + cc
                    if dist[nb] < 0 and union[cell] >> d & 1 and union[nb] >> ((d + 2) % 4) & 1:
                        dist[nb] = dist[cell] + 1
                        nxt.append(nb)
        frontier = nxt
    return dist


def candidate(game: Any, seed: int, lo: int, hi: int) -> MemorinthState:
    """A random solitaire position, every underside known: a dealt board with random faces, a random round, and
    the piece on a cell whose bound suits the wanted length."""
    rng = np.random.default_rng(seed)
    state = game.deal(int(rng.integers(2**62)))
    v = state.vec
    round_no = int(rng.integers(2, 9))
    v[ROUND] = round_no
    v[START] = start_side(round_no, 0)
    for cell in range(25):
        if rng.random() < 0.5:
            v[UP + cell], v[DOWN + cell] = v[DOWN + cell], v[UP + cell]
    v[SEEN:SEEN + 25] = 1
    v[LAST] = -1
    bounds = first_step_bounds(state) if not state.rules.master else [1 + min(c // 5, c % 5, 4 - c // 5, 4 - c % 5)
                                                                      for c in range(25)]
    cells = [c for c in range(25) if lo - 2 <= bounds[c] <= hi] or list(range(25))
    v[PIECE] = cells[int(rng.integers(len(cells)))]
    return state


def _escape(state: MemorinthState, hi: int) -> Any:
    return shortest_escape(state, 0, max_depth=hi, ctx=SearchContext(limits=Limits(nodes=ESCAPE_NODE_LIMIT)))


def _count(state: MemorinthState, turns: int, limit: int) -> int | None:
    n, _, complete = kernel.count_solutions(state.vec, state.deck_table, 0, turns, limit, COUNT_NODE_LIMIT)
    return n if complete else None


def improve(state: MemorinthState, lo: int, hi: int, rng: np.random.Generator) -> MemorinthState | None:
    """Hill-climb toward a unique shortest escape: turn single cards over while the count of shortest solutions
    falls and the length stays in range. Returns the position once the count is one."""
    escape = _escape(state, hi)
    if not escape.optimal or not lo <= escape.turns <= hi:
        return None
    count = _count(state, escape.turns, COUNT_LIMIT)
    if count is None or count >= COUNT_LIMIT:
        return None
    for _ in range(IMPROVE_STEPS):
        if count == 1:
            return state
        cell = int(rng.integers(25))
        if cell == int(state.vec[PIECE]):
            continue
        trial = state.clone()
        v = trial.vec
        v[UP + cell], v[DOWN + cell] = v[DOWN + cell], v[UP + cell]
        escape = _escape(trial, hi)
        if not escape.optimal or not lo <= escape.turns <= hi:
            continue
        fewer = _count(trial, escape.turns, count)
        if fewer is not None and fewer < count:
            state, count = trial, fewer
    return state if count == 1 else None


def verify(state: MemorinthState, solution: list[list[str]]) -> bool:
    """Replay the solution: every move legal, the piece out at the end of the last turn and not before."""
    copy = state.clone()
    for i, turn in enumerate(solution):
        for move in turn:
            if copy.is_terminal():
                return False
            copy.apply_move(move)
        if copy.is_terminal() != (i == len(solution) - 1):
            return False
    return copy.winner() == 0


def turn_range(variant: str, difficulty: str, turns: int | None) -> tuple[int, int]:
    """The wanted escape length for a difficulty (or exactly ``turns``)."""
    if turns is not None:
        turns = as_int(turns, "--turns", 1, 12)
        return turns, turns
    table = DIFFICULTIES[variant]
    if difficulty not in table:
        raise InvalidInputError("--difficulty", difficulty, f"expected one of {', '.join(table)}")
    return table[difficulty]


def generate(game: Any, count: int, seed: int, difficulty: str = "medium", turns: int | None = None,
             ctx: SearchContext | None = None, max_attempts: int = 100_000) -> tuple[list[Puzzle], dict[str, Any]]:
    """``count`` verified puzzles with a unique shortest escape of the difficulty's length (or ``turns``)."""
    count = as_int(count, "--count", 1, 1000)
    if game.rules.players != 1:
        game = game.derive({"players": 1}, None, "game")
    lo, hi = turn_range(game.rules.variant, difficulty, turns)
    ctx = ctx or SearchContext()
    started = time.perf_counter()
    puzzles: list[Puzzle] = []
    attempt = 0
    while len(puzzles) < count and attempt < max_attempts and not ctx.should_stop():
        attempt += 1
        state = candidate(game, seed * 1_000_003 + attempt, lo, hi)
        check_state(state, "puzzle")
        state = improve(state, lo, hi, np.random.default_rng([seed, attempt]))
        if state is None:
            continue
        check_state(state, "puzzle")
        escape = _escape(state, hi)
        if not escape.optimal or _count(state, escape.turns, 2) != 1 or not verify(state, escape.turn_moves):
            raise AssertionError("a generated puzzle failed its verification")
        label = difficulty if turns is None else f"{turns} turns"
        puzzles.append(Puzzle(f"memorinth-{seed}-{attempt}", label, escape.turns, state, escape.turn_moves, attempt,
                              escape.nodes))
    stats = {"found": len(puzzles), "attempts": attempt, "seconds": round(time.perf_counter() - started, 3),
             "turnRange": [lo, hi], "stoppedByLimit": len(puzzles) < count}
    return puzzles, stats
