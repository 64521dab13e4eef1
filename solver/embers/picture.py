"""The Embers of Memory picture (issue 12): the Mind in its layers, the memory row, Aelin's Resolve, the demons,
the discard and the box, the phase and whose turn it is; hints on the board; printable puzzle sheets.

Everything is drawn from the position's JSON (``docs/formats/embers.md``), the deck's card data (suit, strength,
segments) and the position's legal moves (for the entry panel), so equal views give byte-identical pictures.

* The Mind: each card a 2x2 square of quarters drawn bottom card first, so a card lying on another covers it;
  clear quarters in a light tint of the suit colour, blocked quarters dark and hatched; each card's suit letter and
  strength (``C4``) in a quarter that shows; a thin shadow under each card shows the layers, and a card covered
  completely is outlined with dashes and listed under the Mind.
* Colours are the Okabe-Ito palette per suit (Chains blue, Daggers vermillion, Flames orange, Glass sky, Stags
  green) and every card also carries its suit letter, so colour is never the only cue; demons are black cards
  marked "demon"; face-down Resolve cards the viewer cannot see are hatched backs (``Svg.card_back``), those
  the viewer can see are drawn with a dashed "face down" frame.
* Click targets (``data-target``): every visible Mind card and memory-row card carries its id (``take C4``,
  ``keep C4,S1a``, ``add C3@0,1``, ``discard C3``); each place a legal add puts a card is a target ``X,Y`` on
  the Mind (a ring around the corner the card's quarters would share: the adds there); the strength rows carry their number in phase ``reveal``
  (``reveal 2``, ``reveal 2 S3``); every other entry (``draw``, ``stop``, ``pass``, ``here``, ``silent``,
  ``arrange ...``, ``chance ?``) is a button carrying the whole entry, and the cards a chance outcome, a reveal,
  a Day's End or a flip may name are laid out as chips carrying their ids.
* A phone's picture (``layout="narrow"``): the same parts in one column 356 wide, no text under 12
  (:data:`NARROW_WIDTH`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from solver.drawing import INK, PALETTE, PAPER, Measure, Svg, _wrap, difficulty_badge, format_value, hint_marks
from solver.embers.puzzles import puzzle_state
from solver.embers.text import PHASE_WORDS
from solver.embers.view import EmbersView
from solver.errors import InvalidInputError
from solver.game import Game, State, View

SUIT_COLOURS = {"C": PALETTE["blue"], "D": PALETTE["vermillion"], "F": PALETTE["orange"], "G": PALETTE["sky"],
                "S": PALETTE["green"]}
SUIT_NAMES = {"C": "Chains", "D": "Daggers", "F": "Flames", "G": "Glass", "S": "Stags"}
TINTS = {"C": "#CFE3F0", "D": "#F6D6C2", "F": "#F8E6BF", "G": "#D8EEF9", "S": "#C8ECE0"}
BLOCKED = "#3C3C46"
HATCH = "#8A8A96"
COORDINATES = "#8C8577"  # the Mind's edge coordinates: legible, quieter than the cards
DEMON = "#1E1E24"
QUARTER = 34  # a quarter of a Mind card, in pixels
SMALL = 20  # a quarter of a card in the rows
MARGIN = 24
RIGHT_WIDTH = 470
#: a phone's picture (``layout="narrow"``): one column NARROW_WIDTH wide, no text under NARROW_TEXT (``Svg.min_text``)
#: — the header wrapped, the Mind (its quarters up to NARROW_QUARTER, smaller for a wide Mind but never under
#: MIN_QUARTER), then the rows, the Resolve, the piles, the entries and the hint, each wrapped to the width
NARROW_WIDTH = 356.0
NARROW_TEXT = 12.0
NARROW_MARGIN = 12.0
NARROW_QUARTER = 36.0
MIN_QUARTER = 26.0  # a card's label (0.46 of a quarter) stays 12
TAP = 40.0  # a phone's entry buttons and card chips are drawn this tall (a finger's tap, as the web board asks)
LAYOUTS = ("wide", "narrow")


class Picture:
    """One picture of a position (its JSON) with an optional hint."""

    def __init__(self, game: Any, data: dict[str, Any], legal: list[str], hint: dict[str, Any] | None,
                 extra_adds: list[tuple[str, int, int]] | None = None, title: str | None = None,
                 narrow: bool = False) -> None:
        self.narrow = narrow
        self.game = game
        self.deck = game.deck
        self.data = data
        self.legal = legal
        self.hint = hint
        self.marks = hint_marks(hint)
        self.meaning = (hint or {}).get("rootInfo", {}).get("valueMeaning")
        self.mind = [_entry(e) for e in data.get("mind", [])]
        self.extra = extra_adds or []
        self.title = title
        #: a Mind quarter's side, and the panel's width
        self.q, self.panel_w = QUARTER, RIGHT_WIDTH
        if narrow:
            bounds = self.mind_bounds()
            columns = max(8, bounds[2] - bounds[0] + 1)
            self.q = int(max(MIN_QUARTER, min(NARROW_QUARTER, (NARROW_WIDTH - 2 * NARROW_MARGIN) // columns)))
            self.panel_w = int(NARROW_WIDTH - 2 * NARROW_MARGIN)

    # -- cards --------------------------------------------------------------------------------------------
    def card(self, name: str) -> Any:
        return self.deck.card(name, "picture")

    def draw_card(self, doc: Svg, x: float, y: float, q: float, name: str, visible: tuple[bool, ...] = (True,) * 4,
                  target: str | None = None, label_at: int | None = None, shadow: bool = False,
                  opacity: float | None = None, dashed: bool = False,
                  rings: Sequence[tuple[float, float]] = ()) -> None:
        """A memory card (2x2 quarters) or a demon at ``(x, y)``; ``visible`` says which quarters show; its label
        keeps clear of the Mind's spot ``rings`` (their centres, see :func:`label_place`)."""
        card = self.card(name)
        if doc.measuring:  # a measure needs nothing of a card (drawn within its place): no label to place
            return
        letter = name[0].upper()
        colour = SUIT_COLOURS.get(letter, INK)
        title = (f"{card.id}: demon of {card.suit_name}" if card.is_demon else
                 f"{card.id}: {card.suit_name} {card.strength}, segments {_pattern(card.blocked)}")
        with doc.group(target=target, title=title, opacity=opacity):
            if shadow:
                doc.rect(x + 3, y + 3, 2 * q, 2 * q, fill="#000000", opacity=0.28, rx=3)
            if card.is_demon:
                doc.rect(x, y, 2 * q, 2 * q, fill=DEMON, stroke=colour, stroke_width=3, rx=4)
                doc.text(x + q, y + q * 0.72, card.id, size=q * 0.62, fill=PAPER, weight="bold")
                if q * 0.42 >= doc.min_text:  # too long for a phone's small card: its title and row say it
                    doc.text(x + q, y + q * 1.38, "demon", size=q * 0.42, fill=PAPER)
                return
            for s, (dx, dy) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
                qx, qy = x + dx * q, y + dy * q
                if card.blocked >> s & 1:
                    doc.rect(qx, qy, q, q, fill=BLOCKED)
                    doc.line(qx + 2, qy + q - 2, qx + q - 2, qy + 2, stroke=HATCH, width=1.2)
                    doc.line(qx + 2, qy + q / 2, qx + q / 2, qy + 2, stroke=HATCH, width=1.2)
                    doc.line(qx + q / 2, qy + q - 2, qx + q - 2, qy + q / 2, stroke=HATCH, width=1.2)
                else:
                    doc.rect(qx, qy, q, q, fill=TINTS.get(letter, PAPER))
            doc.rect(x, y, 2 * q, 2 * q, fill="none", stroke=colour, stroke_width=3, rx=3,
                     dash="5 3" if dashed else None)
            doc.line(x + q, y + 1.5, x + q, y + 2 * q - 1.5, stroke=colour, width=0.6, opacity=0.6)
            doc.line(x + 1.5, y + q, x + 2 * q - 1.5, y + q, stroke=colour, width=0.6, opacity=0.6)
            spots = [label_at] if label_at is not None else [s for s in range(4) if visible[s]]
            if spots:
                label = f"{letter}{card.strength}"
                spot, lx, ly, size = label_place(x, y, q, spots, label, q * 0.46, max(doc.min_text, LABEL_MIN), rings)
                dark = bool(card.blocked >> spot & 1)
                doc.text(lx, ly, label, size=size, fill=PAPER if dark else INK, weight="bold")

    def back(self, doc: Svg, x: float, y: float, q: float, label: str | None = None,
             target: str | None = None) -> None:
        doc.card_back(x, y, 2 * q, 2 * q, label=label, target=target,
                      title="a face-down Resolve card this player does not see")

    # -- the whole picture -----------------------------------------------------------------------------------
    def draw(self) -> Svg:
        if self.narrow:
            return self.draw_narrow()
        bounds = self.mind_bounds()
        mind_w = max(8, bounds[2] - bounds[0] + 1) * self.q
        left_w = mind_w + MARGIN
        panel_x = left_w + 2 * MARGIN
        width = panel_x + self.panel_w + MARGIN
        scratch = Measure(width, 10)  # a first pass measures the height
        bottom = max(self.draw_mind(scratch, MARGIN, 104, bounds), self.draw_panel(scratch, panel_x, 76))
        doc = Svg(width, bottom + MARGIN, title=self.title or self.caption())
        self.header(doc, width)
        self.draw_mind(doc, MARGIN, 104, bounds)
        self.draw_panel(doc, panel_x, 76)
        return doc

    def draw_narrow(self) -> Svg:
        """The phone's picture: the header, the Mind, then the panel's parts, in one column."""
        bounds = self.mind_bounds()
        mind_w = max(8, bounds[2] - bounds[0] + 1) * self.q
        width = max(NARROW_WIDTH, mind_w + 2 * NARROW_MARGIN)
        height = 10.0
        for kind in (Measure, Svg):  # a first pass measures the height
            doc = kind(width, height, title=self.title or self.caption())
            doc.min_text = NARROW_TEXT
            y = self.header_narrow(doc) + 34
            y = self.draw_mind(doc, NARROW_MARGIN, y, bounds) + 12
            height = self.draw_panel(doc, NARROW_MARGIN, y) + NARROW_MARGIN
        return doc

    def header_narrow(self, doc: Svg) -> float:
        """The header's lines wrapped to the phone's width; returns where they end."""
        y = 18.0
        for line in _wrap(f"Embers of Memory · {self.chapter()}", 30):
            doc.text(NARROW_MARGIN, y, line, size=16, anchor="start", weight="bold")
            y += 20
        for line in _wrap(self.status(), 44):
            doc.text(NARROW_MARGIN, y, line, size=13, anchor="start")
            y += 17
        doc.badge(NARROW_MARGIN, y + 4, self.viewer(), fill=PALETTE["purple"] if "view" in self.data else INK,
                  anchor="start", size=12)
        y += 24
        if self.marks:
            best = self.marks[0]
            for line in _wrap(f"hint: {best['move']} ({format_value(best['value'], self.meaning)})", 40):
                doc.text(NARROW_MARGIN, y, line, size=13, anchor="start", fill=best["colour"], weight="bold")
                y += 17
        return y

    def status(self) -> str:
        """Whose turn and the phase, or the result."""
        data = self.data
        if data.get("result"):
            return f"Game over: {data['result']}"
        phase = data.get("phase", "")
        status = f"{str(data.get('turn', '')).capitalize()}'s turn · phase {phase}: {PHASE_WORDS.get(phase, phase)}"
        pending = data.get("pending") or {}
        if "suit" in pending:
            status += f" (after a {pending['suit']} relive)"
        elif "row" in pending:
            status += f" (a card joined row {pending['row']})"
        return status

    def viewer(self) -> str:
        """Whose view the picture is, or that it shows every card."""
        data = self.data
        return (f"{str(data.get('role', '')).capitalize()}'s view (player {data['view']})" if "view" in data
                else "full state: every card shown")

    def caption(self) -> str:
        data = self.data
        who = f"player {data['view']}'s view ({data.get('role', '')})" if "view" in data else "full state"
        return f"Embers of Memory, {self.chapter()}: {who}"

    def chapter(self) -> str:
        data = self.data
        if data.get("chapter") == "prologue":
            return f"Prologue part {data.get('part', 1)}"
        return f"Chapter One, day {data.get('day', 1)} of 3"

    def header(self, doc: Svg, width: float) -> None:
        data = self.data
        doc.text(MARGIN, 24, f"Embers of Memory · {self.chapter()}", size=18, anchor="start", weight="bold")
        doc.text(MARGIN, 50, self.status(), size=14, anchor="start")
        doc.badge(width - MARGIN, 24, self.viewer(), fill=PALETTE["purple"] if "view" in data else INK, anchor="end",
                  size=12)
        if self.marks:
            best = self.marks[0]
            doc.text(width - MARGIN, 50, f"hint: {best['move']} ({format_value(best['value'], self.meaning)})",
                     size=13, anchor="end", fill=best["colour"], weight="bold")

    # -- the Mind ------------------------------------------------------------------------------------------------
    def mind_bounds(self) -> tuple[int, int, int, int]:
        quarters = [(x + dx, y + dy) for _, x, y in self.mind + self.extra + self.hint_adds()
                    for dx in (0, 1) for dy in (0, 1)]
        if not quarters:
            return (0, 0, 7, 7)
        xs, ys = [q[0] for q in quarters], [q[1] for q in quarters]
        return (min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1)

    def hint_adds(self) -> list[tuple[str, int, int]]:
        out = []
        for mark in self.marks:
            move = mark["move"]
            if move.startswith("add "):
                out.append(_entry(move.split()[1]))
        return out

    def draw_mind(self, doc: Svg, ox: float, oy: float, bounds: tuple[int, int, int, int]) -> float:
        """The Mind at ``(ox, oy)``; returns the bottom of what was drawn."""
        x0, y0, x1, y1 = bounds
        w, h = (max(8, x1 - x0 + 1)) * self.q, (max(8, y1 - y0 + 1)) * self.q
        doc.text(ox, oy - 24, "Aelin's Mind", size=14, anchor="start", weight="bold")
        doc.text(ox + 100, oy - 24, "later cards lie on top", size=12, anchor="start")
        doc.rect(ox, oy, w, h, fill="#F4F1EA", stroke="#CCC6B8", stroke_width=1, rx=6)

        def at(qx: int, qy: int) -> tuple[float, float]:
            return ox + (qx - x0) * self.q, oy + (qy - y0) * self.q

        # the coordinates of the moves (``add C4@X,Y``: the card's top-left quarter), as on a chess board's edges:
        # x along the top row and y down the left column, both in the empty ring of quarters around the cards
        for qx in range(x0 + 1, x0 + w // self.q):
            doc.text(at(qx, y0)[0] + self.q / 2, oy + 10, qx, size=9, fill=COORDINATES)
        for qy in range(y0 + 1, y0 + h // self.q):
            doc.text(ox + 9, at(x0, qy)[1] + self.q / 2, qy, size=9, fill=COORDINATES)

        # the spots' rings (drawn last, over the cards): each card's label keeps clear of them
        rings = [(px + self.q, py + self.q) for px, py in (at(x, y) for x, y in self.spots())]
        cards = self.mind + [(c, x, y) for c, x, y in self.extra]
        covered = []
        for k, (name, x, y) in enumerate(cards):
            later = cards[k + 1:]
            visible = tuple(not any(lx <= x + dx <= lx + 1 and ly <= y + dy <= ly + 1 for _, lx, ly in later)
                            for dy in (0, 1) for dx in (0, 1))
            px, py = at(x, y)
            shows = any(visible)
            if not shows:
                covered.append((name, px, py))
            self.draw_card(doc, px, py, self.q, name, visible, target=name if shows else None, shadow=k > 0,
                           rings=rings)
        for name, px, py in covered:  # a card covered completely: its outline, dashed, on top
            doc.rect(px + 2, py + 2, 2 * self.q - 4, 2 * self.q - 4, fill="none",
                     stroke=SUIT_COLOURS.get(name[0].upper(), INK), stroke_width=1.5, dash="4 3", opacity=0.9)
        for mark in reversed(self.marks):
            move = mark["move"]
            if move.startswith("add "):
                name, x, y = _entry(move.split()[1])
                px, py = at(x, y)
                if mark["rank"] == 0:  # the best add as a ghost card where it would lie
                    self.draw_card(doc, px, py, self.q, name, opacity=0.6, dashed=True, label_at=0, rings=rings)
                doc.rect(px - 3, py - 3, 2 * self.q + 6, 2 * self.q + 6, fill="none", stroke=mark["colour"],
                         stroke_width=4 if mark["rank"] == 0 else 2.5, rx=5, opacity=mark["opacity"],
                         dash=None if mark["rank"] == 0 else "6 4",
                         cls=f"hint hint-{mark['rank'] + 1}", title=f"hint {mark['rank'] + 1}: {move}")
                self.value_badge(doc, px + 2 * self.q + 2, py - 6, mark)
            elif move.startswith(("take ", "keep ")):
                for name in move.split()[1].split(","):
                    place = next(((x, y) for c, x, y in self.mind if c == name), None)
                    if place is None:
                        continue
                    px, py = at(*place)
                    doc.rect(px - 3, py - 3, 2 * self.q + 6, 2 * self.q + 6, fill="none", stroke=mark["colour"],
                             stroke_width=4 if mark["rank"] == 0 else 2.5, rx=5, opacity=mark["opacity"],
                             cls=f"hint hint-{mark['rank'] + 1}", title=f"hint {mark['rank'] + 1}: {move}")
                    self.value_badge(doc, px + 2 * self.q, py - 4, mark)
        self.draw_spots(doc, at)  # above the hint's ghost card: the places stay visible and clickable
        caption_y = oy + h + 18
        legend = [("clear", TINTS["C"]), ("blocked", BLOCKED)]
        x = ox
        for label, fill in legend:
            doc.rect(x, caption_y - 7, 14, 14, fill=fill, stroke=INK, stroke_width=0.8)
            doc.text(x + 19, caption_y, label, size=12, anchor="start")
            x += 80
        doc.text(x, caption_y, f"{len(self.mind)} card{'' if len(self.mind) == 1 else 's'}", size=12,
                 anchor="start")
        lines = _wrap("covered completely (dashed): " + ", ".join(c for c, _, _ in covered),
                      44 if self.narrow else 1000) if covered else []
        for i, line in enumerate(lines):
            doc.text(ox, caption_y + 20 + 17 * i, line, size=12, anchor="start")
        bottom = caption_y + (28 + 17 * (len(lines) - 1) if covered else 8)
        if self.extra:
            doc.text(ox, bottom + 12, "answer: the cards added are the last "
                     f"{len(self.extra)}, numbered in order", size=12, anchor="start")
            bottom += 20
            for n, (name, x, y) in enumerate(self.extra, 1):
                px, py = at(x, y)
                doc.badge(px + 2 * self.q - 2, py + 4, str(n), fill=PALETTE["purple"], size=11)
        return bottom

    def spots(self) -> dict[tuple[int, int], list[str]]:
        """The places a legal add puts a card (its top-left quarter), each with the cards that may go there."""
        found: dict[tuple[int, int], list[str]] = {}
        for move in self.legal:
            if move.startswith("add ") and "@" in move:
                name, x, y = _entry(move.split()[1])
                found.setdefault((x, y), []).append(name)
        return found

    def draw_spots(self, doc: Svg, at: Any) -> None:
        """Each place a card may be added, a click target (``X,Y``: the adds there) drawn where the card's centre
        would lie: one quarter square around the corner its four quarters share, so no two places overlap."""
        for (x, y), names in sorted(self.spots().items(), key=lambda item: (item[0][1], item[0][0])):
            px, py = at(x, y)
            colours = {SUIT_COLOURS.get(n[0].upper(), INK) for n in names}
            colour = colours.pop() if len(colours) == 1 else PALETTE["purple"]
            with doc.group(target=f"{x},{y}", cls="spot", title=f"add here ({x},{y}): {', '.join(names)}"):
                doc.rect(px + self.q / 2 + 2, py + self.q / 2 + 2, self.q - 4, self.q - 4, fill=PAPER,
                         stroke=colour, stroke_width=2, rx=self.q / 2 - 2, opacity=0.85, dash="4 2")
                doc.text(px + self.q, py + self.q, "+" if len(names) == 1 else str(len(names)), size=14,
                         fill=colour, weight="bold")

    def value_badge(self, doc: Svg, x: float, y: float, mark: dict[str, Any], anchor: str = "middle") -> None:
        """The best move's value on the board; the next two get their rank (their values are listed)."""
        text = format_value(mark["value"], self.meaning) if mark["rank"] == 0 else f"#{mark['rank'] + 1}"
        doc.badge(x, y, text, fill=mark["colour"], opacity=max(mark["opacity"], 0.6), size=max(10, doc.min_text),
                  anchor=anchor)

    # -- the right-hand panel -------------------------------------------------------------------------------
    def draw_panel(self, doc: Svg, x: float, y: float) -> float:
        """The rows, the Resolve, the piles and the entries at ``(x, y)``; returns the bottom."""
        y = self.draw_memory_row(doc, x, y)
        y = self.draw_demons(doc, x, y + 8)
        y = self.draw_resolve(doc, x, y + 8)
        y = self.draw_piles(doc, x, y + 8)
        y = self.draw_entries(doc, x, y + 8)
        return self.draw_hint_list(doc, x, y + 8)

    def draw_hint_list(self, doc: Svg, x: float, y: float) -> float:
        """The hint's moves with their values and reasons (the board marks them: outline, ghost, badge)."""
        if not self.marks:
            return y
        y = self.section(doc, x, y, "Hint")
        for mark in self.marks:
            value = format_value(mark["value"], self.meaning)
            lines = _wrap(f"{mark['rank'] + 1}. {mark['move']} ({value}): {mark['info'].get('why', '')}",
                          42 if self.narrow else 62)
            for i, line in enumerate(lines[:3]):
                doc.text(x + (0 if i == 0 else 14), y + 8, line, size=12, anchor="start", fill=mark["colour"],
                         opacity=max(mark["opacity"], 0.6), weight="bold" if mark["rank"] == 0 else None)
                y += 17
        return y

    def section(self, doc: Svg, x: float, y: float, text: str) -> float:
        doc.text(x, y + 12, text, size=13, anchor="start", weight="bold")
        return y + 24

    def draw_memory_row(self, doc: Svg, x: float, y: float) -> float:
        row = self.data.get("row", [])
        y = self.section(doc, x, y, "Memory row" + ("" if row else ": empty"))
        per_line = int(self.panel_w + 12) // (2 * SMALL + 12) if self.narrow else len(row)
        line_h = 2 * SMALL + 24
        for i, name in enumerate(row):
            px = x + i % per_line * (2 * SMALL + 12)
            top = y + i // per_line * line_h
            if px + 2 * SMALL > x + self.panel_w:
                break
            self.draw_card(doc, px, top, SMALL, name, target=name)
            for mark in self.marks:
                move = mark["move"]
                if move in (f"discard {name}",) or (move.startswith(f"add {name}@") and mark["rank"] == 0):
                    doc.rect(px - 3, top - 3, 2 * SMALL + 6, 2 * SMALL + 6, fill="none", stroke=mark["colour"],
                             stroke_width=3.5 if mark["rank"] == 0 else 2.5, rx=4, opacity=mark["opacity"],
                             cls=f"hint hint-{mark['rank'] + 1}" if move.startswith("discard") else "hint-card",
                             title=f"hint {mark['rank'] + 1}: {move}")
                    if move.startswith("discard"):
                        label = "discard" + (f" {format_value(mark['value'], self.meaning)}" if mark["rank"] == 0
                                             else f" (#{mark['rank'] + 1})")
                        doc.badge(px + SMALL, top + 2 * SMALL + 10, label, fill=mark["colour"],
                                  opacity=max(mark["opacity"], 0.6), size=max(9, doc.min_text))
        y += line_h * ((len(row) - 1) // per_line) if row else 0
        return y + 2 * SMALL + (24 if any(m["move"].startswith("discard") for m in self.marks) else 10)

    def draw_demons(self, doc: Svg, x: float, y: float) -> float:
        demons = self.data.get("demons", [])
        y = self.section(doc, x, y, "Demon row" + ("" if demons else ": no demon"))
        pitch = 110 if self.narrow else 118
        per_line = int(self.panel_w) // pitch if self.narrow else len(demons)
        for i, entry in enumerate(demons):
            px, top = x + i % per_line * pitch, y + i // per_line * (2 * SMALL + 10)
            self.draw_card(doc, px, top, SMALL, entry["demon"])
            tainted = entry.get("tainted", [])
            doc.text(px + 2 * SMALL + 6, top + 10, f"{len(tainted)} tainted", size=11, anchor="start")
            if tainted:
                doc.text(px + 2 * SMALL + 6, top + 26, ",".join(tainted)[:9], size=10, anchor="start",
                         title="tainted: " + ", ".join(tainted))
        return y + (2 * SMALL + 10) * -(-len(demons) // per_line) if demons else y

    def draw_resolve(self, doc: Svg, x: float, y: float) -> float:
        data = self.data
        rows = data.get("resolve", [])
        y = self.section(doc, x, y, "Aelin's Resolve and strength rows" if rows else "Aelin's Resolve: not dealt yet")
        if rows and self.narrow:  # the note on a line of its own
            doc.text(x, y, "(the Resolve card at the right)", size=11, anchor="start")
            y += 18
        elif rows:
            doc.text(x + 264, y - 12, "(the Resolve card at the right)", size=11, anchor="start")
        completed = data.get("completed", 0)
        phase = data.get("phase")
        arrange = next((m for m in self.marks if m["move"].startswith("arrange ") and m["rank"] == 0), None)
        pitch = 80 if self.narrow else 62  # narrow: the row's state on a line under its cards
        for i, row in enumerate(rows):
            top = y + i * pitch
            target = str(i + 1) if phase == "reveal" else None
            mark = "complete" if i < completed else ("current" if i == completed else "")
            with doc.group(target=target, title=f"strength row {i + 1}" + (f" ({mark})" if mark else "")):
                doc.rect(x - 4, top - 4, self.panel_w, pitch - 6, fill="#EEF3F7" if mark == "current"
                         else PAPER, stroke="#B8C4CE", stroke_width=1, rx=5)
                doc.text(x + 4, top + SMALL, f"{i + 1}", size=16, anchor="start", weight="bold")
                cards = list(reversed(row.get("cards", [])))
                px = x + 24
                for name in cards:
                    self.draw_card(doc, px, top + 2, SMALL * 0.9, name)
                    px += 2 * SMALL * 0.9 + 6
                px = max(px, x + 24 + 4 * (2 * SMALL * 0.9 + 6))
                if row.get("card") == "?":
                    self.back(doc, px, top + 2, SMALL * 0.9, label="?")
                else:  # in phase arrange each Resolve card names every order it is part of
                    self.draw_card(doc, px, top + 2, SMALL * 0.9, row["card"], dashed=not row.get("faceUp"),
                                   target=row["card"] if phase == "arrange" else None)
                strengths = [self.card(c).strength for c in row.get("cards", [])]
                known = row.get("card") != "?"
                total = (self.card(row["card"]).strength if known else 0) + sum(strengths)
                text = f"total {total}" if known else f"? + {sum(strengths)}"
                state = "face up" if row.get("faceUp") else "face down"
                if row.get("atLeast"):
                    state += f", at least {row['atLeast']}"
                doc.text(px + 2 * SMALL + 8, top + 9, text + (" ✓" if i < completed else ""), size=13,
                         anchor="start", weight="bold")
                state += " · current" if mark == "current" else ""
                if self.narrow:
                    doc.text(x + 24, top + 2 * SMALL + 12, state, size=11, anchor="start")
                else:
                    doc.text(px + 2 * SMALL + 8, top + 27, state, size=11, anchor="start")
            for m in self.marks:
                if m["move"].split()[:2] == ["reveal", str(i + 1)]:
                    doc.rect(x - 6, top - 6, self.panel_w + 4, pitch - 2, fill="none", stroke=m["colour"],
                             stroke_width=3.5 if m["rank"] == 0 else 2.5, rx=6, opacity=m["opacity"],
                             cls=f"hint hint-{m['rank'] + 1}", title=f"hint {m['rank'] + 1}: {m['move']}")
                    self.value_badge(doc, x + self.panel_w - 20, top - 4, m)
        if arrange is not None:
            doc.text(x, y + len(rows) * pitch + 4, "hint: top to bottom " + arrange["move"].split()[1],
                     size=12, anchor="start", fill=arrange["colour"], weight="bold")
            return y + len(rows) * pitch + 16
        return y + len(rows) * pitch

    def draw_piles(self, doc: Svg, x: float, y: float) -> float:
        data = self.data
        deck = data.get("deckCount", len(data.get("deck", [])))
        discard = data.get("discard", [])
        box = data.get("box", [])
        y = self.section(doc, x, y, "Piles")
        for i, (label, count, names) in enumerate((("deck", deck, None), ("discard", len(discard), discard),
                                                   ("box (out of the game)", len(box), box))):
            px, top = (x + i % 2 * 150, y + i // 2 * 52) if self.narrow else (x + i * 150, y)
            doc.rect(px, top, 34, 44, fill=PAPER if i else "#5B5B7A", stroke=INK, stroke_width=1, rx=4,
                     title=(f"{label}: " + ", ".join(names)) if names else label)
            doc.text(px + 17, top + 22, str(count), size=15, fill=INK if i else PAPER, weight="bold")
            doc.text(px + 40, top + 22, label, size=12, anchor="start")
        return y + (106 if self.narrow else 54)

    # -- entries that have no place on the board ----------------------------------------------------------------
    def entry_buttons(self) -> tuple[list[str], list[str]]:
        """(buttons, card chips) for the legal entries no board element names."""
        on_board = {n for n, _, _ in self.mind} | set(self.data.get("row", []))
        phase = self.data.get("phase")
        buttons, chips = [], []
        for move in self.legal:
            words = move.split()
            if words[0] in ("add", "discard", "take", "keep") and any(
                    t in on_board for t in _tokens(move)):
                continue
            if words[0] == "reveal" and phase == "reveal":
                if len(words) == 3 and words[2] not in chips:
                    chips.append(words[2])
                continue
            if words[0] in ("chance", "flip", "resolve") and words[-1] != "?":
                if words[-1] not in chips:
                    chips.append(words[-1])
                continue
            if words[0] == "arrange" and len(self.legal) > 6:
                continue  # the Resolve cards on the board name every arrangement
            buttons.append(move)
        return buttons, chips

    def draw_entries(self, doc: Svg, x: float, y: float) -> float:
        buttons, chips = self.entry_buttons()
        if not buttons and not chips:
            return y
        phase = self.data.get("phase")
        text = {"draw": "the card drawn", "deal": "the card dealt", "dayend": "Aelin's Resolve cards, shown",
                "flip": "the Resolve card turned", "reveal": "the Resolve card turned (click its row)"}
        y = self.section(doc, x, y, "Enter: " + text.get(phase, "a move")) + 4  # room for the hint's badges
        per_line, button_w, chars = (2, 158, 22) if self.narrow else (4, 108, 16)  # narrow: wider buttons
        tall = TAP if self.narrow else 26  # a phone's buttons and chips are drawn a finger's size
        for i, move in enumerate(buttons):
            px, py = x + (i % per_line) * (button_w + 8), y + (i // per_line) * (tall + 10)
            with doc.group(target=move, title=move):  # the label is part of the button: a click on it counts
                doc.rect(px, py, button_w, tall, fill="#F2F2F2", stroke=INK, stroke_width=1, rx=6)
                doc.text(px + button_w / 2, py + tall / 2, move if len(move) <= chars else move[:chars - 1] + "…",
                         size=12)
            for m in self.marks:
                if m["move"] == move:
                    doc.rect(px - 3, py - 3, button_w + 6, tall + 6, fill="none", stroke=m["colour"],
                             stroke_width=3.5 if m["rank"] == 0 else 2.5, rx=8, opacity=m["opacity"],
                             cls=f"hint hint-{m['rank'] + 1}", title=f"hint {m['rank'] + 1}: {move}")
                    self.value_badge(doc, px + button_w - 4, py - 1, m, anchor="end")  # inside the button's width
        y += (tall + 10) * -(-len(buttons) // per_line)
        per_line = int(self.panel_w + 6) // 46 if self.narrow else 10
        for i, name in enumerate(chips):
            px, py = x + (i % per_line) * 46, y + (i // per_line) * (tall + 8)
            card = self.card(name)
            colour = DEMON if card.is_demon else SUIT_COLOURS.get(name[0].upper(), INK)
            with doc.group(target=name, title=f"{name}: " + (f"demon of {card.suit_name}" if card.is_demon else
                                                             f"{card.suit_name} {card.strength}")):
                doc.rect(px, py, 40, tall, fill=colour, stroke=INK, stroke_width=1, rx=5)
                doc.text(px + 20, py + tall / 2, name, size=12, fill=PAPER, weight="bold")
        return y + (tall + 8) * -(-len(chips) // per_line)


def _entry(text: str) -> tuple[str, int, int]:
    name, _, place = text.partition("@")
    x, _, y = place.partition(",")
    return name, int(x), int(y)


def _tokens(move: str) -> list[str]:
    return [t for t in re.split(r"[\s,;@=:()]+", move) if t]


def _pattern(mask: int) -> str:
    return "".join("#" if mask >> i & 1 else "." for i in range(4))


def svg(game: Game, position: State | View, hint: dict[str, Any] | None = None, **options: Any) -> str:
    """The Mind in its layers, the rows, the Resolve, demons and piles, drawn from ``position.to_json()``."""
    layout = options.pop("layout", "wide")
    if options or layout not in LAYOUTS:
        key = sorted(options)[0] if options else "layout"
        raise InvalidInputError(f"options.{key}", options.get(key, layout), "Embers pictures take only a layout")
    return position_svg(game, position, hint, narrow=layout == "narrow")


#: a bold label's glyph width and half its height, in ems (DejaVu Sans Bold's capitals and digits, rounded up)
LABEL_EM_WIDTH = 0.72
LABEL_EM_HALF_HEIGHT = 0.38
#: a Mind card's label is made smaller to clear a spot's ring, never under this (or the layout's least text)
LABEL_MIN = 12.0


def label_place(x: float, y: float, q: float, spots: Sequence[int], label: str, size: float, min_size: float,
                rings: Sequence[tuple[float, float]]) -> tuple[int, float, float, float]:
    """Where a Mind card's label goes (its quarter, centre and font size) so that no spot ring covers it: centred
    in the first of ``spots`` (the card's visible quarters) when that is clear, else moved within a quarter, else
    a size smaller (never under ``min_size``); where nothing is clear, the place the rings cover least. A ring (side
    ``q - 4``, stroke 2, round) is centred on the corner its spot's card would share: its outer edge lies
    ``q / 2 - 1`` from ``rings``' points, and the label keeps 1 more from it."""
    reach = q / 2
    near = [(cx, cy) for cx, cy in rings if abs(cx - x - q) <= 2 * q and abs(cy - y - q) <= 2 * q]
    sizes = [size] + [s for s in range(int(size), int(math.ceil(min_size)) - 1, -1) if s < size]
    nearest: tuple[float, tuple[int, float, float, float]] | None = None
    for font in sizes:
        half_w, half_h = LABEL_EM_WIDTH * font * len(label) / 2, LABEL_EM_HALF_HEIGHT * font
        shifts = _shifts(int(reach - 2 - half_w), int(reach - 2 - half_h))
        for spot in spots:
            cx, cy = x + spot % 2 * q + reach, y + spot // 2 * q + reach
            for dx, dy in shifts:
                gap = min((_box_distance(cx + dx, cy + dy, half_w, half_h, rx, ry) for rx, ry in near),
                          default=reach)
                if gap >= reach:
                    return spot, cx + dx, cy + dy, font
                if nearest is None or gap > nearest[0]:
                    nearest = gap, (spot, cx + dx, cy + dy, font)
    # no place is clear (a visible quarter with rings on several corners): the one the rings cover least
    return nearest[1] if nearest is not None else (spots[0], x + spots[0] % 2 * q + reach,
                                                   y + spots[0] // 2 * q + reach, size)


@lru_cache(maxsize=1024)
def _shifts(room_x: int, room_y: int) -> tuple[tuple[int, int], ...]:
    """A label's moves within ``room_x``, ``room_y`` of a quarter's centre, nearest first (none: only the centre)."""
    shifts = sorted(((dx, dy) for dx in range(-room_x, room_x + 1) for dy in range(-room_y, room_y + 1)),
                    key=lambda d: (d[0] ** 2 + d[1] ** 2, abs(d[0]), d))
    return tuple(shifts) or ((0, 0),)


def _box_distance(cx: float, cy: float, half_w: float, half_h: float, px: float, py: float) -> float:
    """The distance from point ``(px, py)`` to the box of half sides ``half_w``, ``half_h`` centred at ``(cx, cy)``."""
    return math.hypot(max(0.0, abs(px - cx) - half_w), max(0.0, abs(py - cy) - half_h))


def position_svg(game: Any, position: Any, hint: dict[str, Any] | None = None, narrow: bool = False) -> str:
    """The picture of a state or a view, from its JSON (and the legal moves of that JSON); ``narrow``: a phone's."""
    data = position.to_json()
    legal = _legal_moves(game.parse_position(data)) if not _guessed(data) else []
    return Picture(position.game, data, legal, hint, narrow=narrow).draw().render()


def _legal_moves(position: Any) -> list[str]:
    if isinstance(position, EmbersView):
        return position.legal_moves()
    return [position.action_to_string(a) for a in position.legal_actions()]


def _guessed(data: dict[str, Any]) -> bool:
    return bool(data.get("guessed"))


def puzzle_svg(game: Game, puzzle: dict[str, Any], solution: bool = False) -> str:
    """A printable Blink puzzle: the Mind, the row, the goal and the difficulty; with ``solution`` the answer's
    cards added to the Mind, numbered in order."""
    game = game.for_chapter("one")  # type: ignore[attr-defined]
    puzzle_state(game, puzzle)  # a puzzle whose position is not a Blink is refused with its field
    data = {"chapter": "one", "day": 1, "turn": "fenrys", "phase": "blink", "mind": list(puzzle["mind"]),
            "row": [] if solution else list(puzzle["row"]), "demons": [], "discard": [], "box": [], "resolve": []}
    extra = [_entry(m.split()[-1]) for m in puzzle.get("solution", [])] if solution else []
    picture = Picture(game, data, [], None, extra_adds=extra,
                      title=f"Embers of Memory puzzle {puzzle.get('id', '')}" + (": solution" if solution else ""))
    bounds = picture.mind_bounds()
    width = max(max(8, bounds[2] - bounds[0] + 1) * QUARTER + 2 * MARGIN, 600)
    scratch = Measure(width, 10)
    doc = Svg(width, _puzzle_sheet(scratch, picture, puzzle, solution, bounds) + MARGIN, title=picture.title)
    _puzzle_sheet(doc, picture, puzzle, solution, bounds)
    return doc.render()


def _puzzle_sheet(doc: Svg, picture: Picture, puzzle: dict[str, Any], solution: bool,
                  bounds: tuple[int, int, int, int]) -> float:
    doc.text(MARGIN, 26, f"Embers of Memory · Blink puzzle{' · solution' if solution else ''}", size=18,
             anchor="start", weight="bold")
    doc.text(MARGIN, 50, f"{puzzle.get('id', '')} · work {puzzle.get('work', '?')} plans", size=12, anchor="start")
    difficulty_badge(doc, doc.width - MARGIN - 12, 24, str(puzzle.get("difficulty", "")))
    y = picture.draw_mind(doc, MARGIN, 104, bounds) + 12
    if not solution:
        y = picture.draw_memory_row(doc, MARGIN, y) + 8
    lines = _wrap(str(puzzle.get("goal", "")), 80)
    if solution:
        lines += _wrap("Answer: " + "; ".join(puzzle.get("solution", [])), 80)
    for line in lines:
        doc.text(MARGIN, y + 8, line, size=13, anchor="start")
        y += 20
    return y
