"""Our hint policy against OpenSpiel's IS-MCTS, per game and budget, at equal wall time per decision.

``python benchmarks/run.py vs_ismcts [--quick]``, or directly with more options::

    python benchmarks/bench_vs_ismcts.py [--quick] [--budgets 0.1:100,0.5:100,2:12] [--games forgotten,embers]
        [--game-budgets 'memorinth 2p=0.1:60,2:6' ...] [--seed 0] [--jobs N] [--executor local|ray]
        [--address ADDR] [--out results.jsonl] [--json results.json] [--summarize results.jsonl ...] [--progress]

(through ``run.py`` write flags with ``=``: ``--budgets=0.1:60``). Needs the optional extra
``memory-solver[openspiel]``; without it the benchmark says so and stops.

Every game: Aetherya (base 2-player, co-op 2-player, solo), Embers, Forgotten, Memorinth 2-player,
Mnemonic (3 players), default parameters. ``--budgets`` lists seconds per decision, each with the number of
deals (``seconds:deals``): a cooperative game plays that many deals, each once by our hint in every seat and
once by IS-MCTS in every seat; a competitive game (Aetherya base, Memorinth) plays half as many deals, each
twice with the seats swapped, so that both give the same number of paired games. ``--game-budgets
'LABEL=seconds:deals,...'`` (repeatable) gives one game its own budgets and deal counts (games with many
decisions get fewer deals at long budgets). The longest budgets run first (the slowest items start early, so two
processes stay busy to the end). Every (game, budget, deal) is
an independent item (``solver.openspiel.versus.play_item``) run through ``solver.scale.run_items``: ``--jobs N``
local processes (each item written as soon as it ends) or ``--executor ray`` (``--address`` of a cluster).
``--out`` appends each item as a JSON line and skips the items already in the file (an interrupted run resumes);
``--summarize`` prints the tables of saved files without playing; ``--json`` writes the summary rows that
``benchmarks/plots.py`` reads (``benchmarks/results/vs_ismcts.json``: ``rows`` of ``kind`` "win rate" and
"score", each with ``game``, ``budget`` in seconds, ``deals``, ``games``, ``ours``/``oursCI``,
``theirs``/``theirsCI``, ``difference``/``differenceCI`` and ``p``).

Tables: win rates with Wilson intervals, the paired difference hint - IS-MCTS per deal with its Student t 95%
interval, the exact McNemar p-value of the games only one policy won, Aetherya's paired score difference (t
interval, exact sign-flip p); then what
each policy spent per decision (wall and CPU seconds, the largest decision, the share of decisions over 1.5
times the budget) and IS-MCTS's simulations per decision.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import shlex
import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import machine, table  # noqa: E402

DEFAULT_BUDGETS = "0.1:100,0.5:100,2:12"
QUICK_BUDGETS = "0.05:1"


def parse_budgets(text: str) -> list[tuple[float, int]]:
    """``"0.1:100,0.5:60"`` -> ``[(0.1, 100), (0.5, 60)]`` (deals default to 10)."""
    out = []
    for part in text.split(","):
        seconds, _, deals = part.strip().partition(":")
        value, count = float(seconds), int(deals or 10)
        if not (value > 0 and math.isfinite(value)) or count < 1:
            raise SystemExit(f"bench_vs_ismcts: bad budget {part!r} (expected seconds:deals, both positive)")
        out.append((value, count))
    return out


def parse_game_budgets(specs: list[str], known: Iterable[str]) -> dict[str, list[tuple[float, int]]]:
    """``["memorinth 2p=0.1:60,2:6"]`` -> ``{"memorinth 2p": [(0.1, 60), (2.0, 6)]}``."""
    out: dict[str, list[tuple[float, int]]] = {}
    for spec in specs:
        label, sep, budgets = spec.partition("=")
        label = label.strip()
        if not sep or label not in known:
            raise SystemExit(f"bench_vs_ismcts: bad --game-budgets {spec!r} (expected LABEL=seconds:deals,... with "
                             f"LABEL one of {', '.join(known)})")
        out[label] = parse_budgets(budgets)
    return out


def plan(labels: list[str], budgets: list[tuple[float, int]], competitive: dict[str, bool],
         per_game: dict[str, list[tuple[float, int]]] | None = None) -> list[tuple]:
    """Every item ``(label, seconds, deal)``: the longest budget first, then deal by deal, so that a partial run
    covers every game evenly. ``per_game`` replaces ``budgets`` for the games it names."""
    per_game = per_game or {}
    deals_of: dict[float, dict[str, int]] = {}
    for label in labels:
        for seconds, deals in per_game.get(label, budgets):
            deals_of.setdefault(seconds, {})[label] = deals
    items = []
    for seconds in sorted(deals_of, reverse=True):
        counts = deals_of[seconds]
        for deal in range(max(counts.values())):
            for label in labels:
                if label not in counts or deal >= (math.ceil(counts[label] / 2) if competitive[label]
                                                   else counts[label]):
                    continue
                items.append((label, seconds, deal))
    return items


def run_one(items: tuple[tuple, ...], seed: int, factor: float, index: int) -> dict[str, Any]:
    """Item ``index`` of the plan (module level, so processes and Ray workers can run it)."""
    from solver.openspiel.versus import Budget, play_item
    label, seconds, deal = items[index]
    start, load = time.perf_counter(), os.getloadavg()[0]
    result = play_item(label, Budget(seconds=seconds, ismcts_factor=factor), deal, seed)
    result["itemSeconds"] = round(time.perf_counter() - start, 2)
    result["load"] = [round(load, 2), round(os.getloadavg()[0], 2)]  # 1-minute load average at start and end
    return result


def run_local(task: Any, count: int, jobs: int) -> Iterable[Any]:
    """``task(i)`` for every ``i`` on ``jobs`` processes, each result as soon as it is ready (not in index order:
    one slow item does not hold back the others, and an interrupted run keeps every finished item)."""
    if jobs == 1:
        yield from (task(i) for i in range(count))
        return
    import multiprocessing
    from concurrent import futures

    from solver import scale
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["solver.registry", "solver.openspiel.versus"])
    scale._start_forkserver()
    with futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        pending = [pool.submit(task, i) for i in range(count)]
        for done in futures.as_completed(pending):
            yield done.result()


def key(item: dict[str, Any]) -> tuple:
    """What identifies an item: match-up, budget, IS-MCTS's time factor, deal, run seed."""
    return (item["matchup"], float(item["seconds"]), float(item.get("ismctsFactor", 1.0)), int(item["deal"]),
            int(item["seed"]))


def load(paths: Iterable[str]) -> list[dict[str, Any]]:
    """Items saved by ``--out`` (the last copy of an item wins)."""
    found: dict[tuple, dict[str, Any]] = {}
    for path in paths:
        p = Path(path)
        if not p.exists():
            continue
        for line in p.read_text().splitlines():
            if line.strip():
                item = json.loads(line)
                found[key(item)] = item
    return list(found.values())


def fmt_rate(part: dict[str, Any]) -> str:
    lo, hi = part["ci"]
    return f"{part['rate']:.2f} [{lo:.2f}, {hi:.2f}]"


def fmt_ci(triple: tuple[float, float, float], digits: int = 2) -> str:
    mean, lo, hi = triple
    return f"{mean:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]"


def fmt_p(p: float) -> str:
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.0e}"


def render(items: list[dict[str, Any]], command: str) -> str:
    """The result tables of ``items``, grouped by match-up and budget in the match-ups' order."""
    from solver.openspiel.versus import summarize
    wins, scores, spend = [], [], []
    for group in groups_of(items):
        s = summarize(group)
        label = group[0]["matchup"]
        budget = group[0]["budget"]
        wins.append([label, budget, s["deals"], s["games"], fmt_rate(s["hint"]), fmt_rate(s["ismcts"]),
                     fmt_ci(s["difference"]), f"{s['onlyHint']}-{s['onlyIsmcts']}", fmt_p(s["mcnemarP"])])
        if "scores" in s:
            sc = s["scores"]
            scores.append([label, budget, s["deals"], fmt_ci(sc["hint"], 1), fmt_ci(sc["ismcts"], 1),
                           fmt_ci(sc["difference"], 1), fmt_p(sc["p"])])
        h, o = s["time"]["hint"], s["time"]["ismcts"]
        spend.append([label, budget, h["decisions"], f"{h['meanSeconds']:.3f}", f"{h['meanCpuSeconds']:.3f}",
                      f"{h['maxSeconds']:.2f}", f"{100 * h['overrunShare']:.0f}%", o["decisions"],
                      f"{o['meanSeconds']:.3f}", f"{o['meanCpuSeconds']:.3f}", f"{o['maxSeconds']:.2f}",
                      f"{o['simulationsPerDecision']:.0f}", f"{o['simulationsPerCpuSecond']:.0f}", s["capped"]])
    out = [f"Command: `{command}`", "",
           "### Our hint vs OpenSpiel IS-MCTS, per game and budget", "",
           table(["game", "budget", "deals", "games per policy", "hint win rate [95%]", "IS-MCTS win rate [95%]",
                  "hint - IS-MCTS per deal [95%]", "won by one only (hint-IS-MCTS)", "McNemar p"], wins)]
    if scores:
        out += ["", "### Aetherya scores (paired by deal)", "",
                table(["game", "budget", "deals", "hint score [95%]", "IS-MCTS score [95%]",
                       "hint - IS-MCTS [95%]", "sign-flip p"], scores)]
    out += ["", "### Time per decision (decisions with two or more legal moves)", "",
            table(["game", "budget", "hint decisions", "hint wall s", "hint CPU s", "hint max s",
                   "hint over 1.5x budget", "IS-MCTS decisions", "IS-MCTS wall s", "IS-MCTS CPU s", "IS-MCTS max s",
                   "IS-MCTS simulations/decision", "simulations/CPU s", "capped games"], spend)]
    run_s = sum(item.get("itemSeconds", 0.0) for item in items)
    out += ["", f"{len(items)} items, {run_s / 3600:.2f} h of item wall time in all."]
    loads = [x for item in items for x in item.get("load", [])]
    if loads:
        out[-1] += (f" 1-minute load average during the items: median {statistics.median(loads):.1f}, "
                    f"range {min(loads):.1f}-{max(loads):.1f}.")
    return "\n".join(out)


def groups_of(items: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The items of each (match-up, budget, IS-MCTS factor), in the match-ups' order then by budget."""
    from solver.openspiel.versus import MATCHUPS
    groups: dict[tuple[str, float, float], list[dict[str, Any]]] = {}
    for item in sorted(items, key=key):
        groups.setdefault(key(item)[:3], []).append(item)
    order = {m.label: i for i, m in enumerate(MATCHUPS)}
    return [groups[g] for g in sorted(groups, key=lambda g: (order.get(g[0], 99), g[2], g[1]))]


def summary_json(items: list[dict[str, Any]], command: str) -> dict[str, Any]:
    """The summary that ``benchmarks/plots.py`` reads (``benchmarks/results/vs_ismcts.json``): one "win rate" row
    per match-up and budget, one "score" row more for Aetherya; ours = our hint, theirs = IS-MCTS."""
    from solver.openspiel.versus import summarize
    rows = []
    for group in groups_of(items):
        s = summarize(group)
        first = group[0]
        base = {"game": first["matchup"], "budget": float(first["seconds"]), "budgetLabel": first["budget"],
                "ismctsFactor": float(first.get("ismctsFactor", 1.0)), "deals": s["deals"], "games": s["games"]}
        d = s["difference"]
        rows.append({**base, "kind": "win rate", "ours": s["hint"]["rate"], "oursCI": list(s["hint"]["ci"]),
                     "oursWins": s["hint"]["wins"], "theirs": s["ismcts"]["rate"], "theirsCI": list(s["ismcts"]["ci"]),
                     "theirsWins": s["ismcts"]["wins"], "difference": d[0], "differenceCI": [d[1], d[2]],
                     "onlyOurs": s["onlyHint"], "onlyTheirs": s["onlyIsmcts"], "p": s["mcnemarP"], "test": "McNemar",
                     "capped": s["capped"], "time": s["time"]})
        if "scores" in s:
            sc = s["scores"]
            rows.append({**base, "kind": "score", "ours": sc["hint"][0], "oursCI": list(sc["hint"][1:]),
                         "theirs": sc["ismcts"][0], "theirsCI": list(sc["ismcts"][1:]),
                         "difference": sc["difference"][0], "differenceCI": list(sc["difference"][1:]),
                         "p": sc["p"], "test": "sign-flip"})
    loads = [x for item in items for x in item.get("load", [])]
    return {"command": command, "machine": machine(), "items": len(items),
            "itemSeconds": round(sum(item.get("itemSeconds", 0.0) for item in items), 1),
            "load": {"median": statistics.median(loads), "min": min(loads), "max": max(loads)} if loads else None,
            "rows": rows}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_vs_ismcts", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"one deal per game at 0.05 s ({QUICK_BUDGETS})")
    parser.add_argument("--budgets", default=None, help=f"seconds:deals,... (default {DEFAULT_BUDGETS})")
    parser.add_argument("--games", default=None, help="comma-separated match-up labels (default: all)")
    parser.add_argument("--game-budgets", action="append", default=[], metavar="LABEL=SECONDS:DEALS,...",
                        help="one game's own budgets and deal counts (repeatable; replaces --budgets for it)")
    parser.add_argument("--seed", type=int, default=0, help="run seed: chance after the deal, policy seeds")
    parser.add_argument("--ismcts-factor", type=float, default=1.0,
                        help="IS-MCTS's time per decision as a multiple of the budget (default 1: equal time)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel items (processes, or Ray tasks)")
    parser.add_argument("--executor", choices=("local", "ray"), default="local")
    parser.add_argument("--address", default=None, help="Ray cluster address (with --executor ray)")
    parser.add_argument("--out", default=None, help="append each item as a JSON line; skip items already there")
    parser.add_argument("--summarize", nargs="+", default=None, metavar="JSONL", help="print tables of saved runs")
    parser.add_argument("--json", default=None, metavar="PATH",
                        help="write the summary rows benchmarks/plots.py reads (benchmarks/results/vs_ismcts.json)")
    parser.add_argument("--progress", action="store_true", help="a progress bar on stderr")
    args = parser.parse_args(argv)
    command = shlex.join(["python", "benchmarks/bench_vs_ismcts.py", *argv])
    if args.summarize:
        items = load(args.summarize)
        if not items:
            print("No saved items.")
            return 1
        print(render(items, command))
        write_json(args.json, items, command)
        return 0
    try:
        import solver.openspiel  # noqa: F401
        from solver.openspiel.versus import BY_LABEL, MATCHUPS
    except ImportError as exc:
        print(f"Skipped: {exc}")
        return 0
    from solver.scale import check_run, run_items
    labels = [m.label for m in MATCHUPS] if not args.games else [g.strip() for g in args.games.split(",")]
    for label in labels:
        if label not in BY_LABEL:
            raise SystemExit(f"bench_vs_ismcts: unknown game {label!r} (known: {', '.join(BY_LABEL)})")
    budgets = parse_budgets(args.budgets or (QUICK_BUDGETS if args.quick else DEFAULT_BUDGETS))
    per_game = parse_game_budgets(args.game_budgets, BY_LABEL)
    labels += [label for label in per_game if label not in labels]
    every = plan(labels, budgets, {label: BY_LABEL[label].competitive for label in labels}, per_game)
    done = {key(item): item for item in load([args.out])} if args.out else {}
    factor = args.ismcts_factor
    if not (factor > 0 and math.isfinite(factor)):
        raise SystemExit(f"bench_vs_ismcts: --ismcts-factor must be positive, not {factor}")
    todo = tuple(it for it in every if (it[0], float(it[1]), factor, it[2], args.seed) not in done)
    results = [done[(it[0], float(it[1]), factor, it[2], args.seed)] for it in every
               if (it[0], float(it[1]), factor, it[2], args.seed) in done]
    if todo:
        check_run(args.seed, 0, len(todo), args.jobs, args.executor, args.address)
        task = functools.partial(run_one, todo, args.seed, factor)
        sink = open(args.out, "a") if args.out else None
        try:
            if args.executor == "local":
                stream = run_local(task, len(todo), args.jobs)
            else:
                stream = run_items(task, 0, len(todo), jobs=args.jobs, executor=args.executor,
                                   address=args.address, progress=args.progress, label="items")
            for n, result in enumerate(stream, 1):
                results.append(result)
                if args.progress and args.executor == "local":
                    print(f"{n}/{len(todo)} {result['matchup']} {result['budget']} deal {result['deal']}: "
                          f"{result['itemSeconds']} s", file=sys.stderr, flush=True)
                if sink is not None:
                    sink.write(json.dumps(result, sort_keys=True) + "\n")
                    sink.flush()
        finally:
            if sink is not None:
                sink.close()
    print(render(results, command))
    write_json(args.json, results, command)
    return 0


def write_json(path: str | None, items: list[dict[str, Any]], command: str) -> None:
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(summary_json(items, command), indent=1) + "\n")


if __name__ == "__main__":
    print(f"Machine: {machine()}\n")
    sys.exit(main(sys.argv[1:]))
