"""Embers of Memory benchmarks: kernels against twins, CP-SAT proof times, hint latency, puzzles, self-play.

Run ``python benchmarks/run.py embers`` (``--quick`` for a small run). Every
figure is printed with the command that produced it; ``docs/benchmarks.md``
quotes them.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import best_time, machine, mean_ci, percentile, table  # noqa: E402

from solver import contract  # noqa: E402
from solver.embers import mind as mindlib  # noqa: E402
from solver.embers import plan as planlib  # noqa: E402
from solver.embers.policy import GreedyPolicy  # noqa: E402
from solver.embers.solve_cpsat import solve_cpsat  # noqa: E402
from solver.kernels import embers as kernel  # noqa: E402
from solver.registry import load_game  # noqa: E402
from solver.search import Limits, SearchContext  # noqa: E402
from solver.stats import wilson  # noqa: E402
from solver.twins import embers_mind as mind_twin  # noqa: E402
from solver.twins import embers_placement as placement_twin  # noqa: E402
from solver.twins import embers_plan as plan_twin  # noqa: E402

GAME = load_game("embers")
DECK = GAME.deck


def grown_mind(size: int, seed: int) -> list[mindlib.Entry]:
    """A legal Mind of ``size`` cards grown by random legal adds (seeded)."""
    for attempt in range(1000):
        rng = np.random.default_rng([seed, attempt])
        cards = [c.index for c in DECK.memory]
        order = [cards[i] for i in rng.permutation(len(cards))]
        mind = [(order[0], 0, 0)]
        pending = order[1:]
        progress = True
        while len(mind) < size and progress:
            progress = False
            for card in list(pending):
                spots = mindlib.legal_placements(DECK, mind, [card])
                if spots:
                    mind.append(spots[int(rng.integers(len(spots)))])
                    pending.remove(card)
                    progress = True
                    if len(mind) == size:
                        break
        if len(mind) == size:
            return mind
    raise RuntimeError(f"no Mind of {size} cards")


def placement_problem() -> tuple[list, list[int], Any, np.ndarray, np.ndarray]:
    """The placement kernel's benchmark problem: ``(mind, row, arrays, row_blocked, masks)``: a grown 30-card Mind,
    a row of 6 cards not in it, the Mind's arrays, the row's blocked flags and room for the kernel's masks."""
    mind = grown_mind(30, 1)
    used = {e[0] for e in mind}
    row = [c.index for c in DECK.memory if c.index not in used][:6]
    row_blocked = np.array([DECK.cards[c].blocked for c in row], dtype=np.uint8)
    return mind, row, mindlib.arrays(DECK, mind), row_blocked, np.zeros((len(row), 64), dtype=np.uint64)


def bench_kernels(quick: bool) -> None:
    print("### Kernels against their twins\n")
    mind, row, a, row_blocked, masks = placement_problem()
    labels = np.zeros(len(mind), dtype=np.int32)
    adj = np.zeros(len(mind), dtype=np.uint64)
    visible = kernel.visible_mask(a.xs, a.ys)
    kernel.legal_placement_masks(a.xs, a.ys, a.blocked, row_blocked, masks)
    count = int(sum(bin(int(m)).count("1") for m in masks.ravel()))
    repeat, seconds = (3, 0.05) if quick else (7, 0.3)
    cases = [
        ("legal placements, 6-card row vs 30-card Mind",
         lambda: kernel.legal_placement_masks(a.xs, a.ys, a.blocked, row_blocked, masks),
         lambda: placement_twin.legal_placement_masks(a.xs, a.ys, a.blocked, row_blocked, masks)),
        ("visibility, 30 cards", lambda: kernel.visible_mask(a.xs, a.ys),
         lambda: mind_twin.visible_mask(a.xs, a.ys)),
        ("overlap graph, 30 cards", lambda: kernel.overlap_masks(a.xs, a.ys, adj),
         lambda: mind_twin.overlap_masks(a.xs, a.ys, adj)),
        ("split detection, 30 cards", lambda: kernel.section_labels(a.xs, a.ys, visible, labels),
         lambda: mind_twin.section_labels(a.xs, a.ys, visible, labels)),
        ("same-suit group strength, 30 cards",
         lambda: kernel.group_strength(a.xs, a.ys, a.suits, a.strengths, 29),
         lambda: mind_twin.group_strength(a.xs, a.ys, a.suits, a.strengths, 29)),
    ]
    rows = []
    for name, fast, slow in cases:
        kernel = best_time(fast, repeat=repeat, min_seconds=seconds)
        twin = best_time(slow, repeat=max(2, repeat // 2), min_seconds=seconds)
        rows.append((name, f"{kernel * 1e6:.2f}", f"{twin * 1e6:.1f}", f"{twin / kernel:.0f}x"))
    wrapper = best_time(lambda: mindlib.legal_placements(DECK, mind, row), repeat=repeat, min_seconds=seconds)
    rows.append(("same, with decoding to (card, x, y) in Python", f"{wrapper * 1e6:.2f}", "", ""))
    problem = _problem(3, seed=11)
    args = planlib.search_arguments(problem)
    nodes = kernel.search_plans(*args)[3]
    kernel = best_time(lambda: kernel.search_plans(*args), repeat=repeat, min_seconds=seconds)
    twin = best_time(lambda: plan_twin.search_plans(*args), repeat=max(2, repeat // 2), min_seconds=seconds)
    rows.append((f"Blink plan search, 3-card row vs {len(problem.mind)}-card Mind ({nodes} nodes)",
                 f"{kernel * 1e6:.1f}", f"{twin * 1e6:.0f}", f"{twin / kernel:.0f}x"))
    print(table(("kernel call", "kernel (µs)", "twin (µs)", "twin / kernel"), rows))
    print(f"\nThe 30-card Mind spans {mindlib.span(mind)} quarters; the row has {count} legal placements. "
          "Target: under 20 µs and at least 50x the twin for the first line.\n")


def bench_cpsat(quick: bool) -> None:
    print("### Proof times for optimal Blink plans: CP-SAT (1 worker) and the compiled search\n")
    per_size = 3 if quick else 8
    sizes = (3, 4, 5) if quick else (3, 4, 5, 6, 7, 8)
    rows = []
    for k in sizes:
        times, proven, cuts, variables, exhaustive_times, agree = [], 0, 0, [], [], 0
        search_times, search_nodes, search_agree = [], [], 0
        for i in range(per_size):
            problem = _problem(k, seed=100 * k + i)
            result = solve_cpsat(problem, time_limit=120.0)
            times.append(result.seconds)
            proven += result.optimal or result.status == "INFEASIBLE"
            cuts += result.cuts
            variables.append(result.variables)
            start = time.perf_counter()
            found = planlib.search(problem)
            search_times.append(time.perf_counter() - start)
            search_nodes.append(found.nodes)
            search_agree += found.complete and found.value == result.value
            if k <= 4:
                start = time.perf_counter()
                ex = planlib.exhaustive(problem)
                exhaustive_times.append(time.perf_counter() - start)
                agree += ex.value == result.value
        rows.append((k, per_size, proven, f"{statistics.median(times):.2f}", f"{max(times):.2f}", cuts,
                     int(statistics.median(variables)),
                     f"{statistics.median(search_times):.3f} / {max(search_times):.3f}",
                     f"{int(statistics.median(search_nodes)):,}", f"{search_agree}/{per_size}",
                     f"{statistics.median(exhaustive_times):.3f} ({agree}/{per_size} agree)" if exhaustive_times
                     else "-"))
    print(table(("row cards", "instances", "CP-SAT proven", "CP-SAT median s", "CP-SAT max s", "split cuts",
                 "median vars", "compiled search median / max s", "median nodes", "search = CP-SAT",
                 "Python exhaustive median s"), rows))
    print("\nInstances: mid-game Minds of seeded games, rows drawn from the deck; CP-SAT's time includes building the "
          "model. The compiled search (src/embers_plan.pxi) is a second, independent proof.\n")


def _problem(k: int, seed: int) -> planlib.BlinkProblem:
    return planlib.problem_from_state(_long_row_state(k, seed))


def _long_row_state(k: int, seed: int):
    """A mid-game position of a seeded greedy game in which Fenrys blinks with ``k`` cards drawn from the deck."""
    rng = np.random.default_rng(seed)
    while True:
        state = GAME.new_initial_state(int(rng.integers(1 << 30)))
        policy = GreedyPolicy()
        blinks = []
        while not state.is_terminal() and len(blinks) < 12:
            if state.phase == "blink" and not state.added:
                blinks.append(state.clone())
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                state.apply_action(policy.choose(state, rng))
        blinks = [b for b in blinks if sum(1 for c in b.pile if not DECK.cards[c].is_demon) >= k]
        if blinks:
            state = blinks[len(blinks) // 2]
            pool = [c for c in sorted(state.pile) if not DECK.cards[c].is_demon]
            state.row = [int(c) for c in rng.choice(pool, size=k, replace=False)]
            state.pile = state.pile - set(state.row)
            state.added = False
            state._legal = None
            return state


def bench_hints(quick: bool) -> None:
    print("### Hint latency at the default limit (1 s), in-process\n")
    import ortools.sat.python.cp_model  # noqa: F401  (the engine pays this import once)
    games = 3 if quick else 12
    samples: dict[str, list[float]] = {}
    rng = np.random.default_rng(7)
    for g in range(games):
        state = GAME.new_initial_state(1000 + g)
        policy = GreedyPolicy()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            key = f"{state.role(state.current_player())} {state.phase}"
            if len(samples.get(key, [])) < (5 if quick else 40):
                ctx = SearchContext(limits=Limits(time_ms=1000), seed=0)
                start = time.perf_counter()
                contract.hint(GAME, state, ctx, top=3)
                samples.setdefault(key, []).append(time.perf_counter() - start)
            state.apply_action(policy.choose(state, rng))
    statuses: dict[str, Counter[str]] = {}
    for k in (5, 6, 7, 8):  # long memory rows (the hint policies rarely make them)
        key = f"fenrys blink, {k}-card row"
        for i in range(3 if quick else 15):
            state = _long_row_state(k, seed=300 + 10 * k + i)
            ctx = SearchContext(limits=Limits(time_ms=1000), seed=0)
            start = time.perf_counter()
            result = contract.hint(GAME, state, ctx, top=3)
            samples.setdefault(key, []).append(time.perf_counter() - start)
            statuses.setdefault(key, Counter())[result.move_infos[0].extra.get("planStatus", "-")] += 1
    rows = [(key, len(v), f"{1000 * statistics.median(v):.1f}", f"{1000 * percentile(v, 95):.1f}",
             f"{1000 * max(v):.1f}", ", ".join(f"{s} {n}" for s, n in sorted(statuses.get(key, {}).items())) or "-")
            for key, v in sorted(samples.items())]
    print(table(("decision", "hints", "median ms", "p95 ms", "max ms", "plan status"), rows))
    print("\nPositions from seeded greedy games. A fresh `memory-solver` process also pays Python's and "
          "numpy's start-up. Blink hints search with a node budget (EM-76): `EXHAUSTIVE` is a proven optimal plan, "
          "`INCOMPLETE` the best plan found when the budget ran out.\n")


def bench_puzzles(quick: bool, jobs: int = 1) -> None:
    print("### Puzzle generation (unique optimal plan, verified by exhaustive search and CP-SAT)\n")
    from solver.api import generate
    rows = []
    for difficulty, count in (("easy", 3 if quick else 20), ("medium", 2 if quick else 20),
                              ("hard", 1 if quick else 6)):
        start = time.perf_counter()
        puzzles = list(generate(GAME, "blink", difficulty, seed=1, count=count, jobs=jobs))
        seconds = time.perf_counter() - start
        relives = Counter(p["relives"] for p in puzzles)
        work = [p["work"] for p in puzzles]
        rows.append((difficulty, count, f"{seconds / count:.2f}", dict(sorted(relives.items())),
                     f"{min(work)} / {int(statistics.median(work))} / {max(work)}"))
    print(table(("difficulty", "puzzles", "seconds each", "relives", "work (plans) min / median / max"), rows))
    print(f"\n`solver.generate(GAME, 'blink', difficulty, seed=1, count=N, jobs={jobs})` (the command line's "
          "`generate`); seconds are wall time over the run. The grade is the solver's work (EM-78).\n")


LABELS = {"random": "random", "greedy": "greedy", "hint": "hint (both players)",
          "hint+greedy": "hint Fenrys + greedy Aelin", "greedy+hint": "greedy Fenrys + hint Aelin",
          "full-information": "full information (reference)"}


def bench_selfplay(quick: bool, jobs: int = 1) -> None:
    print("### Self-play of whole Chapter One games\n")
    import ortools.sat.python.cp_model  # noqa: F401
    from solver.api import selfplay
    from solver.selfplay import summarize
    n = 12 if quick else 500
    start = time.perf_counter()
    results = list(selfplay(GAME, tuple(LABELS), seed=5000, count=n, jobs=jobs))
    seconds = time.perf_counter() - start
    rows = []
    for label, name in LABELS.items():
        wins = sum(r["outcomes"][label] for r in results)
        lo, hi = wilson(wins, n)
        days, _, _ = mean_ci([4 if r["results"][label] == "won" else r["days"][label] for r in results])
        losses = Counter(r["results"][label].split(":")[-1] for r in results if r["results"][label] != "won")
        rows.append((name, n, f"{wins / n:.1%}", f"[{lo:.1%}, {hi:.1%}]", f"{days:.2f}",
                     ", ".join(f"{k} {v}" for k, v in losses.most_common()) or "-"))
    print(table(("policy", "games", "win rate", "95% CI (Wilson)", "days reached (4 = won)", "losses"), rows))
    print(f"\n`solver.selfplay(GAME, policies, seed=5000, count={n}, jobs={jobs})` (the command line's `selfplay`): "
          f"{n} deals, each played by every policy with the same deal and draws (paired), {n * len(LABELS) / seconds:.2f} "
          "games/s over all policies. Both players use the named policy unless two are given. The "
          "full-information reference lets Fenrys see Aelin's Resolve and the deck's next card: a reference, not "
          "a proven upper bound.\n")
    pairs = []
    summary = {(p["a"], p["b"]): p for p in summarize(results)["paired"]}
    for label in ("hint", "hint+greedy", "greedy+hint"):
        pair = summary.get((label, "greedy")) or summary[("greedy", label)]
        sign = 1 if pair["a"] == label else -1
        first, other = (pair["onlyA"], pair["onlyB"]) if sign == 1 else (pair["onlyB"], pair["onlyA"])
        pairs.append((f"{LABELS[label]} vs greedy", n, first, other, f"{sign * pair['difference']:+.1%}",
                      f"{pair['mcnemarP']:.2g}"))
    print(table(("comparison (same deals)", "games", "won only by the first", "won only by greedy",
                 "win-rate difference", "McNemar p (exact, two-sided)"), pairs))
    print()


#: the engine-guarantee positions: a Blink of 2 cards (answered at once) and of 10 cards (seconds of CP-SAT model
#: building, tens of seconds of compiled search)
GUARANTEE_POSITIONS = {
    "2-card row": "embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b demons=Cd:C2b discard=- "
                  "box=- resolve=D1a,G2b,S3,F5 completed=0 added=1 pending=- result=-",
    "10-card row": "embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b,F1a,G3,D3,S4,F2a,G2a,"
                   "D2b,S2b demons=Cd:C2b discard=- box=- resolve=D1a,G2b,S3,F5 completed=0 added=0 pending=- "
                   "result=-",
}


def _engine_query(query: dict, terminate_after: float | None) -> tuple[float, dict, int]:
    """Seconds from the query (or from its terminate) to the final answer, the answer, the interim reports."""
    from solver.fuzz import probe

    run = probe(query, terminate_after=terminate_after)
    return run.seconds, run.answer, len(run.interim)


def bench_guarantees(quick: bool) -> None:
    print("### Engine guarantees: time limits and terminate (issue 11)\n")
    import ortools.sat.python.cp_model  # noqa: F401  (the engine pays this import once; not part of the figure)
    repeat = 2 if quick else 5
    rows = []
    for label, position in GUARANTEE_POSITIONS.items():
        for action, method in (("hint", None), ("solve", "cpsat"), ("solve", "exhaustive")):
            base = {"id": "q", "game": "embers", "action": action, "state": position}
            if method:
                base["options"] = {"method": method}
            for limit in (300, 1000):
                runs = [_engine_query({**base, "limits": {"time_ms": limit}}, None) for _ in range(repeat)]
                took = [t for t, _, _ in runs]
                allowed = max(limit * 1.1, limit + 100) / 1000
                answer = runs[-1][1]
                rows.append((label, action + (f" {method}" if method else ""), f"time_ms {limit}",
                             f"{statistics.median(took):.3f}", f"{max(took):.3f}", "ok" if max(took) <= allowed
                             else "OVER", answer.get("status") or answer["rootInfo"].get("stoppedBy", "budget"), "-"))
            runs = [_engine_query({**base, "limits": {"time_ms": 30000}, "reportDuringSearchEvery": 0.1}, 0.5)
                    for _ in range(repeat)]
            finished = [a for _, a, _ in runs if not a.get("terminated")]
            took = [t for t, a, _ in runs if a.get("terminated")]
            answer = runs[-1][1]
            rows.append((label, action + (f" {method}" if method else ""), "terminate after 0.5 s",
                         f"{statistics.median(took):.3f}" if took else "-", f"{max(took):.3f}" if took else "-",
                         "finished before" if finished else "ok" if max(took) <= 0.2 else "SLOW",
                         answer.get("status") or answer["rootInfo"].get("stoppedBy", "budget"),
                         str(min(n for _, _, n in runs))))
    print(table(("position", "query", "limit", "median s", "max s", "guarantee", "status / stopped by",
                 "interim reports (min)"), rows))
    print("\nSeconds from the query (for terminate: from the terminate) to the final answer, through the engine in "
          "process, OR-Tools already loaded. Guarantee: within 10% or 100 ms of the limit, whichever is larger; "
          "terminate within 200 ms; reportDuringSearchEvery 0.1 s.\n")


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    command = "python benchmarks/run.py embers" + "".join(f" {a}" for a in argv if a.startswith("--"))
    print(f"Command: `{command}`  \nMachine: {machine()}\n")
    bench_kernels(quick)
    bench_guarantees(quick)
    bench_cpsat(quick)
    bench_hints(quick)
    jobs = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--jobs=")), 1)
    bench_puzzles(quick, jobs)
    bench_selfplay(quick, jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
