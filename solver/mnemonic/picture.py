"""The Mnemonic picture (issue 12): the table as a player sees it, a hint's moves on it, and puzzle sheets.

Drawn from the position's JSON (``docs/formats/mnemonic.md``) and the legal moves the public contract lists for
it, so equal views give byte-identical pictures. At the top, the round, whose decision it is, the tally, the
Adversary's pool (one black die per complication), the deck (a card back with its count) and the discard. Below,
the scene card with its story prompt (or the Group Scene's plan), then one panel per player: their skills as
chips (suit symbol and letter, name, rating as pips; a complicated skill is hatched and marked ``C``, an injured
one crossed and marked ``I``), weavings and extra dice, and their hand (faces for the observer, or for every
player in a full state; card backs in a view). Suits have Okabe-Ito colours and always their symbol and letter.

Click targets (``data-target``): a card's code (``7H``: ``play 7H``, ``reveal 7H``, ``draw 7H``,
``group use "S" with 7H``), a skill's quoted name (``"Sneak"``: ``use "Sneak"``, ``help with "Sneak"``,
``group use "Sneak"``...), the deck (``draw``), and a button with the whole move for every other legal move
(``weave give 1``, ``roll 4``, ``group``, ``draw ?``, ``group nothing``...). When the next entry names a card
the observer has not seen (another player's card, a card drawn), the unseen cards are laid out to click.
"""

from __future__ import annotations

import re
from typing import Any

from solver.drawing import INK, PALETTE, PAPER, Svg, _wrap, difficulty_badge, format_value, hint_marks
from solver.game import View
from solver.mnemonic.cards import parse_card, prompt
from solver.mnemonic.text import puzzle_answer

WIDTH = 960
#: the narrow layout (``layout="narrow"``, a phone's): about a phone's width, every text at least 12 units, bigger
#: cards, skills and cards wrapped into rows
NARROW_WIDTH = 356
NARROW_CARD = (30, 44)
LAYOUTS = ("wide", "narrow")
MIN_TEXT = 12.0
CARD_W, CARD_H = 30, 42
SMALL_W, SMALL_H = 24, 34
SUIT_SYMBOLS = {"H": "\u2665", "D": "\u2666", "C": "\u2663", "S": "\u2660"}
SUIT_NAMES = {"hearts": "H", "diamonds": "D", "clubs": "C", "spades": "S"}
SUIT_COLOURS = {"H": PALETTE["vermillion"], "D": PALETTE["orange"], "C": PALETTE["green"], "S": PALETTE["blue"],
                "J": PALETTE["purple"]}
COMPLICATED = PALETTE["orange"]
INJURED = PALETTE["vermillion"]
PANEL = "#F4F4F4"
FOCUS = "#FFF6D6"
_TOKEN = re.compile(r'"[^"]*"|\S+')


def move_tokens(move: str) -> list[str]:
    """A move's tokens: words, and each quoted skill name as one token."""
    return _TOKEN.findall(move)


def reachable(move: str, targets: set[str]) -> bool:
    """A click on some target names the move: the whole move, or one of its tokens."""
    return move in targets or any(token in targets for token in move_tokens(move))


def suit_of(code: str) -> str:
    return "J" if code in ("RJ", "BJ") else code[-1]


class Picture:
    """One drawing: the document, where each target was drawn (for the hint marks), and the cursor."""

    def __init__(self, height: float, title: str, narrow: bool = False) -> None:
        self.narrow = narrow
        self.width = NARROW_WIDTH if narrow else WIDTH
        self.doc = Svg(self.width, height, title=title)
        self.anchors: dict[str, tuple[float, float, float, float]] = {}

    def size(self, size: float) -> float:
        """A font size: as given, or at least 12 in the narrow layout."""
        return max(size, MIN_TEXT) if self.narrow else size

    @property
    def small(self) -> tuple[float, float]:
        """The size of a small card (the discard, a hand, a Group Scene's plan)."""
        return NARROW_CARD if self.narrow else (SMALL_W, SMALL_H)

    def anchor(self, target: str, box: tuple[float, float, float, float]) -> None:
        self.anchors.setdefault(target, box)

    # -- pieces -------------------------------------------------------------------------------------
    def card(self, x: float, y: float, code: str, w: float = CARD_W, h: float = CARD_H, target: str | None = None,
             title: str | None = None) -> None:
        suit = suit_of(code)
        colour = SUIT_COLOURS[suit]
        rank = "J" if suit == "J" else code[:-1]
        symbol = "\u2605" if suit == "J" else SUIT_SYMBOLS[suit]
        with self.doc.group(target=target, title=title or code):
            self.doc.rect(x, y, w, h, fill=PAPER, stroke=colour, stroke_width=2.0, rx=4)
            self.doc.rect(x + 2, y + 2, w - 4, h * 0.42, fill=colour, rx=2, opacity=0.22)
            self.doc.text(x + w / 2, y + h * 0.27, code if suit == "J" else ("10" if rank == "T" else rank),
                          size=self.size(h * (0.26 if suit == "J" else 0.3)), fill=INK, weight="bold")
            self.doc.text(x + w / 2, y + h * 0.7, symbol, size=h * 0.38, fill=colour)
        if target:
            self.anchor(target, (x, y, w, h))

    def back(self, x: float, y: float, w: float = CARD_W, h: float = CARD_H, label: str | None = None,
             title: str | None = None) -> None:
        self.doc.card_back(x, y, w, h, label=label, title=title)

    def die(self, x: float, y: float, size: float, fill: str, pip: str, face: int | None = None,
            title: str | None = None) -> None:
        """A die: ``face`` pips, or one pip in the middle (a die not yet rolled)."""
        self.doc.rect(x, y, size, size, fill=fill, stroke=INK, stroke_width=1.0, rx=size * 0.18)
        spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
                 5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}
        for gx, gy in spots[face or 1]:
            self.doc.circle(x + size * (0.25 + 0.25 * gx), y + size * (0.25 + 0.25 * gy), size * 0.08, fill=pip)

    def button(self, x: float, y: float, label: str, target: str, width: float | None = None) -> float:
        """A labelled button; returns its width."""
        w = width or max(54.0, 7.2 * len(label) + 18)
        with self.doc.group(target=target, title=label):
            self.doc.rect(x, y, w, 24, fill=PAPER, stroke=INK, stroke_width=1.2, rx=12)
            self.doc.text(x + w / 2, y + 12, label, size=12)
        self.anchor(target, (x, y, w, 24))
        return w

    def skill(self, x: float, y: float, skill: dict[str, Any], player: int, width: float) -> float:
        """A skill chip ``width`` wide at most (a long name is shortened with an ellipsis); returns its width."""
        suit = SUIT_NAMES[skill["suit"]]
        colour = SUIT_COLOURS[suit]
        status = skill["status"]
        name = skill["name"]
        w = min(width, chip_width(name))
        room = int((w - 64) / 6.6)
        shown = name if len(name) <= room else name[:max(1, room - 1)] + "\u2026"
        target = f'"{name}"'
        with self.doc.group(target=target, title=f"{name}: {skill['suit']}, rating {skill['rating']}, {status}"):
            self.doc.rect(x, y, w, 40, fill=PAPER, stroke=colour, stroke_width=2.0, rx=6)
            self.doc.rect(x, y, 26, 40, fill=colour, rx=6)
            self.doc.text(x + 13, y + 13, SUIT_SYMBOLS[suit], size=15, fill=PAPER)
            self.doc.text(x + 13, y + 30, suit, size=self.size(11), fill=PAPER, weight="bold")
            self.doc.text(x + 32, y + 13, shown, size=12, anchor="start")
            for k in range(skill["rating"]):
                self.doc.rect(x + 32 + 11 * k, y + 24, 9, 9, fill=INK, rx=2)
            if "complicated" in status:
                for k in range(4):
                    self.doc.line(x + 28 + k * (w - 28) / 4, y + 40, x + 28 + (k + 1) * (w - 28) / 4, y,
                                  stroke=COMPLICATED, width=2.0, opacity=0.55)
            flags = ("C" if "complicated" in status else "") + ("I" if "injured" in status else "")
            if "injured" in status:
                self.doc.line(x + 28, y + 4, x + w - 4, y + 36, stroke=INJURED, width=2.5)
            if flags:
                self.doc.badge(x + w - 14, y + 12, flags, fill=INJURED if "I" in flags else COMPLICATED,
                               size=self.size(10))
        self.anchor(f"{player}:{target}", (x, y, w, 40))
        return w


def svg(game: Any, position: Any, hint: dict[str, Any] | None = None, **options: Any) -> str:
    """The picture of a state or a view (``hint``: a hint's JSON, drawn on it)."""
    narrow = options.get("layout", "wide") == "narrow"
    return draw(game, game.parse_position(position), hint, options.get("caption"), narrow=narrow).doc.render()


def draw(game: Any, position: Any, hint: dict[str, Any] | None = None, caption: str | None = None,
         badge: tuple[str, str] | None = None, narrow: bool = False) -> Picture:
    """Lay the picture out twice: once to measure its height, once to draw it (``narrow``: a phone's layout)."""
    height = 2000.0
    for _ in range(2):
        pic, bottom = _draw_once(game, position, hint, caption, badge, height, narrow)
        height = bottom
    return pic


def _draw_once(game: Any, position: Any, hint: dict[str, Any] | None, caption: str | None,
               badge: tuple[str, str] | None, height: float, narrow: bool) -> tuple[Picture, float]:
    data = position.to_json()
    legal = position.legal_moves() if isinstance(position, View) else [position.action_to_string(a)
                                                                        for a in position.legal_actions()]
    actor = position.current_player()
    observer = data.get("view")
    title = f"Mnemonic ({data['mode']}), round {data['round']}" + (f", player {observer}'s view"
                                                                     if observer is not None else "")
    pic = Picture(height, title, narrow)
    y = (_narrow_header if narrow else _header)(pic, data, actor, observer)
    y = (_narrow_scene if narrow else _scene)(pic, data, y)
    for q, player in enumerate(data["players"]):
        y = (_narrow_player if narrow else _player)(pic, data, q, player, actor, observer, y)
    y = _entries(pic, legal, _unseen_entries(data, legal), y)
    y = _hint(pic, hint, y)
    if caption:
        for line in _wrap(caption, 44 if narrow else 130):
            pic.doc.text(20, y + 12, line, size=12, anchor="start", fill=INK)
            y += 18
        y += 6
    if badge:
        difficulty_badge(pic.doc, pic.width - 20, 64, badge[0])
        pic.doc.text(pic.width - 110, 64, badge[1], size=pic.size(11), anchor="end", fill="#555555")
    return pic, y + 10


def _header(pic: Picture, data: dict[str, Any], actor: int, observer: int | None) -> float:
    doc = pic.doc
    tally = data["tally"]
    who = _whose_decision(data, actor)
    doc.text(20, 22, f"Mnemonic \u00b7 {data['mode'].replace('-', ' ').title()} \u00b7 round {data['round']}",
             size=18, anchor="start", weight="bold")
    doc.text(20, 46, f"phase {data['phase']}: {who}", size=13, anchor="start")
    seen = "full state (every hand)" if observer is None else f"player {observer}'s view"
    doc.text(WIDTH - 20, 22, seen, size=13, anchor="end", italic=True)
    doc.text(WIDTH - 20, 46, f"Group Scenes: {tally['victories']} won, {tally['defeats']} lost, {tally['draws']} "
                             "drawn", size=12, anchor="end")
    pool = _pool_size(data)
    doc.text(20, 78, f"Adversary's pool: {pool} {'die' if pool == 1 else 'dice'}", size=13, anchor="start",
             weight="bold")
    for k in range(min(pool, 24)):
        pic.die(200 + 22 * k, 68, 18, INK, PAPER)
    if pool > 24:
        doc.text(200 + 22 * 24 + 4, 78, f"+{pool - 24}", size=12, anchor="start")
    deck = data.get("deckSize", len(data.get("deck", [])))
    doc.text(20, 116, "deck", size=12, anchor="start")
    if deck:
        with doc.group(target="draw", title=f"the deck: {deck} cards"):
            pic.back(60, 96, SMALL_W + 6, SMALL_H + 6, label=str(deck))
        pic.anchor("draw", (60, 96, SMALL_W + 6, SMALL_H + 6))
    else:
        doc.rect(60, 96, SMALL_W + 6, SMALL_H + 6, fill="none", stroke="#999999", dash="4 3", rx=3)
        doc.text(60 + (SMALL_W + 6) / 2, 96 + (SMALL_H + 6) / 2, "0", size=11, fill="#777777")
    discard = data["discard"]
    doc.text(120, 116, f"discard ({len(discard)})", size=12, anchor="start")
    x = 200.0
    for entry in discard[-22:]:
        pic.card(x, 98, entry["card"], SMALL_W, SMALL_H, title=f"{entry['card']}, played by player {entry['by']}")
        doc.text(x + SMALL_W / 2, 98 + SMALL_H + 8, str(entry["by"]), size=9, fill="#555555")
        x += SMALL_W + 5
    if len(discard) > 22:
        doc.text(x + 4, 116, f"(+{len(discard) - 22} earlier)", size=11, anchor="start", fill="#555555")
    return 160.0


def _scene(pic: Picture, data: dict[str, Any], y: float) -> float:
    doc = pic.doc
    scene, group = data.get("scene"), data.get("group")
    doc.rect(14, y, WIDTH - 28, 74, fill=PANEL, rx=8)
    if scene and scene.get("card"):
        code = scene["card"]
        pic.card(26, y + 8, code, 42, 58, title=f"the scene card {code}")
        leader = data["players"][data["focus"]]["name"]
        doc.text(82, y + 20, f"{leader}'s Individual Scene: \u201c{prompt(parse_card(code))}\u201d", size=13,
                 anchor="start", weight="bold")
        doc.text(82, y + 44, _scene_words(scene), size=12, anchor="start")
        if scene.get("roll") is not None:
            doc.text(82, y + 64, "highest die:", size=12, anchor="start")
            roll = scene["roll"]
            if roll:
                pic.die(162, y + 53, 20, PAPER, INK, face=roll, title=f"rolled {roll}")
            doc.text(190, y + 64, "6: success" if roll == 6 else "no 6: the skill is complicated unless woven",
                     size=12, anchor="start", fill=INK)
    elif group:
        doc.text(26, y + 20, f"Group Scene: the plan (turn {group['turn']})", size=13, anchor="start", weight="bold")
        x = 26.0
        for q, (card, skill) in enumerate(zip(group["cards"], group["skills"])):
            doc.text(x, y + 44, f"{data['players'][q]['name']}:", size=12, anchor="start")
            if card:
                pic.card(x + 76, y + 28, card, SMALL_W, SMALL_H)
            doc.text(x + 106, y + 44, skill or "-", size=12, anchor="start")
            x += 230
    else:
        doc.text(26, y + 38, _between_scenes(data), size=14, anchor="start", weight="bold")
    return y + 86


def _whose_decision(data: dict[str, Any], actor: int) -> str:
    return (f"{data['players'][actor]['name']} (player {actor}) decides" if actor >= 0 else
            "the session is over" if data["phase"] == "over" else "chance: the next outcome is entered")


def _pool_size(data: dict[str, Any]) -> int:
    """The Adversary's pool: as the position gives it, else one die per complicated skill (MN-22)."""
    pool = data.get("adversaryPool")
    return sum("complicated" in s["status"] for p in data["players"] for s in p["skills"]) if pool is None else pool


def _scene_words(scene: dict[str, Any]) -> str:
    """The Individual Scene so far: its skill, its helper, or that it was played without a roll."""
    parts = []
    if scene.get("skill"):
        parts.append(f"skill {scene['skill']}" + (" (learned)" if scene.get("learned") else ""))
    if scene.get("helper") is not None:
        parts.append(f"helped by player {scene['helper']}"
                     + (f" with {scene['helperSkill']}" if scene.get("helperSkill") else ""))
    if scene.get("passed"):
        parts.append("played without a roll")
    return "; ".join(parts) or "choosing a skill"


def _between_scenes(data: dict[str, Any]) -> str:
    """What happens when no scene is under way (the table's choice, the deal, the next scene's card)."""
    return {"table": "the table chooses: a Group Scene, another round, or the end",
            "after-victory": "Victory! Another round, or the end",
            "after-defeat": f"{data.get('lastOutcome', '')}: try again, regroup or retreat",
            "deal": _deal_text(data), "over": "the session is over",
            "scene-card": f"{data['players'][data['focus']]['name']} leads the next Individual Scene: a card "
                          "from hand, or one drawn from the deck",
            "scene-draw": f"{data['players'][data['focus']]['name']} draws the scene's card from the deck"
            }.get(data["phase"], "")


def chip_width(name: str) -> float:
    return max(120.0, 6.6 * len(name) + 64)


def _deal_text(data: dict[str, Any]) -> str:
    dealt = sum(len(p["hand"]) if "hand" in p else p.get("handSize", 0) for p in data["players"])
    to = data["players"][dealt % len(data["players"])]["name"]
    return f"the deal: card {dealt + 1} goes to {to}"


def _player(pic: Picture, data: dict[str, Any], q: int, player: dict[str, Any], actor: int,
            observer: int | None, y: float) -> float:
    doc = pic.doc
    cards = player.get("hand")
    rows = 1 if cards is None else 1 + max(0, (len(cards) - 1) // 24)
    height = 132 + 48 * (rows - 1)
    _player_heading(pic, q, player, q == actor, q == observer, (14, y, WIDTH - 28, height), (26, y + 16),
                    (250, y + 16), 410)
    x = 26.0
    skills = player["skills"]
    natural = sum(chip_width(s["name"]) for s in skills) + 8 * max(0, len(skills) - 1)
    fair = (WIDTH - 52 - 8 * max(0, len(skills) - 1)) / max(1, len(skills))
    for skill in skills:
        x += pic.skill(x, y + 28, skill, q, chip_width(skill["name"]) if natural <= WIDTH - 52 else fair) + 8
    hand_y = y + 84
    if cards is None:
        size = player.get("handSize", 0)
        doc.text(26, hand_y + 18, f"hand: {size} hidden" if size else "hand: none", size=12, anchor="start")
        for k in range(min(size, 12)):
            pic.back(130 + 14 * k, hand_y, SMALL_W, SMALL_H, title=f"{size} cards you cannot see")
        if size > 12:
            doc.text(130 + 14 * 12 + SMALL_W + 6, hand_y + 18, f"\u00d7{size}", size=12, anchor="start")
    else:
        doc.text(26, hand_y + 18, f"hand ({len(cards)})" if cards else "hand: none", size=12, anchor="start")
        for k, code in enumerate(cards):
            row, col = divmod(k, 24)
            pic.card(100 + col * (SMALL_W + 6), hand_y + row * 46, code, SMALL_W + 4, SMALL_H + 4, target=code)
    pic.anchor(f"player {q}", (14, y, WIDTH - 28, height))
    return y + height + 8


# -- the narrow layout (a phone's) -------------------------------------------------------------------------
def _narrow_header(pic: Picture, data: dict[str, Any], actor: int, observer: int | None) -> float:
    """The header stacked line under line: round, whose decision, whose view, the tally, the Adversary's pool (its
    dice in rows), then the deck and the last discards."""
    doc = pic.doc
    tally = data["tally"]
    who = _whose_decision(data, actor)
    doc.text(16, 20, f"Mnemonic \u00b7 {data['mode'].replace('-', ' ').title()} \u00b7 round {data['round']}",
             size=16, anchor="start", weight="bold")
    y = 44.0
    for line in _wrap(f"phase {data['phase']}: {who}", 42):
        doc.text(16, y, line, size=13, anchor="start")
        y += 18
    seen = "full state (every hand)" if observer is None else f"player {observer}'s view"
    doc.text(16, y, seen, size=13, anchor="start", italic=True)
    doc.text(pic.width - 16, y, f"won {tally['victories']} \u00b7 lost {tally['defeats']} \u00b7 drawn "
                                f"{tally['draws']}", size=12, anchor="end")
    y += 26
    pool = _pool_size(data)
    doc.text(16, y, f"Adversary's pool: {pool} {'die' if pool == 1 else 'dice'}", size=13, anchor="start",
             weight="bold")
    y += 12
    per_row = int((pic.width - 32) // 22)
    for k in range(min(pool, 2 * per_row)):
        row, col = divmod(k, per_row)
        pic.die(16 + 22 * col, y + 22 * row, 18, INK, PAPER)
    if pool > 2 * per_row:
        doc.text(pic.width - 16, y + 30, f"+{pool - 2 * per_row}", size=12, anchor="end")
    y += 22 * min(2, (pool + per_row - 1) // per_row) + 8
    deck = data.get("deckSize", len(data.get("deck", [])))
    w, h = pic.small
    doc.text(16, y + 8, "deck", size=12, anchor="start")
    if deck:
        with doc.group(target="draw", title=f"the deck: {deck} cards"):
            pic.back(16, y + 18, 38, h + 8, label=str(deck))
        pic.anchor("draw", (16, y + 18, 38, h + 8))
    else:
        doc.rect(16, y + 18, 38, h + 8, fill="none", stroke="#999999", dash="4 3", rx=3)
        doc.text(16 + 19, y + 18 + (h + 8) / 2, "0", size=12, fill="#777777")
    discard = data["discard"]
    doc.text(66, y + 8, f"discard ({len(discard)})", size=12, anchor="start")
    shown = int((pic.width - 66 - 8) // (w + 4))
    x = 66.0
    for entry in discard[-shown:]:
        pic.card(x, y + 18, entry["card"], w, h, title=f"{entry['card']}, played by player {entry['by']}")
        doc.text(x + w / 2, y + 18 + h + 10, str(entry["by"]), size=12, fill="#555555")
        x += w + 4
    if len(discard) > shown:
        doc.text(pic.width - 16, y + 8, f"(+{len(discard) - shown} earlier)", size=12, anchor="end", fill="#555555")
    return y + 18 + h + 24


def _narrow_scene(pic: Picture, data: dict[str, Any], y: float) -> float:
    """The scene panel with its words wrapped beside the card (or the Group Scene's plan, a player a line)."""
    doc = pic.doc
    scene, group = data.get("scene"), data.get("group")
    lines: list[tuple[str, float, bool]] = []   # (text, size, bold), drawn from x = 66 beside the card
    roll = None
    if scene and scene.get("card"):
        code = scene["card"]
        leader = data["players"][data["focus"]]["name"]
        lines += [(t, 13, True) for t in _wrap(f"{leader}'s Individual Scene: \u201c{prompt(parse_card(code))}\u201d",
                                                34)]
        lines += [(t, 12, False) for t in _wrap(_scene_words(scene), 38)]
        roll = scene.get("roll")
        height = max(74.0, 16 + 18 * len(lines) + (52 if roll is not None else 0))
        doc.rect(8, y, pic.width - 16, height, fill=PANEL, rx=8)
        pic.card(16, y + 8, code, 42, 58, title=f"the scene card {code}")
        for i, (text, size, bold) in enumerate(lines):
            doc.text(66, y + 18 + 18 * i, text, size=size, anchor="start", weight="bold" if bold else None)
        if roll is not None:
            top = y + 18 + 18 * len(lines)
            doc.text(66, top + 4, "highest die:", size=12, anchor="start")
            if roll:
                pic.die(146, top - 7, 20, PAPER, INK, face=roll, title=f"rolled {roll}")
            words = "6: success" if roll == 6 else "no 6: the skill is complicated unless woven"
            for i, text in enumerate(_wrap(words, 38)):
                doc.text(66, top + 24 + 18 * i, text, size=12, anchor="start", fill=INK)
        return y + height + 10
    if group:
        w, h = pic.small
        height = 30 + (h + 8) * len(group["cards"])
        doc.rect(8, y, pic.width - 16, height, fill=PANEL, rx=8)
        doc.text(16, y + 18, f"Group Scene: the plan (turn {group['turn']})", size=13, anchor="start", weight="bold")
        for q, (card, skill) in enumerate(zip(group["cards"], group["skills"])):
            top = y + 30 + (h + 8) * q
            doc.text(16, top + h / 2, f"{data['players'][q]['name']}:", size=12, anchor="start")
            if card:
                pic.card(110, top, card, w, h)
            doc.text(150, top + h / 2, skill or "-", size=12, anchor="start")
        return y + height + 10
    text = _between_scenes(data)
    wrapped = _wrap(text, 36) if text else []
    height = max(40.0, 16 + 20 * len(wrapped))
    doc.rect(8, y, pic.width - 16, height, fill=PANEL, rx=8)
    for i, line in enumerate(wrapped):
        doc.text(16, y + 18 + 20 * i, line, size=14, anchor="start", weight="bold")
    return y + height + 10


def _narrow_player(pic: Picture, data: dict[str, Any], q: int, player: dict[str, Any], actor: int,
                   observer: int | None, y: float) -> float:
    """A player's panel: name, weavings and extra dice, skills two to a row, the hand in rows."""
    doc = pic.doc
    inner = pic.width - 32
    chips: list[tuple[float, float, dict[str, Any], float]] = []  # x, y offset, skill, width
    x, row_y = 16.0, 44.0
    for skill in player["skills"]:
        w = min(chip_width(skill["name"]), inner)
        if x > 16 and x + w > 16 + inner:
            x, row_y = 16.0, row_y + 48
        chips.append((x, row_y, skill, w))
        x += w + 8
    cards = player.get("hand")
    cw, ch = pic.small
    per_row = int(inner // (cw + 6))
    hand_y = row_y + 50
    shown = player.get("handSize", 0) if cards is None else len(cards)
    rows = min(1, shown) if cards is None else (len(cards) + per_row - 1) // per_row  # backs overlap in one row
    height = hand_y + 16 + (ch + 10) * rows
    _player_heading(pic, q, player, q == actor, q == observer, (8, y, pic.width - 16, height), (16, y + 16),
                    (16, y + 34), 190)
    for cx, cy, skill, w in chips:
        pic.skill(cx, y + cy, skill, q, w)
    if cards is None:
        size = player.get("handSize", 0)
        doc.text(16, y + hand_y + 8, f"hand: {size} hidden" if size else "hand: none", size=12, anchor="start")
        for k in range(min(size, per_row * 2)):
            pic.back(16 + 14 * k, y + hand_y + 20, cw, ch, title=f"{size} cards you cannot see")
    else:
        doc.text(16, y + hand_y + 8, f"hand ({len(cards)})" if cards else "hand: none", size=12, anchor="start")
        for k, code in enumerate(cards):
            row, col = divmod(k, per_row)
            pic.card(16 + col * (cw + 6), y + hand_y + 20 + row * (ch + 10), code, cw + 4, ch + 4, target=code)
    pic.anchor(f"player {q}", (8, y, pic.width - 16, height))
    return y + height + 8


def _player_heading(pic: Picture, q: int, player: dict[str, Any], deciding: bool, me: bool,
                    box: tuple[float, float, float, float], name_at: tuple[float, float],
                    weavings_at: tuple[float, float], dots_x: float) -> None:
    """A player's panel (outlined when they decide), their name, and their weavings (as dots) and extra dice."""
    doc = pic.doc
    doc.rect(*box, fill=FOCUS if deciding else PANEL, rx=8, stroke=INK if deciding else None,
             stroke_width=1.5 if deciding else None)
    doc.text(*name_at, f"{q} \u00b7 {player['name']}{' (you)' if me else ''}", size=13, anchor="start", weight="bold")
    doc.text(*weavings_at, f"weavings {player['weavings']} \u00b7 extra dice {player['bonusDice']}", size=12,
             anchor="start")
    for k in range(player["weavings"]):
        doc.circle(dots_x + 14 * k, weavings_at[1], 5, fill=PALETTE["purple"], title="a weaving left")


def _unseen_entries(data: dict[str, Any], legal: list[str]) -> list[str]:
    """Cards named by the legal entries that the picture shows nowhere else (cards the observer has not seen)."""
    shown = {c for p in data["players"] for c in p.get("hand", [])}
    out = []
    for move in legal:
        for token in move_tokens(move):
            if re.fullmatch(r"(RJ|BJ|[2-9TJQKA][HDCS])", token) and token not in shown and token not in out:
                out.append(token)
    return out


def _entries(pic: Picture, legal: list[str], unseen: list[str], y: float) -> float:
    doc = pic.doc
    if unseen:
        w, h = pic.small
        per_row = int((pic.width - 40) // (w + 9)) if pic.narrow else 27
        words = "cards in no hand shown here: click the one played, drawn or dealt"
        for line in _wrap(words, 44) if pic.narrow else [words]:
            doc.text(26, y + 12, line, size=12, anchor="start")
            y += 18 if pic.narrow else 0
        for k, code in enumerate(unseen):
            row, col = divmod(k, per_row)
            pic.card(26 + col * (w + 9), y + 24 + row * (h + 16), code, w + 4, h + 4, target=code)
        y += 24 + (h + 16) * ((len(unseen) + per_row - 1) // per_row)
    targets = set(pic.anchors)
    rest = [m for m in legal if not reachable(m, targets)]
    if rest:
        doc.text(26, y + 16, "moves:", size=12, anchor="start")
        x = 80.0
        for move in rest:
            w = max(54.0, 7.2 * len(move) + 18)
            if x + w > pic.width - 20:
                x, y = 80.0, y + 30
            x += pic.button(x, y + 4, move, move) + 16
        y += 34
    return y + 6


def _hint(pic: Picture, hint: dict[str, Any] | None, y: float) -> float:
    marks = hint_marks(hint)
    if not marks:
        return y
    doc = pic.doc
    meaning = (hint.get("rootInfo") or {}).get("valueMeaning") if isinstance(hint, dict) else None
    lines = []
    for mark in marks:
        box = _box_of(pic, mark["move"])
        value = format_value(mark["value"], meaning)
        lines.append(f"{mark['rank'] + 1}. {mark['move']} \u2014 {value}")
        if box is None:
            continue
        x, by, w, h = box
        doc.rect(x - 4, by - 4, w + 8, h + 8, fill="none", stroke=mark["colour"], stroke_width=4.0 - mark["rank"],
                 rx=6, opacity=mark["opacity"], dash=None if mark["rank"] == 0 else "5 3")
        if mark["rank"] == 0:  # the best move's value; the next two are numbered (their values are listed below)
            doc.badge(x + w / 2, by - 12, value, fill=mark["colour"], size=pic.size(10))
        else:
            doc.circle(x - 4, by - 4, 10 if pic.narrow else 7, fill=mark["colour"], opacity=mark["opacity"])
            doc.text(x - 4, by - 4, str(mark["rank"] + 1), size=pic.size(9), fill=PAPER, weight="bold")
    if pic.narrow:  # each line wrapped to the narrow picture
        rows = [(k, part) for k, line in enumerate(lines) for part in _wrap(("hint: " if k == 0 else "") + line, 44)]
        for i, (k, part) in enumerate(rows):
            doc.text(16, y + 14 + 18 * i, part, size=12, anchor="start", fill=PALETTE["blue"],
                     weight="bold" if k == 0 else None, opacity=marks[k]["opacity"] if k else None)
        return y + 18 * len(rows) + 6
    for k, line in enumerate(lines):
        doc.text(26, y + 14 + 18 * k, ("hint: " if k == 0 else "      ") + line, size=12, anchor="start",
                 fill=PALETTE["blue"], weight="bold" if k == 0 else None, opacity=marks[k]["opacity"] if k else None)
    return y + 18 * len(lines) + 6


def _box_of(pic: Picture, move: str) -> tuple[float, float, float, float] | None:
    """Where a hinted move is drawn: its button, its card, or the acting player's skill."""
    if move in pic.anchors:
        return pic.anchors[move]
    for token in move_tokens(move):
        if token in pic.anchors:
            return pic.anchors[token]
    for token in move_tokens(move):
        for key, box in pic.anchors.items():
            if key.endswith(":" + token):
                return box
    return None


# -- puzzle sheets -----------------------------------------------------------------------------------------
def puzzle_svg(game: Any, puzzle: dict[str, Any], solution: bool = False) -> str:
    """A printable best-call puzzle: the player's view, the question, the difficulty badge (and the answer)."""
    view = game.parse_position(puzzle["position"], "puzzle.position")
    hint = None
    if solution:
        hint = {"moveInfos": [{"move": puzzle["solution"], "value": puzzle["value"]}],
                "rootInfo": {"valueMeaning": "probability"}}
    caption = f"answer: {puzzle_answer(puzzle)}" if solution else puzzle.get("question", "")
    return draw(game, view, hint, caption, (puzzle.get("difficulty", ""), puzzle.get("id", ""))).doc.render()
