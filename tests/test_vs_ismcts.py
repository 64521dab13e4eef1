"""The match-ups of benchmarks/bench_vs_ismcts.py: one short seeded match per game, played the same way twice."""

import sys
from pathlib import Path

import pytest

try:
    import pyspiel  # noqa: F401
except ImportError:
    pytest.skip("open-spiel is not installed (pip install 'memory-solver[openspiel]'): IS-MCTS match-up tests "
                "skipped", allow_module_level=True)

from solver.openspiel.versus import (HINT, ISMCTS, MATCHUPS, Budget, TimedISMCTSBot, openspiel_game, play_item,
                                     summarize)

#: fixed work per decision, so that a match is the same on every machine; short games (the adapter's cap)
WORK = Budget(hint_nodes=4, simulations=8)
CAP = 8


def without_timing(item):
    return {**item, "games": [{k: v for k, v in g.items() if k != "stats"} for g in item["games"]]}


@pytest.mark.parametrize("matchup", MATCHUPS, ids=[m.label for m in MATCHUPS])
def test_a_seeded_match_is_played_the_same_way_twice(matchup):
    first = play_item(matchup.label, WORK, deal=3, run_seed=5, max_moves=CAP)
    again = play_item(matchup.label, WORK, deal=3, run_seed=5, max_moves=CAP)
    assert without_timing(first) == without_timing(again)
    games = first["games"]
    if matchup.competitive:
        assert [g["seats"] for g in games] == [[HINT, ISMCTS], [ISMCTS, HINT]]
        assert len(first["outcomes"][HINT]) == len(first["outcomes"][ISMCTS]) == 2
        for g, hint_won, ismcts_won in zip(games, first["outcomes"][HINT], first["outcomes"][ISMCTS]):
            assert not (hint_won and ismcts_won)
            assert hint_won == (g["winners"] == [g["seats"].index(HINT)])
    else:
        assert [set(g["seats"]) for g in games] == [{HINT}, {ISMCTS}]
        assert first["outcomes"] == {HINT: [int(bool(games[0]["winners"]))], ISMCTS: [int(bool(games[1]["winners"]))]}
    for g in games:
        assert g["moves"] == len(g["record"]) <= CAP
        assert g["winners"] == [] or not g["capped"]  # a game stopped by the cap is won by nobody
        for policy, stats in g["stats"].items():
            assert stats["decisions"] >= 1
            if policy == ISMCTS:
                assert stats["simulations"] == WORK.simulations * stats["decisions"]
    assert bool(first["scores"]) == matchup.scored


def test_another_deal_is_another_match():
    one = play_item("forgotten", WORK, deal=3, run_seed=5, max_moves=CAP)
    other = play_item("forgotten", WORK, deal=4, run_seed=5, max_moves=CAP)
    assert [g["record"] for g in one["games"]] != [g["record"] for g in other["games"]]


def test_timed_ismcts_spends_its_budget_and_counts_simulations():
    import solver.openspiel as sos
    game = openspiel_game(MATCHUPS[4])  # forgotten
    state = sos.deal(game, 1)
    bot = TimedISMCTSBot(game, uct_c=2.0, seconds=0.05, max_simulations=None, seed=1)
    action = bot.step(state)
    assert action in state.legal_actions()
    assert bot.last_simulations >= 2


def test_summary_pairs_the_games():
    items = [play_item("memorinth 2p", WORK, deal=d, run_seed=5, max_moves=CAP) for d in (3, 4)]
    s = summarize(items)
    assert s["deals"] == 2 and s["games"] == 4
    assert s["hint"]["wins"] == sum(sum(i["outcomes"][HINT]) for i in items)
    assert s["onlyHint"] + s["onlyIsmcts"] <= 4
    assert 0.0 <= s["mcnemarP"] <= 1.0


def test_the_benchmark_renders_saved_items(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import bench_vs_ismcts
    item = play_item("mnemonic", WORK, deal=3, run_seed=5, max_moves=CAP)
    item["seconds"], item["budget"] = 0.1, "0.1 s"
    text = bench_vs_ismcts.render([item], "cmd")
    assert "| mnemonic | 0.1 s | 1 | 1 |" in text
    assert bench_vs_ismcts.parse_budgets("0.1:4,2") == [(0.1, 4), (2.0, 10)]
    plan = bench_vs_ismcts.plan(["mnemonic", "memorinth 2p"], [(0.1, 3)], {"mnemonic": False, "memorinth 2p": True})
    assert plan == [("mnemonic", 0.1, 0), ("memorinth 2p", 0.1, 0), ("mnemonic", 0.1, 1), ("memorinth 2p", 0.1, 1),
                    ("mnemonic", 0.1, 2)]


@pytest.mark.parametrize("label", ["forgotten", "aetherya solo"])
def test_the_hint_seats_play_our_hints_top_move(label):
    """Replaying a fixed-work game: every decision of a hint seat is solver.hint's top move with the seed the
    match drew for it, so the match plays our public hint and nothing else."""
    import solver.api
    import solver.openspiel as sos
    from solver.openspiel.versus import BY_LABEL, play_game
    from solver.registry import load_game
    from solver.scale import item_rng
    from solver.testing import random_action
    matchup = BY_LABEL[label]
    game = openspiel_game(matchup, CAP)
    played = play_game(matchup, (HINT,) * game.num_players(), WORK, deal=3, run_seed=5, game=game)
    ours = load_game(matchup.spec)
    state = sos.deal(game, 3)
    chance, seeds = item_rng(5, 3, matchup.spec, "chance"), item_rng(5, 3, matchup.spec, "policies")
    record = iter(played["record"])
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_action(state, chance))
            continue
        action = sos.action_from_move(state, next(record))
        if len(state.legal_actions()) > 1:
            hint = solver.api.hint(ours, sos.inner_state(state), top=1, nodes=WORK.hint_nodes,
                                   player=state.current_player(), seed=int(seeds.integers(2**62)))
            assert action == sos.action_from_move(state, hint.best.move)
            checked += 1
        state.apply_action(action)
    assert checked == played["stats"][HINT]["decisions"] >= 2
    assert next(record, None) is None


def test_timed_ismcts_with_a_simulation_cap_is_openspiels_ismcts():
    """Without a time limit the timed bot's search is OpenSpiel's own ISMCTSBot, draw for draw."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    import solver.openspiel as sos
    game = openspiel_game(MATCHUPS[3])  # embers
    state = sos.deal(game, 2)
    ours = TimedISMCTSBot(game, uct_c=2.0, seconds=None, max_simulations=24, seed=11)
    random_state = np.random.RandomState(11)
    theirs = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, random_state), uct_c=2.0, max_simulations=24,
                              random_state=random_state)
    theirs.set_resampler(sos.resampler(11))
    for _ in range(3):
        assert ours.run_search(state) == theirs.run_search(state)
        assert ours.last_simulations == 24
        state.apply_action(state.legal_actions()[0])
        while not state.is_terminal() and (state.is_chance_node() or len(state.legal_actions()) == 1):
            state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])


def synthetic(hint, ismcts, scores=None):
    """An item with the given outcomes (one entry per game of the pair) and, optionally, Aetherya scores."""
    return {"outcomes": {HINT: hint, ISMCTS: ismcts}, "scores": scores or {}, "matchup": "forgotten",
            "seconds": 0.5, "budget": "0.5 s", "deal": 0, "seed": 0,
            "games": [{"capped": False, "stats": {}} for _ in hint]}


def test_the_summary_pairs_outcomes_by_deal():
    items = [synthetic([1], [1]), synthetic([1], [0]), synthetic([1], [0])]
    s = summarize(items)
    assert (s["hint"]["wins"], s["ismcts"]["wins"], s["onlyHint"], s["onlyIsmcts"]) == (3, 1, 2, 0)
    assert s["mcnemarP"] == pytest.approx(0.5)  # two discordant deals, both one way: 2 * 1/4
    assert s["hint"]["ci"][0] == pytest.approx(0.4385, abs=1e-3)  # Wilson 3/3
    mean, lo, hi = s["difference"]
    assert mean == pytest.approx(2 / 3)
    assert (hi - lo) / 2 == pytest.approx(4.303 * (3 ** -0.5) * (1 / 3) ** 0.5, rel=1e-3)  # t(2 df), sd 0.577


def test_the_summary_tests_paired_scores_by_sign_flips():
    items = [synthetic([1], [0], {HINT: [a], ISMCTS: [b]}) for a, b in ((10, 4), (7, 5), (3, 6), (9, 1))]
    s = summarize(items)["scores"]
    assert s["difference"][0] == pytest.approx((6 + 2 - 3 + 8) / 4)
    # differences 6, 2, -3, 8 (sum 13 of 19): a sign pattern is as extreme when the values it makes negative sum
    # to at most 3 (none, the 2, the 3) or, mirrored, to at least 16: 6 of the 16 patterns
    assert s["p"] == pytest.approx(6 / 16)


def test_the_results_file_is_what_the_budget_plot_reads(tmp_path, monkeypatch):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import bench_vs_ismcts
    import plots
    items = [synthetic([1], [1]), synthetic([1], [0])]
    items[1]["deal"] = 1
    summary = bench_vs_ismcts.summary_json(items, "cmd")
    [row] = summary["rows"]
    assert (row["kind"], row["game"], row["budget"], row["deals"]) == ("win rate", "forgotten", 0.5, 2)
    assert (row["ours"], row["theirs"], row["onlyOurs"], row["onlyTheirs"]) == (1.0, 0.5, 1, 0)
    target = tmp_path / "benchmarks" / "results" / "vs_ismcts.json"
    target.parent.mkdir(parents=True)
    target.write_text(__import__("json").dumps(summary))
    monkeypatch.setattr(plots, "ROOT", tmp_path)
    [svg] = plots.draw_budget(tmp_path)
    assert "forgotten (our hint)" in svg.read_text() and "forgotten (IS-MCTS)" in svg.read_text()


def test_per_game_budgets_plan_longest_budget_first():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import bench_vs_ismcts
    per_game = bench_vs_ismcts.parse_game_budgets(["memorinth 2p=0.1:4,2:2"], ["mnemonic", "memorinth 2p"])
    assert per_game == {"memorinth 2p": [(0.1, 4), (2.0, 2)]}
    plan = bench_vs_ismcts.plan(["mnemonic", "memorinth 2p"], [(0.1, 2)], {"mnemonic": False, "memorinth 2p": True},
                                per_game)
    assert plan == [("memorinth 2p", 2.0, 0), ("mnemonic", 0.1, 0), ("memorinth 2p", 0.1, 0), ("mnemonic", 0.1, 1),
                    ("memorinth 2p", 0.1, 1)]
    with pytest.raises(SystemExit):
        bench_vs_ismcts.parse_game_budgets(["chess=0.1:4"], ["mnemonic"])
