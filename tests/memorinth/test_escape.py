"""Full-information shortest escape (MR-26): proven optimal, cross-checked by exhaustive breadth-first search."""

from __future__ import annotations

import json

import numpy as np
import pytest

import solver
from solver import contract
from solver.engine import Engine
from solver.errors import InvalidInputError
from solver.memorinth.solve import INF_BOUND, exhaustive_escape, shortest_escape
from solver.memorinth.game import MemorinthGame
from solver.search import Limits, SearchContext
from solver.testing import TimedLines


def random_position(game: MemorinthGame, seed: int, edge: bool = False) -> object:
    """A random reachable position; with ``edge`` the player to move is put on a random edge card."""
    state = game.deal(seed)
    rng = np.random.default_rng(seed)
    for _ in range(int(rng.integers(0, 25))):
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
        if state.is_terminal():
            state = game.deal(seed)
            break
    if edge:
        obj = state.to_json()
        obj["pieces"][obj["toMove"]] = ["a1", "c1", "e2", "e5", "b5", "a3"][seed % 6]
        state = game.state_from_json(obj)
    return state


@pytest.mark.parametrize("spec,depth,seeds,edge", [
    (dict(players=1), 3, range(8), False),
    (dict(players=2), 3, range(8), False),
    (dict(players=3), 3, range(4), False),
    (dict(variant="master"), 3, range(5), False),
    (dict(variant="master", action_side="special"), 1, range(12), True),
])
def test_ida_star_matches_exhaustive_search(spec, depth, seeds, edge):
    """MR-26: the proven shortest escape equals plain breadth-first search on shallow instances."""
    game = MemorinthGame(**spec)
    checked = 0
    for seed in seeds:
        state = random_position(game, seed, edge)
        player = state.current_player()
        truth = exhaustive_escape(state.vec, state.deck_table, player, depth)
        escape = shortest_escape(state, max_depth=depth, ctx=SearchContext())
        if truth is None:      # none within depth: proven never (NO_ESCAPE) or only not that short
            assert escape.lower_bound > depth
            assert escape.status == ("NO_ESCAPE" if escape.lower_bound >= INF_BOUND else "NONE_WITHIN_MAX_DEPTH")
        else:
            assert escape.status == "OPTIMAL" and escape.turns == truth
            assert len(escape.turn_moves) == truth
            checked += 1
    assert checked >= 1


def test_solution_replays_move_by_move():
    """The moves of a shortest escape are legal and end with the player out of the forest."""
    game = MemorinthGame(players=1)
    state = game.deal(5)
    escape = shortest_escape(state)
    assert escape.optimal and escape.turns == len(escape.turn_moves)
    for move in escape.moves:
        state.apply_move(move)
    assert state.winner() == 0


def test_no_escape_when_the_piece_can_never_leave(position, load):
    """MR-19 / MR-26: a piece on a dead end facing a card with no path back can never leave."""
    state = load(position({"b4": "14S", "b3": "5S"}, pieces=["b4", "c3"]))
    escape = shortest_escape(state, 0)
    assert escape.status == "NO_ESCAPE" and escape.turns is None and escape.lower_bound >= INF_BOUND
    assert escape.to_json()["lowerBound"] is None


def test_limits_give_the_best_known_escape_and_a_proven_lower_bound():
    """Anytime: stopped by a node limit, the answer is the greedy upper bound with IDA*'s proven lower bound."""
    game = MemorinthGame(variant="master", action_side="special")
    state = game.deal(2)
    full = shortest_escape(state, ctx=SearchContext())
    limited = shortest_escape(state, ctx=SearchContext(limits=Limits(nodes=50)))
    assert full.optimal
    assert limited.status == "LIMIT" and not limited.optimal
    assert limited.lower_bound <= full.turns <= (limited.turns or 99)


def test_solve_through_the_api_and_the_engine():
    """The engine's solve answers with the proof (status, bound) and the full-information label."""
    state = MemorinthGame().deal(3)
    result = solver.solve("memorinth", state.to_json())
    assert result.optimal and result.value == result.bound and result.status == "EXHAUSTIVE"
    body = result.to_json()
    assert body["fullInformation"] is True and body["turns"] == result.value and body["result"] == "OPTIMAL"
    wrapped = solver.solve("memorinth", {"state": state.to_notation(), "player": 1, "maxDepth": 10})
    assert wrapped.to_json()["player"] == 1
    out = TimedLines()
    engine = Engine(out)
    engine.serve([json.dumps({"id": 1, "game": "memorinth", "action": "solve", "state": state.to_json()}),
                  json.dumps({"id": 2, "game": "memorinth", "action": "solve",
                              "state": {"state": state.to_json(), "player": 7}})])
    answers = {a["id"]: a for a in out.answers()}
    assert answers[1]["optimal"] is True and answers[1]["isDuringSearch"] is False
    assert answers[2]["field"] == "state.player"


def test_solve_rejects_finished_games_and_players_mid_turn(position, load):
    state = load(position({"c1": "17S", "a1": "20S"}, pieces=["c1", "c3"],
                          characters={"N": "RG", "E": "HX", "S": "BT", "W": "FP"}))
    state.apply_move("flip a1")
    with pytest.raises(InvalidInputError, match="over"):
        shortest_escape(state)
    chooser = load(position({"c3": "CS", "c2": "9S", "d3": "11S", "a1": "19S"}))
    chooser.apply_move("flip a1")
    with pytest.raises(InvalidInputError, match="middle of a turn"):
        shortest_escape(chooser, 1)
    assert shortest_escape(chooser, 0).turns >= 1


def test_the_piece_may_come_back_over_its_own_card_after_flipping_it():
    """MR-26 regression: the bound must let the piece return through the card it stood on, once flipped.

    The piece on d1 sits on 9M (a dead end south): step south, flip d1 to 9S (north-south), step back, leave north.
    """
    text = ("1p base S | 11S+0,7M+0,6S+0,9M+0,18S+0/23M+0,8M+0,13M+0,10S+0,5S+0/21S+0,12M+0,CS+0,20M+0,2S+0/"
            "15M+0,22S+0,4M+0,14S+0,24M+0/1S+0,16M+0,3S+0,19M+0,17M+0 | d1 | N=RP E=HX S=FB W=GT | r6 p0 flip "
            "last=c5 turns=5:5")
    state = MemorinthGame(players=1).state_from_notation(text)
    escape = shortest_escape(state)
    assert escape.optimal and escape.turns == 3
    assert exhaustive_escape(state.vec, state.deck_table, 0, 3) == 3


def test_a_long_search_can_be_cancelled():
    """The engine's terminate reaches the compiled search (it polls a stop flag); the answer keeps its bound."""
    import threading
    import time

    from solver.kernels import memorinth as K
    game = MemorinthGame(variant="master", action_side="special")
    state = game.deal(30)                      # IDA* needs far more than a second here
    stopped = K.shortest_escape(state.vec, state.deck_table, 0, 8, 0, 0.0, np.zeros(24, np.int32),
                                np.ones(1, np.int32))
    assert stopped[0] == 2 and stopped[3] <= 2048
    search = SearchContext()
    timer = threading.Timer(0.2, search.cancel.set)
    timer.start()
    start = time.perf_counter()
    escape = shortest_escape(state, max_depth=8, ctx=search)
    assert time.perf_counter() - start < 3
    assert escape.status == "LIMIT" and escape.lower_bound >= 3 and escape.turns is not None


def test_a_stopped_search_whose_best_escape_meets_the_lower_bound_is_optimal():
    """MR-26: stopped by a node limit, an escape as short as the proven lower bound is proven shortest (it was
    reported as LIMIT although nothing was left to prove)."""
    state = MemorinthGame().deal(3)                  # the docs' example: 3 own turns, found by the greedy run
    limited = shortest_escape(state, ctx=SearchContext(limits=Limits(nodes=3)))
    full = shortest_escape(state, ctx=SearchContext())
    assert full.optimal and full.turns == 3
    assert limited.lower_bound == limited.turns == 3
    assert limited.status == "OPTIMAL" and limited.optimal
    answer = solver.solve("memorinth", state.to_notation(), nodes=3)
    assert answer.optimal and answer.status == "EXHAUSTIVE" and answer.value == answer.bound == 3


def test_solve_reports_its_best_so_far_and_stops_promptly_under_a_large_node_budget():
    """issue 11: a solve with a node budget too big to reach still honours terminate (the watcher runs whenever
    the search may be long), and sends interim answers: the greedy escape with the rising proven lower bound."""
    import threading
    import time

    game = MemorinthGame(variant="master", action_side="special")
    state = game.deal(30)                      # IDA* needs about 12 s to prove 5 own turns
    reports = []
    ctx = SearchContext(limits=Limits(nodes=10**12), report=reports.append, report_every=0.05)
    timer = threading.Timer(0.6, ctx.cancel.set)
    timer.start()
    start = time.perf_counter()
    result = contract.solve(game, state.to_notation(), ctx)
    stopped_after = time.perf_counter() - start
    timer.join()
    assert stopped_after < 0.6 + 1.5
    assert result.status == "LIMIT" and not result.optimal and not result.is_during_search
    assert len(reports) >= 3 and all(r.is_during_search for r in reports)
    bounds = [r.bound for r in reports]
    assert bounds == sorted(bounds) and bounds[-1] <= result.bound
    assert all(r.value == result.value and r.solution["turnMoves"] == result.solution["turnMoves"] for r in reports)
    nodes = [r.solution["nodes"] for r in reports]
    assert nodes == sorted(nodes) and 0 < nodes[-1] <= result.solution["nodes"]
    assert reports[-1].to_json()["isDuringSearch"] is True


def test_no_escape_within_max_depth_is_not_a_proof_of_impossibility():
    """Issue 16: the docs game (seed 3) escapes in 3 own turns; with maxDepth 2 the answer said NO_ESCAPE and
    EXHAUSTIVE although its own lowerBound was 3. NO_ESCAPE stays for a piece that can never leave."""
    from solver.memorinth.solve import escape_result
    game = MemorinthGame()
    state = game.deal(3)
    assert shortest_escape(state).turns == 3
    short = shortest_escape(state, max_depth=2)
    assert short.status == "NONE_WITHIN_MAX_DEPTH" and short.lower_bound == 3 and not short.optimal
    answer = escape_result(game.name, short).to_json()
    assert answer["result"] == "NONE_WITHIN_MAX_DEPTH" and answer["status"] == "LIMIT" and answer["limit"] == "maxDepth"
    assert answer["value"] is None and answer["bound"] == answer["lowerBound"] == 3
