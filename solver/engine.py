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
from solver.validate import as_bool, as_choice, as_int, as_number

SEARCH_ACTIONS = ("hint", "solve", "score", "legal_moves")
CONTROL_ACTIONS = ("query_version", "terminate", "terminate_all")
ACTIONS = SEARCH_ACTIONS + CONTROL_ACTIONS
QUERY_KEYS = {"id", "game", "action", "state", "limits", "top", "player", "fullInformation",
              "reportDuringSearchEvery", "seed", "terminateId"}
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
            try:
                query = json.loads(text)
            except (json.JSONDecodeError, RecursionError) as exc:
                raise InvalidInputError(None, text[:80], f"malformed JSON ({getattr(exc, 'msg', 'too deeply nested')})") from None
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
        if "state" not in query:
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
        self.emit({**head, **body})

    def _execute(self, job: Job) -> dict[str, Any]:
        query = job.query
        game = load_game(job.game_spec)
        job.ctx.limits = job.ctx.limits.with_defaults(game.default_time_ms)
        if job.ctx.report_every:
            head = {"id": job.qid, "action": job.action}
            job.ctx.report = lambda partial: self.emit({**head, **_interim(partial)})
        if job.action == "hint":
            state = game.parse_state(query["state"])
            player = query.get("player")
            result = game.hint(state, job.ctx, top=query.get("top", 3), player=player,
                               full_information=query.get("fullInformation", False))
            return result.to_json()
        if job.action == "solve":
            return game.solve(query["state"], job.ctx).to_json()
        if job.action == "score":
            return {"game": game.name, "isDuringSearch": False, **game.score(query["state"])}
        return {"game": game.name, "isDuringSearch": False, "moves": game.legal_moves(query["state"])}


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
