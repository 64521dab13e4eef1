"""The toy game's exact solution: the player to move wins unless the pile is a multiple of 3."""

from __future__ import annotations

from typing import Any

from solver.game import Game
from solver.results import SolveResult
from solver.search import SearchContext


def solve(game: Game, payload: Any, ctx: SearchContext, **options: Any) -> SolveResult:
    """Who wins with perfect play, proven by the multiple-of-3 rule."""
    state = game.parse_state(payload)
    win = state.pile % 3 != 0
    return SolveResult(game.name, 1.0 if win else -1.0, True, 1.0 if win else -1.0, "EXHAUSTIVE",
                       ctx.elapsed(), {"winner": state.player if win else 1 - state.player})


def score(game: Game, payload: Any, **options: Any) -> dict[str, Any]:
    """The pile left."""
    return {"pile": game.parse_state(payload).pile}
