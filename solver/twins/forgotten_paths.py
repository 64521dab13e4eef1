"""Pure-Python twin of ``src/forgotten_paths.pxi``: Forgotten paths, routes, Erasure odds and route cuts.

Same functions, same signatures, same results as ``solver.kernels.forgotten``, written
with coordinates and breadth-first search instead of bitboards so that it doubles as an
independent statement of the path rule (``docs/rules/forgotten.md``, FG-5):

* a path is a sequence of cells of the given set, consecutive cells orthogonally adjacent;
* its first cell touches the first Brain and its last cell the second Brain, where touching
  includes the diagonals (the one exception to "no diagonals");
* Brain cells are never part of a path.

Cells are bits of an integer mask: cell ``(x, y)`` is bit ``(y-1)*width + (x-1)``.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Sequence

import numpy as np

DOWN, UP, REMOVED = 1, 2, 3


def _check(width: int, height: int, brain_a: int, brain_b: int) -> None:
    cells = width * height
    if width < 3 or height < 3 or cells > 64 or not (0 <= brain_a < cells and 0 <= brain_b < cells) \
            or brain_a == brain_b:
        raise ValueError(f"bad board: {width}x{height} with Brains at cells {brain_a} and {brain_b}")


def _orthogonal(cell: int, width: int, height: int) -> list[int]:
    x, y = cell % width, cell // width
    return [ny * width + nx for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
            if 0 <= nx < width and 0 <= ny < height]


def _touching(cell: int, width: int, height: int) -> set[int]:
    x, y = cell % width, cell // width
    return {(y + dy) * width + x + dx for dx in (-1, 0, 1) for dy in (-1, 0, 1)
            if (dx or dy) and 0 <= x + dx < width and 0 <= y + dy < height}


def _cells(mask: int, width: int, height: int, brain_a: int, brain_b: int) -> set[int]:
    return {c for c in range(width * height) if mask >> c & 1 and c not in (brain_a, brain_b)}


def _ends(width: int, height: int, brain_a: int, brain_b: int) -> tuple[set[int], set[int]]:
    brains = {brain_a, brain_b}
    return _touching(brain_a, width, height) - brains, _touching(brain_b, width, height) - brains


def path_exists(width: int, height: int, brain_a: int, brain_b: int, cells: int) -> bool:
    """True when ``cells`` hold a Brain-to-Brain path."""
    _check(width, height, brain_a, brain_b)
    inside = _cells(int(cells), width, height, brain_a, brain_b)
    starts, goals = _ends(width, height, brain_a, brain_b)
    queue = deque(c for c in starts if c in inside)
    seen = set(queue)
    while queue:
        cell = queue.popleft()
        if cell in goals:
            return True
        for n in _orthogonal(cell, width, height):
            if n in inside and n not in seen:
                seen.add(n)
                queue.append(n)
    return False


def path_exists_batch(width: int, height: int, brain_a: int, brain_b: int, masks: np.ndarray,
                      out: np.ndarray) -> None:
    """``out[i] = path_exists(..., masks[i])`` for every mask (uint64 in, uint8 out)."""
    if out.shape[0] != masks.shape[0]:
        raise ValueError("path_exists_batch: out must have one entry per mask")
    for i in range(masks.shape[0]):
        out[i] = path_exists(width, height, brain_a, brain_b, int(masks[i]))


def _cheapest(width: int, height: int, brain_a: int, brain_b: int, cost: dict[int, int],
              reverse: bool = False) -> dict[int, int]:
    """Dijkstra from one Brain: the cheapest cost of reaching each cell, its own cost included."""
    starts, goals = _ends(width, height, brain_a, brain_b)
    if reverse:
        starts = goals
    best: dict[int, int] = {}
    heap = [(cost[c], c) for c in starts if c in cost]
    heapq.heapify(heap)
    while heap:
        d, cell = heapq.heappop(heap)
        if cell in best:
            continue
        best[cell] = d
        for n in _orthogonal(cell, width, height):
            if n in cost and n not in best:
                heapq.heappush(heap, (d + cost[n], n))
    return best


def missing_tiles(width: int, height: int, brain_a: int, brain_b: int, up: int, usable: int) -> int:
    """Fewest cells of ``usable`` not yet in ``up`` on a Brain-to-Brain path (-1 when there is none)."""
    _check(width, height, brain_a, brain_b)
    up_cells = _cells(int(up), width, height, brain_a, brain_b)
    cost = {c: 1 for c in _cells(int(usable), width, height, brain_a, brain_b)}
    cost.update({c: 0 for c in up_cells})
    best = _cheapest(width, height, brain_a, brain_b, cost)
    _, goals = _ends(width, height, brain_a, brain_b)
    reached = [best[c] for c in goals if c in best]
    return min(reached) if reached else -1


def missing_tiles_batch(width: int, height: int, brain_a: int, brain_b: int, up: np.ndarray,
                        usable: np.ndarray, out: np.ndarray) -> None:
    """``out[i] = missing_tiles(..., up[i], usable[i])``."""
    if usable.shape[0] != up.shape[0] or out.shape[0] != up.shape[0]:
        raise ValueError("missing_tiles_batch: up, usable and out must have the same length")
    for i in range(up.shape[0]):
        out[i] = missing_tiles(width, height, brain_a, brain_b, int(up[i]), int(usable[i]))


def _both_ways(width: int, height: int, brain_a: int, brain_b: int, c0: int, c1: int, c2: int,
               c3: int) -> tuple[dict[int, int], dict[int, int], dict[int, int], int]:
    """``(cost, forward, backward, best)``: each usable cell's cost (a cell in several masks takes the lowest),
    the cheapest cost of reaching each cell from either end (its own cost included), and the cheapest
    Brain-to-Brain route's cost (-1 if none)."""
    cost: dict[int, int] = {}
    for weight, mask in ((3, c3), (2, c2), (1, c1), (0, c0)):
        for c in _cells(int(mask), width, height, brain_a, brain_b):
            cost[c] = weight
    forward = _cheapest(width, height, brain_a, brain_b, cost)
    backward = _cheapest(width, height, brain_a, brain_b, cost, reverse=True)
    _, goals = _ends(width, height, brain_a, brain_b)
    reached = [forward[c] for c in goals if c in forward]
    return cost, forward, backward, min(reached) if reached else -1


def route(width: int, height: int, brain_a: int, brain_b: int, c0: int, c1: int, c2: int,
          c3: int) -> tuple[int, int]:
    """``(cost, mask)``: the cheapest Brain-to-Brain route when a cell of ``c<w>`` costs ``w`` (a cell in
    several masks takes the lowest cost) and the cells lying on some cheapest route; ``(-1, 0)`` if none."""
    _check(width, height, brain_a, brain_b)
    cost, forward, backward, best = _both_ways(width, height, brain_a, brain_b, c0, c1, c2, c3)
    if best < 0:
        return -1, 0
    on_route = [c for c in cost if c in forward and c in backward and forward[c] + backward[c] - cost[c] == best]
    return best, sum(1 << c for c in on_route)


def route_costs(width: int, height: int, brain_a: int, brain_b: int, c0: int, c1: int, c2: int, c3: int,
                out: np.ndarray) -> int:
    """``out[c]`` = cost of the cheapest Brain-to-Brain route through cell ``c`` (-1 when none passes there),
    where a cell of ``c<w>`` costs ``w`` (its own cost included); returns the cheapest route's cost (-1 if none)."""
    _check(width, height, brain_a, brain_b)
    if out.shape[0] != width * height:
        raise ValueError("route_costs: out needs one entry per cell")
    cost, forward, backward, best = _both_ways(width, height, brain_a, brain_b, c0, c1, c2, c3)
    for c in range(width * height):
        out[c] = forward[c] + backward[c] - cost[c] if c in forward and c in backward else -1
    return best


def erasure_odds(width: int, height: int, brain_a: int, brain_b: int, status: Sequence[int],
                 partner: Sequence[int], goal: int) -> tuple[int, int]:
    """``(losing, critical)``: how many of the ``width*height`` equally likely Erasure rolls would lose the
    game (no route left through face-up tiles and face-down tiles whose partner is still on the board;
    with ``goal`` 1, "clear the board", any tile left without its partner), and the mask of those cells.
    ``partner[c]`` is the cell holding the other tile of the pair on ``c`` (-1 for no tile)."""
    _check(width, height, brain_a, brain_b)
    cells = width * height
    if len(status) != cells or len(partner) != cells:
        raise ValueError("erasure_odds: status and partner need one entry per cell")
    if goal not in (0, 1):
        raise ValueError("erasure_odds: goal must be 0 (path) or 1 (clear)")
    status = [int(s) for s in status]
    partner = [int(p) for p in partner]
    for c in range(cells):
        if not 0 <= status[c] <= 3 or not -1 <= partner[c] < cells:
            raise ValueError(f"erasure_odds: bad status or partner at cell {c}")

    def lost_after(roll: int) -> bool:
        after = list(status)
        if after[roll] in (DOWN, UP):
            after[roll] = REMOVED
        matchable = {c for c in range(cells) if after[c] == DOWN and partner[c] >= 0 and after[partner[c]] == DOWN}
        if goal == 1:
            return any(after[c] == DOWN and c not in matchable for c in range(cells))
        usable = matchable | {c for c in range(cells) if after[c] == UP}
        return not path_exists(width, height, brain_a, brain_b, sum(1 << c for c in usable))

    losing = [c for c in range(cells) if lost_after(c)]
    return len(losing), sum(1 << c for c in losing)


def unseen_cut(width: int, height: int, brain_a: int, brain_b: int, avail: int, unseen: int,
               most: int) -> tuple[int, int]:
    """``(size, cut)``: the fewest cells of ``unseen`` whose removal leaves no Brain-to-Brain path through
    ``avail``, as a mask, and how many they are; ``(-1, 0)`` when that takes more than ``most`` cells or cannot
    be done (a path through cells of ``avail`` outside ``unseen``). The cut is the one nearest the first Brain
    (a minimum vertex cut by max flow; of all the fewest, the one whose cells a path from the first Brain
    reaches while avoiding the others), so it does not depend on how the flow was found."""
    _check(width, height, brain_a, brain_b)
    if most < 0:
        raise ValueError(f"unseen_cut: most must be 0 or more, not {most}")
    inside = _cells(int(avail), width, height, brain_a, brain_b)
    may_die = _cells(int(unseen), width, height, brain_a, brain_b)
    starts, goals = _ends(width, height, brain_a, brain_b)
    # Each cell is an in-node ("in", c) and an out-node ("out", c), joined by capacity 1 when it may die and
    # without bound otherwise; a step goes from a cell's out-node to its neighbour's in-node.
    residual: dict[object, dict[object, float]] = {}

    def link(a: object, b: object, capacity: float) -> None:
        residual.setdefault(a, {})[b] = residual.get(a, {}).get(b, 0) + capacity
        residual.setdefault(b, {}).setdefault(a, 0)

    for c in inside:
        link(("in", c), ("out", c), 1 if c in may_die else math.inf)
        if c in starts:
            link("source", ("in", c), math.inf)
        if c in goals:
            link(("out", c), "sink", math.inf)
        for n in _orthogonal(c, width, height):
            if n in inside:
                link(("out", c), ("in", n), math.inf)
    size = 0
    while True:
        came_from: dict[object, object] = {"source": None}
        queue = deque(["source"])
        while queue and "sink" not in came_from:
            node = queue.popleft()
            for nxt, capacity in residual.get(node, {}).items():
                if capacity > 0 and nxt not in came_from:
                    came_from[nxt] = node
                    queue.append(nxt)
        if "sink" not in came_from:
            break
        path = ["sink"]
        while came_from[path[-1]] is not None:
            path.append(came_from[path[-1]])
        push = min(residual[a][b] for b, a in zip(path, path[1:]))
        if push == math.inf:
            return -1, 0
        for b, a in zip(path, path[1:]):
            residual[a][b] -= push
            residual[b][a] += push
        size += push
        if size > most:
            return -1, 0
    cut = [c for c in may_die if ("in", c) in came_from and ("out", c) not in came_from]
    return size, sum(1 << c for c in cut)
