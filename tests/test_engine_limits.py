"""A limit is a limit (issue 23, defects 1 and 2): every long action of every registered game (hint, solve,
generate, review) stops at its cap whatever node budget it names, and honours terminate within 200 ms, through
the engine (the front door every server shares).

For each game and action, one engine with two workers runs two queries at once: one with a node budget it could
never finish and ``limits.time_ms`` of 300 (the budget must not get around the time), one with the node budget
alone under the engine's cap (``--max-time-ms 300``: a node budget alone still runs under the server's cap).
Then a third query with the budget alone and a long cap is terminated after 0.4 s. The bounds add the slack of
tests/test_engine_guarantees.py for a loaded 2-core machine; a review's time limit applies to each of its
decisions, so its first query may take one limit per decision.
"""

import functools
import importlib
import json
import pkgutil
import time

import numpy as np
import pytest

import solver.twins
from solver import contract
from solver.engine import Engine
from solver.registry import game_names, load_game
from solver.testing import TimedLines

from .test_engine_guarantees import HINT_PROBLEMS, SOLVE_PROBLEMS, decision

SLACK_S = 1.5
CAP_MS = 300
TERMINATE_S = 0.2
HUGE = 10**12
ACTIONS = ("hint", "solve", "generate", "review")


@pytest.fixture(scope="module", autouse=True)
def kernels_loaded():
    """Every compiled kernel loaded before anything is timed (the first import in an editable install checks the
    build: not search time)."""
    for module in pkgutil.iter_modules(solver.twins.__path__):
        importlib.import_module(f"solver.kernels.{module.name}")


def record_of(name, seed=5, moves=12):
    """A record of a seeded random game, and the player with the most decisions in it."""
    game = load_game(name)
    rng = np.random.default_rng(seed)
    state = game.new_game(seed)
    start = state.to_json()
    played, counts = [], {}
    while len(played) < moves and not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            action = int(rng.choice(actions, p=np.asarray(probs) / sum(probs)))
        else:
            legal = state.legal_actions()
            action = int(legal[rng.integers(len(legal))])
            if len(legal) > 1:
                counts[state.current_player()] = counts.get(state.current_player(), 0) + 1
        played.append({"move": state.action_to_string(action)})
        state.apply_action(action)
    player = max(counts, key=counts.get)
    return {"format": "memory-solver-record", "version": 1, "game": game.spec(), "start": start,
            "moves": played}, player, counts[player]


def problem(name, action):
    """The query (without id and limits) that makes ``action`` of game ``name`` work for a long time."""
    game, state = decision(name)
    if action == "hint":
        return {"game": game.spec(), "action": "hint", "state": HINT_PROBLEMS.get(name, state.to_json())}
    if action == "solve":
        assert name in SOLVE_PROBLEMS, f"{name}: tests/test_engine_guarantees.py needs a long solve problem"
        return {"game": game.spec(), "action": "solve", "state": SOLVE_PROBLEMS[name]}
    record, player, _ = record_of(name)
    return {"game": game.spec(), "action": "review", "record": record, "player": player}


@functools.cache
def generations(name):
    """A puzzle of each kind of game ``name``, on the board the kind needs, of the hardest difficulty the kind has
    (Memorinth's escape-in-K has one difficulty, K's grade)."""
    game = load_game(name)
    boards = contract.puzzle_games(game)
    out = []
    for kind in contract.puzzle_kinds(game):
        for difficulty in ("hard", "medium", "easy"):
            query = {"game": boards.get(kind, game.spec()), "action": "generate", "kind": kind,
                     "difficulty": difficulty, "seed": 3, "limits": {"nodes": 1}}
            answer = run([{**query, "id": "probe"}], cap_ms=CAP_MS)["probe"][1]
            if answer.get("field") != "difficulty":
                out.append({k: v for k, v in query.items() if k != "limits"})
                break
    return out


def cases():
    """Every (game, action) of the registry."""
    return [pytest.param(name, action, id=f"{action}-{name}") for name in game_names() for action in ACTIONS]


def run(queries, cap_ms, terminate_after=None):
    """The queries through one engine with two workers; (seconds from sending to the final answer, the answer)
    for each, by id."""
    out = TimedLines()
    engine = Engine(out, threads=2, max_time_ms=cap_ms)
    sent = {}
    for query in queries:
        sent[query["id"]] = time.perf_counter()
        engine.handle_line(json.dumps(query))
    if terminate_after is not None:
        time.sleep(terminate_after)
        for query in queries:
            sent[query["id"]] = time.perf_counter()
            engine.handle_line(json.dumps({"id": f"stop-{query['id']}", "action": "terminate",
                                           "terminateId": query["id"]}))
    engine.close()
    answers = {}
    for qid in sent:
        finals = [(t, r) for t, r in out.of(qid) if not r.get("isDuringSearch")]
        assert len(finals) == 1, (qid, finals)
        answers[qid] = (finals[0][0] - sent[qid], finals[0][1])
    return answers


def acceptable(answer, action):
    """A final answer of a capped action: its best so far, or (an action without one: a generation) the error
    naming its time limit."""
    if "error" in answer:
        assert action == "generate" and answer["field"] == "limits.time_ms", answer
        assert "time limit ran out" in answer["error"]
    return answer


@pytest.mark.parametrize("name, action", cases())
def test_a_node_budget_never_gets_around_a_time_cap(name, action):
    for query in generations(name) if action == "generate" else [problem(name, action)]:
        answers = run([{**query, "id": "timed", "limits": {"nodes": HUGE, "time_ms": CAP_MS}},
                       {**query, "id": "capped", "limits": {"nodes": HUGE}}], cap_ms=CAP_MS)
        decisions = record_of(name)[2] if action == "review" else 1
        seconds, answer = answers["timed"]
        acceptable(answer, action)
        assert seconds < decisions * CAP_MS / 1000 + SLACK_S, (query, seconds)
        seconds, answer = answers["capped"]
        acceptable(answer, action)
        assert seconds < CAP_MS / 1000 + SLACK_S, (query, seconds)
        if action == "review" and "timedOut" in answer:
            assert len(answer["decisions"]) < decisions


@pytest.mark.parametrize("name, action", cases())
def test_terminate_stops_every_long_action_promptly(name, action):
    stopped = 0
    for query in generations(name) if action == "generate" else [problem(name, action)]:
        answers = run([{**query, "id": "long", "limits": {"nodes": HUGE}}], cap_ms=60_000, terminate_after=0.4)
        seconds, answer = answers["long"]
        if not answer.get("terminated"):
            assert seconds < 0, f"{query} answered {-seconds:.2f} s before the terminate: nothing to stop"
            continue
        assert seconds < TERMINATE_S + SLACK_S, (query, seconds)
        assert "error" not in answer, answer
        stopped += 1
    if not stopped:
        pytest.skip(f"{name} {action} finished within 0.4 s")


def test_a_check_of_a_puzzle_whose_proof_never_ends_stops_at_the_cap_and_on_terminate():
    """A puzzle sent to a server may be one nobody could have made: Forgotten's best move on a fresh 6x4 board (an
    exact solve of the whole game) ran over 150 s past the cap and ignored terminate; its proof now polls the
    query's context (solver/forgotten/puzzles.py check(..., ctx))."""
    game = load_game("forgotten(width=6,height=4,pairs=11)")
    state = game.new_game(1)
    first = state.action_to_string(state.legal_actions()[0])
    for kind in ("best-move", "forced-connection"):
        query = {"game": game.spec(), "action": "check", "puzzle": {"kind": kind, "state": state.to_json(),
                                                                      "answer": {"turns": 3}}, "answer": first}
        seconds, answer = run([{**query, "id": "c"}], cap_ms=CAP_MS)["c"]
        assert seconds < CAP_MS / 1000 + SLACK_S, (kind, seconds)
        assert answer.get("field") in ("limits.time_ms", None) or "correct" in answer, answer
        seconds, answer = run([{**query, "id": "c"}], cap_ms=60_000, terminate_after=0.4)["c"]
        assert seconds < TERMINATE_S + SLACK_S and (answer.get("terminated") or "correct" in answer), (kind, answer)


def test_2_the_issues_generation_stops_at_the_cap_and_on_terminate():
    """The issue's query: a hard best-move puzzle on a 6x4 board ran 83.5 s past every cap and ignored terminate."""
    query = {"game": "forgotten(width=6,height=4,pairs=11)", "action": "generate", "kind": "best-move",
             "difficulty": "hard"}
    seconds, answer = run([{**query, "id": 1}], cap_ms=CAP_MS)[1]
    assert seconds < CAP_MS / 1000 + SLACK_S and answer.get("field") in ("limits.time_ms", "kind"), answer
    if answer["field"] == "kind":
        pytest.skip(f"the game refuses the request before generating: {answer['error']}")
    seconds, answer = run([{**query, "id": 1}], cap_ms=60_000, terminate_after=0.4)[1]
    assert seconds < TERMINATE_S + SLACK_S and answer["terminated"] and answer["noResults"], answer
