"""Screenshots of the web board for the docs: ``python docs/screenshots/make.py --game GAME [--phone DIR]``.

Starts the web board on a free local port (in this process), drives the page in headless Chromium through
Playwright (Debian's ``chromium``, as the browser tests do) and writes, at a laptop's size (1280x900):

* ``docs/screenshots/<game>-start.png``: a seeded game just dealt;
* ``docs/screenshots/<game>-hint.png``: a few moves later, a hint shown on the board and in the list;
* ``docs/screenshots/<game>-review.png``: the review of the game so far.

``--phone DIR`` also writes the same three at a phone's width (390 px, the whole page) into DIR, to look at.
Each shot checks that nothing sticks out sideways (no horizontal scrolling). The hint's budget is a node budget
(``?nodes=N`` on the page), so the pictures are the same on every machine. A game's seed, moves and budget
are in ``SETTINGS`` (other games: add an entry; the defaults suit most).
"""

from __future__ import annotations

import argparse
import shutil
import socket
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

#: per game: the seed dealt, the decisions played (by clicking the first legal move) before the hint, and the
#: page's hint budget (nodes)
DEFAULTS = {"seed": 3, "moves": 6, "nodes": 2000}
SETTINGS: dict[str, dict[str, int]] = {
    "forgotten": {"seed": 3, "moves": 8, "nodes": 4000},
}
LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Board:
    """The web board served from this process on a free port."""

    def __init__(self) -> None:
        import uvicorn

        from solver.web.server import build_app
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(build_app(threads=2), host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        for _ in range(400):
            if self.server.started:
                return f"http://127.0.0.1:{self.port}"
            time.sleep(0.05)
        raise RuntimeError("the web board did not start")

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def wait_idle(page) -> None:
    page.wait_for_timeout(50)
    page.wait_for_selector("body[data-busy=false]", state="attached", timeout=120_000)


def no_sideways_scroll(page, what: str) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    if width[0] > width[1]:
        raise SystemExit(f"{what}: the page is {width[0]} px wide in a {width[1]} px window (something sticks out)")


def shoot(page, path: Path, full_page: bool, what: str) -> None:
    no_sideways_scroll(page, what)
    page.screenshot(path=str(path), full_page=full_page)
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


def session(browser, url: str, game: str, viewport: dict[str, int], out: Path, suffix: str, full_page: bool) -> None:
    """Deal, shoot the start; play, ask a hint, shoot it; review, shoot it."""
    settings = {**DEFAULTS, **SETTINGS.get(game, {})}
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/?nodes={settings['nodes']}")
    page.wait_for_selector("body[data-ready=true]", timeout=60_000)
    page.select_option("#game", game)
    page.fill("#seed", str(settings["seed"]))
    page.click("#deal")
    page.wait_for_selector("#table:not([hidden])", timeout=60_000)
    wait_idle(page)
    shoot(page, out / f"{game}-start{suffix}.png", full_page, f"{game} start")
    for _ in range(settings["moves"]):
        buttons = page.locator("#moves button")
        if buttons.count() == 0:
            break
        buttons.first.click()
        wait_idle(page)
    page.click("#hint")
    page.wait_for_selector("#hint-list li", timeout=120_000)
    page.wait_for_function("() => !document.querySelector('#hint-meaning').textContent.includes('searching')",
                           timeout=120_000)
    wait_idle(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    shoot(page, out / f"{game}-hint{suffix}.png", full_page, f"{game} hint")
    page.click("#review")
    page.wait_for_selector("#review-panel:not([hidden]) #review-table tbody tr", timeout=120_000)
    wait_idle(page)
    shoot(page, out / f"{game}-review{suffix}.png", full_page, f"{game} review")
    if errors:
        raise SystemExit(f"{game}: the page reported errors: {errors}")
    page.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, help="the game to show (a name from 'memory-solver games')")
    parser.add_argument("--out", type=Path, default=HERE, help="where the laptop screenshots go (default: here)")
    parser.add_argument("--phone", type=Path, help="also write the phone-width screenshots into this directory")
    args = parser.parse_args(argv)
    from solver.registry import game_names
    if args.game not in game_names():
        parser.error(f"unknown game {args.game!r} (games: {', '.join(game_names())})")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        parser.error("Chromium is not installed: apt-get install chromium")
    from playwright.sync_api import sync_playwright
    args.out.mkdir(parents=True, exist_ok=True)
    with Board() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        try:
            session(browser, url, args.game, LAPTOP, args.out, "", full_page=False)
            if args.phone:
                args.phone.mkdir(parents=True, exist_ok=True)
                session(browser, url, args.game, PHONE, args.phone, "-phone", full_page=True)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
