"""The table-side web board: ``memory-solver serve`` (``docs/web.md``).

Starlette with uvicorn: the well-kept, small ASGI pair, with streaming
responses for interim hint results and no build step. The page (plain HTML,
CSS and JavaScript modules in ``solver/web/static``) talks to the server only
through the engine protocol (``docs/engine.md``):

- ``POST /api/engine`` takes one engine query and returns its final answer
  (``4xx`` with ``{"id", "error", "field"}`` for a bad query);
- ``POST /api/stream`` takes one query and streams every answer (interim, then
  final) as server-sent events; a client that disconnects has its search
  terminated.

Queries run in this process: each is checked and answered by the service layer
(``solver/protocol.py``, ``solver/service.py``) on worker threads shared by
every page (``solver/scheduler.py``), and its answers come back as objects, with
no JSON text in between. These analysis routes keep no game state (the page
posts the positions it analyses; the service remembers the positions of recent
queries, so a query that extends an earlier one applies only the new moves),
limit the request size and each page's concurrent searches, cap every search's
time, and never read a file a request names (data files come only from the
package).

The table server (``/api/games``, ``/play/...``, ``/table/...``:
:mod:`solver.web.tables`) holds the games themselves, each seat seeing its own
view, in one SQLite file (:mod:`solver.web.store`, ``--db``); the engine's
seats are played on the same scheduler.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from solver.datafiles import restrict
from solver.errors import SolverError
from solver.protocol import (CONTROL_ACTIONS, Query, answer_query, query_action, read_query, terminated_json,
                             unknown_fields, version_json)
from solver.scheduler import Job, Scheduler
from solver.search import Limits
from solver.validate import decode_json
from solver.web.seats import Tables
from solver.web.store import Store, default_path
from solver.web.tables import Feed, table_routes

STATIC = Path(__file__).resolve().parent / "static"
#: the largest request body (a game record of a long game is far smaller)
MAX_BODY_BYTES = 1024 * 1024
#: searches one page may run at once
MAX_SEARCHES_PER_PAGE = 2
#: the cap on every query's time limit (the page asks for less)
MAX_TIME_MS = 30_000
PAGE_HEADER = "x-page-id"
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
#: put on a query's answer queue once the query is over (every answer sent)
_OVER = None


@dataclass(frozen=True)
class Submitted:
    """A query handed to the service: its job, and the queue its answers arrive on (``(final, answer)`` pairs,
    then ``None`` once it is over)."""

    job: Job
    answers: asyncio.Queue


class Pages:
    """Every page's queries, run in this process on one shared scheduler (the engine's queue and workers); each
    answer goes back, as a dict, to the request that asked, under the id the page gave."""

    def __init__(self, threads: int = 2, max_time_ms: int = MAX_TIME_MS) -> None:
        self.max_time_ms = max_time_ms
        self._scheduler = Scheduler(threads, name="web-worker")

    def searches_of(self, page: str) -> int:
        """How many queries of ``page`` are queued or running."""
        return len(self._scheduler.active(lambda job: job.owner == page))

    def submit(self, query: Query, page: str) -> Submitted:
        """Queue a checked query of ``page``; its answers arrive on the returned queue."""
        loop = asyncio.get_running_loop()
        answers: asyncio.Queue = asyncio.Queue()

        def send(answer: dict[str, Any] | None) -> None:
            if answer is not None:
                answer = {**answer, "id": query.id}
                answer = (not answer.get("isDuringSearch") and "warning" not in answer, answer)
            loop.call_soon_threadsafe(answers.put_nowait, answer)

        job = Job(lambda: answer_query(query, send, job.cancel, self.max_time_ms), priority=query.priority,
                  key=query.id, owner=page, on_cancel=lambda: send(terminated_json(query)),
                  on_done=lambda: send(_OVER))
        self._scheduler.submit(job)
        return Submitted(job, answers)

    def run(self, work: Any, owner: str = "table-server") -> None:
        """Queue ``work()`` (an engine seat's move of the table server) on the same workers as the pages' queries."""
        self._scheduler.submit(Job(work, owner=owner))

    def terminate(self, submitted: Submitted) -> None:
        """Stop one query (its client went away)."""
        self._scheduler.terminate(lambda job: job is submitted.job)

    def terminate_page(self, page: str, client_id: Any = None) -> int:
        """Terminate this page's searches (only those with ``client_id`` when given)."""
        return self._scheduler.terminate(lambda job: job.owner == page and (client_id is None or job.key == client_id))

    def close(self) -> None:
        self._scheduler.close()


def _error(status: int, message: str, field_name: str | None = None, qid: Any = None) -> JSONResponse:
    return JSONResponse({"id": qid, "error": message, "field": field_name}, status_code=status,
                        headers=SECURITY_HEADERS)


async def _read_query(request: Request) -> dict[str, Any] | JSONResponse:
    """The request's engine query, or the error response to send."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
        return _error(413, f"request larger than {MAX_BODY_BYTES} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            return _error(413, f"request larger than {MAX_BODY_BYTES} bytes")
    try:
        query = decode_json(body, None)
    except SolverError as exc:
        return _error(400, str(exc), exc.field)
    if not isinstance(query, dict):
        return _error(400, "a query must be a JSON object")
    if "id" not in query:
        query["id"] = None
    return query


def _checked(query: dict[str, Any]) -> tuple[Query | dict[str, Any], list[str]]:
    """The query with its plain fields checked, or its error answer; and its unknown fields (warnings)."""
    warnings: list[str] = []
    try:
        action = query_action(query)
        warnings = unknown_fields(query)
        return read_query(query["id"], query, action), warnings
    except SolverError as exc:
        return {"id": query["id"], **exc.to_json()}, warnings


def _page_of(request: Request) -> str:
    page = request.headers.get(PAGE_HEADER, "")
    return page[:64] if page else f"anonymous-{request.client.host if request.client else ''}"


def _status_of(answer: dict[str, Any]) -> int:
    if "error" not in answer:
        return 200
    return 500 if answer["error"].startswith("internal error") else 400


def _with_warnings(answer: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    return {**answer, "warnings": warnings} if warnings else answer


def build_app(threads: int = 2, max_time_ms: int = MAX_TIME_MS, db: str | Path | None = None,
              engine_limits: Any = None) -> Starlette:
    """The web board's application (the queries of every page run on one scheduler with ``threads`` workers), its
    games kept in the SQLite file ``db`` (default: :func:`solver.web.store.default_path`). ``engine_limits(game)``
    gives the limits of an engine seat's move (default: the game's default time, capped at ``max_time_ms``)."""
    restrict([])  # the package's data only: a request never names a file on the server
    pages = Pages(threads=threads, max_time_ms=max_time_ms)
    store = Store(default_path() if db is None else db)
    feed = Feed()
    tables = Tables(store, pages.run, feed.changed,
                    engine_limits or (lambda game: Limits(time_ms=min(game.default_time_ms, max_time_ms))))

    async def control(query: dict[str, Any], page: str) -> JSONResponse | None:
        action = query.get("action")
        if action not in CONTROL_ACTIONS:
            return None
        if action == "query_version":
            return JSONResponse(version_json(query["id"]), headers=SECURITY_HEADERS)
        target = query.get("terminateId") if action == "terminate" else None
        stopped = pages.terminate_page(page, target)
        reply = {"id": query.get("id"), "action": action, "terminated": stopped}
        if action == "terminate":
            reply["terminateId"] = target
        return JSONResponse(reply, headers=SECURITY_HEADERS)

    async def admit(query: dict[str, Any], page: str) -> JSONResponse | None:
        if pages.searches_of(page) >= MAX_SEARCHES_PER_PAGE:
            return _error(429, f"this page already runs {MAX_SEARCHES_PER_PAGE} searches: stop one first",
                          None, query.get("id"))
        return None

    async def engine_endpoint(request: Request) -> Response:
        query = await _read_query(request)
        if isinstance(query, JSONResponse):
            return query
        page = _page_of(request)
        handled = await control(query, page)
        if handled is not None:
            return handled
        refused = await admit(query, page)
        if refused is not None:
            return refused
        checked, warnings = _checked(query)
        if isinstance(checked, dict):
            answer = _with_warnings(checked, warnings)
            return JSONResponse(answer, status_code=_status_of(answer), headers=SECURITY_HEADERS)
        submitted = pages.submit(checked, page)
        finals = []
        try:
            while (item := await submitted.answers.get()) is not _OVER:
                final, answer = item
                if final:
                    finals.append(answer)
        except asyncio.CancelledError:  # the client went away
            pages.terminate(submitted)
            raise
        answer = finals[-1] if len(finals) == 1 or "error" in finals[-1] else {"id": query.get("id"), "turns": finals}
        answer = _with_warnings(answer, warnings)
        return JSONResponse(answer, status_code=_status_of(answer), headers=SECURITY_HEADERS)

    async def stream_endpoint(request: Request) -> Response:
        query = await _read_query(request)
        if isinstance(query, JSONResponse):
            return query
        page = _page_of(request)
        if query.get("action") in CONTROL_ACTIONS:
            return _error(400, "control queries go to /api/engine", "action", query.get("id"))
        refused = await admit(query, page)
        if refused is not None:
            return refused
        query.setdefault("reportDuringSearchEvery", 0.5)
        checked, _ = _checked(query)
        submitted = None if isinstance(checked, dict) else pages.submit(checked, page)

        async def events():
            if submitted is None:  # refused: the error is the one event
                yield f"data: {json.dumps(checked, allow_nan=False)}\n\n"
                return
            over = False
            try:
                while not over:
                    try:
                        item = await asyncio.wait_for(submitted.answers.get(), timeout=1.0)
                    except asyncio.TimeoutError:
                        if await request.is_disconnected():
                            pages.terminate(submitted)
                            return
                        yield ": keep-alive\n\n"
                        continue
                    if item is _OVER:
                        over = True
                        continue
                    yield f"data: {json.dumps(item[1], allow_nan=False)}\n\n"
            finally:
                if not over:
                    pages.terminate(submitted)

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={**SECURITY_HEADERS, "Cache-Control": "no-store"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        feed.close()
        tables.close()
        pages.close()
        store.close()

    async def read_body(request: Request) -> dict[str, Any] | Response:
        body = await _read_query(request)
        if isinstance(body, dict):
            body.pop("id", None)
        return body

    def answer(status: int, body: dict[str, Any]) -> Response:
        return JSONResponse(body, status_code=status, headers=SECURITY_HEADERS)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)

    async def not_found(request: Request, exc: Exception) -> Response:
        return _error(404, f"no such page: {request.url.path}")

    async def server_error(request: Request, exc: Exception) -> Response:
        return _error(500, "internal error (see the server's log)")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml", headers=SECURITY_HEADERS)

    app = Starlette(routes=[Route("/", index), Route("/favicon.ico", favicon),
                            Route("/api/engine", engine_endpoint, methods=["POST"]),
                            Route("/api/stream", stream_endpoint, methods=["POST"]),
                            *table_routes(tables, feed, read_body, answer),
                            Route("/play/{game}/{key}", index), Route("/table/{game}/{key}", index),
                            Mount("/static", app=StaticFiles(directory=STATIC), name="static")],
                    exception_handlers={404: not_found, 500: server_error}, lifespan=lifespan)
    app.state.pages = pages
    app.state.tables = tables
    app.state.feed = feed
    return app


def serve(host: str = "127.0.0.1", port: int = 8765, threads: int = 2, db: str | Path | None = None) -> int:
    """Run the web board until interrupted, its games kept in ``db`` (default: the user's data directory)."""
    path = default_path() if db is None else Path(db)
    app = build_app(threads=threads, db=path)
    shown = f"[{host}]" if ":" in host else host
    sys.stdout.write(f"memory-solver: the games are kept in {path}\n")
    sys.stdout.write(f"memory-solver: the web board is at http://{shown}:{port}/ (Ctrl-C to stop)\n")
    sys.stdout.flush()
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=1)
    _Server(config).run()
    return 0


class _Server(uvicorn.Server):
    """uvicorn's server, ending the table server's event streams at Ctrl-C (open pages hold them open: shutdown
    would wait for them)."""

    def handle_exit(self, sig: int, frame: Any) -> None:
        self.config.app.state.feed.close()
        super().handle_exit(sig, frame)
