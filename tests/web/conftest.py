"""Headless Chromium for the browser tests (the live web board, ``live_server``, is in tests/conftest.py)."""

import os
import shutil
from contextlib import ExitStack

import pytest

from solver.testing import serving

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _launched_chromium():
    """Headless Chromium through Playwright (Debian's chromium; Playwright cannot download its own here); with
    MEMORY_SOLVER_REQUIRE_BROWSER=1 a missing browser fails the test instead of skipping it."""
    required = os.environ.get("MEMORY_SOLVER_REQUIRE_BROWSER") == "1"
    if required:
        from playwright import sync_api  # lazy: only the browser tests need Playwright
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


@pytest.fixture
def browser(chromium):
    """The module's headless Chromium for one test: each page the test opens is a context of its own
    (``Browser.new_page``), and every context it opened is closed when it ends, so no state passes between tests
    (one Chromium a module instead of one a test: about a second of start-up each)."""
    yield chromium
    for context in chromium.contexts:
        context.close()


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium for the whole module (each test opens its own contexts)."""
    yield from _launched_chromium()


def _module_server(tmp_path_factory, engine_seat_limits):
    from solver.datafiles import unrestrict
    from solver.web.server import build_app
    app = build_app(threads=2, db=tmp_path_factory.mktemp("tables") / "games.sqlite3",
                    engine_limits=engine_seat_limits)
    try:
        with serving(app, log_level="warning", lifespan="on") as url:
            yield url, app
    finally:
        unrestrict()


@pytest.fixture(scope="module")
def table_server(tmp_path_factory, engine_seat_limits):
    """``(url, app)``: the table server in this process (tests may read its state), on a database of its own."""
    yield from _module_server(tmp_path_factory, engine_seat_limits)


@pytest.fixture(scope="module")
def pile_server(pile_game_for_module, tmp_path_factory, engine_seat_limits):
    """``table_server`` with the toy game 'pile' registered beside the five games (``live_server`` for a module:
    each test deals games of its own on it; the contexts ``browser`` opened are closed before it stops)."""
    yield from _module_server(tmp_path_factory, engine_seat_limits)


@pytest.fixture
def board(pile_game):
    """``board(**capacity)``: a live web board at http://127.0.0.1:PORT with that ``solver.web.server.Capacity``
    (the toy game 'pile' registered); every board started is stopped at the end of the test."""
    from solver.datafiles import unrestrict
    from solver.web.hygiene import json_http_protocol
    from solver.web.server import Capacity, build_app

    with ExitStack() as servers:
        def start(**capacity):
            app = build_app(capacity=Capacity(**capacity))
            url = servers.enter_context(serving(app, log_level="critical", http=json_http_protocol(),
                                                timeout_graceful_shutdown=1))
            return url, app
        yield start
    unrestrict()
