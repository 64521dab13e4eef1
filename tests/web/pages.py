"""What the browser tests share about a page of the board: when it has settled; the client of their own requests; a
page a module keeps from one test to the next."""

from __future__ import annotations

from contextlib import contextmanager

import httpx

#: the tests' own requests to the test servers, on one client: ``httpx.get`` and ``httpx.post`` make a client a call,
#: and each loads the CA bundle into a TLS context these plain-http requests never use (about 20 ms of CPU a call)
HTTP = httpx.Client(timeout=120)

#: how long a page may stay busy (a review or a hint on a loaded machine)
BUSY_TIMEOUT_MS = 60_000


def settle(page, timeout: int = BUSY_TIMEOUT_MS) -> None:
    """Wait until the page has no action under way and no engine seat thinking (``body[data-busy=false]``,
    solver/web/static/app.js ``guarded``). No fixed pause first: every action of the page is wrapped in ``guarded``,
    which marks the body busy synchronously in the event's handler, and Playwright's click, key press, fill and
    select return only once the page has handled the event, so a busy action is already marked when this looks."""
    page.wait_for_selector("body[data-busy=false]", state="attached", timeout=timeout)


class OwnTab:
    """``tabs.open`` for a page a module keeps from test to test: one context of its own, closed by :meth:`close`."""

    def __init__(self, chromium):
        self.context = chromium.new_context()

    def open(self, width, height, on):
        page = self.context.new_page()
        page.set_viewport_size({"width": width, "height": height})
        for event, handler in on.items():
            page.on(event, handler)
        return page

    def close(self):
        self.context.close()


@contextmanager
def lent_for_a_test(page, errors: list, url: str, request):
    """A kept page (``OwnTab``) lent to one test, around a fixture's ``yield``: the page's ``errors`` are the
    test's own (cleared before it); after a failed test the page is loaded again from ``url``, so the next test
    does not start from whatever the failure left on it."""
    failed = request.session.testsfailed
    errors.clear()
    yield
    if request.session.testsfailed != failed:
        errors.clear()
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]", timeout=30_000)
