"""``score`` for Forgotten: what a position means for the players, from what they have seen (FG-13).

There are no points in Forgotten; the "score" of a position is its status and how far the Brains are
from being linked: the cheapest route, the fewest tiles still to turn face up on a route, the known
pairs, the tiles known to be lost, and which Erasure rolls would end the game for sure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from solver.forgotten.board import cheapest_route, route_prices
from solver.forgotten.knowledge import Model, info_from_state
from solver.forgotten.state import ForgottenState
from solver.forgotten.tiles import DOWN, REMOVED, letter
from solver.kernels import forgotten as kernel

if TYPE_CHECKING:
    from solver.forgotten.game import ForgottenGame

STATUS = {"first": "in play", "second": "in play", "erase": "in play", "won": "won", "lost": "lost",
          "gave-up": "gave up"}


def score(game: ForgottenGame, payload: Any, **options: Any) -> dict[str, Any]:
    """The ``score`` service: status, route and Erasure risks of a state or a view, from what the players have
    seen (a view waiting for a flipped tile says which)."""
    position = game.parse_position(payload)
    if isinstance(position, ForgottenState):
        return position_report(position)
    report = position_report(position.known, position.observer)
    if position.flipped >= 0:
        report["flipped"] = position.board.name(position.flipped)
    return report


def position_report(state: ForgottenState, player: int = 0) -> dict[str, Any]:
    """The position's status, route and risks as the players know them."""
    seen_state = state.game.state_from_json(state.observation(player))
    board = state.board
    info = info_from_state(seen_state)
    up, unk, pairs, singles, dead = info.masks()
    name = board.name
    cells = board.cells
    out: dict[str, Any] = {
        "status": STATUS[state.phase], "phase": state.phase, "turn": state.turn,
        "player": state.current_player() if not state.is_terminal() else None,
        "erasureAfterThisTurn": state.game.erasure_due(state.turn + 1) if state.phase in ("first", "second")
        else None,
        "faceUpPath": board.connected(up),
        "tiles": {"faceUp": bin(up).count("1"), "faceDown": sum(1 for s in state.status if s == DOWN),
                  "seenFaceDown": bin(pairs | singles | dead).count("1"), "unseenFaceDown": bin(unk).count("1"),
                  "removed": sum(1 for s in state.status if s == REMOVED),
                  "removedUnseen": info.e},
        "knownPairs": _pairs(seen_state, pairs),
        "seenSingles": [f"{letter(seen_state.tiles[c])} at {name(c)}" for c in range(cells) if singles >> c & 1],
        "lostTiles": [f"{letter(seen_state.tiles[c])} at {name(c)}" for c in range(cells) if dead >> c & 1],
        "fullInformation": False,
        "goal": state.game.goal,
    }
    if state.phase in ("first", "second", "erase"):
        model = Model.of(state.game)
        fatal = [name(c) for c in range(cells) if not model.hopeful(model.erase(info, c))]
        erasure = {"rollsThatEndTheGame": fatal, "outOf": cells, "probability": len(fatal) / cells}
    if state.game.goal == "clear":      # FG-14: no route to build, every face-down tile still to match
        out["route"] = None
        if state.phase in ("first", "second", "erase"):
            out["erasure"] = erasure
        return out
    usable = up | unk | pairs | (singles if unk else 0)
    missing = kernel.missing_tiles(board.width, board.height, *board.brains, up, usable)
    costs = np.zeros(cells, np.int32)
    best = kernel.route_costs(board.width, board.height, *board.brains, up, pairs,
                              singles if unk else 0, unk, costs)
    _, route = kernel.route(board.width, board.height, *board.brains, up, pairs, singles if unk else 0, unk)
    out["route"] = {
        "missingTiles": None if missing < 0 else missing,
        "cost": None if best < 0 else best,
        "costMeaning": "face up 0, known pair 1, seen tile with unseen partner 2, unseen tile 3",
        "cells": [name(c) for c in range(cells) if route >> c & 1 and not up >> c & 1],
        "path": [name(c) for c in cheapest_route(board, route_prices(board, up, pairs, singles if unk else 0, unk))],
    }
    if state.phase in ("first", "second", "erase"):
        out["erasure"] = erasure
    return out


def _pairs(state: ForgottenState, pairs: int) -> list[str]:
    seen: dict[int, list[int]] = {}
    for c in range(state.board.cells):
        if pairs >> c & 1:
            seen.setdefault(state.tiles[c], []).append(c)
    return [f"{letter(t)} at {state.board.name(a)} and {state.board.name(b)}" for t, (a, b) in sorted(seen.items())]
