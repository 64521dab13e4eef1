"""The web board's HTTP layer, without a browser: the engine protocol over POST, streaming, limits, refusals."""

import json
import threading
import time

import httpx
import pytest

from solver.registry import game_names
from solver.web import server as web


def post(url, body, page="p1", path="/api/engine", **kw):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return httpx.post(url + path, content=data, headers={"X-Page-Id": page}, timeout=60, **kw)


def test_the_page_and_its_modules_are_served_from_the_package(live_server):
    url, _ = live_server
    page = httpx.get(url + "/")
    assert page.status_code == 200 and "<script type=\"module\" src=\"/static/app.js\">" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("app.js", "api.js", "board.js", "style.css"):
        assert httpx.get(f"{url}/static/{name}").status_code == 200
    missing = httpx.get(url + "/nowhere")
    assert missing.status_code == 404 and missing.json()["error"].startswith("no such page")
    assert httpx.get(url + "/static/../server.py").status_code == 404


def test_engine_queries_answer_with_their_final_response(live_server):
    url, _ = live_server
    answer = post(url, {"id": "a", "game": "pile", "action": "hint", "state": "7:0", "limits": {"nodes": 5}})
    assert answer.status_code == 200 and answer.json()["id"] == "a"
    assert answer.json()["moveInfos"][0]["move"] == "take1"
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
])
def test_bad_requests_get_the_engines_error_and_a_4xx_status(live_server, body, status, field, fragment):
    url, _ = live_server
    answer = post(url, body)
    assert answer.status_code == status
    assert set(answer.json()) == {"id", "error", "field"}
    assert answer.json()["field"] == field and fragment in answer.json()["error"]
    assert "Traceback" not in answer.text


def test_oversized_requests_are_refused_before_they_are_read(live_server):
    url, _ = live_server
    big = post(url, '{"id": 1, "state": "' + "a" * (web.MAX_BODY_BYTES + 10) + '"}')
    assert big.status_code == 413 and "larger than" in big.json()["error"]


def test_each_page_runs_a_limited_number_of_searches_at_once(live_server):
    url, app = live_server
    results = []

    def long_hint(page):
        results.append(post(url, {"id": page, "game": "pile", "action": "hint", "state": "300:0",
                                  "limits": {"time_ms": 1500}}, page="busy"))
    threads = [threading.Thread(target=long_hint, args=(f"h{i}",)) for i in range(web.MAX_SEARCHES_PER_PAGE)]
    for t in threads:
        t.start()
    time.sleep(0.4)
    refused = post(url, {"id": "one-more", "game": "pile", "action": "hint", "state": "300:0"}, page="busy")
    other_page = post(url, {"id": "other", "game": "pile", "action": "score", "state": "4:0"}, page="calm")
    for t in threads:
        t.join()
    assert refused.status_code == 429 and "stop one first" in refused.json()["error"]
    assert other_page.status_code == 200
    assert all(r.status_code == 200 for r in results)


def test_streamed_hints_send_interim_answers_then_the_final_one(live_server):
    url, _ = live_server
    events = []
    with httpx.stream("POST", url + "/api/stream", timeout=60, headers={"X-Page-Id": "s"},
                      content=json.dumps({"id": "s", "game": "pile", "action": "hint", "state": "300:0",
                                          "limits": {"time_ms": 1200}, "reportDuringSearchEvery": 0.2})) as response:
        for line in response.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
    assert len(events) >= 3 and all(e["isDuringSearch"] for e in events[:-1])
    assert events[-1]["isDuringSearch"] is False and events[-1]["id"] == "s"


def test_a_client_that_disconnects_mid_search_has_its_search_terminated(live_server):
    url, app = live_server
    pages = app.state.pages
    started = time.perf_counter()
    with httpx.stream("POST", url + "/api/stream", timeout=60, headers={"X-Page-Id": "gone"},
                      content=json.dumps({"id": "x", "game": "pile", "action": "hint", "state": "300:0",
                                          "limits": {"time_ms": 20000}, "reportDuringSearchEvery": 0.2})) as response:
        for line in response.iter_lines():
            if line.startswith("data: "):
                break  # the first interim answer, then the client goes away
    for _ in range(100):
        if pages.searches_of("gone") == 0:
            break
        time.sleep(0.1)
    assert pages.searches_of("gone") == 0
    assert time.perf_counter() - started < 10


def test_a_page_can_stop_its_own_search_but_not_another_pages(live_server):
    url, _ = live_server
    out = {}

    def long_hint():
        out["answer"] = post(url, {"id": "mine", "game": "pile", "action": "hint", "state": "300:0",
                                   "limits": {"time_ms": 20000}}, page="owner")
    thread = threading.Thread(target=long_hint)
    thread.start()
    time.sleep(0.3)
    stranger = post(url, {"id": "t1", "action": "terminate", "terminateId": "mine"}, page="stranger").json()
    owner = post(url, {"id": "t2", "action": "terminate", "terminateId": "mine"}, page="owner").json()
    thread.join(timeout=10)
    assert stranger["terminated"] == 0 and owner["terminated"] == 1
    assert out["answer"].json()["terminated"] is True
