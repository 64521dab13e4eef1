"""Mnemonic self-play: the policies that exist, each playing the same seeded deal with the same dice.

Mnemonic is cooperative (MN-31), so there are no seats to swap: every policy
plays the same deal with the same chance outcomes (common random numbers: the
same draws, rolls and Group Scene results whenever the policies' choices allow),
and the outcomes are paired. A session is at most ``maxRounds`` rounds of
Individual Scenes (one evening) and stops at its first Victory, as in
``benchmarks/bench_mnemonic.py``.

Policies (:mod:`solver.mnemonic.policies`):

* ``planner``: the planner at the table with the hint's default horizon (the current round and 2 Group Scenes,
  the continuation estimate beyond, MN-44) and at every scene decision (to the end of the scene, then the estimate);
* ``after-one-round``, ``after-two-rounds``: face the Adversary once one (two) rounds have been played since the
  last Group Scene; scenes planned like the planner's;
* ``plain-after-one-round``, ``plain-after-two-rounds``: the same table rules with the plain scene policy (most
  dice, never weave).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import InvalidInputError
from solver.mnemonic.planner import Horizon
from solver.mnemonic.policies import Policy, planner_policy, play_session, rule_of_thumb
from solver.mnemonic.state import MnemonicState
from solver.search import SearchContext, Stopped

if TYPE_CHECKING:
    from solver.mnemonic.game import MnemonicGame

POLICIES = ("planner", "after-one-round", "after-two-rounds", "plain-after-one-round", "plain-after-two-rounds")
DEFAULT = ("planner", "after-one-round")


def policy(name: str, ctx: SearchContext | None = None) -> Policy:
    """The policy called ``name``; its planner searches stop with :class:`~solver.search.Stopped` when ``ctx`` says."""
    return {
        "planner": lambda: planner_policy(Horizon(0, 2), scenes=True, scene_groups=0, ctx=ctx),
        "after-one-round": lambda: rule_of_thumb(1, planned_scenes=True, scene_groups=0, ctx=ctx),
        "after-two-rounds": lambda: rule_of_thumb(2, planned_scenes=True, scene_groups=0, ctx=ctx),
        "plain-after-one-round": lambda: rule_of_thumb(1),
        "plain-after-two-rounds": lambda: rule_of_thumb(2),
    }[name]()


def polled(chosen: Policy, ctx: SearchContext) -> Policy:
    """``chosen``, refusing to decide once ``ctx`` says stop (its time limit, ``terminate``): :class:`Stopped`."""
    def decide(state: MnemonicState, rounds_left: int, rounds_since: int) -> int:
        if ctx.should_stop():
            raise Stopped
        return chosen(state, rounds_left, rounds_since)
    return decide


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


def play(game: MnemonicGame, policies: tuple[str, ...], rng: np.random.Generator, ctx: SearchContext,
         **options: Any) -> dict[str, Any]:
    """One deal played by every policy (option ``maxRounds``, default 3); paired outcomes (1 for a session with a
    Victory) and each game's moves. Stops with :class:`~solver.search.Stopped` when ``ctx`` says."""
    max_rounds = options.pop("maxRounds", 3)
    for key, value in options.items():
        raise InvalidInputError(key, value, "not an option of Mnemonic self-play (known: maxRounds)")
    deal = int(rng.integers(2**31))
    dice = int(rng.integers(2**31))
    start = game.new_game(deal)
    outcomes: dict[str, int] = {}
    games: dict[str, Any] = {}
    for name in policies:
        state = RecordingState.of(start)
        result = play_session(state, polled(policy(name, ctx), ctx), np.random.default_rng(dice),
                              max_rounds=max_rounds)
        outcomes[name] = result["victory"]
        games[name] = {"rounds": result["rounds"], "groupScenes": result["groups"], "moves": state.log}
    return {"deal": deal, "start": start.to_notation(), "maxRounds": max_rounds, "outcomes": outcomes,
            "games": games}
