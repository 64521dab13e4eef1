"""Issue 24's speed goals in one run: ``python benchmarks/run.py speed [--quick] [--hands=N] [--build]
[--build-baseline=REV [--build-rounds=N]]``.

Every row of the issue's table: the goal, the figure measured now, a baseline measured in the same run (the
pure-Python twin of a kernel, the search or evaluation as it was before, the bare interpreter), the ratio, and
the CPU time. Rates are per CPU second (``time.process_time``) so that the other engineers' load on the shared
machine does not enter them; the optimal-kingdom row gives wall and CPU seconds (its search runs on threads).
``--build`` also times a clean, non-editable build of the package's wheel (minutes); without it the build row
gives the size of the C that Cython generated for the installed build. ``--build-baseline=REV`` (implies
``--build``) also builds the tree of the git revision ``REV`` (``git archive`` into a temporary directory; e.g.
``5ed1e90^``, the tree before issue 24's work) the same way, alternating with this tree, ``--build-rounds=N``
wheels of each (default 3), so that the build row's ratio is measured in one run, under one load. The test-suite
row is not measured here (the whole suite is the lead's run at merge time).
"""

from __future__ import annotations

import io
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from common import machine, percentile, table, timed_rounds  # noqa: E402

Row = list[Any]


def cpu_rate(call: Callable[[], Any], units: int, min_seconds: float = 0.3, repeat: int = 3) -> tuple[float, float]:
    """(best units per CPU second over ``repeat`` rounds of at least ``min_seconds``, CPU seconds spent)."""
    rounds = timed_rounds(call, repeat, min_seconds, clock=time.process_time)
    return max(units * calls / elapsed for calls, elapsed in rounds), sum(elapsed for _, elapsed in rounds)


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


# -- the rows ------------------------------------------------------------------------------------------------------
def aetherya_scoring(quick: bool) -> Row:
    from bench_aetherya_score import random_kingdoms
    from solver.kernels import aetherya as kernel
    from solver.twins import aetherya_score as twin
    n, n_twin = (50_000, 300) if quick else (400_000, 2_000)
    kingdoms = random_kingdoms(n, seed=2026)
    out = np.empty((n, 8), dtype=np.int32)
    rate, cpu = cpu_rate(lambda: kernel.score_batch(kingdoms, out), n)
    small, out_small = kingdoms[:n_twin], np.empty((n_twin, 8), dtype=np.int32)
    base, cpu_twin = cpu_rate(lambda: twin.score_batch(small, out_small), n_twin, repeat=1)
    agree = bool(np.array_equal(out[:n_twin], out_small))
    return ["Aetherya scoring (`score_batch`, kingdoms/s/core)", ">= 25 M/s", f"{rate / 1e6:.1f} M/s",
            f"twin {base / 1e3:.1f} k/s", f"{rate / base:,.0f}x", f"{cpu + cpu_twin:.1f}",
            verdict(rate >= 25e6 and agree) + ("" if agree else " (kernel and twin DISAGREE)")]


def aetherya_optimal(quick: bool, hands: int | None) -> list[Row]:
    from bench_aetherya_optimizer import deal_hands
    from solver.aetherya.solve import clear_cache, optimize_kingdom
    from solver.search import Limits, SearchContext
    n = hands or (60 if quick else 1000)
    dealt = deal_hands(n, 2024)
    rows = []
    for label, sequential in (("threads (now)", False), ("one layout after another (baseline)", True)):
        walls, cpus, proven = [], [], 0
        for hand in dealt:
            clear_cache()
            ctx = SearchContext(limits=Limits(nodes=10**15)) if sequential else None  # a node budget: sequential
            wall, cpu = time.perf_counter(), time.process_time()
            result = optimize_kingdom(hand, time_ms=60_000, ctx=ctx, use_cache=False) if ctx is None else \
                optimize_kingdom(hand, ctx=ctx, use_cache=False)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            proven += bool(result.optimal)
        rows.append((label, walls, cpus, proven))
    (_, walls, cpus, proven), (_, base_walls, base_cpus, base_proven) = rows
    # judged on CPU seconds: on the shared machine a hand's wall time is mostly waiting for a core, and its CPU
    # time (both threads together) bounds its wall time on an idle 2-core machine
    met = max(cpus) < 1.0 and percentile(cpus, 99) < 0.2 and proven == n
    return [[f"Aetherya optimal kingdom, {n} hands (seed 2024): CPU s a hand (wall s)", "max < 1 s, p99 < 0.2 s",
             f"max {max(cpus):.2f} ({max(walls):.2f}), p99 {percentile(cpus, 99):.3f} ({percentile(walls, 99):.3f}), "
             f"median {percentile(cpus, 50):.3f}; {proven}/{n} proven",
             f"one layout after another: max {max(base_cpus):.2f} ({max(base_walls):.2f}), p99 "
             f"{percentile(base_cpus, 99):.3f}; {base_proven}/{n} proven",
             f"{max(base_cpus) / max(cpus):.2f}x (max CPU)", f"{sum(cpus) + sum(base_cpus):.1f}", verdict(met)]]


def forgotten_games(quick: bool) -> Row:
    from solver.kernels import forgotten as kernel
    from solver.registry import load_game
    from solver.twins import forgotten_playout as twin
    game = load_game("forgotten")
    a, b = game.board.brains
    n, n_twin = (20_000, 20) if quick else (100_000, 60)
    wins, turns = np.zeros(n, np.uint8), np.zeros(n, np.int32)
    rate, cpu = cpu_rate(lambda: kernel.play_games(6, 6, a, b, 17, 1, 0, 2, 1, wins, turns), n)
    tw, tt = np.zeros(n_twin, np.uint8), np.zeros(n_twin, np.int32)
    base, cpu_twin = cpu_rate(lambda: twin.play_games(6, 6, a, b, 17, 1, 0, 2, 1, tw, tt), n_twin, repeat=1)
    return ["Forgotten, route policy (6x6, 17 pairs; games/s/core)", ">= 100k/s", f"{rate / 1e3:.0f}k/s",
            f"twin {base:.0f}/s", f"{rate / base:,.0f}x", f"{cpu + cpu_twin:.1f}", verdict(rate >= 1e5)]


def memorinth_games(quick: bool) -> Row:
    from solver.kernels import memorinth as kernel
    from solver.memorinth.game import MemorinthGame
    from solver.twins import memorinth_play as twin
    random_policy = np.zeros(4, dtype=np.int32)
    count = 2_000 if quick else 20_000
    rates, cpu = {}, 0.0
    specs = ({}, {"players": 3}, {"players": 4}, {"variant": "master"},
             {"variant": "master", "action_side": "special", "players": 3},
             {"variant": "master", "action_side": "alternate", "players": 4})
    for spec in specs:
        game = MemorinthGame(**spec)
        vec, out = game.deal(0).vec, np.zeros(12, dtype=np.int64)
        rate, spent = cpu_rate(lambda: kernel.random_games(vec, game.deck_table, count, 11, random_policy, 1000, out),
                               count, min_seconds=0.2, repeat=2)
        rates[game.spec().replace("memorinth", "") or "(2 players, base)"] = rate
        cpu += spent
    base_game = MemorinthGame()
    vec, out = base_game.deal(0).vec, np.zeros(12, dtype=np.int64)
    n_twin = 10 if quick else 40
    base, spent = cpu_rate(lambda: twin.random_games(vec, base_game.deck_table, n_twin, 11, random_policy, 1000, out),
                           n_twin, min_seconds=0.2, repeat=1)
    worst = min(rates, key=rates.get)
    first = next(iter(rates))
    return ["Memorinth random games (games/s/core, every rule set)", ">= 50k/s each",
            f"2p base {rates[first] / 1e3:.1f}k/s; slowest {worst} {rates[worst] / 1e3:.1f}k/s",
            f"twin (2p base) {base:.0f}/s", f"{rates[first] / base:,.0f}x", f"{cpu + spent:.1f}",
            verdict(min(rates.values()) >= 5e4)]


def embers_placements(quick: bool) -> Row:
    from bench_embers import placement_problem
    from solver.kernels import embers as kernel
    from solver.twins import embers_placement as twin
    _, _, a, row_blocked, masks = placement_problem()
    rate, cpu = cpu_rate(lambda: [kernel.legal_placement_masks(a.xs, a.ys, a.blocked, row_blocked, masks)
                                  for _ in range(1000)], 1000)
    base, cpu_twin = cpu_rate(lambda: twin.legal_placement_masks(a.xs, a.ys, a.blocked, row_blocked, masks), 1,
                              min_seconds=0.2, repeat=1)
    micro = 1e6 / rate
    return ["Embers legal placements (6-card row, 30-card Mind)", "< 3 us", f"{micro:.2f} us",
            f"twin {1e6 / base:.0f} us", f"{rate / base:,.0f}x", f"{cpu + cpu_twin:.1f}", verdict(micro < 3)]


def aetherya_hint(quick: bool) -> Row:
    import bench_aetherya_hint_speed as bench
    states = bench.positions(6 if quick else 16)
    got = bench.speed(states, 200 if quick else 400)
    per = bench.HINT_MS / 1000
    return [f"Aetherya hint at the table (playouts per {bench.HINT_MS} ms CPU)", "3x the baseline",
            f"{got['now_rate'] * per:,.0f}", f"before issue 24: {got['baseline_rate'] * per:,.0f}",
            f"{got['ratio']:.2f}x", f"{got['cpu_s']:.1f}", verdict(got["ratio"] >= 3)]


def startup(quick: bool, installed: Path | None) -> list[Row]:
    """Fresh processes of the command line: the installed wheel's copy when ``installed`` (its directory, run as
    ``python -S -m solver`` with it and this environment's site-packages on the path: no editable finder),
    else this environment's console script (an editable install checks its build at the first kernel import)."""
    import site
    from bench_startup import GOALS, console_script, dealt, measure
    runs = 5 if quick else 15
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    if installed is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(installed), *site.getsitepackages()])
        cli, where = [sys.executable, "-S", "-m", "solver"], "installed wheel"
    else:
        cli, where = console_script(), "editable install, its build check included"
    _, _, floor = measure([sys.executable, "-c", "pass"], runs, env)
    _, _, numpy_cpu = measure([sys.executable, "-c", "import numpy"], runs, env)
    rows = []
    for label, goal, argv in [("`memory-solver --help`", GOALS["--help"], ["--help"])] + [
            (f"`memory-solver {game} hint` (dealt, seed 3)", GOALS["hint"], [game, "hint", dealt(game)])
            for game in ("embers", "mnemonic")]:
        _, _, cpu = measure([*cli, *argv], runs, env)
        rows.append([f"{label}, fresh process, {where} (CPU ms)", f"< {goal:.0f} ms", f"{cpu:.0f} ms",
                     f"`python -c pass` {floor:.0f} ms, `import numpy` {numpy_cpu:.0f} ms",
                     f"{cpu / floor:.1f}x the bare interpreter", f"{cpu * runs / 1000:.1f}", verdict(cpu < goal)])
    return rows


def generated_c(build_dir: Path) -> tuple[int, int]:
    """(lines of C, files) Cython generated for the kernels in ``build_dir`` (stale files of removed modules
    left out)."""
    modules = {p.stem for p in (ROOT / "src").glob("*.pyx")} | {"_cyutility"}
    files = [p for p in build_dir.glob("*.c") if p.stem in modules]
    return sum(sum(1 for _ in p.open(errors="replace")) for p in files), len(files)


def ninja_steps(build_dir: Path) -> dict[str, Any]:
    """Summed wall seconds of the build's Cython steps (``x.c``) and gcc steps (``x.c.o``), from ninja's log (the
    one Cython process that writes every ``x.c`` is logged once per file: counted once)."""
    gcc = 0.0
    cython: set[tuple[str, str]] = set()
    longest = ("", 0.0)
    for line in (build_dir / ".ninja_log").read_text().splitlines()[1:]:
        start, end, _, output, _ = line.split("\t")
        seconds = (int(end) - int(start)) / 1000
        if output.endswith(".c.o"):
            gcc += seconds
            if seconds > longest[1]:
                longest = (Path(output).name.removesuffix(".c.o"), seconds)
        elif output.endswith(".c"):
            cython.add((start, end))
    return {"cython": sum(int(end) - int(start) for start, end in cython) / 1000, "gcc": gcc,
            "longest": f"gcc {longest[0]} {longest[1]:.0f} s"}


def clean_wheel(tree: Path, work: Path) -> tuple[float, float]:
    """Build a clean, non-editable wheel of the source tree ``tree`` in ``work`` (a new directory): (wall, CPU)
    seconds of the whole ``pip wheel`` (CPU: user + system of it and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", str(tree), "--no-deps", "--no-build-isolation",
                           "-q", "-w", str(work / "wheel"), "-C", f"build-dir={work / 'build'}"],
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(f"the wheel of {tree} did not build: {proc.stderr[-600:]}")
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def baseline_commit(rev: str) -> str:
    """The commit ``rev`` names in this repository; a clear error (SystemExit) when it names none."""
    proc = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                          capture_output=True, text=True)
    if proc.returncode or not proc.stdout.strip():
        raise SystemExit(f"speed: --build-baseline={rev!r}: not a commit of the repository at {ROOT}")
    return proc.stdout.strip()


def checkout_tree(commit: str, into: Path) -> Path:
    """The files of ``commit`` (``git archive``) written to ``into``, a new directory: a source tree to build."""
    proc = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit], capture_output=True)
    if proc.returncode:
        raise SystemExit(f"git archive {commit} failed: {proc.stderr.decode(errors='replace')[-300:]}")
    into.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as archive:
        archive.extractall(into, filter="data")
    return into


def build(work: Path | None, baseline: str | None = None, rounds: int = 3) -> Row:
    """The build row: with ``work``, a clean non-editable wheel is built there and installed into
    ``work / "installed"`` (for the start-up rows); without, the size of the installed build's generated C.
    With ``baseline`` (a commit), its tree is built the same way too, ``rounds`` clean wheels of each, alternating
    (baseline first), and the row gives the median CPU of each and their ratio."""
    if work is None:
        dirs = sorted((ROOT / "build").glob("*/"))
        lines, files = generated_c(dirs[0]) if dirs else (0, 0)
        return ["Build (`pip install .`)", "half of 95 s (73 s CPU)", "not timed (run with --build)",
                "-", "-", "-", f"{lines:,} lines of generated C in {files} files (installed build)"]
    if baseline is None:
        wall, cpu = clean_wheel(ROOT, work)
        ours = [(wall, cpu)]
    else:
        base_tree = checkout_tree(baseline, work / "baseline-tree")
        ours, theirs = [], []
        for i in range(rounds):
            theirs.append(clean_wheel(base_tree, work / f"baseline-{i}"))
            ours.append(clean_wheel(ROOT, work / f"tree-{i}"))
            shutil.rmtree(work / f"baseline-{i}", ignore_errors=True)
            if i:
                shutil.rmtree(work / f"tree-{i}", ignore_errors=True)
    first = work / "tree-0" if baseline is not None else work  # its wheel is installed, its build dir measured
    lines, files = generated_c(first / "build")
    steps = ninja_steps(first / "build")
    wheel = next((first / "wheel").glob("*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(work / "installed"),
                    str(wheel)], check=True, capture_output=True)
    sizes = (f"{lines:,} lines of generated C in {files} files; steps of the first build (summed wall s, 2 at a "
             f"time): Cython {steps['cython']:.0f} (one process), gcc {steps['gcc']:.0f} (longest: {steps['longest']})")
    if baseline is None:
        return ["Build (`pip wheel .`, clean, no isolation)", "half of 95 s (73 s CPU)",
                f"{wall:.0f} s ({cpu:.0f} s CPU)", "issue 24: 95 s (73 s CPU), another day's load",
                f"{73 / cpu:.2f}x (CPU)", f"{cpu:.0f}", verdict(cpu <= 73 / 2) + "; " + sizes]
    cpu_ours = statistics.median(c for _, c in ours)
    cpu_theirs = statistics.median(c for _, c in theirs)
    listed = ", ".join(f"{c:.1f}" for _, c in ours)
    listed_theirs = ", ".join(f"{c:.1f}" for _, c in theirs)
    return ["Build (`pip wheel .`, clean, no isolation)", "half the baseline tree's CPU",
            f"median {cpu_ours:.1f} s CPU ({listed}; wall {', '.join(f'{w:.0f}' for w, _ in ours)} s)",
            f"{baseline[:7]} in the same run, alternating: median {cpu_theirs:.1f} s CPU ({listed_theirs})",
            f"{cpu_theirs / cpu_ours:.2f}x (CPU)", f"{sum(c for _, c in ours + theirs):.0f}",
            verdict(cpu_ours <= cpu_theirs / 2) + "; " + sizes]


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    hands = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--hands=")), None)
    load = os.getloadavg()
    started = time.perf_counter()
    rows: list[Row] = []
    baseline = next((a.split("=", 1)[1] for a in argv if a.startswith("--build-baseline=")), None)
    rounds_arg = next((a.split("=", 1)[1] for a in argv if a.startswith("--build-rounds=")), "3")
    if not rounds_arg.isdigit() or int(rounds_arg) < 1:
        sys.stderr.write(f"speed: --build-rounds={rounds_arg!r}: a whole number of wheels, at least 1\n")
        return 2
    if baseline is not None:
        try:
            baseline = baseline_commit(baseline)
        except SystemExit as exc:
            sys.stderr.write(f"{exc}\n")
            return 2
    building = "--build" in argv or baseline is not None
    work = Path(tempfile.mkdtemp(prefix="ms-speed-")) if building else None
    try:
        steps: list[tuple[str, Callable[[], Any]]] = [
            ("scoring", lambda: rows.append(aetherya_scoring(quick))),
            ("optimal", lambda: rows.extend(aetherya_optimal(quick, hands))),
            ("forgotten", lambda: rows.append(forgotten_games(quick))),
            ("memorinth", lambda: rows.append(memorinth_games(quick))),
            ("embers", lambda: rows.append(embers_placements(quick))),
            ("hint", lambda: rows.append(aetherya_hint(quick))),
            ("build", lambda: rows.append(build(work, baseline, int(rounds_arg)))),
            ("startup", lambda: rows.extend(startup(quick, None if work is None else work / "installed"))),
        ]
        for name, step in steps:
            sys.stderr.write(f"speed: {name}...\n")
            try:
                step()
            except Exception as exc:  # a broken step is reported in its row; the other rows are still measured
                rows.append([f"{name}: the step failed", "-", f"{type(exc).__name__}: {exc}"[:200], "-", "-", "-",
                             "not measured"])
    finally:
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
    rows.append(["Test suite (2 cores)", "< 5 min", "not measured here (the lead's whole-suite run)", "-", "-", "-",
                 "see docs/benchmarks.md"])
    print(f"### Issue 24: speed goals (one run{', quick' if quick else ''})\n")
    print(f"{machine()}; load average {load[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end "
          f"({time.perf_counter() - started:.0f} s wall); rates per CPU second.\n")
    print(table(["work", "goal", "now", "baseline (same run)", "ratio", "CPU s", "goal"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
