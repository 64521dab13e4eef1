"""The table server's HTTP routes (``docs/web.md``, "The table server"): games, seats and their events.

Thin on purpose: each route reads its request (with the server's own body reader, so the server's checks apply
to every route), runs the game's work on a worker thread (:mod:`solver.web.seats`) and answers JSON. A wrong key
is answered exactly like an unknown game (404, the same body, one database lookup either way). Keys are never
logged: they appear only in the answer to the request that created them and in the path of their own requests.

``GET .../events`` is a server-sent event stream: an event ``change`` with the key's own answer (its seat's view,
or the table's public information) at once and after every change of the game; ``retry: 1000`` makes a page
that lost the server (a restart) reconnect within a second.
"""

from __future__ import annotations

import asyncio
import io
import json
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

import segno

from solver.errors import SolverError
from solver.validate import check_keys
from solver.web.hygiene import client_address
from solver.web.seats import Conflict, Created, Forbidden, NotFound, Table, Tables

#: the body of every 404 for a game: an unknown game and a key that does not open it get the same
NOT_FOUND = {"id": None, "error": "no such game (or this key does not open it)", "field": "key"}
#: seconds between keep-alive comments on an idle event stream
KEEP_ALIVE = 15.0

ReadBody = Callable[[Request], Awaitable[dict[str, Any] | Response]]
Answer = Callable[[int, dict[str, Any]], Response]
#: ``call(request, work)``: run the blocking ``work()`` off the event loop for ``request`` and return its result
Call = Callable[[Request, Callable[[], Any]], Awaitable[Any]]


async def in_threadpool(request: Request, work: Callable[[], Any]) -> Any:
    """The default :data:`Call`: Starlette's thread pool."""
    return await run_in_threadpool(work)


class Feed:
    """Who listens to which game: each open event stream has a queue that :meth:`changed` (any thread) wakes."""

    def __init__(self) -> None:
        self._queues: dict[str, set[asyncio.Queue]] = {}
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None

    def listen(self, game_id: str) -> asyncio.Queue:
        self._loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue(maxsize=1)
        with self._lock:
            self._queues.setdefault(game_id, set()).add(queue)
        return queue

    def leave(self, game_id: str, queue: asyncio.Queue) -> None:
        with self._lock:
            listeners = self._queues.get(game_id, set())
            listeners.discard(queue)
            if not listeners:
                self._queues.pop(game_id, None)

    def changed(self, game_id: str) -> None:
        """Wake every stream of ``game_id`` (safe from any thread; a stream already woken stays woken once)."""
        loop = self._loop
        with self._lock:
            queues = list(self._queues.get(game_id, ()))
        if loop is None or not queues or loop.is_closed():
            return
        for queue in queues:
            loop.call_soon_threadsafe(_wake, queue)

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        loop = self._loop
        with self._lock:
            queues = [q for listeners in self._queues.values() for q in listeners]
        if loop is not None and not loop.is_closed():
            for queue in queues:
                loop.call_soon_threadsafe(_wake, queue, None)


def _wake(queue: asyncio.Queue, item: Any = True) -> None:
    if queue.full():
        if item is not None:
            return
        queue.get_nowait()
    queue.put_nowait(item)


def table_routes(tables: Tables, feed: Feed, read_body: ReadBody, answer: Answer,
                 call: Call = in_threadpool) -> list[Route]:
    """The routes of the table server. ``read_body(request)`` is the server's body reader (its size limit and
    checks; a ``Response`` when it refuses); ``answer(status, body)`` the server's JSON response (its headers);
    ``call(request, work)`` runs a request's blocking work (the server's workers)."""

    def failed(exc: Exception, table: Table | None = None, seat: int | None = None) -> Response:
        if isinstance(exc, NotFound):
            return answer(404, dict(NOT_FOUND))
        if isinstance(exc, Conflict):
            body = {"error": str(exc), "field": exc.field}
            if table is not None:
                body = {**_answer_of(table, seat), **body}
            return answer(409, body)
        if isinstance(exc, Forbidden):
            return answer(403, {"id": None, "error": str(exc), "field": exc.field})
        if isinstance(exc, SolverError):
            return answer(400, {"id": None, "error": str(exc), "field": exc.field})
        raise exc

    async def opened(request: Request) -> tuple[Table, int | None]:
        return await call(request, lambda: tables.open(request.path_params["game"], request.path_params["key"],
                                                       client_address(request.scope)))

    async def create(request: Request) -> Response:
        body = await read_body(request)
        if isinstance(body, Response):
            return body
        try:
            created: Created = await call(request, lambda: tables.create(body, client_address(request.scope)))
        except Exception as exc:
            return failed(exc)
        base = str(request.base_url).rstrip("/")
        return answer(200, {"id": created.id,
                            "seats": [{"player": p, "key": k, "url": f"{base}/play/{created.id}/{k}"}
                                      for p, k in sorted(created.keys.items())],
                            "table": f"{base}/table/{created.id}/{created.table_key}"})

    async def show(request: Request) -> Response:
        try:
            table, seat = await opened(request)
            return answer(200, await call(request, lambda: _answer_of(table, seat)))
        except Exception as exc:
            return failed(exc)

    def change(action: Callable[[Table, int | None, dict[str, Any], str], Any],
               ) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            body = await read_body(request)  # first: the server's workers watch the connection once it is read
            if isinstance(body, Response):
                return body
            try:
                table, seat = await opened(request)
            except Exception as exc:
                return failed(exc)
            try:
                await call(request, lambda: action(table, seat, body, client_address(request.scope)))
                return answer(200, await call(request, lambda: _answer_of(table, seat)))
            except Exception as exc:
                return failed(exc, table, seat)
        return endpoint

    def play(table: Table, seat: int | None, body: dict[str, Any], client: str) -> None:
        _only(body, ("moves", "expect"))
        tables.play(table, seat, body.get("moves"), body.get("expect"), client)

    def undo(table: Table, seat: int | None, body: dict[str, Any], client: str) -> None:
        _only(body, ("expect",))
        tables.undo(table, seat, body.get("expect"), client)

    def redo(table: Table, seat: int | None, body: dict[str, Any], client: str) -> None:
        _only(body, ("expect",))
        tables.redo(table, seat, body.get("expect"), client)

    async def record(request: Request) -> Response:
        try:
            table, seat = await opened(request)
            return answer(200, (await call(request, lambda: _full_record(table, seat))).to_json())
        except Exception as exc:
            return failed(exc)

    async def reveal(request: Request) -> Response:
        body = await read_body(request)  # ``{}``; read first, as every post's
        if isinstance(body, Response):
            return body
        try:
            _only(body, ())
            table, seat = await opened(request)
            return answer(200, (await call(request, lambda: tables.reveal(table, seat))).to_json())
        except Exception as exc:
            return failed(exc)

    async def qr(request: Request) -> Response:
        """The QR code (SVG, ``segno``) of this key's page link: a phone's camera opens the seat."""
        try:
            table, seat = await opened(request)
        except Exception as exc:
            return failed(exc)
        kind = "table" if seat is None else "play"
        base = str(request.base_url).rstrip("/")
        link = f"{base}/{kind}/{request.path_params['game']}/{request.path_params['key']}"
        return Response(_qr_svg(link, "the table" if seat is None else f"seat {seat}"), media_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        try:
            table, seat = await opened(request)
        except Exception as exc:
            return failed(exc)
        game_id, key = table.stored.id, request.path_params["key"]
        queue = feed.listen(game_id)

        async def stream():
            try:
                yield "retry: 1000\n\n"
                last = None
                while True:
                    try:  # the game as the server holds it now (one kept in memory may have been reloaded)
                        body = await run_in_threadpool(_current_answer, tables, game_id, key, seat)
                    except NotFound:
                        return
                    text = json.dumps(body, allow_nan=False)
                    if text != last:
                        last = text
                        yield f"event: change\nid: {body['revision']}\ndata: {text}\n\n"
                    try:
                        item = await asyncio.wait_for(queue.get(), timeout=KEEP_ALIVE)
                    except asyncio.TimeoutError:
                        if await request.is_disconnected():
                            return
                        yield ": keep-alive\n\n"
                        continue
                    if item is None:
                        return
            finally:
                feed.leave(game_id, queue)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    one = "/api/games/{game}/{key}"
    return [Route("/api/games", create, methods=["POST"]),
            Route(one, show, methods=["GET"]),
            Route(f"{one}/moves", change(play), methods=["POST"]),
            Route(f"{one}/undo", change(undo), methods=["POST"]),
            Route(f"{one}/redo", change(redo), methods=["POST"]),
            Route(f"{one}/events", events, methods=["GET"]),
            Route(f"{one}/record", record, methods=["GET"]),
            Route(f"{one}/reveal", reveal, methods=["POST"]),
            Route(f"{one}/qr", qr, methods=["GET"])]


def _answer_of(table: Table, seat: int | None) -> dict[str, Any]:
    with table.lock:
        return table.answer(seat)


def _current_answer(tables: Tables, game_id: str, key: str, seat: int | None) -> dict[str, Any]:
    """What an event stream sends now: the key's answer from the game as the server holds it (a quick read, on
    Starlette's thread pool rather than the workers a client's queries queue for)."""
    table, _ = tables.open(game_id, key)
    return _answer_of(table, seat)


def _full_record(table: Table, seat: int | None) -> Any:
    with table.lock:
        return table.full_record(seat)


def _only(body: dict[str, Any], keys: tuple[str, ...]) -> None:
    check_keys(body, keys, "body")


def _qr_svg(link: str, title: str) -> bytes:
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False, title=title,
                                     svgclass="qr")
    return out.getvalue()
