"""Entering what the table shows by clicking it (issue 22), in a real browser.

Embers: a card is added to Aelin's Mind by a click on its place (each legal ``add CARD@X,Y`` has its place drawn
on the Mind), a card held first lights only its places, a place several cards may take asks which. Memorinth: a
real table's deal and every card turned over are entered by clicking the card as it shows (a small picture of the
side, each look once), never by a number; the clicks are counted: one per card seen, none for a card not seen.
Screenshots (laptop and phone) go to ``$MEMORY_SOLVER_SCREENSHOTS`` when it is set (docs/screenshots/).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from solver.memorinth import looks
from solver.memorinth.deck import load_deck

from .test_board_ui import Page

#: a Blink: Fenrys holds D5, C2a and S3; C2a and S3 may both go to -2,1, D5 and S3 both to -1,2
BLINK = ("embers/one day=1 turn=fenrys phase=blink mind=G4@0,0;G1a@1,-1;C5@-1,1 row=D5,C2a,S3 demons=Dd,Sd "
         "discard=- box=- resolve=S1b.F1b,D4,G5,G2b completed=0 added=0 pending=- result=-")
SPOTS = {"-2,1": ["C2a", "S3"], "0,2": ["C2a"], "-2,0": ["D5"], "-1,2": ["D5", "S3"]}
#: the size of a place's tap target on screen, the union of the elements that carry it (tests/web/test_board_ui.py)
TAP_SIZE = """(token) => {
  const boxes = [...document.querySelectorAll(`#board [data-target="${token}"]`)].map((e) => e.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0);
  const left = Math.min(...boxes.map((r) => r.left)), right = Math.max(...boxes.map((r) => r.right));
  const top = Math.min(...boxes.map((r) => r.top)), bottom = Math.max(...boxes.map((r) => r.bottom));
  return Math.min(right - left, bottom - top);
}"""


#: the size of a card offered on screen, as drawn (its own group, not a widened tap area)
DRAWN_SIZE = """(token) => {
  const r = document.querySelector(`#board g.offer:not(.tap-area)[data-target="${token}"]`).getBoundingClientRect();
  return Math.min(r.width, r.height);
}"""
#: the smallest text of the picture's key on screen, in px (its font size times the picture's scale)
KEY_TEXT = """() => {
  const svg = document.querySelector("#board svg");
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const key = [...svg.querySelectorAll("text")].filter((t) => t.textContent.startsWith("Sun side up"));
  return Math.min(...key.map((t) => parseFloat(t.getAttribute("font-size")) * scale));
}"""


@pytest.fixture(scope="module")
def board(table_server):
    """The table server's address (tests/web/conftest.py)."""
    return table_server[0]


def screenshot(page, name, showing="#board-wrap"):
    """The page as it is now, ``showing`` scrolled into view, into $MEMORY_SOLVER_SCREENSHOTS (docs/screenshots)
    when that is set."""
    folder = os.environ.get("MEMORY_SOLVER_SCREENSHOTS")
    if folder:
        page.locator(showing).first.evaluate("e => e.scrollIntoView({block: 'center', inline: 'start'})")
        page.wait_for_timeout(100)
        page.screenshot(path=str(Path(folder) / name))


def side_line(page):
    return page.eval_on_selector_all("#side-line .line-move", "bs => bs.map(b => b.textContent)")


def open_blink(page: Page):
    """The Blink above, opened in a side line of a dealt Embers game's page."""
    p = page.page
    p.fill("#position-text", BLINK)
    p.click("#paste-position")
    page.idle()
    assert side_line(p) == []
    spots = p.eval_on_selector_all("#board .spot:not(.tap-area)", "gs => gs.map(g => g.dataset.target)")
    assert sorted(spots) == sorted(SPOTS)


def click_spot(page: Page, spot: str):
    page.page.locator(f'#board .spot[data-target="{spot}"]').first.click()
    page.idle()


@pytest.mark.parametrize("width", [1280, 390])
def test_embers_a_card_is_placed_by_a_click_on_its_place_in_the_mind(board, tabs, width):
    page = Page(tabs, board, width=width, query="?nodes=40")
    p = page.page
    page.deal("embers")
    open_blink(page)
    if width == 390:  # a phone: every place is a tap target of at least 40 px
        for spot in SPOTS:
            assert p.evaluate(TAP_SIZE, spot) >= 40, spot
    screenshot(p, "embers-place.png" if width == 1280 else "embers-phone-place.png", "#board .spot")
    # a place only one card may take: one click plays it
    click_spot(page, "0,2")
    assert side_line(p) == ["add C2a@0,2"]
    # a place two cards may take: the click asks which, one button per card
    open_blink(page)
    click_spot(page, "-2,1")
    offered = p.eval_on_selector_all("#chooser button", "bs => bs.map(b => b.dataset.move)")
    assert offered == ["add C2a@-2,1", "add S3@-2,1"]
    p.locator('#chooser button[data-move="add S3@-2,1"]').click()
    page.idle()
    assert side_line(p) == ["add S3@-2,1"]
    # a card held first (clicked in the memory row): only its places stay lit, and its place takes it at once
    open_blink(page)
    p.locator('#board [data-target="D5"]:not(.tap-area)').first.click()
    page.idle()
    lit = p.eval_on_selector_all("#board .spot:not(.off):not(.tap-area)", "gs => gs.map(g => g.dataset.target)")
    assert sorted(lit) == ["-1,2", "-2,0"]
    if width == 1280:
        screenshot(p, "embers-place-held.png")
    click_spot(page, "-1,2")  # S3 may go there too: D5 is held
    assert side_line(p) == ["add D5@-1,2"]
    page.close()


def offers(p):
    """The cards the Memorinth picture offers now: their targets (the entry's number, never shown)."""
    return p.eval_on_selector_all("#board g.offer:not(.tap-area)", "gs => gs.map(g => g.dataset.target)")


#: in one round trip: the cards offered (their targets and titles), the chooser's buttons, the board's last target
OFFERED = """() => {
  const chips = [...document.querySelectorAll("#board g.offer:not(.tap-area)")];
  const targets = [...document.querySelectorAll("#board [data-target]:not(.tap-area)")];
  return {chips: chips.map((g) => g.dataset.target), chooser: document.querySelectorAll("#chooser button").length,
          titles: [...document.querySelectorAll("#board g.offer:not(.tap-area) > title")].map((t) => t.textContent),
          last: targets.length ? targets[targets.length - 1].getAttribute("data-target") : null};
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_memorinth_a_real_table_is_dealt_by_clicking_each_card_as_it_shows(board, tabs, width):
    """The whole deal from one page (the other seat entered by me): 24 clicks on cards as they show (each look
    offered once: 23 Sun looks for 24 cards at a1), 8 on characters, no chooser, no number; then a card turned
    over is entered by a click on the side it showed. Clicks = cards seen."""
    deck = load_deck("default")
    page = Page(tabs, board, width=width, query="?nodes=40")
    p = page.page
    page.real_table("memorinth")
    card_clicks = character_clicks = 0
    first = offers(p)
    assert len(first) == len({deck.cards[k].sides[0] for k in range(1, 25)}) == 23
    if width == 390:  # a phone: each card offered is a tap target of at least 40 px
        assert min(p.evaluate(TAP_SIZE, chip) for chip in first) >= 40
    else:  # a laptop: each card offered is drawn at least 48 px, the key's text at least 10 px (were 32 and 7)
        assert min(p.evaluate(DRAWN_SIZE, chip) for chip in first) >= 48
        assert p.evaluate(KEY_TEXT) >= 10
    screenshot(p, "memorinth-phone-deal.png" if width == 390 else "memorinth-deal.png", "#board g.offer")
    check_the_list_is_folded_and_opens_by_keyboard(p)
    for _ in range(40):
        state = page.state()
        shown = p.evaluate(OFFERED)
        assert shown["chooser"] == 0, "a click asked which card"  # (the click before)
        if state["view"].get("phase") != "setup":
            break
        dealt = state["view"].get("dealt", [])
        chips = shown["chips"]
        if chips:
            assert len(dealt) < 24
            face = looks.cell_face(looks.FOREST_CELLS[len(dealt)])
            assert len(set(chips)) == len(chips), "a look offered twice"
            assert all(looks.parse(deck, chip, "chip")[0] == face for chip in chips)  # the face the cell shows
            assert shown["titles"] == [f"it shows {look}" for look in chips]
            p.locator("#board g.offer:not(.tap-area)").nth(len(dealt) * 5 % len(chips)).click()
            card_clicks += 1
        else:
            code = shown["last"]
            assert code in deck.codes, code  # a character still to be laid out
            p.locator(f'#board [data-target="{code}"]:not(.tap-area)').first.click()
            character_clicks += 1
        page.idle()
    state = page.state()
    assert state["view"].get("phase") == "flip", state["view"]
    assert card_clicks == 24 and character_clicks <= 8, (card_clicks, character_clicks)
    entries = [m["move"] for m in state["record"]["moves"]]
    assert len(entries) == 32  # every card and character the table shows, one click each (the last maybe implied)
    assert all(looks.is_look(e.split()[2]) for e in entries[:24]), entries[:24]  # recorded as shown, no number
    # a card turned over: the flip, then the side it showed, one click each
    p.locator('#board [data-target="a1"]:not(.tap-area)').first.click()
    page.idle()
    assert page.state()["view"].get("reveal") == "a1"
    sides = offers(p)
    assert sides and all(s.startswith("moon-") for s in sides)  # a1 showed a Sun side
    if width == 1280:
        screenshot(p, "memorinth-reveal.png", "#board g.offer")
    p.locator("#board g.offer:not(.tap-area)").first.click()
    page.idle()
    state = page.state()
    assert "reveal" not in state["view"] and "a1" in state["view"]["seen"][0]
    assert state["record"]["moves"][-1]["move"] == f"reveal {sides[0]}"
    page.close()


def check_the_list_is_folded_and_opens_by_keyboard(p):
    """While the picture offers the cards, the plain list of the outcomes (numbers and looks) is folded: the moves panel is
    short and no button shows; Tab reaches its summary and Enter opens it, a button then plays as before."""
    fold = p.locator("#moves-fold")
    assert fold.count() == 1 and fold.get_attribute("open") is None
    assert p.locator("#moves button").count() >= 23 and not p.locator("#moves button").first.is_visible()
    assert p.locator("#moves-panel").bounding_box()["height"] < 160
    p.locator("#moves-title").click()  # focus starts just before the list
    for _ in range(5):
        p.keyboard.press("Tab")
        if p.evaluate("document.activeElement.closest('#moves-fold') !== null"):
            break
    assert p.evaluate("document.activeElement.tagName") == "SUMMARY"
    p.keyboard.press("Enter")
    assert fold.get_attribute("open") is not None and p.locator("#moves button").first.is_visible()
    p.keyboard.press("Enter")  # folded again for the clicks on the picture
    assert fold.get_attribute("open") is None


def click_target(page: Page, token: str):
    page.page.locator(f'#board [data-target="{token}"]:not(.tap-area)').first.click()
    page.idle()


def test_embers_a_real_table_takes_one_click_per_card_seen_and_the_card_placed_on_its_place(board, tabs):
    """Fenrys's page at a real table: one click per card he sees (the Mind's first card, each card drawn) and per
    decision (draw, stop); Aelin's four Resolve cards and her arrangement, which he does not see, take none (the
    server enters them as `?`); the Blink's add takes one click on the Mind (its place), two where several cards
    may go there (the place, then the card)."""
    page = Page(tabs, board, query="?nodes=40")
    p = page.page
    page.real_table("embers")
    clicks = 0

    def seen(card):  # the card is on the table as Fenrys sees it: in the Mind or the memory row
        view = page.state()["view"]
        return any(entry.split("@")[0] == card for entry in view.get("mind", [])) or card in view.get("row", [])

    def enter_cards():
        """The cards the table shows Fenrys now (the Mind's first, each card drawn): one click each."""
        nonlocal clicks
        while not {"draw", "stop"} & set(page.state()["legalMoves"]):
            legal = page.state()["legalMoves"]
            assert legal and all(m.startswith("chance ") and m != "chance ?" for m in legal), legal
            card = legal[0].split()[1]
            click_target(page, card)  # the card as the picture shows it
            clicks += 1
            assert seen(card), card
            assert clicks <= 12

    enter_cards()
    entries = [m["move"] for m in page.state()["record"]["moves"]]
    assert entries.count("chance ?") == 4 and "arrange ?" in entries, entries  # Aelin's, entered by the server
    for _ in range(2):  # draw, then the card drawn (seen): one click each
        if "draw" not in page.state()["legalMoves"]:
            break
        click_target(page, "draw")
        clicks += 1
        enter_cards()
    click_target(page, "stop")
    clicks += 1
    legal = page.state()["legalMoves"]
    places: dict[str, list[str]] = {}
    for move in legal:
        if move.startswith("add "):
            places.setdefault(move.split("@")[1], []).append(move)
    drawn = sorted(p.eval_on_selector_all("#board .spot:not(.tap-area)", "gs => gs.map(g => g.dataset.target)"))
    assert drawn == sorted(places)
    spot, moves = min(places.items(), key=lambda item: len(item[1]))
    click_target(page, spot)
    if len(moves) > 1:
        p.locator(f'#chooser button[data-move="{moves[0]}"]').click()
        page.idle()
    clicks += 1 + (len(moves) > 1)
    state = page.state()
    assert state["record"]["moves"][-1]["move"] == moves[0]
    typed = [m for m in state["record"]["moves"] if "?" not in m["move"]]
    assert clicks == len(typed) + (len(moves) > 1), typed  # one click per entry, the place's card choice aside
    page.close()
