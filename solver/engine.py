"""The JSON-lines hint engine (``memory-solver engine``), after KataGo's analysis engine.

One JSON object per line comes in on stdin and results go out on stdout, one
JSON object per line. The reading thread only parses and checks queries: games
are loaded, files read and searches run on worker threads, so control queries
(``query_version``, ``terminate``, ``terminate_all``) are answered at once
whatever else is running, and results may come back out of order: match them
by ``id``. Queued queries run in ``priority`` order (higher first; ties in
arrival order). Every query that runs ends with exactly one response whose
``isDuringSearch`` is false (one per analysed turn with ``analyzeTurns``), or
one error object. A bad query gets ``{"id", "error", "field"}`` and the engine
keeps serving. Closing stdin drains the queue, then the engine exits. Data
files named in a game spec are read only from the package's data and from the
``--data-dir`` directories. The protocol and its guarantees are in
``docs/engine.md``.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from typing import Any, BinaryIO, TextIO

from solver.errors import InvalidInputError, SolverError
from solver.protocol import (ACTIONS, CONTROL_ACTIONS, QUERY_KEYS, STATELESS_ACTIONS, Query, answer_query,
                             query_action, read_query, terminated_json, unknown_fields, version_json)
from solver.scheduler import Job, Scheduler
from solver.validate import THREADS, decode_json, decode_json_lenient, find_out_of_range

__all__ = ["ACTIONS", "CONTROL_ACTIONS", "Engine", "MAX_LINE_BYTES", "MAX_THREADS", "QUERY_KEYS", "STATELESS_ACTIONS",
           "read_lines", "run_engine", "top_level_id"]

MAX_LINE_BYTES = 16 * 1024 * 1024
#: the most worker threads ``--threads`` may ask for
MAX_THREADS = int(THREADS.hi)


class Engine:
    """Reads queries, runs them on worker threads (:class:`solver.scheduler.Scheduler`), writes one JSON object
    per line."""

    def __init__(self, out: TextIO, threads: int = 1, log: TextIO | None = None,
                 max_time_ms: int | None = None) -> None:
        self._out = out
        self._max_time_ms = max_time_ms
        self._out_lock = threading.Lock()
        self._log = log
        self._scheduler = Scheduler(max(1, min(threads, MAX_THREADS)), name="engine-worker")

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
            query = _decode_query(text)
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
        except _QueryError as exc:
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
        self._scheduler.submit(self._job(checked))

    def _job(self, query: Query) -> Job:
        job = Job(lambda: answer_query(query, self.emit, job.cancel, self._max_time_ms), priority=query.priority,
                  key=query.id, on_cancel=lambda: self.emit(terminated_json(query)))
        return job

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


def run_engine(stdin: BinaryIO, stdout: TextIO, threads: int = 1, log: TextIO | None = None,
               max_time_ms: int | None = None) -> int:
    """Serve queries from ``stdin`` until it closes. Returns the exit status (0)."""
    engine = Engine(stdout, threads=threads, log=log, max_time_ms=max_time_ms)
    try:
        engine.serve(read_lines(stdin))
    except KeyboardInterrupt:
        pass
    return 0


def _plain_id(qid: Any) -> Any:
    return qid if isinstance(qid, (str, int)) and not isinstance(qid, bool) else None


def _decode_query(text: str) -> Any:
    """The query, or the error for its first bad number with the query's id and the number's field."""
    try:
        return decode_json(text, None)
    except InvalidInputError as exc:
        lenient = decode_json_lenient(text)
        found = find_out_of_range(lenient) if lenient is not None else None
        if found is None:
            qid = top_level_id(text) if "nested too deeply" in exc.problem else None
            if qid is not None:
                raise _QueryError(qid, exc) from None
            raise
        path, number = found
        raise _QueryError(lenient.get("id") if isinstance(lenient, dict) else None,
                          InvalidInputError(path or None, number[:60] + ("..." if len(number) > 60 else ""),
                                            "number out of range (integers have at most 40 digits; NaN and "
                                            "Infinity are not JSON)")) from exc


class _QueryError(Exception):
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
