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
from solver.protocol import cost_ms, read_query
from solver.registry import game_names, load_game
from solver.testing import TimedLines

from .test_engine_guarantees import SLACK_S, kernels_loaded  # noqa: F401 - a fixture: kernels loaded before timing

pytestmark = pytest.mark.serial  # wall-clock caps: alone under pytest-xdist (tests/conftest.py)

#: the Memorinth state of the docs/engine.md h1 example (the issue's S)
S = ("2p base SN | 7S,12M,20S,11M,9S/21M,1S,18M,19S,23M/4S,6M,CS,15M,10S/22M,8S,16M,24S,13M/5S,2M,14S,17M,3S | "
     "c3,c3 | N=GH E=RX S=BT W=FP | r1 p0 flip")
#: the web board's cap, for the lane of a query
CAP = 30_000
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


# -- the quick lane: what is classified quick, and every query bounded by the cap however it is classified ----------
def endless_moves(name, count):
    """A dealt game of ``name`` and ``count`` moves that never end it (the first legal move each time, which makes
    Aetherya and Memorinth cycle), or ``None`` when such play ends the game (its rules bound the moves)."""
    game = load_game(name)
    state = game.new_game(0)
    start, moves = state.to_json(), []
    while len(moves) < 400:
        if state.is_terminal():
            return None
        action = state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0]
        moves.append(state.action_to_string(action))
        state = state.child(int(action))
    period = next(p for p in range(1, 50) if all(moves[-1 - i] == moves[-1 - i - p] for i in range(200)))
    cycle = moves[-period:]
    return game.spec(), start, moves + cycle * ((count - len(moves)) // period)


def one_final(engine_queries, cap_ms, terminate_after=None):
    """Run the queries on one engine (one worker, cap ``cap_ms``): (seconds from sending to the final answer, the
    one final answer) of the first query."""
    out = TimedLines()
    engine = Engine(out, threads=1, max_time_ms=cap_ms)
    sent = time.perf_counter()
    for query in engine_queries:
        engine.handle_line(json.dumps(query))
    if terminate_after is not None:
        time.sleep(terminate_after)
        sent = time.perf_counter()
        engine.handle_line(json.dumps({"id": "stop", "action": "terminate", "terminateId": engine_queries[0]["id"]}))
    engine.close()
    answers = [(t, r) for t, r in out.of(engine_queries[0]["id"]) if not r.get("isDuringSearch")]
    assert len(answers) == 1, answers
    return answers[0][0] - sent, answers[0][1]


@pytest.mark.parametrize("name", game_names())
def test_a_slow_position_query_stops_at_the_engines_cap_with_one_clear_error(name):
    """A position action is quick on the web board (no search), but its moves are replayed: 100,000 moves of an
    endless game took seconds past any cap. They now end at the cap (or terminate) like a search, whatever the
    action that replays them."""
    found = endless_moves(name, 100_000)
    if found is None:
        pytest.skip(f"{name}: its rules end every game (the moves a query may replay are bounded)")
    spec, start, moves = found
    query = {"id": "slow", "game": spec, "action": "apply", "state": start, "moves": moves}
    uncapped, answer = one_final([query], cap_ms=600_000)
    assert "error" not in answer, answer  # the moves are legal: only time stops them
    for action, extra in (("apply", {}), ("legal_moves", {}), ("view", {"player": 0}), ("show", {"svg": False}),
                          ("hint", {"limits": {"time_ms": 1}})):
        query = {"id": "slow", "game": spec, "action": action, "state": start, "moves": moves, **extra}
        assert cost_ms(read_query("slow", query, action), CAP) <= 1  # the web board runs it in the quick lane
        capped, answer = one_final([query], cap_ms=50)
        assert answer == {"id": "slow", "field": "limits.time_ms",
                          "error": f"limits.time_ms: the time limit ran out before the {action} finished: 50"}
        assert capped < 0.05 + SLACK_S and capped < uncapped / 2, (action, capped, uncapped)
    stopped, answer = one_final([query], cap_ms=600_000, terminate_after=0.05)
    assert answer["terminated"] and answer["noResults"] and stopped < 0.2 + SLACK_S, (stopped, answer)


def test_analysed_turns_past_the_cap_are_answered_once_each_without_a_search():
    """Each analysed turn gets its own ``limits.time_ms`` (at least 1 ms), but its set-up costs more: 2,000 turns of
    1 ms ran for seconds past the engine's cap. Past the cap every turn left is answered at once, ``timedOut``."""
    turns = 2000
    query = {"id": "t", "game": "memorinth", "action": "hint", "state": S, "analyzeTurns": [0] * turns,
             "limits": {"time_ms": 1}}
    out = TimedLines()
    engine = Engine(out, threads=1, max_time_ms=200)
    sent = time.perf_counter()
    engine.handle_line(json.dumps(query))
    engine.close()
    answers = finals(out, "t")
    assert len(answers) == turns and all(a["turnNumber"] == 0 for a in answers)
    assert out.of("t")[-1][0] - sent < 0.2 + SLACK_S
    searched = [a for a in answers if "moveInfos" in a]
    unsearched = [a for a in answers if "moveInfos" not in a]
    assert searched and unsearched and answers[:len(searched)] == searched  # the searched turns come first
    assert all(a["noResults"] and a["timedOut"] and not a["isDuringSearch"] and "terminated" not in a
               for a in unsearched)


def test_analysed_turns_after_a_terminate_are_answered_once_each_as_terminated():
    turns = 2000
    query = {"id": "t", "game": "memorinth", "action": "hint", "state": S, "analyzeTurns": [0] * turns,
             "limits": {"time_ms": 1}}
    out = TimedLines()
    engine = Engine(out, threads=1)
    engine.handle_line(json.dumps(query))
    time.sleep(0.3)
    sent = time.perf_counter()
    engine.handle_line(json.dumps({"id": "stop", "action": "terminate", "terminateId": "t"}))
    engine.close()
    answers = finals(out, "t")
    assert len(answers) == turns
    assert out.of("t")[-1][0] - sent < 0.2 + SLACK_S
    assert answers[-1]["terminated"] and answers[-1]["noResults"] and "timedOut" not in answers[-1]


def test_a_terminated_replay_of_analysed_turns_answers_every_turn():
    """Terminated while its moves are replayed (before any turn is searched): one final answer per turn."""
    spec, start, moves = endless_moves("memorinth", 100_000)
    query = {"id": "t", "game": spec, "action": "hint", "state": start, "moves": moves, "analyzeTurns": [0, 5, 9]}
    out = TimedLines()
    engine = Engine(out, threads=1)
    engine.handle_line(json.dumps(query))
    time.sleep(0.05)
    engine.handle_line(json.dumps({"id": "stop", "action": "terminate", "terminateId": "t"}))
    engine.close()
    answers = finals(out, "t")
    assert [a["turnNumber"] for a in answers] == [0, 5, 9]
    assert all(a["terminated"] and a["noResults"] for a in answers)


@pytest.mark.parametrize("query, cost", [
    ({"action": "apply", "moves": ["x"] * 10}, 0), ({"action": "legal_moves"}, 0), ({"action": "view", "player": 0}, 0),
    ({"action": "new"}, 0), ({"action": "score"}, 0), ({"action": "sample"}, 0), ({"action": "games"}, 0),
    ({"action": "show"}, 0), ({"action": "show", "hint": {"moveInfos": []}}, 0),
    ({"action": "show", "hint": True}, CAP), ({"action": "show", "hint": True, "limits": {"time_ms": 80}}, 80),
    ({"action": "hint", "limits": {"time_ms": 80, "nodes": 10**12}}, 80), ({"action": "hint"}, CAP),
    ({"action": "hint", "limits": {"nodes": 50}}, CAP), ({"action": "hint", "limits": {"time_ms": 10**6}}, CAP),
    ({"action": "hint", "limits": {"time_ms": 1}, "analyzeTurns": [0], "moves": []}, 1),
    ({"action": "hint", "limits": {"time_ms": 1}, "analyzeTurns": [0, 0], "moves": []}, CAP),
    ({"action": "solve", "limits": {"time_ms": 80}}, 80), ({"action": "solve", "limits": {"nodes": 5}}, CAP),
    ({"action": "check", "puzzle": {}, "answer": "", "limits": {"time_ms": 80}}, 80),
    ({"action": "generate", "limits": {"time_ms": 80}}, CAP), ({"action": "review", "record": {},
                                                                "limits": {"time_ms": 80}}, CAP),
])
def test_only_position_actions_and_searches_bounded_by_their_own_time_limit_are_cheap(query, cost):
    """What decides the web board's quick lane (``solver.protocol.cost_ms``): a node budget, several analysed
    turns, a generation or a review never pass as quick whatever ``limits.time_ms`` says."""
    query = {"id": 1, "game": "memorinth", "state": S, **query}
    assert cost_ms(read_query(1, query, query["action"]), CAP) == cost
