"""Hints that read right, on every registered game (issue 22, section 2): the displayed order is the order of the
values, or one plain sentence says why a lower value is first (or why a move sits below a lower one); reasons never
call a move better than one listed above it; the value line says what the number means in plain words, without the
rulebook's internal ids (those stay in docs/rules); sampled values carry the paired loss against the first move."""

from __future__ import annotations

import re

import numpy as np
import pytest

from solver import contract
from solver.registry import game_names, load_game
from solver.search import Limits, SearchContext
from solver.testing import random_action

RULE_ID = re.compile(r"\b(AE|EM|FG|MR|MN)-\d+")
#: a small deterministic budget per hint (Aetherya's playouts are whole games: fewer)
BUDGET = {"aetherya": 60}
#: words that explain a lower value listed first (ranking.first_note, the policy's kept move, Mnemonic's margin)
FIRST_REASONS = ("within noise: as good as", "listed first", "keeps it", "kept:")


def positions(name: str, count: int = 4):
    """Decisions of seeded random games: the first decision of a deal and some later ones."""
    game = load_game(name)
    out = []
    for seed in range(count):
        state = game.new_game(seed)
        rng = np.random.default_rng(seed)
        for step in range(int(rng.integers(0, 25))):
            if state.is_terminal():
                break
            state.apply_action(random_action(state, rng))
        while state.is_chance_node() and not state.is_terminal():
            state.apply_action(random_action(state, rng))
        if not state.is_terminal():
            out.append(state)
    return game, out


@pytest.mark.parametrize("name", game_names())
def test_the_order_reads_right_and_the_words_name_no_rule_id(name):
    game, states = positions(name)
    assert states
    for state in states:
        ctx = SearchContext(limits=Limits(nodes=BUDGET.get(name, 1500)), seed=1)
        result = contract.hint(game, state, ctx, top=1000)
        infos = result.move_infos
        meaning = result.root_info.get("valueMeaning", "")
        assert meaning and not RULE_ID.search(meaning), meaning
        for i, info in enumerate(infos):
            assert not RULE_ID.search(info.why), info.why
            assert "better than" not in info.why or i == 0, info.why
            lower_above = [m for m in infos[1:i] if m.value < info.value and m.extra.get("valued") is not False]
            if lower_above and info.extra.get("valued") is not False:
                assert "listed below" in info.why or "listed after" in info.why, (name, info.move, info.why)
        valued = [m for m in infos if m.extra.get("valued") is not False]
        if valued and any(m.value > valued[0].value for m in valued[1:]):
            assert any(words in valued[0].why for words in FIRST_REASONS), (name, valued[0].why)
        for info in infos:
            if "valueCI" in info.extra:        # sampled: the paired loss against the first move, never below 0 first
                loss = info.extra["lossToFirst"]
                assert loss is None or loss["value"] is None or info is not infos[0] or loss["value"] == 0.0
