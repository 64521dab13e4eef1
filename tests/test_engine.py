"""The JSON-lines engine: good queries, malformed ones, interim reports, terminate; it never dies."""

import io
import importlib
import json
import subprocess
import sys
import threading
import time

import pytest

from solver.engine import Engine


class Lines(io.StringIO):
    def objects(self):
        return [json.loads(line) for line in self.getvalue().splitlines()]


def run(lines, threads=1):
    out = Lines()
    Engine(out, threads=threads).serve([l if isinstance(l, (bytes, str)) else json.dumps(l) for l in lines])
    return out.objects()


def by_id(responses):
    return {r.get("id"): r for r in responses}


def test_hint_response_shape(pile_game):
    [resp] = run([{"id": "a", "game": "pile", "action": "hint", "state": "7:0", "top": 2}])
    assert resp["id"] == "a" and resp["game"] == "pile" and resp["action"] == "hint"
    assert resp["isDuringSearch"] is False
    assert [m["order"] for m in resp["moveInfos"]] == [0, 1]
    assert resp["moveInfos"][0] == {"order": 0, "move": "take1", "value": 1.0, "pv": ["take1"],
                                    "why": "leaves a multiple of 3"}
    assert "rootInfo" in resp


def test_every_action(pile_game):
    out = by_id(run([
        {"id": 1, "game": "pile", "action": "legal_moves", "state": {"pile": 1}},
        {"id": 2, "game": "pile", "action": "score", "state": "4:1"},
        {"id": 3, "game": "pile", "action": "solve", "state": "4:1"},
        {"id": 4, "action": "query_version"},
    ]))
    assert out[1]["moves"] == ["take1"]
    assert out[2]["pile"] == 4
    assert out[3]["optimal"] is True and out[3]["bound"] == 1.0 and out[3]["status"] == "EXHAUSTIVE"
    assert out[3]["winner"] == 1
    assert out[4]["version"] and "aetherya" in out[4]["games"]


def test_hint_is_the_default_action(pile_game):
    [resp] = run([{"id": 9, "game": "pile", "state": "3:0"}])
    assert resp["action"] == "hint" and resp["moveInfos"]


@pytest.mark.parametrize("line, field, fragment", [
    ("{not json", None, "malformed JSON"),
    ("[1, 2]", None, "must be a JSON object"),
    ('"hello"', None, "must be a JSON object"),
    ('{"game": "pile", "state": "3:0"}', "id", "missing"),
    ('{"id": [1], "game": "pile", "state": "3:0"}', "id", "string or an integer"),
    ('{"id": 1, "game": "nope", "state": "3:0"}', "game", "unknown game"),
    ('{"id": 1, "game": "pile(size=3)", "state": "3:0"}', "game.size", "unknown parameter"),
    ('{"id": 1, "game": "pile", "action": "dance", "state": "3:0"}', "action", "expected one of"),
    ('{"id": 1, "game": "pile"}', "state", "missing"),
    ('{"id": 1, "state": "3:0"}', "game", "missing"),
    ('{"id": 1, "game": "pile", "state": "x"}', "state", "PILE:PLAYER"),
    ('{"id": 1, "game": "pile", "state": {"pile": -1}}', "state.pile", "at least 0"),
    ('{"id": 1, "game": "pile", "state": {"pile": 3, "colour": 1}}', "state.colour", "unknown key"),
    ('{"id": 1, "game": "pile", "state": "3:0", "limits": {"time_ms": 0}}', "limits.time_ms", "at least 1"),
    ('{"id": 1, "game": "pile", "state": "3:0", "limits": {"ms": 5}}', "limits.ms", "unknown key"),
    ('{"id": 1, "game": "pile", "state": "3:0", "limits": 5}', "limits", "JSON object"),
    ('{"id": 1, "game": "pile", "state": "3:0", "top": 0}', "top", "at least 1"),
    ('{"id": 1, "game": "pile", "state": "3:0", "top": "3"}', "top", "integer"),
    ('{"id": 1, "game": "pile", "state": "3:0", "seed": -4}', "seed", "at least 0"),
    ('{"id": 1, "game": "pile", "state": "3:0", "fullInformation": "yes"}', "fullInformation", "true or false"),
    ('{"id": 1, "game": "pile", "state": "3:0", "reportDuringSearchEvery": 0}', "reportDuringSearchEvery", "at least"),
    ('{"id": 1, "action": "terminate"}', "terminateId", "missing"),
    (b"\xff\xfe{}", None, "UTF-8"),
])
def test_malformed_queries_get_an_error_and_the_engine_keeps_serving(pile_game, line, field, fragment):
    responses = run([line, {"id": "after", "action": "query_version"}])
    assert len(responses) == 2
    after = next(r for r in responses if r.get("id") == "after")
    error = next(r for r in responses if r.get("id") != "after")
    assert set(error) == {"id", "error", "field"}
    assert error["field"] == field
    assert fragment in error["error"]
    assert after["id"] == "after" and "version" in after


def test_unknown_top_level_field_is_a_warning_not_an_error(pile_game):
    warning, resp = run([{"id": 5, "game": "pile", "state": "3:0", "maxVisits": 10}])
    assert warning == {"id": 5, "warning": "unknown field, ignored", "field": "maxVisits"}
    assert resp["moveInfos"]


def test_interim_reports_then_one_final_response(pile_game):
    responses = run([{"id": "s", "game": "pile", "state": "300:0", "limits": {"time_ms": 400},
                      "reportDuringSearchEvery": 0.05}])
    interim = [r for r in responses if r["isDuringSearch"]]
    final = [r for r in responses if not r["isDuringSearch"]]
    assert len(interim) >= 2 and len(final) == 1
    assert responses[-1] is final[0]


def test_terminate_stops_a_running_search(pile_game):
    out = Lines()
    engine = Engine(out, threads=1)
    engine.handle_line(json.dumps({"id": "long", "game": "pile", "state": "300:0", "limits": {"time_ms": 60000}}))
    engine.handle_line(json.dumps({"id": "queued", "game": "pile", "state": "300:0"}))
    time.sleep(0.2)
    started = time.perf_counter()
    engine.handle_line(json.dumps({"id": "t", "action": "terminate", "terminateId": "long"}))
    engine.handle_line(json.dumps({"id": "t2", "action": "terminate", "terminateId": "queued"}))
    engine.close()
    assert time.perf_counter() - started < 5
    responses = by_id(out.objects())
    assert responses["t"] == {"id": "t", "action": "terminate", "terminated": 1, "terminateId": "long"}
    assert responses["long"]["terminated"] is True and responses["long"]["moveInfos"]
    assert responses["queued"]["noResults"] is True


def test_internal_errors_are_reported_and_the_engine_survives(pile_game, monkeypatch):
    solve = importlib.import_module(type(pile_game).__module__.rpartition(".")[0] + ".solve")
    monkeypatch.setattr(solve, "score", lambda game, payload, **options: 1 / 0)
    err, ok = run([{"id": 1, "game": "pile", "action": "score", "state": "3:0"},
                   {"id": 2, "game": "pile", "action": "legal_moves", "state": "3:0"}])
    assert err["id"] == 1 and "internal error" in err["error"] and err["field"] is None
    assert ok["moves"] == ["take1", "take2"]


def test_engine_process_end_to_end(tmp_path):
    """The real command: queries in on stdin, responses out on stdout, exit 0 when stdin closes."""
    queries = "\n".join([
        json.dumps({"id": 1, "game": "aetherya", "action": "score", "state": "FEFP/MDMH/PHFS/SSGS"}),
        "garbage",
        json.dumps({"id": 2, "game": "aetherya", "action": "score",
                    "state": {"kingdom": "FEFP/MDMH/PHFS/SSGS", "legends": ["plains-3"]}}),
    ]) + "\n"
    proc = subprocess.run([sys.executable, "-c", "import sys; from solver.cli import main; sys.exit(main())",
                           "engine"], input=queries.encode(), capture_output=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(l) for l in proc.stdout.decode().splitlines()]
    got = {l.get("id"): l for l in lines}
    assert set(got) == {1, None, 2}
    assert got[1]["total"] == 16 and got[2]["total"] == 20
    assert got[None]["field"] is None and "malformed JSON" in got[None]["error"]



def test_a_queued_query_gets_its_whole_time_limit(pile_game):
    """The clock of a query starts when a worker picks it up, not when it was read."""
    responses = by_id(run([
        {"id": "first", "game": "pile", "state": "300:0", "limits": {"time_ms": 600}},
        {"id": "second", "game": "pile", "state": "300:0", "limits": {"time_ms": 600}},
    ]))
    # the toy search counts ~1 ms steps until its limit: a starved second query would do almost none
    assert responses["second"]["rootInfo"]["visits"] > 0.5 * responses["first"]["rootInfo"]["visits"]


# ---------------------------------------------------------------------- issue 11: the always-on backend
def test_control_queries_are_answered_at_once_while_a_search_runs(pile_game):
    out = Lines()
    engine = Engine(out, threads=1)
    engine.handle_line(json.dumps({"id": "long", "game": "pile", "state": "300:0", "limits": {"time_ms": 3000}}))
    time.sleep(0.1)
    started = time.perf_counter()
    engine.handle_line(json.dumps({"id": "v", "action": "query_version"}))
    answered = time.perf_counter() - started
    assert any(r.get("id") == "v" for r in out.objects())  # written before the search ends
    engine.handle_line(json.dumps({"id": "t", "action": "terminate_all"}))
    engine.close()
    assert answered < 1.0


def test_data_files_are_read_only_from_the_package_and_data_dirs(tmp_path):
    from solver import datafiles
    deck = tmp_path / "deck.json"
    deck.write_text("{}")
    try:
        datafiles.restrict([])
        responses = by_id(run([
            {"id": "stdin", "game": "embers(deck=/dev/stdin)", "action": "legal_moves", "state": "x"},
            {"id": "other", "game": f"memorinth(deck={deck})", "action": "legal_moves", "state": "x"},
            {"id": "v", "action": "query_version"},
        ]))
        assert responses["stdin"]["field"] == "game.deck" and "--data-dir" in responses["stdin"]["error"]
        assert responses["other"]["field"] == "game.deck"
        assert "version" in responses["v"]
        datafiles.restrict([str(tmp_path)])
        [allowed] = run([{"id": "ok", "game": "memorinth(deck=deck.json)", "action": "legal_moves", "state": "x"}])
        assert allowed["field"] != "game.deck" or "--data-dir" not in allowed["error"]  # found; the deck is bad
    finally:
        datafiles.unrestrict()


def test_huge_numbers_nan_and_deep_nesting_name_the_field_and_keep_the_id():
    responses = run(["9" * 5000,
                     '{"id": "q", "game": "aetherya", "action": "hint", "state": "x", "top": ' + "9" * 5000 + "}",
                     '{"id": "t", "action": "terminate", "terminateId": NaN}',
                     '{"id": "d", "game": "aetherya", "state": ' + "[" * 100000 + "]" * 100000 + "}",
                     {"id": "alive", "action": "query_version"}])
    got = by_id(responses)
    assert "number out of range" in got[None]["error"]
    assert got["q"]["field"] == "top" and got["t"]["field"] == "terminateId"
    assert "nested too deeply" in got["d"]["error"]
    assert got["alive"]["version"]


def test_top_as_a_whole_float_works_in_every_hint():
    responses = by_id(run([{"id": "m", "game": "memorinth", "action": "hint", "top": 2.0, "limits": {"nodes": 40},
                            "state": "2p base SN | 7S,12M,20S,11M,9S/21M,1S,18M,19S,23M/4S,6M,CS,15M,10S/"
                                     "22M,8S,16M,24S,13M/5S,2M,14S,17M,3S | c3,c3 | N=GH E=RX S=BT W=FP | r1 p0 flip"}]))
    assert len(responses["m"]["moveInfos"]) == 2


def test_priority_runs_higher_first_and_ties_in_arrival_order(pile_game):
    out = Lines()
    engine = Engine(out, threads=1)
    engine.handle_line(json.dumps({"id": "busy", "game": "pile", "state": "300:0", "limits": {"time_ms": 300}}))
    time.sleep(0.05)
    for qid, priority in (("low", -1), ("a", 5), ("mid", 0), ("b", 5)):
        engine.handle_line(json.dumps({"id": qid, "game": "pile", "action": "score", "state": "4:0",
                                       "priority": priority}))
    engine.close()
    order = [r["id"] for r in out.objects() if r.get("action") == "score"]
    assert order == ["a", "b", "mid", "low"]


def test_the_log_records_every_query_and_answer_with_timestamps(tmp_path, pile_game):
    log = io.StringIO()
    out = Lines()
    engine = Engine(out, log=log)
    engine.handle_line(json.dumps({"id": 1, "game": "pile", "action": "score", "state": "4:0"}))
    engine.handle_line("{broken")
    engine.close()
    entries = [json.loads(line) for line in log.getvalue().splitlines()]
    assert [("in" in e, "out" in e) for e in entries].count((True, False)) == 2
    assert [("in" in e, "out" in e) for e in entries].count((False, True)) == 2
    assert all(e["time"].endswith("Z") for e in entries)


def test_engine_command_line_limits(tmp_path):
    main = [sys.executable, "-c", "import sys; from solver.cli import main; sys.exit(main())"]
    huge = subprocess.run(main + ["engine", "--threads", "99999999999999999999"], input=b"", capture_output=True,
                          timeout=60, cwd=tmp_path)
    assert huge.returncode == 2 and b"--threads" in huge.stderr and huge.stderr.count(b"\n") == 1  # issue 23
    state = tmp_path / "deep.json"
    state.write_text("[" * 100000 + "]" * 100000)
    deep = subprocess.run(main + ["aetherya", "hint", str(state)], capture_output=True, timeout=60, cwd=tmp_path)
    assert deep.returncode == 1 and b"nested too deeply" in deep.stderr and deep.stderr.count(b"\n") == 1
    state.write_text('{"mode": "base", "players": ' + "9" * 5000 + "}")
    big = subprocess.run(main + ["aetherya", "hint", str(state)], capture_output=True, timeout=60, cwd=tmp_path)
    assert big.returncode == 1 and b"5000 digits" in big.stderr


def test_a_line_longer_than_the_limit_is_refused_without_reading_it_whole():
    from solver.engine import read_lines
    stream = io.BytesIO(b'{"id": 1, "x": "' + b"a" * 5000 + b'"}\n{"id": 2}\n')
    lines = list(read_lines(stream, limit=100))
    assert len(lines) == 2 and len(lines[0]) == 101 and lines[1] == b'{"id": 2}\n'


def test_terminate_stops_a_review_between_and_within_decisions(pile_game):
    from solver.record import Record
    record = Record.start_of(pile_game.parse_state("300:0")).extended(["take1"] * 6, stamp=False).to_json()
    out = Lines()
    engine = Engine(out, threads=1)
    engine.handle_line(json.dumps({"id": "r", "game": "pile", "action": "review", "record": record, "player": 0,
                                   "limits": {"time_ms": 2000}, "reportDuringSearchEvery": 0.05}))
    time.sleep(0.3)
    sent = time.perf_counter()
    engine.handle_line(json.dumps({"id": "t", "action": "terminate", "terminateId": "r"}))
    engine.close()
    final = [r for r in out.objects() if r.get("id") == "r" and not r.get("isDuringSearch")]
    assert len(final) == 1 and final[0]["terminated"] is True
    assert len(final[0]["decisions"]) < 3 and time.perf_counter() - sent < 5
