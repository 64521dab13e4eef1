"""Malformed and impossible input: the right exception, naming the field and quoting the value."""

from __future__ import annotations

import pytest

from solver.errors import (IllegalMoveError, ImpossibleStateError, InvalidInputError, InvalidMoveError,
                           NotationError, UnknownCardError, UnknownGameError)
from solver.memorinth.game import MemorinthGame
from solver.registry import load_game

GAME = MemorinthGame()


@pytest.mark.parametrize("change,error,field", [
    (dict(board=["1S 2M 3S 4M 5S"] * 4), InvalidInputError, "state.board"),
    (dict(board="1S"), InvalidInputError, "state.board"),
    (dict(pieces=["c3"]), InvalidInputError, "state.pieces"),
    (dict(pieces=["c3", "z9"]), InvalidInputError, "state.pieces[1]"),
    (dict(characters={"N": "GH", "E": "RX", "S": "BT"}), InvalidInputError, "state.characters.W"),
    (dict(characters={"N": "GH", "E": "RX", "S": "BT", "W": "FQ"}), UnknownCardError, "state.characters.W"),
    (dict(characters={"N": "GH", "E": "RX", "S": "BT", "W": "FG"}), ImpossibleStateError, "state.characters.W"),
    (dict(characters={"N": "G", "E": "RX", "S": "BT", "W": "FPH"}), ImpossibleStateError, "state.characters.N"),
    (dict(clovers=[1, 1], supply=3), InvalidInputError, "state.clovers"),
    (dict(round=1, startCard="moon"), ImpossibleStateError, "state.startCard"),
    (dict(startCard="dusk"), InvalidInputError, "state.startCard"),
    (dict(round=0), InvalidInputError, "state.round"),
    (dict(toMove=2), InvalidInputError, "state.toMove"),
    (dict(phase="choose"), ImpossibleStateError, "state.lastFlipped"),
    (dict(phase="dance"), InvalidInputError, "state.phase"),
    (dict(phase="act", pending="peek"), ImpossibleStateError, "state.phase"),
    (dict(pending="peek"), InvalidInputError, "state.pending"),
    (dict(winner=0), ImpossibleStateError, "state.winner"),
    (dict(pieces=["out", "c3"]), ImpossibleStateError, "state.pieces"),
    (dict(lastFlipped="a1"), ImpossibleStateError, "state.lastFlipped"),
    (dict(seen=[["a1", "a1"], []]), InvalidInputError, "state.seen[0][1]"),
    (dict(seen=[["a1"]]), InvalidInputError, "state.seen"),
    (dict(players=5), InvalidInputError, "state.players"),
    (dict(variant="expert"), InvalidInputError, "state.variant"),
    (dict(seats="SS"), InvalidInputError, "state.seats"),
    (dict(actionSide="special"), InvalidInputError, "state.actionSide"),
    (dict(colour="red"), InvalidInputError, "state.colour"),
    (dict(turns=-1), InvalidInputError, "state.turns"),
])
def test_bad_json_states(position, change, error, field):
    obj = position({})
    obj.update(change)
    with pytest.raises(error) as info:
        GAME.state_from_json(obj)
    assert info.value.field == field, str(info.value)


@pytest.mark.parametrize("cells,error,match", [
    ({"a1": "99S"}, UnknownCardError, "no such card"),
    ({"a1": "3X"}, InvalidInputError, "card id and its face-up side"),
    ({"a1": "3S", "b1": "3M"}, ImpossibleStateError, "already on a1"),
    ({"a1": "3S:4"}, ImpossibleStateError, "already on"),
])
def test_bad_board_cells_name_the_cell(position, cells, error, match):
    with pytest.raises(error, match=match) as info:
        GAME.state_from_json(position(cells))
    assert "state.board[0]" in info.value.field


def test_master_state_needs_the_action_card_characters(position):
    obj = position({}, variant="master", characters={"N": "G", "E": "R", "S": "B", "W": "F"})
    with pytest.raises(InvalidInputError) as info:
        GAME.state_from_json(obj)
    assert info.value.field == "state.characters.action"


def test_clovers_must_add_up_to_five(position):
    obj = position({}, variant="master", actionSide="special", characters={"N": "G", "E": "R", "S": "B", "W": "F",
                                                                           "action": "HXPT"},
                   clovers=[1, 1], supply=2)
    with pytest.raises(ImpossibleStateError, match="add up to 5"):
        GAME.state_from_json(obj)


@pytest.mark.parametrize("text,field", [
    ("", "state"),
    ("5p base SN | x", "state (rules)"),
    ("2p base SN | 1S | c3,c3 | N=GH E=RX S=BT W=FP | r1 p0 flip", "state (board)"),
    ("2p base SN | 7S,12M,20S,11M,9S/21M,1S,18M,19S,23M/4S,6M,CS,15M,10S/22M,8S,16M,24S,13M/5S,2M,14S,17M,3S"
     " | c3 | N=GH E=RX S=BT W=FP | r1 p0 flip", "state (pieces)"),
    ("2p base SN | 7S,12M,20S,11M,9S/21M,1S,18M,19S,23M/4S,6M,CS,15M,10S/22M,8S,16M,24S,13M/5S,2M,14S,17M,3S"
     " | c3,c3 | N=GH E=RX S=BT W=FP | r1 p9 flip", "state (status).toMove"),
    ("2p base SN | 7S,12M,20S,11M,9S/21M,1S,18M,19S,23M/4S,6M,CS,15M,10S/22M,8S,16M,24S,13M/5S,2M,14S,17M,3S"
     " | c3,c3 | N=GH E=RX S=BT W=FP | r1 p2 flip", "state (status).toMove"),
    ("2p base SN | 7S,12M,20S,11M,9S/21M,1S,18M,19S,23M/4S,6M,CS,15M,10S/22M,8S,16M,24S,13M/5S,2M,14S,17M,3S"
     " | c3,c3 | N=GH E=RX S=BT W=FP | r0 p0 flip", "state (status).round"),
    ("2p base SN | 7S,12M,20S,11M,9S/21M,1S,18M,19S,23M/4S,6M,CS,15M,10S/22M,8S,16M,24S,13M/5S,2M,14S,17M,3S"
     " | c3,c3 | N=GH E=RX S=BT W=FP | r1 px flip", "state (status)"),
    ("2p base SN | 7S,12M,20S,11M,9S/21M,1S+7,18M,19S,23M/4S,6M,CS,15M,10S/22M,8S,16M,24S,13M/5S,2M,14S,17M,3S"
     " | c3,c3 | N=GH E=RX S=BT W=FP | r1 p0 flip", "state (board cell b2)"),
    ("2p base SN | 7S,12M,20S,11M,9S/21M,1S,18M,19S,23M/4S,6M,CS,15M,10S/22M,8S,16M,24S,13M/5S,2M,14S,17M,3S"
     " | c3,c3 | N=GH E=RX S=BT | r1 p0 flip", "state (characters).W"),
])
def test_bad_notation(text, field):
    with pytest.raises(InvalidInputError) as info:
        GAME.state_from_notation(text)
    assert info.value.field == field, str(info.value)


def test_notation_error_class():
    with pytest.raises(NotationError):
        GAME.state_from_notation("hello")


def test_moves_unparsable_and_illegal():
    state = GAME.deal(0)
    with pytest.raises(InvalidMoveError) as info:
        state.parse_move("jump b2")
    assert info.value.field == "move" and info.value.value == "jump b2"
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        state.parse_move("flip c3")            # the clearing holds the pieces
    with pytest.raises(IllegalMoveError):
        state.parse_move("choose R")
    assert state.parse_move("FLIP  a1") == state.parse_move("flip a1")
    with pytest.raises(IllegalMoveError):
        state.apply_action(999)


def test_bad_game_parameters():
    with pytest.raises(UnknownGameError, match="game.players"):
        load_game("memorinth(players=5)")
    with pytest.raises(InvalidInputError, match="game.seats"):
        load_game("memorinth(players=3,seats=SN)")
    with pytest.raises(InvalidInputError, match="game.action_side"):
        load_game("memorinth(action_side=special)")
    with pytest.raises(UnknownGameError, match="game.variant"):
        load_game("memorinth(variant=expert)")


@pytest.mark.parametrize("cells,change,match", [
    # round 2, player 1 to move: player 0 flipped in a Sun turn, so the card must show Moon now
    ({"a1": "20S"}, dict(round=2, toMove=1, lastFlipped="a1"), "must now show moon"),
    # round 3, player 0 to move: player 1 flipped in round 2 (a Moon turn for them): the card shows Sun
    ({"b1": "6M"}, dict(round=3, toMove=0, lastFlipped="b1"), "must now show sun"),
])
def test_mr5_the_card_flipped_last_must_show_its_new_side(position, cells, change, match):
    """MR-5 / MR-6: the previous player turned that card over from the side the start card named then."""
    obj = position(cells)
    obj.update(change)
    with pytest.raises(ImpossibleStateError, match=match) as info:
        GAME.state_from_json(obj)
    assert info.value.field == "state.lastFlipped"
    obj["board"] = [row.replace("20S", "20M").replace("6M", "6S") for row in obj["board"]]
    assert GAME.state_from_json(obj).to_json()["lastFlipped"] == change["lastFlipped"]


def test_mr11_an_act_phase_must_come_from_the_card_just_flipped(position):
    """MR-11: an action is pending only when the card just flipped shows a character at that action."""
    game = MemorinthGame(variant="master")
    chars = {"N": "G", "E": "R", "S": "B", "W": "F", "action": "HXPT"}
    obj = position({"a1": "6M"}, variant="master", characters=chars, phase="act", pending="shift-N",
                   lastFlipped="a1", seen=[["a1"], ["a1"]])
    assert game.state_from_json(obj).phase == "act"        # 6M shows H, on the shift-up edge: north for seat S
    for change, field, match in [
        (dict(pending="shift-E"), "state.pending", "no character on the card just flipped"),
        (dict(lastFlipped=None), "state.lastFlipped", "needs the card just flipped"),
        (dict(board=[row.replace("6M", "6S") for row in obj["board"]]), "state.lastFlipped",
         "must show the side the start-player card does not"),
    ]:
        bad = dict(obj, **change)
        with pytest.raises(ImpossibleStateError, match=match) as info:
            game.state_from_json(bad)
        assert info.value.field == field
