"""Stopping Embers searches on time and on ``terminate``, and sending their interim reports (issue 11).

The compiled plan search (``src/embers_plan.pyx``) and CP-SAT run outside Python. A :class:`Watch` gives them
a stop flag (``control``, which the compiled search reads every 1024 nodes) and a watcher thread that raises it
when the engine's ``terminate`` sets the search's cancel event or the time limit passes; for CP-SAT it also
calls ``stop_search`` (:meth:`Watch.on_stop`). The same thread calls the search's ``report`` (usually
``ctx.maybe_report`` with a builder of the best result so far) at every look, so interim answers keep coming
while a long kernel call runs.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

#: seconds between the watcher's looks at the cancel event, the clock and the report
WATCH_EVERY = 0.02


class Watch:
    """A stop flag raised by ``cancel`` or ``deadline`` (``time.perf_counter()``), and interim reports.

    Use it as a context manager around the search; the watcher thread runs only inside it.
    """

    def __init__(self, cancel: threading.Event | None = None, deadline: float | None = None,
                 report: Callable[[], None] | None = None) -> None:
        self.cancel = cancel
        self.deadline = deadline
        self.report = report
        #: control[0]: the stop flag the compiled search polls; control[1]: the nodes of the kernel call under way
        self.control = np.zeros(2, dtype=np.int64)
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
            self._thread = threading.Thread(target=self._run, daemon=True, name="embers-watch")
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

    def _pause(self) -> float:
        left = self.remaining()
        return WATCH_EVERY if left is None else max(0.0005, min(WATCH_EVERY, left))
