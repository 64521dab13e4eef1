"""Small checked accessors for JSON-like input.

Every game reads its JSON state through these helpers so that a bad value is
always reported with the dotted path of its field and the value itself.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from solver.errors import InvalidInputError

T = TypeVar("T")
_MISSING: Any = object()


def join(path: str, key: str | int) -> str:
    """``join("state", "kingdom") == "state.kingdom"``; ``join("cards", 3) == "cards[3]"``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def as_object(value: Any, field: str) -> dict[str, Any]:
    """The value as a JSON object (dict with string keys)."""
    if not isinstance(value, Mapping):
        raise InvalidInputError(field, value, "expected a JSON object")
    return dict(value)


def check_keys(obj: Mapping[str, Any], allowed: Iterable[str], field: str) -> None:
    """Reject keys that are not in ``allowed`` (a typo must not be ignored silently)."""
    allowed_set = set(allowed)
    for key in obj:
        if key not in allowed_set:
            raise InvalidInputError(join(field, str(key)), key, f"unknown key (allowed: {', '.join(sorted(allowed_set))})")


def get(obj: Mapping[str, Any], key: str, field: str, default: Any = _MISSING) -> Any:
    """``obj[key]``, or ``default``; a missing required key names its path."""
    if key in obj:
        return obj[key]
    if default is _MISSING:
        raise InvalidInputError(join(field, key), problem="missing required field")
    return default


def as_int(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    """An integer (booleans rejected), optionally within ``[lo, hi]``."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise InvalidInputError(field, value, "expected an integer")
    return _within(value, value, field, lo, hi)


def as_number(value: Any, field: str, lo: float | None = None, hi: float | None = None) -> float:
    """A finite real number, optionally within ``[lo, hi]``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInputError(field, value, "expected a number")
    number = float(value)
    if number != number or number in (float("inf"), float("-inf")):
        raise InvalidInputError(field, value, "expected a finite number")
    return _within(number, value, field, lo, hi)


def _within(number: Any, given: Any, field: str, lo: float | None, hi: float | None) -> Any:
    """``number`` when it lies in ``[lo, hi]`` (either bound optional); else an error quoting ``given``."""
    if lo is not None and number < lo:
        raise InvalidInputError(field, given, f"must be at least {lo}")
    if hi is not None and number > hi:
        raise InvalidInputError(field, given, f"must be at most {hi}")
    return number


def as_bool(value: Any, field: str) -> bool:
    """A JSON boolean."""
    if not isinstance(value, bool):
        raise InvalidInputError(field, value, "expected true or false")
    return value


def as_str(value: Any, field: str) -> str:
    """A JSON string."""
    if not isinstance(value, str):
        raise InvalidInputError(field, value, "expected a string")
    return value


def as_list(value: Any, field: str, min_len: int | None = None, max_len: int | None = None) -> list[Any]:
    """A JSON array, optionally with a length range."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidInputError(field, value, "expected a JSON array")
    items = list(value)
    if min_len is not None and len(items) < min_len:
        raise InvalidInputError(field, value, f"expected at least {min_len} items")
    if max_len is not None and len(items) > max_len:
        raise InvalidInputError(field, value, f"expected at most {max_len} items")
    return items


def as_choice(value: Any, field: str, choices: Iterable[T]) -> T:
    """One of ``choices`` (compared with ``==``)."""
    options = list(choices)
    if value not in options:
        raise InvalidInputError(field, value, f"expected one of {', '.join(map(str, options))}")
    return value


class Bound:
    """The range of a number every front door checks the same way: ``SEED.check(value, "--seed")``."""

    __slots__ = ("lo", "hi", "integer")

    def __init__(self, lo: float, hi: float, integer: bool = True) -> None:
        self.lo, self.hi, self.integer = lo, hi, integer

    def __repr__(self) -> str:
        return f"Bound({self.lo!r}, {self.hi!r}{'' if self.integer else ', integer=False'})"

    def check(self, value: Any, field: str) -> Any:
        """The value, checked (an integer unless the bound is for any number); errors name ``field``."""
        if self.integer:
            return as_int(value, field, int(self.lo), int(self.hi))
        return as_number(value, field, self.lo, self.hi)


#: the bounds of every request, written once (``solver/service.py`` checks them for every front door)
SEED = Bound(0, 2**63 - 1)
TOP = Bound(1, 1000)
PLAYER = Bound(0, 16)
PLAYERS = Bound(1, 16)
MISTAKES = Bound(0, 1000)
#: a puzzle's or a self-play game's index in its run (a run holds at most ``INDEX.hi + 1`` items)
INDEX = Bound(0, 10**9 - 1)
TIME_MS = Bound(1, 86_400_000)
NODES = Bound(1, 10**12)
PRIORITY = Bound(-(2**31), 2**31 - 1)
REPORT_EVERY = Bound(0.01, 3600, integer=False)
#: worker threads of the engine and the web board
THREADS = Bound(1, 64)
#: queries waiting for a worker (``--max-queue``), or one client's queries (``--max-searches-per-client``)
QUEUE = Bound(1, 1_000_000)
#: local processes of a run (``--jobs``)
JOBS = Bound(1, 1024)
PORT = Bound(0, 65535)


#: longest integer literal accepted in JSON input (a seed needs 19 digits)
MAX_INT_DIGITS = 40


class _BadNumber(ValueError):
    pass


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _BadNumber(f"integer with {len(text.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadNumber(f"number {text[:40]} is out of range")
    return value


def _parse_constant(text: str) -> Any:
    raise _BadNumber(f"{text} is not a JSON number")


def decode_json(text: str | bytes, field: str | None) -> Any:
    """Parse JSON text strictly: malformed text, ``NaN``/``Infinity``, out-of-range numbers, integers longer than
    :data:`MAX_INT_DIGITS` digits and nesting too deep for the parser all raise :class:`InvalidInputError` naming
    ``field``."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInputError(field, problem="not valid UTF-8") from None
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        where = f" at line {exc.lineno} column {exc.colno}" if "\n" in text.strip() else ""
        raise InvalidInputError(field, text.strip()[:80], f"malformed JSON ({exc.msg}{where})") from None
    except _BadNumber as exc:
        raise InvalidInputError(field, text.strip()[:80], f"malformed JSON ({exc})") from None
    except RecursionError:
        raise InvalidInputError(field, text.strip()[:80], "malformed JSON (nested too deeply)") from None


class OutOfRange:
    """A number that :func:`decode_json` refuses, kept as text by :func:`decode_json_lenient`."""

    def __init__(self, text: str) -> None:
        self.text = text


def decode_json_lenient(text: str) -> Any:
    """Like :func:`decode_json` but numbers it would refuse become :class:`OutOfRange` (to locate them);
    ``None`` when the text is not JSON at all."""
    def number(kind: Any) -> Any:
        def parse(t: str) -> Any:
            try:
                return kind(t)
            except _BadNumber:
                return OutOfRange(t)
        return parse
    try:
        return json.loads(text, parse_int=number(_parse_int), parse_float=number(_parse_float),
                          parse_constant=OutOfRange)
    except (ValueError, RecursionError):
        return None


def find_out_of_range(value: Any, path: str = "") -> tuple[str, str] | None:
    """The dotted path and text of the first :class:`OutOfRange` number in ``value``."""
    if isinstance(value, OutOfRange):
        return path, value.text
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = find_out_of_range(item, join(path, key) if isinstance(key, str) else f"{path}[{key}]")
        if found:
            return found
    return None
