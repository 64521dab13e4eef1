"""The web board in a real browser: headless Chromium driven by Playwright (tests/web/conftest.py)."""

import pytest

from solver.record import record_from_lines

GAMES = ["pile"]


def open_page(browser, url, query="", width=1280):
    page = browser.new_page(viewport={"width": width, "height": 900}, accept_downloads=True)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{url}/{query}")
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    return page, errors


def deal(page, game, seed=3):
    page.select_option("#game", game)
    page.fill("#seed", str(seed))
    page.click("#deal")
    page.wait_for_selector("#table:not([hidden])", timeout=30_000)
    wait_idle(page)


def wait_idle(page):
    page.wait_for_timeout(50)
    page.wait_for_selector("body[data-busy=false]", state="attached", timeout=60_000)


def moves_played(page):
    return page.eval_on_selector_all("#move-list li", "items => items.length")


def play_by_clicking(page, count):
    """Click the first legal move (a board target when one names a single move, else the move list)."""
    for _ in range(count):
        buttons = page.locator("#moves button")
        if buttons.count() == 0:
            return
        buttons.first.click()
        wait_idle(page)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_played_by_clicking_with_a_hint_undo_save_load_and_review(live_server, browser, game, tmp_path):
    url, _ = live_server
    page, errors = open_page(browser, url, "?nodes=40")
    deal(page, game)
    play_by_clicking(page, 2)
    before = moves_played(page)
    assert before >= 2
    page.click("#hint")
    page.wait_for_selector("#hint-list li", timeout=60_000)
    page.wait_for_function("() => !document.querySelector('#hint-meaning').textContent.includes('searching')")
    shown = page.locator("#hint-list li").first.get_attribute("data-move")
    assert page.locator("#moves button.best").first.text_content() == shown
    assert shown == engine_top_move(page, tmp_path, nodes=40, seed=3)
    page.click("#undo")
    wait_idle(page)
    assert moves_played(page) < before
    page.click("#redo")
    wait_idle(page)
    assert moves_played(page) == before
    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "record.jsonl"
    download.value.save_as(saved)
    rec = record_from_lines(saved.read_text())
    assert len(rec.moves) == before
    page.click("#again")
    page.set_input_files("#load", str(saved))
    page.wait_for_selector("#table:not([hidden])")
    wait_idle(page)
    assert moves_played(page) == before
    page.click("#review")
    page.wait_for_selector("#review-panel:not([hidden]) #review-table tbody tr", timeout=60_000)
    assert errors == []


def saved_record(page, tmp_path, name="record.jsonl"):
    with page.expect_download() as download:
        page.click("#save")
    path = tmp_path / name
    download.value.save_as(path)
    return record_from_lines(path.read_text())


def engine_top_move(page, tmp_path, nodes, seed):
    """The engine's own best move for the page's position, the seat's view and the same budget and seed."""
    import solver
    record = saved_record(page, tmp_path, "for-hint.jsonl")
    position = record.final_position()
    seat = int(page.input_value("#seat")) if record.observer is None else record.observer
    player = position.current_player() if record.observer is None else None
    result = solver.hint(record.game, position, top=5, nodes=nodes, seed=seed, player=player)
    assert player in (None, seat)
    return result.best.move
