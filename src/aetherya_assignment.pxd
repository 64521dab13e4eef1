# cython: language_level=3
"""The assignment problems behind the bounds of the Aetherya optimiser (``aetherya_opt.pyx``), inline.

Rows are free cells, columns kinds of card; ``profit`` has row stride 16 (at most 16 rows). A maximum-profit
assignment with one column per card (:func:`hungarian_max`), the same value with one column per kind of card and
its caps (:func:`transport_max`, which also gives optimal prices of the kinds), and the weak-duality bound any
prices give (:func:`dual_bound`). Twin: ``_hungarian_max`` in ``solver/twins/aetherya_opt.py``, which bounds every
node with it alone (the other two reach the same bounds faster, so the twin has no copy of them).
"""

cdef enum:
    BIG = 1 << 28             # larger than any total or profit: an infinite cost or bound
    COLUMN_KINDS = 10         # the kinds of column: P F M S H E D G, a Dragon that may be tamed (R), one that may not


cdef inline int hungarian_max(int n, int* profit, int* assign) noexcept nogil:
    """Maximum-profit assignment of ``n`` rows to ``n`` columns (``profit`` has row stride 16)."""
    cdef int u[17]
    cdef int v[17]
    cdef int p[17]
    cdef int way[17]
    cdef int minv[17]
    cdef char used[17]
    cdef int i, j, j0, j1, i0, delta, cur, total = 0
    for j in range(n + 1):
        u[j] = 0
        v[j] = 0
        p[j] = 0
        way[j] = 0
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        for j in range(n + 1):
            minv[j] = BIG
            used[j] = 0
        while True:
            used[j0] = 1
            i0 = p[j0]
            delta = BIG
            j1 = 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = -profit[(i0 - 1) * 16 + j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
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
    for j in range(1, n + 1):
        assign[p[j] - 1] = j - 1
        total += profit[(p[j] - 1) * 16 + j - 1]
    return total




cdef inline int transport_max(int n, const int* profit, const int* cap, const int* start, int* prices) noexcept nogil:
    """The best assignment of ``n`` rows to the column kinds, ``cap[k]`` rows to kind ``k`` (the caps add up to
    ``n``; ``profit`` row stride 16): the value of :func:`hungarian_max` on one column per card, found with one
    column per kind (successive shortest paths through the kinds, Dijkstra with potentials, the kinds' potentials
    starting from the prices ``start`` when not NULL: a parent's prices make exchanges rare). ``prices``
    receives optimal prices of the kinds: with some row values ``r[i]``, ``r[i] + prices[k] >= profit[i][k]``."""
    cdef int ks[COLUMN_KINDS]       # the kinds with a card left, and their caps
    cdef int caps[COLUMN_KINDS]
    cdef int v[COLUMN_KINDS]        # kind potentials (min-cost form: cost = -profit)
    cdef int used[COLUMN_KINDS]
    cdef int members[COLUMN_KINDS][16]
    cdef int dist[COLUMN_KINDS]
    cdef int from_kind[COLUMN_KINDS]
    cdef int via_slot[COLUMN_KINDS]
    cdef char done[COLUMN_KINDS]
    cdef int u[16]                  # row potentials
    cdef int at[16]                 # the kind (index into ks) of each row
    cdef int m = 0, r, i, j, q, t, top, target, d, best, total = 0, row, slot, nxt
    cdef const int* pr
    for j in range(COLUMN_KINDS):
        if cap[j]:
            ks[m] = j
            caps[m] = cap[j]
            v[m] = -start[j] if start != NULL else 0
            used[m] = 0
            m += 1
    for r in range(n):
        pr = &profit[r * 16]
        best = BIG
        for j in range(m):
            dist[j] = -pr[ks[j]] - v[j]
            if dist[j] < best:
                best = dist[j]
        u[r] = best
        top = -1
        for j in range(m):
            dist[j] -= best
            done[j] = 0
            from_kind[j] = -1
            if dist[j] == 0 and top < 0 and used[j] < caps[j]:
                top = j                 # the row's best kind has room: no exchange
        if top >= 0:
            target = top
            done[top] = 1
        else:
            while True:
                top = -1
                for j in range(m):
                    if not done[j] and (top < 0 or dist[j] < dist[top]):
                        top = j
                done[top] = 1
                if used[top] < caps[top]:
                    target = top
                    break
                for t in range(used[top]):  # a row of that kind may move on to another kind
                    i = members[top][t]
                    pr = &profit[i * 16]
                    for q in range(m):
                        if not done[q]:
                            d = dist[top] - pr[ks[q]] - u[i] - v[q]
                            if d < dist[q]:
                                dist[q] = d
                                from_kind[q] = top
                                via_slot[q] = t
        d = dist[target]
        if d:
            for j in range(m):          # potentials: reduced costs stay >= 0, 0 along the path
                v[j] += dist[j] if done[j] else d
            for i in range(r):
                u[i] -= dist[at[i]] if done[at[i]] else d
        j = target                      # each row on the path moves one kind on; the new row takes the first
        row = r
        while True:
            members[j][used[j]] = row if from_kind[j] < 0 else members[from_kind[j]][via_slot[j]]
            used[j] += 1
            if from_kind[j] < 0:
                at[r] = j
                break
            nxt = from_kind[j]
            slot = via_slot[j]
            i = members[nxt][slot]
            at[i] = j
            used[nxt] -= 1              # the row leaves ``nxt``: the last member takes its slot
            members[nxt][slot] = members[nxt][used[nxt]]
            if used[nxt] > 0 and slot < used[nxt]:
                at[members[nxt][slot]] = nxt
            j = nxt
    for r in range(n):
        total += profit[r * 16 + ks[at[r]]]
    for j in range(COLUMN_KINDS):
        prices[j] = 0
    for j in range(m):
        prices[ks[j]] = -v[j]
    return total




cdef inline int dual_bound(int n, const int* profit, const int* cap, const int* prices) noexcept nogil:
    """An upper bound on the best assignment from any prices of the column kinds: each row takes the kind it values
    most net of the price, and the prices of every card are paid back (weak duality). Exact with optimal prices."""
    cdef int i, k, best, total = 0
    for k in range(COLUMN_KINDS):
        total += cap[k] * prices[k]
    for i in range(n):
        best = -BIG
        for k in range(COLUMN_KINDS):
            if cap[k] and profit[i * 16 + k] - prices[k] > best:
                best = profit[i * 16 + k] - prices[k]
        total += best
    return total
