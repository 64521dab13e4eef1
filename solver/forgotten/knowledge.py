"""What the players know, as the exact solver sees it, and the chance model over what they have not seen.

An :class:`Info` is a position reduced to the players' knowledge (FG-13). Per cell: ``BLOCK`` (a Brain,
an empty or a removed cell), ``UNK`` (face down, nobody saw it), ``UP`` (face up), ``DEAD`` (face down,
seen, its partner known to be removed), or a label ``>= LABEL`` for a face-down tile the players saw:
two cells with one label are a known pair, a lone label is a tile whose partner nobody has seen.
Besides the board: ``e`` removed tiles nobody saw, and ``d`` unseen tiles whose partner was removed
after being seen. The unseen tiles (``u`` face down plus the ``e`` removed) hold, uniformly at random,
the partner of every lone label, the ``d`` orphans, and ``f`` untouched pairs.

Chance here is *epistemic* (the "lazy deal"): a flip of an unseen tile draws it from the unseen tiles
without conditioning on the game being alive. It gives every policy the same win probability as the
real game times the probability that the game is still alive (FG-11, FG-13), so the optimal policy is
the same; :func:`alive_probability` turns one into the other.

Worlds behind a position (the second half): :func:`sample_hidden` draws the unseen tiles uniformly among the
arrangements that agree with what was seen (the resampling of every hint and view), and :func:`find_world`
decides exactly whether an arrangement that is alive, or dead, exists when such arrangements are too scarce to
sample.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any

import numpy as np

from solver.errors import ImpossibleStateError
from solver.forgotten.board import Board
from solver.forgotten.state import ForgottenState, can_still_win, matchable_among, partner_cells
from solver.forgotten.tiles import DOWN, REMOVED, UP as ST_UP
from solver.kernels import forgotten as kernel

BLOCK, UNK, UP, DEAD = 0, 1, 2, 3
LABEL = 4
SAMPLE_TRIES = 20_000
EXACT_AFTER = 50        # draws that fail before sample_hidden asks find_world whether any world agrees


class Info:
    """Immutable knowledge of a position (see the module docstring); labels are kept normalised."""

    __slots__ = ("codes", "e", "d", "_hash", "_masks")

    def __init__(self, codes: tuple[int, ...], e: int, d: int) -> None:
        self.codes = codes
        self.e = e
        self.d = d
        self._hash = hash((codes, e, d))
        self._masks: tuple[int, int, int, int, int] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Info) and self.codes == other.codes and self.e == other.e and self.d == other.d

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Info({self.codes}, e={self.e}, d={self.d})"

    def masks(self) -> tuple[int, int, int, int, int]:
        """``(up, unk, pairs, singles, dead)``: face up, unseen, known pairs, lone known tiles, known orphans."""
        if self._masks is None:
            up = unk = pairs = singles = dead = 0
            seen: dict[int, int] = {}
            for c, code in enumerate(self.codes):
                if code == UP:
                    up |= 1 << c
                elif code == UNK:
                    unk |= 1 << c
                elif code == DEAD:
                    dead |= 1 << c
                elif code >= LABEL:
                    if code in seen:
                        pairs |= (1 << c) | (1 << seen.pop(code))
                    else:
                        seen[code] = c
            for c in seen.values():
                singles |= 1 << c
            self._masks = (up, unk, pairs, singles, dead)
        return self._masks

    @property
    def unseen_on_board(self) -> int:
        """``u``: face-down tiles nobody has seen."""
        return bin(self.masks()[1]).count("1")

    @property
    def lone(self) -> int:
        """``k``: seen face-down tiles whose partner nobody has seen."""
        return bin(self.masks()[3]).count("1")

    @property
    def fresh_pairs(self) -> int:
        """``f``: pairs neither of whose tiles anybody has seen."""
        return (self.unseen_on_board + self.e - self.lone - self.d) // 2

    def down(self) -> int:
        """Every face-down tile."""
        up, unk, pairs, singles, dead = self.masks()
        return unk | pairs | singles | dead


def mate_of(info: Info, cell: int) -> int:
    """The known face-down partner of ``cell`` (-1 when it has none)."""
    code = info.codes[cell]
    if code < LABEL:
        return -1
    for c, other in enumerate(info.codes):
        if other == code and c != cell:
            return c
    return -1


def normalise(codes: list[int]) -> tuple[int, ...]:
    """Labels renumbered ``LABEL, LABEL+1, ...`` in order of first appearance."""
    names: dict[int, int] = {}
    out = []
    for code in codes:
        if code >= LABEL:
            code = names.setdefault(code, LABEL + len(names))
        out.append(code)
    return tuple(out)


def info_from_state(state: ForgottenState) -> Info:
    """The players' knowledge of a position (the first flip of a turn in progress is known like any other)."""
    other = partner_cells(state.tiles)
    codes: list[int] = []
    labels: dict[int, int] = {}
    e = d = 0
    for c, tile in enumerate(state.tiles):
        status, seen = state.status[c], state.seen[c]
        if tile < 0 or status == REMOVED:
            codes.append(BLOCK)
            if status == REMOVED and not seen:
                e += 1
            continue
        if status == ST_UP:
            codes.append(UP)
            continue
        if not seen:
            codes.append(UNK)
            p = other[c]
            if p >= 0 and state.seen[p] and state.status[p] == REMOVED:
                d += 1
            continue
        p = other[c]
        if p >= 0 and state.seen[p] and state.status[p] != DOWN:
            codes.append(DEAD)
        else:
            codes.append(labels.setdefault(tile, LABEL + len(labels)))
    # an orphan nobody has seen may also lie among the removed unseen tiles
    for c, tile in enumerate(state.tiles):
        if tile >= 0 and state.status[c] == REMOVED and not state.seen[c]:
            p = other[c]
            if p >= 0 and state.seen[p] and state.status[p] == REMOVED:
                d += 1
    return Info(normalise(codes), e, d)


class Model:
    """The knowledge-level rules of one game: chance over unseen tiles, flips, matches, Erasure rolls.

    ``goal`` is ``path`` (link the Brains, FG-10) or ``clear`` (match every pair, FG-14).
    """

    def __init__(self, board: Board, erasure: str, goal: str,
                 symmetries: tuple[tuple[int, ...], ...] | None = None) -> None:
        if goal not in ("path", "clear"):
            raise ValueError(f"goal must be 'path' or 'clear', not {goal!r}")
        self.board = board
        self.cells = board.cells
        self.erasure = erasure
        self.goal = goal
        self.symmetries = board.symmetries if symmetries is None else symmetries

    @classmethod
    def of(cls, game: Any) -> Model:
        """The model of a game's rules (board, ``erasure`` and ``goal``)."""
        return cls(game.board, game.erasure, game.goal)

    @property
    def conditioned(self) -> bool:
        """True when the model's values are already conditioned on the game not being over (clear goal).

        Under the path goal a lost game stays lost, so the lazy deal may play on in dead worlds (they are
        never won) and a value is divided by :func:`alive_probability` afterwards. Under the clear goal a
        dead world (a face-down tile whose partner is removed) could look won again once that tile is
        removed too, so the chance is over living worlds only: the unseen tiles on the board are the
        partners of the lone tiles and whole pairs, every unseen orphan is among the removed tiles, and an
        Erasure roll on a face-down tile loses at once.
        """
        return self.goal == "clear"

    # -- chance: what an unseen tile shows ---------------------------------------------------------------
    def reveal(self, info: Info, cell: int) -> list[tuple[int, Info, str]]:
        """Outcomes of turning up the unseen tile on ``cell``: ``(weight, info, kind)``; the weights add up to
        the number of unseen tiles (``u + e``), each unseen tile being equally likely. Under the clear goal
        (living worlds only, see :attr:`conditioned`) they add up to ``u`` and there is no orphan.

        Kinds: ``partner`` (it pairs a lone seen tile; one outcome per such tile), ``orphan`` (its partner
        was removed), ``fresh`` (a pair nobody has seen; the labels make all of them one outcome).
        """
        up, unk, pairs, singles, dead = info.masks()
        codes = list(info.codes)
        out: list[tuple[int, Info, str]] = []
        rest = singles
        while rest:
            j = (rest & -rest).bit_length() - 1
            rest &= rest - 1
            codes[cell] = info.codes[j]
            out.append((1, Info(normalise(codes), info.e, info.d), "partner"))
        if info.d and not self.conditioned:
            codes[cell] = DEAD
            out.append((info.d, Info(normalise(codes), info.e, info.d - 1), "orphan"))
        fresh = info.unseen_on_board - info.lone if self.conditioned else 2 * info.fresh_pairs
        if fresh > 0:
            codes[cell] = max([LABEL - 1, *info.codes]) + 1
            out.append((fresh, Info(normalise(codes), info.e, info.d), "fresh"))
        return out

    def second_flip(self, info: Info, first: int, cell: int) -> list[tuple[int, Info, bool]]:
        """Outcomes of the second flip ``cell`` after ``first`` (already known in ``info``): ``(weight, info,
        matched)``, weights adding up to ``u + e`` for an unseen tile and 1 for a seen one."""
        code = info.codes[cell]
        if code == UNK:
            outcomes = [(w, after, after.codes[cell] >= LABEL and after.codes[cell] == after.codes[first])
                        for w, after, _ in self.reveal(info, cell)]
        else:
            outcomes = [(1, info, code >= LABEL and code == info.codes[first])]
        out = []
        for p, after, matched in outcomes:
            if matched:
                codes = list(after.codes)
                codes[first] = codes[cell] = UP
                after = Info(normalise(codes), after.e, after.d)
            out.append((p, after, matched))
        return out

    def erase(self, info: Info, cell: int) -> Info:
        """The knowledge after an Erasure roll on ``cell`` (FG-9). Under the clear goal erasing a face-down
        tile loses the game (its partner can never be matched): the cell is then marked ``DEAD``, which no
        hope survives."""
        code = info.codes[cell]
        if code == BLOCK:
            return info
        codes = list(info.codes)
        if self.goal == "clear" and code != UP:
            codes[cell] = DEAD
            return Info(normalise(codes), info.e, info.d)
        codes[cell] = BLOCK
        e, d = info.e, info.d
        if code == UNK:
            e += 1
        elif code >= LABEL:
            mates = [c for c, other in enumerate(info.codes) if other == code and c != cell]
            if mates:
                codes[mates[0]] = DEAD
            else:
                d += 1
        return Info(normalise(codes), e, d)

    # -- win and hope -------------------------------------------------------------------------------------
    def won(self, info: Info) -> bool:
        """Face-up tiles link the Brains (FG-10), or, under the clear goal, no tile is face down (FG-14)."""
        if self.goal == "clear":
            return info.down() == 0
        return self.board.connected(info.masks()[0])

    def usable(self, info: Info) -> int:
        """Cells that may still end up face up, as far as the players know."""
        up, unk, pairs, singles, dead = info.masks()
        return up | unk | pairs | (singles if unk else 0)

    def hopeful(self, info: Info) -> bool:
        """Some world that agrees with the knowledge may still be won: a route is possible (path goal), or no
        face-down tile is known to have lost its partner or must have lost it (clear goal: no known orphan,
        no more lone tiles than unseen tiles on the board, every unseen orphan can be among the removed, and
        the other unseen tiles on the board can make whole pairs)."""
        if self.goal == "clear":
            u, k = info.unseen_on_board, info.lone
            return info.masks()[4] == 0 and k <= u and info.d <= info.e and (u - k) % 2 == 0
        return self.board.connected(self.usable(info))

    def route_cells(self, info: Info) -> int:
        """Cells whose place matters: those that can lie on a route (path goal); none under the clear goal,
        where only counts matter (the Erasure dice pick every cell alike)."""
        if self.goal == "clear":
            return 0
        return self.relevant(self.usable(info))

    def next_flag(self, erase_next: bool) -> bool:
        """``erase_next`` of the following turn."""
        if self.erasure == "round":
            return not erase_next
        return self.erasure == "turn"

    # -- relevance and canonical keys ----------------------------------------------------------------------
    def relevant(self, usable: int) -> int:
        """Cells of ``usable`` that can lie on a simple Brain-to-Brain path through ``usable``."""
        board = self.board
        reach_a = board.closure(board.start & usable, usable)
        reach_b = board.closure(board.goal & usable, usable)
        cells = reach_a & reach_b
        while True:
            drop = 0
            rest = cells
            while rest:
                c = (rest & -rest).bit_length() - 1
                rest &= rest - 1
                degree = bin(board.spread(1 << c) & cells).count("1")
                at_a, at_b = board.start >> c & 1, board.goal >> c & 1
                need = 0 if (at_a and at_b) else 1 if (at_a or at_b) else 2
                if degree < need:
                    drop |= 1 << c
            if not drop:
                return cells
            cells &= ~drop

    def canonical(self, info: Info) -> tuple:
        """A key shared by knowledge states with the same optimal win probability.

        Cells that cannot lie on any route only matter through their counts (unseen tiles, lone seen tiles);
        the rest is taken up to the board's symmetries, with known pairs renamed in order of appearance.
        Under the clear goal only the counts matter.
        """
        up, unk, pairs, singles, dead = info.masks()
        if self.goal == "clear":
            return tuple(bin(m).count("1") for m in (unk, singles, pairs, dead)) + (info.e, info.d)
        if not unk:
            singles = 0
        usable = up | unk | pairs | singles
        rel = self.relevant(usable)
        codes = info.codes
        local = [0] * self.cells
        loose_unk = bin(unk & ~rel).count("1")
        loose_single = bin(singles & ~rel).count("1")
        rest = rel
        while rest:
            c = (rest & -rest).bit_length() - 1
            rest &= rest - 1
            code = codes[c]
            if code >= LABEL:
                if singles >> c & 1:
                    local[c] = 3
                else:
                    mate = next(m for m in range(self.cells) if m != c and codes[m] == code)
                    local[c] = code + 2 if rel >> mate & 1 else 4
            else:
                local[c] = code
        best = None
        for perm in self.symmetries:
            moved = [0] * self.cells
            for c, code in enumerate(local):
                moved[perm[c]] = code
            names: dict[int, int] = {}
            key = tuple(names.setdefault(x, 5 + len(names)) if x >= 5 else x for x in moved)
            if best is None or key < best:
                best = key
        return best, loose_unk, loose_single, info.e, info.d


def alive_probability(model: Model, info: Info) -> Fraction:
    """The probability that the true board can still be won, given only ``info``: a possible route (FG-11),
    or under the clear goal no face-down tile whose partner is removed (FG-14).

    The unseen tiles (``u`` face down, ``e`` removed) are a uniform shuffle of the partners of the lone
    seen tiles, ``d`` orphans and ``f`` untouched pairs. A board cell is dead when its tile's partner is
    among the removed ones; exact enumeration over what the removed unseen tiles are.
    """
    up, unk, pairs, singles, dead = info.masks()
    u, e, d, f = info.unseen_on_board, info.e, info.d, info.fresh_pairs
    lone = [c for c in range(model.cells) if singles >> c & 1]
    unk_cells = [c for c in range(model.cells) if unk >> c & 1]
    pool = u + e
    total = comb(pool, e)
    if total == 0:
        return Fraction(0)
    result = Fraction(0)
    base = up | pairs
    for n_lone in range(min(len(lone), e) + 1):
        for gone in combinations(lone, n_lone):
            for a in range(min(d, e - n_lone) + 1):
                left = e - n_lone - a
                for b in range(min(f, left) + 1):
                    if (left - b) % 2:
                        continue
                    c_both = (left - b) // 2
                    if c_both + b > f:
                        continue
                    ways = comb(d, a) * comb(f, b) * 2 ** b * comb(f - b, c_both)
                    if not ways:
                        continue
                    dead_unk = (d - a) + b
                    if model.goal == "clear":   # alive only if no face-down tile, seen or not, is dead
                        if not dead and n_lone == 0 and dead_unk == 0:
                            result += Fraction(ways, total)
                        continue
                    killed = sum(1 << c for c in gone)
                    lone_alive = singles & ~killed
                    result += Fraction(ways, total) * _route_odds(model, base | lone_alive, unk_cells, dead_unk)
    return result


def _route_odds(model: Model, sure: int, unk_cells: list[int], dead: int) -> Fraction:
    """Probability of a route through ``sure`` plus the unseen cells, ``dead`` of which (at random) are dead."""
    everything = sure | sum(1 << c for c in unk_cells)
    if not model.board.connected(everything):
        return Fraction(0)
    if dead == 0:
        return Fraction(1)
    if dead > len(unk_cells):
        return Fraction(0)
    rel = model.relevant(everything)
    relevant_unk = [c for c in unk_cells if rel >> c & 1]
    others = len(unk_cells) - len(relevant_unk)
    good = 0
    for k in range(min(dead, len(relevant_unk)) + 1):
        if dead - k > others:
            continue
        weight = comb(others, dead - k)
        for chosen in combinations(relevant_unk, k):
            if model.board.connected(everything & ~sum(1 << c for c in chosen)):
                good += weight
    return Fraction(good, comb(len(unk_cells), dead))


def unseen_cells(info: Info) -> Iterator[int]:
    """Cells of face-down tiles nobody has seen."""
    unk = info.masks()[1]
    while unk:
        c = (unk & -unk).bit_length() - 1
        unk &= unk - 1
        yield c


def world_arrays(model: Model, info: Info) -> tuple:
    """A concrete board with this knowledge, as the kernels take it: ``(tiles int8, status uint8, seen uint8)``.

    Seen tiles keep their pairs; the unseen tiles get one arbitrary arrangement and removed tiles are
    put on Brain-free blocked cells. Only what the players know is meaningful, which is all a policy
    that reads only what was seen (route, greedy, random) may look at.
    """
    cells = model.cells
    brains = set(model.board.brains)
    tiles = [-1] * cells
    status = [0] * cells
    seen = [0] * cells
    hosts = [c for c in range(cells) if info.codes[c] == BLOCK and c not in brains]
    next_id = 0
    pool: list[int] = []
    removed_seen: list[int] = []

    def new_id() -> int:
        nonlocal next_id
        next_id += 1
        return next_id - 1

    by_label: dict[int, list[int]] = {}
    for c, code in enumerate(info.codes):
        if code >= LABEL:
            by_label.setdefault(code, []).append(c)
    for group in by_label.values():
        pair = new_id()
        for c in group:
            tiles[c], status[c], seen[c] = pair, 1, 1
        if len(group) == 1:
            pool.append(pair)
    ups = [c for c, code in enumerate(info.codes) if code == UP]
    for i in range(0, len(ups), 2):
        pair = new_id()
        for c in ups[i:i + 2]:
            tiles[c], status[c], seen[c] = pair, 2, 1
        if len(ups[i:i + 2]) == 1:
            removed_seen.append(pair)
    for c, code in enumerate(info.codes):
        if code == DEAD:
            pair = new_id()
            tiles[c], status[c], seen[c] = pair, 1, 1
            removed_seen.append(pair)
    for _ in range(info.d):
        pair = new_id()
        pool.append(pair)
        removed_seen.append(pair)
    for _ in range(info.fresh_pairs):
        pair = new_id()
        pool += [pair, pair]
    slots = [c for c, code in enumerate(info.codes) if code == UNK]
    if len(removed_seen) + info.e > len(hosts) or len(pool) != len(slots) + info.e:
        raise ValueError(f"inconsistent knowledge: {info!r}")
    for c, pair in zip(slots, pool):
        tiles[c], status[c] = pair, 1
    for pair, host in zip(pool[len(slots):] + removed_seen, hosts):
        tiles[host], status[host] = pair, 3
    for host in hosts[info.e:info.e + len(removed_seen)]:
        seen[host] = 1
    return (np.asarray(tiles, np.int8), np.asarray(status, np.uint8), np.asarray(seen, np.uint8))


def useful_moves(info: Info, first: int = -1) -> list[int]:
    """The flips never worse than all others (docs/rules/forgotten.md, "Moves worth considering").

    First flip: an unseen tile or a tile of a known pair; a seen tile whose partner is not known face down
    is only worth it when no unseen tile is left. Second flip: the known partner or an unseen tile; a seen
    tile that does not match learns nothing and is kept only when nothing else is left.
    """
    up, unk, pairs, singles, dead = info.masks()
    down = unk | pairs | singles | dead
    if first < 0:
        keep = unk | pairs if unk else (pairs or down)
    else:
        code = info.codes[first]
        mate = 0
        if code >= LABEL:
            mate = sum(1 << c for c, other in enumerate(info.codes) if other == code and c != first)
        keep = (mate | (unk & ~(1 << first))) or (down & ~(1 << first))
    return [c for c in range(len(info.codes)) if keep >> c & 1]


# == worlds behind a position: sampling them, and deciding exactly whether one exists ============================
def _status_check(state: ForgottenState) -> Callable[[list[int]], bool]:
    """Whether a world with given tiles agrees with the position's phase (alive while in play, FG-13): the test of
    :meth:`ForgottenState.alive` with what does not depend on the tiles worked out once."""
    if state.phase == "won":
        return lambda tiles: True
    down = [c for c, s in enumerate(state.status) if s == DOWN]
    down_mask, up = state.mask(DOWN), state.mask(ST_UP)
    clear, board, want = state.game.goal == "clear", state.board, state.phase != "lost"

    def ok(tiles: list[int]) -> bool:
        return can_still_win(clear, board, up, down_mask, matchable_among(tiles, down)) == want
    return ok


def sample_hidden(state: ForgottenState, rng: np.random.Generator, start: list[int] | None = None) -> list[int]:
    """The tiles with the unseen ones re-drawn uniformly among the unseen cells, given the game's status.

    Rejection sampling; when fewer than 1 in ``SAMPLE_TRIES`` draws agree with the status, a Metropolis
    walk of swaps from ``start`` (a world known to agree) mixes instead. Raises
    :class:`ImpossibleStateError` when no agreeing world is found; after ``EXACT_AFTER`` failed draws,
    :func:`find_world` tells at once when none exists (the draws would not change the answer).
    """
    slots = state.hidden_cells()
    bag = np.array(sorted(state.tiles[c] for c in slots))   # sorted: the draw depends on what is known only
    status_ok = _status_check(state)
    if not slots:
        if status_ok(state.tiles):
            return list(state.tiles)
        raise ImpossibleStateError("state", state.to_notation(), "the tiles contradict the phase")
    for attempt in range(SAMPLE_TRIES):
        if attempt == EXACT_AFTER and find_world(state, alive=state.phase != "lost") is None:
            break                  # no world agrees at all: the draws left would all fail
        tiles = list(state.tiles)
        for c, v in zip(slots, rng.permutation(bag).tolist()):
            tiles[c] = v
        if status_ok(tiles):
            return tiles
    if start is None or not status_ok(start):
        raise ImpossibleStateError("state", state.to_notation(),
                                   "no arrangement of the unseen tiles agrees with the phase "
                                   f"({state.phase}) in {SAMPLE_TRIES} draws")
    tiles = list(start)
    for _ in range(200 * len(slots)):
        i, j = rng.integers(len(slots), size=2)
        a, b = slots[int(i)], slots[int(j)]
        tiles[a], tiles[b] = tiles[b], tiles[a]
        if not status_ok(tiles):
            tiles[a], tiles[b] = tiles[b], tiles[a]
    return tiles


# -- exact existence of a world that is alive or dead ---------------------------------------------------------
# What the players know (FG-13) leaves the unseen tiles (face down nobody saw, ``U``, and removed nobody saw,
# ``R``) a shuffle of a known multiset: the partner of every seen tile whose partner nobody saw (*singles*),
# one tile of every pair whose other tile was removed after being seen (*orphans*), and both tiles of every
# pair nobody saw (*fresh*). Whether the true board still allows a route (FG-11) depends only on which
# face-down tiles lose their partner to ``R``: a single whose partner lies in ``R``, an orphan lying in ``U``,
# or one tile of a fresh pair in ``U`` whose other tile lies in ``R``.
#
# So a world is described, up to what matters, by four counts (how many singles die, how many orphans and
# fresh tiles go to ``R``, how many fresh pairs lie wholly in ``R``) and by *which* singles and unseen cells
# die; any such choice is realisable. :func:`find_world` searches those choices exactly:
#
# * an **alive** world exists when some route leaves enough singles and unseen cells off it to take the
#   deaths: a shortest-path search over (cell, singles used) minimising the unseen cells used;
# * a **dead** world exists when the deaths can cut every route: a minimum vertex cut (max flow) over the
#   unseen cells, for each choice of the singles that die.
#
# Sampling (:func:`sample_hidden`) finds a world at once on almost every position; :func:`find_world` decides the
# rare positions where agreeing worlds are too scarce for rejection sampling, so that a view is never refused,
# or declared lost, on a sampling failure.

INF = 1 << 20


@dataclass
class Pool:
    """What the unseen tiles may be, read from a position's seen tiles only."""

    down: list[int]               # U: face-down cells nobody saw
    removed: list[int]            # R: removed cells nobody saw
    singles: dict[int, int]       # seen face-down cell -> its letter, partner unseen
    orphans: list[int]            # letters with one tile removed after being seen, the other unseen
    fresh: list[int]              # letters nobody saw
    live: int                     # mask: face up, and seen face-down tiles whose partner is seen face down
    seen_dead: bool               # a seen face-down tile whose partner was removed after being seen

    def route_masks(self) -> tuple[int, int, int]:
        """``(unseen, singles, usable)``: the unseen face-down cells, the singles, and every cell a route may use."""
        unseen = sum(1 << c for c in self.down)
        singles = sum(1 << c for c in self.singles)
        return unseen, singles, self.live | unseen | singles

    @property
    def consistent(self) -> bool:
        return len(self.singles) + len(self.orphans) + 2 * len(self.fresh) == len(self.down) + len(self.removed)


def pool_of(state: ForgottenState) -> Pool:
    """The pool of a position (any completion of it: only the seen tiles are read)."""
    seen_at: dict[int, list[int]] = {}
    for c, tile in enumerate(state.tiles):
        if tile >= 0 and state.seen[c]:
            seen_at.setdefault(tile, []).append(c)
    singles, orphans, fresh = {}, [], []
    live = state.mask(ST_UP)
    seen_dead = False
    for letter in range(state.game.pairs):
        cells = seen_at.get(letter, [])
        if not cells:
            fresh.append(letter)
        elif len(cells) == 1:
            c = cells[0]
            if state.status[c] == DOWN:
                singles[c] = letter
            elif state.status[c] == REMOVED:
                orphans.append(letter)
        else:
            downs = [c for c in cells if state.status[c] == DOWN]
            if len(downs) == 2:
                live |= (1 << downs[0]) | (1 << downs[1])
            elif len(downs) == 1 and any(state.status[c] == REMOVED for c in cells):
                seen_dead = True
    hidden = state.hidden_cells()
    return Pool([c for c in hidden if state.status[c] == DOWN], [c for c in hidden if state.status[c] == REMOVED],
                singles, orphans, fresh, live, seen_dead)


@dataclass(frozen=True)
class Split:
    """How the removed unseen tiles are made up: singles' partners, orphans, fresh halves, fresh pairs."""

    singles: int
    orphans: int
    halves: int
    pairs: int

    def dead_unseen(self, pool: Pool) -> int:
        """Unseen face-down cells that are dead: orphans left on the board, and partners of fresh halves."""
        return len(pool.orphans) - self.orphans + self.halves


def splits(pool: Pool) -> list[Split]:
    """Every way the ``R`` cells can be made up (counts only)."""
    e, k, d, f = len(pool.removed), len(pool.singles), len(pool.orphans), len(pool.fresh)
    out = []
    for n_single in range(min(k, e) + 1):
        for a in range(min(d, e - n_single) + 1):
            rest = e - n_single - a
            for b in range(min(f, rest) + 1):
                if (rest - b) % 2 == 0 and b + (rest - b) // 2 <= f:
                    out.append(Split(n_single, a, b, (rest - b) // 2))
    return out


def find_world(state: ForgottenState, alive: bool) -> list[int] | None:
    """Tiles of a world that agrees with what was seen in ``state`` and is alive (``alive``) or dead, or ``None``.

    Exact: ``None`` means no arrangement of the unseen tiles has that status.
    """
    pool = pool_of(state)
    if not pool.consistent:
        return None
    if state.game.goal == "clear":
        return _clear_world(state, pool, alive)
    if alive:
        return _alive_world(state, pool)
    return _dead_world(state, pool)


def _clear_world(state: ForgottenState, pool: Pool, alive: bool) -> list[int] | None:
    """Goal ``clear`` (FG-14): alive when no face-down tile has lost its partner."""
    for split in splits(pool):
        deaths = split.singles + split.dead_unseen(pool)
        if alive and not pool.seen_dead and deaths == 0:
            return _assign(state, pool, split, [], [])
        if not alive and (pool.seen_dead or deaths > 0):
            singles = sorted(pool.singles)[:split.singles]
            return _assign(state, pool, split, singles, pool.down[:split.dead_unseen(pool)])
    return None


# -- alive: a route that keeps clear of the deaths ------------------------------------------------------------
def _alive_world(state: ForgottenState, pool: Pool) -> list[int] | None:
    unseen, singles, avail = pool.route_masks()
    routes = _fewest_unseen(state.board, avail, unseen, singles, len(pool.singles))
    if not routes:
        return None
    u, k = len(pool.down), len(pool.singles)
    for split in splits(pool):
        single_budget, unseen_budget = k - split.singles, u - split.dead_unseen(pool)
        for used, (cost, cells) in sorted(routes.items()):
            if used <= single_budget and cost <= unseen_budget:
                dying = [c for c in sorted(pool.singles) if not cells >> c & 1][:split.singles]
                dead = [c for c in pool.down if not cells >> c & 1][:split.dead_unseen(pool)]
                return _assign(state, pool, split, dying, dead)
    return None


def _fewest_unseen(board, avail: int, unseen: int, singles: int, k: int) -> dict[int, tuple[int, int]]:
    """For each number of singles a route uses, the fewest unseen cells on such a route and its cells.

    Dijkstra over (cell, singles used so far), the cost being the unseen cells used; a route runs from a
    cell touching the first Brain to one touching the second through orthogonal steps (FG-5).
    """
    best: dict[tuple[int, int], int] = {}
    parent: dict[tuple[int, int], tuple[int, int] | None] = {}
    heap: list[tuple[int, int, int]] = []
    for c in range(board.cells):
        if board.start >> c & 1 and avail >> c & 1:
            key = (c, singles >> c & 1)
            cost = unseen >> c & 1
            if cost < best.get(key, INF):
                best[key], parent[key] = cost, None
                heapq.heappush(heap, (cost, key[1], c))
    found: dict[int, tuple[int, int]] = {}
    while heap:
        cost, used, c = heapq.heappop(heap)
        key = (c, used)
        if cost > best.get(key, INF):
            continue
        if board.goal >> c & 1 and used not in found:
            cells, at = 0, key
            while at is not None:
                cells |= 1 << at[0]
                at = parent[at]
            found[used] = (cost, cells)
        spread = board.spread(1 << c) & avail
        while spread:
            n = (spread & -spread).bit_length() - 1
            spread &= spread - 1
            nxt = (n, used + (singles >> n & 1))
            if nxt[1] > k:
                continue
            step = cost + (unseen >> n & 1)
            if step < best.get(nxt, INF):
                best[nxt], parent[nxt] = step, key
                heapq.heappush(heap, (step, nxt[1], n))
    return found


# -- dead: deaths that cut every route ------------------------------------------------------------------------
def _dead_world(state: ForgottenState, pool: Pool) -> list[int] | None:
    board = state.board
    unseen, singles, avail = pool.route_masks()
    options = splits(pool)
    if not board.connected(avail):
        return _assign(state, pool, options[0], sorted(pool.singles)[:options[0].singles],
                       pool.down[:options[0].dead_unseen(pool)]) if options else None
    if all(split.singles + split.dead_unseen(pool) == 0 for split in options):
        return None               # no tile can lose its partner, and a route exists
    relevant = Model(board, state.game.erasure, state.game.goal).relevant(avail)
    avail &= relevant
    on_route = [c for c in sorted(pool.singles) if relevant >> c & 1]
    off_route = [c for c in sorted(pool.singles) if not relevant >> c & 1]
    network = _Cuts(board, avail, unseen, max(split.dead_unseen(pool) for split in options))
    tried: set[tuple[int, int]] = set()
    for split in sorted(options, key=lambda s: (-s.singles - s.dead_unseen(pool), -s.singles)):
        budget = (split.singles, split.dead_unseen(pool))
        if budget in tried:
            continue
        tried.add(budget)
        found = _first_cutting(network, on_route, min(split.singles, len(on_route)), budget[1])
        if found is None:
            continue
        chosen, cut = found
        dying = chosen + off_route[:split.singles - len(chosen)]
        dead = sorted(set(cut) | set(c for c in pool.down if c not in cut), key=lambda c: (c not in cut, c))
        return _assign(state, pool, split, dying, dead[:budget[1]])
    return None


def _first_cutting(network: _Cuts, cells: list[int], size: int, budget: int) -> tuple[list[int], list[int]] | None:
    """The first ``size`` of ``cells`` (in :func:`itertools.combinations` order) whose removal leaves an unseen
    cut of at most ``budget`` cells, and that cut; ``None`` when no choice does.

    Removing more cells can only shrink the cut, so a choice whose prefix leaves no cut even with every later
    cell removed too is skipped whole, and so are the prefixes after it (they remove fewer cells still).
    """
    later = [0] * (len(cells) + 1)
    for i in range(len(cells) - 1, -1, -1):
        later[i] = later[i + 1] | 1 << cells[i]
    if network.cut(later[0], budget) is None:
        return None

    def search(start: int, removed: int, left: int) -> tuple[list[int], list[int]] | None:
        if left == 0:
            cut = network.cut(removed, budget)
            return None if cut is None else ([], cut)
        for i in range(start, len(cells) - left + 1):
            if left > 1 and i > start and network.cut(removed | later[i], budget) is None:
                break                 # every choice from here on removes a subset of these cells
            found = search(i + 1, removed | 1 << cells[i], left - 1)
            if found is not None:
                return [cells[i]] + found[0], found[1]
        return None

    return search(0, 0, size)


class _Cuts:
    """Unseen cells whose loss leaves no route through ``avail``, for ``avail`` less a few removed cells.

    A minimum vertex cut by max flow (``forgotten_paths.unseen_cut``): the cut nearest the first Brain, the same
    for every maximum flow. Answers are kept per removed set, found with cuts of up to ``most`` cells (the largest
    budget asked).
    """

    def __init__(self, board: Board, avail: int, unseen: int, most: int) -> None:
        self.board, self.avail, self.unseen, self.most = board, avail, unseen, most
        self.known: dict[int, tuple[int, int]] = {}

    def cut(self, removed: int, budget: int) -> list[int] | None:
        """The cut (at most ``budget`` unseen cells) once the cells of the mask ``removed`` are gone, or ``None``."""
        if removed not in self.known:
            board = self.board
            self.known[removed] = kernel.unseen_cut(board.width, board.height, *board.brains,
                                                    self.avail & ~removed, self.unseen, self.most)
        size, cut = self.known[removed]
        return None if size < 0 or size > budget else [c for c in range(self.board.cells) if cut >> c & 1]


# -- building the world -----------------------------------------------------------------------------------------
def _assign(state: ForgottenState, pool: Pool, split: Split, dying: list[int], dead: list[int]) -> list[int] | None:
    """The tiles of a world in which exactly the singles ``dying`` and the unseen cells ``dead`` lose their partner."""
    orphans, fresh = pool.orphans, pool.fresh
    a, b, pairs = split.orphans, split.halves, split.pairs
    to_removed = ([pool.singles[c] for c in dying] + orphans[:a] + fresh[:b]
                  + [x for x in fresh[b:b + pairs] for _ in range(2)])
    to_dead = orphans[a:] + fresh[:b]
    living = [pool.singles[c] for c in sorted(pool.singles) if c not in dying] + \
        [x for x in fresh[b + pairs:] for _ in range(2)]
    others = [c for c in pool.down if c not in dead]
    if len(to_removed) != len(pool.removed) or len(to_dead) != len(dead) or len(living) != len(others):
        return None
    tiles = list(state.tiles)
    for cells, letters in ((pool.removed, to_removed), (dead, to_dead), (others, living)):
        for c, letter in zip(cells, letters):
            tiles[c] = letter
    return tiles
