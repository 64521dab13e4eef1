"""The table's plan where a session stands (``solve``), and where a session or a scene stands (``score``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.errors import InvalidInputError
from solver.mnemonic import advice
from solver.mnemonic.odds import group_odds, individual_odds
from solver.mnemonic.state import MnemonicState
from solver.mnemonic.view import MnemonicView
from solver.results import SolveResult
from solver.search import SearchContext
from solver.validate import as_object, check_keys, decode_json

if TYPE_CHECKING:
    from solver.mnemonic.game import MnemonicGame


def solve(game: MnemonicGame, payload: Any, ctx: SearchContext, **options: Any) -> SolveResult:
    """The table's plan: the best move where the state stands and its value (as the hint's, MN-33..MN-44).

    ``payload`` is a state (JSON or notation). With ``planner.continuation = none`` the result is optimal for
    the planning model within the reported horizon (status ``EXHAUSTIVE``); with the continuation estimate it
    is ``EXHAUSTIVE`` only when the search reached the end of the session, else ``ESTIMATE`` (no proven
    bound). ``exact`` gives the value as a fraction when the position is small enough for the exact twin.
    """
    for key, value in options.items():
        raise InvalidInputError(key, value, "not an option of a Mnemonic solve (it has none)")
    return advice.solve(game.parse_state(payload), ctx)


def score(game: MnemonicGame, payload: Any, **options: Any) -> dict[str, Any]:
    """Odds of a scene (``{"individual": n}`` or ``{"players": [...], "adversary": m}``), or where a session
    (a state or a view) stands: round, phase, tally, the Adversary's pool and whether it has had a Victory."""
    for key, value in options.items():
        raise InvalidInputError(key, value, "not an option of a Mnemonic score (it has none)")
    if isinstance(payload, str) and payload.lstrip().startswith("{"):
        payload = decode_json(payload, "state")
    if not (isinstance(payload, dict) and "mode" not in payload and "view" not in payload):
        return standing(game.parse_position(payload))  # type: ignore[arg-type]
    obj = as_object(payload, "state")
    check_keys(obj, ("individual", "players", "adversary"), "state")
    if "individual" in obj:
        if "players" in obj or "adversary" in obj:
            raise InvalidInputError("state.individual", obj["individual"], "give individual or players, not both")
        return individual_odds(obj["individual"], "state.individual").to_json()
    if "players" not in obj:
        raise InvalidInputError("state.players", problem="missing required field (or give individual)")
    return group_odds(obj["players"], obj.get("adversary", 0), game.rules["group.nobodyRolls"], "state.players",
                      "state.adversary").to_json()


def standing(position: MnemonicState | MnemonicView) -> dict[str, Any]:
    """Where a session stands (``score`` on a state or a view)."""
    known = position.known if isinstance(position, MnemonicView) else position
    out = {"round": known.round, "phase": known.phase,
           "tally": {"victories": known.tally.victories, "defeats": known.tally.defeats, "draws": known.tally.draws},
           "victory": known.tally.victories > 0, "adversaryPool": known.adversary_pool(), "over": known.is_terminal()}
    if known.is_terminal():
        out["returns"] = known.returns()
    return out
