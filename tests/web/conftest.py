"""A live web board on a free port, in this process (so the toy game can be registered), for HTTP and browser tests."""

import os
import shutil
import socket
import threading
import time

import pytest

import uvicorn  # noqa: E402  (a core dependency: the web board ships with the package)

from solver.web.server import build_app  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def engine_seat_limits(game):
    """An engine seat's move in the tests: a small node budget (the same move on every machine, and quick)."""
    from solver.search import Limits
    return Limits(nodes=40, time_ms=2000)


@pytest.fixture
def live_server(pile_game, tmp_path):
    """The web board at http://127.0.0.1:PORT with the toy game 'pile' registered beside the five games, its games
    kept in a database of the test's own."""
    port = _free_port()
    app = build_app(threads=2, db=tmp_path / "games.sqlite3", engine_limits=engine_seat_limits)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        from solver.datafiles import unrestrict
        unrestrict()


@pytest.fixture
def browser():
    """Headless Chromium through Playwright (Debian's chromium; Playwright cannot download its own here)."""
    required = os.environ.get("MEMORY_SOLVER_REQUIRE_BROWSER") == "1"
    if required:
        from playwright import sync_api
    else:
        sync_api = pytest.importorskip("playwright.sync_api", reason="pip install 'memory-solver[browser]'")
    if CHROMIUM is None:
        message = "Chromium is not installed: apt-get install chromium (the browser tests drive it with Playwright)"
        if required:
            pytest.fail(message)
        pytest.skip(message)
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield instance
        finally:
            instance.close()
