"""Pure-Python twin of ``src/common.pxd``: the kernels' random step (splitmix64) and the hash of their tables.

Bit for bit the compiled functions: a stream is one 64-bit word advanced by :meth:`SplitMix64.next`; the three
ways of drawing a number below ``n`` are each a kernel's convention (``below_mod``: Forgotten, ``below_high``:
Aetherya playouts, ``below_scaled``: Memorinth). The twins' memo tables are dictionaries, so only the hash
itself has a twin here (:func:`hash_words`).
"""

from __future__ import annotations

from collections.abc import Sequence

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    """SplitMix64's finaliser."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def stream_seed(seed: int, index: int) -> int:
    """The starting word of stream ``index`` of ``seed``."""
    return mix64((seed & MASK64) ^ mix64((index + 0x632BE59BD9B4E019) & MASK64))


class SplitMix64:
    """One random stream: ``state`` is the 64-bit word the kernels keep."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next(self) -> int:
        """The next 64-bit number."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        return mix64(self.state)

    def below_mod(self, n: int) -> int:
        """A number in ``[0, n)``: the draw modulo ``n``."""
        return self.next() % n

    def below_high(self, n: int) -> int:
        """A number in ``[0, n)``: the draw's top 31 bits modulo ``n``."""
        return (self.next() >> 33) % n

    def below_scaled(self, n: int) -> int:
        """A number in ``[0, n)``: the draw's top 32 bits scaled by ``n``."""
        return ((self.next() >> 32) * n) >> 32


def hash_words(key: Sequence[int]) -> int:
    """The hash of a key of 64-bit words (the compiled tables' and transposition cache's)."""
    h = 0x243F6A8885A308D3
    for word in key:
        h = ((h ^ (word & MASK64)) * GOLDEN_GAMMA) & MASK64
        h ^= h >> 29
    return h
