"""Pure-Python twin of ``src/aetherya_score.pxi``: Aetherya kingdom scoring.

Same functions, same signatures, same results as the compiled kernel
(``solver.kernels.aetherya``); written for clarity, with sets instead of
bitboards, so that it doubles as an independent statement of the rules in
``docs/rules/aetherya.md``.

A kingdom is 16 card codes, row-major from the top-left cell ``a1``:
``0 P`` Plains, ``1 F`` Forest, ``2 M`` Mountain, ``3 S`` Swamp (Marsh),
``4 H`` Humans, ``5 E`` Elves, ``6 D`` Dwarves, ``7 G`` Goblins, ``8 R`` Dragon,
``9 O`` Portal, ``10 ?`` unexplored (no card: scores nothing).

``score_one`` returns ``(elves, dwarves, humans, goblins, dragons, conflicts,
board_total, legend_mask)``; bit ``i`` of ``legend_mask`` is set when the
kingdom satisfies Legend ``i + 1`` (``solver.aetherya.cards.LEGENDS``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

PLAINS, FOREST, MOUNTAIN, SWAMP, HUMANS, ELVES, DWARVES, GOBLINS, DRAGON, PORTAL, UNEXPLORED = range(11)
SIDE = 4
CELLS = 16
OUT_COLUMNS = 8
DRAGON_VALUE = (0, 3, 5, 6)  # by number of Dragons in the kingdom, 3 or more -> 6


def _orthogonal(cell: int) -> list[int]:
    row, col = divmod(cell, SIDE)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < SIDE and 0 <= c < SIDE:
            out.append(r * SIDE + c)
    return out


def _hubs(kingdom: Sequence[int]) -> list[set[int]]:
    """Groups of orthogonally adjacent Portals."""
    portals = {c for c in range(CELLS) if kingdom[c] == PORTAL}
    hubs: list[set[int]] = []
    seen: set[int] = set()
    for start in sorted(portals):
        if start in seen:
            continue
        hub, stack = set(), [start]
        while stack:
            cell = stack.pop()
            if cell in hub:
                continue
            hub.add(cell)
            stack.extend(n for n in _orthogonal(cell) if n in portals and n not in hub)
        seen |= hub
        hubs.append(hub)
    return hubs


def _connected_sets(kingdom: Sequence[int]) -> list[set[int]]:
    linked = [set(_orthogonal(c)) for c in range(CELLS)]
    for hub in _hubs(kingdom):
        around = {n for p in hub for n in _orthogonal(p)} - hub
        for cell in around:
            linked[cell] |= around - {cell}
    return linked


def _check(kingdom: Sequence[int], field: str = "kingdom") -> list[int]:
    cards = [int(k) for k in kingdom]
    if len(cards) != CELLS or any(not 0 <= k <= UNEXPLORED for k in cards):
        raise ValueError(f"{field}: expected 16 card codes in 0..10")
    return cards


def connections(kingdom: Sequence[int]) -> list[int]:
    """For each cell, the bitmask of cells connected to it (orthogonally or through a Portal hub)."""
    kingdom = _check(kingdom)
    return [sum(1 << n for n in linked) for linked in _connected_sets(kingdom)]


def score_one(kingdom: Sequence[int]) -> tuple[int, int, int, int, int, int, int, int]:
    """The category scores, board total and satisfied-Legend mask of one kingdom."""
    cards = _check(kingdom)
    linked = _connected_sets(cards)
    ortho = [set(_orthogonal(c)) for c in range(CELLS)]

    def around(cell: int, kind: int, orthogonal_only: bool = False) -> int:
        pool = ortho[cell] if orthogonal_only else linked[cell]
        return sum(1 for n in pool if cards[n] == kind)

    def cells_of(kind: int) -> list[int]:
        return [c for c in range(CELLS) if cards[c] == kind]

    elves = sum(2 * around(e, FOREST) - around(e, SWAMP) for e in cells_of(ELVES))
    dwarves = sum(2 * around(d, MOUNTAIN) for d in cells_of(DWARVES))
    humans = sum(2 * around(h, PLAINS) + around(h, FOREST) + around(h, MOUNTAIN) - around(h, SWAMP)
                 for h in cells_of(HUMANS))
    goblins = sum(3 * around(g, SWAMP, orthogonal_only=True) for g in cells_of(GOBLINS))

    conflict_pairs = sum(around(g, HUMANS) + around(g, ELVES) + around(g, DWARVES) for g in cells_of(GOBLINS))
    conflict_pairs += sum(around(e, DWARVES) for e in cells_of(ELVES))
    conflicts = -2 * conflict_pairs

    dragon_cells = cells_of(DRAGON)
    n = len(dragon_cells)
    value = DRAGON_VALUE[min(n, 3)]
    tamed = sum(1 for r in dragon_cells if max(around(r, HUMANS), around(r, ELVES), around(r, DWARVES)) >= 2)
    counted = min(tamed, 3)
    dragons = value * counted - value * (n - counted)

    board_total = elves + dwarves + humans + goblins + dragons + conflicts
    return elves, dwarves, humans, goblins, dragons, conflicts, board_total, _legend_mask(cards, around, cells_of)


def _legend_mask(cards: list[int], around, cells_of) -> int:
    def linked_pair(a: int, b: int, orthogonal_only: bool = False) -> bool:
        return any(around(x, b, orthogonal_only) >= 1 for x in cells_of(a))

    def two_against_one(middle: int, side: int) -> bool:
        # the middle card sees two of the side kind; a Goblin in the middle sees only orthogonal neighbours
        return any(around(x, side, orthogonal_only=(middle == GOBLINS)) >= 2 for x in cells_of(middle))

    def three_linked(land: int) -> bool:
        return any(around(x, land) >= 2 for x in cells_of(land))

    checks = [
        linked_pair(HUMANS, ELVES),                                            # 1 Alliance Human-Elf
        linked_pair(HUMANS, DWARVES),                                          # 2 Alliance Human-Dwarf
        linked_pair(GOBLINS, GOBLINS, orthogonal_only=True),                   # 3 Goblins x2
        linked_pair(HUMANS, HUMANS),                                           # 4 Humans x2
        linked_pair(ELVES, ELVES),                                             # 5 Elves x2
        linked_pair(DWARVES, DWARVES),                                         # 6 Dwarves x2
        all(cells_of(k) for k in (HUMANS, ELVES, DWARVES, GOBLINS)),           # 7 The Four Tribes
        two_against_one(HUMANS, GOBLINS) or two_against_one(GOBLINS, HUMANS),  # 8 Battle Goblin/Human
        two_against_one(ELVES, GOBLINS) or two_against_one(GOBLINS, ELVES),    # 9 Battle Goblin/Elf
        two_against_one(DWARVES, GOBLINS) or two_against_one(GOBLINS, DWARVES),  # 10 Battle Goblin/Dwarf
        two_against_one(ELVES, DWARVES) or two_against_one(DWARVES, ELVES),    # 11 Battle Elf/Dwarf
        three_linked(PLAINS),                                                  # 12 3 x Plains
        three_linked(SWAMP),                                                   # 13 3 x Swamps
        three_linked(MOUNTAIN),                                                # 14 3 x Mountains
        three_linked(FOREST),                                                  # 15 3 x Forests
    ]
    return sum(1 << i for i, ok in enumerate(checks) if ok)


def simd_level() -> int:
    """The kernel's widest vector path on this CPU; the twin has none (0)."""
    return 0


def score_batch(kingdoms: np.ndarray, out: np.ndarray, level: int = -1) -> None:
    """Score ``kingdoms`` (uint8, shape (n, 16)) into ``out`` (int32, shape (n, 8)), row by row (``level``, the
    kernel's choice of vector path, changes nothing here)."""
    if kingdoms.ndim != 2 or kingdoms.shape[1] != CELLS or out.shape != (kingdoms.shape[0], OUT_COLUMNS):
        raise ValueError("score_batch: expected kingdoms (n, 16) uint8 and out (n, 8) int32")
    for row in range(kingdoms.shape[0]):
        try:
            out[row, :] = score_one(kingdoms[row])
        except ValueError:
            raise ValueError(f"kingdoms[{row}]: expected 16 card codes in 0..10") from None
