"""Forgotten playout kernel (compiled): whole seeded games of a policy, and rollouts from a position
with the unseen tiles re-drawn from what the players have seen.

Twin: ``solver/twins/forgotten_playout.py`` (same functions, same results, same random numbers).

A position is given per cell: ``tiles[c]`` the pair number of the tile on ``c`` (-1 for no tile),
``status[c]`` 0 no tile (Brain or empty), 1 face down, 2 face up, 3 removed, ``seen[c]`` 1 when
the players have seen that tile. ``phase`` 0 waits for the first flip, 1 for the second flip
(``first`` is the cell flipped first), 2 for the Erasure roll. ``turn`` counts finished turns.
``erasure`` 0 off, 1 after every second turn (both players, FG-8), 2 after every turn.
``goal`` 0 a Brain-to-Brain path (FG-10), 1 clear every pair (classic Memory, for FG-14).

Policies (``docs/rules/forgotten.md``, "Policies"): 0 random flips; 1 greedy matcher with perfect
memory (Velleman-Warrington); 2 route (the hint engine's base policy: uses only what was seen);
3 oracle (full information: knows every tile). Ties go to the lowest cell index; only policy 0
draws from the random stream (the deal and the Erasure dice always do).
"""

from libc.stdint cimport uint64_t, uint8_t, int8_t, int32_t
from forgotten_bits cimport (Geometry, RouteFields, make_geometry, connected, best_route, route_fields,
                             lower_cell, lowered_by_one, bit, nth_bit, lowest, cheapest, popcount64, FAR)
from common cimport below_mod as below, stream_seed

cdef enum:
    ST_NONE = 0
    ST_DOWN = 1
    ST_UP = 2
    ST_REMOVED = 3
    PHASE_FIRST = 0
    PHASE_SECOND = 1
    PHASE_ERASE = 2
    ERASE_OFF = 0
    ERASE_ROUND = 1
    ERASE_TURN = 2        # GOAL_PATH, GOAL_CLEAR: forgotten_exact.pxi's
    POLICY_RANDOM = 0
    POLICY_GREEDY = 1
    POLICY_ROUTE = 2
    POLICY_ORACLE = 3
    MAX_TURNS = 10000
    MAX_TRIES = 10000
    MAX_PAIRS = 32


ctypedef struct World:
    int8_t other[64]
    uint64_t down
    uint64_t up
    uint64_t removed
    uint64_t seen
    uint64_t dead
    int turn
    int phase
    int first


# -- rules ------------------------------------------------------------------------------
cdef inline bint world_alive(const Geometry* g, const World* w, int goal) noexcept nogil:
    if goal == GOAL_CLEAR:
        return (w.down & w.dead) == 0
    return connected(g, w.up | (w.down & ~w.dead))


cdef inline bint erasure_due(int erasure, int turn) noexcept nogil:
    if erasure == ERASE_TURN:
        return True
    if erasure == ERASE_ROUND:
        return turn % 2 == 0
    return False


cdef inline int end_turn(const Geometry* g, World* w, int second, int erasure, int goal) noexcept nogil:
    """Finish a turn after the second flip; returns 1 when the match wins the game."""
    cdef int first = w.first
    cdef uint64_t pair
    w.seen |= bit(second)
    w.turn += 1
    if w.other[first] == second:
        pair = bit(first) | bit(second)
        w.down &= ~pair
        w.up |= pair
        if goal == GOAL_CLEAR:
            if w.down == 0:
                return 1
        elif connected(g, w.up):
            return 1
    w.first = -1
    w.phase = PHASE_ERASE if erasure_due(erasure, w.turn) else PHASE_FIRST
    return 0


cdef inline void world_erase(World* w, int cell) noexcept nogil:
    cdef uint64_t b = bit(cell)
    cdef int p
    if w.down & b:
        w.down &= ~b
        w.dead &= ~b
        w.removed |= b
        p = w.other[cell]
        if p >= 0 and (w.down & bit(p)):
            w.dead |= bit(p)
    elif w.up & b:
        w.up &= ~b
        w.removed |= b
    w.phase = PHASE_FIRST


# -- what the players know ----------------------------------------------------------------
cdef inline void classify(const World* w, uint64_t* kp, uint64_t* ku, uint64_t* kd) noexcept nogil:
    """Seen face-down tiles whose partner is seen and face down (kp), unseen (ku), seen and gone (kd)."""
    cdef uint64_t m = w.down & w.seen
    cdef int c, p
    kp[0] = 0
    ku[0] = 0
    kd[0] = 0
    while m:
        c = lowest(m)
        m &= m - 1
        p = w.other[c]
        if p >= 0 and (w.seen & bit(p)):
            if w.down & bit(p):
                kp[0] |= bit(c)
            else:
                kd[0] |= bit(c)
        else:
            ku[0] |= bit(c)


cdef inline void knowledge_classes(const World* w, uint64_t* kp, uint64_t* ku, uint64_t* unk) noexcept nogil:
    """The cells costing 1 (a tile of a known pair), 2 (a seen tile whose partner is unseen) and 3 (an unseen
    tile) on a route; face-up tiles cost 0."""
    cdef uint64_t kd
    unk[0] = w.down & ~w.seen
    classify(w, kp, ku, &kd)
    if unk[0] == 0:
        ku[0] = 0       # no unseen tile left on the board: a seen single can never be matched


cdef inline int knowledge_costs(const Geometry* g, const World* w, RouteFields* rf) noexcept nogil:
    """Cost of the cheapest route through each cell (``rf.through``) when face up costs 0, a tile of a known pair
    1, a seen tile whose partner is unseen 2 and an unseen tile 3 (FAR: no route); returns the cheapest route's
    cost. When ``rf`` already holds the costs of these classes but for one tile, then unseen and now a seen
    single (the last flip), it is updated from them (:func:`lower_cell`) instead of computed afresh."""
    cdef uint64_t kp, ku, unk
    cdef int cell
    knowledge_classes(w, &kp, &ku, &unk)
    if lowered_by_one(g, rf, w.up, kp, ku, unk, &cell):
        lower_cell(g, rf, cell)
        return rf.best
    return route_fields(g, w.up, kp, ku, unk, rf)


cdef inline int random_cell(uint64_t m, uint64_t* rng) noexcept nogil:
    return nth_bit(m, below(rng, popcount64(m)))


cdef inline int partner_if_known(const World* w, int cell) noexcept nogil:
    cdef int p = w.other[cell]
    if p >= 0 and p != cell and (w.seen & bit(p)) and (w.down & bit(p)):
        return p
    return -1


cdef int choose_first(const Geometry* g, const World* w, int policy, uint64_t* rng, RouteFields* rf) noexcept nogil:
    """The first flip of ``policy``; the route policy leaves its route costs in ``rf`` (for the second flip)."""
    cdef uint64_t kp, ku, kd, route, m, unk = w.down & ~w.seen, usable
    cdef int c, cost
    cdef const int* costs = rf.through
    if policy == POLICY_RANDOM:
        return random_cell(w.down, rng)
    if policy == POLICY_GREEDY:
        classify(w, &kp, &ku, &kd)
        if kp:
            return lowest(kp)
        if unk:
            return lowest(unk)
        return lowest(w.down)
    if policy == POLICY_ORACLE:
        usable = w.down & ~w.dead
        route = best_route(g, w.up, usable, 0, 0, &cost) & usable
        m = route
        while m:
            c = lowest(m)
            m &= m - 1
            if w.other[c] >= 0 and (route & bit(w.other[c])):
                return c
        if route:
            return lowest(route)
        return lowest(usable) if usable else lowest(w.down)
    # POLICY_ROUTE
    classify(w, &kp, &ku, &kd)
    cost = knowledge_costs(g, w, rf)
    m = kp
    while m:
        c = lowest(m)
        m &= m - 1
        if costs[c] == cost:
            return c                    # a known pair on a cheapest route: match it
    c = cheapest(unk, costs)
    if c >= 0:
        return c                        # the unseen tile on the cheapest route through one
    if unk:
        return lowest(unk)
    c = cheapest(kp, costs)
    if c >= 0:
        return c
    if kp:
        return lowest(kp)
    return lowest(w.down)


cdef int choose_second(const Geometry* g, const World* w, int policy, uint64_t* rng,
                       RouteFields* rf) noexcept nogil:
    """The second flip of ``policy`` (the route policy updates the costs ``rf`` holds, see knowledge_costs)."""
    cdef int first = w.first, p, c
    cdef uint64_t others = w.down & ~bit(first), unk = w.down & ~w.seen & ~bit(first)
    if policy == POLICY_RANDOM:
        return random_cell(others, rng)
    if policy == POLICY_ORACLE:
        p = w.other[first]
        if p >= 0 and (w.down & bit(p)):
            return p
        return lowest(others)
    p = partner_if_known(w, first)
    if p >= 0:
        return p
    if policy == POLICY_GREEDY:
        if unk:
            return lowest(unk)
        return lowest(others)
    knowledge_costs(g, w, rf)
    c = cheapest(unk, rf.through)
    if c >= 0:
        return c
    if unk:
        return lowest(unk)
    return lowest(others)


cdef int play(const Geometry* g, World* w, int erasure, int goal, int policy, int forced,
              uint64_t* rng) noexcept nogil:
    """Play to the end; 1 for a win, 0 for a loss. ``forced`` (>= 0) replaces the next flip."""
    cdef int c
    cdef RouteFields rf     # the route policy's costs, updated from flip to flip where they can be
    rf.cls[2] = 0
    rf.cls[3] = 0
    while True:
        if w.phase == PHASE_ERASE:
            world_erase(w, below(rng, g.cells))
            if not world_alive(g, w, goal):
                return 0
        elif w.phase == PHASE_FIRST:
            if w.turn >= MAX_TURNS:
                return 0
            if forced >= 0:
                c = forced
                forced = -1
            else:
                c = choose_first(g, w, policy, rng, &rf)
            w.seen |= bit(c)
            w.first = c
            w.phase = PHASE_SECOND
        else:
            if forced >= 0:
                c = forced
                forced = -1
            else:
                c = choose_second(g, w, policy, rng, &rf)
            if end_turn(g, w, c, erasure, goal):
                return 1


# -- setting up worlds ----------------------------------------------------------------------
cdef int link_pairs(World* w, const int8_t* tiles, int cells) noexcept nogil:
    """Fill ``w.other`` from pair numbers; -1 unless every pair number on the board appears exactly twice."""
    cdef int8_t first_cell[MAX_PAIRS]
    cdef int count[MAX_PAIRS]
    cdef int c, v
    for v in range(MAX_PAIRS):
        first_cell[v] = -1
        count[v] = 0
    for c in range(64):
        w.other[c] = -1
    for c in range(cells):
        v = tiles[c]
        if v < 0:
            continue
        if v >= MAX_PAIRS:
            return -1
        count[v] += 1
        if count[v] == 1:
            first_cell[v] = c
        elif count[v] == 2:
            w.other[c] = first_cell[v]
            w.other[first_cell[v]] = c
        else:
            return -1
    for v in range(MAX_PAIRS):
        if count[v] == 1:
            return -1
    return 0


cdef void mark_dead(World* w, int cells) noexcept nogil:
    cdef int c, p
    w.dead = 0
    for c in range(cells):
        if w.down & bit(c):
            p = w.other[c]
            if p < 0 or not (w.down & bit(p)):
                w.dead |= bit(c)


cdef void deal(const Geometry* g, World* w, int pairs, uint64_t* rng) noexcept nogil:
    cdef int8_t tiles[64]
    cdef int8_t bag[64]
    cdef int n = 0, c, i, j
    cdef int8_t tmp
    for i in range(g.cells - 2):
        bag[i] = <int8_t>(i // 2) if i < 2 * pairs else -1
    for i in range(g.cells - 3, 0, -1):
        j = below(rng, i + 1)
        tmp = bag[i]
        bag[i] = bag[j]
        bag[j] = tmp
    for c in range(g.cells):
        if c == g.brain_a or c == g.brain_b:
            tiles[c] = -1
        else:
            tiles[c] = bag[n]
            n += 1
    link_pairs(w, tiles, g.cells)
    w.down = 0
    for c in range(g.cells):
        if tiles[c] >= 0:
            w.down |= bit(c)
    w.up = 0
    w.removed = 0
    w.seen = 0
    w.dead = 0
    w.turn = 0
    w.phase = PHASE_FIRST
    w.first = -1


# geometry(width, height, brain_a, brain_b): forgotten_paths.pxi's


cdef check_rules(int erasure, int goal, int policy):
    if erasure < 0 or erasure > 2:
        raise ValueError("erasure must be 0 (off), 1 (every second turn) or 2 (every turn)")
    if goal != GOAL_PATH and goal != GOAL_CLEAR:
        raise ValueError("goal must be 0 (path) or 1 (clear)")
    if policy < 0 or policy > 3:
        raise ValueError("policy must be 0 random, 1 greedy, 2 route or 3 oracle")


cdef World load_world(const Geometry* g, const int8_t[::1] tiles, const uint8_t[::1] status,
                      const uint8_t[::1] seen, int turn, int phase, int first) except *:
    cdef World w
    cdef int c
    if tiles.shape[0] != g.cells or status.shape[0] != g.cells or seen.shape[0] != g.cells:
        raise ValueError("tiles, status and seen need one entry per cell")
    if link_pairs(&w, &tiles[0], g.cells) != 0:
        raise ValueError("tiles: every pair number must appear on exactly two cells")
    w.down = 0
    w.up = 0
    w.removed = 0
    w.seen = 0
    for c in range(g.cells):
        if status[c] > 3 or (status[c] == ST_NONE) != (tiles[c] < 0):
            raise ValueError(f"status: cell {c} has status {status[c]} and tile {tiles[c]}")
        if status[c] == ST_DOWN:
            w.down |= bit(c)
        elif status[c] == ST_UP:
            w.up |= bit(c)
        elif status[c] == ST_REMOVED:
            w.removed |= bit(c)
        if seen[c] and tiles[c] >= 0:
            w.seen |= bit(c)
    if turn < 0 or phase < 0 or phase > 2:
        raise ValueError("turn must be >= 0 and phase 0, 1 or 2")
    if phase == PHASE_SECOND and (first < 0 or first >= g.cells or not (w.down & w.seen & bit(first))):
        raise ValueError("phase 1 needs the first flipped cell: a face-down tile the players have seen")
    w.turn = turn
    w.phase = phase
    w.first = first if phase == PHASE_SECOND else -1
    mark_dead(&w, g.cells)
    return w


# -- public functions -------------------------------------------------------------------------
def play_games(int width, int height, int brain_a, int brain_b, int pairs, int erasure, int goal, int policy,
               uint64_t seed, uint8_t[::1] wins, int32_t[::1] turns, uint64_t first_stream=0):
    """Deal and play ``len(wins)`` games; game ``i`` uses random stream ``first_stream + i`` of ``seed`` (a run cut
    in pieces, ``first_stream`` = the games before, is the run in one call). ``wins[i]`` is 1 for a win,
    ``turns[i]`` the number of turns played. Returns the number of wins."""
    cdef Geometry g = geometry(width, height, brain_a, brain_b)
    cdef Py_ssize_t i, n = wins.shape[0]
    cdef World w
    cdef uint64_t rng
    cdef long total = 0
    check_rules(erasure, goal, policy)
    if pairs < 1 or 2 * pairs > g.cells - 2 or pairs > MAX_PAIRS:
        raise ValueError(f"pairs must be 1 to {min((g.cells - 2) // 2, MAX_PAIRS)}")
    if turns.shape[0] != n:
        raise ValueError("wins and turns need the same length")
    with nogil:
        for i in range(n):
            rng = stream_seed(seed, first_stream + <uint64_t>i)
            deal(&g, &w, pairs, &rng)
            if not world_alive(&g, &w, goal):
                wins[i] = 0
            else:
                wins[i] = <uint8_t>play(&g, &w, erasure, goal, policy, -1, &rng)
            turns[i] = w.turn
            total += wins[i]
    return total


cdef bint shuffle_unseen(const Geometry* g, World* w, const int8_t* tiles, const int* slots, int n_slots,
                         uint64_t* rng, int goal) noexcept nogil:
    """Re-draw the unseen tiles among the unseen cells; False when the result is already lost."""
    cdef int8_t world[64]
    cdef int8_t bag[64]
    cdef int i, j, c
    cdef int8_t tmp
    for c in range(g.cells):
        world[c] = tiles[c]
    for i in range(n_slots):
        bag[i] = tiles[slots[i]]
    for i in range(n_slots - 1, 0, -1):
        j = below(rng, i + 1)
        tmp = bag[i]
        bag[i] = bag[j]
        bag[j] = tmp
    for i in range(n_slots):
        world[slots[i]] = bag[i]
    link_pairs(w, world, g.cells)
    mark_dead(w, g.cells)
    return world_alive(g, w, goal)


def rollouts(int width, int height, int brain_a, int brain_b, int erasure, int goal, const int8_t[::1] tiles,
             const uint8_t[::1] status, const uint8_t[::1] seen, int turn, int phase, int first, int forced,
             int policy, bint resample, uint64_t seed, uint8_t[::1] wins, int32_t[::1] turns,
             uint64_t first_stream=0):
    """Play ``len(wins)`` games on from a position with ``policy`` (after the flip ``forced`` when it is >= 0).

    With ``resample``, rollout ``i`` first re-draws the tiles nobody has seen among the unseen cells (face
    down or removed), uniformly, rejecting draws in which the game would already be lost (the players know
    it is not); without it the given tiles are the truth (full information). Rollout ``i`` uses random
    stream ``first_stream + i`` of ``seed``, so the same seed gives the same worlds and rolls for every
    ``forced`` flip, and a run cut in pieces (``first_stream`` = the rollouts before) is the run in one call.
    Returns the number of rejected draws."""
    cdef Geometry g = geometry(width, height, brain_a, brain_b)
    cdef World base = load_world(&g, tiles, status, seen, turn, phase, first)
    cdef World w
    cdef Py_ssize_t i, n = wins.shape[0]
    cdef int slots[64]
    cdef int n_slots = 0, c, tries
    cdef long rejected = 0
    cdef uint64_t rng
    cdef bint failed = False
    check_rules(erasure, goal, policy)
    if turns.shape[0] != n:
        raise ValueError("wins and turns need the same length")
    if not world_alive(&g, &base, goal):
        raise ValueError("the position is already lost")
    if forced >= 0:
        if forced >= g.cells or not (base.down & bit(forced)) or (phase == PHASE_SECOND and forced == first) \
                or phase == PHASE_ERASE:
            raise ValueError(f"forced flip {forced} is not legal here")
    for c in range(g.cells):
        if tiles[c] >= 0 and not (base.seen & bit(c)) and (status[c] == ST_DOWN or status[c] == ST_REMOVED):
            slots[n_slots] = c
            n_slots += 1
    with nogil:
        for i in range(n):
            rng = stream_seed(seed, first_stream + <uint64_t>i)
            w = base
            if resample:
                tries = 0
                while not shuffle_unseen(&g, &w, &tiles[0], slots, n_slots, &rng, goal):
                    tries += 1
                    if tries >= MAX_TRIES:
                        failed = True
                        break
                rejected += tries
                if failed:
                    break
            wins[i] = <uint8_t>play(&g, &w, erasure, goal, policy, forced, &rng)
            turns[i] = w.turn
    if failed:
        raise ValueError(f"could not draw a world consistent with the position in {MAX_TRIES} tries")
    return rejected


def policy_move(int width, int height, int brain_a, int brain_b, const int8_t[::1] tiles,
                const uint8_t[::1] status, const uint8_t[::1] seen, int first, int policy, uint64_t seed):
    """The cell ``policy`` flips next: a first flip when ``first`` is -1, else the second flip after ``first``.
    Policy 0 draws from random stream 0 of ``seed``."""
    cdef Geometry g = geometry(width, height, brain_a, brain_b)
    cdef World w = load_world(&g, tiles, status, seen, 0, PHASE_SECOND if first >= 0 else PHASE_FIRST, first)
    cdef uint64_t rng = stream_seed(seed, 0)
    cdef RouteFields rf
    rf.cls[2] = 0
    rf.cls[3] = 0
    check_rules(0, 0, policy)
    if popcount64(w.down) < 2:
        raise ValueError("no legal flip: fewer than two face-down tiles")
    if first >= 0:
        return choose_second(&g, &w, policy, &rng, &rf)
    return choose_first(&g, &w, policy, &rng, &rf)
