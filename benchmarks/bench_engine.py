"""Engine benchmarks: time-limit accuracy and cancellation latency per game, fuzzing throughput, memory.

``python benchmarks/run.py engine`` (add ``--quick`` for a small run). Sections:

1. time-limit accuracy: each game's hint and solve with ``limits.time_ms`` of 300 and 1000 ms, answered after
   how long (guarantee: within 10% or 100 ms of the limit, whichever is larger);
2. cancellation latency: a long search terminated after 0.5 s answers after how long (guarantee: 200 ms);
3. a fuzzing campaign of mutated queries (solver/fuzz.py): queries per second, answers by kind, no internal
   error, one answer per id;
4. resident memory over rounds of 500 pipelined mixed queries with a terminate every 50 (flat after warm-up).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from common import table  # noqa: E402

from solver.engine import Engine  # noqa: E402
from solver.fuzz import base_queries, campaign, check_answers, probe, run_campaign  # noqa: E402
from solver.registry import game_names  # noqa: E402
from solver.testing import TimedLines  # noqa: E402

#: the long searches of the engine's tests (one solve and hint problem a game that keeps its solver busy)
from test_engine_guarantees import HINT_PROBLEMS, SOLVE_PROBLEMS, decision  # noqa: E402


def _query(name: str, action: str, limits: dict) -> dict:
    game, state = decision(name)
    problems = SOLVE_PROBLEMS if action == "solve" else HINT_PROBLEMS
    problem = problems.get(name, state.to_json())
    return {"game": game.spec(), "action": action, "state": problem, "limits": limits}


def bench_time_limits(quick: bool) -> None:
    print("### Time-limit accuracy (seconds from the query to its answer)\n")
    rows = []
    for name in game_names():
        for action in ("hint", "solve"):
            for limit in (300,) if quick else (300, 1000):
                line = json.dumps({"id": "q", **_query(name, action, {"time_ms": limit})})  # dealt before the clock
                out = TimedLines()
                engine = Engine(out)
                sent = time.perf_counter()
                engine.handle_line(line)
                engine.close()
                answered, response = out.of("q")[0]
                took = answered - sent
                allowed = max(limit * 1.1, limit + 100) / 1000
                status = "error: " + response["error"][:40] if "error" in response else (
                    "ok" if took <= allowed else "OVER")
                rows.append((name, action, limit, f"{took:.3f}", f"{allowed:.3f}", status))
    print(table(("game", "action", "limit ms", "answered after s", "guarantee s", "status"), rows))
    print()


def bench_cancellation(quick: bool) -> None:
    print("### Cancellation latency (a search of 30 s terminated after 0.5 s)\n")
    rows = []
    for name in game_names():
        for action in ("hint", "solve"):
            latencies, statuses = [], set()
            for _ in range(1 if quick else 3):
                run = probe(_query(name, action, {"time_ms": 30000}), terminate_after=0.5)
                if "error" in run.answer:
                    statuses.add("error: " + run.answer["error"][:40])
                elif run.finished_early:
                    statuses.add("finished before 0.5 s")
                else:
                    latencies.append(run.seconds)
                    statuses.add("ok" if run.seconds <= 0.2 else "SLOW")
            rows.append((name, action, f"{statistics.median(latencies) * 1000:.0f}" if latencies else "-",
                         f"{max(latencies) * 1000:.0f}" if latencies else "-", ", ".join(sorted(statuses))))
    print(table(("game", "action", "median ms", "max ms", "status"), rows))
    print()


def bench_fuzz(quick: bool) -> None:
    print("### Fuzzing campaign (solver/fuzz.py)\n")
    count = 2000 if quick else 20000
    queries = base_queries()
    lines = campaign(count, seed=7, queries=queries)
    start = time.perf_counter()
    answers = run_campaign(lines)
    seconds = time.perf_counter() - start
    internal = [a for a in answers if "internal error" in json.dumps(a)]
    try:
        counts = check_answers(lines, answers, allow_internal=True)
        promise = "kept"
    except AssertionError as exc:
        counts = {"answers": "-", "errors": "-", "warnings": "-"}
        promise = f"BROKEN: {str(exc)[:80]}"
    print(table(("queries", "seconds", "queries/s", "answers", "errors", "warnings", "internal errors",
                 "one answer per id"),
                [(count, f"{seconds:.1f}", f"{count / seconds:.0f}", counts["answers"], counts["errors"],
                  counts["warnings"], len(internal), promise)]))
    by_id = {qid: line for qid, line, _ in lines}
    for answer in internal[:5]:
        print(f"\n- `{answer['error'][:100]}` from `{by_id.get(answer.get('id'), '?')[:160]}...`")
    print()


def _rss_kib() -> int:
    with open("/proc/self/status") as handle:
        return next(int(line.split()[1]) for line in handle if line.startswith("VmRSS:"))


def bench_memory(quick: bool) -> None:
    print("### Resident memory over pipelined mixed queries (500 a round, a terminate every 50)\n")
    quick_queries = []
    for name in game_names():
        q = _query(name, "hint", {"nodes": 10})
        quick_queries += [dict(q), {**q, "action": "legal_moves"}, {**q, "action": "score"}]
    long = _query("memorinth", "hint", {"time_ms": 30000})
    rows = []
    for round_no in range(3 if quick else 8):
        out = TimedLines()
        engine = Engine(out, threads=2)
        start = time.perf_counter()
        for r in range(10):
            engine.handle_line(json.dumps({"id": f"long{r}", **long}))
            for k in range(48):
                engine.handle_line(json.dumps({"id": f"q{r}-{k}", **quick_queries[(r * 48 + k) % len(quick_queries)]}))
            time.sleep(0.05)
            engine.handle_line(json.dumps({"id": f"t{r}", "action": "terminate", "terminateId": f"long{r}"}))
        engine.close()
        rows.append((round_no + 1, f"{time.perf_counter() - start:.1f}", f"{_rss_kib() / 1024:.1f}"))
    print(table(("round", "seconds", "RSS MiB after"), rows))
    print()


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    for bench in (bench_time_limits, bench_cancellation, bench_fuzz, bench_memory):
        bench(quick)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
