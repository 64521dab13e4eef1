"""Shared helpers for the Memorinth tests: build positions by naming the cards on a few cells."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from solver.memorinth.deck import default_deck
from solver.memorinth.game import MemorinthGame
from solver.memorinth.state import MemorinthState


def build_position(cells: dict[str, str] | None = None, **fields: Any) -> dict[str, Any]:
    """A JSON state with the given cards (``{"c2": "9S"}``) and the rest of the deck in order, checkerboard faces."""
    cells = dict(cells or {})
    deck = default_deck()
    used = {token.split(":")[0][:-1] for token in cells.values()}
    rest = [c.ident for c in deck.cards if c.ident not in used]
    board = []
    for r in range(5):
        row = []
        for c in range(5):
            name = f"{'abcde'[c]}{r + 1}"
            if name in cells:
                row.append(cells[name])
            else:
                ident = rest.pop(0)
                row.append(ident + ("S" if (r + c) % 2 == 0 else "M"))
        board.append(" ".join(row))
    players = fields.get("players", 2)
    out: dict[str, Any] = {"players": players, "board": board, "pieces": ["c3"] * players,
                           "characters": {"N": "GH", "E": "RX", "S": "BT", "W": "FP"}}
    out.update(fields)
    return out


@pytest.fixture
def position() -> Callable[..., dict[str, Any]]:
    """``position(cells, **fields)``: see :func:`build_position`."""
    return build_position


@pytest.fixture
def load() -> Callable[..., MemorinthState]:
    """``load(json_state)``: parse a state with the default game."""
    game = MemorinthGame()
    return lambda obj: game.state_from_json(obj)
