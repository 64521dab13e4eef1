"""Toy text: the pile in words."""

from __future__ import annotations

from typing import Any

from solver.game import Game, State, View


def describe(game: Game, position: State | View) -> str:
    """How many counters are left and whose turn it is."""
    data = position.to_json()
    return f"{data['pile']} counters, player {data['player']} to take\n"


def render(verb: str, result: Any) -> str | None:
    """The generic ``key: value`` lines for every verb."""
    return None
