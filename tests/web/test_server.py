"""The web board's HTTP layer, without a browser: the engine protocol over POST, streaming, limits, refusals, and
each defect of issue 23 reproduced (numbers in the test names are the issue's)."""

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest

from solver.registry import game_names
from solver.testing import wait_until
from solver.web import server as web

JSON = {"Content-Type": "application/json"}
LONG = {"game": "pile", "action": "hint", "state": "300:0"}


def post(url, body, page="p1", path="/api/engine", address=None, timeout=60, **kw):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    headers = {**JSON, **({"X-Page-Id": page} if page else {}), **kw.pop("headers", {})}
    if address is None:
        return httpx.post(url + path, content=data, headers=headers, timeout=timeout, **kw)
    with httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=timeout) as client:
        return client.post(url + path, content=data, headers=headers, **kw)


def in_background(fn, *args, **kw):
    """Run ``fn`` in a thread; returns (thread, box) where box[0] is its result."""
    box = []
    thread = threading.Thread(target=lambda: box.append(fn(*args, **kw)), daemon=True)
    thread.start()
    return thread, box


def secured(response):
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    return response


# -- the page and the protocol ---------------------------------------------------------------------
def test_the_page_and_its_modules_are_served_from_the_package_with_the_security_headers(live_server):
    url, _ = live_server
    page = secured(httpx.get(url + "/"))
    assert page.status_code == 200 and "<script type=\"module\" src=\"/static/app.js\">" in page.text
    for name in ("app.js", "api.js", "board.js", "style.css"):
        assert secured(httpx.get(f"{url}/static/{name}")).status_code == 200
    missing = secured(httpx.get(url + "/nowhere"))
    assert missing.status_code == 404 and missing.json()["error"].startswith("no such page")
    assert httpx.get(url + "/static/../server.py").status_code == 404


def test_engine_queries_answer_with_their_final_response(live_server):
    url, _ = live_server
    answer = post(url, {"id": "a", "game": "pile", "action": "hint", "state": "7:0", "limits": {"nodes": 5}})
    assert answer.status_code == 200 and answer.json()["id"] == "a"
    assert answer.json()["moveInfos"][0]["move"] == "take1"
    assert int(answer.headers["x-queue-wait-ms"]) >= 0
    games = post(url, {"id": "g", "action": "games"}).json()["games"]
    assert {g["name"] for g in games} == set(game_names())  # the toy game too
    turns = post(url, {"id": "t", "game": "pile", "action": "hint", "state": "7:0", "moves": ["take1", "take2"],
                       "analyzeTurns": [0, 2], "limits": {"nodes": 3}}).json()
    assert [t["turnNumber"] for t in turns["turns"]] == [0, 2]


@pytest.mark.parametrize("body, status, field, fragment", [
    ("{not json", 400, None, "malformed JSON"),
    ("[1, 2]", 400, None, "JSON object"),
    ({"id": 1, "game": "nope", "action": "hint", "state": "3:0"}, 400, "game", "unknown game"),
    ({"id": 1, "game": "pile", "action": "hint", "state": "x"}, 400, "state", "PILE:PLAYER"),
    ({"id": 1, "game": "embers(deck=/etc/passwd)", "action": "new"}, 400, "game.deck", "data files only"),
    ({"id": 1, "game": "memorinth(deck=../../../../etc/hostname)", "action": "new"}, 400, "game.deck", "data files"),
    ({"id": 1, "game": "pile", "action": "apply", "state": "3:0", "moves": ["take9"]}, 400, "moves[0]", "take1"),
    ({"id": 1, "action": "terminate", "terminateId": [1]}, 400, "terminateId", "expected the id"),
])
def test_bad_requests_get_the_engines_error_and_a_4xx_status(live_server, body, status, field, fragment):
    url, _ = live_server
    answer = secured(post(url, body))
    assert answer.status_code == status
    assert set(answer.json()) == {"id", "error", "field"}
    assert answer.json()["field"] == field and fragment in answer.json()["error"]
    assert "Traceback" not in answer.text


def test_9_a_nan_state_is_answered_with_the_querys_id(live_server):
    url, _ = live_server
    answer = post(url, '{"id": "q", "game": "pile", "action": "hint", "state": NaN}')
    assert answer.status_code == 400 and answer.json()["id"] == "q" and answer.json()["field"] == "state"
    deep = post(url, '{"id": "d", "game": "pile", "state": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert deep.status_code == 400 and deep.json()["id"] == "d"


def test_9_query_version_with_an_unknown_key_still_answers_the_version(live_server):
    url, _ = live_server
    answer = post(url, {"id": "v", "action": "query_version", "colour": "red"}).json()
    assert answer["version"] and answer["id"] == "v" and answer["warnings"] == ["colour"]


def test_9_every_error_is_json_404_405_413_redirects(live_server):
    url, _ = live_server
    big = secured(post(url, '{"id": 1, "state": "' + "a" * (web.MAX_BODY_BYTES + 10) + '"}'))
    assert big.status_code == 413 and "larger than" in big.json()["error"]
    wrong = secured(httpx.get(url + "/api/engine"))
    assert wrong.status_code == 405 and "not allowed" in wrong.json()["error"]
    moved = secured(httpx.get(url + "/static", follow_redirects=False))
    assert 300 <= moved.status_code < 400 and moved.json()["error"].startswith("moved to")
    for response in (big, wrong, moved):
        assert set(response.json()) == {"id", "error", "field"}


# -- 5: any web page or DNS name could drive it ---------------------------------------------------------------
def test_5_a_cross_site_form_post_with_text_plain_runs_nothing(live_server):
    url, app = live_server
    body = json.dumps({"id": 1, **LONG, "limits": {"time_ms": 3000}})
    plain = secured(httpx.post(url + "/api/engine", content=body, headers={"Content-Type": "text/plain"}))
    assert plain.status_code == 415 and plain.json()["field"] == "Content-Type"
    foreign = post(url, body, headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403 and foreign.json()["field"] == "Origin"
    assert app.state.pages.scheduler.stats()["running"] == 0


def test_5_a_rebound_dns_name_is_refused(live_server):
    url, _ = live_server
    rebound = post(url, {"id": 1, "action": "query_version"}, headers={"Host": "evil.example:8765"})
    assert rebound.status_code == 403 and rebound.json()["field"] == "Host"
    assert secured(httpx.get(url + "/", headers={"Host": "evil.example"})).status_code == 403
    assert httpx.get(url + "/", headers={"Host": "localhost"}).status_code == 200


def test_5_binding_the_network_needs_allow_remote(capsys):
    from solver.cli import main
    assert main(["serve", "--host", "0.0.0.0", "--port", "1"]) == 2
    assert "--allow-remote" in capsys.readouterr().err


# -- 4 and 6: admission control by address, never by a chosen name --------------------------------------------
def test_4_a_new_page_id_per_request_does_not_get_around_the_clients_share(board):
    url, app = board(threads=2, max_per_client=2)
    running = [in_background(post, url, {"id": f"h{i}", **LONG, "limits": {"time_ms": 1500}}, page=f"page-{i}")
               for i in range(2)]
    assert wait_until(lambda: app.state.pages.searches_of("127.0.0.1") == 2)
    renamed = post(url, {"id": "three", **LONG, "limits": {"time_ms": 100}}, page="page-new")
    assert renamed.status_code == 429 and int(renamed.headers["retry-after"]) >= 1
    assert renamed.json()["id"] == "three" and "already has 2 queries" in renamed.json()["error"]
    other = post(url, {"id": "other", "game": "pile", "action": "score", "state": "4:0"}, address="127.0.0.2")
    assert other.status_code == 200
    for i in range(2):  # checked: each page stops its own (not waiting out its time limit), answered as before
        assert post(url, {"id": f"stop{i}", "action": "terminate", "terminateId": f"h{i}"},
                    page=f"page-{i}").json()["terminated"] == 1
    for thread, box in running:
        thread.join(10)
        assert box[0].status_code == 200
    assert wait_until(lambda: app.state.pages.searches_of("127.0.0.1") == 0)
    assert post(url, {"id": "again", **LONG, "limits": {"time_ms": 50}}).status_code == 200


def test_4_the_queue_is_bounded_and_a_full_queue_answers_503_with_retry_after(board):
    url, app = board(threads=1, max_queue=1, max_per_client=4)
    first = in_background(post, url, {"id": "run", **LONG, "limits": {"time_ms": 1500}}, address="127.0.0.2")
    assert wait_until(lambda: app.state.pages.scheduler.stats()["running"] == 1)
    second = in_background(post, url, {"id": "wait", **LONG, "limits": {"time_ms": 1000}}, address="127.0.0.3")
    assert wait_until(lambda: app.state.pages.scheduler.stats()["queued"] == 1)
    queued = time.perf_counter()
    full = secured(post(url, {"id": "full", **LONG, "limits": {"time_ms": 1000}}, address="127.0.0.4"))
    assert full.status_code == 503 and 1 <= int(full.headers["retry-after"]) <= 2 and full.json()["id"] == "full"
    quick = post(url, {"id": "moves", "game": "pile", "action": "legal_moves", "state": "4:0"}, address="127.0.0.5")
    assert quick.status_code == 200  # the quick lane has a queue of its own: a click still gets through
    # checked: the searches are stopped by their own clients, not waited out; the second waited at least from when
    # it was seen queued to when the first was stopped
    stopped = time.perf_counter()
    post(url, {"id": "stop1", "action": "terminate", "terminateId": "run"}, address="127.0.0.2")
    assert wait_until(lambda: app.state.pages.scheduler.stats()["queued"] == 0)
    post(url, {"id": "stop2", "action": "terminate", "terminateId": "wait"}, address="127.0.0.3")
    for thread, box in (first, second):
        thread.join(10)
        assert box[0].status_code == 200
    assert int(second[1][0].headers["x-queue-wait-ms"]) >= int((stopped - queued) * 1000) > 0


def test_4_priority_orders_only_a_clients_own_queries(board):
    url, app = board(threads=1)
    finished = []

    def timed(qid, address, priority, time_ms=700):
        response = post(url, {"id": qid, **LONG, "limits": {"time_ms": time_ms}, "priority": priority},
                        address=address)
        finished.append(qid)
        return response
    # the worker is held until both others wait (terminated then, not after a time a loaded machine may outlast)
    busy = in_background(timed, "busy", "127.0.0.2", 0, 60_000)
    assert wait_until(lambda: app.state.pages.scheduler.stats()["running"] == 1)
    patient = in_background(timed, "patient", "127.0.0.3", 0)
    assert wait_until(lambda: app.state.pages.scheduler.stats()["queued"] == 1)
    pushy = in_background(timed, "pushy", "127.0.0.4", 2**31 - 1)
    assert wait_until(lambda: app.state.pages.scheduler.stats()["queued"] == 2)
    stop = post(url, {"id": "stop", "action": "terminate", "terminateId": "busy"}, address="127.0.0.2").json()
    assert stop["terminated"] == 1
    for thread, box in (busy, patient, pushy):
        thread.join(10)
        assert box[0].status_code == 200
    assert finished == ["busy", "patient", "pushy"]


def test_4_quick_queries_do_not_wait_behind_long_searches(board):
    url, app = board(threads=1)
    long = [in_background(post, url, {"id": f"long{i}", **LONG, "limits": {"time_ms": 1000}},
                          address=f"127.0.0.{2 + i}") for i in range(3)]
    assert wait_until(lambda: app.state.pages.scheduler.stats()["queued"] == 2)
    started = time.perf_counter()
    quick = post(url, {"id": "q", **LONG, "limits": {"time_ms": 10}}, address="127.0.0.9")
    moves = post(url, {"id": "m", "game": "pile", "action": "legal_moves", "state": "4:0"}, address="127.0.0.9")
    assert quick.status_code == 200 and moves.status_code == 200
    assert time.perf_counter() - started < 1.0  # not behind 3 x 1 s of long searches
    for i, (thread, _) in enumerate(long):  # checked: stopped by their own clients, not waited out
        post(url, {"id": f"stop{i}", "action": "terminate", "terminateId": f"long{i}"}, address=f"127.0.0.{2 + i}")
        thread.join(15)


def test_4_a_client_that_disconnects_from_api_engine_has_its_search_terminated(board, caplog):
    url, app = board(threads=1)
    with caplog.at_level(logging.INFO, logger="solver.web"):
        with pytest.raises(httpx.ReadTimeout):
            post(url, {"id": "gone", **LONG, "limits": {"time_ms": 20000}}, timeout=0.5)
        assert wait_until(lambda: app.state.pages.searches_of("127.0.0.1") == 0, timeout=3)
    assert post(url, {"id": "next", **LONG, "limits": {"time_ms": 50}}).status_code == 200
    lines = [r.getMessage() for r in caplog.records if r.name == "solver.web"]
    assert len(lines) == 1 and "abandoned: POST /api/engine from 127.0.0.1" in lines[0] and "'gone'" in lines[0]


def test_a_client_that_disconnects_mid_stream_has_its_search_terminated(live_server):
    url, app = live_server
    pages = app.state.pages
    started = time.perf_counter()
    with httpx.stream("POST", url + "/api/stream", timeout=60, headers={**JSON, "X-Page-Id": "gone"},
                      content=json.dumps({"id": "x", **LONG, "limits": {"time_ms": 20000},
                                          "reportDuringSearchEvery": 0.2})) as response:
        for line in response.iter_lines():
            if line.startswith("data: "):
                break  # the first interim answer, then the client goes away
    assert wait_until(lambda: pages.searches_of("127.0.0.1") == 0)
    assert time.perf_counter() - started < 10


def test_6_a_page_can_stop_its_own_search_but_not_another_pages_or_another_clients(board):
    url, app = board(threads=2)
    mine = in_background(post, url, {"id": "mine", **LONG, "limits": {"time_ms": 20000}}, page="owner")
    anonymous = in_background(post, url, {"id": "anon", **LONG, "limits": {"time_ms": 20000}}, page=None,
                              address="127.0.0.3")
    assert wait_until(lambda: app.state.pages.scheduler.stats()["running"] == 2)
    stranger = post(url, {"id": "t1", "action": "terminate", "terminateId": "mine"}, page="stranger").json()
    elsewhere = post(url, {"id": "t2", "action": "terminate", "terminateId": "anon"}, page=None,
                     address="127.0.0.2").json()
    everything = post(url, {"id": "t3", "action": "terminate_all"}, page=None, address="127.0.0.2").json()
    assert stranger["terminated"] == 0 and elsewhere["terminated"] == 0 and everything["terminated"] == 0
    owner = post(url, {"id": "t4", "action": "terminate", "terminateId": "mine"}, page="owner").json()
    anon_owner = post(url, {"id": "t5", "action": "terminate_all"}, page=None, address="127.0.0.3").json()
    assert owner["terminated"] == 1 and anon_owner["terminated"] == 1
    for thread, box in (mine, anonymous):
        thread.join(10)
        assert box[0].json()["terminated"] is True


# -- 3 and 7: one final answer per turn --------------------------------------------------------------------
def test_3_analyze_turns_terminated_while_queued_is_answered_once_per_turn_and_the_count_falls(board):
    url, app = board(threads=1, max_per_client=2)
    busy = in_background(post, url, {"id": "busy", **LONG, "limits": {"time_ms": 20000}}, page="a")  # outlasts the
    # three attempts however loaded the machine; terminated at the end
    assert wait_until(lambda: app.state.pages.scheduler.stats()["running"] == 1)
    for attempt in range(3):  # each time answered; the client's count falls back, no 429 for good
        turns = in_background(post, url, {"id": "t", "game": "pile", "action": "hint", "state": "7:0",
                                          "moves": ["take1"], "analyzeTurns": [0, 0, 1], "limits": {"nodes": 5}},
                              page="a")
        assert wait_until(lambda: app.state.pages.scheduler.stats()["queued"] == 1)
        stop = post(url, {"id": f"s{attempt}", "action": "terminate", "terminateId": "t"}, page="a").json()
        assert stop["terminated"] == 1
        turns[0].join(5)
        answer = turns[1][0].json()
        assert [t["turnNumber"] for t in answer["turns"]] == [0, 0, 1]
        assert all(t["terminated"] and t["noResults"] and t["id"] == "t" for t in answer["turns"])
        assert app.state.pages.searches_of("127.0.0.1") == 1
    assert post(url, {"id": "end", "action": "terminate", "terminateId": "busy"}, page="a").json()["terminated"] == 1
    busy[0].join(10)


def test_7_api_stream_with_analyze_turns_streams_every_turn(live_server):
    url, _ = live_server
    events = []
    with httpx.stream("POST", url + "/api/stream", timeout=60, headers=JSON,
                      content=json.dumps({"id": "s", "game": "pile", "action": "hint", "state": "9:0",
                                          "moves": ["take1", "take2"], "analyzeTurns": [0, 1, 2],
                                          "limits": {"nodes": 20}})) as response:
        for line in response.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
    finals = [e for e in events if not e["isDuringSearch"]]
    assert [e["turnNumber"] for e in finals] == [0, 1, 2] and all(e["id"] == "s" for e in finals)


def test_streamed_hints_send_interim_answers_then_the_final_one(live_server):
    url, _ = live_server
    events = []
    with httpx.stream("POST", url + "/api/stream", timeout=60, headers=JSON,
                      content=json.dumps({"id": "s", **LONG, "limits": {"time_ms": 1200},
                                          "reportDuringSearchEvery": 0.2})) as response:
        for line in response.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
    assert len(events) >= 3 and all(e["isDuringSearch"] for e in events[:-1])
    assert events[-1]["isDuringSearch"] is False and events[-1]["id"] == "s"


# -- 1 and 2: the cap, whatever the node budget ---------------------------------------------------------------
def test_1_a_node_budget_runs_under_the_servers_cap(board):
    url, _ = board(threads=1, max_time_ms=400)
    started = time.perf_counter()
    answer = post(url, {"id": "n", **LONG, "limits": {"nodes": 2**31, "time_ms": 100_000}})
    assert answer.status_code == 200 and time.perf_counter() - started < 0.4 + 1.5
    started = time.perf_counter()
    assert post(url, {"id": "m", **LONG, "limits": {"nodes": 10**12}}).status_code == 200
    assert time.perf_counter() - started < 0.4 + 1.5


# -- 8: quiet logs -----------------------------------------------------------------------------------------
def test_8_uploads_abandoned_mid_body_are_one_line_each_never_a_traceback(live_server, caplog):
    url, _ = live_server
    port = int(url.rsplit(":", 1)[1])
    with caplog.at_level(logging.INFO):
        for _ in range(5):
            with socket.create_connection(("127.0.0.1", port)) as connection:
                connection.sendall(b"POST /api/engine HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                                   b"\r\nContent-Length: 5000\r\n\r\n{\"id\": 1, ")
                time.sleep(0.05)
        assert wait_until(lambda: sum("abandoned" in r.getMessage() for r in caplog.records) == 5, timeout=5)
    assert "Traceback" not in caplog.text and "ClientDisconnect" not in caplog.text
    assert all(r.exc_info is None for r in caplog.records)


def accepts(port: int) -> bool:
    """Whether something listens on ``port`` of 127.0.0.1."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


# -- clean shutdown --------------------------------------------------------------------------------------
@pytest.mark.serial  # a wall-clock cap
def test_3_one_sigint_stops_the_server_within_two_seconds_answering_everything(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", str(port), "--threads", "1",
                               "--max-searches-per-client", "1", "--db", str(tmp_path / "games.sqlite3")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"}, cwd=tmp_path)
    try:
        assert "games are kept in" in server.stdout.readline()
        assert "web board is at" in server.stdout.readline()
        assert wait_until(lambda: accepts(port), timeout=30)  # the line is printed just before uvicorn binds
        url = f"http://127.0.0.1:{port}"
        state = "2p base SN | 7S,12M,20S,11M,9S/21M,1S,18M,19S,23M/4S,6M,CS,15M,10S/22M,8S,16M,24S,13M/5S,2M,14S," \
                "17M,3S | c3,c3 | N=GH E=RX S=BT W=FP | r1 p0 flip"
        query = {"game": "memorinth", "action": "hint", "state": state, "limits": {"nodes": 10**9}}

        def admitted(address):
            """Whether the server holds a query of ``address``: with one query a client, a quick one of its own is
            refused 429 (else it answers at once on the quick worker, and leaves nothing behind)."""
            probe = {"id": "probe", "game": "memorinth", "action": "legal_moves", "state": state}
            return post(url, probe, address=address).status_code == 429

        def sent_until_admitted(body, address):
            """``body`` posted from ``address``, again while refused 429 (a probe of its own got there first)."""
            while (answer := post(url, body, address=address)).status_code == 429:
                time.sleep(0.02)
            return answer
        running = in_background(sent_until_admitted, {"id": "run", **query}, "127.0.0.2")
        assert wait_until(lambda: admitted("127.0.0.2"), timeout=30)  # it runs: the one worker is free
        queued = in_background(sent_until_admitted, {"id": "queued", **query}, "127.0.0.3")
        assert wait_until(lambda: admitted("127.0.0.3"), timeout=30)  # it waits behind the running one
        sent = time.perf_counter()
        server.send_signal(signal.SIGINT)
        server.wait(timeout=5)
        assert time.perf_counter() - sent < 2.0
        running[0].join(5)
        queued[0].join(5)
        assert running[1][0].status_code == 200 and running[1][0].json()["terminated"] is True
        assert queued[1][0].status_code == 503 and "shutting down" in queued[1][0].json()["error"]
        assert "Traceback" not in server.stderr.read()
    finally:
        if server.poll() is None:
            server.kill()


# -- the interface other routes submit their work to (the table server's) -------------------------------------
def test_other_routes_run_their_work_on_the_same_workers_with_the_same_limits(board):
    from starlette.responses import JSONResponse
    url, app = board(threads=1, max_per_client=1)
    ran, checked = [], threading.Event()

    def slow(cancel):
        """2 s of work that watches its cancel event; the first call is done as soon as the test has checked the
        calls made while it runs (not waited out)."""
        first = not ran
        ran.append("running")
        for _ in range(100):
            if cancel.wait(0.02):
                ran.append("stopped")
                return "stopped"
            if first and checked.is_set():
                break
        ran.append("done")
        return "done"

    async def tables(request):
        return JSONResponse({"result": await request.app.state.pages.call(request, slow, cost_ms=2000)})
    app.add_route("/api/tables", tables, methods=["POST"])
    first = in_background(post, url, {}, path="/api/tables")
    assert wait_until(lambda: app.state.pages.searches_of("127.0.0.1") == 1)
    second = post(url, {}, path="/api/tables")
    assert second.status_code == 429 and second.headers["retry-after"] and set(second.json()) == {"id", "error",
                                                                                                  "field"}
    foreign = post(url, {}, path="/api/tables", headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403  # the middleware guards the new route too
    checked.set()
    first[0].join(10)
    assert first[1][0].json() == {"result": "done"} and secured(first[1][0])
    with pytest.raises(httpx.ReadTimeout):
        post(url, {}, path="/api/tables", timeout=0.3)
    assert wait_until(lambda: ran[-1:] == ["stopped"], timeout=5)


def test_work_that_raises_hands_its_exception_to_the_route(board):
    """``pages.call`` re-raises the work's exception in the route (it once lost it and the request hung)."""
    from starlette.responses import JSONResponse
    url, app = board(threads=1)

    def refuse(cancel):
        raise ValueError("an illegal move")

    async def tables(request):
        try:
            await request.app.state.pages.call(request, refuse, cost_ms=0)
        except ValueError as exc:
            return JSONResponse({"id": None, "error": str(exc), "field": "moves[0]"}, status_code=400)
        return JSONResponse({"result": "ran"})
    app.add_route("/api/tables", tables, methods=["POST"])
    answer = post(url, {}, path="/api/tables", timeout=10)
    assert answer.status_code == 400 and answer.json()["error"] == "an illegal move"
