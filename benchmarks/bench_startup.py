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
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import machine, table

#: the start-up goals of issue 24, in ms
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


#: one short hint from the command line, step by step, in a fresh process: CPU ms of each step as JSON
STEPS = """
import io, json, os, sys, time, contextlib
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
game, position = sys.argv[1], sys.argv[2]
marks, names = [time.process_time()], []
def mark(name):
    marks.append(time.process_time()); names.append(name)
import solver.cli; mark("the command line (solver.cli, argparse)")
import solver.service, solver.commands; mark("the service layer and the shared verbs")
from solver.registry import load_game
from solver import service
g = load_game(game); mark("the game's rules (game.py and what it imports)")
service.answer(service.LegalMovesRequest(game=g, position=g.parse_position(position))); mark("reading the position")
with contextlib.redirect_stdout(io.StringIO()):
    solver.cli.main([game, "hint", position])
mark("parser, hint (its module loaded first) and printing")
steps = dict(zip(names, [1000 * (b - a) for a, b in zip(marks, marks[1:])]))
steps["numpy imported by the hint (1 = yes)"] = float("numpy" in sys.modules)
print(json.dumps(steps))
"""


def steps(game: str, position: str, runs: int) -> dict[str, float]:
    """The least CPU ms of each step of a short hint over ``runs`` fresh processes."""
    best: dict[str, float] = {}
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", STEPS, game, position], capture_output=True, text=True,
                             cwd="/", timeout=120, check=True).stdout
        for name, ms in json.loads(out).items():
            best[name] = min(best.get(name, ms), ms)
    return best


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
    parser.add_argument("--baseline-python", default=None, metavar="PYTHON",
                        help="the Python of another install (say, of main before a change): the same commands run "
                             "with `PYTHON -m solver` in the same run, and the ratio is reported")
    args = parser.parse_args(argv)
    runs = 5 if args.quick else args.runs
    load_start = os.getloadavg()[0]
    base = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    cli = console_script()
    positions = {game: dealt(game) for game in ("embers", "mnemonic")}
    floors = [("python -c pass (the interpreter alone)", [sys.executable, "-c", "pass"], base),
              ("python -c 'import numpy' (OpenBLAS pool started)", [sys.executable, "-c", "import numpy"], base),
              ("python -c 'import numpy' (OPENBLAS_NUM_THREADS=1)", [sys.executable, "-c", "import numpy"],
               {**base, "OPENBLAS_NUM_THREADS": "1"})]
    commands = [("memory-solver --help", GOALS["--help"], ["--help"])]
    commands += [(f"memory-solver {game} hint (dealt, seed 3)", GOALS["hint"], [game, "hint", position])
                 for game, position in positions.items()]
    rows = []
    for label, command, env in floors:
        median, best, cpu = measure(command, runs, env)
        rows.append([label, "-", round(median, 1), round(best, 1), round(cpu, 1), "-", "-"])
    for label, goal, command in commands:
        median, best, cpu = measure([*cli, *command], runs, base)
        ratio = "-"
        if args.baseline_python:
            old_median, old_best, old_cpu = measure([args.baseline_python, "-m", "solver", *command], runs, base)
            rows.append([f"{label}: baseline install", "-", round(old_median, 1), round(old_best, 1),
                         round(old_cpu, 1), "-", "-"])
            ratio = f"{old_cpu / cpu:.2f}x"
        rows.append([label, f"< {goal:.0f}", round(median, 1), round(best, 1), round(cpu, 1), ratio,
                     "met" if cpu < goal else "not met"])
    print(f"Machine: {machine()}; load average {load_start:.1f} at the start, {os.getloadavg()[0]:.1f} at "
          f"the end; {runs} fresh processes each; {cli[0]}"
          + (f"; baseline: {args.baseline_python} -m solver" if args.baseline_python else "") + "\n")
    print(table(["command (fresh process)", "goal ms", "median wall ms", "best wall ms", "mean CPU ms",
                 "baseline CPU / CPU", "CPU vs goal"], rows))
    print()
    warm = [[f"{game} hint (dealt, seed 3)", round(warm_ms(game, position, runs), 2)]
            for game, position in positions.items()]
    print(table(["the same hint in a warm process (engine, web board)", "median ms"], warm))
    print()
    found = {game: steps(game, position, runs) for game, position in positions.items()}
    names = list(next(iter(found.values())))
    print(table(["where a fresh process spends its CPU (least over the runs, ms)", *found],
                [[name, *(round(found[game][name], 1) for game in found)] for name in names]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
