"""The table server's HTTP API (docs/web.md, "The table server"), without a browser: games dealt and entered at a
real table, each seat's view exactly the command line's, keys that open one seat and nothing else, stale moves,
undo and redo, the engine's seats, the full record, records continued, the events a page listens to."""

import dataclasses
import json
import random
import sqlite3
import time
from urllib.parse import urlsplit

import httpx
import pytest
from starlette.testclient import TestClient

from solver.cli import main
from solver.datafiles import unrestrict
from solver.record import record_from_json
from solver.registry import game_names, load_game
from solver.web.seats import common_knowledge
from solver.web.server import build_app

TWO_HUMANS = [{"player": 0, "by": "human"}, {"player": 1, "by": "human"}]


@pytest.fixture
def app(tmp_path, pile_game, engine_seat_limits):
    yield build_app(threads=2, db=tmp_path / "games.sqlite3", engine_limits=engine_seat_limits)
    unrestrict()  # the board allowed only the package's data files; the tests that follow may name others


@pytest.fixture
def client(app):
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        yield c


def new(client, game, seed=1, mode=None, seats=None, **more):
    body = {"game": game, "seed": seed, **more}
    if mode is not None:
        body["mode"] = mode
    if seats is not None:
        body["seats"] = seats
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def keys_of(created):
    return {s["player"]: s["key"] for s in created["seats"]}


def table_key(created):
    return created["table"].rsplit("/", 1)[1]


def get(client, created, key):
    answer = client.get(f"/api/games/{created['id']}/{key}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def post(client, created, key, what, body):
    return client.post(f"/api/games/{created['id']}/{key}/{what}", json=body)


def cli_json(capsys, *args):
    assert main(list(args)) == 0
    out, _ = capsys.readouterr()
    return json.loads(out)


def server_state(app, created):
    """The full state the server holds (white box: the test compares it with what the command line says)."""
    table, _ = app.state.tables.open(created["id"], next(iter(keys_of(created).values())))
    return table.now.state


def settled(client, created):
    """Every seat's answer once no engine seat is thinking."""
    keys = keys_of(created)
    first = next(iter(keys.values()))
    wait_for(client, created, first, lambda a: not a["thinking"])
    return {p: get(client, created, k) for p, k in keys.items()}


def play_some(client, created, count):
    """Whoever is to move plays their first legal move, ``count`` times (the engine's seats answering in between);
    returns the answers of the seats."""
    keys = keys_of(created)
    for _ in range(count):
        answers = settled(client, created)
        movers = [p for p, a in answers.items() if a["legalMoves"]]
        if not movers:
            return answers
        p = movers[0]
        answer = post(client, created, keys[p], "moves", {"moves": [answers[p]["legalMoves"][0]],
                                                        "expect": len(answers[p]["record"]["moves"])})
        assert answer.status_code == 200, answer.text
    return settled(client, created)


# ---------------------------------------------------------------------------------------------- dealt games
@pytest.mark.parametrize("game", game_names())
def test_a_dealt_game_starts_where_new_seed_deals_it_and_each_seat_sees_its_cli_view(client, app, game, capsys,
                                                                                     tmp_path):
    created = new(client, game, seed=4, seats=TWO_HUMANS)
    start = load_game(game).new_game(4)
    assert start.to_json() == cli_json(capsys, game, "new", "--seed", "4", "--json")
    table, _ = app.state.tables.open(created["id"], keys_of(created)[0])
    assert table.snapshots[0].state.to_json() == start.to_json()
    answers = play_some(client, created, 6)
    state_file = tmp_path / "state.json"
    state_file.write_text(json.dumps(server_state(app, created).to_json()))
    state = server_state(app, created)
    for seat, answer in answers.items():
        assert answer["player"] == seat and set(answer) >= {"id", "player", "view", "record", "legalMoves", "over"}
        if answer["legalMoves"]:  # the seat to move may enter exactly the state's legal moves
            assert state.current_player() == seat
            assert answer["legalMoves"] == [state.action_to_string(a) for a in state.legal_actions()]
        assert answer["view"] == cli_json(capsys, game, "view", str(state_file), "--player", str(seat), "--json")
        record = record_from_json(answer["record"])
        assert record.observer == seat
        assert record.final_position().to_json() == answer["view"]


def test_a_move_on_another_seats_turn_or_an_illegal_one_is_refused_naming_the_move(client):
    created = new(client, "forgotten", seats=TWO_HUMANS)
    keys = keys_of(created)
    wrong_turn = post(client, created, keys[1], "moves", {"moves": ["flip 1,1"]})
    assert wrong_turn.status_code == 400 and wrong_turn.json()["field"] == "moves[0]"
    assert "it is seat 0 to move" in wrong_turn.json()["error"]
    illegal = post(client, created, keys[0], "moves", {"moves": ["flip 1,3"]})
    assert illegal.status_code == 400 and illegal.json()["field"] == "moves[0]" and "'flip 1,3'" in illegal.json()["error"]
    for body, field in (({"moves": "flip 1,1"}, "moves"), ({"moves": []}, "moves"), ({"moves": ["flip 1,1"], "x": 1}, "body.x"),
                        ({"moves": ["flip 1,1"], "expect": -1}, "expect")):
        answer = post(client, created, keys[0], "moves", body)
        assert answer.status_code == 400 and answer.json()["field"] == field, answer.text
    assert get(client, created, keys[0])["record"]["moves"] == []


def test_a_stale_expect_gets_409_with_the_current_state(client):
    created = new(client, "forgotten", seats=TWO_HUMANS)
    keys = keys_of(created)
    first = post(client, created, keys[0], "moves", {"moves": ["flip 1,1"], "expect": 0})
    assert first.status_code == 200
    stale = post(client, created, keys[0], "moves", {"moves": ["flip 2,1"], "expect": 0})
    assert stale.status_code == 409 and stale.json()["field"] == "expect"
    assert stale.json()["record"] == first.json()["record"] and stale.json()["view"] == first.json()["view"]
    fresh = post(client, created, keys[0], "moves", {"moves": ["flip 2,1"],
                                                     "expect": len(first.json()["record"]["moves"])})
    assert fresh.status_code == 200


def test_new_games_are_validated_naming_the_field(client):
    for body, field in (({"game": "chess"}, "game"), ({"game": "forgotten", "mode": "x"}, "mode"),
                        ({"game": "forgotten", "seed": -1}, "seed"), ({}, "body.game"),
                        ({"game": "forgotten", "seats": [{"player": 2}]}, "seats[0].player"),
                        ({"game": "forgotten", "seats": [{"player": 0, "by": "engine"}]}, "seats"),
                        ({"game": "forgotten", "mode": "table", "seats": [{"player": 0, "by": "engine"}]},
                         "seats[0].by"),
                        ({"game": "forgotten", "colour": "red"}, "body.colour")):
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 400 and answer.json()["field"] == field, (body, answer.text)


# ---------------------------------------------------------------------------------------------- keys
def test_a_key_opens_only_its_seat_and_a_wrong_key_answers_exactly_like_an_unknown_game(client, app, tmp_path):
    one = new(client, "aetherya", seats=TWO_HUMANS)
    other = new(client, "aetherya", seed=2, seats=TWO_HUMANS)
    for seat, key in keys_of(one).items():
        assert len(key) >= 22  # 16 random bytes, URL-safe
        assert get(client, one, key)["player"] == seat
    assert get(client, one, table_key(one))["player"] is None
    unknown = client.get(f"/api/games/nosuchgame/{keys_of(one)[0]}")
    assert unknown.status_code == 404
    wrong = [client.get(f"/api/games/{one['id']}/{keys_of(other)[0]}"),   # another game's key
             client.get(f"/api/games/{one['id']}/{keys_of(one)[0][:-1]}x"),
             client.get(f"/api/games/{one['id']}/{table_key(other)}")]
    for answer in wrong:
        assert answer.status_code == 404 and answer.content == unknown.content
        assert answer.headers["content-type"] == unknown.headers["content-type"]
    for path, method in (("moves", "post"), ("undo", "post"), ("redo", "post"), ("events", "get"), ("record", "get"),
                         ("reveal", "post"), ("qr", "get")):
        url = f"/api/games/{one['id']}/{keys_of(other)[1]}/{path}"
        answer = client.post(url, json={}) if method == "post" else client.get(url)
        assert answer.status_code == 404 and answer.content == unknown.content, path
    # the keys themselves are nowhere in the database (their SHA-256 is)
    app.state.tables.store.close()
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("games.sqlite3*"))
    for created in (one, other):
        for key in [*keys_of(created).values(), table_key(created)]:
            assert key.encode() not in stored
    assert one["id"].encode() in stored


def test_no_seat_answer_holds_another_seats_key(client):
    created = new(client, "mnemonic", seats=TWO_HUMANS)
    keys = keys_of(created)
    for seat, key in keys.items():
        text = client.get(f"/api/games/{created['id']}/{key}").text
        assert all(other not in text for s, other in keys.items() if s != seat)
        assert table_key(created) not in text


def test_the_table_link_shows_only_what_every_seat_sees_and_enters_nothing(client, app):
    created = new(client, "aetherya", seed=3, seats=TWO_HUMANS)
    seats = settled(client, created)
    assert seats[0]["view"]["start"][0] != "????" and seats[1]["view"]["start"][1] != "????"
    table = get(client, created, table_key(created))
    assert table["view"]["start"] == ["????", "????"]  # each seat's start cards are known to that seat only
    assert seats[0]["view"]["start"][0] not in json.dumps(table)
    answers = play_some(client, created, 12)
    table = get(client, created, table_key(created))
    assert table["player"] is None and table["legalMoves"] == []
    assert table["view"] == common_knowledge([answers[0]["view"], answers[1]["view"]])
    refused = post(client, created, table_key(created), "moves", {"moves": ["arrange PHER"]})
    assert refused.status_code == 403


def test_common_knowledge_keeps_only_what_all_agree_on():
    assert common_knowledge([{"a": "PH?R", "b": 1, "c": [1, 2], "only": 0}, {"a": "??ER", "b": 1, "c": [1, 3]}]) == \
        {"a": "???R", "b": 1, "c": [1, None]}
    assert common_knowledge(["draw H", "draw ?"]) == "draw ?"
    assert common_knowledge(["take S3 over", "take S3"]) == "?"
    assert common_knowledge([["x"], ["x", "y"]]) is None


# ---------------------------------------------------------------------------------------------- the engine's seats
def wait_for(client, created, key, ready, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer = get(client, created, key)
        if ready(answer):
            return answer
        time.sleep(0.05)
    raise AssertionError(f"not ready after {seconds} s: {answer}")


def test_the_engine_plays_its_seats_and_undo_goes_back_to_the_humans_decision(client):
    created = new(client, "pile", seed=0)
    key = keys_of(created)[0]
    assert [s["player"] for s in created["seats"]] == [0]  # the engine's seat has no key
    assert get(client, created, key)["seats"] == [{"player": 0, "by": "human", "name": "Seat 0"},
                                                  {"player": 1, "by": "engine", "name": "Seat 1"}]
    first = get(client, created, key)
    played = post(client, created, key, "moves", {"moves": [first["legalMoves"][0]], "expect": 0}).json()
    after = wait_for(client, created, key, lambda a: len(a["record"]["moves"]) == 2 and not a["thinking"])
    assert after["record"]["moves"][0]["move"] == played["record"]["moves"][0]["move"]
    undone = post(client, created, key, "undo", {"expect": 2}).json()
    assert undone["record"]["moves"] == [] and undone["canRedo"]
    redone = post(client, created, key, "redo", {}).json()
    assert [m["move"] for m in redone["record"]["moves"]] == [m["move"] for m in after["record"]["moves"]]
    assert post(client, created, key, "redo", {}).status_code == 409


def test_chance_outcomes_are_drawn_from_the_seed_as_the_engines_sample_draws_them(client, app):
    created = new(client, "mnemonic", seed=7, seats=TWO_HUMANS)
    play_some(client, created, 3)
    table, _ = app.state.tables.open(created["id"], keys_of(created)[0])
    state = table.snapshots[0].state.clone()
    from solver.engine import Engine
    for i, move in enumerate(table.line):
        if move.by == -1:
            out = []

            class Lines:
                def write(self, text):
                    out.extend(json.loads(line) for line in text.splitlines())

                def flush(self):
                    pass
            engine = Engine(Lines())
            engine.handle_line(json.dumps({"id": i, "action": "sample", "game": "mnemonic", "seed": 7,
                                           "state": table.snapshots[0].state.to_json(),
                                           "moves": [m.move for m in table.line[:i]]}))
            engine.close()
            assert out[0]["move"] == move.move
        state.apply_move(move.move)


# ---------------------------------------------------------------------------------------------- full records
def play_to_the_end(client, created, limit=200):
    answers = play_some(client, created, limit)
    assert all(a["over"] for a in answers.values())
    return answers


def test_the_full_record_opens_when_the_game_is_over(client):
    created = new(client, "pile", seed=0, seats=TWO_HUMANS)
    keys = keys_of(created)
    assert client.get(f"/api/games/{created['id']}/{keys[0]}/record").status_code == 403
    play_to_the_end(client, created)
    for key in (keys[0], keys[1], table_key(created)):
        full = client.get(f"/api/games/{created['id']}/{key}/record")
        assert full.status_code == 200 and full.json()["observer"] is None
        assert record_from_json(full.json()).final_position().is_terminal()


def test_a_training_game_reveals_its_full_record_to_its_one_human_seat(client):
    created = new(client, "aetherya", seed=2)
    key = keys_of(created)[0]
    assert client.get(f"/api/games/{created['id']}/{key}/record").status_code == 403
    revealed = post(client, created, key, "reveal", {})
    assert revealed.status_code == 200 and revealed.json()["observer"] is None
    assert revealed.json()["start"]["start"][1] != "????"  # the other kingdom's start cards
    assert get(client, created, key)["fullRecord"] is True
    two = new(client, "aetherya", seed=2, seats=TWO_HUMANS)
    assert post(client, two, keys_of(two)[0], "reveal", {}).status_code == 403


def test_a_record_continues_a_game(client):
    created = new(client, "pile", seed=0, seats=TWO_HUMANS)
    keys = keys_of(created)
    post(client, created, keys[0], "moves", {"moves": ["take1"]})
    seat_record = get(client, created, keys[0])["record"]
    continued = new(client, "pile", record=seat_record)
    answer = get(client, continued, keys_of(continued)[0])
    assert answer["mode"] == "table" and answer["record"]["moves"] == [{"move": "take1", "time": answer["record"]
                                                                        ["moves"][0]["time"]}]
    assert answer["view"] == seat_record["start"] | {"pile": seat_record["start"]["pile"] - 1, "player": 1}
    full = {"format": "memory-solver-record", "version": 1, "game": "aetherya",
            "start": load_game("aetherya").new_game(5).to_json(), "moves": []}
    dealt = new(client, "aetherya", record=full)
    assert get(client, dealt, keys_of(dealt)[0])["mode"] == "dealt"
    bad = client.post("/api/games", json={"game": "pile", "record": {**seat_record, "moves": ["take9"]}})
    assert bad.status_code == 400 and bad.json()["field"] == "record.moves[0]"


# ---------------------------------------------------------------------------------------------- a real table
def test_at_a_real_table_each_seat_enters_its_own_cards_and_the_others_see_them_masked(client):
    created = new(client, "aetherya", mode="table", seats=TWO_HUMANS)
    keys = keys_of(created)
    seat0 = get(client, created, keys[0])
    assert seat0["mode"] == "table" and seat0["view"]["start"] == ["", ""]
    while get(client, created, keys[0])["legalMoves"] == get(client, created, keys[1])["legalMoves"]:
        entry = get(client, created, keys[1])["legalMoves"][0]  # the legend row: public, entered on either seat
        assert post(client, created, keys[1], "moves", {"moves": [entry]}).status_code == 200
    own = get(client, created, keys[0])
    assert own["legalMoves"][0].startswith("card ") and "card ?" not in own["legalMoves"]
    assert get(client, created, keys[1])["legalMoves"] == []  # seat 0's cards are entered on seat 0's page
    assert post(client, created, keys[1], "moves", {"moves": ["card ?"]}).status_code == 400
    card = own["legalMoves"][0]
    assert post(client, created, keys[0], "moves", {"moves": [card]}).status_code == 200
    assert get(client, created, keys[0])["record"]["moves"][-1]["move"] == card
    assert get(client, created, keys[1])["record"]["moves"][-1]["move"] == "card ?"
    undone = post(client, created, keys[1], "undo", {}).json()
    assert undone["record"]["moves"][-1]["move"] != "card ?"


def lone_masked(legal):
    """Whether a seat's legal entries are a lone masked form (``card ?``): a click for a card it has not seen."""
    return len(legal) == 1 and "?" in legal[0].split()


class Replay:
    """A seat's record replayed as it grows: the moves added since the last look applied to the position the
    earlier ones left (``Record._replay``, in place), so that each look checks what ``final_position`` of the
    whole record checks (forced entries included) without replaying the record from its start again; a record
    whose start or earlier moves changed is replayed from its start."""

    def __init__(self):
        self.start, self.moves, self.position = None, [], None

    def final_position(self, record_json):
        record = record_from_json(record_json)
        moves = [m.move for m in record.moves]
        if self.position is None or record.start != self.start or moves[:len(self.moves)] != self.moves:
            self.start, self.moves, self.position = record.start, [], record.start_position()
        dataclasses.replace(record, moves=record.moves[len(self.moves):])._replay(self.position, "record")
        self.moves = moves
        return self.position


@pytest.mark.parametrize("mode, seats", [("table", [{"player": 0, "by": "human"}]), ("table", TWO_HUMANS),
                                         ("dealt", TWO_HUMANS)], ids=["table-one-seat", "table-two-seats", "dealt"])
@pytest.mark.parametrize("game", game_names())
def test_no_seat_is_ever_asked_to_enter_a_card_it_has_not_seen(client, game, mode, seats):
    """Issue 22, 3: the server enters a forced masked entry itself (as ``Game.apply`` does), after every move and
    at the start; each seat's record holds it and replays to the seat's view."""
    created = new(client, game, seed=3, mode=mode, seats=seats)
    keys = keys_of(created)
    rng = random.Random(game)
    masked_entered = 0
    replays = {seat: Replay() for seat in keys}
    for _ in range(40):
        answers = settled(client, created)
        for seat, answer in answers.items():
            assert not lone_masked(answer["legalMoves"]), (seat, answer["legalMoves"], answer["record"]["moves"])
            assert replays[seat].final_position(answer["record"]).to_json() == answer["view"]
        masked_entered = max(masked_entered, *(sum("?" in m["move"].split() for m in a["record"]["moves"])
                                              for a in answers.values()))
        movers = [p for p, a in answers.items() if a["legalMoves"]]
        if not movers:
            break
        seat = rng.choice(movers)
        legal = answers[seat]["legalMoves"]
        moved = post(client, created, keys[seat], "moves", {"moves": [rng.choice(legal)],
                                                              "expect": len(answers[seat]["record"]["moves"])})
        assert moved.status_code == 200, moved.text
        assert not lone_masked(moved.json()["legalMoves"])
    if mode == "table" and len(seats) == 1 and game in ("aetherya", "embers"):
        assert masked_entered > 0  # the server did enter masked entries (the games that have them at setup)


def test_a_forced_entry_sent_explicitly_is_taken_as_it_is(client):
    """As ``Game.apply``: a client that still sends the forced ``card ?`` itself gets the same game."""
    created = new(client, "aetherya", mode="table", seats=[{"player": 0, "by": "human"}])
    key = keys_of(created)[0]
    for _ in range(40):
        answer = get(client, created, key)
        before = [m["move"] for m in answer["record"]["moves"]]
        moved = post(client, created, key, "moves", {"moves": [answer["legalMoves"][0]]}).json()
        after = [m["move"] for m in moved["record"]["moves"]]
        if after[len(before) + 1:len(before) + 2] == ["card ?"]:
            break
    else:
        pytest.fail("no move followed by a forced 'card ?' in 40 moves")
    undone = post(client, created, key, "undo", {}).json()
    assert [m["move"] for m in undone["record"]["moves"]] == before
    again = post(client, created, key, "moves", {"moves": [after[len(before)], "card ?"]}).json()
    assert [m["move"] for m in again["record"]["moves"]] == after and again["view"] == moved["view"]


def test_a_seats_record_without_its_forced_entries_continues_with_the_server_entering_them(client):
    created = new(client, "aetherya", mode="table", seats=[{"player": 0, "by": "human"}])
    key = keys_of(created)[0]
    for _ in range(12):
        answer = get(client, created, key)
        assert post(client, created, key, "moves", {"moves": [answer["legalMoves"][0]]}).status_code == 200
    record = get(client, created, key)["record"]
    assert any(m["move"] == "card ?" for m in record["moves"])
    lean = {**record, "moves": [m for m in record["moves"] if "?" not in m["move"].split()]}
    continued = new(client, "aetherya", record=lean)
    answer = get(client, continued, keys_of(continued)[0])
    assert answer["view"] == get(client, created, key)["view"]
    assert not lone_masked(answer["legalMoves"])


@pytest.mark.parametrize("game", game_names())
def test_the_seats_carry_the_games_names_for_its_players(client, game):
    """Issue 22, 3: the seats are named as the rulebook names the players (Embers: Fenrys and Aelin; Rowan in the
    Prologue); a game whose rules name no one keeps "Seat N"."""
    named = {"embers": ["Fenrys", "Aelin"]}
    created = new(client, game, seats=TWO_HUMANS)
    players = [s["player"] for s in get(client, created, table_key(created))["seats"]]
    expected = named.get(game, [f"Seat {p}" for p in players])
    assert [s["name"] for s in created["seats"]] == expected[:2]
    for seat, key in keys_of(created).items():
        assert [s["name"] for s in get(client, created, key)["seats"]] == expected
        qr = client.get(f"/api/games/{created['id']}/{key}/qr")
        assert f"<title>{expected[seat]}</title>" in qr.text
    assert [s["name"] for s in get(client, created, table_key(created))["seats"]] == expected


def test_the_embers_prologue_names_rowan_and_aelin(client):
    created = new(client, "embers(chapter=prologue)", seats=TWO_HUMANS)
    assert [s["name"] for s in created["seats"]] == ["Rowan", "Aelin"]


# ---------------------------------------------------------------------------------------------- events
@pytest.mark.serial  # a wall-clock cap
def test_a_move_reaches_the_other_seats_event_stream_within_a_second(live_server):
    url, _ = live_server
    created = httpx.post(f"{url}/api/games", json={"game": "forgotten", "seed": 1, "seats": TWO_HUMANS}).json()
    keys = keys_of(created)
    with httpx.stream("GET", f"{url}/api/games/{created['id']}/{keys[1]}/events", timeout=10) as events:
        lines = events.iter_lines()
        first = _next_event(lines)
        assert first["player"] == 1 and first["record"]["moves"] == []
        sent = time.monotonic()
        assert httpx.post(f"{url}/api/games/{created['id']}/{keys[0]}/moves",
                          json={"moves": ["flip 1,1"]}).status_code == 200
        changed = _next_event(lines)
        assert time.monotonic() - sent < 1.0
        assert [m["move"] for m in changed["record"]["moves"]][:1] == ["flip 1,1"]
        assert changed["player"] == 1 and changed["view"]["view"] == 1
    bad = httpx.get(f"{url}/api/games/{created['id']}/{keys[0][::-1]}/events")
    assert bad.status_code == 404


def _next_event(lines):
    data = None
    for line in lines:
        if line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "" and data is not None:
            return data
    raise AssertionError("the stream ended")


def test_a_seats_qr_code_is_its_link(client):
    created = new(client, "forgotten")
    qr = client.get(f"/api/games/{created['id']}/{keys_of(created)[0]}/qr")
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")
    assert qr.text.startswith("<svg") and "<title>Seat 0</title>" in qr.text
    import segno
    expected = segno.make(created["seats"][0]["url"], error="m")
    assert f'width="{(expected.symbol_size(scale=5, border=2))[0]}"' in qr.text


def test_the_database_has_a_schema_version(app, tmp_path):
    app.state.tables.store.close()
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        assert db.execute("SELECT version FROM schema_version").fetchone() == (1,)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_game_dropped_from_memory_is_reloaded_from_the_database(client, monkeypatch):
    from solver.web import seats
    monkeypatch.setattr(seats, "CACHED_GAMES", 1)
    one = new(client, "forgotten", seats=TWO_HUMANS)
    first = post(client, one, keys_of(one)[0], "moves", {"moves": ["flip 1,1"]}).json()
    other = new(client, "forgotten", seed=2, seats=TWO_HUMANS)
    get(client, other, keys_of(other)[0])  # the first game leaves memory
    again = get(client, one, keys_of(one)[0])
    assert again["record"] == first["record"] and again["view"] == first["view"]
    more = post(client, one, keys_of(one)[0], "moves", {"moves": ["flip 2,1"],
                                                        "expect": len(again["record"]["moves"])})
    assert more.status_code == 200


def test_an_unknown_game_and_a_wrong_key_take_the_same_single_lookup(app, client, monkeypatch):
    """No timing oracle: either way the server hashes the key, looks the hash up once and loads no game."""
    created = new(client, "forgotten", seats=TWO_HUMANS)
    other = new(client, "forgotten", seed=2, seats=TWO_HUMANS)
    store = app.state.tables.store
    calls = []
    for name in ("opens", "load"):
        original = getattr(store, name)
        monkeypatch.setattr(store, name, lambda *a, _o=original, _n=name: calls.append(_n) or _o(*a))
    for path in (f"nosuchgame/{keys_of(created)[0]}", f"{created['id']}/{keys_of(other)[0]}",
                 f"{created['id']}/{'x' * 22}"):
        calls.clear()
        assert client.get(f"/api/games/{path}").status_code == 404
        assert calls == ["opens"], path


# ---------------------------------------------------------------------------------------------- the server's checks
def test_the_table_routes_go_through_the_servers_checks(client):
    """Issue 23's middleware guards every table route: Host, Origin, Content-Type, body size, security headers and
    JSON errors; the seat's page carries the same CSP."""
    created = new(client, "forgotten", seats=TWO_HUMANS)
    seat = f"/api/games/{created['id']}/{keys_of(created)[0]}"
    body = {"game": "forgotten", "seats": TWO_HUMANS}
    for answer, status, field in (
            (client.post("/api/games", json=body, headers={"Origin": "http://evil.example"}), 403, "Origin"),
            (client.post(f"{seat}/moves", json={"moves": ["flip 1,1"]}, headers={"Sec-Fetch-Site": "cross-site"}),
             403, "Origin"),
            (client.post(f"{seat}/moves", content=b'{"moves": ["flip 1,1"]}', headers={"Content-Type": "text/plain"}),
             415, "Content-Type"),
            (client.get(seat, headers={"Host": "evil.example:8765"}), 403, "Host"),
            (client.post("/api/games", content=b"{" + b" " * (2 * 1024 * 1024) + b"}",
                         headers={"Content-Type": "application/json"}), 413, None)):
        assert answer.status_code == status, answer.text
        assert set(answer.json()) == {"id", "error", "field"} and (field is None or answer.json()["field"] == field)
    assert get(client, created, keys_of(created)[0])["record"]["moves"] == []  # nothing refused was applied
    for path in (seat, f"{seat}/qr", f"/play/{created['id']}/{keys_of(created)[0]}", urlsplit(created["table"]).path):
        answer = client.get(path)
        assert answer.status_code == 200 and "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        assert answer.headers["x-content-type-options"] == "nosniff", path
    malformed = client.post(f"{seat}/moves", content=b'{"moves": [', headers={"Content-Type": "application/json"})
    assert malformed.status_code == 400 and malformed.json()["field"] == "body"
