"""Forgotten benchmarks: kernels against their twins, self-play win rates, exact gaps on small boards.

``python benchmarks/run.py forgotten`` (add ``--quick`` for a small run). Sections:

1. path queries per second, compiled batch against the pure-Python twin (target: >= 10 M/s, >= 100x);
2. whole seeded games per second with the route policy on 6x6 (target: >= 20,000/s on one core);
3. self-play win rates on the real game (6x6, 17 pairs) with 95% intervals: random, greedy matcher,
   route policy, oracle (full information), and the hint engine (``solver.selfplay``, paired with the route
   policy on the same deals and dice; ``--jobs N`` spreads it over processes); puzzle generation and
   self-play throughput through ``solver.generate`` / ``solver.selfplay`` at 1 and 2 processes;
4. the gap between the hint policy and the exact optimum on small boards (target: within 1 point),
   by exact policy evaluation or by summing exact per-decision losses over seeded games;
5. the memory-game anchor: perfect-memory play against Velleman and Warrington;
6. Brain placement advice for the real game;
7. ``solve`` under limits (issue 11): how soon a cancelled exact search answers (target: 200 ms) and how
   close to its time limit a limited one stops (target: within 10% or 100 ms, whichever is larger);
8. puzzle generation: CPU seconds for 3 puzzles per board and difficulty (target: seconds per puzzle);
9. puzzle generation under limits (issue 23): how soon a terminated generation stops (target: 200 ms) and how
   close to its time limit a limited one stops, with a node budget it would not reach.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import best_time, mean_ci, table, wilson  # noqa: E402

from solver.forgotten import evaluate  # noqa: E402
from solver.forgotten.exact import clear_expected_turns  # noqa: E402
from solver.forgotten.knowledge import Model  # noqa: E402
from solver.forgotten.placement import advise_placement  # noqa: E402
from solver.kernels import forgotten as kernel  # noqa: E402
from solver.registry import load_game  # noqa: E402
from solver.puzzles import generate  # noqa: E402
from solver.search import Limits, SearchContext  # noqa: E402
from solver.testing import cancelled_after  # noqa: E402
from solver.selfplay import selfplay, summarize  # noqa: E402
from solver.twins import forgotten_paths as paths_twin  # noqa: E402
from solver.twins import forgotten_playout as playout_twin  # noqa: E402
from solver import contract  # noqa: E402

POLICIES = {"random": 0, "greedy matcher": 1, "route (hint base)": 2, "oracle (full information)": 3}


def section(title: str, command: str) -> None:
    print(f"\n### {title}\n\nCommand: `{command}`\n")


# -- 1. path queries ------------------------------------------------------------------------------------------
def bench_paths(quick: bool) -> None:
    section("Path queries (6x6, Brains (1,3) and (6,4))", "python benchmarks/run.py forgotten" + (" --quick" if quick else ""))
    game = load_game("forgotten")
    a, b = game.board.brains
    rng = np.random.default_rng(1)
    n = 200_000 if quick else 2_000_000
    # masks like real boards: each cell face up with probability 0.5
    masks = np.zeros(n, np.uint64)
    bits = rng.random((n, 36)) < 0.5
    for c in range(36):
        masks |= bits[:, c].astype(np.uint64) << np.uint64(c)
    out = np.zeros(n, np.uint8)
    kernel_s = best_time(lambda: kernel.path_exists_batch(6, 6, a, b, masks, out), repeat=3)
    twin_n = 2000
    twin_out = np.zeros(twin_n, np.uint8)
    twin_s = best_time(lambda: paths_twin.path_exists_batch(6, 6, a, b, masks[:twin_n], twin_out), repeat=2,
                       min_seconds=0.3)
    up = masks & np.uint64(0x0F0F0F0F0)
    ints = np.zeros(n, np.int32)
    missing_s = best_time(lambda: kernel.missing_tiles_batch(6, 6, a, b, up, masks, ints), repeat=3)
    twin_missing_s = best_time(lambda: paths_twin.missing_tiles_batch(6, 6, a, b, up[:twin_n], masks[:twin_n],
                                                                      ints[:twin_n]), repeat=2, min_seconds=0.3)
    k_rate, t_rate = n / kernel_s, twin_n / twin_s
    m_rate, tm_rate = n / missing_s, twin_n / twin_missing_s
    print(table(["query", "kernel (batch) /s", "twin /s", "kernel / twin", "target"],
                [["path exists", k_rate, t_rate, f"{k_rate / t_rate:,.0f}x", ">= 10,000,000/s and >= 100x"],
                 ["fewest missing tiles", m_rate, tm_rate, f"{m_rate / tm_rate:,.0f}x", ""]]))
    print(f"\nShare of random half-full boards with a path: {out.mean():.3f}")


# -- 2. playouts --------------------------------------------------------------------------------------------
def bench_playouts(quick: bool) -> None:
    section("Whole seeded games per second (6x6, 17 pairs, one core)",
            "python benchmarks/run.py forgotten" + (" --quick" if quick else ""))
    game = load_game("forgotten")
    a, b = game.board.brains
    rows = []
    for name, policy in POLICIES.items():
        n = 20_000 if quick else 200_000
        wins = np.zeros(n, np.uint8)
        turns = np.zeros(n, np.int32)
        seconds = best_time(lambda: kernel.play_games(6, 6, a, b, 17, 1, 0, policy, 1, wins, turns),
                            repeat=2, min_seconds=0.2)
        tn = 20 if policy == 2 else 50
        tw, tt = np.zeros(tn, np.uint8), np.zeros(tn, np.int32)
        twin_s = best_time(lambda: playout_twin.play_games(6, 6, a, b, 17, 1, 0, policy, 1, tw, tt), repeat=1,
                           min_seconds=0.2)
        target = ">= 20,000/s" if policy == 2 else ""
        rows.append([name, n / seconds, tn / twin_s, f"{(n / seconds) / (tn / twin_s):,.0f}x", target])
    print(table(["policy", "kernel games/s", "twin games/s", "kernel / twin", "target"], rows))


# -- 3. self-play -------------------------------------------------------------------------------------------
def bench_selfplay(quick: bool) -> None:
    games = 50_000 if quick else 1_000_000
    section(f"Self-play win rates, real game (6x6, 17 pairs, Brains (1,3) and (6,4), Erasure once both have played), "
            f"{games:,} seeded games", "python benchmarks/run.py forgotten" + (" --quick" if quick else ""))
    rows = []
    for spec in ("forgotten", "forgotten(erasure=turn)"):
        game = load_game(spec)
        a, b = game.board.brains
        for name, policy in POLICIES.items():
            wins = np.zeros(games, np.uint8)
            turns = np.zeros(games, np.int32)
            won = kernel.play_games(6, 6, a, b, 17, game.erasure_code, 0, policy, 2024, wins, turns)
            lo, hi = wilson(int(won), games)
            rows.append([spec, name, f"{int(won):,}", f"{won / games:.5f}", f"[{lo:.5f}, {hi:.5f}]",
                         f"{turns.mean():.2f}"])
    print(table(["game", "policy", "wins", "win rate", "95% CI", "mean turns"], rows))
    hint_games = 12 if quick else 200
    budget = 4000
    jobs = _jobs()
    section(f"Hint engine self-play (6x6, {hint_games} games, {budget:,} rollouts per decision), paired with the "
            f"route policy on the same deals and dice ({jobs} process{'es' if jobs > 1 else ''})",
            "python benchmarks/run.py forgotten" + (" --quick" if quick else "") + (f" --jobs={jobs}" if jobs > 1 else ""))
    game = load_game("forgotten")
    start = time.perf_counter()
    results = list(selfplay(game, ("hint", "route"), seed=2024, count=hint_games, options={"hintNodes": budget},
                            jobs=jobs))
    summary = summarize(results)
    labels, pair = summary["labels"], summary["paired"][0]
    print(table(["policy", "wins", "win rate", "95% CI"],
                [[name, round(labels[name]["mean"] * hint_games), labels[name]["mean"],
                  f"[{labels[name]['ci'][0]:.3f}, {labels[name]['ci'][1]:.3f}]"] for name in ("hint", "route")]
                + [["difference (hint - route), paired", "", pair["difference"],
                    f"[{pair['ci'][0]:.3f}, {pair['ci'][1]:.3f}], McNemar p = {pair['mcnemarP']:.3g} "
                    f"({pair['onlyA']} deals only the hint won, {pair['onlyB']} only the route policy)"]]))
    print(f"\n{hint_games} paired games in {time.perf_counter() - start:.0f} s "
          "(`memory-solver forgotten selfplay --policies hint,route --hint-nodes 4000 --seed 2024 --summary`)")


JOBS = 1     # ``--jobs=N``: processes for the hint self-play


def _jobs() -> int:
    return JOBS


# -- 3b. runs at scale --------------------------------------------------------------------------------------------
def bench_runs(quick: bool) -> None:
    """Puzzle generation and self-play through ``solver.generate`` / ``solver.selfplay``, 1 and 2 processes."""
    puzzles, games, fast = (4, 100, 2000) if quick else (20, 1000, 20_000)
    section("Puzzles and self-play through the shared runs (solver.generate, solver.selfplay), 1 and 2 processes",
            "python benchmarks/run.py forgotten" + (" --quick" if quick else ""))
    game = load_game("forgotten")
    rows = []
    for label, count, make in (
            (f"generate forced-connection medium, {puzzles} puzzles", puzzles,
             lambda jobs: generate(game, "forced-connection", "medium", seed=1, count=puzzles, jobs=jobs)),
            (f"selfplay route,greedy with moves, {games} deals", games,
             lambda jobs: selfplay(game, ("route", "greedy"), seed=1, count=games, jobs=jobs)),
            (f"selfplay route,greedy --fast, {fast} deals", fast,
             lambda jobs: selfplay(game, ("route", "greedy"), seed=1, count=fast, options={"fast": True}, jobs=jobs))):
        rates, outputs = [], []
        for jobs in (1, 2):
            start = time.perf_counter()
            outputs.append([json.dumps(item) for item in make(jobs)])
            rates.append(count / (time.perf_counter() - start))
        rows.append([label, f"{rates[0]:,.1f}", f"{rates[1]:,.1f}", f"{rates[1] / rates[0]:.2f}",
                     "yes" if outputs[0] == outputs[1] else "NO"])
    print(table(["run", "items/s, 1 process", "items/s, 2 processes", "ratio", "same output"], rows))


# -- 4. exact gaps ------------------------------------------------------------------------------------------
EXACT_BOARDS = [("forgotten(width=3,height=3,pairs=3,erasure=turn)", "exact", True),
                ("forgotten(width=4,height=3,pairs=3,erasure=turn)", "exact", True),
                ("forgotten(width=4,height=3,pairs=4)", "exact", False),
                ("forgotten(width=4,height=3)", "regret", False),
                ("forgotten(width=3,height=4)", "regret", False),
                ("forgotten(width=4,height=4,pairs=5)", "regret", False)]


def bench_gaps(quick: bool) -> None:
    budget = 40_000
    section(f"Hint policy against the exact optimum on small boards (hint: {budget:,} rollouts per decision; "
            "target gap <= 1 point)", "python benchmarks/run.py forgotten" + (" --quick" if quick else ""))
    rows = []
    for spec, method, in_quick in EXACT_BOARDS:
        if quick and not in_quick:
            continue
        game = load_game(spec)
        model = Model.of(game)
        info, flag = evaluate.initial_info(game)
        solver = evaluate.optimal_solver(game)
        start = time.perf_counter()
        optimum = solver.value(np.asarray(info.codes, np.uint8), info.e, info.d, flag)
        solve_s = time.perf_counter() - start
        states = solver.entries()
        route, _ = evaluate.policy_value(game, evaluate.route_policy(model))
        start = time.perf_counter()
        if method == "exact":
            value, _ = evaluate.policy_value(game, evaluate.hint_policy(game, model, budget))
            gap, gap_ci = optimum - value, "exact"
        else:
            games = 300
            loss = evaluate.regret(game, evaluate.hint_policy(game, model, budget), games, 1, solver)
            gap, gap_ci = loss.mean, f"[{loss.low * 100:.2f}, {loss.high * 100:.2f}] ({games} games)"
        rows.append([game.spec(), f"{optimum:.4f}", f"{states:,}", f"{solve_s:.1f}", f"{route:.4f}",
                     f"{(optimum - route) * 100:.2f}",
                     f"{gap * 100:.2f}", gap_ci, f"{time.perf_counter() - start:.0f}"])
    print(table(["board", "optimal P(win)", "knowledge states", "solve s", "route policy", "route gap (points)",
                 "hint gap (points)", "hint gap 95% CI (points)", "hint eval s"], rows))


# -- 5. memory-game anchor -------------------------------------------------------------------------------------
def bench_anchor(quick: bool) -> None:
    games = 50_000 if quick else 500_000
    section("Memory-game anchor: perfect memory, no Erasure, match every pair (goal=clear)",
            "python benchmarks/run.py forgotten" + (" --quick" if quick else ""))
    rows = []
    for pairs, width, height in ((2, 3, 3), (4, 3, 4), (17, 6, 6)):
        game = load_game(f"forgotten(width={width},height={height},pairs={pairs},erasure=off,goal=clear)")
        wins = np.zeros(games, np.uint8)
        turns = np.zeros(games, np.int32)
        kernel.play_games(width, height, *game.board.brains, pairs, 0, 1, 1, 5, wins, turns)
        mean, lo, hi = mean_ci(turns.astype(float).tolist())
        exact = clear_expected_turns(2 * pairs)
        rows.append([pairs, f"{float(exact):.4f}" + (f" = {exact}" if pairs <= 4 else ""), f"{mean:.4f}",
                     f"[{lo:.4f}, {hi:.4f}]"])
    print(table(["pairs", "exact optimum (Velleman-Warrington)", "simulated greedy mean turns", "95% CI"], rows))


# -- 6. placement ----------------------------------------------------------------------------------------------
def bench_placement(quick: bool) -> None:
    games = 40_000 if quick else 2_000_000
    section(f"Brain placement advice, real game ({games:,} games in all, successive halving)",
            "python benchmarks/run.py forgotten" + (" --quick" if quick else ""))
    result = advise_placement(load_game("forgotten"), SearchContext(limits=Limits(nodes=games), seed=1), top=5)
    rows = [[f"{p['brains'][0]} and {p['brains'][1]}", p["spec"], f"{p['winProbability']:.4f}",
             f"[{p['ci'][0]:.4f}, {p['ci'][1]:.4f}]", f"{p['games']:,}"] for p in result["placements"]]
    print(table(["Brains", "parameter", "win rate (route policy)", "95% CI", "games"], rows))


# -- 7. solve under limits ---------------------------------------------------------------------------------------
LIMIT_POSITION = "??????/@????@/??????/?????? 0 first"      # 6x4, every tile unseen: far beyond a few seconds


def _under_limits(action, quick: bool) -> tuple[list[list], list[float]]:
    """``action(ctx)`` terminated after a delay (on a worker thread, as the engine runs it) and under time limits,
    each with a node budget it would not reach in hours: rows of when it answered and what it said."""
    rows, latencies = [], []
    for delay in ([0.3, 1.0] if quick else [0.1, 0.3, 1.0, 2.0, 4.0]):
        ctx = SearchContext(limits=Limits(time_ms=60_000, nodes=10**12))
        result, latency = cancelled_after(lambda ctx=ctx: action(ctx), ctx, delay)
        latencies.append(latency)
        rows.append([f"terminate after {delay:.1f} s", f"{latency * 1000:.1f} ms", result, "<= 200 ms"])
    for ms in ([300, 1000] if quick else [100, 300, 1000, 3000, 8000]):
        ctx = SearchContext(limits=Limits(time_ms=ms, nodes=10**12))
        start = time.perf_counter()
        result = action(ctx)
        took = time.perf_counter() - start
        allowed = max(0.1 * ms, 100)
        rows.append([f"time_ms {ms}", f"{took * 1000:.1f} ms ({(took * 1000 - ms):+.1f})", result,
                     f"<= {ms + allowed:.0f} ms"])
    return rows, latencies


def _print_limits(rows: list[list], latencies: list[float]) -> None:
    print(table(["query", "answered after", "limit stated", "target"], rows))
    print(f"\nTerminate latency: median {statistics.median(latencies) * 1000:.1f} ms, "
          f"worst {max(latencies) * 1000:.1f} ms.")


def bench_solve_limits(quick: bool) -> None:
    section(f"Exact solve under limits ({LIMIT_POSITION}, 6x4; engine: the same code on a worker thread)",
            "python benchmarks/run.py forgotten" + (" --quick" if quick else ""))
    game = load_game("forgotten")
    state = game.parse_state(LIMIT_POSITION)
    _print_limits(*_under_limits(lambda ctx: contract.solve(game, state, ctx).solution.get("limit"), quick))


# -- 9. puzzle generation under limits (issue 23) ----------------------------------------------------------------
def bench_generate_limits(quick: bool) -> None:
    """Issue 23's query: best-move puzzles, hard, on a 6x4 board with 11 pairs ran 83.5 s whatever the cap."""
    from solver.search import Stopped
    section("Puzzle generation under limits (best-move, hard, forgotten(width=6,height=4,pairs=11); issue 23)",
            "python benchmarks/run.py forgotten" + (" --quick" if quick else ""))
    game = load_game("forgotten(width=6,height=4,pairs=11)")

    def action(ctx: SearchContext) -> str:
        try:
            contract.generate_puzzle(game, "best-move", "hard", np.random.default_rng(0), ctx)
            return "finished"
        except Stopped as exc:
            return f"Stopped: {exc}"
    _print_limits(*_under_limits(action, quick))


# -- 8. puzzle generation --------------------------------------------------------------------------------------
def bench_generate(quick: bool) -> None:
    """``generate --count 3`` as the command line runs it (``solver.puzzles.generate``, one process)."""
    from solver.errors import SolverError
    section("Puzzle generation, 3 puzzles, seed 0, one process (CPU seconds of this process)",
            "python benchmarks/run.py forgotten" + (" --quick" if quick else ""))
    specs = ["forgotten(width=4,height=3)"] if quick else ["forgotten(width=4,height=3)", "forgotten(width=3,height=4)",
                                                          "forgotten(width=4,height=4,pairs=6)", "forgotten"]
    rows = []
    for spec in specs:
        game = load_game(spec)
        kinds = ("forced-connection", "best-move") if game.board.cells <= 24 else ("forced-connection",)
        for kind in kinds:
            for difficulty in ("easy", "medium", "hard"):
                cpu, wall = time.process_time(), time.perf_counter()
                try:
                    found = len(list(generate(game, kind, difficulty, seed=0, count=3)))
                except SolverError:
                    found = 0
                rows.append([spec, kind, difficulty, found, f"{time.process_time() - cpu:.1f}",
                             f"{time.perf_counter() - wall:.1f}"])
    print(table(["game", "kind", "difficulty", "puzzles", "CPU s", "wall s"], rows))


def main(argv: list[str]) -> int:
    global JOBS
    quick = "--quick" in argv
    JOBS = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--jobs=")), 1)
    for bench in (bench_paths, bench_playouts, bench_selfplay, bench_runs, bench_anchor, bench_placement, bench_gaps,
                  bench_solve_limits, bench_generate, bench_generate_limits):
        bench(quick)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
