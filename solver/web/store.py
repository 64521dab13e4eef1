"""Where the table server keeps its games: one SQLite file (``memory-solver serve --db PATH``, ``docs/web.md``).

This module is the only code that touches the database, so that another database could be added without
touching the rest. Stdlib ``sqlite3`` in WAL mode with ``synchronous=FULL``: a transaction is on disk when
``COMMIT`` returns, so every move is committed before the server acknowledges it, and a ``kill -9`` between two
moves loses nothing acknowledged. ``schema_version`` holds the schema's version; :data:`MIGRATIONS` takes an
older database to the current one when it is opened.

Tables (schema 1):

- ``games``: one row per game: its id, the configured game spec, ``mode`` (``dealt``: the server holds the
  full state; ``table``: a real table, the server holds each seat's view), the seed its chance outcomes are
  drawn from, ``start`` (JSON: the full start state, or each seat's start view), ``length`` (how many of its
  moves are on the line played; the rest wait to be redone), ``revision`` (one more at every change),
  ``revealed`` (a training game whose full record its one human seat asked for), times.
- ``seats``: who plays each seat (``human`` or ``engine``).
- ``keys``: the SHA-256 of each seat key and table key (never the key itself) and what it opens.
- ``moves``: every move of a game in order: the move, who entered it (``by``: a seat, -1 for chance),
  ``auto`` (played by the server: a chance outcome drawn from the seed or an engine seat's move) and
  ``entries`` (JSON: what each seat's view took for it, ``{"0": [...], "1": [...]}``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

SCHEMA_VERSION = 1

_SCHEMA_1 = """
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('dealt', 'table')),
    seed INTEGER NOT NULL,
    start TEXT NOT NULL,
    length INTEGER NOT NULL DEFAULT 0,
    revision INTEGER NOT NULL DEFAULT 0,
    revealed INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    player INTEGER NOT NULL,
    by TEXT NOT NULL CHECK (by IN ('human', 'engine')),
    PRIMARY KEY (game_id, player)
);
CREATE TABLE keys (
    key_hash TEXT PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id),
    player INTEGER
);
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    move TEXT NOT NULL,
    by INTEGER NOT NULL,
    auto INTEGER NOT NULL,
    entries TEXT NOT NULL,
    time TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
);
"""

#: version -> the statements that take a database of that version to the next one (none yet: schema 1 is
#: the first); :meth:`Store.open` runs them in order inside one transaction
MIGRATIONS: dict[int, str] = {}


class StoreError(Exception):
    """The database cannot be used (a newer schema, a file that is not a database): named with its path."""


@dataclass
class StoredMove:
    """One move of a game as stored."""

    move: str
    by: int
    auto: bool
    entries: dict[int, list[str]]
    time: str


@dataclass
class StoredGame:
    """One game as stored: its row, its seats and every move (those past ``length`` wait to be redone)."""

    id: str
    spec: str
    mode: str
    seed: int
    start: Any
    length: int = 0
    revision: int = 0
    revealed: bool = False
    created: str = ""
    updated: str = ""
    seats: dict[int, str] = field(default_factory=dict)
    moves: list[StoredMove] = field(default_factory=list)


class Store:
    """The games' database: one SQLite file, opened once per server and shared by its threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except (sqlite3.DatabaseError, OSError) as exc:
            raise StoreError(f"{self.path}: cannot open the games' database ({exc})") from None

    # -- schema ----------------------------------------------------------------------------------
    def _migrate(self) -> None:
        with self._transaction() as db:
            has_version = db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version'"
                                     ).fetchone()
            if not has_version:
                db.executescript_in_transaction(_SCHEMA_1)
                db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                db.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
                return
            version = db.execute("SELECT version FROM schema_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: written by a newer memory-solver (schema {version}; this one reads "
                                 f"{SCHEMA_VERSION})")
            while version < SCHEMA_VERSION:
                db.executescript_in_transaction(MIGRATIONS[version])
                version += 1
                db.execute("UPDATE schema_version SET version = ?", (version,))

    def schema_version(self) -> int:
        """The database's schema version."""
        with self._lock:
            return self._db.execute("SELECT version FROM schema_version").fetchone()[0]

    # -- transactions ------------------------------------------------------------------------------
    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self._lock)

    # -- games -------------------------------------------------------------------------------------
    def create(self, game: StoredGame, keys: dict[str, int | None]) -> None:
        """Store a new game with its seats, its moves and the hashes of its keys (hash -> seat, None: table)."""
        now = _now()
        with self._transaction() as db:
            db.execute("INSERT INTO games (id, spec, mode, seed, start, length, revision, revealed, created, updated)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (game.id, game.spec, game.mode, game.seed, json.dumps(game.start), len(game.moves),
                        game.revision, int(game.revealed), now, now))
            db.executemany("INSERT INTO seats (game_id, player, by) VALUES (?, ?, ?)",
                           [(game.id, player, by) for player, by in sorted(game.seats.items())])
            db.executemany("INSERT INTO keys (key_hash, game_id, player) VALUES (?, ?, ?)",
                           [(key_hash, game.id, player) for key_hash, player in keys.items()])
            _insert_moves(db, game.id, 0, game.moves)
        game.created = game.updated = now
        game.length = len(game.moves)

    def opens(self, key_hash: str) -> tuple[str, int | None] | None:
        """``(game id, seat)`` that the key with this hash opens (seat ``None``: the table link), or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT game_id, player FROM keys WHERE key_hash = ?", (key_hash,)).fetchone()
        return None if row is None else (row[0], row[1])

    def load(self, game_id: str) -> StoredGame | None:
        """The game with every stored move, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT id, spec, mode, seed, start, length, revision, revealed, created, updated "
                                   "FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            seats = self._db.execute("SELECT player, by FROM seats WHERE game_id = ? ORDER BY player",
                                     (game_id,)).fetchall()
            moves = self._db.execute("SELECT move, by, auto, entries, time FROM moves WHERE game_id = ? ORDER BY n",
                                     (game_id,)).fetchall()
        return StoredGame(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6], bool(row[7]), row[8],
                          row[9], {player: by for player, by in seats},
                          [StoredMove(m, by, bool(auto), {int(k): v for k, v in json.loads(entries).items()}, t)
                           for m, by, auto, entries, t in moves])

    def append(self, game_id: str, revision: int, length: int, moves: list[StoredMove]) -> int | None:
        """Put ``moves`` on the line after its first ``length`` moves (the moves waiting to be redone go) if the
        game is still at ``revision``; the new revision, or ``None`` when another change came first."""
        with self._transaction() as db:
            if not _at_revision(db, game_id, revision):
                return None
            db.execute("DELETE FROM moves WHERE game_id = ? AND n >= ?", (game_id, length))
            _insert_moves(db, game_id, length, moves)
            return _set_length(db, game_id, length + len(moves))

    def move_to(self, game_id: str, revision: int, length: int) -> int | None:
        """Undo or redo: the line becomes the first ``length`` stored moves (if the game is still at
        ``revision``); the new revision, or ``None``."""
        with self._transaction() as db:
            if not _at_revision(db, game_id, revision):
                return None
            return _set_length(db, game_id, length)

    def reveal(self, game_id: str) -> None:
        """Mark a training game's full record as open to its one human seat."""
        with self._transaction() as db:
            db.execute("UPDATE games SET revealed = 1, revision = revision + 1, updated = ? WHERE id = ?",
                       (_now(), game_id))

    def close(self) -> None:
        """Close the database (a checkpoint folds the write-ahead log into the file)."""
        with self._lock:
            self._db.close()


class _Transaction:
    """``with store._transaction() as db:`` runs its statements in one ``BEGIN IMMEDIATE`` transaction, committed
    (synchronously: ``synchronous=FULL``) when the block ends, rolled back on an exception."""

    def __init__(self, db: sqlite3.Connection, lock: threading.Lock) -> None:
        self._db = db
        self._lock = lock

    def __enter__(self) -> _Transaction:
        self._lock.acquire()
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self._lock.release()
            raise
        return self

    def __exit__(self, kind: type | None, value: BaseException | None, traceback: Any) -> None:
        try:
            self._db.execute("COMMIT" if kind is None else "ROLLBACK")
        finally:
            self._lock.release()

    def execute(self, sql: str, parameters: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        return self._db.execute(sql, parameters)

    def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> sqlite3.Cursor:
        return self._db.executemany(sql, rows)

    def executescript_in_transaction(self, script: str) -> None:
        """Run each statement of ``script`` (``executescript`` would commit first)."""
        for statement in (s.strip() for s in script.split(";")):
            if statement:
                self._db.execute(statement)


def _at_revision(db: _Transaction, game_id: str, revision: int) -> bool:
    row = db.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()
    return row is not None and row[0] == revision


def _set_length(db: _Transaction, game_id: str, length: int) -> int:
    db.execute("UPDATE games SET length = ?, revision = revision + 1, updated = ? WHERE id = ?",
               (length, _now(), game_id))
    return db.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()[0]


def _insert_moves(db: _Transaction, game_id: str, first: int, moves: list[StoredMove]) -> None:
    db.executemany("INSERT INTO moves (game_id, n, move, by, auto, entries, time) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [(game_id, first + i, m.move, m.by, int(m.auto),
                     json.dumps({str(k): v for k, v in sorted(m.entries.items())}), m.time)
                    for i, m in enumerate(moves)])


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def default_path() -> Path:
    """The default database: ``games.sqlite3`` in the user's data directory (``platformdirs``)."""
    return Path(user_data_dir("memory-solver")) / "games.sqlite3"
