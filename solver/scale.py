"""Running many independent items (puzzles, self-play games): in order, in parallel, resumable.

Item ``i`` of a run depends only on the run's arguments and ``i`` (it draws from
its own random stream, :func:`item_rng`), so any item can be regenerated alone,
``--start`` resumes an interrupted run, and one process, ``N`` local processes
and a Ray cluster give byte-identical output. Results are yielded in index
order as soon as each is complete, with a bounded number of items in flight.
"""

from __future__ import annotations

import os
import sys
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from solver.errors import InvalidInputError
from solver.validate import INDEX, JOBS, SEED, as_int

#: the largest ``--count`` (and ``--start + --count``) a run accepts
MAX_ITEMS = INDEX.hi + 1
#: chunks submitted ahead of the one being written, per worker
WINDOW_PER_WORKER = 4
#: the most items in one chunk of work sent to a worker
MAX_CHUNK = 256
#: chunks each worker gets at least (so the work stays balanced)
CHUNKS_PER_WORKER = 16


def item_rng(seed: int, index: int, *salt: str) -> np.random.Generator:
    """The random stream of item ``index`` of a run seeded ``seed`` (``salt`` separates kinds of item)."""
    return np.random.default_rng([seed, index, *(zlib.crc32(s.encode()) for s in salt)])


def check_run(seed: int, start: int, count: int, jobs: int, executor: str, address: str | None) -> None:
    """Validate a run's flags (errors name the flag)."""
    SEED.check(seed, "--seed")
    INDEX.check(start, "--start")
    as_int(count, "--count", 1, MAX_ITEMS - start)
    JOBS.check(jobs, "--jobs")
    if executor not in ("local", "ray"):
        raise InvalidInputError("--executor", executor, "expected local or ray")
    if address is not None and executor != "ray":
        raise InvalidInputError("--address", address, "is for --executor ray")


def run_items(task: Callable[[int], Any], start: int, count: int, jobs: int = 1, executor: str = "local",
              address: str | None = None, progress: bool = False, label: str = "items") -> Iterator[Any]:
    """``task(i)`` for ``i`` in ``start .. start+count-1``, yielded in index order.

    ``task`` must be picklable (a module-level function or a ``functools.partial`` of one) when ``jobs > 1``
    or ``executor == "ray"``.
    """
    indices = range(start, start + count)
    bar = _progress_bar(count, label) if progress else None
    try:
        if jobs == 1 and executor != "ray":
            results: Iterator[Any] = (task(i) for i in indices)
        else:
            chunk = chunk_size(count, jobs)
            chunks = [range(i, min(i + chunk, start + count)) for i in range(start, start + count, chunk)]
            run = _run_ray if executor == "ray" else _run_processes
            results = (item for batch in run(task, chunks, jobs, address) for item in batch)
        for result in results:
            if bar is not None:
                bar.update(1)
            yield result
    finally:
        if bar is not None:
            bar.close()


def chunk_size(count: int, jobs: int) -> int:
    """Items sent to a worker at once: one for a few slow items, up to :data:`MAX_CHUNK` for millions of fast ones,
    so that every worker gets at least :data:`CHUNKS_PER_WORKER` chunks."""
    return max(1, min(MAX_CHUNK, count // (jobs * CHUNKS_PER_WORKER)))


def _call_range(task: Callable[[int], Any], items: range) -> list[Any]:
    return [task(i) for i in items]


def _run_processes(task: Callable[[int], Any], chunks: list[range], jobs: int,
                   address: str | None = None) -> Iterator[list[Any]]:
    import concurrent.futures as futures  # lazy: start-up (only a run on several processes needs a pool)
    import multiprocessing  # lazy: start-up (only a run on several processes needs a pool)
    # forkserver: each worker forks from a server that has already imported the package (cheap start-up, and
    # safe when the parent runs threads); spawn where fork is not available
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        context.set_forkserver_preload(["solver.registry", "solver.puzzles", "solver.selfplay"])
        _start_forkserver()
    with futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        yield from _ordered(lambda c: pool.submit(_call_range, task, c), lambda f: f.result(), chunks, jobs)


def _start_forkserver() -> None:
    """Start the fork server without the current directory on its ``sys.path``. Python 3.11's server runs
    ``python -c`` (so ``sys.path[0]`` is the working directory) and ignores the parent's path: run from a source
    checkout, its workers imported the uncompiled ``solver`` folder there instead of the installed package.
    ``PYTHONSAFEPATH`` (Python 3.11+) leaves that entry out; it is set only while the server starts."""
    from multiprocessing import forkserver  # lazy: start-up (only a run on several processes starts the server)
    previous = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        forkserver.ensure_running()
    finally:
        if previous is None:
            del os.environ["PYTHONSAFEPATH"]
        else:
            os.environ["PYTHONSAFEPATH"] = previous


def _ordered(submit: Callable[[range], Any], result_of: Callable[[Any], Any], chunks: list[range],
             jobs: int) -> Iterator[Any]:
    pending: dict[int, Any] = {}
    window = max(1, jobs * WINDOW_PER_WORKER)
    upcoming = iter(range(len(chunks)))
    for n in range(len(chunks)):
        while len(pending) < window:
            nxt = next(upcoming, None)
            if nxt is None:
                break
            pending[nxt] = submit(chunks[nxt])
        yield result_of(pending.pop(n))


def _run_ray(task: Callable[[int], Any], chunks: list[range], jobs: int, address: str | None) -> Iterator[list[Any]]:
    try:
        import ray  # lazy: an optional, heavy library, only for --executor ray
    except ImportError:
        raise InvalidInputError("--executor", "ray", "Ray is not installed: pip install 'memory-solver[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(_call_range)
        cluster_cpus = int(ray.cluster_resources().get("CPU", jobs))
        yield from _ordered(lambda c: remote.remote(task, c), ray.get, chunks, max(jobs, cluster_cpus))
    finally:
        if started_here:
            ray.shutdown()


def _progress_bar(total: int, label: str) -> Any:
    from tqdm import tqdm  # lazy: start-up (a progress bar only for long runs)
    return tqdm(total=total, unit=f" {label}", file=sys.stderr, dynamic_ncols=True, smoothing=0.1)
