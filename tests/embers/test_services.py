"""The engine, the Python API and ``memory-solver embers ...``, with good and malformed input."""

import io
import json

import pytest

from solver import contract
import solver
from solver.cli import main
from solver.engine import Engine

from .helpers import GAME

BLINK = ("embers/one day=1 turn=fenrys phase=blink mind=C4@0,0;S1a@1,1 row=C3,C1b demons=Cd:C2b discard=- "
         "box=- resolve=D1a,G2b,S3,F5 completed=0 added=1 pending=- result=-")
PROLOGUE_TWO = None


def engine_answers(*queries):
    out = io.StringIO()
    engine = Engine(out)
    engine.serve([json.dumps(q) if isinstance(q, dict) else q for q in queries])
    return {a["id"]: a for a in (json.loads(line) for line in out.getvalue().splitlines())}


def test_engine_actions():
    """hint, solve, score and legal_moves through the JSON-lines engine."""
    answers = engine_answers(
        {"id": 1, "game": "embers", "action": "hint", "state": BLINK, "limits": {"time_ms": 2000}},
        {"id": 2, "game": "embers", "action": "solve", "state": BLINK},
        {"id": 3, "game": "embers", "action": "score", "state": GAME.state_from_notation(BLINK).to_json()},
        {"id": 4, "game": "embers", "action": "legal_moves", "state": BLINK},
        {"id": 5, "game": "embers", "action": "solve", "state": {"state": BLINK, "method": "exhaustive"}},
    )
    assert answers[1]["moveInfos"][0]["move"] == "add C3@0,1" and not answers[1]["isDuringSearch"]
    assert answers[2]["optimal"] is True and answers[2]["status"] == "OPTIMAL"
    assert answers[2]["plan"] == ["add C3@0,1", "add C1b@-1,0"]
    assert answers[5]["value"] == answers[2]["value"] and answers[5]["status"] == "EXHAUSTIVE"
    assert answers[3]["rows"][0]["current"] is True and answers[3]["demons"][0]["demon"] == "Cd"
    assert "discard C3" in answers[4]["moves"]


@pytest.mark.parametrize("query, field", [
    ({"id": 1, "game": "embers", "action": "hint", "state": BLINK.replace("C3,C1b", "C3,C9")}, "state.row[1]"),
    ({"id": 1, "game": "embers", "action": "hint", "state": {"chapter": "one", "phase": "blink", "mind": 5}},
     "state.mind"),
    ({"id": 1, "game": "embers", "action": "solve", "state": BLINK.replace("phase=blink", "phase=draw")
      .replace("added=1", "added=0").replace("row=C3,C1b", "row=-")}, "state.phase"),
    ({"id": 1, "game": "embers(chapter=two)", "action": "hint", "state": BLINK}, "game.chapter"),
    ({"id": 1, "game": "embers", "action": "solve", "state": {"state": BLINK, "method": "magic"}}, "state.method"),
])
def test_engine_errors_name_the_field(query, field):
    """A bad query gets {id, error, field} and the engine keeps serving."""
    answer = engine_answers(query, {"id": 2, "game": "embers", "action": "legal_moves", "state": BLINK})
    assert answer[1]["field"] == field and "error" in answer[1]
    assert "moves" in answer[2]


def test_python_api():
    """solver.hint / solve / score / legal_moves."""
    assert solver.hint("embers", BLINK, time_ms=2000).best.move == "add C3@0,1"
    assert solver.solve("embers", BLINK).optimal
    assert solver.score("embers", BLINK)["deckCount"] == 30
    assert solver.legal_moves("embers", BLINK)[0].startswith("add ")


def run(capsys, *args):
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_hint_solve_score_show(capsys, tmp_path):
    """The documented commands, reading a state file, inline notation and stdin-free input."""
    path = tmp_path / "state.json"
    path.write_text(json.dumps(GAME.state_from_notation(BLINK).to_json()))
    code, out, _ = run(capsys, "embers", "hint", str(path))
    assert code == 0 and "add C3@0,1" in out and "own information" in out
    code, out, _ = run(capsys, "embers", "hint", str(path), "--json")
    assert json.loads(out)["moveInfos"][0]["move"] == "add C3@0,1"
    code, out, _ = run(capsys, "embers", "solve", BLINK)
    assert code == 0 and "proven optimal" in out and "add C3@0,1; add C1b@-1,0" in out
    code, out, _ = run(capsys, "embers", "score", BLINK, "--json")
    assert json.loads(out)["mind"]["split"] is False
    code, out, _ = run(capsys, "embers", "score", BLINK)
    assert code == 0 and "row 1: Resolve D1a" in out and "demons: Cd [C2b]" in out
    code, out, _ = run(capsys, "embers", "show", BLINK, "--player", "0")
    assert "Resolve ?" in out and "Demon row: Cd [C2b]" in out
    code, out, _ = run(capsys, "embers", "legal-moves", BLINK)
    assert "discard C1b" in out.splitlines()


def test_cli_new_play_and_chapters(capsys):
    """'new' deals a game; 'play' applies moves; a prologue state is read with the prologue's rules."""
    code, out, _ = run(capsys, "embers", "new", "--seed", "4", "--notation")
    assert code == 0 and out.startswith("embers/one ") and "phase=arrange" in out  # EM-34
    code, out, _ = run(capsys, "embers", "new", "--seed", "4", "--chapter", "prologue", "--notation")
    notation = out.strip()
    assert notation.startswith("embers/prologue/1 ")
    first = solver.legal_moves("embers", notation)[0]
    code, out, _ = run(capsys, "embers", "play", notation, first, "--notation")
    assert code == 0 and "phase=second" in out


@pytest.mark.parametrize("args, fragment", [
    (["embers", "hint", "{not json"], "malformed JSON"),
    (["embers", "hint", BLINK.replace("C4@0,0", "C4@0,0;C4@1,1")], "already placed"),
    (["embers", "play", BLINK, "add C3@9,9"], "not a legal move"),
    (["embers", "play", BLINK, "fly away"], "unknown move"),
    (["embers", "hint", BLINK, "--top", "0"], "--top"),
    (["embers", "solve", BLINK.replace("turn=fenrys", "turn=aelin")], "state"),
    (["embers", "generate", "--count", "0"], "--count"),
    (["embers", "hint", BLINK, "--deck", "/nonexistent/deck.json"], "game.deck"),
])
def test_cli_errors_are_one_line(capsys, args, fragment):
    """A user's mistake prints one line on stderr and exits non-zero, never a traceback."""
    code, out, err = run(capsys, *args)
    assert code == 1 and not out
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


def test_campaign_bookkeeping(capsys, tmp_path):
    """EM-60..EM-66: the prologue's parts, chapter one's new cards and archive, chapter two recorded but not
    playable, archive/add/remove, reset."""
    path = str(tmp_path / "campaign.json")
    assert run(capsys, "embers", "campaign", "new", path)[0] == 0
    run(capsys, "embers", "campaign", "record", path, "--result", "lost")
    data = json.loads(open(path).read())
    assert data["chapter"] == "prologue" and data["part"] == 1
    run(capsys, "embers", "campaign", "record", path, "--result", "won")
    assert json.loads(open(path).read())["part"] == 2
    code, out, _ = run(capsys, "embers", "campaign", "record", path, "--result", "won")
    data = json.loads(open(path).read())
    assert data["chapter"] == "one" and set(data["archive"]) == {"aelin-prologue", "rowan"}
    assert {"Cd", "Dd", "Fd", "Gd", "Sd", "fenrys", "aelin"} <= set(data["added"])
    run(capsys, "embers", "campaign", "remove", path, "C4")
    code, out, _ = run(capsys, "embers", "new", "--campaign", path, "--seed", "1", "--json")
    assert "C4" in json.loads(out)["box"]
    code, _, err = run(capsys, "embers", "campaign", "archive", path, "C4")
    assert code == 1 and "not in the memory deck" in err
    run(capsys, "embers", "campaign", "add", path, "C4")
    run(capsys, "embers", "campaign", "record", path, "--result", "won")
    data = json.loads(open(path).read())
    assert data["chapter"] == "two" and data["pendingChapterCard"] is True
    code, _, err = run(capsys, "embers", "new", "--campaign", path)
    assert code == 1 and "captivity cards" in err
    run(capsys, "embers", "campaign", "reset", path)
    data = json.loads(open(path).read())
    assert data["chapter"] == "one" and data["removed"] == [] and data["history"][-1] == {"event": "reset"}
    (tmp_path / "bad.json").write_text('{"format": "embers-campaign", "version": 1, "chapter": "nine"}')
    code, _, err = run(capsys, "embers", "campaign", "show", str(tmp_path / "bad.json"))
    assert code == 1 and "campaign.chapter" in err


def test_demo_prints_examples(capsys):
    """memory-solver demo --game embers prints readable built-in examples."""
    code, out, _ = run(capsys, "demo", "--game", "embers")
    assert code == 0 and "Fenrys's hint" in out and "OPTIMAL" in out and "Aelin's hint" in out
    assert "A short reviewed game" in out and "Biggest mistakes:" in out and "flip " in out


def test_cli_score_accepts_json_like_every_game(capsys):
    """Issue 16: 'embers score --json' was refused (exit 2) unlike every other game's score. Since the shared
    verbs, score without --json prints text, as every game's does; --json the engine's answer."""
    code, plain, _ = run(capsys, "embers", "score", BLINK)
    code_json, out, err = run(capsys, "embers", "score", BLINK, "--json")
    assert code == code_json == 0 and not err
    report = json.loads(out)
    assert report == contract.score(GAME, BLINK) and {"result", "rows", "mind"} <= set(report)
    assert plain.strip() and not plain.lstrip().startswith("{")


@pytest.mark.parametrize("action", ["score", "hint", "solve"])
def test_a_chapter_given_as_a_list_names_the_field(action):
    """Issue 11 item 6: a list as chapter gave 'unhashable type: list' for score, hint and solve."""
    state = GAME.state_from_notation(BLINK).to_json()
    state["chapter"] = ["one"]
    answer = engine_answers({"id": 1, "game": "embers", "action": action, "state": state})[1]
    assert answer["field"] == "state.chapter" and "expected one of one, prologue" in answer["error"]
    assert "internal error" not in answer["error"]
