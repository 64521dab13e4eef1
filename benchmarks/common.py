"""Shared helpers for the benchmark scripts: timing, percentiles, markdown tables (intervals: solver.stats)."""

from __future__ import annotations

import math
import os
import platform
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from solver.stats import mean_ci, wilson  # noqa: F401 (the one implementation, re-exported for the scripts)


def timed_rounds(fn: Callable[[], Any], repeat: int, min_seconds: float,
                 clock: Callable[[], float] = time.perf_counter) -> list[tuple[int, float]]:
    """``(calls, seconds)`` of each of ``repeat`` rounds that call ``fn`` until ``min_seconds`` of ``clock`` (wall
    time by default, ``time.process_time`` for CPU time) have passed."""
    rounds = []
    for _ in range(repeat):
        calls, start = 0, clock()
        while True:
            fn()
            calls += 1
            elapsed = clock() - start
            if elapsed >= min_seconds:
                break
        rounds.append((calls, elapsed))
    return rounds


def best_time(fn: Callable[[], Any], repeat: int = 5, min_seconds: float = 0.2) -> float:
    """Best wall time of one call of ``fn`` (seconds), over ``repeat`` rounds of at least ``min_seconds``."""
    return min((elapsed / calls for calls, elapsed in timed_rounds(fn, repeat, min_seconds)), default=math.inf)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation."""
    data = sorted(values)
    if not data:
        return math.nan
    pos = (len(data) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A markdown table."""
    def cell(v: Any) -> str:
        if isinstance(v, float):
            return f"{v:,.3g}" if abs(v) < 1000 else f"{v:,.0f}"
        if isinstance(v, int):
            return f"{v:,}"
        return str(v)
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def machine() -> str:
    """One line describing where the benchmark ran."""
    return (f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores, "
            f"{platform.machine()}, {time.strftime('%Y-%m-%d')}")


def openspiel_adapter() -> ModuleType | None:
    """``solver.openspiel`` (the optional extra ``memory-solver[openspiel]``), or None after saying why the
    benchmark is skipped."""
    try:
        import solver.openspiel as sos  # lazy: OpenSpiel is a heavy optional extra
    except ImportError as exc:
        print(f"skipped: {exc}")
        return None
    return sos
