# cython: language_level=3
"""What every kernel shares: the random step (splitmix64), the monotonic clock, the hash table, the atomics and a binary search.

Twin: ``solver/twins/common.py`` (the random step and the hash, bit for bit).

Bits: ``popcount``, ``lowest_bit`` (32-bit) and ``popcount64``, ``ctz64`` are the compiler's builtins: one
instruction where the build targets a CPU that has it (``CMakeLists.txt`` decides), a short routine otherwise.

Random numbers: a stream is one 64-bit word advanced by :func:`splitmix64` (Steele, Lea and Flood's
SplitMix64: add the golden gamma, then the finaliser :func:`mix64`). The three ways of turning a draw
into a number below ``n`` are each a kernel's documented convention (changing one would change that
kernel's seeded outputs), so they live here side by side: :func:`below_mod`, :func:`below_high` and
:func:`below_scaled`.

Hash table: open addressing with linear probing over keys of ``words`` 64-bit words (all of them
compared) and one ``double`` value each; it doubles when more than ``load_tenths`` tenths full and
refuses to grow (``table_store`` returns -1) once it holds ``limit`` keys (``NO_LIMIT``: never) or
memory runs out. :func:`hash_words` is also the hash of the lossy transposition cache of ``memorinth_escape``.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from *:
    int popcount "__builtin_popcount"(unsigned int) nogil
    int lowest_bit "__builtin_ctz"(unsigned int) nogil
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil



cdef inline int nth_bit(uint64_t m, int k) noexcept nogil:
    """Index of the ``k``-th (0-based) set bit of ``m`` (``k`` below ``popcount64(m)``)."""
    while k > 0:
        m &= m - 1
        k -= 1
    return ctz64(m)


cdef inline int index_in_sorted(const int32_t* values, int count, int value) noexcept nogil:
    """Where ``value`` stands in the ascending ``values[0:count]`` (binary search), or -1 where it is not there."""
    cdef int lo = 0, hi = count - 1, mid
    while lo <= hi:
        mid = (lo + hi) >> 1
        if values[mid] == value:
            return mid
        if values[mid] < value:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


cdef inline void check_unit_interval(const double* values, Py_ssize_t count, Py_ssize_t width) except *:
    """The batch entry points' check of their uniforms: every one of ``values[0:count]`` in [0, 1), else a
    ValueError naming the first outside, ``uniforms[i]`` (``width`` 0: a vector) or ``uniforms[i, j]`` (rows of
    ``width``)."""
    cdef Py_ssize_t k
    for k in range(count):
        if not 0.0 <= values[k] < 1.0:
            name = f"uniforms[{k}]" if width == 0 else f"uniforms[{k // width}, {k % width}]"
            raise ValueError(f"{name}: expected a number in [0, 1), got {values[k]}")


# -- random numbers -------------------------------------------------------------------------------
cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """SplitMix64's finaliser (also a good 64-bit hash of one word)."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t splitmix64(uint64_t* state) noexcept nogil:
    """The next number of the stream ``state`` (advanced in place)."""
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    return mix64(state[0])


cdef inline uint64_t stream_seed(uint64_t seed, uint64_t index) noexcept nogil:
    """The starting word of stream ``index`` of ``seed`` (independent streams from one seed)."""
    return mix64(seed ^ mix64(index + <uint64_t>0x632BE59BD9B4E019))


cdef inline int below_mod(uint64_t* state, int n) noexcept nogil:
    """A number in ``[0, n)``: the draw modulo ``n`` (the Forgotten kernels)."""
    return <int>(splitmix64(state) % <uint64_t>n)


cdef inline int below_high(uint64_t* state, int n) noexcept nogil:
    """A number in ``[0, n)``: the draw's top 31 bits modulo ``n`` (the Aetherya playouts)."""
    return <int>((splitmix64(state) >> 33) % <uint64_t>n)


cdef inline int below_scaled(uint64_t* state, int n) noexcept nogil:
    """A number in ``[0, n)``: the draw's top 32 bits scaled by ``n`` (Lemire's multiply-shift, Memorinth)."""
    return <int>(((splitmix64(state) >> 32) * <uint64_t>n) >> 32)


# -- atomics (searches sharing a best value across threads) ----------------------------------------------
cdef extern from *:
    """
    static inline int64_t ms_atomic_load(const int64_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void ms_atomic_store(int64_t* p, int64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int64_t ms_atomic_add(int64_t* p, int64_t v) { return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL); }
    """
    int64_t atomic_load "ms_atomic_load"(const int64_t* p) nogil
    void atomic_store "ms_atomic_store"(int64_t* p, int64_t v) nogil
    int64_t atomic_add "ms_atomic_add"(int64_t* p, int64_t v) nogil


# -- the clock -------------------------------------------------------------------------------------
cdef inline double monotonic_seconds() noexcept nogil:
    """Seconds of the monotonic clock (deadlines of the compiled searches)."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# -- the hash table ----------------------------------------------------------------------------------
cdef inline uint64_t hash_words(const uint64_t* key, int words) noexcept nogil:
    """The hash of a key of ``words`` 64-bit words."""
    cdef uint64_t h = <uint64_t>0x243F6A8885A308D3
    cdef int i
    for i in range(words):
        h = (h ^ key[i]) * <uint64_t>0x9E3779B97F4A7C15
        h ^= h >> 29
    return h


cdef extern from "<stdint.h>":
    const size_t NO_LIMIT "SIZE_MAX"


ctypedef struct HashTable:
    uint64_t* keys        # capacity * words
    double* values
    uint8_t* used
    size_t capacity       # a power of two
    size_t size
    size_t limit          # no growth once this many keys are held (NO_LIMIT: grow while memory lasts)
    int words
    int load_tenths       # grow when more than this many tenths full


cdef inline void table_free(HashTable* t) noexcept nogil:
    free(t.keys)
    free(t.values)
    free(t.used)
    t.keys = NULL
    t.values = NULL
    t.used = NULL
    t.capacity = 0
    t.size = 0


cdef inline int table_init(HashTable* t, int words, size_t capacity, size_t limit, int load_tenths) noexcept nogil:
    """An empty table (``capacity`` a power of two); -1 when memory runs out."""
    t.words = words
    t.capacity = capacity
    t.size = 0
    t.limit = limit
    t.load_tenths = load_tenths
    t.keys = <uint64_t*>malloc(capacity * words * sizeof(uint64_t))
    t.values = <double*>malloc(capacity * sizeof(double))
    t.used = <uint8_t*>calloc(capacity, 1)
    if t.keys == NULL or t.values == NULL or t.used == NULL:
        table_free(t)
        return -1
    return 0


cdef inline void table_clear(HashTable* t) noexcept nogil:
    """Forget every key (the capacity stays)."""
    memset(t.used, 0, t.capacity)
    t.size = 0


cdef inline bint same_key(const uint64_t* a, const uint64_t* b, int words) noexcept nogil:
    cdef int i
    for i in range(words):
        if a[i] != b[i]:
            return False
    return True


cdef inline size_t table_slot(const HashTable* t, const uint64_t* key) noexcept nogil:
    """The slot holding ``key``, or the empty slot where it would go."""
    cdef size_t mask = t.capacity - 1
    cdef size_t slot = hash_words(key, t.words) & mask
    while t.used[slot] and not same_key(&t.keys[slot * t.words], key, t.words):
        slot = (slot + 1) & mask
    return slot


cdef inline bint table_lookup(const HashTable* t, const uint64_t* key, double* value) noexcept nogil:
    """True and ``value[0]`` set when ``key`` is in the table."""
    cdef size_t slot = table_slot(t, key)
    if t.used[slot]:
        value[0] = t.values[slot]
        return True
    return False


cdef inline int table_grow(HashTable* t) noexcept nogil:
    """Double the capacity; -1 (the table unchanged) when memory runs out."""
    cdef HashTable bigger
    cdef size_t j, slot
    if table_init(&bigger, t.words, t.capacity * 2, t.limit, t.load_tenths) != 0:
        return -1
    for j in range(t.capacity):
        if t.used[j]:
            slot = table_slot(&bigger, &t.keys[j * t.words])
            bigger.used[slot] = 1
            memcpy(&bigger.keys[slot * t.words], &t.keys[j * t.words], t.words * sizeof(uint64_t))
            bigger.values[slot] = t.values[j]
    bigger.size = t.size
    table_free(t)
    t[0] = bigger
    return 0


cdef inline int table_store(HashTable* t, const uint64_t* key, double value) noexcept nogil:
    """Set the value of ``key`` (added if new); -1 when the table is due to grow and cannot (``limit`` keys
    held, or no memory): the check comes first, so a full table refuses even a key it holds."""
    cdef size_t slot
    if (t.size + 1) * 10 > t.capacity * t.load_tenths:
        if t.size >= t.limit or table_grow(t) != 0:
            return -1
    slot = table_slot(t, key)
    if t.used[slot]:
        t.values[slot] = value
        return 0
    t.used[slot] = 1
    memcpy(&t.keys[slot * t.words], key, t.words * sizeof(uint64_t))
    t.values[slot] = value
    t.size += 1
    return 0
