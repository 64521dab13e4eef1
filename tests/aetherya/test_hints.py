"""Hints: every decision ranked, player's information only, full information labelled, Power Stones exact."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from solver import contract
from solver.aetherya.game import AetheryaGame
from solver.aetherya import hints
from solver.aetherya.hints import candidate_plans, power_stones
from solver.aetherya.planner import local_search
from solver.aetherya.playout import advance_to_turn_start, greedy_action
from solver.cli import main
from solver.errors import InvalidInputError, SolverError, UnsupportedActionError
from solver.search import Limits, SearchContext
from solver.testing import command_line

from .test_modes import objects_state
from .test_state import base_state


def ctx(nodes=None, time_ms=None, seed=0):
    return SearchContext(limits=Limits(time_ms=time_ms, nodes=nodes), seed=seed)


def dealt(spec_kwargs=None, seed=3):
    game = AetheryaGame(**(spec_kwargs or {}))
    return advance_to_turn_start(game.new_initial_state(seed), np.random.default_rng(0))


def test_hint_ranks_take_and_draw_with_plans_and_reasons():
    state = base_state()
    result = contract.hint(AetheryaGame(), state, ctx(nodes=400), top=5)
    moves = [m.move for m in result.move_infos]
    assert sorted(moves) == ["draw", "take"]
    for info in result.move_infos:
        assert info.pv[0] == info.move and info.why and "expected" in info.why
        assert info.extra["samples"] >= 6 and info.extra["valueStdev"] >= 0
    take = next(m for m in result.move_infos if m.move == "take")
    assert take.pv[1].startswith("place ") and len(take.extra["plans"]) >= 2
    assert result.root_info["fullInformation"] is False
    assert result.move_infos[0].value >= result.move_infos[-1].value


def test_hint_uses_only_the_players_observation():
    """Two states with the same observation for the player to move get the same hint (same seed)."""
    state = base_state()
    other = state.resample_from_observation(0, np.random.default_rng(42))
    assert other.to_json() != state.to_json() and other.observation(0) == state.observation(0)
    a = contract.hint(AetheryaGame(), state, ctx(nodes=150), top=3).to_json()
    b = contract.hint(AetheryaGame(), other, ctx(nodes=150), top=3).to_json()
    for r in (a, b):
        r["rootInfo"].pop("seconds")
    assert a == b


def test_full_information_analysis_is_labelled_and_differs():
    state = base_state()
    full = contract.hint(AetheryaGame(), state, ctx(nodes=150), full_information=True)
    assert full.root_info["fullInformation"] is True
    other = state.resample_from_observation(0, np.random.default_rng(42))
    full_other = contract.hint(AetheryaGame(), other, ctx(nodes=150), full_information=True)
    assert [m.value for m in full.move_infos] != [m.value for m in full_other.move_infos]


def test_hint_in_every_phase_of_every_mode():
    for kwargs in ({}, {"mode": "coop", "players": 3}, {"mode": "solo"}, {"mode": "objects"}):
        state = dealt(kwargs)
        rng = np.random.default_rng(1)
        for _ in range(6):
            if state.is_terminal():
                break
            if state.is_chance_node():
                advance_to_turn_start(state, rng)
                continue
            result = contract.hint(state.game, state, ctx(nodes=60), top=3)
            assert result.move_infos and result.move_infos[0].move in [state.action_to_string(a)
                                                                         for a in state.legal_actions()]
            state.apply_move(result.move_infos[0].move)


def test_arrangement_and_block_decisions_are_hinted():
    game = AetheryaGame()
    state = game.new_initial_state(1)
    assert state.phase == "arrange"
    result = contract.hint(game, state, ctx(nodes=100), top=24)
    assert len(result.move_infos) == 24


def test_hint_errors():
    state = base_state()
    with pytest.raises(InvalidInputError):
        contract.hint(AetheryaGame(), state, ctx(nodes=10), player=1)
    state.apply_move("draw")
    with pytest.raises(InvalidInputError):
        contract.hint(AetheryaGame(), state, ctx(nodes=10))


def test_hint_improves_with_time_more_samples():
    state = base_state()
    short = contract.hint(AetheryaGame(), state, ctx(nodes=100))
    long = contract.hint(AetheryaGame(), state, ctx(nodes=1200))
    assert long.move_infos[0].extra["samples"] > short.move_infos[0].extra["samples"]


def test_power_stones_best_set_exact_AE30():
    """AE-30: the hint reports the exact best Stone set; the tile decision reason quotes it."""
    state = objects_state(owned0=["stone1", "stone4"])
    stones = power_stones(state, 0)
    assert stones["held"] == [1, 4] and stones["value"] == 5 and stones["unseen"] == [2, 3]
    assert stones["bestReachable"] == 8 and stones["bestToAdd"] == [3]
    # reveal a territory holding the 2-Stone
    cell = next(c for c in range(16) if state.territory_tiles[0][c] >= 0 and state.territory_tiles[0][c] % 16 == 7)
    from solver.aetherya.cards import CELL_NAMES
    state.apply_move("draw")
    state.apply_action(2000 + 9)
    state.apply_move(f"reveal {CELL_NAMES[cell]}")
    assert state.phase == "tile"
    stones = power_stones(state, 0)
    # 1+4+2 = 7 and the 3 would then give 0; refusing keeps 8 (1+4+3) reachable: refuse, exactly
    assert stones["offered"] == [2] and stones["takeOffered"] is False and stones["bestReachable"] == 8
    result = contract.hint(state.game, state, ctx(nodes=60))
    assert any("Stone" in m.why for m in result.move_infos)
    assert result.root_info["powerStones"]["bestReachable"] == 8
    state = objects_state(owned0=["stone1", "stone4"])
    cell = next(c for c in range(16) if state.territory_tiles[0][c] >= 0 and state.territory_tiles[0][c] % 16 == 8)
    state.apply_move("draw")
    state.apply_action(2000 + 9)
    state.apply_move(f"reveal {CELL_NAMES[cell]}")
    assert power_stones(state, 0)["takeOffered"] is True  # 1+4+3 = 8 beats anything with the 2


def test_local_search_planner_reaches_the_exhaustive_optimum_on_small_cases():
    """The planner's local search equals brute force when only 4 cells are free (4! arrangements)."""
    import itertools
    from solver.aetherya.scoring import score_board
    rng = np.random.default_rng(0)
    for trial in range(5):
        cards = [int(x) for x in rng.integers(0, 10, size=16)]
        fixed = 0xFFFF & ~(1 << 5 | 1 << 6 | 1 << 9 | 1 << 10)
        free = [5, 6, 9, 10]
        best = -999
        for perm in itertools.permutations([cards[c] for c in free]):
            trial_cards = list(cards)
            for c, k in zip(free, perm):
                trial_cards[c] = k
            best = max(best, score_board(np.asarray(trial_cards, np.uint8)).total)
        _, found = local_search(cards, fixed, rng, restarts=6)
        assert found == best


def test_cli_hint_and_engine(tmp_path, capfd):
    state = base_state()
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state.to_json()))
    out = command_line(main, ["aetherya", "hint", str(path), "--nodes", "60", "--json"], capfd)
    assert out.returncode == 0, out.stderr
    body = json.loads(out.stdout)
    assert body["moveInfos"][0]["move"] in ("take", "draw")
    bad = command_line(main, ["aetherya", "hint", '{"mode": "base"}'], capfd)
    assert bad.returncode == 1 and "state" in bad.stderr.lower() and "Traceback" not in bad.stderr
    query = {"id": 7, "game": "aetherya", "action": "hint", "state": state.to_notation(), "limits": {"nodes": 60}}
    eng = subprocess.run([sys.executable, "-m", "solver", "engine"], input=json.dumps(query) + "\n",
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    reply = json.loads(eng.stdout.splitlines()[-1])
    assert reply["id"] == 7 and reply["moveInfos"]


def test_candidate_plans_cover_every_decision():
    state = base_state()
    plans = candidate_plans(state)
    take_plans = [p for p in plans if len(p) == 2]
    after = state.child(0)
    assert len(take_plans) == len(after.legal_actions()) and [2] in plans


def _same_hint(state, other, nodes=30):
    """The hint JSON of two states for the player to act, wall-clock fields removed."""
    out = []
    for s in (state, other):
        result = contract.hint(s.game, s, ctx(nodes=nodes), top=4).to_json()
        result["rootInfo"].pop("seconds")
        out.append(result)
    return out[0] == out[1], out


def test_hints_ignore_what_the_player_cannot_see_in_every_mode_AE22():
    """AE-22: two states that differ only in what the advised player cannot see (face-down cards, draw order,
    face-down tiles) get identical hints for the same seed, in every mode and every kind of decision; in
    particular the reason and plan of a 'reveal' never tell what the revealed card is (they once did)."""
    from solver.aetherya.playout import greedy_action, sample_chance
    phases = set()
    for kwargs, seed in (({}, 0), ({"mode": "solo"}, 3), ({"mode": "coop", "players": 3}, 1),
                         ({"mode": "objects"}, 2)):
        game = AetheryaGame(**kwargs)
        state = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        checked = 0
        for step in range(400):
            if state.is_terminal() or checked >= 4:
                break
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            wanted = state.phase in ("place", "keep", "tile", "end-turn") and (
                state.phase != "place" or state.hold_from == "draw")
            if wanted and (state.phase not in phases or step % 5 == 0):
                other = state.resample_from_observation(state.to_move, np.random.default_rng(step))
                assert other.observation(state.to_move) == state.observation(state.to_move)
                if other.to_json() != state.to_json():
                    same, (a, b) = _same_hint(state, other)
                    assert same, (kwargs, state.to_notation(), a, b)
                    phases.add(state.phase)
                    checked += 1
            state.apply_action(greedy_action(state, rng))
    assert {"place", "end-turn", "keep", "tile"} <= phases


def test_hint_ignores_other_players_palantir_peeks_AE29():
    """AE-29/AE-22: the opponent's Palantir peeks are private: the tile seat 1 peeked at may be anything for
    seat 0's hint; seat 0's own peek is used (its resampled worlds keep that tile)."""
    state = objects_state(owned1=["palantir"])
    state.known[1] = [0 * 16 + 0, 0 * 16 + 1]  # seat 1 peeked at seat 0's a1 and b1
    state.peeks_used = 0
    other = state.clone()
    a1, c1 = state.territory_tiles[0][0], state.territory_tiles[0][2]
    other.territory_tiles[0][0], other.territory_tiles[0][2] = c1, a1  # swap a peeked tile with an unpeeked one
    assert other.observation(0) == state.observation(0) and other.observation(1) != state.observation(1)
    state.apply_move("draw")
    other.apply_move("draw")
    state.apply_action(2000 + 9)
    other.apply_action(2000 + 9)
    same, (a, b) = _same_hint(state, other, nodes=60)
    assert same, (a, b)


def test_solo_hint_keeps_the_policy_move_unless_another_is_significantly_better():
    """Whole-campaign playouts are noisy: a solo hint lists the solo policy's move first unless the best measured
    move beats it significantly on the paired differences (docs/rules/aetherya.md, hints)."""
    from solver.aetherya.hints import Candidate, _ranked
    from solver.ranking import significantly_better

    def cand(plan, progress, values, default=False):
        return Candidate(plan=[plan], values=list(values), progress=list(progress), rounds=[0] * len(values),
                         protected=default)

    policy = cand(1, [12, 13, 12, 14, 13, 12, 13, 12], [10, 20, 15, 18, 12, 11, 14, 16], default=True)
    noisy = cand(2, [13, 12, 13, 14, 13, 13, 12, 13], [12, 18, 16, 17, 13, 12, 15, 15])
    assert noisy.mean > policy.mean and not significantly_better(noisy, policy, 2.0)
    assert [c.plan for c in _ranked([noisy, policy])] == [[1], [2]]
    clear = cand(3, [15] * 8, [20, 25, 22, 24, 21, 23, 22, 20])
    assert significantly_better(clear, policy, 2.0)
    assert [c.plan for c in _ranked([noisy, clear, policy])][0] == [3]


def test_solo_hint_marks_the_policy_move():
    """The solo policy's own move carries ``policyMove`` and, with a budget too small to separate the moves, is
    listed first."""
    from solver.aetherya.playout import greedy_action

    state = dealt({"mode": "solo"})
    policy_move = state.action_to_string(greedy_action(state.clone(), np.random.default_rng(0)))
    result = contract.hint(state.game, state, ctx(nodes=60), top=10)
    flagged = [m.move for m in result.move_infos if m.extra.get("policyMove")]
    assert flagged == [policy_move] and result.move_infos[0].move == policy_move


def test_a_placement_after_take_is_hinted_on_a_small_budget():
    """A co-op placement after 'take' is ranked within the turn start's search; when the budget is too small for
    that search to reach a plan taking this card, the placements are ranked on their own (there was no move)."""
    from solver.aetherya.playout import greedy_action, sample_chance
    from solver.aetherya.hints import hint
    game = AetheryaGame(mode="coop")
    state, rng = game.new_initial_state(5), np.random.default_rng(5)
    while not (state.phase == "place" and state.hold_from == "take"):
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else greedy_action(state, rng))
    result = hint(state, ctx(nodes=30), top=1)
    assert result.best is not None and state.parse_move(result.best.move) in state.legal_actions()


def test_a_coop_hint_keeps_the_greedy_turn_unless_another_is_significantly_better():
    """Co-op (like solo): the greedy player's move is marked ``policyMove``; at a turn start it is its take with
    the placement it would make (or its draw). With too few samples for any move to be significantly better,
    the hint's first move is the greedy one."""
    from solver.aetherya.playout import greedy_action
    from solver.aetherya.hints import hint
    state = dealt({"mode": "coop"}, seed=4)
    state.apply_action(greedy_action(state, np.random.default_rng(1)))  # the opening arrangement
    state = advance_to_turn_start(state, np.random.default_rng(2))
    assert state.phase == "choose"
    result = hint(state, ctx(nodes=12, seed=3), top=1)
    expected = greedy_action(state.clone(), np.random.default_rng(3))
    assert result.best.move == state.action_to_string(expected)
    assert result.best.extra.get("policyMove") is True


@pytest.mark.parametrize("spec", [{}, {"players": 3}, {"mode": "coop"}, {"mode": "coop", "players": 4}])
def test_plans_applied_in_the_kernel_give_the_values_of_plans_played_on_full_states(spec, monkeypatch):
    """Issue 24: in base and co-op the hint packs each sampled world once and the kernel applies every plan to
    the vector; a search measures exactly the values it measured with every plan played on a copy of the full
    state and packed after it (same worlds, same random numbers), at turn starts and inside turns."""
    rng = np.random.default_rng(11)
    state, checked = dealt(spec, seed=5), 0
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
            continue
        if len(state.legal_actions()) > 1 and rng.random() < 0.4:
            measured = []
            for modes in (hints.PLAN_MODES, ()):
                monkeypatch.setattr(hints, "PLAN_MODES", modes)
                found, _ = hints.search(state, ctx(nodes=150, seed=checked), state.to_move,
                                        lambda r, s=state: s.clone())
                measured.append([(c.plan, c.values) for c in found])
            assert measured[0] == measured[1]
            checked += 1
        state.apply_action(greedy_action(state, rng))
    assert checked >= 3
