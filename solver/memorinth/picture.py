"""Memorinth pictures: the labyrinth as a player sees it, drawn as SVG from a position's JSON (``docs/pictures.md``).

The 5x5 forest with each card's face-up side (Sun cards light with a sun, Moon cards dark with a crescent, and the
side's name, so colour is never the only cue), its paths, the goblins on them (a ``g`` triangle), the characters on
it (lettered discs), the clearing (ringed, ``C``), the pieces (discs in the player colours with the player's
number), the exits (arrows where a path leaves the forest), the card flipped last (dashed) and, in a corner of each
card, its underside: the side's name where it is known (every underside in a full state; in a player's view those
that player has seen, and the clearing's), a hatched card back where it is not. Around the forest the characters
on each side, in Master Memorinth the action card, and below it the turn, the clovers and a legend.

Drawing only formats the JSON (``state.to_json()`` or a view's, so equal views draw byte-identical pictures); the
deck named in the JSON gives each side's paths, characters and goblins. Clickable elements carry ``data-target``:
cells (``b2``), characters (``R``), column letters (``b``) and row numbers (``3``) for shifts, the players' clover
counts (``1``) for ``clover from 1``, ``pass``, and in a view the sides that may be revealed or, while the table
is dealt, the cards still possible on the next cell, each drawn small as it shows and named by its look
(``moon-NE-R``, ``sun-NES-B``: one per look, ``solver/memorinth/looks.py``; a full state's deal names the card's
number, ``7``), and the characters still to be laid out (``R``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from solver.drawing import INK, PALETTE, PAPER, Svg, difficulty_badge, format_value, hint_marks, wrap_words
from solver.errors import InvalidInputError
from solver.memorinth import looks
from solver.memorinth.deck import DIRECTIONS, Deck, Side, load_deck
from solver.memorinth.layout import FOREST_CELLS
from solver.memorinth.puzzles import puzzle_state

if TYPE_CHECKING:
    from solver.memorinth.game import MemorinthGame

CARD = 92.0
GAP = 4.0
STEP = CARD + GAP
LEFT = 112.0
TOP = 128.0
GRID = 5 * CARD + 4 * GAP
COLUMNS = "abcde"
SUN_FILL = "#FBF5D0"       # a pale tint of the palette's yellow (Sun side up)
MOON_FILL = "#C9D6E8"      # a pale tint of the palette's blue (Moon side up)
PATH = "#6B5A45"
PLAYER_COLOURS = (PALETTE["yellow"], PALETTE["blue"], PALETTE["vermillion"], PALETTE["green"])
PLAYER_NAMES = ("yellow", "blue", "red", "green")
PLAYER_TEXT = (INK, PAPER, PAPER, PAPER)
CHARACTER_COLOURS = (PALETTE["vermillion"], PALETTE["green"], PALETTE["orange"], PALETTE["purple"],
                     PALETTE["sky"], PALETTE["blue"], PALETTE["black"], PALETTE["grey"])
OFFSETS = ((0, -1), (1, 0), (0, 1), (-1, 0))          # N, E, S, W as (dx, dy)
CHIP = 44.0                # a card offered for entry (dealt, or turned over), drawn small as it shows
CHIP_STEP = CHIP + 8
SUN_POINTS = tuple((r * math.cos(k * math.pi / 8), r * math.sin(k * math.pi / 8))
                   for k, r in zip(range(16), (8.0, 4.6) * 8))


def sun_points(x: float, y: float) -> list[tuple[float, float]]:
    """The points of an eight-rayed sun centred on (x, y)."""
    return [(x + dx, y + dy) for dx, dy in SUN_POINTS]


ACT_TEXT = {"shift-N": "shift a column north", "shift-S": "shift a column south", "shift-E": "shift a row east",
            "shift-W": "shift a row west", "clover": "take a lucky clover from another player",
            "peek": "look under a card", "swap-cards": "swap two cards", "swap-characters": "swap two characters"}


def _cell(name: str) -> tuple[int, int]:
    return COLUMNS.index(name[0]), int(name[1]) - 1


def _origin(col: int, row: int) -> tuple[float, float]:
    return LEFT + col * STEP, TOP + row * STEP


def _centre(name: str) -> tuple[float, float]:
    col, row = _cell(name)
    x, y = _origin(col, row)
    return x + CARD / 2, y + CARD / 2


class Picture:
    """One drawing of one position's JSON."""

    def __init__(self, data: dict[str, Any], hint: dict[str, Any] | None, title: str | None = None) -> None:
        self.data = data
        self.deck: Deck = load_deck(data.get("deck", "default"), "state.deck")
        self.viewer = data.get("view")
        self.master = data.get("variant") == "master"
        self.hint = hint
        self.width = LEFT + GRID + 100 + (200 if self.master else 0)
        self.legend = self.legend_lines()
        self.offers = self.offered_sides()
        self.height = (self.status_top() + 18 * self.status_count() + 30 + 14 * len(self.legend)
                       + CHIP_STEP * self.chip_rows())
        self.doc = Svg(self.width, self.height, title=title or self._title())
        self.character_spots: dict[str, tuple[float, float]] = {}
        self.clover_spots: dict[int, tuple[float, float]] = {}
        self.pass_spot: tuple[float, float] | None = None

    # -- helpers ------------------------------------------------------------------------------------------
    def _title(self) -> str:
        who = "full information" if self.viewer is None else f"{PLAYER_NAMES[self.viewer]}'s view"
        return f"Memorinth, {self.data.get('players', 2)} players, {self.data.get('variant', 'base')} ({who})"

    def side(self, name: str) -> Any:
        """The deck side called ``12M``."""
        ident, face = name[:-1], "SM".index(name[-1])
        k = next(i for i, card in enumerate(self.deck.cards) if card.ident == ident)
        return self.deck.cards[k].sides[face]

    def character_colour(self, code: str) -> str:
        return CHARACTER_COLOURS[self.deck.codes.index(code) % len(CHARACTER_COLOURS)]

    @staticmethod
    def tokens(data: dict[str, Any]) -> list[list[str]]:
        rows = data["board"]
        return [row.split() if isinstance(row, str) else list(row) for row in rows]

    # -- the whole picture ------------------------------------------------------------------------------------
    def draw(self) -> str:
        doc = self.doc
        doc.text(LEFT, 20, self._title(), size=15, anchor="start", weight="bold")
        if self.data.get("phase") == "setup":
            self.draw_setup()
        else:
            self.draw_board()
        self.draw_characters()
        if self.master and self.data.get("phase") != "setup":
            self.draw_action_card()
        self.draw_status()
        self.draw_hint()
        return doc.render()

    def draw_board(self) -> None:
        doc = self.doc
        doc.rect(LEFT - 8, TOP - 8, GRID + 16, GRID + 16, fill="#EFEDE4", stroke=INK, stroke_width=1.5, rx=6)
        tokens = self.tokens(self.data)
        seen = self.data.get("seen") or []
        last = self.data.get("lastFlipped")
        for row in range(5):
            for col in range(5):
                name = f"{COLUMNS[col]}{row + 1}"
                seen_by = [p for p, cells in enumerate(seen) if name in cells]
                self.draw_card(col, row, tokens[row][col], seen_by, name == last)
        self.draw_exits(tokens)
        if self.data.get("reveal"):
            x, y = _origin(*_cell(self.data["reveal"]))
            self.doc.rect(x - 4, y - 4, CARD + 8, CARD + 8, fill="none", stroke=PALETTE["orange"], stroke_width=4,
                          dash="9 5", rx=9, title=f"{self.data['reveal']}: its underside is being revealed")
        self.draw_pieces()
        self.draw_line_labels()

    def draw_card(self, col: int, row: int, token: str, seen_by: list[int], last: bool) -> None:
        doc = self.doc
        x, y = _origin(col, row)
        name = f"{COLUMNS[col]}{row + 1}"
        up, _, under = token.partition(":")
        side = self.side(up)
        moon = up.endswith("M")
        clearing = up[:-1] == "C"
        described = f"{name}: {up} face up ({'Moon' if moon else 'Sun'} side), paths " \
                    f"{''.join(d for i, d in enumerate(DIRECTIONS) if side.paths >> i & 1) or 'none'}"
        with doc.group(target=name, title=described):
            doc.rect(x, y, CARD, CARD, fill=MOON_FILL if moon else SUN_FILL, stroke=INK, stroke_width=1.0, rx=6)
            cx, cy = x + CARD / 2, y + CARD / 2
            for d, (dx, dy) in enumerate(OFFSETS):
                if side.paths >> d & 1:
                    doc.line(cx, cy, cx + dx * CARD / 2, cy + dy * CARD / 2, stroke=PATH, width=11, cap="butt")
            if side.paths:
                doc.circle(cx, cy, 7.5, fill=PATH)
            for d, (dx, dy) in enumerate(OFFSETS):
                if side.goblins >> d & 1:
                    self.goblin(cx + dx * CARD * 0.17, cy + dy * CARD * 0.17)
            if clearing:
                doc.circle(cx, cy, 17, fill="none", stroke=PALETTE["green"], stroke_width=3)
                doc.text(cx, cy, "C", size=12, weight="bold", fill=PAPER)
            self.face_symbol(x + 11, y + 11, moon)
            doc.text(x + 21, y + 11, up, size=11, anchor="start", weight="bold")
            chars = [c for i, c in enumerate(self.deck.codes) if side.characters >> i & 1]
            for i, code in enumerate(chars):
                self.character_disc(x + CARD - 11 - 19 * i, y + 12, code, 8.5, 10)
            self.underside(x + CARD - 32, y + CARD - 22, up, under, seen_by)
        if last:
            doc.rect(x - 3, y - 3, CARD + 6, CARD + 6, fill="none", stroke=PALETTE["purple"], stroke_width=2.5,
                     dash="6 4", rx=8, title=f"{name}: flipped last (it may not be flipped next)")

    def face_symbol(self, x: float, y: float, moon: bool) -> None:
        """A crescent (Moon) or a sun with rays (Sun), drawn as shapes."""
        doc = self.doc
        if moon:
            doc.circle(x, y, 6.5, fill=PALETTE["blue"])
            doc.circle(x + 3.2, y - 2.2, 5.6, fill=MOON_FILL)
            return
        doc.polygon(sun_points(x, y), fill=PALETTE["orange"])

    def goblin(self, x: float, y: float) -> None:
        doc = self.doc
        doc.polygon([(x, y - 9), (x + 8.5, y + 6), (x - 8.5, y + 6)], fill=PALETTE["green"], stroke=INK,
                    stroke_width=0.8, title="goblin: passing it costs a lucky clover (MR-14, MR-28)")
        doc.text(x, y + 1.5, "g", size=9, weight="bold", fill=PAPER)

    def character_disc(self, x: float, y: float, code: str, r: float, size: float, target: bool = False) -> None:
        doc = self.doc
        name = self.deck.names[self.deck.codes.index(code)]
        fill = self.character_colour(code)
        text = PAPER if fill not in (PALETTE["yellow"], PALETTE["sky"], PALETTE["orange"], PALETTE["grey"]) else INK
        with doc.group(target=code if target else None, title=f"{code}: {name}"):
            doc.circle(x, y, r, fill=fill, stroke=INK, stroke_width=0.8)
            doc.text(x, y, code, size=size, weight="bold", fill=text)

    def underside(self, x: float, y: float, up: str, under: str, seen_by: list[int]) -> None:
        """The underside in the card's corner: its name when known, a card back when not."""
        doc = self.doc
        w, h = 28.0, 17.0
        who = "" if not seen_by else " (seen by " + ", ".join(PLAYER_NAMES[p] for p in seen_by) + ")"
        if under == "?":
            doc.card_back(x, y, w, h, label="?", title=f"underside not known to {PLAYER_NAMES[self.viewer]}{who}")
            return
        ident = up[:-1] if not under else under
        face = "S" if up.endswith("M") else "M"
        name = ident + face
        with doc.group(title=f"underside: {name}{who}"):
            doc.rect(x, y, w, h, fill=SUN_FILL if face == "S" else MOON_FILL, stroke=INK, stroke_width=0.8, rx=2)
            doc.text(x + w / 2, y + h / 2, name, size=9.5)

    def draw_exits(self, tokens: list[list[str]]) -> None:
        """Arrows where a face-up path leads out of the forest."""
        doc = self.doc
        for row in range(5):
            for col in range(5):
                side = self.side(tokens[row][col].partition(":")[0])
                x, y = _origin(col, row)
                for d, (dx, dy) in enumerate(OFFSETS):
                    edge = (row == 0, col == 4, row == 4, col == 0)[d]
                    if edge and side.paths >> d & 1:
                        cx = x + CARD / 2 + dx * (CARD / 2 + 6)
                        cy = y + CARD / 2 + dy * (CARD / 2 + 6)
                        doc.arrow(cx, cy, cx + dx * 14, cy + dy * 14, colour=PALETTE["green"], width=4)

    def draw_pieces(self) -> None:
        doc = self.doc
        by_cell: dict[str, list[int]] = {}
        for p, cell in enumerate(self.data.get("pieces", [])):
            by_cell.setdefault(cell, []).append(p)
        for cell, players in by_cell.items():
            if cell == "out":
                continue
            cx, cy = _centre(cell)
            for i, p in enumerate(players):
                dx, dy = (0, 0) if len(players) == 1 else ((-14, 14), (14, 14), (-14, -14), (14, -14))[i]
                px, py = cx + dx, cy + dy
                with doc.group(title=f"{PLAYER_NAMES[p]} (player {p})"):
                    doc.circle(px, py, 10, fill=PLAYER_COLOURS[p], stroke=INK, stroke_width=1.5)
                    doc.text(px, py, str(p), size=11, weight="bold", fill=PLAYER_TEXT[p])

    def draw_line_labels(self) -> None:
        """Column letters and row numbers: the targets of 'shift col b ...' and 'shift row 3 ...'."""
        doc = self.doc
        for i in range(5):
            x, _ = _origin(i, 0)
            with doc.group(target=COLUMNS[i], title=f"column {COLUMNS[i]}"):
                doc.rect(x + CARD / 2 - 10, TOP - 44, 20, 16, fill=PAPER, stroke=PALETTE["grey"], rx=3)
                doc.text(x + CARD / 2, TOP - 36, COLUMNS[i], size=11)
            _, y = _origin(0, i)
            with doc.group(target=str(i + 1), title=f"row {i + 1}"):
                doc.rect(LEFT - 50, y + CARD / 2 - 8, 20, 16, fill=PAPER, stroke=PALETTE["grey"], rx=3)
                doc.text(LEFT - 40, y + CARD / 2, str(i + 1), size=11)

    def draw_characters(self) -> None:
        """The characters on each side of the forest (targets of 'choose R' and 'swap R H')."""
        chars = self.data.get("characters") or {}
        mid = GRID / 2
        spots = {"N": (LEFT + mid, TOP - 82), "S": (LEFT + mid, TOP + GRID + 42), "W": (LEFT - 86, TOP + mid),
                 "E": (LEFT + GRID + 52, TOP + mid)}
        for d in DIRECTIONS:
            codes = chars.get(d, "")
            x, y = spots[d]
            for i, code in enumerate(codes):
                offset = (i - (len(codes) - 1) / 2) * 34
                cx, cy = (x + offset, y) if d in "NS" else (x, y + offset)
                self.character_disc(cx, cy, code, 14, 14, target=True)
                self.character_spots[code] = (cx, cy)

    def draw_action_card(self) -> None:
        doc = self.doc
        chars = self.data.get("characters", {}).get("action", "")
        side_mode = self.data.get("actionSide", "shift")
        side = {"shift": "shift", "special": "special"}.get(side_mode) or (
            "shift" if self.data.get("startCard") == "sun" else "special")
        names = self.deck.to_json()["actionCard"][side]
        x0 = LEFT + GRID + 120
        y0 = TOP + GRID / 2 - 70
        doc.rect(x0 - 34, y0 - 44, 208, 214, fill="none", stroke=PALETTE["grey"], stroke_width=1, rx=8,
                 dash="5 4")
        doc.text(x0 + 70, y0 - 28, f"action card ({side} side)", size=11, weight="bold")
        doc.rect(x0 + 30, y0 + 30, 80, 80, fill="#EFEDE4", stroke=INK, stroke_width=1.2, rx=6)
        doc.text(x0 + 70, y0 + 70, "actions", size=10, italic=True)
        spots = {"N": (x0 + 70, y0 + 6), "E": (x0 + 134, y0 + 70), "S": (x0 + 70, y0 + 134), "W": (x0 + 6, y0 + 70)}
        for i, d in enumerate(DIRECTIONS):
            if i >= len(chars):
                break
            cx, cy = spots[d]
            self.character_disc(cx, cy, chars[i], 13, 13, target=True)
            self.character_spots[chars[i]] = (cx, cy)
            label = names[d]
            ty = cy + (-19 if d == "N" else 23) if d in "NS" else cy + 22
            doc.text(cx, ty, label, size=9)

    def status_top(self) -> float:
        return TOP + GRID + 84

    def status_count(self) -> int:
        """Lines under the board: the turn (two or three), clovers and the sides a reveal may show."""
        data = self.data
        if data.get("phase") == "setup":
            return 2
        return 2 + bool(data.get("reveal")) + ("clovers" in data) + bool(self.viewer is not None
                                                                          and data.get("reveal"))

    # -- the cards offered for entry, by what they show ---------------------------------------------------------
    def chips_per_row(self) -> int:
        return int((self.width - LEFT) // CHIP_STEP)

    def chip_rows(self) -> int:
        return -(-len(self.offers) // self.chips_per_row()) if self.offers else 0

    def offered_sides(self) -> list[tuple[int, Side, str]]:
        """The cards the next entry may name, each as (face, side it shows, the target its click names): while
        the table is dealt, the next cell's side (in a view one per look still possible, its target the look,
        ``sun-NES-B``: cards alike are one choice; in a full state every card still to deal, by number); while a
        view awaits a revealed side, one per look that may lie there."""
        data = self.data
        deck = self.deck
        if data.get("phase") == "setup":
            dealt = [deck.card_index(str(ident), "state.dealt") for ident in data.get("dealt", [])]
            if len(dealt) >= len(FOREST_CELLS):
                return []
            face = looks.cell_face(FOREST_CELLS[len(dealt)])
            if self.viewer is None:
                return [(face, deck.cards[k].sides[face], deck.cards[k].ident)
                        for k in range(1, len(deck.cards)) if k not in dealt]
            return [(face, side, looks.spell(deck, side, face)) for side, _ in looks.deal_choices(deck, dealt)]
        if self.viewer is None or not data.get("reveal"):
            return []
        options = self.reveal_options()
        face = "SM".index(options[0][-1]) if options else 0
        shown = dict.fromkeys(self.side(name) for name in options)
        return [(face, side, looks.spell(deck, side, face)) for side in shown]

    def draw_offers(self, y: float, label: str) -> None:
        """The cards offered for entry as small cards, each a click target (``deal card sun-NES-B``,
        ``reveal moon-NE-R``; ``deal card 7`` in a full state)."""
        doc = self.doc
        doc.text(LEFT - 8, y, label, size=11, anchor="start")
        per_row = self.chips_per_row()
        for i, (face, side, target) in enumerate(self.offers):
            x = LEFT - 8 + CHIP_STEP * (i % per_row)
            top = y + 12 + CHIP_STEP * (i // per_row)
            look = looks.spell(self.deck, side, face)
            with doc.group(target=target, title=f"it shows {look}", cls="offer"):
                self.small_card(x, top, side, face == 1)

    def small_card(self, x: float, y: float, side: Side, moon: bool) -> None:
        """A side as it shows, drawn small: paths, goblins, characters, Sun or Moon."""
        doc = self.doc
        doc.rect(x, y, CHIP, CHIP, fill=MOON_FILL if moon else SUN_FILL, stroke=INK, stroke_width=1.0, rx=4)
        cx, cy = x + CHIP / 2, y + CHIP / 2
        for d, (dx, dy) in enumerate(OFFSETS):
            if side.paths >> d & 1:
                doc.line(cx, cy, cx + dx * CHIP / 2, cy + dy * CHIP / 2, stroke=PATH, width=6, cap="butt")
            if side.goblins >> d & 1:
                gx, gy = cx + dx * CHIP * 0.3, cy + dy * CHIP * 0.3
                doc.polygon([(gx, gy - 5), (gx + 4.5, gy + 3.5), (gx - 4.5, gy + 3.5)], fill=PALETTE["green"],
                            stroke=INK, stroke_width=0.6)
        if side.paths:
            doc.circle(cx, cy, 4, fill=PATH)
        chars = [c for i, c in enumerate(self.deck.codes) if side.characters >> i & 1]
        for i, code in enumerate(chars):
            self.character_disc(x + CHIP - 9 - 15 * i, y + 9, code, 7.5, 10)
        if moon:
            doc.circle(x + 8, y + CHIP - 8, 4.5, fill=PALETTE["blue"])
            doc.circle(x + 10, y + CHIP - 9.5, 3.8, fill=MOON_FILL)
        else:
            doc.polygon([(x + 8 + dx * 0.6, y + CHIP - 8 + dy * 0.6) for dx, dy in SUN_POINTS],
                        fill=PALETTE["orange"])

    def draw_status(self) -> None:
        doc = self.doc
        data = self.data
        y = self.status_top()
        phase = data.get("phase")
        if phase == "setup":
            self.draw_legend()
            return
        lines = [f"Round {data.get('round')}, start-player card: {data.get('startCard')}"]
        if phase == "over":
            winner = data.get("winner")
            lines.append("Game over: " + (f"{PLAYER_NAMES[winner]} (player {winner}) left the forest"
                                          if winner is not None else "nobody can ever leave (MR-19)"))
        else:
            who = data.get("toMove", 0)
            seats = data.get("seats", "")
            seat = seats[who] if isinstance(seats, str) and who < len(seats) else "?"
            what = {"flip": "flip a card", "choose": "choose a character",
                    "act": ACT_TEXT.get(str(data.get("pending")), str(data.get("pending")))}.get(phase, phase)
            if data.get("reveal"):
                verb = "turned over" if phase == "flip" else "looked under"
                lines.append(f"{PLAYER_NAMES[who]} (player {who}, seat {seat}) {verb} the card on {data['reveal']}")
                lines.append("waiting for the side it showed")
            else:
                lines.append(f"{PLAYER_NAMES[who]} (player {who}, seat {seat}) to {what}")
        for i, line in enumerate(lines):
            doc.text(LEFT - 8, y + 18 * i, line, size=12, anchor="start", weight="bold" if i == 1 else None)
        y += 18 * len(lines)
        if phase == "flip" and not data.get("reveal"):
            x = LEFT + GRID - 40
            with doc.group(target="pass", title="pass: only when no card may be flipped (MR-20)"):
                doc.rect(x - 2, y - 28, 50, 20, fill=PAPER, stroke=PALETTE["grey"], rx=4)
                doc.text(x + 23, y - 18, "pass", size=11)
            self.pass_spot = (x + 23, y - 18)
        if "clovers" in data:
            doc.text(LEFT - 8, y, "lucky clovers:", size=11, anchor="start")
            for p, count in enumerate(data["clovers"]):
                cx = LEFT + 90 + 96 * p
                with doc.group(target=str(p), title=f"{PLAYER_NAMES[p]} holds {count} lucky clover(s)"):
                    doc.circle(cx, y, 8, fill=PLAYER_COLOURS[p], stroke=INK, stroke_width=1)
                    doc.text(cx, y, str(p), size=9, weight="bold", fill=PLAYER_TEXT[p])
                    doc.text(cx + 13, y, f"x {count}", size=11, anchor="start")
                self.clover_spots[p] = (cx, y)
            doc.text(LEFT + 90 + 96 * len(data["clovers"]), y, f"supply {data.get('supply')}", size=11,
                     anchor="start")
            y += 18
        if self.viewer is not None and data.get("reveal"):
            self.draw_offers(y, "it showed (click the side you saw):")
        self.draw_legend()

    def reveal_options(self) -> list[str]:
        """The sides that may have been under the card being revealed (``12M``), in deck order."""
        tokens = [t for row in self.tokens(self.data) for t in row]
        cells = [f"{COLUMNS[c % 5]}{c // 5 + 1}" for c in range(25)]
        target = tokens[cells.index(self.data["reveal"])].partition(":")[0]
        placed = set()
        for token in tokens:
            up, _, under = token.partition(":")
            placed.add(up)
            if under != "?":
                placed.add((under or up[:-1]) + ("S" if up.endswith("M") else "M"))
        face = "S" if target.endswith("M") else "M"
        return [card.ident + face for card in self.deck.cards if card.ident + face not in placed]

    def legend_lines(self) -> list[str]:
        """The key, wrapped to the picture's width."""
        words = ["Sun side up: light card with a sun;", "Moon side up: blue card with a crescent;",
                 "corner: the underside (hatched: not known);", "g: a goblin on the path;",
                 "green arrow: a way out of the forest."]
        words += [f"{c} {n}," for c, n in zip(self.deck.codes, self.deck.names)]
        words[-1] = words[-1].rstrip(",")
        return wrap_words(words, int((self.width - LEFT) / 5.4))

    def draw_legend(self) -> None:
        doc = self.doc
        y = self.height - 14 * len(self.legend) - 2
        for i, line in enumerate(self.legend):
            doc.text(LEFT - 8, y + 14 * i, line, size=9.5, anchor="start", fill="#444444")

    def draw_setup(self) -> None:
        """An undealt table: the cards dealt so far in their cells, and what is still to be laid out."""
        doc = self.doc
        data = self.data
        doc.rect(LEFT - 8, TOP - 8, GRID + 16, GRID + 16, fill="#EFEDE4", stroke=INK, stroke_width=1.5, rx=6)
        dealt = list(data.get("dealt", []))
        cells = [c for c in range(25) if c != 12]
        for index, cell in enumerate([12] + cells):
            col, row = cell % 5, cell // 5
            x, y = _origin(col, row)
            if cell == 12:
                ident = "C"
            elif index - 1 < len(dealt):
                ident = dealt[index - 1]
            else:
                following = index - 1 == len(dealt)
                doc.rect(x, y, CARD, CARD, fill="none", stroke=PALETTE["orange"] if following else PALETTE["grey"],
                         stroke_width=3 if following else 1, dash="4 4", rx=6,
                         title="the next card dealt goes here" if following else None)
                continue
            face = "S" if (row + col) % 2 == 0 else "M"
            self.draw_card(col, row, f"{ident}{face}:?" if self.viewer is not None and ident != "C" else
                           f"{ident}{face}", [], False)
        y = self.status_top()
        if self.offers:
            cell = FOREST_CELLS[len(dealt)]
            self.draw_offers(y, f"the card on {COLUMNS[cell % 5]}{cell // 5 + 1} shows (click it):")
        else:
            placed = data.get("dealtCharacters", "")
            doc.text(LEFT - 8, y, f"deal character (placed so far: {placed or 'none'}):", size=11, anchor="start")
            for i, code in enumerate(c for c in self.deck.codes if c not in placed):
                self.character_disc(LEFT + 240 + 30 * i, y, code, 11, 11, target=True)

    # -- hints ---------------------------------------------------------------------------------------------
    def draw_hint(self) -> None:
        meaning = None
        if isinstance(self.hint, dict):
            meaning = (self.hint.get("rootInfo") or {}).get("valueMeaning")
        for mark in reversed(hint_marks(self.hint)):
            value = format_value(mark["value"], meaning)
            with self.doc.group(cls=f"hint hint-{mark['rank']}", title=f"hint {mark['rank'] + 1}: {mark['move']} "
                                                                         f"({value})"):
                self.mark(mark["move"], value, mark["colour"], mark["opacity"], mark["rank"])

    def mark(self, move: str, value: str, colour: str, opacity: float, rank: int) -> None:
        doc = self.doc
        words = move.split()
        width = 5.0 if rank == 0 else 3.5
        label = f"{rank + 1}: {value}"
        if not words:
            return
        verb = words[0]
        cells = [w for w in words[1:] if len(w) == 2 and w[0] in COLUMNS and w[1] in "12345"]
        if verb in ("flip", "peek", "swap") and cells:
            for cell in cells:
                col, row = _cell(cell)
                x, y = _origin(col, row)
                doc.rect(x - 5, y - 5, CARD + 10, CARD + 10, fill="none", stroke=colour, stroke_width=width,
                         opacity=opacity, rx=9)
            if len(cells) == 2:
                (x1, y1), (x2, y2) = _centre(cells[0]), _centre(cells[1])
                doc.line(x1, y1, x2, y2, stroke=colour, width=3, opacity=opacity, dash="8 5")
            for cell in cells[:1]:
                col, row = _cell(cell)
                x, y = _origin(col, row)
                doc.badge(x + 22, y + CARD - 13, value, fill=colour, opacity=max(opacity, 0.6), size=10)
            return
        if verb == "shift" and len(words) == 4:
            self.mark_shift(words[1], words[2], words[3], label, colour, opacity)
            return
        spots = [self.character_spots[w] for w in words[1:] if w in self.character_spots]
        if verb in ("choose", "swap") and spots:
            for x, y in spots:
                doc.circle(x, y, 20, fill="none", stroke=colour, stroke_width=width, opacity=opacity)
            x, y = spots[0]
            doc.badge(x, y - 30, label, fill=colour, opacity=max(opacity, 0.6))
            return
        if verb == "clover" and words[-1].isdigit() and int(words[-1]) in self.clover_spots:
            x, y = self.clover_spots[int(words[-1])]
            doc.circle(x, y, 14, fill="none", stroke=colour, stroke_width=width, opacity=opacity)
            doc.badge(x, y - 22, label, fill=colour, opacity=max(opacity, 0.6))
            return
        if verb == "pass" and self.pass_spot is not None:
            x, y = self.pass_spot
            doc.badge(x, y - 22, label, fill=colour, opacity=max(opacity, 0.6))

    def mark_shift(self, kind: str, line: str, direction: str, label: str, colour: str, opacity: float) -> None:
        doc = self.doc
        forward = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}.get(direction, (0, 0))
        if kind == "col" and line in COLUMNS:
            x = LEFT + COLUMNS.index(line) * STEP + CARD / 2
            y1, y2 = (TOP + GRID - 10, TOP + 10) if forward[1] < 0 else (TOP + 10, TOP + GRID - 10)
            doc.arrow(x + 22, y1, x + 22, y2, colour=colour, width=6, opacity=opacity)
            doc.badge(x + 40, TOP - 36, label, fill=colour, opacity=max(opacity, 0.6), size=10)
        elif kind == "row" and line in "12345":
            y = TOP + (int(line) - 1) * STEP + CARD / 2
            x1, x2 = (LEFT + GRID - 10, LEFT + 10) if forward[0] < 0 else (LEFT + 10, LEFT + GRID - 10)
            doc.arrow(x1, y - 30, x2, y - 30, colour=colour, width=6, opacity=opacity)
            doc.badge(LEFT - 40, y - 24, label, fill=colour, opacity=max(opacity, 0.6), size=10)


def svg(game: MemorinthGame, position: Any, hint: dict[str, Any] | None = None, **options: Any) -> str:
    """The picture of a state or a view (``show --svg``), with ``hint`` (a hint's JSON) drawn on it."""
    if options:
        raise InvalidInputError("options", sorted(options), "Memorinth pictures take no options")
    return Picture(position.to_json(), hint).draw()


def puzzle_svg(game: MemorinthGame, puzzle: dict[str, Any], solution: bool = False) -> str:
    """A printable puzzle sheet: the position (every card known), the task, the difficulty badge; with
    ``solution``, the moves of each turn listed and the cards flipped numbered by their turns on the board."""
    state = puzzle_state(game, puzzle)
    data = state.to_json()
    moves = (puzzle.get("solution") or []) if solution else []
    picture = Picture(data, None)
    top = picture.status_top()
    picture.height = top + 18 * (3 + len(moves)) + 24 + 14 * len(picture.legend)
    name = "Memorinth puzzle" + (": solution" if solution else "")
    picture.doc = Svg(picture.width, picture.height, title=f"{name} {puzzle.get('id', '')}")
    doc = picture.doc
    picture.draw_board()
    picture.draw_characters()
    if picture.master:
        picture.draw_action_card()
    doc.text(LEFT - 8, 20, name, size=15, anchor="start", weight="bold")
    difficulty_badge(doc, picture.width - 24, 20, str(puzzle.get("difficulty", "")))
    doc.text(picture.width - 24, 40, str(puzzle.get("id", "")), size=10, anchor="end", fill="#444444")
    doc.text(LEFT - 8, top, f"Leave the forest in {puzzle.get('turns')} own turns.", size=13, anchor="start",
             weight="bold")
    doc.text(LEFT - 8, top + 18, "Solitaire, every card known: each turn flip a card, then follow a character.",
             size=12, anchor="start")
    doc.text(LEFT - 8, top + 36, f"Round {data['round']}, start-player card: {data['startCard']} (it turns after "
             "every turn from round 2).", size=12, anchor="start")
    turns_of: dict[str, list[int]] = {}
    for i, turn in enumerate(moves):
        doc.text(LEFT - 8, top + 60 + 18 * i, f"turn {i + 1}: {', '.join(turn)}", size=12, anchor="start",
                 weight="bold")
        for move in turn:
            if move.startswith("flip "):
                turns_of.setdefault(move.split()[1], []).append(i + 1)
    for cell, turns in turns_of.items():
        col, row = _cell(cell)
        x, y = _origin(col, row)
        doc.badge(x + 24, y + CARD - 13, ",".join(map(str, turns)), fill=PALETTE["blue"], size=10)
    picture.draw_legend()
    return doc.render()
