"""Seeded fuzzing of the engine: mutations of real queries for every game and action (``tests/test_engine_fuzz.py``,
``benchmarks/bench_engine.py``).

:func:`base_queries` builds well-formed queries for every game and action from
dealt positions and the worked examples of ``docs/engine.md``; :func:`mutate`
damages one in a seeded way (wrong types, out-of-range and huge numbers, NaN,
truncation, deep nesting, long lines, byte flips in notations, missing keys);
:func:`check_answers` asserts the engine's promises: one final answer per id,
no internal error, never a traceback. :func:`probe` times one query (and its terminate) on an in-process engine
(the limit and terminate tests and benchmarks).
"""

from __future__ import annotations

import io
import json
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solver.engine import Engine
from solver.registry import game_names, load_game
from solver.testing import TimedLines, random_action

DOCS_ENGINE = Path(__file__).resolve().parent.parent / "docs" / "engine.md"
#: actions whose answers come fast enough to fuzz by the thousand
FAST_ACTIONS = ("legal_moves", "score", "apply", "view", "show", "hint", "solve", "new", "review")


@dataclass
class Probe:
    """One query's run: seconds from the query (or from its terminate) to its final answer, that answer, the
    interim reports, and whether it had finished before the terminate was sent."""

    seconds: float
    answer: dict[str, Any]
    interim: list[dict[str, Any]]
    finished_early: bool


def probe(query: dict[str, Any], terminate_after: float | None = None, wait_for_report: bool = False,
          threads: int = 1) -> Probe:
    """Send ``query`` (as id ``q``) to a fresh in-process engine; with ``terminate_after`` seconds, terminate it
    then (with ``wait_for_report``, not before its first answer line: a loaded machine may start it late)."""
    out = TimedLines()
    engine = Engine(out, threads=threads)
    sent = time.perf_counter()
    engine.handle_line(json.dumps({**query, "id": "q"}))
    finished_early = False
    if terminate_after is not None:
        time.sleep(terminate_after)
        waited = time.perf_counter()
        while wait_for_report and not out.lines and time.perf_counter() - waited < 10:
            time.sleep(0.01)
        finished_early = bool(out.of("q"))
        sent = time.perf_counter()
        engine.handle_line(json.dumps({"id": "t", "action": "terminate", "terminateId": "q"}))
    engine.close()
    [(answered, answer)] = out.of("q")
    return Probe(answered - sent, answer, [r for _, r in out.of("q", interim=True)], finished_early)


def _advanced(game: Any, seed: int, steps: int) -> Any:
    """A dealt game advanced by a few seeded random moves (chance outcomes included)."""
    rng = np.random.default_rng(seed)
    state = game.new_game(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(random_action(state, rng))
    return state


def base_queries(limits: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Well-formed queries for every game and action (without ``id``)."""
    limits = limits or {"nodes": 20, "time_ms": 50}
    out: list[dict[str, Any]] = []
    for name in game_names():
        game = load_game(name)
        out.append({"game": name, "action": "new", "seed": 1})
        for seed, steps in ((1, 0), (2, 5)):
            state = _advanced(game, seed, steps)
            json_state, notation = state.to_json(), state.to_notation()
            first = state.action_to_string(state.legal_actions()[0]) if not state.is_terminal() else None
            for payload in (json_state, notation):
                out.append({"game": name, "action": "legal_moves", "state": payload})
                out.append({"game": name, "action": "score", "state": payload})
                out.append({"game": name, "action": "hint", "state": payload, "top": 2, "limits": dict(limits)})
                out.append({"game": name, "action": "solve", "state": payload, "limits": dict(limits)})
                out.append({"game": name, "action": "view", "state": payload, "player": 0})
                out.append({"game": name, "action": "show", "state": payload, "svg": False})
                if first is not None:
                    out.append({"game": name, "action": "apply", "state": payload, "moves": [first]})
            if first is not None:
                record = {"format": "memory-solver-record", "version": 1, "game": game.spec(), "start": json_state,
                          "moves": [{"move": first}]}
                out.append({"game": name, "action": "review", "record": record, "limits": dict(limits),
                            "player": max(0, state.current_player())})
    out.extend(documented_queries())
    return out


def documented_queries() -> list[dict[str, Any]]:
    """The query lines of ``docs/engine.md``'s worked examples (without ``id``), where the docs are present."""
    if not DOCS_ENGINE.exists():
        return []
    text = DOCS_ENGINE.read_text(encoding="utf-8")
    found = []
    for line in re.findall(r'^(\{"id": .*)$', text, flags=re.M):
        try:
            query = json.loads(line)
        except ValueError:
            continue
        if isinstance(query, dict):
            query.pop("id", None)
            found.append(query)
    return found


_WRONG_VALUES: list[Any] = [None, True, False, 0, -1, 2.0, 1.5, "", "x", [], [1], {}, {"a": 1}, 10**30, -(10**30),
                            1e308, "\u0000", "é" * 3]
_RAW_NUMBERS = ["NaN", "Infinity", "-Infinity", "9" * 5000, "1e400", "-0", "1" + "0" * 45]


def mutate(query: dict[str, Any], rng: random.Random, qid: str) -> tuple[str, bool]:
    """One damaged query line, and whether its id is still readable (so an answer must carry that id)."""
    q = json.loads(json.dumps(query))
    q["id"] = qid
    kind = rng.randrange(12)
    keys = [k for k in q if k != "id"]
    if kind == 0 and keys:                       # a key dropped
        q.pop(rng.choice(keys))
    elif kind == 1 and keys:                     # a wrong type or value
        q[rng.choice(keys)] = rng.choice(_WRONG_VALUES)
    elif kind == 2:                              # a raw number JSON forbids or that is huge
        key = rng.choice(keys + ["top", "player", "seed", "priority", "terminateId"])
        line = json.dumps({k: v for k, v in q.items() if k != key})
        return line[:-1] + f', "{key}": {rng.choice(_RAW_NUMBERS)}}}', True
    elif kind == 3:                              # truncated
        line = json.dumps(q)
        return line[:rng.randrange(1, max(2, len(line)))], False
    elif kind == 4 and keys:                     # deep nesting
        depth = rng.choice((50, 1000, 100_000))
        line = json.dumps({k: v for k, v in q.items() if k != keys[0]})
        return line[:-1] + f', "{keys[0]}": ' + "[" * depth + "]" * depth + "}", True
    elif kind == 5:                              # a long line
        q[rng.choice(keys + ["state"])] = "A" * rng.choice((1000, 100_000))
    elif kind == 6 and isinstance(q.get("state"), str) and q["state"]:  # byte flips in a notation
        chars = list(q["state"])
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(len(chars))
            chars[i] = rng.choice("?.,;:/|#0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ -")
        q["state"] = "".join(chars)
    elif kind == 7 and isinstance(q.get("state"), dict):  # a field deep inside the state damaged
        _damage_deep(q["state"], rng)
    elif kind == 8:                              # numbers as floats and limits out of range
        q[rng.choice(("top", "player", "seed"))] = rng.choice((2.0, 1.0, 3.5, -0.0))
        q["limits"] = rng.choice(({"nodes": 0}, {"time_ms": -5}, {"nodes": 2.0}, {"time_ms": "10"}, {"x": 1}))
    elif kind == 9:                              # an unknown key or action
        q[rng.choice(("action", "colour", "game"))] = rng.choice(("dance", "hint", "nope(x=1)", "aetherya(players=9)"))
    elif kind == 10:                             # moves of the wrong shape
        q["moves"] = rng.choice((["take"], ["?"], "flip a1", [1, 2], [None], ["x" * 300]))
    else:                                        # the query itself, unharmed (the engine must still answer)
        pass
    return json.dumps(q), True


def _damage_deep(obj: Any, rng: random.Random) -> None:
    for _ in range(8):
        if not isinstance(obj, (dict, list)) or not obj:
            return
        key = rng.choice(list(obj)) if isinstance(obj, dict) else rng.randrange(len(obj))
        if rng.random() < 0.4 or not isinstance(obj[key], (dict, list)) or not obj[key]:
            obj[key] = rng.choice(_WRONG_VALUES)
            return
        obj = obj[key]


def _mutations(count: int, rng: random.Random, queries: list[dict[str, Any]] | None,
               prefix: str) -> Iterator[tuple[str, str, bool]]:
    """``count`` mutations (:func:`mutate`) of queries drawn from ``queries`` (default :func:`base_queries`):
    ``(id, line, id_readable)``, the ids ``prefix0``, ``prefix1``, ..."""
    pool = queries if queries is not None else base_queries()
    for n in range(count):
        qid = f"{prefix}{n}"
        line, readable = mutate(rng.choice(pool), rng, qid)
        yield qid, line, readable


def campaign(count: int, seed: int, queries: list[dict[str, Any]] | None = None) -> list[tuple[str, str, bool]]:
    """``count`` seeded mutations: ``(id, line, id_readable)``."""
    return list(_mutations(count, random.Random(seed), queries, "f"))


def run_campaign(lines: list[tuple[str, str, bool]], threads: int = 2, max_time_ms: int = 50) -> list[dict[str, Any]]:
    """Every line through one engine; the answers, parsed."""
    out = io.StringIO()
    engine = Engine(out, threads=threads, max_time_ms=max_time_ms, max_queue=len(lines) + 1)  # inputs, not admission
    engine.serve([line for _, line, _ in lines] + ['{"id": "alive", "action": "query_version"}'])
    return [json.loads(line) for line in out.getvalue().splitlines()]


def check_answers(lines: list[tuple[str, str, bool]], answers: list[dict[str, Any]],
                  allow_internal: bool = False) -> dict[str, int]:
    """Assert the engine's promises (one answer per readable id, the engine still serving, and unless
    ``allow_internal`` no internal error); returns counts of answers by kind."""
    finals: dict[Any, int] = {}
    counts = {"answers": 0, "errors": 0, "warnings": 0, "interim": 0, "internal": 0}
    for answer in answers:
        text = json.dumps(answer)
        if "internal error" in text:
            counts["internal"] += 1
        assert allow_internal or "internal error" not in text, answer
        assert "Traceback" not in text, answer
        if "warning" in answer:
            counts["warnings"] += 1
            continue
        if answer.get("isDuringSearch"):
            counts["interim"] += 1
            continue
        if "turnNumber" in answer and answer is not None:
            finals[(answer.get("id"), "turn", answer["turnNumber"])] = 1
            counts["answers"] += 1
            continue
        counts["errors" if "error" in answer else "answers"] += 1
        finals[answer.get("id")] = finals.get(answer.get("id"), 0) + 1
    for qid, _, readable in lines:
        if readable:
            got = finals.get(qid, 0) + sum(1 for key in finals if isinstance(key, tuple) and key[0] == qid)
            assert got >= 1, f"no answer for {qid}"
            assert finals.get(qid, 0) <= 1, f"{finals[qid]} answers for {qid}"
    assert finals.get("alive") == 1, "the engine stopped serving"
    return counts


# -- the HTTP layer (the web board's /api/engine and /api/stream, in process) -----------------------------------
#: statuses the web board may answer a fuzzed request with (500 only for an internal error, which fails the check)
HTTP_STATUSES = frozenset({200, 307, 400, 403, 404, 405, 413, 415, 429, 503})
#: the host the in-process client names (a local name: the server refuses others)
HTTP_BASE = "http://localhost:8765"


def http_campaign(count: int, seed: int, queries: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """``count`` seeded HTTP requests: most carry a mutated engine query (:func:`mutate`) to ``/api/engine`` or
    ``/api/stream``; the others damage the request itself (method, path, Content-Type, Origin, Host, bytes that are
    not UTF-8, an empty body). Each is ``{"id", "method", "path", "headers", "body", "readable"}``; ``readable``
    says the answer must carry ``id``."""
    rng = random.Random(seed)
    out = []
    for qid, line, readable in _mutations(count, rng, queries, "h"):
        case = {"id": qid, "method": "POST", "path": "/api/engine", "body": line.encode("utf-8"),
                "headers": {"Content-Type": "application/json"}, "readable": readable}
        kind = rng.randrange(16)
        if kind < 3:
            case["path"] = "/api/stream"
        elif kind == 3:
            case["headers"]["Content-Type"] = rng.choice(("text/plain", "application/x-www-form-urlencoded", ""))
            case["readable"] = False
        elif kind == 4:
            case["headers"]["Origin"] = rng.choice(("http://evil.example", "null", "http://localhost:1"))
            case["readable"] = False
        elif kind == 5:
            case["headers"]["Host"] = rng.choice(("evil.example", "evil.example:8765", "10.1.2.3", "[::1"))
            case["readable"] = False
        elif kind == 6:
            case["method"] = rng.choice(("GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"))
            case["readable"] = False
        elif kind == 7:
            case["path"] = rng.choice(("/api/engine/", "/api", "/api/nothing", "/static", "/static/../x", "/%00"))
            case["readable"] = False
        elif kind == 8:
            case["body"] = rng.choice((b"", b"\xff\xfe{}", b"{\"id\": \"" + qid.encode() + b"\", \"x\": \"\xc3\"}"))
            case["readable"] = False
        elif kind == 10 and rng.random() < 0.2:
            case["body"] = b'{"id": "' + qid.encode() + b'", "state": "' + b"x" * (2 * 1024 * 1024) + b'"}'
            case["readable"] = False
        elif kind == 9:
            control = rng.choice(({"action": "query_version", "colour": "red"}, {"action": "terminate"},
                                  {"action": "terminate", "terminateId": [1]}, {"action": "terminate_all"},
                                  {"action": "query_version", "limits": {"nodes": 2 ** 70}}))
            case["body"] = json.dumps({"id": qid, **control}).encode("utf-8")
            case["readable"] = True
        out.append(case)
    return out


def run_http_campaign(cases: list[dict[str, Any]], app: Any) -> list[dict[str, Any]]:
    """Every case through ``app`` (the web board's ASGI application) in process; each response as
    ``{"status", "headers", "answers"}`` (``answers``: the JSON body, or each server-sent event's), then a final
    ``query_version`` to show the server still serves."""
    # starlette's test client is imported here, not at the top: the stdin fuzzer above needs no web stack
    from starlette.testclient import TestClient
    results = []
    with TestClient(app, base_url=HTTP_BASE, raise_server_exceptions=False) as client:
        for case in [*cases, {"id": "alive", "method": "POST", "path": "/api/engine", "readable": True,
                              "headers": {"Content-Type": "application/json"},
                              "body": b'{"id": "alive", "action": "query_version"}'}]:
            response = client.request(case["method"], case["path"], content=case["body"], headers=case["headers"],
                                      follow_redirects=False)
            results.append({"status": response.status_code, "headers": dict(response.headers),
                            "text": response.text[:300],
                            "answers": _http_answers(response.text, response.headers.get("content-type", ""),
                                                     case["method"])})
    return results


def _http_answers(text: str, content_type: str, method: str) -> list[Any] | None:
    """The JSON answers of a response (``None`` when it is not JSON)."""
    try:
        if method == "HEAD" and not text:
            return []
        if content_type.startswith("text/event-stream"):
            return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]
        if content_type.startswith("application/json"):
            return [json.loads(text)]
    except ValueError:
        pass
    return None


def check_http_answers(cases: list[dict[str, Any]], results: list[dict[str, Any]]) -> dict[str, int]:
    """Assert the web board's promises on each response: a known status (never 500), JSON (an SSE stream of JSON
    events), the security headers, no traceback, an error in the ``{"id", "error", "field"}`` form, a readable
    query's id echoed in every answer, exactly one final answer per id and turn; and the server still serving.
    Returns counts of responses by status."""
    counts: dict[str, int] = {}
    assert len(results) == len(cases) + 1
    for case, result in zip([*cases, {"id": "alive", "readable": True, "path": "/api/engine"}], results):
        status = result["status"]
        counts[str(status)] = counts.get(str(status), 0) + 1
        assert status in HTTP_STATUSES, (case, result)
        assert result["answers"] is not None, ("not JSON", case, result)
        headers = {k.lower(): v for k, v in result["headers"].items()}
        assert "frame-ancestors 'none'" in headers.get("content-security-policy", ""), (case, headers)
        assert headers.get("x-content-type-options") == "nosniff", (case, headers)
        for answer in result["answers"]:
            text = json.dumps(answer)
            assert "Traceback" not in text and "internal error" not in text, (case, answer)
            if status != 200 or "error" in answer:
                assert {"id", "error", "field"} <= set(answer), (case, answer)
        if status == 200 and case["readable"]:
            assert result["answers"], (case, result)
            for answer in result["answers"]:
                assert answer.get("id") == case["id"], (case, answer)
        if status == 400 and case["readable"] and result["answers"]:
            assert result["answers"][-1]["id"] == case["id"], (case, result)
        if case.get("path") == "/api/stream" and status == 200:
            finals = [a for a in result["answers"] if not a.get("isDuringSearch") and "warning" not in a]
            turns = [a.get("turnNumber") for a in finals]
            assert finals and len(turns) == len(set(turns)), (case, finals)
    assert results[-1]["status"] == 200 and results[-1]["answers"][0].get("version"), "the server stopped serving"
    return counts
