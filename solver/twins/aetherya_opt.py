"""Pure-Python twin of ``src/aetherya_opt.pxi``: local search, layout bounds, exact branch-and-bound.

Same functions, same signatures, same results as the compiled kernel
(``solver.kernels.aetherya``), step for step (the same random numbers,
the same tie-breaking, the same node counts), written for reading.

Card codes: 0 P, 1 F, 2 M, 3 S, 4 H, 5 E, 6 D, 7 G, 8 R (Dragon), 9 O (Portal);
in a *layout* the code 10 marks a free cell still to be filled.

The exact search (``search_layout``) works on one Portal layout and places the
Tribes first. Once every Tribe is placed, each free cell earns for each kind of
Terrain (and for a Dragon) a profit that depends only on the Tribes around it,
so the best placement of the remaining cards is an assignment problem, solved
by the Hungarian method. With Tribes still to place, a Tribe is valued at each
free cell by its *potential*: its exact points with the cards already there
(conflicts included) plus, for every free neighbour, the best Terrain still in
hand, ignoring that two Tribes may want the same Terrain card. The assignment
with these values is an upper bound on every completion (proof in
``docs/rules/aetherya.md``, "Optimal kingdoms").
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from solver.twins.common import MASK64, SplitMix64, stream_seed

PLAINS, FOREST, MOUNTAIN, SWAMP, HUMANS, ELVES, DWARVES, GOBLINS, DRAGON, PORTAL, FREE = range(11)
KINDS = 10
CELLS = 16
BIG = 1 << 28
#: entries of search_layout's ``control``: the stop flag read, and the progress written (nodes, best, sequence)
CONTROL_STOP, CONTROL_NODES, CONTROL_BEST, CONTROL_SEQUENCE = 0, 1, 2, 3
DRAGON_VALUE = (0, 3, 5, 6)
GOBLIN_SWAMP = 3
TRIBE_ORDER = (HUMANS, ELVES, DWARVES, GOBLINS)
#: points of a connected pair (row kind, column kind), each pair counted once (AE-4, AE-6)
PAIR = (
    (0, 0, 0, 0, 2, 0, 0, 0, 0, 0),      # P
    (0, 0, 0, 0, 1, 2, 0, 0, 0, 0),      # F
    (0, 0, 0, 0, 1, 0, 2, 0, 0, 0),      # M
    (0, 0, 0, 0, -1, -1, 0, 0, 0, 0),    # S
    (2, 1, 1, -1, 0, 0, 0, -2, 0, 0),    # H
    (0, 2, 0, -1, 0, 0, -2, -2, 0, 0),   # E
    (0, 0, 2, 0, 0, -2, 0, -2, 0, 0),    # D
    (0, 0, 0, 0, -2, -2, -2, 0, 0, 0),   # G
    (0,) * 10,                           # R
    (0,) * 10,                           # O
)
_SETUP_PROBLEMS = ("", "counts must not be negative", "Portals belong to the layout, not to the free cards",
                   "layout codes must be 0..10", "the free cards must fill the free cells exactly")


def _popcount(m: int) -> int:
    return bin(m).count("1")


def _cells(m: int) -> list[int]:
    return [c for c in range(CELLS) if m >> c & 1]


def _spread(m: int) -> int:
    """Cells orthogonally adjacent to any cell of ``m``."""
    return (((m << 1) & ~0x1111) | ((m >> 1) & ~0x8888) | (m << 4) | (m >> 4)) & 0xFFFF


def _connect(portals: int) -> tuple[list[int], list[int]]:
    """Orthogonal and full connection masks for Portals on ``portals`` (hubs of adjacent Portals)."""
    orth = [_spread(1 << c) for c in range(CELLS)]
    conn = list(orth)
    remaining = portals
    while remaining:
        hub = remaining & -remaining
        while True:
            grown = hub | (_spread(hub) & portals)
            if grown == hub:
                break
            hub = grown
        remaining &= ~hub
        around = _spread(hub) & ~hub
        for c in _cells(around):
            conn[c] |= around & ~(1 << c)
    return orth, conn


def _board_total(k: Sequence[int]) -> int:
    kinds = [0] * KINDS
    for c in range(CELLS):
        kinds[k[c]] |= 1 << c
    orth, conn = _connect(kinds[PORTAL])
    total = tamed = 0
    for c in range(CELLS):
        m = conn[c]
        if k[c] == ELVES:
            total += 2 * _popcount(m & kinds[FOREST]) - _popcount(m & kinds[SWAMP]) - 2 * _popcount(m & kinds[DWARVES])
        elif k[c] == DWARVES:
            total += 2 * _popcount(m & kinds[MOUNTAIN])
        elif k[c] == HUMANS:
            total += (2 * _popcount(m & kinds[PLAINS]) + _popcount(m & kinds[FOREST]) + _popcount(m & kinds[MOUNTAIN])
                      - _popcount(m & kinds[SWAMP]))
        elif k[c] == GOBLINS:
            total += (GOBLIN_SWAMP * _popcount(orth[c] & kinds[SWAMP])
                      - 2 * _popcount(m & (kinds[HUMANS] | kinds[ELVES] | kinds[DWARVES])))
        elif k[c] == DRAGON:
            if max(_popcount(m & kinds[HUMANS]), _popcount(m & kinds[ELVES]), _popcount(m & kinds[DWARVES])) >= 2:
                tamed += 1
    n_dragons = _popcount(kinds[DRAGON])
    value = DRAGON_VALUE[min(n_dragons, 3)]
    counted = min(tamed, 3)
    return total + value * counted - value * (n_dragons - counted)


def _check_kingdom(kingdom: Sequence[int], name: str) -> list[int]:
    if len(kingdom) != CELLS:
        raise ValueError(f"{name}: expected 16 card codes")
    codes = [int(k) for k in kingdom]
    if any(not 0 <= k < KINDS for k in codes):
        raise ValueError(f"{name}: expected card codes 0..9")
    return codes


def kingdom_value(kingdom: Sequence[int]) -> int:
    """The board total of a complete kingdom (16 codes 0..9)."""
    return _board_total(_check_kingdom(kingdom, "kingdom"))


# -- local search -------------------------------------------------------------------------------

def _climb(k: list[int], movable: list[int], value: int) -> int:
    """Best-improvement swaps of two movable cells until no swap raises the total."""
    while True:
        best_value, best_pair = value, None
        for i, a in enumerate(movable):
            for b in movable[i + 1:]:
                if k[a] == k[b]:
                    continue
                k[a], k[b] = k[b], k[a]
                v = _board_total(k)
                k[a], k[b] = k[b], k[a]
                if v > best_value:
                    best_value, best_pair = v, (a, b)
        if best_pair is None:
            return value
        a, b = best_pair
        k[a], k[b] = k[b], k[a]
        value = best_value


def local_search(kingdom: Sequence[int], locked: Sequence[int], seed: int, rounds: int, out: np.ndarray) -> int:
    """Iterated local search from ``kingdom``: swaps of unlocked cells, ``rounds`` kicks; the best total.

    ``out`` receives the best kingdom found (never worse than ``kingdom``).
    """
    cur = _check_kingdom(kingdom, "kingdom")
    if len(locked) != CELLS or len(out) != CELLS:
        raise ValueError("local_search: locked and out must have 16 entries")
    if rounds < 0:
        raise ValueError("local_search: rounds must be at least 0")
    rng = SplitMix64(stream_seed(int(seed) & MASK64, 0))
    movable = [c for c in range(CELLS) if not locked[c]]
    best_kingdom = list(cur)
    best = value = _board_total(cur)
    for _ in range(rounds):
        value = _climb(cur, movable, value)
        if value > best:
            best, best_kingdom = value, list(cur)
        cur = list(best_kingdom)
        if len(movable) < 2:
            break
        for _kick in range(2 + rng.below_mod(3)):
            for _try in range(8):
                a = movable[rng.below_mod(len(movable))]
                b = movable[rng.below_mod(len(movable))]
                if cur[a] != cur[b]:
                    cur[a], cur[b] = cur[b], cur[a]
                    break
        value = _board_total(cur)
    out[:] = best_kingdom
    return best


# -- exact search over one Portal layout --------------------------------------------------------

def _hungarian_max(profit: list[list[int]]) -> tuple[int, list[int]]:
    """Maximum-profit assignment of a square matrix: (total, column of each row); e-maxx's method."""
    n = len(profit)
    u = [0] * (n + 1)
    v = [0] * (n + 1)
    p = [0] * (n + 1)
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [BIG] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = p[j0], BIG, 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = -profit[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    assign = [0] * n
    total = 0
    for j in range(1, n + 1):
        assign[p[j] - 1] = j - 1
        total += profit[p[j] - 1][j - 1]
    return total, assign


KEY_SHIFT = 16             # a best value is a key: board total << KEY_SHIFT | priority (ties: higher priority)
INCUMBENT_PRIORITY = 65535


def _make_key(total: int, priority: int) -> int:
    return (total << KEY_SHIFT) | priority


class _Stop(Exception):
    pass


class _Search:
    """The state of one branch-and-bound (mirrors the kernel's ``Search`` struct)."""

    def __init__(self, layout: Sequence[int], counts: Sequence[int]) -> None:
        if any(int(n) < 0 for n in counts):
            raise ValueError(f"search: {_SETUP_PROBLEMS[1]}")
        if int(counts[PORTAL]) != 0:
            raise ValueError(f"search: {_SETUP_PROBLEMS[2]}")
        if any(not 0 <= int(code) <= FREE for code in layout):
            raise ValueError(f"search: {_SETUP_PROBLEMS[3]}")
        self.rem = [int(n) for n in counts]
        self.mask = [0] * KINDS
        self.kind = [-1] * CELLS
        self.undecided = 0
        for c in range(CELLS):
            code = int(layout[c])
            if code == FREE:
                self.undecided |= 1 << c
            else:
                self.kind[c] = code
                self.mask[code] |= 1 << c
        if _popcount(self.undecided) != sum(self.rem):
            raise ValueError(f"search: {_SETUP_PROBLEMS[4]}")
        portals = self.mask[PORTAL]
        orth, conn = _connect(portals)
        self.orth = [m & ~portals for m in orth]
        self.conn = [m & ~portals for m in conn]
        self.conflicts = 0
        for c in range(CELLS):
            if HUMANS <= self.kind[c] <= GOBLINS:
                for kind in range(HUMANS, DRAGON):
                    self.conflicts += PAIR[self.kind[c]][kind] * _popcount(self.conn[c] & self.mask[kind])
        self.conflicts //= 2
        self.n_dragons = self.rem[DRAGON] + _popcount(self.mask[DRAGON])
        self.dragon_value = DRAGON_VALUE[min(self.n_dragons, 3)]
        self.nodes = 0
        self.node_limit = 0
        self.deadline = 0.0
        self.stop = False
        self.control: np.ndarray | None = None
        self.live = False
        self.out: np.ndarray | None = None
        self.found = False
        self.best = -BIG
        self.best_kingdom = [0] * CELLS
        self.symmetries: list[list[int]] = []
        self.priority = 0                       # this layout's priority: a tie goes to the higher
        self.key = _make_key(-BIG, 0)           # the best value known (see _make_key)
        self.on_record: Any = None              # search_layouts: told of every better kingdom
        # Tribes with more free copies first (ties: Humans, Elves, Dwarves, Goblins)
        self.order = sorted(TRIBE_ORDER, key=lambda t: -self.rem[t])
        self.sym_kind = next((t for t in self.order if self.rem[t] > 0), -1)

    # -- bound ---------------------------------------------------------------------------------
    def maybe_tamed(self, cell: int) -> bool:
        """Can a Dragon on ``cell`` still end up connected to two Tribes of one kind (AE-7)?"""
        around = self.conn[cell]
        open_slots = _popcount(around & self.undecided & ~(1 << cell))
        return any(_popcount(around & self.mask[kind]) + min(open_slots, self.rem[kind]) >= 2
                   for kind in (HUMANS, ELVES, DWARVES))

    def tribe_potential(self, tribe: int, cell: int) -> int:
        """Most points a Tribe still to place can bring from ``cell``.

        Exact with the cards already there; each free neighbour gets the best card still in hand,
        counts respected: a Terrain valued for this Tribe alone, a Tribe still to place for half of
        the conflict (the other half goes to that Tribe's own potential), a Dragon for nothing.
        """
        around = self.conn[cell]
        slots = around & self.undecided & ~(1 << cell)
        n_slots = _popcount(slots)
        value = sum(PAIR[tribe][kind] * _popcount(around & self.mask[kind])
                    for kind in (PLAINS, FOREST, MOUNTAIN, SWAMP, HUMANS, ELVES, DWARVES, GOBLINS))
        if tribe == GOBLINS:
            value += GOBLIN_SWAMP * _popcount(self.orth[cell] & self.mask[SWAMP])
        avail = self.rem[:DRAGON + 1]
        avail[tribe] -= 1
        # half of a conflict: int(-2 / 2) == -1, like C's truncating division
        slot_value = [int(PAIR[tribe][kind] / 2) if HUMANS <= kind <= GOBLINS else PAIR[tribe][kind]
                      for kind in range(DRAGON + 1)]
        if tribe == GOBLINS:
            take = min(_popcount(self.orth[cell] & slots), avail[SWAMP])
            value += GOBLIN_SWAMP * take
            avail[SWAMP] -= take
            n_slots -= take
        while n_slots > 0:
            best_kind = -1
            for kind in range(DRAGON + 1):
                if avail[kind] > 0 and (best_kind < 0 or slot_value[kind] > slot_value[best_kind]):
                    best_kind = kind
            if best_kind < 0:
                break
            take = min(n_slots, avail[best_kind])
            value += take * slot_value[best_kind]
            avail[best_kind] -= take
            n_slots -= take
        return value

    def node_bound(self) -> tuple[int, list[int], list[int], list[int]]:
        """Upper bound on every completion (exact once all Tribes are placed), with the assignment."""
        self.nodes += 1
        value = self.conflicts
        for kind in (PLAINS, FOREST, MOUNTAIN, SWAMP):
            for cell in _cells(self.mask[kind]):
                around = self.conn[cell]
                value += sum(PAIR[j][kind] * _popcount(around & self.mask[j]) for j in (HUMANS, ELVES, DWARVES, GOBLINS))
                if kind == SWAMP:
                    value += GOBLIN_SWAMP * _popcount(self.orth[cell] & self.mask[GOBLINS])
        fixed_tamed = min(3, sum(1 for cell in _cells(self.mask[DRAGON]) if self.maybe_tamed(cell)))
        value += self.dragon_value * (2 * fixed_tamed - self.n_dragons)
        tamable_dragons = min(self.rem[DRAGON], 3 - fixed_tamed)
        columns = []
        for kind in range(KINDS):
            for j in range(self.rem[kind]):
                columns.append(DRAGON + 1 if kind == DRAGON and j >= tamable_dragons else kind)
        rows = _cells(self.undecided)
        profit = []
        for cell in rows:
            around = self.conn[cell]
            terrain = [sum(PAIR[j][kind] * _popcount(around & self.mask[j]) for j in (HUMANS, ELVES, DWARVES, GOBLINS))
                       for kind in (PLAINS, FOREST, MOUNTAIN, SWAMP)]
            terrain[SWAMP] += GOBLIN_SWAMP * _popcount(self.orth[cell] & self.mask[GOBLINS])
            dragon_profit = 2 * self.dragon_value if self.maybe_tamed(cell) else 0
            potential: dict[int, int] = {}
            row = []
            for kind in columns:
                if kind <= SWAMP:
                    row.append(terrain[kind])
                elif kind == DRAGON:
                    row.append(dragon_profit)
                elif kind == DRAGON + 1:
                    row.append(0)
                else:
                    if kind not in potential:
                        potential[kind] = self.tribe_potential(kind, cell)
                    row.append(potential[kind])
            profit.append(row)
        if not rows:
            return value, rows, columns, []
        total, assign = _hungarian_max(profit)
        return value + total, rows, columns, assign

    # -- branching -----------------------------------------------------------------------------
    def place(self, tribe: int, cell: int) -> None:
        for kind in (HUMANS, ELVES, DWARVES, GOBLINS):
            self.conflicts += PAIR[tribe][kind] * _popcount(self.conn[cell] & self.mask[kind])
        self.kind[cell] = tribe
        self.mask[tribe] |= 1 << cell
        self.undecided &= ~(1 << cell)
        self.rem[tribe] -= 1

    def unplace(self, tribe: int, cell: int) -> None:
        self.rem[tribe] += 1
        self.undecided |= 1 << cell
        self.mask[tribe] &= ~(1 << cell)
        self.kind[cell] = -1
        for kind in (HUMANS, ELVES, DWARVES, GOBLINS):
            self.conflicts -= PAIR[tribe][kind] * _popcount(self.conn[cell] & self.mask[kind])

    def canonical(self, m: int) -> bool:
        """Is ``m`` the smallest of its images under the layout's symmetries?"""
        for image in self.symmetries:
            if sum(1 << image[c] for c in _cells(m)) < m:
                return False
        return True

    def check_limits(self) -> None:
        if self.node_limit > 0 and self.nodes >= self.node_limit:
            self.stop = True
        elif (self.nodes & 255) == 0:  # a poll every 256 bound evaluations
            if self.control is not None:
                if self.live:
                    self.control[CONTROL_NODES] = self.nodes
                if self.control[CONTROL_STOP] != 0:
                    self.stop = True
                    return
            if self.deadline > 0 and time.monotonic() >= self.deadline:
                self.stop = True

    def beats(self, total: int) -> bool:
        """Can a kingdom of ``total`` from this layout replace the best known (a tie goes to the higher priority)?"""
        return _make_key(total, self.priority) > self.key

    def record_leaf(self, value: int, rows: list[int], columns: list[int], assign: list[int]) -> None:
        self.best = value
        self.key = _make_key(value, self.priority)
        self.found = True
        self.best_kingdom = [k & 0xFF for k in self.kind]
        for i, cell in enumerate(rows):
            kind = columns[assign[i]]
            self.best_kingdom[cell] = DRAGON if kind > DRAGON else kind
        if self.on_record is not None:
            self.on_record(self.key, self.best_kingdom)
        elif self.live:  # the kernel's published kingdom: control[3] odd while out is written
            self.control[CONTROL_SEQUENCE] += 1
            self.out[:] = self.best_kingdom
            self.control[CONTROL_BEST] = value
            self.control[CONTROL_SEQUENCE] += 1

    def dfs(self, order_index: int, start: int, open_bound: list[int]) -> bool:
        """Place the remaining Tribes; True when stopped before the subtree was finished."""
        while order_index < 4 and self.rem[self.order[order_index]] == 0:
            if self.order[order_index] == self.sym_kind and not self.canonical(self.mask[self.sym_kind]):
                return False
            order_index += 1
            start = 0
        if order_index == 4:
            value, rows, columns, assign = self.node_bound()
            self.check_limits()
            if self.beats(value):
                self.record_leaf(value, rows, columns, assign)
            return self.stop
        tribe = self.order[order_index]
        children: list[tuple[int, int]] = []  # (bound, cell), best bound first, ties in cell order
        for cell in _cells(self.undecided & ~((1 << start) - 1)):
            self.place(tribe, cell)
            b = self.node_bound()[0]
            self.unplace(tribe, cell)
            self.check_limits()
            if self.stop:
                return True
            if self.beats(b):
                i = len(children)
                while i > 0 and children[i - 1][0] < b:
                    i -= 1
                children.insert(i, (b, cell))
        for b, cell in children:
            if not self.beats(b):
                break
            self.place(tribe, cell)
            if self.dfs(order_index, cell + 1, open_bound):
                self.unplace(tribe, cell)
                open_bound[0] = max(open_bound[0], b)
                return True
            self.unplace(tribe, cell)
        return False


def _check_layout(layout: Sequence[int], counts: Sequence[int], name: str) -> None:
    if len(layout) != CELLS or len(counts) != KINDS:
        raise ValueError(f"{name}: expected 16 layout codes and 10 counts")


def layout_bound(layout: Sequence[int], counts: Sequence[int]) -> int:
    """Upper bound on the board total of every filling of ``layout`` (code 10 = free) with ``counts``."""
    _check_layout(layout, counts, "layout_bound")
    try:
        search = _Search(layout, counts)
    except ValueError as exc:
        raise ValueError(str(exc).replace("search:", "layout_bound:")) from None
    return search.node_bound()[0]


def search_layout(layout: Sequence[int], counts: Sequence[int], symmetries: np.ndarray, incumbent: int,
                  node_limit: int, seconds: float, out: np.ndarray, stats: np.ndarray,
                  control: np.ndarray | None = None) -> int:
    """Exact branch-and-bound over the fillings of one layout, looking for a total above ``incumbent``.

    See the kernel's docstring: ``stats`` = [nodes, complete (0/1), proven bound (max with
    ``incumbent``), found (0/1)]; ``out`` receives the kingdom when one was found; ``control`` (1 or 4
    entries) is polled for a stop and, with 4, receives the progress (nodes, best total, sequence).
    """
    if len(layout) != CELLS or len(counts) != KINDS or len(out) != CELLS or len(stats) != 4:
        raise ValueError("search_layout: expected 16 layout codes, 10 counts, 16 out cells and 4 stats")
    symmetries = np.asarray(symmetries)
    if symmetries.shape[0] > 8 or (symmetries.shape[0] > 0 and symmetries.shape[1] != CELLS):
        raise ValueError("search_layout: expected at most 8 symmetries of 16 cells")
    if control is not None and len(control) not in (1, 4):
        raise ValueError("search_layout: control must have 1 or 4 entries")
    try:
        search = _Search(layout, counts)
    except ValueError as exc:
        raise ValueError(str(exc).replace("search:", "search_layout:")) from None
    for image in symmetries:
        if any(not 0 <= int(c) < CELLS for c in image):
            raise ValueError("search_layout: symmetry images must be cells 0..15")
        search.symmetries.append([int(c) for c in image])
    search.best = int(incumbent)
    search.key = _make_key(int(incumbent), 1)   # the incumbent wins a tie: only a better total replaces it
    search.node_limit = int(node_limit)
    if control is not None:
        search.control, search.live, search.out = control, len(control) == 4, out
        if search.live:
            control[CONTROL_NODES] = 0
            control[CONTROL_BEST] = int(incumbent)
    search.deadline = time.monotonic() + seconds if seconds > 0 else 0.0
    open_bound = [-BIG]
    root = search.node_bound()[0]
    if search.beats(root) and search.dfs(0, 0, open_bound) and open_bound[0] == -BIG:
        open_bound[0] = root
    stats[0] = search.nodes
    if search.live:
        control[CONTROL_NODES] = search.nodes
    stats[1] = 0 if search.stop else 1
    stats[2] = search.best if not search.stop or open_bound[0] < search.best else open_bound[0]
    stats[3] = 1 if search.found else 0
    if search.found:
        out[:] = search.best_kingdom
    return search.best


def search_layouts(layouts: np.ndarray, counts: Sequence[int], symmetries: np.ndarray, n_symmetries: Sequence[int],
                   incumbent: int, seconds: float, threads: int, out: np.ndarray, stats: np.ndarray,
                   control: np.ndarray | None = None) -> int:
    """The layouts searched one after another, each from the best value so far (the kernel's result with any
    number of threads; its ``stats`` with one). See the kernel's docstring: a tie between two kingdoms goes to
    the earlier layout, the incumbent before them all."""
    layouts, symmetries = np.asarray(layouts), np.asarray(symmetries)
    n = layouts.shape[0]
    if layouts.ndim != 2 or layouts.shape[1] != CELLS or len(counts) != KINDS or len(out) != CELLS:
        raise ValueError("search_layouts: expected layouts (n, 16), 10 counts and 16 out cells")
    if symmetries.shape != (n, 8, CELLS) or len(n_symmetries) != n or np.asarray(stats).shape != (n, 4):
        raise ValueError("search_layouts: expected symmetries (n, 8, 16), n_symmetries (n) and stats (n, 4)")
    if control is not None and len(control) not in (1, 4):
        raise ValueError("search_layouts: control must have 1 or 4 entries")
    if not 1 <= threads <= 64:
        raise ValueError("search_layouts: threads must be 1..64")
    searches = []
    for i in range(n):
        try:
            searches.append(_Search(layouts[i], counts))
        except ValueError as exc:
            raise ValueError(str(exc).replace("search:", f"search_layouts: layouts[{i}]:")) from None
        if not 0 <= int(n_symmetries[i]) <= 8:
            raise ValueError("search_layouts: n_symmetries must be 0..8")
        for image in symmetries[i, :int(n_symmetries[i])]:
            if any(not 0 <= int(c) < CELLS for c in image):
                raise ValueError("search_layouts: symmetry images must be cells 0..15")
            searches[i].symmetries.append([int(c) for c in image])
    best_key = [_make_key(int(incumbent), INCUMBENT_PRIORITY)]
    found: list[list[int]] = []
    nodes = 0
    live = control is not None and len(control) == 4

    def offer(key: int, kingdom: list[int]) -> None:
        if key > best_key[0]:
            best_key[0] = key
            found[:] = [list(kingdom)]
            if live:
                control[CONTROL_SEQUENCE] += 1
                out[:] = kingdom
                control[CONTROL_BEST] = key >> KEY_SHIFT
                control[CONTROL_SEQUENCE] += 1

    if live:
        control[CONTROL_NODES] = 0
        control[CONTROL_BEST] = int(incumbent)
    deadline = time.monotonic() + seconds if seconds > 0 else 0.0
    for i, search in enumerate(searches):
        if (control is not None and control[CONTROL_STOP] != 0) or (deadline and time.monotonic() >= deadline):
            stats[i] = [0, 0, BIG, 0]
            continue
        search.priority = INCUMBENT_PRIORITY - 1 - i
        search.key = best_key[0]
        search.best = best_key[0] >> KEY_SHIFT
        search.deadline = deadline
        search.control = control
        search.on_record = offer
        open_bound = [-BIG]
        root = search.node_bound()[0]
        search.check_limits()
        if search.beats(root) and not search.stop:
            if search.dfs(0, 0, open_bound) and open_bound[0] == -BIG:
                open_bound[0] = root
        elif search.stop and search.beats(root):
            open_bound[0] = root
        nodes += search.nodes
        if live:
            control[CONTROL_NODES] = nodes
        best = best_key[0] >> KEY_SHIFT
        stats[i] = [search.nodes, 0 if search.stop else 1,
                    best if not search.stop or open_bound[0] < best else open_bound[0], 1 if search.found else 0]
    if found:
        out[:] = found[0]
    return best_key[0] >> KEY_SHIFT
