"""Aetherya puzzles answered by moves: the position a player answers a puzzle from (issue 13, the web board).

A best-kingdom puzzle is answered by arranging cards. Its position (:class:`KingdomPuzzle`) holds the fixed
cards on their cells and the other cards in hand; the moves are the steps of an arrangement: ``pick F`` (take a
card of that kind from the hand), ``place b2`` (put the picked card on an empty cell) and ``lift b2`` (a placed
card back into the hand; the fixed cards never move). Once every card is on the board the position is over and
the kingdom is the answer.

A legend-race puzzle is a solitaire turn sequence. Its position (:class:`RacePuzzle`) is the kingdom with its
face-down cards known, the discard pile and the draw pile in order; the moves are the game's own, a turn being
``take`` then ``place CELL``, or ``draw`` then ``place CELL`` or ``reveal CELL`` (the rules of
``solver/aetherya/race.py``: a face-up card is never replaced by one of its kind, Portals and Dragons are
locked). The position is over once the Legend is met (or after ``RACE_MAX_TURNS`` turns).

``check`` accepts the moves played from these positions as a flat JSON list (``puzzles.read_move_answer``):
they are replayed on the puzzle's position (an illegal move is a verdict, not an error), then judged as the
kingdom or the turns they make, by the same check as the puzzle's own answer forms, which re-proves the optimum.

Both positions have a JSON form (``{"puzzle": KIND, ...}``) and a notation (``puzzle:KIND ...``) that every
position-taking verb accepts (``apply``, ``legal-moves``, ``show``, ``score``), and a picture whose cards and
cells carry ``data-target`` tokens of the moves (``docs/formats/aetherya.md``, "Puzzles").
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from solver.aetherya.cards import (CARD_NAMES, CARD_TYPES, CELL_NAMES, DRAGON, LEGENDS, LETTERS, PORTAL, UNEXPLORED,
                                   legend)
from solver.aetherya.race import RacePosition, legend_met, placement_ok
from solver.aetherya.scoring import score_kingdom
from solver.errors import IllegalMoveError, InvalidInputError, InvalidMoveError, UnsupportedActionError
from solver.game import TERMINAL_PLAYER, State
from solver.validate import as_int, as_list, as_object, as_str, check_keys, get

#: the puzzle kinds (``generate --kind``; the first is the default)
KINDS = ("best-kingdom", "legend-race")
PREFIX = "puzzle:"
#: a legend-race position ends after this many turns (the puzzles need 2 to 4; the draw pile holds 10 cards)
RACE_MAX_TURNS = 10
EMPTY = -1
#: action codes: best-kingdom pick X (card code), place CELL, lift CELL; legend-race take, draw, place, reveal
PICK, PLACE, LIFT = 0, 16, 32
TAKE, DRAW, REVEAL = 0, 1, 32
_MOVE = re.compile(r"^(pick [pfmshedgro]|(place|lift|reveal) [a-d][1-4]|take|draw)$")


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().split())


def is_move_text(text: str) -> bool:
    """True when ``text`` is written as a move of a puzzle position (``pick F``, ``place b2``, ``take``, ...)."""
    return bool(_MOVE.match(_norm(text)))


def _letters(text: str, field: str, allow: str = "") -> list[int]:
    codes = []
    for i, ch in enumerate(text):
        if ch in allow:
            codes.append(EMPTY)
        elif ch.upper() in LETTERS[:CARD_TYPES]:
            codes.append(LETTERS.index(ch.upper()))
        else:
            raise InvalidInputError(field, text, f"unknown card {ch!r} at {i + 1} (expected one of "
                                                 f"{' '.join(LETTERS[:CARD_TYPES])})")
    return codes


def _grid(text: str, field: str, allow: str = "") -> tuple[list[int], list[bool]]:
    """A 4x4 kingdom ``ABCD/EFGH/IJKL/MNOP``: card codes (EMPTY for a character of ``allow``) and lower case."""
    rows = as_str(text, field).strip().split("/")
    if len(rows) != 4 or any(len(row) != 4 for row in rows):
        raise InvalidInputError(field, text, "expected a kingdom of 4 rows of 4 cards separated by '/'")
    flat = "".join(rows)
    return _letters(flat, field, allow), [ch.islower() for ch in flat]


class PuzzlePosition(State):
    """What the two puzzle positions share: one player, every card known, no chance, no hints."""

    kind = ""

    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.is_terminal() else 0

    def returns(self) -> list[float]:
        return [float(self.board_total())]

    def board_total(self) -> int:
        return score_kingdom(np.asarray(self.visible(), dtype=np.uint8)).total

    def visible(self) -> list[int]:
        """The board as the scorer reads it (UNEXPLORED for an empty or face-down cell)."""
        raise NotImplementedError

    def observation(self, player: int) -> dict[str, Any]:
        return self.to_json()

    def resample_from_observation(self, player: int, rng: Any) -> State:
        return self.clone()  # every card of a puzzle position is known

    def view(self, player: int) -> Any:
        raise UnsupportedActionError("state.puzzle", self.kind, "a puzzle position is played alone with every card "
                                     "known: it has no player views or hints (check the answer with 'check')")

    def parse_move(self, text: str, field: str = "move") -> int:
        """Moves ignore case and spaces; an illegal one is refused with the legal moves."""
        if not isinstance(text, str):
            raise InvalidMoveError(field, text, "expected a move string")
        wanted = _norm(text)
        for action in self.legal_actions():
            if self.action_to_string(action).lower() == wanted:
                return action
        if self.is_terminal():
            raise IllegalMoveError(field, text, self.over_reason())
        if not _MOVE.match(wanted):
            raise InvalidMoveError(field, text, f"not a move of a {self.kind} puzzle ({self.move_forms()})")
        legal = [self.action_to_string(a) for a in self.legal_actions()]
        shown = ", ".join(legal[:8]) + (f", ... ({len(legal)} in all)" if len(legal) > 8 else "")
        raise IllegalMoveError(field, text, f"{self.why_not(wanted)} (legal now: {shown})")

    def over_reason(self) -> str:
        raise NotImplementedError

    def move_forms(self) -> str:
        raise NotImplementedError

    def why_not(self, move: str) -> str:
        raise NotImplementedError

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalMoveError("move", action, f"not a legal action here (legal: {self.legal_actions()})")
        self._apply(action)

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def to_notation(self) -> str:
        raise NotImplementedError


# ---------------------------------------------------------------------- best-kingdom
class KingdomPuzzle(PuzzlePosition):
    """A best-kingdom puzzle being answered: the board (fixed cards, cards placed, empty cells), the hand and the
    card picked from it."""

    kind = "best-kingdom"

    def __init__(self, game: Any, cells: list[int], fixed: int, hand: list[int], held: int = EMPTY) -> None:
        super().__init__(game)
        self.cells, self.fixed, self.hand, self.held = list(cells), fixed, list(hand), held

    def clone(self) -> KingdomPuzzle:
        return KingdomPuzzle(self.game, self.cells, self.fixed, self.hand, self.held)

    def visible(self) -> list[int]:
        return [UNEXPLORED if c == EMPTY else c for c in self.cells]

    def is_terminal(self) -> bool:
        return self.held == EMPTY and not any(self.hand)

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        out = [PICK + k for k in range(CARD_TYPES) if self.hand[k] and k != self.held]
        if self.held != EMPTY:
            out += [PLACE + c for c in range(16) if self.cells[c] == EMPTY]
        out += [LIFT + c for c in range(16) if self.cells[c] != EMPTY and not self.fixed >> c & 1]
        return out

    def action_to_string(self, action: int) -> str:
        if PICK <= action < PICK + CARD_TYPES:
            return f"pick {LETTERS[action - PICK]}"
        if PLACE <= action < PLACE + 16:
            return f"place {CELL_NAMES[action - PLACE]}"
        if LIFT <= action < LIFT + 16:
            return f"lift {CELL_NAMES[action - LIFT]}"
        raise InvalidMoveError("move", action, "not a best-kingdom puzzle action")

    def _apply(self, action: int) -> None:
        if action < PLACE:  # pick (a card already picked goes back to the hand)
            if self.held != EMPTY:
                self.hand[self.held] += 1
            self.held = action - PICK
            self.hand[self.held] -= 1
        elif action < LIFT:
            self.cells[action - PLACE] = self.held
            self.held = EMPTY
        else:
            cell = action - LIFT
            self.hand[self.cells[cell]] += 1
            self.cells[cell] = EMPTY

    def over_reason(self) -> str:
        return "every card is placed: the kingdom is complete (check it, or start again)"

    def move_forms(self) -> str:
        return "expected 'pick CARD', 'place CELL' or 'lift CELL'"

    def why_not(self, move: str) -> str:
        verb, _, arg = move.partition(" ")
        if verb not in ("pick", "place", "lift"):
            return f"not a move of a best-kingdom puzzle ({self.move_forms()})"
        if verb == "pick":
            card = LETTERS.index(arg.upper())
            return f"no {CARD_NAMES[card]} left in the hand" if card != self.held else f"{arg.upper()} is picked already"
        cell = CELL_NAMES.index(arg)
        if verb == "place":
            if self.held == EMPTY:
                return "pick a card from the hand first"
            return f"{arg} already holds {LETTERS[self.cells[cell]]}"
        if self.fixed >> cell & 1:
            return f"{arg} holds a fixed card: it stays"
        return f"{arg} is empty"

    def kingdom(self) -> str:
        """The board in notation ('.' for an empty cell)."""
        flat = "".join("." if c == EMPTY else LETTERS[c] for c in self.cells)
        return "/".join(flat[i:i + 4] for i in range(0, 16, 4))

    def to_json(self) -> dict[str, Any]:
        return {"puzzle": self.kind, "kingdom": self.kingdom(),
                "fixed": [CELL_NAMES[c] for c in range(16) if self.fixed >> c & 1],
                "hand": "".join(LETTERS[k] * n for k, n in enumerate(self.hand)),
                "held": None if self.held == EMPTY else LETTERS[self.held]}

    def to_notation(self) -> str:
        data = self.to_json()
        return (f"{PREFIX}{self.kind} {data['kingdom']} fixed={','.join(data['fixed']) or '-'} "
                f"hand={data['hand'] or '-'} held={data['held'] or '-'}")


def kingdom_from_json(game: Any, obj: Any, field: str = "state") -> KingdomPuzzle:
    data = as_object(obj, field)
    check_keys(data, ("puzzle", "kingdom", "fixed", "hand", "held"), field)
    cells, _ = _grid(get(data, "kingdom", field), f"{field}.kingdom", allow=".")
    fixed = 0
    for i, name in enumerate(as_list(data.get("fixed", []), f"{field}.fixed")):
        where = f"{field}.fixed[{i}]"
        name = as_str(name, where).strip().lower()
        if name not in CELL_NAMES:
            raise InvalidInputError(where, name, "unknown cell (expected a1..d4)")
        if cells[CELL_NAMES.index(name)] == EMPTY:
            raise InvalidInputError(where, name, "a fixed cell holds a card")
        fixed |= 1 << CELL_NAMES.index(name)
    hand = [0] * CARD_TYPES
    for code in _letters(as_str(data.get("hand", ""), f"{field}.hand").replace("-", ""), f"{field}.hand"):
        hand[code] += 1
    held_text = data.get("held")
    held = EMPTY
    if held_text is not None:
        codes = _letters(as_str(held_text, f"{field}.held"), f"{field}.held")
        if len(codes) != 1:
            raise InvalidInputError(f"{field}.held", held_text, "expected one card letter (or null)")
        held = codes[0]
    empty = sum(1 for c in cells if c == EMPTY)
    if empty != sum(hand) + (held != EMPTY):
        raise InvalidInputError(f"{field}.hand", data.get("hand", ""), f"{empty} empty cell(s) but "
                                f"{sum(hand) + (held != EMPTY)} card(s) in hand: a kingdom holds 16 cards")
    return KingdomPuzzle(game, cells, fixed, hand, held)


def kingdom_position(game: Any, puzzle: dict[str, Any], field: str = "puzzle") -> KingdomPuzzle:
    """The start of a best-kingdom puzzle: the fixed cards on their cells, every other card in hand."""
    cards = _letters(as_str(get(puzzle, "cards", field), f"{field}.cards"), f"{field}.cards")
    if len(cards) != 16:
        raise InvalidInputError(f"{field}.cards", puzzle["cards"], "expected 16 card letters")
    hand = [cards.count(k) for k in range(CARD_TYPES)]
    cells = [EMPTY] * 16
    fixed = 0
    for name, letter in as_object(puzzle.get("fixed", {}), f"{field}.fixed").items():
        where = f"{field}.fixed.{name}"
        if not isinstance(name, str) or name.lower() not in CELL_NAMES:
            raise InvalidInputError(where, name, "unknown cell (expected a1..d4)")
        codes = _letters(as_str(letter, where), where)
        if len(codes) != 1 or hand[codes[0]] == 0:
            raise InvalidInputError(where, letter, "the fixed cards must be among the puzzle's 16 cards")
        cell = CELL_NAMES.index(name.lower())
        cells[cell] = codes[0]
        hand[codes[0]] -= 1
        fixed |= 1 << cell
    return KingdomPuzzle(game, cells, fixed, hand)


# ---------------------------------------------------------------------- legend-race
class RacePuzzle(PuzzlePosition):
    """A legend-race puzzle being answered: the kingdom (face-down cards known), the discard (bottom to top),
    the draw pile (top first), the card held in the turn under way and the turns played."""

    kind = "legend-race"

    def __init__(self, game: Any, number: int, cards: list[int], hidden: int, discard: list[int],
                 draw: list[int], held: int = EMPTY, held_from: str = "", turns: int = 0) -> None:
        super().__init__(game)
        self.number, self.cards, self.hidden = number, list(cards), hidden
        self.discard, self.draw = list(discard), list(draw)
        self.held, self.held_from, self.turns = held, held_from, turns

    def clone(self) -> RacePuzzle:
        return RacePuzzle(self.game, self.number, self.cards, self.hidden, self.discard, self.draw, self.held,
                          self.held_from, self.turns)

    def visible(self) -> list[int]:
        return [UNEXPLORED if self.hidden >> c & 1 else self.cards[c] for c in range(16)]

    def legend_met(self) -> bool:
        return bool(legend_met([RacePosition(tuple(self.cards), self.hidden, -1, 0)], self.number)[0])

    def is_terminal(self) -> bool:
        return self.held == EMPTY and (self.legend_met() or self.turns >= RACE_MAX_TURNS or not self.legal_actions())

    def legal_actions(self) -> list[int]:
        if self.held == EMPTY:
            if self.legend_met() or self.turns >= RACE_MAX_TURNS:
                return []
            return ([TAKE] if self.discard else []) + ([DRAW] if self.draw else [])
        out = [PLACE + c for c in range(16) if placement_ok(tuple(self.cards), self.hidden, c, self.held)]
        if self.held_from == "draw":
            out += [REVEAL + c for c in range(16) if self.hidden >> c & 1]
        return out

    def action_to_string(self, action: int) -> str:
        if action == TAKE:
            return "take"
        if action == DRAW:
            return "draw"
        if PLACE <= action < PLACE + 16:
            return f"place {CELL_NAMES[action - PLACE]}"
        if REVEAL <= action < REVEAL + 16:
            return f"reveal {CELL_NAMES[action - REVEAL]}"
        raise InvalidMoveError("move", action, "not a legend-race puzzle action")

    def _apply(self, action: int) -> None:
        if action == TAKE:
            self.held, self.held_from = self.discard.pop(), "take"
            return
        if action == DRAW:
            self.held, self.held_from = self.draw.pop(0), "draw"
            return
        if action < REVEAL:  # place: the card it covers (face up or down) goes to the discard
            cell = action - PLACE
            self.discard.append(self.cards[cell])
            self.cards[cell] = self.held
        else:  # reveal: the drawn card is discarded, the territory turned face up
            cell = action - REVEAL
            self.discard.append(self.held)
        self.hidden &= ~(1 << cell)
        self.held, self.held_from = EMPTY, ""
        self.turns += 1

    def over_reason(self) -> str:
        if self.legend_met():
            return f"the Legend {LEGENDS[self.number - 1].slug} is met: the race is over (check the answer)"
        return f"{self.turns} turns are played: the race is over"

    def move_forms(self) -> str:
        return "expected 'take' or 'draw', then 'place CELL' or (after 'draw') 'reveal CELL'"

    def why_not(self, move: str) -> str:
        verb, _, arg = move.partition(" ")
        if verb not in ("take", "draw", "place", "reveal"):
            return f"not a move of a legend-race puzzle ({self.move_forms()})"
        if self.held == EMPTY:
            if verb in ("take", "draw"):
                return "the discard is empty" if verb == "take" else "the draw pile is used up"
            return "a turn starts with 'take' or 'draw'"
        if verb in ("take", "draw"):
            return f"the turn is under way: place the {CARD_NAMES[self.held]}" + (
                " or reveal a face-down card" if self.held_from == "draw" else "")
        cell = CELL_NAMES.index(arg) if arg in CELL_NAMES else -1
        if verb == "reveal":
            if self.held_from != "draw":
                return "only a drawn card may be discarded to reveal a face-down card"
            return f"{arg} is face up: only a face-down card can be revealed"
        if verb == "place" and cell >= 0:
            shown = self.cards[cell]
            if shown in (DRAGON, PORTAL):
                return f"{arg} holds a locked {'Dragon' if shown == DRAGON else 'Portal'}"
            return f"{arg} holds a face-up {LETTERS[shown]}: a card never replaces one of its kind"
        return "not a move of this turn"

    def to_json(self) -> dict[str, Any]:
        flat = "".join(LETTERS[c].lower() if self.hidden >> i & 1 else LETTERS[c] for i, c in enumerate(self.cards))
        return {"puzzle": self.kind, "legend": LEGENDS[self.number - 1].slug,
                "kingdom": "/".join(flat[i:i + 4] for i in range(0, 16, 4)),
                "discard": "".join(LETTERS[c] for c in self.discard), "draw": "".join(LETTERS[c] for c in self.draw),
                "held": None if self.held == EMPTY else {"card": LETTERS[self.held], "from": self.held_from},
                "turns": self.turns}

    def to_notation(self) -> str:
        data = self.to_json()
        held = "-" if data["held"] is None else f"{data['held']['card']}@{data['held']['from']}"
        return (f"{PREFIX}{self.kind} {data['kingdom']} legend={data['legend']} discard={data['discard'] or '-'} "
                f"draw={data['draw'] or '-'} held={held} turns={self.turns}")


def race_from_json(game: Any, obj: Any, field: str = "state") -> RacePuzzle:
    data = as_object(obj, field)
    check_keys(data, ("puzzle", "legend", "kingdom", "discard", "draw", "held", "turns"), field)
    number = legend(get(data, "legend", field), f"{field}.legend").number
    cards, lower = _grid(get(data, "kingdom", field), f"{field}.kingdom")
    hidden = sum(1 << c for c in range(16) if lower[c])
    discard = _letters(as_str(data.get("discard", ""), f"{field}.discard").replace("-", ""), f"{field}.discard")
    draw = _letters(as_str(data.get("draw", ""), f"{field}.draw").replace("-", ""), f"{field}.draw")
    held, held_from = EMPTY, ""
    if data.get("held") is not None:
        h = as_object(data["held"], f"{field}.held")
        check_keys(h, ("card", "from"), f"{field}.held")
        codes = _letters(as_str(get(h, "card", f"{field}.held"), f"{field}.held.card"), f"{field}.held.card")
        if len(codes) != 1:
            raise InvalidInputError(f"{field}.held.card", h["card"], "expected one card letter")
        held_from = as_str(get(h, "from", f"{field}.held"), f"{field}.held.from")
        if held_from not in ("take", "draw"):
            raise InvalidInputError(f"{field}.held.from", held_from, "expected 'take' or 'draw'")
        held = codes[0]
    turns = as_int(data.get("turns", 0), f"{field}.turns", 0, RACE_MAX_TURNS)
    return RacePuzzle(game, number, cards, hidden, discard, draw, held, held_from, turns)


def race_position(game: Any, puzzle: dict[str, Any], field: str = "puzzle") -> RacePuzzle:
    """The start of a legend-race puzzle: its kingdom, discard and draw pile, no turn played."""
    return race_from_json(game, {"puzzle": "legend-race", "legend": get(puzzle, "legend", field),
                                 "kingdom": get(puzzle, "kingdom", field), "discard": puzzle.get("discard", ""),
                                 "draw": puzzle.get("draw", "")}, field)


# ---------------------------------------------------------------------- parsing and entry points
def is_puzzle_position(payload: Any) -> bool:
    """True for a puzzle position's JSON (``{"puzzle": KIND, ...}``) or notation (``puzzle:KIND ...``)."""
    return (isinstance(payload, dict) and "puzzle" in payload) or (
        isinstance(payload, str) and payload.lstrip().lower().startswith(PREFIX))


def position_from_payload(game: Any, payload: Any, field: str = "state") -> PuzzlePosition:
    """A puzzle position from its JSON or notation."""
    if isinstance(payload, str):
        return position_from_notation(game, payload, field)
    kind = as_str(get(payload, "puzzle", field), f"{field}.puzzle")
    if kind == "best-kingdom":
        return kingdom_from_json(game, payload, field)
    if kind == "legend-race":
        return race_from_json(game, payload, field)
    raise InvalidInputError(f"{field}.puzzle", kind, f"expected one of {', '.join(KINDS)}")


def position_from_notation(game: Any, text: str, field: str = "state") -> PuzzlePosition:
    """``puzzle:best-kingdom KINGDOM fixed=... hand=... held=...`` or ``puzzle:legend-race KINGDOM legend=...
    discard=... draw=... held=CARD@from turns=N``."""
    head, *parts = text.strip().split()
    kind = head[len(PREFIX):].lower()
    if kind not in KINDS:
        raise InvalidInputError(field, head, f"expected puzzle:{' or puzzle:'.join(KINDS)}")
    if not parts:
        raise InvalidInputError(field, text, "expected the kingdom after the puzzle kind")
    data: dict[str, Any] = {"puzzle": kind, "kingdom": parts[0]}
    allowed = ("fixed", "hand", "held") if kind == "best-kingdom" else ("legend", "discard", "draw", "held", "turns")
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        if not sep or key not in allowed:
            raise InvalidInputError(field, part, f"expected KEY=VALUE with KEY one of {', '.join(allowed)}")
        value = "" if value == "-" else value
        if key == "fixed":
            data[key] = [v for v in value.split(",") if v]
        elif key == "held":
            if kind == "legend-race" and value:
                card, _, source = value.partition("@")
                data[key] = {"card": card, "from": source}
            else:
                data[key] = value or None
        elif key == "turns":
            if not value.isdigit():
                raise InvalidInputError(field, part, "turns: expected a number")
            data[key] = int(value)
        else:
            data[key] = value
    return position_from_payload(game, data, field)


def score(position: PuzzlePosition) -> dict[str, Any]:
    """The score sheet of the cards on a puzzle position's board (empty and face-down cells count as nothing)."""
    return {"puzzle": position.kind, **score_kingdom(np.asarray(position.visible(), dtype=np.uint8)).to_json(),
            "complete": position.is_terminal()}


def describe(position: PuzzlePosition) -> str:
    """The position as text for a person."""
    data = position.to_json()
    lines = [f"{position.kind} puzzle position"]
    for r, row in enumerate(data["kingdom"].split("/")):
        lines.append(f"  {r + 1} " + " ".join(ch.upper() + "'" if ch.islower() else ch + " " for ch in row))
    if position.kind == "best-kingdom":
        lines.append(f"  fixed: {', '.join(data['fixed']) or 'none'}; hand: {data['hand'] or '-'}; "
                     f"picked: {data['held'] or '-'}; score now {position.board_total()}")
    else:
        held = data["held"]
        lines.append(f"  Legend {data['legend']}; discard (top last): {data['discard'] or '-'}; draw pile (top "
                     f"first): {data['draw'] or '-'}; turns played {data['turns']}"
                     + (f"; holding {held['card']} ({held['from']})" if held else ""))
        lines.append("  (X' = face down, its kind known)")
    return "\n".join(lines) + "\n"
