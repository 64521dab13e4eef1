"""Start-up of the command line (issue 24): ``memory-solver --help`` and a short hint, each a fresh process.

``python benchmarks/bench_startup.py [--runs N] [--quick]`` runs every command ``N`` times in a fresh process
and reports the median and best wall time beside the mean CPU time (user + system, from ``getrusage`` of the
children: on a loaded machine the wall time includes waiting for a core, the CPU time does not). In the same
run: the interpreter alone, ``import numpy`` with OpenBLAS's thread pool started and pinned to one thread, and
the same hints in a warm process (what the engine or the web board pays per hint). Run it with the Python of an
installed copy (``pip install .``): an editable install checks its build at the first kernel import.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import machine, table

#: (label, goal in ms or None, command after the interpreter or console script)
GOALS = {"--help": 80.0, "hint": 150.0}


def console_script() -> list[str]:
    """``memory-solver`` next to this interpreter (else ``python -m solver``)."""
    script = Path(sys.executable).with_name("memory-solver")
    return [str(script)] if script.exists() else [sys.executable, "-m", "solver"]


def measure(argv: list[str], runs: int, env: dict[str, str]) -> tuple[float, float, float]:
    """(median wall ms, best wall ms, mean CPU ms) of ``runs`` fresh processes."""
    walls = []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(runs):
        started = time.perf_counter()
        proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd="/",
                              timeout=120)
        walls.append((time.perf_counter() - started) * 1000)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(argv)[:120]} failed: {proc.stderr.decode()[:400]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000 / runs
    return statistics.median(walls), min(walls), cpu


def dealt(game: str) -> str:
    """The notation of ``new --seed 3``: the position the short hints are asked on."""
    from solver import api
    return api.new(game, seed=3).to_notation()


def warm_ms(game: str, position: str, runs: int) -> float:
    """Median ms of the same hint in a process that has already answered it once."""
    from solver import api
    api.hint(game, position)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        api.hint(game, position)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="5 runs each")
    args = parser.parse_args(argv)
    runs = 5 if args.quick else args.runs
    base = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    cores = str(os.cpu_count() or 2)
    cli = console_script()
    positions = {game: dealt(game) for game in ("embers", "mnemonic")}
    cases = [
        ("python -c pass (the interpreter alone)", None, [sys.executable, "-c", "pass"], base),
        ("python -c 'import numpy' (OpenBLAS pool started)", None, [sys.executable, "-c", "import numpy"], base),
        ("python -c 'import numpy' (OPENBLAS_NUM_THREADS=1)", None, [sys.executable, "-c", "import numpy"],
         {**base, "OPENBLAS_NUM_THREADS": "1"}),
        ("memory-solver --help", GOALS["--help"], [*cli, "--help"], base),
    ]
    for game, position in positions.items():
        cases.append((f"memory-solver {game} hint (dealt, seed 3)", GOALS["hint"], [*cli, game, "hint", position],
                      base))
        cases.append((f"memory-solver {game} hint, OpenBLAS not pinned (OPENBLAS_NUM_THREADS={cores})", None,
                      [*cli, game, "hint", position], {**base, "OPENBLAS_NUM_THREADS": cores}))
    rows = []
    floor = None
    for label, goal, command, env in cases:
        median, best, cpu = measure(command, runs, env)
        floor = cpu if floor is None else floor
        rows.append([label, "-" if goal is None else f"< {goal:.0f}", round(median, 1), round(best, 1), round(cpu, 1),
                     f"{cpu / floor:.1f}x", "-" if goal is None else ("met" if best < goal else "not met")])
    print(f"Machine: {machine()}; load average {os.getloadavg()[0]:.1f} at the start; {runs} runs each; "
          f"{shutil.which('memory-solver') or cli[0]}\n")
    print(table(["command (fresh process)", "goal ms", "median wall ms", "best wall ms", "mean CPU ms",
                 "CPU / interpreter", "best wall vs goal"], rows))
    print()
    warm = [[f"{game} hint (dealt, seed 3)", round(warm_ms(game, position, runs), 2)]
            for game, position in positions.items()]
    print(table(["the same hint in a warm process (engine, web board)", "median ms"], warm))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
