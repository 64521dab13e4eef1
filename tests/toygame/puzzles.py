"""Toy puzzles: find the move that leaves a multiple of 3."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from solver.game import Game
from solver.search import SearchContext, Stopped

KINDS = ("win",)


def generate(game: Game, kind: str, difficulty: str, rng: np.random.Generator, ctx: SearchContext) -> dict[str, Any]:
    """A pile that is not a multiple of 3; the harder, the larger."""
    if ctx.should_stop():
        raise Stopped
    low, high = {"easy": (3, 6), "medium": (7, 20), "hard": (21, 60)}[difficulty]
    pile = int(rng.integers(low, high))
    while pile % 3 == 0:
        pile += 1
    return {"position": f"{pile}:0", "solution": f"take{pile % 3}"}


def check(game: Game, puzzle: dict[str, Any], answer: Any, ctx: SearchContext) -> dict[str, Any]:
    """Correct when the answer leaves a multiple of 3 (no search: ``ctx`` has nothing to stop)."""
    state = game.parse_state(puzzle["position"], "puzzle.position")
    best = f"take{state.pile % 3}"
    return {"correct": answer == best, "message": "leaves a multiple of 3" if answer == best
            else f"{best} leaves a multiple of 3"}


def describe(game: Game, puzzle: dict[str, Any]) -> str:
    """The statement: the pile, never the answer."""
    return f"Pile {puzzle['position']}: take 1 or 2 so that you win.\n"


def answer(game: Game, puzzle: dict[str, Any]) -> str:
    """The proven answer."""
    return json.dumps(puzzle.get("solution"))
