"""Toy pictures: one circle per counter."""

from __future__ import annotations

from typing import Any

from solver.drawing import Svg, difficulty_badge, hint_marks
from solver.game import Game, State, View


def svg(game: Game, position: State | View, hint: dict[str, Any] | None = None, **options: Any) -> str:
    """The pile, with the hint's moves as badges."""
    data = position.to_json()
    doc = Svg(40 + 20 * max(1, data["pile"]), 70, title=f"pile of {data['pile']}")
    for i in range(data["pile"]):
        doc.circle(30 + 20 * i, 35, 8, fill="#E69F00", target=f"c{i}")
    for mark in hint_marks(hint):
        doc.badge(30, 60, mark["move"], opacity=mark["opacity"])
    return doc.render()


def puzzle_svg(game: Game, puzzle: dict[str, Any], solution: bool = False) -> str:
    """The puzzle's pile, with its answer on the solution sheet."""
    doc = Svg(200, 80, title=puzzle["id"])
    doc.text(20, 40, puzzle["position"] + (f" -> {puzzle['solution']}" if solution else ""), anchor="start")
    difficulty_badge(doc, 190, 14, puzzle["difficulty"])
    return doc.render()
