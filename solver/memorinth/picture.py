"""Memorinth pictures: the labyrinth as a player sees it, drawn as SVG from a position's JSON (``docs/pictures.md``).

The 5x5 forest with each card's face-up side (Sun cards light with a sun, Moon cards dark with a crescent, and the
side's name, so colour is never the only cue), its paths, the goblins on them (a ``g`` triangle), the characters on
it (lettered discs), the clearing (ringed, ``C``), the pieces (discs in the player colours with the player's
number), the exits (arrows where a path leaves the forest), the card flipped last (dashed) and, in a corner of each
card, its underside: the side's name where it is known (every underside in a full state; in a player's view those
that player has seen, and the clearing's), a hatched card back where it is not. Around the forest the characters
on each side, in Master Memorinth the action card, and below it the turn, the clovers and a legend. A phone's
picture (``layout="narrow"``, :data:`NARROW`) puts it all in one column 356 wide with no text under 12: smaller cards
without the sun or crescent (the name's S or M tells the side), the characters of each side in rows.

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
from dataclasses import dataclass
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
CHIP = 44.0                # a card offered for entry (dealt, or turned over), drawn small as it shows (phone)
CHIP_STEP = CHIP + 8
#: the laptop's picture (wide) offers its cards larger, OFFER_COLUMNS a row in a panel right of the forest (the
#: picture grows wider, not taller, so a page fitting it to the window's height keeps them large), with its key
#: in OFFER_KEY_TEXT
WIDE_CHIP = 60.0
OFFER_COLUMNS = 4
OFFER_KEY_TEXT = 12.0
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


@dataclass(frozen=True)
class Geometry:
    """Where a layout puts the forest: its cards' size and gap, its top-left corner, and how far left of it the
    row numbers stand."""

    card: float
    gap: float
    left: float
    top: float
    label_gap: float

    @property
    def step(self) -> float:
        return self.card + self.gap

    @property
    def grid(self) -> float:
        return 5 * self.card + 4 * self.gap


WIDE = Geometry(CARD, GAP, LEFT, TOP, 40.0)
#: a phone's picture (``layout="narrow"``): NARROW_WIDTH wide, no text under 12 (``Svg.min_text``), one column: the
#: title, the north characters, the forest, the south, west and east characters, the action card, the status
NARROW_WIDTH = 356.0
NARROW_TEXT = 12.0
NARROW_TOP = 128.0  # below the wrapped title, the north characters and the column letters
NARROW = Geometry(56.0, 2.5, 44.0, NARROW_TOP, 30.0)
LAYOUTS = ("wide", "narrow")


class Picture:
    """One drawing of one position's JSON (``narrow``: a phone's layout)."""

    def __init__(self, data: dict[str, Any], hint: dict[str, Any] | None, title: str | None = None,
                 narrow: bool = False, height: float | None = None) -> None:
        self.narrow = narrow
        geometry = NARROW if narrow else WIDE
        self.card, self.left, self.top, self.label_gap = geometry.card, geometry.left, geometry.top, geometry.label_gap
        self.step, self.grid = geometry.step, geometry.grid
        self.data = data
        self.deck: Deck = load_deck(data.get("deck", "default"), "state.deck")
        self.viewer = data.get("view")
        self.master = data.get("variant") == "master"
        self.hint = hint
        self.offers = self.offered_sides()
        #: the cards offered: their side, step and whether they lie in a panel right of the forest (wide)
        self.panel = bool(self.offers) and not narrow
        self.chip = WIDE_CHIP if self.panel else CHIP
        self.chip_step = self.chip + 8
        #: the forest's part of the picture, and the panel's left edge
        self.forest_width = self.left + self.grid + 100 + (200 if self.master else 0)
        self.width = NARROW_WIDTH if narrow else self.forest_width + (
            OFFER_COLUMNS * self.chip_step + 16 if self.panel else 0)
        #: where the status and the key start on the left; the key's text size and line pitch
        self.text_x = 10.0 if narrow else self.left - 8
        self.key_size, self.key_pitch = (OFFER_KEY_TEXT, 17) if self.panel else (9.5, 16 if narrow else 14)
        self.legend = self.legend_lines()
        below = self.status_top() + 18 * self.status_count() + 30 + self.key_pitch * len(self.legend)
        if self.panel and data.get("phase") == "setup":  # the deal's status is its panel: the key under the forest
            below = self.top + self.grid + 40 + self.key_pitch * len(self.legend)
        self.height = height if height is not None else (
            max(below, self.top + 32 + self.chip_step * self.chip_rows()) if self.panel
            else below + CHIP_STEP * self.chip_rows())
        self.doc = Svg(self.width, self.height, title=title or self._title())
        self.doc.min_text = NARROW_TEXT if narrow else 0.0
        #: where the narrow picture's last line ends (its height)
        self.bottom = 0.0
        self.character_spots: dict[str, tuple[float, float]] = {}
        self.clover_spots: dict[int, tuple[float, float]] = {}
        self.pass_spot: tuple[float, float] | None = None
        #: where the narrow picture's key starts (below the status)
        self.cursor = 0.0

    # -- helpers ------------------------------------------------------------------------------------------
    def origin(self, col: int, row: int) -> tuple[float, float]:
        """The top-left corner of the card in column ``col`` and row ``row``."""
        return self.left + col * self.step, self.top + row * self.step

    def centre(self, name: str) -> tuple[float, float]:
        """The centre of the card on cell ``name``."""
        x, y = self.origin(*_cell(name))
        return x + self.card / 2, y + self.card / 2

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
        if self.narrow:
            for i, line in enumerate(wrap_words(self._title().split(" "), 36)):
                doc.text(self.text_x, 16 + 17 * i, line, size=13, anchor="start", weight="bold")
        else:
            doc.text(self.left, 20, self._title(), size=15, anchor="start", weight="bold")
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
        self.draw_ground()
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
            x, y = self.origin(*_cell(self.data["reveal"]))
            self.doc.rect(x - 4, y - 4, self.card + 8, self.card + 8, fill="none", stroke=PALETTE["orange"],
                          stroke_width=4,
                          dash="9 5", rx=9, title=f"{self.data['reveal']}: its underside is being revealed")
        self.draw_pieces()
        self.draw_line_labels()

    def draw_ground(self) -> None:
        """The forest's ground under the cards."""
        self.doc.rect(self.left - 8, self.top - 8, self.grid + 16, self.grid + 16, fill="#EFEDE4", stroke=INK,
                      stroke_width=1.5, rx=6)

    def draw_card(self, col: int, row: int, token: str, seen_by: list[int], last: bool) -> None:
        doc = self.doc
        x, y = self.origin(col, row)
        name = f"{COLUMNS[col]}{row + 1}"
        up, _, under = token.partition(":")
        side = self.side(up)
        moon = up.endswith("M")
        clearing = up[:-1] == "C"
        described = f"{name}: {up} face up ({'Moon' if moon else 'Sun'} side), paths " \
                    f"{''.join(d for i, d in enumerate(DIRECTIONS) if side.paths >> i & 1) or 'none'}"
        narrow = self.narrow
        with doc.group(target=name, title=described):
            doc.rect(x, y, self.card, self.card, fill=MOON_FILL if moon else SUN_FILL, stroke=INK, stroke_width=1.0,
                     rx=6)
            cx, cy = x + self.card / 2, y + self.card / 2
            for d, (dx, dy) in enumerate(OFFSETS):
                if side.paths >> d & 1:
                    doc.line(cx, cy, cx + dx * self.card / 2, cy + dy * self.card / 2, stroke=PATH,
                             width=6 if narrow else 11, cap="butt")
            if side.paths:
                doc.circle(cx, cy, 5 if narrow else 7.5, fill=PATH)
            for d, (dx, dy) in enumerate(OFFSETS):
                if side.goblins >> d & 1:
                    self.goblin(cx + dx * self.card * 0.17, cy + dy * self.card * 0.17)
            if clearing:
                doc.circle(cx, cy, 12 if narrow else 17, fill="none", stroke=PALETTE["green"], stroke_width=3)
                doc.text(cx, cy, "C", size=12, weight="bold", fill=PAPER)
            chars = [c for i, c in enumerate(self.deck.codes) if side.characters >> i & 1]
            if narrow:  # a corner each: the name (its S or M tells the side), the characters, the underside
                doc.text(x + 2, y + 9, up, size=NARROW_TEXT, anchor="start")
                for i, code in enumerate(chars):
                    self.character_disc(*((x + self.card - 10, y + 10) if i == 0 else (x + 10, y + self.card - 10)),
                                        code, 8.5, NARROW_TEXT)
                self.underside(x + self.card - 27, y + self.card - 16, up, under, seen_by)
            else:
                self.face_symbol(x + 11, y + 11, moon)
                doc.text(x + 21, y + 11, up, size=11, anchor="start", weight="bold")
                for i, code in enumerate(chars):
                    self.character_disc(x + self.card - 11 - 19 * i, y + 12, code, 8.5, 10)
                self.underside(x + self.card - 32, y + self.card - 22, up, under, seen_by)
        if last:
            doc.rect(x - 3, y - 3, self.card + 6, self.card + 6, fill="none", stroke=PALETTE["purple"],
                     stroke_width=2.5,
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
        """A goblin: a green triangle, lettered ``g`` where the card is big enough (its shape is the cue)."""
        doc = self.doc
        size = 0.65 if self.narrow else 1.0
        doc.polygon([(x, y - 9 * size), (x + 8.5 * size, y + 6 * size), (x - 8.5 * size, y + 6 * size)],
                    fill=PALETTE["green"], stroke=INK, stroke_width=0.8,
                    title="goblin: passing it costs a lucky clover (MR-14, MR-28)")
        if not self.narrow:
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
        w, h = (26.0, 15.0) if self.narrow else (28.0, 17.0)
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
                x, y = self.origin(col, row)
                for d, (dx, dy) in enumerate(OFFSETS):
                    edge = (row == 0, col == 4, row == 4, col == 0)[d]
                    if edge and side.paths >> d & 1:
                        cx = x + self.card / 2 + dx * (self.card / 2 + 6)
                        cy = y + self.card / 2 + dy * (self.card / 2 + 6)
                        doc.arrow(cx, cy, cx + dx * 14, cy + dy * 14, colour=PALETTE["green"], width=4)

    def draw_pieces(self) -> None:
        doc = self.doc
        by_cell: dict[str, list[int]] = {}
        for p, cell in enumerate(self.data.get("pieces", [])):
            by_cell.setdefault(cell, []).append(p)
        for cell, players in by_cell.items():
            if cell == "out":
                continue
            cx, cy = self.centre(cell)
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
            x, _ = self.origin(i, 0)
            with doc.group(target=COLUMNS[i], title=f"column {COLUMNS[i]}"):
                doc.rect(x + self.card / 2 - 10, self.top - 44, 20, 16, fill=PAPER, stroke=PALETTE["grey"], rx=3)
                doc.text(x + self.card / 2, self.top - 36, COLUMNS[i], size=11)
            _, y = self.origin(0, i)
            with doc.group(target=str(i + 1), title=f"row {i + 1}"):
                doc.rect(self.left - self.label_gap - 10, y + self.card / 2 - 8, 20, 16, fill=PAPER,
                         stroke=PALETTE["grey"], rx=3)
                doc.text(self.left - self.label_gap, y + self.card / 2, str(i + 1), size=11)

    def draw_characters(self) -> None:
        """The characters on each side of the forest (targets of 'choose R' and 'swap R H')."""
        chars = self.data.get("characters") or {}
        mid = self.grid / 2
        if self.narrow:  # north above, then south, west and east in rows below the forest
            below = self.top + self.grid + 30
            spots = {"N": (self.left + mid, self.top - 65), "S": (self.left + mid, below),
                     "W": (self.left + mid, below + 36), "E": (self.left + mid, below + 72)}
            for d, word in (("W", "west:"), ("E", "east:")):
                if chars.get(d):
                    self.doc.text(self.text_x, spots[d][1], word, size=NARROW_TEXT, anchor="start")
        else:
            spots = {"N": (self.left + mid, self.top - 82), "S": (self.left + mid, self.top + self.grid + 42),
                     "W": (self.left - 86, self.top + mid), "E": (self.left + self.grid + 52, self.top + mid)}
        for d in DIRECTIONS:
            codes = chars.get(d, "")
            x, y = spots[d]
            for i, code in enumerate(codes):
                offset = (i - (len(codes) - 1) / 2) * 34
                cx, cy = (x + offset, y) if d in "NS" or self.narrow else (x, y + offset)
                self.character_disc(cx, cy, code, 14, 14, target=True)
                self.character_spots[code] = (cx, cy)

    def draw_action_card(self) -> None:
        doc = self.doc
        chars = self.data.get("characters", {}).get("action", "")
        side_mode = self.data.get("actionSide", "shift")
        side = {"shift": "shift", "special": "special"}.get(side_mode) or (
            "shift" if self.data.get("startCard") == "sun" else "special")
        names = self.deck.to_json()["actionCard"][side]
        if self.narrow:
            x0, y0 = self.width / 2 - 70, self.top + self.grid + 30 + 72 + 66
        else:
            x0, y0 = self.left + self.grid + 120, self.top + self.grid / 2 - 70
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
        if self.narrow:  # below the rows of characters, and the action card
            return self.top + self.grid + 30 + 72 + 36 + (230 if self.master and self.data.get("phase") != "setup"
                                                          else 0)
        return self.top + self.grid + 84

    def status_count(self) -> int:
        """Lines under the board: the turn (two or three), clovers and the sides a reveal may show."""
        data = self.data
        if data.get("phase") == "setup":
            return 2
        return 2 + bool(data.get("reveal")) + ("clovers" in data) + bool(self.viewer is not None
                                                                          and data.get("reveal"))

    # -- the cards offered for entry, by what they show ---------------------------------------------------------
    def chips_per_row(self) -> int:
        return OFFER_COLUMNS if self.panel else int((self.width - self.left) // CHIP_STEP)

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
        x0 = self.text_x
        if self.panel:  # beside the forest, from its top
            x0, y = self.forest_width, self.top
        doc.text(x0, y, label, size=OFFER_KEY_TEXT if self.panel else 11, anchor="start",
                 weight="bold" if self.panel else None)
        per_row = self.chips_per_row()
        for i, (face, side, target) in enumerate(self.offers):
            x = x0 + self.chip_step * (i % per_row)
            top = y + 12 + self.chip_step * (i // per_row)
            look = looks.spell(self.deck, side, face)
            with doc.group(target=target, title=f"it shows {look}", cls="offer"):
                self.small_card(x, top, side, face == 1)

    def small_card(self, x: float, y: float, side: Side, moon: bool) -> None:
        """A side as it shows, drawn small (``self.chip`` wide): paths, goblins, characters, Sun or Moon."""
        doc, chip = self.doc, self.chip
        k = chip / CHIP  # everything drawn in proportion to the phone's chip
        doc.rect(x, y, chip, chip, fill=MOON_FILL if moon else SUN_FILL, stroke=INK, stroke_width=1.0, rx=4)
        cx, cy = x + chip / 2, y + chip / 2
        for d, (dx, dy) in enumerate(OFFSETS):
            if side.paths >> d & 1:
                doc.line(cx, cy, cx + dx * chip / 2, cy + dy * chip / 2, stroke=PATH, width=6 * k, cap="butt")
            if side.goblins >> d & 1:
                gx, gy = cx + dx * chip * 0.3, cy + dy * chip * 0.3
                doc.polygon([(gx, gy - 5 * k), (gx + 4.5 * k, gy + 3.5 * k), (gx - 4.5 * k, gy + 3.5 * k)],
                            fill=PALETTE["green"], stroke=INK, stroke_width=0.6)
        if side.paths:
            doc.circle(cx, cy, 4 * k, fill=PATH)
        chars = [c for i, c in enumerate(self.deck.codes) if side.characters >> i & 1]
        for i, code in enumerate(chars):
            self.character_disc(x + chip - 9 * k - 15 * k * i, y + 9 * k, code, 7.5 * k, 10 * k)
        if moon:
            doc.circle(x + 8 * k, y + chip - 8 * k, 4.5 * k, fill=PALETTE["blue"])
            doc.circle(x + 10 * k, y + chip - 9.5 * k, 3.8 * k, fill=MOON_FILL)
        else:
            doc.polygon([(x + 8 * k + dx * 0.6 * k, y + chip - 8 * k + dy * 0.6 * k) for dx, dy in SUN_POINTS],
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
        if self.narrow:
            lines = [(row, i == 1) for i, line in enumerate(lines) for row in wrap_words(line.split(" "), 44)]
        else:
            lines = [(line, i == 1) for i, line in enumerate(lines)]
        for i, (line, bold) in enumerate(lines):
            doc.text(self.text_x, y + 18 * i, line, size=12, anchor="start", weight="bold" if bold else None)
        y += 18 * len(lines)
        if phase == "flip" and not data.get("reveal"):
            x = self.text_x + 2 if self.narrow else self.left + self.grid - 40
            tall = 40 if self.narrow else 20  # a phone's button is drawn a finger's size
            if self.narrow:  # a row of its own, below the lines
                y += tall
            with doc.group(target="pass", title="pass: only when no card may be flipped (MR-20)"):
                doc.rect(x - 2, y - 8 - tall, 50, tall, fill=PAPER, stroke=PALETTE["grey"], rx=4)
                doc.text(x + 23, y - 8 - tall / 2, "pass", size=11)
            self.pass_spot = (x + 23, y - 8 - tall / 2)
        if "clovers" in data:
            y = self.draw_clovers(y)
        if self.viewer is not None and data.get("reveal"):
            self.draw_offers(y, "it showed (click the side you saw):")
            if not self.panel:
                y += 12 + CHIP_STEP * self.chip_rows()
        self.cursor = y
        self.draw_legend()

    def draw_clovers(self, y: float) -> float:
        """Each player's lucky clovers (targets of ``clover from 1``) and the supply; returns where they end."""
        doc, data = self.doc, self.data
        doc.text(self.text_x, y, "lucky clovers:", size=11, anchor="start")
        first, pitch = (self.left + 90, 96) if not self.narrow else (self.text_x + 12, 64)
        if self.narrow:  # the players on the line below
            y += 22
        for p, count in enumerate(data["clovers"]):
            cx = first + pitch * p
            with doc.group(target=str(p), title=f"{PLAYER_NAMES[p]} holds {count} lucky clover(s)"):
                doc.circle(cx, y, 10 if self.narrow else 8, fill=PLAYER_COLOURS[p], stroke=INK, stroke_width=1)
                doc.text(cx, y, str(p), size=9, weight="bold", fill=PLAYER_TEXT[p])
                doc.text(cx + 13, y, f"x {count}", size=11, anchor="start")
            self.clover_spots[p] = (cx, y)
        doc.text(first + pitch * len(data["clovers"]), y, f"supply {data.get('supply')}", size=11, anchor="start")
        return y + 18

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
        if self.narrow:  # no sun or crescent: the name's last letter tells the side
            words = ["Sun side up: light card, name ending S;", "Moon side up: blue card, name ending M;",
                     "lower right: the underside (hatched: not known);", "green triangle: a goblin on the path;",
                     "green arrow: a way out of the forest."]
        else:
            words = ["Sun side up: light card with a sun;", "Moon side up: blue card with a crescent;",
                     "corner: the underside (hatched: not known);", "g: a goblin on the path;",
                     "green arrow: a way out of the forest."]
        words += [f"{c} {n}," for c, n in zip(self.deck.codes, self.deck.names)]
        words[-1] = words[-1].rstrip(",")
        if self.narrow:
            return wrap_words(words, 48)
        return wrap_words(words, int((self.forest_width - self.left) / (5.4 * self.key_size / 9.5)))

    def draw_legend(self) -> None:
        doc = self.doc
        pitch = self.key_pitch
        y = self.cursor + 14 if self.narrow else self.height - pitch * len(self.legend) - 2
        for i, line in enumerate(self.legend):
            doc.text(self.text_x, y + pitch * i, line, size=self.key_size, anchor="start", fill="#444444")
        self.bottom = y + pitch * len(self.legend)

    def draw_setup(self) -> None:
        """An undealt table: the cards dealt so far in their cells, and what is still to be laid out."""
        doc = self.doc
        data = self.data
        self.draw_ground()
        dealt = list(data.get("dealt", []))
        cells = [c for c in range(25) if c != 12]
        for index, cell in enumerate([12] + cells):
            col, row = cell % 5, cell // 5
            x, y = self.origin(col, row)
            if cell == 12:
                ident = "C"
            elif index - 1 < len(dealt):
                ident = dealt[index - 1]
            else:
                following = index - 1 == len(dealt)
                doc.rect(x, y, self.card, self.card, fill="none",
                         stroke=PALETTE["orange"] if following else PALETTE["grey"],
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
            self.cursor = y + 12 + self.chip_step * self.chip_rows()
        else:
            placed = data.get("dealtCharacters", "")
            doc.text(self.text_x, y, f"deal character (placed so far: {placed or 'none'}):", size=11,
                     anchor="start")
            first, line = (self.text_x + 14, y + 26) if self.narrow else (self.left + 240, y)
            for i, code in enumerate(c for c in self.deck.codes if c not in placed):
                self.character_disc(first + 30 * i, line, code, 11, 11, target=True)
            self.cursor = line + 18

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

    def badge(self, x: float, y: float, label: str, fill: str, opacity: float, size: float = 11) -> None:
        """A hint's badge, its text no smaller than the picture's."""
        self.doc.badge(x, y, label, fill=fill, opacity=opacity, size=max(size, self.doc.min_text))

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
                x, y = self.origin(col, row)
                doc.rect(x - 5, y - 5, self.card + 10, self.card + 10, fill="none", stroke=colour, stroke_width=width,
                         opacity=opacity, rx=9)
            if len(cells) == 2:
                (x1, y1), (x2, y2) = self.centre(cells[0]), self.centre(cells[1])
                doc.line(x1, y1, x2, y2, stroke=colour, width=3, opacity=opacity, dash="8 5")
            for cell in cells[:1]:
                col, row = _cell(cell)
                x, y = self.origin(col, row)
                self.badge(x + 22, y + self.card - 13, value, fill=colour, opacity=max(opacity, 0.6), size=10)
            return
        if verb == "shift" and len(words) == 4:
            self.mark_shift(words[1], words[2], words[3], label, colour, opacity)
            return
        spots = [self.character_spots[w] for w in words[1:] if w in self.character_spots]
        if verb in ("choose", "swap") and spots:
            for x, y in spots:
                doc.circle(x, y, 20, fill="none", stroke=colour, stroke_width=width, opacity=opacity)
            x, y = spots[0]
            self.badge(x, y - 30, label, fill=colour, opacity=max(opacity, 0.6))
            return
        if verb == "clover" and words[-1].isdigit() and int(words[-1]) in self.clover_spots:
            x, y = self.clover_spots[int(words[-1])]
            doc.circle(x, y, 14, fill="none", stroke=colour, stroke_width=width, opacity=opacity)
            self.badge(x, y - 22, label, fill=colour, opacity=max(opacity, 0.6))
            return
        if verb == "pass" and self.pass_spot is not None:
            x, y = self.pass_spot
            self.badge(x, y - 22, label, fill=colour, opacity=max(opacity, 0.6))

    def mark_shift(self, kind: str, line: str, direction: str, label: str, colour: str, opacity: float) -> None:
        doc = self.doc
        forward = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}.get(direction, (0, 0))
        if kind == "col" and line in COLUMNS:
            x = self.left + COLUMNS.index(line) * self.step + self.card / 2
            near, far = self.top + 10, self.top + self.grid - 10
            y1, y2 = (far, near) if forward[1] < 0 else (near, far)
            doc.arrow(x + 22, y1, x + 22, y2, colour=colour, width=6, opacity=opacity)
            self.badge(x + 40, self.top - 36, label, fill=colour, opacity=max(opacity, 0.6), size=10)
        elif kind == "row" and line in "12345":
            y = self.top + (int(line) - 1) * self.step + self.card / 2
            near, far = self.left + 10, self.left + self.grid - 10
            x1, x2 = (far, near) if forward[0] < 0 else (near, far)
            doc.arrow(x1, y - 30, x2, y - 30, colour=colour, width=6, opacity=opacity)
            x = self.left + 30 if self.narrow else self.left - 40  # narrow: no room left of the forest
            self.badge(x, y - 24, label, fill=colour, opacity=max(opacity, 0.6), size=10)


def svg(game: MemorinthGame, position: Any, hint: dict[str, Any] | None = None, **options: Any) -> str:
    """The picture of a state or a view (``show --svg``), with ``hint`` (a hint's JSON) drawn on it."""
    layout = options.pop("layout", "wide")
    if options or layout not in LAYOUTS:
        raise InvalidInputError("options", sorted(options) or layout, "Memorinth pictures take only a layout")
    if layout == "wide":
        return Picture(position.to_json(), hint).draw()
    data = position.to_json()
    measured = Picture(data, hint, narrow=True)  # the narrow picture is as tall as what it draws
    measured.draw()
    return Picture(data, hint, narrow=True, height=measured.bottom + 10).draw()


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
