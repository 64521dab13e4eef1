"""Games held by the table server: seats, each seat's view and record, moves, undo and redo (``docs/web.md``).

A game is dealt (``mode="dealt"``: the server deals it from a seed and holds the full state; the seats see their
views of it, chance outcomes are drawn from the seed, engine seats are played by the server) or a real table
(``mode="table"``: the cards are real; the server holds each seat's view, and what one seat enters reaches the
others' views as they see it: :func:`solver.record.entry_for`). Each seat has its own key (a capability: at
least 128 random bits, stored hashed, :data:`KEY_BYTES`), and the table link its own; a key opens one seat, or
the table's public information, and nothing else.

Everything here is plain Python over :mod:`solver.web.store`, the game contract (``solver.registry``, the
``Game``/``State``/``View`` classes, ``solver.record``) and the service layer (an engine seat's hint, a chance
outcome drawn from the seed); the HTTP routes are in :mod:`solver.web.tables`.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from solver import service
from solver.errors import IllegalMoveError, InvalidInputError, SolverError
from solver.game import Game, State, View
from solver.record import Record, RecordedMove, entry_for, is_record, record_from_json, seat_entries
from solver.registry import load_game
from solver.search import Limits
from solver.validate import as_choice, as_int, as_list, as_object, as_str, check_keys, get, join
from solver.web.store import Store, StoredGame, StoredMove

#: random bytes in a seat key or a table key (128 bits: a capability URL nobody guesses)
KEY_BYTES = 16
#: random bytes in a game id (not a secret: a key is needed to open anything)
ID_BYTES = 9
#: the most games kept in memory at once (the least recently used are reloaded from the database when asked for)
CACHED_GAMES = 64
MODES = ("dealt", "table")
#: the client of work no request asked for (a game loaded at start-up)
SERVER = "server"
BY = ("human", "engine")
CHANCE = -1
LOG = logging.getLogger("solver.web.tables")
POST_KEYS = ("game", "seed", "mode", "seats", "record")
SEAT_KEYS = ("player", "by")


class NotFound(Exception):
    """No such game, or a key that opens nothing: answered alike (``404``, the same body)."""


class Conflict(SolverError):
    """The request was made against a position the game has left (a stale ``expect``), or asks for something the
    game's state does not allow now (nothing to undo): ``409`` with the current state."""


class Forbidden(SolverError):
    """What this key may not do (the table link enters no move; the full record before the game is over): 403."""


def new_key() -> str:
    """A fresh key: :data:`KEY_BYTES` random bytes from ``secrets``, URL-safe."""
    return secrets.token_urlsafe(KEY_BYTES)


def key_hash(key: str) -> str:
    """What the database keeps of a key: its SHA-256 (a key has 128 random bits, so a fast hash is enough)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def player_count(game: Game) -> int:
    """How many players the configured game has."""
    return int(game.params[game.PLAYERS_PARAMETER]) if game.PLAYERS_PARAMETER else game.min_players


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------------------------------- what is common
def common_knowledge(values: list[Any]) -> Any:
    """What every one of ``values`` (the seats' views, as JSON) says alike: keys all of them have, list items and
    characters (of strings of one length) or words (of strings of one word count) they agree on, ``?`` where they
    differ, ``None`` where nothing is common. Nothing one seat alone knows survives."""
    first = values[0]
    if all(v == first for v in values):
        return first
    if all(isinstance(v, dict) for v in values):
        keys = [k for k in first if all(k in v for v in values)]
        return {k: common_knowledge([v[k] for v in values]) for k in keys}
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1:
        return [common_knowledge(list(items)) for items in zip(*values)]
    if all(isinstance(v, str) for v in values):
        if len({len(v) for v in values}) == 1:
            return "".join(c[0] if len(set(c)) == 1 else "?" for c in zip(*values))
        words = [v.split() for v in values]
        if len({len(w) for w in words}) == 1:
            return " ".join(w[0] if len(set(w)) == 1 else "?" for w in zip(*words))
        return "?"
    return None


# ---------------------------------------------------------------------------------------------- one game
@dataclass
class Snapshot:
    """The positions after some moves: the full state (dealt games) and every seat's view."""

    state: State | None
    views: dict[int, View]


@dataclass
class Table:
    """One game: what is stored, and the positions along its line (``snapshots[i]``: after ``i`` moves)."""

    stored: StoredGame
    game: Game
    start_views: dict[int, View]
    snapshots: list[Snapshot]
    lock: threading.RLock = field(default_factory=threading.RLock)
    #: an engine seat's search under way: its cancel event (set when the game moves on without it)
    thinking: threading.Event | None = None

    # -- loading ----------------------------------------------------------------------------------
    @staticmethod
    def load(stored: StoredGame) -> Table:
        """The game ``stored``, replayed to its line's end (every stored entry is checked on the way)."""
        game = load_game(stored.spec)
        if stored.mode == "dealt":
            state = game.parse_state(stored.start, "start")
            views = {p: state.view(p) for p in range(player_count(game))}
        else:
            state = None
            views = {int(p): game.parse_position(v, f"start.{p}") for p, v in stored.start.items()}
        table = Table(stored, game, {p: v.clone() for p, v in views.items()}, [Snapshot(state, views)])
        table._extend(stored.length)
        return table

    def _extend(self, length: int) -> None:
        """Replay stored moves until ``length`` moves are on the line."""
        while len(self.snapshots) <= length:
            i = len(self.snapshots) - 1
            move = self.stored.moves[i]
            last = self.snapshots[-1]
            state = None
            if last.state is not None:
                state = last.state.clone()
                state.apply_move(move.move, f"moves[{i}]")
            views = {}
            for seat, view in last.views.items():
                view = view.clone()
                for entry in move.entries.get(seat, []):
                    view.apply_move(entry, f"moves[{i}].entries.{seat}")
                views[seat] = view
            self.snapshots.append(Snapshot(state, views))

    # -- where it stands ------------------------------------------------------------------------------
    @property
    def length(self) -> int:
        return self.stored.length

    @property
    def now(self) -> Snapshot:
        return self.snapshots[self.stored.length]

    @property
    def line(self) -> list[StoredMove]:
        return self.stored.moves[:self.stored.length]

    def humans(self) -> list[int]:
        return [p for p, by in self.stored.seats.items() if by == "human"]

    def over(self) -> bool:
        now = self.now
        if now.state is not None:
            return now.state.is_terminal()
        return all(view.is_terminal() for view in now.views.values())

    def to_move(self) -> int:
        """Who acts next, as every view says it (a player, -1 for an outcome to enter, -4 at the end)."""
        now = self.now
        if now.state is not None:
            return now.state.current_player()
        return next(iter(now.views.values())).current_player()

    def engine_to_move(self) -> int | None:
        """The engine seat that moves next in a dealt game, if one does."""
        if self.stored.mode != "dealt" or self.over():
            return None
        who = self.now.state.current_player()
        return who if self.stored.seats.get(who) == "engine" else None

    # -- what a seat (or the table) sees ----------------------------------------------------------------------
    def record_of(self, seat: int) -> Record:
        """The seat's record: its view of the start, then the entries it typed (observer = the seat)."""
        moves = [RecordedMove(entry, move.time) for move in self.line for entry in move.entries.get(seat, [])]
        return Record(self.game.spec(), self.start_views[seat].to_json(), moves, None, self.stored.created or None)

    def legal_for(self, seat: int) -> list[str]:
        """What ``seat`` may enter now: in a dealt game its own moves on its turn (a human seat's); at a real table
        every entry of its view that every other seat's view can take (a seat's private draw is entered by that
        seat)."""
        if self.over():
            return []
        now = self.now
        if now.state is not None:
            if now.state.current_player() != seat or self.stored.seats.get(seat) != "human":
                return []
            return now.views[seat].legal_moves()
        mine = now.views[seat]
        outcome = mine.is_chance_node()
        others = {p: (view, view.legal_moves() if not view.is_terminal() else [])
                  for p, view in now.views.items() if p != seat}
        allowed = []
        for entry in mine.legal_moves():
            try:
                for view, legal in others.values():
                    entry_for(view, entry, outcome, legal)
            except IllegalMoveError:
                continue
            allowed.append(entry)
        return allowed

    def answer(self, seat: int | None) -> dict[str, Any]:
        """The answer a key gets: its seat's view, record and legal moves, or (``seat`` None) the table's public
        information."""
        body: dict[str, Any] = {"id": self.stored.id, "player": seat}
        if seat is None:
            body.update(self._public())
        else:
            body.update({"view": self.now.views[seat].to_json(), "record": self.record_of(seat).to_json(),
                         "legalMoves": self.legal_for(seat)})
        body.update({"over": self.over(), "game": self.game.spec(), "mode": self.stored.mode,
                     "toMove": self.to_move(), "seats": [{"player": p, "by": by} for p, by in
                                                         sorted(self.stored.seats.items())],
                     "thinking": self.engine_to_move() is not None, "revision": self.stored.revision,
                     "canUndo": self._undo_length() is not None, "canRedo": self._redo_length() is not None,
                     "fullRecord": self.full_record_open(seat)})
        return body

    def _public(self) -> dict[str, Any]:
        """What every seat's view has alike: the facts, the record's entries (``?`` where seats saw differently),
        and, where every seat sees the same position, that position (drawn on the shared screen)."""
        views = self.now.views
        facts = common_knowledge([view.to_json() for view in views.values()])
        moves = []
        for move in self.line:
            shown = common_knowledge([move.entries.get(p, []) for p in views])
            for entry in shown if isinstance(shown, list) else ["?"]:
                moves.append({"move": entry if isinstance(entry, str) else "?", "time": move.time})
        first = next(iter(views.values())).to_json()
        same = all({k: v for k, v in view.to_json().items() if k != "view"} ==
                   {k: v for k, v in first.items() if k != "view"} for view in views.values())
        return {"view": facts, "record": {"game": self.game.spec(), "observer": None, "moves": moves},
                "legalMoves": [], "position": first if same else None}

    def full_record_open(self, seat: int | None) -> bool:
        """Whether the full record (every hidden card) is open to this key: a dealt game once it is over, or a
        training game (one human seat) that this seat asked to reveal."""
        if self.stored.mode != "dealt":
            return False
        return self.over() or (self.stored.revealed and seat is not None and self.humans() == [seat])

    def full_record(self, seat: int | None) -> Record:
        """The full record: the dealt start and every move (``Forbidden`` until it is open to this key)."""
        if self.stored.mode != "dealt":
            raise Forbidden("record", problem="a real table's server holds no hidden card: each seat's record is all "
                                              "there is")
        if not self.full_record_open(seat):
            raise Forbidden("record", problem="the full record (every hidden card) opens when the game is over, or in "
                                              "a game with one human seat when that seat reveals it")
        return Record(self.game.spec(), self.snapshots[0].state.to_json(),
                      [RecordedMove(m.move, m.time) for m in self.line], None, self.stored.created or None)

    # -- changes (each returns the moves to store; the caller stores them, then calls commit) -------------
    def play(self, seat: int, moves: list[str]) -> list[StoredMove]:
        """The moves ``seat`` enters now, with the chance outcomes drawn after them (a dealt game), checked against
        the rules; nothing changes until :meth:`commit`."""
        if self.over():
            raise IllegalMoveError("moves", moves[0] if moves else None, "the game is over")
        if self.stored.mode == "dealt":
            return self._play_dealt(seat, moves)
        return self._play_table(seat, moves)

    def _play_dealt(self, seat: int, moves: list[str]) -> list[StoredMove]:
        state = self.now.state.clone()
        views = {p: v.clone() for p, v in self.now.views.items()}
        added: list[StoredMove] = []
        for i, text in enumerate(moves):
            where = f"moves[{i}]"
            added += self._chance(state, views, self.length + len(added))
            if state.is_terminal():
                raise IllegalMoveError(where, text, "the game is over")
            who = state.current_player()
            if who != seat:
                whose = "the engine's seat" if self.stored.seats.get(who) == "engine" else f"seat {who}"
                raise IllegalMoveError(where, text, f"it is {whose} to move ({who}), not seat {seat}")
            before = state.clone()
            state.apply_move(text, where)
            added.append(self.record_move(before, text, state, views, seat, auto=False))
        added += self._chance(state, views, self.length + len(added))
        return added

    def record_move(self, before: State, move: str, after: State, views: dict[int, View], by: int,
                 auto: bool) -> StoredMove:
        """``move`` (played from ``before`` to ``after``) as stored, every seat's ``views`` advanced by it."""
        entries = {}
        for p, view in views.items():
            entries[p] = seat_entries(before, move, view, after)
            for entry in entries[p]:
                view.apply_move(entry)
        return StoredMove(move, by, auto, entries, _now())

    def _chance(self, state: State, views: dict[int, View], played: int) -> list[StoredMove]:
        """Chance outcomes drawn from the seed until a player is to move (``played``: moves before them)."""
        added = []
        while state.is_chance_node() and not state.is_terminal():
            move = draw_outcome(state, self.stored.seed, played + len(added))
            before = state.clone()
            state.apply_move(move)
            added.append(self.record_move(before, move, state, views, CHANCE, auto=True))
        return added

    def _play_table(self, seat: int, moves: list[str]) -> list[StoredMove]:
        views = {p: v.clone() for p, v in self.now.views.items()}
        added = []
        for i, text in enumerate(moves):
            where = f"moves[{i}]"
            text = as_str(text, where)
            mine = views[seat]
            if mine.is_terminal():
                raise IllegalMoveError(where, text, "the game is over")
            outcome = mine.is_chance_node()
            by = CHANCE if outcome else mine.current_player()
            mine.apply_move(text, where)
            entries = {seat: [text]}
            for p, view in views.items():
                if p == seat:
                    continue
                try:
                    taken = entry_for(view, text, outcome)
                except IllegalMoveError as exc:
                    raise IllegalMoveError(where, text, exc.problem) from None
                entries[p] = [] if taken is None else [taken]
                if taken is not None:
                    view.apply_move(taken, where)
            added.append(StoredMove(text, by, False, entries, _now()))
        return added

    def undo_length(self) -> int:
        """The line's length after an undo (``Conflict`` when there is nothing to undo)."""
        found = self._undo_length()
        if found is None:
            raise Conflict("undo", problem="nothing to undo")
        return found

    def redo_length(self) -> int:
        """The line's length after a redo (``Conflict`` when there is nothing to redo)."""
        found = self._redo_length()
        if found is None:
            raise Conflict("redo", problem="nothing to redo")
        return found

    def _undo_length(self) -> int | None:
        """Back to before the last move a person entered (the server's moves after it go with it)."""
        n = self.length
        while n > 0 and self.stored.moves[n - 1].auto:
            n -= 1
        return None if n == 0 else n - 1

    def _redo_length(self) -> int | None:
        """Forward by the next move a person entered and the server's moves after it."""
        moves = self.stored.moves
        n = self.length
        if n >= len(moves):
            return None
        n += 1
        while n < len(moves) and moves[n].auto:
            n += 1
        return n

    def commit(self, added: list[StoredMove], length: int, revision: int) -> None:
        """Take the stored change: ``added`` after the first ``length`` moves (or, with none added, the line cut
        or extended to ``length``), at ``revision``."""
        if added:
            del self.stored.moves[length:]
            self.stored.moves.extend(added)
            length += len(added)
        self.stored.length = length
        self.stored.revision = revision
        del self.snapshots[min(length, len(self.snapshots) - 1) + 1:]
        self._extend(length)

    def seat_record_length(self, seat: int | None) -> int:
        """The length of the record ``seat`` sees (its entries; for the table link, the moves on the line): what a
        client's ``expect`` names."""
        if seat is None:
            return self.length
        return sum(len(m.entries.get(seat, [])) for m in self.line)


def draw_outcome(state: State, seed: int, played: int) -> str:
    """The chance outcome of a dealt game after ``played`` moves: the service's ``sample`` (drawn from the seed and
    the number of moves that led there, as the engine's ``sample`` action and the CLI draw it)."""
    return service.answer(service.SampleRequest(game=state.game, state=state, seed=seed, draw=played)).move


def engine_move(state: State, seat: int, seed: int, limits: Limits, cancel: threading.Event) -> str | None:
    """The engine's move for ``seat``: the service's hint on the seat's view, its best move (``None`` when
    cancelled first)."""
    request = service.HintRequest(game=state.game, position=state, top=1, player=seat, limits=limits, seed=seed)
    result = service.answer(request, service.context(request, cancel=cancel))
    if cancel.is_set() or not result.move_infos:
        return None
    return result.move_infos[0].move


# ---------------------------------------------------------------------------------------------- every game
@dataclass
class Created:
    """A new game: its id, each human seat's key and the table's key (the only time the keys are shown)."""

    id: str
    keys: dict[int, str]
    table_key: str


class Tables:
    """Every game of the server: created, found by key, played; stored in ``store``.

    ``submit(work, client, game)`` runs an engine seat's search of ``game`` off the request, as a job of the client
    whose request asked for it (the server's scheduler); ``changed(game_id)`` is called after every stored change
    (the server tells the game's open pages); ``engine_limits(game)`` gives an engine seat's search limits (the
    game's default time). ``client`` arguments name the client a request came from (its network address)."""

    def __init__(self, store: Store, submit: Callable[[Callable[[], None], str, Game], None],
                 changed: Callable[[str], None] = lambda game_id: None,
                 engine_limits: Callable[[Game], Limits] | None = None) -> None:
        self.store = store
        self.submit = submit
        self.changed = changed
        self.engine_limits = engine_limits or (lambda game: Limits(time_ms=game.default_time_ms))
        self._cache: OrderedDict[str, Table] = OrderedDict()
        self._lock = threading.Lock()
        self._closing = False

    def close(self) -> None:
        """Stop the engine's seats that are thinking, and start no more (the server is stopping)."""
        self._closing = True
        with self._lock:
            tables = list(self._cache.values())
        for table in tables:
            if table.thinking is not None:
                table.thinking.set()

    # -- finding ----------------------------------------------------------------------------------------
    def open(self, game_id: str, key: str, client: str = SERVER) -> tuple[Table, int | None]:
        """The game and seat (``None``: the table link) that ``key`` opens in game ``game_id``; ``NotFound`` for
        an unknown game and for a key that does not open it alike (one lookup by the key's hash either way)."""
        found = self.store.opens(key_hash(key))
        if found is None or not hmac.compare_digest(found[0].encode(), game_id.encode("utf-8", "surrogatepass")):
            raise NotFound()
        table = self._table(found[0])
        self._drive(table, client)  # an engine's seat to move and no search under way (one refused): it starts
        return table, found[1]

    def _table(self, game_id: str) -> Table:
        with self._lock:
            table = self._cache.get(game_id)
            if table is not None:
                self._cache.move_to_end(game_id)
                return table
        stored = self.store.load(game_id)
        if stored is None:
            raise NotFound()
        table = Table.load(stored)
        with self._lock:
            table = self._cache.setdefault(game_id, table)
            self._cache.move_to_end(game_id)
            idle = [k for k, t in self._cache.items() if t.thinking is None or t.thinking.is_set()]
            for k in idle[:max(0, len(self._cache) - CACHED_GAMES)]:  # an engine's seat thinking keeps its game
                del self._cache[k]
        return table

    def _forget(self, table: Table) -> None:
        """Drop ``table`` from memory (the database has a newer revision: the next request loads it)."""
        with self._lock:
            if self._cache.get(table.stored.id) is table:
                del self._cache[table.stored.id]

    # -- creating ---------------------------------------------------------------------------------------
    def create(self, request: Any, client: str = SERVER) -> Created:
        """A new game from ``POST /api/games``'s body (``docs/web.md``), stored before it is answered."""
        body = as_object(request, "body")
        check_keys(body, POST_KEYS, "body")
        seed = as_int(body.get("seed", 0), "seed", 0, 2**63 - 1)
        if body.get("record") is not None:
            stored = self._imported(body, seed)
        else:
            stored = self._dealt_or_table(body, seed)
        keys = {p: new_key() for p, by in stored.seats.items() if by == "human"}  # an engine's seat has no page
        table_key = new_key()
        hashes: dict[str, int | None] = {key_hash(k): p for p, k in keys.items()}
        hashes[key_hash(table_key)] = None
        self.store.create(stored, hashes)
        table = Table.load(stored)
        with self._lock:
            self._cache[stored.id] = table
        self._drive(table, client)
        return Created(stored.id, keys, table_key)

    def _dealt_or_table(self, body: dict[str, Any], seed: int) -> StoredGame:
        game = load_game(as_str(get(body, "game", "body"), "game"), "game")
        mode = as_choice(body.get("mode", "dealt"), "mode", MODES)
        seats = _seats(body.get("seats"), game, mode)
        if mode == "dealt":
            start: Any = game.new_game(seed).to_json()
        else:
            start = {str(p): game.new_table(p).to_json() for p in seats}
        return StoredGame(secrets.token_urlsafe(ID_BYTES), game.spec(), mode, seed, start, seats=seats)

    def _imported(self, body: dict[str, Any], seed: int) -> StoredGame:
        """A game continued from a record: a full record continues dealt (chance outcomes from ``seed``), a seat's
        record continues at a real table with that seat."""
        if not is_record(body["record"]):
            raise InvalidInputError("record", problem="expected a game record (docs/records.md)")
        record = record_from_json(body["record"], "record")
        game = record.load_game(load_game(as_str(body["game"], "game"), "game") if "game" in body else None, "record")
        start = record.start_position(game, "record")
        observer = record.observer
        mode = "dealt" if observer is None else "table"
        if body.get("mode", mode) != mode:
            source = "the full state" if observer is None else f"player {observer}'s view"
            raise InvalidInputError("mode", body.get("mode"), f"a record from {source} continues as mode {mode!r}")
        seats = _seats(body.get("seats"), game, mode, only=observer)
        stored = StoredGame(secrets.token_urlsafe(ID_BYTES), game.spec(), mode, seed,
                            start.to_json() if observer is None else {str(observer): start.to_json()}, seats=seats)
        stored.moves = _replayed(game, start, [m.move for m in record.moves], seats, observer)
        stored.length = len(stored.moves)
        return stored

    # -- playing ------------------------------------------------------------------------------------------
    def play(self, table: Table, seat: int | None, moves: Any, expect: Any, client: str = SERVER) -> None:
        """``seat`` enters ``moves`` (stored, synchronously, before this returns)."""
        moves = [as_str(m, f"moves[{i}]") for i, m in enumerate(as_list(moves, "moves"))]
        if not moves:
            raise InvalidInputError("moves", [], "expected at least one move")
        if seat is None:
            raise Forbidden("moves", problem="the table link shows the game; moves are entered on a seat's page")
        with table.lock:
            self._check_expect(table, seat, expect)
            added = table.play(seat, moves)
            self._store(table, added, table.length)
        self._drive(table, client)

    def undo(self, table: Table, seat: int | None, expect: Any, client: str = SERVER) -> None:
        """Back to before the last move a person entered."""
        self._step(table, seat, expect, Table.undo_length, client)

    def redo(self, table: Table, seat: int | None, expect: Any, client: str = SERVER) -> None:
        """Forward again by the move undone last."""
        self._step(table, seat, expect, Table.redo_length, client)

    def reveal(self, table: Table, seat: int | None) -> Record:
        """A training game's full record, for its one human seat (the game is marked revealed)."""
        with table.lock:
            if table.stored.mode != "dealt" or seat is None or table.humans() != [seat]:
                raise Forbidden("reveal", problem="only the one human seat of a dealt game against the engine may "
                                                  "reveal its hidden cards")
            if not table.stored.revealed:
                self.store.reveal(table.stored.id)
                table.stored.revealed = True
                table.stored.revision += 1
        self.changed(table.stored.id)
        return table.full_record(seat)

    def _step(self, table: Table, seat: int | None, expect: Any, where: Callable[[Table], int], client: str) -> None:
        if seat is None:
            raise Forbidden("undo", problem="the table link shows the game; undo and redo are a seat's")
        with table.lock:
            self._check_expect(table, seat, expect)
            if table.thinking is not None:
                table.thinking.set()
            length = where(table)
            revision = self.store.move_to(table.stored.id, table.stored.revision, length)
            if revision is None:
                self._forget(table)
                raise Conflict("expect", problem="the game changed meanwhile: ask again")
            table.commit([], length, revision)
        self.changed(table.stored.id)
        self._drive(table, client)

    def _check_expect(self, table: Table, seat: int, expect: Any) -> None:
        if expect is None:
            return
        wanted = as_int(expect, "expect", 0, 10**9)
        have = table.seat_record_length(seat)
        if wanted != have:
            raise Conflict("expect", wanted, f"the record has {have} entries now (the game moved on)")

    def _store(self, table: Table, added: list[StoredMove], length: int) -> None:
        """Store ``added`` after the first ``length`` moves, then take it in memory and tell the pages."""
        if table.thinking is not None:
            table.thinking.set()
        revision = self.store.append(table.stored.id, table.stored.revision, length, added)
        if revision is None:
            self._forget(table)
            raise Conflict("expect", problem="the game changed meanwhile: ask again")
        table.commit(added, length, revision)
        self.changed(table.stored.id)

    # -- the engine's seats --------------------------------------------------------------------------------
    def _drive(self, table: Table, client: str) -> None:
        """Start the engine's search when an engine seat is to move and none is under way (a job of ``client``)."""
        with table.lock:
            who = table.engine_to_move()
            if who is None or self._closing or (table.thinking is not None and not table.thinking.is_set()):
                return
            cancel = threading.Event()
            table.thinking = cancel
            state = table.now.state.clone()
            length, revision = table.length, table.stored.revision
            seed = table.stored.seed + length
            limits = self.engine_limits(table.game)

        def work() -> None:
            try:
                move = engine_move(state, who, seed, limits, cancel)
            except Exception:  # a bug in a game's hint: logged (without the game's keys); the next request retries
                move = None
                LOG.exception("the engine's seat %s failed to move", who)
            with table.lock:
                if table.thinking is cancel:
                    table.thinking = None
                if move is None or cancel.is_set() or table.stored.revision != revision:
                    return
                before = table.now.state.clone()
                after = before.clone()
                after.apply_move(move)
                views = {p: v.clone() for p, v in table.now.views.items()}
                added = [table.record_move(before, move, after, views, who, auto=True)]
                added += table._chance(after, views, length + 1)
                try:
                    self._store(table, added, length)
                except Conflict:
                    return
            self._drive(table, client)

        try:
            self.submit(work, client, table.game)
        except Exception as exc:  # the workers refused it (the server is stopping, its queue is full): the move
            with table.lock:      # entered is kept, and the next request about this game tries again
                if table.thinking is cancel:
                    table.thinking = None
            LOG.warning("the engine's seat %s waits: %s", who, exc)
            return
        self.changed(table.stored.id)


def _seats(value: Any, game: Game, mode: str, only: int | None = None) -> dict[int, str]:
    """The seats of a new game: ``[{"player": 0, "by": "human"}, ...]``; by default seat 0 human and, in a dealt
    game, the others the engine's (at a real table only the listed seats have a page: the others' moves are entered
    by anyone)."""
    count = player_count(game)
    if value is None:
        if only is not None:
            return {only: "human"}
        return {0: "human", **({p: "engine" for p in range(1, count)} if mode == "dealt" else {})}
    seats: dict[int, str] = {}
    for i, item in enumerate(as_list(value, "seats")):
        where = f"seats[{i}]"
        obj = as_object(item, where)
        check_keys(obj, SEAT_KEYS, where)
        player = as_int(obj.get("player"), join(where, "player"), 0, count - 1)
        by = as_choice(obj.get("by", "human"), join(where, "by"), BY)
        if player in seats:
            raise InvalidInputError(join(where, "player"), player, "this seat is listed twice")
        if mode == "table" and by == "engine":
            raise InvalidInputError(join(where, "by"), by, "at a real table the players enter every move; the engine "
                                                           "plays seats of a dealt game")
        if only is not None and player != only:
            raise InvalidInputError(join(where, "player"), player, f"this record is player {only}'s view: it "
                                                                   f"continues with that seat alone")
        seats[player] = by
    if not seats:
        raise InvalidInputError("seats", [], "expected at least one seat")
    if "human" not in seats.values():
        raise InvalidInputError("seats", value, "expected at least one human seat")
    if mode == "dealt":
        for p in range(count):
            seats.setdefault(p, "engine")
    return dict(sorted(seats.items()))


def _replayed(game: Game, start: State | View, moves: list[str], seats: dict[int, str],
              observer: int | None) -> list[StoredMove]:
    """A record's moves as stored: replayed from ``start`` (a full state: every seat's entries found; a seat's
    view: its own entries as they are)."""
    stored = []
    position = start.clone()
    if isinstance(position, State):
        views = {p: position.view(p) for p in range(player_count(game))}
    for i, move in enumerate(moves):
        where = f"record.moves[{i}]"
        if isinstance(position, View):
            outcome = position.is_chance_node()
            by = CHANCE if outcome else position.current_player()
            position.apply_move(move, where)
            stored.append(StoredMove(move, by, False, {observer: [move]}, _now()))
            continue
        if position.is_terminal():
            raise IllegalMoveError(where, move, "the game is already over")
        by = position.current_player()
        before = position.clone()
        position.apply_move(move, where)
        entries = {}
        for p, view in views.items():
            entries[p] = seat_entries(before, move, view, position)
            for entry in entries[p]:
                view.apply_move(entry)
        auto = by == CHANCE or seats.get(by) == "engine"
        stored.append(StoredMove(move, by, auto, entries, _now()))
    return stored
