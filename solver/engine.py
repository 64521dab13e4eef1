"""The JSON-lines hint engine (``memory-solver engine``), after KataGo's analysis engine.

One JSON object per line comes in on stdin and results go out on stdout, one
JSON object per line. Searches run on worker threads, so control queries
(``query_version``, ``terminate``) are answered while a search runs and
results may come back out of order: match them by ``id``. Every query that
runs ends with exactly one response whose ``isDuringSearch`` is false (or one
error object). A bad query gets ``{"id", "error", "field"}`` and the engine
keeps serving. Closing stdin drains the queue, then the engine exits.
The protocol is documented in ``docs/engine.md``.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, BinaryIO, TextIO

from solver.version import __version__
from solver.errors import InvalidInputError, SolverError
from solver.registry import game_names, load_game
from solver.search import Limits, SearchContext, check_seed
from solver.commands import default_limits, options_from_json
from solver.validate import decode_json, as_bool, as_choice, as_int, as_list, as_number, as_str

SEARCH_ACTIONS = ("hint", "solve", "score", "legal_moves", "new", "view", "apply", "show", "generate", "check",
                  "review")
CONTROL_ACTIONS = ("query_version", "terminate", "terminate_all")
ACTIONS = SEARCH_ACTIONS + CONTROL_ACTIONS
#: actions that need no ``state``
STATELESS_ACTIONS = ("new", "generate", "check", "review")
QUERY_KEYS = {"id", "game", "action", "state", "limits", "top", "player", "fullInformation",
              "reportDuringSearchEvery", "seed", "terminateId", "moves", "analyzeTurns", "options", "record",
              "players", "mode", "table", "kind", "difficulty", "index", "puzzle", "answer", "svg", "hint",
              "mistakes"}
MAX_LINE_BYTES = 16 * 1024 * 1024


@dataclass
class Job:
    """A validated query waiting for (or running on) a worker."""

    qid: Any
    game_spec: str
    action: str
    query: dict[str, Any]
    ctx: SearchContext
    started: bool = False
    done: threading.Event = field(default_factory=threading.Event)


class Engine:
    """Reads queries, runs them on worker threads, writes one JSON object per line."""

    def __init__(self, out: TextIO, threads: int = 1) -> None:
        self._out = out
        self._out_lock = threading.Lock()
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._active: dict[int, Job] = {}
        self._active_lock = threading.Lock()
        self._workers = [threading.Thread(target=self._work, daemon=True, name=f"engine-worker-{i}")
                         for i in range(max(1, threads))]
        for worker in self._workers:
            worker.start()

    # -- output -----------------------------------------------------------------------
    def emit(self, obj: dict[str, Any]) -> None:
        """Write one response line (thread-safe)."""
        try:
            line = json.dumps(obj, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError) as exc:  # a bug in a game's result, never user input
            line = json.dumps({"id": obj.get("id"), "error": f"internal error: unserialisable result ({exc})",
                               "field": None})
        with self._out_lock:
            self._out.write(line + "\n")
            self._out.flush()

    def _error(self, qid: Any, exc: SolverError) -> None:
        self.emit({"id": qid, **exc.to_json()})

    # -- input ------------------------------------------------------------------------
    def serve(self, lines: Iterable[bytes | str]) -> None:
        """Handle every line, then wait for the queued queries to finish."""
        for raw in lines:
            self.handle_line(raw)
        self.close()

    def close(self) -> None:
        """Drain the queue and stop the workers."""
        for _ in self._workers:
            self._jobs.put(None)
        for worker in self._workers:
            worker.join()

    def handle_line(self, raw: bytes | str) -> None:
        """Parse and dispatch one input line; never raises."""
        qid: Any = None
        try:
            if isinstance(raw, bytes):
                if len(raw) > MAX_LINE_BYTES:
                    raise InvalidInputError(None, problem=f"query longer than {MAX_LINE_BYTES} bytes")
                try:
                    raw = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise InvalidInputError(None, problem="query is not valid UTF-8") from None
            text = raw.strip()
            if not text:
                return
            query = decode_json(text, None)
            if not isinstance(query, dict):
                raise InvalidInputError(None, query, "a query must be a JSON object")
            if "id" not in query:
                raise InvalidInputError("id", problem="missing required field")
            qid = query["id"]
            if not isinstance(qid, (str, int)) or isinstance(qid, bool):
                bad, qid = qid, None
                raise InvalidInputError("id", bad, "expected a string or an integer")
            self._dispatch(qid, query)
        except SolverError as exc:
            self._error(qid, exc)
        except Exception as exc:  # never die on input
            self.emit({"id": qid, "error": f"internal error: {type(exc).__name__}: {exc}", "field": None})

    def _dispatch(self, qid: Any, query: dict[str, Any]) -> None:
        action = as_choice(query.get("action", "hint"), "action", ACTIONS)
        for key in query:
            if key not in QUERY_KEYS:
                self.emit({"id": qid, "warning": "unknown field, ignored", "field": key})
        if action == "query_version":
            self.emit({"id": qid, "action": action, "version": __version__, "games": game_names()})
            return
        if action in ("terminate", "terminate_all"):
            self._terminate(qid, query, action)
            return
        if "game" not in query:
            raise InvalidInputError("game", problem="missing required field")
        game_spec = query["game"]
        load_game(game_spec)  # validate the name and parameters now
        if "state" not in query and action not in STATELESS_ACTIONS and not (action == "apply" and "record" in query):
            raise InvalidInputError("state", problem="missing required field")
        limits = Limits.from_json(query.get("limits"))
        every = query.get("reportDuringSearchEvery")
        report_every = None if every is None else as_number(every, "reportDuringSearchEvery", 0.01, 3600)
        seed = check_seed(query.get("seed", 0))
        job = Job(qid, game_spec, action, query, SearchContext(limits=limits, report_every=report_every, seed=seed))
        if "top" in query:
            as_int(query["top"], "top", 1, 1000)
        if "player" in query and query["player"] is not None:
            as_int(query["player"], "player", 0, 16)
        if "fullInformation" in query:
            as_bool(query["fullInformation"], "fullInformation")
        with self._active_lock:
            self._active[id(job)] = job
        self._jobs.put(job)

    def _terminate(self, qid: Any, query: dict[str, Any], action: str) -> None:
        if action == "terminate":
            if "terminateId" not in query:
                raise InvalidInputError("terminateId", problem="missing required field")
            target = query["terminateId"]
        with self._active_lock:
            jobs = list(self._active.values())
        hit = 0
        for job in jobs:
            if action == "terminate_all" or job.qid == target:
                job.ctx.cancel.set()
                hit += 1
        reply: dict[str, Any] = {"id": qid, "action": action, "terminated": hit}
        if action == "terminate":
            reply["terminateId"] = target
        self.emit(reply)

    # -- workers ----------------------------------------------------------------------
    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                self._run(job)
            finally:
                with self._active_lock:
                    self._active.pop(id(job), None)
                job.done.set()

    def _run(self, job: Job) -> None:
        head = {"id": job.qid, "action": job.action}
        if job.ctx.cancelled:
            self.emit({**head, "game": job.game_spec, "isDuringSearch": False, "noResults": True, "terminated": True})
            return
        job.started = True
        job.ctx.started = time.perf_counter()  # the time limit counts from the start of the search, not from arrival
        try:
            body = self._execute(job)
        except SolverError as exc:
            self._error(job.qid, exc)
            return
        except Exception as exc:  # a bug: report it and keep serving
            self.emit({"id": job.qid, "error": f"internal error: {type(exc).__name__}: {exc}", "field": None})
            return
        if job.ctx.cancelled:
            body["terminated"] = True
        self.emit({**head, **{k: v for k, v in body.items() if k not in head}})

    def _execute(self, job: Job) -> dict[str, Any]:
        query = job.query
        game = load_game(job.game_spec)
        job.ctx.limits = default_limits(game, job.ctx.limits)
        if job.ctx.report_every:
            head = {"id": job.qid, "action": job.action}
            job.ctx.report = lambda partial: self.emit({**head, **_interim(partial)})
        verb = _VERBS.get(job.action, job.action)
        options = options_from_json(game, verb, query.get("options"))
        body = _HANDLERS[job.action](self, job, game, query, options)
        return {"game": game.name, "isDuringSearch": False, **body} if "isDuringSearch" not in body else body

    # -- the actions ------------------------------------------------------------------
    def _hint(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        position = game.parse_position(query["state"])
        moves = _moves(query)
        turns = query.get("analyzeTurns")
        top = as_int(query.get("top", 3), "top", 1, 1000)
        player = query.get("player")
        player = None if player is None else as_int(player, "player", 0, 16)
        full = as_bool(query.get("fullInformation", False), "fullInformation")
        if turns is None:
            if moves:
                position = game.apply(position, moves)
            return game.hint(position, job.ctx, top=top, player=player, full_information=full, **options).to_json()
        wanted = [as_int(t, f"analyzeTurns[{i}]", 0, len(moves)) for i, t in enumerate(as_list(turns, "analyzeTurns"))]
        positions = [position.clone()]
        for i, text in enumerate(moves):
            current = positions[-1].clone()
            current.apply_move(text, f"moves[{i}]")
            positions.append(current)
        last: dict[str, Any] = {}
        for n, turn in enumerate(wanted):
            body = game.hint(positions[turn], job.ctx, top=top, player=player, full_information=full,
                             **options).to_json()
            body["turnNumber"] = turn
            if n < len(wanted) - 1:
                self.emit({"id": job.qid, "action": job.action, **body})
            else:
                last = body
        return last

    def _solve(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        return game.solve(query["state"], job.ctx, **options).to_json()

    def _score(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        return dict(game.score(query["state"], **options))

    def _legal_moves(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        position = game.parse_position(query["state"])
        moves = _moves(query)
        if moves:
            position = game.apply(position, moves)
        return {"moves": game.legal_moves(position)}

    def _new(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        players = query.get("players")
        mode = query.get("mode")
        configured = game.configure(players=None if players is None else as_int(players, "players", 1, 16),
                                    mode=None if mode is None else as_str(mode, "mode"))
        player = query.get("player")
        if as_bool(query.get("table", False), "table"):
            if player is None:
                raise InvalidInputError("player", problem="a real table needs the player whose view it is")
            position = configured.new_table(as_int(player, "player", 0, 16), **options)
        else:
            position = configured.new_game(job.ctx.seed, **options)
            if player is not None:
                position = position.view(as_int(player, "player", 0, 16))
        return {"game": configured.spec(), **_position_body(position)}

    def _view(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        if query.get("player") is None:
            raise InvalidInputError("player", problem="missing required field")
        position = game.parse_position(query["state"])
        moves = _moves(query)
        if moves:
            position = game.apply(position, moves)
        return _position_body(position.view(as_int(query["player"], "player", 0, 16)))

    def _apply(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        from solver.record import record_from_json
        moves = _moves(query)
        if "record" in query:
            if "state" in query:
                raise InvalidInputError("state", problem="give either state or record, not both")
            record = record_from_json(query["record"], "record")
            start = record.final_position(game, "record")
            position = game.apply(start, moves)
            extended = record.extended(moves, stamp=False)
            return {**_position_body(position), "record": extended.to_json()}
        return _position_body(game.apply(game.parse_position(query["state"]), moves))

    def _show(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        from solver.drawing import svg
        position = game.parse_position(query["state"])
        moves = _moves(query)
        if moves:
            position = game.apply(position, moves)
        player = query.get("player")
        if player is not None:
            position = position.view(as_int(player, "player", 0, 16))
        hint = query.get("hint")
        if hint is True:
            hint = position.game.hint(position, job.ctx, top=3).to_json()
        elif hint is not None and not isinstance(hint, dict):
            raise InvalidInputError("hint", hint, "expected true (compute a hint) or a hint response object")
        if as_bool(query.get("svg", True), "svg"):
            return {"svg": svg(position.game, position, hint=hint, **options), "hint": hint}
        return {"text": position.game.describe(position), "hint": hint}

    def _generate(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        from solver.puzzles import make_puzzle, parse_puzzle_id
        if "state" in query and isinstance(query["state"], str):  # a puzzle id
            spec, kind, difficulty, seed, index = parse_puzzle_id(query["state"], "state", game)
            return {"puzzle": make_puzzle(load_game(spec), kind, difficulty, seed, index)}
        kinds = game.PUZZLE_KINDS
        kind = as_choice(query.get("kind", kinds[0] if kinds else None), "kind", kinds)
        difficulty = as_choice(query.get("difficulty", "medium"), "difficulty", ("easy", "medium", "hard"))
        index = as_int(query.get("index", 0), "index", 0, 10**9)
        return {"puzzle": make_puzzle(game, kind, difficulty, job.ctx.seed, index)}

    def _check(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        from solver.puzzles import check
        if "puzzle" not in query:
            raise InvalidInputError("puzzle", problem="missing required field")
        if "answer" not in query:
            raise InvalidInputError("answer", problem="missing required field")
        return check(game, query["puzzle"], query["answer"])

    def _review(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        from solver.record import record_from_json
        from solver.review import review
        if "record" not in query:
            raise InvalidInputError("record", problem="missing required field")
        record = record_from_json(query["record"], "record")
        player = query.get("player")
        mistakes = as_int(query.get("mistakes", 3), "mistakes", 0, 1000)
        return review(game, record, None if player is None else as_int(player, "player", 0, 16),
                      limits=job.ctx.limits, seed=job.ctx.seed, mistakes=mistakes)


_HANDLERS = {"hint": Engine._hint, "solve": Engine._solve, "score": Engine._score, "legal_moves": Engine._legal_moves,
             "new": Engine._new, "view": Engine._view, "apply": Engine._apply, "show": Engine._show,
             "generate": Engine._generate, "check": Engine._check, "review": Engine._review}
#: the command-line verb whose options an action takes
_VERBS = {"legal_moves": "legal-moves"}


def _moves(query: dict[str, Any]) -> list[str]:
    moves = as_list(query.get("moves", []), "moves")
    return [as_str(m, f"moves[{i}]") for i, m in enumerate(moves)]


def _position_body(position: Any) -> dict[str, Any]:
    terminal = position.is_terminal()
    return {"state": position.to_json(), "notation": position.to_notation(), "currentPlayer": position.current_player(),
            "terminal": terminal, "legalMoves": [] if terminal else position.game.legal_moves(position)}


def _interim(partial: Any) -> dict[str, Any]:
    body = partial.to_json()
    body["isDuringSearch"] = True
    return body


def run_engine(stdin: BinaryIO, stdout: TextIO, threads: int = 1) -> int:
    """Serve queries from ``stdin`` until it closes. Returns the exit status (0)."""
    engine = Engine(stdout, threads=threads)
    try:
        engine.serve(iter(stdin.readline, b""))
    except KeyboardInterrupt:
        pass
    return 0
