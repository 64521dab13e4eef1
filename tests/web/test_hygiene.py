"""The web board's HTTP hygiene (solver/web/hygiene.py) on a small app of its own: Host (DNS rebinding), Origin,
Content-Type, body size, security headers on every response, every error as JSON, quiet disconnects."""

import asyncio
import json
import logging

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.testclient import TestClient

from solver.web.hygiene import (MAX_BODY_BYTES, SECURITY_HEADERS, Hygiene, HostCheck, binds_only_loopback, host_name,
                                same_origin)
from solver.testing import serving

BASE = "http://127.0.0.1:8765"


@pytest.fixture
def app(tmp_path):
    (tmp_path / "style.css").write_text("body { color: black }")

    async def index(request):
        return HTMLResponse("<p>board</p>")

    async def echo(request):
        return JSONResponse({"got": json.loads(await request.body())})

    async def teapot(request):
        return PlainTextResponse("short and stout", status_code=418)

    return Starlette(routes=[Route("/", index), Route("/api/echo", echo, methods=["POST"]), Route("/teapot", teapot),
                             Mount("/static", app=StaticFiles(directory=tmp_path))],
                     middleware=[Middleware(Hygiene, host_check=HostCheck("127.0.0.1"))])


@pytest.fixture
def client(app):
    return TestClient(app, base_url=BASE)


def post_json(client, body=b'{"a": 1}', **headers):
    return client.post("/api/echo", content=body, headers={"Content-Type": "application/json", **headers})


def is_json_error(response, status, field=None):
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"id", "error", "field"} and body["field"] == field, body
    return body


def has_security_headers(response):
    for name, value in SECURITY_HEADERS.items():
        assert response.headers.get(name) == value, name
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


@pytest.mark.parametrize("host", ["127.0.0.1:8765", "localhost:8765", "localhost", "[::1]:8765", "127.0.0.2",
                                  "board.localhost:8765", "LOCALHOST."])
def test_local_names_are_served(client, host):
    response = client.get("/", headers={"Host": host})
    assert response.status_code == 200 and response.text == "<p>board</p>"
    has_security_headers(response)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1.evil.example", "192.168.1.5:8765",
                                  "localhost:http", "[::1", ""])
def test_a_foreign_host_is_refused_dns_rebinding(client, host):
    body = is_json_error(client.get("/", headers={"Host": host}), 403, "Host")
    assert "does not answer" in body["error"] or "Host header" in body["error"]
    assert post_json(client, Host=host).status_code == 403


def test_remote_serving_accepts_addresses_and_the_machines_names_but_not_other_names():
    check = HostCheck("0.0.0.0", allow_remote=True, extra=["board.lan"])
    assert check.allows("192.168.1.5:8765") and check.allows("[fe80::1]:80") and check.allows("board.lan")
    assert not check.allows("evil.example") and not check.allows(None)
    local = HostCheck("127.0.0.1")
    assert not local.allows("192.168.1.5") and local.allows("127.0.0.1:1")
    assert host_name("[::1]:80") == "::1" and host_name("a:b") is None


def test_binding_a_network_address_is_not_loopback():
    assert binds_only_loopback("127.0.0.1") and binds_only_loopback("localhost") and binds_only_loopback("::1")
    assert not binds_only_loopback("0.0.0.0") and not binds_only_loopback("::")
    assert not binds_only_loopback("192.168.1.5")


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:9999", "https://127.0.0.1:8765",
                                    "null", "file://", "http://localhost:8765"])
def test_a_post_from_another_origin_is_refused(client, origin):
    body = is_json_error(post_json(client, Origin=origin), 403, "Origin")
    assert "another site" in body["error"]


def test_a_post_from_the_page_itself_or_without_origin_is_served(client):
    assert post_json(client, Origin=BASE).json() == {"got": {"a": 1}}
    assert post_json(client, Origin="http://127.0.0.1:8765").status_code == 200
    assert post_json(client).status_code == 200
    assert post_json(client, **{"Sec-Fetch-Site": "same-origin"}).status_code == 200
    is_json_error(post_json(client, **{"Sec-Fetch-Site": "cross-site"}), 403, "Origin")
    assert same_origin("http://[::1]:8765", "[::1]:8765", "http") and same_origin("http://a", "a:80", "http")


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                                  None, "application/jsonp"])
def test_api_posts_must_say_json(client, kind):
    headers = {} if kind is None else {"Content-Type": kind}
    response = client.post("/api/echo", content=b'{"a": 1}', headers=headers)
    body = is_json_error(response, 415, "Content-Type")
    assert "application/json" in body["error"]
    has_security_headers(response)
    assert post_json(client, **{"Content-Type": "application/json; charset=utf-8"}).status_code == 200


def test_bodies_over_the_limit_are_refused_by_length_or_while_read(client):
    big = b'{"a": "' + b"x" * MAX_BODY_BYTES + b'"}'
    is_json_error(post_json(client, big), 413, "Content-Length")

    def chunks():
        yield b'{"a": "'
        for _ in range(20):
            yield b"x" * (MAX_BODY_BYTES // 10)
        yield b'"}'
    response = client.post("/api/echo", content=chunks(), headers={"Content-Type": "application/json"})
    is_json_error(response, 413, "Content-Length")
    is_json_error(post_json(client, **{"Content-Length": "12x"}), 400, "Content-Length")


def test_every_error_and_redirect_is_json_with_the_security_headers(client):
    missing = client.get("/nowhere")
    assert is_json_error(missing, 404)["error"] == "no such page: /nowhere"
    has_security_headers(missing)
    wrong_method = client.get("/api/echo")
    assert "not allowed" in is_json_error(wrong_method, 405)["error"] and wrong_method.headers["allow"] == "POST"
    moved = client.get("/static", follow_redirects=False)
    assert moved.status_code in (307, 308) and moved.headers["location"].endswith("/static/")
    assert is_json_error(moved, moved.status_code)["error"].startswith("moved to")
    has_security_headers(moved)
    assert is_json_error(client.get("/static/none.css"), 404)
    assert is_json_error(client.get("/teapot"), 418)["error"] == "i'm a teapot"
    head = client.head("/nowhere")
    assert head.status_code == 404 and head.content == b""


def test_static_files_carry_the_security_headers(client):
    response = client.get("/static/style.css")
    assert response.status_code == 200 and "color" in response.text
    has_security_headers(response)
    again = client.get("/static/style.css", headers={"If-None-Match": response.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    has_security_headers(again)


def test_a_client_that_leaves_mid_body_is_one_log_line_not_a_traceback(app, caplog):
    messages = [{"type": "http.request", "body": b'{"a": ', "more_body": True}, {"type": "http.disconnect"}]
    sent = []

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/api/echo", "raw_path": b"/api/echo", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"127.0.0.1:8765"), (b"content-type", b"application/json")],
             "client": ("127.0.0.1", 5555), "server": ("127.0.0.1", 8765)}

    with caplog.at_level(logging.INFO, logger="solver.web"):
        asyncio.run(app(scope, receive, send))
    lines = [r for r in caplog.records if r.name == "solver.web"]
    assert len(lines) == 1 and "abandoned: POST /api/echo from 127.0.0.1" in lines[0].getMessage()
    assert "Traceback" not in caplog.text
    assert sent == []


def test_malformed_http_that_never_reaches_the_app_is_answered_as_json(app):
    import socket

    from solver.web.hygiene import json_http_protocol
    with serving(app, log_level="critical", http=json_http_protocol()) as url:
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
            connection.sendall(b"GARBAGE\r\n\r\n")
            reply = b""
            while chunk := connection.recv(4096):
                reply += chunk
        head, _, body = reply.decode().partition("\r\n\r\n")
        assert head.startswith("HTTP/1.1 400") and "content-type: application/json" in head.lower()
        assert "frame-ancestors 'none'" in head
        assert json.loads(body) == {"id": None, "error": "malformed HTTP request (Invalid HTTP request received)",
                                    "field": None}
