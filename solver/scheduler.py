"""Admission control and worker threads, shared by the engine and the web board (issue 23).

A front door wraps each query in a :class:`Job` (the work that answers it, the client that sent it, its
priority, an upper bound on its running time) and hands it to :meth:`Scheduler.submit`. The scheduler promises:

- **bounded**: at most ``max_queue`` jobs wait in each lane (a full queue refuses with :class:`QueueFull`, which
  says when to retry) and one client has at most ``max_per_client`` jobs queued or running (:class:`ClientBusy`);
- **fair between clients**: a free worker serves the client it served least recently (round robin over the
  clients with waiting jobs, a client being a connection's address, never a name the client chose), so a job
  waits behind at most one job of each other client in its lane; ``priority`` orders only one client's own jobs
  (higher first, ties in arrival order);
- **a quick lane** (``quick_ms``): one more worker runs only jobs that promise to end within ``quick_ms``
  (moves, positions, short hints), and they have a queue of their own, so they never wait behind long searches.
  A running thread cannot be stopped from outside: each job's work ends at its caller's time cap and polls
  ``cancel`` (``solver.protocol.answer_query`` does both for every query, its moves included), and the caller
  sets ``cost_ms`` (``solver.protocol.cost_ms``); a quick job that runs ``QUICK_OVERRUN`` times the lane's bound
  is logged as misjudged;
- **one final answer per job**: either the job's ``work`` runs (it sends the answers) or, once and only once, its
  ``on_cancel(reason)`` answers it: :data:`TERMINATED` (``terminate`` while queued), :data:`EXPIRED` (it waited
  ``max_wait_ms`` without a free worker) or :data:`SHUTDOWN`; ``on_done`` follows either;
- **terminate**: :meth:`Scheduler.terminate` sets the cancel event of running jobs (the work polls it) and
  answers queued ones at once;
- **shutdown**: :meth:`Scheduler.shutdown` answers every queued job, terminates the running ones and waits for
  the workers a bounded time; :meth:`Scheduler.close` lets the queue drain first (the engine's end of input).
"""

from __future__ import annotations

import bisect
import itertools
import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

LOG = logging.getLogger("solver.scheduler")

#: why a job never ran (the argument of ``Job.on_cancel``)
TERMINATED = "terminated"
EXPIRED = "expired"
SHUTDOWN = "shutdown"

QUEUED, RUNNING, FINISHED, DROPPED = "queued", "running", "finished", "dropped"
#: a quick-lane job that runs this many times the lane's bound is logged (a query misjudged as quick)
QUICK_OVERRUN = 4


class Refused(Exception):
    """A job the scheduler did not take; ``retry_after`` is the seconds a client should wait before resending."""

    retry_after: int = 1


class QueueFull(Refused):
    """Every place in the queue is taken."""

    def __init__(self, limit: int, retry_after: int) -> None:
        super().__init__(f"the queue is full ({limit} queries wait): retry in {retry_after} s")
        self.limit, self.retry_after = limit, retry_after


class ClientBusy(Refused):
    """This client already has as many jobs queued or running as it may."""

    def __init__(self, limit: int, retry_after: int) -> None:
        super().__init__(f"this client already has {limit} queries queued or running: wait for one or stop one")
        self.limit, self.retry_after = limit, retry_after


class Closed(Refused):
    """The scheduler is shutting down."""

    def __init__(self) -> None:
        super().__init__("the server is shutting down")


@dataclass(eq=False)
class Job:
    """One query to run: ``work()`` runs on a worker and sends the query's answers (polling ``cancel``).

    ``client`` is who sent it (fairness and per-client limits: a connection's address); ``owner`` a scope within the
    client that terminate may match (a page); ``key`` the query's id; ``cost_ms`` an upper bound on its running
    time (its time cap; ``None``: unknown), which decides its lane. ``on_cancel(reason)`` answers a job that never
    ran; ``on_done()`` is called once when the job leaves the scheduler.
    """

    work: Callable[[], None]
    client: Hashable = None
    priority: int = 0
    key: Any = None
    owner: Any = None
    cost_ms: int | None = None
    on_cancel: Callable[[str], None] | None = None
    on_done: Callable[[], None] | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    state: str = "new"
    queued_at: float | None = None
    started_at: float | None = None
    finished_at: float | None = None
    _order: tuple[int, int] = (0, 0)

    @property
    def started(self) -> bool:
        """True once a worker took the job."""
        return self.state in (RUNNING, FINISHED)

    @property
    def waited(self) -> float | None:
        """Seconds between submission and start (``None`` while it waits or when it never ran)."""
        return None if self.started_at is None or self.queued_at is None else self.started_at - self.queued_at


@dataclass(eq=False)
class _Client:
    """One client's jobs: those waiting, sorted by (-priority, arrival), and how many it has in all; ``turn`` orders
    the clients (a client never served yet comes first, in arrival order; then the least recently served)."""

    turn: tuple[int, int]
    waiting: list[tuple[tuple[int, int], Job]] = field(default_factory=list)
    active: int = 0


class Scheduler:
    """Bounded, fair admission and ``threads`` workers (plus one quick-lane worker when ``quick_ms`` is set)."""

    def __init__(self, threads: int = 1, *, max_queue: int | None = None, max_per_client: int | None = None,
                 quick_ms: int | None = None, max_wait_ms: int | None = None, name: str = "worker") -> None:
        if threads < 1:
            raise ValueError("a scheduler needs at least one worker")
        if max_queue is not None and max_queue < 1:
            raise ValueError("max_queue must be at least 1")
        if max_per_client is not None and max_per_client < 1:
            raise ValueError("max_per_client must be at least 1")
        self.threads = threads
        self.max_queue = max_queue
        self.max_per_client = max_per_client
        self.quick_ms = quick_ms
        self.max_wait_ms = max_wait_ms
        self._lock = threading.Lock()
        self._work_ready = threading.Condition(self._lock)
        self._reaper_wake = threading.Condition(self._lock)
        self._clients: dict[Hashable, _Client] = {}
        self._running: set[Job] = set()
        self._queued = {False: 0, True: 0}  # jobs waiting, by lane (quick or not)
        self._arrivals: deque[Job] = deque()  # queued jobs in arrival order (for max_wait_ms)
        self._seq = itertools.count()
        self._closing: str | None = None  # None, "drain" or "now"
        self._workers = [threading.Thread(target=self._work, args=(False,), daemon=True, name=f"{name}-{i}")
                         for i in range(threads)]
        if quick_ms is not None:
            self._workers.append(threading.Thread(target=self._work, args=(True,), daemon=True, name=f"{name}-quick"))
        for worker in self._workers:
            worker.start()
        self._reaper: threading.Thread | None = None
        if max_wait_ms is not None:
            self._reaper = threading.Thread(target=self._reap, daemon=True, name=f"{name}-reaper")
            self._reaper.start()

    # -- admission ------------------------------------------------------------------------------
    def submit(self, job: Job) -> Job:
        """Queue ``job`` or refuse it (:class:`QueueFull`, :class:`ClientBusy`, :class:`Closed`); when refused,
        nothing of it runs and no callback is called: the caller answers the refusal."""
        with self._lock:
            if self._closing is not None:
                raise Closed()
            client = self._clients.get(job.client)
            if self.max_per_client is not None and client is not None and client.active >= self.max_per_client:
                raise ClientBusy(self.max_per_client, self._retry_after())
            quick = self._is_quick(job)
            if self.max_queue is not None and self._queued[quick] >= self.max_queue:
                raise QueueFull(self.max_queue, self._retry_after())
            if client is None:
                client = self._clients[job.client] = _Client(turn=(0, next(self._seq)))
            job._order = (-job.priority, next(self._seq))
            job.state, job.queued_at = QUEUED, time.monotonic()
            bisect.insort(client.waiting, (job._order, job), key=lambda entry: entry[0])
            client.active += 1
            self._queued[quick] += 1
            if self.max_wait_ms is not None:
                self._arrivals.append(job)
                self._reaper_wake.notify()
            self._work_ready.notify_all()
        return job

    def retry_after(self) -> int:
        """Seconds until a place in the queue is likely free (at least 1)."""
        with self._lock:
            return self._retry_after()

    def _retry_after(self) -> int:
        now = time.monotonic()
        ends = [job.started_at + job.cost_ms / 1000.0 - now for job in self._running
                if job.cost_ms is not None and job.started_at is not None]
        return max(1, min(60, math.ceil(min(ends)) if ends else 1))

    # -- what runs and waits ------------------------------------------------------------------
    def active(self, match: Callable[[Job], bool] | None = None) -> list[Job]:
        """The jobs queued or running (those ``match`` accepts)."""
        with self._lock:
            jobs = [job for client in self._clients.values() for _, job in client.waiting] + list(self._running)
        return [job for job in jobs if match is None or match(job)]

    def stats(self) -> dict[str, int]:
        """How many jobs wait (of them in the quick lane) and run, and how many clients have some."""
        with self._lock:
            return {"queued": sum(self._queued.values()), "queued_quick": self._queued[True],
                    "running": len(self._running), "clients": len(self._clients)}

    # -- stopping -------------------------------------------------------------------------------
    def terminate(self, match: Callable[[Job], bool]) -> int:
        """Set the cancel event of every queued or running job ``match`` accepts; a queued one is answered now
        (``on_cancel(TERMINATED)``). Returns how many jobs were matched."""
        with self._lock:
            matched = [job for client in self._clients.values() for _, job in client.waiting if match(job)]
            running = [job for job in self._running if match(job)]
            for job in running:
                job.cancel.set()
            for job in matched:
                job.cancel.set()
                self._drop(job)
        self._answer_dropped(matched, TERMINATED)
        return len(matched) + len(running)

    def disconnect(self, client: Hashable) -> int:
        """Terminate every job of ``client`` (it went away)."""
        return self.terminate(lambda job: job.client == client)

    def close(self) -> None:
        """Let the workers run every queued job, then stop them (the engine's end of input)."""
        with self._lock:
            if self._closing is None:
                self._closing = "drain"
            self._work_ready.notify_all()
            self._reaper_wake.notify_all()
        for worker in self._workers:
            worker.join()
        if self._reaper is not None:
            self._reaper.join()

    def shutdown(self, timeout: float = 1.5) -> bool:
        """Answer every queued job (``on_cancel(SHUTDOWN)``), terminate the running ones and wait up to
        ``timeout`` seconds for them to end. True when every worker has stopped."""
        with self._lock:
            self._closing = "now"
            dropped = [job for client in self._clients.values() for _, job in client.waiting]
            for job in dropped:
                job.cancel.set()
                self._drop(job)
            for job in self._running:
                job.cancel.set()
            self._work_ready.notify_all()
            self._reaper_wake.notify_all()
        self._answer_dropped(dropped, SHUTDOWN)
        end = time.monotonic() + timeout
        for worker in self._workers:
            worker.join(max(0.0, end - time.monotonic()))
        return not any(worker.is_alive() for worker in self._workers)

    # -- internals (called with the lock held unless said otherwise) ----------------------------------
    def _drop(self, job: Job) -> None:
        """Take a queued job out of its client's queue; it will be answered by ``on_cancel``."""
        client = self._clients[job.client]
        index = bisect.bisect_left(client.waiting, job._order, key=lambda entry: entry[0])
        del client.waiting[index]
        job.state = DROPPED
        self._queued[self._is_quick(job)] -= 1
        self._leave(job)

    def _leave(self, job: Job) -> None:
        client = self._clients[job.client]
        client.active -= 1
        if client.active == 0:
            del self._clients[job.client]

    def _is_quick(self, job: Job) -> bool:
        return self.quick_ms is not None and job.cost_ms is not None and job.cost_ms <= self.quick_ms

    def _pick(self, quick_only: bool) -> Job | None:
        """The next job for a worker: of the clients with a job this worker may run, the one served least recently
        (never served first), and that client's best such job."""
        best: tuple[_Client, int] | None = None
        for client in self._clients.values():
            if best is not None and client.turn > best[0].turn:
                continue
            index = next((i for i, (_, job) in enumerate(client.waiting) if not quick_only or self._is_quick(job)),
                         None)
            if index is not None:
                best = (client, index)
        if best is None:
            return None
        client, index = best
        _, job = client.waiting.pop(index)
        client.turn = (1, next(self._seq))
        self._queued[self._is_quick(job)] -= 1
        job.state, job.started_at = RUNNING, time.monotonic()
        self._running.add(job)
        return job

    def _work(self, quick_only: bool) -> None:
        while True:
            with self._lock:
                while True:
                    if self._closing == "now":
                        return
                    job = self._pick(quick_only)
                    if job is not None:
                        break
                    if self._closing == "drain":
                        return
                    self._work_ready.wait()
            try:
                job.work()
            except Exception as exc:  # noqa: BLE001 - the work answers its own errors; this is a bug in it
                LOG.error("a job of %s failed: %s: %s", job.client, type(exc).__name__, exc)
            finally:
                with self._lock:
                    self._running.discard(job)
                    job.state, job.finished_at = FINISHED, time.monotonic()
                    self._leave(job)
                job.done.set()
                self._call(job.on_done)
                if self._is_quick(job):
                    self._check_promise(job)

    def _check_promise(self, job: Job) -> None:
        """Log a quick-lane job that ran well past the lane's promise (its work is bounded only by the caller's
        time cap, which the scheduler cannot enforce on a running thread): a classification to correct."""
        assert self.quick_ms is not None and job.started_at is not None and job.finished_at is not None
        ran_ms = (job.finished_at - job.started_at) * 1000
        if ran_ms > QUICK_OVERRUN * max(self.quick_ms, job.cost_ms or 0):
            LOG.warning("a quick job of %s (%s) ran %.0f ms, past the quick lane's %d ms", job.client, job.key,
                        ran_ms, self.quick_ms)

    def _reap(self) -> None:
        """Answer the jobs that waited ``max_wait_ms`` without a free worker."""
        assert self.max_wait_ms is not None
        wait = self.max_wait_ms / 1000.0
        while True:
            with self._lock:
                while True:
                    if self._closing is not None and not self._arrivals:
                        return
                    while self._arrivals and self._arrivals[0].state != QUEUED:
                        self._arrivals.popleft()
                    if not self._arrivals:
                        if self._closing is not None:
                            return
                        self._reaper_wake.wait()
                        continue
                    due = self._arrivals[0].queued_at + wait - time.monotonic()
                    if due <= 0:
                        break
                    self._reaper_wake.wait(due)
                expired = []
                now = time.monotonic()
                while self._arrivals and (self._arrivals[0].state != QUEUED
                                          or self._arrivals[0].queued_at + wait <= now):
                    job = self._arrivals.popleft()
                    if job.state == QUEUED:
                        job.cancel.set()
                        self._drop(job)
                        expired.append(job)
            self._answer_dropped(expired, EXPIRED)

    def _answer_dropped(self, jobs: list[Job], reason: str) -> None:
        """Answer jobs that will never run (outside the lock: the answers may take locks of their own)."""
        for job in jobs:
            if job.on_cancel is not None:
                self._call(job.on_cancel, reason)
            job.done.set()
            self._call(job.on_done)

    @staticmethod
    def _call(callback: Callable[..., Any] | None, *args: Any) -> None:
        if callback is None:
            return
        try:
            callback(*args)
        except Exception as exc:  # noqa: BLE001 - a failing answer must not stop a worker
            LOG.error("an answer could not be sent: %s: %s", type(exc).__name__, exc)
