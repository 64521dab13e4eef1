"""Every game's hint and solve honour the engine's time limits, `terminate` and interim reports (docs/engine.md).

The bounds here are loose on purpose (they catch a search that ignores its limit, not a slow machine):
the measured latencies are in benchmarks/bench_engine.py and docs/engine.md.
"""

import importlib
import json
import time
from pathlib import Path

import pytest

from solver.engine import Engine
from solver.fuzz import probe
from solver.registry import game_names, load_game
from solver.testing import TimedLines, first_decision

pytestmark = pytest.mark.serial  # wall-clock caps: alone under pytest-xdist (tests/conftest.py)

#: slack for a loaded 2-core machine on top of the documented guarantee
SLACK_S = 1.5


def load_every_kernel() -> None:
    """Load every compiled kernel (one per src/*.pyx): in an editable install the first kernel import of a
    process runs the build's up-to-date check, 1-3 s on a loaded machine, which is not search time."""
    for pyx in (Path(__file__).resolve().parent.parent / "src").glob("*.pyx"):
        importlib.import_module(f"solver.kernels.{pyx.stem}")


@pytest.fixture(scope="module", autouse=True)
def kernels_loaded():
    """Every kernel loaded before any query is timed (the first test used to pay it when this file ran alone)."""
    load_every_kernel()


def decision(name, seed=4):
    """A registered game and its first decision, dealt with ``seed``."""
    game = load_game(name)
    return game, first_decision(game, seed)


#: 4 players, the first scene at a Joker: every other player may be asked for help (the planner searches for seconds)
MNEMONIC_BIG_SCENE = ("mnemonic deck-burner r1 scene-skill f0 a0 t0/0/0 last=- | discard RJ@0 | scene card=RJ | "
                      "P Player_1 w1 b0 hand=- skills=Fight_With_Hands=H3,Bargain=D1,Endure=C1,Sneak=S1 | "
                      "P Player_2 w1 b0 hand=- skills=Fight_With_Hands=H1,Bargain=D3,Endure=C3,Sneak=S2 | "
                      "P Player_3 w1 b0 hand=- skills=Fight_With_Hands=H1,Bargain=D1,Endure=C1,Sneak=S2 | "
                      "P Player_4 w1 b0 hand=- skills=Fight_With_Hands=H2,Bargain=D2,Endure=C1,Sneak=S1")
#: solve problems that make each game's solver work for a while (a dealt position where that suits the solver)
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
#: hint problems where a dealt position answers at once (Mnemonic's first move, a draw, is the only legal one;
#: the same long Blink for Embers)
HINT_PROBLEMS = {
    "embers": SOLVE_PROBLEMS["embers"],
    "mnemonic": MNEMONIC_BIG_SCENE,
}
#: known gaps, each with its issue; strict, so the test says when a fix lands
KNOWN: dict[tuple[str, str], str] = {}


def query(name, action, limits, **extra):
    game, state = decision(name)
    problems = SOLVE_PROBLEMS if action == "solve" else HINT_PROBLEMS
    problem = problems.get(name, state.to_json())
    return {"game": game.spec(), "action": action, "state": problem, "limits": limits, **extra}


def cases(known=()):
    out = []
    for name in game_names():
        for action in ("hint", "solve"):
            reason = KNOWN.get((name, action)) if (name, action) in known else None
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            out.append(pytest.param(name, action, marks=marks, id=f"{name}-{action}"))
    return out


#: the time limit of test_a_time_limit_is_honoured and when test_terminate_stops_... sends its terminate (after the
#: first report at the earliest): short, since their size is not what is checked (400 ms and 0.5 s before issue 24)
LIMIT_MS = 150
TERMINATE_AFTER_S = 0.2


@pytest.mark.parametrize("name, action", cases())
def test_a_time_limit_is_honoured(name, action):
    line = json.dumps({"id": "q", **query(name, action, {"time_ms": LIMIT_MS})})  # dealt before the clock
    out = TimedLines()
    engine = Engine(out)
    sent = time.perf_counter()
    engine.handle_line(line)
    engine.close()
    [(answered, response)] = out.of("q")
    if "error" in response:
        pytest.skip(f"{name} {action} on a dealt position: {response['error'][:80]}")
    assert answered - sent < LIMIT_MS / 1000 * 1.1 + 0.1 + SLACK_S, (name, action, answered - sent)


@pytest.mark.parametrize("name, action", cases(known=KNOWN))
def test_terminate_stops_a_search_promptly_with_its_best_so_far(name, action):
    run = probe({"reportDuringSearchEvery": 0.1, **query(name, action, {"time_ms": 30000})},
                terminate_after=TERMINATE_AFTER_S, wait_for_report=True)
    response = run.answer
    if "error" in response:
        pytest.skip(f"{name} {action} on a dealt position: {response['error'][:80]}")
    if run.finished_early:
        return  # the search had already finished: nothing to stop
    assert response.get("terminated") is True, response
    assert run.seconds < 0.2 + SLACK_S, (name, action, run.seconds)
    assert run.interim, f"{name} {action} ran {run.seconds + TERMINATE_AFTER_S:.1f} s without an interim report"


def _rss_kib():
    with open("/proc/self/status") as handle:
        return next(int(line.split()[1]) for line in handle if line.startswith("VmRSS:"))


def _pipeline(rounds, long_game="memorinth"):
    """Rounds of: a long hint, 48 quick mixed queries over every game, then a terminate of the long hint."""
    quick = []
    for name in game_names():
        game, state = decision(name, seed=2)
        quick += [{"game": game.spec(), "action": "legal_moves", "state": state.to_notation()},
                  {"game": game.spec(), "action": "score", "state": state.to_json()},
                  {"game": game.spec(), "action": "hint", "state": state.to_json(), "limits": {"nodes": 10}}]
    long = query(long_game, "hint", {"time_ms": 30000})
    lines, n = [], 0
    for r in range(rounds):
        lines.append({"id": f"long{r}", **long})
        for k in range(48):
            lines.append({"id": f"q{r}-{k}", **quick[n % len(quick)]})
            n += 1
        lines.append({"id": f"t{r}", "action": "terminate", "terminateId": f"long{r}"})
    return lines


def test_pipelined_mixed_queries_with_terminates_answer_every_id_once_and_memory_stays_flat():
    def run_rounds(rounds):
        out = TimedLines()
        engine = Engine(out, threads=2)
        lines = _pipeline(rounds)
        sent = {}
        for line in lines:
            if line.get("action") == "terminate":
                time.sleep(0.05)  # let the long search start
                sent[line["terminateId"]] = time.perf_counter()
            engine.handle_line(json.dumps(line))
        engine.close()
        finals = {}
        for t, r in out.lines:
            if not r.get("isDuringSearch") and "warning" not in r:
                assert "internal error" not in json.dumps(r), r
                finals.setdefault(r["id"], []).append((t, r))
        assert sorted(finals) == sorted(line["id"] for line in lines)
        assert all(len(v) == 1 for v in finals.values())
        for qid, at in sent.items():
            (answered, response), = finals[qid]
            assert response.get("terminated") is True
            assert answered - at < 0.2 + SLACK_S
    run_rounds(2)  # warm-up: every game loaded, caches filled
    before = _rss_kib()
    run_rounds(10)  # 500 queries, a terminate every 50
    grown = _rss_kib() - before
    assert grown < 40_000, f"RSS grew by {grown} KiB over 500 queries"
