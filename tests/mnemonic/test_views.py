"""Player views (MN-32, MN-42, MN-43): round trips, entries at the table, uniform redeals, hints from the view
alone, records replayed from either seat, and the review."""

import itertools
import json
from collections import Counter

import numpy as np
import pytest

from solver.cli import main
from solver.errors import IllegalMoveError, ImpossibleStateError, InvalidInputError
from solver.mnemonic.cards import card_code, parse_card
from solver import contract
from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.knowledge import DECK, HiddenCards
from solver.mnemonic.setup import new_table_state
from solver.mnemonic.view import MnemonicView, catch_up, observed_entry
from solver.record import Record
from solver.registry import load_game
from solver.review import review
from solver.search import Limits, SearchContext

from .helpers import random_action

SPECS = ["mnemonic", "mnemonic(players=1)", "mnemonic(players=6)", "mnemonic(mode=into-the-grey)",
         "mnemonic(mode=into-the-grey,players=2)", "mnemonic(mode=into-the-grey,players=6)"]
GREY_DONE = " ".join(f"{card_code(c)}@{c % 2}" for c in range(54))


def follow(game, seed, steps=10_000):
    """A random session from the deal, with one player's view kept in step: (start, moves, observer, entries,
    final state, final view)."""
    rng = np.random.default_rng(seed)
    state = new_table_state(game, game.params["players"], game.params["mode"], seed)
    start = state.clone()
    observer = int(rng.integers(state.n))
    view = state.view(observer)
    moves, entries = [], []
    for _ in range(steps):
        if state.is_terminal():
            break
        action = random_action(state, rng)
        entry = observed_entry(state, action, observer)
        assert entry in view.legal_moves()
        moves.append(state.action_to_string(action))
        state.apply_action(action)
        view.apply_move(entry)
        entries += [entry] + catch_up(view, state)
        yield state, view, observer, rng
    follow.result = (start, moves, observer, entries, state, view)


@pytest.mark.parametrize("spec", SPECS)
def test_mn32_views_round_trip_and_follow_the_table(spec):
    """MN-32, MN-42: at every step the view entered from one seat equals the full state's view; it round-trips
    through JSON and notation, and a redeal from it has the same view."""
    game = load_game(spec)
    for seed in (1, 2):
        for step, (state, view, observer, rng) in enumerate(follow(game, seed)):
            expected = state.view(observer).to_json()
            assert view.to_json() == expected
            assert state.observation(observer) == expected
            if step % 23 == 0:
                assert game.parse_position(view.to_notation()).to_json() == expected
                assert game.parse_position(json.loads(json.dumps(expected))).to_json() == expected
                assert view.resample(rng).view(observer).to_json() == expected
                if state.current_player() == observer:
                    assert view.legal_moves() == [state.action_to_string(a) for a in state.legal_actions()]
        assert follow.result[4].is_terminal() and view.is_terminal() and view.returns() == state.returns()


def test_mn43_records_replay_from_the_full_start_and_from_one_seat():
    """A record of a random Into the Grey session replays to the same final state; the observer's record (their
    own cards, 'draw ?' for the others', 'group nothing' where a player brought nothing) to the same view."""
    game = MnemonicGame(mode="into-the-grey", players=6)
    for _ in follow(game, 1):
        pass
    start, moves, observer, entries, final, view = follow.result
    assert "group nothing" in entries and "draw ?" in entries
    full = Record.start_of(start).extended(moves, stamp=False)
    assert full.final_position(game).to_json() == final.to_json()
    seat = Record.start_of(start.view(observer)).extended(entries, stamp=False)
    replayed = seat.final_position(game)
    assert isinstance(replayed, MnemonicView) and replayed.to_json() == final.view(observer).to_json()


def test_mn43_redeals_are_uniform_among_consistent_deals():
    """Voids and a must-hold fact: the exact count equals enumeration and sampled deals are uniform."""
    unseen = [parse_card(c) for c in ("2H", "3H", "4S", "5S", "6D", "7C")]
    facts = HiddenCards(unseen, {1: [2], 2: [2], DECK: [2]}, 1, voids={1: frozenset({0})},
                        must_hold=(2, frozenset({3})))
    deals = []
    for perm in itertools.permutations(unseen):
        hands = {1: sorted(perm[:2]), 2: sorted(perm[2:4]), DECK: sorted(perm[4:])}
        if any(c // 13 == 0 for c in hands[1]) or not any(c // 13 == 3 for c in hands[2]):
            continue
        deals.append(tuple(tuple(hands[h]) for h in (1, 2, DECK)))
    consistent = set(deals)
    assert facts.count() == len(consistent)
    rng = np.random.default_rng(0)
    counts = Counter()
    draws = 300 * len(consistent)
    for _ in range(draws):
        deal = facts.sample(rng)
        key = tuple(tuple(sorted(deal[h])) for h in (1, 2, DECK))
        assert key in consistent
        counts[key] += 1
    assert set(counts) == consistent
    assert max(counts.values()) < 1.35 * draws / len(consistent) and min(counts.values()) > 0.65 * draws / len(consistent)
    assert facts.can_hold(2, parse_card("4S")) and not facts.can_hold(1, parse_card("2H"))


def test_impossible_entries_are_refused_with_the_field_and_the_reason():
    grey = MnemonicGame(mode="into-the-grey")
    table = grey.new_table(1)
    with pytest.raises(IllegalMoveError, match="goes to player 0") as err:
        table.apply_move("draw AH", "moves[0]")
    assert err.value.field == "moves[0]"
    table.apply_move("draw ?")
    with pytest.raises(IllegalMoveError, match="is yours"):
        table.apply_move("draw ?")
    with pytest.raises(IllegalMoveError, match="face cards"):
        table.apply_move("draw 7H")
    table.apply_move("draw AH")
    table.apply_move("draw ?")
    table.apply_move("draw ?")
    with pytest.raises(IllegalMoveError, match="in your own hand"):
        table.apply_move("draw AH")
    state = grey.new_initial_state(3)
    view = state.view(1)
    mine = card_code(state.players[1].hand[0])
    with pytest.raises(IllegalMoveError, match="in your own hand"):
        view.apply_move(f"play {mine}")
    played = card_code(state.players[0].hand[0])
    view.apply_move(f"play {played}")
    assert view.known.discard[-1] == (parse_card(played), 0)
    burner = MnemonicGame().new_initial_state(2).view(0)
    burner.apply_move("draw")
    burner.apply_move("reveal 7H")
    with pytest.raises(IllegalMoveError, match="played already"):
        MnemonicView.of(burner.resample(np.random.default_rng(0)), 0).apply_move("play 7H")


def test_mn43_a_player_who_brought_nothing_holds_none_of_their_suits():
    """MN-43: once the observer has seen a player bring nothing to a Group Scene, no redeal gives that player a
    card of the suits of their available skills, and such a card is refused from them."""
    game = MnemonicGame(mode="into-the-grey", players=6)
    seen = 0
    for state, view, observer, rng in follow(game, 1):
        facts = view.known.facts()
        for q, cats in facts.voids.items():
            seen += 1
            for _ in range(5):
                sample = view.resample(rng)
                assert not any(c // 13 in cats or (c >= 52 and 4 in cats) for c in sample.players[q].hand)
    assert seen > 0


def grey_table(build, mn, hands, rules=None):
    return build([mn.player("A=H3,B=S1c,C=D2c", hands[0]), mn.player("D=C2,E=H1c", hands[1])],
                 mode="into-the-grey", phase="table", discard=GREY_DONE, rules=rules)


def strip_seconds(hint):
    data = hint.to_json()
    data["rootInfo"].pop("seconds", None)
    for level in data["rootInfo"].get("levels", []):  # each completed horizon's wall time (MN-38)
        level.pop("seconds", None)
    return data


@pytest.mark.parametrize("spec", ["mnemonic(players=2)", "mnemonic(players=1)", "mnemonic(mode=into-the-grey,players=2)"])
def test_mn36_hint_on_a_state_is_the_hint_on_its_view_and_equal_views_give_equal_hints(spec):
    """A hint for the player to act on a state is the hint on their view (same budget and seed), and a different
    state with the same view gets the same hint (wall time aside); the budget is never overshot."""
    game = load_game(spec)
    checked = 0
    for state, view, observer, rng in follow(game, 5, steps=100):
        if state.is_terminal() or state.current_player() < 0 or rng.random() > 0.3:
            continue
        actor = state.current_player()
        ctx = lambda: SearchContext(limits=Limits(nodes=4000), seed=2)  # noqa: E731
        on_state = contract.hint(game, state, ctx(), top=1000, horizon=(0, 1))
        on_view = contract.hint(game, state.view(actor), ctx(), top=1000, horizon=(0, 1))
        assert strip_seconds(on_state) == strip_seconds(on_view)
        other = state.view(actor).resample(np.random.default_rng(checked + 99))
        assert strip_seconds(contract.hint(game, other, ctx(), top=1000, horizon=(0, 1))) == strip_seconds(on_state)
        assert on_state.root_info.get("states", 0) <= 4000
        assert {m.move for m in on_state.move_infos} == {state.action_to_string(a) for a in state.legal_actions()}
        checked += 1
    assert checked >= 2


def test_a_hint_lists_every_card_when_asked_for_every_move():
    state = MnemonicGame(mode="into-the-grey", players=2).new_initial_state(1)
    ctx = SearchContext(limits=Limits(nodes=200_000))
    short = contract.hint(state.game, state, ctx, top=3, horizon=(0, 1))
    every = contract.hint(state.game, state, SearchContext(limits=Limits(nodes=200_000)), top=1000, horizon=(0, 1))
    assert len(every.move_infos) == len(state.legal_actions()) > len(short.move_infos)
    assert [m.move for m in every.move_infos[:1]] == [short.move_infos[0].move]
    values = [m.value for m in every.move_infos]
    assert values == sorted(values, reverse=True)
    assert any("as good as" in m.why for m in every.move_infos)


def test_review_finds_a_planted_blunder(build, mn):
    """Ending the session at the table when a Group Scene could still be won is the biggest mistake."""
    state = grey_table(build, mn, ("", ""), rules={"intoTheGrey.groupCard": "none"})
    view = state.view(0)
    record = Record.start_of(view).extended(["end"], stamp=False)
    result = review(state.game, record, player=None, limits=Limits(nodes=200_000))
    mistake = result["mistakes"][0]
    assert (mistake["played"], mistake["best"]) == ("end", "group") and mistake["valueLost"] > 0.3
    assert mistake["grade"] == "blunder" and mistake["lossCI"] == [mistake["loss"]] * 2    # exact values
    assert result["player"] == 0


def test_cli_table_session_and_old_flags(tmp_path, capsys):
    path = str(tmp_path / "game.jsonl")
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps(MnemonicGame().rules.with_overrides({"deckBurner.handSize": 2}).to_json()))
    assert main(["mnemonic", "new", "--table", "--player", "1", "--players", "2", "--rules", str(rules),
                 "--record", path]) == 0
    out = capsys.readouterr().out
    assert out.startswith("view:1 mnemonic deck-burner r1 deal")
    assert main(["mnemonic", "legal-moves", path, "--rules", str(rules)]) == 0
    assert capsys.readouterr().out.strip() == "draw ?"      # player 0's card: entered for player 1 if left out
    assert main(["mnemonic", "apply", path, "draw ?", "draw 7H", "draw ?", "draw KS", "--record", path,
                 "--rules", str(rules), "--notation"]) == 0
    line = capsys.readouterr().out.strip()
    assert "scene-card" in line and "hand=7H,KS" in line and "hand=?2" in line
    assert main(["mnemonic", "apply", path, "play 7H", "--rules", str(rules)]) == 1
    assert "MOVE[0]" in capsys.readouterr().err
    assert main(["mnemonic", "apply", path, "play 9D", 'use "Bargain"', "--rules", str(rules), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["view"] == 1
    assert main(["mnemonic", "new", "--seed", "3", "--notation"]) == 0
    assert capsys.readouterr().out.startswith("mnemonic deck-burner r1 scene-card")
    assert main(["mnemonic", "new", "--seed", "3", "--player", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"][0] == {**json.loads(json.dumps(
        MnemonicGame().new_initial_state(3).view(2).to_json()))["players"][0]}


def test_view_input_errors_name_the_field(game):
    state = game.new_initial_state(1)
    data = state.view(0).to_json()
    with pytest.raises(InvalidInputError) as err:
        game.parse_position({**data, "view": 7})
    assert err.value.field == "state.view"
    bad = json.loads(json.dumps(data))
    bad["players"][1].pop("handSize")
    bad["players"][1]["hand"] = ["7H"]
    with pytest.raises(InvalidInputError) as err:
        game.parse_position(bad)
    assert err.value.field == "state.players[1].hand[0]"
    with pytest.raises(ImpossibleStateError) as err:
        game.parse_position({**data, "deckSize": 3})
    assert err.value.field == "state.deckSize"
    with pytest.raises(InvalidInputError) as err:
        game.parse_state(state.view(0).to_notation())
    assert "view" in str(err.value)
