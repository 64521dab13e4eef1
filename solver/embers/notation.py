"""Embers of Memory states and player views as JSON and as a compact one-line notation (both round-trip).

The formats are documented in ``docs/formats/embers.md``. Parsing checks that
the position is one the rules can produce: every card in exactly one place,
demons only where demons can be, strength rows that add up, a Mind that is not
split outside a split decision, and so on. A mistake raises an error from
:mod:`solver.errors` that names the field and quotes the value.

The deck (draw pile) is everything not listed elsewhere: a state may omit it,
and when it is given it must be exactly those cards.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from solver.embers import mind as mindlib
from solver.embers.cards import SUIT_LETTERS, SUITS, Deck, suit_index
from solver.embers.knowledge import fill_unknown_resolve
from solver.embers.state import (AELIN, CHAPTERS, FENRYS, PHASES, RESULTS, ROWS, TARGET, VIEW_PHASES,
                                 EmbersState, StrengthRow, arrangements)
from solver.embers.view import UNKNOWN, EmbersView, Table, normalise
from solver.errors import ImpossibleStateError, InvalidInputError, NotationError
from solver.game import split_view_notation
from solver.validate import as_bool, as_choice, as_int, as_list, as_object, check_keys, get, join

if TYPE_CHECKING:
    from solver.embers.game import EmbersGame

COORD_LIMIT = 1000
_ENTRY = re.compile(r"^\s*([^@\s]+)\s*@\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
JSON_KEYS = ("game", "chapter", "part", "day", "turn", "phase", "mind", "row", "demons", "discard", "box",
             "resolve", "completed", "added", "pending", "result", "deck", "guessed")


# ---------------------------------------------------------------------------- writing
def _ids(deck: Deck, cards: list[int]) -> list[str]:
    return [deck.cards[c].id for c in cards]


def _turn_name(state: EmbersState, player: int) -> str:
    return state.role(player)


def state_to_json(state: EmbersState) -> dict[str, Any]:
    """The full state as JSON (``docs/formats/embers.md``)."""
    deck = state.deck
    pending: dict[str, Any] | None = None
    if state.pending is not None:
        kind, value = state.pending
        pending = {"suit": SUITS[value]} if kind == "suit" else {"row": value + 1} if kind == "row" \
            else {"play": value}
    out: dict[str, Any] = {
        "game": "embers",
        "chapter": state.chapter,
        "part": state.part if state.chapter == "prologue" else None,
        "day": state.day,
        "turn": _turn_name(state, state.turn),
        "phase": state.phase,
        "mind": [f"{deck.cards[c].id}@{x},{y}" for c, x, y in state.mind],
        "row": _ids(deck, state.row),
        "demons": [{"demon": deck.cards[d].id, "tainted": _ids(deck, t)} for d, t in state.demons],
        "discard": _ids(deck, state.discard),
        "box": _ids(deck, state.box),
        "resolve": [{"card": _resolve_id(state, r), "faceUp": r.face_up, "cards": _ids(deck, r.cards),
                     "atLeast": r.at_least} for r in state.rows],
        "completed": state.completed,
        "added": state.added,
        "pending": pending,
        "result": state.result,
        "deck": _ids(deck, sorted(state.pile)),
    }
    if state.guessed:
        out["guessed"] = True
        del out["deck"]  # the deck holds the unknown Resolve cards: it cannot be listed
    return out


def _resolve_id(state: EmbersState, row: StrengthRow) -> str:
    """A Resolve card's id, or ``"?"`` for a face-down card of a guessed state (the guess is not the truth)."""
    if state.guessed and not row.face_up:
        return UNKNOWN
    return state.deck.cards[row.resolve].id


def state_to_notation(state: EmbersState, masked: list[int] | tuple[int, ...] = ()) -> str:
    """The compact notation (``docs/formats/embers.md``); ``masked`` rows write their Resolve card as ``?``."""
    deck = state.deck

    def ids(cards: list[int]) -> str:
        return ",".join(deck.cards[c].id for c in cards) or "-"

    head = "embers/one" if state.chapter == "one" else f"embers/prologue/{state.part}"
    mind = ";".join(f"{deck.cards[c].id}@{x},{y}" for c, x, y in state.mind) or "-"
    demons = ",".join(deck.cards[d].id + "".join(":" + deck.cards[c].id for c in t) for d, t in state.demons) or "-"
    rows = ",".join(("^" if r.face_up else "") + ".".join([UNKNOWN if i in masked else _resolve_id(state, r)]
                                                          + [deck.cards[c].id for c in r.cards])
                    + (f"!{r.at_least}" if r.at_least else "") for i, r in enumerate(state.rows)) or "-"
    if state.pending is None:
        pending = "-"
    else:
        kind, value = state.pending
        pending = f"suit:{SUIT_LETTERS[value]}" if kind == "suit" else f"row:{value + 1}" if kind == "row" \
            else f"play:{value}"
    parts = [head, f"day={state.day}", f"turn={state.role(state.turn)}", f"phase={state.phase}", f"mind={mind}",
             f"row={ids(state.row)}", f"demons={demons}", f"discard={ids(state.discard)}", f"box={ids(state.box)}",
             f"resolve={rows}", f"completed={state.completed}", f"added={int(state.added)}", f"pending={pending}",
             f"result={state.result or '-'}"]
    if state.guessed:
        parts.append("guessed=1")
    return " ".join(parts)


# ---------------------------------------------------------------------------- reading
class _Builder:
    """Collects the zones of a state being parsed, checking that no card is placed twice."""

    def __init__(self, game: EmbersGame, field: str) -> None:
        self.game = game
        self.deck: Deck = game.deck
        self.field = field
        self.where: dict[int, str] = {}

    def card(self, value: Any, field: str, zone: str, memory: bool | None = None) -> int:
        card = self.deck.card(value, field)
        if memory is True and card.is_demon:
            raise ImpossibleStateError(field, value, f"a demon cannot be in the {zone}")
        if memory is False and not card.is_demon:
            raise ImpossibleStateError(field, value, f"only demons can be in the {zone}")
        if card.index in self.where:
            raise ImpossibleStateError(field, value, f"card already placed at {self.where[card.index]}")
        self.where[card.index] = field
        return card.index


def state_from_json(game: EmbersGame, obj: Any, field: str = "state", observer: int | None = None) -> EmbersState:
    """Parse and validate a JSON state; with ``observer``, the body of that player's view (``"?"`` exactly for
    the Resolve cards the observer cannot see, and the view's own phases), returned as the view's table."""
    obj = as_object(obj, field)
    check_keys(obj, JSON_KEYS, field)
    if "game" in obj and obj["game"] != "embers":
        raise InvalidInputError(join(field, "game"), obj["game"], "expected 'embers'")
    chapter = as_choice(obj.get("chapter", game.params["chapter"]), join(field, "chapter"), CHAPTERS)
    if chapter != game.params["chapter"]:
        raise InvalidInputError(join(field, "chapter"), chapter, f"this game is chapter {game.params['chapter']!r}; "
                                                                 f"use game 'embers(chapter={chapter})'")
    b = _Builder(game, field)
    state = EmbersState(game) if observer is None else Table(game, observer)
    part = obj.get("part")
    if chapter == "prologue":
        state.part = as_int(part if part is not None else 1, join(field, "part"), 1, 2)
    elif part is not None:
        raise InvalidInputError(join(field, "part"), part, "only the prologue has parts (use null)")
    state.day = as_int(obj.get("day", 1), join(field, "day"), 1, 3 if chapter == "one" else 1)
    roles = {"fenrys": FENRYS, "aelin": AELIN} if chapter == "one" else {"rowan": FENRYS, "aelin": AELIN}
    state.turn = roles[as_choice(obj.get("turn", next(iter(roles))), join(field, "turn"), tuple(roles))]
    phase = get(obj, "phase", field)
    phases = PHASES[chapter] + (VIEW_PHASES[chapter] if observer is not None else ())
    if not isinstance(phase, str) or phase not in phases:
        raise InvalidInputError(join(field, "phase"), phase, f"expected one of {', '.join(phases)}"
                                + ("" if observer is not None or phase not in VIEW_PHASES[chapter]
                                   else " (phase {phase!r} is only in a player's view)"))
    state.phase = phase
    mind_field = join(field, "mind")
    for i, entry in enumerate(as_list(obj.get("mind", []), mind_field)):
        state.mind.append(_mind_entry(b, entry, join(mind_field, i)))
    state.row = [b.card(v, join(join(field, "row"), i), "memory row", None)
                 for i, v in enumerate(as_list(obj.get("row", []), join(field, "row")))]
    demons_field = join(field, "demons")
    for i, entry in enumerate(as_list(obj.get("demons", []), demons_field)):
        where = join(demons_field, i)
        entry = as_object(entry, where)
        check_keys(entry, ("demon", "tainted"), where)
        demon = b.card(entry.get("demon"), join(where, "demon"), "demon row", False)
        tainted = []
        for j, value in enumerate(as_list(entry.get("tainted", []), join(where, "tainted"))):
            card = b.card(value, join(join(where, "tainted"), j), "tainted pile", True)
            if b.deck.cards[card].suit != b.deck.cards[demon].suit:
                raise ImpossibleStateError(join(join(where, "tainted"), j), value,
                                           f"only {SUITS[b.deck.cards[demon].suit]} cards are tainted under this demon")
            tainted.append(card)
        state.demons.append((demon, tainted))
    state.discard = [b.card(v, join(join(field, "discard"), i), "discard pile", None)
                     for i, v in enumerate(as_list(obj.get("discard", []), join(field, "discard")))]
    state.box = [b.card(v, join(join(field, "box"), i), "box", True)
                 for i, v in enumerate(as_list(obj.get("box", []), join(field, "box")))]
    resolve_field = join(field, "resolve")
    unknown: list[int] = []
    for i, entry in enumerate(as_list(obj.get("resolve", []), resolve_field, 0, ROWS[chapter])):
        where = join(resolve_field, i)
        entry = as_object(entry, where)
        check_keys(entry, ("card", "faceUp", "cards", "atLeast"), where)
        face_up = as_bool(entry.get("faceUp", False), join(where, "faceUp"))
        value = entry.get("card")
        if observer is not None:
            _check_view_card(chapter, observer, face_up, value, join(where, "card"))
        if value == UNKNOWN and not face_up:
            resolve = -1
            unknown.append(i)
        else:
            resolve = b.card(value, join(where, "card"), "Resolve", True)
        cards = [b.card(v, join(join(where, "cards"), j), "strength row", True)
                 for j, v in enumerate(as_list(entry.get("cards", []), join(where, "cards")))]
        at_least = as_int(entry.get("atLeast", 0), join(where, "atLeast"), 0, TARGET)
        state.rows.append(StrengthRow(resolve, face_up, cards, at_least))
    state.completed = as_int(obj.get("completed", 0), join(field, "completed"), 0, ROWS[chapter])
    state.added = as_bool(obj.get("added", False), join(field, "added"))
    state.pending = _pending(obj.get("pending"), join(field, "pending"), len(state.rows))
    result = obj.get("result")
    if result is not None and result not in RESULTS:
        raise InvalidInputError(join(field, "result"), result, f"expected null or one of {', '.join(RESULTS)}")
    state.result = result
    listed_deck = obj.get("deck")
    if "guessed" in obj:
        state.guessed = as_bool(obj["guessed"], join(field, "guessed"))
    if observer is not None and (listed_deck is not None or "guessed" in obj):
        key = "deck" if listed_deck is not None else "guessed"
        raise InvalidInputError(join(field, key), obj[key], "a player's view does not list the deck (nobody sees "
                                                            "it) and holds no guess")
    _finish(state, b, listed_deck, unknown, field, observer)
    return state


def view_from_json(game: EmbersGame, obj: Any, field: str = "state") -> EmbersView:
    """A player's view from its JSON (``"view": N``, ``"role"`` and ``"deckCount"`` checked when given); its
    ``chapter`` picks the rules."""
    obj = as_object(obj, field)
    observer = as_int(get(obj, "view", field), f"{field}.view", 0, 1)
    game = game.for_chapter(as_choice(obj.get("chapter", game.params["chapter"]), f"{field}.chapter", CHAPTERS))
    body = {k: v for k, v in obj.items() if k not in ("view", "role", "deckCount")}
    table = state_from_json(game, body, field, observer=observer)
    view = EmbersView(game, observer, table)  # type: ignore[arg-type]
    if "role" in obj and obj["role"] != view.role():
        raise InvalidInputError(f"{field}.role", obj["role"], f"player {observer} is {view.role()} here")
    if "deckCount" in obj:
        count = as_int(obj["deckCount"], f"{field}.deckCount", 0, 1000)
        if count != len(table.pile):
            raise InvalidInputError(f"{field}.deckCount", count, f"the cards listed leave {len(table.pile)} "
                                                                 "in the deck")
    return view


def _check_view_card(chapter: str, observer: int, face_up: bool, value: Any, field: str) -> None:
    """In a view, a face-down Resolve card is ``"?"`` exactly when the observer cannot see it (EM-27)."""
    hidden = not face_up and not (chapter == "one" and observer == AELIN)
    if hidden and value != UNKNOWN:
        who = "nobody sees face-down Resolve cards in the prologue" if chapter == "prologue" else \
            "Fenrys cannot see Aelin's face-down Resolve cards"
        raise InvalidInputError(field, value, f"{who}: a view gives them as '?'")
    if not hidden and value == UNKNOWN:
        raise InvalidInputError(field, value, "Aelin sees her own Resolve cards: give the card" if not face_up
                                else "a face-up Resolve card is seen by both players: give the card")


def _mind_entry(b: _Builder, entry: Any, where: str) -> tuple[int, int, int]:
    if isinstance(entry, str):
        match = _ENTRY.match(entry)
        if not match:
            raise InvalidInputError(where, entry, "expected CARD@X,Y such as 'C4@1,-1'")
        card_id, x, y = match.group(1), int(match.group(2)), int(match.group(3))
    else:
        obj = as_object(entry, where)
        check_keys(obj, ("card", "x", "y"), where)
        card_id = obj.get("card")
        x = as_int(obj.get("x"), join(where, "x"))
        y = as_int(obj.get("y"), join(where, "y"))
    if abs(x) > COORD_LIMIT or abs(y) > COORD_LIMIT:
        raise InvalidInputError(where, entry, f"coordinates must be between -{COORD_LIMIT} and {COORD_LIMIT}")
    return (b.card(card_id, where, "Mind", True), x, y)


def _pending(value: Any, field: str, rows: int) -> tuple[str, int] | None:
    if value is None:
        return None
    obj = as_object(value, field)
    check_keys(obj, ("suit", "row", "play"), field)
    if len(obj) != 1:
        raise InvalidInputError(field, value, "expected {\"suit\": SUIT} or {\"row\": N}")
    if "suit" in obj:
        return ("suit", suit_index(obj["suit"], join(field, "suit")))
    if "play" in obj:  # a player's view only: the relive that turns a prologue Resolve card came in play 1 or 2
        return ("play", as_int(obj["play"], join(field, "play"), 1, 2))
    return ("row", as_int(obj["row"], join(field, "row"), 1, max(rows, 1)) - 1)


def _finish(state: EmbersState, b: _Builder, listed_deck: Any, unknown: list[int], field: str,
            observer: int | None = None) -> None:
    """Derive the deck, fill unknown Resolve cards, and check the position is possible."""
    deck = state.deck
    state.pile = {c.index for c in deck.cards if c.index not in b.where}
    if state.chapter == "one" and state.day == 1 and state.phase == "deal":
        # EM-30: while the first day is dealt, the demons are set aside (they join the deck after the Resolve)
        state.pile -= {d.index for d in deck.demons}
    if state.chapter == "prologue" and deck.demons:
        # demons join the memory deck only in Chapter One (EM-30)
        state.pile -= {d.index for d in deck.demons if d.index not in b.where}
        for d in deck.demons:
            if d.index in b.where:
                raise ImpossibleStateError(b.where[d.index], d.id, "there are no demons in the prologue")
    if listed_deck is not None:
        listed = {b.card(v, join(join(field, "deck"), i), "deck", None)
                  for i, v in enumerate(as_list(listed_deck, join(field, "deck")))}
        if unknown:
            raise InvalidInputError(join(field, "deck"), listed_deck,
                                    "cannot list the deck when some Resolve cards are '?'")
        missing = state.pile - listed
        if missing:
            raise ImpossibleStateError(join(field, "deck"), listed_deck,
                                       f"cards missing from every zone: {', '.join(deck.cards[c].id for c in sorted(missing))}")
    if observer is not None:
        normalise(state, field)  # the hidden Resolve cards: a canonical fill consistent with the view
        check_state(state, field)
        return
    if unknown:
        if state.chapter != "one":
            raise InvalidInputError(join(field, "resolve"), "?", "unknown Resolve cards are only for Chapter One "
                                                                 "(a prologue position with '?' is a player's view: "
                                                                 "add \"view\": N)")
        fill_unknown_resolve(state, unknown, field)
    check_state(state, field)


def check_state(state: EmbersState, field: str = "state") -> None:
    """Raise :class:`ImpossibleStateError` if the rules cannot produce this position."""
    deck = state.deck
    phase, chapter = state.phase, state.chapter
    rows_needed = ROWS[chapter]

    def bad(sub: str, value: Any, problem: str) -> ImpossibleStateError:
        return ImpossibleStateError(join(field, sub) if sub else field, value, problem)

    if (state.result is None) != (phase != "over"):
        raise bad("result", state.result, "a finished game has phase 'over' and a result, and only then")
    width, height = mindlib.span(state.mind)
    if width > 60 or height > 60:
        raise bad("mind", width, "the Mind spans more than 60 quarters")
    for demon, _ in state.demons:
        if sum(1 for d, _ in state.demons if deck.cards[d].suit == deck.cards[demon].suit) > 1:
            raise bad("demons", deck.cards[demon].id, "two demons of one suit")
    _check_segments(state, bad)
    if state.result is not None:
        _check_result(state, bad)
        return
    if chapter == "prologue":
        _check_prologue(state, bad)
        return
    # Chapter One
    if phase == "deal":
        if state.row or state.demons or state.discard or state.completed or any(r.cards for r in state.rows):
            raise bad("phase", phase, "while a new day is dealt only the Mind card and Resolve cards are out")
        if len(state.rows) >= rows_needed:
            raise bad("resolve", len(state.rows), "the day is already dealt")
        if state.rows and not state.mind:
            raise bad("mind", [], "the Mind card is dealt before the Resolve")
        if len(state.mind) > 1:
            raise bad("mind", len(state.mind), "a new day starts with one Mind card")
        if any(r.face_up for r in state.rows):
            raise bad("resolve", "faceUp", "new Resolve cards are face down")
        return
    if len(state.rows) != rows_needed:
        raise bad("resolve", len(state.rows), f"Aelin has {rows_needed} strength rows")
    if phase == "dayend":  # a view only: Aelin has said "I am with you"; her Resolve cards are shown (EM-28)
        _check_day_end(state, bad)
        return
    if phase == "arrange":  # EM-34: the day is set up; Aelin orders her Resolve before Fenrys's first turn
        if state.row or state.demons or state.discard or state.completed or state.added or any(
                r.cards or r.at_least or r.face_up for r in state.rows):
            raise bad("phase", phase, "Aelin arranges her Resolve when the day is set up: only the Mind card and "
                                      "four face-down Resolve cards are out")
        if len(state.mind) != 1:
            raise bad("mind", len(state.mind), "a day starts with one Mind card")
        if state.turn != FENRYS:
            raise bad("turn", "aelin", "Fenrys plays first once the Resolve is arranged")
        return
    _check_rows(state, bad, mid_take=(state.turn == AELIN and phase in ("reveal", "split", "speak")))
    if not state.mind:
        raise bad("mind", [], "the Mind is empty (Aelin would have broken)")
    split = len(mindlib.sections(state.mind)) > 1
    if (split and phase not in ("split", "reveal")) or (phase == "split" and not split):
        # EM-8: a reveal after a relive comes before the split is settled
        raise bad("mind", [deck.cards[c].id for c in mindlib.visible_cards(state.mind)],
                  "the Mind is split: the phase must be 'split' (or 'reveal')" if split
                  else "phase 'split' needs a split Mind")
    demons_in_row = [c for c in state.row if deck.cards[c].is_demon]
    if state.turn == FENRYS:
        if phase not in ("draw", "observe", "blink", "reveal", "split"):
            raise bad("phase", phase, "not a phase of Fenrys's turn")
        if phase in ("draw", "observe") and state.added:
            raise bad("added", True, "Fenrys adds cards only after he stops drawing")
        if phase == "observe" and not state.row:
            raise bad("row", [], "Fenrys has drawn at least one card when he decides whether to draw again")
        if phase == "draw" and not state.pile:
            raise bad("phase", phase, "the deck is empty")
        if phase == "blink" and not state.row:
            raise bad("row", [], "Blink ends when the memory row is empty")
        if phase in ("blink", "reveal", "split") and demons_in_row:
            raise bad("row", deck.cards[demons_in_row[0]].id, "demons go to the demon row before Blink")
        if phase in ("reveal", "split") and not state.added:
            raise bad("added", False, "reveals and splits during Fenrys's turn follow an added card")
        if phase == "blink" and not state.added and not mindlib.legal_placements(
                state.deck, state.mind, state.row):
            raise bad("row", [deck.cards[c].id for c in state.row], "no card can be added (Aelin would have broken)")
    else:
        if phase not in ("acknowledge", "reveal", "split", "speak"):
            raise bad("phase", phase, "not a phase of Aelin's turn")
        if phase == "speak" and not state.rows[state.completed].cards:
            raise bad("phase", phase, "Aelin speaks after a card joined her current row")
        if state.row:
            raise bad("row", [deck.cards[c].id for c in state.row], "the memory row is empty on Aelin's turn")
        if phase == "reveal" and (state.pending is None or state.pending[0] != "row"):
            raise bad("pending", state.pending, "on Aelin's turn a reveal follows a card added to her row")
    if phase == "reveal":
        if state.pending is None or state.pending[0] not in ("suit", "row"):
            raise bad("pending", state.pending, "phase 'reveal' needs a pending suit or row")
        if all(r.face_up for r in state.rows):
            raise bad("resolve", "faceUp", "nothing left to reveal")
        if state.pending[0] == "row":
            row_index = state.pending[1]
            if state.turn != AELIN or row_index != state.completed or not state.rows[row_index].cards \
                    or state.rows[row_index].face_up:
                raise bad("pending", {"row": row_index + 1}, "a row reveal is for the current row's face-down "
                                                            "Resolve card after Aelin added a card to it")
    elif state.pending is not None:
        raise bad("pending", state.pending, "only phase 'reveal' has a pending choice")


def _check_day_end(state: EmbersState, bad: Any) -> None:
    """A view at Day's End (phase ``dayend``): every row complete, the Resolve cards about to be shown."""
    if state.day == 3:
        raise bad("day", 3, "the third day's end wins the game: nothing is shown")
    if state.completed != len(state.rows):
        raise bad("completed", state.completed, "the day ends when the fourth row is complete")
    for i, row in enumerate(state.rows):
        if state.row_total(row) != TARGET:
            raise bad(f"resolve[{i}]", state.row_total(row), "a completed row totals exactly 7")
    if state.row or state.turn != AELIN or not state.mind or state.pending is not None:
        raise bad("phase", "dayend", "the day ends at the close of Aelin's turn (an empty memory row, a Mind, "
                                     "nothing pending)")
    if len(mindlib.sections(state.mind)) > 1:
        raise bad("mind", len(state.mind), "Aelin settles a split before she speaks")


def _check_segments(state: EmbersState, bad: Any) -> None:
    """EM-4: a card is only ever added on matching segments, so every card covering a quarter shows the same
    segment there (taking or discarding cards never changes that)."""
    deck = state.deck
    shown: dict[tuple[int, int], tuple[bool, int]] = {}
    for k, (card, x, y) in enumerate(state.mind):
        for s, q in enumerate(((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))):
            blocked = bool(deck.cards[card].blocked >> s & 1)
            if q in shown and shown[q][0] != blocked:
                under = state.mind[shown[q][1]]
                raise bad(f"mind[{k}]", f"{deck.cards[card].id}@{x},{y}",
                          f"its {'blocked' if blocked else 'clear'} segment at quarter {q[0]},{q[1]} lies on "
                          f"{deck.cards[under[0]].id}@{under[1]},{under[2]}'s "
                          f"{'clear' if blocked else 'blocked'} one (segments must match, EM-4)")
            shown[q] = (blocked, k)


def _check_result(state: EmbersState, bad: Any) -> None:
    """Results only the rules can reach: a win ends day 3 (or part two); setup-short ends a day."""
    result = state.result
    if state.chapter == "one":
        if result == "won" and state.day != 3:
            raise bad("result", result, f"Aelin wins when the third day ends (day is {state.day})")
        if result == "lost:setup-short" and state.day == 1:
            raise bad("result", result, "a new day is set up only after day 1 ends (day is 1)")
        return
    allowed = {1: ("lost:deck-empty", "lost:no-placement"), 2: ("won", "lost:mind-empty")}[state.part]
    if result not in allowed:
        raise bad("result", result, f"part {state.part} of the prologue ends with {' or '.join(allowed)}")


def _check_rows(state: EmbersState, bad: Any, mid_take: bool) -> None:
    deck = state.deck
    if state.completed >= len(state.rows):
        raise bad("completed", state.completed, "every row is complete: the day would have ended")
    for i, row in enumerate(state.rows):
        total = state.row_total(row)
        strength = deck.cards[row.resolve].strength
        if row.at_least and (row.face_up or strength < row.at_least):
            raise bad(f"resolve[{i}].atLeast", row.at_least,
                      "atLeast bounds a face-down Resolve card and must not exceed its strength")
        if i < state.completed and total != TARGET:
            raise bad(f"resolve[{i}]", total, "a completed row totals exactly 7")
        if i > state.completed and (row.cards or row.at_least):
            raise bad(f"resolve[{i}].cards", _ids(deck, row.cards), "cards go only to the current row")
        if i == state.completed:
            if total > TARGET or (total == TARGET and not mid_take):
                raise bad(f"resolve[{i}]", total, "the current row totals less than 7 (7 completes it)")


def _check_prologue(state: EmbersState, bad: Any) -> None:
    deck = state.deck
    if state.phase == "deal":
        _check_prologue_deal(state, bad)
        return
    if len(state.rows) != ROWS["prologue"]:
        raise bad("resolve", len(state.rows), "the prologue has three Resolve cards")
    if state.demons:
        raise bad("demons", state.demons, "there are no demons in the prologue")
    if state.part == 1:
        if state.phase not in ("first", "second", "draw", "flip"):
            raise bad("phase", state.phase, "not a phase of part one")
        if (state.phase == "flip") != (state.pending is not None and state.pending[0] == "play") \
                or (state.pending is not None and state.phase != "flip"):
            raise bad("pending", state.pending, "in part one only a view's phase 'flip' has a pending play "
                                                "(the relive that turns a Resolve card)")
        if state.phase == "flip" and not mindlib.relives(deck, state.mind):
            raise bad("phase", "flip", "a Resolve card is turned after an add that relives a memory")
        if any(r.cards for r in state.rows) or state.completed:
            raise bad("resolve", "cards", "strength rows are built in part two")
        if all(r.face_up for r in state.rows):
            raise bad("resolve", "faceUp", "three face-up Resolve cards win part one")
        if not state.mind:
            raise bad("mind", [], "the Mind is never empty in part one")
        limit = {"first": 4, "second": 3, "draw": 3,
                 "flip": 4 - (state.pending[1] if state.pending else 1)}[state.phase]
        if len(state.row) > limit:
            raise bad("row", _ids(deck, state.row), f"at most {limit} cards in the memory row in phase {state.phase}")
        if state.phase == "draw" and not state.pile:
            raise bad("phase", "draw", "the deck is empty")
        return
    if state.pile or state.row:
        raise bad("deck", len(state.pile), "in part two the deck and the memory row are in the discard pile")
    if not all(r.face_up for r in state.rows):
        raise bad("resolve", "faceUp", "part two starts with the three Resolve cards face up")
    if state.phase not in ("arrange", "acknowledge", "split"):
        raise bad("phase", state.phase, "not a phase of part two")
    if state.phase == "arrange" and (any(r.cards for r in state.rows) or state.completed):
        raise bad("phase", "arrange", "the Resolve is arranged before any card is taken")
    if state.phase == "arrange" and state.turn != AELIN:
        raise bad("turn", "rowan", "Aelin arranges the Resolve (she plays first in part two)")
    _check_rows(state, bad, mid_take=state.phase == "split" and state.added)
    if not state.mind:
        raise bad("mind", [], "the Mind is empty (the player to move would lose at once)")
    if state.added and state.phase != "split":
        raise bad("added", True, "in part two 'added' marks a card taken in a turn whose split is being settled")
    split = len(mindlib.sections(state.mind)) > 1
    if (split and state.phase == "acknowledge") or (state.phase == "split" and not split):
        raise bad("mind", _ids(deck, mindlib.visible_cards(state.mind)),
                  "the Mind is split: the phase must be 'split'" if split else "phase 'split' needs a split Mind")
    if state.pending is not None:
        raise bad("pending", state.pending, "the prologue has no pending reveal")


def _check_prologue_deal(state: EmbersState, bad: Any) -> None:
    """The prologue's set-up at a real table (EM-35): the Mind card, three Resolve cards, four memory row cards."""
    if state.part != 1 or state.turn != FENRYS:
        raise bad("phase", "deal", "the prologue is dealt before Rowan's first turn of part one")
    if state.discard or state.completed or state.added or state.pending is not None or len(state.mind) > 1 or \
            any(r.cards or r.face_up or r.at_least for r in state.rows):
        raise bad("phase", "deal", "while the prologue is dealt only the Mind card, the face-down Resolve cards "
                                   "and the memory row are out")
    if (state.rows and not state.mind) or (state.row and len(state.rows) < ROWS["prologue"]) or len(state.row) >= 4:
        raise bad("phase", "deal", "the set-up deals the Mind card, then three Resolve cards, then four cards to "
                                   "the memory row")


# ---------------------------------------------------------------------------- notation
_NOTATION_KEYS = ("day", "turn", "phase", "mind", "row", "demons", "discard", "box", "resolve", "completed",
                  "added", "pending", "result", "guessed")


def state_from_notation(game: EmbersGame, text: Any, field: str = "state") -> EmbersState:
    """Parse the compact notation into a state (through the JSON parser, so the same checks apply)."""
    return state_from_json(game, notation_to_json(game, text, field), field)


def view_from_notation(game: EmbersGame, text: str, field: str = "state") -> EmbersView:
    """A player's view from its notation (``view:N embers/one ...`` with ``?`` for unseen Resolve cards)."""
    observer, body = split_view_notation(text, field)
    game = game.for_head(body)
    return view_from_json(game, {"view": observer, **notation_to_json(game, body, field)}, field)


def notation_to_json(game: EmbersGame, text: Any, field: str = "state") -> dict[str, Any]:
    """The JSON object a notation (a state's, or a view's body) stands for."""
    if not isinstance(text, str):
        raise NotationError(field, text, "expected a notation string such as 'embers/one day=1 turn=fenrys ...'")
    tokens = text.split()
    if not tokens:
        raise NotationError(field, text, "empty notation")
    head = tokens[0].split("/")
    if head[0] != "embers" or len(head) < 2 or head[1] not in ("one", "prologue") \
            or (head[1] == "prologue" and (len(head) != 3 or head[2] not in ("1", "2"))) \
            or (head[1] == "one" and len(head) != 2):
        raise NotationError(field, tokens[0], "expected 'embers/one' or 'embers/prologue/1' or 'embers/prologue/2'")
    values: dict[str, str] = {}
    for token in tokens[1:]:
        key, sep, value = token.partition("=")
        if not sep or key not in _NOTATION_KEYS:
            raise NotationError(field, token, f"expected key=value with key one of {', '.join(_NOTATION_KEYS)}")
        if key in values:
            raise NotationError(field, token, f"{key} given twice")
        values[key] = value
    obj: dict[str, Any] = {"chapter": head[1], "part": int(head[2]) if head[1] == "prologue" else None}

    def lst(key: str) -> list[str]:
        raw = values.get(key, "-")
        return [] if raw in ("-", "") else raw.split(",")

    for key in ("day", "completed"):
        if key in values:
            obj[key] = _notation_int(values[key], f"{field}.{key}")
    for key in ("turn", "phase"):
        if key in values:
            obj[key] = values[key]
    mind = values.get("mind", "-")
    obj["mind"] = [] if mind in ("-", "") else mind.split(";")
    obj["row"], obj["discard"], obj["box"] = lst("row"), lst("discard"), lst("box")
    obj["demons"] = [{"demon": d.split(":")[0], "tainted": d.split(":")[1:]} for d in lst("demons")]
    resolve = []
    for raw in lst("resolve"):
        face_up = raw.startswith("^")
        body, _, bound = raw.lstrip("^").partition("!")
        names = body.split(".")
        resolve.append({"card": names[0], "faceUp": face_up, "cards": names[1:],
                        "atLeast": _notation_int(bound, f"{field}.resolve") if bound else 0})
    obj["resolve"] = resolve
    obj["added"] = values.get("added", "0") == "1"
    if values.get("added", "0") not in ("0", "1"):
        raise NotationError(f"{field}.added", values["added"], "expected 0 or 1")
    pending = values.get("pending", "-")
    if pending != "-":
        kind, _, value = pending.partition(":")
        if kind == "suit":
            obj["pending"] = {"suit": value}
        elif kind in ("row", "play"):
            obj["pending"] = {kind: _notation_int(value, f"{field}.pending")}
        else:
            raise NotationError(f"{field}.pending", pending, "expected '-', 'suit:C' or 'row:N'")
    result = values.get("result", "-")
    obj["result"] = None if result == "-" else result
    if values.get("guessed") == "1":
        obj["guessed"] = True
    if head[1] != game.params["chapter"]:
        raise NotationError(field, tokens[0], f"this game is chapter {game.params['chapter']!r}; use game "
                                              f"'embers(chapter={head[1]})'")
    return obj


def _notation_int(text: str, field: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise NotationError(field, text, "expected an integer") from None


def arrangement_index(order: list[int]) -> int:
    """The ``arrange`` action payload for a permutation of the strength rows (three or four)."""
    return arrangements(len(order)).index(tuple(order))
