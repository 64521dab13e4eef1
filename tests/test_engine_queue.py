"""The engine's admission and endings (issue 23): a bounded queue, one final answer per id and per turn whatever
happens to a query (defect 3), clean shutdown on SIGINT and SIGTERM, and the issue's smaller defects (9)."""

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from solver.engine import Engine
from solver.testing import TimedLines

#: the Memorinth state of the docs/engine.md h1 example (the issue's S)
S = ("2p base SN | 7S,12M,20S,11M,9S/21M,1S,18M,19S,23M/4S,6M,CS,15M,10S/22M,8S,16M,24S,13M/5S,2M,14S,17M,3S | "
     "c3,c3 | N=GH E=RX S=BT W=FP | r1 p0 flip")
BUSY = {"game": "memorinth", "action": "hint", "state": S, "limits": {"nodes": 400_000}}


def finals(out, qid):
    return [r for _, r in out.of(qid) if not r.get("isDuringSearch") and "warning" not in r]


def test_3_analyze_turns_terminated_while_queued_gets_one_final_answer_per_turn():
    out = TimedLines()
    engine = Engine(out)
    for query in ({"id": "busy", **BUSY},
                  {"id": "t", "game": "memorinth", "action": "hint", "state": S, "analyzeTurns": [0, 0, 0],
                   "limits": {"nodes": 100}},
                  {"id": "s", "action": "terminate", "terminateId": "t"},
                  {"id": "s2", "action": "terminate", "terminateId": "busy"}):
        engine.handle_line(json.dumps(query))
    engine.close()
    answers = finals(out, "t")
    assert [a["turnNumber"] for a in answers] == [0, 0, 0]
    assert all(a["terminated"] and a["noResults"] and not a["isDuringSearch"] for a in answers)
    assert finals(out, "s") == [{"id": "s", "action": "terminate", "terminated": 1, "terminateId": "t"}]
    assert len(finals(out, "busy")) == 1


def test_the_queue_is_bounded_and_a_query_beyond_it_gets_an_error_naming_the_queue():
    out = TimedLines()
    engine = Engine(out, threads=1, max_queue=2)
    engine.handle_line(json.dumps({"id": "busy", **BUSY}))
    time.sleep(0.3)  # a worker has taken it
    for qid in ("q1", "q2", "q3"):
        engine.handle_line(json.dumps({"id": qid, "game": "memorinth", "action": "legal_moves", "state": S}))
    refused = finals(out, "q3")
    assert len(refused) == 1 and refused[0]["field"] is None
    assert "queue is full" in refused[0]["error"] and "--max-queue 2" in refused[0]["error"]
    engine.handle_line(json.dumps({"id": "stop", "action": "terminate", "terminateId": "busy"}))
    engine.close()
    assert finals(out, "q1")[0]["moves"] and finals(out, "q2")[0]["moves"] and len(finals(out, "q3")) == 1


def test_every_query_gets_exactly_one_final_answer_per_turn_under_random_terminates():
    rng = random.Random(2312)
    out = TimedLines()
    engine = Engine(out, threads=2, max_queue=20, max_time_ms=2000)
    expected = {}
    for n in range(120):
        qid = f"q{n}"
        turns = rng.choice((None, [0], [0, 1], [1, 1, 0]))
        query = {"id": qid, "game": "memorinth", "action": "hint", "state": S, "moves": ["flip a1"],
                 "limits": {"nodes": rng.choice((50, 2000, 10**9)), "time_ms": rng.choice((20, 200, 2000))}}
        if turns:
            query["analyzeTurns"] = turns
        engine.handle_line(json.dumps(query))
        expected[qid] = len(turns) if turns else 1
        if rng.random() < 0.4:
            victim = f"q{rng.randrange(n + 1)}"
            engine.handle_line(json.dumps({"id": f"stop{n}", "action": "terminate", "terminateId": victim}))
        if rng.random() < 0.05:
            engine.handle_line(json.dumps({"id": f"all{n}", "action": "terminate_all"}))
        time.sleep(rng.random() * 0.02)
    engine.close()
    seen = {"refused": 0, "unrun": 0, "stopped": 0, "turns": 0}
    for qid, count in expected.items():
        answers = finals(out, qid)
        if len(answers) == 1 and "error" in answers[0]:
            assert "queue is full" in answers[0]["error"], answers
            seen["refused"] += 1
            continue
        assert len(answers) == count, (qid, answers)
        if count > 1 or "turnNumber" in answers[0]:
            assert all("turnNumber" in a for a in answers), answers
            seen["turns"] += count > 1
        seen["unrun"] += answers[0].get("noResults", False)
        seen["stopped"] += answers[0].get("terminated", False) and not answers[0].get("noResults")
    # terminates took effect and turns were answered (how many were refused, unrun or stopped depends on timing)
    assert seen["unrun"] + seen["stopped"] > 0 and seen["turns"] > 0, seen


def test_9_query_version_with_an_unknown_key_still_answers_the_version():
    out = TimedLines()
    engine = Engine(out)
    engine.handle_line('{"id": "v", "action": "query_version", "colour": "red"}')
    engine.close()
    answers = [r for _, r in out.of("v")]
    assert answers[0] == {"id": "v", "warning": "unknown field, ignored", "field": "colour"}
    assert answers[1]["version"] and len(answers) == 2


def test_9_a_nan_state_is_answered_with_the_querys_id():
    out = TimedLines()
    engine = Engine(out)
    engine.handle_line('{"id":"q","game":"memorinth","action":"hint","state":NaN}')
    engine.close()
    [(_, answer)] = out.of("q")
    assert answer["field"] == "state" and "NaN" in answer["error"]


@pytest.mark.parametrize("flags", [["--threads", "99999999999999999999"], ["--threads", "0"], ["--max-queue", "0"],
                                   ["--max-time-ms", "0"], ["--threads", "x"]])
def test_9_a_bad_engine_command_line_exits_2_with_one_line(flags):
    from solver.cli import main
    import io
    import contextlib
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["engine", *flags]) == 2
    assert err.getvalue().count("\n") == 1 and flags[0] in err.getvalue()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_3_one_signal_answers_the_queue_terminates_the_search_and_exits_within_two_seconds(signum, tmp_path):
    engine = subprocess.Popen([sys.executable, "-m", "solver", "engine"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"}, cwd=tmp_path)
    try:
        long = {"game": "memorinth", "action": "hint", "state": S, "limits": {"nodes": 10**9}}
        engine.stdin.write(json.dumps({"id": "run", "reportDuringSearchEvery": 0.1, **long}) + "\n")
        engine.stdin.write(json.dumps({"id": "queued", "analyzeTurns": [0, 0], **long}) + "\n")
        engine.stdin.flush()
        assert '"isDuringSearch":true' in engine.stdout.readline()  # the search runs
        sent = time.perf_counter()
        engine.send_signal(signum)
        engine.wait(timeout=10)
        assert time.perf_counter() - sent < 2.0
        assert engine.returncode == 128 + signum
        answers = [json.loads(line) for line in engine.stdout.read().splitlines()]
        run = [a for a in answers if a["id"] == "run" and not a.get("isDuringSearch")]
        queued = [a for a in answers if a["id"] == "queued"]
        assert len(run) == 1 and run[0]["terminated"] is True
        assert len(queued) == 1 and "shutting down" in queued[0]["error"]
        assert "Traceback" not in engine.stderr.read()
    finally:
        if engine.poll() is None:
            engine.kill()
