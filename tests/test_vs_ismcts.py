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
