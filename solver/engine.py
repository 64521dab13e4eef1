"""The JSON-lines hint engine (``memory-solver engine``), after KataGo's analysis engine.

One JSON object per line comes in on stdin and results go out on stdout, one
JSON object per line. The reading thread only parses and checks queries: games
are loaded, files read and searches run on worker threads, so control queries
(``query_version``, ``terminate``, ``terminate_all``) are answered at once
whatever else is running, and results may come back out of order: match them
by ``id``. Queued queries run in ``priority`` order (higher first; ties in
arrival order). Every query that runs ends with exactly one response whose
``isDuringSearch`` is false (one per analysed turn with ``analyzeTurns``), or
one error object, whatever happens to it (finished, terminated while queued or
running, failed, refused by a full queue, dropped at shutdown). A bad query gets
``{"id", "error", "field"}`` and the engine keeps serving. Every query runs under
the engine's time cap (``--max-time-ms``, :data:`DEFAULT_MAX_TIME_MS` by
default), a node budget included; at most ``--max-queue`` queries wait
(:class:`solver.scheduler.Scheduler`). Closing stdin drains the queue, then the
engine exits; SIGINT or SIGTERM answers the queue with an error, terminates the
running searches and exits within 2 s. Data files named in a game spec are read
only from the package's data and from the ``--data-dir`` directories. The
protocol and its guarantees are in ``docs/engine.md``.
"""

from __future__ import annotations

import json
import re
import signal
import threading
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from typing import Any, BinaryIO, TextIO

from solver.errors import InvalidInputError, SolverError
from solver.protocol import (ACTIONS, CONTROL_ACTIONS, QUERY_KEYS, STATELESS_ACTIONS, Query, answer_query,
                             query_action, read_query, terminated_answers, unknown_fields, version_json)
from solver.scheduler import SHUTDOWN, TERMINATED, Job, Refused, Scheduler
from solver.validate import THREADS, decode_json, decode_json_lenient, find_out_of_range

__all__ = ["ACTIONS", "CONTROL_ACTIONS", "DEFAULT_MAX_QUEUE", "DEFAULT_MAX_TIME_MS", "Engine", "MAX_LINE_BYTES",
           "MAX_THREADS", "QUERY_KEYS", "STATELESS_ACTIONS", "decode_query", "read_lines", "run_engine",
           "top_level_id"]

MAX_LINE_BYTES = 16 * 1024 * 1024
#: the most worker threads ``--threads`` may ask for
MAX_THREADS = int(THREADS.hi)
#: the engine's cap on every query's time (``--max-time-ms``): ten minutes, a node budget included
DEFAULT_MAX_TIME_MS = 600_000
#: the queries that may wait for a worker (``--max-queue``); one more is answered with an error
DEFAULT_MAX_QUEUE = 1000
#: the engine's one client (its stdin): fairness between clients is the web board's concern
STDIN = "stdin"
#: seconds a shutdown waits for the terminated searches to answer
SHUTDOWN_WAIT_S = 1.5


class Engine:
    """Reads queries, runs them on worker threads (:class:`solver.scheduler.Scheduler`), writes one JSON object
    per line."""

    def __init__(self, out: TextIO, threads: int = 1, log: TextIO | None = None,
                 max_time_ms: int = DEFAULT_MAX_TIME_MS, max_queue: int = DEFAULT_MAX_QUEUE) -> None:
        self._out = out
        self._max_time_ms = max_time_ms
        self._out_lock = threading.Lock()
        self._log = log
        self._scheduler = Scheduler(max(1, min(threads, MAX_THREADS)), max_queue=max_queue, name="engine-worker")

    # -- output -----------------------------------------------------------------------
    def emit(self, obj: dict[str, Any]) -> None:
        """Write one response line (thread-safe)."""
        try:
            line = json.dumps(obj, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError) as exc:  # a bug in a game's result, never user input
            line = json.dumps({"id": _plain_id(obj.get("id")),
                               "error": f"internal error: unserialisable result ({exc})", "field": None})
        with self._out_lock:
            self._out.write(line + "\n")
            self._out.flush()
            self._write_log("out", line)

    def _write_log(self, direction: str, line: str) -> None:
        if self._log is None:
            return
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        try:
            self._log.write(json.dumps({"time": stamp, direction: line}) + "\n")
            self._log.flush()
        except (OSError, ValueError):  # a full disk or a closed log must not stop the engine
            self._log = None

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
        self._scheduler.close()

    def shutdown(self, timeout: float = SHUTDOWN_WAIT_S) -> bool:
        """Answer every queued query with an error, terminate the running ones and wait up to ``timeout`` seconds
        for their answers. True when every worker has stopped."""
        return self._scheduler.shutdown(timeout)

    def handle_line(self, raw: bytes | str) -> None:
        """Parse and dispatch one input line; never raises."""
        qid: Any = None
        try:
            if isinstance(raw, bytes):
                if len(raw) > MAX_LINE_BYTES:
                    with self._out_lock:
                        self._write_log("in", raw[:200].decode("utf-8", "replace") + "...")
                    raise InvalidInputError(None, problem=f"query longer than {MAX_LINE_BYTES} bytes")
                try:
                    raw = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise InvalidInputError(None, problem="query is not valid UTF-8") from None
            text = raw.strip()
            if not text:
                return
            with self._out_lock:
                self._write_log("in", text)
            query = decode_query(text)
            qid = query["id"]
            self._dispatch(qid, query)
        except SolverError as exc:
            self._error(qid, exc)
        except QueryError as exc:
            self._error(exc.qid, exc.error)
        except Exception as exc:  # never die on input
            self.emit({"id": qid, "error": f"internal error: {type(exc).__name__}: {exc}", "field": None})

    def _dispatch(self, qid: Any, query: dict[str, Any]) -> None:
        """Answer a control query at once; check a search query's plain fields and queue it.

        Nothing here loads a game or reads a file: that happens on a worker.
        """
        action = query_action(query)
        for key in unknown_fields(query):
            self.emit({"id": qid, "warning": "unknown field, ignored", "field": key})
        if action == "query_version":
            self.emit(version_json(qid))
            return
        if action in ("terminate", "terminate_all"):
            self._terminate(qid, query, action)
            return
        checked = read_query(qid, query, action)
        try:
            self._scheduler.submit(self._job(checked))
        except Refused as exc:
            raise InvalidInputError(None, problem=f"not run: {exc} (memory-solver engine --max-queue "
                                                  f"{self._scheduler.max_queue})") from None

    def _job(self, query: Query) -> Job:
        job = Job(lambda: answer_query(query, self.emit, job.cancel, self._max_time_ms), client=STDIN,
                  priority=query.priority, key=query.id, on_cancel=lambda reason: self._unrun(query, reason))
        return job

    def _unrun(self, query: Query, reason: str) -> None:
        """The final answers of a query that never ran: one per analysed turn when it was terminated in the
        queue (as KataGo does), else one error."""
        if reason == TERMINATED:
            for answer in unrun_answers(query):
                self.emit(answer)
        else:
            self.emit({"id": query.id, "error": "not run: the engine is shutting down" if reason == SHUTDOWN
                       else f"not run: {reason}", "field": None})

    def _terminate(self, qid: Any, query: dict[str, Any], action: str) -> None:
        target: Any = None
        if action == "terminate":
            if "terminateId" not in query:
                raise InvalidInputError("terminateId", problem="missing required field")
            target = query["terminateId"]
            if not isinstance(target, (str, int)) or isinstance(target, bool):
                raise InvalidInputError("terminateId", target, "expected the id (a string or an integer) of a query")
        hit = self._scheduler.terminate(lambda job: action == "terminate_all" or job.key == target)
        reply: dict[str, Any] = {"id": qid, "action": action, "terminated": hit}
        if action == "terminate":
            reply["terminateId"] = target
        self.emit(reply)


def read_lines(stream: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[bytes]:
    """Lines of ``stream``; a line longer than ``limit`` is yielded cut to ``limit + 1`` bytes (so it is refused)
    and the rest of it is skipped without holding it in memory."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            rest = line
            while rest and not rest.endswith(b"\n"):
                rest = stream.readline(limit + 1)
        yield line


class Interrupted(BaseException):
    """SIGINT or SIGTERM arrived (a ``BaseException``, as ``KeyboardInterrupt`` is)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def run_engine(stdin: BinaryIO, stdout: TextIO, threads: int = 1, log: TextIO | None = None,
               max_time_ms: int = DEFAULT_MAX_TIME_MS, max_queue: int = DEFAULT_MAX_QUEUE) -> int:
    """Serve queries from ``stdin`` until it closes (status 0) or a SIGINT or SIGTERM arrives: then the queued
    queries are answered with an error, the running ones terminated (each answers), and the status is 128 plus the
    signal's number."""
    engine = Engine(stdout, threads=threads, log=log, max_time_ms=max_time_ms, max_queue=max_queue)
    previous = _catch_signals()
    try:
        engine.serve(read_lines(stdin))
    except (KeyboardInterrupt, Interrupted) as exc:
        engine.shutdown()
        return 128 + (exc.signum if isinstance(exc, Interrupted) else signal.SIGINT)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return 0


def _catch_signals() -> dict[int, Any]:
    """SIGINT and SIGTERM raise :class:`Interrupted` in the main thread (which reads stdin); the previous handlers."""
    if threading.current_thread() is not threading.main_thread():
        return {}

    def interrupted(signum: int, frame: Any) -> None:
        raise Interrupted(signum)
    return {signum: signal.signal(signum, interrupted) for signum in (signal.SIGINT, signal.SIGTERM)}


def unrun_answers(query: Query) -> list[dict[str, Any]]:
    """The final answers of a query terminated before a worker took it: one per analysed turn (each with its
    ``turnNumber``, as KataGo does), else one."""
    return terminated_answers(query)


def _plain_id(qid: Any) -> Any:
    return qid if isinstance(qid, (str, int)) and not isinstance(qid, bool) else None


def decode_query(text: str | bytes) -> dict[str, Any]:
    """A query line parsed: a JSON object with an ``id`` (a string or an integer). A refused line raises
    :class:`QueryError` carrying the query's id whenever it can be read (a bad number, nesting too deep), else
    :class:`InvalidInputError` (the id is then ``null``)."""
    query = _decode_json_query(text if isinstance(text, str) else text.decode("utf-8", "replace"))
    if not isinstance(query, dict):
        raise InvalidInputError(None, query, "a query must be a JSON object")
    if "id" not in query:
        raise InvalidInputError("id", problem="missing required field")
    qid = query["id"]
    if not isinstance(qid, (str, int)) or isinstance(qid, bool):
        raise InvalidInputError("id", qid, "expected a string or an integer")
    return query


def _decode_json_query(text: str) -> Any:
    """The query, or the error for its first bad number with the query's id and the number's field."""
    try:
        return decode_json(text, None)
    except InvalidInputError as exc:
        lenient = decode_json_lenient(text)
        found = find_out_of_range(lenient) if lenient is not None else None
        if found is None:
            qid = top_level_id(text) if "nested too deeply" in exc.problem else None
            if qid is not None:
                raise QueryError(qid, exc) from None
            raise
        path, number = found
        raise QueryError(lenient.get("id") if isinstance(lenient, dict) else None,
                          InvalidInputError(path or None, number[:60] + ("..." if len(number) > 60 else ""),
                                            "number out of range (integers have at most 40 digits; NaN and "
                                            "Infinity are not JSON)")) from exc


class QueryError(Exception):
    """A query whose id could be read but whose content is refused."""

    def __init__(self, qid: Any, error: SolverError) -> None:
        super().__init__(str(error))
        self.qid, self.error = _plain_id(qid), error


def top_level_id(text: str) -> Any:
    """The ``id`` of a JSON object too deeply nested for the parser, read by scanning only its top level."""
    depth, i, n = 0, 0, len(text)
    expect_key = False
    while i < n:
        ch = text[i]
        if ch == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            token = text[i:end + 1]
            i = end + 1
            if depth == 1 and expect_key:
                expect_key = False
                rest = text[i:].lstrip()
                if token == '"id"' and rest.startswith(":"):
                    value = re.match(r'\s*("(?:[^"\\]|\\.)*"|-?\d{1,40})\s*[,}]', rest[1:])
                    if value:
                        try:
                            parsed = json.loads(value.group(1))
                        except ValueError:
                            return None
                        return _plain_id(parsed)
            continue
        if ch in "{[":
            depth += 1
            expect_key = depth == 1 and ch == "{"
        elif ch in "}]":
            depth -= 1
        elif ch == "," and depth == 1:
            expect_key = True
        i += 1
    return None
