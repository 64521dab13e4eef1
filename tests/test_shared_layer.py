"""The layer every game shares: views, apply, records, review, puzzles, self-play, pictures, the common verbs.

These run on the toy game ``pile`` (tests/toygame/), whose hooks are the simplest possible, so a failure
here is a failure of the shared code; each real game checks the same contracts on itself.
"""

import functools
import io
import json
import xml.etree.ElementTree as ET

import pytest

from solver import contract

from solver import cli
from solver.engine import Engine
from solver.errors import IllegalMoveError, InvalidInputError
from solver.game import View
from solver.puzzles import generate, parse_puzzle_id, puzzle_id
from solver.record import Record, record_from_json, record_from_lines
from solver.review import review
from solver.scale import item_rng, run_items
from solver.search import Limits, SearchContext
from solver.selfplay import selfplay, summarize
from solver.validate import decode_json


def run_cli(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def engine(lines):
    out = io.StringIO()
    Engine(out).serve([json.dumps(line) for line in lines])
    return [json.loads(line) for line in out.getvalue().splitlines()]


# ---------------------------------------------------------------------- views
def test_view_round_trips_through_json_and_notation(pile_game):
    view = pile_game.parse_state("7:1").view(0)
    assert isinstance(view, View) and view.to_json() == {"view": 0, "pile": 7, "player": 1}
    assert view.to_notation() == "view:0 7:1"
    assert pile_game.parse_position(view.to_json()).to_json() == view.to_json()
    assert pile_game.parse_position(view.to_notation()).to_json() == view.to_json()
    assert pile_game.parse_position(json.dumps(view.to_json())).to_json() == view.to_json()  # JSON text


def test_a_request_that_needs_the_full_state_refuses_a_view(pile_game):
    with pytest.raises(InvalidInputError, match="player 0's view"):
        pile_game.parse_state("view:0 7:1")
    with pytest.raises(InvalidInputError, match="player 1's view"):
        pile_game.parse_state({"view": 1, "pile": 3})


def test_hint_on_a_state_is_the_hint_on_its_view(pile_game):
    state = pile_game.parse_state("8:0")
    ctx = lambda: SearchContext(limits=Limits(nodes=50), seed=3)  # noqa: E731
    assert contract.hint(pile_game, state, ctx()).to_json() == contract.hint(pile_game, state.view(0), ctx()).to_json()
    with pytest.raises(InvalidInputError, match="fullInformation"):
        contract.hint(pile_game, state.view(0), ctx(), full_information=True)
    with pytest.raises(InvalidInputError, match="player 0's view"):
        contract.hint(pile_game, state.view(0), ctx(), player=1)


def test_apply_advances_states_and_views_and_names_the_bad_move(pile_game):
    state = pile_game.parse_state("4:0")
    assert pile_game.apply(state, ["take1", "take2"]).to_notation() == "1:0"
    assert state.to_notation() == "4:0"  # apply copies
    assert pile_game.apply(state.view(1), ["take2"]).to_notation() == "view:1 2:1"
    with pytest.raises(IllegalMoveError) as err:
        pile_game.apply(state, ["take2", "take2", "take1"])
    assert err.value.field == "moves[2]"


# ---------------------------------------------------------------------- records and review
def test_records_replay_to_the_same_final_position(pile_game, tmp_path):
    record = Record.start_of(pile_game.parse_state("6:0")).extended(["take1", "take2", "take1"], comment="ok")
    again = record_from_lines(record.to_lines())
    assert again.to_json() == record.to_json() == record_from_json(record.to_json()).to_json()
    assert again.final_position(pile_game).to_notation() == "2:1"
    assert [p.to_notation() for p in again.positions(pile_game)] == ["6:0", "5:1", "3:0", "2:1"]
    assert again.moves[-1].comment == "ok"
    bad = Record.start_of(pile_game.parse_state("2:0")).extended(["take2", "take1"])
    with pytest.raises(IllegalMoveError) as err:
        bad.final_position(pile_game)
    assert err.value.field == "record.moves[1]"


def test_review_finds_a_planted_blunder(pile_game):
    record = Record.start_of(pile_game.parse_state("7:0")).extended(["take2", "take1", "take1", "take2", "take1"])
    result = review(pile_game, record, player=0, limits=Limits(nodes=10))
    turns = [d["turn"] for d in result["decisions"]]
    assert turns == [0, 2, 4]
    blunder = result["mistakes"][0]
    assert (blunder["turn"], blunder["played"], blunder["best"], blunder["valueLost"]) == (0, "take2", "take1", 2.0)
    assert result["decisions"][1]["valueLost"] == 0.0  # the pile of 4: take1 is right


def test_cli_table_session_new_apply_record_review(pile_game, capsys, tmp_path):
    path = str(tmp_path / "game.jsonl")
    status, out, _ = run_cli(capsys, "pile", "new", "--table", "--player", "0", "--record", path)
    assert status == 0 and out.strip() == "view:0 7:0"
    status, out, _ = run_cli(capsys, "pile", "apply", path, "take2", "take1", "--record", path)
    assert status == 0 and out.strip() == "view:0 4:0"
    status, out, err = run_cli(capsys, "pile", "apply", "view:0 7:0", "take1", "--record", path)
    assert status == 1 and "ends at another position" in err
    status, out, _ = run_cli(capsys, "pile", "review", path, "--nodes", "5", "--json")
    result = json.loads(out)
    assert status == 0 and result["player"] == 0 and result["mistakes"][0]["played"] == "take2"
    status, out, _ = run_cli(capsys, "pile", "review", path, "--nodes", "5")
    assert "Biggest mistakes" in out and "take2" in out


def test_cli_verbs_print_text_or_json(pile_game, capsys):
    status, out, _ = run_cli(capsys, "pile", "view", "5:1", "--player", "1", "--json")
    assert json.loads(out) == {"view": 1, "pile": 5, "player": 1}
    status, out, _ = run_cli(capsys, "pile", "legal-moves", "view:1 5:1", "--json")
    assert json.loads(out) == {"moves": ["take1", "take2"]}
    status, out, _ = run_cli(capsys, "pile", "hint", "view:1 5:1", "--nodes", "3")
    assert status == 0 and "take2" in out.splitlines()[2]
    status, out, err = run_cli(capsys, "pile", "apply", "5:1", "take3")
    assert status == 1 and err.startswith("memory-solver: error: MOVE[0]") and "\n" == err[-1] and err.count("\n") == 1


# ---------------------------------------------------------------------- puzzles and self-play
def test_puzzle_ids_name_everything_needed_to_regenerate(pile_game):
    assert puzzle_id("forgotten(width=4)", "best-move", "hard", 7, 12) == "forgotten(width=4)-best-move-hard-7-12"
    assert parse_puzzle_id("pile-win-hard-7-12") == ("pile", "win", "hard", 7, 12)
    with pytest.raises(InvalidInputError, match="KIND-DIFFICULTY"):
        parse_puzzle_id("pile-win-7-12")
    run = list(generate(pile_game, "win", "medium", seed=5, start=0, count=6))
    assert [p["index"] for p in run] == list(range(6)) and len({p["id"] for p in run}) == 6
    assert list(generate(pile_game, "win", "medium", seed=5, start=4, count=2)) == run[4:]
    other = next(generate(pile_game, "win", "hard", seed=5, start=0, count=1))
    assert other["id"] != run[0]["id"]


def test_cli_generate_json_lines_id_and_check(pile_game, capsys, tmp_path):
    status, out, _ = run_cli(capsys, "pile", "generate", "--count", "3", "--seed", "2", "--json", "--svg",
                             str(tmp_path))
    lines = out.splitlines()
    assert status == 0 and len(lines) == 3
    second = json.loads(lines[1])
    status, out, _ = run_cli(capsys, "pile", "generate", "--id", second["id"], "--json")
    assert out.splitlines() == [lines[1]]
    status, out, _ = run_cli(capsys, "pile", "check", lines[1], second["solution"])
    assert status == 0 and out.startswith("correct")
    status, out, _ = run_cli(capsys, "pile", "check", second["id"], "take9")
    assert status == 4 and out.startswith("not correct")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "answers.svg" in names and len(names) == 7
    for path in tmp_path.iterdir():
        assert ET.parse(path).getroot().get("viewBox")


def test_selfplay_summary_is_paired(pile_game):
    results = list(selfplay(pile_game, ("perfect", "random"), seed=1, count=40))
    assert [r["index"] for r in results] == list(range(40))
    summary = summarize(results)
    assert summary["labels"]["perfect"]["kind"] == "win rate"
    pair = summary["paired"][0]
    assert (pair["a"], pair["b"], pair["deals"]) == ("perfect", "random", 40)
    assert pair["difference"] > 0 and "mcnemarP" in pair


def test_items_come_in_index_order_with_the_same_values_on_two_processes():
    task = functools.partial(pow, 3)
    assert list(run_items(task, 5, 7, jobs=2)) == list(run_items(task, 5, 7, jobs=1)) == [3**i for i in range(5, 12)]
    assert item_rng(1, 2, "x").integers(1000) == item_rng(1, 2, "x").integers(1000)
    assert item_rng(1, 2, "x").integers(10**9) != item_rng(1, 3, "x").integers(10**9)


# ---------------------------------------------------------------------- pictures and the engine
def test_svg_pictures_parse_and_show_the_hint(pile_game, capsys):
    status, out, _ = run_cli(capsys, "pile", "show", "4:0", "--svg", "--hint", "--nodes", "5")
    root = ET.fromstring(out.split("\n", 1)[1])
    assert root.tag.endswith("svg") and root.get("viewBox")
    assert "take1" in out and 'data-target="c0"' in out


def test_engine_new_view_apply_show_generate_check_review(pile_game):
    record = Record.start_of(pile_game.parse_state("7:0")).extended(["take2", "take1"], stamp=False).to_json()
    responses = engine([
        {"id": "n", "game": "pile", "action": "new", "player": 1, "table": True},
        {"id": "v", "game": "pile", "action": "view", "state": "5:0", "player": 0},
        {"id": "a", "game": "pile", "action": "apply", "state": "view:0 5:0", "moves": ["take2"]},
        {"id": "r", "game": "pile", "action": "apply", "record": record, "moves": ["take1"]},
        {"id": "s", "game": "pile", "action": "show", "state": "3:0", "hint": True, "limits": {"nodes": 3}},
        {"id": "g", "game": "pile", "action": "generate", "kind": "win", "difficulty": "easy", "seed": 4,
         "index": 2},
        {"id": "c", "game": "pile", "action": "check", "puzzle": {"position": "5:0"}, "answer": "take2"},
        {"id": "w", "game": "pile", "action": "review", "record": record, "player": 0, "limits": {"nodes": 3}},
        {"id": "t", "game": "pile", "action": "hint", "state": "7:0", "moves": ["take1", "take2"],
         "analyzeTurns": [0, 2], "limits": {"nodes": 3}},
    ])
    answers = {r["id"]: r for r in responses}
    assert answers["n"]["notation"] == "view:1 7:0" and answers["n"]["legalMoves"] == ["take1", "take2"]
    assert answers["v"]["state"] == {"view": 0, "pile": 5, "player": 0}
    assert answers["a"]["notation"] == "view:0 3:1" and answers["a"]["currentPlayer"] == 1
    assert answers["r"]["notation"] == "3:1" and [m["move"] for m in answers["r"]["record"]["moves"]] == \
        ["take2", "take1", "take1"]
    assert answers["s"]["svg"].startswith("<?xml") and answers["s"]["hint"]["moveInfos"]
    assert answers["g"]["puzzle"]["id"] == "pile-win-easy-4-2"
    assert answers["c"]["correct"] is True
    assert answers["w"]["mistakes"][0]["turn"] == 0
    turns = [(r["turnNumber"], r["moveInfos"][0]["move"]) for r in responses if r["id"] == "t"]
    assert turns == [(0, "take1"), (2, "take1")]  # 7 counters, then 4: take1 leaves a multiple of 3 each time


def test_strict_json_names_the_problem():
    with pytest.raises(InvalidInputError, match="5000 digits"):
        decode_json("9" * 5000, "state")
    with pytest.raises(InvalidInputError, match="NaN"):
        decode_json('{"a": NaN}', "state")
    with pytest.raises(InvalidInputError, match="nested too deeply"):
        decode_json("[" * 100000 + "]" * 100000, "state")
