"""Screenshots of the web board for one game: ``python docs/screenshots/make.py --game GAME``.

Starts the web board (``solver/web/server.py``) on a free local port in this process, drives the page in
headless Chromium through Playwright (Debian's ``chromium``; ``pip install playwright``) and writes, at the
given viewport, ``<game>-start.png`` (a seeded game just dealt), ``<game>-hint.png`` (after a few moves, a
hint shown: the list and the best move drawn on the board) and ``<game>-review.png`` (the review of those
moves, its biggest mistake on the board) into ``--out`` (default: this directory): what the viewport shows, or
the whole page with ``--full-page``. The README links the laptop ones.

The moves are the page's own move buttons, the first legal one each time, so any game works unchanged;
``--moves``, ``--seed``, ``--nodes`` and ``--players`` choose the game shown (each game's defaults, those of its
screenshots in the repository, are in ``SETTINGS``), and ``--play "MOVE;MOVE"`` (the default for a game in
``PLAYS``) clicks those moves by name first. ``--width 390`` looks at the page as a phone does (write those
elsewhere with ``--out``: only the laptop ones live in the repository). A shot fails when the page scrolls
sideways: something sticks out.
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
SHOTS = ("start", "hint", "review")
#: the phone's screenshots (``--phone``): a 390x844 viewport, the board zoomed to readable text
PHONE_SHOTS = ("phone-hint", "phone-review")
#: what each game's screenshots show by default: the deal's seed, the moves clicked before the hint, the budget
DEFAULTS = {"seed": 3, "moves": 4, "nodes": 300}
SETTINGS: dict[str, dict[str, int]] = {
    "memorinth": {"seed": 12, "moves": 6},
    "forgotten": {"seed": 3, "moves": 8, "nodes": 4000},
}
#: moves clicked by name before the first-button clicks, for a game whose first legal move would not reach what
#: its screenshots should show: Embers' Fenrys draws twice and stops (the first move, draw, would be drawn again
#: and again), so the hint is a Blink's, its best add drawn on the Mind
PLAYS: dict[str, list[str]] = {"embers": ["draw", "draw", "stop"]}


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(threads: int = 2) -> tuple[str, object, threading.Thread]:
    """The web board on a free port in a background thread, its games in a database of its own (never the user's):
    ``(url, server, thread)``."""
    import tempfile

    import uvicorn

    from solver.web.server import build_app
    port = free_port()
    db = Path(tempfile.mkdtemp(prefix="memory-solver-shots-")) / "games.sqlite3"
    server = uvicorn.Server(uvicorn.Config(build_app(threads=threads, db=db), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(400):
        if server.started:
            break
        time.sleep(0.05)
    else:
        raise SystemExit("make.py: the web board did not start")
    return f"http://127.0.0.1:{port}", server, thread


def stop_server(server: object, thread: threading.Thread) -> None:
    server.should_exit = True
    thread.join(timeout=10)


def open_page(browser: object, url: str, width: int, height: int, nodes: int) -> object:
    """The page with a node budget (the same hint on every machine), ready."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{url}/?nodes={nodes}")
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    return page


def wait_idle(page: object) -> None:
    page.wait_for_timeout(50)
    page.wait_for_selector("body[data-busy=false]", state="attached", timeout=120_000)


def deal(page: object, game: str, seed: int, players: int | None) -> None:
    """Start a seeded game dealt by the engine (the engine plays the other seats)."""
    page.select_option("#game", game)
    if players is not None and page.is_visible("#players"):
        page.fill("#players", str(players))
        page.dispatch_event("#players", "change")
    page.fill("#seed", str(seed))
    page.click("#deal")
    page.wait_for_selector("#table:not([hidden])", timeout=60_000)
    wait_idle(page)


def play_moves(page: object, count: int, script: list[str] | None = None) -> None:
    """Click ``count`` moves (fewer if the game ends): those of ``script`` by name, then the first legal one."""
    script = script or []
    for i in range(count):
        buttons = page.locator("#moves button")
        if buttons.count() == 0:
            return
        if i < len(script):
            page.click(f'#moves button[data-move="{script[i]}"]')
        elif page.locator("#moves .build-piece").count():  # a move entered piece by piece: its first pieces
            revision = page.get_attribute("body", "data-revision")
            while page.locator("#moves .build-piece").count() and \
                    page.get_attribute("body", "data-revision") == revision:
                page.locator("#moves .build-piece").first.click()
                wait_idle(page)
        else:
            buttons.first.click()
        wait_idle(page)


def make_arrangement(out: Path, width: int, height: int, seed: int, nodes: int, picks: int = 2) -> Path:
    """aetherya-arrange.png: a dealt Aetherya game's arrangement, entered card by card (``picks`` of the seat's
    start cards clicked on the board, the rest still offered)."""
    from playwright.sync_api import sync_playwright
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("make.py: Chromium is not installed (apt-get install chromium)")
    out.mkdir(parents=True, exist_ok=True)
    path = out / "aetherya-arrange.png"
    url, server, thread = start_server()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            try:
                page = open_page(browser, url, width, height, nodes)
                deal(page, "aetherya", seed, None)
                for _ in range(picks):
                    letter = page.locator("#moves .build-piece").first.get_attribute("data-piece")
                    page.locator(f'#board [data-target="arrange {letter}"]').first.click()
                    wait_idle(page)
                shoot(page, path)
            finally:
                browser.close()
    finally:
        stop_server(server, thread)
    return path


def show_hint(page: object) -> None:
    """Ask a hint and wait for its final answer."""
    page.click("#hint")
    page.wait_for_selector("#hint-list li", timeout=120_000)
    page.wait_for_function("() => !document.querySelector('#hint-meaning').textContent.includes('searching')",
                           timeout=120_000)
    wait_idle(page)


def open_review(page: object) -> None:
    """Open the review and wait until it has judged every decision (its progress bar full, its graph drawn)."""
    page.click("#review")
    page.wait_for_selector("#review-progress[data-running=false]", timeout=300_000)
    page.wait_for_selector("#review-panel:not([hidden]) #review-table tbody tr", timeout=120_000)
    wait_idle(page)


def shoot(page: object, path: Path, full_page: bool = False) -> None:
    """What the viewport shows (or, with ``full_page``, the whole page below the fold too) as a PNG."""
    wide, window = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    if wide > window:
        raise SystemExit(f"make.py: {path.name}: the page is {wide} px wide in a {window} px window "
                         "(something sticks out)")
    page.screenshot(path=str(path), full_page=full_page)
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


def make(game: str, out: Path, width: int, height: int, seed: int, moves: int, nodes: int,
         players: int | None, full_page: bool = False, play: list[str] | None = None,
         phone: bool = False) -> list[Path]:
    """Drive the page for ``game`` and write its three screenshots into ``out`` (with ``phone``, its two phone
    screenshots too)."""
    from playwright.sync_api import sync_playwright
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("make.py: Chromium is not installed (apt-get install chromium)")
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{game}-{name}.png" for name in SHOTS]
    url, server, thread = start_server()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            try:
                page = open_page(browser, url, width, height, nodes)
                deal(page, game, seed, players)
                shoot(page, paths[0], full_page)
                play_moves(page, moves, PLAYS.get(game) if play is None else play)
                show_hint(page)
                shoot(page, paths[1], full_page)
                open_review(page)
                shoot(page, paths[2], full_page)
                if phone:
                    page = open_page(browser, url, 390, 844, nodes)
                    deal(page, game, seed, players)
                    play_moves(page, moves, PLAYS.get(game) if play is None else play)
                    show_hint(page)
                    page.evaluate("() => document.querySelector('#board-wrap').scrollIntoView()")
                    paths.append(out / f"{game}-{PHONE_SHOTS[0]}.png")
                    shoot(page, paths[-1])
                    open_review(page)
                    page.evaluate("() => document.querySelector('#review-panel').scrollIntoView()")
                    paths.append(out / f"{game}-{PHONE_SHOTS[1]}.png")
                    shoot(page, paths[-1])
            finally:
                browser.close()
    finally:
        stop_server(server, thread)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, help="the game's name (aetherya, embers, forgotten, memorinth, ...)")
    parser.add_argument("--out", type=Path, default=HERE, help="where the PNGs go (default: docs/screenshots)")
    parser.add_argument("--width", type=int, default=1280, help="viewport width in CSS pixels (a phone: 390)")
    parser.add_argument("--height", type=int, default=900, help="viewport height in CSS pixels")
    parser.add_argument("--seed", type=int, help="the deal's seed (default: the game's in SETTINGS, else 3)")
    parser.add_argument("--moves", type=int, help="moves clicked before the hint (default: the game's, else 4)")
    parser.add_argument("--nodes", type=int, help="the hint's and review's node budget (default: the game's, else 300)")
    parser.add_argument("--players", type=int, default=None, help="players, for games that have the parameter")
    parser.add_argument("--full-page", action="store_true", help="the whole page, not just the viewport")
    parser.add_argument("--phone", action="store_true", help="also GAME-phone-hint.png and GAME-phone-review.png "
                                                             "at a phone's 390x844")
    parser.add_argument("--play", default=None, help="moves clicked by name first, separated by ';' (default: the "
                                                     "game's in PLAYS, if any)")
    parser.add_argument("--arrange", action="store_true", help="only aetherya-arrange.png: an arrangement entered "
                                                                 "card by card (--game aetherya)")
    args = parser.parse_args(argv)
    chosen = {**DEFAULTS, **SETTINGS.get(args.game, {}),
              **{k: v for k, v in (("seed", args.seed), ("moves", args.moves), ("nodes", args.nodes)) if v is not None}}
    if args.arrange:
        make_arrangement(args.out, args.width, args.height, chosen["seed"], chosen["nodes"])
        return 0
    play = None if args.play is None else [m.strip() for m in args.play.split(";") if m.strip()]
    make(args.game, args.out, args.width, args.height, chosen["seed"], chosen["moves"], chosen["nodes"], args.players,
         args.full_page, play, args.phone)
    return 0


if __name__ == "__main__":
    sys.exit(main())
