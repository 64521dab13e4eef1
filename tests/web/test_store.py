"""The table server's storage (solver/web/store.py): nothing acknowledged is lost, whatever happens to the server.

A real ``memory-solver serve --db PATH`` in its own process is killed with SIGKILL while a client enters moves as
fast as it can; restarted on the same database, every move the server acknowledged is there, the game goes on,
and neither run wrote a key to its output.
"""

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from solver.web.store import SCHEMA_VERSION, Store, StoreError, StoredGame, StoredMove

TWO_HUMANS = [{"player": 0, "by": "human"}, {"player": 1, "by": "human"}]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``memory-solver serve`` in a process of its own."""

    def __init__(self, db, port):
        self.url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", str(port), "--db", str(db),
                                         "--threads", "1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1"},
                                        cwd=Path(db).parent)  # outside the source tree: the installed build
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/favicon.ico", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.kill()
        raise AssertionError("the server did not start: " + self.output())

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def output(self):
        return self.process.stdout.read().decode(errors="replace") if self.process.stdout else ""


def test_a_kill_9_mid_game_loses_no_acknowledged_move_and_the_game_goes_on(tmp_path):
    db = tmp_path / "games.sqlite3"
    port = free_port()
    server = Server(db, port)
    logs = ""
    try:
        created = httpx.post(server.url + "/api/games", json={"game": "forgotten", "seed": 3, "seats": TWO_HUMANS},
                             timeout=30).json()
        keys = {s["player"]: s["key"] for s in created["seats"]}
        base = f"{server.url}/api/games/{created['id']}"
        acknowledged = []
        stop = threading.Event()

        def enter_moves():
            """Each seat to move plays its first legal move, as fast as the server acknowledges."""
            with httpx.Client(timeout=30) as client:
                while not stop.is_set():
                    try:
                        answers = {p: client.get(f"{base}/{k}").json() for p, k in keys.items()}
                        seat = next(p for p, a in answers.items() if a["legalMoves"])
                        reply = client.post(f"{base}/{keys[seat]}/moves",
                                            json={"moves": [answers[seat]["legalMoves"][0]],
                                                  "expect": len(answers[seat]["record"]["moves"])})
                    except (httpx.HTTPError, StopIteration, ValueError):
                        return
                    if reply.status_code == 200:
                        acknowledged.append((seat, reply.json()["record"]["moves"]))

        client = threading.Thread(target=enter_moves)
        client.start()
        deadline = time.monotonic() + 60
        while len(acknowledged) < 6 and time.monotonic() < deadline:
            time.sleep(0.02)
        server.kill()  # mid-game: the client is entering moves as fast as it can
        stop.set()
        client.join(timeout=30)
        logs += server.output()
        assert len(acknowledged) >= 6
        seat, last = acknowledged[-1]

        server = Server(db, port)
        resumed = {p: httpx.get(f"{base}/{k}", timeout=30).json() for p, k in keys.items()}
        kept = resumed[seat]["record"]["moves"]
        assert kept[:len(last)] == last and len(kept) <= len(last) + 2  # at most the move in flight besides
        seat = next(p for p, a in resumed.items() if a["legalMoves"])
        more = httpx.post(f"{base}/{keys[seat]}/moves", json={"moves": [resumed[seat]["legalMoves"][0]]}, timeout=30)
        assert more.status_code == 200 and len(more.json()["record"]["moves"]) > len(resumed[seat]["record"]["moves"])
    finally:
        server.kill()
        logs += server.output()
    assert f"the games are kept in {db}" in logs
    for key in [*keys.values(), created["table"].rsplit("/", 1)[1]]:
        assert key not in logs


def test_a_database_from_a_newer_memory_solver_is_refused_by_its_path(tmp_path):
    path = tmp_path / "games.sqlite3"
    Store(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match=f"{path}: written by a newer memory-solver"):
        Store(path)


def test_a_file_that_is_not_a_database_is_refused_by_its_path(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a database " * 100)
    with pytest.raises(StoreError, match="notes.txt: cannot open the games' database"):
        Store(path)


def test_moves_are_kept_in_order_and_a_stale_revision_changes_nothing(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    game = StoredGame("g1", "pile", "dealt", 0, {"pile": 5, "player": 0}, seats={0: "human", 1: "human"})
    store.create(game, {"hash0": 0, "hash1": 1, "hasht": None})
    assert store.opens("hash1") == ("g1", 1) and store.opens("hasht") == ("g1", None) and store.opens("x") is None
    move = StoredMove("take1", 0, False, {0: ["take1"], 1: ["take1"]}, "t")
    revision = store.append("g1", 0, 0, [move, StoredMove("take2", 1, False, {0: ["take2"], 1: ["take2"]}, "t")])
    assert revision == 1
    assert store.append("g1", 0, 2, [move]) is None  # stale: revision 0 is gone
    assert store.move_to("g1", 1, 1) == 2  # undo one
    loaded = store.load("g1")
    assert loaded.length == 1 and [m.move for m in loaded.moves] == ["take1", "take2"]  # take2 waits for a redo
    assert store.append("g1", 2, 1, [move]) == 3  # a new move drops what waited
    loaded = store.load("g1")
    assert [m.move for m in loaded.moves] == ["take1", "take1"] and loaded.moves[1].entries == {0: ["take1"],
                                                                                              1: ["take1"]}
    store.close()


@pytest.mark.serial  # a wall-clock cap
def test_ctrl_c_ends_the_open_event_streams_and_the_server_stops_at_once(tmp_path):
    server = Server(tmp_path / "games.sqlite3", free_port())
    try:
        created = httpx.post(server.url + "/api/games", json={"game": "forgotten", "seats": TWO_HUMANS},
                             timeout=30).json()
        ended = threading.Event()

        def listen():
            with httpx.stream("GET", f"{server.url}/api/games/{created['id']}/{created['seats'][0]['key']}/events",
                              timeout=30) as events:
                for _ in events.iter_lines():
                    pass
            ended.set()
        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        time.sleep(0.5)
        started = time.monotonic()
        server.process.send_signal(signal.SIGINT)
        server.process.wait(timeout=10)
        assert time.monotonic() - started < 2.0
        assert ended.wait(5)
    finally:
        if server.process.poll() is None:
            server.kill()
    assert "Traceback" not in server.output()
