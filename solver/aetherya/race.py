"""The legend-race solitaire (``docs/formats/aetherya.md``, "Puzzles"): its rules and the fewest-turns search.

A position is your kingdom with its face-down cards known, the discard's top card and how many cards of the
draw pile (known, in order) were drawn. A turn is ``take`` then ``place CELL``, or ``draw`` then ``place CELL``
or ``reveal CELL`` (base rules: a face-up card is never replaced by one of its kind, Portals and Dragons are
locked). Because every turn ends with a card put on the discard, only the discard's top card can ever be taken.
The fewest turns to meet a Legend are found by breadth-first search over every position (:func:`solve_race`).
The puzzles (``puzzles.py``) and the positions a player answers them from (``puzzle_play.py``) use these rules.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.aetherya.cards import CELL_NAMES, DRAGON, PORTAL, UNEXPLORED
from solver.aetherya.scoring import score_rows
from solver.search import SearchContext, Stopped


@dataclass(frozen=True)
class RacePosition:
    """A solitaire race position: kingdom (codes), face-down mask, discard top (-1 none), draw index."""

    cards: tuple[int, ...]
    hidden: int
    top: int
    drawn: int


def _visible(cards: tuple[int, ...], hidden: int) -> np.ndarray:
    return np.asarray([UNEXPLORED if hidden >> c & 1 else cards[c] for c in range(16)], dtype=np.uint8)


def placement_ok(cards: tuple[int, ...], hidden: int, cell: int, card: int) -> bool:
    """A card may go on ``cell``: a face-down card, or a face-up one of another kind that is not locked."""
    return bool(hidden >> cell & 1) or (cards[cell] not in (DRAGON, PORTAL) and cards[cell] != card)


def race_moves(pos: RacePosition, draw: list[int]) -> list[tuple[str, RacePosition]]:
    """Every turn from ``pos``: ("take, place b2", next position), ...."""
    out = []
    options = []
    if pos.top >= 0:
        options.append(("take", pos.top, False))
    if pos.drawn < len(draw):
        options.append(("draw", draw[pos.drawn], True))
    for source, card, drawn in options:
        for cell in range(16):
            if placement_ok(pos.cards, pos.hidden, cell, card):
                cards = list(pos.cards)
                replaced = cards[cell]
                cards[cell] = card
                out.append((f"{source}, place {CELL_NAMES[cell]}",
                            RacePosition(tuple(cards), pos.hidden & ~(1 << cell), replaced,
                                         pos.drawn + (1 if drawn else 0))))
            if drawn and pos.hidden >> cell & 1:
                out.append((f"draw, reveal {CELL_NAMES[cell]}",
                            RacePosition(pos.cards, pos.hidden & ~(1 << cell), card, pos.drawn + 1)))
    return out


def legend_met(positions: list[RacePosition], number: int) -> np.ndarray:
    """For each position: its face-up cards meet Legend ``number``."""
    if not positions:
        return np.zeros(0, dtype=bool)
    boards = np.stack([_visible(p.cards, p.hidden) for p in positions])
    return (score_rows(boards)[:, 7] >> (number - 1) & 1).astype(bool)


def _expand(C: np.ndarray, Hd: np.ndarray, T: np.ndarray, D: np.ndarray, draw: np.ndarray,
            ctx: SearchContext | None = None
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every turn from every frontier position, vectorised: children arrays, parent index, move code; ``ctx`` is
    polled before each (source, cell) block.

    Move code: source * 16 + cell with source 0 take-place, 1 draw-place, 2 draw-reveal.
    """
    n = C.shape[0]
    rows = np.arange(n)
    out_c, out_h, out_t, out_d, out_p, out_m = [], [], [], [], [], []
    has_draw = D < len(draw)
    drawn_card = np.where(has_draw, draw[np.minimum(D, max(len(draw) - 1, 0))] if len(draw) else 0, 255)
    for source in range(3):
        if source == 0:
            ok_src, card = T != 255, T
        else:
            ok_src, card = has_draw, drawn_card
        for cell in range(16):
            _poll(ctx)
            old = C[:, cell]
            hid = Hd[:, cell]
            if source == 2:
                ok = ok_src & hid
            else:
                ok = ok_src & (hid | ((old != DRAGON) & (old != PORTAL) & (old != card)))
            idx = rows[ok]
            if not len(idx):
                continue
            c2 = C[idx].copy()
            h2 = Hd[idx].copy()
            h2[:, cell] = False
            if source == 2:
                t2 = card[idx]
            else:
                t2 = old[idx]
                c2[:, cell] = card[idx]
            d2 = D[idx] + (0 if source == 0 else 1)
            out_c.append(c2); out_h.append(h2); out_t.append(t2); out_d.append(d2)
            out_p.append(idx); out_m.append(np.full(len(idx), source * 16 + cell))
    if not out_c:
        empty = np.zeros((0, 16), np.uint8)
        return empty, np.zeros((0, 16), bool), np.zeros(0, np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int64), \
            np.zeros(0, np.int64)
    return (np.concatenate(out_c), np.concatenate(out_h), np.concatenate(out_t).astype(np.uint8),
            np.concatenate(out_d), np.concatenate(out_p), np.concatenate(out_m))


def _met_arrays(C: np.ndarray, Hd: np.ndarray, number: int, ctx: SearchContext | None = None) -> np.ndarray:
    boards = np.where(Hd, UNEXPLORED, C).astype(np.uint8)
    hits = np.zeros(len(boards), dtype=bool)
    for start in range(0, len(boards), 1 << 16):
        _poll(ctx)
        chunk = boards[start:start + (1 << 16)]
        hits[start:start + len(chunk)] = (score_rows(chunk)[:, 7] >> (number - 1) & 1).astype(bool)
    return hits


def _poll(ctx: SearchContext | None) -> None:
    if ctx is not None and ctx.should_stop():
        raise Stopped("legend-race search")


def _move_text(code: int) -> str:
    source, cell = divmod(int(code), 16)
    return ("take, place ", "draw, place ", "draw, reveal ")[source] + CELL_NAMES[cell]


def solve_race(start: RacePosition, draw: list[int], number: int, max_turns: int = 4,
               ctx: SearchContext | None = None) -> tuple[int | None, list[str], int]:
    """Fewest turns to meet Legend ``number`` (breadth-first over every position, vectorised); returns
    ``(turns, moves, positions generated)``; ``turns`` is ``None`` when more than ``max_turns`` are needed.
    ``ctx`` is polled before each turn's level and within it: :class:`~solver.search.Stopped` when it says stop."""
    if legend_met([start], number)[0]:
        return 0, [], 1
    C = np.asarray([start.cards], dtype=np.uint8)
    Hd = np.asarray([[bool(start.hidden >> c & 1) for c in range(16)]])
    T = np.asarray([255 if start.top < 0 else start.top], dtype=np.uint8)
    D = np.asarray([start.drawn], dtype=np.int64)
    draw_arr = np.asarray(draw, dtype=np.uint8)
    levels: list[tuple[np.ndarray, np.ndarray]] = []
    generated = 1
    for turn in range(1, max_turns + 1):
        _poll(ctx)
        C, Hd, T, D, parent, move = _expand(C, Hd, T, D, draw_arr, ctx)
        generated += len(C)
        hits = _met_arrays(C, Hd, number, ctx)
        if hits.any():
            i = int(np.argmax(hits))
            moves = [_move_text(move[i])]
            p = int(parent[i])
            for par, mv in reversed(levels):
                moves.append(_move_text(mv[p]))
                p = int(par[p])
            return turn, moves[::-1], generated
        if turn == max_turns or not len(C):
            break
        key = np.concatenate([C, Hd.astype(np.uint8), T[:, None], D[:, None].astype(np.uint8)], axis=1)
        _, first = np.unique(np.ascontiguousarray(key).view(np.dtype((np.void, key.shape[1]))).ravel(),
                             return_index=True)
        first.sort()
        C, Hd, T, D = C[first], Hd[first], T[first], D[first]
        levels.append((parent[first], move[first]))
    return None, [], generated
