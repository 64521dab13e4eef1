"""What one seat may not see, as strings to look for in what its page received (tests/web/test_table_browser.py).

Generic over the registry: the other seats' views and the full state are walked beside the seat's own view; a
string they hold where the seat's view holds a masked value (``?``), a count, or nothing is a secret of the seat,
unless the seat's own view holds it too (then the seat knows that card, somewhere).
"""

from __future__ import annotations

import json
from typing import Any

#: secrets shorter than this are not looked for in text (a one-letter card is in every word)
SHORTEST = 2


def secrets_of(own: Any, others: list[Any]) -> set[str]:
    """The strings of ``others`` (other seats' views, the full state, as JSON) that ``own`` (a seat's view) hides."""
    found: set[str] = set()
    for other in others:
        _walk(own, other, found)
    known = json.dumps(own)
    return {s for s in found if len(s) >= SHORTEST and s not in known}


def _strings(value: Any, out: set[str]) -> None:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, out)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)


def _walk(own: Any, other: Any, out: set[str]) -> None:
    if own == other:
        return
    if isinstance(own, dict) and isinstance(other, dict):
        for key, value in other.items():
            if key in ("view", "role"):
                continue
            if key in own:
                _walk(own[key], value, out)
            else:
                _strings(value, out)
    elif isinstance(own, list) and isinstance(other, list) and len(own) == len(other):
        for mine, theirs in zip(own, other):
            _walk(mine, theirs, out)
    elif isinstance(own, str) and isinstance(other, str):
        if "?" in own:
            out.add(other)
            mine, theirs = own.split(), other.split()
            if len(mine) == len(theirs):  # a masked word among words: "17S:?" beside "17S:N"
                out.update(t for m, t in zip(mine, theirs) if "?" in m and t != m)
    else:
        _strings(other, out)


def leaks(text: str, secrets: set[str]) -> list[str]:
    """The secrets found in ``text``."""
    return sorted(s for s in secrets if s in text)
