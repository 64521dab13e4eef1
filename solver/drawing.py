"""Pictures: every state, view, hint and puzzle drawn as a standalone SVG document (``docs/pictures.md``).

``svg(game, position, player=None, hint=None)`` is ``solver.svg`` in the Python
API and ``memory-solver <game> show STATE --svg`` on the command line. Each
game draws from the position's JSON (a view's JSON when ``player`` is given),
so two states with the same view give byte-identical pictures; drawing code
holds no rules logic.

:class:`Svg` is the small builder every game uses: plain SVG text, a
``viewBox`` so the picture scales, text in a generic font family, no external
fonts or images, and fixed number formatting so output is deterministic.
Elements a player can click on the web board carry ``data-target`` (a token of
the move strings: a cell such as ``b2``, a card such as ``C3``) and the class
``target``.

Colours come from the Okabe-Ito palette, which colour-blind readers can tell
apart; every kind of card also carries a letter or a symbol, so colour is never
the only cue.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from solver import contract
from solver.errors import InvalidInputError
from solver.game import Game
from solver.registry import load_game

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

#: Okabe-Ito: distinguishable with the common colour-vision deficiencies
PALETTE = {
    "black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73", "yellow": "#F0E442",
    "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7", "grey": "#999999",
}
INK = "#222222"
PAPER = "#FFFFFF"
BACK = "#5B5B7A"          # card backs
BACK_PATTERN = "#8D8DAA"
HINT_COLOURS = ("#0072B2", "#0072B2", "#0072B2")
HINT_OPACITY = (1.0, 0.45, 0.3)


@lru_cache(maxsize=4096)
def _num(value: float) -> str:
    """Fixed, short number formatting (deterministic output)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


#: attribute values as written: colours, classes and targets recur in every picture
_quoted = lru_cache(maxsize=4096)(quoteattr)
#: attribute names from keywords: ``stroke_width`` -> ``stroke-width``, ``class_`` -> ``class``
_ATTR_NAMES: dict[str, str] = {}


class Svg:
    """A standalone SVG document built element by element."""

    #: a :class:`Measure` draws nothing (drawing code may skip work that only shows)
    measuring = False

    def __init__(self, width: float, height: float, title: str | None = None, background: str = PAPER) -> None:
        self.width, self.height = width, height
        #: no text is drawn smaller than this (a phone's narrow picture sets it so its text stays legible)
        self.min_text = 0.0
        self._parts: list[str] = []
        self._defs: dict[str, str] = {}
        self._title = title
        if background:
            self.rect(0, 0, width, height, fill=background)

    # -- elements -----------------------------------------------------------------------
    def _attrs(self, **attrs: Any) -> str:
        out = []
        for key, value in attrs.items():
            if value is None or value is False:
                continue
            name = _ATTR_NAMES.get(key)
            if name is None:
                name = _ATTR_NAMES[key] = key.rstrip("_").replace("_", "-")
            if isinstance(value, float):
                out.append(f'{name}="{_num(value)}"')      # digits, '-' and '.': nothing to quote
            else:
                out.append(f"{name}={_quoted(str(value))}")
        return " ".join(out)

    def _element(self, tag: str, title: str | None = None, body: str | None = None, **attrs: Any) -> None:
        target = attrs.pop("target", None)
        if target is not None:
            attrs["data_target"] = target
            attrs["class_"] = ((attrs.get("class_") or "") + " target").strip()
        text = f"<{tag} {self._attrs(**attrs)}"
        if title is None and body is None:
            self._parts.append(text + "/>")
            return
        inner = (f"<title>{escape(title)}</title>" if title else "") + (body or "")
        self._parts.append(f"{text}>{inner}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: str | None = None,
             stroke_width: float | None = None, rx: float | None = None, opacity: float | None = None,
             dash: str | None = None, target: str | None = None, title: str | None = None,
             cls: str | None = None) -> None:
        """A rectangle (``rx`` rounds the corners)."""
        self._element("rect", title, x=float(x), y=float(y), width=float(w), height=float(h), rx=rx, fill=fill,
                      stroke=stroke, stroke_width=stroke_width, opacity=opacity, stroke_dasharray=dash,
                      target=target, class_=cls)

    def circle(self, cx: float, cy: float, r: float, fill: str = "none", stroke: str | None = None,
               stroke_width: float | None = None, opacity: float | None = None, target: str | None = None,
               title: str | None = None, dash: str | None = None) -> None:
        """A circle."""
        self._element("circle", title, cx=float(cx), cy=float(cy), r=float(r), fill=fill, stroke=stroke,
                      stroke_width=stroke_width, opacity=opacity, stroke_dasharray=dash, target=target)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK, width: float = 1.0,
             opacity: float | None = None, dash: str | None = None, cap: str | None = None) -> None:
        """A straight line."""
        self._element("line", None, x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), stroke=stroke,
                      stroke_width=float(width), opacity=opacity, stroke_dasharray=dash, stroke_linecap=cap)

    def polygon(self, points: list[tuple[float, float]], fill: str = "none", stroke: str | None = None,
                stroke_width: float | None = None, opacity: float | None = None, target: str | None = None,
                title: str | None = None) -> None:
        """A closed polygon."""
        self._element("polygon", title, points=" ".join(f"{_num(x)},{_num(y)}" for x, y in points), fill=fill,
                      stroke=stroke, stroke_width=stroke_width, opacity=opacity, target=target)

    def polyline(self, points: list[tuple[float, float]], stroke: str = INK, width: float = 1.0,
                 opacity: float | None = None, dash: str | None = None) -> None:
        """An open polyline (rounded joins)."""
        self._element("polyline", None, points=" ".join(f"{_num(x)},{_num(y)}" for x, y in points), fill="none",
                      stroke=stroke, stroke_width=float(width), opacity=opacity, stroke_dasharray=dash,
                      stroke_linejoin="round", stroke_linecap="round")

    def path(self, d: str, fill: str = "none", stroke: str | None = None, stroke_width: float | None = None,
             opacity: float | None = None, target: str | None = None, title: str | None = None) -> None:
        """A path from SVG path data."""
        self._element("path", title, d=d, fill=fill, stroke=stroke, stroke_width=stroke_width, opacity=opacity,
                      target=target, stroke_linejoin="round", stroke_linecap="round")

    def text(self, x: float, y: float, content: Any, size: float = 12, anchor: str = "middle", fill: str = INK,
             weight: str | None = None, opacity: float | None = None, italic: bool = False,
             title: str | None = None) -> None:
        """Text centred vertically on ``y`` (``anchor``: start, middle or end)."""
        self._element("text", None, body=(f"<title>{escape(title)}</title>" if title else "") + escape(str(content)),
                      x=float(x), y=float(y), font_size=float(max(size, self.min_text)), text_anchor=anchor, dominant_baseline="central",
                      fill=fill, font_weight=weight, font_style="italic" if italic else None, opacity=opacity)

    def raw(self, markup: str) -> None:
        """Markup built elsewhere (already escaped)."""
        self._parts.append(markup)

    @contextmanager
    def group(self, target: str | None = None, title: str | None = None, opacity: float | None = None,
              transform: str | None = None, cls: str | None = None, slots: str | None = None) -> Iterator[None]:
        """Elements drawn inside the block form one group (one click target, one tooltip). ``slots`` names, in
        order and space-separated, the targets where a move entered piece by piece puts its pieces (the web
        board's move builder: Aetherya's arrangement ``b2 c2 b3 c3``)."""
        attrs = self._attrs(data_target=target, class_=((cls or "") + (" target" if target else "")).strip() or None,
                            opacity=opacity, transform=transform, data_slots=slots)
        self._parts.append(f"<g {attrs}>" if attrs else "<g>")
        if title:
            self._parts.append(f"<title>{escape(title)}</title>")
        yield
        self._parts.append("</g>")

    # -- composite marks ------------------------------------------------------------------
    def arrow(self, x1: float, y1: float, x2: float, y2: float, colour: str = HINT_COLOURS[0], width: float = 6.0,
              opacity: float = 1.0) -> None:
        """An arrow from (x1, y1) to (x2, y2), with its head drawn as a polygon (no markers, so it prints)."""
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        head = min(width * 3.2, length * 0.6)
        bx, by = x2 - ux * head, y2 - uy * head
        self.line(x1, y1, bx, by, stroke=colour, width=width, opacity=opacity, cap="round")
        px, py = -uy * head * 0.55, ux * head * 0.55
        self.polygon([(x2, y2), (bx + px, by + py), (bx - px, by - py)], fill=colour, opacity=opacity)

    def badge(self, x: float, y: float, content: str, fill: str = HINT_COLOURS[0], colour: str = PAPER,
              size: float = 11, opacity: float = 1.0, anchor: str = "middle") -> None:
        """A small rounded label (a hint's value, a difficulty grade)."""
        width = 0.62 * size * max(1, len(content)) + size * 0.9
        left = x - width / 2 if anchor == "middle" else (x if anchor == "start" else x - width)
        height = size * 1.55
        self.rect(left, y - height / 2, width, height, fill=fill, rx=height / 2, opacity=opacity)
        self.text(left + width / 2, y, content, size=size, fill=colour, weight="bold", opacity=opacity)

    def card_back(self, x: float, y: float, w: float, h: float, label: str | None = None,
                  target: str | None = None, title: str | None = None) -> None:
        """A face-down card: a dark back with a diagonal pattern, recognisable as a back without colour."""
        with self.group(target=target, title=title or "face-down card"):
            self.rect(x, y, w, h, fill=BACK, stroke=INK, stroke_width=1.0, rx=min(w, h) * 0.08)
            inset = min(w, h) * 0.12
            ix, iy, iw, ih = x + inset, y + inset, w - 2 * inset, h - 2 * inset
            step = max(6.0, min(w, h) / 5)
            t = -ih + step / 2
            while t < iw:  # the lines u - v = t inside the inner rectangle
                v0, v1 = max(0.0, -t), min(ih, iw - t)
                if v1 > v0:
                    self.line(ix + v0 + t, iy + v0, ix + v1 + t, iy + v1, stroke=BACK_PATTERN, width=1.2)
                t += step
            if label:
                self.text(x + w / 2, y + h / 2, label, size=min(w, h) * 0.32, fill=PAPER, weight="bold")

    # -- output ---------------------------------------------------------------------------
    def render(self) -> str:
        """The document as text."""
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(self.width)} {_num(self.height)}" '
                f'width="{_num(self.width)}" height="{_num(self.height)}" font-family={quoteattr(FONT)}>')
        title = f"<title>{escape(self._title)}</title>" if self._title else ""
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + head + title + "".join(self._parts) + "</svg>\n"


class Measure(Svg):
    """The first pass of a picture laid out twice: the same calls as the drawing, but no element is written; only
    where the drawing code ends is of use (the height of the picture the second pass draws)."""

    measuring = True

    def _element(self, tag: str, title: str | None = None, body: str | None = None, **attrs: Any) -> None:
        return

    def raw(self, markup: str) -> None:
        return

    @contextmanager
    def group(self, target: str | None = None, title: str | None = None, opacity: float | None = None,
              transform: str | None = None, cls: str | None = None, slots: str | None = None) -> Iterator[None]:
        yield


# ---------------------------------------------------------------------- hints on pictures
def hint_marks(hint: Any, limit: int = 3) -> list[dict[str, Any]]:
    """The first ``limit`` moves of a hint (its JSON, a :class:`HintResult` or ``None``) with their drawing weight."""
    if hint is None:
        return []
    data = hint.to_json() if hasattr(hint, "to_json") else hint
    infos = data.get("moveInfos", []) if isinstance(data, dict) else []
    marks = []
    for rank, info in enumerate(infos[:limit]):
        marks.append({"rank": rank, "move": info.get("move", ""), "value": info.get("value"),
                      "opacity": HINT_OPACITY[min(rank, len(HINT_OPACITY) - 1)],
                      "colour": HINT_COLOURS[min(rank, len(HINT_COLOURS) - 1)], "info": info})
    return marks


def format_value(value: Any, meaning: str | None = None) -> str:
    """A hint value for a badge: a percentage for probabilities, else a short number."""
    if not isinstance(value, (int, float)):
        return "?"
    if meaning and "probab" in meaning.lower() and 0 <= value <= 1:
        return percent_text(value)
    return f"{value:.3g}"


def percent_text(value: float) -> str:
    """A probability as a whole percentage, but never a rounded certainty: 0.996 is '99.6%', not '100%'."""
    text = f"{value * 100:.0f}"
    if text in ("0", "100") and value not in (0, 1):
        text = f"{value * 100:.1f}"
        if text == "100.0":
            return ">99.9%"
        if text == "0.0":
            return "<0.1%"
    return f"{text}%"


# ---------------------------------------------------------------------- entry points
def svg(game: Game | str, position: Any, player: int | None = None, hint: Any = None, **options: Any) -> str:
    """A standalone SVG picture of ``position`` (only ``player``'s view when given; ``hint`` drawn on it)."""
    g = load_game(game)
    pos = g.parse_position(position)
    if player is not None:
        pos = pos.view(player)
    data = hint.to_json() if hasattr(hint, "to_json") else hint
    if data is not None and not isinstance(data, dict):
        raise InvalidInputError("hint", data, "expected a hint result (its JSON object)")
    return contract.svg(pos.game, pos, hint=data, **options)


def write_puzzle_sheets(game: Game, puzzles: list[dict[str, Any]], directory: str) -> list[str]:
    """One SVG per puzzle, one per solution, and ``answers.svg`` listing every answer; returns the paths written."""
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise InvalidInputError("--svg", directory, f"cannot create the directory ({exc.strerror})") from None
    written = []
    for puzzle in puzzles:
        for solution in (False, True):
            name = f"{_file_name(puzzle['id'])}{'-solution' if solution else ''}.svg"
            path = os.path.join(directory, name)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(contract.puzzle_svg(game, puzzle, solution=solution))
            written.append(path)
    path = os.path.join(directory, "answers.svg")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(answers_page(game, puzzles))
    written.append(path)
    return written


def answers_page(game: Game, puzzles: list[dict[str, Any]]) -> str:
    """A printable page with every puzzle's id, difficulty and answer."""
    rows: list[tuple[str, str, list[str]]] = []
    for puzzle in puzzles:
        text = contract.puzzle_answer(game, puzzle)
        rows.append((puzzle["id"], puzzle.get("difficulty", ""), _wrap(text, 90)))
    line = 16
    height = 70 + sum(line * (len(r[2]) + 1) + 8 for r in rows)
    doc = Svg(800, max(height, 120), title=f"{game.long_name} puzzles: answers")
    doc.text(40, 30, f"{game.long_name}: answers", size=20, anchor="start", weight="bold")
    y = 62.0
    for pid, difficulty, lines in rows:
        doc.text(40, y, pid, size=13, anchor="start", weight="bold")
        if difficulty:
            doc.badge(760, y, difficulty, fill=DIFFICULTY_COLOURS.get(difficulty, INK), anchor="end")
        y += line
        for text in lines:
            doc.text(56, y, text, size=12, anchor="start")
            y += line
        y += 8
    return doc.render()


DIFFICULTY_COLOURS = {"easy": "#009E73", "medium": "#E69F00", "hard": "#D55E00"}


def difficulty_badge(doc: Svg, x: float, y: float, difficulty: str, anchor: str = "end") -> None:
    """The difficulty badge on a puzzle sheet (colour and the word)."""
    doc.badge(x, y, difficulty, fill=DIFFICULTY_COLOURS.get(difficulty, INK), anchor=anchor, size=12)


def wrap_words(words: Sequence[str], width: int) -> list[str]:
    """``words`` (each kept whole, spaces and all) in lines of at most ``width`` characters where they fit."""
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line]


def _wrap(text: str, width: int) -> list[str]:
    return [line for paragraph in str(text).splitlines() or [""] for line in wrap_words(paragraph.split(" "), width)]


def _file_name(puzzle_id: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in puzzle_id)


__all__ = ["Svg", "svg", "hint_marks", "format_value", "write_puzzle_sheets", "answers_page", "difficulty_badge",
           "PALETTE", "INK", "PAPER"]
