"""Load test of the web board (issue 23): 64 clients, a new page id per request, all five games, long and 10 ms
queries against ``memory-solver serve`` in a child process.

``python benchmarks/run.py load`` (``--quick``: shorter rounds). Two rounds:

1. **64 addresses**: each client sends from a loopback address of its own (127.0.0.2 ...), so the server sees 64
   clients; each request carries a new ``X-Page-Id``. A client sends one request at a time, as a page does, and
   honours ``Retry-After`` when refused. Reported: requests by status; the most requests the server held at once
   (accepted requests whose spans overlap, seen from the clients: an answer is still on its way when the server
   has taken the next) against what it promises (workers + a queue of ``--max-queue`` per lane); every answer's
   time against its promise (its time cap plus ``--max-queue-wait-ms``); the refusals by reason; and the time the
   10 ms queries spent waiting, against the long ones (the quick lane: a query capped under 500 ms never waits
   behind a long search).
2. **one address**: the same 64 clients all from 127.0.0.1, each request with a new page id: the per-address limit
   (``--max-searches-per-client``) holds them to that many at once whatever the page ids say.

The server's CPU time (``/proc``) and the machine's load average are printed with the figures.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import HINT_PROBLEMS  # noqa: E402
from common import percentile, table  # noqa: E402

from solver.registry import game_names, load_game  # noqa: E402
from solver.testing import first_decision  # noqa: E402

CLIENTS = 64
THREADS = 2
MAX_QUEUE = 32
PER_CLIENT = 2
CAP_MS = 3000
MAX_WAIT_MS = 5000
#: a query capped at this or less runs in the quick lane (solver/web/server.py QUICK_MS)
QUICK_MS = 500
HUGE = 10**12


@dataclass
class Sample:
    """One request: who sent it, what, its status, when it was sent and answered, and its promised bound."""

    client: int
    kind: str
    game: str
    status: int
    sent: float
    answered: float
    cap_s: float
    waited_s: float | None
    refusal: str = ""

    @property
    def seconds(self) -> float:
        return self.answered - self.sent


def decision(name: str, seed: int) -> Any:
    """A registered game and its first decision, dealt with ``seed``."""
    game = load_game(name)
    return game, first_decision(game, seed)


def query_pool() -> dict[str, list[tuple[str, dict[str, Any], float]]]:
    """Long and quick queries of every game: ``(game, query, cap in seconds)``."""
    long, quick = [], []
    for name in game_names():
        game, state = decision(name, seed=4)
        spec, notation = game.spec(), state.to_notation()
        long_state = HINT_PROBLEMS.get(name, notation)
        first = state.action_to_string(state.legal_actions()[0])
        long += [(name, {"game": spec, "action": "hint", "state": long_state, "limits": {"nodes": HUGE}}, CAP_MS / 1e3),
                 (name, {"game": spec, "action": "hint", "state": long_state,
                         "limits": {"nodes": HUGE, "time_ms": 2000}}, 2.0)]
        quick += [(name, {"game": spec, "action": "hint", "state": notation, "limits": {"nodes": HUGE, "time_ms": 10}},
                   0.01),
                  (name, {"game": spec, "action": "legal_moves", "state": notation}, 0.0),
                  (name, {"game": spec, "action": "apply", "state": notation, "moves": [first]}, 0.0)]
    return {"long": long, "quick": quick}


class Server:
    """``memory-solver serve`` in a child process."""

    def __init__(self, port: int) -> None:
        self.port = port
        command = [sys.executable, "-m", "solver", "serve", "--port", str(port), "--threads", str(THREADS),
                   "--max-queue", str(MAX_QUEUE), "--max-searches-per-client", str(PER_CLIENT),
                   "--max-time-ms", str(CAP_MS), "--max-queue-wait-ms", str(MAX_WAIT_MS)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if "web board is at" not in line:
            raise RuntimeError(f"the server did not start: {line!r} {self.process.stderr.read()[:500]}")
        self.url = f"http://127.0.0.1:{port}"

    def cpu_seconds(self) -> float:
        with open(f"/proc/{self.process.pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> tuple[float, str]:
        """Interrupt it (one SIGINT); how long it took to exit, and what it wrote on stderr."""
        start = time.perf_counter()
        self.process.send_signal(2)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return time.perf_counter() - start, self.process.stderr.read()


def free_port() -> int:
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def client_loop(server: Server, client: int, address: str, pool: dict[str, list], seconds: float, seed: int,
                samples: list[Sample], lock: threading.Lock) -> None:
    rng = random.Random(seed * 1000 + client)
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(transport=transport, timeout=60) as http:
        end = time.perf_counter() + seconds
        n = 0
        while time.perf_counter() < end:
            kind = "long" if rng.random() < 0.35 else "quick"
            name, query, cap_s = rng.choice(pool[kind])
            body = json.dumps({"id": f"c{client}-{n}", **query})
            sent = time.perf_counter()
            response = http.post(server.url + "/api/engine", content=body,
                                 headers={"Content-Type": "application/json", "X-Page-Id": f"page-{client}-{n}"})
            answered = time.perf_counter()
            waited = response.headers.get("x-queue-wait-ms")
            refusal = ""
            if response.status_code in (429, 503):
                error = response.json()["error"]
                refusal = ("queue full" if "queue is full" in error else "waited too long" if "in time" in error
                           else "client share" if "already has" in error else error[:40])
            with lock:
                samples.append(Sample(client, kind, name, response.status_code, sent, answered, cap_s,
                                      None if waited is None else int(waited) / 1000, refusal))
            n += 1
            if response.status_code in (429, 503):
                time.sleep(min(2.0, float(response.headers.get("retry-after", "1"))) * rng.random())


def load_round(server: Server, seconds: float, one_address: bool, seed: int) -> list[Sample]:
    pool = query_pool()
    samples: list[Sample] = []
    lock = threading.Lock()
    threads = [threading.Thread(target=client_loop, args=(server, i, "127.0.0.1" if one_address else f"127.0.0.{i + 2}",
                                                          pool, seconds, seed, samples, lock))
               for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return samples


def most_at_once(samples: list[Sample]) -> int:
    """The most accepted requests (answered, not refused) whose spans overlap: what the server held at once."""
    events = []
    for s in samples:
        if s.status not in (429, 503):
            events += [(s.sent, 1), (s.answered, -1)]
    held = peak = 0
    for _, step in sorted(events, key=lambda e: (e[0], e[1])):
        held += step
        peak = max(peak, held)
    return peak


def report(title: str, samples: list[Sample]) -> None:
    by_status: dict[int, int] = {}
    for s in samples:
        by_status[s.status] = by_status.get(s.status, 0) + 1
    print(f"### {title}\n")
    print(table(["requests", *[f"status {k}" for k in sorted(by_status)], "most accepted at once (client side)",
                 f"promised (workers {THREADS} + 1 quick, a queue of {MAX_QUEUE} for each lane)"],
                [[len(samples), *[by_status[k] for k in sorted(by_status)], most_at_once(samples),
                  THREADS + 1 + 2 * MAX_QUEUE]]))
    print()
    rows = []
    for kind in ("quick", "long"):
        done = [s for s in samples if s.kind == kind and s.status not in (429, 503)]
        if not done:
            continue
        over = [s.seconds - (s.cap_s + MAX_WAIT_MS / 1000) for s in done]
        waits = [s.waited_s for s in done if s.waited_s is not None]
        rows.append([kind, len(done), percentile([s.seconds for s in done], 50),
                     percentile([s.seconds for s in done], 95), max(s.seconds for s in done),
                     percentile(waits, 50) if waits else float("nan"), percentile(waits, 95) if waits else float("nan"),
                     max(waits) if waits else float("nan"), max(over), sum(1 for o in over if o > 0.5)])
    print(table(["queries", "answered", "p50 s", "p95 s", "max s", "wait p50 s", "wait p95 s", "wait max s",
                 "most over cap + max wait (s)", "over by > 0.5 s"], rows))
    print()
    refused: dict[tuple[str, str], int] = {}
    for s in samples:
        if s.refusal:
            refused[(s.kind, s.refusal)] = refused.get((s.kind, s.refusal), 0) + 1
    if refused:
        print(table(["refused", "why", "requests"], [[k, why, n] for (k, why), n in sorted(refused.items())]))
        print()


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    seconds = 20 if quick else 60
    load_before = os.getloadavg()
    server = Server(free_port())
    try:
        cpu0 = server.cpu_seconds()
        idle = load_round_idle(server)
        print(f"Server: `memory-solver serve --threads {THREADS} --max-queue {MAX_QUEUE} --max-searches-per-client "
              f"{PER_CLIENT} --max-time-ms {CAP_MS} --max-queue-wait-ms {MAX_WAIT_MS}`; {CLIENTS} clients, "
              f"{seconds} s a round; 35% long queries (hints with a node budget of 10^12, capped by the server or by "
              "time_ms 2000), 65% quick ones (hints of time_ms 10, legal_moves, apply), every game.\n")
        print(f"Idle server, 10 ms hints one at a time: p50 {percentile(idle, 50):.3f} s, max {max(idle):.3f} s.\n")
        report("64 clients, 64 addresses, a new page id per request", load_round(server, seconds, False, seed=1))
        report("64 clients from one address, a new page id per request", load_round(server, seconds / 3, True, seed=2))
        cpu = server.cpu_seconds() - cpu0
    finally:
        stopped, stderr = server.stop()
    print(f"Server CPU {cpu:.1f} s; load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}; "
          f"one SIGINT stopped it in {stopped:.2f} s; stderr lines: {len(stderr.splitlines())}, tracebacks: "
          f"{stderr.count('Traceback')}.")
    for line in stderr.splitlines()[:5]:
        print(f"    {line[:160]}")
    return 0


def load_round_idle(server: Server, count: int = 30) -> list[float]:
    """Latency of 10 ms hints one at a time on an idle server (the baseline of the quick queries)."""
    _, query, _ = next(q for q in query_pool()["quick"] if q[1]["action"] == "hint")
    out = []
    with httpx.Client(timeout=60) as http:
        for n in range(count):
            start = time.perf_counter()
            http.post(server.url + "/api/engine", content=json.dumps({"id": n, **query}),
                      headers={"Content-Type": "application/json"})
            out.append(time.perf_counter() - start)
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
