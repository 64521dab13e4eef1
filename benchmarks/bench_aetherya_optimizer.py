"""Aetherya optimal kingdoms: time to proven optimality on hands dealt from the 80-card deck.

``python benchmarks/run.py aetherya_optimizer [--quick] [--hands N] [--seed S] [--cap SECONDS]
[--no-plain] [--no-cp-sat]``

Three ways to prove the best board total of each hand, side by side in one run:

- **optimiser** (``memory-solver aetherya optimize``, default prover): compiled
  local search, Portal layouts up to symmetry ranked and pruned by a compiled
  bound, each remaining layout closed by the compiled branch-and-bound;
- **optimiser, CP-SAT prover** (``--prover cp-sat``): the same pipeline with
  each remaining layout closed by the CP-SAT model of
  ``solver/aetherya/solve_cpsat.py``;
- **plain CP-SAT** (the baseline, kept here): one Boolean per cell and card
  kind, Portal hubs as reachability Booleans, pair products linearised with the
  classic inequalities, 2 workers, no help from the compiled code.

Every kingdom returned is re-scored by the scorer (``score_kingdom``), and when
two methods prove a hand their optima must agree; any disagreement is printed
and makes the benchmark fail. Also measured: the compiled kernel against its
pure-Python twin (board evaluations, bound evaluations, search nodes per second).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import best_time, machine, percentile, table, wilson  # noqa: E402

from ortools.sat.python import cp_model  # noqa: E402

from solver.aetherya.cards import LETTERS  # noqa: E402
from solver.aetherya.solve import clear_cache, layout_counts, layouts, make_hand, optimize_kingdom  # noqa: E402
from solver.aetherya.scoring import format_kingdom, score_kingdom  # noqa: E402
from solver.kernels import aetherya as kernel  # noqa: E402
from solver.twins import aetherya_opt as twin  # noqa: E402

P, F, M, S, H, E, D, G, R, O = range(10)
PAIR_POINTS = {(H, P): 2, (H, F): 1, (H, M): 1, (H, S): -1, (E, F): 2, (E, S): -1, (D, M): 2,
               (G, H): -2, (G, E): -2, (G, D): -2, (E, D): -2}
DRAGON_VALUE = (0, 3, 5, 6)
PROVEN_WITHIN = 10.0


def deal_hands(n: int, seed: int) -> list[str]:
    """``n`` hands of 16 cards dealt at random from the 80-card deck (8 of each of the 10 kinds)."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(10), 8)
    return ["".join(LETTERS[k] for k in sorted(rng.choice(deck, 16, replace=False))) for _ in range(n)]


# -- the plain CP-SAT model (baseline) -----------------------------------------------------------

def _orthogonal(c: int) -> list[int]:
    r, q = divmod(c, 4)
    return [rr * 4 + qq for rr, qq in ((r - 1, q), (r + 1, q), (r, q - 1), (r, q + 1)) if 0 <= rr < 4 and 0 <= qq < 4]


def plain_model(cards: str, seconds: float, workers: int = 2) -> tuple[str, int | None, bool, float]:
    """The plain CP-SAT model of a hand: (kingdom, its total as CP-SAT sees it, proven, bound)."""
    counts = [cards.count(letter) for letter in LETTERS[:10]]
    m = cp_model.CpModel()
    x = {(c, k): m.NewBoolVar(f"x{c}_{k}") for c in range(16) for k in range(10)}
    for c in range(16):
        m.AddExactlyOne(x[c, k] for k in range(10))
    for k in range(10):
        m.Add(sum(x[c, k] for c in range(16)) == counts[k])
    portal = {c: x[c, O] for c in range(16)}
    # hub connection: reach[p, q] = Portals p and q in one hub (closure over at most n - 1 steps)
    n_portals = counts[O]
    reach = {(p, q): portal[p] if p == q else m.NewConstant(0) for p in range(16) for q in range(16)}
    for _ in range(max(0, n_portals - 1)):
        nxt = {}
        for p in range(16):
            for q in range(16):
                options = [reach[p, q]]
                for q2 in _orthogonal(q):
                    both = m.NewBoolVar("")
                    m.AddBoolAnd([reach[p, q2], portal[q]]).OnlyEnforceIf(both)
                    m.AddBoolOr([reach[p, q2].Not(), portal[q].Not(), both])
                    options.append(both)
                v = m.NewBoolVar("")
                m.AddMaxEquality(v, options)
                nxt[p, q] = v
        reach = nxt
    conn = {}
    for u in range(16):
        for v in range(u + 1, 16):
            options = []
            if v in _orthogonal(u):
                options.append(m.NewConstant(1))
            if n_portals:
                for p in _orthogonal(u):
                    for q in _orthogonal(v):
                        options.append(reach[p, q])
            if not options:
                continue
            linked = m.NewBoolVar(f"c{u}_{v}")
            m.AddMaxEquality(linked, options)
            c = m.NewBoolVar(f"conn{u}_{v}")  # connected and neither is a Portal
            m.AddBoolAnd([linked, portal[u].Not(), portal[v].Not()]).OnlyEnforceIf(c)
            m.AddBoolOr([linked.Not(), portal[u], portal[v], c])
            conn[u, v] = (c, v in _orthogonal(u))

    def product(*lits):
        z = m.NewBoolVar("")
        for lit in lits:
            m.Add(z <= lit)
        m.Add(z >= sum(lits) - (len(lits) - 1))
        return z

    objective = []
    near_dragon = {(u, k): [] for u in range(16) for k in (H, E, D)}
    for (u, v), (c, orthogonal) in conn.items():
        for (a, b), points in PAIR_POINTS.items():
            for s, t in ((u, v), (v, u)):
                objective.append(points * product(x[s, a], x[t, b], c))
        if orthogonal:
            for s, t in ((u, v), (v, u)):
                objective.append(3 * product(x[s, G], x[t, S]))
        for k in (H, E, D):
            for s, t in ((u, v), (v, u)):
                near_dragon[s, k].append(product(x[s, R], x[t, k], c))
    n = counts[R]
    if n:
        value = DRAGON_VALUE[min(n, 3)]
        tamed = []
        for u in range(16):
            t = m.NewBoolVar("")
            m.Add(t <= x[u, R])
            reasons = []
            for k in (H, E, D):
                a = m.NewBoolVar("")
                m.Add(2 * a <= sum(near_dragon[u, k]))
                reasons.append(a)
            m.Add(t <= sum(reasons))
            tamed.append(t)
        m.Add(sum(tamed) <= 3)
        objective.append(2 * value * sum(tamed) - value * n)
    m.Maximize(sum(objective))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.max_time_in_seconds = seconds
    status = solver.Solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "", None, False, math.inf
    kingdom = [next(k for k in range(10) if solver.Value(x[c, k])) for c in range(16)]
    return (format_kingdom(kingdom), int(round(solver.ObjectiveValue())), status == cp_model.OPTIMAL,
            solver.BestObjectiveBound())


# -- runs -------------------------------------------------------------------------------------------

@dataclass
class Run:
    method: str
    hand: str
    seconds: float
    proven: bool
    total: int | None
    bound: float
    checked: bool  # the scorer gives the same total


def run_optimiser(hand: str, prover: str, cap: float) -> Run:
    clear_cache()
    start = time.perf_counter()
    result = optimize_kingdom(hand, time_ms=int(cap * 1000), prover=prover, use_cache=False)
    seconds = time.perf_counter() - start
    checked = score_kingdom(result.notation).total == result.total and sorted(result.notation.replace("/", "")) == \
        sorted(hand)
    return Run(f"optimiser ({prover})", hand, seconds, result.optimal, result.total, result.bound, checked)


def run_plain(hand: str, cap: float) -> Run:
    start = time.perf_counter()
    kingdom, total, proven, bound = plain_model(hand, cap)
    seconds = time.perf_counter() - start
    checked = bool(kingdom) and score_kingdom(kingdom).total == total and \
        sorted(kingdom.replace("/", "")) == sorted(hand)
    return Run("plain CP-SAT (baseline)", hand, seconds, proven, total, bound, checked)


def censored_percentile(values: list[float], q: float) -> float:
    """The q-th percentile where unproven hands count as infinitely slow (``inf`` once it reaches them)."""
    data = sorted(values)
    pos = (len(data) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    if math.isinf(data[hi]):
        return data[lo] if pos == lo else math.inf
    return percentile(data, q)


def summary_row(method: str, runs: list[Run], cap: float) -> list:
    times = [r.seconds if r.proven else math.inf for r in runs]
    within = sum(1 for t in times if t <= PROVEN_WITHIN)
    lo, hi = wilson(within, len(runs))

    def fmt(t: float) -> str:
        return f"> {cap:g}" if math.isinf(t) else f"{t:.3f}"

    return [method, len(runs), sum(r.proven for r in runs), f"{within}/{len(runs)} ({100 * within / len(runs):.0f}%, "
            f"CI {100 * lo:.0f}-{100 * hi:.0f}%)", fmt(censored_percentile(times, 50)),
            fmt(censored_percentile(times, 90)), fmt(max(times)), sum(r.checked for r in runs)]


def short_call_rows(n: int, seed: int) -> list[list]:
    """The planner's use (issue 3): short calls with 3 to 6 fixed cells, no cache."""
    from solver.aetherya.cards import CELL_NAMES
    rng = np.random.default_rng(seed + 1)
    cases = []
    for hand in deal_hands(n, seed + 1):
        k = int(rng.integers(3, 7))
        cells = rng.choice(16, k, replace=False)
        picked = rng.choice(16, k, replace=False)
        cases.append((hand, {CELL_NAMES[c]: hand[i] for c, i in zip(cells, picked)}))
    rows = []
    for time_ms in (20, 50, 200):
        times, proven = [], 0
        for hand, fixed in cases:
            start = time.perf_counter()
            result = optimize_kingdom(hand, fixed, time_ms=time_ms, use_cache=False)
            times.append(time.perf_counter() - start)
            proven += result.optimal
            assert score_kingdom(result.notation).total == result.total
        lo, hi = wilson(proven, len(cases))
        rows.append([time_ms, len(cases), f"{proven}/{len(cases)} ({100 * proven / len(cases):.0f}%, CI "
                     f"{100 * lo:.0f}-{100 * hi:.0f}%)", f"{1000 * sum(times) / len(times):.1f}",
                     f"{1000 * percentile(times, 90):.1f}", f"{1000 * max(times):.1f}"])
    return rows


def kernel_rows(quick: bool) -> list[list]:
    """Compiled kernel against its twin: calls per second and the ratio."""
    rng = np.random.default_rng(0)
    boards = [rng.integers(0, 10, 16).astype(np.uint8) for _ in range(64)]
    hand = make_hand("PFFMMSSHHEEDGGRO")
    lay = layouts(hand)[0]
    codes = np.array(lay.codes, dtype=np.uint8)
    counts = layout_counts(hand)
    sym = np.array(lay.symmetries, dtype=np.int8).reshape(-1, 16)
    out = np.zeros(16, dtype=np.uint8)
    stats = np.zeros(4, dtype=np.int64)
    nodes = 200 if quick else 1000
    cases = [
        ("board total of a kingdom", lambda mod: [mod.kingdom_value(b) for b in boards], len(boards)),
        ("layout bound (assignment)", lambda mod: mod.layout_bound(codes, counts), 1),
        (f"branch-and-bound, {nodes} bound evaluations",
         lambda mod: mod.search_layout(codes, counts, sym, -100, nodes, 0.0, out, stats), nodes),
    ]
    rows = []
    for name, call, per_call in cases:
        fast = best_time(lambda: call(kernel), repeat=3, min_seconds=0.1)
        slow = best_time(lambda: call(twin), repeat=1 if quick else 2, min_seconds=0.1)
        rows.append([name, f"{per_call / fast:,.0f}/s", f"{per_call / slow:,.0f}/s", f"{slow / fast:,.0f}x"])
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_aetherya_optimizer", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 hands, short caps")
    parser.add_argument("--hands", type=int, default=None, help="number of hands (default 50, quick 5)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the deal (default 2024)")
    parser.add_argument("--cap", type=float, default=None,
                        help="seconds per hand for the CP-SAT runs (default 30, quick 5)")
    parser.add_argument("--no-plain", action="store_true", help="skip the plain CP-SAT baseline")
    parser.add_argument("--no-cp-sat", action="store_true", help="skip the CP-SAT prover")
    parser.add_argument("--per-hand", action="store_true", help="also print the per-hand table")
    args = parser.parse_args(argv)
    n = args.hands or (5 if args.quick else 50)
    cap = args.cap or (5.0 if args.quick else 30.0)
    main_cap = 60.0
    hands = deal_hands(n, args.seed)
    command = " ".join(["python benchmarks/run.py aetherya_optimizer", *argv])
    print(f"### Optimal kingdoms\n\n{machine()}. {n} hands dealt with seed {args.seed} from the 80-card deck; "
          f"time limit {main_cap:g} s for the optimiser, {cap:g} s per hand for the CP-SAT runs. "
          f"Command: `{command}`.\n")
    runs: dict[str, list[Run]] = {}
    methods = [("optimiser (search)", lambda h: run_optimiser(h, "search", main_cap))]
    if not args.no_cp_sat:
        methods.append(("optimiser (cp-sat)", lambda h: run_optimiser(h, "cp-sat", cap)))
    if not args.no_plain:
        methods.append(("plain CP-SAT (baseline)", lambda h: run_plain(h, cap)))
    failures = []
    for hand in hands:
        results = [fn(hand) for _, fn in methods]
        for (name, _), run in zip(methods, results):
            runs.setdefault(name, []).append(run)
            if not run.checked and run.total is not None:
                failures.append(f"{name} on {hand}: reported total {run.total} differs from the scorer's")
        proven = {r.total for r in results if r.proven}
        if len(proven) > 1:
            failures.append(f"{hand}: proven optima disagree: {[(r.method, r.total) for r in results if r.proven]}")
        best = max(r.total for r in results if r.total is not None)
        for r in results:
            if r.proven and r.total < best:
                failures.append(f"{hand}: {r.method} proved {r.total} but {best} exists")
        sys.stderr.write(f"{hand}: " + ", ".join(f"{r.method} {r.total}{'*' if r.proven else ''} {r.seconds:.2f}s"
                                                 for r in results) + "\n")
    print(table(["method", "hands", "proven", f"proven within {PROVEN_WITHIN:g} s", "median s", "p90 s", "max s",
                 "scores re-checked"], [summary_row(name, runs[name], main_cap if name.endswith("(search)") else cap)
                                        for name, _ in methods]))
    base = runs["optimiser (search)"]
    if "plain CP-SAT (baseline)" in runs:
        plain = runs["plain CP-SAT (baseline)"]
        both = [(a.seconds, b.seconds) for a, b in zip(base, plain) if a.proven and b.proven]
        if both:
            ratio = percentile([b / a for a, b in both], 50)
            print(f"\nOn the {len(both)} hand(s) both proved, the optimiser was {ratio:,.0f}x faster than the "
                  f"plain model (median ratio of times).")
    gaps = [r.bound - r.total for r in runs.get("plain CP-SAT (baseline)", []) if not r.proven and r.total is not None]
    if gaps:
        print(f"Plain model, hands not proven within {cap:g} s: median gap bound - best = {percentile(gaps, 50):g}.")
    if args.per_hand:
        print()
        rows = []
        for i, hand in enumerate(hands):
            row = [hand, hand.count("O"), hand.count("R")]
            for name, _ in methods:
                r = runs[name][i]
                row.append(f"{r.total}{'' if r.proven else ' (bound %g)' % r.bound} in {r.seconds:.2f} s")
            rows.append(row)
        print(table(["hand", "Portals", "Dragons"] + [name for name, _ in methods], rows))
    print("\n#### Short calls with fixed cells (the hint engine's planner)\n")
    print(table(["time limit ms", "calls", "proven optimal", "mean ms", "p90 ms", "max ms"],
                short_call_rows(20 if args.quick else 200, args.seed)))
    print("\n#### Compiled kernel against its twin\n")
    print(table(["operation", "kernel", "twin", "ratio"], kernel_rows(args.quick)))
    if failures:
        print("\n**FAILURES**\n")
        for line in failures:
            print(f"- {line}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
