"""Mnemonic dice distributions as exact integer counts (compiled kernel).

Twin: ``solver/twins/mnemonic_odds.py`` (same functions, same results).

Every probability is a count over ``6**dice`` equally likely rolls. The
counts are computed in unsigned 128-bit integers, so they are exact while the
total number of dice is at most ``MAX_EXACT_DICE`` = 49 (``6**49 < 2**128 <
6**50``); beyond that the kernel raises ``OverflowError`` instead of
returning a wrong count.

``max_counts(dice)``: how many of the ``6**dice`` rolls have highest die ``v``,
for ``v = 0..6`` (``v = 0`` only for a pool of no dice).

``group_counts(pools, adversary, nobody_rolls)``: a Group Scene. The players'
pools are rolled (each keeps its highest; a pool of 0 contributes nothing), the
Adversary rolls ``adversary`` dice; Victory when the single highest roll is a
player's, Defeat when it is the Adversary's, Draw when a player and the
Adversary share it. When nobody rolls at all, the whole mass goes to
``nobody_rolls`` (0 victory, 1 defeat, 2 draw). Returns
``(victory, defeat, draw, total)`` with ``victory + defeat + draw == total ==
6**(sum(pools) + adversary)``.
"""

from libc.stdint cimport uint64_t, int64_t

cdef extern from *:
    """
    typedef unsigned __int128 mn_u128;
    static inline unsigned long long mn_hi(mn_u128 x) { return (unsigned long long)(x >> 64); }
    static inline unsigned long long mn_lo(mn_u128 x) { return (unsigned long long)x; }
    """
    ctypedef unsigned long long mn_u128
    unsigned long long mn_hi(mn_u128 x) nogil
    unsigned long long mn_lo(mn_u128 x) nogil

MAX_EXACT_DICE = 49
cdef int C_MAX_EXACT = 49


cdef inline mn_u128 power(int base, int exponent) noexcept nogil:
    """``base ** exponent`` (``0 ** 0 == 1``); the caller keeps the result below ``2**128``."""
    cdef mn_u128 out = 1
    cdef int i
    for i in range(exponent):
        out *= <mn_u128>base
    return out


cdef object to_int(mn_u128 x):
    return (int(mn_hi(x)) << 64) | int(mn_lo(x))


def max_counts(int dice):
    """Counts (over ``6**dice`` rolls) of the highest die being ``0..6``; ``[1, 0, ...]`` for no dice."""
    cdef int v
    cdef mn_u128 c[7]
    if dice < 0:
        raise ValueError(f"dice: must be at least 0: {dice!r}")
    if dice > C_MAX_EXACT:
        raise OverflowError(f"dice: {dice} dice exceed the exact range of {C_MAX_EXACT}")
    c[0] = 1 if dice == 0 else 0
    for v in range(1, 7):
        c[v] = power(v, dice) - power(v - 1, dice) if dice > 0 else 0
    return [to_int(c[v]) for v in range(7)]


def group_counts(const int64_t[::1] pools, int adversary, int nobody_rolls):
    """``(victory, defeat, draw, total)`` counts of a Group Scene (see the module docstring)."""
    cdef Py_ssize_t i
    cdef int64_t n = 0
    cdef int v, N, M
    cdef mn_u128 total, victory = 0, defeat = 0, draw
    if adversary < 0:
        raise ValueError(f"adversary: must be at least 0: {adversary!r}")
    if nobody_rolls < 0 or nobody_rolls > 2:
        raise ValueError(f"nobody_rolls: expected 0 (victory), 1 (defeat) or 2 (draw): {nobody_rolls!r}")
    for i in range(pools.shape[0]):
        if pools[i] < 0:
            raise ValueError(f"pools[{i}]: must be at least 0: {pools[i]!r}")
        n += pools[i]
        if n > C_MAX_EXACT:
            break
    if n + adversary > C_MAX_EXACT:
        raise OverflowError(f"pools/adversary: {n + adversary} dice in all exceed the exact range of {C_MAX_EXACT}")
    N = <int>n
    M = adversary
    total = power(6, N + M)
    if N == 0 and M == 0:
        if nobody_rolls == 0:
            return (1, 0, 0, 1)
        if nobody_rolls == 1:
            return (0, 1, 0, 1)
        return (0, 0, 1, 1)
    with nogil:
        for v in range(1, 7):
            # players' highest is exactly v and every Adversary die is below v (and symmetrically)
            if N > 0:
                victory += (power(v, N) - power(v - 1, N)) * power(v - 1, M)
            if M > 0:
                defeat += (power(v, M) - power(v - 1, M)) * power(v - 1, N)
        draw = total - victory - defeat
    return (to_int(victory), to_int(defeat), to_int(draw), to_int(total))
