"""Mnemonic: compiled kernels against their twins, and the exact planner against two rules of thumb.

``python benchmarks/run.py mnemonic [--quick] [--jobs=N]``

1. Odds kernel (128-bit counts) vs its twin on a batch of Group Scenes.
2. Planner kernel (doubles) vs its exact-fraction twin on small positions (values checked equal to 1e-12).
3. Seeded Deck Burner sessions through ``solver.selfplay`` (3 players, default rules, at most 3 rounds, until
   the first Victory; ``--jobs=N`` spreads the deals over processes): Victory rate with 95% Wilson intervals for
   the exact planner at the table's choices against "always face the Adversary after one round" and "never
   before two rounds", all three with the same planned scene choices (so only the table's decisions differ);
   the two rules of thumb with plain scene choices; every policy on the same deals and dice, compared paired.
   Then the throughput of ``solver.selfplay`` and ``solver.generate`` on 1 and 2 processes.
4. Where the planner's table choice differs: a few settings (found by a sweep over players, mode, rule
   settings, starting complications and session length) where the planner, at the table, often chooses unlike
   "after one round"; Victory rates on the same seeds, the differing table choices, and a paired comparison
   with the exact McNemar test.
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import best_time, table, wilson  # noqa: E402

from solver.kernels import mnemonic_odds as odds_kernel  # noqa: E402
from solver.kernels import mnemonic_plan as plan_kernel  # noqa: E402
from solver.mnemonic.game import MnemonicGame  # noqa: E402
from solver.mnemonic.model import layout_of, position_of  # noqa: E402
from solver.mnemonic.planner import Horizon, evaluate  # noqa: E402
from solver.mnemonic.policies import (TABLE_PHASES, plain_scene_move, planned_scene_move, planner_policy,  # noqa: E402
                                      play_session, rule_of_thumb)
from solver.puzzles import generate  # noqa: E402
from solver.selfplay import selfplay, summarize  # noqa: E402
from solver.twins import mnemonic_odds as odds_twin  # noqa: E402
from solver.twins import mnemonic_plan as plan_twin  # noqa: E402


def bench_odds(quick: bool) -> list[list[object]]:
    rng = np.random.default_rng(0)
    cases = [(np.asarray(rng.integers(0, 5, size=int(rng.integers(1, 6))), dtype=np.int64), int(rng.integers(0, 15)))
             for _ in range(200)]
    lists = [(list(map(int, p)), m) for p, m in cases]
    assert all(odds_kernel.group_counts(p, m, 2) == odds_twin.group_counts(q, m, 2)
               for (p, m), (q, _) in zip(cases, lists))
    k = best_time(lambda: [odds_kernel.group_counts(p, m, 2) for p, m in cases], repeat=3 if quick else 5)
    t = best_time(lambda: [odds_twin.group_counts(p, m, 2) for p, m in lists], repeat=3 if quick else 5)
    return [["group_counts (200 scenes)", f"{k * 1e6 / 200:.2f}", f"{t * 1e6 / 200:.2f}", f"{t / k:.1f}x"]]


def planner_positions(count: int) -> list[tuple[object, np.ndarray, np.ndarray, np.ndarray]]:
    """Small late-game Deck Burner positions the fraction twin solves in well under a second."""
    game = MnemonicGame(players=2)
    out = []
    seed = 0
    while len(out) < count:
        state = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        seed += 1
        while not state.is_terminal() and (len(state.deck) > 8 or state.phase != "scene-card"):  # late game
            legal = state.legal_actions()
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
            else:
                keep = [a for a in legal if state.action_to_string(a) not in ("end", "retreat")] or legal
                state.apply_action(int(keep[rng.integers(len(keep))]))
        if state.is_terminal() or state.phase != "scene-card":
            continue
        layout = layout_of(state, 0, None)
        pos = position_of(state, layout, 0, 2).reshape(1, -1)
        _, states, ok = plan_kernel.plan_values(layout.config, layout.skills, pos, 3000, 0.0)
        if ok and 50 <= states <= 3000:
            out.append((state, layout.config, layout.skills, pos))
    return out


def bench_planner_kernel(quick: bool) -> list[list[object]]:
    cases = planner_positions(3 if quick else 8)
    for _, config, skills, pos in cases:
        kv, kn, _ = plan_kernel.plan_values(config, skills, pos, 10**6, 0.0)
        tv, tn, _ = plan_twin.plan_values(config, skills, [pos[0]], 10**6, 0)
        assert kn == tn and abs(kv[0] - float(tv[0])) < 1e-12
    k = best_time(lambda: [plan_kernel.plan_values(c, s, p, 10**6, 0.0) for _, c, s, p in cases], repeat=3)
    t = best_time(lambda: [plan_twin.plan_values(c, s, [p[0]], 10**6, 0) for _, c, s, p in cases], repeat=1,
                  min_seconds=0.0)
    states = sum(plan_kernel.plan_values(c, s, p, 10**6, 0.0)[1] for _, c, s, p in cases)
    return [[f"plan_values ({len(cases)} positions, {states:,} states, horizon 0 rounds / 2 Group Scenes)",
             f"{k * 1e6 / len(cases):.0f}", f"{t * 1e6 / len(cases):.0f}", f"{t / k:.0f}x"]]


def first_table(players: int, seed: int = 1):
    """The first table decision of a seeded Deck Burner session played with the plain scene choices."""
    from solver.mnemonic.policies import plain_scene_move
    state = MnemonicGame(players=players).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    while state.phase != "table":
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
        else:
            state.apply_action(plain_scene_move(state))
    return state


def bench_scaling(quick: bool) -> list[list[object]]:
    """Memoised states and time of one exact evaluation, by table size and horizon (30 s cap)."""
    rows = []
    cases = [(2, 0, 2), (2, 1, 1), (2, 1, 2), (3, 0, 2), (3, 1, 1), (3, 1, 2), (4, 0, 2), (4, 1, 1)]
    if quick:
        cases = [(2, 0, 2), (2, 1, 1), (3, 0, 2), (3, 1, 1)]
    for players, rounds, groups in cases:
        state = first_table(players)
        layout = layout_of(state, rounds, 0)
        pos = position_of(state, layout, rounds, groups).reshape(1, -1)
        start = time.perf_counter()
        _, states, complete = plan_kernel.plan_values(layout.config, layout.skills, pos, 20_000_000, 30.0)
        seconds = time.perf_counter() - start
        rows.append([players, rounds, groups, f"{states:,}", f"{seconds:.2f}" if complete else "> 30 (stopped)"])
    return rows


def game_with(changes: dict[str, object], players: int = 3, mode: str = "deck-burner") -> MnemonicGame:
    """A game (3-player Deck Burner by default) whose rules differ from the defaults by ``changes``."""
    if not changes:
        return MnemonicGame(players=players, mode=mode)
    rules = MnemonicGame().rules.with_overrides(changes).to_json()
    handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    with handle:
        json.dump(rules, handle)
    return MnemonicGame(players=players, mode=mode, rules=handle.name)


SELFPLAY_LABELS = {
    "planner": "exact planner at the table (1 round, 1 Group Scene); scenes planned",
    "after-one-round": "always face the Adversary after one round; scenes planned",
    "after-two-rounds": "never before two rounds; scenes planned",
    "plain-after-one-round": "always face the Adversary after one round; plain scenes",
    "plain-after-two-rounds": "never before two rounds; plain scenes",
}


def bench_sessions(quick: bool, changes: dict[str, object], jobs: int) -> tuple[list[list[object]], list[list[object]]]:
    """Every policy on the same deals with the same dice, through ``solver.selfplay`` (``jobs`` processes)."""
    count = 12 if quick else 200
    game = game_with(changes)
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
    """Paired comparison on the same seeds: sessions only ``a`` won, sessions only ``b`` won, and the exact
    two-sided McNemar p-value (a binomial test on the discordant sessions), as in bench_embers.py."""
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    m, k = only_a + only_b, min(only_a, only_b)
    p = min(1.0, 2 * sum(math.comb(m, i) for i in range(k + 1)) / 2 ** m) if m else 1.0
    return only_a, only_b, p


def table_planner(horizon: Horizon, planned: bool = True):
    """The exact planner at the table's choices only (horizon capped at the rounds the session has left); every
    other decision as the rules of thumb make it (scenes planned to the end of the round and 1 Group Scene, or
    plain), so that only the table's decisions differ from theirs."""
    def policy(state, rounds_left: int, rounds_since: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.phase in TABLE_PHASES:
            evaluation = evaluate(state, state.current_player(), Horizon(min(horizon.rounds, rounds_left),
                                                                         horizon.groups),
                                  max_states=600_000, seconds=30.0, exact=False)
            if evaluation.values:
                return max(evaluation.values, key=lambda a: (evaluation.values[a], -legal.index(a)))
        return planned_scene_move(state) if planned else plain_scene_move(state)
    return policy


def start_with_complications(game: MnemonicGame, seed: int, complications: int):
    """A new session whose Adversary's pool starts at ``complications`` dice: that many skills, drawn at random
    (seeded) among all the characters' skills, start complicated (as if carried over from an earlier evening)."""
    state = game.new_initial_state(seed)
    if complications:
        rng = np.random.default_rng(50_000 + seed)
        skills = [skill for player in state.players for skill in player.skills]
        for i in rng.choice(len(skills), size=complications, replace=False):
            skills[int(i)].complicated = True
    return state


#: (label, players, rule changes, starting complications, planner horizons, planned scenes, sessions full/quick)
DIFFERING = [
    ("A: 2 players, weaving.perPlayer = 3, group.maxAttempts = 1", 2,
     {"weaving.perPlayer": 3, "group.maxAttempts": 1}, 0, [Horizon(1, 1), Horizon(1, 2)], True, (300, 12)),
    ("B: 2 players, weaving.perPlayer = 3", 2, {"weaving.perPlayer": 3}, 0, [Horizon(1, 2)], True, (250, 12)),
    ("C: 2 players, weaving.perPlayer = 3, Adversary's pool starts at 3", 2, {"weaving.perPlayer": 3}, 3,
     [Horizon(1, 2)], True, (250, 12)),
    ("D: 3 players, weaving.perPlayer = 3, group.maxAttempts = 1", 3,
     {"weaving.perPlayer": 3, "group.maxAttempts": 1}, 0, [Horizon(1, 1)], True, (40, 3)),
    ("E: 2 players, default rules, plain scenes for every policy", 2, {}, 0, [Horizon(1, 2)], False, (200, 12)),
]


def bench_differing(quick: bool) -> tuple[list[list[object]], list[list[object]]]:
    rows, pairs = [], []
    for label, players, changes, complications, horizons, planned, (full, small) in DIFFERING:
        game = game_with(changes, players)
        count = small if quick else full
        reference = rule_of_thumb(1, planned_scenes=planned)
        scenes = "planned" if planned else "plain"
        contestants = [(f"exact planner at the table ({h.rounds} round, {h.groups} Group Scene{'s' * (h.groups > 1)})",
                        table_planner(h, planned), True) for h in horizons]
        contestants += [("always face the Adversary after one round", reference, False),
                        ("never before two rounds", rule_of_thumb(2, planned_scenes=planned), False)]
        won: dict[str, list[int]] = {}
        for name, policy, compare in contestants:
            wins, rounds, groups, choices, differ = [], 0, 0, 0, 0
            start = time.perf_counter()
            for seed in range(count):
                result = play_session(start_with_complications(game, seed, complications), policy,
                                      np.random.default_rng(10_000 + seed), compare=reference if compare else None)
                wins.append(result["victory"])
                rounds += result["rounds"]
                groups += result["groups"]
                choices += result["tableChoices"]
                differ += result["disagreements"]
            won[name] = wins
            lo, hi = wilson(sum(wins), count)
            rows.append([label.split(":")[0], f"{name}; {scenes} scenes", count, f"{sum(wins) / count:.3f}",
                         f"[{lo:.3f}, {hi:.3f}]", f"{rounds / count:.2f}", f"{groups / count:.2f}",
                         f"{differ} of {choices}" if compare else "", f"{(time.perf_counter() - start) / count:.2f}"])
        for name, _, compare in contestants:
            if compare:
                only_planner, only_rule, p = mcnemar(won[name], won["always face the Adversary after one round"])
                pairs.append([label.split(":")[0], f"{name} vs after one round", count, only_planner, only_rule,
                              f"{(sum(won[name]) - sum(won['always face the Adversary after one round'])) / count:+.1%}",
                              f"{p:.2g}"])
    return rows, pairs


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    print("### Kernels against their twins\n")
    print(table(["kernel", "kernel µs / call", "twin µs / call", "ratio"],
                bench_odds(quick) + bench_planner_kernel(quick)))
    print("\n### Planner size: one exact evaluation at the first table decision (Deck Burner, seed 1)\n")
    print(table(["players", "rounds", "Group Scenes", "memoised states", "seconds"], bench_scaling(quick)))
    jobs = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--jobs=")), 1)
    for title, changes in (("default rules", {}), ("no weavings (weaving.perPlayer = 0)", {"weaving.perPlayer": 0})):
        print(f"\n### Exact planner against rules of thumb (Deck Burner, 3 players, {title})\n")
        print("`solver.selfplay` (`memory-solver mnemonic selfplay`): every policy plays the same deals with the "
              "same dice; a session is at most 3 rounds of Individual Scenes (one evening) and stops at its first "
              "Victory.\n")
        rows, pairs = bench_sessions(quick, changes, jobs)
        print(table(["policy", "sessions", "Victory rate", "95% CI (Wilson)", "rounds / session",
                     "Group Scenes / session"], rows))
        print()
        print(table(["paired comparison (same deals, same dice)", "deals", "won only by the planner",
                     "won only by the other", "difference [95% CI]", "McNemar p (exact)"], pairs), flush=True)
    print("\n### Throughput of the shared entry points (solver.selfplay, solver.generate)\n")
    print(table(["run", "processes", "items", "items / s"], bench_scale(quick)), flush=True)
    print("\n### Where the planner's table choice differs from 'after one round' (Deck Burner)\n")
    print("Settings found by a sweep (see docs/benchmarks.md); a session is at most 3 rounds and stops at its first "
          "Victory; the same seeds for every policy, and every policy makes the same scene choices (planned to "
          "the end of the round and 1 Group Scene, or plain in E), so only the table's decisions differ. "
          "\"Adversary's pool starts at 3\": 3 skills, drawn at random, start complicated.\n")
    for label, *_ in DIFFERING:
        print(f"* {label}")
    rows, pairs = bench_differing(quick)
    print()
    print(table(["setting", "policy", "sessions", "Victory rate", "95% CI (Wilson)", "rounds / session",
                 "Group Scenes / session", "table choices unlike 'after one round'", "s / session"], rows))
    print()
    print(table(["setting", "comparison (same seeds)", "sessions", "won only by the planner",
                 "won only by 'after one round'", "Victory-rate difference", "McNemar p (exact, two-sided)"], pairs),
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
