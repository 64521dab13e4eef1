"""Player views (AE-22, AE-41, AE-42): round trips, entering what happens at the table, sampling, hints on views,
records and reviews, exact node budgets."""

from __future__ import annotations

import json

import numpy as np
import pytest

from solver import contract
from solver.aetherya.cards import LETTERS
from solver.aetherya.game import AetheryaGame
from solver.aetherya.playout import advance_to_turn_start, greedy_action, sample_chance
from solver.aetherya.knowledge import observed_entries, turned_over_entries
from solver.errors import IllegalMoveError, InvalidInputError, InvalidMoveError
from solver.game import View
from solver.record import Record
from solver.review import review
from solver.search import Limits, SearchContext

from .test_state import base_state

MODES = [({}, 0), ({"players": 3}, 2), ({"mode": "coop", "players": 3}, 1), ({"mode": "solo"}, 0),
         ({"mode": "objects"}, 1)]


def ctx(nodes=200, seed=0):
    return SearchContext(limits=Limits(nodes=nodes), seed=seed)


def play_along(kwargs, seed, observer, greedy=0.8, check=None):
    """A seeded game from the undealt root, with the observer's view advanced by the observer's own entries
    at the same time; ``check(state, view)`` runs after every action. Returns (state moves, view entries)."""
    game = AetheryaGame(**kwargs)
    state, view = game.new_root_state(), game.new_table(observer)
    rng = np.random.default_rng(seed)
    moves, entries = [], []
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        elif rng.random() < greedy:
            action = greedy_action(state, rng)
        else:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        typed = observed_entries(state, action, observer)
        moves.append(state.action_to_string(action))
        state.apply_action(action)
        typed += turned_over_entries(_advanced(view, typed), state)
        for text in typed:
            assert text in view.legal_moves(), (text, view.legal_moves()[:8])
            view.apply_move(text)
        entries += typed
        if check is not None:
            check(state, view)
    return game, moves, entries, state, view


def _advanced(view, typed):
    trial = view.clone()
    for text in typed:
        trial.apply_move(text)
    return trial


@pytest.mark.parametrize("kwargs, observer", MODES)
def test_the_view_entered_at_the_table_is_the_view_of_the_true_state_and_round_trips(kwargs, observer):
    """AE-42: at every step, the observer's view advanced by what the observer sees (their cards, the other
    players' moves, the outcomes as they become known, '?' for cards dealt unseen) is the view of the true
    state; both round-trip through JSON and the notation."""
    steps = []

    def check(state, view):
        expected = state.view(observer).to_json()
        assert view.to_json() == expected
        steps.append(1)
        if len(steps) % 9 == 0:
            game = state.game
            assert game.parse_position(json.dumps(expected)).to_json() == expected
            assert game.parse_position(view.to_notation()).to_json() == expected
            assert view.to_notation().startswith(f"view:{observer} ")
            assert state.observation(observer) == expected

    game, _, _, state, view = play_along(kwargs, seed=3, observer=observer, check=check)
    assert view.is_terminal() and view.returns() == state.returns()


def test_records_replay_from_the_full_state_and_from_the_observers_entries(tmp_path):
    game, moves, entries, final, _ = play_along({}, seed=5, observer=1)
    full = Record.start_of(game.new_root_state()).extended(moves)
    assert full.final_position(game).to_json() == final.to_json()
    seen = Record.start_of(game.new_table(1)).extended(entries)
    path = tmp_path / "game.jsonl"
    seen.write(str(path))
    from solver.record import load_record_file
    again = load_record_file(str(path))
    assert again.observer == 1
    assert again.final_position(game).to_json() == final.view(1).to_json()


def test_a_solo_age_end_asks_for_the_cards_turned_over_and_scores_the_age_AE34():
    """When the pile runs out the remaining territories are turned over (AE-34): the view asks for their
    cards one by one (the Age score is unknown, null, until then) and scores the Age from them."""
    game = AetheryaGame(mode="solo")
    state, view = game.new_root_state(), game.new_table(0)
    rng = np.random.default_rng(1)
    while not state.is_terminal() and not view.turn_over_cells():
        action = sample_chance(state, rng) if state.is_chance_node() else greedy_action(state, rng)
        typed = observed_entries(state, action, 0)
        state.apply_action(action)
        for text in typed:
            view.apply_move(text)
    assert view.turn_over_cells(), "the first Age ended without a pending turn-over"
    data = view.to_json()
    assert data["ageScores"][-1] is None and view.current_player() == -1
    assert game.parse_position(data).to_json() == data
    with pytest.raises(IllegalMoveError, match="is seen by everybody"):
        view.child("card ?")
    for text in turned_over_entries(view, state):
        view.apply_move(text)
    assert view.to_json() == state.view(0).to_json() and view.to_json()["ageScores"] == state.age_scores


def test_resample_keeps_the_view_and_is_the_states_resample():
    state = base_state("SH")
    view = state.view(0)
    for seed in range(5):
        sample = view.resample(np.random.default_rng(seed))
        assert sample.view(0).to_json() == view.to_json()
        sample.check_invariants()
        a = state.resample_from_observation(0, np.random.default_rng(seed)).to_json()
        assert a == sample.to_json()


def test_the_view_during_setup_hides_the_other_starting_cards_and_samples_them_as_dealt():
    game = AetheryaGame()
    state = game.new_initial_state(2)
    assert state.phase == "arrange" and state.to_move == 0
    view = state.view(0)
    data = view.to_json()
    assert data["start"][0] == "".join(LETTERS[k] for k in state.start[0]) and data["start"][1] == "????"
    for seed in range(5):
        sample = view.resample(np.random.default_rng(seed))
        assert len(set(sample.start[1])) == 4 and sample.view(0).to_json() == data
    assert len(view.legal_moves()) == 24  # seat 0 arranges its own 4 cards
    other = state.view(1)  # seat 1 watches seat 0 arrange cards it has not seen: any 4 different kinds
    moves = other.legal_moves()
    assert len(moves) == 10 * 9 * 8 * 7 and all(m.startswith("arrange ") for m in moves)
    with pytest.raises(IllegalMoveError, match="4 different kinds"):
        other.child("arrange PPFM")
    arranged = other.child(state.action_to_string(state.legal_actions()[0]))
    assert arranged.to_json() == state.child(state.legal_actions()[0]).view(1).to_json()


def test_impossible_outcomes_are_refused_with_the_field_and_the_reason():
    game = AetheryaGame()
    view = base_state("SH").view(0)
    after = view.child("draw")
    with pytest.raises(IllegalMoveError, match="seen by everybody"):
        after.child("card ?")
    with pytest.raises(InvalidMoveError):
        after.child("card X")
    revealed = after.child("card P").child("reveal a1")
    assert revealed.current_player() == -1 and revealed.legal_moves()
    assert revealed.to_json()["awaiting"] == {"move": "reveal a1", "entered": []}
    assert game.parse_position(revealed.to_notation()).to_json() == revealed.to_json()
    table = game.new_table(0)
    with pytest.raises(IllegalMoveError, match="Legend deck") as err:
        game.apply(table, ["legend plains-3", "legend plains-3"], "moves")
    assert err.value.field == "moves[1]"
    with pytest.raises(InvalidInputError):
        game.new_table(5)


def test_a_tile_already_seen_cannot_be_found_under_a_territory():
    from .test_modes import objects_state
    state = objects_state(owned0=["griffin"])
    view = state.view(0).child("draw").child("card P")
    cell = next(c for c in ("a1", "b1", "c1", "d1", "a2") if f"reveal {c}" in view.legal_moves())
    view = view.child(f"reveal {cell}")
    view = view.child(view.legal_moves()[0])  # the card found there
    assert all(m.startswith("tile ") for m in view.legal_moves()) and "tile griffin" not in view.legal_moves()
    with pytest.raises(IllegalMoveError, match="no unseen griffin"):
        view.child("tile griffin")


def test_a_fifth_dragon_is_refused_at_two_players():
    """2 players: 4 Dragons in the deck (AE-14); once all four are seen, no draw or territory is a Dragon, and
    a territory is dealt unseen ('card ?')."""
    game = AetheryaGame()
    view = game.new_table(0)
    for slug in ["human-elf", "humans-2", "forests-3", "plains-3", "goblins-2", "elves-2", "dwarves-2", "four-tribes"]:
        view.apply_move(f"legend {slug}")
    for card in "RHE":
        view.apply_move(f"card {card}")
    with pytest.raises(IllegalMoveError, match="already hold a Dragon"):
        view.child("card R")
    view.apply_move("card G")
    with pytest.raises(IllegalMoveError, match="seen by that player alone"):
        view.child("card R")
    for _ in range(4):
        view.apply_move("card ?")
    view.apply_move("arrange RHEG")
    view.apply_move("arrange RPFM")  # seat 1's starting cards, seen once arranged
    with pytest.raises(IllegalMoveError, match="nobody sees it"):
        view.child("card H")
    for _ in range(24):
        view.apply_move("card ?")
    view.apply_move("card R")  # the first discard: the third Dragon
    view.apply_move("take")
    view.apply_move("place a1")
    view.apply_move("card R")  # a1 hid the fourth
    assert view.pool()[8] == 0
    moves = [] if view.rep.phase != "end-turn" else ["end"]
    with pytest.raises(IllegalMoveError, match="no unseen Dragon") as err:
        game.apply(view, moves + ["draw", "card R"], "moves")
    assert err.value.field == f"moves[{len(moves) + 1}]"


def _hint_json(game, position, nodes=150, seed=0):
    out = contract.hint(game, position, ctx(nodes, seed), top=20).to_json()
    out["rootInfo"].pop("seconds")
    return out


@pytest.mark.parametrize("kwargs, observer", MODES)
def test_hint_on_a_state_is_the_hint_on_its_view_and_ignores_hidden_cards(kwargs, observer):
    """The hint for the player to act on a state, on that state's view, and on another state with the same
    view are identical under a node budget (same seed)."""
    game = AetheryaGame(**kwargs)
    state = advance_to_turn_start(game.new_initial_state(7), np.random.default_rng(7))
    rng = np.random.default_rng(1)
    checked = 0
    for step in range(60):
        if state.is_terminal() or checked >= 2:
            break
        if not state.is_chance_node() and step % 4 == 1:
            seat = state.to_move
            view = state.view(seat)
            other = view.resample(np.random.default_rng(step))
            a = _hint_json(game, state)
            assert a == _hint_json(game, view) == _hint_json(game, other)
            root = a["rootInfo"]
            # the whole budget; a solo hint whose policy move passed the screen stops after it
            assert root["playouts"] == 150 or (root.get("screen") == "safe"
                                               and root["playouts"] == root["worlds"] * root["candidates"])
            checked += 1
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else greedy_action(state, rng))
    assert checked == 2


def test_node_budget_is_exact_and_the_answer_repeats():
    game = AetheryaGame()
    state = base_state("SH")
    for nodes in (37, 250, 1111):
        result = contract.hint(game, state, ctx(nodes), top=1000)
        assert result.root_info["playouts"] == nodes
    once = _hint_json(game, state, nodes=900)
    assert once == _hint_json(game, state, nodes=900)
    moves = {m["move"] for m in once["moveInfos"]}
    take = state.child(0)
    assert len(moves) == 2  # take (with its placements as plans) and draw
    every = contract.hint(game, take, ctx(400), top=1000)
    assert {m.move for m in every.move_infos} == set(take.view(0).legal_moves())  # every legal move is valued
    for info in every.move_infos:
        assert len(info.extra["valueCI"]) == 2


def test_the_cell_planned_with_take_is_ranked_first_after_take():
    """Taking the face-up discard shows nothing new, so the placement hint after 'take' ranks first the cell
    the hint before it planned (same budget and seed)."""
    game = AetheryaGame()
    for seed in (3, 4, 8):
        state = advance_to_turn_start(game.new_initial_state(seed), np.random.default_rng(seed))
        before = contract.hint(game, state, ctx(600), top=5)
        take = next((m for m in before.move_infos if m.move == "take"), None)
        if take is None:
            continue
        after = contract.hint(game, state.child(0), ctx(600), top=5)
        assert after.move_infos[0].move == take.pv[1]
        assert after.move_infos[0].value == take.value


def test_the_order_agrees_with_the_values_or_the_reason_says_why():
    game = AetheryaGame(mode="solo")
    state = game.new_initial_state(5)
    rng = np.random.default_rng(5)
    while state.phase != "swap":
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else greedy_action(state, rng))
    result = contract.hint(game, state, ctx(1500), top=1000)
    infos = result.move_infos
    for i, info in enumerate(infos[1:], 1):
        lower = [m for m in infos[1:i] if m.value < info.value]
        if lower:
            assert "listed below" in info.why or "listed after" in info.why, info.why
    first = infos[0]
    if any(m.value > first.value for m in infos[1:]):      # one sentence on the first says why (issue 22)
        assert "within noise: as good as" in first.why or "listed first" in first.why or "keeps it" in first.why


def test_a_reveal_reason_says_fits_nowhere_only_when_true():
    game = AetheryaGame()
    state = base_state("SH")
    state.apply_move("draw")
    for card in range(10):
        trial = state.child(2000 + card) if 2000 + card in state.legal_actions() else None
        if trial is None:
            continue
        result = contract.hint(game, trial, ctx(120), top=1000)
        from solver.aetherya.playout import current_value, placements
        gain = max(v for _, v in placements(trial, 0, trial.hold)) - current_value(trial, 0)
        for info in result.move_infos:
            if info.move.startswith("reveal"):
                assert ("improves no cell" in info.why) == (gain <= 0), (info.why, gain)


def test_views_are_positions_for_every_service(capsys):
    from solver import cli
    game = AetheryaGame()
    state = base_state("SH")
    view = state.view(0)
    assert isinstance(view, View) and game.legal_moves(view.to_notation()) == ["take", "draw"]
    score = contract.score(game, view.to_json())
    assert score["view"] == 0 and score["players"][0]["total"] == state.score(0).total
    with pytest.raises(InvalidInputError, match="player 0's view"):
        game.parse_state(view.to_json())
    with pytest.raises(InvalidInputError, match="observation in the old format"):
        game.parse_position({"observer": 0, "mode": "base"})
    code = cli.main(["aetherya", "view", json.dumps(state.to_json()), "--player", "1"])
    out, _ = capsys.readouterr()
    assert code == 0 and out.startswith("view:1 base:2 ")
    code = cli.main(["aetherya", "apply", out.strip(), "take", "place c2", "--json"])  # c2: a face-up Elf
    out, _ = capsys.readouterr()
    assert code == 0 and json.loads(out)["awaiting"] is None and json.loads(out)["view"] == 1
    code = cli.main(["aetherya", "apply", json.dumps(state.to_json()), "take", "place a2"])  # a2: face down
    out, _ = capsys.readouterr()
    assert code == 0 and out.startswith("base:2 ") and "k=pfmd/HHEg" in out  # the full state knows a2
    code = cli.main(["aetherya", "apply", state.view(0).to_notation(), "take", "place a2"])
    out, _ = capsys.readouterr()
    assert code == 0 and out.rstrip().endswith("aw=place_a2")  # the view waits for the card found under a2


def test_review_finds_a_planted_blunder():
    """Seat 0 throws the discard onto its best card: the review of its record names that move first."""
    game = AetheryaGame()
    state = base_state("SH")
    hint = contract.hint(game, state.child(0), ctx(400), top=1000)
    worst = hint.move_infos[-1]
    assert hint.move_infos[0].value - worst.value > 1
    record = Record.start_of(state.view(0)).extended(["take", worst.move])
    result = review(game, record, player=None, limits=Limits(nodes=400))
    assert [d["turn"] for d in result["decisions"]] == [0, 1]
    blunder = result["mistakes"][0]
    assert blunder["turn"] == 1 and blunder["played"] == worst.move and blunder["valueLost"] > 1
    assert blunder["valueLostCI"] is not None and blunder["lossCI"][0] > 0 and blunder["grade"] is not None
    assert blunder["gameTurn"].startswith("Age 1, turn") and result["lossUnit"] == "points"
