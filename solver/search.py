"""Search limits, cancellation and interim reports shared by every game's searches.

A :class:`SearchContext` is handed to every hint and solve call. Searches poll
:meth:`SearchContext.should_stop` in their outer loops (never in compiled inner
loops) and call :meth:`SearchContext.maybe_report` with a function that builds
their best-so-far result; the context decides whether it is time to report.

A compiled search runs without the GIL and cannot poll the context: a :class:`Watch`
gives it a stop flag (``watch.control[0]``, read by the kernel) and a watcher thread
that raises the flag on ``terminate`` or at the deadline, stops whatever registered
with :meth:`Watch.on_stop` (a CP-SAT solver), and sends the interim reports. It is the
one watcher every game's long compiled search uses.
"""

from __future__ import annotations

import threading
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.errors import InvalidInputError
from solver.validate import NODES, SEED, TIME_MS, as_object, check_keys, join


class Stopped(Exception):
    """Raised inside a long action (puzzle generation, self-play) when its context says stop.

    The service layer turns it into the action's final answer: ``terminated`` when the query was
    terminated, a time-limit error naming ``limits.time_ms`` otherwise.
    """


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
            time_ms=None if time_ms is None else TIME_MS.check(time_ms, join(field_name, "time_ms")),
            nodes=None if nodes is None else NODES.check(nodes, join(field_name, "nodes")),
        )

    def with_defaults(self, time_ms: int | None, nodes: int | None = None) -> Limits:
        """Fill unset limits with a game's defaults."""
        return Limits(time_ms=self.time_ms if self.time_ms is not None else time_ms,
                      nodes=self.nodes if self.nodes is not None else nodes)

    def until(self, deadline: float | None) -> Limits:
        """These limits with the time cut to what is left before ``deadline`` (``time.perf_counter()``; at least
        1 ms): one decision of a review, one turn of an analysis, under the cap of the whole."""
        if deadline is None:
            return self
        left = max(1, int((deadline - time.perf_counter()) * 1000))
        return Limits(time_ms=left if self.time_ms is None else min(self.time_ms, left), nodes=self.nodes)


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
    return SEED.check(value, field_name)


#: seconds between the watcher's looks at the cancel event, the clock and the report
WATCH_EVERY = 0.02


class Watch:
    """A stop flag raised by ``cancel`` or ``deadline`` (``time.perf_counter()``), and interim reports.

    Use it as a context manager around the search; the watcher thread runs only inside it.
    """

    def __init__(self, cancel: threading.Event | None = None, deadline: float | None = None,
                 report: Callable[[], None] | None = None, slots: int = 2, name: str = "search-watch") -> None:
        self.cancel = cancel
        self.deadline = deadline
        self.report = report
        self.name = name
        #: control[0]: the stop flag the compiled search polls; the other ``slots - 1`` entries are the kernel's
        #: own (the nodes of the call under way, a published incumbent, ...)
        self.control = array("q", bytes(8 * max(1, slots)))  # int64 zeros (a buffer, as numpy's were)
        self._stoppers: list[Callable[[], Any]] = []
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._failure: BaseException | None = None
        #: when the flag was raised (``time.perf_counter()``), for the work a stopped search still does
        self.stopped_at: float | None = None

    # -- the flag ---------------------------------------------------------------------------
    def stopped(self) -> bool:
        """True once the search must stop (cancelled or out of time); raises the flag if it was not yet."""
        if self.control[0]:
            return True
        if (self.cancel is not None and self.cancel.is_set()) or (
                self.deadline is not None and time.perf_counter() >= self.deadline):
            self.stop()
            return True
        return False

    @property
    def cancelled(self) -> bool:
        """True when the engine's ``terminate`` (not the clock) stopped the search."""
        return self.cancel is not None and self.cancel.is_set()

    def since_stop(self) -> float:
        """Seconds since the flag was raised (0 while it is not)."""
        return 0.0 if self.stopped_at is None else time.perf_counter() - self.stopped_at

    def remaining(self) -> float | None:
        """Seconds to the deadline (``None``: none)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def stop(self) -> None:
        """Raise the flag and stop whatever registered with :meth:`on_stop`."""
        with self._lock:
            if self.stopped_at is None:
                self.stopped_at = time.perf_counter()
            self.control[0] = 1
            stoppers = list(self._stoppers)
        for stopper in stoppers:
            stopper()

    def on_stop(self, stopper: Callable[[], Any]) -> Callable[[], None]:
        """Call ``stopper`` when the flag is raised (at once if it already is); returns the unregistering call."""
        with self._lock:
            raised = bool(self.control[0])
            if not raised:
                self._stoppers.append(stopper)
        if raised:
            stopper()

        def forget() -> None:
            with self._lock:
                if stopper in self._stoppers:
                    self._stoppers.remove(stopper)
        return forget

    # -- the watcher ------------------------------------------------------------------------
    def __enter__(self) -> Watch:
        if self.cancel is not None or self.deadline is not None or self.report is not None:
            self._thread = threading.Thread(target=self._run, daemon=True, name=self.name)
            self._thread.start()
        return self

    def __exit__(self, kind: Any, *exc: Any) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()
        if self._failure is not None and kind is None:
            raise self._failure  # a report that failed is a bug: it surfaces in the search's thread

    def _run(self) -> None:
        try:
            while not self._done.wait(self._pause()):
                if not self.control[0]:
                    self.stopped()
                if self.report is not None and not self.control[0]:
                    self.report()
        except BaseException as exc:  # noqa: BLE001 - handed to the search's thread by __exit__
            self._failure = exc
            self.stop()

    @classmethod
    def for_context(cls, ctx: SearchContext, report: Callable[[], Any] | None = None, slots: int = 2,
                    name: str = "search-watch") -> Watch:
        """A watch on ``ctx``: its ``terminate`` (cancel event) and time limit, with ``report`` called at every look
        (usually ``lambda: ctx.maybe_report(build)``)."""
        left = ctx.remaining()
        deadline = None if left is None else time.perf_counter() + left
        return cls(ctx.cancel, deadline, report, slots=slots, name=name)

    def _pause(self) -> float:
        left = self.remaining()
        return WATCH_EVERY if left is None else max(0.0005, min(WATCH_EVERY, left))
