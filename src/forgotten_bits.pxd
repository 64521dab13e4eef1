# cython: language_level=3
"""Shared inline helpers of the Forgotten kernels: board geometry on 64-bit bitboards,
Brain-to-Brain paths under the diagonal exception, weighted shortest routes, and the
splitmix64 random stream. Cell ``i`` is bit ``i``; cell ``(x, y)`` is ``(y-1)*width + (x-1)``.
Twins: ``solver/twins/forgotten_paths.py`` and ``solver/twins/forgotten_playout.py``.
"""

from libc.stdint cimport uint64_t, int64_t

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil

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
    touching ``dst`` (returned) or at ``stop_at`` when it is >= 0; -1 when ``dst`` is unreachable."""
    cdef int t = 0, w
    cdef uint64_t x
    while t < MAX_LEVELS:
        x = out[t - 1] if t > 0 else 0
        x |= cls[0] & src
        for w in range(1, 4):
            if t >= w:
                x |= cls[w] & (src | spread(g, out[t - w]))
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


cdef inline int through_costs(const Geometry* g, uint64_t c0, uint64_t c1, uint64_t c2, uint64_t c3,
                              int* out) noexcept nogil:
    """``out[c]`` = cost of the cheapest Brain-to-Brain route through cell ``c`` (``FAR`` if none), where a cell
    of ``c<w>`` costs ``w``; returns the cheapest route's cost (-1 if none)."""
    cdef uint64_t cls[4]
    cdef uint64_t fwd[MAX_LEVELS]
    cdef uint64_t bwd[MAX_LEVELS]
    cdef int da[64]
    cdef int db[64]
    cdef int c, t, w, n_fwd, n_bwd, best = FAR
    cdef uint64_t layer, prev
    cls[0] = c0 & ~g.brains
    cls[1] = c1 & ~g.brains & ~cls[0]
    cls[2] = c2 & ~g.brains & ~cls[0] & ~cls[1]
    cls[3] = c3 & ~g.brains & ~cls[0] & ~cls[1] & ~cls[2]
    n_fwd = all_levels(g, cls, g.start, fwd)
    n_bwd = all_levels(g, cls, g.goal, bwd)
    for c in range(g.cells):
        da[c] = FAR
        db[c] = FAR
        out[c] = FAR
    prev = 0
    for t in range(n_fwd):
        layer = fwd[t] & ~prev
        prev = fwd[t]
        while layer:
            c = ctz64(layer)
            layer &= layer - 1
            da[c] = t
    prev = 0
    for t in range(n_bwd):
        layer = bwd[t] & ~prev
        prev = bwd[t]
        while layer:
            c = ctz64(layer)
            layer &= layer - 1
            db[c] = t
    for w in range(4):
        layer = cls[w]
        while layer:
            c = ctz64(layer)
            layer &= layer - 1
            if da[c] < FAR and db[c] < FAR:
                out[c] = da[c] + db[c] - w
                if (g.goal >> c) & 1 and da[c] < best:
                    best = da[c]
    return best if best < FAR else -1


cdef inline int all_levels(const Geometry* g, const uint64_t* cls, uint64_t src, uint64_t* out) noexcept nogil:
    """Every weighted distance level from ``src`` until nothing new is reached; returns the number of levels."""
    cdef int t = 0, w
    cdef uint64_t x
    while t < MAX_LEVELS:
        x = out[t - 1] if t > 0 else 0
        x |= cls[0] & src
        for w in range(1, 4):
            if t >= w:
                x |= cls[w] & (src | spread(g, out[t - w]))
        x = closure(g, x, cls[0])
        out[t] = x
        if t >= 3 and x == out[t - 3]:
            return t + 1
        t += 1
    return t


# -- random stream (splitmix64) ---------------------------------------------------------
cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t stream_seed(uint64_t seed, uint64_t index) noexcept nogil:
    """The starting state of random stream ``index`` of ``seed``."""
    return mix64(seed ^ mix64(index + <uint64_t>0x632BE59BD9B4E019))


cdef inline uint64_t next64(uint64_t* state) noexcept nogil:
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    return mix64(state[0])


cdef inline int below(uint64_t* state, int n) noexcept nogil:
    """A number in ``[0, n)`` (n >= 1)."""
    return <int>(next64(state) % <uint64_t>n)


cdef inline int nth_bit(uint64_t m, int k) noexcept nogil:
    """Index of the ``k``-th (0-based) set bit of ``m``."""
    while k > 0:
        m &= m - 1
        k -= 1
    return ctz64(m)


cdef inline int lowest(uint64_t m) noexcept nogil:
    return ctz64(m)
