"""Game records: the start position (a full state or one player's view), then every move and observed outcome.

The file form is JSON lines (``docs/records.md``): a header line, then one line
per move, so a table-side session appends as it goes::

    {"format": "memory-solver-record", "version": 1, "game": "aetherya", "start": {...}, "observer": 0}
    {"move": "take", "time": "2026-12-01T20:31:05Z"}
    {"move": "place b2", "comment": "keeps the Dragon away from the Elves"}

The object form (the engine's ``record``) is the header with ``"moves": [...]``.
Moves are the strings ``apply`` takes; a record replays to the same final
position every time (:meth:`Record.positions`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from solver.errors import IllegalMoveError, InvalidInputError
from solver.game import Game, State, View
from solver.registry import load_game
from solver.validate import as_int, as_list, as_object, as_str, check_keys, decode_json, get, join

FORMAT = "memory-solver-record"
VERSION = 1
HEADER_KEYS = ("format", "version", "game", "start", "observer", "created", "comment", "players", "result")
MOVE_KEYS = ("move", "time", "comment", "by")


@dataclass
class RecordedMove:
    """One entered move or outcome, with optional metadata."""

    move: str
    time: str | None = None
    comment: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"move": self.move}
        if self.time is not None:
            out["time"] = self.time
        if self.comment is not None:
            out["comment"] = self.comment
        return out

    @staticmethod
    def from_json(value: Any, field_name: str) -> RecordedMove:
        if isinstance(value, str):
            return RecordedMove(value)
        obj = as_object(value, field_name)
        check_keys(obj, MOVE_KEYS, field_name)
        time = obj.get("time")
        comment = obj.get("comment")
        return RecordedMove(as_str(get(obj, "move", field_name), join(field_name, "move")),
                            None if time is None else as_str(time, join(field_name, "time")),
                            None if comment is None else as_str(comment, join(field_name, "comment")))


@dataclass
class Record:
    """A game record: the game spec, the start position's JSON and the moves."""

    game: str
    start: dict[str, Any]
    moves: list[RecordedMove] = field(default_factory=list)
    comment: str | None = None
    created: str | None = None

    @property
    def observer(self) -> int | None:
        """The observing player when the record starts from a view (a real table), else ``None``."""
        value = self.start.get("view")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    # -- building ---------------------------------------------------------------------
    @staticmethod
    def start_of(position: State | View, comment: str | None = None) -> Record:
        """An empty record starting at ``position``."""
        return Record(position.game.spec(), position.to_json(), [], comment, _now())

    def load_game(self, game: Game | None = None, field_name: str = "record") -> Game:
        """The record's game (``game`` must be the same game when given; the record's parameters win)."""
        loaded = load_game(self.game, join(field_name, "game"))
        if game is not None and loaded.name != game.name:
            raise InvalidInputError(join(field_name, "game"), self.game, f"this is a record of {loaded.long_name}, "
                                                                         f"not of {game.long_name}")
        return loaded

    def start_position(self, game: Game | None = None, field_name: str = "record") -> State | View:
        """The start position, parsed."""
        return self.load_game(game, field_name).parse_position(self.start, join(field_name, "start"))

    def positions(self, game: Game | None = None, field_name: str = "record") -> list[State | View]:
        """The position before each move and after the last (``len(moves) + 1`` positions)."""
        out: list[State | View] = []
        self._replay(self.start_position(game, field_name), field_name, lambda p: out.append(p.clone()))
        return out

    def final_position(self, game: Game | None = None, field_name: str = "record") -> State | View:
        """The position after every move."""
        return self._replay(self.start_position(game, field_name), field_name)

    def _replay(self, current: State | View, field_name: str, keep: Any = None) -> State | View:
        """``current`` advanced by every move (in place); ``keep`` sees the position before each move and at the end."""
        for i, move in enumerate(self.moves):
            if keep is not None:
                keep(current)
            where = f"{join(field_name, 'moves')}[{i}]"
            if current.is_terminal():
                raise IllegalMoveError(where, move.move, "the game is already over")
            current.apply_move(move.move, where)
        if keep is not None:
            keep(current)
        return current

    def extended(self, moves: list[str], comment: str | None = None, stamp: bool = True) -> Record:
        """A copy with ``moves`` appended (``comment`` on the last one)."""
        added = [RecordedMove(m, _now() if stamp else None) for m in moves]
        if added and comment is not None:
            added[-1].comment = comment
        return Record(self.game, dict(self.start), self.moves + added, self.comment, self.created)

    # -- serialising ------------------------------------------------------------------
    def header(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": self.game, "start": self.start,
                               "observer": self.observer}
        if self.created is not None:
            out["created"] = self.created
        if self.comment is not None:
            out["comment"] = self.comment
        return out

    def to_json(self) -> dict[str, Any]:
        """The object form: the header with ``moves``."""
        return {**self.header(), "moves": [m.to_json() for m in self.moves]}

    def to_lines(self) -> str:
        """The JSON-lines form (the file format)."""
        lines = [json.dumps(self.header(), allow_nan=False)]
        lines += [json.dumps(m.to_json(), allow_nan=False) for m in self.moves]
        return "\n".join(lines) + "\n"

    def write(self, path: str) -> None:
        """Write the record to ``path`` (replacing it)."""
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(self.to_lines())
        except OSError as exc:
            raise InvalidInputError("--record", path, f"cannot write ({exc.strerror})") from None


def is_record(payload: Any) -> bool:
    """True for a record's object form (a dict whose ``format`` is the record format)."""
    return isinstance(payload, dict) and payload.get("format") == FORMAT


def looks_like_record_lines(text: str) -> bool:
    """True when the first line of ``text`` is a record header."""
    first = text.lstrip().split("\n", 1)[0]
    return f'"{FORMAT}"' in first and first.strip().startswith("{")


def record_from_json(value: Any, field_name: str = "record") -> Record:
    """A record from its object form; errors name the field."""
    obj = as_object(value, field_name)
    check_keys(obj, HEADER_KEYS + ("moves",), field_name)
    if obj.get("format") != FORMAT:
        raise InvalidInputError(join(field_name, "format"), obj.get("format"), f"expected {FORMAT!r}")
    as_int(obj.get("version", VERSION), join(field_name, "version"), VERSION, VERSION)
    start = as_object(get(obj, "start", field_name), join(field_name, "start"))
    moves = [RecordedMove.from_json(m, f"{join(field_name, 'moves')}[{i}]")
             for i, m in enumerate(as_list(obj.get("moves", []), join(field_name, "moves")))]
    comment = obj.get("comment")
    created = obj.get("created")
    record = Record(as_str(get(obj, "game", field_name), join(field_name, "game")), start, moves,
                    None if comment is None else as_str(comment, join(field_name, "comment")),
                    None if created is None else as_str(created, join(field_name, "created")))
    observer = obj.get("observer")
    if observer is not None and observer != record.observer:
        raise InvalidInputError(join(field_name, "observer"), observer, "does not match the start position's view "
                                                                        f"({record.observer})")
    return record


def record_from_lines(text: str, field_name: str = "record") -> Record:
    """A record from its JSON-lines form (the header line, then one line per move)."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise InvalidInputError(field_name, problem="empty record")
    header = decode_json(lines[0][1], f"{field_name} (line {lines[0][0]})")
    if not isinstance(header, dict) or "moves" in header and len(lines) > 1:
        raise InvalidInputError(f"{field_name} (line 1)", lines[0][1][:80], "expected the record header")
    moves = list(header.pop("moves", []))
    for n, line in lines[1:]:
        moves.append(decode_json(line, f"{field_name} (line {n})"))
    return record_from_json({**header, "moves": moves}, field_name)


def load_record_file(path: str, field_name: str = "--record") -> Record:
    """Read a record file."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(field_name, path, f"cannot read ({exc})") from None
    return record_from_lines(text, field_name)


def append_to_file(path: str, game: Game, start: State | View, moves: list[str], comment: str | None = None,
                   replayed: bool = False) -> Record:
    """Append ``moves`` played from ``start`` to the record in ``path`` (created with ``start`` when missing).

    An existing record must end at ``start``: a record never silently forks. ``replayed``: the caller has already
    applied ``moves`` to ``start`` (the record, ending there, then replays too), so it is not replayed again.
    """
    if os.path.exists(path):
        record = load_record_file(path)
        end = record.final_position(game, "--record")
        if end.to_json() != start.to_json():
            raise InvalidInputError("--record", path, "the record ends at another position than STATE (give the "
                                                      "record itself as STATE to continue it)")
    else:
        record = Record.start_of(start)
    record = record.extended(moves, comment)
    if not replayed:
        record.final_position(game, "--record")  # every move must replay
    record.write(path)
    return record


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
