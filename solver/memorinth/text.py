"""Memorinth as text for a person: a picture of a position (or of one player's view of it) for ``show``, and
the text of ``solve``, ``score`` and ``deck``.

Each card is drawn 9 characters wide and 3 lines high: its path arms (``|``
and ``----``, ``g`` marks a goblin on the arm), its id and face (``12M``), the
characters on its face-up side, the players standing on it (``@01``) and, for
a player's view, whether that player knows its underside (``?`` = not seen).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, TextIO

from solver.memorinth import layout as R
from solver.memorinth.deck import ACTION_NAMES, DIRECTIONS, Deck
from solver.memorinth.layout import CHAR, CLOVER, DOWN, FOREST_CELLS, LAST, PIECE, ROUND, START, SUPPLY, UP
from solver.results import SolveResult

if TYPE_CHECKING:
    from solver.memorinth.game import MemorinthGame
    from solver.memorinth.state import MemorinthState
    from solver.memorinth.view import MemorinthView


def describe(game: MemorinthGame, position: MemorinthState | MemorinthView) -> str:
    """``show``: the text picture of a state or a view, then its notation."""
    out = io.StringIO()
    draw(position, out)
    out.write(f"notation: {position.to_notation()}\n")
    return out.getvalue()


def turn_label(game: MemorinthGame, position: MemorinthState | MemorinthView) -> str:
    """The round the position is in (a review's ``gameTurn``)."""
    return f"round {int(position.vec[ROUND])}"


def render(verb: str, result: Any) -> str | None:
    """The text of ``solve`` and ``score`` (``None``: the generic ``key: value`` lines for the other verbs)."""
    if verb == "solve":
        return solve_text(result.to_json() if isinstance(result, SolveResult) else result)
    if verb == "score":
        return score_text(result)
    return None


def _cell_lines(state: Any, cell: int, viewer: int | None) -> list[str]:
    deck = state.rules.deck
    side = deck.side(int(state.vec[UP + cell]))
    label = deck.side_name(int(state.vec[UP + cell]))
    chars = "".join(c for i, c in enumerate(deck.codes) if side.characters >> i & 1)

    def arm(d: int, vertical: bool) -> str:
        if not side.paths >> d & 1:
            return " " if vertical else "    "
        if side.goblins >> d & 1:
            return "g" if vertical else ("-g--" if d == 3 else "--g-")
        return "|" if vertical else "----"

    pieces = "".join(str(p) for p in range(state.rules.players) if state.vec[PIECE + p] == cell)
    mark = ""
    if viewer is not None and not state.knows_underside(cell, viewer):
        mark = "?"
    elif viewer is not None:
        mark = deck.side_name(int(state.vec[DOWN + cell]))
    if state.vec[LAST] == cell:
        label = label + "*"
    top = f"{label:<4}{arm(0, True)}{chars:>4}"
    centre = "+" if side.paths else " "
    middle = f"{arm(3, False)}{centre}{arm(1, False)}"
    bottom = f"{('@' + pieces) if pieces else '':<4}{arm(2, True)}{mark:>4}"
    return [top, middle, bottom]


def draw(state: Any, out: TextIO, viewer: int | None = None) -> None:
    """Draw the board, the characters, and the turn of a state or a view; with ``viewer`` (a view's observer by
    default) mark the undersides they have not seen."""
    observer = getattr(state, "observer", None)
    if observer is not None:
        viewer = observer
    rules = state.rules
    if state.setup is not None:
        out.write(f"{rules.header()}: setting up ({len(state.setup)} of 32 chance outcomes dealt)\n")
        if observer is not None:
            out.write(f"   {R.COLOURS[observer]}'s view of a real table: enter the cards as they are laid out\n")
            if len(state.setup) < len(FOREST_CELLS):
                cell = FOREST_CELLS[len(state.setup)]
                face = ("sun", "moon")[(cell // 5 + cell % 5) & 1]
                out.write(f"   next: the card on {R.cell_name(cell)}, by what its {face} side shows "
                          f"(deal card {face}-NES-B: path ends, characters, g and goblins' arms; or its number)\n")
        return
    codes = rules.deck.codes
    sides = {d: "".join(codes[i] for i in range(8) if state.vec[CHAR + i] == k) for k, d in enumerate(DIRECTIONS)}
    action = "".join(codes[i] for k in range(4) for i in range(8) if state.vec[CHAR + i] == 4 + k)
    out.write(f"{rules.header()}   north: {sides['N']}\n")
    border = "   +" + "+".join(["---------"] * 5) + "+\n"
    out.write("    " + "".join(f"{c:^10}" for c in R.COLUMNS) + "\n")
    out.write(border)
    for r in range(5):
        cells = [_cell_lines(state, 5 * r + c, viewer) for c in range(5)]
        for line in range(3):
            left = f"{r + 1:>2} " if line == 1 else "   "
            if line == 1 and r == 2:
                left = f"{sides['W']:>2} " if len(sides['W']) <= 2 else "W: "
            right = f"  {sides['E']}" if line == 1 and r == 2 else ""
            out.write(left + "|" + "|".join(cell[line] for cell in cells) + "|" + right + "\n")
        out.write(border)
    out.write(f"   south: {sides['S']}   west: {sides['W']}   east: {sides['E']}\n")
    if rules.master:
        side = {"shift": "shift side", "special": "special side"}.get(rules.action_side, "turns with the start card")
        names = [_action_name(state, k) for k in range(4)]
        out.write(f"   action card ({side}): " + ", ".join(f"{codes_at} {DIRECTIONS[k]} edge: {names[k]}"
                                                          for k, codes_at in enumerate(action)) + "\n")
    js = state.to_json()
    line = f"   round {js['round']}, start card {js['startCard']}"
    if js["phase"] != "over":
        line += (f", {R.COLOURS[js['toMove']]} (player {js['toMove']}, seat {rules.seats[js['toMove']]}) to "
                 f"{js['phase']}")
    if js["pending"]:
        line += f" ({js['pending']})"
    if js["lastFlipped"]:
        line += f"; last flipped {js['lastFlipped']} (marked *)"
    out.write(line + "\n")
    if js.get("reveal"):
        out.write(f"   waiting for the side the card on {js['reveal']} shows: enter 'reveal <side>'\n")
    if rules.goblins:
        out.write("   clovers: " + ", ".join(f"{R.COLOURS[p]} {int(state.vec[CLOVER + p])}"
                                          for p in range(rules.players)) + f", supply {int(state.vec[SUPPLY])}\n")
    if state.is_terminal():
        w = state.winner()
        out.write("   game over: " + (f"{R.COLOURS[w]} (player {w}) left the forest\n" if w is not None
                                      else "nobody can ever leave the forest\n"))
    if viewer is not None:
        out.write(f"   seen from {R.COLOURS[viewer]}: '?' = underside not known, else the side underneath\n")


def _action_name(state: Any, edge: int) -> str:
    side = {"shift": 0, "special": 1}.get(state.rules.action_side, int(state.vec[START]))
    return ACTION_NAMES[state.rules.deck.actions[side][edge]]


def solve_text(answer: dict[str, Any]) -> str:
    """A shortest escape (``solve``'s JSON answer) as text for a person."""
    player = answer["player"]
    who = f"{R.COLOURS[player]} (player {player})"
    result = answer.get("result")
    lines = []
    if result == "OPTIMAL":
        lines.append(f"{who} can leave the forest in {answer['turns']} own turns (proven shortest, "
                     f"{answer['nodes']} nodes):")
    elif result == "NO_ESCAPE":
        lines.append(f"{who} cannot leave the forest at all (proven)")
    elif result == "NONE_WITHIN_MAX_DEPTH":
        lines.append(f"{who} cannot leave the forest within {answer['maxDepth']} own turns (proven; none in "
                     f"fewer than {answer.get('lowerBound')}); an escape may take longer: try a larger --max-depth")
    elif result is not None and result != "LIMIT":
        lines.append(f"{who}: {result} (lower bound {answer.get('lowerBound')}, within {answer['maxDepth']} own "
                     "turns)")
    else:
        best = f"in {answer['turns']} own turns" if answer.get("turns") else "not yet"
        lines.append(f"{who}: search stopped by its limit; best escape found {best}, "
                     f"none in fewer than {answer.get('lowerBound')} (proven):")
    for i, turn in enumerate(answer.get("turnMoves") or [], 1):
        lines.append(f"  turn {i}: {', '.join(turn)}")
    lines.append("  (full information, solitaire model: the other players' turns change nothing)")
    return "\n".join(lines) + "\n"


def score_text(report: dict[str, Any]) -> str:
    """The race (``score``'s JSON) as text for a person."""
    lines = []
    for entry in report["players"]:
        line = f"  {entry['colour']:<7} (player {entry['player']}) on {entry['cell']}"
        if "pathDistance" in entry:
            line += f": {entry['pathDistance'] if entry['pathDistance'] is not None else 'no'} moves out along the paths"
        if "shortestEscape" in entry:
            esc = entry["shortestEscape"]
            line += f"; shortest escape {esc['turns']} own turns ({esc['status']})"
        lines.append(line)
    if "view" in report:
        lines.append(f"  (player {report['view']}'s view: the shortest escape needs the full state)")
    if report["over"]:
        lines.append("  game over")
    return "\n".join(lines) + "\n"


def deck_text(deck: Deck) -> str:
    """``deck``: a deck's characters, action card and cards, one line each."""
    lines = [f"deck {deck.name!r} ({deck.tag()}): {'printed cards' if deck.printed else 'NOT the printed cards'}",
             f"  {deck.description}",
             "  characters: " + ", ".join(f"{c} {n}" for c, n in zip(deck.codes, deck.names))]
    for s, name in enumerate(("shift", "special")):
        lines.append(f"  action card, {name} side: "
                     + ", ".join(f"{DIRECTIONS[e]} {ACTION_NAMES[deck.actions[s][e]]}" for e in range(4)))
    for card in deck.cards:
        lines.append(f"  {card.ident:>3}  Sun: {card.sides[0].describe(deck.codes):<20} "
                     f"Moon: {card.sides[1].describe(deck.codes)}")
    return "\n".join(lines) + "\n"
