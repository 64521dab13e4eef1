"""The Python API: one call per engine action, returning typed results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solver.game import Game, State
from solver.registry import load_game
from solver.results import HintResult, SolveResult
from solver.search import Limits, SearchContext
from solver.validate import as_int


def _context(game: Game, time_ms: int | None, nodes: int | None, seed: int,
             report: Callable[[Any], None] | None, report_every: float | None) -> SearchContext:
    limits = Limits(time_ms=None if time_ms is None else as_int(time_ms, "time_ms", 1),
                    nodes=None if nodes is None else as_int(nodes, "nodes", 1))
    limits = limits.with_defaults(game.default_time_ms)
    return SearchContext(limits=limits, report=report, report_every=report_every,
                         seed=as_int(seed, "seed", 0, 2**63 - 1))


def hint(game: str | Game, state: State | dict[str, Any] | str, top: int = 3, time_ms: int | None = None,
         nodes: int | None = None, player: int | None = None, full_information: bool = False,
         seed: int = 0, report: Callable[[HintResult], None] | None = None,
         report_every: float | None = None) -> HintResult:
    """Ranked advice for ``player`` (default: the player to move) in ``state``.

    ``state`` is a :class:`~solver.game.State`, its JSON form or its notation.
    The hint uses only what that player may see, unless ``full_information``
    is set, in which case the result is labelled as a full-information analysis.
    """
    g = load_game(game)
    ctx = _context(g, time_ms, nodes, seed, report, report_every)
    return g.hint(g.parse_state(state), ctx, top=as_int(top, "top", 1, 1000), player=player,
                  full_information=full_information)


def solve(game: str | Game, problem: Any, time_ms: int | None = None, nodes: int | None = None,
          seed: int = 0, report: Callable[[SolveResult], None] | None = None,
          report_every: float | None = None) -> SolveResult:
    """Solve the game's optimisation problem (see ``docs/formats/<game>.md``)."""
    g = load_game(game)
    return g.solve(problem, _context(g, time_ms, nodes, seed, report, report_every))


def score(game: str | Game, position: Any) -> dict[str, Any]:
    """Score a position (see ``docs/formats/<game>.md``)."""
    return load_game(game).score(position)


def legal_moves(game: str | Game, state: State | dict[str, Any] | str) -> list[str]:
    """The move strings of the player to act."""
    return load_game(game).legal_moves(state)
