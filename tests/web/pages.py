"""What the browser tests share about a page of the board: when it has settled; the client of their own requests."""

from __future__ import annotations

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
