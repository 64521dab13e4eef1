"""Forgotten path kernel (compiled): Brain-to-Brain path existence, the fewest missing tiles on a
route, cheapest weighted routes, the odds that the next Erasure roll cuts every route, and the fewest unseen
cells whose loss cuts every route (a minimum vertex cut).

Twin: ``solver/twins/forgotten_paths.py`` (same functions, same results).
Cells are bits of a 64-bit mask: cell ``(x, y)`` is bit ``(y-1)*width + (x-1)``. A path runs
through cells of the given mask with orthogonal steps, except that its first cell may be
diagonal to the first Brain and its last cell diagonal to the second (rules FG-5).
Cell status codes: 0 no tile (Brain or empty), 1 face down, 2 face up, 3 removed.
"""

from libc.stdint cimport uint64_t, uint8_t, int8_t, int32_t
from common cimport ctz64
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


cdef enum:
    CUT_NODES = 130            # an in-node and an out-node per cell, the source and the sink
    CUT_EDGES = 1024           # per cell at most 7 links (join, source, sink, 4 steps), each with its reverse
    CUT_INF = 1 << 20


cdef inline int link(int* head, int* cap, int* nxt, int* first, int n, int a, int b, int c) noexcept nogil:
    """Add the edge ``a -> b`` of capacity ``c`` (index ``n``) and its reverse (``n + 1``); the next free index."""
    head[n] = b
    cap[n] = c
    nxt[n] = first[a]
    first[a] = n
    head[n + 1] = a
    cap[n + 1] = 0
    nxt[n + 1] = first[b]
    first[b] = n + 1
    return n + 2


cdef int cut_flow(const Geometry* g, uint64_t avail, uint64_t unseen, int most, uint64_t* cut) noexcept nogil:
    cdef int head[CUT_EDGES]
    cdef int cap[CUT_EDGES]
    cdef int nxt[CUT_EDGES]
    cdef int first[CUT_NODES]
    cdef int via[CUT_NODES]
    cdef int queue[CUT_NODES]
    cdef int source = 2 * g.cells, sink = 2 * g.cells + 1
    cdef int n = 0, c, d, v, w, e, qh, qt, push, flow = 0
    cdef uint64_t steps
    for v in range(sink + 1):
        first[v] = -1
    for c in range(g.cells):
        if not (avail & bit(c)):
            continue
        n = link(head, cap, nxt, first, n, 2 * c, 2 * c + 1, 1 if unseen & bit(c) else CUT_INF)
        if g.start & bit(c):
            n = link(head, cap, nxt, first, n, source, 2 * c, CUT_INF)
        if g.goal & bit(c):
            n = link(head, cap, nxt, first, n, 2 * c + 1, sink, CUT_INF)
        steps = spread(g, bit(c)) & avail
        while steps:
            d = ctz64(steps)
            steps &= steps - 1
            n = link(head, cap, nxt, first, n, 2 * c + 1, 2 * d, CUT_INF)
    while True:
        for v in range(sink + 1):
            via[v] = -1
        via[source] = -2
        queue[0] = source
        qh = 0
        qt = 1
        while qh < qt and via[sink] == -1:
            v = queue[qh]
            qh += 1
            e = first[v]
            while e >= 0:
                w = head[e]
                if cap[e] > 0 and via[w] == -1:
                    via[w] = e
                    queue[qt] = w
                    qt += 1
                e = nxt[e]
        if via[sink] == -1:
            break
        push = CUT_INF
        w = sink
        while w != source:
            e = via[w]
            if cap[e] < push:
                push = cap[e]
            w = head[e ^ 1]
        if push >= CUT_INF:
            return -1                # a route through cells that cannot die
        w = sink
        while w != source:
            e = via[w]
            cap[e] -= push
            cap[e ^ 1] += push
            w = head[e ^ 1]
        flow += push
        if flow > most:
            return -1
    cut[0] = 0
    for c in range(g.cells):
        if via[2 * c] != -1 and via[2 * c + 1] == -1 and unseen & bit(c):
            cut[0] |= bit(c)
    return flow


def unseen_cut(int width, int height, int brain_a, int brain_b, uint64_t avail, uint64_t unseen, int most):
    """``(size, cut)``: the fewest cells of ``unseen`` whose removal leaves no Brain-to-Brain path through
    ``avail``, as a mask, and how many they are; ``(-1, 0)`` when that takes more than ``most`` cells or cannot
    be done (a path through cells of ``avail`` outside ``unseen``). The cut is the one nearest the first Brain
    (a minimum vertex cut by max flow; of all the fewest, the one whose cells a path from the first Brain
    reaches while avoiding the others), so it does not depend on how the flow was found."""
    cdef Geometry g = geometry(width, height, brain_a, brain_b)
    cdef uint64_t cut = 0
    cdef int size
    if most < 0:
        raise ValueError(f"unseen_cut: most must be 0 or more, not {most}")
    with nogil:
        size = cut_flow(&g, avail & g.full & ~g.brains, unseen & g.full & ~g.brains, most, &cut)
    if size < 0:
        return -1, 0
    return size, cut
