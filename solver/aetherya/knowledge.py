"""What one Aetherya player knows, and the full states consistent with it (AE-22, AE-41).

A view (:class:`~solver.aetherya.view.AetheryaView`) keeps a *representative* full state whose unknown parts
(face-down cards, the other players' starting cards before they are arranged, the draw pile unless it was
re-formed from the discard, unseen tiles) are always refilled in one canonical way from the view's own data.
This module says which parts are unknown (:func:`card_pool`, :func:`tile_pool`), refills them (:func:`refill`,
refusing an outcome no consistent state has), draws consistent full states for the hint searches
(:func:`resample`), and lists what a player enters at the table for a move played on a full state
(:func:`observed_entries`, :func:`turned_over_entries`).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.aetherya.cards import CARD_NAMES, CARD_TYPES, LETTERS, deck_counts
from solver.aetherya.state import A_GRIFFIN, A_PEEK, A_PLACE, A_REVEAL, SOLO_DECK_PLAYERS, AetheryaState
from solver.aetherya.tiles import TILE_SLUGS, tile_family, tile_kind
from solver.errors import IllegalMoveError

if TYPE_CHECKING:
    from solver.aetherya.view import AetheryaView

#: chance phases whose card nobody sees when it is dealt
UNSEEN_DEALS = ("territories",)


# ---------------------------------------------------------------------- what is unknown
def start_seats(view: AetheryaView) -> list[int]:
    """The seats whose starting cards the observer has not seen (dealt, not yet arranged)."""
    return [q for q in range(view.rep.players) if view.start_unknown[q] and view.rep.start[q]]


def unknown_cells(view: AetheryaView) -> list[tuple[int, int]]:
    """``(seat, cell)`` of every card whose kind the observer does not know."""
    return [(q, c) for q in range(view.rep.players) for c in range(16) if view.unknown[q] >> c & 1]


def turn_over_cells(view: AetheryaView) -> list[tuple[int, int]]:
    """Cards turned face up at the end (of the game, or of a solo Age) whose kind is still to be entered."""
    return [(q, c) for q, c in unknown_cells(view) if not view.rep.hidden[q] >> c & 1]


def card_pool(view: AetheryaView) -> Counter:
    """The cards the observer has not seen, by kind: face-down cards, the other players' starting cards, and
    the draw pile unless its cards are known."""
    rep = view.rep
    pool: Counter = Counter()
    for q in start_seats(view):
        pool.update(rep.start[q])
    for q, c in unknown_cells(view):
        pool[rep.kingdoms[q][c]] += 1
    if not rep.pile_known:
        for k in range(CARD_TYPES):
            pool[k] += rep.pile[k]
    return pool


def tile_known(view: AetheryaView, seat: int, cell: int) -> bool:
    """True when the observer knows the tile on ``seat``'s ``cell``: face up, or seen with a Palantir (AE-41)."""
    rep = view.rep
    return bool(rep.face_up_tiles[seat] >> cell & 1) or seat * 16 + cell in rep.known[view.observer]


def tile_cells(view: AetheryaView, family: int) -> list[int]:
    """The cells of seat ``family`` holding a tile the observer has not seen."""
    rep = view.rep
    return [c for c in range(16) if rep.territory_tiles[family][c] >= 0 and not tile_known(view, family, c)]


def tile_pool(view: AetheryaView, family: int) -> Counter:
    """The tiles of ``family`` the observer has not seen (face down, undealt or discarded unrevealed)."""
    rep = view.rep
    pool: Counter = Counter(rep.territory_tiles[family][c] for c in tile_cells(view, family))
    pool.update(rep.undealt[family])
    pool.update(t for t in rep.unrevealed if tile_family(t) == family)
    return pool


# ---------------------------------------------------------------------- refilling the representative
def refill(view: AetheryaView, cells: dict[tuple[int, int], int] | None = None, pile_card: int | None = None,
           start: tuple[int, list[int]] | None = None, field: str = "move", text: Any = None) -> None:
    """Re-deal the unknown cards canonically, with the pinned ones in place; refuse an impossible pin."""
    rep, cells = view.rep, cells or {}
    pool = card_pool(view)
    wanted: Counter = Counter(cells.values())
    if pile_card is not None and not rep.pile_known:
        wanted[pile_card] += 1
    if start is not None:
        wanted.update(start[1])
    for kind, n in wanted.items():
        if pool[kind] < n:
            raise IllegalMoveError(field, text, no_such_card(view, kind))
    if pile_card is not None and rep.pile_known and rep.pile[pile_card] < 1:
        raise IllegalMoveError(field, text, f"the re-formed draw pile holds no {CARD_NAMES[pile_card]} "
                                            f"(its cards are known: {pile_letters(view)})")
    pool -= wanted
    for q in start_seats(view):
        if start is not None and q == start[0]:
            rep.start[q] = sorted(start[1])
            continue
        need = len(rep.start[q])
        kinds = sorted((k for k in pool if pool[k] > 0), key=lambda k: (-pool[k], k))[:need]
        if len(kinds) < need:
            raise IllegalMoveError(field, text, f"then seat {q} could not hold {need} different starting cards")
        rep.start[q] = sorted(kinds)
        pool -= Counter(kinds)
    rest = sorted(pool.elements())
    i = 0
    for q, c in unknown_cells(view):
        if (q, c) in cells:
            rep.kingdoms[q][c] = cells[q, c]
        else:
            rep.kingdoms[q][c] = rest[i]
            i += 1
    if not rep.pile_known:
        pile = Counter(rest[i:])
        if pile_card is not None:
            pile[pile_card] += 1
        rep.pile = [pile[k] for k in range(CARD_TYPES)]


def refill_tiles(view: AetheryaView, pins: dict[tuple[int, int], int] | None = None, field: str = "move",
                 text: Any = None) -> None:
    """Re-deal each family's unseen tiles canonically, the ``pins`` in place; refuse a tile already seen."""
    rep, pins = view.rep, pins or {}
    if rep.mode != "objects":
        return
    for family in range(rep.players):
        cells = tile_cells(view, family)
        pool = tile_pool(view, family)
        for (q, c), tile in pins.items():
            if q != family:
                continue
            if pool[tile] < 1:
                raise IllegalMoveError(field, text, f"no unseen {TILE_SLUGS[tile_kind(tile)]} of seat {family}'s "
                                                    "family is left (the others are seen)")
            pool[tile] -= 1
        rest = sorted(pool.elements())
        i = 0
        for c in cells:
            if (family, c) in pins:
                rep.territory_tiles[family][c] = pins[family, c]
            else:
                rep.territory_tiles[family][c] = rest[i]
                i += 1
        n = len(rep.undealt[family])
        rep.undealt[family] = rest[i:i + n]
        i += n
        rep.unrevealed = sorted([t for t in rep.unrevealed if tile_family(t) != family] + rest[i:])


def canonicalize(view: AetheryaView) -> None:
    """Refill every unknown card and tile in the one canonical way (equal views, equal representatives)."""
    refill(view)
    refill_tiles(view)


def no_such_card(view: AetheryaView, kind: int) -> str:
    """Why no unseen card of ``kind`` can be entered: every copy is seen."""
    deck = deck_counts(SOLO_DECK_PLAYERS if view.rep.mode == "solo" else view.rep.players)[kind]
    return (f"no unseen {CARD_NAMES[kind]} is left: all {deck} are seen (face up, in the discard"
            + (", in the known draw pile" if view.rep.pile_known else "") + " or held)")


def pile_letters(view: AetheryaView) -> str:
    """The known draw pile's cards as letters."""
    return "".join(LETTERS[k] * n for k, n in enumerate(view.rep.pile)) or "empty"


# ---------------------------------------------------------------------- sampling
def resample(view: AetheryaView, rng: np.random.Generator) -> AetheryaState:
    """A full state drawn from those consistent with ``view``.

    The unknown cards (face-down and not yet entered territories, and the draw pile unless it is known)
    are dealt uniformly among their places; the other players' starting cards, during setup, are drawn as
    the deal draws them (AE-17: each among the kinds that seat does not hold yet, by copies left); each
    family's unseen tiles are dealt uniformly among its face-down tile places (AE-22).
    """
    rep = view.rep
    out = rep.clone()
    pool = card_pool(view)
    for q in start_seats(view):
        drawn: list[int] = []
        for _ in range(len(rep.start[q])):
            kinds = [k for k in range(CARD_TYPES) if pool[k] > 0 and k not in drawn]
            weights = np.asarray([pool[k] for k in kinds], dtype=float)
            k = kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]
            drawn.append(k)
            pool[k] -= 1
        out.start[q] = sorted(drawn)
    cards = sorted(pool.elements())
    order = [int(x) for x in rng.permutation(np.asarray(cards, dtype=np.int64))] if cards else []
    cells = unknown_cells(view)
    for i, (q, c) in enumerate(cells):
        out.kingdoms[q][c] = order[i]
    if not rep.pile_known:
        rest = Counter(order[len(cells):])
        out.pile = [rest[k] for k in range(CARD_TYPES)]
    if rep.mode == "objects":
        for family in range(rep.players):
            places = tile_cells(view, family)
            tiles = sorted(tile_pool(view, family).elements())
            order_t = [tiles[i] for i in rng.permutation(len(tiles))] if tiles else []
            for i, c in enumerate(places):
                out.territory_tiles[family][c] = order_t[i]
            n = len(rep.undealt[family])
            out.undealt[family] = sorted(order_t[len(places):len(places) + n])
            out.unrevealed = sorted([t for t in out.unrevealed if tile_family(t) != family]
                                    + order_t[len(places) + n:])
    return out


# ---------------------------------------------------------------------- the observer's entries
def observed_entries(state: AetheryaState, action: int, observer: int) -> list[str]:
    """What ``observer`` enters at the table for ``action`` played on the full ``state``: the move string,
    the outcomes it shows (the card under a territory, a tile), ``?`` for a card dealt unseen; the cards
    turned over at the end come after (:func:`turned_over_entries`)."""
    text = state.action_to_string(action)
    phase = state.phase
    if state.is_chance_node():
        if phase == "tiles":
            return ["tile ?"]
        if phase in UNSEEN_DEALS or (phase == "start" and state._start_seat() != observer):
            return ["card ?"]
        return [text]
    out = [text]
    seat = state.to_move
    if phase == "place":
        cell = (action - (A_REVEAL if action >= A_REVEAL else A_PLACE)) % 16
        if state.hidden[seat] >> cell & 1:
            out.append(f"card {LETTERS[state.kingdoms[seat][cell]]}")
        tile = state.territory_tiles[seat][cell]
        if state.mode == "objects" and tile >= 0 and not (state.face_up_tiles[seat] >> cell & 1
                                                          or seat * 16 + cell in state.known[observer]):
            out.append(f"tile {TILE_SLUGS[tile_kind(tile)]}")
    elif phase == "end-turn" and A_GRIFFIN <= action < A_PEEK + 64:
        peek = action >= A_PEEK
        q, cell = divmod(action - (A_PEEK if peek else A_GRIFFIN), 16)
        known = state.face_up_tiles[q] >> cell & 1 or q * 16 + cell in state.known[observer]
        if not known and (not peek or seat == observer):
            out.append(f"tile {TILE_SLUGS[tile_kind(state.territory_tiles[q][cell])]}")
    return out


def turned_over_entries(view: AetheryaView, state: AetheryaState) -> list[str]:
    """The cards ``view`` still has to enter once they are turned over, read from the full ``state``."""
    return [f"card {LETTERS[state.kingdoms[q][c]]}" for q, c in view.turn_over_cells()]
