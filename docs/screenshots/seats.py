"""Two players' phones side by side on one game of the table server: ``python docs/screenshots/seats.py``.

Starts the web board (its games in a temporary database), deals a game with two human seats through the API
(``POST /api/games``), opens each seat's link in a browser context of its own at a phone's size (390x844), plays
``--moves`` moves on whichever page has the move, and writes ``table-<game>-seats.png``: the two phones side by
side, each showing only its own seat's view (``docs/web.md``, "The table server"). Uses make.py's server and
Chromium helpers.
"""

from __future__ import annotations

import argparse
import base64
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make import start_server, stop_server, wait_idle  # noqa: E402  (the script beside this one)

PHONE = {"width": 390, "height": 844}


def shoot_seats(game: str, seed: int, moves: int, out: Path) -> Path:
    """Deal ``game`` with two human seats, play ``moves`` moves, and write the two phones side by side."""
    import httpx
    from playwright.sync_api import sync_playwright
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("seats.py: Chromium is not installed (apt-get install chromium)")
    url, server, thread = start_server()
    path = out / f"table-{game}-seats.png"
    try:
        created = httpx.post(f"{url}/api/games", json={"game": game, "seed": seed, "seats": [
            {"player": 0, "by": "human"}, {"player": 1, "by": "human"}]}, timeout=60).json()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            try:
                pages = []
                for seat in created["seats"]:
                    page = browser.new_context(viewport=PHONE).new_page()
                    page.goto(seat["url"])
                    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
                    wait_idle(page)
                    pages.append(page)
                for _ in range(moves):
                    playing = next((p for p in pages if p.locator("#moves button").count()), None)
                    if playing is None:
                        break
                    playing.locator("#moves button").first.click()
                    for page in pages:
                        wait_idle(page)
                pictures = [base64.b64encode(page.screenshot()).decode() for page in pages]
                frame = browser.new_page(viewport={"width": 2 * PHONE["width"] + 60, "height": PHONE["height"] + 70})
                frame.set_content(
                    "<body style='margin:0;background:#333;display:flex;gap:20px;padding:10px 20px;"
                    "font:14px system-ui;color:#eee'>" + "".join(
                        f"<figure style='margin:0'><img style='display:block;border-radius:12px' "
                        f"src='data:image/png;base64,{picture}'><figcaption style='text-align:center;"
                        f"padding-top:6px'>seat {i}'s phone</figcaption></figure>"
                        for i, picture in enumerate(pictures)) + "</body>")
                frame.screenshot(path=str(path))
                shoot_table(browser, created["table"], out / f"table-{game}-screen.png")
                shoot_start(browser, url, game, seed, out)
            finally:
                browser.close()
    finally:
        stop_server(server, thread)
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")
    return path


def shoot_table(browser: object, link: str, path: Path) -> None:
    """The table link on a shared screen (a laptop's viewport): the public information only."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(link)
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    wait_idle(page)
    page.screenshot(path=str(path))
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


def shoot_start(browser: object, url: str, game: str, seed: int, out: Path) -> None:
    """One phone deals a game for players on their own phones from the page: its Links panel (every seat's link
    and QR code, ``table-links.png``); then the start page lists the games this browser has opened
    (``table-start.png``)."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    page.select_option("#game", game)
    page.fill("#seed", str(seed))
    page.select_option("#others", "devices")
    page.click("#deal")
    page.wait_for_selector("#table:not([hidden])", timeout=60_000)
    page.wait_for_selector("#links img, #links svg", timeout=30_000)
    wait_idle(page)
    links = out / "table-links.png"
    page.locator("#links-panel").screenshot(path=str(links))
    print(f"wrote {links} ({links.stat().st_size // 1024} KiB)")
    page.goto(url)
    page.wait_for_selector("#saved-panel:not([hidden])", timeout=30_000)
    wait_idle(page)
    start = out / "table-start.png"
    page.screenshot(path=str(start), full_page=True)
    print(f"wrote {start} ({start.stat().st_size // 1024} KiB)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="aetherya", help="the game (default aetherya: each seat's start cards)")
    parser.add_argument("--seed", type=int, default=3, help="the deal's seed (default 3)")
    parser.add_argument("--moves", type=int, default=1,
                        help="moves played before the shot (default 1: seat 0 has arranged its start cards; seat 1 "
                             "sees its own and not seat 0's)")
    parser.add_argument("--out", type=Path, default=HERE, help="where the PNG goes (default: docs/screenshots)")
    args = parser.parse_args(argv)
    shoot_seats(args.game, args.seed, args.moves, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
