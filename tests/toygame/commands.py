"""The toy game's own command and demo, declared as data (``solver.options``)."""

from __future__ import annotations

from typing import Any

from solver.game import Game
from solver.options import Argument, Command, Example
from solver.validate import as_int


def _losing_piles(game: Game, values: dict[str, Any]) -> dict[str, Any]:
    limit = as_int(values["limit"], "LIMIT", 0, 10_000)
    return {"limit": limit, "losing": [p for p in range(limit + 1) if p % 3 == 0]}


def _render_losing(result: dict[str, Any]) -> str:
    return f"piles up to {result['limit']} that lose for the player to move: {result['losing']}\n"


COMMANDS = (
    Command("losing", "the piles that lose for the player to move",
            (Argument(("limit",), "the largest pile", kind=int, metavar="LIMIT"),), run=_losing_piles,
            render=_render_losing),
)

DEMO = (
    Example("Deal a pile", ("new", "--seed", "3")),
    Example("Hint it", ("hint", "{previous}")),
    Example("The losing piles", ("losing", "12")),
)
