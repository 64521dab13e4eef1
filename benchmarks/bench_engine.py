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
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import table  # noqa: E402

from solver.engine import Engine  # noqa: E402
from solver.fuzz import base_queries, campaign, check_answers, run_campaign  # noqa: E402
from solver.registry import game_names, load_game  # noqa: E402

#: 4 players, the first scene at a Joker: every other player may be asked for help (the planner searches for seconds)
MNEMONIC_BIG_SCENE = ("mnemonic deck-burner r1 scene-skill f0 a0 t0/0/0 last=- | discard RJ@0 | scene card=RJ | "
                      "P Player_1 w1 b0 hand=- skills=Fight_With_Hands=H3,Bargain=D1,Endure=C1,Sneak=S1 | "
                      "P Player_2 w1 b0 hand=- skills=Fight_With_Hands=H1,Bargain=D3,Endure=C3,Sneak=S2 | "
                      "P Player_3 w1 b0 hand=- skills=Fight_With_Hands=H1,Bargain=D1,Endure=C1,Sneak=S2 | "
                      "P Player_4 w1 b0 hand=- skills=Fight_With_Hands=H2,Bargain=D2,Endure=C1,Sneak=S1")
SOLVE_PROBLEMS = {
    # the branch-and-bound needs about 3 s (57 Portal layouts, a Dragon fixed off-centre) to prove this hand
    "aetherya": {"cards": "FMHHHEEEDDDGRROO", "fixed": {"b2": "R"}},
    # a Blink of a 10-card row: CP-SAT's model takes seconds to build, the compiled search tens of seconds
    "embers": "embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b,F1a,G3,D3,S4,F2a,G2a,D2b,"
              "S2b demons=Cd:C2b discard=- box=- resolve=D1a,G2b,S3,F5 completed=0 added=0 pending=- result=-",
    "forgotten": "??????/@????@/??????/?????? 0 first",
    # Master Memorinth with the special side: IDA* needs about 12 s to prove the 5-turn escape of this deal
    "memorinth": "2p master-special SN | 4S,1M,6S,15M,21S/13M,14S,20M,11S,22M/9S,8M,CS,3M,23S/19M,2S,5M,12S,10M/"
                 "18S,7M,24S,17M,16S | c3,c3 | N=H E=R S=F W=X A=PGBT | r1 p0 flip clovers=1,1/3",
    "mnemonic": MNEMONIC_BIG_SCENE,
}
#: hint problems for games whose dealt position is answered at once (the same long Blink for Embers; Mnemonic's
#: first move, a draw, is the only legal one)
HINT_PROBLEMS = {"embers": SOLVE_PROBLEMS["embers"], "mnemonic": MNEMONIC_BIG_SCENE}


class TimedLines:
    def __init__(self) -> None:
        self.lines: list[tuple[float, dict]] = []
        self.lock = threading.Lock()

    def write(self, text: str) -> None:
        with self.lock:
            for line in text.splitlines():
                self.lines.append((time.perf_counter(), json.loads(line)))

    def flush(self) -> None:
        pass

    def final(self, qid: str) -> tuple[float, dict]:
        return next((t, r) for t, r in self.lines if r.get("id") == qid and not r.get("isDuringSearch"))


def _query(name: str, action: str, limits: dict) -> dict:
    game = load_game(name)
    rng = np.random.default_rng(4)
    state = game.new_game(4)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
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
                answered, response = out.final("q")
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
                out = TimedLines()
                engine = Engine(out)
                engine.handle_line(json.dumps({"id": "q", **_query(name, action, {"time_ms": 30000})}))
                time.sleep(0.5)
                finished = any(r.get("id") == "q" and not r.get("isDuringSearch") for _, r in out.lines)
                sent = time.perf_counter()
                engine.handle_line(json.dumps({"id": "t", "action": "terminate", "terminateId": "q"}))
                engine.close()
                answered, response = out.final("q")
                if "error" in response:
                    statuses.add("error: " + response["error"][:40])
                elif finished:
                    statuses.add("finished before 0.5 s")
                else:
                    latencies.append(answered - sent)
                    statuses.add("ok" if answered - sent <= 0.2 else "SLOW")
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
