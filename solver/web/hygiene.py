"""The web board's HTTP hygiene, as Jupyter Server does it for a local server (issue 23), in one ASGI middleware
that every route goes through (the board's, the table server's, the static files):

- **Host**: a request whose ``Host`` is not a loopback address, a ``localhost`` name or the bound address is
  refused (a page on ``http://evil.example:PORT`` that rebinds its name to 127.0.0.1 reaches nothing). With
  ``allow_remote`` any IP address and the machine's own names are accepted too.
- **Origin**: a state-changing request (POST, PUT, PATCH, DELETE) whose ``Origin`` (or ``Sec-Fetch-Site``) says
  another site sent it is refused; a client without ``Origin`` (curl, a script) is not a browser page and passes.
- **Content-Type**: a state-changing request to ``/api/`` must say ``application/json`` (which no cross-site form
  can send without a CORS preflight, and this server answers no preflight).
- **Body size**: a body over ``max_body_bytes`` is refused (413) by its ``Content-Length`` before it is read, or
  as soon as that many bytes have come.
- **Headers**: every response carries the security headers (:data:`SECURITY_HEADERS`: a CSP with
  ``frame-ancestors 'none'``, ``nosniff``, ``no-referrer``, ``X-Frame-Options``), static files included.
- **Errors**: every refusal and every error or redirect any route answers in another form (Starlette's plain-text
  404/405, a 307) goes out as JSON ``{"id": null, "error", "field"}`` with its status kept.
- **Quiet logs**: a client that goes away while sending its body is one line in the log, never a traceback.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import ClientDisconnect

LOG = logging.getLogger("solver.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: the largest request body (a game record of a long game is far smaller)
MAX_BODY_BYTES = 1024 * 1024
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
                               "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
#: methods that change something (the Origin and Content-Type checks apply to them)
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})


def error_body(message: str, field: str | None = None, qid: Any = None) -> bytes:
    """The JSON of an error answer: ``{"id", "error", "field"}``."""
    return json.dumps({"id": qid, "error": message, "field": field}).encode("utf-8")


def client_address(scope: Scope) -> str:
    """Who sent the request: the connection's address (never a header the client chose)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def host_name(header: str) -> str | None:
    """The name or address of a ``Host`` header without its port (``None`` when malformed)."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        rest = header[end + 1:]
        if end < 0 or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        return header[1:end]
    name, _, port = header.partition(":")
    if port and not port.isdigit():
        return None
    return name.rstrip(".") or None


def is_loopback(host: str) -> bool:
    """True for a loopback address or a ``localhost`` name."""
    if host in LOCAL_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def binds_only_loopback(host: str) -> bool:
    """True when binding ``host`` serves this machine only (every address it names is a loopback address)."""
    if is_loopback(host.lower()):
        return True
    try:
        ipaddress.ip_address(host)
        return False
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(found) and all(is_loopback(str(info[4][0])) for info in found)


class HostCheck:
    """Which ``Host`` names a request may carry: loopback addresses, ``localhost`` names and the bound address;
    with ``allow_remote`` also any IP address and this machine's own names; always the ``extra`` names."""

    def __init__(self, bound: str = "127.0.0.1", allow_remote: bool = False, extra: Iterable[str] = ()) -> None:
        self.allow_remote = allow_remote
        self.names = {bound.lower().strip("[]"), *(name.lower() for name in extra)}
        if allow_remote:
            for name in (socket.gethostname(), socket.getfqdn()):
                if name:
                    self.names.add(name.lower())

    def allows(self, header: str | None) -> bool:
        """True when a request with this ``Host`` header may be served."""
        if not header:
            return False
        host = host_name(header)
        if host is None:
            return False
        if is_loopback(host) or host in self.names:
            return True
        if self.allow_remote:
            try:
                ipaddress.ip_address(host)
                return True
            except ValueError:
                return False
        return False


def same_origin(origin: str, host_header: str, scheme: str) -> bool:
    """True when ``Origin`` names this server as the request reached it (scheme, host and port)."""
    if origin == "null":
        return False
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    default = 443 if parts.scheme == "https" else 80
    try:
        origin_port = parts.port or default
    except ValueError:
        return False
    here = urlsplit(f"{scheme}://{host_header}")
    try:
        here_port = here.port or (443 if scheme == "https" else 80)
    except ValueError:
        return False
    return parts.scheme == scheme and parts.hostname == here.hostname and origin_port == here_port


class BodyTooLarge(Exception):
    """A request body grew past the limit while it was read."""


class Hygiene:
    """The ASGI middleware: checks each request, adds the security headers, answers every error as JSON."""

    def __init__(self, app: ASGIApp, host_check: HostCheck | None = None, max_body_bytes: int = MAX_BODY_BYTES,
                 api_prefix: str = "/api/") -> None:
        self.app = app
        self.host_check = host_check or HostCheck()
        self.max_body_bytes = max_body_bytes
        self.api_prefix = api_prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        refusal = self.refusal(scope, headers)
        if refusal is not None:
            status, message, field = refusal
            await send_json(send, status, error_body(message, field), method=scope["method"])
            return
        response = _Response(send, scope)
        try:
            await self.app(scope, self._limited(receive), response.send)
        except BodyTooLarge:
            if not response.started:
                await send_json(send, 413, error_body(f"request larger than {self.max_body_bytes} bytes",
                                                      "Content-Length"), method=scope["method"])
        except ClientDisconnect:
            log_abandoned(scope, "the client went away while sending its request")

    def refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str, str | None] | None:
        """Why a request is refused before any route sees it (status, message, field), or ``None``."""
        host = headers.get("host")
        if not self.host_check.allows(host):
            return 403, (f"this server does not answer to the name {host!r} (it serves only its own address or "
                         "localhost; DNS rebinding)" if host else "a request needs a Host header"), "Host"
        method = scope["method"]
        if method in UNSAFE_METHODS:
            origin = headers.get("origin")
            if origin is not None and not same_origin(origin, host or "", scope.get("scheme", "http")):
                return 403, f"requests from another site are refused: Origin {origin[:200]!r}", "Origin"
            if origin is None and headers.get("sec-fetch-site") == "cross-site":
                return 403, "requests from another site are refused (Sec-Fetch-Site: cross-site)", "Origin"
            if scope["path"].startswith(self.api_prefix):
                kind = headers.get("content-type", "").split(";")[0].strip().lower()
                if kind != "application/json":
                    return 415, (f"the body must be JSON with Content-Type: application/json, not "
                                 f"{headers.get('content-type', 'none')!r}"[:300]), "Content-Type"
        length = headers.get("content-length")
        if length is not None:
            if not length.strip().isdigit():
                return 400, f"Content-Length is not a number: {length[:40]!r}", "Content-Length"
            if int(length) > self.max_body_bytes:
                return 413, f"request larger than {self.max_body_bytes} bytes", "Content-Length"
        return None

    def _limited(self, receive: Receive) -> Receive:
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body_bytes:
                    raise BodyTooLarge()
            return message
        return limited


class _Response:
    """Wraps ``send``: the security headers on every response; an error or a redirect that is not JSON replaced by
    the JSON error with the same status (and its ``Location`` or ``Allow`` header)."""

    def __init__(self, send: Send, scope: Scope) -> None:
        self._send = send
        self._scope = scope
        self.started = False
        self._replacement: Message | None = None

    async def send(self, message: Message) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            status = int(message["status"])
            headers = [(k, v) for k, v in message.get("headers", [])]
            content_type = next((v for k, v in headers if k.lower() == b"content-type"), b"").decode("latin-1")
            if _needs_json(status, content_type):
                kept = {k.lower(): v for k, v in headers if k.lower() in (b"location", b"allow", b"retry-after")}
                self._replacement = {"status": status, "kept": kept}
                return
            self.started = True
            await self._send({**message, "headers": _secured(headers, self._scope)})
            return
        if kind == "http.response.body" and self._replacement is not None:
            if not message.get("more_body", False):
                status, kept = self._replacement["status"], self._replacement["kept"]
                self.started = True
                await send_json(self._send, status, error_body(_status_message(status, self._scope, kept)),
                                extra=list(kept.items()), method=self._scope["method"])
            return
        await self._send(message)


def _needs_json(status: int, content_type: str) -> bool:
    if status < 300 or status == 304:
        return False
    return not content_type.lower().startswith("application/json")


def _status_message(status: int, scope: Scope, kept: dict[bytes, bytes]) -> str:
    path = scope.get("path", "")
    if status == 404:
        return f"no such page: {path}"
    if status == 405:
        allowed = kept.get(b"allow", b"").decode("latin-1")
        return f"method {scope.get('method')} not allowed for {path}" + (f" (use {allowed})" if allowed else "")
    if 300 <= status < 400:
        return f"moved to {kept.get(b'location', b'').decode('latin-1')}"
    try:
        return HTTPStatus(status).phrase.lower()
    except ValueError:
        return f"status {status}"


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in scope.get("headers", []):
        out.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
    return out


def _secured(headers: list[tuple[bytes, bytes]], scope: Scope) -> list[tuple[bytes, bytes]]:
    """``headers`` with the security headers set (replacing any of the same name); ``Cache-Control: no-store`` on
    API answers that set none."""
    names = {name.lower().encode("latin-1") for name in SECURITY_HEADERS}
    out = [(k, v) for k, v in headers if k.lower() not in names]
    out.extend((name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in SECURITY_HEADERS.items())
    if scope.get("path", "").startswith("/api/") and not any(k.lower() == b"cache-control" for k, _ in out):
        out.append((b"cache-control", b"no-store"))
    return out


async def send_json(send: Send, status: int, body: bytes, extra: list[tuple[bytes, bytes]] | None = None,
                    method: str = "GET") -> None:
    """Send a whole JSON response with the security headers (no body for HEAD)."""
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers.extend(extra or [])
    await send({"type": "http.response.start", "status": status,
                "headers": _secured(headers, {"path": "/api/"})})
    await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})


#: a path segment this long, of the characters of ``secrets.token_urlsafe``, is a key (a table server seat's link)
_KEY_SEGMENT = re.compile(r"[A-Za-z0-9_-]{20,}")


def loggable_path(path: str) -> str:
    """``path`` as the log may show it: a seat's key (``/play/ID/KEY``, ``/api/games/ID/KEY/moves``) as ``...``,
    never the key itself."""
    return "/".join("..." if _KEY_SEGMENT.fullmatch(part) else part for part in path.split("/"))


def log_abandoned(scope: Scope, what: str) -> None:
    """One line for a request its client abandoned (never a traceback, never a key)."""
    LOG.info("abandoned: %s %s from %s: %s", scope.get("method"), loggable_path(scope.get("path", "")),
             client_address(scope), what)


def json_http_protocol() -> type:
    """uvicorn's HTTP/1.1 protocol (h11) with its own refusals, the requests that never reach the application
    (malformed HTTP, headers too long), answered as JSON ``{"id", "error", "field"}`` with the security headers."""
    # uvicorn is imported here, not at the top: the middleware itself runs under any ASGI server (tests use none)
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class JsonH11Protocol(H11Protocol):
        def send_400_response(self, msg: str) -> None:
            body = error_body(f"malformed HTTP request ({msg.rstrip('.')})")
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                       (b"connection", b"close"), *_secured([], {"path": ""})]
            for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"), h11.Data(data=body),
                          h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
            self.transport.close()

    return JsonH11Protocol
