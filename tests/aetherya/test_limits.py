"""Aetherya's searches keep the engine's guarantees (docs/engine.md, "Guarantees for always-on clients"): the
hint and the optimal-kingdom solve answer within their time limit, stop within 200 ms of ``terminate`` with
their best so far, and report during the search; an interim report never changes the final answer. A limit is a
limit (issue 23): every long action (hint, solve, generate, selfplay, review) stops at its time cap whatever node
budget it is given, and at ``terminate``; a limit that is not reached changes no output.

The bounds carry slack for a loaded 2-core machine (the figures are in docs/benchmarks.md, measured by
``benchmarks/bench_engine.py``). The hints' and self-play's caps are short (100 ms; terminates after 0.15-0.2 s):
their size is not what is checked (300 ms and 0.3-0.4 s before issue 24)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from solver import contract
from solver.aetherya import puzzles, selfplay
from solver.aetherya.commands import DEMO_RECORD
from solver.aetherya.playout import greedy_action, sample_chance
from solver.aetherya.solve import clear_cache, optimize_kingdom
from solver.fuzz import probe
from solver.record import record_from_json
from solver.registry import load_game
from solver.review import review
from solver.search import Limits, SearchContext, Stopped

pytestmark = pytest.mark.serial  # wall-clock caps: alone under pytest-xdist (tests/conftest.py)

SLACK_S = 1.0
#: the hardest hand we know for the compiled search (57 Portal layouts): about 0.7 s wall, 1.3 s CPU to prove
#: since issue 24's kernels (3 s before), so the terminate tests send theirs soon after the first report
HARD_HAND = {"cards": "FMHHHEEEDDDGRROO", "fixed": {"b2": "R"}}


@pytest.fixture(autouse=True)
def no_cached_proof():
    """A proof cached by an earlier test of the process would answer at once: nothing left to stop."""
    clear_cache()
    yield
    clear_cache()


def position(spec, seed=5, greedy_moves=8):
    """A decision of a seeded greedy game of ``spec``, ``greedy_moves`` decisions in."""
    game = load_game(spec)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    made = 0
    while True:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        elif made == greedy_moves:
            return game, state
        else:
            state.apply_action(greedy_action(state, rng))
            made += 1


def run_and_terminate(query, after_s=0.4):
    """Early finish, seconds from the terminate to the answer, the answer, its reports (terminated once the first
    report is out: on a loaded machine the search may start late)."""
    run = probe({"reportDuringSearchEvery": 0.1, **query}, terminate_after=after_s, wait_for_report=True)
    return run.finished_early, run.seconds, run.answer, run.interim


@pytest.mark.parametrize("spec", ["aetherya", "aetherya(mode=objects)", "aetherya(mode=coop,players=3)",
                                  "aetherya(mode=solo)"])
def test_a_hint_keeps_its_time_limit_and_stops_at_terminate_in_every_mode(spec):
    # solo: a decision whose screen fails (deal 4, three decisions in: a card to keep), so the search runs on and
    # reports; where the policy's move passes the screen a solo hint answers in a few tens of milliseconds
    game, state = position(spec, seed=4, greedy_moves=3) if "solo" in spec else position(spec)
    ctx = SearchContext(limits=Limits(time_ms=100))
    contract.hint(game, state, ctx)
    assert ctx.elapsed() < 0.2 + SLACK_S
    early, latency, final, interim = run_and_terminate({"game": game.spec(), "action": "hint",
                                                        "state": state.to_json(), "limits": {"time_ms": 30000}},
                                                       after_s=0.2)
    assert not early and final["terminated"] is True and final["moveInfos"], final
    assert latency < 0.2 + SLACK_S
    assert interim and all(r["moveInfos"] for r in interim)


def test_the_first_world_of_a_tiny_time_limit_is_cut_and_still_ranks_moves():
    """A 5 ms limit cannot finish one sampled world of the opening's 24 plans: the search stops inside it and
    keeps the values it has (better some moves ranked than none)."""
    game, state = position("aetherya", greedy_moves=0)
    ctx = SearchContext(limits=Limits(time_ms=5))
    result = contract.hint(game, state, ctx)
    assert ctx.elapsed() < 0.1 + SLACK_S
    assert result.move_infos and result.root_info["worlds"] <= 1


def test_interim_reports_do_not_change_the_final_answer_of_a_node_limited_hint():
    game, state = position("aetherya", greedy_moves=14)  # an end of turn with a Legend to claim
    plain = contract.hint(game, state, SearchContext(limits=Limits(nodes=600))).to_json()
    reports = []
    ctx = SearchContext(limits=Limits(nodes=600), report=reports.append, report_every=1e-9)
    reported = contract.hint(game, state, ctx).to_json()
    assert len(reports) >= 3
    for body in (plain, reported):
        body["rootInfo"].pop("seconds")
        for info in body["moveInfos"]:
            info.pop("seconds", None)
    assert reported == plain


def test_a_solve_stops_at_terminate_within_a_portal_layout_and_reports_the_kernels_best():
    early, latency, final, interim = run_and_terminate({"game": "aetherya", "action": "solve", "state": HARD_HAND,
                                                        "limits": {"time_ms": 30000}}, after_s=0.15)
    assert not early and final["terminated"] is True and final["status"] == "FEASIBLE", final
    assert latency < 0.2 + SLACK_S
    assert interim
    scores = {r["kingdom"]: r["value"] for r in interim + [final]}
    for kingdom, value in scores.items():   # every reported kingdom holds the hand and scores its value
        assert contract.score(load_game("aetherya"), kingdom)["total"] == value
        assert sorted(kingdom.replace("/", "")) == sorted(HARD_HAND["cards"]) and kingdom.replace("/", "")[5] == "R"
    assert all(r["bound"] >= r["value"] for r in interim)


def test_a_cp_sat_solve_stops_at_terminate():
    query = {"game": "aetherya", "action": "solve", "state": {**HARD_HAND, "prover": "cp-sat"},
             "limits": {"time_ms": 30000}}
    early, latency, final, interim = run_and_terminate(query, after_s=0.6)
    assert not early and final["terminated"] is True, final
    assert latency < 0.2 + SLACK_S
    assert interim


def test_a_node_limited_solve_stops_at_terminate_too():
    """No time limit (a node budget alone): terminate still reaches the compiled search."""
    early, latency, final, _ = run_and_terminate({"game": "aetherya", "action": "solve", "state": HARD_HAND,
                                                  "limits": {"nodes": 10**11}}, after_s=0.15)
    assert not early and final["terminated"] is True
    assert latency < 0.2 + SLACK_S


def test_optimize_keeps_its_time_limit():
    started = time.perf_counter()
    result = optimize_kingdom(HARD_HAND["cards"], fixed="b2=R", time_ms=300, use_cache=False)
    assert time.perf_counter() - started < 0.4 + SLACK_S
    assert not result.optimal and result.bound >= result.total


# ---------------------------------------------------------------------- a limit is a limit (issue 23)
#: a node budget no action could finish: only the time cap or a terminate ends it
HUGE_NODES = 10**11


def run_capped(action, seconds):
    """``action()`` on a thread: ``(result or the exception it raised, wall seconds)``; fails when it is still
    running ``seconds`` later (a search that ignores its cap would otherwise hang the suite)."""
    out = {}

    def target():
        started = time.perf_counter()
        try:
            out["result"] = action()
        except Exception as exc:  # noqa: BLE001 - handed to the test
            out["result"] = exc
        out["seconds"] = time.perf_counter() - started

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds:.1f} s"
    return out["result"], out["seconds"]


def terminated_after(ctx, seconds):
    """``ctx`` with its terminate (the cancel event) set ``seconds`` from now."""
    timer = threading.Timer(seconds, ctx.cancel.set)
    timer.daemon = True
    timer.start()
    return ctx


@pytest.mark.parametrize("spec", ["aetherya", "aetherya(mode=objects)", "aetherya(mode=coop,players=3)",
                                  "aetherya(mode=solo)"])
def test_a_hint_stops_at_its_time_limit_whatever_its_node_budget(spec):
    game, state = position(spec, seed=2, greedy_moves=0) if "solo" in spec else position(spec)
    ctx = SearchContext(limits=Limits(time_ms=100, nodes=HUGE_NODES))
    result, seconds = run_capped(lambda: contract.hint(game, state, ctx), 0.1 + 5 * SLACK_S)
    assert seconds < 0.1 + SLACK_S and result.move_infos


def test_a_hint_with_a_huge_node_budget_stops_at_terminate():
    game, state = position("aetherya")
    ctx = terminated_after(SearchContext(limits=Limits(nodes=HUGE_NODES)), 0.15)
    result, seconds = run_capped(lambda: contract.hint(game, state, ctx), 0.35 + 5 * SLACK_S)
    assert seconds < 0.15 + 0.2 + SLACK_S and result.move_infos


@pytest.mark.parametrize("prover", ["search", "cp-sat"])
def test_a_solve_stops_at_its_time_limit_whatever_its_node_budget(prover):
    game = load_game("aetherya")
    ctx = SearchContext(limits=Limits(time_ms=300, nodes=HUGE_NODES))
    result, seconds = run_capped(lambda: contract.solve(game, {**HARD_HAND, "prover": prover}, ctx),
                                 0.3 + 5 * SLACK_S)
    assert seconds < 0.3 + SLACK_S and result.status == "FEASIBLE" and result.bound >= result.value


def test_a_cp_sat_solve_with_only_a_node_budget_stops_at_terminate():
    """CP-SAT has no time limit of its own here: the watcher's stop reaches the solver under way."""
    game = load_game("aetherya")
    ctx = terminated_after(SearchContext(limits=Limits(nodes=HUGE_NODES)), 0.6)
    result, seconds = run_capped(lambda: contract.solve(game, {**HARD_HAND, "prover": "cp-sat"}, ctx),
                                 0.8 + 5 * SLACK_S)
    assert seconds < 0.6 + 0.2 + SLACK_S and not result.optimal


#: generation items that take much longer than the caps below (0.6 and 0.85 s of CPU on a 2-core machine)
SLOW_PUZZLES = [("best-kingdom", "easy", 2), ("legend-race", "hard", 1)]


@pytest.mark.parametrize("kind,difficulty,seed", SLOW_PUZZLES)
def test_generate_stops_at_its_time_limit_whatever_its_node_budget(kind, difficulty, seed):
    game = load_game("aetherya")
    ctx = SearchContext(limits=Limits(time_ms=50, nodes=HUGE_NODES))
    raised, seconds = run_capped(lambda: puzzles.generate(game, kind, difficulty, np.random.default_rng(seed), ctx),
                                 0.05 + 5 * SLACK_S)
    assert isinstance(raised, Stopped) and seconds < 0.05 + SLACK_S


@pytest.mark.parametrize("kind,difficulty,seed", SLOW_PUZZLES)
def test_generate_stops_at_terminate(kind, difficulty, seed):
    game = load_game("aetherya")
    ctx = terminated_after(SearchContext(limits=Limits(nodes=HUGE_NODES)), 0.05)
    raised, seconds = run_capped(lambda: puzzles.generate(game, kind, difficulty, np.random.default_rng(seed), ctx),
                                 0.25 + 5 * SLACK_S)
    assert isinstance(raised, Stopped) and seconds < 0.05 + 0.2 + SLACK_S


def test_a_limit_not_reached_changes_no_puzzle():
    game = load_game("aetherya")
    for kind, difficulty, seed in [("best-kingdom", "medium", 1), ("legend-race", "easy", 1)]:
        plain = puzzles.generate(game, kind, difficulty, np.random.default_rng(seed), SearchContext())
        capped = puzzles.generate(game, kind, difficulty, np.random.default_rng(seed),
                                  SearchContext(limits=Limits(time_ms=600_000, nodes=HUGE_NODES)))
        assert capped == plain


@pytest.mark.parametrize("spec", ["aetherya", "aetherya(mode=solo)"])
def test_selfplay_stops_at_its_time_limit_whatever_its_hint_budget(spec):
    game = load_game(spec)
    ctx = SearchContext(limits=Limits(time_ms=100, nodes=HUGE_NODES))
    raised, seconds = run_capped(lambda: selfplay.play(game, ("hint", "greedy"), np.random.default_rng(1), ctx,
                                                       hintNodes=10**7), 0.1 + 5 * SLACK_S)
    assert isinstance(raised, Stopped) and seconds < 0.1 + SLACK_S


def test_selfplay_stops_at_terminate():
    game = load_game("aetherya")
    ctx = terminated_after(SearchContext(), 0.15)
    raised, seconds = run_capped(lambda: selfplay.play(game, ("hint", "greedy"), np.random.default_rng(1), ctx,
                                                       hintNodes=10**7), 0.35 + 5 * SLACK_S)
    assert isinstance(raised, Stopped) and seconds < 0.15 + 0.2 + SLACK_S


def test_a_time_limit_not_reached_changes_no_selfplay_game():
    game = load_game("aetherya")
    plain = selfplay.play(game, ("hint", "greedy"), np.random.default_rng(3), SearchContext(), hintNodes=20)
    capped = selfplay.play(game, ("hint", "greedy"), np.random.default_rng(3),
                           SearchContext(limits=Limits(time_ms=600_000)), hintNodes=20)
    assert capped == plain


def test_a_review_stops_at_its_time_limit_whatever_its_node_budget():
    record = record_from_json(DEMO_RECORD)          # 11 decisions of seat 0
    game = load_game("aetherya")
    limits = Limits(time_ms=550, nodes=HUGE_NODES)      # the cap of the whole review (issue 23)
    result, seconds = run_capped(lambda: review(game, record, 0, limits), 0.55 + 5 * SLACK_S)
    assert seconds < 0.55 + 2 * SLACK_S and result["progress"]["total"] == 11
    assert len(result["decisions"]) == 11 or result.get("timedOut") is True


def test_a_review_with_a_huge_node_budget_stops_at_terminate():
    record = record_from_json(DEMO_RECORD)
    game = load_game("aetherya")
    cancel = threading.Event()
    threading.Timer(0.15, cancel.set).start()
    result, seconds = run_capped(lambda: review(game, record, 0, Limits(nodes=HUGE_NODES), cancel=cancel),
                                 0.35 + 5 * SLACK_S)
    assert result["terminated"] is True and seconds < 0.15 + 0.2 + SLACK_S
