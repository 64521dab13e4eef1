"""Headless Chromium for the browser tests (the live web board, ``live_server``, is in tests/conftest.py)."""

import os
import shutil
from contextlib import ExitStack, suppress

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


class Contexts:
    """The module's headless Chromium, handing out browser contexts that are used again: a context a test closes
    (or leaves open) is emptied (its pages closed, its cookies, permissions and this browser's local storage
    cleared) and kept for the next test that asks for one with the same options, its HTTP cache warm. A page then
    opens in about half the time of a page in a new context (the board's modules are not fetched and compiled
    again). A context whose storage does not come out empty is closed, not kept: no state passes between tests.
    Init scripts stay with their context: it is handed out again only to a test that adds the same scripts
    (``PooledContext.add_init_script`` before its first page)."""

    def __init__(self, chromium):
        self.chromium = chromium
        self.spare: dict[tuple, list] = {}   # (options, init scripts) -> contexts ready to be used again
        self.lent: list[PooledContext] = []  # handed out to the running test

    @staticmethod
    def _key(options, scripts=()):
        return repr(sorted(options.items())), tuple(scripts)

    def take(self, options, scripts=()):
        """A real context with these options and init scripts: a kept one, else a new one (``None`` with scripts
        when none is kept)."""
        kept = self.spare.get(self._key(options, scripts))
        if kept:
            return kept.pop()
        return None if scripts else self.chromium.new_context(**options)

    def new_context(self, **options):
        context = PooledContext(self, options)
        self.lent.append(context)
        return context

    def new_page(self, **options):
        """A page in a context of its own (as ``Browser.new_page``), given back when the test ends."""
        return self.new_context(**options).new_page()

    @property
    def contexts(self):
        return [context.real for context in self.lent]

    def give_back(self, context):
        """Empty ``context`` (a ``PooledContext``) and keep its real context for the next test, or close it."""
        if context in self.lent:
            self.lent.remove(context)
        real = context.real
        try:
            for page in real.pages:
                with suppress(Exception):  # a page on about:blank has no storage; a crashed page cannot answer
                    page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
                page.close()
            real.clear_cookies()
            real.clear_permissions()
            state = real.storage_state()
            clean = not state["cookies"] and not any(origin.get("localStorage") for origin in state["origins"])
        except Exception:  # closed already (``page.context.close()``), or the browser is gone
            clean = False
        if clean:
            self.spare.setdefault(self._key(context.options, context.scripts), []).append(real)
        else:
            with suppress(Exception):
                real.close()

    def give_back_all(self):
        for context in list(self.lent):
            context.close()

    def close(self):
        for kept in self.spare.values():
            for real in kept:
                real.close()
        self.spare.clear()


class PooledContext:
    """A test's browser context (``Browser.new_context``): Playwright's own, with ``close`` giving it back to the
    module's ``Contexts`` and init scripts that choose a kept context which already runs them."""

    def __init__(self, pool, options):
        self.pool, self.options, self.scripts = pool, options, []
        self.real = pool.take(options)

    def add_init_script(self, script=None, **more):
        assert script is not None and not more, "only a script given as text"
        if not self.real.pages:  # no page yet: a kept context with the same scripts will do
            kept = self.pool.take(self.options, [*self.scripts, script])
            if kept is not None:
                self.real.close()
                self.real = kept
                self.scripts.append(script)
                return
        self.real.add_init_script(script)
        self.scripts.append(script)

    def close(self):
        self.pool.give_back(self)

    def __getattr__(self, name):
        return getattr(self.real, name)


@pytest.fixture
def browser(chromium):
    """The module's headless Chromium for one test: each page the test opens is in a context of its own
    (``new_page``, ``new_context``), given back emptied when the test ends (``Contexts``), so no state passes
    between tests. They are given back before the test's own server stops (set up before this fixture): a page
    left open would hold its event stream open and the server would wait for it."""
    yield chromium
    chromium.give_back_all()


@pytest.fixture(autouse=True)
def _contexts_given_back(request):
    """Every context a browser test opened, given back at its end (closed or not, passed or failed): those of a
    test that uses ``chromium`` itself, with the module's server, which stays up."""
    yield
    if "chromium" in request.fixturenames:
        request.getfixturevalue("chromium").give_back_all()


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium for the whole module (each test opens its own contexts, used again: ``Contexts``)."""
    for instance in _launched_chromium():
        pool = Contexts(instance)
        try:
            yield pool
        finally:
            pool.close()


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
    each test deals games of its own on it)."""
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
