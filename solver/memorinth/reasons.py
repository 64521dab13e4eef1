"""One-line reasons for Memorinth hints, from what the advised player knows.

A reason says what a move does to the race: whether the advised piece moves or
leaves, and which paths open or close for whom ("opens the path west for you,
closes the path north for blue"). For a flip whose underside the player has not
seen, it gives the odds over the sides that may be there.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from solver.memorinth import kernel
from solver.memorinth import layout as R
from solver.memorinth.deck import DIRECTION_NAMES
from solver.memorinth.knowledge import possible_undersides, put_underside
from solver.memorinth.layout import DOWN, PIECE, UP
from solver.memorinth.state import MemorinthState


def distances(vec: np.ndarray, deck_table: np.ndarray) -> np.ndarray:
    """Each cell's fewest moves out along the face-up paths (-1: none)."""
    out = np.zeros(25, dtype=np.int32)
    kernel.escape_distances(vec, deck_table, out)
    return out


def exit_direction(vec: np.ndarray, deck_table: np.ndarray, dist: np.ndarray, cell: int) -> str | None:
    """The direction of the first step of a shortest way out from ``cell`` (None when there is none)."""
    if cell == R.OUT or dist[cell] < 0:
        return None
    links = kernel.path_bitboards(vec, deck_table)
    r, c = divmod(cell, 5)
    bit = 1 << cell
    if dist[cell] == 1:
        opened = links[:4]
        for d, edge in enumerate((r == 0, c == 4, r == 4, c == 0)):
            if edge and opened[d] & bit:
                return DIRECTION_NAMES[d]
    for d, step in enumerate((-5, 1, 5, -1)):
        if links[4 + d] & bit and dist[cell + step] == dist[cell] - 1:
            return DIRECTION_NAMES[d]
    return None


def _who(player: int, advised: int) -> str:
    return "you" if player == advised else R.COLOURS[player]


def path_changes(before: np.ndarray, after: np.ndarray, deck_table: np.ndarray, advised: int, players: int) -> list[str]:
    """Phrases for every player whose way out got shorter or longer (pieces as they stand after)."""
    d0, d1 = distances(before, deck_table), distances(after, deck_table)
    opened, closed = [], []
    for p in range(players):
        cell = int(after[PIECE + p])
        if cell == R.OUT or int(before[PIECE + p]) != cell:
            continue
        a, b = int(d0[cell]), int(d1[cell])
        if a == b:
            continue
        if a < 0 or (0 <= b < a):
            way = exit_direction(after, deck_table, d1, cell)
            text = f"opens the path {way} for {_who(p, advised)}" if way else f"opens a path for {_who(p, advised)}"
            opened.append(f"{text} ({_fmt(a)} -> {_fmt(b)})")
        else:
            way = exit_direction(before, deck_table, d0, cell)
            text = f"closes the path {way} for {_who(p, advised)}" if way else f"closes a path for {_who(p, advised)}"
            closed.append(f"{text} ({_fmt(a)} -> {_fmt(b)})")
    return opened + closed


def _fmt(d: int) -> str:
    return "no way out" if d < 0 else str(d)


def piece_outcome(before: np.ndarray, after: np.ndarray, deck_table: np.ndarray, player: int) -> str:
    """``leave``, ``closer``, ``farther``, ``moved`` or ``stay`` for ``player``'s piece."""
    a, b = int(before[PIECE + player]), int(after[PIECE + player])
    if b == R.OUT:
        return "leave"
    if a == b:
        return "stay"
    d0, d1 = distances(before, deck_table), distances(after, deck_table)
    x, y = int(d0[a]), int(d1[b])
    x = 99 if x < 0 else x
    y = 99 if y < 0 else y
    return "closer" if y < x else "farther" if y > x else "moved"


def describe_result(state: MemorinthState, after: MemorinthState, advised: int) -> list[str]:
    """What an applied move did: the advised piece's move, other pieces carried along, the pending choice."""
    parts = []
    before, vec = state.vec, after.vec
    a, b = int(before[PIECE + advised]), int(vec[PIECE + advised])
    if b == R.OUT:
        parts.append("you leave the forest and win")
    elif a != b:
        dist = distances(vec, after.deck_table)
        parts.append(f"you move to {R.cell_name(b)} ({_fmt(int(dist[b]))} to go along the paths)")
    for p in range(state.rules.players):
        if p != advised and int(before[PIECE + p]) != int(vec[PIECE + p]):
            parts.append(f"{R.COLOURS[p]} is carried to {R.cell_name(int(vec[PIECE + p]))}")
    if after.phase == "choose":
        parts.append("then you choose a character")
    elif after.phase == "act" and after.current_player() == advised:
        parts.append(f"then you choose where to {R.PENDING_NAMES[int(vec[R.PENDING])]}")
    return parts


def flip_reason(view: MemorinthState, action: int, advised: int, know_all: bool = False) -> str:
    """The reason for a flip, from the advised player's knowledge (``view`` re-sampled from their observation),
    or from the true cards when ``know_all`` (full-information analysis)."""
    cell = action - R.A_FLIP
    deck = view.rules.deck
    if know_all or view.knows_underside(cell, advised):
        after = view.child(action)
        side = int(view.vec[DOWN + cell])
        parts = [f"reveals {deck.side_name(side)} ({deck.side(side).describe(deck.codes)})"]
        parts += describe_result(view, after, advised) or ["you stay"]
        parts += path_changes(view.vec, _flipped(view, cell), view.deck_table, advised, view.rules.players)
        return "; ".join(parts)
    pool = possible_undersides(view.vec, cell, advised)
    outcomes: Counter[str] = Counter()
    for side in pool:
        world = _with_underside(view, cell, side)
        outcomes[piece_outcome(world.vec, world.child(action).vec, world.deck_table, advised)] += 1
    n = len(pool)
    face = ("Moon", "Sun")[int(view.vec[UP + cell]) & 1]
    odds = [f"{outcomes[k]}/{n} {text}" for k, text in (("leave", "let you leave"), ("closer", "move you closer"),
                                                         ("farther", "move you away"))
            if outcomes[k]]
    return f"unseen underside (one of {n} {face} sides you have not seen): " + (", ".join(odds) if odds
                                                                                  else "none moves you")


def _flipped(view: MemorinthState, cell: int) -> np.ndarray:
    vec = view.vec.copy()
    vec[UP + cell], vec[DOWN + cell] = vec[DOWN + cell], vec[UP + cell]
    return vec


def _with_underside(view: MemorinthState, cell: int, side: int) -> MemorinthState:
    """``view`` with ``side`` moved under ``cell`` (exchanged with the cell that held it)."""
    world = view.clone()
    put_underside(world.vec, cell, side)
    return world


def action_reason(view: MemorinthState, action: int, advised: int) -> str:
    """The reason for a character choice or an action choice (everything involved is known)."""
    after = view.child(action)
    parts = []
    if R.A_CHOOSE <= action < R.A_SHIFT:
        code = view.rules.deck.codes[action - R.A_CHOOSE]
        loc = int(view.vec[R.CHAR + action - R.A_CHOOSE])
        where = f"{DIRECTION_NAMES[loc]} side" if loc < 4 else "the action card"
        parts.append(f"{code} stands on the {where}")
    elif R.A_PEEK <= action < R.A_SWAPCARDS:
        cell = action - R.A_PEEK
        parts.append("you already know that underside" if view.knows_underside(cell, advised)
                     else "learn an underside you have not seen")
    elif R.A_CLOVER <= action < R.A_PEEK:
        victim = action - R.A_CLOVER
        parts.append(f"{R.COLOURS[victim]} keeps {int(view.vec[R.CLOVER + victim]) - 1} clover(s)")
    parts += describe_result(view, after, advised)
    parts += path_changes(view.vec, after.vec, view.deck_table, advised, view.rules.players)
    return "; ".join(parts) if parts else "changes nothing on the board"
