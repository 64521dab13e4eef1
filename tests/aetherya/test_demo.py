"""``memory-solver demo --game aetherya``: the game's main jobs run through the command line on built-in examples,
and the reviewed game in them is the seeded deal played by the hint, as entered from seat 0's view."""

from __future__ import annotations

import contextlib
import io
import re

import numpy as np

from solver import cli, contract
from solver.aetherya.commands import DEMO_NODES, DEMO_RECORD, DEMO_VIEW
from solver.aetherya.game import AetheryaGame
from solver.aetherya.knowledge import observed_entries, turned_over_entries
from solver.aetherya.playout import greedy_action, sample_chance
from solver.search import Limits, SearchContext

DEAL_SEED = 4
FACE_DOWN_LEFT = 3


def test_the_demo_shows_scoring_a_hint_a_review_proven_kingdoms_and_a_puzzle():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["demo", "--game", "aetherya"]) == 0
    text = out.getvalue()
    assert "total        20" in text and "Legends this kingdom satisfies: human-dwarf, four-tribes" in text
    assert "what seat 0 knows" in text and "1 ? E F E" in text  # the position as the player sees it
    assert re.search(r"\n  1\. draw ", text)                      # the hint, from the view alone
    assert "Review of player 0 (aetherya): 11 decisions" in text
    # the optimiser examples: the 16-card hand proven optimal, rendered as a 4x4 grid with its score sheet
    assert re.search(r"Best kingdom of PFFMMSSHHEEDGGRO:\n(  [PFMSHEDGRO]( [PFMSHEDGRO]){3}\n){4}", text)
    assert "total        33" in text and "proven optimal" in text
    assert "a1=R,d4=O fixed" in text
    assert "aetherya-legend-race-easy-1-0" in text and "correct: optimal" in text


def test_the_demo_game_is_the_seeded_deal_played_by_the_hint_from_seat_0s_view():
    """Seat 0 has ``FACE_DOWN_LEFT`` face-down cards left in the seeded greedy game; from there it plays the
    hint's best move (``DEMO_NODES`` playouts) and seat 1 the greedy policy; the record holds what seat 0 entered."""
    game = AetheryaGame()
    state = game.new_initial_state(DEAL_SEED)
    rng = np.random.default_rng(DEAL_SEED)
    while state.is_chance_node() or state.to_move != 0 or state.phase != "choose" \
            or bin(state.hidden[0]).count("1") > FACE_DOWN_LEFT:
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else greedy_action(state, rng))
    view = state.view(0)
    assert view.to_notation() == DEMO_VIEW and view.to_json() == DEMO_RECORD["start"]
    entries: list[str] = []
    while not view.is_terminal():
        if state.is_terminal():
            typed = turned_over_entries(view, state)
        else:
            if not state.is_chance_node() and state.to_move == 0:
                ctx = SearchContext(limits=Limits(nodes=int(DEMO_NODES)), seed=0)
                action = state.parse_move(contract.hint(game, view, ctx, top=1).best.move)
            else:
                action = sample_chance(state, rng) if state.is_chance_node() else greedy_action(state, rng)
            typed = observed_entries(state, action, 0)
            state.apply_action(action)
            trial = view.clone()
            for text in typed:
                trial.apply_move(text)
            typed += turned_over_entries(trial, state)
        for text in typed:
            view.apply_move(text)
        entries += typed
    assert entries == DEMO_RECORD["moves"]
