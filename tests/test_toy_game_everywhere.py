"""A game is its folder plus one registry line: the toy game ``pile`` (tests/toygame/), registered by the
``pile_game`` fixture alone, gets every shared verb, its declared command and demo, the engine and the web API."""

from __future__ import annotations

import io
import json

import pytest

import httpx

from solver import cli, contract
from solver.engine import Engine

try:    # imported before the pile_game fixture registers the toy game, so that its GAME_NAMES are the five games
    import solver.openspiel as sos
except ImportError:
    sos = None


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


VERBS = [
    ("new", "--seed", "3"),
    ("show", "8:0"),
    ("show", "8:0", "--svg"),
    ("view", "8:0", "--player", "1"),
    ("apply", "8:0", "take1", "take2"),
    ("legal-moves", "8:0"),
    ("hint", "8:0", "--json"),
    ("solve", "8:0", "--json"),
    ("score", "8:0"),
    ("generate", "--kind", "win", "--count", "2", "--json"),
    ("selfplay", "--count", "3", "--summary"),
]


@pytest.mark.parametrize("argv", VERBS, ids=[" ".join(v) for v in VERBS])
def test_every_shared_verb_reaches_the_toy_game(pile_game, capsys, argv):
    status, out, err = run_cli(capsys, "pile", *argv)
    assert status == 0, err
    assert out.strip()


def test_check_and_review_reach_the_toy_game(pile_game, capsys, tmp_path):
    status, out, _ = run_cli(capsys, "pile", "generate", "--kind", "win", "--json")
    puzzle = json.loads(out.splitlines()[0])
    status, out, _ = run_cli(capsys, "pile", "check", json.dumps(puzzle), puzzle["solution"])
    assert status == 0 and out.startswith("correct")
    record = tmp_path / "game.jsonl"
    run_cli(capsys, "pile", "new", "--seed", "4", "--record", str(record))
    run_cli(capsys, "pile", "apply", str(record), "take2", "--record", str(record))
    status, out, err = run_cli(capsys, "pile", "review", str(record), "--player", "0", "--json")
    assert status == 0, err
    assert json.loads(out)["decisions"]


def test_a_declared_command_is_built_from_its_data(pile_game, capsys):
    status, out, _ = run_cli(capsys, "pile", "losing", "7")
    assert status == 0 and out == "piles up to 7 that lose for the player to move: [0, 3, 6]\n"
    status, out, _ = run_cli(capsys, "pile", "losing", "7", "--json")
    assert json.loads(out) == {"limit": 7, "losing": [0, 3, 6]}
    status, _, err = run_cli(capsys, "pile", "losing", "-4")
    assert status == 1 and "LIMIT" in err and "-4" in err


def test_the_demo_runs_the_declared_examples_in_order(pile_game, capsys):
    status, out, err = run_cli(capsys, "demo", "--game", "pile")
    assert status == 0, err
    assert "$ memory-solver pile new --seed 3" in out
    assert "$ memory-solver pile hint 8:0" in out       # {previous}: the dealt pile
    assert "take2" in out and "[0, 3, 6, 9, 12]" in out


def test_the_engine_serves_the_toy_game(pile_game):
    out = io.StringIO()
    engine = Engine(out, threads=1)
    for query in ({"id": 1, "game": "pile", "action": "hint", "state": "8:0"},
                  {"id": 2, "game": "pile", "action": "generate", "kind": "win", "seed": 1},
                  {"id": 3, "game": "pile", "action": "solve", "state": "7:1"}):
        engine.handle_line(json.dumps(query))
    engine.close()
    answers = {a["id"]: a for a in map(json.loads, out.getvalue().splitlines())}
    assert answers[1]["moveInfos"][0]["move"] == "take2"
    assert answers[2]["puzzle"]["kind"] == "win"
    assert answers[3]["optimal"] is True


def test_the_contract_finds_every_part_of_the_toy_game(pile_game):
    assert contract.puzzle_kinds(pile_game) == ("win",)
    assert contract.selfplay_policies(pile_game) == ("perfect", "random")
    assert [c.name for c in contract.commands(pile_game)] == ["losing"]
    assert contract.describe(pile_game, pile_game.parse_state("5:1")) == "5 counters, player 1 to take\n"


def test_the_web_api_serves_the_toy_game(live_server):
    """``/api/engine`` and ``/api/stream`` of the web board (in this process, so the fixture's registry line is
    the one it reads) on the toy game."""
    url, _ = live_server
    with httpx.Client(base_url=url, timeout=60) as client:
        def ask(query, path="/api/engine"):
            return client.post(path, json=query, headers={"X-Page-Id": "toy"})
        games = ask({"id": 0, "action": "games"}).json()["games"]
        assert "pile" in {g["name"] for g in games}
        new = ask({"id": 1, "game": "pile", "action": "new", "seed": 3}).json()
        assert new["legalMoves"] and new["notation"]
        applied = ask({"id": 2, "game": "pile", "action": "apply", "state": "8:0", "moves": ["take1"]}).json()
        assert applied["notation"] == "7:1"
        hint = ask({"id": 3, "game": "pile", "action": "hint", "state": "8:0", "limits": {"nodes": 20}}).json()
        assert hint["id"] == 3 and hint["moveInfos"][0]["move"] == "take2"
        shown = ask({"id": 4, "game": "pile", "action": "show", "state": "8:0", "hint": True,
                     "limits": {"nodes": 5}}).json()
        assert shown["svg"].startswith("<?xml") and shown["hint"]["moveInfos"]
        puzzle = ask({"id": 5, "game": "pile", "action": "generate", "kind": "win", "seed": 2}).json()["puzzle"]
        verdict = ask({"id": 6, "game": "pile", "action": "check", "puzzle": puzzle,
                       "answer": puzzle["solution"]}).json()
        assert verdict["correct"] is True
        refused = ask({"id": 7, "game": "pile", "action": "apply", "state": "8:0", "moves": ["take9"]})
        assert refused.status_code == 400 and refused.json()["field"] == "moves[0]"
        streamed = ask({"id": 8, "game": "pile", "action": "hint", "state": "8:0", "limits": {"nodes": 20}},
                       "/api/stream")
        events = [json.loads(line[6:]) for line in streamed.text.splitlines() if line.startswith("data: ")]
        assert events[-1]["id"] == 8 and events[-1]["isDuringSearch"] is False


def test_notebooks_draw_every_registered_game_by_its_picture_module(pile_game):
    from solver.registry import game_names, load_game
    for name in game_names():
        state = load_game(name).new_game(1)
        assert "<svg" in state._repr_svg_()[:200], name
    assert "<svg" in pile_game.parse_state("3:0")._repr_svg_()[:200]


def test_openspiel_loads_and_plays_the_toy_game(pile_game):
    """The toy game's ``openspiel.py`` is all OpenSpiel needs: registered by name, loaded by OpenSpiel's own loader,
    its own simulation checks pass, a deal through its chance nodes is ours, and the batched environment plays it."""
    if sos is None:
        pytest.skip("open-spiel is not installed (pip install 'memory-solver[openspiel]')")
    import numpy as np
    import pyspiel

    from solver.openspiel.adapter import register
    from solver.openspiel.batched import BatchedEnv
    register("pile")
    assert "memory_solver_pile" not in sos.GAME_NAMES     # registered here by name, not at import
    game = pyspiel.load_game("memory_solver_pile(max_moves=40)")
    assert game.num_distinct_actions() == 3 and game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    state = sos.deal(game, 7)
    assert sos.inner_state(state).to_notation() == pile_game.new_initial_state(7).to_notation() == "7:0"
    # pile / 10, to move (2), over, then the adapter's progress and observer (2)
    assert state.observation_tensor(1) == pytest.approx([0.7, 1, 0, 0, 0, 0, 1])
    for move in ("take2", "take2", "take2", "take1"):
        state.apply_action(sos.action_from_move(state, move))
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    env = BatchedEnv("pile", n=4, seed=1)
    finished, rng = 0, np.random.default_rng(0)
    for _ in range(20):
        rewards, done = env.step(env.random_actions(rng))
        finished += int(done.sum())
        assert (rewards[done].sum(axis=1) == 0).all() and (np.abs(rewards[done]) == 1).all()
    assert finished >= 4
