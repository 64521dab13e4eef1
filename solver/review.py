"""Review a game record: every decision of one player judged from what that player knew at the time.

For each move the reviewed player made, the hint runs on that player's view
just before it (the same hint a player asking at the table would have got,
with the review's limits and seed) and the review reports the move played,
the hint's best move and the value lost (``best.value - played.value``, in the
game's value unit, ``rootInfo.valueMeaning``), with an interval where the
hint's values carry one (``valueCI``). The biggest mistakes come first.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from solver.errors import InvalidInputError
from solver.game import Game, State
from solver.record import Record
from solver.results import HintResult, MoveInfo
from solver.search import Limits, SearchContext
from solver import contract

#: every legal move is ranked so that the move played has a value
ALL_MOVES = 1000


def review(game: Game, record: Record, player: int | None, limits: Limits, seed: int = 0,
           mistakes: int = 3, turns: list[int] | None = None, cancel: threading.Event | None = None,
           report: Callable[[dict[str, Any]], None] | None = None, deadline: float | None = None) -> dict[str, Any]:
    """The review of ``player``'s decisions in ``record`` (``turns``: only these move indices).

    ``limits`` apply to each decision's hint. Setting ``cancel`` (the engine's ``terminate``) stops the
    decision being searched and the review, which then covers the decisions done so far and says
    ``"terminated": true``; reaching ``deadline`` (``time.perf_counter()``: a server's cap on the whole review)
    does the same and says ``"timedOut": true``. ``report`` receives the review so far after each decision.
    """
    positions = record.positions(game)
    played_game = positions[0].game
    if player is None:
        player = record.observer
        if player is None:
            raise InvalidInputError("player", problem="name the player to review (the record is of a full game)")
    if record.observer is not None and player != record.observer:
        raise InvalidInputError("player", player, f"the record holds only player {record.observer}'s view")
    decisions = []
    meaning = None
    cancel = cancel or threading.Event()
    for index, move in enumerate(record.moves):
        position = positions[index]
        if position.current_player() != player or (turns is not None and index not in turns):
            continue
        if cancel.is_set() or _passed(deadline):
            break
        view = position.view(player) if isinstance(position, State) else position
        result = contract.hint(played_game, view, SearchContext(limits=limits.until(deadline), seed=seed,
                                                                cancel=cancel), top=ALL_MOVES)
        if cancel.is_set() or _passed(deadline):
            break  # this decision's search was cut short: it is left out rather than judged on too little
        meaning = meaning or result.root_info.get("valueMeaning")
        decisions.append(judge(index, move.move, result))
        if report is not None:
            report(_summary(played_game, player, meaning, decisions, mistakes, limits, seed))
    out = _summary(played_game, player, meaning, decisions, mistakes, limits, seed)
    if cancel.is_set():
        out["terminated"] = True
    elif _passed(deadline):
        out["timedOut"] = True
    return out


def _passed(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() >= deadline



def _summary(game: Game, player: int, meaning: str | None, decisions: list[dict[str, Any]], mistakes: int,
             limits: Limits, seed: int) -> dict[str, Any]:
    ranked = sorted((d for d in decisions if d["valueLost"] is not None and d["valueLost"] > 0),
                    key=lambda d: (-d["valueLost"], d["turn"]))
    lost = [d["valueLost"] for d in decisions if d["valueLost"] is not None]
    return {"game": game.spec(), "player": player, "valueMeaning": meaning, "decisions": list(decisions),
            "mistakes": ranked[:mistakes], "totalValueLost": round(sum(lost), 6),
            "bestMoveRate": round(sum(d["playedBest"] for d in decisions) / len(decisions), 4)
            if decisions else None,
            "limits": {"time_ms": limits.time_ms, "nodes": limits.nodes}, "seed": seed}


def judge(turn: int, played: str, result: HintResult) -> dict[str, Any]:
    """One decision: the move played against the hint's best move."""
    best = result.best
    by_move = {info.move: info for info in result.move_infos}
    info = by_move.get(played)
    if info is None:  # move strings are matched exactly first, then ignoring case and spacing
        wanted = _canonical(played)
        info = next((m for m in result.move_infos if _canonical(m.move) == wanted), None)
    entry: dict[str, Any] = {"turn": turn, "played": played, "best": best.move if best else None,
                             "playedValue": None if info is None else info.value,
                             "bestValue": None if best is None else best.value,
                             "valueLost": None, "valueLostCI": None, "rank": None if info is None else info.order,
                             "why": best.why if best else "", "pv": list(best.pv) if best else [],
                             "playedBest": False}
    if best is None or info is None:
        entry["note"] = "the move played is not among the moves the hint ranked"
        return entry
    entry["played"] = info.move
    # a move the hint valued together with the best (e.g. Forgotten's ``sameValueAs``) is as good as the best
    entry["playedBest"] = info.move == best.move or info.move in (best.extra.get("sameValueAs") or ())
    lost = best.value - info.value
    entry["valueLost"] = round(lost, 6)
    entry["valueLostCI"] = _lost_interval(best, info, lost)
    return entry


def _lost_interval(best: MoveInfo, played: MoveInfo, lost: float) -> list[float] | None:
    """An approximate 95% interval of the value lost from the two moves' intervals (independent errors)."""
    if best.move == played.move:
        return [0.0, 0.0]
    halves = []
    for info in (best, played):
        ci = info.extra.get("valueCI")
        if not (isinstance(ci, (list, tuple)) and len(ci) == 2):
            return None
        halves.append((float(ci[1]) - float(ci[0])) / 2)
    half = math.sqrt(halves[0] ** 2 + halves[1] ** 2)
    return [round(lost - half, 6), round(lost + half, 6)]


def _canonical(move: str) -> str:
    return " ".join(move.lower().replace(",", " , ").split())


def render_review(result: dict[str, Any]) -> str:
    """The review as text for a person."""
    lines = [f"Review of player {result['player']} ({result['game']}): {len(result['decisions'])} decisions"]
    if result.get("valueMeaning"):
        lines.append(f"value = {result['valueMeaning']}")
    lines.append(f"{'turn':>5}  {'played':<24} {'best':<24} {'lost':>9}")
    for d in result["decisions"]:
        lost = "?" if d["valueLost"] is None else f"{d['valueLost']:.4g}"
        ci = d.get("valueLostCI")
        interval = f" [{ci[0]:.3g}, {ci[1]:.3g}]" if ci and d["played"] != d["best"] else ""
        lines.append(f"{d['turn']:>5}  {d['played']:<24} {d['best'] or '-':<24} {lost:>9}{interval}")
    if result["mistakes"]:
        lines.append("Biggest mistakes:")
        for n, d in enumerate(result["mistakes"], 1):
            lines.append(f"  {n}. move {d['turn']}: played {d['played']}, better {d['best']} "
                         f"(lost {d['valueLost']:.4g}): {d['why']}")
    else:
        lines.append("No mistakes: every move played was the hint's best or as good.")
    return "\n".join(lines) + "\n"
