"""The table-side web board: ``memory-solver serve`` (``docs/web.md``).

Starlette with uvicorn: the well-kept, small ASGI pair, with streaming
responses for interim hint results and no build step. The page (plain HTML,
CSS and JavaScript modules in ``solver/web/static``) talks to the server only
through the engine protocol (``docs/engine.md``):

- ``POST /api/engine`` takes one engine query and returns its final answer
  (``4xx`` with ``{"id", "error", "field"}`` for a bad query);
- ``POST /api/stream`` takes one query and streams every answer (interim, then
  every final one) as server-sent events.

Queries run in this process: each is checked and answered by the service layer
(``solver/protocol.py``, ``solver/service.py``) on the workers of one
:class:`solver.scheduler.Scheduler` shared by every page: a bounded queue (503
with ``Retry-After`` when full), fairness between clients by their network
address (never by a name a page chose), ``priority`` within a client only, a
quick lane for moves and short hints, and a client that goes away has its query
terminated. Every request goes through :class:`solver.web.hygiene.Hygiene`
(Host, Origin, Content-Type, body size, security headers, JSON errors).

Routes of other features (the table server's ``/api/games``) get all of it by
being in :func:`build_app`'s routes; their blocking work goes through the same
workers with ``await request.app.state.pages.call(request, work, cost_ms=...)``
(``work(cancel)`` runs on a worker; a refusal is answered 429 or 503 by the app).

The table server (``/api/games``, ``/play/...``, ``/table/...``:
:mod:`solver.web.tables`) holds the games themselves, each seat seeing its own
view, in one SQLite file (:mod:`solver.web.store`, ``--db``); its requests and
the engine's seats run on the same workers, each as a job of the client whose
request asked for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from solver.datafiles import restrict
from solver.engine import QueryError, decode_query, unrun_answers
from solver.errors import SolverError
from solver.protocol import (CONTROL_ACTIONS, Query, answer_query, cost_ms, query_action, read_query, unknown_fields,
                             version_json)
from solver.scheduler import EXPIRED, SHUTDOWN, TERMINATED, ClientBusy, Job, Refused, Scheduler
from solver.search import Limits
from solver.validate import decode_json
from solver.web.hygiene import MAX_BODY_BYTES, Hygiene, HostCheck, client_address, json_http_protocol, log_abandoned
from solver.web.seats import Tables
from solver.web.store import Store, default_path
from solver.web.tables import Feed, table_routes

__all__ = ["Capacity", "MAX_BODY_BYTES", "NotRun", "Pages", "build_app", "serve"]

STATIC = Path(__file__).resolve().parent / "static"
#: the cap on every query's time (``--max-time-ms``): a node budget included
MAX_TIME_MS = 30_000
#: queries waiting for a worker, all clients together (``--max-queue``)
MAX_QUEUE = 64
#: queries one client (one network address) may have queued or running (``--max-searches-per-client``)
MAX_PER_CLIENT = 4
#: a query that waited this long for a worker is answered 503 (``--max-queue-wait-ms``)
MAX_WAIT_MS = 30_000
#: a query whose time cap is at most this runs in the quick lane (moves and positions always do)
QUICK_MS = 500
PAGE_HEADER = "x-page-id"
#: seconds a stream waits for an answer before it sends a keep-alive (and notices a client that left)
KEEP_ALIVE_S = 1.0
#: put on a query's answer queue once the query is over (every answer sent)
_OVER = None
T = TypeVar("T")


@dataclass(frozen=True)
class Capacity:
    """What the board takes on: workers, the time cap, the queue's bound, each client's share, the longest queue
    wait, and the quick lane's threshold."""

    threads: int = 2
    max_time_ms: int = MAX_TIME_MS
    max_queue: int = MAX_QUEUE
    max_per_client: int = MAX_PER_CLIENT
    max_wait_ms: int = MAX_WAIT_MS
    quick_ms: int = QUICK_MS


class NotRun(Refused):
    """Work that never ran: terminated while queued, waited too long (``expired``), or the server stopped."""

    def __init__(self, reason: str, retry_after: int = 1) -> None:
        super().__init__({EXPIRED: "the server is busy: no worker was free in time",
                          SHUTDOWN: "the server is shutting down"}.get(reason, f"not run ({reason})"))
        self.reason, self.retry_after = reason, retry_after


@dataclass(eq=False)
class Submitted:
    """A query handed to the workers: its job, and the queue its answers arrive on (``(final, answer)`` pairs, then
    ``None`` once it is over); ``refusal`` is set when it never ran for want of a worker or at shutdown."""

    job: Job
    answers: asyncio.Queue
    refusal: NotRun | None = None


@dataclass(eq=False)
class Pages:
    """Every page's queries on one scheduler: answers go back, as dicts, to the request that asked."""

    capacity: Capacity = field(default_factory=Capacity)

    def __post_init__(self) -> None:
        c = self.capacity
        self.scheduler = Scheduler(c.threads, max_queue=c.max_queue, max_per_client=c.max_per_client,
                                   quick_ms=c.quick_ms, max_wait_ms=c.max_wait_ms, name="web-worker")

    # -- the engine protocol --------------------------------------------------------------------
    def submit(self, query: Query, client: str, page: str | None) -> Submitted:
        """Queue a checked query of ``page`` (of ``client``); raises :class:`solver.scheduler.Refused` when the
        queue or the client's share is full."""
        loop = asyncio.get_running_loop()
        answers: asyncio.Queue = asyncio.Queue()

        def send(answer: dict[str, Any] | None) -> None:
            item = None if answer is None else (not answer.get("isDuringSearch") and "warning" not in answer, answer)
            loop.call_soon_threadsafe(answers.put_nowait, item)

        def unrun(reason: str) -> None:
            if reason == TERMINATED:
                for answer in unrun_answers(query):
                    send(answer)
                return
            submitted.refusal = NotRun(reason, self.scheduler.retry_after())
            send({"id": query.id, "error": str(submitted.refusal), "field": None})

        job = Job(lambda: answer_query(query, send, job.cancel, self.capacity.max_time_ms), client=client,
                  priority=query.priority, key=query.id, owner=page, cost_ms=self.cost_ms(query),
                  on_cancel=unrun, on_done=lambda: send(_OVER))
        submitted = Submitted(job, answers)
        self.scheduler.submit(job)
        return submitted

    def cost_ms(self, query: Query) -> int:
        """An upper bound on the query's time (:func:`solver.protocol.cost_ms`): its lane."""
        return cost_ms(query, self.capacity.max_time_ms)

    def searches_of(self, client: str, page: str | None = None) -> int:
        """How many queries of ``client`` (of its ``page`` when given) are queued or running."""
        return len(self.scheduler.active(lambda job: job.client == client and (page is None or job.owner == page)))

    def terminate(self, submitted: Submitted) -> None:
        """Stop one query (its client went away)."""
        self.scheduler.terminate(lambda job: job is submitted.job)

    def terminate_page(self, client: str, page: str | None, target: Any = None, every: bool = False) -> int:
        """Terminate the queries of ``page`` of ``client`` with the id ``target`` (all of them when ``every``)."""
        return self.scheduler.terminate(lambda job: job.client == client and job.owner == page
                                        and (every or job.key == target))

    # -- any blocking work (the table server's routes) ----------------------------------------------------
    async def call(self, request: Request, work: Callable[[threading.Event], T], *, cost_ms: int | None = None,
                   owner: Any = None, key: Any = None, priority: int = 0) -> T:
        """Run ``work(cancel)`` on the shared workers as a job of the request's client and return its result. The
        job is terminated (``cancel`` set) if the client goes away; a full queue or client share raises
        :class:`solver.scheduler.Refused`, which the app answers 503 or 429 with ``Retry-After``."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future = loop.create_future()

        def settle(outcome: Callable[[], None]) -> None:
            loop.call_soon_threadsafe(lambda: None if future.done() else outcome())

        def run() -> None:
            try:
                result = work(job.cancel)
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting request
                settle(lambda error=exc: future.set_exception(error))  # bound now: ``exc`` is unset after the block
            else:
                settle(lambda: future.set_result(result))

        job = Job(run, client=client_address(request.scope), owner=owner, key=key, cost_ms=cost_ms,
                  priority=priority, on_cancel=lambda reason: settle(
                      lambda: future.set_exception(NotRun(reason, self.scheduler.retry_after()))))
        self.scheduler.submit(job)
        if not await _until_done_or_gone(request, future):
            self.scheduler.terminate(lambda j: j is job)
            log_abandoned(request.scope, "the client went away before the answer: its work was terminated")
            raise NotRun(TERMINATED)  # answered to nobody
        return future.result()

    def run(self, work: Callable[[], None], client: str, cost_ms: int) -> None:
        """Queue ``work()`` (an engine seat's move of the table server) as a job of ``client`` (whose move asked for
        it); raises :class:`solver.scheduler.Refused` when the queue or the client's share is full."""
        self.scheduler.submit(Job(work, client=client, owner="table-server", cost_ms=cost_ms))

    def stop(self) -> None:
        """Answer every queued query and terminate the running ones, without waiting (a signal handler's part)."""
        self.scheduler.shutdown(timeout=0)

    def close(self, timeout: float = 1.0) -> None:
        """Stop (as :meth:`stop`) and wait up to ``timeout`` seconds for the workers."""
        self.scheduler.shutdown(timeout)


async def _until_done_or_gone(request: Request, waited: asyncio.Future) -> bool:
    """Wait for ``waited`` while watching the connection: False when the client disconnected first."""
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        done, _ = await asyncio.wait({waited, gone}, return_when=asyncio.FIRST_COMPLETED)
        return waited in done
    finally:
        gone.cancel()


async def _disconnected(request: Request) -> None:
    """Returns when the client has gone (its request body is already read, so the next message says so)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _json(body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers=headers)


def _error(status: int, message: str, field_name: str | None = None, qid: Any = None,
           headers: dict[str, str] | None = None) -> JSONResponse:
    return _json({"id": qid, "error": message, "field": field_name}, status, headers)


def _refused(exc: Refused, qid: Any = None) -> JSONResponse:
    status = 429 if isinstance(exc, ClientBusy) else 503
    return _error(status, str(exc), None, qid, {"Retry-After": str(exc.retry_after)})


async def _read_query(request: Request) -> dict[str, Any] | JSONResponse:
    """The request's engine query, or the error response to send (with the query's id when it can be read)."""
    body = await request.body()  # the middleware holds it to MAX_BODY_BYTES
    try:
        return decode_query(body)
    except QueryError as exc:
        return _error(400, str(exc.error), exc.error.field, exc.qid)
    except SolverError as exc:
        return _error(400, str(exc), exc.field)


def _checked(query: dict[str, Any]) -> tuple[Query | dict[str, Any], list[str]]:
    """The query with its plain fields checked, or its error answer; and its unknown fields (warnings)."""
    warnings: list[str] = []
    try:
        action = query_action(query)
        warnings = unknown_fields(query)
        return read_query(query["id"], query, action), warnings
    except SolverError as exc:
        return {"id": query["id"], **exc.to_json()}, warnings


def _page_of(request: Request) -> str | None:
    """The page's own name (``X-Page-Id``): it scopes ``terminate`` within its client, nothing else."""
    page = request.headers.get(PAGE_HEADER, "")
    return page[:64] or None


def _status_of(answer: dict[str, Any]) -> int:
    if "error" not in answer:
        return 200
    return 500 if answer["error"].startswith("internal error") else 400


def _with_warnings(answer: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    return {**answer, "warnings": warnings} if warnings else answer


def build_app(threads: int = 2, max_time_ms: int = MAX_TIME_MS, *, capacity: Capacity | None = None,
              host: str = "127.0.0.1", allow_remote: bool = False, allowed_hosts: tuple[str, ...] = (),
              db: str | Path | None = None, engine_limits: Callable[[Any], Limits] | None = None) -> Starlette:
    """The web board's application: the queries of every page on one scheduler (``capacity``, or ``threads``
    workers and the ``max_time_ms`` cap), every request through the hygiene middleware for a server bound to
    ``host``; the table server's games kept in the SQLite file ``db`` (default:
    :func:`solver.web.store.default_path`), an engine seat's move under ``engine_limits(game)`` (default: the
    game's default time, capped)."""
    restrict([])  # the package's data only: a request never names a file on the server
    capacity = capacity or Capacity(threads=threads, max_time_ms=max_time_ms)
    pages = Pages(capacity)
    store = Store(default_path() if db is None else db)
    feed = Feed()
    limits = engine_limits or (lambda game: Limits(time_ms=min(game.default_time_ms, capacity.max_time_ms)))
    tables = Tables(store, lambda work, client, game: pages.run(work, client, _limit_ms(limits(game), capacity)),
                    feed.changed, limits)

    async def control(query: dict[str, Any], request: Request) -> JSONResponse | None:
        action = query.get("action")
        if action not in CONTROL_ACTIONS:
            return None
        if action == "query_version":
            return _json(_with_warnings(version_json(query["id"]), unknown_fields(query)))
        target = query.get("terminateId")
        if action == "terminate" and "terminateId" not in query:
            return _error(400, "terminateId: missing required field", "terminateId", query["id"])
        if action == "terminate" and (not isinstance(target, (str, int)) or isinstance(target, bool)):
            return _error(400, f"terminateId: expected the id (a string or an integer) of a query: {target!r}"[:200],
                          "terminateId", query["id"])
        stopped = pages.terminate_page(client_address(request.scope), _page_of(request), target,
                                       every=action == "terminate_all")
        reply = {"id": query["id"], "action": action, "terminated": stopped}
        if action == "terminate":
            reply["terminateId"] = target
        return _json(reply)

    async def engine_endpoint(request: Request) -> Response:
        query = await _read_query(request)
        if isinstance(query, JSONResponse):
            return query
        handled = await control(query, request)
        if handled is not None:
            return handled
        checked, warnings = _checked(query)
        if isinstance(checked, dict):
            answer = _with_warnings(checked, warnings)
            return _json(answer, _status_of(answer))
        try:
            submitted = pages.submit(checked, client_address(request.scope), _page_of(request))
        except Refused as exc:
            return _refused(exc, checked.id)
        finals: list[dict[str, Any]] = []
        over = asyncio.get_running_loop().create_future()

        async def collect() -> None:
            while (item := await submitted.answers.get()) is not _OVER:
                final, answer = item
                if final:
                    finals.append(answer)
            over.set_result(True)
        collector = asyncio.ensure_future(collect())
        try:
            if not await _until_done_or_gone(request, over):
                pages.terminate(submitted)
                log_abandoned(request.scope, f"the client went away before the answer to {checked.id!r}: "
                                             "its search was terminated")
                return Response(status_code=499)  # "client closed request": nobody reads it
        finally:
            collector.cancel()
        if submitted.refusal is not None:
            return _refused(submitted.refusal, checked.id)
        answer = finals[-1] if len(finals) == 1 or "error" in finals[-1] else {"id": checked.id, "turns": finals}
        answer = _with_warnings(answer, warnings)
        waited = submitted.job.waited
        headers = None if waited is None else {"X-Queue-Wait-Ms": str(round(waited * 1000))}
        return _json(answer, _status_of(answer), headers)

    async def stream_endpoint(request: Request) -> Response:
        query = await _read_query(request)
        if isinstance(query, JSONResponse):
            return query
        if query.get("action") in CONTROL_ACTIONS:
            return _error(400, "control queries go to /api/engine", "action", query.get("id"))
        query.setdefault("reportDuringSearchEvery", 0.5)
        checked, _ = _checked(query)
        if isinstance(checked, dict):
            return _json(checked, _status_of(checked))
        try:
            submitted = pages.submit(checked, client_address(request.scope), _page_of(request))
        except Refused as exc:
            return _refused(exc, checked.id)

        async def events():
            over = False
            try:
                while not over:
                    try:
                        item = await asyncio.wait_for(submitted.answers.get(), timeout=KEEP_ALIVE_S)
                    except asyncio.TimeoutError:
                        if await request.is_disconnected():
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
                    log_abandoned(request.scope, f"the client went away during the stream of {checked.id!r}: "
                                                 "its search was terminated")

        return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        feed.close()
        tables.close()
        pages.close()
        store.close()

    async def read_body(request: Request) -> dict[str, Any] | Response:
        """A table route's JSON object (an empty body is ``{}``), or its 400 (the middleware held it to size)."""
        raw = await request.body()
        try:
            body = decode_json(raw, "body") if raw.strip() else {}
        except SolverError as exc:
            return _error(400, str(exc), exc.field)
        return body if isinstance(body, dict) else _error(400, "body: expected a JSON object", "body")

    async def call(request: Request, work: Callable[[], T]) -> T:
        return await pages.call(request, lambda cancel: work(), cost_ms=0)  # a table's change is quick

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def http_error(request: Request, exc: Exception) -> Response:
        if not isinstance(exc, HTTPException):
            return _error(500, "internal error (see the server's log)")
        headers = dict(exc.headers or {})
        message = {404: f"no such page: {request.url.path}",
                   405: f"method {request.method} not allowed for {request.url.path}"
                        + (f" (use {headers['Allow']})" if "Allow" in headers else "")}.get(exc.status_code,
                                                                                           str(exc.detail))
        return _error(exc.status_code, message, headers=headers)

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return _refused(exc)

    app = Starlette(routes=[Route("/", index), Route("/favicon.ico", favicon),
                            Route("/api/engine", engine_endpoint, methods=["POST"]),
                            Route("/api/stream", stream_endpoint, methods=["POST"]),
                            *table_routes(tables, feed, read_body, _answer, call),
                            Route("/play/{game}/{key}", index), Route("/table/{game}/{key}", index),
                            Mount("/static", app=StaticFiles(directory=STATIC), name="static")],
                    middleware=[Middleware(Hygiene, host_check=HostCheck(host, allow_remote, allowed_hosts))],
                    exception_handlers={HTTPException: http_error, 500: http_error, Refused: refused},
                    lifespan=lifespan)
    app.state.pages = pages
    app.state.tables = tables
    app.state.feed = feed
    return app


def _answer(status: int, body: dict[str, Any]) -> Response:
    return _json(body, status)


def _limit_ms(limits: Limits, capacity: Capacity) -> int:
    """An engine seat's search's time, for the scheduler's lanes: its time limit, else the server's cap."""
    return capacity.max_time_ms if limits.time_ms is None else min(limits.time_ms, capacity.max_time_ms)


class _Server(uvicorn.Server):
    """uvicorn's server whose first SIGINT or SIGTERM also stops the searches and ends the table server's event
    streams (open pages hold them open), so that one Ctrl-C ends it at once: the queued queries are answered 503,
    the running ones terminated (they answer), then uvicorn closes."""

    def __init__(self, config: uvicorn.Config, pages: Pages, feed: Feed) -> None:
        super().__init__(config)
        self.pages = pages
        self.feed = feed

    def handle_exit(self, sig: int, frame: Any) -> None:
        if not self.should_exit:
            self.pages.stop()
            self.feed.close()
        super().handle_exit(sig, frame)


def _quiet_logs() -> None:
    """One line per event on stderr for the board's own log (abandoned requests, a failing job)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("memory-solver: %(message)s"))
    for name in ("solver.web", "solver.scheduler"):
        logger = logging.getLogger(name)
        logger.setLevel(logging.INFO)
        logger.addHandler(handler)
        logger.propagate = False


def serve(host: str = "127.0.0.1", port: int = 8765, capacity: Capacity | None = None,
          allow_remote: bool = False, db: str | Path | None = None) -> int:
    """Run the web board until interrupted (one SIGINT or SIGTERM stops it within 2 s), its games kept in ``db``
    (default: the user's data directory)."""
    _quiet_logs()
    path = default_path() if db is None else Path(db)
    app = build_app(capacity=capacity or Capacity(), host=host, allow_remote=allow_remote, db=path)
    shown = f"[{host}]" if ":" in host else host
    sys.stdout.write(f"memory-solver: the games are kept in {path}\n")
    sys.stdout.write(f"memory-solver: the web board is at http://{shown}:{port}/ (Ctrl-C to stop)\n")
    sys.stdout.flush()
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            http=json_http_protocol(), timeout_graceful_shutdown=1)
    _Server(config, app.state.pages, app.state.feed).run()
    return 0
