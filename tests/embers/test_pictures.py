"""The Embers of Memory picture (issue 12): well-formed SVG, only what a view may show, hints and clicks."""

import contextlib
import io
import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from solver import contract
from solver import cli
from solver.embers.view import follow
from solver.puzzles import generate
from solver.search import Limits, SearchContext
from solver.testing import click_reaches as reachable, click_targets as targets, printed_sheets, svg_root as parse

from .helpers import GAME, PROLOGUE
from .test_views import BLINK, random_game

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("layout", ["wide", "narrow"])
def test_every_picture_is_svg_and_every_entry_has_a_click_target(layout):
    """States and both players' views along seeded games (Chapter One from a real table, the Prologue), the
    views' own phases included: each picture parses, and every legal move or entry can be clicked. The phone's
    picture (``layout="narrow"``) too, 356 wide with no text under 12."""
    phases = set()

    def check(game, position):
        phases.add(position.to_json()["phase"])
        picture = contract.svg(game, position, layout=layout)
        if layout == "narrow":
            assert 'viewBox="0 0 356 ' in picture
            assert min(float(size) for size in re.findall(r'font-size="([0-9.]+)"', picture)) >= 12
        names = targets(parse(picture))
        for move in contract.legal_moves(game, position):
            assert reachable(move, names), (move, position.to_notation())

    for game, seed in ((GAME, 3), (PROLOGUE, 5)):
        states, actions, last = random_game(game, seed, table=True)
        views = [states[0].view(0), states[0].view(1)]
        for step, (state, action) in enumerate(zip(states + [last], actions + [None])):
            for position in ([state] if step % 4 == 0 else []) + (views if step % 2 == 0 else []):
                check(game, position)
            if action is None:
                continue
            for view in views:
                for n, entry in enumerate(follow(view.clone(), state, action)):
                    if n:  # the entries after the first are asked by the view's own phases
                        check(game, view)
                    view.apply_move(entry)
    prologue = PROLOGUE.state_from_json({  # a relive in part one: the view waits for the card turned (flip)
        "chapter": "prologue", "part": 1, "phase": "second", "turn": "rowan", "mind": ["C4@0,0"],
        "row": ["C3", "G1a", "S2b"], "resolve": [{"card": "D1a"}, {"card": "G2b"}, {"card": "S3"}]}).view(0)
    prologue.apply_move(next(m for m in prologue.legal_moves() if m.startswith("add C3")))
    check(PROLOGUE, prologue)
    assert {"deal", "arrange", "observe", "blink", "acknowledge", "reveal", "first", "flip", "speak",
            "dayend"} <= phases


def test_view_pictures_do_not_depend_on_the_hidden_cards():
    """Full states drawn from one view give byte-identical pictures of that view (and the full state's own
    picture shows the cards the view hides)."""
    states, _, _ = random_game(GAME, 7, limit=120)
    for state in states[30::30]:
        view = state.view(0)
        rng = np.random.default_rng(2)
        pictures = {contract.svg(GAME, view.resample(rng).view(0)) for _ in range(4)}
        assert pictures == {contract.svg(GAME, view)}
        assert contract.svg(GAME, state) != contract.svg(GAME, view)
        assert "face-down Resolve card this player does not see" in contract.svg(GAME, view)  # backs


def test_a_hints_top_move_is_marked():
    view = GAME.state_from_notation(BLINK).view(0)
    hint = contract.hint(GAME, view, SearchContext(limits=Limits(nodes=30_000), seed=0), top=3).to_json()
    root = parse(contract.svg(GAME, view, hint=hint))
    marks = {el.get("class"): el for el in root.iter() if (el.get("class") or "").startswith("hint hint-")}
    assert {"hint hint-1", "hint hint-2", "hint hint-3"} <= set(marks)
    best = hint["moveInfos"][0]["move"]
    assert marks["hint hint-1"].find(f"{SVG}title").text == f"hint 1: {best}"
    assert float(marks["hint hint-1"].get("opacity") or 1) > float(marks["hint hint-2"].get("opacity"))


def test_puzzle_sheets_hold_every_puzzle(tmp_path):
    puzzles = list(generate(GAME, "blink", "easy", seed=3, count=2))
    sheets, answers = printed_sheets(GAME, puzzles, tmp_path)
    for puzzle, (sheet, solution) in zip(puzzles, sheets):
        assert puzzle["solution"][0] in answers
        assert puzzle["difficulty"] in sheet and "Answer: " + puzzle["solution"][0] in solution
        assert "Answer" not in sheet


def documented_pictures(doc: str) -> dict[str, str]:
    """The pictures docs/formats/embers.md draws: file -> the command (``memory-solver ... > docs/pictures/F``)."""
    found = re.findall(r"^(memory-solver embers show .*) > (docs/pictures/embers-[a-z-]+\.svg)$", doc, re.MULTILINE)
    return {path: command for command, path in found}


def test_the_documented_pictures_are_what_the_commands_draw(monkeypatch):
    """docs/formats/embers.md shows these pictures with the commands that make them (run from the repository
    root, they redraw them); each is exactly what its command prints."""
    doc = (ROOT / "docs" / "formats" / "embers.md").read_text()
    monkeypatch.chdir(ROOT)
    pictures = documented_pictures(doc)
    assert sorted(pictures) == ["docs/pictures/embers-state.svg", "docs/pictures/embers-table.svg",
                                "docs/pictures/embers-view-hint.svg"]
    for path, command in pictures.items():
        assert f"(../pictures/{Path(path).name})" in doc, path
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert cli.main(shlex.split(command)[1:]) == 0
        assert out.getvalue() == (ROOT / path).read_text(), path


#: a bold label's width per character and half its height, in ems (DejaVu Sans Bold's capitals and digits)
GLYPH_WIDTH, HALF_HEIGHT = 0.68, 0.36


def label_boxes(root):
    """(text, centre x, centre y, half width, half height) of every Mind card's label: bold, a suit and strength."""
    for text in root.iter(f"{SVG}text"):
        if text.get("font-weight") == "bold" and re.fullmatch(r"[CDFGS][0-9]", text.text or ""):
            size = float(text.get("font-size"))
            yield (text.text, float(text.get("x")), float(text.get("y")),
                   GLYPH_WIDTH * size * len(text.text) / 2, HALF_HEIGHT * size)


def spot_rings(root):
    """(centre x, centre y, outer radius) of every spot's ring (a round rect in a ``spot`` group)."""
    for group in root.iter(f"{SVG}g"):
        if "spot" in (group.get("class") or "").split():
            ring = group.find(f"{SVG}rect")
            half = float(ring.get("width")) / 2
            yield float(ring.get("x")) + half, float(ring.get("y")) + half, half + float(ring.get("stroke-width")) / 2


@pytest.mark.parametrize("layout", ["wide", "narrow"])
def test_no_spot_ring_covers_a_mind_cards_label(layout):
    """A phone showed 'G4' half under the ring of the spot beside it (the wide picture too): along seeded games,
    every label of a Mind card keeps clear of every spot's ring (it may touch a ring's dashed edge by less than
    1 px where its only visible quarter has rings on several corners)."""
    checked = 0
    for game, seed in ((GAME, 3), (GAME, 7), (PROLOGUE, 5)):
        states, _, _ = random_game(game, seed, limit=200)
        for state in states:
            root = parse(contract.svg(game, state, layout=layout))
            rings = list(spot_rings(root))
            for label, x, y, half_w, half_h in label_boxes(root):
                for rx, ry, radius in rings:
                    gap = np.hypot(max(0.0, abs(rx - x) - half_w), max(0.0, abs(ry - y) - half_h))
                    assert gap >= radius - 1, (layout, label, state.to_notation())
                    checked += 1
    assert checked > 1000
