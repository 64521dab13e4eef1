"""Each rule and interpretation of docs/rules/memorinth.md on hand-built positions (default deck).

Default-deck facts used here (solver/data/memorinth_default_deck.json):
  C  clearing NESW / NESW       9S NS P        11S EW X       13S NES R      14S N B       17S NS T
  20S NSW G -> 20M E R          19S EW HX -> 19M NE RH        6S NEW G -> 6M SW H
  2M ES T goblin S              4M NESW goblin E              5S NE / 5M NW (no south path on either side)
"""

from __future__ import annotations

import pytest

from solver.errors import IllegalMoveError, ImpossibleStateError
from solver.memorinth.game import MemorinthGame
from solver.memorinth.layout import START


def play(state, *moves):
    for move in moves:
        state.apply_move(move)
    return state


def moves(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


# -- base game ---------------------------------------------------------------------------------
def test_mr7_move_one_card_toward_the_character_when_paths_connect(position, load):
    """MR-7: R stands east; revealing R moves the piece one card east because both path ends meet."""
    state = load(position({"c3": "CS", "d3": "11S", "a1": "20S"}))
    play(state, "flip a1")
    assert state.to_json()["pieces"] == ["d3", "c3"]
    assert state.to_json()["toMove"] == 1


def test_mr7_no_move_when_the_neighbour_has_no_path_end_on_the_shared_edge(position, load):
    """MR-7 / MR-10: 13S (N, E, S) has no west path end, so the piece cannot step east onto it."""
    state = load(position({"c3": "CS", "d3": "13S", "a1": "20S"}))
    play(state, "flip a1")
    assert state.to_json()["pieces"] == ["c3", "c3"]
    assert state.to_json()["toMove"] == 1


def test_mr7_no_move_when_the_own_card_has_no_path_that_way(position, load):
    """MR-7: the piece's own card needs a path end toward the character too (9S runs north-south only)."""
    state = load(position({"c3": "9S", "b3": "CS", "d3": "11S", "a1": "20S"}, pieces=["c3", "b3"]))
    play(state, "flip a1")
    assert state.to_json()["pieces"] == ["c3", "b3"]


def test_mr8_several_characters_the_mover_chooses(position, load):
    """MR-8: 19M shows R (east) and H (north); both can move, so the mover chooses."""
    state = load(position({"c3": "CS", "c2": "9S", "d3": "11S", "a1": "19S"}))
    play(state, "flip a1")
    assert state.phase == "choose"
    assert moves(state) == ["choose R", "choose H"]
    play(state, "choose H")
    assert state.to_json()["pieces"][0] == "c2"


def test_mr8_must_move_when_any_choice_moves(position, load):
    """MR-8: R (east) is blocked by 13S, H (north) moves: the blocked choice is not offered, H is taken."""
    state = load(position({"c3": "CS", "c2": "9S", "d3": "13S", "a1": "19S"}))
    play(state, "flip a1")
    assert state.phase == "flip"
    assert state.to_json()["pieces"][0] == "c2"


def test_mr8_characters_with_the_same_effect_are_one_choice(position, load):
    """MR-8: R and H both stand north, so revealing both is a single move north (no choice to make)."""
    state = load(position({"c3": "CS", "c2": "9S", "a1": "19S"},
                          characters={"N": "RH", "E": "GX", "S": "BT", "W": "FP"}))
    play(state, "flip a1")
    assert state.phase == "flip" and state.to_json()["pieces"][0] == "c2"


def test_mr9_leaving_the_forest_wins_at_once(position, load):
    """MR-9: a piece on the top row on a north-south card, R north: revealing R leaves the forest and wins."""
    state = load(position({"c1": "17S", "a1": "20S"}, pieces=["c1", "c3"],
                          characters={"N": "RG", "E": "HX", "S": "BT", "W": "FP"}))
    play(state, "flip a1")
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0]
    assert state.to_json()["pieces"] == ["out", "c3"] and state.to_json()["winner"] == 0


def test_mr5_only_cards_showing_the_start_card_side_without_pieces(position, load):
    """MR-5: in round 1 (Sun) the legal flips are the Sun-up cards without a piece."""
    state = load(position({}))
    sun_cells = [f"{'abcde'[c]}{r + 1}" for r in range(5) for c in range(5) if (r + c) % 2 == 0]
    assert moves(state) == [f"flip {name}" for name in sun_cells if name != "c3"]


def test_mr5_never_the_card_the_previous_player_flipped(position, load):
    """MR-5: in round 2 player 0 flips a1 (Sun to Moon), the start card turns to Moon, and player 1 may not flip a1."""
    state = load(position({"a1": "20S"}, round=2))
    play(state, "flip a1")
    assert state.to_json()["startCard"] == "moon" and state.to_json()["toMove"] == 1
    assert "flip a1" not in moves(state)
    with pytest.raises(IllegalMoveError, match="flip a1"):
        state.apply_move("flip a1")


@pytest.mark.parametrize("players,expected", [
    (2, "SS" + "SM" + "MS" + "SM"),
    (3, "SSS" + "SMM" + "MSS" + "SMM"),
    (1, "S" + "S" + "M" + "S" + "M" + "S"),
])
def test_mr6_start_player_card_turns_after_the_start_players_move_from_round_two(players, expected):
    """MR-6: round 1 all Sun; from round 2 the start player flips the card after completing their move."""
    state = MemorinthGame(players=players).deal(7)
    sides = ""
    while len(sides) < len(expected):
        assert state.phase == "flip"
        sides += "SM"[int(state.vec[START])]
        state.apply_action(state.legal_actions()[0])
        while state.phase in ("choose", "act"):
            state.apply_action(state.legal_actions()[0])
        if state.is_terminal():
            break
    assert sides == expected[:len(sides)] and len(sides) >= len(expected) - 1


def test_mr20_pass_when_no_card_may_be_flipped(position, load):
    """MR-20: every forest card shows Moon in a Sun round and the only Sun card (the clearing) holds pieces."""
    cells = {f"{'abcde'[c]}{r + 1}": "" for r in range(5) for c in range(5)}
    idents = [str(k) for k in range(1, 25)]
    for name in cells:
        cells[name] = "CS" if name == "c3" else idents.pop(0) + "M"
    state = load(position(cells))
    assert moves(state) == ["pass"]
    play(state, "pass")
    assert state.to_json()["toMove"] == 1 and state.to_json()["lastFlipped"] is None


def test_mr22_the_clearing_may_be_flipped_once_empty(position, load):
    """MR-22: the clearing is a card of the forest: with no piece on it, it may be flipped like any other."""
    state = load(position({"c3": "CS", "a1": "9S"}, pieces=["a1", "a1"]))
    assert "flip c3" in moves(state)


def test_mr19_nobody_can_ever_leave_ends_the_game_without_winner(position, load):
    """MR-19: both pieces stand on 14S (a dead end north) below 5S/5M, which has no south path on either side;
    everybody has seen 5's underside, so everybody can see that nobody can ever leave."""
    state = load(position({"b4": "14S", "b3": "5S"}, pieces=["b4", "b4"], seen=[["b3"], ["b3"]]))
    assert not state.is_terminal()
    play(state, moves(state)[0])
    assert state.is_terminal() and state.returns() == [0.0, 0.0] and state.winner() is None
    again = load(state.to_json())
    assert again.is_terminal()
    for p in (0, 1):
        assert state.view(p).is_terminal()


def test_mr19_the_end_is_judged_from_what_everybody_has_seen(position, load):
    """MR-19: while some player has not seen 5's underside, a Moon side with a south path may lie under it for
    them, so the game goes on (each player's view agrees: the rule reads public information only)."""
    for seen in ([[], []], [["b3"], []]):
        state = load(position({"b4": "14S", "b3": "5S"}, pieces=["b4", "b4"], seen=seen))
        play(state, moves(state)[0])
        assert not state.is_terminal()
        assert not state.view(0).is_terminal() and not state.view(1).is_terminal()


def test_mr19_over_without_winner_is_impossible_when_a_piece_can_still_leave(position, load):
    """MR-19: 'over' with no winner is only accepted when no piece can ever leave."""
    with pytest.raises(ImpossibleStateError, match="phase"):
        load(position({}, phase="over"))


# -- Master Memorinth --------------------------------------------------------------------------
MASTER = {"N": "G", "E": "R", "S": "B", "W": "F", "action": "HXPT"}  # H on the action card's N edge, X on E, ...


def master(position, load, cells, **fields):
    fields.setdefault("variant", "master")
    fields.setdefault("characters", MASTER)
    return load(position(cells, **fields))


def test_mr12_shift_up_is_away_from_the_seat_and_pieces_travel_with_their_card(position, load):
    """MR-12 / MR-18 / MR-25: H is at the shift-up edge; player 0 sits south, so up is north; column c moves north."""
    state = master(position, load, {"a1": "6S", "c1": "17S", "c3": "CS"})
    play(state, "flip a1")
    assert state.phase == "act" and state.to_json()["pending"] == "shift-N"
    assert moves(state) == [f"shift col {c} north" for c in "abcde"]
    before = state.to_json()["board"]
    play(state, "shift col c north")
    after = state.to_json()
    assert after["board"][4].split()[2] == before[0].split()[2] == "17S"   # c1 re-enters at c5
    assert after["board"][1].split()[2] == "CS"                            # the clearing moved c3 -> c2
    assert after["pieces"] == ["c2", "c2"]                                 # both pieces rode along


def test_mr18_the_same_character_shifts_the_other_way_for_the_player_opposite(position, load):
    """MR-18: player 1 sits north, so the same shift-up action pushes the columns south."""
    state = master(position, load, {"a1": "6S"}, toMove=1)
    play(state, "flip a1")
    assert state.to_json()["pending"] == "shift-S"
    play(state, "shift col c south")
    assert state.to_json()["pieces"] == ["c4", "c4"]


def test_mr12_a_piece_pushed_out_reenters_with_its_card_at_the_other_end(position, load):
    """MR-12: the card pushed out of the row re-enters at the other end, carrying the piece on it."""
    state = master(position, load, {"a1": "6S", "e3": "17S"}, pieces=["e3", "c3"],
                   characters={"N": "G", "E": "R", "S": "B", "W": "F", "action": "XPHT"})
    play(state, "flip a1")                      # H now on the action card's S edge: shift-down = south for seat S
    assert state.to_json()["pending"] == "shift-S"
    state = master(position, load, {"a1": "6S", "e3": "17S"}, pieces=["e3", "c3"],
                   characters={"N": "G", "E": "R", "S": "B", "W": "F", "action": "XHPT"})
    play(state, "flip a1")                      # H on the E edge: shift-right = east for seat S
    assert state.to_json()["pending"] == "shift-E"
    play(state, "shift row 3 east")
    assert state.to_json()["pieces"] == ["a3", "d3"]
    assert state.to_json()["board"][2].split()[0] == "17S"


def test_mr11_mr24_a_possible_move_comes_before_the_action(position, load):
    """MR-8 / MR-11 / MR-24: 19M shows R (east side) and H (action card). The piece can move east, and the mover
    must move when any choice moves, so the move is made without asking (no shift)."""
    state = master(position, load, {"a1": "19S", "d3": "11S"})
    play(state, "flip a1")
    assert state.phase == "flip" and state.to_json()["pieces"][0] == "d3" and state.to_json()["toMove"] == 1


def test_mr11_mr24_the_action_is_performed_when_the_move_is_blocked(position, load):
    """MR-11 / MR-24: the same card with the way east blocked (13S has no west path end): the action at H's edge
    (shift-up: north for seat S) must be performed."""
    state = master(position, load, {"a1": "19S", "d3": "13S"})
    play(state, "flip a1")
    assert state.phase == "act" and state.to_json()["pending"] == "shift-N"


def test_mr8_mr24_two_actions_are_a_choice(position, load):
    """MR-8 / MR-24: a card showing two action-card characters (24M: P at the S edge, X at the E edge) offers both
    actions when no move is possible."""
    state = master(position, load, {"a1": "24S"}, characters={"N": "G", "E": "R", "S": "B", "W": "F",
                                                              "action": "HXPT"})
    play(state, "flip a1")
    assert moves(state) == ["choose P", "choose X"]


def test_mr14_a_goblin_on_the_way_costs_one_clover(position, load):
    """MR-14 / MR-23: moving north from the clearing into 2M passes the goblin on its south path: the clover is
    paid and the piece moves (moving is compulsory when possible, so the player cannot decline to pay)."""
    state = master(position, load, {"a1": "6S", "c2": "2M"}, actionSide="special", clovers=[1, 1], supply=3,
                   characters={"N": "H", "E": "R", "S": "B", "W": "F", "action": "GXPT"})
    play(state, "flip a1")
    out = state.to_json()
    assert out["pieces"][0] == "c2" and out["clovers"] == [0, 1] and out["supply"] == 4


def test_mr14_without_a_clover_the_goblin_blocks_the_move(position, load):
    """MR-14: with no clover the move past the goblin is impossible and the piece stays."""
    state = master(position, load, {"a1": "6S", "c2": "2M"}, actionSide="special", clovers=[0, 2], supply=3,
                   characters={"N": "H", "E": "R", "S": "B", "W": "F", "action": "GXPT"})
    play(state, "flip a1")
    assert state.to_json()["pieces"][0] == "c3" and state.to_json()["clovers"] == [0, 2]


def test_mr14_goblins_do_not_count_on_the_shift_side(position, load):
    """MR-14: with the shift side in use goblins and clovers have no meaning: the move is free."""
    state = master(position, load, {"a1": "6S", "c2": "2M"},
                   characters={"N": "H", "E": "R", "S": "B", "W": "F", "action": "GXPT"})
    play(state, "flip a1")
    assert state.to_json()["pieces"][0] == "c2" and "clovers" not in state.to_json()


def test_mr15_clover_from_the_supply(position, load):
    """MR-15: H at the special side's clover edge: take a clover from the supply (no choice)."""
    state = master(position, load, {"a1": "6S"}, actionSide="special", clovers=[1, 1], supply=3)
    play(state, "flip a1")
    assert state.to_json()["clovers"] == [2, 1] and state.to_json()["supply"] == 2


def test_mr15_clover_from_another_player_when_the_supply_is_empty(position, load):
    """MR-15: supply empty: the mover chooses whom to take a clover from."""
    state = master(position, load, {"a1": "6S"}, players=3, actionSide="special", clovers=[0, 2, 3], supply=0,
                   pieces=["c3"] * 3)
    play(state, "flip a1")
    assert moves(state) == ["clover from 1", "clover from 2"]
    play(state, "clover from 2")
    assert state.to_json()["clovers"] == [1, 2, 2]


def test_mr24_an_action_that_cannot_be_done_does_nothing(position, load):
    """MR-24: player 0 holds all five clovers, so the clover action cannot be done; R (east) is blocked by 13S:
    nothing can be done and the turn ends."""
    state = master(position, load, {"a1": "19S", "d3": "13S"}, actionSide="special", clovers=[5, 0], supply=0)
    play(state, "flip a1")
    out = state.to_json()
    assert out["toMove"] == 1 and out["clovers"] == [5, 0] and out["pieces"][0] == "c3"


def test_mr24_an_impossible_action_leaves_the_move(position, load):
    """MR-24: the clover action cannot be done but R can move east: the move is made without asking."""
    state = master(position, load, {"a1": "19S", "d3": "11S"}, actionSide="special", clovers=[5, 0], supply=0)
    play(state, "flip a1")
    assert state.to_json()["pieces"][0] == "d3" and state.to_json()["toMove"] == 1


def test_mr16_peek_is_private(position, load):
    """MR-16 / MR-21: X stands at the peek edge: player 0 looks under b2; only player 0 learns that side."""
    state = master(position, load, {"a1": "6S", "b2": "9S"}, actionSide="special", clovers=[1, 1], supply=3,
                   characters={"N": "G", "E": "R", "S": "B", "W": "F", "action": "XHPT"})
    play(state, "flip a1")
    assert state.to_json()["pending"] == "peek"
    assert "peek c3" not in moves(state)          # a card with a piece may not be looked at
    play(state, "peek b2")
    assert state.observation(0)["board"][1].split()[1] == "9S"            # player 0 knows: 9M underneath
    assert state.observation(1)["board"][1].split()[1] == "9S:?"          # player 1 does not
    assert state.observation(0)["seen"] == state.observation(1)["seen"] == [["a1", "b2"], ["a1"]]


def test_mr17_swap_two_cards_without_pieces(position, load):
    """MR-17: swap two forest cards (not cards with pieces); who has seen their undersides travels along."""
    state = master(position, load, {"a1": "6S", "b2": "9S", "e5": "17S"}, actionSide="special", clovers=[1, 1],
                   supply=3, characters={"N": "G", "E": "R", "S": "B", "W": "F", "action": "XPHT"})
    play(state, "flip a1")
    assert state.to_json()["pending"] == "swap-cards"
    assert not any("c3" in m for m in moves(state))
    play(state, "swap a1 e5")
    out = state.to_json()
    assert out["board"][0].split()[0] == "17S" and out["board"][4].split()[4] == "6M"
    assert out["seen"] == [["e5"], ["e5"]]


def test_mr17_swap_two_character_cards(position, load):
    """MR-17: swap any two of the eight character places (here R on the east side with H at the action card)."""
    state = master(position, load, {"a1": "6S"}, actionSide="special", clovers=[1, 1], supply=3,
                   characters={"N": "G", "E": "R", "S": "B", "W": "F", "action": "XPTH"})
    play(state, "flip a1")
    assert state.to_json()["pending"] == "swap-characters" and len(moves(state)) == 28
    play(state, "swap R H")
    assert state.to_json()["characters"] == {"N": "G", "E": "H", "S": "B", "W": "F", "action": "XPTR"}


def test_mr13_alternate_side_follows_the_start_player_card(position, load):
    """MR-13: with actionSide 'alternate' the shift side is used while the start card shows Sun, the special side
    while it shows Moon."""
    sun = master(position, load, {"a1": "6S"}, actionSide="alternate", clovers=[1, 1], supply=3)
    play(sun, "flip a1")
    assert sun.to_json()["pending"] == "shift-N"
    moon = master(position, load, {"b1": "6M"}, actionSide="alternate", clovers=[1, 1], supply=3, round=2,
                  toMove=1)
    play(moon, "flip b1")       # reveals 6S (G north): a move; use a card revealing H instead
    assert moon.to_json()["toMove"] == 0
    moon = master(position, load, {"b1": "10M"}, actionSide="alternate", clovers=[1, 1], supply=3, round=2,
                  toMove=1)
    play(moon, "flip b1")       # 10S shows H: the special side's N edge is the clover
    assert moon.to_json()["clovers"] == [1, 2]


def test_mr12_shift_keeps_track_of_the_card_flipped_last(position, load):
    """MR-5 / MR-12: the 'not the previous player's card' rule follows the card when a shift moves it."""
    state = master(position, load, {"a1": "6S"}, round=2)
    play(state, "flip a1")
    play(state, "shift col a north")             # a1 (just flipped, now Moon) re-enters at a5
    assert state.to_json()["lastFlipped"] == "a5"
    assert "flip a5" not in moves(state)


def test_mr19_the_python_check_matches_the_kernel_rule(position, load):
    """MR-19: solver.memorinth.notation.stuck (used to validate input) agrees with the kernel's rule (its twin)."""
    import numpy as np

    from solver.memorinth.notation import stuck
    from solver.twins import memorinth_rules as T
    game = MemorinthGame(players=2)
    rng = np.random.default_rng(4)
    known = load(position({"b4": "14S", "b3": "5S"}, pieces=["b4", "c3"], seen=[["b3"], ["b3"]]))
    assert stuck(known, 0) and not stuck(known, 1)
    assert T.stuck([int(x) for x in known.vec], list(known.deck_table), 0)
    agree = both = 0
    for seed in range(60):
        state = game.deal(seed)
        obj = state.to_json()
        obj["pieces"] = [f"{'abcde'[int(rng.integers(5))]}{int(rng.integers(5)) + 1}" for _ in range(2)]
        state = game.state_from_json(obj)
        for p in range(2):
            mine = stuck(state, p)
            assert mine == T.stuck([int(x) for x in state.vec], list(state.deck_table), p)
            both += mine
            agree += 1
    assert agree == 120


def test_mr28_leaving_the_forest_past_a_goblin_costs_a_clover(position, load):
    """MR-28: 5S has a goblin on its north path; leaving north from c1 passes it: one clover, then the win."""
    state = master(position, load, {"c1": "5S", "a1": "6S"}, actionSide="special", clovers=[1, 1], supply=3,
                   pieces=["c1", "c3"], characters={"N": "H", "E": "R", "S": "B", "W": "F", "action": "GXPT"})
    play(state, "flip a1")
    out = state.to_json()
    assert out["winner"] == 0 and out["clovers"] == [0, 1] and out["supply"] == 4


def test_mr28_only_the_arms_crossed_count(position, load):
    """MR-28: 4M's goblin sits on its east arm; entering 4M from the west crosses only its west arm: free."""
    state = master(position, load, {"d3": "4M", "a1": "20S"}, actionSide="special", clovers=[0, 2], supply=3,
                   characters={"N": "G", "E": "R", "S": "B", "W": "F", "action": "HXPT"})
    play(state, "flip a1")          # 20M shows R (east): c3 -> d3 without passing the goblin
    assert state.to_json()["pieces"][0] == "d3" and state.to_json()["clovers"] == [0, 2]
