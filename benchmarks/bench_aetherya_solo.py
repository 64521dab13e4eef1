"""Aetherya solo (and co-op): the hint against greedy and full information, paired on the same deals (issue 15).

``python benchmarks/run.py aetherya_solo [--mode=solo|coop] [--campaigns=N] [--hint-campaigns=M] [--nodes=K]
[--seed=S] [--jobs=J] [--out=FILE] [--quick]``

Deal ``i`` of seed ``S`` is the same for every policy (``solver.selfplay``: the setup from the deal's stream, the
draws from one chance stream shared by the policies, each policy's choices from its own). ``greedy`` plays deals
``0 .. N-1``; ``hint`` (the player's view) and ``hint-full-info`` (every card known, only the future draws random)
play deals ``0 .. M-1`` with ``K`` evaluations (sampled world x plan) per decision, a budget in evaluations so that
the figures do not depend on the machine's load. Each deal's outcomes are written to ``FILE`` as one JSON line as
it finishes (a cut run keeps what it measured).

Solo: campaigns completed (all 15 Legends written) with 95% Wilson intervals; hint against greedy and full
information against hint paired by deal (deals only one completed, the exact two-sided McNemar p), the share of
the greedy-to-full-information gap the hint closes, and the mean campaign score. Co-op (2 players): the team
score, paired differences with 95% intervals.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import mean_ci, table, wilson  # noqa: E402

from solver.aetherya.game import AetheryaGame  # noqa: E402
from solver.selfplay import selfplay  # noqa: E402
from solver.stats import mcnemar  # noqa: E402

HINTS = ("hint", "hint-full-info")


def _flag(argv: list[str], name: str, default: str) -> str:
    return next((a.split("=", 1)[1] for a in argv if a.startswith(f"--{name}=")), default)


def run(game: AetheryaGame, policies: tuple[str, ...], seed: int, start: int, count: int, nodes: int, jobs: int,
        out: Path | None) -> list[dict]:
    """Deals ``start .. start+count-1`` played by ``policies``; each item's outcomes (and its line in ``out``)."""
    items = []
    if count <= 0:
        return items
    for item in selfplay(game, policies, seed=seed, start=start, count=count, options={"hintNodes": nodes},
                         jobs=jobs):
        row = {"index": item["index"], "deal": item["deal"], "outcomes": item["outcomes"]}
        if game.mode == "solo":
            row["written"] = {g["seats"][0]: g["legendsWritten"] for g in item["games"]}
        items.append(row)
        if out is not None:
            with out.open("a") as fh:
                fh.write(json.dumps({"policies": list(policies), "nodes": nodes, **row}) + "\n")
    return items


def _rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:.3f} [{lo:.3f}, {hi:.3f}]" if n else "-"


def _ci(values: list[float]) -> str:
    mean, lo, hi = mean_ci(values)
    return f"{mean:.2f} [{lo:.2f}, {hi:.2f}]"


def outcomes(items: list[dict], label: str) -> list[float]:
    return [float(it["outcomes"][label]) for it in items]


def solo_tables(by_policy: dict[str, list[dict]], nodes: int) -> None:
    rows = []
    for policy, items in by_policy.items():
        done = outcomes(items, f"{policy} completed")
        written = [it["written"][policy] for it in items]
        rows.append([policy, len(items), _rate(int(sum(done)), len(items)), _ci(outcomes(items, policy)),
                     f"{sum(written) / len(written):.2f}" if written else "-"])
    print(table(["policy", "campaigns", "completed [95% Wilson]", "mean campaign score [95% CI]",
                 "Legends written (of 15)"], rows))
    hinted = by_policy.get("hint", [])
    n = len(hinted)
    if not n:
        return
    paired = {p: outcomes(items[:n], f"{p} completed") for p, items in by_policy.items()}
    print(f"\nPaired on deals 0..{n - 1} ({nodes} evaluations per hint decision):\n")
    rows = []
    for a, b in (("hint", "greedy"), ("hint-full-info", "greedy"), ("hint-full-info", "hint")):
        if a not in paired or b not in paired or len(paired[b]) < n:
            continue
        only_a, only_b, p = mcnemar(paired[a], paired[b])
        scores = [x - y for x, y in zip(outcomes(by_policy[a][:n], a), outcomes(by_policy[b][:n], b))]
        rows.append([f"{a} - {b}", n, f"{(sum(paired[a]) - sum(paired[b])) / n:+.3f}", only_a, only_b, f"{p:.3g}",
                     _ci(scores)])
    print(table(["pair", "deals", "completed, difference", f"only the first completed", "only the second",
                 "McNemar p (exact)", "campaign score difference [95% CI]"], rows))
    if all(p in paired for p in ("greedy", "hint", "hint-full-info")):
        g, h, f = (sum(paired[p]) / n for p in ("greedy", "hint", "hint-full-info"))
        share = "undefined (no gap)" if f == g else f"{(h - g) / (f - g):.2f}"
        print(f"\nShare of the greedy-to-full-information gap the hint closes (completion): {share} "
              f"(greedy {g:.3f}, hint {h:.3f}, full information {f:.3f}).")


def coop_tables(by_policy: dict[str, list[dict]], nodes: int) -> None:
    rows = [[p, len(items), _ci(outcomes(items, p))] for p, items in by_policy.items()]
    print(table(["policy", "deals", "mean team score [95% CI]"], rows))
    n = len(by_policy.get("hint", []))
    if not n:
        return
    print(f"\nPaired on deals 0..{n - 1} ({nodes} evaluations per hint decision):\n")
    rows = []
    for a, b in (("hint", "greedy"), ("hint-full-info", "greedy"), ("hint-full-info", "hint")):
        if a in by_policy and b in by_policy and len(by_policy[b]) >= n:
            diffs = [x - y for x, y in zip(outcomes(by_policy[a][:n], a), outcomes(by_policy[b][:n], b))]
            rows.append([f"{a} - {b}", n, _ci(diffs), sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)])
    print(table(["pair", "deals", "team score difference [95% CI]", "deals the first scored more",
                 "deals the second scored more"], rows))


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    mode = _flag(argv, "mode", "solo")
    seed = int(_flag(argv, "seed", "2026"))
    campaigns = int(_flag(argv, "campaigns", "20" if quick else "1000"))
    hint_campaigns = int(_flag(argv, "hint-campaigns", "2" if quick else "200"))
    nodes = int(_flag(argv, "nodes", "20" if quick else "600"))
    jobs = int(_flag(argv, "jobs", "1"))
    out_flag = _flag(argv, "out", "")
    out = Path(out_flag) if out_flag else None
    game = AetheryaGame(mode=mode) if mode == "solo" else AetheryaGame(mode=mode, players=2)
    started = time.perf_counter()
    print(f"### Aetherya {mode}: hint, greedy and full information on the same deals (seed {seed})\n")
    print(f"Command: `python benchmarks/run.py aetherya_solo --mode={mode} --campaigns={campaigns} "
          f"--hint-campaigns={hint_campaigns} --nodes={nodes} --seed={seed} --jobs={jobs}`\n")
    first = min(hint_campaigns, campaigns)
    rest = run(game, ("greedy",), seed, first, campaigns - first, nodes, jobs, out)  # the quick part first
    paired = run(game, ("greedy",) + HINTS, seed, 0, first, nodes, jobs, out)
    by_policy = {"greedy": [{**it, "outcomes": it["outcomes"]} for it in paired + rest]}
    for policy in HINTS:
        by_policy[policy] = paired
    (solo_tables if mode == "solo" else coop_tables)(by_policy, nodes)
    print(f"\n{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
