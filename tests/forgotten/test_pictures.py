"""The Forgotten picture (issue 12): well-formed SVG, only what a view may show, hints and clicks on the board."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from solver import cli
from solver.puzzles import generate
from solver.registry import load_game
from solver.search import Limits, SearchContext
from solver.testing import click_reaches as reachable, click_targets as targets, printed_sheets, svg_root as parse
from solver import contract

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
STATE = "Afepjm/o-gfdnk/@OQAIl/nhECk@/mipbdj/qlcbgh 3 second 1,1"
#: the pictures of docs/formats/forgotten.md, and the commands that make them (run from the repository root)
PICTURES = {
    "docs/pictures/forgotten-state.svg": f'memory-solver forgotten show "{STATE}" --svg',
    "docs/pictures/forgotten-view-hint.svg": f'memory-solver forgotten show "{STATE}" --player 0 --svg --hint '
                                             "--nodes 3000",
    "docs/pictures/forgotten-table.svg": 'memory-solver forgotten show "view:0 ?A+C?/@+CB@/???-? 2 first flipped '
                                         '1,1" --svg',
}


def played(spec: str, seed: int):
    game = load_game(spec)
    state = game.new_game(seed)
    rng = np.random.default_rng(seed)
    out = [state.clone()]
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(int(rng.choice(legal[:-1] if len(legal) > 1 and not state.is_chance_node() else legal)))
        out.append(state.clone())
    return game, out


def picture(game, position, layout):
    """The picture in ``layout``; a phone's is 356 wide with no text under 12."""
    drawn = contract.svg(game, position, layout=layout)
    if layout == "narrow":
        assert 'viewBox="0 0 356 ' in drawn
        assert min(float(size) for size in re.findall(r'font-size="([0-9.]+)"', drawn)) >= 12
    return drawn


@pytest.mark.parametrize("spec, layout", [("forgotten(width=4,height=3,erasure=turn)", "wide"),
                                          ("forgotten(width=4,height=3,erasure=turn)", "narrow"),
                                          ("forgotten(width=8,height=8)", "narrow")])
def test_every_picture_is_svg_and_every_legal_move_has_a_click_target(spec, layout):
    """Every legal move is a click on the picture, the phone's (``layout="narrow"``) too."""
    game, states = played(spec, 3)
    for state in states:
        for position in (state, state.view(0)):
            root = parse(picture(game, position, layout))
            names = targets(root)
            for move in game.legal_moves(position):
                assert reachable(move, names), (move, position.to_notation())
        view = state.view(0)
        unseen = next((m for m in view.legal_moves() if m.startswith("flip") and view.child(m).is_chance_node()), None)
        if unseen:                                        # the tile a flip shows is entered by clicking its letter
            waiting = view.child(unseen)
            names = targets(parse(picture(game, waiting, layout)))
            assert all(reachable(m, names) for m in waiting.legal_moves())


def test_fg13_view_pictures_do_not_depend_on_the_hidden_tiles():
    game = load_game("forgotten")
    state = game.new_game(6)
    for move in ("flip 2,3", "flip 3,3", "flip 4,4", "flip 5,2", "erase 1,1"):
        state.apply_move(move)
    rng = np.random.default_rng(1)
    pictures = {contract.svg(game, state.resample_from_observation(0, rng).view(0)) for _ in range(4)}
    assert len(pictures) == 1
    assert contract.svg(game, state) != pictures.pop()                      # the full state shows the unseen pairs


def test_a_hints_top_move_is_marked_on_its_cell():
    game = load_game("forgotten")
    view = game.parse_position(STATE).view(0)
    hint = contract.hint(game, view, SearchContext(limits=Limits(nodes=1500), seed=0), top=3).to_json()
    root = parse(contract.svg(game, view, hint=hint))
    marks = {el.get("class"): el for el in root.iter(f"{SVG}rect") if (el.get("class") or "").startswith("hint")}
    assert set(marks) == {"hint hint-1", "hint hint-2", "hint hint-3"}
    best = hint["moveInfos"][0]["move"]
    title = marks["hint hint-1"].find(f"{SVG}title").text
    assert title.startswith(f"hint 1: {best} (")
    assert float(marks["hint hint-1"].get("opacity") or 1) > float(marks["hint hint-2"].get("opacity"))


def test_puzzle_sheets_hold_every_puzzle(tmp_path):
    game = load_game("forgotten")
    puzzles = list(generate(game, "forced-connection", "easy", seed=2, count=2))
    sheets, _ = printed_sheets(game, puzzles, tmp_path)
    for puzzle, (_, solution) in zip(puzzles, sheets):
        assert "answer" in solution and puzzle["difficulty"] in solution


def test_the_documented_pictures_are_what_the_commands_draw(monkeypatch):
    doc = (ROOT / "docs" / "formats" / "forgotten.md").read_text()
    monkeypatch.chdir(ROOT)
    for path, command in PICTURES.items():
        assert f"{command} > {path}" in doc and f"(../pictures/{Path(path).name})" in doc, path
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert cli.main(shlex.split(command)[1:]) == 0
        assert out.getvalue() == (ROOT / path).read_text(), f"{path} is stale: run `{command} > {path}`"


def write() -> None:
    """Regenerate the documented pictures (``python tests/forgotten/test_pictures.py``)."""
    import os
    os.chdir(ROOT)
    for path, command in PICTURES.items():
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            cli.main(shlex.split(command)[1:])
        Path(path).write_text(out.getvalue())


if __name__ == "__main__":
    write()
    print(json.dumps(sorted(PICTURES)))
