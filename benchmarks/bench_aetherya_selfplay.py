"""Aetherya self-play: the hint policy against greedy and random play, and the cost of hidden information.

``python benchmarks/run.py aetherya_selfplay [--quick] [--solo-only] [--jobs=N]`` prints (``--solo-only``: section 2
only; ``--jobs=N``: the self-play deals spread over N processes through ``solver.selfplay``, same figures):

1. 2-player games (seeded deals, every deal played twice with the seats
   swapped): the hint policy (``solver.aetherya.hints``, fixed evaluation
   budget per decision) against the greedy policy and against the random legal
   policy, and greedy against random: mean final score with a 95% interval, win
   rate (ties by the tie-break, a full tie counts half) with its Wilson
   interval, games per second.
2. Solo campaigns (3 Ages): mean campaign score, success rate, Legends written, per policy on the same deals
   (the compiled solo policy too), and the hint against greedy paired by deal.
3. The gap to full-information analysis: the hint policy fed the true hidden
   cards, on the same deals and seeds, against the same opponent.
4. Throughput: random and greedy games per second through the rules engine,
   greedy playouts per second in the compiled kernel against its twin.
5. The no-card-lost invariant over thousands of random games in every mode.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import mean_ci, table, wilson  # noqa: E402

from solver.aetherya.game import AetheryaGame  # noqa: E402
from solver.aetherya.hints import hint, solo_progress  # noqa: E402
from solver.aetherya.playout import (advance_to_turn_start, greedy_action, pack, random_action,  # noqa: E402
                                     sample_chance)
from solver.aetherya.state import AetheryaState  # noqa: E402
from solver.kernels import aetherya as kernel  # noqa: E402
from solver.search import Limits, SearchContext  # noqa: E402
from solver.selfplay import selfplay  # noqa: E402
from solver.twins import aetherya_play as twin  # noqa: E402

Policy = Callable[[AetheryaState, np.random.Generator], int]


def hint_policy(nodes: int, full_information: bool = False) -> Policy:
    """The hint engine's best move, with ``nodes`` evaluations per decision (``solver.aetherya.selfplay``)."""
    from solver.aetherya.selfplay import make_policy
    return make_policy("hint-full-info" if full_information else "hint", nodes)


POLICIES: dict[str, Callable[[int], Policy]] = {
    "hint": lambda nodes: hint_policy(nodes),
    "hint-full-info": lambda nodes: hint_policy(nodes, full_information=True),
    "greedy": lambda nodes: greedy_action,
    "random": lambda nodes: random_action,
}


def play(game: AetheryaGame, deal_seed: int, seats: list[Policy], play_seed: int) -> AetheryaState:
    """One game: the deal (setup chance) from ``deal_seed``, the rest from ``play_seed``."""
    from solver.aetherya.selfplay import play_deal
    return play_deal(game, deal_seed, seats, play_seed)[0]


def match(a: str, b: str, deals: int, nodes: int, seed: int, jobs: int = 1) -> dict:
    """``a`` against ``b`` at 2 players, each deal twice with the seats swapped, through ``solver.selfplay`` (deal
    ``i`` from its own stream, so ``--jobs`` spreads the deals over processes with the same results)."""
    game = AetheryaGame(players=2)
    scores = {a: [], b: []}
    wins = 0.0
    games = 0
    start = time.perf_counter()
    for item in selfplay(game, (a, b), seed=seed, count=deals, options={"hintNodes": nodes}, jobs=jobs):
        for played in item["games"]:
            seat_a = played["seats"].index(a)
            scores[a].append(played["returns"][seat_a])
            scores[b].append(played["returns"][1 - seat_a])
            wins += (1.0 / len(played["winners"])) if seat_a in played["winners"] else 0.0
            games += 1
    seconds = time.perf_counter() - start
    return {"a": a, "b": b, "games": games, "scores": scores, "wins": wins, "seconds": seconds}


def solo(policy: str, campaigns: int, nodes: int, seed: int, jobs: int = 1) -> dict:
    """``campaigns`` solo campaigns played by ``policy`` through ``solver.selfplay`` (campaign ``c`` from its own
    stream: the same deals for every policy)."""
    game = AetheryaGame(mode="solo")
    values, successes, ages, written = [], 0, [], []
    start = time.perf_counter()
    for item in selfplay(game, (policy,), seed=seed, count=campaigns, options={"hintNodes": nodes}, jobs=jobs):
        played = item["games"][0]
        values.append(played["returns"][0])
        successes += int(item["outcomes"][f"{policy} completed"])
        ages.append(len(played["ageScores"]))  # Ages passed
        written.append(played["legendsWritten"])
    return {"policy": policy, "values": values, "successes": successes, "ages": ages, "written": written,
            "seconds": time.perf_counter() - start}


def solo_kernel(campaigns: int, seed: int) -> dict:
    """The compiled solo policy from ``campaigns`` dealt campaigns (setup by the greedy player, no swap)."""
    game = AetheryaGame(mode="solo")
    states = np.stack([pack(advance_to_turn_start(game.new_initial_state(seed + c), np.random.default_rng(c)))
                       for c in range(campaigns)])
    out = np.zeros((campaigns, 4), np.int32)
    start = time.perf_counter()
    kernel.playout_batch(states, np.arange(campaigns, dtype=np.uint64) + seed, out)
    seconds = time.perf_counter() - start
    written = out[:, 1].tolist()
    ages = [sum(1 for need in (4, 9, 15) if w >= need) for w in written]
    return {"policy": "compiled solo policy (playouts)", "values": [float(v) for v in out[:, 0]],
            "successes": sum(1 for w in written if w == 15), "ages": ages, "written": written, "seconds": seconds}


def solo_row(r: dict, n: int) -> list:
    passed = [sum(1 for a in r["ages"] if a >= k) for k in (1, 2, 3)]
    done = [v for v, a in zip(r["values"], r["ages"]) if a == 3]
    return [r["policy"], n, _fmt_ci(r["values"]), _fmt_rate(r["successes"], n),
            " / ".join(f"{k / n:.2f}" for k in passed), f"{np.mean(r['written']):.2f}",
            _fmt_ci(done) if len(done) > 1 else (f"{done[0]:.2f}" if done else "-"), round(n / r["seconds"], 2)]


def _fmt_ci(values: list[float]) -> str:
    mean, lo, hi = mean_ci(values)
    return f"{mean:.2f} [{lo:.2f}, {hi:.2f}]"


def _fmt_rate(k: float, n: int) -> str:
    lo, hi = wilson(int(round(k)), n)
    return f"{k / n:.3f} [{lo:.3f}, {hi:.3f}]"


def throughput(games: int) -> list[list]:
    rows = []
    for name, pol in (("random", random_action), ("greedy", greedy_action)):
        for mode, players in (("base", 2), ("coop", 2), ("solo", 1), ("objects", 2)):
            game = AetheryaGame(mode=mode, players=players)
            start = time.perf_counter()
            for g in range(games):
                play(game, g, [pol] * players, g)
            rows.append([f"{name} policy, {mode}", games, round(games / (time.perf_counter() - start), 1)])
    return rows


def kernel_speed(n: int) -> list[list]:
    game = AetheryaGame()
    rng = np.random.default_rng(0)
    states = np.stack([pack(advance_to_turn_start(game.new_initial_state(s), rng)) for s in range(n)])
    seeds = np.arange(n, dtype=np.uint64) + 1
    out = np.zeros((n, 4), np.int32)
    start = time.perf_counter()
    kernel.playout_batch(states, seeds, out)
    k = time.perf_counter() - start
    m = max(2, n // 50)
    start = time.perf_counter()
    twin.playout_batch(states[:m], seeds[:m], np.zeros((m, 4), np.int32))
    t = (time.perf_counter() - start) / m * n
    return [["greedy playouts from the first turn, 2 players", n, round(n / k), round(n / t, 1), round(t / k)]]


def anytime(positions: int, budgets: list[int], reference: int) -> list[list]:
    """How the hint improves with its budget: agreement with, and regret against, a long reference search."""
    game = AetheryaGame()
    rng = np.random.default_rng(7)
    states = []
    for p in range(positions):
        state = game.new_initial_state(100 + p)
        for _ in range(int(rng.integers(0, 8))):
            state = advance_to_turn_start(state, rng)
            if state.is_terminal():
                break
            state.apply_action(greedy_action(state, rng))
        state = advance_to_turn_start(state, rng)
        if not state.is_terminal():
            states.append(state)
    refs = []
    for i, state in enumerate(states):
        result = hint(state, SearchContext(limits=Limits(nodes=reference), seed=999 + i), top=100)
        refs.append({m.move: m.value for m in result.move_infos})
    rows = []
    for budget in budgets:
        agree, regret, seconds = 0, [], 0.0
        for i, state in enumerate(states):
            start = time.perf_counter()
            result = hint(state, SearchContext(limits=Limits(nodes=budget), seed=i), top=1)
            seconds += time.perf_counter() - start
            move = result.move_infos[0].move
            best = max(refs[i], key=refs[i].get)
            agree += move == best
            regret.append(refs[i][best] - refs[i].get(move, min(refs[i].values())))
        rows.append([budget, len(states), f"{agree / len(states):.2f}", f"{np.mean(regret):.2f}",
                     f"{seconds / len(states):.2f}"])
    return rows


def invariant_run(games: int) -> list[list]:
    rows = []
    for mode, players in (("base", 2), ("base", 3), ("base", 4), ("objects", 2), ("objects", 4), ("coop", 2),
                          ("coop", 3), ("coop", 4), ("solo", 1)):
        game = AetheryaGame(mode=mode, players=players)
        rng = np.random.default_rng(players * 31 + len(mode))
        steps = 0
        start = time.perf_counter()
        for _ in range(games):
            state = game.new_root_state()
            while not state.is_terminal():
                state.check_invariants()
                state.apply_action(sample_chance(state, rng) if state.is_chance_node() else random_action(state, rng))
                steps += 1
            state.check_invariants()
        rows.append([f"{mode}, {players} player(s)", games, steps, "none", round(time.perf_counter() - start, 1)])
    return rows


def solo_section(quick: bool, campaigns: dict, solo_nodes: int, seed: int, jobs: int = 1) -> None:
    """Solo campaigns of every policy on the same deals, and the hint against greedy, paired by deal."""
    print(f"\n### Solo campaigns (3 Ages; deals {seed} onward; hint budget {solo_nodes} evaluations per "
          "decision)\n")
    solo_rows, by_policy = [], {}
    for policy in ("hint", "hint-full-info", "greedy", "random"):
        n = campaigns[policy]
        by_policy[policy] = r = solo(policy, n, solo_nodes, seed, jobs)
        solo_rows.append(solo_row(r, n))
    n = campaigns["kernel"]
    solo_rows.append(solo_row(solo_kernel(n, seed), n))
    print(table(["policy", "campaigns", "mean campaign score [95% CI]", "campaigns completed [95% Wilson]",
                 "share passing Age 1 / 2 / 3", "Legends written (of 15)", "score of completed campaigns",
                 "campaigns/s"], solo_rows))
    n = campaigns["hint"]
    greedy_scores = by_policy["greedy"]["values"][:n]
    score_diffs = [h - g for h, g in zip(by_policy["hint"]["values"], greedy_scores)]
    greedy_same = [v for v in by_policy["greedy"]["written"][:n]]
    diffs = [h - g for h, g in zip(by_policy["hint"]["written"], greedy_same)]
    done_h = by_policy["hint"]["successes"]
    done_g = sum(1 for w in greedy_same if w == 15)
    print(f"\nPaired on the first {n} deals (same deals; the play's random numbers differ): hint completed "
          f"{done_h}, greedy {done_g}; Legends written, hint - greedy: {_fmt_ci(diffs)}; campaign score, hint - "
          f"greedy: {_fmt_ci(score_diffs)}.")


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    jobs = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--jobs=")), 1)
    deals = 2 if quick else 20
    campaigns = {"hint": 2, "hint-full-info": 2, "greedy": 10, "random": 10, "kernel": 200} if quick else \
        {"hint": 40, "hint-full-info": 20, "greedy": 400, "random": 200, "kernel": 4000}
    nodes = 120 if quick else 300
    solo_nodes = 40 if quick else 120
    seed = 2026
    print(f"Self-play ({'quick' if quick else 'full'} run): {deals} deals per pairing, each played twice with the "
          f"seats swapped; hint policy budget {nodes} evaluations (sampled world x plan) per decision, instead of "
          f"a time limit, so that the figures do not depend on the machine's load; seed {seed}.\n")
    flags = (" --quick" if quick else "") + (" --solo-only" if "--solo-only" in argv else "") + \
        (f" --jobs={jobs}" if jobs > 1 else "")
    print(f"Command: `python benchmarks/run.py aetherya_selfplay{flags}`\n")
    if "--solo-only" in argv:
        solo_section(quick, campaigns, solo_nodes, seed, jobs)
        return 0

    rows = []
    results = {}
    for a, b in (("hint", "greedy"), ("hint", "random"), ("greedy", "random"), ("hint-full-info", "greedy")):
        r = match(a, b, deals, nodes, seed, jobs)
        results[(a, b)] = r
        rows.append([f"{a} vs {b}", r["games"], _fmt_ci(r["scores"][a]), _fmt_ci(r["scores"][b]),
                     _fmt_rate(r["wins"], r["games"]), round(r["games"] / r["seconds"], 2)])
    print("### 2 players\n")
    print(table(["pairing (A vs B)", "games", "A mean score [95% CI]", "B mean score [95% CI]",
                 "A win rate [95% Wilson]", "games/s"], rows))

    full, part = results[("hint-full-info", "greedy")], results[("hint", "greedy")]
    diffs = [f - p for f, p in zip(full["scores"]["hint-full-info"], part["scores"]["hint"])]
    print("\n### Cost of hidden information (same deals, same seeds, against greedy)\n")
    print(table(["policy", "mean score [95% CI]", "win rate vs greedy"],
                [["hint (player's information)", _fmt_ci(part["scores"]["hint"]), _fmt_rate(part["wins"], part["games"])],
                 ["full-information analysis", _fmt_ci(full["scores"]["hint-full-info"]),
                  _fmt_rate(full["wins"], full["games"])],
                 ["gap (full - hint), paired", _fmt_ci(diffs), ""]]))

    solo_section(quick, campaigns, solo_nodes, seed, jobs)

    reference = 1600 if quick else 6400
    print(f"\n### Hints improve with their budget (2 players; reference: {reference} evaluations, "
          "regret measured with the reference's values)\n")
    print(table(["evaluations per hint", "positions", "same move as the reference", "mean regret (points)",
                 "seconds per hint"],
                anytime(4 if quick else 16, [50, 200, 800] if quick else [50, 200, 800, 3200], reference)))

    print("\n### Throughput\n")
    print(table(["games simulated", "games", "games/s"], throughput(5 if quick else 40)))
    print()
    print(table(["compiled playout kernel vs twin", "playouts", "kernel playouts/s", "twin playouts/s",
                 "ratio"], kernel_speed(200 if quick else 2000)))

    print("\n### Invariant: no card, Legend or tile lost or duplicated (random legal play)\n")
    print(table(["mode", "games", "steps checked", "violations", "seconds"], invariant_run(50 if quick else 600)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
