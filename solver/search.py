"""Search limits, cancellation and interim reports shared by every game's searches.

A :class:`SearchContext` is handed to every hint and solve call. Searches poll
:meth:`SearchContext.should_stop` in their outer loops (never in compiled inner
loops) and call :meth:`SearchContext.maybe_report` with a function that builds
their best-so-far result; the context decides whether it is time to report.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.errors import InvalidInputError
from solver.validate import as_int, as_object, check_keys, join


@dataclass(frozen=True)
class Limits:
    """How much work a search may do. ``None`` means the game's default."""

    time_ms: int | None = None
    nodes: int | None = None

    @staticmethod
    def from_json(value: Any, field_name: str = "limits") -> Limits:
        """Parse ``{"time_ms": int, "nodes": int}`` (both optional)."""
        if value is None:
            return Limits()
        obj = as_object(value, field_name)
        check_keys(obj, ("time_ms", "nodes"), field_name)
        time_ms = obj.get("time_ms")
        nodes = obj.get("nodes")
        return Limits(
            time_ms=None if time_ms is None else as_int(time_ms, join(field_name, "time_ms"), 1, 86_400_000),
            nodes=None if nodes is None else as_int(nodes, join(field_name, "nodes"), 1, 10**12),
        )

    def with_defaults(self, time_ms: int | None, nodes: int | None = None) -> Limits:
        """Fill unset limits with a game's defaults."""
        return Limits(time_ms=self.time_ms if self.time_ms is not None else time_ms,
                      nodes=self.nodes if self.nodes is not None else nodes)


@dataclass
class SearchContext:
    """Limits plus a cancellation flag and an optional interim-report sink."""

    limits: Limits = field(default_factory=Limits)
    report: Callable[[Any], None] | None = None
    report_every: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    seed: int = 0
    started: float = field(default_factory=time.perf_counter)
    _last_report: float = field(default=0.0, init=False)

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return time.perf_counter() - self.started

    def remaining(self) -> float | None:
        """Seconds left under ``limits.time_ms`` (``None`` when unlimited)."""
        if self.limits.time_ms is None:
            return None
        return max(0.0, self.limits.time_ms / 1000.0 - self.elapsed())

    def deadline_passed(self) -> bool:
        """True once the time limit is used up."""
        left = self.remaining()
        return left is not None and left <= 0.0

    def should_stop(self, nodes_done: int = 0) -> bool:
        """True when cancelled, out of time, or past the node limit."""
        if self.cancel.is_set():
            return True
        if self.limits.nodes is not None and nodes_done >= self.limits.nodes:
            return True
        return self.deadline_passed()

    @property
    def cancelled(self) -> bool:
        """True when the engine was asked to terminate this search."""
        return self.cancel.is_set()

    def maybe_report(self, build: Callable[[], Any]) -> None:
        """Emit ``build()`` as an interim result when a report is due."""
        if self.report is None or not self.report_every:
            return
        now = self.elapsed()
        if now - self._last_report >= self.report_every:
            self._last_report = now
            self.report(build())


def check_seed(value: Any, field_name: str = "seed") -> int:
    """A seed is a non-negative integer below 2**63."""
    if value is None:
        raise InvalidInputError(field_name, value, "a seed is required")
    return as_int(value, field_name, 0, 2**63 - 1)
