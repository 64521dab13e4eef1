"""A limit is a limit (issue 23, defects 1 and 2): every long action of every registered game (hint, solve,
generate, review, check) stops at its cap whatever node budget it names, and honours terminate within 200 ms,
through the engine (the front door every server shares).

For each game and action, one engine with two workers runs two queries at once: one with a node budget it could
never finish and ``limits.time_ms`` of 100 (the budget must not get around the time), one with the node budget
alone under the engine's cap (``--max-time-ms 100``: a node budget alone still runs under the server's cap).
Then a third query with the budget alone and a long cap is terminated after 0.2 s. (What is checked is that the
cap and the terminate are honoured, not their size: short ones keep the 56 cases quick, issue 24.) The bounds add
the slack of tests/test_engine_guarantees.py for a loaded 2-core machine; a review's time limit applies to each of its
decisions, so its first query may take one limit per decision.

A check re-proves the puzzle it is sent, and a puzzle sent to a server may be one no generator made: for each game
:func:`hostile_checks` holds the costliest legal puzzles we could construct (the biggest board, hand, row or
horizon the check accepts, the hardest kind), each of whose proofs outlasts the cap many times over (CPU seconds
uncapped in its comment, measured on this 2-core machine), so each must end with the time-limit error or
``terminated``: a check that does not poll the query's context fails both tests.
"""

import functools
import json
import time

import numpy as np
import pytest

from solver import contract
from solver.engine import Engine
from solver.registry import game_names, load_game
from solver.testing import TimedLines

from .test_engine_guarantees import HINT_PROBLEMS, SOLVE_PROBLEMS, decision, load_every_kernel

pytestmark = pytest.mark.serial  # wall-clock caps: alone under pytest-xdist (tests/conftest.py)

SLACK_S = 1.5
CAP_MS = 100
TERMINATE_S = 0.2
#: when the terminate is sent: every check of :func:`hostile_checks` outlasts it many times over
TERMINATE_AFTER_S = 0.2
HUGE = 10**12
ACTIONS = ("hint", "solve", "generate", "review", "check")
#: the Memorinth position of :func:`hostile_checks`: found by hill-climbing (swapping cards, turning them, moving
#: the piece and the round) for the most nodes of the check's proof: it uses the proof's whole budget (20 M nodes)
MEMORINTH_SLOW_ESCAPE = {
    "players": 1, "variant": "base", "actionSide": "shift", "seats": "S", "deck": "default",
    "board": ["8M 3M 6M 19M 7S", "21M 12S 11M 2S 24S", "22M 17S CS 23S 4M", "1M 5M 20S 16S 15S",
              "13M 9S 10M 18S 14S"],
    "seen": [["a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2", "a3", "b3", "c3", "d3", "e3", "a4", "b4",
              "c4", "d4", "e4", "a5", "b5", "c5", "d5", "e5"]],
    "pieces": ["c4"], "characters": {"N": "FH", "E": "PB", "S": "XT", "W": "RG"}, "round": 6, "toMove": 0,
    "startCard": "sun", "lastFlipped": None, "phase": "flip", "pending": None, "winner": None, "turns": 0,
    "ownTurns": [0]}
#: the view of a generated hard best-call puzzle (seed 0): its check asked for the widest horizon and budget
MNEMONIC_BEST_CALL = (
    "view:0 mnemonic deck-burner r7 table f0 a0 t0/5/0 last=defeat | discard JH@0,RJ@1,AC@0,JS@1,KS@0,TS@1,TC@0,"
    "AS@1,5S@0,7C@1,9C@0,AD@1,6H@0,5H@1,4D@0,QH@1,8S@0,5C@1,JC@0,KH@1,2D@0,9S@1,AH@0,BJ@1 | P Player_1 w0 b0 "
    "hand=- skills=Fight_With_Hands=H2c,Bargain=D2c,Endure=C2c,Sneak=S3i,Learned_Diamonds_1=D1c,Learned_Clubs_1=C1c"
    " | P Player_2 w0 b0 hand=- skills=Fight_With_Hands=H1c,Bargain=D2c,Endure=C1i,Sneak=S2c,Learned_Hearts_1=H1c")


@pytest.fixture(scope="module", autouse=True)
def kernels_loaded():
    """Every compiled kernel loaded before anything is timed (the first import in an editable install checks the
    build: not search time)."""
    load_every_kernel()


def record_of(name, seed=5, moves=12):
    """A record of a seeded random game, the player with the most decisions in it (moves with a choice), and the
    number of that player's moves, forced ones included: the decisions its review goes through (solver/review.py)."""
    game = load_game(name)
    rng = np.random.default_rng(seed)
    state = game.new_game(seed)
    start = state.to_json()
    played, counts, reviewed = [], {}, {}
    while len(played) < moves and not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance_outcome(rng)
        else:
            legal = state.legal_actions()
            action = int(legal[rng.integers(len(legal))])
            reviewed[state.current_player()] = reviewed.get(state.current_player(), 0) + 1
            if len(legal) > 1:
                counts[state.current_player()] = counts.get(state.current_player(), 0) + 1
        played.append({"move": state.action_to_string(action)})
        state.apply_action(action)
    player = max(counts, key=counts.get)
    return {"format": "memory-solver-record", "version": 1, "game": game.spec(), "start": start,
            "moves": played}, player, reviewed[player]


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


def hostile_checks(name):
    """The check queries (without id and limits) of the costliest legal puzzles of game ``name`` we could construct;
    each comment gives its proof's CPU time uncapped (a proof with a budget of its own ends there with an error)."""
    forgotten = load_game("forgotten(width=6,height=4,pairs=11)").new_game(1)
    checks = {
        "aetherya": [
            # 11 free cards (four pairs): 2,494,800 arrangements, just under the enumeration's limit: 1.2 s
            {"puzzle": {"kind": "best-kingdom", "cards": "PPFFMMSSHEDGRROO",
                        "fixed": {"a1": "R", "b1": "R", "c1": "O", "d1": "O", "a2": "G"}},
             "answer": "RROO/GPPF/FMMS/SHED"},
            # no fixed card: the optimiser's proof, the slowest hand of issue 24: 1.8 s then, 0.4 s since its kernels
            {"puzzle": {"kind": "best-kingdom", "cards": "PFMMHHHEEEDDDGOO"}, "answer": "PFMM/HHHE/EEDD/DGOO"},
            # every card face down, a long draw pile: the search to 4 turns, 2.9 M positions: 0.8 s
            {"puzzle": {"kind": "legend-race", "legend": "four-tribes", "kingdom": "pfms/hedg/rofm/sheg",
                        "discard": "GGRGSRO", "draw": "HEDGPFMSRO"}, "answer": "take, place a1"},
        ],
        # a row of 12 cards: the exhaustive proof meets its 200,000 plans: 15 s, then an error
        "embers": [{"puzzle": {"kind": "blink", "state": (
            "embers/one day=1 turn=fenrys phase=blink mind=G3@0,0;C5@1,1;F1b@2,2;D2a@2,0 "
            "row=C2b,G4,S4,F3,C1a,D1a,G1a,G1b,F1a,D1b,S1b,D3 demons=- discard=- box=- resolve=F2a,S1a,C3,C2a "
            "completed=0 added=0 pending=- result=-")}, "answer": "add C2b@0,1"}],
        # the best move of a fresh 6x4 board (an exact solve of the whole game): over 150 s (a forced connection's
        # AND-OR proof has a budget of its own, 200,000 nodes, and random positions end it in 0.04 s at most)
        "forgotten": [{"puzzle": {"kind": "best-move", "state": forgotten.to_json()},
                       "answer": forgotten.action_to_string(forgotten.legal_actions()[0])}],
        # the check's own budget (20 M nodes) used up: 3.9 s, then an error (no shortest escape proven)
        "memorinth": [{"puzzle": {"kind": "escape", "state": MEMORINTH_SLOW_ESCAPE}, "answer": "flip a1"}],
        # the widest horizon (4 rounds, 6 Group Scenes) and budget (10 M states) a puzzle may ask: 66 s
        "mnemonic": [{"puzzle": {"kind": "best-call", "position": MNEMONIC_BEST_CALL,
                                 "horizon": {"rounds": 4, "groupScenes": 6}, "nodes": 10_000_000},
                      "answer": "round"}],
    }
    assert name in checks, f"{name}: tests/test_engine_limits.py needs its costliest check"
    spec = {"forgotten": "forgotten(width=6,height=4,pairs=11)",
            "memorinth": "memorinth(players=1)"}.get(name, name)
    return [{"game": spec, "action": "check", **query} for query in checks[name]]


def queries(name, action):
    """The queries (without id and limits) that make ``action`` of game ``name`` work for a long time."""
    if action == "generate":
        return generations(name)
    if action == "check":
        return hostile_checks(name)
    return [problem(name, action)]


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
    """A final answer of a capped action: its best so far, or (an action without one: a generation, a check) the
    error naming its time limit; a check of :func:`hostile_checks` cannot end within the cap."""
    if "error" in answer or action == "check":
        assert action in ("generate", "check") and answer.get("field") == "limits.time_ms", answer
        assert "time limit ran out" in answer["error"]
    return answer


@pytest.mark.parametrize("name, action", cases())
def test_a_node_budget_never_gets_around_a_time_cap(name, action):
    for query in queries(name, action):
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
    for query in queries(name, action):
        answers = run([{**query, "id": "long", "limits": {"nodes": HUGE}}], cap_ms=60_000,
                      terminate_after=TERMINATE_AFTER_S)
        seconds, answer = answers["long"]
        if not answer.get("terminated"):
            assert seconds < 0, f"{query} answered {-seconds:.2f} s before the terminate: nothing to stop"
            continue
        assert seconds < TERMINATE_S + SLACK_S, (query, seconds)
        assert "error" not in answer, answer
        stopped += 1
    if not stopped:
        # the checks are built to outlast it
        assert action != "check", f"{name}: no costly check outlasted {TERMINATE_AFTER_S} s"
        pytest.skip(f"{name} {action} finished within {TERMINATE_AFTER_S} s")


def test_2_the_issues_generation_stops_at_the_cap_and_on_terminate():
    """The issue's query: a hard best-move puzzle on a 6x4 board ran 83.5 s past every cap and ignored terminate."""
    query = {"game": "forgotten(width=6,height=4,pairs=11)", "action": "generate", "kind": "best-move",
             "difficulty": "hard"}
    seconds, answer = run([{**query, "id": 1}], cap_ms=CAP_MS)[1]
    assert seconds < CAP_MS / 1000 + SLACK_S and answer.get("field") in ("limits.time_ms", "kind"), answer
    if answer["field"] == "kind":
        pytest.skip(f"the game refuses the request before generating: {answer['error']}")
    seconds, answer = run([{**query, "id": 1}], cap_ms=60_000, terminate_after=TERMINATE_AFTER_S)[1]
    assert seconds < TERMINATE_S + SLACK_S and answer["terminated"] and answer["noResults"], answer


@pytest.mark.parametrize("name", game_names())
def test_a_picture_with_a_hint_stops_at_the_cap_whatever_its_node_budget(name):
    """``show`` with ``hint: true`` runs the game's hint: the same cap as a hint, through its own action."""
    query = {**problem(name, "hint"), "action": "show", "hint": True, "svg": False}
    answers = run([{**query, "id": "capped", "limits": {"nodes": HUGE}},
                   {**query, "id": "timed", "limits": {"nodes": HUGE, "time_ms": CAP_MS}}], cap_ms=CAP_MS)
    for seconds, answer in answers.values():
        assert "error" not in answer and answer["hint"]["moveInfos"], answer
        assert seconds < CAP_MS / 1000 + SLACK_S, seconds
