"""Every field of the Embers state and view JSON is type-checked, with the field named (issue 11; a fuzzing
campaign found ``"turn": {"a": 1}`` answered with ``internal error: unhashable type: 'dict'``)."""

import copy
import json

import pytest

from .helpers import GAME, PROLOGUE
from .test_services import engine_answers

WRONG = [{"a": 1}, ["one"], 2.5, None, True, -1, 10**30, "", "??"]


def _paths(value, path=()):
    """Every place in a JSON value: (path of keys and indexes, value)."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, path + (i,))


def _replaced(obj, path, value):
    out = copy.deepcopy(obj)
    place = out
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return out


def _positions():
    one = GAME.state_from_notation(
        "embers/one day=2 turn=aelin phase=acknowledge mind=C1b@-2,-1;D1b@-3,-2;F1b@-1,-1;S1a@0,-1 row=- "
        "demons=Gd,Fd discard=F5,S3,C4 box=D4,D1a resolve=G5.F2b,S4.F1a.C2b!4,^F4.F3,G3 completed=3 added=1 "
        "pending=- result=-")
    blink = GAME.state_from_notation(
        "embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b demons=Cd:C2b discard=- box=- "
        "resolve=D1a,G2b,S3,F5 completed=0 added=1 pending=- result=-")
    prologue = PROLOGUE.new_game(3)
    while prologue.is_chance_node():
        prologue.apply_action(prologue.chance_outcomes()[0][0])
    return {"acknowledge": one.to_json(), "blink": blink.to_json(), "view": one.view(0).to_json(),
            "aelin-view": one.view(1).to_json(), "prologue": prologue.to_json()}


POSITIONS = _positions()


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_a_wrong_type_anywhere_is_an_error_naming_a_field(name):
    base = POSITIONS[name]
    queries, where = [], {}
    for path, _ in _paths(base):
        if not path:
            continue
        for k, wrong in enumerate(WRONG):
            qid = f"{'.'.join(map(str, path))}#{k}"
            where[qid] = (path, wrong)
            action = ("view", "score", "legal_moves", "hint")[k % 4]
            queries.append({"id": qid, "game": "embers", "action": action, "state": _replaced(base, path, wrong),
                            "player": base.get("view", 0) if action == "view" else None, "limits": {"nodes": 2000}})
    answers = engine_answers(*queries)
    assert sorted(answers) == sorted(where)
    for qid, answer in answers.items():
        text = json.dumps(answer)
        assert "internal error" not in text and "Traceback" not in text, (qid, answer)
        if "error" in answer:
            # the field named is in the position (or, for a hint of a view, the player who is not to move)
            assert (answer["field"] or "").startswith("state") or answer["field"] == "player", (qid, answer)


@pytest.mark.parametrize("key, value", [("turn", {"a": 1}), ("chapter", ["one"]), ("phase", {"x": 1}),
                                        ("result", ["won"]), ("day", {"d": 1}), ("pending", ["suit"])])
def test_the_fuzz_findings_name_their_field(key, value):
    """The fuzzing campaign's finding and its cousins: a dict or list where a string or number belongs."""
    state = copy.deepcopy(POSITIONS["blink"])
    state[key] = value
    for action in ("view", "score", "hint", "solve", "legal_moves"):
        answer = engine_answers({"id": 1, "game": "embers", "action": action, "state": state, "player": 0})[1]
        assert answer.get("field") == f"state.{key}", (action, answer)
        assert "internal error" not in answer["error"]
