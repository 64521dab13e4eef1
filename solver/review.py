"""Review a game record: every decision of one player judged from what that player knew at the time.

For each move the reviewed player made, the hint runs on that player's view just before it (the same hint a
player asking at the table would have got, with the review's limits and seed, every legal move valued). A
decision is judged by the hint's first move's advantage over the move played:

* where the hint samples (common random numbers), the paired difference on the worlds both moves were played in
  (the hint's ``lossToFirst``), with its 95% interval; where its values are exact, the difference itself;
* the loss is never negative: a move the hint values above its first move (within noise) lost nothing;
* a decision is a mistake only when the loss is significant (its interval excludes 0: a move inside the noise is
  "as good as the best", never a mistake), and it is graded like lichess by the game's thresholds
  (``REVIEW_GRADES`` in the game's ``hints.py``, in the units the hint shows): inaccuracy, mistake or blunder;
* losses are in the units the hint shows: percentage points where the hint's values are probabilities;
* a decision taken when no move can change the player's return any more (``contract.decided``: a cooperative
  session already won) is shown with its values but not graded: its loss is 0 and ``decided`` says why.

Each decision carries the game's own turn (``gameTurn``, from the game's ``text.turn_label``) beside its index in
the record, and the answer holds the whole-game evaluation (the value of the player's position after each
decision, for a graph). ``limits.time_ms`` caps the whole review (each decision's hint gets an equal share of what
is left), as does a server's cap; ``limits.nodes`` is each decision's budget. ``docs/records.md`` lists every key.
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
from solver.results import PROBABILITY, HintResult, MoveInfo, percent
from solver.search import Limits, SearchContext
from solver import contract

#: every legal move is ranked so that the move played has a value
ALL_MOVES = 1000
#: grades from the smallest loss up, as lichess names them
GRADES = ("inaccuracy", "mistake", "blunder")
#: exact values closer than this are equal
EXACT = 1e-9


def review(game: Game, record: Record, player: int | None, limits: Limits, seed: int = 0,
           mistakes: int = 3, turns: list[int] | None = None, cancel: threading.Event | None = None,
           report: Callable[[dict[str, Any]], None] | None = None, deadline: float | None = None) -> dict[str, Any]:
    """The review of ``player``'s decisions in ``record`` (``turns``: only these move indices).

    ``limits.time_ms`` caps the whole review: each decision's hint gets an equal share of the time left.
    ``limits.nodes`` is each decision's budget; with a node budget alone each decision runs to it (the same answer
    on every machine), and with no limit each decision gets the game's default time. ``deadline``
    (``time.perf_counter()``: a server's cap on the whole review) bounds all of it. A review that reaches its cap
    covers the decisions done so far and says ``"timedOut": true``; setting ``cancel`` (the engine's
    ``terminate``) stops the decision being searched and the review, which says ``"terminated": true``.
    ``report`` receives the review so far (with ``progress``) after each decision.
    """
    started = time.perf_counter()
    if limits.time_ms is not None:
        whole = started + limits.time_ms / 1000
        deadline = whole if deadline is None else min(deadline, whole)
    positions = record.positions(game)
    played_game = positions[0].game
    if player is None:
        player = record.observer
        if player is None:
            raise InvalidInputError("player", problem="name the player to review (the record is of a full game)")
    if record.observer is not None and player != record.observer:
        raise InvalidInputError("player", player, f"the record holds only player {record.observer}'s view")
    todo = [i for i in range(len(record.moves)) if positions[i].current_player() == player
            and (turns is None or i in turns)]
    grades = contract.review_grades(played_game)
    cancel = cancel or threading.Event()
    board = Board(played_game, player, grades, mistakes, limits, seed, len(todo))
    for done, index in enumerate(todo):
        if cancel.is_set() or _passed(deadline):
            break
        position = positions[index]
        view = position.view(player) if isinstance(position, State) else position
        each, cut = _decision_limits(played_game, limits, deadline, len(todo) - done)
        result = contract.hint(played_game, view, SearchContext(limits=each, seed=seed, cancel=cancel), top=ALL_MOVES)
        if cancel.is_set() or (cut and _passed(deadline)):
            break  # this decision's search was cut short: it is left out rather than judged on too little
        board.add(judge(index, record.moves[index].move, result, thresholds(grades, result),
                        contract.decided(played_game, view)), result, contract.turn_label(played_game, position))
        if report is not None:
            report(board.summary())
    out = board.summary()
    if cancel.is_set():
        out["terminated"] = True
    elif len(board.decisions) < len(todo):
        out["timedOut"] = True
    return out


def _decision_limits(game: Game, limits: Limits, deadline: float | None, left: int) -> tuple[Limits, bool]:
    """One decision's limits when ``left`` decisions remain, and whether the deadline cut them short: an equal share
    of the time to the deadline when the review has a time limit (a share is never cut short), else the node
    budget alone, else the game's default time, either under the deadline."""
    if limits.time_ms is not None and deadline is not None:
        share = max(1, int(1000 * (deadline - time.perf_counter()) / left))
        return Limits(time_ms=share, nodes=limits.nodes), False
    each = limits if limits.nodes is not None else Limits(time_ms=game.default_time_ms)
    capped = each.until(deadline)
    return capped, capped != each


def _passed(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() >= deadline


class Board:
    """The decisions judged so far, and the review's answer from them."""

    def __init__(self, game: Game, player: int, grades: Grades, mistakes: int,
                 limits: Limits, seed: int, total: int) -> None:
        self.game, self.player, self.grades, self.mistakes = game, player, grades, mistakes
        self.limits, self.seed, self.total = limits, seed, total
        self.decisions: list[dict[str, Any]] = []
        self.meaning: str | None = None
        self.units: list[str | None] = []

    def add(self, decision: dict[str, Any], result: HintResult, turn: str | None) -> None:
        self.meaning = self.meaning or result.root_info.get("valueMeaning")
        self.units.append(result.root_info.get("valueUnit"))
        decision["gameTurn"] = turn or f"move {decision['index'] + 1}"
        self.decisions.append(decision)

    @property
    def unit(self) -> str | None:
        """The value unit of every decision judged (``None`` when they differ: see each decision's ``lossUnit``)."""
        return self.units[0] if self.units and all(u == self.units[0] for u in self.units) else None

    def summary(self) -> dict[str, Any]:
        """The review so far (the final answer once every decision is in)."""
        graded = sorted((d for d in self.decisions if d["grade"]), key=lambda d: (-d["loss"], d["index"]))
        lost = [d["valueLost"] for d in self.decisions if d["valueLost"] is not None]
        same = bool(self.units) and all(u == self.units[0] for u in self.units)
        return {
            "game": self.game.spec(), "player": self.player, "valueMeaning": self.meaning,
            "valueUnit": self.unit, "lossUnit": loss_unit(self.unit) if same or not self.units else None,
            "gradeThresholds": _threshold_json(self.grades),
            "decisions": list(self.decisions),
            "mistakes": graded[:self.mistakes],
            "grades": {grade: sum(1 for d in self.decisions if d["grade"] == grade) for grade in GRADES},
            "evaluation": [{"index": d["index"], "gameTurn": d["gameTurn"], "unit": d["lossUnit"],
                            "value": _scaled(d["playedValue"], unit), "best": _scaled(d["bestValue"], unit)}
                           for d, unit in zip(self.decisions, self.units)],
            "totalValueLost": round(sum(lost), 6),
            "bestMoveRate": round(sum(d["playedBest"] for d in self.decisions) / len(self.decisions), 4)
            if self.decisions else None,
            "asGoodAsBestRate": round(sum(d["asGoodAsBest"] for d in self.decisions) / len(self.decisions), 4)
            if self.decisions else None,
            "progress": {"done": len(self.decisions), "total": self.total},
            "limits": {"time_ms": self.limits.time_ms, "nodes": self.limits.nodes}, "seed": self.seed,
        }


#: a game's review thresholds: one (inaccuracy, mistake, blunder) triple, or one per value unit (``valueUnit``)
Grades = tuple[float, float, float] | dict[str, tuple[float, float, float]] | None


def thresholds(grades: Grades, result: HintResult) -> tuple[float, float, float] | None:
    """The thresholds for one decision: the game's triple, or the one for the unit of this hint's values."""
    if isinstance(grades, dict):
        found = grades.get(result.root_info.get("valueUnit") or "")
        return None if found is None else tuple(found)
    return grades


def _threshold_json(grades: Grades) -> dict[str, Any] | None:
    if grades is None:
        return None
    if isinstance(grades, dict):
        return {unit: dict(zip(GRADES, triple)) for unit, triple in grades.items()}
    return dict(zip(GRADES, grades))


def _scaled(value: float | None, unit: str | None) -> float | None:
    """A value in the unit losses are given in (percent for a probability)."""
    return None if value is None else round(value * (100.0 if unit == PROBABILITY else 1.0), 6)


def loss_unit(unit: str | None) -> str:
    """The unit losses are given in: percentage points for probabilities, else the values' own unit."""
    return "percentage points" if unit == PROBABILITY else (unit or "")


def judge(index: int, played: str, result: HintResult,
          grades: tuple[float, float, float] | None = None, decided: str | None = None) -> dict[str, Any]:
    """One decision: the move played against the hint's first move (see the module docstring). ``decided`` (why
    no move could change the player's return any more, ``contract.decided``) leaves the decision ungraded: its
    values are shown, its loss is 0 and the entry says why (``decided``)."""
    best = result.best
    info = _find(result, played)
    unit = result.root_info.get("valueUnit")
    entry: dict[str, Any] = {"index": index, "turn": index, "played": played, "lossUnit": loss_unit(unit),
                             "best": best.move if best else None,
                             "playedValue": None if info is None else info.value,
                             "bestValue": None if best is None else best.value,
                             "valueLost": None, "valueLostCI": None, "loss": None, "lossCI": None,
                             "significant": False, "asGoodAsBest": False, "grade": None,
                             "rank": None if info is None else info.order,
                             "why": best.why if best else "", "pv": list(best.pv) if best else [],
                             "playedBest": False}
    if best is None or info is None:
        entry["note"] = "the move played is not among the moves the hint ranked"
        return entry
    entry["played"] = info.move
    # a move the hint valued together with the best (e.g. Forgotten's ``sameValueAs``) is as good as the best
    entry["playedBest"] = info.move == best.move or info.move in (best.extra.get("sameValueAs") or ())
    lost, interval, significant = _loss(best, info, entry["playedBest"] or decided is not None)
    if decided is not None:
        entry["decided"] = decided
    scale = 100.0 if unit == PROBABILITY else 1.0
    entry.update({"valueLost": round(lost, 6), "valueLostCI": _rounded(interval, 1.0),
                  "loss": round(lost * scale, 6), "lossCI": _rounded(interval, scale),
                  "significant": significant, "asGoodAsBest": not significant,
                  "grade": grade(lost * scale, grades) if significant else None})
    return entry


def _find(result: HintResult, played: str) -> MoveInfo | None:
    """The hint's entry for the move played: matched exactly first, then ignoring case and spacing."""
    by_move = {info.move: info for info in result.move_infos}
    if played in by_move:
        return by_move[played]
    wanted = _canonical(played)
    return next((m for m in result.move_infos if _canonical(m.move) == wanted), None)


def _loss(best: MoveInfo, played: MoveInfo, same: bool) -> tuple[float, list[float] | None, bool]:
    """(loss >= 0, its 95% interval or None, significant) of ``played`` against ``best``."""
    if same:
        return 0.0, [0.0, 0.0], False
    paired = played.extra.get("lossToFirst")
    if isinstance(paired, dict) and paired.get("ci") is not None and paired.get("value") is not None:
        lo, hi = (float(x) for x in paired["ci"])
        return max(0.0, float(paired["value"])), [lo, hi], lo > 0
    lost = best.value - played.value
    independent = _independent_interval(best, played, lost)
    if independent is not None:
        return max(0.0, lost), independent, independent[0] > 0
    if "valueCI" in best.extra or "valueCI" in played.extra:
        return max(0.0, lost), None, False      # sampled values without an interval: nothing is significant
    lost = max(0.0, lost)
    return lost, [lost, lost], lost > EXACT     # exact values


def _independent_interval(best: MoveInfo, played: MoveInfo, lost: float) -> list[float] | None:
    """An approximate 95% interval of the loss from the two moves' own intervals (errors taken as independent:
    for a hint that gives no paired comparison)."""
    halves = []
    for info in (best, played):
        ci = info.extra.get("valueCI")
        if not (isinstance(ci, (list, tuple)) and len(ci) == 2):
            return None
        halves.append((float(ci[1]) - float(ci[0])) / 2)
    half = math.sqrt(halves[0] ** 2 + halves[1] ** 2)
    return [lost - half, lost + half]


def grade(loss: float, grades: tuple[float, float, float] | None) -> str | None:
    """The grade of a significant ``loss`` (in the hint's display units): the largest threshold it reaches; any
    significant loss is a mistake for a game without thresholds; None below the inaccuracy threshold."""
    if grades is None:
        return "mistake" if loss > 0 else None
    reached = [name for name, least in zip(GRADES, grades) if loss >= least]
    return reached[-1] if reached else None


def _rounded(interval: list[float] | None, scale: float) -> list[float] | None:
    return None if interval is None else [round(interval[0] * scale, 6), round(interval[1] * scale, 6)]


def _canonical(move: str) -> str:
    return " ".join(move.lower().replace(",", " , ").split())


# ---------------------------------------------------------------------------------------------- text
def render_review(result: dict[str, Any]) -> str:
    """The review as text for a person: every decision with the game's turn, the grades, the mistakes."""
    unit = result.get("valueUnit")
    loss_words = result.get("lossUnit") or "the unit of each decision's value"
    lines = [f"Review of player {result['player']} ({result['game']}): {len(result['decisions'])} decisions"
             + _stopped(result)]
    if result.get("valueMeaning"):
        lines.append(f"value = {result['valueMeaning']}")
    lines.append(f"loss = how much the move played is behind the hint's first move ({loss_words}, paired on the "
                 "same sampled worlds where the hint samples); a loss within noise is as good as the best")
    width = max([len(d["gameTurn"]) for d in result["decisions"]] + [4])
    lines.append(f"{'turn':<{width}}  {'played':<22} {'best':<22} {'value':>7} {'loss':>7}  {'95% interval':<16} grade")
    for d in result["decisions"]:
        shown = PROBABILITY if d.get("lossUnit") == loss_unit(PROBABILITY) else unit
        value = "?" if d["playedValue"] is None else _value(d["playedValue"], shown)
        loss = "?" if d["loss"] is None else ("-" if d["playedBest"] else f"{d['loss']:.3g}")
        ci = d.get("lossCI")
        interval = f"{ci[0]:.3g} to {ci[1]:.3g}" if ci and not d["playedBest"] and not d.get("decided") else ""
        mark = d["grade"] or ("not graded" if d.get("decided") and not d["playedBest"] else
                              "as good as the best" if d["asGoodAsBest"] and not d["playedBest"] else "")
        lines.append(f"{d['gameTurn']:<{width}}  {d['played']:<22} {d['best'] or '-':<22} {value:>7} {loss:>7}  "
                     f"{interval:<16} {mark}".rstrip())
    for reason in dict.fromkeys(d["decided"] for d in result["decisions"] if d.get("decided")):
        turns = ", ".join(d["gameTurn"] for d in result["decisions"] if d.get("decided") == reason)
        lines.append(f"Not graded ({turns}): {reason}.")
    counts = result.get("grades") or {}
    if any(counts.values()):
        lines.append("Grades: " + ", ".join(f"{n} {name}{'s' if n != 1 else ''}" for name, n in counts.items() if n))
    if result["mistakes"]:
        lines.append("Biggest mistakes:")
        for n, d in enumerate(result["mistakes"], 1):
            lost = f"{d['loss']:.3g} {d['lossUnit']}".rstrip()
            interval = ("" if d["lossCI"][0] == d["lossCI"][1] else
                        f", 95% interval {d['lossCI'][0]:.3g} to {d['lossCI'][1]:.3g}")
            lines.append(f"  {n}. {d['gameTurn']}: played {d['played']}, better {d['best']} (lost {lost}{interval}: "
                         f"{d['grade']}): {d['why']}")
    else:
        lines.append("No mistakes: every move played was the hint's best or as good within noise.")
    return "\n".join(lines) + "\n"


def _value(value: float, unit: str | None) -> str:
    return percent(value) if unit == PROBABILITY else f"{value:.4g}"


def _stopped(result: dict[str, Any]) -> str:
    """How far a review stopped early got (its cap, or terminate)."""
    progress = result.get("progress") or {}
    why = "terminated" if result.get("terminated") else "its time cap" if result.get("timedOut") else None
    return f" of {progress['total']} (stopped: {why})" if why and progress else ""
