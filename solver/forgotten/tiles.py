"""Memory Tiles in the Forgotten board notation: pair letters, cell status codes and the token of one cell.

The board notation is one token per cell, rows joined by ``/`` (``docs/formats/forgotten.md``); this module
reads and writes the tokens of one row, and ``solver.forgotten.notation`` whole positions.

Rows run from ``y = 1`` (top) to ``y = height``; within a row, cells run from ``x = 1`` (left).
A pair of Memory Tiles is named by a letter (``A`` is the first pair); boards with more than 26 pairs
(up to 31 on 8x8) go on with the letter followed by ``2``: ``A2`` is pair 27, ``E2`` pair 31 (lower
case ``a2`` unseen, ``+A2`` face up, ``-a2`` removed, as for the single letters).

===========  ===============================================================
token        cell
===========  ===============================================================
``@``        a Brain Tile
``.``        no tile (a board with fewer pairs than cells leaves cells empty)
``a``        a face-down tile of pair A that nobody has seen (lower case)
``A``        a face-down tile of pair A that the players have seen
``+A``       a face-up (matched) tile of pair A
``-a``       a removed tile of pair A, never seen; ``-A`` removed after being seen
``?``        a face-down tile nobody has seen, its pair not given
``-?``       a removed tile nobody saw, its pair not given
===========  ===============================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import NotationError, UnknownCardError

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SECOND_SERIES = "2"        # pair 27 is A2, 28 B2, ...
MAX_PAIRS = 31             # an 8x8 board filled around its two Brains

# cell status codes, shared with the kernels
NONE, DOWN, UP, REMOVED = 0, 1, 2, 3
HIDDEN = -2  # a tile whose pair is not given ('?')


@dataclass(frozen=True)
class Cell:
    """One parsed token: ``tile`` is a pair number, -1 for no tile, ``HIDDEN`` for ``?``."""

    tile: int
    status: int
    seen: bool
    brain: bool = False


BRAIN = Cell(-1, NONE, False, True)
EMPTY = Cell(-1, NONE, False)


def letter(pair: int) -> str:
    """The name of a pair number: ``A`` to ``Z``, then ``A2``, ``B2``, ..."""
    if pair < len(LETTERS):
        return LETTERS[pair]
    return LETTERS[pair - len(LETTERS)] + SECOND_SERIES


def letter_range(pairs: int) -> str:
    """The names of a game of ``pairs`` pairs, e.g. ``A-C`` or ``A-Z, A2-E2``."""
    if pairs <= len(LETTERS):
        return f"A-{letter(pairs - 1)}"
    return f"A-Z, A2-{letter(pairs - 1)}"


def format_cell(cell: Cell, given: bool = True) -> str:
    """The token of a cell; unseen tiles print as ``?`` when ``given`` is false."""
    if cell.brain:
        return "@"
    if cell.tile == -1:
        return "."
    hidden = not cell.seen and (not given or cell.tile == HIDDEN)
    name = "?" if hidden else (letter(cell.tile) if cell.seen else letter(cell.tile).lower())
    if cell.status == UP:
        return "+" + name
    if cell.status == REMOVED:
        return "-" + name
    return name


def format_row(cells: list[Cell], given: bool = True) -> str:
    """The tokens of one row."""
    return "".join(format_cell(c, given) for c in cells)


def parse_row(text: str, width: int, pairs: int, field: str, label: str = "") -> list[Cell]:
    """The cells of one row; errors name the field, and the row (``label``) and column in the message."""
    if not isinstance(text, str):
        raise NotationError(field, text, "expected a row of cell tokens such as '@aB+C-d?'")
    cells: list[Cell] = []
    i = 0
    while i < len(text):
        where = field
        at = f"{label + ', ' if label else ''}x={len(cells) + 1}: "
        ch = text[i]
        prefix = ""
        if ch in "+-":
            prefix = ch
            i += 1
            if i >= len(text):
                raise NotationError(where, text, f"{at}'{prefix}' must be followed by a tile letter or '?'")
            ch = text[i]
        i += 1
        if ch == "@" and not prefix:
            cells.append(BRAIN)
        elif ch == "." and not prefix:
            cells.append(EMPTY)
        elif ch == "?":
            if prefix == "+":
                raise NotationError(where, text, f"{at}a face-up tile has been seen: write its letter, not '?'")
            cells.append(Cell(HIDDEN, REMOVED if prefix else DOWN, False))
        elif ch.isalpha() and ch.upper() in LETTERS:
            pair = LETTERS.index(ch.upper())
            name = ch
            if i < len(text) and text[i] == SECOND_SERIES:
                pair += len(LETTERS)
                name += SECOND_SERIES
                i += 1
            if pair >= pairs:
                raise UnknownCardError(where, name, f"{at}no pair {name.upper()} in a game of {pairs} pairs "
                                                    f"(letters {letter_range(pairs)})")
            seen = ch.isupper()
            if prefix == "+" and not seen:
                raise NotationError(where, text, f"{at}a face-up tile has been seen: write '+{name.upper()}'")
            status = UP if prefix == "+" else REMOVED if prefix == "-" else DOWN
            cells.append(Cell(pair, status, seen))
        else:
            raise NotationError(where, text, f"{at}unexpected {ch!r}: tokens are @ . a A +A -a -A ? -? (a pair "
                                             f"after Z is a letter and {SECOND_SERIES}: A{SECOND_SERIES}, ...)")
    if len(cells) != width:
        raise NotationError(field, text, f"{label + ': ' if label else ''}expected {width} cells in a row, "
                                         f"found {len(cells)}")
    return cells


def tokens(row: str) -> list[str]:
    """The cell tokens of a notation row as written (a sign joins the next character, a letter the series mark
    ``2`` after it: ``A2`` is pair 27); nothing is checked."""
    out, i = [], 0
    while i < len(row):
        end = i + 2 if row[i] in "+-" and i + 1 < len(row) else i + 1
        if row[end - 1].isalpha() and row[end:end + 1] == SECOND_SERIES:
            end += 1
        out.append(row[i:end])
        i = end
    return out
