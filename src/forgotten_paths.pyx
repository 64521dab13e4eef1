# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Forgotten path kernel (compiled): Brain-to-Brain path existence, the fewest missing tiles on a
route, cheapest weighted routes, and the odds that the next Erasure roll cuts every route.

Twin: ``solver/twins/forgotten_paths.py`` (same functions, same results).
Cells are bits of a 64-bit mask: cell ``(x, y)`` is bit ``(y-1)*width + (x-1)``. A path runs
through cells of the given mask with orthogonal steps, except that its first cell may be
diagonal to the first Brain and its last cell diagonal to the second (rules FG-5).
Cell status codes: 0 no tile (Brain or empty), 1 face down, 2 face up, 3 removed.
"""

from libc.stdint cimport uint64_t, uint8_t, int8_t, int32_t
from forgotten_bits cimport (Geometry, make_geometry, connected, missing_count, best_route, through_costs, bit, spread,
                             FAR)


cdef Geometry geometry(int width, int height, int brain_a, int brain_b) except *:
    cdef Geometry g
    if make_geometry(&g, width, height, brain_a, brain_b) != 0:
        raise ValueError(f"bad board: {width}x{height} with Brains at cells {brain_a} and {brain_b}")
    return g


def path_exists(int width, int height, int brain_a, int brain_b, uint64_t cells):
    """True when ``cells`` hold a Brain-to-Brain path."""
    cdef Geometry g = geometry(width, height, brain_a, brain_b)
    return bool(connected(&g, cells & g.full))


def path_exists_batch(int width, int height, int brain_a, int brain_b, const uint64_t[::1] masks,
                      uint8_t[::1] out):
    """``out[i] = path_exists(..., masks[i])`` for every mask (uint64 in, uint8 out)."""
    cdef Geometry g = geometry(width, height, brain_a, brain_b)
    cdef Py_ssize_t i, n = masks.shape[0]
    if out.shape[0] != n:
        raise ValueError("path_exists_batch: out must have one entry per mask")
    with nogil:
        for i in range(n):
            out[i] = connected(&g, masks[i] & g.full)


def missing_tiles(int width, int height, int brain_a, int brain_b, uint64_t up, uint64_t usable):
    """Fewest cells of ``usable`` not yet in ``up`` on a Brain-to-Brain path (-1 when there is none)."""
    cdef Geometry g = geometry(width, height, brain_a, brain_b)
    return missing_count(&g, up & g.full, usable & g.full)


def missing_tiles_batch(int width, int height, int brain_a, int brain_b, const uint64_t[::1] up,
                        const uint64_t[::1] usable, int32_t[::1] out):
    """``out[i] = missing_tiles(..., up[i], usable[i])``."""
    cdef Geometry g = geometry(width, height, brain_a, brain_b)
    cdef Py_ssize_t i, n = up.shape[0]
    if usable.shape[0] != n or out.shape[0] != n:
        raise ValueError("missing_tiles_batch: up, usable and out must have the same length")
    with nogil:
        for i in range(n):
            out[i] = missing_count(&g, up[i] & g.full, usable[i] & g.full)


def route(int width, int height, int brain_a, int brain_b, uint64_t c0, uint64_t c1, uint64_t c2, uint64_t c3):
    """``(cost, mask)``: the cheapest Brain-to-Brain route when a cell of ``c<w>`` costs ``w`` (a cell in
    several masks takes the lowest cost) and the cells lying on some cheapest route; ``(-1, 0)`` if none."""
    cdef Geometry g = geometry(width, height, brain_a, brain_b)
    cdef int cost = -1
    cdef uint64_t mask = best_route(&g, c0 & g.full, c1 & g.full, c2 & g.full, c3 & g.full, &cost)
    return cost, mask


def route_costs(int width, int height, int brain_a, int brain_b, uint64_t c0, uint64_t c1, uint64_t c2, uint64_t c3,
                int32_t[::1] out):
    """``out[c]`` = cost of the cheapest Brain-to-Brain route through cell ``c`` (-1 when none passes there),
    where a cell of ``c<w>`` costs ``w`` (its own cost included); returns the cheapest route's cost (-1 if none)."""
    cdef Geometry g = geometry(width, height, brain_a, brain_b)
    cdef int costs[64]
    cdef int best, c
    if out.shape[0] != g.cells:
        raise ValueError("route_costs: out needs one entry per cell")
    best = through_costs(&g, c0 & g.full, c1 & g.full, c2 & g.full, c3 & g.full, costs)
    for c in range(g.cells):
        out[c] = costs[c] if costs[c] < FAR else -1
    return best


cdef bint alive(const Geometry* g, uint64_t down, uint64_t up, uint64_t dead, int goal) noexcept nogil:
    if goal == 1:
        return (down & dead) == 0
    return connected(g, up | (down & ~dead))


def erasure_odds(int width, int height, int brain_a, int brain_b, const uint8_t[::1] status,
                 const int8_t[::1] partner, int goal):
    """``(losing, critical)``: how many of the ``width*height`` equally likely Erasure rolls would lose the
    game (no route left through face-up tiles and face-down tiles whose partner is still on the board;
    with ``goal`` 1, "clear the board", any tile left without its partner), and the mask of those cells.
    ``partner[c]`` is the cell holding the other tile of the pair on ``c`` (-1 for no tile)."""
    cdef Geometry g = geometry(width, height, brain_a, brain_b)
    cdef int c, p, losing = 0
    cdef uint64_t down = 0, up = 0, removed = 0, dead = 0, critical = 0
    cdef uint64_t d2, u2, dead2
    if status.shape[0] != g.cells or partner.shape[0] != g.cells:
        raise ValueError("erasure_odds: status and partner need one entry per cell")
    if goal != 0 and goal != 1:
        raise ValueError("erasure_odds: goal must be 0 (path) or 1 (clear)")
    for c in range(g.cells):
        if status[c] > 3 or partner[c] < -1 or partner[c] >= g.cells:
            raise ValueError(f"erasure_odds: bad status or partner at cell {c}")
        if status[c] == 1:
            down |= bit(c)
        elif status[c] == 2:
            up |= bit(c)
        elif status[c] == 3:
            removed |= bit(c)
    for c in range(g.cells):
        p = partner[c]
        if status[c] == 1 and (p < 0 or status[p] != 1):
            dead |= bit(c)
    for c in range(g.cells):
        d2 = down
        u2 = up
        dead2 = dead
        if down & bit(c):
            d2 &= ~bit(c)
            p = partner[c]
            if p >= 0:
                dead2 |= bit(p)
        elif up & bit(c):
            u2 &= ~bit(c)
        if not alive(&g, d2, u2, dead2, goal):
            losing += 1
            critical |= bit(c)
    return losing, critical
