"""Puzzle generation and self-play throughput on 1 and 2 local processes and a local Ray cluster, in one run.

``python benchmarks/run.py scale`` (add ``--quick`` for a small run; ``--costs`` prints only the CPU time per item
of every puzzle kind and difficulty and of self-play, the table of ``docs/scale.md``). For every game with puzzles or self-play,
the same run (same seed, same items) is made three ways and timed; the outputs are compared byte for byte
(the promise of ``docs/scale.md``) and the throughputs are given as items per second and as ratios to one
process. The figures feed the cost estimates in ``docs/scale.md``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import table  # noqa: E402

from solver import contract  # noqa: E402
from solver.errors import SolverError  # noqa: E402
from solver.puzzles import generate  # noqa: E402
from solver.registry import game_names, load_game  # noqa: E402
from solver.selfplay import selfplay  # noqa: E402

EXECUTORS = (("1 process", 1, "local"), ("2 processes", 2, "local"), ("Ray, 2 CPUs", 2, "ray"))


def _timed(run) -> tuple[float, str]:
    start = time.perf_counter()
    text = "".join(json.dumps(item, allow_nan=False) + "\n" for item in run())
    return time.perf_counter() - start, text


def _ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _rows(label: str, make, count: int) -> list[tuple]:
    rows, baseline, reference = [], None, None
    for name, jobs, executor in EXECUTORS:
        if executor == "ray" and not _ray_available():
            rows.append((label, name, "-", "-", "-", "Ray not installed"))
            continue
        seconds, text = _timed(lambda: make(jobs, executor))
        baseline = baseline or seconds
        reference = reference if reference is not None else text
        same = "identical" if text == reference else "DIFFERENT"
        rows.append((label, name, f"{seconds:.1f}", f"{count / seconds:.2f}", f"{baseline / seconds:.2f}", same))
    return rows


def bench_generate(quick: bool) -> None:
    print("### Puzzle generation (medium difficulty)\n")
    rows = []
    for name in game_names():
        game = load_game(name)
        if not contract.puzzle_kinds(game):
            continue
        kind = contract.puzzle_kinds(game)[0]
        count = 4 if quick else 24
        rows += _rows(f"{name} {kind}", lambda jobs, executor, g=game, k=kind: generate(
            g, k, "medium", seed=11, count=count, jobs=jobs, executor=executor), count)
    print(table(("puzzles", "executor", "seconds", "puzzles/s", "speed-up", "output"), rows))
    print()


def bench_selfplay(quick: bool) -> None:
    print("### Self-play (the default policies)\n")
    rows = []
    for name in game_names():
        game = load_game(name)
        if not contract.selfplay_policies(game):
            continue
        count = 4 if quick else 40
        rows += _rows(f"{name} {','.join(contract.selfplay_default(game))}", lambda jobs, executor, g=game: selfplay(
            g, None, seed=5, count=count, jobs=jobs, executor=executor), count)
    print(table(("games", "executor", "seconds", "games/s", "speed-up", "output"), rows))
    print()


def _cpu_per_item(run, count: int) -> float:
    start = time.process_time()
    for _ in run():
        pass
    return (time.process_time() - start) / count


def bench_costs(quick: bool) -> None:
    """CPU seconds per item in this process (one core, no workers): the figures of docs/scale.md's cost table.
    CPU time, not wall time, so that other work on the machine changes them little."""
    print("### CPU time per item (one process)\n")
    rows = []
    for name in game_names():
        game = load_game(name)
        for kind in contract.puzzle_kinds(game):
            rules, refusal = game, None
            if name == "forgotten" and kind == "best-move":  # the exact solver's boards (docs/formats/forgotten.md)
                rules = load_game("forgotten(width=4,height=3)")
            for difficulty in ("easy", "medium", "hard"):
                count = 2 if quick else 4
                try:
                    cost = _cpu_per_item(lambda g=rules, k=kind, d=difficulty: generate(
                        g, k, d, seed=11, count=count), count)
                except SolverError as exc:  # escape-in-K has the one difficulty K is graded
                    refusal = exc.problem
                    continue
                rows.append((rules.spec() if rules is not game else name, f"generate {kind} {difficulty}", count,
                             f"{cost:.3f}"))
                sys.stdout.flush()
            if refusal and not any(r[1].startswith(f"generate {kind} ") for r in rows):
                rows.append((name, f"generate {kind}", 0, f"- ({refusal})"))
        if contract.selfplay_policies(game):
            count = 2 if quick else 10
            cost = _cpu_per_item(lambda g=game: selfplay(g, None, seed=5, count=count), count)
            rows.append((name, f"selfplay {','.join(contract.selfplay_default(game))}", count, f"{cost:.3f}"))
    print(table(("game", "item", "items timed", "CPU s per item"), rows))
    print()


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    if "--costs" in argv:
        bench_costs(quick)
        return 0
    if _ray_available():  # one local cluster for the whole run, so its start-up is not charged to one game
        import ray
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        for bench in (bench_generate, bench_selfplay):
            bench(quick)
            sys.stdout.flush()
    finally:
        if _ray_available():
            import ray
            ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
