"""Aetherya's optimal search (the ``solve`` verb and ``optimize``): the best arrangement of 16 held cards, with
its proof; and ``score``, where a kingdom or a game position stands.

``optimize_kingdom(cards, fixed=None, time_ms=None, ctx=None)`` places the 16
cards (some of them possibly locked on given cells) so that the board total
(Elves + Dwarves + Humans + Goblins + Dragons + Conflicts, ``docs/rules/aetherya.md``)
is as high as possible, and says whether that is proven.

How it works (details and measurements in ``docs/rules/aetherya.md``,
"Optimal kingdoms", and ``docs/benchmarks.md``):

1. The Portals fix who is connected to whom, so the problem splits into one
   fixed-graph problem per *layout* (the set of Portal cells). Layouts are
   enumerated up to the board symmetries that keep the fixed cells in place.
2. A compiled iterated local search (``solver.kernels.aetherya``) finds a
   strong kingdom within milliseconds: the incumbent.
3. A compiled upper bound ranks the layouts; every layout whose bound does not
   beat the incumbent is pruned.
4. Each remaining layout is closed by the *prover*: ``"search"`` (default: the
   compiled exact branch-and-bound of ``aetherya_opt.search_layout``) or
   ``"cp-sat"`` (OR-Tools CP-SAT, see :mod:`solver.aetherya.solve_cpsat`).
   Both look only for kingdoms strictly better than the incumbent, so a layout
   is closed either with a better kingdom or with a proof that none exists.

Within the time limit the call returns the best kingdom found and a proven
upper bound on the board total (the incumbent and the bounds of the layouts
not yet closed).
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from solver.aetherya.cards import CARD_NAMES, CARD_TYPES, CELL_NAMES, CELLS, LETTERS, PORTAL, SIDE
from solver.aetherya.puzzle_play import PuzzlePosition, is_puzzle_position
from solver.aetherya.puzzle_play import score as puzzle_score
from solver.aetherya.scoring import (KingdomScore, format_kingdom, legend_points, legend_slugs, parse_kingdom,
                                     score_kingdom)
from solver.aetherya.state import AetheryaState
from solver.errors import ImpossibleStateError, InvalidInputError, UnknownCardError
from solver.game import Game, State, View
from solver.kernels import aetherya as kernel
from solver.results import SolveResult
from solver.search import Limits, SearchContext, Watch
from solver.validate import as_int, as_list, as_object, check_keys, get

#: how long the command line and the API search when no limit is given
DEFAULT_TIME_MS = 60_000
MAX_TIME_MS = 86_400_000
#: what closes a Portal layout: the compiled branch-and-bound or OR-Tools CP-SAT
PROVERS = ("search", "cp-sat")
DEFAULT_PROVER = "search"
FREE = 10  # layout code of a cell still to fill (the kernels' convention)
HAND_SIZE = CELLS
_LOCAL_SEARCH_ROUNDS = 48
_LOCAL_SEARCH_STARTS = 3
_CACHE_SIZE = 4096
CP_SAT_MARGIN_S = 0.05  # time kept back from CP-SAT's limit (it answers a little after it)
SMALL_NODES = 30_000    # a node limit this small ends the search within about 0.1 s: no watcher thread needed
SMALL_SECONDS = 0.1     # likewise a time limit this short (the kernel keeps it on its own)
#: the control entries of the compiled layout search: the stop flag, the nodes of the call, the total of the
#: kingdom it publishes in ``out`` and a sequence number (odd while it writes the kingdom)
CONTROL_SLOTS = 4
#: threads of the compiled layout search when no node budget asks for the sequential one
SEARCH_THREADS = min(4, os.cpu_count() or 1)


# -- board symmetries ---------------------------------------------------------------------------

def _symmetry(turns: int, mirror: bool) -> tuple[int, ...]:
    """``image[c]``: where cell ``c`` goes under ``turns`` quarter turns, then a left-right mirror."""
    image = []
    for cell in range(CELLS):
        row, col = divmod(cell, SIDE)
        for _ in range(turns):
            row, col = col, SIDE - 1 - row
        if mirror:
            col = SIDE - 1 - col
        image.append(row * SIDE + col)
    return tuple(image)


#: the 8 symmetries of the square board (identity first) as cell permutations
SYMMETRIES: tuple[tuple[int, ...], ...] = tuple(_symmetry(t, m) for m in (False, True) for t in range(4))


def map_mask(mask: int, image: Sequence[int]) -> int:
    """The cell set ``mask`` moved by the permutation ``image``."""
    out = 0
    for cell in range(CELLS):
        if mask >> cell & 1:
            out |= 1 << image[cell]
    return out


def _byte_tables(image: Sequence[int]) -> tuple[list[int], list[int]]:
    """Images of the low and high byte of a cell mask, for :func:`_map_fast`."""
    low = [map_mask(b, image) for b in range(256)]
    high = [map_mask(b << 8, image) for b in range(256)]
    return low, high


_TABLES = {image: _byte_tables(image) for image in SYMMETRIES}


def _map_fast(mask: int, image: tuple[int, ...]) -> int:
    low, high = _TABLES[image]
    return low[mask & 0xFF] | high[mask >> 8]


def apply_symmetry(kingdom: Sequence[int], image: Sequence[int]) -> list[int]:
    """The kingdom moved by ``image`` (the card on ``c`` goes to ``image[c]``)."""
    out = [0] * CELLS
    for cell in range(CELLS):
        out[image[cell]] = kingdom[cell]
    return out


# -- the problem --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Hand:
    """The 16 cards to place (``counts`` by card code) and the cells locked in advance."""

    counts: tuple[int, ...]
    fixed: tuple[tuple[int, int], ...] = ()  # (cell, card code), sorted by cell

    @property
    def fixed_map(self) -> dict[int, int]:
        """``{cell: card code}`` of the locked cells."""
        return dict(self.fixed)

    def free_counts(self) -> list[int]:
        """Cards not locked on a cell, by code."""
        counts = list(self.counts)
        for _, code in self.fixed:
            counts[code] -= 1
        return counts

    def letters(self) -> str:
        """The hand as sorted letters (``PPFMSHEDGRO...``)."""
        return "".join(LETTERS[code] * n for code, n in enumerate(self.counts))

    def fixed_text(self) -> str:
        """The locked cells as ``a1=O,b2=R``."""
        return ",".join(f"{CELL_NAMES[c]}={LETTERS[k]}" for c, k in self.fixed)


HAND_LETTERS = LETTERS[:CARD_TYPES]


def parse_cards(cards: Any, field: str = "cards") -> list[int]:
    """Card codes of a hand of 16 letters (any order, case-insensitive; ``/`` and spaces are ignored)."""
    if isinstance(cards, (list, tuple)) and all(isinstance(c, str) for c in cards):
        cards = "".join(cards)
    if not isinstance(cards, str):
        raise InvalidInputError(field, cards, "expected the 16 cards you hold as letters, e.g. 'PPFFMMSSHHEEDGRO'")
    letters = [ch for ch in cards if ch not in "/ \t"]
    codes = []
    for i, letter in enumerate(letters):
        if letter == "?":
            raise UnknownCardError(f"{field}[{i}]", letter, "'?' (an unexplored card) is not a card you hold; "
                                                           f"expected one of {' '.join(HAND_LETTERS)}")
        if letter.upper() not in HAND_LETTERS:
            raise UnknownCardError(f"{field}[{i}]", letter, f"unknown card (expected one of {' '.join(HAND_LETTERS)})")
        codes.append(HAND_LETTERS.index(letter.upper()))
    if len(codes) != HAND_SIZE:
        raise InvalidInputError(field, cards, f"expected {HAND_SIZE} card letters, got {len(codes)}")
    return codes


def _fixed_pairs(fixed: Any, field: str) -> list[tuple[Any, Any, str, Any]]:
    """``(cell, card, field, value to quote)`` for each fixed entry."""
    if isinstance(fixed, str):
        pairs = []
        for part in fixed.split(","):
            part = part.strip()
            if not part:
                continue
            cell, sep, card = part.partition("=")
            if not sep or not cell.strip() or not card.strip():
                raise InvalidInputError(field, part, "expected CELL=CARD, e.g. a1=O (cells a1..d4)")
            pairs.append((cell.strip(), card.strip(), field, part))
        return pairs
    if isinstance(fixed, Mapping):
        return [(cell, card, f"{field}.{cell}", card) for cell, card in fixed.items()]
    if isinstance(fixed, (list, tuple)):
        pairs = []
        for i, item in enumerate(fixed):
            if not (isinstance(item, (list, tuple)) and len(item) == 2):
                raise InvalidInputError(f"{field}[{i}]", item, "expected a [cell, card] pair")
            pairs.append((item[0], item[1], f"{field}[{i}]", item))
        return pairs
    raise InvalidInputError(field, fixed, "expected an object such as {\"a1\": \"O\"} or text such as a1=O,b2=R")


def parse_fixed(fixed: Any, field: str = "fixed") -> dict[int, int]:
    """Locked cells from ``{"a1": "O"}``, ``"a1=O,b2=R"`` or ``[("a1", "O")]``: ``{cell: code}``."""
    if fixed is None:
        return {}
    out: dict[int, int] = {}
    for cell_name, card, where, quoted in _fixed_pairs(fixed, field):
        if not isinstance(cell_name, str) or cell_name.strip().lower() not in CELL_NAMES:
            raise InvalidInputError(where, cell_name, "unknown cell (expected a1..d4: column a-d, row 1-4 from the top)")
        cell = CELL_NAMES.index(cell_name.strip().lower())
        if cell in out:
            raise InvalidInputError(where, quoted, f"cell {CELL_NAMES[cell]} is fixed twice")
        if not isinstance(card, str) or card.strip().upper() not in HAND_LETTERS:
            why = ("a fixed cell holds a card: '?' is not allowed" if isinstance(card, str) and card.strip() == "?"
                   else f"unknown card (expected one of {' '.join(HAND_LETTERS)})")
            raise UnknownCardError(where, card, why)
        out[cell] = HAND_LETTERS.index(card.strip().upper())
    return out


def make_hand(cards: Any, fixed: Any = None, cards_field: str = "cards", fixed_field: str = "fixed") -> Hand:
    """A validated :class:`Hand`; fixed cards must be among the 16 held cards."""
    codes = parse_cards(cards, cards_field)
    locked = parse_fixed(fixed, fixed_field)
    counts = [0] * CARD_TYPES
    for code in codes:
        counts[code] += 1
    needed = [0] * CARD_TYPES
    for cell, code in sorted(locked.items()):
        needed[code] += 1
        if needed[code] > counts[code]:
            where = fixed_field if isinstance(fixed, str) else f"{fixed_field}.{CELL_NAMES[cell]}"
            raise ImpossibleStateError(
                where, f"{CELL_NAMES[cell]}={LETTERS[code]}",
                f"fixed card not in the hand: {needed[code]} {CARD_NAMES[code]} card(s) fixed but the hand "
                f"{''.join(HAND_LETTERS[c] for c in sorted(codes))} holds {counts[code]}")
    return Hand(tuple(counts), tuple(sorted(locked.items())))


# -- layouts --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    """One Portal layout: the layout codes (card, Portal or FREE per cell) and its own symmetries."""

    portals: int                          # bit mask of the Portal cells
    codes: tuple[int, ...]                # 16 codes, FREE for cells still to fill
    symmetries: tuple[tuple[int, ...], ...]  # non-identity cell permutations mapping the layout to itself


def fixed_symmetries(hand: Hand) -> list[tuple[int, ...]]:
    """The board symmetries that map every fixed cell onto a fixed cell holding the same card."""
    fixed = hand.fixed_map
    return [image for image in SYMMETRIES
            if all(fixed.get(image[cell]) == code for cell, code in fixed.items())]


@lru_cache(maxsize=256)
def layouts(hand: Hand) -> tuple[Layout, ...]:
    """Every Portal layout of ``hand``, one per class of layouts equivalent under its symmetries."""
    fixed = hand.fixed_map
    group = fixed_symmetries(hand)
    fixed_portals = sum(1 << c for c, k in fixed.items() if k == PORTAL)
    free_portals = hand.counts[PORTAL] - bin(fixed_portals).count("1")
    open_cells = [c for c in range(CELLS) if c not in fixed]
    base = [fixed.get(c, FREE) for c in range(CELLS)]
    found = []
    for chosen in itertools.combinations(open_cells, free_portals):
        mask = fixed_portals | sum(1 << c for c in chosen)
        images = [_map_fast(mask, g) for g in group]
        if min(images) != mask:
            continue
        codes = list(base)
        for c in chosen:
            codes[c] = PORTAL
        stabiliser = tuple(g for g, m in zip(group, images) if m == mask and g != SYMMETRIES[0])
        found.append(Layout(mask, tuple(codes), stabiliser))
    return tuple(found)


def layout_counts(hand: Hand) -> np.ndarray:
    """The free cards to place in every layout of ``hand`` (Portals excluded: the layout holds them)."""
    counts = hand.free_counts()
    counts[PORTAL] = 0
    return np.array(counts, dtype=np.int32)


def portal_mask(kingdom: Sequence[int]) -> int:
    """The cells of a kingdom that hold Portals, as a bit mask."""
    return sum(1 << c for c in range(CELLS) if kingdom[c] == PORTAL)


# -- results --------------------------------------------------------------------------------------

@dataclass
class OptimizeResult:
    """The best kingdom found, its board total and the proof status."""

    hand: Hand
    kingdom: tuple[int, ...]
    total: int
    optimal: bool
    bound: int
    status: str          # proven: "EXHAUSTIVE" (search) or "OPTIMAL" (cp-sat); else "FEASIBLE"
    seconds: float
    prover: str
    layouts: int = 0              # classes of Portal layouts
    layouts_closed: int = 0       # pruned by the compiled bound or proven by the prover
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def notation(self) -> str:
        """The kingdom in notation (``FEFP/MDMH/PHFS/SSGS``)."""
        return format_kingdom(self.kingdom)

    def score(self) -> KingdomScore:
        """The score sheet of the kingdom (no Legends held)."""
        return score_kingdom(np.array(self.kingdom, dtype=np.uint8))

    def to_json(self) -> dict[str, Any]:
        """``kingdom``, ``score``, ``optimal``, ``bound``, ``seconds`` plus the proof details."""
        return {"kingdom": self.notation, "score": self.score().to_json(), "optimal": self.optimal,
                "bound": self.bound, "seconds": round(self.seconds, 6), "status": self.status,
                "prover": self.prover, "layouts": self.layouts, "layoutsClosed": self.layouts_closed}

    def to_solve_result(self, game: str = "aetherya", during_search: bool = False) -> SolveResult:
        """The engine's :class:`SolveResult` (``value`` is the board total)."""
        body = self.to_json()
        solution = {k: body[k] for k in ("kingdom", "score", "prover", "layouts", "layoutsClosed")}
        return SolveResult(game=game, value=self.total, optimal=self.optimal, bound=self.bound,
                           status=self.status, seconds=self.seconds, solution=solution,
                           is_during_search=during_search)


# -- the search -----------------------------------------------------------------------------------

class _Incumbent:
    """The best kingdom so far."""

    def __init__(self, kingdom: Sequence[int], total: int) -> None:
        self.kingdom = tuple(int(k) for k in kingdom)
        self.total = int(total)

    def offer(self, kingdom: Sequence[int], total: int) -> None:
        if total > self.total:
            self.kingdom = tuple(int(k) for k in kingdom)
            self.total = int(total)


def _start_kingdom(hand: Hand, rng: np.random.Generator) -> np.ndarray:
    """The fixed cards on their cells and the other cards shuffled over the rest."""
    fixed = hand.fixed_map
    rest = [code for code, n in enumerate(hand.free_counts()) for _ in range(n)]
    rng.shuffle(rest)
    it = iter(rest)
    return np.array([fixed[c] if c in fixed else next(it) for c in range(CELLS)], dtype=np.uint8)


def heuristic_kingdom(hand: Hand, seed: int = 0, starts: int = _LOCAL_SEARCH_STARTS,
                      rounds: int = _LOCAL_SEARCH_ROUNDS,
                      warm_start: Sequence[int] | None = None) -> tuple[np.ndarray, int]:
    """A strong kingdom from the compiled iterated local search (fixed cells never move)."""
    rng = np.random.default_rng(seed)
    locked = np.array([1 if c in hand.fixed_map else 0 for c in range(CELLS)], dtype=np.uint8)
    best_kingdom, best_total = None, None
    out = np.empty(CELLS, dtype=np.uint8)
    starts_list = [np.array(warm_start, dtype=np.uint8)] if warm_start is not None else []
    starts_list += [_start_kingdom(hand, rng) for _ in range(starts)]
    for i, start in enumerate(starts_list):
        total = kernel.local_search(start, locked, (seed * 1000 + i + 1) % 2**64, rounds, out)
        if best_total is None or total > best_total:
            best_kingdom, best_total = out.copy(), total
    return best_kingdom, int(best_total)


def _layout_start(layout: Layout, hand: Hand, seed: int) -> np.ndarray:
    """A kingdom of ``layout`` to warm-start a prover: the local search with the Portals locked."""
    rng = np.random.default_rng(seed)
    rest = [code for code, n in enumerate(layout_counts(hand)) for _ in range(n)]
    rng.shuffle(rest)
    it = iter(rest)
    start = np.array([code if code != FREE else next(it) for code in layout.codes], dtype=np.uint8)
    locked = np.array([0 if code == FREE else 1 for code in layout.codes], dtype=np.uint8)
    out = np.empty(CELLS, dtype=np.uint8)
    kernel.local_search(start, locked, (seed + 7) % 2**64, _LOCAL_SEARCH_ROUNDS, out)
    return out


def _check_prover(prover: Any, field: str = "prover") -> str:
    if prover not in PROVERS:
        raise InvalidInputError(field, prover, f"expected one of {', '.join(PROVERS)}")
    return prover


_RESULT_CACHE: OrderedDict[tuple[Hand, str], OptimizeResult] = OrderedDict()
_CACHE_LOCK = threading.Lock()  # the engine may run several searches at once


def _canonical_hand(hand: Hand) -> tuple[Hand, tuple[int, ...]]:
    """The representative of ``hand`` under the board symmetries, and the symmetry that maps it there."""
    best: tuple[Hand, tuple[int, ...]] | None = None
    for image in SYMMETRIES:
        moved = Hand(hand.counts, tuple(sorted((image[c], k) for c, k in hand.fixed)))
        if best is None or moved.fixed < best[0].fixed:
            best = (moved, image)
    assert best is not None
    return best


def _context(time_ms: Any, ctx: SearchContext | None, seed: int | None) -> SearchContext:
    if time_ms is not None:
        time_ms = as_int(time_ms, "time_ms", 1, MAX_TIME_MS)
    if ctx is None:
        return SearchContext(limits=Limits(time_ms=DEFAULT_TIME_MS if time_ms is None else time_ms),
                             seed=0 if seed is None else seed)
    if time_ms is not None:
        ctx.limits = Limits(time_ms=time_ms, nodes=ctx.limits.nodes)
    elif ctx.limits.time_ms is None and ctx.limits.nodes is None:
        ctx.limits = ctx.limits.with_defaults(DEFAULT_TIME_MS)
    # a node limit alone: no default time cap, so the answer is the same on every machine (docs/commands.md)
    return ctx


def optimize_kingdom(cards: Any, fixed: Any = None, time_ms: int | None = None, ctx: SearchContext | None = None,
                     *, prover: str = DEFAULT_PROVER, seed: int | None = None,
                     warm_start: str | Sequence[int] | None = None, use_cache: bool = True) -> OptimizeResult:
    """The best kingdom of ``cards`` (16 letters, or a validated :class:`Hand`), with its proof.

    ``fixed`` locks cards on cells (``{"a1": "O"}`` or ``"a1=O,b2=R"``); the
    locked cards are part of the 16. ``time_ms`` (or ``ctx.limits.time_ms``;
    default :data:`DEFAULT_TIME_MS`) bounds the wall time; ``ctx.limits.nodes``
    bounds the work of the compiled search; ``ctx.cancel`` stops it between
    layouts. The result is the best kingdom found with a proven upper bound on
    the board total (``optimal`` when the two meet). ``prover`` closes each
    Portal layout: ``"search"`` (compiled branch-and-bound) or ``"cp-sat"``.
    ``warm_start`` is a kingdom of the same cards (fixed cells in place) to
    start the local search from, such as a planner's previous answer. Proven
    results are cached up to the board symmetries, so a repeated question is
    answered at once.
    """
    started = time.perf_counter()
    hand = cards if isinstance(cards, Hand) else make_hand(cards, fixed)
    _check_prover(prover)
    if seed is not None:
        seed = as_int(seed, "seed", 0, 2**63 - 1)
    ctx = _context(time_ms, ctx, seed)
    seed = ctx.seed if seed is None else seed
    start_codes = _check_warm_start(warm_start, hand) if warm_start is not None else None
    canonical, image = _canonical_hand(hand)
    key = (canonical, prover)
    cached = _cached(key) if use_cache else None
    if cached is not None:
        inverse = [0] * CELLS
        for c in range(CELLS):
            inverse[image[c]] = c
        return OptimizeResult(hand, tuple(apply_symmetry(cached.kingdom, inverse)), cached.total, True, cached.bound,
                              cached.status, time.perf_counter() - started, cached.prover, cached.layouts,
                              cached.layouts_closed, {"cached": True})
    result = _solve(hand, ctx, prover, seed, start_codes, started)
    if use_cache and result.optimal:
        with _CACHE_LOCK:
            _RESULT_CACHE[key] = OptimizeResult(canonical, tuple(apply_symmetry(result.kingdom, image)),
                                                result.total, True, result.bound, result.status, result.seconds,
                                                result.prover, result.layouts, result.layouts_closed)
            while len(_RESULT_CACHE) > _CACHE_SIZE:
                _RESULT_CACHE.popitem(last=False)
    return result


def _cached(key: tuple[Hand, str]) -> OptimizeResult | None:
    with _CACHE_LOCK:
        if key not in _RESULT_CACHE:
            return None
        _RESULT_CACHE.move_to_end(key)
        return _RESULT_CACHE[key]


def clear_cache() -> None:
    """Forget the cached proven results."""
    with _CACHE_LOCK:
        _RESULT_CACHE.clear()


def _check_warm_start(warm_start: str | Sequence[int], hand: Hand, field: str = "warm_start") -> list[int]:
    if isinstance(warm_start, str):
        codes = [int(k) for k in parse_kingdom(warm_start, field)]
    else:
        codes = [int(k) for k in warm_start]
    if len(codes) != CELLS or any(not 0 <= k < CARD_TYPES for k in codes):
        raise InvalidInputError(field, warm_start, "expected a complete kingdom of 16 cards (no '?')")
    if tuple(codes.count(k) for k in range(CARD_TYPES)) != hand.counts:
        raise InvalidInputError(field, format_kingdom(codes), "the kingdom does not hold the cards of the hand")
    for cell, code in hand.fixed:
        if codes[cell] != code:
            raise InvalidInputError(field, format_kingdom(codes),
                                    f"cell {CELL_NAMES[cell]} must hold the fixed {CARD_NAMES[code]}")
    return codes


def _heuristic_budget(ctx: SearchContext) -> tuple[int, int]:
    """(starts, rounds) of the local search: smaller when the time limit is short."""
    left = ctx.remaining()
    if left is not None and left < 0.05:
        return 1, 8
    if left is not None and left < 0.25:
        return 2, 24
    return _LOCAL_SEARCH_STARTS, _LOCAL_SEARCH_ROUNDS


@dataclass
class _Published:
    """The kingdom the compiled layout search publishes while it runs, for the interim reports.

    The search runs without the GIL; the one watcher (:class:`solver.search.Watch`) raises its stop flag
    (``control[0]``, polled about every millisecond) at the deadline or on ``terminate``, stops the CP-SAT
    solver under way, and sends the interim reports, which read the incumbent and this kingdom under ``lock``.
    """

    control: np.ndarray
    out: np.ndarray = field(default_factory=lambda: np.zeros(CELLS, dtype=np.uint8))
    layout_sequence: int = -1     # control[3] when the current layout call started (-1: none running)
    lock: threading.Lock = field(default_factory=threading.Lock)  # held while the search changes what reports read

    def kernel_best(self) -> tuple[np.ndarray, int] | None:
        """The best kingdom the running layout search has published (None: none yet, or being written)."""
        if self.layout_sequence < 0:
            return None
        sequence = int(self.control[3])
        kingdom = self.out.copy()
        total = int(self.control[2])
        if sequence % 2 or sequence == self.layout_sequence or int(self.control[3]) != sequence:
            return None
        return kingdom, total


def _solve(hand: Hand, ctx: SearchContext, prover: str, seed: int, warm_start: Sequence[int] | None,
           started: float) -> OptimizeResult:
    if prover == "cp-sat":  # OR-Tools' first import takes a while: before the limits are looked at, not after
        import solver.aetherya.solve_cpsat  # noqa: F401  (lazy: OR-Tools is slow to import, start-up speed)
    starts, rounds = _heuristic_budget(ctx)
    kingdom, total = heuristic_kingdom(hand, seed, starts, rounds, warm_start)
    incumbent = _Incumbent(kingdom, total)
    all_layouts = layouts(hand)
    counts = layout_counts(hand)
    ranked = sorted(((kernel.layout_bound(np.array(lay.codes, dtype=np.uint8), counts), i)
                     for i, lay in enumerate(all_layouts)), key=lambda t: (-t[0], t[1]))
    open_bounds = {i: b for b, i in ranked}
    closed = 0
    nodes_left = ctx.limits.nodes

    def snapshot(during: bool = False) -> OptimizeResult:
        with published.lock:
            best_kingdom, best_total = incumbent.kingdom, incumbent.total
            kernel_best = published.kernel_best() if during else None
            if kernel_best is not None and kernel_best[1] > best_total:
                best_kingdom, best_total = tuple(int(k) for k in kernel_best[0]), kernel_best[1]
            bound = max([best_total] + list(open_bounds.values()))
            layouts_closed = closed
        proven = bound <= best_total and not during
        status = ("EXHAUSTIVE" if prover == "search" else "OPTIMAL") if proven else "FEASIBLE"
        return OptimizeResult(hand, best_kingdom, best_total, proven, bound, status,
                              time.perf_counter() - started, prover, len(all_layouts), layouts_closed)

    def report() -> None:
        ctx.maybe_report(lambda: snapshot(during=True).to_solve_result(during_search=True))

    remaining = ctx.remaining()
    small = (nodes_left is not None and nodes_left <= SMALL_NODES) or (remaining is not None
                                                                       and remaining <= SMALL_SECONDS)
    if ctx.report is None and small:  # the planner's calls: a thread each would cost more than the search
        watch = Watch(slots=CONTROL_SLOTS)
    else:
        watch = Watch.for_context(ctx, report=report if ctx.report is not None else None, slots=CONTROL_SLOTS,
                                  name="aetherya-solve-watch")
    published = _Published(watch.control)
    with watch:
        if prover == "search" and nodes_left is None and not small:  # every layout at once, on threads
            # (the same kingdom; a call that ends within about 0.1 s anyway keeps to one thread)
            closed = _close_all_by_search(all_layouts, ranked, counts, incumbent, ctx, published, open_bounds)
            ranked = []
        for position, (bound, i) in enumerate(ranked):
            if bound <= incumbent.total:
                # ranked by bound: this layout and all later ones are pruned by the compiled bound
                with published.lock:
                    for _, j in ranked[position:]:
                        del open_bounds[j]
                    closed += len(ranked) - position
                break
            if watch.stopped() or ctx.should_stop() or (nodes_left is not None and nodes_left <= 0):
                break
            layout = all_layouts[i]
            if prover == "search":
                complete, layout_bound, used = _close_by_search(layout, counts, incumbent, ctx, nodes_left,
                                                                published)
                if nodes_left is not None:
                    nodes_left -= used
            else:
                complete, layout_bound = _close_by_cp_sat(layout, hand, counts, incumbent, ctx, seed, watch,
                                                          published)
            with published.lock:
                if complete:
                    del open_bounds[i]
                    closed += 1
                else:
                    open_bounds[i] = max(min(layout_bound, open_bounds[i]), incumbent.total)
    return snapshot()


def _close_all_by_search(all_layouts: Sequence[Layout], ranked: list[tuple[int, int]], counts: np.ndarray,
                         incumbent: _Incumbent, ctx: SearchContext, published: _Published,
                         open_bounds: dict[int, int]) -> int:
    """Close the layouts the compiled bound leaves open with one call of the compiled branch-and-bound on threads
    (``aetherya_opt.search_layouts``): the kingdom is the one the layouts searched in ``ranked`` order would give.
    Updates ``open_bounds``; returns how many layouts are closed."""
    order = [i for bound, i in ranked if bound > incumbent.total]
    with published.lock:
        for bound, i in ranked:
            if bound <= incumbent.total:
                del open_bounds[i]
    closed = len(ranked) - len(order)
    if not order:
        return closed
    codes = np.array([all_layouts[i].codes for i in order], dtype=np.uint8)
    symmetries = np.zeros((len(order), 8, CELLS), dtype=np.int8)
    n_symmetries = np.zeros(len(order), dtype=np.int32)
    for row, i in enumerate(order):
        n_symmetries[row] = len(all_layouts[i].symmetries)
        if n_symmetries[row]:
            symmetries[row, :n_symmetries[row]] = all_layouts[i].symmetries
    stats = np.zeros((len(order), 4), dtype=np.int64)
    left = ctx.remaining()
    seconds = 0.0 if left is None else max(left, 1e-6)  # 0 means no limit to the kernel
    published.layout_sequence = int(published.control[3])
    try:
        best = kernel.search_layouts(codes, counts, symmetries, n_symmetries, incumbent.total, seconds,
                                     SEARCH_THREADS, published.out, stats, published.control)
        if best > incumbent.total:
            with published.lock:
                incumbent.offer(published.out, best)
    finally:
        published.layout_sequence = -1
    with published.lock:
        for row, i in enumerate(order):
            if stats[row, 1]:
                del open_bounds[i]
                closed += 1
            else:
                open_bounds[i] = max(min(int(stats[row, 2]), open_bounds[i]), incumbent.total)
    return closed


def _close_by_search(layout: Layout, counts: np.ndarray, incumbent: _Incumbent, ctx: SearchContext,
                     nodes_left: int | None, published: _Published) -> tuple[bool, int, int]:
    """Run the compiled branch-and-bound on one layout: (closed, bound, nodes used)."""
    stats = np.zeros(4, dtype=np.int64)
    symmetries = np.array(layout.symmetries, dtype=np.int8).reshape(-1, CELLS)
    left = ctx.remaining()
    seconds = 0.0 if left is None else max(left, 1e-6)  # 0 means no limit to the kernel
    published.layout_sequence = int(published.control[3])
    try:
        best = kernel.search_layout(np.array(layout.codes, dtype=np.uint8), counts, symmetries, incumbent.total,
                                    nodes_left or 0, seconds, published.out, stats, published.control)
        if stats[3]:
            with published.lock:
                incumbent.offer(published.out, best)
    finally:
        published.layout_sequence = -1
    return bool(stats[1]), int(stats[2]), int(stats[0])


def _close_by_cp_sat(layout: Layout, hand: Hand, counts: np.ndarray, incumbent: _Incumbent, ctx: SearchContext,
                     seed: int, watch: Watch, published: _Published) -> tuple[bool, int]:
    """Ask CP-SAT for a kingdom of one layout above the incumbent: (closed, bound)."""
    from solver.aetherya.solve_cpsat import LayoutModel  # lazy: OR-Tools is slow to import (start-up speed)
    same_layout = portal_mask(incumbent.kingdom) == layout.portals
    hint = incumbent.kingdom if same_layout else _layout_start(layout, hand, seed)
    forget: list[Any] = []

    def running(solver: Any) -> None:
        forget.append(watch.on_stop(solver.stop_search))
        if watch.stopped():  # a stop raised before the solve begins is not seen by CP-SAT: a limit it obeys
            solver.parameters.max_time_in_seconds = 0.001

    model = LayoutModel(layout, counts)
    left = ctx.remaining()  # CP-SAT overruns its own limit by some 50 ms (presolve, the answer): keep that back
    seconds = None if left is None else max(0.001, left - CP_SAT_MARGIN_S)
    try:
        found, value, complete, bound = model.improve(incumbent.total, hint, seconds, seed, on_start=running)
    finally:
        for unregister in forget:
            unregister()
    if found is not None:
        with published.lock:
            incumbent.offer(found, value)
    return complete, bound


# -- the solve and score verbs ------------------------------------------------------------------

def parse_solve_request(payload: Any, field: str = "state") -> tuple[Hand, str]:
    """``"CARDS"`` or ``{"cards": "CARDS", "fixed": {"a1": "O"}, "prover": "search"}``: the hand and prover."""
    if isinstance(payload, str):
        return make_hand(payload, None, field, f"{field}.fixed"), DEFAULT_PROVER
    obj = as_object(payload, field)
    check_keys(obj, ("cards", "fixed", "prover"), field)
    hand = make_hand(get(obj, "cards", field), obj.get("fixed"), f"{field}.cards", f"{field}.fixed")
    return hand, _check_prover(obj.get("prover", DEFAULT_PROVER), f"{field}.prover")


def solve(game: Game, payload: Any, ctx: SearchContext, **options: Any) -> SolveResult:
    """The ``solve`` verb: the optimal kingdom of a hand (anytime within the limits), with its proof."""
    hand, prover = parse_solve_request(payload)
    return optimize_kingdom(hand, ctx=ctx, prover=prover).to_solve_result(game.name)


def optimize(cards: Any, fixed: Any = None, time_ms: Any = None, prover: str = DEFAULT_PROVER,
             seed: Any = 0) -> OptimizeResult:
    """``memory-solver aetherya optimize``: the command line's values checked (errors name its flags), then the
    search with its default time limit."""
    hand = make_hand(cards, fixed, "CARDS", "--fixed")
    time_ms = DEFAULT_TIME_MS if time_ms is None else as_int(time_ms, "--time-ms", 1, MAX_TIME_MS)
    seed = as_int(seed, "--seed", 0, 2**63 - 1)
    return optimize_kingdom(hand, time_ms=time_ms, prover=_check_prover(prover, "--prover"), seed=seed)


def parse_score_request(payload: Any, field: str = "state", legends: Any = None) -> KingdomScore:
    """Score ``"KINGDOM"`` or ``{"kingdom": "KINGDOM", "legends": [...]}`` (``legends``: Legends held, from the
    ``--legends`` option)."""
    if isinstance(payload, str):
        return score_kingdom(payload, legends or [], field=field, legends_field="legends")
    obj = as_object(payload, field)
    check_keys(obj, ("kingdom", "legends"), field)
    held = as_list(obj.get("legends", []), f"{field}.legends")
    return score_kingdom(get(obj, "kingdom", field), held + list(legends or []), field=f"{field}.kingdom",
                         legends_field=f"{field}.legends")


def solo_age_sheet(state: AetheryaState) -> list[dict[str, Any]]:
    """The finished Ages of a solo campaign: objective (the Age's Legends' points), kingdom points, Age score
    and whether the objective was met (kingdom strictly greater, AE-34; missing it only lowers the score)."""
    sheet = []
    for age, score in enumerate(state.age_scores):
        objective = legend_points(state.rows[age])
        sheet.append({"age": age + 1, "legends": legend_slugs(state.rows[age]), "objective": objective,
                      "kingdom": score + objective, "score": score, "objectiveMet": score > 0})
    return sheet


def score(game: Game, payload: Any, legends: Any = None) -> dict[str, Any]:
    """Score a kingdom (notation or ``{"kingdom", "legends"}``, with ``legends`` held) or, given a game state
    or a view, every seat's sheet (a view counts only the cards its observer knows)."""
    position = payload if isinstance(payload, (State, View)) else None
    if position is None and (isinstance(payload, dict) and ("mode" in payload or "view" in payload)
                             or isinstance(payload, str) and (":" in payload.split(" ", 1)[0])
                             or is_puzzle_position(payload)):
        position = game.parse_position(payload)
    if position is None:
        return parse_score_request(payload, legends=legends).to_json()
    if isinstance(position, PuzzlePosition):
        return puzzle_score(position)
    if legends:
        raise InvalidInputError("legends", ",".join(legends), "Legends held are part of a game position; "
                                                              "the option is for a kingdom")
    sheets = [position.score(p) for p in range(position.game.num_players)]
    state = position.rep if isinstance(position, View) else position
    terminal = position.is_terminal()
    out: dict[str, Any] = {"players": [dict(sheet.to_json(), player=p) for p, sheet in enumerate(sheets)],
                           "returns": position.returns() if terminal else None,
                           "winners": state.winners() if terminal else None}
    if isinstance(position, View):
        out["view"] = position.observer
    if state.mode == "solo":
        out["ages"] = solo_age_sheet(state) if not (isinstance(position, View) and position.turn_over_cells()) \
            else solo_age_sheet(state)[:-1]
    return out
