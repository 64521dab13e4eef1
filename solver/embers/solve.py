"""The ``solve`` service: the optimal plan for Fenrys's Blink, with its proof (EM-70..EM-76); and ``score``.

Both methods are anytime (issue 11): a greedy plan is known at once, CP-SAT's better plans and the compiled
search's rounds replace it as they come, ``reportDuringSearchEvery`` sends the best so far, and ``terminate``
or the time limit stops the search within a few hundredths of a second with that plan, unproven (its
``solution.source`` says where it came from).
"""

from __future__ import annotations

import time
from typing import Any

from solver import seeded
from solver.embers import mind as mindlib
from solver.embers import plan as planlib
from solver.embers.cards import SUITS
from solver.embers.policy import FullInformationPolicy
from solver.embers.solve_cpsat import solve_cpsat
from solver.embers.state import FENRYS, TARGET, EmbersState, as_state
from solver.embers.view import EmbersView
from solver.errors import InvalidInputError, UnsupportedActionError
from solver.game import Game
from solver.results import SolveResult
from solver.search import SearchContext, Watch
from solver.validate import as_bool, as_choice, check_keys, get

SOLVE_KEYS = ("state", "method", "fullInformation")
METHODS = ("cpsat", "exhaustive")

EXHAUSTIVE_LIMIT = 50_000_000  # nodes of the compiled search (about 15 s)
#: nodes of the compiled search that give CP-SAT its starting plan (a few hundredths of a second; the best plan
#: so far if the time runs out while OR-Tools loads or the model is built)
INCUMBENT_NODES = 100_000
#: CP-SAT's time when the query gives no time limit (a node budget alone, or none at all)
CPSAT_DEFAULT_SECONDS = 60.0


def solve(game: Game, payload: Any, ctx: SearchContext, method: str | None = None,
          fullInformation: bool | None = None) -> SolveResult:  # noqa: N803 - the option's documented key
    """The optimal Blink plan: a state or Fenrys's view, or ``{"state": STATE, "method": "cpsat"|"exhaustive",
    "fullInformation": bool}`` (``docs/formats/embers.md``); ``method`` and ``fullInformation`` are also
    the verb's options."""
    chosen, full = "cpsat", False
    if isinstance(payload, dict) and "state" in payload and "view" not in payload:
        check_keys(payload, SOLVE_KEYS, "state")
        chosen = as_choice(payload.get("method", "cpsat"), "state.method", METHODS)
        full = as_bool(payload.get("fullInformation", False), "state.fullInformation")
        payload = get(payload, "state", "")
    chosen = chosen if method is None else as_choice(method, "method", METHODS)
    full = full if fullInformation is None else as_bool(fullInformation, "fullInformation")
    position = game.parse_position(payload)
    if isinstance(position, EmbersView):
        if full and position.masked():
            raise InvalidInputError("fullInformation", True, "a full-information plan needs Aelin's real "
                                                             "Resolve cards: give the full state, not Fenrys's view")
        position = position.resample(seeded.default_rng(ctx.seed))  # Fenrys's plan reads only his view
    return solve_blink(as_state(position), ctx, method=chosen, full_information=full)


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
    view = FullInformationPolicy().view(state, seeded.default_rng(ctx.seed)) if full_information else state
    problem = planlib.problem_from_state(view, player=FENRYS)
    best = _Best(state, problem, method, full_information)
    remaining = ctx.remaining()
    deadline = None if remaining is None else time.perf_counter() + remaining
    with Watch(ctx.cancel, deadline, report=lambda: ctx.maybe_report(best.interim)) as watch:
        source = method
        if method == "exhaustive":
            result = _exhaustive(problem, ctx, watch, best)
        else:
            _incumbent(problem, watch, best)
            limit = CPSAT_DEFAULT_SECONDS if remaining is None else max(remaining, 0.0)
            result = solve_cpsat(problem, time_limit=limit, seed=ctx.seed, watch=watch, on_plan=best.offer,
                                 incumbent=best.plan.adds if best.plan is not None else None)
            if result.status == "UNKNOWN" and not watch.stopped() and planlib.searchable(problem) \
                    and not problem.require_all:
                # CP-SAT's model would not be built in time: the compiled search has the rest of it
                result, source = _exhaustive(problem, ctx, watch, best, source="search"), "search"
    return best.final(result, source)


class _Best:
    """The best plan so far (the greedy plan first), for interim reports and for a search stopped early."""

    def __init__(self, state: EmbersState, problem: planlib.BlinkProblem, method: str, full_information: bool):
        self.state, self.problem, self.method, self.full_information = state, problem, method, full_information
        self.start = time.perf_counter()
        adds = planlib.greedy_plan(problem)
        outcome = planlib.evaluate(problem, adds) if (adds or not problem.must_add) else None
        used = {c for c, _, _ in adds}
        self.plan: planlib.PlanResult | None = None if outcome is None else planlib.PlanResult(
            adds, [c for c in problem.row if c not in used], outcome.value, None, "UNKNOWN", False, 0.0, outcome)
        self.source = "greedy"

    def offer(self, plan: planlib.PlanResult, source: str = "cpsat") -> None:
        """A plan found on the way; kept when it is better (one assignment: the watcher reads it)."""
        current = self.plan
        if plan.value is not None and (current is None or current.value is None or plan.value > current.value):
            self.plan, self.source = plan, source

    def interim(self) -> SolveResult:
        """The best plan so far as an interim answer (``status`` of the search under way, unproven)."""
        plan = self.plan
        status = "INCOMPLETE" if self.method == "exhaustive" else ("UNKNOWN" if self.source == "greedy"
                                                                     else "FEASIBLE")
        empty = planlib.PlanResult([], list(self.problem.row), None, None, status, False, 0.0)
        shown = empty if plan is None else planlib.PlanResult(plan.adds, plan.discards, plan.value, None, status,
                                                              False, 0.0, plan.outcome)
        return self._answer(shown, self.source if plan is not None else None, time.perf_counter() - self.start)

    def final(self, result: planlib.PlanResult, source: str) -> SolveResult:
        """The search's answer (its plan came from ``source``); when it stopped without a plan of its own, or
        with a worse one unproven, the best plan so far."""
        better = self.plan is not None and self.plan.value is not None and (
            result.value is None or (not result.optimal and self.plan.value > result.value))
        if better and result.status != "INFEASIBLE":
            kept = self.plan
            assert kept is not None
            result = planlib.PlanResult(kept.adds, kept.discards, kept.value, result.bound, result.status, False,
                                        result.seconds, kept.outcome, result.cuts, result.candidates,
                                        result.variables)
            source = self.source
        return self._answer(result, source if result.value is not None else None, time.perf_counter() - self.start)

    def _answer(self, result: planlib.PlanResult, source: str | None, seconds: float) -> SolveResult:
        state, problem = self.state, self.problem
        moves = (["stop"] if state.phase == "observe" else []) + result.moves(state.deck)
        solution: dict[str, Any] = {
            "plan": moves if result.value is not None else [],
            "objective": result.outcome.to_json(state.deck) if result.outcome else None,
            "weights": vars(problem.weights),
            "method": self.method, "fullInformation": self.full_information,
            "source": source,
            "row": [state.deck.cards[c].id for c in problem.row],
            "demonSuits": sorted(state.deck.cards[d].suit_name for d, _ in state.demons),
            "candidates": result.candidates, "cuts": result.cuts,
        }
        if result.value is None and result.status == "INFEASIBLE":
            solution["note"] = ("no plan keeps the Mind in one section (or no card can be added): Fenrys must "
                                "still add a card if he can, and Aelin then chooses a section")
        return SolveResult(game="embers", value=problem.points(result.value), optimal=result.optimal,
                           bound=problem.points(result.bound), status=result.status, seconds=round(seconds, 4),
                           solution=solution)


def _incumbent(problem: planlib.BlinkProblem, watch: Watch, best: _Best) -> None:
    """CP-SAT's starting plan: the better of the greedy plan and a short compiled search's best."""
    if not planlib.searchable(problem) or problem.require_all:
        return
    start = time.perf_counter()
    found = planlib.search(problem, max_nodes=INCUMBENT_NODES, control=watch.control)
    if found.found and found.value is not None:
        best.offer(_searched(problem, found.adds, found.value, None, "FEASIBLE", False, start), "search")


def _exhaustive(problem: planlib.BlinkProblem, ctx: SearchContext, watch: Watch, best: _Best,
                source: str = "exhaustive") -> planlib.PlanResult:
    """Every plan, by the compiled branch-and-bound search (or the rules engine when the Mind is too wide for
    its board); ``INCOMPLETE`` when the node limit, the time limit or ``terminate`` stops it first."""
    start = time.perf_counter()
    max_nodes = ctx.limits.nodes or EXHAUSTIVE_LIMIT

    def offer(found: planlib.SearchOutcome) -> None:
        if found.found:
            best.offer(_searched(problem, found.adds, found.value, None, "INCOMPLETE", False, start), source)

    if planlib.searchable(problem):
        found = planlib.search_anytime(problem, max_nodes=max_nodes, watch=watch, on_round=offer)
        value, adds, complete = found.value, found.adds, found.complete
    else:
        ex = planlib.exhaustive(problem, max_plans=max_nodes, deadline=watch.deadline, cancel=ctx.cancel)
        value, adds, complete = ex.value, (ex.best[0] if ex.best else []), ex.complete
    if value is None:
        status = "INFEASIBLE" if complete else "INCOMPLETE"
        return planlib.PlanResult([], list(problem.row), None, None, status, False, time.perf_counter() - start)
    return _searched(problem, adds, value, value if complete else None, "EXHAUSTIVE" if complete else "INCOMPLETE",
                     complete, start)


def _searched(problem: planlib.BlinkProblem, adds: list[planlib.Placement], value: int, bound: int | None,
              status: str, complete: bool, start: float) -> planlib.PlanResult:
    used = {c for c, _, _ in adds}
    return planlib.PlanResult(adds, [c for c in problem.row if c not in used], value, bound, status, complete,
                              time.perf_counter() - start, planlib.evaluate(problem, adds))


# ---------------------------------------------------------------------------------------------- score
def score(game: Game, payload: Any, **options: Any) -> dict[str, Any]:
    """Where a position stands: result, day, strength rows, the Mind, demons and the deck."""
    position = game.parse_position(payload)
    if isinstance(position, EmbersView):
        return position_summary(position.table, set(position.masked()), to_move=position.current_player())
    state = as_state(position)
    return position_summary(state, {i for i, r in enumerate(state.rows) if state.guessed and not r.face_up})


def position_summary(state: EmbersState, masked: set[int], to_move: int | None = None) -> dict[str, Any]:
    """The ``score`` answer: a readable account of a position (JSON). Resolve cards the position does not know
    (``masked``) stay unknown (``"?"``, row total ``null``)."""
    deck = state.deck
    rows = []
    for i, row in enumerate(state.rows):
        unknown = i in masked
        rows.append({"row": i + 1, "resolve": "?" if unknown else deck.cards[row.resolve].id,
                     "faceUp": row.face_up, "cards": [deck.cards[c].id for c in row.cards],
                     "total": None if unknown else state.row_total(row),
                     "complete": i < state.completed, "current": i == state.completed})
    parts = mindlib.sections(state.mind) if state.mind else []
    placeable: dict[str, list[str]] = {}
    memory_row = [c for c in state.row if not deck.cards[c].is_demon]
    for card, x, y in mindlib.legal_placements(deck, state.mind, memory_row) if state.mind else []:
        placeable.setdefault(deck.cards[card].id, []).append(f"{x},{y}")
    mover = state.current_player() if to_move is None else to_move
    return {
        "result": state.result, "returns": state.returns() if state.is_terminal() else None,
        "chapter": state.chapter, "part": state.part if state.chapter == "prologue" else None, "day": state.day,
        "phase": state.phase, "toMove": None if state.is_terminal() else
        ("chance" if mover < 0 else state.role(mover)),
        "rowsCompleted": state.completed, "rows": rows,
        "mind": {"cards": len(state.mind), "visible": [deck.cards[c].id for c in mindlib.visible_cards(state.mind)],
                 "sections": [[deck.cards[c].id for c in p] for p in parts], "split": len(parts) > 1,
                 "picture": mindlib.render(deck, state.mind)},
        "placements": placeable,
        "demons": [{"demon": deck.cards[d].id, "suit": SUITS[deck.cards[d].suit],
                    "tainted": [deck.cards[c].id for c in t]} for d, t in state.demons],
        "deckCount": len(state.pile), "discardCount": len(state.discard),
        "corrupted": [deck.cards[c].id for c in state.box],
        "target": TARGET,
    }
