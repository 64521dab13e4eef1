"""Hints for Fenrys and Aelin, each from that player's own view (EM-80).

A hint on a state for player ``p`` is the hint on ``state.view(p)`` (the shared
template :func:`solver.contract.hint`). :func:`hint_view` reads only the view:
it draws a full state from it (``view.resample``) and the policies decide on
that player's re-sample of it, so no hint can depend on a card its player
cannot see. A hint never assumes the other player knows what it advised
(silence): the other player is only ever modelled through the table.

Every value is computed exactly from the view (the Blink plans by the compiled
search, the draw odds and Aelin's expected turns by enumeration), not sampled,
so a hint carries no sampling interval. ``limits.nodes`` caps the compiled plan
search (the plan, then the ranking of the other moves, never more than the
budget in all); a time limit is turned into a node budget at a fixed pace
(:data:`NODES_PER_SECOND`), so the same limits give the same hint on any
machine.
"""

from __future__ import annotations

import time
from typing import Any

from solver import seeded
from solver.lazynp import np

from solver.embers.policy import FenrysSettings, FullInformationPolicy, HintPolicy, Scored
from solver.embers.state import AELIN, FENRYS, EmbersState, as_state
from solver.embers.view import EmbersView
from solver.errors import InvalidInputError, UnsupportedActionError
from solver.game import Game, State
from solver.results import HintResult, MoveInfo
from solver.search import SearchContext, Watch

VALUE_MEANING = {
    "observe": "stop: the chance that a visible card completes Aelin's current row once the row's cards are added "
               "(her need as Fenrys infers it from the table); draw: that chance expected after one more card, "
               "minus the price of a card (0.1); higher is better",
    "blink": "points of the best Blink plan that starts with this move: -1000 for each demon left in the demon "
             "row, +150 for each tainted card a banish rescues, -150 for each card the Blink taints and leaves "
             "under a demon, +150 for each expected relive of a suit whose Resolve cards are face down, and 5 to "
             "80 for each visible card by how likely Aelin can use it; higher is better",
    "acknowledge": "minus the expected number of turns Aelin still needs to complete the day's strength rows "
                   "after this take; higher is better",
    "split": "minus the expected turns to finish Aelin's current row with the section kept, plus a little per card "
             "lost; higher is better",
    "reveal": "preference: turning a Resolve card face up only informs Fenrys",
    "arrange": "preference: the strongest Resolve cards in the first rows",
    "first": "prologue play score: relives first, then visible cards",
    "second": "prologue play score: relives first, then visible cards",
}
#: what a value is counted in, by phase (``rootInfo.valueUnit``; a review's losses are in it)
VALUE_UNIT = {"observe": "chance", "blink": "plan points", "acknowledge": "turns", "split": "turns",
              "reveal": "preference", "arrange": "preference", "first": "play score", "second": "play score"}
#: a review's grades (inaccuracy, mistake, blunder) by the unit of the decision's values: the least loss. A chance:
#: 5, 10, 15 points (as lichess's winning chances); a Blink plan: a visible card Aelin is less likely to use, about
#: half a tainted card, a tainted card or a relive; Aelin's expected turns: a quarter, half and a whole turn. The
#: preferences and play scores have no scale: any loss there is a mistake.
REVIEW_GRADES = {"chance": (0.05, 0.10, 0.15), "plan points": (20.0, 75.0, 150.0), "turns": (0.25, 0.5, 1.0)}
#: the compiled plan search's budget per second of a time limit: 1,000,000 nodes for the plan and 500,000 for
#: ranking the other moves at the default 1 s (EM-76); a fixed pace, so hints depend on their limits only
NODES_PER_SECOND = 1_500_000
#: seconds before the time limit at which a Blink hint's searches stop: kept for valuing the moves they did not
#: reach and for the answer, so that it comes within the engine's guarantee (10% or 100 ms past the limit)
RESERVE_SECONDS = 0.03
#: the plan search's budget when no limit is given at all (the default 1 s)
DEFAULT_NODES = NODES_PER_SECOND


def node_budget(ctx: SearchContext) -> int:
    """The compiled plan search's whole budget for one hint: ``limits.nodes``, a time limit's worth, or both's
    smaller."""
    budgets = []
    if ctx.limits.nodes is not None:
        budgets.append(int(ctx.limits.nodes))
    if ctx.limits.time_ms is not None:
        budgets.append(max(10_000, NODES_PER_SECOND * int(ctx.limits.time_ms) // 1000))
    return min(budgets) if budgets else DEFAULT_NODES


def hint_view(game: Game, view: EmbersView, ctx: SearchContext, *, top: int = 3, **options: Any) -> HintResult:
    """Ranked advice for the observer of ``view``, from that view alone."""
    table = view.table
    if view.is_terminal():
        raise UnsupportedActionError("state.result", table.result, "the game is over: there is nothing to advise")
    if view.is_chance_node():
        what = {"speak": "Aelin's announcement", "dayend": "the Resolve cards shown at Day's End",
                "flip": "the Resolve card the relive turns"}.get(table.phase, "a draw from the deck")
        raise UnsupportedActionError("state.phase", table.phase, f"the next entry is {what}: nobody decides it")
    mover = view.current_player()
    if mover != view.observer:
        raise InvalidInputError("player", view.observer, f"player {mover} ({table.role(mover)}) is the one to move; "
                                                         f"this is player {view.observer}'s view")
    rng = seeded.default_rng(ctx.seed)
    state = view.resample(rng)
    return _ranked(state, mover, ctx, top, HintPolicy, rng, full_information=False)


def hint_full(game: Game, position: State, ctx: SearchContext, *, top: int = 3, player: int | None = None,
              **options: Any) -> HintResult:
    """A full-information analysis: Fenrys is told Aelin's face-down Resolve cards."""
    state = as_state(position)
    if state.is_terminal():
        raise UnsupportedActionError("state.result", state.result, "the game is over: there is nothing to advise")
    if state.is_chance_node():
        raise UnsupportedActionError("state.phase", state.phase,
                                     "the next step is a draw from the deck: nobody decides it")
    mover = state.current_player()
    if player is not None and player != mover:
        raise InvalidInputError("player", player, f"player {mover} ({state.role(mover)}) is the one to move")
    if state.guessed:
        raise InvalidInputError("state.resolve", "?", "a full-information analysis needs Aelin's real Resolve "
                                                      "cards; this state gives them as '?'")
    return _ranked(state, mover, ctx, top, FullInformationPolicy, seeded.default_rng(ctx.seed),
                   full_information=True)


def _ranked(state: EmbersState, mover: int, ctx: SearchContext, top: int, policy_class: type,
            rng: np.random.Generator, full_information: bool) -> HintResult:
    start = time.perf_counter()
    budget = node_budget(ctx)
    settings = FenrysSettings(search_nodes=max(1, budget * 2 // 3))  # the plan; the ranking shares the rest
    policy = policy_class(settings)
    policy.total_nodes = budget
    so_far: list[list[Scored]] = []
    policy.on_progress = so_far.append if ctx.report is not None else None

    def interim() -> HintResult:
        return _result(state, mover, so_far[-1], top, full_information, ctx, start, budget, policy)

    remaining = ctx.remaining()
    deadline = None if remaining is None else time.perf_counter() + max(0.0, remaining - RESERVE_SECONDS)
    with Watch(ctx.cancel, deadline, report=lambda: so_far and ctx.maybe_report(interim)) as watch:
        policy.watch = watch
        ranked = policy.scores(state, rng)
    result = _result(state, mover, ranked, top, full_information, ctx, start, budget, policy)
    if watch.stopped_at is not None and state.phase == "blink":
        result.root_info["stoppedBy"] = "terminate" if watch.cancelled else "time"
    return result


def _result(state: EmbersState, mover: int, ranked: list[Scored], top: int, full_information: bool,
            ctx: SearchContext, start: float, budget: int, policy: Any) -> HintResult:
    infos = [_move_info(state, s) for s in ranked[:int(top)]]
    _mark_ties(infos)
    root: dict[str, Any] = {
        "player": mover, "role": state.role(mover), "phase": state.phase,
        "valueMeaning": VALUE_MEANING.get(state.phase, "policy score; higher is better"),
        "valueUnit": VALUE_UNIT.get(state.phase, "policy score"),
        "fullInformation": full_information, "seed": ctx.seed, "legalMoves": len(state.legal_actions()),
        "values": "exact (computed from the player's view, not sampled)",
        "timeMs": round(1000 * (time.perf_counter() - start), 1),
    }
    if state.phase == "blink":
        root["nodeBudget"] = budget
        root["nodes"] = getattr(policy, "nodes_used", 0)
    if not full_information:
        if mover == FENRYS and state.chapter == "one":
            root["hiddenFromPlayer"] = "Aelin's face-down Resolve cards and the deck's order"
        elif state.chapter == "prologue":
            root["hiddenFromPlayer"] = "the face-down Resolve cards and the deck's order"
        elif mover == AELIN:
            root["hiddenFromPlayer"] = "the deck's order"
    return HintResult(game=state.game.name, move_infos=infos, root_info=root)


def _move_info(state: EmbersState, scored: Scored) -> MoveInfo:
    text = state.action_to_string(scored.action)
    pv = [state.action_to_string(a) for a in scored.pv] if scored.pv else [text]
    return MoveInfo(move=text, value=round(float(scored.score), 3), pv=pv, why=scored.why,
                    extra=dict(scored.extra))


def _mark_ties(infos: list[MoveInfo]) -> None:
    """Where moves share a value, the reason says so (the order among them is the search's, not a preference)."""
    for i, info in enumerate(infos):
        same = [m.move for j, m in enumerate(infos) if j != i and m.value == info.value]
        if same:
            info.why += f" (as good as {', '.join(same[:2])}{' ...' if len(same) > 2 else ''})"
