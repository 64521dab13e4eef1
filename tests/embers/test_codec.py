"""JSON and notation: round trips, positions typed from the docs, and malformed or impossible input."""

import pytest

from solver.errors import ImpossibleStateError, InvalidInputError, NotationError, UnknownCardError

from .helpers import GAME, PROLOGUE, one, state

DOC_NOTATION = ("embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b demons=Cd:C2b "
                "discard=- box=- resolve=D1a,G2b,S3,F5 completed=0 added=1 pending=- result=-")


def test_notation_from_the_docs_round_trips():
    """The example in docs/formats/embers.md parses, and JSON and notation agree."""
    s = GAME.state_from_notation(DOC_NOTATION)
    assert s.to_notation() == DOC_NOTATION
    assert GAME.state_from_json(s.to_json()).to_notation() == DOC_NOTATION
    legal = {s.action_to_string(a) for a in s.legal_actions()}
    assert {"add C3@-1,0", "add C1b@-1,0", "discard C3", "discard C1b"} <= legal


def test_json_accepts_object_mind_entries_and_omits_the_deck():
    """Mind entries may be objects; the deck is optional and, when given, must be exactly the rest."""
    s = GAME.state_from_json(one(mind=[{"card": "C4", "x": 0, "y": 0}]))
    data = s.to_json()
    assert data["mind"] == ["C4@0,0"]
    assert GAME.state_from_json(data).to_json() == data
    data["deck"] = data["deck"][1:]
    with pytest.raises(ImpossibleStateError) as err:
        GAME.state_from_json(data)
    assert err.value.field == "state.deck"


@pytest.mark.parametrize("fields, error, field, fragment", [
    ({"mind": ["C4@0,0", "X9@1,1"]}, UnknownCardError, "state.mind[1]", "unknown card"),
    ({"mind": ["C4@0,0"], "row": ["C4"]}, ImpossibleStateError, "state.row[0]", "already placed"),
    ({"mind": ["Cd@0,0"]}, ImpossibleStateError, "state.mind[0]", "demon"),
    ({"mind": ["C4@zero,0"]}, InvalidInputError, "state.mind[0]", "CARD@X,Y"),
    ({"mind": ["C4@0,5000"]}, InvalidInputError, "state.mind[0]", "between"),
    ({"phase": "dance"}, InvalidInputError, "state.phase", "expected one of"),
    ({"demons": [{"demon": "Cd", "tainted": ["S1a"]}]}, ImpossibleStateError, "state.demons[0].tainted[0]",
     "Chains"),
    ({"demons": [{"demon": "C3"}]}, ImpossibleStateError, "state.demons[0].demon", "only demons"),
    ({"turn": "aelin", "phase": "acknowledge", "resolve": [{"card": "D1a", "cards": ["C5", "F2a"]},
                                                          {"card": "G2b"}, {"card": "S3"}, {"card": "F5"}]},
     ImpossibleStateError, "state.resolve[0]", "less than 7"),
    ({"completed": 1}, ImpossibleStateError, "state.resolve[0]", "exactly 7"),
    ({"mind": ["C4@0,0", "F4@5,5"]}, ImpossibleStateError, "state.mind", "split"),
    ({"mind": []}, ImpossibleStateError, "state.mind", "empty"),
    ({"phase": "blink", "row": ["Cd"]}, ImpossibleStateError, "state.row", "demon row"),
    ({"phase": "reveal", "added": True}, ImpossibleStateError, "state.pending", "pending"),
    ({"resolve": [{"card": "D1a"}]}, ImpossibleStateError, "state.resolve", "4 strength rows"),
    ({"day": 4}, InvalidInputError, "state.day", "at most 3"),
    ({"colour": "red"}, InvalidInputError, "state.colour", "unknown key"),
    ({"result": "won"}, ImpossibleStateError, "state.result", "over"),
    ({"resolve": [{"card": "D1a", "atLeast": 3}, {"card": "G2b"}, {"card": "S3"}, {"card": "F5"}]},
     ImpossibleStateError, "state.resolve[0].atLeast", "exceed"),
])
def test_bad_states_name_the_field(fields, error, field, fragment):
    """Malformed and impossible positions raise the right error class, naming the field and the problem."""
    with pytest.raises(error) as err:
        GAME.state_from_json(one(**fields))
    assert err.value.field == field, str(err.value)
    assert fragment in str(err.value)


@pytest.mark.parametrize("text, fragment", [
    ("", "empty"),
    ("embers/two day=1", "embers/one"),
    ("embers/one day=1 colour=red", "key=value"),
    ("embers/one day=x", "integer"),
    ("embers/one day=1 day=2", "twice"),
    ("chess/one", "embers/one"),
])
def test_bad_notation(text, fragment):
    """Notation errors are NotationError with the offending token."""
    with pytest.raises(NotationError) as err:
        GAME.state_from_notation(text)
    assert fragment in str(err.value)


def test_wrong_chapter_is_explained():
    """A prologue state given to the Chapter One game says which game to use."""
    with pytest.raises(InvalidInputError) as err:
        GAME.state_from_json({"chapter": "prologue", "phase": "first"})
    assert "embers(chapter=prologue)" in str(err.value)
    with pytest.raises(NotationError):
        PROLOGUE.state_from_notation(DOC_NOTATION)


def test_unknown_resolve_cards_are_guessed_for_fenrys():
    """Fenrys may type his own view with face-down Resolve cards as '?': they are filled consistently with
    the table (seeded) and the state is marked 'guessed'."""
    rows = [{"card": "?", "cards": ["S5", "F1a"]}, {"card": "?"}, {"card": "?"}, {"card": "?"}]
    s = GAME.state_from_json(one(resolve=rows, completed=1))
    assert s.guessed and s.to_json()["guessed"] is True
    assert s.deck.cards[s.rows[0].resolve].strength == 1  # the first row is complete: 7 - 5 - 1
    assert GAME.state_from_notation(s.to_notation()).to_json() == s.to_json()
    assert s.observation(0)["resolve"][0]["card"] == "?"


def test_unknown_resolve_cards_that_nothing_fits():
    """'?' Resolve cards that no unseen card can fill are an impossible state."""
    strength_one = [c.id for c in GAME.deck.memory if c.strength == 1 and c.id not in ("S1a",)]
    rows = [{"card": "?", "cards": ["S5", "S1a"]}, {"card": "?"}, {"card": "?"}, {"card": "?"}]
    with pytest.raises(ImpossibleStateError):
        GAME.state_from_json(one(resolve=rows, completed=1, box=strength_one))


def test_state_helper_is_valid():
    """The base position used by the tests is accepted as it is."""
    assert state().phase == "draw" and state(phase="blink", row=["G3"]).phase == "blink"
