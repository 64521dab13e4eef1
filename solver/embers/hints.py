"""Hints for Fenrys and Aelin, each from that player's own information (EM-80).

A hint ranks the moves of one player. Unless ``full_information`` is asked
for, it is computed on ``state.resample_from_observation(player, rng)``: the
hidden cards (Aelin's face-down Resolve for Fenrys; the deck's order for
everybody) are replaced by a random draw consistent with what that player sees,
so no hint can depend on a card its player cannot see. A hint also never
assumes the other player knows what it advised (silence): the other player is
only ever modelled through the table.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from solver.embers.policy import FenrysSettings, FullInformationPolicy, HintPolicy, Scored, node_budget
from solver.embers.state import AELIN, FENRYS, EmbersState
from solver.errors import InvalidInputError, UnsupportedActionError
from solver.results import HintResult, MoveInfo
from solver.search import SearchContext

VALUE_MEANING = {
    "observe": "stop: the chance that a visible card completes Aelin's current row once the row's cards are added "
               "(her need as Fenrys infers it, EM-24); draw: that chance expected after one more card, minus the "
               "price of a card (EM-81); higher is better",
    "blink": "value of the best Blink plan that starts with this move (objective EM-71); higher is better",
    "acknowledge": "minus the expected number of turns Aelin still needs to complete the day's strength rows "
                   "after this take (EM-84); higher is better",
    "split": "minus the expected turns to finish Aelin's current row with the section kept, plus a little per card "
             "lost (EM-85); higher is better",
    "reveal": "preference order (EM-86): turning a Resolve card face up only informs Fenrys",
    "arrange": "strongest Resolve cards in the first rows (EM-57, EM-34)",
    "first": "prologue play score: relives first, then visible cards",
    "second": "prologue play score: relives first, then visible cards",
}


def hint(state: EmbersState, ctx: SearchContext, top: int = 3, player: int | None = None,
         full_information: bool = False) -> HintResult:
    """Ranked advice for ``player`` (default: the player to move)."""
    start = time.perf_counter()
    if state.is_terminal():
        raise UnsupportedActionError("state.result", state.result, "the game is over: there is nothing to advise")
    if state.is_chance_node():
        raise UnsupportedActionError("state.phase", state.phase,
                                     "the next step is a draw from the deck: nobody decides it")
    mover = state.current_player()
    if player is not None and player != mover:
        raise InvalidInputError("player", player, f"player {mover} ({state.role(mover)}) is the one to move")
    if state.guessed and (mover == AELIN or full_information):
        raise InvalidInputError("state.resolve", "?", ("a full-information analysis" if full_information else
                                                       "Aelin's hint") + " needs Aelin's real Resolve cards; "
                                                      "this state gives them as '?'")
    remaining = ctx.remaining()
    budget = 0.5 if remaining is None else max(0.02, 0.5 * remaining)
    settings = FenrysSettings(search_nodes=node_budget(FenrysSettings(), budget))
    policy = FullInformationPolicy(settings) if full_information else HintPolicy(settings)
    rng = np.random.default_rng(ctx.seed)
    ranked = policy.scores(state, rng)
    infos = [_move_info(state, s) for s in ranked[:top]]
    root: dict[str, Any] = {
        "player": mover, "role": state.role(mover), "phase": state.phase,
        "valueMeaning": VALUE_MEANING.get(state.phase, "policy score; higher is better"),
        "fullInformation": full_information, "seed": ctx.seed, "legalMoves": len(state.legal_actions()),
        "timeMs": round(1000 * (time.perf_counter() - start), 1),
    }
    if mover == FENRYS and state.chapter == "one" and not full_information:
        root["hiddenFromPlayer"] = "Aelin's face-down Resolve cards and the deck's order"
    elif mover == AELIN and not full_information:
        root["hiddenFromPlayer"] = "the deck's order"
    return HintResult(game=state.game.name, move_infos=infos, root_info=root)


def _move_info(state: EmbersState, scored: Scored) -> MoveInfo:
    text = state.action_to_string(scored.action)
    pv = [_pv_text(state, a) for a in scored.pv] if scored.pv else [text]
    return MoveInfo(move=text, value=round(float(scored.score), 3), pv=pv, why=scored.why,
                    extra=dict(scored.extra))


def _pv_text(state: EmbersState, action: int) -> str:
    return state.action_to_string(action)
