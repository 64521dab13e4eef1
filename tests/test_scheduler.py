"""The scheduler shared by the engine and the web board (solver/scheduler.py): bounded queue, per-client limits,
fairness between clients, priority within a client, the quick lane, terminate, disconnect, expiry, shutdown and
exactly one answer per job."""

import random
import threading
import time

import pytest

from solver.scheduler import (EXPIRED, SHUTDOWN, TERMINATED, ClientBusy, Closed, Job, QueueFull, Scheduler)
from solver.testing import wait_until

pytestmark = pytest.mark.serial  # wall-clock caps: alone under pytest-xdist (tests/conftest.py)


class Log:
    """What happened to jobs, in order: ("ran", name), ("cancel", name, reason), ("done", name)."""

    def __init__(self):
        self.events = []
        self.lock = threading.Lock()

    def add(self, *event):
        with self.lock:
            self.events.append(event)

    def ran(self):
        return [e[1] for e in self.events if e[0] == "ran"]

    def of(self, name):
        return [e for e in self.events if e[1] == name]


def job(log, name, client="c", priority=0, cost_ms=None, work=None, **kw):
    def run():
        log.add("ran", name)
        if work is not None:
            work(made)
    made = Job(run, client=client, priority=priority, key=name, cost_ms=cost_ms,
               on_cancel=lambda reason: log.add("cancel", name, reason), on_done=lambda: log.add("done", name), **kw)
    return made


def blocker(log, name="block", client="blocker", cost_ms=None):
    """A job that holds its worker until released (or terminated)."""
    release = threading.Event()
    started = threading.Event()

    def hold(made):
        started.set()
        while not release.is_set() and not made.cancel.is_set():
            time.sleep(0.005)
    return job(log, name, client=client, cost_ms=cost_ms, work=hold), started, release


def held_scheduler(log, client="blocker", cost_ms=None, **options):
    """``(scheduler, release)``: a one-worker scheduler (``options``) whose worker runs a blocker of ``client``
    until ``release`` is set."""
    scheduler = Scheduler(1, **options)
    held, started, release = blocker(log, client=client, cost_ms=cost_ms)
    scheduler.submit(held)
    assert started.wait(5)
    return scheduler, release


def test_the_queue_is_bounded_and_a_full_queue_says_when_to_retry():
    log = Log()
    scheduler, release = held_scheduler(log, cost_ms=3000, max_queue=2)
    scheduler.submit(job(log, "a"))
    scheduler.submit(job(log, "b"))
    with pytest.raises(QueueFull) as refused:
        scheduler.submit(job(log, "c"))
    assert 1 <= refused.value.retry_after <= 3 and "queue is full" in str(refused.value)
    assert scheduler.stats() == {"queued": 2, "queued_quick": 0, "running": 1, "clients": 2}
    release.set()
    scheduler.close()
    assert log.ran() == ["block", "a", "b"] and not log.of("c")


def test_one_client_has_at_most_its_share_of_queries_whatever_it_calls_them():
    log = Log()
    scheduler, release = held_scheduler(log, client="10.0.0.1", max_per_client=2)
    scheduler.submit(job(log, "page-a", client="10.0.0.1", owner="page-a"))
    with pytest.raises(ClientBusy):
        scheduler.submit(job(log, "page-b", client="10.0.0.1", owner="page-b"))  # a new page id is the same client
    scheduler.submit(job(log, "other", client="10.0.0.2"))
    release.set()
    scheduler.close()
    assert sorted(log.ran()) == ["block", "other", "page-a"]


def test_a_free_worker_serves_the_client_it_served_least_recently():
    log = Log()
    scheduler, release = held_scheduler(log, client="a")
    for i in range(4):
        scheduler.submit(job(log, f"a{i}", client="a"))
    scheduler.submit(job(log, "b0", client="b"))
    scheduler.submit(job(log, "b1", client="b"))
    scheduler.submit(job(log, "c0", client="c"))
    release.set()
    scheduler.close()
    # a was served last (the blocker), so b and c come first, then one each in turn
    assert log.ran() == ["block", "b0", "c0", "a0", "b1", "a1", "a2", "a3"]


def test_priority_orders_only_a_clients_own_queries():
    log = Log()
    scheduler, release = held_scheduler(log, client="x")
    scheduler.submit(job(log, "a-low", client="a", priority=0))
    scheduler.submit(job(log, "a-high", client="a", priority=5))
    scheduler.submit(job(log, "b-max", client="b", priority=2**31 - 1))
    scheduler.submit(job(log, "b-max2", client="b", priority=2**31 - 1))
    scheduler.submit(job(log, "a-tie", client="a", priority=5))
    release.set()
    scheduler.close()
    assert log.ran() == ["block", "a-high", "b-max", "a-tie", "b-max2", "a-low"]


def test_quick_queries_do_not_wait_behind_long_ones():
    log = Log()
    scheduler, release = held_scheduler(log, quick_ms=100)
    long_one = scheduler.submit(job(log, "long", cost_ms=5000))
    quick = scheduler.submit(job(log, "quick", cost_ms=10))
    assert quick.done.wait(5)
    assert not long_one.started and log.ran() == ["block", "quick"]
    release.set()
    scheduler.close()
    assert log.ran() == ["block", "quick", "long"]


def test_long_queries_filling_the_queue_do_not_shut_out_quick_ones():
    log = Log()
    scheduler, release = held_scheduler(log, cost_ms=5000, quick_ms=100, max_queue=1)
    scheduler.submit(job(log, "long", cost_ms=5000))
    with pytest.raises(QueueFull):
        scheduler.submit(job(log, "long-too", cost_ms=5000))
    assert scheduler.submit(job(log, "quick", cost_ms=10)).done.wait(5)
    release.set()
    scheduler.close()
    assert log.ran() == ["block", "quick", "long"]


def test_a_terminated_queued_job_is_answered_once_and_never_runs():
    log = Log()
    scheduler, release = held_scheduler(log)
    scheduler.submit(job(log, "q"))
    assert scheduler.terminate(lambda j: j.key == "q") == 1
    assert scheduler.terminate(lambda j: j.key == "q") == 0
    assert log.of("q") == [("cancel", "q", TERMINATED), ("done", "q")]
    assert scheduler.terminate(lambda j: j.key == "block") == 1  # running: its cancel event is set
    assert wait_until(lambda: log.of("block")[-1:] == [("done", "block")], timeout=5.0)
    scheduler.close()
    assert log.ran() == ["block"]


def test_a_client_that_disconnects_loses_its_queued_and_running_jobs_only():
    log = Log()
    scheduler, _ = held_scheduler(log, client="gone")
    scheduler.submit(job(log, "gone-q", client="gone"))
    scheduler.submit(job(log, "stays", client="here"))
    assert scheduler.disconnect("gone") == 2
    scheduler.close()
    assert log.of("gone-q") == [("cancel", "gone-q", TERMINATED), ("done", "gone-q")]
    assert log.ran() == ["block", "stays"]


def test_a_job_that_waits_too_long_is_answered_as_expired():
    log = Log()
    scheduler, release = held_scheduler(log, max_wait_ms=150)
    queued_at = time.monotonic()
    late = scheduler.submit(job(log, "late"))
    assert late.done.wait(5)
    assert 0.1 <= time.monotonic() - queued_at < 2.0
    assert log.of("late") == [("cancel", "late", EXPIRED), ("done", "late")]
    release.set()
    scheduler.close()


def test_shutdown_answers_the_queue_stops_the_running_and_refuses_more():
    log = Log()
    scheduler = Scheduler(2)
    first, started1, _ = blocker(log, "one", client="a")
    second, started2, _ = blocker(log, "two", client="b")
    scheduler.submit(first)
    scheduler.submit(second)
    assert started1.wait(5) and started2.wait(5)
    for i in range(3):
        scheduler.submit(job(log, f"q{i}", client=f"c{i}"))
    begun = time.monotonic()
    assert scheduler.shutdown(timeout=1.5)
    assert time.monotonic() - begun < 1.5
    assert [e for e in log.events if e[0] == "cancel"] == [("cancel", f"q{i}", SHUTDOWN) for i in range(3)]
    assert first.cancel.is_set() and second.cancel.is_set()
    with pytest.raises(Closed):
        scheduler.submit(job(log, "late"))


def test_close_lets_the_queue_drain():
    log = Log()
    scheduler = Scheduler(2, quick_ms=50)
    for i in range(20):
        scheduler.submit(job(log, f"j{i}", client=f"c{i % 3}", cost_ms=10 if i % 2 else None))
    scheduler.close()
    assert sorted(log.ran()) == sorted(f"j{i}" for i in range(20))
    assert scheduler.stats() == {"queued": 0, "queued_quick": 0, "running": 0, "clients": 0}


def test_a_failing_job_is_logged_and_the_worker_keeps_serving(caplog):
    log = Log()
    scheduler = Scheduler(1)

    def boom(made):
        raise RuntimeError("a bug")
    scheduler.submit(job(log, "bad", work=boom))
    scheduler.submit(job(log, "good"))
    scheduler.close()
    assert log.ran() == ["bad", "good"]
    assert "RuntimeError: a bug" in caplog.text


def test_every_job_is_answered_exactly_once_under_random_terminates():
    rng = random.Random(23)
    log = Log()
    scheduler = Scheduler(3, max_queue=40, max_per_client=15, quick_ms=5, max_wait_ms=300)
    names = []
    refused = 0

    def short(made):
        time.sleep(rng.random() * 0.01)

    def stopper():
        for _ in range(200):
            victim = rng.choice(names) if names else None
            scheduler.terminate(lambda j: j.key == victim)
            time.sleep(0.001)
    thread = threading.Thread(target=stopper)
    thread.start()
    for i in range(400):
        name = f"j{i}"
        try:
            scheduler.submit(job(log, name, client=f"c{i % 5}", priority=rng.randrange(3),
                                 cost_ms=rng.choice((None, 2, 50)), work=short))
            names.append(name)
        except (QueueFull, ClientBusy):
            refused += 1
        if i % 50 == 0:
            time.sleep(0.02)
    thread.join()
    scheduler.close()
    for name in names:
        events = log.of(name)
        answers = [e for e in events if e[0] in ("ran", "cancel")]
        assert len(answers) == 1, (name, events)
        assert events[-1] == ("done", name) and len([e for e in events if e[0] == "done"]) == 1
    assert scheduler.stats() == {"queued": 0, "queued_quick": 0, "running": 0, "clients": 0}
    assert refused > 0 and len(names) > 100


def test_a_quick_job_that_overruns_the_lane_is_answered_once_and_logged(caplog):
    """The scheduler cannot stop a running thread: a quick job ends at its caller's cap (the work's own clock), and
    one that ran several times the lane's bound is logged as misjudged; the lane then serves the next quick job."""
    log = Log()
    scheduler = Scheduler(1, quick_ms=20)
    cap_s = 0.2

    def capped(made):  # the work's own cap, as solver.protocol.answer_query keeps it
        end = time.monotonic() + cap_s
        while time.monotonic() < end and not made.cancel.is_set():
            time.sleep(0.005)
        log.add("capped", "slow")
    slow = scheduler.submit(job(log, "slow", cost_ms=0, work=capped))
    after = scheduler.submit(job(log, "after", cost_ms=0))
    assert after.done.wait(5) and slow.done.wait(5)
    scheduler.close()
    assert log.ran() == ["slow", "after"] and log.of("slow")[1:] == [("capped", "slow"), ("done", "slow")]
    assert "a quick job of c (slow) ran" in caplog.text and "after" not in caplog.text
