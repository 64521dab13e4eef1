"""Headless Chromium for the browser tests (the live web board, ``live_server``, is in tests/conftest.py)."""

import os
import shutil
from contextlib import ExitStack

import pytest

from solver.testing import serving

#: Debian's headless-only build of Chromium (the same Blink, without the windowed browser's machinery: about a sixth
#: less CPU in the browser tests), else its full one
CHROMIUM = shutil.which("chromium-headless-shell") or shutil.which("chromium") or shutil.which("chromium-browser")


def _launched_chromium():
    """Headless Chromium through Playwright (Debian's chromium; Playwright cannot download its own here); with
    MEMORY_SOLVER_REQUIRE_BROWSER=1 a missing browser fails the test instead of skipping it."""
    required = os.environ.get("MEMORY_SOLVER_REQUIRE_BROWSER") == "1"
    if required:
        from playwright import sync_api  # lazy: only the browser tests need Playwright
    else:
        sync_api = pytest.importorskip("playwright.sync_api", reason="pip install 'memory-solver[browser]'")
    if CHROMIUM is None:
        message = ("Chromium is not installed: apt-get install chromium-headless-shell (or chromium; the browser "
                   "tests drive it with Playwright)")
        if required:
            pytest.fail(message)
        pytest.skip(message)
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium for the whole module (one a test would cost about a second of start-up each); the
    tests take their pages from ``tabs``."""
    yield from _launched_chromium()


class Tabs:
    """Pages of the module's Chromium handed from one test to the next. A new page starts a renderer process: in
    a fresh context, its load costs about 0.5 s of CPU, against 0.1-0.2 s for a load in a page already open. A page
    given back is emptied first: the test's listeners and routes removed, every origin it visited cleared of its
    storage (local and session storage, cookies, caches: ``Storage.clearDataForOrigin``), its context's cookies
    and permissions, and it is left on about:blank, so a test still starts from a browser with nothing of the
    tests before it (each page its own context: two pages a test holds share nothing either)."""

    def __init__(self, chromium):
        self.chromium = chromium
        self.free: dict[str, list] = {}      # pages on about:blank, by the script that runs before each load
        self.lent: list = []                 # (page, init script, listeners, origins) of the test running

    def open(self, width=1280, height=900, on=None, init_script=""):
        """A blank page of a context of its own at that viewport, ``on`` ({event: handler}) listening to it and
        ``init_script`` run before every document's own scripts (``BrowserContext.add_init_script``)."""
        free = self.free.setdefault(init_script, [])
        if free:
            page = free.pop()
        else:
            context = self.chromium.new_context()
            if init_script:
                context.add_init_script(init_script)
            page = context.new_page()
        page.set_viewport_size({"width": width, "height": height})
        origins: set[str] = set()
        listeners = {"framenavigated": lambda frame: origins.add(_origin(frame.url)), **(on or {})}
        for event, handler in listeners.items():
            page.on(event, handler)
        self.lent.append((page, init_script, listeners, origins))
        return page

    def give_back(self, reuse=True):
        """The pages the test opened: emptied and kept for the next test (``reuse``), else closed."""
        lent, self.lent = self.lent, []
        for page, init_script, listeners, origins in lent:
            if reuse and not page.is_closed():
                try:
                    _empty(page, listeners, origins)
                except Exception:  # a page that cannot be emptied is not handed on  # noqa: BLE001
                    page.context.close()
                else:
                    self.free[init_script].append(page)
            else:
                page.context.close()


def _origin(url):
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/')[0]}" if scheme in ("http", "https") else None


def _empty(page, listeners, origins):
    for event, handler in listeners.items():
        page.remove_listener(event, handler)
    page.unroute_all(behavior="ignoreErrors")
    page.goto("about:blank")
    cdp = page.context.new_cdp_session(page)
    try:
        for origin in origins - {None}:
            cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    finally:
        cdp.detach()
    page.context.clear_cookies()
    page.context.clear_permissions()


@pytest.fixture(scope="module")
def _tabs(chromium):
    tabs = Tabs(chromium)
    yield tabs
    tabs.give_back(reuse=False)
    for pages in tabs.free.values():
        for page in pages:
            page.context.close()


@pytest.fixture
def tabs(_tabs, request):
    """The module's ``Tabs``: ``tabs.open(width, height, on={event: handler}, init_script=...)`` is a blank page of
    a context of its own; at the end of the test each page it opened is emptied for the next test, or closed when
    the test failed (a page left mid-action is not handed on)."""
    failed = request.session.testsfailed
    yield _tabs
    _tabs.give_back(reuse=request.session.testsfailed == failed)


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
