"""The ``solve`` service: the optimal plan for Fenrys's Blink, with its proof (EM-70..EM-76)."""

from __future__ import annotations

from typing import Any

from solver.embers import plan as planlib
from solver.embers.policy import FullInformationPolicy
from solver.embers.state import FENRYS, EmbersState
from solver.errors import InvalidInputError, UnsupportedActionError
from solver.results import SolveResult
from solver.search import SearchContext

EXHAUSTIVE_LIMIT = 50_000_000  # nodes of the compiled search (about 15 s)


def solve_blink(state: EmbersState, ctx: SearchContext, method: str = "cpsat",
                full_information: bool = False) -> SolveResult:
    """The best Blink plan for a Chapter One position where Fenrys observes (he stops now) or blinks."""
    if state.chapter != "one" or state.is_terminal() or state.turn != FENRYS or \
            state.phase not in ("observe", "blink"):
        raise UnsupportedActionError("state.phase", state.phase,
                                     "solve plans Fenrys's Blink: give a Chapter One position in which Fenrys "
                                     "observes (the plan then starts by stopping) or blinks")
    if full_information and state.guessed:
        raise InvalidInputError("state.resolve", "?", "a full-information plan needs Aelin's real Resolve cards; "
                                                      "this state gives them as '?'")
    import numpy as np
    view = FullInformationPolicy().view(state, np.random.default_rng(ctx.seed)) if full_information else state
    problem = planlib.problem_from_state(view, player=FENRYS)
    remaining = ctx.remaining()
    if method == "exhaustive":
        result = _exhaustive(problem, ctx)
    else:
        result = planlib.solve_cpsat(problem, time_limit=60.0 if remaining is None else max(remaining, 0.05),
                                     seed=ctx.seed, cancel=ctx.cancel)
    moves = (["stop"] if state.phase == "observe" else []) + result.moves(state.deck)
    solution: dict[str, Any] = {
        "plan": moves if result.value is not None else [],
        "objective": result.outcome.to_json(state.deck) if result.outcome else None,
        "weights": vars(problem.weights),
        "method": method, "fullInformation": full_information,
        "row": [state.deck.cards[c].id for c in problem.row],
        "demonSuits": sorted(state.deck.cards[d].suit_name for d, _ in state.demons),
        "candidates": result.candidates, "cuts": result.cuts,
    }
    if result.value is None and result.status == "INFEASIBLE":
        solution["note"] = ("no plan keeps the Mind in one section (or no card can be added): Fenrys must still "
                            "add a card if he can, and Aelin then chooses a section")
    return SolveResult(game="embers", value=problem.points(result.value), optimal=result.optimal,
                       bound=problem.points(result.bound), status=result.status, seconds=result.seconds,
                       solution=solution)


def _exhaustive(problem: planlib.BlinkProblem, ctx: SearchContext) -> planlib.PlanResult:
    """Every plan, by the compiled branch-and-bound search (or the rules engine when the Mind is too wide for
    its board); ``INCOMPLETE`` when the node or time limit stops it first."""
    import time
    start = time.perf_counter()
    remaining = ctx.remaining()
    deadline = None if remaining is None else start + remaining
    max_nodes = ctx.limits.nodes or EXHAUSTIVE_LIMIT
    if planlib.searchable(problem):
        found = planlib.search_anytime(problem, max_nodes=max_nodes, deadline=deadline, cancel=ctx.cancel)
        value, adds, complete = found.value, found.adds, found.complete
    else:
        ex = planlib.exhaustive(problem, max_plans=max_nodes, deadline=deadline, cancel=ctx.cancel)
        value, adds, complete = ex.value, (ex.best[0] if ex.best else []), ex.complete
    seconds = time.perf_counter() - start
    if value is None:
        status = "INFEASIBLE" if complete else "INCOMPLETE"
        return planlib.PlanResult([], list(problem.row), None, None, status, False, seconds)
    used = {c for c, _, _ in adds}
    return planlib.PlanResult(adds, [c for c in problem.row if c not in used], value, value if complete else None,
                              "EXHAUSTIVE" if complete else "INCOMPLETE", complete, seconds,
                              planlib.evaluate(problem, adds))
