"""Run the benchmarks: ``python benchmarks/run.py [NAME ...] [--quick]``.

Each ``benchmarks/bench_<name>.py`` has ``main(argv) -> int`` and prints
markdown tables (kernels against their twins, solvers against plain baselines,
in the same run). With no NAME, every benchmark runs. ``--quick`` passes
through to each benchmark for a smaller run.
"""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def available() -> list[str]:
    """Benchmark names (the ``<name>`` of ``bench_<name>.py``)."""
    return sorted(p.stem[len("bench_"):] for p in HERE.glob("bench_*.py"))


def main(argv: list[str]) -> int:
    names = [a for a in argv if not a.startswith("-")]
    flags = [a for a in argv if a.startswith("-")]
    unknown = [n for n in names if n not in available()]
    if unknown:
        sys.stderr.write(f"run.py: unknown benchmark {unknown[0]!r} (available: {', '.join(available())})\n")
        return 2
    from common import machine
    print(f"# memory-solver benchmarks\n\nMachine: {machine()}\n")
    status = 0
    for name in names or available():
        start = time.perf_counter()
        print(f"## {name}\n")
        module = importlib.import_module(f"bench_{name}")
        status |= int(module.main(flags) or 0)
        print(f"\n_{name}: {time.perf_counter() - start:.1f} s_\n", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
