"""The command line: memory-solver memorinth ... and the demo (one-line errors, exit codes)."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from solver import contract
from solver.cli import main
from solver.memorinth.game import MemorinthGame


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def state_file(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps(MemorinthGame().deal(3).to_json()))
    return str(path)


def test_hint_from_a_json_file(capsys, state_file):
    code, out, err = run(capsys, "memorinth", "hint", state_file, "--nodes", "1500")
    assert code == 0 and err == ""
    assert "hint from the player's own information" in out and " 1. flip " in out and "wins" in out


def test_hint_json_and_board(capsys, state_file):
    code, out, _ = run(capsys, "memorinth", "hint", state_file, "--nodes", "1000", "--json", "--top", "2")
    body = json.loads(out)
    assert code == 0 and len(body["moveInfos"]) == 2 and body["rootInfo"]["fullInformation"] is False
    code, out, _ = run(capsys, "memorinth", "show", state_file, "--player", "0")   # the text picture of a view
    assert code == 0 and "+---------+" in out and "'?' = underside not known" in out


def test_new_play_show_legal_moves_round_trip(capsys):
    code, notation, _ = run(capsys, "memorinth", "new", "--seed", "3", "--players", "3")
    assert code == 0 and notation.startswith("3p base SWN |")
    code, out, _ = run(capsys, "memorinth", "play", notation.strip(), "flip a1")
    assert code == 0 and "last=a1" in out
    code, out, _ = run(capsys, "memorinth", "legal-moves", out.strip(), "--json")
    assert code == 0 and "flip a1" not in json.loads(out)["moves"] and "flip c1" in json.loads(out)["moves"]
    code, out, _ = run(capsys, "memorinth", "show", notation.strip(), "--player", "1", "--json")
    assert json.loads(out)["view"] == 1


def test_solve_and_score(capsys, state_file):
    code, out, _ = run(capsys, "memorinth", "solve", state_file)
    assert code == 0 and "proven shortest" in out and "turn 1:" in out
    code, out, _ = run(capsys, "memorinth", "solve", state_file, "--json")
    answer = json.loads(out)
    # the engine's answer (docs/formats/memorinth.md): status EXHAUSTIVE, result OPTIMAL, value/optimal/bound
    assert answer["status"] == "EXHAUSTIVE" and answer["result"] == "OPTIMAL" and answer["optimal"] is True
    assert answer["value"] == answer["turns"] == answer["bound"] == len(answer["turnMoves"])
    code, out, _ = run(capsys, "memorinth", "solve", state_file, "--json", "--max-depth", "1")
    answer = json.loads(out)
    assert (answer["result"], answer["status"]) in (("NONE_WITHIN_MAX_DEPTH", "LIMIT"), ("NO_ESCAPE", "EXHAUSTIVE"),
                                                    ("OPTIMAL", "EXHAUSTIVE"))
    code, out, _ = run(capsys, "memorinth", "score", state_file)
    assert code == 0 and "yellow" in out and "shortest escape" in out


def test_generate(capsys):
    code, out, _ = run(capsys, "memorinth", "generate", "--count", "2", "--seed", "3", "--difficulty", "easy",
                       "--json")
    puzzles = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(puzzles) == 2
    assert [p["id"] for p in puzzles] == ["memorinth-escape-easy-3-0", "memorinth-escape-easy-3-1"]
    assert all(p["unique"] and p["verified"] and 2 <= p["turns"] <= 3 and p["kind"] == "escape" for p in puzzles)
    again = MemorinthGame(players=1).state_from_json(puzzles[0]["state"])
    for turn in puzzles[0]["solution"]:
        for move in turn:
            again.apply_move(move)
    assert again.winner() == 0
    code, out, _ = run(capsys, "memorinth", "generate", "--turns", "4", "--json")
    assert code == 0 and json.loads(out)["turns"] == 4 and json.loads(out)["id"].startswith("memorinth-escape-in-4-")


def _cli(*args: str) -> str:
    """One command line run in-process (``--jobs 2`` still spawns its two worker processes)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    assert code == 0, err.getvalue()
    return out.getvalue()


def test_generate_and_selfplay_runs_are_the_same_on_one_or_two_processes_and_resume(tmp_path):
    """Issue 14: byte-identical JSON lines with --jobs 1 and --jobs 2; --id reproduces a line; --start resumes;
    every line carries the shared keys."""
    gen = ("memorinth", "generate", "--count", "3", "--seed", "4", "--difficulty", "easy", "--json")
    one = _cli(*gen, "--jobs", "1")
    assert one == _cli(*gen, "--jobs", "2")
    lines = one.splitlines()
    assert all(set(json.loads(line)) >= {"id", "game", "kind", "difficulty", "seed", "index"} for line in lines)
    assert _cli("memorinth", "generate", "--id", json.loads(lines[2])["id"], "--json") == lines[2] + "\n"
    assert _cli("memorinth", "generate", "--count", "2", "--start", "1", "--seed", "4", "--difficulty", "easy",
                "--json") == "\n".join(lines[1:]) + "\n"
    play = ("memorinth", "selfplay", "--count", "2", "--seed", "1", "--hint-nodes", "40", "--json")
    first = _cli(*play, "--jobs", "1")
    assert first == _cli(*play, "--jobs", "2")
    games = [json.loads(line) for line in first.splitlines()]
    assert [g["id"] for g in games[:2]] == ["memorinth-selfplay-1-0", "memorinth-selfplay-1-1"]
    assert set(games[0]["outcomes"]) == {"hint", "greedy"} and len(games[0]["games"]) == 2
    assert games[0]["games"][0]["seats"] == ["hint", "greedy"] and games[0]["games"][1]["seats"] == ["greedy", "hint"]
    assert "summary" in games[-1] and games[-1]["summary"]["games"] == 2
    resumed = _cli("memorinth", "selfplay", "--count", "1", "--start", "1", "--seed", "1", "--hint-nodes", "40",
                   "--json")
    assert resumed.splitlines()[0] == first.splitlines()[1]


def test_selfplay_replays_its_moves():
    """Each rotation's moves replay from the deal to the reported winner (the deal of the item's stream)."""
    import numpy as np

    from solver.scale import item_rng
    game = MemorinthGame()
    result = contract.selfplay_game(game, ("greedy", "random"), item_rng(0, 0, "selfplay"))
    deal = game.deal(int(item_rng(0, 0, "selfplay").integers(2**63)))
    for played in result["games"]:
        state = deal.clone()
        for move in played["moves"]:
            state.apply_move(move)
        assert state.winner() == played["winner"]
    assert sum(result["outcomes"].values()) <= 1.0 and np.isfinite(list(result["outcomes"].values())).all()


def test_deck_command(capsys, tmp_path):
    code, out, _ = run(capsys, "memorinth", "deck")
    assert code == 0 and "NOT the printed cards" in out
    bad = tmp_path / "deck.json"
    bad.write_text('{"format": "memorinth-deck/1"}')
    code, out, err = run(capsys, "memorinth", "deck", str(bad))
    assert code == 1 and err.count("\n") == 1 and "FILE.name" in err


@pytest.mark.parametrize("args,code,needle", [
    (("memorinth", "hint", "{not json"), 1, "malformed JSON"),
    (("memorinth", "hint", "2p base SN | oops"), 1, "STATE: expected 5 sections"),
    (("memorinth", "play", "2p base SN | 7S,12M,20S,11M,9S/21M,1S,18M,19S,23M/4S,6M,CS,15M,10S/22M,8S,16M,24S,13M/"
                           "5S,2M,14S,17M,3S | c3,c3 | N=GH E=RX S=BT W=FP | r1 p0 flip", "flip c3"),
     1, "MOVE[0]"),
    (("memorinth", "hint", "x", "--top", "0"), 1, ""),
    (("memorinth", "generate", "--difficulty", "insane"), 2, "invalid choice"),
    (("memorinth", "new", "--players", "9"), 1, "players"),
    (("memorinth", "frobnicate"), 2, "invalid choice"),
])
def test_bad_input_is_one_line_and_non_zero(capsys, args, code, needle):
    got, out, err = run(capsys, *args)
    assert got == code and err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_demo(capsys):
    code, out, _ = run(capsys, "demo", "--game", "memorinth")
    assert code == 0
    for needle in ("INVENTED", "hint from the player's own information", "shortest escape", "puzzle",
                   "Master Memorinth", "Review of player 0", "reveal 7M", "left the forest"):
        assert needle in out


def test_the_demos_positions_are_the_deal_of_seed_3_and_the_game_the_hint_played():
    """The demo's literal positions and moves (commands.py) are what they say: the deal of seed 3, yellow's view,
    and the game yellow plays by the 400-playout hint against the greedy policy, as entered at the table."""
    from solver.memorinth import commands
    from solver.memorinth.knowledge import table_entries
    from solver.memorinth.selfplay import choose
    from solver.search import Limits, SearchContext
    game = MemorinthGame()
    state = game.deal(3)
    assert commands.DEAL == state.to_notation() and commands.YELLOW == state.view(0).to_notation()
    entries: list[str] = []
    turn = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            hint = contract.hint(game, state, SearchContext(limits=Limits(nodes=400)), top=1)
            action = state.parse_move(hint.best.move)
        else:
            action = choose(game, state, "greedy", 0, 3 * 1000 + turn)
        entries += table_entries(state, action, 0)
        state.apply_action(action)
        turn += 1
    assert tuple(entries) == commands.MOVES and state.winner() == 0


def test_show_a_finished_game_names_the_winner_and_nobody_to_move(capsys):
    """A finished game is drawn without 'yellow ... to over'."""
    state = MemorinthGame().deal(3)
    obj = state.to_json()
    obj.update(pieces=["out", "c3"], winner=0, phase="over")
    code, out, _ = run(capsys, "memorinth", "show", json.dumps(obj))
    assert code == 0 and "to over" not in out and "game over: yellow (player 0) left the forest" in out
    assert "round 1, start card sun\n" in out


def test_a_missing_state_file_is_named_as_such(capsys, tmp_path):
    """A mistyped file name is reported as a missing file, not as a malformed notation."""
    missing = str(tmp_path / "nosuch.json")
    code, _, err = run(capsys, "memorinth", "show", missing)
    assert code == 1 and "no such file" in err and "nosuch.json" in err
    code, _, err = run(capsys, "memorinth", "show", "2p base SN | x")
    assert code == 1 and "expected 5 sections" in err


def test_same_seed_same_output_for_generate_hint_and_new(capsys):
    """Determinism: generate, hint (node limit) and new print the same thing twice for one seed, and a different
    seed changes the deal."""
    def twice(*args):
        first = run(capsys, *args)
        second = run(capsys, *args)
        assert first[0] == 0 and first == second
        return first[1]

    twice("memorinth", "generate", "--count", "1", "--seed", "5", "--difficulty", "easy", "--variant", "master",
          "--json")
    notation = twice("memorinth", "new", "--seed", "8", "--players", "3").strip()
    assert notation != run(capsys, "memorinth", "new", "--seed", "9", "--players", "3")[1].strip()
    hinted = [json.loads(run(capsys, "memorinth", "hint", notation, "--nodes", "600", "--seed", "4", "--json",
                             "--top", "5")[1]) for _ in range(2)]
    for answer in hinted:
        answer["rootInfo"].pop("seconds")
    assert hinted[0] == hinted[1]
