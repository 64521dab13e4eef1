"""The Forgotten picture (issue 12): the board with its Brain Tiles, face-down, seen, face-up and erased tiles, the
best route so far, and a hint's moves; and the printable puzzle sheets.

Everything is drawn from the position's JSON (``docs/formats/forgotten.md``) and, for the route, from the
``score`` report of that JSON, so equal views give byte-identical pictures. Kinds of tile are told apart by
shape and text as well as colour: a Brain is a purple tile marked "BRAIN"; a tile nobody has seen is a hatched
back; a face-down tile the players have seen is a hatched back with its pair letter in a white disc; a face-up
(matched) tile is a coloured face with its large letter; an erased cell is an empty dashed square with a cross
(and the letter it held, when it had been seen). Each cell carries ``data-target="x,y"`` (the cell of
``flip x,y`` and ``erase x,y``); while a view waits for a flipped tile, letter buttons carry the letter
(``shows L``); a "give up" button carries ``give up``. A phone's picture (``layout="narrow"``, :func:`draw_narrow`)
is 356 wide with no text under 12.
"""

from __future__ import annotations

from typing import Any

from solver.drawing import INK, PALETTE, PAPER, Measure, Svg, _wrap, difficulty_badge, format_value, hint_marks
from solver.errors import InvalidInputError
from solver.forgotten.summary import score
from solver.forgotten.text import answer_line
from solver.forgotten.tiles import letter as pair_letter, tokens

CELL = 64
GAP = 6
LEFT, TOP = 44, 84
LEGEND = 112
#: pair colours (Okabe-Ito, then the same again: the letter is always written on the tile)
PAIR_COLOURS = ("orange", "sky", "green", "yellow", "blue", "vermillion", "purple", "grey")
BRAIN_FILL = "#7A4A8C"
ROUTE_COLOUR = PALETTE["blue"]
ERASED = "#B8B8B8"
#: a phone's picture (``layout="narrow"``): NARROW_WIDTH wide with no text under NARROW_TEXT (``Svg.min_text``):
#: the caption, status and hint wrapped, the board's cells as big as the width allows (never under MIN_CELL), the
#: letter buttons bigger and wrapped, the legend wrapped
NARROW_WIDTH = 356
NARROW_TEXT = 12.0
NARROW_LEFT = 30
MIN_CELL = 36
LAYOUTS = ("wide", "narrow")


def cell_name(x: int, y: int) -> str:
    return f"{x + 1},{y + 1}"


def _pair_index(letter: str) -> int:
    """The pair number of a letter (``A`` 0, ``Z`` 25, ``A2`` 26)."""
    return ord(letter[0].upper()) - ord("A") + (26 if letter[1:] == "2" else 0)


def pair_colour(letter: str) -> str:
    return PALETTE[PAIR_COLOURS[_pair_index(letter) % len(PAIR_COLOURS)]]


def text_colour(letter: str) -> str:
    """Dark text on the light pair colours, white on the dark ones."""
    return PAPER if PAIR_COLOURS[_pair_index(letter) % len(PAIR_COLOURS)] in ("blue", "vermillion", "purple") else INK


class Board:
    """The geometry of one picture (``narrow``: a phone's, its cells as big as NARROW_WIDTH allows)."""

    def __init__(self, rows: list[str], narrow: bool = False) -> None:
        self.cells = [tokens(row) for row in rows]
        self.height = len(self.cells)
        self.width = len(self.cells[0]) if self.cells else 0
        self.narrow = narrow
        self.cell, self.left, self.top = CELL, LEFT, TOP
        if narrow:
            self.left = NARROW_LEFT
            self.cell = int(max(MIN_CELL, min(CELL, (NARROW_WIDTH - NARROW_LEFT - 24) // max(1, self.width))))

    def origin(self, x: int, y: int) -> tuple[float, float]:
        return self.left + x * self.cell, self.top + y * self.cell

    def centre(self, name: str) -> tuple[float, float]:
        x, y = (int(v) - 1 for v in name.split(","))
        ox, oy = self.origin(x, y)
        return ox + self.cell / 2, oy + self.cell / 2

    def scaled(self, length: float) -> float:
        """A length drawn in a wide picture's cell, in this picture's."""
        return length * self.cell / CELL

    @property
    def size(self) -> tuple[float, float]:
        return self.left + self.width * self.cell + 24, self.top + self.height * self.cell


def draw_position(game: Any, data: dict[str, Any], hint: dict[str, Any] | None = None,
                  answer_cells: list[str] | None = None, title: str | None = None,
                  footer: list[str] | None = None) -> Svg:
    """The board of ``data`` (a state's or a view's JSON) with its route and ``hint`` drawn on it, and ``footer``
    lines of text under the legend."""
    board = Board(data["board"])
    width, height = board.size
    footer = footer or []
    doc = Svg(max(width, 430), height + 10 + LEGEND + (40 if data.get("flipped") else 0) + 18 * len(footer),
              title=title or _caption(data))
    doc.text(16, 18, title or _caption(data), size=14, anchor="start", weight="bold")
    doc.text(16, 38, _status(data, game.goal), size=12, anchor="start")
    summary = _hint_summary(hint)
    if summary:
        doc.text(16, 55, summary, size=12, anchor="start", fill=PALETTE["blue"])
    _draw_board(doc, board, game, data)
    flipped = data.get("flipped")
    for cell in answer_cells or []:
        ox, oy = board.origin(*(int(v) - 1 for v in cell.split(",")))
        doc.rect(ox + 1, oy + 1, board.cell - 2, board.cell - 2, stroke=PALETTE["green"], stroke_width=5.0, rx=6)
        doc.badge(ox + board.cell / 2, oy + board.cell - 6, "answer", fill=PALETTE["green"], size=9)
    _draw_hint(doc, board, hint)
    y = height + 18
    if flipped:
        y = _letter_buttons(doc, data, y)
    _legend(doc, y, data)
    y += LEGEND - 8
    for line in footer:
        doc.text(16, y, line, size=12, anchor="start", weight="bold" if line.startswith("Answer:") else None)
        y += 18
    return doc


def _draw_board(doc: Svg, board: Board, game: Any, data: dict[str, Any]) -> None:
    """The axes, the cells and the best route so far, the tiles' letters over the route."""
    _axes(doc, board)
    route = _route(game, data)
    first, flipped = data.get("first"), data.get("flipped")
    faces = []
    for y, row in enumerate(board.cells):
        for x, token in enumerate(row):
            faces += _cell(doc, board, x, y, token, first=cell_name(x, y) == first,
                           flipped=cell_name(x, y) == flipped, full="view" not in data)
    _draw_route(doc, board, route)
    for draw in faces:                    # letters over the route line, so it never hides one
        draw()


def draw_narrow(game: Any, data: dict[str, Any], hint: dict[str, Any] | None = None) -> Svg:
    """A phone's picture of ``data``: the caption, the status and the hint wrapped, the board, the letter buttons
    and the legend, in one column NARROW_WIDTH wide (a first pass measures its height)."""
    height = 10.0
    for kind in (Measure, Svg):
        board = Board(data["board"], narrow=True)
        doc = kind(max(NARROW_WIDTH, board.size[0]), height, title=_caption(data))
        doc.min_text = NARROW_TEXT
        y = 18.0
        lines = [(line, 14, INK, "bold") for line in _wrap(_caption(data), 40)]
        lines += [(line, 12, INK, None) for line in _wrap(_status(data, game.goal), 46)]
        lines += [(line, 12, PALETTE["blue"], None) for line in _wrap(_hint_summary(hint), 46) if line]
        for line, size, colour, weight in lines:
            doc.text(16, y, line, size=size, anchor="start", fill=colour, weight=weight)
            y += size + 6
        board.top = y + 24  # the x axis above the board
        if not doc.measuring:   # the board and the hint change no height: the first pass leaves them out
            _draw_board(doc, board, game, data)
            _draw_hint(doc, board, hint)
        y = board.size[1] + 26  # below the y axis' name
        if data.get("flipped"):
            y = _letter_buttons(doc, data, y, per_line=8, size=36.0)
        height = _legend(doc, y, data, right=doc.width - 12) + 10
    return doc


def _caption(data: dict[str, Any]) -> str:
    who = f"player {data['view']}'s view" if "view" in data else "full state (every tile shown)"
    return f"Forgotten: {who}"


def _hint_summary(hint: dict[str, Any] | None) -> str:
    if not hint:
        return ""
    root = hint.get("rootInfo") or {}
    infos = hint.get("moveInfos") or []
    meaning = root.get("valueMeaning")
    if infos:
        return f"hint: {infos[0]['move']} (win {format_value(infos[0].get('value'), meaning)})"
    if isinstance(root.get("winProbability"), (int, float)):
        return f"win probability {format_value(root['winProbability'], 'probability')}"
    return ""


def _status(data: dict[str, Any], goal: str = "path") -> str:
    phase, turn = data["phase"], data["turn"]
    if data.get("flipped"):
        now = f"flipped {data['flipped']}: which tile does it show?"
    elif phase == "first":
        now = f"player {turn % 2} to flip a first tile"
    elif phase == "second":
        now = f"player {turn % 2} to flip a second tile (first: {data.get('first')})"
    elif phase == "erase":
        now = "Erasure roll: blue die x, orange die y"
    else:
        ends = {"won": "every pair matched: won", "lost": "a tile lost its partner: lost"} if goal == "clear" else \
            {"won": "the Brains are linked: won", "lost": "no route left: lost"}
        now = {**ends, "gave-up": "gave up"}[phase]
    return f"turn {turn} done; {now}" if turn else now[0].upper() + now[1:]


def _axes(doc: Svg, board: Board) -> None:
    for x in range(board.width):
        ox, _ = board.origin(x, 0)
        doc.text(ox + board.cell / 2, board.top - 12, x + 1, size=12, fill=PALETTE["blue"], weight="bold")
    for y in range(board.height):
        _, oy = board.origin(0, y)
        doc.text(board.left - 16, oy + board.cell / 2, y + 1, size=12, fill=PALETTE["vermillion"], weight="bold")
    doc.text(board.left + board.width * board.cell, board.top - 12, "x", size=11, anchor="start",
             fill=PALETTE["blue"], italic=True)
    doc.text(board.left - 16, board.top + board.height * board.cell + 10, "y", size=11, fill=PALETTE["vermillion"],
             italic=True)


def _cell(doc: Svg, board: Board, x: int, y: int, token: str, first: bool, flipped: bool,
          full: bool) -> list:
    """Draw one cell; returns the drawings of its letters, made after the route so it never covers them."""
    ox, oy = board.origin(x, y)
    name = cell_name(x, y)
    inner = (ox + GAP / 2, oy + GAP / 2, board.cell - GAP, board.cell - GAP)
    doc.rect(ox, oy, board.cell, board.cell, fill="#F4F1EA", stroke="#D9D4C7", stroke_width=1.0)
    if token == "@":
        with doc.group(target=name, title=f"{name}: Brain Tile"):
            doc.rect(*inner, fill=BRAIN_FILL, stroke=INK, stroke_width=1.0, rx=8)
            lobe = board.scaled(8)
            for dx in (-lobe - 1, 0, lobe + 1):
                doc.circle(ox + board.cell / 2 + dx, oy + board.cell / 2 - lobe, lobe, fill="#B48AC4", stroke=PAPER,
                           stroke_width=1.2)
            # a phone's smaller cell has room for the legend's "B" only
            doc.text(ox + board.cell / 2, oy + board.cell / 2 + board.scaled(13), "B" if board.narrow else "BRAIN",
                     size=10, fill=PAPER, weight="bold")
        return []
    if token == ".":
        with doc.group(target=name, title=f"{name}: no tile"):
            doc.circle(ox + board.cell / 2, oy + board.cell / 2, 2.5, fill="#C9C2B2")
        return []
    if token.startswith("-"):
        letter = token[1:]
        seen = letter.isupper()
        what = f"erased tile {letter}" if seen else "erased tile nobody saw"
        with doc.group(target=name, title=f"{name}: {what}"):
            doc.rect(*inner, fill="none", stroke=ERASED, stroke_width=1.5, rx=8, dash="5 4")
            pad = board.scaled(16)
            doc.line(ox + pad, oy + pad, ox + board.cell - pad, oy + board.cell - pad, stroke=ERASED, width=2.5)
            doc.line(ox + board.cell - pad, oy + pad, ox + pad, oy + board.cell - pad, stroke=ERASED, width=2.5)
            if seen:
                doc.text(ox + board.cell - board.scaled(12), oy + board.scaled(13), letter, size=12, fill="#8A8A8A",
                         weight="bold")
        return []
    if token.startswith("+"):
        letter = token[1:]
        with doc.group(target=name, title=f"{name}: face-up tile {letter} (matched)"):
            doc.rect(*inner, fill=pair_colour(letter), stroke=INK, stroke_width=1.5, rx=8)
        return [lambda: doc.text(ox + board.cell / 2, oy + board.cell / 2 + 1, letter, size=board.scaled(28),
                                 fill=text_colour(letter), weight="bold")]
    if first:                                   # the first tile of this turn lies face up until the turn ends
        with doc.group(target=name, title=f"{name}: tile {token} flipped this turn"):
            doc.rect(*inner, fill=pair_colour(token), stroke=INK, stroke_width=1.5, rx=8, opacity=0.85)
            doc.rect(ox + 2, oy + 2, board.cell - 4, board.cell - 4, stroke=INK, stroke_width=2.5, rx=9, dash="6 3")
        return [lambda: (doc.text(ox + board.cell / 2, oy + board.cell / 2 - 2, token, size=board.scaled(26),
                                  fill=text_colour(token), weight="bold"),
                         # a phone's smaller cell: the dashed frame and the title say it
                         None if board.narrow else doc.text(ox + board.cell / 2, oy + board.cell - 11, "this turn",
                                                            size=8, fill=text_colour(token)))]
    seen = token.isupper()
    if seen:
        title = f"{name}: face-down tile {token} (seen)"
    elif full and token != "?":
        title = f"{name}: face-down tile nobody has seen (pair {token.upper()})"
    else:
        title = f"{name}: face-down tile nobody has seen"
    doc.card_back(*inner, target=name, title=title)
    if full and not seen and token != "?":
        doc.text(ox + board.cell - board.scaled(12), oy + board.cell - board.scaled(12), token, size=11, fill=PAPER,
                 italic=True)
    if flipped:
        doc.rect(ox + 2, oy + 2, board.cell - 4, board.cell - 4, stroke=PALETTE["orange"], stroke_width=4.0, rx=9,
                 dash="6 3")
        doc.badge(ox + board.cell / 2, oy + board.cell / 2, "?", fill=PALETTE["orange"], colour=INK, size=14)
    if not seen:
        return []

    def disc() -> None:
        doc.circle(ox + board.cell / 2, oy + board.cell / 2, board.scaled(15), fill=PAPER, stroke=pair_colour(token),
                   stroke_width=4.0)
        doc.text(ox + board.cell / 2, oy + board.cell / 2 + 1, token, size=board.scaled(17), weight="bold")
    return [disc]


def _route(game: Any, data: dict[str, Any]) -> list[str]:
    """One cheapest route of the position (``score``'s ``route.path``): the best route so far."""
    if data["phase"] in ("lost", "gave-up"):
        return []
    try:
        route = score(game, data)["route"]
        return list(route["path"]) if route else []        # no route under goal=clear (FG-14)
    except Exception:  # noqa: BLE001 - a picture never fails on its route
        return []


def _draw_route(doc: Svg, board: Board, route: list[str]) -> None:
    if not route:
        return
    points = [board.centre(name) for name in route]
    brains = [(x, y) for y, row in enumerate(board.cells) for x, t in enumerate(row) if t == "@"]
    ends = [board.centre(cell_name(*b)) for b in brains]
    if len(ends) == 2:
        start, end = sorted(ends, key=lambda e: (e[0] - points[0][0]) ** 2 + (e[1] - points[0][1]) ** 2)
        points = [start] + points + [end]
    doc.polyline(points, stroke=ROUTE_COLOUR, width=9.0, opacity=0.35)
    for name in route:
        cx, cy = board.centre(name)
        doc.circle(cx, cy, 4, fill=ROUTE_COLOUR, opacity=0.8)


def _draw_hint(doc: Svg, board: Board, hint: dict[str, Any] | None) -> None:
    meaning = ((hint or {}).get("rootInfo") or {}).get("valueMeaning")
    for mark in reversed(hint_marks(hint)):
        words = str(mark["move"]).split()
        if len(words) != 2 or words[0] not in ("flip", "erase"):
            continue
        x, y = (int(v) - 1 for v in words[1].split(","))
        ox, oy = board.origin(x, y)
        width = 5.0 if mark["rank"] == 0 else 3.5
        label = f"{mark['rank'] + 1}: {format_value(mark['value'], meaning)}"
        doc.rect(ox + 1, oy + 1, board.cell - 2, board.cell - 2, stroke=mark["colour"], stroke_width=width, rx=8,
                 opacity=mark["opacity"], cls=f"hint hint-{mark['rank'] + 1}",
                 title=f"hint {mark['rank'] + 1}: {mark['move']} ({format_value(mark['value'], meaning)})")
        doc.badge(ox + board.cell / 2, oy + 9, label, fill=mark["colour"],
                  size=max(10 if mark["rank"] == 0 else 9, doc.min_text), opacity=mark["opacity"])


def _letter_buttons(doc: Svg, data: dict[str, Any], y: float, per_line: int | None = None,
                    size: float | None = None) -> float:
    """While a flipped tile waits to be entered: one button per pair letter (a click enters ``shows L``); with
    ``per_line``, square buttons of ``size`` in lines under the label (a phone's)."""
    cells = tokens("".join(data["board"]))
    pairs = sum(1 for t in cells if t not in ("@", ".")) // 2
    seen = [t.lstrip("+-") for t in cells if t.lstrip("+-")[:1].isupper()]
    doc.text(16, y + 11, f"{data['flipped']} shows:", size=12, anchor="start", weight="bold")
    w, h, pitch, first, top = 18.0, 22.0, 21.0, 96.0, y
    if per_line and size:
        w, h, pitch, first, top = size, size, size + 4, 16.0, y + 26
    for i in range(pairs):
        letter = pair_letter(i)  # A to Z, then A2, B2, ... (31 pairs on 8x8)
        x = first + pitch * (i % per_line if per_line else i)
        by = top + (h + 4) * (i // per_line if per_line else 0)
        if seen.count(letter) >= 2:          # both tiles of that pair seen: it cannot be this one
            doc.rect(x, by, w, h, fill="#EEEEEE", stroke=ERASED, stroke_width=1.0, rx=4,
                     title=f"{letter}: both tiles already seen")
            doc.text(x + w / 2, by + h / 2, letter, size=12, fill=ERASED)
        else:
            with doc.group(target=letter, title=f"shows {letter}"):
                doc.rect(x, by, w, h, fill=pair_colour(letter), stroke=INK, stroke_width=1.0, rx=4)
                doc.text(x + w / 2, by + h / 2, letter, size=12, fill=text_colour(letter), weight="bold")
    if per_line:
        return top + (h + 4) * -(-pairs // per_line) + 12
    return y + 40


def _legend(doc: Svg, y: float, data: dict[str, Any], right: float | None = None) -> float:
    """The key and the give-up button; with ``right``, no item reaches past it (a phone's). Returns the bottom."""
    size = 22
    items = (("brain", "Brain"), ("back", "unseen"), ("seen", "seen, face down"), ("up", "face up"),
             ("erased", "erased"), ("route", "best route so far"))
    x = 16.0
    row_y = y + 10
    for kind, label in items:
        if x > 330 if right is None else x + size + 5 + 7.2 * len(label) > right:
            x, row_y = 16.0, row_y + 32
        _swatch(doc, kind, x, row_y, size)
        doc.text(x + size + 5, row_y + size / 2, label, size=11, anchor="start")
        x += size + 12 + (6.2 if right is None else 7.2) * len(label)
    if data["phase"] in ("first", "second") and not data.get("flipped"):
        tall = 20 if right is None else 40  # a phone's button is drawn a finger's size (40 px)
        with doc.group(target="give up", title="give up (the game ends as a loss)"):
            doc.rect(16, row_y + 34, 70, tall, fill=PAPER, stroke=INK, stroke_width=1.0, rx=10)
            doc.text(51, row_y + 34 + tall / 2, "give up", size=11)
        return row_y + 34 + tall
    return row_y + size


def _swatch(doc: Svg, kind: str, x: float, y: float, size: float) -> None:
    if kind == "brain":
        doc.rect(x, y, size, size, fill=BRAIN_FILL, stroke=INK, stroke_width=1.0, rx=4)
        doc.text(x + size / 2, y + size / 2, "B", size=10, fill=PAPER, weight="bold")
    elif kind == "back":
        doc.card_back(x, y, size, size, title="a tile nobody has seen")
    elif kind == "seen":
        doc.card_back(x, y, size, size, title="a face-down tile the players have seen")
        doc.circle(x + size / 2, y + size / 2, 7, fill=PAPER, stroke=pair_colour("A"), stroke_width=2.0)
        doc.text(x + size / 2, y + size / 2, "A", size=9, weight="bold")
    elif kind == "up":
        doc.rect(x, y, size, size, fill=pair_colour("A"), stroke=INK, stroke_width=1.0, rx=4)
        doc.text(x + size / 2, y + size / 2, "A", size=13, weight="bold")
    elif kind == "erased":
        doc.rect(x, y, size, size, stroke=ERASED, stroke_width=1.2, rx=4, dash="3 2")
        doc.line(x + 5, y + 5, x + size - 5, y + size - 5, stroke=ERASED, width=2.0)
        doc.line(x + size - 5, y + 5, x + 5, y + size - 5, stroke=ERASED, width=2.0)
    else:
        doc.line(x, y + size / 2, x + size, y + size / 2, stroke=ROUTE_COLOUR, width=7.0, opacity=0.35)
        doc.circle(x + size / 2, y + size / 2, 3, fill=ROUTE_COLOUR, opacity=0.8)


# -- entry points -------------------------------------------------------------------------------------------------
def svg(game: Any, position: Any, hint: dict[str, Any] | None = None, **options: Any) -> str:
    """The board, its best route so far and ``hint``'s moves, drawn from ``position.to_json()`` only."""
    layout = options.pop("layout", "wide")
    if options or layout not in LAYOUTS:
        key = sorted(options)[0] if options else "layout"
        raise InvalidInputError(f"options.{key}", options.get(key, layout), "Forgotten pictures take only a layout")
    if layout == "narrow":
        return draw_narrow(game, position.to_json(), hint).render()
    return draw_position(game, position.to_json(), hint).render()


def puzzle_svg(game: Any, puzzle: dict[str, Any], solution: bool = False) -> str:
    """A printable puzzle: its board, its question and its difficulty; with ``solution``, the answer marked."""
    data = dict(puzzle["state"])
    answer = puzzle.get("answer") or {}
    cells = []
    if solution:
        moves = answer.get("firstMoves") or ([answer["move"]] if answer.get("move") else [])
        cells = [m.split()[1] for m in moves if len(m.split()) == 2]
    lines = _wrap(str(puzzle.get("question", "")), 64)
    if solution:
        lines += _wrap("Answer: " + answer_line(puzzle), 64)
    doc = draw_position(game, data, answer_cells=cells, title="Forgotten puzzle" + (": solution" if solution else ""),
                        footer=[f"Puzzle {puzzle.get('id', '')}"] + lines)
    difficulty_badge(doc, doc.width - 24, 18, str(puzzle.get("difficulty", "")))
    return doc.render()
