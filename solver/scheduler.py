"""Jobs waiting for a worker and the worker threads that run them, shared by the engine and the web board.

Minimal on purpose (issue 23 replaces it with a bounded scheduler): one priority queue without a bound
(higher ``priority`` first, ties in arrival order), a fixed number of worker threads, and :meth:`Scheduler.terminate`,
which sets the cancel event of every job it matches; a job still queued is answered at once by its
``on_cancel`` and skipped when a worker reaches it. A job is *active* from :meth:`Scheduler.submit` until it has
run or has been answered in the queue; ``on_done`` is then called once.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_SHUTDOWN = float("inf")


@dataclass(eq=False)
class Job:
    """One unit of work: ``work()`` runs on a worker; ``cancel`` is the event ``terminate`` sets (the work polls
    it); ``key`` and ``owner`` are what a terminate matches (the query's id, the page that sent it)."""

    work: Callable[[], None]
    priority: int = 0
    key: Any = None
    owner: Any = None
    on_cancel: Callable[[], None] | None = None
    on_done: Callable[[], None] | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    started: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _claim(self) -> bool:
        """True for the worker that may run the job (it was neither answered in the queue nor started)."""
        with self._lock:
            if self.started or self.done.is_set():
                return False
            self.started = True
            return True


class Scheduler:
    """A priority queue of jobs and ``threads`` workers that run them."""

    def __init__(self, threads: int = 1, name: str = "worker") -> None:
        self._queue: queue.PriorityQueue[tuple[float, int, Job | None]] = queue.PriorityQueue()
        self._arrival = itertools.count()
        self._active: dict[int, Job] = {}
        self._lock = threading.Lock()
        self._workers = [threading.Thread(target=self._work, daemon=True, name=f"{name}-{i}")
                         for i in range(max(1, threads))]
        for worker in self._workers:
            worker.start()

    def submit(self, job: Job) -> Job:
        """Queue ``job``; it runs when a worker is free and no job of higher priority waits."""
        with self._lock:
            self._active[id(job)] = job
        self._queue.put((-job.priority, next(self._arrival), job))
        return job

    def active(self, match: Callable[[Job], bool] | None = None) -> list[Job]:
        """The jobs queued or running (those ``match`` accepts)."""
        with self._lock:
            jobs = list(self._active.values())
        return [job for job in jobs if match is None or match(job)]

    def terminate(self, match: Callable[[Job], bool]) -> int:
        """Set the cancel event of every active job ``match`` accepts; a job still queued is answered now
        (``on_cancel``). Returns how many jobs were matched."""
        jobs = self.active(match)
        for job in jobs:
            job.cancel.set()
            with job._lock:
                queued = not job.started and not job.done.is_set()
                if queued:
                    job.done.set()
            if queued:
                if job.on_cancel is not None:
                    job.on_cancel()
                self._finish(job)
        return len(jobs)

    def close(self) -> None:
        """Let the workers run every queued job, then stop them."""
        for _ in self._workers:
            self._queue.put((_SHUTDOWN, next(self._arrival), None))
        for worker in self._workers:
            worker.join()

    def _work(self) -> None:
        while True:
            _, _, job = self._queue.get()
            if job is None:
                return
            if not job._claim():
                continue
            try:
                job.work()
            finally:
                job.done.set()
                self._finish(job)

    def _finish(self, job: Job) -> None:
        with self._lock:
            self._active.pop(id(job), None)
        if job.on_done is not None:
            job.on_done()
