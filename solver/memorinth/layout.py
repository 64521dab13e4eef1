"""The Memorinth state vector: its layout and action codes, the rule options it holds, cell names and move strings.

A position is a flat int32 vector that the compiled kernel (``solver/memorinth/kernel.py``) plays; its layout
(documented in ``solver/twins/memorinth_rules.py``) comes from the kernel itself. ``docs/rules/memorinth.md``
lists every rule and interpretation (``MR-1`` ...).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.errors import IllegalMoveError, InvalidInputError, InvalidMoveError
from solver.memorinth import kernel
from solver.memorinth.deck import DIRECTION_NAMES, DIRECTIONS, Deck
from solver.twins.memorinth_rules import pair_from_index, pair_index

#: the state-vector layout and action codes, as the kernel defines them
K = kernel.layout()
A_FLIP, A_PASS, A_CHOOSE, A_SHIFT = K["A_FLIP"], K["A_PASS"], K["A_CHOOSE"], K["A_SHIFT"]
A_CLOVER, A_PEEK, A_SWAPCARDS, A_SWAPCHARS = K["A_CLOVER"], K["A_PEEK"], K["A_SWAPCARDS"], K["A_SWAPCHARS"]
N_ACTIONS, STATE_LEN, OUT = K["N_ACTIONS"], K["STATE_LEN"], K["OUT"]
UP, DOWN, SEEN, PIECE, CHAR = K["UP"], K["DOWN"], K["SEEN"], K["PIECE"], K["CHAR"]
CLOVER, SUPPLY, NPLAYERS, VARIANT, SIDEMODE, SEAT = (K["CLOVER"], K["SUPPLY"], K["NPLAYERS"], K["VARIANT"],
                                                      K["SIDEMODE"], K["SEAT"])
START, ROUND, TOMOVE, LAST, PHASE, PENDING, WINNER, TURNS, OWNTURNS = (
    K["START"], K["ROUND"], K["TOMOVE"], K["LAST"], K["PHASE"], K["PENDING"], K["WINNER"], K["TURNS"],
    K["OWNTURNS"])
PH_FLIP, PH_CHOOSE, PH_ACT, PH_OVER = 0, 1, 2, 3
DEAL_CARD = 400   # chance action: the next cell (row by row, skipping the centre) gets forest card k (1..24)
DEAL_CHAR = 430   # chance action: the next character place gets character i (0..7)

VARIANTS = ("base", "master")
ACTION_SIDE_MODES = ("shift", "special", "alternate")
DEFAULT_SEATS = {1: "S", 2: "SN", 3: "SWN", 4: "SWNE"}  # clockwise from the start player's seat
COLOURS = ("yellow", "blue", "red", "green")
PENDING_NAMES = ("shift-N", "shift-E", "shift-S", "shift-W", "clover", "peek", "swap-cards", "swap-characters")
PHASE_NAMES = ("flip", "choose", "act", "over")
COLUMNS = "abcde"
CENTRE = 12
N_PLAYERS_MAX = 4
FOREST_CELLS = [c for c in range(25) if c != CENTRE]


@dataclass(frozen=True)
class Rules:
    """The rule options of one game."""

    players: int
    variant: str
    action_side: str
    seats: str
    deck: Deck

    @property
    def master(self) -> bool:
        """True for Master Memorinth."""
        return self.variant == "master"

    @property
    def goblins(self) -> bool:
        """Goblins and lucky clovers are in play (MR-14): Master Memorinth with the special side in use."""
        return self.master and self.action_side != "shift"

    def mode_code(self) -> int:
        """The kernel's SIDEMODE value."""
        return ACTION_SIDE_MODES.index(self.action_side)

    def header(self) -> str:
        """The notation's rules section, e.g. ``2p base SN`` or ``3p master-special SWN #1a2b3c4d``."""
        variant = self.variant if not self.master else f"master-{self.action_side}"
        deck = "" if self.deck.is_default else f" {self.deck.tag()}"
        return f"{self.players}p {variant} {self.seats}{deck}"


def rule_vector(rules: Rules) -> np.ndarray:
    """A vector with the rule fields set and an undealt (identity) layout."""
    vec = np.zeros(STATE_LEN, dtype=np.int32)
    vec[NPLAYERS] = rules.players
    vec[VARIANT] = 1 if rules.master else 0
    vec[SIDEMODE] = rules.mode_code()
    for i in range(4):
        vec[SEAT + i] = "NESW".index(rules.seats[i]) if i < rules.players else 2
    for c in range(25):
        vec[UP + c] = 2 * c
        vec[DOWN + c] = 2 * c + 1
    for i in range(4):
        vec[PIECE + i] = CENTRE if i < rules.players else -1
    for i in range(8):
        vec[CHAR + i] = i if rules.master else i // 2
    vec[SUPPLY] = 5 - rules.players if rules.goblins else 5
    for i in range(rules.players):
        vec[CLOVER + i] = 1 if rules.goblins else 0
    vec[ROUND] = 1
    vec[LAST] = -1
    vec[PENDING] = -1
    vec[WINNER] = -1
    return vec


def check_seats(seats: str, players: int, field: str) -> str:
    """``auto`` or a string of distinct table sides (N, E, S, W), one per player in turn order."""
    if seats == "auto":
        return DEFAULT_SEATS[players]
    if not isinstance(seats, str) or len(seats) != players or any(s not in DIRECTIONS for s in seats) \
            or len(set(seats)) != len(seats):
        raise InvalidInputError(field, seats, f"expected {players} distinct letters from N, E, S, W "
                                              "(the table side each player sits at, in turn order) or 'auto'")
    return seats


def cell_name(cell: int) -> str:
    """``a1`` (north-west corner) .. ``e5`` (south-east corner); columns west to east, rows north to south."""
    return f"{COLUMNS[cell % 5]}{cell // 5 + 1}"


class OffBoard(InvalidInputError):
    """A cell written as a column letter and a row number but off the 5x5 board (``z9``, ``f1``)."""


def parse_cell(text: object, field: str) -> int:
    """The cell index of a name such as ``c3``."""
    if isinstance(text, str) and len(text) == 2 and text[0] in COLUMNS and text[1] in "12345":
        return COLUMNS.index(text[0]) + 5 * (int(text[1]) - 1)
    if isinstance(text, str) and len(text) >= 2 and text[0].isalpha() and text[1:].isdigit():
        raise OffBoard(field, text, "off the 5x5 board (columns a-e west to east, rows 1-5 north to south)")
    raise InvalidInputError(field, text, "expected a cell a1..e5 (columns a-e west to east, rows 1-5 north to south)")


def start_side(round_number: int, to_move: int) -> int:
    """The start-player card's side (0 Sun, 1 Moon) during ``to_move``'s turn in round ``round_number`` (MR-6)."""
    if round_number == 1:
        return 0
    if to_move == 0:
        return 0 if round_number % 2 == 0 else 1
    return 0 if round_number % 2 == 1 else 1


# -- move strings ------------------------------------------------------------------------------
def action_to_string(action: int, codes: str, pending: int) -> str:
    """The move string of a play action (``pending``: the shift direction when shifting)."""
    if A_FLIP <= action < A_PASS:
        return f"flip {cell_name(action)}"
    if action == A_PASS:
        return "pass"
    if A_CHOOSE <= action < A_SHIFT:
        return f"choose {codes[action - A_CHOOSE]}"
    if A_SHIFT <= action < A_CLOVER:
        line = action - A_SHIFT
        where = f"col {COLUMNS[line]}" if pending in (0, 2) else f"row {line + 1}"
        return f"shift {where} {DIRECTION_NAMES[pending]}"
    if A_CLOVER <= action < A_PEEK:
        return f"clover from {action - A_CLOVER}"
    if A_PEEK <= action < A_SWAPCARDS:
        return f"peek {cell_name(action - A_PEEK)}"
    if A_SWAPCARDS <= action < A_SWAPCHARS:
        a, b = pair_from_index(action - A_SWAPCARDS, 25)
        return f"swap {cell_name(a)} {cell_name(b)}"
    a, b = pair_from_index(action - A_SWAPCHARS, 8)
    return f"swap {codes[a]} {codes[b]}"


def parse_move_text(text: object, codes: str, field: str = "move") -> int:
    """The action a move string names (legality is checked by the state). Case and spacing are forgiven."""
    if not isinstance(text, str):
        raise InvalidMoveError(field, text, "expected a move string such as 'flip b2'")
    words = text.strip().split()
    bad = InvalidMoveError(field, text, "expected 'flip b2', 'pass', 'choose R', 'shift col b south', "
                                        "'shift row 3 east', 'clover from 1', 'peek b2', 'swap b2 d4' or 'swap R F'")
    if not words:
        raise bad
    verb = words[0].lower()
    try:
        if verb == "flip" and len(words) == 2:
            return A_FLIP + parse_cell(words[1].lower(), field)
        if verb == "pass" and len(words) == 1:
            return A_PASS
        if verb == "choose" and len(words) == 2 and words[1].upper() in codes and len(words[1]) == 1:
            return A_CHOOSE + codes.index(words[1].upper())
        if verb == "shift" and len(words) == 4:
            kind, line = words[1].lower(), words[2].lower()
            if kind == "col" and line in COLUMNS and len(line) == 1:
                return A_SHIFT + COLUMNS.index(line)
            if kind == "row" and line in "12345" and len(line) == 1:
                return A_SHIFT + int(line) - 1
            raise bad
        if verb == "clover" and len(words) == 3 and words[1].lower() == "from" and words[2] in "0123" \
                and len(words[2]) == 1:
            return A_CLOVER + int(words[2])
        if verb == "peek" and len(words) == 2:
            return A_PEEK + parse_cell(words[1].lower(), field)
        if verb == "swap" and len(words) == 3:
            x, y = words[1], words[2]
            if len(x) == 1 and len(y) == 1:
                a, b = sorted((codes.index(x.upper()), codes.index(y.upper())))
                if a == b:
                    raise bad
                return A_SWAPCHARS + pair_index(a, b, 8)
            a, b = sorted((parse_cell(x.lower(), field), parse_cell(y.lower(), field)))
            if a == b:
                raise bad
            return A_SWAPCARDS + pair_index(a, b, 25)
    except OffBoard as exc:
        raise IllegalMoveError(field, text, exc.problem) from None
    except (InvalidInputError, ValueError):
        raise bad from None
    raise bad
