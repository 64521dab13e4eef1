"""``numpy.random.default_rng(seed)`` without importing numpy, for the short paths that start a process.

:func:`default_rng` returns a :class:`Stream`: the same PCG64 bit generator, seeded through the same
``SeedSequence``, drawing the same numbers as numpy's ``Generator`` for the calls a hint makes
(``integers``, ``random``, ``choice`` of an index with or without ``p``, ``shuffle`` of a list,
``permutation`` of a range). Any other call hands the stream's exact state to a numpy ``Generator`` (numpy is
imported then, lazily) and goes on there, so a caller always gets numpy's answer; a hint in a fresh process
that only uses the calls above never loads numpy (issue 24: ``import numpy`` is half of a short hint's CPU).

``tests/test_seeded.py`` checks every call against numpy on random seeds and call sequences.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate
from numbers import Integral
from typing import Any

from solver.lazynp import np

MASK32 = 0xFFFFFFFF
MASK64 = 0xFFFFFFFFFFFFFFFF
MASK128 = (1 << 128) - 1
#: PCG64's 128-bit LCG multiplier (``PCG_DEFAULT_MULTIPLIER_128``)
MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645
#: numpy's SeedSequence hash constants (``numpy/random/bit_generator.pyx``)
INIT_A, MULT_A = 0x43B0D7E5, 0x931E8875
INIT_B, MULT_B = 0x8B51F9DD, 0x58F38DED
MIX_MULT_L, MIX_MULT_R = 0xCA01F9DD, 0x4973F715
XSHIFT = 16
POOL_SIZE = 4
#: a double in [0, 1) from the top 53 bits of a draw, as numpy's ``next_double``
DOUBLE_UNIT = 1.0 / 9007199254740992.0


def _words(entropy: int | Sequence[int]) -> list[int]:
    """The seed as numpy's SeedSequence reads it: each integer as 32-bit words, least significant first."""
    values = [entropy] if isinstance(entropy, Integral) else list(entropy)
    words: list[int] = []
    for value in values:
        value = int(value)
        if value < 0:
            raise ValueError("expected non-negative integer")
        if value == 0:
            words.append(0)
        while value:
            words.append(value & MASK32)
            value >>= 32
    return words


def _pool(entropy: int | Sequence[int]) -> list[int]:
    """SeedSequence's entropy pool (``mix_entropy``)."""
    hash_const = INIT_A

    def hashmix(value: int) -> int:
        nonlocal hash_const
        value = (value ^ hash_const) & MASK32
        hash_const = (hash_const * MULT_A) & MASK32
        value = (value * hash_const) & MASK32
        return value ^ (value >> XSHIFT)

    def mix(x: int, y: int) -> int:
        result = ((MIX_MULT_L * x) & MASK32) - ((MIX_MULT_R * y) & MASK32)
        result &= MASK32
        return result ^ (result >> XSHIFT)

    words = _words(entropy)
    pool = [hashmix(words[i] if i < len(words) else 0) for i in range(POOL_SIZE)]
    for i_src in range(POOL_SIZE):
        for i_dst in range(POOL_SIZE):
            if i_src != i_dst:
                pool[i_dst] = mix(pool[i_dst], hashmix(pool[i_src]))
    for word in words[POOL_SIZE:]:
        for i_dst in range(POOL_SIZE):
            pool[i_dst] = mix(pool[i_dst], hashmix(word))
    return pool


def _generate_state(pool: list[int], n_words: int) -> list[int]:
    """SeedSequence.generate_state(n_words, uint32)."""
    hash_const = INIT_B
    out = []
    for i in range(n_words):
        value = pool[i % POOL_SIZE] ^ hash_const
        hash_const = (hash_const * MULT_B) & MASK32
        value = (value * hash_const) & MASK32
        out.append(value ^ (value >> XSHIFT))
    return out


def _lemire(draw: Callable[[], int], span: int, bits: int) -> int:
    """A draw in [0, span] from ``bits``-bit draws by Lemire's method (numpy's ``buffered_bounded_lemire_uint32``
    and ``bounded_lemire_uint64``)."""
    mask = (1 << bits) - 1
    excl = span + 1
    product = draw() * excl
    if product & mask < excl:
        threshold = (mask - span) % excl
        while product & mask < threshold:
            product = draw() * excl
    return product >> bits


class Stream:
    """numpy's ``Generator(PCG64(seed))``, for the calls listed in the module's docstring; any other attribute
    is numpy's, on the same state."""

    __slots__ = ("_state", "_inc", "_has_uint32", "_uinteger", "_numpy")

    def __init__(self, seed: int | Sequence[int] | None) -> None:
        if seed is None:
            raise ValueError("a Stream needs a seed (numpy's unseeded generator draws from the OS)")
        words = _generate_state(_pool(seed), 8)
        s = [words[2 * i] | (words[2 * i + 1] << 32) for i in range(4)]
        initstate, initseq = (s[0] << 64) | s[1], (s[2] << 64) | s[3]
        self._inc = ((initseq << 1) | 1) & MASK128
        self._state = ((self._inc + initstate) * MULTIPLIER + self._inc) & MASK128  # from 0: step, add, step
        self._has_uint32 = False
        self._uinteger = 0
        self._numpy: Any = None

    # -- the bit generator --------------------------------------------------------------------------
    def _next64(self) -> int:
        self._state = state = (self._state * MULTIPLIER + self._inc) & MASK128
        value = ((state >> 64) ^ state) & MASK64
        rot = state >> 122
        return ((value >> rot) | (value << (64 - rot))) & MASK64

    def _next32(self) -> int:
        if self._has_uint32:
            self._has_uint32 = False
            return self._uinteger
        value = self._next64()
        self._has_uint32, self._uinteger = True, value >> 32
        return value & MASK32

    def _bounded(self, span: int) -> int:
        """A draw in [0, span] (numpy's ``random_bounded_uint64``, unmasked: 32-bit draws when ``span`` fits)."""
        if span == 0:
            return 0
        if span <= MASK32:
            return self._next32() if span == MASK32 else _lemire(self._next32, span, 32)
        return self._next64() if span == MASK64 else _lemire(self._next64, span, 64)

    def _interval(self, most: int) -> int:
        """A draw in [0, most] by masked rejection (numpy's ``random_interval``, used by ``shuffle``)."""
        if most == 0:
            return 0
        mask = (1 << most.bit_length()) - 1
        draw = self._next32 if most <= MASK32 else self._next64
        while True:
            value = draw() & mask
            if value <= most:
                return value

    # -- the Generator calls ------------------------------------------------------------------------
    def integers(self, low: int, high: int | None = None, size: Any = None, dtype: Any = None,
                 endpoint: bool = False) -> Any:
        """``Generator.integers`` for one int64 draw; other sizes or dtypes are numpy's."""
        if self._numpy is not None or size is not None or dtype is not None:
            return self._as_numpy().integers(low, high, size=size, **({} if dtype is None else {"dtype": dtype}),
                                             endpoint=endpoint)
        if high is None:
            low, high = 0, low
        low, high = int(low), int(high)
        span = high - low - (0 if endpoint else 1)
        if span < 0:
            raise ValueError("high <= 0" if low == 0 else "low >= high")
        if low < -(1 << 63) or low + span >= (1 << 63):
            return self._as_numpy().integers(low, high, endpoint=endpoint)
        return low + self._bounded(span)

    def random(self, size: Any = None) -> Any:
        """``Generator.random()``: one double in [0, 1)."""
        if self._numpy is not None or size is not None:
            return self._as_numpy().random(size)
        return (self._next64() >> 11) * DOUBLE_UNIT

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None, **options: Any) -> Any:
        """``Generator.choice(n)`` or ``choice(n, p=weights)``: one index in [0, n)."""
        if (self._numpy is not None or size is not None or not replace or options
                or not isinstance(a, Integral) or (p is not None and not isinstance(p, (list, tuple)))):
            return self._as_numpy().choice(a, size=size, replace=replace, p=p, **options)
        n = int(a)
        if n <= 0:
            raise ValueError("a must be a positive integer unless no samples are taken")
        if p is None:
            return self._bounded(n - 1)
        probs = [float(x) for x in p]
        if len(probs) != n or any(x < 0 for x in probs) or abs(sum(probs) - 1.0) > 1.4901161193847656e-08:
            return self._as_numpy().choice(a, p=p)  # numpy's own checks and messages
        cdf = list(accumulate(probs))
        last = cdf[-1]
        return bisect_right([x / last for x in cdf], self.random())

    def shuffle(self, x: Any, axis: int = 0) -> None:
        """``Generator.shuffle`` of a list, in place."""
        if self._numpy is not None or not isinstance(x, list) or axis != 0:
            self._as_numpy().shuffle(x, axis=axis)
            return
        for i in reversed(range(1, len(x))):
            j = self._interval(i)
            x[i], x[j] = x[j], x[i]

    # -- everything else: numpy's Generator on the same state ---------------------------------------
    def _as_numpy(self) -> Any:
        if self._numpy is None:
            bit_generator = np.random.PCG64()
            bit_generator.state = {"bit_generator": "PCG64", "state": {"state": self._state, "inc": self._inc},
                                   "has_uint32": int(self._has_uint32), "uinteger": self._uinteger}
            self._numpy = np.random.Generator(bit_generator)
        return self._numpy

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._as_numpy(), name)


def default_rng(seed: int | Sequence[int]) -> Stream:
    """A seeded stream that draws what ``numpy.random.default_rng(seed)`` draws (see :class:`Stream`)."""
    return Stream(seed)
