# cython: language_level=3
"""Shared inline helpers of the Forgotten kernels: board geometry on 64-bit bitboards,
Brain-to-Brain paths under the diagonal exception and weighted shortest routes (the random
stream is ``common.pxd``'s). Cell ``i`` is bit ``i``; cell ``(x, y)`` is ``(y-1)*width + (x-1)``.
Twins: ``solver/twins/forgotten_paths.py`` and ``solver/twins/forgotten_playout.py``.
"""

from libc.stdint cimport uint64_t, int64_t

from common cimport popcount64, ctz64, nth_bit

cdef enum:
    MAX_LEVELS = 200   # route costs are at most 3 per cell, 62 cells


ctypedef struct Geometry:
    int width
    int height
    int cells
    int brain_a
    int brain_b
    uint64_t full
    uint64_t brains
    uint64_t not_left
    uint64_t not_right
    uint64_t start
    uint64_t goal


cdef inline uint64_t bit(int c) noexcept nogil:
    return (<uint64_t>1) << c


cdef inline uint64_t around(int width, int height, int cell) noexcept nogil:
    """The up to 8 cells around ``cell``, diagonals included."""
    cdef int x = cell % width, y = cell // width, dx, dy, nx, ny
    cdef uint64_t m = 0
    for dy in range(-1, 2):
        for dx in range(-1, 2):
            nx = x + dx
            ny = y + dy
            if (dx != 0 or dy != 0) and 0 <= nx < width and 0 <= ny < height:
                m |= bit(ny * width + nx)
    return m


cdef inline int make_geometry(Geometry* g, int width, int height, int brain_a, int brain_b) noexcept nogil:
    """Fill ``g``; returns -1 when the sizes or Brain cells are out of range."""
    cdef int y
    if width < 3 or height < 3 or width * height > 64:
        return -1
    g.width = width
    g.height = height
    g.cells = width * height
    if brain_a < 0 or brain_b < 0 or brain_a >= g.cells or brain_b >= g.cells or brain_a == brain_b:
        return -1
    g.brain_a = brain_a
    g.brain_b = brain_b
    g.full = (<uint64_t>0xFFFFFFFFFFFFFFFF) if g.cells == 64 else (bit(g.cells) - 1)
    g.brains = bit(brain_a) | bit(brain_b)
    g.not_left = g.full
    g.not_right = g.full
    for y in range(height):
        g.not_left &= ~bit(y * width)
        g.not_right &= ~bit(y * width + width - 1)
    g.start = around(width, height, brain_a) & ~g.brains
    g.goal = around(width, height, brain_b) & ~g.brains
    return 0


cdef inline uint64_t spread(const Geometry* g, uint64_t m) noexcept nogil:
    """Cells orthogonally adjacent to a cell of ``m``."""
    return (((m << 1) & g.not_left) | ((m >> 1) & g.not_right) | (m << g.width) | (m >> g.width)) & g.full


cdef inline uint64_t closure(const Geometry* g, uint64_t seed, uint64_t cells) noexcept nogil:
    """``seed`` grown through orthogonally adjacent cells of ``cells``."""
    cdef uint64_t grown
    while True:
        grown = seed | (spread(g, seed) & cells)
        if grown == seed:
            return seed
        seed = grown


cdef inline bint connected(const Geometry* g, uint64_t cells) noexcept nogil:
    """A Brain-to-Brain path through ``cells``: orthogonal steps, diagonal off and onto a Brain."""
    cdef uint64_t reach, grown
    cells &= ~g.brains
    reach = g.start & cells
    while True:
        if reach & g.goal:
            return True
        grown = reach | (spread(g, reach) & cells)
        if grown == reach:
            return False
        reach = grown


cdef inline int missing_count(const Geometry* g, uint64_t up, uint64_t usable) noexcept nogil:
    """Fewest cells of ``usable`` that are not in ``up`` on a Brain-to-Brain path; -1 if none."""
    cdef uint64_t reach, fresh
    cdef int k = 0
    up &= ~g.brains
    usable = (usable | up) & ~g.brains
    reach = closure(g, g.start & up, up)
    while True:
        if reach & g.goal:
            return k
        fresh = (spread(g, reach) | g.start) & usable & ~reach
        if fresh == 0:
            return -1
        reach = closure(g, reach | fresh, up)
        k += 1


cdef inline int levels(const Geometry* g, const uint64_t* cls, uint64_t src, uint64_t dst,
                       uint64_t* out, int stop_at) noexcept nogil:
    """Weighted distance levels: ``out[t]`` = cells reachable from ``src`` at cost <= t, where a cell
    of ``cls[w]`` costs ``w`` (w = 0..3, the cell's own cost included). Stops at the first level
    touching ``dst`` (returned) or at ``stop_at`` when it is >= 0; -1 when ``dst`` is unreachable.
    The spreads of the last three levels are kept, so each level spreads one set."""
    cdef int t = 0
    cdef uint64_t x, s1 = 0, s2 = 0, s3 = 0
    cdef uint64_t a1 = cls[1] & src, a2 = cls[2] & src, a3 = cls[3] & src
    while t < MAX_LEVELS:
        x = out[t - 1] if t > 0 else 0
        x |= cls[0] & src
        if t >= 1:
            x |= a1 | (cls[1] & s1)
        if t >= 2:
            x |= a2 | (cls[2] & s2)
        if t >= 3:
            x |= a3 | (cls[3] & s3)
        x = closure(g, x, cls[0])
        out[t] = x
        if stop_at >= 0:
            if t == stop_at:
                return t
        else:
            if x & dst:
                return t
            if t >= 3 and x == out[t - 3]:
                return -1
        s3 = s2
        s2 = s1
        s1 = spread(g, x)
        t += 1
    return -1


cdef inline uint64_t best_route(const Geometry* g, uint64_t c0, uint64_t c1, uint64_t c2, uint64_t c3,
                                int* cost) noexcept nogil:
    """Cells on some cheapest Brain-to-Brain route when a cell of ``c<w>`` costs ``w``; ``cost[0]`` gets
    the route's cost (-1 and an empty mask when there is none)."""
    cdef uint64_t cls[4]
    cdef uint64_t fwd[MAX_LEVELS]
    cdef uint64_t bwd[MAX_LEVELS]
    cdef uint64_t route = 0, layer_a, layer_b
    cdef int best, back, t, w, tb
    cls[0] = c0 & ~g.brains
    cls[1] = c1 & ~g.brains & ~cls[0]
    cls[2] = c2 & ~g.brains & ~cls[0] & ~cls[1]
    cls[3] = c3 & ~g.brains & ~cls[0] & ~cls[1] & ~cls[2]
    best = levels(g, cls, g.start, g.goal, fwd, -1)
    cost[0] = best
    if best < 0:
        return 0
    back = levels(g, cls, g.goal, g.start, bwd, best)
    for t in range(best + 1):
        layer_a = fwd[t] & ~(fwd[t - 1] if t > 0 else 0)
        if layer_a == 0:
            continue
        for w in range(4):
            tb = best - t + w
            if tb < 0 or tb > back:
                continue
            layer_b = bwd[tb] & ~(bwd[tb - 1] if tb > 0 else 0)
            route |= layer_a & cls[w] & layer_b
    return route


cdef enum:
    FAR = 1000000      # "no route through this cell"


cdef inline void distances(const Geometry* g, const uint64_t* cls, uint64_t src, int* dist) noexcept nogil:
    """``dist[c]`` = cost of the cheapest route from ``src`` to ``c`` (both ends' costs included), where a cell of
    ``cls[w]`` costs ``w``; ``FAR`` where none. The levels of :func:`levels`, found by Dial's algorithm on bit
    masks: ``pending[d % 4]`` holds the cells first reached at cost ``d``, so a cost nothing reaches costs one
    test (early in a game most cells cost 3 and two costs in three are empty)."""
    cdef uint64_t pending[4]
    cdef uint64_t settled = 0, cur, sp, grown
    cdef uint64_t c0 = cls[0], c1 = cls[1], c2 = cls[2], c3 = cls[3]
    cdef int d = 0, c
    pending[0] = c0 & src
    pending[1] = c1 & src
    pending[2] = c2 & src
    pending[3] = c3 & src
    while True:
        cur = pending[d & 3] & ~settled
        pending[d & 3] = 0
        if cur:
            sp = spread(g, cur)
            while True:                 # cells of cost 0 next to the new ones join them
                grown = cur | (sp & c0 & ~settled)
                if grown == cur:
                    break
                cur = grown
                sp = spread(g, cur)
            settled |= cur
            grown = cur
            while grown:
                c = ctz64(grown)
                grown &= grown - 1
                dist[c] = d
            sp &= ~settled
            pending[(d + 1) & 3] |= sp & c1
            pending[(d + 2) & 3] |= sp & c2
            pending[(d + 3) & 3] |= sp & c3
        elif not (pending[0] | pending[1] | pending[2] | pending[3]):
            return
        d += 1


ctypedef struct RouteFields:
    uint64_t cls[4]     # the cells of each cost (0..3), as through_costs sorted them
    int da[64]          # cost from the start Brain's side (both ends included; FAR: unreachable)
    int db[64]          # cost from the goal Brain's side
    int through[64]     # cost of the cheapest route through the cell (FAR: none)
    int best            # the cheapest route's cost (-1: none)


cdef inline void settle_through(const Geometry* g, RouteFields* rf) noexcept nogil:
    """``rf.through`` of every cell of the cost classes and ``rf.best``, from the fields ``rf.da`` and ``rf.db``."""
    cdef int c, w, best = FAR
    cdef uint64_t layer
    for w in range(4):
        layer = rf.cls[w]
        while layer:
            c = ctz64(layer)
            layer &= layer - 1
            if rf.da[c] < FAR and rf.db[c] < FAR:
                rf.through[c] = rf.da[c] + rf.db[c] - w
                if (g.goal >> c) & 1 and rf.da[c] < best:
                    best = rf.da[c]
            else:
                rf.through[c] = FAR
    rf.best = best if best < FAR else -1


cdef inline int route_fields(const Geometry* g, uint64_t c0, uint64_t c1, uint64_t c2, uint64_t c3,
                             RouteFields* rf) noexcept nogil:
    """The distance fields and through-costs of :func:`through_costs`, kept in ``rf``; returns ``rf.best``."""
    cdef int c
    rf.cls[0] = c0 & ~g.brains
    rf.cls[1] = c1 & ~g.brains & ~rf.cls[0]
    rf.cls[2] = c2 & ~g.brains & ~rf.cls[0] & ~rf.cls[1]
    rf.cls[3] = c3 & ~g.brains & ~rf.cls[0] & ~rf.cls[1] & ~rf.cls[2]
    for c in range(g.cells):
        rf.da[c] = FAR
        rf.db[c] = FAR
        rf.through[c] = FAR
    distances(g, rf.cls, g.start, rf.da)
    distances(g, rf.cls, g.goal, rf.db)
    settle_through(g, rf)
    return rf.best


cdef inline int through_costs(const Geometry* g, uint64_t c0, uint64_t c1, uint64_t c2, uint64_t c3,
                              int* out) noexcept nogil:
    """``out[c]`` = cost of the cheapest Brain-to-Brain route through cell ``c`` (``FAR`` if none), where a cell
    of ``c<w>`` costs ``w``; returns the cheapest route's cost (-1 if none)."""
    cdef RouteFields rf
    cdef int c
    route_fields(g, c0, c1, c2, c3, &rf)
    for c in range(g.cells):
        out[c] = rf.through[c]
    return rf.best


cdef inline void lower_cell(const Geometry* g, RouteFields* rf, int f) noexcept nogil:
    """Update ``rf`` in place for cell ``f`` costing 2 instead of 3, from one search from ``f``: the cheapest way
    from a Brain to any cell either avoids ``f`` (its cost unchanged) or passes ``f``, now one less (to ``f``,
    then on from ``f``). Exactly the fields :func:`route_fields` computes for the new costs."""
    cdef int df[64]
    cdef int c, via_a, via_b
    cdef uint64_t bit_f = (<uint64_t>1) << f
    for c in range(g.cells):
        df[c] = FAR
    distances(g, rf.cls, bit_f, df)
    via_a = rf.da[f] - 4 if rf.da[f] < FAR else FAR       # to f, now one less, without f's own cost (3)
    via_b = rf.db[f] - 4 if rf.db[f] < FAR else FAR
    for c in range(g.cells):
        if df[c] < FAR:
            if via_a < FAR and via_a + df[c] < rf.da[c]:
                rf.da[c] = via_a + df[c]
            if via_b < FAR and via_b + df[c] < rf.db[c]:
                rf.db[c] = via_b + df[c]
    rf.cls[3] &= ~bit_f
    rf.cls[2] |= bit_f
    settle_through(g, rf)


cdef inline bint lowered_by_one(const Geometry* g, const RouteFields* rf, uint64_t c0, uint64_t c1, uint64_t c2,
                                uint64_t c3, int* cell) noexcept nogil:
    """True (``cell[0]`` set) when the classes ``c0..c3`` (sorted as :func:`route_fields` sorts them) are those of
    ``rf`` but for one cell, cost 3 there and 2 here."""
    cdef uint64_t k0 = c0 & ~g.brains, k1, k2, k3, moved
    k1 = c1 & ~g.brains & ~k0
    k2 = c2 & ~g.brains & ~k0 & ~k1
    k3 = c3 & ~g.brains & ~k0 & ~k1 & ~k2
    if k0 != rf.cls[0] or k1 != rf.cls[1]:
        return False
    moved = k2 ^ rf.cls[2]
    if moved == 0 or (moved & (moved - 1)) or (moved & rf.cls[2]) or not (moved & rf.cls[3]):
        return False
    if k3 != rf.cls[3] & ~moved:
        return False
    cell[0] = ctz64(moved)
    return True


cdef inline int lowest(uint64_t m) noexcept nogil:
    return ctz64(m)


cdef inline int cheapest(uint64_t m, const int* cost) noexcept nogil:
    """The cell of ``m`` on the cheapest route (lowest index among ties); -1 when no route crosses ``m``."""
    cdef int c, best = -1, best_cost = FAR
    while m:
        c = lowest(m)
        m &= m - 1
        if cost[c] < best_cost:
            best_cost = cost[c]
            best = c
    return best
