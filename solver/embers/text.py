"""Embers of Memory positions and answers as text for a person (``show``, ``score``, ``solve``)."""

from __future__ import annotations

from typing import Any

from solver.embers import mind as mindlib
from solver.embers.cards import SUITS, pattern_text
from solver.embers.state import EmbersState
from solver.embers.view import EmbersView
from solver.game import Game

PHASE_WORDS = {
    "arrange": "Aelin arranges her Resolve", "draw": "a card is drawn", "observe": "Fenrys draws or stops",
    "blink": "Fenrys adds or discards", "reveal": "Aelin may turn a Resolve card", "split": "Aelin keeps a section",
    "acknowledge": "Aelin takes a card", "deal": "cards are dealt", "over": "the game is over",
    "first": "the first play", "second": "the second play", "speak": "Aelin speaks (or not)",
    "dayend": "Aelin's Resolve cards are shown", "flip": "a Resolve card is turned",
}


def turn_label(game: Game, position: Any) -> str:
    """The day and what happens in it (a review's ``gameTurn``): ``day 2, Fenrys draws or stops``."""
    state = position.table if isinstance(position, EmbersView) else position
    return f"day {state.day}, {PHASE_WORDS.get(state.phase, state.phase)}"


def describe(game: Game, position: Any) -> str:
    """A readable account of a state, or of a player's view (its hidden cards as ``?``)."""
    if isinstance(position, EmbersView):
        state, masked = position.table, set(position.masked())
        who = f"player {position.observer}'s view ({position.role()})"
        mover = position.current_player()
    else:
        state = position
        masked = {i for i, r in enumerate(state.rows) if state.guessed and not r.face_up}
        who = "full state" + (" (Resolve cards given as '?')" if masked else "")
        mover = state.current_player()
    return _render(state, masked, who, mover)


def _render(state: EmbersState, masked: set[int], who: str, mover: int) -> str:
    deck = state.deck
    lines = []

    def name(c: int) -> str:
        return deck.cards[c].id

    chapter = "Chapter One" if state.chapter == "one" else f"Prologue part {state.part}"
    to_move = "game over: " + str(state.result) if state.is_terminal() else \
        ("chance (an outcome is entered)" if mover < 0 else state.role(mover))
    lines.append(f"{chapter}, day {state.day}, {state.role(state.turn)}'s turn, phase {state.phase} "
                 f"({PHASE_WORDS.get(state.phase, state.phase)}); to move: {to_move}  [{who}]")
    lines.append(f"Mind ({len(state.mind)} cards, bottom to top): "
                 + (", ".join(f"{name(c)}@{x},{y}" for c, x, y in state.mind) or "empty"))
    lines.extend("    " + line for line in mindlib.render(deck, state.mind))
    visible = mindlib.visible_cards(state.mind) if state.mind else []
    lines.append("  visible: " + (", ".join(f"{name(c)} ({deck.cards[c].suit_name} {deck.cards[c].strength} "
                                             f"{pattern_text(deck.cards[c].blocked)})" for c in visible) or "-"))
    lines.append("Memory row: " + (", ".join(name(c) for c in state.row) or "-"))
    lines.append("Demon row: " + (", ".join(f"{name(d)} [{', '.join(name(c) for c in t)}]" for d, t in state.demons)
                                  or "-"))
    for i, row in enumerate(state.rows):
        hidden = i in masked
        card = "?" if hidden else name(row.resolve)
        total = "?" if hidden else str(state.row_total(row))
        mark = "complete" if i < state.completed else ("current" if i == state.completed else "")
        bound = f", at least {row.at_least}" if row.at_least else ""
        lines.append(f"Row {i + 1}: Resolve {card}{' (face up)' if row.face_up else ''}{bound}; cards "
                     f"{', '.join(name(c) for c in row.cards) or '-'}; total {total} {mark}".rstrip())
    lines.append(f"Deck {len(state.pile)} cards; discard {len(state.discard)}; corrupted {len(state.box)}")
    if state.pending:
        kind, value = state.pending
        text = {"suit": f"a {SUITS[value]} relive", "row": f"a card added to row {value + 1}",
                "play": f"the relive of play {value}"}[kind]
        lines.append(f"Pending: {text}")
    return "\n".join(lines) + "\n"


def render(verb: str, result: Any) -> str | None:
    """The text of a ``score`` or ``solve`` answer (other verbs: the generic ``key: value`` lines)."""
    if verb == "score":
        return render_score(result)
    if verb == "solve":
        return render_solve(result.to_json())
    return None


def render_score(result: dict[str, Any]) -> str:
    """The ``score`` answer as text."""
    chapter = "Chapter One" if result["chapter"] == "one" else f"Prologue part {result['part']}"
    head = f"{chapter}, day {result['day']}, phase {result['phase']}: "
    head += f"result {result['result']}" if result["result"] else f"to move: {result['toMove']}"
    lines = [head, f"strength rows completed: {result['rowsCompleted']}"]
    for row in result["rows"]:
        mark = "complete" if row["complete"] else ("current" if row["current"] else "")
        total = "?" if row["total"] is None else row["total"]
        lines.append(f"  row {row['row']}: Resolve {row['resolve']}{' (face up)' if row['faceUp'] else ''}, cards "
                     f"{', '.join(row['cards']) or '-'}, total {total} {mark}".rstrip())
    mind = result["mind"]
    lines.append(f"Mind: {mind['cards']} cards, visible {', '.join(mind['visible']) or '-'}"
                 + (f", split into {len(mind['sections'])} sections" if mind["split"] else ""))
    lines.extend("    " + line for line in mind["picture"])
    if result["placements"]:
        lines.append("placements: " + "; ".join(f"{card} at {' '.join(spots)}"
                                                for card, spots in result["placements"].items()))
    lines.append("demons: " + (", ".join(f"{d['demon']} [{', '.join(d['tainted'])}]" for d in result["demons"])
                               or "-"))
    lines.append(f"deck {result['deckCount']}, discard {result['discardCount']}, corrupted "
                 f"{', '.join(result['corrupted']) or '-'}")
    return "\n".join(lines) + "\n"


def render_solve(data: dict[str, Any]) -> str:
    """The ``solve`` answer as text."""
    lines = [f"status {data['status']}{' (proven optimal)' if data['optimal'] else ''}, value {data['value']}, "
             f"bound {data['bound']}, {data['seconds']:.3f} s"]
    if data.get("plan"):
        lines.append("plan: " + "; ".join(data["plan"]))
        objective = data["objective"]
        relives = ", ".join(f"{suit} x{n}" for suit, n in objective["relives"].items()) or "none"
        lines.append(f"relives {relives}, banished {', '.join(objective['banished']) or 'none'}, demons left "
                     f"{', '.join(objective['demonsLeft']) or 'none'}, tainted {', '.join(objective['tainted']) or 'none'}, "
                     f"visible {', '.join(objective['visible'])}")
    if "note" in data:
        lines.append(data["note"])
    return "\n".join(lines) + "\n"
