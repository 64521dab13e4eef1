"""The table server in real browsers (issue 20): two players' phones on one dealt game of every registered game.

Each seat's page runs in its own browser context (its own storage, as on two phones). Every network response a
page receives (the events it listens to included) and its DOM are searched for the cards its seat may not see:
the strings the other seats' views and the full state hold where the seat's own view (as ``memory-solver <game>
view STATE --player N`` prints it for the server's state) holds a masked value, a count or nothing, and that the
seat never saw. The check is shown to fail on a planted card. A move on one page reaches the other within a second.
A server killed with SIGKILL and restarted on the same database loses nothing acknowledged, and the pages
reconnect by themselves.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from solver.cli import main
from solver.registry import game_names

from .hidden_cards import secrets_of
from .pages import HTTP, settle
from .test_store import Server, free_port

TWO_HUMANS = [{"player": 0, "by": "human"}, {"player": 1, "by": "human"}]
#: moves played on the pages of each game (a few turns of each seat)
MOVES = 6
#: the page records the data of every server-sent event it receives (Playwright cannot read a stream that never ends)
RECORD_EVENTS = """
(() => {
  const Original = window.EventSource;
  window.__streamed = [];
  window.EventSource = class extends Original {
    constructor(url, options) {
      super(url, options);
      this.addEventListener("change", (event) => window.__streamed.push(event.data));
    }
  };
})();
"""


@pytest.fixture(scope="module")
def board(table_server):
    """``(url, app)`` of the table server (tests/web/conftest.py)."""
    return table_server


class Phone:
    """One seat's page in a browser context of its own (``tabs``), keeping the text of everything it received."""

    def __init__(self, tabs, url, width=390, ready=True):
        self.received: list[str] = []
        self.errors: list[str] = []
        self.page = tabs.open(width, 844, init_script=RECORD_EVENTS,
                              on={"response": self._keep, "pageerror": lambda e: self.errors.append(str(e))})
        self.page.goto(url, wait_until="commit")  # the document's load is waited for in ready()
        if ready:
            self.ready()

    @classmethod
    def each(cls, tabs, urls, width=390):
        """A phone for each of ``urls`` (a dict), their pages loading side by side (a page's load is mostly the
        work of its own renderer process, so two loads overlap)."""
        phones = {key: cls(tabs, url, width, ready=False) for key, url in urls.items()}
        for phone in phones.values():
            phone.ready()
        return phones

    def ready(self):
        """Once the page has loaded and settled."""
        self.page.wait_for_selector("body[data-ready=true]", timeout=30_000)
        self.idle()

    def _keep(self, response):
        if "text/event-stream" in response.headers.get("content-type", ""):
            return  # read from window.__streamed instead
        with contextlib.suppress(Exception):
            self.received.append(response.text())

    def idle(self):
        settle(self.page)

    def revision(self):
        return int(self.page.get_attribute("body", "data-revision") or -1)

    def streamed(self):
        return self.page.evaluate("() => window.__streamed")

    def texts(self):
        """Everything this page holds or received: the DOM's text and attributes, every response, every event."""
        dom = self.page.evaluate("""() => [document.body.textContent,
            ...[...document.querySelectorAll('*')].flatMap(e => [...e.attributes]
              .filter(a => !['d', 'points', 'transform', 'style', 'viewBox', 'class'].includes(a.name))
              .map(a => a.value))].join('\\n')""")
        return [dom, *(_visible(text) for text in self.received), *self.streamed()]


def _visible(text):
    """A response's text, a picture reduced to its words and targets (its path data holds letters like C3)."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    out = []

    def walk(item):
        if isinstance(item, str) and item.lstrip().startswith(("<svg", "<?xml")):
            out.extend(re.findall(r">([^<]+)<", item))
            out.extend(re.findall(r'data-[a-z-]+="([^"]*)"', item))
        elif isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            for key, sub in item.items():
                out.append(key)
                walk(sub)
        elif isinstance(item, list):
            for sub in item:
                walk(sub)
    walk(value)
    return "\n".join(out)


def found(secrets, texts):
    """The secrets that appear in ``texts`` as whole tokens (looked for as tokens only in the texts that hold them
    at all: most secrets are in none)."""
    hits = []
    for secret in secrets:
        holding = [text for text in texts if secret in text]
        if holding:
            pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(secret)}(?![A-Za-z0-9])")
            if any(pattern.search(text) for text in holding):
                hits.append(secret)
    return sorted(hits)


def cli_view(state, seat):
    """``memory-solver <game> view STATE --player N --json`` for the server's state."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([state.game.name, "view", json.dumps(state.to_json()), "--player", str(seat), "--json",
                     "--game", state.game.spec()]) == 0
    return json.loads(out.getvalue())


class Watch:
    """The secrets of each seat at the server's state now, less what the seat's views ever held."""

    def __init__(self, app, created, seats):
        keys = {s["player"]: s["key"] for s in created["seats"]}
        self.table, _ = app.state.tables.open(created["id"], keys[seats[0]])
        self.seen = {seat: set() for seat in seats}
        self.seats = seats
        self.update()

    def update(self):
        """Take the views now (as the command line prints them); returns each seat's secrets."""
        state = self.table.now.state
        players = range(len(self.table.now.views))
        views = {p: cli_view(state, p) for p in players}
        out = {}
        for seat in self.seats:
            self.seen[seat].add(json.dumps(views[seat]))
            hidden = secrets_of(views[seat], [v for p, v in views.items() if p != seat] + [state.to_json()])
            out[seat] = {s for s in hidden if not any(s in seen for seen in self.seen[seat])}
        self.views = views
        return out


def create(url, game, seed=3, seats=TWO_HUMANS):
    answer = HTTP.post(f"{url}/api/games", json={"game": game, "seed": seed, "seats": seats})
    assert answer.status_code == 200, answer.text
    return answer.json()


def mover(phones):
    """The phone whose seat has a move to enter now (its move buttons), or None."""
    for phone in phones.values():
        if phone.page.locator("#moves button").count():
            return phone
    return None


def click_first_move(page):
    """Play the first legal move: its button, or for a move built piece by piece (Aetherya's arrangement: no list
    of moves) the first piece offered, click after click until the move is played. Returns when the last click
    was made (time.monotonic)."""
    revision = page.evaluate("() => document.body.dataset.revision")
    while True:
        started = time.monotonic()
        pieces = page.locator("#moves .build-piece")
        if not pieces.count():
            page.locator("#moves button").first.click()
            return started
        pieces.first.click()
        settle(page)
        if page.evaluate("() => document.body.dataset.revision") != revision or not pieces.count():
            return started


@pytest.mark.serial  # a wall-clock cap
@pytest.mark.parametrize("game", game_names())
def test_two_phones_see_only_their_own_seat_and_each_others_moves_within_a_second(board, tabs, game):
    url, app = board
    created = create(url, game)
    watch = Watch(app, created, [0, 1])
    phones = Phone.each(tabs, {s["player"]: s["url"] for s in created["seats"]})
    secrets = watch.update()
    for seat, phone in phones.items():
        assert found(secrets[seat], phone.texts()) == [], (game, seat)
        phone.received.clear()
    for _ in range(MOVES):
        playing = mover(phones)
        if playing is None:
            break
        other = next(p for p in phones.values() if p is not playing)
        before = other.revision()
        started = click_first_move(playing.page)
        other.page.wait_for_function(f"() => Number(document.body.dataset.revision) > {before}",
                                     timeout=10_000)
        assert time.monotonic() - started < 1.0, f"{game}: the move took {time.monotonic() - started:.2f} s"
        for phone in phones.values():
            phone.idle()
        secrets = watch.update()
        for seat, phone in phones.items():
            assert found(secrets[seat], phone.texts()) == [], (game, seat)
            phone.received.clear()
    for seat, phone in phones.items():
        last = json.loads(phone.streamed()[-1])
        assert last["player"] == seat and last["view"] == watch.views[seat]
        assert phone.errors == []


def test_the_check_finds_a_planted_card_in_the_dom_and_in_a_response(board, tabs):
    """Aetherya's start cards: seat 1's are a secret of seat 0. Planted in seat 0's page, or in an answer it
    receives, the check finds them."""
    url, app = board
    created = create(url, "aetherya")
    watch = Watch(app, created, [0, 1])
    secrets = watch.update()
    theirs = watch.views[1]["start"][1]
    assert theirs in secrets[0]
    phone = Phone(tabs, created["seats"][0]["url"])
    assert found(secrets[0], phone.texts()) == []
    phone.page.evaluate(f"() => {{ const s = document.createElement('span'); s.hidden = true; "
                        f"s.textContent = 'kingdom {theirs}'; document.body.append(s); }}")
    assert theirs in found(secrets[0], phone.texts())
    spy = watch.views[1]  # seat 1's view, as if the server had sent it to seat 0
    phone.received.clear()  # the same page, loaded again: only what it receives now (the planted span goes)

    def plant(route):
        response = route.fetch()
        route.fulfill(response=response, body=json.dumps({**response.json(), "spy": spy}))
    phone.page.route(f"**/api/games/{created['id']}/{created['seats'][0]['key']}", plant)
    phone.page.reload()
    phone.page.wait_for_selector("body[data-ready=true]")
    phone.idle()
    assert theirs in found(secrets[0], phone.texts())


def test_the_table_link_shows_no_seats_card(board, tabs):
    url, app = board
    created = create(url, "aetherya", seed=5)
    watch = Watch(app, created, [0, 1])
    secrets = watch.update()
    hidden_from_all = secrets[0] | secrets[1]
    seat, table = Phone.each(tabs, {"seat": created["seats"][0]["url"], "table": created["table"]}, width=1280).values()
    assert found(hidden_from_all, table.texts()) == []
    assert table.page.locator("#moves button").count() == 0
    before = table.revision()
    click_first_move(seat.page)
    table.page.wait_for_function(f"() => Number(document.body.dataset.revision) > {before}", timeout=10_000)
    table.idle()
    secrets = watch.update()
    assert found(secrets[0] | secrets[1], table.texts()) == []
    assert table.errors == [] and seat.errors == []


@pytest.mark.serial  # a wall-clock cap
def test_a_server_killed_mid_game_restarts_with_every_move_and_the_pages_reconnect(tabs, tmp_path):
    port = free_port()
    db = tmp_path / "games.sqlite3"
    server = Server(db, port)
    try:
        created = create(server.url, "forgotten", seed=2)
        phones = Phone.each(tabs, {s["player"]: s["url"] for s in created["seats"]})
        for _ in range(3):
            playing = mover(phones)
            other = next(p for p in phones.values() if p is not playing)
            before = other.revision()
            playing.page.locator("#moves button").first.click()
            other.page.wait_for_function(f"() => Number(document.body.dataset.revision) > {before}", timeout=10_000)
            playing.idle()
        moves = {seat: phone.page.locator("#move-list li").count() for seat, phone in phones.items()}
        revision = phones[0].revision()
        server.kill()
        with ThreadPoolExecutor(1) as restart:
            # the new server starts (a Python process: about half a second) while the pages are seen reconnecting
            # (each page's stream broke at the kill; it tries again a second later, the server's `retry`)
            started_again = restart.submit(Server, db, port)
            for phone in phones.values():
                phone.page.wait_for_function("() => /reconnecting/.test(document.querySelector('#status').textContent)",
                                             timeout=10_000)
            server = started_again.result()
        for phone in phones.values():
            phone.page.wait_for_function("() => !/reconnecting/.test(document.querySelector('#status').textContent)",
                                         timeout=15_000)
        assert {seat: phone.page.locator("#move-list li").count() for seat, phone in phones.items()} == moves
        playing = mover(phones)
        other = next(p for p in phones.values() if p is not playing)
        started = time.monotonic()
        playing.page.locator("#moves button").first.click()
        other.page.wait_for_function(f"() => Number(document.body.dataset.revision) > {revision}", timeout=10_000)
        assert time.monotonic() - started < 1.0
    finally:
        server.kill()


def test_at_a_real_table_each_phone_enters_its_own_cards_and_sees_the_others_masked(board, tabs):
    """Aetherya at a real table, two phones: the legend row entered on either, seat 0's start cards on seat 0's
    phone only (seat 1's phone waits), reaching seat 1's record as ``card ?``."""
    url, _ = board
    created = HTTP.post(f"{url}/api/games", json={"game": "aetherya", "mode": "table", "seats": TWO_HUMANS}).json()
    phones = Phone.each(tabs, {s["player"]: s["url"] for s in created["seats"]})
    for _ in range(8):  # the legend row: public, entered on seat 1's phone
        before = phones[0].revision()
        phones[1].page.locator("#moves button").first.click()
        phones[0].page.wait_for_function(f"() => Number(document.body.dataset.revision) > {before}",
                                         timeout=10_000)
        phones[1].idle()
    phones[0].idle()
    assert phones[1].page.locator("#moves button").count() == 0
    assert "Waiting for a seat" in phones[1].page.text_content("#status")
    card = phones[0].page.locator("#moves button").first.text_content()
    assert card.startswith("card ") and "?" not in card
    before = phones[1].revision()
    phones[0].page.locator("#moves button").first.click()
    phones[1].page.wait_for_function(f"() => Number(document.body.dataset.revision) > {before}", timeout=10_000)
    phones[1].idle()
    last = lambda phone: phone.page.locator("#move-list li").last.text_content()  # noqa: E731
    assert last(phones[0]) == card and last(phones[1]) == "card ?"
    assert all(phone.errors == [] for phone in phones.values())


def test_the_start_page_lists_this_browsers_games_and_resumes_them(board, tabs):
    """A seat opened in this browser is listed on the start page (the game, the seat, its last move) and a click on
    it resumes the seat where it stands; another browser (context) lists nothing."""
    url, _ = board
    created = create(url, "forgotten", seed=4)
    phone, stranger = Phone.each(tabs, {"seat": created["seats"][0]["url"], "stranger": url}).values()
    phone.page.locator("#moves button").first.click()
    phone.idle()
    moves = phone.page.locator("#move-list li").all_text_contents()
    assert moves
    phone.page.goto(url)
    phone.page.wait_for_selector("#saved-panel:not([hidden])", timeout=10_000)
    listed = phone.page.locator("#saved-games li")
    assert listed.count() == 1
    assert "Seat 0" in listed.first.text_content() and "last move" in listed.first.text_content()
    listed.first.locator("a").click()
    phone.page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    phone.idle()
    assert phone.page.url == created["seats"][0]["url"]
    assert phone.page.locator("#move-list li").all_text_contents() == moves
    assert stranger.page.is_hidden("#saved-panel") and stranger.page.locator("#saved-games li").count() == 0
    assert phone.errors == [] and stranger.errors == []


@pytest.mark.parametrize("game, names", [("embers", ["Fenrys", "Aelin"]), ("forgotten", ["Seat 0", "Seat 1"])])
def test_the_seat_page_and_the_links_panel_name_the_players_as_the_game_does(board, tabs, game, names):
    """Issue 22, 3: a game dealt from a phone for players on their own phones: the seat page says whose it is and
    the Links panel labels each seat's link with the game's name for that player (Embers: Fenrys and Aelin)."""
    url, _ = board
    phone = Phone(tabs, url)
    page = phone.page
    page.select_option("#game", game)
    page.fill("#seed", "3")
    page.select_option("#others", "devices")
    page.click("#deal")
    page.wait_for_selector("#table:not([hidden])", timeout=60_000)
    page.wait_for_selector("#links figcaption", timeout=30_000)
    phone.idle()
    assert names[0] in page.text_content("#whoami")
    captions = page.locator("#links figcaption a").all_text_contents()
    assert captions[:2] == [f"{names[0]} (this page)", names[1]]
    assert phone.errors == []
