"""What a Memorinth player knows, and the hidden cards drawn again consistently with it (MR-21).

Everything on the table is public except the undersides of the cards. A player knows the underside of a card
they have seen (a flip shows both sides to everybody; a peek shows one player) and the clearing's; any other
underside may be any side of the other colour whose place they do not know. These functions work on the
kernel's state vector (``solver/memorinth/layout.py``), so states, views, hints and reasons share them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from solver.errors import ImpossibleStateError
from solver.memorinth import kernel
from solver.memorinth.layout import A_FLIP, A_PASS, A_PEEK, A_SWAPCARDS, DOWN, SEEN, UP

if TYPE_CHECKING:
    from solver.memorinth.state import MemorinthState

#: the word that enters the side a flipped (or peeked) card showed: ``reveal 12M``
REVEAL = "reveal"


def knows_underside(vec: np.ndarray, cell: int, player: int) -> bool:
    """MR-21: ``player`` knows the underside on ``cell``: they have seen it, or the card is the clearing."""
    return _knows(int(vec[SEEN + cell]), int(vec[UP + cell]), player)


def _knows(seen: int, up: int, player: int) -> bool:
    """MR-21 on a cell's ``seen`` bits and face-up side."""
    return bool(seen >> player & 1) or up < 2


def possible_undersides(vec: np.ndarray, cell: int, player: int) -> list[int]:
    """The side ids that may lie under ``cell`` for ``player`` (one when they know it), ascending: the undersides
    of the same colour they do not know (MR-21)."""
    if knows_underside(vec, cell, player):
        return [int(vec[DOWN + cell])]
    face = int(vec[UP + cell]) & 1
    return sorted(int(vec[DOWN + c]) for c in range(25)
                  if int(vec[UP + c]) & 1 == face and not knows_underside(vec, c, player))


def put_underside(vec: np.ndarray, cell: int, side: int) -> None:
    """Move ``side`` under ``cell`` in place, exchanging it with the underside of the cell that held it."""
    holder = next(c for c in range(25) if int(vec[DOWN + c]) == side)
    vec[DOWN + holder], vec[DOWN + cell] = vec[DOWN + cell], vec[DOWN + holder]


def fill_unknown_undersides(vec: np.ndarray, observer: int) -> None:
    """Give the cells whose underside ``observer`` does not know the sides nobody has placed for them: per colour,
    in ascending side order over the cells in order (a canonical filling: equal views, equal vectors)."""
    up, down = vec[UP:UP + 25].tolist(), vec[DOWN:DOWN + 25].tolist()   # Python ints: no numpy scalar a cell
    known = [_knows(seen, side, observer) for seen, side in zip(vec[SEEN:SEEN + 25].tolist(), up)]
    placed = set(up) | {down[c] for c in range(25) if known[c] and down[c] >= 0}
    for face in (0, 1):
        cells = [c for c in range(25) if up[c] & 1 == face and not known[c]]
        sides = [s for s in range(50) if s & 1 != face and s not in placed]
        if len(sides) != len(cells):  # cannot happen: every token's underside has the other colour
            raise ImpossibleStateError("state.board", None, "the undersides do not add up")
        for c, side in zip(cells, sides):
            vec[DOWN + c] = side


def resample_undersides(vec: np.ndarray, observer: int, rng: np.random.Generator) -> None:
    """Re-deal in place, uniformly, the undersides ``observer`` does not know among the sides they may be (Sun-up
    and Moon-up cards apart, MR-21)."""
    kernel.resample(vec, observer, int(rng.integers(2**63)))


def revealed_cell(action: int, to_move: int, observer: int) -> int:
    """The cell whose underside ``action`` shows ``observer`` (-1 when it shows them none): a flip shows everybody,
    a peek only the player who peeks."""
    if A_FLIP <= action < A_PASS:
        return action - A_FLIP
    if A_PEEK <= action < A_SWAPCARDS and to_move == observer:
        return action - A_PEEK
    return -1


def table_entries(state: MemorinthState, action: int, observer: int) -> list[str]:
    """What ``observer`` enters at the table when ``action`` is played in ``state``: the move, then what it
    showed them when they did not know that underside (``["flip b2", "reveal 12M"]``).

    Also for the deal (``chance_setup``): the state's chance strings, which the observer sees as they happen.
    """
    move = state.action_to_string(action)
    if state.setup is not None:
        return [move]
    cell = revealed_cell(action, state.current_player(), observer)
    if cell < 0 or knows_underside(state.vec, cell, observer):
        return [move]
    return [move, f"{REVEAL} {state.rules.deck.side_name(int(state.vec[DOWN + cell]))}"]
