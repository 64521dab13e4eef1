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

import itertools
import json
import re
import queue
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, BinaryIO, TextIO

from solver.commands import default_limits, options_from_json
from solver.errors import InvalidInputError, SolverError
from solver.registry import game_names, load_game, parse_spec
from solver.search import Limits, SearchContext, check_seed
from solver.validate import (as_bool, as_choice, as_int, as_list, as_number, as_object, as_str, decode_json,
                             decode_json_lenient, find_out_of_range)
from solver.version import __version__
from solver import contract

SEARCH_ACTIONS = ("hint", "solve", "score", "legal_moves", "new", "view", "apply", "show", "generate", "check",
                  "review", "sample", "games")
CONTROL_ACTIONS = ("query_version", "terminate", "terminate_all")
ACTIONS = SEARCH_ACTIONS + CONTROL_ACTIONS
#: actions that need no ``state``
STATELESS_ACTIONS = ("new", "generate", "check", "review", "games")
QUERY_KEYS = {"id", "game", "action", "state", "limits", "top", "player", "fullInformation",
              "reportDuringSearchEvery", "seed", "terminateId", "moves", "analyzeTurns", "options", "record",
              "players", "mode", "table", "kind", "difficulty", "index", "puzzle", "answer", "svg", "hint",
              "mistakes", "priority"}
MAX_LINE_BYTES = 16 * 1024 * 1024
#: the most worker threads ``--threads`` may ask for
MAX_THREADS = 64
_SHUTDOWN = float("inf")


@dataclass
class Job:
    """A checked query waiting for (or running on) a worker."""

    qid: Any
    game_spec: str
    action: str
    query: dict[str, Any]
    ctx: SearchContext
    priority: int = 0
    started: bool = False
    answered: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    done: threading.Event = field(default_factory=threading.Event)


class Engine:
    """Reads queries, runs them on worker threads, writes one JSON object per line."""

    def __init__(self, out: TextIO, threads: int = 1, log: TextIO | None = None,
                 max_time_ms: int | None = None) -> None:
        self._out = out
        self._max_time_ms = max_time_ms
        self._out_lock = threading.Lock()
        self._log = log
        self._jobs: queue.PriorityQueue[tuple[float, int, Job | None]] = queue.PriorityQueue()
        self._arrival = itertools.count()
        self._active: dict[int, Job] = {}
        self._active_lock = threading.Lock()
        self._workers = [threading.Thread(target=self._work, daemon=True, name=f"engine-worker-{i}")
                         for i in range(max(1, min(threads, MAX_THREADS)))]
        for worker in self._workers:
            worker.start()

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
        for _ in self._workers:
            self._jobs.put((_SHUTDOWN, next(self._arrival), None))
        for worker in self._workers:
            worker.join()

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
        if action == "games":
            query = {**query, "game": "aetherya"}  # lists every game; needs none
        if "game" not in query:
            raise InvalidInputError("game", problem="missing required field")
        game_spec = query["game"]
        parse_spec(game_spec)  # the syntax only; loading (which may read a data file) runs on a worker
        if "state" not in query and action not in STATELESS_ACTIONS and not (action == "apply" and "record" in query):
            raise InvalidInputError("state", problem="missing required field")
        limits = Limits.from_json(query.get("limits"))
        every = query.get("reportDuringSearchEvery")
        report_every = None if every is None else as_number(every, "reportDuringSearchEvery", 0.01, 3600)
        seed = check_seed(query.get("seed", 0))
        priority = as_int(query.get("priority", 0), "priority", -(2**31), 2**31 - 1)
        if "top" in query:
            as_int(query["top"], "top", 1, 1000)
        if "player" in query and query["player"] is not None:
            as_int(query["player"], "player", 0, 16)
        if "fullInformation" in query:
            as_bool(query["fullInformation"], "fullInformation")
        if "options" in query and query["options"] is not None:
            as_object(query["options"], "options")
        if "moves" in query:
            _moves(query)
        job = Job(qid, game_spec, action, query, SearchContext(limits=limits, report_every=report_every, seed=seed),
                  priority)
        with self._active_lock:
            self._active[id(job)] = job
        self._jobs.put((-priority, next(self._arrival), job))

    def _terminate(self, qid: Any, query: dict[str, Any], action: str) -> None:
        target: Any = None
        if action == "terminate":
            if "terminateId" not in query:
                raise InvalidInputError("terminateId", problem="missing required field")
            target = query["terminateId"]
            if not isinstance(target, (str, int)) or isinstance(target, bool):
                raise InvalidInputError("terminateId", target, "expected the id (a string or an integer) of a query")
        with self._active_lock:
            jobs = list(self._active.values())
        hit = 0
        for job in jobs:
            if action == "terminate_all" or job.qid == target:
                job.ctx.cancel.set()
                hit += 1
                with job.lock:  # a query still queued is answered now, not when a worker reaches it
                    answer_now = not job.started and not job.answered
                    job.answered = job.answered or answer_now
                if answer_now:
                    self.emit({"id": job.qid, "action": job.action, "game": job.game_spec, "isDuringSearch": False,
                               "noResults": True, "terminated": True})
        reply: dict[str, Any] = {"id": qid, "action": action, "terminated": hit}
        if action == "terminate":
            reply["terminateId"] = target
        self.emit(reply)

    # -- workers ----------------------------------------------------------------------
    def _work(self) -> None:
        while True:
            _, _, job = self._jobs.get()
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
        with job.lock:
            if job.answered:
                return
            job.started = True
        job.ctx.started = time.perf_counter()  # the time limit counts from the start of the search, not from arrival
        try:
            body = self._execute(job)
        except SolverError as exc:
            self._error(job.qid, exc)
            return
        except RecursionError:
            self.emit({"id": job.qid, "error": "input nested too deeply", "field": None})
            return
        except Exception as exc:  # a bug: report it and keep serving
            self.emit({"id": job.qid, "error": f"internal error: {type(exc).__name__}: {exc}", "field": None})
            return
        if job.ctx.cancelled:
            body["terminated"] = True
        self.emit({**head, **{k: v for k, v in body.items() if k not in head}})

    def _execute(self, job: Job) -> dict[str, Any]:
        query = job.query
        game = load_game(job.game_spec)
        contract.prepare(game, _VERBS.get(job.action, job.action))
        job.ctx.started = time.perf_counter()  # loading the game's code (a compiled kernel's first import) is not search
        job.ctx.limits = default_limits(game, job.ctx.limits)
        if self._max_time_ms is not None and (job.ctx.limits.time_ms is None
                                              or job.ctx.limits.time_ms > self._max_time_ms):
            job.ctx.limits = Limits(time_ms=self._max_time_ms, nodes=job.ctx.limits.nodes)
        if job.ctx.report_every:
            head = {"id": job.qid, "action": job.action}
            job.ctx.report = lambda partial: self.emit({**head, **_interim(partial)})
        verb = _VERBS.get(job.action, job.action)
        options = options_from_json(game, verb, query.get("options"))
        body = _HANDLERS[job.action](self, job, game, query, options)
        return {"game": game.name, "isDuringSearch": False, **body} if "isDuringSearch" not in body else body

    # -- the actions ------------------------------------------------------------------
    def _hint(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        position = game.parse_position(query["state"])
        moves = _moves(query)
        turns = query.get("analyzeTurns")
        top = as_int(query.get("top", 3), "top", 1, 1000)
        player = query.get("player")
        player = None if player is None else as_int(player, "player", 0, 16)
        full = as_bool(query.get("fullInformation", False), "fullInformation")
        if turns is None:
            if moves:
                position = game.apply(position, moves)
            return contract.hint(game, position, job.ctx, top=top, player=player, full_information=full, **options).to_json()
        wanted = [as_int(t, f"analyzeTurns[{i}]", 0, len(moves)) for i, t in enumerate(as_list(turns, "analyzeTurns"))]
        positions = [position.clone()]
        for i, text in enumerate(moves):
            current = positions[-1].clone()
            current.apply_move(text, f"moves[{i}]")
            positions.append(current)
        last: dict[str, Any] = {}
        for n, turn in enumerate(wanted):
            body = contract.hint(game, positions[turn], job.ctx, top=top, player=player, full_information=full,
                             **options).to_json()
            body["turnNumber"] = turn
            if n < len(wanted) - 1:
                self.emit({"id": job.qid, "action": job.action, **body})
            else:
                last = body
        return last

    def _solve(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        return contract.solve(game, query["state"], job.ctx, **options).to_json()

    def _score(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        return dict(contract.score(game, query["state"], **options))

    def _legal_moves(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        position = game.parse_position(query["state"])
        moves = _moves(query)
        if moves:
            position = game.apply(position, moves)
        return {"moves": contract.legal_moves(game, position)}

    def _new(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        players = query.get("players")
        mode = query.get("mode")
        configured = game.configure(players=None if players is None else as_int(players, "players", 1, 16),
                                    mode=None if mode is None else as_str(mode, "mode"))
        player = query.get("player")
        if as_bool(query.get("table", False), "table"):
            if player is None:
                raise InvalidInputError("player", problem="a real table needs the player whose view it is")
            position = configured.new_table(as_int(player, "player", 0, 16), **options)
        else:
            position = configured.new_game(job.ctx.seed, **options)
            if player is not None:
                position = position.view(as_int(player, "player", 0, 16))
        return {"game": configured.spec(), **_position_body(position)}

    def _view(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        if query.get("player") is None:
            raise InvalidInputError("player", problem="missing required field")
        position = game.parse_position(query["state"])
        moves = _moves(query)
        if moves:
            position = game.apply(position, moves)
        return _position_body(position.view(as_int(query["player"], "player", 0, 16)))

    def _apply(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        from solver.record import record_from_json
        moves = _moves(query)
        if "record" in query:
            if "state" in query:
                raise InvalidInputError("state", problem="give either state or record, not both")
            record = record_from_json(query["record"], "record")
            start = record.final_position(game, "record")
            position = game.apply(start, moves)
            extended = record.extended(moves, stamp=False)
            return {**_position_body(position), "record": extended.to_json()}
        return _position_body(game.apply(game.parse_position(query["state"]), moves))

    def _show(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        from solver.drawing import svg
        position = game.parse_position(query["state"])
        moves = _moves(query)
        if moves:
            position = game.apply(position, moves)
        player = query.get("player")
        if player is not None:
            position = position.view(as_int(player, "player", 0, 16))
        hint = query.get("hint")
        if hint is True:
            hint = contract.hint(position.game, position, job.ctx, top=3).to_json()
        elif hint is not None and not isinstance(hint, dict):
            raise InvalidInputError("hint", hint, "expected true (compute a hint) or a hint response object")
        if as_bool(query.get("svg", True), "svg"):
            return {"svg": svg(position.game, position, hint=hint, **options), "hint": hint}
        return {"text": contract.describe(position.game, position), "hint": hint}

    def _games(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        from solver.registry import game_listing
        return {"game": None, "isDuringSearch": False, "games": game_listing()}

    def _sample(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        import numpy as np
        from solver.game import State
        position = game.parse_position(query["state"])
        moves = _moves(query)
        if moves:
            position = game.apply(position, moves)
        if not isinstance(position, State):
            raise InvalidInputError("state", problem="a view's chance outcomes are entered as they happen at the "
                                                     "table; sampling needs the full state")
        if not position.is_chance_node():
            raise InvalidInputError("state", position.to_notation()[:80], "no chance outcome comes next here")
        outcomes = position.chance_outcomes()
        rng = np.random.default_rng([job.ctx.seed, len(moves)])
        probs = np.asarray([p for _, p in outcomes], dtype=float)
        pick = int(rng.choice(len(outcomes), p=probs / probs.sum()))
        action, probability = outcomes[pick]
        return {"move": position.action_to_string(action), "probability": probability}

    def _generate(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        from solver.puzzles import make_puzzle, parse_puzzle_id
        if "state" in query and isinstance(query["state"], str):  # a puzzle id
            spec, kind, difficulty, seed, index = parse_puzzle_id(query["state"], "state", game)
            return _puzzle_body(make_puzzle(load_game(spec), kind, difficulty, seed, index))
        kinds = contract.puzzle_kinds(game)
        kind = as_choice(query.get("kind", kinds[0] if kinds else None), "kind", kinds)
        difficulty = as_choice(query.get("difficulty", "medium"), "difficulty", ("easy", "medium", "hard"))
        kind, difficulty = contract.puzzle_request(game, kind, difficulty, **options)
        index = as_int(query.get("index", 0), "index", 0, 10**9)
        return _puzzle_body(make_puzzle(game, kind, difficulty, job.ctx.seed, index))

    def _check(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        from solver.puzzles import check
        if "puzzle" not in query:
            raise InvalidInputError("puzzle", problem="missing required field")
        if "answer" not in query:
            raise InvalidInputError("answer", problem="missing required field")
        return check(game, query["puzzle"], query["answer"])

    def _review(self, job: Job, game: Any, query: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        from solver.record import record_from_json
        from solver.review import review
        if "record" not in query:
            raise InvalidInputError("record", problem="missing required field")
        record = record_from_json(query["record"], "record")
        player = query.get("player")
        mistakes = as_int(query.get("mistakes", 3), "mistakes", 0, 1000)
        head = {"id": job.qid, "action": job.action, "game": game.name}
        report = None
        if job.ctx.report_every:
            def report(partial: dict[str, Any]) -> None:
                job.ctx.maybe_report(lambda: _Interim({**head, **partial}))
        per_decision = Limits(time_ms=job.ctx.limits.time_ms, nodes=job.ctx.limits.nodes)
        return review(game, record, None if player is None else as_int(player, "player", 0, 16),
                      limits=per_decision, seed=job.ctx.seed, mistakes=mistakes, cancel=job.ctx.cancel,
                      report=report)


_HANDLERS = {"hint": Engine._hint, "solve": Engine._solve, "score": Engine._score, "legal_moves": Engine._legal_moves,
             "new": Engine._new, "view": Engine._view, "apply": Engine._apply, "show": Engine._show,
             "generate": Engine._generate, "check": Engine._check, "review": Engine._review,
             "sample": Engine._sample, "games": Engine._games}
#: the command-line verb whose options an action takes
_VERBS = {"legal_moves": "legal-moves"}


def _puzzle_body(puzzle: dict[str, Any]) -> dict[str, Any]:
    """A puzzle with the position a player answers it from (where the game offers one) and its text."""
    from solver.errors import UnsupportedActionError
    from solver.registry import load_game
    game = load_game(puzzle["game"])
    body: dict[str, Any] = {"puzzle": puzzle, "text": contract.describe_puzzle(game, puzzle)}
    try:
        body["position"] = _position_body(contract.puzzle_position(game, puzzle))
    except UnsupportedActionError:
        body["position"] = None
    return body


def _moves(query: dict[str, Any]) -> list[str]:
    moves = as_list(query.get("moves", []), "moves")
    return [as_str(m, f"moves[{i}]") for i, m in enumerate(moves)]


def _position_body(position: Any) -> dict[str, Any]:
    terminal = position.is_terminal()
    return {"state": position.to_json(), "notation": position.to_notation(), "currentPlayer": position.current_player(),
            "terminal": terminal, "legalMoves": [] if terminal else contract.legal_moves(position.game, position)}


class _Interim:
    """A partial result that is already JSON (a review so far)."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.body = body

    def to_json(self) -> dict[str, Any]:
        return dict(self.body)


def _interim(partial: Any) -> dict[str, Any]:
    body = partial.to_json()
    body["isDuringSearch"] = True
    return body


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
