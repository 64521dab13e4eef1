"""Mnemonic: compiled kernels against their twins, the planner's limits, and the planner against the rules of thumb.

``python benchmarks/run.py mnemonic [--quick] [--jobs=N]`` (``--sweep-only``, ``--limits-only``: one part).

1. Odds kernel (128-bit counts) vs its twin; planner kernel (doubles) vs its twin (exact fractions without the
   continuation estimate, floats with it), values checked equal to 1e-12.
2. Planner size: one evaluation at the first table decision by table size and horizon, with the estimate.
3. Limits (MN-46): wall time of hints under ``limits.time_ms`` 100, 300, 1000 and the default on large
   positions, how long after ``ctx.cancel`` a hint answers, and a position with one legal move.
4. Stability (MN-38, MN-44): how much the best value moves from one horizon to the next, with the estimate
   and with the plain horizon objective (``planner.continuation = none``).
5. The paired sweep: players 1-4, weavings 0/1/3, starting Adversary pool 0/3, plain and planned scenes, Deck
   Burner and Into the Grey: the planner at the table's choices against "always face the Adversary after one
   round" and "never before two rounds", the same seeds (and the same scene policy) for every contestant;
   paired differences with 95% intervals and the exact McNemar test. Every search is bounded by node budgets
   only, so the sweep gives the same sessions on every machine.
6. Self-play through ``solver.selfplay`` (3 players, Deck Burner, default rules and no weavings; ``--jobs=N``
   spreads the deals over processes): every policy on the same deals and dice, compared paired; then the
   throughput of ``solver.selfplay`` and ``solver.generate`` on 1 and 2 processes.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import best_time, table  # noqa: E402

from solver import api, contract  # noqa: E402
from solver.stats import wilson  # noqa: E402
from solver.kernels import mnemonic as kernel  # noqa: E402
from solver.mnemonic.game import MnemonicGame  # noqa: E402
from solver.mnemonic.model import layout_of, position_of  # noqa: E402
from solver.mnemonic.planner import Horizon  # noqa: E402
from solver.mnemonic.policies import (paired_wins, plain_scene_move, planner_policy,  # noqa: E402
                                      rule_of_thumb)
from solver.puzzles import generate  # noqa: E402
from solver.search import Limits, SearchContext  # noqa: E402
from solver.testing import cancelled_after  # noqa: E402
from solver.selfplay import selfplay, summarize  # noqa: E402
from solver.twins import mnemonic_odds as odds_twin  # noqa: E402
from solver.twins import mnemonic_plan as plan_twin  # noqa: E402

SESSION_ROUNDS = 3  # a session is at most 3 rounds of Individual Scenes (one evening); the planner is told so


def bench_odds(quick: bool) -> list[list[object]]:
    rng = np.random.default_rng(0)
    cases = [(np.asarray(rng.integers(0, 5, size=int(rng.integers(1, 6))), dtype=np.int64), int(rng.integers(0, 15)))
             for _ in range(200)]
    lists = [(list(map(int, p)), m) for p, m in cases]
    assert all(kernel.group_counts(p, m, 2) == odds_twin.group_counts(q, m, 2)
               for (p, m), (q, _) in zip(cases, lists))
    k = best_time(lambda: [kernel.group_counts(p, m, 2) for p, m in cases], repeat=3 if quick else 5)
    t = best_time(lambda: [odds_twin.group_counts(p, m, 2) for p, m in lists], repeat=3 if quick else 5)
    return [["group_counts (200 scenes)", f"{k * 1e6 / 200:.2f}", f"{t * 1e6 / 200:.2f}", f"{t / k:.1f}x"]]


def walk_to(state, stop, rng: np.random.Generator, scene=plain_scene_move):
    """Play ``state`` on (plain scenes, seeded chance) until ``stop(state)``; None if the session ends first."""
    while not stop(state):
        if state.is_terminal():
            return None
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        else:
            state.apply_action(scene(state))
    return state


def planner_positions(count: int, tail: bool) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Small late-game Deck Burner positions the twin solves in well under a second."""
    game = MnemonicGame(players=2)
    out = []
    seed = 0
    while len(out) < count:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed)
        state.rules = state.rules.with_overrides({"planner.sessionRounds": SESSION_ROUNDS})
        seed += 1
        state = walk_to(state, lambda s: len(s.deck) <= 8 and s.phase == "scene-card", rng)
        if state is None:
            continue
        layout = layout_of(state, 0, None, tail=tail)
        pos = np.asarray(position_of(state, layout, 0, 2)).reshape(1, -1)
        _, states, ok, _ = kernel.plan_values(layout.config, layout.skills, pos, 3000, 0.0)
        if ok and 50 <= states <= 3000:
            out.append((layout.config, layout.skills, pos))
    return out


def bench_planner_kernel(quick: bool) -> list[list[object]]:
    rows = []
    for tail in (False, True):
        cases = planner_positions(3 if quick else 8, tail)
        estimates = 0
        for config, skills, pos in cases:
            kv, kn, _, ke = kernel.plan_values(config, skills, pos, 10**6, 0.0)
            tv, tn, _, te = plan_twin.plan_values(config, skills, [pos[0]], 10**6, 0)
            assert kn == tn and ke == te and abs(kv[0] - float(tv[0])) < 1e-12
            estimates += ke
        k = best_time(lambda: [kernel.plan_values(c, s, p, 10**6, 0.0) for c, s, p in cases], repeat=3)
        t = best_time(lambda: [plan_twin.plan_values(c, s, [p[0]], 10**6, 0) for c, s, p in cases], repeat=1,
                      min_seconds=0.0)
        states = sum(kernel.plan_values(c, s, p, 10**6, 0.0)[1] for c, s, p in cases)
        what = (f"with the estimate ({estimates:,} estimates)" if tail else "exact fractions, no estimate")
        rows.append([f"plan_values ({len(cases)} positions, {states:,} states, horizon 0 rounds / 2 Group Scenes, "
                     f"{what})", f"{k * 1e6 / len(cases):.0f}", f"{t * 1e6 / len(cases):.0f}", f"{t / k:.0f}x"])
    return rows


def first_table(players: int, seed: int = 1, mode: str = "deck-burner"):
    """The first table decision of a seeded session played with the plain scene choices."""
    state = MnemonicGame(players=players, mode=mode).new_initial_state(seed)
    state.rules = state.rules.with_overrides({"planner.sessionRounds": SESSION_ROUNDS})
    return walk_to(state, lambda s: s.phase == "table", np.random.default_rng(seed))


def bench_scaling(quick: bool) -> list[list[object]]:
    """Memoised states, estimates and time of one evaluation at the first table, by table size and horizon."""
    rows = []
    cases = [(2, 0, 0), (2, 1, 1), (2, 1, 2), (3, 0, 0), (3, 1, 1), (3, 1, 2), (4, 0, 0), (4, 1, 1)]
    if quick:
        cases = [(2, 0, 0), (2, 1, 1), (3, 0, 0), (3, 1, 1)]
    for players, rounds, groups in cases:
        state = first_table(players)
        layout = layout_of(state, rounds, 0, tail=True)
        pos = np.asarray(position_of(state, layout, rounds, groups)).reshape(1, -1)
        start = time.perf_counter()
        _, states, complete, estimates = kernel.plan_values(layout.config, layout.skills, pos, 20_000_000, 30.0)
        seconds = time.perf_counter() - start
        rows.append([players, rounds, groups, f"{states:,}", f"{estimates:,}",
                     f"{seconds:.2f}" if complete else "> 30 (stopped)"])
    return rows


# -- limits --------------------------------------------------------------------------------------
def large_positions(count: int) -> list[tuple[MnemonicGame, object]]:
    """Decisions of 3- and 4-player sessions (both modes) whose full horizon is far beyond a second."""
    out = []
    seed = 0
    while len(out) < count:
        players, mode = (3, 4)[seed % 2], ("deck-burner", "into-the-grey")[(seed // 2) % 2]
        game = MnemonicGame(players=players, mode=mode)
        rng = np.random.default_rng(seed)
        state = walk_to(game.new_initial_state(seed),
                        lambda s: not s.is_chance_node() and len(s.legal_actions()) > 2 and rng.random() < 0.3, rng)
        seed += 1
        if state is not None:
            out.append((game, state))
    return out


def bench_time_limits(quick: bool) -> list[list[object]]:
    """Hints under a time limit, alone and with a huge node budget (a budget never gets around time, issue 23)."""
    positions = large_positions(4 if quick else 16)
    rows = []
    for limit, nodes in ((100, None), (100, 2**31), (300, None), (1000, None), (1000, 2**31), (None, None)):
        walls, stopped = [], 0
        for game, state in positions:
            start = time.perf_counter()
            result = api.hint(game, state, time_ms=limit, nodes=nodes)
            walls.append(time.perf_counter() - start)
            stopped += result.root_info.get("stoppedBy") == "time"
        asked = (limit or game.default_time_ms) / 1000
        worst = max(walls)
        label = f"{limit} ms" if limit else f"default ({game.default_time_ms} ms)"
        rows.append([label + (f", nodes {nodes:,}" if nodes else ""), len(walls),
                     f"{statistics.median(walls):.3f}", f"{worst:.3f}", f"{(worst - asked) * 1000:+.0f} ms",
                     "yes" if worst <= asked + max(0.1, asked * 0.1) else "no", stopped])
    return rows


def bench_cancel(quick: bool) -> list[list[object]]:
    positions = large_positions(4 if quick else 12)
    delays = []
    for game, state in positions:
        ctx = SearchContext(limits=Limits(time_ms=60_000))
        _, delay = cancelled_after(lambda ctx=ctx, game=game, state=state: contract.hint(game, state, ctx), ctx, 0.3)
        delays.append(delay)
    game = MnemonicGame(players=6)
    only = game.new_initial_state(1)
    start = time.perf_counter()
    api.hint(game, only)
    single = time.perf_counter() - start
    return [["terminate (ctx.cancel set 0.3 s into a 60 s search)", len(delays),
             f"{statistics.median(delays) * 1000:.0f}", f"{max(delays) * 1000:.0f}",
             "yes" if max(delays) <= 0.2 else "no"],
            ["one legal move (6 players, the first draw), default limits", 1, f"{single * 1000:.0f}",
             f"{single * 1000:.0f}", "yes" if single <= 0.2 else "no"]]


def bench_stability(quick: bool) -> list[list[object]]:
    """Best value at each horizon of the deepening, at table and scene decisions of 2-player sessions."""
    rows = []
    for continuation in ("estimate", "none"):
        jumps, spans, drops, count = [], [], 0, 0
        for seed in range(6 if quick else 30):
            game = MnemonicGame(players=2)
            state = game.new_initial_state(seed)
            state.rules = state.rules.with_overrides({"planner.sessionRounds": SESSION_ROUNDS,
                                                      "planner.continuation": continuation})
            rng = np.random.default_rng(seed)
            state = walk_to(state, lambda s: not s.is_chance_node() and len(s.legal_actions()) > 1
                            and (s.phase in ("table", "after-defeat") or rng.random() < 0.2), rng)
            if state is None:
                continue
            values = [level["value"] for level in api.hint(game, state, nodes=400_000).root_info["levels"]]
            if len(values) < 2:
                continue
            count += 1
            steps = [b - a for a, b in zip(values, values[1:])]
            jumps.append(max(abs(d) for d in steps))
            spans.append(max(values) - min(values))
            drops += any(d < -1e-9 for d in steps)
        rows.append([continuation, count, f"{statistics.median(jumps):.3f}", f"{max(jumps):.3f}",
                     f"{max(spans):.3f}", drops])
    return rows


# -- the sweep -----------------------------------------------------------------------------------
def game_with(changes: dict[str, object], players: int, mode: str = "deck-burner") -> MnemonicGame:
    """A game whose rules differ from the defaults by ``changes`` (and last ``SESSION_ROUNDS`` rounds)."""
    rules = MnemonicGame().rules.with_overrides({"planner.sessionRounds": SESSION_ROUNDS, **changes}).to_json()
    handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    with handle:
        json.dump(rules, handle)
    return MnemonicGame(players=players, mode=mode, rules=handle.name)


SELFPLAY_LABELS = {
    "planner": "planner at the table (the hint's default horizon: this round, 2 Group Scenes, the estimate beyond); "
               "scenes planned",
    "after-one-round": "always face the Adversary after one round; scenes planned",
    "after-two-rounds": "never before two rounds; scenes planned",
    "plain-after-one-round": "always face the Adversary after one round; plain scenes",
    "plain-after-two-rounds": "never before two rounds; plain scenes",
}


def bench_sessions(quick: bool, changes: dict[str, object], jobs: int) -> tuple[list[list[object]], list[list[object]]]:
    """Every policy on the same deals with the same dice, through ``solver.selfplay`` (``jobs`` processes)."""
    count = 12 if quick else 200
    game = game_with(changes, 3)
    names = tuple(SELFPLAY_LABELS)
    start = time.perf_counter()
    results = list(selfplay(game, names, seed=0, count=count, jobs=jobs))
    seconds = time.perf_counter() - start
    summary = summarize(results)
    rows = []
    for name in names:
        d = summary["labels"][name]
        rounds = sum(r["games"][name]["rounds"] for r in results) / count
        groups = sum(r["games"][name]["groupScenes"] for r in results) / count
        rows.append([SELFPLAY_LABELS[name], count, f"{d['mean']:.3f}", f"[{d['ci'][0]:.3f}, {d['ci'][1]:.3f}]",
                     f"{rounds:.2f}", f"{groups:.2f}"])
    pairs = []
    for pair in summary["paired"]:
        if pair["a"] == "planner":
            pairs.append([f"planner vs {pair['b']}", pair["deals"], pair["onlyA"], pair["onlyB"],
                          f"{pair['difference']:+.3f} [{pair['ci'][0]:+.3f}, {pair['ci'][1]:+.3f}]",
                          f"{pair['mcnemarP']:.2g}"])
    pairs.append(["(time)", f"{seconds:.1f} s for {count} deals x {len(names)} policies on {jobs} process(es)",
                  "", "", "", ""])
    return rows, pairs


def bench_scale(quick: bool) -> list[list[object]]:
    """Throughput of self-play and puzzle generation through the shared entry points, on 1 and 2 processes."""
    rows = []
    game = MnemonicGame(players=2)
    for jobs in (1, 2):
        count = 8 if quick else 40
        start = time.perf_counter()
        list(selfplay(game, ("plain-after-one-round", "plain-after-two-rounds"), seed=1, count=count, jobs=jobs))
        rows.append(["self-play, 2 plain policies, 2 players", jobs, count, f"{count / (time.perf_counter() - start):.2f}"])
    for jobs in (1, 2):
        count = 4 if quick else 20
        start = time.perf_counter()
        list(generate(MnemonicGame(), "best-call", "easy", seed=1, count=count, jobs=jobs))
        rows.append(["best-call puzzles, easy", jobs, count, f"{count / (time.perf_counter() - start):.2f}"])
    return rows


def mcnemar(a: list[int], b: list[int]) -> tuple[int, int, float]:
    """Sessions only ``a`` won, only ``b`` won, and the exact two-sided McNemar p-value (binomial test on the
    discordant sessions)."""
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    m, k = only_a + only_b, min(only_a, only_b)
    p = min(1.0, 2 * sum(math.comb(m, i) for i in range(k + 1)) / 2 ** m) if m else 1.0
    return only_a, only_b, p


def paired_interval(a: list[int], b: list[int]) -> tuple[float, float, float]:
    """Victory-rate difference a - b on the same sessions and its 95% (Wald, matched pairs) interval."""
    n = len(a)
    only_a, only_b, _ = mcnemar(a, b)
    d = (only_a - only_b) / n
    half = 1.96 * math.sqrt(max(0.0, only_a + only_b - (only_a - only_b) ** 2 / n)) / n
    return d, d - half, d + half


#: (label, players, mode, rule changes, starting complications, planned scenes)
def sweep_settings(quick: bool) -> list[tuple[str, int, str, dict[str, object], int, bool]]:
    out = []
    for planned in (False, True):
        for players in ((2, 3) if quick else (1, 2, 3, 4)):
            for weavings in ((1, 3) if quick else (0, 1, 3)):
                for pool in ((0, 3) if not quick or players == 2 else (3,)):
                    label = f"{players}p w{weavings} pool {pool} {'planned' if planned else 'plain'}"
                    out.append((label, players, "deck-burner", {"weaving.perPlayer": weavings}, pool, planned))
    for players in (2, 3):
        for pool in (0, 3):
            out.append((f"{players}p w1 pool {pool} plain, Into the Grey", players, "into-the-grey",
                        {"weaving.perPlayer": 1}, pool, False))
    return out


def contestants(planned: bool) -> dict[str, object]:
    """The planner at the table (the hint's default horizon, 0 rounds and 2 Group Scenes) and the two rules of
    thumb, all with the same scene policy (plain, or the planner at each scene with the (0, 0) horizon)."""
    return {"planner": planner_policy(Horizon(0, 2), scenes=planned, scene_groups=0),
            "after one round": rule_of_thumb(1, planned_scenes=planned, scene_groups=0),
            "never before two rounds": rule_of_thumb(2, planned_scenes=planned, scene_groups=0)}


def bench_sweep(quick: bool) -> tuple[list[list[object]], list[str], list[list[object]]]:
    rows, worse, advice = [], [], []
    settings = sweep_settings(quick)
    plain: dict[tuple[int, str, str, int], dict[str, list[int]]] = {}
    for label, players, mode, changes, pool, planned in settings:
        sessions = 8 if quick else (100 if planned else 200)
        start = time.perf_counter()
        won = paired_wins(game_with(changes, players, mode), contestants(planned), sessions, pool, SESSION_ROUNDS)
        seconds = (time.perf_counter() - start) / sessions
        planner = won["planner"]
        best = max(("after one round", "never before two rounds"), key=lambda name: sum(won[name]))
        d, lo, hi = paired_interval(planner, won[best])
        only_p, only_r, p = mcnemar(planner, won[best])
        if hi < 0:
            worse.append(label)
        rows.append([label, sessions, f"{sum(planner) / sessions:.3f}", f"{sum(won['after one round']) / sessions:.3f}",
                     f"{sum(won['never before two rounds']) / sessions:.3f}", best, only_p, only_r,
                     f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]", f"{p:.2g}", f"{seconds:.2f}"])
        key = (players, mode, json.dumps(changes), pool)
        if not planned:
            plain[key] = won
        elif key in plain:  # the planner's advice at every decision against the rules with plain scenes
            rule = max(("after one round", "never before two rounds"), key=lambda name: sum(plain[key][name]))
            paired = plain[key][rule][:sessions]  # the same seeds as the planner's sessions (the plain run has more)
            d, lo, hi = paired_interval(planner, paired)
            only_p, only_r, p = mcnemar(planner, paired)
            advice.append([label.replace(" planned", ""), sessions, f"{sum(planner) / sessions:.3f}",
                           f"{sum(paired) / sessions:.3f} ({rule})", only_p, only_r,
                           f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]", f"{p:.2g}"])
        print(f"  {label}: done", file=sys.stderr, flush=True)
    return rows, worse, advice


def bench_horizon_objective(quick: bool) -> list[list[object]]:
    """The issue's setting (2 players, weaving.perPlayer = 3, Adversary's pool 3; planned scenes, to the end of the
    round and 1 Group Scene, and plain scenes): the planner with the estimate (the default horizon, and one round
    more), and the plain horizon objective of before, against 'after one round'."""
    rows = []
    names = ("estimate, horizon (0, 2)", "estimate, horizon (1, 2)", "horizon objective (1, 2)")
    for planned in (True, False):
        game = game_with({"weaving.perPlayer": 3}, 2)
        sessions = 8 if quick else 150
        policies = {names[0]: planner_policy(Horizon(0, 2), scenes=planned, scene_groups=1),
                    names[1]: planner_policy(Horizon(1, 2), scenes=planned, scene_groups=1),
                    names[2]: planner_policy(Horizon(1, 2), scenes=planned, scene_groups=1, continuation=False),
                    "after one round": rule_of_thumb(1, planned_scenes=planned, scene_groups=1)}
        won = paired_wins(game, policies, sessions, 3, SESSION_ROUNDS)
        for name in names:
            d, lo, hi = paired_interval(won[name], won["after one round"])
            only_p, only_r, p = mcnemar(won[name], won["after one round"])
            lo_w, hi_w = wilson(sum(won[name]), sessions)
            rows.append([f"{'planned' if planned else 'plain'} scenes", name, sessions,
                         f"{sum(won[name]) / sessions:.3f} [{lo_w:.3f}, {hi_w:.3f}]",
                         f"{sum(won['after one round']) / sessions:.3f}", only_p, only_r,
                         f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]", f"{p:.2g}"])
    return rows


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    sweep_only, limits_only = "--sweep-only" in argv, "--limits-only" in argv
    if not sweep_only:
        print("### Kernels against their twins\n")
        print(table(["kernel", "kernel µs / call", "twin µs / call", "ratio"],
                    bench_odds(quick) + bench_planner_kernel(quick)))
        print("\n### Planner size: one evaluation at the first table decision (Deck Burner, seed 1, the estimate on, "
              f"sessions of {SESSION_ROUNDS} rounds)\n")
        print(table(["players", "rounds", "Group Scenes", "memoised states", "estimates", "seconds"],
                    bench_scaling(quick)))
        print("\n### Time limits (MN-46): hints on decisions of 3- and 4-player sessions, both modes\n")
        print(table(["limits.time_ms", "hints", "median s", "worst s", "worst over the limit",
                     "within 10% or 100 ms", "stopped by the limit"], bench_time_limits(quick)))
        print("\n### Cancellation and the only legal move (MN-46)\n")
        print(table(["case", "hints", "median ms", "worst ms", "within 200 ms"], bench_cancel(quick)), flush=True)
        print("\n### Stability: the best value from one horizon of the deepening to the next (2 players, "
              "node budget 400,000)\n")
        print(table(["planner.continuation", "decisions", "median largest step", "largest step",
                     "largest spread", "decisions whose value fell"], bench_stability(quick)), flush=True)
    if limits_only:
        return 0
    print(f"\n### The planner against the rules of thumb: paired sweep (sessions of at most {SESSION_ROUNDS} rounds, "
          "until the first Victory; the same seeds and scene policy for every contestant)\n")
    rows, worse, advice = bench_sweep(quick)
    print(table(["setting", "sessions", "planner", "after one round", "never before two rounds", "best rule",
                 "won only by the planner", "won only by the best rule", "difference [95% CI, paired]",
                 "McNemar p", "s / session"], rows))
    print(f"\nSettings where the planner is significantly worse than the best rule of thumb (the paired 95% "
          f"interval below 0): {len(worse)} of {len(rows)}{': ' + ', '.join(worse) if worse else ''}.", flush=True)
    print("\n### The planner's advice at every decision against the best rule of thumb with plain scenes "
          "(the same seeds)\n")
    print(table(["setting", "sessions", "planner, every decision", "best rule, plain scenes", "won only by the planner",
                 "won only by the rule", "difference [95% CI, paired]", "McNemar p"], advice), flush=True)
    print("\n### The estimate against the plain horizon objective, and one round more (2 players, "
          "weaving.perPlayer = 3, Adversary's pool starts at 3)\n")
    print(table(["scenes", "planner objective", "sessions", "Victory rate [95% Wilson]", "after one round",
                 "won only by the planner", "won only by the rule", "difference [95% CI, paired]", "McNemar p"],
                bench_horizon_objective(quick)))
    jobs = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--jobs=")), 1)
    for title, changes in (("default rules", {}), ("no weavings (weaving.perPlayer = 0)", {"weaving.perPlayer": 0})):
        print(f"\n### Self-play: the policies of `memory-solver mnemonic selfplay` (Deck Burner, 3 players, {title})\n")
        print("`solver.selfplay`: every policy plays the same deals with the same dice; a session is at most "
              f"{SESSION_ROUNDS} rounds of Individual Scenes (one evening) and stops at its first Victory.\n")
        rows, pairs = bench_sessions(quick, changes, jobs)
        print(table(["policy", "sessions", "Victory rate", "95% CI (Wilson)", "rounds / session",
                     "Group Scenes / session"], rows))
        print()
        print(table(["paired comparison (same deals, same dice)", "deals", "won only by the planner",
                     "won only by the other", "difference [95% CI]", "McNemar p (exact)"], pairs), flush=True)
    print("\n### Throughput of the shared entry points (solver.selfplay, solver.generate)\n")
    print(table(["run", "processes", "items", "items / s"], bench_scale(quick)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
