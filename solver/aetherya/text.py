"""Aetherya as text for a person: positions (``memory-solver aetherya show``, drawn from the position's JSON),
score sheets (``score``) and optimal kingdoms (``optimize``).

Face-up cards are their letters (``P F M S H E D G R O``), a face-down card is
its letter in lower case in a full state (as in the notation) and ``?`` in a
view (its kind is not known), an empty cell ``.``.
"""

from __future__ import annotations

from io import StringIO
from typing import Any

from solver.aetherya.cards import CARD_NAMES, CATEGORIES, CELL_NAMES, LEGENDS, LETTERS
from solver.aetherya.puzzle_play import PuzzlePosition
from solver.aetherya.puzzle_play import describe as describe_puzzle_position
from solver.aetherya.scoring import KingdomScore
from solver.aetherya.solve import OptimizeResult
from solver.game import Game, State, View

KEY = "P Plains  F Forest  M Mountain  S Swamp  H Humans  E Elves  D Dwarves  G Goblins  R Dragon  O Portal"


def _grid(kingdom: str) -> list[str]:
    rows = kingdom.split("/")
    out = ["    a b c d"]
    for r, row in enumerate(rows):
        out.append(f"  {r + 1} " + " ".join(row))
    return out


def turn_label(game: Game, position: State | View) -> str:
    """The Age and the turn as ``show`` counts them (a review's ``gameTurn``): ``Age 1, turn 6``."""
    data = position.to_json()
    return f"Age {data.get('age', 1)}, turn {data.get('turn', 0)}"


def waiting(game: Game, position: State | View) -> str | None:
    """What a view waits for after a move that turns something over (``place a2`` on a face-down card): the card
    (or tile) found there, and how to enter it."""
    awaiting = getattr(position, "awaiting", None)
    if awaiting is None:
        return None
    what, seat, cell = position._next_need()
    example = "card H" if what == "card" else "tile griffin"
    return (f"the {what} found on seat {seat}'s {CELL_NAMES[cell]} (after '{awaiting[0]}'): enter it as "
            f"'{example}'")


def describe(game: Game, position: State | View) -> str:
    """The position as a person reads it: every kingdom as a 4x4 grid, the piles, the Legends (``show``)."""
    if isinstance(position, PuzzlePosition):
        return describe_puzzle_position(position)
    return describe_json(position.to_json())


def describe_json(data: dict[str, Any]) -> str:
    """The position's JSON as text: a header, every kingdom as a 4x4 grid, the piles, the Legends, the tiles."""
    view = data.get("view")
    mode, players = data["mode"], data["players"]
    dealing = ("legends", "start", "territories", "tiles", "first-discard", "draw", "refill", "reform")
    whose = ("game over" if data["phase"] == "over" else "a card, Legend or tile is dealt next"
             if data["phase"] in dealing or data.get("awaiting") else f"seat {data.get('toMove', 0)} to play")
    head = f"Aetherya ({mode}, {players} player{'s' if players > 1 else ''}), turn {data.get('turn', 0)}, " \
           f"{whose}, phase {data['phase']}"
    if view is not None:
        head += f"; what seat {view} knows"
    lines = [head]
    if mode == "solo":
        lines.append(f"Age {data.get('age', 1)}: Legends to write "
                     + ", ".join(data["ageRows"][data.get("age", 1) - 1]) + "; written: "
                     + (", ".join(data.get("written", [])) or "none"))
        scores = data.get("ageScores", [])
        if scores:
            lines.append("Age scores: " + ", ".join("?" if s is None else str(s) for s in scores))
    grids = [_grid(k) for k in data["kingdoms"]]
    width = 16
    labels = [f"seat {q}" + (" (you)" if q == view else "") for q in range(players)]
    lines.append("".join(label.ljust(width + 2) for label in labels).rstrip())
    for i in range(5):
        lines.append("".join(g[i].ljust(width + 2) for g in grids).rstrip())
    starts = data.get("start", [])
    if any(starts):
        lines.append("Starting cards: " + "; ".join(f"seat {q}: {s or '-'}" for q, s in enumerate(starts)))
    held = data.get("legends", [])
    if mode in ("base", "objects") and any(held):
        lines.append("Legends held: " + "; ".join(f"seat {q}: {', '.join(h) or 'none'}" for q, h in enumerate(held)))
    piles = data["discard"]
    tops = ", ".join((f"pile {i + 1}: " if len(piles) > 1 else "") + (f"{p} (top {p[-1]})" if p else "empty")
                     for i, p in enumerate(piles))
    pile = data["drawPile"]
    pile_text = f"{pile} cards" if isinstance(pile, int) else f"{len(pile)} cards, known: {pile or '-'}"
    lines.append(f"Discard {tops}; draw pile {pile_text}")
    if data.get("hold"):
        hold = data["hold"]
        lines.append(f"Card to place: {CARD_NAMES[LETTERS.index(hold['card'])]} ({hold['card']}, from the "
                     f"{'discard' if hold['from'] == 'take' else 'pile'})")
    if data.get("pair"):
        lines.append("Cards drawn: " + ", ".join(f"{p['card']} (from the {'discard' if p['from'] == 'take' else 'pile'})"
                                                 for p in data["pair"]))
    deck = data.get("legendDeck")
    deck_size = deck if isinstance(deck, int) else len(deck or [])
    if mode != "solo":
        lines.append(f"Legend row: {', '.join(data.get('legendRow', [])) or 'empty'} (deck {deck_size})")
    if mode == "coop":
        lines.append(f"Legends discarded (the objective): {', '.join(data.get('legendDiscard', [])) or 'none'}; "
                     f"written: {', '.join(data.get('box', [])) or 'none'}")
    tiles = data.get("tiles")
    if tiles:
        owned = "; ".join(f"seat {q}: {', '.join(t) or 'none'}" for q, t in enumerate(tiles.get("owned", [])))
        lines.append(f"Tiles owned: {owned}")
        if tiles.get("pending"):
            lines.append(f"Tile offered: {tiles['pending']}")
    awaiting = data.get("awaiting")
    if awaiting:
        lines.append(f"Waiting for what '{awaiting['move']}' shows"
                     + (f" (entered: {', '.join(awaiting['entered'])})" if awaiting["entered"] else ""))
    lines.append(f"Key: {KEY}; lower case face down, ? unknown, . empty")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- score sheets and optimal kingdoms
def score_sheet(score: KingdomScore) -> str:
    """A kingdom's score sheet, one category a line."""
    out = StringIO()
    for name, value in zip(CATEGORIES, score.categories):
        out.write(f"  {name:<10}{value:>5}\n")
    out.write(f"  {'total':<10}{score.total:>5}\n")
    out.write(f"  tie-break  {score.tiebreak}\n")
    satisfied = ", ".join(leg.slug for leg in score.satisfied) or "none"
    out.write(f"  Legends this kingdom satisfies: {satisfied}\n")
    return out.getvalue()


def score_from_json(result: dict[str, Any]) -> KingdomScore:
    """A :class:`KingdomScore` back from its JSON (for the text form of ``score``)."""
    by_slug = {leg.slug: leg for leg in LEGENDS}
    return KingdomScore(*(result[name] for name in CATEGORIES),
                        satisfied=tuple(by_slug[s] for s in result.get("satisfied_legends", [])))


def render(verb: str, result: Any) -> str | None:
    """The text form of ``score`` (a kingdom's sheet, or every seat's); ``None`` for the generic lines."""
    if verb != "score" or not isinstance(result, dict):
        return None
    if "players" not in result:
        return score_sheet(score_from_json(result))
    out = StringIO()
    for sheet in result["players"]:
        out.write(f"seat {sheet['player']}: total {sheet['total']}  ("
                  + ", ".join(f"{name} {sheet[name]}" for name in CATEGORIES) + ")\n")
    if result.get("winners") is not None:
        out.write(f"winners: {', '.join(map(str, result['winners'])) or 'none'}\n")
    for age in result.get("ages", []):
        out.write(f"Age {age['age']}: kingdom {age['kingdom']}, objective {age['objective']}, score "
                  f"{age['score']}\n")
    return out.getvalue()


def optimize_text(result: OptimizeResult) -> str:
    """The best kingdom of a hand, its score sheet and the proof status (``optimize``)."""
    fixed = f" with {result.hand.fixed_text()} fixed" if result.hand.fixed else ""
    lines = [f"Best kingdom of {result.hand.letters()}{fixed}:"]
    lines += [f"  {' '.join(row)}" for row in result.notation.split("/")]
    text = "\n".join(lines) + "\n" + score_sheet(result.score())
    if result.optimal:
        return text + (f"  proven optimal ({result.prover}, {result.layouts} Portal layout(s), "
                       f"{result.seconds:.3f} s)\n")
    return text + (f"  not proven: the best board total is at most {result.bound} "
                   f"(time limit reached after {result.seconds:.3f} s)\n")
