"""The engine protocol (``docs/engine.md``): a query's JSON object to a typed request, answers to JSON objects.

The JSON-lines engine (``solver/engine.py``) and the web board (``solver/web/server.py``) speak it; both hand
queries to :func:`answer_query` in process. A query is checked in two steps:

1. :func:`read_query`, where the query arrives: its plain fields (the game's name, limits, seed, priority,
   ``top``, ...), so that a bad query is answered at once; nothing is loaded and no file is read;
2. :func:`request_of`, on a worker: the game is loaded, the position parsed (and remembered:
   :class:`solver.service.Positions`), the action's own fields read into the typed request of
   :mod:`solver.service`.

:func:`answer_query` then runs the request (:func:`solver.service.run`) and emits its answers: interim reports
when asked, then exactly one final answer per analysed turn (one otherwise), or one error object
``{"id", "error", "field"}``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from solver.errors import InvalidInputError, SolverError
from solver.game import Game, State
from solver.record import record_from_json
from solver.registry import game_names, load_game, parse_spec
from solver.search import Limits, SearchContext, Stopped
from solver.service import (POSITIONS, Answer, ApplyRequest, CheckRequest, GamesRequest, GenerateRequest,
                            HintRequest, LegalMovesRequest, Position, Positions, Request, SampleRequest,
                            ScoreRequest, ShowRequest, SolveRequest, ViewRequest, check_player, check_seed, context,
                            new_request, options_from_json, puzzle_kind, puzzle_of_id, review_request, run,
                            stop_check)
from solver.validate import INDEX, PRIORITY, REPORT_EVERY, TOP, as_bool, as_choice, as_int, as_list, as_object, as_str
from solver.version import __version__

#: every action of the protocol that runs on a worker
ACTIONS = ("hint", "solve", "score", "legal_moves", "new", "view", "apply", "show", "generate", "check", "review",
           "sample", "games")
#: actions answered at once, whatever runs
CONTROL_ACTIONS = ("query_version", "terminate", "terminate_all")
#: the fields a query may have; others are answered with a warning and ignored
QUERY_KEYS = frozenset({"id", "game", "action", "state", "limits", "top", "player", "fullInformation",
                        "reportDuringSearchEvery", "seed", "terminateId", "moves", "analyzeTurns", "options",
                        "record", "players", "mode", "table", "kind", "difficulty", "index", "puzzle", "answer",
                        "svg", "hint", "mistakes", "priority"})
#: actions that need no ``state``
STATELESS_ACTIONS = ("new", "generate", "check", "review", "games")
#: actions that only read or change a position (no search): their time is bounded by their input (and the cap)
POSITION_ACTIONS = frozenset({"legal_moves", "new", "view", "apply", "score", "sample", "games"})
#: actions that are one search bounded by the query's own ``limits.time_ms`` (``show`` with ``hint: true``)
TIMED_ACTIONS = frozenset({"hint", "solve", "check", "show"})


@dataclass(kw_only=True)
class Query:
    """A query of the engine protocol (``docs/engine.md``) with its plain fields checked: what a front door can
    refuse at once, before the query waits for a worker. Nothing is loaded and no file is read; the game and the
    position are read by :func:`request_of` on the worker."""

    id: Any
    action: str
    game: str | None
    body: dict[str, Any]
    limits: Limits
    seed: int
    priority: int
    report_every: float | None

    @property
    def finals(self) -> int:
        """How many final answers the query has: one per analysed turn, else one."""
        turns = self.body.get("analyzeTurns")
        return len(turns) if self.action == "hint" and isinstance(turns, list) and turns else 1


def cost_ms(query: Query, cap_ms: int) -> int:
    """An upper bound on the running time of a checked query, which decides its lane in a scheduler with a quick
    lane (:class:`solver.scheduler.Scheduler`): 0 for an action that only reads or changes a position (``show``
    without a hint included); the query's own ``limits.time_ms`` for one search that honours it (a hint of one
    turn, a solve, a check, a picture with a hint); ``cap_ms`` for everything else: a generation or a review (their
    time limits apply to each step, or not at all), a node budget alone, and a hint of several turns (each turn's
    set-up costs time of its own, so ``time_ms`` times the turns is no bound)."""
    if query.action in POSITION_ACTIONS or (query.action == "show" and query.body.get("hint") is not True):
        return 0
    asked = query.limits.time_ms
    if query.action not in TIMED_ACTIONS or asked is None or query.finals > 1:
        return cap_ms
    return min(asked, cap_ms)


def query_action(query: Mapping[str, Any]) -> str:
    """The query's action (``hint`` when it names none)."""
    return as_choice(query.get("action", "hint"), "action", ACTIONS + CONTROL_ACTIONS)


def unknown_fields(query: Mapping[str, Any]) -> list[str]:
    """The query's fields the protocol does not know (each answered with a warning, then ignored)."""
    return [key for key in query if key not in QUERY_KEYS]


def read_query(qid: Any, query: Mapping[str, Any], action: str) -> Query:
    """The query's plain fields checked, in the protocol's order: the game's name (its syntax only), the state
    (present where needed), limits, report interval, seed, priority, then the action's own plain fields."""
    body = dict(query)
    spec: str | None = None
    if action != "games":
        if "game" not in body:
            raise InvalidInputError("game", problem="missing required field")
        spec = body["game"]
        parse_spec(spec)  # the syntax only: loading it may read a data file, which happens on a worker
    if "state" not in body and action not in STATELESS_ACTIONS and not (action == "apply" and "record" in body):
        raise InvalidInputError("state", problem="missing required field")
    limits = Limits.from_json(body.get("limits"))
    every = body.get("reportDuringSearchEvery")
    report_every = None if every is None else REPORT_EVERY.check(every, "reportDuringSearchEvery")
    seed = check_seed(body.get("seed", 0))
    priority = PRIORITY.check(body.get("priority", 0), "priority")
    if "top" in body:
        TOP.check(body["top"], "top")
    check_player(body.get("player"))
    if "fullInformation" in body:
        as_bool(body["fullInformation"], "fullInformation")
    if body.get("options") is not None:
        as_object(body["options"], "options")
    if "moves" in body:
        moves_of(body)
    if action == "hint" and "analyzeTurns" in body:
        turns_of(body)
    return Query(id=qid, action=action, game=spec, body=body, limits=limits, seed=seed, priority=priority,
                 report_every=report_every)


def turns_of(body: Mapping[str, Any]) -> list[int]:
    """A hint's ``analyzeTurns``: numbers of moves from 0 to the number of ``moves``."""
    last = len(moves_of(body))
    return [as_int(t, f"analyzeTurns[{i}]", 0, last) for i, t in enumerate(as_list(body["analyzeTurns"],
                                                                                 "analyzeTurns"))]


def moves_of(body: Mapping[str, Any], field_name: str = "moves") -> list[str]:
    """A query's moves: a list of move strings."""
    return [as_str(m, f"{field_name}[{i}]") for i, m in enumerate(as_list(body.get(field_name, []), field_name))]


def request_of(query: Query, positions: Positions = POSITIONS, stop: Callable[[], None] | None = None) -> Request:
    """The typed request of a checked query: the game loaded, the game's options for the verb checked, the
    position parsed (remembered in ``positions``) and the action's own fields read. ``stop`` is called before each
    move applied (:func:`solver.service.stop_check`: it raises ``Stopped`` past the query's cap or on terminate)."""
    if query.action == "games":
        return GamesRequest(seed=query.seed)
    game = load_game(query.game)
    verb, build = _REQUEST_OF[query.action]
    common = {"limits": query.limits, "seed": query.seed,
              "options": options_from_json(game, verb, query.body.get("options"))}
    return build(game, query.body, common, _Reader(positions, stop))


@dataclass(frozen=True)
class _Reader:
    """Where a request's positions come from (remembered positions) and the check called before each move."""

    positions: Positions
    stop: Callable[[], None] | None = None

    def after(self, game: Game, payload: Any, moves: list[str]) -> Position:
        return self.positions.after(game, payload, moves, stop=self.stop)


def _position(game: Game, body: Mapping[str, Any], positions: _Reader) -> Position:
    return positions.after(game, body["state"], moves_of(body))


def _hint_of(game: Game, body: Mapping[str, Any], common: dict[str, Any], positions: _Reader) -> Request:
    top, player = TOP.check(body.get("top", 3), "top"), check_player(body.get("player"))
    full = as_bool(body.get("fullInformation", False), "fullInformation")
    turns = body.get("analyzeTurns")
    if turns is None:
        return HintRequest(game=game, position=_position(game, body, positions), top=top, player=player,
                           full_information=full, **common)
    moves = moves_of(body)
    start = positions.after(game, body["state"], [])
    wanted = turns_of(body)
    history = [start]
    for i, text in enumerate(moves):
        if positions.stop is not None:
            positions.stop()
        current = history[-1].clone()
        current.apply_move(text, f"moves[{i}]")
        history.append(current)
    return HintRequest(game=game, position=start, top=top, player=player, full_information=full,
                       turns=tuple((turn, history[turn]) for turn in wanted), **common)


def _solve_of(game: Game, body: Mapping[str, Any], common: dict[str, Any], positions: _Reader) -> Request:
    return SolveRequest(game=game, problem=body["state"], **common)


def _score_of(game: Game, body: Mapping[str, Any], common: dict[str, Any], positions: _Reader) -> Request:
    return ScoreRequest(game=game, problem=body["state"], **common)


def _legal_moves_of(game: Game, body: Mapping[str, Any], common: dict[str, Any], positions: _Reader) -> Request:
    return LegalMovesRequest(game=game, position=_position(game, body, positions), **common)


def _new_of(game: Game, body: Mapping[str, Any], common: dict[str, Any], positions: _Reader) -> Request:
    return new_request(game, seed=common["seed"], player=body.get("player"),
                       table=as_bool(body.get("table", False), "table"), players=body.get("players"),
                       mode=body.get("mode"), options=common["options"])


def _view_of(game: Game, body: Mapping[str, Any], common: dict[str, Any], positions: _Reader) -> Request:
    player = check_player(body.get("player"), required=True)
    return ViewRequest(game=game, position=_position(game, body, positions), player=player, **common)


def _apply_of(game: Game, body: Mapping[str, Any], common: dict[str, Any], positions: _Reader) -> Request:
    moves = moves_of(body)
    if "record" in body:
        if "state" in body:
            raise InvalidInputError("state", problem="give either state or record, not both")
        record = record_from_json(body["record"], "record")
        return ApplyRequest(game=game, position=record.final_position(game, "record"), moves=tuple(moves),
                            record=record, **common)
    return ApplyRequest(game=game, position=_position(game, body, positions), **common)


def _show_of(game: Game, body: Mapping[str, Any], common: dict[str, Any], positions: _Reader) -> Request:
    position = _position(game, body, positions)
    player = check_player(body.get("player"))
    if player is not None:
        position = position.view(player)
    hint = body.get("hint")
    if hint is not None and hint is not True and not isinstance(hint, dict):
        raise InvalidInputError("hint", hint, "expected true (compute a hint) or a hint response object")
    form = "svg" if as_bool(body.get("svg", True), "svg") else "text"
    return ShowRequest(game=game, position=position, hint=hint, form=form, **common)


def _generate_of(game: Game, body: Mapping[str, Any], common: dict[str, Any], positions: _Reader) -> Request:
    if isinstance(body.get("state"), str):  # a puzzle id: it names the game, the run's seed and the index
        return replace(puzzle_of_id(body["state"], game, "state"), limits=common["limits"])
    kind, difficulty = puzzle_kind(game, body.get("kind"), body.get("difficulty", "medium"), common["options"])
    return GenerateRequest(game=game, kind=kind, difficulty=difficulty,
                           index=INDEX.check(body.get("index", 0), "index"), **common)


def _check_of(game: Game, body: Mapping[str, Any], common: dict[str, Any], positions: _Reader) -> Request:
    for key in ("puzzle", "answer"):
        if key not in body:
            raise InvalidInputError(key, problem="missing required field")
    return CheckRequest(game=game, puzzle=body["puzzle"], answer=body["answer"], **common)


def _review_of(game: Game, body: Mapping[str, Any], common: dict[str, Any], positions: _Reader) -> Request:
    if "record" not in body:
        raise InvalidInputError("record", problem="missing required field")
    request = review_request(game, body["record"], player=body.get("player"), mistakes=body.get("mistakes", 3))
    return replace(request, **common)


def _sample_of(game: Game, body: Mapping[str, Any], common: dict[str, Any], positions: _Reader) -> Request:
    position = _position(game, body, positions)
    if not isinstance(position, State):
        raise InvalidInputError("state", problem="a view's chance outcomes are entered as they happen at the "
                                                 "table; sampling needs the full state")
    return SampleRequest(game=game, state=position, draw=len(moves_of(body)), **common)


_Builder = Callable[[Game, Mapping[str, Any], dict[str, Any], _Reader], Request]
#: action -> (the verb whose options it takes, how its request is read)
_REQUEST_OF: dict[str, tuple[str, _Builder]] = {
    "hint": ("hint", _hint_of), "solve": ("solve", _solve_of), "score": ("score", _score_of),
    "legal_moves": ("legal-moves", _legal_moves_of), "new": ("new", _new_of), "view": ("view", _view_of),
    "apply": ("apply", _apply_of), "show": ("show", _show_of), "generate": ("generate", _generate_of),
    "check": ("check", _check_of), "review": ("review", _review_of), "sample": ("sample", _sample_of),
}


def answer_query(query: Query, emit: Callable[[dict[str, Any]], None], cancel: threading.Event | None = None,
                 cap_ms: int | None = None, positions: Positions = POSITIONS) -> None:
    """Run a checked query and emit its answers as the protocol's JSON objects: interim reports when the query
    asks for them, then every final answer (one per analysed turn, else one), or its one error object.

    ``cancel`` is the event ``terminate`` sets; ``cap_ms`` caps the query's time (``--max-time-ms``). Never
    raises: a bug in a game is answered as an internal error and the caller keeps serving.
    """
    head = {"id": query.id, "action": query.action}
    ctx: SearchContext | None = None
    started = time.perf_counter()
    left: int | None = None
    try:  # the cap bounds the whole query: reading its position and moves, then its search
        request = request_of(query, positions, stop_check(cancel, None if cap_ms is None else started + cap_ms / 1000))
        report = (lambda partial: emit({**head, **interim_json(partial)})) if query.report_every else None
        left = None if cap_ms is None else max(1, cap_ms - int((time.perf_counter() - started) * 1000))
        ctx = context(request, left, cancel, report, query.report_every)
        for found in run(request, ctx):
            emit(final_json(head, request, found, ctx))
    except SolverError as exc:
        emit({"id": query.id, **exc.to_json()})
    except Stopped:  # a generation, a check or a replay of moves stopped by its time limit or by terminate
        if cancel is not None and cancel.is_set():
            for answer in terminated_answers(query):
                emit(answer)
        else:  # the limit that ran out: the query's own, or the cap (what was left of it once the moves were read)
            limit = cap_ms if ctx is None or ctx.limits.time_ms == left else ctx.limits.time_ms
            emit({"id": query.id, **InvalidInputError("limits.time_ms", limit, f"the time limit ran out before the "
                                                      f"{query.action} finished").to_json()})
    except RecursionError:
        emit({"id": query.id, "error": "input nested too deeply", "field": None})
    except Exception as exc:  # a bug: report it and keep serving
        emit({"id": query.id, "error": f"internal error: {type(exc).__name__}: {exc}", "field": None})


def final_json(head: dict[str, Any], request: Request, found: Answer, ctx: SearchContext) -> dict[str, Any]:
    """A final answer in the protocol's form: ``id``, ``action``, ``game``, ``isDuringSearch`` false, the body, and
    ``terminated`` when the query was terminated."""
    body = found.to_json()
    if "isDuringSearch" not in body:
        body = {"game": request.game.name, "isDuringSearch": False, **body}
    out = {**head, **{k: v for k, v in body.items() if k not in head}}
    if ctx.cancelled:
        out["terminated"] = True
    return out


def interim_json(partial: Answer) -> dict[str, Any]:
    """An interim report's body (``isDuringSearch`` true)."""
    body = partial.to_json()
    body["isDuringSearch"] = True
    return body


def terminated_json(query: Query) -> dict[str, Any]:
    """The final answer of a query terminated before a worker took it."""
    return {"id": query.id, "action": query.action, "game": query.game, "isDuringSearch": False, "noResults": True,
            "terminated": True}


def terminated_answers(query: Query) -> list[dict[str, Any]]:
    """The final answers of a query terminated before it had any: one per analysed turn (each with its
    ``turnNumber``, as KataGo does), else one."""
    turns = query.body.get("analyzeTurns") if query.action == "hint" else None
    if not isinstance(turns, list) or not turns:
        return [terminated_json(query)]
    return [{**terminated_json(query), "turnNumber": turn} for turn in turns]


def version_json(qid: Any) -> dict[str, Any]:
    """The answer to ``query_version``."""
    return {"id": qid, "action": "query_version", "version": __version__, "games": game_names()}
