"""solver/review.py (issue 22, section 1): a decision is a mistake only when the hint's first move is significantly
better than the move played (paired on common random numbers where the hint samples); grades by the game's
thresholds; never a negative loss; losses in the hint's units; the game's own turns; progress, partial answers and
the evaluation; the whole review under its time cap. The registry-wide tests run on every registered game."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from solver import contract
from solver.record import Record
from solver.registry import game_names, load_game
from solver.results import PROBABILITY, HintResult, MoveInfo
from solver.review import ALL_MOVES, grade, judge, render_review, review
from solver.search import Limits, SearchContext

GRADES = (5.0, 10.0, 15.0)
#: a small deterministic budget per decision (Aetherya's playouts are whole games: fewer)
BUDGET = {"aetherya": 36}
DEFAULT_BUDGET = 300
#: decisions of player 0 a registry-wide test plays and reviews
DECISIONS = 3


def sampled(value: float, loss: float, lo: float, hi: float, move: str = "b") -> MoveInfo:
    return MoveInfo(move, value, [move], "", extra={"valueCI": [value - 0.05, value + 0.05],
                                                    "lossToFirst": {"value": loss, "ci": [lo, hi], "samples": 400}})


def hint(*infos: MoveInfo, unit: str | None = PROBABILITY) -> HintResult:
    return HintResult("g", list(infos), {"valueUnit": unit} if unit else {})


FIRST = sampled(0.60, 0.0, 0.0, 0.0, "a")


# ---------------------------------------------------------------------------------------------- judging one decision
def test_a_move_inside_the_noise_is_as_good_as_the_best_and_never_a_mistake():
    d = judge(4, "b", hint(FIRST, sampled(0.55, 0.05, -0.01, 0.11)), GRADES)
    assert d["grade"] is None and d["asGoodAsBest"] and not d["significant"]
    assert (d["loss"], d["lossCI"]) == (5.0, [-1.0, 11.0])      # percentage points, as the hint shows percentages
    assert (d["index"], d["turn"]) == (4, 4)


@pytest.mark.parametrize("loss, expected", [(0.03, None), (0.07, "inaccuracy"), (0.12, "mistake"),
                                            (0.2, "blunder")])
def test_a_significant_loss_is_graded_by_the_games_thresholds(loss, expected):
    d = judge(0, "b", hint(FIRST, sampled(0.6 - loss, loss, loss - 0.02, loss + 0.02)), GRADES)
    assert d["significant"] and not d["asGoodAsBest"] and d["grade"] == expected
    assert d["loss"] == pytest.approx(100 * loss)


def test_a_loss_is_never_negative():
    above = judge(0, "b", hint(FIRST, sampled(0.64, -0.04, -0.09, 0.01)), GRADES)
    assert above["loss"] == 0.0 and above["valueLost"] == 0.0 and above["grade"] is None
    exact = judge(0, "b", hint(MoveInfo("a", 1.0, ["a"], ""), MoveInfo("b", 2.0, ["b"], ""), unit=None), GRADES)
    assert exact["loss"] == 0.0 and exact["lossCI"] == [0.0, 0.0] and not exact["significant"]


def test_exact_values_are_judged_exactly_and_a_game_without_thresholds_calls_any_loss_a_mistake():
    d = judge(0, "b", hint(MoveInfo("a", 1.0, ["a"], ""), MoveInfo("b", -1.0, ["b"], ""), unit=None), None)
    assert d["loss"] == 2.0 and d["lossCI"] == [2.0, 2.0] and d["grade"] == "mistake"
    assert grade(0.0, None) is None and grade(4.9, GRADES) is None and grade(15.0, GRADES) == "blunder"


def test_the_hints_own_move_loses_nothing():
    d = judge(0, "a", hint(FIRST, sampled(0.55, 0.05, 0.02, 0.08)), GRADES)
    assert d["playedBest"] and d["loss"] == 0.0 and d["grade"] is None and d["asGoodAsBest"]


# ---------------------------------------------------------------------------------------------- every game
def budget(name: str) -> Limits:
    return Limits(nodes=BUDGET.get(name, DEFAULT_BUDGET))


def table_hint(game, state, name: str) -> HintResult:
    """The hint player 0 asks at the table: the review's own hint (same limits, same seed, every move ranked)."""
    return contract.hint(game, state.view(0), SearchContext(limits=budget(name), seed=0), top=ALL_MOVES)


def seeded_game(name: str, choose) -> tuple[Record, list[int]]:
    """A seeded game in which player 0's first decisions are ``choose(hint)`` and everything else is random;
    returns its record and the indices of player 0's decisions."""
    game = load_game(name)
    state = game.new_game(7)
    start = state.clone()
    rng = np.random.default_rng(7)
    moves: list[str] = []
    decisions: list[int] = []
    while len(decisions) < DECISIONS and not state.is_terminal() and len(moves) < 300:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            action = int(rng.choice(actions, p=np.asarray(probs) / sum(probs)))
            text = state.action_to_string(action)
        elif state.current_player() == 0:
            text = choose(table_hint(game, state, name))
            decisions.append(len(moves))
        else:
            legal = state.legal_actions()
            text = state.action_to_string(int(legal[rng.integers(len(legal))]))
        moves.append(text)
        state.apply_move(text)
    return Record.start_of(start).extended(moves, stamp=False), decisions


def inside_the_noise(result: HintResult) -> str:
    """A move other than the first whose loss against it is within noise (else the first move)."""
    for info in result.move_infos[1:]:
        paired = info.extra.get("lossToFirst")
        if isinstance(paired, dict) and paired.get("ci") and paired["ci"][0] <= 0 <= paired["ci"][1]:
            return info.move
        if "valueCI" not in info.extra and "lossToFirst" not in info.extra and info.value >= result.best.value:
            return info.move            # exact values: a tie
    return result.best.move


@pytest.mark.parametrize("name", game_names())
def test_a_review_never_marks_the_hints_own_move_or_a_move_inside_the_noise(name):
    for choose in (lambda result: result.best.move, inside_the_noise):
        record, decisions = seeded_game(name, choose)
        assert decisions, f"{name}: player 0 never decided"
        result = review(load_game(name), record, 0, budget(name), turns=decisions)
        assert [d["index"] for d in result["decisions"]] == decisions
        for d in result["decisions"]:
            assert d["grade"] is None and d["asGoodAsBest"] and d["loss"] >= 0, d
            assert d["gameTurn"] and not d["gameTurn"].startswith("move ")      # the game's own turn
        assert result["mistakes"] == [] and result["progress"] == {"done": len(decisions), "total": len(decisions)}
        assert [e["index"] for e in result["evaluation"]] == decisions


# ---------------------------------------------------------------------------------------------- the whole review
@pytest.mark.serial  # a wall-clock cap
def test_a_review_reports_its_progress_and_shares_its_time_limit(pile_game):
    """The toy game's hint on a pile of 100 or more runs to its limits: three decisions under one 300 ms limit on
    the whole review (issue 22: a 10 s review took 100 s), each its share of the time left."""
    record = Record.start_of(pile_game.parse_state("300:0")).extended(["take1"] * 6, stamp=False)
    reports = []
    started = time.perf_counter()
    result = review(pile_game, record, 0, Limits(time_ms=300, nodes=10**9), report=reports.append)
    assert time.perf_counter() - started < 0.3 + 0.5
    assert [r["progress"] for r in reports] == [{"done": n, "total": 3} for n in (1, 2, 3)]
    assert len(result["decisions"]) == 3 and "timedOut" not in result


@pytest.mark.serial  # a wall-clock cap
def test_a_review_stops_at_a_servers_cap_whatever_its_node_budget(pile_game):
    """A node budget alone runs each decision to its end, but a server's cap on the whole review (``deadline``)
    stops it: the decision it cut short is left out, the review says so."""
    record = Record.start_of(pile_game.parse_state("300:0")).extended(["take1"] * 6, stamp=False)
    started = time.perf_counter()
    result = review(pile_game, record, 0, Limits(nodes=10**9), deadline=started + 0.3)
    assert time.perf_counter() - started < 0.3 + 0.5
    assert result["progress"] == {"done": len(result["decisions"]), "total": 3} and len(result["decisions"]) < 3
    assert result["timedOut"] is True and "stopped: its time cap" in render_review(result)


def test_a_terminated_review_keeps_the_decisions_done(pile_game):
    record = Record.start_of(pile_game.parse_state("300:0")).extended(["take1"] * 6, stamp=False)
    cancel = threading.Event()
    threading.Timer(0.15, cancel.set).start()
    result = review(pile_game, record, 0, Limits(time_ms=5000), cancel=cancel)
    assert result["terminated"] is True and len(result["decisions"]) < 3


def test_the_text_names_the_turns_grades_and_units(pile_game):
    record = Record.start_of(pile_game.parse_state("7:0")).extended(["take2", "take1", "take1", "take2", "take1"])
    result = review(pile_game, record, 0, Limits(nodes=10))
    text = render_review(result)
    assert "Biggest mistakes" in text and "take2" in text and "move 1" in text      # the toy game names no turns
    assert result["mistakes"][0]["grade"] == "mistake"                        # it has no thresholds either


def test_the_engine_sends_the_review_so_far_with_its_progress(pile_game, engine_answers):
    record = Record.start_of(pile_game.parse_state("300:0")).extended(["take1"] * 6, stamp=False).to_json()
    answers = engine_answers({"id": "r", "game": "pile", "action": "review", "record": record, "player": 0,
                              "limits": {"time_ms": 300}, "reportDuringSearchEvery": 0.01})
    interim = [a for a in answers if a.get("id") == "r" and a.get("isDuringSearch")]
    final = [a for a in answers if a.get("id") == "r" and not a.get("isDuringSearch")]
    assert len(final) == 1 and final[0]["progress"]["total"] == 3
    assert interim and all(a["progress"]["done"] == len(a["decisions"]) for a in interim)
    assert [a["progress"]["done"] for a in interim] == sorted(a["progress"]["done"] for a in interim)
