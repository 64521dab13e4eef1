"""A small paired sweep: the planner is never worse than the rules of thumb (MN-33, MN-44).

The same seeded sessions (deal, starting complications, chance stream) for every contestant, and the same scene
policy, so only the table's decisions differ; node budgets only, so the sessions are the same on every machine.
The large sweep, with intervals and McNemar tests, is in benchmarks/bench_mnemonic.py.
"""

import json

import pytest

from solver.mnemonic.game import MnemonicGame
from solver.mnemonic.planner import Horizon
from solver.mnemonic.policies import paired_wins, planner_policy, rule_of_thumb

SESSIONS = 24


def game_with(tmp_path, players: int, mode: str, weavings: int) -> MnemonicGame:
    rules = MnemonicGame().rules.with_overrides({"weaving.perPlayer": weavings, "planner.sessionRounds": 3})
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(rules.to_json()))
    return MnemonicGame(players=players, mode=mode, rules=str(path))


@pytest.mark.parametrize("players,mode,weavings,pool,planned", [
    (1, "deck-burner", 1, 0, False),
    (2, "deck-burner", 0, 3, False),
    (3, "deck-burner", 1, 3, False),
    (2, "into-the-grey", 1, 3, False),
    (2, "deck-burner", 3, 3, True),
])
def test_mn44_the_planner_is_never_worse_than_a_rule_of_thumb(tmp_path, players, mode, weavings, pool, planned):
    """MN-44: on the same sessions the planner at the table's choices (the hint's default horizon) wins at least as
    often as "always face the Adversary after one round" and as "never before two rounds"."""
    game = game_with(tmp_path, players, mode, weavings)
    won = paired_wins(game, {"planner": planner_policy(Horizon(0, 2), 50_000, scenes=planned, scene_groups=0),
                             "after one round": rule_of_thumb(1, planned_scenes=planned, scene_groups=0),
                             "never before two rounds": rule_of_thumb(2, planned_scenes=planned, scene_groups=0)},
                      SESSIONS, pool)
    assert sum(won["planner"]) >= max(sum(won["after one round"]), sum(won["never before two rounds"]))
