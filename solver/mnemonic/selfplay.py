"""Mnemonic self-play: the policies that exist, each playing the same seeded deal with the same dice.

Mnemonic is cooperative (MN-31), so there are no seats to swap: every policy
plays the same deal with the same chance outcomes (common random numbers: the
same draws, rolls and Group Scene results whenever the policies' choices allow),
and the outcomes are paired. A session is at most ``maxRounds`` rounds of
Individual Scenes (one evening) and stops at its first Victory, as in
``benchmarks/bench_mnemonic.py``.

Policies (:mod:`solver.mnemonic.policies`):

* ``planner``: the exact planner at the table (1 round, 1 Group Scene) and at every scene decision;
* ``after-one-round``, ``after-two-rounds``: face the Adversary once one (two) rounds have been played since the
  last Group Scene; scenes planned like the planner's;
* ``plain-after-one-round``, ``plain-after-two-rounds``: the same table rules with the plain scene policy (most
  dice, never weave).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solver.mnemonic.state import MnemonicState

POLICIES = ("planner", "after-one-round", "after-two-rounds", "plain-after-one-round", "plain-after-two-rounds")
DEFAULT = ("planner", "after-one-round")


def policy(name: str) -> Any:
    from solver.mnemonic.planner import Horizon
    from solver.mnemonic.policies import planner_policy, rule_of_thumb
    return {
        "planner": lambda: planner_policy(Horizon(1, 1), scenes=True),
        "after-one-round": lambda: rule_of_thumb(1, planned_scenes=True),
        "after-two-rounds": lambda: rule_of_thumb(2, planned_scenes=True),
        "plain-after-one-round": lambda: rule_of_thumb(1),
        "plain-after-two-rounds": lambda: rule_of_thumb(2),
    }[name]()


class RecordingState(MnemonicState):
    """A session that writes down every move applied to it (the record of a self-play game)."""

    log: list[str]

    @staticmethod
    def of(state: MnemonicState) -> RecordingState:
        source = state.clone()
        copy = RecordingState(source.game, source.rules, source.mode, source.players)
        for key in ("deck", "discard", "round", "phase", "focus", "attempts", "scene", "group", "tally", "last"):
            setattr(copy, key, getattr(source, key))
        copy.log = []
        return copy

    def apply_action(self, action: int) -> None:
        text = self.action_to_string(action)
        super().apply_action(action)
        self.log.append(text)


def play(game: Any, policies: tuple[str, ...], rng: np.random.Generator, max_rounds: int = 3) -> dict[str, Any]:
    """One deal played by every policy; paired outcomes (1 for a session with a Victory) and each game's moves."""
    from solver.mnemonic.policies import play_session
    deal = int(rng.integers(2**31))
    dice = int(rng.integers(2**31))
    start = game.new_game(deal)
    outcomes: dict[str, int] = {}
    games: dict[str, Any] = {}
    for name in policies:
        state = RecordingState.of(start)
        result = play_session(state, policy(name), np.random.default_rng(dice), max_rounds=max_rounds)
        outcomes[name] = result["victory"]
        games[name] = {"rounds": result["rounds"], "groupScenes": result["groups"], "moves": state.log}
    return {"deal": deal, "start": start.to_notation(), "maxRounds": max_rounds, "outcomes": outcomes,
            "games": games}
