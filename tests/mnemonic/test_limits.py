"""A limit is a limit (issue 23, MN-46): every long Mnemonic action stops at its time cap whatever node budget it
is given, and honours ``terminate`` within 200 ms.

Each test gives a huge ``nodes`` (2**31 memoised states: minutes of search and gigabytes of memory if the budget
alone bounded it) with a short ``time_ms``, on a position whose full horizon is far beyond it. The action runs in
a worker thread; a worker still running at the bound is terminated (so a failure does not hang the suite) and the
test fails. Bounds are generous for a loaded 2-core machine; they catch a search that ignores its limit.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from solver import contract
from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.policies import rule_of_thumb
from solver.search import Limits, SearchContext, Stopped

pytestmark = pytest.mark.serial  # wall-clock caps: alone under pytest-xdist (tests/conftest.py)

HUGE = 2**31
TIME_MS = 100
SLACK = 1.5  # seconds on top of the limit
TERMINATE_WITHIN = 0.2 + SLACK  # the guarantee, plus the slack of a loaded machine
#: when a test terminates its action (0.4 s before issue 24: when is not what is checked; each runs for minutes)
CANCEL_AFTER_S = 0.2

#: 4 players, the first scene at a Joker: every other player may be asked for help (the full horizon takes minutes)
BIG_SCENE = ("mnemonic deck-burner r1 scene-skill f0 a0 t0/0/0 last=- | discard RJ@0 | scene card=RJ | "
             "P Player_1 w1 b0 hand=- skills=Fight_With_Hands=H3,Bargain=D1,Endure=C1,Sneak=S1 | "
             "P Player_2 w1 b0 hand=- skills=Fight_With_Hands=H1,Bargain=D3,Endure=C3,Sneak=S2 | "
             "P Player_3 w1 b0 hand=- skills=Fight_With_Hands=H1,Bargain=D1,Endure=C1,Sneak=S2 | "
             "P Player_4 w1 b0 hand=- skills=Fight_With_Hands=H3,Bargain=D3,Endure=C3,Sneak=S2")


def timed(action: Callable[[SearchContext], Any], ctx: SearchContext, bound: float,
          cancel_after: float | None = None) -> tuple[float, Any]:
    """Run ``action(ctx)`` in a worker: (seconds until it answered, its result or the exception it raised).

    With ``cancel_after`` the context is cancelled (the engine's ``terminate``) that many seconds in, and the
    seconds are counted from then. A worker still running ``bound`` seconds after the start (or the cancel) is
    cancelled and the test fails."""
    answer: dict[str, Any] = {}

    def work() -> None:
        try:
            answer["result"] = action(ctx)
        except Exception as exc:  # noqa: BLE001 - handed to the test
            answer["result"] = exc
        answer["at"] = time.perf_counter()

    worker = threading.Thread(target=work, daemon=True)
    start = time.perf_counter()
    worker.start()
    if cancel_after is not None:
        time.sleep(cancel_after)
        assert worker.is_alive(), "the action ended before the terminate: the test proves nothing"
        start = time.perf_counter()
        ctx.cancel.set()
    worker.join(bound)
    if worker.is_alive():
        ctx.cancel.set()
        worker.join(60)
        pytest.fail(f"still running {bound:.1f} s after {'the terminate' if cancel_after else 'the start'}")
    return answer["at"] - start, answer["result"]


def huge_budget(time_ms: int | None = TIME_MS) -> SearchContext:
    return SearchContext(limits=Limits(time_ms=time_ms, nodes=HUGE))


@pytest.fixture(scope="module")
def game() -> MnemonicGame:
    game = MnemonicGame(players=4)
    for verb in ("hint", "solve", "generate", "selfplay"):
        contract.prepare(game, verb)  # a first kernel import is not search time
    return game


def hint(game: MnemonicGame) -> Callable[[SearchContext], Any]:
    return lambda ctx: contract.hint(game, game.parse_position(BIG_SCENE), ctx)


def solve(game: MnemonicGame) -> Callable[[SearchContext], Any]:
    return lambda ctx: contract.solve(game, BIG_SCENE, ctx)


@pytest.mark.parametrize("action", [hint, solve], ids=["hint", "solve"])
def test_a_huge_node_budget_stops_at_the_time_limit(game, action):
    seconds, result = timed(action(game), huge_budget(), TIME_MS / 1000 + SLACK)
    assert not isinstance(result, Exception), result
    info = result.root_info if hasattr(result, "root_info") else result.solution
    assert info["stoppedBy"] == "time" and info["limits"] == {"time_ms": TIME_MS, "nodes": HUGE}
    assert seconds < TIME_MS / 1000 + SLACK


@pytest.mark.parametrize("action", [hint, solve], ids=["hint", "solve"])
def test_terminate_stops_a_huge_node_budget(game, action):
    seconds, result = timed(action(game), huge_budget(time_ms=None), TERMINATE_WITHIN, cancel_after=CANCEL_AFTER_S)
    assert not isinstance(result, Exception), result
    info = result.root_info if hasattr(result, "root_info") else result.solution
    assert info["stoppedBy"] == "terminate" and seconds < TERMINATE_WITHIN


def test_review_stops_every_hint_at_the_time_limit():
    """A review runs one hint per decision, the whole review under its time limit (two decisions of player 0 here,
    each with a huge node budget)."""
    from solver.record import Record
    from solver.review import review
    game = MnemonicGame(players=4)
    state = game.parse_state(BIG_SCENE)
    moves = ["pass", "no weave"]
    record = Record.start_of(state).extended(moves, stamp=False)
    limits = Limits(time_ms=TIME_MS, nodes=HUGE)
    seconds, result = timed(lambda ctx: review(game, record, player=0, limits=limits, cancel=ctx.cancel),
                            SearchContext(), TIME_MS / 1000 + SLACK)
    assert not isinstance(result, Exception), result
    assert result["decisions"] and seconds < TIME_MS / 1000 + SLACK


def generate(game: MnemonicGame) -> Callable[[SearchContext], Any]:
    """A hard best-call puzzle: seconds of proofs (300,000 states each) over many random sessions."""
    return lambda ctx: contract.generate_puzzle(game, "best-call", "hard", np.random.default_rng(1), ctx)


def planned_decision(game: MnemonicGame) -> Callable[[SearchContext], Any]:
    """One decision of a self-play policy with planned scenes (the part of a self-play game that searches), with a
    huge scene budget on the big scene."""
    state = game.parse_state(BIG_SCENE)
    return lambda ctx: rule_of_thumb(1, planned_scenes=True, scene_states=HUGE, scene_groups=2, ctx=ctx)(state, 1, 1)


@pytest.mark.parametrize("action", [generate, planned_decision], ids=["generate", "selfplay-decision"])
def test_a_long_action_stops_at_the_time_limit_with_no_answer(game, action):
    seconds, result = timed(action(game), huge_budget(), TIME_MS / 1000 + SLACK)
    assert isinstance(result, Stopped), result
    assert seconds < TIME_MS / 1000 + SLACK


@pytest.mark.parametrize("action", [generate, planned_decision], ids=["generate", "selfplay-decision"])
def test_terminate_stops_a_long_action(game, action):
    seconds, result = timed(action(game), huge_budget(time_ms=None), TERMINATE_WITHIN, cancel_after=CANCEL_AFTER_S)
    assert isinstance(result, Stopped), result
    assert seconds < TERMINATE_WITHIN


def selfplay(game: MnemonicGame) -> Callable[[SearchContext], Any]:
    """A self-play game of the default policies (an evening of up to six rounds)."""
    return lambda ctx: contract.selfplay_game(game, ("planner", "after-one-round"), np.random.default_rng(1), ctx,
                                              maxRounds=6)


def test_selfplay_stops_between_decisions():
    """A self-play game asks its context before every decision: past the time limit, or terminated, it stops
    (a whole game takes a fraction of a second here, so the context is spent before it starts)."""
    game = MnemonicGame(players=4)
    play = selfplay(game)
    spent = huge_budget(time_ms=1)
    time.sleep(0.01)
    terminated = huge_budget(time_ms=None)
    terminated.cancel.set()
    for ctx in (spent, terminated):
        with pytest.raises(Stopped):
            play(ctx)
    assert play(huge_budget(time_ms=None))["outcomes"]


@pytest.mark.parametrize("action", [generate, selfplay], ids=["generate", "selfplay"])
def test_a_time_limit_that_does_not_run_out_changes_nothing(action):
    """The context is polled, never consulted for the answer: with time to spare, the same puzzle or game."""
    game = MnemonicGame(players=2)
    quick = {generate: lambda ctx: contract.generate_puzzle(game, "best-call", "easy", np.random.default_rng(2), ctx),
             selfplay: lambda ctx: contract.selfplay_game(game, ("planner", "after-one-round"),
                                                          np.random.default_rng(2), ctx, maxRounds=1)}[action]
    assert quick(SearchContext(limits=Limits(time_ms=600_000, nodes=HUGE))) == quick(SearchContext())
