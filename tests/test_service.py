"""The service layer (solver/service.py, solver/protocol.py, solver/scheduler.py): one validation for every front
door, limits set in one place, positions not replayed when a query extends an earlier one, the scheduler."""

import importlib
import json
import os
import subprocess
import sys
import threading
import time

import pytest

from solver import api, cli, service
from solver.errors import IllegalMoveError, InvalidInputError
from solver.protocol import answer_query, read_query
from solver.registry import game_names
from solver.scheduler import Job, Scheduler
from solver.search import Limits, Stopped
from solver.validate import SEED, TOP


def engine_answer(query, positions=None):
    out = []
    checked = read_query(query["id"], query, query.get("action", "hint"))
    answer_query(checked, out.append, positions=positions or service.Positions())
    return out


# ---------------------------------------------------------------------- one validation
@pytest.mark.parametrize("value, ok", [(0, True), (2**63 - 1, True), (-1, False), (2**63, False)])
def test_every_front_door_takes_the_same_seeds(pile_game, capsys, value, ok):
    cli_status = cli.main(["pile", "hint", "8:0", "--nodes", "3", "--seed", str(value)])
    err = capsys.readouterr().err
    [engine] = engine_answer({"id": 1, "game": "pile", "state": "8:0", "limits": {"nodes": 3}, "seed": value}) \
        if ok else [None]
    if ok:
        assert cli_status == 0 and "error" not in engine
        assert api.hint("pile", "8:0", nodes=3, seed=value).best.move == "take2"
        return
    assert cli_status == 1 and err.startswith("memory-solver: error: --seed:")
    with pytest.raises(InvalidInputError) as raised:
        read_query(1, {"id": 1, "game": "pile", "state": "8:0", "seed": value}, "hint")
    assert raised.value.field == "seed"
    with pytest.raises(InvalidInputError) as raised:
        api.hint("pile", "8:0", nodes=3, seed=value)
    assert raised.value.field == "seed"
    assert SEED.lo <= 0 < SEED.hi == 2**63 - 1


@pytest.mark.parametrize("top", [0, TOP.hi + 1])
def test_top_is_bounded_alike_on_the_command_line_the_engine_and_the_api(pile_game, capsys, top):
    assert cli.main(["pile", "hint", "8:0", "--top", str(top)]) == 1
    assert "--top" in capsys.readouterr().err
    with pytest.raises(InvalidInputError, match="top"):
        api.hint("pile", "8:0", top=top)
    with pytest.raises(InvalidInputError, match="top"):
        read_query(1, {"id": 1, "game": "pile", "state": "8:0", "top": top}, "hint")


def test_limits_default_to_the_games_time_unless_a_node_budget_alone_is_given_and_caps_bound_them(pile_game):
    default = pile_game.default_time_ms
    assert service.limits_for(pile_game, Limits()) == Limits(time_ms=default)
    assert service.limits_for(pile_game, Limits(nodes=5)) == Limits(nodes=5)
    assert service.limits_for(pile_game, Limits(nodes=5, time_ms=7)) == Limits(time_ms=7, nodes=5)
    assert service.limits_for(pile_game, Limits(nodes=5), cap_ms=50) == Limits(time_ms=50, nodes=5)
    assert service.limits_for(pile_game, Limits(time_ms=10), cap_ms=50) == Limits(time_ms=10)


# ---------------------------------------------------------------------- positions
@pytest.fixture
def counted(pile_game, monkeypatch):
    """The toy game's moves applied, counted."""
    state_class = type(pile_game.parse_state("3:0"))
    calls = []
    original = state_class.apply_action

    def apply_action(self, action):
        calls.append(action)
        original(self, action)
    monkeypatch.setattr(state_class, "apply_action", apply_action)
    return calls


def test_a_query_that_extends_an_earlier_one_applies_only_the_new_moves(pile_game, counted):
    positions = service.Positions()
    moves = ["take1"] * 40
    first = engine_answer({"id": 1, "game": "pile", "action": "apply", "state": "300:0", "moves": moves}, positions)
    assert len(counted) == 40 and first[0]["notation"] == "260:0"
    counted.clear()
    again = engine_answer({"id": 2, "game": "pile", "action": "show", "state": "300:0", "moves": moves,
                           "svg": False}, positions)
    assert counted == [] and "260" in again[0]["text"]
    more = engine_answer({"id": 3, "game": "pile", "action": "apply", "state": "300:0", "moves": moves + ["take2"]},
                         positions)
    assert len(counted) == 1 and more[0]["notation"] == "258:1"


def test_an_illegal_move_after_a_remembered_prefix_is_named_as_in_a_replay_from_the_start(pile_game):
    positions = service.Positions()
    positions.after(pile_game, "5:0", ["take2"])
    with pytest.raises(IllegalMoveError) as cached:
        positions.after(pile_game, "5:0", ["take2", "take2", "take2"])
    with pytest.raises(IllegalMoveError) as fresh:
        service.Positions().after(pile_game, "5:0", ["take2", "take2", "take2"])
    assert cached.value.field == fresh.value.field == "moves[2]"
    assert str(cached.value) == str(fresh.value)


def test_remembered_positions_are_private_copies_and_bounded(pile_game):
    positions = service.Positions(size=3)
    handed = positions.after(pile_game, "9:0", ["take1"])
    handed.apply_move("take2")  # the caller's copy: the remembered one is untouched
    assert positions.after(pile_game, "9:0", ["take1"]).to_notation() == "8:1"
    for n in range(5):
        positions.after(pile_game, f"{20 + n}:0", [])
    assert len(positions._order) == 3
    assert positions.after(pile_game, {"pile": 9, "player": 0}, ["take1"]).to_notation() == "8:1"
    small = service.Positions(max_chars=10)
    small.after(pile_game, "9:0", ["take1"] * 3)
    assert len(small._order) == 0  # a query longer than max_chars is answered, not remembered


def test_a_position_object_is_used_as_it_is(pile_game, counted):
    state = pile_game.parse_state("6:0")
    assert api.apply("pile", state, ["take1"]).to_notation() == "5:1"
    assert state.to_notation() == "6:0" and len(counted) == 1


# ---------------------------------------------------------------------- answers and the scheduler
def test_every_final_answer_of_a_hint_with_turns_comes_from_one_place(pile_game):
    answers = engine_answer({"id": "t", "game": "pile", "state": "7:0", "moves": ["take1", "take2"],
                             "analyzeTurns": [0, 1, 2], "limits": {"nodes": 5}})
    assert [a["turnNumber"] for a in answers] == [0, 1, 2]
    assert all(a["id"] == "t" and a["action"] == "hint" and a["isDuringSearch"] is False for a in answers)
    checked = read_query("t", {"id": "t", "game": "pile", "state": "7:0", "moves": ["take1", "take2"],
                               "analyzeTurns": [0, 1, 2]}, "hint")
    assert checked.finals == 3


def test_the_scheduler_runs_by_priority_and_answers_a_job_terminated_in_the_queue():
    scheduler = Scheduler(threads=1)
    gate, order, cancelled = threading.Event(), [], []
    scheduler.submit(Job(gate.wait, key="busy"))
    for key, priority in (("low", -1), ("high", 5), ("gone", 9), ("mid", 0)):
        scheduler.submit(Job(lambda k=key: order.append(k), priority=priority, key=key,
                             on_cancel=lambda reason, k=key: cancelled.append(k)))
    assert scheduler.terminate(lambda job: job.key == "gone") == 1 and cancelled == ["gone"]
    assert {job.key for job in scheduler.active()} == {"busy", "low", "high", "mid"}
    gate.set()
    scheduler.close()
    assert order == ["high", "mid", "low"] and scheduler.active() == []


# ---------------------------------------------------------------------- start-up
def test_the_command_line_and_the_package_import_no_game_and_no_numpy(tmp_path):
    code = ("import sys, solver, solver.cli; solver.cli._build_parser([]); "
            "print(sorted(m for m in sys.modules if m.startswith(('numpy', 'solver.'))))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    loaded = json.loads(proc.stdout.replace("'", '"'))
    heavy = [m for m in loaded if m.startswith("numpy") or m in ("solver.game", "solver.contract", "solver.service")
             or any(m.startswith(f"solver.{game}") for game in game_names())]
    assert "solver.cli" in loaded and not heavy, heavy


def test_the_console_pins_blas_threads_unless_the_user_set_them(tmp_path):
    code = "import os, solver.cli; solver.cli.main = lambda: print(os.environ['OPENBLAS_NUM_THREADS']); " \
           "solver.cli.console()"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    pinned = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    chosen = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                            env={**env, "OPENBLAS_NUM_THREADS": "4"})
    assert pinned.stdout.strip() == "1" and chosen.stdout.strip() == "4"


def test_a_generation_stopped_by_its_limit_or_a_terminate_has_one_final_answer(pile_game, monkeypatch):
    """A game's generator raises Stopped when its context says so: the answer is a time-limit error, or the
    terminated answer when the query was terminated; a generation without a time limit is not cut by the game's
    default hint time."""
    module = importlib.import_module(type(pile_game).__module__.rpartition(".")[0] + ".puzzles")
    original = module.generate

    def slow(game, kind, difficulty, rng, ctx):
        while not ctx.should_stop():
            time.sleep(0.005)
            if ctx.elapsed() > 0.3 and ctx.limits.time_ms is None:
                return original(game, kind, difficulty, rng, ctx)
        raise Stopped
    monkeypatch.setattr(module, "generate", slow)
    [capped] = engine_answer({"id": "c", "game": "pile", "action": "generate", "limits": {"time_ms": 50}})
    assert capped["field"] == "limits.time_ms" and "time limit" in capped["error"]
    [free] = engine_answer({"id": "f", "game": "pile", "action": "generate"})
    assert free["puzzle"]["kind"] == "win"
    out, cancel = [], threading.Event()
    query = read_query("t", {"id": "t", "game": "pile", "action": "generate", "limits": {"time_ms": 60000}},
                       "generate")
    worker = threading.Thread(target=answer_query, args=(query, out.append, cancel))
    worker.start()
    time.sleep(0.1)
    cancel.set()
    worker.join(timeout=10)
    assert out == [{"id": "t", "action": "generate", "game": "pile", "isDuringSearch": False, "noResults": True,
                    "terminated": True}]
