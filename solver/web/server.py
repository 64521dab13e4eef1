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

The analysis routes keep no game state (the page posts the positions it
analyses), serve several pages at once through one shared engine, limit the
request size and each page's concurrent searches, cap every search's time, and
never read a file a request names (data files come only from the package).

The table server (``/api/games``, ``/play/...``, ``/table/...``:
:mod:`solver.web.tables`) holds the games themselves, each seat seeing its own
view, in one SQLite file (:mod:`solver.web.store`, ``--db``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from solver.engine import CONTROL_ACTIONS, Engine
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


@dataclass
class Route_:
    """Where the answers of one submitted query go."""

    loop: asyncio.AbstractEventLoop
    answers: asyncio.Queue
    client_id: Any
    page: str
    finals_expected: int
    finals_seen: int = 0


@dataclass
class Bridge:
    """One engine shared by every page; answers go back to the request that asked."""

    threads: int = 2
    max_time_ms: int = MAX_TIME_MS
    _routes: dict[str, Route_] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _ids: Any = field(default_factory=itertools.count)

    def __post_init__(self) -> None:
        self.engine = Engine(self, threads=self.threads, max_time_ms=self.max_time_ms)

    # -- the engine's output ----------------------------------------------------------------
    def write(self, text: str) -> None:
        for line in text.splitlines():
            if not line.strip():
                continue
            answer = json.loads(line)
            with self._lock:
                route = self._routes.get(answer.get("id"))
                if route is None:
                    continue
                final = not answer.get("isDuringSearch") and "warning" not in answer
                if final:
                    route.finals_seen += 1
                    if route.finals_seen >= route.finals_expected or "error" in answer:
                        self._routes.pop(answer["id"], None)
            answer["id"] = route.client_id
            route.loop.call_soon_threadsafe(route.answers.put_nowait, (final, answer))

    def flush(self) -> None:
        pass

    # -- requests -----------------------------------------------------------------------------
    def searches_of(self, page: str) -> int:
        with self._lock:
            return sum(1 for r in self._routes.values() if r.page == page)

    def submit(self, query: dict[str, Any], page: str) -> tuple[str, asyncio.Queue]:
        """Hand ``query`` to the engine under an id of the server's own; answers arrive on the queue."""
        internal = f"web-{next(self._ids)}"
        turns = query.get("analyzeTurns")
        expected = len(turns) if isinstance(turns, list) and turns else 1
        route = Route_(asyncio.get_running_loop(), asyncio.Queue(), query.get("id"), page, expected)
        with self._lock:
            self._routes[internal] = route
        self.engine.handle_line(json.dumps({**query, "id": internal}))
        return internal, route.answers

    def terminate(self, internal: str) -> None:
        self.engine.handle_line(json.dumps({"id": f"{internal}-stop", "action": "terminate",
                                            "terminateId": internal}))

    def terminate_page(self, page: str, client_id: Any = None) -> int:
        """Terminate this page's searches (only those with ``client_id`` when given)."""
        with self._lock:
            targets = [k for k, r in self._routes.items()
                       if r.page == page and (client_id is None or r.client_id == client_id)]
        for internal in targets:
            self.terminate(internal)
        return len(targets)

    def close(self) -> None:
        self.engine.close()


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
    from solver.errors import SolverError
    from solver.validate import decode_json
    try:
        query = decode_json(body, None)
    except SolverError as exc:
        return _error(400, str(exc), exc.field)
    if not isinstance(query, dict):
        return _error(400, "a query must be a JSON object")
    if "id" not in query:
        query["id"] = None
    return query


def _page_of(request: Request) -> str:
    page = request.headers.get(PAGE_HEADER, "")
    return page[:64] if page else f"anonymous-{request.client.host if request.client else ''}"


def _status_of(answer: dict[str, Any]) -> int:
    if "error" not in answer:
        return 200
    return 500 if answer["error"].startswith("internal error") else 400


def build_app(threads: int = 2, max_time_ms: int = MAX_TIME_MS, db: str | Path | None = None,
              engine_limits: Any = None) -> Starlette:
    """The web board's application (one shared engine with ``threads`` workers), its games kept in the SQLite file
    ``db`` (default: :func:`solver.web.store.default_path`). ``engine_limits(game)`` gives the limits of an engine
    seat's move (default: the game's default time, capped at ``max_time_ms``)."""
    from concurrent.futures import ThreadPoolExecutor

    from solver.datafiles import restrict
    from solver.search import Limits
    restrict([])  # the package's data only: a request never names a file on the server
    bridge = Bridge(threads=threads, max_time_ms=max_time_ms)
    store = Store(default_path() if db is None else db)
    engine_seats = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="table-engine")
    feed = Feed()
    tables = Tables(store, engine_seats.submit, feed.changed,
                    engine_limits or (lambda game: Limits(time_ms=min(game.default_time_ms, max_time_ms))))

    async def control(query: dict[str, Any], page: str) -> JSONResponse | None:
        action = query.get("action")
        if action not in CONTROL_ACTIONS:
            return None
        if action == "query_version":
            _, answers = bridge.submit(query, page)
            _, answer = await answers.get()
            return JSONResponse(answer, status_code=_status_of(answer), headers=SECURITY_HEADERS)
        target = query.get("terminateId") if action == "terminate" else None
        stopped = bridge.terminate_page(page, target)
        reply = {"id": query.get("id"), "action": action, "terminated": stopped}
        if action == "terminate":
            reply["terminateId"] = target
        return JSONResponse(reply, headers=SECURITY_HEADERS)

    async def admit(query: dict[str, Any], page: str) -> JSONResponse | None:
        if bridge.searches_of(page) >= MAX_SEARCHES_PER_PAGE:
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
        internal, answers = bridge.submit(query, page)
        finals, warnings = [], []
        try:
            while True:
                final, answer = await answers.get()
                if "warning" in answer:
                    warnings.append(answer)
                    continue
                if final:
                    finals.append(answer)
                    expected = len(query["analyzeTurns"]) if isinstance(query.get("analyzeTurns"), list) \
                        and query["analyzeTurns"] else 1
                    if "error" in answer or len(finals) >= expected:
                        break
        except asyncio.CancelledError:  # the client went away
            bridge.terminate(internal)
            raise
        answer = finals[-1] if len(finals) == 1 or "error" in finals[-1] else {"id": query.get("id"), "turns": finals}
        if warnings:
            answer = {**answer, "warnings": [w["field"] for w in warnings]}
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
        internal, answers = bridge.submit(query, page)

        async def events():
            done = False
            try:
                while not done:
                    try:
                        final, answer = await asyncio.wait_for(answers.get(), timeout=1.0)
                    except asyncio.TimeoutError:
                        if await request.is_disconnected():
                            bridge.terminate(internal)
                            return
                        yield ": keep-alive\n\n"
                        continue
                    if "warning" in answer:
                        continue
                    done = final
                    yield f"data: {json.dumps(answer, allow_nan=False)}\n\n"
            finally:
                if not done:
                    bridge.terminate(internal)

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={**SECURITY_HEADERS, "Cache-Control": "no-store"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        feed.close()
        engine_seats.shutdown(wait=False, cancel_futures=True)
        bridge.close()
        store.close()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)

    async def not_found(request: Request, exc: Exception) -> Response:
        return _error(404, f"no such page: {request.url.path}")

    async def server_error(request: Request, exc: Exception) -> Response:
        return _error(500, "internal error (see the server's log)")

    async def read_body(request: Request) -> dict[str, Any] | Response:
        body = await _read_query(request)
        if isinstance(body, dict):
            body.pop("id", None)
        return body

    def answer(status: int, body: dict[str, Any]) -> Response:
        return JSONResponse(body, status_code=status, headers=SECURITY_HEADERS)

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml", headers=SECURITY_HEADERS)

    app = Starlette(routes=[Route("/", index), Route("/favicon.ico", favicon), Route("/api/engine", engine_endpoint, methods=["POST"]),
                            Route("/api/stream", stream_endpoint, methods=["POST"]),
                            *table_routes(tables, feed, read_body, answer),
                            Route("/play/{game}/{key}", index), Route("/table/{game}/{key}", index),
                            Mount("/static", app=StaticFiles(directory=STATIC), name="static")],
                    exception_handlers={404: not_found, 500: server_error}, lifespan=lifespan)
    app.state.bridge = bridge
    app.state.tables = tables
    return app


def serve(host: str = "127.0.0.1", port: int = 8765, threads: int = 2, db: str | Path | None = None) -> int:
    """Run the web board until interrupted, its games kept in ``db`` (default: the user's data directory)."""
    import sys

    import uvicorn
    path = default_path() if db is None else Path(db)
    app = build_app(threads=threads, db=path)
    shown = f"[{host}]" if ":" in host else host
    sys.stdout.write(f"memory-solver: the games are kept in {path}\n")
    sys.stdout.write(f"memory-solver: the web board is at http://{shown}:{port}/ (Ctrl-C to stop)\n")
    sys.stdout.flush()
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)
    return 0
