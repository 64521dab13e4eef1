"""The Python API: one call per engine action, returning typed results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from collections.abc import Iterator

from solver.game import Game, State, View
from solver.registry import load_game
from solver.results import HintResult, SolveResult
from solver.search import Limits, SearchContext
from solver.validate import as_int
from solver import contract


def _context(game: Game, time_ms: int | None, nodes: int | None, seed: int,
             report: Callable[[Any], None] | None, report_every: float | None) -> SearchContext:
    limits = Limits(time_ms=None if time_ms is None else as_int(time_ms, "time_ms", 1),
                    nodes=None if nodes is None else as_int(nodes, "nodes", 1))
    from solver.commands import default_limits
    limits = default_limits(game, limits)
    return SearchContext(limits=limits, report=report, report_every=report_every,
                         seed=as_int(seed, "seed", 0, 2**63 - 1))


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
    ctx = _context(g, time_ms, nodes, seed, report, report_every)
    return contract.hint(g, g.parse_position(state), ctx, top=as_int(top, "top", 1, 1000), player=player,
                  full_information=full_information, **options)


def solve(game: str | Game, problem: Any, time_ms: int | None = None, nodes: int | None = None,
          seed: int = 0, report: Callable[[SolveResult], None] | None = None,
          report_every: float | None = None) -> SolveResult:
    """Solve the game's optimisation problem (see ``docs/formats/<game>.md``)."""
    g = load_game(game)
    return contract.solve(g, problem, _context(g, time_ms, nodes, seed, report, report_every))


def score(game: str | Game, position: Any) -> dict[str, Any]:
    """Score a position (see ``docs/formats/<game>.md``)."""
    return contract.score(load_game(game), position)


def legal_moves(game: str | Game, state: State | View | dict[str, Any] | str) -> list[str]:
    """The move strings of the player to act (on a view: everything that may be entered next)."""
    return contract.legal_moves(load_game(game), state)


def position(game: str | Game, payload: Any) -> State | View:
    """A state or a view from its JSON (or JSON text) or notation."""
    return load_game(game).parse_position(payload)


def new(game: str | Game, seed: int = 0, players: int | None = None, mode: str | None = None,
        player: int | None = None, table: bool = False) -> State | View:
    """A dealt game (``player``: that player's view of it), or with ``table`` a real table's start as ``player``."""
    g = load_game(game).configure(players=players, mode=mode)
    if table:
        if player is None:
            from solver.errors import InvalidInputError
            raise InvalidInputError("player", problem="a real table needs the player whose view it is")
        return g.new_table(player)
    state = g.new_game(as_int(seed, "seed", 0, 2**63 - 1))
    return state if player is None else state.view(player)


def view(game: str | Game, state: Any, player: int) -> View:
    """What ``player`` knows in ``state``."""
    return load_game(game).parse_position(state).view(player)


def apply(game: str | Game, state: Any, moves: list[str]) -> State | View:
    """``state`` (or a view) advanced by ``moves``: moves of every player and chance outcomes as move strings."""
    g = load_game(game)
    return g.apply(g.parse_position(state), list(moves))


def svg(game: str | Game, state: Any, player: int | None = None, hint: Any = None, **options: Any) -> str:
    """A standalone SVG picture of ``state`` (only ``player``'s view when given; ``hint`` drawn on it)."""
    from solver.drawing import svg as draw
    return draw(game, state, player=player, hint=hint, **options)


def generate(game: str | Game, kind: str | None = None, difficulty: str = "medium", seed: int = 0, start: int = 0,
             count: int = 1, jobs: int = 1, executor: str = "local", address: str | None = None,
             progress: bool = False) -> Iterator[dict[str, Any]]:
    """Puzzles ``start .. start+count-1`` of a seeded run, in index order (each regenerable from its id)."""
    from solver.puzzles import generate as run
    g = load_game(game)
    return run(g, kind or (contract.puzzle_kinds(g) or ("",))[0], difficulty, seed=seed, start=start,
               count=count, jobs=jobs, executor=executor, address=address, progress=progress)


def selfplay(game: str | Game, policies: tuple[str, ...] | list[str] | None = None, seed: int = 0, start: int = 0,
             count: int = 1, jobs: int = 1, executor: str = "local", address: str | None = None,
             progress: bool = False, **options: Any) -> Iterator[dict[str, Any]]:
    """Self-play games ``start .. start+count-1`` of a seeded run, in index order; ``solver.selfplay.summarize``
    turns a list of them into win rates and paired differences with intervals."""
    from solver.selfplay import selfplay as run
    return run(load_game(game), tuple(policies) if policies else None, seed=seed, start=start, count=count,
               options=options, jobs=jobs, executor=executor, address=address, progress=progress)


def review(game: str | Game, record: Any, player: int | None = None, time_ms: int | None = None,
           nodes: int | None = None, seed: int = 0, mistakes: int = 3) -> dict[str, Any]:
    """Judge ``player``'s decisions in a game record (its object form or a :class:`solver.record.Record`)."""
    from solver.record import Record, record_from_json
    from solver.review import review as run
    g = load_game(game)
    rec = record if isinstance(record, Record) else record_from_json(record)
    ctx = _context(g, time_ms, nodes, seed, None, None)
    return run(g, rec, player, limits=ctx.limits, seed=ctx.seed, mistakes=mistakes)
