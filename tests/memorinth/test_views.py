"""Player views (MR-21): round trips, entries at the table, re-sampling, hints from the view alone, records and
reviews (issue 10, docs/formats/memorinth.md)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from solver import contract
from solver.errors import IllegalMoveError, ImpossibleStateError, InvalidInputError, InvalidMoveError, UnknownCardError
from solver.memorinth.game import MemorinthGame
from solver.memorinth.layout import DOWN, UP
from solver.memorinth.knowledge import table_entries
from solver.memorinth.view import MemorinthView
from solver.record import Record
from solver.review import review
from solver.search import Limits, SearchContext

GAMES = [MemorinthGame(), MemorinthGame(players=3, variant="master", action_side="special"),
         MemorinthGame(variant="master", action_side="alternate")]


def random_game(game: MemorinthGame, seed: int, steps: int = 400):
    """A seeded random game: (start state, [(state before, action)], final state)."""
    state = game.new_initial_state(seed)
    start = state.clone()
    rng = np.random.default_rng(seed)
    history = []
    while not state.is_terminal() and len(history) < steps:
        legal = state.legal_actions()
        action = int(legal[rng.integers(len(legal))])
        history.append((state.clone(), action))
        state.apply_action(action)
    return start, history, state


def strip_seconds(result):
    body = result.to_json()
    body["rootInfo"].pop("seconds")
    return body


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.spec())
def test_views_round_trip_and_follow_the_state_with_the_observers_entries(game):
    """MR-21 / MR-29 / MR-30: at every step of random games each player's view, advanced only by what that player enters at the
    table (the move, then the side it showed when they did not know it), equals the state's view of them; the
    view's JSON and notation round-trip (also while a revealed side is awaited)."""
    for seed in range(2):
        start, history, final = random_game(game, seed, steps=150)
        n = game.rules.players
        views = [start.view(p) for p in range(n)]
        reveals = 0
        for step, (state, action) in enumerate(history):
            for p, view in enumerate(views):
                for entry in table_entries(state, action, p):
                    assert entry in view.legal_moves()
                    view.apply_move(entry)
                    if view.reveal >= 0:
                        reveals += 1
                        assert view.current_player() == -1 and view.phase == "reveal"
                        assert game.parse_position(view.to_json()).to_json() == view.to_json()
                        assert game.parse_position(view.to_notation()).to_notation() == view.to_notation()
            after = history[step + 1][0] if step + 1 < len(history) else final
            for p, view in enumerate(views):
                assert view.to_json() == after.view(p).to_json()
                if step % 10 == 0:
                    assert game.view_from_json(json.loads(json.dumps(view.to_json()))).to_json() == view.to_json()
                    assert game.view_from_notation(view.to_notation()).to_notation() == view.to_notation()
        assert reveals > 0
        assert [v.is_terminal() for v in views] == [final.is_terminal()] * n


def test_a_real_table_from_before_the_deal_to_the_end_replays_as_a_record(tmp_path):
    """MR-30: new_table: the observer enters the deal (the chance_setup strings) and every move as it happens; the record
    of those entries replays to the observer's view of the full game, and the full record to the full state."""
    game = MemorinthGame(chance_setup=True)
    start, history, final = random_game(game, 5, steps=300)
    assert start.phase == "setup" and final.is_terminal()
    entries = [e for state, action in history for e in table_entries(state, action, 1)]
    table = Record.start_of(game.new_table(1)).extended(entries, stamp=False)
    path = tmp_path / "table.jsonl"
    path.write_text(table.to_lines())
    from solver.record import load_record_file
    again = load_record_file(str(path))
    assert again.observer == 1
    assert again.final_position(game).to_json() == final.view(1).to_json()
    full = Record.start_of(start).extended([state.action_to_string(a) for state, a in history], stamp=False)
    assert full.final_position(game).to_json() == final.to_json()


def test_resample_keeps_the_view_and_is_resample_from_observation():
    """MR-21 / MR-29: view.resample(rng) draws the same state as state.resample_from_observation(p, rng); its view is the view."""
    start, history, _ = random_game(GAMES[1], 3, steps=60)
    for state, _ in history[::7]:
        for p in range(3):
            view = state.view(p)
            for seed in range(3):
                a = view.resample(np.random.default_rng(seed))
                b = state.resample_from_observation(p, np.random.default_rng(seed))
                assert a.to_json() == b.to_json() and a.view(p).to_json() == view.to_json()


def test_hint_on_a_state_is_the_hint_on_its_view_and_hidden_cards_do_not_matter():
    """MR-27 / MR-29: a hint for player p on a state is the hint on state.view(p) (same nodes budget and seed); a second state
    with the same view (two unknown undersides exchanged) gives the identical hint."""
    game = GAMES[0]
    _, history, _ = random_game(game, 8, steps=30)
    checked = 0
    for state, _ in history[::6]:
        p = state.current_player()
        ctx = lambda: SearchContext(limits=Limits(nodes=300), seed=4)  # noqa: E731
        on_state = strip_seconds(contract.hint(game, state, ctx(), top=3))
        assert on_state == strip_seconds(contract.hint(game, state.view(p), ctx(), top=3))
        assert on_state == strip_seconds(contract.hint(game, state.view(p).to_notation(), ctx(), top=3))
        hidden = [c for c in range(25) if not state.knows_underside(c, p) and state.vec[UP + c] % 2 == 0]
        other = state.clone()
        other.vec[DOWN + hidden[0]], other.vec[DOWN + hidden[-1]] = (other.vec[DOWN + hidden[-1]],
                                                                     other.vec[DOWN + hidden[0]])
        assert other.to_json() != state.to_json() and other.view(p).to_json() == state.view(p).to_json()
        assert strip_seconds(contract.hint(game, other, ctx(), top=3)) == on_state
        checked += 1
    assert checked >= 3


def test_a_hint_at_top_1000_ranks_every_move_within_its_budget():
    """Review needs every move's value: top=1000 lists each legal move with a valueCI, and the node budget is
    met exactly, never overshot; with a budget too small to play every move out, the rest are listed unplayed."""
    state = GAMES[0].deal(3)
    result = contract.hint(GAMES[0], state, SearchContext(limits=Limits(nodes=777)), top=1000)
    assert sorted(m.move for m in result.move_infos) == sorted(GAMES[0].legal_moves(state))
    assert result.root_info["playouts"] == 777 == sum(m.extra["playouts"] for m in result.move_infos)
    values = [m.value for m in result.move_infos]
    assert values == sorted(values, reverse=True)
    for info in result.move_infos:
        lo, hi = info.extra["valueCI"]
        assert lo <= info.value <= hi
    tiny = contract.hint(GAMES[0], state, SearchContext(limits=Limits(nodes=5)), top=1000)
    assert tiny.root_info["playouts"] == 5 and len(tiny.move_infos) == 12
    assert [m.extra["playouts"] for m in tiny.move_infos].count(0) == 7
    assert "not played out" in tiny.move_infos[-1].why


def test_reasons_say_when_moves_are_within_the_noise():
    """Issue 22 section 2: a move listed below the first whose paired difference to it is within noise says so, with
    the interval; the moves after the first follow their values, and the first says why when one below shows more."""
    result = contract.hint(GAMES[0], GAMES[0].deal(3), SearchContext(limits=Limits(nodes=600)), top=3)
    first, second = result.move_infos[0], result.move_infos[1]
    assert f"within noise of {first.move}" in second.why and "95% interval" in second.why
    assert second.extra["lossToFirst"]["ci"][0] <= 0 <= second.extra["lossToFirst"]["ci"][1]
    values = [m.value for m in result.move_infos[1:]]
    assert values == sorted(values, reverse=True)
    if any(m.value > first.value for m in result.move_infos[1:]):
        assert "within noise: as good as" in first.why


@pytest.mark.parametrize("moves,field,error,needle", [
    (["flip a1", "reveal 7S"], "MOVE[1]", IllegalMoveError, "a1 shows a Sun side (7S), so its underside is a Moon"),
    (["flip a1", "reveal 12M"], "MOVE[1]", IllegalMoveError, "12M is face up on b1"),
    (["flip a1", "reveal CM"], "MOVE[1]", IllegalMoveError, "the clearing's other side"),
    (["flip a1", "reveal 99M"], "MOVE[1]", UnknownCardError, "no card '99'"),
    (["flip a1", "reveal twelve"], "MOVE[1]", InvalidMoveError, "expected a side"),
    (["flip a1", "flip c1"], "MOVE[1]", IllegalMoveError, "enter what it showed first"),
    (["reveal 7M"], "MOVE[0]", IllegalMoveError, "no underside is being revealed now"),
    (["flip a1", "reveal 7M", "flip a1", "reveal 1S"], "MOVE[2]", IllegalMoveError, "not a legal move"),
    (["flip a1", "reveal 7M", "flip c1", "reveal 7M"], "MOVE[3]", IllegalMoveError, "7M is face up on a1"),
])
def test_apply_on_a_view_refuses_impossible_outcomes_naming_the_field(moves, field, error, needle):
    """MR-30: an outcome that cannot be there given what the observer has seen is refused with the field and why."""
    game = GAMES[0]
    view = game.deal(3).view(0)
    with pytest.raises(error, match=re.escape(needle)) as info:
        game.apply(view, moves, "MOVE")
    assert info.value.field == field


def test_an_underside_seen_by_a_peek_is_refused_elsewhere():
    """MR-16 / MR-21: after peeking under a card the observer knows that side's place, so a flip elsewhere cannot
    reveal it; the other player, who only saw which card was looked at, may still be told it."""
    from tests.memorinth.conftest import build_position
    game = MemorinthGame()
    state = game.state_from_json(build_position(
        {"a1": "6S", "b2": "9S"}, variant="master", actionSide="special", clovers=[1, 1], supply=3,
        characters={"N": "G", "E": "R", "S": "B", "W": "F", "action": "XHPT"}))
    me, other = state.view(0), state.view(1)
    for view in (me, other):
        view.apply_move("flip a1")
        view.apply_move("reveal 6M")
    me.apply_move("peek b2")
    assert me.phase == "reveal"
    me.apply_move("reveal 9M")
    other.apply_move("peek b2")
    assert other.phase == "flip" and other.to_json()["seen"] == me.to_json()["seen"] == [["a1", "b2"], ["a1"]]
    for view in (me, other):
        view.apply_move("flip c1")
    assert "reveal 9M" not in me.legal_moves() and "reveal 9M" in other.legal_moves()
    with pytest.raises(IllegalMoveError, match="player 0 has seen it there") as info:
        me.apply_move("reveal 9M", "MOVE[5]")
    assert info.value.field == "MOVE[5]"


@pytest.mark.parametrize("edit,needle", [
    (lambda j: j["board"].__setitem__(0, j["board"][0].replace("7S:?", "7S")), "has not seen this underside"),
    (lambda j: j["board"].__setitem__(2, j["board"][2].replace("CS", "CS:?")), "known to everybody"),
    (lambda j: j.update(seen=[["a1"], []]), "has seen this underside"),
    (lambda j: j.update(reveal="c3"), "only awaited after a legal flip"),
    (lambda j: j.update(view=2), "expected a player 0..1"),
])
def test_impossible_views_are_refused(edit, needle):
    view = GAMES[0].deal(3).view(0).to_json()
    edit(view)
    with pytest.raises((ImpossibleStateError, InvalidInputError), match=needle):
        GAMES[0].parse_position(view)


def test_a_full_state_refuses_unknown_undersides_and_solve_refuses_views():
    state = GAMES[0].deal(3)
    obj = state.to_json()
    obj["board"][0] = obj["board"][0].replace("7S", "7S:?")
    with pytest.raises(InvalidInputError, match="a full state names every underside"):
        GAMES[0].parse_position(obj)
    with pytest.raises(InvalidInputError, match="player 0's view; this request needs the full state"):
        contract.solve(GAMES[0], state.view(0).to_notation(), SearchContext())


def test_the_observation_is_the_views_json_and_the_old_observation_format_still_loads():
    """observation(p) is the view's JSON; the observation objects of earlier releases parse as the same view."""
    state = GAMES[0].deal(3)
    state.apply_move("flip a1")
    view = state.view(1)
    assert state.observation(1) == view.to_json()
    legacy = {k: v for k, v in view.to_json().items() if k not in ("view", "board", "seen")}
    legacy["player"] = 1
    legacy["board"] = []
    for r, row in enumerate(view.to_json()["board"]):
        cells = []
        for c, token in enumerate(row.split()):
            up = token.split(":")[0]
            cell = 5 * r + c
            under = None if token.endswith(":?") else GAMES[0].rules.deck.side_name(int(state.vec[DOWN + cell]))
            cells.append({"up": up, "under": under, "seenBy": [0, 1] if cell == 0 else []})
        legacy["board"].append(cells)
    parsed = GAMES[0].parse_position(json.dumps(legacy))
    assert isinstance(parsed, MemorinthView) and parsed.to_json() == view.to_json()


def test_score_on_a_view_gives_the_paths_as_they_lie():
    state = GAMES[0].deal(3)
    on_view = contract.score(GAMES[0], state.view(0))
    assert [p["pathDistance"] for p in on_view["players"]] == [3, 3] and "shortestEscape" not in on_view["players"][0]
    assert contract.score(GAMES[0], state)["players"][0]["shortestEscape"]["turns"] == 3


def test_review_finds_a_planted_blunder():
    """Seed 23 after 8 random moves: flip e1 wins about 98% of the playouts for yellow, flip a1 about a third;
    playing flip a1 there is the review's biggest mistake."""
    game = GAMES[0]
    state = game.deal(23)
    rng = np.random.default_rng(23)
    moves = []
    for _ in range(8):
        legal = state.legal_actions()
        action = int(legal[rng.integers(len(legal))])
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    assert state.current_player() == 0 and state.phase == "flip"
    moves.append("flip a1")
    record = Record.start_of(game.deal(23)).extended(moves, stamp=False)
    result = review(game, record, player=0, limits=Limits(nodes=600), seed=0)
    worst = result["mistakes"][0]
    assert worst["turn"] == 8 and worst["played"] == "flip a1" and worst["best"] == "flip e1"
    assert worst["valueLost"] > 0.4 and worst["valueLostCI"][0] > 0
    assert worst["grade"] == "blunder" and worst["gameTurn"].startswith("round ")
    assert len(result["decisions"]) == 5


def test_a_whole_number_player_is_accepted_everywhere():
    """Issue 11 item 9: 'player': 1.0 is player 1 (as the engine's checks take whole-number floats elsewhere)."""
    state = GAMES[0].deal(3)
    assert state.view(1.0).to_json() == state.view(1).to_json()
    ctx = lambda: SearchContext(limits=Limits(nodes=60))  # noqa: E731
    assert strip_seconds(contract.hint(GAMES[0], state, ctx(), player=0.0)) == strip_seconds(contract.hint(GAMES[0], state, ctx()))
    assert contract.hint(GAMES[0], state, ctx(), player=0.0, full_information=True).root_info["player"] == 0
