"""Aetherya pictures (``docs/pictures.md``): every kingdom, the piles, the Legends and a hint, as SVG.

Drawn from a position's JSON only (a full state or a player's view, ``docs/formats/aetherya.md``), with
``solver.drawing.Svg``: no rules logic here, so two equal views give byte-identical pictures. Every card kind has
its colour (Okabe-Ito) *and* its letter and name: Terrains are filled cards, Tribes white cards with a coloured
band, Dragons and Portals filled with a padlock mark; a face-down card is a hatched back (``?`` in a view, its
kind in small lower case in a full state). Elements a player acts on carry ``data-target`` with a token of the
move strings (the mapping is in ``docs/formats/aetherya.md``, "Pictures").
"""

from __future__ import annotations

from typing import Any

from solver.aetherya.cards import CARD_NAMES, CELL_NAMES, LEGENDS, LETTERS
from solver.aetherya.puzzle_play import PuzzlePosition
from solver.drawing import INK, PALETTE, PAPER, Svg, _wrap, difficulty_badge, format_value, hint_marks
from solver.game import Game, State, View

CARD_W, CARD_H, GAP = 46.0, 60.0, 4.0
GRID = 4 * CARD_W + 3 * GAP
MARGIN = 18.0
PANEL_W = 250.0
LEGEND_PITCH = 36.0  # a Legend row and the room below it for a hint's badge
#: the layouts drawn (``show --layout``): ``narrow`` (a phone's) stacks the title, the piles and every kingdom's
#: 4x4 grid in one column 272 wide, no text under 9.2 (12 px on a phone); solo keeps the wide picture (its Age rows are six Legends wide)
LAYOUTS = ("wide", "narrow")
#: the narrow picture's smallest text: 12 px once its 272 units fill a 390 px phone's board (359 px)
NARROW_TEXT = 9.2
#: fill of Terrains, Dragons and Portals; band of Tribes (colour is never the only cue: letters and names too)
COLOURS = {
    "P": PALETTE["yellow"], "F": PALETTE["green"], "M": PALETTE["grey"], "S": PALETTE["sky"],
    "H": PALETTE["orange"], "E": PALETTE["blue"], "D": PALETTE["vermillion"], "G": PALETTE["black"],
    "R": PALETTE["vermillion"], "O": PALETTE["purple"],
}
TERRAINS, TRIBES, LOCKED = "PFMS", "HEDG", "RO"
DARK = {"F", "G", "E", "R", "O"}  # fills on which text is white
TILE_CHARS = {"accord": "A", "staff": "S", "sword": "W", "griffin": "G", "hammer": "H", "palantir": "P",
              "stone1": "1", "stone2": "2", "stone3": "3", "stone4": "4", "trafficker": "T", "thief": "X"}
LEGEND_POINTS = {leg.slug: leg.points for leg in LEGENDS}
DEALING = ("legends", "start", "territories", "tiles", "first-discard", "draw", "refill", "reform")


class Layout:
    """Where everything is drawn (rectangles by name), filled while drawing, read by the hint marks."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, str], tuple[float, float, float, float]] = {}
        self.places: dict[str, tuple[float, float, float, float]] = {}


def card(doc: Svg, x: float, y: float, letter: str, w: float = CARD_W, h: float = CARD_H,
         target: str | None = None, title: str | None = None) -> None:
    """A face-up card of kind ``letter``: its colour, its letter and its name."""
    name = CARD_NAMES[LETTERS.index(letter)]
    colour = COLOURS[letter]
    small = w < 36  # a miniature (a palette, the starting cards): the letter only
    with doc.group(target=target, title=title or name):
        if letter in TRIBES:
            doc.rect(x, y, w, h, fill=PAPER, stroke=colour, stroke_width=2.0, rx=4)
            doc.rect(x, y, w, h * 0.24, fill=colour, rx=4)
            if not small:
                doc.text(x + w / 2, y + h * 0.12, name.upper(), size=min(7.0, w * 0.15), fill=PAPER, weight="bold")
            doc.text(x + w / 2, y + h * 0.6, letter, size=w * 0.48, fill=colour, weight="bold")
        else:
            doc.rect(x, y, w, h, fill=colour, stroke=INK, stroke_width=1.0, rx=4)
            fg = PAPER if letter in DARK else INK
            doc.text(x + w / 2, y + h * (0.5 if small else 0.45), letter, size=w * 0.48, fill=fg, weight="bold")
            if not small:
                doc.text(x + w / 2, y + h * 0.84, name, size=7.5, fill=fg)
            if letter in LOCKED and not small:  # the padlock: never replaced once placed
                lx, ly = x + w - 11, y + 4
                doc.rect(lx, ly + 4, 8, 6, fill=fg, rx=1)
                doc.path(f"M{lx + 1.5:.1f},{ly + 4:.1f} v-1.5 a2.5,2.5 0 0 1 5,0 v1.5", stroke=fg, stroke_width=1.2)


def _tile_badge(doc: Svg, x: float, y: float, text: str, fill: str = PAPER, target: str | None = None,
                title: str | None = None) -> None:
    with doc.group(target=target, title=title):
        doc.circle(x, y, 7.5, fill=fill, stroke=INK, stroke_width=1.0)
        doc.text(x, y, text, size=8.5, weight="bold", fill=INK if fill == PAPER else PAPER)


def _tile_text(tile: str) -> str:
    return "?" if tile == "?" else TILE_CHARS.get(tile.split("@")[0], "?")


def kingdom(doc: Svg, layout: Layout, data: dict[str, Any], seat: int, x: float, y: float) -> None:
    """One seat's 4x4 kingdom with its label, tiles on cards and Legends held."""
    view = data.get("view")
    mover = data.get("toMove", 0)
    rows = data["kingdoms"][seat].split("/")
    you = " (you)" if view == seat else ""
    doc.text(x, y - 9, f"seat {seat}{you}" + ("  to play" if seat == mover and data["phase"] != "over" else ""),
             size=12, anchor="start", weight="bold")
    for c in range(4):
        doc.text(x + c * (CARD_W + GAP) + CARD_W / 2, y + 4 * (CARD_H + GAP) + 6, "abcd"[c], size=9, fill="#555555")
    tiles = data.get("tiles") or {}
    territories = (tiles.get("territories") or [{}] * data["players"])[seat]
    face_up = set((tiles.get("faceUp") or [[]] * data["players"])[seat])
    accords = (tiles.get("accords") or [{}] * data["players"])[seat]
    staffs = (tiles.get("staffs") or [{}] * data["players"])[seat]
    for r, row in enumerate(rows):
        doc.text(x - 8, y + r * (CARD_H + GAP) + CARD_H / 2, str(r + 1), size=9, fill="#555555")
        for c, ch in enumerate(row):
            cell = CELL_NAMES[r * 4 + c]
            cx, cy = x + c * (CARD_W + GAP), y + r * (CARD_H + GAP)
            layout.cells[seat, cell] = (cx, cy, CARD_W, CARD_H)
            own = seat == mover
            target = cell if own else None
            if ch == ".":
                doc.rect(cx, cy, CARD_W, CARD_H, fill="none", stroke="#AAAAAA", stroke_width=1.0, rx=4, dash="3,3",
                         target=target, title=f"{cell}: empty")
            elif ch == "?" or ch.islower():
                label = "?" if ch == "?" else ch
                title = f"{cell}: face down" + (" (not known)" if ch == "?" else f" ({CARD_NAMES[LETTERS.index(ch.upper())]})")
                doc.card_back(cx, cy, CARD_W, CARD_H, label=label, target=target or f"peek p{seat} {cell}",
                              title=title)
            else:
                card(doc, cx, cy, ch, target=target, title=f"{cell}: {CARD_NAMES[LETTERS.index(ch)]}")
            tile = territories.get(cell)
            if tile is not None:
                up = cell in face_up
                _tile_badge(doc, cx + 9, cy + CARD_H - 9, _tile_text(tile), fill=PALETTE["yellow"] if up else PAPER,
                            target=cell if own else f"griffin p{seat} {cell}",
                            title=f"tile on {cell}: " + ("face up " if up else "") + tile)
            for placed, kind in ((accords.get(cell), "Accord"), (staffs.get(cell), "Staff")):
                if placed is not None:
                    _tile_badge(doc, cx + CARD_W - 9, cy + CARD_H - 9, kind[0], fill=PALETTE["green"],
                                title=f"{kind} on {cell}")
    held = data.get("legends", [[]] * data["players"])[seat]
    below = y + 4 * (CARD_H + GAP) + 22
    if held:
        doc.text(x, below, "Legends: " + ", ".join(held), size=9, anchor="start")
        below += 13
    owned = (tiles.get("owned") or [[]] * data["players"])[seat] if tiles else []
    if owned:
        doc.text(x, below + 6, "tiles:", size=9, anchor="start")
    for i, tile in enumerate(owned):
        kind = tile.split("@")[0]
        target = kind if seat == mover else f"thief p{seat} {kind}"
        _tile_badge(doc, x + 38 + i * 18, below + 6, _tile_text(tile), fill=PALETTE["sky"], target=target,
                    title=f"tile owned by seat {seat}: {tile}")


def _pile(doc: Svg, layout: Layout, name: str, x: float, y: float, label: str, top: str | None, count: int | str,
          target: str | None) -> None:
    layout.places[name] = (x, y, CARD_W, CARD_H)
    if top:
        card(doc, x, y, top, target=target, title=f"{label}: top {CARD_NAMES[LETTERS.index(top)]}")
    elif top is None:
        doc.card_back(x, y, CARD_W, CARD_H, target=target, title=label)
    else:
        doc.rect(x, y, CARD_W, CARD_H, fill="none", stroke="#AAAAAA", dash="3,3", rx=4, target=target, title=label)
    doc.text(x + CARD_W / 2, y + CARD_H + 10, label, size=9)
    doc.text(x + CARD_W / 2, y + CARD_H + 21, str(count), size=9, fill="#555555")


def _button(doc: Svg, layout: Layout, name: str, x: float, y: float, text: str, target: str) -> None:
    width = 7.0 * len(text) + 16
    layout.places[name] = (x, y, width, 20)
    with doc.group(target=target, title=text):
        doc.rect(x, y, width, 20, fill="#EEEEEE", stroke=INK, stroke_width=1.0, rx=10)
        doc.text(x + width / 2, y + 10, text, size=11)


def _legend_card(doc: Svg, layout: Layout, slug: str, x: float, y: float, w: float = 112, faded: bool = False,
                 note: str = "") -> None:
    layout.places[f"legend:{slug}"] = (x, y, w, 24)
    with doc.group(target=slug, title=f"Legend {slug} ({LEGEND_POINTS.get(slug, '?')} pts){note}",
                   opacity=0.45 if faded else None):
        doc.rect(x, y, w, 24, fill="#F7F3E3", stroke="#8C7A3C", stroke_width=1.2, rx=3)
        doc.text(x + 6, y + 12, slug, size=9.5, anchor="start")
        doc.badge(x + w - 12, y + 12, str(LEGEND_POINTS.get(slug, "?")), fill="#8C7A3C", size=8.5)


def _palettes(doc: Svg, data: dict[str, Any], x: float, y: float) -> float:
    """When the position waits for a chance outcome: the cards (and tiles) that may be entered, as targets."""
    turned_over = data["phase"] == "over" or (data["mode"] == "solo" and data["phase"] in ("swap", "block")
                                               and data.get("age", 1) > 1)
    waiting = data["phase"] in DEALING or data.get("awaiting") or (
        data.get("view") is not None and turned_over and any("?" in k for k in data["kingdoms"]))
    if not waiting or data["phase"] in ("legends", "refill"):
        return y
    doc.text(x, y, "enter what is seen:", size=10, anchor="start")
    y += 10
    for i, letter in enumerate(LETTERS[:10] + "?"):
        cx = x + i * 21
        if letter == "?":
            doc.card_back(cx, y, 18, 24, label="?", target="card ?", title="a card dealt face down")
        else:
            card(doc, cx, y, letter, w=18, h=24, target=f"card {letter}", title=CARD_NAMES[LETTERS.index(letter)])
    y += 32
    if data.get("tiles") is not None:
        for i, (slug, char) in enumerate(list(TILE_CHARS.items()) + [("?", "?")]):
            _tile_badge(doc, x + 8 + i * 18, y + 8, char, target=f"tile {slug}", title=f"tile {slug}")
        y += 24
    return y


def svg(game: Game, position: State | View, hint: dict[str, Any] | None = None, **options: Any) -> str:
    """The picture of ``position`` (a state, a view or a puzzle being answered) with ``hint`` drawn on it."""
    if isinstance(position, PuzzlePosition):
        return puzzle_position_svg(position.to_json(), position.board_total())
    return position_svg(position.to_json(), hint, **options)


def puzzle_svg(game: Game, puzzle: dict[str, Any], solution: bool = False) -> str:
    """A printable puzzle sheet (or its solution), with its difficulty badge."""
    return puzzle_sheet_svg(puzzle, solution)


def position_svg(data: dict[str, Any], hint: dict[str, Any] | None = None, **options: Any) -> str:
    """The picture of a position (state or view JSON) with ``hint`` (a hint's JSON) drawn on it."""
    if options.get("layout") == "narrow" and data["mode"] != "solo":
        return _narrow_svg(data, hint)
    players = data["players"]
    per_row = 2 if players > 1 else 1
    rows = (players + per_row - 1) // per_row
    block_w, block_h = GRID + 40, 4 * (CARD_H + GAP) + 70
    width = MARGIN * 2 + per_row * block_w + PANEL_W
    if data["mode"] == "solo":
        width = max(width, MARGIN * 2 + 110 + 6 * 120)
    legends_h = (3 if data["mode"] == "solo" else _legend_lines(data, width)) * LEGEND_PITCH + 24
    height = max(56 + rows * block_h + legends_h, 330.0 if players == 1 else 0.0)
    view = data.get("view")
    title = (f"Aetherya, {data['mode']}, {players} player{'s' if players > 1 else ''}, turn {data.get('turn', 0)}"
             + (f", seat {view}'s view" if view is not None else ", every card shown"))
    doc = Svg(width, height, title=title)
    layout = Layout()
    whose = ("game over" if data["phase"] == "over" else
             "waiting for what is seen next" if data["phase"] in DEALING or data.get("awaiting") else
             f"seat {data.get('toMove', 0)} to play")
    doc.text(MARGIN, 20, f"{title}: {whose} (phase {data['phase']})", size=13, anchor="start", weight="bold")
    for seat in range(players):
        kx = MARGIN + 14 + (seat % per_row) * block_w
        ky = 56 + (seat // per_row) * block_h
        kingdom(doc, layout, data, seat, kx, ky)
    _panel(doc, layout, data, MARGIN + per_row * block_w, 44)
    _legend_rows(doc, layout, data, MARGIN, 50 + rows * block_h, width)
    _hint(doc, layout, data, hint)
    return doc.render()


def _narrow_svg(data: dict[str, Any], hint: dict[str, Any] | None) -> str:
    """The narrow layout: the title wrapped, the piles and what to enter, then each kingdom under the one before,
    then the Legends one to a line."""
    players = data["players"]
    block_h = 4 * (CARD_H + GAP) + 70
    width = MARGIN * 2 + GRID + 40
    view = data.get("view")
    title = (f"Aetherya, {data['mode']}, {players} player{'s' if players > 1 else ''}, turn {data.get('turn', 0)}"
             + (f", seat {view}'s view" if view is not None else ", every card shown"))
    whose = ("game over" if data["phase"] == "over" else
             "waiting for what is seen next" if data["phase"] in DEALING or data.get("awaiting") else
             f"seat {data.get('toMove', 0)} to play")
    doc = Svg(width, 2000.0, title=title)
    doc.min_text = NARROW_TEXT
    layout = Layout()
    y = 20.0
    for line in _wrap(f"{title}: {whose} (phase {data['phase']})", 32):
        doc.text(MARGIN, y, line, size=13, anchor="start", weight="bold")
        y += 18
    y = _panel(doc, layout, data, MARGIN, y + 4)
    for seat in range(players):
        kingdom(doc, layout, data, seat, MARGIN + 14, y + 24 + seat * block_h)
    y += 18 + players * block_h
    _legend_rows(doc, layout, data, MARGIN, y, width)
    y += _legend_lines(data, width) * LEGEND_PITCH + 24
    _hint(doc, layout, data, hint)
    doc.height = y
    return doc.render()


def _panel(doc: Svg, layout: Layout, data: dict[str, Any], x: float, y: float) -> float:
    """The piles, the card to place or keep, the starting cards, the tile offered, the buttons and what to enter;
    returns where it ends."""
    mode, phase = data["mode"], data["phase"]
    pile = data["drawPile"]
    count = f"{pile} cards" if isinstance(pile, int) else f"{len(pile)} cards (known)"
    draw_target = "draw2" if mode == "solo" else "draw"
    piles = len(data["discard"])
    for i, cards in enumerate(data["discard"]):  # the discard nearest the kingdoms: a hint's arrow starts there
        target = ("take+draw" if mode == "solo" else "take" if i == 0 else "take2")
        label = "discard" if piles == 1 else f"discard {i + 1}"
        _pile(doc, layout, f"discard{i}", x + i * (CARD_W + 14), y + 6, label, cards[-1] if cards else "",
              f"{len(cards)} cards", target)
    _pile(doc, layout, "draw", x + piles * (CARD_W + 14), y + 6, "draw pile", None, count, draw_target)
    y += CARD_H + 40
    hold = data.get("hold")
    if hold:
        doc.text(x, y, f"card to place ({'from the discard' if hold['from'] == 'take' else 'drawn'}):", size=10,
                 anchor="start")
        card(doc, x, y + 8, hold["card"], title="the card to place")
        layout.places["hold"] = (x, y + 8, CARD_W, CARD_H)
        y += CARD_H + 18
    for i, item in enumerate(data.get("pair") or []):
        if i == 0:
            doc.text(x, y, "the two cards: keep one", size=10, anchor="start")
        px = x + i * (CARD_W + 8)
        card(doc, px, y + 8, item["card"], target=f"keep {item['card']}", title=f"keep {item['card']}")
        layout.places[f"pair{i}"] = (px, y + 8, CARD_W, CARD_H)
        layout.places.setdefault(f"keep:{item['card']}", (px, y + 8, CARD_W, CARD_H))
        if i == len(data["pair"]) - 1:
            y += CARD_H + 18
    start = data.get("start") or []
    mover = data.get("toMove", 0)
    if phase == "arrange" and mover < len(start) and start[mover]:
        doc.text(x, y, f"seat {mover}'s starting cards:", size=10, anchor="start")
        # the whole 2x2 to arrange is a target, each card too (the page enters it card by card into the slots)
        with doc.group(target="arrange", title="arrange the 2x2 (b2 c2 b3 c3)", slots="b2 c2 b3 c3"):
            for i, letter in enumerate(start[mover]):
                if letter == "?":
                    doc.card_back(x + i * 30, y + 8, 26, 34, label="?")
                else:
                    card(doc, x + i * 30, y + 8, letter, w=26, h=34, target=f"arrange {letter}")
        layout.places["start"] = (x, y + 8, 4 * 30, 34)
        y += 52
    tiles = data.get("tiles") or {}
    if tiles.get("pending"):
        doc.text(x, y, "tile offered:", size=10, anchor="start")
        _tile_badge(doc, x + 80, y, _tile_text(tiles["pending"]), fill=PALETTE["yellow"], target="tile",
                    title=f"take or refuse {tiles['pending']}")
        layout.places["tile"] = (x + 72, y - 8, 16, 16)
        y += 20
    if phase == "end-turn":
        _button(doc, layout, "end", x, y, "end the turn", "end")
        y += 30
    if phase == "swap":
        _button(doc, layout, "none", x, y, "no swap", "none")
        y += 30
    awaiting = data.get("awaiting")
    if awaiting:
        doc.text(x, y, f"after '{awaiting['move']}':", size=10, anchor="start")
        y += 14
    return _palettes(doc, data, x, y + 4)


def _legend_rows(doc: Svg, layout: Layout, data: dict[str, Any], x: float, y: float, width: float) -> None:
    deck = data.get("legendDeck")
    size = deck if isinstance(deck, int) else len(deck or [])
    if data["mode"] == "solo":
        age = data.get("age", 1)
        written = set(data.get("written", []))
        scores = data.get("ageScores", [])
        for i, row in enumerate(data.get("ageRows", [])):
            ry = y + i * LEGEND_PITCH
            score = scores[i] if i < len(scores) else None
            state = ("now" if i + 1 == age and data["phase"] != "over" else
                     f"score {'?' if score is None else score}" if i < len(scores) else "")
            doc.text(x, ry + 12, f"Age {i + 1}", size=11, anchor="start", weight="bold" if i + 1 == age else None)
            doc.text(x + 42, ry + 12, state, size=9, anchor="start", fill="#555555")
            for j, slug in enumerate(row):
                done = (i + 1 < age) or (i + 1 == age and slug in written)
                lx = x + 110 + j * 120
                _legend_card(doc, layout, slug, lx, ry, faded=done, note=" (written)" if done else "")
                if done:  # written: struck through, and faded (not by colour alone)
                    doc.line(lx + 4, ry + 12, lx + 96, ry + 12, stroke=INK, width=1.5)
        with doc.group(target="legend", title="the Legends dealt into the Age rows"):
            doc.text(x, y + 3 * LEGEND_PITCH + 6, "struck through: written this Age (earlier Ages: all written)",
                     size=9, anchor="start", fill="#555555")
        return
    doc.text(x, y + 12, "Legends:", size=11, anchor="start", weight="bold")
    per_line = _legends_per_line(width)
    for j, slug in enumerate(data.get("legendRow", [])):
        _legend_card(doc, layout, slug, x + 70 + (j % per_line) * 118, y + (j // per_line) * LEGEND_PITCH)
    below = y + LEGEND_PITCH * _legend_lines(data, width) + 6
    with doc.group(target="legend", title=f"Legend deck: {size}"):
        doc.text(x, below, f"Legend deck: {size}", size=9, anchor="start", fill="#555555")
    if data["mode"] == "objects":
        doc.text(x + 90, below, "tiles: " + ", ".join(f"{c} {k}" for k, c in TILE_CHARS.items() if not k.startswith(
            "stone")) + ", 1-4 Power Stones; ? unseen; yellow: face up", size=9, anchor="start")
    if data["mode"] == "coop":
        doc.text(x + 90, below, "objective (discarded): " + (", ".join(data.get("legendDiscard", [])) or "none")
                 + "; written: " + (", ".join(data.get("box", [])) or "none"), size=9, anchor="start")


def _legends_per_line(width: float) -> int:
    return max(1, int((width - 2 * MARGIN - 70) // 118))


def _legend_lines(data: dict[str, Any], width: float) -> int:
    n = len(data.get("legendRow", []))
    return max(1, -(-n // _legends_per_line(width)))


# ---------------------------------------------------------------------- hint marks
def _outline(doc: Svg, rect: tuple[float, float, float, float], mark: dict[str, Any], dashed: bool = False) -> None:
    x, y, w, h = rect
    doc.rect(x - 3, y - 3, w + 6, h + 6, fill="none", stroke=mark["colour"], stroke_width=3.5 if mark["rank"] == 0
             else 2.5, rx=6, opacity=mark["opacity"], dash="5,3" if dashed else None)


def _value_badge(doc: Svg, rect: tuple[float, float, float, float], mark: dict[str, Any], meaning: str | None) -> None:
    """The rank and value, on the marked card's top edge (over the card the move replaces, not its neighbours)."""
    x, y, w, h = rect
    text = f"{mark['rank'] + 1}: {format_value(mark['value'], meaning)}"
    doc.badge(x + w / 2, y + 9 if h >= 40 else y + h + 5, text, fill=mark["colour"], opacity=mark["opacity"], size=9)


def _hint(doc: Svg, layout: Layout, data: dict[str, Any], hint: dict[str, Any] | None) -> None:
    if not hint:
        return
    meaning = (hint.get("rootInfo") or {}).get("valueMeaning")
    mover = data.get("toMove", 0)
    for mark in reversed(hint_marks(hint)):
        words = mark["move"].split()
        if not words:
            continue
        rects = _rects_for(layout, words, mover, mark["info"])
        if not rects:
            continue
        if words[0] == "swap" and len(rects) == 2:  # the two Legends exchanged, joined
            (x1, y1, w1, h1), (x2, y2, w2, h2) = rects
            doc.line(x1 + w1 / 2, y1 + h1 / 2, x2 + w2 / 2, y2 + h2 / 2, stroke=mark["colour"],
                     width=3 if mark["rank"] == 0 else 2, opacity=mark["opacity"])
            for rect in rects:
                _outline(doc, rect, mark)
            mid = ((x1 + x2 + w1) / 2 - w1 / 2, (y1 + y2) / 2, w1, 0.0)
            doc.badge(mid[0] + w1 / 2, mid[1] + h1 / 2, f"{mark['rank'] + 1}: "
                      f"{format_value(mark['value'], meaning)}", fill=mark["colour"], opacity=mark["opacity"], size=9)
            continue
        if words[0] in ("take", "take2", "take+draw") and len(rects) == 2:
            (x1, y1, w1, h1), (x2, y2, w2, h2) = rects
            doc.arrow(x1 + 4, y1 + h1 / 2, x2 + w2 / 2, y2 + h2 / 2, colour=mark["colour"],
                      width=5 if mark["rank"] == 0 else 3.5, opacity=mark["opacity"])
            _outline(doc, rects[1], mark)
            _value_badge(doc, rects[1], mark, meaning)
            continue
        for rect in rects:
            _outline(doc, rect, mark, dashed=words[0] == "reveal")
        if words[0] == "arrange" and mark["rank"] == 0 and len(words) > 1:  # the planned 2x2, drawn faintly
            for (x, y, w, h), letter in zip(rects, words[1].upper()):
                if letter in COLOURS:
                    with doc.group(opacity=0.55):
                        card(doc, x + 6, y + 10, letter, w=w - 12, h=h - 14)
        _value_badge(doc, rects[0], mark, meaning)


def _rects_for(layout: Layout, words: list[str], mover: int, info: dict[str, Any]) -> list[tuple[float, float, float, float]]:
    """The places a move string names on the picture."""
    head = words[0]
    cells = layout.cells
    if head in ("take", "take2", "take+draw"):
        pile = layout.places.get("discard1" if head == "take2" else "discard0")
        pv = info.get("pv") or []
        planned = next((p.split()[1] for p in pv[1:] if p.startswith("place ")), None)
        out = [pile] if pile else []
        if planned and (mover, planned) in cells:
            out.append(cells[mover, planned])
        return out
    if head in ("draw", "draw2"):
        return [layout.places["draw"]] if "draw" in layout.places else []
    if head in ("place", "reveal", "accord", "staff", "block") and len(words) > 1:
        cell = words[1]
        if head == "block" and (mover, cell) in cells:
            index = CELL_NAMES.index(cell)
            return [cells[mover, CELL_NAMES[index + d]] for d in (0, 1, 4, 5) if index + d < 16]
        return [cells[mover, cell]] if (mover, cell) in cells else []
    if head == "hammer":
        return [cells[mover, c] for c in words[1:3] if (mover, c) in cells]
    if head in ("griffin", "peek") and len(words) > 2:
        key = (int(words[1][1:]) if words[1][1:].isdigit() else -1, words[2])
        return [cells[key]] if key in cells else []
    if head in ("claim", "discard-legend") and len(words) > 1:
        rect = layout.places.get(f"legend:{words[1]}")
        return [rect] if rect else []
    if head == "swap":
        if words[1:] == ["none"]:
            return [layout.places["none"]] if "none" in layout.places else []
        return [layout.places[f"legend:{w}"] for w in words[1:] if f"legend:{w}" in layout.places]
    if head == "end":
        return [layout.places["end"]] if "end" in layout.places else []
    if head == "keep" and len(words) > 1:
        rect = layout.places.get(f"keep:{words[1].upper()}")
        return [rect] if rect else []
    if head == "tile":
        return [layout.places["tile"]] if "tile" in layout.places else []
    if head == "arrange" and len(words) > 1:
        return [cells[mover, c] for c in ("b2", "c2", "b3", "c3") if (mover, c) in cells]
    return []


# ---------------------------------------------------------------------- puzzles
def puzzle_sheet_svg(puzzle: dict[str, Any], solution: bool = False) -> str:
    """A printable puzzle sheet (or its solution), drawn from the puzzle's JSON."""
    kind = puzzle.get("kind")
    width, height = 560.0, 420.0
    doc = Svg(width, height, title=f"{puzzle.get('id', 'puzzle')}{' (solution)' if solution else ''}")
    doc.text(MARGIN, 22, f"Aetherya puzzle {puzzle.get('id', '')}" + ("  - solution" if solution else ""), size=13,
             anchor="start", weight="bold")
    difficulty_badge(doc, width - MARGIN, 20, str(puzzle.get("difficulty", "")))
    lines = _wrap(puzzle.get("question", ""), 80)
    for i, line in enumerate(lines):
        doc.text(MARGIN, 44 + i * 14, line, size=10.5, anchor="start")
    top = 56 + len(lines) * 14
    x0 = MARGIN + 14
    sol = puzzle.get("solution") or {}
    if kind == "best-kingdom":
        fixed = puzzle.get("fixed", {})
        grid = sol.get("kingdom", "").replace("/", "") if solution else ""
        for c in range(16):
            cell = CELL_NAMES[c]
            cx, cy = x0 + (c % 4) * (CARD_W + GAP), top + (c // 4) * (CARD_H + GAP)
            letter = fixed.get(cell) or (grid[c] if grid else "")
            if letter:
                card(doc, cx, cy, letter, title=f"{cell}: {'fixed ' if cell in fixed else ''}{letter}")
                if cell in fixed:
                    doc.rect(cx - 2, cy - 2, CARD_W + 4, CARD_H + 4, fill="none", stroke=INK, stroke_width=2.5, rx=5)
            else:
                doc.rect(cx, cy, CARD_W, CARD_H, fill="none", stroke="#AAAAAA", dash="3,3", rx=4, title=cell)
        free = list(puzzle.get("cards", ""))
        for letter in fixed.values():
            if letter in free:
                free.remove(letter)
        px = x0 + GRID + 30
        doc.text(px, top + 6, "cards to place:", size=10.5, anchor="start")
        for i, letter in enumerate(sorted(free, key=LETTERS.index)):
            card(doc, px + (i % 5) * 30, top + 16 + (i // 5) * 40, letter, w=26, h=34)
        if solution:
            doc.text(px, top + 200, f"score {sol.get('score')} (proven optimal, unique up to symmetry)", size=10.5,
                     anchor="start")
        doc.text(x0, top + 4 * (CARD_H + GAP) + 14, "thick outline: fixed card", size=9, anchor="start")
    else:
        rows = puzzle.get("kingdom", "").split("/")
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                cx, cy = x0 + c * (CARD_W + GAP), top + r * (CARD_H + GAP)
                if ch.islower():
                    doc.card_back(cx, cy, CARD_W, CARD_H, label=ch, title=f"{CELL_NAMES[r * 4 + c]}: face down ({ch})")
                else:
                    card(doc, cx, cy, ch)
        px = x0 + GRID + 30
        doc.text(px, top + 6, f"Legend: {puzzle.get('legend')}", size=11, anchor="start", weight="bold")
        doc.text(px, top + 26, f"discard (top last): {puzzle.get('discard') or '-'}", size=10, anchor="start")
        doc.text(px, top + 42, f"draw pile (top first): {puzzle.get('draw') or '-'}", size=10, anchor="start")
        if solution:
            for i, move in enumerate(sol.get("moves", [])):
                doc.text(px, top + 70 + i * 16, f"{i + 1}. {move}", size=10.5, anchor="start")
            doc.text(px, top + 76 + len(sol.get("moves", [])) * 16, f"{sol.get('turns')} turns, proven fewest",
                     size=10, anchor="start")
        doc.text(x0, top + 4 * (CARD_H + GAP) + 14, "lower-case back: face down, its kind given", size=9,
                 anchor="start")
    return doc.render()


def _wrap(text: str, width: int) -> list[str]:
    out, line = [], ""
    for word in str(text).split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return out + ([line] if line else [])


# ---------------------------------------------------------------------- puzzle positions (answered by moves)
def puzzle_position_svg(data: dict[str, Any], total: int) -> str:
    """A puzzle being answered on the web board (``solver/aetherya/puzzle_play.py``): the kingdom with every cell
    a target, and the hand (best-kingdom: ``pick CARD``) or the discard and draw piles (legend-race: ``take``,
    ``draw``); ``total`` is the board total of the cards placed so far."""
    kind = data["puzzle"]
    width, height = 560.0, 360.0
    doc = Svg(width, height, title=f"Aetherya {kind} puzzle")
    x0, top = MARGIN + 14, 56.0
    if kind == "best-kingdom":
        left = len(data["hand"]) + (1 if data.get("held") else 0)
        status = "complete: check it" if not left else f"{left} card{'s' if left > 1 else ''} to place"
        doc.text(MARGIN, 20, f"Aetherya best-kingdom puzzle: {status}", size=13, anchor="start", weight="bold")
        doc.text(MARGIN, 38, "pick a card from the hand, then click an empty cell; click a placed card to lift it",
                 size=10, anchor="start", fill="#555555")
        _puzzle_grid(doc, data["kingdom"], set(data["fixed"]), x0, top)
        _puzzle_hand(doc, data, x0 + GRID + 30, top, total)
    else:
        held = data.get("held")
        doc.text(MARGIN, 20, f"Aetherya legend-race puzzle: write {data['legend']} "
                 f"({LEGEND_POINTS.get(data['legend'], '?')} pts) in the fewest turns", size=13, anchor="start",
                 weight="bold")
        doc.text(MARGIN, 38, f"turns played: {data['turns']}; "
                 + (f"place the {CARD_NAMES[LETTERS.index(held['card'])]}"
                    + (" or reveal a face-down card" if held["from"] == "draw" else "") if held else
                    "take the discard's top card or draw"), size=10, anchor="start", fill="#555555")
        _puzzle_grid(doc, data["kingdom"], set(), x0, top)
        _race_piles(doc, data, x0 + GRID + 30, top)
    doc.text(x0, top + 4 * (CARD_H + GAP) + 14, "thick outline: fixed card" if kind == "best-kingdom" else
             "lower-case back: face down, its kind known", size=9, anchor="start")
    return doc.render()


def _puzzle_grid(doc: Svg, kingdom: str, fixed: set[str], x0: float, top: float) -> None:
    """The 4x4 of a puzzle position: every cell but a fixed one is a target (its name)."""
    for c in range(4):
        doc.text(x0 + c * (CARD_W + GAP) + CARD_W / 2, top + 4 * (CARD_H + GAP) + 2, "abcd"[c], size=9,
                 fill="#555555")
    for index, ch in enumerate(kingdom.replace("/", "")):
        cell = CELL_NAMES[index]
        r, c = divmod(index, 4)
        if c == 0:
            doc.text(x0 - 8, top + r * (CARD_H + GAP) + CARD_H / 2, str(r + 1), size=9, fill="#555555")
        cx, cy = x0 + c * (CARD_W + GAP), top + r * (CARD_H + GAP)
        target = None if cell in fixed else cell
        if ch == ".":
            doc.rect(cx, cy, CARD_W, CARD_H, fill=PAPER, stroke="#AAAAAA", stroke_width=1.0, rx=4, dash="3,3",
                     target=target, title=f"{cell}: empty")
        elif ch.islower():
            doc.card_back(cx, cy, CARD_W, CARD_H, label=ch, target=target,
                          title=f"{cell}: face down ({CARD_NAMES[LETTERS.index(ch.upper())]})")
        else:
            card(doc, cx, cy, ch, target=target, title=f"{cell}: {'fixed ' if cell in fixed else ''}"
                                                     f"{CARD_NAMES[LETTERS.index(ch)]}")
            if cell in fixed:
                doc.rect(cx - 2, cy - 2, CARD_W + 4, CARD_H + 4, fill="none", stroke=INK, stroke_width=2.5, rx=5)


def _puzzle_hand(doc: Svg, data: dict[str, Any], x: float, y: float, total: int) -> None:
    """The cards still in hand, one per kind with its count (``pick CARD``), and the card picked."""
    doc.text(x, y + 6, "hand (click a card to pick it):", size=10.5, anchor="start")
    kinds = sorted(set(data["hand"]), key=LETTERS.index)
    for i, letter in enumerate(kinds):
        cx, cy = x + (i % 5) * 40, y + 18 + (i // 5) * 56
        card(doc, cx, cy, letter, w=34, h=44, target=f"pick {letter}",
             title=f"pick {CARD_NAMES[LETTERS.index(letter)]} ({data['hand'].count(letter)} in hand)")
        doc.text(cx + 17, cy + 51, f"x{data['hand'].count(letter)}", size=9, fill="#555555")
    below = y + 18 + ((len(kinds) + 4) // 5) * 56 + 14
    held = data.get("held")
    if held:
        doc.text(x, below, "picked (click an empty cell):", size=10.5, anchor="start")
        card(doc, x, below + 10, held, title=f"the {CARD_NAMES[LETTERS.index(held)]} to place")
        doc.rect(x - 3, below + 7, CARD_W + 6, CARD_H + 6, fill="none", stroke=PALETTE["blue"], stroke_width=3,
                 rx=6)
        below += CARD_H + 24
    doc.text(x, below + 4, f"score of the cards placed: {total}", size=11, anchor="start", weight="bold")


def _race_piles(doc: Svg, data: dict[str, Any], x: float, y: float) -> None:
    """The discard (its top is ``take``), the draw pile (its known top is ``draw``) and the card held."""
    discard, draw = data["discard"], data["draw"]
    if discard:
        card(doc, x, y, discard[-1], target="take", title=f"take the {CARD_NAMES[LETTERS.index(discard[-1])]}")
    else:
        doc.rect(x, y, CARD_W, CARD_H, fill="none", stroke="#AAAAAA", dash="3,3", rx=4, title="discard: empty")
    doc.text(x + CARD_W / 2, y + CARD_H + 10, "discard", size=9)
    doc.text(x + CARD_W / 2, y + CARD_H + 21, f"{len(discard)} cards", size=9, fill="#555555")
    dx = x + CARD_W + 24
    if draw:
        card(doc, dx, y, draw[0], target="draw", title=f"draw: the next card is the {CARD_NAMES[LETTERS.index(draw[0])]}")
    else:
        doc.rect(dx, y, CARD_W, CARD_H, fill="none", stroke="#AAAAAA", dash="3,3", rx=4, title="draw pile: used up")
    doc.text(dx + CARD_W / 2, y + CARD_H + 10, "draw pile", size=9)
    doc.text(dx + CARD_W / 2, y + CARD_H + 21, f"{len(draw)} cards", size=9, fill="#555555")
    doc.text(x, y + CARD_H + 42, f"discard, bottom to top: {discard or '-'}", size=10, anchor="start")
    doc.text(x, y + CARD_H + 58, f"draw pile, top first: {draw or '-'}", size=10, anchor="start")
    held = data.get("held")
    if held:
        hy = y + CARD_H + 78
        doc.text(x, hy, f"holding ({'from the discard' if held['from'] == 'take' else 'drawn'}):", size=10.5,
                 anchor="start")
        card(doc, x, hy + 10, held["card"], title=f"the {CARD_NAMES[LETTERS.index(held['card'])]} to place")
        doc.rect(x - 3, hy + 7, CARD_W + 6, CARD_H + 6, fill="none", stroke=PALETTE["blue"], stroke_width=3, rx=6)
