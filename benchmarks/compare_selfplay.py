"""Paired self-play of one policy under two builds of memory-solver: the same seeded games, so each game pairs.

    python benchmarks/compare_selfplay.py --base "PYTHON -S -m solver" --new "memory-solver" \
        -- forgotten selfplay --policies hint --count 1000 --seed 1 --hint-nodes 2000

Both commands get the arguments after ``--`` plus ``--json`` and print one game per line; games are paired by
their ``id`` (the same deal, dice and policy seeds in both), and each policy's outcome in the base run is compared
with the same policy's in the new run: win rates with Wilson intervals, the paired difference with its 95%
interval, the discordant games and the exact McNemar p-value (outcomes 0/1), or the paired t interval of the
difference (other outcomes). Used to show that a change of a hint's search (issue 21's one ranking) leaves the hint
no weaker at an equal budget (``docs/benchmarks.md``). CPU time of each run is reported (children's
``resource.getrusage``), so the load of a shared machine does not distort it.
"""

from __future__ import annotations

import argparse
import json
import resource
import shlex
import subprocess
import sys
from typing import Any

from solver.stats import is_binary, mcnemar, mean_t_ci, wilson


def run(command: str, args: list[str]) -> tuple[dict[str, dict[str, Any]], float]:
    """Games by id from ``command args --json``, and the CPU seconds the run took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(shlex.split(command) + args + ["--json"], capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{command}: exit {done.returncode}: {done.stderr.strip()[:500]}")
    games = {}
    for line in done.stdout.splitlines():
        if line.strip():
            game = json.loads(line)
            if "id" in game:      # the last line is the run's summary
                games[game["id"]] = game
    return games, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def compare(base: dict[str, dict[str, Any]], new: dict[str, dict[str, Any]]) -> list[str]:
    """Markdown rows: one per policy, base against new on the games both ran."""
    ids = [i for i in base if i in new]
    rows = ["| policy | games | base | new | new - base (95% CI) | only base won | only new won | McNemar p |",
            "|---|---|---|---|---|---|---|---|"]
    for policy in base[ids[0]]["outcomes"]:
        a = [float(base[i]["outcomes"][policy]) for i in ids]
        b = [float(new[i]["outcomes"][policy]) for i in ids]
        diff, lo, hi = mean_t_ci([y - x for x, y in zip(a, b)])
        if is_binary(a + b):
            only_a, only_b, p = mcnemar(a, b)
            wa, wb = wilson(int(sum(a)), len(a)), wilson(int(sum(b)), len(b))
            shown = (f"{100 * sum(a) / len(a):.1f}% [{100 * wa[0]:.1f}, {100 * wa[1]:.1f}]",
                     f"{100 * sum(b) / len(b):.1f}% [{100 * wb[0]:.1f}, {100 * wb[1]:.1f}]")
            rows.append(f"| {policy} | {len(ids)} | {shown[0]} | {shown[1]} | {100 * diff:+.2f} points "
                        f"({100 * lo:+.2f} to {100 * hi:+.2f}) | {only_a} | {only_b} | {p:.3f} |")
        else:
            ma, mb = sum(a) / len(a), sum(b) / len(b)
            rows.append(f"| {policy} | {len(ids)} | {ma:.3f} | {mb:.3f} | {diff:+.3f} ({lo:+.3f} to {hi:+.3f}) "
                        "| - | - | - |")
    return rows


def main(argv: list[str]) -> int:
    if "--" not in argv:
        sys.exit(__doc__)
    split = argv.index("--")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the command of the base build (e.g. 'python -S -m solver')")
    parser.add_argument("--new", default="memory-solver", help="the command of the new build")
    options = parser.parse_args(argv[:split])
    args = argv[split + 1:]
    base, base_cpu = run(options.base, args)
    new, new_cpu = run(options.new, args)
    print(f"`{' '.join(args)}`: base {base_cpu:.0f} s CPU, new {new_cpu:.0f} s CPU\n")
    print("\n".join(compare(base, new)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
