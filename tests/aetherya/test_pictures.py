"""Pictures (issue 12): standalone SVG of states, views, hints and puzzles; views invariant under hidden cards;
every legal move reachable by clicking a target; the documented pictures regenerate byte for byte."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from solver import contract
from solver import cli
from solver.aetherya.game import AetheryaGame
from solver.aetherya.playout import greedy_action, sample_chance
from solver.drawing import svg
from solver.puzzles import generate
from solver.search import Limits, SearchContext
from solver.testing import click_reaches as reachable, click_targets as targets, printed_sheets, svg_root as parse

ROOT = Path(__file__).resolve().parents[2]
NS = "{http://www.w3.org/2000/svg}"
MODES = [{}, {"players": 4}, {"mode": "coop", "players": 3}, {"mode": "solo"}, {"mode": "objects"}]


def positions(kwargs, seed, every=7, limit=12):
    """States along a seeded game from the undealt root (setup, play, the end)."""
    game = AetheryaGame(**kwargs)
    state, rng = game.new_root_state(), np.random.default_rng(seed)
    out, step = [], 0
    while not state.is_terminal() and len(out) < limit:
        if step % every == 0 or state.phase in ("arrange", "swap", "block", "keep", "tile", "end-turn",
                                                "legend-discard") and step % 3 == 0:
            out.append(state.clone())
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else greedy_action(state, rng))
        step += 1
    out.append(state)
    return game, out


@pytest.mark.parametrize("kwargs", MODES)
def test_every_legal_move_can_be_clicked_and_views_hide_what_the_player_cannot_see(kwargs):
    game, states = positions(kwargs, seed=3)
    for state in states:
        picture = contract.svg(game, state)
        tokens = targets(picture)
        for action in state.legal_actions():
            move = state.action_to_string(action)
            assert reachable(move, tokens), (move, state.phase, sorted(tokens)[:20])
        seat = 0 if state.is_chance_node() or state.is_terminal() else state.to_move
        view = state.view(seat)
        mine = svg(game, state, player=seat)
        assert mine == contract.svg(game, view)
        other = view.resample(np.random.default_rng(1))
        assert svg(game, other, player=seat) == mine  # another state with the same view: the same picture
        tokens = targets(mine)
        for move in view.legal_moves()[:200]:
            assert reachable(move, tokens), (move, state.phase)


def test_a_hint_marks_its_top_move_and_the_next_two_fainter():
    game = AetheryaGame()
    _, states = positions({}, seed=5)
    state = next(s for s in states if s.phase == "choose")
    hint = contract.hint(game, state, SearchContext(limits=Limits(nodes=200)), top=3).to_json()
    picture = contract.svg(game, state.view(state.to_move), hint=hint)
    parse(picture)
    first = hint["moveInfos"][0]
    assert f"1: {first['value']:.3g}" in picture
    if len(hint["moveInfos"]) > 1:
        assert "2: " in picture and 'opacity="0.45"' in picture


def test_puzzle_sheets_hold_every_puzzle(tmp_path):
    game = AetheryaGame()
    puzzles = list(generate(game, "legend-race", "easy", seed=1, count=2)) + \
        list(generate(game, "best-kingdom", "easy", seed=1, count=1))
    sheets, _ = printed_sheets(game, puzzles, tmp_path)
    for puzzle, (sheet, _) in zip(puzzles, sheets):
        assert puzzle["id"] in sheet and puzzle["difficulty"] in sheet
        assert puzzle["solution"].get("kingdom", "x") not in sheet or puzzle["kind"] != "best-kingdom"


def documented_pictures() -> list[tuple[list[str], Path]]:
    """(argv, file) of each `memory-solver ... > docs/pictures/...` command in docs/formats/aetherya.md."""
    text = (ROOT / "docs" / "formats" / "aetherya.md").read_text()
    out = []
    for line in text.splitlines():
        match = re.match(r"^\s*memory-solver (aetherya show .*) > (docs/pictures/aetherya-[\w-]+\.svg)\s*$", line)
        if match:
            out.append((shlex.split(match.group(1)), ROOT / match.group(2)))
    return out


def test_the_documented_pictures_regenerate_byte_for_byte():
    commands = documented_pictures()
    assert len(commands) >= 2
    for argv, path in commands:
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            assert cli.main(argv) == 0
        parse(buffer.getvalue())
        assert buffer.getvalue() == path.read_text(), path.name
