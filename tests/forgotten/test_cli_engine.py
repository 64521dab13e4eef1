"""``memory-solver forgotten ...`` and the JSON-lines engine: answers, and one-line errors for bad input."""

from __future__ import annotations

import io
import json

import pytest

from solver.cli import main
from solver.engine import Engine

POSITION = "c.B./@bc@/.a.a 1 first"
GAME = "forgotten(width=4,height=3,pairs=3)"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_hint_command_text_and_json(capsys):
    code, out, err = run(capsys, "forgotten", "hint", POSITION, "--nodes", "2000")
    assert code == 0 and "hint from what the players have seen" in out and "win probability" in out
    code, out, _ = run(capsys, "forgotten", "hint", POSITION, "--nodes", "2000", "--json", "--top", "2")
    data = json.loads(out)
    assert code == 0 and len(data["moveInfos"]) == 2 and data["rootInfo"]["stage"] == "first flip"


def test_solve_score_legal_moves_place_selfplay_commands(capsys):
    code, out, _ = run(capsys, "forgotten", "solve", POSITION, "--game", "forgotten(erasure=turn)")
    assert code == 0 and "optimal win probability" in out and "EXHAUSTIVE" in out
    code, out, _ = run(capsys, "forgotten", "score", POSITION, "--json")
    assert code == 0 and json.loads(out)["status"] == "in play"
    code, out, _ = run(capsys, "forgotten", "legal-moves", POSITION)
    assert code == 0 and out.splitlines()[-1] == "give up"
    code, out, _ = run(capsys, "forgotten", "place", "--game", "forgotten(width=3,height=4)", "--nodes", "4000")
    assert code == 0 and "Brains on" in out
    # the old flags --games and --policy stay as aliases of --count and --policies
    code, out, _ = run(capsys, "forgotten", "selfplay", "--game", GAME, "--games", "500", "--policy", "route",
                       "--fast", "--summary", "--json")
    data = json.loads(out)["summary"]
    route = data["labels"]["route"]
    assert code == 0 and data["games"] == 500 and route["ci"][0] <= route["mean"] <= route["ci"][1]


@pytest.mark.parametrize("argv, status, text", [
    (["forgotten", "hint", "c.B./@bc@/.a.z 1 first"], 1, "no pair Z"),
    (["forgotten", "hint", "{\"board\": [1]}"], 1, "STATE.board[0]"),
    (["forgotten", "hint", "{not json"], 1, "malformed JSON"),
    (["forgotten", "hint", POSITION, "--top", "0"], 1, "--top"),
    (["forgotten", "hint", POSITION, "--game", "aetherya"], 1, "--game"),
    (["forgotten", "hint", POSITION, "--game", "forgotten(erasure=never)"], 1, "game.erasure"),
    (["forgotten", "solve", "@" * 3 + "/" + "a" * 3 + "/bbb 0 first"], 1, "Brain"),
    (["forgotten", "hint"], 2, "STATE"),
    (["forgotten", "selfplay", "--games", "0"], 1, "--count"),          # --games is an alias of --count
    (["forgotten", "generate", "--count", "0"], 1, "--count"),
])
def test_bad_input_is_one_line_and_a_status(capsys, argv, status, text):
    code, out, err = run(capsys, *argv)
    assert code == status
    assert text in err and err.count("\n") == 1 and "Traceback" not in err


def test_engine_answers_forgotten_queries():
    out = io.StringIO()
    engine = Engine(out)
    queries = [
        {"id": 1, "game": "forgotten", "action": "hint", "state": POSITION, "limits": {"nodes": 1500}},
        {"id": 2, "game": "forgotten(erasure=turn)", "action": "solve", "state": POSITION},
        {"id": 3, "game": "forgotten", "action": "score", "state": POSITION},
        {"id": 4, "game": "forgotten", "action": "legal_moves", "state": POSITION},
        {"id": 5, "game": "forgotten", "action": "hint", "state": "c.B./@bc@/.a.a 1 first 2,2"},
        {"id": 6, "game": "forgotten", "action": "hint", "state": {"board": ["c.B."], "turn": 1, "phase": "first"}},
        {"id": 7, "game": "forgotten", "action": "hint", "state": POSITION, "fullInformation": True,
         "limits": {"nodes": 500}},
    ]
    engine.serve(json.dumps(q) for q in queries)
    answers = {a["id"]: a for a in map(json.loads, out.getvalue().splitlines())}
    assert answers[1]["moveInfos"] and answers[1]["rootInfo"]["fullInformation"] is False
    assert answers[2]["optimal"] is True and answers[2]["status"] == "EXHAUSTIVE"
    assert answers[3]["route"]["missingTiles"] == 2
    assert "give up" in answers[4]["moves"]
    assert answers[5]["field"] == "state.first" and "error" in answers[5]
    assert answers[6]["field"].startswith("state") and "error" in answers[6]
    assert answers[7]["rootInfo"]["fullInformation"] is True


def test_demo_prints_readable_examples(capsys):
    """The demo runs the game's main jobs through the command line (commands.DEMO)."""
    code, out, _ = run(capsys, "demo", "--game", "forgotten")
    assert code == 0
    for text in ("on the real 6x6 board", "hint from what the players have seen, first flip",
                 "hint from what the players have seen, second flip", "Exact solution", "optimal win probability",
                 "Brain placement advice", "Brains on 2,1 and 2,4", "Link the Brains for sure", "Its review",
                 "Biggest mistakes"):
        assert text in out
