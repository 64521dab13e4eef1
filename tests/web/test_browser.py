"""The web board in a real browser: headless Chromium driven by Playwright (tests/web/conftest.py)."""

import pytest

from solver.record import record_from_lines

#: per game: the hint budget the page is opened with (?nodes=N: the same answer as the engine's), the decisions
#: played by clicking, and whether the first of them is a click on the board (a cell, a card) rather than a button
GAMES = {
    "pile": {"nodes": 40, "clicks": 2, "board": False},
    "forgotten": {"nodes": 300, "clicks": 10, "board": True},
}


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
    """Click the first legal move in the list of moves, ``count`` times (fewer if the game ends)."""
    for _ in range(count):
        buttons = page.locator("#moves button")
        if buttons.count() == 0:
            return
        buttons.first.click()
        wait_idle(page)


def click_on_the_board(page):
    """Play the first legal move by clicking the board element that names it (a word of the move: a cell such as
    '3,4', a card); returns the move."""
    move = page.locator("#moves button").first.get_attribute("data-move")
    for token in move.split():
        target = page.locator(f'#board [data-target="{token}"]')
        if target.count():
            before = moves_played(page)
            target.first.click()
            wait_idle(page)
            assert page.locator("#move-list li").nth(before).text_content().endswith(move)
            return move
    raise AssertionError(f"no board element names {move!r}")


@pytest.mark.parametrize("game", GAMES)
def test_a_game_played_by_clicking_with_a_hint_undo_save_load_and_review(live_server, browser, game, tmp_path):
    url, _ = live_server
    nodes, clicks = GAMES[game]["nodes"], GAMES[game]["clicks"]
    page, errors = open_page(browser, url, f"?nodes={nodes}")
    deal(page, game)
    if GAMES[game]["board"]:
        click_on_the_board(page)
        clicks -= 1
    play_by_clicking(page, clicks)
    before = moves_played(page)
    assert before >= GAMES[game]["clicks"]
    page.click("#hint")
    page.wait_for_selector("#hint-list li", timeout=60_000)
    page.wait_for_function("() => !document.querySelector('#hint-meaning').textContent.includes('searching')")
    shown = page.locator("#hint-list li").first.get_attribute("data-move")
    assert page.locator("#moves button.best").first.text_content() == shown
    assert shown == engine_top_move(page, tmp_path, nodes=nodes, seed=3)
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


@pytest.mark.parametrize("game", [g for g in GAMES if GAMES[g]["board"]])
def test_on_a_phone_the_board_takes_taps_and_nothing_sticks_out(live_server, browser, game):
    """At a phone's width (390 px): no sideways scrolling, a tap on the board plays, the hint sits under the board."""
    url, _ = live_server
    page, errors = open_page(browser, url, f"?nodes={GAMES[game]['nodes']}", width=390)
    deal(page, game)
    click_on_the_board(page)
    page.click("#hint")
    page.wait_for_selector("#hint-list li", timeout=60_000)
    wait_idle(page)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    top = {name: page.locator(name).bounding_box()["y"] for name in ("#board", "#hint-panel", "#moves-panel")}
    assert top["#board"] < top["#hint-panel"] < top["#moves-panel"]
    assert errors == []



#: per game: the puzzles solved by clicking, one of each kind: (kind, difficulty, the moves that answer it, computed
#: from the puzzle the engine makes for the page's request)
PUZZLES = {
    "forgotten": [("forced-connection", "medium"), ("best-move", "medium")],
}


def puzzle_answer_moves(game, kind, difficulty):
    """The moves that answer the page's puzzle (index 0, seed 0), from the engine's own puzzle."""
    from solver.puzzles import make_puzzle
    from solver.registry import game_class, load_game
    spec = game_class(game).PUZZLE_GAMES.get(kind, game)
    puzzle = make_puzzle(load_game(spec), kind, difficulty, 0, 0)
    if game == "forgotten":
        if kind == "best-move":
            return [puzzle["answer"]["move"]]
        position = load_game(spec).parse_state(puzzle["state"])
        first, *others = puzzle["answer"]["firstMoves"]
        cell = position.parse_move(first)
        mate = [m for m in others if position.tiles[position.parse_move(m)] == position.tiles[cell]]
        return [first] + mate[:1]              # the first flip, then its known partner (a sure match)
    raise AssertionError(f"no answer known for {game} puzzles")


@pytest.mark.parametrize("game", PUZZLES)
def test_a_puzzle_of_each_kind_is_solved_by_clicking(live_server, browser, game):
    url, _ = live_server
    page, errors = open_page(browser, url)
    page.click(".tab[data-tab=puzzles]")
    page.select_option("#puzzle-game", game)
    for kind, difficulty in PUZZLES[game]:
        page.select_option("#puzzle-kind", kind)
        page.select_option("#puzzle-difficulty", difficulty)
        page.click("#puzzle-new")
        wait_idle(page)
        assert page.locator("#puzzle-board svg").count() == 1, page.locator("#puzzle-message").text_content()
        moves = puzzle_answer_moves(game, kind, difficulty)
        first = page.locator(f'#puzzle-board [data-target="{moves[0].split()[-1]}"]')
        if first.count():                      # the first move by the board, the rest by the move buttons
            first.first.click()
        else:
            page.click(f'#puzzle-legal button[data-move="{moves[0]}"]')
        wait_idle(page)
        for move in moves[1:]:
            page.click(f'#puzzle-legal button[data-move="{move}"]')
            wait_idle(page)
        assert page.eval_on_selector_all("#puzzle-moves li", "items => items.map(i => i.textContent)") == moves
        page.click("#puzzle-check")
        wait_idle(page)
        assert page.locator("#puzzle-message").text_content().startswith("correct: "), kind
        page.click("#puzzle-solution")
        wait_idle(page)
        assert "Proven solution" in page.locator("#puzzle-answer").text_content()
    assert errors == []
