"""Typed results returned by the Python API and serialised by the engine.

The JSON shapes follow KataGo's analysis engine: a hint has ranked
``moveInfos`` (``order`` 0 is best) and a ``rootInfo``; every result says
whether it is an interim report (``isDuringSearch``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TextIO


@dataclass
class MoveInfo:
    """One ranked candidate move.

    ``value`` is the game's figure of merit for the move, from the point of
    view of the player being advised (its meaning is stated in
    ``rootInfo["valueMeaning"]``: an expected final score, a win probability,
    ...). ``pv`` is the principal variation starting with ``move``; ``why`` a
    one-line human reason. ``extra`` holds game-specific figures (confidence
    intervals, expected turns, visits) and is merged into the JSON object.
    """

    move: str
    value: float
    pv: list[str]
    why: str
    order: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The engine's ``moveInfos`` entry."""
        out: dict[str, Any] = {"order": self.order, "move": self.move, "value": self.value,
                               "pv": list(self.pv), "why": self.why}
        out.update(self.extra)
        return out


@dataclass
class HintResult:
    """Ranked advice for the player to move (or for a named player)."""

    game: str
    move_infos: list[MoveInfo]
    root_info: dict[str, Any]
    is_during_search: bool = False

    def __post_init__(self) -> None:
        for rank, info in enumerate(self.move_infos):
            info.order = rank

    @property
    def best(self) -> MoveInfo | None:
        """The top-ranked move, or ``None`` when there is no legal move."""
        return self.move_infos[0] if self.move_infos else None

    def to_json(self) -> dict[str, Any]:
        """The engine's hint response body (without ``id``)."""
        return {"game": self.game, "isDuringSearch": self.is_during_search,
                "moveInfos": [m.to_json() for m in self.move_infos], "rootInfo": dict(self.root_info)}


@dataclass
class SolveResult:
    """An optimisation or exact-search result with its proof.

    ``optimal`` is true only when the search proved it (``status`` says how:
    ``"OPTIMAL"`` from CP-SAT, ``"EXHAUSTIVE"`` from a complete search).
    ``bound`` is the proven bound on the best achievable value (equal to
    ``value`` when optimal). ``solution`` holds the game-specific answer and is
    merged into the JSON object.
    """

    game: str
    value: float | None
    optimal: bool
    bound: float | None
    status: str
    seconds: float
    solution: dict[str, Any] = field(default_factory=dict)
    is_during_search: bool = False

    def to_json(self) -> dict[str, Any]:
        """The engine's solve response body (without ``id``)."""
        out: dict[str, Any] = {"game": self.game, "isDuringSearch": self.is_during_search}
        out.update(self.solution)
        out.update({"value": self.value, "optimal": self.optimal, "bound": self.bound,
                    "status": self.status, "seconds": round(self.seconds, 6)})
        return out


#: ``rootInfo["valueUnit"]`` of a hint whose values are probabilities (shown as percentages)
PROBABILITY = "probability"


def percent(p: float, digits: int = 1) -> str:
    """A probability as a percentage with ``digits`` decimals, never rounded to a certainty it is not: ``>99.9%``
    just below 1, ``<0.1%`` just above 0 (``100%`` and ``0%`` only for exactly 1 and 0)."""
    if p >= 1.0:
        return "100%"
    if p <= 0.0:
        return "0%"
    step = 10.0 ** -digits
    text = f"{100 * p:.{digits}f}"
    if float(text) >= 100.0:
        return f">{100 - step:.{digits}f}%"
    if float(text) <= 0.0:
        return f"<{step:.{digits}f}%"
    return text + "%"


def value_text(value: float, unit: str | None) -> str:
    """A hint's value as shown: a percentage for a probability, else the number (4 significant digits)."""
    return percent(value) if unit == PROBABILITY else f"{value:.4g}"


def render_hint(result: HintResult, out: TextIO) -> None:
    """A readable table of a hint (probabilities as percentages)."""
    info = result.root_info
    label = "full-information analysis" if info.get("fullInformation") else "hint from the player's own information"
    out.write(f"{result.game}: {label}\n")
    if "valueMeaning" in info:
        out.write(f"value = {info['valueMeaning']}\n")
    unit = info.get("valueUnit")
    for move in result.move_infos:
        pv = " ".join(move.pv[1:]) if len(move.pv) > 1 else ""
        extra = f"   then {pv}" if pv else ""
        ci = move.extra.get("valueCI")
        interval = (f" [{value_text(ci[0], unit)}, {value_text(ci[1], unit)}]"
                    if isinstance(ci, (list, tuple)) and len(ci) == 2 else "")
        out.write(f"{move.order + 1:>3}. {move.move:<28} {value_text(move.value, unit):>9}{interval}   {move.why}"
                  f"{extra}\n")
    if not result.move_infos:
        out.write("  no legal move\n")
