"""Typed buffers for the compiled kernels without numpy (issue 24: a short hint does not import it).

The kernels take typed memoryviews, which accept any buffer of the right item type: ``array.array`` for one
dimension, a shaped ``memoryview`` of one for two. ``INT32`` and friends are the ``array`` type codes of the
kernels' C types on this platform (checked at import).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from typing import Any

from solver.lazynp import np

INT32, INT64, UINT8, UINT64 = "i", "q", "B", "Q"
for _code, _size in ((INT32, 4), (INT64, 8), (UINT8, 1), (UINT64, 8)):
    if array(_code).itemsize != _size:
        raise ImportError(f"array type code {_code!r} is {array(_code).itemsize} bytes here, not {_size}")


def typed(code: str, values: Iterable[int]) -> array:
    """A one-dimensional buffer of ``values`` (an ``array.array`` of type ``code``)."""
    return array(code, values)


def zeros(code: str, count: int) -> array:
    """``count`` zeros of type ``code``."""
    return array(code, bytes(array(code).itemsize * count))


def matrix(flat: array, columns: int) -> Any:
    """``flat`` seen as a C-contiguous matrix of ``columns`` columns (a writable view: the kernel fills it).
    A memoryview cannot have no rows: an empty matrix is numpy's (numpy is imported then)."""
    if not flat:
        return np.zeros((0, columns), dtype=np.dtype(flat.typecode))
    return memoryview(flat).cast("B").cast(flat.typecode, (len(flat) // columns, columns))


def stacked(rows: list[array]) -> Any:
    """Equal-length rows as one matrix (numpy's ``vstack`` of them)."""
    flat = array(rows[0].typecode)
    for row in rows:
        flat += row
    return matrix(flat, len(rows[0]))
