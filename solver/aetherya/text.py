"""Aetherya positions as text for a person (``memory-solver aetherya show``), drawn from the position's JSON.

Face-up cards are their letters (``P F M S H E D G R O``), a face-down card is
its letter in lower case in a full state (as in the notation) and ``?`` in a
view (its kind is not known), an empty cell ``.``.
"""

from __future__ import annotations

from typing import Any

from solver.aetherya.cards import CARD_NAMES, LETTERS

KEY = "P Plains  F Forest  M Mountain  S Swamp  H Humans  E Elves  D Dwarves  G Goblins  R Dragon  O Portal"


def _grid(kingdom: str) -> list[str]:
    rows = kingdom.split("/")
    out = ["    a b c d"]
    for r, row in enumerate(rows):
        out.append(f"  {r + 1} " + " ".join(row))
    return out


def describe(data: dict[str, Any]) -> str:
    """The position as text: a header, every kingdom as a 4x4 grid, the piles, the Legends, the tiles."""
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
                     + ", ".join(data["ageRows"][data.get("age", 1) - 1]) + f"; written: "
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
