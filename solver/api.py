"""The Python API: one call per engine action, returning typed results.

Each function builds the action's typed request and runs it through the service layer (``solver/service.py``),
which checks every value once; a position given as an object is used as it is, never re-read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from solver import service
from solver.game import Game, State, View
from solver.registry import load_game
from solver.results import HintResult, SolveResult
from solver.service import API, Run


def hint(game: str | Game, state: State | View | dict[str, Any] | str, top: int = 3, time_ms: int | None = None,
         nodes: int | None = None, player: int | None = None, full_information: bool = False,
         seed: int = 0, report: Callable[[HintResult], None] | None = None,
         report_every: float | None = None, **options: Any) -> HintResult:
    """Ranked advice for ``player`` (default: the player to move) in ``state``.

    ``state`` is a :class:`~solver.game.State` or :class:`~solver.game.View`,
    its JSON form (or JSON text) or its notation. The hint uses only what that
    player may see (a hint on a state is the hint on that player's view),
    unless ``full_information`` is set, in which case the result is labelled as
    a full-information analysis. With ``nodes`` and no ``time_ms`` the answer
    is the same on every machine.
    """
    g = load_game(game)
    request = service.hint_request(g, g.parse_position(state), top=top, player=player,
                                   full_information=full_information, time_ms=time_ms, nodes=nodes, seed=seed,
                                   options=options, names=API)
    return service.answer(request, service.context(request, report=report, report_every=report_every))


def solve(game: str | Game, problem: Any, time_ms: int | None = None, nodes: int | None = None,
          seed: int = 0, report: Callable[[SolveResult], None] | None = None,
          report_every: float | None = None) -> SolveResult:
    """Solve the game's optimisation problem (see ``docs/formats/<game>.md``)."""
    request = service.SolveRequest(game=load_game(game), problem=problem, limits=service.limits_of(time_ms, nodes, API),
                                   seed=service.check_seed(seed, API))
    return service.answer(request, service.context(request, report=report, report_every=report_every))


def score(game: str | Game, position: Any) -> dict[str, Any]:
    """Score a position (see ``docs/formats/<game>.md``)."""
    return service.answer(service.ScoreRequest(game=load_game(game), problem=position)).body


def legal_moves(game: str | Game, state: State | View | dict[str, Any] | str) -> list[str]:
    """The move strings of the player to act (on a view: everything that may be entered next)."""
    g = load_game(game)
    return service.answer(service.LegalMovesRequest(game=g, position=g.parse_position(state))).moves


def position(game: str | Game, payload: Any) -> State | View:
    """A state or a view from its JSON (or JSON text) or notation."""
    return load_game(game).parse_position(payload)


def new(game: str | Game, seed: int = 0, players: int | None = None, mode: str | None = None,
        player: int | None = None, table: bool = False) -> State | View:
    """A dealt game (``player``: that player's view of it), or with ``table`` a real table's start as ``player``."""
    request = service.new_request(load_game(game), seed=seed, player=player, table=table, players=players, mode=mode,
                                  names=API)
    return service.answer(request).position


def view(game: str | Game, state: Any, player: int) -> View:
    """What ``player`` knows in ``state``."""
    g = load_game(game)
    request = service.ViewRequest(game=g, position=g.parse_position(state),
                                  player=service.check_player(player, API, required=True))
    return service.answer(request).position


def apply(game: str | Game, state: Any, moves: list[str]) -> State | View:
    """``state`` (or a view) advanced by ``moves``: moves of every player and chance outcomes as move strings."""
    g = load_game(game)
    return service.answer(service.ApplyRequest(game=g, position=g.parse_position(state), moves=tuple(moves))).position


def svg(game: str | Game, state: Any, player: int | None = None, hint: Any = None, **options: Any) -> str:
    """A standalone SVG picture of ``state`` (only ``player``'s view when given; ``hint`` drawn on it)."""
    g = load_game(game)
    position = g.parse_position(state)
    if player is not None:
        position = position.view(player)
    request = service.ShowRequest(game=g, position=position, hint=hint, form="svg", options=options)
    return service.answer(request).svg


def generate(game: str | Game, kind: str | None = None, difficulty: str = "medium", seed: int = 0, start: int = 0,
             count: int = 1, jobs: int = 1, executor: str = "local", address: str | None = None,
             progress: bool = False) -> Iterator[dict[str, Any]]:
    """Puzzles ``start .. start+count-1`` of a seeded run, in index order (each regenerable from its id)."""
    g = load_game(game)
    kinds = service.puzzle_kinds(g)
    request = service.GenerateRequest(game=g, kind=kind or (kinds or ("",))[0], difficulty=difficulty, seed=seed,
                                      run=Run(start=start, count=count, jobs=jobs, executor=executor, address=address,
                                              progress=progress))
    return (found.puzzle for found in service.run(request, service.context(request)))


def selfplay(game: str | Game, policies: tuple[str, ...] | list[str] | None = None, seed: int = 0, start: int = 0,
             count: int = 1, jobs: int = 1, executor: str = "local", address: str | None = None,
             progress: bool = False, **options: Any) -> Iterator[dict[str, Any]]:
    """Self-play games ``start .. start+count-1`` of a seeded run, in index order; ``solver.selfplay.summarize``
    turns a list of them into win rates and paired differences with intervals."""
    request = service.selfplay_request(load_game(game), tuple(policies) if policies else None, seed=seed,
                                       run_=Run(start=start, count=count, jobs=jobs, executor=executor,
                                                address=address, progress=progress), options=options, names=API)
    return (found.body for found in service.run(request, service.context(request)))


def review(game: str | Game, record: Any, player: int | None = None, time_ms: int | None = None,
           nodes: int | None = None, seed: int = 0, mistakes: int = 3) -> dict[str, Any]:
    """Judge ``player``'s decisions in a game record (its object form or a :class:`solver.record.Record`)."""
    request = service.review_request(load_game(game), record, player=player, mistakes=mistakes, time_ms=time_ms,
                                     nodes=nodes, seed=seed, names=API)
    return service.answer(request).body
