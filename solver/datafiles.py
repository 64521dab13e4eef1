"""Where game data files may be read from (the ``deck=``, ``tiles=``, ``rules=`` parameters of a game spec).

On the command line a user names their own files. A server (the engine, the
web board) passes queries from elsewhere through, so it calls
:func:`restrict` at start-up: from then on a data file is read only from the
package's own data directory or from a directory given with ``--data-dir``,
and must be a regular file there (no devices, pipes or ``/dev/stdin``);
anything else is refused with the parameter's field before any file is
opened. A relative name is looked up in those directories in order.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from solver.errors import InvalidInputError, UnknownGameError

PACKAGE_DATA = Path(__file__).resolve().parent / "data"
#: the largest data file a game spec may name
MAX_DATA_FILE_BYTES = 16 * 1024 * 1024
#: parameter values that mean "the shipped file"
DEFAULT_VALUES = ("", "default")

_lock = threading.Lock()
_allowed: list[Path] | None = None


def restrict(directories: list[str] | None = None) -> None:
    """Allow data files only from the package's data and ``directories`` (for servers)."""
    global _allowed
    dirs = [PACKAGE_DATA]
    for d in directories or []:
        path = Path(d).expanduser().resolve()
        if not path.is_dir():
            raise UnknownGameError("--data-dir", d, "not a directory")
        dirs.append(path)
    with _lock:
        _allowed = dirs


def unrestrict() -> None:
    """Allow any readable file again (the command line's default)."""
    global _allowed
    with _lock:
        _allowed = None


def allowed_directories() -> list[Path] | None:
    """The directories data files may come from, or ``None`` when unrestricted."""
    with _lock:
        return None if _allowed is None else list(_allowed)


def check_data_file(field: str, value: str) -> str:
    """``value`` as the path to open, or the default marker; refused (naming ``field``) where not allowed."""
    if value in DEFAULT_VALUES:
        return value
    dirs = allowed_directories()
    if dirs is None:
        return value
    candidates = [Path(value)] if os.path.isabs(value) else [d / value for d in dirs]
    for candidate in candidates:
        real = candidate.resolve()
        if not any(real == d or d in real.parents for d in dirs):
            continue
        if real.is_file():
            if real.stat().st_size > MAX_DATA_FILE_BYTES:
                raise UnknownGameError(field, value, f"data file larger than {MAX_DATA_FILE_BYTES} bytes")
            return str(real)
    raise UnknownGameError(field, value, "this server reads data files only from the package's data and from its "
                                         "--data-dir directories (a regular file there)")


def read_json_file(path: str | Path, field: str, value: Any, what: str) -> Any:
    """The JSON object in the data file ``path`` (``what`` names it in errors, e.g. ``"the deck file"``); a file
    that cannot be read or is not JSON is refused naming ``field`` and ``value`` (the parameter as given)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(field, value, f"cannot read {what} ({exc})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(field, value, f"malformed JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
                                ) from None
