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
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from solver.errors import IllegalMoveError, InvalidInputError
from solver.game import Game, State, View, skip_forced
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
        """``current`` advanced by every move (in place); ``keep`` sees the position before each move and at the end.
        A view's forced masked entries (``card ?``, :func:`solver.game.forced_entry`) before a move are entered
        implicitly (a record made at a real table need not hold them; one that does replays as well); the end is left
        as the last move left it, so that a record can be continued with or without them."""
        for i, move in enumerate(self.moves):
            where = f"{join(field_name, 'moves')}[{i}]"
            skip_forced(current, move.move, where)  # a view's forced masked entries need not be recorded
            if keep is not None:
                keep(current)
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


# ---------------------------------------------------------------------------------------------- a seat's record
#: how many candidate positions :func:`seat_entries` may try for one move before it gives up (a view that cannot
#: follow a move of its own state is a bug in the game: ``RuntimeError``)
SEAT_SEARCH_NODES = 4000
#: the most entries one move of the full state may take in a view (a decision, then the outcomes it shows: at the
#: end of an Aetherya game every face-down card of every kingdom)
SEAT_SEARCH_DEPTH = 64


def seat_record(start: State, moves: list[str], seat: int, comment: str | None = None) -> Record:
    """The record ``seat`` keeps of the game ``start`` + ``moves``: it starts at ``start.view(seat)`` (observer =
    ``seat``) and holds, for each move, the entries the seat types (:func:`seat_entries`): outcomes the seat did
    not see are ``?``. It replays to ``state.view(seat)`` after every move."""
    state = start.clone()
    view = start.view(seat)
    record = Record(start.game.spec(), view.to_json(), [], comment, _now())
    for i, move in enumerate(moves):
        before = state.clone()
        state.apply_move(move, f"moves[{i}]")
        for entry in seat_entries(before, move, view, state):
            view.apply_move(entry)
            record.moves.append(RecordedMove(entry))
    return record


def seat_entries(before: State, move: str, view: View, after: State | None = None) -> list[str]:
    """What ``view``'s observer enters for ``move`` played in ``before`` (``view`` is ``before``'s view).

    The true move string when the view accepts it and it reaches the observer's true next view; else the
    masked entry (a ``?`` form among the view's legal entries) that does; where the view enters a decision
    and then the outcomes it shows (an Aetherya card placed over a face-down one, which is revealed), every
    entry in order. ``[]`` when the move changes nothing the observer sees. The search is generic: it
    tries entries, best guess first, and compares each result with ``after.view(observer)``.
    """
    if after is None:
        after = before.clone()
        after.apply_move(move)
    target = after.view(view.observer).to_json()
    found = _entries_to(view, target, move)
    if found is None:
        raise RuntimeError(f"player {view.observer}'s view cannot follow the move {move!r} of "
                           f"{before.to_notation()!r} (a bug in {before.game.name}'s views)")
    return found


def _entries_to(view: View, target: dict[str, Any], move: str) -> list[str] | None:
    """The entries that take ``view`` to ``target``. The first entry is the true move, else a masked entry, else
    (a view may spell a move its own way) another entry; while the view then waits for outcomes (a chance node of
    the view: the card a decision shows), the outcomes follow, those whose position is nearest the target first
    (:func:`_distance`: a card entered right turns a ``?`` into the target's card)."""
    if view.to_json() == target:
        return []
    budget = [SEAT_SEARCH_NODES]

    def made(current: View, entry: str) -> tuple[View, dict[str, Any]] | None:
        """The position after ``entry`` and its JSON (``None``: the view refuses the entry)."""
        budget[0] -= 1
        try:
            found = current.child(entry)
        except Exception:  # an entry the view lists but cannot take here: not a way to the target
            return None
        return found, found.to_json()

    def first_of(current: View, entries: list[str], depth: int, nearest_first: bool) -> list[str] | None:
        tried = []
        for entry in entries:
            found = made(current, entry) if budget[0] > 0 else None
            if found is not None and found[1] == target:
                return [entry]
            if found is not None:
                tried.append((entry, found[0], _distance(found[1], target) if nearest_first else 0))
        for entry, after, _ in sorted(tried, key=lambda item: item[2]):
            rest = outcomes(after, depth - 1)
            if rest is not None:
                return [entry] + rest
        return None

    def outcomes(current: View, depth: int) -> list[str] | None:
        if depth <= 0 or budget[0] <= 0 or current.is_terminal() or not current.is_chance_node():
            return None
        return first_of(current, current.legal_moves(), depth, True)

    legal = view.legal_moves()
    likely = ([move] if move in legal else []) + [m for m in legal if "?" in m and m != move]
    for entries in (likely, [m for m in legal if m not in likely]):
        found = first_of(view, entries, SEAT_SEARCH_DEPTH, False)
        if found is not None:
            return found
    return None


def _distance(a: Any, b: Any) -> int:
    """How far apart two JSON values are: differing leaves, strings compared character by character."""
    if isinstance(a, dict) and isinstance(b, dict):
        return sum(_distance(a.get(k), b.get(k)) for k in a.keys() | b.keys())
    if isinstance(a, list) and isinstance(b, list):
        return sum(_distance(x, y) for x, y in zip(a, b)) + 4 * abs(len(a) - len(b))
    if isinstance(a, str) and isinstance(b, str):
        return sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
    return 0 if a == b else 1


def entry_for(view: View, entry: str, outcome: bool, legal: list[str] | None = None) -> str | None:
    """What ``view``'s observer enters when another player at a real table enters ``entry`` (``outcome``: the
    entry was a chance outcome in the enterer's view), or ``None`` when the observer has nothing to enter
    (``legal``: the view's legal entries, when the caller has them).

    The same string when the view takes it; else the view's masked entry whose pattern matches it (``draw ?``
    for ``draw H``: each ``?`` stands for a word or part of one; the fewest ``?`` win); else the view's longest
    entry that ``entry`` extends by whole words (the observer sees less: ``reveal 1`` for ``reveal 1 C2b``).
    An outcome seen whole by the enterer that the observer's view has no form of is one the observer does not
    observe (``None``: Embers' Fenrys hears ``silent``, Aelin does not). Raises
    :class:`~solver.errors.IllegalMoveError` when the observer sees more than the enterer (their own draw,
    entered ``draw ?`` by another): the observer enters it.
    """
    if legal is None:
        legal = [] if view.is_terminal() else view.legal_moves()
    if entry in legal:
        return entry
    masked = sorted((m for m in legal if "?" in m and _mask_pattern(m).fullmatch(entry)), key=lambda m: m.count("?"))
    if masked:
        return masked[0]
    words = entry.split()
    shorter = [m for m in legal if m.split() == words[:len(m.split())]]
    if shorter:
        return max(shorter, key=len)
    sees_more = "?" in entry or any(m.split()[:len(words)] == words for m in legal) or \
        any("?" in entry and _mask_pattern(entry).fullmatch(m) for m in legal)
    if outcome and not sees_more:
        return None
    raise IllegalMoveError("moves", entry, f"player {view.observer} sees this differently: it is entered on "
                                           f"player {view.observer}'s own page")


def _mask_pattern(masked: str) -> re.Pattern[str]:
    """A masked entry as a pattern: each ``?`` stands for one or more characters other than spaces."""
    return re.compile("".join(r"[^\s]+?" if ch == "?" else re.escape(ch) for ch in masked))
