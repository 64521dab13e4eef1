"""The web board in a real browser: headless Chromium driven by Playwright (tests/web/conftest.py)."""

import re

import pytest

from solver import contract
from solver.record import record_from_lines

from .pages import OwnTab, lent_for_a_test, settle

GAMES = ["pile", "memorinth", "forgotten", "embers", "mnemonic", "aetherya"]
#: moves the user clicks before the hint (the toy game is short); at least one of them on a board target (the
#: first move that can be, in every game: the first click, or Embers' fourth after its script)
CLICKS = {"pile": 2}
#: the deal's seed (one in which clicking the first legal move does not lose before the hint)
SEEDS = {"memorinth": 12}
#: the page's hint budget (?nodes=N: the same answer as the engine's for that budget)
NODES = {"forgotten": 300}
#: games whose board is text (no picture, so no board targets to click): the toy game
TEXT_BOARDS = {"pile"}
#: moves clicked by name (through the move buttons) before the board click and the first-button clicks: Embers'
#: Fenrys draws twice and stops, so the board click adds a memory-row card to the Mind (the card, then where)
SCRIPTS = {"embers": ["draw", "draw", "stop"]}
#: games whose board targets may name several moves: a click there offers them (the chooser), a second click picks
TWO_CLICKS = {"embers"}


def open_page(tabs, url, query="", width=1280):
    errors = []
    page = tabs.open(width, 900, on={"pageerror": lambda e: errors.append(str(e)),
                                     "console": lambda m: errors.append(m.text) if m.type == "error" else None})
    page.goto(f"{url}/{query}")
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    return page, errors


def deal(page, game, seed=3):
    page.select_option("#game", game)
    page.fill("#seed", str(seed))
    page.click("#deal")
    page.wait_for_selector("#table:not([hidden])", timeout=30_000)
    settle(page)


def moves_played(page):
    return page.eval_on_selector_all("#move-list li", "items => items.length")


def play_by_clicking(page, count, script=(), two_clicks=False):
    """Click legal moves ``count`` times: first the ``script``'s moves by name, then one on a board target (the
    first move where a target names a single move, or, with ``two_clicks``, where one offers several: then the
    first offered; an Aetherya game opens with 24 arrangements behind one target), the rest the first of the move
    buttons. Returns how many were board clicks."""
    on_board = 0
    for i in range(count):
        buttons = page.locator("#moves button")
        if buttons.count() == 0:
            break
        if i < len(script):
            page.click(f'#moves button[data-move="{script[i]}"]')
            settle(page)
            continue
        if page.locator("#moves .build-piece").count():  # a move built card by card (Aetherya's arrangement)
            on_board += enter_built_move(page, on_board=on_board == 0)[1] > 0
            continue
        if on_board == 0 and click_board_target(page, "#board", "#moves", two_clicks=two_clicks):
            on_board += 1
            continue
        buttons.first.click()
        settle(page)
    return on_board


def enter_built_move(page, on_board=False):
    """A move built piece by piece (board.js sequenceOf): the first piece offered, clicked (on the board, with
    ``on_board``, where it is a target there) until the move is played. Returns the clicks it took and how many
    of them were on the board."""
    revision = page.get_attribute("body", "data-revision")
    clicks = on_the_board = 0
    while page.locator("#moves .build-piece").count() and page.get_attribute("body", "data-revision") == revision:
        letter = page.locator("#moves .build-piece").first.get_attribute("data-piece")
        card = page.locator(f'#board [data-target="arrange {letter}"]:not(.tap-area)')
        tapped_on_board = bool(on_board and card.count())  # counted before the click re-draws the board
        (card.first if tapped_on_board else page.locator("#moves .build-piece").first).click()
        clicks += 1
        on_the_board += tapped_on_board
        settle(page)
        assert clicks <= 16, "the move builder never finished"
    return clicks, on_the_board


def move_tokens(move):
    """The tokens of a move string a board element may name (board.js moveTokens): its words, and the parts of a
    word joined by commas ('flip 3,4' names '3,4', '3' and '4')."""
    words = [token for token in re.split(r"[\s;@=:()]+", move.lower()) if token]
    parts = [token for token in re.split(r"[\s,;@=:()]+", move.lower()) if token]
    return list(dict.fromkeys(words + parts))


def moves_for(token, legal):
    """The legal moves a board element with data-target=token stands for (board.js movesFor)."""
    wanted = token.lower()
    return [move for move in legal if move.lower() == wanted or wanted in move_tokens(move)]


def board_target_for(page, board, legal, wanted=None):
    """A data-target on ``board`` that names exactly one legal move (``wanted``, when given)."""
    for token in page.eval_on_selector_all(f"{board} [data-target]:not(.tap-area)",
                                           "els => els.map(e => e.getAttribute('data-target'))"):
        named = moves_for(token, legal)
        if len(named) == 1 and (wanted is None or named[0] == wanted):
            return token, named[0]
    return None, None


def board_target_offering(page, board, legal, wanted=None):
    """A data-target on ``board`` that names several legal moves, ``wanted`` among them (or any): its first."""
    for token in page.eval_on_selector_all(f"{board} [data-target]:not(.tap-area)",
                                           "els => els.map(e => e.getAttribute('data-target'))"):
        named = moves_for(token, legal)
        if len(named) > 1 and (wanted is None or wanted in named):
            return token, wanted or named[0]
    return None, None


#: whether a tap at the middle of a target lands on it (not in a gap between its parts), once scrolled into view
#: (one round trip: Playwright's scroll_into_view_if_needed and then this cost two)
CENTRE_HITS = """e => { const box = e.getBoundingClientRect();
  if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth)
    e.scrollIntoView({block: "center", inline: "center"});
  const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2); return !!hit && e.contains(hit); }"""


def click_board_target(page, board, buttons, wanted=None, two_clicks=False):
    """Play a move by clicking the board (not the move list); False when no target names just that move (with
    ``two_clicks``: nor offers it among others, to be picked with a second click in the chooser)."""
    legal = page.eval_on_selector_all(f"{buttons} button", "els => els.map(e => e.dataset.move)")
    token, move = board_target_for(page, board, legal, wanted)
    second = None
    if token is None and two_clicks:
        token, second = board_target_offering(page, board, legal, wanted)
        move = second
    if token is None:
        return False
    played = page.eval_on_selector_all("#move-list li", "items => items.length") if board == "#board" else None
    target = page.locator(f'{board} [data-target="{token}"]:not(.tap-area)').first  # the picture's own, not a tap area
    if target.evaluate(CENTRE_HITS):
        target.click()
    else:  # a target of several cards (an Aetherya 2x2 to arrange) has gaps between them: tap its first card
        parts = target.locator(":scope > g")
        (parts.first if parts.count() else target.locator("rect, circle, ellipse, path, polygon").first).click()
    if second is not None:
        chooser = "#chooser" if board == "#board" else "#puzzle-chooser"
        page.locator(f"{chooser} button", has_text=second).first.click()
    settle(page)
    if played is not None:
        texts = page.eval_on_selector_all("#move-list li", "items => items.map(i => i.textContent)")
        assert len(texts) > played and texts[played].endswith(move), (token, move, texts[played:])
    return True


@pytest.mark.parametrize("game", GAMES)
def test_a_game_played_by_clicking_with_a_hint_undo_save_load_and_review(pile_server, tabs, game, tmp_path):
    url, _ = pile_server
    nodes = NODES.get(game, 40)
    page, errors = open_page(tabs, url, f"?nodes={nodes}")
    seed = SEEDS.get(game, 3)
    deal(page, game, seed)
    clicks = CLICKS.get(game, 4)
    assert play_by_clicking(page, clicks, SCRIPTS.get(game, ()), game in TWO_CLICKS) == \
        (0 if game in TEXT_BOARDS else 1)
    before = moves_played(page)
    assert before >= clicks
    page.click("#undo")
    settle(page)
    assert moves_played(page) < before
    page.click("#redo")
    settle(page)
    assert moves_played(page) == before
    page.click("#hint")
    page.wait_for_selector("#hint-list li", timeout=60_000)
    page.wait_for_function("() => !document.querySelector('#hint-meaning').textContent.includes('searching')")
    shown = page.locator("#hint-list li").first.get_attribute("data-move")
    assert page.locator("#moves button.best").first.text_content() == shown
    saved = tmp_path / "record.jsonl"
    rec = saved_record(page, tmp_path, saved.name)  # one save: the hint's position, and the record loaded below
    assert len(rec.moves) == before
    assert shown == engine_top_move(rec, nodes=nodes, seed=0)  # the page's hints are seeded 0
    page.click("#again")
    page.wait_for_selector("#start:not([hidden])")
    page.wait_for_selector("body[data-ready=true]")
    page.set_input_files("#load", str(saved))
    page.wait_for_selector("#table:not([hidden])")
    settle(page)
    assert moves_played(page) == before
    page.click("#review")
    page.wait_for_selector("#review-progress[data-running=false]", timeout=60_000)
    page.wait_for_selector("#review-panel:not([hidden]) #review-table tbody tr", timeout=60_000)
    settle(page)
    assert page.locator("#hint-list li").count() == 0       # the hint was for the current position
    row = page.locator("#review-table tbody tr").last
    row.click()
    settle(page)
    turn = int(row.get_attribute("data-turn"))              # the decision's position: before its move
    assert page.get_attribute("body", "data-cursor") == str(turn)
    assert page.text_content("#status").startswith(f"The position after {turn} of ")
    page.click("#review-close")
    settle(page)
    assert page.locator("#moves button").count() > 0 or page.text_content("#status") == "The game is over."
    assert errors == []


def saved_record(page, tmp_path, name="record.jsonl"):
    with page.expect_download() as download:
        page.click("#save")
    path = tmp_path / name
    download.value.save_as(path)
    return record_from_lines(path.read_text())


def engine_top_move(record, nodes, seed):
    """The engine's own best move for the page's position (the seat's view: the final position of the seat's saved
    ``record``) with the same budget and seed."""
    import solver
    assert record.observer is not None
    return solver.hint(record.game, record.final_position(), top=5, nodes=nodes, seed=seed).best.move


#: a puzzle of each kind of a game: (kind, difficulty, index) as the page's puzzle panel asks for it
PUZZLES = {"memorinth": [("escape", "easy", 0), ("escape-in-3", "easy", 1)],
           "forgotten": [("forced-connection", "medium", 0), ("best-move", "medium", 0)],
           "embers": [("blink", "medium", 0)],
           "mnemonic": [("best-call", "easy", 0)],
           "aetherya": [("best-kingdom", "easy", 0), ("legend-race", "easy", 0)]}


def forgotten_solution(puzzle):
    """A forced connection: its first flip, then the known partner (a sure match); a best move: the flip."""
    from solver.registry import load_game
    if puzzle["kind"] == "best-move":
        return [puzzle["answer"]["move"]]
    state = load_game(puzzle["game"]).parse_state(puzzle["state"])
    first, *others = puzzle["answer"]["firstMoves"]
    tile = state.tiles[state.parse_move(first)]
    return [first] + [m for m in others if state.tiles[state.parse_move(m)] == tile][:1]


def aetherya_solution_moves(puzzle):
    """best-kingdom: each free cell's card picked from the hand, then placed; legend-race: each turn's steps."""
    if puzzle["kind"] == "legend-race":
        return [step.strip() for turn in puzzle["solution"]["moves"] for step in turn.split(",")]
    cells = [f"{column}{row}" for row in "1234" for column in "abcd"]
    kingdom = puzzle["solution"]["kingdom"].replace("/", "")
    return [step for cell, card in zip(cells, kingdom) if cell not in puzzle["fixed"]
            for step in (f"pick {card}", f"place {cell}")]


#: the moves, in order, that a game's proven puzzle solution plays from the puzzle's position
SOLUTION_MOVES = {"memorinth": lambda puzzle: [move for turn in puzzle["solution"] for move in turn],
                  "forgotten": forgotten_solution,
                  "embers": lambda puzzle: list(puzzle["solution"]),
                  "mnemonic": lambda puzzle: [puzzle["solution"]],  # one decision: the best call
                  "aetherya": aetherya_solution_moves}


@pytest.fixture(scope="module")
def _puzzle_page(chromium, pile_server):
    tab = OwnTab(chromium)
    yield open_page(tab, pile_server[0])
    tab.close()


@pytest.fixture
def puzzle_page(_puzzle_page, pile_server, request):
    """(page, its errors): one page of the board for every puzzle test; after a failed test it is loaded again."""
    page, errors = _puzzle_page
    with lent_for_a_test(page, errors, pile_server[0], request):
        yield _puzzle_page


@pytest.mark.parametrize("game, kind, difficulty, index",
                         [(g, *p) for g, kinds in PUZZLES.items() for p in kinds],
                         ids=[f"{g}-{p[0]}" for g, kinds in PUZZLES.items() for p in kinds])
def test_a_puzzle_solved_by_clicking_is_correct(puzzle_page, game, kind, difficulty, index):
    """The puzzle drawn on the board, its proven solution clicked (on the board where a target names the move,
    else the move buttons), checked by the server: 'correct'; the solution shown on request. One page serves the
    puzzles in turn (``puzzle_page``): each test sets every field of the form and reads only the puzzle it was
    sent."""
    from solver.puzzles import puzzle_id
    from solver.registry import game_class, load_game
    page, errors = puzzle_page
    page.click(".tab[data-tab=puzzles]")
    page.select_option("#puzzle-game", game)
    page.select_option("#puzzle-kind", kind)
    page.select_option("#puzzle-difficulty", difficulty)
    page.fill("#puzzle-index", str(index))
    with page.expect_response(lambda r: r.url.endswith("/api/engine")
                              and (r.request.post_data_json or {}).get("action") == "generate",
                              timeout=60_000) as generated:  # the puzzle the page was sent (not generated again)
        page.click("#puzzle-new")
    page.wait_for_selector("#puzzle-board svg", timeout=60_000)
    settle(page)
    puzzle = generated.value.json()["puzzle"]
    # a kind the game's default board cannot have is made on the board the game names (the page does the same)
    assert puzzle["id"] == puzzle_id(load_game(contract.puzzle_games(game_class(game)).get(kind, game)).spec(),
                                     kind, difficulty, 0, index)
    assert puzzle["id"] in page.text_content("#puzzle-text")
    on_board = 0
    for move in SOLUTION_MOVES[game](puzzle):
        if click_board_target(page, "#puzzle-board", "#puzzle-legal", move, two_clicks=game in TWO_CLICKS):
            on_board += 1
        else:
            page.click(f'#puzzle-legal button[data-move="{move}"]')
            settle(page)
    assert on_board >= 1
    assert "correct" not in page.text_content("#puzzle-message")   # no verdict of the page's previous puzzle
    page.click("#puzzle-check")
    page.wait_for_function("() => /correct/.test(document.querySelector('#puzzle-message').textContent)")
    assert page.text_content("#puzzle-message").startswith("correct:")
    page.click("#puzzle-solution")
    page.wait_for_selector("#puzzle-answer:not([hidden])")
    assert page.text_content("#puzzle-answer").startswith("Proven solution:")
    assert errors == []


@pytest.mark.parametrize("game", [g for g in GAMES if g not in TEXT_BOARDS])
def test_on_a_phone_the_board_takes_taps_and_nothing_sticks_out(pile_server, tabs, game):
    """At a phone's width (390 px): no sideways scrolling, a tap on the board plays, the hint sits under the board."""
    url, _ = pile_server
    page, errors = open_page(tabs, url, f"?nodes={NODES.get(game, 40)}", width=390)
    deal(page, game, SEEDS.get(game, 3))
    # a target naming one move is tapped; else (an Aetherya opening: its 2x2 entered card by card) the cards
    if page.locator("#moves .build-piece").count():
        clicks, on_the_board = enter_built_move(page, on_board=True)
        assert 1 <= on_the_board == clicks <= 4
    else:
        assert click_board_target(page, "#board", "#moves", two_clicks=True)
    page.click("#hint")
    page.wait_for_selector("#hint-list li", timeout=60_000)
    settle(page)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    top = {name: page.locator(name).bounding_box()["y"] for name in ("#board", "#hint-panel", "#moves-panel")}
    assert top["#board"] < top["#hint-panel"] < top["#moves-panel"]
    assert errors == []
